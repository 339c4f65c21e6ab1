/*
 * loader.h - what the files of the scenario loader share (contract:
 * scenario.h, docs/contract.md#scenario-files).  Not for the layers above: they use scenario.h.
 *
 * INI files and `--set section.key=value` assignments go into struct
 * scenario through one table of keys (scn_key_defs[]), parsed exactly by the
 * units_* functions; trace CSV files are read with libcsv at finalize; the
 * resolved scenario prints back as INI that loads to the same values.
 *
 * The rooms, each opening with what it holds and the rules it keeps:
 *   keytable.c  the sections and the key table, one row a key with its
 *               meaning
 *   keys.c      the lookups in the table, the defaults fabric.type and the
 *               [dcqcn] profiles set
 *   defaults.c  a new scenario, job or fault (scenario_init), scenario_free()
 *   values.c    one value of a key: parse (with its syntax and range) and
 *               format (as it loads back)
 *   nodes.c     host sets and node names against the topology
 *   errors.c    messages, one line each at their place; calls nothing
 *   read.c      reading INI text (the inih adaptation) and --set
 *   validate.c  checks that involve several keys; scenario_finalize()
 *   checkjobs.c those checks for each job, and all jobs' flows together
 *   derived.c   values the scenario implies: hosts, switch tiers, PFC
 *               headroom and the shared pool
 *   trace.c     trace CSV files
 *   links.c     links CSV files (topology.kind = file), links.h
 *   csvfile.c   reading a CSV file row by row, which both share
 *   print.c     scenario_print() and scenario_print_derived()
 *   warnings.c  risky settings (scenario_warnings)
 *   keyhelp.c   what `dcqcn-sim keys` prints
 *   sonic.c, mlx5.c, export.c   real switch and NIC configurations in and
 *               out (config.h)
 *   open.c      scenario_load_inputs(), scenario_open(): the file, then the
 *               configurations, then the sets; above the loader, which never
 *               calls into configs/
 *
 * Each room calls only rooms below it, bottom first: keytable.c and
 * errors.c; keys.c and csvfile.c; derived.c, trace.c and links.c; nodes.c;
 * values.c, defaults.c and checkjobs.c; validate.c, keyhelp.c, print.c and
 * warnings.c; read.c; then configs/ (mlx5.c, sonic.c and export.c, open.c
 * last), which the loader never calls.
 *
 * The functions and tables shared between the rooms carry the prefix scn_
 * (the public functions scenario_); the rest of each room is static.
 */
#ifndef DCQCN_LOADER_H
#define DCQCN_LOADER_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "models/core/pfc.h"
#include "models/scenario/scenario.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__)
#define SCN_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define SCN_PRINTF(fmt, args)
#endif


#define MAX_BYTES INT64_C(1000000000000)              /* 1000GB */
#define MAX_TIME_PS (INT64_C(1000) * UNITS_PS_PER_S) /* 1000 s */

#define NO_HOST UINT32_MAX /* fault.node not given */
#define NO_PRIO 0xffu      /* fault.priority not given */

#define MBPS INT64_C(1000000)
#define FW_BYTE_UNIT 64 /* rpg_byte_reset firmware unit */

/* ---- sections and keys (the table: keytable.c; its lookups: keys.c) ---- */

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
	SEC_FABRIC,
	SEC_IB,
	SEC_TCP,
	SEC_COUNT
};

struct section_def {
	const char *name;
	int named;       /* [name.NAME] */
	int implemented; /* 0: every key of it is "not implemented yet" */
	const char *selector; /* named sections: the key that creates one by --set */
};

extern const struct section_def scn_section_defs[SEC_COUNT];

/* jobs and faults: the instances of the named sections */
#define MAX_ITEMS (SCN_MAX_JOBS > SCN_MAX_FAULTS ? SCN_MAX_JOBS : SCN_MAX_FAULTS)

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
	KT_SL_MAP,   /* ib.sl_to_vl */
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
	KT_INT_AUTO, /* plain integer, or "auto" = SCN_AUTO */
	KT_FLOWS,    /* struct scn_flowlist: "auto", or QP ids "0,5,9" */
	KT_STRAGGLERS, /* struct scn_stragglers: "h5:2ms,h9:500us" */
	/* [dcqcn] knobs: a bare number is in the NVIDIA firmware unit */
	KT_FW_TIME,  /* ps; bare number: us */
	KT_FW_RATE,  /* bps; bare number: Mbps; 0 only with KF_ZERO */
	KT_FW_BYTES, /* bytes; bare number: 64-byte units */
};

#define KF_EVEN 1u    /* integer must be even (topology.k) */
#define KF_NOPRINT 2u /* not printed: an alias (qos.nccl_ib_tc), or a setting no output
			 * depends on (sim.threads) */
#define KF_ZERO 4u    /* a bare "0" is accepted and printed (0 = off) */
#define KF_FRAME1 8u  /* SCN_AUTO until finalize: one data frame (mtu + 62) */
#define KF_FRAME2 16u /* SCN_AUTO until finalize: two data frames */
#define KF_NUM01 32u  /* a KT_BOOL printed as 0 or 1 (firmware flags) */
#define KF_PROFILE 64u /* a [dcqcn] knob: dcqcn.profile sets its default */
#define KF_POOL 128u   /* the shared pool of a switch depends on it */

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
	int64_t def[3];        /* the default in the base unit; a KF_PROFILE knob's
				  by profile (enum scn_dcqcn_profile) */
	const char *meaning;   /* one line, as `dcqcn-sim keys` prints it; NULL for KT_TODO */
	const char *def_text;  /* the default in words where a value cannot show it
				  ("required"), else NULL */
};

/* every key of docs/contract.md#scenario-files (keytable.c checks the count) */
#define N_KEYS 154
extern const struct key_def scn_key_defs[N_KEYS];

/* value names that messages and the printer use besides the table */
extern const char *const scn_profile_names[];
extern const char *const scn_mark_point_names[];
extern const char *const scn_fault_kind_names[];

/* index of the key in scn_key_defs[], or -1 */
int scn_find_key(enum sec_id sec, const char *name);
/* the key definition by section and name, for keys the code names itself */
const struct key_def *scn_key_def_of(enum sec_id sec, const char *name);
void scn_store_int(void *base, const struct key_def *k, int64_t v);
/* integer and enum fields; every value stored fits int32 or int64 */
int64_t scn_load_int(const void *base, const struct key_def *k);
size_t scn_count_names(const char *const *names);
/* "a, b, c" */
void scn_join_names(const char *const *names, const char *sep, char *buf, size_t len);
/* Does key k apply, given the selecting key's value in base?  *cur: its name */
int scn_key_applies(const struct key_def *k, const void *base, const char **cur);
/* Is k's dep an on/off switch (pfc.priorities, pfcwd.enable, ecn.queues)? */
int scn_dep_is_switch(const struct key_def *k);
/* what is off when a switch dep is 0, and why: "PFC is off", "pfc.priorities is empty" */
const char *scn_switch_off_what(const struct key_def *k);
const char *scn_switch_off_why(const struct key_def *k);
/* k's selecting key as messages name it: "kind" in its section, or "nic.cc" */
void scn_dep_label(const struct key_def *k, const char *secname, char *buf, size_t len);
/* "kind = fat-tree", "pattern = incast or permutation", "nic.cc = dcqcn" */
void scn_applies_text(const struct key_def *k, char *buf, size_t len);

/* the defaults of a new [job.NAME] and [fault.NAME] (defaults.c) */
void scn_job_init(struct scn_job *j, const char *name, int line);
void scn_fault_init(struct scn_fault *f, const char *name, int line);

/* ---- jobs and faults: the instances of named sections ---- */

static inline uint32_t item_count(const struct scenario *s, int sec)
{
	return sec == SEC_FAULT ? s->nfaults : s->njobs;
}

static inline const void *item_cbase(const struct scenario *s, int sec, int j)
{
	return sec == SEC_FAULT ? (const void *)&s->faults[j] : (const void *)&s->jobs[j];
}

static inline void *item_base(struct scenario *s, int sec, int j)
{
	return sec == SEC_FAULT ? (void *)&s->faults[j] : (void *)&s->jobs[j];
}

static inline const char *item_name(const struct scenario *s, int sec, int j)
{
	return sec == SEC_FAULT ? s->faults[j].name : s->jobs[j].name;
}

static inline int item_line(const struct scenario *s, int sec, int j)
{
	return sec == SEC_FAULT ? s->faults[j].line : s->jobs[j].line;
}

/* ---- small helpers ---- */

static inline int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' ||
	       c == '\v';
}

static inline int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* [*b, *e) without white space at either end */
static inline void trim_range(const char **b, const char **e)
{
	while (*b < *e && is_blank(**b))
		(*b)++;
	while (*e > *b && is_blank((*e)[-1]))
		(*e)--;
}

/* copy [b, e) into buf (NUL-terminated); -1 if it does not fit */
static inline int copy_range(char *buf, size_t len, const char *b, const char *e)
{
	size_t n = (size_t)(e - b);

	if (n >= len)
		return -1;
	memcpy(buf, b, n);
	buf[n] = '\0';
	return 0;
}

/* ---- messages (errors.c) and the state of one file or one --set (read.c) ---- */

/* where a message points: "src:line: ", or "src: " when line is 0 */
struct place {
	const char *src;
	int line;
};

/* Messages are one line: control characters from user text become '?'. */
void scn_one_line(char *s);
__attribute__((format(printf, 3, 0))) void scn_vset_error(struct scn_error *err, struct place pl,
							   const char *fmt, va_list ap);
SCN_PRINTF(3, 4)
__attribute__((format(printf, 3, 4))) int scn_set_error(struct scn_error *err, struct place pl,
							  const char *fmt, ...);

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
	/* scenario_inputs.fabric: the type forced (-1: none), and where the
	 * keys skipped for it are named */
	int forced_fabric;
	FILE *skip_log;
};

/* the line of key ki: of item j of named section sec, or (j < 0) unnamed */
static inline int *line_slot(struct load *ld, int sec, int j, int ki)
{
	return j >= 0 ? &ld->item_key_line[sec == SEC_FAULT][j][ki] : &ld->key_line[ki];
}

static inline int line_at(const struct load *ld, int sec, int j, int ki)
{
	return j >= 0 ? ld->item_key_line[sec == SEC_FAULT][j][ki] : ld->key_line[ki];
}

static inline int *hdr_slot(struct load *ld, int sec, int j)
{
	return &ld->item_hdr_line[sec == SEC_FAULT][j];
}

static inline int hdr_at(const struct load *ld, int sec, int j)
{
	return ld->item_hdr_line[sec == SEC_FAULT][j];
}

/* the first error of ld, at its current place; returns -1 */
SCN_PRINTF(2, 3)
__attribute__((format(printf, 2, 3))) int scn_fail(struct load *ld, const char *fmt, ...);
/* where a message about key ki of item j of named section sec (or of the
 * scenario, j < 0) points: its line in the file, else the item's header,
 * else "--set" (ld NULL: at finalize) */
struct place scn_key_place(const struct scenario *s, const struct load *ld, int sec, int ki,
			   int j);

/* scenario_load_string(), scenario_load_file() and scenario_set() with the
 * inputs' forced fabric (in->fabric; in may be NULL): the steps of
 * scenario_load_inputs() (configs/open.c) */
int scn_load_text(struct scenario *s, const char *name, const char *text, struct scn_error *err,
		  const struct scenario_inputs *in);
int scn_load_path(struct scenario *s, const char *path, struct scn_error *err,
		  const struct scenario_inputs *in);
int scn_set_one(struct scenario *s, const char *assignment, struct scn_error *err,
		const struct scenario_inputs *in);

/* fabric.type changed from `old` (keys.c): the keys it sets the default of
 * (pfc.priorities, pfcwd.enable, ecn.queues, nic.cc) follow it unless given */
void scn_apply_fabric(struct load *ld, enum scn_fabric old);
/* the default of key k on fabric type f (k one of those keys) */
int scn_fabric_default(const struct key_def *k, enum scn_fabric f, int64_t *def);
/* why key k does not belong on fabric f whatever its value, NULL when it
 * does (keys.c) */
const char *scn_fabric_foreign(const struct key_def *k, enum scn_fabric f);

/* dcqcn.profile changed from `old` (keys.c) */
void scn_apply_profile(struct load *ld, enum scn_dcqcn_profile old);

/* ---- values (values.c) ---- */

/* parse `value` for key k into base (struct scenario, scn_job or scn_fault) */
int scn_parse_value(struct load *ld, const char *full, const struct key_def *k, void *base,
		    const char *value);
/* the value of key k in base, as it loads back */
void scn_format_value(const struct key_def *k, const void *base, char *buf, size_t len);
/* "3" or "3,4": the priorities or queues of a bit mask */
void scn_prios_text(uint8_t mask, char *buf, size_t len);

/* ---- host sets and node names (nodes.c) ---- */

#define HOSTSET_SYNTAX "use all, 0-63 or 0,2,4-7"
#define HOSTSET_EXCLUDED (-2)

int scn_hostset_walk(const char *text, uint32_t nhosts, uint32_t exclude, uint32_t *out,
		     uint32_t *count, char *e, size_t elen);
void scn_hostset_clear(struct scn_hostset *hs);

/* node names (docs/contract.md#outputs): h3, leaf0, spine1, edge5, agg2, core0, sw0; a
 * tier of nodes is an enum topo_tier (topology.h) */
#define N_TIERS (TOPO_SW + 1)

/* the words of a tier: node name prefix, name and label of a switch tier in
 * `check` ("leaf", "leaf switches"), its nodes as the peers of a port */
struct tier_words {
	const char *prefix, *name, *label, *peers;
};

/* derived.c, beside the switch tiers that name themselves by it */
extern const struct tier_words scn_tier_words[N_TIERS];

#define NODE_EXAMPLES "e.g. h3, leaf0, spine1, edge0, agg2, core1, sw0"

/* [b, e) as a node name: a prefix and a canonical index (no leading 0) */
int scn_parse_node_name(const char *b, const char *e, int *tier, uint32_t *idx);
/* "A-B": the two node names, each checked for form only */
int scn_split_link(const char *text, int tier[2], uint32_t idx[2]);
/* fault.NAME.link against the topology: both ends, cabled to each other */
int scn_resolve_link(const struct scenario *s, const char *text, uint32_t node[2],
		     uint8_t is_host[2], char *e, size_t elen);

/* ---- derived values (derived.c) ---- */

/* bytes of n data frames (mtu + RoCEv2 headers), the unit of some defaults */
int64_t scn_data_frames(const struct scenario *s, int n);
/* a KF_FRAME1/KF_FRAME2 field: its value, or the default it resolves to */
int64_t scn_frames_value(const struct key_def *k, const struct scenario *s);
int64_t scn_reserved_of(const struct scenario *s);
/* the terms of the auto headroom of a port (pfc.h) */
struct pfc_headroom scn_headroom_terms(const struct scenario *s, int64_t rate_bps,
				       int64_t cable_mm);

/* the topology core's view of s (topology.h) */
void scn_topo(const struct scenario *s, struct topo *t);

/* ports of one switch of a tier that lead to one tier of peers */
struct port_class {
	const char *peers;  /* "hosts", "spines", ... */
	uint32_t n;
	int host;           /* host_link and host_cable, else fabric */
	enum topo_tier tier;
};

/* the switches of one tier, numbered first .. first + count - 1 */
struct sw_tier {
	const char *name;   /* "leaf" */
	const char *label;  /* "leaf switches" */
	enum topo_tier tier;
	uint32_t first, count;
	struct port_class pc[2];
	int npc;
};

/* the switch tiers of s in switch number order; returns how many */
int scn_switch_tiers(const struct scenario *s, struct sw_tier t[3]);
/* the host ports (host != 0) or the fabric ports of a switch of tier t */
uint32_t scn_tier_ports(const struct sw_tier *t, int host);
/* "64MB - 10 ports x 8 PGs x 4158B reserved - 8 host ports x ... = 123B":
 * the shared pool of a switch of tier t, returned and written out */
int64_t scn_pool_text(const struct scenario *s, const struct sw_tier *t, char *buf, size_t len);

/* ---- checks that involve several keys (validate.c, checkjobs.c), trace files (trace.c) ---- */

/* end of a file: see validate.c */
int scn_check_file(struct load *ld);
/* the checks of job j (checkjobs.c); resolve: at finalize, host sets resolved */
int scn_check_job(struct scenario *s, const struct load *ld, int j, int resolve,
		  struct scn_error *err);
/* all jobs' flows together, at most 10^12 (checkjobs.c) */
int scn_check_flows(const struct scenario *s, const struct load *ld, struct scn_error *err);
/* read job->file into job->rows; errors are "FILE:LINE: column: ..." */
/*
 * A CSV file read row by row (csvfile.c; traces, links files), a reader's
 * first member: scn_csv_read() requires a regular file of at most
 * max_bytes and reads it one line at a time (line counts them), keeping
 * each row's fields, the first `kept` of them (and one more, to name an
 * extra column) trimmed to SCN_CSV_FIELD_MAX characters (field_long says
 * so), then calls header() for the first row and row() for every other,
 * until failed is set (scn_csv_fail, or a csv or read error).  It returns
 * SCN_CSV_READ once read (whatever the rows held), else why the file was not
 * read (errno kept for CANNOT_OPEN).
 */
#define SCN_CSV_COLS 6       /* the most columns a reader names */
#define SCN_CSV_FIELD_MAX 64 /* longest field text kept; longer values are errors */
enum scn_csv_open { SCN_CSV_READ, SCN_CSV_CANNOT_OPEN, SCN_CSV_DIRECTORY, SCN_CSV_NOT_REGULAR,
		    SCN_CSV_TOO_LARGE, SCN_CSV_NO_MEMORY };
struct scn_csv {
	const char *path;
	struct scn_error *err;
	int failed;                    /* an error is set: nothing more is read */
	int line, row_line;            /* current line; line where the row's first field ended */
	int have_header;
	uint32_t ncols;                /* fields in the header */
	uint32_t kept;                 /* the reader's columns (<= SCN_CSV_COLS) */
	uint32_t nfield;               /* fields of the current row so far */
	char field[SCN_CSV_COLS + 1][SCN_CSV_FIELD_MAX + 1];
	int field_long[SCN_CSV_COLS + 1];
	void (*header)(struct scn_csv *c), (*row)(struct scn_csv *c);
};
enum scn_csv_open scn_csv_read(struct scn_csv *c, int64_t max_bytes);
/* the first error of a CSV file, at "PATH:LINE: " */
SCN_PRINTF(3, 4) void scn_csv_fail(struct scn_csv *c, int line, const char *fmt, ...);
/* why a file was not read, in words ("a directory, not KIND", "larger than
 * N MiB", "cannot open (REASON)"), into buf or a constant */
const char *scn_csv_open_text(enum scn_csv_open e, const char *kind, int64_t max_bytes,
			      char *buf, size_t len);

int scn_read_trace(struct scn_job *job, uint32_t nhosts, struct place jpl,
		   struct scn_error *err);

#endif
