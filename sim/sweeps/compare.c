/*
 * compare.c - one scenario on each fabric type, side by side (compare.h).
 */
#include "sim/sweeps/compare.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "models/base/files.h"
#include "models/scenario/scenario.h"
#include "sim/run/output.h"

#define COL_W 20 /* characters per fabric column */

static int fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* DIR/probe.csv: n messages of COMPARE_PROBE_BYTES, back and forth
 * between hosts a and b, each after the one before */
static int write_probe(const char *path, unsigned n, uint32_t a, uint32_t b, char *err,
		       size_t errlen)
{
	FILE *fp = fopen(path, "w");
	if (!fp)
		return fail(err, errlen, "%s: %s", path, strerror(errno));
	fprintf(fp, "src,dst,bytes,start_us,after\n");
	for (unsigned i = 0; i < n; i++) {
		uint32_t s = i % 2 ? b : a, d = i % 2 ? a : b;
		char start[32];
		units_format_us((sim_time_ps)i * COMPARE_PROBE_PERIOD_PS, start, sizeof(start));
		if (i)
			fprintf(fp, "%" PRIu32 ",%" PRIu32 ",%d,%s,%u\n", s, d, COMPARE_PROBE_BYTES,
				start, i - 1);
		else
			fprintf(fp, "%" PRIu32 ",%" PRIu32 ",%d,%s,\n", s, d, COMPARE_PROBE_BYTES,
				start);
	}
	if (file_close(fp))
		return fail(err, errlen, "%s: write failed", path);
	return 0;
}

/* the sets every fabric's run gets, in order: sim.duration raised, the
 * user's, the probe job; into sets[] (at most nsets_max), their count or -1 */
struct plan {
	char duration[64], pattern[64], file[PATH_MAX + 64];
	const char **sets;
	int nsets;
};

static int plan_runs(const struct compare_opts *o, struct plan *pl, char *err, size_t errlen)
{
	struct scn_error e;
	struct scenario_inputs in = { .path = o->scenario, .sets = o->sets, .nsets = o->nsets,
				      .fabric = o->fabrics[0] };
	struct scenario *s = scenario_open(&in, &e);
	if (!s)
		return fail(err, errlen, "%s: %s", o->fabrics[0], e.msg);
	sim_time_ps dur = s->duration_ps > COMPARE_MIN_DURATION_PS ? s->duration_ps
								   : COMPARE_MIN_DURATION_PS;
	uint32_t hosts = scenario_hosts(s);
	int clash = 0;
	for (uint32_t j = 0; j < s->njobs; j++)
		clash |= strcmp(s->jobs[j].name, COMPARE_PROBE_JOB) == 0;
	scenario_close(s);
	if (clash)
		return fail(err, errlen, "the scenario has a job named %s, the name of the latency "
			    "probe compare adds (rename it, or use --probe 0)", COMPARE_PROBE_JOB);
	pl->sets = calloc((size_t)o->nsets + 3, sizeof(*pl->sets));
	if (!pl->sets)
		return fail(err, errlen, "out of memory");
	snprintf(pl->duration, sizeof(pl->duration), "sim.duration=%" PRId64 "ps", dur);
	pl->sets[pl->nsets++] = pl->duration;
	for (int i = 0; i < o->nsets; i++)
		pl->sets[pl->nsets++] = o->sets[i];
	if (!o->probe_msgs || hosts < 2)
		return 0;
	char path[PATH_MAX], abs[PATH_MAX];
	snprintf(path, sizeof(path), "%s/probe.csv", o->out_dir);
	if (write_probe(path, o->probe_msgs, 0, hosts - 1, err, errlen))
		return -1;
	/* the trace's path as the loader takes it: absolute */
	char cwd[PATH_MAX];
	if (path[0] == '/')
		snprintf(abs, sizeof(abs), "%s", path);
	else if (!getcwd(cwd, sizeof(cwd)))
		return fail(err, errlen, "the current folder: %s", strerror(errno));
	else if ((size_t)snprintf(abs, sizeof(abs), "%s/%s", cwd, path) >= sizeof(abs))
		return fail(err, errlen, "%s/%s: path too long", cwd, path);
	snprintf(pl->pattern, sizeof(pl->pattern), "job.%s.pattern=trace", COMPARE_PROBE_JOB);
	snprintf(pl->file, sizeof(pl->file), "job.%s.file=%s", COMPARE_PROBE_JOB, abs);
	pl->sets[pl->nsets++] = pl->pattern;
	pl->sets[pl->nsets++] = pl->file;
	return 0;
}

enum run_status compare_run(const struct compare_opts *o, struct compare_row *rows, char *err,
			    size_t errlen)
{
	struct plan pl = { 0 };
	if (output_mkdir_p(o->out_dir)) {
		fail(err, errlen, "%s: %s", o->out_dir, strerror(errno));
		return RUN_EIO;
	}
	if (plan_runs(o, &pl, err, errlen)) {
		free(pl.sets);
		return RUN_EIO;
	}
	enum run_status st = RUN_OK;
	for (int i = 0; i < o->nfabrics && st == RUN_OK; i++) {
		struct compare_row *row = &rows[i];
		struct scn_error e;
		struct scenario_inputs in = { .path = o->scenario, .sets = pl.sets,
					      .nsets = pl.nsets, .log = o->log,
					      .fabric = o->fabrics[i] };
		row->fabric = o->fabrics[i];
		struct scenario *s = scenario_open(&in, &e);
		if (!s) {
			fail(err, errlen, "%s: %s", o->fabrics[i], e.msg);
			st = RUN_EIO;
			break;
		}
		char dir[PATH_MAX], prefix[64];
		snprintf(dir, sizeof(dir), "%s/%s", o->out_dir, o->fabrics[i]);
		snprintf(prefix, sizeof(prefix), "%s: warning: ", o->fabrics[i]);
		if (o->log) {
			scenario_write_warnings(s, o->log, prefix);
			fprintf(o->log, "dcqcn-sim: compare: %s ...\n", o->fabrics[i]);
		}
		struct run_opts ro = { .out_dir = dir, .progress = o->progress,
				       .interrupt = o->interrupt,
				       .probe_job = o->probe_msgs ? COMPARE_PROBE_JOB : NULL };
		row->busbw_stat_mean = s->crit_busbw_stat == SCN_BUSBW_MEAN;
		row->status = run_scenario(s, &ro, &row->r);
		scenario_close(s);
		st = row->status;
		if (st != RUN_OK && st != RUN_INTERRUPTED)
			fail(err, errlen, "%s: %s", o->fabrics[i], row->r.err);
	}
	free(pl.sets);
	return st;
}

/* ---- the matrix ---- */

static const char *end_text(const struct run_result *r)
{
	switch (r->end) {
	case RUN_END_DONE:
		return "finished";
	case RUN_END_DURATION:
		return "not finished";
	default:
		return "interrupted";
	}
}

/* a time as the matrix shows it: us below 10 ms, ms above */
static char *us_or_dash(sim_time_ps ps, char *buf, size_t len)
{
	if (ps < 0)
		snprintf(buf, len, "-");
	else if (ps < 10 * UNITS_PS_PER_MS)
		snprintf(buf, len, "%.1f us", (double)ps / UNITS_PS_PER_US);
	else
		snprintf(buf, len, "%.1f ms", (double)ps / UNITS_PS_PER_MS);
	return buf;
}

static uint64_t drops_of(const struct run_result *r)
{
	return r->drops_lossless + r->drops_lossy + r->drops_pfcwd;
}

/* one cell of measure m for row r */
enum measure {
	M_END, M_LAST, M_DROPS, M_RESENT, M_TIMEOUTS, M_P50, M_P99, M_COLL, M_JUDGED, M_BUSBW,
	M_FCT, M_FLOWCTL, M_CRITERIA, M_COUNT
};

/* "jobs done": the last message of the scenario's jobs, the probe's aside
 * (it keeps its own rows); "busbw judged": what the criteria judged */
static const char *const measure_names[M_COUNT] = {
	"run", "jobs done", "packets dropped", "bytes retransmitted", "timeouts",
	"4 KB latency p50", "4 KB latency p99", "collective time", "busbw judged",
	"busbw mean", "flow completion p99", "flow control", "criteria",
};

static void cell(enum measure m, const struct compare_row *row, char *buf, size_t len)
{
	const struct run_result *r = &row->r;
	switch (m) {
	case M_END:
		snprintf(buf, len, "%s", end_text(r));
		return;
	case M_LAST:
		us_or_dash(r->end == RUN_END_DONE ? r->jobs_done_ps : -1, buf, len);
		return;
	case M_DROPS:
		snprintf(buf, len, "%" PRIu64, drops_of(r));
		return;
	case M_RESENT:
		if (r->retransmitted_bytes >= 1000000)
			snprintf(buf, len, "%.1f MB", (double)r->retransmitted_bytes / 1e6);
		else
			snprintf(buf, len, "%" PRIu64 " B", r->retransmitted_bytes);
		return;
	case M_TIMEOUTS:
		snprintf(buf, len, "%" PRIu64, r->rto_timeouts);
		return;
	case M_P50:
		us_or_dash(r->probe_p50_ps, buf, len);
		return;
	case M_P99:
		us_or_dash(r->probe_p99_ps, buf, len);
		return;
	case M_COLL:
		us_or_dash(r->collective_time_ps, buf, len);
		return;
	case M_JUDGED:
		if (r->judged_iterations)
			snprintf(buf, len, "%.1f%% (%s)", r->busbw_judged_pct,
				 row->busbw_stat_mean ? "mean" : "min");
		else
			snprintf(buf, len, "-");
		return;
	case M_BUSBW:
		if (r->collectives_completed)
			snprintf(buf, len, "%.1f GB/s %.1f%%", r->busbw_GBps, r->busbw_pct_line);
		else
			snprintf(buf, len, "-");
		return;
	case M_FCT:
		us_or_dash(r->fct_p99_ps, buf, len);
		return;
	case M_FLOWCTL:
		if (r->credit_stall_ps >= 0)
			snprintf(buf, len, "stall %.1f us", (double)r->credit_stall_ps / UNITS_PS_PER_US);
		else
			snprintf(buf, len, "%" PRIu64 " pauses", r->pause_frames);
		return;
	case M_CRITERIA:
		snprintf(buf, len, "%s", r->criteria_pass > 0	 ? "pass"
					 : r->criteria_pass == 0 ? "FAIL"
								 : "not judged");
		return;
	case M_COUNT:
		break;
	}
	buf[0] = '\0';
}

/* a clause of a footer line, after "; " when it is not the first */
__attribute__((format(printf, 3, 4))) static void clause(char *line, size_t *n, const char *fmt, ...)
{
	va_list ap;
	if (*n && *n < 510)
		*n += (size_t)snprintf(line + *n, 512 - *n, "; ");
	va_start(ap, fmt);
	if (*n < 511) {
		int k = vsnprintf(line + *n, 512 - *n, fmt, ap);
		*n += k > 0 ? (size_t)k : 0;
	}
	va_end(ap);
	if (*n > 511)
		*n = 511;
}

/* some fabric completed a collective iteration */
static int collectives(const struct compare_opts *o, const struct compare_row *rows)
{
	for (int i = 0; i < o->nfabrics; i++)
		if (rows[i].r.collectives_completed)
			return 1;
	return 0;
}

void compare_print(const struct compare_opts *o, const struct compare_row *rows, FILE *out)
{
	fprintf(out, "%-22s", "");
	for (int i = 0; i < o->nfabrics; i++)
		fprintf(out, "%*s", COL_W, rows[i].fabric);
	fprintf(out, "\n");
	for (int m = 0; m < M_COUNT; m++) {
		if ((m == M_P50 || m == M_P99) && !o->probe_msgs)
			continue;
		if ((m == M_COLL || m == M_JUDGED || m == M_BUSBW) && !collectives(o, rows))
			continue;
		fprintf(out, "%-22s", measure_names[m]);
		for (int i = 0; i < o->nfabrics; i++) {
			char c[64];
			cell((enum measure)m, &rows[i], c, sizeof(c));
			fprintf(out, "%*s", COL_W, c);
		}
		fprintf(out, "\n");
	}
	for (int i = 0; i < o->nfabrics; i++) { /* a line per fabric that has something to say */
		const struct run_result *r = &rows[i].r;
		char line[512] = "", t[32];
		size_t n = 0;
		if (o->probe_msgs)
			clause(line, &n, "%" PRIu32 " probe messages under load, the last done at %s",
			       r->probe_msgs,
			       us_or_dash(r->end == RUN_END_DONE ? r->sim_time_ps : -1, t, sizeof(t)));
		if (r->end != RUN_END_DONE)
			clause(line, &n, "%" PRIu64 " of %" PRIu64 " messages done",
			       r->flows_completed, r->flows_total);
		if (r->criteria_pass == 0)
			clause(line, &n, "failed: %s", r->criteria_failed);
		if (n)
			fprintf(out, "%s: %s\n", rows[i].fabric, line);
	}
}

/* ---- compare.csv ---- */

static void put_us(FILE *fp, sim_time_ps ps)
{
	char b[32];
	fprintf(fp, ",%s", ps < 0 ? "" : units_format_us(ps, b, sizeof(b)));
}

int compare_write_csv(const char *dir, const struct compare_row *rows, int n, char *err,
		      size_t errlen)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/compare.csv", dir);
	char tmp[PATH_MAX + 96];
	FILE *fp = file_open_aside(path, tmp, sizeof(tmp));
	if (!fp)
		return fail(err, errlen, "%s: %s", path, strerror(errno));
	fprintf(fp, "fabric,end,sim_time_us,drops,retransmitted_bytes,rto_timeouts,probe_msgs,probe_p50_us,"
		    "probe_p99_us,collective_time_us,busbw_GBps,busbw_pct_line,fct_p99_us,"
		    "pause_frames,credit_stall_us,max_paused_fraction,criteria_pass,"
		    "criteria_failed,jobs_done_us,busbw_judged_pct\n");
	for (int i = 0; i < n; i++) {
		const struct run_result *r = &rows[i].r;
		fprintf(fp, "%s,%s", rows[i].fabric,
			r->end == RUN_END_DONE ? "done" : r->end == RUN_END_DURATION ? "duration"
										    : "interrupted");
		put_us(fp, r->sim_time_ps);
		fprintf(fp, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu32, drops_of(r),
			r->retransmitted_bytes, r->rto_timeouts, r->probe_msgs);
		put_us(fp, r->probe_p50_ps);
		put_us(fp, r->probe_p99_ps);
		put_us(fp, r->collective_time_ps);
		if (r->collectives_completed)
			fprintf(fp, ",%.3f,%.2f", r->busbw_GBps, r->busbw_pct_line);
		else
			fprintf(fp, ",,");
		put_us(fp, r->fct_p99_ps);
		fprintf(fp, ",%" PRIu64, r->pause_frames);
		put_us(fp, r->credit_stall_ps);
		fprintf(fp, ",%.6f,%s,%s", r->max_paused_ppm / 1e6,
			r->criteria_pass < 0 ? "" : r->criteria_pass ? "1" : "0", r->criteria_failed);
		put_us(fp, r->jobs_done_ps);
		if (r->judged_iterations)
			fprintf(fp, ",%.2f\n", r->busbw_judged_pct);
		else
			fprintf(fp, ",\n");
	}
	if (file_commit(fp, tmp, path))
		return fail(err, errlen, "%s: cannot write it: %s", path, strerror(errno));
	return 0;
}
