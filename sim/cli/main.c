/*
 * main.c - the dcqcn-sim command line (docs/contract.md#commands).
 *
 * `dcqcn-sim --help` is the overview; `dcqcn-sim COMMAND --help` (or -h,
 * anywhere among the arguments: the help wins over whatever else is
 * wrong) a command's usage and options; `dcqcn-sim keys [SECTION]` the
 * scenario keys (keyhelp.h).  A mistyped command or option gets a "did
 * you mean" (one close name, or nothing), and a usage error points at the
 * command's help.
 *
 * Exit status: 0 success; 1 a broken invariant; 2 bad usage or a bad
 * scenario (the message names file:line and key), or a write that failed
 * (the message names the file and the reason); 3 stopped by SIGINT, SIGTERM
 * or SIGHUP, outputs complete and summary.csv marked end=interrupted or
 * terminated (a third signal kills at once); 4 the results were written but
 * a figure failed (plot, run --plot, sweep --plot); 5 nccl-tests: an
 * iteration of the collective failed or did not end (nccltests.h).
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef DCQCN_MPI
#include <mpi.h>
#endif

#include "models/scenario/configs/config.h"
#include "models/scenario/keyhelp.h"
#include "models/scenario/scenario.h"
#include "plots/plot.h"
#include "sim/run/fluidrun.h"
#include "sim/run/output.h"
#include "sim/run/run.h"
#include "sim/sweeps/calibrate.h"
#include "sim/sweeps/compare.h"
#include "sim/sweeps/nccltests.h"
#include "sim/sweeps/sweep.h"

#define EXIT_INVARIANT 1
#define EXIT_USAGE 2
#define EXIT_INTERRUPTED 3
#define EXIT_PLOT 4
#define EXIT_COLL_FAILED 5 /* nccl-tests: an iteration failed or did not end */
#define EXIT_NO_PASS 5 /* calibrate: no setting passes */
#define MAX_SETS 256
#define TABLE_LINE_BYTES 65536 /* a line of sweep.csv */
#define TABLE_MAX_COLS 512
#define STR(x) #x
#define XSTR(x) STR(x) /* a macro's value as text: "8" */

/* the fabric types run --fabric and compare --fabrics name */
static const char *const fabric_names[COMPARE_MAX_FABRICS] = { "roce", "infiniband",
							       "ethernet-tcp" };

/* index of fabric type `name` in fabric_names, or -1 */
static int fabric_name(const char *name)
{
	for (int i = 0; i < COMPARE_MAX_FABRICS; i++)
		if (!strcmp(name, fabric_names[i]))
			return i;
	return -1;
}

/* the signal that stops the run (SIGINT, SIGTERM or SIGHUP), 0 while none */
static volatile sig_atomic_t interrupted;
static volatile sig_atomic_t signals_seen;

/* The first two signals ask the run to stop at its next slice, with every
 * file complete; a third one (the user insists) kills at once.  A worker of
 * sweep or nccl-tests gets a terminal's Ctrl-C directly and once more from
 * its parent, which forwards it: the parent's copy of a signal already seen
 * does not count. */
static void on_signal(int sig, siginfo_t *si, void *uctx)
{
	(void)uctx;
	if (interrupted && si && si->si_code == SI_USER && si->si_pid == getppid())
		return;
	if (!interrupted)
		interrupted = sig;
	if (++signals_seen >= 3) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
}

/* SIGINT, SIGTERM (timeout, Slurm, systemd, docker stop) and SIGHUP stop a
 * run cleanly; sigaction keeps the handler for every delivery.  SIGXFSZ is
 * ignored so that a file-size limit is a write error like a full disk. */
static void install_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGXFSZ, SIG_IGN);
}

static const char usage[] =
	"usage:\n"
	"  dcqcn-sim run [SCENARIO] [-o DIR] [--set SECTION.KEY=VALUE]... [--seed N]\n"
	"                [--threads N] [--quiet] [--plot] [--format png|svg|pdf] [--fluid]\n"
	"                [--switch-config FILE] [--nic-config FILE]\n"
	"  dcqcn-sim check SCENARIO [--set SECTION.KEY=VALUE]... [--threads N]\n"
	"                [--switch-config FILE] [--nic-config FILE] [--export DIR]\n"
	"  dcqcn-sim sweep SCENARIO --vary SECTION.KEY=V1,V2,... [--vary ...] [-j N]\n"
	"                [-o DIR] [--set ...] [--seed N] [--threads N] [--quiet] [--plot]\n"
	"                [--format png|svg|pdf] [--resume] [--repeat N] [--columns M,...]\n"
	"                [--shard I/N] [--switch-config FILE] [--nic-config FILE]\n"
	"  dcqcn-sim sweep --merge DIR... [-o OUT] [--columns M,...] [--quiet] [--plot]\n"
	"  dcqcn-sim calibrate [SCENARIO] [--stress FILE]... [--tune SECTION.KEY=LO:HI[:STEP]]...\n"
	"                [--seeds N] [-j N] [-o DIR] [--set ...] [--switch-config FILE]\n"
	"                [--nic-config FILE] [--no-plane] [--format png|svg|pdf] [--quiet]\n"
	"  dcqcn-sim compare [SCENARIO] [--fabrics LIST] [--probe N] [-o DIR] [--set ...]\n"
	"                [--threads N] [--format png|svg|pdf] [--quiet]\n"
	"  dcqcn-sim plot DIR [--format png|svg|pdf] [--columns M,...]\n"
	"  dcqcn-sim keys [SECTION]\n"
	"  dcqcn-sim nccl-tests all_reduce_perf|all_to_all_perf [SCENARIO] [-b SIZE] [-e SIZE]\n"
	"                [-f N | -i SIZE] [-g GPUS] [-n ITERS] [-w WARMUP] [-j N] [--out DIR]\n"
	"                [--set ...] [--threads N]\n"
	"  dcqcn-sim fluid SCENARIO [-o DIR] [--set ...] [--step T] [--sweep-flows A:B]\n"
	"  dcqcn-sim COMMAND --help\n"
	"  dcqcn-sim --help | --version\n"
	"\n"
	"run     simulate SCENARIO (the embedded default without one) and write its\n"
	"        run directory (default results/NAME); print a summary table\n"
	"check   validate SCENARIO; print it resolved, with derived values, the\n"
	"        partitions of a run on N threads and warnings\n"
	"sweep   one run per combination of the --vary values, -j N at a time, and\n"
	"        DIR/sweep.csv: a row per point, with whether it met its [criteria]\n"
	"calibrate  search ECN and DCQCN settings that pass [criteria] on SCENARIO and\n"
	"        stress scenarios with the largest margin; SONiC and NIC settings out\n"
	"compare  SCENARIO on lossless RoCEv2, InfiniBand and lossy TCP Ethernet: loss,\n"
	"        latency, collective time, flow control side by side\n"
	"plot    draw the figures of a run, sweep, calibrate or compare directory\n"
	"keys    every scenario key: its default, meaning, values, where it applies\n"
	"nccl-tests  nccl-tests' all_reduce_perf or all_to_all_perf, simulated: one run\n"
	"        of SCENARIO per size with the collective added; nccl-tests' table\n"
	"fluid   DCQCN's fluid model of SCENARIO's incast: fixed point, phase margin,\n"
	"        the queue and rates integrated (queues.csv, rates.csv, summary.csv)\n"
	"\n"
	"dcqcn-sim COMMAND --help (or -h) shows the options of COMMAND.\n"
	"Exit status: 0 success; 1 a broken invariant; 2 bad usage or a bad scenario;\n"
	"3 stopped by SIGINT, SIGTERM or SIGHUP; 4 a figure failed (the results are written);\n"
	"5 nccl-tests: an iteration failed or did not end; calibrate: no setting passes.\n";

/* the help of each command: `dcqcn-sim COMMAND --help` */
static const char run_help[] =
	"usage: dcqcn-sim run [SCENARIO] [-o DIR] [--set SECTION.KEY=VALUE]... [--seed N]\n"
	"                     [--threads N] [--quiet] [--plot] [--format png|svg|pdf]\n"
	"                     [--fluid] [--switch-config FILE] [--nic-config FILE]\n"
	"                     [--fabric roce|infiniband|ethernet-tcp]\n"
	"\n"
	"Simulate SCENARIO (without one, the embedded scenarios/default.ini) and write\n"
	"the run directory DIR: scenario.ini, summary.csv, stats.csv, warnings.txt and\n"
	"the time series (README, Outputs); print a summary table.\n"
	"\n"
	"options:\n"
	"  -o DIR        the run directory (default results/NAME, NAME the scenario\n"
	"                file name without .ini; results/default for the embedded one)\n"
	"  --set S.K=V   override one key, e.g. --set topology.spines=4 (repeatable;\n"
	"                dcqcn-sim keys lists the keys)\n"
	"  --seed N      same as --set sim.seed=N\n"
	"  --threads N   same as --set sim.threads=N: one run on N cores (default auto:\n"
	"                every core); the outputs are the same for every N\n"
	"  --quiet, -q   no summary table, no progress bar\n"
	"  --plot        draw the figures (dcqcn-sim plot DIR) when the run ends\n"
	"  --format F    the figures' format: png (default), svg or pdf; implies --plot\n"
	"  --switch-config FILE  the QoS of a SONiC config_db.json (buffer, PFC,\n"
	"                watchdog, WRED/ECN, DSCP map), after the scenario file and\n"
	"                before --set; every port must agree (docs/configs.md)\n"
	"  --nic-config FILE  NVIDIA mlx5 cc_params, one \"name value\" per line\n"
	"                (rp_ai_rate 5 ...): the [dcqcn] knobs and qos.cnp_dscp, after\n"
	"                --switch-config and before --set (docs/configs.md)\n"
	"  --fluid       also DCQCN's fluid model of the scenario's incast over the run's\n"
	"                time (dcqcn-sim fluid) into DIR/fluid/; queues.png and\n"
	"                dcqcn.png draw it beside the packets.  A scenario that is not\n"
	"                one incast is refused before anything runs\n"
	"  --fabric F    run SCENARIO as fabric.type F with F's defaults: its keys that\n"
	"                do not apply to F (on infiniband: [pfc], [pfcwd], [ecn],\n"
	"                [dcqcn], nic.cc) are skipped, each named on stderr\n"
	"  --help, -h    this text\n"
	"\n"
	"Exit status: 0 success; 1 a broken invariant (the message names the check);\n"
	"2 bad usage, a bad scenario (the message names FILE:LINE and the key) or a\n"
	"write that failed (the message names the file and why: a full disk, a\n"
	"file-size limit; the run stops at once and writes no summary.csv);\n"
	"3 stopped by SIGINT (end = interrupted) or SIGTERM / SIGHUP (end =\n"
	"terminated): every file complete, summary.csv not judged; a third signal\n"
	"kills at once; 4 a figure failed (the results are written).\n";

static const char check_help[] =
	"usage: dcqcn-sim check SCENARIO [--set SECTION.KEY=VALUE]... [--threads N]\n"
	"                       [--switch-config FILE] [--nic-config FILE] [--export DIR]\n"
	"                       [--fabric roce|infiniband|ethernet-tcp]\n"
	"\n"
	"Validate SCENARIO and print it fully resolved (every key with its value, in a\n"
	"form that loads back), then as comments: derived values (hosts, switches,\n"
	"oversubscription, frame sizes, PFC headroom, shared pool, the longest path's\n"
	"latency and bandwidth-delay product), the partitions of a run on N threads,\n"
	"and the warnings: settings that load but are risky (# warnings: N).\n"
	"\n"
	"options:\n"
	"  --set S.K=V   override one key (repeatable; dcqcn-sim keys lists the keys)\n"
	"  --threads N   same as --set sim.threads=N: the partitions of N threads\n"
	"  --switch-config FILE  the QoS of a SONiC config_db.json (buffer, PFC,\n"
	"                watchdog, WRED/ECN, DSCP map), after the scenario file and\n"
	"                before --set; every port must agree (docs/configs.md)\n"
	"  --nic-config FILE  NVIDIA mlx5 cc_params, one \"name value\" per line\n"
	"                (rp_ai_rate 5 ...): the [dcqcn] knobs and qos.cnp_dscp, after\n"
	"                --switch-config and before --set (docs/configs.md)\n"
	"  --export DIR  also write the scenario for real equipment: DIR/config_db.json\n"
	"                (a SONiC fragment), DIR/cc_params.txt, DIR/nic-setup.sh (loads\n"
	"                them into mlx5 NICs; -n: dry run) and DIR/nccl.env; what they\n"
	"                cannot express exactly is said on stderr (docs/configs.md)\n"
	"  --fabric F    run SCENARIO as fabric.type F with F's defaults: its keys that\n"
	"                do not apply to F (on infiniband: [pfc], [pfcwd], [ecn],\n"
	"                [dcqcn], nic.cc) are skipped, each named on stderr\n"
	"  --help, -h    this text\n"
	"\n"
	"Exit status: 0 valid (with or without warnings); 2 not valid (the message\n"
	"names FILE:LINE and the key, or the configuration file and the place in\n"
	"it), or an export that could not be written.\n";

static const char sweep_help[] =
	"usage: dcqcn-sim sweep SCENARIO --vary SECTION.KEY=V1,V2,... [--vary ...] [-j N]\n"
	"                       [-o DIR] [--set ...] [--seed N] [--threads N] [--quiet]\n"
	"                       [--plot] [--format png|svg|pdf] [--resume] [--repeat N]\n"
	"                       [--columns M,...] [--shard I/N] [--switch-config FILE]\n"
	"                       [--nic-config FILE]\n"
	"       dcqcn-sim sweep --merge DIR... [-o OUT] [--columns M,...] [--quiet]\n"
	"                       [--plot] [--format png|svg|pdf]\n"
	"\n"
	"One run per combination of the --vary values (the last axis varies fastest),\n"
	"-j N at a time, into DIR/p000, DIR/p001, ...; DIR/sweep.csv has a row per\n"
	"point: its axis values (a numeric one also in its base unit: KEY_B, KEY_ps,\n"
	"KEY_bps, KEY_mm, KEY_frac, KEY_n), its summary.csv row, and whether it met\n"
	"its own [criteria] (which may be varied too).  Every point is loaded and\n"
	"checked before the first one runs.\n"
	"\n"
	"options:\n"
	"  --vary S.K=V1,V2,...  one axis: a key and its values, comma-separated (a\n"
	"                value cannot contain a comma); at most " XSTR(SWEEP_MAX_AXES) " axes\n"
	"  -j N          runs at a time, 1-256 (default 1); a point left at\n"
	"                sim.threads = auto gets its share of the cores\n"
	"  -o DIR        the sweep directory (default results/NAME-sweep)\n"
	"  --set S.K=V   override one key in every point (repeatable)\n"
	"  --seed N      same as --set sim.seed=N\n"
	"  --threads N   same as --set sim.threads=N\n"
	"  --switch-config FILE, --nic-config FILE  as for run, in every point\n"
	"  --quiet, -q   no progress lines, no table\n"
	"  --plot        draw the sweep's figures (dcqcn-sim plot DIR) when it ends\n"
	"  --format F    the figures' format: png (default), svg or pdf; implies --plot\n"
	"  --resume      run only the points of DIR that did not end (no summary.csv,\n"
	"                or one that says interrupted or terminated); give the same\n"
	"                scenario and options as the sweep that was stopped\n"
	"  --repeat N    run every point N times (1-" XSTR(SWEEP_MAX_REPEAT) "), with sim.seed, sim.seed+1,\n"
	"                ..., into DIR/pNNN/r0 .. rN-1; sweep.csv has per point the mean\n"
	"                of each metric and its METRIC_min and METRIC_max; a point passes\n"
	"                only if every repeat does (criteria_failed: the union)\n"
	"  --columns M,...  the metrics (summary.csv columns; with --repeat their\n"
	"                _min and _max too) the table shows, in that order (default:\n"
	"                busbw, ECN marking, pause rate, drops and the verdict) and,\n"
	"                with --plot, the metrics drawn\n"
	"  --shard I/N   run only the points p with p % N == I (I from 0: Slurm's\n"
	"                SLURM_ARRAY_TASK_ID with --array=0-(N-1)), and write\n"
	"                DIR/shard-I-of-N.txt instead of sweep.csv; the shards may\n"
	"                share DIR; --resume resumes a shard\n"
	"  --merge DIR...  join the shards in the DIRs (one shared folder, or one per\n"
	"                shard) into OUT/sweep.csv (default: the one DIR), the file a\n"
	"                single run writes; OUT/pNNN links to points run elsewhere\n"
	"  --help, -h    this text\n"
	"\n"
	"Under mpirun (a build with -Dmpi=enabled), rank r of N runs the points\n"
	"p % N == r one after another, all into DIR (a shared filesystem); rank 0\n"
	"writes sweep.csv and prints the table.\n"
	"\n"
	"Exit status: 0 every point ran (even when points miss their criteria); 1 a\n"
	"point broke an invariant; 2 bad usage, a point that does not load (nothing\n"
	"runs), or a merge of shards that do not match or did not all end; 3 stopped\n"
	"by SIGINT, SIGTERM or SIGHUP (passed to the workers: each point ends\n"
	"complete, sweep.csv lists those that finished); 4 a figure failed.\n";

static const char calibrate_help[] =
	"usage: dcqcn-sim calibrate [SCENARIO] [--stress FILE]... [--tune SECTION.KEY=LO:HI[:STEP]]...\n"
	"                           [--seeds N] [-j N] [-o DIR] [--set SECTION.KEY=VALUE]...\n"
	"                           [--threads N] [--switch-config FILE] [--nic-config FILE]\n"
	"                           [--no-plane] [--format png|svg|pdf] [--quiet]\n"
	"\n"
	"Search the tuned keys for the settings that pass the [criteria] of SCENARIO\n"
	"(the embedded default without one) and of every --stress scenario, for every\n"
	"seed, with the largest margin (the tightest criterion's room, relative to its\n"
	"limit).  Coordinate ascent from the scenario's own settings: a round tries\n"
	"every value of one key with the others held, key by key; every point runs once.\n"
	"Prints the recommendation, its margin per scenario and the criterion that\n"
	"binds, the scenario's own settings and the runner-up, and the runs spent\n"
	"against a full grid of the same values.  DIR (default results/NAME-calibrate)\n"
	"gets calibrate.csv (every point), recommended.ini, plane.csv and\n"
	"plots/calibrate.png (the margin over the two most influential keys), export/\n"
	"(SONiC config_db.json, mlx5 cc_params, nic-setup.sh, nccl.env) and runs/.\n"
	"\n"
	"options:\n"
	"  --stress FILE  a scenario every setting must pass too (repeatable, at most "
	XSTR(CAL_MAX_STRESS) ")\n"
	"  --tune S.K=LO:HI[:STEP]  a key to search and its grid (repeatable, at most\n"
	"                " XSTR(CAL_MAX_KEYS) "; replaces the default keys): STEP xF multiplies (default x2,\n"
	"                3 digits), an amount in the values' unit adds; a plain number\n"
	"                is the key's bare unit.  Default: ecn.kmin=50KB:3.2MB:x2\n"
	"                ecn.kmax=400KB:12.8MB:x2 ecn.pmax=1%:32%:x2\n"
	"                dcqcn.rpg_ai_rate=5:1280:x4 dcqcn.rpg_time_reset=25:800:x2\n"
	"                dcqcn.min_time_between_cnps=1:64:x4\n"
	"  --seeds N     run every point with sim.seed = 1..N (1-" XSTR(CAL_MAX_SEEDS) "; default 1: each\n"
	"                scenario's own seed)\n"
	"  -j N          runs at a time, 1-256 (default 1)\n"
	"  -o DIR        the calibrate directory (default results/NAME-calibrate)\n"
	"  --set S.K=V   override one key in every scenario (repeatable)\n"
	"  --threads N   same as --set sim.threads=N\n"
	"  --switch-config FILE, --nic-config FILE  as for run, in every scenario\n"
	"  --no-plane    no margin plane (fewer runs) and no figure\n"
	"  --format F    the figure's format: png (default), svg or pdf\n"
	"  --quiet, -q   no progress lines, no report\n"
	"  --help, -h    this text\n"
	"\n"
	"Exit status: 0 a setting passes everywhere; 5 none does (the closest is\n"
	"reported and written); 2 bad usage, a scenario that does not load, or a\n"
	"write that failed; 3 stopped by SIGINT, SIGTERM or SIGHUP (calibrate.csv has\n"
	"the points evaluated); 4 the figure failed.\n";

static const char compare_help[] =
	"usage: dcqcn-sim compare [SCENARIO] [--fabrics LIST] [--probe N] [-o DIR]\n"
	"                         [--set SECTION.KEY=VALUE]... [--threads N]\n"
	"                         [--format png|svg|pdf] [--quiet]\n"
	"\n"
	"Run SCENARIO (the embedded default without one) on each fabric type with that\n"
	"fabric's defaults: lossless RoCEv2 (roce: PFC, ECN, DCQCN), InfiniBand\n"
	"(infiniband: credit-based flow control) and lossy TCP Ethernet (ethernet-tcp).\n"
	"Keys of the scenario (and --set) that do not apply to a fabric are skipped for\n"
	"it, each named on stderr (on InfiniBand: [pfc], [pfcwd], [ecn], [dcqcn],\n"
	"nic.cc).  Every run gets a background ping-pong of 4 KB messages between the\n"
	"first and the last host (a trace job, " COMPARE_PROBE_JOB "): message i starts\n"
	"when message i-1 has arrived, and not before i x 20 us; those that started\n"
	"while the other jobs ran give the latency rows.  sim.duration is raised to 10s\n"
	"unless --set gives it, so that a fabric slowed by timeouts still finishes.\n"
	"Prints the matrix: drops, retransmitted bytes, timeouts, 4 KB latency p50 and\n"
	"p99, collective time and bus bandwidth, flow completion p99 (the probe left\n"
	"out), pause frames or credit stall time, and [criteria].  DIR (default\n"
	"results/NAME-compare) gets compare.csv, probe.csv, a run directory per fabric\n"
	"and plots/compare.png.\n"
	"\n"
	"options:\n"
	"  --fabrics LIST  the fabrics, comma-separated, in order (default\n"
	"                roce,infiniband,ethernet-tcp)\n"
	"  --probe N     probe messages (default " XSTR(COMPARE_PROBE_DEFAULT) "; 0: no probe)\n"
	"  -o DIR        the compare directory (default results/NAME-compare)\n"
	"  --set S.K=V   override one key on every fabric where it applies (repeatable)\n"
	"  --threads N   same as --set sim.threads=N\n"
	"  --format F    the figure's format: png (default), svg or pdf\n"
	"  --quiet, -q   no progress, no skipped keys, no matrix\n"
	"  --help, -h    this text\n"
	"\n"
	"Exit status: 0 every fabric ran (whatever its criteria); 1 a run broke an\n"
	"invariant; 2 bad usage, a scenario that does not load on a fabric, or a write\n"
	"that failed; 3 stopped by SIGINT, SIGTERM or SIGHUP; 4 the figure failed.\n";

static const char plot_help[] =
	"usage: dcqcn-sim plot DIR [--format png|svg|pdf] [--columns M,...]\n"
	"\n"
	"Draw the figures of run directory DIR into DIR/plots/ with gnuplot\n"
	"(apt-get install gnuplot-nox): queues, pause map, pause and ECN rates, DCQCN\n"
	"rates, collectives; the data each figure uses is kept in DIR/plots/data/.\n"
	"For a sweep directory (one that holds sweep.csv), the sweep's figures in\n"
	"DIR/plots/: sweep_METRIC.png, each metric against the first numeric axis\n"
	"(its values as labels, spaced by their base unit), a line per value of the\n"
	"other axes (min-max bars with --repeat); and with two or more axes\n"
	"sweep_pass.png, pass or fail over the first two axes (a cell is the worst\n"
	"over the other axes: it passes only if every such point does).  A point's\n"
	"own figures: dcqcn-sim plot DIR/p000 (DIR/p000/r0 with --repeat).\n"
	"\n"
	"options:\n"
	"  --format F    png (default), svg or pdf; drawing a figure removes its files\n"
	"                in the other formats\n"
	"  --columns M,...  a sweep: the metrics drawn (sweep.csv columns; default\n"
	"                busbw_judged_min_pct,ecn_mark_pct)\n"
	"  --help, -h    this text\n"
	"\n"
	"Exit status: 0 drawn; 2 bad usage; 4 a figure failed (the message names it\n"
	"and says why).\n";

static const char keys_help[] =
	"usage: dcqcn-sim keys [SECTION]\n"
	"\n"
	"Every key a scenario file or --set can name, section by section: its default,\n"
	"its meaning, the values it takes and where it applies (a key of another\n"
	"topology kind, job pattern or fault kind is an error).  SECTION (sim,\n"
	"topology, qos, nic, job, buffer, pfc, pfcwd, ecn, dcqcn, fault, output,\n"
	"criteria) lists that section only.\n"
	"\n"
	"options:\n"
	"  --help, -h    this text\n"
	"\n"
	"Exit status: 0; 2 an unknown SECTION.\n";

static const char nccltests_help[] =
	"usage: dcqcn-sim nccl-tests all_reduce_perf|all_to_all_perf [SCENARIO] [-b SIZE]\n"
	"                            [-e SIZE] [-f N | -i SIZE] [-g GPUS] [-n ITERS]\n"
	"                            [-w WARMUP] [-j N] [--out DIR] [--set S.K=V]...\n"
	"                            [--threads N]\n"
	"\n"
	"nccl-tests' all_reduce_perf or all_to_all_perf (alltoall_perf), simulated: one\n"
	"run of SCENARIO (the embedded default without one) per size, with one job\n"
	"added, [job.nccl-tests]: pattern ring-allreduce or alltoall, ranks 0-(GPUS-1),\n"
	"the size, iterations = WARMUP + 2 x ITERS; the scenario's own jobs and faults\n"
	"run alongside.  Prints nccl-tests' table on stdout, in its layout: the first\n"
	"ITERS timed iterations are the out-of-place columns, the next ITERS the\n"
	"in-place ones (time: their mean; algbw = size / time; busbw = algbw x\n"
	"2(n-1)/n for all-reduce, x (n-1)/n for all-to-all).  #wrong is 0: the\n"
	"simulator moves bytes, it does not corrupt them.  docs/nccl-tests.md.\n"
	"\n"
	"options:\n"
	"  -b SIZE       the smallest size (default 32M); K, M, G are binary, as in\n"
	"                nccl-tests (1M = 1048576), a fraction is allowed (1.5M)\n"
	"  -e SIZE       the largest size (default 32M)\n"
	"  -f N          multiply the size by N from -b to -e, 2-1024 (default 2)\n"
	"  -i SIZE       add SIZE instead of multiplying\n"
	"  -g GPUS       how many GPUs (hosts h0 to hGPUS-1) take part: 2 to the hosts\n"
	"                of the topology (default all of them)\n"
	"  -n ITERS      timed iterations per placement, 1-1000 (default 1;\n"
	"                nccl-tests: 20)\n"
	"  -w WARMUP     warm-up iterations, 0-1000 (default 1; nccl-tests: 5)\n"
	"  -j N          sizes simulated at a time, 1-256 (default 1); the table is the\n"
	"                same for every N\n"
	"  --out DIR     also write DIR/nccl-tests.csv (the table's numbers) and each\n"
	"                size's run directory DIR/SIZE/; without it, nothing but stdout\n"
	"  --set S.K=V   override one key after the job is added (repeatable), e.g.\n"
	"                --set job.nccl-tests.channels=8 or --set sim.duration=1s\n"
	"  --threads N   same as --set sim.threads=N\n"
	"  --help, -h    this text\n"
	"nccl-tests' own spellings work too: -b1M, --minbytes, --maxbytes, --stepfactor,\n"
	"--stepbytes, --ngpus, --iters, --warmup_iters.\n"
	"\n"
	"Exit status: 0 every size ran and every iteration completed; 1 a run broke an\n"
	"invariant; 2 bad usage or a bad scenario (nothing runs), or a write that\n"
	"failed; 3 stopped by SIGINT, SIGTERM or SIGHUP (the rows that ran are\n"
	"printed); 5 an iteration failed (a QP ran out of retries) or did not end\n"
	"before sim.duration: its row says failed or timeout instead of numbers.\n";

static const char fluid_help[] =
	"usage: dcqcn-sim fluid SCENARIO [-o DIR] [--set S.K=V]... [--step T]\n"
	"                       [--sweep-flows A:B]\n"
	"\n"
	"The DCQCN fluid model (Zhu et al., CoNEXT 2016) of SCENARIO's one incast (or\n"
	"one trace whose flows all go to one host): N flows with their start times,\n"
	"the receiver's host_link, the WRED ramp, the [dcqcn] knobs and the feedback\n"
	"delay tau* of the path (a frame out, a CNP back, as check computes it).\n"
	"Integrates the delay equations for sim.duration (flows never end), solves\n"
	"the fixed point with GSL and the linearised loop's phase margin; prints\n"
	"both, and writes DIR/queues.csv, rates.csv (the packet run's formats) and\n"
	"summary.csv.  A scenario that does not fit is refused, saying why.\n"
	"\n"
	"options:\n"
	"  -o DIR        the output directory (default results/NAME-fluid)\n"
	"  --set S.K=V   override one key (repeatable), e.g. --set sim.duration=200ms\n"
	"  --step T      integration step (default 100ns, at most tau*)\n"
	"  --sweep-flows A:B  instead: a table of N = A, the powers of 2 between, and\n"
	"                B: fixed-point queue, mark probability, alpha, phase margin,\n"
	"                stable or oscillating, and what an integrated run shows\n"
	"  --help, -h    this text\n"
	"\n"
	"Exit status: 0 done; 2 bad usage, a bad scenario or one the model does not\n"
	"take (the message says why), or a write that failed.\n";

/* the commands, their help and options (for "did you mean") */
static const struct command {
	const char *name;
	const char *help;
	const char *const options[20];
} commands[] = {
	{ "run", run_help,
	  { "-o", "--set", "--seed", "--threads", "--quiet", "-q", "--plot", "--format", "--fluid",
	    "--switch-config", "--nic-config", "--fabric", "--help", NULL } },
	{ "check", check_help,
	  { "--set", "--threads", "--switch-config", "--nic-config", "--export", "--fabric",
	    "--help", NULL } },
	{ "sweep", sweep_help,
	  { "--vary", "-j", "-o", "--set", "--seed", "--threads", "--quiet", "-q", "--plot",
	    "--format", "--resume", "--repeat", "--columns", "--shard", "--merge",
	    "--switch-config", "--nic-config", "--help", NULL } },
	{ "calibrate", calibrate_help,
	  { "--stress", "--tune", "--seeds", "-j", "-o", "--set", "--threads", "--switch-config",
	    "--nic-config", "--no-plane", "--format", "--quiet", "-q", "--help", NULL } },
	{ "compare", compare_help,
	  { "--fabrics", "--probe", "-o", "--set", "--threads", "--format", "--quiet", "-q",
	    "--help", NULL } },
	{ "plot", plot_help, { "--format", "--columns", "--help", NULL } },
	{ "keys", keys_help, { "--help", NULL } },
	{ "nccl-tests", nccltests_help,
	  { "-b", "-e", "-f", "-i", "-g", "-n", "-w", "-j", "--out", "--set", "--threads", "--help",
	    NULL } },
	{ "fluid", fluid_help, { "-o", "--set", "--step", "--sweep-flows", "--help", NULL } },
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

/* the command being parsed, for the hint of a usage error; NULL: none yet */
static const struct command *current;

struct cli {
	const char *cmd;
	const char *scenario;
	const char *out_dir;
	const char *sets[MAX_SETS];
	int nsets;
	char seed_set[64];
	char threads_set[64];
	int quiet;
	int plot; /* run --plot, sweep --plot */
	int fluid; /* run --fluid */
	const char *format; /* --format: png (default), svg, pdf */
	int jobs; /* sweep -j */
	int resume; /* sweep --resume */
	char *vary[SWEEP_MAX_AXES];
	int nvary;
	int repeat; /* sweep --repeat */
	const char *columns; /* sweep --columns */
	int shard_index, shard_count; /* sweep --shard I/N; count 0: none */
	int merge; /* sweep --merge: the arguments are shard folders */
	const char *switch_config, *nic_config; /* --switch-config, --nic-config */
	const char *export_dir; /* check --export */
	const char *fabric; /* run, check --fabric */
	const char *args[SWEEP_MAX_MERGE]; /* the arguments that are not options */
	int nargs;
};

__attribute__((format(printf, 1, 2))) static int usage_error(const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "dcqcn-sim: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (current)
		fprintf(stderr, "\n(see dcqcn-sim %s --help)\n", current->name);
	else
		fprintf(stderr, "\n(see dcqcn-sim --help)\n");
	return EXIT_USAGE;
}

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < N_COMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* "unknown option --qiet; did you mean --quiet?" */
static int unknown_option(const char *a)
{
	struct scn_guess g;
	scn_guess_init(&g, a, strlen(a));
	for (int i = 0; current->options[i]; i++)
		scn_guess_add(&g, current->options[i]);
	if (scn_guess_best(&g))
		return usage_error("unknown option %s; did you mean %s?", a, scn_guess_best(&g));
	return usage_error("unknown option %s", a);
}

/* --format F at argv[*i]: F (png, svg or pdf) into *format, *i on it; 0,
 * or the usage error */
static int take_format(int argc, char **argv, int *i, const char **format)
{
	if (*i + 1 == argc)
		return usage_error("--format needs a value (png, svg or pdf)");
	*format = argv[++*i];
	if (!plot_format_valid(*format))
		return usage_error("--format %s: png, svg or pdf", *format);
	return 0;
}

/*
 * --set and --vary take one argument, section.key=value(s).  Written with a
 * space instead of '=' (--vary nic.cc none,dcqcn), the values would be
 * taken for the scenario; say what is wrong instead, and how to write it
 * when the next argument looks like the values (not an option, not a
 * scenario file).
 */
static int assignment_error(const char *opt, const char *v, const char *next)
{
	const char *want = strcmp(opt, "--vary") ? "section.key=value" : "section.key=V1,V2,...";
	size_t n = strlen(v);
	int is_ini = next && strlen(next) > 4 && !strcmp(next + strlen(next) - 4, ".ini");
	if (n && v[n - 1] == '=')
		n--; /* --vary nic.cc= none,dcqcn */
	if (next && next[0] == '=')
		next++; /* --vary nic.cc =none,dcqcn */
	if (!next || !*next || next[0] == '-' || is_ini)
		return usage_error("%s %.*s: expected %s", opt, (int)n, v, want);
	return usage_error("%s %.*s: expected %s (write %s %.*s=%s)", opt, (int)n, v, want, opt,
			   (int)n, v, next);
}

static int parse_args(int argc, char **argv, struct cli *c)
{
	c->cmd = argv[1];
	int is_run = strcmp(c->cmd, "run") == 0, is_sweep = strcmp(c->cmd, "sweep") == 0;
	c->jobs = 1;
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		int has_next = i + 1 < argc;
		if (!strcmp(a, "--vary") || !strcmp(a, "-j")) {
			if (!has_next)
				return usage_error("%s needs a value", a);
			if (!is_sweep)
				return usage_error("%s is an option of sweep", a);
			char *v = argv[++i];
			if (!strcmp(a, "--vary") && (!strchr(v, '=') || v[strlen(v) - 1] == '='))
				return assignment_error(a, v, i + 1 < argc ? argv[i + 1] : NULL);
			if (!strcmp(a, "-j")) {
				char *end;
				long j = strtol(v, &end, 10);
				if (*end || j < 1 || j > 256)
					return usage_error("-j %s: a number of concurrent runs, 1-256", v);
				c->jobs = (int)j;
			} else {
				if (c->nvary == SWEEP_MAX_AXES)
					return usage_error("at most %d --vary axes", SWEEP_MAX_AXES);
				c->vary[c->nvary++] = v;
			}
		} else if (!strcmp(a, "--format")) {
			if (has_next && !is_run && !is_sweep)
				return usage_error("%s is an option of run, sweep and plot", a);
			int rc = take_format(argc, argv, &i, &c->format);
			if (rc)
				return rc;
			c->plot = 1;
		} else if (!strcmp(a, "--set") || !strcmp(a, "-o") || !strcmp(a, "--seed") ||
			   !strcmp(a, "--threads")) {
			if (!has_next)
				return usage_error("%s needs a value", a);
			if (strcmp(a, "--set") && strcmp(a, "--threads") && !is_run && !is_sweep)
				return usage_error("%s is an option of run and sweep", a);
			const char *v = argv[++i];
			if (!strcmp(a, "-o")) {
				c->out_dir = v;
			} else if (!strcmp(a, "--seed") || !strcmp(a, "--threads")) {
				/* the loader checks the value and names the key */
				char *buf = a[2] == 's' ? c->seed_set : c->threads_set;
				snprintf(buf, sizeof(c->seed_set), "sim.%s=%s", a + 2, v);
				if (c->nsets == MAX_SETS)
					return usage_error("too many --set options (at most %d)", MAX_SETS);
				c->sets[c->nsets++] = buf;
			} else {
				if (!strchr(v, '='))
					return assignment_error(a, v, i + 1 < argc ? argv[i + 1] : NULL);
				if (c->nsets == MAX_SETS)
					return usage_error("too many --set options (at most %d)", MAX_SETS);
				c->sets[c->nsets++] = v;
			}
		} else if (!strcmp(a, "--resume")) {
			if (!is_sweep)
				return usage_error("%s is an option of sweep", a);
			c->resume = 1;
		} else if (!strcmp(a, "--repeat") || !strcmp(a, "--columns") ||
			   !strcmp(a, "--shard")) {
			if (!has_next)
				return usage_error("%s needs a value", a);
			if (!is_sweep)
				return usage_error("%s is an option of sweep", a);
			const char *v = argv[++i];
			char *end;
			if (!strcmp(a, "--columns")) {
				c->columns = v;
			} else if (!strcmp(a, "--repeat")) {
				long n = strtol(v, &end, 10);
				if (end == v || *end || n < 1 || n > SWEEP_MAX_REPEAT)
					return usage_error("--repeat %s: runs per point, 1-%d", v,
							   SWEEP_MAX_REPEAT);
				c->repeat = (int)n;
			} else {
				int ix, n, used = 0;
				if (sscanf(v, "%d/%d%n", &ix, &n, &used) != 2 || v[used] || n < 1 ||
				    n > SWEEP_MAX_POINTS || ix < 0 || ix >= n)
					return usage_error("--shard %s: I/N, 0 <= I < N (I counts from 0, "
							   "as SLURM_ARRAY_TASK_ID with --array=0-(N-1))",
							   v);
				c->shard_index = ix;
				c->shard_count = n;
			}
		} else if (!strcmp(a, "--switch-config") || !strcmp(a, "--nic-config") ||
			   !strcmp(a, "--export")) {
			if (!has_next)
				return usage_error("%s needs a %s", a,
						   strcmp(a, "--export") ? "file" : "directory");
			int is_export = !strcmp(a, "--export");
			if (is_export && strcmp(c->cmd, "check"))
				return usage_error("%s is an option of check", a);
			const char **slot = is_export	      ? &c->export_dir
					    : a[2] == 's' ? &c->switch_config
							  : &c->nic_config;
			if (*slot)
				return usage_error("%s given twice", a);
			*slot = argv[++i];
		} else if (!strcmp(a, "--fabric")) {
			if (is_sweep)
				return usage_error("--fabric is an option of run and check (compare "
						   "runs a scenario on every fabric)");
			if (!has_next)
				return usage_error("--fabric needs a fabric (roce, infiniband, "
						   "ethernet-tcp)");
			if (c->fabric)
				return usage_error("--fabric given twice");
			c->fabric = argv[++i];
			if (fabric_name(c->fabric) < 0)
				return usage_error("--fabric %s: not a fabric (roce, infiniband, "
						   "ethernet-tcp)", c->fabric);
		} else if (!strcmp(a, "--merge")) {
			if (!is_sweep)
				return usage_error("%s is an option of sweep", a);
			c->merge = 1;
		} else if (!strcmp(a, "--plot")) {
			if (!is_run && !is_sweep)
				return usage_error("%s is an option of run and sweep", a);
			c->plot = 1;
		} else if (!strcmp(a, "--fluid")) {
			if (!is_run)
				return usage_error("%s is an option of run", a);
			c->fluid = 1;
		} else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
			if (!is_run && !is_sweep)
				return usage_error("%s is an option of run and sweep", a);
			c->quiet = 1;
		} else if (a[0] == '-' && a[1]) {
			return unknown_option(a);
		} else if (c->nargs == SWEEP_MAX_MERGE) {
			return usage_error("too many arguments (at most %d)", SWEEP_MAX_MERGE);
		} else {
			c->args[c->nargs++] = a;
		}
	}
	if (c->merge) { /* sweep --merge DIR... */
		const char *not_here = c->nvary ? "--vary" : c->repeat ? "--repeat"
				       : c->shard_count ? "--shard" : c->resume ? "--resume"
				       : c->nsets ? "--set, --seed or --threads" : c->jobs > 1 ? "-j" : NULL;
		if (not_here)
			return usage_error("--merge joins shards that ran: %s belongs to the shards' "
					   "sweep command", not_here);
		if (!c->nargs)
			return usage_error("--merge needs the shards' folders: dcqcn-sim sweep --merge "
					   "DIR... [-o OUT]");
		return 0;
	}
	if (c->nargs > 1)
		return usage_error("one scenario at a time (extra argument %s)", c->args[1]);
	c->scenario = c->nargs ? c->args[0] : NULL;
	if (!is_run && !c->scenario)
		return usage_error("%s needs a SCENARIO file", c->cmd);
	if (is_sweep && !c->nvary)
		return usage_error("sweep needs at least one --vary section.key=V1,V2,...");
	return 0;
}

static struct scenario *load(const struct cli *c)
{
	/* the configurations say what they set on stderr: check's stdout
	 * stays a scenario that loads back */
	struct scenario_inputs in = { .path = c->scenario, .switch_config = c->switch_config,
				      .nic_config = c->nic_config, .sets = c->sets,
				      .nsets = c->nsets, .log = c->quiet ? NULL : stderr,
				      .fabric = c->fabric };
	struct scn_error err = {{0}};
	struct scenario *s = scenario_open(&in, &err);
	if (!s)
		fprintf(stderr, "%s\n", err.msg);
	return s;
}

/* results/NAME, NAME = the scenario file name without folder and .ini */
static void default_out_dir(const char *scenario, char *buf, size_t len)
{
	const char *base = scenario ? strrchr(scenario, '/') : NULL;
	base = base ? base + 1 : scenario ? scenario : "default";
	size_t n = strlen(base);
	if (n > 4 && !strcmp(base + n - 4, ".ini"))
		n -= 4;
	snprintf(buf, len, "results/%.*s", (int)n, base);
}

/* the plot scripts: $DCQCN_SIM_PLOTS, the source tree's plots/, the installed ones */
static const char *plots_dir(void)
{
	static const char *const dirs[] = {DCQCN_PLOTS_SOURCE, DCQCN_PLOTS_INSTALLED, NULL};
	return plot_scripts_dir(dirs);
}

/* the metrics the table shows without --columns, in the file's order */
static const char *const table_metrics[] = { "busbw_pct_line", "busbw_judged_min_pct",
					     "ecn_mark_pct", "pause_frame_rate",
					     "drops_lossless", "drops_lossy", "criteria_pass",
					     "criteria_failed", NULL };

/* is name one of the comma-separated fields of list? */
static int in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; p && *p;) {
		size_t l = strcspn(p, ",");
		if (l == n && !strncmp(p, name, n))
			return 1;
		p += l + (p[l] == ',');
	}
	return 0;
}

/* every name of --columns (comma-separated) must be a field of known (a
 * CSV header line); 0, or the usage error with a guess */
static int check_columns(const char *opt, const char *list, const char *known)
{
	if (!*list)
		return usage_error("%s: no column names", opt);
	for (const char *p = list; *p;) {
		size_t l = strcspn(p, ",");
		char name[128];
		snprintf(name, sizeof(name), "%.*s", (int)l, p);
		p += l + (p[l] == ',');
		if (!l)
			return usage_error("%s %s: an empty column name", opt, list);
		if (in_list(known, name))
			continue;
		char *cands = strdup(known), *f[TABLE_MAX_COLS];
		if (!cands)
			return usage_error("out of memory");
		int n = output_split_csv(cands, f, TABLE_MAX_COLS);
		struct scn_guess g;
		scn_guess_init(&g, name, strlen(name));
		for (int i = 0; i < n; i++)
			scn_guess_add(&g, f[i]);
		int rc = scn_guess_best(&g)
				 ? usage_error("%s: %s is not a column of sweep.csv; did you mean %s?",
					       opt, name, scn_guess_best(&g))
				 : usage_error("%s: %s is not a column of sweep.csv (the columns of "
					       "summary.csv: see the README, Outputs)", opt, name);
		free(cands);
		return rc;
	}
	return 0;
}

/* the metric columns of sweep.csv: summary.csv's, and with repeats each
 * numeric one's _min and _max; a comma-separated list */
static void sweep_metric_names(int repeat, char *buf, size_t len)
{
	static struct run_result zero;
	char header[2048], row[2048];
	size_t n = 0;
	run_summary_csv(&zero, header, sizeof(header), row, sizeof(row));
	buf[0] = '\0';
	for (char *h = header, *save = NULL, *tok; (tok = strtok_r(h, ",", &save)); h = NULL) {
		int text = !strcmp(tok, "end") || !strcmp(tok, "criteria_pass") ||
			   !strcmp(tok, "criteria_failed");
		if (n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "," : "", tok);
		if (repeat > 1 && !text && n < len)
			n += (size_t)snprintf(buf + n, len - n, ",%s_min,%s_max", tok, tok);
	}
}

/* what a plot_* call ended with: its note on stdout (unless quiet) and 0,
 * or its failure on stderr and EXIT_PLOT */
static int drawn(int failed, const char *note, int quiet)
{
	if (failed) {
		fprintf(stderr, "dcqcn-sim: plot: %s\n", note);
		return EXIT_PLOT;
	}
	if (!quiet)
		printf("dcqcn-sim: %s\n", note);
	return 0;
}

/* the figures of a run directory, or of a sweep directory (one that holds
 * sweep.csv: the metrics of columns, NULL the default ones), in format; 0,
 * EXIT_USAGE for a column that is not in sweep.csv, or EXIT_PLOT with the
 * reason on stderr */
static int plot_dir(const char *dir, const char *format, int quiet, const char *columns)
{
	char path[4200], err[2048];
	snprintf(path, sizeof(path), "%s/compare.csv", dir);
	if (access(path, F_OK) == 0) { /* a compare directory */
		if (columns)
			return usage_error("plot --columns: %s is a compare directory (--columns "
					   "picks the metrics of a sweep's figures)", dir);
		return drawn(plot_compare(dir, plots_dir(), format, err, sizeof(err)), err, quiet);
	}
	snprintf(path, sizeof(path), "%s/plane.csv", dir);
	if (access(path, F_OK) == 0) { /* a calibrate directory */
		if (columns)
			return usage_error("plot --columns: %s is a calibrate directory (--columns "
					   "picks the metrics of a sweep's figures)", dir);
		return drawn(plot_calibrate(dir, plots_dir(), format, err, sizeof(err)), err, quiet);
	}
	snprintf(path, sizeof(path), "%s/sweep.csv", dir);
	if (access(path, F_OK) != 0) {
		if (columns)
			return usage_error("plot --columns: %s has no sweep.csv (--columns picks the "
					   "metrics of a sweep's figures)", dir);
		return drawn(plot_run(dir, plots_dir(), format, err, sizeof(err)), err, quiet);
	}
	if (columns) {
		char header[TABLE_LINE_BYTES / 4] = "";
		FILE *fp = fopen(path, "r");
		if (fp) {
			if (!fgets(header, sizeof(header), fp))
				header[0] = '\0';
			fclose(fp);
		}
		header[strcspn(header, "\n")] = '\0';
		int rc = check_columns("--columns", columns, header);
		if (rc)
			return rc;
	}
	if (plot_sweep(dir, plots_dir(), format, columns, err, sizeof(err))) {
		fprintf(stderr, "dcqcn-sim: plot: %s\n", err);
		return EXIT_PLOT;
	}
	if (!quiet) {
		snprintf(path, sizeof(path), "%s/p000/r0", dir);
		printf("dcqcn-sim: %s (a point's own: dcqcn-sim plot %s/p000%s)\n", err, dir,
		       access(path, F_OK) == 0 ? "/r0" : "");
	}
	return 0;
}

/* plot DIR [--format F] [--columns M,...] */
static int cmd_plot(int argc, char **argv)
{
	const char *dir = NULL, *format = "png", *columns = NULL;
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--format")) {
			int rc = take_format(argc, argv, &i, &format);
			if (rc)
				return rc;
		} else if (!strcmp(argv[i], "--columns")) {
			if (i + 1 == argc)
				return usage_error("--columns needs a value (sweep.csv columns, e.g. "
						   "ecn_mark_pct,pause_frame_rate)");
			columns = argv[++i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return unknown_option(argv[i]);
		} else if (dir) {
			return usage_error("plot needs one run or sweep directory: dcqcn-sim plot DIR "
					   "[--format png|svg|pdf]");
		} else {
			dir = argv[i];
		}
	}
	if (!dir)
		return usage_error("plot needs one run or sweep directory: dcqcn-sim plot DIR "
				   "[--format png|svg|pdf]");
	struct stat st;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return usage_error("plot: %s is not a run or sweep directory", dir);
	return plot_dir(dir, format, 0, columns);
}

/* sweep.csv as a table: point, the axes, and the deployment metrics (or
 * those of columns, in its order).  The axes are the columns between dir
 * and the summary's first (sim_time_us), but for their base-unit columns
 * (KEY_B after KEY). */
static void print_sweep(const char *dir, const char *columns)
{
	char path[4200];
	char *line = malloc(TABLE_LINE_BYTES);
	char *f[TABLE_MAX_COLS];
	int show[TABLE_MAX_COLS], nshow = 0;
	snprintf(path, sizeof(path), "%s/sweep.csv", dir);
	FILE *fp = line ? fopen(path, "r") : NULL;
	if (!fp) {
		free(line);
		return;
	}
	for (int row = 0; fgets(line, TABLE_LINE_BYTES, fp); row++) {
		line[strcspn(line, "\n")] = '\0';
		int n = output_split_csv(line, f, TABLE_MAX_COLS);
		if (row == 0) {
			int summary = 0, axis = -1;
			for (int col = 0; col < n; col++) {
				size_t al = axis >= 0 ? strlen(f[axis]) : 0;
				summary |= !strcmp(f[col], "sim_time_us");
				int want = col == 0;
				if (col >= 2 && !summary &&
				    !(axis >= 0 && !strncmp(f[col], f[axis], al) && f[col][al] == '_'))
					want = 1, axis = col;
				for (int k = 0; !columns && summary && table_metrics[k]; k++)
					want |= !strcmp(f[col], table_metrics[k]);
				if (want)
					show[nshow++] = col;
			}
			for (const char *p = columns; p && *p;) { /* in the order asked */
				size_t l = strcspn(p, ",");
				for (int col = 0; col < n; col++)
					if (strlen(f[col]) == l && !strncmp(f[col], p, l))
						show[nshow++] = col;
				p += l + (p[l] == ',');
			}
		}
		for (int k = 0; k < nshow; k++) {
			int col = show[k];
			const char *v = col < n && *f[col] ? f[col] : "-";
			printf("  %-*s", col ? 16 : 5, v);
		}
		printf("\n");
	}
	fclose(fp);
	free(line);
}

/* what a sweep or a merge prints and returns when sweep_run or
 * sweep_merge gave st */
static int sweep_outcome(const struct cli *c, const char *dir,
			 int st, int failed, int unjudged, const char *err, int rank)
{
	const char *what = c->merge ? "sweep --merge" : "sweep";
	char who[32] = "";
	if (rank > 0)
		snprintf(who, sizeof(who), "rank %d: ", rank);
	if (st == RUN_EIO && !failed && access(dir, F_OK) != 0) {
		fprintf(stderr, "dcqcn-sim: %s%s: %s\n", who, what, err);
		return EXIT_USAGE;
	}
	if (!c->quiet && rank == 0 && c->shard_count > 0 && st != RUN_EIO) {
		printf("dcqcn-sim: shard %d/%d of the sweep in %s (shard-%d-of-%d.txt); join the "
		       "shards with dcqcn-sim sweep --merge DIR...\n", c->shard_index,
		       c->shard_count, dir, c->shard_index, c->shard_count);
	} else if (!c->quiet && rank == 0 && (st != RUN_EIO || !c->merge)) {
		printf("dcqcn-sim: sweep results in %s/sweep.csv (%d point%s missed the criteria",
		       dir, failed, failed == 1 ? "" : "s");
		if (unjudged)
			printf(", %d not judged: %s", unjudged,
			       "they did not finish their traffic (criteria_failed says why)");
		printf(")\n");
		print_sweep(dir, c->columns);
	}
	int plot_rc = c->plot && st == RUN_OK && rank == 0 && !c->shard_count
			      ? plot_dir(dir, c->format, c->quiet, c->columns)
			      : 0;
	switch (st) {
	case RUN_OK:
		return plot_rc;
	case RUN_INVARIANT:
		fprintf(stderr, "dcqcn-sim: %s%s: %s\n", who, what, err);
		return EXIT_INVARIANT;
	case RUN_INTERRUPTED:
		fprintf(stderr, "dcqcn-sim: %s%s %s; finished points in %s/%s\n", who, what,
			interrupted == SIGINT ? "interrupted" : "terminated", dir,
			c->shard_count ? "pNNN" : "sweep.csv");
		return EXIT_INTERRUPTED;
	default:
		fprintf(stderr, "dcqcn-sim: %s%s: %s\n", who, what, err);
		return EXIT_USAGE;
	}
}

/* sweep --merge DIR... [-o OUT] */
static int cmd_merge(const struct cli *c)
{
	char err[2048], dir[4096];
	struct stat st0, st;
	for (int i = 0; i < c->nargs; i++)
		if (stat(c->args[i], &st) || !S_ISDIR(st.st_mode))
			return usage_error("--merge %s: not a folder (the folders of the shards of a "
					   "sweep --shard I/N)", c->args[i]);
	if (c->out_dir) {
		snprintf(dir, sizeof(dir), "%s", c->out_dir);
	} else {
		for (int i = 0; i < c->nargs; i++) /* one folder, possibly named twice */
			if (stat(c->args[i], &st) || (i && (st.st_dev != st0.st_dev ||
							     st.st_ino != st0.st_ino)))
				return usage_error("--merge of several folders needs -o OUT (the "
						   "folder of the joined sweep.csv)");
			else if (!i)
				st0 = st;
		snprintf(dir, sizeof(dir), "%s", c->args[0]);
	}
	if (c->columns) {
		char known[8192];
		sweep_metric_names(SWEEP_MAX_REPEAT, known, sizeof(known));
		int rc = check_columns("--columns", c->columns, known);
		if (rc)
			return rc;
	}
	int failed = 0, unjudged = 0;
	int rc = sweep_merge(c->args, c->nargs, dir, &failed, &unjudged, err, sizeof(err));
	return sweep_outcome(c, dir, rc, failed, unjudged, err, 0);
}

static int cmd_sweep(const struct cli *c)
{
	if (c->merge)
		return cmd_merge(c);
	struct sweep_opts o = { .scenario = c->scenario, .sets = c->sets, .nsets = c->nsets,
				.resume = c->resume, .repeat = c->repeat,
				.shard_index = c->shard_index, .shard_count = c->shard_count,
				.switch_config = c->switch_config, .nic_config = c->nic_config,
				.jobs = c->jobs, .interrupt = &interrupted };
	char err[2048], dir[4096];
	for (int i = 0; i < c->nvary; i++) {
		if (sweep_parse_vary(c->vary[i], &o.axes[i], err, sizeof(err)))
			return usage_error("%s", err);
		o.naxes++;
	}
	if (c->columns) { /* before an hour of runs, not after */
		char known[8192];
		sweep_metric_names(c->repeat, known, sizeof(known));
		int rc = check_columns("--columns", c->columns, known);
		if (rc)
			return rc;
	}
	if (c->out_dir) {
		snprintf(dir, sizeof(dir), "%s", c->out_dir);
	} else {
		default_out_dir(c->scenario, dir, sizeof(dir));
		strncat(dir, "-sweep", sizeof(dir) - strlen(dir) - 1);
	}
	o.out_dir = dir;
	int rank, size;
	int mpi = sweep_mpi_ranks(&rank, &size);
	(void)size;
	o.log = c->quiet ? NULL : stderr;
	if ((c->switch_config || c->nic_config) && !c->quiet && (!mpi || rank == 0)) {
		/* what the configurations set, once (the points load them quietly) */
		struct scenario_inputs in = { .path = c->scenario, .switch_config = c->switch_config,
					      .nic_config = c->nic_config, .log = stderr };
		struct scn_error e;
		struct scenario *base = scenario_open(&in, &e);
		scenario_close(base); /* a failure is reported with the points */
	}
	install_signals();
	int failed = 0;
	int unjudged = 0;
	int st = sweep_run(&o, &failed, &unjudged, err, sizeof(err));
	return sweep_outcome(c, dir, st, failed, unjudged, err, mpi ? rank : 0);
}

/* the files `run --fluid` writes into DIR/fluid/: removed by a run without
 * it, so that the figures never draw an older run's fluid model */
/* calibrate [SCENARIO] [--stress F]... [--tune K=LO:HI[:STEP]]... [--seeds N]
 * [-j N] [-o DIR] [--set ...] [--threads N] [--switch-config F] [--nic-config F]
 * [--no-plane] [--format F] [--quiet] */
/* calibrate's and compare's --set V or --threads V (option a) into
 * sets[*n]; next: the argument after v, for a hint; threads_set (64
 * bytes) holds the sim.threads assignment.  0 or a usage error. */
static int take_set(const char *a, const char *v, const char *next, const char **sets, int *n,
		    char *threads_set)
{
	if (!strcmp(a, "--set") && !strchr(v, '='))
		return assignment_error(a, v, next);
	if (*n == MAX_SETS)
		return usage_error("too many --set options (at most %d)", MAX_SETS);
	if (!strcmp(a, "--set")) {
		sets[(*n)++] = v;
		return 0;
	}
	snprintf(threads_set, 64, "sim.threads=%s", v);
	sets[(*n)++] = threads_set;
	return 0;
}

static int cmd_calibrate(int argc, char **argv)
{
	struct calibrate_opts *o = calloc(1, sizeof(*o));
	const char **sets = calloc(MAX_SETS, sizeof(*sets));
	char threads_set[64], err[4400], dir[4096];
	const char *format = NULL;
	int quiet = 0, have_seeds = 0, have_jobs = 0, rc = 0;
	if (!o || !sets) {
		free(o);
		free(sets);
		fprintf(stderr, "dcqcn-sim: out of memory\n");
		return EXIT_USAGE;
	}
	o->seeds = o->jobs = 1;
	for (int i = 2; i < argc && rc == 0; i++) {
		const char *a = argv[i];
		int valued = !strcmp(a, "--stress") || !strcmp(a, "--tune") || !strcmp(a, "--seeds") ||
			     !strcmp(a, "-j") || !strcmp(a, "-o") || !strcmp(a, "--set") ||
			     !strcmp(a, "--threads") || !strcmp(a, "--switch-config") ||
			     !strcmp(a, "--nic-config");
		if (valued && i + 1 == argc) {
			rc = usage_error("%s needs a value", a);
			break;
		}
		const char *v = valued ? argv[++i] : NULL;
		char *end;
		if (!strcmp(a, "--stress")) {
			if (o->nstress == CAL_MAX_STRESS)
				rc = usage_error("at most %d --stress scenarios", CAL_MAX_STRESS);
			else
				o->stress[o->nstress++] = v;
		} else if (!strcmp(a, "--tune")) {
			if (o->nkeys == CAL_MAX_KEYS)
				rc = usage_error("at most %d --tune keys", CAL_MAX_KEYS);
			else if (calibrate_parse_tune(v, &o->keys[o->nkeys++], err, sizeof(err)))
				rc = usage_error("%s", err);
			for (int k = 0; rc == 0 && k < o->nkeys - 1; k++)
				if (!strcmp(o->keys[k].key, o->keys[o->nkeys - 1].key))
					rc = usage_error("--tune %s given twice", o->keys[k].key);
		} else if (!strcmp(a, "--seeds") || !strcmp(a, "-j")) {
			long n = strtol(v, &end, 10);
			int seeds = a[1] == '-';
			long max = seeds ? CAL_MAX_SEEDS : 256;
			if (end == v || *end || n < 1 || n > max)
				rc = usage_error("%s %s: %s, 1-%ld", a, v,
						 seeds ? "seeds per point" : "runs at a time", max);
			else if (seeds ? have_seeds++ : have_jobs++)
				rc = usage_error("%s given twice", a);
			else if (seeds)
				o->seeds = (int)n;
			else
				o->jobs = (int)n;
		} else if (!strcmp(a, "-o")) {
			o->out_dir = v;
		} else if (!strcmp(a, "--set") || !strcmp(a, "--threads")) {
			rc = take_set(a, v, i + 1 < argc ? argv[i + 1] : NULL, sets, &o->nsets,
				      threads_set);
		} else if (!strcmp(a, "--switch-config") || !strcmp(a, "--nic-config")) {
			const char **slot = a[2] == 's' ? &o->switch_config : &o->nic_config;
			if (*slot)
				rc = usage_error("%s given twice", a);
			*slot = v;
		} else if (!strcmp(a, "--no-plane")) {
			o->no_plane = 1;
		} else if (!strcmp(a, "--format")) {
			rc = take_format(argc, argv, &i, &format);
		} else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
			quiet = 1;
		} else if (a[0] == '-' && a[1]) {
			rc = unknown_option(a);
		} else if (o->scenario) {
			rc = usage_error("one scenario at a time (extra argument %s; a stress "
					 "scenario is --stress %s)", a, a);
		} else {
			o->scenario = a;
		}
	}
	if (rc == 0 && !o->nkeys)
		o->nkeys = calibrate_default_keys(o->keys);
	if (rc) {
		free(sets);
		free(o);
		return rc;
	}
	o->sets = sets;
	if (o->out_dir) {
		snprintf(dir, sizeof(dir), "%s", o->out_dir);
	} else {
		default_out_dir(o->scenario, dir, sizeof(dir));
		strncat(dir, "-calibrate", sizeof(dir) - strlen(dir) - 1);
	}
	o->out_dir = dir;
	int rank = 0, size;
	sweep_mpi_ranks(&rank, &size);
	o->log = quiet || rank ? NULL : stderr;
	o->out = quiet || rank ? NULL : stdout;
	o->interrupt = &interrupted;
	install_signals();
	int st = calibrate_run(o, NULL, err, sizeof(err));
	int plot_rc = 0;
	if ((st == RUN_OK || st == CALIBRATE_NONE_PASSES) && !o->no_plane && o->nkeys > 1 &&
	    rank == 0)
		plot_rc = plot_dir(dir, format, quiet, NULL);
	free(sets);
	free(o);
	switch (st) {
	case RUN_OK:
		return plot_rc;
	case CALIBRATE_NONE_PASSES:
		return EXIT_NO_PASS;
	case RUN_INTERRUPTED:
		fprintf(stderr, "dcqcn-sim: calibrate %s; the points evaluated are in "
			"%s/calibrate.csv\n", interrupted == SIGINT ? "interrupted" : "terminated",
			dir);
		return EXIT_INTERRUPTED;
	default:
		fprintf(stderr, "dcqcn-sim: calibrate: %s\n", err);
		return EXIT_USAGE;
	}
}

/* compare --fabrics LIST into o; 0 or a usage error */
static int parse_fabrics(const char *list, struct compare_opts *o)
{
	char buf[128];
	snprintf(buf, sizeof(buf), "%s", list);
	o->nfabrics = 0;
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		int k = fabric_name(t);
		if (k < 0)
			return usage_error("--fabrics: %s is not a fabric (roce, infiniband, "
					   "ethernet-tcp)", t);
		for (int i = 0; i < o->nfabrics; i++)
			if (o->fabrics[i] == fabric_names[k])
				return usage_error("--fabrics: %s given twice", t);
		o->fabrics[o->nfabrics++] = fabric_names[k];
	}
	if (!o->nfabrics)
		return usage_error("--fabrics: no fabric given");
	return 0;
}

static int cmd_compare(int argc, char **argv)
{
	struct compare_opts o = { .fabrics = { "roce", "infiniband", "ethernet-tcp" },
				  .nfabrics = 3, .probe_msgs = COMPARE_PROBE_DEFAULT };
	const char **sets = calloc(MAX_SETS, sizeof(*sets));
	char threads_set[64], err[4400], dir[4096];
	const char *format = NULL;
	int quiet = 0, rc = sets ? 0 : usage_error("out of memory");
	for (int i = 2; i < argc && rc == 0; i++) {
		const char *a = argv[i];
		int valued = !strcmp(a, "--fabrics") || !strcmp(a, "--probe") || !strcmp(a, "-o") ||
			     !strcmp(a, "--set") || !strcmp(a, "--threads");
		if (valued && i + 1 == argc) {
			rc = usage_error("%s needs a value", a);
			break;
		}
		const char *v = valued ? argv[++i] : NULL;
		char *end;
		if (!strcmp(a, "--fabrics")) {
			rc = parse_fabrics(v, &o);
		} else if (!strcmp(a, "--probe")) {
			long n = strtol(v, &end, 10);
			if (end == v || *end || n < 0 || n > 100000)
				rc = usage_error("--probe %s: probe messages, 0-100000", v);
			o.probe_msgs = (unsigned)n;
		} else if (!strcmp(a, "-o")) {
			o.out_dir = v;
		} else if (!strcmp(a, "--set") || !strcmp(a, "--threads")) {
			rc = take_set(a, v, i + 1 < argc ? argv[i + 1] : NULL, sets, &o.nsets,
				      threads_set);
		} else if (!strcmp(a, "--format")) {
			rc = take_format(argc, argv, &i, &format);
		} else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
			quiet = 1;
		} else if (a[0] == '-' && a[1]) {
			rc = unknown_option(a);
		} else if (o.scenario) {
			rc = usage_error("one scenario at a time (extra argument %s)", a);
		} else {
			o.scenario = a;
		}
	}
	if (rc) {
		free(sets);
		return rc;
	}
	o.sets = sets;
	if (o.out_dir) {
		snprintf(dir, sizeof(dir), "%s", o.out_dir);
	} else {
		default_out_dir(o.scenario, dir, sizeof(dir));
		strncat(dir, "-compare", sizeof(dir) - strlen(dir) - 1);
	}
	o.out_dir = dir;
	o.log = quiet ? NULL : stderr;
	o.progress = !quiet && isatty(STDERR_FILENO) ? stderr : NULL;
	o.interrupt = &interrupted;
	install_signals();
	struct compare_row rows[COMPARE_MAX_FABRICS] = { 0 };
	enum run_status st = compare_run(&o, rows, err, sizeof(err));
	free(sets);
	if (st == RUN_OK && compare_write_csv(dir, rows, o.nfabrics, err, sizeof(err)))
		st = RUN_EIO;
	if (st == RUN_OK && !quiet) {
		printf("dcqcn-sim: compare: results in %s/\n", dir);
		compare_print(&o, rows, stdout);
	}
	switch (st) {
	case RUN_OK:
		return plot_dir(dir, format, quiet, NULL);
	case RUN_INVARIANT:
		fprintf(stderr, "dcqcn-sim: invariant broken: %s\n", err);
		return EXIT_INVARIANT;
	case RUN_INTERRUPTED:
		fprintf(stderr, "dcqcn-sim: compare %s; the runs so far are in %s/\n",
			interrupted == SIGINT ? "interrupted" : "terminated", dir);
		return EXIT_INTERRUPTED;
	default:
		fprintf(stderr, "dcqcn-sim: compare: %s\n", err);
		return EXIT_USAGE;
	}
}

static const char *const fluid_files[] = { "queues.csv", "rates.csv", "summary.csv", NULL };

static void remove_fluid(const char *dir)
{
	char path[4200];
	for (int i = 0; fluid_files[i]; i++) {
		snprintf(path, sizeof(path), "%s/fluid/%s", dir, fluid_files[i]);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/fluid", dir);
	rmdir(path);
}

/* run --fluid: the fluid model over the packet run's time into DIR/fluid;
 * 0, or -1 with the message in err */
static int run_fluid(const struct scenario *s, const char *dir, sim_time_ps until, int quiet,
		     char *err, size_t errlen)
{
	char sub[4200];
	snprintf(sub, sizeof(sub), "%s/fluid", dir);
	struct fluidrun_opts o = { .out_dir = sub, .duration_ps = until };
	struct fluidrun_result r;
	if (fluidrun_run(s, &o, &r, err, errlen))
		return -1;
	if (!quiet) {
		printf("dcqcn-sim: fluid model in %s/\n", sub);
		fluidrun_print(&r, stdout);
	}
	return 0;
}

static int cmd_run(const struct cli *c)
{
	struct scenario *s = load(c);
	if (!s)
		return EXIT_USAGE;
	char err[2048];
	if (c->fluid && fluidrun_check(s, err, sizeof(err))) { /* the model must take it */
		scenario_free(s);
		free(s);
		return usage_error("--%s", err); /* "fluid: why" */
	}
	scenario_write_warnings(s, stderr, "dcqcn-sim: warning: "); /* and DIR/warnings.txt */
	char dir[4096];
	if (c->out_dir)
		snprintf(dir, sizeof(dir), "%s", c->out_dir);
	else
		default_out_dir(c->scenario, dir, sizeof(dir));
	remove_fluid(dir);
	install_signals();
	struct run_opts opts = {
		.out_dir = dir,
		.progress = !c->quiet && isatty(STDERR_FILENO) ? stderr : NULL,
		.interrupt = &interrupted,
	};
	struct run_result r;
	enum run_status st = run_scenario(s, &opts, &r);
	if (!c->quiet && st != RUN_EIO) {
		printf("dcqcn-sim: results in %s/\n", dir);
		run_print_summary(&r, stdout);
	}
	if (c->fluid && st == RUN_OK &&
	    run_fluid(s, dir, r.sim_time_ps, c->quiet, r.err, sizeof(r.err)))
		st = RUN_EIO;
	scenario_close(s);
	/* the results stand when plotting fails; the exit status says it did */
	int plot_rc = c->plot && st == RUN_OK ? plot_dir(dir, c->format, c->quiet, NULL) : 0;
	switch (st) {
	case RUN_OK:
		return plot_rc;
	case RUN_INVARIANT:
		fprintf(stderr, "dcqcn-sim: invariant broken: %s\n", r.err);
		return EXIT_INVARIANT;
	case RUN_INTERRUPTED:
		fprintf(stderr, "dcqcn-sim: %s; results so far in %s/\n",
			interrupted == SIGINT ? "interrupted" : "terminated", dir);
		return EXIT_INTERRUPTED;
	default:
		fprintf(stderr, "dcqcn-sim: %s\n", r.err);
		return EXIT_USAGE;
	}
}

static int cmd_check(const struct cli *c)
{
	struct scenario *s = load(c);
	if (!s)
		return EXIT_USAGE;
	scenario_print(s, stdout);
	scenario_print_derived(s, stdout);
	run_print_plan(s, stdout);
	scenario_print_warnings(s, stdout);
	int rc = 0;
	if (c->export_dir) {
		char err[4400];
		fflush(stdout);
		if (scenario_export(s, c->export_dir, stderr, err, sizeof(err))) {
			fprintf(stderr, "dcqcn-sim: check --export: %s\n", err);
			rc = EXIT_USAGE;
		} else {
			fprintf(stderr, "dcqcn-sim: exported to %s/: config_db.json, cc_params.txt, "
				"nic-setup.sh, nccl.env\n", c->export_dir);
		}
	}
	scenario_close(s);
	return rc;
}

/* keys [SECTION] */
static int cmd_keys(int argc, char **argv)
{
	char err[1024];
	if (argc > 3)
		return usage_error("keys takes at most one SECTION (extra argument %s)", argv[3]);
	if (argc == 3 && argv[2][0] == '-' && argv[2][1])
		return unknown_option(argv[2]);
	if (scenario_print_keys(stdout, argc == 3 ? argv[2] : NULL, err, sizeof(err)))
		return usage_error("keys: %s", err);
	return 0;
}

/* the options of nccl-tests that take a value, as nccl-tests spells them:
 * -b 1M, -b1M or --minbytes 1M */
static const struct nccltests_option {
	char letter;
	const char *name;
} nccltests_options[] = {
	{ 'b', "--minbytes" }, { 'e', "--maxbytes" }, { 'f', "--stepfactor" },
	{ 'i', "--stepbytes" }, { 'g', "--ngpus" }, { 'n', "--iters" },
	{ 'w', "--warmup_iters" }, { 'j', NULL },
};

/* -X VALUE of nccl-tests into o; 0, or the usage error */
static int nccltests_value(struct nccltests_opts *o, char opt, const char *v, int *have_f,
			   int *have_i)
{
	int64_t x;
	char e[256];
	switch (opt) {
	case 'b':
	case 'e':
	case 'i':
		if (nccltests_parse_size(v, &x))
			return usage_error("-%c: %s is not a size (e.g. 1M; 1 B to 1000 GB, K, M and G "
					   "binary)", opt, v);
		if (opt == 'b')
			o->min_bytes = x;
		else if (opt == 'e')
			o->max_bytes = x;
		else {
			o->step_bytes = x;
			o->step_factor = 0;
			*have_i = 1;
		}
		break;
	case 'f':
		if (units_parse_int(v, 2, 1024, &x, e, sizeof(e)))
			return usage_error("-f: %s: a step factor, 2-1024 (-i SIZE steps by a fixed "
					   "size)", v);
		o->step_factor = x;
		*have_f = 1;
		break;
	case 'g':
		if (units_parse_int(v, 2, 1000000, &x, e, sizeof(e)))
			return usage_error("-g: %s: a number of GPUs (hosts), at least 2", v);
		o->gpus = (uint32_t)x;
		break;
	case 'n':
		if (units_parse_int(v, 1, 1000, &x, e, sizeof(e)))
			return usage_error("-n: %s: timed iterations per placement, 1-1000", v);
		o->iters = (uint32_t)x;
		break;
	case 'w':
		if (units_parse_int(v, 0, 1000, &x, e, sizeof(e)))
			return usage_error("-w: %s: warm-up iterations, 0-1000", v);
		o->warmup = (uint32_t)x;
		break;
	default: /* 'j' */
		if (units_parse_int(v, 1, 256, &x, e, sizeof(e)))
			return usage_error("-j %s: a number of concurrent runs, 1-256", v);
		o->jobs = (int)x;
		break;
	}
	if (*have_f && *have_i)
		return usage_error("-f and -i: give one (a step factor, or a step size)");
	return 0;
}

/* nccl-tests TEST [SCENARIO] [-b SIZE] [-e SIZE] [-f N | -i SIZE] ... */
static int cmd_nccltests(int argc, char **argv)
{
	static const char *const tests[] = { "all_reduce_perf", "all_to_all_perf", "alltoall_perf",
					     NULL };
	struct nccltests_opts o;
	const char *sets[MAX_SETS], *test = NULL;
	char threads_set[64], err[2048];
	int nsets = 0, have_f = 0, have_i = 0;
	nccltests_defaults(&o);
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i], *v = NULL;
		char opt = 0;
		for (size_t k = 0; !opt && k < sizeof(nccltests_options) / sizeof(nccltests_options[0]);
		     k++) {
			const struct nccltests_option *no = &nccltests_options[k];
			if (a[0] == '-' && a[1] == no->letter) {
				opt = no->letter;
				v = a[2] ? a + 2 : NULL;
			} else if (no->name && !strcmp(a, no->name)) {
				opt = no->letter;
			}
		}
		if (opt) {
			if (!v && i + 1 == argc)
				return usage_error("-%c needs a value", opt);
			int rc = nccltests_value(&o, opt, v ? v : argv[++i], &have_f, &have_i);
			if (rc)
				return rc;
		} else if (!strcmp(a, "--out") || !strcmp(a, "--set") || !strcmp(a, "--threads")) {
			if (i + 1 == argc)
				return usage_error("%s needs a value", a);
			v = argv[++i];
			if (!strcmp(a, "--out")) {
				o.out_dir = v;
				continue;
			}
			if (nsets == MAX_SETS)
				return usage_error("too many --set options (at most %d)", MAX_SETS);
			if (!strcmp(a, "--threads")) { /* the loader checks the value */
				snprintf(threads_set, sizeof(threads_set), "sim.threads=%s", v);
				sets[nsets++] = threads_set;
			} else if (!strchr(v, '=')) {
				return assignment_error(a, v, i + 1 < argc ? argv[i + 1] : NULL);
			} else {
				sets[nsets++] = v;
			}
		} else if (a[0] == '-' && a[1]) {
			return unknown_option(a);
		} else if (!test) {
			test = a;
		} else if (!o.scenario) {
			o.scenario = a;
		} else {
			return usage_error("one scenario at a time (extra argument %s)", a);
		}
	}
	if (!test)
		return usage_error("nccl-tests needs a test: all_reduce_perf or all_to_all_perf");
	if (nccltests_coll_of(test, &o.coll)) {
		size_t n = strlen(test);
		const char *guess = scn_guess_name(tests, test);
		if (n > 4 && !strcmp(test + n - 4, ".ini") && !o.scenario)
			return usage_error("nccl-tests %s: the test comes first (dcqcn-sim nccl-tests "
					   "all_reduce_perf %s)", test, test);
		if (guess)
			return usage_error("nccl-tests: %s is not a test; did you mean %s?", test,
					   guess);
		return usage_error("nccl-tests: %s is not a test (all_reduce_perf or "
				   "all_to_all_perf)", test);
	}
	o.sets = sets;
	o.nsets = nsets;
	if (nccltests_check_opts(&o, err, sizeof(err)))
		return usage_error("%s", err);
	install_signals();
	signal(SIGPIPE, SIG_IGN); /* a closed pipe (| head) is a write error: the runs stop */
	o.interrupt = &interrupted;
	o.progress = isatty(STDERR_FILENO) ? stderr : NULL;
	int usage_fault;
	struct nccltests *t = nccltests_prepare(&o, err, sizeof(err), &usage_fault);
	if (!t) {
		if (usage_fault)
			return usage_error("%s", err);
		fprintf(stderr, "dcqcn-sim: nccl-tests: %s\n", err);
		return EXIT_USAGE;
	}
	scenario_write_warnings(nccltests_scenario(t), stderr, "dcqcn-sim: warning: ");
	int st = nccltests_run(t, stdout, err, sizeof(err));
	nccltests_free(t);
	if (st != NCCLTESTS_OK)
		fprintf(stderr, "dcqcn-sim: nccl-tests: %s\n", err);
	switch (st) {
	case NCCLTESTS_OK:
		return 0;
	case NCCLTESTS_INVARIANT:
		return EXIT_INVARIANT;
	case NCCLTESTS_INTERRUPTED:
		return EXIT_INTERRUPTED;
	case NCCLTESTS_FAILED:
		return EXIT_COLL_FAILED;
	default:
		return EXIT_USAGE;
	}
}

/* fluid SCENARIO [-o DIR] [--set S.K=V]... [--step T] [--sweep-flows A:B] */
static int cmd_fluid(int argc, char **argv)
{
	struct cli c = { .cmd = "fluid" };
	struct fluidrun_opts o = { 0 };
	unsigned lo = 0, hi = 0;
	int sweep = 0;
	char err[2048], dir[4096];
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-o") || !strcmp(a, "--set") || !strcmp(a, "--step") ||
		    !strcmp(a, "--sweep-flows")) {
			if (i + 1 == argc)
				return usage_error("%s needs a value", a);
			const char *v = argv[++i];
			if (!strcmp(a, "-o")) {
				c.out_dir = v;
			} else if (!strcmp(a, "--step")) {
				if (units_parse_time(v, &o.step_ps, err, sizeof(err)) || o.step_ps <= 0)
					return usage_error("--step %s: a time, e.g. 100ns", v);
			} else if (!strcmp(a, "--sweep-flows")) {
				char tail;
				if (sscanf(v, "%u:%u%c", &lo, &hi, &tail) != 2 || lo < 1 || hi < lo)
					return usage_error("--sweep-flows %s: A:B, 1 <= A <= B (e.g. 2:64)",
							   v);
				sweep = 1;
			} else if (!strchr(v, '=')) {
				return assignment_error(a, v, i + 1 < argc ? argv[i + 1] : NULL);
			} else {
				if (c.nsets == MAX_SETS)
					return usage_error("too many --set options (at most %d)", MAX_SETS);
				c.sets[c.nsets++] = v;
			}
		} else if (a[0] == '-' && a[1]) {
			return unknown_option(a);
		} else if (c.scenario) {
			return usage_error("one scenario at a time (extra argument %s)", a);
		} else {
			c.scenario = a;
		}
	}
	if (!c.scenario)
		return usage_error("fluid needs a SCENARIO file");
	struct scenario *s = load(&c);
	if (!s)
		return EXIT_USAGE;
	int rc;
	if (sweep) {
		rc = fluidrun_sweep(s, &o, lo, hi, stdout, err, sizeof(err));
	} else {
		if (c.out_dir) {
			snprintf(dir, sizeof(dir), "%s", c.out_dir);
		} else {
			default_out_dir(c.scenario, dir, sizeof(dir));
			strncat(dir, "-fluid", sizeof(dir) - strlen(dir) - 1);
		}
		o.out_dir = dir;
		struct fluidrun_result r;
		rc = fluidrun_run(s, &o, &r, err, sizeof(err));
		if (!rc) {
			printf("dcqcn-sim: fluid results in %s/\n", dir);
			fluidrun_print(&r, stdout);
		}
	}
	scenario_free(s);
	free(s);
	if (rc)
		fprintf(stderr, "dcqcn-sim: %s\n", err);
	return rc ? EXIT_USAGE : 0;
}

static int cli_main(int argc, char **argv)
{
	if (argc < 2) {
		fputs(usage, stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(usage, stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("dcqcn-sim %s\n", DCQCN_VERSION);
		return 0;
	}
	current = find_command(argv[1]);
	if (!current) {
		struct scn_guess g;
		scn_guess_init(&g, argv[1], strlen(argv[1]));
		for (size_t i = 0; i < N_COMMANDS; i++)
			scn_guess_add(&g, commands[i].name);
		if (scn_guess_best(&g))
			return usage_error("unknown command %s; did you mean %s?", argv[1],
					   scn_guess_best(&g));
		return usage_error("unknown command %s", argv[1]);
	}
	/* COMMAND --help, wherever it is: the help wins over whatever else is wrong */
	for (int i = 2; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(current->help, stdout);
			return 0;
		}
	if (!strcmp(argv[1], "plot"))
		return cmd_plot(argc, argv);
	if (!strcmp(argv[1], "keys"))
		return cmd_keys(argc, argv);
	if (!strcmp(argv[1], "nccl-tests"))
		return cmd_nccltests(argc, argv);
	if (!strcmp(argv[1], "fluid"))
		return cmd_fluid(argc, argv);
	if (!strcmp(argv[1], "calibrate"))
		return cmd_calibrate(argc, argv);
	if (!strcmp(argv[1], "compare"))
		return cmd_compare(argc, argv);
	struct cli c = {0};
	int rc = parse_args(argc, argv, &c);
	if (rc)
		return rc;
	if (!strcmp(c.cmd, "sweep"))
		return cmd_sweep(&c);
	return !strcmp(c.cmd, "run") ? cmd_run(&c) : cmd_check(&c);
}

#ifdef DCQCN_MPI
/* launched by mpirun (Open MPI, or a PMI launcher): only then MPI_Init, so
 * that without mpirun the MPI build is the plain one */
static int under_mpirun(void)
{
	return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_RANK");
}
#endif

int main(int argc, char **argv)
{
#ifdef DCQCN_MPI
	int mpi = under_mpirun();
	if (mpi)
		MPI_Init(&argc, &argv);
	int rc = cli_main(argc, argv);
	if (mpi)
		MPI_Finalize();
	return rc;
#else
	return cli_main(argc, argv);
#endif
}
