/*
 * links.c - links CSV files (links.h), read with libcsv the way trace.c reads
 * trace files, then built into a graph by the core (graph.h).
 *
 * What needs a line is checked here, each error at the row that causes it:
 * the header, the row's fields, a self-loop, a node's 65536th port, the
 * node or link count (while reading); two hosts linked only to each other,
 * the host or switch count (once every degree is known: at the row of the
 * link, or of the first row of the host or switch over the limit).  What is
 * about the whole graph (islands, too few hosts, path length, table size)
 * the core reports, with the file name.
 */
#include "models/scenario/links.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/scenario/loader.h"

#define LINKS_MAX_BYTES (INT64_C(1) << 30) /* 2^24 rows of 64 bytes */
#define MAX_NODES	(GRAPH_MAX_HOSTS + GRAPH_MAX_SWITCHES)

enum links_col { COL_A, COL_B, COL_RATE, COL_CABLE, N_COLS };

static const char *const col_names[N_COLS] = {"a", "b", "rate", "cable"};
_Static_assert(N_COLS <= SCN_CSV_COLS, "scn_csv keeps the columns");

struct links_read {
	struct scn_csv csv; /* first: the rows as read */
	int col_of[N_COLS];		       /* header field of each column */
	struct links_file *lf;
	uint32_t node_cap, link_cap;
	uint32_t *deg;	/* [node_cap] */
	uint32_t *slot; /* name -> node index + 1, open addressing; 0 empty */
	uint32_t slot_mask;
};

static int col_index(const char *name)
{
	for (int c = 0; c < N_COLS; c++)
		if (strcmp(name, col_names[c]) == 0)
			return c;
	return -1;
}

static void links_header(struct links_read *lr)
{
	uint32_t i, known = 0;
	int c;

	for (c = 0; c < N_COLS; c++)
		lr->col_of[c] = -1;
	for (i = 0; i < lr->csv.nfield && i <= N_COLS; i++)
		known += col_index(lr->csv.field[i]) >= 0;
	if (known == 0) {
		scn_csv_fail(
		    &lr->csv, lr->csv.row_line,
		    "header: missing (the first line must name the columns: a,b,rate,cable)");
		return;
	}
	for (i = 0; i < lr->csv.nfield; i++) {
		/* the first N_COLS + 1 names are kept: a bad one is among them */
		const char *name = lr->csv.field[i];

		c = col_index(name);
		if (c < 0) {
			if (name[0] == '\0')
				scn_csv_fail(&lr->csv, lr->csv.row_line,
					   "column %" PRIu32
					   ": empty column name (a, b, rate, cable)",
					   i + 1);
			else
				scn_csv_fail(&lr->csv, lr->csv.row_line,
					   "%s%s: unknown column (a, b, rate, cable)", name,
					   lr->csv.field_long[i] ? "..." : "");
			return;
		}
		if (lr->col_of[c] >= 0) {
			scn_csv_fail(&lr->csv, lr->csv.row_line, "%s: duplicate column", name);
			return;
		}
		lr->col_of[c] = (int)i;
	}
	for (c = 0; c < N_COLS; c++)
		if (lr->col_of[c] < 0) {
			scn_csv_fail(&lr->csv, lr->csv.row_line,
				   "%s: missing column (the header needs a, b, rate, cable)",
				   col_names[c]);
			return;
		}
	lr->csv.ncols = lr->csv.nfield;
	lr->csv.have_header = 1;
}

static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 16777619u;
	}
	return h;
}

/* the slot of name: its node index + 1, or the empty slot (0) for it */
static uint32_t *name_slot(struct links_read *lr, const char *name)
{
	uint32_t i = name_hash(name) & lr->slot_mask;

	while (lr->slot[i] && strcmp(lr->lf->names[lr->slot[i] - 1], name) != 0)
		i = (i + 1) & lr->slot_mask;
	return &lr->slot[i];
}

/* room for one more node: the arrays and a name table at most half full */
static int grow_nodes(struct links_read *lr)
{
	struct links_file *lf = lr->lf;

	if (lf->nnodes == lr->node_cap) {
		uint32_t cap = lr->node_cap ? 2 * lr->node_cap : 64;
		void *n = realloc(lf->names, (size_t)cap * sizeof(*lf->names));
		if (n)
			lf->names = n;
		void *l = n ? realloc(lf->node_line, (size_t)cap * sizeof(*lf->node_line)) : NULL;
		if (l)
			lf->node_line = l;
		void *d = l ? realloc(lr->deg, (size_t)cap * sizeof(*lr->deg)) : NULL;
		if (!d)
			return -1;
		lr->deg = d;
		lr->node_cap = cap;
	}
	if (2 * ((size_t)lf->nnodes + 1) > (size_t)lr->slot_mask + 1) {
		uint32_t slots = lr->slot ? 2 * (lr->slot_mask + 1) : 128;
		uint32_t *old = lr->slot, old_slots = lr->slot ? lr->slot_mask + 1 : 0;
		lr->slot = calloc(slots, sizeof(*lr->slot));
		if (!lr->slot) {
			lr->slot = old;
			return -1;
		}
		lr->slot_mask = slots - 1;
		for (uint32_t i = 0; i < old_slots; i++)
			if (old[i])
				*name_slot(lr, lf->names[old[i] - 1]) = old[i];
		free(old);
	}
	return 0;
}

/* column c of the row as a node: its index, new or known; -1 on error */
static int64_t row_node(struct links_read *lr, enum links_col c, const char *text, int is_long)
{
	struct links_file *lf = lr->lf;
	uint32_t *slot;

	if (is_long || strlen(text) >= GRAPH_NAME_SIZE) {
		scn_csv_fail(&lr->csv, lr->csv.row_line, "%s: %.24s... is longer than %d characters",
			   col_names[c], text, GRAPH_NAME_SIZE - 1);
		return -1;
	}
	if (text[0] == '\0') {
		scn_csv_fail(&lr->csv, lr->csv.row_line, "%s: empty (a node name: %s)", col_names[c],
			   GRAPH_NAME_CHARS);
		return -1;
	}
	if (!graph_name_ok(text)) {
		scn_csv_fail(&lr->csv, lr->csv.row_line, "%s: %s is not a node name (%s)", col_names[c], text,
			   GRAPH_NAME_CHARS);
		return -1;
	}
	if (lr->slot && *(slot = name_slot(lr, text)))
		return *slot - 1;
	if (lf->nnodes >= MAX_NODES) {
		scn_csv_fail(&lr->csv, lr->csv.row_line,
			   "%s: %s is one node more than %u (%u hosts and %u switches at most)",
			   col_names[c], text, MAX_NODES, GRAPH_MAX_HOSTS, GRAPH_MAX_SWITCHES);
		return -1;
	}
	if (grow_nodes(lr)) {
		scn_csv_fail(&lr->csv, lr->csv.row_line, "%s: out of memory", col_names[c]);
		return -1;
	}
	memcpy(lf->names[lf->nnodes], text, strlen(text) + 1);
	lf->node_line[lf->nnodes] = lr->csv.row_line;
	lr->deg[lf->nnodes] = 0;
	*name_slot(lr, text) = lf->nnodes + 1;
	return lf->nnodes++;
}

/* a unit value of column c with the range of key `key` of [topology] */
static int row_value(struct links_read *lr, enum links_col c, const char *text, int is_long,
		     const char *key, int64_t *v)
{
	const struct key_def *k = scn_key_def_of(SEC_TOPOLOGY, key);
	char e[200];
	int rc;

	if (is_long) {
		scn_csv_fail(&lr->csv, lr->csv.row_line, "%s: value too long", col_names[c]);
		return -1;
	}
	rc = c == COL_RATE ? units_parse_rate(text, v, e, sizeof(e))
			   : units_parse_length(text, v, e, sizeof(e));
	if (rc) {
		scn_csv_fail(&lr->csv, lr->csv.row_line, "%s: %s", col_names[c], e);
		return -1;
	}
	if (k && (*v < k->min || *v > k->max)) {
		scn_csv_fail(&lr->csv, lr->csv.row_line, "%s: %s out of range (%s)", col_names[c], text,
			   k->range);
		return -1;
	}
	return 0;
}

static void links_row(struct links_read *lr)
{
	struct links_file *lf = lr->lf;
	struct graph_link l;
	const char *f[N_COLS];
	int lng[N_COLS];
	int64_t a, b;
	int c;

	if (lr->csv.nfield != lr->csv.ncols) {
		scn_csv_fail(&lr->csv, lr->csv.row_line, "row: %" PRIu32 " fields, the header has %" PRIu32,
			   lr->csv.nfield, lr->csv.ncols);
		return;
	}
	if (lf->nlinks >= GRAPH_MAX_LINKS) {
		scn_csv_fail(&lr->csv, lr->csv.row_line, "row: more than %u links", GRAPH_MAX_LINKS);
		return;
	}
	for (c = 0; c < N_COLS; c++) {
		f[c] = lr->csv.field[lr->col_of[c]];
		lng[c] = lr->csv.field_long[lr->col_of[c]];
	}
	if ((a = row_node(lr, COL_A, f[COL_A], lng[COL_A])) < 0 ||
	    (b = row_node(lr, COL_B, f[COL_B], lng[COL_B])) < 0)
		return;
	if (a == b) {
		scn_csv_fail(&lr->csv, lr->csv.row_line, "b: %s is linked to itself (a link joins two nodes)",
			   f[COL_B]);
		return;
	}
	if (row_value(lr, COL_RATE, f[COL_RATE], lng[COL_RATE], "fabric_link", &l.rate_bps) ||
	    row_value(lr, COL_CABLE, f[COL_CABLE], lng[COL_CABLE], "fabric_cable", &l.cable_mm))
		return;
	for (c = 0; c < 2; c++) {
		uint32_t n = (uint32_t)(c ? b : a);
		if (++lr->deg[n] > GRAPH_MAX_PORTS) {
			scn_csv_fail(&lr->csv, lr->csv.row_line, "%s: %s has more than %u ports", col_names[c],
				   lf->names[n], GRAPH_MAX_PORTS);
			return;
		}
	}
	if (lf->nlinks == lr->link_cap) {
		uint32_t cap = lr->link_cap ? 2 * lr->link_cap : 256;
		void *nl = realloc(lf->links, (size_t)cap * sizeof(*lf->links));
		if (nl)
			lf->links = nl;
		void *ll = nl ? realloc(lf->link_line, (size_t)cap * sizeof(*lf->link_line)) : NULL;
		if (!ll) {
			scn_csv_fail(&lr->csv, lr->csv.row_line, "row: out of memory");
			return;
		}
		lf->link_line = ll;
		lr->link_cap = cap;
	}
	l.a = (uint32_t)a;
	l.b = (uint32_t)b;
	lf->links[lf->nlinks] = l;
	lf->link_line[lf->nlinks++] = lr->csv.row_line;
}

static void links_degrees(struct links_read *lr)
{
	const struct links_file *lf = lr->lf;
	uint32_t i, hosts = 0, switches = 0;

	for (i = 0; i < lf->nlinks; i++) {
		const struct graph_link *l = &lf->links[i];
		if (lr->deg[l->a] == 1 && lr->deg[l->b] == 1) {
			scn_csv_fail(&lr->csv, lf->link_line[i],
				   "%s and %s are linked only to each other (a node with one link "
				   "is a host, and a host needs a switch)",
				   lf->names[l->a], lf->names[l->b]);
			return;
		}
	}
	/* nodes are in order of first appearance, as graph.h numbers them */
	for (i = 0; i < lf->nnodes; i++) {
		int host = lr->deg[i] == 1;
		const char *nm = lf->names[i];
		if (!host && nm[0] == 'h' && nm[1] && strspn(nm + 1, "0123456789") == strlen(nm + 1)) {
			/* the outputs call the hosts h0, h1, ...: a switch may not */
			scn_csv_fail(&lr->csv, lf->node_line[i],
				   "%s is a switch (it has several links), but names h<N> are the "
				   "hosts' (the outputs call them h0, h1, ... in order of first "
				   "appearance)",
				   nm);
			return;
		}
		if (host ? ++hosts > GRAPH_MAX_HOSTS : ++switches > GRAPH_MAX_SWITCHES) {
			scn_csv_fail(&lr->csv, lf->node_line[i], "%s: more than %u %s (%s)", lf->names[i],
				   host ? GRAPH_MAX_HOSTS : GRAPH_MAX_SWITCHES,
				   host ? "hosts" : "switches",
				   host ? "nodes with one link" : "nodes with several links");
			return;
		}
	}
}

void links_free(struct links_file *lf)
{
	free(lf->names);
	free(lf->node_line);
	free(lf->links);
	free(lf->link_line);
	memset(lf, 0, sizeof(*lf));
}

/* scn_csv's callbacks: the links_read is its first member */
static void links_header_of(struct scn_csv *c)
{
	links_header((struct links_read *)(void *)c);
}

static void links_row_of(struct scn_csv *c)
{
	links_row((struct links_read *)(void *)c);
}

int links_read(const char *path, struct links_file *lf, struct scn_error *err)
{
	struct place pl = {path, 0};
	struct links_read lr;
	char why[128];

	memset(lf, 0, sizeof(*lf));
	memset(&lr, 0, sizeof(lr));
	lr.csv = (struct scn_csv){ .path = path, .err = err, .kept = N_COLS,
				   .header = links_header_of, .row = links_row_of };
	lr.lf = lf;
	enum scn_csv_open e = scn_csv_read(&lr.csv, LINKS_MAX_BYTES);
	if (e != SCN_CSV_READ) {
		free(lr.deg);
		free(lr.slot);
		links_free(lf);
		return scn_set_error(err, pl, "%s",
				     scn_csv_open_text(e, "a links CSV file", LINKS_MAX_BYTES, why,
						       sizeof(why)));
	}
	if (!lr.csv.failed && !lr.csv.have_header)
		scn_csv_fail(&lr.csv, lr.csv.line > 0 ? lr.csv.line : 1,
			   "header: empty file (expected a,b,rate,cable and a row per cable)");
	if (!lr.csv.failed && lf->nlinks == 0)
		scn_csv_fail(&lr.csv, lr.csv.line, "row: no links after the header");
	if (!lr.csv.failed)
		links_degrees(&lr);
	free(lr.deg);
	free(lr.slot);
	if (lr.csv.failed) {
		links_free(lf);
		return -1;
	}
	return 0;
}

int links_build(const struct links_file *lf, const char *path, struct graph *g,
		struct scn_error *err)
{
	struct place pl = {path, 0};
	char e[sizeof(err->msg)];

	if (graph_build(g, (const char(*)[GRAPH_NAME_SIZE])lf->names, lf->nnodes, lf->links,
			lf->nlinks, e, sizeof(e)))
		return scn_set_error(err, pl, "%s", e);
	return 0;
}

int links_load(const char *path, struct graph *g, struct scn_error *err)
{
	struct links_file lf;
	int rc;

	if (links_read(path, &lf, err))
		return -1;
	rc = links_build(&lf, path, g, err);
	links_free(&lf);
	return rc;
}
