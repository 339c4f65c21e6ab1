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
 * Partitions.  A run on N threads gives each thread a partition of whole
 * units: units in decreasing weight (ports, plus hosts twice: a host's NIC
 * fires about as often as a switch port) go to the partition with the least
 * weight so far, ties to the lower index.  Fewer units than threads, or no
 * lookahead (fabric cables of 0 m), use fewer threads.  Each partition has
 * its own engine, packet and message pools, counters and samplers (a
 * `struct net`), and nodes point to their partition's.
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
 * Threads.  The calling thread runs partition 0 and coordinates; the others
 * run theirs between two barriers.  The barrier spins, yields, then sleeps
 * (it yields at once when the machine has fewer cores than threads).
 */
#include "internal.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "invariant.h"
#include "scenario.h"

/* a window when there is no fabric link to give the lookahead (a star) */
#define STAR_WINDOW_PS UNITS_PS_PER_US
/* a window with fewer events than this per partition runs the next one on
 * one thread (run_parts) */
#define SPARSE_EVENTS 64
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

struct unit_w {
	uint32_t unit;
	uint64_t w;
};

static int heavier_first(const void *a, const void *b)
{
	const struct unit_w *x = a, *y = b;
	if (x->w != y->w)
		return x->w < y->w ? 1 : -1;
	return (x->unit > y->unit) - (x->unit < y->unit);
}

/* units to partitions, heaviest first to the lightest partition so far;
 * load[] gets each partition's weight.  -1 out of memory. */
static int assign(const struct topo *t, uint32_t nunits, uint32_t nparts, uint32_t *part_of_unit,
		  uint64_t *load)
{
	struct unit_w *u = calloc(nunits, sizeof(*u));
	if (!u)
		return -1;
	for (uint32_t k = 0; k < nunits; k++)
		u[k] = (struct unit_w){ .unit = k, .w = nunits == 1 ? 1 : unit_weight(t, k) };
	qsort(u, nunits, sizeof(*u), heavier_first);
	for (uint32_t k = 0; k < nunits; k++) {
		uint32_t best = 0;
		for (uint32_t p = 1; p < nparts; p++)
			if (load[p] < load[best])
				best = p;
		part_of_unit[u[k].unit] = best;
		load[best] += u[k].w;
	}
	free(u);
	return 0;
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
	if (!threads)
		threads = scn->threads == SCN_AUTO ? machine_cores() : (unsigned)scn->threads;
	p.parts = threads < p.units ? threads : p.units;
	if (p.units == 1)
		p.why_one = "a star is one unit (one switch and its hosts)";
	else if (p.lookahead_ps <= 0)
		p.why_one = "fabric cables of 0 m leave no lookahead between units";
	if (p.why_one)
		p.parts = 1;
	if (!p.lookahead_ps)
		p.lookahead_ps = UNITS_PS_PER_NS; /* windows still end the run */
	uint32_t *part_of_unit = calloc(p.units, sizeof(*part_of_unit));
	uint64_t *load = calloc(p.parts, sizeof(*load));
	if (part_of_unit && load && !assign(&t, p.units, p.parts, part_of_unit, load)) {
		p.weight_min = UINT64_MAX;
		for (uint32_t q = 0; q < p.parts; q++) {
			p.weight_total += load[q];
			p.weight_max = load[q] > p.weight_max ? load[q] : p.weight_max;
			p.weight_min = load[q] < p.weight_min ? load[q] : p.weight_min;
		}
	}
	free(part_of_unit);
	free(load);
	return p;
}

int fabric_partition(struct fabric *f, unsigned threads)
{
	const struct topo *t = &f->topo;
	struct fabric_plan plan = fabric_plan_of(f->scn, threads);
	f->nunits = plan.units;
	f->nparts = plan.parts;
	f->lookahead_ps = plan.lookahead_ps;
	f->unit_of_sw = calloc(f->nsw, sizeof(*f->unit_of_sw));
	f->part_of_unit = calloc(f->nunits, sizeof(*f->part_of_unit));
	uint64_t *load = calloc(f->nparts, sizeof(*load));
	if (!f->unit_of_sw || !f->part_of_unit || !load) {
		free(load);
		return -1;
	}
	for (uint32_t s = 0; s < f->nsw; s++)
		f->unit_of_sw[s] = unit_of_switch(t, s);
	int rc = assign(t, f->nunits, f->nparts, f->part_of_unit, load);
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

struct fabric_threads {
	struct barrier go, done;
	sim_time_ps until;             /* what the partitions run to, this round */
	int quit;
	pthread_t *tid;
	struct worker {
		struct fabric *f;
		uint32_t part;
		uint64_t fired;
	} *w;
	uint32_t n;                    /* threads started (partitions 1..n) */
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct fabric_threads *th = w->f->threads;
	for (;;) {
		barrier_wait(&th->go);
		if (th->quit)
			return NULL;
		take_inbound(w->f, w->part);
		w->fired += sim_run_until(&w->f->parts[w->part].net.eng, th->until);
		barrier_wait(&th->done);
	}
}

static int start_threads(struct fabric *f)
{
	struct fabric_threads *th = calloc(1, sizeof(*th));
	if (!th)
		return -1;
	f->threads = th;
	th->n = f->nparts - 1;
	int yield = f->nparts > machine_cores();
	barrier_init(&th->go, f->nparts, yield);
	barrier_init(&th->done, f->nparts, yield);
	th->tid = calloc(th->n, sizeof(*th->tid));
	th->w = calloc(th->n, sizeof(*th->w));
	if (!th->tid || !th->w)
		return -1;
	for (uint32_t k = 0; k < th->n; k++) {
		th->w[k] = (struct worker){ .f = f, .part = k + 1 };
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
	free(th);
	f->threads = NULL;
}

/* every partition fires its events at or before `until`.  After a window
 * with few events the partitions run one after another on this thread:
 * two barriers would cost more than the threads save.  Partitions meet only
 * at the end of a window, so the order they run in within one changes
 * nothing but the wall time. */
static uint64_t run_parts(struct fabric *f, sim_time_ps until)
{
	if (f->nparts == 1 || f->sparse) {
		uint64_t fired = 0;
		for (uint32_t p = 0; p < f->nparts; p++) {
			take_inbound(f, p);
			fired += sim_run_until(&f->parts[p].net.eng, until);
		}
		return fired;
	}
	if (!f->threads)
		SIM_INVARIANT(start_threads(f) == 0, "cannot start %u threads", f->nparts - 1);
	struct fabric_threads *th = f->threads;
	th->until = until;
	barrier_wait(&th->go);
	take_inbound(f, 0);
	uint64_t fired = sim_run_until(&f->parts[0].net.eng, until);
	barrier_wait(&th->done);
	for (uint32_t k = 0; k < th->n; k++) {
		fired += th->w[k].fired;
		th->w[k].fired = 0;
	}
	return fired;
}

/* ---- windows ---- */

/* the packets that crossed into partition dst in the window before enter
 * their links, from one partition after another and, from one, in the
 * order they were sent.  Each partition takes its own at the start of a
 * window, on its own thread. */
static void take_inbound(struct fabric *f, uint32_t dst)
{
	for (uint32_t src = 0; src < f->nparts; src++) {
		struct link_outbox *o = &f->parts[src].out[dst];
		link_outbox_take(&f->parts[dst].net.eng, o, !o->side);
	}
}

/* every packet between partitions enters its link (a run that stops) */
static void take_all(struct fabric *f)
{
	for (uint32_t dst = 0; dst < f->nparts; dst++) {
		take_inbound(f, dst);
		for (uint32_t src = 0; src < f->nparts; src++) {
			struct link_outbox *o = &f->parts[src].out[dst];
			link_outbox_take(&f->parts[dst].net.eng, o, o->side);
		}
	}
}

sim_time_ps fabric_next_time(struct fabric *f)
{
	sim_time_ps t = INT64_MAX;
	for (uint32_t p = 0; p < f->nparts; p++) {
		sim_time_ps n = sim_next_time(&f->parts[p].net.eng);
		t = n < t ? n : t;
		for (uint32_t q = 0; q < f->nparts; q++) { /* not yet taken */
			n = link_outbox_first(&f->parts[p].out[q]);
			t = n < t ? n : t;
		}
	}
	return t;
}

static void window_close(struct fabric *f)
{
	f->sparse = f->window_events < SPARSE_EVENTS * (uint64_t)f->nparts;
	f->window_events = 0;
	for (uint32_t p = 0; p < f->nparts; p++) /* this window's crossings wait */
		for (uint32_t q = 0; q < f->nparts; q++)
			link_outbox_flip(&f->parts[p].out[q]);
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

uint64_t fabric_run_until(struct fabric *f, sim_time_ps until)
{
	uint64_t fired = 0;
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
	take_all(f);
	traffic_window_end(&f->traffic);
	fabric_series_window_end(f, INT64_MAX);
	if (f->hooks.window_done)
		f->hooks.window_done(f->hooks.ctx, f, INT64_MAX);
}
