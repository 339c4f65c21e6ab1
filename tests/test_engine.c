/*
 * test_engine.c - the event queue: order by (time, insertion), ties in
 * scheduling order, reschedule and cancel, against a sorted reference.
 */
#include <check.h>
#include <stdlib.h>

#include "engine.h"
#include "rng.h"
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

START_TEST(ties_fire_in_scheduling_order)
{
	enum { N = 1000 };
	struct sim_engine eng;
	static struct rec recs[N];
	int log[N], nlog = 0;
	ck_assert_int_eq(sim_engine_init(&eng), 0);
	/* all at one time, scheduled in id order: fire in id order */
	for (int i = 0; i < N; i++) {
		recs[i] = (struct rec){ .id = i, .at = 777, .log = log, .nlog = &nlog };
		sim_event_init(&recs[i].ev, fire_rec);
		sim_schedule(&eng, &recs[i].ev, 777);
	}
	ck_assert_uint_eq(sim_run_until(&eng, 777), N);
	for (int i = 0; i < N; i++)
		ck_assert_int_eq(log[i], i);
	sim_engine_free(&eng);
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
		sim_event_init(&r[i].ev, fire_rec);
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
		sim_event_init(&r[i].ev, fire_rec);
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
 * (time, last scheduling sequence) */
struct ref {
	sim_time_ps t;
	uint64_t seq;
	int id;
	int live;
};

static int cmp_ref(const void *a, const void *b)
{
	const struct ref *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

START_TEST(random_against_sorted_reference)
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
		sim_event_init(&recs[i].ev, fire_rec);
	}
	for (int step = 0; step < 3 * N; step++) {
		x = rng_mix(x);
		int i = (int)(x % N);
		x = rng_mix(x);
		if (x % 7 == 0) {
			sim_cancel(&eng, &recs[i].ev);
			ref[i].live = 0;
		} else {
			sim_time_ps t = (sim_time_ps)(x % 64); /* many ties */
			recs[i].at = t;
			sim_schedule(&eng, &recs[i].ev, t);
			ref[i] = (struct ref){ .t = t, .seq = seq++, .id = i, .live = 1 };
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
	sim_engine_free(&eng);
}
END_TEST

static Suite *make_engine_suite(void)
{
	Suite *s = suite_create("engine");
	TCase *tc = tcase_create("queue");
	tcase_add_test(tc, ties_fire_in_scheduling_order);
	tcase_add_test(tc, reschedule_moves_to_the_back_of_its_tie);
	tcase_add_test(tc, cancel_and_run_until_bound);
	tcase_add_test(tc, random_against_sorted_reference);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tl_run(make_engine_suite());
}
