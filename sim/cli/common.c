/*
 * common.c - what several commands share: the fabric types by name, the
 * scenario as run, check and fluid load it, and the default output folder.
 */
#include <stdio.h>
#include <string.h>

#include "models/scenario/scenario.h"
#include "sim/cli/cli.h"

int cli_fabric_index(const char *name)
{
	for (int i = 0; i < SCN_FABRIC_COUNT; i++)
		if (!strcmp(name, scenario_fabric_names[i]))
			return i;
	return -1;
}

struct scenario *cli_load(const char *path, const struct cli_sets *sets,
			  const char *switch_config, const char *nic_config, const char *fabric,
			  int quiet)
{
	/* the configurations say what they set on stderr: check's stdout
	 * stays a scenario that loads back */
	struct scenario_inputs in = { .path = path, .switch_config = switch_config,
				      .nic_config = nic_config, .sets = sets->v,
				      .nsets = sets->n, .log = quiet ? NULL : stderr,
				      .fabric = fabric };
	struct scn_error err = {{0}};
	struct scenario *s = scenario_open(&in, &err);
	if (!s)
		fprintf(stderr, "%s\n", err.msg);
	return s;
}

void cli_out_dir(const char *out_dir, const char *scenario, const char *suffix, char *buf,
		 size_t len)
{
	if (out_dir) {
		snprintf(buf, len, "%s", out_dir);
		return;
	}
	const char *base = scenario ? strrchr(scenario, '/') : NULL;
	base = base ? base + 1 : scenario ? scenario : "default";
	size_t n = strlen(base);
	if (n > 4 && !strcmp(base + n - 4, ".ini"))
		n -= 4;
	snprintf(buf, len, "results/%.*s%s", (int)n, base, suffix);
}
