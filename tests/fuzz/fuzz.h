/*
 * fuzz.h - what the fuzz harnesses share: the libFuzzer entry point each
 * defines, and how a broken oracle is reported.
 */
#ifndef DCQCN_FUZZ_H
#define DCQCN_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* print what broke and the text it broke on, then abort (a crash to
 * libFuzzer, a failed test to the replay) */
static inline _Noreturn void fuzz_fail(const char *what, const char *text)
{
	fprintf(stderr, "fuzz: %s:\n%s\n", what, text);
	abort();
}

#endif
