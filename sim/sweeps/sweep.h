/*
 * sweep.h - `dcqcn-sim sweep`: one run per point of the Cartesian product
 * of the --vary axes, each in DIR/pNNN/, and DIR/sweep.csv with one row per
 * point: its axis values (each numeric one also in its base unit, KEY_B,
 * KEY_ps, ...: scenario_key_base_value), its summary.csv row (criteria_pass
 * and criteria_failed included: the point's own [criteria], which an axis
 * may vary too).
 *
 * Every point is loaded and checked before the first run starts, so a bad
 * value fails the whole sweep at once (exit 2) rather than after an hour.
 * Points run in up to `jobs` child processes; sweep.csv is written in point
 * order once all have finished, so it does not depend on -j.  Nothing here
 * prints except through `log` (progress lines).
 *
 * Beyond one run per point and one machine:
 *   - repeat N runs every point N times, with sim.seed, sim.seed + 1, ...,
 *     sim.seed + N - 1, into DIR/pNNN/r0 .. rN-1; sweep.csv then has per
 *     point the mean of each numeric metric and its _min and _max, the
 *     verdict of all repeats (a point passes only when every repeat does)
 *     and the union of their criteria_failed.
 *   - shard I/N (0-based, like SLURM_ARRAY_TASK_ID with --array=0-(N-1))
 *     runs only the points p with p % N == I and writes, instead of
 *     sweep.csv, DIR/shard-I-of-N.txt: what the sweep is (a hash of the
 *     scenario text, the --set and --vary options, repeat) and how each of
 *     its runs ended.  sweep_merge() joins the shards into the sweep.csv a
 *     single run writes, byte for byte.
 *   - The scenario and configuration files are read once, when the sweep
 *     starts: every point loads those bytes (a pipe works, an edit during
 *     the sweep changes nothing).  DIR/sweep-identity.txt records what the
 *     sweep is (the lines of a shard description); --resume refuses a
 *     folder whose identity differs, and DIR/.lock (a shard's
 *     DIR/.shard-I-of-N.lock) keeps a second sweep out while one runs.
 *     Zipped sweeps (calibrate's batches) write neither.
 *   - In the MPI build, launched by mpirun (main() calls MPI_Init only
 *     then), sweep_run is collective: rank r of N runs the points p % N ==
 *     r one after another in its own process (no fork after MPI_Init),
 *     every rank into the same DIR (a shared filesystem), rank 0 writes
 *     sweep.csv, and every rank returns after it is written, with the
 *     same status and counts.
 */
#ifndef DCQCN_SWEEP_H
#define DCQCN_SWEEP_H

#include <signal.h>
#include <stdio.h>

#define SWEEP_MAX_AXES 8
#define SWEEP_MAX_VALUES 256
#define SWEEP_MAX_POINTS 10000

struct sweep_axis {
	const char *key;                    /* section.key */
	const char *values[SWEEP_MAX_VALUES];
	int n;
};

struct sweep_opts {
	const char *scenario;               /* NULL: the embedded default */
	const char *const *sets;            /* --set assignments of every point */
	int nsets;
	struct sweep_axis axes[SWEEP_MAX_AXES];
	int naxes;
	int jobs;                           /* concurrent runs (>= 1) */
	const char *out_dir;
	FILE *log;                          /* a line per finished point; NULL: none */
	volatile sig_atomic_t *interrupt;
	int resume;                         /* skip the points whose run in out_dir ended
					     * (summary.csv says done or duration) */
	/* fields added later: zero keeps the behaviour above */
	int repeat;                         /* runs per point, seeds sim.seed + 0..N-1;
					     * 0 or 1: one run in DIR/pNNN */
	const char *switch_config;          /* applied to every point after the scenario
					     * and before sets (config.h); NULL: none */
	const char *nic_config;
	int shard_index, shard_count;       /* shard_count > 0: only the points
					     * p % shard_count == shard_index, and
					     * DIR/shard-I-of-N.txt instead of sweep.csv */
	int zip;                            /* 1: point p takes value p of every axis (the
					     * axes' lengths equal) instead of the
					     * Cartesian product; not with shards */
	void (*ran)(void *ctx);             /* called as each run ends (this rank's);
					     * NULL: none */
	void *ran_ctx;
	int *refused;                       /* set to 1 when the sweep stops before any
					     * run (a point that does not load, another
					     * sweep's folder, one in use); NULL: not told */
	/* the inputs' texts (scenario_read_text, scenario_read_config) when the
	 * caller read them; NULL: sweep_run reads the file, once, and every
	 * point loads these bytes */
	const char *scenario_text, *switch_text, *nic_text;
	size_t scenario_len, switch_len, nic_len;
};

#define SWEEP_MAX_REPEAT 1000
#define SWEEP_MAX_MERGE 1024             /* shard directories of one merge */

/* parse "section.key=V1,V2,..." into axis (pointing into arg, which it
 * edits); 0, or -1 with a reason: the syntax, or a key that does not exist
 * ("--vary nic.ccc: unknown key; did you mean nic.cc?").  Whether a job or
 * fault the key names exists is checked with the points. */
int sweep_parse_vary(char *arg, struct sweep_axis *axis, char *err, size_t errlen);

/* run the sweep.  Returns 0 when every point ran (whatever its criteria
 * say), 1 when a point broke an invariant, 2 on bad input or I/O error (err
 * says which point and why), 3 when interrupted.  *failed gets the number
 * of points that missed their criteria, *unjudged the number that got no
 * verdict (criteria_pass empty: the run did not finish its traffic). */
int sweep_run(const struct sweep_opts *o, int *failed, int *unjudged, char *err,
	      size_t errlen);

/* 1 when this process is one of several MPI ranks (the MPI build under
 * mpirun), with *rank its rank; else 0 and *rank = 0 */
int sweep_mpi_ranks(int *rank, int *size);

/*
 * Join the shards of a sweep (sweep --shard I/N) whose shard-I-of-N.txt
 * files are in dirs[0..ndirs) (one folder for all, or one per shard) into
 * out_dir/sweep.csv, the file a single run would have written.  A point
 * that ran in another folder than out_dir gets a symbolic link
 * out_dir/pNNN to its run directory.  Checks that the shards describe the
 * same sweep (scenario text, --set, --vary, --repeat, N; and the folders'
 * sweep-identity.txt), that every run of every point ended, once, and that
 * each listed run has a whole summary.csv.  Returns 0 with *failed and *unjudged as
 * sweep_run sets them, or 2 (RUN_EIO) with the reason in err.
 */
int sweep_merge(const char *const *dirs, int ndirs, const char *out_dir, int *failed,
		int *unjudged, char *err, size_t errlen);

#endif
