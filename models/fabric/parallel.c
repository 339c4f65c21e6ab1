/*
 * parallel.c - partitions, windows and threads (see fabric.h).
 *
 * Units.  The topology fixes them: leaf-spine, a leaf with its hosts, and
 * each spine; rail-optimized, a scalable unit (its rail leaves and
 * servers: a server's GPUs, joined by NVLink, sit on every rail leaf of
 * the unit) and each spine; fat-tree, an edge switch with its hosts, and
 * each aggregation and core switch; a star is one unit.  Only fabric links
 * join two units.
 *
 * Partitions.  Each tier's units (leaves, spines; edges, aggregation,
 * cores; numbered in a row, as topology.h numbers the switches) are cut into
 * stretches of consecutive units of about equal weight (ports, plus hosts
 * twice: a host's NIC fires about as often as a switch port), the k-th
 * stretch of every tier going to partition k; partitions go to threads in
 * stretches the same way.  So a thread's nodes lie in a few long runs of
 * every table (NICs, QPs, switches, ports), not in one run a unit: the
 * heaviest unit to the lightest partition had made them alternate, leaf by
 * leaf (a switch takes 320 B), and threads that write memory interleaved at
 * that grain run much slower than in long stretches, though they share no
 * cache line (docs/SCALING.md#units-in-stretches).
 *
 * Each partition has its own engine, packet and message pools, counters and
 * samplers (a `struct net`), and nodes point to their partition's.  A
 * thread runs its partitions one after another within each window.
 * sim.partitions = auto gives one partition a thread,
 * or, in a fabric heavier than LOCALITY_WEIGHT a thread, partitions of
 * about LOCALITY_WEIGHT (a 32-host leaf with 16 uplinks weighs 112, so some
 * 18 leaves).  Fewer units than threads, or no lookahead (fabric cables of
 * 0 m), use fewer threads; so does sim.threads = auto on a light fabric
 * (FABRIC_AUTO_THREAD_WEIGHT, fabric.h) and for jobs that deliver few
 * packets a window (FABRIC_AUTO_WINDOW_PACKETS).
 *
 * Why several partitions on one thread: every rank of a ring all-reduce
 * works at once, so in one engine thousands of events of other ranks
 * separate two events of one rank; its NIC, QPs, messages and ports leave
 * the caches in between, and the engine's slots hold thousands of events of
 * one instant whose sorted insertion walks.  A partition's events of a
 * window touch its own state and queue only, which takes instructions and
 * cache misses off; partitions much smaller than LOCALITY_WEIGHT lose it
 * again to the window's fixed costs per partition and the pools' slack
 * (docs/SCALING.md#several-partitions-a-thread).  A 127-to-1 incast, whose
 * windows hold 9 events, stays on one.
 *
 * Windows.  The lookahead L is the propagation of a fabric cable (the only
 * links between units): a packet that leaves a partition at time t arrives
 * at t + L or later.  The run goes by windows [S, S + L): every partition
 * fires its events before S + L; the packets that crossed into another
 * partition wait in outboxes (link.h) and enter their links at the start of
 * the next window, each partition taking its own on its own thread; the
 * posts one partition decides for another (traffic.h) are settled between
 * the windows.  The next window starts at the later of S + L and the next
 * event, or the next arrival of a packet waiting in an outbox.  A
 * star, which has one unit and no fabric link, uses windows of 1 us.  The
 * windows are the same for any number of threads, and so is the order of
 * simultaneous events (engine.h), so the outputs are too.
 *
 * End.  The run ends at the end of the window in which the last message
 * completed: a partition cannot know, within a window, that the others have
 * finished, so every one runs to the window's end.  That is at most one
 * lookahead (150 ns with the default 30 m cables) after the last completion.
 *
 * Threads.  The calling thread runs thread 0's partitions and coordinates;
 * the others run theirs between two barriers.  The barrier spins, yields,
 * then sleeps (it yields at once when the machine has fewer cores than
 * threads).  A thread runs its own partitions first, then those of the
 * others that have not started yet, from the end of their lists while their
 * owners go from the start (run_round): a core that is slower, or taken by
 * another process, hands work over.  Which thread runs a partition changes
 * nothing but the wall time.
 *
 * Which windows use the threads.  A window follows the one before in its
 * events: after one of fewer than SPARSE_EVENTS a thread, the partitions
 * run one after another on the calling thread; after one of DENSE_EVENTS a
 * thread or more, on the threads; in between, the way measured cheaper for
 * windows of that size (pace.h: the wall time an event took on the threads
 * and on one thread, by the log2 of the window's events, the other way
 * tried now and then).  A partition that changes core takes its cache lines
 * along, so a window on the threads between windows on one thread, or the
 * reverse, costs several times a steady one; the measurements include
 * that, where a fixed threshold made sparse runs slower on 2 threads than
 * on one (docs/SCALING.md#which-windows-use-the-threads).
 *
 * What crosses the cores.  What a partition's thread writes during a window
 * sits on cache lines no other thread uses (calloc_lines, _Alignas(64)): the
 * partitions' records in the traffic, run and output layers, the engines'
 * arrays, the nets' counters, switches and random streams; a link into
 * another partition delivers through a copy of itself that the far end alone
 * writes (link_cross); a packet crosses as a copy, so that each pool keeps
 * its own packets (link.h); control frames answer a data packet from its own
 * fields, not from its QP's lines, which the sender writes; the samplers
 * read their partition's QPs and hosts only; between windows the coordinator
 * reads each engine's remembered next time (engine.h).  Lines that two
 * threads write, or that one writes and the other reads, move between the
 * cores at every window; each of these rules took such moves off, and what
 * each saved, what was tried and not kept, and the cost of a second core
 * that remains unexplained are in docs/SCALING.md#what-crosses-the-cores.
 */
#include "models/fabric/internal.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "models/base/invariant.h"
#include "models/base/slab.h"
#include "models/core/pkt.h"
#include "models/scenario/scenario.h"

/* sim.partitions = auto: partitions of this weight at most, several a
 * thread when the fabric is heavier than this many a thread */
#define LOCALITY_WEIGHT 2048
/* ... and, on several threads for jobs that are all ring all-reduces, this
 * many partitions a thread at least: their messages go between neighbours
 * and stay within a partition however fine the cut, so smaller partitions
 * keep their state in the caches; traffic between all pairs does not gain
 * and keeps its cut (docs/SCALING.md#several-partitions-a-thread) */
#define RING_PARTS 4
/* a window when there is no fabric link to give the lookahead (a star) */
#define STAR_WINDOW_PS UNITS_PS_PER_US
/* a window with fewer events than this a thread runs the next one on one
 * thread, and one with DENSE_EVENTS a thread or more on the threads; in
 * between, the measured cost decides (pace.h) */
#define SPARSE_EVENTS 64
#define DENSE_EVENTS 1024
/* a barrier waiter spins this many times before it yields the processor,
 * and sleeps after this many */
#define SPIN_BEFORE_YIELD 2000
#define SPIN_BEFORE_SLEEP 20000

static void take_inbound(struct fabric *f, uint32_t dst);

/* ---- units and partitions ---- */

static uint32_t unit_count(const struct topo *t)
{
	switch (t->kind) {
	case TOPO_KIND_LEAF_SPINE:
		return t->rails ? t->leaves / t->rails + t->spines : t->switches;
	case TOPO_KIND_FAT_TREE:
	case TOPO_KIND_FILE:
		return t->switches;
	case TOPO_KIND_STAR:
	case TOPO_KIND_RAIL: /* topo_init made it a leaf-spine of rail leaves */
		return 1;
	}
	return 1;
}

/* the unit of switch sw: its own number (a leaf's or edge's unit holds its
 * hosts too); a rail leaf's is its scalable unit's, a spine's follows the
 * units; a star's one switch is unit 0 */
static uint32_t unit_of_switch(const struct topo *t, uint32_t sw)
{
	if (t->rails)
		return sw < t->leaves ? sw / t->rails : t->leaves / t->rails + (sw - t->leaves);
	return t->kind == TOPO_KIND_STAR ? 0 : sw;
}

static sim_time_ps lookahead(const struct topo *t)
{
	return t->kind == TOPO_KIND_STAR ? STAR_WINDOW_PS : t->fabric_prop_ps;
}

static unsigned machine_cores(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

/* the weight of a switch: its ports plus twice its hosts */
static uint64_t switch_weight(const struct topo *t, uint32_t sw)
{
	uint64_t w = topo_ports(t, sw);
	for (uint16_t p = 0; p < topo_ports(t, sw); p++)
		if (topo_port_is_host(t, sw, p))
			w += 2;
	return w;
}

/* the weight of a unit: its switches' */
static uint64_t unit_weight(const struct topo *t, uint32_t unit)
{
	if (!t->rails)
		return switch_weight(t, unit);
	uint32_t units = t->leaves / t->rails;
	if (unit >= units)
		return switch_weight(t, t->leaves + (unit - units));
	uint64_t w = 0;
	for (uint32_t r = 0; r < t->rails; r++)
		w += switch_weight(t, unit * t->rails + r);
	return w;
}

/* the tier of unit u: its first switch's (topology.h numbers the switches
 * tier by tier) */
static enum topo_tier unit_tier(const struct topo *t, uint32_t u)
{
	if (t->kind == TOPO_KIND_STAR)
		return TOPO_SW;
	uint32_t sw = u;
	if (t->rails) {
		uint32_t units = t->leaves / t->rails;
		sw = u < units ? u * t->rails : t->leaves + (u - units);
	}
	return topo_tier_of(t, sw);
}

/* an item's place in the order split() cuts: the middle of its share of
 * its tier, (2 k + 1) / (2 n) for the k-th of n */
struct place {
	uint32_t item;
	uint64_t num, den;
};

static int by_place(const void *a, const void *b)
{
	const struct place *x = a, *y = b;
	uint64_t l = x->num * y->den, r = y->num * x->den;
	if (l != r)
		return l < r ? -1 : 1;
	return (x->item > y->item) - (x->item < y->item);
}

/* n items of weights w[] into nbins (<= n) bins, in stretches: the items
 * in order of their place in their tier (tier NULL: one tier), and each bin
 * the next items up to the one whose weight's midpoint passes the bin's
 * share of the total, one at least and leaving one for each bin after.  So
 * each bin holds consecutive items of every tier, the k-th bin the k-th
 * stretch of each, and a bin's weight is off its share by half an item at
 * most (unless a bin had to take an item or leave one).  bin_of[] gets each
 * item's bin and load[] (zeroed) each bin's weight.  -1 out of memory. */
static int split(const uint64_t *w, const enum topo_tier *tier, uint32_t n, uint32_t nbins,
		 uint32_t *bin_of, uint64_t *load)
{
	struct place *pl = calloc(n, sizeof(*pl));
	if (!pl)
		return -1;
	uint64_t total = 0;
	for (uint32_t a = 0, b; a < n; a = b) { /* a run of one tier: [a, b) */
		for (b = a; b < n && (!tier || tier[b] == tier[a]); b++)
			;
		for (uint32_t k = a; k < b; k++)
			pl[k] = (struct place){ .item = k, .num = 2 * (k - a) + 1, .den = 2 * (b - a) };
	}
	qsort(pl, n, sizeof(*pl), by_place);
	for (uint32_t k = 0; k < n; k++)
		total += w[k];
	uint64_t before = 0; /* the weight of the items of the bins so far */
	for (uint32_t bin = 0, i = 0; bin < nbins; bin++) {
		uint32_t stop = n - (nbins - 1 - bin); /* leave one for each bin after */
		do {
			uint64_t wi = w[pl[i].item];
			bin_of[pl[i].item] = bin;
			load[bin] += wi;
			before += wi;
			i++;
		} while (i < stop && (bin + 1 == nbins ||
				      nbins * (2 * before + w[pl[i].item]) <= 2 * (bin + 1) * total));
	}
	free(pl);
	return 0;
}

/* every job a ring all-reduce over rings: its messages go between neighbours,
 * mostly within one partition however fine the cut */
static int rings_only(const struct scenario *scn)
{
	for (uint32_t k = 0; k < scn->njobs; k++)
		if (scn->jobs[k].pattern != SCN_JOB_RING_ALLREDUCE ||
		    scn->jobs[k].algorithm != SCN_ALGO_RING)
			return 0;
	return scn->njobs > 0;
}

/* the plan's counts: threads, and partitions (sim.partitions; auto: one a
 * thread, or more for locality in a large fabric, or RING_PARTS a thread
 * for rings on several threads) */
static void plan_counts(struct fabric_plan *p, const struct scenario *scn, unsigned threads,
			uint64_t weight_total)
{
	p->threads = threads < p->units ? threads : p->units;
	if (p->why_one) {
		p->threads = p->parts = 1;
		return;
	}
	uint64_t n = scn->partitions != SCN_AUTO ? (uint64_t)scn->partitions
						 : (weight_total + LOCALITY_WEIGHT - 1) / LOCALITY_WEIGHT;
	if (scn->partitions == SCN_AUTO && p->threads > 1 && rings_only(scn) &&
	    n < (uint64_t)RING_PARTS * p->threads) {
		n = (uint64_t)RING_PARTS * p->threads;
		p->auto_rings = 1;
	}
	n = n < p->units ? n : p->units;
	p->parts = n > p->threads ? (uint32_t)n : p->threads;
}

/* units to partitions and partitions to threads: part_of_unit[units],
 * thread_of_part[parts], load[threads]; -1 out of memory */
static int cut(const struct topo *t, const struct fabric_plan *p, uint32_t *part_of_unit,
	       uint32_t *thread_of_part, uint64_t *load)
{
	uint64_t *w = calloc(p->units, sizeof(*w));
	uint64_t *pload = calloc(p->parts, sizeof(*pload));
	enum topo_tier *tier = calloc(p->units, sizeof(*tier));
	int rc = -1;
	if (w && pload && tier) {
		for (uint32_t k = 0; k < p->units; k++) {
			w[k] = p->units == 1 ? 1 : unit_weight(t, k);
			tier[k] = unit_tier(t, k);
		}
		rc = split(w, tier, p->units, p->parts, part_of_unit, pload);
		if (!rc)
			rc = split(pload, NULL, p->parts, p->threads, thread_of_part, load);
	}
	free(w);
	free(pload);
	free(tier);
	return rc;
}

/* the data packets the jobs could deliver in a window, at most: each job
 * what the links of its receiving hosts carry (traffic_job_receivers),
 * every job at once, at host_link; 0 when host links differ (a links
 * file) */
static double window_packets(const struct scenario *scn, const struct topo *t,
			     sim_time_ps window_ps)
{
	if (t->g || t->host_link_bps <= 0)
		return 0;
	uint64_t hosts = 0;
	for (uint32_t k = 0; k < scn->njobs; k++)
		hosts += traffic_job_receivers(&scn->jobs[k]);
	hosts = hosts < t->hosts ? hosts : t->hosts;
	double frame_bits = 8.0 * ((double)scn->mtu_bytes + PKT_ROCE_HDR_BYTES);
	return (double)hosts * (double)t->host_link_bps * ((double)window_ps / 1e12) / frame_bits;
}

struct fabric_plan fabric_plan_of(const struct scenario *scn, unsigned threads)
{
	struct topo t;
	struct topo_shape shape = scenario_topo_shape(scn);
	topo_init(&t, &shape);
	struct fabric_plan p = { .units = unit_count(&t), .lookahead_ps = lookahead(&t) };
	p.unit_is = t.g ? "a switch with its hosts"
		    : t.rails ? "a scalable unit (its rail leaves and servers), or a spine"
		    : t.kind == TOPO_KIND_LEAF_SPINE ? "a leaf with its hosts, or a spine"
		    : t.kind == TOPO_KIND_FAT_TREE
			? "an edge switch with its hosts, or an aggregation or core switch"
			: "the switch with its hosts";
	int automatic = !threads && scn->threads == SCN_AUTO;
	if (!threads)
		threads = automatic ? machine_cores() : (unsigned)scn->threads;
	if (p.units == 1)
		p.why_one = "a star is one unit (one switch and its hosts)";
	else if (p.lookahead_ps <= 0)
		p.why_one = "fabric cables of 0 m leave no lookahead between units";
	if (!p.lookahead_ps)
		p.lookahead_ps = UNITS_PS_PER_NS; /* windows still end the run */
	uint64_t total = 0;
	for (uint32_t k = 0; k < p.units; k++)
		total += p.units == 1 ? 1 : unit_weight(&t, k);
	if (automatic && !p.why_one) {
		uint64_t most = (total + FABRIC_AUTO_THREAD_WEIGHT - 1) / FABRIC_AUTO_THREAD_WEIGHT;
		double pkts = window_packets(scn, &t, p.lookahead_ps);
		uint64_t dense = pkts > 0 ? (uint64_t)(pkts / FABRIC_AUTO_WINDOW_PACKETS) : UINT64_MAX;
		dense = dense ? dense : 1;
		if (dense < most && dense < threads && dense < p.units) {
			threads = (unsigned)dense;
			p.auto_sparse = pkts;
		} else if (most < threads && most < p.units) {
			threads = (unsigned)most;
			p.auto_light = total;
		}
	}
	plan_counts(&p, scn, threads, total);
	p.window_one = SPARSE_EVENTS * (uint64_t)p.threads;
	p.window_threads = DENSE_EVENTS * (uint64_t)p.threads;
	uint32_t *part_of_unit = calloc(p.units, sizeof(*part_of_unit));
	uint32_t *thread_of_part = calloc(p.parts, sizeof(*thread_of_part));
	uint64_t *load = calloc(p.threads, sizeof(*load));
	if (part_of_unit && thread_of_part && load &&
	    !cut(&t, &p, part_of_unit, thread_of_part, load)) {
		p.weight_min = UINT64_MAX;
		for (uint32_t q = 0; q < p.threads; q++) {
			p.weight_total += load[q];
			p.weight_max = load[q] > p.weight_max ? load[q] : p.weight_max;
			p.weight_min = load[q] < p.weight_min ? load[q] : p.weight_min;
		}
	}
	free(part_of_unit);
	free(thread_of_part);
	free(load);
	return p;
}

/* a run split over R ranks of T threads each: the plan of R x T threads
 * (as many as the units allow), thread k going to rank k R / (R T)
 * (fabric_rank_of_thread) */
static struct fabric_plan plan_split(const struct scenario *scn, unsigned threads, int ranks)
{
	if (ranks <= 1)
		return fabric_plan_of(scn, threads);
	if (!threads)
		threads = scn->threads == SCN_AUTO ? 1 : (unsigned)scn->threads;
	return fabric_plan_of(scn, threads * (unsigned)ranks);
}

uint32_t fabric_rank_of_thread(uint32_t k, uint32_t threads, int ranks)
{
	return (uint32_t)((uint64_t)k * (uint64_t)ranks / threads);
}

int fabric_split_plan(const struct scenario *scn, unsigned threads, int ranks,
		      struct fabric_rank_plan *rp)
{
	struct topo t;
	struct topo_shape shape = scenario_topo_shape(scn);
	topo_init(&t, &shape);
	struct fabric_plan p = plan_split(scn, threads, ranks);
	uint32_t *part_of_unit = calloc(p.units, sizeof(*part_of_unit));
	uint32_t *thread_of_part = calloc(p.parts, sizeof(*thread_of_part));
	uint64_t *load = calloc(p.threads, sizeof(*load));
	int rc = part_of_unit && thread_of_part && load ? cut(&t, &p, part_of_unit, thread_of_part, load)
							 : -1;
	for (int r = 0; !rc && r < ranks; r++)
		rp[r] = (struct fabric_rank_plan){ .first = UINT32_MAX };
	for (uint32_t k = 0; !rc && k < p.threads; k++) {
		struct fabric_rank_plan *x = &rp[fabric_rank_of_thread(k, p.threads, ranks)];
		x->threads++;
		x->weight += load[k];
	}
	for (uint32_t q = 0; !rc && q < p.parts; q++) {
		struct fabric_rank_plan *x = &rp[fabric_rank_of_thread(thread_of_part[q], p.threads,
									 ranks)];
		x->parts++;
		x->first = q < x->first ? q : x->first;
		x->last = q > x->last ? q : x->last;
	}
	for (uint32_t u = 0; !rc && u < p.units; u++)
		rp[fabric_rank_of_thread(thread_of_part[part_of_unit[u]], p.threads, ranks)].units++;
	free(part_of_unit);
	free(thread_of_part);
	free(load);
	return rc;
}

int fabric_partition(struct fabric *f, unsigned threads)
{
	const struct topo *t = &f->topo;
	int ranks = f->comm ? f->comm->nranks : 1;
	struct fabric_plan plan = plan_split(f->scn, threads, ranks);
	f->nunits = plan.units;
	f->nparts = plan.parts;
	f->nthreads = plan.threads;
	f->lookahead_ps = plan.lookahead_ps;
	fabric_pace_init(&f->pace, plan.window_one, plan.window_threads);
	f->unit_of_sw = calloc(f->nsw, sizeof(*f->unit_of_sw));
	f->part_of_unit = calloc(f->nunits, sizeof(*f->part_of_unit));
	f->thread_parts = calloc(f->nparts, sizeof(*f->thread_parts));
	f->thread_first = calloc(f->nthreads + 1, sizeof(*f->thread_first));
	uint32_t *thread_of_part = calloc(f->nparts, sizeof(*thread_of_part));
	uint64_t *load = calloc(f->nthreads, sizeof(*load));
	int rc = -1;
	if (f->unit_of_sw && f->part_of_unit && f->thread_parts && f->thread_first &&
	    thread_of_part && load) {
		for (uint32_t s = 0; s < f->nsw; s++)
			f->unit_of_sw[s] = unit_of_switch(t, s);
		rc = cut(t, &plan, f->part_of_unit, thread_of_part, load);
	}
	if (!rc && ranks > 1) /* the partitions of this rank's threads, renumbered */
		rc = fabric_ranks_threads(f, thread_of_part);
	if (!rc) { /* each thread's partitions, in increasing order */
		for (uint32_t p = 0; p < f->nparts; p++)
			if (thread_of_part[p] != UINT32_MAX) /* not another rank's */
				f->thread_first[thread_of_part[p] + 1]++;
		for (uint32_t k = 0; k < f->nthreads; k++)
			f->thread_first[k + 1] += f->thread_first[k];
		memset(load, 0, f->nthreads * sizeof(*load)); /* now: each thread's count */
		for (uint32_t p = 0; p < f->nparts; p++) {
			uint32_t k = thread_of_part[p];
			if (k == UINT32_MAX)
				continue;
			f->thread_parts[f->thread_first[k] + load[k]++] = p;
		}
	}
	free(thread_of_part);
	free(load);
	return rc;
}

uint32_t fabric_part_of_switch(const struct fabric *f, uint32_t sw)
{
	return f->part_of_unit[f->unit_of_sw[sw]];
}

uint32_t fabric_part_of_host(const struct fabric *f, uint32_t h)
{
	return fabric_part_of_switch(f, topo_host_uplink(&f->topo, h).node);
}

/* ---- the barrier and the threads ---- */

struct barrier {
	atomic_uint count, gen;
	atomic_uint sleepers;          /* waiters blocked on cond */
	unsigned n;
	int yield;                     /* more threads than cores */
	pthread_mutex_t mu;
	pthread_cond_t cond;
};

static void barrier_init(struct barrier *b, unsigned n, int yield)
{
	b->n = n;
	b->yield = yield;
	pthread_mutex_init(&b->mu, NULL);
	pthread_cond_init(&b->cond, NULL);
}

static void barrier_destroy(struct barrier *b)
{
	pthread_mutex_destroy(&b->mu);
	pthread_cond_destroy(&b->cond);
}

/* The last to arrive opens the barrier.  The others spin a while (a window
 * is short), then sleep: a loaded machine, or partitions that wait through
 * windows run on one thread (run_parts), must not lose a core to spinning.
 * The yields cost kernel time, but waiters that spin long without yielding
 * hold the cores that the threads they wait for need when several runs
 * share the cores, as the test suite runs them
 * (docs/SCALING.md#the-barrier).
 * The opener's gen increment and a sleeper's count are sequentially
 * consistent, so either the opener sees the sleeper and wakes it, or the
 * sleeper sees the new gen and does not sleep. */
static void barrier_wait(struct barrier *b)
{
	unsigned gen = atomic_load(&b->gen);
	if (atomic_fetch_add(&b->count, 1) + 1 == b->n) {
		atomic_store(&b->count, 0);
		atomic_fetch_add(&b->gen, 1);
		if (atomic_load(&b->sleepers)) {
			pthread_mutex_lock(&b->mu);
			pthread_cond_broadcast(&b->cond);
			pthread_mutex_unlock(&b->mu);
		}
		return;
	}
	for (unsigned spins = 0; spins < SPIN_BEFORE_SLEEP; spins++) {
		if (atomic_load_explicit(&b->gen, memory_order_acquire) != gen)
			return;
		if (b->yield || spins > SPIN_BEFORE_YIELD)
			sched_yield();
	}
	pthread_mutex_lock(&b->mu);
	atomic_fetch_add(&b->sleepers, 1);
	while (atomic_load(&b->gen) == gen)
		pthread_cond_wait(&b->cond, &b->mu);
	atomic_fetch_sub(&b->sleepers, 1);
	pthread_mutex_unlock(&b->mu);
}

/* a partition's claim: the round a thread last took it in */
struct claim {
	_Alignas(64) atomic_uint round;
};

struct fabric_threads {
	struct barrier go, done;
	sim_time_ps until;             /* what the partitions run to, this round */
	unsigned round;                /* rounds run on the threads, from 1 */
	struct claim *claim;           /* by partition */
	int quit;
	pthread_t *tid;
	struct worker {
		struct fabric *f;
		uint32_t thread;
		uint64_t fired;
	} *w;
	uint32_t n;                    /* threads started (threads 1..n) */
};

/* partition p to `until` */
static uint64_t run_part(struct fabric *f, uint32_t p, sim_time_ps until)
{
	take_inbound(f, p);
	return sim_run_until(&f->parts[p].net.eng, until);
}

/* thread k's partitions, one after another, to `until` (one thread) */
static uint64_t run_thread(struct fabric *f, uint32_t k, sim_time_ps until)
{
	uint64_t fired = 0;
	for (uint32_t i = f->thread_first[k]; i < f->thread_first[k + 1]; i++)
		fired += run_part(f, f->thread_parts[i], until);
	return fired;
}

/* partition p, unless another thread took it this round */
static uint64_t take_part(struct fabric *f, uint32_t p, unsigned round, sim_time_ps until)
{
	struct claim *c = &f->threads->claim[p];
	if (atomic_load_explicit(&c->round, memory_order_relaxed) == round ||
	    atomic_exchange_explicit(&c->round, round, memory_order_relaxed) == round)
		return 0;
	return run_part(f, p, until);
}

/* a round on the threads: thread k runs its partitions first, then those
 * the others have not started yet, from the end of their lists (their
 * owners go from the start).  A partition runs on one thread, its whole
 * window, whichever it is: the barriers order its state between rounds.
 * A core that is slower, or busy with another process, hands work over. */
static uint64_t run_round(struct fabric *f, uint32_t k)
{
	struct fabric_threads *th = f->threads;
	uint64_t fired = 0;
	for (uint32_t i = f->thread_first[k]; i < f->thread_first[k + 1]; i++)
		fired += take_part(f, f->thread_parts[i], th->round, th->until);
	for (uint32_t d = 1; d < f->nthreads; d++) {
		uint32_t v = (k + d) % f->nthreads;
		for (uint32_t i = f->thread_first[v + 1]; i-- > f->thread_first[v];)
			fired += take_part(f, f->thread_parts[i], th->round, th->until);
	}
	return fired;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct fabric_threads *th = w->f->threads;
	for (;;) {
		barrier_wait(&th->go);
		if (th->quit)
			return NULL;
		w->fired += run_round(w->f, w->thread);
		barrier_wait(&th->done);
	}
}

static int start_threads(struct fabric *f)
{
	struct fabric_threads *th = calloc(1, sizeof(*th));
	if (!th)
		return -1;
	f->threads = th;
	th->n = f->nthreads - 1;
	int yield = f->nthreads > machine_cores();
	barrier_init(&th->go, f->nthreads, yield);
	barrier_init(&th->done, f->nthreads, yield);
	th->tid = calloc(th->n, sizeof(*th->tid));
	th->w = calloc(th->n, sizeof(*th->w));
	th->claim = calloc_lines(f->nparts, sizeof(*th->claim));
	if (!th->tid || !th->w || !th->claim)
		return -1;
	for (uint32_t k = 0; k < th->n; k++) {
		th->w[k] = (struct worker){ .f = f, .thread = k + 1 };
		if (pthread_create(&th->tid[k], NULL, worker_main, &th->w[k])) {
			th->n = k;
			return -1;
		}
	}
	return 0;
}

void fabric_stop_threads(struct fabric *f)
{
	struct fabric_threads *th = f->threads;
	if (!th)
		return;
	if (th->n) {
		th->quit = 1;
		barrier_wait(&th->go);
		for (uint32_t k = 0; k < th->n; k++)
			pthread_join(th->tid[k], NULL);
	}
	barrier_destroy(&th->go);
	barrier_destroy(&th->done);
	free(th->tid);
	free(th->w);
	free(th->claim);
	free(th);
	f->threads = NULL;
}

/* a round of every partition on the threads (started) */
static uint64_t run_threads(struct fabric *f, sim_time_ps until)
{
	struct fabric_threads *th = f->threads;
	th->until = until;
	th->round++;
	barrier_wait(&th->go);
	uint64_t fired = run_round(f, 0);
	barrier_wait(&th->done);
	for (uint32_t k = 0; k < th->n; k++) {
		fired += th->w[k].fired;
		th->w[k].fired = 0;
	}
	return fired;
}

static int64_t clock_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* every partition fires its events at or before `until`, on the threads or
 * one after another on this thread, as window_close chose (pace.h): after
 * a window with few events, or where the threads were measured to cost more
 * than they save.  Partitions meet only at the end of a window, so the
 * order they run in within one changes nothing but the wall time. */
static uint64_t run_parts(struct fabric *f, sim_time_ps until)
{
	if (f->threaded && !f->threads) /* not timed: once a run */
		SIM_INVARIANT(start_threads(f) == 0, "cannot start %u threads", f->nthreads - 1);
	int64_t t0 = f->timed ? clock_ns() : 0;
	uint64_t fired = 0;
	if (f->threaded)
		fired = run_threads(f, until);
	else
		for (uint32_t k = 0; k < f->nthreads; k++)
			fired += run_thread(f, k, until);
	if (f->timed)
		f->window_ns += clock_ns() - t0;
	return fired;
}

/* ---- outboxes ---- */

struct link_outbox *fabric_outbox(struct fabric *f, uint32_t from, uint32_t to)
{
	struct fabric_part *part = &f->parts[from];
	uint32_t k = 0;
	while (k < part->nout && part->out_to[k] < to)
		k++;
	if (k < part->nout && part->out_to[k] == to)
		return part->out[k];
	struct link_outbox *o = calloc(1, sizeof(*o));
	if (o) {
		o->from = &part->net.pool;
		o->to = &f->parts[to].net.pool;
	}
	struct link_outbox **out = realloc(part->out, (part->nout + 1) * sizeof(*out));
	if (out)
		part->out = out;
	uint32_t *out_to = realloc(part->out_to, (part->nout + 1) * sizeof(*out_to));
	if (out_to)
		part->out_to = out_to;
	if (!o || !out || !out_to) {
		free(o);
		return NULL;
	}
	memmove(out + k + 1, out + k, (part->nout - k) * sizeof(*out));
	memmove(out_to + k + 1, out_to + k, (part->nout - k) * sizeof(*out_to));
	out[k] = o;
	out_to[k] = to;
	part->nout++;
	return o;
}

int fabric_inboxes(struct fabric *f)
{
	for (uint32_t p = 0; p < f->nparts; p++)
		for (uint32_t k = 0; k < f->parts[p].nout; k++)
			f->parts[f->parts[p].out_to[k]].nin++;
	for (uint32_t p = 0; p < f->nparts; p++) {
		f->parts[p].in = calloc(f->parts[p].nin ? f->parts[p].nin : 1, sizeof(*f->parts[p].in));
		if (!f->parts[p].in)
			return -1;
		f->parts[p].nin = 0;
	}
	for (uint32_t p = 0; p < f->nparts; p++) /* by source */
		for (uint32_t k = 0; k < f->parts[p].nout; k++) {
			struct fabric_part *to = &f->parts[f->parts[p].out_to[k]];
			to->in[to->nin++] = f->parts[p].out[k];
		}
	return 0;
}

/* ---- windows ---- */

/* the packets that crossed into partition dst in the window before enter
 * their links, from one partition after another and, from one, in the
 * order they were sent.  Each partition takes its own at the start of a
 * window, on its own thread. */
static void take_inbound(struct fabric *f, uint32_t dst)
{
	struct fabric_part *part = &f->parts[dst];
	for (uint32_t k = 0; k < part->nin; k++)
		link_outbox_take(&part->net.eng, part->in[k], !part->in[k]->side);
}

/* every packet between partitions enters its link (a run that stops) */
static void take_all(struct fabric *f)
{
	for (uint32_t dst = 0; dst < f->nparts; dst++) {
		struct fabric_part *part = &f->parts[dst];
		if (part->net.remote)
			continue;
		take_inbound(f, dst);
		for (uint32_t k = 0; k < part->nin; k++)
			link_outbox_take(&part->net.eng, part->in[k], part->in[k]->side);
	}
}

sim_time_ps fabric_next_time(struct fabric *f)
{
	sim_time_ps t = INT64_MAX;
	for (uint32_t p = 0; p < f->nparts; p++) {
		/* another rank's partition: its rank counts its events
		 * (fabric_ranks_next); its outboxes here hold the packets it
		 * sent to this rank's partitions */
		sim_time_ps n = f->parts[p].net.remote ? INT64_MAX : sim_next_time(&f->parts[p].net.eng);
		t = n < t ? n : t;
		for (uint32_t k = 0; k < f->parts[p].nout; k++) { /* not yet taken */
			n = link_outbox_first(f->parts[p].out[k]);
			t = n < t ? n : t;
		}
	}
	return f->comm ? fabric_ranks_next(f, t) : t;
}

static void window_close(struct fabric *f)
{
	if (f->timed)
		fabric_pace_record(&f->pace, f->window_events, f->threaded, (double)f->window_ns);
	f->threaded = f->nthreads > 1 && fabric_pace_threads(&f->pace, f->window_events);
	f->timed = f->nthreads > 1 && fabric_pace_timed(&f->pace, f->window_events);
	f->window_ns = 0;
	f->window_events = 0;
	if (f->comm) /* what crosses to and from the other ranks */
		fabric_ranks_window(f);
	for (uint32_t p = 0; p < f->nparts; p++) /* this window's crossings wait */
		for (uint32_t k = 0; k < f->parts[p].nout; k++)
			link_outbox_flip(f->parts[p].out[k]);
	traffic_window_end(&f->traffic);
	fabric_series_window_end(f, f->wend);
	if (f->hooks.window_done)
		f->hooks.window_done(f->hooks.ctx, f, f->wend);
	if (traffic_finished(&f->traffic)) {
		f->ended = 1;
		f->end_ps = traffic_last_done(&f->traffic);
		f->stop_ps = f->wend;
	}
	f->window_open = 0;
}

/* one partition on one thread: no packet crosses between partitions and
 * no thread waits, so the engine runs through the windows and returns only
 * at the end of one that has something for window_close: traffic to settle
 * (its flag), or the last completion, after which the run ends with the
 * window.  The windows are the same as window by window.  Closing one with
 * nothing to settle only handed the counters of its samples over, which is
 * done at the return, and merged nothing: closing only the windows that need
 * it saves instructions on runs of many short windows
 * (docs/SCALING.md#one-partition-on-one-thread). */
static uint64_t run_alone(struct fabric *f, sim_time_ps until)
{
	struct sim_engine *eng = &f->parts[0].net.eng;
	struct sim_windows w = { .end = f->wend, .len = f->lookahead_ps,
				 .close = traffic_window_flag(&f->traffic, 0) };
	uint64_t fired = 0;
	while (!f->ended) {
		fired += sim_run_windows(eng, until, &w);
		f->wend = w.end;
		if (until < w.end - 1 || !*w.close || eng->stop)
			break; /* the window goes on, or needs nothing at its end */
		window_close(f);
	}
	fabric_series_window_end(f, f->wend);
	return fired;
}

uint64_t fabric_run_until(struct fabric *f, sim_time_ps until)
{
	uint64_t fired = 0;
	if (f->nparts == 1 && f->nthreads == 1)
		return run_alone(f, until);
	while (!f->ended) {
		if (!f->window_open) {
			sim_time_ps next = fabric_next_time(f);
			if (next == INT64_MAX || next > until)
				break;
			f->wstart = next > f->wend ? next : f->wend;
			f->wend = f->wstart <= INT64_MAX - f->lookahead_ps ? f->wstart + f->lookahead_ps
									  : INT64_MAX;
			f->window_open = 1;
		}
		sim_time_ps stop = f->wend - 1 < until ? f->wend - 1 : until;
		uint64_t n = run_parts(f, stop);
		fired += n;
		f->window_events += n;
		if (stop < f->wend - 1)
			break; /* the caller's bound falls inside the window */
		window_close(f);
	}
	return fired;
}

/* the packets and posts still between partitions (a run that stopped inside
 * a window): they enter their links now */
void fabric_settle(struct fabric *f)
{
	if (f->comm)
		fabric_ranks_window(f);
	take_all(f);
	traffic_window_end(&f->traffic);
	fabric_series_window_end(f, INT64_MAX);
	if (f->hooks.window_done)
		f->hooks.window_done(f->hooks.ctx, f, INT64_MAX);
}
