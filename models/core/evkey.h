/*
 * evkey.h - the canonical keys of the model's events (engine.h SIM_KEY).
 *
 * Events of the same picosecond fire in key order: by class first (the
 * order below), then by the owner's index (a switch or host number, a global
 * port index, a QP id, a fault's position), then by the owner's sub-event.
 * Every index is fixed when the fabric is built, the same however a
 * parallel run partitions it, so simultaneous events always fire in the same
 * order and a run's outputs do not depend on the number of threads.
 *
 * Samplers come first: a sample at time t sees the state before the events
 * of t.
 */
#ifndef DCQCN_EVKEY_H
#define DCQCN_EVKEY_H

#include <stdio.h>

#include "models/base/engine.h"

enum evkey_class {
	EVKEY_PAUSE_SAMPLER = 1, /* pause.csv (index: the sampler's partition) */
	EVKEY_SERIES_SAMPLER = 2, /* counters, queues, rates (index: partition) */
	EVKEY_FAULT = 3,         /* index: the fault's position in the scenario */
	EVKEY_SWITCH = 4,        /* index: switch number */
	EVKEY_PORT = 5,          /* index: global switch port index */
	EVKEY_NIC = 6,           /* index: host */
	EVKEY_QP = 7,            /* index: QP id */
	EVKEY_TRAFFIC = 8,       /* index: job or host */
};

/* sub-events */
enum {
	EVKEY_SW_WATCHDOG = 0, EVKEY_SW_PIPELINE = 1,
	EVKEY_PORT_TX = 0, EVKEY_PORT_LINK = 1, EVKEY_PORT_PAUSE = 2, EVKEY_PORT_PAUSE_DELAY = 3,
	EVKEY_PORT_PG = 8, /* + priority: the PG's XOFF refresh */
	EVKEY_PORT_CREDIT = 16, /* InfiniBand: the credit update to the peer */
	EVKEY_NIC_TX = 0, EVKEY_NIC_LINK = 1, EVKEY_NIC_PAUSE = 2, EVKEY_NIC_PAUSE_DELAY = 3,
	EVKEY_NIC_DRAIN = 4, EVKEY_NIC_REFRESH = 5, EVKEY_NIC_POST = 6, EVKEY_NIC_CREDIT = 7,
	EVKEY_QP_PACE = 0, EVKEY_QP_RTO = 1, EVKEY_QP_DELACK = 2,
	EVKEY_QP_AT_REST = 3, /* index: partition; the timers of QPs at rest (qpcache.c) */
};

/* the name of an event kind (engine.h SIM_KIND: class and sub-event) as
 * events.csv writes it: "port.tx", "qp.pace", "port.pg_refresh3" */
static inline void evkey_kind_name(unsigned kind, char *buf, size_t len)
{
	static const char *const cls[] = { "plain", "pause_sampler", "series_sampler", "fault",
					   "switch", "port", "nic", "qp", "traffic" };
	static const char *const sw[] = { "watchdog", "pipeline" };
	static const char *const port[] = { "tx", "link", "pause", "pause_delay" };
	static const char *const nic[] = { "tx", "link", "pause", "pause_delay", "drain",
					   "refresh", "post", "credit" };
	static const char *const qp[] = { "pace", "rto", "delack", "rest_rto" };
	unsigned c = kind >> 5, s = kind & 31;
	const char *sub = NULL;
	if (c == EVKEY_SWITCH && s < 2)
		sub = sw[s];
	else if (c == EVKEY_PORT && s < 4)
		sub = port[s];
	else if (c == EVKEY_NIC && s < 8)
		sub = nic[s];
	else if (c == EVKEY_QP && s < 4)
		sub = qp[s];
	if (c == EVKEY_PORT && s >= EVKEY_PORT_PG && s < EVKEY_PORT_CREDIT)
		snprintf(buf, len, "port.pg_refresh%u", s - EVKEY_PORT_PG);
	else if (c == EVKEY_PORT && s >= EVKEY_PORT_CREDIT)
		snprintf(buf, len, "port.credit");
	else if (sub)
		snprintf(buf, len, "%s.%s", cls[c], sub);
	else if (c < sizeof(cls) / sizeof(cls[0]))
		snprintf(buf, len, "%s.%u", cls[c], s);
	else
		snprintf(buf, len, "class%u.%u", c, s);
}

#endif
