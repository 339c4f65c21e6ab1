/*
 * traffic.c - turns [job.*] sections into flows and starts them on time.
 *
 * Patterns in this version (DESIGN B7):
 *   trace        one flow per CSV row; `after` names a row that must finish
 *                first: the flow starts at the later of its start_us and
 *                that row's completion.
 *   incast       every sender sends `size` bytes to `dst`.
 *   permutation  rank i sends `size` to rank perm(i), where perm is a random
 *                derangement (no rank sends to itself) drawn from the job's
 *                own stream, so it depends only on (seed, job index).
 * Every flow has its own QP (own UDP source port, hence own ECMP path).
 *
 * Flows waiting to start sit in a min-heap on (start time, flow id) with a
 * single engine event for the earliest, so a million-row trace costs one
 * pending event, not a million.
 */
#include "fabric.h"

#include <gsl/gsl_randist.h>
#include <stdlib.h>

#include "invariant.h"
#include "rng.h"
#include "scenario.h"

static int start_less(const struct fabric *f, uint32_t a, uint32_t b)
{
	const struct flow *x = &f->flows[a], *y = &f->flows[b];
	return x->start_ps < y->start_ps || (x->start_ps == y->start_ps && a < b);
}

static int heap_push(struct fabric *f, uint32_t id)
{
	struct traffic *t = &f->traffic;
	if (t->n == t->cap) {
		uint32_t cap = t->cap ? t->cap * 2 : 256;
		uint32_t *h = realloc(t->heap, cap * sizeof(*h));
		if (!h)
			return -1;
		t->heap = h;
		t->cap = cap;
	}
	uint32_t i = t->n++;
	while (i > 0 && start_less(f, id, t->heap[(i - 1) / 2])) {
		t->heap[i] = t->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	t->heap[i] = id;
	return 0;
}

static uint32_t heap_pop(struct fabric *f)
{
	struct traffic *t = &f->traffic;
	uint32_t top = t->heap[0], last = t->heap[--t->n], i = 0;
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= t->n)
			break;
		if (c + 1 < t->n && start_less(f, t->heap[c + 1], t->heap[c]))
			c++;
		if (!start_less(f, t->heap[c], last))
			break;
		t->heap[i] = t->heap[c];
		i = c;
	}
	if (t->n)
		t->heap[i] = last;
	return top;
}

static void traffic_arm(struct fabric *f)
{
	struct traffic *t = &f->traffic;
	if (t->n)
		sim_schedule(&f->eng, &t->ev, f->flows[t->heap[0]].start_ps);
	else
		sim_cancel(&f->eng, &t->ev);
}

static void traffic_fire(struct sim_engine *eng, struct sim_event *ev)
{
	struct fabric *f = eng->user;
	(void)ev;
	while (f->traffic.n && f->flows[f->traffic.heap[0]].start_ps <= eng->now)
		nic_post(f, &f->flows[heap_pop(f)]);
	traffic_arm(f);
}

void traffic_flow_done(struct fabric *f, struct flow *fl)
{
	f->flows_done++;
	if (f->hooks.flow_done)
		f->hooks.flow_done(f->hooks.ctx, f, fl);
	for (uint32_t d = fl->first_dep; d != FABRIC_NONE; d = f->flows[d].next_dep) {
		struct flow *dep = &f->flows[d];
		if (dep->start_ps < f->eng.now)
			dep->start_ps = f->eng.now;
		SIM_INVARIANT(heap_push(f, d) == 0, "out of memory for flow starts");
	}
	if (fl->first_dep != FABRIC_NONE)
		traffic_arm(f);
	if (fabric_finished(f))
		f->eng.stop = 1;
}

static uint8_t job_dscp(const struct scenario *scn, const struct scn_job *j)
{
	return (uint8_t)(j->dscp >= 0 ? j->dscp : scn->data_dscp);
}

static int add(struct fabric *f, uint32_t job, uint32_t src, uint32_t dst, int64_t bytes,
	       sim_time_ps start, uint8_t dscp, int32_t after)
{
	return fabric_add_flow(f, job, src, dst, bytes, start, dscp, after) == FABRIC_NONE ? -1 : 0;
}

static int build_permutation(struct fabric *f, uint32_t ji, const struct scn_job *j)
{
	uint32_t n = j->ranks.n;
	uint32_t *perm = malloc(n * sizeof(*perm));
	gsl_rng *r = rng_stream(f->scn->seed, RNG_ID(RNG_JOB, ji));
	int rc = -1;
	if (!perm || !r)
		goto out;
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
	rc = 0;
	for (uint32_t i = 0; i < n && rc == 0; i++)
		rc = add(f, ji, j->ranks.hosts[i], j->ranks.hosts[perm[i]], j->size_bytes,
			 j->start_ps, job_dscp(f->scn, j), -1);
out:
	free(perm);
	rng_free(r);
	return rc;
}

int traffic_build(struct fabric *f)
{
	const struct scenario *scn = f->scn;
	sim_event_init(&f->traffic.ev, traffic_fire);
	for (uint32_t ji = 0; ji < scn->njobs; ji++) {
		const struct scn_job *j = &scn->jobs[ji];
		int rc = 0;
		switch (j->pattern) {
		case SCN_JOB_TRACE: {
			uint32_t base = f->nflows;
			for (uint32_t r = 0; r < j->nrows && rc == 0; r++) {
				const struct scn_trace_row *row = &j->rows[r];
				uint8_t dscp = row->dscp >= 0 ? (uint8_t)row->dscp : job_dscp(scn, j);
				rc = add(f, ji, row->src, row->dst, row->bytes,
					 j->start_ps + row->start_ps, dscp,
					 row->after >= 0 ? (int32_t)(base + (uint32_t)row->after) : -1);
			}
			break;
		}
		case SCN_JOB_INCAST:
			for (uint32_t s = 0; s < j->senders.n && rc == 0; s++)
				rc = add(f, ji, j->senders.hosts[s], j->dst, j->size_bytes,
					 j->start_ps, job_dscp(scn, j), -1);
			break;
		case SCN_JOB_PERMUTATION:
			rc = build_permutation(f, ji, j);
			break;
		}
		if (rc)
			return -1;
	}
	for (uint32_t i = 0; i < f->nflows; i++) {
		struct flow *fl = &f->flows[i];
		if (fl->after < 0) {
			if (heap_push(f, i))
				return -1;
		} else {
			struct flow *first = &f->flows[fl->after];
			fl->next_dep = first->first_dep;
			first->first_dep = i;
		}
	}
	traffic_arm(f);
	return 0;
}

void traffic_free(struct fabric *f)
{
	free(f->traffic.heap);
	f->traffic.heap = NULL;
	f->traffic.n = f->traffic.cap = 0;
}
