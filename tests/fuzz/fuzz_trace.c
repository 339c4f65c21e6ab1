/*
 * fuzz_trace.c - a libFuzzer harness for the trace reader: the input is a
 * trace CSV, read as job.t.file of an 8-host star.  It must load, or fail
 * with one line of text; a loaded trace's scenario prints and reloads.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "models/scenario/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	if (!path[0])
		snprintf(path, sizeof(path), "/tmp/dcqcn-fuzz-trace-%ld.csv", (long)getpid());
	FILE *fp = fopen(path, "wb");
	if (!fp)
		abort();
	if (size && fwrite(data, 1, size, fp) != size)
		abort();
	if (fclose(fp))
		abort();
	char text[256];
	snprintf(text, sizeof(text),
		 "[topology]\nkind = star\nhosts = 8\n[job.t]\npattern = trace\nfile = %s\n", path);
	struct scenario *s = malloc(sizeof(*s));
	struct scn_error err = { { 0 } };
	if (!s)
		abort();
	scenario_init(s);
	int rc = scenario_load_string(s, "fuzz.ini", text, &err);
	if (rc == 0)
		rc = scenario_finalize(s, &err);
	if (rc && (!err.msg[0] || strchr(err.msg, '\n')))
		fuzz_fail("a message that is empty or not one line", err.msg);
	scenario_free(s);
	free(s);
	unlink(path);
	return 0;
}
