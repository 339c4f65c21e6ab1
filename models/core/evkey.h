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
};

#endif
