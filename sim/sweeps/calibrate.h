/*
 * calibrate.h - `dcqcn-sim calibrate`: search the tuned keys (ECN and
 * DCQCN thresholds) for the settings that pass the [criteria] of a scenario
 * and of every stress scenario, for every seed, with the largest margin.
 *
 * The margin of one run is the smallest of its criteria's relative
 * margins (positive: met with room to spare):
 *   min_busbw_pct_line     (judged busbw - floor) / floor
 *   max_ecn_mark_pct       (ceiling - marked) / ceiling
 *   max_pause_frame_rate   (ceiling - rate) / ceiling      (when a ceiling is set)
 *   max_retransmitted_pct  (ceiling - resent) / ceiling
 * a ceiling of 0 divides by one unit (1 %, 1 frame/s) instead.  Drop limits
 * (max_lossless_drops, max_drops) and the run's end are hard: met, they set
 * no margin; missed, the margin is -(excess / max(limit, 1)) - 1, and a run
 * that did not finish its traffic or failed a job is -1000.  A point's margin
 * is the smallest over its runs (scenarios x seeds); the criterion and
 * scenario that give it "bind".
 *
 * The search: coordinate ascent over the value grid of each key.  It starts
 * at the scenario's own settings (each key's value joins its grid); a round
 * tries every grid value of one key with the others held, key by key, and
 * moves to the best point (a passing point beats a failing one, then the
 * larger margin, then the larger margin of the other criteria, then the one
 * found first); rounds repeat while one gains (a pass, or CAL_MIN_GAIN of
 * margin), at most CAL_MAX_ROUNDS.  A point is run once (a cache of points
 * seen); points the loader rejects (ecn.kmax not above ecn.kmin) are
 * skipped without a run.
 *
 * Robustness: a setting deployed is never exactly the one simulated, so
 * the one-step neighbours (each key one grid value up and down) of the best
 * passing point are run too; when one of them fails, those of the next
 * best (among CAL_ROBUST_TOP, passing over those with a neighbour already
 * seen failing, at most CAL_ROBUST_CANDIDATES in all), and the
 * recommendation is the best point whose every neighbour passes, or the
 * best when none does ("FRAGILE" in the report).  Runs spent: sum over rounds of the grid sizes,
 * against the product of all grid sizes for a full grid.
 *
 * The search core takes its evaluator as a callback, so it is tested alone
 * (test_calibrate.c); calibrate_run() evaluates points with sweep_run(), one
 * sweep per scenario per line, the seeds as an axis.
 */
#ifndef DCQCN_CALIBRATE_H
#define DCQCN_CALIBRATE_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#define CAL_MAX_KEYS 8
#define CAL_MAX_VALUES 32
#define CAL_MAX_SCENARIOS 9 /* the scenario and up to 8 stress scenarios */
#define CAL_MAX_STRESS (CAL_MAX_SCENARIOS - 1)
#define CAL_MAX_ROUNDS 4
#define CAL_MAX_SEEDS 16
#define CAL_MIN_GAIN 1e-3 /* a round that gains less margin ends the search */
#define CAL_ROBUST_TOP 16       /* the best passing points a robust one is sought among */
#define CAL_ROBUST_CANDIDATES 4 /* of them, those whose neighbours may be run */

/* the criteria a margin comes from, in calibrate.csv's words */
enum cal_criterion {
	CAL_NONE,            /* no criterion applies */
	CAL_BUSBW,           /* min_busbw_pct_line */
	CAL_ECN,             /* max_ecn_mark_pct */
	CAL_PAUSE,           /* max_pause_frame_rate */
	CAL_RETRANS,         /* max_retransmitted_pct */
	CAL_LOSSLESS_DROPS,  /* max_lossless_drops */
	CAL_DROPS,           /* max_drops */
	CAL_UNFINISHED,      /* the run did not finish its traffic, or a job failed */
	CAL_RUN_FAILED,      /* the run itself failed (invariant, write error) */
	CAL_N_CRITERIA
};
extern const char *const cal_criterion_names[CAL_N_CRITERIA];

/* the value kinds of a grid, by the unit of its values */
enum cal_unit { CAL_SIZE, CAL_TIME, CAL_RATE, CAL_FRACTION, CAL_PLAIN };

/* one tuned key and its grid of values, in order */
struct cal_key {
	char key[64];                          /* section.key */
	enum cal_unit unit;
	int n;
	int64_t base[CAL_MAX_VALUES];          /* bytes, ps, bps, ppb or the number */
	char text[CAL_MAX_VALUES][24];         /* as set: "150KB", "5" */
};

/* "section.key=LO:HI[:STEP]" into k: STEP is xF (each value F times the
 * last; default x2) or an amount in the values' unit (each value that much
 * above the last); HI is the last value when the steps do not land on it.
 * Geometric values are rounded to 3 significant digits.  0, or -1 with the
 * reason in err. */
int calibrate_parse_tune(const char *arg, struct cal_key *k, char *err, size_t errlen);
/* the default keys and grids (ecn.kmin, ecn.kmax, ecn.pmax,
 * dcqcn.rpg_ai_rate, dcqcn.rpg_time_reset, dcqcn.min_time_between_cnps);
 * returns how many */
int calibrate_default_keys(struct cal_key *keys);

/* what a summary.csv row says, for the margins */
struct cal_run {
	int ran;                     /* 0: the run failed (no summary) */
	int judged;                  /* criteria_pass was 0 or 1 */
	int pass;                    /* criteria_pass = 1 */
	int has_busbw;               /* a judged collective iteration */
	double busbw_pct;            /* the judged statistic (criteria.busbw_stat) */
	double ecn_mark_pct, pause_frame_rate, retransmitted_pct;
	int64_t drops_lossless, drops;
	int jobs_failed;
};
/* the criteria of a scenario, as margins need them */
struct cal_limits {
	double min_busbw_pct;        /* 0: none */
	double max_ecn_mark_pct;
	double max_pause_frame_rate; /* < 0: none */
	double max_retransmitted_pct;
	int64_t max_lossless_drops, max_drops;
};
/* a run's margin and the criterion that sets it; each (NULL: not wanted)
 * gets every criterion's margin, INFINITY where one does not apply */
double calibrate_margin(const struct cal_run *r, const struct cal_limits *l,
			enum cal_criterion *binding, double *each);

/* a point's evaluation over every scenario and seed */
struct cal_score {
	int valid;                             /* 0: the loader rejected the point */
	int pass;                              /* every run passed its criteria */
	double margin;                         /* the smallest over runs */
	enum cal_criterion binding;
	int binding_scn;                       /* scenario index of the binding run */
	int scn_pass[CAL_MAX_SCENARIOS];
	double scn_margin[CAL_MAX_SCENARIOS];
	enum cal_criterion scn_binding[CAL_MAX_SCENARIOS];
	double crit[CAL_N_CRITERIA];           /* each criterion's smallest margin */
	long runs;                             /* runs it took (0 when invalid) */
	char why[256];                         /* invalid: the loader's message */
};

/* is a better than b: a passing point beats a failing one, then the larger
 * margin, then (margins equal within 1e-6) the larger next-smallest
 * criterion margin, and so on; full ties keep b */
int calibrate_better(const struct cal_score *a, const struct cal_score *b);

/*
 * The evaluator: the points idx[0..n-1] (a value index per key) differ
 * only in the keys whose varying[] is set (one key on a line, two on the
 * figure's plane), and form their full product in odometer order (the last
 * varying key fastest), so one sweep per scenario runs them.  Fills out[];
 * returns 0, or -1 with err (stop: an interrupt or an I/O error).
 */
typedef int (*cal_eval_fn)(void *ctx, int n, const int (*idx)[CAL_MAX_KEYS],
			   const int *varying, struct cal_score *out, char *err, size_t errlen);

struct cal_point {
	int idx[CAL_MAX_KEYS];
	int round;                             /* 0: the start */
	struct cal_score score;
};

struct cal_search {
	const struct cal_key *keys;
	int nkeys;
	int start[CAL_MAX_KEYS];               /* the first point */
	cal_eval_fn eval;
	void *ctx;
	FILE *log;                             /* a line per line searched; NULL: none */
};

struct cal_outcome {
	struct cal_point *points;              /* every point seen, in order */
	int npoints, cap;
	int best, runner_up;                   /* indices in points; runner_up -1: none */
	int neighbours, neighbours_pass;       /* the best's one-step neighbours (those the
						* loader takes) and how many pass */
	int weakest;                           /* the weakest of them, -1: none */
	int rounds;
	long runs;                             /* runs the search took */
	double influence[CAL_MAX_KEYS];        /* the margin's spread along each key's
						* line through the best point */
};

/* the search; 0, or -1 with err (out keeps the points seen so far) */
int calibrate_search(const struct cal_search *s, struct cal_outcome *out, char *err,
		     size_t errlen);
void calibrate_outcome_free(struct cal_outcome *out);
/* the full grid's size: the product of the grid sizes */
double calibrate_grid_points(const struct cal_key *keys, int nkeys);

struct calibrate_opts {
	const char *scenario;                  /* NULL: the embedded default */
	const char *stress[CAL_MAX_STRESS];
	int nstress;
	const char *switch_config;             /* --switch-config, --nic-config of every
						* run (config.h); NULL: none */
	const char *nic_config;
	const char *const *sets;               /* --set of every run */
	int nsets;
	struct cal_key keys[CAL_MAX_KEYS];
	int nkeys;
	int seeds;                             /* seeds 1..seeds (>= 1) */
	int jobs;                              /* concurrent runs */
	const char *out_dir;
	FILE *log;                             /* progress lines; NULL: none */
	FILE *out;                             /* the recommendation; NULL: none */
	volatile sig_atomic_t *interrupt;
	int no_plane;                          /* 1: no margin plane (no figure) */
};

#define CALIBRATE_NONE_PASSES 5

/*
 * Run the calibration into out_dir: runs/ (one sweep directory per line and
 * scenario), calibrate.csv (every point evaluated), plane.csv (the margin
 * over the two most influential keys, the other keys at the recommendation:
 * key_a,a,a_base,key_b,b,b_base,pass,margin,binding,recommended, the base
 * values in bytes, ps, bps, ppb or as the plain number),
 * recommended.ini (the settings as scenario keys), export/ (the
 * recommendation as scenario_export() writes it: config_db.json,
 * cc_params.txt, nic-setup.sh, nccl.env).  Returns 0 when a passing
 * point was found, CALIBRATE_NONE_PASSES (5) when none passes (the best is still written), 2 on bad
 * input or I/O (err), 3 when interrupted.  The best point's settings go to
 * sets_out as --set assignments, one per key ("ecn.kmin=600KB"), and the
 * recommendation to o->out.
 */
int calibrate_run(const struct calibrate_opts *o, char (*sets_out)[96], char *err,
		  size_t errlen);

#endif
