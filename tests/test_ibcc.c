/*
 * test_ibcc.c - InfiniBand congestion control (ib.cc, IBTA Annex A10): the
 * loader's keys; the reaction point against a reference that fires every
 * CCTI timer; on fabrics, every FECN answered by one BECN and the CCTI
 * rising by ccti_increase per BECN, its decay of one step per ccti_timer in
 * ib_cc.csv once the BECNs stop, the victim flow of a congested port
 * keeping most of its rate, every byte delivered once, and the same
 * outputs on 1, 2 and 3 threads.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "models/core/ibcc.h"
#include "models/fabric/fabric.h"
#include "models/scenario/scenario.h"
#include "sim/run/run.h"
#include "testlib.h"

/* ---- the loader ---- */

static const struct tl_values ibcc_defaults_cases[] = {
    /* off by default, and its keys at their defaults */
    {"[fabric]\ntype = infiniband\n",
     {TL_FIELD(fabric_type, SCN_FABRIC_IB), TL_FIELD(ib_vl_buffer_bytes, 131072),
      TL_FIELD(ib_credit_delay_ps, 100 * UNITS_PS_PER_NS), TL_FIELD(ib_threshold, 15),
      TL_FIELD(ib_marking_rate, 10), TL_FIELD(ib_packet_size_bytes, 512),
      TL_FIELD(ib_ccti_increase, 1), TL_FIELD(ib_ccti_limit, 127), TL_FIELD(ib_ccti_timer, 50)}},
    {"[fabric]\ntype = infiniband\n[ib]\ncc = on\nthreshold = 8\nmarking_rate = 0\n"
     "packet_size = 0\nvictim_mask = true\nccti_increase = 4\nccti_limit = 300\n"
     "ccti_min = 2\nccti_timer = 65535\n",
     {TL_FIELD(fabric_type, SCN_FABRIC_IB), TL_FIELD(ib_vl_buffer_bytes, 131072),
      TL_FIELD(ib_credit_delay_ps, 100 * UNITS_PS_PER_NS), TL_FIELD(ib_cc, 1),
      TL_FIELD(ib_threshold, 8), TL_FIELD(ib_victim_mask, 1), TL_FIELD(ib_ccti_increase, 4),
      TL_FIELD(ib_ccti_limit, 300), TL_FIELD(ib_ccti_min, 2), TL_FIELD(ib_ccti_timer, 65535)}},
};
TL_VALUES_TEST(ibcc_defaults)

static const struct tl_case ibcc_errors_cases[] = {
    {"[ib]\ncc = on\n", NULL,
     "x.ini:2: ib.cc: only for fabric.type = infiniband (fabric.type is roce)"},
    {"[fabric]\ntype = infiniband\n[ib]\nthreshold = 3\n", NULL,
     "x.ini:4: ib.threshold: InfiniBand congestion control is off (ib.cc is false)"},
    {"[fabric]\ntype = infiniband\n[ib]\ncc = on\nthreshold = 16\n", NULL,
     "x.ini:5: ib.threshold: 16 out of range (0-15)"},
    {"[fabric]\ntype = infiniband\n[ib]\ncc = on\nccti_timer = 0\n", NULL,
     "x.ini:5: ib.ccti_timer: 0 out of range (1-65535)"},
    {"[fabric]\ntype = infiniband\n[ib]\ncc = on\npacket_size = 16KiB\n", NULL,
     "x.ini:5: ib.packet_size: 16KiB out of range (0-16320B)"},
    {"[fabric]\ntype = infiniband\n[ib]\ncc = on\nccti_limit = 10\nccti_min = 11\n", NULL,
     "x.ini:6: ib.ccti_min: 11 above ib.ccti_limit (10): the CCTI stays within "
     "ccti_min-ccti_limit"},
};
TL_CASES_TEST(ibcc_errors)

/* compare forces each fabric: [ib] keys, ib.cc's included, are skipped on
 * roce and kept on infiniband */
START_TEST(compare_keeps_ib_cc_on_infiniband)
{
	char dir[64], path[128];
	tl_write_temp(dir, path, "s.ini",
		      "[fabric]\ntype = infiniband\n[ib]\ncc = on\nccti_increase = 3\n"
		      "[job.a]\npattern = incast\ndst = 0\n");
	struct scn_error e;
	FILE *log = tmpfile();
	struct scenario *s = scenario_open(
	    &(struct scenario_inputs){.path = path, .fabric = "roce", .log = log}, &e);
	ck_assert_msg(s != NULL, "%s", e.msg);
	ck_assert_int_eq(s->fabric_type, SCN_FABRIC_ROCE);
	ck_assert_int_eq(s->ib_cc, 0);
	scenario_close(s);
	fclose(log);
	s = scenario_open(&(struct scenario_inputs){.path = path, .fabric = "infiniband"}, &e);
	ck_assert_msg(s != NULL, "%s", e.msg);
	ck_assert_int_eq(s->ib_cc, 1);
	ck_assert_int_eq(s->ib_ccti_increase, 3);
	scenario_close(s);
	tl_remove_temp(dir, path);
}
END_TEST

/* ---- the reaction point ---- */

/* a reference that fires the CCTI timer as an event: started by a BECN
 * when stopped, at each expiry one step down and started again while above
 * ccti_min */
struct ref {
	uint32_t ccti;
	sim_time_ps next; /* the timer's next expiry; -1: stopped */
};

static void ref_to(const struct ibcc_params *p, struct ref *r, sim_time_ps now)
{
	while (r->next >= 0 && r->next <= now) {
		if (r->ccti > p->ccti_min)
			r->ccti--;
		r->next = r->ccti > p->ccti_min ? r->next + p->ccti_timer_ps : -1;
	}
}

static void ref_becn(const struct ibcc_params *p, struct ref *r, sim_time_ps now)
{
	ref_to(p, r, now);
	r->ccti =
	    r->ccti + p->ccti_increase < p->ccti_limit ? r->ccti + p->ccti_increase : p->ccti_limit;
	if (r->next < 0 && r->ccti > p->ccti_min)
		r->next = now + p->ccti_timer_ps;
}

/* a closed form: three BECNs, then the steps down one per timer from the
 * first BECN's start (a BECN does not restart a running timer) */
START_TEST(ccti_rises_and_decays)
{
	const struct ibcc_params p = {.ccti_increase = 3,
				      .ccti_limit = 8,
				      .ccti_min = 1,
				      .ccti_timer_ps = 1000,
				      .frame_ps = 4000};
	struct ibcc_qp q;
	ibcc_init(&p, &q);
	ck_assert_uint_eq(q.ccti, 1);
	ck_assert_int_eq(ibcc_delay_ps(&p, &q, 0), 1000); /* entry 1: a quarter frame */
	ibcc_on_becn(&p, &q, 100);			  /* 4, the timer from 100 */
	ibcc_on_becn(&p, &q, 600);			  /* 7 */
	ibcc_on_becn(&p, &q, 1050); /* 8 (limit); the expiry at 1100 is still ahead */
	ck_assert_uint_eq(q.ccti, 8);
	ck_assert_int_eq(ibcc_delay_ps(&p, &q, 1099), 8000);
	ck_assert_int_eq(ibcc_delay_ps(&p, &q, 1100), 7000);
	ibcc_advance(&p, &q, 4099); /* expiries at 2100, 3100 */
	ck_assert_uint_eq(q.ccti, 5);
	ibcc_advance(&p, &q, 1000000); /* down to ccti_min at 7100: the timer stops */
	ck_assert_uint_eq(q.ccti, 1);
	ck_assert_int_lt(q.tick_ps, 0);
	ibcc_on_becn(&p, &q, 2000000); /* it starts again */
	ck_assert_uint_eq(q.ccti, 4);
	ck_assert_int_eq(q.tick_ps, 2000000);
}
END_TEST

/* random BECNs and looks: the lazy state equals the reference's at every look */
START_TEST(lazy_equals_reference)
{
	const struct ibcc_params p = {.ccti_increase = 2,
				      .ccti_limit = 40,
				      .ccti_min = 3,
				      .ccti_timer_ps = 7919,
				      .frame_ps = 83560};
	struct ibcc_qp q;
	struct ref r = {.ccti = p.ccti_min, .next = -1};
	ibcc_init(&p, &q);
	unsigned long x = 12345;
	sim_time_ps t = 0;
	for (int i = 0; i < 200000; i++) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		t += (sim_time_ps)(x >> 33) % 20000;
		if ((x >> 20) % 3) {
			ibcc_on_becn(&p, &q, t);
			ref_becn(&p, &r, t);
		} else {
			ref_to(&p, &r, t);
			ck_assert_int_eq(ibcc_delay_ps(&p, &q, t),
					 (sim_time_ps)r.ccti * (83560 / 4));
		}
		ref_to(&p, &r, t);
		ibcc_advance(&p, &q, t);
		ck_assert_uint_eq(q.ccti, r.ccti);
		ck_assert_int_eq(q.tick_ps < 0, r.next < 0);
	}
}
END_TEST

/* ---- on fabrics ---- */

static void run_to_end(struct fabric *f)
{
	fabric_run_until(f, INT64_MAX);
	ck_assert(fabric_finished(f));
	tl_conserved(f);
}

/*
 * A 3-to-1 incast across a 100G star, every eligible packet marked and a
 * CCTI timer far longer than the run: every FECN the switch sets reaches
 * its receiver in order and is answered by exactly one BECN, which its
 * sender receives (but the last few, which the run's end may catch on
 * their way back); no CCTI falls, so the senders' CCTIs add up to the
 * BECNs received times ccti_increase (none reaches ccti_limit).  Every
 * byte arrives once, and nothing is dropped.
 */
START_TEST(every_fecn_gets_one_becn)
{
	struct scenario *s = tl_load(
	    "[fabric]\ntype = infiniband\n[ib]\ncc = on\nmarking_rate = 0\nccti_increase = 2\n"
	    "ccti_limit = 16383\nccti_timer = 65535\n"
	    "[topology]\nkind = star\nhosts = 4\nhost_link = 100Gbps\n"
	    "[job.in]\npattern = incast\ndst = 0\nsenders = 1-3\nsize = 4MB\n");
	struct fabric *f = tl_build(s);
	run_to_end(f);
	struct net_stats st = tl_stats(f);
	ck_assert_uint_gt(st.cc.ecn_marked, 20);
	ck_assert_uint_eq(st.cc.ce_delivered, st.cc.ecn_marked);
	ck_assert_uint_eq(st.cc.cnps_sent, st.cc.ecn_marked);
	/* the run may end with a last BECN on its way back */
	ck_assert_uint_le(st.cc.cnps_received, st.cc.cnps_sent);
	ck_assert_uint_ge(st.cc.cnps_received + 3, st.cc.cnps_sent);
	uint64_t sum = 0;
	for (uint32_t i = 0; i < f->nqps; i++)
		sum += nic_qp_cc_of(&f->parts[0].net, &f->qps[i]).ibcc.ccti;
	ck_assert_uint_eq(sum, 2 * st.cc.cnps_received);
	ck_assert_uint_eq(st.payload_delivered, st.payload_injected);
	ck_assert_uint_eq(st.payload_delivered, 3 * 4000000);
	ck_assert_uint_eq(st.drops.lossless + st.drops.lossy + st.drops.rx_discard, 0);
	ck_assert_uint_eq(fabric_flows_done(f), fabric_flows_total(f));
	fabric_destroy(f);
	tl_unload(s);
}
END_TEST

/* the rows of ib_cc.csv: time (ps), qp, ccti */
struct row {
	sim_time_ps t;
	unsigned qp, ccti;
};

static size_t read_ibcc(const char *dir, struct row **rows)
{
	char *text = tl_slurp(dir, "ib_cc.csv");
	ck_assert_ptr_nonnull(text);
	ck_assert(strncmp(text, "time_us,qp,ccti,ipd_ps\n", 23) == 0);
	size_t n = 0, cap = 1024;
	*rows = malloc(cap * sizeof(**rows));
	for (char *line = strchr(text, '\n') + 1; *line; line = strchr(line, '\n') + 1) {
		double us;
		unsigned qp, ccti;
		long long ipd;
		ck_assert_int_eq(sscanf(line, "%lf,%u,%u,%lld", &us, &qp, &ccti, &ipd), 4);
		if (n == cap)
			*rows = realloc(*rows, (cap *= 2) * sizeof(**rows));
		(*rows)[n++] = (struct row){(sim_time_ps)(us * 1e6 + 0.5), qp, ccti};
	}
	free(text);
	return n;
}

/*
 * The decay, in ib_cc.csv: a 3-to-1 incast raises the senders' CCTIs; once
 * a sender's message is done (10 us later its last BECN is in) no BECN
 * comes, and its CCTI falls by one every ccti_timer (10 x 1.024 us), from
 * the timer's phase.  Sampled every 10.24 us, exactly one step per row: a
 * QP's rows after its last BECN go c, c - 1, ..., 1 (at 0 = ccti_min, with
 * no data, it has no row).  A later flow on an idle path keeps the run
 * going meanwhile.
 */
START_TEST(ccti_decays_one_step_per_timer)
{
	char dir[] = "/tmp/test-ibcc-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	struct scenario *s = tl_load(
	    "[fabric]\ntype = infiniband\n[ib]\ncc = on\nmarking_rate = 0\nccti_increase = 4\n"
	    "ccti_timer = 10\n[output]\nsample_interval = 10.24us\n"
	    "[topology]\nkind = star\nhosts = 4\nhost_link = 100Gbps\n"
	    "[job.in]\npattern = incast\ndst = 0\nsenders = 1-3\nsize = 4MB\n"
	    /* a later flow on an idle path keeps the run (and its samples) going */
	    "[job.late]\npattern = incast\ndst = 2\nsenders = 1\nsize = 16MB\nstart = 2ms\n");
	struct run_result res;
	ck_assert_int_eq(run_scenario(s, &(struct run_opts){.out_dir = dir, .threads = 1}, &res),
			 RUN_OK);
	ck_assert_uint_eq(res.data_bytes_delivered, 3 * 4000000 + 16000000);
	/* the end of each sender's message (QP q is h(q + 1)'s), and its last
	 * BECN a few microseconds later */
	char *flows = tl_slurp(dir, "flows.csv");
	ck_assert_ptr_nonnull(flows);
	sim_time_ps ends[3] = {0};
	for (char *line = strchr(flows, '\n') + 1; *line; line = strchr(line, '\n') + 1) {
		double e;
		unsigned src;
		if (sscanf(line, "%*u,in,h%u,h%*u,%*d,%*f,%lf", &src, &e) == 2 && src >= 1 &&
		    src <= 3)
			ends[src - 1] = (sim_time_ps)(e * 1e6) + 10 * UNITS_PS_PER_US;
	}
	free(flows);
	struct row *rows;
	size_t n = read_ibcc(dir, &rows);
	for (unsigned qp = 0; qp < 3; qp++) {
		sim_time_ps end = ends[qp];
		ck_assert_int_gt(end, 0);
		ck_assert_int_lt(end, 2 * UNITS_PS_PER_MS);
		unsigned peak = 0, tail = 0, last = 0;
		sim_time_ps prev_t = -1;
		for (size_t i = 0; i < n; i++) {
			if (rows[i].qp != qp)
				continue;
			if (rows[i].ccti > peak)
				peak = rows[i].ccti;
			if (rows[i].t > end) { /* after the traffic: one step per row */
				if (tail)
					ck_assert_uint_eq(rows[i].ccti + 1, last);
				ck_assert(prev_t < 0 || rows[i].t - prev_t == 10240000);
				tail++;
				prev_t = rows[i].t;
			}
			last = rows[i].ccti;
		}
		ck_assert_uint_ge(peak, 5); /* the BECNs raised it */
		ck_assert_uint_ge(tail, 2);
		ck_assert_uint_eq(last, 1); /* then 0 = ccti_min: no more rows */
	}
	free(rows);
	tl_unload(s);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/*
 * The victim of a congested port (test_ib.c's congestion spreading, with
 * 128 KiB of buffer per VL and longer flows): six 100G senders on leaf1
 * send to h0 on leaf0, and h9 on leaf1 sends to h1 on leaf0 through the
 * same spine.  Without congestion control the incast fills leaf0's ingress
 * VL, and the victim gets its share of a queue drained at h0's 100G: about
 * 1/7 of its 12.25 GB/s goodput, under a quarter (test_ib.c).  With ib.cc
 * the switch port to h0 (the root: it has credits) marks the incast's
 * packets, the senders back off to about 1/6 of 100G each, and the spine's
 * 400G port to leaf0, which waits for credits (a victim: no marks), drains
 * again: the victim, whose CCTI ends at 0, keeps most of its goodput.
 * Bounds: above 60 % of it (measured: 71 %, 8.68 GB/s, 4.3 times the 2.04
 * without CC; its first half millisecond is spent while the CCTIs rise),
 * and the incast keeps h0's link above 90 % busy (measured: 96.0 %).
 */
static void victim(const char *cc, double *victim_gbs, double *incast_gbs, uint64_t *victim_ccti)
{
	char text[1024];
	snprintf(text, sizeof(text),
		 "[fabric]\ntype = infiniband\n[ib]\nvl_buffer = 128KiB\ncc = %s\n"
		 "[topology]\nspines = 1\nleaves = 2\nhosts_per_leaf = 8\nhost_link = 100Gbps\n"
		 "fabric_link = 400Gbps\n"
		 "[job.victim]\npattern = incast\ndst = 1\nsenders = 9\nsize = 32MB\n"
		 "[job.incast]\npattern = incast\ndst = 0\nsenders = 10-15\nsize = 32MB\n",
		 cc);
	struct scenario *s = tl_load(text);
	struct fabric *f = tl_build(s);
	struct tl_log log;
	tl_log_attach(f, &log);
	run_to_end(f);
	const struct tl_flow *v = tl_log_flow(&log, 0);
	*victim_gbs = (double)v->bytes / ((double)(v->end_ps - v->start_ps) * 1e-3);
	sim_time_ps end = 0;
	for (uint64_t id = 1; id <= 6; id++) {
		const struct tl_flow *fl = tl_log_flow(&log, id);
		if (fl->end_ps > end)
			end = fl->end_ps;
	}
	*incast_gbs = 6 * 32e6 / ((double)end * 1e-3);
	*victim_ccti = nic_qp_cc_of(&f->parts[0].net, &f->qps[0]).ibcc.ccti; /* at the end */
	struct net_stats st = tl_stats(f);
	ck_assert_uint_eq(st.payload_delivered, 7 * 32000000);
	ck_assert_uint_eq(st.drops.lossless + st.drops.lossy + st.drops.rx_discard, 0);
	tl_log_free(&log);
	fabric_destroy(f);
	tl_unload(s);
}

START_TEST(victim_keeps_most_of_its_rate)
{
	const double goodput = 100e9 / 8 * 4096.0 / 4178.0 / 1e9; /* 12.255 GB/s */
	double v_off, v_on, v_mask, in_off, in_on, in_mask;
	uint64_t ccti_off, ccti_on, ccti_mask;
	victim("off", &v_off, &in_off, &ccti_off);
	victim("on", &v_on, &in_on, &ccti_on);
	ck_assert_msg(v_off < goodput / 4, "without CC %.3f GB/s", v_off);
	ck_assert_msg(v_on > 0.6 * goodput, "with CC the victim gets %.3f GB/s of %.3f", v_on,
		      goodput);
	ck_assert_msg(in_on > 0.9 * goodput, "with CC the incast gets %.3f GB/s of %.3f", in_on,
		      goodput);
	ck_assert_uint_eq(ccti_on, 0);
	/* with victim_mask the spine's port to leaf0, a victim, marks too: the
	 * victim's packets among others (measured: 7.66 GB/s, its CCTI up to
	 * 33 against 9) */
	victim("on\nvictim_mask = true", &v_mask, &in_mask, &ccti_mask);
	ck_assert_msg(v_mask < v_on - 0.5, "victim_mask: %.3f GB/s, without it %.3f", v_mask, v_on);
}
END_TEST

/* outputs of an InfiniBand run with ib.cc do not depend on the threads */
START_TEST(threads_agree)
{
	static const char text[] =
	    "[fabric]\ntype = infiniband\n[ib]\nvl_buffer = 16KiB\ncc = on\nmarking_rate = 2\n"
	    "[topology]\nspines = 2\nleaves = 3\nhosts_per_leaf = 4\nfabric_link = 100Gbps\n"
	    "[job.ar]\npattern = ring-allreduce\nranks = 1-11\nsize = 8MB\n"
	    "[job.in]\npattern = incast\ndst = 0\nsenders = 4-11\nsize = 1MB\n";
	char dirs[3][32];
	char *csv[3], *sum[3];
	for (int k = 0; k < 3; k++) {
		snprintf(dirs[k], sizeof(dirs[k]), "/tmp/test-ibcc-t-XXXXXX");
		ck_assert_ptr_nonnull(mkdtemp(dirs[k]));
		struct scenario *s = tl_load(text);
		struct run_result r;
		ck_assert_int_eq(
		    run_scenario(
			s, &(struct run_opts){.out_dir = dirs[k], .threads = (unsigned)k + 1}, &r),
		    RUN_OK);
		ck_assert_uint_gt(r.cnps_sent, 0);
		tl_unload(s);
		csv[k] = tl_slurp(dirs[k], "ib_cc.csv");
		sum[k] = tl_slurp(dirs[k], "summary.csv");
		ck_assert_ptr_nonnull(csv[k]);
		ck_assert_ptr_nonnull(sum[k]);
	}
	ck_assert_uint_gt(strlen(csv[0]), 100);
	for (int k = 1; k < 3; k++) {
		ck_assert_str_eq(csv[0], csv[k]);
		ck_assert_str_eq(sum[0], sum[k]);
	}
	for (int k = 0; k < 3; k++) {
		free(csv[k]);
		free(sum[k]);
		char cmd[128];
		snprintf(cmd, sizeof(cmd), "rm -rf %s", dirs[k]);
		ck_assert_int_eq(system(cmd), 0);
	}
}
END_TEST

static Suite *make_ibcc_suite(void)
{
	Suite *s = suite_create("ibcc");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 120);
	TL_ADD_CASES(tc, ibcc_defaults);
	TL_ADD_CASES(tc, ibcc_errors);
	tcase_add_test(tc, compare_keeps_ib_cc_on_infiniband);
	tcase_add_test(tc, ccti_rises_and_decays);
	tcase_add_test(tc, lazy_equals_reference);
	tcase_add_test(tc, every_fecn_gets_one_becn);
	tcase_add_test(tc, ccti_decays_one_step_per_timer);
	tcase_add_test(tc, victim_keeps_most_of_its_rate);
	tcase_add_test(tc, threads_agree);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tl_run(make_ibcc_suite());
}
