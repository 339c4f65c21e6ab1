/*
 * figures.h - the names of the figures `dcqcn-sim plot` draws and the
 * formats it draws them in, shared by the plots layer (which draws them)
 * and the run layer (which clears an earlier run's), so the two lists
 * cannot drift apart.  A figure is DIR/plots/NAME.FORMAT.
 */
#ifndef DCQCN_FIGURES_H
#define DCQCN_FIGURES_H

enum figure_id {
	FIG_QUEUES, FIG_PAUSE_MAP, FIG_RATES, FIG_DCQCN, FIG_THROUGHPUT, FIG_COLLECTIVES,
	FIG_STORAGE, FIG_TRAINING,
	FIG_COUNT
};

/* by enum figure_id: "queues", "pause_map", ... */
extern const char *const figure_names[FIG_COUNT];
/* "png", "svg", "pdf", NULL */
extern const char *const figure_formats[];

#endif
