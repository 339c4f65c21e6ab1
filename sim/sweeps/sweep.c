/*
 * sweep.c - parameter sweeps (see sweep.h).
 *
 * Points are numbered in odometer order, the last --vary axis fastest.
 * Each point runs in a child process (fork), so a point that runs out of
 * memory or breaks an invariant cannot take the others down, and -j N uses
 * N cores (a point with sim.threads = auto gets its share of the cores).
 * The children write ordinary run directories; the parent only collects
 * their summary.csv rows.
 *
 * Choices
 *   - The unit of work is a run: point p, repeat k is task p * repeat + k,
 *     so -j spreads the repeats of one point too.  A shard or an MPI rank
 *     takes whole points (p % N), so that a point's repeats stay together.
 *   - With repeats, a point is listed in sweep.csv only when all of its
 *     runs ended (as a point whose one run failed is left out without).
 *     The mean of a metric keeps the decimals of its values (an integer
 *     metric whose mean is not whole gets 3); _min and _max are copied as
 *     the runs wrote them.  A column whose values are not numbers (end)
 *     lists its distinct values joined by ';'.
 *   - A shard's description is written when it starts (so that a merge
 *     can say which shard has not finished), again as each of its runs
 *     ends (a shard killed outright keeps what it finished) and when it
 *     stops, with the exit status of each of its runs that ended.  The scenario
 *     is identified by a 64-bit FNV-1a hash of its text (the file's bytes,
 *     or the embedded default's, then those of --switch-config and
 *     --nic-config files), not by its path, which may differ between
 *     machines.
 *   - Under MPI the runs of a rank go in its own process one after
 *     another: fork after MPI_Init is unsafe with some transports, and -j
 *     is ignored (start more ranks instead); sim.threads = auto is 1
 *     thread per run (ranks share the cores).  The statuses are reduced
 *     with MPI_MAX (-1 for not run), and rank 0 broadcasts the outcome of
 *     writing sweep.csv, which is also the barrier the caller relies on.
 */
#include "sim/sweeps/sweep.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef DCQCN_MPI
#include <mpi.h>
#endif

#include "models/scenario/keyhelp.h"
#include "models/scenario/scenario.h"
#include "sim/run/output.h"
#include "sim/run/run.h"
#include "sim/sweeps/workers.h"

#define LINE_MAX_BYTES 4096
#define MAX_COLS 128
#define PATH_BYTES 4400

int sweep_parse_vary(char *arg, struct sweep_axis *axis, char *err, size_t errlen)
{
	char *eq = strchr(arg, '=');
	if (!eq || eq == arg || !eq[1] || !strchr(arg, '.') || strchr(arg, '.') > eq) {
		snprintf(err, errlen, "--vary %s: expected section.key=V1,V2,...", arg);
		return -1;
	}
	*eq = '\0';
	/* a key that does not exist fails here, with "did you mean", rather than
	 * as the --set of point 0; whether a job or fault exists is the
	 * scenario's question (load_point) */
	char why[512];
	if (scenario_key_known(arg, why, sizeof(why))) {
		snprintf(err, errlen, "--vary %s", why);
		return -1;
	}
	axis->key = arg;
	axis->n = 0;
	for (char *v = eq + 1, *save = NULL, *tok; (tok = strtok_r(v, ",", &save)); v = NULL) {
		if (axis->n == SWEEP_MAX_VALUES) {
			snprintf(err, errlen, "--vary %s: at most %d values", arg, SWEEP_MAX_VALUES);
			return -1;
		}
		axis->values[axis->n++] = tok;
	}
	if (!axis->n) {
		snprintf(err, errlen, "--vary %s: no values", arg);
		return -1;
	}
	return 0;
}


/* runs per point: at least 1 */
static int repeats(const struct sweep_opts *o)
{
	return o->repeat > 1 ? o->repeat : 1;
}

/* the value index of each axis at point p */
static void point_index(const struct sweep_opts *o, int p, int *idx)
{
	for (int a = o->naxes - 1; a >= 0; a--) {
		idx[a] = p % o->axes[a].n;
		p /= o->axes[a].n;
	}
}

static void point_label(const struct sweep_opts *o, int p, char *buf, size_t len)
{
	int idx[SWEEP_MAX_AXES];
	size_t n = 0;
	point_index(o, p, idx);
	buf[0] = '\0';
	for (int a = 0; a < o->naxes && n < len; a++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s=%s", a ? ", " : "", o->axes[a].key,
				      o->axes[a].values[idx[a]]);
}

/* the loader names the place "--set"; for an axis it is "--vary" */
static void blame_vary(struct scn_error *err)
{
	if (strncmp(err->msg, "--set: ", 7))
		return;
	size_t n = strlen(err->msg + 7);
	if (8 + n >= sizeof(err->msg))
		n = sizeof(err->msg) - 9;
	memmove(err->msg + 8, err->msg + 7, n);
	err->msg[8 + n] = '\0';
	memcpy(err->msg, "--vary: ", 8);
}

/* the finalized scenario of point p, repeat k (sim.seed + k); NULL with
 * err set */
static struct scenario *load_point(const struct sweep_opts *o, int p, int k,
				   struct scn_error *err)
{
	int idx[SWEEP_MAX_AXES];
	struct scenario *s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err->msg, sizeof(err->msg), "out of memory");
		return NULL;
	}
	scenario_init(s);
	struct scenario_inputs in = { .path = o->scenario, .switch_config = o->switch_config,
				      .nic_config = o->nic_config, .sets = o->sets,
				      .nsets = o->nsets };
	int rc = scenario_load_inputs(s, &in, err);
	point_index(o, p, idx);
	for (int a = 0; rc == 0 && a < o->naxes; a++) {
		char assign[512];
		snprintf(assign, sizeof(assign), "%s=%s", o->axes[a].key, o->axes[a].values[idx[a]]);
		rc = scenario_set(s, assign, err);
		if (rc)
			blame_vary(err);
	}
	if (rc == 0 && k > 0) {
		char assign[64];
		if (s->seed > (uint64_t)INT64_MAX - (uint64_t)k) {
			snprintf(err->msg, sizeof(err->msg),
				 "--repeat: sim.seed %" PRIu64 " + %d is out of range (0-%" PRId64 ")",
				 s->seed, k, INT64_MAX);
			rc = -1;
		} else {
			snprintf(assign, sizeof(assign), "sim.seed=%" PRIu64, s->seed + (uint64_t)k);
			rc = scenario_set(s, assign, err);
		}
	}
	if (rc == 0)
		rc = scenario_finalize(s, err);
	if (rc) {
		scenario_free(s);
		free(s);
		return NULL;
	}
	return s;
}

/* DIR/pNNN: the point's run directory, or with repeats the folder of
 * its runs */
static void point_dir(const char *out_dir, int p, char *buf, size_t len)
{
	snprintf(buf, len, "%s/p%03d", out_dir, p);
}

/* the run directory of task t: DIR/pNNN, or DIR/pNNN/rK with repeats */
static void task_dir(const char *out_dir, int repeat, int t, char *buf, size_t len)
{
	if (repeat > 1)
		snprintf(buf, len, "%s/p%03d/r%d", out_dir, t / repeat, t % repeat);
	else
		point_dir(out_dir, t, buf, len);
}

/* run task t (point t / repeat, repeat t % repeat) into its directory;
 * threads: for sim.threads = auto (0: all the cores) */
static enum run_status run_task(const struct sweep_opts *o, int t, unsigned auto_threads)
{
	struct scn_error err;
	char dir[PATH_BYTES];
	int R = repeats(o);
	struct scenario *s = load_point(o, t / R, t % R, &err);
	if (!s)
		return RUN_EIO;
	task_dir(o->out_dir, R, t, dir, sizeof(dir));
	struct run_opts ro = { .out_dir = dir, .interrupt = o->interrupt, /* the handler's flag */
			       .threads = s->threads != SCN_AUTO ? 0 : auto_threads };
	struct run_result r;
	enum run_status st = run_scenario(s, &ro, &r);
	if (st == RUN_INVARIANT || st == RUN_EIO) {
		/* the caller reports it; leave the reason next to the results */
		char path[PATH_BYTES + 16];
		snprintf(path, sizeof(path), "%s/error.txt", dir);
		FILE *fp = fopen(path, "w");
		if (fp) {
			fprintf(fp, "%s\n", r.err);
			fclose(fp);
		}
	}
	scenario_free(s);
	free(s);
	return st;
}

/* child: run task t; the exit status is run_status */
static _Noreturn void run_child(const struct sweep_opts *o, int t)
{
	/* sim.threads = auto shares the cores among the -j points at once */
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	long share = o->jobs > 1 && cores > 0 ? cores / o->jobs : 0;
	enum run_status st = run_task(o, t, o->jobs > 1 ? (unsigned)(share > 1 ? share : 1) : 0);
	fflush(NULL);
	_exit((int)st);
}

/* the two lines of DIR/summary.csv; 0 or -1 */
static int read_summary(const char *dir, char *header, char *row)
{
	char path[PATH_BYTES + 16];
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	FILE *fp = fopen(path, "r");
	if (!fp)
		return -1;
	int ok = fgets(header, LINE_MAX_BYTES, fp) && fgets(row, LINE_MAX_BYTES, fp);
	fclose(fp);
	if (!ok)
		return -1;
	header[strcspn(header, "\n")] = '\0';
	row[strcspn(row, "\n")] = '\0';
	return 0;
}

/* the value of column `name` in a CSV row of unquoted fields */
static int column_is(const char *header, const char *row, const char *name, const char *want)
{
	int col = 0;
	size_t nl = strlen(name);
	for (const char *h = header;; col++) {
		if (!strncmp(h, name, nl) && (h[nl] == ',' || !h[nl]))
			break;
		h = strchr(h, ',');
		if (!h)
			return 0;
		h++;
	}
	const char *v = row;
	for (int i = 0; i < col && v; i++)
		if ((v = strchr(v, ',')))
			v++;
	return v && !strncmp(v, want, strlen(want)) &&
	       (v[strlen(want)] == ',' || !v[strlen(want)]);
}

/* ---- sweep.csv ---- */

/* the columns that are not numbers: no mean, min or max */
static int text_column(const char *name)
{
	return !strcmp(name, "end") || !strcmp(name, "criteria_pass") ||
	       !strcmp(name, "criteria_failed");
}

/* decimals of a number as written ("18.303": 3); -1 when it is not one */
static int number_decimals(const char *v)
{
	char *end;
	if (!*v)
		return -1;
	errno = 0;
	strtod(v, &end);
	if (*end || errno)
		return -1;
	const char *dot = strchr(v, '.');
	return dot ? (int)strlen(dot + 1) : 0;
}

/* append s to buf (n: its length so far) */
static void put(char *buf, size_t len, size_t *n, const char *s)
{
	if (*n < len)
		*n += (size_t)snprintf(buf + *n, len - *n, "%s", s);
}

/* the distinct non-empty items (separated by ';') of vals[0..n), in order
 * of appearance, joined by ';' */
static void union_items(char *const *vals, int n, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		char item[LINE_MAX_BYTES];
		for (const char *v = vals[i]; *v;) {
			size_t l = strcspn(v, ";");
			snprintf(item, sizeof(item), "%.*s", (int)l, v);
			v += l + (v[l] == ';');
			if (!item[0])
				continue;
			int seen = 0;
			for (const char *b = buf; *b && !seen;) {
				size_t bl = strcspn(b, ";");
				seen = bl == strlen(item) && !strncmp(b, item, bl);
				b += bl + (b[bl] == ';');
			}
			if (!seen) {
				if (used)
					put(buf, len, &used, ";");
				put(buf, len, &used, item);
			}
		}
	}
}

/* one numeric metric over the repeats: mean, min, max into buf (as
 * ",MEAN,MIN,MAX" appended at *n) */
static void put_stats(char *const *vals, int n, char *buf, size_t len, size_t *used)
{
	int dec = 0, have = 0, all_int = 1, imin = 0, imax = 0;
	double sum = 0, vmin = 0, vmax = 0;
	int64_t isum = 0;
	for (int i = 0; i < n; i++) {
		int d = number_decimals(vals[i]);
		if (!vals[i][0])
			continue;
		if (d < 0) { /* not a number after all: the distinct values */
			char u[LINE_MAX_BYTES];
			union_items(vals, n, u, sizeof(u));
			put(buf, len, used, ",");
			put(buf, len, used, u);
			put(buf, len, used, ",,");
			return;
		}
		double v = strtod(vals[i], NULL);
		if (d > dec)
			dec = d;
		if (d == 0) {
			errno = 0;
			long long iv = strtoll(vals[i], NULL, 10);
			if (errno || (iv > 0 && isum > INT64_MAX - iv) || (iv < 0 && isum < INT64_MIN - iv))
				all_int = 0;
			else
				isum += iv;
		} else {
			all_int = 0;
		}
		if (!have || v < vmin) {
			vmin = v;
			imin = i;
		}
		if (!have || v > vmax) {
			vmax = v;
			imax = i;
		}
		sum += v;
		have++;
	}
	char mean[64];
	if (!have) {
		put(buf, len, used, ",,,");
		return;
	}
	if (all_int && dec == 0 && isum % have == 0)
		snprintf(mean, sizeof(mean), "%" PRId64, isum / have);
	else
		snprintf(mean, sizeof(mean), "%.*f", dec ? dec : 3, sum / have);
	put(buf, len, used, ",");
	put(buf, len, used, mean);
	put(buf, len, used, ",");
	put(buf, len, used, vals[imin]);
	put(buf, len, used, ",");
	put(buf, len, used, vals[imax]);
}

/* the summary rows of point p's R runs, joined into one (header and row
 * as sweep.csv has them); 0, or -1 when a run has no summary */
static int aggregate(const char *out_dir, int p, int R, char *header, char *row, size_t len)
{
	char dir[PATH_BYTES], h[LINE_MAX_BYTES], scratch[LINE_MAX_BYTES];
	char(*rows)[LINE_MAX_BYTES] = malloc((size_t)R * sizeof(*rows));
	char *(*f)[MAX_COLS] = malloc((size_t)R * sizeof(*f));
	char *hf[MAX_COLS], *vals[SWEEP_MAX_REPEAT];
	int nh = 0, rc = -1;
	if (!rows || !f)
		goto out;
	for (int k = 0; k < R; k++) {
		task_dir(out_dir, R, p * R + k, dir, sizeof(dir));
		if (read_summary(dir, k ? scratch : h, rows[k]))
			goto out;
		int nf = output_split_csv(rows[k], f[k], MAX_COLS);
		if (k == 0)
			nh = output_split_csv(h, hf, MAX_COLS);
		for (int c = nf; c < MAX_COLS; c++)
			f[k][c] = "";
	}
	size_t hn = 0, rn = 0;
	header[0] = row[0] = '\0';
	for (int c = 0; c < nh; c++) {
		for (int k = 0; k < R; k++)
			vals[k] = f[k][c];
		put(header, len, &hn, c ? "," : "");
		put(header, len, &hn, hf[c]);
		if (!strcmp(hf[c], "criteria_pass")) {
			/* 0 when a repeat missed; empty when one was not judged */
			const char *v = "1";
			for (int k = 0; k < R; k++)
				if (!strcmp(vals[k], "0"))
					v = "0";
				else if (strcmp(vals[k], "1") && strcmp(v, "0"))
					v = "";
			put(row, len, &rn, c ? "," : "");
			put(row, len, &rn, v);
		} else if (text_column(hf[c])) {
			char u[LINE_MAX_BYTES];
			union_items(vals, R, u, sizeof(u));
			put(row, len, &rn, c ? "," : "");
			put(row, len, &rn, u);
		} else {
			put(header, len, &hn, ",");
			put(header, len, &hn, hf[c]);
			put(header, len, &hn, "_min,");
			put(header, len, &hn, hf[c]);
			put(header, len, &hn, "_max");
			if (c)
				put_stats(vals, R, row, len, &rn);
			else { /* no leading comma on the first column */
				size_t at = rn;
				put_stats(vals, R, row, len, &rn);
				memmove(row + at, row + at + 1, rn - at);
				rn--;
			}
		}
	}
	rc = hn < len && rn < len ? 0 : -1;
out:
	free(rows);
	free(f);
	return rc;
}

static int write_csv(const struct sweep_opts *o, int npoints, const int *status, int *failed,
		     int *unjudged, char *err, size_t errlen)
{
	char path[PATH_BYTES], dir[PATH_BYTES];
	char *header = malloc(2 * LINE_MAX_BYTES), *row = malloc(2 * LINE_MAX_BYTES);
	int R = repeats(o);
	snprintf(path, sizeof(path), "%s/sweep.csv", o->out_dir);
	FILE *fp = header && row ? fopen(path, "w") : NULL;
	if (!fp) {
		snprintf(err, errlen, "%s: %s", path, header && row ? strerror(errno) : "out of memory");
		free(header);
		free(row);
		return -1;
	}
	const char *unit[SWEEP_MAX_AXES];
	for (int a = 0; a < o->naxes; a++) {
		char num[64];
		scenario_key_base_value(o->axes[a].key, o->axes[a].values[0], num, sizeof(num),
					&unit[a]);
	}
	int wrote_header = 0;
	*failed = *unjudged = 0;
	for (int p = 0; p < npoints; p++) {
		int ok = 1;
		for (int k = 0; k < R; k++)
			ok &= status[p * R + k] == RUN_OK;
		if (!ok)
			continue;
		if (R > 1) {
			if (aggregate(o->out_dir, p, R, header, row, 2 * LINE_MAX_BYTES))
				continue;
		} else {
			point_dir(o->out_dir, p, dir, sizeof(dir));
			if (read_summary(dir, header, row))
				continue;
		}
		if (!wrote_header) {
			fputs("point,dir", fp);
			for (int a = 0; a < o->naxes; a++) {
				fprintf(fp, ",%s", o->axes[a].key);
				if (unit[a])
					fprintf(fp, ",%s_%s", o->axes[a].key, unit[a]);
			}
			fprintf(fp, ",%s\n", header);
			wrote_header = 1;
		}
		int idx[SWEEP_MAX_AXES];
		point_index(o, p, idx);
		fprintf(fp, "%d,p%03d", p, p);
		for (int a = 0; a < o->naxes; a++) {
			const char *v = o->axes[a].values[idx[a]], *u;
			char num[64];
			fprintf(fp, ",%s", v);
			if (unit[a]) {
				if (scenario_key_base_value(o->axes[a].key, v, num, sizeof(num), &u))
					num[0] = '\0';
				fprintf(fp, ",%s", num);
			}
		}
		fprintf(fp, ",%s\n", row);
		*failed += column_is(header, row, "criteria_pass", "0");
		*unjudged += column_is(header, row, "criteria_pass", "");
	}
	free(header);
	free(row);
	int bad = ferror(fp);
	if (fclose(fp) || bad) {
		snprintf(err, errlen, "%s: write failed", path);
		return -1;
	}
	return 0;
}

/* ---- shards ---- */

static uint64_t fnv1a_bytes(uint64_t h, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= UINT64_C(1099511628211);
	}
	return h;
}

#define FNV_OFFSET UINT64_C(14695981039346656037)

/* h with the bytes of the file at path; 0, or -1 with err */
static int hash_file(const char *path, uint64_t *h, char *err, size_t errlen)
{
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	char buf[8192];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		*h = fnv1a_bytes(*h, buf, n);
	fclose(fp);
	return 0;
}

/* the hash of the scenario's text, then of the configuration files it is
 * given (none: the scenario's alone); 0, or -1 with err */
static int scenario_hash(const struct sweep_opts *o, uint64_t *h, char *err, size_t errlen)
{
	*h = FNV_OFFSET;
	if (!o->scenario)
		*h = fnv1a_bytes(*h, scenario_default_text, strlen(scenario_default_text));
	else if (hash_file(o->scenario, h, err, errlen))
		return -1;
	const char *configs[] = { o->switch_config, o->nic_config };
	for (int i = 0; i < 2; i++) {
		if (!configs[i])
			continue;
		*h = fnv1a_bytes(*h, i ? "\0nic" : "\0switch", i ? 4 : 7);
		if (hash_file(configs[i], h, err, errlen))
			return -1;
	}
	return 0;
}

/* what identifies the sweep, as the lines of a shard description (no
 * shard or run lines); the caller frees it */
static char *sweep_identity(const struct sweep_opts *o, long npoints, uint64_t hash)
{
	size_t len = 256 + (size_t)o->nsets * 600 + (size_t)o->naxes * (600 + SWEEP_MAX_VALUES * 64);
	char *buf = malloc(len);
	size_t n = 0;
	if (!buf)
		return NULL;
	n += (size_t)snprintf(buf + n, len - n, "scenario_fnv1a = %016" PRIx64 "\n", hash);
	for (int i = 0; i < o->nsets && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "set = %s\n", o->sets[i]);
	for (int a = 0; a < o->naxes && n < len; a++) {
		n += (size_t)snprintf(buf + n, len - n, "vary = %s=", o->axes[a].key);
		for (int v = 0; v < o->axes[a].n && n < len; v++)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", v ? "," : "",
					      o->axes[a].values[v]);
		if (n < len)
			n += (size_t)snprintf(buf + n, len - n, "\n");
	}
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n, "repeat = %d\npoints = %ld\n", repeats(o),
				      npoints);
	if (n >= len) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void shard_path(const char *dir, int index, int count, char *buf, size_t len)
{
	snprintf(buf, len, "%s/shard-%d-of-%d.txt", dir, index, count);
}

/* write DIR/shard-I-of-N.txt: the identity and the runs of the shard
 * that ended (status >= 0); 0, or -1 with err */
static int write_shard(const struct sweep_opts *o, const char *identity, int ntasks,
		       const int *status, char *err, size_t errlen)
{
	char path[PATH_BYTES], tmp[PATH_BYTES + 8];
	shard_path(o->out_dir, o->shard_index, o->shard_count, path, sizeof(path));
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	FILE *fp = fopen(tmp, "w");
	if (!fp) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		return -1;
	}
	fprintf(fp, "# dcqcn-sim sweep shard; join the shards with: dcqcn-sim sweep --merge DIR...\n"
		    "shard = %d/%d\nscenario = %s\n%s",
		o->shard_index, o->shard_count,
		o->scenario ? o->scenario : "(embedded default)", identity);
	for (int t = 0; t < ntasks; t++)
		if (status[t] >= 0)
			fprintf(fp, "run = %d %d\n", t, status[t]);
	int bad = ferror(fp);
	if (fclose(fp) || bad || rename(tmp, path)) {
		snprintf(err, errlen, "%s: write failed: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* ---- MPI ---- */

int sweep_mpi_ranks(int *rank, int *size)
{
	*rank = 0;
	*size = 1;
#ifdef DCQCN_MPI
	int init = 0, fin = 0;
	MPI_Initialized(&init);
	MPI_Finalized(&fin);
	if (!init || fin)
		return 0;
	MPI_Comm_rank(MPI_COMM_WORLD, rank);
	MPI_Comm_size(MPI_COMM_WORLD, size);
	return 1;
#else
	return 0;
#endif
}

/* the largest of x over the ranks (x itself without MPI) */
static int mpi_max(int x, int mpi)
{
#ifdef DCQCN_MPI
	if (mpi)
		MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
#else
	(void)mpi;
#endif
	return x;
}

/* ---- the worker pool's view of a sweep (workers.h) ---- */

struct sweep_pool {
	const struct sweep_opts *o;
	int *status;                   /* per task: its run's exit status, -1 not run */
	long ntasks, owned, done;
	int worst;
	int killed;                    /* the signal that killed a point's process, 0 none */
	int rank, size;                /* MPI: this rank of size; size 1 without */
	const char *identity;          /* a shard's: its description is rewritten as
					* each run ends (a shard killed outright
					* keeps what it finished) */
};

/* is task t this process's (its shard's, its rank's)? */
static int task_mine(const struct sweep_pool *sp, int t)
{
	const struct sweep_opts *o = sp->o;
	int p = t / repeats(o);
	if (o->shard_count > 0)
		return p % o->shard_count == o->shard_index;
	return p % sp->size == sp->rank;
}

static int task_skipped(void *ctx, int t)
{
	struct sweep_pool *sp = ctx;
	return !task_mine(sp, t) || sp->status[t] == RUN_OK;
}

static void task_child(void *ctx, int t)
{
	run_child(((struct sweep_pool *)ctx)->o, t);
}

static int task_done(void *ctx, int t, int st)
{
	struct sweep_pool *sp = ctx;
	const struct sweep_opts *o = sp->o;
	int R = repeats(o);
	sp->status[t] = st;
	sp->done++;
	if (st == RUN_INVARIANT || (st == RUN_EIO && sp->worst != RUN_INVARIANT))
		sp->worst = st;
	if (st >= WORKERS_KILLED && !sp->killed) /* from outside, or a crash */
		sp->killed = st - WORKERS_KILLED;
	if (sp->identity) {
		char why[256];
		write_shard(o, sp->identity, (int)sp->ntasks, sp->status, why, sizeof(why));
	}
	if (o->log) {
		char label[512], rank[32] = "", rep[48] = "";
		point_label(o, t / R, label, sizeof(label));
		char killed[48];
		snprintf(killed, sizeof(killed), "killed by signal %d", st - WORKERS_KILLED);
		if (sp->size > 1)
			snprintf(rank, sizeof(rank), "rank %d of %d: ", sp->rank, sp->size);
		if (R > 1)
			snprintf(rep, sizeof(rep), " repeat %d", t % R);
		fprintf(o->log, "sweep: %spoint %d%s (%s): %s; %ld of %ld done\n", rank, t / R, rep,
			label,
			st == RUN_OK	      ? "ok"
			: st == RUN_INVARIANT  ? "invariant broken (see error.txt)"
			: st == RUN_INTERRUPTED ? "interrupted"
			: st >= WORKERS_KILLED  ? killed
						: "failed (see error.txt)",
			sp->done, sp->owned);
		fflush(o->log);
	}
	return 0;
}

/* the tasks of this rank in this process, one after another (MPI: no
 * fork); how many ended or were skipped */
static int run_in_process(struct sweep_pool *sp, int ntasks)
{
	int ended = 0;
	for (int t = 0; t < ntasks; t++) {
		if (task_skipped(sp, t)) {
			ended++;
			continue;
		}
		if (sp->o->interrupt && *sp->o->interrupt)
			break;
		enum run_status st = run_task(sp->o, t, 1);
		ended++;
		task_done(sp, t, (int)st);
	}
	return ended;
}

/* every point loads, the output directory exists; 0, or RUN_EIO with err */
static int prepare(const struct sweep_opts *o, long *npoints, char *err, size_t errlen)
{
	*npoints = 1;
	for (int a = 0; a < o->naxes; a++) {
		*npoints *= o->axes[a].n;
		if (*npoints > SWEEP_MAX_POINTS) {
			snprintf(err, errlen, "more than %d points: vary fewer values", SWEEP_MAX_POINTS);
			return RUN_EIO;
		}
	}
	if (o->repeat < 0 || o->repeat > SWEEP_MAX_REPEAT) {
		snprintf(err, errlen, "--repeat %d: 1-%d runs per point", o->repeat, SWEEP_MAX_REPEAT);
		return RUN_EIO;
	}
	if (*npoints * repeats(o) > (long)SWEEP_MAX_POINTS * 10) {
		snprintf(err, errlen, "more than %d runs (points x --repeat): vary fewer values",
			 SWEEP_MAX_POINTS * 10);
		return RUN_EIO;
	}
	if (o->shard_count < 0 || (o->shard_count > 0 && (o->shard_index < 0 ||
							   o->shard_index >= o->shard_count))) {
		snprintf(err, errlen, "--shard %d/%d: I/N with 0 <= I < N", o->shard_index,
			 o->shard_count);
		return RUN_EIO;
	}
	/* every point must load before anything runs; with repeats, the
	 * last seed too */
	for (int p = 0; p < *npoints; p++) {
		struct scn_error e;
		struct scenario *s = load_point(o, p, repeats(o) - 1, &e);
		if (!s) {
			char label[512];
			point_label(o, p, label, sizeof(label));
			snprintf(err, errlen, "point %d (%s): %s", p, label, e.msg);
			return RUN_EIO;
		}
		scenario_free(s);
		free(s);
	}
	if (output_mkdir_p(o->out_dir)) {
		snprintf(err, errlen, "%s: cannot create the output directory: %s", o->out_dir,
			 strerror(errno));
		return RUN_EIO;
	}
	return 0;
}

int sweep_run(const struct sweep_opts *o, int *failed, int *unjudged, char *err,
	      size_t errlen)
{
	long npoints;
	int rank, size;
	int mpi = sweep_mpi_ranks(&rank, &size);
	err[0] = '\0';
	*failed = *unjudged = 0;
	int rc = prepare(o, &npoints, err, errlen);
	if (!rc && mpi && o->shard_count > 0) {
		snprintf(err, errlen, "--shard under mpirun: give one or the other (the ranks "
				      "are the shards)");
		rc = RUN_EIO;
	}
	/* the ranks agree on whether to go on (an I/O error may hit one) */
	if (mpi_max(rc, mpi) && !rc) {
		snprintf(err, errlen, "another rank could not start the sweep (its message says why)");
		rc = RUN_EIO;
	}
	if (rc)
		return rc;
	int R = repeats(o);
	int ntasks = (int)npoints * R;
	int *status = calloc((size_t)ntasks, sizeof(*status));
	char *identity = NULL;
	uint64_t hash = 0;
	if (!status) {
		snprintf(err, errlen, "out of memory");
		return RUN_EIO;
	}
	struct sweep_pool sp = { .o = o, .status = status, .ntasks = ntasks, .worst = RUN_OK,
				 .rank = rank, .size = size };
	for (int t = 0; t < ntasks; t++) {
		status[t] = -1;
		sp.owned += task_mine(&sp, t);
	}
	if (o->shard_count > 0) { /* the shard's description, before anything runs */
		if (scenario_hash(o, &hash, err, errlen) ||
		    !(identity = sweep_identity(o, npoints, hash)) ||
		    write_shard(o, identity, ntasks, status, err, errlen)) {
			if (!err[0])
				snprintf(err, errlen, "out of memory");
			free(status);
			free(identity);
			return RUN_EIO;
		}
	}
	int resumed = 0;
	for (int t = 0; o->resume && t < ntasks; t++) { /* what ended stays */
		char dir[PATH_BYTES], header[LINE_MAX_BYTES], row[LINE_MAX_BYTES];
		task_dir(o->out_dir, R, t, dir, sizeof(dir));
		if (task_mine(&sp, t) && !read_summary(dir, header, row) &&
		    (column_is(header, row, "end", "done") || column_is(header, row, "end", "duration"))) {
			status[t] = RUN_OK;
			resumed++;
		}
	}
	if (o->log && o->resume)
		fprintf(o->log, "sweep: %d of %ld %s ended before: not run again\n", resumed, sp.owned,
			R > 1 ? "runs" : "points");
	sp.done = resumed;
	sp.identity = identity;
	int done;
	if (mpi) {
		done = run_in_process(&sp, ntasks);
	} else {
		struct workers w = { .jobs = o->jobs, .interrupt = o->interrupt, .ctx = &sp,
				     .skip = task_skipped, .child = task_child, .done = task_done };
		done = workers_run(&w, ntasks, err, errlen);
	}
	if (done < 0 || err[0])
		sp.worst = RUN_EIO;
	if (sp.killed && sp.worst == RUN_OK) {
		snprintf(err, errlen, "a point's process was killed by signal %d", sp.killed);
		sp.worst = RUN_EIO;
	}
	int interrupted = done < ntasks || (o->interrupt && *o->interrupt);
	int worst = sp.worst;
#ifdef DCQCN_MPI
	if (mpi) { /* every rank's statuses, worst outcome and interruption */
		MPI_Allreduce(MPI_IN_PLACE, status, ntasks, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
		int local[3] = { worst == RUN_INVARIANT ? 2 : worst != RUN_OK, interrupted, 0 };
		MPI_Allreduce(MPI_IN_PLACE, local, 3, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
		if (local[0] == 2)
			worst = RUN_INVARIANT;
		else if (local[0] == 1 && worst == RUN_OK)
			worst = RUN_EIO;
		interrupted = local[1];
	}
#endif
	int wrc = 0;
	if (o->shard_count > 0)
		wrc = write_shard(o, identity, ntasks, status, err, errlen);
	else if (!mpi || rank == 0)
		wrc = write_csv(o, (int)npoints, status, failed, unjudged, err, errlen);
#ifdef DCQCN_MPI
	if (mpi) { /* rank 0 has written sweep.csv: the barrier, and its outcome */
		int out[3] = { wrc, *failed, *unjudged };
		MPI_Bcast(out, 3, MPI_INT, 0, MPI_COMM_WORLD);
		if (rank != 0 && out[0])
			snprintf(err, errlen, "rank 0 could not write %s/sweep.csv", o->out_dir);
		wrc = out[0];
		*failed = out[1];
		*unjudged = out[2];
	}
#endif
	if (wrc)
		worst = RUN_EIO;
	else if (worst == RUN_INVARIANT)
		snprintf(err, errlen, "a point broke an invariant (its error.txt says which)");
	else if (worst == RUN_EIO && !err[0])
		snprintf(err, errlen, "a point could not write its results (see its error.txt)");
	free(status);
	free(identity);
	if (worst != RUN_OK)
		return worst;
	return interrupted ? RUN_INTERRUPTED : RUN_OK;
}

/* ---- merge ---- */

struct shard_desc {
	char path[PATH_BYTES];
	char dir[PATH_BYTES];          /* the folder that holds it */
	int index, count;
	char *identity;                /* its identity lines, as sweep_identity writes them */
	int *task, *status;            /* its run lines */
	int nruns;
};

/* read one description; 0, or -1 with err */
static int read_shard(const char *dir, const char *name, struct shard_desc *d, char *err,
		      size_t errlen)
{
	snprintf(d->path, sizeof(d->path), "%s/%s", dir, name);
	snprintf(d->dir, sizeof(d->dir), "%s", dir);
	FILE *fp = fopen(d->path, "r");
	if (!fp) {
		snprintf(err, errlen, "%s: %s", d->path, strerror(errno));
		return -1;
	}
	size_t cap = 4096, n = 0;
	int rcap = 64, shard_seen = 0;
	char *line = malloc(LINE_MAX_BYTES * 4);
	d->identity = malloc(cap);
	d->task = malloc((size_t)rcap * sizeof(int));
	d->status = malloc((size_t)rcap * sizeof(int));
	d->nruns = 0;
	int rc = line && d->identity && d->task && d->status ? 0 : -1;
	if (rc)
		snprintf(err, errlen, "out of memory");
	else
		d->identity[0] = '\0';
	for (int ln = 1; rc == 0 && fgets(line, LINE_MAX_BYTES * 4, fp); ln++) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || !line[0] || !strncmp(line, "scenario = ", 11))
			continue;
		int t, st;
		if (sscanf(line, "shard = %d/%d", &d->index, &d->count) == 2) {
			shard_seen = 1;
		} else if (sscanf(line, "run = %d %d", &t, &st) == 2) {
			if (d->nruns == rcap) {
				rcap *= 2;
				int *a = realloc(d->task, (size_t)rcap * sizeof(int));
				if (a)
					d->task = a;
				int *b = realloc(d->status, (size_t)rcap * sizeof(int));
				if (b)
					d->status = b;
				if (!a || !b) {
					snprintf(err, errlen, "out of memory");
					rc = -1;
					break;
				}
			}
			d->task[d->nruns] = t;
			d->status[d->nruns++] = st;
		} else if (!strncmp(line, "scenario_fnv1a = ", 17) || !strncmp(line, "set = ", 6) ||
			   !strncmp(line, "vary = ", 7) || !strncmp(line, "repeat = ", 9) ||
			   !strncmp(line, "points = ", 9)) {
			size_t l = strlen(line);
			if (n + l + 2 > cap) {
				cap = 2 * (n + l + 2);
				char *b = realloc(d->identity, cap);
				if (!b) {
					snprintf(err, errlen, "out of memory");
					rc = -1;
					break;
				}
				d->identity = b;
			}
			memcpy(d->identity + n, line, l);
			n += l;
			d->identity[n++] = '\n';
			d->identity[n] = '\0';
		} else {
			snprintf(err, errlen, "%s:%d: not a shard description line: %.80s", d->path, ln,
				 line);
			rc = -1;
		}
	}
	fclose(fp);
	free(line);
	if (rc == 0 && (!shard_seen || d->count < 1 || d->index < 0 || d->index >= d->count)) {
		snprintf(err, errlen, "%s: no valid 'shard = I/N' line", d->path);
		rc = -1;
	}
	return rc;
}

static void free_shard(struct shard_desc *d)
{
	free(d->identity);
	free(d->task);
	free(d->status);
}

/* the kind of an identity line, in the order sweep_identity writes them */
static int identity_kind(const char *line)
{
	static const char *const kinds[] = { "scenario_fnv1a", "set", "vary", "repeat", NULL };
	for (int k = 0; kinds[k]; k++)
		if (!strncmp(line, kinds[k], strlen(kinds[k])))
			return k;
	return 4;
}

/* the first line where two identities differ, in words: a line of one
 * that the other lacks is of the earlier kind of the two */
static const char *identity_difference(const char *a, const char *b)
{
	static const char *const words[] = { "the scenario text differs",
					     "the --set options differ", "the --vary axes differ",
					     "--repeat differs", "the points differ" };
	while (*a && *b) {
		size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
		if (la != lb || strncmp(a, b, la))
			break;
		a += la + (a[la] == '\n');
		b += lb + (b[lb] == '\n');
	}
	int ka = *a ? identity_kind(a) : 4, kb = *b ? identity_kind(b) : 4;
	return words[ka < kb ? ka : kb];
}

/* out_dir/pNNN for a point that ran in another folder: a symbolic link to
 * it (an absolute path); 0, or -1 with err */
static int link_point(const char *from_dir, const char *out_dir, int p, char *err, size_t errlen)
{
	char src[PATH_BYTES + 16], dst[PATH_BYTES + 16], target[2 * PATH_BYTES + 64], cwd[PATH_BYTES];
	struct stat s1, s2, ls;
	point_dir(from_dir, p, src, sizeof(src));
	point_dir(out_dir, p, dst, sizeof(dst));
	if (stat(src, &s1)) {
		snprintf(err, errlen, "%s: %s", src, strerror(errno));
		return -1;
	}
	if (lstat(dst, &ls) == 0) {
		if (stat(dst, &s2) == 0 && s1.st_dev == s2.st_dev && s1.st_ino == s2.st_ino)
			return 0; /* the shard's own folder, or linked before */
		if (!S_ISLNK(ls.st_mode)) {
			snprintf(err, errlen, "%s exists and is not point %d of the shards (%s): merge "
					      "into an empty folder or the shards' own", dst, p, src);
			return -1;
		}
		unlink(dst);
	}
	if (src[0] == '/')
		snprintf(target, sizeof(target), "%s", src);
	else if (getcwd(cwd, sizeof(cwd)))
		snprintf(target, sizeof(target), "%s/%s", cwd, src);
	else {
		snprintf(err, errlen, "getcwd: %s", strerror(errno));
		return -1;
	}
	if (symlink(target, dst)) {
		snprintf(err, errlen, "%s: cannot link it to %s: %s", dst, target, strerror(errno));
		return -1;
	}
	return 0;
}

int sweep_merge(const char *const *dirs, int ndirs, const char *out_dir, int *failed,
		int *unjudged, char *err, size_t errlen)
{
	struct shard_desc *d = calloc(SWEEP_MAX_MERGE, sizeof(*d));
	char real[SWEEP_MAX_MERGE][64]; /* the dirs seen, by (device, inode) */
	int nd = 0, rc = RUN_EIO, *status = NULL, *owner = NULL;
	char *idbuf = NULL;
	struct sweep_opts o = { .out_dir = out_dir };
	*failed = *unjudged = 0;
	err[0] = '\0';
	if (!d) {
		snprintf(err, errlen, "out of memory");
		return RUN_EIO;
	}
	for (int i = 0; i < ndirs; i++) {
		struct stat st;
		if (stat(dirs[i], &st) || !S_ISDIR(st.st_mode)) {
			snprintf(err, errlen, "--merge %s: not a folder", dirs[i]);
			goto out;
		}
		snprintf(real[i], sizeof(real[i]), "%ju:%ju", (uintmax_t)st.st_dev,
			 (uintmax_t)st.st_ino);
		int dup = 0;
		for (int j = 0; j < i; j++)
			dup |= !strcmp(real[i], real[j]);
		if (dup)
			continue;
		DIR *dp = opendir(dirs[i]);
		if (!dp) {
			snprintf(err, errlen, "--merge %s: %s", dirs[i], strerror(errno));
			goto out;
		}
		int found = 0;
		for (struct dirent *e; (e = readdir(dp));) {
			int a, b, used = 0;
			if (sscanf(e->d_name, "shard-%d-of-%d.txt%n", &a, &b, &used) != 2 ||
			    e->d_name[used])
				continue;
			if (nd == SWEEP_MAX_MERGE) {
				snprintf(err, errlen, "--merge: more than %d shards", SWEEP_MAX_MERGE);
				closedir(dp);
				goto out;
			}
			if (read_shard(dirs[i], e->d_name, &d[nd], err, errlen)) {
				nd++;
				closedir(dp);
				goto out;
			}
			nd++;
			found++;
		}
		closedir(dp);
		if (!found) {
			snprintf(err, errlen, "--merge %s: no shard description (shard-I-of-N.txt): not "
					      "the folder of a sweep --shard", dirs[i]);
			goto out;
		}
	}
	/* the same sweep, and each shard once */
	for (int i = 1; i < nd; i++) {
		if (d[i].count != d[0].count) {
			snprintf(err, errlen, "%s and %s: shards of %d and of %d: not the same split "
					      "(remove the stale descriptions)", d[0].path, d[i].path,
				 d[0].count, d[i].count);
			goto out;
		}
		if (strcmp(d[i].identity, d[0].identity)) {
			snprintf(err, errlen, "%s is not a shard of the same sweep as %s: %s", d[i].path,
				 d[0].path, identity_difference(d[0].identity, d[i].identity));
			goto out;
		}
		for (int j = 0; j < i; j++)
			if (d[j].index == d[i].index) {
				snprintf(err, errlen, "shard %d/%d is there twice: %s and %s", d[i].index,
					 d[i].count, d[j].path, d[i].path);
				goto out;
			}
	}
	int N = d[0].count;
	if (nd < N) {
		char missing[256] = "";
		size_t n = 0;
		for (int s = 0, k = 0; s < N && k < 8; s++) {
			int have = 0;
			for (int i = 0; i < nd; i++)
				have |= d[i].index == s;
			if (!have) {
				n += (size_t)snprintf(missing + n, sizeof(missing) - n, "%s%d/%d",
						      k ? ", " : "", s, N);
				k++;
			}
		}
		snprintf(err, errlen, "%d of %d shards missing (%s): give every shard's folder",
			 N - nd, N, missing);
		goto out;
	}
	/* the sweep, back from the identity: axes and repeat */
	idbuf = strdup(d[0].identity);
	long points = -1;
	if (!idbuf) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (char *line = idbuf, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!strncmp(line, "vary = ", 7)) {
			if (o.naxes == SWEEP_MAX_AXES ||
			    sweep_parse_vary(line + 7, &o.axes[o.naxes], err, errlen)) {
				if (!err[0])
					snprintf(err, errlen, "%s: too many vary lines", d[0].path);
				goto out;
			}
			o.naxes++;
		} else if (!strncmp(line, "repeat = ", 9)) {
			o.repeat = atoi(line + 9);
		} else if (!strncmp(line, "points = ", 9)) {
			points = atol(line + 9);
		}
	}
	long npoints = 1;
	for (int a = 0; a < o.naxes; a++)
		npoints *= o.axes[a].n;
	int R = repeats(&o);
	if (points != npoints || R > SWEEP_MAX_REPEAT || npoints > SWEEP_MAX_POINTS) {
		snprintf(err, errlen, "%s: the points line does not match the vary lines", d[0].path);
		goto out;
	}
	int ntasks = (int)npoints * R;
	status = malloc((size_t)ntasks * sizeof(*status));
	owner = malloc((size_t)ntasks * sizeof(*owner));
	if (!status || !owner) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (int t = 0; t < ntasks; t++) {
		status[t] = -1;
		owner[t] = -1;
		for (int i = 0; i < nd; i++)
			if ((t / R) % N == d[i].index)
				owner[t] = i;
	}
	for (int i = 0; i < nd; i++)
		for (int r = 0; r < d[i].nruns; r++) {
			int t = d[i].task[r];
			if (t >= 0 && t < ntasks && owner[t] == i)
				status[t] = d[i].status[r];
		}
	/* every run ended: done, or failed as a single sweep would report */
	for (int t = 0; t < ntasks; t++) {
		if (status[t] == RUN_OK || status[t] == RUN_INVARIANT || status[t] == RUN_EIO)
			continue;
		const struct shard_desc *s = &d[owner[t]];
		char label[512];
		point_label(&o, t / R, label, sizeof(label));
		snprintf(err, errlen, "point %d (%s)%s of shard %d/%d (%s) did not %s: finish the "
				      "shard with its sweep command and --resume",
			 t / R, label, R > 1 ? (t % R ? ", a repeat," : ", repeat 0,") : "", s->index,
			 N, s->path, status[t] < 0 ? "run" : "end (interrupted or killed)");
		goto out;
	}
	if (output_mkdir_p(out_dir)) {
		snprintf(err, errlen, "%s: cannot create the output directory: %s", out_dir,
			 strerror(errno));
		goto out;
	}
	int worst = RUN_OK;
	for (int p = 0; p < npoints; p++) {
		if (link_point(d[owner[p * R]].dir, out_dir, p, err, errlen))
			goto out;
		for (int k = 0; k < R; k++)
			if (status[p * R + k] == RUN_INVARIANT ||
			    (status[p * R + k] == RUN_EIO && worst == RUN_OK))
				worst = status[p * R + k];
	}
	if (write_csv(&o, (int)npoints, status, failed, unjudged, err, errlen))
		goto out;
	rc = worst;
	if (worst == RUN_INVARIANT)
		snprintf(err, errlen, "a point broke an invariant (its error.txt says which)");
	else if (worst == RUN_EIO)
		snprintf(err, errlen, "a point could not write its results (see its error.txt)");
out:
	for (int i = 0; i < nd; i++)
		free_shard(&d[i]);
	free(d);
	free(idbuf);
	free(status);
	free(owner);
	return rc;
}
