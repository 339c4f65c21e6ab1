/*
 * training.c - the data of training.png (training.gp): one step of a
 * training job as each pipeline stage's first GPU spends it, from
 * training_timeline.csv (its compute blocks) and training.csv (the step's
 * start, end and accounting): the first step of the first training job.
 */
#include "plots/internal.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

#define TRAINING_STAGES_MAX 64

static const char *const timeline_cols[] = { "job", "iteration", "stage", "block", "start_us",
					     "end_us", NULL };
static const char *const step_cols[] = { "job", "iteration", "start_us", "end_us", "efficiency",
					 "bubble_fraction", NULL };

struct training {
	char job[64];     /* the job drawn: the first row's */
	FILE *out;
	int stages;       /* the highest stage drawn + 1 */
	long blocks;
	double step0, step1, efficiency, bubble;
};

/* a block of the job's first step: stage, start, end, kind (0 a forward
 * block, 1 a backward one) */
static int timeline_row(struct scan *sc, char *const *f)
{
	struct training *tr = sc->ctx;
	double it, stage, t0, t1;
	if (scan_num(sc, f, 1, &it) || scan_num(sc, f, 2, &stage) || scan_num(sc, f, 4, &t0) ||
	    scan_num(sc, f, 5, &t1))
		return -1;
	if (!tr->job[0])
		snprintf(tr->job, sizeof(tr->job), "%s", f[0]);
	if (strcmp(f[0], tr->job) || it != 0)
		return 0;
	if (stage < 0 || stage >= TRAINING_STAGES_MAX)
		return fail(sc->err, sc->errlen, "%s:%lu: stage %g (0-%d drawn)", sc->path,
			    sc->line, stage, TRAINING_STAGES_MAX - 1);
	if ((int)stage + 1 > tr->stages)
		tr->stages = (int)stage + 1;
	tr->blocks++;
	fprintf(tr->out, "%d\t%.3f\t%.3f\t%d\n", (int)stage, t0, t1,
		strstr(f[3], "backward") ? 1 : 0);
	return 0;
}

static int step_row(struct scan *sc, char *const *f)
{
	struct training *tr = sc->ctx;
	double it;
	if (scan_num(sc, f, 1, &it))
		return -1;
	if (strcmp(f[0], tr->job) || it != 0)
		return 0;
	return scan_num(sc, f, 2, &tr->step0) || scan_num(sc, f, 3, &tr->step1) ||
	       scan_num(sc, f, 4, &tr->efficiency) || scan_num(sc, f, 5, &tr->bubble);
}

int shape_training(struct fig *g, const struct run_info *ri, char *err, size_t errlen)
{
	char path[PLOT_PATH_MAX];
	if (join(path, sizeof(path), g->dir, "training_timeline.csv", err, errlen))
		return -1;
	if (access(path, F_OK)) {
		snprintf(g->note, sizeof(g->note), "the run has no training job");
		return 1;
	}
	struct training tr = { .step0 = NAN, .step1 = NAN, .efficiency = NAN, .bubble = NAN };
	if (!(tr.out = data_open(g, "training.dat", err, errlen)))
		return -1;
	fputs("stage\tstart_us\tend_us\tbackward\n", tr.out);
	long rows = scan_csv(g->dir, "training_timeline.csv", timeline_cols, timeline_row, &tr,
			     err, errlen);
	if (data_close(tr.out, g, "training.dat", err, errlen) || rows < 0)
		return -1;
	if (!tr.blocks) {
		snprintf(g->note, sizeof(g->note), "training_timeline.csv has no block of a first "
			 "step");
		return 1;
	}
	if (scan_csv(g->dir, "training.csv", step_cols, step_row, &tr, err, errlen) < 0)
		return -1;
	if (isnan(tr.step0))
		return fail(err, errlen, "%s/training.csv: no row for job %s, iteration 0", g->dir,
			    tr.job);
	char job[80], e[32], b[32];
	gp_quote(job, sizeof(job), tr.job);
	return write_vars(g, ri, tr.step1, err, errlen,
			  "job = %s\nnstages = %d\nstep0_us = %.3f\nstep1_us = %.3f\n"
			  "efficiency = %s\nbubble_fraction = %s\n",
			  job, tr.stages, tr.step0, tr.step1, gp_num(tr.efficiency, e, sizeof(e)),
			  gp_num(tr.bubble, b, sizeof(b)));
}
