/*
 * checkjobs.c - the checks of each job that involve several keys (its
 * pattern's keys, host sets against the topology, a collective's size
 * against its ranks, storage targets and initiators, stragglers) and the
 * flows of all jobs together; validate.c calls them at the end of each
 * file and in scenario_finalize(), with the rules it describes.
 *
 * Choices where the brief is silent
 *   - ring-allreduce: size is the collective's S, cut into channels x n
 *     near-equal chunks, so S >= ranks x channels (no empty chunk).
 *     alltoall: each rank sends floor(S / n) bytes to every other rank (the
 *     remainder is not sent), so S >= n; S need not be a multiple of n.
 *   - all jobs together may generate at most 10^12 flows (messages are made
 *     as they may be posted and ids are 64-bit, so this is no limit of the
 *     model: a run of a million million messages would take weeks, and the
 *     limit catches a mistyped slice or iteration count): per job, iterations x
 *     ring-allreduce channels x 2(n-1) x n x ceil(chunk / slice) with chunk
 *     = ceil(S / (channels x n)) (an upper bound: chunks differ by at most a
 *     byte), alltoall n x (n-1), incast senders, permutation n, trace rows.
 *     The message names job.NAME.iterations of the job with the most flows,
 *     its product, the total and the keys that lower it.
 */
#include "models/scenario/loader.h"
#include "models/scenario/training.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FLOWS UINT64_C(1000000000000) /* all jobs' flows together */

/* does the job's pattern use job.NAME.ranks? */
static int uses_ranks(enum scn_pattern p)
{
	return p == SCN_JOB_PERMUTATION || p == SCN_JOB_RING_ALLREDUCE || p == SCN_JOB_ALLTOALL ||
	       p == SCN_JOB_TRAINING;
}

/* "a permutation", "a ring-allreduce", "an alltoall" */
static const char *pattern_article(enum scn_pattern p)
{
	switch (p) {
	case SCN_JOB_TRACE:
		return "a trace";
	case SCN_JOB_INCAST:
		return "an incast";
	case SCN_JOB_PERMUTATION:
		return "a permutation";
	case SCN_JOB_RING_ALLREDUCE:
		return "a ring-allreduce";
	case SCN_JOB_ALLTOALL:
		return "an alltoall";
	case SCN_JOB_STORAGE:
		return "a storage job";
	case SCN_JOB_TRAINING:
		return "a training job";
	}
	return "a job";
}

/*
 * The collective's size against its ranks (n of them), so that no flow is
 * empty: ring-allreduce cuts S into channels x n chunks, alltoall sends
 * floor(S / n) to each other rank.
 */
static int check_collective_size(const struct scenario *s, const struct load *ld, int j,
				 uint32_t n, struct scn_error *err)
{
	const struct scn_job *job = &s->jobs[j];
	struct place pl = scn_key_place(s, ld, SEC_JOB, scn_find_key(SEC_JOB, "size"), j);
	int64_t need;
	char a[40];

	units_format_size(job->size_bytes, a, sizeof(a));
	if (job->pattern == SCN_JOB_RING_ALLREDUCE) {
		need = (int64_t)n * job->channels;
		if (job->size_bytes < need)
			return scn_set_error(err, pl,
					     "job.%s.size: %s is below ranks x channels (%" PRIu32
					     " x %" PRIu32 " = %" PRId64 " B)",
					     job->name, a, n, job->channels, need);
	} else if (job->pattern == SCN_JOB_ALLTOALL && job->size_bytes < (int64_t)n) {
		return scn_set_error(err, pl,
				     "job.%s.size: %s is below ranks (%" PRIu32
				     " B: each rank sends floor(size / ranks) to every other rank)",
				     job->name, a, n);
	}
	return 0;
}

/* job.NAME.KEY, a host set of n hosts (walked and checked), into its array */
static int resolve_hostset(const struct scn_job *job, struct scn_hostset *hs, const char *key,
			   uint32_t nhosts, uint32_t exclude, uint32_t n, struct place pl,
			   struct scn_error *err)
{
	char e[200];

	scn_hostset_clear(hs);
	hs->hosts = malloc((size_t)n * sizeof(uint32_t));
	if (!hs->hosts)
		return scn_set_error(err, pl, "job.%s.%s: out of memory", job->name, key);
	scn_hostset_walk(hs->text, nhosts, exclude, hs->hosts, &hs->n, e, sizeof(e));
	return 0;
}

/* a storage job's targets (named) and initiators ("all": every other
 * host): within the topology, and no host both */
static int check_storage(struct scenario *s, const struct load *ld, int j, int resolve,
			 struct scn_error *err)
{
	struct scn_job *job = &s->jobs[j];
	uint32_t nhosts = scenario_hosts(s), n[2] = { 0, 0 };
	struct scn_hostset *hs[2] = { &job->targets, &job->initiators };
	static const char *const key[2] = { "targets", "initiators" };
	uint8_t *is_target = calloc(nhosts, 1);
	uint32_t *hosts = malloc(nhosts * sizeof(*hosts));
	char e[200];
	int rc = 0;

	if (!is_target || !hosts)
		rc = scn_set_error(err, scn_key_place(s, ld, SEC_JOB, -1, j), "job.%s: out of memory",
				   job->name);
	for (int k = 0; k < 2 && !rc; k++) {
		struct place pl = scn_key_place(s, ld, SEC_JOB, scn_find_key(SEC_JOB, key[k]), j);
		int all = !strcmp(hs[k]->text, "all");
		if (all && k == 0) {
			rc = scn_set_error(err, pl,
					   "job.%s.targets: all (name the NVMe-oF targets, e.g. 0-3; "
					   "the initiators default to every other host)",
					   job->name);
			break;
		}
		if (all) { /* every host that is not a target */
			n[1] = 0;
			for (uint32_t h = 0; h < nhosts; h++)
				if (!is_target[h])
					hosts[n[1]++] = h;
		} else if (scn_hostset_walk(hs[k]->text, nhosts, UINT32_MAX, hosts, &n[k], e,
					    sizeof(e))) {
			rc = scn_set_error(err, pl, "job.%s.%s: %s", job->name, key[k], e);
			break;
		}
		if (n[k] == 0) {
			rc = scn_set_error(err, pl, "job.%s.%s: none (at least 1)", job->name, key[k]);
			break;
		}
		for (uint32_t i = 0; !rc && i < n[k]; i++) {
			if (k == 0)
				is_target[hosts[i]] = 1;
			else if (is_target[hosts[i]])
				rc = scn_set_error(err, pl,
						   "job.%s.initiators: h%" PRIu32
						   " is also one of job.%s.targets",
						   job->name, hosts[i], job->name);
		}
		if (!rc && resolve) {
			scn_hostset_clear(hs[k]);
			hs[k]->hosts = malloc((size_t)n[k] * sizeof(uint32_t));
			if (!hs[k]->hosts)
				rc = scn_set_error(err, pl, "job.%s.%s: out of memory", job->name,
						   key[k]);
			else
				memcpy(hs[k]->hosts, hosts, (size_t)n[k] * sizeof(uint32_t));
			hs[k]->n = rc ? 0 : n[k];
		}
	}
	free(is_target);
	free(hosts);
	return rc;
}

/* a training job's keys against each other and its ranks (training.h);
 * the message names the key at fault, at its line */
static int check_training(const struct scenario *s, const struct load *ld, int j, uint32_t n,
			  struct scn_error *err)
{
	const struct scn_job *job = &s->jobs[j];
	struct scn_training tr;
	char e[400], key[32];
	if (!scn_training_dims(job, n, &tr, e, sizeof(e))) {
		uint64_t msgs[SCN_TRAIN_KINDS], bytes[SCN_TRAIN_KINDS];
		scn_training_messages(&tr, job->bucket_bytes, msgs, bytes);
		/* the step's graph (messages, and 4 compute blocks per layer and
		 * micro-batch on every GPU) is indexed by 32 bits */
		double nodes = (double)msgs[SCN_TRAIN_TP] + (double)msgs[SCN_TRAIN_PP] +
			       (double)msgs[SCN_TRAIN_DP] + 4.0 * tr.m * (tr.lps + 1.0) * n;
		if (nodes < 2147483648.0)
			return 0;
		return scn_set_error(err, scn_key_place(s, ld, SEC_JOB, scn_find_key(SEC_JOB, "global_batch"), j),
				     "job.%s.global_batch: a step of %.3g operations (at most 2^31: "
				     "lower global_batch or layers, or raise micro_batch or bucket)",
				     job->name, nodes);
	}
	size_t k = strcspn(e, ":");
	snprintf(key, sizeof(key), "%.*s", (int)(k < sizeof(key) - 1 ? k : sizeof(key) - 1), e);
	int ki = scn_find_key(SEC_JOB, key);
	return scn_set_error(err, scn_key_place(s, ld, SEC_JOB, ki, j), "job.%s.%s", job->name, e);
}

/*
 * The values of job j that depend on the topology: host indices, counts,
 * dst against senders, a trace file given, a collective's size against its
 * ranks.  With resolve, the host sets are expanded into their arrays and
 * the trace file is read.
 */
static int check_job(struct scenario *s, const struct load *ld, int j,
		     int resolve, struct scn_error *err)
{
	struct scn_job *job = &s->jobs[j];
	uint32_t nhosts = scenario_hosts(s), n = 0;
	char e[200];
	struct place pl;
	int ki;

	if (resolve) {
		/* what another pattern resolved (a --set may change the pattern) */
		if (!uses_ranks(job->pattern))
			scn_hostset_clear(&job->ranks);
		if (job->pattern != SCN_JOB_INCAST)
			scn_hostset_clear(&job->senders);
		if (job->pattern != SCN_JOB_STORAGE) {
			scn_hostset_clear(&job->targets);
			scn_hostset_clear(&job->initiators);
		}
		if (job->pattern != SCN_JOB_TRACE) {
			free(job->rows);
			job->rows = NULL;
			job->nrows = 0;
		}
	}
	switch (job->pattern) {
	case SCN_JOB_TRACE:
		if (job->file[0] == '\0')
			return scn_set_error(err, scn_key_place(s, ld, SEC_JOB, -1, j),
					     "job.%s.file: missing (pattern = trace needs a CSV file)",
					     job->name);
		if (resolve)
			return scn_read_trace(job, nhosts, scn_key_place(s, ld, SEC_JOB, -1, j), err);
		return 0;
	case SCN_JOB_INCAST:
		ki = scn_find_key(SEC_JOB, "dst");
		if (job->dst >= nhosts)
			return scn_set_error(err, scn_key_place(s, ld, SEC_JOB, ki, j),
					     "job.%s.dst: %" PRIu32 " out of range (0-%" PRIu32 ")",
					     job->name, job->dst, nhosts - 1);
		ki = scn_find_key(SEC_JOB, "senders");
		pl = scn_key_place(s, ld, SEC_JOB, ki, j);
		switch (scn_hostset_walk(job->senders.text, nhosts, job->dst, NULL, &n, e,
					 sizeof(e))) {
		case 0:
			break;
		case HOSTSET_EXCLUDED:
			return scn_set_error(err, pl,
					     "job.%s.senders: includes job.%s.dst (%" PRIu32 ")",
					     job->name, job->name, job->dst);
		default:
			return scn_set_error(err, pl, "job.%s.senders: %s", job->name, e);
		}
		if (n == 0)
			return scn_set_error(err, pl, "job.%s.senders: no sender (at least 1)",
					     job->name);
		if (resolve)
			return resolve_hostset(job, &job->senders, "senders", nhosts, job->dst, n,
					       pl, err);
		return 0;
	case SCN_JOB_STORAGE:
		return check_storage(s, ld, j, resolve, err);
	case SCN_JOB_PERMUTATION:
	case SCN_JOB_RING_ALLREDUCE:
	case SCN_JOB_ALLTOALL:
	case SCN_JOB_TRAINING:
		ki = scn_find_key(SEC_JOB, "ranks");
		pl = scn_key_place(s, ld, SEC_JOB, ki, j);
		if (scn_hostset_walk(job->ranks.text, nhosts, UINT32_MAX, NULL, &n, e,
				     sizeof(e)))
			return scn_set_error(err, pl, "job.%s.ranks: %s", job->name, e);
		if (job->pattern == SCN_JOB_TRAINING && check_training(s, ld, j, n, err))
			return -1;
		if (n < 2)
			return scn_set_error(err, pl,
					     "job.%s.ranks: %" PRIu32 " host (%s needs at least 2)",
					     job->name, n, pattern_article(job->pattern));
		if (check_collective_size(s, ld, j, n, err))
			return -1;
		if (resolve)
			return resolve_hostset(job, &job->ranks, "ranks", nhosts, UINT32_MAX, n, pl,
					       err);
		return 0;
	}
	return 0;
}

/* ---- the flows of all jobs together ---- */

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

/* a flow count; UINT64_MAX means it saturated */
static void count_text(uint64_t c, char *buf, size_t len)
{
	snprintf(buf, len, "%s%" PRIu64, c == UINT64_MAX ? "at least " : "", c);
}

/*
 * The flows job j generates over all its iterations (docs/model.md#traffic),
 * saturating at UINT64_MAX; with how, the product as messages show it and
 * in *keys what to change.  A host set that does not resolve counts 0 (its
 * own check reports it), and a trace counts the rows read so far (none
 * before finalize).  Ring-allreduce counts every chunk with the slices of
 * the largest one, ceil(S / (channels x n)) bytes: an upper bound, exact
 * when channels x n divides S.
 */
static uint64_t job_flows(const struct scenario *s, const struct scn_job *job, char *how,
			  size_t hlen, const char **keys)
{
	uint32_t nhosts = scenario_hosts(s), n = 0;
	uint64_t it = job->iterations, steps, slices, count;
	int64_t chunk;
	char e[200], a[40], b[40];

	switch (job->pattern) {
	case SCN_JOB_TRACE:
		if (how) {
			snprintf(how, hlen, "iterations %" PRIu64 " x rows %" PRIu32, it,
				 job->nrows);
			*keys = "lower iterations or use fewer rows in file";
		}
		return sat_mul(it, job->nrows);
	case SCN_JOB_INCAST:
		if (scn_hostset_walk(job->senders.text, nhosts, job->dst, NULL, &n, e, sizeof(e)))
			n = 0;
		if (how) {
			snprintf(how, hlen, "iterations %" PRIu64 " x senders %" PRIu32, it, n);
			*keys = "lower iterations or use fewer senders";
		}
		return sat_mul(it, n);
	case SCN_JOB_STORAGE: {
		uint64_t ios = (uint64_t)((job->size_bytes + job->bs_bytes - 1) / job->bs_bytes);
		uint32_t targets = 0;
		if (scn_hostset_walk(job->initiators.text, nhosts, UINT32_MAX, NULL, &n, e,
				     sizeof(e)))
			n = 0;
		/* "all": every host but the targets */
		if (!strcmp(job->initiators.text, "all") &&
		    !scn_hostset_walk(job->targets.text, nhosts, UINT32_MAX, NULL, &targets, e,
				      sizeof(e)))
			n = targets < n ? n - targets : 0;
		if (how) {
			snprintf(how, hlen,
				 "iterations %" PRIu64 " x initiators %" PRIu32
				 " x ceil(size / bs) %" PRIu64 " x 4 messages per I/O",
				 it, n, ios);
			*keys = "lower iterations or size, raise bs, or use fewer initiators";
		}
		return sat_mul(sat_mul(sat_mul(it, n), ios), 4);
	}
	case SCN_JOB_PERMUTATION:
	case SCN_JOB_RING_ALLREDUCE:
	case SCN_JOB_ALLTOALL:
	case SCN_JOB_TRAINING:
		break;
	}
	if (scn_hostset_walk(job->ranks.text, nhosts, UINT32_MAX, NULL, &n, e, sizeof(e)) || n < 2)
		return 0;
	if (job->pattern == SCN_JOB_TRAINING) {
		struct scn_training tr;
		uint64_t msgs[SCN_TRAIN_KINDS], bytes[SCN_TRAIN_KINDS];
		if (scn_training_dims(job, n, &tr, e, sizeof(e)))
			return 0; /* its own check reports it */
		scn_training_messages(&tr, job->bucket_bytes, msgs, bytes);
		count = sat_add(sat_add(msgs[SCN_TRAIN_TP], msgs[SCN_TRAIN_PP]), msgs[SCN_TRAIN_DP]);
		if (how) {
			snprintf(how, hlen, "iterations %" PRIu64 " x messages of a step %" PRIu64,
				 it, count);
			*keys = "lower iterations or global_batch, raise bucket, or use fewer ranks";
		}
		return sat_mul(it, count);
	}
	if (job->pattern == SCN_JOB_PERMUTATION) {
		if (how) {
			snprintf(how, hlen, "iterations %" PRIu64 " x ranks %" PRIu32, it, n);
			*keys = "lower iterations or use fewer ranks";
		}
		return sat_mul(it, n);
	}
	if (job->pattern == SCN_JOB_ALLTOALL) {
		if (how) {
			snprintf(how, hlen,
				 "iterations %" PRIu64 " x ranks %" PRIu32 " x (ranks - 1) %" PRIu32,
				 it, n, n - 1);
			*keys = "lower iterations or use fewer ranks";
		}
		return sat_mul(sat_mul(it, n), n - 1);
	}
	/* ring-allreduce; channels x n <= 64 x 65536 */
	steps = 2 * ((uint64_t)n - 1);
	chunk = job->size_bytes / ((int64_t)job->channels * n) +
		(job->size_bytes % ((int64_t)job->channels * n) != 0);
	slices = (uint64_t)(chunk / job->slice_bytes + (chunk % job->slice_bytes != 0));
	count = sat_mul(sat_mul(sat_mul(sat_mul(it, job->channels), steps), n), slices);
	if (how) {
		units_format_size(chunk, a, sizeof(a));
		units_format_size(job->slice_bytes, b, sizeof(b));
		snprintf(how, hlen,
			 "iterations %" PRIu64 " x channels %" PRIu32 " x 2(ranks - 1) %" PRIu64
			 " x ranks %" PRIu32 " x ceil(chunk %s / slice %s) %" PRIu64,
			 it, job->channels, steps, n, a, b, slices);
		*keys = "lower iterations or channels, raise slice, or use fewer ranks";
	}
	return count;
}

/*
 * All jobs together generate at most MAX_FLOWS flows.  The message names the
 * job with the most flows, at its iterations line (or its header).
 */
int scn_check_flows(const struct scenario *s, const struct load *ld, struct scn_error *err)
{
	uint64_t total = 0, most = 0, c;
	uint32_t j, wj = 0;
	const char *keys = "";
	char how[300], tc[40], mc[40];

	for (j = 0; j < s->njobs; j++) {
		c = job_flows(s, &s->jobs[j], NULL, 0, NULL);
		total = sat_add(total, c);
		if (c > most) {
			most = c;
			wj = j;
		}
	}
	if (total <= MAX_FLOWS)
		return 0;
	job_flows(s, &s->jobs[wj], how, sizeof(how), &keys);
	count_text(most, mc, sizeof(mc));
	count_text(total, tc, sizeof(tc));
	/* the message names job.NAME.iterations only where the file gives it;
	 * otherwise it is the job's, on its [job.NAME] line */
	int ki = scn_find_key(SEC_JOB, "iterations");
	int given = ld && line_at(ld, SEC_JOB, (int)wj, ki) > 0;
	return scn_set_error(err, scn_key_place(s, ld, SEC_JOB, ki, (int)wj),
			     "job.%s%s: too many flows: job %s makes %s (%s), all jobs %s, at most %" PRIu64
			     " (%s)",
			     s->jobs[wj].name, given ? ".iterations" : "", s->jobs[wj].name, mc, how,
			     tc, MAX_FLOWS, keys);
}

/* job.NAME.straggler names hosts of the topology that send in the job
 * (its ranks, senders or trace rows' src; checked once they are resolved) */
static int check_stragglers(const struct scenario *s, const struct load *ld, int j,
			    int resolve, struct scn_error *err)
{
	const struct scn_job *job = &s->jobs[j];
	const struct scn_stragglers *st = &job->stragglers;
	struct place pl = scn_key_place(s, ld, SEC_JOB, scn_find_key(SEC_JOB, "straggler"), j);
	uint32_t nhosts = scenario_hosts(s);

	for (uint32_t i = 0; i < st->n; i++) {
		uint32_t h = st->host[i];
		int sends = 0;
		if (h >= nhosts)
			return scn_set_error(err, pl,
					     "job.%s.straggler: h%" PRIu32 " out of range (h0-h%" PRIu32 ")",
					     job->name, h, nhosts - 1);
		if (!resolve)
			continue;
		if (job->pattern == SCN_JOB_TRACE) {
			for (uint32_t r = 0; r < job->nrows && !sends; r++)
				sends = job->rows[r].src == h;
		} else {
			const struct scn_hostset *hs =
				job->pattern == SCN_JOB_INCAST	   ? &job->senders
				: job->pattern == SCN_JOB_STORAGE ? &job->initiators
								    : &job->ranks;
			for (uint32_t k = 0; k < hs->n && !sends; k++)
				sends = hs->hosts[k] == h;
		}
		if (!sends)
			return scn_set_error(err, pl,
					     "job.%s.straggler: h%" PRIu32 " sends nothing in job %s",
					     job->name, h, job->name);
	}
	return 0;
}

/* job j: its own keys against each other and the topology, then its stragglers */
int scn_check_job(struct scenario *s, const struct load *ld, int j, int resolve,
		  struct scn_error *err)
{
	if (check_job(s, ld, j, resolve, err))
		return -1;
	return check_stragglers(s, ld, j, resolve, err);
}
