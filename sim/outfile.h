/*
 * outfile: an output file written in full or not at all (sim/cli/gpucap.1, "OUTPUT FILES").
 *
 * outfile_open() checks the path and creates a temporary file ".NAME.XXXXXX" in the target's own folder;
 * the caller writes to o->f; outfile_commit() flushes it, fsyncs it, closes it and renames it over the
 * target, then fsyncs the folder, so that the target holds either its old content or the whole new one,
 * even after a crash or a power cut. outfile_abort() removes the temporary file. On any failure, of the
 * caller's or of the commit, the target is never truncated, removed or changed, and no temporary file is
 * left (a process killed while writing leaves its ".NAME.XXXXXX" behind: nothing else).
 *
 * Paths refused before anything is created (STATUS_EUSAGE, a message naming the path):
 *   - the results database the command reads (the same file by device and inode when both exist, else the
 *     same canonical path: ./X, a symbolic link or a hard link to the database all count);
 *   - an existing path that is not a regular file (a device such as /dev/null, a FIFO, a directory, a
 *     socket): writing there would never be a file of results, and the old way (truncate, then remove on
 *     failure) unlinked /dev/null when run as root. This is the rule --db applies (analysis/store.c);
 *   - a symbolic link that points nowhere.
 * A symbolic link to a regular file is followed: what it points at is replaced (in that file's folder) and
 * the link stays a link, as when the file was written through the link with fopen().
 * "-" is standard output: written directly (nothing to rename); the commit flushes it and checks it.
 *
 * The new file gets the mode of the file it replaces; a new path gets 0666 less the umask, as fopen()
 * would create it. Its owner is whoever runs the command (a rename makes a new file).
 *
 * Errors: STATUS_EUSAGE for the refusals above, STATUS_EIO for a failure to create, write, sync or rename
 * (the message names the path and says the target was left as it was). Nothing is allocated: the paths
 * live in the struct, and a path longer than PATH_MAX is refused.
 */
#ifndef GPUCAP_OUTFILE_H
#define GPUCAP_OUTFILE_H

#include <limits.h>
#include <stdio.h>
#include <sys/types.h>

#include "diag.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

struct outfile {
	FILE *f;                 /* where to write: the temporary file, or stdout; NULL once committed/aborted */
	const char *shown;       /* the path as the user gave it, for messages (borrowed) */
	char target[PATH_MAX];   /* the file the commit replaces (a symbolic link resolved) */
	char tmp[PATH_MAX];      /* the temporary file beside it; "" for stdout or when there is none */
	mode_t mode;             /* the permissions the new file gets */
};

/*
 * Check path (borrowed; "-" for standard output) against the rules above and against db (borrowed; the
 * results database the command reads, NULL if none), then create the temporary file and point o->f at it.
 * On failure nothing was created and o->f is NULL (outfile_abort is then a no-op).
 */
int outfile_open(struct outfile *o, const char *path, const char *db, struct diag *d);

/*
 * Finish: flush, fsync and close the temporary file, rename it over the target, fsync the folder. On
 * failure the temporary file is removed and the target is as it was before outfile_open (unless only the
 * folder's fsync failed: then the new file is in place and the message says so). For stdout: flush it
 * and report a failed write ("writing standard output: ..."). Called at most once, after a successful
 * outfile_open (a second call is a bug and asserts); o->f is NULL afterwards either way.
 */
int outfile_commit(struct outfile *o, struct diag *d);

/*
 * Flush standard output and check its error flag: STATUS_OK, or STATUS_EIO with "writing standard output:
 * <cause>". For a command that must know before it returns (main.c checks again when it closes stdout).
 */
int outfile_check_stdout(struct diag *d);

/* Give up: close and remove the temporary file; the target is untouched. Safe after commit or twice. */
void outfile_abort(struct outfile *o);

#endif
