/*
 * summary.c - a run's verdict and its one-row summary: [criteria] against
 * the result (run_check_criteria), summary.csv's columns (run_summary_csv)
 * and the table `run` prints from them (run_print_summary).  Pure functions
 * of a struct run_result and its scenario.
 */
#include "sim/run/run.h"

#include <stdio.h>
#include <string.h>

#include "models/base/units.h"
#include "models/scenario/scenario.h"

/* a time in us, or "" when there is none (< 0); buf holds 32 */
const char *run_us_text(sim_time_ps ps, char *buf)
{
	if (ps < 0)
		buf[0] = '\0';
	else
		units_format_us(ps, buf, 32);
	return buf;
}

static const char *end_name(enum run_end e)
{
	return e == RUN_END_DONE	  ? "done"
	       : e == RUN_END_DURATION	  ? "duration"
	       : e == RUN_END_INTERRUPTED ? "interrupted"
					  : "terminated";
}

static double mark_pct_of(const struct run_result *r)
{
	return r->data_pkts_delivered
		       ? 100.0 * (double)r->ecn_marked_pkts / (double)r->data_pkts_delivered
		       : 0.0;
}

static double retransmitted_pct_of(const struct run_result *r)
{
	if (!r->data_bytes_delivered)
		return r->retransmitted_bytes ? 100.0 : 0.0;
	return 100.0 * (double)r->retransmitted_bytes / (double)r->data_bytes_delivered;
}

static double pause_rate_of(const struct run_result *r)
{
	return r->sim_time_ps > 0 ? (double)r->pause_frames * 1e12 / (double)r->sim_time_ps : 0.0;
}

void run_check_criteria(const struct scenario *scn, struct run_result *r)
{
	size_t n = 0;
	r->criteria_failed[0] = '\0';
	if (r->end != RUN_END_DONE) { /* what did not finish cannot pass or fail */
		r->criteria_pass = -1;
		snprintf(r->criteria_failed, sizeof(r->criteria_failed), "not judged: %s",
			 r->end == RUN_END_INTERRUPTED ? "the run was interrupted (SIGINT)"
			 : r->end == RUN_END_TERMINATED
				 ? "the run was terminated (SIGTERM or SIGHUP)"
				 : "sim.duration ended the run before its traffic finished");
		return;
	}
#define FAIL_IF(cond, name)                                                                    \
	do {                                                                                   \
		if (cond)                                                                      \
			n += (size_t)snprintf(r->criteria_failed + n,                          \
					      n < sizeof(r->criteria_failed)                   \
						      ? sizeof(r->criteria_failed) - n         \
						      : 0,                                     \
					      "%s%s", n ? ";" : "", name);                     \
	} while (0)
	double busbw = scn->crit_busbw_stat == SCN_BUSBW_MEAN ? r->judged_mean_pct
							      : r->judged_min_pct;
	uint64_t drops = r->drops_lossless + r->drops_lossy + r->drops_pfcwd;
	r->busbw_judged_pct = busbw;
	FAIL_IF(run_marks_judged(scn) &&
			mark_pct_of(r) * 1e7 > (double)scn->crit_max_ecn_mark_ppb,
		"max_ecn_mark_pct");
	FAIL_IF((int64_t)r->drops_lossless > scn->crit_max_lossless_drops, "max_lossless_drops");
	FAIL_IF(r->judged_iterations && busbw * 1e7 < (double)scn->crit_min_busbw_ppb,
		"min_busbw_pct_line");
	FAIL_IF(scn->crit_max_pause_frame_rate != SCN_AUTO &&
			pause_rate_of(r) > (double)scn->crit_max_pause_frame_rate,
		"max_pause_frame_rate");
	FAIL_IF(r->jobs_failed, "jobs_failed");
	FAIL_IF((int64_t)drops > scn->crit_max_drops, "max_drops");
	FAIL_IF(retransmitted_pct_of(r) * 1e7 > (double)scn->crit_max_retransmitted_ppb,
		"max_retransmitted_pct");
#undef FAIL_IF
	r->criteria_pass = n == 0;
}

int run_marks_judged(const struct scenario *scn)
{
	return scn->fabric_type == SCN_FABRIC_ROCE ? scn->cc == SCN_CC_DCQCN
	       : scn->fabric_type == SCN_FABRIC_TCP ? scn->tcp_cc == SCN_TCP_DCTCP
						    : 0;
}

void run_summary_csv(const struct run_result *r, char *header, size_t hlen, char *row,
		     size_t rlen)
{
	char t[32], p50[32] = "", p99[32] = "", ct[32] = "", bw[32] = "", pct[32] = "";
	char judged[80] = "", verdict[16] = "", failure[32] = "", stall[32] = "";
	char np50[32], np99[32], vp50[32], vp99[32];
	if (r->credit_stall_ps >= 0) /* empty on roce: no credits there */
		units_format_us(r->credit_stall_ps, stall, sizeof(stall));
	if (r->jobs_failed)
		units_format_us(r->first_failure_ps, failure, sizeof(failure));
	if (r->collectives_completed) {
		units_format_us(r->collective_time_ps, ct, sizeof(ct));
		snprintf(bw, sizeof(bw), "%.3f", r->busbw_GBps);
		snprintf(pct, sizeof(pct), "%.2f", r->busbw_pct_line);
	}
	if (r->judged_iterations)
		snprintf(judged, sizeof(judged), "%.2f,%.2f,%.2f", r->judged_min_pct,
			 r->judged_mean_pct, r->judged_max_pct);
	else
		snprintf(judged, sizeof(judged), ",,");
	if (r->criteria_pass >= 0)
		snprintf(verdict, sizeof(verdict), "%d", r->criteria_pass);
	if (r->fct_p50_ps >= 0) {
		units_format_us(r->fct_p50_ps, p50, sizeof(p50));
		units_format_us(r->fct_p99_ps, p99, sizeof(p99));
	}
	/* every storage job's I/Os together: IOPS and MiB/s over their runtime,
	 * completion latency percentiles; empty without a storage job */
	char storage[200] = ",,,,";
	const struct run_storage *io = &r->storage[r->nstorage];
	if (r->nstorage && io->ios) {
		double secs = (double)io->runtime_ps * 1e-12;
		char a[32], b[32], c[32];
		snprintf(storage, sizeof(storage), "%.1f,%.3f,%s,%s,%s",
			 secs > 0 ? (double)io->ios / secs : 0,
			 secs > 0 ? (double)io->bytes / 1048576.0 / secs : 0,
			 units_format_us(io->clat_p50_ps, a, sizeof(a)),
			 units_format_us(io->clat_p99_ps, b, sizeof(b)),
			 units_format_us(io->clat_p999_ps, c, sizeof(c)));
	}
	/* XOFF frames per simulated second */
	double rate = pause_rate_of(r);
	double mark_pct = mark_pct_of(r);
	snprintf(header, hlen,
		 "sim_time_us,end,data_bytes_delivered,data_bytes_in_flight,drops_lossless,"
		 "drops_lossy,drops_pfcwd,drops_link_down,headroom_exceeded,ecn_marked_pkts,"
		 "ecn_mark_pct,cnps_sent,naks_sent,rto_timeouts,retransmitted_bytes,"
		 "peak_headroom_bytes,pause_frames,"
		 "pause_frame_rate,max_paused_fraction,pfcwd_storms,max_queue_bytes,"
		 "flows_completed,flows_total,fct_p50_us,fct_p99_us,collectives_completed,"
		 "collective_time_us,busbw_GBps,busbw_pct_line,criteria_pass,criteria_failed,"
		 "judged_iterations,busbw_judged_min_pct,busbw_judged_mean_pct,"
		 "busbw_judged_max_pct,retransmitted_pct,jobs_failed,first_failure_us,"
		 "nvlink_bytes,storage_iops,storage_bw_MiBps,storage_clat_p50_us,"
		 "storage_clat_p99_us,storage_clat_p999_us,credit_stall_us,fct_network_p50_us,"
		 "fct_network_p99_us,fct_nvlink_p50_us,fct_nvlink_p99_us");
	snprintf(row, rlen,
		 "%s,%s,%llu,%llu,%llu,%llu,%llu,%llu,%d,%llu,%.3f,%llu,%llu,%llu,%llu,"
		 "%lld,%llu,%.3f,%u.%06u,%llu,%llu,%llu,%llu,%s,%s,%u,%s,%s,%s,%s,%s,%u,%s,%.3f,%u,%s,"
		 "%llu,%s,%s,%s,%s,%s,%s",
		 units_format_us(r->sim_time_ps, t, sizeof(t)), end_name(r->end),
		 (unsigned long long)r->data_bytes_delivered,
		 (unsigned long long)r->data_bytes_in_flight,
		 (unsigned long long)r->drops_lossless, (unsigned long long)r->drops_lossy,
		 (unsigned long long)r->drops_pfcwd, (unsigned long long)r->drops_link_down,
		 r->drops_lossless > 0, (unsigned long long)r->ecn_marked_pkts, mark_pct,
		 (unsigned long long)r->cnps_sent, (unsigned long long)r->naks_sent,
		 (unsigned long long)r->rto_timeouts,
		 (unsigned long long)r->retransmitted_bytes,
		 (long long)r->peak_headroom_bytes, (unsigned long long)r->pause_frames,
		 rate,
		 r->max_paused_ppm / 1000000, r->max_paused_ppm % 1000000,
		 (unsigned long long)r->pfcwd_storms, (unsigned long long)r->max_queue_bytes,
		 (unsigned long long)r->flows_completed, (unsigned long long)r->flows_total, p50, p99,
		 r->collectives_completed, ct, bw,
		 pct, verdict, r->criteria_failed, r->judged_iterations, judged,
		 retransmitted_pct_of(r), r->jobs_failed, failure,
		 (unsigned long long)r->nvlink_bytes, storage, stall,
		 run_us_text(r->fct_net_p50_ps, np50), run_us_text(r->fct_net_p99_ps, np99),
		 run_us_text(r->fct_nvlink_p50_ps, vp50), run_us_text(r->fct_nvlink_p99_ps, vp99));
}

void run_print_summary(const struct run_result *r, FILE *out)
{
	char header[2048], row[2048];
	run_summary_csv(r, header, sizeof(header), row, sizeof(row));
	char *hs;
	char *h = strtok_r(header, ",", &hs);
	/* strtok_r skips empty fields: split the row by hand */
	char *v = row;
	while (h) {
		char *comma = strchr(v, ',');
		if (comma)
			*comma = '\0';
		fprintf(out, "  %-22s %s\n", h, *v ? v : "-");
		v = comma ? comma + 1 : v + strlen(v);
		h = strtok_r(NULL, ",", &hs);
	}
	/* each storage job as fio reports it */
	for (uint32_t k = 0; k < r->nstorage; k++) {
		const struct run_storage *io = &r->storage[k];
		double secs = (double)io->runtime_ps * 1e-12, mib = (double)io->bytes / 1048576.0;
		if (!io->ios)
			continue;
		fprintf(out, "  storage %s: %s: IOPS=%.0f, BW=%.1fMiB/s (%.1fMB/s)(%.1fMiB/%.3fmsec)\n",
			io->job, io->rw, secs > 0 ? (double)io->ios / secs : 0,
			secs > 0 ? mib / secs : 0, secs > 0 ? (double)io->bytes / 1e6 / secs : 0, mib,
			secs * 1e3);
		char a[32], b[32], c[32];
		fprintf(out, "    clat (usec): min=%s, max=%s, avg=%s\n",
			units_format_us(io->clat_min_ps, a, sizeof(a)),
			units_format_us(io->clat_max_ps, b, sizeof(b)),
			units_format_us((sim_time_ps)io->clat_mean_ps, c, sizeof(c)));
		fprintf(out, "     clat percentiles (usec): 50.00th=[%s], 99.00th=[%s], 99.90th=[%s]\n",
			units_format_us(io->clat_p50_ps, a, sizeof(a)),
			units_format_us(io->clat_p99_ps, b, sizeof(b)),
			units_format_us(io->clat_p999_ps, c, sizeof(c)));
	}
	if (r->train_steps) { /* the training steps' means (training.csv) */
		double n = r->train_steps, step = (double)r->train_step_ps / n * 1e-6;
		fprintf(out, "  %-22s %u, mean %.3f us: compute %.1f %%, bubble %.1f %%, exposed "
			     "tp %.1f %%, pp %.1f %%, dp %.1f %%, ep %.1f %%\n",
			"training_steps", r->train_steps, step,
			100.0 * (double)r->train_compute_ps / (double)r->train_step_ps,
			100.0 * (double)r->train_bubble_ps / (double)r->train_step_ps,
			100.0 * (double)r->train_exposed_ps[0] / (double)r->train_step_ps,
			100.0 * (double)r->train_exposed_ps[1] / (double)r->train_step_ps,
			100.0 * (double)r->train_exposed_ps[2] / (double)r->train_step_ps,
			100.0 * (double)r->train_exposed_ps[3] / (double)r->train_step_ps);
		fprintf(out, "  %-22s %.4f (compute / step time)\n", "training_efficiency",
			(double)r->train_compute_ps / (double)r->train_step_ps);
	}
	if (r->ooo_pkts >= 0) /* adaptive routing: not a summary.csv column */
		fprintf(out, "  %-22s %lld\n", "out_of_order_pkts", (long long)r->ooo_pkts);
	if (r->drops_lossless)
		fprintf(out, "  WARNING: %llu lossless packets dropped: the PFC headroom was "
			     "exceeded (undersized headroom, or a peer that does not stop in time)\n",
			(unsigned long long)r->drops_lossless);
	if (r->warnings)
		fprintf(out, "  %-22s %u risky setting%s (warnings.txt)\n", "warnings", r->warnings,
			r->warnings == 1 ? "" : "s");
	fprintf(out, "  %-22s %llu events in %.2f s (%.2f M events/s, %.2f M packets/s), "
		     "peak RSS %.0f MB\n",
		"cost", (unsigned long long)r->events, r->wall_s, r->events_per_s / 1e6,
		r->pkts_per_s / 1e6, r->peak_rss_mb);
}
