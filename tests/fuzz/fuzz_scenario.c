/*
 * fuzz_scenario.c - a libFuzzer harness for the scenario loader (INI text
 * and --set assignments), with the print-reload round trip as its oracle.
 *
 * Input: INI text; after a line "%%", one --set assignment per line.  The
 * text is loaded, the assignments applied, the scenario finalized.  Then:
 *   - it fails with one line of text naming the place (never empty);
 *   - or it loads, and what scenario_print() writes loads back, and prints
 *     the same bytes again.
 * A broken oracle aborts, which libFuzzer reports as a crash and the corpus
 * replay (replay.c) as a failed test.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "models/scenario/scenario.h"

/* the scenario printed into a heap buffer (the caller frees it) */
static char *print_of(const struct scenario *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	if (!fp)
		abort();
	scenario_print(s, fp);
	if (fclose(fp))
		abort();
	return buf;
}

/* a message: not empty, one line */
static void check_message(const struct scn_error *err)
{
	if (!err->msg[0] || strchr(err->msg, '\n'))
		fuzz_fail("a message that is empty or not one line", err->msg);
}

/* text loaded and finalized; NULL (message checked) when it is refused */
static struct scenario *load(const char *name, const char *text, char *sets)
{
	struct scenario *s = malloc(sizeof(*s));
	struct scn_error err = { { 0 } };
	if (!s)
		abort();
	scenario_init(s);
	int rc = scenario_load_string(s, name, text, &err);
	for (char *line = sets; rc == 0 && line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (*line)
			rc = scenario_set(s, line, &err);
		line = nl ? nl + 1 : NULL;
	}
	if (rc == 0)
		rc = scenario_finalize(s, &err);
	if (rc) {
		check_message(&err);
		scenario_free(s);
		free(s);
		return NULL;
	}
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	char *sets = strstr(text, "\n%%\n");
	if (sets) {
		*sets = '\0';
		sets += 4;
	}
	struct scenario *s = load("fuzz.ini", text, sets);
	if (s) {
		char *first = print_of(s);
		struct scenario *again = load("fuzz.ini", first, NULL);
		if (!again)
			fuzz_fail("a printed scenario does not load back", first);
		char *second = print_of(again);
		if (strcmp(first, second))
			fuzz_fail("a printed scenario prints differently when reloaded", first);
		free(first);
		free(second);
		scenario_free(again);
		free(again);
		scenario_free(s);
		free(s);
	}
	free(text);
	return 0;
}
