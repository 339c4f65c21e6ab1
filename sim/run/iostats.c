/*
 * iostats.c - storage jobs' I/Os in fio's terms (see iostats.h).
 *
 * A run without a storage job removes an earlier run's storage files.
 *
 * storage.csv has a row per sample interval (output.sample_interval) and
 * storage job in which I/Os completed: time_us (the interval's end), job,
 * ios, iops, bw_MiBps, clat_mean_us, clat_max_us.  The I/Os arrive in order
 * of completion, so an interval's rows are written, job by job, when the
 * first I/O of a later interval arrives (or the run ends).
 */
#include "sim/run/iostats.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "models/base/files.h"
#include "models/base/hist.h"
#include "models/scenario/scenario.h"
#include "models/workload/traffic.h"

#define MIB 1048576.0

struct io_acc {                        /* what one job, or all, did */
	struct hist clat;
	uint64_t ios, reads, bytes;
	sim_time_ps first_ps, last_ps, min_ps, max_ps;
	double sum_ps;
	/* the current interval */
	uint64_t iv_ios, iv_bytes;
	double iv_sum_ps;
	sim_time_ps iv_max_ps;
};

struct iostats {
	const struct scenario *scn;
	int *slot;                     /* per job: its accumulator, -1 not storage */
	struct io_acc *acc;            /* per storage job, then all of them */
	uint32_t n;
	int64_t interval;              /* index of the current interval */
	FILE *csv;                     /* storage.csv, or NULL */
	char dir[4096];
	int oom;
};

static const char *const rw_text[] = { "read", "write", "randrw" };

struct iostats *iostats_new(const struct scenario *scn, const char *out_dir, char *err,
			    size_t errlen)
{
	uint32_t n = 0;
	err[0] = '\0';
	for (uint32_t j = 0; j < scn->njobs; j++)
		n += scn->jobs[j].pattern == SCN_JOB_STORAGE;
	if (!n) { /* no storage: an earlier run's files go */
		for (int k = 0; out_dir && k < 2; k++) {
			char path[4200];
			snprintf(path, sizeof(path), "%s/%s", out_dir,
				 k ? "storage_jobs.csv" : "storage.csv");
			unlink(path);
		}
		return NULL;
	}
	struct iostats *s = calloc(1, sizeof(*s));
	if (!s || !(s->slot = calloc(scn->njobs, sizeof(*s->slot))) ||
	    !(s->acc = calloc(n + 1, sizeof(*s->acc)))) {
		iostats_free(s);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->scn = scn;
	s->n = n;
	for (uint32_t j = 0, k = 0; j < scn->njobs; j++)
		s->slot[j] = scn->jobs[j].pattern == SCN_JOB_STORAGE ? (int)k++ : -1;
	for (uint32_t k = 0; k <= n; k++) {
		hist_init(&s->acc[k].clat);
		s->acc[k].first_ps = -1;
	}
	if (out_dir) {
		char path[4200];
		snprintf(s->dir, sizeof(s->dir), "%s", out_dir);
		snprintf(path, sizeof(path), "%s/storage.csv", out_dir);
		if (!(s->csv = fopen(path, "w"))) {
			snprintf(err, errlen, "%.400s: %s", path, strerror(errno));
			iostats_free(s);
			return NULL;
		}
		fputs("time_us,job,ios,iops,bw_MiBps,clat_mean_us,clat_max_us\n", s->csv);
	}
	return s;
}

/* the current interval's rows, job by job */
static void flush_interval(struct iostats *s)
{
	double secs = (double)s->scn->sample_interval_ps * 1e-12;
	char t[32], m[32], x[32];
	for (uint32_t j = 0; j < s->scn->njobs; j++) {
		if (s->slot[j] < 0)
			continue;
		struct io_acc *a = &s->acc[s->slot[j]];
		if (s->csv && a->iv_ios)
			fprintf(s->csv, "%s,%s,%llu,%.1f,%.3f,%s,%s\n",
				units_format_us((s->interval + 1) * s->scn->sample_interval_ps, t,
						sizeof(t)),
				s->scn->jobs[j].name, (unsigned long long)a->iv_ios,
				(double)a->iv_ios / secs, (double)a->iv_bytes / MIB / secs,
				units_format_us((sim_time_ps)(a->iv_sum_ps / (double)a->iv_ios), m,
						sizeof(m)),
				units_format_us(a->iv_max_ps, x, sizeof(x)));
		a->iv_ios = a->iv_bytes = 0;
		a->iv_sum_ps = 0;
		a->iv_max_ps = 0;
	}
}

static void account(struct iostats *s, struct io_acc *a, const struct traffic_io *io,
		    sim_time_ps clat)
{
	s->oom |= hist_add(&a->clat, clat);
	a->ios++;
	a->reads += io->read;
	a->bytes += (uint64_t)io->bytes;
	if (a->first_ps < 0 || io->submit_ps < a->first_ps)
		a->first_ps = io->submit_ps;
	a->last_ps = io->end_ps;
	a->min_ps = a->ios == 1 || clat < a->min_ps ? clat : a->min_ps;
	a->max_ps = clat > a->max_ps ? clat : a->max_ps;
	a->sum_ps += (double)clat;
	a->iv_ios++;
	a->iv_bytes += (uint64_t)io->bytes;
	a->iv_sum_ps += (double)clat;
	a->iv_max_ps = clat > a->iv_max_ps ? clat : a->iv_max_ps;
}

void iostats_add(struct iostats *s, const struct traffic_io *io)
{
	int64_t k = io->end_ps / s->scn->sample_interval_ps;
	if (k != s->interval) {
		flush_interval(s);
		s->interval = k;
	}
	sim_time_ps clat = io->end_ps - io->submit_ps;
	account(s, &s->acc[s->slot[io->job]], io, clat);
	account(s, &s->acc[s->n], io, clat); /* all of them (its interval is not written) */
}

static void result_of(const struct io_acc *a, const char *job, const char *rw,
		      struct run_storage *r)
{
	*r = (struct run_storage){ .rw = rw, .ios = a->ios, .reads = a->reads, .bytes = a->bytes,
				   .runtime_ps = a->ios ? a->last_ps - a->first_ps : 0,
				   .clat_min_ps = a->ios ? a->min_ps : -1,
				   .clat_max_ps = a->ios ? a->max_ps : -1,
				   .clat_p50_ps = hist_permille(&a->clat, 500),
				   .clat_p99_ps = hist_permille(&a->clat, 990),
				   .clat_p999_ps = hist_permille(&a->clat, 999),
				   .clat_mean_ps = a->ios ? a->sum_ps / (double)a->ios : -1 };
	snprintf(r->job, sizeof(r->job), "%s", job);
}

int iostats_finish(struct iostats *s, struct run_storage *storage, uint32_t *nstorage, char *err,
		   size_t errlen)
{
	flush_interval(s);
	*nstorage = s->n;
	for (uint32_t j = 0; j < s->scn->njobs; j++)
		if (s->slot[j] >= 0)
			result_of(&s->acc[s->slot[j]], s->scn->jobs[j].name,
				  rw_text[s->scn->jobs[j].rw], &storage[s->slot[j]]);
	result_of(&s->acc[s->n], "all", "", &storage[s->n]);
	if (s->oom) {
		snprintf(err, errlen, "out of memory for the storage latencies");
		return -1;
	}
	if (!s->csv)
		return 0;
	int bad = file_close(s->csv) != 0;
	s->csv = NULL;
	char path[4200];
	snprintf(path, sizeof(path), "%s/storage_jobs.csv", s->dir);
	FILE *fp = bad ? NULL : fopen(path, "w");
	if (!fp) {
		snprintf(err, errlen, "%.400s: cannot write: %s",
			 bad ? "storage.csv" : path, strerror(errno));
		return -1;
	}
	fputs("job,rw,ios,reads,writes,bytes,runtime_us,iops,bw_MiBps,clat_min_us,clat_mean_us,"
	      "clat_p50_us,clat_p99_us,clat_p999_us,clat_max_us\n",
	      fp);
	for (uint32_t k = 0; k <= s->n; k++) {
		const struct run_storage *r = &storage[k];
		double secs = (double)r->runtime_ps * 1e-12;
		char a[32], b[32], c[32], d[32], e[32], f[32];
		char g[32];
		fprintf(fp, "%s,%s,%llu,%llu,%llu,%llu,%s,%.1f,%.3f,%s,%s,%s,%s,%s,%s\n", r->job,
			r->rw, (unsigned long long)r->ios, (unsigned long long)r->reads,
			(unsigned long long)(r->ios - r->reads), (unsigned long long)r->bytes,
			units_format_us(r->runtime_ps, a, sizeof(a)),
			secs > 0 ? (double)r->ios / secs : 0, secs > 0 ? (double)r->bytes / MIB / secs : 0,
			r->ios ? units_format_us(r->clat_min_ps, b, sizeof(b)) : "",
			r->ios ? units_format_us((sim_time_ps)r->clat_mean_ps, g, sizeof(g)) : "",
			r->ios ? units_format_us(r->clat_p50_ps, c, sizeof(c)) : "",
			r->ios ? units_format_us(r->clat_p99_ps, d, sizeof(d)) : "",
			r->ios ? units_format_us(r->clat_p999_ps, e, sizeof(e)) : "",
			r->ios ? units_format_us(r->clat_max_ps, f, sizeof(f)) : "");
	}
	if (file_close(fp)) {
		snprintf(err, errlen, "%.400s: cannot write: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

void iostats_free(struct iostats *s)
{
	if (!s)
		return;
	for (uint32_t k = 0; s->acc && k <= s->n; k++)
		hist_free(&s->acc[k].clat);
	if (s->csv)
		fclose(s->csv);
	free(s->acc);
	free(s->slot);
	free(s);
}
