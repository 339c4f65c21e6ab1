/*
 * test_units.c - Check suite for models/base/units.c (contract in units.h,
 * docs/contract.md#scenario-files): exact values, every error path with its message, printing, and the
 * round trip format -> parse on fixed and pseudo-random values.  The
 * randomized tests use a fixed-seed LCG, so every run checks the same values.
 */
#include <check.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/base/units.h"

/* any output of the format functions fits (units.c says so) */
#define FMT_LEN 32
/* written into outputs before a call that must fail: must stay unchanged */
#define SENTINEL INT64_C(-777)

enum kind { SIZE, RATE, TIME, LEN, FRAC };

static const char *kind_name[] = { "size", "rate", "time", "length", "fraction" };

static int parse(enum kind k, const char *s, int64_t *v, char *err, size_t n)
{
	switch (k) {
	case SIZE:
		return units_parse_size(s, v, err, n);
	case RATE:
		return units_parse_rate(s, v, err, n);
	case TIME:
		return units_parse_time(s, v, err, n);
	case LEN:
		return units_parse_length(s, v, err, n);
	case FRAC:
		return units_parse_fraction(s, v, err, n);
	}
	return 99;
}

static char *format(enum kind k, int64_t v, char *buf, size_t n)
{
	switch (k) {
	case SIZE:
		return units_format_size(v, buf, n);
	case RATE:
		return units_format_rate(v, buf, n);
	case TIME:
		return units_format_time(v, buf, n);
	case LEN:
		return units_format_length(v, buf, n);
	case FRAC:
		return units_format_fraction(v, buf, n);
	}
	return NULL;
}

/* 64-bit LCG (Knuth's MMIX constants); the high bits are the good ones */
static uint64_t lcg_next(uint64_t *state)
{
	*state = *state * UINT64_C(6364136223846793005) +
		 UINT64_C(1442695040888963407);
	return *state >> 1; /* 63 bits: any value is a valid non-negative int64 */
}

static uint64_t lcg_below(uint64_t *state, uint64_t n)
{
	return lcg_next(state) % n;
}

/* ---- exact values ---- */

static const struct {
	enum kind k;
	const char *s;
	int64_t want;
} exact[] = {
	/* htsim's (int64_t)(1.001 * 1e6) truncates to 1000999 */
	{ TIME, "1.001us", INT64_C(1001000) },
	{ TIME, "83.56ns", INT64_C(83560) },
	{ TIME, "1s", INT64_C(1000000000000) },
	{ TIME, "0ps", 0 },
	{ TIME, "1ps", 1 },
	{ TIME, "500ns", INT64_C(500000) },
	{ TIME, "1.5ms", INT64_C(1500000000) },
	{ TIME, "200ms", INT64_C(200000000000) },
	{ TIME, "10us", INT64_C(10000000) },
	{ TIME, "0.000000000001s", 1 },
	{ TIME, "1.000000000000000000000000s", INT64_C(1000000000000) },
	{ TIME, "  1.001 us\t", INT64_C(1001000) },
	{ TIME, "+5ns", INT64_C(5000) },
	{ TIME, "0007ns", INT64_C(7000) },
	{ TIME, "9223372036854775807ps", INT64_MAX },
	{ TIME, "9223372.036854775807s", INT64_MAX },
	{ SIZE, "64MB", INT64_C(64000000) },
	{ SIZE, "64 MB", INT64_C(64000000) },
	{ SIZE, "\t64MB\n", INT64_C(64000000) },
	{ SIZE, "1.5KiB", INT64_C(1536) },
	{ SIZE, "0.5KiB", INT64_C(512) },
	{ SIZE, "4MB", INT64_C(4000000) },
	{ SIZE, "2GiB", INT64_C(2147483648) },
	{ SIZE, "64MiB", INT64_C(67108864) },
	{ SIZE, "150KB", INT64_C(150000) },
	{ SIZE, "1.536KB", INT64_C(1536) },
	{ SIZE, "1GB", INT64_C(1000000000) },
	{ SIZE, "0B", 0 },
	{ SIZE, "9223372036854775807B", INT64_MAX },
	/* 2^-30 GiB is one byte; 5^27 (19 digits) times 10^-27 */
	{ SIZE, "0.000000007450580596923828125GiB", 8 },
	{ RATE, "400Gbps", INT64_C(400000000000) },
	{ RATE, "2.5Gbps", INT64_C(2500000000) },
	{ RATE, "100Mbps", INT64_C(100000000) },
	{ RATE, "1.5Tbps", INT64_C(1500000000000) },
	{ RATE, "1.001Kbps", INT64_C(1001) },
	{ RATE, "1bps", 1 },
	{ LEN, "3m", INT64_C(3000) },
	{ LEN, "0.5m", INT64_C(500) },
	{ LEN, "2.5m", INT64_C(2500) },
	{ LEN, "30 m", INT64_C(30000) },
	{ LEN, "0.001m", 1 },
	{ LEN, "0m", 0 },
	{ FRAC, "10%", INT64_C(100000000) },
	{ FRAC, "0.1", INT64_C(100000000) },
	{ FRAC, "2.5%", INT64_C(25000000) },
	{ FRAC, "10 %", INT64_C(100000000) },
	{ FRAC, "1", UNITS_PPB_ONE },
	{ FRAC, "1.0", UNITS_PPB_ONE },
	{ FRAC, "100%", UNITS_PPB_ONE },
	{ FRAC, "0", 0 },
	{ FRAC, "0%", 0 },
	{ FRAC, "0.000000001", 1 },
	{ FRAC, "0.0000001%", 1 },
};

START_TEST(test_exact_value)
{
	char err[128] = "";
	int64_t v = SENTINEL;
	int rc = parse(exact[_i].k, exact[_i].s, &v, err, sizeof(err));

	ck_assert_msg(rc == 0, "%s \"%s\": rc %d (%s)", kind_name[exact[_i].k],
		      exact[_i].s, rc, err);
	ck_assert_msg(v == exact[_i].want, "%s \"%s\": got %" PRId64
		      ", want %" PRId64, kind_name[exact[_i].k], exact[_i].s, v,
		      exact[_i].want);
}
END_TEST

START_TEST(test_percent_equals_decimal)
{
	int64_t a = 0, b = 1;

	ck_assert_int_eq(units_parse_fraction("10%", &a, NULL, 0), 0);
	ck_assert_int_eq(units_parse_fraction("0.1", &b, NULL, 0), 0);
	ck_assert_int_eq(a, b);
	ck_assert_int_eq(units_parse_fraction("2.5%", &a, NULL, 0), 0);
	ck_assert_int_eq(units_parse_fraction("0.025", &b, NULL, 0), 0);
	ck_assert_int_eq(a, b);
}
END_TEST

/*
 * Reference model: the value of "IP.FRAC<unit>" computed the long way, one
 * case at a time, against the parser.  Decimal units (10^e): shift by
 * e - d digits.  Binary units (2^k): multiply, then the value is exact only
 * if 10^d divides the product.  Small operands keep the reference itself
 * free of overflow.
 */
START_TEST(test_reference_model)
{
	static const struct {
		enum kind k;
		const char *unit;
		int e;      /* scale = 10^e, or -1 for binary */
		int64_t bin; /* scale when binary */
	} units[] = {
		{ TIME, "ps", 0, 0 },   { TIME, "ns", 3, 0 },
		{ TIME, "us", 6, 0 },   { TIME, "ms", 9, 0 },
		{ TIME, "s", 12, 0 },   { SIZE, "B", 0, 0 },
		{ SIZE, "KB", 3, 0 },   { SIZE, "MB", 6, 0 },
		{ SIZE, "GB", 9, 0 },   { SIZE, "KiB", -1, 1024 },
		{ SIZE, "MiB", -1, INT64_C(1) << 20 },
		{ SIZE, "GiB", -1, INT64_C(1) << 30 },
		{ RATE, "Kbps", 3, 0 }, { RATE, "Gbps", 9, 0 },
		{ RATE, "Tbps", 12, 0 }, { LEN, "m", 3, 0 },
		{ FRAC, "%", 7, 0 },    { FRAC, "", 9, 0 },
	};
	uint64_t st = 12345;
	int n, exact_seen = 0, inexact_seen = 0;

	for (n = 0; n < 20000; n++) {
		size_t u = (size_t)lcg_below(&st, sizeof(units) / sizeof(units[0]));
		int d = (int)lcg_below(&st, 7), j, rc_want;
		int64_t ip = (int64_t)lcg_below(&st, 1000), frac, pow_d = 1, num;
		int64_t want = 0, got = SENTINEL;
		char s[64], err[128] = "";
		int rc;

		if (units[u].k == FRAC)
			ip = (int64_t)lcg_below(&st, units[u].e == 9 ? 1 : 100);
		for (j = 0; j < d; j++)
			pow_d *= 10;
		frac = (int64_t)lcg_below(&st, (uint64_t)pow_d);
		num = ip * pow_d + frac; /* the value times 10^d, in the unit */
		if (d == 0)
			snprintf(s, sizeof(s), "%" PRId64 "%s", ip, units[u].unit);
		else
			snprintf(s, sizeof(s), "%" PRId64 ".%0*" PRId64 "%s", ip,
				 d, frac, units[u].unit);

		rc_want = 0;
		if (units[u].e < 0) {
			int64_t prod = num * units[u].bin;

			if (prod % pow_d != 0)
				rc_want = UNITS_EINEXACT;
			else
				want = prod / pow_d;
		} else if (d <= units[u].e) {
			want = num;
			for (j = d; j < units[u].e; j++)
				want *= 10;
		} else {
			int64_t drop = 1;

			for (j = units[u].e; j < d; j++)
				drop *= 10;
			if (num % drop != 0)
				rc_want = UNITS_EINEXACT;
			else
				want = num / drop;
		}
		if (rc_want == 0 && units[u].k == RATE && want == 0)
			rc_want = UNITS_ERANGE;
		if (rc_want == 0 && units[u].k == FRAC && want > UNITS_PPB_ONE)
			rc_want = UNITS_ERANGE;

		rc = parse(units[u].k, s, &got, err, sizeof(err));
		ck_assert_msg(rc == rc_want, "\"%s\": rc %d, want %d (%s)", s, rc,
			      rc_want, err);
		if (rc_want == 0) {
			ck_assert_msg(got == want, "\"%s\": got %" PRId64
				      ", want %" PRId64, s, got, want);
			exact_seen++;
		} else {
			ck_assert_msg(got == SENTINEL, "\"%s\": output written", s);
			ck_assert_msg(err[0] != '\0', "\"%s\": no message", s);
			inexact_seen += rc_want == UNITS_EINEXACT;
		}
	}
	/* the generator must have exercised both outcomes */
	ck_assert_int_gt(exact_seen, 1000);
	ck_assert_int_gt(inexact_seen, 1000);
}
END_TEST

/* ---- errors ---- */

static const struct {
	enum kind k;
	const char *s;
	int rc;
} errors[] = {
	/* missing unit */
	{ SIZE, "64", UNITS_EUNIT },
	{ SIZE, " 64 ", UNITS_EUNIT },
	{ RATE, "400", UNITS_EUNIT },
	{ TIME, "5", UNITS_EUNIT },
	{ TIME, "1.5", UNITS_EUNIT },
	{ LEN, "3", UNITS_EUNIT },
	/* unknown unit: units are case-sensitive */
	{ TIME, "5 parsecs", UNITS_EUNIT },
	{ TIME, "5S", UNITS_EUNIT },
	{ TIME, "5sec", UNITS_EUNIT },
	{ SIZE, "5kb", UNITS_EUNIT },
	{ SIZE, "5mb", UNITS_EUNIT },
	{ SIZE, "5Mb", UNITS_EUNIT },
	{ SIZE, "5KIB", UNITS_EUNIT },
	{ SIZE, "5%", UNITS_EUNIT },
	{ RATE, "5gbps", UNITS_EUNIT },
	{ RATE, "5GB", UNITS_EUNIT },
	{ LEN, "5cm", UNITS_EUNIT },
	{ LEN, "5mm", UNITS_EUNIT },
	{ FRAC, "5x", UNITS_EUNIT },
	{ FRAC, "10%%", UNITS_EUNIT },
	/* syntax */
	{ SIZE, "1.2.3MB", UNITS_ESYNTAX },
	{ SIZE, "abc", UNITS_ESYNTAX },
	{ SIZE, "", UNITS_ESYNTAX },
	{ SIZE, "   ", UNITS_ESYNTAX },
	{ SIZE, NULL, UNITS_ESYNTAX },
	{ SIZE, "1e3MB", UNITS_ESYNTAX },
	{ SIZE, "MB", UNITS_ESYNTAX },
	{ SIZE, ".5MB", UNITS_ESYNTAX },
	{ SIZE, "5.MB", UNITS_ESYNTAX },
	{ SIZE, "5 M B", UNITS_ESYNTAX },
	{ SIZE, "1,5MB", UNITS_ESYNTAX },
	{ SIZE, "0x10MB", UNITS_ESYNTAX },
	{ SIZE, "--5MB", UNITS_ESYNTAX },
	{ SIZE, "+-5MB", UNITS_ESYNTAX },
	{ SIZE, "- 5MB", UNITS_ESYNTAX },
	{ SIZE, "5MB!", UNITS_ESYNTAX },
	{ SIZE, "5MB 6MB", UNITS_ESYNTAX },
	{ SIZE, "5\001MB", UNITS_ESYNTAX },
	{ TIME, "1us5ns", UNITS_ESYNTAX },
	{ FRAC, "", UNITS_ESYNTAX },
	{ FRAC, "%", UNITS_ESYNTAX },
	{ FRAC, "1/2", UNITS_ESYNTAX },
	/* negative, "-0" included */
	{ SIZE, "-5MB", UNITS_ERANGE },
	{ SIZE, "-0MB", UNITS_ERANGE },
	{ TIME, "-1ns", UNITS_ERANGE },
	{ RATE, "-1Gbps", UNITS_ERANGE },
	{ LEN, "-1m", UNITS_ERANGE },
	{ FRAC, "-0.1", UNITS_ERANGE },
	{ FRAC, "-10%", UNITS_ERANGE },
	/* overflow of int64 */
	{ SIZE, "99999999999GB", UNITS_ERANGE },
	{ SIZE, "9223372036854775808B", UNITS_ERANGE },
	{ SIZE, "99999999999999999999999B", UNITS_ERANGE },
	{ SIZE, "8589934592GiB", UNITS_ERANGE },
	{ TIME, "9999999999s", UNITS_ERANGE },
	{ TIME, "9223372036854775808ps", UNITS_ERANGE },
	{ TIME, "9223372.036854775808s", UNITS_ERANGE },
	{ RATE, "10000000Tbps", UNITS_ERANGE },
	{ LEN, "9223372036854776m", UNITS_ERANGE },
	/* more significant digits than an int64 holds */
	{ TIME, "1.00000000000000000001s", UNITS_ERANGE },
	/* not a whole number of the base unit */
	{ SIZE, "0.5B", UNITS_EINEXACT },
	{ SIZE, "0.1KiB", UNITS_EINEXACT },
	{ SIZE, "1.0001KB", UNITS_EINEXACT },
	{ TIME, "1.0005ns", UNITS_EINEXACT },
	{ TIME, "0.1ps", UNITS_EINEXACT },
	{ TIME, "0.0000000000001s", UNITS_EINEXACT },
	{ RATE, "1.5bps", UNITS_EINEXACT },
	{ LEN, "0.0001m", UNITS_EINEXACT },
	{ FRAC, "0.0000000001", UNITS_EINEXACT },
	{ FRAC, "0.00000001%", UNITS_EINEXACT },
	/* a rate must be above zero */
	{ RATE, "0Gbps", UNITS_ERANGE },
	{ RATE, "0bps", UNITS_ERANGE },
	{ RATE, "0.000Mbps", UNITS_ERANGE },
	/* a fraction is at most 1 */
	{ FRAC, "1.5", UNITS_ERANGE },
	{ FRAC, "1.000000001", UNITS_ERANGE },
	{ FRAC, "101%", UNITS_ERANGE },
	{ FRAC, "100.0000001%", UNITS_ERANGE },
	{ FRAC, "2", UNITS_ERANGE },
};

START_TEST(test_error)
{
	char err[256];
	int64_t v = SENTINEL;
	const char *s = errors[_i].s;
	int rc;

	memset(err, 0, sizeof(err));
	rc = parse(errors[_i].k, s, &v, err, sizeof(err));
	ck_assert_msg(rc == errors[_i].rc, "%s \"%s\": rc %d, want %d (%s)",
		      kind_name[errors[_i].k], s ? s : "(null)", rc,
		      errors[_i].rc, err);
	ck_assert_msg(v == SENTINEL, "%s \"%s\": output written on error",
		      kind_name[errors[_i].k], s ? s : "(null)");
	ck_assert_msg(err[0] != '\0', "%s \"%s\": empty message",
		      kind_name[errors[_i].k], s ? s : "(null)");
	ck_assert_msg(strchr(err, '\n') == NULL, "newline in \"%s\"", err);

	/* the same call without a message buffer gives the same code */
	ck_assert_int_eq(parse(errors[_i].k, s, &v, NULL, 0), errors[_i].rc);
	ck_assert_int_eq(parse(errors[_i].k, s, &v, NULL, 100), errors[_i].rc);
	ck_assert_int_eq(v, SENTINEL);
}
END_TEST

START_TEST(test_error_messages)
{
	char err[256];
	int64_t v;

	ck_assert_int_eq(units_parse_time("1.0005ns", &v, err, sizeof(err)),
			 UNITS_EINEXACT);
	ck_assert_str_eq(err, "1.0005ns is not a whole number of picoseconds");

	ck_assert_int_eq(units_parse_size("0.5B", &v, err, sizeof(err)),
			 UNITS_EINEXACT);
	ck_assert_str_eq(err, "0.5B is not a whole number of bytes");

	ck_assert_int_eq(units_parse_size(" 64 ", &v, err, sizeof(err)),
			 UNITS_EUNIT);
	ck_assert_str_eq(err, "missing unit after 64 (use B, KB, MB, GB, KiB, MiB, GiB)");

	ck_assert_int_eq(units_parse_size("5kb", &v, err, sizeof(err)),
			 UNITS_EUNIT);
	ck_assert_str_eq(err, "unknown unit 'kb' (use B, KB, MB, GB, KiB, MiB, GiB)");

	ck_assert_int_eq(units_parse_time("5 parsecs", &v, err, sizeof(err)),
			 UNITS_EUNIT);
	ck_assert_str_eq(err, "unknown unit 'parsecs' (use ps, ns, us, ms, s)");

	ck_assert_int_eq(units_parse_rate("400", &v, err, sizeof(err)),
			 UNITS_EUNIT);
	ck_assert_str_eq(err, "missing unit after 400 (use bps, Kbps, Mbps, Gbps, Tbps)");

	ck_assert_int_eq(units_parse_length("3", &v, err, sizeof(err)),
			 UNITS_EUNIT);
	ck_assert_str_eq(err, "missing unit after 3 (use m)");

	/* a bare 0 is 0 in every unit: one rule for every kind */
	const char *const zeros[] = { "0", " 0 ", "0.0", "00" };
	for (size_t i = 0; i < sizeof(zeros) / sizeof(zeros[0]); i++) {
		v = -1;
		ck_assert_int_eq(units_parse_size(zeros[i], &v, err, sizeof(err)), 0);
		ck_assert_int_eq(v, 0);
		v = -1;
		ck_assert_int_eq(units_parse_time(zeros[i], &v, err, sizeof(err)), 0);
		ck_assert_int_eq(v, 0);
		v = -1;
		ck_assert_int_eq(units_parse_length(zeros[i], &v, err, sizeof(err)), 0);
		ck_assert_int_eq(v, 0);
	}
	ck_assert_int_eq(units_parse_time("0.01", &v, err, sizeof(err)), UNITS_EUNIT);

	ck_assert_int_eq(units_parse_size("1.2.3MB", &v, err, sizeof(err)),
			 UNITS_ESYNTAX);
	ck_assert_str_eq(err, "unexpected '.' in 1.2.3MB");

	ck_assert_int_eq(units_parse_size("-5MB", &v, err, sizeof(err)),
			 UNITS_ERANGE);
	ck_assert_str_eq(err, "-5MB is negative (must be 0 or more)");

	ck_assert_int_eq(units_parse_rate("0Gbps", &v, err, sizeof(err)),
			 UNITS_ERANGE);
	ck_assert_str_eq(err, "rate 0Gbps must be above 0");

	ck_assert_int_eq(units_parse_fraction("150%", &v, err, sizeof(err)),
			 UNITS_ERANGE);
	ck_assert_str_eq(err, "150% is above 1 (use 0 to 1, or 0% to 100%)");

	ck_assert_int_eq(units_parse_time("9999999999s", &v, err, sizeof(err)),
			 UNITS_ERANGE);
	ck_assert_ptr_nonnull(strstr(err, "too large"));

	/* a long input is shortened in the message; the reason is kept */
	ck_assert_int_eq(units_parse_time("1.0000000000000000000000000000000000000000005ns",
					  &v, err, sizeof(err)),
			 UNITS_ERANGE);
	ck_assert_ptr_nonnull(strstr(err, "...")); /* quoted input shortened */
	ck_assert_ptr_nonnull(strstr(err, "too many digits"));
}
END_TEST

START_TEST(test_err_buffer)
{
	char err[8];
	int64_t v = SENTINEL;

	/* errlen 0: the buffer is not touched */
	memset(err, 'x', sizeof(err));
	ck_assert_int_eq(units_parse_time("1.0005ns", &v, err, 0), UNITS_EINEXACT);
	ck_assert_int_eq(err[0], 'x');
	/* short buffer: truncated and terminated */
	ck_assert_int_eq(units_parse_time("1.0005ns", &v, err, sizeof(err)),
			 UNITS_EINEXACT);
	ck_assert_uint_eq(strlen(err), sizeof(err) - 1);
	ck_assert_mem_eq(err, "1.0005n", sizeof(err));
	/* NULL with a length: no message, no crash */
	ck_assert_int_eq(units_parse_int("x", 0, 1, &v, NULL, 64), UNITS_ESYNTAX);
	ck_assert_int_eq(units_parse_bool("x", NULL, NULL, 64), UNITS_ESYNTAX);
	ck_assert_int_eq(v, SENTINEL);
	/* success leaves err alone */
	memset(err, 'x', sizeof(err));
	ck_assert_int_eq(units_parse_size("1MB", &v, err, sizeof(err)), 0);
	ck_assert_int_eq(err[0], 'x');
}
END_TEST

/* ---- integers ---- */

START_TEST(test_int_ok)
{
	int64_t v = SENTINEL;

	ck_assert_int_eq(units_parse_int("42", 0, 100, &v, NULL, 0), 0);
	ck_assert_int_eq(v, 42);
	ck_assert_int_eq(units_parse_int(" -5\t", -10, 10, &v, NULL, 0), 0);
	ck_assert_int_eq(v, -5);
	ck_assert_int_eq(units_parse_int("+7", 0, 10, &v, NULL, 0), 0);
	ck_assert_int_eq(v, 7);
	ck_assert_int_eq(units_parse_int("-0", 0, 0, &v, NULL, 0), 0);
	ck_assert_int_eq(v, 0);
	ck_assert_int_eq(units_parse_int("007", 0, 10, &v, NULL, 0), 0);
	ck_assert_int_eq(v, 7);
	ck_assert_int_eq(units_parse_int("100", 0, 100, &v, NULL, 0), 0);
	ck_assert_int_eq(v, 100);
	ck_assert_int_eq(units_parse_int("9223372036854775807", INT64_MIN,
					 INT64_MAX, &v, NULL, 0), 0);
	ck_assert(v == INT64_MAX);
	ck_assert_int_eq(units_parse_int("-9223372036854775808", INT64_MIN,
					 INT64_MAX, &v, NULL, 0), 0);
	ck_assert(v == INT64_MIN);
}
END_TEST

START_TEST(test_int_errors)
{
	static const struct {
		const char *s;
		int64_t min, max;
		int rc;
	} bad[] = {
		{ "101", 0, 100, UNITS_ERANGE },
		{ "-1", 0, 100, UNITS_ERANGE },
		{ "-11", -10, 10, UNITS_ERANGE },
		{ "9223372036854775808", INT64_MIN, INT64_MAX, UNITS_ERANGE },
		{ "-9223372036854775809", INT64_MIN, INT64_MAX, UNITS_ERANGE },
		{ "99999999999999999999999", 0, 10, UNITS_ERANGE },
		{ "1.5", 0, 10, UNITS_ESYNTAX },
		{ "5MB", 0, 10, UNITS_ESYNTAX },
		{ "", 0, 10, UNITS_ESYNTAX },
		{ NULL, 0, 10, UNITS_ESYNTAX },
		{ "-", 0, 10, UNITS_ESYNTAX },
		{ "+", 0, 10, UNITS_ESYNTAX },
		{ "abc", 0, 10, UNITS_ESYNTAX },
		{ "1 2", 0, 10, UNITS_ESYNTAX },
		{ "0x10", 0, 100, UNITS_ESYNTAX },
		{ "1e2", 0, 1000, UNITS_ESYNTAX },
		{ "--1", -10, 10, UNITS_ESYNTAX },
	};
	char err[128];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int64_t v = SENTINEL;
		int rc;

		err[0] = '\0';
		rc = units_parse_int(bad[i].s, bad[i].min, bad[i].max, &v, err,
				     sizeof(err));
		ck_assert_msg(rc == bad[i].rc, "\"%s\": rc %d, want %d",
			      bad[i].s ? bad[i].s : "(null)", rc, bad[i].rc);
		ck_assert_msg(v == SENTINEL, "\"%s\": output written",
			      bad[i].s ? bad[i].s : "(null)");
		ck_assert_msg(err[0] != '\0', "\"%s\": no message",
			      bad[i].s ? bad[i].s : "(null)");
	}

	units_parse_int("300", 0, 255, &(int64_t){ 0 }, err, sizeof(err));
	ck_assert_str_eq(err, "300 out of range (0-255)");
	units_parse_int("-11", -10, 10, &(int64_t){ 0 }, err, sizeof(err));
	ck_assert_str_eq(err, "-11 out of range (-10 to 10)");
	units_parse_int("1.5", 0, 10, &(int64_t){ 0 }, err, sizeof(err));
	ck_assert_str_eq(err, "1.5 is not an integer");
}
END_TEST

/* ---- booleans ---- */

START_TEST(test_bool)
{
	static const struct {
		const char *s;
		int want;
	} good[] = {
		{ "true", 1 },  { "TRUE", 1 },   { "True", 1 }, { "yes", 1 },
		{ "Yes", 1 },   { "on", 1 },     { "ON", 1 },   { "1", 1 },
		{ " true ", 1 }, { "false", 0 }, { "FALSE", 0 }, { "no", 0 },
		{ "No", 0 },    { "off", 0 },    { "Off", 0 },  { "0", 0 },
		{ "\toff\n", 0 },
	};
	static const char *bad[] = { "maybe", "", "2", "tru", "truee", "yess",
				     "t", "y", "-1", "o", "on off", "01", NULL };
	char err[128];
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		int v = -1;

		ck_assert_msg(units_parse_bool(good[i].s, &v, NULL, 0) == 0,
			      "\"%s\" rejected", good[i].s);
		ck_assert_msg(v == good[i].want, "\"%s\": got %d", good[i].s, v);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int v = -1;

		err[0] = '\0';
		ck_assert_msg(units_parse_bool(bad[i], &v, err, sizeof(err)) ==
				      UNITS_ESYNTAX,
			      "\"%s\" accepted", bad[i] ? bad[i] : "(null)");
		ck_assert_int_eq(v, -1);
		ck_assert_msg(err[0] != '\0', "no message");
	}
	units_parse_bool("maybe", &(int){ 0 }, err, sizeof(err));
	ck_assert_str_eq(err, "'maybe' is not a boolean (use true/false, yes/no, on/off, 1/0)");
}
END_TEST

/* ---- printing ---- */

static const struct {
	enum kind k;
	int64_t v;
	const char *want;
} printed[] = {
	{ SIZE, 0, "0B" },
	{ SIZE, INT64_C(64000000), "64MB" },
	{ SIZE, INT64_C(1500000), "1.5MB" },
	{ SIZE, INT64_C(1536), "1.536KB" },
	{ SIZE, INT64_C(999), "999B" },
	{ SIZE, INT64_C(1000), "1KB" },
	{ SIZE, INT64_C(1001), "1.001KB" },
	{ SIZE, INT64_C(1000001), "1000.001KB" },
	{ SIZE, INT64_C(128000), "128KB" },      /* 125 KiB, but a whole KB */
	{ SIZE, INT64_C(1024000), "1.024MB" },   /* 1000 KiB, a whole KB */
	{ SIZE, INT64_C(1024), "1KiB" },
	{ SIZE, INT64_C(4096), "4KiB" },
	{ SIZE, INT64_C(67108864), "64MiB" },
	{ SIZE, INT64_C(1572864), "1.5MiB" },
	{ SIZE, INT64_C(2147483648), "2GiB" },
	{ SIZE, INT64_C(1000000000), "1GB" },
	{ SIZE, INT64_MAX, "9223372036854775.807KB" },
	{ SIZE, INT64_C(-5), "-5B" },
	{ RATE, 0, "0bps" },
	{ RATE, 1, "1bps" },
	{ RATE, INT64_C(400000000000), "400Gbps" },
	{ RATE, INT64_C(2500000000), "2.5Gbps" },
	{ RATE, INT64_C(100000000), "100Mbps" },
	{ RATE, INT64_C(1000000000000), "1Tbps" },
	{ RATE, INT64_C(25000), "25Kbps" },
	{ TIME, 0, "0ps" },
	{ TIME, 1, "1ps" },
	{ TIME, 999, "999ps" },
	{ TIME, 1500, "1.5ns" },
	{ TIME, INT64_C(500000), "500ns" },
	{ TIME, INT64_C(1001000), "1.001us" },
	{ TIME, INT64_C(83560), "83.56ns" },
	{ TIME, INT64_C(1000000000000), "1s" },
	{ TIME, INT64_C(200000000000), "200ms" },
	{ TIME, INT64_C(1000000000001), "1000000000.001ns" },
	{ TIME, INT64_MAX, "9223372036854775.807ns" },
	{ TIME, INT64_C(-1000), "-1ns" },
	{ TIME, INT64_MIN, "-9223372036854775.808ns" },
	{ LEN, 0, "0m" },
	{ LEN, 1, "0.001m" },
	{ LEN, 5, "0.005m" },
	{ LEN, 500, "0.5m" },
	{ LEN, 2500, "2.5m" },
	{ LEN, 3000, "3m" },
	{ FRAC, 0, "0%" },
	{ FRAC, 1, "0.0000001%" },
	{ FRAC, INT64_C(100000000), "10%" },
	{ FRAC, INT64_C(5000000), "0.5%" },
	{ FRAC, INT64_C(21250000), "2.125%" },
	{ FRAC, INT64_C(25000000), "2.5%" },
	{ FRAC, UNITS_PPB_ONE, "100%" },
};

START_TEST(test_format)
{
	char buf[FMT_LEN];

	ck_assert_ptr_eq(format(printed[_i].k, printed[_i].v, buf, sizeof(buf)),
			 buf);
	ck_assert_msg(strcmp(buf, printed[_i].want) == 0,
		      "%s %" PRId64 ": got \"%s\", want \"%s\"",
		      kind_name[printed[_i].k], printed[_i].v, buf,
		      printed[_i].want);
}
END_TEST

START_TEST(test_format_us)
{
	static const struct {
		int64_t ps;
		const char *want;
	} t[] = {
		{ INT64_C(12345678), "12.345" },
		{ 1000, "0.001" },
		{ 999, "0.000" },
		{ 0, "0.000" },
		{ -999, "0.000" },
		{ INT64_C(-1500000), "-1.500" },
		{ INT64_C(-12345678), "-12.345" },
		{ INT64_C(1000000000000), "1000000.000" },
		{ INT64_MAX, "9223372036854.775" },
		{ INT64_MIN, "-9223372036854.775" },
	};
	char buf[FMT_LEN];
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		ck_assert_ptr_eq(units_format_us(t[i].ps, buf, sizeof(buf)), buf);
		ck_assert_msg(strcmp(buf, t[i].want) == 0,
			      "%" PRId64 " ps: got \"%s\", want \"%s\"", t[i].ps,
			      buf, t[i].want);
	}
}
END_TEST

/* units_put_fixed writes what printf's %.*f does: exact rounding of the
 * binary value, ties to even (1/128 = 0.0078125 -> 0.007812), signs of
 * zero, subnormals, and the printf fallback above 2^62 */
static void check_fixed(double v, unsigned d)
{
	char got[400], want[400];
	size_t n = units_put_fixed(v, d, got);
	got[n] = '\0';
	snprintf(want, sizeof(want), "%.*f", (int)d, v);
	ck_assert_msg(strcmp(got, want) == 0, "%a with %u decimals: got %s, want %s", v, d, got,
		      want);
}

START_TEST(test_put_fixed)
{
	static const double fixed[] = { 0.0, -0.0, 1.0, -1.0, 0.5, 2.5, 0.0078125, 0.0234375,
					1e-7, -1e-9, 4.9e-324, 2.2250738585072014e-308,
					12.3456785, 99.9999995, 399.999999999, 4611686018427387904.0,
					9.3e18, 1e300, 123456789.125 };
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		for (unsigned d = 0; d <= 9; d++)
			check_fixed(fixed[i], d);
	/* ties: odd multiples of 2^-k land on a 5 after the last decimal */
	for (int k = 1; k <= 12; k++)
		for (int j = 1; j < 4000; j += 2)
			for (unsigned d = 0; d <= 9; d++)
				check_fixed((double)j / (double)(1 << k), d);
	/* random doubles of every magnitude from 2^-60 to 2^70 */
	uint64_t x = 88172645463325252u;
	for (int i = 0; i < 200000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		uint64_t bits = (x & 0x800fffffffffffffu) | (uint64_t)(1023 - 60 + (x >> 52) % 131)
									 << 52;
		double v;
		memcpy(&v, &bits, sizeof(v));
		check_fixed(v, (unsigned)(x >> 40) % 10);
	}
	/* units_put_us is units_format_us without the NUL */
	char a[32], b[32];
	size_t n = units_put_us(-INT64_C(1234567891), a);
	a[n] = '\0';
	ck_assert_str_eq(a, units_format_us(-INT64_C(1234567891), b, sizeof(b)));
	ck_assert_str_eq(a, "-1234.567");
}
END_TEST

START_TEST(test_format_small_buffer)
{
	char buf[8];

	memset(buf, 'x', sizeof(buf));
	ck_assert_ptr_eq(units_format_size(64000000, buf, 0), buf);
	ck_assert_int_eq(buf[0], 'x');
	ck_assert_ptr_eq(units_format_size(64000000, buf, 4), buf);
	ck_assert_str_eq(buf, "64M");
	ck_assert_ptr_eq(units_format_us(INT64_C(12345678), buf, 5), buf);
	ck_assert_str_eq(buf, "12.3");
	ck_assert_ptr_eq(units_format_fraction(21250000, buf, 1), buf);
	ck_assert_str_eq(buf, "");
}
END_TEST

/* ---- round trip ---- */

/* parse(format(v)) == v, and formatting the parsed value gives the same text */
static void check_round_trip(enum kind k, int64_t v)
{
	char buf[FMT_LEN], again[FMT_LEN], err[128] = "";
	int64_t back = SENTINEL;
	int rc;

	format(k, v, buf, sizeof(buf));
	ck_assert_msg(strlen(buf) < sizeof(buf) - 1, "%s %" PRId64
		      ": \"%s\" may be truncated", kind_name[k], v, buf);
	rc = parse(k, buf, &back, err, sizeof(err));
	ck_assert_msg(rc == 0, "%s %" PRId64 " -> \"%s\": rc %d (%s)",
		      kind_name[k], v, buf, rc, err);
	ck_assert_msg(back == v, "%s %" PRId64 " -> \"%s\" -> %" PRId64,
		      kind_name[k], v, buf, back);
	format(k, back, again, sizeof(again));
	ck_assert_str_eq(buf, again);
}

/* a value that is a "nice" number of some unit: m * 10^e or m * 2^b */
static int64_t nice_value(uint64_t *st)
{
	int64_t m = (int64_t)lcg_below(st, 1000000) + 1;
	int e = (int)lcg_below(st, 13), j;

	if (lcg_below(st, 4) == 0) {
		int b = (int)lcg_below(st, 31);

		return m << b;
	}
	for (j = 0; j < e; j++)
		m *= 10;
	return m;
}

START_TEST(test_round_trip)
{
	static const int64_t fixed[] = {
		0, 1, 2, 9, 10, 999, 1000, 1001, 1023, 1024, 1025, 1536,
		999999, 1000000, 1048576, 1572864, INT64_C(1073741824),
		INT64_C(1000000000), INT64_C(1000000000000),
		INT64_C(1000000000001), INT64_C(400000000000),
		INT64_C(83560), INT64_C(1001000), INT64_MAX, INT64_MAX - 1,
		INT64_MAX / 1024 * 1024, INT64_C(9007199254740992) * 1000,
	};
	uint64_t st = 42;
	size_t i;
	int n;
	enum kind k;

	for (k = SIZE; k <= LEN; k++)
		for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
			if (!(k == RATE && fixed[i] == 0))
				check_round_trip(k, fixed[i]);
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (fixed[i] <= UNITS_PPB_ONE)
			check_round_trip(FRAC, fixed[i]);

	for (n = 0; n < 20000; n++) {
		int64_t any = (int64_t)lcg_next(&st); /* 0 .. INT64_MAX */
		int64_t nice = nice_value(&st);

		for (k = SIZE; k <= LEN; k++) {
			check_round_trip(k, any == 0 && k == RATE ? 1 : any);
			check_round_trip(k, nice);
		}
		check_round_trip(FRAC, (int64_t)lcg_below(&st, UNITS_PPB_ONE + 1));
		check_round_trip(FRAC, nice % (UNITS_PPB_ONE + 1));
	}
}
END_TEST

/* canonical text survives parse then format unchanged */
START_TEST(test_text_round_trip)
{
	static const struct {
		enum kind k;
		const char *s;
	} t[] = {
		{ SIZE, "64MB" },      { SIZE, "1.5MB" },   { SIZE, "1.536KB" },
		{ SIZE, "999B" },      { SIZE, "64MiB" },   { SIZE, "1.5GiB" },
		{ SIZE, "0B" },        { RATE, "400Gbps" }, { RATE, "2.5Gbps" },
		{ RATE, "1.001Tbps" }, { TIME, "500ns" },   { TIME, "1.001us" },
		{ TIME, "83.56ns" },   { TIME, "1s" },      { TIME, "0ps" },
		{ TIME, "4ms" },       { LEN, "3m" },       { LEN, "0.5m" },
		{ LEN, "0m" },         { FRAC, "10%" },     { FRAC, "0.5%" },
		{ FRAC, "2.125%" },    { FRAC, "0%" },      { FRAC, "100%" },
	};
	char buf[FMT_LEN];
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		int64_t v = SENTINEL;

		ck_assert_msg(parse(t[i].k, t[i].s, &v, NULL, 0) == 0, "%s",
			      t[i].s);
		ck_assert_str_eq(format(t[i].k, v, buf, sizeof(buf)), t[i].s);
	}
}
END_TEST

static Suite *make_units_suite(void)
{
	Suite *s = suite_create("units");
	TCase *tc;

	tc = tcase_create("parse");
	tcase_add_loop_test(tc, test_exact_value, 0,
			    (int)(sizeof(exact) / sizeof(exact[0])));
	tcase_add_test(tc, test_percent_equals_decimal);
	tcase_add_test(tc, test_reference_model);
	suite_add_tcase(s, tc);

	tc = tcase_create("errors");
	tcase_add_loop_test(tc, test_error, 0,
			    (int)(sizeof(errors) / sizeof(errors[0])));
	tcase_add_test(tc, test_error_messages);
	tcase_add_test(tc, test_err_buffer);
	suite_add_tcase(s, tc);

	tc = tcase_create("int_bool");
	tcase_add_test(tc, test_int_ok);
	tcase_add_test(tc, test_int_errors);
	tcase_add_test(tc, test_bool);
	suite_add_tcase(s, tc);

	tc = tcase_create("format");
	tcase_add_loop_test(tc, test_format, 0,
			    (int)(sizeof(printed) / sizeof(printed[0])));
	tcase_add_test(tc, test_format_us);
	tcase_add_test(tc, test_put_fixed);
	tcase_add_test(tc, test_format_small_buffer);
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_text_round_trip);
	suite_add_tcase(s, tc);

	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(make_units_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
