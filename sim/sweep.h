/*
 * sweep.h - `dcqcn-sim sweep`: one run per point of the Cartesian product
 * of the --vary axes, each in DIR/pNNN/, and DIR/sweep.csv with one row per
 * point: its axis values, its summary.csv row (criteria_pass and
 * criteria_failed included: the point's own [criteria], which an axis may
 * vary too).
 *
 * Every point is loaded and checked before the first run starts, so a bad
 * value fails the whole sweep at once (exit 2) rather than after an hour.
 * Points run in up to `jobs` child processes; sweep.csv is written in point
 * order once all have finished, so it does not depend on -j.  Nothing here
 * prints except through `log` (progress lines).
 */
#ifndef DCQCN_SWEEP_H
#define DCQCN_SWEEP_H

#include <signal.h>
#include <stdio.h>

#define SWEEP_MAX_AXES 8
#define SWEEP_MAX_VALUES 256
#define SWEEP_MAX_POINTS 10000

struct sweep_axis {
	const char *key;                    /* section.key */
	const char *values[SWEEP_MAX_VALUES];
	int n;
};

struct sweep_opts {
	const char *scenario;               /* NULL: the embedded default */
	const char *const *sets;            /* --set assignments of every point */
	int nsets;
	struct sweep_axis axes[SWEEP_MAX_AXES];
	int naxes;
	int jobs;                           /* concurrent runs (>= 1) */
	const char *out_dir;
	FILE *log;                          /* a line per finished point; NULL: none */
	volatile sig_atomic_t *interrupt;
	int resume;                         /* skip the points whose run in out_dir ended
					     * (summary.csv says done or duration) */
};

/* parse "section.key=V1,V2,..." into axis (pointing into arg, which it
 * edits); 0, or -1 with a reason: the syntax, or a key that does not exist
 * ("--vary nic.ccc: unknown key; did you mean nic.cc?").  Whether a job or
 * fault the key names exists is checked with the points. */
int sweep_parse_vary(char *arg, struct sweep_axis *axis, char *err, size_t errlen);

/* run the sweep.  Returns 0 when every point ran (whatever its criteria
 * say), 1 when a point broke an invariant, 2 on bad input or I/O error (err
 * says which point and why), 3 when interrupted.  *failed gets the number
 * of points that missed their criteria, *unjudged the number that got no
 * verdict (criteria_pass empty: the run did not finish its traffic). */
int sweep_run(const struct sweep_opts *o, int *failed, int *unjudged, char *err,
	      size_t errlen);

#endif
