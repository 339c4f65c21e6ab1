/*
 * test_scenario_set.c - `--set section.key=value` (scenario_set) on top of
 * a file or of the defaults.
 *
 * What is pinned: --set overriding a file and creating a job or fault
 * (pattern or kind first); its errors, with the "--set:" place or, for what
 * finalize finds in a file's job or fault, the line of its section; a
 * selecting key first (kind, scheduler, pattern, PFC, the watchdog), and a
 * later change leaving the keys of the old choice unused; the [buffer],
 * [pfc], [pfcwd], [nic], [output] and [fault.NAME] keys and the job keys of
 * the collectives by --set.  [ecn] and [dcqcn] by --set: test_scenario_cc.c.
 */
#include <check.h>
#include <stdlib.h>

#include "models/scenario/scenario.h"
#include "testlib.h"

#ifndef TEST_DATA_DIR
#define TEST_DATA_DIR "tests/data"
#endif

START_TEST(test_set_overrides_file)
{
	struct scenario *s = tl_scn_new();
	struct scn_error err;

	ck_assert_int_eq(scenario_load_string(s, "x.ini",
					      "[topology]\nmtu = 4096\nspines = 4\n"
					      "[job.a]\npattern = incast\n", &err), 0);
	ck_assert_int_eq(scenario_set(s, "topology.mtu=9000", &err), 0);
	ck_assert_int_eq(scenario_set(s, " topology.spines = 8 ", &err), 0);
	ck_assert_int_eq(scenario_set(s, "sim.seed=42", &err), 0);
	ck_assert_int_eq(scenario_set(s, "job.a.size=1MB", &err), 0);
	ck_assert_int_eq(scenario_set(s, "job.b.pattern=permutation", &err), 0);
	ck_assert_int_eq(scenario_set(s, "job.b.ranks=0-3", &err), 0);
	ck_assert_int_eq(scenario_set(s, "qos.nccl_ib_tc=106", &err), 0);
	ck_assert_int_eq(scenario_set(s, "qos.data_dscp=10", &err), 0); /* last wins */
	ck_assert_int_eq(scenario_finalize(s, &err), 0);
	ck_assert_uint_eq(s->mtu_bytes, 9000);
	ck_assert_uint_eq(s->spines, 8);
	ck_assert_uint_eq(s->seed, 42);
	ck_assert_uint_eq(s->data_dscp, 10);
	ck_assert_int_eq(s->jobs[0].size_bytes, 1000000);
	ck_assert_uint_eq(s->njobs, 2);
	ck_assert_str_eq(s->jobs[1].name, "b");
	ck_assert_int_eq(s->jobs[1].line, 0);
	ck_assert_uint_eq(s->jobs[1].ranks.n, 4);
	tl_unload(s);
}
END_TEST

static const struct tl_case set_cases[] = {
	/* [sim], [topology], [qos], [job.NAME] */
	{ NULL, "topology.foo=1", "--set: topology.foo: unknown key" },
	{ NULL, "foo.bar=1", "--set: foo.bar: unknown section" },
	{ NULL, "topology.mtu=100", "--set: topology.mtu: 100 out of range (256-9000)" },
	{ NULL, "topology.host_link=400", "--set: topology.host_link: missing unit" },
	{ NULL, "criteria.max_lossless_drops=x", "--set: criteria.max_lossless_drops: " },
	{ NULL, "topology.mtu", "--set: topology.mtu: expected section.key=value" },
	{ NULL, "mtu=9000", "--set: mtu: expected section.key=value" },
	{ NULL, "topology.k=8",
	  "--set: topology.k: only for kind = fat-tree (kind is leaf-spine; set topology.kind first)" },
	{ NULL, "job.x.size=1MB", "--set: job.x.size: no job x yet (give job.x.pattern first)" },
	{ NULL, "criteria.max_ecn_mark_pct=200", "--set: criteria.max_ecn_mark_pct: " },
	{ NULL, "job.x.pattern=all-to-all",
	  "--set: job.x.pattern: all-to-all is not valid (trace, incast, permutation, ring-allreduce, alltoall, storage, training)" },
	{ "[job.a]\npattern = incast\n", "job.a.ranks=0-3",
	  "--set: job.a.ranks: only for pattern = permutation, ring-allreduce, alltoall or training (pattern is incast; set job.a.pattern first)" },
	{ "[job.a]\npattern = incast\n", "job.a.senders=0-99",
	  "x.ini:1: job.a.senders: host 99 out of range (0-31)" },
	/* --set shrinks the topology: finalize points at the job's header */
	{ "[sim]\n[job.a]\npattern = permutation\nranks = 0-31\n", "topology.leaves=2",
	  "x.ini:2: job.a.ranks: host 31 out of range (0-15)" },
	{ "[topology]\nleaves = 1024\n[buffer]\nsize = 1GB\n", "topology.hosts_per_leaf=512",
	  "--set: topology.hosts_per_leaf: 1024 leaves x 512 hosts_per_leaf" },
	/* [buffer], [pfc], [pfcwd], [output], [criteria], [fault.NAME] */
	{ "[pfc]\npriorities =\n", "pfc.headroom=1KB",
	  "--set: pfc.headroom: PFC is off (pfc.priorities is empty; set pfc.priorities first)" },
	{ "[pfcwd]\nenable = false\n", "pfcwd.action=alert",
	  "--set: pfcwd.action: the PFC watchdog is off (pfcwd.enable is false; set pfcwd.enable first)" },
	{ NULL, "pfc.priorities=1,1", "--set: pfc.priorities: priority 1 listed twice" },
	{ "[job.a]\npattern = incast\ndst = 0\n", "job.a.straggler=h3",
	  "--set: job.a.straggler: h3 is not HOST:DELAY (up to 16 HOST:DELAY, e.g. h5:2ms,h9:500us; delays 0-1000s)" },
	{ "[job.a]\npattern = incast\ndst = 0\n", "job.a.straggler=h3:1ms,h3:2ms",
	  "--set: job.a.straggler: h3 listed twice" },
	{ "[job.a]\npattern = incast\ndst = 0\n", "job.a.straggler=leaf0:1ms",
	  "--set: job.a.straggler: leaf0 is not a host name (h0, h1, ...)" },
	{ "[job.a]\npattern = incast\ndst = 0\n", "job.a.straggler=h99:1ms",
	  "x.ini:1: job.a.straggler: h99 out of range (h0-h31)" },
	{ "[job.a]\npattern = incast\ndst = 0\n", "job.a.straggler=h0:1ms",
	  "x.ini:1: job.a.straggler: h0 sends nothing in job a" },
	{ NULL, "output.plot_qps=1,1", "--set: output.plot_qps: QP 1 listed twice" },
	{ NULL, "output.plot_qps=3,70",
	  "--set: output.plot_qps: QP 70 is not traced (rates.csv has the first output.rates = 64 QPs)" },
	{ NULL, "output.plot_qps=",
	  "--set: output.plot_qps: empty (auto, or up to 16 QP ids below output.rates)" },
	{ NULL, "output.plot_qps=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16",
	  "--set: output.plot_qps: more than 16 QPs (auto, or up to 16 QP ids below output.rates)" },
	{ NULL, "buffer.size=0B", "--set: buffer.size: 0B out of range (above 0, at most 64GiB)" },
	{ NULL, "output.queues=some", "--set: output.queues: " },
	{ NULL, "criteria.max_pause_frame_rate=-5", "--set: criteria.max_pause_frame_rate: " },
	{ NULL, "fault.y.node=h1",
	  "--set: fault.y.node: no fault y yet (give fault.y.kind first)" },
	{ "[fault.y]\nkind = link-down\nlink = leaf0-spine0\n", "fault.y.node=h1",
	  "--set: fault.y.node: only for kind = pause-storm or slow-receiver (kind is link-down; set fault.y.kind first)" },
	{ NULL, "fault.y.kind=slow-receiver",
	  "--set: fault.y.node: missing (slow-receiver needs a host" },
	/* --set changes what a file's fault depends on: finalize points at [fault.NAME] */
	{ "[sim]\n[fault.s]\nkind = pause-storm\nnode = h20\n", "topology.leaves=2",
	  "x.ini:2: fault.s.node: h20 out of range (h0-h15)" },
	{ "[sim]\n[fault.s]\nkind = pause-storm\nnode = h1\npriority = 3\n", "pfc.priorities=4",
	  "x.ini:2: fault.s.priority: 3 is not a lossless priority (pfc.priorities = 4)" },
	{ "[sim]\n[fault.s]\nkind = pause-storm\nnode = h1\n", "pfc.priorities=",
	  "x.ini:2: fault.s.kind: pause-storm needs PFC on (pfc.priorities is empty)" },
	{ "[fault.s]\nkind = slow-receiver\nnode = h1\nrate = 100Gbps\n", "topology.host_link=100Gbps",
	  "x.ini:1: fault.s.rate: 100Gbps must be below topology.host_link (100Gbps)" },
	{ "[fault.c]\nkind = link-down\nlink = h31-leaf3\n", "topology.hosts_per_leaf=4",
	  "x.ini:1: fault.c.link: h31 out of range (h0-h15)" },
	{ NULL, "buffer.size=1MB",
	  "--set: buffer.size: 1MB leaves no shared pool on leaf switches: " },
};

TL_CASES_TEST(set)

START_TEST(test_set_selector_first)
{
	struct scenario *s = tl_scn_new();
	struct scn_error err;

	/* selecting key first, then its keys */
	ck_assert_int_eq(scenario_set(s, "topology.kind=fat-tree", &err), 0);
	ck_assert_int_eq(scenario_set(s, "topology.k=8", &err), 0);
	ck_assert_int_eq(scenario_set(s, "qos.scheduler=dwrr", &err), 0);
	ck_assert_int_eq(scenario_set(s, "qos.dwrr_weights=8,7,6,5,4,3,2,1", &err), 0);
	/* changing the selector leaves the other keys unused, not an error */
	ck_assert_int_eq(scenario_set(s, "qos.scheduler=strict", &err), 0);
	ck_assert_int_eq(scenario_finalize(s, &err), 0);
	ck_assert_uint_eq(scenario_hosts(s), 128);
	ck_assert_uint_eq(s->dwrr_weights[0], 8);
	/* a failed --set pattern does not leave a job behind */
	ck_assert_int_eq(scenario_set(s, "job.z.pattern=allreduce", &err), -1);
	ck_assert_uint_eq(s->njobs, 0);
	tl_unload(s);
}
END_TEST

START_TEST(test_set_new_keys)
{
	struct scenario *s = tl_scn_new();
	struct scn_error err;
	static const char *const sets[] = {
		"buffer.size=32MiB",
		"buffer.reserved=2KB",
		"buffer.dynamic_th=-2",
		"buffer.cell=0",
		"pfc.priorities=3,4",
		"pfc.headroom=100KB",
		"pfc.xon_offset=9KB",
		"pfc.pause_quanta=1000",
		"pfc.response_time=500ns",
		"pfcwd.action=alert",
		"pfcwd.detection_time=100ms",
		"nic.pause_watchdog=100ms",
		"output.sample_interval=1us",
		"fault.x.kind=link-down",
		"fault.x.link=leaf0-spine1",
		"fault.y.kind=pause-storm",
		"fault.y.node=h2",
		"fault.y.priority=4",
	};
	size_t i;

	ck_assert_int_eq(scenario_load_string(s, "x.ini", "[pfc]\npriorities = 2\n", &err), 0);
	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++)
		ck_assert_msg(scenario_set(s, sets[i], &err) == 0, "%s: %s", sets[i], err.msg);
	ck_assert_msg(scenario_finalize(s, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(s->buffer_bytes, 32 * 1024 * 1024);
	ck_assert_int_eq(s->reserved_bytes, 2000);
	ck_assert_int_eq(s->dynamic_th, -2);
	ck_assert_uint_eq(s->pfc_prios, (1u << 3) | (1u << 4));
	ck_assert_int_eq(s->headroom_bytes, 100000);
	ck_assert_int_eq(s->xon_offset_bytes, 9000);
	ck_assert_uint_eq(s->pause_quanta, 1000);
	ck_assert_int_eq(s->response_ps, 500000);
	ck_assert_int_eq(s->pfcwd_action, SCN_PFCWD_ALERT);
	ck_assert_int_eq(s->pfcwd_detect_ps, INT64_C(100000000000));
	ck_assert_int_eq(s->nic_pause_watchdog_ps, INT64_C(100000000000));
	ck_assert_int_eq(s->sample_interval_ps, 1000000);
	ck_assert_uint_eq(s->nfaults, 2);
	ck_assert_int_eq(s->faults[0].line, 0);
	ck_assert_uint_eq(s->faults[0].end_node[1], 5);
	ck_assert_uint_eq(s->faults[1].host, 2);
	ck_assert_uint_eq(s->faults[1].priority, 4);
	/* turning PFC or the watchdog off leaves their keys unused */
	ck_assert_int_eq(scenario_set(s, "pfcwd.enable=false", &err), 0);
	ck_assert_int_eq(scenario_set(s, "fault.y.kind=link-down", &err), 0);
	ck_assert_int_eq(scenario_set(s, "fault.y.link=h2-leaf0", &err), 0);
	ck_assert_int_eq(scenario_set(s, "pfc.priorities=", &err), 0);
	ck_assert_msg(scenario_finalize(s, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(s->pfc_prios, 0);
	/* a failed --set kind leaves no fault behind */
	ck_assert_int_eq(scenario_set(s, "fault.z.kind=flap", &err), -1);
	ck_assert_uint_eq(s->nfaults, 2);
	tl_unload(s);
}
END_TEST

START_TEST(test_set_collective)
{
	struct scenario *s = tl_scn_new();
	struct scn_error err;
	const struct scn_job *x;

	ck_assert_int_eq(scenario_load_string(s, "x.ini", "[job.x]\npattern = incast\n", &err), 0);
	ck_assert_int_eq(scenario_set(s, "job.x.iterations=3", &err), 0);
	ck_assert_int_eq(scenario_set(s, "job.x.compute_gap=5us", &err), 0);
	ck_assert_int_eq(scenario_set(s, "job.x.skew=1ns", &err), 0);
	ck_assert_msg(scenario_finalize(s, &err) == 0, "%s", err.msg);
	x = &s->jobs[0];
	ck_assert_uint_eq(x->iterations, 3);
	ck_assert_int_eq(x->compute_gap_ps, 5000000);
	ck_assert_int_eq(x->skew_ps, 1000);
	ck_assert_uint_eq(x->senders.n, 31);
	/* the pattern first, then its keys */
	ck_assert_int_eq(scenario_set(s, "job.x.channels=4", &err), -1);
	ck_assert_str_eq(err.msg, "--set: job.x.channels: only for pattern = ring-allreduce (pattern is incast; set job.x.pattern first)");
	ck_assert_int_eq(scenario_set(s, "job.x.pattern=ring-allreduce", &err), 0);
	ck_assert_int_eq(scenario_set(s, "job.x.channels=4", &err), 0);
	ck_assert_int_eq(scenario_set(s, "job.x.slice=64KiB", &err), 0);
	ck_assert_int_eq(scenario_set(s, "job.x.ranks=0-7", &err), 0);
	ck_assert_int_eq(scenario_set(s, "job.x.schedule=shift", &err), -1);
	ck_assert_str_eq(err.msg, "--set: job.x.schedule: only for pattern = alltoall (pattern is ring-allreduce; set job.x.pattern first)");
	ck_assert_msg(scenario_finalize(s, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(x->channels, 4);
	ck_assert_int_eq(x->slice_bytes, 65536);
	ck_assert_uint_eq(x->ranks.n, 8);
	ck_assert_ptr_null(x->senders.hosts); /* the incast's resolution is dropped */
	ck_assert_uint_eq(x->iterations, 3);
	/* another pattern leaves channels and slice unused, not contradictory */
	ck_assert_int_eq(scenario_set(s, "job.x.pattern=alltoall", &err), 0);
	ck_assert_int_eq(scenario_set(s, "job.x.schedule=shift", &err), 0);
	ck_assert_msg(scenario_finalize(s, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(x->schedule, SCN_SCHEDULE_SHIFT);
	ck_assert_uint_eq(x->ranks.n, 8);
	/* a job created by --set */
	ck_assert_int_eq(scenario_set(s, "job.y.pattern=ring-allreduce", &err), 0);
	ck_assert_int_eq(scenario_set(s, "job.y.iterations=2", &err), 0);
	ck_assert_msg(scenario_finalize(s, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(s->njobs, 2);
	ck_assert_uint_eq(s->jobs[1].iterations, 2);
	ck_assert_uint_eq(s->jobs[1].ranks.n, 32);
	/* range errors say --set */
	ck_assert_int_eq(scenario_set(s, "job.y.iterations=0", &err), -1);
	ck_assert_str_eq(err.msg, "--set: job.y.iterations: 0 out of range (1-100000)");
	ck_assert_int_eq(scenario_set(s, "job.y.slice=1GiB", &err), -1);
	ck_assert_str_eq(err.msg, "--set: job.y.slice: 1GiB out of range (1KB-1GB)");
	tl_unload(s);
	/* the trace fixture: iterations apply to traces too */
	s = tl_scn_new();
	ck_assert_msg(scenario_load_file(s, TEST_DATA_DIR "/trace_job.ini", &err) == 0, "%s", err.msg);
	ck_assert_int_eq(scenario_set(s, "job.replay.iterations=3", &err), 0);
	ck_assert_msg(scenario_finalize(s, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(s->jobs[0].iterations, 3);
	ck_assert_uint_eq(s->jobs[0].nrows, 3);
	tl_unload(s);
}
END_TEST

static Suite *make_scenario_set_suite(void)
{
	Suite *su = suite_create("scenario-set");
	TCase *tc = tcase_create("set");

	tcase_add_test(tc, test_set_overrides_file);
	TL_ADD_CASES(tc, set);
	tcase_add_test(tc, test_set_selector_first);
	tcase_add_test(tc, test_set_new_keys);
	tcase_add_test(tc, test_set_collective);
	suite_add_tcase(su, tc);
	return su;
}

int main(void)
{
	return tl_run(make_scenario_set_suite());
}
