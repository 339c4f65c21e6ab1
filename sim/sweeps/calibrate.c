/*
 * calibrate.c - the threshold search of `dcqcn-sim calibrate` (see
 * calibrate.h): the value grids, the margins, the coordinate search, and
 * the evaluator that runs points as sweeps.
 *
 * Choices:
 * - A grid's unit comes from its values' unit (KB: a size, us: a time,
 *   Mbps: a rate, %: a fraction, none: a plain number, which the loader
 *   reads in the key's own bare unit, e.g. Mbps for dcqcn.rpg_ai_rate).
 *   The loader checks every value against the key when a point loads.
 * - The start is the scenario's own settings: each key's value joins its
 *   grid.  The value is read from what `check` prints, so any key works; a
 *   key printed in another unit than its grid's starts mid-grid.
 * - The seeds are the sweep's last axis (sim.seed = 1..N); with one seed
 *   each scenario keeps its own sim.seed.
 * - Under mpirun (the MPI build) every rank runs the same search: each
 *   sweep spreads its points over the ranks and every rank reads the
 *   sweep.csv rank 0 wrote, so all take the same steps; rank 0 alone writes
 *   calibrate.csv, plane.csv and recommended.ini.
 */
#include "sim/sweeps/calibrate.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/base/units.h"
#include "models/scenario/configs/config.h"
#include "models/scenario/keyhelp.h"
#include "models/scenario/scenario.h"
#include "sim/run/output.h"
#include "sim/run/run.h"
#include "sim/sweeps/sweep.h"

#define LINE_BYTES 8192
#define MAX_COLS 160
#define MAX_SETS 256 /* --set options (as the command line takes) */

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

#define MARGIN_UNFINISHED (-1000.0)

/* ---- values and grids ---- */

/* one value and its unit, by its suffix; 0 or -1 with err */
static int parse_value(const char *s, enum cal_unit *u, int64_t *v, char *err, size_t errlen)
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

static char *format_value(enum cal_unit u, int64_t v, char *buf, size_t len)
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
	format_value(k->unit, v, k->text[k->n], sizeof(k->text[0]));
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
	if (parse_value(lo, &ulo, &vlo, e, sizeof(e)) || parse_value(hi, &uhi, &vhi, e, sizeof(e))) {
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
		if (parse_value(step, &us, &amount, e, sizeof(e)) || us != ulo || amount <= 0) {
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
			each[*binding] = MARGIN_UNFINISHED;
		return MARGIN_UNFINISHED;
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

static int find_point(const struct cal_outcome *o, const int *idx, int nkeys)
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

static const char *const phase_names[] = { [CAL_MAX_ROUNDS + 1] = "plane",
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
		if (find_point(o, at, s->nkeys) >= 0)
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
		fprintf(s->log, "calibrate: %s, %s: %d value%s\n", phase_names[round],
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

/*
 * Every value of key k through base, the ones not seen evaluated; then
 * *best moves to the best point of the line.  Returns 1 when it moved, 0
 * when not, -1 on an error.
 */
static int search_line(const struct cal_search *s, struct cal_outcome *o, const int *base, int k,
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
		int p = find_point(o, at, s->nkeys);
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
			int p = find_point(o, at, s->nkeys);
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
			int p = find_point(o, at, s->nkeys);
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
			if (search_line(s, o, base, k, round, &best, err, errlen) < 0) {
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

/* ---- the evaluator: points as sweeps ---- */

struct cal_ctx {
	const struct calibrate_opts *o;
	int nscn;
	const char *files[CAL_MAX_SCENARIOS];  /* NULL: the embedded default */
	char labels[CAL_MAX_SCENARIOS][48];
	struct cal_limits limits[CAL_MAX_SCENARIOS];
	int busbw_mean[CAL_MAX_SCENARIOS];     /* criteria.busbw_stat = mean */
	int batch;
	int interrupted;
	int own_start;                         /* the start is the scenario's own settings */
};

/* scenario file (NULL: the default) with the configurations, sets and then
 * assigns, finalized; NULL with err */
static struct scenario *load_with(const struct calibrate_opts *o, const char *file,
				  char (*assigns)[96], int nassigns, struct scn_error *err)
{
	const char *all[MAX_SETS + CAL_MAX_KEYS];
	int n = 0;
	for (int i = 0; i < o->nsets && n < MAX_SETS; i++)
		all[n++] = o->sets[i];
	for (int i = 0; i < nassigns; i++)
		all[n++] = assigns[i];
	struct scenario_inputs in = { .path = file, .switch_config = o->switch_config,
				      .nic_config = o->nic_config, .sets = all, .nsets = n };
	return scenario_open(&in, err);
}

static void point_assigns(const struct calibrate_opts *o, const int *idx, char (*a)[96])
{
	for (int k = 0; k < o->nkeys; k++)
		snprintf(a[k], sizeof(a[k]), "%s=%s", o->keys[k].key, o->keys[k].text[idx[k]]);
}

static int col_of(char **h, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(h[i], name))
			return i;
	return -1;
}

static double num_at(char **f, int n, int col)
{
	return col >= 0 && col < n && f[col][0] ? strtod(f[col], NULL) : 0;
}

/* the runs of sweep directory dir (points in V order x seeds) into out[] */
static int read_sweep(struct cal_ctx *c, int scn, const char *dir, const int *V, int nvalid,
		      int nseeds, struct cal_score *out, char *err, size_t errlen)
{
	char path[4400];
	snprintf(path, sizeof(path), "%s/sweep.csv", dir);
	unsigned char *seen = calloc((size_t)nvalid * (size_t)nseeds, 1);
	char *line = malloc(LINE_BYTES), *hline = malloc(LINE_BYTES);
	if (!seen || !line || !hline) {
		free(seen);
		free(line);
		free(hline);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	FILE *fp = fopen(path, "r");
	char *h[MAX_COLS], *f[MAX_COLS];
	int nh = 0;
	if (fp && fgets(hline, LINE_BYTES, fp)) {
		hline[strcspn(hline, "\n")] = '\0';
		nh = output_split_csv(hline, h, MAX_COLS);
	}
	int cp = col_of(h, nh, "point"), cpass = col_of(h, nh, "criteria_pass"),
	    cjudged = col_of(h, nh, "judged_iterations"),
	    cbusbw = col_of(h, nh, c->busbw_mean[scn] ? "busbw_judged_mean_pct"
						       : "busbw_judged_min_pct"),
	    cecn = col_of(h, nh, "ecn_mark_pct"), cpause = col_of(h, nh, "pause_frame_rate"),
	    cre = col_of(h, nh, "retransmitted_pct"), cll = col_of(h, nh, "drops_lossless"),
	    cly = col_of(h, nh, "drops_lossy"), cwd = col_of(h, nh, "drops_pfcwd"),
	    cjf = col_of(h, nh, "jobs_failed");
	while (fp && nh && fgets(line, LINE_BYTES, fp)) {
		line[strcspn(line, "\n")] = '\0';
		int n = output_split_csv(line, f, MAX_COLS);
		long p = cp >= 0 && cp < n ? strtol(f[cp], NULL, 10) : -1;
		if (p < 0 || p >= (long)nvalid * nseeds)
			continue;
		seen[p] = 1;
		struct cal_run r = { .ran = 1 };
		const char *pass = cpass >= 0 && cpass < n ? f[cpass] : "";
		r.judged = pass[0] == '0' || pass[0] == '1';
		r.pass = pass[0] == '1';
		r.has_busbw = num_at(f, n, cjudged) > 0;
		r.busbw_pct = num_at(f, n, cbusbw);
		r.ecn_mark_pct = num_at(f, n, cecn);
		r.pause_frame_rate = num_at(f, n, cpause);
		r.retransmitted_pct = num_at(f, n, cre);
		r.drops_lossless = (int64_t)num_at(f, n, cll);
		r.drops = r.drops_lossless + (int64_t)num_at(f, n, cly) + (int64_t)num_at(f, n, cwd);
		r.jobs_failed = (int)num_at(f, n, cjf);
		enum cal_criterion b;
		double each[CAL_N_CRITERIA];
		double m = calibrate_margin(&r, &c->limits[scn], &b, each);
		struct cal_score *sc = &out[V[p / nseeds]];
		for (int k = 1; k < CAL_N_CRITERIA; k++)
			sc->crit[k] = fmin(sc->crit[k], each[k]);
		if (m < sc->scn_margin[scn]) {
			sc->scn_margin[scn] = m;
			sc->scn_binding[scn] = b;
		}
		sc->scn_pass[scn] &= r.pass;
	}
	if (fp)
		fclose(fp);
	for (int i = 0; i < nvalid * nseeds; i++)
		if (!seen[i]) { /* no row: the run failed (its error.txt says why) */
			struct cal_score *sc = &out[V[i / nseeds]];
			sc->scn_margin[scn] = MARGIN_UNFINISHED;
			sc->scn_binding[scn] = CAL_RUN_FAILED;
			sc->crit[CAL_RUN_FAILED] = MARGIN_UNFINISHED;
			sc->scn_pass[scn] = 0;
		}
	free(seen);
	free(line);
	free(hline);
	return 0;
}

static int eval_points(void *ctxp, int n, const int (*idx)[CAL_MAX_KEYS], const int *varying,
		       struct cal_score *out, char *err, size_t errlen)
{
	struct cal_ctx *c = ctxp;
	const struct calibrate_opts *o = c->o;
	int k = -1;
	for (int j = 0; j < o->nkeys; j++)
		if (varying[j])
			k = j;
	int V[CAL_MAX_VALUES], nvalid = 0;
	for (int i = 0; i < n; i++) {
		struct cal_score *sc = &out[i];
		memset(sc, 0, sizeof(*sc));
		sc->valid = 1;
		for (int cr = 0; cr < CAL_N_CRITERIA; cr++)
			sc->crit[cr] = INFINITY;
		for (int s = 0; s < c->nscn; s++) {
			sc->scn_pass[s] = 1;
			sc->scn_margin[s] = INFINITY;
		}
		char a[CAL_MAX_KEYS][96];
		point_assigns(o, idx[i], a);
		for (int s = 0; s < c->nscn && sc->valid; s++) {
			struct scn_error e;
			struct scenario *scn = load_with(o, c->files[s], a, o->nkeys, &e);
			if (!scn) {
				sc->valid = 0;
				const char *m = e.msg;
				if (!strncmp(m, "--set: ", 7)) /* the point's own values */
					m += 7;
				snprintf(sc->why, sizeof(sc->why), "%.255s", m);
			} else {
				scenario_close(scn);
			}
		}
		if (sc->valid)
			V[nvalid++] = i;
	}
	if (!nvalid)
		return 0;
	/* the sweep: the key of the line as an axis (its valid values), the
	 * seeds as another, every other key as a --set */
	int nsets = 0;
	const char **sets = malloc(sizeof(*sets) * (size_t)(o->nsets + CAL_MAX_KEYS));
	char fixed[CAL_MAX_KEYS][96];
	if (!sets) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int i = 0; i < o->nsets; i++)
		sets[nsets++] = o->sets[i];
	point_assigns(o, idx[V[0]], fixed);
	for (int j = 0; j < o->nkeys; j++)
		if (j != k || nvalid == 1)
			sets[nsets++] = fixed[j];
	struct sweep_opts so = { .sets = sets, .nsets = nsets, .jobs = o->jobs,
				 .interrupt = o->interrupt, .switch_config = o->switch_config,
				 .nic_config = o->nic_config };
	if (k >= 0 && nvalid > 1) {
		so.axes[so.naxes].key = o->keys[k].key;
		for (int i = 0; i < nvalid; i++)
			so.axes[so.naxes].values[i] = o->keys[k].text[idx[V[i]][k]];
		so.axes[so.naxes++].n = nvalid;
	}
	int nseeds = o->seeds > 1 ? o->seeds : 1;
	char seedtext[CAL_MAX_SEEDS][12];
	if (nseeds > 1) {
		so.axes[so.naxes].key = "sim.seed";
		for (int i = 0; i < nseeds; i++) {
			snprintf(seedtext[i], sizeof(seedtext[i]), "%d", i + 1);
			so.axes[so.naxes].values[i] = seedtext[i];
		}
		so.axes[so.naxes++].n = nseeds;
	}
	int rc = 0;
	c->batch++;
	for (int s = 0; s < c->nscn && rc == 0; s++) {
		char dir[4200];
		snprintf(dir, sizeof(dir), "%s/runs/b%03d-%s", o->out_dir, c->batch, c->labels[s]);
		so.scenario = c->files[s];
		so.out_dir = dir;
		int failed, unjudged;
		char why[2048] = "";
		int st = sweep_run(&so, &failed, &unjudged, why, sizeof(why));
		if (st == RUN_INTERRUPTED) {
			c->interrupted = 1;
			snprintf(err, errlen, "interrupted");
			rc = -1;
		} else if (st == RUN_EIO) {
			snprintf(err, errlen, "%s: %s", dir, why);
			rc = -1;
		} else {
			rc = read_sweep(c, s, dir, V, nvalid, nseeds, out, err, errlen);
		}
	}
	free(sets);
	for (int i = 0; i < nvalid && rc == 0; i++) {
		struct cal_score *sc = &out[V[i]];
		sc->runs = (long)c->nscn * nseeds;
		sc->pass = 1;
		sc->margin = INFINITY;
		for (int s = 0; s < c->nscn; s++) {
			sc->pass &= sc->scn_pass[s];
			if (sc->scn_margin[s] < sc->margin) {
				sc->margin = sc->scn_margin[s];
				sc->binding = sc->scn_binding[s];
				sc->binding_scn = s;
			}
		}
	}
	return rc;
}

/* ---- the command ---- */

/* the value of key (section.key) as `check` prints it; 0 or -1 */
static int printed_value(const struct scenario *s, const char *key, char *buf, size_t len)
{
	char *text = NULL;
	size_t size = 0;
	FILE *m = open_memstream(&text, &size);
	if (!m)
		return -1;
	scenario_print(s, m);
	fclose(m);
	const char *dot = strrchr(key, '.');
	char section[64];
	snprintf(section, sizeof(section), "[%.*s]", (int)(dot - key), key);
	int in = 0, found = -1;
	for (char *save = NULL, *l = strtok_r(text, "\n", &save); l && found;
	     l = strtok_r(NULL, "\n", &save)) {
		if (l[0] == '[') {
			in = !strcmp(l, section);
			continue;
		}
		size_t kl = strlen(dot + 1);
		if (in && !strncmp(l, dot + 1, kl) && !strncmp(l + kl, " = ", 3)) {
			snprintf(buf, len, "%s", l + kl + 3);
			buf[strcspn(buf, " ;#")] = '\0';
			found = 0;
		}
	}
	free(text);
	return found;
}

/*
 * The grid index of the scenario's own value of k: inserted into the grid
 * (in order) when it is not on it; when it is printed in another unit than
 * the grid's, or the grid is full, the nearest value (log scale) or the
 * middle.  *own is cleared unless the index holds the scenario's value.
 */
static int own_value(struct cal_key *k, const struct scenario *s, int *own)
{
	char text[96], why[160];
	enum cal_unit u;
	int64_t v;
	if (printed_value(s, k->key, text, sizeof(text)) ||
	    parse_value(text, &u, &v, why, sizeof(why)) || u != k->unit) {
		*own = 0;
		return k->n / 2;
	}
	int at = 0;
	while (at < k->n && k->base[at] < v)
		at++;
	if (at < k->n && k->base[at] == v)
		return at;
	if (k->n < CAL_MAX_VALUES) {
		memmove(&k->base[at + 1], &k->base[at], sizeof(k->base[0]) * (size_t)(k->n - at));
		memmove(&k->text[at + 1], &k->text[at], sizeof(k->text[0]) * (size_t)(k->n - at));
		k->base[at] = v;
		format_value(k->unit, v, k->text[at], sizeof(k->text[0]));
		k->n++;
		return at;
	}
	*own = 0;
	int best = 0;
	double bd = INFINITY;
	for (int i = 0; i < k->n; i++) {
		double d = v > 0 && k->base[i] > 0 ? fabs(log((double)v / (double)k->base[i]))
						   : fabs((double)(v - k->base[i]));
		if (d < bd) {
			bd = d;
			best = i;
		}
	}
	return best;
}

static const char *stem(const char *path, char *buf, size_t len)
{
	if (!path)
		return snprintf(buf, len, "default"), buf;
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	size_t n = strlen(b);
	if (n > 4 && !strcmp(b + n - 4, ".ini"))
		n -= 4;
	snprintf(buf, len, "%.*s", (int)n, b);
	for (char *p = buf; *p; p++)
		if (*p == ',' || *p == '"' || *p == ' ')
			*p = '_';
	return buf;
}

static void put_margin(FILE *fp, const struct cal_score *sc, double m)
{
	if (sc->valid && isfinite(m))
		fprintf(fp, "%.4f", m);
}

/* a CSV field, quoted when it needs to be */
static void put_field(FILE *fp, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s == '\n' ? ' ' : *s, fp);
	}
	fputc('"', fp);
}

static int write_points(const struct cal_ctx *c, const struct cal_outcome *out, char *err,
			size_t errlen)
{
	const struct calibrate_opts *o = c->o;
	char path[4200];
	snprintf(path, sizeof(path), "%s/calibrate.csv", o->out_dir);
	FILE *fp = fopen(path, "w");
	if (!fp) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	fputs("point,round", fp);
	for (int k = 0; k < o->nkeys; k++)
		fprintf(fp, ",%s", o->keys[k].key);
	fputs(",pass,margin,binding,binding_scenario,runs", fp);
	for (int s = 0; s < c->nscn; s++)
		fprintf(fp, ",%s_pass,%s_margin,%s_binding", c->labels[s], c->labels[s],
			c->labels[s]);
	fputs(",note\n", fp);
	for (int i = 0; i < out->npoints; i++) {
		const struct cal_point *p = &out->points[i];
		const struct cal_score *sc = &p->score;
		fprintf(fp, "%d,", i);
		if (p->round > CAL_MAX_ROUNDS)
			fputs(phase_names[p->round], fp);
		else
			fprintf(fp, "%d", p->round);
		for (int k = 0; k < o->nkeys; k++)
			fprintf(fp, ",%s", o->keys[k].text[p->idx[k]]);
		fprintf(fp, ",%d,", sc->valid && sc->pass);
		put_margin(fp, sc, sc->margin);
		fprintf(fp, ",%s,%s,%ld", sc->valid ? cal_criterion_names[sc->binding] : "invalid",
			sc->valid ? c->labels[sc->binding_scn] : "", sc->runs);
		for (int s = 0; s < c->nscn; s++) {
			fprintf(fp, ",%d,", sc->valid && sc->scn_pass[s]);
			put_margin(fp, sc, sc->scn_margin[s]);
			fprintf(fp, ",%s", sc->valid ? cal_criterion_names[sc->scn_binding[s]] : "");
		}
		fputc(',', fp);
		put_field(fp, sc->valid ? (i == out->best ? "recommended"
					   : i == out->runner_up ? "runner-up"
								 : "")
					: sc->why);
		fputc('\n', fp);
	}
	int bad = ferror(fp);
	if (fclose(fp) || bad) {
		snprintf(err, errlen, "%s: write failed", path);
		return -1;
	}
	return 0;
}

/* plane.csv: the margin over keys a (x) and b (y), the others at the best;
 * a row per pair of values, a's outer, in grid order */
static int write_plane(const struct cal_ctx *c, const struct cal_outcome *out, int a, int b,
		       char *err, size_t errlen)
{
	const struct calibrate_opts *o = c->o;
	char path[4200];
	snprintf(path, sizeof(path), "%s/plane.csv", o->out_dir);
	FILE *fp = fopen(path, "w");
	if (!fp) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	const struct cal_key *ka = &o->keys[a], *kb = &o->keys[b];
	fputs("key_a,a,a_base,key_b,b,b_base,pass,margin,binding,recommended\n", fp);
	for (int i = 0; i < ka->n; i++)
		for (int j = 0; j < kb->n; j++) {
			int at[CAL_MAX_KEYS];
			memcpy(at, out->points[out->best].idx, sizeof(at));
			at[a] = i;
			at[b] = j;
			int p = find_point(out, at, o->nkeys);
			const struct cal_score *sc = p >= 0 ? &out->points[p].score : NULL;
			fprintf(fp, "%s,%s,%lld,%s,%s,%lld,", ka->key, ka->text[i],
				(long long)ka->base[i], kb->key, kb->text[j], (long long)kb->base[j]);
			if (sc && sc->valid) {
				fprintf(fp, "%d,", sc->pass);
				put_margin(fp, sc, sc->margin);
				fprintf(fp, ",%s", cal_criterion_names[sc->binding]);
			} else {
				fprintf(fp, "0,,%s", sc ? "invalid" : "not run");
			}
			fprintf(fp, ",%d\n", p == out->best);
		}
	int bad = ferror(fp);
	if (fclose(fp) || bad) {
		snprintf(err, errlen, "%s: write failed", path);
		return -1;
	}
	return 0;
}

static int write_recommended(const struct cal_ctx *c, const struct cal_outcome *out,
			     char *err, size_t errlen)
{
	const struct calibrate_opts *o = c->o;
	const struct cal_point *p = &out->points[out->best];
	char path[4200];
	snprintf(path, sizeof(path), "%s/recommended.ini", o->out_dir);
	FILE *fp = fopen(path, "w");
	if (!fp) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	fprintf(fp, "# dcqcn-sim calibrate: the recommended settings (%s, margin %+.1f %%, "
		"binding: %s on %s)\n", p->score.pass ? "pass" : "NO SETTING PASSES",
		100 * p->score.margin, cal_criterion_names[p->score.binding],
		c->labels[p->score.binding_scn]);
	if (p->score.pass && out->neighbours)
		fprintf(fp, "# %d of its %d one-step neighbours pass\n", out->neighbours_pass,
			out->neighbours);
	int done[CAL_MAX_KEYS] = {0};
	for (int k = 0; k < o->nkeys; k++) {
		if (done[k])
			continue;
		const char *dot = strrchr(o->keys[k].key, '.');
		int sl = (int)(dot - o->keys[k].key);
		fprintf(fp, "\n[%.*s]\n", sl, o->keys[k].key);
		for (int j = k; j < o->nkeys; j++)
			if (!done[j] && !strncmp(o->keys[j].key, o->keys[k].key, (size_t)sl + 1)) {
				fprintf(fp, "%s = %s\n", o->keys[j].key + sl + 1,
					o->keys[j].text[p->idx[j]]);
				done[j] = 1;
			}
	}
	int bad = ferror(fp);
	if (fclose(fp) || bad) {
		snprintf(err, errlen, "%s: write failed", path);
		return -1;
	}
	return 0;
}

/* DIR/export/: the recommendation for switches and NICs (config.h) */
static int export_best(const struct cal_ctx *c, const struct cal_outcome *out, char *err,
		       size_t errlen)
{
	const struct calibrate_opts *o = c->o;
	char a[CAL_MAX_KEYS][96], dir[4200];
	point_assigns(o, out->points[out->best].idx, a);
	struct scn_error e;
	struct scenario *s = load_with(o, o->scenario, a, o->nkeys, &e);
	if (!s) {
		snprintf(err, errlen, "%s", e.msg);
		return -1;
	}
	snprintf(dir, sizeof(dir), "%s/export", o->out_dir);
	int rc = scenario_export(s, dir, NULL, err, errlen);
	scenario_close(s);
	return rc;
}

static void print_point(const struct cal_ctx *c, const struct cal_point *p, FILE *f)
{
	for (int k = 0; k < c->o->nkeys; k++)
		fprintf(f, "%s%s = %s", k ? ", " : "", c->o->keys[k].key,
			c->o->keys[k].text[p->idx[k]]);
}

static void print_result(const struct cal_ctx *c, const struct cal_outcome *out, long search_runs,
			 long plane_runs, FILE *f)
{
	const struct calibrate_opts *o = c->o;
	const struct cal_point *b = &out->points[out->best];
	double grid = calibrate_grid_points(o->keys, o->nkeys) * c->nscn *
		      (o->seeds > 1 ? o->seeds : 1);
	fprintf(f, "calibrate: %d scenario%s x %d seed%s, %d key%s: %ld runs for the search "
		"(%d points, %d round%s), %ld for the figure's plane; a full grid of the same "
		"values is %.0f runs\n", c->nscn, c->nscn == 1 ? "" : "s",
		o->seeds > 1 ? o->seeds : 1, o->seeds > 1 ? "s" : "", o->nkeys,
		o->nkeys == 1 ? "" : "s", search_runs, out->npoints, out->rounds,
		out->rounds == 1 ? "" : "s", plane_runs, grid);
	if (b->score.pass)
		fprintf(f, "recommended (passes everywhere; margin %+.1f %%, binding: %s on %s):\n",
			100 * b->score.margin, cal_criterion_names[b->score.binding],
			c->labels[b->score.binding_scn]);
	else
		fprintf(f, "NO SETTING PASSES; the closest (margin %+.1f %%, binding: %s on %s):\n",
			100 * b->score.margin, cal_criterion_names[b->score.binding],
			c->labels[b->score.binding_scn]);
	for (int k = 0; k < o->nkeys; k++)
		fprintf(f, "  %-28s = %s\n", o->keys[k].key, o->keys[k].text[b->idx[k]]);
	if (b->score.pass && out->neighbours) {
		const struct cal_point *w = &out->points[out->weakest];
		int k = 0;
		while (k < o->nkeys - 1 && w->idx[k] == b->idx[k])
			k++;
		fprintf(f, "%s: %d of its %d one-step neighbours pass; the weakest, %s = %s, %s "
			"(margin %+.1f %%)\n", out->neighbours_pass == out->neighbours ? "robust"
										: "FRAGILE",
			out->neighbours_pass, out->neighbours, o->keys[k].key,
			o->keys[k].text[w->idx[k]], w->score.pass ? "passes" : "fails",
			100 * w->score.margin);
	}
	fprintf(f, "per scenario:\n");
	for (int s = 0; s < c->nscn; s++)
		fprintf(f, "  %-20s %s  margin %+7.1f %%  binding %s\n", c->labels[s],
			b->score.scn_pass[s] ? "pass" : "FAIL", 100 * b->score.scn_margin[s],
			cal_criterion_names[b->score.scn_binding[s]]);
	const struct cal_point *own = &out->points[0];
	if (c->own_start && own->score.valid)
		fprintf(f, "the scenario's own settings: %s, margin %+.1f %% (binding: %s on %s)\n",
			own->score.pass ? "pass" : "FAIL", 100 * own->score.margin,
			cal_criterion_names[own->score.binding], c->labels[own->score.binding_scn]);
	if (out->runner_up >= 0) {
		const struct cal_point *r = &out->points[out->runner_up];
		fprintf(f, "runner-up (%s, margin %+.1f %%): ", r->score.pass ? "pass" : "fails",
			100 * r->score.margin);
		print_point(c, r, f);
		fputc('\n', f);
	}
	fprintf(f, "run it: dcqcn-sim run%s%s", o->scenario ? " " : "",
		o->scenario ? o->scenario : "");
	for (int i = 0; i < o->nsets; i++)
		fprintf(f, " --set %s", o->sets[i]);
	for (int k = 0; k < o->nkeys; k++)
		fprintf(f, " --set %s=%s", o->keys[k].key, o->keys[k].text[b->idx[k]]);
	fprintf(f, "\nresults: %s/calibrate.csv (every point), recommended.ini, export/ (SONiC "
		"config_db.json, mlx5 cc_params, NCCL environment)\n", o->out_dir);
}

int calibrate_run(const struct calibrate_opts *o, char (*sets_out)[96], char *err,
		  size_t errlen)
{
	struct cal_ctx *c = calloc(1, sizeof(*c));
	struct calibrate_opts *oc = malloc(sizeof(*oc));
	if (!c || !oc) {
		free(c);
		free(oc);
		snprintf(err, errlen, "out of memory");
		return RUN_EIO;
	}
	*oc = *o; /* its grids get the scenario's own values */
	c->o = oc;
	c->own_start = 1;
	c->files[c->nscn++] = o->scenario;
	for (int i = 0; i < o->nstress && c->nscn < CAL_MAX_SCENARIOS; i++)
		c->files[c->nscn++] = o->stress[i];
	int start[CAL_MAX_KEYS] = {0};
	for (int s = 0; s < c->nscn; s++) {
		char base[48];
		stem(c->files[s], base, sizeof(base));
		snprintf(c->labels[s], sizeof(c->labels[s]), "%s", base);
		for (int t = 0, dup = 1; t < s; t++)
			if (!strcmp(c->labels[t], c->labels[s]))
				snprintf(c->labels[s], sizeof(c->labels[s]), "%.36s-%d", base,
					 ++dup % 1000);
		struct scn_error e;
		struct scenario *scn = load_with(oc, c->files[s], NULL, 0, &e);
		if (!scn) {
			snprintf(err, errlen, "%s", e.msg);
			free(c);
			free(oc);
			return RUN_EIO;
		}
		struct cal_limits *l = &c->limits[s];
		l->min_busbw_pct = (double)scn->crit_min_busbw_ppb / 1e7;
		l->max_ecn_mark_pct = (double)scn->crit_max_ecn_mark_ppb / 1e7;
		l->max_pause_frame_rate = scn->crit_max_pause_frame_rate == SCN_AUTO
						  ? -1
						  : (double)scn->crit_max_pause_frame_rate;
		l->max_retransmitted_pct = (double)scn->crit_max_retransmitted_ppb / 1e7;
		l->max_lossless_drops = scn->crit_max_lossless_drops;
		l->max_drops = scn->crit_max_drops;
		c->busbw_mean[s] = scn->crit_busbw_stat == SCN_BUSBW_MEAN;
		if (s == 0)
			for (int k = 0; k < o->nkeys; k++)
				start[k] = own_value(&oc->keys[k], scn, &c->own_start);
		scenario_close(scn);
	}
	/* the start must load everywhere (a tuned key that does not apply,
	 * e.g. a [dcqcn] knob with nic.cc = none, fails here, before any run) */
	for (int s = 0; s < c->nscn; s++) {
		char a[CAL_MAX_KEYS][96];
		struct scn_error e;
		point_assigns(oc, start, a);
		struct scenario *scn = load_with(oc, c->files[s], a, oc->nkeys, &e);
		if (!scn) {
			snprintf(err, errlen, "the tuned keys at the scenario's own values: %s",
				 strncmp(e.msg, "--set: ", 7) ? e.msg : e.msg + 7);
			free(c);
			free(oc);
			return RUN_EIO;
		}
		scenario_close(scn);
	}
	char runs_dir[4200];
	snprintf(runs_dir, sizeof(runs_dir), "%s/runs", o->out_dir);
	if (output_mkdir_p(runs_dir)) {
		snprintf(err, errlen, "%s: cannot create the output directory: %s", runs_dir,
			 strerror(errno));
		free(c);
		free(oc);
		return RUN_EIO;
	}
	o = oc;
	struct cal_search s = { .keys = o->keys, .nkeys = o->nkeys, .eval = eval_points,
				.ctx = c, .log = o->log };
	memcpy(s.start, start, sizeof(start));
	struct cal_outcome out;
	int rc = calibrate_search(&s, &out, err, errlen);
	long search_runs = out.runs;
	/* the plane of the two most influential keys, the others at the best */
	int a = -1, b = -1;
	for (int k = 0; k < o->nkeys; k++) {
		if (a < 0 || out.influence[k] > out.influence[a]) {
			b = a;
			a = k;
		} else if (b < 0 || out.influence[k] > out.influence[b]) {
			b = k;
		}
	}
	if (rc == 0 && out.npoints && b >= 0 && !o->no_plane) {
		if (o->log)
			fprintf(o->log, "calibrate: the margin over %s and %s\n", o->keys[a].key,
				o->keys[b].key);
		for (int i = 0; i < o->keys[a].n && rc == 0; i++) {
			int base[CAL_MAX_KEYS], dummy = out.best;
			memcpy(base, out.points[out.best].idx, sizeof(base));
			base[a] = i;
			rc = search_line(&s, &out, base, b, CAL_MAX_ROUNDS + 1, &dummy, err, errlen) < 0;
		}
	}
	int st = RUN_OK;
	if (rc && !c->interrupted)
		st = RUN_EIO;
	int rank, size;
	sweep_mpi_ranks(&rank, &size); /* under mpirun every rank searched alike */
	if (out.npoints && rank == 0) {
		char werr[4300];
		if (write_points(c, &out, werr, sizeof(werr)) ||
		    write_recommended(c, &out, werr, sizeof(werr)) ||
		    (b >= 0 && !o->no_plane && write_plane(c, &out, a, b, werr, sizeof(werr))) ||
		    export_best(c, &out, werr, sizeof(werr))) {
			snprintf(err, errlen, "%s", werr);
			st = RUN_EIO;
		}
	}
	if (st == RUN_OK && c->interrupted)
		st = RUN_INTERRUPTED;
	if (st == RUN_OK) {
		if (o->out)
			print_result(c, &out, search_runs, out.runs - search_runs, o->out);
		for (int k = 0; sets_out && k < o->nkeys; k++)
			snprintf(sets_out[k], sizeof(sets_out[k]), "%s=%s", o->keys[k].key,
				 o->keys[k].text[out.points[out.best].idx[k]]);
		if (!out.points[out.best].score.pass)
			st = CALIBRATE_NONE_PASSES;
	}
	calibrate_outcome_free(&out);
	free(c);
	free(oc);
	return st;
}
