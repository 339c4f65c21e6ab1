/*
 * mlx5.c - NVIDIA mlx5 congestion-control parameters into a scenario
 * (scenario_import_mlx5, config.h), the table of their names that
 * export.c writes back, and the reading of a configuration file's text that
 * sonic.c shares (internal.h).
 *
 * Source: the mlx5_ib driver's debugfs files,
 * /sys/kernel/debug/mlx5/<PCI>/cc_params/<name> (drivers/infiniband/hw/mlx5/
 * cong.c), one value per file in the firmware unit.  The file read here
 * holds one "name value" per line (or "name=value"), blank lines and '#'
 * comments allowed; `grep -H . cc_params/<name>` style "path:value" is not read.
 *
 * Each rp_* / np_* name sets the [dcqcn] knob of the same firmware name
 * (docs/model.md#dcqcn), whose bare number is the firmware unit: rates Mbps, times us,
 * rp_byte_reset 64-byte units, rp_dce_tcp_g and rp_initial_alpha_value
 * 1/1024.  So a value is passed through unchanged, as a bare number, and
 * the loader checks its range.  A value must be a plain non-negative
 * integer, as the driver holds it.
 *
 * Choices
 *   - rp_max_rate: 0 (the port speed, the driver's default) is what the
 *     model does; another value is an error (not modelled).
 *   - np_cnp_prio_mode and np_cnp_prio set the CNP's 802.1p priority; the
 *     model's switches classify by DSCP (qos.cnp_dscp through
 *     qos.dscp_to_priority), so the PCP has no effect: read and logged.
 *   - the knobs keep the semantics of the scenario's dcqcn.profile; the
 *     driver's are the nvidia profile's, so another profile is logged.
 *   - a name given twice is an error; an unknown name is an error with a
 *     "did you mean" when the name differs from a known one only by its
 *     rp_/np_ prefix or is a [dcqcn] key name.
 */
#include "models/scenario/configs/config.h"
#include "models/scenario/configs/internal.h"
#include "models/scenario/loader.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DC(f) offsetof(struct scenario, dcqcn.f), sizeof(((struct scenario *)0)->dcqcn.f)
#define SF(f) offsetof(struct scenario, f), sizeof(((struct scenario *)0)->f)

const struct mlx5_param scn_mlx5_params[] = {
	{ "rp_clamp_tgt_rate", "dcqcn.clamp_tgt_rate", MLX5_NUM, DC(clamp_tgt_rate), 0, NULL },
	{ "rp_clamp_tgt_rate_ati", "dcqcn.clamp_tgt_rate_after_time_inc", MLX5_NUM,
	  DC(clamp_tgt_rate_after_time_inc), 0, NULL },
	{ "rp_time_reset", "dcqcn.rpg_time_reset", MLX5_US, DC(rpg_time_reset_ps), 0, NULL },
	{ "rp_byte_reset", "dcqcn.rpg_byte_reset", MLX5_B64, DC(rpg_byte_reset_bytes), 0, NULL },
	{ "rp_threshold", "dcqcn.rpg_threshold", MLX5_NUM, DC(rpg_threshold), 0, NULL },
	{ "rp_ai_rate", "dcqcn.rpg_ai_rate", MLX5_MBPS, DC(rpg_ai_rate_bps), 0, NULL },
	{ "rp_max_rate", NULL, MLX5_FIXED, 0, 0, 0,
	  "the model's largest rate is the line rate (0)" },
	{ "rp_hai_rate", "dcqcn.rpg_hai_rate", MLX5_MBPS, DC(rpg_hai_rate_bps), 0, NULL },
	{ "rp_min_dec_fac", "dcqcn.rpg_min_dec_fac", MLX5_NUM, DC(rpg_min_dec_fac_pct), 0, NULL },
	{ "rp_min_rate", "dcqcn.rpg_min_rate", MLX5_MBPS, DC(rpg_min_rate_bps), 0, NULL },
	{ "rp_rate_to_set_on_first_cnp", "dcqcn.rate_to_set_on_first_cnp", MLX5_MBPS,
	  DC(rate_to_set_on_first_cnp_bps), 0, NULL },
	{ "rp_dce_tcp_g", "dcqcn.dce_tcp_g", MLX5_NUM, DC(dce_tcp_g), 0, NULL },
	{ "rp_dce_tcp_rtt", "dcqcn.dce_tcp_rtt", MLX5_US, DC(dce_tcp_rtt_ps), 0, NULL },
	{ "rp_rate_reduce_monitor_period", "dcqcn.rate_reduce_monitor_period", MLX5_US,
	  DC(rate_reduce_monitor_period_ps), 0, NULL },
	{ "rp_initial_alpha_value", "dcqcn.initial_alpha_value", MLX5_NUM,
	  DC(initial_alpha_value), 0, NULL },
	{ "rp_gd", "dcqcn.rpg_gd", MLX5_NUM, DC(rpg_gd), 0, NULL },
	{ "np_min_time_between_cnps", "dcqcn.min_time_between_cnps", MLX5_US,
	  DC(min_time_between_cnps_ps), 0, NULL },
	{ "np_cnp_dscp", "qos.cnp_dscp", MLX5_NUM, SF(cnp_dscp), 0, NULL },
	{ "np_cnp_prio_mode", NULL, MLX5_IGNORED, 0, 0, 0,
	  "the CNP's 802.1p priority; the switches classify CNPs by qos.cnp_dscp" },
	{ "np_cnp_prio", NULL, MLX5_IGNORED, 0, 0, 0,
	  "the CNP's 802.1p priority; the switches classify CNPs by qos.cnp_dscp" },
};
const size_t scn_mlx5_nparams = N_OF(scn_mlx5_params);

#define MAX_MLX5_BYTES SCN_MAX_MLX5_BYTES

static const struct mlx5_param *find_param(const char *name)
{
	size_t i;

	for (i = 0; i < N_OF(scn_mlx5_params); i++)
		if (strcmp(scn_mlx5_params[i].name, name) == 0)
			return &scn_mlx5_params[i];
	return NULL;
}

/* the known name that `name` probably means, or NULL */
static const struct mlx5_param *guess_param(const char *name)
{
	char buf[96];
	size_t i;

	for (i = 0; i < N_OF(scn_mlx5_params); i++) {
		const struct mlx5_param *p = &scn_mlx5_params[i];
		const char *dot = p->key ? strchr(p->key, '.') : NULL;

		if (strcmp(p->name + 3, name) == 0 || (dot && strcmp(dot + 1, name) == 0) ||
		    (p->key && strcmp(p->key, name) == 0))
			return p;
		/* rpg_ai_rate for rp_ai_rate */
		snprintf(buf, sizeof(buf), "rpg_%s", p->name + 3);
		if (p->name[0] == 'r' && strcmp(buf, name) == 0)
			return p;
	}
	return NULL;
}

int scn_sfmt(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n;
}

char *scn_read_text(const char *path, size_t max, size_t *len, char *why, size_t wlen)
{
	/* opened without blocking (a fifo would wait for a writer forever), then
	 * a regular file or a directory (which fails as it did: cannot read); a
	 * device (/dev/null, /dev/zero) or a pipe is refused before anything is
	 * read, as the loader's CSV files are (csvfile.c) */
	int fd = open(path, O_RDONLY | O_NONBLOCK);
	struct stat st;
	size_t n = 0, cap = 0;
	char *buf = NULL;
	FILE *f;

	if (fd < 0) {
		snprintf(why, wlen, "cannot open (%s)", strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) || !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))) {
		close(fd);
		snprintf(why, wlen, "not a regular file (a device or a pipe)");
		return NULL;
	}
	if (!(f = fdopen(fd, "rb"))) {
		close(fd);
		snprintf(why, wlen, "out of memory");
		return NULL;
	}
	for (;;) {
		size_t got;

		if (n + 1 >= cap) {
			size_t ncap = cap ? 2 * cap : 65536;
			char *nb;

			if (cap > max + 1) {
				snprintf(why, wlen, "larger than %zu MiB", max >> 20);
				goto fail;
			}
			nb = realloc(buf, ncap);
			if (!nb) {
				snprintf(why, wlen, "out of memory");
				goto fail;
			}
			buf = nb;
			cap = ncap;
		}
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		snprintf(why, wlen, "cannot read (%s)", strerror(errno));
		goto fail;
	}
	if (n > max) {
		snprintf(why, wlen, "larger than %zu MiB", max >> 20);
		goto fail;
	}
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
fail:
	fclose(f);
	free(buf);
	return NULL;
}

const char *scn_loader_words(const char *msg)
{
	return strncmp(msg, "--set: ", 7) == 0 ? msg + 7 : msg;
}

/*
 * rp_byte_reset's unit is ambiguous: the mlx5 firmware counts 64-byte units
 * (docs/model.md#dcqcn: 32767 = 2097088 B), mlxconfig's RPG_BYTE_RESET text
 * says bytes.  A bare number takes the firmware's reading, a B suffix
 * (32767B) the bytes reading; either way the reading is a note.
 */
static int byte_unit_note(struct scenario *s, FILE *log, struct place pl, const char *name,
			  const char *value, int bytes)
{
	struct scn_imported *im = scn_imported_of(s);
	long long v = strtoll(value, NULL, 10);

	if (!im)
		return -1;
	im->byte_reset_bytes = bytes;
	if (bytes)
		return scn_config_note(s, log, "%s:%d: %s %sB: read as bytes (the B suffix); a "
				       "bare number is read as 64-byte units, the mlx5 firmware's "
				       "unit (%lld B)", pl.src, pl.line, name, value, v * FW_BYTE_UNIT);
	return scn_config_note(s, log, "%s:%d: %s %s: read as 64-byte units, the mlx5 firmware's "
			       "unit: %lld B (mlxconfig's RPG_BYTE_RESET text says bytes: for that "
			       "reading write %s %sB in the file, or --set dcqcn.rpg_byte_reset=%sB)",
			       pl.src, pl.line, name, value, v * FW_BYTE_UNIT, name, value, value);
}

/* value: digits, and with b64 (rp_byte_reset) a B suffix, which is cut
 * (*bytes = 1); 0, or -1 when it is not */
static int plain_value(char *value, int b64, int *bytes)
{
	size_t n = strlen(value), i;

	*bytes = b64 && n > 1 && value[n - 1] == 'B';
	if (*bytes)
		value[--n] = '\0';
	if (n == 0 || n > 13)
		return -1;
	for (i = 0; i < n; i++)
		if (!is_digit(value[i]))
			return -1;
	return 0;
}

/* the file's path and text, for export's changes.txt */
static int keep_nic(struct scenario *s, const char *path, const char *text)
{
	struct scn_imported *im = scn_imported_of(s);

	if (!im || scn_keep_text(&im->nic_path, path) || scn_keep_text(&im->nic_text, text))
		return -1;
	return 0;
}

int scenario_import_mlx5(struct scenario *s, const char *path, FILE *log, struct scn_error *err)
{
	return scenario_import_mlx5_text(s, path, NULL, log, err);
}

/* a parameter the model keeps no key for (MLX5_IGNORED, MLX5_FIXED): 1
 * when p is one, logged; -1 with err when its value is not the one the
 * model has; 0 for a parameter that sets a key */
static int not_a_key(const struct mlx5_param *p, FILE *log, struct place pl, const char *name,
		     const char *value, struct scn_error *err)
{
	if (p->unit == MLX5_IGNORED) {
		if (log)
			fprintf(log, "# %s:%d: %s %s: no effect in the model (%s)\n", pl.src, pl.line,
				name, value, p->why);
		return 1;
	}
	if (p->unit != MLX5_FIXED)
		return 0;
	if (strtol(value, NULL, 10) != p->fixed) {
		scn_set_error(err, pl, "%s: %s: not modelled (%s)", name, value, p->why);
		return -1;
	}
	if (log)
		fprintf(log, "# %s:%d: %s %s: %s\n", pl.src, pl.line, name, value, p->why);
	return 1;
}

static int import_mlx5(struct scenario *s, const char *path, const char *text0,
		   FILE *log, struct scn_error *err)
{
	char why[128], *text, *copy, *line, *next;
	int seen[N_OF(scn_mlx5_params)] = { 0 };
	int ln = 0, rc = -1;
	struct place pl = { path, 0 };

	text = text0 ? strdup(text0) : scn_read_text(path, MAX_MLX5_BYTES, NULL, why, sizeof(why));
	if (!text)
		return scn_set_error(err, pl, "%s", text0 ? "out of memory" : why);
	copy = strdup(text);
	if (!copy) {
		free(text);
		return scn_set_error(err, pl, "out of memory");
	}
	if (log && s->dcqcn_profile != SCN_DCQCN_NVIDIA)
		fprintf(log, "# %s: the driver's values, read with dcqcn.profile = %s semantics\n",
			path, scn_profile_names[s->dcqcn_profile]);
	for (line = text; line; line = next) {
		char *b = line, *e, *name, *value, *sep, set[160];
		const struct mlx5_param *p;
		struct scn_error serr;
		size_t i;
		int bytes;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		pl.line = ++ln;
		if (strchr(line, '#'))
			*strchr(line, '#') = '\0';
		e = b + strlen(b);
		trim_range((const char **)&b, (const char **)&e);
		*e = '\0';
		if (*b == '\0')
			continue;
		for (sep = b; *sep && !is_blank(*sep) && *sep != '='; sep++)
			;
		name = b;
		value = sep;
		if (*value) {
			*value++ = '\0';
			while (is_blank(*value) || *value == '=')
				value++;
		}
		scn_one_line(name);
		if (strlen(name) > 64) {
			scn_set_error(err, pl, "%.40s...: name too long", name);
			goto out;
		}
		p = find_param(name);
		if (!p) {
			const struct mlx5_param *g = guess_param(name);

			if (g)
				scn_set_error(err, pl, "%s: not an mlx5 cc_params name (did you "
					      "mean %s?)", name, g->name);
			else
				scn_set_error(err, pl, "%s: not an mlx5 cc_params name (%s)", name,
					      "rp_* and np_* as in "
					      "/sys/kernel/debug/mlx5/<PCI>/cc_params");
			goto out;
		}
		i = (size_t)(p - scn_mlx5_params);
		if (seen[i]) {
			scn_set_error(err, pl, "%s: given twice (line %d)", name, seen[i]);
			goto out;
		}
		seen[i] = ln;
		if (*value == '\0') {
			scn_set_error(err, pl, "%s: no value", name);
			goto out;
		}
		if (plain_value(value, p->unit == MLX5_B64, &bytes)) {
			scn_one_line(value);
			scn_set_error(err, pl, "%s: %.40s: expected a non-negative integer "
				      "(the driver's unit)", name, value);
			goto out;
		}
		int kept = not_a_key(p, log, pl, name, value, err);
		if (kept < 0)
			goto out;
		if (kept)
			continue;
		snprintf(set, sizeof(set), "%s=%s%s", p->key, value, bytes ? "B" : "");
		if (scenario_set(s, set, &serr)) {
			scn_set_error(err, pl, "%s: %s", name, scn_loader_words(serr.msg));
			goto out;
		}
		if (log)
			fprintf(log, "%s = %s%s    # %s:%d: %s\n", p->key, value, bytes ? "B" : "",
				path, ln, name);
		if (p->unit == MLX5_B64 && byte_unit_note(s, log, pl, name, value, bytes))
			goto oom;
	}
	int any = 0;
	for (size_t i = 0; i < N_OF(scn_mlx5_params); i++)
		any |= seen[i] != 0;
	if (!any) { /* an empty file, a wrong one: nothing would be imported */
		scn_set_error(err, (struct place){ path, 0 }, "no cc_params value in the file (it is "
			      "empty or holds only comments): nothing to import");
		goto out;
	}
	rc = keep_nic(s, path, copy);
	if (rc)
		goto oom;
out:
	free(copy);
	free(text);
	return rc;
oom:
	scn_set_error(err, (struct place){ path, 0 }, "out of memory");
	rc = -1;
	goto out;
}

/* the keys the file sets are marked as its (scenario.h key_origin) */
int scenario_import_mlx5_text(struct scenario *s, const char *path, const char *text0, FILE *log,
			      struct scn_error *err)
{
	s->importing = SCN_FROM_NIC_CONFIG;
	int rc = import_mlx5(s, path, text0, log, err);
	s->importing = 0;
	return rc;
}
