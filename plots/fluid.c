/*
 * fluid.c - the fluid model's series beside the packets' (`run --fluid`
 * writes DIR/fluid/): its queue in queues.png, its Rc in dcqcn.png.
 */
#include "plots/internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct fluid_series {
	FILE *out;
	double scale;
	int of_flow0;	/* rates.csv: flow 0's rows only (every flow of a start time
			 * follows the same path) */
};

static const char *const fluid_queue_cols[] = {"time_us", "bytes", NULL};
static const char *const fluid_rate_cols[] = {"time_us", "rate_gbps", "flow", NULL};

static int fluid_pass(struct scan *sc, char *const *f)
{
	struct fluid_series *fs = sc->ctx;
	if (fs->of_flow0 && strcmp(f[2], "0"))
		return 0;
	fprintf(fs->out, "%s\t%.6g\n", f[0], atof(f[1]) * fs->scale);
	return 0;
}

/* DIR/fluid/NAME (the fluid model's run of `run --fluid`) as the data file
 * DAT: time_us and its value x scale (queues.csv: bytes; rates.csv: flow 0's
 * Rc).  1 written, 0 when there is no fluid run, -1 on an error. */
int shape_fluid(const struct fig *g, const char *name, double scale, const char *dat, char *err,
		size_t errlen)
{
	char dir[PLOT_PATH_MAX], path[PLOT_PATH_MAX];
	struct stat st;
	if (join(dir, sizeof(dir), g->dir, "fluid", err, errlen) ||
	    join(path, sizeof(path), dir, name, err, errlen))
		return -1;
	if (stat(path, &st))
		return 0;
	int rates = !strcmp(name, "rates.csv");
	struct fluid_series fs = {.scale = scale, .of_flow0 = rates};
	if (!(fs.out = data_open(g, dat, err, errlen)))
		return -1;
	fputs(rates ? "time_us\tfluid model Rc (each flow)\n" : "time_us\tfluid model queue\n",
	      fs.out);
	long rows = scan_csv(dir, name, rates ? fluid_rate_cols : fluid_queue_cols, fluid_pass,
			     &fs, err, errlen);
	if (data_close(fs.out, g, dat, err, errlen) || rows < 0)
		return -1;
	return 1;
}
