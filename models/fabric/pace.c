/*
 * pace.c - which windows are worth the threads (see pace.h).
 */
#include "models/fabric/pace.h"

static struct pace_class *class_of(struct fabric_pace *p, uint64_t events)
{
	unsigned b = 63u - (unsigned)__builtin_clzll(events | 1);
	return &p->cls[b < PACE_CLASSES ? b : PACE_CLASSES - 1];
}

/* the cheaper way for c, both being known: 1 the threads */
static int cheaper(const struct pace_class *c)
{
	return c->ns[1] < c->ns[0];
}

void fabric_pace_init(struct fabric_pace *p, uint64_t floor, uint64_t ceiling)
{
	*p = (struct fabric_pace){ .floor = floor ? floor : 1, .ceiling = ceiling };
	for (unsigned b = 0; b < PACE_CLASSES; b++)
		p->cls[b].period = PACE_PERIOD_MIN;
}

int fabric_pace_threads(struct fabric_pace *p, uint64_t events)
{
	if (!fabric_pace_timed(p, events))
		return events >= p->ceiling;
	struct pace_class *c = class_of(p, events);
	if (!c->ns[1])
		return 1; /* the threads first, */
	if (!c->ns[0])
		return 0; /* then one thread */
	int best = cheaper(c);
	if (++c->since >= c->period) {
		c->since = 0;
		return !best;
	}
	return best;
}

void fabric_pace_record(struct fabric_pace *p, uint64_t events, int threaded, double ns)
{
	if (!fabric_pace_timed(p, events) || !(ns > 0))
		return;
	struct pace_class *c = class_of(p, events);
	threaded = !!threaded;
	double x = ns / (double)events, *est = &c->ns[threaded];
	if (!*est) {
		*est = x;
		return;
	}
	int both = c->ns[!threaded] > 0, before = both ? cheaper(c) : -1;
	if (x < *est) /* what delays a window only adds time: trust a faster one more */
		*est += (x - *est) / 2;
	else
		*est += ((x > PACE_OUTLIER * *est ? PACE_OUTLIER * *est : x) - *est) / 4;
	if (before < 0)
		return;
	if (cheaper(c) != before) { /* the other way now: the old one is tried soon */
		c->period = PACE_PERIOD_MIN;
		c->since = 0;
	} else if (threaded != before) { /* a trial lost again: try it less often */
		c->period = c->period < PACE_PERIOD_MAX / 4 ? c->period * 4 : PACE_PERIOD_MAX;
	}
}
