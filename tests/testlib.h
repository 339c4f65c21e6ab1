/*
 * testlib.h - what the Check suites share: building a scenario from text,
 * a fabric from a scenario, the conservation check, and running a suite.
 */
#ifndef DCQCN_TESTLIB_H
#define DCQCN_TESTLIB_H

#include <check.h>

struct scenario;
struct fabric;

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

#endif
