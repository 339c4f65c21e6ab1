/*
 * trainout.c - training.csv (docs/outputs.md#training): one row per step
 * of a training job, the critical GPU's account of it (struct coll_step),
 * and training_timeline.csv, its stages' blocks; output.c opens both when
 * the scenario has a training job.  And the ideal-network run those rows
 * compare to (trainout.h).
 */
#include "sim/run/trainout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/fabric/fabric.h"
#include "models/scenario/scenario.h"
#include "models/workload/traffic.h"
#include "sim/run/output.h"

int output_has_training(const struct scenario *scn)
{
	for (uint32_t j = 0; j < scn->njobs; j++)
		if (scn->jobs[j].pattern == SCN_JOB_TRAINING)
			return 1;
	return 0;
}

/* training_timeline.csv: the step's blocks of each stage's first rank */
static void output_blocks(FILE *fp, const struct fabric *f, const struct coll *c)
{
	static const char *const name[] = { "attention_forward", "mlp_forward", "output_forward",
					     "output_backward", "mlp_backward",
					     "attention_backward" };
	char a[32], b[32];
	for (uint32_t k = 0; fp && k < c->step.nblocks; k++) {
		const struct coll_block *bl = &c->step.blocks[k];
		fprintf(fp, "%s,%u,%u,%u,%s,%u,", f->scn->jobs[c->job].name, c->iter, bl->stage,
			bl->rank, name[bl->kind], bl->mb);
		if (bl->layer >= 0)
			fprintf(fp, "%d", bl->layer);
		fprintf(fp, ",%s,%s\n", units_format_us(bl->start_ps, a, sizeof(a)),
			units_format_us(bl->end_ps, b, sizeof(b)));
	}
}

void output_step(FILE *fp, FILE *timeline, const struct fabric *f, const struct coll *c)
{
	const struct coll_step *cs = &c->step;
	char a[32], b[32];
	output_blocks(timeline, f, c);
	if (!fp)
		return;
	fprintf(fp, "%s,%u,%s,%s,", f->scn->jobs[c->job].name, c->iter,
		units_format_us(c->start_ps, a, sizeof(a)), units_format_us(c->end_ps, b, sizeof(b)));
	if (c->failed || !cs->valid) { /* the job failed in this step */
		fprintf(fp, ",,,,,,,,,,,,,,,,,,,,,,,failed\n");
		return;
	}
	sim_time_ps step = c->end_ps - c->start_ps;
	sim_time_ps part[] = { step, cs->compute_ps, cs->bubble_ps, cs->exposed_ps[0],
			       cs->exposed_ps[1], cs->exposed_ps[2], cs->exposed_ps[3],
			       cs->other_ps };
	for (size_t k = 0; k < sizeof(part) / sizeof(part[0]); k++)
		fprintf(fp, "%s,", units_format_us(part[k], a, sizeof(a)));
	fprintf(fp, "%.6f,%.6f,%u,h%u", step > 0 ? (double)cs->compute_ps / (double)step : 0,
		step > 0 ? (double)cs->bubble_ps / (double)step : 0, cs->gpu,
		f->scn->jobs[c->job].ranks.hosts[cs->gpu]);
	for (int k = 0; k < COLL_STEP_KINDS; k++)
		fprintf(fp, ",%llu,%llu", (unsigned long long)cs->msgs[k],
			(unsigned long long)cs->bytes[k]);
	sim_time_ps net = cs->exposed_ps[0] + cs->exposed_ps[1] + cs->exposed_ps[2] +
			  cs->exposed_ps[3];
	fprintf(fp, ",%.6f,", step > 0 ? (double)net / (double)step : 0);
	if (cs->ideal_ps > 0)
		fprintf(fp, "%s,%.6f", units_format_us(cs->ideal_ps, a, sizeof(a)),
			step > 0 ? (double)(step - cs->ideal_ps) / (double)step : 0);
	else
		fprintf(fp, ",");
	fprintf(fp, ",done\n");
}

/* the ideal run's completed steps, by the ideal scenario's job */
struct ideal_ctx {
	struct train_ideal *ti;
	const uint32_t *orig;          /* the original job of each ideal one */
};

static void ideal_done(void *ctx, const struct fabric *f, const struct coll *c)
{
	struct ideal_ctx *x = ctx;
	(void)f;
	if (c->failed)
		return;
	uint32_t j = x->orig[c->job];
	x->ti->step[x->ti->base[j] + c->iter] = c->end_ps - c->start_ps;
}

int train_ideal_run(const struct scenario *scn, unsigned threads, struct train_ideal *ti,
		    char *err, size_t errlen)
{
	*ti = (struct train_ideal){0};
	uint32_t n = 0, total = 0;
	for (uint32_t j = 0; j < scn->njobs; j++)
		n += scn->jobs[j].pattern == SCN_JOB_TRAINING && scn->jobs[j].ideal_network;
	if (!n)
		return 0;
	/* a shallow copy: the jobs' arrays stay the scenario's, read only */
	struct scenario *is = malloc(sizeof(*is));
	uint32_t *orig = malloc(n * sizeof(*orig));
	ti->base = calloc(scn->njobs, sizeof(*ti->base));
	if (!is || !orig || !ti->base) {
		free(is);
		free(orig);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memcpy(is, scn, sizeof(*is));
	is->njobs = 0;
	is->nfaults = 0;
	is->cc = SCN_CC_NONE;
	/* buffers too large to fill: no pause, no credit stall, no drop of
	 * its own making (1 TiB a switch, 1 GiB a VL) */
	is->buffer_bytes = INT64_C(1) << 40;
	is->ib_vl_buffer_bytes = INT64_C(1) << 30;
	for (uint32_t j = 0; j < scn->njobs; j++) {
		ti->base[j] = total;
		total += scn->jobs[j].iterations;
		if (scn->jobs[j].pattern == SCN_JOB_TRAINING && scn->jobs[j].ideal_network) {
			orig[is->njobs] = j;
			is->jobs[is->njobs++] = scn->jobs[j];
		}
	}
	ti->njobs = scn->njobs;
	ti->step = calloc(total, sizeof(*ti->step));
	const char *why = "out of memory";
	struct fabric *f = ti->step ? fabric_create(is, threads, &why) : NULL;
	if (!f) {
		snprintf(err, errlen, "the ideal-network run: %s", why);
		free(is);
		free(orig);
		train_ideal_free(ti);
		return -1;
	}
	struct ideal_ctx x = { ti, orig };
	f->hooks.ctx = &x;
	f->hooks.coll_done = ideal_done;
	fabric_run_until(f, is->duration_ps);
	fabric_destroy(f);
	free(is);
	free(orig);
	return 0;
}

sim_time_ps train_ideal_of(const struct train_ideal *ti, uint32_t job, uint32_t iter)
{
	return ti->step && job < ti->njobs ? ti->step[ti->base[job] + iter] : 0;
}

void train_ideal_free(struct train_ideal *ti)
{
	free(ti->step);
	free(ti->base);
	*ti = (struct train_ideal){0};
}
