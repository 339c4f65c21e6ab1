/*
 * fulldisk.c - a full disk for one file, as a preloaded library: a stream
 * opened for writing whose path contains $DCQCN_FULL_DISK fails when it is
 * closed (EOF, errno ENOSPC), the way a buffered write to a full disk fails
 * at fclose.  test_fulldisk.py runs each command that writes a result file
 * under it (LD_PRELOAD) and checks that the command says which file and why,
 * exits non-zero and leaves the earlier file as it was.
 */
#define _GNU_SOURCE
#undef _FILE_OFFSET_BITS /* fopen and fopen64 both defined here, not one renamed */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_MARKED 64

static FILE *marked[MAX_MARKED];

static void mark(FILE *f, const char *path, const char *mode)
{
	const char *want = getenv("DCQCN_FULL_DISK");
	if (!f || !want || !*want || !strchr(mode, 'w') || !strstr(path, want))
		return;
	for (int i = 0; i < MAX_MARKED; i++)
		if (!marked[i]) {
			marked[i] = f;
			return;
		}
}

FILE *fopen(const char *path, const char *mode)
{
	FILE *(*real)(const char *, const char *);
	*(void **)&real = dlsym(RTLD_NEXT, "fopen");
	FILE *f = real(path, mode);
	mark(f, path, mode);
	return f;
}

FILE *fopen64(const char *path, const char *mode);
FILE *fopen64(const char *path, const char *mode)
{
	FILE *(*real)(const char *, const char *);
	*(void **)&real = dlsym(RTLD_NEXT, "fopen64");
	FILE *f = real(path, mode);
	mark(f, path, mode);
	return f;
}

int fclose(FILE *f)
{
	int (*real)(FILE *);
	*(void **)&real = dlsym(RTLD_NEXT, "fclose");
	int full = 0;
	for (int i = 0; i < MAX_MARKED; i++)
		if (f && marked[i] == f) {
			marked[i] = NULL;
			full = 1;
		}
	int rc = real(f);
	if (full) {
		errno = ENOSPC;
		return EOF;
	}
	return rc;
}
