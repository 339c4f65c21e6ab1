/*
 * iostats.h - what a run's storage jobs did, in fio's terms: their I/Os'
 * completion latency (clat: from the command's submission to the
 * completion's arrival), IOPS and bandwidth, per job and all together,
 * and DIR/storage.csv (per sample interval and job) and
 * DIR/storage_jobs.csv (per job).  Fed with the I/Os in order of
 * completion, between windows (traffic.h io_done).
 */
#ifndef DCQCN_IOSTATS_H
#define DCQCN_IOSTATS_H

#include <stddef.h>
#include <stdint.h>

#include "models/base/units.h"

struct scenario;
struct traffic_io;
struct iostats;

/* a storage job's I/Os: fio's figures (run.h's run_result holds one per
 * storage job, then one for all of them) */
struct run_storage {
	char job[32];                          /* its name; "all" for every storage job */
	const char *rw;                        /* "read", "write", "randrw" */
	uint64_t ios, reads, bytes;
	sim_time_ps runtime_ps;                /* first submission to last completion */
	sim_time_ps clat_min_ps, clat_max_ps, clat_p50_ps, clat_p99_ps, clat_p999_ps;
	double clat_mean_ps;
};

/* the statistics of scn's storage jobs, with their files in out_dir (NULL:
 * none); NULL with err empty when scn has no storage job (an earlier run's
 * storage files in out_dir are removed), NULL with err set when out of
 * memory or a file cannot be created */
struct iostats *iostats_new(const struct scenario *scn, const char *out_dir, char *err,
			    size_t errlen);
void iostats_add(struct iostats *s, const struct traffic_io *io);
/* the last interval's rows, storage_jobs.csv, and the figures: storage[k]
 * for each storage job k, storage[*nstorage] for all of them (room for one
 * more than the storage jobs); 0, or -1 with err set when a file could not
 * be written */
int iostats_finish(struct iostats *s, struct run_storage *storage, uint32_t *nstorage, char *err,
		   size_t errlen);
void iostats_free(struct iostats *s);

#endif
