/*
 * files.c - closing a written file with every error it had, and a result
 * written aside and renamed (files.h).
 */
#include "models/base/files.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

int file_close(FILE *fp)
{
	int bad = ferror(fp);
	int saved = errno;

	errno = 0;
	if (fclose(fp) != 0) {
		if (errno == 0)
			errno = EIO;
		return -1;
	}
	if (bad) {
		errno = saved ? saved : EIO;
		return -1;
	}
	return 0;
}

FILE *file_open_aside(const char *path, char *tmp, size_t len)
{
	if ((size_t)snprintf(tmp, len, "%s.%ld.tmp", path, (long)getpid()) >= len) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	return fopen(tmp, "w");
}

int file_commit(FILE *fp, const char *tmp, const char *path)
{
	if (file_close(fp) || rename(tmp, path)) {
		int saved = errno;
		unlink(tmp);
		errno = saved;
		return -1;
	}
	return 0;
}
