/*
 * test_scenario_files.c - the scenario loader and files: scenario files
 * read by path, and trace CSV files (pattern = trace, docs/contract.md#scenario-files).
 *
 * What is pinned: a trace fixture found relative to its scenario and its
 * rows parsed exactly (start_us to the picosecond, dscp, after); every
 * trace CSV error with its CSV line; a trace file that does not exist; a
 * scenario file that does not exist, and errors naming the file's path.
 *
 * TEST_DATA_DIR is the folder of the fixtures (tests/data); meson passes it,
 * a standalone build run from the project root uses the default.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/scenario/scenario.h"
#include "testlib.h"

#ifndef TEST_DATA_DIR
#define TEST_DATA_DIR "tests/data"
#endif

START_TEST(test_trace_fixture_relative)
{
	struct scenario *s = tl_scn_new();
	struct scn_error err;
	const struct scn_job *j;
	const char *tail = "/" TEST_DATA_DIR "/trace_ok.csv";

	ck_assert_msg(scenario_load_file(s, TEST_DATA_DIR "/trace_job.ini", &err) == 0,
		      "%s", err.msg);
	ck_assert_msg(scenario_finalize(s, &err) == 0, "%s", err.msg);
	ck_assert_str_eq(s->source, TEST_DATA_DIR "/trace_job.ini");
	j = &s->jobs[0];
	ck_assert_str_eq(j->name, "replay");
	ck_assert_int_eq(j->pattern, SCN_JOB_TRACE);
	ck_assert_int_eq(j->dscp, 10);
	ck_assert_int_eq(j->start_ps, 5000000);
	/* absolute, ending in the fixture's folder */
	ck_assert_int_eq(j->file[0], '/');
	if (TEST_DATA_DIR[0] == '/')
		tail = TEST_DATA_DIR "/trace_ok.csv";
	ck_assert_str_eq(j->file + strlen(j->file) - strlen(tail), tail);
	ck_assert_uint_eq(j->nrows, 3);
	ck_assert_uint_eq(j->rows[0].src, 0);
	ck_assert_uint_eq(j->rows[0].dst, 1);
	ck_assert_int_eq(j->rows[0].bytes, 4096);
	ck_assert_int_eq(j->rows[0].start_ps, 0);
	ck_assert_int_eq(j->rows[0].dscp, -1);
	ck_assert_int_eq(j->rows[0].after, -1);
	ck_assert_uint_eq(j->rows[1].src, 1);
	ck_assert_uint_eq(j->rows[1].dst, 2);
	ck_assert_int_eq(j->rows[1].bytes, 1000000);
	ck_assert_int_eq(j->rows[1].start_ps, 1500000);
	ck_assert_int_eq(j->rows[1].dscp, 26);
	ck_assert_int_eq(j->rows[1].after, 0);
	ck_assert_uint_eq(j->rows[2].src, 7);
	ck_assert_uint_eq(j->rows[2].dst, 0);
	ck_assert_int_eq(j->rows[2].bytes, 1);
	ck_assert_int_eq(j->rows[2].start_ps, 2000001); /* 2.000001 us exactly */
	ck_assert_int_eq(j->rows[2].after, 1);
	/* finalize again: same rows, nothing leaked (ASan) */
	ck_assert_int_eq(scenario_finalize(s, &err), 0);
	ck_assert_uint_eq(s->jobs[0].nrows, 3);
	tl_unload(s);
}
END_TEST

/* one CSV content and the message that it must give, after "PATH:" */
struct trace_case {
	const char *csv;
	const char *msg;
};

static const struct trace_case trace_cases[] = {
	{ "", "1: header: empty file" },
	{ "src,dst,bytes,start_us\n", "1: row: no flows after the header" },
	{ "src,dst,bytes\n0,1,2\n", "1: start_us: missing column (the header needs src, dst, bytes, start_us)" },
	{ "src,dst,bytes,start_us,prio\n", "1: prio: unknown column (src, dst, bytes, start_us, dscp, after)" },
	{ "src,dst,src,bytes,start_us\n", "1: src: duplicate column" },
	{ "src,dst,,bytes,start_us\n", "1: column 3: empty column name" },
	{ "src,dst,bytes,start_us,dscp,after,extra\n", "1: extra: unknown column" },
	{ "src,dst,bytes,start_us\n0,1,100,0\n\n0,1,100\n", "4: row: 3 fields, the header has 4" },
	{ "src,dst,bytes,start_us\n0,1,100,0,5\n", "2: row: 5 fields, the header has 4" },
	{ "src,dst,bytes,start_us\n0,8,100,0\n", "2: dst: 8 out of range (0-7)" },
	{ "src,dst,bytes,start_us\n-1,1,100,0\n", "2: src: -1 out of range (0-7)" },
	{ "src,dst,bytes,start_us\n3,3,100,0\n", "2: dst: 3 is also src" },
	{ "src,dst,bytes,start_us\n0,1,1e6,0\n", "2: bytes: 1e6 is not an integer" },
	{ "src,dst,bytes,start_us\n0,1,0,0\n", "2: bytes: 0 out of range" },
	{ "src,dst,bytes,start_us\n0,1,10,1.0000001\n", "2: start_us: 1.0000001us is not a whole number of picoseconds" },
	{ "src,dst,bytes,start_us\n0,1,10,5us\n", "2: start_us: 5us is not a number of microseconds" },
	{ "src,dst,bytes,start_us\n0,1,10,\n", "2: start_us:  is not a number of microseconds" },
	{ "src,dst,bytes,start_us,dscp\n0,1,10,0,64\n", "2: dscp: 64 out of range (0-63)" },
	{ "src,dst,bytes,start_us,after\n0,1,10,0,0\n", "2: after: 0 is not an earlier row (this is flow 0, the first)" },
	{ "src,dst,bytes,start_us,after\n0,1,10,0,\n1,2,10,0,\n2,3,10,0,2\n",
	  "4: after: 2 is not an earlier row (0-1; this is flow 2)" },
	{ "src,dst,bytes,start_us\n0,1,\"10,0\n", "2: csv: " },
	{ "src,dst,bytes,start_us\n0,1,\"10\"x,0\n", "2: csv: " },
};

START_TEST(test_trace_errors)
{
	const struct trace_case *tc = &trace_cases[_i];
	char dir[64], path[128], text[512], want[256];

	tl_write_temp(dir, path, "t.csv", tc->csv);
	snprintf(text, sizeof(text),
		 "[topology]\nkind = star\nhosts = 8\n[job.t]\npattern = trace\nfile = %s\n",
		 path);
	snprintf(want, sizeof(want), "%s:%s", path, tc->msg);
	tl_check_case(&(struct tl_case){ text, NULL, want });
	tl_remove_temp(dir, path);
}
END_TEST

START_TEST(test_trace_file_missing)
{
	/* relative to x.ini's folder (the current directory) */
	struct scn_error err;
	struct scenario *s = tl_scn_try("[job.t]\npattern = trace\nfile = no/such.csv\n", &err);

	ck_assert_ptr_null(s);
	ck_assert_msg(strncmp(err.msg, "x.ini:1: job.t.file: cannot open /", 34) == 0, "%s", err.msg);
	ck_assert_ptr_nonnull(strstr(err.msg, "/no/such.csv (No such file or directory)"));
}
END_TEST

START_TEST(test_load_file_errors)
{
	struct scenario *s = tl_scn_new();
	struct scn_error err;
	char dir[64], path[128], want[200];

	ck_assert_int_eq(scenario_load_file(s, "/nonexistent/x.ini", &err), -1);
	ck_assert_str_eq(err.msg, "/nonexistent/x.ini: cannot open (No such file or directory)");
	tl_unload(s);
	/* errors in a file name the file's path */
	s = tl_scn_new();
	tl_write_temp(dir, path, "bad.ini", "[topology]\n\nspines = 0\n");
	ck_assert_int_eq(scenario_load_file(s, path, &err), -1);
	snprintf(want, sizeof(want), "%s:3: topology.spines: 0 out of range (1-256)", path);
	ck_assert_str_eq(err.msg, want);
	tl_remove_temp(dir, path);
	tl_unload(s);
}
END_TEST

static Suite *make_scenario_files_suite(void)
{
	Suite *su = suite_create("scenario-files");
	TCase *tc = tcase_create("files");

	tcase_add_test(tc, test_trace_fixture_relative);
	tcase_add_loop_test(tc, test_trace_errors, 0,
			    (int)(sizeof(trace_cases) / sizeof(trace_cases[0])));
	tcase_add_test(tc, test_trace_file_missing);
	tcase_add_test(tc, test_load_file_errors);
	suite_add_tcase(su, tc);
	return su;
}

int main(void)
{
	return tl_run(make_scenario_files_suite());
}
