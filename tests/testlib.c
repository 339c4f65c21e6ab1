/*
 * testlib.c - helpers shared by the Check suites (testlib.h).
 */
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "models/fabric/fabric.h"
#include "models/scenario/scenario.h"

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
	return tl_build_on(s, 1);
}

struct fabric *tl_build_on(const struct scenario *s, unsigned threads)
{
	const char *why = NULL;
	struct fabric *f = fabric_create(s, threads, &why);
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

static void log_flow(void *ctx, const struct fabric *f, unsigned part, const struct flow *fl)
{
	struct tl_log *log = ctx;
	(void)f;
	(void)part;
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
	ck_assert_msg(f->nparts == 1, "the log records one partition's messages");
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

struct net_stats tl_stats(const struct fabric *f)
{
	struct net_stats st;
	fabric_stats(f, &st);
	return st;
}

const struct flow *tl_live(const struct fabric *f, uint64_t id)
{
	const struct flow *fl = fabric_flow(f, id);
	ck_assert_msg(fl != NULL, "message %llu is not in the fabric", (unsigned long long)id);
	return fl;
}

/* ---- the scenario loader's suites ---- */

struct scenario *tl_scn_new(void)
{
	struct scenario *s = malloc(sizeof(*s));

	ck_assert_ptr_nonnull(s);
	scenario_init(s);
	return s;
}

struct scenario *tl_scn_try(const char *text, struct scn_error *err)
{
	struct scenario *s = tl_scn_new();

	if (scenario_load_string(s, "x.ini", text, err) || scenario_finalize(s, err)) {
		tl_unload(s);
		return NULL;
	}
	return s;
}

struct scenario *tl_scn_ok(const char *text)
{
	struct scn_error err = { "" };
	struct scenario *s = tl_scn_try(text, &err);

	ck_assert_msg(s != NULL, "unexpected error: %s", err.msg);
	return s;
}

void tl_check_case(const struct tl_case *c)
{
	struct scenario *s = tl_scn_new();
	struct scn_error err = { "" };
	int rc = 0;

	if (c->text) {
		rc = scenario_load_string(s, "x.ini", c->text, &err);
		if (c->set)
			ck_assert_msg(rc == 0, "load: %s", err.msg);
	}
	if (rc == 0 && c->set)
		rc = scenario_set(s, c->set, &err);
	if (rc == 0)
		rc = scenario_finalize(s, &err);
	if (!c->msg) {
		ck_assert_msg(rc == 0, "unexpected error: %s\n%s%s", err.msg,
			      c->text ? c->text : "", c->set ? c->set : "");
	} else {
		ck_assert_msg(rc == -1, "accepted, expected %s", c->msg);
		ck_assert_msg(strncmp(err.msg, c->msg, strlen(c->msg)) == 0,
			      "message \"%s\" does not start with \"%s\"", err.msg, c->msg);
		ck_assert_msg(strchr(err.msg, '\n') == NULL, "message has a newline: %s", err.msg);
	}
	tl_unload(s);
}

void tl_check_values(const struct tl_values *c)
{
	struct scenario *s = tl_scn_ok(c->text);
	const struct tl_field *f;
	int64_t got = 0;

	for (f = c->fields; f < c->fields + sizeof(c->fields) / sizeof(c->fields[0]) && f->size;
	     f++) {
		const char *p = (const char *)s + f->off;

		if (f->size == 1) {
			uint8_t x;
			memcpy(&x, p, 1);
			got = x;
		} else if (f->size == 4) {
			int32_t x;
			memcpy(&x, p, 4);
			got = x;
		} else {
			ck_assert_uint_eq(f->size, 8);
			memcpy(&got, p, 8);
		}
		ck_assert_msg(got == f->want, "%s: %lld, expected %lld\n%s", f->name, (long long)got,
			      (long long)f->want, c->text);
	}
	tl_unload(s);
}

static char *print_with(void (*print)(const struct scenario *, FILE *), const struct scenario *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	print(s, f);
	fclose(f);
	return buf;
}

char *tl_print(const struct scenario *s)
{
	return print_with(scenario_print, s);
}

char *tl_print_derived(const struct scenario *s)
{
	return print_with(scenario_print_derived, s);
}

void tl_write_temp(char dir[64], char path[128], const char *name, const char *content)
{
	FILE *f;

	strcpy(dir, "/tmp/test_scenario_XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, 128, "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(content, f);
	fclose(f);
}

void tl_remove_temp(const char *dir, const char *path)
{
	unlink(path);
	rmdir(dir);
}
