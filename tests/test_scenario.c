/*
 * test_scenario.c - Check suite for the scenario loader (sim/scenario.c,
 * contract sim/scenario.h and DESIGN.md A2).
 *
 * What is pinned: the defaults of DESIGN A2; every implemented key parsed to
 * its exact integer; the "FILE:LINE: section.key:" prefix of every class of
 * error (unknown section or key, key given twice, missing unit, out of
 * range, not implemented yet, contradiction, job key of another pattern,
 * host index out of range, trace CSV errors with their CSV line; fault key
 * of another kind, fault node or link against the topology, PFC off, a
 * storm priority that is not lossless, a slow receiver not below the host
 * link, the shared pool exhausted with its arithmetic); --set overriding a
 * file and rejecting unknown keys; print -> load -> print giving the same
 * text; a trace fixture found relative to its scenario; the PFC derived
 * values (pause quanta in ps, the peer response table, auto headroom, the
 * shared pool) against numbers worked out by hand.
 * [ecn], [dcqcn] and the CNP, nic.rto and output.rates keys (DESIGN A2, B5,
 * B6): the defaults, the three profiles against the B6 table written out
 * here independently, knobs overriding the profile before and after it (and
 * the documented rule for a later --set of the profile), bare firmware
 * numbers against values with units, every error class with its exact
 * prefix (kmax not above kmin in DESIGN's words, ECN off, CNP on the data
 * DSCP, [dcqcn] with nic.cc = none, ranges, inexact fractions, unknown
 * knob), print -> load -> print for each profile, and the derived ECN and
 * DCQCN values against DESIGN B6's facts (42 us / 168 us byte counter,
 * 142 us and 9.7 ms alpha half-lives).
 * Collectives and the job keys of DESIGN B7: ring-allreduce and alltoall
 * with their defaults, iterations, compute_gap, skew (every pattern),
 * channels and slice (ring-allreduce), schedule (alltoall) parsed exactly;
 * a key of another pattern, out of range, a size below ranks x channels
 * (ring) or ranks (alltoall), and more than 50,000,000 flows in all jobs
 * (counts worked out by hand, one at 1.3e19 to catch overflow, the limit
 * itself accepted), each with its exact prefix, from a file and after
 * --set; print -> load -> print with both collectives.
 *
 * TEST_DATA_DIR is the folder of the fixtures (tests/data); meson passes it,
 * a standalone build run from the project root uses the default.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mmu.h"
#include "pfc.h"
#include "scenario.h"

#ifndef TEST_DATA_DIR
#define TEST_DATA_DIR "tests/data"
#endif

/* ---- helpers ---- */

/* struct scenario is large: always on the heap */
static struct scenario *scn_new(void)
{
	struct scenario *s = malloc(sizeof(*s));

	ck_assert_ptr_nonnull(s);
	scenario_init(s);
	return s;
}

static void scn_delete(struct scenario *s)
{
	scenario_free(s);
	free(s);
}

/* load text as "x.ini" and finalize; the scenario or NULL (message in err) */
static struct scenario *scn_load(const char *text, struct scn_error *err)
{
	struct scenario *s = scn_new();

	if (scenario_load_string(s, "x.ini", text, err) ||
	    scenario_finalize(s, err)) {
		scn_delete(s);
		return NULL;
	}
	return s;
}

/* load text that must load and finalize */
static struct scenario *scn_ok(const char *text)
{
	struct scn_error err = { "" };
	struct scenario *s = scn_load(text, &err);

	ck_assert_msg(s != NULL, "unexpected error: %s", err.msg);
	return s;
}

/* text must fail to load or finalize with a message that starts with prefix */
static void expect_error(const char *text, const char *prefix)
{
	struct scn_error err = { "" };
	struct scenario *s = scn_load(text, &err);

	ck_assert_msg(s == NULL, "loaded, expected error %s", prefix);
	ck_assert_msg(strncmp(err.msg, prefix, strlen(prefix)) == 0,
		      "message \"%s\" does not start with \"%s\"", err.msg, prefix);
	ck_assert_msg(strchr(err.msg, '\n') == NULL, "message has a newline: %s",
		      err.msg);
}

/* the message of one --set on a fresh scenario (after text, if not NULL) */
static void expect_set_error(const char *text, const char *assignment,
			     const char *prefix)
{
	struct scenario *s = scn_new();
	struct scn_error err = { "" };
	int rc;

	if (text)
		ck_assert_msg(scenario_load_string(s, "x.ini", text, &err) == 0,
			      "load: %s", err.msg);
	rc = scenario_set(s, assignment, &err);
	if (rc == 0)
		rc = scenario_finalize(s, &err);
	ck_assert_msg(rc == -1, "--set %s accepted, expected %s", assignment, prefix);
	ck_assert_msg(strncmp(err.msg, prefix, strlen(prefix)) == 0,
		      "message \"%s\" does not start with \"%s\"", err.msg, prefix);
	scn_delete(s);
}

/* scenario_print() into a malloc'ed string */
static char *print_to_string(const struct scenario *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	scenario_print(s, f);
	fclose(f);
	return buf;
}

static char *derived_to_string(const struct scenario *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	scenario_print_derived(s, f);
	fclose(f);
	return buf;
}

/* a temporary folder with one file; the file's path is written to path */
static void write_temp(char dir[64], char path[128], const char *name,
		       const char *content)
{
	FILE *f;

	strcpy(dir, "/tmp/test_scenario_XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, 128, "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(content, f);
	fclose(f);
}

static void remove_temp(const char *dir, const char *path)
{
	unlink(path);
	rmdir(dir);
}

/* ---- defaults ---- */

START_TEST(test_defaults)
{
	struct scenario *s = scn_new();
	struct scn_error err;
	int d, p;

	/* DESIGN A2 defaults */
	ck_assert_int_eq(s->duration_ps, INT64_C(1000000000000));
	ck_assert_uint_eq(s->seed, 1);
	ck_assert_int_eq(s->topo, SCN_TOPO_LEAF_SPINE);
	ck_assert_uint_eq(s->spines, 2);
	ck_assert_uint_eq(s->leaves, 4);
	ck_assert_uint_eq(s->hosts_per_leaf, 8);
	ck_assert_uint_eq(s->k, 4);
	ck_assert_uint_eq(s->star_hosts, 16);
	ck_assert_int_eq(s->host_link_bps, INT64_C(400000000000));
	ck_assert_int_eq(s->fabric_link_bps, INT64_C(400000000000));
	ck_assert_int_eq(s->host_cable_mm, 3000);
	ck_assert_int_eq(s->fabric_cable_mm, 30000);
	ck_assert_int_eq(s->switch_latency_ps, 500000);
	ck_assert_uint_eq(s->mtu_bytes, 4096);
	ck_assert_int_eq(s->ecmp, SCN_ECMP_FLOW);
	ck_assert_uint_eq(s->data_dscp, 26);
	for (d = 0; d < 64; d++)
		ck_assert_uint_eq(s->dscp_to_prio[d], d >> 3);
	ck_assert_int_eq(s->scheduler, SCN_SCHED_STRICT);
	for (p = 0; p < SCN_PRIOS; p++)
		ck_assert_uint_eq(s->dwrr_weights[p], 1);
	ck_assert_int_eq(s->cc, SCN_CC_DCQCN);
	ck_assert_uint_eq(s->njobs, 0);
	ck_assert_uint_eq(scenario_hosts(s), 32);
	ck_assert_uint_eq(scenario_switches(s), 6);
	/* [buffer] [pfc] [pfcwd] [nic] [output] of DESIGN A2 */
	ck_assert_int_eq(s->buffer_bytes, 64000000); /* 64MB, decimal */
	ck_assert_int_eq(s->dynamic_th, 0);
	ck_assert_int_eq(s->lossy_dynamic_th, 3);
	ck_assert_int_eq(s->cell_bytes, 0);
	ck_assert_uint_eq(s->pfc_prios, 1u << 3);
	ck_assert_int_eq(s->headroom_bytes, SCN_AUTO);
	ck_assert_uint_eq(s->pause_quanta, 65535);
	ck_assert_int_eq(s->response_ps, SCN_AUTO);
	ck_assert_int_eq(s->pfcwd_enable, 1);
	ck_assert_int_eq(s->pfcwd_detect_ps, INT64_C(200000000000));  /* 200ms */
	ck_assert_int_eq(s->pfcwd_restore_ps, INT64_C(400000000000)); /* 400ms */
	ck_assert_int_eq(s->pfcwd_poll_ps, INT64_C(200000000000));    /* 200ms */
	ck_assert_int_eq(s->pfcwd_action, SCN_PFCWD_DROP);
	ck_assert_int_eq(s->nic_pause_watchdog_ps, 0);
	ck_assert_int_eq(s->sample_interval_ps, 10000000); /* 10us */
	ck_assert_uint_eq(s->nfaults, 0);
	ck_assert_int_eq(scenario_finalize(s, &err), 0);
	/* one and two data frames of mtu 4096 + 62 B headers, resolved */
	ck_assert_int_eq(s->reserved_bytes, 4158);
	ck_assert_int_eq(s->xon_offset_bytes, 8316);
	scn_delete(s);
}
END_TEST

START_TEST(test_frame_defaults_follow_mtu)
{
	struct scenario *s = scn_ok("[topology]\nmtu = 9000\n");
	struct scn_error err;

	ck_assert_int_eq(s->reserved_bytes, 9062);
	ck_assert_int_eq(s->xon_offset_bytes, 18124);
	scn_delete(s);
	/* the mtu may come after [buffer] and [pfc] */
	s = scn_ok("[buffer]\ndynamic_th = 1\n[pfc]\npause_quanta = 100\n[topology]\nmtu = 1024\n");
	ck_assert_int_eq(s->reserved_bytes, 1086);
	ck_assert_int_eq(s->xon_offset_bytes, 2172);
	scn_delete(s);
	/* a --set of the mtu after the file: resolved at finalize */
	s = scn_new();
	ck_assert_int_eq(scenario_load_string(s, "x.ini", "[sim]\nseed = 2\n", &err), 0);
	ck_assert_int_eq(scenario_set(s, "topology.mtu=256", &err), 0);
	ck_assert_int_eq(scenario_finalize(s, &err), 0);
	ck_assert_int_eq(s->reserved_bytes, 318);
	ck_assert_int_eq(s->xon_offset_bytes, 636);
	scn_delete(s);
	/* given values stay whatever the mtu */
	s = scn_ok("[buffer]\nreserved = 5KB\n[pfc]\nxon_offset = 0B\n[topology]\nmtu = 9000\n");
	ck_assert_int_eq(s->reserved_bytes, 5000);
	ck_assert_int_eq(s->xon_offset_bytes, 0);
	scn_delete(s);
}
END_TEST

START_TEST(test_empty_file_is_defaults)
{
	struct scenario *a = scn_new(), *b = scn_ok("# nothing\n\n; at all\n");
	char *pa, *pb;

	/* the same values as scenario_init(): only the source line differs */
	pa = print_to_string(a);
	pb = print_to_string(b);
	ck_assert_str_eq(strchr(pa, '\n'), strchr(pb, '\n'));
	free(pa);
	free(pb);
	scn_delete(a);
	scn_delete(b);
}
END_TEST

START_TEST(test_job_defaults)
{
	struct scenario *s = scn_ok("[job.a]\npattern = incast\n"
				    "[job.b]\npattern = permutation\n");
	const struct scn_job *a = &s->jobs[0], *b = &s->jobs[1];
	uint32_t i;

	ck_assert_uint_eq(s->njobs, 2);
	ck_assert_str_eq(a->name, "a");
	ck_assert_int_eq(a->line, 1);
	ck_assert_int_eq(b->line, 3);
	ck_assert_int_eq(a->size_bytes, 4000000); /* 4MB, decimal */
	ck_assert_int_eq(a->start_ps, 0);
	ck_assert_int_eq(a->dscp, -1);
	ck_assert_uint_eq(a->dst, 0);
	/* senders default: every host but dst */
	ck_assert_uint_eq(a->senders.n, 31);
	for (i = 0; i < a->senders.n; i++)
		ck_assert_uint_eq(a->senders.hosts[i], i + 1);
	/* ranks default: all, in host order */
	ck_assert_uint_eq(b->ranks.n, 32);
	for (i = 0; i < b->ranks.n; i++)
		ck_assert_uint_eq(b->ranks.hosts[i], i);
	scn_delete(s);
}
END_TEST

/* ---- each implemented key parsed exactly ---- */

START_TEST(test_sim_keys)
{
	struct scenario *s = scn_ok("[sim]\nduration = 1.001us\n"
				    "seed = 9223372036854775807\n");

	ck_assert_int_eq(s->duration_ps, 1001000); /* not 1000999 */
	ck_assert_uint_eq(s->seed, UINT64_C(9223372036854775807));
	scn_delete(s);
	s = scn_ok("[sim]\nduration = 1000s\nseed = 0\n");
	ck_assert_int_eq(s->duration_ps, INT64_C(1000) * 1000000000000);
	ck_assert_uint_eq(s->seed, 0);
	scn_delete(s);
}
END_TEST

START_TEST(test_leaf_spine_keys)
{
	struct scenario *s = scn_ok("[topology]\n"
				    "kind = leaf-spine\n"
				    "spines = 256\n"
				    "leaves = 16\n"
				    "hosts_per_leaf = 4\n"
				    "host_link = 100Gbps\n"
				    "fabric_link = 1.6Tbps\n"
				    "host_cable = 2.5m\n"
				    "fabric_cable = 10000m\n"
				    "switch_latency = 1.001us\n"
				    "mtu = 9000\n"
				    "ecmp = packet\n"
				    /* 256 fabric ports of 20MB auto headroom each */
				    "[buffer]\nsize = 64GiB\n");

	ck_assert_int_eq(s->topo, SCN_TOPO_LEAF_SPINE);
	ck_assert_uint_eq(s->spines, 256);
	ck_assert_uint_eq(s->leaves, 16);
	ck_assert_uint_eq(s->hosts_per_leaf, 4);
	ck_assert_int_eq(s->host_link_bps, INT64_C(100000000000));
	ck_assert_int_eq(s->fabric_link_bps, INT64_C(1600000000000));
	ck_assert_int_eq(s->host_cable_mm, 2500);
	ck_assert_int_eq(s->fabric_cable_mm, 10000000);
	ck_assert_int_eq(s->switch_latency_ps, 1001000);
	ck_assert_uint_eq(s->mtu_bytes, 9000);
	ck_assert_int_eq(s->ecmp, SCN_ECMP_PACKET);
	ck_assert_uint_eq(scenario_hosts(s), 64);
	ck_assert_uint_eq(scenario_switches(s), 272);
	scn_delete(s);
}
END_TEST

START_TEST(test_fat_tree_and_star_keys)
{
	struct scenario *s = scn_ok("[topology]\nkind = fat-tree\nk = 8\n");

	ck_assert_int_eq(s->topo, SCN_TOPO_FAT_TREE);
	ck_assert_uint_eq(s->k, 8);
	ck_assert_uint_eq(scenario_hosts(s), 128);    /* k^3/4 */
	ck_assert_uint_eq(scenario_switches(s), 80);  /* 5k^2/4 */
	scn_delete(s);
	s = scn_ok("[topology]\nkind = fat-tree\nk = 64\n");
	ck_assert_uint_eq(scenario_hosts(s), 65536);  /* SCN_MAX_HOSTS */
	scn_delete(s);
	s = scn_ok("[topology]\nkind = star\nhosts = 24\n");
	ck_assert_int_eq(s->topo, SCN_TOPO_STAR);
	ck_assert_uint_eq(s->star_hosts, 24);
	ck_assert_uint_eq(scenario_hosts(s), 24);
	ck_assert_uint_eq(scenario_switches(s), 1);
	scn_delete(s);
}
END_TEST

START_TEST(test_mtu_forms)
{
	struct scenario *s = scn_ok("[topology]\nmtu = 4KiB\n");

	ck_assert_uint_eq(s->mtu_bytes, 4096);
	scn_delete(s);
	s = scn_ok("[topology]\nmtu = 9KB\n");
	ck_assert_uint_eq(s->mtu_bytes, 9000);
	scn_delete(s);
	s = scn_ok("[topology]\nmtu = 256\n");
	ck_assert_uint_eq(s->mtu_bytes, 256);
	scn_delete(s);
	expect_error("[topology]\nmtu = 255\n", "x.ini:2: topology.mtu: 255 out of range (256-9000)");
	expect_error("[topology]\nmtu = 10KB\n", "x.ini:2: topology.mtu: 10KB out of range (256-9000)");
	expect_error("[topology]\nmtu = 1.5B\n", "x.ini:2: topology.mtu: ");
}
END_TEST

START_TEST(test_qos_keys)
{
	struct scenario *s = scn_ok("[qos]\ndata_dscp = 24\n"
				    "dscp_to_priority = 26:3, 48:6,0:7 , 63:0\n"
				    "scheduler = dwrr\n"
				    "dwrr_weights = 1, 2,3,4,5,6,7,1000\n");
	int d;

	ck_assert_uint_eq(s->data_dscp, 24);
	for (d = 0; d < 64; d++) {
		int want = d == 0 ? 7 : d == 63 ? 0 : d >> 3;
		ck_assert_uint_eq(s->dscp_to_prio[d], want);
	}
	ck_assert_int_eq(s->scheduler, SCN_SCHED_DWRR);
	for (d = 0; d < 7; d++)
		ck_assert_uint_eq(s->dwrr_weights[d], d + 1);
	ck_assert_uint_eq(s->dwrr_weights[7], 1000);
	scn_delete(s);
	/* an empty list: no override */
	s = scn_ok("[qos]\ndscp_to_priority =\n");
	for (d = 0; d < 64; d++)
		ck_assert_uint_eq(s->dscp_to_prio[d], d >> 3);
	scn_delete(s);
	expect_error("[qos]\ndscp_to_priority = 26:8\n",
		     "x.ini:2: qos.dscp_to_priority: priority 8 out of range (0-7)");
	expect_error("[qos]\ndscp_to_priority = 26-3\n", "x.ini:2: qos.dscp_to_priority: ");
	expect_error("[qos]\ndscp_to_priority = 26:3,26:4\n",
		     "x.ini:2: qos.dscp_to_priority: dscp 26 given twice");
	expect_error("[qos]\nscheduler = dwrr\ndwrr_weights = 1,2,3\n",
		     "x.ini:3: qos.dwrr_weights: 3 weights given");
	expect_error("[qos]\nscheduler = dwrr\ndwrr_weights = 1,1,1,1,1,1,1,0\n",
		     "x.ini:3: qos.dwrr_weights: weight 7: 0 out of range (1-1000)");
}
END_TEST

START_TEST(test_nccl_ib_tc)
{
	struct scenario *s = scn_ok("[qos]\nnccl_ib_tc = 106\n");

	ck_assert_uint_eq(s->data_dscp, 26); /* 106 = DSCP 26 << 2 | ECT(0) */
	scn_delete(s);
	s = scn_ok("[qos]\nnccl_ib_tc = 104\ndata_dscp = 26\n");
	ck_assert_uint_eq(s->data_dscp, 26);
	scn_delete(s);
	expect_error("[qos]\ndata_dscp = 24\nnccl_ib_tc = 106\n",
		     "x.ini:3: qos.nccl_ib_tc: 106 is DSCP 26, but qos.data_dscp is 24 (line 2)");
	expect_error("[qos]\nnccl_ib_tc = 106\ndata_dscp = 24\n",
		     "x.ini:3: qos.data_dscp: 24, but qos.nccl_ib_tc (line 2) is DSCP 26");
	expect_error("[qos]\nnccl_ib_tc = 256\n", "x.ini:2: qos.nccl_ib_tc: 256 out of range (0-255)");
}
END_TEST

START_TEST(test_job_keys)
{
	struct scenario *s = scn_ok("[topology]\nkind = star\nhosts = 16\n"
				    "[job.in]\npattern = incast\nsize = 1.5MB\n"
				    "start = 2.5us\ndscp = 34\ndst = 3\n"
				    "senders = 0, 2,4-7 ,15\n"
				    "[job.perm-2]\npattern = permutation\nranks = 8-11,1\n"
				    "size = 1KiB\n");
	static const uint32_t senders[] = { 0, 2, 4, 5, 6, 7, 15 };
	static const uint32_t ranks[] = { 8, 9, 10, 11, 1 };
	const struct scn_job *in = &s->jobs[0], *pm = &s->jobs[1];
	uint32_t i;

	ck_assert_int_eq(in->pattern, SCN_JOB_INCAST);
	ck_assert_int_eq(in->size_bytes, 1500000);
	ck_assert_int_eq(in->start_ps, 2500000);
	ck_assert_int_eq(in->dscp, 34);
	ck_assert_uint_eq(in->dst, 3);
	ck_assert_str_eq(in->senders.text, "0, 2,4-7 ,15"); /* as written, trimmed */
	ck_assert_uint_eq(in->senders.n, 7);
	for (i = 0; i < 7; i++)
		ck_assert_uint_eq(in->senders.hosts[i], senders[i]);
	ck_assert_int_eq(pm->pattern, SCN_JOB_PERMUTATION);
	ck_assert_str_eq(pm->name, "perm-2");
	ck_assert_int_eq(pm->size_bytes, 1024);
	ck_assert_uint_eq(pm->ranks.n, 5);
	for (i = 0; i < 5; i++)
		ck_assert_uint_eq(pm->ranks.hosts[i], ranks[i]);
	scn_delete(s);
}
END_TEST

START_TEST(test_hostset_lists)
{
	struct scenario *s = scn_ok("[topology]\nkind = star\nhosts = 16\n"
				    "[job.in]\npattern = incast\ndst = 3\n"
				    "senders = 0,2,4-7\n");
	static const uint32_t want[] = { 0, 2, 4, 5, 6, 7 };
	uint32_t i;

	ck_assert_uint_eq(s->jobs[0].senders.n, 6);
	for (i = 0; i < 6; i++)
		ck_assert_uint_eq(s->jobs[0].senders.hosts[i], want[i]);
	scn_delete(s);
	/* senders = all: every host but dst */
	s = scn_ok("[topology]\nkind = star\nhosts = 4\n"
		   "[job.in]\npattern = incast\ndst = 2\nsenders = all\n");
	ck_assert_uint_eq(s->jobs[0].senders.n, 3);
	ck_assert_uint_eq(s->jobs[0].senders.hosts[0], 0);
	ck_assert_uint_eq(s->jobs[0].senders.hosts[1], 1);
	ck_assert_uint_eq(s->jobs[0].senders.hosts[2], 3);
	scn_delete(s);
}
END_TEST

/* ---- error classes: the exact FILE:LINE: key: prefix ---- */

START_TEST(test_err_unknown_section)
{
	expect_error("[sim]\nseed = 2\n\n[foo]\n",
		     "x.ini:4: [foo]: unknown section (sim, topology, qos, nic, job.NAME, buffer, pfc, pfcwd, ecn, dcqcn, fault.NAME, output, criteria)");
	expect_error("[Sim]\n", "x.ini:1: [Sim]: unknown section");
	expect_error("[sim.x]\n", "x.ini:1: [sim.x]: unknown section");
	expect_error("[]\n", "x.ini:1: []: unknown section");
	expect_error("[job]\npattern = incast\n", "x.ini:1: [job]: needs a name: [job.NAME]");
	expect_error("[job.a b]\n", "x.ini:1: [job.a b]: name must be 1-31 letters, digits, '-' or '_'");
	expect_error("[job.]\n", "x.ini:1: [job.]: name must be");
	expect_error("[job.abcdefghijklmnopqrstuvwxyz012345]\n", "x.ini:1: [job.abcdefghijklmnopqrstuvwxyz012345]: name must be");
	/* empty known sections, implemented or not, are fine */
	scn_delete(scn_ok("[sim]\n[buffer]\n[pfc]\n[pfcwd]\n[ecn]\n[dcqcn]\n"
			  "[output]\n[criteria]\n[nic]\n[qos]\n"));
	/* but a fault, like a job, needs its kind */
	expect_error("[sim]\n[fault.storm]\n",
		     "x.ini:2: fault.storm.kind: missing (pause-storm, slow-receiver, link-down)");
	expect_error("[fault]\nkind = link-down\n", "x.ini:1: [fault]: needs a name: [fault.NAME]");
	expect_error("[fault.a.b]\n", "x.ini:1: [fault.a.b]: name must be");
}
END_TEST

START_TEST(test_err_unknown_key)
{
	expect_error("[sim]\nseed = 2\nseeds = 3\n", "x.ini:3: sim.seeds: unknown key");
	expect_error("[topology]\nHosts = 3\n", "x.ini:2: topology.Hosts: unknown key");
	expect_error("[ecn]\nkmid = 3KB\n", "x.ini:2: ecn.kmid: unknown key");
	expect_error("[fault.a]\nwhen = 3\n", "x.ini:2: fault.a.when: unknown key");
	expect_error("[job.a]\npattern = incast\nsizes = 3\n", "x.ini:3: job.a.sizes: unknown key");
	expect_error("seed = 3\n[sim]\n", "x.ini:1: seed: key before any [section]");
}
END_TEST

START_TEST(test_err_duplicate)
{
	expect_error("[topology]\nmtu = 4096\nspines = 2\nmtu = 9000\n",
		     "x.ini:4: topology.mtu: given twice (first at line 2)");
	expect_error("[job.a]\npattern = incast\ndst = 1\ndst = 2\n",
		     "x.ini:4: job.a.dst: given twice (first at line 3)");
	expect_error("[sim]\n[topology]\n[sim]\n", "x.ini:3: [sim]: section given twice (first at line 1)");
	expect_error("[job.a]\npattern = incast\n[job.a]\n",
		     "x.ini:3: [job.a]: section given twice (first at line 1)");
	/* the same key in two jobs is not a duplicate */
	scn_delete(scn_ok("[job.a]\npattern = incast\n[job.b]\npattern = incast\n"));
}
END_TEST

START_TEST(test_err_missing_unit)
{
	expect_error("[topology]\n\n\nhost_link = 400\n",
		     "x.ini:4: topology.host_link: missing unit");
	expect_error("[sim]\nduration = 5\n", "x.ini:2: sim.duration: missing unit");
	expect_error("[topology]\nhost_cable = 3\n", "x.ini:2: topology.host_cable: missing unit");
	expect_error("[topology]\nhost_link = 400Gb\n", "x.ini:2: topology.host_link: unknown unit");
	expect_error("[sim]\nduration = 1.0005ns\n",
		     "x.ini:2: sim.duration: 1.0005ns is not a whole number of picoseconds");
}
END_TEST

START_TEST(test_err_out_of_range)
{
	expect_error("[topology]\nspines = 0\n", "x.ini:2: topology.spines: 0 out of range (1-256)");
	expect_error("[topology]\nleaves = 1025\n", "x.ini:2: topology.leaves: 1025 out of range (1-1024)");
	expect_error("[topology]\nhosts_per_leaf = 513\n", "x.ini:2: topology.hosts_per_leaf: 513 out of range (1-512)");
	expect_error("[topology]\nkind = fat-tree\nk = 66\n", "x.ini:3: topology.k: 66 out of range (2-64)");
	expect_error("[topology]\nkind = fat-tree\nk = 7\n", "x.ini:3: topology.k: 7 is odd (even, 2-64)");
	expect_error("[topology]\nkind = star\nhosts = 1\n", "x.ini:3: topology.hosts: 1 out of range (2-1024)");
	expect_error("[topology]\nhost_link = 999Mbps\n",
		     "x.ini:2: topology.host_link: 999Mbps out of range (1Gbps-1600Gbps)");
	expect_error("[topology]\nfabric_cable = 10001m\n",
		     "x.ini:2: topology.fabric_cable: 10001m out of range (0-10000m)");
	expect_error("[topology]\nswitch_latency = 1.001ms\n",
		     "x.ini:2: topology.switch_latency: 1.001ms out of range (0-1ms)");
	expect_error("[sim]\nduration = 0s\n", "x.ini:2: sim.duration: 0s out of range (above 0, at most 1000s)");
	expect_error("[sim]\nduration = 1001s\n", "x.ini:2: sim.duration: 1001s out of range");
	expect_error("[sim]\nseed = -1\n", "x.ini:2: sim.seed: -1 out of range");
	expect_error("[sim]\nseed = 9223372036854775808\n", "x.ini:2: sim.seed: 9223372036854775808 out of range");
	expect_error("[qos]\ndata_dscp = 64\n", "x.ini:2: qos.data_dscp: 64 out of range (0-63)");
	expect_error("[job.a]\npattern = incast\nsize = 0B\n", "x.ini:3: job.a.size: 0B out of range (above 0, at most 1000GB)");
	expect_error("[job.a]\npattern = incast\ndscp = 64\n", "x.ini:3: job.a.dscp: 64 out of range (0-63)");
	expect_error("[topology]\nkind = ring\n", "x.ini:2: topology.kind: ring is not valid (leaf-spine, fat-tree, star)");
	expect_error("[topology]\necmp = spray\n", "x.ini:2: topology.ecmp: spray is not valid (flow, packet)");
	/* host count of a leaf-spine: leaves x hosts_per_leaf */
	expect_error("[topology]\nleaves = 1024\nhosts_per_leaf = 512\n",
		     "x.ini:3: topology.hosts_per_leaf: 1024 leaves x 512 hosts_per_leaf = 524288 hosts, out of range (2-65536)");
	expect_error("[topology]\nleaves = 1\nhosts_per_leaf = 1\n",
		     "x.ini:3: topology.hosts_per_leaf: 1 leaves x 1 hosts_per_leaf = 1 hosts");
	scn_delete(scn_ok("[topology]\nleaves = 128\nhosts_per_leaf = 512\n"));
}
END_TEST

START_TEST(test_err_not_implemented)
{
	expect_error("[output]\nqueues = some\n", "x.ini:2: output.queues: ");
	expect_error("[criteria]\nmax_ecn_mark_pct = 150\n",
		     "x.ini:2: criteria.max_ecn_mark_pct: 150% is above 1");
	expect_error("[criteria]\nmax_pause_frame_rate = lots\n",
		     "x.ini:2: criteria.max_pause_frame_rate: ");
	expect_error("[output]\nrates = 8\nsample_interval = 1ns\n", "x.ini:3: output.sample_interval: ");
	expect_error("[criteria]\nmin_busbw_pct_line = -1\n",
		     "x.ini:2: criteria.min_busbw_pct_line: ");
	expect_error("[criteria]\nmax_lossless_drops = -1\n",
		     "x.ini:2: criteria.max_lossless_drops: -1 out of range");
	/* [criteria]: percentages with or without %, "none" for no limit */
	struct scenario *cr = scn_ok("[criteria]\nmax_ecn_mark_pct = 2.5\nmin_busbw_pct_line = 90%\n"
				     "max_pause_frame_rate = 1000\nmax_lossless_drops = 3\n");
	ck_assert_int_eq(cr->crit_max_ecn_mark_ppb, 25000000);
	ck_assert_int_eq(cr->crit_min_busbw_ppb, 900000000);
	ck_assert_int_eq(cr->crit_max_pause_frame_rate, 1000);
	ck_assert_int_eq(cr->crit_max_lossless_drops, 3);
	scn_delete(cr);
	cr = scn_ok("[output]\nflows = none\n");
	ck_assert_int_eq(cr->output_flows, 0);
	scn_delete(cr);
	expect_error("[output]\nflows = some\n", "x.ini:2: output.flows: ");
	cr = scn_ok("[criteria]\nmax_pause_frame_rate = none\n");
	ck_assert_int_eq(cr->crit_max_pause_frame_rate, SCN_AUTO);
	ck_assert_int_eq(cr->crit_max_ecn_mark_ppb, 20000000);
	ck_assert_int_eq(cr->crit_min_busbw_ppb, 950000000);
	scn_delete(cr);
	/* implemented now: the collectives and the job keys of DESIGN B7 */
	scn_delete(scn_ok("[job.a]\npattern = ring-allreduce\niterations = 5\ncompute_gap = 1us\n"
			  "[job.b]\npattern = alltoall\nschedule = shift\nskew = 1us\n"));
	/* implemented now: [ecn], [dcqcn], the CNP keys, nic.rto, output.rates, cc = dcqcn */
	scn_delete(scn_ok("[nic]\ncc = none\n"));
	scn_delete(scn_ok("[nic]\ncc = dcqcn\nrto = 4ms\n[ecn]\nkmin = 150KB\n[dcqcn]\nprofile = nvidia\n"
			  "rpg_time_reset = 300\n[qos]\ncnp_dscp = 48\ncnp_priority_strict = true\n"
			  "[output]\nrates = 64\n"));
}
END_TEST

START_TEST(test_err_contradiction)
{
	expect_error("[topology]\nkind = leaf-spine\n\n\nk = 8\n",
		     "x.ini:5: topology.k: only for kind = fat-tree (kind is leaf-spine)");
	/* the kind may come after the key: still a contradiction */
	expect_error("[topology]\nspines = 4\nkind = star\n",
		     "x.ini:2: topology.spines: only for kind = leaf-spine (kind is star)");
	expect_error("[topology]\nhosts = 8\n", "x.ini:2: topology.hosts: only for kind = star (kind is leaf-spine)");
	/* the earliest line is reported */
	expect_error("[topology]\nkind = fat-tree\nhosts = 8\nspines = 2\n",
		     "x.ini:3: topology.hosts: only for kind = star (kind is fat-tree)");
	expect_error("[qos]\ndwrr_weights = 1,1,1,1,1,1,1,1\n",
		     "x.ini:2: qos.dwrr_weights: only for scheduler = dwrr (scheduler is strict)");
	expect_error("[qos]\nscheduler = strict\ndwrr_weights = 1,1,1,1,1,1,1,1\n",
		     "x.ini:3: qos.dwrr_weights: only for scheduler = dwrr");
	expect_error("[topology]\nkind = star\nhosts = 8\n[job.in]\npattern = incast\ndst = 2\nsenders = 0-3\n",
		     "x.ini:7: job.in.senders: includes job.in.dst (2)");
}
END_TEST

START_TEST(test_err_job_key_wrong_pattern)
{
	expect_error("[job.a]\npattern = incast\nranks = 0-3\n",
		     "x.ini:3: job.a.ranks: only for pattern = permutation, ring-allreduce or alltoall (pattern is incast)");
	expect_error("[job.a]\nsenders = 1\npattern = permutation\n",
		     "x.ini:2: job.a.senders: only for pattern = incast (pattern is permutation)");
	expect_error("[job.a]\npattern = trace\nfile = t.csv\nsize = 1MB\n",
		     "x.ini:4: job.a.size: only for pattern = incast, permutation, ring-allreduce or alltoall (pattern is trace)");
	expect_error("[job.a]\npattern = permutation\nfile = t.csv\n",
		     "x.ini:3: job.a.file: only for pattern = trace (pattern is permutation)");
	expect_error("[job.a]\npattern = trace\ndst = 1\nfile = t.csv\n",
		     "x.ini:3: job.a.dst: only for pattern = incast (pattern is trace)");
	/* required keys */
	expect_error("[sim]\n[job.a]\nsize = 1MB\n",
		     "x.ini:2: job.a.pattern: missing (trace, incast, permutation, ring-allreduce, alltoall)");
	expect_error("[job.a]\n", "x.ini:1: job.a.pattern: missing");
	expect_error("[job.a]\npattern = trace\n", "x.ini:1: job.a.file: missing (pattern = trace needs a CSV file)");
	expect_error("[job.a]\npattern = trace\nfile =\n", "x.ini:3: job.a.file: empty");
}
END_TEST

START_TEST(test_err_hostset)
{
	expect_error("[job.a]\npattern = permutation\nranks = 0-63\n",
		     "x.ini:3: job.a.ranks: host 63 out of range (0-31)");
	expect_error("[job.a]\npattern = permutation\nranks = 40\n",
		     "x.ini:3: job.a.ranks: host 40 out of range (0-31)");
	expect_error("[job.a]\npattern = permutation\nranks = 0-3,2\n",
		     "x.ini:3: job.a.ranks: host 2 listed twice");
	expect_error("[job.a]\npattern = permutation\nranks = 3-1\n",
		     "x.ini:3: job.a.ranks: 3-1 goes backwards");
	expect_error("[job.a]\npattern = permutation\nranks = 0,,1\n",
		     "x.ini:3: job.a.ranks: 0,,1 is not a host list (use all, 0-63 or 0,2,4-7)");
	expect_error("[job.a]\npattern = permutation\nranks = h1\n", "x.ini:3: job.a.ranks: h1 is not a host list");
	expect_error("[job.a]\npattern = permutation\nranks =\n", "x.ini:3: job.a.ranks: empty");
	expect_error("[job.a]\npattern = permutation\nranks = 5\n",
		     "x.ini:3: job.a.ranks: 1 host (a permutation needs at least 2)");
	expect_error("[job.a]\npattern = incast\ndst = 32\n", "x.ini:3: job.a.dst: 32 out of range (0-31)");
	expect_error("[job.a]\npattern = incast\nsenders = 30-32\n",
		     "x.ini:3: job.a.senders: host 32 out of range (0-31)");
	/* the default dst (not given) is checked at the job's header line */
	expect_error("[topology]\nkind = star\nhosts = 2\n[job.a]\npattern = incast\nsenders = 0\n",
		     "x.ini:6: job.a.senders: includes job.a.dst (0)");
}
END_TEST

START_TEST(test_err_syntax)
{
	expect_error("[sim]\nseed\n", "x.ini:2: seed: expected key = value, [section] or a comment");
	expect_error("[sim\n", "x.ini:1: [sim: missing ']'");
	expect_error("[sim] x\n", "x.ini:1: [sim] x: unexpected text after ']'");
	expect_error("[sim]\n= 3\n", "x.ini:2: = 3: expected key = value");
	expect_error("[sim]\nseed = 1\n  continued\n", "x.ini:3: continued: expected key = value");
	{
		char text[400];
		memset(text, 'a', sizeof(text));
		memcpy(text, "[sim]\nseed = ", 13);
		text[sizeof(text) - 2] = '\n';
		text[sizeof(text) - 1] = '\0';
		expect_error(text, "x.ini:2: line too long (at most 199 characters)");
	}
}
END_TEST

START_TEST(test_comments_and_whitespace)
{
	struct scenario *s = scn_ok("\xEF\xBB\xBF# a comment\n"
				    "; another\n"
				    "[sim] # section comment\n"
				    "  duration = 2ms   # inline hash comment\r\n"
				    "\tseed = 5 ; inline semicolon comment\n"
				    "[ topology ]\n"
				    "mtu: 1024\n"
				    "[job.x]\npattern = incast\n");

	ck_assert_int_eq(s->duration_ps, INT64_C(2000000000));
	ck_assert_uint_eq(s->seed, 5);
	ck_assert_uint_eq(s->mtu_bytes, 1024);
	scn_delete(s);
	/* '#' not preceded by white space is part of the value */
	expect_error("[sim]\nseed = 5#x\n", "x.ini:2: sim.seed: 5#x is not an integer");
}
END_TEST

/* ---- --set ---- */

START_TEST(test_set_overrides_file)
{
	struct scenario *s = scn_new();
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
	scn_delete(s);
}
END_TEST

START_TEST(test_set_errors)
{
	expect_set_error(NULL, "topology.foo=1", "--set: topology.foo: unknown key");
	expect_set_error(NULL, "foo.bar=1", "--set: foo.bar: unknown section");
	expect_set_error(NULL, "topology.mtu=100", "--set: topology.mtu: 100 out of range (256-9000)");
	expect_set_error(NULL, "topology.host_link=400", "--set: topology.host_link: missing unit");
	expect_set_error(NULL, "criteria.max_lossless_drops=x",
			 "--set: criteria.max_lossless_drops: ");
	expect_set_error(NULL, "topology.mtu", "--set: topology.mtu: expected section.key=value");
	expect_set_error(NULL, "mtu=9000", "--set: mtu: expected section.key=value");
	expect_set_error(NULL, "topology.k=8",
			 "--set: topology.k: only for kind = fat-tree (kind is leaf-spine; set topology.kind first)");
	expect_set_error(NULL, "job.x.size=1MB", "--set: job.x.size: no job x yet (give job.x.pattern first)");
	expect_set_error(NULL, "criteria.max_ecn_mark_pct=200", "--set: criteria.max_ecn_mark_pct: ");
	expect_set_error(NULL, "job.x.pattern=all-to-all",
			 "--set: job.x.pattern: all-to-all is not valid (trace, incast, permutation, ring-allreduce, alltoall)");
	expect_set_error("[job.a]\npattern = incast\n", "job.a.ranks=0-3",
			 "--set: job.a.ranks: only for pattern = permutation, ring-allreduce or alltoall (pattern is incast; set job.a.pattern first)");
	expect_set_error("[job.a]\npattern = incast\n", "job.a.senders=0-99",
			 "x.ini:1: job.a.senders: host 99 out of range (0-31)");
	/* --set shrinks the topology: finalize points at the job's header */
	expect_set_error("[sim]\n[job.a]\npattern = permutation\nranks = 0-31\n", "topology.leaves=2",
			 "x.ini:2: job.a.ranks: host 31 out of range (0-15)");
	expect_set_error("[topology]\nleaves = 1024\n[buffer]\nsize = 1GB\n",
			 "topology.hosts_per_leaf=512",
			 "--set: topology.hosts_per_leaf: 1024 leaves x 512 hosts_per_leaf");
}
END_TEST

START_TEST(test_set_selector_first)
{
	struct scenario *s = scn_new();
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
	scn_delete(s);
}
END_TEST

/* ---- print and load back ---- */

static void check_round_trip(const char *text)
{
	struct scenario *a = scn_ok(text), *b = scn_new();
	struct scn_error err;
	char *pa = print_to_string(a), *pb;

	ck_assert_msg(scenario_load_string(b, "x.ini", pa, &err) == 0,
		      "printed scenario does not load: %s\n%s", err.msg, pa);
	ck_assert_msg(scenario_finalize(b, &err) == 0, "finalize: %s", err.msg);
	pb = print_to_string(b);
	ck_assert_str_eq(pa, pb);
	/* and the values, not just the text */
	ck_assert_int_eq(a->duration_ps, b->duration_ps);
	ck_assert_uint_eq(a->seed, b->seed);
	ck_assert_int_eq(a->topo, b->topo);
	ck_assert_int_eq(a->host_link_bps, b->host_link_bps);
	ck_assert_int_eq(a->fabric_cable_mm, b->fabric_cable_mm);
	ck_assert_int_eq(a->switch_latency_ps, b->switch_latency_ps);
	ck_assert_uint_eq(a->mtu_bytes, b->mtu_bytes);
	ck_assert_uint_eq(a->data_dscp, b->data_dscp);
	ck_assert_int_eq(memcmp(a->dscp_to_prio, b->dscp_to_prio, 64), 0);
	ck_assert_uint_eq(a->njobs, b->njobs);
	free(pa);
	free(pb);
	scn_delete(a);
	scn_delete(b);
}

START_TEST(test_round_trip)
{
	check_round_trip("");
	check_round_trip("[sim]\nduration = 1.001us\nseed = 9223372036854775807\n"
			 "[topology]\nspines = 3\nleaves = 5\nhosts_per_leaf = 7\n"
			 "host_link = 1.5Gbps\nfabric_link = 1.6Tbps\nhost_cable = 0.005m\n"
			 "fabric_cable = 0m\nswitch_latency = 83.56ns\nmtu = 9KB\n"
			 "ecmp = packet\n"
			 "[qos]\nnccl_ib_tc = 106\ndscp_to_priority = 63:0,26:3,48:6\n"
			 "scheduler = dwrr\ndwrr_weights = 1,2,3,4,5,6,7,8\n"
			 "[job.in]\npattern = incast\nsize = 1536B\nstart = 1.5ms\n"
			 "dscp = 0\ndst = 34\nsenders = 0, 1-3\n"
			 "[job.p]\npattern = permutation\nranks = all\nsize = 64MiB\n");
	check_round_trip("[topology]\nkind = fat-tree\nk = 2\n");
	check_round_trip("[topology]\nkind = star\nhosts = 1024\n[buffer]\nsize = 1GiB\n"
			 "[job.z]\npattern = permutation\nranks = 1023,0\n");
}
END_TEST

START_TEST(test_print_content)
{
	struct scenario *s = scn_ok("[qos]\ndscp_to_priority = 26:4,48:7,8:1\n"
				    "[job.in]\npattern = incast\n");
	char *p = print_to_string(s);

	ck_assert_ptr_nonnull(strstr(p, "# dcqcn-sim scenario, resolved from x.ini, seed 1\n"));
	ck_assert_ptr_null(strstr(p, "not implemented"));
	ck_assert_ptr_nonnull(strstr(p, "\n[criteria]\nmax_ecn_mark_pct = 2%\nmax_lossless_drops = 0\n"
					"min_busbw_pct_line = 95%\nmax_pause_frame_rate = none\n"));
	ck_assert_ptr_null(strstr(p, "# nor the keys"));
	ck_assert_ptr_null(strstr(p, "job.*."));
	/* the new sections, every key, in the order of DESIGN A2 */
	ck_assert_ptr_nonnull(strstr(p, "\n[nic]\ncc = dcqcn\npause_watchdog = 0\nrto = 4ms\n"));
	ck_assert_ptr_nonnull(strstr(p, "\n[buffer]\nsize = 64MB\nreserved = 4.158KB\ndynamic_th = 0\n"
					"lossy_dynamic_th = 3\ncell = 0\n"));
	ck_assert_ptr_nonnull(strstr(p, "\n[pfc]\npriorities = 3\nheadroom = auto\nxon_offset = 8.316KB\n"
					"pause_quanta = 65535\nresponse_time = auto\n"));
	ck_assert_ptr_nonnull(strstr(p, "\n[pfcwd]\nenable = true\ndetection_time = 200ms\n"
					"restoration_time = 400ms\npoll_interval = 200ms\naction = drop\n"));
	ck_assert_ptr_nonnull(strstr(p, "\n[output]\nsample_interval = 10us\nqueues = switches\nflows = all\nrates = 64\n"));
	ck_assert_ptr_nonnull(strstr(p, "\n[topology]\nkind = leaf-spine\nspines = 2\nleaves = 4\nhosts_per_leaf = 8\nhost_link = 400Gbps\n"));
	ck_assert_ptr_nonnull(strstr(p, "\nduration = 1s\n"));
	ck_assert_ptr_nonnull(strstr(p, "\nhost_cable = 3m\nfabric_cable = 30m\nswitch_latency = 500ns\nmtu = 4096\necmp = flow\n"));
	/* 8:1 is the default (8 >> 3): not printed */
	ck_assert_ptr_nonnull(strstr(p, "\ndscp_to_priority = 26:4,48:7\n"));
	ck_assert_ptr_null(strstr(p, "nccl_ib_tc"));
	ck_assert_ptr_null(strstr(p, "dwrr_weights")); /* scheduler strict */
	ck_assert_ptr_null(strstr(p, "\nk ="));
	ck_assert_ptr_nonnull(strstr(p, "\n[job.in]\npattern = incast\nsize = 4MB\nstart = 0ps\n# dscp: qos.data_dscp (26)\ndst = 0\nsenders = all\n"
					"iterations = 1\ncompute_gap = 0ps\nskew = 0ps\n"));
	/* keys of ring-allreduce and alltoall only */
	ck_assert_ptr_null(strstr(p, "\nchannels ="));
	ck_assert_ptr_null(strstr(p, "\nslice ="));
	ck_assert_ptr_null(strstr(p, "\nschedule ="));
	ck_assert_ptr_null(strstr(p, "ranks"));
	free(p);
	scn_delete(s);
}
END_TEST

START_TEST(test_print_derived)
{
	struct scenario *s = scn_new();
	char *p = derived_to_string(s);

	ck_assert_ptr_nonnull(strstr(p, "# hosts 32, switches 6, links 40 (32 host, 8 fabric)\n"));
	ck_assert_ptr_nonnull(strstr(p, "= 4.00:1\n"));
	ck_assert_ptr_nonnull(strstr(p, "4158 B"));
	ck_assert_ptr_nonnull(strstr(p, "4178 B on the wire"));
	ck_assert_ptr_nonnull(strstr(p, "host_link 400Gbps: 83.56ns\n"));
	/* DESIGN B1: 400 x 4096/4178 = 392 Gbps = 49.0 GB/s */
	ck_assert_ptr_nonnull(strstr(p, "392.15 Gbps = 49.02 GB/s"));
	ck_assert_ptr_nonnull(strstr(p, "4 hops (2 host links, 2 fabric links, 3 switches)"));
	/* 4 x 83.56 ns + (2 x 3 m + 2 x 30 m) x 5 ns/m + 3 x 500 ns */
	ck_assert_ptr_nonnull(strstr(p, "full frame on it: 2164.24ns ("));
	/* + 4 x 1.68 ns + 330 ns + 1500 ns back = 4000.96 ns; x 400 Gbps / 8 */
	ck_assert_ptr_nonnull(strstr(p, "4000.96ns; bandwidth-delay product at host_link: 200048 B"));
	free(p);
	scn_delete(s);
	/* a rate that does not divide the frame: the fraction of a ps is shown */
	s = scn_ok("[topology]\nhost_link = 3Gbps\n");
	p = derived_to_string(s);
	ck_assert_ptr_nonnull(strstr(p, "host_link 3Gbps: 11141.333ns + 1/3 ps (not a whole ps)\n"));
	free(p);
	scn_delete(s);
}
END_TEST

/* ---- files and traces ---- */

START_TEST(test_trace_fixture_relative)
{
	struct scenario *s = scn_new();
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
	scn_delete(s);
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

	write_temp(dir, path, "t.csv", tc->csv);
	snprintf(text, sizeof(text),
		 "[topology]\nkind = star\nhosts = 8\n[job.t]\npattern = trace\nfile = %s\n",
		 path);
	snprintf(want, sizeof(want), "%s:%s", path, tc->msg);
	expect_error(text, want);
	remove_temp(dir, path);
}
END_TEST

START_TEST(test_trace_file_missing)
{
	/* relative to x.ini's folder (the current directory) */
	struct scn_error err;
	struct scenario *s = scn_load("[job.t]\npattern = trace\nfile = no/such.csv\n", &err);

	ck_assert_ptr_null(s);
	ck_assert_msg(strncmp(err.msg, "x.ini:1: job.t.file: cannot open /", 34) == 0, "%s", err.msg);
	ck_assert_ptr_nonnull(strstr(err.msg, "/no/such.csv (No such file or directory)"));
}
END_TEST

START_TEST(test_load_file_errors)
{
	struct scenario *s = scn_new();
	struct scn_error err;
	char dir[64], path[128], want[200];

	ck_assert_int_eq(scenario_load_file(s, "/nonexistent/x.ini", &err), -1);
	ck_assert_str_eq(err.msg, "/nonexistent/x.ini: cannot open (No such file or directory)");
	scn_delete(s);
	/* errors in a file name the file's path */
	s = scn_new();
	write_temp(dir, path, "bad.ini", "[topology]\n\nspines = 0\n");
	ck_assert_int_eq(scenario_load_file(s, path, &err), -1);
	snprintf(want, sizeof(want), "%s:3: topology.spines: 0 out of range (1-256)", path);
	ck_assert_str_eq(err.msg, want);
	remove_temp(dir, path);
	scn_delete(s);
}
END_TEST

START_TEST(test_max_jobs)
{
	char *text = malloc(SCN_MAX_JOBS * 64 + 64), *p = text;
	struct scn_error err;
	struct scenario *s;
	int i;

	for (i = 0; i < SCN_MAX_JOBS; i++)
		p += sprintf(p, "[job.j%d]\npattern = incast\n", i);
	s = scn_load(text, &err);
	ck_assert_msg(s != NULL, "%s", err.msg);
	ck_assert_uint_eq(s->njobs, SCN_MAX_JOBS);
	scn_delete(s);
	sprintf(p, "[job.one-more]\n");
	expect_error(text, "x.ini:129: [job.one-more]: too many jobs (at most 64)");
	free(text);
}
END_TEST

/* ---- [buffer] [pfc] [pfcwd] [nic] [output] keys ---- */

START_TEST(test_buffer_keys)
{
	struct scenario *s = scn_ok("[buffer]\nsize = 1.5GiB\nreserved = 1MB\ndynamic_th = -7\n"
				    "lossy_dynamic_th = 7\ncell = 256B\n");

	ck_assert_int_eq(s->buffer_bytes, INT64_C(1610612736));
	ck_assert_int_eq(s->reserved_bytes, 1000000);
	ck_assert_int_eq(s->dynamic_th, -7);
	ck_assert_int_eq(s->lossy_dynamic_th, 7);
	ck_assert_int_eq(s->cell_bytes, 256);
	scn_delete(s);
	/* limits; a bare 0 means byte exact */
	s = scn_ok("[buffer]\nsize = 64GiB\nreserved = 0B\ncell = 0\n");
	ck_assert_int_eq(s->buffer_bytes, INT64_C(68719476736));
	ck_assert_int_eq(s->reserved_bytes, 0);
	ck_assert_int_eq(s->cell_bytes, 0);
	scn_delete(s);
	s = scn_ok("[buffer]\ncell = 4KiB\n");
	ck_assert_int_eq(s->cell_bytes, 4096);
	scn_delete(s);
	expect_error("[buffer]\nsize = 0B\n", "x.ini:2: buffer.size: 0B out of range (above 0, at most 64GiB)");
	expect_error("[buffer]\nsize = 68719476737B\n", "x.ini:2: buffer.size: 68719476737B out of range");
	expect_error("[buffer]\nsize = 64\n", "x.ini:2: buffer.size: missing unit");
	expect_error("[buffer]\nreserved = 1000001B\n", "x.ini:2: buffer.reserved: 1000001B out of range (0-1MB)");
	expect_error("[buffer]\ndynamic_th = 8\n", "x.ini:2: buffer.dynamic_th: 8 out of range (-7 to 7)");
	expect_error("[buffer]\nlossy_dynamic_th = -8\n",
		     "x.ini:2: buffer.lossy_dynamic_th: -8 out of range (-7 to 7)");
	expect_error("[buffer]\ncell = 4097B\n",
		     "x.ini:2: buffer.cell: 4097B out of range (0 (byte exact) to 4096B)");
	expect_error("[buffer]\ncell = 256\n", "x.ini:2: buffer.cell: missing unit");
}
END_TEST

START_TEST(test_pfc_keys)
{
	struct scenario *s = scn_ok("[pfc]\npriorities = 4, 3,0\nheadroom = 100KB\n"
				    "xon_offset = 1.5KB\npause_quanta = 1\nresponse_time = 1.001us\n");

	ck_assert_uint_eq(s->pfc_prios, (1u << 0) | (1u << 3) | (1u << 4));
	ck_assert_int_eq(s->headroom_bytes, 100000);
	ck_assert_int_eq(s->xon_offset_bytes, 1500);
	ck_assert_uint_eq(s->pause_quanta, 1);
	ck_assert_int_eq(s->response_ps, 1001000);
	scn_delete(s);
	s = scn_ok("[pfc]\npriorities = 7\nheadroom = auto\nresponse_time = auto\n"
		   "pause_quanta = 65535\n");
	ck_assert_uint_eq(s->pfc_prios, 1u << 7);
	ck_assert_int_eq(s->headroom_bytes, SCN_AUTO);
	ck_assert_int_eq(s->response_ps, SCN_AUTO);
	scn_delete(s);
	/* limits */
	s = scn_ok("[pfc]\nheadroom = 0B\nresponse_time = 0ps\n");
	ck_assert_int_eq(s->headroom_bytes, 0);
	ck_assert_int_eq(s->response_ps, 0);
	scn_delete(s);
	s = scn_ok("[pfc]\nheadroom = 64MB\nresponse_time = 1ms\n[buffer]\nsize = 1GB\n");
	ck_assert_int_eq(s->headroom_bytes, 64000000);
	ck_assert_int_eq(s->response_ps, INT64_C(1000000000));
	scn_delete(s);
	/* empty: PFC off */
	s = scn_ok("[pfc]\npriorities =\n");
	ck_assert_uint_eq(s->pfc_prios, 0);
	scn_delete(s);
	expect_error("[pfc]\npriorities = 3,4,3\n", "x.ini:2: pfc.priorities: priority 3 listed twice");
	expect_error("[pfc]\npriorities = 8\n", "x.ini:2: pfc.priorities: 8 out of range (0-7)");
	expect_error("[pfc]\npriorities = 3,,4\n",
		     "x.ini:2: pfc.priorities: 3,,4 is not a list of priorities (0-7, e.g. 3 or 3,4; empty = PFC off)");
	expect_error("[pfc]\npriorities = 3,\n", "x.ini:2: pfc.priorities: 3, is not a list of priorities");
	expect_error("[pfc]\npriorities = three\n", "x.ini:2: pfc.priorities: three is not an integer");
	expect_error("[pfc]\nheadroom = 64000001B\n",
		     "x.ini:2: pfc.headroom: 64000001B out of range (auto or 0-64MB)");
	expect_error("[pfc]\nheadroom = Auto\n", "x.ini:2: pfc.headroom: ");
	expect_error("[pfc]\nheadroom = 100\n", "x.ini:2: pfc.headroom: missing unit");
	expect_error("[pfc]\nxon_offset = 65MB\n", "x.ini:2: pfc.xon_offset: 65MB out of range (0-64MB)");
	expect_error("[pfc]\npause_quanta = 0\n", "x.ini:2: pfc.pause_quanta: 0 out of range (1-65535)");
	expect_error("[pfc]\npause_quanta = 65536\n", "x.ini:2: pfc.pause_quanta: 65536 out of range (1-65535)");
	expect_error("[pfc]\nresponse_time = 1.001ms\n",
		     "x.ini:2: pfc.response_time: 1.001ms out of range (auto or 0-1ms)");
}
END_TEST

START_TEST(test_pfcwd_nic_output_keys)
{
	struct scenario *s = scn_ok("[pfcwd]\nenable = yes\ndetection_time = 1us\n"
				    "restoration_time = 10s\npoll_interval = 1.5ms\naction = forward\n"
				    "[nic]\npause_watchdog = 100ms\n"
				    "[output]\nsample_interval = 100ns\n");

	ck_assert_int_eq(s->pfcwd_enable, 1);
	ck_assert_int_eq(s->pfcwd_detect_ps, 1000000);
	ck_assert_int_eq(s->pfcwd_restore_ps, INT64_C(10000000000000));
	ck_assert_int_eq(s->pfcwd_poll_ps, 1500000000);
	ck_assert_int_eq(s->pfcwd_action, SCN_PFCWD_FORWARD);
	ck_assert_int_eq(s->nic_pause_watchdog_ps, INT64_C(100000000000));
	ck_assert_int_eq(s->sample_interval_ps, 100000);
	scn_delete(s);
	/* restoration below detection: allowed (SONiC allows it) */
	s = scn_ok("[pfcwd]\nenable = true\ndetection_time = 400ms\nrestoration_time = 1ms\n"
		   "action = alert\n[nic]\npause_watchdog = 0\n[output]\nsample_interval = 1s\n");
	ck_assert_int_eq(s->pfcwd_action, SCN_PFCWD_ALERT);
	ck_assert_int_eq(s->pfcwd_restore_ps, 1000000000);
	ck_assert_int_eq(s->nic_pause_watchdog_ps, 0);
	ck_assert_int_eq(s->sample_interval_ps, INT64_C(1000000000000));
	scn_delete(s);
	s = scn_ok("[pfcwd]\nenable = off\n");
	ck_assert_int_eq(s->pfcwd_enable, 0);
	scn_delete(s);
	expect_error("[pfcwd]\nenable = maybe\n", "x.ini:2: pfcwd.enable: 'maybe' is not a boolean");
	expect_error("[pfcwd]\ndetection_time = 999ns\n",
		     "x.ini:2: pfcwd.detection_time: 999ns out of range (1us-10s)");
	expect_error("[pfcwd]\nrestoration_time = 10.001s\n",
		     "x.ini:2: pfcwd.restoration_time: 10.001s out of range (1us-10s)");
	expect_error("[pfcwd]\npoll_interval = 0s\n", "x.ini:2: pfcwd.poll_interval: 0s out of range (1us-10s)");
	expect_error("[pfcwd]\naction = panic\n",
		     "x.ini:2: pfcwd.action: panic is not valid (drop, forward, alert)");
	expect_error("[nic]\npause_watchdog = 11s\n",
		     "x.ini:2: nic.pause_watchdog: 11s out of range (0 (off) to 10s)");
	expect_error("[nic]\npause_watchdog = 5\n", "x.ini:2: nic.pause_watchdog: missing unit");
	expect_error("[output]\nsample_interval = 99ns\n",
		     "x.ini:2: output.sample_interval: 99ns out of range (100ns-1s)");
	expect_error("[output]\nsample_interval = 2s\n",
		     "x.ini:2: output.sample_interval: 2s out of range (100ns-1s)");
}
END_TEST

/* ---- [fault.NAME] ---- */

START_TEST(test_fault_keys)
{
	struct scenario *s = scn_ok("[pfc]\npriorities = 5,2\n"
				    "[fault.storm]\nkind = pause-storm\nnode = h31\nstart = 1ms\n"
				    "duration = 2.5ms\n"
				    "[fault.storm2]\nkind = pause-storm\nnode = h0\npriority = 5\n"
				    "[fault.slow]\nkind = slow-receiver\nnode = h7\nrate = 1.5Gbps\n"
				    "[fault.cut]\nkind = link-down\nlink = leaf0-spine1\nstart = 10us\n"
				    "[fault.nic]\nkind = link-down\nlink = h9 - leaf1\n");
	const struct scn_fault *f = s->faults;

	ck_assert_uint_eq(s->nfaults, 5);
	ck_assert_str_eq(f[0].name, "storm");
	ck_assert_int_eq(f[0].line, 3);
	ck_assert_int_eq(f[0].kind, SCN_FAULT_PAUSE_STORM);
	ck_assert_uint_eq(f[0].host, 31);
	ck_assert_int_eq(f[0].start_ps, 1000000000);
	ck_assert_int_eq(f[0].duration_ps, 2500000000);
	ck_assert_uint_eq(f[0].priority, 2); /* the lowest lossless priority */
	ck_assert_uint_eq(f[1].priority, 5);
	ck_assert_int_eq(f[1].duration_ps, 0); /* until the end */
	ck_assert_int_eq(f[2].kind, SCN_FAULT_SLOW_RECEIVER);
	ck_assert_uint_eq(f[2].host, 7);
	ck_assert_int_eq(f[2].rate_bps, 1500000000);
	ck_assert_int_eq(f[3].kind, SCN_FAULT_LINK_DOWN);
	ck_assert_str_eq(f[3].link_text, "leaf0-spine1");
	/* leaf l = l, spine s = leaves + s */
	ck_assert_uint_eq(f[3].end_node[0], 0);
	ck_assert_uint_eq(f[3].end_node[1], 5);
	ck_assert_uint_eq(f[3].end_is_host[0], 0);
	ck_assert_uint_eq(f[3].end_is_host[1], 0);
	ck_assert_int_eq(f[3].start_ps, 10000000);
	/* h9 is on leaf 9 / 8 = 1 */
	ck_assert_uint_eq(f[4].end_node[0], 9);
	ck_assert_uint_eq(f[4].end_is_host[0], 1);
	ck_assert_uint_eq(f[4].end_node[1], 1);
	ck_assert_uint_eq(f[4].end_is_host[1], 0);
	scn_delete(s);

	/* fat-tree k = 4 (half 2): edges 0-7, aggs 8-15, cores 16-19 */
	s = scn_ok("[topology]\nkind = fat-tree\nk = 4\n"
		   "[fault.a]\nkind = link-down\nlink = agg1-core2\n"
		   "[fault.b]\nkind = link-down\nlink = edge7-agg6\n"
		   "[fault.c]\nkind = link-down\nlink = h15-edge7\n"
		   "[fault.d]\nkind = link-down\nlink = core3-agg7\n");
	f = s->faults;
	ck_assert_uint_eq(f[0].end_node[0], 9);   /* agg 1: 8 + 1 */
	ck_assert_uint_eq(f[0].end_node[1], 18);  /* core 2: 16 + 2 */
	ck_assert_uint_eq(f[1].end_node[0], 7);
	ck_assert_uint_eq(f[1].end_node[1], 14);
	ck_assert_uint_eq(f[2].end_node[0], 15);
	ck_assert_uint_eq(f[2].end_is_host[0], 1);
	ck_assert_uint_eq(f[2].end_node[1], 7);
	ck_assert_uint_eq(f[3].end_node[0], 19);  /* written core first */
	ck_assert_uint_eq(f[3].end_node[1], 15);
	scn_delete(s);
	/* star: sw0 = 0 */
	s = scn_ok("[topology]\nkind = star\nhosts = 4\n[fault.x]\nkind = link-down\nlink = sw0-h3\n");
	ck_assert_uint_eq(s->faults[0].end_node[0], 0);
	ck_assert_uint_eq(s->faults[0].end_is_host[0], 0);
	ck_assert_uint_eq(s->faults[0].end_node[1], 3);
	ck_assert_uint_eq(s->faults[0].end_is_host[1], 1);
	scn_delete(s);
}
END_TEST

START_TEST(test_err_fault)
{
	/* keys that do not apply to the kind, like job keys and patterns */
	expect_error("[fault.c]\nkind = link-down\nnode = h3\nlink = leaf0-spine0\n",
		     "x.ini:3: fault.c.node: only for kind = pause-storm or slow-receiver (kind is link-down)");
	expect_error("[fault.s]\nkind = pause-storm\nnode = h1\nrate = 10Gbps\n",
		     "x.ini:4: fault.s.rate: only for kind = slow-receiver (kind is pause-storm)");
	expect_error("[fault.s]\nkind = slow-receiver\nnode = h1\nrate = 10Gbps\npriority = 3\n",
		     "x.ini:5: fault.s.priority: only for kind = pause-storm (kind is slow-receiver)");
	expect_error("[fault.s]\nlink = leaf0-spine0\nkind = pause-storm\nnode = h1\n",
		     "x.ini:2: fault.s.link: only for kind = link-down (kind is pause-storm)");
	/* required keys, at the section's line */
	expect_error("[sim]\n[fault.s]\nnode = h1\n", "x.ini:2: fault.s.kind: missing (pause-storm, slow-receiver, link-down)");
	expect_error("[fault.s]\nkind = pause-storm\n", "x.ini:1: fault.s.node: missing (pause-storm needs a host, e.g. h3)");
	expect_error("[fault.s]\nkind = slow-receiver\nnode = h1\n",
		     "x.ini:1: fault.s.rate: missing (slow-receiver needs a drain rate, e.g. 100Gbps)");
	expect_error("[fault.c]\nkind = link-down\n", "x.ini:1: fault.c.link: missing (link-down needs a link, e.g. leaf0-spine1)");
	/* values */
	expect_error("[fault.s]\nkind = flap\n",
		     "x.ini:2: fault.s.kind: flap is not valid (pause-storm, slow-receiver, link-down)");
	expect_error("[fault.s]\nkind = pause-storm\nnode = 3\n", "x.ini:3: fault.s.node: 3 is not a host name (h0, h1, ...)");
	expect_error("[fault.s]\nkind = pause-storm\nnode = h03\n", "x.ini:3: fault.s.node: h03 is not a host name");
	expect_error("[fault.s]\nkind = pause-storm\nnode = leaf1\n",
		     "x.ini:3: fault.s.node: leaf1 is a switch (pause-storm and slow-receiver are NIC faults: give a host, e.g. h3)");
	expect_error("[fault.s]\nkind = pause-storm\nnode = h1\nstart = 1001s\n",
		     "x.ini:4: fault.s.start: 1001s out of range (0-1000s)");
	expect_error("[fault.s]\nkind = pause-storm\nnode = h1\nduration = 5\n",
		     "x.ini:4: fault.s.duration: missing unit");
	expect_error("[fault.s]\nkind = pause-storm\nnode = h1\npriority = 8\n",
		     "x.ini:4: fault.s.priority: 8 out of range (0-7)");
	expect_error("[fault.s]\nkind = slow-receiver\nnode = h1\nrate = 999Kbps\n",
		     "x.ini:4: fault.s.rate: 999Kbps out of range (1Mbps-1600Gbps)");
	expect_error("[fault.c]\nkind = link-down\nlink = leaf0spine1\n",
		     "x.ini:3: fault.c.link: leaf0spine1 is not a link (A-B of node names");
	expect_error("[fault.c]\nkind = link-down\nlink = leaf0-spine1-h3\n", "x.ini:3: fault.c.link: leaf0-spine1-h3 is not a link");
	expect_error("[fault.c]\nkind = link-down\nlink = tor0-spine1\n", "x.ini:3: fault.c.link: tor0-spine1 is not a link");
	/* host index out of range (h0-h31 by default) */
	expect_error("[fault.s]\nkind = pause-storm\nnode = h32\n",
		     "x.ini:3: fault.s.node: h32 out of range (h0-h31)");
	expect_error("[fault.s]\nkind = slow-receiver\n\nnode = h40\nrate = 1Gbps\n[topology]\nleaves = 5\n",
		     "x.ini:4: fault.s.node: h40 out of range (h0-h39)");
	/* link ends: exist in this topology, directly cabled */
	expect_error("[fault.c]\nkind = link-down\nlink = leaf0-leaf1\n",
		     "x.ini:3: fault.c.link: leaf0 and leaf1 are not directly cabled");
	expect_error("[fault.c]\nkind = link-down\nlink = h9-leaf0\n",
		     "x.ini:3: fault.c.link: h9 and leaf0 are not directly cabled (h9 is cabled to leaf1)");
	expect_error("[fault.c]\nkind = link-down\nlink = h1-h2\n",
		     "x.ini:3: fault.c.link: h1 and h2 are not directly cabled");
	expect_error("[fault.c]\nkind = link-down\nlink = h1-spine0\n",
		     "x.ini:3: fault.c.link: h1 and spine0 are not directly cabled");
	expect_error("[fault.c]\nkind = link-down\nlink = leaf0-spine2\n",
		     "x.ini:3: fault.c.link: spine2 out of range (spine0-spine1)");
	expect_error("[fault.c]\nkind = link-down\nlink = edge0-agg0\n",
		     "x.ini:3: fault.c.link: edge0 is not a node of a leaf-spine (h0-h31, leaf0-leaf3, spine0-spine1)");
	expect_error("[topology]\nkind = fat-tree\nk = 4\n[fault.c]\nkind = link-down\nlink = edge0-agg2\n",
		     "x.ini:6: fault.c.link: edge0 and agg2 are not directly cabled (edge0 is in pod 0, agg2 in pod 1)");
	expect_error("[topology]\nkind = fat-tree\nk = 4\n[fault.c]\nkind = link-down\nlink = agg0-core2\n",
		     "x.ini:6: fault.c.link: agg0 and core2 are not directly cabled (agg0 is cabled to core0-core1)");
	expect_error("[topology]\nkind = fat-tree\nk = 4\n[fault.c]\nkind = link-down\nlink = h4-edge1\n",
		     "x.ini:6: fault.c.link: h4 and edge1 are not directly cabled (h4 is cabled to edge2)");
	expect_error("[topology]\nkind = fat-tree\nk = 4\n[fault.c]\nkind = link-down\nlink = edge0-core0\n",
		     "x.ini:6: fault.c.link: edge0 and core0 are not directly cabled");
	expect_error("[topology]\nkind = star\nhosts = 4\n[fault.c]\nkind = link-down\nlink = h1-sw1\n",
		     "x.ini:6: fault.c.link: sw1 out of range (only sw0)");
	expect_error("[topology]\nkind = star\nhosts = 4\n[fault.c]\nkind = link-down\nlink = h4-sw0\n",
		     "x.ini:6: fault.c.link: h4 out of range (h0-h3)");
	/* a storm on a lossy priority; a slow receiver not below the link */
	expect_error("[fault.s]\nkind = pause-storm\nnode = h1\npriority = 2\n",
		     "x.ini:4: fault.s.priority: 2 is not a lossless priority (pfc.priorities = 3)");
	expect_error("[pfc]\npriorities = 3,4\n[fault.s]\nkind = pause-storm\nnode = h1\npriority = 0\n",
		     "x.ini:6: fault.s.priority: 0 is not a lossless priority (pfc.priorities = 3,4)");
	expect_error("[fault.s]\nkind = slow-receiver\nnode = h1\nrate = 400Gbps\n",
		     "x.ini:4: fault.s.rate: 400Gbps must be below topology.host_link (400Gbps)");
	expect_error("[fault.s]\nkind = slow-receiver\nnode = h1\nrate = 200Gbps\n[topology]\nhost_link = 100Gbps\n",
		     "x.ini:4: fault.s.rate: 200Gbps must be below topology.host_link (100Gbps)");
	/* pause-storm and slow-receiver need PFC on */
	expect_error("[pfc]\npriorities =\n[fault.s]\nkind = pause-storm\nnode = h1\n",
		     "x.ini:4: fault.s.kind: pause-storm needs PFC on (pfc.priorities is empty)");
	expect_error("[fault.s]\nkind = slow-receiver\nnode = h1\nrate = 1Gbps\n[pfc]\npriorities =\n",
		     "x.ini:2: fault.s.kind: slow-receiver needs PFC on (pfc.priorities is empty)");
	/* a link-down does not */
	scn_delete(scn_ok("[pfc]\npriorities =\n[fault.c]\nkind = link-down\nlink = leaf3-spine1\n"));
	/* the section given twice */
	expect_error("[fault.a]\nkind = link-down\nlink = leaf0-spine0\n[fault.a]\n",
		     "x.ini:4: [fault.a]: section given twice (first at line 1)");
	expect_error("[fault.a]\nkind = link-down\nkind = pause-storm\n",
		     "x.ini:3: fault.a.kind: given twice (first at line 2)");
}
END_TEST

START_TEST(test_max_faults)
{
	char *text = malloc(SCN_MAX_FAULTS * 64 + 64), *p = text;
	struct scn_error err;
	struct scenario *s;
	int i;

	for (i = 0; i < SCN_MAX_FAULTS; i++)
		p += sprintf(p, "[fault.f%d]\nkind = link-down\nlink = leaf%d-spine%d\n", i, i % 4,
			     i % 2);
	s = scn_load(text, &err);
	ck_assert_msg(s != NULL, "%s", err.msg);
	ck_assert_uint_eq(s->nfaults, SCN_MAX_FAULTS);
	scn_delete(s);
	sprintf(p, "[fault.one-more]\n");
	expect_error(text, "x.ini:193: [fault.one-more]: too many faults (at most 64)");
	free(text);
}
END_TEST

/* ---- contradictions with PFC or the watchdog off ---- */

START_TEST(test_err_pfc_off)
{
	expect_error("[pfc]\npriorities =\nheadroom = 100KB\n",
		     "x.ini:3: pfc.headroom: PFC is off (pfc.priorities is empty)");
	/* in any order; the earliest line is reported */
	expect_error("[pfc]\npause_quanta = 10\nxon_offset = 1KB\npriorities =\n",
		     "x.ini:2: pfc.pause_quanta: PFC is off (pfc.priorities is empty)");
	expect_error("[pfc]\nresponse_time = auto\npriorities =\n",
		     "x.ini:2: pfc.response_time: PFC is off (pfc.priorities is empty)");
	expect_error("[pfcwd]\nenable = false\naction = alert\n",
		     "x.ini:3: pfcwd.action: the PFC watchdog is off (pfcwd.enable is false)");
	expect_error("[pfcwd]\ndetection_time = 1ms\nenable = no\n",
		     "x.ini:2: pfcwd.detection_time: the PFC watchdog is off (pfcwd.enable is false)");
	/* unused defaults are fine */
	scn_delete(scn_ok("[pfc]\npriorities =\n[pfcwd]\nenable = false\n"));
	scn_delete(scn_ok("[pfc]\npriorities = 3\nheadroom = 1KB\n[pfcwd]\nenable = true\naction = alert\n"));
}
END_TEST

/* ---- the shared pool ---- */

START_TEST(test_err_pool)
{
	/* leaf: 10 ports x 8 PGs x 4158 = 332640, 8 x 71954 = 575632, 2 x 85454 = 170908 */
	expect_error("[buffer]\nsize = 1MB\n",
		     "x.ini:2: buffer.size: 1MB leaves no shared pool on leaf switches: 1MB - 10 ports x 8 PGs x 4158B reserved"
		     " - 8 host ports x 1 lossless PG x 71954B headroom - 2 fabric ports x 1 lossless PG x 85454B headroom"
		     " = -79180B");
	/* exactly zero is no pool either: 1079180 B */
	expect_error("[buffer]\nsize = 1079180B\n",
		     "x.ini:2: buffer.size: 1079.18KB leaves no shared pool on leaf switches: ");
	scn_delete(scn_ok("[buffer]\nsize = 1079181B\n"));
	/* buffer.size not given: the latest key the pool depends on */
	expect_error("[pfc]\nheadroom = 10MB\n",
		     "x.ini:2: pfc.headroom: buffer.size 64MB leaves no shared pool on leaf switches: 64MB - 10 ports x 8 PGs x 4158B reserved"
		     " - 8 host ports x 1 lossless PG x 10000000B headroom - 2 fabric ports x 1 lossless PG x 10000000B headroom"
		     " = -36332640B");
	expect_error("[topology]\nleaves = 1024\nhosts_per_leaf = 2\n",
		     "x.ini:3: topology.hosts_per_leaf: buffer.size 64MB leaves no shared pool on spine switches: 64MB - 1024 ports x 8 PGs x 4158B reserved"
		     " - 1024 fabric ports x 1 lossless PG x 85454B headroom = -57567232B");
	/* PFC off: no headroom term; the reserved default follows the mtu (9062) */
	expect_error("[topology]\nkind = star\nhosts = 4\nmtu = 9000\n[pfc]\npriorities =\n[buffer]\nsize = 200KB\n",
		     "x.ini:8: buffer.size: 200KB leaves no shared pool on sw0: 200KB - 4 ports x 8 PGs x 9062B reserved = -89984B");
	/* two lossless priorities: two headrooms per port */
	expect_error("[pfc]\npriorities = 3,4\n[buffer]\nsize = 1MB\nreserved = 0B\n",
		     "x.ini:4: buffer.size: 1MB leaves no shared pool on leaf switches: 1MB - 10 ports x 8 PGs x 0B reserved"
		     " - 8 host ports x 2 lossless PGs x 71954B headroom - 2 fabric ports x 2 lossless PGs x 85454B headroom"
		     " = -493080B");
	/* fat-tree k = 4: core has 4 fabric ports at 100m of 100Gbps */
	expect_error("[topology]\nkind = fat-tree\nk = 4\nfabric_link = 100Gbps\nfabric_cable = 100m\n"
		     "[buffer]\nsize = 300KB\n",
		     "x.ini:7: buffer.size: 300KB leaves no shared pool on edge switches: 300KB - 4 ports x 8 PGs x 4158B reserved"
		     " - 2 host ports x 1 lossless PG x 71954B headroom - 2 fabric ports x 1 lossless PG x 50250B headroom"
		     " = -77464B");
	/* a --set that exhausts it: found at finalize */
	expect_set_error("[sim]\nseed = 3\n", "buffer.size=1MB",
			 "--set: buffer.size: 1MB leaves no shared pool on leaf switches: ");
}
END_TEST

/* ---- PFC derived values ---- */

START_TEST(test_quanta_ps)
{
	/* DESIGN B3: 65535 quanta = 83.9 us at 400G, 335.5 us at 100G */
	ck_assert_int_eq(pfc_quanta_ps(65535, INT64_C(400000000000)), 83884800);
	ck_assert_int_eq(pfc_quanta_ps(65535, INT64_C(100000000000)), 335539200);
	ck_assert_int_eq(pfc_quanta_ps(905, INT64_C(400000000000)), 1158400);
	ck_assert_int_eq(pfc_quanta_ps(1, INT64_C(400000000000)), 1280);
	ck_assert_int_eq(pfc_quanta_ps(0, INT64_C(400000000000)), 0);
	/* 512 bits at 3Gbps = 170666.67 ps: rounded up */
	ck_assert_int_eq(pfc_quanta_ps(1, INT64_C(3000000000)), 170667);
	/* 65535 x 512 x 10^12 overflows 64 bits: still exact (1Gbps, 1.6Tbps) */
	ck_assert_int_eq(pfc_quanta_ps(65535, INT64_C(1000000000)), INT64_C(33553920000));
	ck_assert_int_eq(pfc_quanta_ps(65535, INT64_C(1600000000000)), 20971200);
	/* 65535 x 512 / 7e9 s = 4793417142.857 ps */
	ck_assert_int_eq(pfc_quanta_ps(65535, INT64_C(7000000000)), INT64_C(4793417143));
}
END_TEST

START_TEST(test_response_quanta)
{
	static const struct {
		int64_t bps;
		uint32_t quanta;
	} t[] = {
		{ INT64_C(1000000000), 67 },	  /* below 10G: 67 */
		{ INT64_C(9999999999), 67 },	  { INT64_C(10000000000), 67 },
		{ INT64_C(24999999999), 67 },	  { INT64_C(25000000000), 80 },
		{ INT64_C(30000000000), 80 },	  { INT64_C(40000000000), 118 },
		{ INT64_C(50000000000), 147 },	  { INT64_C(99000000000), 147 },
		{ INT64_C(100000000000), 394 },  { INT64_C(150000000000), 394 },
		{ INT64_C(200000000000), 453 },  { INT64_C(399999999999), 453 },
		{ INT64_C(400000000000), 905 },  { INT64_C(800000000000), 905 },
		{ INT64_C(1600000000000), 905 },
	};
	struct scenario *s = scn_new();
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		ck_assert_msg(pfc_response_quanta(t[i].bps) == t[i].quanta,
			      "%lld bps: %u quanta, expected %u", (long long)t[i].bps,
			      pfc_response_quanta(t[i].bps), t[i].quanta);
	/* auto: the table's quanta as time; given: the value */
	ck_assert_int_eq(scenario_response_ps(s, INT64_C(400000000000)), 1158400);
	ck_assert_int_eq(scenario_response_ps(s, INT64_C(100000000000)), 394 * 5120);
	ck_assert_int_eq(scenario_response_ps(s, INT64_C(25000000000)), 80 * 20480);
	s->response_ps = 1000000;
	ck_assert_int_eq(scenario_response_ps(s, INT64_C(400000000000)), 1000000);
	scn_delete(s);
}
END_TEST

START_TEST(test_headroom_auto)
{
	struct scenario *s = scn_new();

	/* 2 x 4178 frames + 2 x 15 ns x 50 B/ns + 905 quanta x 64 B + 4178 */
	ck_assert_int_eq(2 * 4178 + 1500 + 905 * 64 + 4178, 71954);
	ck_assert_int_eq(scenario_headroom_bytes(s, INT64_C(400000000000), 3000), 71954);
	/* 100Gbps over 100 m: + 2 x 500 ns x 12.5 B/ns + 394 quanta */
	ck_assert_int_eq(scenario_headroom_bytes(s, INT64_C(100000000000), 100000),
			 2 * 4178 + 12500 + 394 * 64 + 4178);
	ck_assert_int_eq(scenario_headroom_bytes(s, INT64_C(100000000000), 100000), 50250);
	/* the default fabric port: 30 m at 400Gbps */
	ck_assert_int_eq(scenario_headroom_bytes(s, INT64_C(400000000000), 30000), 85454);
	/* no cable; 1 mm at 1Gbps is 0.00125 B: rounded up to 1 */
	ck_assert_int_eq(scenario_headroom_bytes(s, INT64_C(1000000000), 0), 3 * 4178 + 67 * 64);
	ck_assert_int_eq(scenario_headroom_bytes(s, INT64_C(1000000000), 1), 3 * 4178 + 1 + 67 * 64);
	/* auto response bytes are exactly quanta x 64, even where the time is
	 * not a whole ps (67 quanta at 3Gbps = 11434666.67 ps, rounded up) */
	ck_assert_int_eq(scenario_response_ps(s, INT64_C(3000000000)), 11434667);
	ck_assert_int_eq(scenario_headroom_bytes(s, INT64_C(3000000000), 0), 3 * 4178 + 67 * 64);
	/* the longest cable at the fastest link does not overflow: 2 x 50 us x 200 B/ns */
	ck_assert_int_eq(scenario_headroom_bytes(s, INT64_C(1600000000000), 10000000),
			 3 * 4178 + INT64_C(20000000) + 905 * 64);
	/* another mtu */
	s->mtu_bytes = 9000;
	ck_assert_int_eq(scenario_headroom_bytes(s, INT64_C(400000000000), 3000),
			 3 * 9082 + 1500 + 905 * 64);
	s->mtu_bytes = 4096;
	/* a given response time: time x rate, rounded up */
	s->response_ps = 1000000; /* 1us at 100Gbps = 12500 B */
	ck_assert_int_eq(scenario_headroom_bytes(s, INT64_C(100000000000), 100000),
			 2 * 4178 + 12500 + 12500 + 4178);
	s->response_ps = 1; /* 1 ps at 100Gbps = 0.0125 B */
	ck_assert_int_eq(scenario_headroom_bytes(s, INT64_C(100000000000), 0), 3 * 4178 + 1);
	/* a given headroom is returned as is */
	s->headroom_bytes = 100000;
	ck_assert_int_eq(scenario_headroom_bytes(s, INT64_C(400000000000), 3000), 100000);
	ck_assert_int_eq(scenario_headroom_bytes(s, INT64_C(1000000000), 0), 100000);
	scn_delete(s);
}
END_TEST

START_TEST(test_cell_and_pool)
{
	struct scenario *s = scn_ok("");

	/* byte exact */
	ck_assert_int_eq(mmu_charge(s->cell_bytes, 4158), 4158);
	ck_assert_int_eq(mmu_charge(s->cell_bytes, 1), 1);
	s->cell_bytes = 256;
	ck_assert_int_eq(mmu_charge(s->cell_bytes, 4158), 17 * 256);
	ck_assert_int_eq(mmu_charge(s->cell_bytes, 4096), 4096);
	ck_assert_int_eq(mmu_charge(s->cell_bytes, 1), 256);
	ck_assert_int_eq(mmu_charge(s->cell_bytes, 0), 0);
	s->cell_bytes = 0;
	/* default leaf: 64MB - 10 x 8 x 4158 - 8 x 71954 - 2 x 85454 */
	ck_assert_int_eq(scenario_pool_bytes(s, 8, 2), 64000000 - 332640 - 575632 - 170908);
	/* default spine: 4 fabric ports */
	ck_assert_int_eq(scenario_pool_bytes(s, 0, 4), 64000000 - 4 * 8 * 4158 - 4 * 85454);
	/* two lossless priorities: two headrooms per port */
	s->pfc_prios = (1u << 3) | (1u << 4);
	ck_assert_int_eq(scenario_pool_bytes(s, 8, 2),
			 64000000 - 332640 - 2 * 575632 - 2 * 170908);
	/* PFC off: reserved only */
	s->pfc_prios = 0;
	ck_assert_int_eq(scenario_pool_bytes(s, 8, 2), 64000000 - 332640);
	/* may be negative */
	s->buffer_bytes = 1000;
	ck_assert_int_eq(scenario_pool_bytes(s, 8, 2), 1000 - 332640);
	scn_delete(s);
	/* an unfinalized scenario: the reserved default from its mtu */
	s = scn_new();
	s->mtu_bytes = 9000;
	ck_assert_int_eq(scenario_pool_bytes(s, 1, 0),
			 64000000 - 8 * 9062 - (3 * 9082 + 1500 + 905 * 64));
	scn_delete(s);
}
END_TEST

/* ---- --set of the new keys ---- */

START_TEST(test_set_new_keys)
{
	struct scenario *s = scn_new();
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
	scn_delete(s);
}
END_TEST

START_TEST(test_set_new_errors)
{
	expect_set_error("[pfc]\npriorities =\n", "pfc.headroom=1KB",
			 "--set: pfc.headroom: PFC is off (pfc.priorities is empty; set pfc.priorities first)");
	expect_set_error("[pfcwd]\nenable = false\n", "pfcwd.action=alert",
			 "--set: pfcwd.action: the PFC watchdog is off (pfcwd.enable is false; set pfcwd.enable first)");
	expect_set_error(NULL, "pfc.priorities=1,1", "--set: pfc.priorities: priority 1 listed twice");
	expect_set_error(NULL, "buffer.size=0B", "--set: buffer.size: 0B out of range (above 0, at most 64GiB)");
	expect_set_error(NULL, "output.queues=some", "--set: output.queues: ");
	expect_set_error(NULL, "criteria.max_pause_frame_rate=-5",
			 "--set: criteria.max_pause_frame_rate: ");
	expect_set_error(NULL, "fault.y.node=h1", "--set: fault.y.node: no fault y yet (give fault.y.kind first)");
	expect_set_error("[fault.y]\nkind = link-down\nlink = leaf0-spine0\n", "fault.y.node=h1",
			 "--set: fault.y.node: only for kind = pause-storm or slow-receiver (kind is link-down; set fault.y.kind first)");
	expect_set_error(NULL, "fault.y.kind=slow-receiver", "--set: fault.y.node: missing (slow-receiver needs a host");
	/* --set changes what a file's fault depends on: finalize points at [fault.NAME] */
	expect_set_error("[sim]\n[fault.s]\nkind = pause-storm\nnode = h20\n", "topology.leaves=2",
			 "x.ini:2: fault.s.node: h20 out of range (h0-h15)");
	expect_set_error("[sim]\n[fault.s]\nkind = pause-storm\nnode = h1\npriority = 3\n", "pfc.priorities=4",
			 "x.ini:2: fault.s.priority: 3 is not a lossless priority (pfc.priorities = 4)");
	expect_set_error("[sim]\n[fault.s]\nkind = pause-storm\nnode = h1\n", "pfc.priorities=",
			 "x.ini:2: fault.s.kind: pause-storm needs PFC on (pfc.priorities is empty)");
	expect_set_error("[fault.s]\nkind = slow-receiver\nnode = h1\nrate = 100Gbps\n", "topology.host_link=100Gbps",
			 "x.ini:1: fault.s.rate: 100Gbps must be below topology.host_link (100Gbps)");
	expect_set_error("[fault.c]\nkind = link-down\nlink = h31-leaf3\n", "topology.hosts_per_leaf=4",
			 "x.ini:1: fault.c.link: h31 out of range (h0-h15)");
	expect_set_error(NULL, "buffer.size=1MB", "--set: buffer.size: 1MB leaves no shared pool on leaf switches: ");
}
END_TEST

/* ---- print and load back, with every new section ---- */

static void check_round_trip_pfc(const char *text)
{
	struct scenario *a = scn_ok(text), *b = scn_new();
	struct scn_error err;
	char *pa = print_to_string(a), *pb;
	uint32_t i;

	ck_assert_msg(scenario_load_string(b, "x.ini", pa, &err) == 0,
		      "printed scenario does not load: %s\n%s", err.msg, pa);
	ck_assert_msg(scenario_finalize(b, &err) == 0, "finalize: %s", err.msg);
	pb = print_to_string(b);
	ck_assert_str_eq(pa, pb);
	ck_assert_int_eq(a->buffer_bytes, b->buffer_bytes);
	ck_assert_int_eq(a->reserved_bytes, b->reserved_bytes);
	ck_assert_int_eq(a->dynamic_th, b->dynamic_th);
	ck_assert_int_eq(a->lossy_dynamic_th, b->lossy_dynamic_th);
	ck_assert_int_eq(a->cell_bytes, b->cell_bytes);
	ck_assert_uint_eq(a->pfc_prios, b->pfc_prios);
	ck_assert_int_eq(a->nic_pause_watchdog_ps, b->nic_pause_watchdog_ps);
	ck_assert_int_eq(a->sample_interval_ps, b->sample_interval_ps);
	ck_assert_int_eq(a->pfcwd_enable, b->pfcwd_enable);
	if (a->pfc_prios) {
		ck_assert_int_eq(a->headroom_bytes, b->headroom_bytes);
		ck_assert_int_eq(a->xon_offset_bytes, b->xon_offset_bytes);
		ck_assert_uint_eq(a->pause_quanta, b->pause_quanta);
		ck_assert_int_eq(a->response_ps, b->response_ps);
	}
	if (a->pfcwd_enable) {
		ck_assert_int_eq(a->pfcwd_detect_ps, b->pfcwd_detect_ps);
		ck_assert_int_eq(a->pfcwd_restore_ps, b->pfcwd_restore_ps);
		ck_assert_int_eq(a->pfcwd_poll_ps, b->pfcwd_poll_ps);
		ck_assert_int_eq(a->pfcwd_action, b->pfcwd_action);
	}
	ck_assert_uint_eq(a->nfaults, b->nfaults);
	for (i = 0; i < a->nfaults; i++) {
		const struct scn_fault *fa = &a->faults[i], *fb = &b->faults[i];

		ck_assert_str_eq(fa->name, fb->name);
		ck_assert_int_eq(fa->kind, fb->kind);
		ck_assert_uint_eq(fa->host, fb->host);
		ck_assert_str_eq(fa->link_text, fb->link_text);
		ck_assert_int_eq(memcmp(fa->end_node, fb->end_node, sizeof(fa->end_node)), 0);
		ck_assert_int_eq(memcmp(fa->end_is_host, fb->end_is_host, sizeof(fa->end_is_host)), 0);
		ck_assert_int_eq(fa->start_ps, fb->start_ps);
		ck_assert_int_eq(fa->duration_ps, fb->duration_ps);
		ck_assert_uint_eq(fa->priority, fb->priority);
		ck_assert_int_eq(fa->rate_bps, fb->rate_bps);
	}
	free(pa);
	free(pb);
	scn_delete(a);
	scn_delete(b);
}

START_TEST(test_round_trip_pfc)
{
	check_round_trip_pfc("[buffer]\nsize = 32MiB\nreserved = 0B\ndynamic_th = -3\n"
			     "lossy_dynamic_th = 7\ncell = 256B\n"
			     "[pfc]\npriorities = 4,3\nheadroom = 100KB\nxon_offset = 1.5KB\n"
			     "pause_quanta = 1\nresponse_time = 1.001us\n"
			     "[pfcwd]\nenable = on\ndetection_time = 1us\nrestoration_time = 10s\n"
			     "poll_interval = 1.5ms\naction = forward\n"
			     "[nic]\npause_watchdog = 100ms\n[output]\nsample_interval = 100ns\n"
			     "[job.in]\npattern = incast\n"
			     "[fault.storm]\nkind = pause-storm\nnode = h31\nstart = 1ms\nduration = 2.5ms\n"
			     "[fault.slow]\nkind = slow-receiver\nnode = h0\nrate = 1.5Gbps\n"
			     "[fault.cut]\nkind = link-down\nlink = h3 - leaf0\nstart = 10us\n");
	/* off: the keys that do not apply are not printed */
	check_round_trip_pfc("[pfc]\npriorities =\n[pfcwd]\nenable = false\n[buffer]\ncell = 0\n"
			     "[topology]\nmtu = 9000\n"
			     "[fault.cut]\nkind = link-down\nlink = spine1-leaf3\n");
	check_round_trip_pfc("[topology]\nkind = fat-tree\nk = 4\n"
			     "[fault.a]\nkind = link-down\nlink = agg1-core2\n");
}
END_TEST

START_TEST(test_print_pfc_content)
{
	struct scenario *s = scn_ok("[pfc]\npriorities = 4,2\n"
				    "[fault.storm]\nkind = pause-storm\nnode = h3\n"
				    "[job.in]\npattern = incast\n"
				    "[fault.cut]\nkind = link-down\nlink = h3-leaf0\n");
	char *p = print_to_string(s), *jobs, *faults;

	ck_assert_ptr_nonnull(strstr(p, "\npriorities = 2,4\n"));
	/* faults after jobs; only the keys of their kind; the default
	 * priority resolved to the lowest lossless one */
	jobs = strstr(p, "\n[job.in]\n");
	faults = strstr(p, "\n[fault.storm]\n");
	ck_assert_ptr_nonnull(jobs);
	ck_assert_ptr_nonnull(faults);
	ck_assert(jobs < faults);
	ck_assert_ptr_nonnull(strstr(p, "\n[fault.storm]\nkind = pause-storm\nnode = h3\nstart = 0ps\n"
					"duration = 0ps\npriority = 2\n"));
	ck_assert_ptr_nonnull(strstr(p, "\n[fault.cut]\nkind = link-down\nlink = h3-leaf0\nstart = 0ps\n"
					"duration = 0ps\n"));
	ck_assert(p[strlen(p) - 1] == '\n');
	free(p);
	scn_delete(s);
	/* PFC and the watchdog off: an empty list, no other key */
	s = scn_ok("[pfc]\npriorities =\n[pfcwd]\nenable = false\n");
	p = print_to_string(s);
	ck_assert_ptr_nonnull(strstr(p, "\n[pfc]\npriorities =\n\n[pfcwd]\nenable = false\n\n[ecn]\n"));
	ck_assert_ptr_null(strstr(p, "headroom"));
	ck_assert_ptr_null(strstr(p, "detection_time"));
	free(p);
	scn_delete(s);
}
END_TEST

START_TEST(test_print_derived_pfc)
{
	struct scenario *s = scn_ok("");
	char *p = derived_to_string(s);

	ck_assert_ptr_nonnull(strstr(p, "# buffer: lossless alpha 2^0 = 1, lossy alpha 2^3 = 8, byte exact accounting\n"));
	ck_assert_ptr_nonnull(strstr(p, "# PFC on priorities 3: per lossless PG of each port\n"));
	ck_assert_ptr_nonnull(strstr(p, "# leaf ports to hosts (400Gbps, 3m): response 905 quanta = 1158.4ns; "
					"headroom 71954B = 2 x 4178B frames + 1500B cable round trip + 57920B response"
					" + 4178B frame in flight\n"));
	ck_assert_ptr_nonnull(strstr(p, "# leaf ports to spines (400Gbps, 30m): response 905 quanta = 1158.4ns; "
					"headroom 85454B = 2 x 4178B frames + 15000B cable round trip + 57920B response"
					" + 4178B frame in flight\n"));
	ck_assert_ptr_nonnull(strstr(p, "# spine ports to leaves (400Gbps, 30m): "));
	ck_assert_ptr_nonnull(strstr(p, "# NIC ports to leaves (400Gbps, 3m): response 905 quanta"));
	ck_assert_ptr_nonnull(strstr(p, "# pause time of pause_quanta 65535: 83.8848us at 400Gbps (host_link), "
					"83.8848us at 400Gbps (fabric_link)\n"));
	ck_assert_ptr_nonnull(strstr(p, "# shared pool of each of the 4 leaf switches: 64MB - 10 ports x 8 PGs x 4158B reserved"
					" - 8 host ports x 1 lossless PG x 71954B headroom - 2 fabric ports x 1 lossless PG"
					" x 85454B headroom = 62920820B (98.3% of buffer.size)\n"));
	ck_assert_ptr_nonnull(strstr(p, "# shared pool of each of the 2 spine switches: 64MB - 4 ports x 8 PGs x 4158B reserved"
					" - 4 fabric ports x 1 lossless PG x 85454B headroom = 63525128B"));
	free(p);
	scn_delete(s);
	/* given values are named; another tier set; the pause time per rate */
	s = scn_ok("[topology]\nkind = fat-tree\nk = 4\nfabric_link = 100Gbps\n"
		   "[pfc]\nheadroom = 100KB\nresponse_time = 1us\n[buffer]\ncell = 256B\ndynamic_th = -2\n");
	p = derived_to_string(s);
	ck_assert_ptr_nonnull(strstr(p, "# buffer: lossless alpha 2^-2 = 1/4, lossy alpha 2^3 = 8, accounting in 256B cells"
					" (a 4158B data frame is charged 4352B)\n"));
	ck_assert_ptr_nonnull(strstr(p, "# edge ports to hosts (400Gbps, 3m): response 1us (pfc.response_time); "
					"headroom 100000B (pfc.headroom, given; auto would be 64034B)\n"));
	ck_assert_ptr_nonnull(strstr(p, "# agg ports to cores (100Gbps, 30m): "));
	ck_assert_ptr_nonnull(strstr(p, "# core ports to aggs (100Gbps, 30m): "));
	ck_assert_ptr_nonnull(strstr(p, "# NIC ports to edges (400Gbps, 3m): "));
	ck_assert_ptr_nonnull(strstr(p, "83.8848us at 400Gbps (host_link), 335.5392us at 100Gbps (fabric_link)\n"));
	ck_assert_ptr_nonnull(strstr(p, "# shared pool of each of the 4 core switches: "));
	free(p);
	scn_delete(s);
	/* PFC off */
	s = scn_ok("[topology]\nkind = star\nhosts = 4\n[pfc]\npriorities =\n");
	p = derived_to_string(s);
	ck_assert_ptr_nonnull(strstr(p, "# PFC off (pfc.priorities is empty): no headroom, no pause frames\n"));
	ck_assert_ptr_nonnull(strstr(p, "# shared pool of sw0: 64MB - 4 ports x 8 PGs x 4158B reserved = 63866944B"));
	ck_assert_ptr_null(strstr(p, "headroom 7"));
	free(p);
	scn_delete(s);
}
END_TEST

/* ---- [ecn], the CNP keys of [qos], [nic], [output] (DESIGN A2, B5) ---- */

START_TEST(test_defaults_ecn_cc)
{
	struct scenario *s = scn_ok("");

	/* DESIGN A2: ecn.queues 3, kmin 150KB, kmax 1500KB, pmax 10%, dequeue */
	ck_assert_uint_eq(s->ecn_queues, 1u << 3);
	ck_assert_int_eq(s->ecn_kmin_bytes, 150000);
	ck_assert_int_eq(s->ecn_kmax_bytes, 1500000);
	ck_assert_int_eq(s->ecn_pmax_ppb, 100000000);
	ck_assert_int_eq(s->ecn_mark_point, SCN_MARK_DEQUEUE);
	/* qos.cnp_dscp 48, CNPs on a strict queue; nic.cc dcqcn, rto 4ms */
	ck_assert_uint_eq(s->cnp_dscp, 48);
	ck_assert_int_eq(s->cnp_priority_strict, 1);
	ck_assert_int_eq(s->cc, SCN_CC_DCQCN);
	ck_assert_int_eq(s->nic_rto_ps, INT64_C(4000000000));
	ck_assert_uint_eq(s->output_rates, 64);
	ck_assert_int_eq(s->dcqcn_profile, SCN_DCQCN_NVIDIA);
	scn_delete(s);
}
END_TEST

START_TEST(test_ecn_keys)
{
	struct scenario *s = scn_ok("[ecn]\nqueues = 7, 0,3\nkmin = 0B\nkmax = 64GiB\n"
				    "pmax = 100%\nmark_point = enqueue\n");

	ck_assert_uint_eq(s->ecn_queues, (1u << 0) | (1u << 3) | (1u << 7));
	ck_assert_int_eq(s->ecn_kmin_bytes, 0);
	ck_assert_int_eq(s->ecn_kmax_bytes, INT64_C(68719476736));
	ck_assert_int_eq(s->ecn_pmax_ppb, 1000000000);
	ck_assert_int_eq(s->ecn_mark_point, SCN_MARK_ENQUEUE);
	scn_delete(s);
	/* kmax 1 B above kmin is a (steep) WRED slope */
	s = scn_ok("[ecn]\nkmin = 1.5KiB\nkmax = 1.537KB\npmax = 0.000000001\nmark_point = dequeue\n");
	ck_assert_int_eq(s->ecn_kmin_bytes, 1536);
	ck_assert_int_eq(s->ecn_kmax_bytes, 1537);
	ck_assert_int_eq(s->ecn_pmax_ppb, 1);
	ck_assert_int_eq(s->ecn_mark_point, SCN_MARK_DEQUEUE);
	scn_delete(s);
	s = scn_ok("[ecn]\npmax = 0.25\n");
	ck_assert_int_eq(s->ecn_pmax_ppb, 250000000);
	scn_delete(s);
	/* empty: ECN off; the unused kmin/kmax are not compared */
	s = scn_ok("[ecn]\nqueues =\n");
	ck_assert_uint_eq(s->ecn_queues, 0);
	scn_delete(s);
	expect_error("[ecn]\nqueues = 3,4,3\n", "x.ini:2: ecn.queues: queue 3 listed twice");
	expect_error("[ecn]\nqueues = 8\n", "x.ini:2: ecn.queues: 8 out of range (0-7)");
	expect_error("[ecn]\nqueues = 3,,4\n",
		     "x.ini:2: ecn.queues: 3,,4 is not a list of queues (0-7, e.g. 3 or 3,4; empty = ECN off)");
	expect_error("[ecn]\nkmin = 100\n", "x.ini:2: ecn.kmin: missing unit");
	expect_error("[ecn]\nkmin = 68719476737B\n", "x.ini:2: ecn.kmin: 68719476737B out of range (0-64GiB)");
	expect_error("[ecn]\nkmax = 0B\n", "x.ini:2: ecn.kmax: 0B out of range (above 0, at most 64GiB)");
	expect_error("[ecn]\npmax = 0%\n", "x.ini:2: ecn.pmax: 0% out of range (above 0, at most 100%)");
	expect_error("[ecn]\npmax = 101%\n", "x.ini:2: ecn.pmax: 101% is above 1");
	expect_error("[ecn]\npmax = 0.0000000001\n", "x.ini:2: ecn.pmax: 0.0000000001 is not a whole number of parts per billion");
	expect_error("[ecn]\nmark_point = egress\n",
		     "x.ini:2: ecn.mark_point: egress is not valid (dequeue, enqueue)");
	expect_error("[ecn]\nkmin = 1KB\nkmin = 2KB\n", "x.ini:3: ecn.kmin: given twice (first at line 2)");
}
END_TEST

START_TEST(test_err_ecn_kmax_kmin)
{
	/* the example of DESIGN A2, with the default kmin */
	expect_error("[sim]\n\n[ecn]\nkmax = 100KB\n", "x.ini:4: ecn.kmax: 100KB must be above ecn.kmin (150KB)");
	{
		struct scn_error err;
		ck_assert_ptr_null(scn_load("[ecn]\nkmax = 100KB\n", &err));
		ck_assert_str_eq(err.msg, "x.ini:2: ecn.kmax: 100KB must be above ecn.kmin (150KB)");
	}
	/* equal is not above */
	expect_error("[ecn]\nkmin = 1MB\nkmax = 1MB\n", "x.ini:3: ecn.kmax: 1MB must be above ecn.kmin (1MB)");
	/* the later key of the two is named */
	expect_error("[ecn]\nkmax = 1MB\nkmin = 2MB\n", "x.ini:3: ecn.kmin: 2MB must be below ecn.kmax (1MB)");
	expect_error("[ecn]\nkmin = 2MB\n", "x.ini:2: ecn.kmin: 2MB must be below ecn.kmax (1.5MB)");
	/* ECN on queues given after: still checked */
	expect_error("[ecn]\nkmin = 2MB\nkmax = 1MB\nqueues = 3\n",
		     "x.ini:3: ecn.kmax: 1MB must be above ecn.kmin (2MB)");
	/* --set: checked at finalize, so kmin and kmax may move in any order */
	expect_set_error(NULL, "ecn.kmax=100KB", "--set: ecn.kmax: 100KB must be above ecn.kmin (150KB)");
	expect_set_error("[ecn]\nkmin = 100KB\nkmax = 200KB\n", "ecn.kmin=200KB",
			 "--set: ecn.kmax: 200KB must be above ecn.kmin (200KB)");
	{
		struct scenario *s = scn_new();
		struct scn_error err;

		ck_assert_int_eq(scenario_set(s, "ecn.kmin=2MB", &err), 0);
		ck_assert_int_eq(scenario_set(s, "ecn.kmax=3MB", &err), 0);
		ck_assert_msg(scenario_finalize(s, &err) == 0, "%s", err.msg);
		ck_assert_int_eq(s->ecn_kmin_bytes, 2000000);
		ck_assert_int_eq(s->ecn_kmax_bytes, 3000000);
		/* ECN turned off by --set: the old values are unused */
		ck_assert_int_eq(scenario_set(s, "ecn.kmin=4MB", &err), 0);
		ck_assert_int_eq(scenario_finalize(s, &err), -1);
		ck_assert_int_eq(scenario_set(s, "ecn.queues=", &err), 0);
		ck_assert_msg(scenario_finalize(s, &err) == 0, "%s", err.msg);
		scn_delete(s);
	}
}
END_TEST

START_TEST(test_err_ecn_off)
{
	expect_error("[ecn]\nqueues =\nkmin = 100KB\n", "x.ini:3: ecn.kmin: ECN is off (ecn.queues is empty)");
	/* in any order; the earliest line */
	expect_error("[ecn]\nmark_point = enqueue\npmax = 5%\nqueues =\n",
		     "x.ini:2: ecn.mark_point: ECN is off (ecn.queues is empty)");
	expect_error("[ecn]\nkmax = 1MB\nqueues =\n", "x.ini:2: ecn.kmax: ECN is off (ecn.queues is empty)");
	expect_set_error("[ecn]\nqueues =\n", "ecn.pmax=5%",
			 "--set: ecn.pmax: ECN is off (ecn.queues is empty; set ecn.queues first)");
	scn_delete(scn_ok("[ecn]\nqueues = 1\nkmin = 1KB\nkmax = 2KB\npmax = 1%\nmark_point = enqueue\n"));
}
END_TEST

START_TEST(test_cnp_nic_output_keys)
{
	struct scenario *s = scn_ok("[qos]\ncnp_dscp = 0\ncnp_priority_strict = false\n"
				    "[nic]\ncc = none\nrto = 1us\n[output]\nrates = 0\n");

	ck_assert_uint_eq(s->cnp_dscp, 0);
	ck_assert_int_eq(s->cnp_priority_strict, 0);
	ck_assert_int_eq(s->cc, SCN_CC_NONE);
	ck_assert_int_eq(s->nic_rto_ps, 1000000);
	ck_assert_uint_eq(s->output_rates, 0);
	scn_delete(s);
	s = scn_ok("[qos]\ncnp_dscp = 63\ncnp_priority_strict = yes\n"
		   "[nic]\ncc = dcqcn\nrto = 10s\n[output]\nrates = 100000\n");
	ck_assert_uint_eq(s->cnp_dscp, 63);
	ck_assert_int_eq(s->cnp_priority_strict, 1);
	ck_assert_int_eq(s->cc, SCN_CC_DCQCN);
	ck_assert_int_eq(s->nic_rto_ps, INT64_C(10000000000000));
	ck_assert_uint_eq(s->output_rates, 100000);
	scn_delete(s);
	expect_error("[qos]\ncnp_dscp = 64\n", "x.ini:2: qos.cnp_dscp: 64 out of range (0-63)");
	expect_error("[qos]\ncnp_priority_strict = maybe\n",
		     "x.ini:2: qos.cnp_priority_strict: 'maybe' is not a boolean");
	expect_error("[nic]\ncc = timely\n", "x.ini:2: nic.cc: timely is not valid (none, dcqcn)");
	expect_error("[nic]\nrto = 999ns\n", "x.ini:2: nic.rto: 999ns out of range (1us-10s)");
	expect_error("[nic]\nrto = 10.001s\n", "x.ini:2: nic.rto: 10.001s out of range (1us-10s)");
	expect_error("[nic]\nrto = 4\n", "x.ini:2: nic.rto: missing unit");
	expect_error("[output]\nrates = 100001\n", "x.ini:2: output.rates: 100001 out of range (0-100000)");
	expect_error("[output]\nrates = -1\n", "x.ini:2: output.rates: -1 out of range (0-100000)");
	expect_error("[output]\nrates = 64flows\n", "x.ini:2: output.rates: 64flows is not an integer");
}
END_TEST

START_TEST(test_err_cnp_dscp)
{
	/* CNPs on the data DSCP: the later key given is named */
	expect_error("[qos]\ncnp_dscp = 26\n",
		     "x.ini:2: qos.cnp_dscp: 26 is also qos.data_dscp (CNPs need a DSCP of their own)");
	expect_error("[qos]\ncnp_dscp = 10\n\ndata_dscp = 10\n",
		     "x.ini:4: qos.data_dscp: DSCP 10 is also qos.cnp_dscp (CNPs need a DSCP of their own)");
	expect_error("[qos]\ndata_dscp = 48\n", "x.ini:2: qos.data_dscp: DSCP 48 is also qos.cnp_dscp");
	/* 194 = DSCP 48 << 2 | ECT(0) */
	expect_error("[qos]\nnccl_ib_tc = 194\n", "x.ini:2: qos.nccl_ib_tc: DSCP 48 is also qos.cnp_dscp");
	/* an error whatever nic.cc */
	expect_error("[nic]\ncc = none\n[qos]\ndata_dscp = 48\n", "x.ini:4: qos.data_dscp: DSCP 48 is also qos.cnp_dscp");
	/* moved apart: fine; a job's own DSCP may be the CNP's (an experiment) */
	scn_delete(scn_ok("[qos]\ndata_dscp = 48\ncnp_dscp = 46\n[job.a]\npattern = incast\ndscp = 46\n"));
	/* --set: at finalize, in either order */
	expect_set_error(NULL, "qos.cnp_dscp=26",
			 "--set: qos.cnp_dscp: 26 is also qos.data_dscp (CNPs need a DSCP of their own)");
	expect_set_error(NULL, "qos.nccl_ib_tc=192", "--set: qos.cnp_dscp: 48 is also qos.data_dscp");
	{
		struct scenario *s = scn_new();
		struct scn_error err;

		ck_assert_int_eq(scenario_set(s, "qos.data_dscp=48", &err), 0);
		ck_assert_int_eq(scenario_set(s, "qos.cnp_dscp=40", &err), 0);
		ck_assert_msg(scenario_finalize(s, &err) == 0, "%s", err.msg);
		ck_assert_uint_eq(s->data_dscp, 48);
		ck_assert_uint_eq(s->cnp_dscp, 40);
		scn_delete(s);
	}
}
END_TEST

/* ---- [dcqcn] (DESIGN B6) ---- */

#define US INT64_C(1000000) /* ps */
#define MB_S INT64_C(1000000) /* bps in 1 Mbps */

/* the knobs of one profile, in base units */
struct knobs {
	int64_t time_reset_ps, byte_reset;
	uint32_t threshold;
	int64_t ai, hai;
	uint32_t gd, min_dec_fac;
	int64_t min_rate;
	uint32_t g;
	int64_t rtt_ps, monitor_ps;
	uint32_t alpha;
	int64_t first_cnp;
	int clamp, clamp_time;
	int64_t cnps_ps;
};

/* DESIGN B6 table, written out independently of scenario.c */
static const struct knobs nvidia_knobs = {
	300 * US, 32767 * 64, 1, 5 * MB_S, 50 * MB_S, 11, 50, 1 * MB_S, 1019, 1 * US, 4 * US,
	1023, 0, 0, 1, 4 * US,
};
static const struct knobs paper_knobs = {
	55 * US, 10000000, 5, 40 * MB_S, 200 * MB_S, 11, 0, 1 * MB_S, 1020, 55 * US, 0,
	1023, 0, 1, 1, 50 * US,
};
static const struct knobs hpcc_knobs = {
	300 * US, 0, 1, 20 * MB_S, 200 * MB_S, 11, 0, 1000 * MB_S, 1020, 1 * US, 4 * US,
	1023, 0, 0, 1, 0,
};

static void check_knobs(const struct scn_dcqcn *d, const struct knobs *k)
{
	ck_assert_int_eq(d->rpg_time_reset_ps, k->time_reset_ps);
	ck_assert_int_eq(d->rpg_byte_reset_bytes, k->byte_reset);
	ck_assert_uint_eq(d->rpg_threshold, k->threshold);
	ck_assert_int_eq(d->rpg_ai_rate_bps, k->ai);
	ck_assert_int_eq(d->rpg_hai_rate_bps, k->hai);
	ck_assert_uint_eq(d->rpg_gd, k->gd);
	ck_assert_uint_eq(d->rpg_min_dec_fac_pct, k->min_dec_fac);
	ck_assert_int_eq(d->rpg_min_rate_bps, k->min_rate);
	ck_assert_uint_eq(d->dce_tcp_g, k->g);
	ck_assert_int_eq(d->dce_tcp_rtt_ps, k->rtt_ps);
	ck_assert_int_eq(d->rate_reduce_monitor_period_ps, k->monitor_ps);
	ck_assert_uint_eq(d->initial_alpha_value, k->alpha);
	ck_assert_int_eq(d->rate_to_set_on_first_cnp_bps, k->first_cnp);
	ck_assert_int_eq(d->clamp_tgt_rate, k->clamp);
	ck_assert_int_eq(d->clamp_tgt_rate_after_time_inc, k->clamp_time);
	ck_assert_int_eq(d->min_time_between_cnps_ps, k->cnps_ps);
}

START_TEST(test_dcqcn_profiles)
{
	struct scenario *s = scn_new();

	/* scenario_init: nvidia */
	ck_assert_int_eq(s->dcqcn_profile, SCN_DCQCN_NVIDIA);
	check_knobs(&s->dcqcn, &nvidia_knobs);
	ck_assert_int_eq(s->dcqcn.rpg_byte_reset_bytes, 2097088);
	ck_assert_int_eq(s->dcqcn.rpg_ai_rate_bps, 5000000);
	ck_assert_int_eq(s->dcqcn.cnp_scope, SCN_CNP_SCOPE_QP);
	scn_delete(s);
	s = scn_ok("[dcqcn]\nprofile = nvidia\n");
	check_knobs(&s->dcqcn, &nvidia_knobs);
	scn_delete(s);
	s = scn_ok("[dcqcn]\nprofile = paper\n");
	ck_assert_int_eq(s->dcqcn_profile, SCN_DCQCN_PAPER);
	check_knobs(&s->dcqcn, &paper_knobs);
	ck_assert_int_eq(s->dcqcn.cnp_scope, SCN_CNP_SCOPE_QP);
	scn_delete(s);
	s = scn_ok("[dcqcn]\nprofile = hpcc\n");
	ck_assert_int_eq(s->dcqcn_profile, SCN_DCQCN_HPCC);
	check_knobs(&s->dcqcn, &hpcc_knobs);
	scn_delete(s);
	/* back and forth in --set: each profile's own defaults */
	s = scn_new();
	{
		struct scn_error err;

		ck_assert_int_eq(scenario_set(s, "dcqcn.profile=hpcc", &err), 0);
		check_knobs(&s->dcqcn, &hpcc_knobs);
		ck_assert_int_eq(scenario_set(s, "dcqcn.profile=paper", &err), 0);
		check_knobs(&s->dcqcn, &paper_knobs);
		ck_assert_int_eq(scenario_set(s, "dcqcn.profile=nvidia", &err), 0);
		check_knobs(&s->dcqcn, &nvidia_knobs);
	}
	scn_delete(s);
}
END_TEST

START_TEST(test_dcqcn_knob_overrides_profile)
{
	struct knobs want = paper_knobs;
	struct scenario *s;
	struct scn_error err;

	/* before and after `profile`: the knob wins either way, even a knob
	 * given with the old profile's default (5 Mbps is nvidia's) */
	s = scn_ok("[dcqcn]\nrpg_ai_rate = 5\nrpg_threshold = 3\nprofile = paper\nrpg_min_rate = 2\n");
	want.ai = 5 * MB_S;
	want.threshold = 3;
	want.min_rate = 2 * MB_S;
	check_knobs(&s->dcqcn, &want);
	scn_delete(s);
	/* cnp_scope is not a profile setting */
	s = scn_ok("[dcqcn]\ncnp_scope = port\nprofile = hpcc\n");
	ck_assert_int_eq(s->dcqcn.cnp_scope, SCN_CNP_SCOPE_PORT);
	check_knobs(&s->dcqcn, &hpcc_knobs);
	scn_delete(s);

	/* --set of a knob over a file's profile */
	s = scn_new();
	ck_assert_int_eq(scenario_load_string(s, "x.ini", "[dcqcn]\nprofile = paper\n", &err), 0);
	ck_assert_int_eq(scenario_set(s, "dcqcn.rpg_ai_rate=10", &err), 0);
	ck_assert_msg(scenario_finalize(s, &err) == 0, "%s", err.msg);
	want = paper_knobs;
	want.ai = 10 * MB_S;
	check_knobs(&s->dcqcn, &want);
	scn_delete(s);

	/* --set of the profile over a file's knobs: knobs whose value differs
	 * from the old profile's default are kept, the others follow the new
	 * profile (a knob given with exactly the old default follows too:
	 * struct scenario does not record what was given) */
	s = scn_new();
	ck_assert_int_eq(scenario_load_string(s, "x.ini",
					      "[dcqcn]\nrpg_ai_rate = 10\nrpg_hai_rate = 50\n", &err), 0);
	ck_assert_int_eq(scenario_set(s, "dcqcn.profile=paper", &err), 0);
	ck_assert_msg(scenario_finalize(s, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(s->dcqcn_profile, SCN_DCQCN_PAPER);
	want = paper_knobs;
	want.ai = 10 * MB_S; /* kept */
	check_knobs(&s->dcqcn, &want); /* hai: 200 Mbps, the paper's */
	scn_delete(s);

	/* a knob --set before the profile --set is kept too */
	s = scn_new();
	ck_assert_int_eq(scenario_set(s, "dcqcn.rpg_gd=12", &err), 0);
	ck_assert_int_eq(scenario_set(s, "dcqcn.profile=hpcc", &err), 0);
	want = hpcc_knobs;
	want.gd = 12;
	check_knobs(&s->dcqcn, &want);
	scn_delete(s);
}
END_TEST

START_TEST(test_dcqcn_bare_and_units)
{
	struct scenario *s = scn_ok("[dcqcn]\nrpg_time_reset = 300us\nrpg_byte_reset = 2MB\n"
				    "rpg_ai_rate = 5Mbps\nrpg_hai_rate = 1.5Gbps\nrpg_min_rate = 2.5\n"
				    "dce_tcp_rtt = 1.5\nrate_reduce_monitor_period = 0.5ms\n"
				    "rate_to_set_on_first_cnp = 100Gbps\nmin_time_between_cnps = 0\n"
				    "clamp_tgt_rate = true\nclamp_tgt_rate_after_time_inc = 0\n"
				    "rpg_threshold = 31\nrpg_gd = 20\nrpg_min_dec_fac = 100\n"
				    "dce_tcp_g = 0\ninitial_alpha_value = 0\ncnp_scope = qp\n");
	const struct scn_dcqcn *d = &s->dcqcn;

	ck_assert_int_eq(d->rpg_time_reset_ps, 300 * US);
	ck_assert_int_eq(d->rpg_byte_reset_bytes, 2000000); /* exact, not a multiple of 64 */
	ck_assert_int_eq(d->rpg_ai_rate_bps, 5000000);
	ck_assert_int_eq(d->rpg_hai_rate_bps, 1500000000);
	ck_assert_int_eq(d->rpg_min_rate_bps, 2500000);
	ck_assert_int_eq(d->dce_tcp_rtt_ps, 1500000);
	ck_assert_int_eq(d->rate_reduce_monitor_period_ps, 500 * US);
	ck_assert_int_eq(d->rate_to_set_on_first_cnp_bps, INT64_C(100000000000));
	ck_assert_int_eq(d->min_time_between_cnps_ps, 0);
	ck_assert_int_eq(d->clamp_tgt_rate, 1);
	ck_assert_int_eq(d->clamp_tgt_rate_after_time_inc, 0);
	ck_assert_uint_eq(d->rpg_threshold, 31);
	ck_assert_uint_eq(d->rpg_gd, 20);
	ck_assert_uint_eq(d->rpg_min_dec_fac_pct, 100);
	ck_assert_uint_eq(d->dce_tcp_g, 0);
	ck_assert_uint_eq(d->initial_alpha_value, 0);
	scn_delete(s);
	/* bare numbers: us, Mbps, 64-byte units; exact fractions allowed */
	s = scn_ok("[dcqcn]\nrpg_time_reset = 1.000001\nrpg_byte_reset = 1.5\nrpg_ai_rate = 0\n"
		   "rpg_hai_rate = 1.001\nrate_to_set_on_first_cnp = 0Mbps\n"
		   "min_time_between_cnps = 1000000\nrpg_min_rate = 1600000\n"
		   "dce_tcp_rtt = 1\nrate_reduce_monitor_period = 0.000001\n");
	d = &s->dcqcn;
	ck_assert_int_eq(d->rpg_time_reset_ps, 1000001);
	ck_assert_int_eq(d->rpg_byte_reset_bytes, 96);
	ck_assert_int_eq(d->rpg_ai_rate_bps, 0);
	ck_assert_int_eq(d->rpg_hai_rate_bps, 1001000);
	ck_assert_int_eq(d->rate_to_set_on_first_cnp_bps, 0);
	ck_assert_int_eq(d->min_time_between_cnps_ps, UNITS_PS_PER_S);
	ck_assert_int_eq(d->rpg_min_rate_bps, INT64_C(1600000000000));
	ck_assert_int_eq(d->dce_tcp_rtt_ps, 1000000);
	ck_assert_int_eq(d->rate_reduce_monitor_period_ps, 1);
	scn_delete(s);
	/* the firmware default written both ways */
	s = scn_ok("[dcqcn]\nrpg_byte_reset = 32767\n");
	ck_assert_int_eq(s->dcqcn.rpg_byte_reset_bytes, 2097088);
	scn_delete(s);
	s = scn_ok("[dcqcn]\nrpg_byte_reset = 2097088B\nrpg_ai_rate = 0.005Gbps\n");
	ck_assert_int_eq(s->dcqcn.rpg_byte_reset_bytes, 2097088);
	ck_assert_int_eq(s->dcqcn.rpg_ai_rate_bps, 5000000);
	scn_delete(s);
	/* 0 = off for the byte counter, either way */
	s = scn_ok("[dcqcn]\nrpg_byte_reset = 0B\n");
	ck_assert_int_eq(s->dcqcn.rpg_byte_reset_bytes, 0);
	scn_delete(s);
}
END_TEST

START_TEST(test_err_dcqcn)
{
	/* unknown knob */
	expect_error("[dcqcn]\nrpg_foo = 1\n", "x.ini:2: dcqcn.rpg_foo: unknown key");
	expect_error("[dcqcn]\nRPG_AI_RATE = 5\n", "x.ini:2: dcqcn.RPG_AI_RATE: unknown key");
	expect_set_error(NULL, "dcqcn.alpha=1", "--set: dcqcn.alpha: unknown key");
	/* enums and flags */
	expect_error("[dcqcn]\nprofile = mellanox\n",
		     "x.ini:2: dcqcn.profile: mellanox is not valid (nvidia, paper, hpcc)");
	expect_error("[dcqcn]\ncnp_scope = host\n", "x.ini:2: dcqcn.cnp_scope: host is not valid (qp, port)");
	expect_error("[dcqcn]\nclamp_tgt_rate = 2\n", "x.ini:2: dcqcn.clamp_tgt_rate: '2' is not a boolean");
	expect_error("[dcqcn]\nprofile = paper\nprofile = hpcc\n",
		     "x.ini:3: dcqcn.profile: given twice (first at line 2)");
	/* integers */
	expect_error("[dcqcn]\nrpg_threshold = 0\n", "x.ini:2: dcqcn.rpg_threshold: 0 out of range (1-31)");
	expect_error("[dcqcn]\nrpg_threshold = 32\n", "x.ini:2: dcqcn.rpg_threshold: 32 out of range (1-31)");
	expect_error("[dcqcn]\nrpg_gd = 9\n", "x.ini:2: dcqcn.rpg_gd: 9 out of range (10-20)");
	expect_error("[dcqcn]\nrpg_gd = 21\n", "x.ini:2: dcqcn.rpg_gd: 21 out of range (10-20)");
	expect_error("[dcqcn]\nrpg_min_dec_fac = 101\n", "x.ini:2: dcqcn.rpg_min_dec_fac: 101 out of range (0-100)");
	expect_error("[dcqcn]\ndce_tcp_g = 1024\n", "x.ini:2: dcqcn.dce_tcp_g: 1024 out of range (0-1023)");
	expect_error("[dcqcn]\ndce_tcp_g = 1019.5\n", "x.ini:2: dcqcn.dce_tcp_g: 1019.5 is not an integer");
	expect_error("[dcqcn]\ninitial_alpha_value = 1024\n",
		     "x.ini:2: dcqcn.initial_alpha_value: 1024 out of range (0-1023)");
	/* rates: 0 or 1Mbps-1600Gbps; rpg_min_rate at least 1Mbps */
	expect_error("[dcqcn]\nrpg_ai_rate = 0.5\n",
		     "x.ini:2: dcqcn.rpg_ai_rate: 0.5 out of range (0 or 1Mbps-1600Gbps; a bare number is Mbps)");
	expect_error("[dcqcn]\nrpg_hai_rate = 999Kbps\n", "x.ini:2: dcqcn.rpg_hai_rate: 999Kbps out of range");
	expect_error("[dcqcn]\nrpg_hai_rate = 1601Gbps\n", "x.ini:2: dcqcn.rpg_hai_rate: 1601Gbps out of range");
	expect_error("[dcqcn]\nrpg_min_rate = 0\n",
		     "x.ini:2: dcqcn.rpg_min_rate: 0 out of range (1Mbps-1600Gbps; a bare number is Mbps)");
	expect_error("[dcqcn]\nrpg_min_rate = 0Mbps\n", "x.ini:2: dcqcn.rpg_min_rate: 0Mbps out of range");
	expect_error("[dcqcn]\nrate_to_set_on_first_cnp = 1600001\n",
		     "x.ini:2: dcqcn.rate_to_set_on_first_cnp: 1600001 out of range (0 (keep the rate) or 1Mbps-1600Gbps");
	expect_error("[dcqcn]\nrpg_ai_rate = -5\n", "x.ini:2: dcqcn.rpg_ai_rate: -5Mbps is negative");
	expect_error("[dcqcn]\nrpg_ai_rate = 5Gb\n", "x.ini:2: dcqcn.rpg_ai_rate: unknown unit 'Gb'");
	/* times: 0-1s; the increase timer and the alpha period above 0 */
	expect_error("[dcqcn]\nrpg_time_reset = 0\n",
		     "x.ini:2: dcqcn.rpg_time_reset: 0 out of range (above 0, at most 1s; a bare number is us)");
	expect_error("[dcqcn]\ndce_tcp_rtt = 0us\n", "x.ini:2: dcqcn.dce_tcp_rtt: 0us out of range (above 0");
	expect_error("[dcqcn]\nmin_time_between_cnps = 1000001\n",
		     "x.ini:2: dcqcn.min_time_between_cnps: 1000001 out of range (0-1s; a bare number is us)");
	expect_error("[dcqcn]\nrate_reduce_monitor_period = 1.001s\n",
		     "x.ini:2: dcqcn.rate_reduce_monitor_period: 1.001s out of range (0-1s");
	/* the byte counter: 0 to 1GB */
	expect_error("[dcqcn]\nrpg_byte_reset = 15625001\n",
		     "x.ini:2: dcqcn.rpg_byte_reset: 15625001 out of range (0 (off) to 1GB; a bare number counts 64-byte units)");
	expect_error("[dcqcn]\nrpg_byte_reset = 1.1GB\n", "x.ini:2: dcqcn.rpg_byte_reset: 1.1GB out of range");
	expect_error("[dcqcn]\nrpg_byte_reset = -1\n", "x.ini:2: dcqcn.rpg_byte_reset: -1 is negative");
	expect_error("[dcqcn]\nrpg_byte_reset = 99999999999999999999\n",
		     "x.ini:2: dcqcn.rpg_byte_reset: 99999999999999999999 is too large");
	expect_error("[dcqcn]\nrpg_byte_reset = 1.2.3\n", "x.ini:2: dcqcn.rpg_byte_reset: 1.2.3 is not a number");
	expect_error("[dcqcn]\nrpg_time_reset =\n",
		     "x.ini:2: dcqcn.rpg_time_reset: empty value (above 0, at most 1s; a bare number is us)");
	/* fractions of firmware units that are not whole base units */
	expect_error("[dcqcn]\nrpg_time_reset = 1.0000001\n",
		     "x.ini:2: dcqcn.rpg_time_reset: 1.0000001us is not a whole number of picoseconds");
	expect_error("[dcqcn]\nrpg_time_reset = 1.0000001 us\n",
		     "x.ini:2: dcqcn.rpg_time_reset: 1.0000001 us is not a whole number of picoseconds");
	expect_error("[dcqcn]\nrpg_ai_rate = 1.0000001\n",
		     "x.ini:2: dcqcn.rpg_ai_rate: 1.0000001Mbps is not a whole number of bits per second");
	expect_error("[dcqcn]\nrpg_byte_reset = 1.01\n",
		     "x.ini:2: dcqcn.rpg_byte_reset: 1.01 x 64 B is not a whole number of bytes");
	expect_error("[dcqcn]\nrpg_byte_reset = 1.0078125\n",
		     "x.ini:2: dcqcn.rpg_byte_reset: 1.0078125 x 64 B is not a whole number of bytes");
	expect_error("[dcqcn]\nrpg_byte_reset = 0.5B\n",
		     "x.ini:2: dcqcn.rpg_byte_reset: 0.5B is not a whole number of bytes");
}
END_TEST

START_TEST(test_err_dcqcn_cc_none)
{
	/* every [dcqcn] key needs nic.cc = dcqcn, in any order */
	expect_error("[nic]\ncc = none\n[dcqcn]\nrpg_ai_rate = 10\n",
		     "x.ini:4: dcqcn.rpg_ai_rate: only for nic.cc = dcqcn (nic.cc is none)");
	expect_error("[dcqcn]\nprofile = paper\ncnp_scope = port\n[nic]\ncc = none\n",
		     "x.ini:2: dcqcn.profile: only for nic.cc = dcqcn (nic.cc is none)");
	expect_set_error("[nic]\ncc = none\n", "dcqcn.rpg_ai_rate=10",
			 "--set: dcqcn.rpg_ai_rate: only for nic.cc = dcqcn (nic.cc is none; set nic.cc first)");
	/* an empty [dcqcn] is fine; turning cc off by --set leaves the knobs unused */
	scn_delete(scn_ok("[nic]\ncc = none\n[dcqcn]\n"));
	{
		struct scenario *s = scn_new();
		struct scn_error err;

		ck_assert_int_eq(scenario_load_string(s, "x.ini", "[dcqcn]\nrpg_gd = 12\n", &err), 0);
		ck_assert_int_eq(scenario_set(s, "nic.cc=none", &err), 0);
		ck_assert_msg(scenario_finalize(s, &err) == 0, "%s", err.msg);
		ck_assert_int_eq(s->cc, SCN_CC_NONE);
		ck_assert_int_eq(scenario_set(s, "nic.cc=dcqcn", &err), 0);
		ck_assert_int_eq(scenario_set(s, "dcqcn.rpg_gd=13", &err), 0);
		ck_assert_uint_eq(s->dcqcn.rpg_gd, 13);
		scn_delete(s);
	}
}
END_TEST

START_TEST(test_set_dcqcn)
{
	struct scenario *s = scn_new();
	struct scn_error err;
	static const char *const sets[] = {
		"dcqcn.rpg_ai_rate=10",
		"dcqcn.rpg_byte_reset=2MB",
		"dcqcn.rpg_time_reset=1.5",
		"dcqcn.clamp_tgt_rate=1",
		"dcqcn.cnp_scope=port",
		"ecn.queues=3,4",
		"ecn.kmin=100KB",
		"ecn.pmax=0.2",
		"ecn.mark_point=enqueue",
		"qos.cnp_dscp=46",
		"qos.cnp_priority_strict=false",
		"nic.rto=1ms",
		"output.rates=10",
	};
	size_t i;

	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++)
		ck_assert_msg(scenario_set(s, sets[i], &err) == 0, "%s: %s", sets[i], err.msg);
	ck_assert_msg(scenario_finalize(s, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(s->dcqcn.rpg_ai_rate_bps, 10000000); /* 10 Mbps */
	ck_assert_int_eq(s->dcqcn.rpg_byte_reset_bytes, 2000000);
	ck_assert_int_eq(s->dcqcn.rpg_time_reset_ps, 1500000);
	ck_assert_int_eq(s->dcqcn.clamp_tgt_rate, 1);
	ck_assert_int_eq(s->dcqcn.cnp_scope, SCN_CNP_SCOPE_PORT);
	ck_assert_uint_eq(s->ecn_queues, (1u << 3) | (1u << 4));
	ck_assert_int_eq(s->ecn_kmin_bytes, 100000);
	ck_assert_int_eq(s->ecn_pmax_ppb, 200000000);
	ck_assert_int_eq(s->ecn_mark_point, SCN_MARK_ENQUEUE);
	ck_assert_uint_eq(s->cnp_dscp, 46);
	ck_assert_int_eq(s->cnp_priority_strict, 0);
	ck_assert_int_eq(s->nic_rto_ps, 1000000000);
	ck_assert_uint_eq(s->output_rates, 10);
	scn_delete(s);
	expect_set_error(NULL, "dcqcn.rpg_gd=9", "--set: dcqcn.rpg_gd: 9 out of range (10-20)");
	expect_set_error(NULL, "dcqcn.rpg_time_reset=1.0000001",
			 "--set: dcqcn.rpg_time_reset: 1.0000001us is not a whole number of picoseconds");
	expect_set_error(NULL, "ecn.queues=2,2", "--set: ecn.queues: queue 2 listed twice");
}
END_TEST

/* ---- print and load back: [ecn], [dcqcn] and the other new keys ---- */

static void check_round_trip_cc(const char *text)
{
	struct scenario *a = scn_ok(text), *b = scn_new();
	struct scn_error err;
	char *pa = print_to_string(a), *pb;
	struct knobs ka;

	ck_assert_msg(scenario_load_string(b, "x.ini", pa, &err) == 0,
		      "printed scenario does not load: %s\n%s", err.msg, pa);
	ck_assert_msg(scenario_finalize(b, &err) == 0, "finalize: %s", err.msg);
	pb = print_to_string(b);
	ck_assert_str_eq(pa, pb);
	ck_assert_uint_eq(a->ecn_queues, b->ecn_queues);
	if (a->ecn_queues) {
		ck_assert_int_eq(a->ecn_kmin_bytes, b->ecn_kmin_bytes);
		ck_assert_int_eq(a->ecn_kmax_bytes, b->ecn_kmax_bytes);
		ck_assert_int_eq(a->ecn_pmax_ppb, b->ecn_pmax_ppb);
		ck_assert_int_eq(a->ecn_mark_point, b->ecn_mark_point);
	}
	ck_assert_uint_eq(a->cnp_dscp, b->cnp_dscp);
	ck_assert_int_eq(a->cnp_priority_strict, b->cnp_priority_strict);
	ck_assert_int_eq(a->cc, b->cc);
	ck_assert_int_eq(a->nic_rto_ps, b->nic_rto_ps);
	ck_assert_uint_eq(a->output_rates, b->output_rates);
	if (a->cc == SCN_CC_DCQCN) {
		const struct scn_dcqcn *d = &a->dcqcn;

		ck_assert_int_eq(a->dcqcn_profile, b->dcqcn_profile);
		ka = (struct knobs){ d->rpg_time_reset_ps, d->rpg_byte_reset_bytes, d->rpg_threshold,
				     d->rpg_ai_rate_bps, d->rpg_hai_rate_bps, d->rpg_gd,
				     d->rpg_min_dec_fac_pct, d->rpg_min_rate_bps, d->dce_tcp_g,
				     d->dce_tcp_rtt_ps, d->rate_reduce_monitor_period_ps,
				     d->initial_alpha_value, d->rate_to_set_on_first_cnp_bps,
				     d->clamp_tgt_rate, d->clamp_tgt_rate_after_time_inc,
				     d->min_time_between_cnps_ps };
		check_knobs(&b->dcqcn, &ka);
		ck_assert_int_eq(a->dcqcn.cnp_scope, b->dcqcn.cnp_scope);
	}
	free(pa);
	free(pb);
	scn_delete(a);
	scn_delete(b);
}

START_TEST(test_round_trip_cc)
{
	check_round_trip_cc("");
	check_round_trip_cc("[dcqcn]\nprofile = paper\n");
	check_round_trip_cc("[dcqcn]\nprofile = hpcc\n");
	/* overridden knobs, some not whole firmware units */
	check_round_trip_cc("[dcqcn]\nprofile = nvidia\nrpg_time_reset = 1.5\nrpg_byte_reset = 1000B\n"
			    "rpg_ai_rate = 2.5\nrpg_hai_rate = 1.5Gbps\nrpg_gd = 20\n"
			    "dce_tcp_rtt = 1ns\nclamp_tgt_rate = yes\ncnp_scope = port\n"
			    "rate_to_set_on_first_cnp = 100Gbps\nmin_time_between_cnps = 0\n"
			    "[ecn]\nqueues = 4,0\nkmin = 0B\nkmax = 64GiB\npmax = 0.0000001\n"
			    "mark_point = enqueue\n"
			    "[qos]\ncnp_dscp = 0\ncnp_priority_strict = false\n"
			    "[nic]\nrto = 1.001us\n[output]\nrates = 0\n");
	check_round_trip_cc("[dcqcn]\nrpg_ai_rate = 10\nprofile = paper\nrpg_byte_reset = 0\n"
			    "rpg_min_dec_fac = 100\ndce_tcp_g = 0\ninitial_alpha_value = 0\n");
	check_round_trip_cc("[dcqcn]\nprofile = hpcc\nrpg_threshold = 31\nrpg_min_rate = 1.000001\n");
	/* off */
	check_round_trip_cc("[nic]\ncc = none\n[ecn]\nqueues =\n");
}
END_TEST

START_TEST(test_print_cc_content)
{
	struct scenario *s = scn_ok("[dcqcn]\nprofile = paper\nrpg_time_reset = 1.5\nrpg_hai_rate = 2.5\n"
				    "rpg_min_rate = 1.5Gbps\n");
	char *p = print_to_string(s);

	ck_assert_ptr_nonnull(strstr(p, "\n[ecn]\nqueues = 3\nkmin = 150KB\nkmax = 1.5MB\npmax = 10%\n"
					"mark_point = dequeue\n"));
	ck_assert_ptr_nonnull(strstr(p, "\n[qos]\ndata_dscp = 26\ncnp_dscp = 48\n"));
	ck_assert_ptr_nonnull(strstr(p, "\ncnp_priority_strict = true\n"));
	/* every knob in firmware units, bare where whole (10MB = 156250 x 64 B),
	 * else with its unit; the clamp flags as 0/1 */
	ck_assert_ptr_nonnull(strstr(p, "\n[dcqcn]\nprofile = paper\nrpg_time_reset = 1.5us\n"
					"rpg_byte_reset = 156250\nrpg_threshold = 5\nrpg_ai_rate = 40\n"
					"rpg_hai_rate = 2.5Mbps\nrpg_gd = 11\nrpg_min_dec_fac = 0\n"
					"rpg_min_rate = 1500\ndce_tcp_g = 1020\ndce_tcp_rtt = 55\n"
					"rate_reduce_monitor_period = 0\ninitial_alpha_value = 1023\n"
					"rate_to_set_on_first_cnp = 0\nclamp_tgt_rate = 1\n"
					"clamp_tgt_rate_after_time_inc = 1\nmin_time_between_cnps = 50\n"
					"cnp_scope = qp\n\n[output]\n"));
	free(p);
	scn_delete(s);
	/* a byte counter that is not whole 64-byte units prints with its unit */
	s = scn_ok("[dcqcn]\nrpg_byte_reset = 1000B\n");
	p = print_to_string(s);
	ck_assert_ptr_nonnull(strstr(p, "\nrpg_byte_reset = 1KB\n"));
	free(p);
	scn_delete(s);
	/* cc = none: no [dcqcn] keys; ECN off: only queues */
	s = scn_ok("[nic]\ncc = none\n[ecn]\nqueues =\n");
	p = print_to_string(s);
	ck_assert_ptr_nonnull(strstr(p, "\n[nic]\ncc = none\n"));
	ck_assert_ptr_nonnull(strstr(p, "\n[ecn]\nqueues =\n\n# [dcqcn] omitted: nic.cc = none\n\n[output]\n"));
	ck_assert_ptr_null(strstr(p, "rpg_"));
	ck_assert_ptr_null(strstr(p, "kmin"));
	free(p);
	scn_delete(s);
}
END_TEST

START_TEST(test_print_derived_cc)
{
	struct scenario *s = scn_ok("");
	char *p = derived_to_string(s);

	ck_assert_ptr_nonnull(strstr(p, "# ECN on queues 3: WRED kmin 150KB, kmax 1.5MB, pmax 10%, marked on dequeue\n"));
	/* 150000 / 4158 = 36.075, 1500000 / 4158 = 360.750; 150 KB at 50 B/ns = 3 us */
	ck_assert_ptr_nonnull(strstr(p, "# ECN thresholds: kmin 36.08, kmax 360.75 data frames of 4158 B;"
					" kmin 3.00 us, kmax 30.00 us of sending at host_link 400Gbps\n"));
	ck_assert_ptr_nonnull(strstr(p, "# DCQCN profile nvidia; CNPs at DSCP 48 (priority 6, strict),"
					" at most one per 4us per QP (min_time_between_cnps)\n"));
	/* DESIGN B6: the 2.1 MB byte counter fires every 42 us at 400G */
	ck_assert_ptr_nonnull(strstr(p, "# DCQCN byte counter: every 2097088 B = 41.94 us at host_link 400Gbps;"
					" increase timer every 300us\n"));
	/* DESIGN B6: alpha halves in about 142 us (g = 5/1024 per us) */
	ck_assert_ptr_nonnull(strstr(p, "# DCQCN alpha: g = 5/1024 per dce_tcp_rtt 1us, initial 1023/1024;"
					" half-life without CNPs ln 2 / -ln(1 - g) = 141.61 periods = 141.61 us\n"));
	ck_assert_ptr_nonnull(strstr(p, "# DCQCN increase steps: AI 5Mbps, HAI 50Mbps (0.00125% and 0.0125% of host_link 400Gbps)"));
	ck_assert_ptr_nonnull(strstr(p, "# DCQCN cut: Rc x alpha / 2 (rpg_gd 11), at most 50% of Rc (rpg_min_dec_fac 50),"
					" not below 1Mbps; at most one cut per 4us\n"));
	free(p);
	scn_delete(s);
	/* paper at 100G: byte counter 168 us, alpha half-life about 9.7 ms */
	s = scn_ok("[topology]\nhost_link = 100Gbps\n[dcqcn]\nprofile = paper\n");
	p = derived_to_string(s);
	ck_assert_ptr_nonnull(strstr(p, "# DCQCN byte counter: every 10000000 B = 800.00 us at host_link 100Gbps;"));
	ck_assert_ptr_nonnull(strstr(p, "g = 4/1024 per dce_tcp_rtt 55us, initial 1023/1024; half-life without CNPs"
					" ln 2 / -ln(1 - g) = 177.10 periods = 9740.44 us\n"));
	ck_assert_ptr_nonnull(strstr(p, "# DCQCN cut: Rc x alpha / 2 (rpg_gd 11), not below 1Mbps; a cut on every CNP\n"));
	ck_assert_ptr_nonnull(strstr(p, "# ECN thresholds: kmin 36.08, kmax 360.75 data frames of 4158 B;"
					" kmin 12.00 us, kmax 120.00 us of sending at host_link 100Gbps\n"));
	free(p);
	scn_delete(s);
	s = scn_ok("[topology]\nhost_link = 100Gbps\n");
	p = derived_to_string(s);
	ck_assert_ptr_nonnull(strstr(p, "every 2097088 B = 167.77 us at host_link 100Gbps;"));
	free(p);
	scn_delete(s);
	/* hpcc: no byte counter; off */
	s = scn_ok("[dcqcn]\nprofile = hpcc\ndce_tcp_g = 0\nrpg_gd = 13\n");
	p = derived_to_string(s);
	ck_assert_ptr_nonnull(strstr(p, "# DCQCN byte counter off; increase timer every 300us\n"));
	ck_assert_ptr_nonnull(strstr(p, "# DCQCN alpha: g = 1 (dce_tcp_g 0): alpha drops to 0 after one 1us period"));
	ck_assert_ptr_nonnull(strstr(p, "# DCQCN cut: Rc x alpha / 8 (rpg_gd 13), not below 1Gbps;"));
	free(p);
	scn_delete(s);
	s = scn_ok("[nic]\ncc = none\n[ecn]\nqueues =\n");
	p = derived_to_string(s);
	ck_assert_ptr_nonnull(strstr(p, "# ECN off (ecn.queues is empty): no marking, no CNPs\n"));
	ck_assert_ptr_nonnull(strstr(p, "# congestion control off (nic.cc = none): no CNPs, senders at line rate\n"));
	ck_assert_ptr_null(strstr(p, "DCQCN"));
	free(p);
	scn_delete(s);
}
END_TEST

/* ---- collectives and the job keys of DESIGN B7 ---- */

START_TEST(test_collective_defaults)
{
	struct scenario *s = scn_ok("[job.ar]\npattern = ring-allreduce\n"
				    "[job.a2a]\npattern = alltoall\n"
				    "[job.in]\npattern = incast\n");
	const struct scn_job *ar = &s->jobs[0], *aa = &s->jobs[1], *in = &s->jobs[2];
	uint32_t i;

	ck_assert_int_eq(ar->pattern, SCN_JOB_RING_ALLREDUCE);
	ck_assert_int_eq(aa->pattern, SCN_JOB_ALLTOALL);
	ck_assert_int_eq(ar->size_bytes, 4000000); /* 4MB, decimal */
	ck_assert_int_eq(aa->size_bytes, 4000000);
	/* ranks default: all, in host order */
	ck_assert_str_eq(ar->ranks.text, "all");
	ck_assert_uint_eq(ar->ranks.n, 32);
	ck_assert_uint_eq(aa->ranks.n, 32);
	for (i = 0; i < 32; i++) {
		ck_assert_uint_eq(ar->ranks.hosts[i], i);
		ck_assert_uint_eq(aa->ranks.hosts[i], i);
	}
	ck_assert_uint_eq(ar->iterations, 1);
	ck_assert_int_eq(ar->compute_gap_ps, 0);
	ck_assert_int_eq(ar->skew_ps, 0);
	ck_assert_uint_eq(ar->channels, 1);
	ck_assert_int_eq(ar->slice_bytes, 524288); /* 512 KiB */
	ck_assert_int_eq(aa->schedule, SCN_SCHEDULE_ALL_AT_ONCE);
	ck_assert_uint_eq(aa->iterations, 1);
	ck_assert_int_eq(ar->start_ps, 0);
	ck_assert_int_eq(ar->dscp, -1);
	/* iterations, compute_gap and skew of every pattern */
	ck_assert_uint_eq(in->iterations, 1);
	ck_assert_int_eq(in->compute_gap_ps, 0);
	ck_assert_int_eq(in->skew_ps, 0);
	ck_assert_ptr_null(in->ranks.hosts); /* not an incast key: not resolved */
	scn_delete(s);
}
END_TEST

START_TEST(test_collective_keys)
{
	struct scenario *s = scn_ok("[topology]\nkind = star\nhosts = 16\n"
				    "[job.ar]\npattern = ring-allreduce\nranks = 8-11,1\n"
				    "size = 1.5GB\niterations = 1000\ncompute_gap = 1.001us\n"
				    "start = 3ms\nskew = 2.5ms\nchannels = 64\nslice = 1.5MiB\n"
				    "dscp = 34\n"
				    "[job.a2a]\npattern = alltoall\nranks = 0-3\nsize = 5B\n"
				    "schedule = shift\niterations = 100000\ncompute_gap = 0s\nskew = 1ps\n"
				    "[job.a2b]\npattern = alltoall\nschedule = all-at-once\n"
				    "[job.lo]\npattern = ring-allreduce\nslice = 1KB\nchannels = 1\n"
				    "[job.hi]\npattern = ring-allreduce\nslice = 1GB\n"
				    "[job.p]\npattern = permutation\niterations = 3\nskew = 1us\n"
				    "compute_gap = 1000s\n");
	static const uint32_t ranks[] = { 8, 9, 10, 11, 1 };
	const struct scn_job *ar = &s->jobs[0], *aa = &s->jobs[1], *p = &s->jobs[5];
	uint32_t i;

	ck_assert_uint_eq(ar->ranks.n, 5);
	for (i = 0; i < 5; i++)
		ck_assert_uint_eq(ar->ranks.hosts[i], ranks[i]);
	ck_assert_int_eq(ar->size_bytes, 1500000000);
	ck_assert_uint_eq(ar->iterations, 1000);
	ck_assert_int_eq(ar->compute_gap_ps, 1001000);
	ck_assert_int_eq(ar->start_ps, INT64_C(3000000000));
	ck_assert_int_eq(ar->skew_ps, INT64_C(2500000000));
	ck_assert_uint_eq(ar->channels, 64);
	ck_assert_int_eq(ar->slice_bytes, 1572864);
	ck_assert_int_eq(ar->dscp, 34);
	ck_assert_uint_eq(aa->ranks.n, 4);
	ck_assert_int_eq(aa->size_bytes, 5); /* not a multiple of 4 ranks: floor(5 / 4) each */
	ck_assert_int_eq(aa->schedule, SCN_SCHEDULE_SHIFT);
	ck_assert_uint_eq(aa->iterations, 100000);
	ck_assert_int_eq(aa->compute_gap_ps, 0);
	ck_assert_int_eq(aa->skew_ps, 1);
	ck_assert_int_eq(s->jobs[2].schedule, SCN_SCHEDULE_ALL_AT_ONCE);
	ck_assert_int_eq(s->jobs[3].slice_bytes, 1000);
	ck_assert_uint_eq(s->jobs[3].channels, 1);
	ck_assert_int_eq(s->jobs[4].slice_bytes, 1000000000);
	ck_assert_uint_eq(p->iterations, 3);
	ck_assert_int_eq(p->skew_ps, 1000000);
	ck_assert_int_eq(p->compute_gap_ps, INT64_C(1000000000000000));
	scn_delete(s);
}
END_TEST

START_TEST(test_err_collective_range)
{
	expect_error("[job.a]\npattern = ring-allreduce\niterations = 0\n",
		     "x.ini:3: job.a.iterations: 0 out of range (1-100000)");
	expect_error("[job.a]\npattern = incast\niterations = 100001\n",
		     "x.ini:3: job.a.iterations: 100001 out of range (1-100000)");
	expect_error("[job.a]\npattern = incast\niterations = 1.5\n",
		     "x.ini:3: job.a.iterations: 1.5 is not an integer");
	expect_error("[job.a]\npattern = incast\ncompute_gap = 1001s\n",
		     "x.ini:3: job.a.compute_gap: 1001s out of range (0-1000s)");
	expect_error("[job.a]\npattern = incast\ncompute_gap = 5\n",
		     "x.ini:3: job.a.compute_gap: missing unit");
	expect_error("[job.a]\npattern = permutation\nskew = 1000.000000000001s\n",
		     "x.ini:3: job.a.skew: 1000.000000000001s out of range (0-1000s)");
	expect_error("[job.a]\npattern = alltoall\nskew = -1us\n", "x.ini:3: job.a.skew: ");
	expect_error("[job.a]\npattern = ring-allreduce\nchannels = 0\n",
		     "x.ini:3: job.a.channels: 0 out of range (1-64)");
	expect_error("[job.a]\npattern = ring-allreduce\nchannels = 65\n",
		     "x.ini:3: job.a.channels: 65 out of range (1-64)");
	expect_error("[job.a]\npattern = ring-allreduce\nslice = 999B\n",
		     "x.ini:3: job.a.slice: 999B out of range (1KB-1GB)");
	expect_error("[job.a]\npattern = ring-allreduce\nslice = 1000000001B\n",
		     "x.ini:3: job.a.slice: 1000000001B out of range (1KB-1GB)");
	expect_error("[job.a]\npattern = ring-allreduce\nslice = 512\n",
		     "x.ini:3: job.a.slice: missing unit");
	expect_error("[job.a]\npattern = alltoall\nschedule = ring\n",
		     "x.ini:3: job.a.schedule: ring is not valid (all-at-once, shift)");
	expect_error("[job.a]\npattern = allreduce\n",
		     "x.ini:2: job.a.pattern: allreduce is not valid (trace, incast, permutation, ring-allreduce, alltoall)");
	expect_error("[job.a]\npattern = alltoall\nsize = 0B\n",
		     "x.ini:3: job.a.size: 0B out of range (above 0, at most 1000GB)");
}
END_TEST

START_TEST(test_err_collective_wrong_pattern)
{
	expect_error("[job.a]\npattern = incast\nchannels = 2\n",
		     "x.ini:3: job.a.channels: only for pattern = ring-allreduce (pattern is incast)");
	expect_error("[job.a]\npattern = alltoall\nslice = 64KB\n",
		     "x.ini:3: job.a.slice: only for pattern = ring-allreduce (pattern is alltoall)");
	expect_error("[job.a]\nschedule = shift\npattern = ring-allreduce\n",
		     "x.ini:2: job.a.schedule: only for pattern = alltoall (pattern is ring-allreduce)");
	expect_error("[job.a]\npattern = permutation\nschedule = shift\n",
		     "x.ini:3: job.a.schedule: only for pattern = alltoall (pattern is permutation)");
	expect_error("[job.a]\npattern = ring-allreduce\ndst = 3\n",
		     "x.ini:3: job.a.dst: only for pattern = incast (pattern is ring-allreduce)");
	expect_error("[job.a]\npattern = alltoall\nsenders = 1-3\n",
		     "x.ini:3: job.a.senders: only for pattern = incast (pattern is alltoall)");
	expect_error("[job.a]\npattern = ring-allreduce\nfile = t.csv\n",
		     "x.ini:3: job.a.file: only for pattern = trace (pattern is ring-allreduce)");
	expect_error("[job.a]\npattern = trace\nfile = t.csv\nranks = 0-3\n",
		     "x.ini:4: job.a.ranks: only for pattern = permutation, ring-allreduce or alltoall (pattern is trace)");
	/* the earliest line */
	expect_error("[job.a]\npattern = alltoall\niterations = 2\nslice = 1MB\nchannels = 2\n",
		     "x.ini:4: job.a.slice: only for pattern = ring-allreduce (pattern is alltoall)");
	/* ranks: at least 2, host indices */
	expect_error("[job.r]\npattern = ring-allreduce\nranks = 3\n",
		     "x.ini:3: job.r.ranks: 1 host (a ring-allreduce needs at least 2)");
	expect_error("[job.r]\npattern = alltoall\nranks = 31\n",
		     "x.ini:3: job.r.ranks: 1 host (an alltoall needs at least 2)");
	expect_error("[job.r]\npattern = ring-allreduce\nranks = 30-32\n",
		     "x.ini:3: job.r.ranks: host 32 out of range (0-31)");
	expect_error("[job.r]\npattern = alltoall\nranks = 1,2,1\n",
		     "x.ini:3: job.r.ranks: host 1 listed twice");
}
END_TEST

START_TEST(test_err_collective_size)
{
	/* DESIGN A2's form, at the line of size */
	expect_error("[topology]\nleaves = 8\nhosts_per_leaf = 8\n\n[job.ar]\npattern = ring-allreduce\n"
		     "ranks = all\nchannels = 2\nsize = 100B\n",
		     "x.ini:9: job.ar.size: 100B is below ranks x channels (64 x 2 = 128 B)");
	/* the boundary: one byte per chunk */
	expect_error("[job.ar]\npattern = ring-allreduce\nsize = 7B\nranks = 0-3\nchannels = 2\n",
		     "x.ini:3: job.ar.size: 7B is below ranks x channels (4 x 2 = 8 B)");
	scn_delete(scn_ok("[job.ar]\npattern = ring-allreduce\nsize = 8B\nranks = 0-3\nchannels = 2\n"));
	/* size not given: the job's header line (4MB < 65536 ranks x 64 channels) */
	expect_error("[topology]\nleaves = 128\nhosts_per_leaf = 512\n[job.big]\n"
		     "pattern = ring-allreduce\nchannels = 64\n",
		     "x.ini:4: job.big.size: 4MB is below ranks x channels (65536 x 64 = 4194304 B)");
	/* alltoall: floor(S / n) per peer, at least one byte */
	expect_error("[job.a]\npattern = alltoall\nranks = 0-3\nsize = 3B\n",
		     "x.ini:4: job.a.size: 3B is below ranks (4 B: each rank sends floor(size / ranks) to every other rank)");
	scn_delete(scn_ok("[job.a]\npattern = alltoall\nranks = 0-3\nsize = 4B\n"));
	expect_error("[job.a]\npattern = alltoall\nsize = 31B\n",
		     "x.ini:3: job.a.size: 31B is below ranks (32 B: ");
	/* a --set breaks it: finalize points at the job's header, or --set */
	expect_set_error("[sim]\n[job.ar]\npattern = ring-allreduce\nsize = 40B\n", "topology.hosts_per_leaf=16",
			 "x.ini:2: job.ar.size: 40B is below ranks x channels (64 x 1 = 64 B)");
	expect_set_error("[job.ar]\npattern = ring-allreduce\nsize = 64B\n", "job.ar.channels=3",
			 "x.ini:1: job.ar.size: 64B is below ranks x channels (32 x 3 = 96 B)");
	{
		struct scenario *s = scn_new();
		struct scn_error err;

		ck_assert_int_eq(scenario_set(s, "job.n.pattern=alltoall", &err), 0);
		ck_assert_int_eq(scenario_set(s, "job.n.size=2B", &err), 0);
		ck_assert_int_eq(scenario_finalize(s, &err), -1);
		ck_assert_str_eq(err.msg, "--set: job.n.size: 2B is below ranks (32 B: each rank sends floor(size / ranks) to every other rank)");
		scn_delete(s);
	}
}
END_TEST

/* a trace CSV of n rows (host 0 to 1, 1000 B) in a temporary folder */
static void write_trace_rows(char dir[64], char path[128], int n)
{
	char *csv = malloc((size_t)n * 16 + 32);
	size_t len;
	int i;

	ck_assert_ptr_nonnull(csv);
	len = (size_t)sprintf(csv, "src,dst,bytes,start_us\n");
	for (i = 0; i < n; i++)
		len += (size_t)sprintf(csv + len, "0,1,1000,0\n");
	write_temp(dir, path, "t.csv", csv);
	free(csv);
}

START_TEST(test_err_too_many_flows)
{
	char dir[64], path[128], text[512];
	struct scenario *s;
	struct scn_error err;

	/* 100000 x 1 channel x 62 steps x 32 ranks x 1 slice of 125 KB */
	expect_error("[job.ar]\npattern = ring-allreduce\niterations = 100000\n",
		     "x.ini:3: job.ar.iterations: too many flows: job ar makes 198400000 (iterations 100000 x channels 1 "
		     "x 2(ranks - 1) 62 x ranks 32 x ceil(chunk 125KB / slice 512KiB) 1), all jobs 198400000, "
		     "at most 50000000 (lower iterations or channels, raise slice, or use fewer ranks)");
	/* slices per chunk: 4MB / 32 ranks = 125000 B in 1KB slices = 125 */
	expect_error("[job.ar]\npattern = ring-allreduce\nslice = 1KB\niterations = 10000\n",
		     "x.ini:4: job.ar.iterations: too many flows: job ar makes 2480000000 (iterations 10000 x channels 1 "
		     "x 2(ranks - 1) 62 x ranks 32 x ceil(chunk 125KB / slice 1KB) 125)");
	/* chunk rounded up: ceil(4000000 / (3 x 32)) = 41667 B, 41 full 1 KB slices + 1 */
	expect_error("[job.ar]\npattern = ring-allreduce\nchannels = 3\nslice = 1KB\niterations = 1000\n",
		     "x.ini:5: job.ar.iterations: too many flows: job ar makes 249984000 (iterations 1000 x channels 3 "
		     "x 2(ranks - 1) 62 x ranks 32 x ceil(chunk 41.667KB / slice 1KB) 42)");
	/* exact without overflow: 65536 ranks, 64 channels, 1000GB in 1KB slices */
	expect_error("[topology]\nleaves = 128\nhosts_per_leaf = 512\n[job.ar]\npattern = ring-allreduce\n"
		     "size = 1000GB\nchannels = 64\nslice = 1KB\niterations = 100000\n",
		     "x.ini:9: job.ar.iterations: too many flows: job ar makes 13138963464192000000 (iterations 100000 "
		     "x channels 64 x 2(ranks - 1) 131070 x ranks 65536 x ceil(chunk 238.419KB / slice 1KB) 239)");
	expect_error("[job.a]\npattern = alltoall\niterations = 100000\n",
		     "x.ini:3: job.a.iterations: too many flows: job a makes 99200000 (iterations 100000 x ranks 32 "
		     "x (ranks - 1) 31), all jobs 99200000, at most 50000000 (lower iterations or use fewer ranks)");
	expect_error("[topology]\nkind = star\nhosts = 1024\n[buffer]\nsize = 1GiB\n"
		     "[job.in]\npattern = incast\niterations = 100000\n",
		     "x.ini:8: job.in.iterations: too many flows: job in makes 102300000 (iterations 100000 x senders 1023), "
		     "all jobs 102300000, at most 50000000 (lower iterations or use fewer senders)");
	/* the limit itself is allowed; one flow more is not, and the job with the most is named */
	scn_delete(scn_ok("[topology]\nkind = star\nhosts = 1024\n[buffer]\nsize = 1GiB\n"
			  "[job.p]\npattern = permutation\nranks = 0-499\niterations = 100000\n"));
	expect_error("[topology]\nkind = star\nhosts = 1024\n[buffer]\nsize = 1GiB\n"
		     "[job.in]\npattern = incast\ndst = 1000\nsenders = 1001\n"
		     "[job.p]\npattern = permutation\nranks = 0-499\niterations = 100000\n",
		     "x.ini:13: job.p.iterations: too many flows: job p makes 50000000 (iterations 100000 x ranks 500), "
		     "all jobs 50000001, at most 50000000 (lower iterations or use fewer ranks)");
	/* trace rows count once read, at finalize: the job's header line */
	write_trace_rows(dir, path, 501);
	snprintf(text, sizeof(text), "[sim]\n[job.t]\npattern = trace\nfile = %s\niterations = 100000\n", path);
	s = scn_new();
	ck_assert_msg(scenario_load_string(s, "x.ini", text, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(scenario_finalize(s, &err), -1);
	ck_assert_str_eq(err.msg, "x.ini:2: job.t.iterations: too many flows: job t makes 50100000 (iterations 100000 "
				  "x rows 501), all jobs 50100000, at most 50000000 (lower iterations or use fewer rows in file)");
	/* a --set back under the limit */
	ck_assert_int_eq(scenario_set(s, "job.t.iterations=99800", &err), 0);
	ck_assert_msg(scenario_finalize(s, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(s->jobs[0].nrows, 501);
	scn_delete(s);
	remove_temp(dir, path);
	/* a --set over the limit: the job's header, or --set */
	expect_set_error("[job.a]\npattern = alltoall\n", "job.a.iterations=60000",
			 "x.ini:1: job.a.iterations: too many flows: job a makes 59520000 ");
	expect_set_error("[job.a]\npattern = alltoall\niterations = 20\n", "topology.hosts_per_leaf=512",
			 "x.ini:1: job.a.iterations: too many flows: job a makes 83845120 (iterations 20 x ranks 2048 x (ranks - 1) 2047)");
	s = scn_new();
	ck_assert_int_eq(scenario_set(s, "job.b.pattern=permutation", &err), 0);
	ck_assert_int_eq(scenario_set(s, "job.b.iterations=100000", &err), 0);
	ck_assert_int_eq(scenario_set(s, "topology.kind=star", &err), 0);
	ck_assert_int_eq(scenario_set(s, "topology.hosts=501", &err), 0);
	ck_assert_int_eq(scenario_finalize(s, &err), -1);
	ck_assert_str_eq(err.msg, "--set: job.b.iterations: too many flows: job b makes 50100000 (iterations 100000 "
				  "x ranks 501), all jobs 50100000, at most 50000000 (lower iterations or use fewer ranks)");
	scn_delete(s);
}
END_TEST

START_TEST(test_set_collective)
{
	struct scenario *s = scn_new();
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
	scn_delete(s);
	/* the trace fixture: iterations apply to traces too */
	s = scn_new();
	ck_assert_msg(scenario_load_file(s, TEST_DATA_DIR "/trace_job.ini", &err) == 0, "%s", err.msg);
	ck_assert_int_eq(scenario_set(s, "job.replay.iterations=3", &err), 0);
	ck_assert_msg(scenario_finalize(s, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(s->jobs[0].iterations, 3);
	ck_assert_uint_eq(s->jobs[0].nrows, 3);
	scn_delete(s);
}
END_TEST

/* print -> load -> print, and every job field equal */
static void check_round_trip_jobs(const char *text)
{
	struct scenario *a = scn_ok(text), *b = scn_new();
	struct scn_error err;
	char *pa = print_to_string(a), *pb;
	uint32_t j, i;

	ck_assert_msg(scenario_load_string(b, "x.ini", pa, &err) == 0,
		      "printed scenario does not load: %s\n%s", err.msg, pa);
	ck_assert_msg(scenario_finalize(b, &err) == 0, "finalize: %s", err.msg);
	pb = print_to_string(b);
	ck_assert_str_eq(pa, pb);
	ck_assert_uint_eq(a->njobs, b->njobs);
	for (j = 0; j < a->njobs; j++) {
		const struct scn_job *x = &a->jobs[j], *y = &b->jobs[j];

		ck_assert_str_eq(x->name, y->name);
		ck_assert_int_eq(x->pattern, y->pattern);
		ck_assert_str_eq(x->ranks.text, y->ranks.text);
		ck_assert_uint_eq(x->ranks.n, y->ranks.n);
		for (i = 0; i < x->ranks.n; i++)
			ck_assert_uint_eq(x->ranks.hosts[i], y->ranks.hosts[i]);
		ck_assert_int_eq(x->size_bytes, y->size_bytes);
		ck_assert_int_eq(x->start_ps, y->start_ps);
		ck_assert_uint_eq(x->iterations, y->iterations);
		ck_assert_int_eq(x->compute_gap_ps, y->compute_gap_ps);
		ck_assert_int_eq(x->skew_ps, y->skew_ps);
		ck_assert_int_eq(x->dscp, y->dscp);
		if (x->pattern == SCN_JOB_RING_ALLREDUCE) {
			ck_assert_uint_eq(x->channels, y->channels);
			ck_assert_int_eq(x->slice_bytes, y->slice_bytes);
		}
		if (x->pattern == SCN_JOB_ALLTOALL)
			ck_assert_int_eq(x->schedule, y->schedule);
	}
	free(pa);
	free(pb);
	scn_delete(a);
	scn_delete(b);
}

START_TEST(test_round_trip_collective)
{
	struct scenario *s;
	char *p;

	check_round_trip_jobs("[job.ar]\npattern = ring-allreduce\n[job.a2a]\npattern = alltoall\n");
	check_round_trip_jobs("[topology]\nkind = star\nhosts = 64\n"
			      "[job.ar]\npattern = ring-allreduce\nranks = 0-7, 16-23\nsize = 256MiB\n"
			      "iterations = 1000\ncompute_gap = 1.001us\nstart = 2ms\nskew = 83.56ns\n"
			      "channels = 64\nslice = 1.5MiB\ndscp = 34\n"
			      "[job.a2a]\npattern = alltoall\nranks = 63,0-3\nsize = 1.536KB\n"
			      "iterations = 7\ncompute_gap = 1000s\nskew = 1ps\nschedule = shift\n"
			      "[job.in]\npattern = incast\ndst = 5\niterations = 2\nskew = 10us\n");
	s = scn_ok("[job.ar]\npattern = ring-allreduce\nchannels = 2\niterations = 4\n"
		   "[job.a2a]\npattern = alltoall\nschedule = shift\nranks = 0-15\n");
	p = print_to_string(s);
	ck_assert_ptr_nonnull(strstr(p, "\n[job.ar]\npattern = ring-allreduce\nranks = all\nsize = 4MB\nstart = 0ps\n"
					"# dscp: qos.data_dscp (26)\niterations = 4\ncompute_gap = 0ps\nskew = 0ps\n"
					"channels = 2\nslice = 512KiB\n\n"));
	ck_assert_ptr_nonnull(strstr(p, "\n[job.a2a]\npattern = alltoall\nranks = 0-15\nsize = 4MB\nstart = 0ps\n"
					"# dscp: qos.data_dscp (26)\niterations = 1\ncompute_gap = 0ps\nskew = 0ps\n"
					"schedule = shift\n"));
	free(p);
	scn_delete(s);
}
END_TEST

Suite *make_scenario_suite(void);

Suite *make_scenario_suite(void)
{
	Suite *su = suite_create("scenario");
	TCase *tc;

	tc = tcase_create("defaults");
	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_empty_file_is_defaults);
	tcase_add_test(tc, test_job_defaults);
	tcase_add_test(tc, test_frame_defaults_follow_mtu);
	suite_add_tcase(su, tc);

	tc = tcase_create("keys");
	tcase_add_test(tc, test_sim_keys);
	tcase_add_test(tc, test_leaf_spine_keys);
	tcase_add_test(tc, test_fat_tree_and_star_keys);
	tcase_add_test(tc, test_mtu_forms);
	tcase_add_test(tc, test_qos_keys);
	tcase_add_test(tc, test_nccl_ib_tc);
	tcase_add_test(tc, test_job_keys);
	tcase_add_test(tc, test_hostset_lists);
	tcase_add_test(tc, test_comments_and_whitespace);
	tcase_add_test(tc, test_buffer_keys);
	tcase_add_test(tc, test_pfc_keys);
	tcase_add_test(tc, test_pfcwd_nic_output_keys);
	tcase_add_test(tc, test_fault_keys);
	suite_add_tcase(su, tc);

	tc = tcase_create("errors");
	tcase_add_test(tc, test_err_unknown_section);
	tcase_add_test(tc, test_err_unknown_key);
	tcase_add_test(tc, test_err_duplicate);
	tcase_add_test(tc, test_err_missing_unit);
	tcase_add_test(tc, test_err_out_of_range);
	tcase_add_test(tc, test_err_not_implemented);
	tcase_add_test(tc, test_err_contradiction);
	tcase_add_test(tc, test_err_job_key_wrong_pattern);
	tcase_add_test(tc, test_err_hostset);
	tcase_add_test(tc, test_err_syntax);
	tcase_add_test(tc, test_load_file_errors);
	tcase_add_test(tc, test_max_jobs);
	tcase_add_test(tc, test_err_fault);
	tcase_add_test(tc, test_max_faults);
	tcase_add_test(tc, test_err_pfc_off);
	tcase_add_test(tc, test_err_pool);
	suite_add_tcase(su, tc);

	tc = tcase_create("pfc");
	tcase_add_test(tc, test_quanta_ps);
	tcase_add_test(tc, test_response_quanta);
	tcase_add_test(tc, test_headroom_auto);
	tcase_add_test(tc, test_cell_and_pool);
	suite_add_tcase(su, tc);

	tc = tcase_create("set");
	tcase_add_test(tc, test_set_overrides_file);
	tcase_add_test(tc, test_set_errors);
	tcase_add_test(tc, test_set_selector_first);
	tcase_add_test(tc, test_set_new_keys);
	tcase_add_test(tc, test_set_new_errors);
	suite_add_tcase(su, tc);

	tc = tcase_create("print");
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_print_content);
	tcase_add_test(tc, test_print_derived);
	tcase_add_test(tc, test_round_trip_pfc);
	tcase_add_test(tc, test_print_pfc_content);
	tcase_add_test(tc, test_print_derived_pfc);
	suite_add_tcase(su, tc);

	tc = tcase_create("ecn_dcqcn");
	tcase_add_test(tc, test_defaults_ecn_cc);
	tcase_add_test(tc, test_ecn_keys);
	tcase_add_test(tc, test_err_ecn_kmax_kmin);
	tcase_add_test(tc, test_err_ecn_off);
	tcase_add_test(tc, test_cnp_nic_output_keys);
	tcase_add_test(tc, test_err_cnp_dscp);
	tcase_add_test(tc, test_dcqcn_profiles);
	tcase_add_test(tc, test_dcqcn_knob_overrides_profile);
	tcase_add_test(tc, test_dcqcn_bare_and_units);
	tcase_add_test(tc, test_err_dcqcn);
	tcase_add_test(tc, test_err_dcqcn_cc_none);
	tcase_add_test(tc, test_set_dcqcn);
	tcase_add_test(tc, test_round_trip_cc);
	tcase_add_test(tc, test_print_cc_content);
	tcase_add_test(tc, test_print_derived_cc);
	suite_add_tcase(su, tc);

	tc = tcase_create("trace");
	tcase_add_test(tc, test_trace_fixture_relative);
	tcase_add_loop_test(tc, test_trace_errors, 0, (int)(sizeof(trace_cases) / sizeof(trace_cases[0])));
	tcase_add_test(tc, test_trace_file_missing);
	suite_add_tcase(su, tc);

	tc = tcase_create("collectives");
	tcase_add_test(tc, test_collective_defaults);
	tcase_add_test(tc, test_collective_keys);
	tcase_add_test(tc, test_err_collective_range);
	tcase_add_test(tc, test_err_collective_wrong_pattern);
	tcase_add_test(tc, test_err_collective_size);
	tcase_add_test(tc, test_err_too_many_flows);
	tcase_add_test(tc, test_set_collective);
	tcase_add_test(tc, test_round_trip_collective);
	suite_add_tcase(su, tc);
	return su;
}

int main(void)
{
	SRunner *sr = srunner_create(make_scenario_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
