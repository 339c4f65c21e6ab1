/*
 * testlib.h - what the Check suites share: building a scenario from text,
 * a fabric from a scenario, the conservation check, and running a suite;
 * for the scenario loader's suites, cases of text and --set with the
 * message they must give, as tables.
 */
#ifndef DCQCN_TESTLIB_H
#define DCQCN_TESTLIB_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include "models/base/units.h"
#include "models/node/net.h"
#include "models/workload/traffic.h"

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
/* the same on `threads` threads (0: the scenario's sim.threads) */
struct fabric *tl_build_on(const struct scenario *s, unsigned threads);
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
/* the counters of the whole fabric (fabric_stats) */
struct net_stats tl_stats(const struct fabric *f);
/* a message the fabric still holds (fails the test when it does not) */
const struct flow *tl_live(const struct fabric *f, uint64_t id);
/*
 * The scenario loader's suites (test_scenario_*.c): text is loaded as
 * "x.ini", so messages start "x.ini:LINE: ".
 */
struct scn_error;

/* scenario_init() on the heap (struct scenario is large); free: tl_unload */
struct scenario *tl_scn_new(void);
/* text loaded and finalized, or NULL with the message in err */
struct scenario *tl_scn_try(const char *text, struct scn_error *err);
/* text loaded and finalized; fails the test otherwise */
struct scenario *tl_scn_ok(const char *text);
/*
 * One case of the loader: text (if not NULL) is loaded, then the --set
 * assignment set (if not NULL) applied, then the scenario finalized.  With
 * msg NULL every step must succeed; else one must fail with a one-line
 * message that starts with msg (with set, the text itself must load).
 */
struct tl_case {
	const char *text;
	const char *set;
	const char *msg;
};
void tl_check_case(const struct tl_case *c);
/* scenario_print() and scenario_print_derived() into a string (free it) */
char *tl_print(const struct scenario *s);
char *tl_print_derived(const struct scenario *s);
/* a temporary folder with one file of that content; its path into path */
void tl_write_temp(char dir[64], char path[128], const char *name, const char *content);
void tl_remove_temp(const char *dir, const char *path);

/* a field of struct scenario (TL_FIELD(mtu_bytes, 4096)) and its value */
struct tl_field {
	const char *name;
	size_t off, size;
	int64_t want;
};
#define TL_FIELD(f, v) \
	{ #f, offsetof(struct scenario, f), sizeof(((struct scenario *)0)->f), (v) }
/* text that must load and finalize to these values (the rest of fields[]
 * zero); a 4-byte field is compared as an int32_t */
struct tl_values {
	const char *text;
	struct tl_field fields[16];
};
void tl_check_values(const struct tl_values *c);

/* a loop test over the table NAME_cases of struct tl_case or struct
 * tl_values (TL_VALUES_TEST), and its adding */
#define TL_CASES_TEST(name)                               \
	START_TEST(name)                                  \
	{                                                 \
		tl_check_case(&name##_cases[_i]);         \
	}                                                 \
	END_TEST
#define TL_VALUES_TEST(name)                              \
	START_TEST(name)                                  \
	{                                                 \
		tl_check_values(&name##_cases[_i]);       \
	}                                                 \
	END_TEST
#define TL_ADD_CASES(tc, name) \
	tcase_add_loop_test(tc, name, 0, (int)(sizeof(name##_cases) / sizeof(name##_cases[0])))

#endif
