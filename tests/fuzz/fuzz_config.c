/*
 * fuzz_config.c - a libFuzzer harness for the configuration importers
 * (config.h): the input is read as a SONiC config_db.json and, separately,
 * as mlx5 cc_params, each onto the embedded default.  Each must load, or
 * fail with one line of text that names the file; a loaded scenario must
 * finalize or fail the same way, and a finalized one exports.  The export
 * is a fixpoint: its files imported onto the embedded default export the
 * same files again (config_db.json, cc_params.txt, nccl.env).
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

static const char *const export_files[] = { "config_db.json", "cc_params.txt", "nic-setup.sh",
					    "nccl.env", "changes.txt", "config_db.patch.json" };

/* the embedded default, loaded; aborts when it does not load */
static struct scenario *load_default(void)
{
	struct scenario *s = malloc(sizeof(*s));
	struct scn_error err = { { 0 } };
	if (!s)
		abort();
	scenario_init(s);
	if (scenario_load_string(s, SCENARIO_DEFAULT_NAME, scenario_default_text, &err))
		fuzz_fail("the embedded default does not load", err.msg);
	return s;
}

static void unload(struct scenario *s)
{
	scenario_free(s);
	free(s);
}

/* the text of DIR/NAME (free it), NULL when there is none */
static char *slurp(const char *dir, const char *name)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return NULL;
	size_t cap = 1 << 16, len = 0, got;
	char *buf = malloc(cap + 1);
	while (buf && (got = fread(buf + len, 1, cap - len, fp)) > 0)
		if ((len += got) == cap) {
			char *nb = realloc(buf, (cap *= 2) + 1);
			if (!nb)
				free(buf);
			buf = nb;
		}
	fclose(fp);
	if (!buf)
		abort();
	buf[len] = '\0';
	return buf;
}

static void remove_export(const char *dir)
{
	for (size_t i = 0; i < sizeof(export_files) / sizeof(export_files[0]); i++) {
		char f[256];
		snprintf(f, sizeof(f), "%s/%s", dir, export_files[i]);
		unlink(f);
	}
	rmdir(dir);
}

/* dir's export imported onto the embedded default exports the same files
 * into again */
static void fixpoint(const char *dir, const char *again)
{
	static const char *const same[] = { "config_db.json", "cc_params.txt", "nccl.env" };
	struct scenario *s = load_default();
	struct scn_error err = { { 0 } };
	char sw[256], nic[256], why[1024];
	snprintf(sw, sizeof(sw), "%s/config_db.json", dir);
	snprintf(nic, sizeof(nic), "%s/cc_params.txt", dir);
	if (scenario_import_sonic(s, sw, NULL, &err) ||
	    (access(nic, F_OK) == 0 && scenario_import_mlx5(s, nic, NULL, &err)) ||
	    scenario_finalize(s, &err))
		fuzz_fail("an export does not import onto the scenario it came from", err.msg);
	if (scenario_export(s, again, NULL, why, sizeof(why)))
		fuzz_fail("an imported export does not export", why);
	unload(s);
	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		char *a = slurp(dir, same[i]), *b = slurp(again, same[i]);
		if ((a == NULL) != (b == NULL) || (a && strcmp(a, b)))
			fuzz_fail("the export imported and exported again differs", same[i]);
		free(a);
		free(b);
	}
	remove_export(again);
}

static void one(const char *path, int sonic, const char *export_dir, const char *again)
{
	struct scenario *s = load_default();
	struct scn_error err = { { 0 } };
	int rc = sonic ? scenario_import_sonic(s, path, NULL, &err)
		       : scenario_import_mlx5(s, path, NULL, &err);
	if (rc && (!err.msg[0] || strchr(err.msg, '\n') || !strstr(err.msg, path)))
		fuzz_fail("an import message that is empty, not one line or without the file",
			  err.msg);
	if (rc == 0 && scenario_finalize(s, &err) == 0) {
		char why[1024];
		if (scenario_export(s, export_dir, NULL, why, sizeof(why)))
			fuzz_fail("a scenario that loads does not export", why);
		unload(s);
		fixpoint(export_dir, again);
		remove_export(export_dir);
		return;
	} else if (rc == 0 && (!err.msg[0] || strchr(err.msg, '\n'))) {
		fuzz_fail("a message that is empty or not one line", err.msg);
	}
	unload(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64], dir[64], again[64];
	if (!path[0]) {
		snprintf(path, sizeof(path), "/tmp/dcqcn-fuzz-config-%ld.json", (long)getpid());
		snprintf(dir, sizeof(dir), "/tmp/dcqcn-fuzz-export-%ld", (long)getpid());
		snprintf(again, sizeof(again), "/tmp/dcqcn-fuzz-again-%ld", (long)getpid());
	}
	FILE *fp = fopen(path, "wb");
	if (!fp)
		abort();
	if (size && fwrite(data, 1, size, fp) != size)
		abort();
	if (fclose(fp))
		abort();
	one(path, 1, dir, again);
	one(path, 0, dir, again);
	unlink(path);
	return 0;
}
