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
 *                            cc_params.txt, nic-setup.sh (nic.cc = dcqcn)
 *                            and nccl.env (export.c)
 *
 * What the files of configs/ share among themselves is in internal.h.
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
/* the same with the file's text read before (scenario_read_config; path
 * names it in messages); text NULL: read path */
int scenario_import_sonic_text(struct scenario *s, const char *path, const char *text,
			       FILE *log, struct scn_error *err);
int scenario_import_mlx5_text(struct scenario *s, const char *path, const char *text,
			      FILE *log, struct scn_error *err);
/* the text of a configuration file (nic: mlx5 cc_params, else a SONiC
 * config_db.json) as its importer reads it (NUL-terminated; free it), its
 * length into *len (may be NULL); NULL with the importer's message in err */
char *scenario_read_config(const char *path, int nic, size_t *len, struct scn_error *err);
/* s finalized; dir is created if missing (its parent must exist); a file
 * already there is replaced.  When s imported a configuration, dir also gets
 * changes.txt: what applying the exported files would change against the
 * imported ones (docs/configs.md#what-changes) */
int scenario_export(const struct scenario *s, const char *dir, FILE *log, char *err,
		    size_t errlen);
/* the files scenario_export writes for s, "config_db.json, ..., nccl.env":
 * with nic.cc = none (every InfiniBand and TCP fabric) no cc_params.txt or
 * nic-setup.sh, which that scenario could not import */
const char *scenario_export_files(const struct scenario *s);

/*
 * The notes the imports of s left (notes.c): an ambiguous unit and the
 * reading taken, with how to pick the other (rp_byte_reset), an
 * approximation (a shared headroom pool), settings that do not apply
 * (yellow and red WRED thresholds), one line each as the import log has
 * them without its "# ", e.g.
 *   "cc_params.txt:4: rp_byte_reset 32767: read as 64-byte units ..."
 * Writes nothing when s imported nothing or nothing needed a note.  The
 * same lines are in scenario_print()'s output as "# config: " comments.
 */
void scenario_config_notes(const struct scenario *s, FILE *f);

#endif
