/*
 * files.h - closing a written file with every error it had.
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

#endif
