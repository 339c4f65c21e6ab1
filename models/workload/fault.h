/*
 * fault.h - scheduled faults ([fault.*]): pause storms, slow receivers and
 * failed links (docs/contract.md#scenario-files, docs/model.md#pfc).  fault.c
 * says what each one does.
 */
#ifndef DCQCN_FAULT_H
#define DCQCN_FAULT_H

#include <stdint.h>

#include "models/base/engine.h"
#include "models/base/units.h"

struct net;
struct net_link_down;
struct scenario;
struct scn_fault;

struct fault_rt {
	struct sim_event ev;           /* next action: start, storm tick, end */
	struct net *net;               /* of the node it acts on */
	const struct scn_fault *def;
	uint8_t end;                   /* link-down: which end of the link */
	sim_time_ps nic_watchdog_ps;   /* nic.pause_watchdog; 0 off */
	sim_time_ps end_ps;            /* INT64_MAX: until the end of the run */
	uint8_t active;
};

struct faults {
	struct fault_rt *rt;
	uint32_t n;
	struct net_link_down *link_down; /* the switch ports of failed links, for routing */
	uint32_t nlink_down;
};

/* schedule every fault of the scenario on the nets of the nodes it acts on
 * (net: any of them, for the node tables); the caller gives every net the
 * link_down table.  0, or -1 when out of memory */
int fault_build(struct faults *fs, struct net *net, const struct scenario *scn);
void fault_free(struct faults *fs);

#endif
