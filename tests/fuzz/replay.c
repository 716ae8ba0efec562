/*
 * replay: feed saved inputs to one fuzz target's entry point without libFuzzer, so that any compiler
 * builds it and CTest replays every corpus and crash file in CI (tests/README.md, "Fuzzing").
 *
 * Usage: fuzz_replay_<target> PATH...; a PATH that is a folder stands for every regular file in it whose
 * name does not begin with '.' or "README" (the README that keeps an empty crashes folder is not an
 * input). Files are fed in name order, so a run is reproducible. Exit 0 when every input returned (a
 * crash or a broken contract aborts the process, which CTest reports with the file last named on
 * stdout), 1 on a file that cannot be read or when no input was found at all.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

/* Feed one file; returns 0, or 1 when it cannot be read. */
static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t n = 0, cap = 0, got;

	if (!f) {
		fprintf(stderr, "replay: cannot open %s\n", path);
		return 1;
	}
	do {
		if (n == cap) {
			uint8_t *grown = realloc(buf, cap = cap ? 2 * cap : 4096);
			if (!grown) {
				free(buf);
				fclose(f);
				fprintf(stderr, "replay: out of memory reading %s\n", path);
				return 1;
			}
			buf = grown;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got > 0);
	fclose(f);
	printf("replay: %s (%zu bytes)\n", path, n);
	fflush(stdout);
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Feed every input file of folder `dir`, in name order; adds the count to *fed. Returns 0 or 1. */
static int replay_dir(const char *dir, int *fed)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL, path[4096];
	int n = 0, cap = 0, rc = 0;

	if (!d) {
		fprintf(stderr, "replay: cannot open folder %s\n", dir);
		return 1;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || strncmp(e->d_name, "README", 6) == 0)
			continue;
		if (n == cap) {
			char **grown = realloc(names, (size_t)(cap = cap ? 2 * cap : 64) * sizeof *names);
			if (!grown) {
				rc = 1;
				break;
			}
			names = grown;
		}
		if (!(names[n] = strdup(e->d_name))) {
			rc = 1;
			break;
		}
		n++;
	}
	closedir(d);
	if (n > 0)
		qsort(names, (size_t)n, sizeof *names, by_name);
	for (int i = 0; i < n; i++) {
		struct stat st;
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		if (rc == 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
			rc = replay_file(path);
			++*fed;
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	int fed = 0, rc = 0;
	struct stat st;

	for (int i = 1; i < argc && rc == 0; i++) {
		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "replay: no such file or folder: %s\n", argv[i]);
			rc = 1;
		} else if (S_ISDIR(st.st_mode)) {
			rc = replay_dir(argv[i], &fed);
		} else {
			rc = replay_file(argv[i]);
			fed++;
		}
	}
	if (rc == 0 && fed == 0) {
		fprintf(stderr, "replay: no input found in the paths given\n");
		rc = 1;
	}
	if (rc == 0)
		printf("replay: %d inputs, no failure\n", fed);
	return rc;
}
