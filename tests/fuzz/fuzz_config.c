/*
 * fuzz_config.c - a libFuzzer harness for the configuration importers
 * (config.h): the input is read as a SONiC config_db.json and, separately,
 * as mlx5 cc_params, each onto the embedded default.  Each must load, or
 * fail with one line of text that names the file; a loaded scenario must
 * finalize or fail the same way, and a finalized one exports.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "models/scenario/configs/config.h"
#include "models/scenario/scenario.h"

static void one(const char *path, int sonic, const char *export_dir)
{
	struct scenario *s = malloc(sizeof(*s));
	struct scn_error err = { { 0 } };
	if (!s)
		abort();
	scenario_init(s);
	int rc = scenario_load_string(s, SCENARIO_DEFAULT_NAME, scenario_default_text, &err);
	if (rc)
		fuzz_fail("the embedded default does not load", err.msg);
	rc = sonic ? scenario_import_sonic(s, path, NULL, &err)
		   : scenario_import_mlx5(s, path, NULL, &err);
	if (rc && (!err.msg[0] || strchr(err.msg, '\n') || !strstr(err.msg, path)))
		fuzz_fail("an import message that is empty, not one line or without the file",
			  err.msg);
	if (rc == 0 && scenario_finalize(s, &err) == 0) {
		char why[1024];
		if (scenario_export(s, export_dir, NULL, why, sizeof(why)))
			fuzz_fail("a scenario that loads does not export", why);
	} else if (rc == 0 && (!err.msg[0] || strchr(err.msg, '\n'))) {
		fuzz_fail("a message that is empty or not one line", err.msg);
	}
	scenario_free(s);
	free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64], dir[64];
	if (!path[0]) {
		snprintf(path, sizeof(path), "/tmp/dcqcn-fuzz-config-%ld.json", (long)getpid());
		snprintf(dir, sizeof(dir), "/tmp/dcqcn-fuzz-export-%ld", (long)getpid());
	}
	FILE *fp = fopen(path, "wb");
	if (!fp)
		abort();
	if (size && fwrite(data, 1, size, fp) != size)
		abort();
	if (fclose(fp))
		abort();
	one(path, 1, dir);
	one(path, 0, dir);
	unlink(path);
	static const char *const files[] = { "config_db.json", "cc_params.txt", "nic-setup.sh",
					     "nccl.env" };
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char f[160];
		snprintf(f, sizeof(f), "%s/%s", dir, files[i]);
		unlink(f);
	}
	rmdir(dir);
	return 0;
}
