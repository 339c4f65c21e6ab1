/*
 * pfc.c - the receiving side of PFC (IEEE 802.1Qbb, DESIGN B3), shared by
 * switch egress ports and NICs, and the pause sampler behind pause.csv.
 *
 * A PFC frame that arrives waits the port's response time (a constant-delay
 * FIFO, so one pending event however many frames arrive), then:
 *   quanta > 0  pause the priority until now + quanta x 512 bit times at the
 *               port's rate (a refresh just moves the end)
 *   quanta = 0  XON: resume now.
 * A pause that ends without XON is an `expire`.  One event per transmitter
 * watches the earliest end among its paused priorities.
 *
 * Watchdog interplay (DESIGN B4): while the watchdog holds a storm on a
 * priority with action drop or forward, frames for it are counted (the
 * restoration timer needs their arrival times) but not obeyed.
 */
#include "fabric.h"

#include "invariant.h"
#include "scenario.h"

/* a transmitter just became dirty: make sure the sampler runs */
static void sampler_wake(struct fabric *f)
{
	if (sim_event_pending(&f->sample_ev))
		return;
	/* keep interval boundaries on multiples of sample_interval */
	sim_time_ps iv = f->scn->sample_interval_ps;
	sim_time_ps next = (f->eng.now / iv + 1) * iv;
	f->sample_start = next - iv;
	sim_schedule(&f->eng, &f->sample_ev, next);
}

static void mark_dirty(struct fabric *f, struct pause_rx *pr)
{
	if (pr->dirty)
		return;
	sampler_wake(f);
	pr->dirty = 1;
	pr->next_dirty = f->dirty;
	f->dirty = pr;
}

static void log_pfc(struct fabric *f, struct pause_rx *pr, unsigned prio, enum pfc_event ev,
		    uint32_t quanta)
{
	if (f->hooks.pfc)
		f->hooks.pfc(f->hooks.ctx, f, pr, prio, ev, quanta);
}

static void unpause(struct fabric *f, struct pause_rx *pr, unsigned prio)
{
	sim_time_ps from = pr->since[prio] > f->sample_start ? pr->since[prio] : f->sample_start;
	pr->acc[prio] += f->eng.now - from;
	pr->paused &= (uint8_t)~(1u << prio);
}

static void arm_expire(struct fabric *f, struct pause_rx *pr)
{
	sim_time_ps first = INT64_MAX;
	for (unsigned p = 0; p < PKT_PRIOS; p++)
		if (pr->paused & (1u << p) && pr->until[p] < first)
			first = pr->until[p];
	if (first == INT64_MAX)
		sim_cancel(&f->eng, &pr->expire_ev);
	else
		sim_schedule(&f->eng, &pr->expire_ev, first);
}

static void expire_fire(struct sim_engine *eng, struct sim_event *ev)
{
	struct pause_rx *pr = container_of(ev, struct pause_rx, expire_ev);
	struct fabric *f = eng->user;
	for (unsigned p = 0; p < PKT_PRIOS; p++)
		if (pr->paused & (1u << p) && pr->until[p] <= eng->now) {
			unpause(f, pr, p);
			log_pfc(f, pr, p, PFC_EXPIRE, 0);
		}
	arm_expire(f, pr);
	pr->kick(f, pr);
}

/* delay line exit: the frame takes effect */
static void pause_apply(struct fabric *f, void *to, uint16_t port, struct pkt *p)
{
	struct pause_rx *pr = to;
	unsigned prio = p->prio;
	uint32_t quanta = p->quanta;
	(void)port;
	pkt_release(&f->pool, p);
	if (pr->ignore & (1u << prio))
		return;
	if (quanta) {
		enum pfc_event ev = pr->paused & (1u << prio) ? PFC_REFRESH : PFC_XOFF;
		if (ev == PFC_XOFF) {
			pr->paused |= (uint8_t)(1u << prio);
			pr->since[prio] = f->eng.now;
		}
		pr->until[prio] = f->eng.now + scenario_quanta_ps(quanta, pr->rate_bps);
		mark_dirty(f, pr);
		log_pfc(f, pr, prio, ev, quanta);
		arm_expire(f, pr);
	} else if (pr->paused & (1u << prio)) {
		unpause(f, pr, prio);
		log_pfc(f, pr, prio, PFC_XON, 0);
		arm_expire(f, pr);
		pr->kick(f, pr);
	}
}

void pause_init(struct fabric *f, struct pause_rx *pr, int is_host, uint32_t node,
		uint16_t port, int64_t rate_bps, void (*kick)(struct fabric *, struct pause_rx *))
{
	*pr = (struct pause_rx){ .rate_bps = rate_bps, .is_host = (uint8_t)is_host,
				 .port = port, .node = node, .kick = kick };
	for (unsigned p = 0; p < PKT_PRIOS; p++)
		pr->last_frame[p] = -1;
	sim_event_init(&pr->expire_ev, expire_fire);
	link_init(&pr->delay, scenario_response_ps(f->scn, rate_bps), pause_apply, pr, 0);
}

void pause_receive(struct fabric *f, struct pause_rx *pr, struct pkt *p)
{
	SIM_INVARIANT(p->type == PKT_PFC, "pause_receive of a non-PFC frame");
	pr->last_frame[p->prio] = f->eng.now;
	if (p->quanta) {
		pr->frames[p->prio]++;
		mark_dirty(f, pr);
	}
	link_push(f, &pr->delay, p);
}

void pause_clear(struct fabric *f, struct pause_rx *pr, unsigned prio)
{
	if (!(pr->paused & (1u << prio)))
		return;
	unpause(f, pr, prio);
	arm_expire(f, pr);
	pr->kick(f, pr);
}

struct pkt *pfc_frame(struct fabric *f, unsigned prio, uint32_t quanta)
{
	struct pkt *p = pkt_alloc(&f->pool);
	SIM_INVARIANT(p, "out of memory for packets");
	*p = (struct pkt){ .type = PKT_PFC, .prio = (uint8_t)prio, .quanta = quanta };
	if (quanta)
		f->pause_frames++;
	return p;
}

/* ---- pause sampler: one row per paused (transmitter, priority) and
 * interval; only transmitters touched by PFC are visited ---- */

static void sample(struct fabric *f)
{
	sim_time_ps now = f->eng.now, len = now - f->sample_start;
	struct pause_rx **link = &f->dirty;
	if (len <= 0)
		return;
	while (*link) {
		struct pause_rx *pr = *link;
		for (unsigned p = 0; p < PKT_PRIOS; p++) {
			if (pr->paused & (1u << p)) {
				sim_time_ps from = pr->since[p] > f->sample_start ? pr->since[p]
										 : f->sample_start;
				pr->acc[p] += now - from;
			}
			if (!pr->acc[p] && !pr->frames[p])
				continue;
			uint32_t ppm = (uint32_t)((pr->acc[p] * 1000000 + len / 2) / len);
			if (ppm > f->max_paused_ppm)
				f->max_paused_ppm = ppm;
			if (f->hooks.pause_sample)
				f->hooks.pause_sample(f->hooks.ctx, f, now, pr, p, ppm, pr->frames[p]);
			pr->acc[p] = 0;
			pr->frames[p] = 0;
		}
		if (pr->paused) {
			link = &pr->next_dirty;
		} else {
			pr->dirty = 0;
			*link = pr->next_dirty;
		}
	}
	f->sample_start = now;
}

void pause_sample_fire(struct sim_engine *eng, struct sim_event *ev)
{
	struct fabric *f = eng->user;
	sample(f);
	if (f->dirty)
		sim_schedule(eng, ev, eng->now + f->scn->sample_interval_ps);
}

void fabric_pause_flush(struct fabric *f)
{
	if (f->dirty)
		sample(f);
}
