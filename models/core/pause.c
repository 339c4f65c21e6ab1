/*
 * pause.c - the receiving side of PFC and the pause sampler (see pause.h).
 */
#include "models/core/pause.h"

#include <stdlib.h>

#include "models/base/invariant.h"
#include "models/core/pfc.h"

/* a transmitter just became dirty: make sure the sampler runs */
static void sampler_wake(struct pause_env *env)
{
	if (sim_event_pending(&env->sample_ev))
		return;
	/* keep interval boundaries on multiples of the interval */
	sim_time_ps iv = env->interval_ps;
	sim_time_ps next = (env->eng->now / iv + 1) * iv;
	env->sample_start = next - iv;
	sim_schedule(env->eng, &env->sample_ev, next);
}

static void mark_dirty(struct pause_rx *pr)
{
	struct pause_env *env = pr->env;
	if (pr->dirty)
		return;
	sampler_wake(env);
	pr->dirty = 1;
	pr->next_dirty = env->dirty;
	env->dirty = pr;
}

static void log_pfc(struct pause_rx *pr, unsigned prio, enum pfc_event ev, uint32_t quanta)
{
	struct pause_env *env = pr->env;
	if (env->on_event)
		env->on_event(env->ctx, pr, prio, ev, quanta);
}

static void unpause(struct pause_rx *pr, unsigned prio)
{
	struct pause_env *env = pr->env;
	sim_time_ps from = pr->since[prio] > env->sample_start ? pr->since[prio] : env->sample_start;
	pr->acc[prio] += env->eng->now - from;
	env->paused_ps += env->eng->now - pr->since[prio];
	pr->paused &= (uint8_t)~(1u << prio);
}

static void arm_expire(struct pause_rx *pr)
{
	struct sim_engine *eng = pr->env->eng;
	sim_time_ps first = INT64_MAX;
	for (unsigned p = 0; p < PKT_PRIOS; p++)
		if (pr->paused & (1u << p) && pr->until[p] < first)
			first = pr->until[p];
	if (first == INT64_MAX)
		sim_cancel(eng, &pr->expire_ev);
	else
		sim_schedule(eng, &pr->expire_ev, first);
}

static void expire_fire(struct sim_engine *eng, struct sim_event *ev)
{
	struct pause_rx *pr = container_of(ev, struct pause_rx, expire_ev);
	for (unsigned p = 0; p < PKT_PRIOS; p++)
		if (pr->paused & (1u << p) && pr->until[p] <= eng->now) {
			unpause(pr, p);
			log_pfc(pr, p, PFC_EXPIRE, 0);
		}
	arm_expire(pr);
	pr->kick(pr);
}

/* delay line exit: the frame takes effect */
static void pause_apply(void *to, uint16_t port, struct pkt *p)
{
	struct pause_rx *pr = to;
	struct pause_env *env = pr->env;
	unsigned prio = p->prio;
	uint32_t quanta = p->quanta;
	(void)port;
	pkt_release(env->pool, p);
	if (pr->ignore & (1u << prio))
		return;
	if (quanta) {
		enum pfc_event ev = pr->paused & (1u << prio) ? PFC_REFRESH : PFC_XOFF;
		if (ev == PFC_XOFF) {
			pr->paused |= (uint8_t)(1u << prio);
			pr->since[prio] = env->eng->now;
		}
		pr->until[prio] = env->eng->now + pfc_quanta_ps(quanta, pr->rate_bps);
		mark_dirty(pr);
		log_pfc(pr, prio, ev, quanta);
		arm_expire(pr);
	} else if (pr->paused & (1u << prio)) {
		unpause(pr, prio);
		log_pfc(pr, prio, PFC_XON, 0);
		arm_expire(pr);
		pr->kick(pr);
	}
}

void pause_init(struct pause_env *env, struct pause_rx *pr, int is_host, uint32_t node,
		uint16_t port, int64_t rate_bps, sim_time_ps response_ps,
		void (*kick)(struct pause_rx *), uint64_t key_expire, uint64_t key_delay)
{
	*pr = (struct pause_rx){ .env = env, .rate_bps = rate_bps, .is_host = (uint8_t)is_host,
				 .port = port, .node = node, .kick = kick };
	for (unsigned p = 0; p < PKT_PRIOS; p++)
		pr->last_frame[p] = -1;
	sim_event_init(&pr->expire_ev, expire_fire, key_expire);
	link_init(&pr->delay, key_delay, response_ps, pause_apply, pr, 0);
}

void pause_receive(struct pause_rx *pr, struct pkt *p)
{
	SIM_INVARIANT(p->type == PKT_PFC, "pause_receive of a non-PFC frame");
	pr->last_frame[p->prio] = pr->env->eng->now;
	if (p->quanta) {
		pr->frames[p->prio]++;
		mark_dirty(pr);
	}
	link_push(pr->env->eng, &pr->delay, p);
}

void pause_stall(struct pause_rx *pr, unsigned prio)
{
	if (pr->paused & (1u << prio))
		return;
	pr->paused |= (uint8_t)(1u << prio);
	pr->since[prio] = pr->env->eng->now;
	pr->until[prio] = INT64_MAX; /* never expires: credits end it */
	mark_dirty(pr);
}

void pause_unstall(struct pause_rx *pr, unsigned prio)
{
	if (pr->paused & (1u << prio))
		unpause(pr, prio);
}

sim_time_ps pause_total_ps(const struct pause_env *env, sim_time_ps t)
{
	sim_time_ps sum = env->paused_ps;
	for (const struct pause_rx *pr = env->dirty; pr; pr = pr->next_dirty)
		for (unsigned p = 0; p < PKT_PRIOS; p++)
			if (pr->paused & (1u << p))
				sum += t - pr->since[p];
	return sum;
}

void pause_clear(struct pause_rx *pr, unsigned prio)
{
	if (!(pr->paused & (1u << prio)))
		return;
	unpause(pr, prio);
	arm_expire(pr);
	pr->kick(pr);
}

/* ---- the sampler: one row per paused (transmitter, priority) and
 * interval; only transmitters touched by PFC are visited ---- */

static int by_key(const void *a, const void *b)
{
	const struct pause_rx *x = *(const struct pause_rx *const *)a;
	const struct pause_rx *y = *(const struct pause_rx *const *)b;
	return (x->expire_ev.key > y->expire_ev.key) - (x->expire_ev.key < y->expire_ev.key);
}

static void sample(struct pause_env *env, sim_time_ps now)
{
	sim_time_ps len = now - env->sample_start;
	if (len <= 0)
		return;
	uint32_t n = 0;
	for (struct pause_rx *pr = env->dirty; pr; pr = pr->next_dirty) {
		if (n == env->order_cap) {
			uint32_t cap = env->order_cap ? 2 * env->order_cap : 64;
			struct pause_rx **o = realloc(env->order, cap * sizeof(*o));
			SIM_INVARIANT(o, "out of memory for the pause sampler");
			env->order = o;
			env->order_cap = cap;
		}
		env->order[n++] = pr;
	}
	if (n > 1)
		qsort(env->order, n, sizeof(*env->order), by_key);
	env->dirty = NULL;
	for (uint32_t k = 0; k < n; k++) {
		struct pause_rx *pr = env->order[k];
		for (unsigned p = 0; p < PKT_PRIOS; p++) {
			if (pr->paused & (1u << p)) {
				sim_time_ps from = pr->since[p] > env->sample_start
							   ? pr->since[p]
							   : env->sample_start;
				pr->acc[p] += now - from;
			}
			if (!pr->acc[p] && !pr->frames[p])
				continue;
			uint32_t ppm = (uint32_t)((pr->acc[p] * 1000000 + len / 2) / len);
			if (ppm > env->max_paused_ppm)
				env->max_paused_ppm = ppm;
			if (env->on_sample)
				env->on_sample(env->ctx, now, pr, p, ppm, pr->frames[p]);
			pr->acc[p] = 0;
			pr->frames[p] = 0;
		}
	}
	for (uint32_t k = n; k-- > 0;) { /* still paused: sampled again */
		struct pause_rx *pr = env->order[k];
		if (pr->paused) {
			pr->next_dirty = env->dirty;
			env->dirty = pr;
		} else {
			pr->dirty = 0;
		}
	}
	env->sample_start = now;
}

static void sample_fire(struct sim_engine *eng, struct sim_event *ev)
{
	struct pause_env *env = container_of(ev, struct pause_env, sample_ev);
	sample(env, eng->now);
	if (env->dirty)
		sim_schedule(eng, ev, eng->now + env->interval_ps);
}

void pause_env_init(struct pause_env *env, uint64_t key)
{
	env->dirty = NULL;
	env->sample_start = 0;
	env->max_paused_ppm = 0;
	env->paused_ps = 0;
	sim_event_init(&env->sample_ev, sample_fire, key);
}

void pause_flush(struct pause_env *env, sim_time_ps t)
{
	if (env->dirty)
		sample(env, t);
}

void pause_env_free(struct pause_env *env)
{
	free(env->order);
	env->order = NULL;
	env->order_cap = 0;
}
