/*
 * run.c - the page of a run folder (internal.h): the verdict and each
 * criterion, what was simulated (check's derived values, printed from the
 * folder's scenario.ini by the loader), where the settings came from and
 * the warnings, a table per job, summary.csv, the figures.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/scenario/scenario.h"
#include "sim/report/internal.h"

#define INI_BYTES_MAX (8u << 20)

/* summary.csv's columns the page reads */
static const char *const summary_cols[] = {
	"sim_time_us", "end", "criteria_pass", "criteria_failed", "ecn_mark_pct",
	"drops_lossless", "drops_lossy", "drops_pfcwd", "pause_frame_rate", "jobs_failed",
	"retransmitted_pct", "judged_iterations", "busbw_judged_min_pct",
	"busbw_judged_mean_pct", NULL
};

/* is name one of the ';'-separated names of list? */
static int in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *s = list; *s;) {
		size_t l = strcspn(s, ";");
		if (l == n && !strncmp(s, name, n))
			return 1;
		s += l + (s[l] == ';');
	}
	return 0;
}

static double num_or_nan(const char *s)
{
	double v;
	return cell_num(s, &v) ? NAN : v;
}

/* one row of the criteria table; limit NAN: no limit set; is_min: a lower
 * bound (margin = measured - limit), else an upper one */
static void crit_row(struct page *p, const char *name, const char *what, double limit,
		     double measured, int is_min, const char *unit, const char *failed,
		     const char *not_applied)
{
	int fail = in_list(failed, name);
	h_raw(p, "<tr><td><code>");
	h_text(p, name);
	h_raw(p, "</code><br>");
	h_text(p, what);
	h_raw(p, "</td>");
	if (isnan(limit))
		h_raw(p, "<td>none</td>");
	else
		h_fmt(p, "<td class=\"n\">%s %.6g%s</td>", is_min ? "&ge;" : "&le;", limit, unit);
	if (isnan(measured))
		h_raw(p, "<td>-</td><td>-</td>");
	else if (isnan(limit) || not_applied)
		h_fmt(p, "<td class=\"n\">%.6g%s</td><td>-</td>", measured, unit);
	else
		h_fmt(p, "<td class=\"n\">%.6g%s</td><td class=\"n\">%+.6g%s</td>", measured, unit,
		      is_min ? measured - limit : limit - measured, unit);
	if (not_applied) {
		h_raw(p, "<td>not applied: ");
		h_text(p, not_applied);
		h_raw(p, "</td>");
	} else if (fail) {
		h_raw(p, "<td class=\"bad\">FAIL</td>");
	} else {
		h_raw(p, "<td class=\"ok\">pass</td>");
	}
	h_raw(p, "</tr>\n");
}

/* the banner and the table of the criteria */
static void run_verdict(struct page *p, const struct scenario *s, const struct rtable *sum,
			const char *verdict)
{
	const char *failed = rt_get(sum, 0, "criteria_failed");
	if (!strcmp(verdict, "1"))
		h_banner(p, "pass", "PASS", "every [criteria] limit is met");
	else if (!strcmp(verdict, "0")) {
		char why[512];
		snprintf(why, sizeof(why), "failed: %s", failed);
		for (char *c = why; *c; c++)
			if (*c == ';')
				*c = ',';
		h_banner(p, "fail", "FAIL", why);
	} else {
		h_banner(p, "nj", "NOT JUDGED", failed);
	}
	h_section(p, "criteria", "Criteria");
	h_raw(p, "<div class=\"tw\"><table><thead><tr><th>criterion</th><th>limit</th>"
		 "<th>measured</th><th>margin</th><th>result</th></tr></thead><tbody>\n");
	const char *nj = *verdict ? NULL : "the run was not judged";
	int mean = s->crit_busbw_stat == SCN_BUSBW_MEAN;
	double judged = num_or_nan(rt_get(sum, 0, "judged_iterations"));
	double drops = num_or_nan(rt_get(sum, 0, "drops_lossless")) +
		       num_or_nan(rt_get(sum, 0, "drops_lossy")) +
		       num_or_nan(rt_get(sum, 0, "drops_pfcwd"));
	crit_row(p, "max_ecn_mark_pct", "data packets delivered CE-marked",
		 (double)s->crit_max_ecn_mark_ppb / 1e7, num_or_nan(rt_get(sum, 0, "ecn_mark_pct")),
		 0, " %", failed, nj);
	crit_row(p, "max_lossless_drops", "lossless packets dropped (headroom full)",
		 (double)s->crit_max_lossless_drops, num_or_nan(rt_get(sum, 0, "drops_lossless")),
		 0, "", failed, nj);
	crit_row(p, "min_busbw_pct_line",
		 mean ? "mean busbw of the judged iterations, % of line"
		      : "least busbw of the judged iterations, % of line",
		 (double)s->crit_min_busbw_ppb / 1e7,
		 num_or_nan(rt_get(sum, 0, mean ? "busbw_judged_mean_pct" : "busbw_judged_min_pct")),
		 1, " %", failed, nj ? nj : judged > 0 ? NULL : "no judged collective iteration");
	crit_row(p, "max_pause_frame_rate", "PFC pause frames per second",
		 s->crit_max_pause_frame_rate == SCN_AUTO ? NAN
							  : (double)s->crit_max_pause_frame_rate,
		 num_or_nan(rt_get(sum, 0, "pause_frame_rate")), 0, " /s", failed, nj);
	crit_row(p, "jobs_failed", "jobs whose QP ran out of retries", 0,
		 num_or_nan(rt_get(sum, 0, "jobs_failed")), 0, "", failed, nj);
	crit_row(p, "max_drops", "drops: lossless + lossy + watchdog", (double)s->crit_max_drops,
		 drops, 0, "", failed, nj);
	crit_row(p, "max_retransmitted_pct", "payload sent again, % of delivered",
		 (double)s->crit_max_retransmitted_ppb / 1e7,
		 num_or_nan(rt_get(sum, 0, "retransmitted_pct")), 0, " %", failed, nj);
	h_raw(p, "</tbody></table></div>\n");
	h_fmt(p, "<p>Busbw is judged on each collective job's iterations after the first %lld "
		 "(criteria.warmup_iterations) and on its last; the margin is the room left "
		 "before the limit (negative: by how much it was missed).</p>\n",
	      (long long)s->crit_warmup_iterations);
	h_section_end(p);
}

/* the value of key in [section] of ini's text, into buf ("" when absent) */
static void ini_value(const char *ini, const char *section, const char *key, char *buf,
		      size_t len)
{
	buf[0] = '\0';
	int in = 0;
	size_t sl = strlen(section), kl = strlen(key);
	for (const char *s = ini; *s;) {
		size_t l = strcspn(s, "\n");
		if (*s == '[')
			in = l == sl + 2 && !strncmp(s + 1, section, sl) && s[sl + 1] == ']';
		else if (in && l > kl && !strncmp(s, key, kl) && (s[kl] == ' ' || s[kl] == '=')) {
			const char *v = s + kl + strspn(s + kl, " =");
			snprintf(buf, len, "%.*s", (int)(l - (size_t)(v - s)), v);
			return;
		}
		s += l + (s[l] == '\n');
	}
}

/* one line per [job.*] and [fault.*] section of ini: "job NAME: k = v; ..." */
static void ini_jobs_faults(struct page *p, const char *ini)
{
	int open = 0, any = 0;
	h_raw(p, "<ul id=\"jobs-faults\">");
	for (const char *s = ini; *s;) {
		size_t l = strcspn(s, "\n");
		if (*s == '[') {
			if (open)
				h_raw(p, "</li>\n");
			open = (l > 6 && !strncmp(s, "[job.", 5)) ||
			       (l > 8 && !strncmp(s, "[fault.", 7));
			if (open) {
				char name[256];
				snprintf(name, sizeof(name), "%.*s", (int)(l > 2 ? l - 2 : 0), s + 1);
				h_raw(p, "<li><strong>");
				h_text(p, name);
				h_raw(p, "</strong>:");
				any = 1;
			}
		} else if (open && l && *s != '#') {
			char kv[2048];
			snprintf(kv, sizeof(kv), " %.*s;", (int)l, s);
			h_text(p, kv);
		}
		s += l + (s[l] == '\n');
	}
	if (open)
		h_raw(p, "</li>\n");
	if (!any)
		h_raw(p, "<li>no job and no fault</li>");
	h_raw(p, "</ul>\n");
}

/* a folder path as one shell word */
static void shell_word(const char *s, char *buf, size_t len)
{
	if (strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-+=:,") ==
	    strlen(s)) {
		snprintf(buf, len, "%s", s);
		return;
	}
	size_t n = 0;
	if (n + 1 < len)
		buf[n++] = '\'';
	for (; *s && n + 5 < len; s++) {
		if (*s == '\'') {
			memcpy(buf + n, "'\\''", 4);
			n += 4;
		} else {
			buf[n++] = *s;
		}
	}
	if (n + 1 < len)
		buf[n++] = '\'';
	buf[n] = '\0';
}

/* what was simulated: the topology and derived values, jobs, faults, the
 * seed and the time, and the command that repeats the run */
static void run_what(struct page *p, const struct scenario *s, const char *ini,
		     const struct rtable *sum)
{
	h_section(p, "simulated", "What was simulated");
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	if (mem) {
		scenario_print_derived(s, mem);
		fclose(mem);
		/* "# " of check's comments left out */
		char *out = text, *w = text;
		for (const char *r = text; r && *r;) {
			if (r[0] == '#' && r[1] == ' ')
				r += 2;
			else if (r[0] == '#')
				r++;
			while (*r && *r != '\n')
				*w++ = *r++;
			if (*r)
				*w++ = *r++;
		}
		if (out) {
			*w = '\0';
			if (!strncmp(out, "derived values\n", 15))
				out += 15;
			h_pre(p, out);
		}
	}
	free(text);
	ini_jobs_faults(p, ini);
	char seed[64], dur[64], word[RPT_PATH_MAX * 4 + 8];
	ini_value(ini, "sim", "seed", seed, sizeof(seed));
	ini_value(ini, "sim", "duration", dur, sizeof(dur));
	h_raw(p, "<dl class=\"kv\"><dt>seed</dt><dd>");
	h_text(p, seed);
	h_raw(p, "</dd><dt>sim.duration</dt><dd>");
	h_text(p, dur);
	h_raw(p, "</dd><dt>simulated time</dt><dd>");
	h_textf(p, "%s us, end = %s", rt_get(sum, 0, "sim_time_us"), rt_get(sum, 0, "end"));
	h_raw(p, "</dd><dt>repeat it</dt><dd><code>");
	shell_word(p->dir, word, sizeof(word));
	h_textf(p, "dcqcn-sim run %s/scenario.ini -o %s-again", word, word);
	h_raw(p, "</code> (the resolved scenario, seed included, gives the same bytes)</dd></dl>\n");
	h_section_end(p);
}

/* where the settings came from (the comments scenario.ini carries), the
 * warnings, and the resolved scenario itself */
static void run_settings(struct page *p, const char *ini, const char *warnings)
{
	h_section(p, "settings", "Settings and where they came from");
	h_raw(p, "<ul id=\"origins\">");
	int derived = 0;
	for (const char *s = ini; *s;) {
		size_t l = strcspn(s, "\n");
		if (l > 2 && s[0] == '#' && !derived) {
			char line[4096];
			snprintf(line, sizeof(line), "%.*s", (int)(l - 2), s + 2);
			if (!strcmp(line, "derived values"))
				derived = 1; /* check's derived values follow: shown above */
			else if (strncmp(line, "dscp: ", 6)) {
				h_raw(p, "<li>");
				h_text(p, line);
				h_raw(p, "</li>");
			}
		}
		s += l + (s[l] == '\n');
	}
	h_raw(p, "</ul>\n<p>A run folder records the scenario it resolved: its file, the "
		 "keys the command line or an imported switch or NIC configuration set "
		 "(<code># from</code> lines above: scenario-wide keys; a job's or fault's key "
		 "given by <code>--set</code> is in the values, not named), and how the "
		 "configurations were read (<code># config:</code> notes).</p>\n");
	h_warnings(p, "Warnings (warnings.txt)", warnings);
	h_raw(p, "<details><summary>The resolved scenario (scenario.ini)</summary>\n");
	h_pre(p, ini);
	h_raw(p, "</details>\n");
	h_section_end(p);
}

static const struct caption run_captions[] = {
	{ "queues", "the deepest switch queues against Kmin/Kmax: a queue held above Kmax "
		    "marks every packet; one that reaches the pool pauses its senders" },
	{ "pause_map", "which transmitters were paused, when and how much: a paused fabric "
		       "link spreads congestion to flows that do not cross the hot spot" },
	{ "rates", "PFC pause frames per second and % of packets CE-marked per sample "
		   "interval: ECN should act before PFC does" },
	{ "dcqcn", "the DCQCN rate limit of the QPs cut hardest: how deep the cuts go and "
		   "how fast the rates recover" },
	{ "throughput", "per job: goodput, retransmitted payload and drops per interval; "
			"watchdog storms shaded" },
	{ "collectives", "time per iteration and busbw against the criterion: the first "
			 "iterations (warm-up) are not judged" },
	{ "storage", "storage latency per interval above the collectives' iterations on "
		     "the same time axis" },
	{ "training", "one training step as each pipeline stage's first GPU spends it: the "
		      "bars compute, the gaps the pipeline's bubble and exposed communication" },
	{ NULL, NULL },
};

/* the wall time of the run, from stats.csv */
static void run_wall(const struct page *p, char *buf, size_t len)
{
	struct rtable st;
	char err[512];
	buf[0] = '\0';
	if (p->meta && p->meta->wall_s >= 0)
		snprintf(buf, len, "%.2f s (this command)", p->meta->wall_s);
	if (rt_read(&st, p->dir, "stats.csv", err, sizeof(err)))
		return;
	const char *w = rt_get(&st, 0, "wall_s"), *ev = rt_get(&st, 0, "events");
	if (*w && !buf[0])
		snprintf(buf, len, "%s s for the run (stats.csv), %s events", w, ev);
	rt_free(&st);
}

/* summary.csv, one value a line */
static void run_summary(struct page *p, const struct rtable *sum)
{
	h_section(p, "summary", "Every number of summary.csv");
	h_raw(p, "<details><summary>summary.csv, one value a line</summary><div class=\"tw\">"
		 "<table><tbody>\n");
	for (size_t c = 0; c < sum->ncols; c++) {
		h_raw(p, "<tr><th>");
		h_text(p, sum->cell[c]);
		h_raw(p, "</th><td>");
		h_text(p, sum->cell[sum->ncols + c]);
		h_raw(p, "</td></tr>\n");
	}
	h_raw(p, "</tbody></table></div></details>\n");
	h_section_end(p);
}

/* summary.csv checked: one row, the columns the page reads, a verdict it knows */
static int read_summary(struct page *p, struct rtable *sum, char *err, size_t errlen)
{
	if (rt_read(sum, p->dir, "summary.csv", err, errlen))
		return -1;
	const char *v = rt_get(sum, 0, "criteria_pass");
	if (rt_need(sum, summary_cols, err, errlen))
		;
	else if (sum->nrows != 1)
		snprintf(err, errlen, "%s: %zu rows, not 1 (a damaged file)", sum->path,
			 sum->nrows);
	else if (strcmp(v, "1") && strcmp(v, "0") && strcmp(v, ""))
		snprintf(err, errlen, "%s: criteria_pass is \"%s\", not 1, 0 or empty", sum->path,
			 v);
	else
		return 0;
	rt_free(sum);
	return -1;
}

int page_run(struct page *p, char *err, size_t errlen)
{
	struct rtable sum;
	if (read_summary(p, &sum, err, errlen))
		return -1;
	char path[RPT_PATH_MAX];
	snprintf(path, sizeof(path), "%s/scenario.ini", p->dir);
	char *ini = rpt_read_text(path, INI_BYTES_MAX);
	struct scn_error serr = {{0}};
	struct scenario_inputs in = { .path = path, .text = ini };
	struct scenario *s = ini ? scenario_open(&in, &serr) : NULL;
	if (!s) {
		snprintf(err, errlen, "%s: %s", path,
			 ini ? serr.msg : "cannot be read (a run folder holds one)");
		free(ini);
		rt_free(&sum);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/warnings.txt", p->dir);
	char *warnings = rpt_read_text(path, INI_BYTES_MAX);

	const char *base = strrchr(p->dir, '/');
	char title[512];
	snprintf(title, sizeof(title), "dcqcn-sim run: %s", base && base[1] ? base + 1 : p->dir);
	page_begin(p, title);
	h_raw(p, "<h1>");
	h_text(p, title);
	h_raw(p, "</h1>\n<p class=\"sub\">");
	size_t l = strcspn(ini, "\n");
	h_textf(p, "%.*s", (int)(l > 2 ? l - 2 : 0), ini + (l > 2 ? 2 : 0));
	h_raw(p, "</p>\n");
	run_verdict(p, s, &sum, rt_get(&sum, 0, "criteria_pass"));
	run_what(p, s, ini, &sum);
	run_settings(p, ini, warnings);
	int rc = run_jobs_table(p, s, ini, &sum, err, errlen);
	if (rc == 0) {
		run_summary(p, &sum);
		h_section(p, "figures", "Figures");
		double t_end = 0;
		cell_num(rt_get(&sum, 0, "sim_time_us"), &t_end);
		run_timeline(p, s, t_end);
		struct plot_figs *figs = calloc(1, sizeof(*figs));
		char ferr[1024] = "";
		if (figs) {
			figs->out_dir = p->tmp;
			int frc = plot_run_to(p->dir, p->meta ? p->meta->scripts_dir : NULL, "svg",
					      figs, ferr, sizeof(ferr));
			h_figures(p, frc, ferr, figs, run_captions);
			free(figs);
		} else {
			rc = -1;
			snprintf(err, errlen, "out of memory");
		}
		h_section_end(p);
		char wall[256];
		run_wall(p, wall, sizeof(wall));
		page_end(p, wall);
	}
	free(warnings);
	free(ini);
	scenario_close(s);
	rt_free(&sum);
	return rc;
}
