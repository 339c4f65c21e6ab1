/*
 * links.h - links CSV files (topology.kind = file): a fabric described
 * cable by cable, read into the arrays the graph core builds from
 * (models/core/graph.h).
 *
 * Format: a header row naming the columns a, b, rate, cable (in any order),
 * then one row per cable:
 *
 *   a,b,rate,cable
 *   leaf0,spine0,400Gbps,30m
 *   h0,leaf0,400Gbps,3m
 *
 * a and b are node names (letters, digits, '-', '_', '.'; 1 to 31
 * characters), rate is exact with its unit and cable a length in metres,
 * within the ranges of topology.fabric_link and topology.fabric_cable
 * (1Gbps-1600Gbps, 0-10000m).  A node with exactly one link is a host,
 * every other node a switch; two rows for the same pair are parallel
 * cables.  Fields are trimmed of spaces and tabs, quotes follow RFC 4180,
 * blank lines are skipped.  Line numbers count every line (the header is
 * line 1).
 *
 * Limits: a regular file of at most 1 GiB, GRAPH_MAX_LINKS rows, and the
 * graph's limits (graph.h).  Messages are one line, "FILE:LINE: what is
 * wrong (what is valid)", or "FILE: ..." for the graph as a whole (an island,
 * too few hosts).
 */
#ifndef DCQCN_LINKS_H
#define DCQCN_LINKS_H

#include <stdint.h>

#include "models/core/graph.h"

struct scn_error;

/* a links file as read: nodes by first appearance (a before b in a row),
 * links in file order */
struct links_file {
	uint32_t nnodes, nlinks;
	char (*names)[GRAPH_NAME_SIZE]; /* [nnodes] */
	int *node_line;			/* [nnodes]: line of the node's first row */
	struct graph_link *links;	/* [nlinks], a and b index names[] */
	int *link_line;			/* [nlinks] */
};

/* read path into lf; 0, or -1 with the message in err and lf empty */
int links_read(const char *path, struct links_file *lf, struct scn_error *err);
/* build the graph of lf (read from path, for the messages); 0 or -1 */
int links_build(const struct links_file *lf, const char *path, struct graph *g,
		struct scn_error *err);
void links_free(struct links_file *lf);
/* links_read, links_build, links_free */
int links_load(const char *path, struct graph *g, struct scn_error *err);

#endif
