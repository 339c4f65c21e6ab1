/*
 * engine.c - event queue and run loop (see engine.h for the contract).
 *
 * Structure: a timing wheel in front of a heap.
 *
 *   wheel  16384 slots of 256 ps: every pending event earlier than wheel_end
 *          (= wheel_start + 4.19 us, wheel_start being the slot of `now`)
 *          sits in slot (time / 256) mod 16384, in a ring through the events'
 *          own next/prev pointers sorted by (time, sched, key), equals in
 *          scheduling order.  A bitmap of non-empty slots, and a bitmap of its
 *          non-zero words, find the next slot with two count-trailing-zeros (a
 *          few more when the window wraps or is sparse).
 *   heap   the later events (watchdogs, pause timers, slow pacing): a 4-ary
 *          min-heap of (time, sched, key, seq, event) entries; each event
 *          remembers its slot (heap_idx).
 *
 * Schedule: append to the slot's ring (a backward walk when the slot holds a
 * later event: rarely more than a step, since a new event's sched is now and
 * pending events were scheduled before it) or push on the heap.  Two cases
 * walk far in fabrics of thousands of synchronised links, and are kept
 * apart: an event for a later slot that arrives out of order walks back at
 * most WALK_MAX (8) steps, and farther is appended and the slot marked, to
 * be sorted once (a natural merge sort of its runs) when it comes first; an
 * event for `now` scheduled `now` (a FIFO that releases several packets at
 * one instant) goes to a ring of its own, sorted by key, which fires after
 * the events for now scheduled before.  Both keep the walks short, and the
 * limit of 8 is the one that measured best
 * (docs/SCALING.md#the-event-queue-measured).  Fire: the
 * head of the first non-empty slot from `now` on, or the heap top when the
 * wheel is empty.  When `now` enters a new slot the wheel window slides with
 * it, and heap events that the window now covers move into the wheel (each
 * moves once).
 *
 * Why: fabric events are a few hundred ns to a few us ahead, so nearly all of
 * them live in the wheel and cost O(1), without the heap's data-dependent
 * comparisons.  The geometry keeps the events of 25 to 400 Gbps links in the
 * wheel without long sorted walks; slower fabrics and long cables send more
 * events through the heap first.  The measurements behind the wheel, its
 * geometry and the heap's arity, and what was tried and not kept, are in
 * docs/SCALING.md#the-event-queue-measured.
 *
 * Why (time, sched, key) and not (time, insertion): a partitioned run
 * schedules an event that crosses partitions later than a single run does
 * (at the next synchronisation), so insertion order would depend on the
 * partition.  Ordering by key alone made the thousands of same-picosecond
 * events of synchronised links arrive out of order, to be sorted at a cost
 * (docs/SCALING.md#the-event-queue-measured).  With sched first, insertion
 * order already is the order but for events scheduled in the same instant,
 * which the key settles in a step or two.
 *
 * Order is exactly (time, sched, key, insertion sequence) (the sort is
 * stable, and the ring of `now` holds exactly the events of (now, now)):
 *  - within the wheel, slots in window order from the slot of `now` are in
 *    time order (every wheel event is in [wheel_start, wheel_end), a window
 *    of exactly NSLOTS slots), and a ring is sorted by (time, sched, key)
 *    with equals FIFO;
 *  - the heap orders its events by (time, sched, key, seq);
 *  - an event at time t goes to the heap only while t >= wheel_end; wheel_end
 *    only grows, and the heap events it passes move into the wheel, in heap
 *    order, before anything else is scheduled.  So of the equal events at
 *    time t, those that went through the heap were all scheduled before those
 *    that went straight into the wheel, and they reach t's ring first.
 */
#include "models/base/engine.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "models/base/invariant.h"
#include "models/base/slab.h"

#define ARITY 4
#define SLOT_SHIFT 8                                /* 256 ps per slot */
#define NSLOTS 16384
#define NWORDS (NSLOTS / 64)                         /* words of wheel_used */
#define NSUMMARY (NWORDS / 64)                       /* words of wheel_used_words */
#define SLOT_PS ((sim_time_ps)1 << SLOT_SHIFT)
#define WHEEL_PS ((sim_time_ps)NSLOTS << SLOT_SHIFT) /* 4.19 us */
#define WALK_MAX 8 /* steps back an insertion into a later slot may take */

static int entry_less(const struct sim_heap_entry *a, const struct sim_heap_entry *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	if (a->sched != b->sched)
		return a->sched < b->sched;
	if (a->key != b->key)
		return a->key < b->key;
	return a->seq < b->seq;
}

/* a fires after b (ignoring seq: among equals the one scheduled later is
 * put behind) */
static int event_after(const struct sim_event *a, const struct sim_event *b)
{
	if (a->time != b->time)
		return a->time > b->time;
	if (a->sched != b->sched)
		return a->sched > b->sched;
	return a->key > b->key;
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
		if (first >= eng->nheap)
			break;
		uint32_t last = first + ARITY < eng->nheap ? first + ARITY : eng->nheap;
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

static void heap_push(struct sim_engine *eng, struct sim_event *ev)
{
	if (eng->nheap == eng->cap) {
		uint32_t cap = eng->cap * 2;
		struct sim_heap_entry *h = realloc(eng->heap, cap * sizeof(*h));
		SIM_INVARIANT(h, "out of memory growing the event queue to %u events", cap);
		eng->heap = h;
		eng->cap = cap;
	}
	struct sim_heap_entry e = { .time = ev->time, .sched = ev->sched, .key = ev->key,
				    .seq = eng->seq, .ev = ev };
	sift_up(eng, eng->nheap++, e);
}

/* remove the entry at slot i, keeping the heap shape */
static void heap_remove(struct sim_engine *eng, uint32_t i)
{
	eng->nheap--;
	if (i == eng->nheap)
		return;
	struct sim_heap_entry last = eng->heap[eng->nheap];
	if (i > 0 && entry_less(&last, &eng->heap[(i - 1) / ARITY]))
		sift_up(eng, i, last);
	else
		sift_down(eng, i, last);
}

static uint32_t slot_of(sim_time_ps t)
{
	return (uint32_t)((uint64_t)t >> SLOT_SHIFT) % NSLOTS;
}

/* the ring whose first event is head in (time, sched, key) order, equals in
 * ring order: a natural merge sort, O(k log r) for k events in r sorted
 * runs.  Returns the new head. */
static struct sim_event *sort_ring(struct sim_event *head)
{
	struct sim_event *list = head;
	head->prev->next = NULL;
	for (;;) {
		struct sim_event *out = NULL, **tail = &out, *p = list;
		unsigned merges = 0;
		while (p) {
			/* two runs a and b, then what is left */
			struct sim_event *a = p, *e = p, *b, *rest = NULL;
			while (e->next && !event_after(e, e->next))
				e = e->next;
			b = e->next;
			e->next = NULL;
			if (b) {
				for (e = b; e->next && !event_after(e, e->next); e = e->next)
					;
				rest = e->next;
				e->next = NULL;
			}
			while (a && b) { /* stable: of equals, a's first */
				struct sim_event **from = event_after(a, b) ? &b : &a;
				*tail = *from;
				*from = (*from)->next;
				tail = &(*tail)->next;
			}
			*tail = a ? a : b;
			while (*tail)
				tail = &(*tail)->next;
			merges++;
			p = rest;
		}
		list = out;
		if (merges <= 1)
			break;
	}
	struct sim_event *prev = list;
	for (struct sim_event *e = list->next; e; prev = e, e = e->next)
		e->prev = prev;
	list->prev = prev;
	prev->next = list;
	return list;
}

/* ev into a ring, after p */
static void ring_after(struct sim_event *p, struct sim_event *ev)
{
	ev->prev = p;
	ev->next = p->next;
	p->next->prev = ev;
	p->next = ev;
}

/* ev into the sorted, non-empty ring *head, behind the last event that
 * fires before it: usually the tail */
static void ring_insert(struct sim_event **head, struct sim_event *ev)
{
	struct sim_event *p = (*head)->prev;
	while (event_after(p, ev)) {
		if (p == *head) {
			*head = ev; /* the earliest: ev becomes the head */
			p = p->prev;
			break;
		}
		p = p->prev;
	}
	ring_after(p, ev);
}

/* ev out of the ring *head; NULL when it was the last */
static void ring_remove(struct sim_event **head, struct sim_event *ev)
{
	if (ev->next == ev) {
		*head = NULL;
		return;
	}
	ev->prev->next = ev->next;
	ev->next->prev = ev->prev;
	if (*head == ev)
		*head = ev->next;
}

/* t must be in [wheel_start, wheel_end) */
static void wheel_insert(struct sim_engine *eng, struct sim_event *ev)
{
	uint32_t s = slot_of(ev->time);
	struct sim_event *head = eng->wheel[s];
	ev->heap_idx = SIM_EVENT_WHEEL;
	eng->nwheel++;
	if (!head) {
		eng->wheel[s] = ev->next = ev->prev = ev;
		eng->wheel_used[s / 64] |= UINT64_C(1) << (s % 64);
		eng->wheel_used_words[s / 64 / 64] |= UINT64_C(1) << (s / 64 % 64);
		return;
	}
	/* behind the last event that fires before ev: usually the tail.  A
	 * later slot that receives an event out of order is sorted once, when
	 * it comes first (sim_run_until): synchronised links schedule thousands
	 * of events at one instant, from several sources, each in key order.
	 * But a few steps back are walked first: one handler often schedules
	 * a few events of one instant out of key order (a pipeline releasing
	 * packets to several ports), and a slot of thousands of events that
	 * is sorted for one of them costs more than the walk.  (The walk is
	 * written out here: ring_insert with a step limit measured slower,
	 * docs/SCALING.md#the-event-queue-measured.) */
	uint64_t bit = UINT64_C(1) << (s % 64);
	if (eng->wheel_unsorted[s / 64] & bit) {
		ring_after(head->prev, ev);
		return;
	}
	if (s == slot_of(eng->now)) {
		ring_insert(&eng->wheel[s], ev);
		return;
	}
	struct sim_event *p = head->prev;
	for (unsigned steps = 0; event_after(p, ev); steps++) {
		if (steps == WALK_MAX) {
			eng->wheel_unsorted[s / 64] |= bit;
			ring_after(head->prev, ev);
			return;
		}
		if (p == head) { /* the earliest: ev becomes the head */
			ring_after(head->prev, ev);
			eng->wheel[s] = ev;
			return;
		}
		p = p->prev;
	}
	ring_after(p, ev);
}

static void wheel_remove(struct sim_engine *eng, struct sim_event *ev)
{
	uint32_t s = slot_of(ev->time);
	eng->nwheel--;
	ring_remove(&eng->wheel[s], ev);
	if (!eng->wheel[s]) {
		eng->wheel_unsorted[s / 64] &= ~(UINT64_C(1) << (s % 64));
		eng->wheel_used[s / 64] &= ~(UINT64_C(1) << (s % 64));
		if (!eng->wheel_used[s / 64])
			eng->wheel_used_words[s / 64 / 64] &= ~(UINT64_C(1) << (s / 64 % 64));
	}
}

/* the first non-empty slot from the slot of wheel_start on, wrapping
 * around; the wheel must not be empty */
static uint32_t first_slot(const struct sim_engine *eng)
{
	uint32_t s = slot_of(eng->wheel_start), w = s / 64;
	uint64_t bits = eng->wheel_used[w] & (~UINT64_C(0) << (s % 64));
	if (!bits) {
		/* the next non-zero word after w; coming back round to w's own
		 * summary word takes all of it: word w's low bits are the last
		 * slots of the window */
		uint32_t k = w / 64;
		uint64_t words = w % 64 == 63 ? 0
				 : eng->wheel_used_words[k] & (~UINT64_C(0) << (w % 64 + 1));
		while (!words) {
			k = (k + 1) % NSUMMARY;
			words = eng->wheel_used_words[k];
		}
		w = k * 64 + (uint32_t)__builtin_ctzll(words);
		bits = eng->wheel_used[w];
	}
	return w * 64 + (uint32_t)__builtin_ctzll(bits);
}

/* now has entered a later slot: slide the window to start there and move the
 * heap events it now covers into the wheel, in heap order */
static void wheel_slide(struct sim_engine *eng)
{
	eng->wheel_start = eng->now & ~(SLOT_PS - 1);
	eng->wheel_end = eng->wheel_start <= INT64_MAX - WHEEL_PS ? eng->wheel_start + WHEEL_PS
								 : INT64_MAX;
	while (eng->nheap && eng->heap[0].time < eng->wheel_end) {
		struct sim_event *ev = eng->heap[0].ev;
		heap_remove(eng, 0);
		wheel_insert(eng, ev);
	}
}

void sim_event_init(struct sim_event *ev, sim_event_fn fn, uint64_t key)
{
	ev->fn = fn;
	ev->next = ev->prev = NULL;
	ev->time = 0;
	ev->key = key;
	ev->heap_idx = SIM_EVENT_IDLE;
}

int sim_engine_init(struct sim_engine *eng)
{
	*eng = (struct sim_engine){0};
	eng->cap = 1024;
	/* on lines of their own: the engines of a parallel run's partitions
	 * fire on several threads, and a small array of one next to another's
	 * would move between the cores at every event */
	eng->heap = calloc_lines(eng->cap, sizeof(*eng->heap));
	eng->wheel = calloc_lines(NSLOTS, sizeof(*eng->wheel));
	eng->wheel_used = calloc_lines(NWORDS, sizeof(*eng->wheel_used));
	eng->wheel_used_words = calloc_lines(NSUMMARY, sizeof(*eng->wheel_used_words));
	eng->wheel_unsorted = calloc_lines(NWORDS, sizeof(*eng->wheel_unsorted));
	eng->wheel_end = WHEEL_PS;
	if (eng->heap && eng->wheel && eng->wheel_used && eng->wheel_used_words &&
	    eng->wheel_unsorted)
		return 0;
	sim_engine_free(eng);
	return -1;
}

void sim_engine_free(struct sim_engine *eng)
{
	free(eng->heap);
	free(eng->wheel);
	free(eng->wheel_used);
	free(eng->wheel_used_words);
	free(eng->wheel_unsorted);
	eng->wheel_unsorted = NULL;
	eng->heap = NULL;
	eng->wheel = NULL;
	eng->wheel_used = NULL;
	eng->wheel_used_words = NULL;
	eng->n = eng->cap = eng->nheap = eng->nwheel = 0;
}

static void remove_event(struct sim_engine *eng, struct sim_event *ev)
{
	if (ev->time == eng->next_known)
		eng->next_valid = 0; /* it may have been the next */
	if (ev->heap_idx == SIM_EVENT_WHEEL)
		wheel_remove(eng, ev);
	else if (ev->heap_idx == SIM_EVENT_NOW)
		eng->nnow--, ring_remove(&eng->nowq, ev);
	else
		heap_remove(eng, ev->heap_idx);
	ev->heap_idx = SIM_EVENT_IDLE;
	eng->n--;
}

void sim_schedule_at(struct sim_engine *eng, struct sim_event *ev, sim_time_ps t,
		     sim_time_ps sched)
{
	SIM_INVARIANT(t >= eng->now && sched <= t,
		      "event scheduled in the past (%lld < now %lld, or before %lld)", (long long)t,
		      (long long)eng->now, (long long)sched);
	if (sim_event_pending(ev))
		remove_event(eng, ev);
	ev->time = t;
	ev->sched = sched;
	if (t < eng->next_known)
		eng->next_known = t;
	eng->n++;
	eng->seq++;
	if (t == eng->now && sched == t) {
		ev->heap_idx = SIM_EVENT_NOW;
		if (eng->nnow++)
			ring_insert(&eng->nowq, ev);
		else
			eng->nowq = ev->next = ev->prev = ev;
	} else if (t < eng->wheel_end) {
		wheel_insert(eng, ev);
	} else {
		heap_push(eng, ev);
	}
}

void sim_schedule(struct sim_engine *eng, struct sim_event *ev, sim_time_ps t)
{
	sim_schedule_at(eng, ev, t, eng->now);
}

void sim_cancel(struct sim_engine *eng, struct sim_event *ev)
{
	if (sim_event_pending(ev))
		remove_event(eng, ev);
}

sim_time_ps sim_next_time(const struct sim_engine *eng)
{
	if (eng->next_valid)
		return eng->next_known;
	if (eng->nnow)
		return eng->now;
	if (eng->nwheel) {
		uint32_t s = first_slot(eng);
		const struct sim_event *head = eng->wheel[s], *e = head->next;
		sim_time_ps t = head->time;
		if (eng->wheel_unsorted[s / 64] & (UINT64_C(1) << (s % 64)))
			for (; e != head; e = e->next) /* not sorted yet: the earliest */
				t = e->time < t ? e->time : t;
		return t;
	}
	return eng->nheap ? eng->heap[0].time : INT64_MAX;
}

/* the head of wheel slot s leaves the queue */
static struct sim_event *wheel_pop(struct sim_engine *eng, uint32_t s)
{
	struct sim_event *ev = eng->wheel[s];
	eng->nwheel--;
	if (ev->next != ev) {
		ev->prev->next = ev->next;
		ev->next->prev = ev->prev;
		eng->wheel[s] = ev->next;
		return ev;
	}
	eng->wheel[s] = NULL;
	eng->wheel_unsorted[s / 64] &= ~(UINT64_C(1) << (s % 64));
	eng->wheel_used[s / 64] &= ~(UINT64_C(1) << (s % 64));
	if (!eng->wheel_used[s / 64])
		eng->wheel_used_words[s / 64 / 64] &= ~(UINT64_C(1) << (s / 64 % 64));
	return ev;
}

/* the last time the open window (ending before wend) runs to, or until */
static sim_time_ps window_last(sim_time_ps wend, sim_time_ps until)
{
	return wend - 1 < until ? wend - 1 : until;
}

/* ev, the next event, comes after *last: past until (the run returns), or
 * the first after the open window, which then ends (the run returns when
 * *w->close is set) or gives way to ev's */
static int stop_before(const struct sim_event *ev, sim_time_ps until, struct sim_windows *w,
		       sim_time_ps *wend, sim_time_ps *last)
{
	if (ev->time > until || *w->close)
		return 1;
	*wend = ev->time <= INT64_MAX - w->len ? ev->time + w->len : INT64_MAX;
	*last = window_last(*wend, until);
	return 0;
}

uint64_t sim_run_windows(struct sim_engine *eng, sim_time_ps until, struct sim_windows *w)
{
	uint64_t fired = 0;
	sim_time_ps next = INT64_MAX; /* the first event not fired, once met */
	sim_time_ps wend = w ? w->end : INT64_MAX;
	sim_time_ps last = w ? window_last(wend, until) : until; /* one comparison an event */
	eng->next_valid = 0;
	while (eng->n && !eng->stop) {
		/* wheel events are all earlier than heap events; the events for
		 * now scheduled now follow those for now scheduled before.  A
		 * later slot is not sorted before its time. */
		struct sim_event *ev;
		enum { FROM_HEAP, FROM_WHEEL, FROM_NOW } from = eng->nnow ? FROM_NOW : FROM_HEAP;
		uint32_t s = 0;
		if (eng->nwheel) {
			s = first_slot(eng);
			if (!eng->nnow || s == slot_of(eng->now)) {
				uint64_t bit = UINT64_C(1) << (s % 64);
				if (eng->wheel_unsorted[s / 64] & bit) {
					eng->wheel[s] = sort_ring(eng->wheel[s]);
					eng->wheel_unsorted[s / 64] &= ~bit;
				}
				if (!eng->nnow || eng->wheel[s]->time == eng->now)
					from = FROM_WHEEL;
			}
		}
		if (from == FROM_WHEEL) {
			ev = eng->wheel[s];
			if (ev->time > last && stop_before(ev, until, w, &wend, &last)) {
				next = ev->time;
				break;
			}
			wheel_pop(eng, s);
		} else if (from == FROM_NOW) {
			ev = eng->nowq;
			if (ev->time > last && stop_before(ev, until, w, &wend, &last)) {
				next = ev->time;
				break;
			}
			eng->nnow--;
			ring_remove(&eng->nowq, ev);
		} else {
			ev = eng->heap[0].ev;
			if (ev->time > last && stop_before(ev, until, w, &wend, &last)) {
				next = ev->time;
				break;
			}
			heap_remove(eng, 0);
		}
		ev->heap_idx = SIM_EVENT_IDLE;
		eng->n--;
		eng->now = ev->time;
		eng->cur_sched = ev->sched;
		eng->cur_key = ev->key;
		if (eng->now - eng->wheel_start >= SLOT_PS)
			wheel_slide(eng);
		eng->kinds[SIM_KIND(ev->key)]++;
		ev->fn(eng, ev);
		fired++;
	}
	if (next != INT64_MAX || !eng->n) { /* not when stopped: unknown then */
		eng->next_known = next;
		eng->next_valid = 1;
	}
	if (w)
		w->end = wend;
	eng->events += fired;
	return fired;
}

uint64_t sim_run_until(struct sim_engine *eng, sim_time_ps until)
{
	return sim_run_windows(eng, until, NULL);
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
