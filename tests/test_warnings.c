/*
 * test_warnings.c - scenario_warnings() (models/scenario/warnings.c,
 * docs/scenario.md#warnings): each warning fires on a scenario made for it, with the key it
 * names, and none fires on the teaching scenarios that do things right;
 * the two that break a rule on purpose get exactly that rule's warning.
 * Then a run directory: warnings.txt holds the lines, and a trace job's CSV
 * travels with it (traces/JOB.csv, named relatively in scenario.ini).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "models/scenario/scenario.h"
#include "sim/run/run.h"
#include "testlib.h"

#define MAX_SEEN 8

struct seen {
	unsigned n;
	char key[MAX_SEEN][96];
	char text[MAX_SEEN][512];
};

static void record(void *ctx, const char *key, const char *text)
{
	struct seen *w = ctx;
	if (w->n < MAX_SEEN) {
		snprintf(w->key[w->n], sizeof(w->key[0]), "%s", key);
		snprintf(w->text[w->n], sizeof(w->text[0]), "%s", text);
	}
	w->n++;
}

static struct seen warnings_of(const struct scenario *s)
{
	struct seen w = { 0 };
	unsigned n = scenario_warnings(s, record, &w);
	ck_assert_uint_eq(n, w.n);
	ck_assert_uint_eq(scenario_warnings(s, NULL, NULL), n); /* the count alone agrees */
	return w;
}

/* text with the --set assignments gives exactly one warning, about key,
 * whose text contains part */
static void one_warning(const char *text, const char *const *sets, const char *key,
			const char *part)
{
	struct scenario *s = tl_load_set(text, sets);
	struct seen w = warnings_of(s);
	ck_assert_msg(w.n == 1, "%s: %u warnings (first: %s: %s)", key, w.n,
		      w.n ? w.key[0] : "-", w.n ? w.text[0] : "-");
	ck_assert_str_eq(w.key[0], key);
	ck_assert_msg(strstr(w.text[0], part), "%s: \"%s\" lacks \"%s\"", key, w.text[0], part);
	tl_unload(s);
}

#define SETS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* a 2-leaf fabric of 64MB switches with the defaults: no warning */
static const char base[] = "[topology]\nspines = 2\nleaves = 2\nhosts_per_leaf = 4\n";

START_TEST(clean_defaults)
{
	struct scenario *s = tl_load(base);
	ck_assert_uint_eq(warnings_of(s).n, 0);
	tl_unload(s);
	s = tl_load_set(base, SETS("qos.nccl_ib_tc=106")); /* ECT(0): as NCCL should */
	ck_assert_uint_eq(warnings_of(s).n, 0);
	tl_unload(s);
}
END_TEST

START_TEST(each_warning)
{
	one_warning(base, SETS("qos.nccl_ib_tc=104"), "qos.nccl_ib_tc", "use 106");
	/* DSCP 10 is priority 1, PFC is on priority 3 only */
	one_warning(base, SETS("qos.data_dscp=10", "ecn.queues=1"), "qos.data_dscp",
		    "priority 1, which has no PFC");
	one_warning("[topology]\nspines = 2\nleaves = 2\nhosts_per_leaf = 4\n"
		    "[job.a]\npattern = incast\nsize = 1MB\ndscp = 10\n",
		    NULL, "job.a.dscp", "DSCP 10 goes to priority 1");
	one_warning(base, SETS("ecn.queues=4"), "ecn.queues", "does not mark ECN");
	one_warning(base, SETS("ecn.kmax=100MB"), "ecn.kmax", "above buffer.size");
	/* leaf pool 64MB less reserved and headroom; a single sender pauses at
	 * half of it (dynamic_th 0): about 31.5 MB */
	one_warning(base, SETS("ecn.kmin=40MB", "ecn.kmax=50MB"), "ecn.kmin",
		    "the switch pauses before it marks");
	one_warning(base, SETS("ecn.kmax=40MB"), "ecn.kmax", "before marking reaches pmax");
	struct scenario *s = tl_load_set(base, SETS("ecn.kmax=30MB")); /* below it */
	ck_assert_uint_eq(warnings_of(s).n, 0);
	tl_unload(s);
}
END_TEST

START_TEST(thresholds_follow_the_pool)
{
	/* alpha 1/8: one sender pauses at reserved + pool / 9 */
	struct scenario *s = tl_load_set(base, SETS("buffer.dynamic_th=-3", "ecn.kmax=6MB"));
	struct seen w = warnings_of(s);
	ck_assert_uint_eq(w.n, 0); /* 64MB x 0.98 / 9 = 7 MB: 6 MB is below */
	tl_unload(s);
	s = tl_load_set(base, SETS("buffer.dynamic_th=-3", "ecn.kmax=8MB"));
	w = warnings_of(s);
	ck_assert_uint_eq(w.n, 1);
	ck_assert_str_eq(w.key[0], "ecn.kmax");
	tl_unload(s);
}
END_TEST

START_TEST(headroom_and_cnp)
{
	/* 300 m of host cable at 400 Gbps needs 220454 B of headroom */
	one_warning("[topology]\nspines = 2\nleaves = 2\nhosts_per_leaf = 4\nhost_cable = 300m\n",
		    SETS("pfc.headroom=200KB"), "pfc.headroom", "220454 B");
	struct scenario *s = tl_load_set(base, SETS("pfc.headroom=230KB"));
	ck_assert_uint_eq(warnings_of(s).n, 0);
	tl_unload(s);
	one_warning(base, SETS("qos.cnp_priority_strict=false"), "qos.cnp_priority_strict",
		    "CNPs queue behind data");
	/* the watchdog reacts in 200ms + 200ms; a QP errors after 8 x 4.194304ms */
	one_warning(base, SETS("nic.ib_timeout=10"), "pfcwd.detection_time",
		    "(nic.ib_retry_cnt + 1) x 4194.304us = 33554.432us");
	one_warning(base, SETS("nic.rto=50ms"), "pfcwd.detection_time", "= 400ms");
	s = tl_load_set(base, SETS("nic.rto=50001us")); /* 400.008ms: after the watchdog */
	ck_assert_uint_eq(warnings_of(s).n, 0);
	tl_unload(s);
	s = tl_load_set(base, SETS("nic.ib_timeout=10", "pfcwd.enable=false"));
	ck_assert_uint_eq(warnings_of(s).n, 0);
	tl_unload(s);
	/* without DCQCN CNPs do not matter, nor does ECN on RoCE's queue */
	s = tl_load_set(base, SETS("qos.cnp_priority_strict=false", "nic.cc=none", "ecn.queues=4"));
	ck_assert_uint_eq(warnings_of(s).n, 0);
	tl_unload(s);
}
END_TEST

static struct scenario *load_file(const char *name)
{
	char path[512];
	struct scn_error err = { { 0 } };
	struct scenario *s = tl_scn_new();
	snprintf(path, sizeof(path), "%s/%s", TEST_SCENARIO_DIR, name);
	ck_assert_msg(scenario_load_file(s, path, &err) == 0 && scenario_finalize(s, &err) == 0,
		      "%s", err.msg);
	return s;
}

START_TEST(teaching_scenarios)
{
	static const char *const right[] = { "default.ini", "ecn-thresholds.ini",
					     "pause-storm.ini", "pfc-vs-dcqcn.ini",
					     "victim-flow.ini", "rail-optimized.ini",
					     "storage-vs-allreduce.ini", NULL };
	for (int i = 0; right[i]; i++) {
		struct scenario *s = load_file(right[i]);
		struct seen w = warnings_of(s);
		ck_assert_msg(w.n == 0, "%s: %s: %s", right[i], w.key[0], w.text[0]);
		tl_unload(s);
	}
	/* these two also use a short retransmission timer, so that go-back-N
	 * recovers within the lesson: the watchdog would act too late */
	struct scenario *s = load_file("dscp-mismatch.ini");
	struct seen w = warnings_of(s);
	ck_assert_uint_eq(w.n, 2);
	ck_assert_str_eq(w.key[0], "job.incast.dscp");
	ck_assert_str_eq(w.key[1], "pfcwd.detection_time");
	tl_unload(s);
	s = load_file("headroom.ini");
	w = warnings_of(s);
	ck_assert_uint_eq(w.n, 2);
	ck_assert_str_eq(w.key[0], "pfc.headroom");
	ck_assert_str_eq(w.key[1], "pfcwd.detection_time");
	tl_unload(s);
	/* lesson 3's high thresholds are the mistake it shows */
	s = load_file("ecn-thresholds.ini");
	ck_assert_int_eq(scenario_set(s, "ecn.kmin=12MB", &(struct scn_error){ { 0 } }), 0);
	ck_assert_int_eq(scenario_set(s, "ecn.kmax=16MB", &(struct scn_error){ { 0 } }), 0);
	w = warnings_of(s);
	ck_assert_uint_eq(w.n, 1);
	ck_assert_str_eq(w.key[0], "ecn.kmin");
	tl_unload(s);
}
END_TEST

/* a run directory keeps the warnings and the trace it ran */
START_TEST(run_directory)
{
	char dir[] = "/tmp/dcqcn-warn-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char text[1024];
	snprintf(text, sizeof(text),
		 "[topology]\nkind = star\nhosts = 8\n[pfc]\nheadroom = 1KB\n"
		 "[job.replay]\npattern = trace\nfile = %s/trace_ok.csv\n",
		 TEST_DATA_DIR);
	struct scenario *s = tl_load(text);
	struct run_result r;
	ck_assert_int_eq(run_scenario(s, &(struct run_opts){ .out_dir = dir }, &r), RUN_OK);
	ck_assert_uint_eq(r.warnings, 1);
	char *wt = tl_slurp(dir, "warnings.txt");
	ck_assert_msg(!strncmp(wt, "pfc.headroom: 1KB is below", 26) &&
			      strchr(wt, '\n') == wt + strlen(wt) - 1,
		      "warnings.txt: %s", wt);
	free(wt);
	char *ini = tl_slurp(dir, "scenario.ini");
	ck_assert_ptr_nonnull(strstr(ini, "\nfile = traces/replay.csv\n"));
	free(ini);
	char *copy = tl_slurp(dir, "traces/replay.csv");
	char *orig = tl_slurp(TEST_DATA_DIR, "trace_ok.csv");
	ck_assert_str_eq(copy, orig);
	free(copy);
	free(orig);
	/* the folder's own scenario.ini runs again, into the folder itself */
	char again[600];
	snprintf(again, sizeof(again), "%s/scenario.ini", dir);
	struct scenario *s2 = tl_scn_new();
	struct scn_error err = { { 0 } };
	ck_assert_msg(scenario_load_file(s2, again, &err) == 0 &&
			      scenario_finalize(s2, &err) == 0,
		      "%s", err.msg);
	char *sum1 = tl_slurp(dir, "summary.csv");
	struct run_result r2;
	ck_assert_int_eq(run_scenario(s2, &(struct run_opts){ .out_dir = dir }, &r2), RUN_OK);
	char *sum2 = tl_slurp(dir, "summary.csv");
	ck_assert_str_eq(sum1, sum2);
	copy = tl_slurp(dir, "traces/replay.csv");
	ck_assert_uint_gt(strlen(copy), 20); /* not truncated by copying onto itself */
	free(copy);
	free(sum1);
	free(sum2);
	tl_unload(s2);
	tl_unload(s);
	char cmd[700];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("warnings");
	TCase *tc = tcase_create("warnings");
	tcase_add_test(tc, clean_defaults);
	tcase_add_test(tc, each_warning);
	tcase_add_test(tc, thresholds_follow_the_pool);
	tcase_add_test(tc, headroom_and_cnp);
	tcase_add_test(tc, teaching_scenarios);
	tcase_add_test(tc, run_directory);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tl_run(make_suite());
}
