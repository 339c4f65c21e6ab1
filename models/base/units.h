/*
 * units.h - exact parsing and printing of the scenario units (docs/contract.md#scenario-files).
 *
 * Every value with a unit is parsed straight into an integer, never through a
 * float: "1.001us" is 1001000 ps, "1.5KiB" is 1536 B.  A decimal fraction is
 * accepted only when the result is a whole number of the base unit, so
 * "0.5B" and "1.0005ns" are errors rather than silently rounded.  A bare 0
 * ("0", "0.0") needs no unit: it is 0 in every unit.
 *
 * Base units (the suffix of every field that holds one):
 *   size     bytes            B KB MB GB (decimal: 1 KB = 1000 B), KiB MiB GiB
 *   rate     bits per second  bps Kbps Mbps Gbps Tbps
 *   time     picoseconds      ps ns us ms s
 *   length   millimetres      m            (cables; "2.5m" = 2500 mm)
 *   fraction parts per 1e9    "10%" or "0.1" (0 to 1 inclusive)
 *
 * Functions return 0 on success or a negative UNITS_E* code and write a short
 * reason (no file, no key: the caller adds those) into err[errlen].  Nothing
 * here prints.
 */
#ifndef DCQCN_UNITS_H
#define DCQCN_UNITS_H

#include <stddef.h>
#include <stdint.h>

typedef int64_t sim_time_ps;

#define UNITS_PS_PER_NS INT64_C(1000)
#define UNITS_PS_PER_US INT64_C(1000000)
#define UNITS_PS_PER_MS INT64_C(1000000000)
#define UNITS_PS_PER_S INT64_C(1000000000000)
#define UNITS_PPB_ONE INT64_C(1000000000) /* fraction 1.0 in parts per 1e9 */

enum units_error {
	UNITS_OK = 0,
	UNITS_ESYNTAX = -1,   /* not a number, junk after it */
	UNITS_EUNIT = -2,     /* missing or unknown unit */
	UNITS_EINEXACT = -3,  /* not a whole number of the base unit */
	UNITS_ERANGE = -4,    /* overflow, negative, or outside [min, max] */
};

/* size in bytes (>= 0) */
int units_parse_size(const char *s, int64_t *bytes, char *err, size_t errlen);
/* rate in bits per second (> 0) */
int units_parse_rate(const char *s, int64_t *bps, char *err, size_t errlen);
/* time in picoseconds (>= 0) */
int units_parse_time(const char *s, sim_time_ps *ps, char *err, size_t errlen);
/* cable length in millimetres (>= 0) */
int units_parse_length(const char *s, int64_t *mm, char *err, size_t errlen);
/* fraction in parts per 1e9, 0..UNITS_PPB_ONE; "10%" or "0.1" */
int units_parse_fraction(const char *s, int64_t *ppb, char *err, size_t errlen);
/* plain decimal integer (no unit, no fraction) in [min, max] */
int units_parse_int(const char *s, int64_t min, int64_t max, int64_t *out,
		    char *err, size_t errlen);
/* true/false, yes/no, on/off, 1/0 (case-insensitive) */
int units_parse_bool(const char *s, int *out, char *err, size_t errlen);

/*
 * Printing: an exact form that round-trips through the matching parse
 * function, in the largest unit where the value has at most three decimals
 * ("64MB", "1.5MB", "1.536KB", "999B", "500ns", "1.001us", "83.56ns").  A size
 * that is a whole number of GiB, MiB or KiB but not of GB, MB or KB prints in
 * the binary unit ("64MiB").  Return buf.
 */
char *units_format_size(int64_t bytes, char *buf, size_t len);
char *units_format_rate(int64_t bps, char *buf, size_t len);
char *units_format_time(sim_time_ps ps, char *buf, size_t len);
char *units_format_length(int64_t mm, char *buf, size_t len);
char *units_format_fraction(int64_t ppb, char *buf, size_t len);

/* ceil(a * b / c) exactly (128-bit intermediate), a, b >= 0, c > 0;
 * INT64_MAX when the result does not fit */
int64_t units_mul_div_ceil(int64_t a, int64_t b, int64_t c);

/* time as microseconds with nanosecond decimals, for CSV: "12.345" */
char *units_format_us(sim_time_ps ps, char *buf, size_t len);

/* Writers for CSV rows, without a terminating NUL: return the characters
 * written.  units_put_us writes what units_format_us does (at most 25
 * characters); units_put_fixed writes what printf's "%.*f" does with
 * `decimals` (0-9), rounding the exact binary value to nearest, ties to
 * even, without printf for |v| < 2^62 (at most 30 characters there). */
size_t units_put_us(sim_time_ps ps, char *out);
size_t units_put_fixed(double v, unsigned decimals, char *out);

#endif
