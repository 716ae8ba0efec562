/*
 * status: the project's status codes and their words.
 *
 * Every action in gpucap returns an int: 0 (STATUS_OK) on success, STATUS_DONE (a positive value) for the
 * normal end of a stream, or a negative STATUS_E* code. status_str() turns any of them into a short phrase.
 * The detailed message (file, line, column, what was expected) travels beside the code in a struct diag
 * (diag.h); the code says what kind of failure it was, so the command line can pick an exit code from it.
 */
#ifndef GPUCAP_STATUS_H
#define GPUCAP_STATUS_H

enum {
	STATUS_OK = 0,
	STATUS_DONE = 1,       /* a stream ended normally (not an error) */
	STATUS_EINPUT = -1,    /* malformed or out-of-range input: scenario, trace, override */
	STATUS_EUSAGE = -2,    /* bad command line */
	STATUS_ENOENT = -3,    /* a named input file does not exist or cannot be read */
	STATUS_ENOMEM = -4,    /* out of memory */
	STATUS_EIO = -5,       /* an I/O error while writing output */
	STATUS_EDB = -6,       /* the results database refused an operation */
	STATUS_EINTERNAL = -7  /* a library failed in a way we did not expect */
};

/* A short English phrase for a status code; never NULL, never owned by the caller. */
const char *status_str(int status);

/* True for the failures caused by what the user gave us (exit code 2), false otherwise (exit code 1). */
int status_is_user_error(int status);

#endif
