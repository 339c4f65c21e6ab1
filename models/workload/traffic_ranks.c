/*
 * traffic_ranks.c - what a partition of the traffic learnt in a window, for
 * the other ranks of a run split over processes (traffic.h,
 * models/fabric/ranks.h).
 *
 * Every rank keeps the whole traffic: at each window's end it takes what
 * the other ranks' partitions left in their lists (posts for other
 * partitions, completions of jobs spread over partitions, failed QPs,
 * iterations and I/Os completed) as if its own threads had run them, and
 * traffic_window_end then settles the same lists in the same order on
 * every rank.  A job within one partition counts its completions where it
 * runs, so its rank sends its state too: every rank then knows when it is
 * over.  Posts into a partition of another rank are left to that rank
 * (nic_post_at).
 */
#include "models/base/bytes.h"
#include "models/workload/internal.h"

/* the partition a job within one partition runs in; UINT32_MAX: spread, or
 * no host */
static uint32_t home_of(const struct traffic *t, const struct traffic_job *jb)
{
	return jb->spread || !jb->nhosts ? UINT32_MAX : traffic_part_of(t, jb->hosts[0]);
}

/* what the ranks take of a job's progress (its rank's) */
struct job_state {
	uint8_t complete;
	uint32_t iter, halted;
	uint64_t expected, expected_past, done;
	int64_t moved;
	sim_time_ps release_ps;
	struct sim_order last;
	uint32_t last_host;
};

void traffic_ranks_pack_job(const struct traffic *t, uint32_t ji, uint32_t part, struct bytes *b)
{
	const struct traffic_job *jb = &t->jobs[ji];
	jb->ops->pack_state(t, jb, part, b);
}

void traffic_ranks_unpack_job(struct traffic *t, uint32_t ji, uint32_t part, struct bytes_in *in)
{
	struct traffic_job *jb = &t->jobs[ji];
	jb->ops->unpack_state(t, jb, part, in);
}

/* a list of n items of size bytes */
static void put_list(struct bytes *b, const void *items, uint32_t n, size_t size)
{
	bytes_u32(b, n);
	bytes_put(b, items, (size_t)n * size);
}

/* a list onto *items (n of cap), grown as needed */
static void get_list(struct bytes_in *in, void **items, uint32_t *n, uint32_t *cap, size_t size)
{
	uint32_t k = bytes_get_u32(in);
	for (uint32_t i = 0; i < k; i++) {
		*items = traffic_grow(*items, cap, *n, size);
		bytes_get(in, (char *)*items + (size_t)*n * size, size);
		(*n)++;
	}
}

void traffic_ranks_pack(const struct traffic *t, uint32_t part, struct bytes *b)
{
	const struct traffic_part *tp = &t->parts[part];
	bytes_put(b, &tp->pending, sizeof(tp->pending));
	bytes_u64(b, tp->done);
	bytes_put(b, &tp->last_done_ps, sizeof(tp->last_done_ps));
	put_list(b, tp->notices, tp->nnotices, sizeof(*tp->notices));
	bytes_put(b, tp->spread, t->njobs * sizeof(*tp->spread));
	put_list(b, tp->fails, tp->nfails, sizeof(*tp->fails));
	put_list(b, tp->colls, tp->ncolls, sizeof(*tp->colls));
	put_list(b, tp->ios, tp->nios, sizeof(*tp->ios));
	for (uint32_t ji = 0; ji < t->njobs; ji++) {
		const struct traffic_job *jb = &t->jobs[ji];
		if (home_of(t, jb) != part)
			continue;
		struct job_state s = { .complete = jb->complete, .iter = jb->iter,
				       .halted = jb->halted, .expected = jb->expected,
				       .expected_past = jb->expected_past, .done = jb->done,
				       .moved = jb->moved, .release_ps = jb->release_ps,
				       .last = jb->last, .last_host = jb->last_host };
		bytes_put(b, &s, sizeof(s));
	}
}

/* the lists of partition `part`, which another rank runs, as packed there:
 * its lists here are empty (taken at the last window's end) */
void traffic_ranks_unpack(struct traffic *t, uint32_t part, struct bytes_in *in)
{
	struct traffic_part *tp = &t->parts[part];
	bytes_get(in, &tp->pending, sizeof(tp->pending));
	tp->done = bytes_get_u64(in);
	bytes_get(in, &tp->last_done_ps, sizeof(tp->last_done_ps));
	get_list(in, (void **)&tp->notices, &tp->nnotices, &tp->notices_cap, sizeof(*tp->notices));
	bytes_get(in, tp->spread, t->njobs * sizeof(*tp->spread));
	get_list(in, (void **)&tp->fails, &tp->nfails, &tp->fails_cap, sizeof(*tp->fails));
	get_list(in, (void **)&tp->colls, &tp->ncolls, &tp->colls_cap, sizeof(*tp->colls));
	get_list(in, (void **)&tp->ios, &tp->nios, &tp->ios_cap, sizeof(*tp->ios));
	for (uint32_t ji = 0; ji < t->njobs; ji++) {
		struct traffic_job *jb = &t->jobs[ji];
		if (home_of(t, jb) != part)
			continue;
		struct job_state s;
		bytes_get(in, &s, sizeof(s));
		jb->complete = s.complete;
		jb->iter = s.iter;
		jb->halted = s.halted;
		jb->expected = s.expected;
		jb->expected_past = s.expected_past;
		jb->done = s.done;
		jb->moved = s.moved;
		jb->release_ps = s.release_ps;
		jb->last = s.last;
		jb->last_host = s.last_host;
	}
}
