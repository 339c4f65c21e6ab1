/*
 * nccltests_opts.c - the options of `dcqcn-sim nccl-tests` (nccltests.h):
 * their defaults (nccl-tests' where it has one), the test's name, sizes as
 * nccl-tests reads -b, -e and -i, the sequence of sizes, and the options
 * checked against each other before any scenario is read.
 */
#include "sim/sweeps/nccltests.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sim/sweeps/internal.h"

#define DEFAULT_BYTES (INT64_C(32) << 20) /* nccl-tests' -b and -e */

void nccltests_defaults(struct nccltests_opts *o)
{
	*o = (struct nccltests_opts){.coll = NCCLTESTS_ALL_REDUCE,
				     .min_bytes = DEFAULT_BYTES,
				     .max_bytes = DEFAULT_BYTES,
				     .step_factor = 2,
				     .iters = 1,
				     .warmup = 1,
				     .jobs = 1};
}

int nccltests_coll_of(const char *name, enum nccltests_coll *coll)
{
	if (!strcmp(name, "all_reduce_perf"))
		*coll = NCCLTESTS_ALL_REDUCE;
	else if (!strcmp(name, "all_to_all_perf") || !strcmp(name, "alltoall_perf"))
		*coll = NCCLTESTS_ALL_TO_ALL;
	else
		return -1;
	return 0;
}

/* exactly, in integers: the whole part, up to 9 decimals, the binary unit;
 * truncated to bytes as nccl-tests' (size_t) cast does */
int nccltests_parse_size(const char *s, int64_t *bytes)
{
	uint64_t whole = 0, frac = 0, scale = 1, unit = 1;
	int digits = 0;
	const char *p = s;
	for (; *p >= '0' && *p <= '9'; p++, digits++) {
		if (whole > (uint64_t)NCCLTESTS_MAX_BYTES)
			return -1;
		whole = whole * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++, digits++)
			if (scale < UINT64_C(1000000000)) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				scale *= 10;
			}
	if (!digits)
		return -1;
	const char *units = "kmg", *u = *p ? strchr(units, *p | 0x20) : NULL;
	if (u) { /* K, M, G (either case): 2^10, 2^20, 2^30 */
		unit = UINT64_C(1) << (10 * (u - units + 1));
		p++;
	}
	if (*p || whole > (uint64_t)NCCLTESTS_MAX_BYTES / unit)
		return -1;
	uint64_t b = whole * unit + frac * unit / scale; /* frac x unit < 2^60 */
	if (b < 1 || b > (uint64_t)NCCLTESTS_MAX_BYTES)
		return -1;
	*bytes = (int64_t)b;
	return 0;
}

/* nccl-tests' next size: times the factor, or plus the step; 0 past max */
int64_t nccltests_next_size(const struct nccltests_opts *o, int64_t size)
{
	if (o->step_factor > 1)
		return size > o->max_bytes / o->step_factor ? 0 : size * o->step_factor;
	return size > o->max_bytes - o->step_bytes ? 0 : size + o->step_bytes;
}

int nccltests_count_sizes(const struct nccltests_opts *o)
{
	int n = 0;
	for (int64_t s = o->min_bytes; s && s <= o->max_bytes && n <= NCCLTESTS_MAX_SIZES;
	     s = nccltests_next_size(o, s))
		n++;
	return n;
}

/* "job.nccl-tests.KEY" of an assignment, KEY into key; 0 when it is not one */
int nccltests_job_key(const char *assign, char *key, size_t len)
{
	static const char prefix[] = "job." NCCLTESTS_JOB ".";
	while (*assign == ' ' || *assign == '\t')
		assign++;
	if (strncmp(assign, prefix, sizeof(prefix) - 1))
		return 0;
	const char *k = assign + sizeof(prefix) - 1, *e = strchr(k, '=');
	size_t n = e ? (size_t)(e - k) : strlen(k);
	while (n && (k[n - 1] == ' ' || k[n - 1] == '\t'))
		n--;
	snprintf(key, len, "%.*s", (int)n, k);
	return 1;
}

int nccltests_check_opts(const struct nccltests_opts *o, char *err, size_t errlen)
{
	static const char *const given[][2] = {
	    {"pattern", "the test (all_reduce_perf or all_to_all_perf)"},
	    {"ranks", "-g (GPUs h0 to hGPUS-1)"},
	    {"size", "-b, -e and -f or -i (one size per run)"},
	    {"iterations", "-w and -n (warm-up + 2 x iterations)"},
	};
	if (o->max_bytes < o->min_bytes) {
		snprintf(err, errlen, "-e: %" PRId64 " is below -b (%" PRId64 ")%s", o->max_bytes,
			 o->min_bytes,
			 o->max_bytes == DEFAULT_BYTES ? " (-e defaults to 32M)" : "");
		return -1;
	}
	int n = nccltests_count_sizes(o);
	if (n > NCCLTESTS_MAX_SIZES) {
		snprintf(err, errlen,
			 "%s: more than %d sizes from -b %" PRId64 " to -e %" PRId64
			 " (a larger %s)",
			 o->step_factor > 1 ? "-f" : "-i", NCCLTESTS_MAX_SIZES, o->min_bytes,
			 o->max_bytes, o->step_factor > 1 ? "factor" : "step");
		return -1;
	}
	for (int i = 0; i < o->nsets; i++) {
		char key[128];
		if (o->alone &&
		    (!strncmp(o->sets[i], "job.", 4) || !strncmp(o->sets[i], "fault.", 6)) &&
		    !nccltests_job_key(o->sets[i], key, sizeof(key))) {
			snprintf(err, errlen,
				 "--set %s: --alone leaves the scenario's jobs and faults "
				 "out (only job.%s.* applies)",
				 o->sets[i], NCCLTESTS_JOB);
			return -1;
		}
		if (!nccltests_job_key(o->sets[i], key, sizeof(key)))
			continue;
		for (size_t k = 0; k < sizeof(given) / sizeof(given[0]); k++)
			if (!strcmp(key, given[k][0])) {
				snprintf(err, errlen, "--set job.%s.%s: given by %s", NCCLTESTS_JOB,
					 key, given[k][1]);
				return -1;
			}
	}
	return 0;
}
