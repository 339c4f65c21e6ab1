/*
 * testlib.c - helpers shared by the Check suites (testlib.h).
 */
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric.h"
#include "scenario.h"

struct scenario *tl_load(const char *text)
{
	return tl_load_set(text, NULL);
}

struct scenario *tl_load_set(const char *text, const char *const *sets)
{
	struct scenario *s = calloc(1, sizeof(*s));
	struct scn_error err = {{0}};
	ck_assert_ptr_nonnull(s);
	scenario_init(s);
	int rc = scenario_load_string(s, "test.ini", text, &err);
	for (int i = 0; rc == 0 && sets && sets[i]; i++)
		rc = scenario_set(s, sets[i], &err);
	if (rc == 0)
		rc = scenario_finalize(s, &err);
	ck_assert_msg(rc == 0, "scenario rejected: %s\n%s", err.msg, text);
	return s;
}

void tl_unload(struct scenario *s)
{
	scenario_free(s);
	free(s);
}

struct fabric *tl_build(const struct scenario *s)
{
	const char *why = NULL;
	struct fabric *f = fabric_create(s, &why);
	ck_assert_msg(f != NULL, "fabric: %s", why ? why : "?");
	return f;
}

void tl_conserved(struct fabric *f)
{
	uint64_t in_flight = 0;
	ck_assert_msg(fabric_check_conservation(f, &in_flight) == 0, "%s", f->err);
}

char *tl_slurp(const char *dir, const char *name)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *fp = fopen(path, "rb");
	ck_assert_msg(fp != NULL, "%s missing", path);
	fseek(fp, 0, SEEK_END);
	long n = ftell(fp);
	rewind(fp);
	char *b = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(b);
	ck_assert_uint_eq(fread(b, 1, (size_t)n, fp), (size_t)n);
	b[n] = '\0';
	fclose(fp);
	return b;
}

int tl_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

static void log_flow(void *ctx, const struct fabric *f, const struct flow *fl)
{
	struct tl_log *log = ctx;
	(void)f;
	if (log->nflows == log->cap) {
		log->cap = log->cap ? 2 * log->cap : 256;
		log->flows = realloc(log->flows, log->cap * sizeof(*log->flows));
		ck_assert_ptr_nonnull(log->flows);
	}
	log->flows[log->nflows++] = (struct tl_flow){
		.id = fl->id, .job = fl->job, .iter = fl->iter, .src = fl->src, .dst = fl->dst,
		.bytes = fl->bytes, .rx_bytes = fl->rx_bytes, .start_ps = fl->start_ps,
		.end_ps = fl->end_ps,
	};
}

static void log_coll(void *ctx, const struct fabric *f, const struct coll *c)
{
	struct tl_log *log = ctx;
	(void)f;
	ck_assert_uint_lt(log->ncolls, sizeof(log->colls) / sizeof(log->colls[0]));
	log->colls[log->ncolls++] = *c;
}

void tl_log_attach(struct fabric *f, struct tl_log *log)
{
	memset(log, 0, sizeof(*log));
	f->hooks.ctx = log;
	f->hooks.flow_done = log_flow;
	f->hooks.coll_done = log_coll;
}

void tl_log_free(struct tl_log *log)
{
	free(log->flows);
	memset(log, 0, sizeof(*log));
}

const struct tl_flow *tl_log_flow(const struct tl_log *log, uint64_t id)
{
	for (size_t i = 0; i < log->nflows; i++)
		if (log->flows[i].id == id)
			return &log->flows[i];
	ck_abort_msg("message %llu did not complete", (unsigned long long)id);
	return NULL;
}

struct job_sum {
	const struct fabric *f;
	const char *name;
	int64_t bytes;
};

static void sum_unfinished(void *ctx, const struct flow *fl)
{
	struct job_sum *js = ctx;
	if (!strcmp(js->f->scn->jobs[fl->job].name, js->name))
		js->bytes += fl->rx_bytes;
}

int64_t tl_job_rx_bytes(const struct fabric *f, const struct tl_log *log, const char *name)
{
	struct job_sum js = { .f = f, .name = name };
	for (size_t i = 0; i < log->nflows; i++)
		if (!strcmp(f->scn->jobs[log->flows[i].job].name, name))
			js.bytes += log->flows[i].rx_bytes;
	ck_assert_int_eq(fabric_unfinished(f, sum_unfinished, &js), 0);
	return js.bytes;
}

const struct flow *tl_live(const struct fabric *f, uint64_t id)
{
	const struct flow *fl = fabric_flow(f, id);
	ck_assert_msg(fl != NULL, "message %llu is not in the fabric", (unsigned long long)id);
	return fl;
}
