/*
 * scenario.h - the resolved scenario: every key of DESIGN.md A2 that this
 * version implements, with its default, parsed exactly (units.h).
 *
 * Loading order: scenario_init() sets the defaults; scenario_load_file() or
 * scenario_load_string() applies a file; scenario_set() applies each
 * `--set section.key=value`; scenario_finalize() checks ranges that depend on
 * other keys, contradictions, host indices, and reads trace CSV files.  Only
 * a finalized scenario may be simulated.
 *
 * Keys of the contract that a later version implements ([buffer], [pfc],
 * [pfcwd], [ecn], [dcqcn], [fault.*], [output], [criteria], and some keys of
 * [qos], [nic] and [job.*]) are known by name and rejected with "not
 * implemented yet", never silently ignored.
 *
 * Errors: functions return 0 or -1; on -1, err->msg holds one line
 * "FILE:LINE: section.key: what is wrong (valid range)".  For --set the place
 * is "--set".  Nothing here prints except scenario_print*(), which write to
 * the stream they are given.
 */
#ifndef DCQCN_SCENARIO_H
#define DCQCN_SCENARIO_H

#include <stdint.h>
#include <stdio.h>

#include "units.h"

#define SCN_MAX_JOBS 64
#define SCN_NAME_LEN 32
#define SCN_PRIOS 8
#define SCN_MAX_HOSTS 65536

struct scn_error {
	char msg[768];
};

enum scn_topo_kind { SCN_TOPO_LEAF_SPINE, SCN_TOPO_FAT_TREE, SCN_TOPO_STAR };
enum scn_ecmp { SCN_ECMP_FLOW, SCN_ECMP_PACKET };
enum scn_sched { SCN_SCHED_STRICT, SCN_SCHED_DWRR };
enum scn_cc { SCN_CC_NONE };
enum scn_pattern { SCN_JOB_TRACE, SCN_JOB_INCAST, SCN_JOB_PERMUTATION };

/* one row of a trace CSV: src,dst,bytes,start_us[,dscp][,after] */
struct scn_trace_row {
	uint32_t src, dst;
	int64_t bytes;
	sim_time_ps start_ps;
	int32_t dscp;  /* -1: the job's DSCP */
	int32_t after; /* row (flow id in this trace) that must finish first; -1 none */
};

/* a set of host indices ("all", "0-63", "0,2,4-7"), resolved at finalize */
struct scn_hostset {
	char text[256]; /* as written, for printing */
	uint32_t *hosts;
	uint32_t n;
};

struct scn_job {
	char name[SCN_NAME_LEN];  /* [job.NAME]: letters, digits, '-', '_' */
	int line;                 /* line of the section header */
	enum scn_pattern pattern;
	struct scn_hostset ranks; /* permutation participants (default all) */
	int64_t size_bytes;       /* incast/permutation: bytes per flow */
	sim_time_ps start_ps;
	int32_t dscp;             /* -1: qos.data_dscp */
	uint32_t dst;             /* incast */
	struct scn_hostset senders; /* incast (default: all hosts but dst) */
	char file[4096];          /* trace: path resolved against the scenario's folder */
	struct scn_trace_row *rows;
	uint32_t nrows;
};

struct scenario {
	char source[4096]; /* file path, or "<embedded default>" */

	/* [sim] */
	sim_time_ps duration_ps;
	uint64_t seed;

	/* [topology] */
	enum scn_topo_kind topo;
	uint32_t spines, leaves, hosts_per_leaf; /* leaf-spine */
	uint32_t k;                              /* fat-tree: even, k^3/4 hosts */
	uint32_t star_hosts;                     /* star */
	int64_t host_link_bps, fabric_link_bps;
	int64_t host_cable_mm, fabric_cable_mm;
	sim_time_ps switch_latency_ps;
	uint32_t mtu_bytes;                      /* RoCE payload per packet */
	enum scn_ecmp ecmp;

	/* [qos] */
	uint8_t data_dscp;
	uint8_t dscp_to_prio[64];                /* default dscp >> 3 */
	enum scn_sched scheduler;
	uint32_t dwrr_weights[SCN_PRIOS];        /* default all 1 */

	/* [nic] */
	enum scn_cc cc;

	/* [job.*] */
	struct scn_job jobs[SCN_MAX_JOBS];
	uint32_t njobs;
};

void scenario_init(struct scenario *s);
void scenario_free(struct scenario *s);
int scenario_load_file(struct scenario *s, const char *path, struct scn_error *err);
int scenario_load_string(struct scenario *s, const char *name, const char *text,
			 struct scn_error *err);
/* "section.key=value", as given to --set */
int scenario_set(struct scenario *s, const char *assignment, struct scn_error *err);
int scenario_finalize(struct scenario *s, struct scn_error *err);

/* derived values */
uint32_t scenario_hosts(const struct scenario *s);
uint32_t scenario_switches(const struct scenario *s);

/* the resolved scenario as an INI file that loads back to the same values */
void scenario_print(const struct scenario *s, FILE *out);
/* derived values (hosts, switches, BDP, goodput ceiling, ...) as # comments */
void scenario_print_derived(const struct scenario *s, FILE *out);

/* the embedded default scenario (scenarios/default.ini, compiled in) */
extern const char scenario_default_text[];

#endif
