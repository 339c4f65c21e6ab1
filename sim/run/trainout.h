/*
 * trainout.h - the ideal-network run of training jobs (job.ideal_network,
 * docs/model.md#training): before the run itself, those jobs run alone on
 * the same fabric, without the other jobs and faults and with nic.cc =
 * none, and each step's time there is what training.csv compares the
 * step to (congestion_cost).
 */
#ifndef DCQCN_TRAINOUT_H
#define DCQCN_TRAINOUT_H

#include <stddef.h>
#include <stdint.h>

#include "models/base/units.h"

struct scenario;

struct train_ideal {
	sim_time_ps *step;             /* [base[job] + iteration]; 0: not run or not done */
	uint32_t *base;                /* by job of the scenario */
	uint32_t njobs;
};

/* run the jobs with ideal_network set alone (none: nothing is run) on
 * `threads` threads; 0, or -1 with a message in err */
int train_ideal_run(const struct scenario *scn, unsigned threads, struct train_ideal *ti,
		    char *err, size_t errlen);
/* the ideal time of a job's step, or 0 */
sim_time_ps train_ideal_of(const struct train_ideal *ti, uint32_t job, uint32_t iter);
void train_ideal_free(struct train_ideal *ti);

#endif
