/*
 * keys.c - `dcqcn-sim keys [SECTION]`: every scenario key, its default,
 * meaning, values and where it applies (models/scenario/keyhelp.h).
 */
#include <stdio.h>

#include "models/scenario/keyhelp.h"
#include "sim/cli/cli.h"

static const struct cli_opt keys_opts[] = {
	{ 0 },
};

/* the one SECTION (keys_main refuses a second before parsing) */
static int keys_arg(void *dst, const char *a)
{
	*(const char **)dst = a;
	return 0;
}

/* keys [SECTION] */
static int keys_main(int argc, char **argv)
{
	const char *section = NULL;
	char err[1024];
	if (argc > 3)
		return cli_usage_error("keys takes at most one SECTION (extra argument %s)",
				       argv[3]);
	int rc = cli_parse(&cli_cmd_keys, argc, argv, (void *)&section, keys_arg);
	if (rc)
		return rc;
	if (scenario_print_keys(stdout, section, err, sizeof(err)))
		return cli_usage_error("keys: %s", err);
	return 0;
}

const struct cli_command cli_cmd_keys = {
	.name = "keys",
	.usage = "usage: dcqcn-sim keys [SECTION]\n"
		 "\n"
		 "Every key a scenario file or --set can name, section by section: its default,\n"
		 "its meaning, the values it takes and where it applies (a key of another\n"
		 "topology kind, job pattern or fault kind is an error).  SECTION (sim,\n"
		 "topology, qos, nic, job, buffer, pfc, pfcwd, ecn, dcqcn, fault, output,\n"
		 "criteria) lists that section only.\n"
		 "\n",
	.opts = keys_opts,
	.tail = "\n"
		"Exit status: 0; 2 an unknown SECTION.\n",
	.main = keys_main,
};
