/* fdio: see fdio.h. */
#include "fdio.h"

#include <errno.h>
#include <unistd.h>

bool fdio_read_full(int fd, void *buf, size_t n)
{
	for (size_t got = 0; got < n;) {
		ssize_t k = read(fd, (char *)buf + got, n - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		got += (size_t)k;
	}
	return true;
}

bool fdio_write_full(int fd, const void *buf, size_t n)
{
	for (size_t put = 0; put < n;) {
		ssize_t k = write(fd, (const char *)buf + put, n - put);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		put += (size_t)k;
	}
	return true;
}
