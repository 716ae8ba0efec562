/*
 * fuzz.c: the helpers of fuzz.h, shared by every target and by the replay driver.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>

#include "fuzz.h"

static char temp_path[256];  /* this process's temporary file; "" until the first fuzz_file */

static void remove_temp(void)
{
	if (temp_path[0])
		unlink(temp_path);
}

char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	fuzz_check(s != NULL, "out of memory in the harness");
	if (size)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

const char *fuzz_file(const uint8_t *data, size_t size, const char *tag)
{
	FILE *f;

	if (!temp_path[0]) {
		const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
		snprintf(temp_path, sizeof temp_path, "%s/gpucap-fuzz-%s-%ld", dir, tag, (long)getpid());
		atexit(remove_temp);
	}
	f = fopen(temp_path, "wb");
	fuzz_check(f != NULL, "cannot create the temporary file");
	fuzz_check(size == 0 || fwrite(data, 1, size, f) == size, "cannot write the temporary file");
	fuzz_check(fclose(f) == 0, "cannot close the temporary file");
	return temp_path;
}

void fuzz_check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz: contract broken: %s\n", what);
		abort();
	}
}

void fuzz_setup(void)
{
	gsl_set_error_handler_off();
}
