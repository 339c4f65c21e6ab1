/*
 * scenario.h - the resolved scenario: every key of docs/contract.md#scenario-files that this
 * version implements, with its default, parsed exactly (units.h).
 *
 * Loading order: scenario_init() sets the defaults; scenario_load_file() or
 * scenario_load_string() applies a file; scenario_set() applies each
 * `--set section.key=value`; scenario_finalize() checks ranges that depend on
 * other keys, contradictions, host indices, and reads trace CSV files.  Only
 * a finalized scenario may be simulated.
 *
 * Every key of the contract is implemented; a key this version does not
 * know is an error, never silently ignored.  scenario_finalize() also checks a collective's size against its
 * ranks and that all jobs together make at most 10^12 flows.
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

#include "models/base/units.h"
#include "models/core/topology.h"

#define SCN_MAX_JOBS 64
#define SCN_MAX_STRAGGLERS 16     /* job.NAME.straggler entries */
#define SCN_NAME_LEN 32
#define SCN_PRIOS 8
#define SCN_MAX_HOSTS 65536

struct graph;

struct scn_error {
	char msg[768];
};

enum scn_topo_kind { SCN_TOPO_LEAF_SPINE, SCN_TOPO_FAT_TREE, SCN_TOPO_STAR, SCN_TOPO_RAIL,
		     SCN_TOPO_FILE };
enum scn_ecmp { SCN_ECMP_FLOW, SCN_ECMP_PACKET, SCN_ECMP_ADAPTIVE };
enum scn_sched { SCN_SCHED_STRICT, SCN_SCHED_DWRR };
enum scn_cc { SCN_CC_NONE, SCN_CC_DCQCN };
enum scn_mark_point { SCN_MARK_DEQUEUE, SCN_MARK_ENQUEUE };
enum scn_dcqcn_profile { SCN_DCQCN_NVIDIA, SCN_DCQCN_PAPER, SCN_DCQCN_HPCC };
/* dcqcn.cut_on: when a CNP's cut happens (docs/model.md#dcqcn) */
enum scn_cut_on { SCN_CUT_ON_CNP, SCN_CUT_ON_TIMER };
enum scn_cnp_scope { SCN_CNP_SCOPE_QP, SCN_CNP_SCOPE_PORT };
/* fabric.type: lossless RoCEv2 (PFC, ECN, DCQCN) or InfiniBand (credits) */
enum scn_fabric { SCN_FABRIC_ROCE, SCN_FABRIC_IB, SCN_FABRIC_TCP };
#define SCN_FABRIC_COUNT 3
/* the fabric.type names, spelled once: scenario_fabric_names[] by enum
 * scn_fabric, NULL-terminated; SCN_FABRICS_JOINED("|") is the literal
 * "roce|infiniband|ethernet-tcp" for help texts and messages */
#define SCN_FABRIC_NAME_ROCE "roce"
#define SCN_FABRIC_NAME_IB "infiniband"
#define SCN_FABRIC_NAME_TCP "ethernet-tcp"
#define SCN_FABRICS_JOINED(sep) SCN_FABRIC_NAME_ROCE sep SCN_FABRIC_NAME_IB sep SCN_FABRIC_NAME_TCP
extern const char *const scenario_fabric_names[SCN_FABRIC_COUNT + 1];
/* a job.pattern's name as the scenario file writes it ("ring-allreduce") */
const char *scenario_pattern_name(unsigned pattern);
enum scn_tcp_cc { SCN_TCP_NEWRENO, SCN_TCP_DCTCP };

/*
 * [dcqcn] knobs (docs/model.md#dcqcn) by their NVIDIA firmware names, converted to
 * base units at load time.  A bare number is in the firmware unit (rates
 * Mbps, times us, rpg_byte_reset 64-byte units, dce_tcp_g and
 * initial_alpha_value 1/1024 units); a value with a unit is parsed exactly.
 * `profile` sets every knob's default (and the semantics, see dcqcn.h);
 * knobs given in the file override it whatever their order.
 */
struct scn_dcqcn {
	sim_time_ps rpg_time_reset_ps;       /* increase timer */
	int64_t rpg_byte_reset_bytes;        /* byte counter; 0 = off */
	uint32_t rpg_threshold;              /* F: fast-recovery steps, 1-31 */
	int64_t rpg_ai_rate_bps, rpg_hai_rate_bps;
	uint32_t rpg_gd;                     /* cut = alpha / 2^(gd - 10); 10-20 */
	uint32_t rpg_min_dec_fac_pct;        /* a cut leaves Rc >= this % (largest cut 100 - this %);
					      * 0 = no limit (paper, hpcc) */
	int64_t rpg_min_rate_bps;
	uint32_t dce_tcp_g;                  /* G: g = (1024 - G) / 1024; 0-1023 */
	sim_time_ps dce_tcp_rtt_ps;          /* alpha update period */
	sim_time_ps rate_reduce_monitor_period_ps; /* 0: cut on each CNP */
	uint32_t initial_alpha_value;        /* 1/1024 units, 0-1023 */
	int64_t rate_to_set_on_first_cnp_bps;/* 0: keep the rate */
	int clamp_tgt_rate, clamp_tgt_rate_after_time_inc;
	sim_time_ps min_time_between_cnps_ps;/* notification point */
	enum scn_cnp_scope cnp_scope;        /* qp (default) or port */
	enum scn_cut_on cut_on;              /* cnp: at once if the last cut is a period old;
					      * timer: on a period grid (hpcc) */
	int rate_change_reschedules;         /* a rate change moves a paced send time
					      * (0: it stays, hpcc) */
};
enum scn_pattern { SCN_JOB_TRACE, SCN_JOB_INCAST, SCN_JOB_PERMUTATION, SCN_JOB_RING_ALLREDUCE,
		   SCN_JOB_ALLTOALL, SCN_JOB_STORAGE, SCN_JOB_TRAINING };
enum scn_rw { SCN_RW_READ, SCN_RW_WRITE, SCN_RW_RANDRW }; /* storage: fio's rw */
enum scn_schedule { SCN_SCHEDULE_ALL_AT_ONCE, SCN_SCHEDULE_SHIFT };
enum scn_algorithm { SCN_ALGO_RING, SCN_ALGO_TREE }; /* ring-allreduce */
/* training: the gradients all-reduced, or reduce-scattered and the updated
 * parameters all-gathered (a sharded optimizer) */
enum scn_optimizer { SCN_OPT_ALLREDUCE, SCN_OPT_SHARDED };
enum scn_queues { SCN_QUEUES_SWITCHES, SCN_QUEUES_ALL, SCN_QUEUES_NONE };
enum scn_busbw_stat { SCN_BUSBW_MIN, SCN_BUSBW_MEAN }; /* criteria.busbw_stat */
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

/* output.plot_qps: the QPs dcqcn.png draws; n 0 is "auto" (the most-cut) */
#define SCN_PLOT_QPS 16
struct scn_flowlist {
	uint32_t n;
	uint32_t id[SCN_PLOT_QPS];
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
	struct scn_hostset ranks; /* permutation, ring-allreduce, alltoall participants
				   * (default all, in host index order) */
	int64_t size_bytes;       /* incast/permutation: bytes per flow; ring-allreduce and
				   * alltoall: the collective's size S */
	sim_time_ps start_ps;
	uint32_t iterations;      /* all patterns: repeat (default 1), each after the last
				   * one finished plus compute_gap */
	sim_time_ps compute_gap_ps; /* default 0 */
	sim_time_ps skew_ps;      /* each rank (sender) starts each iteration up to skew
				   * late, seeded (default 0) */
	struct scn_stragglers {   /* hosts that start each iteration late, on top of skew */
		uint32_t n;
		uint32_t host[SCN_MAX_STRAGGLERS];
		sim_time_ps delay_ps[SCN_MAX_STRAGGLERS];
	} stragglers;
	uint32_t channels;        /* ring-allreduce: rings (default 1) */
	int64_t slice_bytes;      /* ring-allreduce: pipelining granularity (default 512KB) */
	enum scn_schedule schedule; /* alltoall: all-at-once (default) or shift */
	enum scn_algorithm algorithm; /* ring-allreduce: ring (default) or NCCL's double
				   * binary tree */
	uint32_t qps_per_connection; /* ring-allreduce, alltoall: QPs per connection (1) */
	int32_t dscp;             /* -1: qos.data_dscp */
	uint32_t dst;             /* incast */
	struct scn_hostset senders; /* incast (default: all hosts but dst) */
	/* storage (NVMe-oF, fio's terms): initiators read from or write to
	 * targets, iodepth I/Os of bs bytes outstanding each, size bytes each */
	struct scn_hostset targets, initiators;
	enum scn_rw rw;
	int64_t rwmixread_ppb;    /* randrw: share of reads (50%) */
	int64_t bs_bytes;         /* I/O size (128KiB) */
	uint32_t iodepth;         /* I/Os outstanding per initiator (32) */
	sim_time_ps target_latency_ps; /* media time per I/O (80us) */
	int64_t target_iops;      /* a target's I/Os per second at most; SCN_AUTO: no limit */
	int64_t target_bw_bps;    /* a target's media bandwidth at most; 0: no limit */
	sim_time_ps runtime_ps;   /* storage: an initiator submits no I/O this long after
				   * the iteration's release (0: until size is moved) */
	/* training (docs/model.md#training): the model, its parallelism over
	 * ranks (tp x pp x dp of them, tp fastest) and the compute rate;
	 * 0 marks a required key not given */
	uint32_t layers;          /* transformer layers, a multiple of pp */
	int64_t hidden;           /* hidden size h, a multiple of tp */
	int64_t seq_len;          /* sequence length s */
	int64_t vocab;            /* vocabulary V (0: no embedding or output layer) */
	int64_t micro_batch;      /* sequences per micro-batch b (1) */
	int64_t global_batch;     /* sequences per step, a multiple of b x dp */
	uint32_t element_bytes;   /* bytes per activation and gradient element (2) */
	uint32_t tp, pp;          /* tensor- and pipeline-parallel degrees (1) */
	uint32_t experts;         /* mixture of experts: experts per layer (0: dense) */
	uint32_t top_k;           /* experts each token goes to (2) */
	uint32_t ep;              /* expert-parallel degree, dividing dp (1) */
	int64_t dp;               /* data-parallel degree; SCN_AUTO: ranks / (tp x pp) */
	int64_t gpu_tflops;       /* sustained TFLOP/s of a GPU; 0: not given */
	sim_time_ps layer_fwd_ps; /* a layer's forward on one GPU; 0: from the FLOPs */
	sim_time_ps layer_bwd_ps; /* its backward; 0: twice the forward */
	int64_t bucket_bytes;     /* data-parallel gradient bucket (25MiB) */
	int32_t ideal_network;    /* also run it alone on an ideal fabric (run.c) */
	enum scn_optimizer optimizer; /* all-reduce (default) or sharded */
	char file[4096];          /* trace: path resolved against the scenario's folder */
	struct scn_trace_row *rows;
	uint32_t nrows;
};

/*
 * [fault.NAME] (docs/contract.md#scenario-files, docs/model.md#pfc):
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

/*
 * What imported configurations (models/scenario/configs/config.h) leave in
 * the scenario beside the keys they set: the notes a reader of the results
 * must see (an ambiguous unit and the reading taken, an approximation, a
 * setting that does not apply), which scenario_print() writes as "# config:"
 * comments, and what scenario_export() keeps (the imported port and entry
 * names) and compares against (the imported files' text, for changes.txt).
 * Owned by the scenario (scenario_free); NULL when nothing was imported.
 */
#define SCN_CFG_NAME_LEN 128
enum scn_cfg_name {
	SCN_CFG_PROFILE,  /* BUFFER_PROFILE of the lossless PGs */
	SCN_CFG_POOL,     /* its BUFFER_POOL */
	SCN_CFG_WRED,     /* WRED_PROFILE of the ECN queues */
	SCN_CFG_DSCP_MAP, /* DSCP_TO_TC_MAP */
	SCN_CFG_TC_PG,    /* TC_TO_PRIORITY_GROUP_MAP */
	SCN_CFG_TC_QUEUE, /* TC_TO_QUEUE_MAP */
	SCN_CFG_PFC_QUEUE, /* MAP_PFC_PRIORITY_TO_QUEUE */
	SCN_CFG_NAMES
};
struct scn_imported {
	char *notes;                 /* one note per line, '\n'-terminated; NULL: none */
	char *switch_path, *switch_text; /* the config_db.json imported, as read */
	char *nic_path, *nic_text;   /* the cc_params imported, as read */
	char (*ports)[64];           /* the QoS tables' port names, in port order */
	uint32_t nports;
	int pfcwd_sw_enable;         /* PORT_QOS_MAP had pfcwd_sw_enable */
	int byte_reset_bytes;        /* rp_byte_reset was read as bytes (a B suffix) */
	char names[SCN_CFG_NAMES][SCN_CFG_NAME_LEN]; /* "" where none was read */
};

/* where a key's value came from: scenario_print names the keys of the
 * last three ("# set by ...") */
enum scn_origin {
	SCN_FROM_DEFAULT, SCN_FROM_FILE, SCN_FROM_SET, SCN_FROM_SWITCH_CONFIG, SCN_FROM_NIC_CONFIG
};

/* the keys of docs/contract.md#scenario-files (the loader's table) */
#define SCN_N_KEYS 163

struct scenario {
	enum scn_fabric fabric_type;  /* roce */
	struct scn_imported *imported; /* configurations imported (above); NULL: none */
	int64_t ib_vl_buffer_bytes;  /* receive buffer per port and VL (128KiB) */
	sim_time_ps ib_credit_delay_ps; /* buffer freed to credit update sent (100ns) */
	uint8_t ib_sl_to_vl[SCN_PRIOS];   /* VL of each SL (= priority); identity */
	uint32_t ib_vl_arb[SCN_PRIOS];    /* VL arbitration weights, 64 B units; all 0: off */
	/* ib.cc: congestion control, IBTA Annex A10 (docs/fabrics.md) */
	int32_t ib_cc;                    /* off */
	int64_t ib_threshold;             /* 0-15: a VL's queue of (16 - t)/16 vl_buffer is
					   * congested; 0: no marking (15) */
	int64_t ib_marking_rate;          /* one eligible packet in marking_rate + 1 (10) */
	int64_t ib_packet_size_bytes;     /* smaller frames are not marked (512B) */
	int32_t ib_victim_mask;           /* mark at ports that wait for credits too (off) */
	int64_t ib_ccti_increase;         /* per BECN (1) */
	int64_t ib_ccti_limit;            /* the CCT's last index (127) */
	int64_t ib_ccti_min;              /* (0) */
	int64_t ib_ccti_timer;            /* 1.024 us units (50) */
	/* [tcp] (fabric.type = ethernet-tcp) */
	int tcp_cc;                       /* enum scn_tcp_cc */
	int64_t tcp_mss_bytes;            /* payload per segment */
	int64_t tcp_init_cwnd;            /* segments */
	sim_time_ps tcp_rto_min_ps;
	sim_time_ps tcp_delack_ps;        /* delayed-ACK timeout; 0: ACK every segment */
	sim_time_ps tcp_stack_latency_ps; /* per message, before its first segment */
	char source[4096]; /* file path, or "<embedded default>" */
	/* the line of source that gave each scenario-wide key its value (index:
	 * the loader's key table, SCN_N_KEYS of them), 0 when it is the default
	 * or came from --set or a configuration: where a message of finalize
	 * points */
	int key_line[SCN_N_KEYS];
	/* where each scenario-wide key's value came from (enum scn_origin), and
	 * the importer running now (scenario_import_*: SCN_FROM_SWITCH_CONFIG
	 * or SCN_FROM_NIC_CONFIG; 0 otherwise) */
	uint8_t key_origin[SCN_N_KEYS];
	uint8_t importing;

	/* [sim] */
	sim_time_ps duration_ps;
	uint64_t seed;
	int32_t threads;             /* SCN_AUTO: the machine's cores (parallel.c) */
	int32_t partitions;          /* SCN_AUTO: by the fabric's size (parallel.c) */

	/* [topology] */
	enum scn_topo_kind topo;
	uint32_t spines, leaves, hosts_per_leaf; /* leaf-spine */
	uint32_t k;                              /* fat-tree: even, k^3/4 hosts */
	uint32_t star_hosts;                     /* star */
	uint32_t units, servers_per_unit;        /* rail-optimized */
	uint32_t uplinks_per_spine;              /* leaf-spine, rail-optimized: parallel links */
	uint32_t gpus_per_server;                /* hosts per server, joined by NVLink (1) */
	char topo_file[4096];                    /* file: the links CSV (links.h), resolved
						  * against the scenario's folder */
	struct graph *graph;                     /* file: its graph, read by the checks (owned;
						  * host_link, fabric_link and the cables
						  * then come from it) */
	char graph_path[4096];                   /* the file the graph was read from */
	int64_t nvlink_bps;                      /* per GPU per direction (3600Gbps) */
	sim_time_ps nvlink_latency_ps;           /* one NVLink transfer's latency (1us) */
	int64_t host_link_bps, fabric_link_bps;
	int64_t host_cable_mm, fabric_cable_mm;
	sim_time_ps switch_latency_ps;
	uint32_t mtu_bytes;                      /* RoCE payload per packet */
	enum scn_ecmp ecmp;

	/* [qos] */
	uint8_t data_dscp;
	int8_t tc_ecn_bits;                      /* the ECN bits of qos.nccl_ib_tc when given,
						  * else -1 (a warning's matter only) */
	uint8_t dscp_to_prio[64];                /* default dscp >> 3 */
	enum scn_sched scheduler;
	uint32_t dwrr_weights[SCN_PRIOS];        /* default all 1 */

	/* [buffer] (docs/model.md#buffer) */
	int64_t buffer_bytes;        /* size: shared buffer per switch (64MB) */
	int64_t reserved_bytes;      /* per (ingress port, PG); default one data frame (mtu + 62);
				      * SCN_AUTO until scenario_finalize() resolves it */
	int32_t dynamic_th;          /* lossless ingress alpha = 2^dynamic_th (0); -7..7 */
	int32_t lossy_dynamic_th;    /* lossy egress alpha = 2^lossy_dynamic_th (3); -7..7 */
	int64_t cell_bytes;          /* accounting cell, 0 = byte exact */

	/* [pfc] (docs/model.md#pfc) */
	uint8_t pfc_prios;           /* bit p: priority p is lossless (default 1 << 3); 0 = PFC off */
	int64_t headroom_bytes;      /* SCN_AUTO or bytes per lossless PG */
	int64_t xon_offset_bytes;    /* default two data frames (2 x (mtu + 62));
				      * SCN_AUTO until scenario_finalize() resolves it */
	uint32_t pause_quanta;       /* 1-65535, default 65535 */
	sim_time_ps response_ps;     /* SCN_AUTO or a time */

	/* [pfcwd] (docs/model.md#pfc-watchdog) */
	int pfcwd_enable;            /* true */
	sim_time_ps pfcwd_detect_ps; /* 200ms */
	sim_time_ps pfcwd_restore_ps;/* 400ms */
	sim_time_ps pfcwd_poll_ps;   /* 200ms */
	enum scn_pfcwd_action pfcwd_action; /* drop */

	/* [ecn] (docs/model.md#ecn) */
	uint8_t ecn_queues;          /* bit q: WRED/ECN on egress queue q (default 1 << 3); 0 = off */
	int64_t ecn_kmin_bytes;      /* 150KB */
	int64_t ecn_kmax_bytes;      /* 1500KB; must be above kmin */
	int64_t ecn_pmax_ppb;        /* 10% */
	enum scn_mark_point ecn_mark_point; /* dequeue */

	/* [nic] */
	enum scn_cc cc;              /* dcqcn */
	sim_time_ps nic_pause_watchdog_ps; /* 0 = off */
	sim_time_ps nic_rto_ps;      /* go-back-N retransmission timeout; SCN_AUTO (default):
				      * 4.096 us x 2^nic_ib_timeout (scenario_rto_ps) */
	int32_t nic_ib_timeout;      /* NCCL_IB_TIMEOUT, 1-31 (20) */
	int32_t nic_ib_retry_cnt;    /* NCCL_IB_RETRY_CNT, 0-7 (7): the QP errors at the
				      * (retry_cnt + 1)-th timeout in a row */
	uint32_t nic_qp_cache;       /* QPs with state at most, beyond those busy
				      * (1048576); 0: every QP keeps its state */

	/* [dcqcn] */
	enum scn_dcqcn_profile dcqcn_profile; /* nvidia */
	struct scn_dcqcn dcqcn;

	/* [qos] CNPs (docs/contract.md#scenario-files, docs/model.md#dcqcn) */
	uint8_t cnp_dscp;            /* 48 */
	int cnp_priority_strict;     /* true: CNPs go out ahead of all data */

	/* [output] */
	sim_time_ps sample_interval_ps; /* 10us: pause.csv and rates.csv intervals */
	uint32_t output_rates;       /* DCQCN state of at most this many flows in rates.csv (64) */
	enum scn_queues output_queues; /* queues.csv: switches (default), all, none */
	int output_flows;            /* flows.csv rows: 1 all (default), 0 none */
	struct scn_flowlist output_plot_qps; /* dcqcn.png's QPs; auto (n 0) */

	/* [criteria]: acceptance of a run (sweep marks each point pass/fail) */
	int64_t crit_max_ecn_mark_ppb;    /* ecn_mark_pct at most (2%, parts per 1e9) */
	int64_t crit_max_lossless_drops;  /* 0 */
	int64_t crit_min_busbw_ppb;       /* busbw_pct_line at least (95%), when a
					   * collective completed */
	int64_t crit_max_pause_frame_rate; /* frames/s; SCN_AUTO = no limit (default) */
	int64_t crit_max_drops;           /* drops of data in any class (not a failed
					   * link's): lossless + lossy + watchdog, 0 */
	int64_t crit_warmup_iterations;   /* first iterations of a collective job that
					   * busbw is not judged on (1) */
	enum scn_busbw_stat crit_busbw_stat; /* judged iterations' min (default) or mean */
	int64_t crit_max_retransmitted_ppb; /* retransmitted bytes at most this share of
					     * the payload delivered (1%, parts per 1e9) */

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
/* the text of the scenario file at path as scenario_load_file() reads it
 * (NUL-terminated; free it), its length into *len (may be NULL); NULL with
 * the message scenario_load_file() would give in err */
char *scenario_read_text(const char *path, size_t *len, struct scn_error *err);
/* "section.key=value", as given to --set */
int scenario_set(struct scenario *s, const char *assignment, struct scn_error *err);
int scenario_finalize(struct scenario *s, struct scn_error *err);
/* what a scenario is made of, in the order it is applied */
struct scenario_inputs {
	const char *path;            /* the scenario file; NULL: the embedded
				      * default, named SCENARIO_DEFAULT_NAME */
	const char *switch_config;   /* a SONiC config_db.json (config.h); NULL: none */
	const char *nic_config;      /* mlx5 cc_params (config.h); NULL: none */
	const char *const *sets;     /* --set assignments, sets[0..nsets) */
	int nsets;
	FILE *log;                   /* the configurations' lines (what they set and
				      * where from); NULL: none */
	const char *fabric;          /* `compare`: the fabric.type to load the scenario
				      * as (set before the file); keys of the file and
				      * of sets that do not apply to it are skipped,
				      * each named on log.  NULL: the file's. */
	/* the files' texts, read before (scenario_read_text, scenario_read_config):
	 * used instead of reading path, switch_config and nic_config again, which
	 * then only name them.  NULL: read the file. */
	const char *text, *switch_text, *nic_text;
};
/* the inputs into s (scenario_init'ed), not finalized; 0 or -1 with err */
int scenario_load_inputs(struct scenario *s, const struct scenario_inputs *in,
			 struct scn_error *err);
/* the same on the heap, finalized; NULL with the loader's message in err.
 * Free it with scenario_close(). */
struct scenario *scenario_open(const struct scenario_inputs *in, struct scn_error *err);
void scenario_close(struct scenario *s);

/* derived values */
uint32_t scenario_hosts(const struct scenario *s);
uint32_t scenario_switches(const struct scenario *s);
/* [topology] as the topology core takes it (topology.h) */
struct topo_shape scenario_topo_shape(const struct scenario *s);

/*
 * PFC and buffer derived values (docs/model.md#buffer, #pfc), shared by `check` and the
 * fabric assembly; the arithmetic is pfc.h's and mmu.h's.
 */
/* pfc.response_time for a port at rate_bps (auto: from the table) */
sim_time_ps scenario_response_ps(const struct scenario *s, int64_t rate_bps);
/* headroom of a lossless PG on a port at rate_bps with a cable of cable_mm:
 * pfc.headroom, or the auto formula of pfc.h */
int64_t scenario_headroom_bytes(const struct scenario *s, int64_t rate_bps, int64_t cable_mm);
/* the NIC's retransmission timeout: nic.rto, or 4.096 us x 2^nic.ib_timeout */
sim_time_ps scenario_rto_ps(const struct scenario *s);
/* shared pool of a switch with the given ports: buffer.size minus 8 PGs x
 * reserved per port minus one headroom per lossless priority per port, in
 * plain bytes (not cell-rounded); may be <= 0 (finalize rejects such scenarios with the arithmetic) */
int64_t scenario_pool_bytes(const struct scenario *s, uint32_t host_ports,
			    uint32_t fabric_ports);

/* the resolved scenario as an INI file that loads back to the same values */
void scenario_print(const struct scenario *s, FILE *out);
/* "# from the command line (--set, --vary, --tune): KEY, ..." and "# from
 * --switch-config PATH: ..." (and --nic-config): where the values that are
 * not the file's or defaults came from (key_origin); a run's scenario.ini
 * carries them.  Nothing when every value is the file's or a default. */
void scenario_print_origins(const struct scenario *s, FILE *out);
/* derived values (hosts, switches, BDP, goodput ceiling, headroom per port
 * class, pause times, shared pool per switch tier) as # comments */
void scenario_print_derived(const struct scenario *s, FILE *out);

/* The risky settings of a finalized scenario (docs/scenario.md#warnings): fn is
 * called once per warning, in a fixed order, with the key it is about and a
 * sentence saying what it risks and what would be safer.  Returns how many. */
typedef void (*scn_warn_fn)(void *ctx, const char *key, const char *text);
unsigned scenario_warnings(const struct scenario *s, scn_warn_fn fn, void *ctx);
/* one line per warning, "PREFIXKEY: TEXT"; returns how many */
unsigned scenario_write_warnings(const struct scenario *s, FILE *out, const char *prefix);
/* the warnings as `check` shows them: "# warnings: N", then "# KEY: TEXT" */
void scenario_print_warnings(const struct scenario *s, FILE *out);

/* the embedded default scenario (scenarios/default.ini, compiled in) */
extern const char scenario_default_text[];
#define SCENARIO_DEFAULT_NAME "scenarios/default.ini (embedded)"

#endif
