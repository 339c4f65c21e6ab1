/*
 * test_engine.c - the event queue: order by (time, scheduling time, key,
 * insertion), ties of one key in scheduling order, reschedule and cancel,
 * against a sorted reference and
 * against a step-by-step reference queue (a plain array scanned for the
 * minimum) while handlers schedule and cancel.  The times cross the queue's
 * internal boundaries: timing-wheel slots, the wheel's window (a few us, so
 * later events wait in a heap and move into the wheel as time passes), the
 * wheel wrapping around, and times up to INT64_MAX; and the windows that
 * sim_run_windows keeps.
 */
#include <check.h>
#include <stdlib.h>

#include "models/base/engine.h"
#include "models/base/rng.h"
#include "testlib.h"

struct rec {
	struct sim_event ev;
	int id;
	sim_time_ps at;
	int *log;
	int *nlog;
};

static void fire_rec(struct sim_engine *eng, struct sim_event *ev)
{
	struct rec *r = container_of(ev, struct rec, ev);
	ck_assert_int_eq(eng->now, r->at);
	r->log[(*r->nlog)++] = r->id;
}

enum { NTIES = 1000 };

/* NTIES events at one time `at`, scheduled in id order with key(i); fires
 * them all and leaves their ids, in firing order, in log */
static void fire_ties(struct rec *recs, sim_time_ps at, uint64_t (*key)(int), int *log)
{
	struct sim_engine eng;
	int nlog = 0;
	ck_assert_int_eq(sim_engine_init(&eng), 0);
	for (int i = 0; i < NTIES; i++) {
		recs[i] = (struct rec){ .id = i, .at = at, .log = log, .nlog = &nlog };
		sim_event_init(&recs[i].ev, fire_rec, key(i));
		sim_schedule(&eng, &recs[i].ev, at);
	}
	ck_assert_uint_eq(sim_run_until(&eng, at), NTIES);
	ck_assert_int_eq(nlog, NTIES);
	sim_engine_free(&eng);
}

static uint64_t no_key(int i)
{
	(void)i;
	return 0;
}

/* keys falling as they are scheduled */
static uint64_t falling_key(int i)
{
	return SIM_KEY(1 + i % 3, NTIES - i, 0);
}

START_TEST(ties_fire_in_scheduling_order)
{
	static struct rec recs[NTIES];
	int log[NTIES];
	/* all at one time, scheduled in id order, no key: fire in id order */
	fire_ties(recs, 777, no_key, log);
	for (int i = 0; i < NTIES; i++)
		ck_assert_int_eq(log[i], i);
}
END_TEST

START_TEST(ties_fire_in_key_order)
{
	static struct rec recs[NTIES];
	int log[NTIES];
	/* all at one time, keys falling as they are scheduled, some far in the
	 * heap first: fire by key, whatever the scheduling order or path */
	fire_ties(recs, 9000000, falling_key, log);
	for (int k = 1; k < NTIES; k++)
		ck_assert_uint_lt(recs[log[k - 1]].ev.key, recs[log[k]].ev.key);
}
END_TEST

START_TEST(reschedule_moves_to_the_back_of_its_tie)
{
	struct sim_engine eng;
	struct rec r[3];
	int log[3], nlog = 0;
	ck_assert_int_eq(sim_engine_init(&eng), 0);
	for (int i = 0; i < 3; i++) {
		r[i] = (struct rec){ .id = i, .at = 50, .log = log, .nlog = &nlog };
		sim_event_init(&r[i].ev, fire_rec, 0);
		sim_schedule(&eng, &r[i].ev, 10 * (i + 1));
	}
	/* move 0 (at 10) and 1 (at 20) to 50: order 2 (first at 50), 0, 1 */
	sim_schedule(&eng, &r[0].ev, 50);
	sim_schedule(&eng, &r[1].ev, 50);
	sim_schedule(&eng, &r[2].ev, 50);
	sim_schedule(&eng, &r[0].ev, 50);
	ck_assert_uint_eq(eng.n, 3);
	sim_run_until(&eng, 100);
	ck_assert_int_eq(nlog, 3);
	ck_assert_int_eq(log[0], 1);
	ck_assert_int_eq(log[1], 2);
	ck_assert_int_eq(log[2], 0);
	ck_assert(!sim_event_pending(&r[0].ev));
	sim_engine_free(&eng);
}
END_TEST

START_TEST(cancel_and_run_until_bound)
{
	struct sim_engine eng;
	struct rec r[4];
	int log[4], nlog = 0;
	ck_assert_int_eq(sim_engine_init(&eng), 0);
	for (int i = 0; i < 4; i++) {
		r[i] = (struct rec){ .id = i, .at = 100 * (i + 1), .log = log, .nlog = &nlog };
		sim_event_init(&r[i].ev, fire_rec, 0);
		sim_schedule(&eng, &r[i].ev, r[i].at);
	}
	sim_cancel(&eng, &r[1].ev);
	sim_cancel(&eng, &r[1].ev); /* idempotent */
	ck_assert_int_eq(sim_next_time(&eng), 100);
	ck_assert_uint_eq(sim_run_until(&eng, 300), 2); /* 100 and 300 */
	ck_assert_int_eq(eng.now, 300);
	ck_assert_int_eq(log[0], 0);
	ck_assert_int_eq(log[1], 2);
	ck_assert_int_eq(sim_next_time(&eng), 400);
	sim_run_until(&eng, 1000);
	ck_assert_int_eq(sim_next_time(&eng), INT64_MAX);
	ck_assert_uint_eq(eng.events, 3);
	sim_engine_free(&eng);
}
END_TEST

/* random times, random reschedules and cancels; reference: sort by
 * (time, key, last scheduling sequence).  Keys take a few values, so that
 * ties of time are broken both by key and by sequence. */
struct ref {
	sim_time_ps t;
	uint64_t key, seq;
	int id;
	int live;
};

#define TEST_KEY(id) ((uint64_t)((id) % 5) << 8)

static int cmp_ref(const void *a, const void *b)
{
	const struct ref *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* times for the sorted-reference test: a few values, so many ties */
static sim_time_ps pick_tied(uint64_t x)
{
	return (sim_time_ps)(x % 64);
}

/* times on both sides of slot and window boundaries of any plausible
 * geometry (powers of two of ps), many of them tied, some far ahead */
static sim_time_ps pick_scales(uint64_t x)
{
	static const sim_time_ps base[] = {
		0, 255, 256, 257, 1023, 1024, 1025, 65535, 65536, 1000000,
		4194303, 4194304, 4194305, 8388608, 10000000, 100000000000,
	};
	sim_time_ps b = base[x % (sizeof(base) / sizeof(base[0]))];
	x /= sizeof(base) / sizeof(base[0]);
	return x % 3 ? b : b + (sim_time_ps)(x % 5000000);
}

static void check_random_against_sorted(sim_time_ps (*pick)(uint64_t))
{
	enum { N = 5000 };
	struct sim_engine eng;
	static struct rec recs[N];
	static struct ref ref[N];
	static int log[N];
	int nlog = 0;
	uint64_t seq = 0, x = 12345;
	ck_assert_int_eq(sim_engine_init(&eng), 0);
	for (int i = 0; i < N; i++) {
		recs[i] = (struct rec){ .id = i, .log = log, .nlog = &nlog };
		sim_event_init(&recs[i].ev, fire_rec, TEST_KEY(i));
	}
	for (int step = 0; step < 3 * N; step++) {
		x = rng_mix(x);
		int i = (int)(x % N);
		x = rng_mix(x);
		if (x % 7 == 0) {
			sim_cancel(&eng, &recs[i].ev);
			ref[i].live = 0;
		} else {
			sim_time_ps t = pick(rng_mix(x));
			recs[i].at = t;
			sim_schedule(&eng, &recs[i].ev, t);
			ref[i] = (struct ref){ .t = t, .key = TEST_KEY(i), .seq = seq++, .id = i,
					      .live = 1 };
		}
	}
	int nlive = 0;
	static struct ref live[N];
	for (int i = 0; i < N; i++)
		if (ref[i].live)
			live[nlive++] = ref[i];
	qsort(live, (size_t)nlive, sizeof(live[0]), cmp_ref);
	ck_assert_uint_eq(eng.n, (unsigned)nlive);
	sim_run_until(&eng, INT64_MAX);
	ck_assert_int_eq(nlog, nlive);
	for (int i = 0; i < nlive; i++)
		ck_assert_int_eq(log[i], live[i].id);
	ck_assert_uint_eq(eng.n, 0);
	sim_engine_free(&eng);
}

START_TEST(random_against_sorted_reference)
{
	check_random_against_sorted(pick_tied);
}
END_TEST

START_TEST(random_scales_against_sorted_reference)
{
	check_random_against_sorted(pick_scales);
}
END_TEST

/* far events wait (in the heap) until the window reaches them; ties at their
 * time with events scheduled later, once the window covers it, still fire in
 * scheduling order */
enum { HOP_PS = 1000000, FAR_AT = 10000000 };

struct hop {
	struct sim_event ev;
	struct rec *r; /* r[0..4]: a b c d e */
	int *log;
	int *nlog;
};

static void fire_hop(struct sim_engine *eng, struct sim_event *ev)
{
	struct hop *h = container_of(ev, struct hop, ev);
	h->log[(*h->nlog)++] = 100 + (int)(eng->now / HOP_PS);
	if (eng->now < 12 * HOP_PS)
		sim_schedule(eng, ev, eng->now + HOP_PS);
	if (eng->now == 8 * HOP_PS) {
		sim_schedule(eng, &h->r[3].ev, FAR_AT); /* d */
	} else if (eng->now == 9 * HOP_PS) {
		sim_schedule(eng, &h->r[4].ev, FAR_AT); /* e */
		sim_schedule(eng, &h->r[2].ev, FAR_AT); /* c moves behind e */
		ck_assert_int_eq(sim_next_time(eng), FAR_AT);
	}
}

START_TEST(far_events_join_ties_in_order)
{
	struct sim_engine eng;
	struct rec r[5];
	struct hop h;
	int log[64], nlog = 0;
	ck_assert_int_eq(sim_engine_init(&eng), 0);
	for (int i = 0; i < 5; i++) {
		r[i] = (struct rec){ .id = i, .at = FAR_AT, .log = log, .nlog = &nlog };
		sim_event_init(&r[i].ev, fire_rec, 0);
	}
	r[1].at = 100000000000; /* 100 ms: a watchdog */
	h = (struct hop){ .r = r, .log = log, .nlog = &nlog };
	sim_event_init(&h.ev, fire_hop, 0);
	sim_schedule(&eng, &r[0].ev, FAR_AT);
	sim_schedule(&eng, &r[1].ev, r[1].at);
	sim_schedule(&eng, &r[2].ev, FAR_AT);
	sim_schedule(&eng, &h.ev, HOP_PS);
	ck_assert_uint_eq(eng.n, 4);
	ck_assert_int_eq(sim_next_time(&eng), HOP_PS);
	sim_run_until(&eng, FAR_AT - 1);
	ck_assert_int_eq(eng.now, 9 * HOP_PS);
	ck_assert_uint_eq(eng.n, 6); /* a b c d e and the hop */
	/* the engine's own split (a performance property, not the contract):
	 * events a few us ahead are in the wheel, only b waits in the heap */
	ck_assert_uint_eq(eng.nheap, 1);
	sim_run_until(&eng, INT64_MAX);
	/* hops 1..9, then at 10 us: a, d, the hop (rescheduled first at 9 us),
	 * e, c; hops 11 and 12; b at 100 ms */
	static const int want[] = { 101, 102, 103, 104, 105, 106, 107, 108, 109,
				    0, 3, 110, 4, 2, 111, 112, 1 };
	ck_assert_int_eq(nlog, (int)(sizeof(want) / sizeof(want[0])));
	for (int i = 0; i < nlog; i++)
		ck_assert_int_eq(log[i], want[i]);
	ck_assert_int_eq(eng.now, 100000000000);
	ck_assert_uint_eq(eng.n, 0);
	sim_engine_free(&eng);
}
END_TEST

/* handlers that reschedule themselves, cancel others and schedule at now */
struct actor {
	struct sim_event ev;
	int id;
	int *log;
	int *nlog;
	struct actor *all; /* the 6 actors */
};

static void fire_actor(struct sim_engine *eng, struct sim_event *ev)
{
	struct actor *a = container_of(ev, struct actor, ev);
	struct actor *all = a->all;
	a->log[(*a->nlog)++] = a->id;
	ck_assert(!sim_event_pending(ev));
	switch (a->id) {
	case 0: /* at 500: again now, behind 1 and 2; cancel 3 (500) and 4 (far) */
		if (*a->nlog == 1) {
			sim_schedule(eng, ev, eng->now);
			sim_cancel(eng, &all[3].ev);
			sim_cancel(eng, &all[4].ev);
			ck_assert_int_eq(sim_next_time(eng), 500);
		}
		break;
	case 1: /* at 500: 5 (pending at 700) moves to now, behind 0 */
		sim_schedule(eng, &all[5].ev, eng->now);
		break;
	case 2: /* at 500: 600, then 599 (sorted insertion ahead of it) */
		sim_schedule(eng, &all[3].ev, 600);
		sim_schedule(eng, &all[4].ev, 599);
		break;
	default:
		break;
	}
}

START_TEST(handlers_reschedule_and_cancel)
{
	struct sim_engine eng;
	struct actor a[6];
	int log[32], nlog = 0;
	ck_assert_int_eq(sim_engine_init(&eng), 0);
	for (int i = 0; i < 6; i++) {
		a[i] = (struct actor){ .id = i, .log = log, .nlog = &nlog, .all = a };
		sim_event_init(&a[i].ev, fire_actor, 0);
	}
	sim_schedule(&eng, &a[0].ev, 500);
	sim_schedule(&eng, &a[1].ev, 500);
	sim_schedule(&eng, &a[2].ev, 500);
	sim_schedule(&eng, &a[3].ev, 500);
	sim_schedule(&eng, &a[4].ev, 100000000000);
	sim_schedule(&eng, &a[5].ev, 700);
	sim_run_until(&eng, INT64_MAX);
	/* 0 1 2 at 500 (3 cancelled), 0 again, 5 moved to 500; 4 at 599, 3 */
	static const int want[] = { 0, 1, 2, 0, 5, 4, 3 };
	ck_assert_int_eq(nlog, 7);
	for (int i = 0; i < nlog; i++)
		ck_assert_int_eq(log[i], want[i]);
	ck_assert_int_eq(eng.now, 600);
	ck_assert_uint_eq(eng.events, 7);
	sim_engine_free(&eng);
}
END_TEST

START_TEST(times_up_to_int64_max)
{
	struct sim_engine eng;
	struct rec r[4];
	int log[4], nlog = 0;
	static const sim_time_ps at[] = { INT64_MAX, INT64_MAX - 5, INT64_MAX, 7 };
	ck_assert_int_eq(sim_engine_init(&eng), 0);
	for (int i = 0; i < 4; i++) {
		r[i] = (struct rec){ .id = i, .at = at[i], .log = log, .nlog = &nlog };
		sim_event_init(&r[i].ev, fire_rec, 0);
		sim_schedule(&eng, &r[i].ev, at[i]);
	}
	ck_assert_uint_eq(sim_run_until(&eng, INT64_MAX - 1), 2);
	ck_assert_int_eq(sim_next_time(&eng), INT64_MAX);
	ck_assert_uint_eq(sim_run_until(&eng, INT64_MAX), 2);
	ck_assert_int_eq(log[0], 3);
	ck_assert_int_eq(log[1], 1);
	ck_assert_int_eq(log[2], 0);
	ck_assert_int_eq(log[3], 2);
	ck_assert_int_eq(eng.now, INT64_MAX);
	sim_engine_free(&eng);
}
END_TEST

/*
 * Lock-step against a reference queue: every handler draws random actions
 * (schedule or move an event at a mix of distances, cancel one), applied to
 * the engine and to a plain array of (time, sched, key, seq); each firing must be the
 * array's minimum.  The run goes in random slices, checking sim_next_time and
 * the pending count between them; between slices, events are also scheduled,
 * moved and cancelled from outside any handler (as a parallel run settles
 * what crossed partitions), which the engine's remembered next time must
 * follow.
 */
enum { NLS = 300 };

struct lockstep {
	struct sim_engine eng;
	struct lsev {
		struct sim_event ev;
		struct lockstep *w;
		int id;
	} ev[NLS];
	sim_time_ps t[NLS], sched[NLS];
	uint64_t seq[NLS];
	int live[NLS];
	uint64_t next_seq, x;
	long fired, budget;
};

static uint64_t ls_rand(struct lockstep *w)
{
	w->x = rng_mix(w->x);
	return w->x;
}

static sim_time_ps ls_delay(struct lockstep *w)
{
	uint64_t r = ls_rand(w);
	switch (r % 8) {
	case 0: return 0;                                        /* now */
	case 1: return (sim_time_ps)(r >> 8) % 300;              /* this slot */
	case 2: return 256 * (sim_time_ps)((r >> 8) % 64);       /* on a boundary */
	case 3: return (sim_time_ps)(r >> 8) % 100000;           /* 100 ns */
	case 4: return (sim_time_ps)(r >> 8) % 5000000;          /* the window */
	case 5: return 4194304 + (sim_time_ps)((r >> 8) % 3) - 1; /* its edge */
	case 6: return (sim_time_ps)(r >> 8) % 20000000;         /* 20 us */
	default: return 100000000 * (sim_time_ps)(1 + (r >> 8) % 1000); /* far */
	}
}

static void ls_schedule(struct lockstep *w, int i, sim_time_ps t)
{
	sim_schedule(&w->eng, &w->ev[i].ev, t);
	w->t[i] = t;
	w->sched[i] = w->eng.now;
	w->seq[i] = w->next_seq++;
	w->live[i] = 1;
}

static void ls_cancel(struct lockstep *w, int i)
{
	sim_cancel(&w->eng, &w->ev[i].ev);
	w->live[i] = 0;
}

static int ls_min(const struct lockstep *w)
{
	int best = -1;
	for (int i = 0; i < NLS; i++)
		if (w->live[i] &&
		    (best < 0 || w->t[i] < w->t[best] ||
		     (w->t[i] == w->t[best] &&
		      (w->sched[i] < w->sched[best] ||
		       (w->sched[i] == w->sched[best] &&
			(TEST_KEY(i) < TEST_KEY(best) ||
			 (TEST_KEY(i) == TEST_KEY(best) && w->seq[i] < w->seq[best])))))))
			best = i;
	return best;
}

static unsigned ls_count(const struct lockstep *w)
{
	unsigned n = 0;
	for (int i = 0; i < NLS; i++)
		n += (unsigned)w->live[i];
	return n;
}

static void fire_ls(struct sim_engine *eng, struct sim_event *ev)
{
	struct lsev *e = container_of(ev, struct lsev, ev);
	struct lockstep *w = e->w;
	int want = ls_min(w);
	ck_assert_int_eq(e->id, want);
	ck_assert_int_eq(eng->now, w->t[want]);
	w->live[want] = 0;
	w->fired++;
	if (w->fired >= w->budget)
		return; /* let the queue drain */
	int nact = (int)(ls_rand(w) % 4); /* 0-3 actions, mean 1.5 */
	for (int k = 0; k < nact; k++) {
		int i = (int)(ls_rand(w) % NLS);
		if (ls_rand(w) % 8 == 0)
			ls_cancel(w, i);
		else
			ls_schedule(w, i, eng->now + ls_delay(w));
	}
}

/* windows of 10 ps over events at 0, 5, 12, 30 and 31 (and 25 000 000, past
 * the wheel): [0, 10), [12, 22), [30, 40), then one of its own.  A handler
 * that sets the close flag at 5 returns the run at the end of [0, 10),
 * before 12; without the flag the run goes on through the windows. */
static uint8_t close_flag;

static void fire_and_flag(struct sim_engine *eng, struct sim_event *ev)
{
	fire_rec(eng, ev);
	if (eng->now == 5)
		close_flag = 1;
}

START_TEST(windows_open_at_the_first_event_after_the_last)
{
	struct sim_engine eng;
	static const sim_time_ps at[] = { 0, 5, 12, 30, 31, 25000000 };
	enum { N = sizeof(at) / sizeof(at[0]) };
	struct rec r[N];
	int log[N], nlog = 0;
	ck_assert_int_eq(sim_engine_init(&eng), 0);
	for (int i = 0; i < N; i++) {
		r[i] = (struct rec){ .id = i, .at = at[i], .log = log, .nlog = &nlog };
		sim_event_init(&r[i].ev, fire_and_flag, 0);
		sim_schedule(&eng, &r[i].ev, at[i]);
	}
	close_flag = 0;
	struct sim_windows w = { .end = 0, .len = 10, .close = &close_flag };
	ck_assert_uint_eq(sim_run_windows(&eng, INT64_MAX, &w), 2);
	ck_assert_int_eq(w.end, 10); /* [0, 10) ended with the flag set */
	ck_assert_int_eq(sim_next_time(&eng), 12);
	close_flag = 0;
	ck_assert_uint_eq(sim_run_windows(&eng, 30, &w), 2); /* 12, 30 */
	ck_assert_int_eq(w.end, 40);  /* [30, 40) goes on past the bound */
	ck_assert_uint_eq(sim_run_windows(&eng, 39, &w), 1); /* 31 */
	ck_assert_int_eq(w.end, 40);
	ck_assert_uint_eq(sim_run_windows(&eng, INT64_MAX, &w), 1);
	ck_assert_int_eq(w.end, 25000010);
	ck_assert_int_eq(nlog, N);
	for (int i = 0; i < N; i++)
		ck_assert_int_eq(log[i], i);
	sim_engine_free(&eng);
}
END_TEST

START_TEST(lockstep_against_reference_queue)
{
	static struct lockstep w;
	w = (struct lockstep){ .x = 99, .budget = 200000 };
	ck_assert_int_eq(sim_engine_init(&w.eng), 0);
	for (int i = 0; i < NLS; i++) {
		w.ev[i].w = &w;
		w.ev[i].id = i;
		sim_event_init(&w.ev[i].ev, fire_ls, TEST_KEY(i));
	}
	for (int i = 0; i < NLS / 2; i++)
		ls_schedule(&w, i, ls_delay(&w));
	while (w.eng.n) {
		int m = ls_min(&w);
		ck_assert_int_eq(sim_next_time(&w.eng), w.t[m]);
		ck_assert_uint_eq(w.eng.n, ls_count(&w));
		/* from just short of the next event to 3 us past it */
		sim_time_ps until = w.t[m] - 1 + (sim_time_ps)(ls_rand(&w) % 3000000);
		uint64_t before = w.eng.events;
		sim_run_until(&w.eng, until);
		ck_assert(w.eng.now <= until || w.eng.events == before);
		ck_assert_int_lt(until, sim_next_time(&w.eng));
		int nact = w.fired < w.budget ? (int)(ls_rand(&w) % 4) : 0;
		for (int k = 0; k < nact; k++) {
			int i = (int)(ls_rand(&w) % NLS);
			if (ls_rand(&w) % 3 == 0) {
				ls_cancel(&w, i);
			} else {
				sim_time_ps at = w.eng.now + ls_delay(&w);
				ls_schedule(&w, i, at > until ? at : until + 1);
			}
			m = ls_min(&w);
			ck_assert_int_eq(sim_next_time(&w.eng), m < 0 ? INT64_MAX : w.t[m]);
		}
	}
	ck_assert_int_eq(ls_min(&w), -1);
	ck_assert_int_eq(sim_next_time(&w.eng), INT64_MAX);
	ck_assert_uint_eq(w.eng.events, (uint64_t)w.fired);
	ck_assert_int_ge(w.fired, w.budget);
	sim_engine_free(&w.eng);
}
END_TEST

static Suite *make_engine_suite(void)
{
	Suite *s = suite_create("engine");
	TCase *tc = tcase_create("queue");
	tcase_add_test(tc, ties_fire_in_scheduling_order);
	tcase_add_test(tc, ties_fire_in_key_order);
	tcase_add_test(tc, reschedule_moves_to_the_back_of_its_tie);
	tcase_add_test(tc, cancel_and_run_until_bound);
	tcase_add_test(tc, random_against_sorted_reference);
	tcase_add_test(tc, random_scales_against_sorted_reference);
	tcase_add_test(tc, far_events_join_ties_in_order);
	tcase_add_test(tc, handlers_reschedule_and_cancel);
	tcase_add_test(tc, times_up_to_int64_max);
	tcase_add_test(tc, lockstep_against_reference_queue);
	tcase_add_test(tc, windows_open_at_the_first_event_after_the_last);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tl_run(make_engine_suite());
}
