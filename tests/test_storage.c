/*
 * test_storage.c - NVMe-oF storage jobs (models/workload/storage.c): an I/O's
 * latency against the sum of its messages along the path, for a read and
 * a write; a deep queue reaching the NIC's goodput; IOPS = iodepth /
 * latency at low load; a target's IOPS limit; randrw's mix; a runtime
 * that stops the submissions; the loader's checks; identical results on 1
 * and 3 threads.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/scenario/scenario.h"
#include "sim/run/run.h"
#include "testlib.h"

/* 400G wire: a frame of `payload` bytes (+ 62 B RoCEv2 headers, + 20 B
 * preamble and gap) takes ft(payload) to serialize */
static double ft(double payload)
{
	return (payload + 62 + 20) * 8 / 400e9;
}
#define CABLE_S 15e-9   /* 3 m at 5 ns/m */
#define SWITCH_S 500e-9 /* switch_latency */
#define GOODPUT_400G (400e9 / 8 * 4096.0 / 4178.0)

/* one frame across the star: two serializations, two cables, the switch */
static double frame_s(double payload)
{
	return 2 * ft(payload) + 2 * CABLE_S + SWITCH_S;
}

/* `frames` data frames then a small frame behind them, from a NIC across
 * the star: the last data frame's path, the small one queued behind it */
static double data_then_small_s(int frames, double small)
{
	return (frames + 1) * ft(4096) + ft(small) + 2 * CABLE_S + SWITCH_S;
}

static const struct run_storage *run(const char *text, const char *const *sets,
				     struct run_result *r)
{
	struct scenario *s = tl_load_set(text, sets);
	ck_assert_int_eq(run_scenario(s, &(struct run_opts){ .threads = 1 }, r), RUN_OK);
	ck_assert_int_eq(r->end, RUN_END_DONE);
	ck_assert_uint_eq(r->drops_lossless + r->drops_lossy, 0);
	ck_assert_uint_ge(r->nstorage, 1);
	tl_unload(s);
	return &r->storage[0];
}

static const char star[] = "[sim]\nduration = 200ms\n[topology]\nkind = star\nhosts = 4\n"
			   "[job.io]\npattern = storage\ntargets = 0\ninitiators = 1\n"
			   "bs = 128KiB\niodepth = 1\nsize = 1280KiB\n";

/* iodepth 1, a read: the command (64 B), 80 us of media, 32 data frames
 * and the completion (16 B) behind them; within one frame time */
START_TEST(read_latency_closed_form)
{
	struct run_result r;
	const struct run_storage *io = run(star, NULL, &r);
	double want = frame_s(64) + 80e-6 + data_then_small_s(32, 16);
	ck_assert_uint_eq(io->ios, 10);
	ck_assert_uint_eq(io->reads, 10);
	ck_assert_uint_eq(io->bytes, 1310720);
	ck_assert_msg(fabs((double)io->clat_max_ps * 1e-12 - want) < ft(4096),
		      "read clat %.3f us, closed form %.3f us", (double)io->clat_max_ps * 1e-6,
		      want * 1e6);
	/* one path, no load: the same within a small frame (the first I/O
	 * meets no ACK of an earlier one on the wire) */
	ck_assert_int_lt(io->clat_max_ps - io->clat_min_ps, (int64_t)(ft(64) * 1e12));
	/* back to back: iodepth 1 runs them one after the other */
	ck_assert_msg(fabs((double)io->runtime_ps - 10 * io->clat_mean_ps) < 10 * 1e3,
		      "runtime %.3f us for 10 I/Os of %.3f us", (double)io->runtime_ps * 1e-6,
		      io->clat_mean_ps * 1e-6);
}
END_TEST

/* a write: the command, the target's RDMA read request (16 B), the data
 * from the initiator, 80 us of media, the completion */
START_TEST(write_latency_closed_form)
{
	static const char *const w[] = { "job.io.rw=write", NULL };
	struct run_result r;
	const struct run_storage *io = run(star, w, &r);
	double want = frame_s(64) + frame_s(16) + data_then_small_s(32, 0) - ft(0) + 80e-6 +
		      frame_s(16);
	ck_assert_uint_eq(io->reads, 0);
	ck_assert_msg(fabs((double)io->clat_max_ps * 1e-12 - want) < ft(4096),
		      "write clat %.3f us, closed form %.3f us", (double)io->clat_max_ps * 1e-6,
		      want * 1e6);
}
END_TEST

/* 64 outstanding reads keep the target's NIC busy: the bandwidth reaches
 * the 400G goodput (within 3 %) and never exceeds it */
START_TEST(deep_queue_reaches_goodput)
{
	static const char *const deep[] = { "job.io.iodepth=64", "job.io.size=256MiB", NULL };
	struct run_result r;
	const struct run_storage *io = run(star, deep, &r);
	double bw = (double)io->bytes / ((double)io->runtime_ps * 1e-12);
	ck_assert_msg(bw < GOODPUT_400G && bw > 0.97 * GOODPUT_400G,
		      "bandwidth %.2f GB/s, goodput %.2f GB/s", bw / 1e9, GOODPUT_400G / 1e9);
}
END_TEST

/* at low load IOPS = iodepth / latency (4 KiB reads, 4 outstanding) */
START_TEST(iops_is_depth_over_latency)
{
	static const char *const light[] = { "job.io.iodepth=4", "job.io.bs=4KiB",
					     "job.io.size=4MiB", NULL };
	struct run_result r;
	const struct run_storage *io = run(star, light, &r);
	double iops = (double)io->ios / ((double)io->runtime_ps * 1e-12);
	double want = 4 / (io->clat_mean_ps * 1e-12);
	ck_assert_msg(fabs(iops - want) < 0.01 * want, "IOPS %.0f, iodepth / clat %.0f", iops,
		      want);
	/* every I/O waits for its media and at most the other 3 I/Os' data */
	ck_assert_int_lt(io->clat_max_ps - io->clat_min_ps, (int64_t)(4 * ft(4096) * 1e12));
}
END_TEST

/* a target that serves 10000 I/Os per second caps a deep queue there */
START_TEST(target_iops_limit)
{
	static const char *const cap[] = { "job.io.iodepth=32", "job.io.bs=4KiB",
					   "job.io.size=4MiB", "job.io.target_iops=10000", NULL };
	struct run_result r;
	const struct run_storage *io = run(star, cap, &r);
	double iops = (double)io->ios / ((double)io->runtime_ps * 1e-12);
	ck_assert_msg(fabs(iops - 10000) < 100, "IOPS %.0f, limit 10000", iops);
	/* and one whose media moves 8 Gbps (1 GB/s): reads of 128 KiB at it */
	static const char *const bw[] = { "job.io.iodepth=8", "job.io.size=8MiB",
					  "job.io.target_bw=8Gbps", NULL };
	io = run(star, bw, &r);
	double rate = (double)io->bytes / ((double)io->runtime_ps * 1e-12);
	ck_assert_msg(fabs(rate - 1e9) < 0.02e9, "%.3f GB/s, media 1 GB/s", rate / 1e9);
}
END_TEST

/* randrw with rwmixread 70%: reads + writes = I/Os, reads near 70 %; the
 * same seed draws the same mix; two targets share the I/Os evenly */
START_TEST(randrw_mix)
{
	static const char *const mix[] = { "job.io.rw=randrw", "job.io.rwmixread=70%",
					   "job.io.bs=4KiB", "job.io.size=8MiB",
					   "job.io.iodepth=16", "job.io.targets=0,3", NULL };
	struct run_result r, r2;
	const struct run_storage *io = run(star, mix, &r);
	ck_assert_uint_eq(io->ios, 2048);
	double share = (double)io->reads / (double)io->ios;
	ck_assert_msg(fabs(share - 0.7) < 0.04, "reads %.3f of the I/Os", share);
	const struct run_storage *again = run(star, mix, &r2);
	ck_assert_uint_eq(again->reads, io->reads);
	ck_assert_int_eq(again->clat_p99_ps, io->clat_p99_ps);
}
END_TEST

/*
 * Each I/O completes once, on a transport that reorders: TCP over a
 * leaf-spine of 2-GPU servers spraying packets over its spines (ecmp =
 * packet) beside an all-to-all, so a read's 16 B completion can arrive before the last
 * segment of its 64 KiB of data.  The host reads the connection in order:
 * the completion waits for the data, and the slot is not freed early (a
 * stale read's data used to complete the write that took the slot next:
 * 57 I/Os of 56).  7 initiators x 512 KiB / 64 KiB = 56 I/Os.
 */
START_TEST(each_io_completes_once_when_reordered)
{
	static const char text[] =
		"[fabric]\ntype = ethernet-tcp\n[sim]\nduration = 3000us\nseed = 63\n"
		"[topology]\nspines = 3\nleaves = 2\nhosts_per_leaf = 4\ngpus_per_server = 2\n"
		"host_link = 25Gbps\n"
		"fabric_link = 400Gbps\necmp = packet\n"
		"[job.a2a]\npattern = alltoall\nsize = 2MB\nschedule = shift\nskew = 20us\n"
		"[job.io]\npattern = storage\ntargets = 0\nrw = randrw\nbs = 64KiB\n"
		"iodepth = 1\nsize = 512KiB\n";
	struct run_result r;
	const struct run_storage *io = run(text, NULL, &r);
	ck_assert_uint_eq(io->ios, 56);
	ck_assert_uint_eq(io->bytes, 56 * 65536);
}
END_TEST

/* the same results on 1 and 3 threads, across a leaf-spine */
START_TEST(threads_agree)
{
	static const char text[] =
		"[sim]\nduration = 100ms\n[topology]\nspines = 2\nleaves = 3\nhosts_per_leaf = 4\n"
		"[job.io]\npattern = storage\ntargets = 0,4\ninitiators = 1-3,5-11\nrw = randrw\n"
		"bs = 64KiB\niodepth = 8\nsize = 2MiB\n"
		"[job.rt]\npattern = storage\ntargets = 8\ninitiators = 2,6,10\nrw = write\n"
		"bs = 16KiB\niodepth = 4\nsize = 1GB\nruntime = 300us\niterations = 2\n"
		"[job.ar]\npattern = ring-allreduce\nranks = 1-3,5-11\nsize = 8MB\n";
	struct run_result r[2];
	for (int k = 0; k < 2; k++) {
		struct scenario *s = tl_load(text);
		ck_assert_int_eq(run_scenario(s, &(struct run_opts){ .threads = k ? 3 : 1 }, &r[k]),
				 RUN_OK);
		tl_unload(s);
	}
	ck_assert_uint_eq(r[1].threads, 3);
	for (uint32_t k = 0; k <= r[0].nstorage; k++) {
		ck_assert_uint_eq(r[0].storage[k].ios, r[1].storage[k].ios);
		ck_assert_int_eq(r[0].storage[k].clat_max_ps, r[1].storage[k].clat_max_ps);
		ck_assert_int_eq(r[0].storage[k].clat_p999_ps, r[1].storage[k].clat_p999_ps);
		ck_assert(r[0].storage[k].clat_mean_ps == r[1].storage[k].clat_mean_ps);
	}
	ck_assert_int_eq(r[0].sim_time_ps, r[1].sim_time_ps);
	ck_assert_int_eq(r[0].collective_time_ps, r[1].collective_time_ps);
}
END_TEST

/* runtime: 3 initiators read from one target for 2 ms; whichever of
 * size and runtime comes first stops them, here the runtime: every I/O is
 * submitted before 2 ms, the last completes within its latency after, and
 * the target's NIC stays at its goodput meanwhile */
START_TEST(runtime_stops_submissions)
{
	static const char *const rt[] = { "job.io.initiators=1-3", "job.io.iodepth=16",
					  "job.io.size=10GB", "job.io.runtime=2ms", NULL };
	struct run_result r;
	const struct run_storage *io = run(star, rt, &r);
	ck_assert_int_lt(io->runtime_ps, 2 * UNITS_PS_PER_MS + io->clat_max_ps);
	ck_assert_int_gt(io->runtime_ps, 2 * UNITS_PS_PER_MS);
	ck_assert_uint_eq(r.flows_completed, r.flows_total);
	ck_assert_uint_eq(r.flows_total, 3 * io->ios); /* command, data, completion */
	double bw = (double)io->bytes / ((double)io->runtime_ps * 1e-12);
	ck_assert_msg(bw < GOODPUT_400G && bw > 0.9 * GOODPUT_400G, "%.2f GB/s", bw / 1e9);
	ck_assert_uint_lt(io->bytes, 30 * UINT64_C(1000000000)); /* not size */
}
END_TEST

START_TEST(loader_checks)
{
	static const struct tl_case cases[] = {
		{ "[job.s]\npattern = storage\ninitiators = 1-3\n", NULL,
		  "x.ini:1: job.s.targets: all (name the NVMe-oF targets, e.g. 0-3" },
		{ "[job.s]\npattern = storage\ntargets = 0-3\ninitiators = 3-5\n", NULL,
		  "x.ini:4: job.s.initiators: h3 is also one of job.s.targets" },
		{ "[job.s]\npattern = storage\ntargets = 0\ninitiators = 1\nbs = 100B\n", NULL,
		  "x.ini:5: job.s.bs: 100B out of range (512B-64MiB)" },
		{ "[job.s]\npattern = ring-allreduce\niodepth = 4\n", NULL,
		  "x.ini:3: job.s.iodepth: only for pattern = storage" },
		/* initiators "all" are the hosts that are not targets: 1 of 4 here */
		{ "[topology]\nkind = star\nhosts = 4\n[job.s]\npattern = storage\ntargets = 0-2\n"
		  "size = 1000GB\nbs = 512B\niterations = 1000\n", NULL,
		  "x.ini:9: job.s.iterations: too many flows: job s makes 7812500000000 "
		  "(iterations 1000 x initiators 1 x" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		tl_check_case(&cases[i]);
}
END_TEST

static Suite *make_storage_suite(void)
{
	Suite *s = suite_create("storage");
	TCase *tc = tcase_create("storage");
	tcase_add_test(tc, read_latency_closed_form);
	tcase_add_test(tc, write_latency_closed_form);
	tcase_add_test(tc, deep_queue_reaches_goodput);
	tcase_add_test(tc, iops_is_depth_over_latency);
	tcase_add_test(tc, target_iops_limit);
	tcase_add_test(tc, randrw_mix);
	tcase_add_test(tc, each_io_completes_once_when_reordered);
	tcase_add_test(tc, runtime_stops_submissions);
	tcase_add_test(tc, threads_agree);
	tcase_add_test(tc, loader_checks);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tl_run(make_storage_suite());
}
