/*
 * run.c - the run loop, progress, invariants and result files (run.h).
 *
 * The loop advances simulated time in slices of 1 us so that it can draw
 * the progress bar and notice an interrupt between slices; a slice with no
 * event jumps straight to the next event.  Each partition counts the
 * completion times of its messages in its own histogram (hist.h); the
 * percentiles are those of their sum, nearest rank.  A run that completed
 * every message ends at the last completion (sim_time_us); the pause
 * intervals close at the end of the window it fell in (fabric.h).
 */
#include "sim/run/run.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "models/base/hist.h"
#include "models/base/slab.h"
#include "models/core/evkey.h"
#include "models/fabric/fabric.h"
#include "models/scenario/scenario.h"
#include "sim/run/ctx.h"
#include "sim/run/iostats.h"
#include "sim/run/output.h"
#include "sim/run/trainout.h"

#define SLICE_PS UNITS_PS_PER_US
#define PROGRESS_EVERY_S 0.25

static double wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The peak resident set of this process, in MiB: Linux's VmHWM, which a new
 * program starts afresh, where getrusage's ru_maxrss keeps the high-water
 * mark of the process before exec (a launcher, a shell, a timer) */
static double peak_rss_mb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;

	if (f) {
		while (kb < 0 && fgets(line, sizeof(line), f))
			if (sscanf(line, "VmHWM: %ld kB", &kb) != 1)
				kb = -1;
		fclose(f);
	}
	if (kb < 0) {
		struct rusage ru;
		if (getrusage(RUSAGE_SELF, &ru))
			return 0.0;
		kb = ru.ru_maxrss; /* Linux: kilobytes */
	}
	return (double)kb / 1024.0;
}

/* a message of the probe job: kept with its start, judged at the end */
static void probe_add(struct part_ctx *pc, const struct flow *fl, uint8_t local)
{
	if (pc->nprobe == pc->probe_cap) {
		uint32_t cap = pc->probe_cap ? 2 * pc->probe_cap : 256;
		struct probe_msg *np = realloc(pc->probe, cap * sizeof(*np));
		if (!np) {
			pc->oom = 1;
			return;
		}
		pc->probe = np;
		pc->probe_cap = cap;
	}
	pc->probe[pc->nprobe++] = (struct probe_msg){ fl->start_ps, fl->end_ps - fl->start_ps,
						      local };
}

static void on_flow_done(void *ctx, const struct fabric *f, unsigned part, const struct flow *fl)
{
	struct run_ctx *c = ctx;
	struct part_ctx *pc = &c->part[part];
	if (fl->job == c->probe_job) {
		probe_add(pc, fl, f->qps[fl->qp].local);
		pc->job_bytes[fl->job] += (uint64_t)fl->bytes;
	} else {
		uint32_t k = fl->job * 2 + f->qps[fl->qp].local;
		if (!pc->fct[k] && (pc->fct[k] = malloc(sizeof(struct hist))))
			hist_init(pc->fct[k]);
		pc->oom |= pc->fct[k] ? hist_add(pc->fct[k], fl->end_ps - fl->start_ps) : -1;
		if (fl->end_ps > pc->last_end)
			pc->last_end = fl->end_ps;
		if (!pc->job_last[fl->job] || fl->start_ps < pc->job_first[fl->job])
			pc->job_first[fl->job] = fl->start_ps;
		if (fl->end_ps > pc->job_last[fl->job])
			pc->job_last[fl->job] = fl->end_ps;
		pc->job_bytes[fl->job] += (uint64_t)fl->bytes;
	}
	if (c->has_out && f->scn->output_flows)
		output_flow(&c->out, f, (int)part, fl);
}

static void on_unfinished(void *ctx, const struct flow *fl)
{
	struct run_ctx *c = ctx;
	output_flow(&c->out, c->fabric, -1, fl);
}

static const char *const pfc_names[] = { "xoff", "refresh", "xon", "expire" };
static const char *const pfcwd_names[] = { "storm", "restore" };

static void on_pfc(void *ctx, const struct fabric *f, unsigned part, const struct pause_rx *pr,
		   unsigned prio, enum pfc_event ev, uint32_t quanta)
{
	struct run_ctx *c = ctx;
	output_pfc(&c->out, f, part, pr, prio, pfc_names[ev], quanta);
}

static void on_pause_sample(void *ctx, const struct fabric *f, unsigned part, sim_time_ps t,
			    const struct pause_rx *pr, unsigned prio, uint32_t ppm, uint32_t frames)
{
	struct run_ctx *c = ctx;
	output_pause(&c->out, f, part, t, pr, prio, ppm, frames);
}

static void on_pfcwd(void *ctx, const struct fabric *f, unsigned part, const struct pause_rx *pr,
		     unsigned prio, enum pfcwd_event ev, uint64_t dropped)
{
	struct run_ctx *c = ctx;
	output_pfcwd(&c->out, f, part, pr, prio, pfcwd_names[ev], dropped);
}

static void on_coll_done(void *ctx, const struct fabric *f, const struct coll *c)
{
	struct run_ctx *x = ctx;
	enum scn_pattern p = f->scn->jobs[c->job].pattern;
	if (c->failed) { /* reported once per job, in time order */
		if (!x->jobs_failed++)
			x->first_failure_ps = c->end_ps;
	} else if (p == SCN_JOB_RING_ALLREDUCE || p == SCN_JOB_ALLTOALL) {
		double algbw, busbw, pct;
		output_coll_bw(f->scn, c, &algbw, &busbw, &pct);
		x->colls++;
		x->coll_time += c->end_ps - c->start_ps;
		x->busbw += busbw;
		x->pct += pct;
		/* the warm-up is not judged, but a job's last iteration always is */
		uint32_t iters = f->scn->jobs[c->job].iterations;
		if (c->iter >= f->scn->crit_warmup_iterations || c->iter + 1 == iters) {
			x->jmin = x->judged && x->jmin < pct ? x->jmin : pct;
			x->jmax = x->judged && x->jmax > pct ? x->jmax : pct;
			x->jsum += pct;
			x->judged++;
		}
	}
	if (!c->failed && c->step.valid) {
		x->train_steps++;
		x->train_step += c->end_ps - c->start_ps;
		x->train_compute += c->step.compute_ps;
		x->train_bubble += c->step.bubble_ps;
		for (int k = 0; k < COLL_STEP_KINDS; k++)
			x->train_exposed[k] += c->step.exposed_ps[k];
	}
	if (x->has_out && c->step.valid) { /* with its ideal time, if any */
		struct coll cc = *c;
		cc.step.ideal_ps = train_ideal_of(&x->ideal, c->job, c->iter);
		output_coll(&x->out, f, &cc);
	} else if (x->has_out) {
		output_coll(&x->out, f, c);
	}
}

static void on_io_done(void *ctx, const struct fabric *f, const struct traffic_io *io)
{
	(void)f;
	iostats_add(((struct run_ctx *)ctx)->io, io);
}

static void on_queue_sample(void *ctx, const struct fabric *f, unsigned part,
			    const struct port *pt, unsigned q, uint64_t bytes)
{
	struct run_ctx *c = ctx;
	output_queue(&c->out, f, part, pt, q, bytes);
}

static void on_nic_queue(void *ctx, const struct fabric *f, unsigned part, uint32_t host,
			 unsigned prio, uint64_t bytes)
{
	struct run_ctx *c = ctx;
	output_nic_queue(&c->out, f, part, host, prio, bytes);
}

static void on_counters(void *ctx, const struct fabric *f, sim_time_ps t,
			const struct fabric_totals *d)
{
	struct run_ctx *c = ctx;
	(void)f;
	output_counters(&c->out, t, d);
}

static void on_rate_sample(void *ctx, const struct fabric *f, unsigned part, const struct qp *q)
{
	struct run_ctx *c = ctx;
	output_rate(&c->out, f, part, q);
}

static void on_ibcc_sample(void *ctx, const struct fabric *f, unsigned part, const struct qp *q)
{
	struct run_ctx *c = ctx;
	output_ibcc(&c->out, f, part, q);
}

static void on_window_done(void *ctx, const struct fabric *f, sim_time_ps end)
{
	struct run_ctx *c = ctx;
	(void)f;
	(void)end;
	output_merge(&c->out); /* a split run's rows came with the window's exchange */
}

static void on_pack_rows(void *ctx, unsigned part, struct bytes *b)
{
	output_pack(&((struct run_ctx *)ctx)->out, part, b);
}

static void on_unpack_rows(void *ctx, unsigned part, struct bytes_in *in)
{
	output_unpack(&((struct run_ctx *)ctx)->out, part, in);
}

static void progress(FILE *out, const struct fabric *f, sim_time_ps dur, double t0)
{
	double wall = wall_now() - t0;
	double frac = (double)fabric_now(f) / (double)dur;
	uint64_t total = fabric_flows_total(f);
	double done = (double)fabric_flows_done(f) / (double)(total ? total : 1);
	if (done > frac)
		frac = done; /* the run ends when all flows are done */
	int width = 30, fill = (int)(frac * width);
	char bar[32];
	for (int i = 0; i < width; i++)
		bar[i] = i < fill ? '=' : ' ';
	bar[width] = '\0';
	char now[32];
	double eta = frac > 0 ? wall * (1 - frac) / frac : 0;
	fprintf(out, "\r[%s] %5.1f%%  sim %s us  wall %.1f s  %.2f M ev/s  ETA %.0f s ",
		bar, 100 * frac, units_format_us(fabric_now(f), now, sizeof(now)), wall,
		wall > 0 ? (double)fabric_events(f) / wall / 1e6 : 0.0, eta);
	fflush(out);
}

/* stats.csv, then (after the streamed files are closed) summary.csv, the
 * last file a run writes */
static int write_stats(struct run_ctx *c, const struct run_result *r)
{
	char row[1024], t[32];
	snprintf(row, sizeof(row), "%llu,%.3f,%.0f,%.1f,%s,%llu,%.0f,%u",
		 (unsigned long long)r->events, r->wall_s, r->events_per_s, r->peak_rss_mb,
		 units_format_us(r->sim_time_ps, t, sizeof(t)),
		 (unsigned long long)r->data_pkts, r->pkts_per_s, r->threads);
	return output_write_row(&c->out, "stats.csv",
				"events,wall_s,events_per_s,peak_rss_mb,sim_time_us,data_pkts,"
				"pkts_per_s,threads",
				row, 0);
}

/* events.csv: the events the run fired by kind (engine.h SIM_KIND, named by
 * models/core/evkey.h), added over the partitions, and per data packet
 * sent; like stats.csv the cost of the run, not a result */
static int write_events(struct run_ctx *c, const struct fabric *f, const struct run_result *r)
{
	size_t cap = 64 * SIM_KINDS, n = 0;
	char *rows = malloc(cap);
	if (!rows)
		return -1;
	rows[0] = '\0';
	for (unsigned k = 0; k < SIM_KINDS; k++) {
		uint64_t count = 0;
		for (uint32_t p = 0; p < f->nparts; p++)
			count += f->parts[p].net.eng.kinds[k];
		if (!count)
			continue;
		char name[48];
		evkey_kind_name(k, name, sizeof(name));
		n += (size_t)snprintf(rows + n, cap - n, "%s%s,%llu,%.3f", n ? "\n" : "", name,
				      (unsigned long long)count,
				      r->data_pkts ? (double)count / (double)r->data_pkts : 0.0);
	}
	int rc = n ? output_write_row(&c->out, "events.csv", "kind,events,per_data_pkt", rows, 0)
		   : 0;
	free(rows);
	return rc;
}

static int write_summary(struct run_ctx *c, const struct run_result *r)
{
	char header[1024], row[1024];
	run_summary_csv(r, header, sizeof(header), row, sizeof(row));
	return output_write_row(&c->out, "summary.csv", header, row, 1);
}

static void free_parts(struct run_ctx *c, uint32_t n)
{
	for (uint32_t p = 0; c->part && p < n; p++) {
		for (uint32_t k = 0; c->part[p].fct && k < 2 * c->fabric->scn->njobs; k++)
			if (c->part[p].fct[k]) {
				hist_free(c->part[p].fct[k]);
				free(c->part[p].fct[k]);
			}
		free(c->part[p].fct);
		free(c->part[p].job_first);
		free(c->part[p].job_last);
		free(c->part[p].job_bytes);
		free(c->part[p].probe);
	}
	free(c->part);
}

/* the probe's messages that started before the other jobs' last
 * completion, in one histogram: their count and percentiles */
static int probe_result(struct run_ctx *c, uint32_t n, struct run_result *res)
{
	struct hist h;
	sim_time_ps end = 0;
	int oom = 0;
	hist_init(&h);
	for (uint32_t p = 0; p < n; p++)
		if (c->part[p].last_end > end)
			end = c->part[p].last_end;
	for (uint32_t p = 0; p < n; p++)
		for (uint32_t i = 0; i < c->part[p].nprobe; i++)
			if (c->part[p].probe[i].start < end)
				oom |= hist_add(&h, c->part[p].probe[i].fct);
	res->probe_msgs = (uint32_t)h.n;
	res->probe_p50_ps = hist_percentile(&h, 50);
	res->probe_p99_ps = hist_percentile(&h, 99);
	hist_free(&h);
	return oom;
}

/* the completion times of every partition's messages of job j (j < 0:
 * every job) over path (0 the network, 1 NVLink, 2 both), in one
 * histogram */
static int merge_fct(struct run_ctx *c, uint32_t n, int j, int path, struct hist *h)
{
	uint32_t njobs = c->fabric->scn->njobs;
	int oom = 0;
	hist_init(h);
	for (uint32_t p = 0; p < n; p++) {
		oom |= c->part[p].oom;
		for (uint32_t k = 0; k < 2 * njobs; k++)
			if (c->part[p].fct[k] && (j < 0 || k / 2 == (uint32_t)j) &&
			    (path == 2 || k % 2 == (uint32_t)path))
				oom |= hist_merge(h, c->part[p].fct[k]);
	}
	return oom;
}

/* the percentiles of merge_fct's messages into p50, p99 (-1: none); of
 * the probe job, its messages kept apart */
static int fct_of(struct run_ctx *c, uint32_t n, int j, int path, sim_time_ps *p50,
		  sim_time_ps *p99)
{
	struct hist h;
	int oom = merge_fct(c, n, j, path, &h);
	for (uint32_t p = 0; j >= 0 && (uint32_t)j == c->probe_job && p < n; p++)
		for (uint32_t i = 0; i < c->part[p].nprobe; i++)
			if (path == 2 || c->part[p].probe[i].local == path)
				oom |= hist_add(&h, c->part[p].probe[i].fct);
	*p50 = hist_percentile(&h, 50);
	*p99 = hist_percentile(&h, 99);
	hist_free(&h);
	return oom;
}

/* "12.3 MB": 2 decimals in GB, 1 in MB and KB */
static void bytes_text(uint64_t bytes, char *buf, size_t len)
{
	double b = (double)bytes;
	snprintf(buf, len, "%.*f %s", b >= 1e9 ? 2 : 1, b / (b >= 1e9 ? 1e9 : b >= 1e6 ? 1e6 : 1e3),
		 b >= 1e9 ? "GB" : b >= 1e6 ? "MB" : "KB");
}

/* ", 192 B more once ...": what a QP adds once it makes its struct qp_cc
 * (nic.h), when it may */
static void cc_text(const struct fabric_memory *n, char *buf, size_t len)
{
	buf[0] = 0;
	if (n->cc_bytes)
		snprintf(buf, len, ", %zu B more once its congestion control reacts or it waits",
			 n->cc_bytes);
}

/* the same when the QPs exceed nic.qp_cache: the memory expected at the
 * peak, state of the QPs that have it, the others' homes and the messages */
static void qp_cached_text(const struct scenario *scn, const struct fabric_memory *n,
			   char *buf, size_t len)
{
	char b[32], h[32], s[32], m[32], cc[96];
	cc_text(n, cc, sizeof(cc));
	bytes_text(n->bytes, b, sizeof(b));
	bytes_text(n->qps * n->home_bytes, h, sizeof(h));
	bytes_text(n->live * n->qp_bytes, s, sizeof(s));
	bytes_text(n->msgs * n->msg_bytes, m, sizeof(m));
	int k = snprintf(buf, len,
			 "the jobs open %llu QPs, more than nic.qp_cache = %llu: each keeps %zu B "
			 "(%s) and has its state (%zu B%s) only while it needs it, about %llu at "
			 "most at once (%s)",
			 (unsigned long long)n->qps, (unsigned long long)n->cache, n->home_bytes, h,
			 n->qp_bytes, cc, (unsigned long long)n->live, s);
	if (k > 0 && (size_t)k < len && scn->njobs > 1)
		k += snprintf(buf + k, len - (size_t)k, "; job.%s opens %llu",
			      scn->jobs[n->job].name, (unsigned long long)n->most);
	if (k > 0 && (size_t)k < len && n->msgs)
		k += snprintf(buf + k, len - (size_t)k,
			      ", with about %llu messages at once (%zu B each: %s)",
			      (unsigned long long)n->msgs, n->msg_bytes, m);
	if (k > 0 && (size_t)k < len)
		snprintf(buf + k, len - (size_t)k, ": %s expected at the peak", b);
}

/* what the jobs' QPs take (fabric_memory_estimate), in words */
static void qp_need_text(const struct scenario *scn, const struct fabric_memory *n, char *buf,
			 size_t len)
{
	char b[32], cc[96];
	if (n->cache) {
		qp_cached_text(scn, n, buf, len);
		return;
	}
	cc_text(n, cc, sizeof(cc));
	bytes_text(n->qps * n->qp_bytes, b, sizeof(b));
	int k = snprintf(buf, len, "the jobs open %llu QPs (%zu B each%s: %s",
			 (unsigned long long)n->qps, n->qp_bytes, cc, b);
	if (k > 0 && (size_t)k < len && scn->njobs > 1 && n->qps)
		k += snprintf(buf + k, len - (size_t)k, "; job.%s %llu of them",
			      scn->jobs[n->job].name, (unsigned long long)n->most);
	if (k > 0 && (size_t)k < len)
		k += snprintf(buf + k, len - (size_t)k, ")");
	bytes_text(n->msgs * n->msg_bytes, b, sizeof(b));
	if (k > 0 && (size_t)k < len && n->msgs)
		snprintf(buf + k, len - (size_t)k,
			 " and post %llu messages on them at once (%zu B each: %s)",
			 (unsigned long long)n->msgs, n->msg_bytes, b);
}

/* a run whose QPs do not fit (fabric_memory_estimate) is refused: 0, or
 * RUN_EIO with res->err */
static enum run_status refuse(const struct scenario *scn, const struct run_opts *opts,
			      struct run_result *res)
{
	if (opts->comm && opts->comm->nranks > 1 &&
	    fabric_split_refused(scn, opts->comm->nranks, res->err, sizeof(res->err)))
		return RUN_EIO;
	struct fabric_memory need = fabric_memory_estimate(scn);
	if (need.verdict == FABRIC_MEMORY_FITS)
		return RUN_OK;
	char what[512];
	qp_need_text(scn, &need, what, sizeof(what));
	if (need.verdict == FABRIC_MEMORY_TOO_MANY_QPS)
		snprintf(res->err, sizeof(res->err), "%s, more than the %u a run can number", what,
			 UINT32_MAX - 1);
	else
		snprintf(res->err, sizeof(res->err),
			 "%s, more than this machine's memory (%.1f GB): fewer ranks, %s, or a "
			 "machine with more memory",
			 what, (double)need.phys / 1e9,
			 need.msgs ? "qps_per_connection or schedule = shift"
				   : "channels or qps_per_connection");
	return RUN_EIO;
}

/* the hooks the run observes the fabric with: the results always, the
 * storage statistics with a storage job, the files with a run directory */
static void set_hooks(struct run_ctx *c, struct fabric *f)
{
	const struct scenario *scn = f->scn;
	f->hooks = (struct fabric_hooks){ .ctx = c, .flow_done = on_flow_done,
					  .coll_done = on_coll_done };
	if (c->io)
		f->hooks.io_done = on_io_done;
	if (!c->has_out)
		return;
	f->hooks.pfc = on_pfc;
	f->hooks.pause_sample = on_pause_sample;
	f->hooks.pfcwd = on_pfcwd;
	f->hooks.rate_sample = on_rate_sample;
	f->hooks.ibcc_sample = on_ibcc_sample;
	f->hooks.counters = on_counters;
	f->hooks.window_done = on_window_done;
	if (c->comm) {
		f->hooks.pack_rows = on_pack_rows;
		f->hooks.unpack_rows = on_unpack_rows;
	}
	if (scn->output_queues != SCN_QUEUES_NONE)
		f->hooks.queue_sample = on_queue_sample;
	if (scn->output_queues == SCN_QUEUES_ALL)
		f->hooks.nic_queue_sample = on_nic_queue;
}

/* the fabric, the partitions' counters, the run directory and the storage
 * statistics, hooked up; the fabric, or NULL with res->err (nothing left
 * to free) */
static struct fabric *open_run(struct run_ctx *c, const struct scenario *scn,
			       const struct run_opts *opts, struct run_result *res)
{
	const char *why;
	struct fabric *f = fabric_create_split(scn, opts->threads, opts->comm, &why);
	if (!f || run_split_init(c, opts->comm)) {
		snprintf(res->err, sizeof(res->err), "%s", f ? "out of memory" : why);
		fabric_destroy(f);
		return NULL;
	}
	uint32_t nparts = f->nparts;
	c->part = calloc_lines(nparts, sizeof(*c->part));
	if (!c->part) {
		fabric_destroy(f);
		snprintf(res->err, sizeof(res->err), "out of memory");
		return NULL;
	}
	c->fabric = f;
	uint32_t nj = scn->njobs ? scn->njobs : 1;
	for (uint32_t p = 0; p < nparts; p++) {
		c->part[p].fct = calloc(2 * nj, sizeof(struct hist *));
		c->part[p].job_first = calloc(nj, sizeof(sim_time_ps));
		c->part[p].job_last = calloc(nj, sizeof(sim_time_ps));
		c->part[p].job_bytes = calloc(nj, sizeof(uint64_t));
		if (!c->part[p].fct || !c->part[p].job_first || !c->part[p].job_last ||
		    !c->part[p].job_bytes) {
			free_parts(c, nparts);
			fabric_destroy(f);
			snprintf(res->err, sizeof(res->err), "out of memory");
			return NULL;
		}
	}
	c->probe_job = UINT32_MAX;
	for (uint32_t j = 0; opts->probe_job && j < scn->njobs; j++)
		if (strcmp(scn->jobs[j].name, opts->probe_job) == 0)
			c->probe_job = j;
	res->warnings = scenario_warnings(scn, NULL, NULL);
	if (opts->out_dir) {
		int rows_only = c->comm && c->comm->rank; /* rank 0 writes the files */
		int rc = rows_only ? output_open_rows(&c->out, scn, nparts)
				   : output_open(&c->out, opts->out_dir, scn, nparts, res->err,
						 sizeof(res->err));
		if (rc) {
			if (rows_only)
				snprintf(res->err, sizeof(res->err), "out of memory");
			free_parts(c, nparts);
			fabric_destroy(f);
			return NULL;
		}
		c->has_out = 1;
	}
	c->io = iostats_new(scn, c->has_out && !c->out.remote ? opts->out_dir : NULL, res->err,
			    sizeof(res->err));
	if (!c->io && res->err[0]) {
		if (c->has_out)
			output_close(&c->out);
		free_parts(c, nparts);
		fabric_destroy(f);
		return NULL;
	}
	set_hooks(c, f);
	return f;
}

/* a split run: did any rank stop, by a signal (*interrupted) or a write
 * that failed on rank 0 (*write_failed), as the votes of the last
 * fabric_next_time say (every rank votes at every slice) */
static int split_stopped(const struct fabric *f, int *write_failed, int *interrupted)
{
	int v = f->vote_all;
	if (v & 4)
		*write_failed = 1;
	else if (v & 3)
		*interrupted = v & 2 ? RUN_END_TERMINATED : RUN_END_INTERRUPTED;
	return v != 0;
}

/* the run itself, in slices, with the progress bar; how it ended early:
 * RUN_END_INTERRUPTED or RUN_END_TERMINATED by a signal, or 0 (*write_failed:
 * a file could not be written) */
static int run_loop(struct run_ctx *c, struct fabric *f, const struct run_opts *opts, double t0,
		    int *write_failed)
{
	double last_draw = t0;
	sim_time_ps dur = f->scn->duration_ps;
	int interrupted = 0;
	while (!fabric_finished(f)) {
		int sig = opts->interrupt ? *opts->interrupt : 0;
		if (sig && !c->comm) {
			interrupted = sig == SIGINT ? RUN_END_INTERRUPTED : RUN_END_TERMINATED;
			break;
		}
		f->vote = (sig ? (sig == SIGINT ? 1 : 2) : 0) | (*write_failed ? 4 : 0);
		sim_time_ps next = fabric_next_time(f); /* a split run: with every rank's vote */
		if (c->comm && split_stopped(f, write_failed, &interrupted))
			break;
		if (next > dur)
			break;
		sim_time_ps until = fabric_now(f) + SLICE_PS;
		if (until < next)
			until = next;
		fabric_run_until(f, until < dur ? until : dur);
		if (wall_now() - last_draw >= PROGRESS_EVERY_S) {
			last_draw = wall_now();
			if (opts->progress)
				progress(opts->progress, f, dur, t0);
			/* a full disk stops the run now, not after it (a split
			 * run: every rank at the next slice) */
			if (c->has_out && output_check(&c->out)) {
				*write_failed = 1;
				if (!c->comm)
					break;
			}
		}
	}
	if (opts->progress && last_draw != t0) {
		progress(opts->progress, f, dur, t0);
		fputc('\n', opts->progress);
	}
	return interrupted;
}

/* the fabric's counters and the run's own into res */
static void collect(const struct run_ctx *c, struct fabric *f, double t0, struct run_result *res)
{
	const struct scenario *scn = f->scn;
	struct net_stats ns;
	fabric_stats(f, &ns);
	res->threads = f->nthreads;
	res->wall_s = wall_now() - t0;
	res->events = fabric_events(f);
	res->data_pkts = ns.data_pkts_sent;
	res->events_per_s = res->wall_s > 0 ? (double)res->events / res->wall_s : 0;
	res->pkts_per_s = res->wall_s > 0 ? (double)res->data_pkts / res->wall_s : 0;
	res->data_bytes_delivered = ns.payload_delivered;
	res->nvlink_bytes = ns.nvlink_bytes;
	res->max_queue_bytes = fabric_max_queue_bytes(f);
	res->drops_lossless = ns.drops.lossless;
	res->drops_lossy = ns.drops.lossy;
	res->drops_pfcwd = ns.drops.pfcwd;
	res->drops_link_down = ns.drops.link_down;
	res->ecn_marked_pkts = ns.cc.ce_delivered;
	res->data_pkts_delivered = ns.cc.pkts_delivered;
	res->cnps_sent = ns.cc.cnps_sent;
	res->naks_sent = ns.cc.naks_sent;
	res->rto_timeouts = ns.cc.timeouts;
	res->retransmitted_bytes = ns.cc.retransmitted_bytes;
	res->ooo_pkts = scn->ecmp == SCN_ECMP_ADAPTIVE ? (int64_t)ns.cc.ooo_pkts : -1;
	res->peak_headroom_bytes = ns.peak_headroom_bytes;
	res->pause_frames = ns.pause_frames;
	res->max_paused_ppm = fabric_max_paused_ppm(f);
	res->credit_stall_ps = scn->fabric_type == SCN_FABRIC_IB
				       ? fabric_paused_ps(f, res->sim_time_ps)
				       : -1;
	res->pfcwd_storms = ns.pfcwd_storms;
	res->flows_total = fabric_flows_total(f);
	res->flows_completed = fabric_flows_done(f);
	res->collectives_completed = c->colls;
	res->collective_time_ps = c->colls ? c->coll_time / c->colls : -1;
	res->busbw_GBps = c->colls ? c->busbw / c->colls : 0;
	res->busbw_pct_line = c->colls ? c->pct / c->colls : 0;
	res->train_steps = c->train_steps;
	res->train_step_ps = c->train_step;
	res->train_compute_ps = c->train_compute;
	res->train_bubble_ps = c->train_bubble;
	for (int k = 0; k < COLL_STEP_KINDS; k++)
		res->train_exposed_ps[k] = c->train_exposed[k];
	res->jobs_failed = c->jobs_failed;
	res->first_failure_ps = c->jobs_failed ? c->first_failure_ps : -1;
	res->judged_iterations = c->judged;
	res->judged_min_pct = c->jmin;
	res->judged_max_pct = c->jmax;
	res->judged_mean_pct = c->judged ? c->jsum / c->judged : 0;
}


/* jobs.csv: a row per job of its totals (docs/outputs.md); the
 * probe job's completion times are its messages' (kept apart) */
static int write_jobs(struct run_ctx *c, const struct fabric *f, int *oom)
{
	const struct scenario *scn = f->scn;
	size_t cap = 256 + (size_t)scn->njobs * 512, n = 0;
	char *rows = malloc(cap);
	if (!rows) {
		*oom = 1;
		return -1;
	}
	rows[0] = '\0';
	for (uint32_t j = 0; j < scn->njobs; j++) {
		struct net_job_stats tot = { 0 };
		sim_time_ps first = -1, last = -1, p[6];
		uint64_t msgs = 0, bytes = 0;
		for (uint32_t q = 0; q < f->nparts; q++) {
			const struct part_ctx *pc = &c->part[q];
			const struct net_job_stats *js = &f->parts[q].net.jobs[j];
			tot.delivered_bytes += js->delivered_bytes;
			tot.retransmitted_bytes += js->retransmitted_bytes;
			tot.drops += js->drops;
			for (uint32_t k = 2 * j; k < 2 * j + 2; k++)
				msgs += pc->fct[k] ? pc->fct[k]->n : 0;
			bytes += pc->job_bytes[j];
			for (uint32_t i = 0; j == c->probe_job && i < pc->nprobe; i++) {
				msgs++;
				if (first < 0 || pc->probe[i].start < first)
					first = pc->probe[i].start;
				if (pc->probe[i].start + pc->probe[i].fct > last)
					last = pc->probe[i].start + pc->probe[i].fct;
			}
			if (pc->job_last[j] && (first < 0 || pc->job_first[j] < first))
				first = pc->job_first[j];
			if (pc->job_last[j] > last)
				last = pc->job_last[j];
		}
		*oom |= fct_of(c, f->nparts, (int)j, 2, &p[0], &p[1]) |
			fct_of(c, f->nparts, (int)j, 0, &p[2], &p[3]) |
			fct_of(c, f->nparts, (int)j, 1, &p[4], &p[5]);
		char s[32], e[32], g[32] = "", v[6][32];
		if (last > first && first >= 0)
			snprintf(g, sizeof(g), "%.3f",
				 (double)bytes * 8.0 / (double)(last - first) * 1e3);
		for (int i = 0; i < 6; i++)
			run_us_text(p[i], v[i]);
		n += (size_t)snprintf(rows + n, cap - n,
				      "%s%s,%s,%llu,%llu,%llu,%llu,%llu,%s,%s,%s,%s,%s,%s,%s,%s,%s",
				      j ? "\n" : "", scn->jobs[j].name,
				      scenario_pattern_name(scn->jobs[j].pattern),
				      (unsigned long long)msgs, (unsigned long long)bytes,
				      (unsigned long long)tot.delivered_bytes,
				      (unsigned long long)tot.retransmitted_bytes,
				      (unsigned long long)tot.drops, run_us_text(first, s),
				      run_us_text(last, e), g, v[0], v[1], v[2], v[3], v[4], v[5]);
		if (n >= cap)
			n = cap - 1;
	}
	int rc = scn->njobs ? output_write_row(&c->out, "jobs.csv",
					       "job,pattern,messages_completed,bytes_completed,network_delivered_bytes,"
					       "retransmitted_bytes,drops,first_start_us,last_end_us,"
					       "goodput_Gbps,fct_p50_us,fct_p99_us,fct_network_p50_us,"
					       "fct_network_p99_us,fct_nvlink_p50_us,fct_nvlink_p99_us",
					       rows, 0)
			    : 0;
	free(rows);
	return rc;
}

/* the files of the run directory, checked, summary.csv last; the first
 * failure is reported, with its file and reason, whatever else the run's
 * end was.  The run's status, from st (the run's own) */
static enum run_status write_files(struct run_ctx *c, struct fabric *f, enum run_status st,
				   int write_failed, int io_bad, const char *ioerr, int *oom,
				   struct run_result *res)
{
	if (!c->comm && f->scn->output_flows)
		traffic_flush(&f->traffic);
	if (!c->comm && f->scn->output_flows && fabric_unfinished(f, on_unfinished, c))
		*oom = 1; /* a split run wrote them (run_split_finish) */
	res->peak_rss_mb = peak_rss_mb();
	int bad = write_failed | write_stats(c, res) | io_bad | write_jobs(c, f, oom) |
		  write_events(c, f, res);
	if (c->ranks_csv) /* a split run: what each rank cost */
		bad |= output_write_row(&c->out, "ranks.csv",
					"rank,partitions,threads,events,wall_s,exchanges,sent_bytes,"
					"sent_bytes_per_exchange,reductions,wait_s,peak_rss_mb",
					c->ranks_csv, 0);
	bad |= output_close(&c->out);
	if (!bad)
		bad = write_summary(c, res);
	if (bad && st != RUN_INVARIANT) {
		snprintf(res->err, sizeof(res->err), "writing the results failed: %s",
			 c->out.err[0] ? c->out.err
			 : ioerr[0]    ? ioerr
				       : "out of memory for a buffer");
		st = RUN_EIO;
	}
	return st;
}

enum run_status run_scenario(const struct scenario *scn, const struct run_opts *opts,
			     struct run_result *res)
{
	struct run_ctx c = {0};
	*res = (struct run_result){ .fct_p50_ps = -1, .fct_p99_ps = -1, .fct_net_p50_ps = -1,
				    .fct_net_p99_ps = -1, .fct_nvlink_p50_ps = -1, .ooo_pkts = -1,
				    .fct_nvlink_p99_ps = -1, .collective_time_ps = -1,
				    .credit_stall_ps = -1, .probe_p50_ps = -1, .probe_p99_ps = -1,
				    .jobs_done_ps = -1 };
	if (refuse(scn, opts, res))
		return RUN_EIO;
	if (train_ideal_run(scn, opts->threads, &c.ideal, res->err, sizeof(res->err)))
		return RUN_EIO;
	struct fabric *f = open_run(&c, scn, opts, res);
	if (!f) {
		train_ideal_free(&c.ideal);
		return RUN_EIO;
	}
	uint32_t nparts = f->nparts;
	fabric_start_series(f);

	double t0 = wall_now();
	int write_failed = 0;
	int interrupted = run_loop(&c, f, opts, t0, &write_failed);
	res->end = interrupted			? (enum run_end)interrupted
		   : fabric_finished(f) ? RUN_END_DONE
					: RUN_END_DURATION;
	/* a run that completed stops at the end of the window of its last
	 * completion (parallel.c), the same for any number of threads; what
	 * summary.csv counts is counted there */
	res->sim_time_ps = res->end == RUN_END_DONE	  ? f->stop_ps
			   : res->end == RUN_END_DURATION ? scn->duration_ps
							  : fabric_now(f);
	/* the last pause interval closes where the partitions stopped */
	fabric_pause_flush(f, res->sim_time_ps);
	if (c.has_out)
		run_split_merge(&c);
	if (c.comm) { /* every rank learns what the others counted */
		fabric_ranks_finish(f, res->sim_time_ps);
		run_split_finish(&c, f);
	}
	collect(&c, f, t0, res);
	if (c.comm)
		run_split_costs(&c, f, res->wall_s, peak_rss_mb());
	run_check_criteria(scn, res);
	int oom = fct_of(&c, nparts, -1, 2, &res->fct_p50_ps, &res->fct_p99_ps) |
		  fct_of(&c, nparts, -1, 0, &res->fct_net_p50_ps, &res->fct_net_p99_ps) |
		  fct_of(&c, nparts, -1, 1, &res->fct_nvlink_p50_ps, &res->fct_nvlink_p99_ps);
	for (uint32_t p = 0; p < nparts; p++)
		if (c.part[p].last_end > 0 && c.part[p].last_end > res->jobs_done_ps)
			res->jobs_done_ps = c.part[p].last_end;
	if (c.probe_job != UINT32_MAX)
		oom |= probe_result(&c, nparts, res);
	char ioerr[480] = "";
	int io_bad = c.io && iostats_finish(c.io, res->storage, &res->nstorage, ioerr,
					    sizeof(ioerr));
	iostats_free(c.io);

	enum run_status st = interrupted ? RUN_INTERRUPTED : RUN_OK;
	if (fabric_check_conservation(f, &res->data_bytes_in_flight)) {
		snprintf(res->err, sizeof(res->err), "conservation: %s", f->err);
		st = RUN_INVARIANT;
	}
	if (c.has_out && !c.out.remote) {
		st = write_files(&c, f, st, write_failed, io_bad, ioerr, &oom, res);
	} else if (c.has_out) { /* a rank but 0 of a split run: rank 0 writes */
		st = write_failed && st != RUN_INVARIANT ? RUN_EIO : st;
		output_close(&c.out);
	} else if (io_bad && st == RUN_OK) {
		snprintf(res->err, sizeof(res->err), "%s", ioerr);
		st = RUN_EIO;
	}
	if (c.comm) /* every rank ends as rank 0, which wrote the files */
		st = (enum run_status)run_split_max(&c, c.comm->rank ? -1 : (int)st);
	res->peak_rss_mb = peak_rss_mb();
	train_ideal_free(&c.ideal);
	free_parts(&c, nparts);
	run_split_free(&c);
	fabric_destroy(f);
	if (oom && st == RUN_OK) {
		snprintf(res->err, sizeof(res->err), "out of memory for the results");
		st = RUN_EIO;
	}
	return st;
}


void run_print_plan(const struct scenario *scn, FILE *out)
{
	struct fabric_memory need = fabric_memory_estimate(scn);
	char what[512];
	qp_need_text(scn, &need, what, sizeof(what));
	fprintf(out, "# QPs: %s%s\n", what,
		need.verdict == FABRIC_MEMORY_TOO_MANY_QPS
			? "; more than a run can number: run refuses it"
		: need.verdict == FABRIC_MEMORY_TOO_LARGE
			? "; more than this machine's memory: run refuses it"
			: "");
	struct fabric_plan p = fabric_plan_of(scn, 0);
	char la[32];
	units_format_time(p.lookahead_ps, la, sizeof(la));
	if (p.parts == p.threads)
		fprintf(out, "# threads: %u partition%s of %u unit%s (a unit: %s)\n", p.parts,
			p.parts == 1 ? "" : "s", p.units, p.units == 1 ? "" : "s", p.unit_is);
	else
		fprintf(out, "# threads: %u, running %u partitions of %u units (a unit: %s) one "
			     "after another within each window, for locality\n",
			p.threads, p.parts, p.units, p.unit_is);
	if (p.auto_light)
		fprintf(out, "# sim.threads = auto: %u thread%s, one for each %u of the fabric's "
			     "weight (ports + 2 x hosts: %llu) at most; a lighter fabric's windows "
			     "hold too little work for more (sim.threads = N sets them)\n",
			p.threads, p.threads == 1 ? "" : "s", FABRIC_AUTO_THREAD_WEIGHT,
			(unsigned long long)p.auto_light);
	if (p.auto_sparse > 0)
		fprintf(out, "# sim.threads = auto: %u thread%s, one for each %d data packets the "
			     "jobs can deliver in a window at most (%.2f: their receiving hosts' "
			     "links at host_link); sparser windows cost more on several threads "
			     "than they save (sim.threads = N sets them)\n",
			p.threads, p.threads == 1 ? "" : "s", FABRIC_AUTO_WINDOW_PACKETS, p.auto_sparse);
	if (p.auto_rings)
		fprintf(out, "# sim.partitions = auto: %u partitions, %u a thread: every job is a "
			     "ring all-reduce, whose messages stay within a partition however fine "
			     "the cut, and finer partitions ran faster on several threads "
			     "(sim.partitions = N sets them)\n",
			p.parts, p.parts / p.threads);
	if (p.why_one)
		fprintf(out, "# one partition: %s\n", p.why_one);
	else if (p.threads > 1 && p.weight_total)
		fprintf(out, "# %s weights (ports + 2 x hosts): heaviest %.1f%%, lightest %.1f%% "
			     "of %llu\n", p.parts == p.threads ? "partition" : "thread",
			100.0 * (double)p.weight_max / (double)p.weight_total,
			100.0 * (double)p.weight_min / (double)p.weight_total,
			(unsigned long long)p.weight_total);
	fprintf(out, "# windows of %s (%s); packets between partitions wait for the window's "
		     "end; the run ends at the end of the window of the last completion\n",
		la, p.units == 1 ? "a star has no fabric link" : "the lookahead: a fabric cable's delay");
	if (p.threads > 1)
		fprintf(out, "# a window after one of fewer than %llu events runs on one thread, "
			     "after one of %llu or more on the threads, in between the way the run "
			     "measures cheaper\n",
			(unsigned long long)p.window_one, (unsigned long long)p.window_threads);
}
