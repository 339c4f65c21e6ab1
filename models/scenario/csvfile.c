/*
 * csvfile.c - the files the loader reads row by row with libcsv (traces,
 * links files): a regular file of a bounded size, read one line at a time
 * so that the rows know their line number, each row's fields kept for the
 * reader's header and row callbacks (see loader.h).
 */
#include "models/scenario/loader.h"

#include <csv.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void scn_csv_fail(struct scn_csv *c, int line, const char *fmt, ...)
{
	struct place pl = { c->path, line };
	va_list ap;

	if (c->failed)
		return;
	c->failed = 1;
	va_start(ap, fmt);
	scn_vset_error(c->err, pl, fmt, ap);
	va_end(ap);
}

static void csv_field(void *text, size_t len, void *data)
{
	struct scn_csv *c = data;
	uint32_t i = c->nfield++;

	if (c->failed)
		return;
	if (i == 0)
		c->row_line = c->line;
	if (text && memchr(text, '\0', len)) {
		scn_csv_fail(c, c->line, "field %" PRIu32 ": NUL byte", i + 1);
		return;
	}
	if (i > c->kept)
		return; /* counted; the row is rejected when it ends */
	c->field_long[i] = len > SCN_CSV_FIELD_MAX;
	len = len > SCN_CSV_FIELD_MAX ? SCN_CSV_FIELD_MAX : len;
	if (len)
		memcpy(c->field[i], text, len);
	c->field[i][len] = '\0';
}

static void csv_row_end(int ch, void *data)
{
	struct scn_csv *c = data;

	(void)ch;
	if (!c->failed) {
		if (!c->have_header)
			c->header(c);
		else
			c->row(c);
	}
	c->nfield = 0;
}

enum scn_csv_open scn_csv_read(struct scn_csv *c, int64_t max_bytes)
{
	struct csv_parser p;
	struct stat st;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	/* opened without blocking (a fifo would wait for a writer), then a
	 * regular file of a sane size: a directory, a device (/dev/zero) or a
	 * pipe is refused before anything is read */
	int fd = open(c->path, O_RDONLY | O_NONBLOCK);
	FILE *f;

	if (fd < 0)
		return SCN_CSV_CANNOT_OPEN;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > max_bytes) {
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
	while (!c->failed && (n = getline(&line, &cap, f)) > 0) {
		c->line++;
		if (csv_parse(&p, line, (size_t)n, csv_field, csv_row_end, c) != (size_t)n)
			scn_csv_fail(c, c->line, "csv: %s", csv_strerror(csv_error(&p)));
	}
	if (!c->failed && ferror(f))
		scn_csv_fail(c, c->line, "read error: %s", strerror(errno));
	if (!c->failed && csv_fini(&p, csv_field, csv_row_end, c))
		scn_csv_fail(c, c->line, "csv: %s", csv_strerror(csv_error(&p)));
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
