/*
 * fuzz_merge.c - a libFuzzer harness for what `sweep --merge` reads: the
 * input is cut at lines "--" into a shard description (shard-0-of-1.txt),
 * the summary.csv of points 0 and 1, and the folder's sweep-identity.txt
 * (each left out when the input has fewer parts), written into a scratch
 * folder that sweep_merge() then joins.  It must join them or refuse with
 * one line of text (exit status 2, RUN_EIO); a join writes a sweep.csv whose
 * every row has the header's columns.
 */
#define _XOPEN_SOURCE 700 /* nftw */
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "sim/sweeps/sweep.h"

static const char *const parts[] = { "shard-0-of-1.txt", "p000/summary.csv", "p001/summary.csv",
				     "sweep-identity.txt" };

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	remove(path);
	return 0;
}

static void put(const char *dir, const char *name, const uint8_t *p, size_t n)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (strchr(name, '/')) {
		char sub[256];
		snprintf(sub, sizeof(sub), "%s/%.*s", dir, (int)(strchr(name, '/') - name), name);
		mkdir(sub, 0777);
	}
	FILE *fp = fopen(path, "wb");
	if (!fp || (n && fwrite(p, 1, n, fp) != n) || fclose(fp))
		abort();
}

/* every row of DIR/sweep.csv has the header's number of commas (no field
 * of sweep.csv is quoted) */
static void check_table(const char *dir)
{
	char path[256], line[1 << 16];
	snprintf(path, sizeof(path), "%s/sweep.csv", dir);
	FILE *fp = fopen(path, "r");
	if (!fp)
		fuzz_fail("a merge that succeeded wrote no sweep.csv", path);
	long want = -1;
	while (fgets(line, sizeof(line), fp)) {
		long commas = 0;
		for (const char *c = line; *c; c++)
			commas += *c == ',';
		if (want < 0)
			want = commas;
		else if (commas != want)
			fuzz_fail("a row of the merged sweep.csv without the header's columns", line);
	}
	fclose(fp);
	if (want < 0)
		fuzz_fail("a merge that succeeded wrote an empty sweep.csv", path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char dir[64];
	if (!dir[0])
		snprintf(dir, sizeof(dir), "/tmp/dcqcn-fuzz-merge-%ld", (long)getpid());
	if (mkdir(dir, 0777))
		abort();
	const uint8_t *p = data, *end = data + size;
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]) && p <= end; i++) {
		const uint8_t *cut = p;
		while (cut < end && !(cut + 3 <= end && cut[0] == '-' && cut[1] == '-' &&
				      cut[2] == '\n' && (cut == data || cut[-1] == '\n')))
			cut++;
		put(dir, parts[i], p, (size_t)(cut - p));
		if (cut == end)
			break;
		p = cut + 3;
	}
	const char *dirs[] = { dir };
	int failed = 0, unjudged = 0;
	char err[4096] = "";
	int rc = sweep_merge(dirs, 1, dir, &failed, &unjudged, err, sizeof(err));
	if (rc == 0)
		check_table(dir);
	else if (rc != 2 || !err[0] || strchr(err, '\n'))
		fuzz_fail("a refused merge without exit status 2 and a one-line message", err);
	nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}
