/*
 * units.c - exact parsing and printing of the scenario units (docs/contract.md#scenario-files,
 * contract in units.h).
 *
 * A value is read as a decimal mantissa m with d digits after the point and
 * a unit whose size in the base unit is `scale`; the result is
 * m * scale / 10^d.  That division is done by cancelling the factors 2 and 5
 * of 10^d against scale and m, so it is exact for every unit (decimal and
 * binary) and never goes through a float: htsim's (int64_t)(1.001 * 1e6)
 * gives 1000999 ps, this gives 1001000 ps.
 *
 * Grammar (after leading and trailing white space are dropped):
 *   value  = [sign] digits ["." digits] [space...] [unit]
 *   sign   = "+" | "-"     ("-" is always UNITS_ERANGE, even "-0": these
 *                           quantities cannot be negative)
 *   unit   = letters or "%", matched case-sensitively against the table
 * Choices the header leaves open:
 *   - ".5" and "5." are syntax errors: a digit is required on both sides
 *     of the point.  "1e3" (exponents) is a syntax error too.
 *   - Trailing zeros after the point are ignored ("1.000000000000000000000s"
 *     is 1 s).  More than 18 other significant digits is UNITS_ERANGE (the
 *     mantissa must fit an int64_t), even when the value would be exact.
 *   - On any error *out is left unchanged.
 *   - The unit words in messages are the base units ("picoseconds"), so
 *     the user sees why "1.0005ns" is refused.
 *
 * Printing: largest unit in which the value is at least 1 and has at most
 * three decimals (fractions: percent with up to seven decimals, which is
 * exact for every ppb value).  Sizes that are a whole number of KiB but not
 * of KB use GiB/MiB/KiB.  Zero prints in the smallest unit ("0B", "0ps",
 * "0bps", "0%") except lengths, which have only "m" ("0m", "0.005m").
 * 32 bytes hold any output of the format functions, negative values included.
 */
#include "models/base/units.h"

#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* one unit: its name as written and its size in the base unit */
struct units_unit {
	const char *name;
	int64_t scale;
};

/* one kind of quantity, for the generic parser */
struct units_kind {
	const struct units_unit *units;
	size_t n_units;
	int64_t bare_scale; /* scale of a number written without unit; 0: required */
	const char *base;   /* base unit in words: "not a whole number of ..." */
	const char *list;   /* the accepted units, for error messages */
	const char *max;    /* the largest value, for the overflow message */
};

/* Tables for parsing; the format tables below are ordered largest first. */
static const struct units_unit size_units[] = {
	{ "B", 1 },
	{ "KB", INT64_C(1000) },
	{ "MB", INT64_C(1000000) },
	{ "GB", INT64_C(1000000000) },
	{ "KiB", INT64_C(1) << 10 },
	{ "MiB", INT64_C(1) << 20 },
	{ "GiB", INT64_C(1) << 30 },
};

static const struct units_unit rate_units[] = {
	{ "bps", 1 },
	{ "Kbps", INT64_C(1000) },
	{ "Mbps", INT64_C(1000000) },
	{ "Gbps", INT64_C(1000000000) },
	{ "Tbps", INT64_C(1000000000000) },
};

static const struct units_unit time_units[] = {
	{ "ps", 1 },
	{ "ns", UNITS_PS_PER_NS },
	{ "us", UNITS_PS_PER_US },
	{ "ms", UNITS_PS_PER_MS },
	{ "s", UNITS_PS_PER_S },
};

/* cables are given in metres and kept in millimetres */
static const struct units_unit length_units[] = {
	{ "m", INT64_C(1000) },
};

/* 1% = 10^7 parts per 10^9 */
static const struct units_unit fraction_units[] = {
	{ "%", UNITS_PPB_ONE / 100 },
};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static const struct units_kind size_kind = {
	size_units, N_OF(size_units), 0, "bytes",
	"B, KB, MB, GB, KiB, MiB, GiB", "9223372036854775807B"
};
static const struct units_kind rate_kind = {
	rate_units, N_OF(rate_units), 0, "bits per second",
	"bps, Kbps, Mbps, Gbps, Tbps", "9223372036854775807bps"
};
static const struct units_kind time_kind = {
	time_units, N_OF(time_units), 0, "picoseconds",
	"ps, ns, us, ms, s", "9223372036854775807ps, about 106 days"
};
static const struct units_kind length_kind = {
	length_units, N_OF(length_units), 0, "millimetres",
	"m", "9223372036854775.807m"
};
static const struct units_kind fraction_kind = {
	fraction_units, N_OF(fraction_units), UNITS_PPB_ONE, "parts per billion",
	"% or a plain number, e.g. 10% or 0.1", "1"
};

/* Inputs longer than this are shortened with "..." when quoted in a message. */
#define SHOWN_MAX 40

/* ASCII-only classes: the C library's depend on the locale. */
static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	       c == '\v';
}

static int is_unit_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '%';
}

static char lower(char c)
{
	return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static int fail(int code, char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen > 0) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return code;
}

/* [*b, *e) = s without leading and trailing white space ("" for NULL) */
static void trim(const char *s, const char **b, const char **e)
{
	if (!s)
		s = "";
	while (is_space(*s))
		s++;
	*b = s;
	*e = s + strlen(s);
	while (*e > *b && is_space((*e)[-1]))
		(*e)--;
}

/* the trimmed input as quoted in messages, shortened if long */
static void show(char out[SHOWN_MAX + 1], const char *b, const char *e)
{
	size_t n = (size_t)(e - b);

	if (n > SHOWN_MAX) {
		memcpy(out, b, SHOWN_MAX - 3);
		memcpy(out + SHOWN_MAX - 3, "...", 4);
	} else {
		memcpy(out, b, n);
		out[n] = '\0';
	}
}

/*
 * m * scale / 10^decimals into *out if that is a whole number that fits an
 * int64_t.  Returns 0, UNITS_EINEXACT or UNITS_ERANGE.  m, scale >= 0.
 */
static int scale_exact(int64_t m, int64_t scale, size_t decimals, int64_t *out)
{
	size_t twos = decimals, fives = decimals; /* 10^d = 2^d * 5^d */

	if (m == 0) {
		*out = 0;
		return 0;
	}
	while (twos > 0 && scale % 2 == 0) {
		scale /= 2;
		twos--;
	}
	while (fives > 0 && scale % 5 == 0) {
		scale /= 5;
		fives--;
	}
	/*
	 * With the tables above and trailing zeros dropped, m never supplies
	 * a 2 to an exact result; kept so any future unit stays exact.
	 */
	while (twos > 0 && m % 2 == 0) {
		m /= 2;
		twos--;
	}
	while (fives > 0 && m % 5 == 0) {
		m /= 5;
		fives--;
	}
	/* what is left of 10^d is coprime to m * scale: not a whole number */
	if (twos > 0 || fives > 0)
		return UNITS_EINEXACT;
	if (__builtin_mul_overflow(m, scale, out))
		return UNITS_ERANGE;
	return 0;
}

/*
 * The parser shared by size, rate, time, length and fraction: syntax, unit,
 * sign and exactness.  Range limits particular to a kind (rate > 0,
 * fraction <= 1) are left to the caller.
 */
static int parse_kind(const struct units_kind *k, const char *s, int64_t *out,
		      char *err, size_t errlen)
{
	const char *b, *e, *p, *int_b, *int_e, *frac_b, *frac_e, *unit_b, *q;
	char shown[SHOWN_MAX + 1];
	int64_t m = 0, scale, v;
	size_t i, unit_len;
	int negative = 0, rc;

	trim(s, &b, &e);
	show(shown, b, e);
	if (b == e)
		return fail(UNITS_ESYNTAX, err, errlen,
			    "empty value (expected a number and a unit: %s)",
			    k->list);

	p = b;
	if (*p == '+' || *p == '-') {
		negative = *p == '-';
		p++;
	}
	if (!is_digit(*p))
		return fail(UNITS_ESYNTAX, err, errlen,
			    "%s is not a number (expected e.g. 1.5 and a unit: %s)",
			    shown, k->list);
	int_b = p;
	while (is_digit(*p))
		p++;
	int_e = p;
	frac_b = frac_e = p;
	if (*p == '.') {
		p++;
		if (!is_digit(*p))
			return fail(UNITS_ESYNTAX, err, errlen,
				    "%s: expected a digit after the decimal point",
				    shown);
		frac_b = p;
		while (is_digit(*p))
			p++;
		frac_e = p;
	}
	/* trailing zeros after the point do not change the value */
	while (frac_e > frac_b && frac_e[-1] == '0')
		frac_e--;

	q = p;
	while (q < e && is_space(*q))
		q++;
	unit_b = q;
	while (q < e && is_unit_char(*q))
		q++;
	unit_len = (size_t)(q - unit_b);
	if (q != e) {
		if (*q > ' ' && *q < 0x7f)
			return fail(UNITS_ESYNTAX, err, errlen,
				    "unexpected '%c' in %s", *q, shown);
		return fail(UNITS_ESYNTAX, err, errlen,
			    "unexpected character 0x%02x in %s",
			    (unsigned)(unsigned char)*q, shown);
	}

	if (unit_len == 0) {
		/* a bare 0 is 0 in every unit, so every kind takes it; any
		 * other number needs its unit unless the kind has a bare one */
		int zero = frac_e == frac_b;
		for (p = int_b; p < int_e && zero; p++)
			zero = *p == '0';
		if (k->bare_scale == 0 && !zero)
			return fail(UNITS_EUNIT, err, errlen,
				    "missing unit after %s (use %s)", shown,
				    k->list);
		scale = k->bare_scale ? k->bare_scale : 1;
	} else {
		for (i = 0; i < k->n_units; i++)
			if (strlen(k->units[i].name) == unit_len &&
			    memcmp(k->units[i].name, unit_b, unit_len) == 0)
				break;
		if (i == k->n_units)
			return fail(UNITS_EUNIT, err, errlen,
				    "unknown unit '%.*s' (use %s)",
				    (int)(unit_len > SHOWN_MAX ? SHOWN_MAX : unit_len),
				    unit_b, k->list);
		scale = k->units[i].scale;
	}

	if (negative)
		return fail(UNITS_ERANGE, err, errlen,
			    "%s is negative (must be 0 or more)", shown);

	/* mantissa: integer digits then the significant fraction digits */
	for (p = int_b; p < int_e; p++)
		if (__builtin_mul_overflow(m, 10, &m) ||
		    __builtin_add_overflow(m, *p - '0', &m))
			return fail(UNITS_ERANGE, err, errlen,
				    "%s is too large (max %s)", shown, k->max);
	for (p = frac_b; p < frac_e; p++)
		if (__builtin_mul_overflow(m, 10, &m) ||
		    __builtin_add_overflow(m, *p - '0', &m))
			return fail(UNITS_ERANGE, err, errlen,
				    "%s has too many digits (at most 18 significant)",
				    shown);

	rc = scale_exact(m, scale, (size_t)(frac_e - frac_b), &v);
	if (rc == UNITS_EINEXACT)
		return fail(rc, err, errlen, "%s is not a whole number of %s",
			    shown, k->base);
	if (rc == UNITS_ERANGE)
		return fail(rc, err, errlen, "%s is too large (max %s)", shown,
			    k->max);
	*out = v;
	return 0;
}

int units_parse_size(const char *s, int64_t *bytes, char *err, size_t errlen)
{
	return parse_kind(&size_kind, s, bytes, err, errlen);
}

int units_parse_rate(const char *s, int64_t *bps, char *err, size_t errlen)
{
	char shown[SHOWN_MAX + 1];
	const char *b, *e;
	int64_t v;
	int rc = parse_kind(&rate_kind, s, &v, err, errlen);

	if (rc)
		return rc;
	if (v == 0) {
		trim(s, &b, &e);
		show(shown, b, e);
		return fail(UNITS_ERANGE, err, errlen,
			    "rate %s must be above 0", shown);
	}
	*bps = v;
	return 0;
}

int units_parse_time(const char *s, sim_time_ps *ps, char *err, size_t errlen)
{
	return parse_kind(&time_kind, s, ps, err, errlen);
}

int units_parse_length(const char *s, int64_t *mm, char *err, size_t errlen)
{
	return parse_kind(&length_kind, s, mm, err, errlen);
}

int units_parse_fraction(const char *s, int64_t *ppb, char *err, size_t errlen)
{
	char shown[SHOWN_MAX + 1];
	const char *b, *e;
	int64_t v;
	int rc = parse_kind(&fraction_kind, s, &v, err, errlen);

	if (rc)
		return rc;
	if (v > UNITS_PPB_ONE) {
		trim(s, &b, &e);
		show(shown, b, e);
		return fail(UNITS_ERANGE, err, errlen,
			    "%s is above 1 (use 0 to 1, or 0%% to 100%%)", shown);
	}
	*ppb = v;
	return 0;
}

int units_parse_int(const char *s, int64_t min, int64_t max, int64_t *out,
		    char *err, size_t errlen)
{
	char shown[SHOWN_MAX + 1];
	const char *b, *e, *p;
	int64_t v = 0; /* accumulated as a negative number: INT64_MIN fits */
	int negative = 0, overflow = 0;

	trim(s, &b, &e);
	show(shown, b, e);
	p = b;
	if (p < e && (*p == '+' || *p == '-')) {
		negative = *p == '-';
		p++;
	}
	if (b == e)
		return fail(UNITS_ESYNTAX, err, errlen,
			    "empty value (expected an integer)");
	if (p == e)
		return fail(UNITS_ESYNTAX, err, errlen, "%s is not an integer",
			    shown);
	for (; p < e; p++) {
		if (!is_digit(*p))
			return fail(UNITS_ESYNTAX, err, errlen,
				    "%s is not an integer", shown);
		if (!overflow && (__builtin_mul_overflow(v, 10, &v) ||
				  __builtin_sub_overflow(v, *p - '0', &v)))
			overflow = 1;
	}
	if (!overflow && !negative) {
		if (v == INT64_MIN)
			overflow = 1;
		else
			v = -v;
	}
	if (overflow || v < min || v > max) {
		if (min < 0)
			return fail(UNITS_ERANGE, err, errlen,
				    "%s out of range (%" PRId64 " to %" PRId64 ")",
				    shown, min, max);
		return fail(UNITS_ERANGE, err, errlen,
			    "%s out of range (%" PRId64 "-%" PRId64 ")", shown,
			    min, max);
	}
	*out = v;
	return 0;
}

int units_parse_bool(const char *s, int *out, char *err, size_t errlen)
{
	static const struct {
		const char *word;
		int value;
	} words[] = {
		{ "true", 1 }, { "false", 0 }, { "yes", 1 }, { "no", 0 },
		{ "on", 1 },   { "off", 0 },   { "1", 1 },   { "0", 0 },
	};
	char shown[SHOWN_MAX + 1];
	const char *b, *e;
	size_t i, j, n;

	trim(s, &b, &e);
	n = (size_t)(e - b);
	for (i = 0; i < N_OF(words); i++) {
		if (strlen(words[i].word) != n)
			continue;
		for (j = 0; j < n && lower(b[j]) == words[i].word[j]; j++)
			;
		if (j == n) {
			*out = words[i].value;
			return 0;
		}
	}
	show(shown, b, e);
	return fail(UNITS_ESYNTAX, err, errlen,
		    "'%s' is not a boolean (use true/false, yes/no, on/off, 1/0)",
		    shown);
}

/* ---- printing ---- */

static const struct units_unit size_fmt_dec[] = {
	{ "GB", INT64_C(1000000000) },
	{ "MB", INT64_C(1000000) },
	{ "KB", INT64_C(1000) },
	{ "B", 1 },
};

static const struct units_unit size_fmt_bin[] = {
	{ "GiB", INT64_C(1) << 30 },
	{ "MiB", INT64_C(1) << 20 },
	{ "KiB", INT64_C(1) << 10 },
};

static const struct units_unit rate_fmt[] = {
	{ "Tbps", INT64_C(1000000000000) },
	{ "Gbps", INT64_C(1000000000) },
	{ "Mbps", INT64_C(1000000) },
	{ "Kbps", INT64_C(1000) },
	{ "bps", 1 },
};

static const struct units_unit time_fmt[] = {
	{ "s", UNITS_PS_PER_S },
	{ "ms", UNITS_PS_PER_MS },
	{ "us", UNITS_PS_PER_US },
	{ "ns", UNITS_PS_PER_NS },
	{ "ps", 1 },
};

/*
 * v in the first unit of u[] (largest first) in which it is at least 1 and
 * has at most maxdec decimals; the last unit if none (it must then be exact:
 * every table ends with a unit in which any value has at most maxdec
 * decimals).  Works on the magnitude as uint64_t so INT64_MIN prints too.
 * Needs scale * 10^maxdec < 2^64.
 */
static char *format_scaled(int64_t v, const struct units_unit *u, size_t n,
			   unsigned maxdec, char *buf, size_t len)
{
	uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	uint64_t pow10 = 1, scale = 1, ip = 0, frac = 0;
	char digits[24] = "";
	unsigned d;
	size_t i, nd;

	if (!buf || len == 0)
		return buf;
	for (d = 0; d < maxdec; d++)
		pow10 *= 10;
	for (i = 0; i < n; i++) {
		scale = (uint64_t)u[i].scale;
		ip = mag / scale;
		frac = mag % scale;
		if ((ip > 0 || i == n - 1) && (frac * pow10) % scale == 0)
			break;
	}
	if (i == n) /* unreachable with the tables above; stay exact anyway */
		i = n - 1;
	if (frac) {
		/* frac / scale as maxdec digits, trailing zeros dropped */
		snprintf(digits, sizeof(digits), ".%0*" PRIu64, (int)maxdec,
			 frac * pow10 / scale);
		nd = strlen(digits);
		while (nd > 1 && digits[nd - 1] == '0')
			digits[--nd] = '\0';
	}
	snprintf(buf, len, "%s%" PRIu64 "%s%s", v < 0 ? "-" : "", ip, digits,
		 u[i].name);
	return buf;
}

char *units_format_size(int64_t bytes, char *buf, size_t len)
{
	uint64_t mag = bytes < 0 ? (uint64_t)0 - (uint64_t)bytes : (uint64_t)bytes;

	/* a whole number of KiB that is not a whole number of KB: binary */
	if (mag != 0 && mag % 1024 == 0 && mag % 1000 != 0)
		return format_scaled(bytes, size_fmt_bin, N_OF(size_fmt_bin), 3,
				     buf, len);
	return format_scaled(bytes, size_fmt_dec, N_OF(size_fmt_dec), 3, buf,
			     len);
}

char *units_format_rate(int64_t bps, char *buf, size_t len)
{
	return format_scaled(bps, rate_fmt, N_OF(rate_fmt), 3, buf, len);
}

char *units_format_time(sim_time_ps ps, char *buf, size_t len)
{
	return format_scaled(ps, time_fmt, N_OF(time_fmt), 3, buf, len);
}

char *units_format_length(int64_t mm, char *buf, size_t len)
{
	return format_scaled(mm, length_units, N_OF(length_units), 3, buf, len);
}

/* percent with up to 7 decimals: 1 ppb = 0.0000001% */
char *units_format_fraction(int64_t ppb, char *buf, size_t len)
{
	return format_scaled(ppb, fraction_units, N_OF(fraction_units), 7, buf,
			     len);
}

/* "00" to "99": two digits per division */
static const char digit_pairs[201] = "00010203040506070809101112131415161718192021222324"
				     "25262728293031323334353637383940414243444546474849"
				     "50515253545556575859606162636465666768697071727374"
				     "75767778798081828384858687888990919293949596979899";

/* the `count` last digits of v (leading zeros kept), ending at end; v < 10^9
 * (count <= 9), so 32-bit arithmetic does */
static char *digits_fixed(uint32_t v, unsigned count, char *end)
{
	for (; count >= 2; count -= 2) {
		end -= 2;
		memcpy(end, digit_pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (count)
		*--end = (char)('0' + v % 10);
	return end;
}

/* the decimal digits of v, backwards from end; returns the first */
static char *digits_back(uint64_t v, char *end)
{
	while (v > UINT32_MAX) {
		end -= 2;
		memcpy(end, digit_pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	uint32_t w = (uint32_t)v; /* the rest in 32-bit arithmetic */
	while (w >= 100) {
		end -= 2;
		memcpy(end, digit_pairs + 2 * (w % 100), 2);
		w /= 100;
	}
	if (w >= 10) {
		end -= 2;
		memcpy(end, digit_pairs + 2 * w, 2);
	} else {
		*--end = (char)('0' + w);
	}
	return end;
}

/* text (n characters) into buf as snprintf would: cut to len - 1 */
static char *copy_out(const char *text, size_t n, char *buf, size_t len)
{
	if (!buf || len == 0)
		return buf;
	if (n > len - 1)
		n = len - 1;
	memcpy(buf, text, n);
	buf[n] = '\0';
	return buf;
}

/* whole nanoseconds (rounded toward zero) as microseconds, 3 decimals */
size_t units_put_us(sim_time_ps ps, char *out)
{
	int64_t ns = ps / UNITS_PS_PER_NS; /* C division truncates toward zero */
	uint64_t mag = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	char tmp[32], *end = tmp + sizeof(tmp), *p;
	end = digits_fixed((uint32_t)(mag % 1000), 3, end);
	*--end = '.';
	p = digits_back(mag / 1000, end);
	if (ns < 0)
		*--p = '-';
	size_t n = (size_t)(tmp + sizeof(tmp) - p);
	memcpy(out, p, n);
	return n;
}

char *units_format_us(sim_time_ps ps, char *buf, size_t len)
{
	char tmp[32];
	return copy_out(tmp, units_put_us(ps, tmp), buf, len);
}

size_t units_put_fixed(double v, unsigned decimals, char *out)
{
	static const uint64_t pow10[10] = { 1, 10, 100, 1000, 10000, 100000, 1000000,
					    10000000, 100000000, 1000000000 };
	uint64_t bits;
	memcpy(&bits, &v, sizeof(bits));
	int neg = (int)(bits >> 63), exp = (int)(bits >> 52 & 0x7ff);
	uint64_t m = bits & ((UINT64_C(1) << 52) - 1);
	/* v = m x 2^e exactly; NaN, infinities and |v| >= 2^62 take printf */
	if (decimals > 9 || exp == 0x7ff || exp - 1075 > 10)
		return (size_t)sprintf(out, "%.*f", (int)decimals, v);
	int e = exp ? exp - 1075 : -1074;
	if (exp)
		m |= UINT64_C(1) << 52;
	/* q = m x 10^decimals x 2^e, rounded to nearest, ties to even, as
	 * printf rounds the exact binary value */
	__extension__ typedef unsigned __int128 u128;
	u128 n = (u128)m * pow10[decimals], q;
	if (e >= 0) {
		q = n << e;
	} else if (-e >= 127) {
		q = 0; /* n < 2^83: far below one half */
	} else if (-e < 64) { /* the usual case: the remainder fits in 64 bits */
		unsigned sh = (unsigned)-e;
		uint64_t r = (uint64_t)n & ((UINT64_C(1) << sh) - 1), half = UINT64_C(1) << (sh - 1);
		q = n >> sh;
		if (r > half || (r == half && (q & 1)))
			q++;
	} else {
		unsigned sh = (unsigned)-e;
		u128 r = n & (((u128)1 << sh) - 1), half = (u128)1 << (sh - 1);
		q = n >> sh;
		if (r > half || (r == half && (q & 1)))
			q++;
	}
	char tmp[64], *end = tmp + sizeof(tmp), *p = end;
	uint64_t ip, fp;
	if (q >> 64) { /* |v| x 10^decimals >= 2^64 */
		ip = (uint64_t)(q / pow10[decimals]);
		fp = (uint64_t)(q % pow10[decimals]);
	} else if (decimals == 6) { /* the usual case: constant divisors, no division */
		ip = (uint64_t)q / 1000000;
		fp = (uint64_t)q % 1000000;
	} else { /* without a 128-bit division */
		ip = (uint64_t)q / pow10[decimals];
		fp = (uint64_t)q % pow10[decimals];
	}
	p = digits_fixed((uint32_t)fp, decimals, p);
	if (decimals)
		*--p = '.';
	p = digits_back(ip, p);
	if (neg)
		*--p = '-';
	size_t len = (size_t)(end - p);
	memcpy(out, p, len);
	return len;
}

/* a * b as the 128-bit number *hi:*lo */
static void mul_64x64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
	uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
	uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);

	*lo = (ll & 0xffffffffu) | (mid << 32);
	*hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

int64_t units_mul_div_ceil(int64_t a, int64_t b, int64_t c)
{
	uint64_t hi, lo, r, q = 0, uc = (uint64_t)c;
	int i;

	assert(a >= 0 && b >= 0 && c > 0);
	mul_64x64((uint64_t)a, (uint64_t)b, &hi, &lo);
	if (hi >= uc)
		return INT64_MAX;
	/* restoring long division of hi:lo by c, one bit at a time */
	r = hi;
	for (i = 63; i >= 0; i--) {
		uint64_t top = r >> 63;

		r = (r << 1) | ((lo >> i) & 1u);
		q <<= 1;
		if (top || r >= uc) {
			r -= uc;
			q |= 1u;
		}
	}
	if (r && q < UINT64_MAX)
		q++;
	return q > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)q;
}
