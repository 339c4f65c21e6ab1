/*
 * plot.c - gnuplot figures of a run directory (docs/contract.md#commands `plot`, A3; plot.h):
 * the figures run one by one, each shaped (internal.h; a file per figure)
 * and then drawn by gnuplot, spawned with its stderr in a log.
 */
#include "plots/plot.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "models/base/figures.h"
#include "plots/internal.h"

extern char **environ;

#define SW_METRICS_MAX 16 /* sweep figures drawn */
#define SW_DEFAULT_METRICS "busbw_judged_min_pct,ecn_mark_pct"

/* ---- gnuplot ---------------------------------------------------------- */

/* the gnuplot executable on PATH, into buf; -1 when there is none */
static int find_gnuplot(char *buf, size_t len)
{
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");
		int w = snprintf(buf, len, "%.*s%sgnuplot", (int)n, n ? path : ".", n ? "/" : "");
		if (w > 0 && (size_t)w < len && access(buf, X_OK) == 0)
			return 0;
		path += n + (path[n] == ':');
	}
	return -1;
}

/* the last non-blank line of a file, into buf (empty when none) */
static void last_line(const char *path, char *buf, size_t len)
{
	buf[0] = '\0';
	FILE *fp = fopen(path, "r");
	if (!fp)
		return;
	char line[1024];
	while (fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\r\n")] = '\0';
		const char *s = line + strspn(line, " \t^");
		if (*s)
			snprintf(buf, len, "%s", s);
	}
	fclose(fp);
}

static int run_gnuplot(const char *gnuplot, const struct fig *g, const char *scripts_dir,
		       char *err, size_t errlen)
{
	char script[PLOT_PATH_MAX], img[PLOT_PATH_MAX], log[PLOT_PATH_MAX];
	char qdir[2 * PLOT_PATH_MAX + 3], qout[2 * PLOT_PATH_MAX + 3];
	char qfig[160];
	char expr[sizeof(qdir) + sizeof(qout) + sizeof(qfig) + 16];
	char file[64];
	snprintf(file, sizeof(file), "%s.gp", g->script ? g->script : g->name);
	if (join(script, sizeof(script), scripts_dir, file, err, errlen))
		return -1;
	snprintf(file, sizeof(file), "%s.%s", g->name, g->ext);
	if (join(img, sizeof(img), g->out, file, err, errlen))
		return -1;
	snprintf(file, sizeof(file), "%s.log", g->name);
	if (join(log, sizeof(log), g->data, file, err, errlen))
		return -1;
	if (access(script, R_OK))
		return fail(err, errlen, "%s: cannot read the plot script: %s", script,
			    strerror(errno));
	if (gp_quote(qdir, sizeof(qdir), g->dir) || gp_quote(qout, sizeof(qout), img))
		return fail(err, errlen, "%s: path too long", g->dir);
	if (g->script && gp_quote(qfig, sizeof(qfig), g->name))
		return fail(err, errlen, "%s: figure name too long", g->name);
	snprintf(expr, sizeof(expr), "dir=%s;out=%s%s%s", qdir, qout, g->script ? ";fig=" : "",
		 g->script ? qfig : "");
	unlink(img);

	posix_spawn_file_actions_t fa;
	if (posix_spawn_file_actions_init(&fa))
		return fail(err, errlen, "posix_spawn_file_actions_init failed");
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, log, O_WRONLY | O_CREAT | O_TRUNC,
					 0666);
	char *argv[] = {(char *)"gnuplot", (char *)"-e", expr, script, NULL};
	pid_t pid;
	int e = posix_spawn(&pid, gnuplot, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (e)
		return fail(err, errlen, "%s: cannot run: %s", gnuplot, strerror(e));
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return fail(err, errlen, "waitpid: %s", strerror(errno));
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		char why[512];
		last_line(log, why, sizeof(why));
		if (WIFSIGNALED(status))
			return fail(err, errlen, "%s.%s: gnuplot killed by signal %d (log: %s)",
				    g->name, g->ext, WTERMSIG(status), log);
		return fail(err, errlen, "%s.%s: gnuplot %s failed: %s", g->name, g->ext, script,
			    *why ? why : "(no message)");
	}
	struct stat st;
	if (stat(img, &st) || st.st_size == 0)
		return fail(err, errlen, "%s: gnuplot exited 0 but wrote no image (log: %s)", img,
			    log);
	return 0;
}

/* ---- plot_run ----------------------------------------------------------- */

/* each figure's shaping, by enum figure_id (figures.h names them) */
static int (*const shapes[FIG_COUNT])(struct fig *, const struct run_info *, char *, size_t) = {
	[FIG_QUEUES] = shape_queues, [FIG_PAUSE_MAP] = shape_pause, [FIG_RATES] = shape_rates,
	[FIG_DCQCN] = shape_dcqcn, [FIG_THROUGHPUT] = shape_throughput,
	[FIG_COLLECTIVES] = shape_collectives, [FIG_STORAGE] = shape_storage,
	[FIG_TRAINING] = shape_training,
};

int plot_format_valid(const char *format)
{
	for (int i = 0; figure_formats[i]; i++)
		if (!strcmp(format, figure_formats[i]))
			return 1;
	return 0;
}

/* remove DIR/plots/NAME.EXT in every format but keep (NULL: all of them) */
static void remove_figure(const char *plots, const char *name, const char *keep)
{
	for (int i = 0; figure_formats[i]; i++) {
		char path[PLOT_PATH_MAX + 64];
		if (keep && !strcmp(keep, figure_formats[i]))
			continue;
		snprintf(path, sizeof(path), "%s/%s.%s", plots, name, figure_formats[i]);
		unlink(path);
	}
}

/* figure g's outcome into figs (NULL: not wanted): 0 drawn, 1 skipped, -1
 * failed, with the note or the failure */
static void record(struct plot_figs *figs, const struct fig *g, int state, const char *why)
{
	if (!figs || figs->n >= PLOT_FIGS_MAX)
		return;
	struct plot_fig *f = &figs->fig[figs->n++];
	snprintf(f->name, sizeof(f->name), "%s", g->name);
	snprintf(f->path, sizeof(f->path), "%s/%s.%s", g->out, g->name, g->ext);
	f->state = state;
	snprintf(f->note, sizeof(f->note), "%s", state ? why : "");
}

/* the images' folder: figs->out_dir, else dir/plots (plots) */
static void set_out(struct fig *g, const struct plot_figs *figs, const char *plots)
{
	snprintf(g->out, sizeof(g->out), "%s", figs && figs->out_dir ? figs->out_dir : plots);
}

int plot_run(const char *dir, const char *scripts_dir, const char *format, char *err,
	     size_t errlen)
{
	return plot_run_to(dir, scripts_dir, format, NULL, err, errlen);
}

int plot_run_to(const char *dir, const char *scripts_dir, const char *format,
		struct plot_figs *figs, char *err, size_t errlen)
{
	if (!format)
		format = "png";
	if (!plot_format_valid(format))
		return fail(err, errlen, "--format %s: not a figure format (png, svg, pdf)", format);
	char gnuplot[PLOT_PATH_MAX], plots[PLOT_PATH_MAX];
	struct stat st;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return fail(err, errlen, "%s: not a run directory: %s", dir,
			    errno ? strerror(errno) : "not a folder");
	if (!scripts_dir)
		return fail(err, errlen, "the plot scripts (plots/*.gp) were not found; set "
			    "DCQCN_SIM_PLOTS to their folder");
	char probe[PLOT_PATH_MAX];
	if (join(probe, sizeof(probe), scripts_dir, "queues.gp", err, errlen))
		return -1;
	if (access(probe, R_OK))
		return fail(err, errlen, "%s: no plot scripts there (queues.gp: %s)", scripts_dir,
			    strerror(errno));
	if (find_gnuplot(gnuplot, sizeof(gnuplot)))
		return fail(err, errlen, "gnuplot not found on PATH: install it "
			    "(apt-get install gnuplot-nox) to draw plots");
	struct fig *g = calloc(1, sizeof(*g));
	if (!g)
		return fail(err, errlen, "out of memory");
	struct run_info ri;
	read_run_info(dir, &ri);
	int failed = 0;
	char first[1024] = "", msg[1024], done[256] = "", skipped[768] = "";
	if (join(plots, sizeof(plots), dir, "plots", err, errlen) ||
	    make_dir(plots, err, errlen) || join(g->data, sizeof(g->data), plots, "data", err,
						 errlen) ||
	    make_dir(g->data, err, errlen)) {
		free(g);
		return -1;
	}
	snprintf(g->dir, sizeof(g->dir), "%s", dir);
	set_out(g, figs, plots);
	g->ext = format;
	for (int i = 0; i < FIG_COUNT; i++) {
		g->name = figure_names[i];
		g->note[0] = '\0';
		msg[0] = '\0';
		int rc = shapes[i](g, &ri, msg, sizeof(msg));
		if (rc == 0)
			rc = run_gnuplot(gnuplot, g, scripts_dir, msg, sizeof(msg));
		/* no stale figure from an earlier plot, in any format */
		if (!figs)
			remove_figure(plots, g->name, rc == 0 ? format : NULL);
		record(figs, g, rc, rc < 0 ? msg : g->note);
		if (rc < 0) {
			if (!failed++)
				snprintf(first, sizeof(first), "%s", msg);
		} else if (rc > 0) {
			snprintf(skipped + strlen(skipped), sizeof(skipped) - strlen(skipped),
				 "; skipped %s.%s: %s", g->name, format, g->note);
		} else {
			snprintf(done + strlen(done), sizeof(done) - strlen(done), "%s%s.%s",
				 *done ? " " : "", g->name, format);
		}
	}
	free(g);
	if (failed) {
		if (failed > 1)
			snprintf(msg, sizeof(msg), " (and %d more figure%s failed)", failed - 1,
				 failed > 2 ? "s" : "");
		else
			msg[0] = '\0';
		return fail(err, errlen, "%s%s", first, msg);
	}
	snprintf(err, errlen, "plots in %s: %s%s", plots, *done ? done : "none", skipped);
	return 0;
}

const char *plot_scripts_dir(const char *const *candidates)
{
	static char env[PLOT_PATH_MAX];
	const char *e = getenv("DCQCN_SIM_PLOTS");
	if (e && *e) {
		snprintf(env, sizeof(env), "%s", e);
		return env;
	}
	for (; candidates && *candidates; candidates++) {
		char path[PLOT_PATH_MAX];
		int n = snprintf(path, sizeof(path), "%s/queues.gp", *candidates);
		if (n > 0 && (size_t)n < sizeof(path) && access(path, R_OK) == 0)
			return *candidates;
	}
	return NULL;
}

/* ---- a sweep's figures (plot_sweep) -------------------------------------- */

int plot_sweep(const char *dir, const char *scripts_dir, const char *format,
	       const char *metrics, char *err, size_t errlen)
{
	return plot_sweep_to(dir, scripts_dir, format, metrics, NULL, err, errlen);
}

int plot_sweep_to(const char *dir, const char *scripts_dir, const char *format,
		  const char *metrics, struct plot_figs *figs, char *err, size_t errlen)
{
	if (!format)
		format = "png";
	if (!plot_format_valid(format))
		return fail(err, errlen, "--format %s: not a figure format (png, svg, pdf)", format);
	if (!metrics || !*metrics)
		metrics = SW_DEFAULT_METRICS;
	if (!scripts_dir)
		return fail(err, errlen, "the plot scripts (plots/*.gp) were not found; set "
			    "DCQCN_SIM_PLOTS to their folder");
	char gnuplot[PLOT_PATH_MAX], plots[PLOT_PATH_MAX];
	struct sw *w = NULL;
	struct fig *g = calloc(1, sizeof(*g));
	int rc = g ? sw_open(&w, dir, err, errlen) : fail(err, errlen, "out of memory");
	if (rc == 0 && find_gnuplot(gnuplot, sizeof(gnuplot)))
		rc = fail(err, errlen, "gnuplot not found on PATH: install it "
			  "(apt-get install gnuplot-nox) to draw plots");
	if (rc == 0 && (join(plots, sizeof(plots), dir, "plots", err, errlen) ||
			make_dir(plots, err, errlen) ||
			join(g->data, sizeof(g->data), plots, "data", err, errlen) ||
			make_dir(g->data, err, errlen)))
		rc = -1;
	char first[1024] = "", msg[1024], done[1024] = "", skipped[1024] = "";
	char names[SW_METRICS_MAX + 1][160];
	int nfig = 0, failed = 0;
	for (const char *p = metrics; rc == 0 && *p && nfig < SW_METRICS_MAX;) {
		size_t l = strcspn(p, ",");
		snprintf(names[nfig++], sizeof(names[0]), "sweep_%.*s", (int)l, p);
		p += l + (p[l] == ',');
	}
	if (rc == 0 && sw_axes(w) >= 2)
		snprintf(names[nfig++], sizeof(names[0]), "sweep_pass");
	if (rc == 0) {
		snprintf(g->dir, sizeof(g->dir), "%s", dir);
		set_out(g, figs, plots);
		g->ext = format;
	}
	for (int i = 0; rc == 0 && i < nfig; i++) {
		int pass = !strcmp(names[i], "sweep_pass") && i == nfig - 1 && sw_axes(w) >= 2;
		g->name = names[i];
		g->script = pass ? "sweep_pass" : "sweep";
		g->note[0] = msg[0] = '\0';
		int r = pass ? sw_shape_pass(w, g, msg, sizeof(msg))
			     : sw_shape_metric(w, g, names[i] + 6, msg, sizeof(msg));
		if (r == 0)
			r = run_gnuplot(gnuplot, g, scripts_dir, msg, sizeof(msg));
		if (!figs)
			remove_figure(plots, g->name, r == 0 ? format : NULL);
		record(figs, g, r, r < 0 ? msg : g->note);
		if (r < 0) {
			if (!failed++)
				snprintf(first, sizeof(first), "%s", msg);
		} else if (r > 0) {
			snprintf(skipped + strlen(skipped), sizeof(skipped) - strlen(skipped),
				 "; skipped %s.%s: %s", g->name, format, g->note);
		} else {
			snprintf(done + strlen(done), sizeof(done) - strlen(done), "%s%s.%s",
				 *done ? " " : "", g->name, format);
		}
	}
	sw_close(w);
	free(g);
	if (rc)
		return rc;
	if (failed)
		return fail(err, errlen, "%s%s", first, failed > 1 ? " (and more figures failed)" : "");
	snprintf(err, errlen, "sweep figures in %s: %s%s", plots, *done ? done : "none", skipped);
	return 0;
}

/* ---- one figure of a directory (calibrate, compare) ------------------- */

/* what drawing figure `name` of dir needs: the format (NULL: png) valid,
 * the scripts, gnuplot (into gnuplot), dir/plots (into plots) and its
 * data folder; g set up for it.  0, or -1 with err. */
static int fig_begin(struct fig *g, const char *dir, const char *scripts_dir, const char *format,
		     const char *name, const struct plot_figs *figs, char *gnuplot, char *plots,
		     char *err, size_t errlen)
{
	if (!format)
		format = "png";
	if (!plot_format_valid(format))
		return fail(err, errlen, "--format %s: not a figure format (png, svg, pdf)", format);
	if (!scripts_dir)
		return fail(err, errlen, "the plot scripts (plots/*.gp) were not found; set "
			    "DCQCN_SIM_PLOTS to their folder");
	if (find_gnuplot(gnuplot, PLOT_PATH_MAX))
		return fail(err, errlen, "gnuplot not found on PATH: install it "
			    "(apt-get install gnuplot-nox) to draw plots");
	if (join(plots, PLOT_PATH_MAX, dir, "plots", err, errlen) ||
	    make_dir(plots, err, errlen) ||
	    join(g->data, sizeof(g->data), plots, "data", err, errlen) ||
	    make_dir(g->data, err, errlen))
		return -1;
	snprintf(g->dir, sizeof(g->dir), "%s", dir);
	set_out(g, figs, plots);
	g->ext = format;
	g->name = name;
	return 0;
}

/* the figure `name` of dir (a calibrate or a compare directory), its data
 * shaped by shape; 0 with a note for the user in err, or -1 with err */
static int plot_one(const char *dir, const char *scripts_dir, const char *format,
		    const char *name, int (*shape)(struct fig *, char *, size_t),
		    struct plot_figs *figs, char *err, size_t errlen)
{
	char gnuplot[PLOT_PATH_MAX], plots[PLOT_PATH_MAX];
	struct fig *g = calloc(1, sizeof(*g));
	if (!g)
		return fail(err, errlen, "out of memory");
	int rc = fig_begin(g, dir, scripts_dir, format, name, figs, gnuplot, plots, err, errlen);
	int began = rc == 0;
	if (rc == 0)
		rc = shape(g, err, errlen);
	if (rc == 0) {
		rc = run_gnuplot(gnuplot, g, scripts_dir, err, errlen);
		if (!figs)
			remove_figure(plots, name, rc == 0 ? g->ext : NULL);
	}
	if (began)
		record(figs, g, rc < 0 ? -1 : rc, err);
	if (rc == 0)
		snprintf(err, errlen, "%s figure in %s: %s.%s", name, plots, name, g->ext);
	free(g);
	return rc < 0 ? -1 : rc;
}

int plot_calibrate(const char *dir, const char *scripts_dir, const char *format, char *err,
		   size_t errlen)
{
	return plot_one(dir, scripts_dir, format, "calibrate", shape_calibrate, NULL, err, errlen);
}

int plot_calibrate_to(const char *dir, const char *scripts_dir, const char *format,
		      struct plot_figs *figs, char *err, size_t errlen)
{
	return plot_one(dir, scripts_dir, format, "calibrate", shape_calibrate, figs, err,
			errlen);
}

int plot_compare(const char *dir, const char *scripts_dir, const char *format, char *err,
		 size_t errlen)
{
	return plot_one(dir, scripts_dir, format, "compare", shape_compare, NULL, err, errlen);
}

int plot_compare_to(const char *dir, const char *scripts_dir, const char *format,
		    struct plot_figs *figs, char *err, size_t errlen)
{
	return plot_one(dir, scripts_dir, format, "compare", shape_compare, figs, err, errlen);
}

int plot_nccltests(const char *dir, const char *scripts_dir, const char *format, char *err,
		   size_t errlen)
{
	return plot_one(dir, scripts_dir, format, "nccltests", shape_nccltests, NULL, err, errlen);
}

int plot_nccltests_to(const char *dir, const char *scripts_dir, const char *format,
		      struct plot_figs *figs, char *err, size_t errlen)
{
	return plot_one(dir, scripts_dir, format, "nccltests", shape_nccltests, figs, err,
			errlen);
}
