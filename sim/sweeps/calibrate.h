/*
 * calibrate.h - `dcqcn-sim calibrate`: search the tuned keys (ECN and
 * DCQCN thresholds) for the settings that pass the [criteria] of a scenario
 * and of every stress scenario, on every seed, with the largest margin
 * (docs/calibration.md says it for users).
 *
 * The margin of one run is the smallest of its criteria's relative
 * margins (positive: met with room to spare):
 *   min_busbw_pct_line     (judged busbw - floor) / floor
 *   max_ecn_mark_pct       (ceiling - marked) / ceiling
 *   max_pause_frame_rate   (ceiling - rate) / ceiling      (when a ceiling is set)
 *   max_retransmitted_pct  (ceiling - resent) / ceiling
 * a ceiling of 0 divides by one unit (1 %, 1 frame/s) instead.  Drop limits
 * (max_lossless_drops, max_drops) and the run's end are hard: met, they set
 * no margin; missed, the margin is -(excess / max(limit, 1)) - 1.  A run
 * that did not finish its traffic in sim.duration (or failed a job) scores
 * CAL_MARGIN_UNFINISHED plus the fraction of its flows that completed, so
 * unfinished points still rank by how far they got; a run that failed
 * outright scores one below that.  A point's margin is the smallest over
 * its runs (scenarios x seeds); the criterion and scenario that give it
 * "bind".
 *
 * The search, in phases (calibrate.csv's phase column):
 *   start       the scenario's own settings (each key's value joins its grid)
 *   design      a space-filling design over the keys: the whole grid when it
 *               has no more points than the budget, else budget/2 points of
 *               a Halton sequence (one prime base per key) mapped onto the
 *               grids
 *   refine      from the best point so far, moves of one grid step: each key
 *               alone up and down, moves of several keys at once (all of
 *               them for up to three keys, else 2 x keys drawn at random
 *               with a fixed seed) and, after a step that gained, the same
 *               step again; repeated while a step finds a better point and
 *               the budget (points of design and refine) lasts
 *   plane       the margin over the two most influential keys, the others
 *               at the search's best (calibrate_run; not in the search core)
 *   neighbours  the one-step neighbours (each key one grid value up and
 *               down) of the best passing points, for robustness
 * Every point evaluated, whatever its phase, is a candidate.  Points the
 * loader rejects (ecn.kmax not above ecn.kmin) cost no run and are counted
 * as rejected.
 *
 * Better (calibrate_better): a passing point beats a failing one; of two
 * passing points the one whose scenarios raise fewer risk warnings; then
 * the larger margin, then the larger next-smallest criterion margin, and
 * so on.  The recommendation is the best passing point whose one-step
 * neighbours all pass (among CAL_ROBUST_TOP, at most CAL_ROBUST_CANDIDATES
 * of them checked, passing over those with a neighbour already seen
 * failing), or the best when none does ("FRAGILE"), or the best point when
 * none passes.  The scenario's own settings win a tie: when they pass, raise
 * no more warnings and the best gains less than CAL_MIN_GAIN of margin over
 * them, they are checked first and kept (no change for nothing).
 *
 * The search core takes its evaluator as a callback, so it is tested alone
 * (test_calibrate.c); calibrate_run() evaluates points with sweep_run(), a
 * zipped sweep per scenario and batch of points, the seeds one per run.
 */
#ifndef DCQCN_CALIBRATE_H
#define DCQCN_CALIBRATE_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#define CAL_MAX_KEYS 8
#define CAL_MAX_VALUES 32
#define CAL_MAX_STRESS 8 /* stress scenarios (a plain number: --help prints it) */
#define CAL_MAX_SCENARIOS (CAL_MAX_STRESS + 1) /* the scenario and its stress scenarios */
#define CAL_MAX_SEEDS 16
#define CAL_DEFAULT_SEEDS 3     /* seeds per point unless --seeds (docs/calibration.md#seeds) */
#define CAL_DEFAULT_BUDGET 64   /* points of design and refine unless --budget */
#define CAL_MAX_BUDGET 4096
#define CAL_MIN_GAIN 1e-3       /* margin a change must gain over the own settings */
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

/* what a summary.csv row says, for the margins and the report */
struct cal_run {
	int ran;                     /* 0: the run failed (no summary) */
	int judged;                  /* criteria_pass was 0 or 1 */
	int pass;                    /* criteria_pass = 1 */
	int has_busbw;               /* a judged collective iteration */
	double busbw_pct;            /* the judged statistic (criteria.busbw_stat) */
	double ecn_mark_pct, pause_frame_rate, retransmitted_pct;
	int64_t drops_lossless, drops;
	int jobs_failed;
	double progress;             /* flows completed / flows in the run (0-1) */
	/* the report's figures, as summary.csv has them */
	double busbw_min_pct, busbw_mean_pct;  /* busbw_judged_min_pct, _mean_pct */
	double max_paused_fraction, fct_p99_us;
	int64_t pause_frames, max_queue_bytes;
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
	/* per run, scenario-major then seed (nscn x nseeds); NULL: not kept (a
	 * synthetic evaluator).  The evaluator allocates it; the outcome that
	 * holds the point frees it. */
	struct cal_run *detail;
	int ndetail;
	int warnings;                          /* risk warnings (scenario_warnings) of the
						* scenario that raises the most */
	char warned[200];                      /* their keys, ", "-joined */
	double progress;                       /* the smallest over runs (1: all finished) */
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

/* is a better than b: a passing point beats a failing one, of two passing
 * points fewer warnings win, then the larger margin, then (margins equal
 * within 1e-6) the larger next-smallest criterion margin, and so on; full
 * ties keep b */
int calibrate_better(const struct cal_score *a, const struct cal_score *b);

/*
 * The evaluator: the points idx[0..n-1] (a value index per key, distinct,
 * none seen before), in any arrangement.  Fills out[] (the detail it
 * allocates passes to the caller); returns 0, or -1 with err (stop: an
 * interrupt or an I/O error).
 */
typedef int (*cal_eval_fn)(void *ctx, int n, const int (*idx)[CAL_MAX_KEYS],
			   struct cal_score *out, char *err, size_t errlen);

enum cal_phase { CAL_START, CAL_DESIGN, CAL_REFINE, CAL_PLANE, CAL_NEIGHBOURS, CAL_N_PHASES };
extern const char *const cal_phase_names[CAL_N_PHASES];

struct cal_point {
	int idx[CAL_MAX_KEYS];
	enum cal_phase phase;
	int step;                              /* refine: its step (1, 2, ...) */
	struct cal_score score;
};

struct cal_search {
	const struct cal_key *keys;
	int nkeys;
	int start[CAL_MAX_KEYS];               /* the first point */
	int own;                               /* it is the scenario's own settings (they
						* win ties) */
	int budget;                            /* points of design and refine; 0: the
						* default */
	cal_eval_fn eval;
	void *ctx;
	FILE *log;                             /* a line per batch; NULL: none */
};

struct cal_outcome {
	struct cal_point *points;              /* every point seen, in order; 0 the start */
	int npoints, cap;
	int best, runner_up;                   /* indices in points; runner_up -1: none */
	int checked;                           /* the neighbour check ran (a recommendation
						* that may be exported) */
	int own_kept;                          /* the start won a tie with a better margin
						* elsewhere: kept, no change for nothing */
	int passed_over;                       /* a passing point of larger margin not
						* preferred for its warnings; -1: none */
	int neighbours, neighbours_pass;       /* the best's one-step neighbours (those the
						* loader takes) and how many pass */
	int weakest;                           /* the weakest of them, -1: none */
	int whole_grid;                        /* the design was the whole grid */
	int steps;                             /* refine steps */
	long runs;                             /* runs of every point */
	long phase_runs[CAL_N_PHASES];         /* ... by phase */
	int phase_points[CAL_N_PHASES];        /* points the loader took, by phase */
	int rejected;                          /* points the loader rejected */
	double influence[CAL_MAX_KEYS];        /* each key's main effect: the spread of the
						* mean margin (clipped to +-1) over its values */
};

/* the search: start, design, refine, then the recommendation (neighbours);
 * 0, or -1 with err (out keeps the points seen so far, best the best of
 * them, checked 0) */
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
	int seeds;                             /* seeds per point: each scenario's sim.seed
						* + 0..seeds-1 (>= 1) */
	int budget;                            /* points of design and refine (0: default) */
	int export_failing;                    /* 1: export/ and recommended.ini even when
						* nothing passes or the search was cut short,
						* each file marked */
	int jobs;                              /* concurrent runs */
	const char *out_dir;
	FILE *log;                             /* progress lines; NULL: none */
	FILE *out;                             /* the recommendation; NULL: none */
	volatile sig_atomic_t *interrupt;
	int no_plane;                          /* 1: no margin plane (no figure) */
};

#define CALIBRATE_NONE_PASSES 5

/*
 * Run the calibration into out_dir: runs/ (one sweep directory per batch
 * and scenario), calibrate.csv (every point evaluated, its metrics),
 * plane.csv (the margin over the two most influential keys, the other keys
 * at the search's best:
 * key_a,a,a_base,key_b,b,b_base,pass,margin,binding,recommended, the base
 * values in bytes, ps, bps, ppb or as the plain number), and, when the
 * recommendation passes and its neighbours were checked (or
 * export_failing, then each file marked DOES NOT PASS or INTERRUPTED),
 * recommended.ini (the settings as scenario keys) and export/ (the
 * recommendation as scenario_export() writes it).  Returns 0 when a passing
 * point was found, CALIBRATE_NONE_PASSES (5) when none passes, 2 on bad
 * input or I/O (err), 3 when interrupted.  The best point's settings go to
 * sets_out as --set assignments, one per key ("ecn.kmin=600KB"), and the
 * report to o->out.
 */
int calibrate_run(const struct calibrate_opts *o, char (*sets_out)[96], char *err,
		  size_t errlen);

#endif
