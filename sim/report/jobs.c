/*
 * jobs.c - the run page's table per job (internal.h): what counters.csv
 * counted for it (payload delivered, sent again, drops), its iterations
 * from collectives.csv (times, and busbw over the judged iterations as
 * [criteria] judges them), and the storage jobs' I/O from storage_jobs.csv.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/scenario/scenario.h"
#include "sim/report/internal.h"

#define JOBS_MAX 64

/* the completion times of one job's flows, us */
struct fcts {
	double *v;
	size_t n, cap;
};

struct job_row {
	char name[128], pattern[32];
	struct fcts fct[2]; /* [0] across the network, [1] within a server (NVLink) */
	double delivered, retrans, drops; /* counters.csv sums; NAN: no column */
	long iters_done, iters_failed, iterations;
	double t_sum, t_min, t_max;		/* iteration times, us */
	double bw_sum, j_sum, j_min;		/* busbw % line: all, judged */
	long j_n;
};

/* the [job.NAME] sections of ini, their pattern and iterations */
static int ini_jobs(const char *ini, struct job_row *jobs, int max)
{
	int n = 0;
	for (const char *s = ini; *s;) {
		size_t l = strcspn(s, "\n");
		if (*s == '[') {
			if (l > 6 && !strncmp(s, "[job.", 5) && s[l - 1] == ']' && n < max) {
				struct job_row *j = &jobs[n++];
				memset(j, 0, sizeof(*j));
				snprintf(j->name, sizeof(j->name), "%.*s", (int)(l - 6), s + 5);
				j->t_min = j->j_min = INFINITY;
				j->t_max = -INFINITY;
				j->delivered = j->retrans = j->drops = NAN;
			}
		} else if (n && l > 10 && !strncmp(s, "pattern = ", 10)) {
			snprintf(jobs[n - 1].pattern, sizeof(jobs[0].pattern), "%.*s",
				 (int)(l - 10), s + 10);
		} else if (n && l > 13 && !strncmp(s, "iterations = ", 13)) {
			jobs[n - 1].iterations = strtol(s + 13, NULL, 10);
		}
		s += l + (s[l] == '\n');
	}
	return n;
}

/* counters.csv's JOB_delivered_bytes, _retransmitted_bytes, _drops summed */
static void sum_counters(struct page *p, struct job_row *jobs, int n, char *note, size_t len)
{
	struct rtable c;
	if (rt_read(&c, p->dir, "counters.csv", note, len))
		return;
	for (int i = 0; i < n; i++) {
		static const char *const suffix[3] = { "_delivered_bytes", "_retransmitted_bytes",
						       "_drops" };
		double *dst[3] = { &jobs[i].delivered, &jobs[i].retrans, &jobs[i].drops };
		for (int k = 0; k < 3; k++) {
			char col[192];
			snprintf(col, sizeof(col), "%s%s", jobs[i].name, suffix[k]);
			int ci = rt_col(&c, col);
			if (ci < 0)
				continue;
			double sum = 0, v;
			for (size_t r = 1; r <= c.nrows; r++)
				if (!cell_num(c.cell[r * c.ncols + (size_t)ci], &v))
					sum += v;
			*dst[k] = sum;
		}
	}
	rt_free(&c);
}

#define FLOWS_BYTES_MAX (1ull << 30) /* a larger flows.csv is not read for percentiles */

static int fcts_add(struct fcts *f, double v)
{
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 1024;
		double *n = realloc(f->v, cap * sizeof(*n));
		if (!n)
			return -1;
		f->v = n;
		f->cap = cap;
	}
	f->v[f->n++] = v;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* the nearest-rank percentile q of the sorted f, NAN when empty */
static double fcts_pct(const struct fcts *f, double q)
{
	if (!f->n)
		return NAN;
	size_t k = (size_t)ceil(q / 100.0 * (double)f->n);
	return f->v[k ? k - 1 : 0];
}

/* "hN" as N; -1 otherwise */
static long host_index(const char *h)
{
	char *end;
	if (h[0] != 'h' || h[1] < '0' || h[1] > '9')
		return -1;
	long v = strtol(h + 1, &end, 10);
	return *end ? -1 : v;
}

/*
 * flows.csv read a line at a time: each completed flow's fct_us to its
 * job, across the network or, between two GPUs of one server (hosts G*s to
 * G*s+G-1, topology.gpus_per_server G), over NVLink.  A note instead when
 * the file is missing, too large or not flows.csv's layout.
 */
static void sum_flows(struct page *p, const struct scenario *s, struct job_row *jobs, int n,
		      char *note, size_t len)
{
	char path[RPT_PATH_MAX];
	snprintf(path, sizeof(path), "%s/flows.csv", p->dir);
	FILE *fp = fopen(path, "r");
	if (!fp) {
		snprintf(note, len, "flows.csv: not in the folder");
		return;
	}
	char line[1024];
	long long bytes = 0;
	uint32_t g = s->gpus_per_server ? s->gpus_per_server : 1;
	static const char head[] = "flow,job,src,dst,bytes,start_us,end_us,fct_us,";
	if (!fgets(line, sizeof(line), fp) || strncmp(line, head, sizeof(head) - 1)) {
		snprintf(note, len, "flows.csv: not the layout of docs/outputs.md");
		fclose(fp);
		return;
	}
	while (fgets(line, sizeof(line), fp)) {
		if ((bytes += (long long)strlen(line)) > (long long)FLOWS_BYTES_MAX) {
			snprintf(note, len, "flows.csv: larger than 1 GB, not read");
			break;
		}
		char *f[10], *c = line;
		int k = 0;
		for (; k < 10 && c; k++) {
			f[k] = c;
			c = strchr(c, ',');
			if (c)
				*c++ = '\0';
		}
		double fct;
		if (k < 8 || cell_num(f[7], &fct))
			continue; /* a flow that did not complete */
		long a = host_index(f[2]), b = host_index(f[3]);
		int nvl = g > 1 && a >= 0 && b >= 0 && a / g == b / g;
		for (int i = 0; i < n; i++)
			if (!strcmp(jobs[i].name, f[1])) {
				if (fcts_add(&jobs[i].fct[nvl], fct))
					snprintf(note, len, "out of memory reading flows.csv");
				break;
			}
	}
	fclose(fp);
	for (int i = 0; i < n; i++)
		for (int k = 0; k < 2; k++)
			if (jobs[i].fct[k].n)
				qsort(jobs[i].fct[k].v, jobs[i].fct[k].n, sizeof(double),
				      cmp_double);
}

/* "p50 / p99" of f, or "-" */
static void fct_cell(struct page *p, const struct fcts *f)
{
	if (!f->n) {
		h_raw(p, "<td>-</td>");
		return;
	}
	h_fmt(p, "<td class=\"n\">%.3f / %.3f</td>", fcts_pct(f, 50), fcts_pct(f, 99));
}

static int is_collective(const char *pattern)
{
	return !strcmp(pattern, "ring-allreduce") || !strcmp(pattern, "alltoall");
}

/* collectives.csv's iterations by job */
static int sum_iterations(struct page *p, const struct scenario *s, struct job_row *jobs, int n,
			  char *err, size_t errlen)
{
	static const char *const cols[] = { "job", "iteration", "time_us", "busbw_pct_line",
					    "status", NULL };
	struct rtable c;
	char path[RPT_PATH_MAX];
	snprintf(path, sizeof(path), "%s/collectives.csv", p->dir);
	FILE *fp = fopen(path, "r");
	if (!fp)
		return 0; /* a run without jobs may have none */
	fclose(fp);
	if (rt_read(&c, p->dir, "collectives.csv", err, errlen))
		return -1;
	if (rt_need(&c, cols, err, errlen)) {
		rt_free(&c);
		return -1;
	}
	for (size_t r = 0; r < c.nrows; r++) {
		struct job_row *j = NULL;
		for (int i = 0; i < n && !j; i++)
			if (!strcmp(jobs[i].name, rt_get(&c, r, "job")))
				j = &jobs[i];
		if (!j)
			continue;
		if (strcmp(rt_get(&c, r, "status"), "done")) {
			j->iters_failed++;
			continue;
		}
		double t, bw, it;
		j->iters_done++;
		if (!cell_num(rt_get(&c, r, "time_us"), &t)) {
			j->t_sum += t;
			j->t_min = fmin(j->t_min, t);
			j->t_max = fmax(j->t_max, t);
		}
		if (cell_num(rt_get(&c, r, "busbw_pct_line"), &bw))
			continue;
		j->bw_sum += bw;
		if (!cell_num(rt_get(&c, r, "iteration"), &it) &&
		    (it >= (double)s->crit_warmup_iterations || it + 1 == (double)j->iterations)) {
			j->j_sum += bw;
			j->j_min = fmin(j->j_min, bw);
			j->j_n++;
		}
	}
	rt_free(&c);
	return 0;
}

static void num_cell(struct page *p, double v, int decimals)
{
	if (isnan(v) || isinf(v)) {
		h_raw(p, "<td>-</td>");
		return;
	}
	char buf[64];
	snprintf(buf, sizeof(buf), "%.*f", decimals, v);
	h_raw(p, "<td class=\"n\">");
	h_text(p, buf);
	h_raw(p, "</td>");
}

/* storage_jobs.csv as it is, when the run has a storage job */
static int storage_table(struct page *p, char *err, size_t errlen)
{
	char path[RPT_PATH_MAX];
	snprintf(path, sizeof(path), "%s/storage_jobs.csv", p->dir);
	FILE *fp = fopen(path, "r");
	if (!fp)
		return 0;
	fclose(fp);
	struct rtable t;
	if (rt_read(&t, p->dir, "storage_jobs.csv", err, errlen))
		return -1;
	static const char *const cols[] = { "job", "rw", "ios", "iops", "bw_MiBps", "clat_p50_us",
					    "clat_p99_us", "clat_p999_us", "clat_max_us", NULL };
	h_raw(p, "<h3>Storage jobs (storage_jobs.csv)</h3>\n");
	h_table(p, &t, cols, 0, NULL);
	rt_free(&t);
	return 0;
}

int run_jobs_table(struct page *p, const struct scenario *s, const char *ini,
		   const struct rtable *sum, char *err, size_t errlen)
{
	struct job_row *jobs = calloc(JOBS_MAX, sizeof(*jobs));
	if (!jobs) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	int n = ini_jobs(ini, jobs, JOBS_MAX);
	char note[1024] = "";
	sum_counters(p, jobs, n, note, sizeof(note));
	char flows_note[256] = "";
	sum_flows(p, s, jobs, n, flows_note, sizeof(flows_note));
	if (sum_iterations(p, s, jobs, n, err, errlen)) {
		for (int i = 0; i < n; i++)
			for (int k = 0; k < 2; k++)
				free(jobs[i].fct[k].v);
		free(jobs);
		return -1;
	}
	double t_us = 0;
	cell_num(rt_get(sum, 0, "sim_time_us"), &t_us);
	h_section(p, "jobs", "Jobs");
	h_raw(p, "<div class=\"tw\"><table id=\"job-table\"><thead><tr><th>job</th>"
		 "<th>pattern</th><th>delivered B</th><th>goodput Gbps (all receivers, over the run)</th>"
		 "<th>retransmitted B</th><th>drops</th><th>iterations done / failed</th>"
		 "<th>iteration time mean / min / max us</th><th>busbw % line judged min / mean"
		 "</th><th>busbw % line mean (all)</th><th>FCT p50 / p99 us, network</th>"
		 "<th>FCT p50 / p99 us, NVLink</th></tr></thead><tbody>\n");
	for (int i = 0; i < n; i++) {
		const struct job_row *j = &jobs[i];
		h_raw(p, "<tr><td>");
		h_text(p, j->name);
		h_raw(p, "</td><td>");
		h_text(p, j->pattern);
		h_raw(p, "</td>");
		num_cell(p, j->delivered, 0);
		num_cell(p, t_us > 0 ? j->delivered * 8 / (t_us * 1e3) : NAN, 2);
		num_cell(p, j->retrans, 0);
		num_cell(p, j->drops, 0);
		h_fmt(p, "<td class=\"n\">%ld / %ld</td>", j->iters_done, j->iters_failed);
		if (j->iters_done && isfinite(j->t_min)) {
			char t[160];
			snprintf(t, sizeof(t), "%.1f / %.1f / %.1f", j->t_sum / (double)j->iters_done,
				 j->t_min, j->t_max);
			h_raw(p, "<td class=\"n\">");
			h_text(p, t);
			h_raw(p, "</td>");
		} else {
			h_raw(p, "<td>-</td>");
		}
		if (is_collective(j->pattern) && j->j_n) {
			h_fmt(p, "<td class=\"n\">%.2f / %.2f</td>", j->j_min,
			      j->j_sum / (double)j->j_n);
		} else {
			h_raw(p, "<td>-</td>");
		}
		num_cell(p, j->iters_done && is_collective(j->pattern)
				    ? j->bw_sum / (double)j->iters_done : NAN, 2);
		fct_cell(p, &j->fct[0]);
		fct_cell(p, &j->fct[1]);
		h_raw(p, "</tr>\n");
	}
	if (!n)
		h_raw(p, "<tr><td colspan=\"12\">no job</td></tr>\n");
	h_raw(p, "</tbody></table></div>\n");
	if (*note) {
		h_raw(p, "<p class=\"box\">Per-job counters unavailable: ");
		h_text(p, note);
		h_raw(p, "</p>\n");
	}
	h_raw(p, "<p>");
	h_textf(p, "Flow completion over every job: p50 %s us, p99 %s us (summary.csv). A job's "
		"own percentiles are of its completed flows in flows.csv (nearest rank), those "
		"between two GPUs of one server (NVLink) apart%s%s.",
		rt_get(sum, 0, "fct_p50_us"), rt_get(sum, 0, "fct_p99_us"),
		*flows_note ? "; " : "", flows_note);
	h_raw(p, "</p>\n");
	int rc = storage_table(p, err, errlen);
	h_section_end(p);
	for (int i = 0; i < n; i++)
		for (int k = 0; k < 2; k++)
			free(jobs[i].fct[k].v);
	free(jobs);
	return rc;
}
