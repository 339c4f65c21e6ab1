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

struct job_row {
	char name[128], pattern[32];
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
	if (sum_iterations(p, s, jobs, n, err, errlen)) {
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
		 "</th><th>busbw % line mean (all)</th></tr></thead><tbody>\n");
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
		h_raw(p, "</tr>\n");
	}
	if (!n)
		h_raw(p, "<tr><td colspan=\"10\">no job</td></tr>\n");
	h_raw(p, "</tbody></table></div>\n");
	if (*note) {
		h_raw(p, "<p class=\"box\">Per-job counters unavailable: ");
		h_text(p, note);
		h_raw(p, "</p>\n");
	}
	h_raw(p, "<p>");
	h_textf(p, "Flow completion over every job: p50 %s us, p99 %s us (summary.csv).",
		rt_get(sum, 0, "fct_p50_us"), rt_get(sum, 0, "fct_p99_us"));
	h_raw(p, "</p>\n");
	int rc = storage_table(p, err, errlen);
	h_section_end(p);
	free(jobs);
	return rc;
}
