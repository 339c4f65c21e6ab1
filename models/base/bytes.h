/*
 * bytes.h - a growing buffer of bytes and a reader over one: what the ranks
 * of a run split over processes send each other (models/fabric/ranks.h).
 * Records are copied as they lie in memory: every rank runs the same
 * program, so a struct has the same layout on each; pointers in them mean
 * nothing to the receiver, which replaces them.
 */
#ifndef DCQCN_BYTES_H
#define DCQCN_BYTES_H

#include <stddef.h>
#include <stdint.h>

struct bytes {
	unsigned char *p;
	size_t n, cap;
};

/* n bytes of src onto b (src NULL: n bytes of room, their content left
 * as it is); out of memory is a broken invariant */
void bytes_put(struct bytes *b, const void *src, size_t n);
void bytes_u32(struct bytes *b, uint32_t v);
void bytes_u64(struct bytes *b, uint64_t v);
void bytes_free(struct bytes *b);
/* n buffers (one a rank) and the array that holds them; a NULL one: nothing */
void bytes_free_all(struct bytes *a, int n);

/* what a reader has left of a buffer */
struct bytes_in {
	const unsigned char *p;
	size_t n, at;
};

/* the next n bytes into dst; a buffer that ends short is a broken
 * invariant (what a rank sent is not what this one expects) */
void bytes_get(struct bytes_in *in, void *dst, size_t n);
uint32_t bytes_get_u32(struct bytes_in *in);
uint64_t bytes_get_u64(struct bytes_in *in);
/* the next n bytes where they lie (valid while the buffer is) */
const void *bytes_at(struct bytes_in *in, size_t n);

#endif
