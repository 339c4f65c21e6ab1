/*
 * defaults.c - a new scenario, job and fault at the defaults of the key
 * table (keytable.c): scenario_init(), scn_job_init(), scn_fault_init(); and
 * scenario_free(), which frees what loading and finalizing allocated (the
 * resolved host sets of nodes.c, trace rows, the links file's graph, what
 * imported configurations left: struct scn_imported).
 */
#include "models/scenario/loader.h"

#include <stdlib.h>
#include <string.h>

#include "models/core/graph.h"

/*
 * The defaults of the keys of section sec into base, or with sec ==
 * SEC_COUNT those of every unnamed section into the struct scenario.  Text
 * keys start empty (base is zeroed), host sets "all", dscp_to_priority at
 * dscp >> 3; the [dcqcn] knobs take the nvidia profile's (def[0]).
 */
static void init_keys(void *base, int sec)
{
	size_t i;
	int d;

	for (i = 0; i < N_KEYS; i++) {
		const struct key_def *k = &scn_key_defs[i];
		char *p = (char *)base + k->off;

		if (sec == SEC_COUNT ? scn_section_defs[k->sec].named : (int)k->sec != sec)
			continue;
		switch (k->type) {
		case KT_TODO:
		case KT_TC: /* an alias of qos.data_dscp */
		case KT_FILE:
		case KT_LINK:
		case KT_FLOWS: /* auto: n 0 */
		case KT_STRAGGLERS: /* none: n 0 */
			break;
		case KT_DSCP_MAP:
			for (d = 0; d < 64; d++)
				((uint8_t *)p)[d] = (uint8_t)(d >> 3);
			break;
		case KT_SL_MAP:
			for (d = 0; d < SCN_PRIOS; d++)
				((uint8_t *)p)[d] = (uint8_t)d;
			break;
		case KT_WEIGHTS:
			for (d = 0; d < SCN_PRIOS; d++)
				((uint32_t *)(void *)p)[d] = (uint32_t)k->def[0];
			break;
		case KT_HOSTSET:
			memcpy(((struct scn_hostset *)(void *)p)->text, "all", 4);
			break;
		default:
			scn_store_int(base, k, k->def[0]);
			break;
		}
	}
}

void scn_job_init(struct scn_job *j, const char *name, int line)
{
	memset(j, 0, sizeof(*j));
	memcpy(j->name, name, strlen(name) + 1); /* checked: < SCN_NAME_LEN */
	j->line = line;
	init_keys(j, SEC_JOB);
}

/* a fault's required keys start "not given"; see the file header */
void scn_fault_init(struct scn_fault *f, const char *name, int line)
{
	memset(f, 0, sizeof(*f));
	memcpy(f->name, name, strlen(name) + 1); /* checked: < SCN_NAME_LEN */
	f->line = line;
	init_keys(f, SEC_FAULT);
	f->end_node[0] = f->end_node[1] = UINT32_MAX;
}

static void job_free(struct scn_job *j)
{
	scn_hostset_clear(&j->ranks);
	scn_hostset_clear(&j->senders);
	scn_hostset_clear(&j->targets);
	scn_hostset_clear(&j->initiators);
	free(j->rows);
	j->rows = NULL;
	j->nrows = 0;
}

void scenario_init(struct scenario *s)
{
	memset(s, 0, sizeof(*s));
	memcpy(s->source, "<defaults>", sizeof("<defaults>"));
	init_keys(s, SEC_COUNT);
	s->tc_ecn_bits = -1;
}

void scenario_free(struct scenario *s)
{
	uint32_t i;

	if (s->graph) {
		graph_free(s->graph);
		free(s->graph);
		s->graph = NULL;
	}
	for (i = 0; i < s->njobs && i < SCN_MAX_JOBS; i++)
		job_free(&s->jobs[i]);
	if (s->imported) {
		free(s->imported->notes);
		free(s->imported->switch_path);
		free(s->imported->switch_text);
		free(s->imported->nic_path);
		free(s->imported->nic_text);
		free(s->imported->ports);
		free(s->imported);
		s->imported = NULL;
	}
}
