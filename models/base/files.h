/*
 * files.h - closing a written file with every error it had, and writing a
 * result aside under a temporary name.
 *
 * A stream that failed a write keeps its error flag and may still close
 * cleanly, and a stream whose writes all went to its buffer may fail only
 * when fclose flushes it (a full disk): a result file is whole only when
 * neither happened.  file_close checks both, once, for every file the
 * program writes as a whole.
 */
#ifndef DCQCN_FILES_H
#define DCQCN_FILES_H

#include <stdio.h>

/* Closes fp (always).  Returns 0 when every write and the close succeeded;
 * otherwise -1 with errno set to the reason (EIO when a write failed
 * without leaving one). */
int file_close(FILE *fp);

/* A result written aside and renamed, so that a failure (a full disk, a
 * signal) never leaves a partial file where the whole one belongs:
 * file_open_aside opens PATH.PID.tmp for writing, its name into tmp (len
 * bytes); file_commit closes it (file_close) and renames it to path, or
 * removes it.  NULL / -1 with errno set to the reason. */
FILE *file_open_aside(const char *path, char *tmp, size_t len);
int file_commit(FILE *fp, const char *tmp, const char *path);

#endif
