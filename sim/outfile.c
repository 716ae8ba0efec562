/* outfile: an output file written in full or not at all (see outfile.h). */
#define _XOPEN_SOURCE 700 /* realpath, fchmod */
#include "outfile.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "status.h"

/*
 * The canonical name of path, which need not exist: its folder resolved (realpath) and its last part
 * appended. False when the folder cannot be resolved or the name does not fit.
 */
static bool canonical(const char *path, char *out)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX], real[PATH_MAX];
	int n;

	if (!slash)
		n = snprintf(dir, sizeof dir, ".");
	else
		n = snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
	if (n < 0 || (size_t)n >= sizeof dir || !realpath(dir, real))
		return false;
	n = snprintf(out, PATH_MAX, "%s/%s", strcmp(real, "/") ? real : "", slash ? slash + 1 : path);
	return n >= 0 && n < PATH_MAX;
}

/*
 * Whether path names the file db: the same device and inode when both exist (./X, a symbolic link and a
 * hard link to X all match), else the same canonical name (a database that a reader would create).
 */
static bool same_file(const char *path, const char *db)
{
	struct stat a, b;
	char ca[PATH_MAX], cb[PATH_MAX];

	if (stat(path, &a) == 0 && stat(db, &b) == 0)
		return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
	return canonical(path, ca) && canonical(db, cb) && strcmp(ca, cb) == 0;
}

/* Copy path into o->target; a path longer than the struct holds is refused. */
static int copy_path(struct outfile *o, const char *path, struct diag *d)
{
	if (snprintf(o->target, sizeof o->target, "%s", path) >= (int)sizeof o->target)
		return diag_fail(d, STATUS_EUSAGE, "%.64s...: path too long", path);
	return STATUS_OK;
}

/*
 * Where the commit writes, into o->target, and with what mode: path itself when new or a regular file,
 * what it points at when it is a symbolic link to a regular file; anything else is refused.
 */
static int resolve_target(struct outfile *o, const char *path, struct diag *d)
{
	struct stat sb;
	mode_t mask;
	bool link;

	if (lstat(path, &sb) != 0) {
		if (errno == ENAMETOOLONG)
			return diag_fail(d, STATUS_EUSAGE, "%.64s...: path too long", path);
		if (errno != ENOENT)
			return diag_fail(d, STATUS_EIO, "%s: %s; nothing was written", path, strerror(errno));
		mask = umask(0);  /* umask() both sets and reads: put it back at once */
		umask(mask);
		o->mode = 0666 & ~mask;  /* as fopen() creates a file */
		return copy_path(o, path, d);
	}
	link = S_ISLNK(sb.st_mode);
	if (link && stat(path, &sb) != 0)
		return diag_fail(d, STATUS_EUSAGE, "%s: a symbolic link to nothing (%s); expected a file to write "
				 "or a new path", path, strerror(errno));
	if (!S_ISREG(sb.st_mode))
		return diag_fail(d, STATUS_EUSAGE, "%s: not a regular file (a device, a FIFO, a directory or a "
				 "socket); expected a file to write or a new path", path);
	o->mode = sb.st_mode & 07777;
	if (!link)
		return copy_path(o, path, d);
	/* the file the link points at is replaced, in its own folder, so that the link stays a link */
	if (!realpath(path, o->target))
		return diag_fail(d, STATUS_EIO, "%s: %s; nothing was written", path, strerror(errno));
	return STATUS_OK;
}

/* The temporary file's name, ".NAME.XXXXXX" in the target's folder, into o->tmp. */
static int tmp_name(struct outfile *o, struct diag *d)
{
	const char *slash = strrchr(o->target, '/');
	int dirlen = slash ? (int)(slash - o->target) + 1 : 0;
	int n = snprintf(o->tmp, sizeof o->tmp, "%.*s.%s.XXXXXX", dirlen, o->target, o->target + dirlen);

	if (n < 0 || (size_t)n >= sizeof o->tmp) {
		o->tmp[0] = '\0';
		return diag_fail(d, STATUS_EUSAGE, "%.64s...: path too long", o->shown);
	}
	return STATUS_OK;
}

int outfile_open(struct outfile *o, const char *path, const char *db, struct diag *d)
{
	int fd, status;

	memset(o, 0, sizeof *o);
	o->shown = path;
	if (strcmp(path, "-") == 0) {
		o->f = stdout;
		return STATUS_OK;
	}
	if (db && same_file(path, db))
		return diag_fail(d, STATUS_EUSAGE, "%s: this is the results database %s that is read; expected "
				 "another path for the output", path, db);
	status = resolve_target(o, path, d);
	if (status == STATUS_OK)
		status = tmp_name(o, d);
	if (status != STATUS_OK)
		return status;
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		status = diag_fail(d, STATUS_EIO, "%s: cannot create a temporary file beside it (%s); nothing was "
				   "written", path, strerror(errno));
		o->tmp[0] = '\0';
		return status;
	}
	/* mkstemp makes 0600; the new file gets the old one's mode (or fopen's), set before anything is in it */
	if (fchmod(fd, o->mode) != 0 || !(o->f = fdopen(fd, "w"))) {
		status = diag_fail(d, STATUS_EIO, "%s: cannot set up a temporary file beside it (%s); nothing was "
				   "written", path, strerror(errno));
		close(fd);
		goto out_unlink_tmp;
	}
	return STATUS_OK;

out_unlink_tmp:
	unlink(o->tmp);
	o->tmp[0] = '\0';
	return status;
}

/*
 * fsync the folder holding o->target, so that the rename itself survives a crash: 0, or the errno of the
 * failure.
 */
static int sync_folder(const struct outfile *o)
{
	const char *slash = strrchr(o->target, '/');
	char dir[PATH_MAX];
	int fd, err = 0;

	if (!slash)
		snprintf(dir, sizeof dir, ".");
	else if (slash == o->target)
		snprintf(dir, sizeof dir, "/");
	else
		snprintf(dir, sizeof dir, "%.*s", (int)(slash - o->target), o->target);
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return errno;
	/* a file system that cannot sync a folder says EINVAL: the rename is then as durable as it gets */
	if (fsync(fd) != 0 && errno != EINVAL)
		err = errno;
	close(fd);
	return err;
}

int outfile_check_stdout(struct diag *d)
{
	/* a failed write's errno is lost, but the bytes that failed stay buffered, so a flush fails again */
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return STATUS_OK;
	return diag_fail(d, STATUS_EIO, "writing standard output: %s",
			 errno ? strerror(errno) : "an earlier write failed");
}

int outfile_commit(struct outfile *o, struct diag *d)
{
	FILE *f = o->f;
	int err;

	if (f == stdout) {
		o->f = NULL;
		return outfile_check_stdout(d);
	}
	assert(f);  /* committed once, after a successful open */
	o->f = NULL;
	errno = 0;
	/* every step is tried in turn; the first that fails gives the message, and the temporary file goes */
	if (fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0) {
		err = errno;
		fclose(f);
		goto out_unlink_tmp;
	}
	if (fclose(f) != 0 || rename(o->tmp, o->target) != 0) {
		err = errno;
		goto out_unlink_tmp;
	}
	o->tmp[0] = '\0';
	err = sync_folder(o);
	if (err)
		return diag_fail(d, STATUS_EIO, "%s: written, but syncing its folder failed (%s): a crash now could "
				 "still lose it", o->shown, strerror(err));
	return STATUS_OK;

out_unlink_tmp:
	unlink(o->tmp);
	o->tmp[0] = '\0';
	return diag_fail(d, STATUS_EIO, "%s: writing failed (%s); the file was left as it was", o->shown,
			 err ? strerror(err) : "an earlier write failed");
}

void outfile_abort(struct outfile *o)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp[0])
		unlink(o->tmp);
	o->tmp[0] = '\0';
}
