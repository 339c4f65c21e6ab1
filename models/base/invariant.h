/*
 * invariant.h - broken invariants stop the run (docs/ARCHITECTURE.md#rules: exit status 1).
 *
 * SIM_INVARIANT(cond, fmt, ...) is an assert that is never compiled out: a
 * simulator that carries on after its model broke writes plausible garbage.
 * It prints "FILE:LINE: invariant broken: <message>" on stderr and exits 1.
 * Bad input is not an invariant: the loader reports it (exit 2).
 */
#ifndef DCQCN_INVARIANT_H
#define DCQCN_INVARIANT_H

#define SIM_INVARIANT(cond, ...)                                              \
	do {                                                                  \
		if (__builtin_expect(!(cond), 0))                             \
			sim_invariant_fail(__FILE__, __LINE__, __VA_ARGS__);  \
	} while (0)

_Noreturn void sim_invariant_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
