/*
 * config.h - real switch and NIC configurations in and out of a scenario
 * (docs/configs.md has the mapping tables and examples).
 *
 *   scenario_import_sonic()  a SONiC config_db.json: its QoS tables set the
 *                            [buffer], [pfc], [pfcwd], [ecn] and
 *                            qos.dscp_to_priority keys (sonic.c)
 *   scenario_import_mlx5()   NVIDIA mlx5 cc_params names and values, one per
 *                            line: the [dcqcn] knobs and qos.cnp_dscp (mlx5.c)
 *   scenario_export()        a finalized scenario as config_db.json,
 *                            cc_params.txt, nic-setup.sh and nccl.env
 *                            (export.c)
 *
 * The importers run between loading the scenario file and
 * scenario_finalize(), like --set: every value goes through scenario_set(),
 * so the loader's own checks apply, and a file given after the scenario
 * overrides it.  The model has one setting per fabric: where the
 * configuration gives a value per port (or per PG, per queue), every port
 * must agree.
 *
 * Messages (err->msg, one line) name the file and the place in it:
 *   "PATH: WRED_PROFILE.AZURE_LOSSLESS.yellow_min_threshold: not modelled
 *    (the model marks green traffic only)"
 *   "PATH:LINE: malformed JSON: ..."           (json-c's words)
 *   "PATH:LINE: rp_gd: dcqcn.rpg_gd: ..."      (mlx5: the loader's message)
 * A JSON key that holds '|' or '.' is quoted: BUFFER_PG."Ethernet0|3".profile.
 *
 * `log` (may be NULL) gets one line per key set,
 *   "ecn.kmin = 250000B    # PATH: WRED_PROFILE.AZURE_LOSSLESS.green_min_threshold"
 * and "# " lines for what was read but ignored, and why.
 *
 * Functions return 0 or -1.  After an importer's error the scenario may
 * hold some of the file's keys already: discard it, as after a failed
 * scenario_load_file().
 */
#ifndef DCQCN_CONFIG_H
#define DCQCN_CONFIG_H

#include <stddef.h>
#include <stdio.h>

struct scenario;
struct scn_error;

int scenario_import_sonic(struct scenario *s, const char *path, FILE *log,
			  struct scn_error *err);
int scenario_import_mlx5(struct scenario *s, const char *path, FILE *log,
			 struct scn_error *err);
/* s finalized; dir is created if missing (its parent must exist); a file
 * already there is replaced */
int scenario_export(const struct scenario *s, const char *dir, FILE *log, char *err,
		    size_t errlen);

/* ---- shared by the three files ---- */

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

/* the text of path, NUL-terminated (free it), at most max bytes; its
 * length into *len (if not NULL); NULL with the reason in why (mlx5.c) */
char *scn_read_text(const char *path, size_t max, size_t *len, char *why, size_t wlen);

#endif
