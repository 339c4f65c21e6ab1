/*
 * engine.c - event queue and run loop (see engine.h for the contract).
 *
 * A 4-ary heap: half the depth of a binary heap for the same size, and the
 * four children of a node share a cache line or two.  Entries carry their
 * keys by value; each event remembers its slot (heap_idx) so that cancel and
 * reschedule are O(log n) without a search.
 */
#include "engine.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "invariant.h"

#define ARITY 4

static int entry_less(const struct sim_heap_entry *a, const struct sim_heap_entry *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static void heap_place(struct sim_engine *eng, uint32_t i, struct sim_heap_entry e)
{
	eng->heap[i] = e;
	e.ev->heap_idx = i;
}

static void sift_up(struct sim_engine *eng, uint32_t i, struct sim_heap_entry e)
{
	while (i > 0) {
		uint32_t parent = (i - 1) / ARITY;
		if (!entry_less(&e, &eng->heap[parent]))
			break;
		heap_place(eng, i, eng->heap[parent]);
		i = parent;
	}
	heap_place(eng, i, e);
}

static void sift_down(struct sim_engine *eng, uint32_t i, struct sim_heap_entry e)
{
	for (;;) {
		uint32_t first = i * ARITY + 1;
		if (first >= eng->n)
			break;
		uint32_t last = first + ARITY < eng->n ? first + ARITY : eng->n;
		uint32_t best = first;
		for (uint32_t c = first + 1; c < last; c++)
			if (entry_less(&eng->heap[c], &eng->heap[best]))
				best = c;
		if (!entry_less(&eng->heap[best], &e))
			break;
		heap_place(eng, i, eng->heap[best]);
		i = best;
	}
	heap_place(eng, i, e);
}

/* remove the entry at slot i, keeping the heap shape */
static void heap_remove(struct sim_engine *eng, uint32_t i)
{
	eng->heap[i].ev->heap_idx = SIM_EVENT_IDLE;
	eng->n--;
	if (i == eng->n)
		return;
	struct sim_heap_entry last = eng->heap[eng->n];
	if (i > 0 && entry_less(&last, &eng->heap[(i - 1) / ARITY]))
		sift_up(eng, i, last);
	else
		sift_down(eng, i, last);
}

void sim_event_init(struct sim_event *ev, sim_event_fn fn)
{
	ev->fn = fn;
	ev->heap_idx = SIM_EVENT_IDLE;
}

int sim_engine_init(struct sim_engine *eng)
{
	*eng = (struct sim_engine){0};
	eng->cap = 1024;
	eng->heap = malloc(eng->cap * sizeof(*eng->heap));
	return eng->heap ? 0 : -1;
}

void sim_engine_free(struct sim_engine *eng)
{
	free(eng->heap);
	eng->heap = NULL;
	eng->n = eng->cap = 0;
}

void sim_schedule(struct sim_engine *eng, struct sim_event *ev, sim_time_ps t)
{
	SIM_INVARIANT(t >= eng->now, "event scheduled in the past (%lld < now %lld)",
		      (long long)t, (long long)eng->now);
	if (sim_event_pending(ev))
		heap_remove(eng, ev->heap_idx);
	if (eng->n == eng->cap) {
		uint32_t cap = eng->cap * 2;
		struct sim_heap_entry *h = realloc(eng->heap, cap * sizeof(*h));
		SIM_INVARIANT(h, "out of memory growing the event queue to %u events", cap);
		eng->heap = h;
		eng->cap = cap;
	}
	struct sim_heap_entry e = { .time = t, .seq = eng->seq++, .ev = ev };
	sift_up(eng, eng->n++, e);
}

void sim_cancel(struct sim_engine *eng, struct sim_event *ev)
{
	if (sim_event_pending(ev))
		heap_remove(eng, ev->heap_idx);
}

sim_time_ps sim_next_time(const struct sim_engine *eng)
{
	return eng->n ? eng->heap[0].time : INT64_MAX;
}

uint64_t sim_run_until(struct sim_engine *eng, sim_time_ps until)
{
	uint64_t fired = 0;
	while (eng->n && !eng->stop) {
		struct sim_heap_entry top = eng->heap[0];
		if (top.time > until)
			break;
		heap_remove(eng, 0);
		eng->now = top.time;
		top.ev->fn(eng, top.ev);
		fired++;
	}
	eng->events += fired;
	return fired;
}

void sim_invariant_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	fflush(stdout);
	fprintf(stderr, "%s:%d: invariant broken: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}
