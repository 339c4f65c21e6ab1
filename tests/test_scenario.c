/*
 * test_scenario.c - Check suite for the scenario loader (sim/scenario.c,
 * contract sim/scenario.h and DESIGN.md A2).
 *
 * What is pinned: the defaults of DESIGN A2; every implemented key parsed to
 * its exact integer; the "FILE:LINE: section.key:" prefix of every class of
 * error (unknown section or key, key given twice, missing unit, out of
 * range, not implemented yet, contradiction, job key of another pattern,
 * host index out of range, trace CSV errors with their CSV line); --set
 * overriding a file and rejecting unknown keys; print -> load -> print
 * giving the same text; a trace fixture found relative to its scenario.
 *
 * TEST_DATA_DIR is the folder of the fixtures (tests/data); meson passes it,
 * a standalone build run from the project root uses the default.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	ck_assert_int_eq(s->cc, SCN_CC_NONE);
	ck_assert_uint_eq(s->njobs, 0);
	ck_assert_uint_eq(scenario_hosts(s), 32);
	ck_assert_uint_eq(scenario_switches(s), 6);
	ck_assert_int_eq(scenario_finalize(s, &err), 0);
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
				    "ecmp = packet\n");

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
			  "[fault.storm]\n[output]\n[criteria]\n[nic]\n[qos]\n"));
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
	expect_error("[ecn]\nkmin = 150KB\n", "x.ini:2: ecn.kmin: not implemented yet");
	expect_error("[buffer]\nsize = 64MB\n", "x.ini:2: buffer.size: not implemented yet");
	expect_error("[pfc]\npriorities = 3\n", "x.ini:2: pfc.priorities: not implemented yet");
	expect_error("[pfcwd]\naction = drop\n", "x.ini:2: pfcwd.action: not implemented yet");
	expect_error("[output]\nrates = 64\n", "x.ini:2: output.rates: not implemented yet");
	expect_error("[criteria]\nmax_ecn_mark_pct = 2\n", "x.ini:2: criteria.max_ecn_mark_pct: not implemented yet");
	expect_error("[dcqcn]\nprofile = nvidia\n", "x.ini:2: dcqcn.profile: not implemented yet");
	expect_error("[dcqcn]\nrpg_time_reset = 300\n", "x.ini:2: dcqcn.rpg_time_reset: not implemented yet");
	expect_error("[fault.storm]\nkind = pause-storm\n", "x.ini:2: fault.storm.kind: not implemented yet");
	expect_error("[qos]\ncnp_dscp = 48\n", "x.ini:2: qos.cnp_dscp: not implemented yet");
	expect_error("[qos]\ncnp_priority_strict = true\n", "x.ini:2: qos.cnp_priority_strict: not implemented yet");
	expect_error("[nic]\npause_watchdog = 0\n", "x.ini:2: nic.pause_watchdog: not implemented yet");
	expect_error("[nic]\nrto = 4ms\n", "x.ini:2: nic.rto: not implemented yet");
	expect_error("[nic]\ncc = dcqcn\n",
		     "x.ini:2: nic.cc: dcqcn not implemented yet (only cc = none in this version)");
	expect_error("[job.a]\npattern = ring-allreduce\n",
		     "x.ini:2: job.a.pattern: ring-allreduce not implemented yet (only pattern = trace | incast | permutation in this version)");
	expect_error("[job.a]\npattern = alltoall\n", "x.ini:2: job.a.pattern: alltoall not implemented yet");
	expect_error("[job.a]\npattern = incast\niterations = 5\n", "x.ini:3: job.a.iterations: not implemented yet");
	expect_error("[job.a]\npattern = incast\nschedule = shift\n", "x.ini:3: job.a.schedule: not implemented yet");
	scn_delete(scn_ok("[nic]\ncc = none\n"));
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
		     "x.ini:3: job.a.ranks: only for pattern = permutation (pattern is incast)");
	expect_error("[job.a]\nsenders = 1\npattern = permutation\n",
		     "x.ini:2: job.a.senders: only for pattern = incast (pattern is permutation)");
	expect_error("[job.a]\npattern = trace\nfile = t.csv\nsize = 1MB\n",
		     "x.ini:4: job.a.size: only for pattern = incast or permutation (pattern is trace)");
	expect_error("[job.a]\npattern = permutation\nfile = t.csv\n",
		     "x.ini:3: job.a.file: only for pattern = trace (pattern is permutation)");
	expect_error("[job.a]\npattern = trace\ndst = 1\nfile = t.csv\n",
		     "x.ini:3: job.a.dst: only for pattern = incast (pattern is trace)");
	/* required keys */
	expect_error("[sim]\n[job.a]\nsize = 1MB\n", "x.ini:2: job.a.pattern: missing (trace, incast, permutation)");
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
	expect_set_error(NULL, "ecn.kmin=100KB", "--set: ecn.kmin: not implemented yet");
	expect_set_error(NULL, "topology.mtu", "--set: topology.mtu: expected section.key=value");
	expect_set_error(NULL, "mtu=9000", "--set: mtu: expected section.key=value");
	expect_set_error(NULL, "topology.k=8",
			 "--set: topology.k: only for kind = fat-tree (kind is leaf-spine; set topology.kind first)");
	expect_set_error(NULL, "job.x.size=1MB", "--set: job.x.size: no job x yet (give job.x.pattern first)");
	expect_set_error(NULL, "job.x.pattern=alltoall", "--set: job.x.pattern: alltoall not implemented yet");
	expect_set_error("[job.a]\npattern = incast\n", "job.a.ranks=0-3",
			 "--set: job.a.ranks: only for pattern = permutation (pattern is incast; set job.a.pattern first)");
	expect_set_error("[job.a]\npattern = incast\n", "job.a.senders=0-99",
			 "x.ini:1: job.a.senders: host 99 out of range (0-31)");
	/* --set shrinks the topology: finalize points at the job's header */
	expect_set_error("[sim]\n[job.a]\npattern = permutation\nranks = 0-31\n", "topology.leaves=2",
			 "x.ini:2: job.a.ranks: host 31 out of range (0-15)");
	expect_set_error("[topology]\nleaves = 1024\n", "topology.hosts_per_leaf=512",
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
	ck_assert_int_eq(scenario_set(s, "job.z.pattern=ring-allreduce", &err), -1);
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
	check_round_trip("[topology]\nkind = star\nhosts = 1024\n"
			 "[job.z]\npattern = permutation\nranks = 1023,0\n");
}
END_TEST

START_TEST(test_print_content)
{
	struct scenario *s = scn_ok("[qos]\ndscp_to_priority = 26:4,48:7,8:1\n"
				    "[job.in]\npattern = incast\n");
	char *p = print_to_string(s);

	ck_assert_ptr_nonnull(strstr(p, "# dcqcn-sim scenario, resolved from x.ini, seed 1\n"));
	ck_assert_ptr_nonnull(strstr(p, "# not implemented in this version: [buffer] [pfc] [pfcwd] [ecn] [dcqcn] [fault.*] [output] [criteria] (queues are unbounded, no congestion control)\n"));
	ck_assert_ptr_nonnull(strstr(p, "\n[topology]\nkind = leaf-spine\nspines = 2\nleaves = 4\nhosts_per_leaf = 8\nhost_link = 400Gbps\n"));
	ck_assert_ptr_nonnull(strstr(p, "\nduration = 1s\n"));
	ck_assert_ptr_nonnull(strstr(p, "\nhost_cable = 3m\nfabric_cable = 30m\nswitch_latency = 500ns\nmtu = 4096\necmp = flow\n"));
	/* 8:1 is the default (8 >> 3): not printed */
	ck_assert_ptr_nonnull(strstr(p, "\ndscp_to_priority = 26:4,48:7\n"));
	ck_assert_ptr_null(strstr(p, "nccl_ib_tc"));
	ck_assert_ptr_null(strstr(p, "dwrr_weights")); /* scheduler strict */
	ck_assert_ptr_null(strstr(p, "\nk ="));
	ck_assert_ptr_nonnull(strstr(p, "\n[job.in]\npattern = incast\nsize = 4MB\nstart = 0ps\n# dscp: qos.data_dscp (26)\ndst = 0\nsenders = all\n"));
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

Suite *make_scenario_suite(void);

Suite *make_scenario_suite(void)
{
	Suite *su = suite_create("scenario");
	TCase *tc;

	tc = tcase_create("defaults");
	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_empty_file_is_defaults);
	tcase_add_test(tc, test_job_defaults);
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
	suite_add_tcase(su, tc);

	tc = tcase_create("set");
	tcase_add_test(tc, test_set_overrides_file);
	tcase_add_test(tc, test_set_errors);
	tcase_add_test(tc, test_set_selector_first);
	suite_add_tcase(su, tc);

	tc = tcase_create("print");
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_print_content);
	tcase_add_test(tc, test_print_derived);
	suite_add_tcase(su, tc);

	tc = tcase_create("trace");
	tcase_add_test(tc, test_trace_fixture_relative);
	tcase_add_loop_test(tc, test_trace_errors, 0, (int)(sizeof(trace_cases) / sizeof(trace_cases[0])));
	tcase_add_test(tc, test_trace_file_missing);
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
