/*
 * validate.c - the checks that involve several keys, at the end of each
 * file and in scenario_finalize(), which also resolves host sets, fault
 * links and the defaults that follow the final mtu, and reads the trace
 * files: the topology and host count, faults, the shared pool, ECN, CNPs,
 * the fabric type, and the order of all checks; those of the jobs and
 * their flows are checkjobs.c's.
 *
 * When each rule is checked
 *   - reading a key: syntax, unit and range of that one value; a key given
 *     twice in one file; qos.nccl_ib_tc against qos.data_dscp in one file;
 *     a priority listed twice in pfc.priorities, a queue twice in
 *     ecn.queues; the form of fault.NAME.node (a host name, h3) and
 *     fault.NAME.link (A-B, two node names).  dcqcn.profile sets the
 *     defaults of the knobs at once (keys.c: [dcqcn] profiles).
 *   - end of a file: keys that do not apply to the topology.kind,
 *     job.NAME.pattern, fault.NAME.kind or qos.scheduler chosen, [pfc] keys
 *     other than priorities while pfc.priorities is empty (PFC off),
 *     [pfcwd] keys other than enable while pfcwd.enable is false, [ecn]
 *     keys other than queues while ecn.queues is empty (ECN off), and every
 *     [dcqcn] key while nic.cc = none (the earliest such line is reported);
 *     ecn.kmax above ecn.kmin (when ECN is on) and qos.cnp_dscp unlike the
 *     data DSCP, naming the later of the keys the file gives; a job without
 *     pattern or (trace)
 *     file, a fault without kind or the node, link or rate its kind needs;
 *     the host count, and host indices against the file's topology; a
 *     ring-allreduce's or alltoall's size against its ranks (and channels),
 *     and the flows of all jobs together (trace rows not counted yet); a fault
 *     against the topology (node index, link ends that exist and are
 *     directly cabled), against [pfc] (a pause-storm or slow-receiver needs
 *     PFC on; a storm's priority must be lossless) and a slow receiver's
 *     rate against topology.host_link; the shared pool of every switch tier
 *     (docs/model.md#buffer), with the buffer.reserved and pfc.xon_offset defaults
 *     taken from the file's mtu.  These carry the key's line.
 *   - scenario_set(): the value, and whether the key applies to the kind,
 *     pattern, fault kind or scheduler in force at that moment, so a --set
 *     that selects must come first (`--set topology.kind=fat-tree --set
 *     topology.k=8`); likewise a [pfc] key needs pfc.priorities non-empty,
 *     a [pfcwd] key pfcwd.enable true, an [ecn] key ecn.queues non-empty
 *     and a [dcqcn] key nic.cc = dcqcn at that moment.  A --set that
 *     changes kind, pattern or scheduler, or turns PFC, the watchdog, ECN
 *     or DCQCN off, leaves the keys of the old choice unused rather than
 *     contradictory: that is how a sweep varies them.  The --set values of
 *     qos.data_dscp and qos.nccl_ib_tc override each other (the last wins).
 *     A job or fault first named by --set must get its pattern or kind
 *     first (`--set job.x.pattern=incast`, `--set fault.y.kind=link-down`).
 *   - scenario_finalize(): buffer.reserved and pfc.xon_offset, when not
 *     given, are resolved from the final mtu (until then they hold
 *     SCN_AUTO); ecn.kmax above ecn.kmin and qos.cnp_dscp unlike the data
 *     DSCP again (a --set may break them: the message says "--set" and
 *     names ecn.kmax or qos.cnp_dscp, so `--set ecn.kmin=2MB --set
 *     ecn.kmax=3MB` works in either order); the host count, every host
 *     index, every collective's size against its ranks and every fault
 *     again (a --set may have changed the topology or [pfc]), the trace
 *     files, then the flows of all jobs (trace rows included), and the
 *     shared pool again.  A pause-storm without priority gets the lowest
 *     lossless priority.  struct scenario keeps no per-key line, so these
 *     messages point at the job's [job.NAME] or the fault's [fault.NAME]
 *     line ("--set" for one created by --set); a host count or shared pool
 *     that only fails here was caused by --set and says "--set".
 *   After an error the scenario may be partly updated: report and free it.
 *   One file per scenario is the intended use; a second load applies on top
 *   of the first, and finalize's job messages then name the last file.
 *   Defaults are resolved once: a --set after scenario_finalize() does not
 *   re-derive reserved, xon_offset or a storm's priority.
 *
 * Choices where the brief is silent (the jobs' and flows': checkjobs.c)
 *   - qos.cnp_dscp equal to the data DSCP is an error whatever nic.cc (a
 *     job's own dscp may equal it: that is a misconfiguration experiment).
 *     qos.cnp_dscp and qos.cnp_priority_strict do not depend on nic.cc;
 *     neither do nic.rto and output.rates (0-100000).
 */
#include "models/scenario/loader.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/core/graph.h"
#include "models/scenario/links.h"

/* ---- checks that involve several keys ---- */

/* the place of a [topology] key */
static struct place topo_place(const struct scenario *s, const struct load *ld, const char *key)
{
	return scn_key_place(s, ld, SEC_TOPOLOGY, scn_find_key(SEC_TOPOLOGY, key), -1);
}

/* total hosts within 2..SCN_MAX_HOSTS */
static int check_hosts(const struct scenario *s, const struct load *ld, struct scn_error *err)
{
	struct place pl = { "--set", 0 };
	const char *key = "hosts_per_leaf";
	uint64_t hosts;

	if (s->topo == SCN_TOPO_RAIL) {
		hosts = (uint64_t)s->units * s->servers_per_unit * s->gpus_per_server;
		if (hosts >= 2 && hosts <= SCN_MAX_HOSTS)
			return 0;
		return scn_set_error(err, topo_place(s, ld, "servers_per_unit"),
				     "topology.servers_per_unit: %" PRIu32 " units x %" PRIu32
				     " servers_per_unit x %" PRIu32 " gpus_per_server = %" PRIu64
				     " hosts, out of range (2-%d)",
				     s->units, s->servers_per_unit, s->gpus_per_server, hosts,
				     SCN_MAX_HOSTS);
	}
	if (s->topo != SCN_TOPO_LEAF_SPINE)
		return 0; /* fat-tree (k <= 64) and star (<= 1024) always fit */
	hosts = (uint64_t)s->leaves * s->hosts_per_leaf;
	if (hosts >= 2 && hosts <= SCN_MAX_HOSTS)
		return 0;
	if (ld) {
		/* point at the later of the two keys in this file */
		int lv = ld->key_line[scn_find_key(SEC_TOPOLOGY, "leaves")];
		int hp = ld->key_line[scn_find_key(SEC_TOPOLOGY, "hosts_per_leaf")];

		pl.src = ld->src;
		pl.line = lv > hp ? lv : hp;
		if (lv > hp)
			key = "leaves";
	}
	return scn_set_error(err, pl,
			     "topology.%s: %" PRIu32 " leaves x %" PRIu32
			     " hosts_per_leaf = %" PRIu64 " hosts, out of range (2-%d)",
			     key, s->leaves, s->hosts_per_leaf, hosts, SCN_MAX_HOSTS);
}

/*
 * topology.kind = file: read the links file into s->graph (again when the
 * path changed), and take host_link, host_cable, fabric_link and
 * fabric_cable from it.  This version needs every host link to share one
 * rate and cable length, and every switch-to-switch link another (a switch
 * has two port classes, as in the other kinds); a file that mixes them is
 * rejected at the first link that differs.
 */
static int load_topology_file(struct scenario *s, const struct load *ld, struct scn_error *err)
{
	struct place pl = scn_key_place(s, ld, SEC_TOPOLOGY, scn_find_key(SEC_TOPOLOGY, "file"), -1);
	struct links_file lf;
	char a[40], b[40], c[40], d[40];
	int first[2] = { -1, -1 };

	if (s->topo != SCN_TOPO_FILE)
		return 0;
	if (!s->topo_file[0])
		return scn_set_error(err, topo_place(s, ld, "kind"),
				     "topology.file: required with kind = file (a links CSV: "
				     "a,b,rate,cable)");
	if (s->graph && !strcmp(s->graph_path, s->topo_file))
		return 0;
	if (s->graph) {
		graph_free(s->graph);
		free(s->graph);
	}
	s->graph = calloc(1, sizeof(*s->graph));
	if (!s->graph)
		return scn_set_error(err, pl, "out of memory for topology.file");
	if (links_read(s->topo_file, &lf, err)) {
		free(s->graph);
		s->graph = NULL;
		return -1;
	}
	if (links_build(&lf, s->topo_file, s->graph, err)) {
		links_free(&lf);
		free(s->graph);
		s->graph = NULL;
		return -1;
	}
	snprintf(s->graph_path, sizeof(s->graph_path), "%s", s->topo_file);
	for (uint32_t i = 0; i < lf.nlinks; i++) {
		const struct graph_link *l = &lf.links[i];
		int host = graph_node(s->graph, l->a).is_host || graph_node(s->graph, l->b).is_host;
		int64_t *rate = host ? &s->host_link_bps : &s->fabric_link_bps;
		int64_t *cable = host ? &s->host_cable_mm : &s->fabric_cable_mm;
		if (first[host] < 0) {
			first[host] = lf.link_line[i];
			*rate = l->rate_bps;
			*cable = l->cable_mm;
		} else if (*rate != l->rate_bps || *cable != l->cable_mm) {
			scn_set_error(err, (struct place){ s->topo_file, lf.link_line[i] },
				      "%s %s differs from the %s link on line %d (%s %s): this version "
				      "needs every %s link to share one rate and cable length",
				      units_format_rate(l->rate_bps, a, sizeof(a)),
				      units_format_length(l->cable_mm, b, sizeof(b)),
				      host ? "first host" : "first switch-to-switch", first[host],
				      units_format_rate(*rate, c, sizeof(c)),
				      units_format_length(*cable, d, sizeof(d)),
				      host ? "host" : "switch-to-switch");
			links_free(&lf);
			graph_free(s->graph);
			free(s->graph);
			s->graph = NULL;
			return -1;
		}
	}
	if (first[0] < 0) { /* one switch: no fabric link */
		s->fabric_link_bps = s->host_link_bps;
		s->fabric_cable_mm = s->host_cable_mm;
	}
	links_free(&lf);
	return 0;
}

/* hosts, servers within one switch, uplinks within a leaf's ports */
static int check_topology(const struct scenario *s, const struct load *ld,
			  struct scn_error *err)
{
	uint32_t g = s->gpus_per_server, below = 0;
	const char *what = NULL;

	if (check_hosts(s, ld, err))
		return -1;
	if ((s->topo == SCN_TOPO_LEAF_SPINE || s->topo == SCN_TOPO_RAIL) &&
	    s->spines * s->uplinks_per_spine > 256)
		return scn_set_error(err, topo_place(s, ld, "uplinks_per_spine"),
				     "topology.uplinks_per_spine: %" PRIu32 " spines x %" PRIu32
				     " uplinks_per_spine = %" PRIu32
				     " uplinks per leaf, above 256",
				     s->spines, s->uplinks_per_spine,
				     s->spines * s->uplinks_per_spine);
	if (s->ecmp == SCN_ECMP_ADAPTIVE && s->topo == SCN_TOPO_STAR)
		return scn_set_error(err, topo_place(s, ld, "ecmp"),
				     "topology.ecmp: adaptive needs a choice of paths (leaf-spine,"
				     " fat-tree, rail-optimized or file); a star has one switch");
	if (s->topo == SCN_TOPO_RAIL && (uint64_t)s->units * g > 1024)
		return scn_set_error(err, topo_place(s, ld, "units"),
				     "topology.units: %" PRIu32 " units x %" PRIu32
				     " rails (gpus_per_server) = %" PRIu32
				     " rail leaves, above 1024",
				     s->units, g, s->units * g);
	switch (s->topo) {
	case SCN_TOPO_LEAF_SPINE:
		below = s->hosts_per_leaf;
		what = "hosts_per_leaf";
		break;
	case SCN_TOPO_FAT_TREE:
		below = s->k / 2;
		what = "k / 2 (hosts per edge switch)";
		break;
	case SCN_TOPO_STAR:
		below = s->star_hosts;
		what = "hosts";
		break;
	case SCN_TOPO_RAIL:
		return 0; /* a server's GPUs are on the rails by construction */
	case SCN_TOPO_FILE: {
		struct topo t;
		scn_topo(s, &t);
		below = t.hosts;
		what = "the hosts of topology.file";
		for (uint32_t h = 0; g > 1 && h < t.hosts; h++)
			if (topo_host_leaf(&t, h) != topo_host_leaf(&t, h - h % g))
				return scn_set_error(err, topo_place(s, ld, "gpus_per_server"),
						     "topology.gpus_per_server: h%" PRIu32
						     " and h%" PRIu32 " are GPUs of one server on"
						     " different switches (a server's GPUs must"
						     " share one switch)",
						     h - h % g, h);
		break;
	}
	}
	if (below % g)
		return scn_set_error(err, topo_place(s, ld, "gpus_per_server"),
				     "topology.gpus_per_server: %" PRIu32
				     " does not divide %s (%" PRIu32
				     "): a server's GPUs must share one switch",
				     g, what, below);
	return 0;
}

/* ---- faults against the topology and [pfc] ---- */

/*
 * The values of fault f that depend on other sections: the keys its kind
 * needs, the host or link against the topology, PFC and the priority, the
 * rate against the host link.  With resolve, the link ends and the default
 * priority are stored.
 */
static int check_fault(struct scenario *s, const struct load *ld, int f,
		       int resolve, struct scn_error *err)
{
	struct scn_fault *ft = &s->faults[f];
	const char *kind = scn_fault_kind_names[ft->kind];
	uint32_t nhosts = scenario_hosts(s);
	char e[300], a[40], b[40];
	uint32_t node[2];
	uint8_t is_host[2];
	int p;

#define FPLACE(key) scn_key_place(s, ld, SEC_FAULT, scn_find_key(SEC_FAULT, key), f)
#define FPLACE_HDR scn_key_place(s, ld, SEC_FAULT, -1, f)
	switch (ft->kind) {
	case SCN_FAULT_PAUSE_STORM:
	case SCN_FAULT_SLOW_RECEIVER:
		if (ft->host == NO_HOST)
			return scn_set_error(err, FPLACE_HDR,
					     "fault.%s.node: missing (%s needs a host, e.g. h3)",
					     ft->name, kind);
		if (ft->host >= nhosts)
			return scn_set_error(err, FPLACE("node"),
					     "fault.%s.node: h%" PRIu32 " out of range (h0-h%" PRIu32 ")",
					     ft->name, ft->host, nhosts - 1);
		/* infiniband: a slow receiver holds back credits, not pause frames;
		 * ethernet-tcp: it drops what its buffer cannot hold */
		if (!s->pfc_prios &&
		    !(s->fabric_type != SCN_FABRIC_ROCE && ft->kind == SCN_FAULT_SLOW_RECEIVER))
			return scn_set_error(err, FPLACE("kind"),
					     "fault.%s.kind: %s needs PFC on (pfc.priorities is empty)",
					     ft->name, kind);
		if (ft->kind == SCN_FAULT_PAUSE_STORM) {
			if (ft->priority == NO_PRIO) {
				for (p = 0; !(s->pfc_prios & (1u << p)); p++)
					;
				if (resolve)
					ft->priority = (uint8_t)p;
			} else if (!(s->pfc_prios & (1u << ft->priority))) {
				scn_prios_text(s->pfc_prios, a, sizeof(a));
				return scn_set_error(err, FPLACE("priority"),
						     "fault.%s.priority: %u is not a lossless priority (pfc.priorities = %s)",
						     ft->name, ft->priority, a);
			}
			return 0;
		}
		if (ft->rate_bps == 0)
			return scn_set_error(err, FPLACE_HDR,
					     "fault.%s.rate: missing (slow-receiver needs a drain rate, e.g. 100Gbps)",
					     ft->name);
		if (ft->rate_bps >= s->host_link_bps)
			return scn_set_error(err, FPLACE("rate"),
					     "fault.%s.rate: %s must be below topology.host_link (%s)",
					     ft->name, units_format_rate(ft->rate_bps, a, sizeof(a)),
					     units_format_rate(s->host_link_bps, b, sizeof(b)));
		return 0;
	case SCN_FAULT_LINK_DOWN:
		if (s->topo == SCN_TOPO_FILE)
			return scn_set_error(err, FPLACE("kind"),
					     "fault.%s.kind: link-down is not available with "
					     "topology.kind = file in this version (pause-storm and "
					     "slow-receiver are)",
					     ft->name);
		if (ft->link_text[0] == '\0')
			return scn_set_error(err, FPLACE_HDR,
					     "fault.%s.link: missing (link-down needs a link, e.g. leaf0-spine1)",
					     ft->name);
		if (scn_resolve_link(s, ft->link_text, node, is_host, e, sizeof(e)))
			return scn_set_error(err, FPLACE("link"), "fault.%s.link: %s", ft->name, e);
		if (resolve) {
			memcpy(ft->end_node, node, sizeof(node));
			memcpy(ft->end_is_host, is_host, sizeof(is_host));
		}
		return 0;
	}
#undef FPLACE
#undef FPLACE_HDR
	return 0;
}

/* ---- the shared pool of every switch tier (docs/model.md#buffer) ---- */

/*
 * Every switch tier must keep a positive shared pool.  With ld (end of a
 * file) the message points at buffer.size if the file gives it, else at the
 * latest key of the file that the pool depends on, else at the file; at
 * finalize it says "--set".
 */
static int check_pool(const struct scenario *s, const struct load *ld,
		      struct scn_error *err)
{
	int size_k = scn_find_key(SEC_BUFFER, "size"), best = size_k, ki;
	struct sw_tier tiers[3];
	struct place pl = { "--set", 0 };
	char text[400], a[40];
	int nt = scn_switch_tiers(s, tiers), t;

	for (t = 0; t < nt; t++) {
		if (scn_pool_text(s, &tiers[t], text, sizeof(text)) > 0)
			continue;
		if (ld) {
			/* buffer.size if given, else the latest KF_POOL key */
			pl.src = ld->src;
			pl.line = ld->key_line[size_k];
			if (pl.line <= 0) {
				pl.line = 0;
				for (ki = 0; ki < N_KEYS; ki++)
					if ((scn_key_defs[ki].flags & KF_POOL) &&
					    ld->key_line[ki] > pl.line) {
						pl.line = ld->key_line[ki];
						best = ki;
					}
			}
		}
		units_format_size(s->buffer_bytes, a, sizeof(a));
		if (best == size_k)
			return scn_set_error(err, pl, "buffer.size: %s leaves no shared pool on %s: %s",
					     a, tiers[t].label, text);
		return scn_set_error(err, pl,
				     "%s.%s: buffer.size %s leaves no shared pool on %s: %s",
				     scn_section_defs[scn_key_defs[best].sec].name, scn_key_defs[best].name, a,
				     tiers[t].label, text);
	}
	return 0;
}

/*
 * ecn.kmax above ecn.kmin while ECN is on (docs/contract.md#scenario-files's example message).
 * With ld (end of a file) the message names the later of the two keys the
 * file gives; at finalize it names kmax at "--set".
 */
static int check_ecn(const struct scenario *s, const struct load *ld,
		     struct scn_error *err)
{
	struct place pl = { "--set", 0 };
	char a[40], b[40];
	int lmin = 0, lmax = 0;

	if (!s->ecn_queues || s->ecn_kmax_bytes > s->ecn_kmin_bytes)
		return 0;
	units_format_size(s->ecn_kmin_bytes, a, sizeof(a));
	units_format_size(s->ecn_kmax_bytes, b, sizeof(b));
	if (ld) {
		lmin = ld->key_line[scn_find_key(SEC_ECN, "kmin")];
		lmax = ld->key_line[scn_find_key(SEC_ECN, "kmax")];
		pl.src = ld->src;
		pl.line = lmin > lmax ? lmin : lmax;
	}
	if (lmin > lmax)
		return scn_set_error(err, pl, "ecn.kmin: %s must be below ecn.kmax (%s)", a, b);
	return scn_set_error(err, pl, "ecn.kmax: %s must be above ecn.kmin (%s)", b, a);
}

/*
 * qos.cnp_dscp must differ from the data DSCP.  With ld the message names
 * the latest of qos.cnp_dscp, qos.data_dscp and qos.nccl_ib_tc that the
 * file gives; at finalize it names cnp_dscp at "--set".
 */
static int check_cnp(const struct scenario *s, const struct load *ld,
		     struct scn_error *err)
{
	static const char *const keys[] = { "cnp_dscp", "data_dscp", "nccl_ib_tc" };
	struct place pl = { "--set", 0 };
	size_t i, best = 0;

	if (s->cnp_dscp != s->data_dscp)
		return 0;
	if (ld) {
		pl.src = ld->src;
		for (i = 0; i < N_OF(keys); i++) {
			int line = ld->key_line[scn_find_key(SEC_QOS, keys[i])];
			if (line > pl.line) {
				pl.line = line;
				best = i;
			}
		}
	}
	if (best == 0)
		return scn_set_error(err, pl,
				     "qos.cnp_dscp: %u is also qos.data_dscp (CNPs need a DSCP of their own)",
				     s->cnp_dscp);
	return scn_set_error(err, pl,
			     "qos.%s: DSCP %u is also qos.cnp_dscp (CNPs need a DSCP of their own)",
			     keys[best], s->data_dscp);
}

/*
 * dcqcn.cut_on = timer cuts on a grid of dcqcn.rate_reduce_monitor_period,
 * which must not be 0.  With ld the message names the later of the two
 * keys that the file gives; at finalize it names cut_on at "--set".
 */
static int check_cut_on(const struct scenario *s, const struct load *ld,
			struct scn_error *err)
{
	struct place pl = { "--set", 0 };
	int by_period = 0;

	if (s->cc != SCN_CC_DCQCN || s->dcqcn.cut_on != SCN_CUT_ON_TIMER ||
	    s->dcqcn.rate_reduce_monitor_period_ps > 0)
		return 0;
	if (ld) {
		int lc = ld->key_line[scn_find_key(SEC_DCQCN, "cut_on")];
		int lp = ld->key_line[scn_find_key(SEC_DCQCN, "rate_reduce_monitor_period")];

		pl.src = ld->src;
		pl.line = lc > lp ? lc : lp;
		by_period = lp > lc;
	}
	if (by_period)
		return scn_set_error(err, pl,
				     "dcqcn.rate_reduce_monitor_period: 0 with dcqcn.cut_on = timer"
				     " (the timer's period: above 0, at most 1s; or cut_on = cnp)");
	return scn_set_error(err, pl,
			     "dcqcn.cut_on: timer needs dcqcn.rate_reduce_monitor_period above 0"
			     " (the timer's period, at most 1s); it is 0");
}

/* output.plot_qps names QPs that rates.csv traces (the first output.rates) */
static int check_plot_qps(const struct scenario *s, const struct load *ld,
			  struct scn_error *err)
{
	const struct scn_flowlist *fl = &s->output_plot_qps;

	for (uint32_t i = 0; i < fl->n; i++)
		if (fl->id[i] >= s->output_rates)
			return scn_set_error(err,
					     scn_key_place(s, ld, SEC_OUTPUT,
						       scn_find_key(SEC_OUTPUT, "plot_qps"), -1),
					     "output.plot_qps: QP %" PRIu32 " is not traced "
					     "(rates.csv has the first output.rates = %" PRIu32
					     " QPs)",
					     fl->id[i], s->output_rates);
	return 0;
}

/*
 * fabric.type = infiniband: no PFC, ECN, DCQCN or PFC watchdog (keys.c,
 * scn_apply_fabric).  Why a key of theirs does not belong, NULL when it
 * does: a key of [pfc], [pfcwd], [ecn], [dcqcn], nic.cc or
 * nic.pause_watchdog, unless it holds infiniband's own default (an empty
 * list, false, none, 0).
 */
static const char *fabric_conflict(const struct scenario *s, const struct key_def *k)
{
	int64_t def;
	enum scn_fabric f = (enum scn_fabric)s->fabric_type;

	if (scn_fabric_default(k, f, &def) && scn_load_int(s, k) == def)
		return NULL;
	if (k == scn_key_def_of(SEC_NIC, "pause_watchdog") && !s->nic_pause_watchdog_ps)
		return NULL;
	return scn_fabric_foreign(k, f);
}

/* ethernet-tcp: DCTCP needs switches that mark */
static int check_tcp(const struct scenario *s, const struct load *ld, struct scn_error *err)
{
	if (s->tcp_cc == SCN_TCP_DCTCP && !s->ecn_queues)
		return scn_set_error(err, scn_key_place(s, ld, SEC_TCP, scn_find_key(SEC_TCP, "cc"), -1),
				     "tcp.cc = dctcp: the switches must mark: set ecn.queues (and "
				     "ecn.kmin = K, ecn.kmax = K + 1KB, ecn.pmax = 100%%: DCTCP's "
				     "step at K, kmax just above kmin as the loader wants)");
	return 0;
}

/* a key given in the file ld reads (the earliest), or at finalize any
 * value, that contradicts the fabric type (infiniband, ethernet-tcp); on
 * infiniband, its [ib] checks and a pause-storm fault */
static int check_fabric(const struct scenario *s, const struct load *ld, struct scn_error *err)
{
	int best = INT_MAX, best_k = -1, fk = scn_find_key(SEC_FAULT, "kind");
	const char *why = NULL;

	if (s->fabric_type == SCN_FABRIC_ROCE)
		return 0;
	for (int ki = 0; ki < N_KEYS; ki++) {
		const struct key_def *k = &scn_key_defs[ki];
		const char *w = fabric_conflict(s, k);
		int line = ld ? ld->key_line[ki] : 0;

		if (!w || (ld && (line <= 0 || line >= best)))
			continue;
		/* at finalize only the on/off values themselves can contradict */
		if (!ld && !scn_fabric_default(k, (enum scn_fabric)s->fabric_type, &(int64_t){ 0 }) &&
		    k != scn_key_def_of(SEC_NIC, "pause_watchdog"))
			continue;
		best = ld ? line : 0;
		best_k = ki;
		why = w;
		if (!ld)
			break;
	}
	if (best_k >= 0)
		return scn_set_error(err, scn_key_place(s, ld, (int)scn_key_defs[best_k].sec, best_k, -1),
				     "%s.%s: not on fabric.type = %s (%s)",
				     scn_section_defs[scn_key_defs[best_k].sec].name,
				     scn_key_defs[best_k].name,
				     scn_key_def_of(SEC_FABRIC, "type")->names[s->fabric_type], why);
	if (s->fabric_type == SCN_FABRIC_TCP) /* after every --set: one may give the marking */
		return ld ? 0 : check_tcp(s, ld, err);
	int64_t frame = (s->mtu_bytes + 62 + 63) / 64 * 64; /* a data frame in 64-byte blocks */
	if (s->ib_vl_buffer_bytes < frame)
		return scn_set_error(err, scn_key_place(s, ld, SEC_IB, scn_find_key(SEC_IB, "vl_buffer"), -1),
				     "ib.vl_buffer: %" PRId64 "B holds no data frame (at least %" PRId64
				     "B: mtu + 62 B of headers, in 64-byte credit blocks)",
				     s->ib_vl_buffer_bytes, frame);
	if (s->ib_cc && s->ib_ccti_min > s->ib_ccti_limit)
		return scn_set_error(err,
				     scn_key_place(s, ld, SEC_IB, scn_find_key(SEC_IB, "ccti_min"), -1),
				     "ib.ccti_min: %" PRId64 " above ib.ccti_limit (%" PRId64
				     "): the CCTI stays within ccti_min-ccti_limit",
				     s->ib_ccti_min, s->ib_ccti_limit);
	int zeros = 0, va = scn_find_key(SEC_IB, "vl_arbitration");
	for (int v = 0; v < SCN_PRIOS; v++)
		zeros += s->ib_vl_arb[v] == 0;
	if (zeros && zeros < SCN_PRIOS)
		return scn_set_error(err, scn_key_place(s, ld, SEC_IB, va, -1),
				     "ib.vl_arbitration: a VL with weight 0 would never send: give "
				     "every VL a weight of 1-255, or all 0 (off)");
	if (!zeros && s->scheduler != SCN_SCHED_STRICT)
		return scn_set_error(err, scn_key_place(s, ld, SEC_IB, va, -1),
				     "ib.vl_arbitration: switch ports arbitrate VLs by these "
				     "weights, so qos.scheduler stays strict (one arbitration at a "
				     "time)");
	for (int j = 0; j < (int)s->nfaults; j++)
		if ((!ld || hdr_at(ld, SEC_FAULT, j)) && s->faults[j].kind == SCN_FAULT_PAUSE_STORM &&
		    (!ld || line_at(ld, SEC_FAULT, j, fk)))
			return scn_set_error(err, scn_key_place(s, ld, SEC_FAULT, fk, j),
					     "fault.%s.kind: pause-storm: not on fabric.type = "
					     "infiniband (no pause frames)",
					     s->faults[j].name);
	return 0;
}

/*
 * What the end of a file (ld) and finalize (ld NULL) both check, in this
 * order: ECN thresholds, the CNP DSCP, the host count, the jobs (of that
 * file), the flows of all jobs, the faults (of that file), the shared pool.
 * Finalize also resolves what the jobs and faults need.
 */
static int check_scenario(struct scenario *s, const struct load *ld, struct scn_error *err)
{
	int resolve = ld == NULL, j;

	if (check_fabric(s, ld, err) || check_ecn(s, ld, err) || check_cnp(s, ld, err) ||
	    check_cut_on(s, ld, err) || check_plot_qps(s, ld, err))
		return -1;
	if (load_topology_file(s, ld, err) || check_topology(s, ld, err))
		return -1;
	for (j = 0; j < (int)s->njobs; j++)
		if ((resolve || hdr_at(ld, SEC_JOB, j)) &&
		    scn_check_job(s, ld, j, resolve, err))
			return -1;
	if (scn_check_flows(s, ld, err))
		return -1;
	for (j = 0; j < (int)s->nfaults; j++)
		if ((resolve || hdr_at(ld, SEC_FAULT, j)) && check_fault(s, ld, j, resolve, err))
			return -1;
	return check_pool(s, ld, err);
}

/*
 * End of a file: the keys it gives must apply to the kind, pattern, fault
 * kind and scheduler chosen, and to PFC and the watchdog being on; its jobs
 * and faults need a pattern or kind; the earliest offending line is
 * reported.  Then the host count, the host indices of its jobs, its faults
 * and the shared pool.
 */
int scn_check_file(struct load *ld)
{
	static const int named[] = { SEC_JOB, SEC_FAULT };
	struct scenario *s = ld->s;
	int best = INT_MAX, best_k = -1, best_j = -1, j, ki;
	const char *cur = "?";
	char want[128], names[128];
	struct place pl;
	size_t n;

	if (check_fabric(s, ld, ld->err))
		return -1;
	for (n = 0; n < N_OF(named); n++) {
		int sec = named[n], sel_k = scn_find_key((enum sec_id)sec, scn_section_defs[sec].selector);

		for (j = 0; j < (int)item_count(s, sec); j++) {
			int hdr = hdr_at(ld, sec, j);

			if (!hdr || line_at(ld, sec, j, sel_k) || hdr >= best)
				continue;
			best = hdr;
			best_k = sel_k;
			best_j = j;
		}
	}
	for (ki = 0; ki < N_KEYS; ki++) {
		const struct key_def *k = &scn_key_defs[ki];
		int sec = (int)k->sec, sel_k;

		if (!k->dep)
			continue;
		if (!scn_section_defs[sec].named) {
			if (ld->key_line[ki] > 0 && ld->key_line[ki] < best &&
			    !scn_key_applies(k, s, NULL)) {
				best = ld->key_line[ki];
				best_k = ki;
				best_j = -1;
			}
			continue;
		}
		sel_k = scn_find_key(k->sec, scn_section_defs[sec].selector);
		for (j = 0; j < (int)item_count(s, sec); j++) {
			int line = line_at(ld, sec, j, ki);

			if (line > 0 && line < best && line_at(ld, sec, j, sel_k) &&
			    !scn_key_applies(k, item_cbase(s, sec, j), NULL)) {
				best = line;
				best_k = ki;
				best_j = j;
			}
		}
	}
	if (best_k >= 0) {
		const struct key_def *k = &scn_key_defs[best_k];
		const char *sname = scn_section_defs[k->sec].name;

		pl.src = ld->src;
		pl.line = best;
		if (best_j >= 0 && strcmp(k->name, scn_section_defs[k->sec].selector) == 0) {
			scn_join_names(k->names, ", ", names, sizeof(names));
			return scn_set_error(ld->err, pl, "%s.%s.%s: missing (%s)", sname,
					     item_name(s, (int)k->sec, best_j), k->name, names);
		}
		if (scn_dep_is_switch(k))
			return scn_set_error(ld->err, pl, "%s.%s: %s (%s)", sname, k->name,
					     scn_switch_off_what(k), scn_switch_off_why(k));
		scn_key_applies(k, best_j >= 0 ? item_cbase(s, (int)k->sec, best_j) : (const void *)s,
				&cur);
		scn_applies_text(k, want, sizeof(want));
		if (best_j >= 0)
			return scn_set_error(ld->err, pl, "%s.%s.%s: only for %s (%s is %s)", sname,
					     item_name(s, (int)k->sec, best_j), k->name, want,
					     k->dep, cur);
		return scn_set_error(ld->err, pl, "%s.%s: only for %s (%s is %s)", sname, k->name,
				     want, k->dep, cur);
	}

	return check_scenario(s, ld, ld->err);
}

int scenario_finalize(struct scenario *s, struct scn_error *err)
{
	if (err)
		err->msg[0] = '\0';
	/* ethernet-tcp: a packet carries one TCP segment (topology.mtu is not
	 * taken on this fabric) */
	if (s->fabric_type == SCN_FABRIC_TCP)
		s->mtu_bytes = (uint32_t)s->tcp_mss_bytes;
	/* defaults that follow the final mtu (SCN_AUTO until now) */
	if (s->reserved_bytes == SCN_AUTO)
		s->reserved_bytes = scn_data_frames(s, 1);
	if (s->xon_offset_bytes == SCN_AUTO)
		s->xon_offset_bytes = scn_data_frames(s, 2);
	return check_scenario(s, NULL, err);
}
