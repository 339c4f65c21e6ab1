/*
 * carry.h - the inputs a run directory carries (carry.c): trace files and
 * the links file, copied beside scenario.ini.
 */
#ifndef DCQCN_RUN_CARRY_H
#define DCQCN_RUN_CARRY_H

#include <stddef.h>

struct scenario;

/*
 * A run directory carries its traces and links file: each trace job's CSV
 * is copied to DIR/traces/JOB.csv and topology.file to DIR/topology.csv,
 * and *shown is a copy of scn that names those files relatively, or scn
 * itself when there is none (release the copy with free(), never
 * scenario_free()).  0, or -1 with err set.
 */
int output_carry_traces(const struct scenario *scn, const char *dir, const struct scenario **shown,
			char *err, size_t errlen);

#endif
