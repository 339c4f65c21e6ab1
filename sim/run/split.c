/*
 * split.c - what a run split over processes adds to one run (ctx.h,
 * models/fabric/ranks.h): the rows every rank's partitions write go to
 * rank 0 at each window's end, which merges them by their tags as it
 * merges its own threads' (output_merge), so the files are those of one
 * process; at the end, the run's own counts per partition (completion
 * times, per-job totals, probe messages, traced QPs) go to every rank, so
 * that each computes the same summary; rank 0 writes it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/base/hist.h"
#include "models/base/invariant.h"
#include "models/scenario/scenario.h"
#include "sim/run/ctx.h"
#include "sim/run/run.h"

int run_split_init(struct run_ctx *c, const struct fabric_comm *comm)
{
	c->comm = comm && comm->nranks > 1 ? comm : NULL;
	if (!c->comm)
		return 0;
	c->send = calloc((size_t)comm->nranks, sizeof(*c->send));
	c->recv = calloc((size_t)comm->nranks, sizeof(*c->recv));
	return c->send && c->recv ? 0 : -1;
}

void run_split_free(struct run_ctx *c)
{
	int nr = c->comm ? c->comm->nranks : 0;
	bytes_free_all(c->send, nr);
	bytes_free_all(c->recv, nr);
	free(c->ranks_csv);
	c->send = c->recv = NULL;
	c->ranks_csv = NULL;
}

int run_split_max(struct run_ctx *c, int v)
{
	if (!c->comm)
		return v;
	int64_t x = -(int64_t)v;
	c->comm->min(c->comm->ctx, &x, 1);
	return (int)-x;
}

/* each rank's message to the others empty, then the exchange */
static void exchange(struct run_ctx *c)
{
	c->comm->alltoall(c->comm->ctx, c->send, c->recv);
	for (int r = 0; r < c->comm->nranks; r++)
		c->send[r].n = 0;
}

void run_split_merge(struct run_ctx *c)
{
	if (!c->comm) {
		output_merge(&c->out);
		return;
	}
	const struct fabric *f = c->fabric;
	int me = c->comm->rank;
	if (me) {
		for (uint32_t p = 0; p < f->nparts; p++)
			if (fabric_part_here(f, p)) {
				bytes_u32(&c->send[0], p);
				output_pack(&c->out, p, &c->send[0]);
			}
		bytes_u32(&c->send[0], UINT32_MAX);
	}
	exchange(c);
	for (int r = 1; !me && r < c->comm->nranks; r++) {
		struct bytes_in in = { c->recv[r].p, c->recv[r].n, 0 };
		for (uint32_t p; (p = bytes_get_u32(&in)) != UINT32_MAX;) {
			SIM_INVARIANT(p < f->nparts && f->part_rank[p] == (uint32_t)r,
				      "rank %d sent the rows of partition %u, which it does not run", r,
				      p);
			output_unpack(&c->out, p, &in);
		}
	}
	output_merge(&c->out);
}

/* what partition p's thread counted */
static void pack_part(uint32_t nj, const struct part_ctx *pc, struct bytes *b)
{
	for (uint32_t k = 0; k < 2 * nj; k++) {
		bytes_u32(b, pc->fct[k] != NULL);
		if (pc->fct[k])
			hist_pack(pc->fct[k], b);
	}
	bytes_put(b, pc->job_first, nj * sizeof(*pc->job_first));
	bytes_put(b, pc->job_last, nj * sizeof(*pc->job_last));
	bytes_put(b, pc->job_bytes, nj * sizeof(*pc->job_bytes));
	bytes_put(b, &pc->oom, sizeof(pc->oom));
	bytes_put(b, &pc->last_end, sizeof(pc->last_end));
	bytes_u32(b, pc->nprobe);
	bytes_put(b, pc->probe, pc->nprobe * sizeof(*pc->probe));
}

/* ... into the context of another rank's partition, empty until now */
static void unpack_part(uint32_t nj, struct part_ctx *pc, struct bytes_in *in)
{
	for (uint32_t k = 0; k < 2 * nj; k++) {
		if (!bytes_get_u32(in))
			continue;
		if (!pc->fct[k] && (pc->fct[k] = malloc(sizeof(struct hist))))
			hist_init(pc->fct[k]);
		if (!pc->fct[k]) {
			struct hist skip; /* out of memory: read past it */
			hist_init(&skip);
			pc->oom |= hist_unpack(&skip, in) | -1;
			hist_free(&skip);
			continue;
		}
		pc->oom |= hist_unpack(pc->fct[k], in);
	}
	bytes_get(in, pc->job_first, nj * sizeof(*pc->job_first));
	bytes_get(in, pc->job_last, nj * sizeof(*pc->job_last));
	bytes_get(in, pc->job_bytes, nj * sizeof(*pc->job_bytes));
	int oom;
	bytes_get(in, &oom, sizeof(oom));
	pc->oom |= oom;
	bytes_get(in, &pc->last_end, sizeof(pc->last_end));
	uint32_t n = bytes_get_u32(in);
	const void *m = bytes_at(in, n * sizeof(struct probe_msg)); /* unaligned */
	struct probe_msg *np = n ? realloc(pc->probe, n * sizeof(*np)) : pc->probe;
	if (n && !np) {
		pc->oom = 1;
		return;
	}
	pc->probe = np;
	if (n)
		memcpy(pc->probe, m, n * sizeof(*pc->probe));
	pc->nprobe = pc->probe_cap = n;
}

static void on_unfinished(void *ctx, const struct flow *fl)
{
	struct run_ctx *c = ctx;
	const struct fabric *f = c->fabric;
	output_flow_unfinished(&c->out, f, f->nics[fl->src].net->part, fl);
}

void run_split_finish(struct run_ctx *c, struct fabric *f)
{
	const struct fabric_comm *comm = c->comm;
	uint32_t me = (uint32_t)comm->rank;
	struct bytes *b = &c->send[me]; /* a scratch, never sent */
	b->n = 0;
	for (uint32_t p = 0; p < f->nparts; p++)
		if (fabric_part_here(f, p)) {
			bytes_u32(b, p);
			pack_part(f->scn->njobs, &c->part[p], b);
		}
	bytes_u32(b, UINT32_MAX);
	if (c->has_out)
		output_qps_pack(&c->out, b);
	for (int r = 0; r < comm->nranks; r++)
		if ((uint32_t)r != me)
			bytes_put(&c->send[r], b->p, b->n);
	b->n = 0;
	exchange(c);
	for (int r = 0; r < comm->nranks; r++) {
		if ((uint32_t)r == me)
			continue;
		struct bytes_in in = { c->recv[r].p, c->recv[r].n, 0 };
		for (uint32_t p; (p = bytes_get_u32(&in)) != UINT32_MAX;) {
			SIM_INVARIANT(p < f->nparts && f->part_rank[p] == (uint32_t)r,
				      "rank %d sent the counts of partition %u, which it does not run",
				      r, p);
			unpack_part(f->scn->njobs, &c->part[p], &in);
		}
		if (c->has_out)
			output_qps_unpack(&c->out, &in);
	}
	/* the messages that did not complete, each from its sender's rank */
	if (c->has_out && f->scn->output_flows && fabric_unfinished(f, on_unfinished, c))
		c->part[0].oom = 1;
	if (c->has_out)
		run_split_merge(c);
}

void run_print_split(const struct scenario *scn, int ranks, FILE *out)
{
	char why[512];
	if (fabric_split_refused(scn, ranks, why, sizeof(why))) {
		fprintf(out, "# mpirun -np %d: %s\n", ranks, why);
		return;
	}
	struct fabric_rank_plan *rp = calloc((size_t)ranks, sizeof(*rp));
	if (!rp || fabric_split_plan(scn, 0, ranks, rp)) {
		fprintf(out, "# mpirun -np %d: out of memory for the plan\n", ranks);
		free(rp);
		return;
	}
	uint64_t total = 0;
	for (int r = 0; r < ranks; r++)
		total += rp[r].weight;
	fprintf(out, "# mpirun -np %d: each rank runs its partitions on %s; the files are "
		"rank 0's, byte for byte those of one process\n", ranks,
		scn->threads == SCN_AUTO ? "1 thread (sim.threads = auto)" : "sim.threads threads");
	for (int r = 0; r < ranks; r++) {
		char parts[48];
		if (rp[r].parts == 1)
			snprintf(parts, sizeof(parts), "partition %u", rp[r].first);
		else
			snprintf(parts, sizeof(parts), "partitions %u-%u", rp[r].first, rp[r].last);
		fprintf(out, "# rank %d: %s, %u unit%s, weight %llu (%.1f%%)\n", r, parts,
			rp[r].units, rp[r].units == 1 ? "" : "s", (unsigned long long)rp[r].weight,
			total ? 100.0 * (double)rp[r].weight / (double)total : 0.0);
	}
	free(rp);
}

void run_split_costs(struct run_ctx *c, const struct fabric *f, double wall_s, double peak_mb)
{
	uint32_t parts = 0;
	uint64_t events = 0;
	for (uint32_t p = 0; p < f->nparts; p++)
		if (fabric_part_here(f, p)) {
			parts++;
			events += f->parts[p].net.eng.events;
		}
	struct run_comm_costs k = run_comm_costs(c->comm);
	char row[512];
	int n = snprintf(row, sizeof(row), "%d,%u,%u,%llu,%.3f,%llu,%llu,%.0f,%llu,%.3f,%.1f",
			 c->comm->rank, parts, f->nthreads, (unsigned long long)events, wall_s,
			 (unsigned long long)k.exchanges, (unsigned long long)k.sent_bytes,
			 k.exchanges ? (double)k.sent_bytes / (double)k.exchanges : 0.0,
			 (unsigned long long)k.reductions, k.wait_s, peak_mb);
	if (c->comm->rank) {
		bytes_u32(&c->send[0], (uint32_t)n);
		bytes_put(&c->send[0], row, (size_t)n);
	}
	exchange(c);
	if (c->comm->rank)
		return;
	struct bytes all = {0};
	bytes_put(&all, row, (size_t)n);
	for (int r = 1; r < c->comm->nranks; r++) {
		struct bytes_in in = { c->recv[r].p, c->recv[r].n, 0 };
		uint32_t len = bytes_get_u32(&in);
		bytes_put(&all, "\n", 1);
		bytes_put(&all, bytes_at(&in, len), len);
	}
	bytes_put(&all, "", 1);
	c->ranks_csv = (char *)all.p;
}
