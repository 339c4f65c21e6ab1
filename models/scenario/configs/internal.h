/*
 * internal.h - what the files of configs/ share among themselves (mlx5.c,
 * export.c, sonic.c and its rooms sonic_*.c); nothing outside
 * models/scenario/configs includes it.
 * config.h is their public interface.
 */
#ifndef DCQCN_CONFIGS_INTERNAL_H
#define DCQCN_CONFIGS_INTERNAL_H

#include "models/scenario/loader.h" /* SCN_PRINTF */
#include "models/scenario/scenario.h" /* struct scn_imported */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* snprintf that truncates silently: the paths and messages the
 * configuration files write are bounded (mlx5.c) */
SCN_PRINTF(3, 4) int scn_sfmt(char *buf, size_t len, const char *fmt, ...);

struct json_object;
struct scenario;

/* ---- what an import leaves in the scenario (notes.c) ---- */

/* s->imported, made if missing; NULL when out of memory */
struct scn_imported *scn_imported_of(struct scenario *s);
/* a note into s->imported->notes (one line, scenario_config_notes) and,
 * after "# ", into log (if any); 0 or -1 (out of memory) */
SCN_PRINTF(3, 4) int scn_config_note(struct scenario *s, FILE *log, const char *fmt, ...);
/* *dst = a copy of text (the old one freed); 0 or -1 */
int scn_keep_text(char **dst, const char *text);

/* export/changes.txt and, after a config_db.json was imported,
 * export/config_db.patch.json: what applying the exported config_db.json
 * (root) and cc_params (the values written, vals[i] for scn_mlx5_params[i])
 * would change against the imported files (changes.c); 0 or -1 with err */
int scn_write_changes(const struct scenario *s, const char *dir, struct json_object *root,
		      const int64_t *vals, char *err, size_t errlen);
/* the text cc_params.txt holds for parameter i of value v: v, or "vB" for
 * rp_byte_reset read as bytes (export.c) */
void scn_mlx5_text(const struct scenario *s, size_t i, int64_t v, char *buf, size_t len);

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

#define SCN_MAX_MLX5_BYTES ((size_t)1 << 20) /* an mlx5 cc_params file */

/* the text of path, NUL-terminated (free it), at most max bytes; its
 * length into *len (if not NULL); NULL with the reason in why */
char *scn_read_text(const char *path, size_t max, size_t *len, char *why, size_t wlen);

/* a message of scenario_set() without its "--set: " place, to follow the
 * place in the configuration file */
const char *scn_loader_words(const char *msg);

/* ---- a SONiC config_db.json (sonic*.c) ----
 *
 * sonic.c parses the file, walks its tables and sets the keys;
 * sonic_json.c holds the walk: JSON paths, messages, field values,
 * references between tables, the ports and the values they must agree on;
 * sonic_pfc.c reads PORT_QOS_MAP (with the maps it names) and PFC_WD,
 * sonic_buffer.c BUFFER_PG (with its profiles and pools), sonic_wred.c
 * QUEUE (with its WRED profiles). */

#define SONIC_PATH_LEN 256  /* a JSON path: TABLE."KEY".field */
#define SONIC_NOTE_LEN 2048 /* the log line of what was not read */
#define SONIC_MAX_PORTS 1024
#define SONIC_MAX_USED 512 /* entries referenced, remembered */

struct scn_error;

/* the keys a config_db.json sets, in the order they are set (a key's dep
 * first) */
enum sonic_key {
	SK_PFC_PRIOS,
	SK_DSCP_MAP,
	SK_BUF_SIZE,
	SK_RESERVED,
	SK_DYN_TH,
	SK_HEADROOM,
	SK_XON_OFFSET,
	SK_ECN_QUEUES,
	SK_KMIN,
	SK_KMAX,
	SK_PMAX,
	SK_WD_ENABLE,
	SK_WD_ACTION,
	SK_WD_DETECT,
	SK_WD_RESTORE,
	SK_WD_POLL,
	SK_COUNT
};

/* their scenario keys ("pfc.priorities"; sonic.c) */
extern const char *const sonic_key_names[SK_COUNT];

/* a value and the JSON path it came from (the first port's) */
struct sonic_agreed {
	int set;
	char value[400];
	char path[SONIC_PATH_LEN];
};

struct sonic_port {
	char name[64];
	uint8_t lossless; /* pfc_enable */
	uint8_t ecn;      /* queues with an ECN profile */
	char qpath[SONIC_PATH_LEN]; /* its first QUEUE entry */
	char wpath[SONIC_PATH_LEN]; /* its last QUEUE wred_profile with ECN */
};

/* one config_db.json being read */
struct sonic {
	const char *src;
	const char *text;              /* its text read before, NULL: read src */
	struct scenario *scn;          /* for the notes (scn_config_note) */
	int dynamic_model;             /* DEVICE_METADATA.localhost.buffer_model = dynamic */
	long long pool_size;           /* the lossless pool's size, -1 until read */
	long long pool_xoff;           /* its shared headroom pool (xoff), 0 when none */
	char xoff_path[SONIC_PATH_LEN];
	long long ratio;               /* DEFAULT_LOSSLESS_BUFFER_PARAMETER over_subscribe_ratio */
	char ratio_path[SONIC_PATH_LEN];
	long long lossless_pgs;        /* (port, PG) pairs with the lossless profile */
	int pfcwd_sw;                  /* PORT_QOS_MAP has pfcwd_sw_enable */
	char names[SCN_CFG_NAMES][SCN_CFG_NAME_LEN]; /* the entries read (scenario.h) */
	char (*pnames)[64];            /* the QoS tables' ports, as first seen */
	int npnames;
	struct json_object *root;
	FILE *log;
	struct scn_error *err;
	struct sonic_agreed v[SK_COUNT];
	struct sonic_port ports[SONIC_MAX_PORTS];
	int nports;
	int no_pqm;                    /* no PORT_QOS_MAP table: */
	uint8_t lossless;              /* the scenario's pfc.priorities are lossless */
	char not_read[SONIC_NOTE_LEN]; /* lossy PGs, unused profiles, ... */
	char (*used)[SONIC_PATH_LEN];  /* "TABLE.NAME" of the entries referenced */
	int nused;
};

/* sonic_json.c: messages */
/* err: "PATH: path: message"; returns -1 */
SCN_PRINTF(3, 4) int sonic_fail(struct sonic *sn, const char *path, const char *fmt, ...);
/* a "# PATH: ..." line into the log (if any) */
SCN_PRINTF(2, 3) void sonic_note(struct sonic *sn, const char *fmt, ...);
/* add a name to the list of what was not read ("..." once it is full) */
void sonic_not_read(struct sonic *sn, const char *what);
/* a note of the scenario (scn_config_note), "PATH: ..."; 0 or -1 with the
 * error (out of memory) */
SCN_PRINTF(2, 3) int sonic_cfg_note(struct sonic *sn, const char *fmt, ...);
/* a port of a QoS table, for export's names (ports of a key's list one by
 * one); 0 or -1 with the error at path */
int sonic_saw_ports(struct sonic *sn, const char *ports, const char *path);
/* "TABLE.KEY" and "TABLE.KEY.FIELD" into out (SONIC_PATH_LEN), a key
 * quoted when it holds '|', '.' or a blank */
void sonic_path2(char *out, const char *table, const char *key);
void sonic_path3(char *out, const char *table, const char *key, const char *field);

/* sonic_json.c: values; each 0, or -1 with the error at path */
/* the text of a field value (a string, number or boolean) into buf */
int sonic_value_text(struct sonic *sn, struct json_object *o, const char *path, char *buf,
		     size_t len);
/* an integer field: digits (a '-' first with neg), at most 10^15; unit
 * for the message */
int sonic_int_value(struct sonic *sn, struct json_object *o, const char *path, int neg,
		    const char *unit, long long *v);
/* "true" / "false" */
int sonic_bool_value(struct sonic *sn, struct json_object *o, const char *path, int *v);
/* "3,4" or "3-4" or "" into a bit mask of 0-7 */
int sonic_prio_list(struct sonic *sn, const char *text, const char *path, uint8_t *mask);

/* sonic_json.c: references and agreement */
/* note that TABLE.NAME was referenced; 1 the first time */
int sonic_first_use(struct sonic *sn, const char *table, const char *name);
/* whether "TABLE.NAME" (path) was referenced */
int sonic_was_used(const struct sonic *sn, const char *path);
/* the entry of TABLE that ref names ("NAME" or "[TABLE|NAME]"), its name
 * into name; NULL with an error at path (the referencing field) */
struct json_object *sonic_deref(struct sonic *sn, const char *table, struct json_object *ref,
				const char *path, char *name, size_t len);
/* the value of key k from path: the first port's stays, a later one must
 * agree; via: the path that led to it (a BUFFER_PG or QUEUE entry), or NULL */
int sonic_agree(struct sonic *sn, enum sonic_key k, const char *value, const char *path,
		const char *via);

/* sonic_json.c: ports */
/* the port entry of name, added if new; NULL with an error at path */
struct sonic_port *sonic_port_of(struct sonic *sn, const char *name, const char *path);
/* the port entry of name, or NULL */
const struct sonic_port *sonic_find_port(const struct sonic *sn, const char *name);
/* the next port of a key's list ("Ethernet0,Ethernet4") into buf; 0 at
 * its end */
int sonic_next_port(const char **p, char *buf, size_t len);
/* "<ports>|<list>" into the port names and a bit mask of the list */
int sonic_split_port_key(struct sonic *sn, const char *key, const char *path, char *port,
			 size_t len, uint8_t *mask);

/* the tables sonic.c walks, each 0 or -1 (t: the table's object) */
int sonic_read_port_qos_map(struct sonic *sn, struct json_object *t); /* sonic_pfc.c */
int sonic_read_pfc_wd(struct sonic *sn, struct json_object *t);       /* sonic_pfc.c */
int sonic_read_buffer_pg(struct sonic *sn, struct json_object *t);    /* sonic_buffer.c */
int sonic_read_queue(struct sonic *sn, struct json_object *t);        /* sonic_wred.c */
int sonic_read_lossless_param(struct sonic *sn, struct json_object *t); /* sonic_buffer.c */
/* after the tables: the lossless pool's size checked, a shared headroom
 * pool approximated (sonic_buffer.c) */
int sonic_buffer_done(struct sonic *sn);

#endif
