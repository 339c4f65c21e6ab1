/*
 * nccltests.c - `dcqcn-sim nccl-tests` (nccltests.h, docs/nccl-tests.md).
 *
 * The table is nccl-tests' (src/common.cu): the three header lines, then per
 * size "%12li  %12li  %8s  %6s  %6i" (size, count, type, redop, root) and,
 * out-of-place then in-place, "  %7s  %6.2f  %6.2f  %5s" (time, algbw,
 * busbw, #wrong), the time "%7.2f" below 100 us, "%7.1f" below 10 ms and
 * "%7.0f" above; then "# Out of bounds values : N OK" and "# Avg bus
 * bandwidth    : %g", the mean busbw of every row's two placements.  type
 * is float, root -1; redop sum (all_reduce_perf) or none (all_to_all_perf,
 * whose in-place #wrong nccl-tests leaves unchecked: N/A).  #wrong is 0:
 * the simulator moves bytes, it does not corrupt them.
 *
 * What nccl-tests cannot print, because it stops: an iteration whose QP ran
 * out of retries (collectives.csv status "failed"), one the run did not end
 * before sim.duration, a run stopped by a signal or one that broke an
 * invariant.  Those placements show a word (failed, timeout, stopped,
 * error) in the time column and N/A in the others, a comment line after the
 * table says why, the average is N/A, and the status is not 0.  No number
 * is made up.
 *
 * The added job is scenario text appended to the scenario's own text and
 * loaded as one file (so every line of the scenario keeps its place in
 * messages), then the --set assignments: they can reach the job
 * (job.nccl-tests.channels) but not the keys the options give (pattern,
 * ranks, size, iterations).
 */
#include "sim/sweeps/nccltests.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "models/base/files.h"
#include "models/base/units.h"
#include "models/scenario/scenario.h"
#include "models/workload/traffic.h"
#include "sim/run/output.h"
#include "sim/run/run.h"
#include "sim/sweeps/internal.h"
#include "sim/sweeps/workers.h"

#define WORD_BYTES 4   /* float: nccl-tests' default -d */
#define ALIGN_BYTES 16 /* all_to_all_perf: the count per GPU, a multiple of 16 B */
#define LINE_BYTES 4096
#define EMBEDDED_NAME "scenarios/default.ini (embedded)"

/* a placement's outcome: its numbers, or why it has none */
enum place_state { PL_DONE, PL_FAILED, PL_TIMEOUT, PL_STOPPED, PL_ERROR };
static const char *const place_word[] = { "", "failed", "timeout", "stopped", "error" };

struct placement {
	enum place_state state;
	sim_time_ps mean_ps;     /* the mean time of its iterations */
	double algbw, busbw;     /* GB/s, output_coll_bw of an iteration of mean_ps */
};

struct size_run {
	int64_t bytes;           /* the row's size: the job's size */
	int64_t count;           /* the row's count (all_to_all_perf: per GPU) */
	char name[48];           /* its run directory's name: the size (SIZE-2 for a
				  * second row of one size) */
	char dir[4200];          /* its run directory */
	int status;              /* the worker's run_status */
	int ran;                 /* the worker ended and its results are read */
	struct placement pl[2];  /* out-of-place, in-place */
	char note[700];          /* why a placement has no numbers */
};

/* one iteration of the job, from collectives.csv */
struct iter {
	int state;               /* 0 missing, 1 done, 2 failed */
	sim_time_ps time_ps, end_ps;
};

struct nccltests {
	struct nccltests_opts o;
	char *base;              /* the scenario's text */
	const char *base_name;   /* its name in messages (and its folder, for traces) */
	uint32_t ranks;          /* GPUs */
	struct size_run *sizes;
	int nsizes;
	char root[4096];         /* out_dir, or the temporary directory */
	int tmp;                 /* root is temporary: removed at the end */
	struct scenario *scn;    /* the first size's, for the bandwidths and warnings */
	uint32_t job;            /* the nccl-tests job's index in it */
};

/* the whole of a file; NULL when it cannot be read */
static char *read_text(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, got;
	if (!f)
		return NULL;
	do {
		if (cap - len < 4096) {
			char *nb = realloc(buf, cap = cap ? cap * 2 : 16384);
			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		got = fread(buf + len, 1, cap - len - 1, f);
		len += got;
	} while (got);
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}

static struct scenario *scenario_new(void)
{
	struct scenario *s = calloc(1, sizeof(*s));
	if (s)
		scenario_init(s);
	return s;
}

static void scenario_drop(struct scenario *s)
{
	if (s) {
		scenario_free(s);
		free(s);
	}
}

/*
 * The scenario of size i: the scenario's text with the job appended, loaded
 * as one file, then the --set assignments, finalized.  NULL with err set.
 */
static struct scenario *load_size(const struct nccltests *t, int i, struct scn_error *err)
{
	const struct size_run *r = &t->sizes[i];
	char job[512];
	snprintf(job, sizeof(job),
		 "\n# added by dcqcn-sim nccl-tests %s: the collective it times\n"
		 "[job.%s]\npattern = %s\nranks = 0-%" PRIu32 "\nsize = %" PRId64 "B\n"
		 "iterations = %" PRIu32 "\n",
		 t->o.coll == NCCLTESTS_ALL_REDUCE ? "all_reduce_perf" : "all_to_all_perf",
		 NCCLTESTS_JOB, t->o.coll == NCCLTESTS_ALL_REDUCE ? "ring-allreduce" : "alltoall",
		 t->ranks - 1, r->bytes, t->o.warmup + 2 * t->o.iters);
	size_t nb = strlen(t->base), nj = strlen(job);
	char *text = malloc(nb + nj + 1);
	struct scenario *s = scenario_new();
	if (!text || !s) {
		free(text);
		scenario_drop(s);
		snprintf(err->msg, sizeof(err->msg), "out of memory");
		return NULL;
	}
	memcpy(text, t->base, nb);
	memcpy(text + nb, job, nj + 1);
	int rc = scenario_load_string(s, t->base_name, text, err);
	free(text);
	for (int k = 0; rc == 0 && k < t->o.nsets; k++)
		rc = scenario_set(s, t->o.sets[k], err);
	if (rc == 0)
		rc = scenario_finalize(s, err);
	if (rc) {
		scenario_drop(s);
		return NULL;
	}
	return s;
}

/* --alone: every line of the [job.*] and [fault.*] sections of text made
 * empty, so that the other lines keep their numbers in messages */
static void blank_jobs(char *text)
{
	int blank = 0;
	for (char *l = text; *l;) {
		size_t n = strcspn(l, "\n");
		const char *p = l + strspn(l, " \t");
		if (*p == '[') {
			p += 1 + strspn(p + 1, " \t");
			blank = !strncmp(p, "job.", 4) || !strncmp(p, "fault.", 6);
		}
		if (blank)
			memset(l, ' ', n);
		l += n + (l[n] == '\n');
	}
}

/*
 * The scenario alone (no job added) with the --set assignments that do not
 * name the job, finalized: the host count, and whether a job of the name
 * exists already.  0, or -1 with err set (*usage for -g).
 */
static int probe(struct nccltests *t, char *err, size_t errlen, int *usage)
{
	struct scn_error e = {{0}};
	struct scenario *s = scenario_new();
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	int rc = scenario_load_string(s, t->base_name, t->base, &e);
	for (int k = 0; rc == 0 && k < t->o.nsets; k++) {
		char key[128];
		if (!nccltests_job_key(t->o.sets[k], key, sizeof(key)))
			rc = scenario_set(s, t->o.sets[k], &e);
	}
	if (rc == 0) /* what the topology resolves (a links file's hosts) */
		rc = scenario_finalize(s, &e);
	if (rc) {
		snprintf(err, errlen, "%s", e.msg);
		scenario_drop(s);
		return -1;
	}
	for (uint32_t j = 0; j < s->njobs; j++)
		if (!strcmp(s->jobs[j].name, NCCLTESTS_JOB)) {
			snprintf(err, errlen,
				 "%s:%d: [job.%s]: nccl-tests adds a job of that name; rename this one",
				 t->base_name, s->jobs[j].line, NCCLTESTS_JOB);
			scenario_drop(s);
			return -1;
		}
	uint32_t hosts = scenario_hosts(s);
	scenario_drop(s);
	if (t->o.gpus && (t->o.gpus < 2 || t->o.gpus > hosts)) {
		*usage = 1;
		snprintf(err, errlen, "-g: %" PRIu32 " GPUs: the scenario has %" PRIu32
			 " hosts (2-%" PRIu32 ")", t->o.gpus, hosts, hosts);
		return -1;
	}
	t->ranks = t->o.gpus ? t->o.gpus : hosts;
	return 0;
}

/* the rows: nccl-tests' sizes, counts and bytes for the GPUs; 0 or -1 */
static int make_sizes(struct nccltests *t, char *err, size_t errlen, int *usage)
{
	const struct nccltests_opts *o = &t->o;
	int n = nccltests_count_sizes(o);
	t->sizes = calloc((size_t)n, sizeof(*t->sizes));
	if (!t->sizes) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	int64_t per = ALIGN_BYTES / WORD_BYTES; /* elements in 16 B */
	for (int64_t size = o->min_bytes; size && size <= o->max_bytes;
	     size = nccltests_next_size(o, size)) {
		struct size_run *r = &t->sizes[t->nsizes++];
		int64_t count = size / WORD_BYTES;
		if (o->coll == NCCLTESTS_ALL_REDUCE) {
			r->count = count;
			r->bytes = count * WORD_BYTES;
		} else {
			r->count = count / t->ranks / per * per;
			r->bytes = r->count * t->ranks * WORD_BYTES;
		}
		if (!r->bytes) {
			*usage = 1;
			if (o->coll == NCCLTESTS_ALL_REDUCE)
				snprintf(err, errlen, "size %" PRId64 ": below one float (4 B): "
					 "all_reduce_perf needs at least 4 B", size);
			else
				snprintf(err, errlen, "size %" PRId64 ": all_to_all_perf sends each of "
					 "the %" PRIu32 " GPUs a multiple of 16 B (4 floats): at least %"
					 PRId64 " B", size, t->ranks, (int64_t)ALIGN_BYTES * t->ranks);
			return -1;
		}
		int dup = 0;
		for (int k = 0; k + 1 < t->nsizes; k++)
			dup += t->sizes[k].bytes == r->bytes;
		if (dup)
			snprintf(r->name, sizeof(r->name), "%" PRId64 "-%d", r->bytes, dup + 1);
		else
			snprintf(r->name, sizeof(r->name), "%" PRId64, r->bytes);
	}
	return 0;
}

/* a size's load error for the user: "SRC:LINE: job.nccl-tests.size: ..."
 * without its place (the appended job's lines are not the scenario
 * file's), after the size; a --set's as it is.  *usage: an option's fault
 * (the size, or a --set) rather than the scenario's */
static void size_message(const char *msg, int64_t bytes, char *err, size_t errlen, int *usage)
{
	const char *p = strstr(msg, ": job." NCCLTESTS_JOB ".");
	if (!strncmp(msg, "--set", 5)) {
		*usage = 1;
		snprintf(err, errlen, "%s", msg);
		return;
	}
	*usage = p != NULL;
	snprintf(err, errlen, "size %" PRId64 ": %s", bytes, p ? p + 2 : msg);
}

static int remove_tree(const char *path)
{
	struct stat st;
	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -1;
	if (S_ISDIR(st.st_mode)) {
		DIR *d = opendir(path);
		struct dirent *de;
		if (!d)
			return -1;
		while ((de = readdir(d))) {
			char sub[4400];
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
			remove_tree(sub);
		}
		closedir(d);
		return rmdir(path);
	}
	return unlink(path);
}

struct nccltests *nccltests_prepare(const struct nccltests_opts *o, char *err, size_t errlen,
				    int *usage)
{
	struct nccltests *t = calloc(1, sizeof(*t));
	*usage = 0;
	if (!t) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	t->o = *o;
	if (t->o.jobs < 1)
		t->o.jobs = 1;
	t->base_name = o->scenario ? o->scenario : EMBEDDED_NAME;
	if (nccltests_check_opts(o, err, errlen)) {
		*usage = 1;
		goto fail;
	}
	t->base = o->scenario ? read_text(o->scenario) : strdup(scenario_default_text);
	if (!t->base) {
		snprintf(err, errlen, "%s: cannot read (%s)", t->base_name, strerror(errno));
		goto fail;
	}
	if (o->alone)
		blank_jobs(t->base);
	if (probe(t, err, errlen, usage))
		goto fail;
	if (make_sizes(t, err, errlen, usage))
		goto fail;
	/* every size loads before anything runs */
	for (int i = 0; i < t->nsizes; i++) {
		struct scn_error e = {{0}};
		struct scenario *s = load_size(t, i, &e);
		if (!s) {
			size_message(e.msg, t->sizes[i].bytes, err, errlen, usage);
			goto fail;
		}
		if (t->scn) {
			scenario_drop(s);
			continue;
		}
		t->scn = s;
		for (uint32_t j = 0; j < s->njobs; j++)
			if (!strcmp(s->jobs[j].name, NCCLTESTS_JOB))
				t->job = j;
	}
	return t;
fail:
	nccltests_free(t);
	return NULL;
}

const struct scenario *nccltests_scenario(const struct nccltests *t)
{
	return t->scn;
}

void nccltests_free(struct nccltests *t)
{
	if (!t)
		return;
	if (t->tmp)
		remove_tree(t->root);
	scenario_drop(t->scn);
	free(t->sizes);
	free(t->base);
	free(t);
}

/* ---- the runs ---- */

/* child: run size i into its directory; the exit status is its run_status */
static _Noreturn void run_child(struct nccltests *t, int i)
{
	struct scn_error err;
	struct size_run *r = &t->sizes[i];
	struct scenario *s = load_size(t, i, &err);
	if (!s) {
		fprintf(stderr, "dcqcn-sim: nccl-tests: size %" PRId64 ": %s\n", r->bytes, err.msg);
		_exit(RUN_EIO);
	}
	/* nothing of an earlier run into --out DIR may be read back as this one's */
	static const char *const stale[] = { "error.txt", "collectives.csv", NULL };
	for (int k = 0; stale[k]; k++) {
		char path[4300];
		snprintf(path, sizeof(path), "%s/%s", r->dir, stale[k]);
		unlink(path);
	}
	/* sim.threads = auto shares the cores among the -j runs at once (no more
	 * runs than sizes), as a sweep does */
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	int runs = t->o.jobs < t->nsizes ? t->o.jobs : t->nsizes;
	long share = runs > 1 && cores > 0 ? cores / runs : 0;
	struct run_opts ro = { .out_dir = r->dir, .interrupt = t->o.interrupt,
			       .threads = s->threads != SCN_AUTO ? 0
					  : runs > 1 ? (unsigned)(share > 1 ? share : 1) : 0 };
	struct run_result res;
	enum run_status st = run_scenario(s, &ro, &res);
	scenario_drop(s);
	if (st == RUN_INVARIANT || st == RUN_EIO) {
		char path[4300];
		snprintf(path, sizeof(path), "%s/error.txt", r->dir);
		FILE *fp = fopen(path, "w");
		if (fp) {
			fprintf(fp, "%s\n", res.err);
			fclose(fp);
		} else {
			fprintf(stderr, "dcqcn-sim: nccl-tests: size %" PRId64 ": %s\n", r->bytes,
				res.err);
		}
	}
	fflush(NULL);
	_exit((int)st);
}

/* "12.345" (time_us) -> picoseconds, exactly */
static int parse_us(const char *v, sim_time_ps *ps)
{
	char buf[64], e[64];
	if (!*v || strlen(v) > 40)
		return -1;
	snprintf(buf, sizeof(buf), "%sus", v);
	return units_parse_time(buf, ps, e, sizeof(e)) ? -1 : 0;
}

/* the job's iterations in DIR/collectives.csv; 0, or -1 when it cannot be read */
static int read_iterations(const char *dir, struct iter *it, uint32_t niter)
{
	char path[4400], line[LINE_BYTES];
	char *f[32];
	int cj = -1, ci = -1, ct = -1, ce = -1, cs = -1;
	snprintf(path, sizeof(path), "%s/collectives.csv", dir);
	FILE *fp = fopen(path, "r");
	if (!fp)
		return -1;
	for (int row = 0; fgets(line, sizeof(line), fp); row++) {
		line[strcspn(line, "\r\n")] = '\0';
		int n = output_split_csv(line, f, 32);
		if (row == 0) {
			for (int c = 0; c < n; c++) {
				cj = strcmp(f[c], "job") ? cj : c;
				ci = strcmp(f[c], "iteration") ? ci : c;
				ct = strcmp(f[c], "time_us") ? ct : c;
				ce = strcmp(f[c], "end_us") ? ce : c;
				cs = strcmp(f[c], "status") ? cs : c;
			}
			if (cj < 0 || ci < 0 || ct < 0 || ce < 0 || cs < 0)
				break;
			continue;
		}
		if (n <= cj || n <= ci || n <= ct || n <= ce || n <= cs ||
		    strcmp(f[cj], NCCLTESTS_JOB))
			continue;
		char *end;
		unsigned long k = strtoul(f[ci], &end, 10);
		if (*end || k >= niter)
			continue;
		if (!strcmp(f[cs], "done") && !parse_us(f[ct], &it[k].time_ps))
			it[k].state = 1;
		else if (!strcmp(f[cs], "failed") && !parse_us(f[ce], &it[k].end_ps))
			it[k].state = 2;
	}
	fclose(fp);
	return cj < 0 || ci < 0 || ct < 0 || ce < 0 || cs < 0 ? -1 : 0;
}

static const char *iter_role(const struct nccltests *t, uint32_t k)
{
	return k < t->o.warmup		       ? "warm-up"
	       : k < t->o.warmup + t->o.iters ? "out-of-place"
					      : "in-place";
}

/* the error.txt a worker left, or a word for its status */
static void worker_error(const struct size_run *r, char *buf, size_t len)
{
	char path[4400];
	snprintf(path, sizeof(path), "%s/error.txt", r->dir);
	FILE *fp = fopen(path, "r");
	buf[0] = '\0';
	if (fp) {
		if (!fgets(buf, (int)len, fp))
			buf[0] = '\0';
		fclose(fp);
		buf[strcspn(buf, "\n")] = '\0';
	}
	if (!buf[0])
		snprintf(buf, len, "%s", r->status == RUN_INVARIANT ? "an invariant broke"
					 : r->status == RUN_EIO	     ? "it could not run"
								     : "it was killed");
}

/* size i's worker ended with status: its placements */
static void collect(struct nccltests *t, int i, int status)
{
	struct size_run *r = &t->sizes[i];
	uint32_t W = t->o.warmup, N = t->o.iters, niter = W + 2 * N;
	struct iter *it = calloc(niter, sizeof(*it));
	r->status = status;
	r->ran = 1;
	r->note[0] = '\0';
	int readable = it && !read_iterations(r->dir, it, niter);
	if (status == RUN_INVARIANT || status == RUN_EIO || status >= WORKERS_KILLED || !readable) {
		char why[512];
		worker_error(r, why, sizeof(why));
		if (status >= WORKERS_KILLED)
			snprintf(why, sizeof(why), "its process was killed by signal %d",
				 status - WORKERS_KILLED);
		else if (!readable && status != RUN_INVARIANT && status != RUN_EIO)
			snprintf(why, sizeof(why), "its collectives.csv cannot be read");
		r->pl[0].state = r->pl[1].state = PL_ERROR;
		snprintf(r->note, sizeof(r->note), "size %" PRId64 ": the run failed: %.500s",
			 r->bytes, why);
		free(it);
		return;
	}
	/* the first iteration that did not complete decides for the placements
	 * from it on: a failed job runs no more iterations */
	uint32_t k = 0;
	while (k < niter && it[k].state == 1)
		k++;
	for (int p = 0; p < 2; p++) {
		uint32_t first = W + (uint32_t)p * N;
		struct placement *pl = &r->pl[p];
		if (k < first + N) {
			pl->state = k < niter && it[k].state == 2 ? PL_FAILED
				    : status == RUN_INTERRUPTED  ? PL_STOPPED
								 : PL_TIMEOUT;
			continue;
		}
		sim_time_ps sum = 0;
		for (uint32_t j = first; j < first + N; j++)
			sum += it[j].time_ps;
		pl->state = PL_DONE;
		pl->mean_ps = (sum + (sim_time_ps)N / 2) / (sim_time_ps)N;
		/* nccl-tests' algbw and busbw of one iteration of the mean time */
		struct coll c = { .job = t->job, .ranks = t->ranks, .bytes = r->bytes,
				  .start_ps = 0, .end_ps = pl->mean_ps };
		double pct;
		output_coll_bw(t->scn, &c, &pl->algbw, &pl->busbw, &pct);
	}
	if (k < W + 2 * N) {
		char when[32], dur[32];
		if (it[k].state == 2)
			snprintf(r->note, sizeof(r->note),
				 "size %" PRId64 ": iteration %" PRIu32 " (%s) failed at %s us: a QP of "
				 "the job ran out of retries (nic.ib_retry_cnt)", r->bytes, k,
				 iter_role(t, k), units_format_us(it[k].end_ps, when, sizeof(when)));
		else if (status == RUN_INTERRUPTED)
			snprintf(r->note, sizeof(r->note), "size %" PRId64 ": stopped by a signal "
				 "before iteration %" PRIu32 " (%s) ended", r->bytes, k,
				 iter_role(t, k));
		else
			snprintf(r->note, sizeof(r->note),
				 "size %" PRId64 ": iteration %" PRIu32 " (%s) had not ended when the "
				 "run reached sim.duration (%s): --set sim.duration=LONGER", r->bytes,
				 k, iter_role(t, k),
				 units_format_time(t->scn->duration_ps, dur, sizeof(dur)));
	}
	free(it);
}

/* ---- the table ---- */

/* nccl-tests' time column: 2 decimals below 100 us, 1 below 10 ms, then 0 */
static void time_str(sim_time_ps ps, char *buf, size_t len)
{
	double us = (double)ps / (double)UNITS_PS_PER_US;
	snprintf(buf, len, us >= 10000.0 ? "%7.0f" : us >= 100.0 ? "%7.1f" : "%7.2f", us);
}

static void print_header(FILE *out)
{
	fprintf(out, "# %10s  %12s  %8s  %6s  %6s           out-of-place                       "
		     "in-place          \n", "", "", "", "", "");
	fprintf(out, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s %6s  %7s  %6s  %6s %6s\n", "size",
		"count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong", "time",
		"algbw", "busbw", "#wrong");
	fprintf(out, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %5s  %7s  %6s  %6s  %5s\n",
		"(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)",
		"(GB/s)", "");
}

/* #wrong: 0, but all_to_all_perf does not check its in-place results */
static const char *wrong_of(const struct nccltests *t, int p)
{
	return t->o.coll == NCCLTESTS_ALL_TO_ALL && p == 1 ? "N/A" : "0";
}

static void print_row(FILE *out, const struct nccltests *t, const struct size_run *r)
{
	fprintf(out, "%12" PRId64 "  %12" PRId64 "  %8s  %6s  %6d", r->bytes, r->count, "float",
		t->o.coll == NCCLTESTS_ALL_REDUCE ? "sum" : "none", -1);
	for (int p = 0; p < 2; p++) {
		const struct placement *pl = &r->pl[p];
		if (pl->state == PL_DONE) {
			char ts[32];
			time_str(pl->mean_ps, ts, sizeof(ts));
			fprintf(out, "  %7s  %6.2f  %6.2f  %5s", ts, pl->algbw, pl->busbw,
				wrong_of(t, p));
		} else {
			fprintf(out, "  %7s  %6s  %6s  %5s", place_word[pl->state], "N/A", "N/A",
				"N/A");
		}
	}
	fputc('\n', out);
	fflush(out);
}

/* the bottom lines: every note, the checks and the mean busbw */
static void print_footer(FILE *out, const struct nccltests *t, int nrun)
{
	double sum = 0;
	int n = 0, missing = 0;
	for (int i = 0; i < nrun; i++) {
		const struct size_run *r = &t->sizes[i];
		if (r->note[0])
			fprintf(out, "# %s\n", r->note);
		for (int p = 0; p < 2; p++) {
			if (r->pl[p].state == PL_DONE) {
				sum += r->pl[p].busbw;
				n++;
			} else {
				missing++;
			}
		}
	}
	if (nrun < t->nsizes)
		fprintf(out, "# stopped by a signal: %d of %d sizes ran\n", nrun, t->nsizes);
	fprintf(out, "# Out of bounds values : 0 OK\n");
	if (missing || !n)
		fprintf(out, "# Avg bus bandwidth    : N/A (%d of %d results have no time)\n",
			missing + 2 * (t->nsizes - nrun), 2 * t->nsizes);
	else
		fprintf(out, "# Avg bus bandwidth    : %g \n", sum / n);
	fprintf(out, "#\n");
	fflush(out);
}

/* the sizes run and running, on one line of a terminal */
static void progress(const struct nccltests *t, const int *slot_size, int jobs, int ndone)
{
	FILE *p = t->o.progress;
	if (!p)
		return;
	fprintf(p, "\r\033[Knccl-tests: %d of %d sizes done", ndone, t->nsizes);
	const char *sep = "; running";
	for (int k = 0; k < jobs; k++)
		if (slot_size[k] >= 0) {
			fprintf(p, "%s %" PRId64 " B", sep, t->sizes[slot_size[k]].bytes);
			sep = ",";
		}
	fflush(p);
}

static void progress_clear(const struct nccltests *t)
{
	if (t->o.progress) {
		fputs("\r\033[K", t->o.progress);
		fflush(t->o.progress);
	}
}

/* the worker pool's view of the sizes (workers.h): rows are printed in
 * size order as soon as every smaller size has ended */
struct size_pool {
	struct nccltests *t;
	FILE *out;
	char *err;
	size_t errlen;
	int printed;
	int aborted;                   /* stdout cannot be written (a closed pipe) */
};

static void size_child(void *ctx, int i)
{
	run_child(((struct size_pool *)ctx)->t, i);
}

static void size_tick(void *ctx, const int *slot_size, int jobs, int ndone)
{
	progress(((struct size_pool *)ctx)->t, slot_size, jobs, ndone);
}

static int size_done(void *ctx, int i, int status)
{
	struct size_pool *sp = ctx;
	struct nccltests *t = sp->t;
	collect(t, i, status);
	if (sp->printed < t->nsizes && t->sizes[sp->printed].ran)
		progress_clear(t);
	while (!sp->aborted && sp->printed < t->nsizes && t->sizes[sp->printed].ran) {
		print_row(sp->out, t, &t->sizes[sp->printed++]);
		if (ferror(sp->out)) {
			snprintf(sp->err, sp->errlen, "the table could not be written (stdout: %s)",
				 strerror(errno));
			sp->aborted = 1;
		}
	}
	return sp->aborted;
}

/* DIR/nccl-tests.csv: the table's columns, the rows that ran; 0 or -1 */
static int write_csv(const struct nccltests *t, int nrun, char *err, size_t errlen)
{
	char path[4200], tmp[4240];
	snprintf(path, sizeof(path), "%s/nccl-tests.csv", t->root);
	/* written aside and renamed: a failure never leaves a partial file */
	FILE *fp = file_open_aside(path, tmp, sizeof(tmp));
	if (!fp) {
		snprintf(err, errlen, "%s: cannot write it: %s", tmp, strerror(errno));
		return -1;
	}
	fputs("size_B,count,type,redop,root,oop_time_us,oop_algbw_GBps,oop_busbw_GBps,oop_wrong,"
	      "ip_time_us,ip_algbw_GBps,ip_busbw_GBps,ip_wrong\n", fp);
	for (int i = 0; i < nrun; i++) {
		const struct size_run *r = &t->sizes[i];
		fprintf(fp, "%" PRId64 ",%" PRId64 ",float,%s,-1", r->bytes, r->count,
			t->o.coll == NCCLTESTS_ALL_REDUCE ? "sum" : "none");
		for (int p = 0; p < 2; p++) {
			const struct placement *pl = &r->pl[p];
			char us[32];
			if (pl->state == PL_DONE)
				fprintf(fp, ",%s,%.3f,%.3f,%s",
					units_format_us(pl->mean_ps, us, sizeof(us)), pl->algbw,
					pl->busbw, wrong_of(t, p));
			else
				fputs(",,,,N/A", fp);
		}
		fputc('\n', fp);
	}
	if (file_commit(fp, tmp, path)) {
		snprintf(err, errlen, "%s: cannot write it: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* what else runs in every size's run: the scenario's own jobs and faults
 * (a "#" line; none when there is nothing else) */
static void print_alongside(const struct nccltests *t, FILE *out)
{
	const struct scenario *s = t->scn;
	if (t->o.alone) {
		fprintf(out, "# --alone: the scenario's own jobs and faults are left out\n");
		return;
	}
	if (s->njobs <= 1 && s->nfaults == 0)
		return;
	fprintf(out, "# in every run beside it, from the scenario (--alone leaves them out):");
	const char *sep = " ";
	for (uint32_t j = 0; j < s->njobs; j++)
		if (j != t->job) {
			fprintf(out, "%sjob.%s", sep, s->jobs[j].name);
			sep = ", ";
		}
	for (uint32_t f = 0; f < s->nfaults; f++) {
		fprintf(out, "%sfault.%s", sep, s->faults[f].name);
		sep = ", ";
	}
	fputc('\n', out);
}

int nccltests_run(struct nccltests *t, FILE *out, char *err, size_t errlen)
{
	err[0] = '\0';
	if (t->o.out_dir) {
		snprintf(t->root, sizeof(t->root), "%s", t->o.out_dir);
		if (output_mkdir_p(t->root)) {
			snprintf(err, errlen, "%s: cannot create the output directory: %s", t->root,
				 strerror(errno));
			return NCCLTESTS_EIO;
		}
	} else {
		const char *tmpdir = getenv("TMPDIR");
		snprintf(t->root, sizeof(t->root), "%s/dcqcn-nccl-tests-XXXXXX",
			 tmpdir && *tmpdir ? tmpdir : "/tmp");
		if (!mkdtemp(t->root)) {
			snprintf(err, errlen, "%s: cannot create a temporary directory: %s", t->root,
				 strerror(errno));
			return NCCLTESTS_EIO;
		}
		t->tmp = 1;
	}
	for (int i = 0; i < t->nsizes; i++)
		snprintf(t->sizes[i].dir, sizeof(t->sizes[i].dir), "%s/%s", t->root,
			 t->sizes[i].name);
	const struct scn_job *j = &t->scn->jobs[t->job];
	fprintf(out, "# dcqcn-sim nccl-tests %s: a simulated %s of %" PRIu32 " GPUs (h0-h%" PRIu32
		     ") on %s, one run per size\n",
		t->o.coll == NCCLTESTS_ALL_REDUCE ? "all_reduce_perf" : "all_to_all_perf",
		j->pattern != SCN_JOB_RING_ALLREDUCE ? "alltoall"
		: j->algorithm == SCN_ALGO_TREE	     ? "tree all-reduce"
						     : "ring-allreduce",
		t->ranks, t->ranks - 1, t->base_name);
	print_alongside(t, out);
	fprintf(out, "# minBytes %" PRId64 " maxBytes %" PRId64 " step: %" PRId64 "(%s) warmup "
		     "iters: %" PRIu32 " iters: %" PRIu32 "\n#\n",
		t->o.min_bytes, t->o.max_bytes,
		t->o.step_factor > 1 ? t->o.step_factor : t->o.step_bytes,
		t->o.step_factor > 1 ? "factor" : "bytes", t->o.warmup, t->o.iters);
	print_header(out);
	if (fflush(out) || ferror(out)) { /* a closed pipe: run nothing */
		snprintf(err, errlen, "the table could not be written (stdout: %s)", strerror(errno));
		return NCCLTESTS_EIO;
	}

	struct size_pool sp = { .t = t, .out = out, .err = err, .errlen = errlen };
	struct workers w = { .jobs = t->o.jobs, .interrupt = t->o.interrupt, .ctx = &sp,
			     .child = size_child, .done = size_done, .tick = size_tick };
	char fork_err[256];
	if (workers_run(&w, t->nsizes, fork_err, sizeof(fork_err)) < 0 || fork_err[0]) {
		if (!sp.aborted)
			snprintf(err, errlen, "%s", fork_err);
		sp.aborted = 1;
	}
	int printed = sp.printed, aborted = sp.aborted;
	progress_clear(t);
	if (aborted)
		return NCCLTESTS_EIO;
	/* the rows that ran after one that did not (interrupted): none are
	 * printed, so that the table has no gap */
	print_footer(out, t, printed);

	int worst = NCCLTESTS_OK, failed = 0;
	for (int i = 0; i < printed; i++) {
		const struct size_run *r = &t->sizes[i];
		if (r->status == RUN_INVARIANT)
			worst = NCCLTESTS_INVARIANT;
		else if ((r->status == RUN_EIO || r->status >= WORKERS_KILLED) &&
			 worst != NCCLTESTS_INVARIANT)
			worst = NCCLTESTS_EIO;
		failed += r->pl[0].state != PL_DONE || r->pl[1].state != PL_DONE;
	}
	int csv_failed = t->o.out_dir && write_csv(t, printed, err, errlen);
	if ((t->o.interrupt && *t->o.interrupt) || printed < t->nsizes) {
		snprintf(err, errlen, "stopped by a signal: %d of %d sizes complete",
			 printed - failed, t->nsizes);
		return NCCLTESTS_INTERRUPTED;
	}
	if (worst == NCCLTESTS_INVARIANT) {
		snprintf(err, errlen, "a run broke an invariant (the comment under the table "
			 "says which)");
		return worst;
	}
	if (csv_failed)
		return NCCLTESTS_EIO; /* err says which file */
	if (worst == NCCLTESTS_EIO) {
		snprintf(err, errlen, "a run failed (the comment under the table says why)");
		return worst;
	}
	if (failed) {
		snprintf(err, errlen, "%d size%s had iterations that failed or did not end (the "
			 "rows marked; the comment under the table says why)", failed,
			 failed == 1 ? "" : "s");
		return NCCLTESTS_FAILED;
	}
	return NCCLTESTS_OK;
}
