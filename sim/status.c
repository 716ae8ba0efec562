/* status: see status.h. */
#include "status.h"

const char *status_str(int status)
{
	switch (status) {
	case STATUS_OK: return "success";
	case STATUS_DONE: return "end of stream";
	case STATUS_EINPUT: return "invalid input";
	case STATUS_EUSAGE: return "invalid usage";
	case STATUS_ENOENT: return "file not found or unreadable";
	case STATUS_ENOMEM: return "out of memory";
	case STATUS_EIO: return "I/O error";
	case STATUS_EDB: return "database error";
	case STATUS_EINTERNAL: return "internal error";
	}
	return "unknown status";
}

int status_is_user_error(int status)
{
	return status == STATUS_EINPUT || status == STATUS_EUSAGE || status == STATUS_ENOENT;
}
