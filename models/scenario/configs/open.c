/*
 * open.c - a scenario from all of its inputs (struct scenario_inputs,
 * scenario.h): the scenario file or the embedded default, then the switch
 * and NIC configurations (sonic.c, mlx5.c), then the --set assignments, in
 * that order; scenario_open() finalizes the result on the heap and
 * scenario_close() frees it.
 *
 * It sits above the loader: it reads the file and applies the sets
 * through read.c (loader.h) and the configurations through config.h, so
 * that the loader itself never calls into configs/.
 */
#include "models/scenario/configs/config.h"
#include "models/scenario/loader.h"

#include <stdio.h>
#include <stdlib.h>

int scenario_load_inputs(struct scenario *s, const struct scenario_inputs *in,
			 struct scn_error *err)
{
	int rc = 0;

	if (in->fabric) {
		char set[64];
		snprintf(set, sizeof(set), "fabric.type=%s", in->fabric);
		rc = scenario_set(s, set, err);
	}
	if (rc == 0)
		rc = in->path && in->text ? scn_load_text(s, in->path, in->text, err, in)
		     : in->path	       ? scn_load_path(s, in->path, err, in)
			: scn_load_text(s, SCENARIO_DEFAULT_NAME, scenario_default_text, err, in);
	if (rc == 0 && in->switch_config)
		rc = scenario_import_sonic_text(s, in->switch_config, in->switch_text, in->log,
						err);
	if (rc == 0 && in->nic_config)
		rc = scenario_import_mlx5_text(s, in->nic_config, in->nic_text, in->log, err);
	for (int i = 0; rc == 0 && i < in->nsets; i++)
		rc = scn_set_one(s, in->sets[i], err, in);
	return rc;
}

struct scenario *scenario_open(const struct scenario_inputs *in, struct scn_error *err)
{
	struct scenario *s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err->msg, sizeof(err->msg), "out of memory");
		return NULL;
	}
	scenario_init(s);
	int rc = scenario_load_inputs(s, in, err);
	if (rc == 0)
		rc = scenario_finalize(s, err);
	if (rc) {
		scenario_close(s);
		return NULL;
	}
	return s;
}

void scenario_close(struct scenario *s)
{
	if (s) {
		scenario_free(s);
		free(s);
	}
}
