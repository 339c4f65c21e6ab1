/*
 * replay.c - the fuzz corpus as a test: every file under the directories
 * given goes through the harness (fuzz_scenario.c or fuzz_trace.c, linked
 * in) once, so an input that once broke an oracle stays fixed, in the plain
 * and the sanitizer builds alike.  Prints "replay: N inputs" and exits 0,
 * or aborts on the first broken oracle.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static int replay_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		fprintf(stderr, "replay: cannot open %s\n", path);
		return -1;
	}
	size_t cap = 1 << 16, len = 0, got;
	unsigned char *buf = malloc(cap);
	while (buf && (got = fread(buf + len, 1, cap - len, fp)) > 0) {
		len += got;
		if (len == cap) {
			unsigned char *nb = realloc(buf, cap *= 2);
			if (!nb)
				free(buf);
			buf = nb;
		}
	}
	fclose(fp);
	if (!buf)
		return -1;
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int n = 0;
	for (int i = 1; i < argc; i++) {
		DIR *d = opendir(argv[i]);
		if (!d) {
			fprintf(stderr, "replay: cannot open the folder %s\n", argv[i]);
			return 1;
		}
		struct dirent *e;
		while ((e = readdir(d))) {
			char path[4096];
			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", argv[i], e->d_name);
			if (replay_file(path)) {
				closedir(d);
				return 1;
			}
			n++;
		}
		closedir(d);
	}
	printf("replay: %d inputs, every one loaded or refused with a one-line message\n", n);
	return n ? 0 : 1;
}
