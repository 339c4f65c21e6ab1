/*
 * report.c - DIR/report.html (report.h): the kind of folder, the page
 * written aside and renamed, the figures drawn into a temporary folder that
 * is removed once they are inlined.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/report/internal.h"

/* the file that only a folder of each kind holds, in the order they are tried */
static const struct {
	const char *file;
	enum report_kind kind;
} marks[] = {
	{ "compare.csv", REPORT_COMPARE },   { "calibrate.csv", REPORT_CALIBRATE },
	{ "nccl-tests.csv", REPORT_NCCLTESTS }, { "sweep.csv", REPORT_SWEEP },
	{ "summary.csv", REPORT_RUN },
};

int report_kind(const char *dir, char *err, size_t errlen)
{
	struct stat st;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: not a folder%s%s", dir, errno ? ": " : "",
			 errno ? strerror(errno) : "");
		return -1;
	}
	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		char path[RPT_PATH_MAX];
		snprintf(path, sizeof(path), "%s/%s", dir, marks[i].file);
		if (access(path, F_OK) == 0)
			return (int)marks[i].kind;
	}
	snprintf(err, errlen, "%s: not a finished run, sweep, calibrate, compare or nccl-tests "
		 "folder (no summary.csv, sweep.csv, calibrate.csv, compare.csv or nccl-tests.csv; "
		 "a run that failed writes no summary.csv)", dir);
	return -1;
}

/* the temporary folder of the figures and what is in it, removed */
static void remove_tmp(const char *tmp)
{
	DIR *d = opendir(tmp);
	if (d) {
		struct dirent *e;
		while ((e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			char path[RPT_PATH_MAX + 300];
			snprintf(path, sizeof(path), "%s/%s", tmp, e->d_name);
			unlink(path);
		}
		closedir(d);
	}
	rmdir(tmp);
}

int report_sweep_points(const char *dir, const struct report_meta *m, char *err, size_t errlen)
{
	struct rtable t;
	if (rt_read(&t, dir, "sweep.csv", err, errlen))
		return -1;
	int n = 0, rc = 0;
	for (size_t r = 0; r < t.nrows && rc == 0; r++) {
		const char *v = rt_get(&t, r, "dir");
		if (!*v || strstr(v, ".."))
			continue;
		for (int k = -1; rc == 0; k++) { /* the point, else its repeats r0, r1, ... */
			char sub[RPT_PATH_MAX], probe[RPT_PATH_MAX + 16];
			if (k < 0)
				snprintf(sub, sizeof(sub), "%s/%s", dir, v);
			else
				snprintf(sub, sizeof(sub), "%s/%s/r%d", dir, v, k);
			snprintf(probe, sizeof(probe), "%s/summary.csv", sub);
			if (access(probe, F_OK)) {
				if (k >= 0)
					break; /* no more repeats */
				continue; /* a point of repeats: its r0, r1, ... */
			}
			int w = report_write(sub, m, err, errlen);
			if (w < 0)
				rc = -1;
			else
				n++;
			if (k < 0)
				break;
		}
	}
	rt_free(&t);
	return rc ? -1 : n;
}

int report_write(const char *dir, const struct report_meta *m, char *err, size_t errlen)
{
	int kind = report_kind(dir, err, errlen);
	if (kind < 0)
		return -1;
	static int (*const pages[])(struct page *, char *, size_t) = {
		[REPORT_RUN] = page_run, [REPORT_SWEEP] = page_sweep,
		[REPORT_CALIBRATE] = page_calibrate, [REPORT_COMPARE] = page_compare,
		[REPORT_NCCLTESTS] = page_nccltests,
	};
	struct page *p = calloc(1, sizeof(*p));
	if (!p) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	p->dir = dir;
	p->meta = m;
	const char *tmpdir = getenv("TMPDIR");
	snprintf(p->tmp, sizeof(p->tmp), "%s/dcqcn-report-XXXXXX",
		 tmpdir && *tmpdir ? tmpdir : "/tmp");
	char out[RPT_PATH_MAX], aside[RPT_PATH_MAX + 16];
	snprintf(out, sizeof(out), "%s/report.html", dir);
	snprintf(aside, sizeof(aside), "%s.tmp", out);
	int rc = -1;
	if (!mkdtemp(p->tmp)) {
		snprintf(err, errlen, "%s: cannot create a temporary folder: %s", p->tmp,
			 strerror(errno));
		free(p);
		return -1;
	}
	p->fp = fopen(aside, "w");
	if (!p->fp) {
		snprintf(err, errlen, "%s: cannot write: %s", aside, strerror(errno));
	} else {
		rc = pages[kind](p, err, errlen);
		int werr = ferror(p->fp);
		if (fclose(p->fp) || werr) {
			if (rc == 0)
				snprintf(err, errlen, "%s: write failed: %s", aside, strerror(errno));
			rc = -1;
		}
		if (rc == 0 && rename(aside, out)) {
			snprintf(err, errlen, "%s: cannot rename to %s: %s", aside, out,
				 strerror(errno));
			rc = -1;
		}
		if (rc)
			unlink(aside);
	}
	remove_tmp(p->tmp);
	if (rc == 0 && p->fig_failed) {
		snprintf(err, errlen, "%s written, but %d figure%s not drawn: %s", out,
			 p->fig_failed, p->fig_failed > 1 ? "s were" : " was", p->fig_err);
		rc = 1;
	} else if (rc == 0) {
		snprintf(err, errlen, "%s", out);
	}
	free(p);
	return rc;
}
