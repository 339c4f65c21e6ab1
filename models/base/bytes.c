/*
 * bytes.c - a growing buffer of bytes and its reader (bytes.h).
 */
#include "models/base/bytes.h"

#include <stdlib.h>
#include <string.h>

#include "models/base/invariant.h"

void bytes_put(struct bytes *b, const void *src, size_t n)
{
	if (b->n + n > b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 4096;
		while (cap < b->n + n)
			cap *= 2;
		unsigned char *p = realloc(b->p, cap);
		SIM_INVARIANT(p, "out of memory for %zu bytes to another rank", cap);
		b->p = p;
		b->cap = cap;
	}
	if (n && src)
		memcpy(b->p + b->n, src, n);
	b->n += n;
}

void bytes_u32(struct bytes *b, uint32_t v)
{
	bytes_put(b, &v, sizeof(v));
}

void bytes_u64(struct bytes *b, uint64_t v)
{
	bytes_put(b, &v, sizeof(v));
}

void bytes_free(struct bytes *b)
{
	free(b->p);
	*b = (struct bytes){0};
}

void bytes_free_all(struct bytes *a, int n)
{
	for (int r = 0; a && r < n; r++)
		bytes_free(&a[r]);
	free(a);
}

const void *bytes_at(struct bytes_in *in, size_t n)
{
	SIM_INVARIANT(in->n - in->at >= n, "a message from another rank ends %zu bytes short",
		      n - (in->n - in->at));
	const void *p = in->p + in->at;
	in->at += n;
	return p;
}

void bytes_get(struct bytes_in *in, void *dst, size_t n)
{
	const void *p = bytes_at(in, n);
	if (n)
		memcpy(dst, p, n);
}

uint32_t bytes_get_u32(struct bytes_in *in)
{
	uint32_t v;
	bytes_get(in, &v, sizeof(v));
	return v;
}

uint64_t bytes_get_u64(struct bytes_in *in)
{
	uint64_t v;
	bytes_get(in, &v, sizeof(v));
	return v;
}
