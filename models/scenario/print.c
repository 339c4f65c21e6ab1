/*
 * print.c - the resolved scenario as an INI file that loads back to the
 * same values (scenario_print), and the values it implies as # comments
 * (scenario_print_derived, what `dcqcn-sim check` shows).
 *
 * Choices where the brief is silent
 *   - scenario_print() omits job.NAME.dscp when it is -1 (qos.data_dscp) and
 *     writes a comment instead, since -1 is not a valid value to load.
 *   - with nic.cc = none, scenario_print() writes a comment in place of
 *     [dcqcn], whose keys would not load back.
 */
#include "models/scenario/loader.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/core/link.h"
#include "models/core/mmu.h"
#include "models/core/pfc.h"
#include "models/core/pkt.h"
#include "models/scenario/training.h"

/* ---- the scenario as INI ---- */

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
		const struct key_def *k = &scn_key_defs[i];

		int64_t off;

		if (k->sec != sec || k->type == KT_TODO || (k->flags & KF_NOPRINT) ||
		    !scn_key_applies(k, base, NULL))
			continue;
		/* a key of RoCE's transport on another fabric: not written (the
		 * on/off keys are, with the fabric's own value) */
		if (s->fabric_type != SCN_FABRIC_ROCE &&
		    scn_fabric_foreign(k, (enum scn_fabric)s->fabric_type) &&
		    !scn_fabric_default(k, (enum scn_fabric)s->fabric_type, &off))
			continue;
		if (k->type == KT_STRAGGLERS &&
		    ((const struct scn_stragglers *)(const void *)((const char *)base + k->off))->n == 0)
			continue; /* none: the key is not written */
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
		scn_format_value(k, base, buf, sizeof(buf));
		fprintf(out, "%s =%s%s\n", k->name, buf[0] ? " " : "", buf);
	}
}

/* "# from WHERE: KEY, KEY": the scenario-wide keys whose values came from
 * the command line or an imported configuration (the others are the
 * file's, or defaults), so that a run's scenario.ini says how it was made;
 * nothing when there are none (a reloaded scenario.ini has none) */
void scenario_print_origins(const struct scenario *s, FILE *out)
{
	int printed = 0;
	for (int o = SCN_FROM_SET; o <= SCN_FROM_NIC_CONFIG; o++) {
		const char *path = !s->imported		      ? NULL
				   : o == SCN_FROM_SWITCH_CONFIG ? s->imported->switch_path
								 : s->imported->nic_path;
		char where[600];
		if (o == SCN_FROM_SET)
			snprintf(where, sizeof(where), "the command line (--set, --vary, --tune)");
		else
			snprintf(where, sizeof(where), "%s %s",
				 o == SCN_FROM_SWITCH_CONFIG ? "--switch-config" : "--nic-config",
				 path ? path : "");
		scn_one_line(where);
		int n = 0;
		for (size_t i = 0; i < N_KEYS; i++) {
			const struct key_def *k = &scn_key_defs[i];
			if (s->key_origin[i] != o || (k->flags & KF_NOPRINT) ||
			    scn_section_defs[k->sec].named)
				continue;
			if (!n++)
				fprintf(out, "%s# from %s: ", printed++ ? "" : "\n", where);
			else
				fputs(", ", out);
			fprintf(out, "%s.%s", scn_section_defs[k->sec].name, k->name);
		}
		if (n)
			fputc('\n', out);
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
	scn_one_line(src);
	fprintf(out, "# dcqcn-sim scenario, resolved from %s, seed %" PRIu64 "\n", src,
		s->seed);
	/* what this version does not implement: sections, then keys ([ib]'s
	 * only on an InfiniBand fabric, where they apply) */
	for (sec = 0; sec < SEC_COUNT; sec++)
		if (!scn_section_defs[sec].implemented) {
			fprintf(out, "%s [%s%s]", *sep ? "" : "# not implemented in this version:",
				scn_section_defs[sec].name, scn_section_defs[sec].named ? ".*" : "");
			sep = " ";
		}
	if (*sep)
		fprintf(out, "\n");
	sep = "";
	for (i = 0; i < N_KEYS; i++)
		if (scn_key_defs[i].type == KT_TODO && scn_section_defs[scn_key_defs[i].sec].implemented &&
		    (scn_key_defs[i].sec != SEC_IB || s->fabric_type == SCN_FABRIC_IB)) {
			fprintf(out, "%s %s%s.%s", *sep ? sep : "# nor the keys",
				scn_section_defs[scn_key_defs[i].sec].name,
				scn_section_defs[scn_key_defs[i].sec].named ? ".*" : "",
				scn_key_defs[i].name);
			sep = ",";
		}
	for (i = 0; i < N_KEYS; i++)
		if (scn_key_defs[i].later) {
			char names[128];

			scn_join_names(scn_key_defs[i].later, " | ", names, sizeof(names));
			fprintf(out, "%snor %s%s.%s = %s", *sep ? "; " : "# ",
				scn_section_defs[scn_key_defs[i].sec].name,
				scn_section_defs[scn_key_defs[i].sec].named ? ".*" : "", scn_key_defs[i].name,
				names);
			sep = ";";
		}
	if (*sep)
		fprintf(out, "\n");

	for (sec = 0; sec < SEC_COUNT; sec++) {
		if (!scn_section_defs[sec].implemented || scn_section_defs[sec].named)
			continue;
		if (sec == SEC_FABRIC && s->fabric_type == SCN_FABRIC_ROCE)
			continue; /* roce, the default: the file reads as before [fabric] existed */
		if ((sec == SEC_IB && s->fabric_type != SCN_FABRIC_IB) ||
		    (sec == SEC_TCP && s->fabric_type != SCN_FABRIC_TCP))
			continue; /* another fabric's */
		if (sec == SEC_DCQCN && s->cc != SCN_CC_DCQCN) {
			/* every [dcqcn] key needs nic.cc = dcqcn */
			fprintf(out, "\n# [dcqcn] omitted: nic.cc = %s\n",
				s->cc == SCN_CC_NONE ? "none" : "?");
			continue;
		}
		fprintf(out, "\n[%s]\n", scn_section_defs[sec].name);
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

/* ---- derived values ---- */

static int64_t gcd64(int64_t a, int64_t b)
{
	while (b) {
		int64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* time to serialize `bytes` on the wire at `bps` (link.h): floor in ps, and
 * the remainder of bits x 10^12 / bps */
static sim_time_ps serialization_ps(int64_t bytes, int64_t bps, int64_t *rem)
{
	struct serializer ser = { bps, 0 };
	sim_time_ps t = ser_time(&ser, (uint32_t)bytes);

	*rem = ser.rem;
	return t;
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
	t += host_links * s->host_cable_mm * LINK_PS_PER_MM +
	     fabric_links * s->fabric_cable_mm * LINK_PS_PER_MM;
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

	t = scn_headroom_terms(s, rate, cable);
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

/* PFC and buffer values of `check` (docs/contract.md#commands): per port class and switch tier */
static void print_pfc_derived(const struct scenario *s, FILE *out)
{
	struct sw_tier tiers[3];
	int nt = scn_switch_tiers(s, tiers), i, c;
	char what[64], a[40], b[40], text[400];
	struct topo topo;

	scn_topo(s, &topo);
	fprintf(out, "# buffer: lossless alpha 2^%d = %s%" PRId64 ", lossy alpha 2^%d = %s%" PRId64,
		s->dynamic_th, s->dynamic_th < 0 ? "1/" : "",
		INT64_C(1) << (s->dynamic_th < 0 ? -s->dynamic_th : s->dynamic_th),
		s->lossy_dynamic_th, s->lossy_dynamic_th < 0 ? "1/" : "",
		INT64_C(1) << (s->lossy_dynamic_th < 0 ? -s->lossy_dynamic_th : s->lossy_dynamic_th));
	if (s->cell_bytes)
		fprintf(out, ", accounting in %" PRId64 "B cells (a %" PRId64 "B data frame is charged %"
			PRId64 "B)\n",
			s->cell_bytes, scn_data_frames(s, 1), mmu_charge(s->cell_bytes, scn_data_frames(s, 1)));
	else
		fprintf(out, ", byte exact accounting\n");
	if (s->fabric_type == SCN_FABRIC_IB) {
		/* one frame's credit round trip on a host link (docs/fabrics.md#infiniband-fabrictype--infiniband) */
		int64_t frame = scn_data_frames(s, 1), r = s->host_link_bps;
		double ser = (double)(frame + 20) * 8e12 / (double)r, sc = 84 * 8e12 / (double)r;
		double prop = (double)s->host_cable_mm * 5, lat = (double)s->switch_latency_ps;
		double rt = 2 * ser + 2 * prop + lat + (double)s->ib_credit_delay_ps + sc;
		int64_t per = (frame + 63) / 64, credits = s->ib_vl_buffer_bytes / 64;
		int64_t frames = credits / per;
		double ceil_gbs = (double)frames * (double)s->mtu_bytes / rt * 1e3;
		double line_gbs = (double)r / 8e9 * (double)s->mtu_bytes / (double)(frame + 20);
		fprintf(out,
			"# InfiniBand: credits, not PFC: %" PRId64 " credits of 64 B per VL and port "
			"(ib.vl_buffer), %" PRId64 " per data frame: %" PRId64 " frames in flight per VL\n"
			"# credit round trip of a frame from a host to its switch: %.2fns; a flow's "
			"ceiling there %.2f GB/s (%s)\n",
			credits, per, frames, rt / 1e3, ceil_gbs < line_gbs ? ceil_gbs : line_gbs,
			ceil_gbs < line_gbs ? "vl_buffer per round trip: below line rate"
					    : "vl_buffer covers the round trip: line rate");
	}
	if (!s->pfc_prios) {
		fprintf(out, "# PFC off (pfc.priorities is empty): no headroom, no pause frames\n");
	} else {
		scn_prios_text(s->pfc_prios, a, sizeof(a));
		fprintf(out, "# PFC on priorities %s: per lossless PG of each port\n", a);
		for (i = 0; i < nt; i++)
			for (c = 0; c < tiers[i].npc; c++) {
				snprintf(what, sizeof(what), "%s ports to %s", tiers[i].name,
					 tiers[i].pc[c].peers);
				print_port_class(s, out, what, tiers[i].pc[c].host);
			}
		snprintf(what, sizeof(what), "NIC ports to %s",
			 topo.g ? "switches" : scn_tier_words[topo_host_uplink(&topo, 0).tier].peers);
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
		int64_t pool = scn_pool_text(s, &tiers[i], text, sizeof(text));

		if (s->topo == SCN_TOPO_FILE)
			fprintf(out, "# smallest shared pool of the %" PRIu32 " switches, %s's: %s",
				tiers[i].count, topo_switch_name(&topo, tiers[i].first, what,
								 sizeof(what)),
				text);
		else if (tiers[i].count == 1)
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

/* WRED/ECN (docs/model.md#ecn): thresholds in data frames and as time at host_link */
static void print_ecn_derived(const struct scenario *s, FILE *out)
{
	int64_t frame = scn_data_frames(s, 1);
	char q[40], a[40], b[40], c[40], d[40], e[40], f[40];

	if (!s->ecn_queues) {
		fprintf(out, "# ECN off (ecn.queues is empty): no marking, no CNPs\n");
		return;
	}
	scn_prios_text(s->ecn_queues, q, sizeof(q));
	fprintf(out, "# ECN on queues %s: WRED kmin %s, kmax %s, pmax %s, marked on %s\n", q,
		units_format_size(s->ecn_kmin_bytes, a, sizeof(a)),
		units_format_size(s->ecn_kmax_bytes, b, sizeof(b)),
		units_format_fraction(s->ecn_pmax_ppb, c, sizeof(c)),
		scn_mark_point_names[s->ecn_mark_point == SCN_MARK_ENQUEUE]);
	fprintf(out, "# ECN thresholds: kmin %s, kmax %s data frames of %" PRId64
		" B; kmin %s us, kmax %s us of sending at host_link %s\n",
		format_centi(s->ecn_kmin_bytes, frame, a, sizeof(a)),
		format_centi(s->ecn_kmax_bytes, frame, b, sizeof(b)), frame,
		format_send_us(s->ecn_kmin_bytes, s->host_link_bps, d, sizeof(d)),
		format_send_us(s->ecn_kmax_bytes, s->host_link_bps, e, sizeof(e)),
		units_format_rate(s->host_link_bps, f, sizeof(f)));
}

/* DCQCN (docs/model.md#dcqcn): byte counter interval, alpha half-life, steps, cut */
static void print_dcqcn_derived(const struct scenario *s, FILE *out)
{
	const struct scn_dcqcn *d = &s->dcqcn;
	uint32_t gnum = 1024 - (d->dce_tcp_g > 1023 ? 1023 : d->dce_tcp_g);
	char a[40], b[40], c[40];

	if (s->fabric_type == SCN_FABRIC_IB && s->ib_cc) {
		/* docs/fabrics.md#infiniband-congestion-control-ibcc--on */
		double frame_ns =
			(double)(scn_data_frames(s, 1) + 20) * 8e9 / (double)s->host_link_bps;
		fprintf(out,
			"# InfiniBand congestion control (ib.cc): FECN at a port/VL queue of "
			"%" PRId64
			"B or more (threshold %" PRId64 "), one eligible packet in %" PRId64
			"; a BECN adds %" PRId64 " to the CCTI (%" PRId64 "-%" PRId64
			"), which falls by one every %.3fus\n"
			"# CCT entry i delays i/4 x %.2fns (a full frame on the host link): rate "
			"4/(4 + i) of the line, %.1f%% at ccti_limit\n",
			s->ib_threshold ? s->ib_vl_buffer_bytes * (16 - s->ib_threshold) / 16 : 0,
			s->ib_threshold, s->ib_marking_rate + 1, s->ib_ccti_increase, s->ib_ccti_min,
			s->ib_ccti_limit, (double)s->ib_ccti_timer * 1.024, frame_ns,
			400.0 / (4.0 + (double)s->ib_ccti_limit));
		return;
	}
	if (s->cc != SCN_CC_DCQCN) {
		fprintf(out, "# congestion control off (nic.cc = none): no CNPs, senders at line rate\n");
		return;
	}
	fprintf(out, "# DCQCN profile %s; CNPs at DSCP %u (priority %u%s), at most one per %s"
		" per %s (min_time_between_cnps)\n",
		scn_profile_names[s->dcqcn_profile <= SCN_DCQCN_HPCC ? s->dcqcn_profile : 0],
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
	/* where each firmware unit comes from (docs/scenario.md#firmware-units-of-dcqcn) */
	fprintf(out, "# DCQCN firmware units: a bare rate is Mbps, a bare time us (mlxconfig's "
		     "RPG_*_RATE, RPG_TIME_RESET, DCE_TCP_RTT texts), alpha and dce_tcp_g 1/1024 "
		     "(INITIAL_ALPHA_VALUE: a fraction of 2^10); a bare rpg_byte_reset counts "
		     "64-byte units (docs/model.md#dcqcn: 32767 = 2097088 B) although mlxconfig's "
		     "RPG_BYTE_RESET text says bytes: the sources disagree, write 32767B for the "
		     "bytes reading\n");
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
	if (d->cut_on == SCN_CUT_ON_TIMER)
		fprintf(out, "cuts on a %s timer from a QP's first CNP, at the tick after a CNP"
			" (cut_on = timer: the first cut one period after the first CNP)",
			units_format_time(d->rate_reduce_monitor_period_ps, a, sizeof(a)));
	else if (d->rate_reduce_monitor_period_ps)
		fprintf(out, "at most one cut per %s",
			units_format_time(d->rate_reduce_monitor_period_ps, a, sizeof(a)));
	else
		fprintf(out, "a cut on every CNP");
	fprintf(out, "%s\n", d->rate_change_reschedules ? ""
			      : "; a paced send time stays when the rate changes"
				" (rate_change_reschedules = false)");
}

/* a time as the units print it, or from 1 s on in seconds to 2 decimals */
static const char *format_long_time(sim_time_ps t, char *buf, size_t len)
{
	if (t < UNITS_PS_PER_S)
		return units_format_time(t, buf, len);
	snprintf(buf, len, "%.2f s", (double)t / (double)UNITS_PS_PER_S);
	return buf;
}

/* a links file's graph: the most switches between two hosts, over one host
 * of each switch that has hosts */
static uint32_t file_diameter(const struct topo *t)
{
	uint32_t most = 1, n = 0, *rep = malloc(t->switches * sizeof(*rep));
	uint8_t *seen = calloc(t->switches, 1);
	for (uint32_t h = 0; rep && seen && h < t->hosts; h++) {
		uint32_t sw = topo_host_leaf(t, h);
		if (!seen[sw]) {
			seen[sw] = 1;
			rep[n++] = h;
		}
	}
	for (uint32_t a = 0; rep && seen && a < n; a++)
		for (uint32_t b = a + 1; b < n; b++) {
			uint32_t hops = topo_hops(t, rep[a], rep[b]);
			most = hops > most ? hops : most;
		}
	free(rep);
	free(seen);
	return most;
}

/* leaf-spine and rail-optimized: the rails, the leaves' oversubscription and
 * the bisection bandwidth */
static void print_leaf_derived(const struct scenario *s, const struct topo *tp, uint64_t hosts,
			       FILE *out)
{
	char a[40], b[40], c[40];
	uint32_t per_leaf = tp->hpl, uplinks = s->spines * s->uplinks_per_spine;
	int64_t down = (int64_t)per_leaf * s->host_link_bps;
	int64_t up = (int64_t)uplinks * s->fabric_link_bps;
	/* half the hosts to the other half: their links, or half the
	 * leaves' uplinks, whichever is less */
	int64_t half_hosts = (int64_t)(hosts / 2) * s->host_link_bps;
	int64_t half_up = (int64_t)(tp->leaves / 2) * up;

	if (s->topo == SCN_TOPO_RAIL)
		fprintf(out, "# rail-optimized: %" PRIu32 " unit%s x %" PRIu32
			" servers x %" PRIu32 " GPUs; rail leaf leafL is rail L %% %" PRIu32
			" of unit L / %" PRIu32 "; NIC r of every server of a unit goes"
			" to its rail leaf r (%" PRIu32 " rails, %" PRIu32 " rail leaves)\n",
			s->units, s->units == 1 ? "" : "s", s->servers_per_unit,
			s->gpus_per_server, s->gpus_per_server, s->gpus_per_server,
			s->gpus_per_server, tp->leaves);
	fprintf(out, "# leaf oversubscription: %" PRIu32 " x %s down : %" PRIu32
		" x %s up = %.2f:1",
		per_leaf, units_format_rate(s->host_link_bps, a, sizeof(a)), uplinks,
		units_format_rate(s->fabric_link_bps, b, sizeof(b)),
		(double)down / (double)up);
	if (s->uplinks_per_spine > 1)
		fprintf(out, " (%" PRIu32 " parallel links to each of %" PRIu32 " spines)",
			s->uplinks_per_spine, s->spines);
	fprintf(out, "\n# bisection bandwidth: %s (min of half the hosts' links, %s, and"
		" half the leaves' uplinks, %s)\n",
		units_format_rate(half_hosts < half_up ? half_hosts : half_up, a, sizeof(a)),
		units_format_rate(half_hosts, b, sizeof(b)),
		units_format_rate(half_up, c, sizeof(c)));
}

/* the retransmission timeout, and when a QP without progress gives up */
static void print_rto_derived(const struct scenario *s, FILE *out)
{
	char a[40], b[40], c[40];
	sim_time_ps rto = scenario_rto_ps(s);

	if (s->nic_rto_ps == SCN_AUTO)
		snprintf(c, sizeof(c), "4.096us x 2^%d, nic.ib_timeout", s->nic_ib_timeout);
	else
		snprintf(c, sizeof(c), "nic.rto");
	fprintf(out, "# retransmission timeout %s (%s); a QP goes to the error state, and its job "
		     "fails, at the %d%s timeout in a row without progress (nic.ib_retry_cnt %d "
		     "retries): %s after its last progress\n",
		format_long_time(rto, a, sizeof(a)), c, s->nic_ib_retry_cnt + 1,
		s->nic_ib_retry_cnt == 0 ? "st" : s->nic_ib_retry_cnt == 1 ? "nd"
						  : s->nic_ib_retry_cnt == 2 ? "rd" : "th",
		s->nic_ib_retry_cnt, format_long_time((s->nic_ib_retry_cnt + 1) * rto, b, sizeof(b)));
}

void scenario_print_derived(const struct scenario *s, FILE *out)
{
	uint64_t hosts = scenario_hosts(s), host_links = hosts, fabric_links = 0;
	int64_t frame = (int64_t)s->mtu_bytes + PKT_ROCE_HDR_BYTES;
	int64_t wire = frame + PKT_WIRE_OVERHEAD_BYTES;
	int64_t small = PKT_CTRL_FRAME_BYTES + PKT_WIRE_OVERHEAD_BYTES;
	int64_t rem, goodput, centi, bits, bdp, rh, rl, x, y;
	int hl = 2, fl, sw, inexact = 0, nt, i;
	sim_time_ps ser, one_way, rtt;
	char a[40], b[40], c[40];
	struct sw_tier tiers[3];
	struct topo topo;

	/* every fabric link has a fabric port at each end */
	nt = scn_switch_tiers(s, tiers);
	scn_topo(s, &topo);
	for (i = 0; i < nt && !topo.g; i++)
		fabric_links += (uint64_t)tiers[i].count * scn_tier_ports(&tiers[i], 0);
	for (uint32_t k = 0; topo.g && k < topo.switches; k++)
		fabric_links += topo_ports(&topo, k);
	if (topo.g)
		fabric_links -= hosts;
	fabric_links /= 2;
	/* the first and the last host are as far apart as any two (topology.h);
	 * a links file's graph: the farthest pair of hosts */
	sw = (int)(topo.g ? file_diameter(&topo) : topo_hops(&topo, 0, (uint32_t)hosts - 1));
	fl = sw - 1;
	fprintf(out, "# derived values\n");
	fprintf(out, "# hosts %" PRIu64 ", switches %" PRIu32 ", links %" PRIu64
		" (%" PRIu64 " host, %" PRIu64 " fabric)\n",
		hosts, scenario_switches(s), host_links + fabric_links, host_links,
		fabric_links);
	if (s->topo == SCN_TOPO_LEAF_SPINE || s->topo == SCN_TOPO_RAIL)
		print_leaf_derived(s, &topo, hosts, out);
	if (s->gpus_per_server > 1)
		fprintf(out, "# servers: %" PRIu64 " of %" PRIu32 " GPUs (hosts hS*%" PRIu32
			" .. hS*%" PRIu32 "+%" PRIu32 "), joined by NVLink at %s per GPU and"
			" direction, %s latency; traffic between GPUs of one server never"
			" reaches a NIC\n",
			hosts / s->gpus_per_server, s->gpus_per_server, s->gpus_per_server,
			s->gpus_per_server, s->gpus_per_server - 1,
			units_format_rate(s->nvlink_bps, a, sizeof(a)),
			units_format_time(s->nvlink_latency_ps, b, sizeof(b)));
	fprintf(out, "# data frame: %" PRId64 " B (mtu + %d B RoCEv2 headers), %" PRId64
		" B on the wire (+ %d B preamble and inter-frame gap)\n",
		frame, PKT_ROCE_HDR_BYTES, wire, PKT_WIRE_OVERHEAD_BYTES);
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
	goodput = s->host_link_bps * (int64_t)s->mtu_bytes / wire; /* < 1.6e12 x 9000 */
	centi = (goodput + 5000000) / 10000000;    /* Gbps, 2 decimals, rounded */
	x = (goodput + 40000000) / 80000000;       /* GB/s, 2 decimals, rounded */
	fprintf(out, "# goodput ceiling at host_link (x mtu / (mtu + %d)): %" PRId64
		".%02" PRId64 " Gbps = %" PRId64 ".%02" PRId64 " GB/s\n",
		PKT_ROCE_HDR_BYTES + PKT_WIRE_OVERHEAD_BYTES, centi / 100, centi % 100, x / 100,
		x % 100);
	one_way = path_ps(s, wire, hl, fl, sw, &inexact);
	rtt = one_way + path_ps(s, small, hl, fl, sw, &inexact);
	fprintf(out, "# longest host-to-host path: %d hops (%d host links, %d fabric links, %d switch%s)\n",
		hl + fl, hl, fl, sw, sw == 1 ? "" : "es");
	fprintf(out, "# one-way latency of a full frame on it: %s (serialization per link, %d ns/m of cable, switch_latency per switch%s)\n",
		units_format_time(one_way, a, sizeof(a)), LINK_PS_PER_MM,
		inexact ? "; serialization rounded down to whole ps" : "");
	/* bits = host_link * rtt / 1e12 without overflow: host_link = rh * 1e6 + rl */
	rh = s->host_link_bps / 1000000;
	rl = s->host_link_bps % 1000000;
	x = rh * rtt;
	y = rl * rtt;
	bits = x / 1000000 + ((x % 1000000) * 1000000 + y) / UNITS_PS_PER_S;
	bdp = bits / 8;
	fprintf(out, "# round trip (full frame out, %d B frame back): %s; bandwidth-delay product at host_link: %" PRId64 " B (%s)\n",
		PKT_CTRL_FRAME_BYTES, units_format_time(rtt, b, sizeof(b)), bdp,
		units_format_size(bdp, c, sizeof(c)));
	print_pfc_derived(s, out);
	print_ecn_derived(s, out);
	print_dcqcn_derived(s, out);
	print_rto_derived(s, out);
	scn_training_print(s, out);
}
