/*
 * output.c - run directory files (see output.h and docs/outputs.md).
 *
 * Every field written here is a number or a name made of letters, digits,
 * '-' and '_' (the loader enforces job names), so no field needs CSV
 * quoting and rows are written with fprintf.  libcsv reads the trace files.
 *
 * counters.csv has a fixed part (time_us, data_pkts_delivered,
 * ecn_marked_pkts, cnps_sent, pause_frames, drops) and three columns per
 * job, in the scenario's order: JOB_delivered_bytes (payload the job's
 * receivers accepted), JOB_retransmitted_bytes (payload its senders sent
 * again), JOB_drops (its packets dropped, as counted in drops).  Over the
 * jobs they add up to data_bytes_delivered, retransmitted_bytes and drops;
 * over the rows, every column adds up to summary.csv's total (the last row
 * closes the run, models/fabric/series.c).
 *
 * qps.csv (qp,job,src,dst): the QPs that have rows in rates.csv (or, with
 * ib.cc, ib_cc.csv), in id order, so that a figure can name a QP by its job
 * and hosts (rates.csv's `flow` is a QP id, not a flows.csv message id).
 */
#include "sim/run/output.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "models/base/figures.h"
#include "models/base/files.h"
#include "models/base/slab.h"
#include "models/base/units.h"
#include "models/fabric/fabric.h"
#include "models/scenario/scenario.h"
#include "sim/run/carry.h"
#include "sim/run/outbuf.h"

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

/* the first write error: "DIR/NAME: reason" (errno as the call left it) */
static void io_error(struct output *o, const char *name)
{
	if (!o->err[0])
		snprintf(o->err, sizeof(o->err), "%s/%s: %s", o->dir, name,
			 errno ? strerror(errno) : "write error");
}

static FILE *open_in(const struct output *o, const char *name, const char *mode)
{
	char path[4300];
	snprintf(path, sizeof(path), "%s/%s", o->dir, name);
	return fopen(path, mode);
}

/* ---- rows from the partitions, merged at window ends ---- */


static const char *const stream_file[OUT_STREAMS] = {
	[OUT_FLOWS] = "flows.csv", [OUT_PFC] = "pfc.csv", [OUT_PFCWD] = "pfcwd.csv",
	[OUT_PAUSE] = "pause.csv", [OUT_QUEUES] = "queues.csv", [OUT_RATES] = "rates.csv",
	[OUT_COLLS] = "collectives.csv", [OUT_COUNTERS] = "counters.csv",
	[OUT_TRAINING] = "training.csv", [OUT_TIMELINE] = "training_timeline.csv",
	[OUT_IBCC] = "ib_cc.csv",
};


static const char *const stream_header[OUT_STREAMS] = {
	[OUT_FLOWS] = "flow,job,src,dst,bytes,start_us,end_us,fct_us,iteration,delivered_bytes,path",
	[OUT_PFC] = "time_us,node,port,priority,event,quanta",
	[OUT_PFCWD] = "time_us,node,port,priority,event,dropped",
	[OUT_PAUSE] = "time_us,node,port,priority,paused_fraction,frames",
	[OUT_QUEUES] = "time_us,node,port,queue,bytes",
	[OUT_RATES] = "time_us,flow,rate_gbps,target_gbps,alpha",
	[OUT_IBCC] = "time_us,qp,ccti,ipd_ps",
	[OUT_COLLS] = ("job,iteration,ranks,bytes,start_us,end_us,time_us,algbw_GBps,busbw_GBps,"
		       "busbw_pct_line,status"),
	[OUT_COUNTERS] = "time_us,data_pkts_delivered,ecn_marked_pkts,cnps_sent,pause_frames,drops",
	[OUT_TRAINING] = ("job,iteration,start_us,end_us,step_us,compute_us,bubble_us,exposed_tp_us,"
			  "exposed_pp_us,exposed_dp_us,exposed_ep_us,other_us,efficiency,"
			  "bubble_fraction,critical_rank,critical_host,tp_msgs,tp_bytes,pp_msgs,"
			  "pp_bytes,dp_msgs,dp_bytes,ep_msgs,ep_bytes,network_cost,ideal_step_us,"
			  "congestion_cost,status"),
	[OUT_TIMELINE] = "job,iteration,stage,rank,block,micro_batch,layer,start_us,end_us",
};


/* a row built field by field: the rows written many times per run (flows,
 * PFC events, samples) do not go through printf.  A row is declared with
 * only n set (`struct row r; r.n = 0;`): an initializer would clear all of
 * s for every row. */
#define ROW_MAX 2048

struct row {
	char s[ROW_MAX];
	size_t n;
};

static void put_str(struct row *r, const char *str)
{
	size_t k = strlen(str), room = ROW_MAX - 64 - r->n; /* numbers fit in the 64 */
	if (k > room)
		k = room;
	memcpy(r->s + r->n, str, k);
	r->n += k;
}

static void put_ch(struct row *r, char c)
{
	r->s[r->n++] = c;
}

static void put_u64(struct row *r, uint64_t v)
{
	char tmp[24], *p = tmp + sizeof(tmp);
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	memcpy(r->s + r->n, p, (size_t)(tmp + sizeof(tmp) - p));
	r->n += (size_t)(tmp + sizeof(tmp) - p);
}

static void put_i64(struct row *r, int64_t v)
{
	if (v < 0)
		put_ch(r, '-');
	put_u64(r, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v);
}

/* the n bytes of text kept in a buffer of cap: all cap of them where the
 * row has room, a copy of constant size that the compiler inlines */
static inline void put_kept(struct row *r, const char *s, size_t cap, size_t n)
{
	if (r->n + cap <= ROW_MAX)
		memcpy(r->s + r->n, s, cap);
	else
		memcpy(r->s + r->n, s, n);
	r->n += n;
}

/* the text of a time in us; a thread keeps the last it wrote, since the
 * samples of one instant write many rows (incast-128: 64 rates.csv rows an
 * instant) */
static void put_us(struct row *r, sim_time_ps t)
{
	static _Thread_local struct {
		sim_time_ps t;
		uint8_t n;                     /* 0: none yet */
		char s[31];
	} last;
	if (!last.n || last.t != t) {
		last.n = (uint8_t)units_put_us(t, last.s);
		last.t = t;
	}
	put_kept(r, last.s, sizeof(last.s), last.n);
}

/* "%.6f"; the printf fallback of units_put_fixed (beyond 2^62) may need 330 */
static void put_fixed6(struct row *r, double v)
{
	if (r->n + 340 <= ROW_MAX)
		r->n += units_put_fixed(v, 6, r->s + r->n);
}

/* put_fixed6, or the text kept for the same value (bit for bit) */
static void put_fixed6_kept(struct row *r, double v, struct out_kept *k)
{
	if (k && k->n && !memcmp(&k->v, &v, sizeof(v))) {
		put_kept(r, k->s, sizeof(k->s), k->n);
		return;
	}
	size_t at = r->n;
	put_fixed6(r, v);
	if (!k)
		return;
	size_t n = r->n - at;
	k->n = n <= sizeof(k->s) ? (uint8_t)n : 0;
	k->v = v;
	memcpy(k->s, r->s + at, k->n);
}

/* the rows staged for stream s go to stdio: before anything else writes to
 * its file, and when the stage is full */
static void write_file(struct output *o, int s, const char *text, size_t n)
{
	errno = 0;
	if (n && fwrite(text, 1, n, o->file[s]) < n)
		io_error(o, stream_file[s]); /* now, while errno says why */
}

static void stage_flush(struct output *o, int s)
{
	write_file(o, s, o->stage[s], o->staged[s]);
	o->staged[s] = 0;
}

/* text into stream s: rows are short, and one fwrite per row cost more
 * than the row (a 127-to-1 incast writes 300,000) */
static void stage_put(struct output *o, int s, const char *text, size_t n)
{
	if (!o->stage[s] || n > OUT_STAGE) {
		stage_flush(o, s);
		write_file(o, s, text, n);
		return;
	}
	if (o->staged[s] + n > OUT_STAGE)
		stage_flush(o, s);
	memcpy(o->stage[s] + o->staged[s], text, n);
	o->staged[s] += n;
}

/* a row into its file, or, from a partition of a run on several threads,
 * into the partition's buffer until output_merge */
static void emit_row(struct output *o, int part, enum out_stream s, struct out_tag tag,
		     const struct row *r)
{
	if (o->remote && (part < 0 || s >= OUT_PARTITIONED))
		return; /* rank 0 writes it */
	if (part < 0 || o->nparts <= 1 || s >= OUT_PARTITIONED) {
		if (r->n <= 64 && o->stage[s] && o->staged[s] + 64 <= OUT_STAGE) {
			/* most rows: a copy of constant size (inlined), the rest of
			 * it past the row's end */
			memcpy(o->stage[s] + o->staged[s], r->s, 64);
			o->staged[s] += r->n;
			return;
		}
		stage_put(o, s, r->s, r->n);
		return;
	}
	struct out_buf *b = &o->parts[part].buf[s];
	if (b->used + r->n > b->size) {
		size_t size = b->size ? 2 * b->size : 65536;
		while (size < b->used + r->n)
			size *= 2;
		char *t = realloc(b->text, size);
		if (!t) {
			o->oom = 1;
			return;
		}
		b->text = t;
		b->size = size;
	}
	if (b->n == b->cap) {
		uint32_t cap = b->cap ? 2 * b->cap : 1024;
		struct out_row *rows = realloc(b->rows, cap * sizeof(*rows));
		if (!rows) {
			o->oom = 1;
			return;
		}
		b->rows = rows;
		b->cap = cap;
	}
	memcpy(b->text + b->used, r->s, r->n);
	b->rows[b->n++] = (struct out_row){ .tag = tag, .off = b->used, .len = (uint32_t)r->n };
	b->used += r->n;
	o->parts[part].pending = 1; /* its own thread's flag */
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
	if (o->remote)
		return; /* its rows go to rank 0 (output_pack) */
	int pending = 0;
	for (unsigned p = 0; p < o->nparts && o->parts; p++) {
		pending |= o->parts[p].pending;
		o->parts[p].pending = 0;
	}
	if (!pending)
		return;
	for (int s = 0; o->nparts > 1 && s < OUT_PARTITIONED; s++) {
		unsigned n = 0; /* the partitions with rows: a run may have thousands */
		for (unsigned p = 0; p < o->nparts; p++)
			if (o->parts[p].buf[s].n)
				o->merging[n++] = &o->parts[p].buf[s];
		while (n) { /* the smallest head among them, each in its own order */
			unsigned best = 0;
			for (unsigned k = 1; k < n; k++) {
				const struct out_buf *b = o->merging[k], *c = o->merging[best];
				if (tag_less(&b->rows[b->head].tag, &c->rows[c->head].tag))
					best = k;
			}
			struct out_buf *b = o->merging[best];
			struct out_row *r = &b->rows[b->head++];
			stage_put(o, s, b->text + r->off, r->len);
			if (b->head == b->n) {
				b->n = b->head = 0;
				b->used = 0;
				n--; /* in partition order: equal tags go as before */
				memmove(o->merging + best, o->merging + best + 1,
					(n - best) * sizeof(*o->merging));
			}
		}
	}
}

/* the tag of the event partition `part` is firing */
static struct out_tag event_tag(const struct fabric *f, unsigned part)
{
	struct sim_order t = fabric_tag(f, part);
	return (struct out_tag){ .time = t.time, .a = t.sched, .b = t.key };
}

/*
 * A run into an existing directory removes the figures of an earlier run
 * (figures.h: every name in every format): a figure of the previous run
 * must not pass for one of this run.  Only what plot writes goes:
 * NAME.png|svg|pdf and the shaped data in plots/data (files ending .dat,
 * .vars, .log); the folders go when that left them empty.
 */
static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n > k && !strcmp(s + n - k, suffix);
}

static void clear_figures(const char *dir)
{
	char path[4200];
	for (int i = 0; i < FIG_COUNT; i++)
		for (int k = 0; figure_formats[k]; k++) {
			snprintf(path, sizeof(path), "%s/plots/%s.%s", dir, figure_names[i],
				 figure_formats[k]);
			unlink(path);
		}
	snprintf(path, sizeof(path), "%s/plots/data", dir);
	DIR *d = opendir(path);
	if (d) {
		struct dirent *e;
		while ((e = readdir(d))) {
			if (!has_suffix(e->d_name, ".dat") && !has_suffix(e->d_name, ".vars") &&
			    !has_suffix(e->d_name, ".log"))
				continue;
			char file[4500];
			snprintf(file, sizeof(file), "%s/%s", path, e->d_name);
			unlink(file);
		}
		closedir(d);
		rmdir(path);
	}
	snprintf(path, sizeof(path), "%s/plots", dir);
	rmdir(path); /* fails, harmlessly, when something else is there */
}

/* counters.csv's header: the fixed columns, then three per job */
static void counters_header(FILE *fp, const struct scenario *scn)
{
	fputs(stream_header[OUT_COUNTERS], fp);
	for (uint32_t j = 0; j < scn->njobs; j++) {
		const char *n = scn->jobs[j].name;
		fprintf(fp, ",%s_delivered_bytes,%s_retransmitted_bytes,%s_drops", n, n, n);
	}
	fputc('\n', fp);
}

/* what imported configurations noted (an ambiguous unit and the reading
 * taken, an approximation; scenario_config_notes, configs/config.h), one
 * "# config: " line each, so that the run's scenario.ini says how its
 * configurations were read; nothing when none was imported */
static void print_config_notes(const struct scenario *scn, FILE *fp)
{
	const char *p = scn->imported ? scn->imported->notes : NULL;

	if (p && *p)
		fputc('\n', fp);
	while (p && *p) {
		size_t n = strcspn(p, "\n");

		fprintf(fp, "# config: %.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
}

/* scenario.ini (with the traces carried, above) and warnings.txt (one line
 * per scenario_warnings(), empty when none); 0 or -1 with err set */
static int write_scenario(struct output *o, const struct scenario *scn, char *err,
			  size_t errlen)
{
	const struct scenario *shown;
	if (output_carry_traces(scn, o->dir, &shown, err, errlen))
		return -1;
	static const char *const names[] = { "scenario.ini", "warnings.txt" };
	int bad = 0;
	for (int i = 0; i < 2 && !bad; i++) {
		errno = 0;
		FILE *fp = open_in(o, names[i], "w");
		if (!fp) {
			io_error(o, names[i]);
			bad = 1;
			break;
		}
		if (i == 0) {
			scenario_print(shown, fp);
			print_config_notes(scn, fp);
			scenario_print_origins(scn, fp);
			scenario_print_derived(shown, fp);
		} else {
			scenario_write_warnings(scn, fp, "");
		}
		bad = file_close(fp) != 0;
		if (bad)
			io_error(o, names[i]);
	}
	if (shown != scn)
		free((void *)shown);
	if (bad)
		snprintf(err, errlen, "%s", o->err);
	return bad ? -1 : 0;
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
	clear_figures(dir);
	/* summary.csv is written last: while the run goes there is none, so its
	 * presence says the run ended (and how) */
	char old[4200];
	snprintf(old, sizeof(old), "%s/summary.csv", dir);
	unlink(old);
	o->nqps = scn->output_rates;
	o->njobs = scn->njobs;
	if ((nparts > 1 && (!(o->parts = calloc_lines(nparts, sizeof(*o->parts))) ||
			    !(o->merging = calloc(nparts, sizeof(*o->merging))))) ||
	    (o->nqps && !(o->qps = calloc(o->nqps, sizeof(*o->qps)))) ||
	    !(o->job_names = calloc(o->njobs ? o->njobs : 1, sizeof(*o->job_names)))) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	int bad = 0;
	snprintf(old, sizeof(old), "%s/%s", dir, stream_file[OUT_IBCC]); /* only with ib.cc */
	unlink(old);
	snprintf(old, sizeof(old), "%s/ranks.csv", dir); /* only from a split run */
	unlink(old);
	for (int s = 0; s < OUT_STREAMS && !bad; s++) {
		if ((s == OUT_TRAINING || s == OUT_TIMELINE) && !output_has_training(scn))
			continue;
		if (s == OUT_IBCC && !(scn->fabric_type == SCN_FABRIC_IB && scn->ib_cc))
			continue;
		o->file[s] = open_in(o, stream_file[s], "w");
		bad = !o->file[s];
		/* a sampled series writes megabytes: fewer, larger writes (without
		 * the buffer, stdio's default serves as well, only slower) */
		if (!bad && (o->fbuf[s] = malloc(OUT_FILE_BUF)))
			setvbuf(o->file[s], o->fbuf[s], _IOFBF, OUT_FILE_BUF);
		if (!bad)
			o->stage[s] = malloc(OUT_STAGE); /* without it, rows go to stdio one by one */
	}
	if (bad) {
		snprintf(err, errlen, "%s: cannot write in the output directory: %s", dir,
			 strerror(errno));
		output_close(o);
		return -1;
	}
	for (int s = 0; s < OUT_STREAMS; s++)
		if (s == OUT_COUNTERS)
			counters_header(o->file[s], scn);
		else if (o->file[s])
			fprintf(o->file[s], "%s\n", stream_header[s]);
	if (write_scenario(o, scn, err, errlen)) {
		output_close(o);
		return -1;
	}
	/* the caller may release scn before output_close: the names qps.csv
	 * needs are copied */
	for (uint32_t j = 0; j < o->njobs; j++)
		snprintf(o->job_names[j], sizeof(o->job_names[j]), "%s", scn->jobs[j].name);
	o->opened = 1;
	return 0;
}

static void output_flow_tagged(struct output *o, const struct fabric *f, int part,
			       const struct flow *fl, struct out_tag tag)
{
	struct row r;
	r.n = 0;
	put_u64(&r, fl->id);
	put_ch(&r, ',');
	put_str(&r, f->scn->jobs[fl->job].name);
	put_str(&r, ",h");
	put_u64(&r, fl->src);
	put_str(&r, ",h");
	put_u64(&r, fl->dst);
	put_ch(&r, ',');
	put_i64(&r, fl->bytes);
	put_ch(&r, ',');
	put_us(&r, fl->start_ps);
	put_ch(&r, ',');
	if (fl->end_ps >= 0) {
		put_us(&r, fl->end_ps);
		put_ch(&r, ',');
		put_us(&r, fl->end_ps - fl->start_ps);
	} else {
		put_ch(&r, ',');
	}
	put_ch(&r, ',');
	put_u64(&r, fl->iter);
	put_ch(&r, ',');
	put_i64(&r, fl->rx_bytes);
	put_str(&r, f->qps[fl->qp].local ? ",nvlink\n" : ",network\n");
	emit_row(o, part, OUT_FLOWS, tag, &r);
}

void output_flow_unfinished(struct output *o, const struct fabric *f, unsigned part,
			    const struct flow *fl)
{
	output_flow_tagged(o, f, (int)part, fl,
			   (struct out_tag){ .time = INT64_MAX, .a = (int64_t)fl->id });
}

void output_flow(struct output *o, const struct fabric *f, int part, const struct flow *fl)
{
	output_flow_tagged(o, f, part, fl,
			   part < 0 ? (struct out_tag){0} : event_tag(f, (unsigned)part));
}

/* a switch's name (topo_switch_name) */
static void put_switch(struct row *r, const struct topo *t, uint32_t sw)
{
	uint32_t num;
	put_str(r, topo_switch_prefix(t, sw, &num));
	if (num != UINT32_MAX)
		put_u64(r, num);
}

/* "h3" or a switch name, a comma and the name of the port's peer */
static void put_names(struct row *r, const struct fabric *f, const struct pause_rx *pr)
{
	const struct topo *t = &f->topo;
	struct topo_end e;
	if (pr->is_host) {
		put_ch(r, 'h');
		put_u64(r, pr->node);
		e = topo_host_uplink(t, pr->node);
	} else {
		put_switch(r, t, pr->node);
		e = topo_peer(t, pr->node, pr->port);
	}
	put_ch(r, ',');
	if (e.tier == TOPO_HOST) {
		put_ch(r, 'h');
		put_u64(r, e.node);
	} else {
		put_switch(r, t, e.node);
	}
}

/* time, node, port (peer), priority: the start of a pfc, pfcwd, pause row */
static void put_port_row(struct row *r, sim_time_ps t, const struct fabric *f,
			 const struct pause_rx *pr, unsigned prio)
{
	put_us(r, t);
	put_ch(r, ',');
	put_names(r, f, pr);
	put_ch(r, ',');
	put_u64(r, prio);
	put_ch(r, ',');
}

/* a pfc.csv or pfcwd.csv row: a port's event and its number (quanta,
 * packets dropped) */
static void port_event(struct output *o, const struct fabric *f, unsigned part,
		       enum out_stream s, const struct pause_rx *pr, unsigned prio,
		       const char *event, uint64_t value)
{
	struct out_tag tag = event_tag(f, part);
	struct row r;
	r.n = 0;
	put_port_row(&r, tag.time, f, pr, prio);
	put_str(&r, event);
	put_ch(&r, ',');
	put_u64(&r, value);
	put_ch(&r, '\n');
	emit_row(o, (int)part, s, tag, &r);
}

void output_pfc(struct output *o, const struct fabric *f, unsigned part,
		const struct pause_rx *pr, unsigned prio, const char *event, uint32_t quanta)
{
	port_event(o, f, part, OUT_PFC, pr, prio, event, quanta);
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
	struct row r;
	r.n = 0;
	put_port_row(&r, t, f, pr, prio);
	r.n += units_put_fixed(paused_ppm / 1e6, 6, r.s + r.n);
	put_ch(&r, ',');
	put_u64(&r, frames);
	put_ch(&r, '\n');
	emit_row(o, (int)part, OUT_PAUSE,
		 (struct out_tag){ .time = t, .a = 0, .b = pr->expire_ev.key + prio }, &r);
}

void output_pfcwd(struct output *o, const struct fabric *f, unsigned part,
		  const struct pause_rx *pr, unsigned prio, const char *event, uint64_t dropped)
{
	port_event(o, f, part, OUT_PFCWD, pr, prio, event, dropped);
}

/* a traced QP's row begins "time_us,qp,"; it is named in qps.csv (only
 * this QP's partition writes its entry: no race) */
static struct out_qp *qp_row(struct output *o, struct row *r, sim_time_ps now, const struct qp *q)
{
	r->n = 0;
	put_us(r, now);
	put_ch(r, ',');
	put_u64(r, q->id);
	put_ch(r, ',');
	struct out_qp *kept = q->id < o->nqps ? &o->qps[q->id] : NULL;
	if (kept && !kept->seen)
		*kept = (struct out_qp){ .job = q->job, .src = q->src, .dst = q->dst, .seen = 1 };
	return kept;
}

void output_rate(struct output *o, const struct fabric *f, unsigned part, const struct qp *q)
{
	sim_time_ps now = f->parts[part].net.eng.now;
	/* advance a copy: sampling changes nothing */
	struct dcqcn_qp dc = nic_qp_cc_of(&f->parts[part].net, q).dc;
	double rc = dcqcn_rate(&f->niccfg.dcqcn_params, &dc, now);
	struct row r;
	struct out_qp *kept = qp_row(o, &r, now, q);
	put_fixed6_kept(&r, rc / 1e9, kept ? &kept->rate : NULL);
	put_ch(&r, ',');
	put_fixed6_kept(&r, dc.rt_bps / 1e9, kept ? &kept->target : NULL);
	put_ch(&r, ',');
	put_fixed6(&r, dc.alpha);
	put_ch(&r, '\n');
	emit_row(o, (int)part, OUT_RATES, sample_tag(now, 0, q->id, 0), &r);
}

void output_ibcc(struct output *o, const struct fabric *f, unsigned part, const struct qp *q)
{
	sim_time_ps now = f->parts[part].net.eng.now;
	/* advance a copy: sampling changes nothing */
	struct ibcc_qp c = nic_qp_cc_of(&f->parts[part].net, q).ibcc;
	sim_time_ps ipd = ibcc_delay_ps(&f->niccfg.ibcc_params, &c, now);
	struct row r;
	qp_row(o, &r, now, q);
	put_u64(&r, c.ccti);
	put_ch(&r, ',');
	put_i64(&r, ipd);
	put_ch(&r, '\n');
	emit_row(o, (int)part, OUT_IBCC, sample_tag(now, 0, q->id, 0), &r);
}

void output_queue(struct output *o, const struct fabric *f, unsigned part, const struct port *pt,
		  unsigned q, uint64_t bytes)
{
	sim_time_ps now = f->parts[part].net.eng.now;
	struct row r;
	r.n = 0;
	put_us(&r, now);
	put_ch(&r, ',');
	put_names(&r, f, &pt->pause);
	put_ch(&r, ',');
	put_u64(&r, q);
	put_ch(&r, ',');
	put_u64(&r, bytes);
	put_ch(&r, '\n');
	emit_row(o, (int)part, OUT_QUEUES, sample_tag(now, 0, pt->gid, q), &r);
}

void output_nic_queue(struct output *o, const struct fabric *f, unsigned part, uint32_t host,
		      unsigned prio, uint64_t bytes)
{
	sim_time_ps now = f->parts[part].net.eng.now;
	struct topo_end up = topo_host_uplink(&f->topo, host);
	struct row r;
	r.n = 0;
	put_us(&r, now);
	put_str(&r, ",h");
	put_u64(&r, host);
	put_ch(&r, ',');
	put_switch(&r, &f->topo, up.node);
	put_ch(&r, ',');
	put_u64(&r, prio);
	put_ch(&r, ',');
	put_u64(&r, bytes);
	put_ch(&r, '\n');
	emit_row(o, (int)part, OUT_QUEUES, sample_tag(now, 1, host, prio), &r);
}

void output_counters(struct output *o, sim_time_ps t, const struct fabric_totals *d)
{
	struct row r;
	r.n = 0;
	const uint64_t v[] = { d->delivered_pkts, d->ecn_marked, d->cnps, d->pause_frames,
			       d->drops };
	put_us(&r, t);
	for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++) {
		put_ch(&r, ',');
		put_u64(&r, v[k]);
	}
	for (uint32_t j = 0; j < d->njobs; j++) {
		const struct net_job_stats *js = &d->jobs[j];
		/* many jobs make a long row: written in pieces (three numbers
		 * take at most 63 characters) */
		if (r.n > ROW_MAX - 128) {
			emit_row(o, -1, OUT_COUNTERS, (struct out_tag){0}, &r);
			r.n = 0;
		}
		put_ch(&r, ',');
		put_u64(&r, js->delivered_bytes);
		put_ch(&r, ',');
		put_u64(&r, js->retransmitted_bytes);
		put_ch(&r, ',');
		put_u64(&r, js->drops);
	}
	put_ch(&r, '\n');
	emit_row(o, -1, OUT_COUNTERS, (struct out_tag){0}, &r);
}

int output_split_csv(char *line, char **f, int max)
{
	int n = 0;
	for (char *c = line; n < max;) {
		f[n++] = c;
		c = strchr(c, ',');
		if (!c)
			break;
		*c++ = '\0';
	}
	return n;
}

void output_coll_bw(const struct scenario *scn, const struct coll *c, double *algbw,
		    double *busbw, double *pct_line)
{
	const struct scn_job *j = &scn->jobs[c->job];
	double t = (double)(c->end_ps - c->start_ps) * 1e-12, n = c->ranks;
	/* nccl-tests factors; for incast, permutation and trace, whose bytes
	 * are the iteration's total, busbw is the mean rate per sender */
	double factor = j->pattern == SCN_JOB_RING_ALLREDUCE ? 2 * (n - 1) / n
			: j->pattern == SCN_JOB_ALLTOALL     ? (n - 1) / n
							     : 1.0 / (c->senders ? c->senders : 1);
	*algbw = t > 0 ? (double)c->bytes / t / 1e9 : 0;
	*busbw = *algbw * factor;
	int64_t line = c->line_bps > 0 ? c->line_bps : scn->host_link_bps;
	*pct_line = 100 * *busbw / ((double)line / 8 / 1e9);
}

void output_coll(struct output *o, const struct fabric *f, const struct coll *c)
{
	if (o->remote)
		return; /* rank 0 writes it */
	if (f->scn->jobs[c->job].pattern == SCN_JOB_TRAINING)
		output_step(o->file[OUT_TRAINING], o->file[OUT_TIMELINE], f, c);
	char start[32], end[32], time[32];
	double algbw, busbw, pct;
	stage_flush(o, OUT_COLLS);
	if (c->failed) { /* the job failed in this iteration: when, and no rate */
		fprintf(o->file[OUT_COLLS], "%s,%u,%u,%lld,%s,%s,,,,,failed\n",
			f->scn->jobs[c->job].name, c->iter, c->ranks, (long long)c->bytes,
			units_format_us(c->start_ps, start, sizeof(start)),
			units_format_us(c->end_ps, end, sizeof(end)));
		return;
	}
	output_coll_bw(f->scn, c, &algbw, &busbw, &pct);
	fprintf(o->file[OUT_COLLS], "%s,%u,%u,%lld,%s,%s,%s,%.3f,%.3f,%.2f,done\n",
	     f->scn->jobs[c->job].name, c->iter, c->ranks, (long long)c->bytes,
	     units_format_us(c->start_ps, start, sizeof(start)),
	     units_format_us(c->end_ps, end, sizeof(end)),
	     units_format_us(c->end_ps - c->start_ps, time, sizeof(time)), algbw, busbw, pct);
}

int output_write_row(struct output *o, const char *name, const char *header, const char *row,
		     int last)
{
	char tmp[128];
	snprintf(tmp, sizeof(tmp), "%s%s", name, last ? ".tmp" : "");
	errno = 0;
	FILE *fp = open_in(o, tmp, "w");
	if (!fp) {
		io_error(o, tmp);
		return -1;
	}
	fprintf(fp, "%s\n%s\n", header, row);
	char from[4300], to[4300];
	snprintf(from, sizeof(from), "%s/%s", o->dir, tmp);
	snprintf(to, sizeof(to), "%s/%s", o->dir, name);
	if (file_close(fp)) {
		io_error(o, tmp);
		unlink(from); /* no partial file: it would read as a whole one */
		return -1;
	}
	if (last && rename(from, to)) {
		io_error(o, name);
		unlink(from);
		return -1;
	}
	return 0;
}

int output_check(struct output *o)
{
	for (int s = 0; s < OUT_STREAMS; s++) {
		if (!o->file[s])
			continue;
		stage_flush(o, s);
		errno = 0;
		if (fflush(o->file[s]) || ferror(o->file[s])) {
			io_error(o, stream_file[s]);
			return -1;
		}
	}
	return 0;
}

static int close_one(struct output *o, FILE **fp, const char *name)
{
	int rc = 0;
	if (*fp) {
		errno = 0;
		rc = file_close(*fp) != 0;
		*fp = NULL;
		if (rc)
			io_error(o, name);
	}
	return rc;
}

/* qps.csv: the traced QPs that were sampled, in id order */
static int write_qps(const struct output *o)
{
	FILE *fp = open_in(o, "qps.csv", "w");
	if (!fp)
		return -1;
	fputs("qp,job,src,dst\n", fp);
	for (uint32_t i = 0; i < o->nqps; i++) {
		const struct out_qp *q = &o->qps[i];
		if (!q->seen)
			continue;
		fprintf(fp, "%" PRIu32 ",%s,h%" PRIu32 ",h%" PRIu32 "\n", i,
			q->job < o->njobs ? o->job_names[q->job] : "", q->src, q->dst);
	}
	return file_close(fp);
}

int output_close(struct output *o)
{
	int rc = o->oom;
	output_merge(o);
	if (o->opened && write_qps(o)) {
		io_error(o, "qps.csv");
		rc = 1;
	}
	o->opened = 0;
	free(o->qps);
	o->qps = NULL;
	free(o->job_names);
	o->job_names = NULL;
	for (int s = 0; s < OUT_STREAMS; s++) {
		if (o->file[s])
			stage_flush(o, s);
		free(o->stage[s]);
		o->stage[s] = NULL;
		rc |= close_one(o, &o->file[s], stream_file[s]);
		free(o->fbuf[s]); /* after fclose: stdio writes from it until then */
		o->fbuf[s] = NULL;
	}
	for (unsigned p = 0; o->parts && p < o->nparts; p++)
		for (int s = 0; s < OUT_PARTITIONED; s++) {
			free(o->parts[p].buf[s].rows);
			free(o->parts[p].buf[s].text);
		}
	free(o->parts);
	o->parts = NULL;
	free(o->merging);
	o->merging = NULL;
	return rc ? -1 : 0;
}
