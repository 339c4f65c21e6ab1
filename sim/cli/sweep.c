/*
 * sweep.c - `dcqcn-sim sweep SCENARIO --vary ...`: one run per combination
 * of the --vary values, -j N at a time (or the points of one --shard, or of
 * one MPI rank), sweep.csv and its table; `sweep --merge DIR...` joins the
 * shards.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "models/scenario/configs/config.h"
#include "models/scenario/scenario.h"
#include "sim/cli/cli.h"
#include "sim/run/output.h"
#include "sim/run/run.h"
#include "sim/sweeps/sweep.h"

#define TABLE_LINE_BYTES 65536 /* a line of sweep.csv */
#define TABLE_MAX_COLS 512

_Static_assert(CLI_MAX_ARGS == SWEEP_MAX_MERGE, "sweep --merge takes every argument");

struct sweep_args {
	struct cli_sets sets;
	const char *out_dir, *format, *columns, *switch_config, *nic_config;
	int quiet, plot, resume, merge, jobs, repeat, report;
	double t0; /* when the command began (cli_now_s) */
	int shard_index, shard_count; /* --shard I/N; count 0: none */
	char *vary[SWEEP_MAX_AXES];
	int nvary;
	const char *args[CLI_MAX_ARGS]; /* SCENARIO, or the folders of --merge */
	int nargs;
};

static const char sweep_usage[] =
	"usage: dcqcn-sim sweep SCENARIO --vary SECTION.KEY=V1,V2,... [--vary ...] [-j N]\n"
	"                       [-o DIR] [--set ...] [--seed N] [--threads N] [--quiet]\n"
	"                       [--plot] [--format png|svg|pdf] [--report] [--resume]\n"
	"                       [--repeat N]\n"
	"                       [--columns M,...] [--shard I/N] [--switch-config FILE]\n"
	"                       [--nic-config FILE]\n"
	"       dcqcn-sim sweep --merge DIR... [-o OUT] [--columns M,...] [--quiet]\n"
	"                       [--plot] [--format png|svg|pdf]\n"
	"\n"
	"One run per combination of the --vary values (the last axis varies fastest),\n"
	"-j N at a time, into DIR/p000, DIR/p001, ...; DIR/sweep.csv has a row per\n"
	"point: its axis values (a numeric one also in its base unit: KEY_B, KEY_ps,\n"
	"KEY_bps, KEY_mm, KEY_frac, KEY_n), its summary.csv row, and whether it met\n"
	"its own [criteria] (which may be varied too).  Every point is loaded and\n"
	"checked before the first one runs.\n"
	"\n";

static const char sweep_tail[] =
	"\n"
	"Under mpirun (a build with -Dmpi=enabled), rank r of N runs the points\n"
	"p % N == r one after another, all into DIR (a shared filesystem); rank 0\n"
	"writes sweep.csv and prints the table.\n"
	"\n"
	"Exit status: 0 every point ran (even when points miss their criteria); 1 a\n"
	"point broke an invariant; 2 bad usage, a point that does not load (nothing\n"
	"runs), or a merge of shards that do not match or did not all end; 3 stopped\n"
	"by SIGINT, SIGTERM or SIGHUP (passed to the workers: each point ends\n"
	"complete, sweep.csv lists those that finished); 4 a figure failed.\n";

/* --vary S.K=V1,V2,... */
static int opt_vary(void *dst, const struct cli_opt *o, const char *v, const char *next)
{
	struct sweep_args *w = dst;
	if (!strchr(v, '=') || v[strlen(v) - 1] == '=')
		return cli_assignment_error(o->name, v, next);
	if (w->nvary == SWEEP_MAX_AXES)
		return cli_usage_error("at most %d --vary axes", SWEEP_MAX_AXES);
	w->vary[w->nvary++] = (char *)v; /* an argv string: sweep_parse_vary splits it */
	return 0;
}

/* --shard I/N */
static int opt_shard(void *dst, const struct cli_opt *o, const char *v, const char *next)
{
	struct sweep_args *w = dst;
	int ix, n, used = 0;
	(void)o;
	(void)next;
	if (sscanf(v, "%d/%d%n", &ix, &n, &used) != 2 || v[used] || n < 1 ||
	    n > SWEEP_MAX_POINTS || ix < 0 || ix >= n)
		return cli_usage_error("--shard %s: I/N, 0 <= I < N (I counts from 0, as "
				       "SLURM_ARRAY_TASK_ID with --array=0-(N-1))", v);
	w->shard_index = ix;
	w->shard_count = n;
	return 0;
}

#define SWEEP_OFF(f) offsetof(struct sweep_args, f)

static const struct cli_opt sweep_opts[] = {
	{ .name = "--vary", .arg = "S.K=V1,V2,...", .kind = CLI_CALL, .fn = opt_vary,
	  .help = "one axis: a key and its values, comma-separated (a\n"
		  "value cannot contain a comma); at most " XSTR(SWEEP_MAX_AXES) " axes" },
	{ .name = "-j", .arg = "N", .kind = CLI_INT, .off = SWEEP_OFF(jobs), .lo = 1,
	  .hi = CLI_JOBS_MAX, .what = "a number of concurrent runs",
	  .help = "runs at a time, 1-" XSTR(CLI_JOBS_MAX) " (default 1); a point left at\n"
		  "sim.threads = auto gets its share of the cores" },
	{ .name = "-o", .arg = "DIR", .kind = CLI_STR, .off = SWEEP_OFF(out_dir),
	  .help = "the sweep directory (default results/NAME-sweep)" },
	{ .name = "--set", .arg = "S.K=V", .kind = CLI_SET, .off = SWEEP_OFF(sets),
	  .help = "override one key in every point (repeatable)" },
	{ .name = "--seed", .arg = "N", .kind = CLI_SIM_SET, .off = SWEEP_OFF(sets),
	  .help = "same as --set sim.seed=N" },
	{ .name = "--threads", .arg = "N", .kind = CLI_SIM_SET, .off = SWEEP_OFF(sets),
	  .help = "same as --set sim.threads=N" },
	{ .name = "--switch-config", .arg = "FILE", .needs = "a file", .once = 1, .kind = CLI_STR,
	  .off = SWEEP_OFF(switch_config), .synopsis = "--switch-config FILE, --nic-config FILE",
	  .help = "as for run, in every point" },
	{ .name = "--nic-config", .arg = "FILE", .needs = "a file", .once = 1, .kind = CLI_STR,
	  .off = SWEEP_OFF(nic_config) },
	{ .name = "--quiet", .alt = "-q", .kind = CLI_FLAG, .off = SWEEP_OFF(quiet),
	  .help = "no progress lines, no table" },
	{ .name = "--plot", .kind = CLI_FLAG, .off = SWEEP_OFF(plot),
	  .help = "draw the sweep's figures (dcqcn-sim plot DIR) when it ends" },
	CLI_OPT_FORMAT(SWEEP_OFF(format),
		       "the figures' format: png (default), svg or pdf; implies --plot"),
	{ .name = "--report", .kind = CLI_FLAG, .off = SWEEP_OFF(report),
	  .help = "also write each point's page (DIR/p000/report.html; with\n"
		  "--repeat each repeat's) and DIR/report.html, which links to\n"
		  "them, when it ends (dcqcn-sim report DIR)" },
	{ .name = "--resume", .kind = CLI_FLAG, .off = SWEEP_OFF(resume),
	  .help = "run only the points of DIR that did not end (no summary.csv,\n"
		  "or one that says interrupted or terminated); the scenario and\n"
		  "options must be the stopped sweep's (DIR/sweep-identity.txt):\n"
		  "another sweep's folder is refused" },
	{ .name = "--repeat", .arg = "N", .kind = CLI_INT, .off = SWEEP_OFF(repeat), .lo = 1,
	  .hi = SWEEP_MAX_REPEAT, .what = "runs per point",
	  .help = "run every point N times (1-" XSTR(SWEEP_MAX_REPEAT) "), with sim.seed, "
		  "sim.seed+1,\n"
		  "..., into DIR/pNNN/r0 .. rN-1; sweep.csv has per point the mean\n"
		  "of each metric and its METRIC_min and METRIC_max; a point passes\n"
		  "only if every repeat does (criteria_failed: the union)" },
	{ .name = "--columns", .arg = "M,...", .kind = CLI_STR, .off = SWEEP_OFF(columns),
	  .help = "the metrics (summary.csv columns; with --repeat their\n"
		  "_min and _max too) the table shows, in that order (default:\n"
		  "busbw, ECN marking, pause rate, drops and the verdict) and,\n"
		  "with --plot, the metrics drawn" },
	{ .name = "--shard", .arg = "I/N", .kind = CLI_CALL, .fn = opt_shard,
	  .help = "run only the points p with p % N == I (I from 0: Slurm's\n"
		  "SLURM_ARRAY_TASK_ID with --array=0-(N-1)), and write\n"
		  "DIR/shard-I-of-N.txt instead of sweep.csv; the shards may\n"
		  "share DIR; --resume resumes a shard" },
	{ .name = "--merge", .kind = CLI_FLAG, .off = SWEEP_OFF(merge),
	  .synopsis = "--merge DIR...",
	  .help = "join the shards in the DIRs (one shared folder, or one per\n"
		  "shard) into OUT/sweep.csv (default: the one DIR), the file a\n"
		  "single run writes; OUT/pNNN links to points run elsewhere" },
	CLI_OTHERS("--export", "DIR", "a directory", "check"),
	/* checked before its value: a sweep runs on the scenario's own fabric */
	CLI_OTHERS("--fabric", NULL, NULL,
		   "run and check (compare runs a scenario on every fabric)"),
	CLI_OTHERS("--fluid", NULL, NULL, "run"),
	{ 0 },
};

/* SCENARIO, or a folder of --merge */
static int sweep_arg(void *dst, const char *a)
{
	struct sweep_args *w = dst;
	if (w->nargs == CLI_MAX_ARGS)
		return cli_usage_error("too many arguments (at most %d)", CLI_MAX_ARGS);
	w->args[w->nargs++] = a;
	return 0;
}

/* the first option given that --merge does not take, or NULL */
static const char *merge_not_here(const struct sweep_args *w)
{
	if (w->nvary)
		return "--vary";
	if (w->repeat)
		return "--repeat";
	if (w->shard_count)
		return "--shard";
	if (w->resume)
		return "--resume";
	if (w->sets.n)
		return "--set, --seed or --threads";
	return w->jobs > 1 ? "-j" : NULL;
}

/* what the options say together: 0 or the usage error */
static int sweep_check_args(const struct sweep_args *w)
{
	if (w->merge) { /* sweep --merge DIR... */
		const char *not_here = merge_not_here(w);
		if (not_here)
			return cli_usage_error("--merge joins shards that ran: %s belongs to the "
					       "shards' sweep command", not_here);
		if (!w->nargs)
			return cli_usage_error("--merge needs the shards' folders: dcqcn-sim sweep "
					       "--merge DIR... [-o OUT]");
		return 0;
	}
	if (w->nargs > 1)
		return cli_usage_error("one scenario at a time (extra argument %s)", w->args[1]);
	if (!w->nargs)
		return cli_usage_error("%s needs a SCENARIO file", "sweep");
	if (!w->nvary)
		return cli_usage_error("sweep needs at least one --vary section.key=V1,V2,...");
	return 0;
}

/* the metrics the table shows without --columns, in the file's order */
static const char *const table_metrics[] = { "busbw_pct_line", "busbw_judged_min_pct",
					     "ecn_mark_pct", "pause_frame_rate",
					     "drops_lossless", "drops_lossy", "criteria_pass",
					     "criteria_failed", NULL };

/* the metric columns of sweep.csv: summary.csv's, and with repeats each
 * numeric one's _min and _max; a comma-separated list */
static void sweep_metric_names(int repeat, char *buf, size_t len)
{
	static struct run_result zero;
	char header[2048], row[2048];
	size_t n = 0;
	run_summary_csv(&zero, header, sizeof(header), row, sizeof(row));
	buf[0] = '\0';
	for (char *h = header, *save = NULL, *tok; (tok = strtok_r(h, ",", &save)); h = NULL) {
		int text = !strcmp(tok, "end") || !strcmp(tok, "criteria_pass") ||
			   !strcmp(tok, "criteria_failed");
		if (n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "," : "", tok);
		if (repeat > 1 && !text && n < len)
			n += (size_t)snprintf(buf + n, len - n, ",%s_min,%s_max", tok, tok);
	}
}

/* the columns of sweep.csv's header f[0..n) the table shows into show[]:
 * point, the axes and the deployment metrics (or those of columns, in its
 * order).  The axes are the columns between dir and the summary's first
 * (sim_time_us), but for their base-unit columns (KEY_B after KEY). */
static int table_columns(char **f, int n, const char *columns, int *show)
{
	int nshow = 0, summary = 0, axis = -1;
	for (int col = 0; col < n; col++) {
		size_t al = axis >= 0 ? strlen(f[axis]) : 0;
		summary |= !strcmp(f[col], "sim_time_us");
		int want = col == 0;
		if (col >= 2 && !summary &&
		    !(axis >= 0 && !strncmp(f[col], f[axis], al) && f[col][al] == '_'))
			want = 1, axis = col;
		for (int k = 0; !columns && summary && table_metrics[k]; k++)
			want |= !strcmp(f[col], table_metrics[k]);
		if (want)
			show[nshow++] = col;
	}
	for (const char *p = columns; p && *p;) { /* in the order asked */
		size_t l = strcspn(p, ",");
		for (int col = 0; col < n; col++)
			if (strlen(f[col]) == l && !strncmp(f[col], p, l))
				show[nshow++] = col;
		p += l + (p[l] == ',');
	}
	return nshow;
}

/* sweep.csv as a table */
static void print_sweep(const char *dir, const char *columns)
{
	char path[4200];
	char *line = malloc(TABLE_LINE_BYTES);
	char *f[TABLE_MAX_COLS];
	int show[TABLE_MAX_COLS], nshow = 0;
	snprintf(path, sizeof(path), "%s/sweep.csv", dir);
	FILE *fp = line ? fopen(path, "r") : NULL;
	if (!fp) {
		free(line);
		return;
	}
	for (int row = 0; fgets(line, TABLE_LINE_BYTES, fp); row++) {
		line[strcspn(line, "\n")] = '\0';
		int n = output_split_csv(line, f, TABLE_MAX_COLS);
		if (row == 0)
			nshow = table_columns(f, n, columns, show);
		for (int k = 0; k < nshow; k++) {
			int col = show[k];
			const char *v = col < n && *f[col] ? f[col] : "-";
			printf("  %-*s", col ? 16 : 5, v);
		}
		printf("\n");
	}
	fclose(fp);
	free(line);
}

/* what a sweep or a merge prints and returns when sweep_run or
 * sweep_merge gave st (refused: before it touched dir) */
static int sweep_outcome(const struct sweep_args *w, const char *dir, int st, int failed,
			 int unjudged, const char *err, int rank, int refused)
{
	const char *what = w->merge ? "sweep --merge" : "sweep";
	char who[32] = "";
	if (rank > 0)
		snprintf(who, sizeof(who), "rank %d: ", rank);
	if (st == RUN_EIO && !failed && (refused || access(dir, F_OK) != 0)) {
		fprintf(stderr, "dcqcn-sim: %s%s: %s\n", who, what, err);
		return EXIT_USAGE;
	}
	if (!w->quiet && rank == 0 && w->shard_count > 0 && st != RUN_EIO) {
		printf("dcqcn-sim: shard %d/%d of the sweep in %s (shard-%d-of-%d.txt); join the "
		       "shards with dcqcn-sim sweep --merge DIR...\n", w->shard_index,
		       w->shard_count, dir, w->shard_index, w->shard_count);
	} else if (!w->quiet && rank == 0 && (st != RUN_EIO || !w->merge)) {
		printf("dcqcn-sim: sweep results in %s/sweep.csv (%d point%s missed the criteria",
		       dir, failed, failed == 1 ? "" : "s");
		if (unjudged)
			printf(", %d not judged: %s", unjudged,
			       "they did not finish their traffic (criteria_failed says why)");
		printf(")\n");
		print_sweep(dir, w->columns);
	}
	int plot_rc = w->plot && st == RUN_OK && rank == 0 && !w->shard_count
			      ? cli_plot_dir(dir, w->format, w->quiet, w->columns)
			      : 0;
	if (w->report && st == RUN_OK && rank == 0 && !w->shard_count) {
		int rrc = cli_report_pages(dir, w->quiet, cli_now_s() - w->t0, 1);
		if (rrc && !plot_rc)
			plot_rc = rrc;
	}
	switch (st) {
	case RUN_OK:
		return plot_rc;
	case RUN_INVARIANT:
		fprintf(stderr, "dcqcn-sim: %s%s: %s\n", who, what, err);
		return EXIT_INVARIANT;
	case RUN_INTERRUPTED:
		fprintf(stderr, "dcqcn-sim: %s%s %s; finished points in %s/%s\n", who, what,
			cli_interrupted == SIGINT ? "interrupted" : "terminated", dir,
			w->shard_count ? "pNNN" : "sweep.csv");
		return EXIT_INTERRUPTED;
	default:
		fprintf(stderr, "dcqcn-sim: %s%s: %s\n", who, what, err);
		return EXIT_USAGE;
	}
}

/* sweep --merge DIR... [-o OUT] */
static int sweep_merge_main(const struct sweep_args *w)
{
	char err[16384], dir[4096];
	struct stat st0, st;
	memset(&st0, 0, sizeof(st0)); /* set by the first folder before it is read */
	for (int i = 0; i < w->nargs; i++)
		if (stat(w->args[i], &st) || !S_ISDIR(st.st_mode))
			return cli_usage_error("--merge %s: not a folder (the folders of the "
					       "shards of a sweep --shard I/N)", w->args[i]);
	if (w->out_dir) {
		snprintf(dir, sizeof(dir), "%s", w->out_dir);
	} else {
		for (int i = 0; i < w->nargs; i++) /* one folder, possibly named twice */
			if (stat(w->args[i], &st) || (i && (st.st_dev != st0.st_dev ||
							     st.st_ino != st0.st_ino)))
				return cli_usage_error("--merge of several folders needs -o OUT "
						       "(the folder of the joined sweep.csv)");
			else if (!i)
				st0 = st;
		snprintf(dir, sizeof(dir), "%s", w->args[0]);
	}
	if (w->columns) {
		char known[8192];
		sweep_metric_names(SWEEP_MAX_REPEAT, known, sizeof(known));
		int rc = cli_check_columns("--columns", w->columns, known);
		if (rc)
			return rc;
	}
	int failed = 0, unjudged = 0;
	int rc = sweep_merge(w->args, w->nargs, dir, &failed, &unjudged, err, sizeof(err));
	return sweep_outcome(w, dir, rc, failed, unjudged, err, 0, 0);
}

static int sweep_main(int argc, char **argv)
{
	static struct sweep_args w; /* CLI_MAX_ARGS arguments: not on the stack */
	w.t0 = cli_now_s();
	w.jobs = 1;
	int rc = cli_parse(&cli_cmd_sweep, argc, argv, &w, sweep_arg);
	if (!rc)
		rc = sweep_check_args(&w);
	if (rc)
		return rc;
	if (w.format)
		w.plot = 1;
	if (w.merge)
		return sweep_merge_main(&w);
	const char *scenario = w.args[0];
	struct sweep_opts o = { .scenario = scenario, .sets = w.sets.v, .nsets = w.sets.n,
				.resume = w.resume, .repeat = w.repeat,
				.shard_index = w.shard_index, .shard_count = w.shard_count,
				.switch_config = w.switch_config, .nic_config = w.nic_config,
				.jobs = w.jobs, .interrupt = &cli_interrupted };
	char err[16384], dir[4096];
	for (int i = 0; i < w.nvary; i++) {
		if (sweep_parse_vary(w.vary[i], &o.axes[i], err, sizeof(err)))
			return cli_usage_error("%s", err);
		o.naxes++;
	}
	if (w.columns) { /* before an hour of runs, not after */
		char known[8192];
		sweep_metric_names(w.repeat, known, sizeof(known));
		rc = cli_check_columns("--columns", w.columns, known);
		if (rc)
			return rc;
	}
	cli_out_dir(w.out_dir, scenario, "-sweep", dir, sizeof(dir));
	o.out_dir = dir;
	int rank, size;
	int mpi = sweep_mpi_ranks(&rank, &size);
	(void)size;
	o.log = w.quiet ? NULL : stderr;
	struct scn_error e; /* the files read once: a pipe, or one edited meanwhile */
	char *texts[3] = { scenario_read_text(scenario, &o.scenario_len, &e),
			   w.switch_config ? scenario_read_config(w.switch_config, 0,
								  &o.switch_len, &e)
					   : NULL,
			   w.nic_config ? scenario_read_config(w.nic_config, 1, &o.nic_len, &e)
					: NULL };
	o.scenario_text = texts[0];
	o.switch_text = texts[1];
	o.nic_text = texts[2];
	if ((w.switch_config || w.nic_config) && !w.quiet && (!mpi || rank == 0)) {
		/* what the configurations set, once (the points load them quietly) */
		struct scenario_inputs in = { .path = scenario, .switch_config = w.switch_config,
					      .nic_config = w.nic_config, .log = stderr,
					      .text = texts[0], .switch_text = texts[1],
					      .nic_text = texts[2] };
		struct scenario *base = scenario_open(&in, &e);
		scenario_close(base); /* a failure is reported with the points */
	}
	cli_install_signals();
	int failed = 0, unjudged = 0, refused = 0;
	o.refused = &refused;
	int st = sweep_run(&o, &failed, &unjudged, err, sizeof(err));
	for (int i = 0; i < 3; i++)
		free(texts[i]);
	return sweep_outcome(&w, dir, st, failed, unjudged, err, mpi ? rank : 0, refused);
}

const struct cli_command cli_cmd_sweep = {
	.name = "sweep",
	.usage = sweep_usage,
	.opts = sweep_opts,
	.tail = sweep_tail,
	.main = sweep_main,
};
