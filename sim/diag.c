/* diag: see diag.h. */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>

void diag_clear(struct diag *d)
{
	if (d)
		d->msg[0] = '\0';
}

int diag_fail(struct diag *d, int status, const char *fmt, ...)
{
	va_list ap;

	if (!d)
		return status;
	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof d->msg, fmt, ap);
	va_end(ap);
	return status;
}

int diag_at(struct diag *d, int status, const char *file, int line, int col, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (!d)
		return status;
	if (file && line > 0 && col > 0)
		n = snprintf(d->msg, sizeof d->msg, "%s:%d:%d: ", file, line, col);
	else if (file && line > 0)
		n = snprintf(d->msg, sizeof d->msg, "%s:%d: ", file, line);
	else if (file)
		n = snprintf(d->msg, sizeof d->msg, "%s: ", file);
	if (n < 0 || (size_t)n >= sizeof d->msg)
		n = 0;
	va_start(ap, fmt);
	vsnprintf(d->msg + n, sizeof d->msg - (size_t)n, fmt, ap);
	va_end(ap);
	return status;
}
