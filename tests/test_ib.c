/*
 * test_ib.c - fabric.type = infiniband: the loader's [fabric] and [ib]
 * keys, and credit-based link-level flow control against closed forms: no
 * drop in an incast whatever the buffer, the throughput a buffer below the
 * bandwidth-delay product allows, line rate above it, congestion spreading
 * to a victim flow, and the same outputs on 1, 2 and 3 threads.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "models/fabric/fabric.h"
#include "models/scenario/scenario.h"
#include "sim/run/run.h"
#include "testlib.h"

/* ---- the loader ---- */

static const struct tl_values ib_defaults_cases[] = {
	/* roce: today's defaults */
	{ "[sim]\nseed = 1\n",
	  { TL_FIELD(fabric_type, SCN_FABRIC_ROCE), TL_FIELD(pfc_prios, 1 << 3),
	    TL_FIELD(ecn_queues, 1 << 3), TL_FIELD(cc, SCN_CC_DCQCN), TL_FIELD(pfcwd_enable, 1),
	    TL_FIELD(ib_vl_buffer_bytes, 131072),
	    TL_FIELD(ib_credit_delay_ps, 100 * UNITS_PS_PER_NS) } },
	/* infiniband: no PFC, ECN, DCQCN, watchdog */
	{ "[fabric]\ntype = infiniband\n",
	  { TL_FIELD(fabric_type, SCN_FABRIC_IB), TL_FIELD(pfc_prios, 0), TL_FIELD(ecn_queues, 0),
	    TL_FIELD(cc, SCN_CC_NONE), TL_FIELD(pfcwd_enable, 0),
	    TL_FIELD(ib_vl_buffer_bytes, 131072),
	    TL_FIELD(ib_credit_delay_ps, 100 * UNITS_PS_PER_NS) } },
	/* its own defaults given explicitly are consistent */
	{ "[pfc]\npriorities =\n[ecn]\nqueues =\n[pfcwd]\nenable = false\n[nic]\ncc = none\n"
	  "[fabric]\ntype = infiniband\n[ib]\nvl_buffer = 8KiB\ncredit_update_delay = 0ns\n"
	  "sl_to_vl = 5:1,3:1\nvl_arbitration = 2,2,2,9,2,2,2,255\n",
	  { TL_FIELD(ib_sl_to_vl[5], 1), TL_FIELD(ib_sl_to_vl[3], 1), TL_FIELD(ib_sl_to_vl[4], 4),
	    TL_FIELD(ib_vl_arb[3], 9), TL_FIELD(ib_vl_arb[7], 255), TL_FIELD(fabric_type, SCN_FABRIC_IB), TL_FIELD(pfc_prios, 0), TL_FIELD(ecn_queues, 0),
	    TL_FIELD(cc, SCN_CC_NONE), TL_FIELD(pfcwd_enable, 0),
	    TL_FIELD(ib_vl_buffer_bytes, 8192), TL_FIELD(ib_credit_delay_ps, 0) } },
};
TL_VALUES_TEST(ib_defaults)

static const struct tl_case ib_errors_cases[] = {
	{ "[fabric]\ntype = ib\n", NULL,
	  "x.ini:2: fabric.type: ib is not valid (roce, infiniband, ethernet-tcp)" },
	{ "[ib]\nvl_buffer = 1MB\n", NULL,
	  "x.ini:2: ib.vl_buffer: only for fabric.type = infiniband (fabric.type is roce)" },
	{ "[ib]\ncredit_update_delay = 1us\n", NULL,
	  "x.ini:2: ib.credit_update_delay: only for fabric.type = infiniband (fabric.type is roce)" },
	{ "[fabric]\ntype = infiniband\n[ib]\nvl_buffer = 100B\n", NULL,
	  "x.ini:4: ib.vl_buffer: 100B out of range (256B-64GiB)" },
	{ "[fabric]\ntype = infiniband\n[ib]\nvl_buffer = 4KiB\n", NULL,
	  "x.ini:4: ib.vl_buffer: 4096B holds no data frame (at least 4160B: mtu + 62 B of "
	  "headers, in 64-byte credit blocks)" },
	{ "[fabric]\ntype = infiniband\n[ib]\ncredit_update_delay = 2ms\n", NULL,
	  "x.ini:4: ib.credit_update_delay: 2ms out of range (0-1ms)" },
	{ "[pfc]\npriorities = 3\n[fabric]\ntype = infiniband\n", NULL,
	  "x.ini:2: pfc.priorities: not on fabric.type = infiniband (credits, not pause frames, "
	  "keep it lossless)" },
	{ "[fabric]\ntype = infiniband\n[pfc]\nheadroom = 100KB\n", NULL,
	  "x.ini:4: pfc.headroom: not on fabric.type = infiniband (credits, not pause frames, "
	  "keep it lossless)" },
	{ "[fabric]\ntype = infiniband\n[ecn]\nqueues = 3\n", NULL,
	  "x.ini:4: ecn.queues: not on fabric.type = infiniband (no ECN marking: credits, not "
	  "congestion control, keep it lossless)" },
	{ "[fabric]\ntype = infiniband\n[nic]\ncc = dcqcn\n", NULL,
	  "x.ini:4: nic.cc: not on fabric.type = infiniband (no DCQCN: credits, not congestion "
	  "control, keep it lossless)" },
	{ "[fabric]\ntype = infiniband\n[dcqcn]\nrpg_gd = 12\n", NULL,
	  "x.ini:4: dcqcn.rpg_gd: not on fabric.type = infiniband (no DCQCN" },
	{ "[fabric]\ntype = infiniband\n[pfcwd]\nenable = true\n", NULL,
	  "x.ini:4: pfcwd.enable: not on fabric.type = infiniband (no pause frames to watch: "
	  "credits keep it lossless)" },
	{ "[fabric]\ntype = infiniband\n[nic]\npause_watchdog = 100ms\n", NULL,
	  "x.ini:4: nic.pause_watchdog: not on fabric.type = infiniband (no pause frames: credits "
	  "keep it lossless)" },
	{ "[fabric]\ntype = infiniband\n[fault.x]\nkind = pause-storm\nnode = h1\n", NULL,
	  "x.ini:4: fault.x.kind: pause-storm: not on fabric.type = infiniband (no pause frames)" },
	{ "[fabric]\ntype = infiniband\n[ib]\nsl_to_vl = 3:8\n", NULL,
	  "x.ini:4: ib.sl_to_vl: vl 8 out of range (0-7)" },
	{ "[fabric]\ntype = infiniband\n[ib]\nsl_to_vl = 9:1\n", NULL,
	  "x.ini:4: ib.sl_to_vl: sl 9 out of range (0-7)" },
	{ "[fabric]\ntype = infiniband\n[ib]\nsl_to_vl = 3\n", NULL,
	  "x.ini:4: ib.sl_to_vl: 3: expected sl:vl pairs, e.g. 3:1,5:1" },
	{ "[fabric]\ntype = infiniband\n[ib]\nvl_arbitration = 1,1,1,0,1,1,1,1\n", NULL,
	  "x.ini:4: ib.vl_arbitration: a VL with weight 0 would never send: give every VL a "
	  "weight of 1-255, or all 0 (off)" },
	{ "[fabric]\ntype = infiniband\n[ib]\nvl_arbitration = 1,1,1,256,1,1,1,1\n", NULL,
	  "x.ini:4: ib.vl_arbitration: weight 3: 256 out of range (0-255)" },
	{ "[fabric]\ntype = infiniband\n[qos]\nscheduler = dwrr\n[ib]\n"
	  "vl_arbitration = 1,1,1,1,1,1,1,1\n", NULL,
	  "x.ini:6: ib.vl_arbitration: switch ports arbitrate VLs by these weights, so "
	  "qos.scheduler stays strict (one arbitration at a time)" },
	{ "[ib]\nsl_to_vl = 3:1\n", NULL,
	  "x.ini:2: ib.sl_to_vl: only for fabric.type = infiniband (fabric.type is roce)" },
	{ "[fabric]\ntype = infiniband\n", "pfc.priorities=3",
	  "--set: pfc.priorities: not on fabric.type = infiniband (credits, not pause frames" },
	/* --set of the type itself: the defaults follow it */
	{ "[sim]\nseed = 1\n", "fabric.type=infiniband", NULL },
	/* like a [dcqcn] profile: a key holding the old type's default
	 * follows a later --set of the type; any other value is an error */
	{ "[nic]\ncc = dcqcn\n", "fabric.type=infiniband", NULL },
	{ "[ecn]\nqueues = 4\n", "fabric.type=infiniband",
	  "x.ini:2: ecn.queues: not on fabric.type = infiniband" }, /* the key's own line */
};
TL_CASES_TEST(ib_errors)

/* the resolved infiniband scenario prints [fabric] and [ib] and loads back;
 * a roce one prints neither (its scenario.ini is as before) */
START_TEST(ib_prints_and_loads_back)
{
	struct scenario *s = tl_load("[fabric]\ntype = infiniband\n[ib]\nvl_buffer = 16KiB\n");
	char *text = tl_print(s);
	ck_assert_ptr_nonnull(strstr(text, "[fabric]\ntype = infiniband\n"));
	ck_assert_ptr_nonnull(strstr(text, "[ib]\nvl_buffer = 16KiB\ncredit_update_delay = 100ns\n"));
	struct scenario *r = tl_load(text);
	ck_assert_int_eq(r->fabric_type, SCN_FABRIC_IB);
	ck_assert_int_eq(r->ib_vl_buffer_bytes, 16384);
	ck_assert_int_eq(r->pfc_prios, 0);
	free(text);
	tl_unload(r);
	tl_unload(s);
	struct scenario *d = tl_load("[sim]\nseed = 1\n");
	text = tl_print(d);
	ck_assert_ptr_null(strstr(text, "[fabric]"));
	ck_assert_ptr_null(strstr(text, "[ib]"));
	free(text);
	tl_unload(d);
}
END_TEST

/* scenario_inputs.fabric (compare): a scenario written for roce loads as
 * infiniband with its PFC, ECN, DCQCN and watchdog keys skipped, each
 * named with its line; a --set skipped likewise; an infiniband scenario
 * loads as roce without its [ib] keys */
START_TEST(forced_fabric_skips_foreign_keys)
{
	char path[] = "/tmp/dcqcn-ib-XXXXXX", *logbuf = NULL;
	size_t loglen = 0;
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	FILE *fp = fdopen(fd, "w");
	fputs("[pfc]\npriorities = 3\n[ecn]\nqueues = 3\nkmin = 50KB\n[nic]\ncc = dcqcn\n"
	      "[dcqcn]\nrpg_gd = 9\n[fabric]\ntype = roce\n[job.a]\npattern = incast\ndst = 0\n",
	      fp);
	fclose(fp);
	FILE *log = open_memstream(&logbuf, &loglen);
	const char *sets[] = { "ecn.kmax=900KB", "topology.spines=3" };
	struct scn_error e;
	struct scenario *s = scenario_open(&(struct scenario_inputs){ .path = path, .sets = sets,
								     .nsets = 2, .log = log,
								     .fabric = "infiniband" },
					   &e);
	fclose(log);
	ck_assert_msg(s != NULL, "%s", e.msg);
	ck_assert_int_eq(s->fabric_type, SCN_FABRIC_IB);
	ck_assert_int_eq(s->pfc_prios, 0);
	ck_assert_int_eq(s->ecn_queues, 0);
	ck_assert_int_eq(s->cc, SCN_CC_NONE);
	ck_assert_int_eq(s->spines, 3);
	char want[512];
	snprintf(want, sizeof(want),
		 "infiniband: %s:2: pfc.priorities skipped (credits, not pause frames, keep it "
		 "lossless)\n", path);
	ck_assert_msg(strstr(logbuf, want) != NULL, "%s", logbuf);
	snprintf(want, sizeof(want), "infiniband: %s:11: fabric.type skipped (the fabric is chosen "
		 "for the comparison)\n", path);
	ck_assert_msg(strstr(logbuf, want) != NULL, "%s", logbuf);
	ck_assert_msg(strstr(logbuf, "infiniband: --set ecn.kmax skipped (no ECN marking") != NULL,
		      "%s", logbuf);
	int lines = 0;
	for (const char *c = logbuf; *c; c++)
		lines += *c == '\n';
	ck_assert_int_eq(lines, 7); /* 6 keys of the file, one --set */
	free(logbuf);
	scenario_close(s);

	fp = fopen(path, "w");
	fputs("[fabric]\ntype = infiniband\n[ib]\nvl_buffer = 16KiB\n[job.a]\npattern = incast\n"
	      "dst = 0\n", fp);
	fclose(fp);
	s = scenario_open(&(struct scenario_inputs){ .path = path, .fabric = "roce" }, &e);
	ck_assert_msg(s != NULL, "%s", e.msg);
	ck_assert_int_eq(s->fabric_type, SCN_FABRIC_ROCE);
	ck_assert_int_eq(s->pfc_prios, 1 << 3);
	ck_assert_int_eq(s->ib_vl_buffer_bytes, 131072);
	scenario_close(s);
	unlink(path);
}
END_TEST

/* ---- the model ---- */

static void run_to_end(struct fabric *f)
{
	fabric_run_until(f, INT64_MAX);
	ck_assert(fabric_finished(f));
	tl_conserved(f);
}

static void no_drops(const struct fabric *f)
{
	struct net_stats st = tl_stats(f);
	ck_assert_uint_eq(st.drops.lossless, 0);
	ck_assert_uint_eq(st.drops.lossy, 0);
	ck_assert_uint_eq(st.drops.pfcwd, 0);
	ck_assert_uint_eq(st.drops.rx_discard, 0);
	ck_assert_uint_eq(st.pause_frames, 0);
	ck_assert_uint_eq(st.cc.ecn_marked, 0);
	ck_assert_uint_eq(st.payload_delivered, st.payload_injected);
}

/* N-to-1 incasts with a vl_buffer of two frames and a shared buffer far
 * too small for the roce model: every byte arrives, nothing is dropped,
 * and every switch's buffer accounting is back to zero (tl_conserved) */
START_TEST(incast_never_drops)
{
	static const char *const texts[] = {
		"[fabric]\ntype = infiniband\n[ib]\nvl_buffer = 8320B\n"
		"[topology]\nkind = star\nhosts = 16\n[buffer]\nsize = 2MB\n"
		"[job.in]\npattern = incast\ndst = 0\nsize = 2MB\n",
		"[fabric]\ntype = infiniband\n[ib]\nvl_buffer = 8320B\n"
		"[topology]\nspines = 2\nleaves = 4\nhosts_per_leaf = 8\nfabric_link = 100Gbps\n"
		"[buffer]\nsize = 4MB\n"
		"[job.in]\npattern = incast\ndst = 0\nsize = 500KB\n"
		"[job.a2a]\npattern = alltoall\nranks = 8-31\nsize = 24MB\n",
	};
	for (size_t k = 0; k < sizeof(texts) / sizeof(texts[0]); k++) {
		struct scenario *s = tl_load(texts[k]);
		struct fabric *f = tl_build(s);
		run_to_end(f);
		no_drops(f);
		ck_assert_uint_eq(fabric_flows_done(f), fabric_flows_total(f));
		fabric_destroy(f);
		tl_unload(s);
	}
}
END_TEST

/* one 4 MB flow h0 -> h1 across a star at 400G; fct and h0's stalls */
static sim_time_ps star_flow(const char *vl_buffer, sim_time_ps *stall)
{
	char text[512];
	snprintf(text, sizeof(text),
		 "[fabric]\ntype = infiniband\n[ib]\nvl_buffer = %s\n"
		 "[topology]\nkind = star\nhosts = 2\n"
		 "[job.one]\npattern = incast\nsenders = 0\ndst = 1\nsize = 4MB\n",
		 vl_buffer);
	struct scenario *s = tl_load(text);
	struct fabric *f = tl_build(s);
	struct tl_log log;
	tl_log_attach(f, &log);
	run_to_end(f);
	no_drops(f);
	const struct tl_flow *fl = tl_log_flow(&log, 0);
	ck_assert_int_eq(fl->rx_bytes, 4000000);
	sim_time_ps fct = fl->end_ps - fl->start_ps;
	fabric_pause_flush(f, f->parts[0].net.eng.now);
	*stall = fabric_paused_ps(f, f->parts[0].net.eng.now);
	tl_log_free(&log);
	fabric_destroy(f);
	tl_unload(s);
	return fct;
}

/*
 * A vl_buffer of 8 KiB = 128 blocks holds one data frame (4158 B = 65
 * blocks) but not two: h0 sends one frame per credit round trip of its
 * link to the switch, the longest of the two hops:
 *   S   frame serialization at 400G, 4178 B on the wire: 83.56 ns
 *   P   host cable, 3 m: 15 ns
 *   L   switch_latency: 500 ns
 *   S   the switch sends it on to h1; its buffer is freed at the end
 *   D   credit_update_delay: 100 ns
 *   Sc  the 64 B credit update (84 B on the wire): 1.68 ns
 *   P   back over the cable
 * = 798.80 ns per 4096 B of payload: 5.128 GB/s.  (The second hop's round
 * trip lacks L + S: it never binds.)  With the default 128 KiB, far above
 * the 49 GB/s x 0.8 us = 39 KB bandwidth-delay product, the flow runs at
 * line rate: the store-and-forward closed form of test_fabric.c, plus one
 * Sc on the switch's port to h1 for each credit update it sends h1 (for
 * h1's ACKs, one per 16 frames) ahead of the data: 61 x 1.68 ns at most.
 */
START_TEST(throughput_is_buffer_per_credit_round_trip)
{
	const sim_time_ps S = 83560, P = 15000, L = 500000, D = 100000, Sc = 1680;
	const sim_time_ps rt = S + P + L + S + D + Sc + P;
	ck_assert_int_eq(rt, 798800);
	sim_time_ps stall;
	sim_time_ps fct = star_flow("8KiB", &stall);
	double sim_gbs = 4e6 / ((double)fct * 1e-3);    /* GB/s: bytes per ns */
	double closed_gbs = 4096.0 / ((double)rt * 1e-3);
	ck_assert_msg(sim_gbs > closed_gbs * 0.99 && sim_gbs < closed_gbs * 1.01,
		      "simulated %.4f GB/s, closed form %.4f GB/s", sim_gbs, closed_gbs);
	/* h0 waits rt - S for credits after each of its 977 frames but the
	 * last: its stalled time is most of the run */
	double want_stall = 976.0 * (double)(rt - S);
	ck_assert_msg((double)stall > want_stall * 0.99 && (double)stall < want_stall * 1.01,
		      "stalled %lld ps, expected about %.0f", (long long)stall, want_stall);

	/* above the BDP: line rate, to the picosecond */
	const sim_time_ps full = (4096 + 82) * 20, last = (2304 + 82) * 20;
	fct = star_flow("128KiB", &stall);
	const sim_time_ps store_forward = 976 * full + last + 2 * P + L + full;
	ck_assert_int_ge(fct, store_forward);
	ck_assert_int_le(fct, store_forward + 61 * Sc);
	ck_assert_int_eq(stall, 0);
}
END_TEST

/*
 * Congestion spreads upstream as with PFC (scenarios/victim-flow.ini on
 * InfiniBand): six senders on leaf1 (h10-h15, 100G) send to h0 on leaf0,
 * and h9 on leaf1 sends to h1 on leaf0, through the same spine.  h0's link
 * takes 100G; leaf0's ingress VL from the spine fills with frames for h0,
 * its credits to the spine run out, and the spine's port to leaf0 can
 * send only as fast as leaf0 frees that VL: the victim's frames wait
 * behind the incast's in the spine's queue.  Alone, h9 -> h1 runs at its
 * host link's goodput (12.25 GB/s).  Behind the incast it gets about its
 * share of a queue that drains at h0's 100G: at least 1/7 of 12.25 GB/s
 * (1.75 GB/s: the seven senders' frames alternate in the spine's FIFO),
 * a little more since its own frames leave leaf0 at once (measured: 2.04
 * GB/s), far below the 12.25 GB/s of an uncongested path: under a quarter.
 */
static double victim_gbs(int with_incast)
{
	char text[1024];
	snprintf(text, sizeof(text),
		 "[fabric]\ntype = infiniband\n[ib]\nvl_buffer = 32KiB\n"
		 "[topology]\nspines = 1\nleaves = 2\nhosts_per_leaf = 8\nhost_link = 100Gbps\n"
		 "fabric_link = 400Gbps\n"
		 "[job.victim]\npattern = incast\ndst = 1\nsenders = 9\nsize = 8MB\n"
		 "%s",
		 with_incast ? "[job.incast]\npattern = incast\ndst = 0\nsenders = 10-15\n"
			       "size = 16MB\n"
			     : "");
	struct scenario *s = tl_load(text);
	struct fabric *f = tl_build(s);
	struct tl_log log;
	tl_log_attach(f, &log);
	run_to_end(f);
	no_drops(f);
	const struct tl_flow *fl = tl_log_flow(&log, 0);
	double gbs = (double)fl->bytes / ((double)(fl->end_ps - fl->start_ps) * 1e-3);
	tl_log_free(&log);
	fabric_destroy(f);
	tl_unload(s);
	return gbs;
}

/*
 * VLs at a congested port: h0 (DSCP 26, SL 3) and h1 (DSCP 40, SL 5) each
 * send 8 MB to h2 across a 100G star.  Returns the completion times of
 * h0's and h1's flows in units of T = 8 MB / goodput (0.653 ms).
 */
static void two_vls(const char *ib_keys, double *t_a, double *t_b)
{
	char text[1024];
	snprintf(text, sizeof(text),
		 "[fabric]\ntype = infiniband\n[ib]\n%s\n"
		 "[topology]\nkind = star\nhosts = 3\nhost_link = 100Gbps\n"
		 "[job.a]\npattern = incast\ndst = 2\nsenders = 0\nsize = 8MB\n"
		 "[job.b]\npattern = incast\ndst = 2\nsenders = 1\nsize = 8MB\ndscp = 40\n",
		 ib_keys);
	struct scenario *s = tl_load(text);
	struct fabric *f = tl_build(s);
	struct tl_log log;
	tl_log_attach(f, &log);
	run_to_end(f);
	no_drops(f);
	const double T = 8e6 / (100e9 / 8 * 4096.0 / 4178.0) * 1e12; /* ps */
	const struct tl_flow *a = tl_log_flow(&log, 0), *b = tl_log_flow(&log, 1);
	*t_a = (double)(a->end_ps - a->start_ps) / T;
	*t_b = (double)(b->end_ps - b->start_ps) / T;
	tl_log_free(&log);
	fabric_destroy(f);
	tl_unload(s);
}

/*
 * Strict priority between VLs (qos.scheduler's default): VL 5 leaves first,
 * h1's flow ends at T and h0's at 2T.  ib.sl_to_vl = 5:3 puts both on VL 3,
 * one FIFO: both end near 2T.  ib.vl_arbitration with VL 3 at 64 (4 KB:
 * one frame of 4158 B per turn) and VL 5 at 192 (12 KB: three frames, the
 * third overdrawing) gives h1 3/4 of the link: it ends at 4T/3, h0 at 2T.
 */
START_TEST(sl_to_vl_and_vl_arbitration)
{
	double a, b;
	two_vls("vl_buffer = 128KiB", &a, &b);
	ck_assert_msg(fabs(b - 1) < 0.02 && fabs(a - 2) < 0.02, "strict: a %.4f T, b %.4f T", a, b);
	two_vls("sl_to_vl = 5:3", &a, &b);
	ck_assert_msg(b > 1.9 && fabs(a - 2) < 0.02, "one VL: a %.4f T, b %.4f T", a, b);
	two_vls("vl_arbitration = 1,1,1,64,1,192,1,1", &a, &b);
	ck_assert_msg(fabs(b - 4.0 / 3) < 0.02 && fabs(a - 2) < 0.02,
		      "arbitration 1:3: a %.4f T, b %.4f T", a, b);
}
END_TEST

START_TEST(victim_flow_is_slowed_by_credit_back_pressure)
{
	const double goodput = 100e9 / 8 * 4096.0 / 4178.0 / 1e9; /* 12.255 GB/s */
	double alone = victim_gbs(0), behind = victim_gbs(1);
	ck_assert_msg(alone > goodput * 0.98 && alone <= goodput * 1.0001, "alone %.3f GB/s",
		      alone);
	ck_assert_msg(behind > goodput / 7 && behind < goodput / 4,
		      "behind the incast %.3f GB/s, expected %.3f-%.3f", behind, goodput / 7,
		      goodput / 4);
}
END_TEST

/* a slow receiver (fault slow-receiver) on InfiniBand holds back credits:
 * the sender runs at the drain rate, 10G: 977 frames of 4178 B on the
 * wire (the last 2386 B) in 3263.7 us, and nothing is dropped or paused */
START_TEST(slow_receiver_holds_back_credits)
{
	struct scenario *s = tl_load("[fabric]\ntype = infiniband\n[topology]\nkind = star\n"
				     "hosts = 2\n[job.one]\npattern = incast\nsenders = 0\ndst = 1\n"
				     "size = 4MB\n[fault.slow]\nkind = slow-receiver\nnode = h1\n"
				     "rate = 10Gbps\n");
	struct fabric *f = tl_build(s);
	struct tl_log log;
	tl_log_attach(f, &log);
	run_to_end(f);
	no_drops(f);
	const struct tl_flow *fl = tl_log_flow(&log, 0);
	const double drain_ps = (976.0 * 4178 + 2386) * 8 / 10e9 * 1e12;
	double fct = (double)(fl->end_ps - fl->start_ps);
	ck_assert_msg(fct > drain_ps && fct < drain_ps * 1.001, "fct %.0f ps, drain %.0f ps", fct,
		      drain_ps);
	tl_log_free(&log);
	fabric_destroy(f);
	tl_unload(s);
}
END_TEST

/* a fabric link that fails and comes back: the packets it lost are
 * retransmitted, nothing waits forever for credits that died with the link
 * (a restored link starts from vl_buffer; packets a spine could not route
 * while it was down give their credits back) */
START_TEST(link_down_leaks_no_credits)
{
	struct scenario *s = tl_load(
		"[fabric]\ntype = infiniband\n[ib]\nvl_buffer = 12KiB\n"
		"[topology]\nspines = 2\nleaves = 3\nhosts_per_leaf = 4\nfabric_link = 100Gbps\n"
		"[nic]\nrto = 200us\n"
		"[job.train]\npattern = ring-allreduce\nranks = 1-11\nsize = 16MB\n"
		"[job.incast]\npattern = incast\ndst = 0\nsenders = 4-11\nsize = 2MB\n"
		"[fault.cut]\nkind = link-down\nlink = leaf0-spine1\nstart = 100us\n"
		"duration = 300us\n");
	struct fabric *f = tl_build(s);
	run_to_end(f);
	ck_assert_uint_eq(fabric_flows_done(f), fabric_flows_total(f));
	struct net_stats st = tl_stats(f);
	ck_assert_uint_eq(st.drops.lossless + st.drops.lossy, 0);
	ck_assert_uint_gt(st.drops.link_down, 0);
	ck_assert_uint_eq(st.cc.qps_failed, 0);
	fabric_destroy(f);
	tl_unload(s);
}
END_TEST

/* outputs of an InfiniBand run do not depend on the threads */
START_TEST(threads_agree)
{
	static const char text[] =
		"[fabric]\ntype = infiniband\n[ib]\nvl_buffer = 16KiB\n"
		"[topology]\nspines = 2\nleaves = 3\nhosts_per_leaf = 4\nfabric_link = 100Gbps\n"
		"[job.ar]\npattern = ring-allreduce\nranks = 1-11\nsize = 8MB\n"
		"[job.in]\npattern = incast\ndst = 0\nsenders = 4-11\nsize = 1MB\n";
	struct run_result r[3];
	for (int k = 0; k < 3; k++) {
		struct scenario *s = tl_load(text);
		ck_assert_int_eq(run_scenario(s, &(struct run_opts){ .threads = (unsigned)k + 1 },
					      &r[k]),
				 RUN_OK);
		tl_unload(s);
	}
	for (int k = 1; k < 3; k++) {
		ck_assert_int_eq(r[0].sim_time_ps, r[k].sim_time_ps);
		ck_assert_int_eq(r[0].collective_time_ps, r[k].collective_time_ps);
		ck_assert_int_eq(r[0].fct_p99_ps, r[k].fct_p99_ps);
		ck_assert_int_eq(r[0].credit_stall_ps, r[k].credit_stall_ps);
		ck_assert_uint_eq(r[0].max_paused_ppm, r[k].max_paused_ppm);
	}
	ck_assert_int_gt(r[0].credit_stall_ps, 0);
	ck_assert_uint_eq(r[0].drops_lossless + r[0].drops_lossy, 0);
}
END_TEST

static Suite *make_ib_suite(void)
{
	Suite *s = suite_create("ib");
	TCase *tc = tcase_create("core");
	TL_ADD_CASES(tc, ib_defaults);
	TL_ADD_CASES(tc, ib_errors);
	tcase_add_test(tc, ib_prints_and_loads_back);
	tcase_add_test(tc, forced_fabric_skips_foreign_keys);
	tcase_add_test(tc, incast_never_drops);
	tcase_add_test(tc, throughput_is_buffer_per_credit_round_trip);
	tcase_add_test(tc, victim_flow_is_slowed_by_credit_back_pressure);
	tcase_add_test(tc, sl_to_vl_and_vl_arbitration);
	tcase_add_test(tc, slow_receiver_holds_back_credits);
	tcase_add_test(tc, link_down_leaks_no_credits);
	tcase_add_test(tc, threads_agree);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tl_run(make_ib_suite());
}
