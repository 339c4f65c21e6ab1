/*
 * output.c - run directory files (see output.h and README "Outputs").
 *
 * Every field written here is a number or a name made of letters, digits,
 * '-' and '_' (the loader enforces job names), so no field needs CSV
 * quoting and rows are written with fprintf.  libcsv reads the trace files.
 */
#include "output.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
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

/* ---- rows from the partitions, merged at window ends ---- */

struct out_row {
	struct out_tag tag;
	size_t off;
	uint32_t len;
};

struct out_buf {
	struct out_row *rows;
	uint32_t n, cap, head;
	char *text;
	size_t used, size;
};

struct out_part {
	struct out_buf buf[OUT_PARTITIONED];
};

static const char *const stream_file[OUT_STREAMS] = {
	[OUT_FLOWS] = "flows.csv", [OUT_PFC] = "pfc.csv", [OUT_PFCWD] = "pfcwd.csv",
	[OUT_PAUSE] = "pause.csv", [OUT_QUEUES] = "queues.csv", [OUT_RATES] = "rates.csv",
	[OUT_COLLS] = "collectives.csv", [OUT_COUNTERS] = "counters.csv",
};

static const char *const stream_header[OUT_STREAMS] = {
	[OUT_FLOWS] = "flow,job,src,dst,bytes,start_us,end_us,fct_us,iteration,delivered_bytes",
	[OUT_PFC] = "time_us,node,port,priority,event,quanta",
	[OUT_PFCWD] = "time_us,node,port,priority,event,dropped",
	[OUT_PAUSE] = "time_us,node,port,priority,paused_fraction,frames",
	[OUT_QUEUES] = "time_us,node,port,queue,bytes",
	[OUT_RATES] = "time_us,flow,rate_gbps,target_gbps,alpha",
	[OUT_COLLS] = "job,iteration,ranks,bytes,start_us,end_us,time_us,algbw_GBps,busbw_GBps,"
		      "busbw_pct_line",
	[OUT_COUNTERS] = "time_us,data_pkts_delivered,ecn_marked_pkts,cnps_sent,pause_frames,drops",
};

__attribute__((format(printf, 5, 6))) static void emit(struct output *o, int part,
						       enum out_stream s, struct out_tag tag,
						       const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (part < 0 || o->nparts <= 1 || s >= OUT_PARTITIONED) {
		vfprintf(o->file[s], fmt, ap);
		va_end(ap);
		return;
	}
	struct out_buf *b = &o->parts[part].buf[s];
	va_list again;
	va_copy(again, ap);
	int len = vsnprintf(b->text ? b->text + b->used : NULL, b->text ? b->size - b->used : 0,
			    fmt, ap);
	va_end(ap);
	if (len < 0 || b->used + (size_t)len + 1 > b->size) {
		size_t size = b->size ? 2 * b->size : 65536;
		while (size < b->used + (size_t)len + 1)
			size *= 2;
		char *t = realloc(b->text, size);
		if (!t) {
			o->oom = 1;
			va_end(again);
			return;
		}
		b->text = t;
		b->size = size;
		vsnprintf(b->text + b->used, b->size - b->used, fmt, again);
	}
	va_end(again);
	if (b->n == b->cap) {
		uint32_t cap = b->cap ? 2 * b->cap : 1024;
		struct out_row *r = realloc(b->rows, cap * sizeof(*r));
		if (!r) {
			o->oom = 1;
			return;
		}
		b->rows = r;
		b->cap = cap;
	}
	b->rows[b->n++] = (struct out_row){ .tag = tag, .off = b->used, .len = (uint32_t)len };
	b->used += (size_t)len;
}

static int tag_less(const struct out_tag *x, const struct out_tag *y)
{
	if (x->time != y->time)
		return x->time < y->time;
	if (x->a != y->a)
		return x->a < y->a;
	return x->b < y->b;
}

void output_merge(struct output *o)
{
	for (int s = 0; o->nparts > 1 && s < OUT_PARTITIONED; s++) {
		for (;;) { /* the smallest head among the partitions, each in its own order */
			struct out_buf *best = NULL;
			for (unsigned p = 0; p < o->nparts; p++) {
				struct out_buf *b = &o->parts[p].buf[s];
				if (b->head < b->n &&
				    (!best || tag_less(&b->rows[b->head].tag, &best->rows[best->head].tag)))
					best = b;
			}
			if (!best)
				break;
			struct out_row *r = &best->rows[best->head++];
			fwrite(best->text + r->off, 1, r->len, o->file[s]);
		}
		for (unsigned p = 0; p < o->nparts; p++) {
			struct out_buf *b = &o->parts[p].buf[s];
			b->n = b->head = 0;
			b->used = 0;
		}
	}
}

/* the tag of the event partition `part` is firing */
static struct out_tag event_tag(const struct fabric *f, unsigned part)
{
	struct fabric_tag t = fabric_tag(f, part);
	return (struct out_tag){ .time = t.time, .a = t.sched, .b = t.key };
}

int output_open(struct output *o, const char *dir, const struct scenario *scn, unsigned nparts,
		char *err, size_t errlen)
{
	*o = (struct output){ .nparts = nparts };
	if (strlen(dir) >= sizeof(o->dir) || output_mkdir_p(dir)) {
		snprintf(err, errlen, "%s: cannot create the output directory: %s", dir,
			 strerror(errno));
		return -1;
	}
	strcpy(o->dir, dir);
	if (nparts > 1 && !(o->parts = calloc(nparts, sizeof(*o->parts)))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	FILE *ini = open_in(o, "scenario.ini", "w");
	int bad = !ini;
	for (int s = 0; s < OUT_STREAMS && !bad; s++) {
		o->file[s] = open_in(o, stream_file[s], "w");
		bad = !o->file[s];
	}
	if (bad) {
		snprintf(err, errlen, "%s: cannot write in the output directory: %s", dir,
			 strerror(errno));
		if (ini)
			fclose(ini);
		output_close(o);
		return -1;
	}
	scenario_print(scn, ini);
	scenario_print_derived(scn, ini);
	bad = ferror(ini);
	bad |= fclose(ini);
	for (int s = 0; s < OUT_STREAMS; s++)
		fprintf(o->file[s], "%s\n", stream_header[s]);
	if (bad) {
		snprintf(err, errlen, "%s/scenario.ini: write failed", dir);
		output_close(o);
		return -1;
	}
	return 0;
}

void output_flow(struct output *o, const struct fabric *f, int part, const struct flow *fl)
{
	char start[32], end[32] = "", fct[32] = "";
	units_format_us(fl->start_ps, start, sizeof(start));
	if (fl->end_ps >= 0) {
		units_format_us(fl->end_ps, end, sizeof(end));
		units_format_us(fl->end_ps - fl->start_ps, fct, sizeof(fct));
	}
	emit(o, part, OUT_FLOWS, part < 0 ? (struct out_tag){0} : event_tag(f, (unsigned)part),
	     "%llu,%s,h%u,h%u,%lld,%s,%s,%s,%u,%lld\n", (unsigned long long)fl->id,
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

void output_pfc(struct output *o, const struct fabric *f, unsigned part,
		const struct pause_rx *pr, unsigned prio, const char *event, uint32_t quanta)
{
	char time[32], node[32], port[32];
	struct out_tag tag = event_tag(f, part);
	names(f, pr, node, port, sizeof(node));
	emit(o, (int)part, OUT_PFC, tag, "%s,%s,%s,%u,%s,%u\n",
	     units_format_us(tag.time, time, sizeof(time)), node, port, prio, event, quanta);
}

/* a sample's row goes in the order of its node (the transmitter's expiry
 * event key, a port's index, a QP's id) */
static struct out_tag sample_tag(sim_time_ps t, int64_t kind, uint64_t node, unsigned sub)
{
	return (struct out_tag){ .time = t, .a = kind, .b = node * 256 + sub };
}

void output_pause(struct output *o, const struct fabric *f, unsigned part, sim_time_ps t,
		  const struct pause_rx *pr, unsigned prio, uint32_t paused_ppm, uint32_t frames)
{
	char time[32], node[32], port[32];
	names(f, pr, node, port, sizeof(node));
	emit(o, (int)part, OUT_PAUSE, (struct out_tag){ .time = t, .a = 0, .b = pr->expire_ev.key + prio },
	     "%s,%s,%s,%u,%u.%06u,%u\n", units_format_us(t, time, sizeof(time)), node, port, prio,
	     paused_ppm / 1000000, paused_ppm % 1000000, frames);
}

void output_pfcwd(struct output *o, const struct fabric *f, unsigned part,
		  const struct pause_rx *pr, unsigned prio, const char *event, uint64_t dropped)
{
	char time[32], node[32], port[32];
	struct out_tag tag = event_tag(f, part);
	names(f, pr, node, port, sizeof(node));
	emit(o, (int)part, OUT_PFCWD, tag, "%s,%s,%s,%u,%s,%llu\n",
	     units_format_us(tag.time, time, sizeof(time)), node, port, prio, event,
	     (unsigned long long)dropped);
}

void output_rate(struct output *o, const struct fabric *f, unsigned part, const struct qp *q)
{
	char time[32];
	sim_time_ps now = f->parts[part].net.eng.now;
	struct dcqcn_qp dc = q->dc; /* advance a copy: sampling changes nothing */
	double rc = dcqcn_rate(&f->niccfg.dcqcn_params, &dc, now);
	emit(o, (int)part, OUT_RATES, sample_tag(now, 0, q->id, 0), "%s,%u,%.6f,%.6f,%.6f\n",
	     units_format_us(now, time, sizeof(time)), q->id, rc / 1e9, dc.rt_bps / 1e9, dc.alpha);
}

void output_queue(struct output *o, const struct fabric *f, unsigned part, const struct port *pt,
		  unsigned q, uint64_t bytes)
{
	char time[32], node[32], port[32];
	sim_time_ps now = f->parts[part].net.eng.now;
	names(f, &pt->pause, node, port, sizeof(node));
	emit(o, (int)part, OUT_QUEUES, sample_tag(now, 0, pt->gid, q), "%s,%s,%s,%u,%llu\n",
	     units_format_us(now, time, sizeof(time)), node, port, q, (unsigned long long)bytes);
}

void output_nic_queue(struct output *o, const struct fabric *f, unsigned part, uint32_t host,
		      unsigned prio, uint64_t bytes)
{
	char time[32], tor[32];
	sim_time_ps now = f->parts[part].net.eng.now;
	struct topo_end up = topo_host_uplink(&f->topo, host);
	topo_switch_name(&f->topo, up.node, tor, sizeof(tor));
	emit(o, (int)part, OUT_QUEUES, sample_tag(now, 1, host, prio), "%s,h%u,%s,%u,%llu\n",
	     units_format_us(now, time, sizeof(time)), host, tor, prio, (unsigned long long)bytes);
}

void output_counters(struct output *o, sim_time_ps t, const struct fabric_totals *d)
{
	char time[32];
	emit(o, -1, OUT_COUNTERS, (struct out_tag){0}, "%s,%llu,%llu,%llu,%llu,%llu\n",
	     units_format_us(t, time, sizeof(time)), (unsigned long long)d->delivered_pkts,
	     (unsigned long long)d->ecn_marked, (unsigned long long)d->cnps,
	     (unsigned long long)d->pause_frames, (unsigned long long)d->drops);
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
	emit(o, -1, OUT_COLLS, (struct out_tag){0}, "%s,%u,%u,%lld,%s,%s,%s,%.3f,%.3f,%.2f\n",
	     f->scn->jobs[c->job].name, c->iter, c->ranks, (long long)c->bytes,
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
	int rc = o->oom;
	output_merge(o);
	for (int s = 0; s < OUT_STREAMS; s++)
		rc |= close_one(&o->file[s]);
	for (unsigned p = 0; o->parts && p < o->nparts; p++)
		for (int s = 0; s < OUT_PARTITIONED; s++) {
			free(o->parts[p].buf[s].rows);
			free(o->parts[p].buf[s].text);
		}
	free(o->parts);
	o->parts = NULL;
	return rc ? -1 : 0;
}
