/*
 * internal.h - what the files of configs/ share among themselves (mlx5.c,
 * export.c, sonic.c); nothing outside models/scenario/configs includes it.
 * config.h is their public interface.
 */
#ifndef DCQCN_CONFIGS_INTERNAL_H
#define DCQCN_CONFIGS_INTERNAL_H

#include <stddef.h>

/* ---- mlx5 cc_params (mlx5.c), which export.c writes back ---- */

/* the unit of an mlx5 cc_params value: the firmware unit, which is also
 * the bare-number unit of the key it sets */
enum mlx5_unit {
	MLX5_US,    /* a time in us (field: ps) */
	MLX5_MBPS,  /* a rate in Mbps (field: bps) */
	MLX5_B64,   /* bytes in 64-byte units (field: bytes) */
	MLX5_NUM,   /* a plain number (field: integer or 0/1 flag) */
	MLX5_FIXED, /* not a key: the one value the model has (rp_max_rate 0) */
	MLX5_IGNORED, /* not a key: any value, no effect in the model (logged) */
};

/* one mlx5 cc_params name, the key it sets and its field in struct
 * scenario (mlx5.c); MLX5_FIXED and MLX5_IGNORED set no key */
struct mlx5_param {
	const char *name; /* rp_ai_rate */
	const char *key;  /* dcqcn.rpg_ai_rate */
	enum mlx5_unit unit;
	size_t off, size;
	long fixed;       /* MLX5_FIXED: the value accepted and exported */
	const char *why;  /* MLX5_FIXED, MLX5_IGNORED: what the model does instead */
};
extern const struct mlx5_param scn_mlx5_params[];
extern const size_t scn_mlx5_nparams;

/* ---- reading a configuration file (mlx5.c) ---- */

/* the text of path, NUL-terminated (free it), at most max bytes; its
 * length into *len (if not NULL); NULL with the reason in why */
char *scn_read_text(const char *path, size_t max, size_t *len, char *why, size_t wlen);

/* a message of scenario_set() without its "--set: " place, to follow the
 * place in the configuration file */
const char *scn_loader_words(const char *msg);

#endif
