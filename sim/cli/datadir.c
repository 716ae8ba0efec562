/* datadir: find the shipped scenarios relative to the executable (see datadir.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datadir.h"
#include "status.h"

/* The directory holding the running executable, into dir; 0 if it cannot be told. */
static int exe_dir(char *dir, size_t size)
{
	char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
	char *slash;

	if (n <= 0)
		return 0;
	path[n] = '\0';
	slash = strrchr(path, '/');
	if (!slash)
		return 0;
	*slash = '\0';
	return snprintf(dir, size, "%s", path[0] ? path : "/") < (int)size;
}

static int holds_data(const char *dir)
{
	char file[PATH_MAX];

	if (snprintf(file, sizeof file, "%s/scenarios/%s", dir, DATADIR_DEFAULT_SCENARIO) >= (int)sizeof file)
		return 0;
	return access(file, R_OK) == 0;
}

int datadir_find(char *buf, size_t size)
{
	char cand[3][PATH_MAX + 32], exe[PATH_MAX];
	const char *env = getenv("GPUCAP_DATA_DIR");
	int n = 0;
	size_t o = 0;

	if (env && *env)
		snprintf(cand[n++], sizeof cand[0], "%.*s", PATH_MAX, env);
	if (exe_dir(exe, sizeof exe)) {
		snprintf(cand[n++], sizeof cand[0], "%s/../share/gpucap", exe);
		snprintf(cand[n++], sizeof cand[0], "%s/share/gpucap", exe);
	}
	for (int i = 0; i < n; i++) {
		if (holds_data(cand[i])) {
			char real[PATH_MAX];
			/* the canonical path reads better in help and messages than one with "/../" */
			snprintf(buf, size, "%s", realpath(cand[i], real) ? real : cand[i]);
			return STATUS_OK;
		}
	}
	buf[0] = '\0';
	for (int i = 0; i < n && o < size; i++)
		o += (size_t)snprintf(buf + o, size - o, "%s%s", i ? ", " : "", cand[i]);
	if (n == 0)
		snprintf(buf, size, "(the executable's own path is unknown and GPUCAP_DATA_DIR is not set)");
	return STATUS_ENOENT;
}

int datadir_default_scenario(char *buf, size_t size)
{
	char dir[3 * (PATH_MAX + 32) + 16];

	if (datadir_find(dir, sizeof dir) != STATUS_OK) {
		snprintf(buf, size, "the default scenario scenarios/%s was not found in any of: %s; give a "
			 "scenario file, or set GPUCAP_DATA_DIR to the folder that holds scenarios/",
			 DATADIR_DEFAULT_SCENARIO, dir);
		return STATUS_ENOENT;
	}
	if (snprintf(buf, size, "%s/scenarios/%s", dir, DATADIR_DEFAULT_SCENARIO) >= (int)size)
		return STATUS_ENOENT;
	return STATUS_OK;
}
