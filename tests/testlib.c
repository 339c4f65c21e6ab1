/*
 * testlib.c - helpers shared by the Check suites (testlib.h).
 */
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>

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
