/*
 * csvfile.c - the files the loader reads row by row with libcsv (traces,
 * links files): a regular file of a bounded size, read one line at a time
 * so that the reader's callbacks know the line number (see loader.h).
 */
#include "loader.h"

#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum scn_csv_open scn_csv_read(const struct scn_csv_io *io)
{
	struct csv_parser p;
	struct stat st;
	char *line = NULL, msg[160];
	size_t cap = 0;
	ssize_t n;
	/* opened without blocking (a fifo would wait for a writer), then a
	 * regular file of a sane size: a directory, a device (/dev/zero) or a
	 * pipe is refused before anything is read */
	int fd = open(io->path, O_RDONLY | O_NONBLOCK);
	FILE *f;

	if (fd < 0)
		return SCN_CSV_CANNOT_OPEN;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > io->max_bytes) {
		int dir = !fstat(fd, &st) && S_ISDIR(st.st_mode);
		int reg = !dir && S_ISREG(st.st_mode);
		close(fd);
		return dir ? SCN_CSV_DIRECTORY : reg ? SCN_CSV_TOO_LARGE : SCN_CSV_NOT_REGULAR;
	}
	if (!(f = fdopen(fd, "rb"))) {
		close(fd);
		return SCN_CSV_NO_MEMORY;
	}
	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL)) {
		fclose(f);
		return SCN_CSV_NO_MEMORY;
	}
	while (!*io->failed && (n = getline(&line, &cap, f)) > 0) {
		++*io->line;
		if (csv_parse(&p, line, (size_t)n, io->field, io->row, io->data) != (size_t)n) {
			snprintf(msg, sizeof(msg), "csv: %s", csv_strerror(csv_error(&p)));
			io->fail(io->data, *io->line, msg);
		}
	}
	if (!*io->failed && ferror(f)) {
		snprintf(msg, sizeof(msg), "read error: %s", strerror(errno));
		io->fail(io->data, *io->line, msg);
	}
	if (!*io->failed && csv_fini(&p, io->field, io->row, io->data)) {
		snprintf(msg, sizeof(msg), "csv: %s", csv_strerror(csv_error(&p)));
		io->fail(io->data, *io->line, msg);
	}
	csv_free(&p);
	free(line);
	fclose(f);
	return SCN_CSV_READ;
}

const char *scn_csv_open_text(enum scn_csv_open e, const char *kind, int64_t max_bytes,
			      char *buf, size_t len)
{
	switch (e) {
	case SCN_CSV_READ:
		break;
	case SCN_CSV_CANNOT_OPEN:
		snprintf(buf, len, "cannot open (%s)", strerror(errno));
		return buf;
	case SCN_CSV_DIRECTORY:
		snprintf(buf, len, "a directory, not %s", kind);
		return buf;
	case SCN_CSV_NOT_REGULAR:
		return "not a regular file (a device or a pipe)";
	case SCN_CSV_TOO_LARGE:
		snprintf(buf, len, "larger than %d MiB", (int)(max_bytes >> 20));
		return buf;
	case SCN_CSV_NO_MEMORY:
		return "out of memory";
	}
	return "";
}
