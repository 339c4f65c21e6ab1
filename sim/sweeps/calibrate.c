/*
 * calibrate.c - the threshold search of `dcqcn-sim calibrate` (see
 * calibrate.h): the value grids, the margins and the coordinate search.
 * The search takes its evaluator as a callback (calibrate_eval.c runs
 * points as sweeps; test_calibrate.c gives its own).
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
	if (n && s[n - 1] == '%') {
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
		*binding = r->ran ? CAL_UNFINISHED : CAL_RUN_FAILED;
		if (each)
			each[*binding] = CAL_MARGIN_UNFINISHED;
		return CAL_MARGIN_UNFINISHED;
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

/* ---- the search ---- */

int cal_find_point(const struct cal_outcome *o, const int *idx, int nkeys)
{
	for (int i = 0; i < o->npoints; i++)
		if (!memcmp(o->points[i].idx, idx, sizeof(int) * (size_t)nkeys))
			return i;
	return -1;
}

static int add_point(struct cal_outcome *o, const int *idx, int round)
{
	if (o->npoints == o->cap) {
		int cap = o->cap ? 2 * o->cap : 64;
		struct cal_point *p = realloc(o->points, sizeof(*p) * (size_t)cap);
		if (!p)
			return -1;
		o->points = p;
		o->cap = cap;
	}
	struct cal_point *p = &o->points[o->npoints];
	memset(p, 0, sizeof(*p));
	memcpy(p->idx, idx, sizeof(p->idx));
	p->round = round;
	return o->npoints++;
}

const char *const cal_phase_names[CAL_MAX_ROUNDS + 3] = { [CAL_MAX_ROUNDS + 1] = "plane",
							   [CAL_MAX_ROUNDS + 2] = "neighbours" };

/*
 * The values vals[0..nv) of key k through base that have not been seen,
 * evaluated as one line (round: the search's round, or a later phase).
 * 0, or -1 on an error.
 */
static int eval_values(const struct cal_search *s, struct cal_outcome *o, const int *base, int k,
		       const int *vals, int nv, int round, char *err, size_t errlen)
{
	int idx[CAL_MAX_VALUES][CAL_MAX_KEYS];
	int n = 0;
	int varying[CAL_MAX_KEYS] = {0};
	varying[k] = 1;
	for (int i = 0; i < nv; i++) {
		int at[CAL_MAX_KEYS];
		memcpy(at, base, sizeof(at));
		at[k] = vals[i];
		if (cal_find_point(o, at, s->nkeys) >= 0)
			continue;
		memcpy(idx[n], at, sizeof(at));
		n++;
	}
	if (!n)
		return 0;
	struct cal_score sc[CAL_MAX_VALUES];
	memset(sc, 0, sizeof(sc));
	if (s->log && round <= CAL_MAX_ROUNDS)
		fprintf(s->log, "calibrate: round %d, %s: %d value%s\n", round, s->keys[k].key, n,
			n == 1 ? "" : "s");
	else if (s->log)
		fprintf(s->log, "calibrate: %s, %s: %d value%s\n", cal_phase_names[round],
			s->keys[k].key, n, n == 1 ? "" : "s");
	if (s->eval(s->ctx, n, (const int(*)[CAL_MAX_KEYS])idx, varying, sc, err, errlen))
		return -1;
	for (int i = 0; i < n; i++) {
		int slot = add_point(o, idx[i], round);
		if (slot < 0) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		o->points[slot].score = sc[i];
		o->runs += sc[i].runs;
	}
	return 0;
}

int cal_search_line(const struct cal_search *s, struct cal_outcome *o, const int *base, int k,
		    int round, int *best, char *err, size_t errlen)
{
	int vals[CAL_MAX_VALUES];
	for (int v = 0; v < s->keys[k].n; v++)
		vals[v] = v;
	if (eval_values(s, o, base, k, vals, s->keys[k].n, round, err, errlen))
		return -1;
	int moved = 0;
	for (int v = 0; v < s->keys[k].n; v++) {
		int at[CAL_MAX_KEYS];
		memcpy(at, base, sizeof(at));
		at[k] = v;
		int p = cal_find_point(o, at, s->nkeys);
		if (p >= 0 && p != *best && calibrate_better(&o->points[p].score,
							     &o->points[*best].score)) {
			*best = p;
			moved = 1;
		}
	}
	return moved;
}

/*
 * The one-step neighbours of point c (each key one grid value up and down)
 * evaluated; their count (those the loader takes), how many pass, and the
 * weakest of them into *weakest (-1: none).  -1 on an error.
 */
static int neighbours(const struct cal_search *s, struct cal_outcome *o, int c, int *npass,
		      int *weakest, char *err, size_t errlen)
{
	int base[CAL_MAX_KEYS];
	memcpy(base, o->points[c].idx, sizeof(base));
	for (int k = 0; k < s->nkeys; k++) {
		int vals[2], nv = 0;
		if (base[k] > 0)
			vals[nv++] = base[k] - 1;
		if (base[k] + 1 < s->keys[k].n)
			vals[nv++] = base[k] + 1;
		if (eval_values(s, o, base, k, vals, nv, CAL_MAX_ROUNDS + 2, err, errlen))
			return -1;
	}
	int n = 0;
	*npass = 0;
	*weakest = -1;
	for (int k = 0; k < s->nkeys; k++)
		for (int d = -1; d <= 1; d += 2) {
			int at[CAL_MAX_KEYS];
			memcpy(at, base, sizeof(at));
			at[k] += d;
			if (at[k] < 0 || at[k] >= s->keys[k].n)
				continue;
			int p = cal_find_point(o, at, s->nkeys);
			if (p < 0 || !o->points[p].score.valid)
				continue;
			n++;
			*npass += o->points[p].score.pass;
			if (*weakest < 0 ||
			    calibrate_better(&o->points[*weakest].score, &o->points[p].score))
				*weakest = p;
		}
	return n;
}

/* the passing points, best first (at most max), into c; how many */
static int top_passing(const struct cal_outcome *o, int *c, int max)
{
	int n = 0;
	for (int i = 0; i < o->npoints; i++) {
		if (!o->points[i].score.valid || !o->points[i].score.pass)
			continue;
		int at = n < max ? n++ : max;
		while (at > 0 && calibrate_better(&o->points[i].score, &o->points[c[at - 1]].score)) {
			if (at < max)
				c[at] = c[at - 1];
			at--;
		}
		if (at < max)
			c[at] = i;
	}
	return n;
}

/* a one-step neighbour of point c already run fails */
static int known_fragile(const struct cal_search *s, const struct cal_outcome *o, int c)
{
	for (int k = 0; k < s->nkeys; k++)
		for (int d = -1; d <= 1; d += 2) {
			int at[CAL_MAX_KEYS];
			memcpy(at, o->points[c].idx, sizeof(at));
			at[k] += d;
			if (at[k] < 0 || at[k] >= s->keys[k].n)
				continue;
			int p = cal_find_point(o, at, s->nkeys);
			if (p >= 0 && o->points[p].score.valid && !o->points[p].score.pass)
				return 1;
		}
	return 0;
}

/*
 * The best (c[0]) fails one step along key k toward the point weak: the
 * other candidates c[1..nc) that stand on the far side of the best along
 * k come first (in their order), then the rest: the cliff is nearest to
 * those that share the best's value of k.
 */
static void away_from(const struct cal_search *s, const struct cal_outcome *o, int *c, int nc,
		      int weak)
{
	const int *b = o->points[c[0]].idx, *w = o->points[weak].idx;
	int k = 0;
	while (k < s->nkeys - 1 && w[k] == b[k])
		k++;
	int toward = w[k] > b[k] ? 1 : -1;
	int sorted[CAL_ROBUST_TOP], n = 0;
	for (int pass = 0; pass < 2; pass++)
		for (int i = 1; i < nc; i++) {
			int d = o->points[c[i]].idx[k] - b[k];
			if ((d * toward < 0) == !pass)
				sorted[n++] = c[i];
		}
	memcpy(c + 1, sorted, sizeof(int) * (size_t)n);
}

/*
 * Robustness: the recommendation is the best passing point whose every
 * one-step neighbour passes.  The best's neighbours are always run (it is
 * the answer when no candidate is robust); of the next best (up to
 * CAL_ROBUST_TOP), those on the far side of the best's failing neighbour
 * come first, those with a neighbour already seen failing are passed over
 * without a run, and the others' neighbours run, at most
 * CAL_ROBUST_CANDIDATES candidates in all.  0, or -1 on an error.
 */
static int choose_robust(const struct cal_search *s, struct cal_outcome *o, int *best, char *err,
			 size_t errlen)
{
	int c[CAL_ROBUST_TOP];
	int nc = top_passing(o, c, CAL_ROBUST_TOP);
	o->neighbours = o->neighbours_pass = 0;
	o->weakest = -1;
	for (int i = 0, tried = 0; i < nc && tried < CAL_ROBUST_CANDIDATES; i++) {
		if (i > 0 && known_fragile(s, o, c[i]))
			continue;
		tried++;
		int npass, weakest;
		int n = neighbours(s, o, c[i], &npass, &weakest, err, errlen);
		if (n < 0)
			return -1;
		if (i == 0 || npass == n) {
			*best = c[i];
			o->neighbours = n;
			o->neighbours_pass = npass;
			o->weakest = weakest;
		}
		if (npass == n)
			break;
		if (i == 0 && weakest >= 0)
			away_from(s, o, c, nc, weakest);
	}
	return 0;
}

int calibrate_search(const struct cal_search *s, struct cal_outcome *o, char *err,
		     size_t errlen)
{
	memset(o, 0, sizeof(*o));
	o->runner_up = -1;
	int start[CAL_MAX_KEYS] = {0};
	memcpy(start, s->start, sizeof(int) * (size_t)s->nkeys);
	/* the start alone first: a line of one value */
	int varying[CAL_MAX_KEYS] = {0};
	struct cal_score sc;
	memset(&sc, 0, sizeof(sc));
	if (s->eval(s->ctx, 1, (const int(*)[CAL_MAX_KEYS])start, varying, &sc, err, errlen))
		return -1;
	if (add_point(o, start, 0) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	o->points[0].score = sc;
	o->runs += sc.runs;
	int best = 0;
	for (int round = 1; round <= CAL_MAX_ROUNDS; round++) {
		struct cal_score before = o->points[best].score;
		o->rounds = round;
		for (int k = 0; k < s->nkeys; k++) {
			int base[CAL_MAX_KEYS];
			memcpy(base, o->points[best].idx, sizeof(base));
			if (cal_search_line(s, o, base, k, round, &best, err, errlen) < 0) {
				o->best = best;
				return -1;
			}
		}
		/* another round only when this one gained: a pass, or 0.1 % of
		 * margin (a tie decided by the other criteria moves the point
		 * but is no reason to search again) */
		const struct cal_score *now = &o->points[best].score;
		if (now->valid == before.valid && now->pass == before.pass &&
		    !(now->margin > before.margin + CAL_MIN_GAIN))
			break;
	}
	if (choose_robust(s, o, &best, err, errlen)) {
		o->best = best;
		return -1;
	}
	o->best = best;
	for (int i = 0; i < o->npoints; i++)
		if (i != best && o->points[i].score.valid &&
		    (o->runner_up < 0 ||
		     calibrate_better(&o->points[i].score, &o->points[o->runner_up].score)))
			o->runner_up = i;
	/* influence: the margin's spread along each key's line through the best */
	for (int k = 0; k < s->nkeys; k++) {
		double lo = INFINITY, hi = -INFINITY;
		for (int i = 0; i < o->npoints; i++) {
			const struct cal_point *p = &o->points[i];
			int same = 1;
			for (int j = 0; j < s->nkeys && same; j++)
				same = j == k || p->idx[j] == o->points[best].idx[j];
			if (!same || !p->score.valid)
				continue;
			lo = fmin(lo, p->score.margin);
			hi = fmax(hi, p->score.margin);
		}
		o->influence[k] = hi > lo ? hi - lo : 0;
	}
	return 0;
}

void calibrate_outcome_free(struct cal_outcome *o)
{
	free(o->points);
	o->points = NULL;
	o->npoints = o->cap = 0;
}
