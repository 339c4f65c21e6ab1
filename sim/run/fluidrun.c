/*
 * fluidrun.c - `dcqcn-sim fluid`: the scenario mapped onto the DCQCN fluid
 * model, the integration with its series, the fixed point and the phase
 * margin (contract and mapping in fluidrun.h).
 *
 * Files (out_dir): queues.csv and rates.csv in the packet run's formats,
 * every output.sample_interval (the receiver's ToR port to dst, the data
 * queue; flows 0 .. output.rates - 1 that have started), and summary.csv,
 * one row.  Means and swings are taken over the window from the last
 * flow's start to the end: means over its second half, the queue's swing
 * (max - min) over its third and last quarter.  The run "oscillates" when
 * the last quarter's swing is above 1 % of kmax - kmin and at least half
 * the third quarter's (it does not decay).
 */
#include "sim/run/fluidrun.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "models/base/files.h"
#include "models/core/link.h"
#include "models/core/pkt.h"
#include "models/core/topology.h"
#include "models/scenario/scenario.h"

__attribute__((format(printf, 3, 4))) static int refuse(char *err, size_t len,
							 const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(err, len, "fluid: ");
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < len)
		vsnprintf(err + n, len - (size_t)n, fmt, ap);
	va_end(ap);
	return FLUID_EUSAGE;
}

static sim_time_ps ser_ps(int64_t wire_bytes, int64_t bps)
{
	struct serializer s = { bps, 0 };
	return ser_time(&s, (uint32_t)wire_bytes);
}

/* one-way latency of a frame from src to dst: store and forward per link */
static sim_time_ps one_way_ps(const struct scenario *s, uint32_t sw, int64_t wire)
{
	uint32_t fl = sw ? sw - 1 : 0;
	return 2 * ser_ps(wire, s->host_link_bps) + fl * ser_ps(wire, s->fabric_link_bps) +
	       2 * s->host_cable_mm * LINK_PS_PER_MM + fl * s->fabric_cable_mm * LINK_PS_PER_MM +
	       (sim_time_ps)sw * s->switch_latency_ps;
}

void fluidrun_setup_free(struct fluidrun_setup *su)
{
	free(su->start_s);
	su->start_s = NULL;
}

/* the incast's senders src[0..*n) and destination: an incast job's, or a
 * trace's whose rows all go to one host at once (*trace_src: the array to
 * free); 0, or FLUID_EUSAGE with err */
static int senders_of(const struct scn_job *j, const uint32_t **src, uint32_t *n, uint32_t *dst,
		      uint32_t **trace_src, char *err, size_t len)
{
	*n = *dst = 0;
	*src = *trace_src = NULL;
	if (j->pattern == SCN_JOB_INCAST) {
		*n = j->senders.n;
		*src = j->senders.hosts;
		*dst = j->dst;
		return 0;
	}
	if (j->pattern != SCN_JOB_TRACE || j->nrows == 0)
		return refuse(err, len, "job.%s is pattern = %s; the fluid model takes one incast",
			      j->name, scenario_pattern_name(j->pattern));
	uint32_t *ts = calloc(j->nrows, sizeof(uint32_t));
	if (!ts)
		return refuse(err, len, "out of memory");
	*dst = j->rows[0].dst;
	for (uint32_t r = 0; r < j->nrows; r++) {
		if (j->rows[r].dst != *dst || j->rows[r].after >= 0) {
			free(ts);
			return refuse(err, len, "job.%s is a trace whose flows do not all go "
				      "to one host at once; the fluid model takes one incast",
				      j->name);
		}
		ts[(*n)++] = j->rows[r].src;
	}
	*src = *trace_src = ts;
	return 0;
}

/* the data queue prio marks, every sender has a port to dst, and the flows
 * asked for are there; *hops: the longest sender's switches to dst.  0, or
 * FLUID_EUSAGE with err */
static int check_incast(const struct scenario *s, const struct fluidrun_opts *o,
			const struct scn_job *j, const struct topo *topo, const uint32_t *src,
			uint32_t n, uint32_t dst, unsigned prio, uint32_t *hops, char *err,
			size_t len)
{
	*hops = 0;
	if (!(s->ecn_queues & (1u << prio)))
		return refuse(err, len, "ecn.queues does not mark the data queue %u: no ECN, no "
			      "DCQCN loop", prio);
	for (uint32_t i = 0; i < n; i++) {
		if (src[i] == dst || topo_server(topo, src[i]) == topo_server(topo, dst))
			return refuse(err, len, "h%u shares a server with the destination h%u "
				      "(NVLink, no bottleneck port)", src[i], dst);
		uint32_t hh = topo_hops(topo, src[i], dst);
		*hops = hh > *hops ? hh : *hops;
	}
	if (n == 0)
		return refuse(err, len, "job.%s has no senders", j->name);
	if (o->flows > 0 && o->flows > n && j->pattern != SCN_JOB_INCAST)
		return refuse(err, len, "%u flows: job.%s has %u", o->flows, j->name, n);
	return 0;
}

/* each flow's start, seconds: its sender's (the last sender's for flows
 * beyond them), with its straggler delay */
static void start_times(struct fluidrun_setup *su, const struct scn_job *j, const uint32_t *src,
			uint32_t n, uint32_t nf)
{
	for (uint32_t i = 0; i < nf; i++) {
		uint32_t h = src[i < n ? i : n - 1];
		sim_time_ps t = j->pattern == SCN_JOB_TRACE ? j->rows[i < n ? i : n - 1].start_ps
							    : j->start_ps;
		for (uint32_t k = 0; k < j->stragglers.n; k++)
			if (j->stragglers.host[k] == h)
				t += j->stragglers.delay_ps[k];
		su->start_s[i] = (double)t / 1e12;
	}
}

/* the [dcqcn] knobs, the link and the thresholds in the fluid model's
 * units (packets, seconds) */
static struct fluid_params params_of(const struct scenario *s, const struct fluidrun_setup *su,
				     uint32_t nf)
{
	const struct scn_dcqcn *k = &s->dcqcn;
	double pkt_bits = 8.0 * (double)su->wire_bytes;
	double cnp = (double)k->min_time_between_cnps_ps, mon =
		(double)k->rate_reduce_monitor_period_ps;
	return (struct fluid_params){
		.flows = nf,
		.cap_pps = (double)s->host_link_bps / pkt_bits,
		.line_pps = (double)s->host_link_bps / pkt_bits,
		.min_pps = (double)k->rpg_min_rate_bps / pkt_bits,
		.kmin_pkts = (double)s->ecn_kmin_bytes / (double)su->frame_bytes,
		.kmax_pkts = (double)s->ecn_kmax_bytes / (double)su->frame_bytes,
		.pmax = (double)s->ecn_pmax_ppb / 1e9,
		.delay_s = (double)su->delay_ps / 1e12,
		.cnp_s = (cnp > mon ? cnp : mon) / 1e12,
		.alpha_s = (double)k->dce_tcp_rtt_ps / 1e12,
		.g = (1024.0 - k->dce_tcp_g) / 1024.0,
		.cut = ldexp(1.0, 10 - (int)k->rpg_gd),
		.byte_pkts = (double)k->rpg_byte_reset_bytes / (double)su->wire_bytes,
		.timer_s = (double)k->rpg_time_reset_ps / 1e12,
		.fr_steps = (double)k->rpg_threshold,
		.ai_pps = (double)k->rpg_ai_rate_bps / pkt_bits,
		.initial_alpha = k->initial_alpha_value / 1024.0,
		.step_s = (double)su->step_ps / 1e12,
		.start_s = su->start_s,
	};
}

int fluidrun_setup_of(const struct scenario *s, const struct fluidrun_opts *o,
		   struct fluidrun_setup *su, char *err, size_t len)
{
	memset(su, 0, sizeof(*su));
	if (s->cc != SCN_CC_DCQCN)
		return refuse(err, len, "nic.cc = none: there is no DCQCN to model");
	if (s->njobs != 1)
		return refuse(err, len, "%s has %u jobs; the fluid model takes one incast",
			      s->source, s->njobs);
	const struct scn_job *j = &s->jobs[0];
	uint32_t n, dst, *trace_src;
	const uint32_t *src;
	int rc = senders_of(j, &src, &n, &dst, &trace_src, err, len);
	if (rc)
		return rc;
	struct topo_shape shape = scenario_topo_shape(s);
	struct topo topo;
	topo_init(&topo, &shape);
	unsigned prio = s->dscp_to_prio[j->dscp >= 0 ? (uint8_t)j->dscp : s->data_dscp];
	uint32_t hops;
	rc = check_incast(s, o, j, &topo, src, n, dst, prio, &hops, err, len);
	if (rc) {
		free(trace_src);
		return rc;
	}
	uint32_t nf = o->flows ? o->flows : n;
	su->start_s = calloc(nf, sizeof(double));
	if (!su->start_s) {
		free(trace_src);
		return refuse(err, len, "out of memory");
	}
	start_times(su, j, src, n, nf);
	free(trace_src);
	su->frame_bytes = (int64_t)s->mtu_bytes + PKT_ROCE_HDR_BYTES;
	su->wire_bytes = su->frame_bytes + PKT_WIRE_OVERHEAD_BYTES;
	su->delay_ps = one_way_ps(s, hops, su->wire_bytes) +
		       one_way_ps(s, hops, PKT_CTRL_FRAME_BYTES + PKT_WIRE_OVERHEAD_BYTES);
	su->step_ps = o->step_ps ? o->step_ps : FLUID_DEFAULT_STEP_PS;
	if (su->step_ps > su->delay_ps)
		su->step_ps = su->delay_ps;
	su->duration_ps = o->duration_ps ? o->duration_ps : s->duration_ps;
	su->sample_ps = s->sample_interval_ps;
	su->rates_flows = s->output_rates;
	su->dst = dst;
	su->queue = prio;
	snprintf(su->job, sizeof(su->job), "%s", j->name);
	struct topo_end up = topo_host_uplink(&topo, dst);
	topo_switch_name(&topo, up.node, su->node, sizeof(su->node));
	snprintf(su->port, sizeof(su->port), "h%u", dst);
	su->p = params_of(s, su, nf);
	return 0;
}

/* ---- files ---- */

struct files {
	FILE *q, *r;
	char path[4200];
	int bad;
};

static FILE *open_csv(struct files *fs, const char *dir, const char *name, const char *head)
{
	snprintf(fs->path, sizeof(fs->path), "%s/%s", dir, name);
	FILE *f = fopen(fs->path, "w");
	if (f)
		fprintf(f, "%s\n", head);
	return f;
}

static int mkdirs(const char *dir)
{
	char buf[4096];
	snprintf(buf, sizeof(buf), "%s", dir);
	for (char *c = buf + 1; *c; c++)
		if (*c == '/') {
			*c = '\0';
			if (mkdir(buf, 0777) && errno != EEXIST)
				return -1;
			*c = '/';
		}
	return mkdir(buf, 0777) && errno != EEXIST ? -1 : 0;
}

static void sample(const struct fluidrun_setup *su, const struct fluid *f, sim_time_ps t,
		   struct files *fs)
{
	char us[40];
	units_format_us(t, us, sizeof(us));
	fprintf(fs->q, "%s,%s,%s,%u,%.0f\n", us, su->node, su->port, su->queue,
		fluid_queue_pkts(f) * (double)su->frame_bytes);
	double g = 8.0 * (double)su->wire_bytes / 1e9;
	uint32_t n = su->p.flows < su->rates_flows ? su->p.flows : su->rates_flows;
	for (uint32_t i = 0; i < n; i++) {
		double rc, rt, al;
		if (fluid_flow(f, i, &rc, &rt, &al))
			fprintf(fs->r, "%s,%u,%.6f,%.6f,%.6f\n", us, i, rc * g, rt * g, al);
	}
}

/* ---- the run ---- */

static int integrate(const struct fluidrun_setup *su, const char *dir, struct fluidrun_result *r,
		     char *err, size_t len)
{
	const struct fluid_params *P = &su->p;
	char e[256];
	struct fluid *f = fluid_new(P, e, sizeof(e));
	if (!f)
		return refuse(err, len, "%s", e);
	struct files fs = { 0 };
	if (dir) {
		if (mkdirs(dir)) {
			fluid_free(f);
			snprintf(err, len, "fluid: %s: %s", dir, strerror(errno));
			return FLUID_EIO;
		}
		fs.q = open_csv(&fs, dir, "queues.csv", "time_us,node,port,queue,bytes");
		fs.r = fs.q ? open_csv(&fs, dir, "rates.csv", "time_us,flow,rate_gbps,target_gbps,alpha")
			    : NULL;
		if (!fs.q || !fs.r) {
			snprintf(err, len, "fluid: %s: %s", fs.path, strerror(errno));
			if (fs.q)
				fclose(fs.q);
			fluid_free(f);
			return FLUID_EIO;
		}
	}
	uint64_t nsteps = (uint64_t)(su->duration_ps / su->step_ps);
	double last_start = 0.0;
	for (uint32_t i = 0; i < P->flows; i++)
		last_start = P->start_s[i] > last_start ? P->start_s[i] : last_start;
	double t_end = (double)nsteps * P->step_s, w = t_end - last_start;
	double t_half = last_start + w / 2, t_q3 = last_start + w * 0.75;
	double sq = 0, sp = 0, sa = 0, sr = 0;
	uint64_t cnt = 0;
	double lo3 = INFINITY, hi3 = -INFINITY, lo4 = INFINITY, hi4 = -INFINITY;
	double s3 = 0, s4 = 0;
	uint64_t n3 = 0, n4 = 0;
	sim_time_ps next = 0;
	for (uint64_t k = 0;; k++) {
		sim_time_ps t_ps = (sim_time_ps)k * su->step_ps;
		double t = (double)k * P->step_s, q = fluid_queue_pkts(f);
		if (dir && t_ps >= next) {
			sample(su, f, t_ps, &fs);
			next += su->sample_ps;
		}
		if (w > 0 && t >= t_half) {
			double a, rsum;
			fluid_sums(f, &rsum, &a);
			sq += q;
			sp += fluid_mark_prob(P, q);
			sa += a / P->flows;
			sr += rsum / P->flows;
			cnt++;
			if (t < t_q3) {
				lo3 = q < lo3 ? q : lo3;
				hi3 = q > hi3 ? q : hi3;
				s3 += q;
				n3++;
			} else {
				lo4 = q < lo4 ? q : lo4;
				hi4 = q > hi4 ? q : hi4;
				s4 += q;
				n4++;
			}
		}
		if (k == nsteps)
			break;
		fluid_step(f);
	}
	r->classes = fluid_classes(f);
	r->steps = fluid_steps(f);
	fluid_free(f);
	if (dir) {
		/* the first failure's reason: a close that succeeds may clear errno */
		int bad = file_close(fs.q) != 0, why = errno;
		if (file_close(fs.r)) {
			why = bad ? why : errno;
			bad = 1;
		}
		errno = why;
		if (bad) {
			snprintf(err, len, "fluid: writing %s: %s", dir, strerror(errno));
			return FLUID_EIO;
		}
	}
	double fb = (double)su->frame_bytes, g = 8.0 * (double)su->wire_bytes / 1e9;
	if (cnt) {
		r->mean_queue_bytes = sq / (double)cnt * fb;
		r->mean_mark_prob = sp / (double)cnt;
		r->mean_alpha = sa / (double)cnt;
		r->mean_rate_gbps = sr / (double)cnt * g;
	}
	r->swing3_bytes = hi3 > lo3 ? (hi3 - lo3) * fb : 0;
	r->swing4_bytes = hi4 > lo4 ? (hi4 - lo4) * fb : 0;
	/* a swing that the drift between the last two quarters' means explains
	 * is a queue still settling (alpha's time constant is tau' / g), not
	 * an oscillation */
	double drift = n3 && n4 ? fabs(s4 / (double)n4 - s3 / (double)n3) * fb : 0;
	r->settling = drift > 0.01 * (P->kmax_pkts - P->kmin_pkts) * fb;
	r->oscillating = r->swing4_bytes > 0.01 * (P->kmax_pkts - P->kmin_pkts) * fb &&
			 r->swing4_bytes >= 0.5 * r->swing3_bytes && r->swing4_bytes > 3 * drift;
	return 0;
}

static void analyse(const struct fluidrun_setup *su, struct fluidrun_result *r)
{
	const struct fluid_params *P = &su->p;
	struct fluid_fixed fp;
	double fb = (double)su->frame_bytes, g = 8.0 * (double)su->wire_bytes / 1e9;
	r->flows = P->flows;
	r->delay_us = (double)su->delay_ps / 1e6;
	r->step_ns = (double)su->step_ps / 1e3;
	r->duration_ms = (double)su->duration_ps / 1e9;
	r->cap_gbps = P->cap_pps * g;
	if (P->cap_pps / P->flows >= P->line_pps) {
		r->no_fixed = "uncongested: each flow's share of the bottleneck is its line rate, "
			      "the queue stays empty";
		return;
	}
	if (P->min_pps * P->flows > P->cap_pps) {
		r->no_fixed = "none: the flows' rpg_min_rate together exceed the bottleneck, "
			      "the queue grows without bound";
		return;
	}
	r->fixed_ok = fluid_fixed_point(P, &fp) == 0;
	if (!r->fixed_ok) {
		r->no_fixed = "none found";
		return;
	}
	r->fp_queue_bytes = fp.q_pkts * fb;
	r->fp_mark_prob = fp.p;
	r->fp_alpha = fp.alpha;
	r->fp_rate_gbps = fp.rc_pps * g;
	struct fluid_margin m;
	/* p* in the ramp's jump (pmax, 1]: q* = Kmax, where the ramp has no
	 * slope to linearise (a relay: the queue dithers at Kmax) */
	r->beyond_ramp = fp.p > P->pmax;
	r->margin_ok = !r->beyond_ramp && fluid_phase_margin(P, &fp, &m) == 0;
	r->pm_deg = r->margin_ok ? m.pm_deg : NAN;
	r->wc_rad_s = r->margin_ok ? m.wc_rad_s : NAN;
	r->stable = r->margin_ok && m.pm_deg > 0;
}

static int write_summary(const char *dir, const struct fluidrun_result *r, char *err, size_t len)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	FILE *f = fopen(path, "w");
	if (!f) {
		snprintf(err, len, "fluid: %s: %s", path, strerror(errno));
		return FLUID_EIO;
	}
	fprintf(f, "flows,capacity_gbps,feedback_delay_us,step_ns,duration_ms,"
		   "fixed_point_queue_bytes,fixed_point_mark_prob,fixed_point_alpha,"
		   "fixed_point_rate_gbps,mean_queue_bytes,mean_mark_prob,mean_alpha,"
		   "mean_rate_gbps,phase_margin_deg,crossover_rad_s,stable,queue_swing_bytes,"
		   "oscillating,reached_fixed_point\n");
	/* no margin (no crossover, or p* beyond the ramp): empty fields */
	char pm[32] = "", wc[32] = "";
	if (r->margin_ok) {
		snprintf(pm, sizeof(pm), "%.3f", r->pm_deg);
		snprintf(wc, sizeof(wc), "%.1f", r->wc_rad_s);
	}
	/* no fixed point (uncongested, none): empty fields, as for the margin */
	char fixed[160] = ",,,", stable[4] = "";
	if (r->fixed_ok)
		snprintf(fixed, sizeof(fixed), "%.3f,%.9f,%.9f,%.6f", r->fp_queue_bytes,
			 r->fp_mark_prob, r->fp_alpha, r->fp_rate_gbps);
	if (r->margin_ok)
		snprintf(stable, sizeof(stable), "%d", r->stable);
	fprintf(f, "%u,%.6f,%.6f,%.3f,%.6f,%s,%.3f,%.9f,%.9f,%.6f,%s,%s,%s,%.3f,%d,%s\n",
		r->flows, r->cap_gbps, r->delay_us, r->step_ns, r->duration_ms, fixed,
		r->mean_queue_bytes, r->mean_mark_prob, r->mean_alpha, r->mean_rate_gbps, pm, wc,
		stable, r->swing4_bytes, r->oscillating,
		r->fixed_ok ? (r->reached ? "1" : "0") : "");
	if (file_close(f)) {
		snprintf(err, len, "fluid: %s: %s", path, strerror(errno));
		return FLUID_EIO;
	}
	return 0;
}

/* has the run reached the fixed point, and when it is below its share,
 * how long additive increase takes to climb there */
static void judge(const struct fluidrun_setup *su, struct fluidrun_result *r)
{
	const struct fluid_params *P = &su->p;
	double fb = (double)su->frame_bytes, g = 8.0 * (double)su->wire_bytes / 1e9;
	r->ai_mbps = P->ai_pps * g * 1e3;
	r->timer_us = P->timer_s * 1e6;
	r->fr_steps = (uint32_t)P->fr_steps;
	r->alpha_tc_ms = P->alpha_s / P->g * 1e3;
	if (!r->fixed_ok)
		return;
	double qtol = fmax(0.1 * r->fp_queue_bytes, 0.01 * (P->kmax_pkts - P->kmin_pkts) * fb);
	r->slow_rate = r->mean_rate_gbps < 0.98 * r->fp_rate_gbps;
	r->reached = !r->slow_rate && fabs(r->mean_queue_bytes - r->fp_queue_bytes) <= qtol;
	if (r->slow_rate) {
		double rc = r->mean_rate_gbps / g; /* packets/s */
		double ev = 1.0 / P->timer_s + (P->byte_pkts > 0 ? rc / P->byte_pkts : 0.0);
		r->recover_ms = P->ai_pps > 0 ? (P->cap_pps / P->flows - rc) / (P->ai_pps * ev) * 1e3
					      : INFINITY;
	}
}

/* the knobs of s's NICs that the model does not have and that change what
 * they do, named in r->left_out */
static void left_out(const struct scenario *s, struct fluidrun_result *r)
{
	const struct scn_dcqcn *k = &s->dcqcn;
	size_t n = 0, len = sizeof(r->left_out);
	r->left_out[0] = '\0';
	if (k->rpg_hai_rate_bps > k->rpg_ai_rate_bps)
		n += (size_t)snprintf(r->left_out + n, len - n, "%shyper increase (rpg_hai_rate %g "
				      "Mbps once both counters pass F; the model adds R_AI only)",
				      n ? "; " : "", (double)k->rpg_hai_rate_bps / 1e6);
	if (n < len && k->rpg_min_dec_fac_pct > 0)
		n += (size_t)snprintf(r->left_out + n, len - n, "%srpg_min_dec_fac %u (a cut "
				      "keeps at least %u %% of Rc)", n ? "; " : "",
				      k->rpg_min_dec_fac_pct, k->rpg_min_dec_fac_pct);
	if (n < len && !k->clamp_tgt_rate)
		snprintf(r->left_out + n, len - n, "%sclamp_tgt_rate 0 (Rt kept through cuts "
			 "with no %sincrease between; the model sets Rt = Rc at every cut)",
			 n ? "; " : "", k->clamp_tgt_rate_after_time_inc ? "" : "byte-counter ");
}

int fluidrun_check(const struct scenario *s, char *err, size_t len)
{
	struct fluidrun_setup su;
	int rc = fluidrun_setup_of(s, &(struct fluidrun_opts){ 0 }, &su, err, len);
	if (rc)
		return rc;
	char why[512];
	struct fluid *f = fluid_new(&su.p, why, sizeof(why));
	rc = f ? 0 : refuse(err, len, "%s", why);
	fluid_free(f);
	fluidrun_setup_free(&su);
	return rc;
}

int fluidrun_run(const struct scenario *s, const struct fluidrun_opts *o, struct fluidrun_result *r,
	      char *err, size_t len)
{
	struct fluidrun_setup su;
	memset(r, 0, sizeof(*r));
	int rc = fluidrun_setup_of(s, o, &su, err, len);
	if (rc)
		return rc;
	analyse(&su, r);
	rc = integrate(&su, o->out_dir, r, err, len);
	judge(&su, r);
	left_out(s, r);
	if (!rc && o->out_dir)
		rc = write_summary(o->out_dir, r, err, len);
	fluidrun_setup_free(&su);
	return rc;
}

/* the integrated run in a word or two, beside the fixed point */
static const char *run_word(const struct fluidrun_result *r)
{
	if (r->oscillating)
		return "oscillating";
	if (!r->fixed_ok)
		return r->settling ? "settling" : "settled";
	if (r->reached)
		return r->margin_ok && !r->stable ? "at the fixed point, no oscillation grown yet"
						  : "settled at the fixed point";
	if (r->slow_rate)
		return "below its share, not at the fixed point";
	return r->settling ? "settling, not at the fixed point yet"
			   : "settled, not at the fixed point";
}

/* why the run and the margin say what they say, when it needs saying */
static void print_why(const struct fluidrun_result *r, FILE *out)
{
	if (r->fixed_ok && r->slow_rate && r->recover_ms > r->duration_ms / 2)
		fprintf(out, "  not at the fixed point: the flows average %.4f Gbps of their %.4f "
			     "Gbps share; additive increase (R_AI %.3g Mbps per expiry of the %.0f "
			     "us timer or the byte counter, after F = %u fast-recovery steps) needs "
			     "about %.3g ms more to get there, against the run's %.3f ms: the run "
			     "does not test the margin's verdict (a longer sim.duration or a "
			     "larger rpg_ai_rate would)\n",
			r->mean_rate_gbps, r->fp_rate_gbps, r->ai_mbps, r->timer_us, r->fr_steps,
			r->recover_ms, r->duration_ms);
	else if (r->fixed_ok && !r->reached)
		fprintf(out, "  not at the fixed point: the queue averages %.1f B against %.1f B, "
			     "a flow %.4f Gbps against %.4f%s; alpha's time constant tau'/g is "
			     "%.3g ms against the run's %.3f ms\n",
			r->mean_queue_bytes, r->fp_queue_bytes, r->mean_rate_gbps, r->fp_rate_gbps,
			r->oscillating ? " (it oscillates)" : "", r->alpha_tc_ms, r->duration_ms);
	else if (r->settling && !r->oscillating)
		fprintf(out, "  the queue still drifts in the run's second half: a longer "
			     "sim.duration would settle it (alpha's time constant is tau' / g)\n");
	if (!r->margin_ok || !r->reached)
		return;
	if (!r->stable && !r->oscillating)
		fprintf(out, "  the margin is negative yet the run shows no oscillation: a margin "
			     "of %.2f deg grows one slowly, too slowly to show in %.3f ms here\n",
			r->pm_deg, r->duration_ms);
	else if (r->stable && r->oscillating)
		fprintf(out, "  the margin is positive yet the run oscillates: the swing comes from "
			     "the nonlinear terms (the ramp's ends, the rate limits), outside the "
			     "linear analysis\n");
}

void fluidrun_print(const struct fluidrun_result *r, FILE *out)
{
	fprintf(out, "fluid model: %u flows into %.3f Gbps, feedback delay tau* %.3f us, "
		     "step %.1f ns, %.3f ms (%u class%s integrated)\n",
		r->flows, r->cap_gbps, r->delay_us, r->step_ns, r->duration_ms, r->classes,
		r->classes == 1 ? "" : "es");
	fprintf(out, "  %-22s %14s %12s %10s %12s\n", "", "queue (B)", "mark prob", "alpha",
		"rate (Gbps)");
	if (r->fixed_ok)
		fprintf(out, "  %-22s %14.1f %12.6f %10.6f %12.4f\n", "fixed point (solved)",
			r->fp_queue_bytes, r->fp_mark_prob, r->fp_alpha, r->fp_rate_gbps);
	else
		fprintf(out, "  %-22s %s\n", "fixed point (solved)", r->no_fixed);
	fprintf(out, "  %-22s %14.1f %12.6f %10.6f %12.4f\n", "integrated, 2nd half",
		r->mean_queue_bytes, r->mean_mark_prob, r->mean_alpha, r->mean_rate_gbps);
	if (r->margin_ok)
		fprintf(out, "  phase margin %.2f deg at %.1f rad/s: %s at the fixed point; the "
			     "integrated run: %s, queue swing %.1f B in the last quarter\n",
			r->pm_deg, r->wc_rad_s, r->stable ? "stable" : "unstable", run_word(r),
			r->swing4_bytes);
	else
		fprintf(out, "  phase margin: %s; the integrated run: %s, queue swing %.1f B in "
			     "the last quarter\n", r->beyond_ramp ? "none, p* > pmax: the fixed "
			     "point is in the ramp's jump at kmax (the queue dithers there)"
			     : !r->fixed_ok ? "none (no fixed point)" : "no crossover found",
			run_word(r), r->swing4_bytes);
	print_why(r, out);
	if (r->left_out[0])
		fprintf(out, "  the model leaves out, of this scenario's [dcqcn]: %s\n", r->left_out);
}

/* the integrated run in one column of the sweep's table */
static const char *sweep_word(const struct fluidrun_result *r)
{
	if (r->oscillating)
		return "oscillating";
	if (!r->fixed_ok || r->reached)
		return r->settling ? "settling" : "settled";
	return r->slow_rate ? "below share" : "off fixed pt";
}

int fluidrun_sweep(const struct scenario *s, const struct fluidrun_opts *o, uint32_t nlo,
		uint32_t nhi, FILE *out, char *err, size_t len)
{
	if (nlo < 1 || nhi < nlo || nhi > 1000000)
		return refuse(err, len, "--sweep-flows %u:%u: 1 <= A <= B <= 1000000", nlo, nhi);
	int header = 0;
	for (uint64_t n = nlo;;) {
		struct fluidrun_opts so = *o;
		struct fluidrun_result r;
		so.flows = (uint32_t)n;
		so.out_dir = NULL;
		int rc = fluidrun_run(s, &so, &r, err, len);
		if (rc)
			return rc;
		if (!header++)
			fprintf(out, "# tau* %.3f us, %.3f Gbps, N over powers of 2 (and the upper "
				     "bound); integrated %.3f ms each\n"
				     "# fixed point: queue, mark prob, alpha, margin, verdict; the "
				     "integrated run's 2nd half: queue, rate per flow (the fixed "
				     "point's is C/N), what it does\n"
				     "%6s %12s %10s %9s %8s %11s %12s %10s %11s %12s\n",
				r.delay_us, r.cap_gbps, r.duration_ms, "N", "queue (B)", "mark prob",
				"alpha", "margin", "verdict", "int. q (B)", "int. Gbps",
				"integrated", "swing (B)");
		char margin[32] = "-", q[32] = "-", p[32] = "-", a[32] = "-";
		if (r.margin_ok)
			snprintf(margin, sizeof(margin), "%.2f", r.pm_deg);
		if (r.fixed_ok) {
			snprintf(q, sizeof(q), "%.1f", r.fp_queue_bytes);
			snprintf(p, sizeof(p), "%.6f", r.fp_mark_prob);
			snprintf(a, sizeof(a), "%.6f", r.fp_alpha);
		}
		fprintf(out, "%6u %12s %10s %9s %8s %11s %12.1f %10.4f %11s %12.1f\n", r.flows,
			q, p, a, margin,
			!r.fixed_ok	? (r.no_fixed[0] == 'u' ? "uncongested" : "no fixed pt")
			: r.beyond_ramp ? "p*>pmax"
			: !r.margin_ok	? "unknown"
			: r.stable	? "stable"
					: "oscillating",
			r.mean_queue_bytes, r.mean_rate_gbps, sweep_word(&r), r.swing4_bytes);
		if (n == nhi)
			break;
		uint64_t next = 1;
		while (next <= n)
			next *= 2;
		n = next < nhi ? next : nhi;
	}
	return 0;
}
