/*
 * permutation.c - the permutation pattern (docs/model.md#traffic): rank i
 * sends `size` to rank perm(i), where perm is a random derangement (no
 * rank sends to itself) drawn from the job's own stream, so it depends
 * only on (seed, job).  Each message on a QP of its own; ids within an
 * iteration by rank.
 */
#include <gsl/gsl_randist.h>
#include <stdlib.h>

#include "models/base/rng.h"
#include "models/node/nic.h"
#include "models/scenario/scenario.h"
#include "models/workload/internal.h"

/* every rank's message */
static void perm_release(struct traffic *t, struct traffic_job *jb, sim_time_ps sched)
{
	for (uint32_t i = 0; i < jb->n; i++)
		nic_post_at(t->net,
			    traffic_msg(t, jb, i, jb->qps[i], jb->j->size_bytes,
					traffic_rank_start(t, jb, i)),
			    sched);
}

/* the derangement (jb->pat) */
static int perm_build(struct traffic *t, struct traffic_job *jb)
{
	uint32_t n = jb->n = jb->j->ranks.n;
	jb->ranks = n;
	jb->per_iter = n;
	jb->iter_bytes = (int64_t)n * jb->j->size_bytes;
	jb->msg_bytes = jb->iter_bytes;
	gsl_rng *r = rng_stream(t->scn->seed, RNG_ID(RNG_JOB, jb->index));
	uint32_t *perm = jb->pat = malloc(n * sizeof(*perm));
	if (!r || !perm) {
		rng_free(r);
		return -1;
	}
	/* rejection sampling: a uniform shuffle has no fixed point with
	 * probability about 1/e, so this takes about 2.7 shuffles */
	for (int fixed = 1; fixed;) {
		for (uint32_t i = 0; i < n; i++)
			perm[i] = i;
		gsl_ran_shuffle(r, perm, n, sizeof(*perm));
		fixed = 0;
		for (uint32_t i = 0; i < n && !fixed; i++)
			fixed = perm[i] == i;
	}
	rng_free(r);
	return 0;
}

static int perm_open_qps(struct traffic *t, struct traffic_job *jb)
{
	const uint32_t *h = jb->j->ranks.hosts, *perm = jb->pat;
	jb->qps = malloc(jb->n * sizeof(*jb->qps));
	if (!jb->qps)
		return -1;
	for (uint32_t i = 0; i < jb->n; i++)
		if (traffic_qp(t, jb, i, h[i], h[perm[i]], jb->dscp))
			return -1;
	return 0;
}

const struct traffic_pattern traffic_permutation = {
	.qps = traffic_ranks_n,
	.receivers = traffic_ranks_n,
	.build = perm_build,
	.open_qps = perm_open_qps,
	.hosts = traffic_rank_hosts,
	.rank_host = traffic_rank_host,
	.release = perm_release,
};
