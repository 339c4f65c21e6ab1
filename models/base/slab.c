/*
 * slab.c - memory for pools that write all of it at once (see slab.h).
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS and MAP_POPULATE */
#include "models/base/slab.h"

#include "models/base/invariant.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* under AddressSanitizer slabs stay on its heap, where it watches them */
#if defined(MAP_POPULATE) && defined(MAP_ANONYMOUS) && !defined(__SANITIZE_ADDRESS__)
#define SLAB_MAPPED 1
#else
#define SLAB_MAPPED 0
#endif
/* from this size on, 2 MiB pages where the system gives them */
#define SLAB_HUGE ((size_t)8 << 20)

void *calloc_lines(size_t n, size_t size)
{
	if (size && n > (SIZE_MAX - 63) / size)
		return NULL;
	size_t bytes = (n * size + 63) / 64 * 64;
	void *p = aligned_alloc(64, bytes ? bytes : 64);
	if (p)
		memset(p, 0, bytes);
	return p;
}

void *slab_alloc(size_t bytes)
{
#if SLAB_MAPPED
#if defined(MADV_HUGEPAGE) && defined(MADV_POPULATE_WRITE)
	if (bytes >= SLAB_HUGE) {
		void *h = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			       -1, 0);
		if (h == MAP_FAILED)
			return NULL;
		(void)madvise(h, bytes, MADV_HUGEPAGE);
		(void)madvise(h, bytes, MADV_POPULATE_WRITE);
		return h;
	}
#endif
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	return p == MAP_FAILED ? NULL : p;
#else
	return aligned_alloc(64, (bytes + 63) / 64 * 64);
#endif
}

void slab_free(void *p, size_t bytes)
{
	if (!p)
		return;
#if SLAB_MAPPED
	munmap(p, bytes);
#else
	(void)bytes;
	free(p);
#endif
}

void *slab_reserve(size_t bytes)
{
#if SLAB_MAPPED && defined(MAP_NORESERVE)
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
#ifdef MADV_NOHUGEPAGE
	/* a page dropped must be a small one: a 2 MiB page would hold the
	 * state of thousands of QPs at rest */
	(void)madvise(p, bytes, MADV_NOHUGEPAGE);
#endif
	return p;
#else
	return calloc(1, bytes);
#endif
}

void slab_unreserve(void *p, size_t bytes)
{
	if (!p)
		return;
#if SLAB_MAPPED && defined(MAP_NORESERVE)
	munmap(p, bytes);
#else
	(void)bytes;
	free(p);
#endif
}

void slab_drop(void *p, size_t bytes)
{
#if SLAB_MAPPED && defined(MAP_NORESERVE) && defined(MADV_DONTNEED)
	(void)madvise(p, bytes, MADV_DONTNEED);
#else
	memset(p, 0, bytes);
#endif
}

size_t slab_page_bytes(void)
{
	long s = sysconf(_SC_PAGESIZE);
	return s > 0 ? (size_t)s : 4096;
}

void *slab_grow(void *a, uint32_t *cap, size_t each, uint32_t first, const char *what)
{
	uint32_t n = *cap ? 2 * *cap : first;
	void *b = realloc(a, (size_t)n * each);
	SIM_INVARIANT(b, "out of memory for %s", what);
	*cap = n;
	return b;
}

void *slab_next(struct slab_chain *c, size_t bytes, size_t first, size_t size)
{
	if (c->fresh == c->fresh_end) {
		char *s = slab_alloc(bytes);
		if (!s)
			return NULL;
		memcpy(s, &c->last, sizeof(c->last));
		c->last = s;
		c->fresh = s + first;
		c->fresh_end = c->fresh + (bytes - first) / size * size;
	}
	void *o = c->fresh;
	c->fresh += size;
	return o;
}

void slab_chain_free(struct slab_chain *c, size_t bytes)
{
	char *s = c->last;
	while (s) {
		char *before;
		memcpy(&before, s, sizeof(before));
		slab_free(s, bytes);
		s = before;
	}
	*c = (struct slab_chain){0};
}
