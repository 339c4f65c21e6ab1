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
 * Keys of the contract that a later version implements ([ecn], [dcqcn],
 * [criteria], and some keys of [qos], [nic], [output] and [job.*]) are known
 * by name and rejected with "not implemented yet", never silently ignored.
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
enum scn_pfcwd_action { SCN_PFCWD_DROP, SCN_PFCWD_FORWARD, SCN_PFCWD_ALERT };
enum scn_fault_kind { SCN_FAULT_PAUSE_STORM, SCN_FAULT_SLOW_RECEIVER, SCN_FAULT_LINK_DOWN };

#define SCN_MAX_FAULTS 64
#define SCN_AUTO (-1) /* headroom, response_time: computed per port */

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

/*
 * [fault.NAME] (DESIGN A2, B3):
 *   pause-storm    host `node` (h3) sends XOFF continuously on `priority`
 *                  from start for duration
 *   slow-receiver  host `node` drains received data at `rate` and pauses
 *                  its ToR through a small receive buffer
 *   link-down      `link` (e.g. leaf0-spine1, h3-leaf0) fails at start for
 *                  duration; ECMP routes around it
 * node (and link for link-down) are required; fields of keys that do not
 * apply to the kind are unused (host UINT32_MAX, rate_bps 0, priority 0xff,
 * link_text empty); priority is resolved at finalize.
 * Node numbers follow topology.h: hosts by index; switches by switch number
 * (leaf-spine: leaf l = l, spine s = leaves + s; fat-tree: edges, then aggs,
 * then cores; star: sw0 = 0).
 */
struct scn_fault {
	char name[SCN_NAME_LEN];
	int line;                  /* line of the section header */
	enum scn_fault_kind kind;
	uint32_t host;             /* pause-storm, slow-receiver */
	/* link-down: the two ends; a host end has is_host set */
	uint32_t end_node[2];
	uint8_t end_is_host[2];
	char link_text[64];        /* as written, for printing */
	sim_time_ps start_ps;
	sim_time_ps duration_ps;   /* 0: until the end of the run */
	uint8_t priority;          /* pause-storm (default: lowest lossless priority) */
	int64_t rate_bps;          /* slow-receiver drain rate (required) */
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

	/* [buffer] (DESIGN B2) */
	int64_t buffer_bytes;        /* size: shared buffer per switch (64MB) */
	int64_t reserved_bytes;      /* per (ingress port, PG); default one data frame (mtu + 62);
				      * SCN_AUTO until scenario_finalize() resolves it */
	int32_t dynamic_th;          /* lossless ingress alpha = 2^dynamic_th (0); -7..7 */
	int32_t lossy_dynamic_th;    /* lossy egress alpha = 2^lossy_dynamic_th (3); -7..7 */
	int64_t cell_bytes;          /* accounting cell, 0 = byte exact */

	/* [pfc] (DESIGN B3) */
	uint8_t pfc_prios;           /* bit p: priority p is lossless (default 1 << 3); 0 = PFC off */
	int64_t headroom_bytes;      /* SCN_AUTO or bytes per lossless PG */
	int64_t xon_offset_bytes;    /* default two data frames (2 x (mtu + 62));
				      * SCN_AUTO until scenario_finalize() resolves it */
	uint32_t pause_quanta;       /* 1-65535, default 65535 */
	sim_time_ps response_ps;     /* SCN_AUTO or a time */

	/* [pfcwd] (DESIGN B4) */
	int pfcwd_enable;            /* true */
	sim_time_ps pfcwd_detect_ps; /* 200ms */
	sim_time_ps pfcwd_restore_ps;/* 400ms */
	sim_time_ps pfcwd_poll_ps;   /* 200ms */
	enum scn_pfcwd_action pfcwd_action; /* drop */

	/* [nic] */
	enum scn_cc cc;
	sim_time_ps nic_pause_watchdog_ps; /* 0 = off */

	/* [output] */
	sim_time_ps sample_interval_ps; /* 10us: pause.csv intervals */

	/* [job.*] */
	struct scn_job jobs[SCN_MAX_JOBS];
	uint32_t njobs;

	/* [fault.*] */
	struct scn_fault faults[SCN_MAX_FAULTS];
	uint32_t nfaults;
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

/*
 * PFC derived values (DESIGN B3), shared by `check` and the switch model.
 * Quanta are 512 bit times at the link rate.
 */
/* IEEE/SONiC peer response in quanta: 10G 67, 25G 80, 40G 118, 50G 147,
 * 100G 394, 200G 453, 400G 905; other rates take the entry of the largest
 * listed rate not above them (below 10G: 67) */
uint32_t scenario_response_quanta(int64_t rate_bps);
/* a quanta count as time at a rate (> 0), exact to the picosecond (rounded up) */
sim_time_ps scenario_quanta_ps(uint32_t quanta, int64_t rate_bps);
/* pfc.response_time for a port at rate_bps (auto: from the table) */
sim_time_ps scenario_response_ps(const struct scenario *s, int64_t rate_bps);
/* headroom of a lossless PG on a port at rate_bps with a cable of cable_mm:
 * pfc.headroom, or auto = 2 x wire frame (mtu + 82) + 2 x cable propagation
 * (5 ns/m) x rate in bytes (rounded up) + response time x rate in bytes
 * (rounded up; with auto response_time exactly quanta x 64) + one more wire
 * frame for the frame in flight */
int64_t scenario_headroom_bytes(const struct scenario *s, int64_t rate_bps, int64_t cable_mm);
/* bytes charged for a frame: itself, or rounded up to buffer.cell */
int64_t scenario_cell_round(const struct scenario *s, int64_t bytes);
/* shared pool of a switch with the given ports: buffer.size minus 8 PGs x
 * reserved per port minus one headroom per lossless priority per port, in
 * plain bytes (not cell-rounded); may be <= 0 (finalize rejects such scenarios with the arithmetic) */
int64_t scenario_pool_bytes(const struct scenario *s, uint32_t host_ports,
			    uint32_t fabric_ports);

/* the resolved scenario as an INI file that loads back to the same values */
void scenario_print(const struct scenario *s, FILE *out);
/* derived values (hosts, switches, BDP, goodput ceiling, headroom per port
 * class, pause times, shared pool per switch tier) as # comments */
void scenario_print_derived(const struct scenario *s, FILE *out);

/* the embedded default scenario (scenarios/default.ini, compiled in) */
extern const char scenario_default_text[];

#endif
