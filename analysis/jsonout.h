/*
 * jsonout: text written as a JSON string (RFC 8259: quote, backslash and control characters escaped; other
 * bytes, UTF-8 included, as they are), for the commands' --json output (recommend, calibrate, run, trace).
 * focus.c builds its notes in an sqlite3_str and keeps its own.
 */
#ifndef GPUCAP_JSONOUT_H
#define GPUCAP_JSONOUT_H

#include <stdio.h>

/* s as a JSON string on out; NULL as null. */
void jsonout_string(FILE *out, const char *s);

#endif
