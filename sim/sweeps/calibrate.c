/*
 * calibrate.c - the value grids and the margins of `dcqcn-sim calibrate`
 * (see calibrate.h); the search is in calibrate_search.c.
 *
 * Choices:
 * - A grid's unit comes from its values' unit (KB: a size, us: a time,
 *   Mbps: a rate, %: a fraction, none: a plain number, which the loader
 *   reads in the key's own bare unit, e.g. Mbps for dcqcn.rpg_ai_rate).
 *   The loader checks every value against the key when a point loads.
 */
#include "sim/sweeps/calibrate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/base/units.h"
#include "models/scenario/keyhelp.h"
#include "sim/sweeps/internal.h"

const char *const cal_criterion_names[CAL_N_CRITERIA] = {
	[CAL_NONE] = "none",
	[CAL_BUSBW] = "min_busbw_pct_line",
	[CAL_ECN] = "max_ecn_mark_pct",
	[CAL_PAUSE] = "max_pause_frame_rate",
	[CAL_RETRANS] = "max_retransmitted_pct",
	[CAL_LOSSLESS_DROPS] = "max_lossless_drops",
	[CAL_DROPS] = "max_drops",
	[CAL_UNFINISHED] = "unfinished",
	[CAL_RUN_FAILED] = "run_failed",
};

/* ---- values and grids ---- */

int cal_parse_value(const char *s, enum cal_unit *u, int64_t *v, char *err, size_t errlen)
{
	char why[128];
	size_t n = strlen(s);
	if (n && strspn(s, "0123456789") == n) { /* digits alone: the key's bare unit */
		*u = CAL_PLAIN;
		if (units_parse_int(s, 0, INT64_MAX / 4, v, why, sizeof(why)) == 0)
			return 0;
	} else if (n && s[n - 1] == '%') {
		*u = CAL_FRACTION;
		if (units_parse_fraction(s, v, why, sizeof(why)) == 0)
			return 0;
	} else if (units_parse_size(s, v, why, sizeof(why)) == 0) {
		*u = CAL_SIZE;
		return 0;
	} else if (units_parse_rate(s, v, why, sizeof(why)) == 0) {
		*u = CAL_RATE;
		return 0;
	} else if (units_parse_time(s, v, why, sizeof(why)) == 0) {
		*u = CAL_TIME;
		return 0;
	} else if (units_parse_int(s, 0, INT64_MAX / 4, v, why, sizeof(why)) == 0) {
		*u = CAL_PLAIN;
		return 0;
	}
	snprintf(err, errlen, "%s: not a size, time, rate, percentage or whole number", s);
	return -1;
}

char *cal_format_value(enum cal_unit u, int64_t v, char *buf, size_t len)
{
	switch (u) {
	case CAL_SIZE:
		return units_format_size(v, buf, len);
	case CAL_TIME:
		return units_format_time(v, buf, len);
	case CAL_RATE:
		return units_format_rate(v, buf, len);
	case CAL_FRACTION:
		return units_format_fraction(v, buf, len);
	case CAL_PLAIN:
		break;
	}
	snprintf(buf, len, "%lld", (long long)v);
	return buf;
}

/* v rounded to 3 significant digits */
static int64_t round3(int64_t v)
{
	int64_t p = 1;
	while (v / p >= 1000)
		p *= 10;
	return (v + p / 2) / p * p;
}

static int add_value(struct cal_key *k, int64_t v, char *err, size_t errlen)
{
	if (k->n && v <= k->base[k->n - 1])
		return 0; /* rounding met the last value */
	if (k->n == CAL_MAX_VALUES) {
		snprintf(err, errlen, "--tune %s: more than %d values; take a larger step", k->key,
			 CAL_MAX_VALUES);
		return -1;
	}
	k->base[k->n] = v;
	cal_format_value(k->unit, v, k->text[k->n], sizeof(k->text[0]));
	k->n++;
	return 0;
}

int calibrate_parse_tune(const char *arg, struct cal_key *k, char *err, size_t errlen)
{
	const char *eq = strchr(arg, '=');
	memset(k, 0, sizeof(*k));
	if (!eq || eq == arg || !strchr(arg, '.') || strchr(arg, '.') > eq ||
	    (size_t)(eq - arg) >= sizeof(k->key)) {
		snprintf(err, errlen, "--tune %s: expected section.key=LO:HI[:STEP]", arg);
		return -1;
	}
	memcpy(k->key, arg, (size_t)(eq - arg));
	char why[512];
	if (scenario_key_known(k->key, why, sizeof(why))) {
		snprintf(err, errlen, "--tune %s", why);
		return -1;
	}
	char spec[128], *lo = spec, *hi, *step;
	snprintf(spec, sizeof(spec), "%s", eq + 1);
	hi = strchr(lo, ':');
	if (!hi) {
		snprintf(err, errlen, "--tune %s: expected LO:HI[:STEP] after '='", arg);
		return -1;
	}
	*hi++ = '\0';
	step = strchr(hi, ':');
	if (step)
		*step++ = '\0';
	enum cal_unit ulo, uhi;
	int64_t vlo, vhi;
	char e[160];
	if (cal_parse_value(lo, &ulo, &vlo, e, sizeof(e)) ||
	    cal_parse_value(hi, &uhi, &vhi, e, sizeof(e))) {
		snprintf(err, errlen, "--tune %s: %s", k->key, e);
		return -1;
	}
	if (ulo != uhi) {
		snprintf(err, errlen, "--tune %s: %s and %s are not in the same unit", k->key, lo, hi);
		return -1;
	}
	if (vhi < vlo) {
		snprintf(err, errlen, "--tune %s: %s is below %s", k->key, hi, lo);
		return -1;
	}
	k->unit = ulo;
	double factor = 2;
	int64_t amount = 0;
	if (step && (step[0] == 'x' || step[0] == '*')) {
		char *end;
		factor = strtod(step + 1, &end);
		if (*end || !(factor > 1.0001) || factor > 1000) {
			snprintf(err, errlen, "--tune %s: step %s: a factor above 1, e.g. x2", k->key,
				 step);
			return -1;
		}
	} else if (step) {
		enum cal_unit us;
		if (cal_parse_value(step, &us, &amount, e, sizeof(e)) || us != ulo || amount <= 0) {
			snprintf(err, errlen,
				 "--tune %s: step %s: xF (a factor) or an amount in the unit of %s",
				 k->key, step, lo);
			return -1;
		}
	}
	if (!amount && vlo <= 0) {
		snprintf(err, errlen, "--tune %s: a geometric grid starts above 0 (or give a step "
			 "amount, e.g. %s:%s:%s)", k->key, lo, hi, hi);
		return -1;
	}
	for (double v = (double)vlo; v <= (double)vhi * (1 + 1e-9);
	     v = amount ? v + (double)amount : v * factor) {
		int64_t x = amount ? (int64_t)llround(v) : round3((int64_t)llround(v));
		if (x > vhi)
			x = vhi;
		if (add_value(k, x, err, errlen))
			return -1;
	}
	if (k->base[k->n - 1] < vhi && add_value(k, vhi, err, errlen))
		return -1;
	return 0;
}

int calibrate_default_keys(struct cal_key *keys)
{
	static const char *const defaults[] = {
		"ecn.kmin=50KB:3.2MB:x2",	  "ecn.kmax=400KB:12.8MB:x2",
		"ecn.pmax=1%:32%:x2",		  "dcqcn.rpg_ai_rate=5:1280:x4",
		"dcqcn.rpg_time_reset=25:800:x2", "dcqcn.min_time_between_cnps=1:64:x4",
	};
	int n = 0;
	char err[256];
	for (size_t i = 0; i < sizeof(defaults) / sizeof(defaults[0]); i++)
		if (calibrate_parse_tune(defaults[i], &keys[n], err, sizeof(err)) == 0)
			n++;
	return n;
}

double calibrate_grid_points(const struct cal_key *keys, int nkeys)
{
	double g = 1;
	for (int k = 0; k < nkeys; k++)
		g *= keys[k].n;
	return g;
}

/* ---- margins ---- */

/* (limit - v) / limit, a limit of 0 counting as one unit */
static double ceiling_margin(double v, double limit)
{
	return (limit - v) / (limit > 0 ? limit : 1);
}

static double hard_margin(int64_t v, int64_t limit)
{
	return -(double)(v - limit) / (double)(limit > 0 ? limit : 1) - 1;
}

double calibrate_margin(const struct cal_run *r, const struct cal_limits *l,
			enum cal_criterion *binding, double *each)
{
	for (int c = 0; each && c < CAL_N_CRITERIA; c++)
		each[c] = INFINITY;
	if (!r->ran || !r->judged || r->jobs_failed) {
		/* ranked by how far the run got; a failed run below them all */
		double got = fmin(fmax(r->progress, 0), 0.999);
		double m = r->ran ? CAL_MARGIN_UNFINISHED + got : CAL_MARGIN_UNFINISHED - 1;
		*binding = r->ran ? CAL_UNFINISHED : CAL_RUN_FAILED;
		if (each)
			each[*binding] = m;
		return m;
	}
	double m = INFINITY;
	*binding = CAL_NONE;
#define TAKE(c, v)                    \
	do {                          \
		double v_ = (v);      \
		if (each)             \
			each[c] = v_; \
		if (v_ < m) {         \
			m = v_;       \
			*binding = c; \
		}                     \
	} while (0)
	if (r->drops_lossless > l->max_lossless_drops)
		TAKE(CAL_LOSSLESS_DROPS, hard_margin(r->drops_lossless, l->max_lossless_drops));
	if (r->drops > l->max_drops)
		TAKE(CAL_DROPS, hard_margin(r->drops, l->max_drops));
	if (r->has_busbw && l->min_busbw_pct > 0)
		TAKE(CAL_BUSBW, (r->busbw_pct - l->min_busbw_pct) / l->min_busbw_pct);
	TAKE(CAL_ECN, ceiling_margin(r->ecn_mark_pct, l->max_ecn_mark_pct));
	if (l->max_pause_frame_rate >= 0)
		TAKE(CAL_PAUSE, ceiling_margin(r->pause_frame_rate, l->max_pause_frame_rate));
	TAKE(CAL_RETRANS, ceiling_margin(r->retransmitted_pct, l->max_retransmitted_pct));
#undef TAKE
	return m;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int calibrate_better(const struct cal_score *a, const struct cal_score *b)
{
	if (!a->valid)
		return 0;
	if (!b->valid)
		return 1;
	if (a->pass != b->pass)
		return a->pass > b->pass;
	if (a->pass && a->warnings != b->warnings)
		return a->warnings < b->warnings;
	/* the criteria's margins from the smallest up: the first that differs
	 * by more than rounding decides (equal smallest margins are common:
	 * busbw at its ceiling) */
	double x[CAL_N_CRITERIA], y[CAL_N_CRITERIA];
	memcpy(x, a->crit, sizeof(x));
	memcpy(y, b->crit, sizeof(y));
	x[0] = a->margin;
	y[0] = b->margin;
	qsort(x + 1, CAL_N_CRITERIA - 1, sizeof(double), cmp_double);
	qsort(y + 1, CAL_N_CRITERIA - 1, sizeof(double), cmp_double);
	for (int i = 0; i < CAL_N_CRITERIA; i++) {
		if (isinf(x[i]) && isinf(y[i]))
			break;
		if (fabs(x[i] - y[i]) > 1e-6)
			return x[i] > y[i];
	}
	return 0;
}
