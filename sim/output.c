/*
 * output.c - run directory files (see output.h and README "Outputs").
 *
 * Every field written here is a number or a name made of letters, digits,
 * '-' and '_' (the loader enforces job names), so no field needs CSV
 * quoting and rows are written with fprintf.  libcsv reads the trace files.
 */
#include "output.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "fabric.h"
#include "scenario.h"
#include "units.h"

int output_mkdir_p(const char *dir)
{
	char path[4096];
	size_t n = strlen(dir);
	if (n == 0 || n >= sizeof(path))
		return -1;
	memcpy(path, dir, n + 1);
	for (char *c = path + 1; *c; c++) {
		if (*c != '/')
			continue;
		*c = '\0';
		if (mkdir(path, 0777) && errno != EEXIST)
			return -1;
		*c = '/';
	}
	return mkdir(path, 0777) && errno != EEXIST ? -1 : 0;
}

static FILE *open_in(const struct output *o, const char *name, const char *mode)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s", o->dir, name);
	return fopen(path, mode);
}

int output_open(struct output *o, const char *dir, const struct scenario *scn,
		char *err, size_t errlen)
{
	*o = (struct output){0};
	if (strlen(dir) >= sizeof(o->dir) || output_mkdir_p(dir)) {
		snprintf(err, errlen, "%s: cannot create the output directory: %s", dir,
			 strerror(errno));
		return -1;
	}
	strcpy(o->dir, dir);
	FILE *ini = open_in(o, "scenario.ini", "w");
	o->flows = open_in(o, "flows.csv", "w");
	o->pfc = open_in(o, "pfc.csv", "w");
	o->pause = open_in(o, "pause.csv", "w");
	o->pfcwd = open_in(o, "pfcwd.csv", "w");
	o->rates = open_in(o, "rates.csv", "w");
	o->colls = open_in(o, "collectives.csv", "w");
	o->queues = open_in(o, "queues.csv", "w");
	o->counters = open_in(o, "counters.csv", "w");
	if (!ini || !o->flows || !o->pfc || !o->pause || !o->pfcwd || !o->rates || !o->colls ||
	    !o->queues || !o->counters) {
		snprintf(err, errlen, "%s: cannot write in the output directory: %s", dir,
			 strerror(errno));
		if (ini)
			fclose(ini);
		output_close(o);
		return -1;
	}
	scenario_print(scn, ini);
	scenario_print_derived(scn, ini);
	int bad = ferror(ini);
	bad |= fclose(ini);
	fputs("flow,job,src,dst,bytes,start_us,end_us,fct_us,iteration,delivered_bytes\n", o->flows);
	fputs("job,iteration,ranks,bytes,start_us,end_us,time_us,algbw_GBps,busbw_GBps,"
	      "busbw_pct_line\n", o->colls);
	fputs("time_us,node,port,priority,event,quanta\n", o->pfc);
	fputs("time_us,node,port,priority,paused_fraction,frames\n", o->pause);
	fputs("time_us,node,port,priority,event,dropped\n", o->pfcwd);
	fputs("time_us,flow,rate_gbps,target_gbps,alpha\n", o->rates);
	fputs("time_us,node,port,queue,bytes\n", o->queues);
	fputs("time_us,data_pkts_delivered,ecn_marked_pkts,cnps_sent,pause_frames,drops\n",
	      o->counters);
	if (bad) {
		snprintf(err, errlen, "%s/scenario.ini: write failed", dir);
		output_close(o);
		return -1;
	}
	return 0;
}

void output_flow(struct output *o, const struct fabric *f, const struct flow *fl)
{
	char start[32], end[32] = "", fct[32] = "";
	units_format_us(fl->start_ps, start, sizeof(start));
	if (fl->end_ps >= 0) {
		units_format_us(fl->end_ps, end, sizeof(end));
		units_format_us(fl->end_ps - fl->start_ps, fct, sizeof(fct));
	}
	fprintf(o->flows, "%llu,%s,h%u,h%u,%lld,%s,%s,%s,%u,%lld\n", (unsigned long long)fl->id,
		f->scn->jobs[fl->job].name, fl->src, fl->dst, (long long)fl->bytes, start, end, fct,
		fl->iter, (long long)fl->rx_bytes);
}

/* "h3" or a switch name, and the name of the port's peer */
static void names(const struct fabric *f, const struct pause_rx *pr, char *node, char *port,
		  size_t len)
{
	const struct topo *t = &f->topo;
	struct topo_end e;
	if (pr->is_host) {
		snprintf(node, len, "h%u", pr->node);
		e = topo_host_uplink(t, pr->node);
	} else {
		topo_switch_name(t, pr->node, node, len);
		e = topo_peer(t, pr->node, pr->port);
	}
	if (e.tier == TOPO_HOST)
		snprintf(port, len, "h%u", e.node);
	else
		topo_switch_name(t, e.node, port, len);
}

void output_pfc(struct output *o, const struct fabric *f, sim_time_ps t,
		const struct pause_rx *pr, unsigned prio, const char *event, uint32_t quanta)
{
	char time[32], node[32], port[32];
	names(f, pr, node, port, sizeof(node));
	fprintf(o->pfc, "%s,%s,%s,%u,%s,%u\n", units_format_us(t, time, sizeof(time)), node, port,
		prio, event, quanta);
}

void output_pause(struct output *o, const struct fabric *f, sim_time_ps t,
		  const struct pause_rx *pr, unsigned prio, uint32_t paused_ppm, uint32_t frames)
{
	char time[32], node[32], port[32];
	names(f, pr, node, port, sizeof(node));
	fprintf(o->pause, "%s,%s,%s,%u,%u.%06u,%u\n", units_format_us(t, time, sizeof(time)), node,
		port, prio, paused_ppm / 1000000, paused_ppm % 1000000, frames);
}

void output_pfcwd(struct output *o, const struct fabric *f, sim_time_ps t,
		  const struct pause_rx *pr, unsigned prio, const char *event, uint64_t dropped)
{
	char time[32], node[32], port[32];
	names(f, pr, node, port, sizeof(node));
	fprintf(o->pfcwd, "%s,%s,%s,%u,%s,%llu\n", units_format_us(t, time, sizeof(time)), node,
		port, prio, event, (unsigned long long)dropped);
}

void output_rate(struct output *o, const struct fabric *f, const struct qp *q)
{
	char time[32];
	struct dcqcn_qp dc = q->dc; /* advance a copy: sampling changes nothing */
	double rc = dcqcn_rate(&f->niccfg.dcqcn_params, &dc, fabric_now(f));
	fprintf(o->rates, "%s,%u,%.6f,%.6f,%.6f\n", units_format_us(fabric_now(f), time, sizeof(time)),
		q->id, rc / 1e9, dc.rt_bps / 1e9, dc.alpha);
}

void output_queue(struct output *o, const struct fabric *f, const struct port *pt, unsigned q,
		  uint64_t bytes)
{
	char time[32], node[32], port[32];
	names(f, &pt->pause, node, port, sizeof(node));
	fprintf(o->queues, "%s,%s,%s,%u,%llu\n", units_format_us(fabric_now(f), time, sizeof(time)),
		node, port, q, (unsigned long long)bytes);
}

void output_nic_queue(struct output *o, const struct fabric *f, uint32_t host, unsigned prio,
		      uint64_t bytes)
{
	char time[32], tor[32];
	struct topo_end up = topo_host_uplink(&f->topo, host);
	topo_switch_name(&f->topo, up.node, tor, sizeof(tor));
	fprintf(o->queues, "%s,h%u,%s,%u,%llu\n", units_format_us(fabric_now(f), time, sizeof(time)),
		host, tor, prio, (unsigned long long)bytes);
}

void output_counters(struct output *o, const struct fabric *f, const struct fabric_totals *d)
{
	char time[32];
	fprintf(o->counters, "%s,%llu,%llu,%llu,%llu,%llu\n",
		units_format_us(fabric_now(f), time, sizeof(time)),
		(unsigned long long)d->delivered_pkts, (unsigned long long)d->ecn_marked,
		(unsigned long long)d->cnps, (unsigned long long)d->pause_frames,
		(unsigned long long)d->drops);
}

void output_coll_bw(const struct fabric *f, const struct coll *c, double *algbw,
		    double *busbw, double *pct_line)
{
	const struct scn_job *j = &f->scn->jobs[c->job];
	double t = (double)(c->end_ps - c->start_ps) * 1e-12, n = c->ranks;
	/* nccl-tests factors; for incast, permutation and trace, whose bytes
	 * are the iteration's total, busbw is the mean rate per sender */
	double factor = j->pattern == SCN_JOB_RING_ALLREDUCE ? 2 * (n - 1) / n
			: j->pattern == SCN_JOB_ALLTOALL     ? (n - 1) / n
							     : 1.0 / (c->senders ? c->senders : 1);
	*algbw = t > 0 ? (double)c->bytes / t / 1e9 : 0;
	*busbw = *algbw * factor;
	*pct_line = 100 * *busbw / ((double)f->scn->host_link_bps / 8 / 1e9);
}

void output_coll(struct output *o, const struct fabric *f, const struct coll *c)
{
	char start[32], end[32], time[32];
	double algbw, busbw, pct;
	output_coll_bw(f, c, &algbw, &busbw, &pct);
	fprintf(o->colls, "%s,%u,%u,%lld,%s,%s,%s,%.3f,%.3f,%.2f\n", f->scn->jobs[c->job].name,
		c->iter, c->ranks, (long long)c->bytes,
		units_format_us(c->start_ps, start, sizeof(start)),
		units_format_us(c->end_ps, end, sizeof(end)),
		units_format_us(c->end_ps - c->start_ps, time, sizeof(time)), algbw, busbw, pct);
}

int output_write_row(const struct output *o, const char *name, const char *header,
		     const char *row)
{
	FILE *fp = open_in(o, name, "w");
	if (!fp)
		return -1;
	fprintf(fp, "%s\n%s\n", header, row);
	int bad = ferror(fp);
	return (fclose(fp) || bad) ? -1 : 0;
}

static int close_one(FILE **fp)
{
	int rc = 0;
	if (*fp) {
		rc |= ferror(*fp);
		rc |= fclose(*fp);
		*fp = NULL;
	}
	return rc;
}

int output_close(struct output *o)
{
	int rc = close_one(&o->flows);
	rc |= close_one(&o->pfc);
	rc |= close_one(&o->pause);
	rc |= close_one(&o->pfcwd);
	rc |= close_one(&o->rates);
	rc |= close_one(&o->colls);
	rc |= close_one(&o->queues);
	rc |= close_one(&o->counters);
	return rc ? -1 : 0;
}
