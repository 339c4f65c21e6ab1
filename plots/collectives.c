/*
 * collectives.c - the data of collectives.png (collectives.gp): each job's
 * time per iteration, and the collectives' busbw against the target.
 */
#include "plots/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * Every job's iteration times (top panel); bus bandwidth against the
 * [criteria] target only for the collectives, ring-allreduce and alltoall
 * (pattern from scenario.ini), whose busbw is nccl-tests'.  An incast's,
 * a permutation's or a trace's "busbw" is a mean sender rate with no such
 * target: those jobs get their times only, and when no collective is drawn
 * the busbw panel is left out.
 */

static const char *const coll_cols[] = {"job", "iteration", "time_us", "busbw_pct_line", NULL};

struct coll_row {
	int job; /* index into jobs */
	double iter, time_us, pct;
};

struct colls {
	char jobs[JOBS_MAX][64];
	int njobs, dropped_jobs;
	struct coll_row *v;
	size_t n, cap;
	double max_iter, max_time;
};

static int colls_row(struct scan *sc, char *const *f)
{
	struct colls *c = sc->ctx;
	struct coll_row r;
	if (!*f[2])
		return 0; /* a failed iteration (status failed) has no time: not drawn */
	if (scan_num(sc, f, 1, &r.iter) || scan_num(sc, f, 2, &r.time_us))
		return -1;
	/* busbw_pct_line is empty when the link rate is unknown: no point */
	if (!*f[3])
		r.pct = NAN;
	else if (scan_num(sc, f, 3, &r.pct))
		return -1;
	int j = 0;
	while (j < c->njobs && strcmp(c->jobs[j], f[0]))
		j++;
	if (j == c->njobs) {
		if (c->njobs == JOBS_MAX || strlen(f[0]) >= sizeof(c->jobs[0])) {
			c->dropped_jobs++;
			return 0;
		}
		strcpy(c->jobs[c->njobs++], f[0]);
	}
	r.job = j;
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 64;
		struct coll_row *v = realloc(c->v, cap * sizeof(*v));
		if (!v)
			return fail(sc->err, sc->errlen, "out of memory");
		c->v = v;
		c->cap = cap;
	}
	c->v[c->n++] = r;
	if (r.iter > c->max_iter)
		c->max_iter = r.iter;
	if (r.time_us > c->max_time)
		c->max_time = r.time_us;
	return 0;
}

/* summary.csv's verdict, as the title's line: "verdict: PASS", "verdict:
 * FAIL (min_busbw_pct_line)", "verdict: NOT JUDGED (why)"; "" unknown */
struct verdict {
	char text[320];
};

static int verdict_row(struct scan *sc, char *const *f)
{
	struct verdict *v = sc->ctx;
	snprintf(v->text, sizeof(v->text), "verdict: %s%s%s%s",
		 !strcmp(f[0], "1") ? "PASS" : !strcmp(f[0], "0") ? "FAIL" : "NOT JUDGED",
		 *f[1] ? " (" : "", f[1], *f[1] ? ")" : "");
	/* ';' as ", ", and '_' escaped for gnuplot's enhanced text (a
	 * subscript otherwise) */
	char out[sizeof(v->text)];
	size_t n = 0;
	for (const char *c = v->text; *c && n + 3 < sizeof(out); c++) {
		if (*c == ';') {
			out[n++] = ',';
			out[n++] = ' ';
		} else {
			if (*c == '_')
				out[n++] = '\\';
			out[n++] = *c;
		}
	}
	out[n] = '\0';
	memcpy(v->text, out, n + 1);
	return 0;
}

int shape_collectives(struct fig *g, const struct run_info *ri, char *err, size_t errlen)
{
	struct colls c = {0};
	int rc = -1;
	long rows = scan_csv(g->dir, "collectives.csv", coll_cols, colls_row, &c, err, errlen);
	if (rows < 0)
		goto done;
	if (rows == 0) {
		snprintf(g->note, sizeof(g->note),
			 "collectives.csv has no rows (no collective iteration completed)");
		rc = 1;
		goto done;
	}
	char coll_idx[JOBS_MAX * 4 + 32] = "";
	int ncoll = 0;
	for (int j = 0; j < c.njobs; j++) {
		char file[64];
		const struct run_job *rj = run_job(ri, c.jobs[j]);
		int coll = is_collective(rj);
		snprintf(file, sizeof(file), "collectives_%d.dat", j + 1);
		FILE *out = data_open(g, file, err, errlen);
		if (!out)
			goto done;
		if (coll)
			fprintf(out, "iteration\t%s\t%s busbw\n", c.jobs[j], c.jobs[j]);
		else
			fprintf(out, "iteration\t%s (%s: time only)\t%s busbw (not drawn)\n", c.jobs[j],
				rj && *rj->pattern ? rj->pattern : "not a collective", c.jobs[j]);
		for (size_t i = 0; i < c.n; i++) {
			char a[32];
			if (c.v[i].job == j)
				fprintf(out, "%.0f\t%.3f\t%s\n", c.v[i].iter, c.v[i].time_us,
					gp_num(coll ? c.v[i].pct : NAN, a, sizeof(a)));
		}
		if (data_close(out, g, file, err, errlen))
			goto done;
		if (coll)
			snprintf(coll_idx + strlen(coll_idx), sizeof(coll_idx) - strlen(coll_idx),
				 "%s%d", ncoll++ ? ", " : "", j + 1);
	}
	/* coll_idx[i]: the file of the i-th collective job (gnuplot 5.2
	 * arrays cannot be empty: defined only when there is one) */
	char arr[sizeof(coll_idx) + 32] = "";
	if (ncoll)
		snprintf(arr, sizeof(arr), "array coll_idx[%d] = [%s]\n", ncoll, coll_idx);
	/* the verdict (summary.csv; none from an older folder without it) */
	static const char *const verdict_cols[] = { "criteria_pass", "criteria_failed", NULL };
	struct verdict v = { "" };
	char e[256], qv[2 * sizeof(v.text) + 3];
	if (scan_csv(g->dir, "summary.csv", verdict_cols, verdict_row, &v, e, sizeof(e)) < 0)
		v.text[0] = '\0';
	if (gp_quote(qv, sizeof(qv), v.text))
		snprintf(qv, sizeof(qv), "''");
	rc = write_vars(g, ri, 0, err, errlen,
			"njobs = %d\nncoll = %d\n%sdraw_target = %d\nmax_iteration = %.0f\n"
			"max_time_us = %.3f\nmin_busbw_pct = %.6g\nwarmup = %.0f\nverdict = %s\n",
			c.njobs, ncoll, arr, ncoll > 0, c.max_iter, c.max_time,
			ri->min_busbw_pct, ri->warmup_iterations, qv);
done:
	free(c.v);
	return rc;
}
