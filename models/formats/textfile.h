/*
 * textfile: a small input file (a scenario, a sweep file) read whole into memory, refusing at once what is
 * not a regular file.
 *
 * A FIFO opened for reading waits for a writer, and then for its end, forever if none comes; a device such
 * as /dev/zero never ends; a directory cannot be read. So the file is opened without waiting (O_NONBLOCK,
 * which a regular file ignores) and checked with fstat before a byte is read.
 *
 * Errors, each one line in the diag naming the file: STATUS_EINPUT "PATH: not a regular file; expected
 * WHAT" or "PATH: larger than N MiB; expected WHAT"; STATUS_ENOENT "PATH: cannot open: REASON" or
 * "PATH: cannot read: REASON"; STATUS_ENOMEM.
 */
#ifndef GPUCAP_TEXTFILE_H
#define GPUCAP_TEXTFILE_H

#include <stddef.h>

#include "diag.h"

/*
 * Read the regular file at `path` (borrowed) into *text (returns owned; NUL-terminated after its *len
 * bytes, which may themselves hold a NUL). `max_bytes` (a multiple of 1 MiB) bounds its size; `what`
 * (borrowed) describes the file expected, for the messages ("a scenario file"). On failure *text is NULL.
 */
int textfile_read(const char *path, size_t max_bytes, const char *what, char **text, size_t *len,
		  struct diag *d);

#endif
