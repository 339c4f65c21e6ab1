/*
 * hist.c - log-linear histogram (see hist.h).
 *
 * Block 0 holds the values 0 .. 2^B - 1, one bucket each.  Block b >= 1
 * holds [2^(B+b-1), 2^(B+b)) in 2^B buckets of width 2^(b-1).
 */
#include "hist.h"

#include <stdlib.h>
#include <string.h>

#define SUB ((uint64_t)1 << HIST_BITS)

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
}

void hist_free(struct hist *h)
{
	for (int b = 0; b < HIST_BLOCKS; b++)
		free(h->block[b]);
	memset(h, 0, sizeof(*h));
}

static void locate(uint64_t v, int *block, uint64_t *idx)
{
	if (v < SUB) {
		*block = 0;
		*idx = v;
		return;
	}
	int top = 63 - __builtin_clzll(v); /* >= HIST_BITS */
	*block = top - HIST_BITS + 1;
	*idx = (v >> (top - HIST_BITS)) - SUB;
}

static uint64_t lowest(int block, uint64_t idx)
{
	if (block == 0)
		return idx;
	return (SUB + idx) << (block - 1);
}

static int ensure(struct hist *h, int b)
{
	if (!h->block[b])
		h->block[b] = calloc(SUB, sizeof(uint64_t));
	return h->block[b] ? 0 : -1;
}

int hist_add(struct hist *h, int64_t v)
{
	int b;
	uint64_t i;
	locate(v > 0 ? (uint64_t)v : 0, &b, &i);
	if (ensure(h, b))
		return -1;
	h->block[b][i]++;
	h->n++;
	return 0;
}

int hist_merge(struct hist *h, const struct hist *from)
{
	for (int b = 0; b < HIST_BLOCKS; b++) {
		if (!from->block[b])
			continue;
		if (ensure(h, b))
			return -1;
		for (uint64_t i = 0; i < SUB; i++)
			h->block[b][i] += from->block[b][i];
	}
	h->n += from->n;
	return 0;
}

int64_t hist_percentile(const struct hist *h, unsigned pct)
{
	if (!h->n)
		return -1;
	uint64_t rank = (h->n * pct + 99) / 100, seen = 0;
	if (!rank)
		rank = 1;
	for (int b = 0; b < HIST_BLOCKS; b++) {
		if (!h->block[b])
			continue;
		for (uint64_t i = 0; i < SUB; i++) {
			seen += h->block[b][i];
			if (seen >= rank)
				return (int64_t)lowest(b, i);
		}
	}
	return -1;
}
