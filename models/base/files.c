/*
 * files.c - closing a written file with every error it had (files.h).
 */
#include "models/base/files.h"

#include <errno.h>

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
