/*
 * figures.c - the figure names and formats (figures.h).
 */
#include "models/base/figures.h"

#include <stddef.h>

const char *const figure_names[FIG_COUNT] = {
	[FIG_QUEUES] = "queues", [FIG_PAUSE_MAP] = "pause_map", [FIG_RATES] = "rates",
	[FIG_DCQCN] = "dcqcn", [FIG_THROUGHPUT] = "throughput", [FIG_COLLECTIVES] = "collectives",
	[FIG_STORAGE] = "storage", [FIG_TRAINING] = "training",
};

const char *const figure_formats[] = { "png", "svg", "pdf", NULL };
