/*
 * warnings.c - settings that load and run but put a deployment at risk
 * (docs/scenario.md#warnings).  A warning is not an error: an experiment may want
 * exactly this setting (the teaching scenarios break things on purpose), so
 * `check` and `run` say it, run directories keep it in warnings.txt, and
 * nothing stops.
 *
 * The rules, in the order they are reported
 *   - qos.nccl_ib_tc given with ECN bits 00 (Not-ECT, e.g. 104 instead of
 *     106): a switch that honours the TOS byte never marks NCCL's packets.
 *   - a job's DSCP (qos.data_dscp, or job.NAME.dscp) maps to a priority
 *     without PFC while PFC is on for others: RoCE lands in a lossy queue.
 *   - with nic.cc = dcqcn, the data priority's queue without ECN
 *     (ecn.queues): DCQCN never sees a mark.
 *   - pfc.headroom given below the formula (derived.c) of some port class:
 *     a pause cannot stop the bytes in flight, lossless packets drop.
 *   - ecn.kmax above buffer.size; else ecn.kmin, then ecn.kmax, above the
 *     queue depth at which PFC pauses a single sender (a PG saturating
 *     alone: reserved + alpha / (1 + alpha) x the smallest shared pool of
 *     any switch tier, mmu.h's closed form with S = 1): the switch pauses
 *     before it marks, or before marking reaches pmax.  More senders pause
 *     later, so one sender is where the warning matters first.
 *   - qos.cnp_priority_strict false with DCQCN: CNPs wait behind data in
 *     the very queues whose congestion they report.
 *   - the PFC watchdog acting later than the NIC gives up: a storm is
 *     declared up to detection_time + poll_interval after it began, while a
 *     QP stuck behind it goes to the error state (ib_retry_cnt + 1) x the
 *     retransmission timeout after its last progress: the job fails first.
 *   - on GPU servers (topology.gpus_per_server > 1), a ring or tree
 *     all-reduce spanning servers with fewer channels than GPUs on one
 *     server: channel c leaves every server by the NIC of rail c mod k
 *     (models/workload/ring.c), so rails without a channel carry nothing.  Reported
 *     per job.
 */
#include "models/scenario/loader.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/core/mmu.h"

struct warn_ctx {
	scn_warn_fn fn;
	void *ctx;
	unsigned n;
};

__attribute__((format(printf, 3, 4))) static void warn(struct warn_ctx *w, const char *key,
							 const char *fmt, ...)
{
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	w->n++;
	if (w->fn)
		w->fn(w->ctx, key, text);
}

static unsigned data_prio(const struct scenario *s, int dscp)
{
	return s->dscp_to_prio[dscp];
}

/* the DSCP of every job (and qos.data_dscp) against the lossless priorities */
static void warn_lossy_roce(const struct scenario *s, struct warn_ctx *w)
{
	char prios[32];
	uint64_t seen = 0;

	if (!s->pfc_prios)
		return; /* PFC off: a lossy fabric on purpose */
	scn_prios_text(s->pfc_prios, prios, sizeof(prios));
	if (!(s->pfc_prios & (1u << data_prio(s, s->data_dscp))))
		warn(w, "qos.data_dscp",
		     "RoCE at DSCP %u goes to priority %u, which has no PFC (pfc.priorities = %s): "
		     "it is dropped instead of paused when a queue fills; map it to a lossless "
		     "priority (qos.dscp_to_priority) or use its DSCP",
		     s->data_dscp, data_prio(s, s->data_dscp), prios);
	seen |= UINT64_C(1) << s->data_dscp;
	for (uint32_t j = 0; j < s->njobs; j++) {
		const struct scn_job *job = &s->jobs[j];
		char key[64 + SCN_NAME_LEN];

		if (job->dscp < 0 || (seen >> job->dscp) & 1)
			continue;
		seen |= UINT64_C(1) << job->dscp;
		if (s->pfc_prios & (1u << data_prio(s, job->dscp)))
			continue;
		snprintf(key, sizeof(key), "job.%s.dscp", job->name);
		warn(w, key,
		     "DSCP %d goes to priority %u, which has no PFC (pfc.priorities = %s): this "
		     "job's RoCE is dropped instead of paused when a queue fills",
		     job->dscp, data_prio(s, job->dscp), prios);
	}
}

/* the smallest shared pool of any switch tier */
static int64_t smallest_pool(const struct scenario *s)
{
	struct sw_tier t[3];
	int n = scn_switch_tiers(s, t);
	int64_t min = INT64_MAX;

	for (int i = 0; i < n; i++) {
		int64_t pool = scenario_pool_bytes(s, scn_tier_ports(&t[i], 1),
						   scn_tier_ports(&t[i], 0));
		if (pool < min)
			min = pool;
	}
	return min;
}

/* the egress queue depth at which one saturating sender's PG asks for XOFF */
static int64_t xoff_depth_one_sender(const struct scenario *s)
{
	int64_t pool = smallest_pool(s), r = scn_reserved_of(s);

	if (pool <= 0)
		return r;
	/* alpha / (1 + alpha) x pool, alpha = 2^dynamic_th, exactly */
	if (s->dynamic_th >= 0)
		return r + pool * (INT64_C(1) << s->dynamic_th) /
				   ((INT64_C(1) << s->dynamic_th) + 1);
	return r + pool / ((INT64_C(1) << -s->dynamic_th) + 1);
}

static void warn_ecn(const struct scenario *s, struct warn_ctx *w)
{
	unsigned q = data_prio(s, s->data_dscp);
	char a[40], b[40];

	if (s->cc == SCN_CC_DCQCN && !(s->ecn_queues & (1u << q))) {
		char queues[32];
		scn_prios_text(s->ecn_queues, queues, sizeof(queues));
		warn(w, "ecn.queues",
		     "RoCE's queue %u does not mark ECN (ecn.queues = %s) while nic.cc = dcqcn: "
		     "DCQCN never sees congestion and PFC does all the work",
		     q, *queues ? queues : "none");
	}
	if (!s->ecn_queues)
		return;
	if (s->ecn_kmax_bytes > s->buffer_bytes) {
		warn(w, "ecn.kmax",
		     "%s is above buffer.size %s: no queue gets that deep, marking never "
		     "reaches pmax",
		     units_format_size(s->ecn_kmax_bytes, a, sizeof(a)),
		     units_format_size(s->buffer_bytes, b, sizeof(b)));
		return;
	}
	if (!s->pfc_prios || !(s->pfc_prios & (1u << q)))
		return;
	int64_t xoff = xoff_depth_one_sender(s);
	char why[160];
	snprintf(why, sizeof(why),
		 "the queue depth at which PFC pauses a single sender (%.2f MB: reserved + "
		 "alpha / (1 + alpha) of the smallest shared pool, %.2f MB, alpha 2^%d)",
		 (double)xoff / 1e6, (double)smallest_pool(s) / 1e6, s->dynamic_th);
	if (s->ecn_kmin_bytes >= xoff)
		warn(w, "ecn.kmin",
		     "%s is above %s: the switch pauses before it marks, so DCQCN acts late and "
		     "PFC does the work; keep Kmin well below it",
		     units_format_size(s->ecn_kmin_bytes, a, sizeof(a)), why);
	else if (s->ecn_kmax_bytes > xoff)
		warn(w, "ecn.kmax",
		     "%s is above %s: the switch pauses before marking reaches pmax; keep Kmax "
		     "below it",
		     units_format_size(s->ecn_kmax_bytes, a, sizeof(a)), why);
}

/* pfc.headroom given: against the formula of every port class */
static void warn_headroom(const struct scenario *s, struct warn_ctx *w)
{
	struct {
		const char *what;
		int64_t rate, cable;
	} cls[2] = {
		{ "host", s->host_link_bps, s->host_cable_mm },
		{ "fabric", s->fabric_link_bps, s->fabric_cable_mm },
	};
	int n = scenario_switches(s) > 1 ? 2 : 1; /* a star has no fabric link */
	char a[40], c[40], d[40];

	if (!s->pfc_prios || s->headroom_bytes == SCN_AUTO)
		return;
	for (int i = 0; i < n; i++) {
		int64_t need = scn_headroom_terms(s, cls[i].rate, cls[i].cable).total;
		if (s->headroom_bytes >= need)
			continue;
		warn(w, "pfc.headroom",
		     "%s is below what a %s port needs (%" PRId64 " B at %s over %s of cable; "
		     "`check` shows the terms): the bytes in flight after XOFF overflow it and "
		     "lossless packets are dropped; use auto",
		     units_format_size(s->headroom_bytes, a, sizeof(a)), cls[i].what, need,
		     units_format_rate(cls[i].rate, c, sizeof(c)),
		     units_format_length(cls[i].cable, d, sizeof(d)));
		return; /* one line: the first port class that falls short */
	}
}

static void warn_watchdog(const struct scenario *s, struct warn_ctx *w)
{
	char a[40], b[40], c[40], d[40];
	sim_time_ps react = s->pfcwd_detect_ps + s->pfcwd_poll_ps;
	sim_time_ps budget = (s->nic_ib_retry_cnt + 1) * scenario_rto_ps(s);

	if (!s->pfc_prios || !s->pfcwd_enable || react < budget)
		return;
	warn(w, "pfcwd.detection_time",
	     "%s plus a poll_interval is %s, but a QP stuck behind a pause storm goes to the "
	     "error state after (nic.ib_retry_cnt + 1) x %s = %s without progress: the job "
	     "fails before the watchdog acts; detect sooner, or raise nic.ib_timeout",
	     units_format_time(s->pfcwd_detect_ps, a, sizeof(a)),
	     units_format_time(react, b, sizeof(b)),
	     units_format_time(scenario_rto_ps(s), c, sizeof(c)),
	     units_format_time(budget, d, sizeof(d)));
}

/* the most ranks of a job on one server, and how many servers it spans
 * (0, 0 when out of memory) */
static uint32_t ranks_per_server(const struct scenario *s, const struct scn_job *j,
				 uint32_t *servers)
{
	uint32_t most = 0, g = s->gpus_per_server;
	uint32_t *per = calloc(scenario_hosts(s) / g, sizeof(*per));
	*servers = 0;
	for (uint32_t a = 0; per && a < j->ranks.n; a++) {
		uint32_t *k = &per[j->ranks.hosts[a] / g];
		*servers += !*k;
		most = ++*k > most ? *k : most;
	}
	free(per);
	return most;
}

static void warn_idle_rails(const struct scenario *s, struct warn_ctx *w)
{
	char key[SCN_NAME_LEN + 16];
	uint32_t servers;

	if (s->gpus_per_server == 1)
		return;
	for (uint32_t i = 0; i < s->njobs; i++) {
		const struct scn_job *j = &s->jobs[i];
		if (j->pattern != SCN_JOB_RING_ALLREDUCE)
			continue;
		uint32_t k = ranks_per_server(s, j, &servers);
		if (servers < 2 || j->channels >= k)
			continue;
		snprintf(key, sizeof(key), "job.%s.channels", j->name);
		warn(w, key,
		     "%" PRIu32 " with %" PRIu32 " GPUs per server: channel c leaves each server by "
		     "the NIC of rail c, so %" PRIu32 " of the %" PRIu32 " NICs carry nothing; "
		     "NCCL opens at least one channel per NIC (use %" PRIu32 ", or %" PRIu32
		     " for both trees of algorithm = tree)",
		     j->channels, k, k - j->channels, k, k, 2 * k);
	}
}

unsigned scenario_warnings(const struct scenario *s, scn_warn_fn fn, void *ctx)
{
	struct warn_ctx w = { fn, ctx, 0 };

	if (s->tc_ecn_bits == 0)
		warn(&w, "qos.nccl_ib_tc",
		     "%u has ECN bits 00 (Not-ECT): a switch that honours the TOS byte never "
		     "marks NCCL's packets and DCQCN never slows down; use %u (ECT(0)), as "
		     "NCCL_IB_TC=106 does (this simulation marks them either way)",
		     s->data_dscp << 2, (s->data_dscp << 2) | 2);
	warn_lossy_roce(s, &w);
	warn_ecn(s, &w);
	warn_headroom(s, &w);
	if (s->cc == SCN_CC_DCQCN && !s->cnp_priority_strict)
		warn(&w, "qos.cnp_priority_strict",
		     "false: CNPs queue behind data in the congested queues they report, so "
		     "DCQCN learns of congestion late; SONiC and NVIDIA put CNPs in a strict "
		     "priority queue");
	warn_watchdog(s, &w);
	warn_idle_rails(s, &w);
	return w.n;
}

struct warn_out {
	FILE *out;
	const char *prefix;
};

static void put_line(void *ctx, const char *key, const char *text)
{
	const struct warn_out *w = ctx;
	fprintf(w->out, "%s%s: %s\n", w->prefix, key, text);
}

unsigned scenario_write_warnings(const struct scenario *s, FILE *out, const char *prefix)
{
	struct warn_out w = { out, prefix };
	return scenario_warnings(s, put_line, &w);
}

void scenario_print_warnings(const struct scenario *s, FILE *out)
{
	fprintf(out, "# warnings: %u\n", scenario_warnings(s, NULL, NULL));
	scenario_write_warnings(s, out, "# ");
}
