/*
 * pace.h - which windows of a run on several threads are worth the threads.
 *
 * A window run on the threads costs two barriers (microseconds; tens when a
 * sleeping thread must be woken) and saves the share of its events that the
 * other threads fire.  Which wins depends on the machine and on how many
 * events the window holds, so the run measures it.  Windows are classed by
 * the log2 of their events; each class keeps the wall time an event took
 * when its windows ran on one thread and when they ran on the threads (a
 * moving average that follows a faster window half of the way and a slower
 * one a quarter: what disturbs a window, another process or a page fault,
 * only adds time).  The next window, taken to be of the class of the one
 * before, runs the cheaper way.  Now and then it runs the other way, so
 * that a machine whose speed changes is followed: at the PACE_PERIOD_MIN-th
 * window of its class at first, a quarter as often each time the answer
 * holds, down to one in PACE_PERIOD_MAX.  Windows of fewer than `floor`
 * events run on one thread and windows of `ceiling` or more on the
 * threads, untimed: there the answer does not depend on the machine, and a
 * trial of one thread would move a large working set between the cores
 * twice.
 *
 * Where a partition's events fire changes the wall time only, never the
 * outputs (parallel.c), so this choice may follow the clock.
 */
#ifndef DCQCN_FABRIC_PACE_H
#define DCQCN_FABRIC_PACE_H

#include <stdint.h>

#define PACE_CLASSES 40 /* windows of up to 2^40 events */
#define PACE_PERIOD_MIN 32
#define PACE_PERIOD_MAX 1024
/* a measurement counts at most this many times the estimate it updates
 * (a thread preempted for milliseconds must not decide alone) */
#define PACE_OUTLIER 4

struct fabric_pace {
	uint64_t floor;              /* fewer events: one thread, untimed */
	uint64_t ceiling;            /* as many or more: the threads, untimed */
	struct pace_class {
		double ns[2];        /* ns an event: on one thread [0], on the threads [1]; 0 unknown */
		uint32_t since;      /* windows since the other way was tried */
		uint32_t period;     /* ... and how many before it is tried again */
	} cls[PACE_CLASSES];
};

void fabric_pace_init(struct fabric_pace *p, uint64_t floor, uint64_t ceiling);
/* whether a window of `events` events is timed: between floor and ceiling */
static inline int fabric_pace_timed(const struct fabric_pace *p, uint64_t events)
{
	return events >= p->floor && events < p->ceiling;
}
/* 1: run a window like the last one, of `events` events, on the threads */
int fabric_pace_threads(struct fabric_pace *p, uint64_t events);
/* a timed window of `events` events took `ns` of wall time, on the threads
 * or on one thread */
void fabric_pace_record(struct fabric_pace *p, uint64_t events, int threaded, double ns);

#endif
