/*
 * outbuf.h - the rows that the partitions write, waiting for the window's
 * end, and the traced QPs: what output.c and output_rows.c share.  Nothing
 * outside sim/run includes it.
 */
#ifndef DCQCN_RUN_OUTBUF_H
#define DCQCN_RUN_OUTBUF_H

#include <stddef.h>
#include <stdint.h>

#include "sim/run/output.h"

struct out_row {
	struct out_tag tag;
	size_t off;
	uint32_t len;
};

struct out_buf {
	struct out_row *rows;
	uint32_t n, cap, head;
	char *text;
	size_t used, size;
};

struct out_part { /* on lines of its own: each partition's thread writes its rows */
	_Alignas(64) struct out_buf buf[OUT_PARTITIONED];
	int pending;                   /* rows wait in buf */
};

/* a number of a QP's rates.csv rows as last written: most rows repeat the
 * rate and the target of the row before (79 % and 99 % of incast-128's) */
struct out_kept {
	double v;
	uint8_t n;                     /* its text's length, 0: none */
	char s[15];
};

/* a traced QP (qps.csv), recorded by the partition that samples it */
struct out_qp {
	uint32_t job, src, dst;
	uint8_t seen;
	struct out_kept rate, target;  /* written by the QP's partition only */
};

#endif
