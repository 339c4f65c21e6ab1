/*
 * slab.h - memory for pools of packets and messages, which take their
 * objects from the newest slab in order as they need them.
 *
 * Where the system can, such memory is mapped with its pages present: one
 * call instead of a page fault per 4 KiB page as the pool reaches it (a
 * 127-to-1 incast fills 25 packet slabs in its first milliseconds).  From
 * 8 MiB on (a large QP table) it asks for 2 MiB pages too.  What each saves,
 * measured: docs/SCALING.md#pools-and-small-costs-measured.
 */
#ifndef DCQCN_SLAB_H
#define DCQCN_SLAB_H

#include <stddef.h>
#include <stdint.h>

/* n zeroed objects of `size` bytes on cache lines of their own: the start
 * aligned to 64 B and the end padded to a line, so that nothing else shares
 * their lines (free() gives them back); NULL out of memory.  For arrays of
 * what each partition's thread writes (with _Alignas(64) types, one line
 * boundary per element) and of nodes. */
void *calloc_lines(size_t n, size_t size);

/* bytes of memory, aligned to a cache line (64 B), or NULL */
void *slab_alloc(size_t bytes);
/* give back what slab_alloc(bytes) returned (NULL: nothing) */
void slab_free(void *p, size_t bytes);

/* address space for `bytes` of zeroes that takes memory only where it is
 * written (the QP table of a run whose QPs exceed nic.qp_cache: 67 M QPs,
 * 8.6 GB, of which a few thousand hold state at once), in small pages;
 * NULL when out of address space.  slab_unreserve gives it back. */
void *slab_reserve(size_t bytes);
void slab_unreserve(void *p, size_t bytes);
/* the memory of [p, p + bytes) back to the system, to read as zeroes again
 * (p and bytes whole pages of a slab_reserve) */
void slab_drop(void *p, size_t bytes);
/* the system's page size */
size_t slab_page_bytes(void);

/* array a of *cap items of `each` bytes made twice as long (`first` items
 * when empty), *cap updated; out of memory ends the run, saying what the
 * array was for */
void *slab_grow(void *a, uint32_t *cap, size_t each, uint32_t first, const char *what);

/* the slabs of one pool, each holding in its first bytes a pointer to the
 * one before, and the newest one's objects never handed out */
struct slab_chain {
	void *last;
	char *fresh, *fresh_end;
};

/* the next object never handed out: the newest slab's, in order, or the
 * first of a new slab of `bytes` whose objects of `size` bytes start at
 * offset `first`; NULL when the system is out of memory */
void *slab_next(struct slab_chain *c, size_t bytes, size_t first, size_t size);
/* every slab of the chain (each of `bytes`) back; the chain is empty again */
void slab_chain_free(struct slab_chain *c, size_t bytes);

#endif
