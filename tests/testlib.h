/*
 * testlib.h - what the Check suites share: building a scenario from text,
 * a fabric from a scenario, the conservation check, and running a suite.
 */
#ifndef DCQCN_TESTLIB_H
#define DCQCN_TESTLIB_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include "traffic.h"
#include "units.h"

struct scenario;
struct fabric;
struct flow;

/* a finalized scenario from INI text (named test.ini); fails the test with
 * the loader's message otherwise */
struct scenario *tl_load(const char *text);
/* the same after the --set assignments in sets (NULL-terminated) */
struct scenario *tl_load_set(const char *text, const char *const *sets);
void tl_unload(struct scenario *s);
struct fabric *tl_build(const struct scenario *s);
/* fails the test unless the fabric conserves bytes and packets */
void tl_conserved(struct fabric *f);
/* the text of DIR/NAME (the caller frees it) */
char *tl_slurp(const char *dir, const char *name);
/* run a suite (CK_NORMAL) and return the process exit status */
int tl_run(Suite *s);

/* what a fabric completed, recorded through its flow_done and coll_done
 * hooks (messages are released once acknowledged, so a test that looks at
 * them after the fact keeps this log) */
struct tl_flow {
	uint64_t id;
	uint32_t job, iter, src, dst;
	int64_t bytes, rx_bytes;
	sim_time_ps start_ps, end_ps;
};
struct tl_log {
	struct tl_flow *flows;
	size_t nflows, cap;
	struct coll colls[512];
	size_t ncolls;
};
/* set f's flow_done and coll_done hooks (and hooks.ctx) to fill log */
void tl_log_attach(struct fabric *f, struct tl_log *log);
void tl_log_free(struct tl_log *log);
/* a completed message by id (fails the test when it did not complete) */
const struct tl_flow *tl_log_flow(const struct tl_log *log, uint64_t id);
/* payload delivered to the messages of job `name`: completed ones from the
 * log, those still in progress from the fabric */
int64_t tl_job_rx_bytes(const struct fabric *f, const struct tl_log *log, const char *name);
/* a message the fabric still holds (fails the test when it does not) */
const struct flow *tl_live(const struct fabric *f, uint64_t id);

#endif
