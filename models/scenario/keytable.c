/*
 * keytable.c - the sections and keys of docs/contract.md#scenario-files: the key table
 * (scn_key_defs[]), one row a key with its type, field, range, where it
 * applies, default and meaning, and the value names of the enum keys.
 *
 * Choices where the brief is silent
 *   - job sizes and trace bytes: 1 B to 1000GB; job start and trace start_us:
 *     0 to 1000 s (the longest sim.duration).
 *   - job.NAME.iterations (1-100000), compute_gap and skew (0-1000s) apply
 *     to every pattern; channels (1-64) and slice (1KB-1GB) to
 *     ring-allreduce only; schedule = all-at-once | shift to alltoall only.
 *     ranks (at least 2) and size apply to permutation, ring-allreduce and
 *     alltoall; size also to incast.
 *   - keys that apply to 3 or more values of their selector list them as
 *     "pattern = permutation, ring-allreduce or alltoall".
 *   - topology.fabric_link, fabric_cable and ecmp apply to every kind (a
 *     star has no fabric link; they are then unused).
 *   - buffer.cell and nic.pause_watchdog accept a bare "0" (byte exact,
 *     off) besides a value with a unit, and print 0 that way.
 *   - pfc.headroom is auto or 0-64MB, pfc.response_time auto or 0-1ms,
 *     pfc.xon_offset 0-64MB (0 and tiny values are legal: undersized
 *     headroom is an experiment, not a typo).  pfc.priorities lists
 *     priorities 0-7 in any order; it prints in ascending order.
 *   - fault.NAME.node and, for link-down, fault.NAME.link are required (a
 *     fault has no sensible default place), like slow-receiver's rate.
 *     node names only hosts: both faults that take a node are NIC faults.
 *     Node names are canonical: h3, not h03.  fault start and duration:
 *     0-1000s.  A fault that starts after sim.duration is not an error
 *     (like a job's start).  Fields of keys that do not apply to a fault's
 *     kind are unused: host stays UINT32_MAX, link_text empty, rate_bps 0,
 *     priority 0xff.
 *   - restoration_time below detection_time is allowed (SONiC allows it).
 *   - ecn.kmin 0-64GiB, ecn.kmax above 0 and at most 64GiB (and above
 *     kmin), ecn.pmax above 0 and at most 100%.  ecn.queues lists egress
 *     queues 0-7 like pfc.priorities and prints in ascending order.
 */
#include "models/scenario/loader.h"

#include <stddef.h>

/* ---- sections and keys ---- */

const struct section_def scn_section_defs[SEC_COUNT] = {
	[SEC_SIM] = { "sim", 0, 1, NULL },
	[SEC_TOPOLOGY] = { "topology", 0, 1, NULL },
	[SEC_QOS] = { "qos", 0, 1, NULL },
	[SEC_NIC] = { "nic", 0, 1, NULL },
	[SEC_JOB] = { "job", 1, 1, "pattern" },
	[SEC_BUFFER] = { "buffer", 0, 1, NULL },
	[SEC_PFC] = { "pfc", 0, 1, NULL },
	[SEC_PFCWD] = { "pfcwd", 0, 1, NULL },
	[SEC_ECN] = { "ecn", 0, 1, NULL },
	[SEC_DCQCN] = { "dcqcn", 0, 1, NULL },
	[SEC_FAULT] = { "fault", 1, 1, "kind" },
	[SEC_OUTPUT] = { "output", 0, 1, NULL },
	[SEC_CRITERIA] = { "criteria", 0, 1, NULL },
	[SEC_FABRIC] = { "fabric", 0, 1, NULL },
	[SEC_IB] = { "ib", 0, 1, NULL },
	[SEC_TCP] = { "tcp", 0, 1, NULL },
};

#define SF(f) offsetof(struct scenario, f), sizeof(((struct scenario *)0)->f)
#define JF(f) offsetof(struct scn_job, f), sizeof(((struct scn_job *)0)->f)
#define FF(f) offsetof(struct scn_fault, f), sizeof(((struct scn_fault *)0)->f)
#define NOF 0, 0
#define TODO(sec, name) \
	{ sec, name, KT_TODO, NOF, 0, 0, NULL, NULL, NULL, NULL, 0, 0, { 0 }, NULL, NULL }

static const char *const topo_names[] = { "leaf-spine", "fat-tree", "star", "rail-optimized",
					  "file", NULL };
static const char *const ecmp_names[] = { "flow", "packet", "adaptive", NULL };
static const char *const sched_names[] = { "strict", "dwrr", NULL };
static const char *const cc_names[] = { "none", "dcqcn", NULL };
const char *const scn_mark_point_names[] = { "dequeue", "enqueue", NULL };
static const char *const queues_names[] = { "switches", "all", "none", NULL };
static const char *const flows_names[] = { "none", "all", NULL }; /* output_flows 0, 1 */
const char *const scn_profile_names[] = { "nvidia", "paper", "hpcc", NULL };
static const char *const cnp_scope_names[] = { "qp", "port", NULL };
static const char *const cut_on_names[] = { "cnp", "timer", NULL };
const char *const scenario_fabric_names[SCN_FABRIC_COUNT + 1] = {
	SCN_FABRIC_NAME_ROCE, SCN_FABRIC_NAME_IB, SCN_FABRIC_NAME_TCP, NULL
};
static const char *const tcp_cc_names[] = { "newreno", "dctcp", NULL };
static const char *const busbw_stat_names[] = { "min", "mean", NULL };
static const char *const pattern_names[] = { "trace", "incast", "permutation", "ring-allreduce",
					     "alltoall", "storage", "training", NULL };
static const char *const rw_names[] = { "read", "write", "randrw", NULL };
static const char *const schedule_names[] = { "all-at-once", "shift", NULL };
static const char *const algorithm_names[] = { "ring", "tree", NULL };
static const char *const optimizer_names[] = { "all-reduce", "sharded", NULL };
static const char *const pfcwd_action_names[] = { "drop", "forward", "alert", NULL };
const char *const scn_fault_kind_names[] = { "pause-storm", "slow-receiver", "link-down",
						NULL };

_Static_assert(SCN_TOPO_LEAF_SPINE == 0 && SCN_TOPO_FAT_TREE == 1 && SCN_TOPO_STAR == 2 &&
		       SCN_TOPO_RAIL == 3 && SCN_TOPO_FILE == 4,
	       "topo_names[] follows enum scn_topo_kind");
_Static_assert(SCN_ECMP_FLOW == 0 && SCN_ECMP_PACKET == 1 && SCN_ECMP_ADAPTIVE == 2,
	       "ecmp_names[] order");
_Static_assert(SCN_SCHED_STRICT == 0 && SCN_SCHED_DWRR == 1, "sched_names[] order");
_Static_assert(SCN_CC_NONE == 0 && SCN_CC_DCQCN == 1, "cc_names[] order");
_Static_assert(SCN_MARK_DEQUEUE == 0 && SCN_MARK_ENQUEUE == 1, "scn_mark_point_names[] order");
_Static_assert(SCN_QUEUES_SWITCHES == 0 && SCN_QUEUES_ALL == 1 && SCN_QUEUES_NONE == 2,
	       "queues_names[] order");
_Static_assert(SCN_DCQCN_NVIDIA == 0 && SCN_DCQCN_PAPER == 1 && SCN_DCQCN_HPCC == 2,
	       "scn_profile_names[] order");
_Static_assert(SCN_FABRIC_ROCE == 0 && SCN_FABRIC_IB == 1 && SCN_FABRIC_TCP == 2,
	       "scenario_fabric_names[] order");
_Static_assert(SCN_TCP_NEWRENO == 0 && SCN_TCP_DCTCP == 1, "tcp_cc_names[] order");
_Static_assert(SCN_CNP_SCOPE_QP == 0 && SCN_CNP_SCOPE_PORT == 1, "cnp_scope_names[] order");
_Static_assert(SCN_CUT_ON_CNP == 0 && SCN_CUT_ON_TIMER == 1, "cut_on_names[] order");
_Static_assert(SCN_JOB_TRACE == 0 && SCN_JOB_INCAST == 1 && SCN_JOB_PERMUTATION == 2 &&
		       SCN_JOB_RING_ALLREDUCE == 3 && SCN_JOB_ALLTOALL == 4 && SCN_JOB_STORAGE == 5 &&
		       SCN_JOB_TRAINING == 6,
	       "pattern_names[] order");
_Static_assert(SCN_SCHEDULE_ALL_AT_ONCE == 0 && SCN_SCHEDULE_SHIFT == 1, "schedule_names[] order");
_Static_assert(SCN_ALGO_RING == 0 && SCN_ALGO_TREE == 1, "algorithm_names[] order");
_Static_assert(SCN_OPT_ALLREDUCE == 0 && SCN_OPT_SHARDED == 1 &&
		       sizeof(enum scn_optimizer) == sizeof(int32_t),
	       "optimizer_names[] order");
_Static_assert(SCN_RW_READ == 0 && SCN_RW_WRITE == 1 && SCN_RW_RANDRW == 2, "rw_names[] order");
_Static_assert(SCN_PFCWD_DROP == 0 && SCN_PFCWD_FORWARD == 1 && SCN_PFCWD_ALERT == 2,
	       "pfcwd_action_names[] order");
_Static_assert(SCN_FAULT_PAUSE_STORM == 0 && SCN_FAULT_SLOW_RECEIVER == 1 &&
		       SCN_FAULT_LINK_DOWN == 2,
	       "scn_fault_kind_names[] order");
_Static_assert(sizeof(enum scn_topo_kind) == sizeof(int32_t) &&
		       sizeof(enum scn_pattern) == sizeof(int32_t) &&
		       sizeof(enum scn_schedule) == sizeof(int32_t) &&
		       sizeof(enum scn_algorithm) == sizeof(int32_t) &&
		       sizeof(enum scn_rw) == sizeof(int32_t) &&
		       sizeof(enum scn_pfcwd_action) == sizeof(int32_t) &&
		       sizeof(enum scn_fault_kind) == sizeof(int32_t) &&
		       sizeof(enum scn_cc) == sizeof(int32_t) &&
		       sizeof(enum scn_mark_point) == sizeof(int32_t) &&
		       sizeof(enum scn_dcqcn_profile) == sizeof(int32_t) &&
		       sizeof(enum scn_cnp_scope) == sizeof(int32_t) &&
		       sizeof(enum scn_cut_on) == sizeof(int32_t),
	       "enum fields are stored as 32-bit integers");
_Static_assert(sizeof(((struct scenario *)0)->pfcwd_enable) == sizeof(int32_t) &&
		       sizeof(((struct scenario *)0)->cnp_priority_strict) == sizeof(int32_t) &&
		       sizeof(((struct scenario *)0)->dcqcn.clamp_tgt_rate) == sizeof(int32_t) &&
		       sizeof(((struct scenario *)0)->dcqcn.clamp_tgt_rate_after_time_inc) ==
			       sizeof(int32_t) &&
		       sizeof(((struct scenario *)0)->dcqcn.rate_change_reschedules) ==
			       sizeof(int32_t),
	       "booleans are stored as 32-bit integers");

#define LS (1u << SCN_TOPO_LEAF_SPINE)
#define FT (1u << SCN_TOPO_FAT_TREE)
#define STAR (1u << SCN_TOPO_STAR)
#define RAIL (1u << SCN_TOPO_RAIL)
#define TFILE (1u << SCN_TOPO_FILE)
#define NOT_FILE (LS | FT | STAR | RAIL)
#define P_TRACE (1u << SCN_JOB_TRACE)
#define P_INCAST (1u << SCN_JOB_INCAST)
#define P_PERM (1u << SCN_JOB_PERMUTATION)
#define P_RING (1u << SCN_JOB_RING_ALLREDUCE)
#define P_A2A (1u << SCN_JOB_ALLTOALL)
#define P_STOR (1u << SCN_JOB_STORAGE)
#define P_TRAIN (1u << SCN_JOB_TRAINING)
#define F_STORM (1u << SCN_FAULT_PAUSE_STORM)
#define F_SLOW (1u << SCN_FAULT_SLOW_RECEIVER)
#define F_LINK (1u << SCN_FAULT_LINK_DOWN)
#define CC_DCQCN (1u << SCN_CC_DCQCN)

#define MAX_BUFFER_BYTES (INT64_C(64) << 30)         /* 64GiB */
#define MAX_HEADROOM_BYTES INT64_C(64000000)         /* 64MB */
#define MAX_ITERATIONS 100000                        /* job.iterations */
#define MAX_CHANNELS 64                              /* job.channels */
#define MIN_SLICE_BYTES INT64_C(1000)                /* job.slice: 1KB */
#define MAX_SLICE_BYTES INT64_C(1000000000)          /* 1GB */
#define RATE_MAX_BPS INT64_C(1600000000000)  /* 1600Gbps, the fastest link */
#define MAX_BYTE_RESET INT64_C(1000000000)   /* dcqcn.rpg_byte_reset: 1GB */

/*
 * Every key of docs/contract.md#scenario-files.  The order within a section is the print order.
 * Columns: section, name, type, field, min, max, range shown, enum names,
 * enum values not implemented, selecting key, where it applies, flags,
 * default (by profile for the [dcqcn] knobs), meaning, default in words.
 *
 * The meanings, one line per key, are what users read: `dcqcn-sim keys`
 * prints them, and scripts/gendocs.py writes that text into the key reference
 * (docs/scenario.md#key-reference), the man page dcqcn-sim-scenario(5) and
 * the bash completion.  A default the
 * table cannot show as a value that loads back (a required key, a "not
 * given" marker, the qos.data_dscp a job inherits) is written out in words.
 */
const struct key_def scn_key_defs[N_KEYS] = {
	{ SEC_SIM, "duration", KT_TIME, SF(duration_ps), 1, MAX_TIME_PS,
	  "above 0, at most 1000s", NULL, NULL, NULL, 0, 0, { UNITS_PS_PER_S },
	  "hard stop; the run ends earlier when every flow has completed", NULL },
	{ SEC_SIM, "seed", KT_INT, SF(seed), 0, INT64_MAX,
	  "0-9223372036854775807", NULL, NULL, NULL, 0, 0, { 1 },
	  "seeds every random stream (permutations, ECMP salts, QP source ports)",
	  NULL },
	/* how many threads run it: not printed, since no output depends on it */
	{ SEC_SIM, "threads", KT_INT_AUTO, SF(threads), 1, 256, "auto, or 1-256", NULL, NULL,
	  NULL, 0, KF_NOPRINT, { SCN_AUTO },
	  "threads of one run: auto (the machine's cores, fewer for a light fabric or jobs that deliver "
	  "few packets a window: check says) or 1-256; the outputs are the same for any value",
	  NULL },
	{ SEC_SIM, "partitions", KT_INT_AUTO, SF(partitions), 1, 65536, "auto, or 1-65536", NULL,
	  NULL, NULL, 0, KF_NOPRINT, { SCN_AUTO },
	  "pieces the fabric is cut into, each thread running its share one after another: auto (one a "
	  "thread, more in large fabrics, for cache locality) or 1-65536, at least the threads and at "
	  "most the units; the outputs are the same for any value",
	  NULL },

	{ SEC_TOPOLOGY, "kind", KT_ENUM, SF(topo), 0, 0, NULL, topo_names,
	  NULL, NULL, 0, KF_POOL, { SCN_TOPO_LEAF_SPINE },
	  "leaf-spine, fat-tree, star, rail-optimized or file", NULL },
	{ SEC_TOPOLOGY, "spines", KT_INT, SF(spines), 1, 256, "1-256", NULL,
	  NULL, "kind", LS | RAIL, KF_POOL, { 2 },
	  "leaf-spine and rail-optimized size: spine switches", NULL },
	{ SEC_TOPOLOGY, "leaves", KT_INT, SF(leaves), 1, 1024, "1-1024", NULL,
	  NULL, "kind", LS, KF_POOL, { 4 },
	  "leaf-spine size: leaf switches", NULL },
	{ SEC_TOPOLOGY, "hosts_per_leaf", KT_INT, SF(hosts_per_leaf), 1, 512,
	  "1-512", NULL, NULL, "kind", LS, KF_POOL, { 8 },
	  "leaf-spine size: hosts under each leaf", NULL },
	{ SEC_TOPOLOGY, "k", KT_INT, SF(k), 2, 64, "even, 2-64", NULL, NULL,
	  "kind", FT, KF_EVEN | KF_POOL, { 4 },
	  "fat-tree: k-ary 3-tier, k^3/4 hosts, 5k^2/4 switches", NULL },
	{ SEC_TOPOLOGY, "hosts", KT_INT, SF(star_hosts), 2, 1024, "2-1024",
	  NULL, NULL, "kind", STAR, KF_POOL, { 16 },
	  "star: hosts on one switch", NULL },
	{ SEC_TOPOLOGY, "units", KT_INT, SF(units), 1, 256, "1-256", NULL, NULL, "kind", RAIL,
	  KF_POOL, { 1 },
	  "rail-optimized: scalable units, each with gpus_per_server rail leaves", NULL },
	{ SEC_TOPOLOGY, "servers_per_unit", KT_INT, SF(servers_per_unit), 1, 512, "1-512", NULL,
	  NULL, "kind", RAIL, KF_POOL, { 4 },
	  "rail-optimized: servers in a unit; NIC r of each goes to the unit's rail leaf r", NULL },
	{ SEC_TOPOLOGY, "file", KT_FILE, SF(topo_file), 0, 0, NULL, NULL, NULL, "kind", TFILE,
	  KF_POOL, { 0 },
	  "file: the links CSV (a,b,rate,cable), relative to the scenario's folder; hosts are "
	  "the nodes with one link, h0.. in order of appearance",
	  "none, required with kind = file" },
	{ SEC_TOPOLOGY, "uplinks_per_spine", KT_INT, SF(uplinks_per_spine), 1, 16, "1-16", NULL,
	  NULL, "kind", LS | RAIL, KF_POOL, { 1 },
	  "parallel links between every leaf and every spine (ECMP spreads over them)", NULL },
	{ SEC_TOPOLOGY, "gpus_per_server", KT_INT, SF(gpus_per_server), 1, 64, "1-64", NULL, NULL,
	  NULL, 0, 0, { 1 },
	  "hosts per server (GPUs, each with its own NIC), joined by NVLink; 1 = plain hosts",
	  NULL },
	{ SEC_TOPOLOGY, "host_link", KT_RATE, SF(host_link_bps),
	  INT64_C(1000000000), INT64_C(1600000000000), "1Gbps-1600Gbps", NULL,
	  NULL, "kind", NOT_FILE, KF_POOL, { INT64_C(400000000000) },
	  "link rate host-switch", NULL },
	{ SEC_TOPOLOGY, "fabric_link", KT_RATE, SF(fabric_link_bps),
	  INT64_C(1000000000), INT64_C(1600000000000), "1Gbps-1600Gbps", NULL,
	  NULL, "kind", NOT_FILE, KF_POOL, { INT64_C(400000000000) },
	  "link rate switch-switch", NULL },
	{ SEC_TOPOLOGY, "host_cable", KT_LENGTH, SF(host_cable_mm), 0,
	  INT64_C(10000000), "0-10000m", NULL, NULL, "kind", NOT_FILE, KF_POOL, { 3000 },
	  "cable length host-switch (5 ns per metre)", NULL },
	{ SEC_TOPOLOGY, "fabric_cable", KT_LENGTH, SF(fabric_cable_mm), 0,
	  INT64_C(10000000), "0-10000m", NULL, NULL, "kind", NOT_FILE, KF_POOL, { 30000 },
	  "cable length switch-switch (5 ns per metre)", NULL },
	{ SEC_TOPOLOGY, "switch_latency", KT_TIME, SF(switch_latency_ps), 0,
	  UNITS_PS_PER_MS, "0-1ms", NULL, NULL, NULL, 0, 0, { 500 * UNITS_PS_PER_NS },
	  "forwarding pipeline, after the whole frame is received", NULL },
	{ SEC_TOPOLOGY, "mtu", KT_MTU, SF(mtu_bytes), 256, 9000, "256-9000",
	  NULL, NULL, NULL, 0, KF_POOL, { 4096 },
	  "RoCE payload bytes per packet (a plain number of bytes)", NULL },
	{ SEC_TOPOLOGY, "ecmp", KT_ENUM, SF(ecmp), 0, 0, NULL, ecmp_names, NULL,
	  NULL, 0, 0, { SCN_ECMP_FLOW },
	  "flow: hash of (src, dst, UDP source port); packet: also the PSN (spraying); "
	  "adaptive: per packet the ECMP port with the shortest egress queue, receivers "
	  "accept out of order (not on a star)", NULL },
	{ SEC_TOPOLOGY, "nvlink", KT_RATE, SF(nvlink_bps), INT64_C(1000000000),
	  INT64_C(16000000000000), "1Gbps-16Tbps", NULL, NULL, NULL, 0, 0,
	  { INT64_C(3600000000000) },
	  "NVLink/NVSwitch bandwidth per GPU and direction (450GB/s = 3600Gbps)",
	  NULL },
	{ SEC_TOPOLOGY, "nvlink_latency", KT_TIME, SF(nvlink_latency_ps), 0, UNITS_PS_PER_MS,
	  "0-1ms", NULL, NULL, NULL, 0, 0, { UNITS_PS_PER_US },
	  "latency of one transfer between GPUs of a server", NULL },

	{ SEC_QOS, "data_dscp", KT_INT, SF(data_dscp), 0, 63, "0-63", NULL,
	  NULL, NULL, 0, 0, { 26 },
	  "DSCP of RoCE data", NULL },
	{ SEC_QOS, "nccl_ib_tc", KT_TC, SF(data_dscp), 0, 255, "0-255", NULL,
	  NULL, NULL, 0, KF_NOPRINT, { 0 },
	  "the TOS byte NCCL sets, instead of data_dscp; 106 = DSCP 26 with ECT(0)",
	  "not set; qos.data_dscp applies" },
	{ SEC_QOS, "cnp_dscp", KT_INT, SF(cnp_dscp), 0, 63, "0-63", NULL, NULL,
	  NULL, 0, 0, { 48 },
	  "DSCP of CNPs (priority 6 by the default map)", NULL },
	{ SEC_QOS, "dscp_to_priority", KT_DSCP_MAP, SF(dscp_to_prio), 0, 0,
	  NULL, NULL, NULL, NULL, 0, 0, { 0 },
	  "overrides of priority = dscp>>3, e.g. 26:3,48:6",
	  "empty (priority = dscp>>3)" },
	{ SEC_QOS, "scheduler", KT_ENUM, SF(scheduler), 0, 0, NULL, sched_names,
	  NULL, NULL, 0, 0, { SCN_SCHED_STRICT },
	  "strict (priority 7 first) or dwrr", NULL },
	{ SEC_QOS, "dwrr_weights", KT_WEIGHTS, SF(dwrr_weights), 1, 1000,
	  "8 weights 1-1000, for priorities 0-7", NULL, NULL, "scheduler",
	  1u << SCN_SCHED_DWRR, 0, { 1 },
	  "8 weights for priorities 0-7 (only with dwrr); quantum = weight x one full frame", NULL },
	{ SEC_QOS, "cnp_priority_strict", KT_BOOL, SF(cnp_priority_strict), 0, 1,
	  NULL, NULL, NULL, NULL, 0, 0, { 1 },
	  "CNPs leave ahead of every data queue", NULL },

	{ SEC_NIC, "cc", KT_ENUM, SF(cc), 0, 0, NULL, cc_names, NULL, NULL, 0, 0,
	  { SCN_CC_DCQCN },
	  "dcqcn, or none (line rate, PFC alone)", NULL },
	{ SEC_NIC, "pause_watchdog", KT_TIME, SF(nic_pause_watchdog_ps), 0,
	  10 * UNITS_PS_PER_S, "0 (off) to 10s", NULL, NULL, NULL, 0, KF_ZERO, { 0 },
	  "NIC stall prevention: a NIC stalled this long stops pausing; 0 = off", NULL },
	{ SEC_NIC, "ib_timeout", KT_INT, SF(nic_ib_timeout), 1, 31, "1-31", NULL, NULL, NULL, 0,
	  0, { 20 },
	  "NCCL_IB_TIMEOUT: the RC retransmission timeout is 4.096 us x 2^n (20: 4.29 s)", NULL },
	{ SEC_NIC, "ib_retry_cnt", KT_INT, SF(nic_ib_retry_cnt), 0, 7, "0-7", NULL, NULL, NULL,
	  0, 0, { 7 },
	  "NCCL_IB_RETRY_CNT: a QP goes to the error state, and its job fails, at the "
	  "(n + 1)-th timeout in a row without progress", NULL },
	{ SEC_NIC, "rto", KT_TIME_AUTO, SF(nic_rto_ps), UNITS_PS_PER_US,
	  10000 * UNITS_PS_PER_S, "auto, or 1us-10000s", NULL, NULL, NULL, 0, 0, { SCN_AUTO },
	  "go-back-N retransmission timeout: auto (from nic.ib_timeout) or a time", NULL },
	{ SEC_NIC, "qp_cache", KT_INT, SF(nic_qp_cache), 0, 4000000000, "0-4000000000", NULL,
	  NULL, NULL, 0, 0, { 1048576 },
	  "QPs whose state a run keeps when its jobs open more: a QP at rest gives its state "
	  "up (13 B kept of 152) and gets it back when it next has a message; the outputs do "
	  "not change.  0 = every QP's", NULL },

	{ SEC_JOB, "pattern", KT_ENUM, JF(pattern), 0, 0, NULL, pattern_names,
	  NULL, NULL, 0, 0, { SCN_JOB_TRACE },
	  "ring-allreduce, alltoall, trace, incast, permutation, storage or training", "required" },
	{ SEC_JOB, "ranks", KT_HOSTSET, JF(ranks), 0, 0, NULL, NULL, NULL,
	  "pattern", P_PERM | P_RING | P_A2A | P_TRAIN, 0, { 0 },
	  "hosts taking part (all, 0-63, 0,2,4-7), in that order around the ring", NULL },
	{ SEC_JOB, "size", KT_SIZE, JF(size_bytes), 1, MAX_BYTES,
	  "above 0, at most 1000GB", NULL, NULL, "pattern",
	  P_INCAST | P_PERM | P_RING | P_A2A | P_STOR, 0, { 4000000 },
	  "ring-allreduce, alltoall: the collective size S; incast, permutation: bytes per flow",
	  NULL },
	{ SEC_JOB, "start", KT_TIME, JF(start_ps), 0, MAX_TIME_PS, "0-1000s",
	  NULL, NULL, NULL, 0, 0, { 0 },
	  "start time (for traces, added to every row's start_us)", NULL },
	{ SEC_JOB, "dscp", KT_INT, JF(dscp), 0, 63, "0-63", NULL, NULL, NULL, 0,
	  0, { -1 },
	  "DSCP of the job's packets", "qos.data_dscp" },
	{ SEC_JOB, "dst", KT_INT, JF(dst), 0, SCN_MAX_HOSTS - 1, NULL, NULL,
	  NULL, "pattern", P_INCAST, 0, { 0 },
	  "incast: the host every sender sends size to", NULL },
	{ SEC_JOB, "senders", KT_HOSTSET, JF(senders), 0, 0, NULL, NULL, NULL,
	  "pattern", P_INCAST, 0, { 0 },
	  "incast: the hosts that send size to dst (all: every other host)", NULL },
	{ SEC_JOB, "targets", KT_HOSTSET, JF(targets), 0, 0, NULL, NULL, NULL, "pattern", P_STOR, 0,
	  { 0 },
	  "storage: the NVMe-oF target hosts, e.g. 0-3", "none, required" },
	{ SEC_JOB, "initiators", KT_HOSTSET, JF(initiators), 0, 0, NULL, NULL, NULL, "pattern",
	  P_STOR, 0, { 0 },
	  "storage: the GPU hosts that read and write, e.g. 4-31",
	  "none, required" },
	{ SEC_JOB, "rw", KT_ENUM, JF(rw), 0, 0, NULL, rw_names, NULL, "pattern", P_STOR, 0,
	  { SCN_RW_READ },
	  "storage: read, write or randrw (fio's rw)", NULL },
	{ SEC_JOB, "rwmixread", KT_PERCENT, JF(rwmixread_ppb), 0, UNITS_PPB_ONE, "0-100%", NULL,
	  NULL, "pattern", P_STOR, 0, { UNITS_PPB_ONE / 2 },
	  "storage, randrw: the share of I/Os that read", NULL },
	{ SEC_JOB, "bs", KT_SIZE, JF(bs_bytes), 512, INT64_C(64) << 20, "512B-64MiB", NULL, NULL,
	  "pattern", P_STOR, 0, { 128 * 1024 },
	  "storage: the I/O size (fio's bs)", NULL },
	{ SEC_JOB, "iodepth", KT_INT, JF(iodepth), 1, 4096, "1-4096", NULL, NULL, "pattern",
	  P_STOR, 0, { 32 },
	  "storage: I/Os each initiator keeps outstanding", NULL },
	{ SEC_JOB, "target_latency", KT_TIME, JF(target_latency_ps), 0, UNITS_PS_PER_S, "0-1s",
	  NULL, NULL, "pattern", P_STOR, 0, { 80 * UNITS_PS_PER_US },
	  "storage: a target's media time per I/O", NULL },
	{ SEC_JOB, "target_iops", KT_INT_NONE, JF(target_iops), 1, INT64_C(1000000000),
	  "none, or 1-1000000000", NULL, NULL, "pattern", P_STOR, 0, { SCN_AUTO },
	  "storage: a target's I/Os per second at most, or none", NULL },
	{ SEC_JOB, "target_bw", KT_RATE, JF(target_bw_bps), 0, INT64_C(16000000000000),
	  "0 (no limit) or up to 16Tbps", NULL, NULL, "pattern", P_STOR, KF_ZERO, { 0 },
	  "storage: a target's media bandwidth at most; 0 = no limit", NULL },
	{ SEC_JOB, "runtime", KT_TIME, JF(runtime_ps), 0, MAX_TIME_PS, "0 (size decides) to 1000s",
	  NULL, NULL, "pattern", P_STOR, KF_ZERO, { 0 },
	  "storage: stop submitting I/Os this long after the start (fio's runtime); 0 = when size is moved",
	  NULL },
	{ SEC_JOB, "file", KT_FILE, JF(file), 0, 0, NULL, NULL, NULL, "pattern",
	  P_TRACE, 0, { 0 },
	  "trace: CSV, relative to the scenario file's folder", "required" },
	{ SEC_JOB, "iterations", KT_INT, JF(iterations), 1, MAX_ITERATIONS,
	  "1-100000", NULL, NULL, NULL, 0, 0, { 1 },
	  "repeat the job; iteration k+1 starts compute_gap after iteration k ended on every rank",
	  NULL },
	{ SEC_JOB, "compute_gap", KT_TIME, JF(compute_gap_ps), 0, MAX_TIME_PS,
	  "0-1000s", NULL, NULL, NULL, 0, 0, { 0 },
	  "the pause between one iteration's end and the next one's start", NULL },
	{ SEC_JOB, "skew", KT_TIME, JF(skew_ps), 0, MAX_TIME_PS, "0-1000s", NULL,
	  NULL, NULL, 0, 0, { 0 },
	  "each rank starts each iteration up to skew late (uniform, drawn from the seed; stragglers)",
	  NULL },
	{ SEC_JOB, "straggler", KT_STRAGGLERS, JF(stragglers), 0, MAX_TIME_PS,
	  "up to 16 HOST:DELAY, e.g. h5:2ms,h9:500us; delays 0-1000s", NULL, NULL, NULL, 0, 0,
	  { 0 },
	  "named hosts start each iteration this much late, on top of skew (h5:2ms,h9:500us)",
	  NULL },
	{ SEC_JOB, "channels", KT_INT, JF(channels), 1, MAX_CHANNELS, "1-64", NULL,
	  NULL, "pattern", P_RING, 0, { 1 },
	  "rings, each with its own QPs and ECMP hashes, each carrying S/channels", NULL },
	{ SEC_JOB, "slice", KT_SIZE, JF(slice_bytes), MIN_SLICE_BYTES,
	  MAX_SLICE_BYTES, "1KB-1GB", NULL, NULL, "pattern", P_RING, 0, { 512 * 1024 },
	  "pipelining granularity of the ring", NULL },
	{ SEC_JOB, "schedule", KT_ENUM, JF(schedule), 0, 0, NULL, schedule_names,
	  NULL, "pattern", P_A2A, 0, { SCN_SCHEDULE_ALL_AT_ONCE },
	  "all-at-once, or shift (rank i sends to i+1, then i+2, ...)", NULL },
	{ SEC_JOB, "algorithm", KT_ENUM, JF(algorithm), 0, 0, NULL, algorithm_names,
	  NULL, "pattern", P_RING, 0, { SCN_ALGO_RING },
	  "ring, or tree (NCCL's double binary tree between servers, a chain inside each)", NULL },
	{ SEC_JOB, "qps_per_connection", KT_INT, JF(qps_per_connection), 1, 16, "1-16", NULL,
	  NULL, "pattern", P_RING | P_A2A, 0, { 1 },
	  "NCCL_IB_QPS_PER_CONNECTION: QPs per connection, each with its own UDP source port",
	  NULL },

	{ SEC_JOB, "layers", KT_INT, JF(layers), 1, 100000, "1-100000", NULL, NULL, "pattern",
	  P_TRAIN, 0, { 0 },
	  "training: transformer layers, a multiple of pp", "required" },
	{ SEC_JOB, "hidden", KT_INT, JF(hidden), 1, 1048576, "1-1048576", NULL, NULL, "pattern",
	  P_TRAIN, 0, { 0 },
	  "training: hidden size, a multiple of tp", "required" },
	{ SEC_JOB, "seq_len", KT_INT, JF(seq_len), 1, 1048576, "1-1048576", NULL, NULL, "pattern",
	  P_TRAIN, 0, { 0 },
	  "training: tokens per sequence", "required" },
	{ SEC_JOB, "vocab", KT_INT, JF(vocab), 0, 16777216, "0-16777216", NULL, NULL, "pattern",
	  P_TRAIN, 0, { 0 },
	  "training: vocabulary, a multiple of tp (0: no embedding or output layer)", NULL },
	{ SEC_JOB, "micro_batch", KT_INT, JF(micro_batch), 1, 65536, "1-65536", NULL, NULL,
	  "pattern", P_TRAIN, 0, { 1 },
	  "training: sequences per micro-batch", NULL },
	{ SEC_JOB, "global_batch", KT_INT, JF(global_batch), 1, INT64_C(1) << 32, "1-4294967296",
	  NULL, NULL, "pattern", P_TRAIN, 0, { 0 },
	  "training: sequences per step, a multiple of micro_batch x dp", "required" },
	{ SEC_JOB, "element_bytes", KT_INT, JF(element_bytes), 1, 8, "1-8", NULL, NULL, "pattern",
	  P_TRAIN, 0, { 2 },
	  "training: bytes per activation and gradient element (2: bf16)", NULL },
	{ SEC_JOB, "tp", KT_INT, JF(tp), 1, 65536, "1-65536", NULL, NULL, "pattern", P_TRAIN, 0,
	  { 1 },
	  "training: tensor-parallel degree (consecutive ranks: one server's NVLink)", NULL },
	{ SEC_JOB, "pp", KT_INT, JF(pp), 1, 65536, "1-65536", NULL, NULL, "pattern", P_TRAIN, 0,
	  { 1 },
	  "training: pipeline stages (1F1B schedule)", NULL },
	{ SEC_JOB, "experts", KT_INT, JF(experts), 0, 65536, "0-65536", NULL, NULL, "pattern",
	  P_TRAIN, 0, { 0 },
	  "training: experts of each layer's MLP (mixture of experts), a multiple of ep; 0 = dense",
	  NULL },
	{ SEC_JOB, "top_k", KT_INT, JF(top_k), 1, 64, "1-64", NULL, NULL, "pattern", P_TRAIN, 0,
	  { 2 },
	  "training, experts > 0: experts each token is routed to, at most experts", NULL },
	{ SEC_JOB, "ep", KT_INT, JF(ep), 1, 65536, "1-65536", NULL, NULL, "pattern", P_TRAIN, 0,
	  { 1 },
	  "training: expert-parallel degree: replicas that share their experts (all-to-alls), dividing dp",
	  NULL },
	{ SEC_JOB, "dp", KT_INT_AUTO, JF(dp), 1, 65536, "auto, or 1-65536", NULL, NULL, "pattern",
	  P_TRAIN, 0, { SCN_AUTO },
	  "training: data-parallel degree; tp x pp x dp = ranks (auto: ranks / (tp x pp))", NULL },
	{ SEC_JOB, "gpu_tflops", KT_INT, JF(gpu_tflops), 1, 100000, "1-100000", NULL, NULL,
	  "pattern", P_TRAIN, 0, { 0 },
	  "training: a GPU's sustained TFLOP/s (layer times from the FLOPs)",
	  "none, required unless layer_forward" },
	{ SEC_JOB, "layer_forward", KT_TIME, JF(layer_fwd_ps), 0, MAX_TIME_PS, "0 (from the FLOPs) to 1000s",
	  NULL, NULL, "pattern", P_TRAIN, KF_ZERO, { 0 },
	  "training: a layer's forward on one micro-batch and GPU, instead of the FLOPs; 0 = from gpu_tflops",
	  NULL },
	{ SEC_JOB, "layer_backward", KT_TIME, JF(layer_bwd_ps), 0, MAX_TIME_PS, "0 (twice layer_forward) to 1000s",
	  NULL, NULL, "pattern", P_TRAIN, KF_ZERO, { 0 },
	  "training: a layer's backward with layer_forward; 0 = twice layer_forward", NULL },
	{ SEC_JOB, "bucket", KT_SIZE, JF(bucket_bytes), 1000, MAX_BYTES, "1KB-1000GB", NULL, NULL,
	  "pattern", P_TRAIN, 0, { 25 * 1024 * 1024 },
	  "training: data-parallel gradient bucket, all-reduced as the backward fills it", NULL },
	{ SEC_JOB, "optimizer", KT_ENUM, JF(optimizer), 0, 0, NULL, optimizer_names, NULL,
	  "pattern", P_TRAIN, 0, { SCN_OPT_ALLREDUCE },
	  "training: all-reduce the gradient buckets, or sharded: reduce-scatter them in the "
	  "backward and all-gather the updated parameters once all are reduced", NULL },
	{ SEC_JOB, "ideal_network", KT_BOOL, JF(ideal_network), 0, 1, NULL, NULL, NULL, "pattern",
	  P_TRAIN, 0, { 0 },
	  "training: also run the job alone (no other job or fault, nic.cc = none): each step's "
	  "time there, and what congestion costs, in training.csv", NULL },

	{ SEC_BUFFER, "size", KT_SIZE, SF(buffer_bytes), 1, MAX_BUFFER_BYTES,
	  "above 0, at most 64GiB", NULL, NULL, NULL, 0, KF_POOL, { 64000000 },
	  "shared buffer per switch", NULL },
	{ SEC_BUFFER, "reserved", KT_SIZE, SF(reserved_bytes), 0, INT64_C(1000000),
	  "0-1MB", NULL, NULL, NULL, 0, KF_FRAME1 | KF_POOL, { SCN_AUTO },
	  "guaranteed bytes per (ingress port, priority group)", NULL },
	{ SEC_BUFFER, "dynamic_th", KT_INT, SF(dynamic_th), -7, 7, "-7 to 7", NULL,
	  NULL, NULL, 0, 0, { 0 },
	  "lossless ingress alpha = 2^dynamic_th (SONiC convention)", NULL },
	{ SEC_BUFFER, "lossy_dynamic_th", KT_INT, SF(lossy_dynamic_th), -7, 7,
	  "-7 to 7", NULL, NULL, NULL, 0, 0, { 3 },
	  "lossy egress alpha = 2^lossy_dynamic_th", NULL },
	{ SEC_BUFFER, "cell", KT_SIZE, SF(cell_bytes), 0, 4096,
	  "0 (byte exact) to 4096B", NULL, NULL, NULL, 0, KF_ZERO, { 0 },
	  "accounting cell (each frame rounded up to cells); 0 = byte exact", NULL },

	{ SEC_PFC, "priorities", KT_PRIOS, SF(pfc_prios), 0, SCN_PRIOS - 1,
	  "0-7, comma-separated; empty = PFC off", NULL, NULL, NULL, 0, KF_POOL, { 1u << 3 },
	  "lossless priorities, e.g. 3,4; empty = PFC off", NULL },
	{ SEC_PFC, "headroom", KT_SIZE_AUTO, SF(headroom_bytes), 0,
	  MAX_HEADROOM_BYTES, "auto or 0-64MB", NULL, NULL, "priorities", 0, KF_POOL,
	  { SCN_AUTO },
	  "per lossless PG: auto (2 frames + cable round trip + peer response + 1 frame) or bytes",
	  NULL },
	{ SEC_PFC, "xon_offset", KT_SIZE, SF(xon_offset_bytes), 0,
	  MAX_HEADROOM_BYTES, "0-64MB", NULL, NULL, "priorities", 0, KF_FRAME2, { SCN_AUTO },
	  "XON once shared use < threshold - xon_offset", NULL },
	{ SEC_PFC, "pause_quanta", KT_INT, SF(pause_quanta), 1, 65535, "1-65535",
	  NULL, NULL, "priorities", 0, 0, { 65535 },
	  "quanta per XOFF (512 bit times each: 83.9 us at 400G)", NULL },
	{ SEC_PFC, "response_time", KT_TIME_AUTO, SF(response_ps), 0,
	  UNITS_PS_PER_MS, "auto or 0-1ms", NULL, NULL, "priorities", 0, KF_POOL, { SCN_AUTO },
	  "peer response: auto (by link rate, 905 quanta at 400G) or a time", NULL },

	{ SEC_PFCWD, "enable", KT_BOOL, SF(pfcwd_enable), 0, 1, NULL, NULL, NULL,
	  NULL, 0, 0, { 1 },
	  "switch PFC watchdog", NULL },
	{ SEC_PFCWD, "detection_time", KT_TIME, SF(pfcwd_detect_ps),
	  UNITS_PS_PER_US, 10 * UNITS_PS_PER_S, "1us-10s", NULL, NULL, "enable", 0,
	  0, { 200 * UNITS_PS_PER_MS },
	  "a queue paused this long is in a pause storm (SONiC semantics)",
	  NULL },
	{ SEC_PFCWD, "restoration_time", KT_TIME, SF(pfcwd_restore_ps),
	  UNITS_PS_PER_US, 10 * UNITS_PS_PER_S, "1us-10s", NULL, NULL, "enable", 0,
	  0, { 400 * UNITS_PS_PER_MS },
	  "a storm ends after this long without a pause (SONiC semantics)",
	  NULL },
	{ SEC_PFCWD, "poll_interval", KT_TIME, SF(pfcwd_poll_ps), UNITS_PS_PER_US,
	  10 * UNITS_PS_PER_S, "1us-10s", NULL, NULL, "enable", 0, 0, { 200 * UNITS_PS_PER_MS },
	  "how often the watchdog looks (SONiC semantics)", NULL },
	{ SEC_PFCWD, "action", KT_ENUM, SF(pfcwd_action), 0, 0, NULL,
	  pfcwd_action_names, NULL, "enable", 0, 0, { SCN_PFCWD_DROP },
	  "what a queue in a storm does: drop, forward or alert", NULL },

	{ SEC_ECN, "queues", KT_PRIOS, SF(ecn_queues), 0, SCN_PRIOS - 1,
	  "0-7, comma-separated; empty = ECN off", NULL, NULL, NULL, 0, 0, { 1u << 3 },
	  "egress queues with WRED/ECN; empty = off", NULL },
	{ SEC_ECN, "kmin", KT_SIZE, SF(ecn_kmin_bytes), 0, MAX_BUFFER_BYTES,
	  "0-64GiB", NULL, NULL, "queues", 0, 0, { 150000 },
	  "marking ramp on the instantaneous queue: no mark below kmin", NULL },
	{ SEC_ECN, "kmax", KT_SIZE, SF(ecn_kmax_bytes), 1, MAX_BUFFER_BYTES,
	  "above 0, at most 64GiB", NULL, NULL, "queues", 0, 0, { 1500000 },
	  "marking ramp: probability pmax at kmax, every packet above", NULL },
	{ SEC_ECN, "pmax", KT_FRACTION, SF(ecn_pmax_ppb), 1, UNITS_PPB_ONE,
	  "above 0, at most 100%", NULL, NULL, "queues", 0, 0, { UNITS_PPB_ONE / 10 },
	  "marking ramp: the marking probability at kmax", NULL },
	{ SEC_ECN, "mark_point", KT_ENUM, SF(ecn_mark_point), 0, 0, NULL,
	  scn_mark_point_names, NULL, "queues", 0, 0, { SCN_MARK_DEQUEUE },
	  "dequeue (bytes left behind the packet) or enqueue (bytes ahead of it)",
	  NULL },

	/*
	 * docs/model.md#dcqcn, in the order of its table.  The defaults of each profile,
	 * in base units, by enum scn_dcqcn_profile: nvidia (ConnectX firmware
	 * defaults), paper (Zhu et al., SIGCOMM 2015), hpcc (the HPCC ns-3
	 * "dcqcn" model).  cnp_scope is not a profile setting (qp for all
	 * three).
	 */
	{ SEC_DCQCN, "profile", KT_ENUM, SF(dcqcn_profile), 0, 0, NULL,
	  scn_profile_names, NULL, "nic.cc", CC_DCQCN, 0, { SCN_DCQCN_NVIDIA },
	  "nvidia, paper or hpcc: the defaults and semantics of the knobs", NULL },
	{ SEC_DCQCN, "rpg_time_reset", KT_FW_TIME, SF(dcqcn.rpg_time_reset_ps), 1,
	  UNITS_PS_PER_S, "above 0, at most 1s; a bare number is us", NULL, NULL,
	  "nic.cc", CC_DCQCN, KF_PROFILE,
	  { 300 * UNITS_PS_PER_US, 55 * UNITS_PS_PER_US, 300 * UNITS_PS_PER_US },
	  "the increase timer", NULL },
	{ SEC_DCQCN, "rpg_byte_reset", KT_FW_BYTES, SF(dcqcn.rpg_byte_reset_bytes),
	  0, MAX_BYTE_RESET, "0 (off) to 1GB; a bare number counts 64-byte units",
	  NULL, NULL, "nic.cc", CC_DCQCN, KF_PROFILE, { 32767 * FW_BYTE_UNIT, 10000000, 0 },
	  "the byte counter of increases; 0 = off",
	  NULL },
	{ SEC_DCQCN, "rpg_threshold", KT_INT, SF(dcqcn.rpg_threshold), 1, 31,
	  "1-31", NULL, NULL, "nic.cc", CC_DCQCN, KF_PROFILE, { 1, 5, 1 },
	  "F: the fast-recovery steps before additive increase", NULL },
	{ SEC_DCQCN, "rpg_ai_rate", KT_FW_RATE, SF(dcqcn.rpg_ai_rate_bps), MBPS,
	  RATE_MAX_BPS, "0 or 1Mbps-1600Gbps; a bare number is Mbps", NULL, NULL,
	  "nic.cc", CC_DCQCN, KF_ZERO | KF_PROFILE, { 5 * MBPS, 40 * MBPS, 20 * MBPS },
	  "additive increase step of the target rate",
	  NULL },
	{ SEC_DCQCN, "rpg_hai_rate", KT_FW_RATE, SF(dcqcn.rpg_hai_rate_bps), MBPS,
	  RATE_MAX_BPS, "0 or 1Mbps-1600Gbps; a bare number is Mbps", NULL, NULL,
	  "nic.cc", CC_DCQCN, KF_ZERO | KF_PROFILE, { 50 * MBPS, 200 * MBPS, 200 * MBPS },
	  "hyper increase step of the target rate",
	  NULL },
	{ SEC_DCQCN, "rpg_gd", KT_INT, SF(dcqcn.rpg_gd), 10, 20, "10-20", NULL,
	  NULL, "nic.cc", CC_DCQCN, KF_PROFILE, { 11, 11, 11 },
	  "a cut is Rc x alpha / 2^(gd - 10)", NULL },
	{ SEC_DCQCN, "rpg_min_dec_fac", KT_INT, SF(dcqcn.rpg_min_dec_fac_pct), 0,
	  100, "0-100", NULL, NULL, "nic.cc", CC_DCQCN, KF_PROFILE, { 50, 0, 0 },
	  "a cut leaves at least this % of the rate; 0 = no limit", NULL },
	{ SEC_DCQCN, "rpg_min_rate", KT_FW_RATE, SF(dcqcn.rpg_min_rate_bps), MBPS,
	  RATE_MAX_BPS, "1Mbps-1600Gbps; a bare number is Mbps", NULL, NULL,
	  "nic.cc", CC_DCQCN, KF_PROFILE, { 1 * MBPS, 1 * MBPS, 1000 * MBPS },
	  "the lowest rate a cut leaves", NULL },
	{ SEC_DCQCN, "dce_tcp_g", KT_INT, SF(dcqcn.dce_tcp_g), 0, 1023, "0-1023",
	  NULL, NULL, "nic.cc", CC_DCQCN, KF_PROFILE, { 1019, 1020, 1020 },
	  "G of the alpha average: g = (1024 - G) / 1024", NULL },
	{ SEC_DCQCN, "dce_tcp_rtt", KT_FW_TIME, SF(dcqcn.dce_tcp_rtt_ps), 1,
	  UNITS_PS_PER_S, "above 0, at most 1s; a bare number is us", NULL, NULL,
	  "nic.cc", CC_DCQCN, KF_PROFILE,
	  { 1 * UNITS_PS_PER_US, 55 * UNITS_PS_PER_US, 1 * UNITS_PS_PER_US },
	  "the alpha update period", NULL },
	{ SEC_DCQCN, "rate_reduce_monitor_period", KT_FW_TIME,
	  SF(dcqcn.rate_reduce_monitor_period_ps), 0, UNITS_PS_PER_S,
	  "0-1s; a bare number is us", NULL, NULL, "nic.cc", CC_DCQCN, KF_PROFILE,
	  { 4 * UNITS_PS_PER_US, 0, 4 * UNITS_PS_PER_US },
	  "at most one cut per period; 0 = a cut on each CNP", NULL },
	{ SEC_DCQCN, "initial_alpha_value", KT_INT, SF(dcqcn.initial_alpha_value),
	  0, 1023, "0-1023", NULL, NULL, "nic.cc", CC_DCQCN, KF_PROFILE, { 1023, 1023, 1023 },
	  "alpha at a QP's first CNP, in 1/1024", NULL },
	{ SEC_DCQCN, "rate_to_set_on_first_cnp", KT_FW_RATE,
	  SF(dcqcn.rate_to_set_on_first_cnp_bps), MBPS, RATE_MAX_BPS,
	  "0 (keep the rate) or 1Mbps-1600Gbps; a bare number is Mbps", NULL, NULL,
	  "nic.cc", CC_DCQCN, KF_ZERO | KF_PROFILE, { 0, 0, 0 },
	  "the rate a QP's first CNP sets; 0 = keep the rate", NULL },
	{ SEC_DCQCN, "clamp_tgt_rate", KT_BOOL, SF(dcqcn.clamp_tgt_rate), 0, 1, NULL,
	  NULL, NULL, "nic.cc", CC_DCQCN, KF_NUM01 | KF_PROFILE, { 0, 1, 0 },
	  "a cut sets the target rate to the current rate (1) or not (0)",
	  NULL },
	{ SEC_DCQCN, "clamp_tgt_rate_after_time_inc", KT_BOOL,
	  SF(dcqcn.clamp_tgt_rate_after_time_inc), 0, 1, NULL, NULL, NULL, "nic.cc",
	  CC_DCQCN, KF_NUM01 | KF_PROFILE, { 1, 1, 1 },
	  "clamp the target rate at a cut after a timer-driven increase (1) or not (0)", NULL },
	{ SEC_DCQCN, "cut_on", KT_ENUM, SF(dcqcn.cut_on), 0, 0, NULL, cut_on_names, NULL,
	  "nic.cc", CC_DCQCN, KF_PROFILE, { SCN_CUT_ON_CNP, SCN_CUT_ON_CNP, SCN_CUT_ON_TIMER },
	  "cnp: a CNP cuts at once if the last cut is a monitor period old, else at the "
	  "period's end; timer: a CNP flags a cut that a monitor-period timer from the first "
	  "CNP makes", NULL },
	{ SEC_DCQCN, "rate_change_reschedules", KT_BOOL, SF(dcqcn.rate_change_reschedules), 0,
	  1, NULL, NULL, NULL, "nic.cc", CC_DCQCN, KF_PROFILE, { 1, 1, 0 },
	  "a rate change moves the send time of a QP waiting at its rate (true) or the time "
	  "set as its last packet left stays (false)", NULL },
	{ SEC_DCQCN, "min_time_between_cnps", KT_FW_TIME,
	  SF(dcqcn.min_time_between_cnps_ps), 0, UNITS_PS_PER_S,
	  "0-1s; a bare number is us", NULL, NULL, "nic.cc", CC_DCQCN, KF_PROFILE,
	  { 4 * UNITS_PS_PER_US, 50 * UNITS_PS_PER_US, 0 },
	  "notification point: at most one CNP per QP (or port) in this time",
	  NULL },
	{ SEC_DCQCN, "cnp_scope", KT_ENUM, SF(dcqcn.cnp_scope), 0, 0, NULL,
	  cnp_scope_names, NULL, "nic.cc", CC_DCQCN, 0, { SCN_CNP_SCOPE_QP },
	  "min_time_between_cnps counts per qp or per port", NULL },

	{ SEC_FAULT, "kind", KT_ENUM, FF(kind), 0, 0, NULL, scn_fault_kind_names, NULL,
	  NULL, 0, 0, { SCN_FAULT_PAUSE_STORM },
	  "pause-storm, slow-receiver or link-down", "required" },
	{ SEC_FAULT, "node", KT_NODE, FF(host), 0, SCN_MAX_HOSTS - 1, NULL, NULL,
	  NULL, "kind", F_STORM | F_SLOW, 0, { NO_HOST },
	  "the host, e.g. h3", "required" },
	{ SEC_FAULT, "link", KT_LINK, FF(link_text), 0, 0, NULL, NULL, NULL, "kind",
	  F_LINK, 0, { 0 },
	  "two cabled nodes, e.g. leaf0-spine1, h3-leaf0, edge0-agg0", "required" },
	{ SEC_FAULT, "start", KT_TIME, FF(start_ps), 0, MAX_TIME_PS, "0-1000s",
	  NULL, NULL, NULL, 0, 0, { 0 },
	  "when the fault begins", NULL },
	{ SEC_FAULT, "duration", KT_TIME, FF(duration_ps), 0, MAX_TIME_PS,
	  "0 (until the end) to 1000s", NULL, NULL, NULL, 0, 0, { 0 },
	  "how long it lasts; 0 = to the end of the run", NULL },
	{ SEC_FAULT, "priority", KT_INT, FF(priority), 0, SCN_PRIOS - 1, "0-7",
	  NULL, NULL, "kind", F_STORM, 0, { NO_PRIO },
	  "the paused priority", "the lowest lossless priority" },
	{ SEC_FAULT, "rate", KT_RATE, FF(rate_bps), INT64_C(1000000),
	  INT64_C(1600000000000), "1Mbps-1600Gbps", NULL, NULL, "kind", F_SLOW, 0, { 0 },
	  "the host's drain rate (below topology.host_link)", "required" },

	{ SEC_OUTPUT, "sample_interval", KT_TIME, SF(sample_interval_ps),
	  100 * UNITS_PS_PER_NS, UNITS_PS_PER_S, "100ns-1s", NULL, NULL, NULL, 0, 0,
	  { 10 * UNITS_PS_PER_US },
	  "the interval of pause.csv and rates.csv", NULL },
	{ SEC_OUTPUT, "queues", KT_ENUM, SF(output_queues), 0, 0, NULL, queues_names, NULL,
	  NULL, 0, 0, { SCN_QUEUES_SWITCHES },
	  "queues.csv: switches, all (also NIC backlogs) or none", NULL },
	{ SEC_OUTPUT, "flows", KT_ENUM, SF(output_flows), 0, 0, NULL, flows_names, NULL,
	  NULL, 0, 0, { 1 },
	  "flows.csv rows: all or none", NULL },
	{ SEC_OUTPUT, "rates", KT_INT, SF(output_rates), 0, 100000, "0-100000",
	  NULL, NULL, NULL, 0, 0, { 64 },
	  "rates.csv traces the DCQCN state of the first N QPs (flows)", NULL },
	{ SEC_OUTPUT, "plot_qps", KT_FLOWS, SF(output_plot_qps), 0, 99999,
	  "auto, or up to 16 QP ids below output.rates", NULL, NULL, NULL, 0, 0, { 0 },
	  "the QPs dcqcn.png draws, in that order: up to 16 ids below output.rates (0,5,9; the "
	  "flow of rates.csv), or auto: the 8 whose Rc fell lowest", NULL },
	{ SEC_CRITERIA, "max_ecn_mark_pct", KT_PERCENT, SF(crit_max_ecn_mark_ppb), 0,
	  UNITS_PPB_ONE, "0-100 (percent)", NULL, NULL, NULL, 0, 0, { 20000000 },
	  "acceptance: ecn_mark_pct at most (percent); judged only where marks are answered "
	  "(nic.cc = dcqcn on roce, tcp.cc = dctcp)", NULL },
	{ SEC_CRITERIA, "max_lossless_drops", KT_INT, SF(crit_max_lossless_drops), 0,
	  INT64_C(1000000000000), "0-1000000000000", NULL, NULL, NULL, 0, 0, { 0 },
	  "acceptance: drops_lossless at most", NULL },
	{ SEC_CRITERIA, "min_busbw_pct_line", KT_PERCENT, SF(crit_min_busbw_ppb), 0,
	  UNITS_PPB_ONE, "0-100 (percent)", NULL, NULL, NULL, 0, 0, { 950000000 },
	  "acceptance: the busbw (% of line) of the judged iterations at least (busbw_stat)", NULL },
	{ SEC_CRITERIA, "max_pause_frame_rate", KT_INT_NONE, SF(crit_max_pause_frame_rate), 0,
	  INT64_C(1000000000000), "none, or 0-1000000000000 frames/s", NULL, NULL, NULL, 0, 0,
	  { SCN_AUTO },
	  "acceptance: pause_frame_rate at most (frames/s), or none", NULL },
	{ SEC_CRITERIA, "max_drops", KT_INT, SF(crit_max_drops), 0, INT64_C(1000000000000),
	  "0-1000000000000", NULL, NULL, NULL, 0, 0, { 0 },
	  "acceptance: data packets dropped in any class at most (a failed link's not counted)", NULL },
	{ SEC_CRITERIA, "warmup_iterations", KT_INT, SF(crit_warmup_iterations), 0,
	  MAX_ITERATIONS, "0-100000", NULL, NULL, NULL, 0, 0, { 1 },
	  "the first iterations of each collective job that busbw is not judged on", NULL },
	{ SEC_CRITERIA, "busbw_stat", KT_ENUM, SF(crit_busbw_stat), 0, 0, NULL, busbw_stat_names,
	  NULL, NULL, 0, 0, { SCN_BUSBW_MIN },
	  "which busbw of the judged iterations min_busbw_pct_line applies to: min or mean", NULL },
	{ SEC_CRITERIA, "max_retransmitted_pct", KT_PERCENT, SF(crit_max_retransmitted_ppb), 0,
	  UNITS_PPB_ONE, "0-100 (percent)", NULL, NULL, NULL, 0, 0,
	  { UNITS_PPB_ONE / 100 },
	  "acceptance: payload sent again at most this % of the payload delivered", NULL },

	/* the fabric type; [ib] applies to infiniband only (see scn_apply_fabric) */
	{ SEC_FABRIC, "type", KT_ENUM, SF(fabric_type), 0, 0, NULL, scenario_fabric_names,
	  NULL, NULL, 0, 0, { SCN_FABRIC_ROCE },
	  "roce (PFC, ECN, DCQCN), infiniband (credit-based link-level flow control) or "
	  "ethernet-tcp (lossy switches, TCP on the hosts); on the last two PFC, ECN, DCQCN "
	  "and the PFC watchdog default to off", NULL },
	{ SEC_IB, "vl_buffer", KT_SIZE, SF(ib_vl_buffer_bytes), 256, MAX_BUFFER_BYTES,
	  "256B-64GiB", NULL, NULL, "fabric.type", 1u << SCN_FABRIC_IB, 0,
	  { 128 * 1024 },
	  "infiniband: receive buffer per port and virtual lane (VL = priority); every "
	  "transmitter starts with vl_buffer/64 credits of 64 B", NULL },
	{ SEC_IB, "credit_update_delay", KT_TIME, SF(ib_credit_delay_ps), 0, UNITS_PS_PER_MS,
	  "0-1ms", NULL, NULL, "fabric.type", 1u << SCN_FABRIC_IB, 0,
	  { 100 * UNITS_PS_PER_NS },
	  "infiniband: from the receiver freeing buffer to its credit update leaving", NULL },
	{ SEC_IB, "sl_to_vl", KT_SL_MAP, SF(ib_sl_to_vl), 0, SCN_PRIOS - 1, NULL, NULL, NULL,
	  "fabric.type", 1u << SCN_FABRIC_IB, 0, { 0 },
	  "infiniband: the VL of each SL (the SL is the priority qos.dscp_to_priority gives); "
	  "overrides of VL = SL", NULL },
	{ SEC_IB, "vl_arbitration", KT_WEIGHTS, SF(ib_vl_arb), 0, 255,
	  "8 weights 0-255 (64 B units), for VLs 0-7; all 0: off", NULL, NULL, "fabric.type",
	  1u << SCN_FABRIC_IB, 0, { 0 },
	  "infiniband: VL arbitration weights of switch ports, in 64 B units: a VL sends while "
	  "its turn's weight is not used up (its last packet may overdraw it), then the next VL "
	  "with packets; all 0: qos.scheduler", NULL },
	/* IB congestion control, IBTA Annex A10 (docs/fabrics.md); the switch
	 * and CA defaults are those of NVIDIA's (Mellanox's) Congestion
	 * Control Manager for OpenSM, whose own defaults leave CC off */
	{ SEC_IB, "cc", KT_BOOL, SF(ib_cc), 0, 1, NULL, NULL, NULL, "fabric.type",
	  1u << SCN_FABRIC_IB, 0, { 0 },
	  "infiniband: congestion control (IBTA Annex A10): switches set FECN on packets "
	  "leaving a congested port/VL, receivers answer with a BECN, senders delay packets by "
	  "their QP's CCT entry", NULL },
	{ SEC_IB, "threshold", KT_INT, SF(ib_threshold), 0, 15, "0-15", NULL, NULL, "cc", 0, 0,
	  { 15 },
	  "ib.cc: a port/VL is congested when its queue holds (16 - threshold)/16 of vl_buffer; "
	  "0: no marking, 15: the most aggressive (Mellanox CC manager: 15)", NULL },
	{ SEC_IB, "marking_rate", KT_INT, SF(ib_marking_rate), 0, 65535, "0-65535", NULL, NULL,
	  "cc", 0, 0, { 10 },
	  "ib.cc: FECN on one eligible packet in marking_rate + 1 (Mellanox CC manager: 10)",
	  NULL },
	{ SEC_IB, "packet_size", KT_SIZE, SF(ib_packet_size_bytes), 0, 16320, "0-16320B", NULL,
	  NULL, "cc", 0, 0, { 512 },
	  "ib.cc: frames shorter than this are not marked (the spec counts 64 B credits, 0-255; "
	  "Mellanox CC manager: 512 B)", NULL },
	{ SEC_IB, "victim_mask", KT_BOOL, SF(ib_victim_mask), 0, 1, NULL, NULL, NULL, "cc", 0, 0,
	  { 0 },
	  "ib.cc: ports that waited for credits (victims of congestion downstream) mark too "
	  "(the spec's mask of ports, here all or none; OpenSM: none)", NULL },
	{ SEC_IB, "ccti_increase", KT_INT, SF(ib_ccti_increase), 1, 255, "1-255", NULL, NULL,
	  "cc", 0, 0, { 1 },
	  "ib.cc: a BECN raises its QP's CCTI by this (Mellanox CC manager: 1)", NULL },
	{ SEC_IB, "ccti_limit", KT_INT, SF(ib_ccti_limit), 0, 16383, "0-16383", NULL, NULL, "cc",
	  0, 0, { 127 },
	  "ib.cc: the highest CCTI, the CCT's last entry (127: a table of two 64-entry blocks)",
	  NULL },
	{ SEC_IB, "ccti_min", KT_INT, SF(ib_ccti_min), 0, 16383, "0-16383 (at most ccti_limit)",
	  NULL, NULL, "cc", 0, 0, { 0 },
	  "ib.cc: the lowest CCTI, where QPs start (Mellanox CC manager: 0)", NULL },
	{ SEC_IB, "ccti_timer", KT_INT, SF(ib_ccti_timer), 1, 65535, "1-65535 (x 1.024 us)", NULL,
	  NULL, "cc", 0, 0, { 50 },
	  "ib.cc: the CCTI falls by one each ccti_timer x 1.024 us while above ccti_min (the "
	  "model's default: OpenSM leaves it 0, the CC manager derives it from the fabric)",
	  NULL },

	/* [tcp]: the hosts' transport on fabric.type = ethernet-tcp (models/node/tcp.c) */
	{ SEC_TCP, "cc", KT_ENUM, SF(tcp_cc), 0, 0, NULL, tcp_cc_names, NULL, "fabric.type",
	  1u << SCN_FABRIC_TCP, 0, { SCN_TCP_NEWRENO },
	  "ethernet-tcp: newreno, or dctcp (needs switches that mark: [ecn])", NULL },
	{ SEC_TCP, "mss", KT_INT, SF(tcp_mss_bytes), 536, 9000, "536-9000 (bytes)", NULL, NULL,
	  "fabric.type", 1u << SCN_FABRIC_TCP, 0, { 4096 },
	  "ethernet-tcp: payload bytes per segment (headers as RoCE's 62 B)", NULL },
	{ SEC_TCP, "init_cwnd", KT_INT, SF(tcp_init_cwnd), 1, 1000, "1-1000", NULL, NULL,
	  "fabric.type", 1u << SCN_FABRIC_TCP, 0, { 10 },
	  "ethernet-tcp: initial congestion window, segments (RFC 6928)", NULL },
	{ SEC_TCP, "rto_min", KT_TIME, SF(tcp_rto_min_ps), UNITS_PS_PER_US, 10 * UNITS_PS_PER_S,
	  "1us-10s", NULL, NULL, "fabric.type", 1u << SCN_FABRIC_TCP, 0,
	  { 200 * UNITS_PS_PER_MS },
	  "ethernet-tcp: least retransmission timeout (Linux: 200ms)", NULL },
	{ SEC_TCP, "delayed_ack", KT_TIME, SF(tcp_delack_ps), 0, UNITS_PS_PER_S, "0-1s", NULL,
	  NULL, "fabric.type", 1u << SCN_FABRIC_TCP, KF_ZERO, { 40 * UNITS_PS_PER_MS },
	  "ethernet-tcp: an ACK waits this long for a second segment (Linux: 40ms); 0: every "
	  "segment is acknowledged at once", NULL },
	{ SEC_TCP, "stack_latency", KT_TIME, SF(tcp_stack_latency_ps), 0, UNITS_PS_PER_MS,
	  "0-1ms", NULL, NULL, "fabric.type", 1u << SCN_FABRIC_TCP, KF_ZERO,
	  { 25 * UNITS_PS_PER_US },
	  "ethernet-tcp: host stack time per message before its first segment leaves", NULL },
};

_Static_assert(N_OF(scn_key_defs) == N_KEYS, "N_KEYS (loader.h) counts scn_key_defs[]");

const char *scenario_pattern_name(unsigned pattern)
{
	return pattern < sizeof(pattern_names) / sizeof(pattern_names[0]) - 1 ? pattern_names[pattern]
									       : "?";
}
