/* textfile: reading a small input file whole (see textfile.h). */
#include "textfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "status.h"

#define CHUNK 65536  /* bytes asked of read() at a time */

/* Read fd to its end into a new buffer of at most max_bytes (+ the NUL). */
static int read_fd(int fd, const char *path, size_t max_bytes, const char *what, char **text, size_t *len,
		   struct diag *d)
{
	size_t cap = 0, n = 0;
	char *buf = NULL, *grown;
	ssize_t got;

	for (;;) {
		if (n + CHUNK + 1 > cap) {
			cap = cap ? 2 * cap : CHUNK + 1;
			if (!(grown = realloc(buf, cap))) {
				free(buf);
				return diag_at(d, STATUS_ENOMEM, path, 0, 0, "out of memory while reading");
			}
			buf = grown;
		}
		got = read(fd, buf + n, CHUNK);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			free(buf);
			return diag_at(d, STATUS_ENOENT, path, 0, 0, "cannot read: %s", strerror(errno));
		}
		if (got == 0)
			break;
		n += (size_t)got;
		if (n > max_bytes) {
			free(buf);
			return diag_at(d, STATUS_EINPUT, path, 0, 0, "larger than %zu MiB; expected %s",
				       max_bytes >> 20, what);
		}
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return STATUS_OK;
}

int textfile_read(const char *path, size_t max_bytes, const char *what, char **text, size_t *len,
		  struct diag *d)
{
	struct stat st;
	int fd, rc;

	*text = NULL;
	*len = 0;
	/* O_NONBLOCK: opening a FIFO would otherwise wait for a writer before fstat could refuse it */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return diag_at(d, STATUS_ENOENT, path, 0, 0, "cannot open: %s", strerror(errno));
	if (fstat(fd, &st) != 0)
		rc = diag_at(d, STATUS_ENOENT, path, 0, 0, "cannot read: %s", strerror(errno));
	else if (!S_ISREG(st.st_mode))
		rc = diag_at(d, STATUS_EINPUT, path, 0, 0, "not a regular file (%s); expected %s",
			     S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO" :
			     S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : "a socket or other special file",
			     what);
	else
		rc = read_fd(fd, path, max_bytes, what, text, len, d);
	close(fd);
	return rc;
}
