/*
 * link.c - constant-delay packet FIFOs: cables (propagation at 5 ns/m) and
 * switch pipelines (switch_latency).  A packet that enters at time t leaves
 * at t + delay; since the delay is constant, packets leave in the order they
 * entered, so only the head needs an event (htsim's Pipe).
 */
#include "fabric.h"

static void link_fire(struct sim_engine *eng, struct sim_event *ev)
{
	struct link *l = container_of(ev, struct link, ev);
	struct pkt *p = pktq_pop(&l->q);
	if (l->q.head)
		sim_schedule(eng, ev, l->q.head->t);
	l->deliver(eng->user, l->to, l->to_port, p);
}

void link_init(struct link *l, sim_time_ps delay_ps, link_deliver_fn deliver,
	       void *to, uint16_t to_port)
{
	*l = (struct link){ .delay_ps = delay_ps, .deliver = deliver, .to = to,
			    .to_port = to_port };
	sim_event_init(&l->ev, link_fire);
}

void link_push(struct fabric *f, struct link *l, struct pkt *p)
{
	p->t = f->eng.now + l->delay_ps;
	pktq_push(&l->q, p);
	if (!sim_event_pending(&l->ev))
		sim_schedule(&f->eng, &l->ev, p->t);
}
