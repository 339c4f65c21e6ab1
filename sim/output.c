/*
 * output.c - run directory files (see output.h and README "Outputs").
 *
 * Every field written here is a number or a name made of letters, digits,
 * '-' and '_' (the loader enforces job names), so no field needs CSV
 * quoting and rows are written with fprintf.  libcsv reads the trace files.
 */
#include "output.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "fabric.h"
#include "scenario.h"
#include "units.h"

static int mkdir_p(const char *dir)
{
	char path[4096];
	size_t n = strlen(dir);
	if (n == 0 || n >= sizeof(path))
		return -1;
	memcpy(path, dir, n + 1);
	for (char *c = path + 1; *c; c++) {
		if (*c != '/')
			continue;
		*c = '\0';
		if (mkdir(path, 0777) && errno != EEXIST)
			return -1;
		*c = '/';
	}
	return mkdir(path, 0777) && errno != EEXIST ? -1 : 0;
}

static FILE *open_in(const struct output *o, const char *name, const char *mode)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s", o->dir, name);
	return fopen(path, mode);
}

int output_open(struct output *o, const char *dir, const struct scenario *scn,
		char *err, size_t errlen)
{
	*o = (struct output){0};
	if (strlen(dir) >= sizeof(o->dir) || mkdir_p(dir)) {
		snprintf(err, errlen, "%s: cannot create the output directory: %s", dir,
			 strerror(errno));
		return -1;
	}
	strcpy(o->dir, dir);
	FILE *ini = open_in(o, "scenario.ini", "w");
	o->flows = open_in(o, "flows.csv", "w");
	if (!ini || !o->flows) {
		snprintf(err, errlen, "%s: cannot write in the output directory: %s", dir,
			 strerror(errno));
		if (ini)
			fclose(ini);
		output_close(o);
		return -1;
	}
	scenario_print(scn, ini);
	scenario_print_derived(scn, ini);
	int bad = ferror(ini);
	bad |= fclose(ini);
	fputs("flow,job,src,dst,bytes,start_us,end_us,fct_us\n", o->flows);
	if (bad) {
		snprintf(err, errlen, "%s/scenario.ini: write failed", dir);
		output_close(o);
		return -1;
	}
	return 0;
}

void output_flow(struct output *o, const struct fabric *f, const struct flow *fl)
{
	char start[32], end[32] = "", fct[32] = "";
	units_format_us(fl->start_ps, start, sizeof(start));
	if (fl->end_ps >= 0) {
		units_format_us(fl->end_ps, end, sizeof(end));
		units_format_us(fl->end_ps - fl->start_ps, fct, sizeof(fct));
	}
	fprintf(o->flows, "%u,%s,h%u,h%u,%lld,%s,%s,%s\n", fl->id, f->scn->jobs[fl->job].name,
		fl->src, fl->dst, (long long)fl->bytes, start, end, fct);
}

int output_write_row(const struct output *o, const char *name, const char *header,
		     const char *row)
{
	FILE *fp = open_in(o, name, "w");
	if (!fp)
		return -1;
	fprintf(fp, "%s\n%s\n", header, row);
	int bad = ferror(fp);
	return (fclose(fp) || bad) ? -1 : 0;
}

int output_close(struct output *o)
{
	int rc = 0;
	if (o->flows) {
		rc |= ferror(o->flows);
		rc |= fclose(o->flows);
		o->flows = NULL;
	}
	return rc ? -1 : 0;
}
