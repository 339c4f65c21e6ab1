/*
 * sweep_folder.c - what keeps a sweep's folder its own (see sweep.h): the
 * inputs read once, DIR/sweep-identity.txt, the lock, and the reason a run
 * left in its error.txt.
 *
 * The identity file holds the lines of a shard description that say what
 * the sweep is (sweep_shard_identity: the scenario's hash, the --set and
 * --vary options, --repeat, the points) and, for shards, "shards = N"; the
 * scenario's path is there for people and is not compared (it may differ
 * between machines).
 *
 * The lock is a file made with O_EXCL holding "pid PID host HOST".  It is
 * stale when its host is this one and no process has its pid; a lock of
 * another host is never taken over (its sweep may be running there).
 */
#include "sim/sweeps/internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "models/base/files.h"
#include "models/scenario/configs/config.h"
#include "models/scenario/scenario.h"
#include "sim/sweeps/sweep.h"

#define IDENTITY_FILE "sweep-identity.txt"

void sweep_read_inputs(struct sweep_opts *o)
{
	struct scn_error e;
	if (o->scenario && !o->scenario_text)
		o->scenario_text = scenario_read_text(o->scenario, &o->scenario_len, &e);
	if (o->switch_config && !o->switch_text)
		o->switch_text = scenario_read_config(o->switch_config, 0, &o->switch_len, &e);
	if (o->nic_config && !o->nic_text)
		o->nic_text = scenario_read_config(o->nic_config, 1, &o->nic_len, &e);
}

void sweep_free_inputs(struct sweep_opts *o, const struct sweep_opts *given)
{
	if (o->scenario_text != given->scenario_text)
		free((char *)o->scenario_text);
	if (o->switch_text != given->switch_text)
		free((char *)o->switch_text);
	if (o->nic_text != given->nic_text)
		free((char *)o->nic_text);
}

/* the identity lines of a file's text (those of the kinds the identity
 * has), into a new string; NULL when out of memory */
static char *identity_lines(const char *text)
{
	static const char *const kinds[] = { "scenario_fnv1a = ", "set = ", "vary = ",
					     "repeat = ", "points = ", "shards = ", NULL };
	char *out = malloc(strlen(text) + 2);
	size_t n = 0;
	if (!out)
		return NULL;
	for (const char *l = text; *l;) {
		size_t len = strcspn(l, "\n");
		for (int k = 0; kinds[k]; k++)
			if (!strncmp(l, kinds[k], strlen(kinds[k]))) {
				memcpy(out + n, l, len);
				n += len;
				out[n++] = '\n';
				break;
			}
		l += len + (l[len] == '\n');
	}
	out[n] = '\0';
	return out;
}

/* the file's text (NUL-terminated; free it), NULL with errno */
static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	if (!fp)
		return NULL;
	size_t cap = 8192, n = 0, got;
	char *buf = malloc(cap);
	while (buf && (got = fread(buf + n, 1, cap - n - 1, fp)) > 0) {
		n += got;
		if (cap - n < 2) {
			char *b = realloc(buf, cap * 2);
			if (!b) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = b;
			cap *= 2;
		}
	}
	int e = ferror(fp) ? errno : ENOMEM;
	fclose(fp);
	if (buf && n + 1 < cap) {
		buf[n] = '\0';
		return buf;
	}
	free(buf);
	errno = e;
	return NULL;
}

/* the recorded identity of the folder differs from want: -1 with err,
 * which ends with advice */
static int compare_identity(const char *path, const char *text, const char *want,
			    const char *advice, char *err, size_t errlen)
{
	char *had = identity_lines(text);
	if (!had) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	int rc = 0;
	if (strcmp(had, want)) {
		const char *was, *now;
		const char *why = sweep_identity_difference(had, want, &was, &now);
		snprintf(err, errlen,
			 "%s holds another sweep (%s): %s (was: %.*s; now: %.*s): %s", path,
			 IDENTITY_FILE, why, (int)strcspn(was, "\n"), was, (int)strcspn(now, "\n"),
			 now, advice);
		rc = -1;
	}
	free(had);
	return rc;
}

/* dir holds a point's folder (pNNN) */
static int has_points(const char *dir)
{
	DIR *d = opendir(dir);
	int found = 0;
	for (struct dirent *de; d && !found && (de = readdir(d));)
		found = de->d_name[0] == 'p' && strspn(de->d_name + 1, "0123456789") >= 3 &&
			de->d_name[1 + strspn(de->d_name + 1, "0123456789")] == '\0';
	if (d)
		closedir(d);
	return found;
}

int sweep_claim_identity(const struct sweep_opts *o, const char *identity, char *err,
			 size_t errlen)
{
	char path[SWEEP_PATH_BYTES], tmp[SWEEP_PATH_BYTES + 96];
	size_t len = strlen(identity) + 64;
	char *want = malloc(len);
	if (!want) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (o->shard_count > 0)
		snprintf(want, len, "%sshards = %d\n", identity, o->shard_count);
	else
		snprintf(want, len, "%s", identity);
	snprintf(path, sizeof(path), "%s/%s", o->out_dir, IDENTITY_FILE);
	int rc = 0;
	if (o->resume) {
		char *text = slurp(path);
		if (text)
			rc = compare_identity(o->out_dir, text, want,
					      "--resume finishes the same sweep; give a new -o, "
					      "or leave out --resume to start over",
					      err, errlen);
		else if (errno != ENOENT) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			rc = -1;
		} else if (o->shard_count == 0 && has_points(o->out_dir)) {
			/* an older version's folder, or not a sweep's: nothing says
			 * what its runs belong to (a shard's description does) */
			snprintf(err, errlen, "%s: no %s, so its runs cannot be checked against "
				 "this sweep (a folder of an older version, or not a sweep's); "
				 "leave out --resume to run every point again, or give a new -o",
				 o->out_dir, IDENTITY_FILE);
			rc = -1;
		}
		free(text);
	}
	char host[64] = "";
	gethostname(host, sizeof(host) - 1); /* shards on several machines share DIR */
	snprintf(tmp, sizeof(tmp), "%s.%s.%ld.tmp", path, host, (long)getpid());
	FILE *fp = rc ? NULL : fopen(tmp, "w");
	if (!rc && !fp) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		rc = -1;
	}
	if (fp) {
		fprintf(fp,
			"# dcqcn-sim sweep: what the runs in this folder belong to; --resume "
			"compares it\nscenario = %s\n%s",
			o->scenario ? o->scenario : "(embedded default)", want);
		if (file_close(fp) || rename(tmp, path)) {
			snprintf(err, errlen, "%s: cannot write it: %s", path, strerror(errno));
			unlink(tmp);
			rc = -1;
		}
	}
	free(want);
	return rc;
}

int sweep_folder_is(const char *dir, const char *identity, int shards, char *err,
		    size_t errlen)
{
	char path[SWEEP_PATH_BYTES];
	snprintf(path, sizeof(path), "%s/%s", dir, IDENTITY_FILE);
	char *text = slurp(path);
	if (!text) {
		if (errno == ENOENT)
			return 0; /* written by an older version */
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	size_t len = strlen(identity) + 64;
	char *want = malloc(len);
	int rc = -1;
	if (want) {
		snprintf(want, len, "%sshards = %d\n", identity, shards);
		rc = compare_identity(dir, text, want,
				      "its shard descriptions are not of the sweep its runs belong "
				      "to; run the shards again into a new folder",
				      err, errlen);
	} else {
		snprintf(err, errlen, "out of memory");
	}
	free(want);
	free(text);
	return rc;
}

/* the lock at path names a process of this host that is gone */
static int lock_stale(const char *host, long pid, const char *me)
{
	return pid > 0 && !strcmp(host, me) && kill((pid_t)pid, 0) && errno == ESRCH;
}

int sweep_lock(const struct sweep_opts *o, char *path, size_t len, char *err, size_t errlen)
{
	char me[256] = "", host[256] = "";
	if (gethostname(me, sizeof(me) - 1))
		snprintf(me, sizeof(me), "unknown");
	if (o->shard_count > 0)
		snprintf(path, len, "%s/.shard-%d-of-%d.lock", o->out_dir, o->shard_index,
			 o->shard_count);
	else
		snprintf(path, len, "%s/.lock", o->out_dir);
	for (int attempt = 0; attempt < 3; attempt++) {
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd >= 0) {
			FILE *fp = fdopen(fd, "w");
			if (fp)
				fprintf(fp, "pid %ld host %s\n", (long)getpid(), me);
			if (!fp || file_close(fp)) {
				snprintf(err, errlen, "%s: cannot write it: %s", path,
					 strerror(errno));
				if (!fp)
					close(fd);
				unlink(path);
				return -1;
			}
			return 0;
		}
		if (errno != EEXIST) {
			snprintf(err, errlen, "%s: cannot create it: %s", path, strerror(errno));
			return -1;
		}
		long pid = 0;
		char *text = slurp(path);
		if (text && sscanf(text, "pid %ld host %255s", &pid, host) == 2 &&
		    lock_stale(host, pid, me)) {
			fprintf(stderr,
				"dcqcn-sim: sweep: %s: taking over the lock of process %ld, which "
				"is gone (a sweep that was killed)\n",
				path, pid);
			free(text);
			unlink(path);
			continue;
		}
		free(text);
		if (!pid)
			snprintf(err, errlen,
				 "%s is in use by another sweep (%s holds no pid yet): give another "
				 "-o, or remove the lock if no sweep runs there",
				 o->out_dir, path);
		else
			snprintf(err, errlen,
				 "%s is in use by another sweep (pid %ld on host %s; %s): wait for "
				 "it, or give another -o",
				 o->out_dir, pid, host, path);
		return -1;
	}
	snprintf(err, errlen, "%s: could not take the lock", path);
	return -1;
}

void sweep_run_error(const char *dir, char *buf, size_t len)
{
	char path[SWEEP_PATH_BYTES + 16];
	snprintf(path, sizeof(path), "%s/error.txt", dir);
	buf[0] = '\0';
	FILE *fp = fopen(path, "r");
	if (!fp)
		return;
	if (!fgets(buf, (int)len, fp))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(fp);
}
