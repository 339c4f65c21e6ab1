/*
 * carry.c - what a run directory carries besides its outputs: the trace
 * jobs' CSV files and the links file of topology.file, copied in so that
 * the directory can be moved and run again (docs/outputs.md); output.c
 * calls it when it writes scenario.ini.
 */
#include "sim/run/carry.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "models/base/files.h"
#include "models/scenario/scenario.h"
#include "sim/run/output.h"

/* copy src to dst (unless they are one file: a run of DIR/scenario.ini
 * into DIR itself); 0 or -1 with err set */
static int copy_file(const char *src, const char *dst, char *err, size_t errlen)
{
	struct stat a, b;
	if (!stat(src, &a) && !stat(dst, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		return 0;
	FILE *in = fopen(src, "rb");
	if (!in) {
		snprintf(err, errlen, "%s: cannot read: %s", src, strerror(errno));
		return -1;
	}
	FILE *out = fopen(dst, "wb");
	if (!out) {
		snprintf(err, errlen, "%s: cannot write: %s", dst, strerror(errno));
		fclose(in);
		return -1;
	}
	char buf[65536];
	size_t n;
	int bad = 0;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		bad |= fwrite(buf, 1, n, out) != n;
	bad |= ferror(in);
	fclose(in);
	bad |= file_close(out) != 0;
	if (bad)
		snprintf(err, errlen, "%s: copying %s failed: %s", dst, src,
			 errno ? strerror(errno) : "write error");
	return bad ? -1 : 0;
}

/*
 * A run directory carries its traces and links file: each trace job's CSV
 * is copied to DIR/traces/JOB.csv and topology.file to DIR/topology.csv,
 * and *shown is a copy of scn that names those files relatively
 * (scenario.ini resolves them against its own folder), or scn itself when
 * there is none.  The copy shares scn's allocations: release it with
 * free(), never scenario_free().
 */
int output_carry_traces(const struct scenario *scn, const char *dir, const struct scenario **shown,
			char *err, size_t errlen)
{
	struct scenario *copy = NULL;
	int traces = 0;
	*shown = scn;
	if (scn->topo == SCN_TOPO_FILE) {
		char path[4300];
		if (!(copy = malloc(sizeof(*copy)))) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		*copy = *scn;
		snprintf(path, sizeof(path), "%s/topology.csv", dir);
		if (copy_file(scn->topo_file, path, err, errlen)) {
			free(copy);
			return -1;
		}
		snprintf(copy->topo_file, sizeof(copy->topo_file), "topology.csv");
	}
	for (uint32_t j = 0; j < scn->njobs; j++) {
		const struct scn_job *job = &scn->jobs[j];
		char path[4300];
		if (job->pattern != SCN_JOB_TRACE || !job->file[0])
			continue;
		if (!traces) {
			snprintf(path, sizeof(path), "%s/traces", dir);
			if (output_mkdir_p(path)) {
				snprintf(err, errlen, "%s: cannot create: %s", path,
					 strerror(errno));
				free(copy);
				return -1;
			}
			traces = 1;
		}
		if (!copy) {
			if (!(copy = malloc(sizeof(*copy)))) {
				snprintf(err, errlen, "out of memory");
				return -1;
			}
			*copy = *scn;
		}
		snprintf(path, sizeof(path), "%s/traces/%s.csv", dir, job->name);
		if (copy_file(job->file, path, err, errlen)) {
			free(copy);
			return -1;
		}
		snprintf(copy->jobs[j].file, sizeof(copy->jobs[j].file), "traces/%s.csv",
			 job->name);
	}
	if (copy)
		*shown = copy;
	return 0;
}
