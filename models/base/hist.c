/*
 * hist.c - log-linear histogram (see hist.h).
 *
 * Block 0 holds the values 0 .. 2^B - 1, one bucket each.  Block b >= 1
 * holds [2^(B+b-1), 2^(B+b)) in 2^B buckets of width 2^(b-1).  A block's
 * buckets are stored in chunks of 2^HIST_CHUNK_BITS: values cluster (the
 * completion times of one run span a few chunks), and merging or reading
 * percentiles visits only the chunks in use.
 */
#include "models/base/hist.h"

#include "models/base/bytes.h"
#include "models/base/invariant.h"

#include <stdlib.h>
#include <string.h>

#define SUB ((uint64_t)1 << HIST_BITS)
#define CHUNK ((uint64_t)1 << HIST_CHUNK_BITS)

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
}

void hist_free(struct hist *h)
{
	for (int b = 0; b < HIST_BLOCKS; b++) {
		for (uint32_t c = 0; h->block[b] && c < HIST_CHUNKS; c++)
			free(h->block[b][c]);
		free(h->block[b]);
	}
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

/* the chunk of block b that holds bucket idx, allocated */
static uint64_t *chunk(struct hist *h, int b, uint64_t idx)
{
	if (!h->block[b] && !(h->block[b] = calloc(HIST_CHUNKS, sizeof(uint64_t *))))
		return NULL;
	uint64_t **c = &h->block[b][idx >> HIST_CHUNK_BITS];
	if (!*c)
		*c = calloc(CHUNK, sizeof(uint64_t));
	return *c;
}

int hist_add(struct hist *h, int64_t v)
{
	int b;
	uint64_t i;
	locate(v > 0 ? (uint64_t)v : 0, &b, &i);
	uint64_t *c = chunk(h, b, i);
	if (!c)
		return -1;
	c[i & (CHUNK - 1)]++;
	h->n++;
	return 0;
}

int hist_merge(struct hist *h, const struct hist *from)
{
	for (int b = 0; b < HIST_BLOCKS; b++) {
		for (uint32_t k = 0; from->block[b] && k < HIST_CHUNKS; k++) {
			const uint64_t *src = from->block[b][k];
			if (!src)
				continue;
			uint64_t *dst = chunk(h, b, (uint64_t)k << HIST_CHUNK_BITS);
			if (!dst)
				return -1;
			for (uint64_t i = 0; i < CHUNK; i++)
				dst[i] += src[i];
		}
	}
	h->n += from->n;
	return 0;
}

void hist_pack(const struct hist *h, struct bytes *b)
{
	bytes_u64(b, h->n);
	for (uint32_t bl = 0; bl < HIST_BLOCKS; bl++)
		for (uint32_t k = 0; h->block[bl] && k < HIST_CHUNKS; k++)
			if (h->block[bl][k]) {
				bytes_u32(b, bl);
				bytes_u32(b, k);
				bytes_put(b, h->block[bl][k], CHUNK * sizeof(uint64_t));
			}
	bytes_u32(b, UINT32_MAX);
}

int hist_unpack(struct hist *h, struct bytes_in *in)
{
	int rc = 0;
	h->n += bytes_get_u64(in);
	for (uint32_t bl; (bl = bytes_get_u32(in)) != UINT32_MAX;) {
		uint32_t k = bytes_get_u32(in);
		const unsigned char *src = bytes_at(in, CHUNK * sizeof(uint64_t)); /* unaligned */
		SIM_INVARIANT(bl < HIST_BLOCKS && k < HIST_CHUNKS, "a histogram's chunk %u.%u", bl, k);
		uint64_t *dst = chunk(h, (int)bl, (uint64_t)k << HIST_CHUNK_BITS);
		if (!dst) {
			rc = -1;
			continue;
		}
		for (uint64_t i = 0; i < CHUNK; i++) {
			uint64_t v;
			memcpy(&v, src + i * sizeof(v), sizeof(v));
			dst[i] += v;
		}
	}
	return rc;
}

int64_t hist_permille(const struct hist *h, unsigned pm)
{
	if (!h->n)
		return -1;
	uint64_t rank = (h->n * pm + 999) / 1000, seen = 0;
	if (!rank)
		rank = 1;
	for (int b = 0; b < HIST_BLOCKS; b++) {
		for (uint32_t k = 0; h->block[b] && k < HIST_CHUNKS; k++) {
			const uint64_t *c = h->block[b][k];
			for (uint64_t i = 0; c && i < CHUNK; i++) {
				seen += c[i];
				if (seen >= rank)
					return (int64_t)lowest(b, ((uint64_t)k << HIST_CHUNK_BITS) + i);
			}
		}
	}
	return -1;
}

int64_t hist_percentile(const struct hist *h, unsigned pct)
{
	return hist_permille(h, 10 * pct);
}
