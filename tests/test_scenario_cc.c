/*
 * test_scenario_cc.c - the scenario loader's congestion control keys:
 * [ecn], [dcqcn] and the CNP, nic.rto and output.rates keys
 * (docs/contract.md#scenario-files, docs/model.md#ecn, #dcqcn).
 *
 * What is pinned: the defaults, the three profiles against the B6 table
 * written out here independently, knobs overriding the profile before and
 * after it (and the documented rule for a later --set of the profile), bare
 * firmware numbers against values with units, every error class with its
 * exact prefix (kmax not above kmin in docs/contract.md's words, ECN off, CNP on the
 * data DSCP, [dcqcn] with nic.cc = none, ranges, inexact fractions, unknown
 * knob), and the same keys by --set.  Their printing: test_scenario_print.c.
 */
#include <check.h>
#include <stdlib.h>

#include "models/scenario/scenario.h"
#include "testlib.h"

/* ---- [ecn] and the CNP, nic.rto and output.rates keys ---- */

/* texts and the values they load to */
static const struct tl_values parsed_cases[] = {
	/* the defaults (docs/contract.md#scenario-files): ecn.queues 3, kmin 150KB,
	 * kmax 1500KB, pmax 10%, dequeue */
	{ "",
	  { TL_FIELD(ecn_queues, 1u << 3),
	    TL_FIELD(ecn_kmin_bytes, 150000),
	    TL_FIELD(ecn_kmax_bytes, 1500000),
	    TL_FIELD(ecn_pmax_ppb, 100000000),
	    TL_FIELD(ecn_mark_point, SCN_MARK_DEQUEUE),
	    /* qos.cnp_dscp 48, CNPs on a strict queue; nic.cc dcqcn; rto auto
	     * from ib_timeout 20, ib_retry_cnt 7 */
	    TL_FIELD(cnp_dscp, 48),
	    TL_FIELD(cnp_priority_strict, 1),
	    TL_FIELD(cc, SCN_CC_DCQCN),
	    TL_FIELD(nic_rto_ps, SCN_AUTO),
	    TL_FIELD(nic_ib_timeout, 20),
	    TL_FIELD(nic_ib_retry_cnt, 7),
	    TL_FIELD(output_rates, 64),
	    TL_FIELD(dcqcn_profile, SCN_DCQCN_NVIDIA) } },
	/* [ecn] */
	{ "[ecn]\nqueues = 7, 0,3\nkmin = 0B\nkmax = 64GiB\n"
	  "pmax = 100%\nmark_point = enqueue\n",
	  { TL_FIELD(ecn_queues, (1u << 0) | (1u << 3) | (1u << 7)),
	    TL_FIELD(ecn_kmin_bytes, 0),
	    TL_FIELD(ecn_kmax_bytes, INT64_C(68719476736)),
	    TL_FIELD(ecn_pmax_ppb, 1000000000),
	    TL_FIELD(ecn_mark_point, SCN_MARK_ENQUEUE) } },
	/* kmax 1 B above kmin is a (steep) WRED slope */
	{ "[ecn]\nkmin = 1.5KiB\nkmax = 1.537KB\npmax = 0.000000001\nmark_point = dequeue\n",
	  { TL_FIELD(ecn_kmin_bytes, 1536),
	    TL_FIELD(ecn_kmax_bytes, 1537),
	    TL_FIELD(ecn_pmax_ppb, 1),
	    TL_FIELD(ecn_mark_point, SCN_MARK_DEQUEUE) } },
	{ "[ecn]\npmax = 0.25\n",
	  { TL_FIELD(ecn_pmax_ppb, 250000000) } },
	/* empty: ECN off; the unused kmin/kmax are not compared */
	{ "[ecn]\nqueues =\n",
	  { TL_FIELD(ecn_queues, 0) } },
	/* the CNP keys, nic.cc, nic.rto, output.rates */
	{ "[qos]\ncnp_dscp = 0\ncnp_priority_strict = false\n"
	  "[nic]\ncc = none\nrto = 1us\n[output]\nrates = 0\n",
	  { TL_FIELD(cnp_dscp, 0),
	    TL_FIELD(cnp_priority_strict, 0),
	    TL_FIELD(cc, SCN_CC_NONE),
	    TL_FIELD(nic_rto_ps, 1000000),
	    TL_FIELD(output_rates, 0) } },
	{ "[qos]\ncnp_dscp = 63\ncnp_priority_strict = yes\n"
	  "[nic]\ncc = dcqcn\nrto = 10s\n[output]\nrates = 100000\n",
	  { TL_FIELD(cnp_dscp, 63),
	    TL_FIELD(cnp_priority_strict, 1),
	    TL_FIELD(cc, SCN_CC_DCQCN),
	    TL_FIELD(nic_rto_ps, INT64_C(10000000000000)),
	    TL_FIELD(output_rates, 100000) } },
};

TL_VALUES_TEST(parsed)

static const struct tl_case ecn_cases[] = {
	/* [ecn] */
	{ "[ecn]\nqueues = 3,4,3\n", NULL, "x.ini:2: ecn.queues: queue 3 listed twice" },
	{ "[ecn]\nqueues = 8\n", NULL, "x.ini:2: ecn.queues: 8 out of range (0-7)" },
	{ "[ecn]\nqueues = 3,,4\n", NULL,
	  "x.ini:2: ecn.queues: 3,,4 is not a list of queues (0-7, e.g. 3 or 3,4; empty = ECN off)" },
	{ "[ecn]\nkmin = 100\n", NULL, "x.ini:2: ecn.kmin: missing unit" },
	{ "[ecn]\nkmin = 68719476737B\n", NULL,
	  "x.ini:2: ecn.kmin: 68719476737B out of range (0-64GiB)" },
	{ "[ecn]\nkmax = 0B\n", NULL,
	  "x.ini:2: ecn.kmax: 0B out of range (above 0, at most 64GiB)" },
	{ "[ecn]\npmax = 0%\n", NULL,
	  "x.ini:2: ecn.pmax: 0% out of range (above 0, at most 100%)" },
	{ "[ecn]\npmax = 101%\n", NULL, "x.ini:2: ecn.pmax: 101% is above 1" },
	{ "[ecn]\npmax = 0.0000000001\n", NULL,
	  "x.ini:2: ecn.pmax: 0.0000000001 is not a whole number of parts per billion" },
	{ "[ecn]\nmark_point = egress\n", NULL,
	  "x.ini:2: ecn.mark_point: egress is not valid (dequeue, enqueue)" },
	{ "[ecn]\nkmin = 1KB\nkmin = 2KB\n", NULL,
	  "x.ini:3: ecn.kmin: given twice (first at line 2)" },
	/* ecn.kmax above ecn.kmin */
	/* the example of docs/contract.md#scenario-files, with the default kmin */
	{ "[sim]\n\n[ecn]\nkmax = 100KB\n", NULL,
	  "x.ini:4: ecn.kmax: 100KB must be above ecn.kmin (150KB)" },
	/* equal is not above */
	{ "[ecn]\nkmin = 1MB\nkmax = 1MB\n", NULL,
	  "x.ini:3: ecn.kmax: 1MB must be above ecn.kmin (1MB)" },
	/* the later key of the two is named */
	{ "[ecn]\nkmax = 1MB\nkmin = 2MB\n", NULL,
	  "x.ini:3: ecn.kmin: 2MB must be below ecn.kmax (1MB)" },
	{ "[ecn]\nkmin = 2MB\n", NULL, "x.ini:2: ecn.kmin: 2MB must be below ecn.kmax (1.5MB)" },
	/* ECN on queues given after: still checked */
	{ "[ecn]\nkmin = 2MB\nkmax = 1MB\nqueues = 3\n", NULL,
	  "x.ini:3: ecn.kmax: 1MB must be above ecn.kmin (2MB)" },
	/* --set: checked at finalize, so kmin and kmax may move in any order */
	{ NULL, "ecn.kmax=100KB", "--set: ecn.kmax: 100KB must be above ecn.kmin (150KB)" },
	{ "[ecn]\nkmin = 100KB\nkmax = 200KB\n", "ecn.kmin=200KB",
	  "--set: ecn.kmax: 200KB must be above ecn.kmin (200KB)" },
	/* [ecn] keys while ECN is off */
	{ "[ecn]\nqueues =\nkmin = 100KB\n", NULL,
	  "x.ini:3: ecn.kmin: ECN is off (ecn.queues is empty)" },
	/* in any order; the earliest line */
	{ "[ecn]\nmark_point = enqueue\npmax = 5%\nqueues =\n", NULL,
	  "x.ini:2: ecn.mark_point: ECN is off (ecn.queues is empty)" },
	{ "[ecn]\nkmax = 1MB\nqueues =\n", NULL,
	  "x.ini:2: ecn.kmax: ECN is off (ecn.queues is empty)" },
	{ "[ecn]\nqueues =\n", "ecn.pmax=5%",
	  "--set: ecn.pmax: ECN is off (ecn.queues is empty; set ecn.queues first)" },
	{ "[ecn]\nqueues = 1\nkmin = 1KB\nkmax = 2KB\npmax = 1%\nmark_point = enqueue\n", NULL,
	  NULL },
	/* the CNP keys, nic.cc, nic.rto, output.rates */
	{ "[qos]\ncnp_dscp = 64\n", NULL, "x.ini:2: qos.cnp_dscp: 64 out of range (0-63)" },
	{ "[qos]\ncnp_priority_strict = maybe\n", NULL,
	  "x.ini:2: qos.cnp_priority_strict: 'maybe' is not a boolean" },
	{ "[nic]\ncc = timely\n", NULL, "x.ini:2: nic.cc: timely is not valid (none, dcqcn)" },
	{ "[nic]\nrto = 999ns\n", NULL, "x.ini:2: nic.rto: 999ns out of range (auto, or 1us-10000s)" },
	{ "[nic]\nrto = 10000.001s\n", NULL,
	  "x.ini:2: nic.rto: 10000.001s out of range (auto, or 1us-10000s)" },
	{ "[nic]\nib_timeout = 0\n", NULL, "x.ini:2: nic.ib_timeout: " },
	{ "[nic]\nib_timeout = 32\n", NULL, "x.ini:2: nic.ib_timeout: " },
	{ "[nic]\nib_retry_cnt = 8\n", NULL, "x.ini:2: nic.ib_retry_cnt: " },
	{ "[nic]\nrto = 4\n", NULL, "x.ini:2: nic.rto: missing unit" },
	{ "[output]\nrates = 100001\n", NULL,
	  "x.ini:2: output.rates: 100001 out of range (0-100000)" },
	{ "[output]\nrates = -1\n", NULL, "x.ini:2: output.rates: -1 out of range (0-100000)" },
	{ "[output]\nrates = 64flows\n", NULL, "x.ini:2: output.rates: 64flows is not an integer" },
	/* CNPs on the data DSCP: the later key given is named */
	{ "[qos]\ncnp_dscp = 26\n", NULL,
	  "x.ini:2: qos.cnp_dscp: 26 is also qos.data_dscp (CNPs need a DSCP of their own)" },
	{ "[qos]\ncnp_dscp = 10\n\ndata_dscp = 10\n", NULL,
	  "x.ini:4: qos.data_dscp: DSCP 10 is also qos.cnp_dscp (CNPs need a DSCP of their own)" },
	{ "[qos]\ndata_dscp = 48\n", NULL, "x.ini:2: qos.data_dscp: DSCP 48 is also qos.cnp_dscp" },
	/* 194 = DSCP 48 << 2 | ECT(0) */
	{ "[qos]\nnccl_ib_tc = 194\n", NULL,
	  "x.ini:2: qos.nccl_ib_tc: DSCP 48 is also qos.cnp_dscp" },
	/* an error whatever nic.cc */
	{ "[nic]\ncc = none\n[qos]\ndata_dscp = 48\n", NULL,
	  "x.ini:4: qos.data_dscp: DSCP 48 is also qos.cnp_dscp" },
	/* moved apart: fine; a job's own DSCP may be the CNP's (an experiment) */
	{ "[qos]\ndata_dscp = 48\ncnp_dscp = 46\n[job.a]\npattern = incast\ndscp = 46\n", NULL,
	  NULL },
	/* --set: at finalize, in either order */
	{ NULL, "qos.cnp_dscp=26",
	  "--set: qos.cnp_dscp: 26 is also qos.data_dscp (CNPs need a DSCP of their own)" },
	{ NULL, "qos.nccl_ib_tc=192", "--set: qos.cnp_dscp: 48 is also qos.data_dscp" },
	/* dcqcn.cut_on and dcqcn.rate_change_reschedules: values, and the timer
	 * needs a period; the later key given is named, cut_on at --set */
	{ "[dcqcn]\ncut_on = sometimes\n", NULL,
	  "x.ini:2: dcqcn.cut_on: sometimes is not valid (cnp, timer)" },
	{ "[dcqcn]\nrate_change_reschedules = maybe\n", NULL,
	  "x.ini:2: dcqcn.rate_change_reschedules: 'maybe' is not a boolean" },
	{ "[dcqcn]\nprofile = hpcc\nrate_reduce_monitor_period = 0\n", NULL,
	  "x.ini:3: dcqcn.rate_reduce_monitor_period: 0 with dcqcn.cut_on = timer (the timer's "
	  "period: above 0, at most 1s; or cut_on = cnp)" },
	{ "[dcqcn]\nrate_reduce_monitor_period = 0\ncut_on = timer\n", NULL,
	  "x.ini:3: dcqcn.cut_on: timer needs dcqcn.rate_reduce_monitor_period above 0 (the "
	  "timer's period, at most 1s); it is 0" },
	{ "[dcqcn]\nprofile = hpcc\nrate_reduce_monitor_period = 0\ncut_on = cnp\n", NULL, NULL },
	{ "[dcqcn]\nprofile = hpcc\nrate_reduce_monitor_period = 0\ncut_on = cnp\n",
	  "dcqcn.cut_on=timer",
	  "--set: dcqcn.cut_on: timer needs dcqcn.rate_reduce_monitor_period above 0" },
	/* no reaction point: nothing to check */
	{ "[dcqcn]\nprofile = hpcc\nrate_reduce_monitor_period = 0\ncut_on = cnp\n",
	  "nic.cc=none", NULL },
	{ "[dcqcn]\nprofile = hpcc\n", "dcqcn.rate_reduce_monitor_period=0",
	  "--set: dcqcn.cut_on: timer needs dcqcn.rate_reduce_monitor_period above 0" },
};

TL_CASES_TEST(ecn)

START_TEST(test_ecn_kmax_kmin)
{
	struct scenario *s;
	struct scn_error err;

	/* the exact message of docs/contract.md#scenario-files's example */
	ck_assert_ptr_null(tl_scn_try("[ecn]\nkmax = 100KB\n", &err));
	ck_assert_str_eq(err.msg, "x.ini:2: ecn.kmax: 100KB must be above ecn.kmin (150KB)");
	/* --set: in either order */
	s = tl_scn_new();
	ck_assert_int_eq(scenario_set(s, "ecn.kmin=2MB", &err), 0);
	ck_assert_int_eq(scenario_set(s, "ecn.kmax=3MB", &err), 0);
	ck_assert_msg(scenario_finalize(s, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(s->ecn_kmin_bytes, 2000000);
	ck_assert_int_eq(s->ecn_kmax_bytes, 3000000);
	/* ECN turned off by --set: the old values are unused */
	ck_assert_int_eq(scenario_set(s, "ecn.kmin=4MB", &err), 0);
	ck_assert_int_eq(scenario_finalize(s, &err), -1);
	ck_assert_int_eq(scenario_set(s, "ecn.queues=", &err), 0);
	ck_assert_msg(scenario_finalize(s, &err) == 0, "%s", err.msg);
	tl_unload(s);
}
END_TEST

/* --set: the data DSCP may move onto the CNP one if the CNP one moves too */
START_TEST(test_cnp_dscp_moved_apart)
{
	struct scenario *s = tl_scn_new();
	struct scn_error err;

	ck_assert_int_eq(scenario_set(s, "qos.data_dscp=48", &err), 0);
	ck_assert_int_eq(scenario_set(s, "qos.cnp_dscp=40", &err), 0);
	ck_assert_msg(scenario_finalize(s, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(s->data_dscp, 48);
	ck_assert_uint_eq(s->cnp_dscp, 40);
	tl_unload(s);
}
END_TEST

/* ---- [dcqcn] (docs/model.md#dcqcn) ---- */

#define US INT64_C(1000000) /* ps */
#define MB_S INT64_C(1000000) /* bps in 1 Mbps */

/* the knobs of one profile, in base units */
struct knobs {
	int64_t time_reset_ps, byte_reset;
	uint32_t threshold;
	int64_t ai, hai;
	uint32_t gd, min_dec_fac;
	int64_t min_rate;
	uint32_t g;
	int64_t rtt_ps, monitor_ps;
	uint32_t alpha;
	int64_t first_cnp;
	int clamp, clamp_time;
	int64_t cnps_ps;
};

/* docs/model.md#dcqcn table, written out independently of the loader */
static const struct knobs nvidia_knobs = {
	300 * US, 32767 * 64, 1, 5 * MB_S, 50 * MB_S, 11, 50, 1 * MB_S, 1019, 1 * US, 4 * US,
	1023, 0, 0, 1, 4 * US,
};
static const struct knobs paper_knobs = {
	55 * US, 10000000, 5, 40 * MB_S, 200 * MB_S, 11, 0, 1 * MB_S, 1020, 55 * US, 0,
	1023, 0, 1, 1, 50 * US,
};
static const struct knobs hpcc_knobs = {
	300 * US, 0, 1, 20 * MB_S, 200 * MB_S, 11, 0, 1000 * MB_S, 1020, 1 * US, 4 * US,
	1023, 0, 0, 1, 0,
};

static void check_knobs(const struct scn_dcqcn *d, const struct knobs *k)
{
	ck_assert_int_eq(d->rpg_time_reset_ps, k->time_reset_ps);
	ck_assert_int_eq(d->rpg_byte_reset_bytes, k->byte_reset);
	ck_assert_uint_eq(d->rpg_threshold, k->threshold);
	ck_assert_int_eq(d->rpg_ai_rate_bps, k->ai);
	ck_assert_int_eq(d->rpg_hai_rate_bps, k->hai);
	ck_assert_uint_eq(d->rpg_gd, k->gd);
	ck_assert_uint_eq(d->rpg_min_dec_fac_pct, k->min_dec_fac);
	ck_assert_int_eq(d->rpg_min_rate_bps, k->min_rate);
	ck_assert_uint_eq(d->dce_tcp_g, k->g);
	ck_assert_int_eq(d->dce_tcp_rtt_ps, k->rtt_ps);
	ck_assert_int_eq(d->rate_reduce_monitor_period_ps, k->monitor_ps);
	ck_assert_uint_eq(d->initial_alpha_value, k->alpha);
	ck_assert_int_eq(d->rate_to_set_on_first_cnp_bps, k->first_cnp);
	ck_assert_int_eq(d->clamp_tgt_rate, k->clamp);
	ck_assert_int_eq(d->clamp_tgt_rate_after_time_inc, k->clamp_time);
	ck_assert_int_eq(d->min_time_between_cnps_ps, k->cnps_ps);
}

START_TEST(test_dcqcn_profiles)
{
	struct scenario *s = tl_scn_new();

	/* scenario_init: nvidia */
	ck_assert_int_eq(s->dcqcn_profile, SCN_DCQCN_NVIDIA);
	check_knobs(&s->dcqcn, &nvidia_knobs);
	ck_assert_int_eq(s->dcqcn.rpg_byte_reset_bytes, 2097088);
	ck_assert_int_eq(s->dcqcn.rpg_ai_rate_bps, 5000000);
	ck_assert_int_eq(s->dcqcn.cnp_scope, SCN_CNP_SCOPE_QP);
	tl_unload(s);
	s = tl_scn_ok("[dcqcn]\nprofile = nvidia\n");
	check_knobs(&s->dcqcn, &nvidia_knobs);
	tl_unload(s);
	s = tl_scn_ok("[dcqcn]\nprofile = paper\n");
	ck_assert_int_eq(s->dcqcn_profile, SCN_DCQCN_PAPER);
	check_knobs(&s->dcqcn, &paper_knobs);
	ck_assert_int_eq(s->dcqcn.cnp_scope, SCN_CNP_SCOPE_QP);
	tl_unload(s);
	s = tl_scn_ok("[dcqcn]\nprofile = hpcc\n");
	ck_assert_int_eq(s->dcqcn_profile, SCN_DCQCN_HPCC);
	check_knobs(&s->dcqcn, &hpcc_knobs);
	tl_unload(s);
	/* back and forth in --set: each profile's own defaults */
	s = tl_scn_new();
	{
		struct scn_error err;

		ck_assert_int_eq(scenario_set(s, "dcqcn.profile=hpcc", &err), 0);
		check_knobs(&s->dcqcn, &hpcc_knobs);
		ck_assert_int_eq(scenario_set(s, "dcqcn.profile=paper", &err), 0);
		check_knobs(&s->dcqcn, &paper_knobs);
		ck_assert_int_eq(scenario_set(s, "dcqcn.profile=nvidia", &err), 0);
		check_knobs(&s->dcqcn, &nvidia_knobs);
	}
	tl_unload(s);
}
END_TEST

START_TEST(test_dcqcn_knob_overrides_profile)
{
	struct knobs want = paper_knobs;
	struct scenario *s;
	struct scn_error err;

	/* before and after `profile`: the knob wins either way, even a knob
	 * given with the old profile's default (5 Mbps is nvidia's) */
	s = tl_scn_ok("[dcqcn]\nrpg_ai_rate = 5\nrpg_threshold = 3\nprofile = paper\nrpg_min_rate = 2\n");
	want.ai = 5 * MB_S;
	want.threshold = 3;
	want.min_rate = 2 * MB_S;
	check_knobs(&s->dcqcn, &want);
	tl_unload(s);
	/* cnp_scope is not a profile setting */
	s = tl_scn_ok("[dcqcn]\ncnp_scope = port\nprofile = hpcc\n");
	ck_assert_int_eq(s->dcqcn.cnp_scope, SCN_CNP_SCOPE_PORT);
	check_knobs(&s->dcqcn, &hpcc_knobs);
	tl_unload(s);

	/* --set of a knob over a file's profile */
	s = tl_scn_new();
	ck_assert_int_eq(scenario_load_string(s, "x.ini", "[dcqcn]\nprofile = paper\n", &err), 0);
	ck_assert_int_eq(scenario_set(s, "dcqcn.rpg_ai_rate=10", &err), 0);
	ck_assert_msg(scenario_finalize(s, &err) == 0, "%s", err.msg);
	want = paper_knobs;
	want.ai = 10 * MB_S;
	check_knobs(&s->dcqcn, &want);
	tl_unload(s);

	/* --set of the profile over a file's knobs: knobs whose value differs
	 * from the old profile's default are kept, the others follow the new
	 * profile (a knob given with exactly the old default follows too:
	 * struct scenario does not record what was given) */
	s = tl_scn_new();
	ck_assert_int_eq(scenario_load_string(s, "x.ini",
					      "[dcqcn]\nrpg_ai_rate = 10\nrpg_hai_rate = 50\n", &err), 0);
	ck_assert_int_eq(scenario_set(s, "dcqcn.profile=paper", &err), 0);
	ck_assert_msg(scenario_finalize(s, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(s->dcqcn_profile, SCN_DCQCN_PAPER);
	want = paper_knobs;
	want.ai = 10 * MB_S; /* kept */
	check_knobs(&s->dcqcn, &want); /* hai: 200 Mbps, the paper's */
	tl_unload(s);

	/* a knob --set before the profile --set is kept too */
	s = tl_scn_new();
	ck_assert_int_eq(scenario_set(s, "dcqcn.rpg_gd=12", &err), 0);
	ck_assert_int_eq(scenario_set(s, "dcqcn.profile=hpcc", &err), 0);
	want = hpcc_knobs;
	want.gd = 12;
	check_knobs(&s->dcqcn, &want);
	tl_unload(s);
}
END_TEST

/* knobs with a unit or bare in their firmware unit, and the values they load to */
static const struct tl_values knob_cases[] = {
	/* every knob, with a unit or bare */
	{ "[dcqcn]\nrpg_time_reset = 300us\nrpg_byte_reset = 2MB\n"
	  "rpg_ai_rate = 5Mbps\nrpg_hai_rate = 1.5Gbps\nrpg_min_rate = 2.5\n"
	  "dce_tcp_rtt = 1.5\nrate_reduce_monitor_period = 0.5ms\n"
	  "rate_to_set_on_first_cnp = 100Gbps\nmin_time_between_cnps = 0\n"
	  "clamp_tgt_rate = true\nclamp_tgt_rate_after_time_inc = 0\n"
	  "rpg_threshold = 31\nrpg_gd = 20\nrpg_min_dec_fac = 100\n"
	  "dce_tcp_g = 0\ninitial_alpha_value = 0\ncnp_scope = qp\n",
	  { TL_FIELD(dcqcn.rpg_time_reset_ps, 300 * US),
	    TL_FIELD(dcqcn.rpg_byte_reset_bytes, 2000000), /* exact, not a multiple of 64 */
	    TL_FIELD(dcqcn.rpg_ai_rate_bps, 5000000),
	    TL_FIELD(dcqcn.rpg_hai_rate_bps, 1500000000),
	    TL_FIELD(dcqcn.rpg_min_rate_bps, 2500000),
	    TL_FIELD(dcqcn.dce_tcp_rtt_ps, 1500000),
	    TL_FIELD(dcqcn.rate_reduce_monitor_period_ps, 500 * US),
	    TL_FIELD(dcqcn.rate_to_set_on_first_cnp_bps, INT64_C(100000000000)),
	    TL_FIELD(dcqcn.min_time_between_cnps_ps, 0),
	    TL_FIELD(dcqcn.clamp_tgt_rate, 1),
	    TL_FIELD(dcqcn.clamp_tgt_rate_after_time_inc, 0),
	    TL_FIELD(dcqcn.rpg_threshold, 31),
	    TL_FIELD(dcqcn.rpg_gd, 20),
	    TL_FIELD(dcqcn.rpg_min_dec_fac_pct, 100),
	    TL_FIELD(dcqcn.dce_tcp_g, 0),
	    TL_FIELD(dcqcn.initial_alpha_value, 0) } },
	/* bare numbers: us, Mbps, 64-byte units; exact fractions allowed */
	{ "[dcqcn]\nrpg_time_reset = 1.000001\nrpg_byte_reset = 1.5\nrpg_ai_rate = 0\n"
	  "rpg_hai_rate = 1.001\nrate_to_set_on_first_cnp = 0Mbps\n"
	  "min_time_between_cnps = 1000000\nrpg_min_rate = 1600000\n"
	  "dce_tcp_rtt = 1\nrate_reduce_monitor_period = 0.000001\n",
	  { TL_FIELD(dcqcn.rpg_time_reset_ps, 1000001),
	    TL_FIELD(dcqcn.rpg_byte_reset_bytes, 96),
	    TL_FIELD(dcqcn.rpg_ai_rate_bps, 0),
	    TL_FIELD(dcqcn.rpg_hai_rate_bps, 1001000),
	    TL_FIELD(dcqcn.rate_to_set_on_first_cnp_bps, 0),
	    TL_FIELD(dcqcn.min_time_between_cnps_ps, UNITS_PS_PER_S),
	    TL_FIELD(dcqcn.rpg_min_rate_bps, INT64_C(1600000000000)),
	    TL_FIELD(dcqcn.dce_tcp_rtt_ps, 1000000),
	    TL_FIELD(dcqcn.rate_reduce_monitor_period_ps, 1) } },
	/* the firmware default written both ways */
	{ "[dcqcn]\nrpg_byte_reset = 32767\n",
	  { TL_FIELD(dcqcn.rpg_byte_reset_bytes, 2097088) } },
	{ "[dcqcn]\nrpg_byte_reset = 2097088B\nrpg_ai_rate = 0.005Gbps\n",
	  { TL_FIELD(dcqcn.rpg_byte_reset_bytes, 2097088),
	    TL_FIELD(dcqcn.rpg_ai_rate_bps, 5000000) } },
	/* 0 = off for the byte counter, either way */
	{ "[dcqcn]\nrpg_byte_reset = 0B\n",
	  { TL_FIELD(dcqcn.rpg_byte_reset_bytes, 0) } },
};

TL_VALUES_TEST(knob)

static const struct tl_case dcqcn_cases[] = {
	/* [dcqcn] */
	/* unknown knob */
	{ "[dcqcn]\nrpg_foo = 1\n", NULL, "x.ini:2: dcqcn.rpg_foo: unknown key" },
	{ "[dcqcn]\nRPG_AI_RATE = 5\n", NULL, "x.ini:2: dcqcn.RPG_AI_RATE: unknown key" },
	{ NULL, "dcqcn.alpha=1", "--set: dcqcn.alpha: unknown key" },
	/* enums and flags */
	{ "[dcqcn]\nprofile = mellanox\n", NULL,
	  "x.ini:2: dcqcn.profile: mellanox is not valid (nvidia, paper, hpcc)" },
	{ "[dcqcn]\ncnp_scope = host\n", NULL,
	  "x.ini:2: dcqcn.cnp_scope: host is not valid (qp, port)" },
	{ "[dcqcn]\nclamp_tgt_rate = 2\n", NULL,
	  "x.ini:2: dcqcn.clamp_tgt_rate: '2' is not a boolean" },
	{ "[dcqcn]\nprofile = paper\nprofile = hpcc\n", NULL,
	  "x.ini:3: dcqcn.profile: given twice (first at line 2)" },
	/* integers */
	{ "[dcqcn]\nrpg_threshold = 0\n", NULL,
	  "x.ini:2: dcqcn.rpg_threshold: 0 out of range (1-31)" },
	{ "[dcqcn]\nrpg_threshold = 32\n", NULL,
	  "x.ini:2: dcqcn.rpg_threshold: 32 out of range (1-31)" },
	{ "[dcqcn]\nrpg_gd = 9\n", NULL, "x.ini:2: dcqcn.rpg_gd: 9 out of range (10-20)" },
	{ "[dcqcn]\nrpg_gd = 21\n", NULL, "x.ini:2: dcqcn.rpg_gd: 21 out of range (10-20)" },
	{ "[dcqcn]\nrpg_min_dec_fac = 101\n", NULL,
	  "x.ini:2: dcqcn.rpg_min_dec_fac: 101 out of range (0-100)" },
	{ "[dcqcn]\ndce_tcp_g = 1024\n", NULL,
	  "x.ini:2: dcqcn.dce_tcp_g: 1024 out of range (0-1023)" },
	{ "[dcqcn]\ndce_tcp_g = 1019.5\n", NULL,
	  "x.ini:2: dcqcn.dce_tcp_g: 1019.5 is not an integer" },
	{ "[dcqcn]\ninitial_alpha_value = 1024\n", NULL,
	  "x.ini:2: dcqcn.initial_alpha_value: 1024 out of range (0-1023)" },
	/* rates: 0 or 1Mbps-1600Gbps; rpg_min_rate at least 1Mbps */
	{ "[dcqcn]\nrpg_ai_rate = 0.5\n", NULL,
	  "x.ini:2: dcqcn.rpg_ai_rate: 0.5 out of range (0 or 1Mbps-1600Gbps; a bare number is Mbps)" },
	{ "[dcqcn]\nrpg_hai_rate = 999Kbps\n", NULL,
	  "x.ini:2: dcqcn.rpg_hai_rate: 999Kbps out of range" },
	{ "[dcqcn]\nrpg_hai_rate = 1601Gbps\n", NULL,
	  "x.ini:2: dcqcn.rpg_hai_rate: 1601Gbps out of range" },
	{ "[dcqcn]\nrpg_min_rate = 0\n", NULL,
	  "x.ini:2: dcqcn.rpg_min_rate: 0 out of range (1Mbps-1600Gbps; a bare number is Mbps)" },
	{ "[dcqcn]\nrpg_min_rate = 0Mbps\n", NULL,
	  "x.ini:2: dcqcn.rpg_min_rate: 0Mbps out of range" },
	{ "[dcqcn]\nrate_to_set_on_first_cnp = 1600001\n", NULL,
	  "x.ini:2: dcqcn.rate_to_set_on_first_cnp: 1600001 out of range (0 (keep the rate) or 1Mbps-1600Gbps" },
	{ "[dcqcn]\nrpg_ai_rate = -5\n", NULL, "x.ini:2: dcqcn.rpg_ai_rate: -5Mbps is negative" },
	{ "[dcqcn]\nrpg_ai_rate = 5Gb\n", NULL, "x.ini:2: dcqcn.rpg_ai_rate: unknown unit 'Gb'" },
	/* times: 0-1s; the increase timer and the alpha period above 0 */
	{ "[dcqcn]\nrpg_time_reset = 0\n", NULL,
	  "x.ini:2: dcqcn.rpg_time_reset: 0 out of range (above 0, at most 1s; a bare number is us)" },
	{ "[dcqcn]\ndce_tcp_rtt = 0us\n", NULL,
	  "x.ini:2: dcqcn.dce_tcp_rtt: 0us out of range (above 0" },
	{ "[dcqcn]\nmin_time_between_cnps = 1000001\n", NULL,
	  "x.ini:2: dcqcn.min_time_between_cnps: 1000001 out of range (0-1s; a bare number is us)" },
	{ "[dcqcn]\nrate_reduce_monitor_period = 1.001s\n", NULL,
	  "x.ini:2: dcqcn.rate_reduce_monitor_period: 1.001s out of range (0-1s" },
	/* the byte counter: 0 to 1GB */
	{ "[dcqcn]\nrpg_byte_reset = 15625001\n", NULL,
	  "x.ini:2: dcqcn.rpg_byte_reset: 15625001 out of range (0 (off) to 1GB; a bare number counts 64-byte units)" },
	{ "[dcqcn]\nrpg_byte_reset = 1.1GB\n", NULL,
	  "x.ini:2: dcqcn.rpg_byte_reset: 1.1GB out of range" },
	{ "[dcqcn]\nrpg_byte_reset = -1\n", NULL, "x.ini:2: dcqcn.rpg_byte_reset: -1 is negative" },
	{ "[dcqcn]\nrpg_byte_reset = 99999999999999999999\n", NULL,
	  "x.ini:2: dcqcn.rpg_byte_reset: 99999999999999999999 is too large" },
	{ "[dcqcn]\nrpg_byte_reset = 1.2.3\n", NULL,
	  "x.ini:2: dcqcn.rpg_byte_reset: 1.2.3 is not a number" },
	{ "[dcqcn]\nrpg_time_reset =\n", NULL,
	  "x.ini:2: dcqcn.rpg_time_reset: empty value (above 0, at most 1s; a bare number is us)" },
	/* fractions of firmware units that are not whole base units */
	{ "[dcqcn]\nrpg_time_reset = 1.0000001\n", NULL,
	  "x.ini:2: dcqcn.rpg_time_reset: 1.0000001us is not a whole number of picoseconds" },
	{ "[dcqcn]\nrpg_time_reset = 1.0000001 us\n", NULL,
	  "x.ini:2: dcqcn.rpg_time_reset: 1.0000001 us is not a whole number of picoseconds" },
	{ "[dcqcn]\nrpg_ai_rate = 1.0000001\n", NULL,
	  "x.ini:2: dcqcn.rpg_ai_rate: 1.0000001Mbps is not a whole number of bits per second" },
	{ "[dcqcn]\nrpg_byte_reset = 1.01\n", NULL,
	  "x.ini:2: dcqcn.rpg_byte_reset: 1.01 x 64 B is not a whole number of bytes" },
	{ "[dcqcn]\nrpg_byte_reset = 1.0078125\n", NULL,
	  "x.ini:2: dcqcn.rpg_byte_reset: 1.0078125 x 64 B is not a whole number of bytes" },
	{ "[dcqcn]\nrpg_byte_reset = 0.5B\n", NULL,
	  "x.ini:2: dcqcn.rpg_byte_reset: 0.5B is not a whole number of bytes" },
	/* every [dcqcn] key needs nic.cc = dcqcn, in any order */
	{ "[nic]\ncc = none\n[dcqcn]\nrpg_ai_rate = 10\n", NULL,
	  "x.ini:4: dcqcn.rpg_ai_rate: only for nic.cc = dcqcn (nic.cc is none)" },
	{ "[dcqcn]\nprofile = paper\ncnp_scope = port\n[nic]\ncc = none\n", NULL,
	  "x.ini:2: dcqcn.profile: only for nic.cc = dcqcn (nic.cc is none)" },
	{ "[nic]\ncc = none\n", "dcqcn.rpg_ai_rate=10",
	  "--set: dcqcn.rpg_ai_rate: only for nic.cc = dcqcn (nic.cc is none; set nic.cc first)" },
	/* an empty [dcqcn] is fine; turning cc off by --set leaves the knobs unused */
	{ "[nic]\ncc = none\n[dcqcn]\n", NULL, NULL },
	/* --set */
	{ NULL, "dcqcn.rpg_gd=9", "--set: dcqcn.rpg_gd: 9 out of range (10-20)" },
	{ NULL, "dcqcn.rpg_time_reset=1.0000001",
	  "--set: dcqcn.rpg_time_reset: 1.0000001us is not a whole number of picoseconds" },
	{ NULL, "ecn.queues=2,2", "--set: ecn.queues: queue 2 listed twice" },
};

TL_CASES_TEST(dcqcn)

/* turning cc off by --set leaves the knobs unused; back on, they apply */
START_TEST(test_cc_none_by_set)
{
	struct scenario *s = tl_scn_new();
	struct scn_error err;

	ck_assert_int_eq(scenario_load_string(s, "x.ini", "[dcqcn]\nrpg_gd = 12\n", &err), 0);
	ck_assert_int_eq(scenario_set(s, "nic.cc=none", &err), 0);
	ck_assert_msg(scenario_finalize(s, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(s->cc, SCN_CC_NONE);
	ck_assert_int_eq(scenario_set(s, "nic.cc=dcqcn", &err), 0);
	ck_assert_int_eq(scenario_set(s, "dcqcn.rpg_gd=13", &err), 0);
	ck_assert_uint_eq(s->dcqcn.rpg_gd, 13);
	tl_unload(s);
}
END_TEST

START_TEST(test_set_dcqcn)
{
	struct scenario *s = tl_scn_new();
	struct scn_error err;
	static const char *const sets[] = {
		"dcqcn.rpg_ai_rate=10",
		"dcqcn.rpg_byte_reset=2MB",
		"dcqcn.rpg_time_reset=1.5",
		"dcqcn.clamp_tgt_rate=1",
		"dcqcn.cnp_scope=port",
		"ecn.queues=3,4",
		"ecn.kmin=100KB",
		"ecn.pmax=0.2",
		"ecn.mark_point=enqueue",
		"qos.cnp_dscp=46",
		"qos.cnp_priority_strict=false",
		"nic.rto=1ms",
		"output.rates=10",
	};
	size_t i;

	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++)
		ck_assert_msg(scenario_set(s, sets[i], &err) == 0, "%s: %s", sets[i], err.msg);
	ck_assert_msg(scenario_finalize(s, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(s->dcqcn.rpg_ai_rate_bps, 10000000); /* 10 Mbps */
	ck_assert_int_eq(s->dcqcn.rpg_byte_reset_bytes, 2000000);
	ck_assert_int_eq(s->dcqcn.rpg_time_reset_ps, 1500000);
	ck_assert_int_eq(s->dcqcn.clamp_tgt_rate, 1);
	ck_assert_int_eq(s->dcqcn.cnp_scope, SCN_CNP_SCOPE_PORT);
	ck_assert_uint_eq(s->ecn_queues, (1u << 3) | (1u << 4));
	ck_assert_int_eq(s->ecn_kmin_bytes, 100000);
	ck_assert_int_eq(s->ecn_pmax_ppb, 200000000);
	ck_assert_int_eq(s->ecn_mark_point, SCN_MARK_ENQUEUE);
	ck_assert_uint_eq(s->cnp_dscp, 46);
	ck_assert_int_eq(s->cnp_priority_strict, 0);
	ck_assert_int_eq(s->nic_rto_ps, 1000000000);
	ck_assert_uint_eq(s->output_rates, 10);
	tl_unload(s);
}
END_TEST

static Suite *make_scenario_cc_suite(void)
{
	Suite *su = suite_create("scenario-cc");
	TCase *tc;

	tc = tcase_create("ecn");
	TL_ADD_CASES(tc, parsed);
	TL_ADD_CASES(tc, ecn);
	tcase_add_test(tc, test_ecn_kmax_kmin);
	tcase_add_test(tc, test_cnp_dscp_moved_apart);
	suite_add_tcase(su, tc);

	tc = tcase_create("dcqcn");
	tcase_add_test(tc, test_dcqcn_profiles);
	tcase_add_test(tc, test_dcqcn_knob_overrides_profile);
	TL_ADD_CASES(tc, knob);
	TL_ADD_CASES(tc, dcqcn);
	tcase_add_test(tc, test_cc_none_by_set);
	tcase_add_test(tc, test_set_dcqcn);
	suite_add_tcase(su, tc);
	return su;
}

int main(void)
{
	return tl_run(make_scenario_cc_suite());
}
