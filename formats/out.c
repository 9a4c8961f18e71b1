/*
 * out.c -- output files that appear whole or not at all.
 *
 * The data goes to a temporary file in the target's directory (so the
 * final rename stays on one file system), is fsynced, and is renamed into
 * place.  Without --force an existing target is never replaced: the final
 * step is link(2), which fails if the name exists, then unlink of the
 * temporary name.  With --force only a regular file is replaced: a
 * symlink, a device, a FIFO, a socket or a directory at the target is
 * refused (a tool run as root must not turn /dev/sda into a file).
 *
 * DUMPKIT_NO_FSYNC=1 in the environment skips the fsync, for test suites
 * that write many large files and do not test durability; nothing else
 * should set it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "minidump.h"

/* What a non-regular file is, for the message that refuses it. */
static const char *
file_kind(mode_t m)
{
	return S_ISLNK(m) ? "a symbolic link" : S_ISDIR(m) ? "a directory" :
	    S_ISCHR(m) ? "a character device" : S_ISBLK(m) ?
	    "a block device" : S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ?
	    "a socket" : "a special file";
}

enum dk_status
dk_out_open(struct dk_out *o, const char *path, int force, struct dk_err *err)
{
	struct stat st;
	size_t n = strlen(path);

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->force = force;
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		dk_err_set(err, DK_ESYS, "%s: is %s, not a regular file: "
		    "dumpkit replaces only regular files%s", path,
		    file_kind(st.st_mode), S_ISDIR(st.st_mode) ? "" :
		    " (-o - writes to standard output)");
		err->sys_errno = EEXIST;
		return DK_ESYS;
	}
	if (!force && lstat(path, &st) == 0) {
		dk_err_set(err, DK_ESYS, "%s: file exists (use --force to "
		    "replace it)", path);
		err->sys_errno = EEXIST;
		return DK_ESYS;
	}
	o->path = strdup(path);
	o->tmp = malloc(n + sizeof(".dumpkit-XXXXXX"));
	if (o->path == NULL || o->tmp == NULL) {
		dk_out_abort(o);
		return dk_err_set(err, DK_ENOMEM, "out of memory");
	}
	memcpy(o->tmp, path, n);
	memcpy(o->tmp + n, ".dumpkit-XXXXXX", sizeof(".dumpkit-XXXXXX"));
	o->fd = mkstemp(o->tmp);
	if (o->fd < 0) {
		dk_err_set(err, DK_ESYS, "%s: creating a temporary file: %s",
		    o->tmp, strerror(errno));
		err->sys_errno = errno;
		free(o->tmp);
		o->tmp = NULL;
		dk_out_abort(o);
		return DK_ESYS;
	}
	(void)fchmod(o->fd, 0644);
	return DK_OK;
}

int
dk_out_syncs(void)
{
	const char *nosync = getenv("DUMPKIT_NO_FSYNC");

	return nosync == NULL || strcmp(nosync, "1") != 0;
}

/* 0, or -1 with errno: fsync unless done or DUMPKIT_NO_FSYNC=1. */
static int
out_fsync(struct dk_out *o)
{
	if (o->synced || !dk_out_syncs())
		return 0;
	if (fsync(o->fd) != 0)
		return -1;
	o->synced = 1;
	return 0;
}

enum dk_status
dk_out_sync(struct dk_out *o, struct dk_err *err)
{
	int e;

	if (out_fsync(o) == 0)
		return DK_OK;
	e = errno;
	dk_err_set(err, DK_ESYS, "%s: fsync: %s", o->path, strerror(e));
	err->sys_errno = e;
	dk_out_abort(o);
	return DK_ESYS;
}

enum dk_status
dk_out_commit(struct dk_out *o, struct dk_err *err)
{
	const char *what = "fsync";
	struct stat st;
	int rc;

	rc = out_fsync(o);
	if (rc == 0) {
		what = "close";
		rc = close(o->fd);
		o->fd = -1;
	}
	if (rc == 0) {
		what = "rename";
		/* Checked again: the target may have changed since open. */
		if (lstat(o->path, &st) == 0 && !S_ISREG(st.st_mode)) {
			what = file_kind(st.st_mode);
			errno = EEXIST;
			rc = -1;
		} else if (o->force)
			rc = rename(o->tmp, o->path);
		else if ((rc = link(o->tmp, o->path)) == 0)
			(void)unlink(o->tmp);
		else if (errno != EEXIST) {
			/* A file system without hard links: check, rename. */
			if (lstat(o->path, &st) == 0)
				errno = EEXIST;
			else
				rc = rename(o->tmp, o->path);
		}
	}
	if (rc != 0) {
		int e = errno;

		if (what != NULL && strncmp(what, "a ", 2) == 0)
			dk_err_set(err, DK_ESYS, "%s: became %s: dumpkit "
			    "replaces only regular files", o->path, what);
		else
			dk_err_set(err, DK_ESYS, "%s: %s: %s", o->path, what,
			    e == EEXIST ? "file exists (use --force to "
			    "replace it)" : strerror(e));
		err->sys_errno = e;
		dk_out_abort(o);
		return DK_ESYS;
	}
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
	return DK_OK;
}

void
dk_out_abort(struct dk_out *o)
{
	if (o->fd >= 0)
		close(o->fd);
	if (o->tmp != NULL)
		(void)unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	o->fd = -1;
	o->tmp = o->path = NULL;
}
