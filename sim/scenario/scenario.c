/*
 * scenario.c - the scenario loader (contract: scenario.h, DESIGN.md A2).
 *
 * INI files and `--set section.key=value` assignments go into struct
 * scenario through one table of keys (key_defs[]), parsed exactly by the
 * units_* functions; trace CSV files are read with libcsv at finalize; the
 * resolved scenario prints back as INI that loads to the same values.
 *
 * How a file is read
 *   ini_parse_stream() is fed by our own reader (read_line), which sees
 *   every raw line before inih does.  Debian 12's inih is built with
 *   INI_HANDLER_LINENO 0, INI_MAX_LINE 200, INI_ALLOW_MULTILINE 1 and ';' as
 *   the only inline comment; the reader adapts it to DESIGN A2:
 *     - it counts lines, so the handler knows the line of the key it gets;
 *     - it strips leading white space, so an indented line is never glued
 *       onto the previous value as an inih continuation line: an indented
 *       key is an ordinary key, a stray indented word is a syntax error;
 *     - it strips inline comments: '#' or ';' preceded by white space (a
 *       value cannot contain " #" or " ;");
 *     - it checks [section] lines itself, so an unknown or malformed section
 *       is an error even when no key follows, and it reports every line that
 *       inih would reject, in line order, with the reason;
 *     - a line longer than INI_MAX_LINE - 1 characters (comments and
 *       indentation stripped) is an error, not split in two;
 *     - after the first error it returns NULL, which ends the parse.
 *   Section and key names are case-sensitive.  A section given twice in one
 *   file is an error (like a key given twice), [job.NAME] and [fault.NAME]
 *   included.
 *
 * When each rule is checked
 *   - reading a key: syntax, unit and range of that one value; a key given
 *     twice in one file; qos.nccl_ib_tc against qos.data_dscp in one file;
 *     a priority listed twice in pfc.priorities, a queue twice in
 *     ecn.queues; the form of fault.NAME.node (a host name, h3) and
 *     fault.NAME.link (A-B, two node names).  dcqcn.profile sets the
 *     defaults of the knobs at once (see [dcqcn] below).
 *   - end of a file: keys that do not apply to the topology.kind,
 *     job.NAME.pattern, fault.NAME.kind or qos.scheduler chosen, [pfc] keys
 *     other than priorities while pfc.priorities is empty (PFC off),
 *     [pfcwd] keys other than enable while pfcwd.enable is false, [ecn]
 *     keys other than queues while ecn.queues is empty (ECN off), and every
 *     [dcqcn] key while nic.cc = none (the earliest such line is reported);
 *     ecn.kmax above ecn.kmin (when ECN is on) and qos.cnp_dscp unlike the
 *     data DSCP, naming the later of the keys the file gives; a job without
 *     pattern or (trace)
 *     file, a fault without kind or the node, link or rate its kind needs;
 *     the host count, and host indices against the file's topology; a
 *     ring-allreduce's or alltoall's size against its ranks (and channels),
 *     and the flows of all jobs together (trace rows not counted yet); a fault
 *     against the topology (node index, link ends that exist and are
 *     directly cabled), against [pfc] (a pause-storm or slow-receiver needs
 *     PFC on; a storm's priority must be lossless) and a slow receiver's
 *     rate against topology.host_link; the shared pool of every switch tier
 *     (DESIGN B2), with the buffer.reserved and pfc.xon_offset defaults
 *     taken from the file's mtu.  These carry the key's line.
 *   - scenario_set(): the value, and whether the key applies to the kind,
 *     pattern, fault kind or scheduler in force at that moment, so a --set
 *     that selects must come first (`--set topology.kind=fat-tree --set
 *     topology.k=8`); likewise a [pfc] key needs pfc.priorities non-empty,
 *     a [pfcwd] key pfcwd.enable true, an [ecn] key ecn.queues non-empty
 *     and a [dcqcn] key nic.cc = dcqcn at that moment.  A --set that
 *     changes kind, pattern or scheduler, or turns PFC, the watchdog, ECN
 *     or DCQCN off, leaves the keys of the old choice unused rather than
 *     contradictory: that is how a sweep varies them.  The --set values of
 *     qos.data_dscp and qos.nccl_ib_tc override each other (the last wins).
 *     A job or fault first named by --set must get its pattern or kind
 *     first (`--set job.x.pattern=incast`, `--set fault.y.kind=link-down`).
 *   - scenario_finalize(): buffer.reserved and pfc.xon_offset, when not
 *     given, are resolved from the final mtu (until then they hold
 *     SCN_AUTO); ecn.kmax above ecn.kmin and qos.cnp_dscp unlike the data
 *     DSCP again (a --set may break them: the message says "--set" and
 *     names ecn.kmax or qos.cnp_dscp, so `--set ecn.kmin=2MB --set
 *     ecn.kmax=3MB` works in either order); the host count, every host
 *     index, every collective's size against its ranks and every fault
 *     again (a --set may have changed the topology or [pfc]), the trace
 *     files, then the flows of all jobs (trace rows included), and the
 *     shared pool again.  A pause-storm without priority gets the lowest
 *     lossless priority.  struct scenario keeps no per-key line, so these
 *     messages point at the job's [job.NAME] or the fault's [fault.NAME]
 *     line ("--set" for one created by --set); a host count or shared pool
 *     that only fails here was caused by --set and says "--set".
 *   After an error the scenario may be partly updated: report and free it.
 *   One file per scenario is the intended use; a second load applies on top
 *   of the first, and finalize's job messages then name the last file.
 *   Defaults are resolved once: a --set after scenario_finalize() does not
 *   re-derive reserved, xon_offset or a storm's priority.
 *
 * Choices where the brief is silent
 *   - job.NAME.senders = all means every host except dst (the default); an
 *     explicit list that contains dst is a contradiction.  Explicit lists
 *     keep the order written; "all" is in host index order.
 *   - job.NAME.file is stored as an absolute path (relative paths resolve
 *     against the scenario file's folder, made absolute with the current
 *     directory), so the printed scenario loads back from anywhere.
 *   - job sizes and trace bytes: 1 B to 1000GB; job start and trace start_us:
 *     0 to 1000 s (the longest sim.duration).
 *   - job.NAME.iterations (1-100000), compute_gap and skew (0-1000s) apply
 *     to every pattern; channels (1-64) and slice (1KB-1GB) to
 *     ring-allreduce only; schedule = all-at-once | shift to alltoall only.
 *     ranks (at least 2) and size apply to permutation, ring-allreduce and
 *     alltoall; size also to incast.
 *   - ring-allreduce: size is the collective's S, cut into channels x n
 *     near-equal chunks, so S >= ranks x channels (no empty chunk).
 *     alltoall: each rank sends floor(S / n) bytes to every other rank (the
 *     remainder is not sent), so S >= n; S need not be a multiple of n.
 *   - all jobs together may generate at most 50,000,000 flows (the traffic
 *     model builds every flow at set-up): per job, iterations x
 *     ring-allreduce channels x 2(n-1) x n x ceil(chunk / slice) with chunk
 *     = ceil(S / (channels x n)) (an upper bound: chunks differ by at most a
 *     byte), alltoall n x (n-1), incast senders, permutation n, trace rows.
 *     The message names job.NAME.iterations of the job with the most flows,
 *     its product, the total and the keys that lower it.
 *   - keys that apply to 3 or more values of their selector list them as
 *     "pattern = permutation, ring-allreduce or alltoall".
 *   - scenario_print() omits job.NAME.dscp when it is -1 (qos.data_dscp) and
 *     writes a comment instead, since -1 is not a valid value to load.
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
 *   - qos.cnp_dscp equal to the data DSCP is an error whatever nic.cc (a
 *     job's own dscp may equal it: that is a misconfiguration experiment).
 *     qos.cnp_dscp and qos.cnp_priority_strict do not depend on nic.cc;
 *     neither do nic.rto and output.rates (0-100000).
 *   - with nic.cc = none, scenario_print() writes a comment in place of
 *     [dcqcn], whose keys would not load back.
 *
 * [dcqcn] (DESIGN B6)
 *   Knobs carry their NVIDIA firmware names.  A bare number is in the
 *   firmware unit: rates Mbps, times us, rpg_byte_reset 64-byte units
 *   (32767 = 2097088 B); it may have decimals if the result is a whole
 *   number of the base unit (rpg_time_reset = 1.5 is 1.5us; 1.0000001 and
 *   rpg_byte_reset = 1.01 are errors).  A value with a unit is parsed
 *   exactly as it is (5Mbps, 300us, 2MB).  dce_tcp_g and
 *   initial_alpha_value are integers 0-1023 (1/1024 units); the clamp flags
 *   are booleans (0/1 as written in firmware, true/false also accepted) and
 *   print as 0/1.  Ranges: rpg_threshold 1-31; rpg_gd 10-20; rpg_min_dec_fac
 *   0-100 (0 = no limit); rpg_ai_rate, rpg_hai_rate 0 or 1Mbps-1600Gbps;
 *   rate_to_set_on_first_cnp 0 (keep the rate) or 1Mbps-1600Gbps;
 *   rpg_min_rate 1Mbps-1600Gbps; times 0-1s, except rpg_time_reset and
 *   dce_tcp_rtt above 0; rpg_byte_reset 0 (off) to 1GB (not necessarily a
 *   multiple of 64 B).  cnp_scope = qp | port is not a profile setting.
 *   A number is printed bare when it is a whole number of firmware units
 *   (the paper profile's 10MB byte counter is 156250 x 64 B), else with
 *   its unit, so print -> load -> print is identical.
 *
 *   `profile` sets every knob's default (profile_knobs[]); a knob given
 *   explicitly wins whatever the order.  In a file, profile sets the knobs
 *   not given earlier in that file, and knobs after it are applied after
 *   it.  struct scenario records no "given" flag, so a later --set of
 *   dcqcn.profile (or a second file) treats as given every knob whose value
 *   differs from the previous profile's default and resets the others to
 *   the new profile's default: a knob given with exactly the old profile's
 *   default value follows the new profile.  Values are checked one by one;
 *   nothing depends on another knob.
 *
 * PFC derived values (scenario_headroom_bytes() and the functions after
 * it, on pfc.h and mmu.h; DESIGN B2, B3).  All integer, exact:
 *   - one quantum is 512 bit times: q quanta at R bps last
 *     ceil(q * 512 * 10^12 / R) ps (65535 at 400Gbps: 83884800 ps).
 *   - auto headroom = 2 x wire frame (mtu + 82) + ceil(2 x cable x 5 ps/mm x
 *     R / 8e12) B + response bytes + one wire frame in flight.  With an auto
 *     response time the response bytes are exactly quanta x 64 (512 bits),
 *     not re-derived from the rounded-up ps; with a given response_time they
 *     are ceil(response_ps x R / 8e12).  400Gbps over 3m at mtu 4096:
 *     2 x 4178 + 1500 + 905 x 64 + 4178 = 71954 B.
 *   - the shared pool of a switch subtracts plain bytes (8 PGs x reserved
 *     per port, one headroom per lossless priority per port), not
 *     cell-rounded ones: buffer.cell rounds each packet's charge, not the
 *     configured sizes.
 *   - switch tiers and their ports follow topology.h: leaf-spine leaf
 *     (hosts_per_leaf host ports, spines fabric ports), spine (leaves
 *     fabric ports); fat-tree edge (k/2 host, k/2 fabric), agg and core (k
 *     fabric); star sw0 (hosts host ports).  Host ports use host_link and
 *     host_cable, fabric ports fabric_link and fabric_cable.
 *
 * Trace CSV (DESIGN A2): a header row names the columns in any order: src,
 * dst, bytes, start_us (required), dscp, after (optional).  Fields are
 * trimmed of spaces and tabs, quotes follow RFC 4180 (libcsv strict mode),
 * blank lines are skipped.  bytes is a plain integer, start_us a decimal
 * number of microseconds converted exactly (at most 6 decimals: whole ps),
 * dscp 0-63 or empty (the job's DSCP), after empty or the flow id of an
 * earlier row: flow ids count data rows from 0, and `after` must be below
 * the row's own id, which makes a dependency cycle impossible.  Line numbers
 * in messages count every line of the file (the header is line 1); a row
 * that spans lines inside quotes is reported at the line where its first
 * field ends.
 */
#include "scenario.h"

#include <assert.h>
#include <csv.h>
#include <errno.h>
#include <ini.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mmu.h"
#include "pfc.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__)
#define SCN_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define SCN_PRINTF(fmt, args)
#endif

/* RoCEv2 data frame overheads (DESIGN B1) */
#define FRAME_HEADER_BYTES 62 /* Eth 14, IPv4 20, UDP 8, BTH 12, ICRC 4, FCS 4 */
#define WIRE_EXTRA_BYTES 20   /* preamble and inter-frame gap */
#define SMALL_FRAME_BYTES 64  /* CNP, ACK, PFC frames */
#define PS_PER_MM 5           /* 5 ns per metre of cable */

#define MAX_BYTES INT64_C(1000000000000)              /* 1000GB */
#define MAX_TIME_PS (INT64_C(1000) * UNITS_PS_PER_S) /* 1000 s */
#define MAX_FILE_BYTES (16L * 1024 * 1024)           /* a scenario file */
#define MAX_TRACE_ROWS ((uint32_t)INT32_MAX)         /* `after` is int32 */
#define MAX_BUFFER_BYTES (INT64_C(64) << 30)         /* 64GiB */
#define MAX_HEADROOM_BYTES INT64_C(64000000)         /* 64MB */

#define MAX_ITERATIONS 100000                        /* job.iterations */
#define MAX_CHANNELS 64                              /* job.channels */
#define MIN_SLICE_BYTES INT64_C(1000)                /* job.slice: 1KB */
#define MAX_SLICE_BYTES INT64_C(1000000000)          /* 1GB */
#define MAX_FLOWS UINT64_C(50000000)                 /* all jobs' flows together */

#define NO_HOST UINT32_MAX /* fault.node not given */
#define NO_PRIO 0xffu      /* fault.priority not given */

/* ---- sections and keys ---- */

enum sec_id {
	SEC_SIM,
	SEC_TOPOLOGY,
	SEC_QOS,
	SEC_NIC,
	SEC_JOB,
	SEC_BUFFER,
	SEC_PFC,
	SEC_PFCWD,
	SEC_ECN,
	SEC_DCQCN,
	SEC_FAULT,
	SEC_OUTPUT,
	SEC_CRITERIA,
	SEC_COUNT
};

struct section_def {
	const char *name;
	int named;       /* [name.NAME] */
	int implemented; /* 0: every key of it is "not implemented yet" */
	const char *selector; /* named sections: the key that creates one by --set */
};

static const struct section_def section_defs[SEC_COUNT] = {
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
};

/* jobs and faults: the instances of the named sections */
#define MAX_ITEMS (SCN_MAX_JOBS > SCN_MAX_FAULTS ? SCN_MAX_JOBS : SCN_MAX_FAULTS)

#define SECTION_LIST                                                         \
	"sim, topology, qos, nic, job.NAME, buffer, pfc, pfcwd, ecn, dcqcn, " \
	"fault.NAME, output, criteria"

enum key_type {
	KT_TODO,     /* known, "not implemented yet" */
	KT_INT,      /* plain integer in [min, max] */
	KT_TIME,     /* ps */
	KT_RATE,     /* bps */
	KT_LENGTH,   /* mm */
	KT_SIZE,     /* bytes */
	KT_MTU,      /* bytes: plain integer or a size with unit */
	KT_ENUM,     /* one of names[]; later[] known but not implemented */
	KT_TC,       /* qos.nccl_ib_tc: TOS byte into data_dscp */
	KT_DSCP_MAP, /* qos.dscp_to_priority */
	KT_WEIGHTS,  /* qos.dwrr_weights */
	KT_HOSTSET,  /* struct scn_hostset: text only, resolved at finalize */
	KT_FILE,     /* job file path */
	KT_BOOL,     /* int 0 or 1 */
	KT_PRIOS,    /* list of priorities (pfc) or queues (ecn) 0-7 into a uint8_t bit mask */
	KT_SIZE_AUTO, /* bytes, or "auto" = SCN_AUTO */
	KT_TIME_AUTO, /* ps, or "auto" = SCN_AUTO */
	KT_NODE,     /* a host name h<index> into a uint32_t host index */
	KT_LINK,     /* "A-B" of node names, text only, resolved at finalize */
	KT_FRACTION, /* parts per 1e9: "10%" or "0.1" */
	KT_PERCENT,  /* parts per 1e9 of a percentage: "2" and "2%" are 2 % */
	KT_INT_NONE, /* plain integer, or "none" = SCN_AUTO */
	/* [dcqcn] knobs: a bare number is in the NVIDIA firmware unit */
	KT_FW_TIME,  /* ps; bare number: us */
	KT_FW_RATE,  /* bps; bare number: Mbps; 0 only with KF_ZERO */
	KT_FW_BYTES, /* bytes; bare number: 64-byte units */
};

#define KF_EVEN 1u    /* integer must be even (topology.k) */
#define KF_NOPRINT 2u /* an alias, not printed (qos.nccl_ib_tc) */
#define KF_ZERO 4u    /* a bare "0" is accepted and printed (0 = off) */
#define KF_FRAME1 8u  /* SCN_AUTO until finalize: one data frame (mtu + 62) */
#define KF_FRAME2 16u /* SCN_AUTO until finalize: two data frames */
#define KF_NUM01 32u  /* a KT_BOOL printed as 0 or 1 (firmware flags) */

struct key_def {
	enum sec_id sec;
	const char *name;
	enum key_type type;
	size_t off, size;      /* field in struct scenario, or struct scn_job for SEC_JOB */
	int64_t min, max;      /* valid range in the base unit */
	const char *range;     /* the range as messages show it */
	const char *const *names; /* KT_ENUM: value names, by enum value */
	const char *const *later; /* KT_ENUM: values known but not implemented */
	const char *dep;       /* selecting key of the same section, "section.key"
				  of another one (nic.cc), or NULL */
	unsigned mask;         /* values of dep (bit per enum value) where it applies;
				  a KT_PRIOS or KT_BOOL dep: where it is not 0 */
	unsigned flags;
};

#define SF(f) offsetof(struct scenario, f), sizeof(((struct scenario *)0)->f)
#define JF(f) offsetof(struct scn_job, f), sizeof(((struct scn_job *)0)->f)
#define FF(f) offsetof(struct scn_fault, f), sizeof(((struct scn_fault *)0)->f)
#define NOF 0, 0
#define TODO(sec, name) \
	{ sec, name, KT_TODO, NOF, 0, 0, NULL, NULL, NULL, NULL, 0, 0 }

static const char *const topo_names[] = { "leaf-spine", "fat-tree", "star", NULL };
static const char *const ecmp_names[] = { "flow", "packet", NULL };
static const char *const sched_names[] = { "strict", "dwrr", NULL };
static const char *const cc_names[] = { "none", "dcqcn", NULL };
static const char *const mark_point_names[] = { "dequeue", "enqueue", NULL };
static const char *const queues_names[] = { "switches", "all", "none", NULL };
static const char *const flows_names[] = { "none", "all", NULL }; /* output_flows 0, 1 */
static const char *const profile_names[] = { "nvidia", "paper", "hpcc", NULL };
static const char *const cnp_scope_names[] = { "qp", "port", NULL };
static const char *const pattern_names[] = { "trace", "incast", "permutation", "ring-allreduce",
					     "alltoall", NULL };
static const char *const schedule_names[] = { "all-at-once", "shift", NULL };
static const char *const pfcwd_action_names[] = { "drop", "forward", "alert", NULL };
static const char *const fault_kind_names[] = { "pause-storm", "slow-receiver", "link-down",
						NULL };

_Static_assert(SCN_TOPO_LEAF_SPINE == 0 && SCN_TOPO_FAT_TREE == 1 && SCN_TOPO_STAR == 2,
	       "topo_names[] follows enum scn_topo_kind");
_Static_assert(SCN_ECMP_FLOW == 0 && SCN_ECMP_PACKET == 1, "ecmp_names[] order");
_Static_assert(SCN_SCHED_STRICT == 0 && SCN_SCHED_DWRR == 1, "sched_names[] order");
_Static_assert(SCN_CC_NONE == 0 && SCN_CC_DCQCN == 1, "cc_names[] order");
_Static_assert(SCN_MARK_DEQUEUE == 0 && SCN_MARK_ENQUEUE == 1, "mark_point_names[] order");
_Static_assert(SCN_QUEUES_SWITCHES == 0 && SCN_QUEUES_ALL == 1 && SCN_QUEUES_NONE == 2,
	       "queues_names[] order");
_Static_assert(SCN_DCQCN_NVIDIA == 0 && SCN_DCQCN_PAPER == 1 && SCN_DCQCN_HPCC == 2,
	       "profile_names[] order");
_Static_assert(SCN_CNP_SCOPE_QP == 0 && SCN_CNP_SCOPE_PORT == 1, "cnp_scope_names[] order");
_Static_assert(SCN_JOB_TRACE == 0 && SCN_JOB_INCAST == 1 && SCN_JOB_PERMUTATION == 2 &&
		       SCN_JOB_RING_ALLREDUCE == 3 && SCN_JOB_ALLTOALL == 4,
	       "pattern_names[] order");
_Static_assert(SCN_SCHEDULE_ALL_AT_ONCE == 0 && SCN_SCHEDULE_SHIFT == 1, "schedule_names[] order");
_Static_assert(SCN_PFCWD_DROP == 0 && SCN_PFCWD_FORWARD == 1 && SCN_PFCWD_ALERT == 2,
	       "pfcwd_action_names[] order");
_Static_assert(SCN_FAULT_PAUSE_STORM == 0 && SCN_FAULT_SLOW_RECEIVER == 1 &&
		       SCN_FAULT_LINK_DOWN == 2,
	       "fault_kind_names[] order");
_Static_assert(sizeof(enum scn_topo_kind) == sizeof(int32_t) &&
		       sizeof(enum scn_pattern) == sizeof(int32_t) &&
		       sizeof(enum scn_schedule) == sizeof(int32_t) &&
		       sizeof(enum scn_pfcwd_action) == sizeof(int32_t) &&
		       sizeof(enum scn_fault_kind) == sizeof(int32_t) &&
		       sizeof(enum scn_cc) == sizeof(int32_t) &&
		       sizeof(enum scn_mark_point) == sizeof(int32_t) &&
		       sizeof(enum scn_dcqcn_profile) == sizeof(int32_t) &&
		       sizeof(enum scn_cnp_scope) == sizeof(int32_t),
	       "enum fields are stored as 32-bit integers");
_Static_assert(sizeof(((struct scenario *)0)->pfcwd_enable) == sizeof(int32_t) &&
		       sizeof(((struct scenario *)0)->cnp_priority_strict) == sizeof(int32_t) &&
		       sizeof(((struct scenario *)0)->dcqcn.clamp_tgt_rate) == sizeof(int32_t) &&
		       sizeof(((struct scenario *)0)->dcqcn.clamp_tgt_rate_after_time_inc) ==
			       sizeof(int32_t),
	       "booleans are stored as 32-bit integers");

#define LS (1u << SCN_TOPO_LEAF_SPINE)
#define FT (1u << SCN_TOPO_FAT_TREE)
#define STAR (1u << SCN_TOPO_STAR)
#define P_TRACE (1u << SCN_JOB_TRACE)
#define P_INCAST (1u << SCN_JOB_INCAST)
#define P_PERM (1u << SCN_JOB_PERMUTATION)
#define P_RING (1u << SCN_JOB_RING_ALLREDUCE)
#define P_A2A (1u << SCN_JOB_ALLTOALL)
#define F_STORM (1u << SCN_FAULT_PAUSE_STORM)
#define F_SLOW (1u << SCN_FAULT_SLOW_RECEIVER)
#define F_LINK (1u << SCN_FAULT_LINK_DOWN)
#define CC_DCQCN (1u << SCN_CC_DCQCN)

#define MBPS INT64_C(1000000)
#define RATE_MAX_BPS INT64_C(1600000000000)  /* 1600Gbps, the fastest link */
#define MAX_BYTE_RESET INT64_C(1000000000)   /* dcqcn.rpg_byte_reset: 1GB */
#define FW_BYTE_UNIT 64                      /* rpg_byte_reset firmware unit */

/*
 * Every key of DESIGN A2.  The order within a section is the print order.
 * Columns: section, name, type, field, min, max, range shown, enum names,
 * enum values not implemented, selecting key, where it applies, flags.
 */
static const struct key_def key_defs[] = {
	{ SEC_SIM, "duration", KT_TIME, SF(duration_ps), 1, MAX_TIME_PS,
	  "above 0, at most 1000s", NULL, NULL, NULL, 0, 0 },
	{ SEC_SIM, "seed", KT_INT, SF(seed), 0, INT64_MAX,
	  "0-9223372036854775807", NULL, NULL, NULL, 0, 0 },

	{ SEC_TOPOLOGY, "kind", KT_ENUM, SF(topo), 0, 0, NULL, topo_names,
	  NULL, NULL, 0, 0 },
	{ SEC_TOPOLOGY, "spines", KT_INT, SF(spines), 1, 256, "1-256", NULL,
	  NULL, "kind", LS, 0 },
	{ SEC_TOPOLOGY, "leaves", KT_INT, SF(leaves), 1, 1024, "1-1024", NULL,
	  NULL, "kind", LS, 0 },
	{ SEC_TOPOLOGY, "hosts_per_leaf", KT_INT, SF(hosts_per_leaf), 1, 512,
	  "1-512", NULL, NULL, "kind", LS, 0 },
	{ SEC_TOPOLOGY, "k", KT_INT, SF(k), 2, 64, "even, 2-64", NULL, NULL,
	  "kind", FT, KF_EVEN },
	{ SEC_TOPOLOGY, "hosts", KT_INT, SF(star_hosts), 2, 1024, "2-1024",
	  NULL, NULL, "kind", STAR, 0 },
	{ SEC_TOPOLOGY, "host_link", KT_RATE, SF(host_link_bps),
	  INT64_C(1000000000), INT64_C(1600000000000), "1Gbps-1600Gbps", NULL,
	  NULL, NULL, 0, 0 },
	{ SEC_TOPOLOGY, "fabric_link", KT_RATE, SF(fabric_link_bps),
	  INT64_C(1000000000), INT64_C(1600000000000), "1Gbps-1600Gbps", NULL,
	  NULL, NULL, 0, 0 },
	{ SEC_TOPOLOGY, "host_cable", KT_LENGTH, SF(host_cable_mm), 0,
	  INT64_C(10000000), "0-10000m", NULL, NULL, NULL, 0, 0 },
	{ SEC_TOPOLOGY, "fabric_cable", KT_LENGTH, SF(fabric_cable_mm), 0,
	  INT64_C(10000000), "0-10000m", NULL, NULL, NULL, 0, 0 },
	{ SEC_TOPOLOGY, "switch_latency", KT_TIME, SF(switch_latency_ps), 0,
	  UNITS_PS_PER_MS, "0-1ms", NULL, NULL, NULL, 0, 0 },
	{ SEC_TOPOLOGY, "mtu", KT_MTU, SF(mtu_bytes), 256, 9000, "256-9000",
	  NULL, NULL, NULL, 0, 0 },
	{ SEC_TOPOLOGY, "ecmp", KT_ENUM, SF(ecmp), 0, 0, NULL, ecmp_names, NULL,
	  NULL, 0, 0 },

	{ SEC_QOS, "data_dscp", KT_INT, SF(data_dscp), 0, 63, "0-63", NULL,
	  NULL, NULL, 0, 0 },
	{ SEC_QOS, "nccl_ib_tc", KT_TC, SF(data_dscp), 0, 255, "0-255", NULL,
	  NULL, NULL, 0, KF_NOPRINT },
	{ SEC_QOS, "cnp_dscp", KT_INT, SF(cnp_dscp), 0, 63, "0-63", NULL, NULL,
	  NULL, 0, 0 },
	{ SEC_QOS, "dscp_to_priority", KT_DSCP_MAP, SF(dscp_to_prio), 0, 0,
	  NULL, NULL, NULL, NULL, 0, 0 },
	{ SEC_QOS, "scheduler", KT_ENUM, SF(scheduler), 0, 0, NULL, sched_names,
	  NULL, NULL, 0, 0 },
	{ SEC_QOS, "dwrr_weights", KT_WEIGHTS, SF(dwrr_weights), 1, 1000,
	  "8 weights 1-1000, for priorities 0-7", NULL, NULL, "scheduler",
	  1u << SCN_SCHED_DWRR, 0 },
	{ SEC_QOS, "cnp_priority_strict", KT_BOOL, SF(cnp_priority_strict), 0, 1,
	  NULL, NULL, NULL, NULL, 0, 0 },

	{ SEC_NIC, "cc", KT_ENUM, SF(cc), 0, 0, NULL, cc_names, NULL, NULL, 0, 0 },
	{ SEC_NIC, "pause_watchdog", KT_TIME, SF(nic_pause_watchdog_ps), 0,
	  10 * UNITS_PS_PER_S, "0 (off) to 10s", NULL, NULL, NULL, 0, KF_ZERO },
	{ SEC_NIC, "rto", KT_TIME, SF(nic_rto_ps), UNITS_PS_PER_US,
	  10 * UNITS_PS_PER_S, "1us-10s", NULL, NULL, NULL, 0, 0 },

	{ SEC_JOB, "pattern", KT_ENUM, JF(pattern), 0, 0, NULL, pattern_names,
	  NULL, NULL, 0, 0 },
	{ SEC_JOB, "ranks", KT_HOSTSET, JF(ranks), 0, 0, NULL, NULL, NULL,
	  "pattern", P_PERM | P_RING | P_A2A, 0 },
	{ SEC_JOB, "size", KT_SIZE, JF(size_bytes), 1, MAX_BYTES,
	  "above 0, at most 1000GB", NULL, NULL, "pattern",
	  P_INCAST | P_PERM | P_RING | P_A2A, 0 },
	{ SEC_JOB, "start", KT_TIME, JF(start_ps), 0, MAX_TIME_PS, "0-1000s",
	  NULL, NULL, NULL, 0, 0 },
	{ SEC_JOB, "dscp", KT_INT, JF(dscp), 0, 63, "0-63", NULL, NULL, NULL, 0,
	  0 },
	{ SEC_JOB, "dst", KT_INT, JF(dst), 0, SCN_MAX_HOSTS - 1, NULL, NULL,
	  NULL, "pattern", P_INCAST, 0 },
	{ SEC_JOB, "senders", KT_HOSTSET, JF(senders), 0, 0, NULL, NULL, NULL,
	  "pattern", P_INCAST, 0 },
	{ SEC_JOB, "file", KT_FILE, JF(file), 0, 0, NULL, NULL, NULL, "pattern",
	  P_TRACE, 0 },
	{ SEC_JOB, "iterations", KT_INT, JF(iterations), 1, MAX_ITERATIONS,
	  "1-100000", NULL, NULL, NULL, 0, 0 },
	{ SEC_JOB, "compute_gap", KT_TIME, JF(compute_gap_ps), 0, MAX_TIME_PS,
	  "0-1000s", NULL, NULL, NULL, 0, 0 },
	{ SEC_JOB, "skew", KT_TIME, JF(skew_ps), 0, MAX_TIME_PS, "0-1000s", NULL,
	  NULL, NULL, 0, 0 },
	{ SEC_JOB, "channels", KT_INT, JF(channels), 1, MAX_CHANNELS, "1-64", NULL,
	  NULL, "pattern", P_RING, 0 },
	{ SEC_JOB, "slice", KT_SIZE, JF(slice_bytes), MIN_SLICE_BYTES,
	  MAX_SLICE_BYTES, "1KB-1GB", NULL, NULL, "pattern", P_RING, 0 },
	{ SEC_JOB, "schedule", KT_ENUM, JF(schedule), 0, 0, NULL, schedule_names,
	  NULL, "pattern", P_A2A, 0 },

	{ SEC_BUFFER, "size", KT_SIZE, SF(buffer_bytes), 1, MAX_BUFFER_BYTES,
	  "above 0, at most 64GiB", NULL, NULL, NULL, 0, 0 },
	{ SEC_BUFFER, "reserved", KT_SIZE, SF(reserved_bytes), 0, INT64_C(1000000),
	  "0-1MB", NULL, NULL, NULL, 0, KF_FRAME1 },
	{ SEC_BUFFER, "dynamic_th", KT_INT, SF(dynamic_th), -7, 7, "-7 to 7", NULL,
	  NULL, NULL, 0, 0 },
	{ SEC_BUFFER, "lossy_dynamic_th", KT_INT, SF(lossy_dynamic_th), -7, 7,
	  "-7 to 7", NULL, NULL, NULL, 0, 0 },
	{ SEC_BUFFER, "cell", KT_SIZE, SF(cell_bytes), 0, 4096,
	  "0 (byte exact) to 4096B", NULL, NULL, NULL, 0, KF_ZERO },

	{ SEC_PFC, "priorities", KT_PRIOS, SF(pfc_prios), 0, SCN_PRIOS - 1,
	  "0-7, comma-separated; empty = PFC off", NULL, NULL, NULL, 0, 0 },
	{ SEC_PFC, "headroom", KT_SIZE_AUTO, SF(headroom_bytes), 0,
	  MAX_HEADROOM_BYTES, "auto or 0-64MB", NULL, NULL, "priorities", 0, 0 },
	{ SEC_PFC, "xon_offset", KT_SIZE, SF(xon_offset_bytes), 0,
	  MAX_HEADROOM_BYTES, "0-64MB", NULL, NULL, "priorities", 0, KF_FRAME2 },
	{ SEC_PFC, "pause_quanta", KT_INT, SF(pause_quanta), 1, 65535, "1-65535",
	  NULL, NULL, "priorities", 0, 0 },
	{ SEC_PFC, "response_time", KT_TIME_AUTO, SF(response_ps), 0,
	  UNITS_PS_PER_MS, "auto or 0-1ms", NULL, NULL, "priorities", 0, 0 },

	{ SEC_PFCWD, "enable", KT_BOOL, SF(pfcwd_enable), 0, 1, NULL, NULL, NULL,
	  NULL, 0, 0 },
	{ SEC_PFCWD, "detection_time", KT_TIME, SF(pfcwd_detect_ps),
	  UNITS_PS_PER_US, 10 * UNITS_PS_PER_S, "1us-10s", NULL, NULL, "enable", 0,
	  0 },
	{ SEC_PFCWD, "restoration_time", KT_TIME, SF(pfcwd_restore_ps),
	  UNITS_PS_PER_US, 10 * UNITS_PS_PER_S, "1us-10s", NULL, NULL, "enable", 0,
	  0 },
	{ SEC_PFCWD, "poll_interval", KT_TIME, SF(pfcwd_poll_ps), UNITS_PS_PER_US,
	  10 * UNITS_PS_PER_S, "1us-10s", NULL, NULL, "enable", 0, 0 },
	{ SEC_PFCWD, "action", KT_ENUM, SF(pfcwd_action), 0, 0, NULL,
	  pfcwd_action_names, NULL, "enable", 0, 0 },

	{ SEC_ECN, "queues", KT_PRIOS, SF(ecn_queues), 0, SCN_PRIOS - 1,
	  "0-7, comma-separated; empty = ECN off", NULL, NULL, NULL, 0, 0 },
	{ SEC_ECN, "kmin", KT_SIZE, SF(ecn_kmin_bytes), 0, MAX_BUFFER_BYTES,
	  "0-64GiB", NULL, NULL, "queues", 0, 0 },
	{ SEC_ECN, "kmax", KT_SIZE, SF(ecn_kmax_bytes), 1, MAX_BUFFER_BYTES,
	  "above 0, at most 64GiB", NULL, NULL, "queues", 0, 0 },
	{ SEC_ECN, "pmax", KT_FRACTION, SF(ecn_pmax_ppb), 1, UNITS_PPB_ONE,
	  "above 0, at most 100%", NULL, NULL, "queues", 0, 0 },
	{ SEC_ECN, "mark_point", KT_ENUM, SF(ecn_mark_point), 0, 0, NULL,
	  mark_point_names, NULL, "queues", 0, 0 },

	/* DESIGN B6, in the order of its table; defaults: profile_knobs[] */
	{ SEC_DCQCN, "profile", KT_ENUM, SF(dcqcn_profile), 0, 0, NULL,
	  profile_names, NULL, "nic.cc", CC_DCQCN, 0 },
	{ SEC_DCQCN, "rpg_time_reset", KT_FW_TIME, SF(dcqcn.rpg_time_reset_ps), 1,
	  UNITS_PS_PER_S, "above 0, at most 1s; a bare number is us", NULL, NULL,
	  "nic.cc", CC_DCQCN, 0 },
	{ SEC_DCQCN, "rpg_byte_reset", KT_FW_BYTES, SF(dcqcn.rpg_byte_reset_bytes),
	  0, MAX_BYTE_RESET, "0 (off) to 1GB; a bare number counts 64-byte units",
	  NULL, NULL, "nic.cc", CC_DCQCN, 0 },
	{ SEC_DCQCN, "rpg_threshold", KT_INT, SF(dcqcn.rpg_threshold), 1, 31,
	  "1-31", NULL, NULL, "nic.cc", CC_DCQCN, 0 },
	{ SEC_DCQCN, "rpg_ai_rate", KT_FW_RATE, SF(dcqcn.rpg_ai_rate_bps), MBPS,
	  RATE_MAX_BPS, "0 or 1Mbps-1600Gbps; a bare number is Mbps", NULL, NULL,
	  "nic.cc", CC_DCQCN, KF_ZERO },
	{ SEC_DCQCN, "rpg_hai_rate", KT_FW_RATE, SF(dcqcn.rpg_hai_rate_bps), MBPS,
	  RATE_MAX_BPS, "0 or 1Mbps-1600Gbps; a bare number is Mbps", NULL, NULL,
	  "nic.cc", CC_DCQCN, KF_ZERO },
	{ SEC_DCQCN, "rpg_gd", KT_INT, SF(dcqcn.rpg_gd), 10, 20, "10-20", NULL,
	  NULL, "nic.cc", CC_DCQCN, 0 },
	{ SEC_DCQCN, "rpg_min_dec_fac", KT_INT, SF(dcqcn.rpg_min_dec_fac_pct), 0,
	  100, "0-100", NULL, NULL, "nic.cc", CC_DCQCN, 0 },
	{ SEC_DCQCN, "rpg_min_rate", KT_FW_RATE, SF(dcqcn.rpg_min_rate_bps), MBPS,
	  RATE_MAX_BPS, "1Mbps-1600Gbps; a bare number is Mbps", NULL, NULL,
	  "nic.cc", CC_DCQCN, 0 },
	{ SEC_DCQCN, "dce_tcp_g", KT_INT, SF(dcqcn.dce_tcp_g), 0, 1023, "0-1023",
	  NULL, NULL, "nic.cc", CC_DCQCN, 0 },
	{ SEC_DCQCN, "dce_tcp_rtt", KT_FW_TIME, SF(dcqcn.dce_tcp_rtt_ps), 1,
	  UNITS_PS_PER_S, "above 0, at most 1s; a bare number is us", NULL, NULL,
	  "nic.cc", CC_DCQCN, 0 },
	{ SEC_DCQCN, "rate_reduce_monitor_period", KT_FW_TIME,
	  SF(dcqcn.rate_reduce_monitor_period_ps), 0, UNITS_PS_PER_S,
	  "0-1s; a bare number is us", NULL, NULL, "nic.cc", CC_DCQCN, 0 },
	{ SEC_DCQCN, "initial_alpha_value", KT_INT, SF(dcqcn.initial_alpha_value),
	  0, 1023, "0-1023", NULL, NULL, "nic.cc", CC_DCQCN, 0 },
	{ SEC_DCQCN, "rate_to_set_on_first_cnp", KT_FW_RATE,
	  SF(dcqcn.rate_to_set_on_first_cnp_bps), MBPS, RATE_MAX_BPS,
	  "0 (keep the rate) or 1Mbps-1600Gbps; a bare number is Mbps", NULL, NULL,
	  "nic.cc", CC_DCQCN, KF_ZERO },
	{ SEC_DCQCN, "clamp_tgt_rate", KT_BOOL, SF(dcqcn.clamp_tgt_rate), 0, 1, NULL,
	  NULL, NULL, "nic.cc", CC_DCQCN, KF_NUM01 },
	{ SEC_DCQCN, "clamp_tgt_rate_after_time_inc", KT_BOOL,
	  SF(dcqcn.clamp_tgt_rate_after_time_inc), 0, 1, NULL, NULL, NULL, "nic.cc",
	  CC_DCQCN, KF_NUM01 },
	{ SEC_DCQCN, "min_time_between_cnps", KT_FW_TIME,
	  SF(dcqcn.min_time_between_cnps_ps), 0, UNITS_PS_PER_S,
	  "0-1s; a bare number is us", NULL, NULL, "nic.cc", CC_DCQCN, 0 },
	{ SEC_DCQCN, "cnp_scope", KT_ENUM, SF(dcqcn.cnp_scope), 0, 0, NULL,
	  cnp_scope_names, NULL, "nic.cc", CC_DCQCN, 0 },

	{ SEC_FAULT, "kind", KT_ENUM, FF(kind), 0, 0, NULL, fault_kind_names, NULL,
	  NULL, 0, 0 },
	{ SEC_FAULT, "node", KT_NODE, FF(host), 0, SCN_MAX_HOSTS - 1, NULL, NULL,
	  NULL, "kind", F_STORM | F_SLOW, 0 },
	{ SEC_FAULT, "link", KT_LINK, FF(link_text), 0, 0, NULL, NULL, NULL, "kind",
	  F_LINK, 0 },
	{ SEC_FAULT, "start", KT_TIME, FF(start_ps), 0, MAX_TIME_PS, "0-1000s",
	  NULL, NULL, NULL, 0, 0 },
	{ SEC_FAULT, "duration", KT_TIME, FF(duration_ps), 0, MAX_TIME_PS,
	  "0 (until the end) to 1000s", NULL, NULL, NULL, 0, 0 },
	{ SEC_FAULT, "priority", KT_INT, FF(priority), 0, SCN_PRIOS - 1, "0-7",
	  NULL, NULL, "kind", F_STORM, 0 },
	{ SEC_FAULT, "rate", KT_RATE, FF(rate_bps), INT64_C(1000000),
	  INT64_C(1600000000000), "1Mbps-1600Gbps", NULL, NULL, "kind", F_SLOW, 0 },

	{ SEC_OUTPUT, "sample_interval", KT_TIME, SF(sample_interval_ps),
	  100 * UNITS_PS_PER_NS, UNITS_PS_PER_S, "100ns-1s", NULL, NULL, NULL, 0, 0 },
	{ SEC_OUTPUT, "queues", KT_ENUM, SF(output_queues), 0, 0, NULL, queues_names, NULL,
	  NULL, 0, 0 },
	{ SEC_OUTPUT, "flows", KT_ENUM, SF(output_flows), 0, 0, NULL, flows_names, NULL,
	  NULL, 0, 0 },
	{ SEC_OUTPUT, "rates", KT_INT, SF(output_rates), 0, 100000, "0-100000",
	  NULL, NULL, NULL, 0, 0 },
	{ SEC_CRITERIA, "max_ecn_mark_pct", KT_PERCENT, SF(crit_max_ecn_mark_ppb), 0,
	  UNITS_PPB_ONE, "0-100 (percent)", NULL, NULL, NULL, 0, 0 },
	{ SEC_CRITERIA, "max_lossless_drops", KT_INT, SF(crit_max_lossless_drops), 0,
	  INT64_C(1000000000000), "0-1000000000000", NULL, NULL, NULL, 0, 0 },
	{ SEC_CRITERIA, "min_busbw_pct_line", KT_PERCENT, SF(crit_min_busbw_ppb), 0,
	  UNITS_PPB_ONE, "0-100 (percent)", NULL, NULL, NULL, 0, 0 },
	{ SEC_CRITERIA, "max_pause_frame_rate", KT_INT_NONE, SF(crit_max_pause_frame_rate), 0,
	  INT64_C(1000000000000), "none, or 0-1000000000000 frames/s", NULL, NULL, NULL, 0, 0 },
};

enum { N_KEYS = N_OF(key_defs) };

/*
 * [dcqcn] defaults of each profile (DESIGN B6), in base units, by enum
 * scn_dcqcn_profile: nvidia (ConnectX firmware defaults), paper (Zhu et
 * al., SIGCOMM 2015), hpcc (the HPCC ns-3 "dcqcn" model).  cnp_scope is not
 * a profile setting (qp for all three).
 */
static const struct {
	const char *name;
	int64_t v[3];
} profile_knobs[] = {
	{ "rpg_time_reset", { 300 * UNITS_PS_PER_US, 55 * UNITS_PS_PER_US, 300 * UNITS_PS_PER_US } },
	{ "rpg_byte_reset", { 32767 * FW_BYTE_UNIT, 10000000, 0 } },
	{ "rpg_threshold", { 1, 5, 1 } },
	{ "rpg_ai_rate", { 5 * MBPS, 40 * MBPS, 20 * MBPS } },
	{ "rpg_hai_rate", { 50 * MBPS, 200 * MBPS, 200 * MBPS } },
	{ "rpg_gd", { 11, 11, 11 } },
	{ "rpg_min_dec_fac", { 50, 0, 0 } },
	{ "rpg_min_rate", { 1 * MBPS, 1 * MBPS, 1000 * MBPS } },
	{ "dce_tcp_g", { 1019, 1020, 1020 } },
	{ "dce_tcp_rtt", { 1 * UNITS_PS_PER_US, 55 * UNITS_PS_PER_US, 1 * UNITS_PS_PER_US } },
	{ "rate_reduce_monitor_period", { 4 * UNITS_PS_PER_US, 0, 4 * UNITS_PS_PER_US } },
	{ "initial_alpha_value", { 1023, 1023, 1023 } },
	{ "rate_to_set_on_first_cnp", { 0, 0, 0 } },
	{ "clamp_tgt_rate", { 0, 1, 0 } },
	{ "clamp_tgt_rate_after_time_inc", { 1, 1, 1 } },
	{ "min_time_between_cnps", { 4 * UNITS_PS_PER_US, 50 * UNITS_PS_PER_US, 0 } },
};

/* ---- messages ---- */

/* where a message points: "src:line: ", or "src: " when line is 0 */
struct place {
	const char *src;
	int line;
};

/* Messages are one line: control characters from user text become '?'. */
static void one_line(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

static void vset_error(struct scn_error *err, struct place pl, const char *fmt,
		       va_list ap)
{
	int n;

	if (!err)
		return;
	if (pl.line > 0)
		n = snprintf(err->msg, sizeof(err->msg), "%s:%d: ", pl.src, pl.line);
	else
		n = snprintf(err->msg, sizeof(err->msg), "%s: ", pl.src);
	if (n >= 0 && (size_t)n < sizeof(err->msg))
		vsnprintf(err->msg + n, sizeof(err->msg) - (size_t)n, fmt, ap);
	one_line(err->msg);
}

SCN_PRINTF(3, 4)
static int set_error(struct scn_error *err, struct place pl, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset_error(err, pl, fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- small helpers ---- */

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' ||
	       c == '\v';
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* [*b, *e) without white space at either end */
static void trim_range(const char **b, const char **e)
{
	while (*b < *e && is_blank(**b))
		(*b)++;
	while (*e > *b && is_blank((*e)[-1]))
		(*e)--;
}

/* copy [b, e) into buf (NUL-terminated); -1 if it does not fit */
static int copy_range(char *buf, size_t len, const char *b, const char *e)
{
	size_t n = (size_t)(e - b);

	if (n >= len)
		return -1;
	memcpy(buf, b, n);
	buf[n] = '\0';
	return 0;
}

static int find_key(enum sec_id sec, const char *name)
{
	size_t i;

	for (i = 0; i < N_KEYS; i++)
		if (key_defs[i].sec == sec && strcmp(key_defs[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* the key definition by section and name, for keys the code names itself */
static const struct key_def *key_def_of(enum sec_id sec, const char *name)
{
	int i = find_key(sec, name);

	return i < 0 ? NULL : &key_defs[i];
}

static void store_int(void *base, const struct key_def *k, int64_t v)
{
	char *p = (char *)base + k->off;

	switch (k->size) {
	case 1: {
		uint8_t x = (uint8_t)v;
		memcpy(p, &x, 1);
		break;
	}
	case 4: {
		int32_t x = (int32_t)v;
		memcpy(p, &x, 4);
		break;
	}
	case 8:
		memcpy(p, &v, 8);
		break;
	default:
		break;
	}
}

/* integer and enum fields; every value stored fits int32 or int64 */
static int64_t load_int(const void *base, const struct key_def *k)
{
	const char *p = (const char *)base + k->off;

	switch (k->size) {
	case 1: {
		uint8_t x;
		memcpy(&x, p, 1);
		return x;
	}
	case 4: {
		int32_t x;
		memcpy(&x, p, 4);
		return x;
	}
	case 8: {
		int64_t x;
		memcpy(&x, p, 8);
		return x;
	}
	default:
		return 0;
	}
}

static size_t count_names(const char *const *names)
{
	size_t n = 0;

	while (names && names[n])
		n++;
	return n;
}

/* "a, b, c" */
static void join_names(const char *const *names, const char *sep, char *buf,
		       size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; names && names[i]; i++) {
		int w = snprintf(buf + n, len - n, "%s%s", i ? sep : "", names[i]);
		if (w < 0 || (size_t)w >= len - n)
			return;
		n += (size_t)w;
	}
}

/* the definition of k's selecting key: "queues" in k's section, or "nic.cc" */
static const struct key_def *dep_def(const struct key_def *k)
{
	const char *dot = strchr(k->dep, '.');
	const struct key_def *d = NULL;
	int i;

	if (!dot)
		d = key_def_of(k->sec, k->dep);
	for (i = 0; dot && i < SEC_COUNT; i++)
		if (strlen(section_defs[i].name) == (size_t)(dot - k->dep) &&
		    strncmp(section_defs[i].name, k->dep, (size_t)(dot - k->dep)) == 0)
			d = key_def_of((enum sec_id)i, dot + 1);
	assert(d != NULL); /* key_defs[] names only keys that exist */
	return d;
}

/* k's selecting key as messages name it: "kind" in its section, or "nic.cc" */
static void dep_label(const struct key_def *k, const char *secname, char *buf, size_t len)
{
	if (strchr(k->dep, '.'))
		snprintf(buf, len, "%s", k->dep);
	else
		snprintf(buf, len, "%s.%s", secname, k->dep);
}

/*
 * Does key k apply, given the selecting key's value in base (for a
 * selecting key of another section, base is the struct scenario)?  *cur:
 * its name.
 */
static int key_applies(const struct key_def *k, const void *base,
		       const char **cur)
{
	const struct key_def *d;
	int64_t v;

	if (!k->dep)
		return 1;
	d = dep_def(k);
	v = load_int(base, d);
	if (d->type == KT_PRIOS || d->type == KT_BOOL) {
		if (cur)
			*cur = v ? "on" : "off";
		return v != 0;
	}
	if (cur)
		*cur = (v >= 0 && (size_t)v < count_names(d->names)) ? d->names[v] : "?";
	return v >= 0 && v < 32 && ((k->mask >> v) & 1u);
}

/* Is k's dep an on/off switch (pfc.priorities, pfcwd.enable, ecn.queues)? */
static int dep_is_switch(const struct key_def *k)
{
	const struct key_def *d = k->dep ? dep_def(k) : NULL;

	return d && (d->type == KT_PRIOS || d->type == KT_BOOL);
}

/* what is off when a switch dep is 0, and why: "PFC is off", "pfc.priorities is empty" */
static const char *switch_off_what(const struct key_def *k)
{
	switch (k->sec) {
	case SEC_PFC:
		return "PFC is off";
	case SEC_ECN:
		return "ECN is off";
	default:
		return "the PFC watchdog is off";
	}
}

static const char *switch_off_why(const struct key_def *k)
{
	switch (k->sec) {
	case SEC_PFC:
		return "pfc.priorities is empty";
	case SEC_ECN:
		return "ecn.queues is empty";
	default:
		return "pfcwd.enable is false";
	}
}

/*
 * "kind = fat-tree", "pattern = incast or permutation", "pattern =
 * permutation, ring-allreduce or alltoall", "nic.cc = dcqcn"
 */
static void applies_text(const struct key_def *k, char *buf, size_t len)
{
	const struct key_def *d = dep_def(k);
	size_t i, n, total = 0, done = 0;
	int w;

	for (i = 0; d->names[i]; i++)
		total += (k->mask >> i) & 1u;
	w = snprintf(buf, len, "%s = ", k->dep);
	n = (w < 0) ? 0 : (size_t)w;
	for (i = 0; d->names[i] && n < len; i++) {
		if (!((k->mask >> i) & 1u))
			continue;
		w = snprintf(buf + n, len - n, "%s%s",
			     done == 0 ? "" : done + 1 == total ? " or " : ", ", d->names[i]);
		if (w < 0)
			return;
		n += (size_t)w;
		done++;
	}
}

/* ---- host sets ---- */

#define HOSTSET_SYNTAX "use all, 0-63 or 0,2,4-7"

static int parse_host_number(const char **pp, uint32_t *out)
{
	const char *p = *pp;
	uint64_t v = 0;
	int digits = 0;

	while (is_digit(*p)) {
		v = v * 10 + (uint64_t)(*p - '0');
		if (++digits > 10 || v > UINT32_MAX)
			return -1;
		p++;
	}
	if (!digits)
		return -1;
	*out = (uint32_t)v;
	*pp = p;
	return 0;
}

/*
 * Walk a host set.  With nhosts == 0 only the syntax is checked.  Otherwise
 * every index must be below nhosts and appear once; "all" is every host but
 * `exclude` (UINT32_MAX: none), and an explicit list that names `exclude`
 * returns HOSTSET_EXCLUDED.  The hosts go to out[] (if not NULL) and their
 * number to *count.  Returns 0, or -1 with the reason in e.
 */
#define HOSTSET_EXCLUDED (-2)

static int hostset_walk(const char *text, uint32_t nhosts, uint32_t exclude,
			uint32_t *out, uint32_t *count, char *e, size_t elen)
{
	uint8_t seen[SCN_MAX_HOSTS / 8];
	const char *p = text;
	uint32_t n = 0, lo, hi, h;

	if (strcmp(text, "all") == 0) {
		for (h = 0; h < nhosts; h++)
			if (h != exclude) {
				if (out)
					out[n] = h;
				n++;
			}
		*count = n;
		return 0;
	}
	if (nhosts > SCN_MAX_HOSTS) {
		snprintf(e, elen, "more than %d hosts", SCN_MAX_HOSTS);
		return -1;
	}
	memset(seen, 0, sizeof(seen));
	for (;;) {
		while (is_blank(*p))
			p++;
		if (parse_host_number(&p, &lo))
			goto syntax;
		while (is_blank(*p))
			p++;
		hi = lo;
		if (*p == '-') {
			p++;
			while (is_blank(*p))
				p++;
			if (parse_host_number(&p, &hi))
				goto syntax;
			while (is_blank(*p))
				p++;
		}
		if (hi < lo) {
			snprintf(e, elen, "%" PRIu32 "-%" PRIu32 " goes backwards", lo, hi);
			return -1;
		}
		if (nhosts) {
			if (hi >= nhosts) {
				snprintf(e, elen, "host %" PRIu32 " out of range (0-%" PRIu32 ")",
					 lo >= nhosts ? lo : hi, nhosts - 1);
				return -1;
			}
			for (h = lo;; h++) {
				if (seen[h / 8] & (1u << (h % 8))) {
					snprintf(e, elen, "host %" PRIu32 " listed twice", h);
					return -1;
				}
				seen[h / 8] |= (uint8_t)(1u << (h % 8));
				if (out)
					out[n] = h;
				n++;
				if (h == hi)
					break;
			}
			if (exclude >= lo && exclude <= hi)
				return HOSTSET_EXCLUDED;
		}
		if (*p == '\0')
			break;
		if (*p != ',')
			goto syntax;
		p++;
	}
	*count = n;
	return 0;
syntax:
	snprintf(e, elen, "%s is not a host list (" HOSTSET_SYNTAX ")", text);
	return -1;
}

static void hostset_clear(struct scn_hostset *hs)
{
	free(hs->hosts);
	hs->hosts = NULL;
	hs->n = 0;
}

/* ---- scenario and job defaults ---- */

static void job_init(struct scn_job *j, const char *name, int line)
{
	memset(j, 0, sizeof(*j));
	memcpy(j->name, name, strlen(name) + 1); /* checked: < SCN_NAME_LEN */
	j->line = line;
	j->pattern = SCN_JOB_TRACE;
	memcpy(j->ranks.text, "all", 4);
	j->size_bytes = 4000000; /* 4MB */
	j->start_ps = 0;
	j->dscp = -1;
	j->dst = 0;
	memcpy(j->senders.text, "all", 4);
	j->iterations = 1;
	j->compute_gap_ps = 0;
	j->skew_ps = 0;
	j->channels = 1;
	j->slice_bytes = 512 * 1024; /* 512 KiB, NCCL's default slice (DESIGN B7) */
	j->schedule = SCN_SCHEDULE_ALL_AT_ONCE;
}

/* a fault's required keys start "not given"; see the file header */
static void fault_init(struct scn_fault *f, const char *name, int line)
{
	memset(f, 0, sizeof(*f));
	memcpy(f->name, name, strlen(name) + 1); /* checked: < SCN_NAME_LEN */
	f->line = line;
	f->kind = SCN_FAULT_PAUSE_STORM;
	f->host = NO_HOST;
	f->end_node[0] = f->end_node[1] = UINT32_MAX;
	f->start_ps = 0;
	f->duration_ps = 0;
	f->priority = NO_PRIO;
	f->rate_bps = 0;
}

static void job_free(struct scn_job *j)
{
	hostset_clear(&j->ranks);
	hostset_clear(&j->senders);
	free(j->rows);
	j->rows = NULL;
	j->nrows = 0;
}

/* the knobs of profile_knobs[] row i */
static const struct key_def *profile_knob(size_t i)
{
	const struct key_def *k = key_def_of(SEC_DCQCN, profile_knobs[i].name);

	assert(k != NULL);
	return k;
}

void scenario_init(struct scenario *s)
{
	size_t i;
	int d, p;

	memset(s, 0, sizeof(*s));
	memcpy(s->source, "<defaults>", sizeof("<defaults>"));
	s->duration_ps = UNITS_PS_PER_S;
	s->seed = 1;
	s->topo = SCN_TOPO_LEAF_SPINE;
	s->spines = 2;
	s->leaves = 4;
	s->hosts_per_leaf = 8;
	s->k = 4;
	s->star_hosts = 16;
	s->host_link_bps = INT64_C(400000000000);
	s->fabric_link_bps = INT64_C(400000000000);
	s->host_cable_mm = 3000;
	s->fabric_cable_mm = 30000;
	s->switch_latency_ps = 500 * UNITS_PS_PER_NS;
	s->mtu_bytes = 4096;
	s->ecmp = SCN_ECMP_FLOW;
	s->data_dscp = 26;
	for (d = 0; d < 64; d++)
		s->dscp_to_prio[d] = (uint8_t)(d >> 3);
	s->scheduler = SCN_SCHED_STRICT;
	for (p = 0; p < SCN_PRIOS; p++)
		s->dwrr_weights[p] = 1;
	s->buffer_bytes = 64000000; /* 64MB */
	s->reserved_bytes = SCN_AUTO; /* one data frame, resolved at finalize */
	s->dynamic_th = 0;
	s->lossy_dynamic_th = 3;
	s->cell_bytes = 0;
	s->pfc_prios = 1u << 3;
	s->headroom_bytes = SCN_AUTO;
	s->xon_offset_bytes = SCN_AUTO; /* two data frames, resolved at finalize */
	s->pause_quanta = 65535;
	s->response_ps = SCN_AUTO;
	s->pfcwd_enable = 1;
	s->pfcwd_detect_ps = 200 * UNITS_PS_PER_MS;
	s->pfcwd_restore_ps = 400 * UNITS_PS_PER_MS;
	s->pfcwd_poll_ps = 200 * UNITS_PS_PER_MS;
	s->pfcwd_action = SCN_PFCWD_DROP;
	s->ecn_queues = 1u << 3;
	s->ecn_kmin_bytes = 150000;  /* 150KB */
	s->ecn_kmax_bytes = 1500000; /* 1500KB */
	s->ecn_pmax_ppb = UNITS_PPB_ONE / 10; /* 10% */
	s->ecn_mark_point = SCN_MARK_DEQUEUE;
	s->cnp_dscp = 48;
	s->cnp_priority_strict = 1;
	s->cc = SCN_CC_DCQCN;
	s->nic_pause_watchdog_ps = 0;
	s->nic_rto_ps = 4 * UNITS_PS_PER_MS;
	s->dcqcn_profile = SCN_DCQCN_NVIDIA;
	for (i = 0; i < N_OF(profile_knobs); i++)
		store_int(s, profile_knob(i), profile_knobs[i].v[SCN_DCQCN_NVIDIA]);
	s->dcqcn.cnp_scope = SCN_CNP_SCOPE_QP;
	s->sample_interval_ps = 10 * UNITS_PS_PER_US;
	s->output_rates = 64;
	s->output_flows = 1;
	s->crit_max_ecn_mark_ppb = 20000000;  /* 2% */
	s->crit_max_lossless_drops = 0;
	s->crit_min_busbw_ppb = 950000000;    /* 95% */
	s->crit_max_pause_frame_rate = SCN_AUTO;
	s->njobs = 0;
	s->nfaults = 0;
}

/* bytes of n data frames (mtu + RoCEv2 headers), the unit of some defaults */
static int64_t data_frames(const struct scenario *s, int n)
{
	return n * ((int64_t)s->mtu_bytes + FRAME_HEADER_BYTES);
}

/* a KF_FRAME1/KF_FRAME2 field: its value, or the default it resolves to */
static int64_t frames_value(const struct key_def *k, const struct scenario *s)
{
	int64_t v = load_int(s, k);

	if (v != SCN_AUTO)
		return v;
	return data_frames(s, (k->flags & KF_FRAME2) ? 2 : 1);
}

static int64_t reserved_of(const struct scenario *s)
{
	return s->reserved_bytes == SCN_AUTO ? data_frames(s, 1) : s->reserved_bytes;
}

/* ---- jobs and faults: the instances of named sections ---- */

static uint32_t item_count(const struct scenario *s, int sec)
{
	return sec == SEC_FAULT ? s->nfaults : s->njobs;
}

static const void *item_cbase(const struct scenario *s, int sec, int j)
{
	return sec == SEC_FAULT ? (const void *)&s->faults[j] : (const void *)&s->jobs[j];
}

static void *item_base(struct scenario *s, int sec, int j)
{
	return sec == SEC_FAULT ? (void *)&s->faults[j] : (void *)&s->jobs[j];
}

static const char *item_name(const struct scenario *s, int sec, int j)
{
	return sec == SEC_FAULT ? s->faults[j].name : s->jobs[j].name;
}

static int item_line(const struct scenario *s, int sec, int j)
{
	return sec == SEC_FAULT ? s->faults[j].line : s->jobs[j].line;
}

static int item_index(const struct scenario *s, int sec, const char *name)
{
	uint32_t i;

	for (i = 0; i < item_count(s, sec); i++)
		if (strcmp(item_name(s, sec, (int)i), name) == 0)
			return (int)i;
	return -1;
}

void scenario_free(struct scenario *s)
{
	uint32_t i;

	for (i = 0; i < s->njobs && i < SCN_MAX_JOBS; i++)
		job_free(&s->jobs[i]);
}

struct topo_shape scenario_topo_shape(const struct scenario *s)
{
	static const enum topo_kind kind[] = {
		[SCN_TOPO_LEAF_SPINE] = TOPO_KIND_LEAF_SPINE,
		[SCN_TOPO_FAT_TREE] = TOPO_KIND_FAT_TREE,
		[SCN_TOPO_STAR] = TOPO_KIND_STAR,
	};
	return (struct topo_shape){
		.kind = kind[s->topo], .spines = s->spines, .leaves = s->leaves,
		.hosts_per_leaf = s->hosts_per_leaf, .k = s->k, .star_hosts = s->star_hosts,
		.host_link_bps = s->host_link_bps, .fabric_link_bps = s->fabric_link_bps,
		.host_cable_mm = s->host_cable_mm, .fabric_cable_mm = s->fabric_cable_mm,
	};
}

uint32_t scenario_hosts(const struct scenario *s)
{
	struct topo_shape shape = scenario_topo_shape(s);
	return topo_shape_hosts(&shape);
}

uint32_t scenario_switches(const struct scenario *s)
{
	struct topo_shape shape = scenario_topo_shape(s);
	return topo_shape_switches(&shape);
}

/* ---- PFC derived values (DESIGN B2, B3; the arithmetic is pfc.h's and
 * mmu.h's) ---- */

static sim_time_ps response_setting(const struct scenario *s)
{
	return s->response_ps == SCN_AUTO ? PFC_AUTO : s->response_ps;
}

sim_time_ps scenario_response_ps(const struct scenario *s, int64_t rate_bps)
{
	return pfc_response_ps(response_setting(s), rate_bps);
}

static struct pfc_headroom headroom_terms(const struct scenario *s, int64_t rate_bps,
					  int64_t cable_mm)
{
	return pfc_headroom_auto(s->mtu_bytes, rate_bps, cable_mm, response_setting(s));
}

int64_t scenario_headroom_bytes(const struct scenario *s, int64_t rate_bps, int64_t cable_mm)
{
	if (s->headroom_bytes != SCN_AUTO)
		return s->headroom_bytes;
	return headroom_terms(s, rate_bps, cable_mm).total;
}

int64_t scenario_pool_bytes(const struct scenario *s, uint32_t host_ports,
			    uint32_t fabric_ports)
{
	int64_t nl = 0, headroom = 0;
	int p;

	for (p = 0; p < SCN_PRIOS; p++)
		nl += (s->pfc_prios >> p) & 1;
	if (nl)
		headroom = nl * (host_ports * scenario_headroom_bytes(s, s->host_link_bps,
								     s->host_cable_mm) +
				 fabric_ports * scenario_headroom_bytes(s, s->fabric_link_bps,
									s->fabric_cable_mm));
	return mmu_pool_bytes(s->buffer_bytes, reserved_of(s), host_ports + fabric_ports, headroom);
}

/* ---- the state of one file or one --set ---- */

struct load {
	struct scenario *s;
	struct scn_error *err;
	const char *src;  /* file name in messages, or "--set" */
	char dir[4096];   /* folder of src with '/', "" for none or --set */
	const char *pos;  /* the rest of the text being read */
	int line;         /* current line; 0 for --set */
	int failed;
	int sec;          /* enum sec_id of the current section, -1 before any */
	int item;         /* index in s->jobs or s->faults for [job.NAME] or
			     [fault.NAME], else -1 */
	char secname[64]; /* "topology", "job.a", "fault.x": message prefix */
	int sec_line[SEC_COUNT];                /* header lines, unnamed sections */
	int key_line[N_KEYS];                   /* line of each key, 0: not given */
	/* the same for each job ([0]) and fault ([1]), and their header lines */
	int item_key_line[2][MAX_ITEMS][N_KEYS];
	int item_hdr_line[2][MAX_ITEMS];
};

/* the line of key ki: of item j of named section sec, or (j < 0) unnamed */
static int *line_slot(struct load *ld, int sec, int j, int ki)
{
	return j >= 0 ? &ld->item_key_line[sec == SEC_FAULT][j][ki] : &ld->key_line[ki];
}

static int line_at(const struct load *ld, int sec, int j, int ki)
{
	return j >= 0 ? ld->item_key_line[sec == SEC_FAULT][j][ki] : ld->key_line[ki];
}

static int *hdr_slot(struct load *ld, int sec, int j)
{
	return &ld->item_hdr_line[sec == SEC_FAULT][j];
}

static int hdr_at(const struct load *ld, int sec, int j)
{
	return ld->item_hdr_line[sec == SEC_FAULT][j];
}

SCN_PRINTF(2, 3)
static int fail(struct load *ld, const char *fmt, ...)
{
	struct place pl = { ld->src, ld->line };
	va_list ap;

	if (ld->failed)
		return -1;
	ld->failed = 1;
	va_start(ap, fmt);
	vset_error(ld->err, pl, fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * dcqcn.profile changed from `old` to s->dcqcn_profile: every knob not
 * given explicitly takes the new profile's default.  Given explicitly means
 * given earlier in the file being read (a knob after `profile` in the file
 * is applied after it anyway), or holding a value other than the old
 * profile's default (set by --set or an earlier file).  See the file header.
 */
static void apply_profile(struct load *ld, enum scn_dcqcn_profile old)
{
	struct scenario *s = ld->s;
	size_t i;

	for (i = 0; i < N_OF(profile_knobs); i++) {
		const struct key_def *k = profile_knob(i);

		if (ld->line > 0 && ld->key_line[k - key_defs] > 0)
			continue;
		if (load_int(s, k) != profile_knobs[i].v[old])
			continue;
		store_int(s, k, profile_knobs[i].v[s->dcqcn_profile]);
	}
}

static struct load *load_new(struct scenario *s, const char *src,
			     struct scn_error *err)
{
	struct load *ld = calloc(1, sizeof(*ld));

	if (!ld) {
		struct place pl = { src, 0 };
		set_error(err, pl, "out of memory");
		return NULL;
	}
	ld->s = s;
	ld->err = err;
	ld->src = src;
	ld->sec = -1;
	ld->item = -1;
	if (err)
		err->msg[0] = '\0';
	return ld;
}

/* the folder of a scenario name, with its final '/', or "" */
static int set_dir(struct load *ld, const char *name)
{
	const char *slash = strrchr(name, '/');

	if (!slash) {
		ld->dir[0] = '\0';
		return 0;
	}
	return copy_range(ld->dir, sizeof(ld->dir), name, slash + 1);
}

static int valid_name(const char *name)
{
	size_t n = strlen(name), i;

	if (n < 1 || n >= SCN_NAME_LEN)
		return 0;
	for (i = 0; i < n; i++) {
		char c = name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      is_digit(c) || c == '-' || c == '_'))
			return 0;
	}
	return 1;
}

/*
 * Make `name` (a section name as written, trimmed) the current section.
 * label is how messages show it ("[name]" in a file, "name.key" for --set).
 * A new [job.NAME] or [fault.NAME] is created for a file's header (key NULL)
 * or for a --set of its selecting key (pattern, kind).
 */
static int enter_section(struct load *ld, const char *name, const char *label,
			 const char *key)
{
	const char *dot = strchr(name, '.');
	size_t len = dot ? (size_t)(dot - name) : strlen(name);
	int i, sec = -1;

	for (i = 0; i < SEC_COUNT; i++)
		if (strlen(section_defs[i].name) == len &&
		    strncmp(section_defs[i].name, name, len) == 0)
			sec = i;
	if (sec < 0 || (!section_defs[sec].named && dot))
		return fail(ld, "%s: unknown section (" SECTION_LIST ")", label);
	if (section_defs[sec].named && !dot)
		return fail(ld, "%s: needs a name: [%s.NAME]", label, name);
	if (dot && !valid_name(dot + 1))
		return fail(ld, "%s: name must be 1-%d letters, digits, '-' or '_'",
			    label, SCN_NAME_LEN - 1);

	ld->sec = sec;
	ld->item = -1;
	memcpy(ld->secname, name, strlen(name) + 1); /* <= 5 + 1 + 31 chars */

	if (section_defs[sec].named) {
		struct scenario *s = ld->s;
		const char *what = sec == SEC_FAULT ? "fault" : "job";
		int max = sec == SEC_FAULT ? SCN_MAX_FAULTS : SCN_MAX_JOBS;
		int j = item_index(s, sec, dot + 1);

		if (j < 0) {
			if (key && strcmp(key, section_defs[sec].selector) != 0)
				return fail(ld, "%s: no %s %s yet (give %s.%s first)", label,
					    what, dot + 1, name, section_defs[sec].selector);
			if (item_count(s, sec) >= (uint32_t)max)
				return fail(ld, "%s: too many %ss (at most %d)", label, what,
					    max);
			if (sec == SEC_FAULT) {
				j = (int)s->nfaults++;
				fault_init(&s->faults[j], dot + 1, ld->line);
			} else {
				j = (int)s->njobs++;
				job_init(&s->jobs[j], dot + 1, ld->line);
			}
		} else if (ld->line > 0) {
			if (*hdr_slot(ld, sec, j))
				return fail(ld, "%s: section given twice (first at line %d)",
					    label, *hdr_slot(ld, sec, j));
			if (sec == SEC_FAULT)
				s->faults[j].line = ld->line;
			else
				s->jobs[j].line = ld->line;
		}
		if (ld->line > 0)
			*hdr_slot(ld, sec, j) = ld->line;
		ld->item = j;
	} else if (!section_defs[sec].named && ld->line > 0) {
		if (ld->sec_line[sec])
			return fail(ld, "%s: section given twice (first at line %d)",
				    label, ld->sec_line[sec]);
		ld->sec_line[sec] = ld->line;
	}
	return 0;
}

/* ---- values ---- */

/* a value's number checked against the key's range (time, rate, ...) */
static int check_range(struct load *ld, const char *full, const struct key_def *k,
		       const char *value, int64_t v)
{
	if (v < k->min || v > k->max)
		return fail(ld, "%s: %s out of range (%s)", full, value, k->range);
	return 0;
}

/* the next comma-separated item of *pp, trimmed, into buf; 0 at the end */
static int next_item(const char **pp, char *buf, size_t len, int *too_long)
{
	const char *b = *pp, *e;

	if (*b == '\0')
		return 0;
	e = strchr(b, ',');
	*pp = e ? e + 1 : b + strlen(b);
	if (!e)
		e = b + strlen(b);
	trim_range(&b, &e);
	*too_long = copy_range(buf, len, b, e) != 0;
	return 1;
}

static int parse_dscp_map(struct load *ld, const char *full, const char *value,
			  uint8_t map[64])
{
	uint8_t seen[64] = { 0 };
	const char *p = value;
	char item[64], e[128];
	int d, too_long;

	for (d = 0; d < 64; d++)
		map[d] = (uint8_t)(d >> 3);
	if (*value == '\0')
		return 0; /* no overrides */
	while (next_item(&p, item, sizeof(item), &too_long)) {
		char *colon = too_long ? NULL : strchr(item, ':');
		int64_t dscp, prio;

		if (!colon)
			return fail(ld, "%s: %s: expected dscp:priority pairs, e.g. 26:3,48:6",
				    full, value);
		*colon = '\0';
		if (units_parse_int(item, 0, 63, &dscp, e, sizeof(e)))
			return fail(ld, "%s: dscp %s", full, e);
		if (units_parse_int(colon + 1, 0, SCN_PRIOS - 1, &prio, e, sizeof(e)))
			return fail(ld, "%s: priority %s", full, e);
		if (seen[dscp])
			return fail(ld, "%s: dscp %" PRId64 " given twice", full, dscp);
		seen[dscp] = 1;
		map[dscp] = (uint8_t)prio;
	}
	return 0;
}

static int parse_weights(struct load *ld, const char *full, const char *value,
			 uint32_t w[SCN_PRIOS])
{
	const char *p = value;
	char item[64], e[128];
	uint32_t tmp[SCN_PRIOS];
	int n = 0, too_long;

	while (next_item(&p, item, sizeof(item), &too_long)) {
		int64_t v;

		if (n == SCN_PRIOS)
			return fail(ld, "%s: more than %d weights (%s)", full, SCN_PRIOS,
				    "8 weights 1-1000, for priorities 0-7");
		if (too_long)
			return fail(ld, "%s: weight too long", full);
		if (units_parse_int(item, 1, 1000, &v, e, sizeof(e)))
			return fail(ld, "%s: weight %d: %s", full, n, e);
		tmp[n++] = (uint32_t)v;
	}
	if (n != SCN_PRIOS)
		return fail(ld, "%s: %d weights given (8 weights 1-1000, for priorities 0-7)",
			    full, n);
	memcpy(w, tmp, sizeof(tmp));
	return 0;
}

/* a trace path: relative to the scenario's folder, made absolute */
static int resolve_file(struct load *ld, const char *full, const char *value,
			char out[4096])
{
	char cwd[4096];
	const char *p;
	int n;

	if (*value == '\0')
		return fail(ld, "%s: empty (a trace CSV file)", full);
	for (p = value; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return fail(ld, "%s: control character in the path", full);
	if (value[0] == '/')
		n = snprintf(out, 4096, "%s", value);
	else if (ld->dir[0] == '/')
		n = snprintf(out, 4096, "%s%s", ld->dir, value);
	else {
		if (!getcwd(cwd, sizeof(cwd)))
			return fail(ld, "%s: cannot get the current directory (%s)", full,
				    strerror(errno));
		n = snprintf(out, 4096, "%s/%s%s", strcmp(cwd, "/") ? cwd : "",
			     ld->dir, value);
	}
	if (n < 0 || n >= 4096)
		return fail(ld, "%s: path too long (at most 4095 characters)", full);
	return 0;
}

/* pfc.priorities or ecn.queues: "3", "3,4", "" (off) into a bit mask */
static int parse_prios(struct load *ld, const char *full, const struct key_def *k,
		       const char *value, uint8_t *mask)
{
	int ecn = k->sec == SEC_ECN;
	const char *what = ecn ? "queue" : "priority";
	const char *p = value;
	char item[64], e[128];
	unsigned m = 0;

	if (*value == '\0') {
		*mask = 0;
		return 0;
	}
	for (;;) {
		const char *b = p, *end = strchr(p, ',');
		int last = end == NULL;
		int64_t v;

		if (last)
			end = p + strlen(p);
		p = last ? end : end + 1;
		trim_range(&b, &end);
		if (b == end || copy_range(item, sizeof(item), b, end))
			return fail(ld, "%s: %s is not a list of %s (0-7, e.g. 3 or 3,4; empty = %s off)",
				    full, value, ecn ? "queues" : "priorities",
				    ecn ? "ECN" : "PFC");
		if (units_parse_int(item, 0, SCN_PRIOS - 1, &v, e, sizeof(e)))
			return fail(ld, "%s: %s", full, e);
		if (m & (1u << v))
			return fail(ld, "%s: %s %" PRId64 " listed twice", full, what, v);
		m |= 1u << v;
		if (last)
			break;
	}
	*mask = (uint8_t)m;
	return 0;
}

/* node names (DESIGN A3): h3, leaf0, spine1, edge5, agg2, core0, sw0 */
enum node_tier { NT_HOST, NT_LEAF, NT_SPINE, NT_EDGE, NT_AGG, NT_CORE, NT_SW, NT_COUNT };

static const char *const node_prefix[NT_COUNT] = {
	"h", "leaf", "spine", "edge", "agg", "core", "sw"
};

#define NODE_EXAMPLES "e.g. h3, leaf0, spine1, edge0, agg2, core1, sw0"

/* [b, e) as a node name: a prefix and a canonical index (no leading 0) */
static int parse_node_name(const char *b, const char *e, int *tier, uint32_t *idx)
{
	const char *d = b;
	uint64_t v = 0;
	int t;

	while (d < e && ((*d >= 'a' && *d <= 'z') || (*d >= 'A' && *d <= 'Z')))
		d++;
	if (d == e || (e - d > 1 && *d == '0') || e - d > 10)
		return -1;
	for (t = 0; t < NT_COUNT; t++)
		if (strlen(node_prefix[t]) == (size_t)(d - b) &&
		    strncmp(node_prefix[t], b, (size_t)(d - b)) == 0)
			break;
	if (t == NT_COUNT)
		return -1;
	for (; d < e; d++) {
		if (!is_digit(*d))
			return -1;
		v = v * 10 + (uint64_t)(*d - '0');
	}
	if (v > UINT32_MAX)
		return -1;
	*tier = t;
	*idx = (uint32_t)v;
	return 0;
}

/* "A-B": the two node names, each checked for form only */
static int split_link(const char *text, int tier[2], uint32_t idx[2])
{
	const char *dash = strchr(text, '-');
	const char *b0 = text, *e0 = dash, *b1, *e1;

	if (!dash || strchr(dash + 1, '-'))
		return -1;
	b1 = dash + 1;
	e1 = text + strlen(text);
	trim_range(&b0, &e0);
	trim_range(&b1, &e1);
	return parse_node_name(b0, e0, &tier[0], &idx[0]) ||
	       parse_node_name(b1, e1, &tier[1], &idx[1]) ? -1 : 0;
}

/* Is value a bare number (no unit): digits, '.', a sign, white space? */
static int is_bare_number(const char *value)
{
	const char *p;

	for (p = value; *p; p++)
		if (!is_digit(*p) && *p != '.' && *p != '+' && *p != '-' && !is_blank(*p))
			return 0;
	return 1;
}

/* Is the number in front of value's unit zero ("0Mbps", "0.0 Gbps")? */
static int is_zero_number(const char *value)
{
	const char *p = value;
	int digits = 0;

	while (is_blank(*p))
		p++;
	if (*p == '+')
		p++;
	for (; is_digit(*p) || *p == '.'; p++) {
		if (is_digit(*p) && *p != '0')
			return 0;
		digits += is_digit(*p);
	}
	return digits > 0;
}

/*
 * A [dcqcn] knob (KT_FW_*): a bare number is in the firmware unit (us,
 * Mbps, 64-byte units) and must be a whole number of the base unit; a value
 * with a unit is parsed as it is.  The result is range-checked by the
 * caller.  Returns 0, or -1 with the reason (value as read) in e.
 */
static int parse_fw(const struct key_def *k, const char *value, int64_t *v, char *e,
		    size_t elen)
{
	char buf[80];
	int rc;

	if (*value == '\0') {
		snprintf(e, elen, "empty value");
		return -1;
	}
	if (!is_bare_number(value)) {
		switch (k->type) {
		case KT_FW_TIME:
			return units_parse_time(value, v, e, elen) ? -1 : 0;
		case KT_FW_RATE:
			rc = units_parse_rate(value, v, e, elen);
			/* units_parse_rate refuses 0, which some knobs allow: a
			 * valid unit (checked before the range) after a zero */
			if (rc == UNITS_ERANGE && !strchr(value, '-') && is_zero_number(value)) {
				*v = 0;
				return 0;
			}
			return rc ? -1 : 0;
		default:
			return units_parse_size(value, v, e, elen) ? -1 : 0;
		}
	}
	if (strlen(value) > 40) {
		snprintf(e, elen, "%.37s... has too many digits", value);
		return -1;
	}
	switch (k->type) {
	case KT_FW_TIME:
		snprintf(buf, sizeof(buf), "%sus", value);
		return units_parse_time(buf, v, e, elen) ? -1 : 0;
	case KT_FW_RATE:
		snprintf(buf, sizeof(buf), "%sMbps", value);
		rc = units_parse_rate(buf, v, e, elen);
		if (rc == UNITS_ERANGE && !strchr(value, '-') && is_zero_number(value)) {
			*v = 0;
			return 0;
		}
		return rc ? -1 : 0;
	default:
		/* n x 64 B is whole exactly when n KiB (n x 1024 B) is whole
		 * and a multiple of 16 */
		snprintf(buf, sizeof(buf), "%sKiB", value);
		rc = units_parse_size(buf, v, e, elen);
		if (rc == 0 && *v % 16 == 0) {
			*v /= 16;
			return 0;
		}
		if (rc == 0 || rc == UNITS_EINEXACT)
			snprintf(e, elen, "%s x 64 B is not a whole number of bytes", value);
		else if (strchr(value, '-'))
			snprintf(e, elen, "%s is negative (must be 0 or more)", value);
		else if (rc == UNITS_ERANGE)
			snprintf(e, elen, "%s is too large", value);
		else
			snprintf(e, elen, "%s is not a number", value);
		return -1;
	}
}

/* parse `value` for key k into base (struct scenario, scn_job or scn_fault) */
static int parse_value(struct load *ld, const char *full, const struct key_def *k,
		       void *base, const char *value)
{
	char e[256], names[128];
	int64_t v = 0;
	size_t i;
	int rc = 0;

	if ((k->flags & KF_ZERO) && strcmp(value, "0") == 0) {
		store_int(base, k, 0);
		return 0;
	}
	switch (k->type) {
	case KT_TODO:
		return fail(ld, "%s: not implemented yet", full);
	case KT_BOOL: {
		int b;
		if (units_parse_bool(value, &b, e, sizeof(e)))
			return fail(ld, "%s: %s", full, e);
		store_int(base, k, b);
		return 0;
	}
	case KT_PRIOS:
		return parse_prios(ld, full, k, value, (uint8_t *)((char *)base + k->off));
	case KT_FRACTION:
		rc = units_parse_fraction(value, &v, e, sizeof(e));
		break;
	case KT_PERCENT: {
		char pct[64];
		size_t n = strlen(value);
		if (n + 2 > sizeof(pct))
			return fail(ld, "%s: %s is not a percentage (%s)", full, value, k->range);
		snprintf(pct, sizeof(pct), "%s%s", value, n && value[n - 1] == '%' ? "" : "%");
		if (units_parse_fraction(pct, &v, e, sizeof(e)))
			return fail(ld, "%s: %s (%s)", full, e, k->range);
		break;
	}
	case KT_INT_NONE:
		if (strcmp(value, "none") == 0) {
			store_int(base, k, SCN_AUTO);
			return 0;
		}
		if (units_parse_int(value, k->min, k->max, &v, e, sizeof(e)))
			return fail(ld, "%s: %s (%s)", full, e, k->range);
		break;
	case KT_FW_TIME:
	case KT_FW_RATE:
	case KT_FW_BYTES:
		if (parse_fw(k, value, &v, e, sizeof(e)))
			return fail(ld, "%s: %s (%s)", full, e, k->range);
		if (v == 0 && (k->flags & KF_ZERO)) {
			store_int(base, k, 0);
			return 0;
		}
		break;
	case KT_SIZE_AUTO:
	case KT_TIME_AUTO:
		if (strcmp(value, "auto") == 0) {
			store_int(base, k, SCN_AUTO);
			return 0;
		}
		rc = k->type == KT_SIZE_AUTO ? units_parse_size(value, &v, e, sizeof(e))
					     : units_parse_time(value, &v, e, sizeof(e));
		if (rc)
			return fail(ld, "%s: %s (%s)", full, e, k->range);
		break;
	case KT_NODE: {
		int tier;
		uint32_t idx;
		if (parse_node_name(value, value + strlen(value), &tier, &idx))
			return fail(ld, "%s: %s is not a host name (h0, h1, ...)", full, value);
		if (tier != NT_HOST)
			return fail(ld, "%s: %s is a switch (pause-storm and slow-receiver are NIC faults: give a host, e.g. h3)",
				    full, value);
		if (idx > (uint32_t)k->max)
			return fail(ld, "%s: %s out of range (h0-h%" PRId64 ")", full, value,
				    k->max);
		store_int(base, k, (int64_t)idx);
		return 0;
	}
	case KT_LINK: {
		char *text = (char *)base + k->off;
		int tier[2];
		uint32_t idx[2];
		if (split_link(value, tier, idx))
			return fail(ld, "%s: %s is not a link (A-B of node names: " NODE_EXAMPLES
				    "; e.g. leaf0-spine1 or h3-leaf0)", full, value);
		if (strlen(value) >= sizeof(((struct scn_fault *)0)->link_text))
			return fail(ld, "%s: longer than %zu characters", full,
				    sizeof(((struct scn_fault *)0)->link_text) - 1);
		memcpy(text, value, strlen(value) + 1);
		return 0;
	}
	case KT_INT:
		if (units_parse_int(value, k->min, k->max, &v, e, sizeof(e)))
			return fail(ld, "%s: %s", full, e);
		if ((k->flags & KF_EVEN) && v % 2)
			return fail(ld, "%s: %s is odd (%s)", full, value, k->range);
		break;
	case KT_TIME:
		rc = units_parse_time(value, &v, e, sizeof(e));
		break;
	case KT_RATE:
		rc = units_parse_rate(value, &v, e, sizeof(e));
		break;
	case KT_LENGTH:
		rc = units_parse_length(value, &v, e, sizeof(e));
		break;
	case KT_SIZE:
		rc = units_parse_size(value, &v, e, sizeof(e));
		break;
	case KT_MTU:
		for (i = 0; is_digit(value[i]); i++)
			;
		if (i > 0 && value[i] == '\0') {
			if (units_parse_int(value, k->min, k->max, &v, e, sizeof(e)))
				return fail(ld, "%s: %s", full, e);
		} else {
			rc = units_parse_size(value, &v, e, sizeof(e));
		}
		break;
	case KT_ENUM:
		for (i = 0; k->names[i]; i++)
			if (strcmp(value, k->names[i]) == 0) {
				store_int(base, k, (int64_t)i);
				return 0;
			}
		join_names(k->names, " | ", names, sizeof(names));
		for (i = 0; k->later && k->later[i]; i++)
			if (strcmp(value, k->later[i]) == 0)
				return fail(ld, "%s: %s not implemented yet (only %s = %s in this version)",
					    full, value, k->name, names);
		join_names(k->names, ", ", names, sizeof(names));
		if (k->later) {
			size_t n = strlen(names);
			snprintf(names + n, sizeof(names) - n, "; later: ");
			n = strlen(names);
			join_names(k->later, ", ", names + n, sizeof(names) - n);
		}
		return fail(ld, "%s: %s is not valid (%s)", full, value, names);
	case KT_TC:
		if (units_parse_int(value, k->min, k->max, &v, e, sizeof(e)))
			return fail(ld, "%s: %s", full, e);
		v >>= 2; /* the TOS byte: DSCP in the upper six bits, ECN below */
		if (ld->line > 0) {
			int dl = ld->key_line[find_key(SEC_QOS, "data_dscp")];
			if (dl && ld->s->data_dscp != v)
				return fail(ld, "%s: %s is DSCP %" PRId64 ", but qos.data_dscp is %u (line %d)",
					    full, value, v, ld->s->data_dscp, dl);
		}
		store_int(base, k, v);
		return 0;
	case KT_DSCP_MAP:
		return parse_dscp_map(ld, full, value, (uint8_t *)((char *)base + k->off));
	case KT_WEIGHTS:
		return parse_weights(ld, full, value, (uint32_t *)((char *)base + k->off));
	case KT_HOSTSET: {
		struct scn_hostset *hs = (struct scn_hostset *)((char *)base + k->off);
		uint32_t n;

		if (*value == '\0')
			return fail(ld, "%s: empty (" HOSTSET_SYNTAX ")", full);
		if (strlen(value) >= sizeof(hs->text))
			return fail(ld, "%s: longer than %zu characters", full,
				    sizeof(hs->text) - 1);
		if (hostset_walk(value, 0, UINT32_MAX, NULL, &n, e, sizeof(e)))
			return fail(ld, "%s: %s", full, e);
		hostset_clear(hs);
		memcpy(hs->text, value, strlen(value) + 1);
		return 0;
	}
	case KT_FILE:
		return resolve_file(ld, full, value, (char *)base + k->off);
	}
	if (rc)
		return fail(ld, "%s: %s", full, e);
	if (k->type != KT_INT && check_range(ld, full, k, value, v))
		return -1;
	if (k->sec == SEC_QOS && strcmp(k->name, "data_dscp") == 0 && ld->line > 0) {
		int tl = ld->key_line[find_key(SEC_QOS, "nccl_ib_tc")];
		if (tl && ld->s->data_dscp != v)
			return fail(ld, "%s: %s, but qos.nccl_ib_tc (line %d) is DSCP %u",
				    full, value, tl, ld->s->data_dscp);
	}
	store_int(base, k, v);
	return 0;
}

/* `name = value` in the current section: the handler's and --set's work */
static int apply_key(struct load *ld, const char *name, const char *value)
{
	const struct section_def *sd = &section_defs[ld->sec];
	enum scn_dcqcn_profile old_profile;
	char full[128];
	int ki, *slot;
	void *base;

	snprintf(full, sizeof(full), "%s.%s", ld->secname, name);
	ki = find_key((enum sec_id)ld->sec, name);
	if (ki < 0)
		return fail(ld, "%s: unknown key", full);
	if (!sd->implemented || key_defs[ki].type == KT_TODO)
		return fail(ld, "%s: not implemented yet", full);

	slot = line_slot(ld, ld->sec, ld->item, ki);
	if (ld->line > 0 && *slot)
		return fail(ld, "%s: given twice (first at line %d)", full, *slot);
	base = ld->item >= 0 ? item_base(ld->s, ld->sec, ld->item) : (void *)ld->s;
	old_profile = ld->s->dcqcn_profile;
	if (parse_value(ld, full, &key_defs[ki], base, value))
		return -1;
	if (&key_defs[ki] == key_def_of(SEC_DCQCN, "profile"))
		apply_profile(ld, old_profile);
	*slot = ld->line > 0 ? ld->line : -1;
	return 0;
}

/* ---- reading INI text ---- */

/* turn a raw line into what inih gets; check [section] and syntax */
static int classify_line(struct load *ld, const char *line)
{
	const char *close, *b, *e, *p;
	char name[INI_MAX_LINE + 1], label[64];

	if (line[0] == '\0')
		return 0;
	if (line[0] == '[') {
		close = strchr(line, ']');
		if (!close)
			return fail(ld, "%s: missing ']'", line);
		if (close[1] != '\0')
			return fail(ld, "%s: unexpected text after ']'", line);
		b = line + 1;
		e = close;
		trim_range(&b, &e);
		if (copy_range(name, sizeof(name), b, e))
			return fail(ld, "line too long");
		snprintf(label, sizeof(label), strlen(name) > 40 ? "[%.37s...]" : "[%s]",
			 name);
		return enter_section(ld, name, label, NULL);
	}
	/* a key line: inih needs '=' or ':' (comments are already stripped) */
	for (p = line; *p && *p != '=' && *p != ':'; p++)
		;
	if (*p == '\0' || p == line)
		return fail(ld, "%s: expected key = value, [section] or a comment", line);
	return 0;
}

/* inih's fgets-style reader over ld->pos: see the file header */
static char *read_line(char *str, int num, void *stream)
{
	struct load *ld = stream;
	const char *b, *e, *next, *p;
	size_t n;

	if (ld->failed || *ld->pos == '\0')
		return NULL;
	b = ld->pos;
	next = strchr(b, '\n');
	next = next ? next + 1 : b + strlen(b);
	e = next;
	ld->pos = next;
	ld->line++;
	if (ld->line == 1 && (unsigned char)b[0] == 0xEF &&
	    (unsigned char)b[1] == 0xBB && (unsigned char)b[2] == 0xBF)
		b += 3; /* UTF-8 byte order mark */
	trim_range(&b, &e);
	if (b < e && (*b == '#' || *b == ';')) {
		e = b; /* a comment line */
	} else {
		for (p = b + 1; p < e; p++)
			if ((*p == '#' || *p == ';') && is_blank(p[-1])) {
				e = p;
				break;
			}
		trim_range(&b, &e);
	}
	n = (size_t)(e - b);
	if (num < 2 || n > (size_t)num - 1) {
		fail(ld, "line too long (at most %d characters)", num - 1);
		return NULL;
	}
	memcpy(str, b, n);
	str[n] = '\0';
	if (classify_line(ld, str))
		return NULL;
	return str;
}

static int on_key(void *user, const char *section, const char *name,
		       const char *value)
{
	struct load *ld = user;

	(void)section; /* the reader keeps the section, with its checks */
	if (ld->failed)
		return 1;
	if (ld->sec < 0)
		fail(ld, "%s: key before any [section]", name);
	else
		apply_key(ld, name, value);
	return 1; /* errors are kept in ld; the reader then stops the parse */
}

/* ---- checks that involve several keys ---- */

/* the place of key ki of item j of named section sec (or of the scenario, j < 0) */
static struct place key_place(const struct scenario *s, const struct load *ld,
			      int sec, int ki, int j)
{
	struct place pl = { "--set", 0 };

	if (ld && ki >= 0) {
		int line = line_at(ld, sec, j, ki);
		if (line > 0) {
			pl.src = ld->src;
			pl.line = line;
			return pl;
		}
	}
	if (ld && j >= 0 && hdr_at(ld, sec, j) > 0) {
		pl.src = ld->src;
		pl.line = hdr_at(ld, sec, j);
	} else if (j >= 0 && item_line(s, sec, j) > 0) {
		pl.src = s->source;
		pl.line = item_line(s, sec, j);
	}
	return pl;
}

/* total hosts within 2..SCN_MAX_HOSTS */
static int check_topology(const struct scenario *s, const struct load *ld,
			  struct scn_error *err)
{
	struct place pl = { "--set", 0 };
	const char *key = "hosts_per_leaf";
	uint64_t hosts;

	if (s->topo != SCN_TOPO_LEAF_SPINE)
		return 0; /* fat-tree (k <= 64) and star (<= 1024) always fit */
	hosts = (uint64_t)s->leaves * s->hosts_per_leaf;
	if (hosts >= 2 && hosts <= SCN_MAX_HOSTS)
		return 0;
	if (ld) {
		/* point at the later of the two keys in this file */
		int lv = ld->key_line[find_key(SEC_TOPOLOGY, "leaves")];
		int hp = ld->key_line[find_key(SEC_TOPOLOGY, "hosts_per_leaf")];

		pl.src = ld->src;
		pl.line = lv > hp ? lv : hp;
		if (lv > hp)
			key = "leaves";
	}
	return set_error(err, pl,
			 "topology.%s: %" PRIu32 " leaves x %" PRIu32
			 " hosts_per_leaf = %" PRIu64 " hosts, out of range (2-%d)",
			 key, s->leaves, s->hosts_per_leaf, hosts, SCN_MAX_HOSTS);
}

static int read_trace(struct scn_job *job, uint32_t nhosts, struct place jpl,
		      struct scn_error *err);

/* does the job's pattern use job.NAME.ranks? */
static int uses_ranks(enum scn_pattern p)
{
	return p == SCN_JOB_PERMUTATION || p == SCN_JOB_RING_ALLREDUCE || p == SCN_JOB_ALLTOALL;
}

/* "a permutation", "a ring-allreduce", "an alltoall" */
static const char *pattern_article(enum scn_pattern p)
{
	switch (p) {
	case SCN_JOB_TRACE:
		return "a trace";
	case SCN_JOB_INCAST:
		return "an incast";
	case SCN_JOB_PERMUTATION:
		return "a permutation";
	case SCN_JOB_RING_ALLREDUCE:
		return "a ring-allreduce";
	case SCN_JOB_ALLTOALL:
		return "an alltoall";
	}
	return "a job";
}

/*
 * The collective's size against its ranks (n of them), so that no flow is
 * empty: ring-allreduce cuts S into channels x n chunks, alltoall sends
 * floor(S / n) to each other rank.
 */
static int check_collective_size(const struct scenario *s, const struct load *ld, int j,
				 uint32_t n, struct scn_error *err)
{
	const struct scn_job *job = &s->jobs[j];
	struct place pl = key_place(s, ld, SEC_JOB, find_key(SEC_JOB, "size"), j);
	int64_t need;
	char a[40];

	units_format_size(job->size_bytes, a, sizeof(a));
	if (job->pattern == SCN_JOB_RING_ALLREDUCE) {
		need = (int64_t)n * job->channels;
		if (job->size_bytes < need)
			return set_error(err, pl,
					 "job.%s.size: %s is below ranks x channels (%" PRIu32
					 " x %" PRIu32 " = %" PRId64 " B)",
					 job->name, a, n, job->channels, need);
	} else if (job->pattern == SCN_JOB_ALLTOALL && job->size_bytes < (int64_t)n) {
		return set_error(err, pl,
				 "job.%s.size: %s is below ranks (%" PRIu32
				 " B: each rank sends floor(size / ranks) to every other rank)",
				 job->name, a, n);
	}
	return 0;
}

/*
 * The values of job j that depend on the topology: host indices, counts,
 * dst against senders, a trace file given, a collective's size against its
 * ranks.  With resolve, the host sets are expanded into their arrays and
 * the trace file is read.
 */
static int check_job(struct scenario *s, const struct load *ld, int j,
		     int resolve, struct scn_error *err)
{
	struct scn_job *job = &s->jobs[j];
	uint32_t nhosts = scenario_hosts(s), n = 0;
	char e[200];
	struct place pl;
	int ki;

	if (resolve) {
		/* what another pattern resolved (a --set may change the pattern) */
		if (!uses_ranks(job->pattern))
			hostset_clear(&job->ranks);
		if (job->pattern != SCN_JOB_INCAST)
			hostset_clear(&job->senders);
		if (job->pattern != SCN_JOB_TRACE) {
			free(job->rows);
			job->rows = NULL;
			job->nrows = 0;
		}
	}
	switch (job->pattern) {
	case SCN_JOB_TRACE:
		if (job->file[0] == '\0')
			return set_error(err, key_place(s, ld, SEC_JOB, -1, j),
					 "job.%s.file: missing (pattern = trace needs a CSV file)",
					 job->name);
		if (resolve)
			return read_trace(job, nhosts, key_place(s, ld, SEC_JOB, -1, j), err);
		return 0;
	case SCN_JOB_INCAST:
		ki = find_key(SEC_JOB, "dst");
		if (job->dst >= nhosts)
			return set_error(err, key_place(s, ld, SEC_JOB, ki, j),
					 "job.%s.dst: %" PRIu32 " out of range (0-%" PRIu32 ")",
					 job->name, job->dst, nhosts - 1);
		ki = find_key(SEC_JOB, "senders");
		pl = key_place(s, ld, SEC_JOB, ki, j);
		switch (hostset_walk(job->senders.text, nhosts, job->dst, NULL, &n, e,
				     sizeof(e))) {
		case 0:
			break;
		case HOSTSET_EXCLUDED:
			return set_error(err, pl,
					 "job.%s.senders: includes job.%s.dst (%" PRIu32 ")",
					 job->name, job->name, job->dst);
		default:
			return set_error(err, pl, "job.%s.senders: %s", job->name, e);
		}
		if (n == 0)
			return set_error(err, pl, "job.%s.senders: no sender (at least 1)",
					 job->name);
		if (resolve) {
			hostset_clear(&job->senders);
			job->senders.hosts = malloc((size_t)n * sizeof(uint32_t));
			if (!job->senders.hosts)
				return set_error(err, pl, "job.%s.senders: out of memory",
						 job->name);
			hostset_walk(job->senders.text, nhosts, job->dst,
				     job->senders.hosts, &job->senders.n, e, sizeof(e));
		}
		return 0;
	case SCN_JOB_PERMUTATION:
	case SCN_JOB_RING_ALLREDUCE:
	case SCN_JOB_ALLTOALL:
		ki = find_key(SEC_JOB, "ranks");
		pl = key_place(s, ld, SEC_JOB, ki, j);
		if (hostset_walk(job->ranks.text, nhosts, UINT32_MAX, NULL, &n, e,
				 sizeof(e)))
			return set_error(err, pl, "job.%s.ranks: %s", job->name, e);
		if (n < 2)
			return set_error(err, pl,
					 "job.%s.ranks: %" PRIu32 " host (%s needs at least 2)",
					 job->name, n, pattern_article(job->pattern));
		if (check_collective_size(s, ld, j, n, err))
			return -1;
		if (resolve) {
			hostset_clear(&job->ranks);
			job->ranks.hosts = malloc((size_t)n * sizeof(uint32_t));
			if (!job->ranks.hosts)
				return set_error(err, pl, "job.%s.ranks: out of memory",
						 job->name);
			hostset_walk(job->ranks.text, nhosts, UINT32_MAX,
				     job->ranks.hosts, &job->ranks.n, e, sizeof(e));
		}
		return 0;
	}
	return 0;
}

/* ---- the flows of all jobs together ---- */

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

/* a flow count; UINT64_MAX means it saturated */
static void count_text(uint64_t c, char *buf, size_t len)
{
	snprintf(buf, len, "%s%" PRIu64, c == UINT64_MAX ? "at least " : "", c);
}

/*
 * The flows job j generates over all its iterations (DESIGN B7),
 * saturating at UINT64_MAX; with how, the product as messages show it and
 * in *keys what to change.  A host set that does not resolve counts 0 (its
 * own check reports it), and a trace counts the rows read so far (none
 * before finalize).  Ring-allreduce counts every chunk with the slices of
 * the largest one, ceil(S / (channels x n)) bytes: an upper bound, exact
 * when channels x n divides S.
 */
static uint64_t job_flows(const struct scenario *s, const struct scn_job *job, char *how,
			  size_t hlen, const char **keys)
{
	uint32_t nhosts = scenario_hosts(s), n = 0;
	uint64_t it = job->iterations, steps, slices, count;
	int64_t chunk;
	char e[200], a[40], b[40];

	switch (job->pattern) {
	case SCN_JOB_TRACE:
		if (how) {
			snprintf(how, hlen, "iterations %" PRIu64 " x rows %" PRIu32, it,
				 job->nrows);
			*keys = "lower iterations or use fewer rows in file";
		}
		return sat_mul(it, job->nrows);
	case SCN_JOB_INCAST:
		if (hostset_walk(job->senders.text, nhosts, job->dst, NULL, &n, e, sizeof(e)))
			n = 0;
		if (how) {
			snprintf(how, hlen, "iterations %" PRIu64 " x senders %" PRIu32, it, n);
			*keys = "lower iterations or use fewer senders";
		}
		return sat_mul(it, n);
	case SCN_JOB_PERMUTATION:
	case SCN_JOB_RING_ALLREDUCE:
	case SCN_JOB_ALLTOALL:
		break;
	}
	if (hostset_walk(job->ranks.text, nhosts, UINT32_MAX, NULL, &n, e, sizeof(e)) || n < 2)
		return 0;
	if (job->pattern == SCN_JOB_PERMUTATION) {
		if (how) {
			snprintf(how, hlen, "iterations %" PRIu64 " x ranks %" PRIu32, it, n);
			*keys = "lower iterations or use fewer ranks";
		}
		return sat_mul(it, n);
	}
	if (job->pattern == SCN_JOB_ALLTOALL) {
		if (how) {
			snprintf(how, hlen,
				 "iterations %" PRIu64 " x ranks %" PRIu32 " x (ranks - 1) %" PRIu32,
				 it, n, n - 1);
			*keys = "lower iterations or use fewer ranks";
		}
		return sat_mul(sat_mul(it, n), n - 1);
	}
	/* ring-allreduce; channels x n <= 64 x 65536 */
	steps = 2 * ((uint64_t)n - 1);
	chunk = job->size_bytes / ((int64_t)job->channels * n) +
		(job->size_bytes % ((int64_t)job->channels * n) != 0);
	slices = (uint64_t)(chunk / job->slice_bytes + (chunk % job->slice_bytes != 0));
	count = sat_mul(sat_mul(sat_mul(sat_mul(it, job->channels), steps), n), slices);
	if (how) {
		units_format_size(chunk, a, sizeof(a));
		units_format_size(job->slice_bytes, b, sizeof(b));
		snprintf(how, hlen,
			 "iterations %" PRIu64 " x channels %" PRIu32 " x 2(ranks - 1) %" PRIu64
			 " x ranks %" PRIu32 " x ceil(chunk %s / slice %s) %" PRIu64,
			 it, job->channels, steps, n, a, b, slices);
		*keys = "lower iterations or channels, raise slice, or use fewer ranks";
	}
	return count;
}

/*
 * All jobs together generate at most MAX_FLOWS flows (the traffic model
 * builds every flow of every iteration at set-up).  The message names the
 * job with the most flows, at its iterations line (or its header).
 */
static int check_flows(const struct scenario *s, const struct load *ld,
		       struct scn_error *err)
{
	uint64_t total = 0, most = 0, c;
	uint32_t j, wj = 0;
	const char *keys = "";
	char how[300], tc[40], mc[40];

	for (j = 0; j < s->njobs; j++) {
		c = job_flows(s, &s->jobs[j], NULL, 0, NULL);
		total = sat_add(total, c);
		if (c > most) {
			most = c;
			wj = j;
		}
	}
	if (total <= MAX_FLOWS)
		return 0;
	job_flows(s, &s->jobs[wj], how, sizeof(how), &keys);
	count_text(most, mc, sizeof(mc));
	count_text(total, tc, sizeof(tc));
	return set_error(err, key_place(s, ld, SEC_JOB, find_key(SEC_JOB, "iterations"), (int)wj),
			 "job.%s.iterations: too many flows: job %s makes %s (%s), all jobs %s, at most %" PRIu64
			 " (%s)",
			 s->jobs[wj].name, s->jobs[wj].name, mc, how, tc, MAX_FLOWS, keys);
}

/* ---- faults against the topology and [pfc] ---- */

static const char *const topo_article_names[] = { "a leaf-spine", "a fat-tree", "a star" };

/* nodes of tier t in s's topology: 0 if the kind has no such tier */
static uint32_t tier_size(const struct scenario *s, int t)
{
	uint32_t half = s->k / 2;

	if (t == NT_HOST)
		return scenario_hosts(s);
	switch (s->topo) {
	case SCN_TOPO_LEAF_SPINE:
		return t == NT_LEAF ? s->leaves : t == NT_SPINE ? s->spines : 0;
	case SCN_TOPO_FAT_TREE:
		return t == NT_EDGE || t == NT_AGG ? s->k * half : t == NT_CORE ? half * half : 0;
	case SCN_TOPO_STAR:
		return t == NT_SW ? 1 : 0;
	}
	return 0;
}

/* switch number (topology.h) of switch idx of tier t */
static uint32_t switch_number(const struct scenario *s, int t, uint32_t idx)
{
	uint32_t pods = s->k * (s->k / 2);

	switch (t) {
	case NT_SPINE:
		return s->leaves + idx;
	case NT_AGG:
		return pods + idx;
	case NT_CORE:
		return 2 * pods + idx;
	default:
		return idx; /* leaf, edge, sw0 */
	}
}

/*
 * Are node (ta, a) and node (tb, b) directly cabled (topology.h wiring)?
 * If not, a hint of where they are cabled goes to why ("" if none).
 */
static int nodes_cabled(const struct scenario *s, int ta, uint32_t a, int tb,
			uint32_t b, char *why, size_t len)
{
	uint32_t half = s->k / 2;

	why[0] = '\0';
	if (ta > tb) {
		int t = ta;
		uint32_t x = a;
		ta = tb;
		tb = t;
		a = b;
		b = x;
	}
	if (ta == NT_HOST && tb == NT_LEAF) {
		if (b == a / s->hosts_per_leaf)
			return 1;
		snprintf(why, len, " (h%" PRIu32 " is cabled to leaf%" PRIu32 ")", a,
			 a / s->hosts_per_leaf);
		return 0;
	}
	if (ta == NT_HOST && tb == NT_EDGE) {
		if (b == a / half)
			return 1;
		snprintf(why, len, " (h%" PRIu32 " is cabled to edge%" PRIu32 ")", a, a / half);
		return 0;
	}
	if ((ta == NT_HOST && tb == NT_SW) || (ta == NT_LEAF && tb == NT_SPINE))
		return 1;
	if (ta == NT_EDGE && tb == NT_AGG) {
		if (a / half == b / half)
			return 1;
		snprintf(why, len, " (edge%" PRIu32 " is in pod %" PRIu32 ", agg%" PRIu32
			 " in pod %" PRIu32 ")", a, a / half, b, b / half);
		return 0;
	}
	if (ta == NT_AGG && tb == NT_CORE) {
		if (b / half == a % half)
			return 1;
		snprintf(why, len, " (agg%" PRIu32 " is cabled to core%" PRIu32 "-core%" PRIu32 ")",
			 a, (a % half) * half, (a % half) * half + half - 1);
		return 0;
	}
	return 0;
}

/* "h0-h31, leaf0-leaf3, spine0-spine1": the node names of the topology */
static void node_ranges(const struct scenario *s, char *buf, size_t len)
{
	size_t n = 0;
	int t, w;

	buf[0] = '\0';
	for (t = 0; t < NT_COUNT; t++) {
		uint32_t size = tier_size(s, t);
		if (!size)
			continue;
		if (size == 1)
			w = snprintf(buf + n, len - n, "%s%s0", n ? ", " : "", node_prefix[t]);
		else
			w = snprintf(buf + n, len - n, "%s%s0-%s%" PRIu32, n ? ", " : "",
				     node_prefix[t], node_prefix[t], size - 1);
		if (w < 0 || (size_t)w >= len - n)
			return;
		n += (size_t)w;
	}
}

/* fault.NAME.link against the topology: both ends, cabled to each other */
static int resolve_link(const struct scenario *s, const char *text, uint32_t node[2],
			uint8_t is_host[2], char *e, size_t elen)
{
	int tier[2], i;
	uint32_t idx[2];
	char names[2][24], why[96], ranges[160];

	if (split_link(text, tier, idx)) {
		snprintf(e, elen, "%s is not a link", text); /* checked when read */
		return -1;
	}
	for (i = 0; i < 2; i++) {
		uint32_t size = tier_size(s, tier[i]);

		snprintf(names[i], sizeof(names[i]), "%s%" PRIu32, node_prefix[tier[i]], idx[i]);
		if (!size) {
			node_ranges(s, ranges, sizeof(ranges));
			snprintf(e, elen, "%s is not a node of %s (%s)", names[i],
				 topo_article_names[s->topo], ranges);
			return -1;
		}
		if (idx[i] >= size) {
			if (size == 1)
				snprintf(e, elen, "%s out of range (only %s0)", names[i],
					 node_prefix[tier[i]]);
			else
				snprintf(e, elen, "%s out of range (%s0-%s%" PRIu32 ")", names[i],
					 node_prefix[tier[i]], node_prefix[tier[i]], size - 1);
			return -1;
		}
	}
	if (!nodes_cabled(s, tier[0], idx[0], tier[1], idx[1], why, sizeof(why))) {
		snprintf(e, elen, "%s and %s are not directly cabled%s", names[0], names[1], why);
		return -1;
	}
	for (i = 0; i < 2; i++) {
		is_host[i] = tier[i] == NT_HOST;
		node[i] = is_host[i] ? idx[i] : switch_number(s, tier[i], idx[i]);
	}
	return 0;
}

/* "3" or "3,4": the lossless priorities */
static void prios_text(uint8_t mask, char *buf, size_t len)
{
	size_t n = 0;
	int p, w;

	buf[0] = '\0';
	for (p = 0; p < SCN_PRIOS; p++) {
		if (!(mask & (1u << p)))
			continue;
		w = snprintf(buf + n, len - n, "%s%d", n ? "," : "", p);
		if (w < 0 || (size_t)w >= len - n)
			return;
		n += (size_t)w;
	}
}

/*
 * The values of fault f that depend on other sections: the keys its kind
 * needs, the host or link against the topology, PFC and the priority, the
 * rate against the host link.  With resolve, the link ends and the default
 * priority are stored.
 */
static int check_fault(struct scenario *s, const struct load *ld, int f,
		       int resolve, struct scn_error *err)
{
	struct scn_fault *ft = &s->faults[f];
	const char *kind = fault_kind_names[ft->kind];
	uint32_t nhosts = scenario_hosts(s);
	char e[300], a[40], b[40];
	uint32_t node[2];
	uint8_t is_host[2];
	int p;

#define FPLACE(key) key_place(s, ld, SEC_FAULT, find_key(SEC_FAULT, key), f)
#define FPLACE_HDR key_place(s, ld, SEC_FAULT, -1, f)
	switch (ft->kind) {
	case SCN_FAULT_PAUSE_STORM:
	case SCN_FAULT_SLOW_RECEIVER:
		if (ft->host == NO_HOST)
			return set_error(err, FPLACE_HDR,
					 "fault.%s.node: missing (%s needs a host, e.g. h3)",
					 ft->name, kind);
		if (ft->host >= nhosts)
			return set_error(err, FPLACE("node"),
					 "fault.%s.node: h%" PRIu32 " out of range (h0-h%" PRIu32 ")",
					 ft->name, ft->host, nhosts - 1);
		if (!s->pfc_prios)
			return set_error(err, FPLACE("kind"),
					 "fault.%s.kind: %s needs PFC on (pfc.priorities is empty)",
					 ft->name, kind);
		if (ft->kind == SCN_FAULT_PAUSE_STORM) {
			if (ft->priority == NO_PRIO) {
				for (p = 0; !(s->pfc_prios & (1u << p)); p++)
					;
				if (resolve)
					ft->priority = (uint8_t)p;
			} else if (!(s->pfc_prios & (1u << ft->priority))) {
				prios_text(s->pfc_prios, a, sizeof(a));
				return set_error(err, FPLACE("priority"),
						 "fault.%s.priority: %u is not a lossless priority (pfc.priorities = %s)",
						 ft->name, ft->priority, a);
			}
			return 0;
		}
		if (ft->rate_bps == 0)
			return set_error(err, FPLACE_HDR,
					 "fault.%s.rate: missing (slow-receiver needs a drain rate, e.g. 100Gbps)",
					 ft->name);
		if (ft->rate_bps >= s->host_link_bps)
			return set_error(err, FPLACE("rate"),
					 "fault.%s.rate: %s must be below topology.host_link (%s)",
					 ft->name, units_format_rate(ft->rate_bps, a, sizeof(a)),
					 units_format_rate(s->host_link_bps, b, sizeof(b)));
		return 0;
	case SCN_FAULT_LINK_DOWN:
		if (ft->link_text[0] == '\0')
			return set_error(err, FPLACE_HDR,
					 "fault.%s.link: missing (link-down needs a link, e.g. leaf0-spine1)",
					 ft->name);
		if (resolve_link(s, ft->link_text, node, is_host, e, sizeof(e)))
			return set_error(err, FPLACE("link"), "fault.%s.link: %s", ft->name, e);
		if (resolve) {
			memcpy(ft->end_node, node, sizeof(node));
			memcpy(ft->end_is_host, is_host, sizeof(is_host));
		}
		return 0;
	}
#undef FPLACE
#undef FPLACE_HDR
	return 0;
}

/* ---- the shared pool of every switch tier (DESIGN B2) ---- */

/* ports of one switch of a tier that lead to one kind of peer */
struct port_class {
	const char *peers;  /* "hosts", "spines", ... */
	uint32_t n;
	int host;           /* host_link and host_cable, else fabric */
};

struct sw_tier {
	const char *name;   /* "leaf" */
	const char *label;  /* "leaf switches" */
	uint32_t count;
	struct port_class pc[2];
	int npc;
};

static void tier_set(struct sw_tier *t, const char *name, const char *label,
		     uint32_t count)
{
	memset(t, 0, sizeof(*t));
	t->name = name;
	t->label = label;
	t->count = count;
}

static void tier_ports(struct sw_tier *t, const char *peers, uint32_t n, int host)
{
	t->pc[t->npc].peers = peers;
	t->pc[t->npc].n = n;
	t->pc[t->npc].host = host;
	t->npc++;
}

/* the switch tiers of s (topology.h wiring); returns how many */
static int switch_tiers(const struct scenario *s, struct sw_tier t[3])
{
	uint32_t half = s->k / 2;

	switch (s->topo) {
	case SCN_TOPO_LEAF_SPINE:
		tier_set(&t[0], "leaf", "leaf switches", s->leaves);
		tier_ports(&t[0], "hosts", s->hosts_per_leaf, 1);
		tier_ports(&t[0], "spines", s->spines, 0);
		tier_set(&t[1], "spine", "spine switches", s->spines);
		tier_ports(&t[1], "leaves", s->leaves, 0);
		return 2;
	case SCN_TOPO_FAT_TREE:
		tier_set(&t[0], "edge", "edge switches", s->k * half);
		tier_ports(&t[0], "hosts", half, 1);
		tier_ports(&t[0], "aggs", half, 0);
		tier_set(&t[1], "agg", "agg switches", s->k * half);
		tier_ports(&t[1], "edges", half, 0);
		tier_ports(&t[1], "cores", half, 0);
		tier_set(&t[2], "core", "core switches", half * half);
		tier_ports(&t[2], "aggs", s->k, 0);
		return 3;
	case SCN_TOPO_STAR:
		tier_set(&t[0], "sw0", "sw0", 1);
		tier_ports(&t[0], "hosts", s->star_hosts, 1);
		return 1;
	}
	return 0;
}

static uint32_t tier_host_ports(const struct sw_tier *t)
{
	uint32_t n = 0;
	int i;

	for (i = 0; i < t->npc; i++)
		n += t->pc[i].host ? t->pc[i].n : 0;
	return n;
}

static uint32_t tier_fabric_ports(const struct sw_tier *t)
{
	uint32_t n = 0;
	int i;

	for (i = 0; i < t->npc; i++)
		n += t->pc[i].host ? 0 : t->pc[i].n;
	return n;
}

static int lossless_count(const struct scenario *s)
{
	int p, n = 0;

	for (p = 0; p < SCN_PRIOS; p++)
		n += (s->pfc_prios >> p) & 1;
	return n;
}

/* "64MB - 10 ports x 8 PGs x 4158B reserved - 8 host ports x ... = 123B" */
static int64_t pool_text(const struct scenario *s, const struct sw_tier *t, char *buf,
			 size_t len)
{
	uint32_t hp = tier_host_ports(t), fp = tier_fabric_ports(t);
	int64_t pool = scenario_pool_bytes(s, hp, fp);
	int nl = lossless_count(s), w;
	size_t n = 0;
	char a[40];

#define APPEND(...)                                                   \
	do {                                                          \
		w = snprintf(buf + n, len - n, __VA_ARGS__);          \
		if (w < 0 || (size_t)w >= len - n)                    \
			return pool;                                  \
		n += (size_t)w;                                       \
	} while (0)
	buf[0] = '\0';
	APPEND("%s - %" PRIu32 " ports x %d PGs x %" PRId64 "B reserved",
	       units_format_size(s->buffer_bytes, a, sizeof(a)), hp + fp, MMU_PGS_PER_PORT,
	       reserved_of(s));
	if (nl && hp)
		APPEND(" - %" PRIu32 " host ports x %d lossless PG%s x %" PRId64 "B headroom", hp,
		       nl, nl == 1 ? "" : "s",
		       scenario_headroom_bytes(s, s->host_link_bps, s->host_cable_mm));
	if (nl && fp)
		APPEND(" - %" PRIu32 " fabric ports x %d lossless PG%s x %" PRId64 "B headroom",
		       fp, nl, nl == 1 ? "" : "s",
		       scenario_headroom_bytes(s, s->fabric_link_bps, s->fabric_cable_mm));
	APPEND(" = %" PRId64 "B", pool);
#undef APPEND
	return pool;
}

/*
 * Every switch tier must keep a positive shared pool.  With ld (end of a
 * file) the message points at buffer.size if the file gives it, else at the
 * latest key of the file that the pool depends on, else at the file; at
 * finalize it says "--set".
 */
static int check_pool(const struct scenario *s, const struct load *ld,
		      struct scn_error *err)
{
	static const struct {
		enum sec_id sec;
		const char *name;
	} inputs[] = {
		{ SEC_BUFFER, "size" },		  { SEC_BUFFER, "reserved" },
		{ SEC_PFC, "priorities" },	  { SEC_PFC, "headroom" },
		{ SEC_PFC, "response_time" },	  { SEC_TOPOLOGY, "kind" },
		{ SEC_TOPOLOGY, "spines" },	  { SEC_TOPOLOGY, "leaves" },
		{ SEC_TOPOLOGY, "hosts_per_leaf" }, { SEC_TOPOLOGY, "k" },
		{ SEC_TOPOLOGY, "hosts" },	  { SEC_TOPOLOGY, "host_link" },
		{ SEC_TOPOLOGY, "fabric_link" },  { SEC_TOPOLOGY, "host_cable" },
		{ SEC_TOPOLOGY, "fabric_cable" }, { SEC_TOPOLOGY, "mtu" },
	};
	struct sw_tier tiers[3];
	struct place pl = { "--set", 0 };
	char text[400], a[40];
	size_t i, best = 0;
	int nt = switch_tiers(s, tiers), t;

	for (t = 0; t < nt; t++) {
		if (pool_text(s, &tiers[t], text, sizeof(text)) > 0)
			continue;
		if (ld) {
			/* inputs[0] (buffer.size) if given, else the latest input */
			pl.src = ld->src;
			pl.line = ld->key_line[find_key(inputs[0].sec, inputs[0].name)];
			if (pl.line <= 0) {
				pl.line = 0;
				for (i = 1; i < N_OF(inputs); i++) {
					int line = ld->key_line[find_key(inputs[i].sec,
									 inputs[i].name)];
					if (line > pl.line) {
						pl.line = line;
						best = i;
					}
				}
			}
		}
		units_format_size(s->buffer_bytes, a, sizeof(a));
		if (best == 0)
			return set_error(err, pl, "buffer.size: %s leaves no shared pool on %s: %s",
					 a, tiers[t].label, text);
		return set_error(err, pl,
				 "%s.%s: buffer.size %s leaves no shared pool on %s: %s",
				 section_defs[inputs[best].sec].name, inputs[best].name, a,
				 tiers[t].label, text);
	}
	return 0;
}

/*
 * ecn.kmax above ecn.kmin while ECN is on (DESIGN A2's example message).
 * With ld (end of a file) the message names the later of the two keys the
 * file gives; at finalize it names kmax at "--set".
 */
static int check_ecn(const struct scenario *s, const struct load *ld,
		     struct scn_error *err)
{
	struct place pl = { "--set", 0 };
	char a[40], b[40];
	int lmin = 0, lmax = 0;

	if (!s->ecn_queues || s->ecn_kmax_bytes > s->ecn_kmin_bytes)
		return 0;
	units_format_size(s->ecn_kmin_bytes, a, sizeof(a));
	units_format_size(s->ecn_kmax_bytes, b, sizeof(b));
	if (ld) {
		lmin = ld->key_line[find_key(SEC_ECN, "kmin")];
		lmax = ld->key_line[find_key(SEC_ECN, "kmax")];
		pl.src = ld->src;
		pl.line = lmin > lmax ? lmin : lmax;
	}
	if (lmin > lmax)
		return set_error(err, pl, "ecn.kmin: %s must be below ecn.kmax (%s)", a, b);
	return set_error(err, pl, "ecn.kmax: %s must be above ecn.kmin (%s)", b, a);
}

/*
 * qos.cnp_dscp must differ from the data DSCP.  With ld the message names
 * the latest of qos.cnp_dscp, qos.data_dscp and qos.nccl_ib_tc that the
 * file gives; at finalize it names cnp_dscp at "--set".
 */
static int check_cnp(const struct scenario *s, const struct load *ld,
		     struct scn_error *err)
{
	static const char *const keys[] = { "cnp_dscp", "data_dscp", "nccl_ib_tc" };
	struct place pl = { "--set", 0 };
	size_t i, best = 0;

	if (s->cnp_dscp != s->data_dscp)
		return 0;
	if (ld) {
		pl.src = ld->src;
		for (i = 0; i < N_OF(keys); i++) {
			int line = ld->key_line[find_key(SEC_QOS, keys[i])];
			if (line > pl.line) {
				pl.line = line;
				best = i;
			}
		}
	}
	if (best == 0)
		return set_error(err, pl,
				 "qos.cnp_dscp: %u is also qos.data_dscp (CNPs need a DSCP of their own)",
				 s->cnp_dscp);
	return set_error(err, pl,
			 "qos.%s: DSCP %u is also qos.cnp_dscp (CNPs need a DSCP of their own)",
			 keys[best], s->data_dscp);
}

/*
 * End of a file: the keys it gives must apply to the kind, pattern, fault
 * kind and scheduler chosen, and to PFC and the watchdog being on; its jobs
 * and faults need a pattern or kind; the earliest offending line is
 * reported.  Then the host count, the host indices of its jobs, its faults
 * and the shared pool.
 */
static int check_file(struct load *ld)
{
	static const int named[] = { SEC_JOB, SEC_FAULT };
	struct scenario *s = ld->s;
	int best = INT_MAX, best_k = -1, best_j = -1, j, ki;
	const char *cur = "?";
	char want[128], names[128];
	struct place pl;
	size_t n;

	for (n = 0; n < N_OF(named); n++) {
		int sec = named[n], sel_k = find_key((enum sec_id)sec, section_defs[sec].selector);

		for (j = 0; j < (int)item_count(s, sec); j++) {
			int hdr = hdr_at(ld, sec, j);

			if (!hdr || line_at(ld, sec, j, sel_k) || hdr >= best)
				continue;
			best = hdr;
			best_k = sel_k;
			best_j = j;
		}
	}
	for (ki = 0; ki < N_KEYS; ki++) {
		const struct key_def *k = &key_defs[ki];
		int sec = (int)k->sec, sel_k;

		if (!k->dep)
			continue;
		if (!section_defs[sec].named) {
			if (ld->key_line[ki] > 0 && ld->key_line[ki] < best &&
			    !key_applies(k, s, NULL)) {
				best = ld->key_line[ki];
				best_k = ki;
				best_j = -1;
			}
			continue;
		}
		sel_k = find_key(k->sec, section_defs[sec].selector);
		for (j = 0; j < (int)item_count(s, sec); j++) {
			int line = line_at(ld, sec, j, ki);

			if (line > 0 && line < best && line_at(ld, sec, j, sel_k) &&
			    !key_applies(k, item_cbase(s, sec, j), NULL)) {
				best = line;
				best_k = ki;
				best_j = j;
			}
		}
	}
	if (best_k >= 0) {
		const struct key_def *k = &key_defs[best_k];
		const char *sname = section_defs[k->sec].name;

		pl.src = ld->src;
		pl.line = best;
		if (best_j >= 0 && strcmp(k->name, section_defs[k->sec].selector) == 0) {
			join_names(k->names, ", ", names, sizeof(names));
			return set_error(ld->err, pl, "%s.%s.%s: missing (%s)", sname,
					 item_name(s, (int)k->sec, best_j), k->name, names);
		}
		if (dep_is_switch(k))
			return set_error(ld->err, pl, "%s.%s: %s (%s)", sname, k->name,
					 switch_off_what(k), switch_off_why(k));
		key_applies(k, best_j >= 0 ? item_cbase(s, (int)k->sec, best_j) : (const void *)s,
			    &cur);
		applies_text(k, want, sizeof(want));
		if (best_j >= 0)
			return set_error(ld->err, pl, "%s.%s.%s: only for %s (%s is %s)", sname,
					 item_name(s, (int)k->sec, best_j), k->name, want,
					 k->dep, cur);
		return set_error(ld->err, pl, "%s.%s: only for %s (%s is %s)", sname, k->name,
				 want, k->dep, cur);
	}

	if (check_ecn(s, ld, ld->err) || check_cnp(s, ld, ld->err))
		return -1;
	if (check_topology(s, ld, ld->err))
		return -1;
	for (j = 0; j < (int)s->njobs; j++)
		if (hdr_at(ld, SEC_JOB, j) && check_job(s, ld, j, 0, ld->err))
			return -1;
	if (check_flows(s, ld, ld->err))
		return -1;
	for (j = 0; j < (int)s->nfaults; j++)
		if (hdr_at(ld, SEC_FAULT, j) && check_fault(s, ld, j, 0, ld->err))
			return -1;
	return check_pool(s, ld, ld->err);
}

int scenario_load_string(struct scenario *s, const char *name, const char *text,
			 struct scn_error *err)
{
	struct load *ld;
	int rc;

	if (!name)
		name = "<string>";
	ld = load_new(s, name, err);
	if (!ld)
		return -1;
	if (set_dir(ld, name) || strlen(name) >= sizeof(s->source)) {
		fail(ld, "file name too long");
		free(ld);
		return -1;
	}
	memcpy(s->source, name, strlen(name) + 1);
	ld->src = s->source;
	ld->pos = text ? text : "";
	rc = ini_parse_stream(read_line, ld, on_key, ld);
	if (!ld->failed && rc != 0) {
		/* inih found what the reader let through: should not happen */
		ld->line = rc > 0 ? rc : ld->line;
		fail(ld, "syntax error");
	}
	if (!ld->failed && check_file(ld))
		ld->failed = 1;
	rc = ld->failed ? -1 : 0;
	free(ld);
	return rc;
}

int scenario_load_file(struct scenario *s, const char *path,
		       struct scn_error *err)
{
	struct place pl = { path, 0 };
	FILE *f = fopen(path, "rb");
	char *buf = NULL, *nul;
	size_t len = 0, cap = 0, got;
	int rc;

	if (!f)
		return set_error(err, pl, "cannot open (%s)", strerror(errno));
	for (;;) {
		if (cap - len < 4096) {
			char *nb;
			cap = cap ? cap * 2 : 16384;
			if (cap > (size_t)MAX_FILE_BYTES + 4096) {
				free(buf);
				fclose(f);
				return set_error(err, pl, "larger than %ld bytes",
						 MAX_FILE_BYTES);
			}
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return set_error(err, pl, "out of memory");
			}
			buf = nb;
		}
		got = fread(buf + len, 1, cap - len - 1, f);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return set_error(err, pl, "read error");
	}
	fclose(f);
	buf[len] = '\0';
	nul = memchr(buf, '\0', len);
	if (nul) {
		const char *p;
		pl.line = 1;
		for (p = buf; p < nul; p++)
			pl.line += *p == '\n';
		free(buf);
		return set_error(err, pl, "NUL byte in the file (not a text file)");
	}
	rc = scenario_load_string(s, path, buf, err);
	free(buf);
	return rc;
}

int scenario_set(struct scenario *s, const char *assignment, struct scn_error *err)
{
	struct load *ld = load_new(s, "--set", err);
	const char *eq, *kb, *ke, *vb, *ve;
	char *key = NULL, *value = NULL, *dot;
	uint32_t njobs = s->njobs, nfaults = s->nfaults;
	int rc = -1;

	if (!ld)
		return -1;
	if (!assignment)
		assignment = "";
	eq = strchr(assignment, '=');
	kb = assignment;
	ke = eq ? eq : assignment + strlen(assignment);
	trim_range(&kb, &ke);
	vb = eq ? eq + 1 : ke;
	ve = vb + strlen(vb);
	trim_range(&vb, &ve);
	key = malloc((size_t)(ke - kb) + 1);
	value = malloc((size_t)(ve - vb) + 1);
	if (!key || !value) {
		fail(ld, "out of memory");
		goto out;
	}
	copy_range(key, (size_t)(ke - kb) + 1, kb, ke);
	copy_range(value, (size_t)(ve - vb) + 1, vb, ve);
	dot = strrchr(key, '.');
	if (!eq || !dot || dot == key || dot[1] == '\0') {
		fail(ld, "%s: expected section.key=value", key);
		goto out;
	}
	if (strlen(key) > 100) {
		fail(ld, "%.40s...: key too long", key);
		goto out;
	}
	*dot = '\0';
	{
		char label[128];
		const struct key_def *k;
		const char *cur = "?";
		char want[128], dep[80];

		snprintf(label, sizeof(label), "%s.%s", key, dot + 1);
		if (enter_section(ld, key, label, dot + 1) || apply_key(ld, dot + 1, value))
			goto out;
		k = &key_defs[find_key((enum sec_id)ld->sec, dot + 1)];
		if (!key_applies(k, ld->item >= 0 ? item_cbase(s, ld->sec, ld->item) : (void *)s,
				 &cur)) {
			dep_label(k, ld->secname, dep, sizeof(dep));
			if (dep_is_switch(k)) {
				fail(ld, "%s: %s (%s; set %s first)", label, switch_off_what(k),
				     switch_off_why(k), dep);
				goto out;
			}
			applies_text(k, want, sizeof(want));
			fail(ld, "%s: only for %s (%s is %s; set %s first)", label, want,
			     k->dep, cur, dep);
			goto out;
		}
	}
	rc = 0;
out:
	if (rc && s->njobs > njobs)
		s->njobs = njobs; /* a job this --set created: it has no allocation */
	if (rc && s->nfaults > nfaults)
		s->nfaults = nfaults;
	free(key);
	free(value);
	free(ld);
	return rc;
}

int scenario_finalize(struct scenario *s, struct scn_error *err)
{
	uint32_t j;

	if (err)
		err->msg[0] = '\0';
	/* defaults that follow the final mtu (SCN_AUTO until now) */
	if (s->reserved_bytes == SCN_AUTO)
		s->reserved_bytes = data_frames(s, 1);
	if (s->xon_offset_bytes == SCN_AUTO)
		s->xon_offset_bytes = data_frames(s, 2);
	if (check_ecn(s, NULL, err) || check_cnp(s, NULL, err))
		return -1;
	if (check_topology(s, NULL, err))
		return -1;
	for (j = 0; j < s->njobs; j++)
		if (check_job(s, NULL, (int)j, 1, err))
			return -1;
	if (check_flows(s, NULL, err))
		return -1;
	for (j = 0; j < s->nfaults; j++)
		if (check_fault(s, NULL, (int)j, 1, err))
			return -1;
	return check_pool(s, NULL, err);
}

/* ---- trace CSV files ---- */

enum trace_col { COL_SRC, COL_DST, COL_BYTES, COL_START, COL_DSCP, COL_AFTER, N_COLS };

static const char *const col_names[N_COLS + 1] = {
	"src", "dst", "bytes", "start_us", "dscp", "after", NULL
};

#define FIELD_MAX 64 /* longest field text kept; longer values are errors */

struct trace_read {
	const char *path;
	uint32_t nhosts;
	struct scn_error *err;
	int failed;
	int line, row_line;  /* current line; line where the row's first field ended */
	int have_header;
	uint32_t ncols;      /* fields in the header */
	int col_of[N_COLS];  /* header field of each column, -1 absent */
	uint32_t nfield;     /* fields of the current row so far */
	char field[N_COLS + 1][FIELD_MAX + 1]; /* one more, to name an extra column */
	int field_long[N_COLS + 1];
	struct scn_trace_row *rows;
	uint32_t nrows, cap;
};

SCN_PRINTF(3, 4)
static void trace_fail(struct trace_read *tr, int line, const char *fmt, ...)
{
	struct place pl = { tr->path, line };
	va_list ap;

	if (tr->failed)
		return;
	tr->failed = 1;
	va_start(ap, fmt);
	vset_error(tr->err, pl, fmt, ap);
	va_end(ap);
}

static void trace_field(void *text, size_t len, void *data)
{
	struct trace_read *tr = data;
	uint32_t i = tr->nfield++;

	if (tr->failed)
		return;
	if (i == 0)
		tr->row_line = tr->line;
	if (text && memchr(text, '\0', len)) {
		trace_fail(tr, tr->line, "field %" PRIu32 ": NUL byte", i + 1);
		return;
	}
	if (i > N_COLS)
		return; /* counted; the row is rejected when it ends */
	tr->field_long[i] = len > FIELD_MAX;
	len = len > FIELD_MAX ? FIELD_MAX : len;
	if (len)
		memcpy(tr->field[i], text, len);
	tr->field[i][len] = '\0';
}

static void trace_header(struct trace_read *tr)
{
	uint32_t i;
	int c;

	for (c = 0; c < N_COLS; c++)
		tr->col_of[c] = -1;
	for (i = 0; i < tr->nfield; i++) {
		/* the first N_COLS + 1 names are kept: a bad one is among them */
		const char *name = tr->field[i];

		for (c = 0; c < N_COLS; c++)
			if (strcmp(name, col_names[c]) == 0)
				break;
		if (c == N_COLS) {
			if (name[0] == '\0')
				trace_fail(tr, tr->row_line,
					   "column %" PRIu32 ": empty column name", i + 1);
			else
				trace_fail(tr, tr->row_line,
					   "%s%s: unknown column (src, dst, bytes, start_us, dscp, after)",
					   name, tr->field_long[i] ? "..." : "");
			return;
		}
		if (tr->col_of[c] >= 0) {
			trace_fail(tr, tr->row_line, "%s: duplicate column", name);
			return;
		}
		tr->col_of[c] = (int)i;
	}
	for (c = 0; c <= COL_START; c++)
		if (tr->col_of[c] < 0) {
			trace_fail(tr, tr->row_line,
				   "%s: missing column (the header needs src, dst, bytes, start_us)",
				   col_names[c]);
			return;
		}
	tr->ncols = tr->nfield;
	tr->have_header = 1;
}

/* start_us: decimal microseconds, exact to the picosecond */
static int parse_start_us(const char *text, sim_time_ps *ps, char *e, size_t elen)
{
	char buf[FIELD_MAX + 3];
	const char *p;
	int dots = 0;

	for (p = text; *p; p++) {
		if (*p == '.')
			dots++;
		else if (!is_digit(*p))
			break;
	}
	if (*text == '\0' || *p || dots > 1) {
		snprintf(e, elen, "%s is not a number of microseconds (e.g. 12.5)", text);
		return -1;
	}
	snprintf(buf, sizeof(buf), "%sus", text);
	if (units_parse_time(buf, ps, e, elen))
		return -1;
	if (*ps > MAX_TIME_PS) {
		snprintf(e, elen, "%s out of range (0-1000000000, i.e. at most 1000 s)", text);
		return -1;
	}
	return 0;
}

static void trace_row(struct trace_read *tr)
{
	struct scn_trace_row row;
	const char *f[N_COLS];
	char e[200];
	int64_t v;
	int c;

	if (tr->nfield != tr->ncols) {
		trace_fail(tr, tr->row_line,
			   "row: %" PRIu32 " fields, the header has %" PRIu32,
			   tr->nfield, tr->ncols);
		return;
	}
	if (tr->nrows >= MAX_TRACE_ROWS) {
		trace_fail(tr, tr->row_line, "row: more than %" PRIu32 " rows",
			   MAX_TRACE_ROWS);
		return;
	}
	for (c = 0; c < N_COLS; c++) {
		f[c] = tr->col_of[c] >= 0 ? tr->field[tr->col_of[c]] : "";
		if (tr->col_of[c] >= 0 && tr->field_long[tr->col_of[c]]) {
			trace_fail(tr, tr->row_line, "%s: value too long", col_names[c]);
			return;
		}
	}

	if (units_parse_int(f[COL_SRC], 0, (int64_t)tr->nhosts - 1, &v, e, sizeof(e))) {
		trace_fail(tr, tr->row_line, "src: %s", e);
		return;
	}
	row.src = (uint32_t)v;
	if (units_parse_int(f[COL_DST], 0, (int64_t)tr->nhosts - 1, &v, e, sizeof(e))) {
		trace_fail(tr, tr->row_line, "dst: %s", e);
		return;
	}
	row.dst = (uint32_t)v;
	if (row.dst == row.src) {
		trace_fail(tr, tr->row_line, "dst: %" PRIu32 " is also src (a flow needs two hosts)",
			   row.dst);
		return;
	}
	if (units_parse_int(f[COL_BYTES], 1, MAX_BYTES, &row.bytes, e, sizeof(e))) {
		trace_fail(tr, tr->row_line, "bytes: %s", e);
		return;
	}
	if (parse_start_us(f[COL_START], &row.start_ps, e, sizeof(e))) {
		trace_fail(tr, tr->row_line, "start_us: %s", e);
		return;
	}
	row.dscp = -1;
	if (f[COL_DSCP][0]) {
		if (units_parse_int(f[COL_DSCP], 0, 63, &v, e, sizeof(e))) {
			trace_fail(tr, tr->row_line, "dscp: %s", e);
			return;
		}
		row.dscp = (int32_t)v;
	}
	row.after = -1;
	if (f[COL_AFTER][0]) {
		if (units_parse_int(f[COL_AFTER], 0, INT32_MAX, &v, e, sizeof(e))) {
			trace_fail(tr, tr->row_line, "after: %s", e);
			return;
		}
		if (v >= (int64_t)tr->nrows) {
			if (tr->nrows == 0)
				trace_fail(tr, tr->row_line,
					   "after: %" PRId64 " is not an earlier row (this is flow 0, the first)",
					   v);
			else
				trace_fail(tr, tr->row_line,
					   "after: %" PRId64 " is not an earlier row (0-%" PRIu32
					   "; this is flow %" PRIu32 ")",
					   v, tr->nrows - 1, tr->nrows);
			return;
		}
		row.after = (int32_t)v;
	}

	if (tr->nrows == tr->cap) {
		uint32_t cap = tr->cap ? (tr->cap > MAX_TRACE_ROWS / 2 ? MAX_TRACE_ROWS
									: tr->cap * 2)
				       : 64;
		struct scn_trace_row *nr = realloc(tr->rows, (size_t)cap * sizeof(*nr));

		if (!nr) {
			trace_fail(tr, tr->row_line, "row: out of memory");
			return;
		}
		tr->rows = nr;
		tr->cap = cap;
	}
	tr->rows[tr->nrows++] = row;
}

static void trace_row_end(int c, void *data)
{
	struct trace_read *tr = data;

	(void)c;
	if (!tr->failed) {
		if (!tr->have_header)
			trace_header(tr);
		else
			trace_row(tr);
	}
	tr->nfield = 0;
}

/* read job->file into job->rows; errors are "FILE:LINE: column: ..." */
static int read_trace(struct scn_job *job, uint32_t nhosts, struct place jpl,
		      struct scn_error *err)
{
	struct trace_read tr;
	struct csv_parser p;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f;

	memset(&tr, 0, sizeof(tr));
	tr.path = job->file;
	tr.nhosts = nhosts;
	tr.err = err;
	f = fopen(job->file, "rb");
	if (!f)
		return set_error(err, jpl, "job.%s.file: cannot open %s (%s)", job->name,
				 job->file, strerror(errno));
	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL)) {
		fclose(f);
		return set_error(err, jpl, "job.%s.file: out of memory", job->name);
	}
	/* one line at a time, so that the callbacks know the line number */
	while (!tr.failed && (n = getline(&line, &cap, f)) > 0) {
		tr.line++;
		if (csv_parse(&p, line, (size_t)n, trace_field, trace_row_end, &tr) !=
		    (size_t)n)
			trace_fail(&tr, tr.line, "csv: %s", csv_strerror(csv_error(&p)));
	}
	if (!tr.failed && ferror(f))
		trace_fail(&tr, tr.line, "csv: read error");
	if (!tr.failed && csv_fini(&p, trace_field, trace_row_end, &tr))
		trace_fail(&tr, tr.line, "csv: %s", csv_strerror(csv_error(&p)));
	csv_free(&p);
	free(line);
	fclose(f);
	if (!tr.failed && !tr.have_header)
		trace_fail(&tr, tr.line > 0 ? tr.line : 1,
			   "header: empty file (expected src,dst,bytes,start_us)");
	if (!tr.failed && tr.nrows == 0)
		trace_fail(&tr, tr.line, "row: no flows after the header");
	if (tr.failed) {
		free(tr.rows);
		return -1;
	}
	free(job->rows);
	job->rows = tr.rows;
	job->nrows = tr.nrows;
	return 0;
}

/* ---- printing ---- */

/* the value of key k in base, as it loads back */
static void format_value(const struct key_def *k, const void *base, char *buf,
			 size_t len)
{
	const char *p = (const char *)base + k->off;
	int64_t v;
	size_t n = 0;
	int i;

	buf[0] = '\0';
	if ((k->flags & KF_ZERO) && load_int(base, k) == 0) {
		snprintf(buf, len, "0");
		return;
	}
	switch (k->type) {
	case KT_BOOL:
		if (k->flags & KF_NUM01)
			snprintf(buf, len, "%d", load_int(base, k) ? 1 : 0);
		else
			snprintf(buf, len, "%s", load_int(base, k) ? "true" : "false");
		break;
	case KT_FRACTION:
	case KT_PERCENT:
		units_format_fraction(load_int(base, k), buf, len);
		break;
	case KT_INT_NONE:
		v = load_int(base, k);
		if (v == SCN_AUTO)
			snprintf(buf, len, "none");
		else
			snprintf(buf, len, "%" PRId64, v);
		break;
	case KT_FW_TIME: /* a whole number of firmware units bare, else with a unit */
		v = load_int(base, k);
		if (v % UNITS_PS_PER_US == 0)
			snprintf(buf, len, "%" PRId64, v / UNITS_PS_PER_US);
		else
			units_format_time(v, buf, len);
		break;
	case KT_FW_RATE:
		v = load_int(base, k);
		if (v % MBPS == 0)
			snprintf(buf, len, "%" PRId64, v / MBPS);
		else
			units_format_rate(v, buf, len);
		break;
	case KT_FW_BYTES:
		v = load_int(base, k);
		if (v % FW_BYTE_UNIT == 0)
			snprintf(buf, len, "%" PRId64, v / FW_BYTE_UNIT);
		else
			units_format_size(v, buf, len);
		break;
	case KT_PRIOS:
		prios_text((uint8_t)load_int(base, k), buf, len);
		break;
	case KT_SIZE_AUTO:
	case KT_TIME_AUTO:
		v = load_int(base, k);
		if (v == SCN_AUTO)
			snprintf(buf, len, "auto");
		else if (k->type == KT_SIZE_AUTO)
			units_format_size(v, buf, len);
		else
			units_format_time(v, buf, len);
		break;
	case KT_NODE: {
		uint32_t h;
		memcpy(&h, p, sizeof(h));
		snprintf(buf, len, "h%" PRIu32, h);
		break;
	}
	case KT_LINK:
		snprintf(buf, len, "%s", p);
		break;
	case KT_INT:
	case KT_MTU:
	case KT_TC:
		snprintf(buf, len, "%" PRId64, load_int(base, k));
		break;
	case KT_TIME:
		units_format_time(load_int(base, k), buf, len);
		break;
	case KT_RATE:
		units_format_rate(load_int(base, k), buf, len);
		break;
	case KT_LENGTH:
		units_format_length(load_int(base, k), buf, len);
		break;
	case KT_SIZE:
		v = (k->flags & (KF_FRAME1 | KF_FRAME2))
			    ? frames_value(k, (const struct scenario *)base)
			    : load_int(base, k);
		units_format_size(v, buf, len);
		break;
	case KT_ENUM:
		v = load_int(base, k);
		snprintf(buf, len, "%s",
			 v >= 0 && (size_t)v < count_names(k->names) ? k->names[v] : "?");
		break;
	case KT_DSCP_MAP:
		for (i = 0; i < 64; i++) {
			uint8_t prio = (uint8_t)p[i];
			int w;
			if (prio == (uint8_t)(i >> 3))
				continue;
			w = snprintf(buf + n, len - n, "%s%d:%u", n ? "," : "", i, prio);
			if (w < 0 || (size_t)w >= len - n)
				break;
			n += (size_t)w;
		}
		break;
	case KT_WEIGHTS: {
		uint32_t w[SCN_PRIOS];
		memcpy(w, p, sizeof(w));
		snprintf(buf, len, "%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32
			 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRIu32,
			 w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]);
		break;
	}
	case KT_HOSTSET:
		snprintf(buf, len, "%s", ((const struct scn_hostset *)(const void *)p)->text);
		break;
	case KT_FILE:
		snprintf(buf, len, "%s", p);
		break;
	case KT_TODO:
		break;
	}
}

/* a fault key whose "not given" value cannot be printed to load back */
static int fault_key_unset(const struct key_def *k, const void *base)
{
	const struct scn_fault *f = base;

	switch (k->type) {
	case KT_NODE:
		return f->host == NO_HOST;
	case KT_LINK:
		return f->link_text[0] == '\0';
	case KT_RATE:
		return f->rate_bps == 0;
	case KT_INT:
		return f->priority == NO_PRIO;
	default:
		return 0;
	}
}

static void print_section(const struct scenario *s, FILE *out, enum sec_id sec,
			  const void *base)
{
	char buf[4200];
	size_t i;

	for (i = 0; i < N_KEYS; i++) {
		const struct key_def *k = &key_defs[i];

		if (k->sec != sec || k->type == KT_TODO || (k->flags & KF_NOPRINT) ||
		    !key_applies(k, base, NULL))
			continue;
		if (sec == SEC_JOB && strcmp(k->name, "dscp") == 0 &&
		    ((const struct scn_job *)base)->dscp < 0) {
			fprintf(out, "# dscp: qos.data_dscp (%u)\n", s->data_dscp);
			continue;
		}
		if (sec == SEC_FAULT && fault_key_unset(k, base)) {
			fprintf(out, "# %s: %s\n", k->name,
				strcmp(k->name, "priority") == 0
					? "the lowest lossless priority (resolved at finalize)"
					: "missing");
			continue;
		}
		format_value(k, base, buf, sizeof(buf));
		fprintf(out, "%s =%s%s\n", k->name, buf[0] ? " " : "", buf);
	}
}

void scenario_print(const struct scenario *s, FILE *out)
{
	char src[sizeof(s->source)];
	int sec;
	size_t i;
	uint32_t j;
	const char *sep = "";

	memcpy(src, s->source, sizeof(src));
	src[sizeof(src) - 1] = '\0';
	one_line(src);
	fprintf(out, "# dcqcn-sim scenario, resolved from %s, seed %" PRIu64 "\n", src,
		s->seed);
	/* what this version does not implement (nothing, today: the lines
	 * come back when the contract grows ahead of the code) */
	for (sec = 0; sec < SEC_COUNT; sec++)
		if (!section_defs[sec].implemented) {
			fprintf(out, "%s [%s%s]", *sep ? "" : "# not implemented in this version:",
				section_defs[sec].name, section_defs[sec].named ? ".*" : "");
			sep = " ";
		}
	if (*sep)
		fprintf(out, "\n");
	sep = "";
	for (i = 0; i < N_KEYS; i++)
		if (key_defs[i].type == KT_TODO && section_defs[key_defs[i].sec].implemented) {
			fprintf(out, "%s %s%s.%s", *sep ? sep : "# nor the keys",
				section_defs[key_defs[i].sec].name,
				section_defs[key_defs[i].sec].named ? ".*" : "",
				key_defs[i].name);
			sep = ",";
		}
	for (i = 0; i < N_KEYS; i++)
		if (key_defs[i].later) {
			char names[128];

			join_names(key_defs[i].later, " | ", names, sizeof(names));
			fprintf(out, "%snor %s%s.%s = %s", *sep ? "; " : "# ",
				section_defs[key_defs[i].sec].name,
				section_defs[key_defs[i].sec].named ? ".*" : "", key_defs[i].name,
				names);
			sep = ";";
		}
	if (*sep)
		fprintf(out, "\n");

	for (sec = 0; sec < SEC_COUNT; sec++) {
		if (!section_defs[sec].implemented || section_defs[sec].named)
			continue;
		if (sec == SEC_DCQCN && s->cc != SCN_CC_DCQCN) {
			/* every [dcqcn] key needs nic.cc = dcqcn */
			fprintf(out, "\n# [dcqcn] omitted: nic.cc = %s\n",
				s->cc == SCN_CC_NONE ? "none" : "?");
			continue;
		}
		fprintf(out, "\n[%s]\n", section_defs[sec].name);
		print_section(s, out, (enum sec_id)sec, s);
	}
	for (j = 0; j < s->njobs; j++) {
		fprintf(out, "\n[job.%s]\n", s->jobs[j].name);
		print_section(s, out, SEC_JOB, &s->jobs[j]);
	}
	for (j = 0; j < s->nfaults; j++) {
		fprintf(out, "\n[fault.%s]\n", s->faults[j].name);
		print_section(s, out, SEC_FAULT, &s->faults[j]);
	}
}

/* floor(a * b / c) for a, b, c >= 0 and a * b / c < 2^63, c <= 10^12 */
static int64_t mul_div(int64_t a, int64_t b, int64_t c, int64_t *rem)
{
	/* a = ah * c + al: ah * b must fit; al * b < c * b fits for our ranges */
	int64_t ah = a / c, al = a % c;
	int64_t q = ah * b, r = al * b;

	q += r / c;
	if (rem)
		*rem = r % c;
	return q;
}

static int64_t gcd64(int64_t a, int64_t b)
{
	while (b) {
		int64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* time to serialize `bytes` on the wire at `bps`: floor in ps, remainder */
static sim_time_ps serialization_ps(int64_t bytes, int64_t bps, int64_t *rem)
{
	return mul_div(bytes * 8, UNITS_PS_PER_S, bps, rem);
}

/* one-way latency of a frame over a path: store and forward on each link */
static sim_time_ps path_ps(const struct scenario *s, int64_t wire_bytes,
			   int host_links, int fabric_links, int switches, int *inexact)
{
	int64_t r1 = 0, r2 = 0;
	sim_time_ps t;

	t = host_links * serialization_ps(wire_bytes, s->host_link_bps, &r1) +
	    fabric_links * serialization_ps(wire_bytes, s->fabric_link_bps, &r2);
	if ((host_links && r1) || (fabric_links && r2))
		*inexact = 1;
	t += host_links * s->host_cable_mm * PS_PER_MM +
	     fabric_links * s->fabric_cable_mm * PS_PER_MM;
	t += switches * s->switch_latency_ps;
	return t;
}

/* ps as microseconds, exact: "83.8848us" */
static char *format_us_exact(sim_time_ps ps, char *buf, size_t len)
{
	char frac[16];
	size_t n;

	snprintf(frac, sizeof(frac), "%06" PRId64, ps % UNITS_PS_PER_US);
	n = strlen(frac);
	while (n > 0 && frac[n - 1] == '0')
		frac[--n] = '\0';
	snprintf(buf, len, "%" PRId64 "%s%sus", ps / UNITS_PS_PER_US, n ? "." : "", frac);
	return buf;
}

/* one class of ports: rate, cable, response time and headroom with its terms */
static void print_port_class(const struct scenario *s, FILE *out, const char *what,
			     int host)
{
	int64_t rate = host ? s->host_link_bps : s->fabric_link_bps;
	int64_t cable = host ? s->host_cable_mm : s->fabric_cable_mm;
	uint32_t q = pfc_response_quanta(rate);
	struct pfc_headroom t;
	char a[40], b[40], c[40];

	t = headroom_terms(s, rate, cable);
	fprintf(out, "# %s (%s, %s): response ", what, units_format_rate(rate, a, sizeof(a)),
		units_format_length(cable, b, sizeof(b)));
	if (s->response_ps == SCN_AUTO)
		fprintf(out, "%" PRIu32 " quanta = %s", q,
			units_format_time(pfc_quanta_ps(q, rate), c, sizeof(c)));
	else
		fprintf(out, "%s (pfc.response_time)", units_format_time(s->response_ps, c, sizeof(c)));
	if (s->headroom_bytes != SCN_AUTO) {
		fprintf(out, "; headroom %" PRId64 "B (pfc.headroom, given; auto would be %" PRId64
			"B)\n", s->headroom_bytes, t.total);
		return;
	}
	fprintf(out, "; headroom %" PRId64 "B = 2 x %" PRId64 "B frames + %" PRId64
		"B cable round trip + %" PRId64 "B response + %" PRId64 "B frame in flight\n",
		t.total, t.wire, t.cable, t.response, t.wire);
}

/* PFC and buffer values of `check` (DESIGN A1): per port class and switch tier */
static void print_pfc_derived(const struct scenario *s, FILE *out)
{
	static const char *const nic_peers[] = { "leaves", "edges", "sw0" };
	struct sw_tier tiers[3];
	int nt = switch_tiers(s, tiers), i, c;
	char what[64], a[40], b[40], text[400];

	fprintf(out, "# buffer: lossless alpha 2^%d = %s%" PRId64 ", lossy alpha 2^%d = %s%" PRId64,
		s->dynamic_th, s->dynamic_th < 0 ? "1/" : "",
		INT64_C(1) << (s->dynamic_th < 0 ? -s->dynamic_th : s->dynamic_th),
		s->lossy_dynamic_th, s->lossy_dynamic_th < 0 ? "1/" : "",
		INT64_C(1) << (s->lossy_dynamic_th < 0 ? -s->lossy_dynamic_th : s->lossy_dynamic_th));
	if (s->cell_bytes)
		fprintf(out, ", accounting in %" PRId64 "B cells (a %" PRId64 "B data frame is charged %"
			PRId64 "B)\n",
			s->cell_bytes, data_frames(s, 1), mmu_charge(s->cell_bytes, data_frames(s, 1)));
	else
		fprintf(out, ", byte exact accounting\n");
	if (!s->pfc_prios) {
		fprintf(out, "# PFC off (pfc.priorities is empty): no headroom, no pause frames\n");
	} else {
		prios_text(s->pfc_prios, a, sizeof(a));
		fprintf(out, "# PFC on priorities %s: per lossless PG of each port\n", a);
		for (i = 0; i < nt; i++)
			for (c = 0; c < tiers[i].npc; c++) {
				snprintf(what, sizeof(what), "%s ports to %s", tiers[i].name,
					 tiers[i].pc[c].peers);
				print_port_class(s, out, what, tiers[i].pc[c].host);
			}
		snprintf(what, sizeof(what), "NIC ports to %s", nic_peers[s->topo]);
		print_port_class(s, out, what, 1);
		fprintf(out, "# pause time of pause_quanta %" PRIu32 ": %s at %s (host_link)",
			s->pause_quanta,
			format_us_exact(pfc_quanta_ps(s->pause_quanta, s->host_link_bps), a,
					sizeof(a)),
			units_format_rate(s->host_link_bps, b, sizeof(b)));
		if (s->topo != SCN_TOPO_STAR)
			fprintf(out, ", %s at %s (fabric_link)",
				format_us_exact(pfc_quanta_ps(s->pause_quanta, s->fabric_link_bps),
						a, sizeof(a)),
				units_format_rate(s->fabric_link_bps, b, sizeof(b)));
		fprintf(out, "\n");
	}
	for (i = 0; i < nt; i++) {
		int64_t pool = pool_text(s, &tiers[i], text, sizeof(text));

		if (tiers[i].count == 1)
			fprintf(out, "# shared pool of %s: %s", tiers[i].name, text);
		else
			fprintf(out, "# shared pool of each of the %" PRIu32 " %s: %s",
				tiers[i].count, tiers[i].label, text);
		if (pool > 0 && s->buffer_bytes > 0)
			fprintf(out, " (%" PRId64 ".%" PRId64 "%% of buffer.size)",
				pool * 1000 / s->buffer_bytes / 10, pool * 1000 / s->buffer_bytes % 10);
		fprintf(out, "\n");
	}
}

/* num / den rounded to 2 decimals: "36.07"; num >= 0, den > 0, num * 100 fits */
static char *format_centi(int64_t num, int64_t den, char *buf, size_t len)
{
	int64_t c = (num * 100 + den / 2) / den;

	snprintf(buf, len, "%" PRId64 ".%02" PRId64, c / 100, c % 100);
	return buf;
}

/* time to send `bytes` at rate_bps in us, 2 decimals: "41.94" */
static char *format_send_us(int64_t bytes, int64_t rate_bps, char *buf, size_t len)
{
	sim_time_ps ps = units_mul_div_ceil(bytes * 8, UNITS_PS_PER_S, rate_bps);

	return format_centi(ps, UNITS_PS_PER_US, buf, len);
}

/* WRED/ECN (DESIGN B5): thresholds in data frames and as time at host_link */
static void print_ecn_derived(const struct scenario *s, FILE *out)
{
	int64_t frame = data_frames(s, 1);
	char q[40], a[40], b[40], c[40], d[40], e[40], f[40];

	if (!s->ecn_queues) {
		fprintf(out, "# ECN off (ecn.queues is empty): no marking, no CNPs\n");
		return;
	}
	prios_text(s->ecn_queues, q, sizeof(q));
	fprintf(out, "# ECN on queues %s: WRED kmin %s, kmax %s, pmax %s, marked on %s\n", q,
		units_format_size(s->ecn_kmin_bytes, a, sizeof(a)),
		units_format_size(s->ecn_kmax_bytes, b, sizeof(b)),
		units_format_fraction(s->ecn_pmax_ppb, c, sizeof(c)),
		mark_point_names[s->ecn_mark_point == SCN_MARK_ENQUEUE]);
	fprintf(out, "# ECN thresholds: kmin %s, kmax %s data frames of %" PRId64
		" B; kmin %s us, kmax %s us of sending at host_link %s\n",
		format_centi(s->ecn_kmin_bytes, frame, a, sizeof(a)),
		format_centi(s->ecn_kmax_bytes, frame, b, sizeof(b)), frame,
		format_send_us(s->ecn_kmin_bytes, s->host_link_bps, d, sizeof(d)),
		format_send_us(s->ecn_kmax_bytes, s->host_link_bps, e, sizeof(e)),
		units_format_rate(s->host_link_bps, f, sizeof(f)));
}

/* DCQCN (DESIGN B6): byte counter interval, alpha half-life, steps, cut */
static void print_dcqcn_derived(const struct scenario *s, FILE *out)
{
	const struct scn_dcqcn *d = &s->dcqcn;
	uint32_t gnum = 1024 - (d->dce_tcp_g > 1023 ? 1023 : d->dce_tcp_g);
	char a[40], b[40], c[40];

	if (s->cc != SCN_CC_DCQCN) {
		fprintf(out, "# congestion control off (nic.cc = none): no CNPs, senders at line rate\n");
		return;
	}
	fprintf(out, "# DCQCN profile %s; CNPs at DSCP %u (priority %u%s), at most one per %s"
		" per %s (min_time_between_cnps)\n",
		profile_names[s->dcqcn_profile <= SCN_DCQCN_HPCC ? s->dcqcn_profile : 0],
		s->cnp_dscp, s->dscp_to_prio[s->cnp_dscp & 63],
		s->cnp_priority_strict ? ", strict" : "",
		units_format_time(d->min_time_between_cnps_ps, a, sizeof(a)),
		d->cnp_scope == SCN_CNP_SCOPE_PORT ? "port" : "QP");
	units_format_rate(s->host_link_bps, c, sizeof(c));
	if (d->rpg_byte_reset_bytes > 0)
		fprintf(out, "# DCQCN byte counter: every %" PRId64 " B = %s us at host_link %s;"
			" increase timer every %s\n",
			d->rpg_byte_reset_bytes,
			format_send_us(d->rpg_byte_reset_bytes, s->host_link_bps, a, sizeof(a)), c,
			units_format_time(d->rpg_time_reset_ps, b, sizeof(b)));
	else
		fprintf(out, "# DCQCN byte counter off; increase timer every %s\n",
			units_format_time(d->rpg_time_reset_ps, b, sizeof(b)));
	units_format_time(d->dce_tcp_rtt_ps, a, sizeof(a));
	if (gnum == 1024) {
		fprintf(out, "# DCQCN alpha: g = 1 (dce_tcp_g 0): alpha drops to 0 after one %s period"
			" without a CNP\n", a);
	} else {
		double g = gnum / 1024.0, periods = log(2.0) / -log1p(-g);

		fprintf(out, "# DCQCN alpha: g = %" PRIu32 "/1024 per dce_tcp_rtt %s, initial %" PRIu32
			"/1024; half-life without CNPs ln 2 / -ln(1 - g) = %.2f periods = %.2f us\n",
			gnum, a, d->initial_alpha_value, periods,
			periods * (double)d->dce_tcp_rtt_ps / (double)UNITS_PS_PER_US);
	}
	fprintf(out, "# DCQCN increase steps: AI %s, HAI %s (%.3g%% and %.3g%% of host_link %s),"
		" fast recovery while max(T, B) < rpg_threshold %" PRIu32 "\n",
		units_format_rate(d->rpg_ai_rate_bps, a, sizeof(a)),
		units_format_rate(d->rpg_hai_rate_bps, b, sizeof(b)),
		100.0 * (double)d->rpg_ai_rate_bps / (double)s->host_link_bps,
		100.0 * (double)d->rpg_hai_rate_bps / (double)s->host_link_bps, c,
		d->rpg_threshold);
	fprintf(out, "# DCQCN cut: Rc x alpha / %" PRId64 " (rpg_gd %" PRIu32 ")", INT64_C(1)
		<< (d->rpg_gd >= 10 && d->rpg_gd <= 20 ? d->rpg_gd - 10 : 0), d->rpg_gd);
	if (d->rpg_min_dec_fac_pct)
		fprintf(out, ", at most %" PRIu32 "%% of Rc (rpg_min_dec_fac %" PRIu32 ")",
			100 - d->rpg_min_dec_fac_pct, d->rpg_min_dec_fac_pct);
	fprintf(out, ", not below %s; ", units_format_rate(d->rpg_min_rate_bps, a, sizeof(a)));
	if (d->rate_reduce_monitor_period_ps)
		fprintf(out, "at most one cut per %s\n",
			units_format_time(d->rate_reduce_monitor_period_ps, a, sizeof(a)));
	else
		fprintf(out, "a cut on every CNP\n");
}

void scenario_print_derived(const struct scenario *s, FILE *out)
{
	uint64_t hosts = scenario_hosts(s), host_links = hosts, fabric_links = 0;
	int64_t frame = (int64_t)s->mtu_bytes + FRAME_HEADER_BYTES;
	int64_t wire = frame + WIRE_EXTRA_BYTES, small = SMALL_FRAME_BYTES + WIRE_EXTRA_BYTES;
	int64_t rem, goodput, centi, bits, bdp, rh, rl, x, y;
	int hl = 2, fl = 0, sw = 1, inexact = 0;
	sim_time_ps ser, one_way, rtt;
	char a[40], b[40], c[40];

	switch (s->topo) {
	case SCN_TOPO_LEAF_SPINE:
		fabric_links = (uint64_t)s->leaves * s->spines;
		if (s->leaves > 1) {
			fl = 2;
			sw = 3;
		}
		break;
	case SCN_TOPO_FAT_TREE:
		fabric_links = 2 * hosts; /* edge-agg and agg-core: k^3/4 each */
		fl = 4;
		sw = 5;
		break;
	case SCN_TOPO_STAR:
		break;
	}
	fprintf(out, "# derived values\n");
	fprintf(out, "# hosts %" PRIu64 ", switches %" PRIu32 ", links %" PRIu64
		" (%" PRIu64 " host, %" PRIu64 " fabric)\n",
		hosts, scenario_switches(s), host_links + fabric_links, host_links,
		fabric_links);
	if (s->topo == SCN_TOPO_LEAF_SPINE) {
		int64_t down = (int64_t)s->hosts_per_leaf * s->host_link_bps;
		int64_t up = (int64_t)s->spines * s->fabric_link_bps;
		fprintf(out, "# leaf oversubscription: %" PRIu32 " x %s down : %" PRIu32
			" x %s up = %.2f:1\n",
			s->hosts_per_leaf, units_format_rate(s->host_link_bps, a, sizeof(a)),
			s->spines, units_format_rate(s->fabric_link_bps, b, sizeof(b)),
			(double)down / (double)up);
	}
	fprintf(out, "# data frame: %" PRId64 " B (mtu + %d B RoCEv2 headers), %" PRId64
		" B on the wire (+ %d B preamble and inter-frame gap)\n",
		frame, FRAME_HEADER_BYTES, wire, WIRE_EXTRA_BYTES);
	ser = serialization_ps(wire, s->host_link_bps, &rem);
	fprintf(out, "# frame serialization at host_link %s: %s",
		units_format_rate(s->host_link_bps, a, sizeof(a)),
		units_format_time(ser, b, sizeof(b)));
	if (rem) {
		int64_t g = gcd64(rem, s->host_link_bps);
		fprintf(out, " + %" PRId64 "/%" PRId64 " ps (not a whole ps)", rem / g,
			s->host_link_bps / g);
	}
	fprintf(out, "\n");
	goodput = mul_div(s->host_link_bps, (int64_t)s->mtu_bytes, wire, NULL);
	centi = (goodput + 5000000) / 10000000;    /* Gbps, 2 decimals, rounded */
	x = (goodput + 40000000) / 80000000;       /* GB/s, 2 decimals, rounded */
	fprintf(out, "# goodput ceiling at host_link (x mtu / (mtu + %d)): %" PRId64
		".%02" PRId64 " Gbps = %" PRId64 ".%02" PRId64 " GB/s\n",
		FRAME_HEADER_BYTES + WIRE_EXTRA_BYTES, centi / 100, centi % 100, x / 100,
		x % 100);
	one_way = path_ps(s, wire, hl, fl, sw, &inexact);
	rtt = one_way + path_ps(s, small, hl, fl, sw, &inexact);
	fprintf(out, "# longest host-to-host path: %d hops (%d host links, %d fabric links, %d switch%s)\n",
		hl + fl, hl, fl, sw, sw == 1 ? "" : "es");
	fprintf(out, "# one-way latency of a full frame on it: %s (serialization per link, %d ns/m of cable, switch_latency per switch%s)\n",
		units_format_time(one_way, a, sizeof(a)), PS_PER_MM,
		inexact ? "; serialization rounded down to whole ps" : "");
	/* bits = host_link * rtt / 1e12 without overflow: host_link = rh * 1e6 + rl */
	rh = s->host_link_bps / 1000000;
	rl = s->host_link_bps % 1000000;
	x = rh * rtt;
	y = rl * rtt;
	bits = x / 1000000 + ((x % 1000000) * 1000000 + y) / UNITS_PS_PER_S;
	bdp = bits / 8;
	fprintf(out, "# round trip (full frame out, %d B frame back): %s; bandwidth-delay product at host_link: %" PRId64 " B (%s)\n",
		SMALL_FRAME_BYTES, units_format_time(rtt, b, sizeof(b)), bdp,
		units_format_size(bdp, c, sizeof(c)));
	print_pfc_derived(s, out);
	print_ecn_derived(s, out);
	print_dcqcn_derived(s, out);
}
