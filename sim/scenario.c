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
 *   file is an error (like a key given twice); [fault.NAME] sections, which
 *   can hold no key in this version, are exempt.
 *
 * When each rule is checked
 *   - reading a key: syntax, unit and range of that one value; a key given
 *     twice in one file; qos.nccl_ib_tc against qos.data_dscp in one file.
 *   - end of a file: keys that do not apply to the topology.kind,
 *     job.NAME.pattern or qos.scheduler chosen (the earliest such line is
 *     reported), a job without pattern or (trace) file, the host count, and
 *     host indices against the file's topology.  These carry the key's line.
 *   - scenario_set(): the value, and whether the key applies to the kind,
 *     pattern or scheduler in force at that moment, so a --set that selects
 *     must come first (`--set topology.kind=fat-tree --set topology.k=8`).
 *     A --set that changes kind, pattern or scheduler leaves the keys of the
 *     old choice unused rather than contradictory: that is how a sweep
 *     varies them.  The --set values of qos.data_dscp and qos.nccl_ib_tc
 *     override each other (the last wins).  A job first named by --set must
 *     get its pattern first (`--set job.x.pattern=incast`).
 *   - scenario_finalize(): the host count and every host index again (a
 *     --set may have shrunk the topology), and the trace files.  struct
 *     scenario keeps no per-key line, so these messages point at the job's
 *     [job.NAME] line ("--set" for a job created by --set); a host count
 *     that only fails here was caused by --set and says "--set".
 *   After an error the scenario may be partly updated: report and free it.
 *   One file per scenario is the intended use; a second load applies on top
 *   of the first, and finalize's job messages then name the last file.
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
 *   - scenario_print() omits job.NAME.dscp when it is -1 (qos.data_dscp) and
 *     writes a comment instead, since -1 is not a valid value to load.
 *   - topology.fabric_link, fabric_cable and ecmp apply to every kind (a
 *     star has no fabric link; they are then unused).
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

#include <csv.h>
#include <errno.h>
#include <ini.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	int any_key;     /* [dcqcn]: any key name is a knob, known by name */
};

static const struct section_def section_defs[SEC_COUNT] = {
	[SEC_SIM] = { "sim", 0, 1, 0 },
	[SEC_TOPOLOGY] = { "topology", 0, 1, 0 },
	[SEC_QOS] = { "qos", 0, 1, 0 },
	[SEC_NIC] = { "nic", 0, 1, 0 },
	[SEC_JOB] = { "job", 1, 1, 0 },
	[SEC_BUFFER] = { "buffer", 0, 0, 0 },
	[SEC_PFC] = { "pfc", 0, 0, 0 },
	[SEC_PFCWD] = { "pfcwd", 0, 0, 0 },
	[SEC_ECN] = { "ecn", 0, 0, 0 },
	[SEC_DCQCN] = { "dcqcn", 0, 0, 1 },
	[SEC_FAULT] = { "fault", 1, 0, 0 },
	[SEC_OUTPUT] = { "output", 0, 0, 0 },
	[SEC_CRITERIA] = { "criteria", 0, 0, 0 },
};

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
};

#define KF_EVEN 1u    /* integer must be even (topology.k) */
#define KF_NOPRINT 2u /* an alias, not printed (qos.nccl_ib_tc) */

struct key_def {
	enum sec_id sec;
	const char *name;
	enum key_type type;
	size_t off, size;      /* field in struct scenario, or struct scn_job for SEC_JOB */
	int64_t min, max;      /* valid range in the base unit */
	const char *range;     /* the range as messages show it */
	const char *const *names; /* KT_ENUM: value names, by enum value */
	const char *const *later; /* KT_ENUM: values known but not implemented */
	const char *dep;       /* selecting key of the same section, or NULL */
	unsigned mask;         /* values of dep (bit per enum value) where it applies */
	unsigned flags;
};

#define SF(f) offsetof(struct scenario, f), sizeof(((struct scenario *)0)->f)
#define JF(f) offsetof(struct scn_job, f), sizeof(((struct scn_job *)0)->f)
#define NOF 0, 0
#define TODO(sec, name) \
	{ sec, name, KT_TODO, NOF, 0, 0, NULL, NULL, NULL, NULL, 0, 0 }

static const char *const topo_names[] = { "leaf-spine", "fat-tree", "star", NULL };
static const char *const ecmp_names[] = { "flow", "packet", NULL };
static const char *const sched_names[] = { "strict", "dwrr", NULL };
static const char *const cc_names[] = { "none", NULL };
static const char *const cc_later[] = { "dcqcn", NULL };
static const char *const pattern_names[] = { "trace", "incast", "permutation", NULL };
static const char *const pattern_later[] = { "ring-allreduce", "alltoall", NULL };

_Static_assert(SCN_TOPO_LEAF_SPINE == 0 && SCN_TOPO_FAT_TREE == 1 && SCN_TOPO_STAR == 2,
	       "topo_names[] follows enum scn_topo_kind");
_Static_assert(SCN_ECMP_FLOW == 0 && SCN_ECMP_PACKET == 1, "ecmp_names[] order");
_Static_assert(SCN_SCHED_STRICT == 0 && SCN_SCHED_DWRR == 1, "sched_names[] order");
_Static_assert(SCN_CC_NONE == 0, "cc_names[] order");
_Static_assert(SCN_JOB_TRACE == 0 && SCN_JOB_INCAST == 1 && SCN_JOB_PERMUTATION == 2,
	       "pattern_names[] order");
_Static_assert(sizeof(enum scn_topo_kind) == sizeof(int32_t) &&
		       sizeof(enum scn_pattern) == sizeof(int32_t),
	       "enum fields are stored as 32-bit integers");

#define LS (1u << SCN_TOPO_LEAF_SPINE)
#define FT (1u << SCN_TOPO_FAT_TREE)
#define STAR (1u << SCN_TOPO_STAR)
#define P_TRACE (1u << SCN_JOB_TRACE)
#define P_INCAST (1u << SCN_JOB_INCAST)
#define P_PERM (1u << SCN_JOB_PERMUTATION)

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
	TODO(SEC_QOS, "cnp_dscp"),
	{ SEC_QOS, "dscp_to_priority", KT_DSCP_MAP, SF(dscp_to_prio), 0, 0,
	  NULL, NULL, NULL, NULL, 0, 0 },
	{ SEC_QOS, "scheduler", KT_ENUM, SF(scheduler), 0, 0, NULL, sched_names,
	  NULL, NULL, 0, 0 },
	{ SEC_QOS, "dwrr_weights", KT_WEIGHTS, SF(dwrr_weights), 1, 1000,
	  "8 weights 1-1000, for priorities 0-7", NULL, NULL, "scheduler",
	  1u << SCN_SCHED_DWRR, 0 },
	TODO(SEC_QOS, "cnp_priority_strict"),

	{ SEC_NIC, "cc", KT_ENUM, SF(cc), 0, 0, NULL, cc_names, cc_later, NULL,
	  0, 0 },
	TODO(SEC_NIC, "pause_watchdog"),
	TODO(SEC_NIC, "rto"),

	{ SEC_JOB, "pattern", KT_ENUM, JF(pattern), 0, 0, NULL, pattern_names,
	  pattern_later, NULL, 0, 0 },
	{ SEC_JOB, "ranks", KT_HOSTSET, JF(ranks), 0, 0, NULL, NULL, NULL,
	  "pattern", P_PERM, 0 },
	{ SEC_JOB, "size", KT_SIZE, JF(size_bytes), 1, MAX_BYTES,
	  "above 0, at most 1000GB", NULL, NULL, "pattern", P_INCAST | P_PERM, 0 },
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
	TODO(SEC_JOB, "iterations"),
	TODO(SEC_JOB, "compute_gap"),
	TODO(SEC_JOB, "skew"),
	TODO(SEC_JOB, "channels"),
	TODO(SEC_JOB, "slice"),
	TODO(SEC_JOB, "schedule"),

	TODO(SEC_BUFFER, "size"),
	TODO(SEC_BUFFER, "reserved"),
	TODO(SEC_BUFFER, "dynamic_th"),
	TODO(SEC_BUFFER, "lossy_dynamic_th"),
	TODO(SEC_BUFFER, "cell"),
	TODO(SEC_PFC, "priorities"),
	TODO(SEC_PFC, "headroom"),
	TODO(SEC_PFC, "xon_offset"),
	TODO(SEC_PFC, "pause_quanta"),
	TODO(SEC_PFC, "response_time"),
	TODO(SEC_PFCWD, "enable"),
	TODO(SEC_PFCWD, "detection_time"),
	TODO(SEC_PFCWD, "restoration_time"),
	TODO(SEC_PFCWD, "poll_interval"),
	TODO(SEC_PFCWD, "action"),
	TODO(SEC_ECN, "queues"),
	TODO(SEC_ECN, "kmin"),
	TODO(SEC_ECN, "kmax"),
	TODO(SEC_ECN, "pmax"),
	TODO(SEC_ECN, "mark_point"),
	TODO(SEC_DCQCN, "profile"),
	TODO(SEC_FAULT, "kind"),
	TODO(SEC_FAULT, "node"),
	TODO(SEC_FAULT, "link"),
	TODO(SEC_FAULT, "start"),
	TODO(SEC_FAULT, "duration"),
	TODO(SEC_FAULT, "priority"),
	TODO(SEC_FAULT, "rate"),
	TODO(SEC_OUTPUT, "sample_interval"),
	TODO(SEC_OUTPUT, "queues"),
	TODO(SEC_OUTPUT, "rates"),
	TODO(SEC_CRITERIA, "max_ecn_mark_pct"),
	TODO(SEC_CRITERIA, "max_lossless_drops"),
	TODO(SEC_CRITERIA, "min_busbw_pct_line"),
	TODO(SEC_CRITERIA, "max_pause_frame_rate"),
};

enum { N_KEYS = N_OF(key_defs) };

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

/* Does key k apply, given the selecting key's value in base? *cur: its name. */
static int key_applies(const struct key_def *k, const void *base,
		       const char **cur)
{
	const struct key_def *d;
	int64_t v;

	if (!k->dep)
		return 1;
	d = key_def_of(k->sec, k->dep);
	v = load_int(base, d);
	if (cur)
		*cur = (v >= 0 && (size_t)v < count_names(d->names)) ? d->names[v] : "?";
	return v >= 0 && v < 32 && ((k->mask >> v) & 1u);
}

/* "kind = fat-tree" or "pattern = incast or permutation" */
static void applies_text(const struct key_def *k, char *buf, size_t len)
{
	const struct key_def *d = key_def_of(k->sec, k->dep);
	size_t i, n;
	int first = 1, w;

	w = snprintf(buf, len, "%s = ", k->dep);
	n = (w < 0) ? 0 : (size_t)w;
	for (i = 0; d->names[i] && n < len; i++) {
		if (!((k->mask >> i) & 1u))
			continue;
		w = snprintf(buf + n, len - n, "%s%s", first ? "" : " or ", d->names[i]);
		if (w < 0)
			return;
		n += (size_t)w;
		first = 0;
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
}

static void job_free(struct scn_job *j)
{
	hostset_clear(&j->ranks);
	hostset_clear(&j->senders);
	free(j->rows);
	j->rows = NULL;
	j->nrows = 0;
}

void scenario_init(struct scenario *s)
{
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
	s->cc = SCN_CC_NONE;
	s->njobs = 0;
}

void scenario_free(struct scenario *s)
{
	uint32_t i;

	for (i = 0; i < s->njobs && i < SCN_MAX_JOBS; i++)
		job_free(&s->jobs[i]);
}

uint32_t scenario_hosts(const struct scenario *s)
{
	switch (s->topo) {
	case SCN_TOPO_LEAF_SPINE:
		return s->leaves * s->hosts_per_leaf;
	case SCN_TOPO_FAT_TREE:
		return s->k * s->k * s->k / 4;
	case SCN_TOPO_STAR:
		return s->star_hosts;
	}
	return 0;
}

uint32_t scenario_switches(const struct scenario *s)
{
	switch (s->topo) {
	case SCN_TOPO_LEAF_SPINE:
		return s->leaves + s->spines;
	case SCN_TOPO_FAT_TREE:
		return 5 * s->k * s->k / 4;
	case SCN_TOPO_STAR:
		return 1;
	}
	return 0;
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
	int job;          /* index in s->jobs for [job.NAME], else -1 */
	char secname[64]; /* "topology", "job.a", "fault.x": message prefix */
	int sec_line[SEC_COUNT];                /* header lines, unnamed sections */
	int key_line[N_KEYS];                   /* line of each key, 0: not given */
	int job_key_line[SCN_MAX_JOBS][N_KEYS]; /* the same for each job */
	int job_hdr_line[SCN_MAX_JOBS];         /* [job.NAME] line in this file */
};

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
	ld->job = -1;
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

static int job_index(const struct scenario *s, const char *name)
{
	uint32_t i;

	for (i = 0; i < s->njobs; i++)
		if (strcmp(s->jobs[i].name, name) == 0)
			return (int)i;
	return -1;
}

/*
 * Make `name` (a section name as written, trimmed) the current section.
 * label is how messages show it ("[name]" in a file, "name.key" for --set).
 * A new [job.NAME] is created when create_job is set.
 */
static int enter_section(struct load *ld, const char *name, const char *label,
			 int create_job)
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
	ld->job = -1;
	memcpy(ld->secname, name, strlen(name) + 1); /* <= 5 + 1 + 31 chars */

	if (sec == SEC_JOB) {
		struct scenario *s = ld->s;
		int j = job_index(s, dot + 1);

		if (j < 0) {
			if (!create_job)
				return fail(ld, "%s: no job %s yet (give %s.pattern first)",
					    label, dot + 1, name);
			if (s->njobs >= SCN_MAX_JOBS)
				return fail(ld, "%s: too many jobs (at most %d)", label,
					    SCN_MAX_JOBS);
			j = (int)s->njobs++;
			job_init(&s->jobs[j], dot + 1, ld->line);
		} else if (ld->line > 0) {
			if (ld->job_hdr_line[j])
				return fail(ld, "%s: section given twice (first at line %d)",
					    label, ld->job_hdr_line[j]);
			s->jobs[j].line = ld->line;
		}
		if (ld->line > 0)
			ld->job_hdr_line[j] = ld->line;
		ld->job = j;
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

/* parse `value` for key k into base (struct scenario or struct scn_job) */
static int parse_value(struct load *ld, const char *full, const struct key_def *k,
		       void *base, const char *value)
{
	char e[256], names[128];
	int64_t v;
	size_t i;
	int rc = 0;

	switch (k->type) {
	case KT_TODO:
		return fail(ld, "%s: not implemented yet", full);
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
	char full[128];
	int ki, *slot;
	void *base;

	snprintf(full, sizeof(full), "%s.%s", ld->secname, name);
	ki = find_key((enum sec_id)ld->sec, name);
	if (ki < 0 && sd->any_key)
		return fail(ld, "%s: not implemented yet", full);
	if (ki < 0)
		return fail(ld, "%s: unknown key", full);
	if (!sd->implemented || key_defs[ki].type == KT_TODO)
		return fail(ld, "%s: not implemented yet", full);

	slot = ld->job >= 0 ? &ld->job_key_line[ld->job][ki] : &ld->key_line[ki];
	if (ld->line > 0 && *slot)
		return fail(ld, "%s: given twice (first at line %d)", full, *slot);
	base = ld->job >= 0 ? (void *)&ld->s->jobs[ld->job] : (void *)ld->s;
	if (parse_value(ld, full, &key_defs[ki], base, value))
		return -1;
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
		return enter_section(ld, name, label, 1);
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

/* the place of key ki of job j (or of the scenario, j < 0) */
static struct place key_place(const struct scenario *s, const struct load *ld,
			      int ki, int j)
{
	struct place pl = { "--set", 0 };

	if (ld && ki >= 0) {
		int line = j >= 0 ? ld->job_key_line[j][ki] : ld->key_line[ki];
		if (line > 0) {
			pl.src = ld->src;
			pl.line = line;
			return pl;
		}
	}
	if (ld && j >= 0 && ld->job_hdr_line[j] > 0) {
		pl.src = ld->src;
		pl.line = ld->job_hdr_line[j];
	} else if (j >= 0 && s->jobs[j].line > 0) {
		pl.src = s->source;
		pl.line = s->jobs[j].line;
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

/*
 * The values of job j that depend on the topology: host indices, counts,
 * dst against senders, a trace file given.  With resolve, the host sets are
 * expanded into their arrays and the trace file is read.
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
		if (job->pattern != SCN_JOB_PERMUTATION)
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
			return set_error(err, key_place(s, ld, -1, j),
					 "job.%s.file: missing (pattern = trace needs a CSV file)",
					 job->name);
		if (resolve)
			return read_trace(job, nhosts, key_place(s, ld, -1, j), err);
		return 0;
	case SCN_JOB_INCAST:
		ki = find_key(SEC_JOB, "dst");
		if (job->dst >= nhosts)
			return set_error(err, key_place(s, ld, ki, j),
					 "job.%s.dst: %" PRIu32 " out of range (0-%" PRIu32 ")",
					 job->name, job->dst, nhosts - 1);
		ki = find_key(SEC_JOB, "senders");
		pl = key_place(s, ld, ki, j);
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
		ki = find_key(SEC_JOB, "ranks");
		pl = key_place(s, ld, ki, j);
		if (hostset_walk(job->ranks.text, nhosts, UINT32_MAX, NULL, &n, e,
				 sizeof(e)))
			return set_error(err, pl, "job.%s.ranks: %s", job->name, e);
		if (n < 2)
			return set_error(err, pl,
					 "job.%s.ranks: %" PRIu32 " host (a permutation needs at least 2)",
					 job->name, n);
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

/*
 * End of a file: the keys it gives must apply to the kind, pattern and
 * scheduler chosen, its jobs need a pattern; the earliest offending line is
 * reported.  Then the host count and the host indices of its jobs.
 */
static int check_file(struct load *ld)
{
	struct scenario *s = ld->s;
	int best = INT_MAX, best_k = -1, best_j = -1, j, ki;
	int pattern_k = find_key(SEC_JOB, "pattern");
	const char *cur = "?";
	char want[128];
	struct place pl;

	for (j = 0; j < (int)s->njobs; j++) {
		if (!ld->job_hdr_line[j] || ld->job_key_line[j][pattern_k])
			continue;
		if (ld->job_hdr_line[j] < best) {
			best = ld->job_hdr_line[j];
			best_k = pattern_k;
			best_j = j;
		}
	}
	for (ki = 0; ki < N_KEYS; ki++) {
		const struct key_def *k = &key_defs[ki];

		if (!k->dep)
			continue;
		if (k->sec != SEC_JOB) {
			if (ld->key_line[ki] > 0 && ld->key_line[ki] < best &&
			    !key_applies(k, s, NULL)) {
				best = ld->key_line[ki];
				best_k = ki;
				best_j = -1;
			}
			continue;
		}
		for (j = 0; j < (int)s->njobs; j++) {
			int line = ld->job_key_line[j][ki];

			if (line > 0 && line < best && ld->job_key_line[j][pattern_k] &&
			    !key_applies(k, &s->jobs[j], NULL)) {
				best = line;
				best_k = ki;
				best_j = j;
			}
		}
	}
	if (best_k >= 0) {
		pl.src = ld->src;
		pl.line = best;
		if (best_k == pattern_k)
			return set_error(ld->err, pl,
					 "job.%s.pattern: missing (trace, incast, permutation)",
					 s->jobs[best_j].name);
		key_applies(&key_defs[best_k],
			    best_j >= 0 ? (const void *)&s->jobs[best_j] : (const void *)s,
			    &cur);
		applies_text(&key_defs[best_k], want, sizeof(want));
		if (best_j >= 0)
			return set_error(ld->err, pl, "job.%s.%s: only for %s (%s is %s)",
					 s->jobs[best_j].name, key_defs[best_k].name, want,
					 key_defs[best_k].dep, cur);
		return set_error(ld->err, pl, "%s.%s: only for %s (%s is %s)",
				 section_defs[key_defs[best_k].sec].name,
				 key_defs[best_k].name, want, key_defs[best_k].dep, cur);
	}

	if (check_topology(s, ld, ld->err))
		return -1;
	for (j = 0; j < (int)s->njobs; j++)
		if (ld->job_hdr_line[j] && check_job(s, ld, j, 0, ld->err))
			return -1;
	return 0;
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
	uint32_t njobs = s->njobs;
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
		char want[128];

		snprintf(label, sizeof(label), "%s.%s", key, dot + 1);
		if (enter_section(ld, key, label, strcmp(dot + 1, "pattern") == 0) ||
		    apply_key(ld, dot + 1, value))
			goto out;
		k = &key_defs[find_key((enum sec_id)ld->sec, dot + 1)];
		if (!key_applies(k, ld->job >= 0 ? (void *)&s->jobs[ld->job] : (void *)s,
				 &cur)) {
			applies_text(k, want, sizeof(want));
			fail(ld, "%s: only for %s (%s is %s; set %s.%s first)", label, want,
			     k->dep, cur, ld->secname, k->dep);
			goto out;
		}
	}
	rc = 0;
out:
	if (rc && s->njobs > njobs)
		s->njobs = njobs; /* a job this --set created: it has no allocation */
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
	if (check_topology(s, NULL, err))
		return -1;
	for (j = 0; j < s->njobs; j++)
		if (check_job(s, NULL, (int)j, 1, err))
			return -1;
	return 0;
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
	switch (k->type) {
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
		units_format_size(load_int(base, k), buf, len);
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
	fprintf(out, "# not implemented in this version:");
	for (sec = 0; sec < SEC_COUNT; sec++)
		if (!section_defs[sec].implemented)
			fprintf(out, " [%s%s]", section_defs[sec].name,
				section_defs[sec].named ? ".*" : "");
	fprintf(out, " (queues are unbounded, no congestion control)\n");
	fprintf(out, "# nor the keys");
	for (i = 0; i < N_KEYS; i++)
		if (key_defs[i].type == KT_TODO && section_defs[key_defs[i].sec].implemented) {
			fprintf(out, "%s %s%s.%s", sep, section_defs[key_defs[i].sec].name,
				section_defs[key_defs[i].sec].named ? ".*" : "",
				key_defs[i].name);
			sep = ",";
		}
	fprintf(out, "\n");

	for (sec = 0; sec < SEC_COUNT; sec++) {
		if (!section_defs[sec].implemented || section_defs[sec].named)
			continue;
		fprintf(out, "\n[%s]\n", section_defs[sec].name);
		print_section(s, out, (enum sec_id)sec, s);
	}
	for (j = 0; j < s->njobs; j++) {
		fprintf(out, "\n[job.%s]\n", s->jobs[j].name);
		print_section(s, out, SEC_JOB, &s->jobs[j]);
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
}
