/*
 * test_calibrate.c - `dcqcn-sim calibrate` (sim/sweeps/calibrate.c and the
 * files beside it): the value grids of --tune, the margins against their closed forms, the
 * search on synthetic margins (it finds the optimum of a separable margin,
 * never runs a point twice, skips points the loader rejects, and stays in
 * its budget; and it finds the true best where a coordinate search cannot:
 * a plateau around the start, a ridge that climbs only diagonally, a start
 * that never finishes), the recommendation's rules (robust neighbours, the
 * own settings win a tie, a warning loses to none), and a real calibration
 * of a small fabric whose recommendation passes a plain run.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/scenario/scenario.h"
#include "sim/run/run.h"
#include "sim/sweeps/calibrate.h"
#include "testlib.h"

static struct cal_key tune(const char *arg)
{
	struct cal_key k;
	char err[512];
	ck_assert_msg(calibrate_parse_tune(arg, &k, err, sizeof(err)) == 0, "%s: %s", arg, err);
	return k;
}

static void tune_fails(const char *arg, const char *want)
{
	struct cal_key k;
	char err[512] = "";
	ck_assert_int_eq(calibrate_parse_tune(arg, &k, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, want), "%s: got \"%s\", want \"%s\"", arg, err, want);
}

START_TEST(grids)
{
	struct cal_key k = tune("ecn.kmin=50KB:3.2MB:x2");
	ck_assert_int_eq(k.n, 7);
	ck_assert_int_eq(k.unit, CAL_SIZE);
	ck_assert_str_eq(k.text[0], "50KB");
	ck_assert_str_eq(k.text[6], "3.2MB");
	ck_assert_int_eq(k.base[3], 400000);

	/* an amount; HI ends the grid when the steps miss it */
	k = tune("ecn.kmin=100KB:1MB:300KB");
	ck_assert_int_eq(k.n, 4);
	ck_assert_int_eq(k.base[1], 400000);
	ck_assert_int_eq(k.base[3], 1000000);
	k = tune("ecn.kmin=100KB:1.1MB:300KB");
	ck_assert_int_eq(k.n, 5);
	ck_assert_str_eq(k.text[4], "1.1MB");

	/* geometric values keep 3 significant digits */
	k = tune("ecn.kmax=1MB:10MB:x3");
	ck_assert_int_eq(k.n, 4);
	ck_assert_str_eq(k.text[1], "3MB");
	ck_assert_str_eq(k.text[2], "9MB");
	ck_assert_str_eq(k.text[3], "10MB");
	k = tune("ecn.kmax=1MB:5MB:x1.5");
	ck_assert_int_eq(k.base[3], 3380000); /* 3.375 MB rounded */

	/* plain numbers (the key's bare unit), times, rates, percentages */
	k = tune("dcqcn.rpg_ai_rate=5:1280:x4");
	ck_assert_int_eq(k.unit, CAL_PLAIN);
	ck_assert_int_eq(k.n, 5);
	ck_assert_str_eq(k.text[4], "1280");
	k = tune("dcqcn.rpg_time_reset=50us:1ms:x2");
	ck_assert_int_eq(k.unit, CAL_TIME);
	ck_assert_str_eq(k.text[4], "800us");
	ck_assert_str_eq(k.text[5], "1ms");
	k = tune("dcqcn.rpg_ai_rate=10Mbps:1Gbps:x10");
	ck_assert_int_eq(k.unit, CAL_RATE);
	ck_assert_int_eq(k.base[2], 1000000000);
	k = tune("ecn.pmax=1%:32%:x2");
	ck_assert_int_eq(k.unit, CAL_FRACTION);
	ck_assert_int_eq(k.n, 6);
	ck_assert_int_eq(k.base[5], 320000000);
	ck_assert_str_eq(k.text[1], "2%");

	/* the defaults: six keys, 30,240 points */
	struct cal_key keys[CAL_MAX_KEYS];
	int n = calibrate_default_keys(keys);
	ck_assert_int_eq(n, 6);
	ck_assert_str_eq(keys[0].key, "ecn.kmin");
	ck_assert_str_eq(keys[5].key, "dcqcn.min_time_between_cnps");
	ck_assert_double_eq(calibrate_grid_points(keys, n), 7 * 6 * 6 * 5 * 6 * 4);

	tune_fails("ecn.kmni=1KB:2KB", "ecn.kmni: unknown key; did you mean ecn.kmin?");
	tune_fails("ecn.kmin", "expected section.key=LO:HI[:STEP]");
	tune_fails("ecn.kmin=1KB", "expected LO:HI[:STEP]");
	tune_fails("ecn.kmin=1KB:2us", "1KB and 2us are not in the same unit");
	tune_fails("ecn.kmin=2KB:1KB", "--tune ecn.kmin: 1KB is below 2KB");
	tune_fails("ecn.kmin=1KB:2KB:x1", "a factor above 1");
	tune_fails("ecn.kmin=1KB:2KB:3us", "an amount in the unit of 1KB");
	tune_fails("ecn.kmin=1KB:2KB:fast", "an amount in the unit of 1KB");
	tune_fails("ecn.kmin=0KB:2KB", "a geometric grid starts above 0");
	tune_fails("ecn.kmin=1B:1MB:x1.1", "more than 32 values");
	tune_fails("ecn.kmin=lots:2KB", "lots: not a size, time, rate, percentage or whole number");
}
END_TEST

START_TEST(margins)
{
	struct cal_limits l = { .min_busbw_pct = 95, .max_ecn_mark_pct = 2,
				.max_pause_frame_rate = -1, .max_retransmitted_pct = 1 };
	struct cal_run r = { .ran = 1, .judged = 1, .pass = 1, .has_busbw = 1, .busbw_pct = 97,
			     .ecn_mark_pct = 0.5, .retransmitted_pct = 0 };
	enum cal_criterion b;
	double m = calibrate_margin(&r, &l, &b, NULL);
	ck_assert_double_eq_tol(m, 2.0 / 95, 1e-12);
	ck_assert_int_eq(b, CAL_BUSBW);

	r.ecn_mark_pct = 1.99; /* (2 - 1.99) / 2 = 0.005 binds now */
	m = calibrate_margin(&r, &l, &b, NULL);
	ck_assert_double_eq_tol(m, 0.005, 1e-12);
	ck_assert_int_eq(b, CAL_ECN);

	l.max_pause_frame_rate = 1000;
	r.pause_frame_rate = 1500; /* (1000 - 1500) / 1000 */
	m = calibrate_margin(&r, &l, &b, NULL);
	ck_assert_double_eq_tol(m, -0.5, 1e-12);
	ck_assert_int_eq(b, CAL_PAUSE);

	/* a ceiling of 0 counts in units: 3 frames/s over it is -3 */
	l.max_pause_frame_rate = 0;
	r.pause_frame_rate = 3;
	ck_assert_double_eq_tol(calibrate_margin(&r, &l, &b, NULL), -3, 1e-12);

	/* drops are hard: within the limit they set no margin; over it, -1 - excess */
	l.max_pause_frame_rate = -1;
	r.ecn_mark_pct = 0;
	r.has_busbw = 0;
	r.drops_lossless = 0;
	m = calibrate_margin(&r, &l, &b, NULL);
	ck_assert_double_eq_tol(m, 1, 1e-12); /* ECN and retransmission at 0: 100 % */
	r.drops_lossless = 4;
	r.drops = 4;
	m = calibrate_margin(&r, &l, &b, NULL);
	ck_assert_double_eq_tol(m, -5, 1e-12);
	ck_assert_int_eq(b, CAL_LOSSLESS_DROPS);

	r.judged = 0;
	ck_assert_double_eq(calibrate_margin(&r, &l, &b, NULL), -1000);
	ck_assert_int_eq(b, CAL_UNFINISHED);
	/* unfinished runs rank by how far they got */
	r.progress = 0.4;
	ck_assert_double_eq_tol(calibrate_margin(&r, &l, &b, NULL), -999.6, 1e-9);
	r.ran = 0;
	calibrate_margin(&r, &l, &b, NULL);
	ck_assert_int_eq(b, CAL_RUN_FAILED);
}
END_TEST

/* a synthetic evaluator: margin = 1 - |i0 - 4| / 4 - |i1 - 1| / 5 - |i2 - 2| / 6
 * (separable, best at 4, 1, 2), passing when i0 >= 2; a point with
 * i1 > i0 + 3 is one the loader rejects */
struct synth {
	int evaluated[8][8][8];
	int calls;
};

static int synth_eval(void *ctx, int n, const int (*idx)[CAL_MAX_KEYS], struct cal_score *out,
		      char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	struct synth *sy = ctx;
	sy->calls++;
	for (int i = 0; i < n; i++) {
		const int *x = idx[i];
		memset(&out[i], 0, sizeof(out[i]));
		sy->evaluated[x[0]][x[1]][x[2]]++;
		if (x[1] > x[0] + 3) {
			snprintf(out[i].why, sizeof(out[i].why), "rejected");
			continue;
		}
		out[i].valid = 1;
		out[i].runs = 2;
		out[i].margin = 1 - abs(x[0] - 4) / 4.0 - abs(x[1] - 1) / 5.0 - abs(x[2] - 2) / 6.0;
		out[i].pass = x[0] >= 2;
		out[i].binding = x[0] < 2 ? CAL_BUSBW : CAL_ECN;
	}
	return 0;
}

START_TEST(search_finds_the_best)
{
	struct cal_key keys[3] = { tune("ecn.kmin=1KB:128KB:x2"), tune("ecn.kmax=1MB:6MB:1MB"),
				   tune("ecn.pmax=1%:8%:x2") };
	ck_assert_int_eq(keys[0].n, 8);
	ck_assert_int_eq(keys[1].n, 6);
	ck_assert_int_eq(keys[2].n, 4);
	struct synth *sy = calloc(1, sizeof(*sy));
	struct cal_search s = { .keys = keys, .nkeys = 3, .start = { 0, 5, 0 }, .budget = 40,
				.eval = synth_eval, .ctx = sy };
	struct cal_outcome out;
	char err[256];
	ck_assert_int_eq(calibrate_search(&s, &out, err, sizeof(err)), 0);
	const struct cal_point *b = &out.points[out.best];
	ck_assert_int_eq(b->idx[0], 4);
	ck_assert_int_eq(b->idx[1], 1);
	ck_assert_int_eq(b->idx[2], 2);
	ck_assert(b->score.pass);
	ck_assert_double_eq_tol(b->score.margin, 1, 1e-12);
	/* the runner-up is one step off the best on the flattest key */
	const struct cal_point *r = &out.points[out.runner_up];
	ck_assert_double_eq_tol(r->score.margin, 1 - 1 / 6.0, 1e-12);
	/* every point ran once; rejected points were offered but spent no run */
	long runs = 0, seen = 0;
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 8; j++)
			for (int k = 0; k < 8; k++) {
				ck_assert_int_le(sy->evaluated[i][j][k], 1);
				seen += sy->evaluated[i][j][k];
				runs += sy->evaluated[i][j][k] && j <= i + 3 ? 2 : 0;
			}
	ck_assert_int_eq(seen, out.npoints);
	ck_assert_int_eq(out.runs, runs);
	/* the grid (192) is larger than the budget: half of it a design, the
	 * rest refinement, and the design and refine points stay within it */
	ck_assert(!out.whole_grid);
	ck_assert_int_le(out.phase_points[CAL_DESIGN], 20);
	ck_assert_int_le(out.phase_points[CAL_DESIGN] + out.phase_points[CAL_REFINE], 40);
	ck_assert_int_eq(out.phase_points[CAL_START] + out.phase_points[CAL_DESIGN] +
				 out.phase_points[CAL_REFINE] + out.phase_points[CAL_NEIGHBOURS] +
				 out.rejected, out.npoints);
	ck_assert_double_lt(out.runs, 0.5 * 2 * calibrate_grid_points(keys, 3));
	/* the start was rejected (kmax index 5 > kmin index 0 + 3): any valid
	 * point beats it, and the search still climbs */
	ck_assert(!out.points[0].score.valid);
	ck_assert_int_eq(out.points[0].phase, CAL_START);
	/* influence: key 0 moves the margin most, key 2 least */
	ck_assert_double_gt(out.influence[0], out.influence[2]);
	ck_assert(out.checked);
	calibrate_outcome_free(&out);
	free(sy);
}
END_TEST

/* a failing region only: the best failing point is still reported */
static int fail_eval(void *ctx, int n, const int (*idx)[CAL_MAX_KEYS], struct cal_score *out,
		     char *err, size_t errlen)
{
	(void)ctx;
	(void)err;
	(void)errlen;
	for (int i = 0; i < n; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		out[i].valid = 1;
		out[i].runs = 1;
		out[i].margin = -0.5 + idx[i][0] * 0.1;
		out[i].binding = CAL_BUSBW;
	}
	return 0;
}

/* margin 1 - (|i-2| + |j-2|) / 10, a peak at (2, 2); failing (margin -0.5):
 * (2, 3) beside the peak, with cliff 1 also (2, 0), (0, 2) and (4, 2), the
 * failing neighbours of the three points at 0.9; with cliff 2 every point
 * where i + j is odd (a checkerboard: no passing point has a passing
 * neighbour) */
static int cliff;

static int cliff_eval(void *ctx, int n, const int (*idx)[CAL_MAX_KEYS], struct cal_score *out,
		      char *err, size_t errlen)
{
	(void)ctx;
	(void)err;
	(void)errlen;
	for (int i = 0; i < n; i++) {
		int a = idx[i][0], b = idx[i][1];
		memset(&out[i], 0, sizeof(out[i]));
		out[i].valid = 1;
		out[i].runs = 1;
		out[i].margin = 1 - (abs(a - 2) + abs(b - 2)) / 10.0;
		out[i].pass = !(a == 2 && b == 3);
		if (cliff == 1)
			out[i].pass &= !((a == 2 && b == 0) || (a == 0 && b == 2) || (a == 4 && b == 2));
		if (cliff == 2)
			out[i].pass = (a + b) % 2 == 0;
		if (!out[i].pass)
			out[i].margin = -0.5;
	}
	return 0;
}

START_TEST(robust_recommendation)
{
	struct cal_key keys[2] = { tune("ecn.kmin=1KB:16KB:x2"), tune("ecn.kmax=1MB:5MB:1MB") };
	struct cal_search s = { .keys = keys, .nkeys = 2, .start = { 0, 0 }, .eval = cliff_eval };
	struct cal_outcome out;
	char err[256];
	cliff = 0;
	ck_assert_int_eq(calibrate_search(&s, &out, err, sizeof(err)), 0);
	ck_assert(out.whole_grid); /* 25 points: within the default budget */
	/* the peak has a failing neighbour: the next best, whose 4 neighbours pass */
	const struct cal_point *b = &out.points[out.best];
	ck_assert(b->score.pass);
	ck_assert_double_eq_tol(b->score.margin, 0.9, 1e-12);
	ck_assert(!(b->idx[0] == 2 && b->idx[1] == 2));
	ck_assert_int_eq(out.neighbours, 4);
	ck_assert_int_eq(out.neighbours_pass, 4);
	ck_assert_int_eq(out.points[out.runner_up].idx[0], 2); /* the peak: still reported */
	ck_assert_int_eq(out.points[out.runner_up].idx[1], 2);
	calibrate_outcome_free(&out);

	/* the three at 0.9 have a failing neighbour each: a robust one at 0.8 */
	cliff = 1;
	ck_assert_int_eq(calibrate_search(&s, &out, err, sizeof(err)), 0);
	b = &out.points[out.best];
	ck_assert_double_eq_tol(b->score.margin, 0.8, 1e-12);
	ck_assert_int_eq(out.neighbours_pass, out.neighbours);
	calibrate_outcome_free(&out);

	/* no passing point has a passing neighbour: the peak, fragile */
	cliff = 2;
	ck_assert_int_eq(calibrate_search(&s, &out, err, sizeof(err)), 0);
	b = &out.points[out.best];
	ck_assert_int_eq(b->idx[0], 2);
	ck_assert_int_eq(b->idx[1], 2);
	ck_assert_int_eq(out.neighbours, 4);
	ck_assert_int_eq(out.neighbours_pass, 0);
	ck_assert(!out.points[out.weakest].score.pass);
	calibrate_outcome_free(&out);
}
END_TEST

/* equal smallest margins: the next criterion's margin decides */
START_TEST(ties_go_to_the_next_margin)
{
	struct cal_score a = { .valid = 1, .pass = 1, .margin = 0.03 }, b = a;
	for (int c = 0; c < CAL_N_CRITERIA; c++)
		a.crit[c] = b.crit[c] = INFINITY;
	a.crit[CAL_BUSBW] = b.crit[CAL_BUSBW] = 0.03;
	a.crit[CAL_ECN] = 0.70;
	b.crit[CAL_ECN] = 0.75;
	a.crit[CAL_RETRANS] = b.crit[CAL_RETRANS] = 1;
	ck_assert(calibrate_better(&b, &a));
	ck_assert(!calibrate_better(&a, &b));
	b.crit[CAL_ECN] = 0.70 + 1e-9; /* within rounding: a tie keeps the first */
	ck_assert(!calibrate_better(&b, &a));
	ck_assert(!calibrate_better(&a, &b));
	b.margin = 0.031; /* the smallest margin first */
	b.crit[CAL_ECN] = 0.1;
	ck_assert(calibrate_better(&b, &a));
	b.warnings = 1; /* of two passing points, a risk warning loses */
	ck_assert(calibrate_better(&a, &b));
	b.warnings = 0;
	b.pass = 0; /* passing first */
	b.margin = 0.5;
	ck_assert(calibrate_better(&a, &b));
	b.valid = 0;
	ck_assert(!calibrate_better(&b, &a));
}
END_TEST

START_TEST(search_reports_no_pass)
{
	struct cal_key keys[1] = { tune("ecn.kmin=1KB:16KB:x2") };
	struct cal_search s = { .keys = keys, .nkeys = 1, .start = { 2 }, .eval = fail_eval };
	struct cal_outcome out;
	char err[256];
	ck_assert_int_eq(calibrate_search(&s, &out, err, sizeof(err)), 0);
	ck_assert_int_eq(out.points[out.best].idx[0], 4);
	ck_assert(!out.points[out.best].score.pass);
	ck_assert_int_eq(out.runs, 5);
	calibrate_outcome_free(&out);
}
END_TEST

/* ---- traps for a coordinate search: each ends at the true best ---- */

enum trap { PLATEAU, RIDGE, NEVER_FINISHES };
static enum trap trap;

static void trap_score(int i, int j, struct cal_score *sc)
{
	memset(sc, 0, sizeof(*sc));
	sc->valid = 1;
	sc->runs = 1;
	sc->binding = CAL_BUSBW;
	switch (trap) {
	case PLATEAU: /* flat (-0.2) but for a corner, 8 to 11 on both keys */
		sc->margin = i >= 8 && j >= 8 ? 0.05 * (i + j - 15) : -0.2;
		break;
	case RIDGE: /* climbs along i = j only; passes at the top (11, 11) */
		sc->margin = -1.05 + 0.1 * (i < j ? i : j) - 0.3 * abs(i - j);
		break;
	case NEVER_FINISHES: /* below 6 on either key the run never finishes
			      * (every line through the start), all as far;
			      * beyond, a peak at (8, 9) */
		if (i < 6 || j < 6) {
			sc->binding = CAL_UNFINISHED;
			sc->progress = 0.5;
			sc->margin = -1000 + sc->progress;
		} else {
			sc->margin = 0.2 - 0.05 * abs(i - 8) - 0.05 * abs(j - 9);
		}
		break;
	}
	sc->pass = sc->margin > 0;
}

static int trap_eval(void *ctx, int n, const int (*idx)[CAL_MAX_KEYS], struct cal_score *out,
		     char *err, size_t errlen)
{
	(void)ctx;
	(void)err;
	(void)errlen;
	for (int i = 0; i < n; i++)
		trap_score(idx[i][0], idx[i][1], &out[i]);
	return 0;
}

/* the coordinate search this replaced: a line per key through the best,
 * key by key, while one gains; how many points it saw before stopping,
 * and its best into *bi, *bj (the comparison of the trap) */
static void coordinate_search(int *bi, int *bj)
{
	struct cal_score best, sc;
	trap_score(0, 0, &best);
	*bi = *bj = 0;
	for (int moved = 1, round = 0; moved && round < 4; round++) {
		moved = 0;
		for (int k = 0; k < 2; k++)
			for (int v = 0; v < 12; v++) {
				int i = k ? *bi : v, j = k ? v : *bj;
				trap_score(i, j, &sc);
				if (calibrate_better(&sc, &best)) {
					best = sc;
					*bi = i;
					*bj = j;
					moved = 1;
				}
			}
	}
}

START_TEST(traps)
{
	/* 12 x 12 values: 144 points, more than the budget */
	struct cal_key keys[2] = { tune("ecn.kmin=1KB:2048KB:x2"), tune("ecn.kmax=1MB:12MB:1MB") };
	ck_assert_int_eq(keys[0].n, 12);
	ck_assert_int_eq(keys[1].n, 12);
	static const int want[3][2] = { { 11, 11 }, { 11, 11 }, { 8, 9 } };
	for (trap = PLATEAU; trap <= NEVER_FINISHES; trap++) {
		int ci, cj;
		coordinate_search(&ci, &cj);
		struct cal_score csc;
		trap_score(ci, cj, &csc);
		ck_assert_msg(!csc.pass, "trap %d: a coordinate search would pass", trap);
		struct cal_search s = { .keys = keys, .nkeys = 2, .start = { 0, 0 }, .own = 1,
					.budget = 60, .eval = trap_eval };
		struct cal_outcome out;
		char err[256];
		ck_assert_int_eq(calibrate_search(&s, &out, err, sizeof(err)), 0);
		const struct cal_point *b = &out.points[out.best];
		ck_assert_msg(b->idx[0] == want[trap][0] && b->idx[1] == want[trap][1],
			      "trap %d: ended at (%d, %d), margin %g", trap, b->idx[0], b->idx[1],
			      b->score.margin);
		ck_assert(b->score.pass);
		ck_assert_int_le(out.phase_points[CAL_DESIGN] + out.phase_points[CAL_REFINE], 60);
		calibrate_outcome_free(&out);
	}
}
END_TEST

/* the own settings (the start) pass at 0.088; elsewhere a point passes at
 * gain above it, its neighbours all passing */
static double gain;

static int own_eval(void *ctx, int n, const int (*idx)[CAL_MAX_KEYS], struct cal_score *out,
		    char *err, size_t errlen)
{
	(void)ctx;
	(void)err;
	(void)errlen;
	for (int i = 0; i < n; i++) {
		int a = idx[i][0], b = idx[i][1];
		memset(&out[i], 0, sizeof(out[i]));
		out[i].valid = 1;
		out[i].runs = 1;
		out[i].binding = CAL_BUSBW;
		out[i].pass = 1;
		out[i].margin = a == 1 && b == 1 ? 0.088 : a == 3 && b == 3 ? 0.088 + gain : 0.05;
		/* the largest margin of all raises a risk warning */
		if (a == 4 && b == 0) {
			out[i].margin = 0.5;
			out[i].warnings = 1;
			snprintf(out[i].warned, sizeof(out[i].warned), "ecn.kmax");
		}
	}
	return 0;
}

START_TEST(own_settings_win_a_tie)
{
	struct cal_key keys[2] = { tune("ecn.kmin=1KB:16KB:x2"), tune("ecn.kmax=1MB:5MB:1MB") };
	struct cal_search s = { .keys = keys, .nkeys = 2, .start = { 1, 1 }, .own = 1,
				.eval = own_eval };
	struct cal_outcome out;
	char err[256];
	gain = 0.0005; /* within CAL_MIN_GAIN: no change for nothing */
	ck_assert_int_eq(calibrate_search(&s, &out, err, sizeof(err)), 0);
	ck_assert_int_eq(out.best, 0);
	ck_assert(out.own_kept);
	/* the point with the warning is not preferred, and said so */
	ck_assert_int_ge(out.passed_over, 0);
	ck_assert_int_eq(out.points[out.passed_over].idx[0], 4);
	calibrate_outcome_free(&out);
	gain = 0.023; /* +11.1 % against +8.8 %: the change is worth it */
	ck_assert_int_eq(calibrate_search(&s, &out, err, sizeof(err)), 0);
	ck_assert_int_eq(out.points[out.best].idx[0], 3);
	ck_assert_int_eq(out.points[out.best].idx[1], 3);
	ck_assert(!out.own_kept);
	ck_assert_int_eq(out.neighbours_pass, out.neighbours);
	calibrate_outcome_free(&out);
	/* a start that is not the own settings wins nothing */
	gain = 0.0005;
	s.own = 0;
	ck_assert_int_eq(calibrate_search(&s, &out, err, sizeof(err)), 0);
	ck_assert_int_eq(out.points[out.best].idx[0], 3);
	calibrate_outcome_free(&out);
}
END_TEST

/* a real calibration: the small fabric fails at its thresholds and passes
 * at the recommendation, in a plain run too */
START_TEST(calibrates_a_fabric)
{
	char dir[] = "/tmp/dcqcn-calibrate-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	struct calibrate_opts o = { .scenario = TEST_DATA_DIR "/calibrate-incast.ini",
				    .seeds = 1, .jobs = 2, .out_dir = dir };
	char err[1024];
	o.keys[0] = tune("ecn.kmin=20KB:1.28MB:x4");
	o.keys[1] = tune("ecn.kmax=200KB:12.8MB:x4");
	o.nkeys = 2;
	char sets[CAL_MAX_KEYS][96];
	int st = calibrate_run(&o, sets, err, sizeof(err));
	ck_assert_msg(st == 0, "calibrate: %d %s", st, err);
	/* the scenario's own thresholds (20KB, 200KB) start the search and fail */
	char *csv = tl_slurp(dir, "calibrate.csv");
	ck_assert_msg(strstr(csv, "point,phase,ecn.kmin,ecn.kmax,pass,margin,binding,"
				  "binding_scenario,runs,finished_pct,warnings,warned,"
				  "busbw_judged_min_pct,busbw_judged_mean_pct,ecn_mark_pct,"
				  "pause_frames,pause_frame_rate,max_paused_fraction,"
				  "max_queue_bytes,drops,retransmitted_pct,fct_p99_us,"
				  "calibrate-incast_pass,"),
		      "%s", csv);
	ck_assert_msg(strstr(csv, "\n0,start,20KB,200KB,0,"), "%s", csv);
	ck_assert_msg(strstr(csv, ",recommended\n"), "%s", csv);
	/* kmax 200KB with kmin 320KB or 1.28MB does not load: never run */
	ck_assert_msg(strstr(csv, ",design,320KB,200KB,0,,invalid,,0,,,,,,,,,,,,,,0,,,"
				  "ecn.kmax: 200KB must be above ecn.kmin (320KB)\n"), "%s", csv);
	free(csv);
	char *rec = tl_slurp(dir, "recommended.ini");
	ck_assert_msg(strstr(rec, "[ecn]\nkmin = "), "%s", rec);
	free(rec);
	/* the recommendation for the switches: its WRED profile's thresholds */
	char export_dir[256], want[96];
	snprintf(export_dir, sizeof(export_dir), "%s/export", dir);
	char *db = tl_slurp(export_dir, "config_db.json");
	int64_t kmin;
	char why[128];
	ck_assert(!strncmp(sets[0], "ecn.kmin=", 9));
	ck_assert_int_eq(units_parse_size(sets[0] + 9, &kmin, why, sizeof(why)), 0);
	snprintf(want, sizeof(want), "\"green_min_threshold\": \"%lld\"", (long long)kmin);
	ck_assert_msg(strstr(db, want), "%s not in %s", want, db);
	free(db);
	char *plane = tl_slurp(dir, "plane.csv");
	ck_assert_msg(!strncmp(plane, "key_a,a,a_base,key_b,b,b_base,pass,margin,binding,"
				      "recommended\n", 62), "%s", plane);
	/* every pair of the two keys' values, one of them the recommendation */
	int rows = 0, recommended = 0;
	for (const char *p = plane; (p = strchr(p, '\n')); p++) {
		rows++;
		recommended += !strncmp(p - 2, ",1", 2);
	}
	ck_assert_int_eq(rows, 1 + 4 * 4);
	ck_assert_int_le(recommended, 1);
	ck_assert_msg(strstr(plane, "ecn.kmin,320KB,320000,ecn.kmax,200KB,200000,0,,invalid,0\n") ||
		      strstr(plane, "ecn.kmax,200KB,200000,ecn.kmin,320KB,320000,0,,invalid,0\n"),
		      "%s", plane);
	free(plane);

	/* a plain run with the recommendation passes */
	const char *const run_sets[] = { sets[0], sets[1], NULL };
	struct scn_error e;
	struct scenario *s = tl_scn_new();
	ck_assert_int_eq(scenario_load_file(s, o.scenario, &e), 0);
	for (int i = 0; run_sets[i]; i++)
		ck_assert_msg(scenario_set(s, run_sets[i], &e) == 0, "%s", e.msg);
	ck_assert_int_eq(scenario_finalize(s, &e), 0);
	struct run_opts ro = { 0 };
	struct run_result r;
	ck_assert_int_eq(run_scenario(s, &ro, &r), RUN_OK);
	ck_assert_int_eq(r.criteria_pass, 1);
	tl_unload(s);

	/* and at the scenario's own thresholds it fails */
	s = tl_scn_new();
	ck_assert_int_eq(scenario_load_file(s, o.scenario, &e), 0);
	ck_assert_int_eq(scenario_finalize(s, &e), 0);
	ck_assert_int_eq(run_scenario(s, &ro, &r), RUN_OK);
	ck_assert_int_eq(r.criteria_pass, 0);
	tl_unload(s);
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* stress scenarios and seeds: every point runs on each scenario with each
 * seed, and the scenarios get a column group each */
START_TEST(stress_and_seeds)
{
	char dir[] = "/tmp/dcqcn-calibrate-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	struct calibrate_opts o = { .scenario = TEST_DATA_DIR "/calibrate-incast.ini",
				    .stress = { TEST_DATA_DIR "/calibrate-incast.ini" }, .nstress = 1,
				    .seeds = 2, .jobs = 2, .out_dir = dir, .no_plane = 1 };
	const char *const sets[] = { "job.burst.size=2MB" };
	o.sets = sets;
	o.nsets = 1;
	char err[1024];
	o.keys[0] = tune("ecn.kmax=400KB:3.2MB:x2");
	o.nkeys = 1;
	int st = calibrate_run(&o, NULL, err, sizeof(err));
	ck_assert_msg(st == 0 || st == CALIBRATE_NONE_PASSES, "calibrate: %d %s", st, err);
	char *csv = tl_slurp(dir, "calibrate.csv");
	ck_assert_msg(strstr(csv, ",calibrate-incast_pass,calibrate-incast_margin,"
				  "calibrate-incast_binding,calibrate-incast-2_pass,"),
		      "%s", csv);
	/* the scenario's own kmax (200KB) joins the grid and starts the search:
	 * 5 points x 2 scenarios x 2 seeds, 4 runs each */
	int points = 0;
	for (const char *p = strchr(csv, '\n'); p && p[1]; p = strchr(p + 1, '\n'))
		points++;
	ck_assert_int_eq(points, 5);
	ck_assert_msg(strstr(csv, "\n0,start,200KB,"), "%s", csv);
	ck_assert_msg(strstr(csv, "\n1,design,400KB,"), "%s", csv);
	ck_assert_msg(strstr(csv, "\n4,design,3.2MB,"), "%s", csv);
	for (const char *p = strchr(csv, '\n'); p && p[1]; p = strchr(p + 1, '\n')) {
		/* runs is the 8th column */
		const char *f = p + 1;
		for (int c = 0; c < 7; c++)
			f = strchr(f, ',') + 1;
		ck_assert_msg(!strncmp(f, "4,", 2), "%s", p + 1);
	}
	free(csv);
	/* the design's 4 points as a zipped sweep: the key and the seeds
	 * (the scenario's own, 1, and the next) as axes, 8 runs */
	char path[256];
	snprintf(path, sizeof(path), "%s/runs/b002-calibrate-incast-2", dir);
	char *sw = tl_slurp(path, "sweep.csv");
	ck_assert_msg(!strncmp(sw, "point,dir,ecn.kmax,", 19), "%s", sw);
	ck_assert_msg(strstr(sw, ",sim.seed,"), "%s", sw);
	ck_assert_msg(strstr(sw, "\n0,p000,400KB,400000,1,") && strstr(sw, "\n1,p001,400KB,400000,2,") &&
		      strstr(sw, "\n7,p007,3.2MB,3200000,2,") && !strstr(sw, "\n8,"), "%s", sw);
	free(sw);
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

static Suite *make_calibrate_suite(void)
{
	Suite *s = suite_create("calibrate");
	TCase *tc = tcase_create("calibrate");
	tcase_add_test(tc, grids);
	tcase_add_test(tc, margins);
	tcase_add_test(tc, search_finds_the_best);
	tcase_add_test(tc, ties_go_to_the_next_margin);
	tcase_add_test(tc, robust_recommendation);
	tcase_add_test(tc, search_reports_no_pass);
	tcase_add_test(tc, traps);
	tcase_add_test(tc, own_settings_win_a_tie);
	tcase_add_test(tc, calibrates_a_fabric);
	tcase_add_test(tc, stress_and_seeds);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tl_run(make_calibrate_suite());
}
