/*
 * calibrate_search.c - the search of `dcqcn-sim calibrate` (see
 * calibrate.h): the start, a space-filling design, local refinement with
 * moves of several keys at once, and the choice of a recommendation among
 * every point seen.  The evaluator is a callback (calibrate_eval.c runs
 * points as sweeps; test_calibrate.c gives synthetic margins).
 *
 * Choices:
 * - The design is a Halton sequence (bases 2, 3, 5, ... one per key), the
 *   point i's coordinate on key k the grid index floor(h_k(i) x n_k): it
 *   fills the grid evenly at any size, so a passing region away from the
 *   start's lines, or only reachable diagonally, is sampled.
 * - Refinement moves one grid step per key, several keys at once: a
 *   coordinate search cannot climb a ridge that runs across two keys.
 */
#include "sim/sweeps/calibrate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sweeps/internal.h"

const char *const cal_phase_names[CAL_N_PHASES] = {
	[CAL_START] = "start",	 [CAL_DESIGN] = "design",	  [CAL_REFINE] = "refine",
	[CAL_PLANE] = "plane",	 [CAL_NEIGHBOURS] = "neighbours",
};

int cal_find_point(const struct cal_outcome *o, const int *idx, int nkeys)
{
	for (int i = 0; i < o->npoints; i++)
		if (!memcmp(o->points[i].idx, idx, sizeof(int) * (size_t)nkeys))
			return i;
	return -1;
}

static int add_point(struct cal_outcome *o, const int *idx, enum cal_phase phase, int step)
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
	p->phase = phase;
	p->step = step;
	return o->npoints++;
}

/* the points of list idx[0..n) that are in the grid, not seen and not
 * listed before them, into fresh[]; how many */
static int unseen(const struct cal_search *s, const struct cal_outcome *o, int n,
		  const int (*idx)[CAL_MAX_KEYS], int (*fresh)[CAL_MAX_KEYS])
{
	int m = 0;
	for (int i = 0; i < n; i++) {
		int ok = 1;
		for (int k = 0; k < s->nkeys && ok; k++)
			ok = idx[i][k] >= 0 && idx[i][k] < s->keys[k].n;
		for (int j = 0; j < m && ok; j++)
			ok = memcmp(fresh[j], idx[i], sizeof(int) * (size_t)s->nkeys) != 0;
		if (!ok || cal_find_point(o, idx[i], s->nkeys) >= 0)
			continue;
		memset(fresh[m], 0, sizeof(fresh[m]));
		memcpy(fresh[m], idx[i], sizeof(int) * (size_t)s->nkeys);
		m++;
	}
	return m;
}

int cal_eval_new(const struct cal_search *s, struct cal_outcome *o, int n,
		 const int (*idx)[CAL_MAX_KEYS], enum cal_phase phase, int step, char *err,
		 size_t errlen)
{
	int (*fresh)[CAL_MAX_KEYS] = malloc(sizeof(*fresh) * (size_t)(n ? n : 1));
	struct cal_score *sc = calloc((size_t)(n ? n : 1), sizeof(*sc));
	int rc = 0;
	if (!fresh || !sc) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
	}
	int m = rc ? 0 : unseen(s, o, n, idx, fresh);
	if (m && s->log) {
		fprintf(s->log, "calibrate: %s", cal_phase_names[phase]);
		if (phase == CAL_REFINE)
			fprintf(s->log, " step %d", step);
		fprintf(s->log, ": %d point%s\n", m, m == 1 ? "" : "s");
		fflush(s->log);
	}
	if (m && s->eval(s->ctx, m, (const int(*)[CAL_MAX_KEYS])fresh, sc, err, errlen))
		rc = -1;
	for (int i = 0; i < m && rc == 0; i++) {
		int slot = add_point(o, fresh[i], phase, step);
		if (slot < 0) {
			snprintf(err, errlen, "out of memory");
			rc = -1;
			break;
		}
		o->points[slot].score = sc[i];
		sc[i].detail = NULL; /* the outcome holds it now */
		o->runs += sc[i].runs;
		o->phase_runs[phase] += sc[i].runs;
		if (sc[i].valid)
			o->phase_points[phase]++;
		else
			o->rejected++;
	}
	for (int i = 0; i < m; i++)
		free(sc[i].detail);
	free(sc);
	free(fresh);
	return rc;
}

/* ---- start, design and refine ---- */

static int budget_of(const struct cal_search *s)
{
	return s->budget > 0 ? s->budget : CAL_DEFAULT_BUDGET;
}

/* the search's points so far that the loader took (the budget's count) */
static int spent(const struct cal_outcome *o)
{
	return o->phase_points[CAL_DESIGN] + o->phase_points[CAL_REFINE];
}

/* the radical inverse of i in base b: the Halton sequence's coordinate */
static double halton(unsigned i, unsigned b)
{
	double f = 1, r = 0;
	for (; i; i /= b) {
		f /= b;
		r += f * (double)(i % b);
	}
	return r;
}

static int design(const struct cal_search *s, struct cal_outcome *o, char *err, size_t errlen)
{
	static const unsigned primes[CAL_MAX_KEYS] = { 2, 3, 5, 7, 11, 13, 17, 19 };
	double grid = calibrate_grid_points(s->keys, s->nkeys);
	int budget = budget_of(s);
	o->whole_grid = grid <= budget;
	int n = o->whole_grid ? (int)grid : budget / 2 > 0 ? budget / 2 : 1;
	int (*idx)[CAL_MAX_KEYS] = calloc((size_t)n, sizeof(*idx));
	if (!idx) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (o->whole_grid) {
		for (int p = 0; p < n; p++) /* odometer order, the last key fastest */
			for (int k = s->nkeys - 1, q = p; k >= 0; q /= s->keys[k].n, k--)
				idx[p][k] = q % s->keys[k].n;
	} else {
		for (int p = 0; p < n; p++)
			for (int k = 0; k < s->nkeys; k++)
				idx[p][k] = (int)(halton((unsigned)p + 1, primes[k]) * s->keys[k].n);
	}
	int rc = cal_eval_new(s, o, n, (const int(*)[CAL_MAX_KEYS])idx, CAL_DESIGN, 0, err,
			      errlen);
	free(idx);
	return rc;
}

/* the best point seen (calibrate_better), the first of equals */
static int best_seen(const struct cal_outcome *o)
{
	int b = 0;
	for (int i = 1; i < o->npoints; i++)
		if (calibrate_better(&o->points[i].score, &o->points[b].score))
			b = i;
	return b;
}

static uint64_t xorshift(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/*
 * The moves of one refine step from point b (prev: the point it came from,
 * -1: none): the same step again, each key alone up and down, then moves
 * of two or more keys at once (every one for up to three keys, else 2 x
 * keys drawn with rng); into m[], in that order of preference; how many.
 */
static int moves(const struct cal_search *s, const struct cal_outcome *o, int b, int prev,
		 uint64_t *rng, int (*m)[CAL_MAX_KEYS], int max)
{
	const int *at = o->points[b].idx;
	int n = 0, k, nk = s->nkeys;
	if (prev >= 0) {
		for (k = 0; k < nk; k++)
			m[n][k] = 2 * at[k] - o->points[prev].idx[k];
		n++;
	}
	for (k = 0; k < nk; k++)
		for (int d = -1; d <= 1; d += 2) {
			memcpy(m[n], at, sizeof(m[n]));
			m[n++][k] += d;
		}
	if (nk <= 3) { /* every move of two or three keys: code's base-3 digits */
		int all = nk == 1 ? 3 : nk == 2 ? 9 : 27;
		for (int code = 0; code < all && n < max; code++) {
			int changed = 0;
			for (int k3 = 0, c = code; k3 < nk; k3++, c /= 3) {
				m[n][k3] = at[k3] + c % 3 - 1;
				changed += c % 3 != 1;
			}
			n += changed >= 2;
		}
		return n;
	}
	for (int drawn = 0; drawn < 2 * nk && n < max; drawn++) {
		int changed;
		do {
			changed = 0;
			for (k = 0; k < nk; k++) {
				int d = (int)(xorshift(rng) % 3) - 1;
				m[n][k] = at[k] + d;
				changed += d != 0;
			}
		} while (changed < 2);
		n++;
	}
	return n;
}

static int refine(const struct cal_search *s, struct cal_outcome *o, char *err, size_t errlen)
{
	enum { MAX_MOVES = 1 + 2 * CAL_MAX_KEYS + 27 };
	int m[MAX_MOVES][CAL_MAX_KEYS];
	uint64_t rng = 0x9e3779b97f4a7c15ull;
	int b = best_seen(o), prev = -1;
	for (int step = 1; spent(o) < budget_of(s); step++) {
		memset(m, 0, sizeof(m));
		int n = moves(s, o, b, prev, &rng, m, MAX_MOVES);
		int fresh[MAX_MOVES][CAL_MAX_KEYS];
		n = unseen(s, o, n, (const int(*)[CAL_MAX_KEYS])m, fresh);
		if (n > budget_of(s) - spent(o))
			n = budget_of(s) - spent(o);
		if (!n)
			break;
		o->steps = step;
		if (cal_eval_new(s, o, n, (const int(*)[CAL_MAX_KEYS])fresh, CAL_REFINE, step, err,
				 errlen))
			return -1;
		int nb = best_seen(o);
		if (nb == b)
			break;
		prev = b;
		b = nb;
	}
	return 0;
}

int cal_explore(const struct cal_search *s, struct cal_outcome *o, char *err, size_t errlen)
{
	memset(o, 0, sizeof(*o));
	o->runner_up = o->passed_over = o->weakest = -1;
	int start[CAL_MAX_KEYS] = {0};
	memcpy(start, s->start, sizeof(int) * (size_t)s->nkeys);
	int rc = cal_eval_new(s, o, 1, (const int(*)[CAL_MAX_KEYS])start, CAL_START, 0, err,
			      errlen);
	if (rc == 0)
		rc = design(s, o, err, errlen);
	if (rc == 0)
		rc = refine(s, o, err, errlen);
	o->best = o->npoints ? best_seen(o) : 0;
	return rc;
}

/* ---- the recommendation ---- */

/* the one-step neighbours of point c (each key one grid value up and
 * down) into m[]; how many are in the grid */
static int step_neighbours(const struct cal_search *s, const struct cal_outcome *o, int c,
			   int (*m)[CAL_MAX_KEYS])
{
	int n = 0;
	for (int k = 0; k < s->nkeys; k++)
		for (int d = -1; d <= 1; d += 2) {
			memcpy(m[n], o->points[c].idx, sizeof(m[n]));
			m[n][k] += d;
			if (m[n][k] >= 0 && m[n][k] < s->keys[k].n)
				n++;
		}
	return n;
}

/*
 * The neighbours of point c evaluated; their count (those the loader
 * takes), how many pass, and the weakest of them into *weakest (-1: none).
 * -1 on an error.
 */
static int neighbours(const struct cal_search *s, struct cal_outcome *o, int c, int *npass,
		      int *weakest, char *err, size_t errlen)
{
	int m[2 * CAL_MAX_KEYS][CAL_MAX_KEYS];
	int nm = step_neighbours(s, o, c, m);
	if (cal_eval_new(s, o, nm, (const int(*)[CAL_MAX_KEYS])m, CAL_NEIGHBOURS, 0, err, errlen))
		return -1;
	int n = 0;
	*npass = 0;
	*weakest = -1;
	for (int i = 0; i < nm; i++) {
		int p = cal_find_point(o, m[i], s->nkeys);
		if (p < 0 || !o->points[p].score.valid)
			continue;
		n++;
		*npass += o->points[p].score.pass;
		if (*weakest < 0 || calibrate_better(&o->points[*weakest].score, &o->points[p].score))
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
	int m[2 * CAL_MAX_KEYS][CAL_MAX_KEYS];
	int nm = step_neighbours(s, o, c, m);
	for (int i = 0; i < nm; i++) {
		int p = cal_find_point(o, m[i], s->nkeys);
		if (p >= 0 && o->points[p].score.valid && !o->points[p].score.pass)
			return 1;
	}
	return 0;
}

/*
 * The first candidate c[0] fails one step along key k toward the point
 * weak: the other candidates c[1..nc) that stand on the far side of it
 * along k come first (in their order), then the rest: the cliff is nearest
 * to those that share its value of k.
 */
static void away_from(const struct cal_search *s, const struct cal_outcome *o, int *c, int nc,
		      int weak)
{
	const int *b = o->points[c[0]].idx, *w = o->points[weak].idx;
	int k = 0;
	while (k < s->nkeys - 1 && w[k] == b[k])
		k++;
	int toward = w[k] > b[k] ? 1 : -1;
	int sorted[CAL_ROBUST_TOP + 1], n = 0;
	for (int pass = 0; pass < 2; pass++)
		for (int i = 1; i < nc; i++) {
			int d = o->points[c[i]].idx[k] - b[k];
			if ((d * toward < 0) == !pass)
				sorted[n++] = c[i];
		}
	memcpy(c + 1, sorted, sizeof(int) * (size_t)n);
}

/* the start (the scenario's own settings) passes and no candidate gains
 * CAL_MIN_GAIN of margin over it without more warnings: it goes first */
static int own_first(const struct cal_search *s, const struct cal_outcome *o, int *c, int nc)
{
	const struct cal_score *own = &o->points[0].score, *top = &o->points[c[0]].score;
	if (!s->own || o->points[0].phase != CAL_START || !own->valid || !own->pass || c[0] == 0 ||
	    own->warnings > top->warnings || top->margin > own->margin + CAL_MIN_GAIN)
		return nc;
	int at = 0;
	while (at < nc && c[at] != 0)
		at++;
	if (at == nc) /* not among the top: one more (c has room) */
		nc++;
	memmove(c + 1, c, sizeof(int) * (size_t)at);
	c[0] = 0;
	return nc;
}

/*
 * Robustness: the recommendation is the best passing point whose every
 * one-step neighbour passes.  The first candidate's neighbours are always
 * run (it is the answer when no candidate is robust); of the next best (up
 * to CAL_ROBUST_TOP), those on the far side of its failing neighbour come
 * first, those with a neighbour already seen failing are passed over
 * without a run, and the others' neighbours run, at most
 * CAL_ROBUST_CANDIDATES candidates in all.  0, or -1 on an error.
 */
static int choose_robust(const struct cal_search *s, struct cal_outcome *o, char *err,
			 size_t errlen)
{
	int c[CAL_ROBUST_TOP + 1];
	int nc = top_passing(o, c, CAL_ROBUST_TOP);
	o->best = best_seen(o);
	if (!nc)
		return 0;
	nc = own_first(s, o, c, nc);
	for (int i = 0, tried = 0; i < nc && tried < CAL_ROBUST_CANDIDATES; i++) {
		if (i > 0 && known_fragile(s, o, c[i]))
			continue;
		tried++;
		int npass, weakest;
		int n = neighbours(s, o, c[i], &npass, &weakest, err, errlen);
		if (n < 0)
			return -1;
		if (i == 0 || npass == n) {
			o->best = c[i];
			o->neighbours = n;
			o->neighbours_pass = npass;
			o->weakest = weakest;
		}
		if (npass == n)
			break;
		if (i == 0 && weakest >= 0)
			away_from(s, o, c, nc, weakest);
	}
	o->own_kept = o->best == 0 && o->points[0].phase == CAL_START && best_seen(o) != 0;
	return 0;
}

/* each key's main effect: the spread over its values of the mean margin
 * (clipped to +-1, so unfinished runs do not swamp it) of the points seen */
void cal_influence(const struct cal_search *s, struct cal_outcome *o)
{
	for (int k = 0; k < s->nkeys; k++) {
		double sum[CAL_MAX_VALUES] = {0}, lo = INFINITY, hi = -INFINITY;
		int cnt[CAL_MAX_VALUES] = {0};
		for (int i = 0; i < o->npoints; i++) {
			const struct cal_point *p = &o->points[i];
			if (!p->score.valid)
				continue;
			sum[p->idx[k]] += fmax(-1, fmin(1, p->score.margin));
			cnt[p->idx[k]]++;
		}
		for (int v = 0; v < s->keys[k].n; v++)
			if (cnt[v]) {
				lo = fmin(lo, sum[v] / cnt[v]);
				hi = fmax(hi, sum[v] / cnt[v]);
			}
		o->influence[k] = hi > lo ? hi - lo : 0;
	}
}

int cal_choose(const struct cal_search *s, struct cal_outcome *o, char *err, size_t errlen)
{
	if (!o->npoints)
		return 0;
	if (choose_robust(s, o, err, errlen))
		return -1;
	o->checked = 1;
	const struct cal_score *b = &o->points[o->best].score;
	for (int i = 0; i < o->npoints; i++) {
		const struct cal_score *p = &o->points[i].score;
		if (i != o->best && p->valid &&
		    (o->runner_up < 0 || calibrate_better(p, &o->points[o->runner_up].score)))
			o->runner_up = i;
		if (b->pass && p->valid && p->pass && p->warnings > b->warnings &&
		    p->margin > b->margin + 1e-6 &&
		    (o->passed_over < 0 || p->margin > o->points[o->passed_over].score.margin))
			o->passed_over = i;
	}
	cal_influence(s, o);
	return 0;
}

int calibrate_search(const struct cal_search *s, struct cal_outcome *out, char *err,
		     size_t errlen)
{
	if (cal_explore(s, out, err, errlen))
		return -1;
	return cal_choose(s, out, err, errlen);
}

void calibrate_outcome_free(struct cal_outcome *o)
{
	for (int i = 0; i < o->npoints; i++)
		free(o->points[i].score.detail);
	free(o->points);
	o->points = NULL;
	o->npoints = o->cap = 0;
}
