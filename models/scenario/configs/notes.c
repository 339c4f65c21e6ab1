/*
 * notes.c - what an import leaves in the scenario beside the keys it sets
 * (struct scn_imported, scenario.h): the notes a reader of the results must
 * see, one line each, which the import log, a run's scenario.ini ("# config:"
 * lines, print.c) and scenario_config_notes() (config.h) show; and the
 * copies of what was imported that export.c and changes.c use.
 */
#include "models/scenario/configs/config.h"
#include "models/scenario/configs/internal.h"
#include "models/scenario/loader.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct scn_imported *scn_imported_of(struct scenario *s)
{
	if (!s->imported)
		s->imported = calloc(1, sizeof(*s->imported));
	return s->imported;
}

int scn_keep_text(char **dst, const char *text)
{
	char *c = strdup(text);

	if (!c)
		return -1;
	free(*dst);
	*dst = c;
	return 0;
}

int scn_config_note(struct scenario *s, FILE *log, const char *fmt, ...)
{
	struct scn_imported *im = scn_imported_of(s);
	char line[1600], *n;
	size_t old;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	scn_one_line(line);
	if (log)
		fprintf(log, "# %s\n", line);
	if (!im)
		return -1;
	old = im->notes ? strlen(im->notes) : 0;
	n = realloc(im->notes, old + strlen(line) + 2);
	if (!n)
		return -1;
	memcpy(n + old, line, strlen(line));
	memcpy(n + old + strlen(line), "\n", 2);
	im->notes = n;
	return 0;
}

void scenario_config_notes(const struct scenario *s, FILE *f)
{
	if (s->imported && s->imported->notes)
		fputs(s->imported->notes, f);
}
