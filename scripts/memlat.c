/*
 * memlat.c - the machine's memory, as the simulator meets it: the time a
 * dependent load takes in a random walk over a working set of each size.
 *
 *   memlat [MB...]          (default: 1 8 32)
 *
 * Prints "memlat: 1 MB 12 ns, 8 MB 60 ns, 32 MB 180 ns".  A run's events touch
 * ports, QPs, messages and packets spread over its whole state, so the wall
 * time an event takes follows these figures once the state outgrows the
 * caches; on a shared virtual machine the middle figure can change several
 * times over from one second to the next.  scripts/bench.sh prints them
 * beside its results.  Measured, never asserted.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define LINE 64
#define LOADS 4000000

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* xorshift64*: a fixed sequence, the same walk on every machine */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * UINT64_C(2685821657736338717);
}

/* ns a load over `mb` MB: one cycle through every line in random order,
 * each line holding the index of the next; -1 out of memory */
static double walk_ns(unsigned mb)
{
	size_t n = (size_t)mb * 1024 * 1024 / LINE;
	size_t *line = aligned_alloc(LINE, n * LINE), *order = malloc(n * sizeof(*order));
	if (!line || !order) {
		free(line);
		free(order);
		return -1;
	}
	uint64_t seed = 0x9e3779b97f4a7c15u;
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)(next_rand(&seed) % (i + 1)), t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	const size_t stride = LINE / sizeof(size_t);
	for (size_t i = 0; i < n; i++)
		line[order[i] * stride] = order[(i + 1) % n] * stride;
	free(order);
	size_t p = 0;
	for (size_t i = 0; i < n; i++) /* once round: the pages are mapped, the caches warm */
		p = line[p];
	double t0 = now_s();
	for (long k = 0; k < LOADS; k++)
		p = line[p];
	double ns = (now_s() - t0) * 1e9 / LOADS;
	volatile size_t sink = p; /* the walk must happen */
	(void)sink;
	free(line);
	return ns;
}

int main(int argc, char **argv)
{
	static const char *fallback[] = { "1", "8", "32" };
	int n = argc > 1 ? argc - 1 : 3;
	const char **sizes = argc > 1 ? (const char **)argv + 1 : fallback;
	long mb[64];
	if (n > 64) {
		fprintf(stderr, "memlat: at most 64 sizes\n");
		return 2;
	}
	for (int k = 0; k < n; k++) {
		char *end;
		mb[k] = strtol(sizes[k], &end, 10);
		if (end == sizes[k] || *end || mb[k] < 1 || mb[k] > 4096) {
			fprintf(stderr, "memlat: '%s' is not a size in MB (1-4096)\n", sizes[k]);
			return 2;
		}
	}
	printf("memlat:");
	for (int k = 0; k < n; k++) {
		double ns = walk_ns((unsigned)mb[k]);
		if (ns < 0) {
			printf("\n");
			fprintf(stderr, "memlat: out of memory for %ld MB\n", mb[k]);
			return 1;
		}
		printf("%s %ld MB %.0f ns", k ? "," : "", mb[k], ns);
	}
	printf("\n");
	return 0;
}
