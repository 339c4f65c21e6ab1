/*
 * interleave.c - what two threads pay for writing memory interleaved with
 * each other's, no byte and no cache line of it shared: the question behind
 * how models/fabric/parallel.c deals units to partitions.
 *
 *   interleave [BYTES...]     (default: 128 256 2048 4096 65536)
 *
 * 16 MB is cut into blocks of BYTES, the even blocks thread 0's and the odd
 * ones thread 1's; each thread adds 1 to random words of its own blocks,
 * first alone, then both at once.  Prints, for each block size,
 * "interleave: 256 B blocks, alone 0.17 s, two threads 0.36 s (2.1x)".
 * Measured, never asserted: on the 2-core virtual machine where the
 * simulator's benchmarks were measured, 128 B and 256 B blocks cost 2.7 and
 * 2.1 times alone, 2 KB 1.3, 4 KB and more nothing.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define REGION ((size_t)16 << 20)
#define WRITES 20000000L

struct walker {
	uint64_t *mem;
	size_t block;                  /* bytes */
	unsigned me;                   /* 0 or 1: its blocks */
	double seconds;
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *walk(void *arg)
{
	struct walker *w = arg;
	size_t words = w->block / 8, pairs = REGION / w->block / 2;
	uint64_t x = 88172645463325252ULL ^ w->me; /* xorshift64: the same walk each time */
	double t0 = now_s();
	for (long i = 0; i < WRITES; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		size_t block = (x >> 24) % pairs * 2 + w->me;
		w->mem[block * words + (x & 0xffff) % words] += 1;
	}
	w->seconds = now_s() - t0;
	return NULL;
}

int main(int argc, char **argv)
{
	static const size_t defaults[] = { 128, 256, 2048, 4096, 65536 };
	size_t n = argc > 1 ? (size_t)argc - 1 : sizeof(defaults) / sizeof(defaults[0]);
	uint64_t *mem = aligned_alloc(4096, REGION);
	if (!mem) {
		fprintf(stderr, "interleave: out of memory\n");
		return 1;
	}
	for (size_t i = 0; i < REGION / 8; i++)
		mem[i] = i;
	for (size_t k = 0; k < n; k++) {
		size_t block = argc > 1 ? (size_t)strtoull(argv[k + 1], NULL, 10) : defaults[k];
		if (block < 8 || block > REGION / 2 || REGION % (2 * block)) {
			fprintf(stderr, "interleave: a block of 8 B to 8 MB that divides 16 MB in an "
					"even number, not '%s'\n", argv[k + 1]);
			return 2;
		}
		struct walker w[2] = { { mem, block, 0, 0 }, { mem, block, 1, 0 } };
		walk(&w[0]);
		double alone = w[0].seconds;
		pthread_t t;
		if (pthread_create(&t, NULL, walk, &w[1])) {
			fprintf(stderr, "interleave: cannot start a thread\n");
			return 1;
		}
		walk(&w[0]);
		pthread_join(t, NULL);
		double both = w[0].seconds > w[1].seconds ? w[0].seconds : w[1].seconds;
		printf("interleave: %zu B blocks, alone %.2f s, two threads %.2f s (%.1fx)\n", block,
		       alone, both, both / alone);
	}
	free(mem);
	return 0;
}
