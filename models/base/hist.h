/*
 * hist.h - percentiles of any number of values in bounded memory: a
 * log-linear histogram (HdrHistogram's layout).  Values below 2^HIST_BITS
 * are counted exactly; above, each power of two is cut into 2^HIST_BITS
 * buckets, so a bucket spans at most 1/2^HIST_BITS of its values (1/65536:
 * 15 ns at 1 ms).  A percentile is the lowest value of the bucket that holds
 * the nearest-rank element.  Counts add, so the result does not depend on
 * the order in which values arrive.  Memory: 8 KiB per 1024 neighbouring
 * buckets in use (a power of two holds 64 of those), allocated on first use.
 */
#ifndef DCQCN_HIST_H
#define DCQCN_HIST_H

#include <stdint.h>

#define HIST_BITS 16
#define HIST_BLOCKS (64 - HIST_BITS + 1)
#define HIST_CHUNK_BITS 10 /* a block's buckets come in chunks of 2^10 */
#define HIST_CHUNKS (1u << (HIST_BITS - HIST_CHUNK_BITS))

struct hist {
	uint64_t **block[HIST_BLOCKS]; /* HIST_CHUNKS chunk pointers each */
	uint64_t n;
};

void hist_init(struct hist *h);
void hist_free(struct hist *h);
/* count one value (>= 0); -1 when out of memory */
int hist_add(struct hist *h, int64_t v);
/* add every count of `from` to h; -1 when out of memory */
int hist_merge(struct hist *h, const struct hist *from);
/* nearest rank: the lowest value v with at least pct % of the values <= v,
 * to the bucket's precision; -1 when there are none */
int64_t hist_percentile(const struct hist *h, unsigned pct);
/* the same in permille (999: the 99.9th percentile) */
int64_t hist_permille(const struct hist *h, unsigned pm);

/* h onto b, and what hist_pack put there added to h (-1 out of memory):
 * the histograms of a run split over processes meet at the end */
struct bytes;
struct bytes_in;
void hist_pack(const struct hist *h, struct bytes *b);
int hist_unpack(struct hist *h, struct bytes_in *in);

#endif
