/*
 * test_teaching.c - every teaching scenario in scenarios/ teaches what its
 * header says, in numbers: run it as shipped and with the override its
 * header suggests, and compare.  What the header says of the settings is
 * checked too (header_states_settings), and a collective's verdict must not
 * depend on how many iterations run (verdict_*).
 *
 * The convention of a scenario's header comment (its leading '#' lines):
 *   `section.key = value`  in backquotes states a setting of the file as
 *                          it is; `key = value` without a section takes the
 *                          section of the setting before it.  Assigning
 *                          the stated value must change nothing.
 *   --set section.key=value  (prose or command lines) an override: it must
 *                          load, change the scenario, and name the same
 *                          value wherever the header names that key.
 *   N-to-1, N senders      an incast job of the file has N senders.
 * Every header states at least one setting.
 *
 * Snapshots and closed forms: where a comment derives an expected value
 * (a goodput ceiling, a ratio of bytes, a bound), the value is a closed
 * form; the other figures a lesson states (pause counts, mark percentages,
 * FCTs) are regression snapshots of what the model computed when the
 * lesson was written, kept equal to docs/tutorial.md and the scenario's
 * header.  To refresh one: run the command the lesson gives, then update
 * the header, docs/tutorial.md and this test together.
 */
#include <check.h>
#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/fabric/fabric.h"
#include "models/scenario/scenario.h"
#include "sim/run/run.h"
#include "testlib.h"

#ifndef TEST_SCENARIO_DIR
#define TEST_SCENARIO_DIR "scenarios"
#endif
#ifndef TEST_DATA_DIR
#define TEST_DATA_DIR "tests/data"
#endif

/* scenarios/NAME.ini with the --set overrides sets (NULL-terminated, or
 * NULL), finalized (free: tl_unload) */
static struct scenario *load_named(const char *name, const char *const *sets)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s.ini", TEST_SCENARIO_DIR, name);
	struct scenario *s = calloc(1, sizeof(*s));
	struct scn_error err = {{0}};
	ck_assert_ptr_nonnull(s);
	scenario_init(s);
	int rc = scenario_load_file(s, path, &err);
	for (int i = 0; rc == 0 && sets && sets[i]; i++)
		rc = scenario_set(s, sets[i], &err);
	if (rc == 0)
		rc = scenario_finalize(s, &err);
	ck_assert_msg(rc == 0, "%s: %s", path, err.msg);
	return s;
}

/* load scenarios/NAME.ini with the --set overrides sets (NULL-terminated,
 * or NULL) and run it to its sim.duration (or until every flow is done) */
static struct fabric *run_sets(const char *name, const char *const *sets, struct scenario **ps)
{
	struct scenario *s = load_named(name, sets);
	struct fabric *f = tl_build(s);
	struct tl_log *log = malloc(sizeof(*log));
	ck_assert_ptr_nonnull(log);
	tl_log_attach(f, log); /* f->hooks.ctx */
	fabric_run_until(f, s->duration_ps);
	uint64_t in_flight;
	ck_assert_msg(fabric_check_conservation(f, &in_flight) == 0, "%s", f->err);
	*ps = s;
	return f;
}

/* the same with up to two overrides */
static struct fabric *run(const char *name, const char *set1, const char *set2,
			  struct scenario **ps)
{
	const char *sets[] = { set1, set1 ? set2 : NULL, NULL };
	return run_sets(name, sets, ps);
}

static void done(struct fabric *f, struct scenario *s)
{
	tl_log_free(f->hooks.ctx);
	free(f->hooks.ctx);
	fabric_destroy(f);
	scenario_free(s);
	free(s);
}

/* payload delivered to the messages of job `name` */
static int64_t job_bytes(const struct fabric *f, const char *name)
{
	return tl_job_rx_bytes(f, f->hooks.ctx, name);
}

START_TEST(pfc_only_pauses_dcqcn_marks)
{
	struct scenario *s1, *s2;
	struct fabric *cc = run("pfc-vs-dcqcn", NULL, NULL, &s1);
	struct fabric *pfc = run("pfc-vs-dcqcn", "nic.cc=none", NULL, &s2);
	ck_assert(fabric_finished(cc) && fabric_finished(pfc));
	ck_assert_msg(tl_stats(cc).pause_frames * 10 < tl_stats(pfc).pause_frames, "pauses: dcqcn %llu, pfc %llu",
		      (unsigned long long)tl_stats(cc).pause_frames, (unsigned long long)tl_stats(pfc).pause_frames);
	ck_assert_uint_gt(tl_stats(cc).cc.cnps_sent, 0);
	ck_assert_uint_eq(tl_stats(pfc).cc.cnps_sent, 0);
	ck_assert_uint_eq(tl_stats(cc).drops.lossless + tl_stats(pfc).drops.lossless, 0);
	done(cc, s1);
	done(pfc, s2);
}
END_TEST

START_TEST(pause_storm_spreads_unless_watchdog)
{
	struct scenario *s1, *s2;
	struct fabric *wd = run("pause-storm", "sim.duration=10ms", NULL, &s1);
	struct fabric *nowd = run("pause-storm", "sim.duration=10ms", "pfcwd.enable=false", &s2);
	/* without the watchdog the spine's port to leaf0 is still paused at
	 * the end and the victim (h9 -> h1) is starved; with it, leaf0 drops
	 * for h0 and the victim runs */
	struct port *spine_to_leaf0 = &nowd->sws[2].ports[0];
	ck_assert(spine_to_leaf0->pause.paused & (1u << 3));
	ck_assert(!(wd->sws[2].ports[0].pause.paused & (1u << 3)));
	ck_assert_uint_gt(tl_stats(wd).pfcwd_storms, 0);
	ck_assert_uint_gt(tl_stats(wd).drops.pfcwd, 0);
	int64_t v_wd = job_bytes(wd, "victim"), v_no = job_bytes(nowd, "victim");
	ck_assert_msg(v_wd > 10 * v_no, "victim: %lld B with the watchdog, %lld B without",
		      (long long)v_wd, (long long)v_no);
	done(wd, s1);
	done(nowd, s2);
}
END_TEST

START_TEST(victim_flow_slowed_by_shared_path)
{
	struct scenario *s1, *s2, *s3;
	struct fabric *shared = run("victim-flow", "sim.duration=5ms", NULL, &s1);
	struct fabric *alone = run("victim-flow", "sim.duration=5ms", "job.incast.start=1s", &s2);
	struct fabric *cc = run("victim-flow", "sim.duration=5ms", "nic.cc=dcqcn", &s3);
	int64_t v = job_bytes(shared, "victim"), a = job_bytes(alone, "victim");
	int64_t d = job_bytes(cc, "victim");
	/* alone it runs at the 100G goodput ceiling: 98 Gbps x 5 ms */
	ck_assert_msg(a > 0.97 * 100e9 / 8 * 5e-3 * 4096 / 4178, "alone: %lld B", (long long)a);
	/* the header: about 17 Gbps of 98 with PFC alone; DCQCN frees it */
	ck_assert_msg(v < a / 4, "victim: %lld B with the incast, %lld B alone", (long long)v,
		      (long long)a);
	ck_assert_msg(d > a * 0.85, "victim: %lld B with DCQCN, %lld B alone", (long long)d,
		      (long long)a);
	done(shared, s1);
	done(alone, s2);
	done(cc, s3);
}
END_TEST

START_TEST(undersized_headroom_drops)
{
	struct scenario *s1, *s2;
	struct fabric *small = run("headroom", NULL, NULL, &s1);
	struct fabric *autoh = run("headroom", "pfc.headroom=auto", NULL, &s2);
	ck_assert_uint_gt(tl_stats(small).drops.lossless, 0);
	ck_assert_uint_gt(tl_stats(small).cc.retransmitted_bytes, 0);
	ck_assert_uint_eq(tl_stats(autoh).drops.lossless, 0);
	ck_assert(fabric_finished(small) && fabric_finished(autoh)); /* go-back-N recovers */
	done(small, s1);
	done(autoh, s2);
}
END_TEST

START_TEST(dscp_mismatch_is_lossy)
{
	struct scenario *s1, *s2;
	struct fabric *wrong = run("dscp-mismatch", NULL, NULL, &s1);
	struct fabric *right = run("dscp-mismatch", "job.incast.dscp=26", NULL, &s2);
	ck_assert_uint_gt(tl_stats(wrong).drops.lossy, 0);
	ck_assert_uint_gt(tl_stats(wrong).cc.retransmitted_bytes, 0);
	ck_assert_uint_eq(tl_stats(wrong).pause_frames, 0);
	ck_assert_uint_eq(tl_stats(right).drops.lossy + tl_stats(right).drops.lossless, 0);
	ck_assert_uint_gt(tl_stats(right).pause_frames, 0);
	done(wrong, s1);
	done(right, s2);
}
END_TEST

START_TEST(high_ecn_thresholds_pause_more_mark_less)
{
	struct scenario *s1, *s2;
	struct fabric *low = run("ecn-thresholds", NULL, NULL, &s1);
	struct fabric *high = run("ecn-thresholds", "ecn.kmin=12MB", "ecn.kmax=16MB", &s2);
	ck_assert_msg(tl_stats(high).pause_frames > tl_stats(low).pause_frames, "pauses: high %llu, low %llu",
		      (unsigned long long)tl_stats(high).pause_frames, (unsigned long long)tl_stats(low).pause_frames);
	ck_assert_msg(tl_stats(high).cc.ce_delivered < tl_stats(low).cc.ce_delivered, "marks: high %llu, low %llu",
		      (unsigned long long)tl_stats(high).cc.ce_delivered,
		      (unsigned long long)tl_stats(low).cc.ce_delivered);
	done(low, s1);
	done(high, s2);
}
END_TEST

/* the scenario at path with the assignments sets[0..nsets) applied,
 * finalized; NULL with the loader's message in err otherwise */
static struct scenario *load_path(const char *path, char (*sets)[512], int nsets,
				  struct scn_error *err)
{
	const char *list[64];
	ck_assert_int_le(nsets, 64);
	for (int i = 0; i < nsets; i++)
		list[i] = sets[i];
	struct scenario_inputs in = { .path = path, .sets = list, .nsets = nsets };
	return scenario_open(&in, err);
}

/* the header comment of a scenario file: its leading lines that start with
 * '#' or ';', without that character, joined by spaces (a backquoted
 * setting may wrap) */
static char *header_of(const char *path)
{
	FILE *fp = fopen(path, "r");
	ck_assert_msg(fp != NULL, "%s: cannot open", path);
	size_t cap = 4096, n = 0;
	char *h = malloc(cap), line[1024];
	ck_assert_ptr_nonnull(h);
	h[0] = '\0';
	while (fgets(line, sizeof(line), fp) && (line[0] == '#' || line[0] == ';')) {
		line[strcspn(line, "\r\n")] = '\0';
		size_t l = strlen(line + 1);
		if (n + l + 2 > cap) {
			cap = 2 * (n + l + 2);
			h = realloc(h, cap);
			ck_assert_ptr_nonnull(h);
		}
		memcpy(h + n, line + 1, l);
		n += l;
		h[n++] = ' ';
		h[n] = '\0';
	}
	fclose(fp);
	return h;
}

/* [b, e) without the spaces around it, into out */
static void trimmed(char *out, size_t len, const char *b, const char *e)
{
	while (b < e && isspace((unsigned char)*b))
		b++;
	while (e > b && isspace((unsigned char)e[-1]))
		e--;
	ck_assert_uint_lt((size_t)(e - b), len);
	memcpy(out, b, (size_t)(e - b));
	out[e - b] = '\0';
}

/* the resolved scenario at path with sets[0..nsets) applied, printed;
 * NULL with the loader's message in err when it does not load */
static char *print_with_sets(const char *path, char (*sets)[512], int nsets, struct scn_error *err)
{
	struct scenario *s = load_path(path, sets, nsets, err);
	if (!s)
		return NULL;
	char *p = tl_print(s);
	scenario_free(s);
	free(s);
	/* the values alone: not the "# from the command line: ..." line that
	 * names the keys the --set gave */
	for (char *l = p; l && *l;) {
		char *e = strchr(l, '\n');
		if (strncmp(l, "# from ", 7) == 0 && e)
			memmove(l, e + 1, strlen(e + 1) + 1);
		else
			l = e ? e + 1 : NULL;
	}
	return p;
}

/* the number ending just before p, when a word boundary precedes it;
 * -1 otherwise */
static long number_before(const char *start, const char *p)
{
	const char *b = p;
	while (b > start && isdigit((unsigned char)b[-1]))
		b--;
	if (b == p || (b > start && (isalnum((unsigned char)b[-1]) || b[-1] == '.')))
		return -1;
	return strtol(b, NULL, 10);
}

/* an incast job of s has n senders */
static int incast_of(const struct scenario *s, long n)
{
	for (uint32_t j = 0; j < s->njobs; j++)
		if (s->jobs[j].pattern == SCN_JOB_INCAST && (long)s->jobs[j].senders.n == n)
			return 1;
	return 0;
}

/* what check_header found wrong, into why */
__attribute__((format(printf, 3, 4))) static void say(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
}

#define HEADER_FAIL(...)                                   \
	do {                                               \
		say(why, whylen, __VA_ARGS__);             \
		stated = -1;                               \
		goto out;                                  \
	} while (0)

/*
 * What the header of the scenario file at path states: every backquoted
 * setting holds, every --set loads, changes something and agrees with the
 * other --set of its key, every N-to-1 and N senders is an incast of N
 * senders.  Returns how many settings the header states, or -1 with what
 * is wrong in why.
 */
static int check_header(const char *path, char *why, size_t whylen)
{
	char *h = header_of(path), *ref = NULL, *got = NULL;
	struct scn_error err = {{0}};
	struct scenario *s = load_path(path, NULL, 0, &err);
	char section[128] = "", set[1][512], sets[32][512];
	int stated = 0, nsets = 0;

	why[0] = '\0';
	if (!s)
		HEADER_FAIL("%s: %s", path, err.msg);
	ref = tl_print(s);

	/* `section.key = value`: assigning it changes nothing */
	for (const char *p = strchr(h, '`'); p; p = strchr(p, '`')) {
		const char *e = strchr(p + 1, '`');
		if (!e)
			HEADER_FAIL("%s: an unmatched ` in the header", path);
		char span[512], key[128], value[200];
		trimmed(span, sizeof(span), p + 1, e);
		p = e + 1;
		char *eq = strchr(span, '=');
		if (!eq || strstr(span, "--set"))
			continue;
		trimmed(key, sizeof(key), span, eq);
		trimmed(value, sizeof(value), eq + 1, span + strlen(span));
		char *dot = strrchr(key, '.');
		if (dot) {
			snprintf(section, sizeof(section), "%.*s", (int)(dot - key), key);
			snprintf(set[0], sizeof(set[0]), "%s=%s", key, value);
		} else if (section[0]) {
			snprintf(set[0], sizeof(set[0]), "%s.%s=%s", section, key, value);
		} else {
			HEADER_FAIL("%s: `%s` names no section and follows no setting", path, span);
		}
		got = print_with_sets(path, set, 1, &err);
		if (!got)
			HEADER_FAIL("%s: its header states `%s`, which does not load: %s", path,
				    span, err.msg);
		if (strcmp(got, ref) != 0)
			HEADER_FAIL("%s: its header states `%s` (%s), but the file sets something "
				    "else",
				    path, span, set[0]);
		free(got);
		got = NULL;
		stated++;
	}

	/* --set key=value: each run's assignments (--set after --set) load
	 * together and change the scenario; one value per key in the header */
	for (const char *p = strstr(h, "--set"); p;) {
		int first = nsets;
		while (p && strncmp(p, "--set", 5) == 0) {
			p += 5;
			while (*p == ' ')
				p++;
			size_t l = strcspn(p, " `)");
			while (l && strchr(".,;:", p[l - 1]))
				l--; /* the end of a sentence */
			ck_assert_int_lt(nsets, 32);
			ck_assert_uint_lt(l, sizeof(sets[0]));
			char *a = sets[nsets];
			snprintf(a, sizeof(sets[0]), "%.*s", (int)l, p);
			p += l;
			const char *eq = strchr(a, '=');
			if (!eq)
				HEADER_FAIL("%s: --set %s is not key=value", path, a);
			for (int i = 0; i < nsets; i++)
				if (strncmp(sets[i], a, (size_t)(eq - a) + 1) == 0 &&
				    strcmp(sets[i], a) != 0)
					HEADER_FAIL("%s: its header says --set %s and --set %s",
						    path, sets[i], a);
			nsets++;
			while (*p == ' ' || *p == '\\')
				p++; /* a command line goes on */
		}
		got = print_with_sets(path, sets + first, nsets - first, &err);
		if (!got)
			HEADER_FAIL("%s: its header suggests --set %s%s, which does not load: %s",
				    path, sets[first], nsets - first > 1 ? " ..." : "", err.msg);
		if (strcmp(got, ref) == 0)
			HEADER_FAIL("%s: its header suggests --set %s%s, which the file already "
				    "sets",
				    path, sets[first], nsets - first > 1 ? " ..." : "");
		free(got);
		got = NULL;
		p = strstr(p, "--set");
	}

	/* N-to-1 and N senders: an incast of N senders */
	static const char *const counts[] = { "-to-1", " senders" };
	for (int c = 0; c < 2; c++)
		for (const char *p = strstr(h, counts[c]); p; p = strstr(p + 1, counts[c])) {
			long n = number_before(h, p);
			if (n < 0 || isdigit((unsigned char)p[strlen(counts[c])]))
				continue;
			if (!incast_of(s, n))
				HEADER_FAIL("%s: its header says %ld%s, but no incast job has %ld "
					    "senders",
					    path, n, counts[c], n);
		}
out:
	free(got);
	free(ref);
	free(h);
	if (s) {
		scenario_free(s);
		free(s);
	}
	return stated;
}
#undef HEADER_FAIL

static int has_suffix(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* every scenarios/ *.ini (and the test's own scenario) states in its header
 * only what it runs, and states something */
START_TEST(header_states_settings)
{
	char why[1024];
	DIR *d = opendir(TEST_SCENARIO_DIR);
	ck_assert_ptr_nonnull(d);
	int files = 0;
	for (struct dirent *de; (de = readdir(d));) {
		if (de->d_name[0] == '.' || !has_suffix(de->d_name, ".ini"))
			continue;
		char path[512];
		snprintf(path, sizeof(path), "%s/%s", TEST_SCENARIO_DIR, de->d_name);
		int n = check_header(path, why, sizeof(why));
		ck_assert_msg(n >= 0, "%s", why);
		ck_assert_msg(n > 0, "%s: its header states no setting as `section.key = value`",
			      path);
		files++;
	}
	closedir(d);
	ck_assert_int_ge(files, 8); /* default and the seven lessons */
	int n = check_header(TEST_DATA_DIR "/warmup-iterations.ini", why, sizeof(why));
	ck_assert_msg(n > 0, "%s", why);
}
END_TEST

/* a copy of text as x.ini: check_header's verdict, what it found wrong in
 * why */
static int header_ok(const char *text, char *why, size_t whylen)
{
	char dir[64], path[128];
	tl_write_temp(dir, path, "x.ini", text);
	int n = check_header(path, why, whylen);
	tl_remove_temp(dir, path);
	return n > 0;
}

static char *replaced(const char *text, const char *from, const char *to)
{
	const char *p = strstr(text, from);
	ck_assert_msg(p != NULL, "\"%s\" not in the text", from);
	size_t n = strlen(text) - strlen(from) + strlen(to) + 1;
	char *out = malloc(n);
	ck_assert_ptr_nonnull(out);
	snprintf(out, n, "%.*s%s%s", (int)(p - text), text, to, p + strlen(from));
	return out;
}

/* a header that contradicts its file fails the check: ecn-thresholds.ini
 * with one thing changed at a time */
START_TEST(header_contradiction_fails)
{
	static const char *const edits[][3] = {
		/* from, to, what the check must say: a stated setting ... */
		{ "`kmax = 400KB`", "`kmax = 8MB`", "states `kmax = 8MB` (ecn.kmax=8MB)" },
		{ "`ecn.kmin = 50KB`", "`ecn.kmin = 50`", "which does not load" },
		/* ... the setting itself ... */
		{ "kmin = 50KB\n", "kmin = 60KB\n", "but the file sets something else" },
		/* ... a sender count ... */
		{ "a 16-to-1 incast", "an 8-to-1 incast", "says 8-to-1" },
		{ "incast with DCQCN", "incast of 15 senders with DCQCN", "says 15 senders" },
		/* ... an override: the prose against the command line, not
		 * key=value, not loading, changing nothing */
		{ "--set ecn.kmax=16MB)", "--set ecn.kmax=20MB)",
		  "says --set ecn.kmax=20MB and --set ecn.kmax=16MB" },
		{ "--set ecn.kmin=12MB --set ecn.kmax=16MB --plot", "--set ecn.pmax --plot",
		  "--set ecn.pmax is not key=value" },
		{ "--set ecn.kmin=12MB --set ecn.kmax=16MB --plot",
		  "--set ecn.kmax=16MB --set ecn.kmin=12MB --set ecn.pmx=5% --plot",
		  "--set ecn.kmax=16MB ..., which does not load" },
		{ "--set ecn.kmin=12MB --set ecn.kmax=16MB --plot", "--set ecn.pmax=20% --plot",
		  "which the file already sets" },
	};
	char why[1024];
	char *text = tl_slurp(TEST_SCENARIO_DIR, "ecn-thresholds.ini");
	ck_assert_msg(header_ok(text, why, sizeof(why)), "%s", why);
	for (size_t i = 0; i < sizeof(edits) / sizeof(edits[0]); i++) {
		char *bad = replaced(text, edits[i][0], edits[i][1]);
		ck_assert_msg(!header_ok(bad, why, sizeof(why)), "\"%s\" for \"%s\" went unnoticed",
			      edits[i][1], edits[i][0]);
		ck_assert_msg(strstr(why, edits[i][2]) != NULL, "\"%s\" for \"%s\": %s",
			      edits[i][1], edits[i][0], why);
		free(bad);
	}
	free(text);
}
END_TEST

/*
 * rail-optimized.ini: 4 servers x 8 GPUs, GPU g's NIC on rail leaf g, one
 * 256 MB all-reduce of the 32 GPUs.  Its header's runs, against closed
 * forms and against each other; every run drops nothing.
 */
#define RAIL_S 256e6
#define RAIL_FRAME 4158 /* one data frame, mtu + 62 B, in a queue */
/* 400G goodput ceiling, bytes per second (docs/model.md#wire: 49.0 GB/s) */
#define GOODPUT_400G (400e9 / 8 * 4096.0 / 4178.0)

static const char *const rail_tree[] = { "job.allreduce.algorithm=tree",
					 "job.allreduce.channels=16", NULL };
static const char *const rail_tree_pfc[] = { "job.allreduce.algorithm=tree",
					     "job.allreduce.channels=16", "nic.cc=none", NULL };
static const char *const rail_ring_2mb[] = { "job.allreduce.size=2MB", NULL };
static const char *const rail_tree_2mb[] = { "job.allreduce.size=2MB",
					     "job.allreduce.algorithm=tree",
					     "job.allreduce.channels=16", NULL };
static const char *const rail_busy[] = { "job.rail3.pattern=permutation",
					 "job.rail3.ranks=3,11,19,27", "job.rail3.size=64MB",
					 NULL };

/* the header of scenarios/NAME.ini suggests these overrides as one run:
 * "--set A --set B ..." in that order (a command line may wrap) */
static void header_suggests(const char *name, const char *const *sets)
{
	char path[512], want[1024] = "";
	snprintf(path, sizeof(path), "%s/%s.ini", TEST_SCENARIO_DIR, name);
	char *h = header_of(path), *w = h;
	for (const char *r = h; *r; r++)
		if (*r != '\\' && !(*r == ' ' && w > h && w[-1] == ' '))
			*w++ = *r;
	*w = '\0';
	for (int i = 0; sets[i]; i++) {
		size_t n = strlen(want);
		snprintf(want + n, sizeof(want) - n, "%s--set %s", i ? " " : "", sets[i]);
	}
	ck_assert_msg(strstr(h, want) != NULL, "%s: its header does not suggest %s", path, want);
	free(h);
}

/* rail-optimized.ini with the overrides sets (or NULL) run to its end:
 * every job done, no packet dropped */
static struct fabric *rail_run(const char *const *sets, struct scenario **ps)
{
	if (sets)
		header_suggests("rail-optimized", sets);
	struct fabric *f = run_sets("rail-optimized", sets, ps);
	ck_assert_msg(fabric_finished(f), "%llu of %llu messages done",
		      (unsigned long long)fabric_flows_done(f),
		      (unsigned long long)fabric_flows_total(f));
	struct net_stats st = tl_stats(f);
	ck_assert_uint_eq(st.drops.lossless, 0);
	ck_assert_uint_eq(st.drops.lossy + st.drops.pfcwd + st.drops.link_down, 0);
	return f;
}

/* the time of job's first iteration, seconds */
static double coll_s(const struct fabric *f, const char *job)
{
	const struct tl_log *log = f->hooks.ctx;
	for (size_t k = 0; k < log->ncolls; k++)
		if (strcmp(f->scn->jobs[log->colls[k].job].name, job) == 0) {
			ck_assert(!log->colls[k].failed);
			return (double)(log->colls[k].end_ps - log->colls[k].start_ps) * 1e-12;
		}
	ck_abort_msg("job %s completed no iteration", job);
	return 0;
}

/* when the all-reduce's last message between two servers arrived, per rail
 * (the rail of the NIC it left by: its sender's GPU index), seconds */
static void rail_ends(const struct fabric *f, double end_s[8])
{
	const struct tl_log *log = f->hooks.ctx;
	for (int r = 0; r < 8; r++)
		end_s[r] = 0;
	for (size_t i = 0; i < log->nflows; i++) {
		const struct tl_flow *fl = &log->flows[i];
		if (strcmp(f->scn->jobs[fl->job].name, "allreduce") != 0 ||
		    fl->src / 8 == fl->dst / 8)
			continue;
		double e = (double)fl->end_ps * 1e-12;
		if (e > end_s[fl->src % 8])
			end_s[fl->src % 8] = e;
	}
}

/* t within 5 % of the header's figure, in microseconds */
static void near_us(const char *what, double t, double header_us)
{
	ck_assert_msg(fabs(t * 1e6 - header_us) < 0.05 * header_us,
		      "%s: %.1f us, the header says %.0f", what, t * 1e6, header_us);
}

/* every port of the spines (switches 8-11) sent nothing */
static void spines_idle(const struct fabric *f)
{
	for (uint32_t sp = 8; sp < 12; sp++)
		for (uint16_t p = 0; p < 8; p++)
			ck_assert_uint_eq(f->sws[sp].ports[p].tx_bytes, 0);
}

/* the ring is NIC-bound: every NIC sends and receives exactly its
 * channel's 2(n-1) chunks of S/8/n, busbw within 1 % under 8 x the 400G
 * goodput (the header: 1,267 us, 391.4 GB/s, 99.8 %); the rails' own
 * leaves carry it all, no mark, no pause */
START_TEST(rail_ring_at_nic_goodput)
{
	struct scenario *s;
	struct fabric *f = rail_run(NULL, &s);
	double t = coll_s(f, "allreduce");
	double busbw = RAIL_S / t * 2 * 31 / 32, ceiling = 8 * GOODPUT_400G;
	near_us("ring", t, 1267);
	ck_assert_msg(busbw < ceiling && busbw > 0.99 * ceiling,
		      "ring: %.1f us, busbw %.2f GB/s, ceiling %.2f GB/s", t * 1e6, busbw / 1e9,
		      ceiling / 1e9);
	for (uint32_t h = 0; h < 32; h++) {
		ck_assert_uint_eq(f->nics[h].tx_payload_bytes, 62000000);
		ck_assert_uint_eq(f->nics[h].rx_payload_bytes, 62000000);
	}
	spines_idle(f);
	struct net_stats st = tl_stats(f);
	ck_assert_uint_eq(st.cc.ecn_marked + st.cc.cnps_sent + st.pause_frames, 0);
	ck_assert_uint_le(fabric_max_queue_bytes(f), RAIL_FRAME);
	done(f, s);
}
END_TEST

/*
 * The tree at 256 MB (the header: 2,362 us with DCQCN, 1,786 us with PFC
 * alone, against the ring's 1,267 us).  What was measured, and asserted:
 * the NICs of servers 1 and 2 (inner in one of the two trees) carry S/4
 * each way, those of servers 0 and 3 S/8, so the NIC floor is S/4 at the
 * goodput (1,306 us), which even PFC alone misses by over 20 %; NVLink
 * carries 1.75 S per GPU in the chains against the ring's 1.70 S, so it is
 * not the difference; the deepest queue of every rail leaf is on its port
 * to server 1 or 2 (the 2:1 fan-in of an inner server's children), 14.5 MB
 * with PFC alone, where DCQCN marks and cuts instead and ends later still.
 */
START_TEST(rail_tree_slower_at_large_sizes)
{
	struct scenario *s1, *s2, *s3;
	struct fabric *ring = rail_run(NULL, &s1);
	struct fabric *tree = rail_run(rail_tree, &s2);
	struct fabric *pfc = rail_run(rail_tree_pfc, &s3);
	double tr = coll_s(ring, "allreduce"), tt = coll_s(tree, "allreduce");
	double tp = coll_s(pfc, "allreduce"), nic_floor = RAIL_S / 4 / GOODPUT_400G;
	near_us("tree", tt, 2362);
	near_us("tree with PFC alone", tp, 1786);
	ck_assert_msg(tt > 1.6 * tr, "tree %.1f us, ring %.1f us", tt * 1e6, tr * 1e6);
	ck_assert_msg(tp > 1.25 * tr && tp > 1.2 * nic_floor && tt > 1.2 * tp,
		      "tree with PFC alone %.1f us, with DCQCN %.1f us, ring %.1f us, "
		      "NIC floor %.1f us",
		      tp * 1e6, tt * 1e6, tr * 1e6, nic_floor * 1e6);
	struct fabric *trees[] = { tree, pfc };
	for (int k = 0; k < 2; k++) {
		struct fabric *f = trees[k];
		for (uint32_t h = 0; h < 32; h++) {
			uint64_t want = h / 8 == 1 || h / 8 == 2 ? 64000000 : 32000000;
			ck_assert_uint_eq(f->nics[h].tx_payload_bytes, want);
			ck_assert_uint_eq(f->nics[h].rx_payload_bytes, want);
		}
		/* 16 channels x 4 servers x 7 chain links x 2 phases x S/16 */
		ck_assert_uint_eq(tl_stats(f).nvlink_bytes, 56 * (uint64_t)RAIL_S);
		spines_idle(f);
		for (uint32_t leaf = 0; leaf < 8; leaf++) {
			uint16_t deepest = 0;
			for (uint16_t p = 1; p < 8; p++)
				if (f->sws[leaf].ports[p].max_queued_bytes >
				    f->sws[leaf].ports[deepest].max_queued_bytes)
					deepest = p;
			ck_assert_msg(deepest == 1 || deepest == 2,
				      "leaf%u: deepest queue on port %u", leaf, deepest);
		}
	}
	/* the ring: 8 channels x 32 ranks x 62 chunks of S/256, 7 of every 8
	 * hops over NVLink */
	ck_assert_uint_eq(tl_stats(ring).nvlink_bytes, 62 * 7 * (uint64_t)RAIL_S / 8);
	ck_assert_uint_gt(fabric_max_queue_bytes(pfc), 10000000);
	ck_assert_uint_lt(fabric_max_queue_bytes(tree), fabric_max_queue_bytes(pfc));
	struct net_stats st = tl_stats(tree), sp = tl_stats(pfc);
	ck_assert_uint_gt(st.cc.ce_delivered, 0);
	ck_assert_uint_gt(st.cc.cnps_sent, 0);
	ck_assert_uint_gt(sp.cc.ce_delivered, 0);
	ck_assert_uint_eq(sp.cc.cnps_sent + sp.pause_frames, 0);
	done(ring, s1);
	done(tree, s2);
	done(pfc, s3);
}
END_TEST

/* at 2 MB the tree's depth beats the ring's 62 steps (the header: 36 us
 * against 61 us) */
START_TEST(rail_tree_wins_small_sizes)
{
	struct scenario *s1, *s2;
	struct fabric *ring = rail_run(rail_ring_2mb, &s1);
	struct fabric *tree = rail_run(rail_tree_2mb, &s2);
	double tr = coll_s(ring, "allreduce"), tt = coll_s(tree, "allreduce");
	near_us("2 MB ring", tr, 61);
	near_us("2 MB tree", tt, 36);
	ck_assert_msg(tt < 0.7 * tr, "2 MB: tree %.1f us, ring %.1f us", tt * 1e6, tr * 1e6);
	done(ring, s1);
	done(tree, s2);
}
END_TEST

/*
 * A permutation among GPUs 3, 11, 19 and 27 takes half of every rail-3
 * NIC: ring channel 3 takes twice as long and the collective with it (the
 * header: 2,538 us against 1,267 us), while the 7 other rails finish when
 * they did alone and then wait.  Rail 3's NICs carry the extra 64 MB each;
 * no queue, no mark, no pause: the rail is shared, not congested.
 */
START_TEST(rail_busy_rail_slows_whole_ring)
{
	struct scenario *s1, *s2;
	struct fabric *base = rail_run(NULL, &s1);
	struct fabric *busy = rail_run(rail_busy, &s2);
	double tb = coll_s(base, "allreduce"), t = coll_s(busy, "allreduce");
	near_us("all-reduce beside the permutation", t, 2538);
	ck_assert_msg(t > 1.9 * tb && t < 2.1 * tb, "all-reduce %.1f us, alone %.1f us", t * 1e6,
		      tb * 1e6);
	coll_s(busy, "rail3");
	double eb[8], e[8];
	rail_ends(base, eb);
	rail_ends(busy, e);
	for (int r = 0; r < 8; r++) {
		ck_assert_msg(fabs(eb[r] - tb) < 1e-3 * tb, "alone: rail %d ends at %.1f us", r,
			      eb[r] * 1e6);
		if (r == 3)
			ck_assert_msg(fabs(e[r] - t) < 1e-3 * t, "rail 3 ends at %.1f us of %.1f",
				      e[r] * 1e6, t * 1e6);
		else /* idle for the second half */
			ck_assert_msg(e[r] < 1.01 * tb, "rail %d ends at %.1f us, alone %.1f", r,
				      e[r] * 1e6, tb * 1e6);
	}
	for (uint32_t h = 0; h < 32; h++) {
		uint64_t want = h % 8 == 3 ? 62000000 + 64000000 : 62000000;
		ck_assert_uint_eq(busy->nics[h].tx_payload_bytes, want);
		ck_assert_uint_eq(busy->nics[h].rx_payload_bytes, want);
	}
	/* rail leaf 3's ports to the servers send 126/62 of rail leaf 0's */
	uint64_t l0 = 0, l3 = 0;
	for (uint16_t p = 0; p < 4; p++) {
		l0 += busy->sws[0].ports[p].tx_bytes;
		l3 += busy->sws[3].ports[p].tx_bytes;
	}
	ck_assert_msg(fabs((double)l3 / (double)l0 - 126.0 / 62) < 0.01,
		      "leaf3 %llu B, leaf0 %llu B", (unsigned long long)l3, (unsigned long long)l0);
	spines_idle(busy);
	struct net_stats st = tl_stats(busy);
	ck_assert_uint_eq(st.cc.ecn_marked + st.cc.cnps_sent + st.pause_frames, 0);
	ck_assert_uint_le(fabric_max_queue_bytes(busy), 2 * RAIL_FRAME);
	done(base, s1);
	done(busy, s2);
}
END_TEST

/*
 * storage-vs-allreduce.ini: the 12 GPU hosts h4-h15 run a 32 MB ring
 * all-reduce while each writes a 16 MB checkpoint slice to the NVMe-oF
 * targets h0-h3.  Its header's runs go through the run layer (the writes'
 * latencies are fio's, iostats.h) into a temporary folder, whose
 * counters.csv gives each job's drops and resent bytes and pfc.csv the
 * priority of every pause.  The runs are compared with one another and
 * with the header's figures (within 3 %).
 */
#define STOR "storage-vs-allreduce"
#define STOR_IOS (12 * 123) /* 12 initiators x 16 MB: 122 x 128 KiB + 9,216 B */

/* what one run of storage-vs-allreduce.ini measured */
struct stor_run {
	double allreduce_us;          /* the all-reduce's one iteration (collectives.csv) */
	double p99_us, p999_us;       /* the writes' completion latency */
	double ckpt_us;               /* first write submitted to last completed */
	uint64_t pause_frames, drops_lossless, drops_lossy, resent_bytes, timeouts;
	uint64_t job_drops[2];        /* counters.csv, summed: allreduce, ckpt */
	uint64_t job_resent[2];
	unsigned paused_prios;        /* pfc.csv: a bit per priority that was paused */
};

/* the index of column name in the header line of CSV text */
static int csv_col(const char *text, const char *name)
{
	size_t l = strlen(name);
	int k = 0;
	for (const char *p = text; *p && *p != '\n'; k++) {
		size_t n = strcspn(p, ",\n");
		if (n == l && strncmp(p, name, l) == 0)
			return k;
		p += n;
		if (*p == ',')
			p++;
	}
	ck_abort_msg("no column %s", name);
	return -1;
}

/* field k of the CSV line at p, as an unsigned integer */
static uint64_t csv_field(const char *p, int k)
{
	for (; k > 0; k--) {
		p += strcspn(p, ",\n");
		ck_assert_int_eq(*p, ',');
		p++;
	}
	return strtoull(p, NULL, 10);
}

/* the sum of column name over the rows of CSV text */
static uint64_t csv_sum(const char *text, const char *name)
{
	int k = csv_col(text, name);
	uint64_t sum = 0;
	for (const char *p = strchr(text, '\n'); p && p[1]; p = strchr(p + 1, '\n'))
		sum += csv_field(p + 1, k);
	return sum;
}

/*
 * storage-vs-allreduce.ini with the overrides sets (or NULL), which its
 * header suggests as one run when `suggested`, run to its end on one
 * thread: both jobs complete, nothing lossless is dropped, and every job's
 * drops and resent bytes in counters.csv add up to the summary's.
 */
static void stor_run(const char *const *sets, int suggested, struct stor_run *o)
{
	if (sets && suggested)
		header_suggests(STOR, sets);
	struct scenario *s = load_named(STOR, sets);
	char dir[64] = "/tmp/dcqcn-teaching-XXXXXX", out[128];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(out, sizeof(out), "%s/run", dir);
	struct run_result r;
	ck_assert_int_eq(run_scenario(s, &(struct run_opts){ .out_dir = out, .threads = 1 }, &r),
			 RUN_OK);
	ck_assert_int_eq(r.end, RUN_END_DONE);
	ck_assert_uint_eq(r.jobs_failed, 0);
	ck_assert_uint_eq(r.collectives_completed, 1);
	ck_assert_uint_eq(r.nstorage, 1);
	ck_assert_uint_eq(r.storage[0].ios, STOR_IOS);
	ck_assert_uint_eq(r.storage[0].reads, 0);
	ck_assert_uint_eq(r.drops_lossless, 0);
	*o = (struct stor_run){
		.allreduce_us = (double)r.collective_time_ps * 1e-6,
		.p99_us = (double)r.storage[0].clat_p99_ps * 1e-6,
		.p999_us = (double)r.storage[0].clat_p999_ps * 1e-6,
		.ckpt_us = (double)r.storage[0].runtime_ps * 1e-6,
		.pause_frames = r.pause_frames,
		.drops_lossless = r.drops_lossless,
		.drops_lossy = r.drops_lossy,
		.resent_bytes = r.retransmitted_bytes,
		.timeouts = r.rto_timeouts,
	};
	char *counters = tl_slurp(out, "counters.csv"), *pfc = tl_slurp(out, "pfc.csv");
	static const char *const jobs[] = { "allreduce", "ckpt" };
	for (int j = 0; j < 2; j++) {
		char col[64];
		snprintf(col, sizeof(col), "%s_drops", jobs[j]);
		o->job_drops[j] = csv_sum(counters, col);
		snprintf(col, sizeof(col), "%s_retransmitted_bytes", jobs[j]);
		o->job_resent[j] = csv_sum(counters, col);
	}
	ck_assert_uint_eq(o->job_drops[0] + o->job_drops[1],
			  r.drops_lossless + r.drops_lossy + r.drops_pfcwd + r.drops_link_down);
	ck_assert_uint_eq(o->job_resent[0] + o->job_resent[1], r.retransmitted_bytes);
	int prio = csv_col(pfc, "priority");
	for (const char *p = strchr(pfc, '\n'); p && p[1]; p = strchr(p + 1, '\n'))
		o->paused_prios |= 1u << csv_field(p + 1, prio);
	free(counters);
	free(pfc);
	tl_unload(s);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* got within 3 % of the figure the header states */
static void stated(const char *what, double got, double header)
{
	ck_assert_msg(fabs(got - header) <= 0.03 * header, "%s: %.1f, the header says %.1f",
		      what, got, header);
}

static const char *const stor_alone[] = { "job.ckpt.start=2ms", NULL };
static const char *const stor_prio4[] = { "pfc.priorities=3,4", "qos.dscp_to_priority=28:4",
					  NULL };
static const char *const stor_prio4_rev[] = { "pfc.priorities=3,4",
					      "qos.dscp_to_priority=28:4",
					      "qos.dwrr_weights=1,1,1,1,4,1,1,1", NULL };
static const char *const stor_lossy[] = { "job.ckpt.dscp=10", "nic.rto=1ms", NULL };
/* the lossy run with its priority lossless too: the header states it in
 * words (it cannot suggest a second pfc.priorities) */
static const char *const stor_lossy_pfc[] = { "job.ckpt.dscp=10", "nic.rto=1ms",
					      "pfc.priorities=1,3", NULL };

/*
 * Each alone, then (a), the file as it is: both on priority 3.  The
 * all-reduce takes 3.40 x as long as alone (4,082 us against 1,200 us)
 * and most of that after the checkpoint is done (1,724 us): its QP that
 * DCQCN cut climbs back slowly.  The writes' tail is no worse than alone
 * (p99 690 us, p99.9 805 us against 754 and 909).  Pauses on priority 3
 * only (414 frames); nothing dropped or resent.
 */
START_TEST(storage_shares_the_allreduce_class)
{
	struct stor_run alone, a;
	stor_run(stor_alone, 1, &alone);
	stor_run(NULL, 0, &a);
	stated("all-reduce alone, us", alone.allreduce_us, 1200);
	stated("writes alone, p99 us", alone.p99_us, 754);
	stated("writes alone, p99.9 us", alone.p999_us, 909);
	ck_assert_uint_eq(alone.drops_lossy + alone.resent_bytes, 0);

	stated("(a) all-reduce, us", a.allreduce_us, 4082);
	stated("(a) checkpoint done, us", a.ckpt_us, 1724);
	stated("(a) writes p99, us", a.p99_us, 690);
	stated("(a) writes p99.9, us", a.p999_us, 805);
	stated("(a) pause frames", (double)a.pause_frames, 414);
	ck_assert_msg(a.allreduce_us > 3 * alone.allreduce_us, "(a) %.1f us, alone %.1f us",
		      a.allreduce_us, alone.allreduce_us);
	ck_assert_msg(a.ckpt_us < 0.5 * a.allreduce_us, "(a) checkpoint done at %.1f us of %.1f",
		      a.ckpt_us, a.allreduce_us);
	ck_assert_msg(a.p99_us <= alone.p99_us && a.p999_us <= alone.p999_us,
		      "(a) writes p99 %.1f, p99.9 %.1f us; alone %.1f, %.1f us", a.p99_us,
		      a.p999_us, alone.p99_us, alone.p999_us);
	ck_assert_uint_eq(a.paused_prios, 1u << 3);
	ck_assert_uint_eq(a.drops_lossy + a.resent_bytes + a.timeouts, 0);
}
END_TEST

/*
 * (b): the checkpoint on a second lossless priority, 4, with DWRR weights
 * 4:1 for the all-reduce's priority.  The all-reduce is never paused and
 * takes 1,675 us (1.40 x alone, against (a)'s 3.40 x); the writes wait
 * longer: p99 1,065 us, p99.9 1,328 us, done at 2,226 us; 550 pauses, all
 * on priority 4.  The weights the other way round trade back: 2,406 us and
 * p99 710 us.  Nothing dropped in either.
 */
START_TEST(storage_on_a_second_lossless_priority)
{
	struct stor_run a, b, rev;
	stor_run(NULL, 0, &a);
	stor_run(stor_prio4, 1, &b);
	stor_run(stor_prio4_rev, 1, &rev);
	stated("(b) all-reduce, us", b.allreduce_us, 1675);
	stated("(b) writes p99, us", b.p99_us, 1065);
	stated("(b) writes p99.9, us", b.p999_us, 1328);
	stated("(b) checkpoint done, us", b.ckpt_us, 2226);
	stated("(b) pause frames", (double)b.pause_frames, 550);
	ck_assert_uint_eq(b.paused_prios, 1u << 4);
	ck_assert_msg(b.allreduce_us < 0.5 * a.allreduce_us && b.p99_us > 1.4 * a.p99_us,
		      "(b) all-reduce %.1f us, p99 %.1f us; (a) %.1f us, %.1f us", b.allreduce_us,
		      b.p99_us, a.allreduce_us, a.p99_us);
	stated("(b) reversed weights: all-reduce, us", rev.allreduce_us, 2406);
	stated("(b) reversed weights: writes p99, us", rev.p99_us, 710);
	ck_assert_uint_eq(rev.paused_prios, 1u << 4);
	ck_assert_msg(rev.allreduce_us > 1.3 * b.allreduce_us && rev.p99_us < 0.75 * b.p99_us,
		      "reversed weights: all-reduce %.1f us, p99 %.1f us; (b) %.1f us, %.1f us",
		      rev.allreduce_us, rev.p99_us, b.allreduce_us, b.p99_us);
	ck_assert_uint_eq(b.drops_lossy + b.resent_bytes + rev.drops_lossy + rev.resent_bytes, 0);
}
END_TEST

/*
 * (c): the checkpoint on lossy priority 1.  The all-reduce runs as alone
 * (1,200.6 us); the checkpoint alone loses packets (20,744) and resends
 * (160.7 MB, 86 timeouts), no pause anywhere; its p99 is 3,490 us and
 * p99.9 4,664 us, over 4 x (a)'s.  With PFC on priority 1 too the
 * all-reduce still runs as alone, and the writes' p99 is 1,609 us: the
 * loss more than doubles the tail.
 */
START_TEST(storage_on_a_lossy_priority)
{
	struct stor_run alone, a, c, cp;
	stor_run(stor_alone, 1, &alone);
	stor_run(NULL, 0, &a);
	stor_run(stor_lossy, 1, &c);
	stor_run(stor_lossy_pfc, 0, &cp);
	stated("(c) all-reduce, us", c.allreduce_us, 1200.6);
	ck_assert_msg(fabs(c.allreduce_us - alone.allreduce_us) < 1e-3 * alone.allreduce_us,
		      "(c) all-reduce %.3f us, alone %.3f us", c.allreduce_us, alone.allreduce_us);
	stated("(c) lossy drops", (double)c.drops_lossy, 20744);
	stated("(c) resent bytes", (double)c.resent_bytes, 160.7e6);
	stated("(c) timeouts", (double)c.timeouts, 86);
	stated("(c) writes p99, us", c.p99_us, 3490);
	stated("(c) writes p99.9, us", c.p999_us, 4664);
	stated("(c) checkpoint done, us", c.ckpt_us, 4947);
	/* the checkpoint's alone: counters.csv's per-job columns */
	ck_assert_uint_eq(c.job_drops[0] + c.job_resent[0], 0);
	ck_assert_uint_eq(c.job_drops[1], c.drops_lossy);
	ck_assert_uint_eq(c.job_resent[1], c.resent_bytes);
	ck_assert_uint_eq(c.pause_frames, 0);
	ck_assert_msg(c.p99_us > 4 * a.p99_us && c.p999_us > 4 * a.p999_us,
		      "(c) p99 %.1f, p99.9 %.1f us; (a) %.1f, %.1f us", c.p99_us, c.p999_us,
		      a.p99_us, a.p999_us);

	ck_assert_msg(fabs(cp.allreduce_us - alone.allreduce_us) < 1e-3 * alone.allreduce_us,
		      "priority 1 lossless: all-reduce %.3f us, alone %.3f us", cp.allreduce_us,
		      alone.allreduce_us);
	stated("priority 1 lossless: writes p99, us", cp.p99_us, 1609);
	ck_assert_uint_eq(cp.drops_lossy + cp.resent_bytes, 0);
	ck_assert_uint_eq(cp.paused_prios, 1u << 1);
	ck_assert_msg(c.p99_us > 2 * cp.p99_us, "(c) p99 %.1f us, lossless %.1f us", c.p99_us,
		      cp.p99_us);
}
END_TEST

/*
 * The verdict of tests/data/warmup-iterations.ini: a 4-rank ring whose first
 * iteration an incast slows to ~59 % of the line rate, the others at ~98 %,
 * judged against min_busbw_pct_line 90.  Run with `iterations` n and the
 * extra --set assignments (NULL-terminated).
 */
static struct run_result verdict_of(unsigned n, const char *const *extra)
{
	char *text = tl_slurp(TEST_DATA_DIR, "warmup-iterations.ini");
	char iters[64];
	snprintf(iters, sizeof(iters), "job.ring.iterations=%u", n);
	const char *sets[8] = { iters };
	for (int i = 0; extra && extra[i]; i++) {
		ck_assert_int_lt(i + 1, 7);
		sets[i + 1] = extra[i];
	}
	struct scenario *s = tl_load_set(text, sets);
	struct run_opts o = { .threads = 1 };
	struct run_result r;
	ck_assert_int_eq(run_scenario(s, &o, &r), RUN_OK);
	ck_assert_int_eq(r.end, RUN_END_DONE);
	ck_assert_uint_eq(r.collectives_completed, n);
	ck_assert_uint_eq(r.drops_lossless + r.drops_lossy + r.drops_pfcwd, 0);
	tl_unload(s);
	free(text);
	return r;
}

static const unsigned iteration_counts[] = { 2, 4, 8 };

/* the warm-up left out and the worst judged iteration compared (the
 * defaults): the same verdict for 2, 4 and 8 iterations; every iteration's
 * mean instead: the verdict changes with the count, the slow first
 * iteration weighing 1/n of it */
START_TEST(verdict_same_for_any_iteration_count)
{
	static const char *const mean_all[] = { "criteria.warmup_iterations=0",
						"criteria.busbw_stat=mean", NULL };
	static const char *const min_all[] = { "criteria.warmup_iterations=0", NULL };
	int mean_pass[3];
	for (int k = 0; k < 3; k++) {
		unsigned n = iteration_counts[k];
		struct run_result r = verdict_of(n, NULL);
		ck_assert_msg(r.criteria_pass == 1, "%u iterations: %s (judged min %.2f %%)", n,
			      r.criteria_failed, r.judged_min_pct);
		ck_assert_uint_eq(r.judged_iterations, n - 1);
		ck_assert_msg(r.judged_min_pct > 95, "%u iterations: steady at %.2f %%", n,
			      r.judged_min_pct);
		/* the warm-up is slow: the mean of all iterations is below the
		 * judged ones */
		ck_assert_msg(r.busbw_pct_line < r.judged_min_pct - 2,
			      "%u iterations: mean %.2f %%, judged min %.2f %%", n,
			      r.busbw_pct_line, r.judged_min_pct);

		r = verdict_of(n, min_all); /* the warm-up judged: it is the worst */
		ck_assert_uint_eq(r.judged_iterations, n);
		ck_assert_msg(r.judged_min_pct < 70, "%u iterations: warm-up at %.2f %%", n,
			      r.judged_min_pct);
		ck_assert_int_eq(r.criteria_pass, 0);
		ck_assert_str_eq(r.criteria_failed, "min_busbw_pct_line");

		r = verdict_of(n, mean_all);
		mean_pass[k] = r.criteria_pass;
	}
	ck_assert_msg(mean_pass[0] == 0 && mean_pass[2] == 1,
		      "every iteration's mean: verdicts %d, %d, %d for 2, 4, 8 iterations",
		      mean_pass[0], mean_pass[1], mean_pass[2]);
}
END_TEST

/* a slow iteration after the warm-up fails the run at any iteration count
 * (the worst judged one decides); the mean of the judged ones would let 8
 * iterations hide it */
START_TEST(verdict_slow_judged_iteration_fails)
{
	static const char *const late[] = { "job.burst.start=500us", NULL };
	static const char *const late_mean[] = { "job.burst.start=500us",
						 "criteria.busbw_stat=mean", NULL };
	int mean_pass[3];
	for (int k = 0; k < 3; k++) {
		unsigned n = iteration_counts[k];
		struct run_result r = verdict_of(n, late);
		ck_assert_uint_eq(r.judged_iterations, n - 1);
		ck_assert_msg(r.judged_min_pct < 70, "%u iterations: slow one at %.2f %%", n,
			      r.judged_min_pct);
		if (n > 2) /* the others are steady */
			ck_assert_msg(r.judged_max_pct > 95, "%u iterations: steady at %.2f %%", n,
				      r.judged_max_pct);
		ck_assert_int_eq(r.criteria_pass, 0);
		ck_assert_str_eq(r.criteria_failed, "min_busbw_pct_line");
		r = verdict_of(n, late_mean);
		mean_pass[k] = r.criteria_pass;
	}
	ck_assert_msg(mean_pass[0] == 0 && mean_pass[2] == 1,
		      "judged mean: verdicts %d, %d, %d for 2, 4, 8 iterations", mean_pass[0],
		      mean_pass[1], mean_pass[2]);
}
END_TEST


/*
 * adaptive-routing.ini: 8 hosts on 2 leaves and 4 spines at 400G, a 4 MB
 * permutation that flow ECMP collides on one uplink, then a 64 MB ring
 * all-reduce whose 8 hops all cross the spines.  The header's runs: flow
 * ECMP, spraying (go-back-N never finishes the ring), adaptive routing at
 * the closed-form ideal, and InfiniBand with adaptive routing.
 */
static const char *const ar_packet[] = { "topology.ecmp=packet", NULL };
static const char *const ar_adaptive[] = { "topology.ecmp=adaptive", NULL };
static const char *const ar_ib[] = { "fabric.type=infiniband", "topology.ecmp=adaptive", NULL };
static const char *const ar_ib_flow[] = { "fabric.type=infiniband", NULL };

/* did job complete an iteration */
static int coll_done(const struct fabric *f, const char *job)
{
	const struct tl_log *log = f->hooks.ctx;
	for (size_t k = 0; k < log->ncolls; k++)
		if (strcmp(f->scn->jobs[log->colls[k].job].name, job) == 0)
			return 1;
	return 0;
}

/* the ring's busbw: S/t x 2(n-1)/n, bytes per second */
static double ar_busbw(const struct fabric *f)
{
	return 64e6 / coll_s(f, "ring") * 2 * 7 / 8;
}

START_TEST(adaptive_routing_ends_collisions)
{
	/* the permutation's ideal: 976 frames of 4096 B and one of 2304 B
	 * from the NIC at 20 ps per wire byte, 3 switches of 500 ns and a
	 * frame, 2 host cables of 3 m and 2 fabric cables of 30 m */
	const double ideal = (976 * 4178 * 20 + 2386 * 20 + 3 * (500000 + 4178 * 20) +
			      2 * 15000 + 2 * 150000) * 1e-12;
	struct scenario *s;
	struct fabric *f = run_sets("adaptive-routing", NULL, &s);
	ck_assert(fabric_finished(f));
	near_us("flow ECMP: permutation", coll_s(f, "perm"), 572.1);
	near_us("flow ECMP: ring", coll_s(f, "ring"), 8641);
	ck_assert_uint_gt(tl_stats(f).cc.cnps_sent, 0);
	done(f, s);

	f = run_sets("adaptive-routing", ar_packet, &s);
	ck_assert(!fabric_finished(f));
	near_us("spraying: permutation", coll_s(f, "perm"), 764.9);
	ck_assert(!coll_done(f, "ring"));
	struct net_stats st = tl_stats(f);
	ck_assert_uint_gt(st.cc.naks_sent, 90000);
	ck_assert_uint_gt(st.cc.retransmitted_bytes, 6000000000u);
	done(f, s);

	header_suggests("adaptive-routing", ar_adaptive);
	f = run_sets("adaptive-routing", ar_adaptive, &s);
	ck_assert(fabric_finished(f));
	double t = coll_s(f, "perm");
	ck_assert_msg(t >= ideal && t < 1.01 * ideal, "adaptive: permutation %.3f us, ideal %.3f",
		      t * 1e6, ideal * 1e6);
	double busbw = ar_busbw(f);
	ck_assert_msg(busbw < GOODPUT_400G && busbw > 0.99 * GOODPUT_400G,
		      "adaptive: ring busbw %.2f GB/s", busbw / 1e9);
	st = tl_stats(f);
	ck_assert_uint_gt(st.cc.ooo_pkts, 0);
	ck_assert_uint_eq(st.cc.retransmitted_bytes + st.cc.ecn_marked, 0);
	done(f, s);

	f = run_sets("adaptive-routing", ar_ib_flow, &s);
	ck_assert(fabric_finished(f));
	near_us("InfiniBand flow ECMP: permutation", coll_s(f, "perm"), 247.8);
	near_us("InfiniBand flow ECMP: ring", coll_s(f, "ring"), 6885);
	done(f, s);

	header_suggests("adaptive-routing", ar_ib);
	f = run_sets("adaptive-routing", ar_ib, &s);
	ck_assert(fabric_finished(f));
	near_us("InfiniBand adaptive: permutation", coll_s(f, "perm"), 84.7);
	near_us("InfiniBand adaptive: ring", coll_s(f, "ring"), 2313);
	ck_assert_uint_gt(tl_stats(f).cc.ooo_pkts, 0);
	done(f, s);
}
END_TEST

static Suite *make_teaching_suite(void)
{
	Suite *s = suite_create("teaching");
	TCase *tc = tcase_create("scenarios");
	tcase_add_test(tc, pfc_only_pauses_dcqcn_marks);
	tcase_add_test(tc, pause_storm_spreads_unless_watchdog);
	tcase_add_test(tc, victim_flow_slowed_by_shared_path);
	tcase_add_test(tc, undersized_headroom_drops);
	tcase_add_test(tc, dscp_mismatch_is_lossy);
	tcase_add_test(tc, high_ecn_thresholds_pause_more_mark_less);
	suite_add_tcase(s, tc);
	TCase *hd = tcase_create("headers");
	tcase_add_test(hd, header_states_settings);
	tcase_add_test(hd, header_contradiction_fails);
	suite_add_tcase(s, hd);
	TCase *rl = tcase_create("rails");
	tcase_add_test(rl, rail_ring_at_nic_goodput);
	tcase_add_test(rl, rail_tree_slower_at_large_sizes);
	tcase_add_test(rl, rail_tree_wins_small_sizes);
	tcase_add_test(rl, rail_busy_rail_slows_whole_ring);
	suite_add_tcase(s, rl);
	TCase *ar = tcase_create("adaptive-routing");
	tcase_add_test(ar, adaptive_routing_ends_collisions);
	suite_add_tcase(s, ar);
	TCase *st = tcase_create("storage");
	tcase_add_test(st, storage_shares_the_allreduce_class);
	tcase_add_test(st, storage_on_a_second_lossless_priority);
	tcase_add_test(st, storage_on_a_lossy_priority);
	suite_add_tcase(s, st);
	TCase *vd = tcase_create("verdicts");
	tcase_add_test(vd, verdict_same_for_any_iteration_count);
	tcase_add_test(vd, verdict_slow_judged_iteration_fails);
	suite_add_tcase(s, vd);
	return s;
}

int main(void)
{
	return tl_run(make_teaching_suite());
}
