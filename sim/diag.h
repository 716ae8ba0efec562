/*
 * diag: one error message, carried beside a status code.
 *
 * A struct diag is caller-owned storage for the message of the most recent failure. Functions that can fail
 * on bad input take a `struct diag *` and, when they fail, write one line into it: "FILE:LINE:COL: what was
 * wrong; expected what" (the position parts are left out when unknown). The message never ends in a newline.
 * diag_fail() writes the message and returns the status it is given, so a failure is one statement:
 *     return diag_at(d, STATUS_EINPUT, path, line, col, "expected a positive number, got '%s'", text);
 * A NULL diag is allowed everywhere: the message is then dropped.
 */
#ifndef GPUCAP_DIAG_H
#define GPUCAP_DIAG_H

#include <stddef.h>

#define DIAG_MSG_MAX 1024

struct diag {
	char msg[DIAG_MSG_MAX]; /* the message, NUL-terminated; "" when nothing failed */
};

/* Empty the message. */
void diag_clear(struct diag *d);

/* Write a printf-style message without a position and return status. */
int diag_fail(struct diag *d, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Write "file:line:col: message" and return status. line and col count from 1; a value of 0 leaves that
 * part out ("file:line: message", "file: message"); a NULL file leaves the whole position out.
 */
int diag_at(struct diag *d, int status, const char *file, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

#endif
