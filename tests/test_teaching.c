/*
 * test_teaching.c - every teaching scenario in scenarios/ teaches what its
 * header says, in numbers: run it as shipped and with the override its
 * header suggests, and compare.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric.h"
#include "scenario.h"
#include "testlib.h"

#ifndef TEST_SCENARIO_DIR
#define TEST_SCENARIO_DIR "scenarios"
#endif

/* load scenarios/NAME.ini with up to three --set overrides and run it to
 * its sim.duration (or until every flow is done) */
static struct fabric *run(const char *name, const char *set1, const char *set2,
			  struct scenario **ps)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s.ini", TEST_SCENARIO_DIR, name);
	struct scenario *s = calloc(1, sizeof(*s));
	struct scn_error err = {{0}};
	ck_assert_ptr_nonnull(s);
	scenario_init(s);
	int rc = scenario_load_file(s, path, &err);
	if (rc == 0 && set1)
		rc = scenario_set(s, set1, &err);
	if (rc == 0 && set2)
		rc = scenario_set(s, set2, &err);
	if (rc == 0)
		rc = scenario_finalize(s, &err);
	ck_assert_msg(rc == 0, "%s: %s", path, err.msg);
	struct fabric *f = tl_build(s);
	struct tl_log *log = malloc(sizeof(*log));
	ck_assert_ptr_nonnull(log);
	tl_log_attach(f, log); /* f->hooks.ctx */
	fabric_run_until(f, s->duration_ps);
	uint64_t in_flight;
	ck_assert_msg(fabric_check_conservation(f, &in_flight) == 0, "%s", f->err);
	*ps = s;
	return f;
}

static void done(struct fabric *f, struct scenario *s)
{
	tl_log_free(f->hooks.ctx);
	free(f->hooks.ctx);
	fabric_destroy(f);
	scenario_free(s);
	free(s);
}

/* payload delivered to the messages of job `name` */
static int64_t job_bytes(const struct fabric *f, const char *name)
{
	return tl_job_rx_bytes(f, f->hooks.ctx, name);
}

START_TEST(pfc_only_pauses_dcqcn_marks)
{
	struct scenario *s1, *s2;
	struct fabric *cc = run("pfc-vs-dcqcn", NULL, NULL, &s1);
	struct fabric *pfc = run("pfc-vs-dcqcn", "nic.cc=none", NULL, &s2);
	ck_assert(fabric_finished(cc) && fabric_finished(pfc));
	ck_assert_msg(tl_stats(cc).pause_frames * 10 < tl_stats(pfc).pause_frames, "pauses: dcqcn %llu, pfc %llu",
		      (unsigned long long)tl_stats(cc).pause_frames, (unsigned long long)tl_stats(pfc).pause_frames);
	ck_assert_uint_gt(tl_stats(cc).cc.cnps_sent, 0);
	ck_assert_uint_eq(tl_stats(pfc).cc.cnps_sent, 0);
	ck_assert_uint_eq(tl_stats(cc).drops.lossless + tl_stats(pfc).drops.lossless, 0);
	done(cc, s1);
	done(pfc, s2);
}
END_TEST

START_TEST(pause_storm_spreads_unless_watchdog)
{
	struct scenario *s1, *s2;
	struct fabric *wd = run("pause-storm", "sim.duration=10ms", NULL, &s1);
	struct fabric *nowd = run("pause-storm", "sim.duration=10ms", "pfcwd.enable=false", &s2);
	/* without the watchdog the spine's port to leaf0 is still paused at
	 * the end and the victim (h9 -> h1) is starved; with it, leaf0 drops
	 * for h0 and the victim runs */
	struct port *spine_to_leaf0 = &nowd->sws[2].ports[0];
	ck_assert(spine_to_leaf0->pause.paused & (1u << 3));
	ck_assert(!(wd->sws[2].ports[0].pause.paused & (1u << 3)));
	ck_assert_uint_gt(tl_stats(wd).pfcwd_storms, 0);
	ck_assert_uint_gt(tl_stats(wd).drops.pfcwd, 0);
	int64_t v_wd = job_bytes(wd, "victim"), v_no = job_bytes(nowd, "victim");
	ck_assert_msg(v_wd > 10 * v_no, "victim: %lld B with the watchdog, %lld B without",
		      (long long)v_wd, (long long)v_no);
	done(wd, s1);
	done(nowd, s2);
}
END_TEST

START_TEST(victim_flow_slowed_by_shared_path)
{
	struct scenario *s1, *s2;
	struct fabric *shared = run("victim-flow", "sim.duration=5ms", NULL, &s1);
	struct fabric *alone = run("victim-flow", "sim.duration=5ms", "job.incast.start=1s", &s2);
	int64_t v = job_bytes(shared, "victim"), a = job_bytes(alone, "victim");
	/* alone it runs at the 100G goodput ceiling: 98 Gbps x 5 ms */
	ck_assert_msg(a > 0.97 * 100e9 / 8 * 5e-3 * 4096 / 4178, "alone: %lld B", (long long)a);
	ck_assert_msg(v < a / 2, "victim: %lld B with the incast, %lld B alone", (long long)v,
		      (long long)a);
	done(shared, s1);
	done(alone, s2);
}
END_TEST

START_TEST(undersized_headroom_drops)
{
	struct scenario *s1, *s2;
	struct fabric *small = run("headroom", NULL, NULL, &s1);
	struct fabric *autoh = run("headroom", "pfc.headroom=auto", NULL, &s2);
	ck_assert_uint_gt(tl_stats(small).drops.lossless, 0);
	ck_assert_uint_gt(tl_stats(small).cc.retransmitted_bytes, 0);
	ck_assert_uint_eq(tl_stats(autoh).drops.lossless, 0);
	ck_assert(fabric_finished(small) && fabric_finished(autoh)); /* go-back-N recovers */
	done(small, s1);
	done(autoh, s2);
}
END_TEST

START_TEST(dscp_mismatch_is_lossy)
{
	struct scenario *s1, *s2;
	struct fabric *wrong = run("dscp-mismatch", NULL, NULL, &s1);
	struct fabric *right = run("dscp-mismatch", "job.incast.dscp=26", NULL, &s2);
	ck_assert_uint_gt(tl_stats(wrong).drops.lossy, 0);
	ck_assert_uint_gt(tl_stats(wrong).cc.retransmitted_bytes, 0);
	ck_assert_uint_eq(tl_stats(wrong).pause_frames, 0);
	ck_assert_uint_eq(tl_stats(right).drops.lossy + tl_stats(right).drops.lossless, 0);
	ck_assert_uint_gt(tl_stats(right).pause_frames, 0);
	done(wrong, s1);
	done(right, s2);
}
END_TEST

START_TEST(high_ecn_thresholds_pause_more_mark_less)
{
	struct scenario *s1, *s2;
	struct fabric *low = run("ecn-thresholds", NULL, NULL, &s1);
	struct fabric *high = run("ecn-thresholds", "ecn.kmin=12MB", "ecn.kmax=16MB", &s2);
	ck_assert_msg(tl_stats(high).pause_frames > tl_stats(low).pause_frames, "pauses: high %llu, low %llu",
		      (unsigned long long)tl_stats(high).pause_frames, (unsigned long long)tl_stats(low).pause_frames);
	ck_assert_msg(tl_stats(high).cc.ce_delivered < tl_stats(low).cc.ce_delivered, "marks: high %llu, low %llu",
		      (unsigned long long)tl_stats(high).cc.ce_delivered,
		      (unsigned long long)tl_stats(low).cc.ce_delivered);
	done(low, s1);
	done(high, s2);
}
END_TEST

static Suite *make_teaching_suite(void)
{
	Suite *s = suite_create("teaching");
	TCase *tc = tcase_create("scenarios");
	tcase_add_test(tc, pfc_only_pauses_dcqcn_marks);
	tcase_add_test(tc, pause_storm_spreads_unless_watchdog);
	tcase_add_test(tc, victim_flow_slowed_by_shared_path);
	tcase_add_test(tc, undersized_headroom_drops);
	tcase_add_test(tc, dscp_mismatch_is_lossy);
	tcase_add_test(tc, high_ecn_thresholds_pause_more_mark_less);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tl_run(make_teaching_suite());
}
