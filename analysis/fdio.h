/*
 * fdio: whole reads and writes on a file descriptor (the pipes between a sweep's or a recommend's parent
 * and its workers), retried on EINTR and on short counts.
 */
#ifndef GPUCAP_FDIO_H
#define GPUCAP_FDIO_H

#include <stdbool.h>
#include <stddef.h>

/* Read exactly n bytes into buf; false at end of file or on an error (what was read is then undefined). */
bool fdio_read_full(int fd, void *buf, size_t n);

/* Write all n bytes of buf; false on an error (a closed pipe: EPIPE when SIGPIPE is ignored). */
bool fdio_write_full(int fd, const void *buf, size_t n);

#endif
