/*
 * link.c - constant-delay packet FIFOs (see link.h).
 */
#include "link.h"

static void link_fire(struct sim_engine *eng, struct sim_event *ev)
{
	struct link *l = container_of(ev, struct link, ev);
	struct pkt *p = pktq_pop(&l->q);
	if (l->q.head) /* the next packet is the head from now on */
		sim_schedule(eng, ev, l->q.head->t);
	l->deliver(l->to, l->to_port, p);
}

void link_init(struct link *l, uint64_t key, sim_time_ps delay_ps, link_deliver_fn deliver,
	       void *to, uint16_t to_port)
{
	*l = (struct link){ .delay_ps = delay_ps, .deliver = deliver, .to = to,
			    .to_port = to_port };
	sim_event_init(&l->ev, link_fire, key);
}

void link_push(struct sim_engine *eng, struct link *l, struct pkt *p)
{
	p->t = eng->now + l->delay_ps;
	pktq_push(&l->q, p);
	if (!sim_event_pending(&l->ev))
		sim_schedule(eng, &l->ev, p->t);
}
