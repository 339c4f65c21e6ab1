/*
 * engine.h - the discrete-event core: clock, event queue, run loop.
 *
 * Time is integer picoseconds (sim_time_ps).  Events are not allocated: each
 * owner embeds its `struct sim_event` (a port its transmit-done event, a link
 * its head-arrival event) and recovers itself with container_of().  An event
 * is either idle or pending once; rescheduling a pending event moves it.
 *
 * Order: events fire by (time, sched, key, sequence).  sched is when the
 * event was scheduled (the time of the event whose handler scheduled it, or
 * a time given explicitly where that handler ran elsewhere); the key is the event's identity, given once by
 * its owner (SIM_KEY: a class, the owner's index, a sub-event).  Both are
 * properties of the model, not of the order in which the code happened to
 * schedule things, nor of how a parallel run cuts the fabric into pieces:
 * two events of one picosecond fire in the same order however the fabric is
 * partitioned.  And since a new event's sched is now, never earlier than
 * that of anything pending, it goes behind the events of its time scheduled
 * before it, as in plain scheduling order, so keeping the order costs
 * almost nothing.  Events of equal (time, sched, key) (plain events, key 0)
 * fire in the order they were scheduled (libuv's timer start_id rule).
 * Nothing ever adds a tick to force an order.
 *
 * The queue is a timing wheel for the next few microseconds (most events:
 * O(1) to schedule, cancel and fire) in front of a 4-ary min-heap for the
 * rest; engine.c explains the design and why the order is exact.  The event
 * set grows with busy servers (ports, links, pipelines), not with packets
 * (docs/ARCHITECTURE.md#performance-rules).
 */
#ifndef DCQCN_ENGINE_H
#define DCQCN_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "models/base/units.h"

#define container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

struct sim_engine;
struct sim_event;

typedef void (*sim_event_fn)(struct sim_engine *eng, struct sim_event *ev);

struct sim_event {
	sim_event_fn fn;
	struct sim_event *next, *prev; /* ring of its wheel slot (engine.c) */
	sim_time_ps time;              /* when it fires, while pending */
	sim_time_ps sched;             /* when it was scheduled (the order's second part) */
	uint64_t key;                  /* its identity (the order's third part) */
	uint32_t heap_idx; /* heap slot, SIM_EVENT_WHEEL, SIM_EVENT_NOW or SIM_EVENT_IDLE */
};

#define SIM_EVENT_IDLE UINT32_MAX
#define SIM_EVENT_WHEEL (UINT32_MAX - 1) /* pending, in the wheel */
#define SIM_EVENT_NOW (UINT32_MAX - 2)   /* pending, for now, scheduled now */

struct sim_heap_entry {
	sim_time_ps time, sched;
	uint64_t key, seq;
	struct sim_event *ev;
};

/* a canonical event key: class (8 bits, lower fires first at equal times),
 * the owner's index (48 bits), a sub-event of the owner (8 bits) */
#define SIM_KEY(cls, idx, sub) \
	(((uint64_t)(cls) << 56) | ((uint64_t)(idx) << 8) | (uint64_t)(sub))

/* an event's kind for counting: its key's class (4 bits) and sub-event
 * (5 bits); what they mean is the model's (models/core/evkey.h) */
#define SIM_KINDS 512
#define SIM_KIND(key) ((unsigned)(((key) >> 51) & 0x1e0u) | (unsigned)((key)&31u))

struct sim_engine {
	sim_time_ps now;
	uint64_t seq;      /* insertion counter: the tie-breaker of equal keys */
	sim_time_ps cur_sched; /* the event being fired: its sched and key */
	uint64_t cur_key;
	uint64_t events;   /* events fired so far */
	struct sim_heap_entry *heap;  /* events at or after wheel_end */
	struct sim_event **wheel;     /* events before wheel_end, by slot */
	uint64_t *wheel_used;         /* a bit per non-empty slot */
	uint64_t *wheel_used_words;   /* a bit per non-zero word of wheel_used */
	uint64_t *wheel_unsorted;     /* a bit per slot whose ring waits to be sorted */
	struct sim_event *nowq;       /* events for `now` scheduled at `now`, by key */
	uint32_t nnow;
	sim_time_ps wheel_start, wheel_end; /* the wheel covers [start, end) */
	/* the next event's time, while next_valid: set where sim_run_until
	 * stopped, lowered by each event scheduled since, void when one at
	 * that time is cancelled or moved.  A parallel run asks for it between
	 * windows, for every partition; the answer is then one read, not a
	 * search of the wheel the partition's thread wrote. */
	sim_time_ps next_known;
	uint8_t next_valid;
	uint32_t n, cap;              /* pending events; heap capacity */
	uint32_t nheap, nwheel;       /* pending events in each part */
	int stop;          /* set by a handler or a signal: run loop returns */
	void *user;        /* the simulation that owns this engine */
	/* the events fired by kind (SIM_KIND of their keys), after the fields
	 * the loop reads */
	uint64_t kinds[SIM_KINDS];
};

/* an idle event that runs fn, ordered among simultaneous events by key */
void sim_event_init(struct sim_event *ev, sim_event_fn fn, uint64_t key);
static inline int sim_event_pending(const struct sim_event *ev)
{
	return ev->heap_idx != SIM_EVENT_IDLE;
}

int sim_engine_init(struct sim_engine *eng);
void sim_engine_free(struct sim_engine *eng);

/* schedule ev at absolute time t >= now, scheduled now; if pending, it
 * moves (new seq).  Running out of memory for the queue stops the run
 * (SIM_INVARIANT). */
void sim_schedule(struct sim_engine *eng, struct sim_event *ev, sim_time_ps t);
/* the same with an explicit scheduling moment (<= now): for what a handler
 * of another partition decided at time `sched` */
void sim_schedule_at(struct sim_engine *eng, struct sim_event *ev, sim_time_ps t,
		     sim_time_ps sched);
void sim_cancel(struct sim_engine *eng, struct sim_event *ev);

/* the place of an event in the order: (time, sched, key) */
struct sim_order {
	sim_time_ps time, sched;
	uint64_t key;
};

static inline int sim_order_less(const struct sim_order *a, const struct sim_order *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	if (a->sched != b->sched)
		return a->sched < b->sched;
	return a->key < b->key;
}

/* -1, 0 or 1 as a comes before, with or after b (a qsort comparison) */
static inline int sim_order_cmp(const struct sim_order *a, const struct sim_order *b)
{
	return sim_order_less(a, b) ? -1 : sim_order_less(b, a);
}

/* the place of the event being fired */
static inline struct sim_order sim_current(const struct sim_engine *eng)
{
	return (struct sim_order){ .time = eng->now, .sched = eng->cur_sched, .key = eng->cur_key };
}

/* time of the next event, or INT64_MAX when none is pending */
sim_time_ps sim_next_time(const struct sim_engine *eng);

/* fire events with time <= until, in order; stops early when eng->stop is
 * set.  Returns the number of events fired.  now ends at the time of the
 * last event fired (it never runs ahead to `until`). */
uint64_t sim_run_until(struct sim_engine *eng, sim_time_ps until);

/*
 * Windows of time, for a run that goes in windows (models/fabric/parallel.c)
 * but has nothing to exchange between most of them: a window opens at the
 * first event at or after the end of the one before and lasts len.
 * sim_run_windows fires events as sim_run_until does, keeping track of the
 * open window (end); when the first event after it is due and *close is
 * set, it returns instead, leaving end, the end of the window just run, for
 * the caller to close.  One comparison an event, where a return at every
 * window's end would cost a call and a look at the queue.
 */
struct sim_windows {
	sim_time_ps end;               /* the open window ends before end */
	sim_time_ps len;
	const uint8_t *close;          /* set: something waits for the window's end */
};

uint64_t sim_run_windows(struct sim_engine *eng, sim_time_ps until, struct sim_windows *w);

#endif
