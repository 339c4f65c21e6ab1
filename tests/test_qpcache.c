/*
 * test_qpcache.c - nic.qp_cache (models/node/qpcache.c): QPs that give
 * their state up at rest and get it back, and the messages of an
 * all-to-all `all-at-once` made as each NIC serves them.  The same run with
 * a cache of one QP and with every QP kept must complete the same messages
 * at the same times, conserve every byte and packet, drop nothing lossless,
 * and the QPs with state at once stay within what fabric_memory_estimate
 * (and `dcqcn-sim check`) expects.  tests/test_qpcache.py compares the
 * output files byte for byte.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/fabric/fabric.h"
#include "models/node/nic.h"
#include "models/scenario/scenario.h"
#include "testlib.h"

/* a run to its end: its completions logged, conservation checked */
static struct fabric *run(const struct scenario *s, unsigned threads, struct tl_log *log)
{
	struct fabric *f = tl_build_on(s, threads);
	if (f->nparts == 1) /* the log records one partition's */
		tl_log_attach(f, log);
	fabric_run_until(f, s->duration_ps);
	ck_assert_msg(fabric_finished(f), "%llu of %llu messages done",
		      (unsigned long long)fabric_flows_done(f),
		      (unsigned long long)fabric_flows_total(f));
	uint64_t in_flight = 0;
	ck_assert_msg(fabric_check_conservation(f, &in_flight) == 0, "%s", f->err);
	ck_assert_uint_eq(tl_stats(f).drops.lossless, 0);
	return f;
}

/* a run's fabric, scenario and log, freed */
static void finish(struct fabric *f, struct scenario *s, struct tl_log *log)
{
	tl_log_free(log);
	fabric_destroy(f);
	tl_unload(s);
}

static int by_id(const void *a, const void *b)
{
	const struct tl_flow *x = a, *y = b;
	return (x->id > y->id) - (x->id < y->id);
}

/* the two logs hold the same messages, completed at the same times */
static void same_log(struct tl_log *a, struct tl_log *b)
{
	ck_assert_uint_eq(a->nflows, b->nflows);
	if (!a->nflows) /* not logged: a run on several partitions */
		return;
	qsort(a->flows, a->nflows, sizeof(*a->flows), by_id);
	qsort(b->flows, b->nflows, sizeof(*b->flows), by_id);
	for (size_t k = 0; k < a->nflows; k++) {
		ck_assert_uint_eq(a->flows[k].id, b->flows[k].id);
		ck_assert_int_eq(a->flows[k].start_ps, b->flows[k].start_ps);
		ck_assert_int_eq(a->flows[k].end_ps, b->flows[k].end_ps);
		ck_assert_int_eq(a->flows[k].rx_bytes, b->flows[k].rx_bytes);
	}
	ck_assert_uint_eq(a->ncolls, b->ncolls);
	for (size_t k = 0; k < a->ncolls; k++)
		ck_assert_int_eq(a->colls[k].end_ps, b->colls[k].end_ps);
}

static const char *const A2A = "[sim]\nduration = 100ms\n[topology]\nspines = 2\nleaves = 4\n"
			       "hosts_per_leaf = 8\nhost_link = 100Gbps\nfabric_link = 100Gbps\n"
			       "[job.a2a]\npattern = alltoall\nsize = 2MiB\niterations = 2\n";

/* the runs compared: schedule, size, QPs a connection, threads.  64 KiB to
 * each rank congests the fabric (DCQCN cuts, PFC pauses); 3 KiB (a packet
 * a message) leaves most QPs at rest most of the time */
static const struct qpc_case {
	const char *sched, *size, *qpc;
	unsigned threads;
} cases[] = {
	{ "all-at-once", "2MiB", "2", 1 }, { "shift", "2MiB", "2", 1 },
	{ "all-at-once", "96KiB", "1", 2 }, { "shift", "2MiB", "1", 2 },
	{ "all-at-once", "96KiB", "1", 1 }, { "all-at-once", "2MiB", "1", 2 },
};

/* one case with the given cache, its QPs listed in rates.csv 3 */
static struct scenario *load_case(const struct qpc_case *c, const char *cache)
{
	char s1[64], s2[64], s3[64], s4[64];
	snprintf(s1, sizeof(s1), "job.a2a.schedule=%s", c->sched);
	snprintf(s2, sizeof(s2), "job.a2a.qps_per_connection=%s", c->qpc);
	snprintf(s3, sizeof(s3), "job.a2a.size=%s", c->size);
	snprintf(s4, sizeof(s4), "nic.qp_cache=%s", cache);
	const char *sets[] = { s1, s2, s3, s4, "output.rates=3", NULL };
	return tl_load_set(A2A, sets);
}

/* each schedule, on 1 and 2 threads, with a cache of one QP against every
 * QP kept: the same completions, the same counters; QPs did give their
 * state up, and no more had it at once than check expects */
START_TEST(same_run_without_the_state)
{
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		const struct qpc_case *c = &cases[k];
		struct scenario *st = load_case(c, "1"), *sa = load_case(c, "0");
		struct tl_log lt = {0}, la = {0};
		struct fabric *ft = run(st, c->threads, &lt), *fa = run(sa, c->threads, &la);
		same_log(&lt, &la);
		ck_assert_int_eq(ft->end_ps, fa->end_ps);
		struct net_stats a = tl_stats(ft), b = tl_stats(fa);
		ck_assert_uint_eq(a.payload_delivered, b.payload_delivered);
		ck_assert_uint_eq(a.cc.cnps_sent, b.cc.cnps_sent);
		ck_assert_uint_eq(a.cc.ecn_marked, b.cc.ecn_marked);
		ck_assert_uint_eq(a.pause_frames, b.pause_frames);
		/* with the cache, no more QPs had their state at once than
		 * check expects, and with shift far fewer than it opens (with
		 * all-at-once, a rank of so few has them all under way within a
		 * round trip) */
		struct fabric_memory m = fabric_memory_estimate(st);
		uint64_t peak = fabric_qps_live_peak(ft);
		uint32_t nqps = ft->parts[0].net.nqps;
		ck_assert_uint_eq(m.cache, 1);
		ck_assert_uint_gt(peak, 0);
		ck_assert_msg(peak <= m.live, "case %zu: %llu QPs had their state at once, check "
			      "expects %llu", k, (unsigned long long)peak, (unsigned long long)m.live);
		if (!strcmp(c->sched, "shift"))
			ck_assert_msg(peak < nqps / 2, "case %zu: %llu of %u QPs had their state at once",
				      k, (unsigned long long)peak, nqps);
		ck_assert_uint_eq(fabric_qps_live_peak(fa), 0);
		ck_assert_uint_eq(fabric_memory_estimate(sa).cache, 0);
		/* the samplers' QPs always have their state */
		ck_assert_uint_eq(ft->nqps, 3);
		ck_assert_uint_eq(fa->nqps, nqps);
		ck_assert_uint_eq(nqps, 32 * 31 * (uint32_t)atoi(c->qpc));
		finish(ft, st, &lt);
		finish(fa, sa, &la);
	}
}
END_TEST

/* a QP gives its state up at rest, and gets it back with its PSN */
START_TEST(state_given_back)
{
	const char *tiny[] = { "nic.qp_cache=1", "output.rates=0", "job.a2a.schedule=shift",
			       NULL };
	struct scenario *s = tl_load_set(A2A, tiny);
	struct tl_log log = {0};
	struct fabric *f = run(s, 1, &log);
	const struct net *net = &f->parts[0].net;
	uint32_t at_rest = 0;
	for (uint32_t i = 0; i < net->nqps; i++)
		at_rest += nic_qp_peek(net, i) == NULL;
	/* every QP but the last few of the second iteration gave its state up */
	ck_assert_uint_gt(at_rest, net->nqps / 2);
	finish(f, s, &log);
}
END_TEST

/* QPs of jobs before and after an all-to-all's: theirs keep their ends and
 * job, the all-to-all's are computed (its span); each QP reads the same job
 * as with every QP kept, and the runs complete the same messages */
START_TEST(ends_computed)
{
	static const char *const jobs =
		"[sim]\nduration = 100ms\n[topology]\nspines = 2\nleaves = 4\nhosts_per_leaf = 8\n"
		"[job.in]\npattern = incast\ndst = 3\nsenders = 8-15\nsize = 64KB\n"
		"[job.a2a]\npattern = alltoall\nsize = 96KiB\nranks = 1-9,20-31\n"
		"qps_per_connection = 2\ndscp = 26\n"
		"[job.out]\npattern = incast\ndst = 30\nsenders = 0-7\nsize = 64KB\n";
	const char *tiny[] = { "nic.qp_cache=1", "output.rates=0", NULL };
	const char *all[] = { "nic.qp_cache=0", "output.rates=0", NULL };
	struct scenario *st = tl_load_set(jobs, tiny), *sa = tl_load_set(jobs, all);
	struct tl_log lt = {0}, la = {0};
	struct fabric *ft = run(st, 1, &lt), *fa = run(sa, 1, &la);
	same_log(&lt, &la);
	const struct net *nt = &ft->parts[0].net, *na = &fa->parts[0].net;
	ck_assert_uint_eq(nt->nqps, 8 + 21 * 20 * 2 + 8);
	ck_assert_uint_eq(nt->nqps, na->nqps);
	uint32_t at_rest = 0;
	for (uint32_t i = 0; i < nt->nqps; i++) {
		ck_assert_uint_eq(nic_qp_job(nt, i), nic_qp_job(na, i));
		at_rest += nic_qp_peek(nt, i) == NULL;
	}
	ck_assert_uint_eq(nic_qp_job(nt, 0), 0);
	ck_assert_uint_eq(nic_qp_job(nt, 8), 1);
	ck_assert_uint_eq(nic_qp_job(nt, nt->nqps - 1), 2);
	ck_assert_uint_gt(at_rest, nt->nqps / 2);
	finish(ft, st, &lt);
	finish(fa, sa, &la);
}
END_TEST

/* the estimate: every QP's state without the cache; with it, the homes,
 * the cache and what is busy, and the messages of all-at-once only as
 * many as busy */
START_TEST(memory_estimate)
{
	struct scenario *s = tl_load("[topology]\nspines = 16\nleaves = 256\nhosts_per_leaf = 32\n"
				     "[job.a2a]\npattern = alltoall\nsize = 1MB\n[output]\nflows = none\n");
	struct fabric_memory m = fabric_memory_estimate(s);
	ck_assert_uint_eq(m.qps, 8192ull * 8191);
	ck_assert_uint_eq(m.cache, 1048576);
	/* all-at-once of a packet a message: those of two round trips */
	ck_assert_uint_gt(m.live, 1048576 + 64 + 100 * 8192);
	ck_assert_uint_lt(m.live, m.qps / 4);
	ck_assert_uint_eq(m.msgs, m.live - 1048576 - 64);
	ck_assert_uint_eq(m.ids, 0); /* the all-to-all's QPs are computed */
	ck_assert_uint_eq(m.bytes, m.qps * m.home_bytes + m.live * m.qp_bytes +
					   m.msgs * m.msg_bytes);
	ck_assert_int_eq(m.verdict, FABRIC_MEMORY_FITS);
	tl_unload(s);
	/* shift: two a rank, no messages at once */
	const char *shift[] = { "job.a2a.schedule=shift", NULL };
	s = tl_load_set("[topology]\nspines = 16\nleaves = 256\nhosts_per_leaf = 32\n"
			"[job.a2a]\npattern = alltoall\nsize = 1MB\n",
			shift);
	m = fabric_memory_estimate(s);
	ck_assert_uint_eq(m.live, 1048576 + 64 + 2 * 8192);
	ck_assert_uint_eq(m.msgs, 0);
	ck_assert_uint_lt(m.bytes, 1170000000ull); /* 1.03 GB (docs/SCALING.md: 1.16 GB measured) */
	tl_unload(s);
	/* every QP with its state, a truly oversize run: refused */
	const char *huge[] = { "job.a2a.ranks=0-32767", NULL };
	s = tl_load_set("[topology]\nspines = 64\nleaves = 1024\nhosts_per_leaf = 32\n"
			"[buffer]\nsize = 1GB\n"
			"[job.a2a]\npattern = alltoall\nsize = 1MB\nschedule = shift\n",
			huge);
	m = fabric_memory_estimate(s);
	ck_assert_uint_eq(m.qps, 32768ull * 32767);
	ck_assert_int_eq(m.verdict, m.phys && m.phys < m.bytes ? FABRIC_MEMORY_TOO_LARGE
							      : FABRIC_MEMORY_FITS);
	ck_assert_uint_gt(m.bytes, m.qps * m.home_bytes);
	tl_unload(s);
	/* without the cache: every QP, and every message posted at once */
	const char *none[] = { "nic.qp_cache=0", NULL };
	s = tl_load_set("[topology]\nspines = 16\nleaves = 256\nhosts_per_leaf = 32\n"
			"[job.a2a]\npattern = alltoall\nsize = 1MB\n",
			none);
	m = fabric_memory_estimate(s);
	ck_assert_uint_eq(m.cache, 0);
	ck_assert_uint_eq(m.bytes, m.qps * m.qp_bytes + m.qps * m.msg_bytes);
	tl_unload(s);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("qpcache");
	TCase *tc = tcase_create("qpcache");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, same_run_without_the_state);
	tcase_add_test(tc, state_given_back);
	tcase_add_test(tc, ends_computed);
	tcase_add_test(tc, memory_estimate);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
