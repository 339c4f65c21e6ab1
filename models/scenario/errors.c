/*
 * errors.c - the loader's messages (loader.h): one line each, at their
 * place ("src:line: " or "src: "), the first error of a file or a --set
 * kept, and where a message about a key points.  Every room of the loader
 * and the configurations report through these; they call nothing of the
 * loader.
 */
#include "models/scenario/loader.h"

#include <stdarg.h>
#include <stdio.h>

/* the length of the valid UTF-8 sequence at s (2-4), or 0 */
static int utf8_len(const unsigned char *s)
{
	int n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
	for (int i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* a message stays one line of text: control characters and bytes that are
 * not UTF-8 (a binary file's header) become '?' */
void scn_one_line(char *s)
{
	while (*s) {
		unsigned char c = (unsigned char)*s;
		int n = c >= 0x80 ? utf8_len((const unsigned char *)s) : 1;
		if (c < 0x20 || c == 0x7f || n == 0) {
			*s++ = '?';
			continue;
		}
		s += n;
	}
}

void scn_vset_error(struct scn_error *err, struct place pl, const char *fmt,
		    va_list ap)
{
	int n;

	if (!err)
		return;
	if (pl.line > 0)
		n = snprintf(err->msg, sizeof(err->msg), "%s:%d: ", pl.src, pl.line);
	else
		n = snprintf(err->msg, sizeof(err->msg), "%s: ", pl.src);
	if (n >= 0 && (size_t)n < sizeof(err->msg))
		vsnprintf(err->msg + n, sizeof(err->msg) - (size_t)n, fmt, ap);
	scn_one_line(err->msg);
}

int scn_set_error(struct scn_error *err, struct place pl, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	scn_vset_error(err, pl, fmt, ap);
	va_end(ap);
	return -1;
}

/* the first error of a file or a --set, at its current place */
int scn_fail(struct load *ld, const char *fmt, ...)
{
	struct place pl = { ld->src, ld->line };
	va_list ap;

	if (ld->failed)
		return -1;
	ld->failed = 1;
	va_start(ap, fmt);
	scn_vset_error(ld->err, pl, fmt, ap);
	va_end(ap);
	return -1;
}

struct place scn_key_place(const struct scenario *s, const struct load *ld, int sec, int ki,
			   int j)
{
	struct place pl = { "--set", 0 };

	if (ld && ki >= 0) {
		int line = line_at(ld, sec, j, ki);
		if (line > 0) {
			pl.src = ld->src;
			pl.line = line;
			return pl;
		}
	}
	if (!ld && j < 0 && ki >= 0 && s->key_line[ki] > 0) {
		pl.src = s->source;
		pl.line = s->key_line[ki];
	} else if (ld && j >= 0 && hdr_at(ld, sec, j) > 0) {
		pl.src = ld->src;
		pl.line = hdr_at(ld, sec, j);
	} else if (j >= 0 && item_line(s, sec, j) > 0) {
		pl.src = s->source;
		pl.line = item_line(s, sec, j);
	}
	return pl;
}
