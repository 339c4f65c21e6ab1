/*
 * output_rows.c - the rows of a run split over processes (output.h,
 * models/fabric/ranks.h): a rank but 0 writes no file; its partitions'
 * rows go to rank 0 at each window's end with their merge tags, and the
 * traced QPs they sampled at the run's end.
 */
#include <stdlib.h>
#include <string.h>

#include "models/base/bytes.h"
#include "models/base/slab.h"
#include "models/scenario/scenario.h"
#include "sim/run/outbuf.h"

int output_open_rows(struct output *o, const struct scenario *scn, unsigned nparts)
{
	*o = (struct output){ .nparts = nparts, .remote = 1, .nqps = scn->output_rates };
	if (!(o->parts = calloc_lines(nparts, sizeof(*o->parts))) ||
	    !(o->merging = calloc(nparts, sizeof(*o->merging))) ||
	    (o->nqps && !(o->qps = calloc(o->nqps, sizeof(*o->qps))))) {
		output_close(o);
		return -1;
	}
	return 0;
}

void output_pack(struct output *o, unsigned part, struct bytes *b)
{
	struct out_part *op = &o->parts[part];
	for (int s = 0; s < OUT_PARTITIONED; s++) {
		struct out_buf *ob = &op->buf[s];
		bytes_u32(b, ob->n);
		bytes_put(b, ob->rows, ob->n * sizeof(*ob->rows));
		bytes_u64(b, ob->used);
		bytes_put(b, ob->text, ob->used);
		ob->n = ob->head = 0;
		ob->used = 0;
	}
	op->pending = 0;
}

/* room in b for n more rows and `used` more bytes of text; -1 out of memory */
static int buf_room(struct out_buf *b, uint32_t n, size_t used)
{
	if (b->used + used > b->size) {
		size_t size = b->size ? b->size : 65536;
		while (size < b->used + used)
			size *= 2;
		char *t = realloc(b->text, size);
		if (!t)
			return -1;
		b->text = t;
		b->size = size;
	}
	if (b->n + n > b->cap) {
		uint32_t cap = b->cap ? b->cap : 1024;
		while (cap < b->n + n)
			cap *= 2;
		struct out_row *r = realloc(b->rows, cap * sizeof(*r));
		if (!r)
			return -1;
		b->rows = r;
		b->cap = cap;
	}
	return 0;
}

void output_unpack(struct output *o, unsigned part, struct bytes_in *in)
{
	struct out_part *op = &o->parts[part];
	for (int s = 0; s < OUT_PARTITIONED; s++) {
		uint32_t n = bytes_get_u32(in);
		const unsigned char *rows = bytes_at(in, n * sizeof(struct out_row));
		size_t used = bytes_get_u64(in);
		const char *text = bytes_at(in, used);
		struct out_buf *b = &op->buf[s];
		if (!n)
			continue;
		if (buf_room(b, n, used)) {
			o->oom = 1;
			continue;
		}
		memcpy(b->text + b->used, text, used);
		for (uint32_t k = 0; k < n; k++) { /* rows lies unaligned in the message */
			memcpy(&b->rows[b->n + k], rows + k * sizeof(struct out_row),
			       sizeof(struct out_row));
			b->rows[b->n + k].off += b->used;
		}
		b->n += n;
		b->used += used;
		op->pending = 1;
	}
}

void output_qps_pack(const struct output *o, struct bytes *b)
{
	bytes_put(b, o->qps, o->nqps * sizeof(*o->qps));
}

void output_qps_unpack(struct output *o, struct bytes_in *in)
{
	for (uint32_t i = 0; i < o->nqps; i++) {
		struct out_qp q;
		bytes_get(in, &q, sizeof(q));
		if (q.seen && !o->qps[i].seen)
			o->qps[i] = q;
	}
}

