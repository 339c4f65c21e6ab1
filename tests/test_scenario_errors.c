/*
 * test_scenario_errors.c - the scenario loader's errors beyond one value,
 * each with its exact "FILE:LINE: section.key:" prefix.
 *
 * What is pinned: the syntax of a file (unknown or malformed section, key
 * before any section, a line too long, a stray word), unknown keys, a key
 * or section given twice, the most jobs and faults; contradictions (a key
 * of another topology kind, scheduler or job pattern, the earliest line
 * reported), required keys missing, host indices and host counts against
 * the topology; faults: a key of another kind, the node or link against
 * the topology (ends that exist and are directly cabled), PFC off, a storm
 * priority that is not lossless, a slow receiver not below the host link;
 * [pfc] and [pfcwd] keys while PFC or the watchdog is off; the shared pool
 * exhausted, with its arithmetic; a collective's size below ranks x
 * channels (ring) or ranks (alltoall), and more than 10^12 flows in
 * all jobs (counts worked out by hand, one at 1.3e19 to catch overflow,
 * the limit itself accepted), from a file and after --set.
 *
 * "Did you mean" (keyhelp.h): a mistyped section, key, enum value, or a
 * --set of a job or fault that does not exist, get the one close name, in
 * full messages (a suggestion must not be there when none is close or two
 * are as close); the edit distance; scenario_key_known() for --vary; and
 * every key of the table has a meaning for `dcqcn-sim keys`.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/scenario/keyhelp.h"
#include "models/scenario/scenario.h"
#include "testlib.h"

/* ---- the syntax of a file, sections and keys ---- */

static const struct tl_case file_cases[] = {
	/* syntax */
	{ "[sim]\nseed\n", NULL, "x.ini:2: seed: expected key = value, [section] or a comment" },
	{ "[sim\n", NULL, "x.ini:1: [sim: missing ']'" },
	{ "[sim] x\n", NULL, "x.ini:1: [sim] x: unexpected text after ']'" },
	{ "[sim]\n= 3\n", NULL, "x.ini:2: = 3: expected key = value" },
	{ "[sim]\nseed = 1\n  continued\n", NULL, "x.ini:3: continued: expected key = value" },
	/* sections */
	{ "[sim]\nseed = 2\n\n[foo]\n", NULL,
	  "x.ini:4: [foo]: unknown section (sim, topology, qos, nic, job.NAME, buffer, pfc, pfcwd, ecn, dcqcn, fault.NAME, output, criteria, fabric, ib, tcp)" },
	{ "[Sim]\n", NULL, "x.ini:1: [Sim]: unknown section" },
	{ "[sim.x]\n", NULL, "x.ini:1: [sim.x]: unknown section" },
	{ "[]\n", NULL, "x.ini:1: []: unknown section" },
	{ "[job]\npattern = incast\n", NULL, "x.ini:1: [job]: needs a name: [job.NAME]" },
	{ "[job.a b]\n", NULL,
	  "x.ini:1: [job.a b]: name must be 1-31 letters, digits, '-' or '_'" },
	{ "[job.]\n", NULL, "x.ini:1: [job.]: name must be" },
	{ "[job.abcdefghijklmnopqrstuvwxyz012345]\n", NULL,
	  "x.ini:1: [job.abcdefghijklmnopqrstuvwxyz012345]: name must be" },
	/* empty known sections, implemented or not, are fine */
	{ "[sim]\n[buffer]\n[pfc]\n[pfcwd]\n[ecn]\n[dcqcn]\n"
	  "[output]\n[criteria]\n[nic]\n[qos]\n", NULL,
	  NULL },
	/* but a fault, like a job, needs its kind */
	{ "[sim]\n[fault.storm]\n", NULL,
	  "x.ini:2: fault.storm.kind: missing (pause-storm, slow-receiver, link-down)" },
	{ "[fault]\nkind = link-down\n", NULL, "x.ini:1: [fault]: needs a name: [fault.NAME]" },
	{ "[fault.a.b]\n", NULL, "x.ini:1: [fault.a.b]: name must be" },
	/* keys */
	{ "[sim]\nseed = 2\nseeds = 3\n", NULL,
	  "x.ini:3: sim.seeds: unknown key; did you mean sim.seed?" },
	{ "[topology]\nHosts = 3\n", NULL,
	  "x.ini:2: topology.Hosts: unknown key; did you mean topology.hosts?" },
	{ "[ecn]\nkmid = 3KB\n", NULL, "x.ini:2: ecn.kmid: unknown key; did you mean ecn.kmin?" },
	{ "[fault.a]\nwhen = 3\n", NULL, "x.ini:2: fault.a.when: unknown key" },
	{ "[job.a]\npattern = incast\nsizes = 3\n", NULL,
	  "x.ini:3: job.a.sizes: unknown key; did you mean job.a.size?" },
	{ "seed = 3\n[sim]\n", NULL, "x.ini:1: seed: key before any [section]" },
	/* a key or a section given twice */
	{ "[topology]\nmtu = 4096\nspines = 2\nmtu = 9000\n", NULL,
	  "x.ini:4: topology.mtu: given twice (first at line 2)" },
	{ "[job.a]\npattern = incast\ndst = 1\ndst = 2\n", NULL,
	  "x.ini:4: job.a.dst: given twice (first at line 3)" },
	{ "[sim]\n[topology]\n[sim]\n", NULL,
	  "x.ini:3: [sim]: section given twice (first at line 1)" },
	{ "[job.a]\npattern = incast\n[job.a]\n", NULL,
	  "x.ini:3: [job.a]: section given twice (first at line 1)" },
	/* the same key in two jobs is not a duplicate */
	{ "[job.a]\npattern = incast\n[job.b]\npattern = incast\n", NULL, NULL },
};

TL_CASES_TEST(file)

/* a key line longer than inih's 199 characters is read (what the loader
 * prints must load back); one longer than 16384 is an error */
START_TEST(test_err_line_too_long)
{
	static char text[17000];

	memset(text, 'a', 400);
	memcpy(text, "[sim]\nseed = ", 13);
	text[398] = '\n';
	text[399] = '\0';
	tl_check_case(&(struct tl_case){ text, NULL, "x.ini:2: sim.seed: aaaaaaaa" });
	memset(text, 'a', sizeof(text));
	memcpy(text, "[sim]\nseed = ", 13);
	text[sizeof(text) - 2] = '\n';
	text[sizeof(text) - 1] = '\0';
	tl_check_case(&(struct tl_case){ text, NULL,
					 "x.ini:2: line too long (at most 16384 characters)" });
}
END_TEST

/* a scenario file with the most jobs or faults allowed, then one more */
static int job_section(char *p, int i)
{
	return sprintf(p, "[job.j%d]\npattern = incast\n", i);
}

static int fault_section(char *p, int i)
{
	return sprintf(p, "[fault.f%d]\nkind = link-down\nlink = leaf%d-spine%d\n", i, i % 4, i % 2);
}

static const struct {
	int (*section)(char *p, int i);
	uint32_t most;
	const char *one_more, *msg;
} most_cases[] = {
	{ job_section, SCN_MAX_JOBS, "[job.one-more]\n",
	  "x.ini:129: [job.one-more]: too many jobs (at most 64)" },
	{ fault_section, SCN_MAX_FAULTS, "[fault.one-more]\n",
	  "x.ini:193: [fault.one-more]: too many faults (at most 64)" },
};

START_TEST(test_most_sections)
{
	char *text = malloc(most_cases[_i].most * 64 + 64), *p = text;
	struct scn_error err;
	struct scenario *s;
	uint32_t i;

	ck_assert_ptr_nonnull(text);
	for (i = 0; i < most_cases[_i].most; i++)
		p += most_cases[_i].section(p, (int)i);
	s = tl_scn_try(text, &err);
	ck_assert_msg(s != NULL, "%s", err.msg);
	ck_assert_uint_eq(most_cases[_i].section == job_section ? s->njobs : s->nfaults,
			  most_cases[_i].most);
	tl_unload(s);
	sprintf(p, "%s", most_cases[_i].one_more);
	tl_check_case(&(struct tl_case){ text, NULL, most_cases[_i].msg });
	free(text);
}
END_TEST

/* ---- contradictions, required keys, hosts ---- */

static const struct tl_case contradiction_cases[] = {
	/* keys of another topology kind or scheduler */
	{ "[topology]\nkind = leaf-spine\n\n\nk = 8\n", NULL,
	  "x.ini:5: topology.k: only for kind = fat-tree (kind is leaf-spine)" },
	/* the kind may come after the key: still a contradiction */
	{ "[topology]\nspines = 4\nkind = star\n", NULL,
	  "x.ini:2: topology.spines: only for kind = leaf-spine or rail-optimized (kind is star)" },
	{ "[topology]\nhosts = 8\n", NULL,
	  "x.ini:2: topology.hosts: only for kind = star (kind is leaf-spine)" },
	/* the earliest line is reported */
	{ "[topology]\nkind = fat-tree\nhosts = 8\nspines = 2\n", NULL,
	  "x.ini:3: topology.hosts: only for kind = star (kind is fat-tree)" },
	{ "[qos]\ndwrr_weights = 1,1,1,1,1,1,1,1\n", NULL,
	  "x.ini:2: qos.dwrr_weights: only for scheduler = dwrr (scheduler is strict)" },
	{ "[qos]\nscheduler = strict\ndwrr_weights = 1,1,1,1,1,1,1,1\n", NULL,
	  "x.ini:3: qos.dwrr_weights: only for scheduler = dwrr" },
	{ "[topology]\nkind = star\nhosts = 8\n[job.in]\npattern = incast\ndst = 2\nsenders = 0-3\n", NULL,
	  "x.ini:7: job.in.senders: includes job.in.dst (2)" },
	/* job keys of another pattern; required keys */
	{ "[job.a]\npattern = incast\nranks = 0-3\n", NULL,
	  "x.ini:3: job.a.ranks: only for pattern = permutation, ring-allreduce, alltoall or training (pattern is incast)" },
	{ "[job.a]\nsenders = 1\npattern = permutation\n", NULL,
	  "x.ini:2: job.a.senders: only for pattern = incast (pattern is permutation)" },
	{ "[job.a]\npattern = trace\nfile = t.csv\nsize = 1MB\n", NULL,
	  "x.ini:4: job.a.size: only for pattern = incast, permutation, ring-allreduce, alltoall or storage (pattern is trace)" },
	{ "[job.a]\npattern = permutation\nfile = t.csv\n", NULL,
	  "x.ini:3: job.a.file: only for pattern = trace (pattern is permutation)" },
	{ "[job.a]\npattern = trace\ndst = 1\nfile = t.csv\n", NULL,
	  "x.ini:3: job.a.dst: only for pattern = incast (pattern is trace)" },
	/* required keys */
	{ "[sim]\n[job.a]\nsize = 1MB\n", NULL,
	  "x.ini:2: job.a.pattern: missing (trace, incast, permutation, ring-allreduce, alltoall, storage, training)" },
	{ "[job.a]\n", NULL, "x.ini:1: job.a.pattern: missing" },
	{ "[job.a]\npattern = trace\n", NULL,
	  "x.ini:1: job.a.file: missing (pattern = trace needs a CSV file)" },
	{ "[job.a]\npattern = trace\nfile =\n", NULL, "x.ini:3: job.a.file: empty" },
	/* host sets against the topology */
	{ "[job.a]\npattern = permutation\nranks = 0-63\n", NULL,
	  "x.ini:3: job.a.ranks: host 63 out of range (0-31)" },
	{ "[job.a]\npattern = permutation\nranks = 40\n", NULL,
	  "x.ini:3: job.a.ranks: host 40 out of range (0-31)" },
	{ "[job.a]\npattern = permutation\nranks = 0-3,2\n", NULL,
	  "x.ini:3: job.a.ranks: host 2 listed twice" },
	{ "[job.a]\npattern = permutation\nranks = 3-1\n", NULL,
	  "x.ini:3: job.a.ranks: 3-1 goes backwards" },
	{ "[job.a]\npattern = permutation\nranks = 0,,1\n", NULL,
	  "x.ini:3: job.a.ranks: 0,,1 is not a host list (use all, 0-63 or 0,2,4-7)" },
	{ "[job.a]\npattern = permutation\nranks = h1\n", NULL,
	  "x.ini:3: job.a.ranks: h1 is not a host list" },
	{ "[job.a]\npattern = permutation\nranks =\n", NULL, "x.ini:3: job.a.ranks: empty" },
	{ "[job.a]\npattern = permutation\nranks = 5\n", NULL,
	  "x.ini:3: job.a.ranks: 1 host (a permutation needs at least 2)" },
	{ "[job.a]\npattern = incast\ndst = 32\n", NULL,
	  "x.ini:3: job.a.dst: 32 out of range (0-31)" },
	{ "[job.a]\npattern = incast\nsenders = 30-32\n", NULL,
	  "x.ini:3: job.a.senders: host 32 out of range (0-31)" },
	/* the default dst (not given) is checked at the job's header line */
	{ "[topology]\nkind = star\nhosts = 2\n[job.a]\npattern = incast\nsenders = 0\n", NULL,
	  "x.ini:6: job.a.senders: includes job.a.dst (0)" },
	/* host count of a leaf-spine: leaves x hosts_per_leaf */
	{ "[topology]\nleaves = 1024\nhosts_per_leaf = 512\n", NULL,
	  "x.ini:3: topology.hosts_per_leaf: 1024 leaves x 512 hosts_per_leaf = 524288 hosts, out of range (2-65536)" },
	{ "[topology]\nleaves = 1\nhosts_per_leaf = 1\n", NULL,
	  "x.ini:3: topology.hosts_per_leaf: 1 leaves x 1 hosts_per_leaf = 1 hosts" },
	{ "[topology]\nleaves = 128\nhosts_per_leaf = 512\n", NULL, NULL },
};

TL_CASES_TEST(contradiction)

/* ---- faults, PFC off, the shared pool ---- */

static const struct tl_case fault_cases[] = {
	/* [fault.NAME] */
	/* keys that do not apply to the kind, like job keys and patterns */
	{ "[fault.c]\nkind = link-down\nnode = h3\nlink = leaf0-spine0\n", NULL,
	  "x.ini:3: fault.c.node: only for kind = pause-storm or slow-receiver (kind is link-down)" },
	{ "[fault.s]\nkind = pause-storm\nnode = h1\nrate = 10Gbps\n", NULL,
	  "x.ini:4: fault.s.rate: only for kind = slow-receiver (kind is pause-storm)" },
	{ "[fault.s]\nkind = slow-receiver\nnode = h1\nrate = 10Gbps\npriority = 3\n", NULL,
	  "x.ini:5: fault.s.priority: only for kind = pause-storm (kind is slow-receiver)" },
	{ "[fault.s]\nlink = leaf0-spine0\nkind = pause-storm\nnode = h1\n", NULL,
	  "x.ini:2: fault.s.link: only for kind = link-down (kind is pause-storm)" },
	/* required keys, at the section's line */
	{ "[sim]\n[fault.s]\nnode = h1\n", NULL,
	  "x.ini:2: fault.s.kind: missing (pause-storm, slow-receiver, link-down)" },
	{ "[fault.s]\nkind = pause-storm\n", NULL,
	  "x.ini:1: fault.s.node: missing (pause-storm needs a host, e.g. h3)" },
	{ "[fault.s]\nkind = slow-receiver\nnode = h1\n", NULL,
	  "x.ini:1: fault.s.rate: missing (slow-receiver needs a drain rate, e.g. 100Gbps)" },
	{ "[fault.c]\nkind = link-down\n", NULL,
	  "x.ini:1: fault.c.link: missing (link-down needs a link, e.g. leaf0-spine1)" },
	/* values */
	{ "[fault.s]\nkind = flap\n", NULL,
	  "x.ini:2: fault.s.kind: flap is not valid (pause-storm, slow-receiver, link-down)" },
	{ "[fault.s]\nkind = pause-storm\nnode = 3\n", NULL,
	  "x.ini:3: fault.s.node: 3 is not a host name (h0, h1, ...)" },
	{ "[fault.s]\nkind = pause-storm\nnode = h03\n", NULL,
	  "x.ini:3: fault.s.node: h03 is not a host name" },
	{ "[fault.s]\nkind = pause-storm\nnode = leaf1\n", NULL,
	  "x.ini:3: fault.s.node: leaf1 is a switch (pause-storm and slow-receiver are NIC faults: give a host, e.g. h3)" },
	{ "[fault.s]\nkind = pause-storm\nnode = h1\nstart = 1001s\n", NULL,
	  "x.ini:4: fault.s.start: 1001s out of range (0-1000s)" },
	{ "[fault.s]\nkind = pause-storm\nnode = h1\nduration = 5\n", NULL,
	  "x.ini:4: fault.s.duration: missing unit" },
	{ "[fault.s]\nkind = pause-storm\nnode = h1\npriority = 8\n", NULL,
	  "x.ini:4: fault.s.priority: 8 out of range (0-7)" },
	{ "[fault.s]\nkind = slow-receiver\nnode = h1\nrate = 999Kbps\n", NULL,
	  "x.ini:4: fault.s.rate: 999Kbps out of range (1Mbps-1600Gbps)" },
	{ "[fault.c]\nkind = link-down\nlink = leaf0spine1\n", NULL,
	  "x.ini:3: fault.c.link: leaf0spine1 is not a link (A-B of node names" },
	{ "[fault.c]\nkind = link-down\nlink = leaf0-spine1-h3\n", NULL,
	  "x.ini:3: fault.c.link: leaf0-spine1-h3 is not a link" },
	{ "[fault.c]\nkind = link-down\nlink = tor0-spine1\n", NULL,
	  "x.ini:3: fault.c.link: tor0-spine1 is not a link" },
	/* host index out of range (h0-h31 by default) */
	{ "[fault.s]\nkind = pause-storm\nnode = h32\n", NULL,
	  "x.ini:3: fault.s.node: h32 out of range (h0-h31)" },
	{ "[fault.s]\nkind = slow-receiver\n\nnode = h40\nrate = 1Gbps\n[topology]\nleaves = 5\n", NULL,
	  "x.ini:4: fault.s.node: h40 out of range (h0-h39)" },
	/* link ends: exist in this topology, directly cabled */
	{ "[fault.c]\nkind = link-down\nlink = leaf0-leaf1\n", NULL,
	  "x.ini:3: fault.c.link: leaf0 and leaf1 are not directly cabled" },
	{ "[fault.c]\nkind = link-down\nlink = h9-leaf0\n", NULL,
	  "x.ini:3: fault.c.link: h9 and leaf0 are not directly cabled (h9 is cabled to leaf1)" },
	{ "[fault.c]\nkind = link-down\nlink = h1-h2\n", NULL,
	  "x.ini:3: fault.c.link: h1 and h2 are not directly cabled" },
	{ "[fault.c]\nkind = link-down\nlink = h1-spine0\n", NULL,
	  "x.ini:3: fault.c.link: h1 and spine0 are not directly cabled" },
	{ "[fault.c]\nkind = link-down\nlink = leaf0-spine2\n", NULL,
	  "x.ini:3: fault.c.link: spine2 out of range (spine0-spine1)" },
	{ "[fault.c]\nkind = link-down\nlink = edge0-agg0\n", NULL,
	  "x.ini:3: fault.c.link: edge0 is not a node of a leaf-spine (h0-h31, leaf0-leaf3, spine0-spine1)" },
	{ "[topology]\nkind = fat-tree\nk = 4\n[fault.c]\nkind = link-down\nlink = edge0-agg2\n", NULL,
	  "x.ini:6: fault.c.link: edge0 and agg2 are not directly cabled (edge0 is in pod 0, agg2 in pod 1)" },
	{ "[topology]\nkind = fat-tree\nk = 4\n[fault.c]\nkind = link-down\nlink = agg0-core2\n", NULL,
	  "x.ini:6: fault.c.link: agg0 and core2 are not directly cabled (agg0 is cabled to core0-core1)" },
	{ "[topology]\nkind = fat-tree\nk = 4\n[fault.c]\nkind = link-down\nlink = h4-edge1\n", NULL,
	  "x.ini:6: fault.c.link: h4 and edge1 are not directly cabled (h4 is cabled to edge2)" },
	{ "[topology]\nkind = fat-tree\nk = 4\n[fault.c]\nkind = link-down\nlink = edge0-core0\n", NULL,
	  "x.ini:6: fault.c.link: edge0 and core0 are not directly cabled" },
	{ "[topology]\nkind = star\nhosts = 4\n[fault.c]\nkind = link-down\nlink = h1-sw1\n", NULL,
	  "x.ini:6: fault.c.link: sw1 out of range (only sw0)" },
	{ "[topology]\nkind = star\nhosts = 4\n[fault.c]\nkind = link-down\nlink = h4-sw0\n", NULL,
	  "x.ini:6: fault.c.link: h4 out of range (h0-h3)" },
	/* a storm on a lossy priority; a slow receiver not below the link */
	{ "[fault.s]\nkind = pause-storm\nnode = h1\npriority = 2\n", NULL,
	  "x.ini:4: fault.s.priority: 2 is not a lossless priority (pfc.priorities = 3)" },
	{ "[pfc]\npriorities = 3,4\n[fault.s]\nkind = pause-storm\nnode = h1\npriority = 0\n", NULL,
	  "x.ini:6: fault.s.priority: 0 is not a lossless priority (pfc.priorities = 3,4)" },
	{ "[fault.s]\nkind = slow-receiver\nnode = h1\nrate = 400Gbps\n", NULL,
	  "x.ini:4: fault.s.rate: 400Gbps must be below topology.host_link (400Gbps)" },
	{ "[fault.s]\nkind = slow-receiver\nnode = h1\nrate = 200Gbps\n[topology]\nhost_link = 100Gbps\n", NULL,
	  "x.ini:4: fault.s.rate: 200Gbps must be below topology.host_link (100Gbps)" },
	/* pause-storm and slow-receiver need PFC on */
	{ "[pfc]\npriorities =\n[fault.s]\nkind = pause-storm\nnode = h1\n", NULL,
	  "x.ini:4: fault.s.kind: pause-storm needs PFC on (pfc.priorities is empty)" },
	{ "[fault.s]\nkind = slow-receiver\nnode = h1\nrate = 1Gbps\n[pfc]\npriorities =\n", NULL,
	  "x.ini:2: fault.s.kind: slow-receiver needs PFC on (pfc.priorities is empty)" },
	/* a link-down does not */
	{ "[pfc]\npriorities =\n[fault.c]\nkind = link-down\nlink = leaf3-spine1\n", NULL, NULL },
	/* the section given twice */
	{ "[fault.a]\nkind = link-down\nlink = leaf0-spine0\n[fault.a]\n", NULL,
	  "x.ini:4: [fault.a]: section given twice (first at line 1)" },
	{ "[fault.a]\nkind = link-down\nkind = pause-storm\n", NULL,
	  "x.ini:3: fault.a.kind: given twice (first at line 2)" },
	/* contradictions with PFC or the watchdog off */
	{ "[pfc]\npriorities =\nheadroom = 100KB\n", NULL,
	  "x.ini:3: pfc.headroom: PFC is off (pfc.priorities is empty)" },
	/* in any order; the earliest line is reported */
	{ "[pfc]\npause_quanta = 10\nxon_offset = 1KB\npriorities =\n", NULL,
	  "x.ini:2: pfc.pause_quanta: PFC is off (pfc.priorities is empty)" },
	{ "[pfc]\nresponse_time = auto\npriorities =\n", NULL,
	  "x.ini:2: pfc.response_time: PFC is off (pfc.priorities is empty)" },
	{ "[pfcwd]\nenable = false\naction = alert\n", NULL,
	  "x.ini:3: pfcwd.action: the PFC watchdog is off (pfcwd.enable is false)" },
	{ "[pfcwd]\ndetection_time = 1ms\nenable = no\n", NULL,
	  "x.ini:2: pfcwd.detection_time: the PFC watchdog is off (pfcwd.enable is false)" },
	/* unused defaults are fine */
	{ "[pfc]\npriorities =\n[pfcwd]\nenable = false\n", NULL, NULL },
	{ "[pfc]\npriorities = 3\nheadroom = 1KB\n[pfcwd]\nenable = true\naction = alert\n", NULL,
	  NULL },
	/* the shared pool */
	/* leaf: 10 ports x 8 PGs x 4158 = 332640, 8 x 71954 = 575632, 2 x 85454 = 170908 */
	{ "[buffer]\nsize = 1MB\n", NULL,
	  "x.ini:2: buffer.size: 1MB leaves no shared pool on leaf switches: 1MB - 10 ports x 8 PGs x 4158B reserved"
	  " - 8 host ports x 1 lossless PG x 71954B headroom - 2 fabric ports x 1 lossless PG x 85454B headroom"
	  " = -79180B" },
	/* exactly zero is no pool either: 1079180 B */
	{ "[buffer]\nsize = 1079180B\n", NULL,
	  "x.ini:2: buffer.size: 1079.18KB leaves no shared pool on leaf switches: " },
	{ "[buffer]\nsize = 1079181B\n", NULL, NULL },
	/* buffer.size not given: the latest key the pool depends on */
	{ "[pfc]\nheadroom = 10MB\n", NULL,
	  "x.ini:2: pfc.headroom: buffer.size 64MB leaves no shared pool on leaf switches: 64MB - 10 ports x 8 PGs x 4158B reserved"
	  " - 8 host ports x 1 lossless PG x 10000000B headroom - 2 fabric ports x 1 lossless PG x 10000000B headroom"
	  " = -36332640B" },
	{ "[topology]\nleaves = 1024\nhosts_per_leaf = 2\n", NULL,
	  "x.ini:3: topology.hosts_per_leaf: buffer.size 64MB leaves no shared pool on spine switches: 64MB - 1024 ports x 8 PGs x 4158B reserved"
	  " - 1024 fabric ports x 1 lossless PG x 85454B headroom = -57567232B" },
	/* PFC off: no headroom term; the reserved default follows the mtu (9062) */
	{ "[topology]\nkind = star\nhosts = 4\nmtu = 9000\n[pfc]\npriorities =\n[buffer]\nsize = 200KB\n", NULL,
	  "x.ini:8: buffer.size: 200KB leaves no shared pool on sw0: 200KB - 4 ports x 8 PGs x 9062B reserved = -89984B" },
	/* two lossless priorities: two headrooms per port */
	{ "[pfc]\npriorities = 3,4\n[buffer]\nsize = 1MB\nreserved = 0B\n", NULL,
	  "x.ini:4: buffer.size: 1MB leaves no shared pool on leaf switches: 1MB - 10 ports x 8 PGs x 0B reserved"
	  " - 8 host ports x 2 lossless PGs x 71954B headroom - 2 fabric ports x 2 lossless PGs x 85454B headroom"
	  " = -493080B" },
	/* fat-tree k = 4: core has 4 fabric ports at 100m of 100Gbps */
	{ "[topology]\nkind = fat-tree\nk = 4\nfabric_link = 100Gbps\nfabric_cable = 100m\n"
	  "[buffer]\nsize = 300KB\n", NULL,
	  "x.ini:7: buffer.size: 300KB leaves no shared pool on edge switches: 300KB - 4 ports x 8 PGs x 4158B reserved"
	  " - 2 host ports x 1 lossless PG x 71954B headroom - 2 fabric ports x 1 lossless PG x 50250B headroom"
	  " = -77464B" },
	/* a --set that exhausts it: found at finalize */
	{ "[sim]\nseed = 3\n", "buffer.size=1MB",
	  "--set: buffer.size: 1MB leaves no shared pool on leaf switches: " },
};

TL_CASES_TEST(fault)

/* ---- collectives and the flows of all jobs ---- */

static const struct tl_case collective_cases[] = {
	/* keys of another pattern; ranks */
	{ "[job.a]\npattern = incast\nchannels = 2\n", NULL,
	  "x.ini:3: job.a.channels: only for pattern = ring-allreduce (pattern is incast)" },
	{ "[job.a]\npattern = alltoall\nslice = 64KB\n", NULL,
	  "x.ini:3: job.a.slice: only for pattern = ring-allreduce (pattern is alltoall)" },
	{ "[job.a]\nschedule = shift\npattern = ring-allreduce\n", NULL,
	  "x.ini:2: job.a.schedule: only for pattern = alltoall (pattern is ring-allreduce)" },
	{ "[job.a]\npattern = permutation\nschedule = shift\n", NULL,
	  "x.ini:3: job.a.schedule: only for pattern = alltoall (pattern is permutation)" },
	{ "[job.a]\npattern = ring-allreduce\ndst = 3\n", NULL,
	  "x.ini:3: job.a.dst: only for pattern = incast (pattern is ring-allreduce)" },
	{ "[job.a]\npattern = alltoall\nsenders = 1-3\n", NULL,
	  "x.ini:3: job.a.senders: only for pattern = incast (pattern is alltoall)" },
	{ "[job.a]\npattern = ring-allreduce\nfile = t.csv\n", NULL,
	  "x.ini:3: job.a.file: only for pattern = trace (pattern is ring-allreduce)" },
	{ "[job.a]\npattern = trace\nfile = t.csv\nranks = 0-3\n", NULL,
	  "x.ini:4: job.a.ranks: only for pattern = permutation, ring-allreduce, alltoall or training (pattern is trace)" },
	/* the earliest line */
	{ "[job.a]\npattern = alltoall\niterations = 2\nslice = 1MB\nchannels = 2\n", NULL,
	  "x.ini:4: job.a.slice: only for pattern = ring-allreduce (pattern is alltoall)" },
	/* ranks: at least 2, host indices */
	{ "[job.r]\npattern = ring-allreduce\nranks = 3\n", NULL,
	  "x.ini:3: job.r.ranks: 1 host (a ring-allreduce needs at least 2)" },
	{ "[job.r]\npattern = alltoall\nranks = 31\n", NULL,
	  "x.ini:3: job.r.ranks: 1 host (an alltoall needs at least 2)" },
	{ "[job.r]\npattern = ring-allreduce\nranks = 30-32\n", NULL,
	  "x.ini:3: job.r.ranks: host 32 out of range (0-31)" },
	{ "[job.r]\npattern = alltoall\nranks = 1,2,1\n", NULL,
	  "x.ini:3: job.r.ranks: host 1 listed twice" },
	/* the size against ranks and channels */
	/* docs/contract.md#scenario-files's form, at the line of size */
	{ "[topology]\nleaves = 8\nhosts_per_leaf = 8\n\n[job.ar]\npattern = ring-allreduce\n"
	  "ranks = all\nchannels = 2\nsize = 100B\n", NULL,
	  "x.ini:9: job.ar.size: 100B is below ranks x channels (64 x 2 = 128 B)" },
	/* the boundary: one byte per chunk */
	{ "[job.ar]\npattern = ring-allreduce\nsize = 7B\nranks = 0-3\nchannels = 2\n", NULL,
	  "x.ini:3: job.ar.size: 7B is below ranks x channels (4 x 2 = 8 B)" },
	{ "[job.ar]\npattern = ring-allreduce\nsize = 8B\nranks = 0-3\nchannels = 2\n", NULL,
	  NULL },
	/* size not given: the job's header line (4MB < 65536 ranks x 64 channels) */
	{ "[topology]\nleaves = 128\nhosts_per_leaf = 512\n[job.big]\n"
	  "pattern = ring-allreduce\nchannels = 64\n", NULL,
	  "x.ini:4: job.big.size: 4MB is below ranks x channels (65536 x 64 = 4194304 B)" },
	/* alltoall: floor(S / n) per peer, at least one byte */
	{ "[job.a]\npattern = alltoall\nranks = 0-3\nsize = 3B\n", NULL,
	  "x.ini:4: job.a.size: 3B is below ranks (4 B: each rank sends floor(size / ranks) to every other rank)" },
	{ "[job.a]\npattern = alltoall\nranks = 0-3\nsize = 4B\n", NULL, NULL },
	{ "[job.a]\npattern = alltoall\nsize = 31B\n", NULL,
	  "x.ini:3: job.a.size: 31B is below ranks (32 B: " },
	/* a --set breaks it: finalize points at the job's header, or --set */
	{ "[sim]\n[job.ar]\npattern = ring-allreduce\nsize = 40B\n", "topology.hosts_per_leaf=16",
	  "x.ini:2: job.ar.size: 40B is below ranks x channels (64 x 1 = 64 B)" },
	{ "[job.ar]\npattern = ring-allreduce\nsize = 64B\n", "job.ar.channels=3",
	  "x.ini:1: job.ar.size: 64B is below ranks x channels (32 x 3 = 96 B)" },
	/* more than 10^12 flows */
	/* exact without overflow: 65536 ranks, 64 channels, 1000GB in 1KB slices */
	{ "[topology]\nleaves = 128\nhosts_per_leaf = 512\n[job.ar]\npattern = ring-allreduce\n"
	  "size = 1000GB\nchannels = 64\nslice = 1KB\niterations = 100000\n", NULL,
	  "x.ini:9: job.ar.iterations: too many flows: job ar makes 13138963464192000000 (iterations 100000 "
	  "x channels 64 x 2(ranks - 1) 131070 x ranks 65536 x ceil(chunk 238.419KB / slice 1KB) 239), "
	  "all jobs 13138963464192000000, at most 1000000000000 (lower iterations or channels, raise slice, "
	  "or use fewer ranks)" },
	/* chunk rounded up: ceil(4000000 / (3 x 32)) = 41667 B, 41 full 1 KB slices + 1 */
	{ "[job.ar]\npattern = ring-allreduce\nchannels = 3\nslice = 1KB\niterations = 100000\n"
	  "[topology]\nleaves = 64\nhosts_per_leaf = 512\n", NULL,
	  "x.ini:5: job.ar.iterations: too many flows: job ar makes 644225433600000 (iterations 100000 "
	  "x channels 3 x 2(ranks - 1) 65534 x ranks 32768 x ceil(chunk 41B / slice 1KB) 1)" },
	{ "[topology]\nleaves = 128\nhosts_per_leaf = 512\n[job.a]\npattern = alltoall\nsize = 1GB\n"
	  "iterations = 300\n", NULL,
	  "x.ini:7: job.a.iterations: too many flows: job a makes 1288470528000 (iterations 300 x ranks 65536 "
	  "x (ranks - 1) 65535), all jobs 1288470528000, at most 1000000000000 (lower iterations or use "
	  "fewer ranks)" },
	/* under the limit is allowed; over it, the job with the most is named */
	{ "[topology]\nleaves = 128\nhosts_per_leaf = 512\n[job.a]\npattern = alltoall\nsize = 1GB\n"
	  "iterations = 232\n", NULL, NULL },
	{ "[topology]\nleaves = 128\nhosts_per_leaf = 512\n[job.p]\npattern = permutation\n"
	  "iterations = 100000\n[job.a]\npattern = alltoall\nsize = 1GB\niterations = 232\n", NULL,
	  "x.ini:10: job.a.iterations: too many flows: job a makes 996417208320 (iterations 232 x ranks 65536 "
	  "x (ranks - 1) 65535), all jobs 1002970808320, at most 1000000000000 (lower iterations or use "
	  "fewer ranks)" },
	/* a --set over the limit: the job's header, or --set */
	{ "[job.a]\npattern = alltoall\nsize = 1GB\n", "topology.leaves=128",
	  NULL },
	{ "[topology]\nleaves = 128\nhosts_per_leaf = 512\n[job.a]\npattern = alltoall\nsize = 1GB\n",
	  "job.a.iterations=300", /* the file does not give it: the job's header, not the key */
	  "x.ini:4: job.a: too many flows: job a makes 1288470528000 (iterations 300 x ranks 65536 "
	  "x (ranks - 1) 65535)" },
};

TL_CASES_TEST(collective)

START_TEST(test_err_collective_size_set)
{
	struct scenario *s = tl_scn_new();
	struct scn_error err;

	ck_assert_int_eq(scenario_set(s, "job.n.pattern=alltoall", &err), 0);
	ck_assert_int_eq(scenario_set(s, "job.n.size=2B", &err), 0);
	ck_assert_int_eq(scenario_finalize(s, &err), -1);
	ck_assert_str_eq(err.msg, "--set: job.n.size: 2B is below ranks (32 B: each rank sends floor(size / ranks) to every other rank)");
	tl_unload(s);
}
END_TEST

/* flows counted at finalize: a topology a --set changed */
START_TEST(test_err_flows_at_finalize)
{
	struct scenario *s = tl_scn_new();
	struct scn_error err;

	ck_assert_int_eq(scenario_set(s, "job.b.pattern=alltoall", &err), 0);
	ck_assert_int_eq(scenario_set(s, "job.b.size=1GB", &err), 0);
	ck_assert_int_eq(scenario_set(s, "job.b.iterations=300", &err), 0);
	ck_assert_int_eq(scenario_set(s, "topology.leaves=128", &err), 0);
	ck_assert_int_eq(scenario_set(s, "topology.hosts_per_leaf=512", &err), 0);
	ck_assert_int_eq(scenario_finalize(s, &err), -1);
	ck_assert_str_eq(err.msg, "--set: job.b: too many flows: job b makes 1288470528000 "
				  "(iterations 300 x ranks 65536 x (ranks - 1) 65535), all jobs 1288470528000, "
				  "at most 1000000000000 (lower iterations or use fewer ranks)");
	/* a --set back under the limit */
	ck_assert_int_eq(scenario_set(s, "job.b.iterations=200", &err), 0);
	ck_assert_msg(scenario_finalize(s, &err) == 0, "%s", err.msg);
	tl_unload(s);
}
END_TEST

/* ---- did you mean ---- */

/* the reader's list, and the one scenario_key_known() and `keys` build from the section table */
#define SECTIONS "(sim, topology, qos, nic, job.NAME, buffer, pfc, pfcwd, ecn, dcqcn, fault.NAME, output, criteria, fabric, ib, tcp)"
#define SECTIONS_ALL SECTIONS

/* whole messages: what follows the name must be exactly this (or nothing) */
static const struct tl_case guess_cases[] = {
	/* sections, in a file and by --set; named ones keep their name */
	{ "[sim]\n[topolgy]\nspines = 2\n", NULL,
	  "x.ini:2: [topolgy]: unknown section " SECTIONS "; did you mean [topology]?" },
	{ "[Sim]\n", NULL, "x.ini:1: [Sim]: unknown section " SECTIONS "; did you mean [sim]?" },
	{ "[jb.a]\npattern = incast\n", NULL,
	  "x.ini:1: [jb.a]: unknown section " SECTIONS "; did you mean [job.a]?" },
	{ "[sim]\n", "topolgy.spines=4",
	  "--set: topolgy.spines: unknown section " SECTIONS "; did you mean topology.spines?" },
	{ "[sim]\n", "faults.s.kind=link-down",
	  "--set: faults.s.kind: unknown section " SECTIONS "; did you mean fault.s.kind?" },
	/* nothing close: no guess */
	{ "[foo]\n", NULL, "x.ini:1: [foo]: unknown section " SECTIONS },
	{ "[sim.x]\n", NULL, "x.ini:1: [sim.x]: unknown section " SECTIONS },
	/* keys */
	{ "[nic]\nccc = none\n", NULL, "x.ini:2: nic.ccc: unknown key; did you mean nic.cc?" },
	{ "[sim]\n", "nic.ccc=none", "--set: nic.ccc: unknown key; did you mean nic.cc?" },
	{ "[sim]\n", "dcqcn.rpg_ai_rat=10", "--set: dcqcn.rpg_ai_rat: unknown key; did you mean dcqcn.rpg_ai_rate?" },
	{ "[fault.s]\nkind = pause-storm\nnode = h1\nstrat = 1ms\n", NULL,
	  "x.ini:4: fault.s.strat: unknown key; did you mean fault.s.start?" },
	/* the key of another section, by its exact name */
	{ "[pfc]\nkmin = 1KB\n", NULL, "x.ini:2: pfc.kmin: unknown key; did you mean ecn.kmin?" },
	{ "[buffer]\nheadroom = 1KB\n", NULL,
	  "x.ini:2: buffer.headroom: unknown key; did you mean pfc.headroom?" },
	/* as close to two keys, to none, or to several sections: no guess */
	{ "[ecn]\nkmix = 3KB\n", NULL, "x.ini:2: ecn.kmix: unknown key" },
	{ "[topology]\nx = 3\n", NULL, "x.ini:2: topology.x: unknown key" },
	{ "[fault.a]\nwhen = 3\n", NULL, "x.ini:2: fault.a.when: unknown key" },
	{ "[sim]\nqueues = 3\n", NULL, "x.ini:2: sim.queues: unknown key" },
	/* enum values */
	{ "[job.a]\npattern = ring-allreduse\n", NULL,
	  "x.ini:2: job.a.pattern: ring-allreduse is not valid (trace, incast, permutation, "
	  "ring-allreduce, alltoall, storage, training); did you mean ring-allreduce?" },
	{ "[sim]\n", "topology.kind=fat_tree",
	  "--set: topology.kind: fat_tree is not valid (leaf-spine, fat-tree, star, rail-optimized, file); did you mean fat-tree?" },
	{ "[fault.s]\nkind = flap\n", NULL,
	  "x.ini:2: fault.s.kind: flap is not valid (pause-storm, slow-receiver, link-down)" },
	/* a --set of a job or fault that does not exist */
	{ "[job.victim]\npattern = incast\n", "job.victm.size=1MB",
	  "--set: job.victm.size: no job victm; did you mean job.victim? (to create a new job give "
	  "job.victm.pattern first)" },
	{ "[job.victim]\npattern = incast\n", "job.zzz.size=1MB",
	  "--set: job.zzz.size: no job zzz yet (give job.zzz.pattern first)" },
	{ "[fault.storm]\nkind = pause-storm\nnode = h1\n", "fault.strom.start=1ms",
	  "--set: fault.strom.start: no fault strom; did you mean fault.storm? (to create a new "
	  "fault give fault.strom.kind first)" },
	/* two jobs as close: no guess */
	{ "[job.a1]\npattern = incast\n[job.a2]\npattern = incast\n", "job.a3.size=1MB",
	  "--set: job.a3.size: no job a3 yet (give job.a3.pattern first)" },
	/* the selecting key creates the job, typo or not */
	{ "[job.victim]\npattern = incast\n", "job.victm.pattern=incast", NULL },
};

START_TEST(guess)
{
	const struct tl_case *c = &guess_cases[_i];
	struct scenario *s = tl_scn_new();
	struct scn_error err = { "" };
	int rc = scenario_load_string(s, "x.ini", c->text, &err);

	if (c->set) {
		ck_assert_msg(rc == 0, "load: %s", err.msg);
		rc = scenario_set(s, c->set, &err);
	}
	if (rc == 0)
		rc = scenario_finalize(s, &err);
	if (c->msg) {
		ck_assert_msg(rc == -1, "accepted, expected %s", c->msg);
		ck_assert_str_eq(err.msg, c->msg);
	} else {
		ck_assert_msg(rc == 0, "unexpected error: %s", err.msg);
	}
	tl_unload(s);
}
END_TEST

START_TEST(test_edit_distance)
{
	ck_assert_int_eq(scn_edit_distance("kitten", 6, "sitting"), 3);
	ck_assert_int_eq(scn_edit_distance("seed", 4, "seed"), 0);
	ck_assert_int_eq(scn_edit_distance("sede", 4, "seed"), 1); /* a swap is one edit */
	ck_assert_int_eq(scn_edit_distance("", 0, "abc"), 3);
	ck_assert_int_eq(scn_edit_distance("topolgy", 7, "topology"), 1);
	/* the length given, not the string's */
	ck_assert_int_eq(scn_edit_distance("nic.cc", 3, "nic"), 0);
	ck_assert_str_eq(scn_guess_name((const char *const[]){ "flow", "packet", NULL }, "paket"),
			 "packet");
	ck_assert_ptr_null(scn_guess_name((const char *const[]){ "kmin", "kmax", NULL }, "kmix"));
	ck_assert_ptr_null(scn_guess_name((const char *const[]){ "ab", NULL }, "ac"));
	ck_assert_int_eq(scn_guess_section("topolgy", 7), scn_guess_section("topologi", 8));
	ck_assert_int_eq(scn_guess_section("xyz", 3), -1);
}
END_TEST

/* what sweep --vary checks before loading anything */
static const struct {
	const char *key, *msg;
} known_cases[] = {
	{ "nic.cc", NULL },
	{ "job.a.size", NULL },
	{ "fault.x.kind", NULL },
	{ "dcqcn.rpg_gd", NULL },
	{ "nic.ccc", "nic.ccc: unknown key; did you mean nic.cc?" },
	{ "job.a.sizes", "job.a.sizes: unknown key; did you mean job.a.size?" },
	{ "ecn.kmix", "ecn.kmix: unknown key" },
	{ "topolgy.spines", "topolgy.spines: unknown section " SECTIONS_ALL "; did you mean topology.spines?" },
	{ "job.size", "job.size: needs a name: job.NAME.size" },
	{ "sim.x.seed", "sim.x.seed: unknown section " SECTIONS_ALL },
	{ "spines", "spines: expected section.key" },
	{ "topology.", "topology.: expected section.key" },
};

START_TEST(test_key_known)
{
	char err[512] = "";
	int rc = scenario_key_known(known_cases[_i].key, err, sizeof(err));

	if (!known_cases[_i].msg) {
		ck_assert_msg(rc == 0, "%s: %s", known_cases[_i].key, err);
	} else {
		ck_assert_int_eq(rc, -1);
		ck_assert_str_eq(err, known_cases[_i].msg);
	}
}
END_TEST

/* `dcqcn-sim keys`: every key has a meaning in its row of the key table */
START_TEST(test_key_docs)
{
	char buf[4096];

	ck_assert_msg(scenario_key_docs_check(buf, sizeof(buf)) == 0, "%s", buf);
	ck_assert_str_eq(scenario_key_meaning("nic.cc"), "dcqcn, or none (line rate, PFC alone)");
	ck_assert_ptr_nonnull(scenario_key_meaning("job.size"));
	ck_assert_ptr_null(scenario_key_meaning("job.NAME.size"));
	ck_assert_ptr_null(scenario_key_meaning("nic.ccc"));
}
END_TEST

/* keys SECTION */
START_TEST(test_keys_section)
{
	char err[512] = "", *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(scenario_print_keys(out, "ecn", err, sizeof(err)), 0);
	fclose(out);
	ck_assert_ptr_nonnull(strstr(text, "\n[ecn]\necn.queues = 3\n"));
	ck_assert_ptr_nonnull(strstr(text, "\necn.kmin = 150KB\n    marking ramp"));
	ck_assert_ptr_nonnull(strstr(text, "    only when ecn.queues is not empty\n"));
	ck_assert_ptr_null(strstr(text, "\npfc."));
	free(text);
	ck_assert_int_eq(scenario_print_keys(stdout, "topolgy", err, sizeof(err)), -1);
	ck_assert_str_eq(err, "no section topolgy " SECTIONS_ALL "; did you mean topology?");
	ck_assert_int_eq(scenario_print_keys(stdout, "sim.x", err, sizeof(err)), -1);
	ck_assert_str_eq(err, "no section sim.x " SECTIONS_ALL);
}
END_TEST

static Suite *make_scenario_errors_suite(void)
{
	Suite *su = suite_create("scenario-errors");
	TCase *tc;

	tc = tcase_create("file");
	TL_ADD_CASES(tc, file);
	tcase_add_test(tc, test_err_line_too_long);
	tcase_add_loop_test(tc, test_most_sections, 0,
			    (int)(sizeof(most_cases) / sizeof(most_cases[0])));
	suite_add_tcase(su, tc);

	tc = tcase_create("contradictions");
	TL_ADD_CASES(tc, contradiction);
	suite_add_tcase(su, tc);

	tc = tcase_create("faults");
	TL_ADD_CASES(tc, fault);
	suite_add_tcase(su, tc);

	tc = tcase_create("collectives");
	TL_ADD_CASES(tc, collective);
	tcase_add_test(tc, test_err_collective_size_set);
	tcase_add_test(tc, test_err_flows_at_finalize);
	suite_add_tcase(su, tc);

	tc = tcase_create("did-you-mean");
	TL_ADD_CASES(tc, guess);
	tcase_add_test(tc, test_edit_distance);
	tcase_add_loop_test(tc, test_key_known, 0,
			    (int)(sizeof(known_cases) / sizeof(known_cases[0])));
	tcase_add_test(tc, test_key_docs);
	tcase_add_test(tc, test_keys_section);
	suite_add_tcase(su, tc);
	return su;
}

int main(void)
{
	return tl_run(make_scenario_errors_suite());
}
