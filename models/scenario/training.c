/*
 * training.c - a training job's arithmetic (training.h): the FLOP counts of
 * Narayanan et al., "Efficient Large-Scale Language Model Training on GPU
 * Clusters Using Megatron-LM" (SC21), section 5.1, for one micro-batch of b
 * sequences of s tokens through a layer of hidden size h:
 *   forward  24 b s h^2 + 4 b s^2 h: attention 8 b s h^2 + 4 b s^2 h (the
 *            QKV and output projections, the scores and their product with
 *            the values), MLP 16 b s h^2;
 *   backward twice the forward (no activation recomputation);
 *   output layer 2 b s h V forward, twice that backward;
 * each split evenly over the t GPUs of a tensor-parallel group.  A layer has
 * 12 h^2 + 13 h parameters, the embedding (V + s) h, the output layer V h
 * (not tied to the embedding).  With E experts (mixture of experts, every
 * layer) each token goes through k experts of the MLP's size: the MLP's
 * FLOPs are k times the dense ones, the layer keeps 4 h^2 + 13 h
 * parameters of its own and each expert has 8 h^2.  Times are the FLOPs at job.gpu_tflops, or
 * job.layer_forward (and layer_backward) split between the blocks in the
 * FLOPs' proportions, the output layer at the rate they imply.
 */
#include "models/scenario/training.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "models/scenario/scenario.h"

#define MAX_BLOCK_S 1000.0          /* a block's time on one micro-batch */
#define MAX_MSG_BYTES 1e12          /* 1000GB, like a job's size */

/* seconds as picoseconds, rounded */
static sim_time_ps ps_of(double s)
{
	return (sim_time_ps)llround(s * 1e12);
}

static int degrees(const struct scn_job *j, uint32_t ranks, struct scn_training *tr, char *err,
		   size_t len)
{
	uint64_t tp = j->tp, pp = j->pp;
	if (ranks % (tp * pp)) {
		snprintf(err, len,
			 "ranks: %" PRIu32 " hosts is not a multiple of tp x pp (%" PRIu64 " x %" PRIu64
			 ")",
			 ranks, tp, pp);
		return -1;
	}
	uint64_t dp = j->dp == SCN_AUTO ? ranks / (tp * pp) : (uint64_t)j->dp;
	if (tp * pp * dp != ranks) {
		snprintf(err, len,
			 "ranks: %" PRIu32 " hosts, but tp x pp x dp is %" PRIu64 " x %" PRIu64
			 " x %" PRIu64 " = %" PRIu64 " (give as many ranks, or dp = auto)",
			 ranks, tp, pp, dp, tp * pp * dp);
		return -1;
	}
	if (ranks < 2) {
		snprintf(err, len, "ranks: 1 host (a training job needs at least 2)");
		return -1;
	}
	tr->t = (uint32_t)tp;
	tr->p = (uint32_t)pp;
	tr->d = (uint32_t)dp;
	tr->E = j->experts;
	tr->k = j->top_k;
	tr->ep = j->ep;
	if (tr->ep > 1 && !tr->E) {
		snprintf(err, len, "ep: %" PRIu32 " without experts (give experts, a multiple of ep)",
			 tr->ep);
		return -1;
	}
	if (tr->d % tr->ep || (tr->E && tr->E % tr->ep)) {
		snprintf(err, len, "ep: %" PRIu32 " does not divide %s (%" PRIu32 ")", tr->ep,
			 tr->d % tr->ep ? "dp" : "experts", tr->d % tr->ep ? tr->d : tr->E);
		return -1;
	}
	if (tr->E && tr->k > tr->E) {
		snprintf(err, len, "top_k: %" PRIu32 " is above experts (%" PRIu32 ")", tr->k, tr->E);
		return -1;
	}
	return 0;
}

static int shapes(const struct scn_job *j, struct scn_training *tr, char *err, size_t len)
{
	static const char *const req[] = { "layers", "hidden", "seq_len", "global_batch" };
	int64_t given[] = { j->layers, j->hidden, j->seq_len, j->global_batch };
	for (int k = 0; k < 4; k++)
		if (!given[k]) {
			snprintf(err, len, "%s: missing (a training job needs layers, hidden, "
				 "seq_len and global_batch)", req[k]);
			return -1;
		}
	if (j->layers % tr->p) {
		snprintf(err, len, "layers: %" PRIu32 " is not a multiple of pp (%" PRIu32 ")",
			 j->layers, tr->p);
		return -1;
	}
	if (j->hidden % tr->t || j->vocab % tr->t) {
		snprintf(err, len, "%s: %" PRId64 " is not a multiple of tp (%" PRIu32 ")",
			 j->hidden % tr->t ? "hidden" : "vocab",
			 j->hidden % tr->t ? j->hidden : j->vocab, tr->t);
		return -1;
	}
	int64_t per = j->micro_batch * (int64_t)tr->d;
	if (j->global_batch % per) {
		snprintf(err, len,
			 "global_batch: %" PRId64 " is not a multiple of micro_batch x dp (%" PRId64
			 " x %" PRIu32 ")",
			 j->global_batch, j->micro_batch, tr->d);
		return -1;
	}
	if (j->global_batch / per > UINT32_MAX) {
		snprintf(err, len, "global_batch: %" PRId64 " micro-batches per step (at most %u)",
			 j->global_batch / per, UINT32_MAX);
		return -1;
	}
	tr->m = (uint32_t)(j->global_batch / per);
	tr->lps = j->layers / tr->p;
	return 0;
}

/* the blocks' times from the FLOPs or the given layer times */
static int times(const struct scn_job *j, struct scn_training *tr, char *err, size_t len)
{
	double b = (double)j->micro_batch, s = (double)j->seq_len, h = (double)j->hidden;
	double V = (double)j->vocab, t = tr->t;
	double attn = (8 * b * s * h * h + 4 * b * s * s * h) / t, mlp = 16 * b * s * h * h / t;
	if (tr->E) /* every token through k experts */
		mlp *= tr->k;
	double out = 2 * b * s * h * V / t;
	double rate; /* FLOP/s */
	if (!j->gpu_tflops && !j->layer_fwd_ps) {
		snprintf(err, len, "gpu_tflops: missing (give the GPU's sustained TFLOP/s, or "
			 "layer_forward)");
		return -1;
	}
	if (j->layer_bwd_ps && !j->layer_fwd_ps) {
		snprintf(err, len, "layer_backward: given without layer_forward");
		return -1;
	}
	if (j->layer_fwd_ps) {
		double fwd = (double)j->layer_fwd_ps, bwd = j->layer_bwd_ps ? (double)j->layer_bwd_ps
									   : 2 * fwd;
		rate = (attn + mlp) / (fwd * 1e-12);
		tr->attn_f_ps = (sim_time_ps)llround(fwd * attn / (attn + mlp));
		tr->mlp_f_ps = (sim_time_ps)fwd - tr->attn_f_ps;
		tr->attn_b_ps = (sim_time_ps)llround(bwd * attn / (attn + mlp));
		tr->mlp_b_ps = (sim_time_ps)bwd - tr->attn_b_ps;
	} else {
		rate = (double)j->gpu_tflops * 1e12;
		if ((attn + mlp) * 2 / rate > MAX_BLOCK_S) {
			snprintf(err, len, "gpu_tflops: a layer's backward would take %.3g s on one "
				 "micro-batch (at most %.0f s: lower hidden, seq_len or micro_batch)",
				 (attn + mlp) * 2 / rate, MAX_BLOCK_S);
			return -1;
		}
		tr->attn_f_ps = ps_of(attn / rate);
		tr->mlp_f_ps = ps_of(mlp / rate);
		tr->attn_b_ps = ps_of(2 * attn / rate);
		tr->mlp_b_ps = ps_of(2 * mlp / rate);
	}
	if (2 * out / rate > MAX_BLOCK_S) {
		snprintf(err, len, "vocab: the output layer's backward would take %.3g s on one "
			 "micro-batch (at most %.0f s)", 2 * out / rate, MAX_BLOCK_S);
		return -1;
	}
	tr->out_f_ps = ps_of(out / rate);
	tr->out_b_ps = ps_of(2 * out / rate);
	return 0;
}

int scn_training_dims(const struct scn_job *j, uint32_t ranks, struct scn_training *tr,
		      char *err, size_t errlen)
{
	*tr = (struct scn_training){0};
	if (degrees(j, ranks, tr, err, errlen) || shapes(j, tr, err, errlen) ||
	    times(j, tr, err, errlen))
		return -1;
	double e = j->element_bytes, h = (double)j->hidden, t = tr->t;
	double act = (double)j->micro_batch * (double)j->seq_len * h * e;
	double layer = ((tr->E ? 4 : 12) * h * h + 13 * h + (double)tr->E / tr->ep * 8 * h * h) * e / t;
	double embed = ((double)j->vocab + (double)j->seq_len) * h * e / t;
	if (act > MAX_MSG_BYTES || layer * tr->lps + embed > MAX_MSG_BYTES) {
		snprintf(err, errlen, "hidden: %s of %.3g B (at most 1000GB: lower hidden, seq_len or "
			 "micro_batch)", act > MAX_MSG_BYTES ? "activations" : "a stage's gradients",
			 act > MAX_MSG_BYTES ? act : layer * tr->lps + embed);
		return -1;
	}
	int64_t hh = j->hidden;
	tr->act_bytes = j->micro_batch * j->seq_len * hh * (int64_t)j->element_bytes;
	tr->layer_grad_bytes = ((tr->E ? 4 : 12) * hh * hh + 13 * hh) / (int64_t)tr->t *
			       j->element_bytes;
	tr->expert_grad_bytes = (int64_t)(tr->E / tr->ep) * 8 * hh * hh / (int64_t)tr->t *
				j->element_bytes;
	tr->a2a_bytes = tr->E ? tr->act_bytes * tr->k / ((int64_t)tr->t * tr->ep) : 0;
	if (tr->ep > 1 && tr->a2a_bytes < 1) {
		snprintf(err, errlen, "ep: an all-to-all's message of b s h e k / (tp ep) would be "
			 "empty (raise micro_batch, seq_len or hidden)");
		return -1;
	}
	tr->embed_grad_bytes = j->vocab ? (j->vocab + j->seq_len) * hh / (int64_t)tr->t *
						  j->element_bytes
					: 0;
	tr->out_grad_bytes = j->vocab * hh / (int64_t)tr->t * j->element_bytes;
	if (tr->d > 1 && tr->out_grad_bytes && tr->out_grad_bytes < (int64_t)tr->d) {
		snprintf(err, errlen, "vocab: the output layer's gradients (%" PRId64 " B per GPU) "
			 "are fewer bytes than dp (%" PRIu32 ")", tr->out_grad_bytes, tr->d);
		return -1;
	}
	if (tr->d / tr->ep > 1 && tr->E && tr->expert_grad_bytes < (int64_t)(tr->d / tr->ep)) {
		snprintf(err, errlen, "hidden: a layer's expert gradients (%" PRId64 " B per GPU) are "
			 "fewer bytes than dp / ep (%" PRIu32 ")", tr->expert_grad_bytes,
			 tr->d / tr->ep);
		return -1;
	}
	if (tr->d > 1 && tr->layer_grad_bytes < (int64_t)tr->d) {
		snprintf(err, errlen, "hidden: a layer's gradients (%" PRId64 " B per GPU) are fewer "
			 "bytes than dp (%" PRIu32 ")", tr->layer_grad_bytes, tr->d);
		return -1;
	}
	return 0;
}

uint32_t scn_training_buckets(const struct scn_training *tr, int64_t bucket_bytes,
			      uint32_t stage, int expert, int64_t *bytes, int32_t *layer,
			      uint32_t cap)
{
	uint32_t n = 0;
	int64_t fill = 0;
	int32_t at = -1;
	int64_t per = expert ? tr->expert_grad_bytes : tr->layer_grad_bytes;
	/* the units in the order their gradients are complete */
	if (!expert && stage + 1 == tr->p && tr->out_grad_bytes) {
		fill = tr->out_grad_bytes;
		at = -1;
	}
	for (int32_t l = (int32_t)tr->lps - 1; l >= 0; l--) {
		if (fill >= bucket_bytes) { /* closed before this layer */
			if (bytes && n < cap) {
				bytes[n] = fill;
				layer[n] = at;
			}
			n++;
			fill = 0;
		}
		fill += per + (!expert && l == 0 && stage == 0 ? tr->embed_grad_bytes : 0);
		at = l;
	}
	if (bytes && n < cap) {
		bytes[n] = fill;
		layer[n] = at;
	}
	return n + 1;
}

void scn_training_messages(const struct scn_training *tr, int64_t bucket_bytes,
			   uint64_t msgs[SCN_TRAIN_KINDS], uint64_t bytes[SCN_TRAIN_KINDS])
{
	uint64_t t = tr->t, p = tr->p, d = tr->d, m = tr->m, L = (uint64_t)tr->lps * p;
	uint64_t act = (uint64_t)tr->act_bytes;
	/* 4 ring all-reduces per layer and micro-batch in each of d x p
	 * groups: 2(t-1) steps of t messages, each step S in all */
	msgs[SCN_TRAIN_TP] = d * m * L * 4 * 2 * (t - 1) * t;
	bytes[SCN_TRAIN_TP] = d * m * L * 4 * 2 * (t - 1) * act;
	/* activations forward and gradients back across p - 1 boundaries,
	 * from every GPU of a tensor-parallel group */
	msgs[SCN_TRAIN_PP] = 2 * (p - 1) * m * t * d;
	bytes[SCN_TRAIN_PP] = msgs[SCN_TRAIN_PP] * act;
	msgs[SCN_TRAIN_DP] = bytes[SCN_TRAIN_DP] = 0;
	for (uint32_t s = 0; d > 1 && s < p; s++) {
		uint32_t nb = scn_training_buckets(tr, bucket_bytes, s, 0, NULL, NULL, 0);
		int64_t sum = (int64_t)tr->layer_grad_bytes * tr->lps +
			      (s == 0 ? tr->embed_grad_bytes : 0) +
			      (s + 1 == p ? tr->out_grad_bytes : 0);
		msgs[SCN_TRAIN_DP] += t * nb * 2 * (d - 1) * d;
		bytes[SCN_TRAIN_DP] += t * 2 * (d - 1) * (uint64_t)sum;
	}
	/* the experts' buckets: ep rings of d / ep replicas per stage and
	 * tensor rank */
	uint64_t de = d / tr->ep, ep = tr->ep;
	for (uint32_t s = 0; tr->E && de > 1 && s < p; s++) {
		uint32_t nb = scn_training_buckets(tr, bucket_bytes, s, 1, NULL, NULL, 0);
		msgs[SCN_TRAIN_DP] += t * ep * nb * 2 * (de - 1) * de;
		bytes[SCN_TRAIN_DP] += t * ep * 2 * (de - 1) * (uint64_t)tr->expert_grad_bytes *
				       tr->lps;
	}
	/* 4 all-to-alls per layer and micro-batch (dispatch and combine, forward
	 * and backward) in each of the t p d / ep expert groups: ep (ep - 1)
	 * messages each */
	msgs[SCN_TRAIN_EP] = tr->E ? 4 * m * L * t * (d / ep) * ep * (ep - 1) : 0;
	bytes[SCN_TRAIN_EP] = msgs[SCN_TRAIN_EP] * (uint64_t)tr->a2a_bytes;
}

void scn_training_print(const struct scenario *s, FILE *out)
{
	for (uint32_t j = 0; j < s->njobs; j++) {
		const struct scn_job *job = &s->jobs[j];
		struct scn_training tr;
		uint64_t msgs[SCN_TRAIN_KINDS], bytes[SCN_TRAIN_KINDS];
		char e[400], a[40], b[40], c[40], d[40];
		if (job->pattern != SCN_JOB_TRAINING ||
		    scn_training_dims(job, job->ranks.n, &tr, e, sizeof(e)))
			continue;
		scn_training_messages(&tr, job->bucket_bytes, msgs, bytes);
		fprintf(out, "# job.%s: tp %" PRIu32 " x pp %" PRIu32 " x dp %" PRIu32
			" GPUs, %" PRIu32 " micro-batches of %" PRId64 " per step, %" PRIu32
			" layers per stage%s\n",
			job->name, tr.t, tr.p, tr.d, tr.m, job->micro_batch, tr.lps,
			tr.E ? ", mixture of experts" : "");
		char f[40], g[40];
		fprintf(out, "# job.%s: on one GPU and micro-batch, a layer's forward %s us "
			"(attention %s, MLP %s), backward %s us; the output layer's %s and %s us\n",
			job->name, units_format_us(tr.attn_f_ps + tr.mlp_f_ps, a, sizeof(a)),
			units_format_us(tr.attn_f_ps, b, sizeof(b)),
			units_format_us(tr.mlp_f_ps, c, sizeof(c)),
			units_format_us(tr.attn_b_ps + tr.mlp_b_ps, d, sizeof(d)),
			units_format_us(tr.out_f_ps, f, sizeof(f)),
			units_format_us(tr.out_b_ps, g, sizeof(g)));
		static const char *const kind[] = { "tp", "pp", "dp", "ep" };
		fprintf(out, "# job.%s: a step's messages", job->name);
		for (int k = 0; k < SCN_TRAIN_KINDS; k++)
			fprintf(out, "%s %s %" PRIu64 " (%s)", k ? "," : "", kind[k], msgs[k],
				units_format_size((int64_t)bytes[k], a, sizeof(a)));
		fprintf(out, "\n");
	}
}
