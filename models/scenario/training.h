/*
 * training.h - the arithmetic of a training job (pattern = training,
 * docs/model.md#training) that the loader checks and the workload runs:
 * its parallel degrees, micro-batches, per-layer compute times, message
 * sizes, gradient buckets and the messages of one step by kind.  Pure
 * functions of the job and its rank count.
 */
#ifndef DCQCN_SCENARIO_TRAINING_H
#define DCQCN_SCENARIO_TRAINING_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "models/base/units.h"

struct scn_job;
struct scenario;

/* the kinds of a step's communication (training.csv's columns) */
enum scn_train_kind { SCN_TRAIN_TP, SCN_TRAIN_PP, SCN_TRAIN_DP, SCN_TRAIN_EP, SCN_TRAIN_KINDS };

struct scn_training {
	uint32_t t, p, d;              /* tensor, pipeline, data-parallel degrees */
	uint32_t E, k, ep;             /* experts per layer (0: dense), top-k, expert degree */
	uint32_t m;                    /* micro-batches per step: global / (micro x d) */
	uint32_t lps;                  /* layers per stage: layers / p */
	/* one micro-batch on one GPU: a layer's attention and MLP blocks,
	 * forward and backward, and the output layer's (last stage, vocab) */
	sim_time_ps attn_f_ps, mlp_f_ps, attn_b_ps, mlp_b_ps;
	sim_time_ps out_f_ps, out_b_ps;
	int64_t act_bytes;             /* b s h e: a tensor-parallel all-reduce's and a
					* pipeline send's size */
	int64_t a2a_bytes;             /* mixture of experts: an all-to-all's message from
					* one GPU to another of its ep group: b s h e k / (t ep) */
	int64_t layer_grad_bytes;      /* a layer's gradients on one GPU all-reduced over the
					* d replicas: (12 h^2 + 13 h) e / t; with experts
					* (4 h^2 + 13 h) e / t */
	int64_t expert_grad_bytes;     /* its experts' on one GPU, all-reduced over the d / ep
					* replicas of the same experts: E / ep x 8 h^2 e / t */
	int64_t embed_grad_bytes;      /* stage 0: (V + s) h e / t */
	int64_t out_grad_bytes;        /* last stage: V h e / t */
};

/* the job's degrees and sizes for `ranks` ranks: 0, or -1 with a message
 * (what is out of range or inconsistent, the keys to change) in err */
int scn_training_dims(const struct scn_job *j, uint32_t ranks, struct scn_training *tr,
		      char *err, size_t errlen);

/*
 * The data-parallel gradient buckets of pipeline stage `stage` (with
 * `expert`, of its experts' gradients: layers only), in the order
 * the backward pass fills them: the output layer (last stage), the stage's
 * layers from its last to its first, the embedding (stage 0); a bucket is
 * closed once it holds at least job.bucket bytes, the rest is the last one.
 * Bucket k holds bytes[k] and is complete after the backward of local layer
 * layer[k] (-1: after the output layer).  Returns the count; fills at most
 * cap of each (NULL: count only).
 */
uint32_t scn_training_buckets(const struct scn_training *tr, int64_t bucket_bytes,
			      uint32_t stage, int expert, int64_t *bytes, int32_t *layer,
			      uint32_t cap);

/* the messages of one step, and their payload, by kind (the formulas of
 * docs/model.md#training) */
void scn_training_messages(const struct scn_training *tr, int64_t bucket_bytes,
			   uint64_t msgs[SCN_TRAIN_KINDS], uint64_t bytes[SCN_TRAIN_KINDS]);

/* `check`'s derived values of each training job: degrees, micro-batches,
 * block times, a step's messages by kind (# lines; none without one) */
void scn_training_print(const struct scenario *s, FILE *out);

#endif
