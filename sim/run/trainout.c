/*
 * trainout.c - training.csv (docs/outputs.md#training): one row per step
 * of a training job, the critical GPU's account of it (struct coll_step);
 * output.c opens the file when the scenario has a training job.
 */
#include <stdio.h>

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

void output_step(FILE *fp, const struct fabric *f, const struct coll *c)
{
	const struct coll_step *cs = &c->step;
	char a[32], b[32];
	if (!fp)
		return;
	fprintf(fp, "%s,%u,%s,%s,", f->scn->jobs[c->job].name, c->iter,
		units_format_us(c->start_ps, a, sizeof(a)), units_format_us(c->end_ps, b, sizeof(b)));
	if (c->failed || !cs->valid) { /* the job failed in this step */
		fprintf(fp, ",,,,,,,,,,,,,,,,,failed\n");
		return;
	}
	sim_time_ps step = c->end_ps - c->start_ps;
	sim_time_ps part[] = { step, cs->compute_ps, cs->bubble_ps, cs->exposed_ps[0],
			       cs->exposed_ps[1], cs->exposed_ps[2], cs->other_ps };
	for (size_t k = 0; k < sizeof(part) / sizeof(part[0]); k++)
		fprintf(fp, "%s,", units_format_us(part[k], a, sizeof(a)));
	fprintf(fp, "%.6f,%.6f,%u,h%u", step > 0 ? (double)cs->compute_ps / (double)step : 0,
		step > 0 ? (double)cs->bubble_ps / (double)step : 0, cs->gpu,
		f->scn->jobs[c->job].ranks.hosts[cs->gpu]);
	for (int k = 0; k < COLL_STEP_KINDS; k++)
		fprintf(fp, ",%llu,%llu", (unsigned long long)cs->msgs[k],
			(unsigned long long)cs->bytes[k]);
	fprintf(fp, ",done\n");
}
