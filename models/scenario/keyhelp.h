/*
 * keyhelp.h - what users are told about the keys of a scenario: the list
 * of `dcqcn-sim keys` (each key's default, values, where it applies and
 * meaning) and the "did you mean" of a mistyped name.
 *
 * The meanings are a field of each row of the key table (scn_key_defs[],
 * keytable.c), one line each: the one source of the key reference
 * (docs/scenario.md#key-reference and dcqcn-sim-scenario(5), written from
 * `dcqcn-sim keys` by scripts/gendocs.py).
 *
 * The public functions (scenario_*) are for the command line; the scn_*
 * ones are the loader's (read.c) and use no loader type.
 */
#ifndef DCQCN_KEYHELP_H
#define DCQCN_KEYHELP_H

#include <stddef.h>
#include <stdio.h>

/* ---- did you mean ---- */

/*
 * The closest of a set of candidates to a word, when one clearly is:
 * edit distance (optimal string alignment: insertions, deletions,
 * substitutions and swaps of two neighbours) at most 1 for words of up to
 * 5 characters, at most 2 for longer ones, and less than half the length;
 * a second candidate as close as the best means no guess.  Add the
 * candidates, then read best (NULL: no guess).
 */
struct scn_guess {
	const char *word;
	size_t wlen;     /* the word is word[0 .. wlen) */
	const char *best;
	int dist;        /* best's distance */
	int tie;         /* another candidate is as close */
};

void scn_guess_init(struct scn_guess *g, const char *word, size_t wlen);
void scn_guess_add(struct scn_guess *g, const char *cand);
/* the guess, or NULL */
const char *scn_guess_best(const struct scn_guess *g);
/* the distance of a[0..alen) and b, or a large number for long words */
int scn_edit_distance(const char *a, size_t alen, const char *b);

/* the section (enum sec_id) whose name is close to name[0..len), or -1 */
int scn_guess_section(const char *name, size_t len);
/* "; did you mean nic.cc?" for the unknown key `name` of section sec
 * (secname: "nic", "job.a"), or "": a key of sec that is close, else
 * (sec unnamed) a key of that exact name in one other unnamed section */
void scn_key_suggestion(int sec, const char *secname, const char *name, char *buf,
			size_t len);
/* the value of the names[] (NULL-terminated) that is close to value, or NULL */
const char *scn_guess_name(const char *const *names, const char *value);

/* ---- for the command line ---- */

/*
 * `dcqcn-sim keys [SECTION]`: every key (keys of type KT_TODO, known but
 * not implemented, are left out), section by section, or those of one
 * section (NULL: all).  Returns 0, or -1 with "no section X (sim,
 * topology, ...); did you mean Y?" in err.
 */
int scenario_print_keys(FILE *out, const char *section, char *err, size_t errlen);

/*
 * Does "section.key" (or "job.NAME.key", "fault.NAME.key") name a key?
 * Whether the job or fault exists is the loader's question.  0, or -1
 * with "nic.ccc: unknown key; did you mean nic.cc?" (the loader's
 * message) in err.
 */
int scenario_key_known(const char *key, char *err, size_t errlen);

/*
 * The value `text` of key "section.key" ("job.NAME.size") as a number in
 * the key's base unit, for a column that sorts: *unit is "B" (sizes), "ps"
 * (times), "bps" (rates), "mm" (lengths), "frac" (fractions and
 * percentages, as a plain fraction: 10% is 0.1), "n" (integers, as
 * themselves), or NULL for a key without one (enums, lists, names, files;
 * num is then empty).  Exact: integers printed from the parsed integer,
 * never through a float; "auto" and "none" give an empty num.  Returns 0,
 * or -1 for an unknown key or a value that does not parse.
 */
int scenario_key_base_value(const char *key, const char *text, char *num, size_t numlen,
			    const char **unit);

/* the meaning of key "section.key" ("job.size"), or NULL */
const char *scenario_key_meaning(const char *key);

/* the keys of scn_key_defs[] whose row has no meaning, listed in buf;
 * returns how many */
int scenario_key_docs_check(char *buf, size_t len);

#endif
