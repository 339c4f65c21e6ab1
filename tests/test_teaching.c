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
 */
#include <check.h>
#include <ctype.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric.h"
#include "run.h"
#include "scenario.h"
#include "testlib.h"

#ifndef TEST_SCENARIO_DIR
#define TEST_SCENARIO_DIR "scenarios"
#endif
#ifndef TEST_DATA_DIR
#define TEST_DATA_DIR "tests/data"
#endif

/* load scenarios/NAME.ini with up to three --set overrides and run it to
 * its sim.duration (or until every flow is done) */
static struct fabric *run(const char *name, const char *set1, const char *set2,
			  struct scenario **ps)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s.ini", TEST_SCENARIO_DIR, name);
	struct scenario *s = calloc(1, sizeof(*s));
	struct scn_error err = {{0}};
	ck_assert_ptr_nonnull(s);
	scenario_init(s);
	int rc = scenario_load_file(s, path, &err);
	if (rc == 0 && set1)
		rc = scenario_set(s, set1, &err);
	if (rc == 0 && set2)
		rc = scenario_set(s, set2, &err);
	if (rc == 0)
		rc = scenario_finalize(s, &err);
	ck_assert_msg(rc == 0, "%s: %s", path, err.msg);
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
	struct scenario *s = calloc(1, sizeof(*s));
	ck_assert_ptr_nonnull(s);
	scenario_init(s);
	int rc = scenario_load_file(s, path, err);
	for (int i = 0; rc == 0 && i < nsets; i++)
		rc = scenario_set(s, sets[i], err);
	if (rc == 0)
		rc = scenario_finalize(s, err);
	if (rc) {
		scenario_free(s);
		free(s);
		return NULL;
	}
	return s;
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
	ck_assert_int_ge(files, 7); /* default and the six lessons */
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
