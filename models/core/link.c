/*
 * link.c - constant-delay packet FIFOs (see link.h).
 */
#include "models/core/link.h"

#include <stdlib.h>
#include <string.h>

#include "models/base/invariant.h"
#include "models/base/slab.h"

static void link_fire(struct sim_engine *eng, struct sim_event *ev)
{
	struct link *l = container_of(ev, struct link, ev);
	struct pkt *p = pktq_pop(&l->q);
	l->last_fire = eng->now;
	if (l->q.head) /* the next packet is the head from now on */
		sim_schedule(eng, ev, p->next_t);
	l->deliver(l->to, l->to_port, p);
}

void link_init(struct link *l, uint64_t key, sim_time_ps delay_ps, link_deliver_fn deliver,
	       void *to, uint16_t to_port)
{
	*l = (struct link){ .delay_ps = delay_ps, .last_fire = -1, .deliver = deliver, .to = to,
			    .to_port = to_port };
	sim_event_init(&l->ev, link_fire, key);
}

int link_cross(struct link *l, struct link_outbox *out)
{
	struct link *far = calloc_lines(1, sizeof(*far));
	if (!far)
		return -1;
	*far = *l;
	l->out = out;
	l->far = far;
	return 0;
}

void link_free(struct link *l)
{
	free(l->far);
	l->far = NULL;
}

/* p, whose t is set, enters l's delay line; the packet ahead of it keeps
 * that time (the line of its `next`, written anyway) */
static void line_push(struct link *l, struct pkt *p)
{
	if (l->q.tail)
		l->q.tail->next_t = p->t;
	pktq_push(&l->q, p);
}

/* room for one more packet in o (its entries hold packets: line-aligned) */
static void outbuf_grow(struct link_outbuf *o)
{
	uint32_t cap = o->cap ? 2 * o->cap : 256;
	struct link_out *e = calloc_lines(cap, sizeof(*e));
	SIM_INVARIANT(e, "out of memory for %u packets between threads", cap);
	if (o->n)
		memcpy(e, o->e, o->n * sizeof(*e));
	free(o->e);
	o->e = e;
	o->cap = cap;
}

void link_outbox_put(struct link_outbox *o, struct link *far, sim_time_ps push_ps,
		     const struct pkt *p)
{
	struct link_outbuf *b = &o->buf[o->side];
	if (b->n == b->cap)
		outbuf_grow(b);
	sim_time_ps t = push_ps + far->delay_ps;
	if (!b->n || t < b->first)
		b->first = t;
	b->e[b->n++] = (struct link_out){ .l = far, .push_ps = push_ps, .p = *p };
}

void link_push(struct sim_engine *eng, struct link *l, struct pkt *p)
{
	if (l->out) {
		link_outbox_put(l->out, l->far, eng->now, p);
		pkt_release_moved(l->out->from, p); /* it lives on in the outbox */
		return;
	}
	p->t = eng->now + l->delay_ps;
	line_push(l, p);
	if (!sim_event_pending(&l->ev))
		sim_schedule(eng, &l->ev, p->t);
}

/* the far end's engine takes p, which entered l at push_ps */
static void link_accept(struct sim_engine *eng, struct link *l, struct pkt *p, sim_time_ps push_ps)
{
	p->t = push_ps + l->delay_ps;
	line_push(l, p);
	if (!sim_event_pending(&l->ev))
		sim_schedule_at(eng, &l->ev, p->t, push_ps > l->last_fire ? push_ps : l->last_fire);
}

void link_outbox_take(struct sim_engine *eng, struct link_outbox *o, unsigned which)
{
	struct link_outbuf *b = &o->buf[which];
	for (uint32_t k = 0; k < b->n; k++) {
		struct pkt *p = pkt_take(o->to);
		*p = b->e[k].p;
		link_accept(eng, b->e[k].l, p, b->e[k].push_ps);
	}
	b->n = 0;
}

void link_outbox_flip(struct link_outbox *o)
{
	SIM_INVARIANT(!o->buf[!o->side].n, "%u packets between threads were not taken",
		      o->buf[!o->side].n);
	o->side = !o->side;
}

sim_time_ps link_outbox_first(const struct link_outbox *o)
{
	sim_time_ps t = INT64_MAX;
	for (int k = 0; k < 2; k++)
		if (o->buf[k].n && o->buf[k].first < t)
			t = o->buf[k].first;
	return t;
}

void link_outbox_free(struct link_outbox *o)
{
	for (int k = 0; k < 2; k++)
		free(o->buf[k].e);
	*o = (struct link_outbox){0};
}
