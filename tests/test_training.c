/*
 * test_training.c - training steps (docs/model.md#training) against closed
 * forms on an uncongested fabric: a pure data-parallel step is its compute
 * plus the whole all-reduce of its last bucket (a ring-allreduce job of that
 * size alone on the same fabric), the 1F1B bubble is (p - 1) / (m + p - 1)
 * of the step, tensor-parallel traffic stays on NVLink while the pipeline's,
 * the buckets' and the experts' all-to-alls cross the network, the messages
 * and bytes of each kind follow the formulas (dense and mixture of experts), the step's account adds up to its time, the
 * outputs are the same on 1, 2 and 3 threads, and the ideal-network run
 * gives the step alone; the loader's messages for inconsistent keys.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "models/fabric/fabric.h"
#include "models/scenario/scenario.h"
#include "models/workload/traffic.h"
#include "sim/run/run.h"
#include "testlib.h"

/* run to the end, conserved and lossless; the log of what completed */
static struct fabric *run(const struct scenario *s, struct tl_log *log)
{
	struct fabric *f = tl_build(s);
	tl_log_attach(f, log);
	fabric_run_until(f, s->duration_ps);
	ck_assert_msg(fabric_finished(f), "%llu of %llu messages done",
		      (unsigned long long)fabric_flows_done(f),
		      (unsigned long long)fabric_flows_total(f));
	tl_conserved(f);
	struct net_stats ns = tl_stats(f);
	ck_assert_uint_eq(ns.drops.lossless + ns.drops.lossy, 0);
	return f;
}

static sim_time_ps step_ps(const struct coll *c)
{
	return c->end_ps - c->start_ps;
}

/* the step's account adds up to its time */
static void accounted(const struct coll *c)
{
	const struct coll_step *cs = &c->step;
	ck_assert(cs->valid);
	sim_time_ps sum = cs->compute_ps + cs->bubble_ps + cs->other_ps;
	for (int k = 0; k < COLL_STEP_KINDS; k++)
		sum += cs->exposed_ps[k];
	ck_assert_int_eq(sum, step_ps(c));
}

/* a ring-allreduce of `bytes` over 4 hosts of a star, one message per
 * step: its time */
static sim_time_ps ring_alone(int64_t bytes)
{
	char text[512];
	snprintf(text, sizeof(text),
		 "[sim]\nduration = 10s\n[topology]\nkind = star\nhosts = 4\n[nic]\ncc = none\n"
		 "[job.ar]\npattern = ring-allreduce\nsize = %lldB\nslice = 1GB\n",
		 (long long)bytes);
	struct scenario *s = tl_load(text);
	struct tl_log log;
	struct fabric *f = run(s, &log);
	ck_assert_uint_eq(log.ncolls, 1);
	sim_time_ps t = step_ps(&log.colls[0]);
	tl_log_free(&log);
	fabric_destroy(f);
	tl_unload(s);
	return t;
}

/* hidden 1024, element 2 B: a layer's gradients (12 h^2 + 13 h) 2 B */
#define LAYER_GRAD (INT64_C(2) * (12 * 1024 * 1024 + 13 * 1024))

/* dp = 4, two layers of 10 ms forward and 20 ms backward, one micro-batch:
 * with one bucket the step is 60 ms of compute and the all-reduce of both
 * layers' gradients; with a bucket per layer, the first layer's bucket is
 * all-reduced during the second's backward and only the last one's is
 * exposed */
START_TEST(data_parallel_step)
{
	static const char *const bucket[] = { "1GB", "20MB" };
	const int64_t last[] = { 2 * LAYER_GRAD, LAYER_GRAD };
	for (int k = 0; k < 2; k++) {
		char text[600];
		snprintf(text, sizeof(text),
			 "[sim]\nduration = 10s\n[topology]\nkind = star\nhosts = 4\n"
			 "[nic]\ncc = none\n[job.t]\npattern = training\nlayers = 2\n"
			 "hidden = 1024\nseq_len = 128\nglobal_batch = 4\nlayer_forward = 10ms\n"
			 "bucket = %s\n",
			 bucket[k]);
		struct scenario *s = tl_load(text);
		struct tl_log log;
		struct fabric *f = run(s, &log);
		ck_assert_uint_eq(log.ncolls, 1);
		const struct coll *c = &log.colls[0];
		accounted(c);
		ck_assert_int_eq(c->step.compute_ps, 60 * UNITS_PS_PER_MS);
		sim_time_ps ar = ring_alone(last[k]);
		ck_assert_msg(step_ps(c) - c->step.compute_ps == ar,
			      "bucket %s: step %lld ps = compute + %lld ps, the all-reduce alone "
			      "%lld ps", bucket[k], (long long)step_ps(c),
			      (long long)(step_ps(c) - c->step.compute_ps), (long long)ar);
		ck_assert_int_eq(c->step.exposed_ps[2], ar);
		ck_assert_int_eq(c->step.bubble_ps + c->step.exposed_ps[0] + c->step.exposed_ps[1],
				 0);
		/* the rings' messages: buckets x 2(d-1) d, each step S in all */
		ck_assert_uint_eq(c->step.msgs[2], (uint64_t)(k ? 2 : 1) * 2 * 3 * 4);
		ck_assert_uint_eq(c->step.bytes[2], 2 * 3 * (uint64_t)(2 * LAYER_GRAD));
		tl_log_free(&log);
		fabric_destroy(f);
		tl_unload(s);
	}
}
END_TEST


/* optimizer = sharded on the data-parallel step: with one bucket its
 * reduce-scatter and all-gather are the all-reduce's ring, the same step
 * to the picosecond; with a bucket per layer the first layer's all-gather
 * waits for the last layer's reduce-scatter, so the tail is longer than
 * the last bucket's all-reduce, but shorter than one all-reduce of both */
START_TEST(sharded_optimizer)
{
	static const char *const bucket[] = { "1GB", "20MB" };
	sim_time_ps tail[2][2];
	for (int k = 0; k < 2; k++)
		for (int sh = 0; sh < 2; sh++) {
			char text[700];
			snprintf(text, sizeof(text),
				 "[sim]\nduration = 10s\n[topology]\nkind = star\nhosts = 4\n"
				 "[nic]\ncc = none\n[job.t]\npattern = training\nlayers = 2\n"
				 "hidden = 1024\nseq_len = 128\nglobal_batch = 4\n"
				 "layer_forward = 10ms\nbucket = %s\noptimizer = %s\n",
				 bucket[k], sh ? "sharded" : "all-reduce");
			struct scenario *s = tl_load(text);
			struct tl_log log;
			struct fabric *f = run(s, &log);
			const struct coll *c = &log.colls[0];
			accounted(c);
			tail[k][sh] = step_ps(c) - c->step.compute_ps;
			ck_assert_uint_eq(c->step.msgs[2], (uint64_t)(k ? 2 : 1) * 2 * 3 * 4);
			tl_log_free(&log);
			fabric_destroy(f);
			tl_unload(s);
		}
	ck_assert_int_eq(tail[0][1], tail[0][0]);
	ck_assert_int_gt(tail[1][1], tail[1][0]);
	ck_assert_int_lt(tail[1][1], tail[0][0]);
}
END_TEST

/* p stages of one layer, m micro-batches of 1 ms forward and 2 ms backward,
 * activations of 1 KB: the step is (m + p - 1) 3 ms and the bubble (p - 1)
 * / (m + p - 1) of it, but for the sends' latency (below 0.1 %) */
START_TEST(pipeline_bubble)
{
	static const unsigned pm[][2] = { { 2, 4 }, { 4, 8 }, { 4, 16 }, { 8, 8 } };
	for (size_t k = 0; k < sizeof(pm) / sizeof(pm[0]); k++) {
		unsigned p = pm[k][0], m = pm[k][1];
		char text[600];
		snprintf(text, sizeof(text),
			 "[sim]\nduration = 10s\n[topology]\nkind = star\nhosts = %u\n"
			 "[job.t]\npattern = training\nlayers = %u\nhidden = 256\nseq_len = 2\n"
			 "global_batch = %u\npp = %u\nlayer_forward = 1ms\n",
			 p, p, m, p);
		struct scenario *s = tl_load(text);
		struct tl_log log;
		struct fabric *f = run(s, &log);
		const struct coll *c = &log.colls[0];
		accounted(c);
		double ideal = (m + p - 1) * 3e-3, step = (double)step_ps(c) * 1e-12;
		double bubble = (double)c->step.bubble_ps / (double)step_ps(c);
		double want = (double)(p - 1) / (m + p - 1);
		ck_assert_msg(step >= ideal && step < ideal * 1.001, "p %u m %u: step %.6f s, %.6f s",
			      p, m, step, ideal);
		ck_assert_msg(bubble > want - 1e-3 && bubble < want + 1e-3,
			      "p %u m %u: bubble %.5f of the step, (p-1)/(m+p-1) = %.5f", p, m,
			      bubble, want);
		ck_assert_int_eq(c->step.compute_ps, (sim_time_ps)m * 3 * UNITS_PS_PER_MS);
		ck_assert_uint_eq(c->step.msgs[1], 2 * (p - 1) * m);
		ck_assert_uint_eq(c->step.bytes[1], 2 * (p - 1) * m * 2 * 256 * 2);
		tl_log_free(&log);
		fabric_destroy(f);
		tl_unload(s);
	}
}
END_TEST


/* the timeline a step reports (struct coll_step.blocks, valid during the
 * report): checked as it is reported */
struct timeline_check {
	unsigned p, m, steps;
	char err[256];
};

static void check_timeline(void *ctx, const struct fabric *f, const struct coll *c)
{
	struct timeline_check *tc = ctx;
	const struct coll_step *cs = &c->step;
	(void)f;
	tc->steps++;
	if (cs->nblocks != tc->p * 4 * tc->m) {
		snprintf(tc->err, sizeof(tc->err), "%u blocks, not %u", cs->nblocks, tc->p * 4 * tc->m);
		return;
	}
	for (unsigned s = 0, k = 0; s < tc->p; s++) {
		/* 1F1B: w warm-up forwards, then a forward and a backward in
		 * turn, then the backwards left; 2 blocks each */
		unsigned w = tc->p - s - 1 < tc->m ? tc->p - s - 1 : tc->m, fw = 0, bw = 0;
		sim_time_ps last = c->start_ps;
		for (unsigned n = 0; n < 2 * tc->m; n++, k += 2) {
			int fwd = n < w || (n >= w && fw < tc->m && (n - w) % 2 == 0 && n < 2 * tc->m - w);
			unsigned mb = fwd ? fw++ : bw++;
			const struct coll_block *x = &cs->blocks[k], *y = &cs->blocks[k + 1];
			int want0 = fwd ? COLL_ATTN_F : COLL_MLP_B, want1 = fwd ? COLL_MLP_F : COLL_ATTN_B;
			if (x->stage != s || x->mb != mb || y->mb != mb || x->kind != want0 ||
			    y->kind != want1 || x->start_ps < last || y->start_ps != x->end_ps) {
				snprintf(tc->err, sizeof(tc->err),
					 "stage %u, pass %u: block %u (%s %u) is %d of mb %u at %lld",
					 s, n, k, fwd ? "forward" : "backward", mb, x->kind, x->mb,
					 (long long)x->start_ps);
				return;
			}
			last = y->end_ps;
		}
	}
}

/* training_timeline.csv's blocks: every stage's first rank runs the 1F1B
 * schedule, its blocks one after another, never overlapping */
START_TEST(timeline_is_1f1b)
{
	static const unsigned pm[][2] = { { 2, 4 }, { 4, 3 }, { 3, 6 } };
	for (size_t k = 0; k < sizeof(pm) / sizeof(pm[0]); k++) {
		char text[600];
		snprintf(text, sizeof(text),
			 "[sim]\nduration = 10s\n[topology]\nkind = star\nhosts = %u\n"
			 "[job.t]\npattern = training\nlayers = %u\nhidden = 256\nseq_len = 2\n"
			 "global_batch = %u\npp = %u\nlayer_forward = 1ms\niterations = 2\n",
			 pm[k][0], pm[k][0], pm[k][1], pm[k][0]);
		struct scenario *s = tl_load(text);
		struct fabric *f = tl_build(s);
		struct timeline_check tc = { .p = pm[k][0], .m = pm[k][1] };
		f->hooks.ctx = &tc;
		f->hooks.coll_done = check_timeline;
		fabric_run_until(f, s->duration_ps);
		ck_assert(fabric_finished(f));
		ck_assert_msg(!tc.err[0], "p %u m %u: %s", tc.p, tc.m, tc.err);
		ck_assert_uint_eq(tc.steps, 2);
		fabric_destroy(f);
		tl_unload(s);
	}
}
END_TEST

/* tp 4 on servers of 4 GPUs, pp 2, dp 2 over 4 servers: the tensor
 * all-reduces' bytes are exactly NVLink's, the pipeline's and the buckets'
 * exactly the network's; the message counts by kind follow the formulas */
static const char mixed[] =
	"[sim]\nduration = 10s\n[topology]\nkind = rail-optimized\nunits = 2\n"
	"servers_per_unit = 2\ngpus_per_server = 4\nspines = 2\n"
	"[job.t]\npattern = training\nlayers = 4\nhidden = 1024\nseq_len = 512\n"
	"vocab = 32768\nglobal_batch = 16\nmicro_batch = 2\ntp = 4\npp = 2\nbucket = 8MB\n"
	"gpu_tflops = 100\niterations = 2\n";

START_TEST(tensor_parallel_stays_in_servers)
{
	struct scenario *s = tl_load(mixed);
	struct tl_log log;
	struct fabric *f = run(s, &log);
	ck_assert_uint_eq(log.ncolls, 2);
	const struct coll_step *cs = &log.colls[0].step;
	/* t 4, p 2, d 2, m = 16 / (2 x 2) = 4, L 4, S = b s h e = 2 MiB */
	uint64_t t = 4, p = 2, d = 2, m = 4, L = 4, S = 2 * 512 * 1024 * 2;
	ck_assert_uint_eq(cs->msgs[0], d * m * L * 4 * 2 * (t - 1) * t);
	ck_assert_uint_eq(cs->bytes[0], d * m * L * 4 * 2 * (t - 1) * S);
	ck_assert_uint_eq(cs->msgs[1], 2 * (p - 1) * m * t * d);
	ck_assert_uint_eq(cs->bytes[1], 2 * (p - 1) * m * t * d * S);
	/* stage 0: 2 layers and the embedding, (V + s) h e / t; stage 1: 2
	 * layers and the output layer, V h e / t; buckets of at least 8 MB */
	uint64_t layer = (12 * 1024 * 1024 + 13 * 1024) * 2 / 4;
	uint64_t s0 = 2 * layer + (32768 + 512) * 1024 * 2 / 4, s1 = 2 * layer + 32768 * 1024 * 2 / 4;
	ck_assert_uint_eq(cs->bytes[2], t * 2 * (d - 1) * (s0 + s1));
	/* stage 0: the two layers' 12.6 MB in one bucket, then the embedding's
	 * with layer 0 (both close in one: 2 buckets? no: layer 1 is 6.3 MB,
	 * below 8 MB, so layers 1 and 0 and the embedding make one bucket);
	 * stage 1: the output layer 16.8 MB, then both layers: 2 buckets */
	ck_assert_uint_eq(cs->msgs[2], t * (1 + 2) * 2 * (d - 1) * d);
	struct net_stats ns = tl_stats(f);
	ck_assert_uint_eq(ns.nvlink_bytes, 2 * cs->bytes[0]);
	ck_assert_uint_eq(ns.payload_delivered, 2 * (cs->bytes[1] + cs->bytes[2]));
	/* and every message between GPUs of one server is a tensor one */
	uint64_t local = 0;
	for (size_t k = 0; k < log.nflows; k++)
		local += log.flows[k].src / 4 == log.flows[k].dst / 4;
	ck_assert_uint_eq(local, 2 * cs->msgs[0]);
	/* check's derived values say the same */
	char *derived = tl_print_derived(s);
	ck_assert_msg(strstr(derived, "# job.t: a step's messages tp 3072 (1.5GiB), pp 64 (128MiB), "
				      "dp 48 (") != NULL, "check's derived values: no such line");
	ck_assert_ptr_nonnull(strstr(derived, "# job.t: tp 4 x pp 2 x dp 2 GPUs, 4 micro-batches"));
	free(derived);
	for (size_t k = 0; k < log.ncolls; k++)
		accounted(&log.colls[k]);
	tl_log_free(&log);
	fabric_destroy(f);
	tl_unload(s);
}
END_TEST


/* a mixture of experts: 8 experts, top 2, ep 2 over dp 4 (tp 2, pp 2, 16
 * GPUs on servers of 2): per layer and micro-batch 4 all-to-alls in each
 * expert group, messages of b s h e k / (t ep); the layers' own gradients
 * all-reduced over the 4 replicas, the experts' over the 2 that hold the
 * same ones; every byte of the all-to-alls, pipeline and buckets crosses
 * the network, the tensor all-reduces' NVLink */
static const char moe[] =
	"[sim]\nduration = 10s\n[topology]\nkind = rail-optimized\nunits = 2\n"
	"servers_per_unit = 4\ngpus_per_server = 2\nspines = 2\n"
	"[job.moe]\npattern = training\nlayers = 2\nhidden = 1024\nseq_len = 256\n"
	"global_batch = 16\ntp = 2\npp = 2\ndp = 4\nexperts = 8\ntop_k = 2\nep = 2\n"
	"bucket = 4MB\ngpu_tflops = 100\niterations = 2\n";

START_TEST(experts_all_to_all)
{
	struct scenario *s = tl_load(moe);
	struct tl_log log;
	struct fabric *f = run(s, &log);
	ck_assert_uint_eq(log.ncolls, 2);
	const struct coll_step *cs = &log.colls[0].step;
	uint64_t t = 2, p = 2, d = 4, m = 4, L = 2, ep = 2, de = d / ep, S = 256 * 1024 * 2;
	uint64_t h = 1024, a2a = S * 2 / (t * ep);
	ck_assert_uint_eq(cs->msgs[3], 4 * m * L * t * (d / ep) * ep * (ep - 1));
	ck_assert_uint_eq(cs->bytes[3], cs->msgs[3] * a2a);
	ck_assert_uint_eq(cs->msgs[0], d * m * L * 4 * 2 * (t - 1) * t);
	ck_assert_uint_eq(cs->msgs[1], 2 * (p - 1) * m * t * d);
	/* one layer per stage: its own (4 h^2 + 13 h) e / t in one bucket over
	 * d, its experts' 8 / ep x 8 h^2 e / t in one over d / ep */
	uint64_t own = (4 * h * h + 13 * h) * 2 / t, experts = 8 / ep * 8 * h * h * 2 / t;
	ck_assert_uint_eq(cs->msgs[2], p * t * (2 * (d - 1) * d + ep * 2 * (de - 1) * de));
	ck_assert_uint_eq(cs->bytes[2], p * t * (2 * (d - 1) * own + ep * 2 * (de - 1) * experts));
	struct net_stats ns = tl_stats(f);
	ck_assert_uint_eq(ns.nvlink_bytes, 2 * cs->bytes[0]);
	ck_assert_uint_eq(ns.payload_delivered, 2 * (cs->bytes[1] + cs->bytes[2] + cs->bytes[3]));
	for (size_t k = 0; k < log.ncolls; k++) {
		accounted(&log.colls[k]);
		ck_assert_int_gt(log.colls[k].step.exposed_ps[3], 0);
	}
	tl_log_free(&log);
	fabric_destroy(f);
	tl_unload(s);
}
END_TEST

/* the iterations as reported, whatever the threads */
struct steps {
	struct coll c[8];
	uint64_t timeline[8];          /* a hash of each step's blocks */
	size_t n;
};

static void on_coll(void *ctx, const struct fabric *f, const struct coll *c)
{
	struct steps *st = ctx;
	(void)f;
	ck_assert_uint_lt(st->n, 8);
	uint64_t h = 1469598103934665603u;
	for (uint32_t k = 0; k < c->step.nblocks; k++) {
		const struct coll_block *b = &c->step.blocks[k];
		uint64_t v[] = { b->stage, b->rank, b->mb, (uint64_t)b->layer, b->kind,
				 (uint64_t)b->start_ps, (uint64_t)b->end_ps };
		for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
			h = (h ^ v[i]) * 1099511628211u;
	}
	st->timeline[st->n] = h;
	st->c[st->n] = *c;
	st->c[st->n++].step.blocks = NULL; /* the traffic's, freed after the report */
}

START_TEST(same_on_any_threads)
{
	struct scenario *s = tl_load(_i ? moe : mixed);
	struct steps st[3];
	struct net_stats ns[3];
	for (unsigned th = 1; th <= 3; th++) {
		struct fabric *f = tl_build_on(s, th);
		if (th > 1)
			ck_assert_uint_gt(f->nparts, 1);
		memset(&st[th - 1], 0, sizeof(st[0]));
		f->hooks.ctx = &st[th - 1];
		f->hooks.coll_done = on_coll;
		fabric_run_until(f, s->duration_ps);
		ck_assert(fabric_finished(f));
		tl_conserved(f);
		ns[th - 1] = tl_stats(f);
		fabric_destroy(f);
	}
	for (int k = 1; k < 3; k++) {
		ck_assert_uint_eq(st[k].n, st[0].n);
		ck_assert_uint_eq(ns[k].payload_delivered, ns[0].payload_delivered);
		ck_assert_uint_eq(ns[k].nvlink_bytes, ns[0].nvlink_bytes);
		ck_assert_uint_eq(ns[k].cc.ce_delivered, ns[0].cc.ce_delivered);
		for (size_t i = 0; i < st[0].n; i++) {
			ck_assert_int_eq(st[k].c[i].end_ps, st[0].c[i].end_ps);
			ck_assert_int_eq(st[k].c[i].start_ps, st[0].c[i].start_ps);
			ck_assert(!memcmp(&st[k].c[i].step, &st[0].c[i].step, sizeof(st[0].c[i].step)));
			ck_assert_uint_eq(st[k].timeline[i], st[0].timeline[i]);
		}
	}
	tl_unload(s);
}
END_TEST

/* a straggler GPU starts 5 ms late: the others wait for it in the
 * all-reduce, so the step is 5 ms longer and the first GPU (the critical
 * one: every GPU ends at once) sees it as exposed data-parallel time */
START_TEST(straggler_delays_the_step)
{
	static const char text[] =
		"[sim]\nduration = 10s\n[topology]\nkind = star\nhosts = 4\n[nic]\ncc = none\n"
		"[job.t]\npattern = training\nlayers = 2\nhidden = 1024\nseq_len = 128\n"
		"global_batch = 4\nlayer_forward = 10ms\nbucket = 1GB\nstraggler = h2:5ms\n";
	struct scenario *s = tl_load(text);
	struct tl_log log;
	struct fabric *f = run(s, &log);
	const struct coll *c = &log.colls[0];
	accounted(c);
	sim_time_ps ar = ring_alone(2 * LAYER_GRAD);
	ck_assert_uint_eq(c->step.gpu, 0);
	ck_assert_int_eq(c->step.other_ps, 0);
	ck_assert_int_eq(c->step.compute_ps, 60 * UNITS_PS_PER_MS);
	/* the ring's messages that do not need h2 have moved already: a little
	 * less than the all-reduce after h2's compute */
	sim_time_ps late = 65 * UNITS_PS_PER_MS + ar;
	ck_assert_int_le(step_ps(c), late);
	ck_assert_int_gt(step_ps(c), late - UNITS_PS_PER_US);
	ck_assert_int_eq(c->step.exposed_ps[2], step_ps(c) - 60 * UNITS_PS_PER_MS);
	tl_log_free(&log);
	fabric_destroy(f);
	tl_unload(s);
}
END_TEST


/* the field `col` (0-based) of training.csv's row `row` (1: the first
 * step) in dir, as a number */
static double csv_field(const char *dir, int row, int col)
{
	char *text = tl_slurp(dir, "training.csv"), *p = text;
	for (int r = 0; r < row && p; r++)
		p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL;
	ck_assert_ptr_nonnull(p);
	for (int c = 0; c < col; c++)
		p = strchr(p, ',') + 1;
	double v = strtod(p, NULL);
	free(text);
	return v;
}

/* job.ideal_network: alone, with nic.cc = none and no fault, the step
 * takes its ideal time (congestion_cost 0); beside an all-to-all of the
 * same hosts and with DCQCN, it is longer and the difference is the
 * congestion's */
START_TEST(ideal_network_run)
{
	char dir[] = "/tmp/dcqcn-training-XXXXXX", out[2][96];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	for (int k = 0; k < 2; k++) {
		char text[1200];
		snprintf(text, sizeof(text), "%s%s", mixed,
			 k ? "ideal_network = true\n[job.noise]\npattern = alltoall\n"
			     "size = 64MB\niterations = 4\n"
			   : "ideal_network = true\n[nic]\ncc = none\n");
		struct scenario *s = tl_load(text);
		snprintf(out[k], sizeof(out[k]), "%s/run%d", dir, k);
		struct run_result r;
		ck_assert_int_eq(run_scenario(s, &(struct run_opts){ .out_dir = out[k] }, &r), RUN_OK);
		ck_assert_uint_eq(r.train_steps, 2);
		tl_unload(s);
	}
	/* columns: step_us 4, network_cost 24, ideal_step_us 25, congestion_cost 26 */
	for (int row = 1; row <= 2; row++) {
		double step = csv_field(out[0], row, 4), ideal = csv_field(out[0], row, 25);
		ck_assert_msg(step == ideal, "alone: step %.3f us, ideal %.3f us", step, ideal);
		ck_assert(csv_field(out[0], row, 26) == 0);
		double busy = csv_field(out[1], row, 4), ideal1 = csv_field(out[1], row, 25);
		ck_assert(ideal1 == ideal);
		ck_assert_msg(busy > ideal, "beside an all-to-all: %.3f us, ideal %.3f us", busy,
			      ideal);
		double cost = csv_field(out[1], row, 26);
		ck_assert_msg(cost > 0.999 * (busy - ideal) / busy && cost < 1.001 * (busy - ideal) / busy,
			      "congestion_cost %.6f", cost);
	}
	for (int k = 0; k < 2; k++) {
		char cmd[256];
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", out[k]);
		ck_assert_int_eq(system(cmd), 0);
	}
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

#define JOB "[topology]\nkind = star\nhosts = 8\n[job.t]\npattern = training\n"
static const struct tl_case errors_cases[] = {
	{ JOB "layers = 4\nhidden = 64\nseq_len = 8\nglobal_batch = 8\ntp = 3\n"
	      "gpu_tflops = 100\n", NULL,
	  "x.ini:4: job.t.ranks: 8 hosts is not a multiple of tp x pp (3 x 1)" },
	{ JOB "layers = 4\nhidden = 64\nseq_len = 8\nglobal_batch = 8\ntp = 2\ndp = 2\n"
	      "gpu_tflops = 100\n", NULL,
	  "x.ini:4: job.t.ranks: 8 hosts, but tp x pp x dp is 2 x 1 x 2 = 4" },
	{ JOB "layers = 3\nhidden = 64\nseq_len = 8\nglobal_batch = 8\npp = 2\n"
	      "gpu_tflops = 100\n", NULL,
	  "x.ini:6: job.t.layers: 3 is not a multiple of pp (2)" },
	{ JOB "layers = 4\nhidden = 66\nseq_len = 8\nglobal_batch = 8\ntp = 4\n"
	      "gpu_tflops = 100\n", NULL,
	  "x.ini:7: job.t.hidden: 66 is not a multiple of tp (4)" },
	{ JOB "layers = 4\nhidden = 64\nseq_len = 8\nglobal_batch = 6\n"
	      "gpu_tflops = 100\n", NULL,
	  "x.ini:9: job.t.global_batch: 6 is not a multiple of micro_batch x dp (1 x 8)" },
	{ JOB "layers = 4\nhidden = 64\nseq_len = 8\nglobal_batch = 8\n", NULL,
	  "x.ini:4: job.t.gpu_tflops: missing (give the GPU's sustained TFLOP/s, or "
	  "layer_forward)" },
	{ JOB "hidden = 64\nseq_len = 8\nglobal_batch = 8\ngpu_tflops = 1\n", NULL,
	  "x.ini:4: job.t.layers: missing" },
	{ JOB "layers = 4\nhidden = 64\nseq_len = 8\nglobal_batch = 8\n"
	      "layer_backward = 1ms\ngpu_tflops = 1\n", NULL,
	  "x.ini:10: job.t.layer_backward: given without layer_forward" },
	{ JOB "layers = 4\nhidden = 64\nseq_len = 8\nglobal_batch = 8\ntp = 0\n", NULL,
	  "x.ini:10: job.t.tp: 0 out of range (1-65536)" },
	{ JOB "layers = 4\nhidden = 64\nseq_len = 8\nglobal_batch = 8\nep = 2\n"
	      "gpu_tflops = 100\n", NULL,
	  "x.ini:10: job.t.ep: 2 without experts (give experts, a multiple of ep)" },
	{ JOB "layers = 4\nhidden = 64\nseq_len = 8\nglobal_batch = 8\nexperts = 6\nep = 4\n"
	      "gpu_tflops = 100\n", NULL,
	  "x.ini:11: job.t.ep: 4 does not divide experts (6)" },
	{ JOB "layers = 4\nhidden = 64\nseq_len = 8\nglobal_batch = 8\nexperts = 2\ntop_k = 4\n"
	      "gpu_tflops = 100\n", NULL,
	  "x.ini:11: job.t.top_k: 4 is above experts (2)" },
	{ "[topology]\nkind = star\nhosts = 8\n[job.t]\npattern = ring-allreduce\nlayers = 4\n",
	  NULL, "x.ini:6: job.t.layers: only for pattern = training (pattern is ring-allreduce)" },
};
TL_CASES_TEST(errors)

static Suite *make_training_suite(void)
{
	Suite *s = suite_create("training");
	TCase *tc = tcase_create("training");
	tcase_add_test(tc, data_parallel_step);
	tcase_add_test(tc, sharded_optimizer);
	tcase_add_test(tc, pipeline_bubble);
	tcase_add_test(tc, timeline_is_1f1b);
	tcase_add_test(tc, tensor_parallel_stays_in_servers);
	tcase_add_test(tc, experts_all_to_all);
	tcase_add_loop_test(tc, same_on_any_threads, 0, 2);
	tcase_add_test(tc, straggler_delays_the_step);
	tcase_add_test(tc, ideal_network_run);
	TL_ADD_CASES(tc, errors);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tl_run(make_training_suite());
}
