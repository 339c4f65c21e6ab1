/*
 * sweep_shard.c - the shards of a sweep (sweep --shard I/N) and their merge
 * (see sweep.h): a shard's description, DIR/shard-I-of-N.txt, and
 * sweep_merge, which joins the shards into the sweep.csv one run writes.
 *
 * A shard's description is written when it starts (so that a merge can say
 * which shard has not finished), again as each of its runs ends (a shard
 * killed outright keeps what it finished) and when it stops, with the exit
 * status of each of its runs that ended.  The scenario is identified by a
 * 64-bit FNV-1a hash of its text (the file's bytes, or the embedded
 * default's, then those of --switch-config and --nic-config files), not by
 * its path, which may differ between machines.
 */
#include "sim/sweeps/internal.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "models/base/files.h"
#include "models/scenario/scenario.h"
#include "sim/run/output.h"
#include "sim/run/run.h"
#include "sim/sweeps/sweep.h"

/* ---- a shard's description ---- */

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
 * given (none: the scenario's alone): the texts sweep_run read, else the
 * files; 0, or -1 with err */
static int scenario_hash(const struct sweep_opts *o, uint64_t *h, char *err, size_t errlen)
{
	*h = FNV_OFFSET;
	if (!o->scenario)
		*h = fnv1a_bytes(*h, scenario_default_text, strlen(scenario_default_text));
	else if (o->scenario_text)
		*h = fnv1a_bytes(*h, o->scenario_text, o->scenario_len);
	else if (hash_file(o->scenario, h, err, errlen))
		return -1;
	const char *configs[] = { o->switch_config, o->nic_config };
	const char *texts[] = { o->switch_text, o->nic_text };
	size_t lens[] = { o->switch_len, o->nic_len };
	for (int i = 0; i < 2; i++) {
		if (!configs[i])
			continue;
		*h = fnv1a_bytes(*h, i ? "\0nic" : "\0switch", i ? 4 : 7);
		if (texts[i])
			*h = fnv1a_bytes(*h, texts[i], lens[i]);
		else if (hash_file(configs[i], h, err, errlen))
			return -1;
	}
	return 0;
}

/* what identifies the sweep, as the lines of a shard description (no
 * shard or run lines); the caller frees it */
static char *sweep_identity(const struct sweep_opts *o, long npoints, uint64_t hash)
{
	size_t len =
	    256 + (size_t)o->nsets * 600 + (size_t)o->naxes * (600 + SWEEP_MAX_VALUES * 64);
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
		n += (size_t)snprintf(buf + n, len - n, "repeat = %d\npoints = %ld\n",
				      sweep_repeats(o), npoints);
	if (n >= len) {
		free(buf);
		return NULL;
	}
	return buf;
}

int sweep_shard_identity(const struct sweep_opts *o, long npoints, char **identity, char *err,
			 size_t errlen)
{
	uint64_t hash = 0;
	*identity = NULL;
	if (scenario_hash(o, &hash, err, errlen))
		return -1;
	if (!(*identity = sweep_identity(o, npoints, hash))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

static void shard_path(const char *dir, int index, int count, char *buf, size_t len)
{
	snprintf(buf, len, "%s/shard-%d-of-%d.txt", dir, index, count);
}

int sweep_write_shard(const struct sweep_opts *o, const char *identity, int ntasks,
		      const int *status, char *err, size_t errlen)
{
	char path[SWEEP_PATH_BYTES], tmp[SWEEP_PATH_BYTES + 8];
	shard_path(o->out_dir, o->shard_index, o->shard_count, path, sizeof(path));
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	FILE *fp = fopen(tmp, "w");
	if (!fp) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		return -1;
	}
	fprintf(fp,
		"# dcqcn-sim sweep shard; join the shards with: dcqcn-sim sweep --merge DIR...\n"
		"shard = %d/%d\nscenario = %s\n%s",
		o->shard_index, o->shard_count, o->scenario ? o->scenario : "(embedded default)",
		identity);
	for (int t = 0; t < ntasks; t++)
		if (status[t] >= 0)
			fprintf(fp, "run = %d %d\n", t, status[t]);
	if (file_close(fp) || rename(tmp, path)) {
		snprintf(err, errlen, "%s: write failed: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* ---- the merge ---- */

struct shard_desc {
	char path[SWEEP_PATH_BYTES];
	char dir[SWEEP_PATH_BYTES];          /* the folder that holds it */
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
	char *line = malloc(SWEEP_LINE_BYTES * 4);
	d->identity = malloc(cap);
	d->task = malloc((size_t)rcap * sizeof(int));
	d->status = malloc((size_t)rcap * sizeof(int));
	d->nruns = 0;
	int rc = line && d->identity && d->task && d->status ? 0 : -1;
	if (rc)
		snprintf(err, errlen, "out of memory");
	else
		d->identity[0] = '\0';
	for (int ln = 1; rc == 0 && fgets(line, SWEEP_LINE_BYTES * 4, fp); ln++) {
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
			snprintf(err, errlen, "%s:%d: not a shard description line: %.80s", d->path,
				 ln, line);
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

int sweep_shard_check(const struct sweep_opts *o, const char *identity, char *err,
		      size_t errlen)
{
	char path[SWEEP_PATH_BYTES], name[64];
	struct shard_desc d = { 0 };
	shard_path(o->out_dir, o->shard_index, o->shard_count, path, sizeof(path));
	if (access(path, F_OK))
		return 0; /* nothing ran there yet */
	snprintf(name, sizeof(name), "shard-%d-of-%d.txt", o->shard_index, o->shard_count);
	int rc = read_shard(o->out_dir, name, &d, err, errlen);
	if (!rc && strcmp(d.identity, identity)) {
		const char *was, *now;
		const char *why = sweep_identity_difference(d.identity, identity, &was, &now);
		snprintf(err, errlen,
			 "%s describes another sweep: %s (was: %.*s; now: %.*s): --resume "
			 "finishes the same sweep; give a new -o, or leave out --resume to "
			 "start over",
			 path, why, (int)strcspn(was, "\n"), was, (int)strcspn(now, "\n"), now);
		rc = -1;
	}
	free_shard(&d);
	return rc;
}

/* the kind of an identity line, in the order sweep_identity writes them */
static int identity_kind(const char *line)
{
	static const char *const kinds[] = { "scenario_fnv1a", "set", "vary", "repeat",
					     "points", "shards", NULL };
	for (int k = 0; kinds[k]; k++)
		if (!strncmp(line, kinds[k], strlen(kinds[k])))
			return k;
	return 6;
}

const char *sweep_identity_difference(const char *a, const char *b, const char **la_out,
				      const char **lb_out)
{
	static const char *const words[] = { ("the scenario text differs (the scenario file, "
					      "--switch-config or --nic-config)"),
					     "the --set options differ", "the --vary axes differ",
					     "--repeat differs", "the points differ",
					     "the shards differ (--shard I/N)", "the points differ" };
	while (*a && *b) {
		size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
		if (la != lb || strncmp(a, b, la))
			break;
		a += la + (a[la] == '\n');
		b += lb + (b[lb] == '\n');
	}
	if (la_out)
		*la_out = a;
	if (lb_out)
		*lb_out = b;
	int ka = *a ? identity_kind(a) : 6, kb = *b ? identity_kind(b) : 6;
	return words[ka < kb ? ka : kb];
}

/* out_dir/pNNN for a point that ran in another folder: a symbolic link to
 * it (an absolute path); 0, or -1 with err */
static int link_point(const char *from_dir, const char *out_dir, int p, char *err, size_t errlen)
{
	char src[SWEEP_PATH_BYTES + 16], dst[SWEEP_PATH_BYTES + 16],
	    target[2 * SWEEP_PATH_BYTES + 64], cwd[SWEEP_PATH_BYTES];
	struct stat s1, s2, ls;
	sweep_point_dir(from_dir, p, src, sizeof(src));
	sweep_point_dir(out_dir, p, dst, sizeof(dst));
	if (stat(src, &s1)) {
		snprintf(err, errlen, "%s: %s", src, strerror(errno));
		return -1;
	}
	if (lstat(dst, &ls) == 0) {
		if (stat(dst, &s2) == 0 && s1.st_dev == s2.st_dev && s1.st_ino == s2.st_ino)
			return 0; /* the shard's own folder, or linked before */
		if (!S_ISLNK(ls.st_mode)) {
			snprintf(err, errlen,
				 "%s exists and is not point %d of the shards (%s): merge "
				 "into an empty folder or the shards' own",
				 dst, p, src);
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

/* what a merge holds: the descriptions read, and the sweep they describe */
struct merge {
	struct shard_desc *d;          /* SWEEP_MAX_MERGE of them */
	int nd;
	struct sweep_opts o;           /* the sweep: out_dir, axes, repeat */
	char *idbuf;                   /* the identity's text, which the axes point into */
	long npoints;
	int R, ntasks;
	int *status;                   /* per task: its run's exit status, -1 not run */
	int *owner;                    /* per task: the description of its shard */
};

/* the descriptions of the shards in dir (a folder seen once); 0, or -1
 * with err */
static int read_dir(struct merge *m, const char *dir, char *err, size_t errlen)
{
	DIR *dp = opendir(dir);
	if (!dp) {
		snprintf(err, errlen, "--merge %s: %s", dir, strerror(errno));
		return -1;
	}
	int found = 0;
	for (struct dirent *e; (e = readdir(dp));) {
		int a, b, used = 0;
		if (sscanf(e->d_name, "shard-%d-of-%d.txt%n", &a, &b, &used) != 2 ||
		    e->d_name[used])
			continue;
		if (m->nd == SWEEP_MAX_MERGE) {
			snprintf(err, errlen, "--merge: more than %d shards", SWEEP_MAX_MERGE);
			closedir(dp);
			return -1;
		}
		if (read_shard(dir, e->d_name, &m->d[m->nd++], err, errlen)) {
			closedir(dp);
			return -1;
		}
		found++;
	}
	closedir(dp);
	if (!found) {
		snprintf(err, errlen, "--merge %s: no shard description (shard-I-of-N.txt): not "
				      "the folder of a sweep --shard", dir);
		return -1;
	}
	return 0;
}

/* the descriptions in every folder, each folder once (by device and
 * inode); 0, or -1 with err */
static int read_dirs(struct merge *m, const char *const *dirs, int ndirs, char *err,
		     size_t errlen)
{
	char real[SWEEP_MAX_MERGE][64]; /* the dirs seen, by (device, inode) */
	for (int i = 0; i < ndirs; i++) {
		struct stat st;
		if (stat(dirs[i], &st) || !S_ISDIR(st.st_mode)) {
			snprintf(err, errlen, "--merge %s: not a folder", dirs[i]);
			return -1;
		}
		snprintf(real[i], sizeof(real[i]), "%ju:%ju", (uintmax_t)st.st_dev,
			 (uintmax_t)st.st_ino);
		int dup = 0;
		for (int j = 0; j < i; j++)
			dup |= !strcmp(real[i], real[j]);
		if (!dup && read_dir(m, dirs[i], err, errlen))
			return -1;
	}
	return 0;
}

/* the shards describe the same sweep, each once, and none is missing; 0,
 * or -1 with err */
static int check_shards(const struct merge *m, char *err, size_t errlen)
{
	const struct shard_desc *d = m->d;
	for (int i = 1; i < m->nd; i++) {
		if (d[i].count != d[0].count) {
			snprintf(err, errlen,
				 "%s and %s: shards of %d and of %d: not the same split "
				 "(remove the stale descriptions)",
				 d[0].path, d[i].path, d[0].count, d[i].count);
			return -1;
		}
		if (strcmp(d[i].identity, d[0].identity)) {
			snprintf(err, errlen, "%s is not a shard of the same sweep as %s: %s",
				 d[i].path, d[0].path,
				 sweep_identity_difference(d[0].identity, d[i].identity,
							   NULL, NULL));
			return -1;
		}
		for (int j = 0; j < i; j++)
			if (d[j].index == d[i].index) {
				snprintf(err, errlen, "shard %d/%d is there twice: %s and %s",
					 d[i].index, d[i].count, d[j].path, d[i].path);
				return -1;
			}
	}
	int N = d[0].count;
	for (int i = 0; i < m->nd; i++)
		if (sweep_folder_is(d[i].dir, d[0].identity, N, err, errlen))
			return -1;
	if (m->nd < N) {
		char missing[256] = "";
		size_t n = 0;
		for (int s = 0, k = 0; s < N && k < 8; s++) {
			int have = 0;
			for (int i = 0; i < m->nd; i++)
				have |= d[i].index == s;
			if (!have) {
				n += (size_t)snprintf(missing + n, sizeof(missing) - n, "%s%d/%d",
						      k ? ", " : "", s, N);
				k++;
			}
		}
		snprintf(err, errlen, "%d of %d shards missing (%s): give every shard's folder",
			 N - m->nd, N, missing);
		return -1;
	}
	return 0;
}

/* the sweep, back from the identity: axes, repeat and points; 0, or -1
 * with err */
static int sweep_of(struct merge *m, char *err, size_t errlen)
{
	const struct shard_desc *d0 = &m->d[0];
	m->idbuf = strdup(d0->identity);
	long points = -1;
	if (!m->idbuf) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	struct sweep_opts *o = &m->o;
	for (char *line = m->idbuf, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!strncmp(line, "vary = ", 7)) {
			if (o->naxes == SWEEP_MAX_AXES ||
			    sweep_parse_vary(line + 7, &o->axes[o->naxes], err, errlen)) {
				if (!err[0])
					snprintf(err, errlen, "%s: too many vary lines", d0->path);
				return -1;
			}
			o->naxes++;
		} else if (!strncmp(line, "repeat = ", 9)) {
			o->repeat = atoi(line + 9);
		} else if (!strncmp(line, "points = ", 9)) {
			points = atol(line + 9);
		}
	}
	m->npoints = 1;
	for (int a = 0; a < o->naxes; a++)
		m->npoints *= o->axes[a].n;
	m->R = sweep_repeats(o);
	if (points != m->npoints || m->R > SWEEP_MAX_REPEAT || m->npoints > SWEEP_MAX_POINTS) {
		snprintf(err, errlen, "%s: the points line does not match the vary lines",
			 d0->path);
		return -1;
	}
	m->ntasks = (int)m->npoints * m->R;
	return 0;
}

/* the run lines of each description: each a run of its shard, once, with
 * a status; into m->status.  0, or -1 with err */
static int check_runs(struct merge *m, char *err, size_t errlen)
{
	for (int i = 0; i < m->nd; i++)
		for (int r = 0; r < m->d[i].nruns; r++) {
			const struct shard_desc *d = &m->d[i];
			int t = d->task[r], st = d->status[r];
			const char *why = t < 0 || t >= m->ntasks ? "no such run in the sweep"
					  : m->owner[t] != i	   ? "a run of another shard"
					  : m->status[t] >= 0	   ? "given twice"
					  : st < 0		   ? "not an exit status"
								   : NULL;
			if (why) {
				snprintf(err, errlen,
					 "%s: 'run = %d %d': %s (the sweep has %d runs): not the "
					 "description a shard writes",
					 d->path, t, st, why, m->ntasks);
				return -1;
			}
			m->status[t] = st;
		}
	return 0;
}

/* every run that is listed in sweep.csv has a whole summary.csv; 0, or -1
 * with err naming the point */
static int check_summaries(const struct merge *m, char *err, size_t errlen)
{
	int R = m->R;
	for (int t = 0; t < m->ntasks; t++) {
		char dir[SWEEP_PATH_BYTES], why[2 * SWEEP_PATH_BYTES], label[512];
		if (m->status[t] != RUN_OK)
			continue;
		sweep_task_dir(m->d[m->owner[t]].dir, R, t, dir, sizeof(dir));
		if (!sweep_check_summary(dir, why, sizeof(why)))
			continue;
		sweep_point_label(&m->o, t / R, label, sizeof(label));
		snprintf(err, errlen,
			 "point %d (%s)%s, which shard %d/%d says ended: %s; run the shard again "
			 "with --resume",
			 t / R, label, R > 1 ? (t % R ? ", a repeat," : ", repeat 0,") : "",
			 m->d[m->owner[t]].index, m->d[0].count, why);
		return -1;
	}
	return 0;
}

/* each task's shard and the status its shard reports; then every run
 * ended: done, or failed as a single sweep would report.  0, or -1 with
 * err */
static int gather_runs(struct merge *m, char *err, size_t errlen)
{
	int R = m->R, N = m->d[0].count;
	m->status = malloc((size_t)m->ntasks * sizeof(*m->status));
	m->owner = malloc((size_t)m->ntasks * sizeof(*m->owner));
	if (!m->status || !m->owner) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int t = 0; t < m->ntasks; t++) {
		m->status[t] = -1;
		m->owner[t] = -1;
		for (int i = 0; i < m->nd; i++)
			if ((t / R) % N == m->d[i].index)
				m->owner[t] = i;
	}
	if (check_runs(m, err, errlen))
		return -1;
	for (int t = 0; t < m->ntasks; t++) {
		int st = m->status[t];
		if (st == RUN_OK || st == RUN_INVARIANT || st == RUN_EIO)
			continue;
		const struct shard_desc *s = &m->d[m->owner[t]];
		char label[512];
		sweep_point_label(&m->o, t / R, label, sizeof(label));
		snprintf(err, errlen,
			 "point %d (%s)%s of shard %d/%d (%s) did not %s: finish the "
			 "shard with its sweep command and --resume",
			 t / R, label, R > 1 ? (t % R ? ", a repeat," : ", repeat 0,") : "",
			 s->index, N, s->path, st < 0 ? "run" : "end (interrupted or killed)");
		return -1;
	}
	return 0;
}

/* out_dir with a link to each point that ran elsewhere, and sweep.csv;
 * the worst status of a run, or -1 with err */
static int write_merged(struct merge *m, int *failed, int *unjudged, char *err, size_t errlen)
{
	const char *out_dir = m->o.out_dir;
	if (output_mkdir_p(out_dir)) {
		snprintf(err, errlen, "%s: cannot create the output directory: %s", out_dir,
			 strerror(errno));
		return -1;
	}
	int worst = RUN_OK, R = m->R;
	for (int p = 0; p < m->npoints; p++) {
		if (link_point(m->d[m->owner[p * R]].dir, out_dir, p, err, errlen))
			return -1;
		for (int k = 0; k < R; k++)
			if (m->status[p * R + k] == RUN_INVARIANT ||
			    (m->status[p * R + k] == RUN_EIO && worst == RUN_OK))
				worst = m->status[p * R + k];
	}
	if (sweep_write_csv(&m->o, (int)m->npoints, m->status, failed, unjudged, err, errlen))
		return -1;
	return worst;
}

/* the first run that ended with status st, and its reason, into err */
static void merge_failure(const struct merge *m, int st, char *err, size_t errlen)
{
	int R = m->R, t = 0;
	while (t < m->ntasks - 1 && m->status[t] != st)
		t++;
	char label[512], dir[SWEEP_PATH_BYTES], reason[SWEEP_LINE_BYTES];
	sweep_point_label(&m->o, t / R, label, sizeof(label));
	sweep_task_dir(m->d[m->owner[t]].dir, R, t, dir, sizeof(dir));
	sweep_run_error(dir, reason, sizeof(reason));
	snprintf(err, errlen, "point %d (%s)%s %s: %s (%s/error.txt)", t / R, label,
		 R > 1 ? (t % R ? ", a repeat," : ", repeat 0,") : "",
		 st == RUN_INVARIANT ? "broke an invariant" : "failed",
		 reason[0] ? reason : "it left no reason", dir);
}

int sweep_merge(const char *const *dirs, int ndirs, const char *out_dir, int *failed,
		int *unjudged, char *err, size_t errlen)
{
	struct merge m = {.d = calloc(SWEEP_MAX_MERGE, sizeof(*m.d)), .o = {.out_dir = out_dir}};
	int rc = RUN_EIO;
	*failed = *unjudged = 0;
	err[0] = '\0';
	if (!m.d) {
		snprintf(err, errlen, "out of memory");
		return RUN_EIO;
	}
	if (!read_dirs(&m, dirs, ndirs, err, errlen) && !check_shards(&m, err, errlen) &&
	    !sweep_of(&m, err, errlen) && !gather_runs(&m, err, errlen) &&
	    !check_summaries(&m, err, errlen)) {
		int worst = write_merged(&m, failed, unjudged, err, errlen);
		if (worst >= 0)
			rc = worst;
		if (worst == RUN_INVARIANT || worst == RUN_EIO)
			merge_failure(&m, worst, err, errlen);
	}
	for (int i = 0; i < m.nd; i++)
		free_shard(&m.d[i]);
	free(m.d);
	free(m.idbuf);
	free(m.status);
	free(m.owner);
	return rc;
}
