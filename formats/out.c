/*
 * out.c -- output files that appear whole or not at all.
 *
 * The data goes to a temporary file in the target's directory (so the
 * final rename stays on one file system), is fsynced, and is renamed into
 * place.  Without --force an existing target is never replaced: the final
 * step is link(2), which fails if the name exists, then unlink of the
 * temporary name.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "minidump.h"

enum dk_status
dk_out_open(struct dk_out *o, const char *path, int force, struct dk_err *err)
{
	struct stat st;
	size_t n = strlen(path);

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->force = force;
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

enum dk_status
dk_out_commit(struct dk_out *o, struct dk_err *err)
{
	const char *what = "fsync";
	int rc;

	rc = fsync(o->fd);
	if (rc == 0) {
		what = "close";
		rc = close(o->fd);
		o->fd = -1;
	}
	if (rc == 0) {
		what = "rename";
		if (o->force)
			rc = rename(o->tmp, o->path);
		else if ((rc = link(o->tmp, o->path)) == 0)
			(void)unlink(o->tmp);
		else if (errno != EEXIST) {
			/* A file system without hard links: check, rename. */
			struct stat st;

			if (lstat(o->path, &st) == 0)
				errno = EEXIST;
			else
				rc = rename(o->tmp, o->path);
		}
	}
	if (rc != 0) {
		int e = errno;

		dk_err_set(err, DK_ESYS, "%s: %s: %s", o->path, what,
		    e == EEXIST ? "file exists (use --force to replace it)" :
		    strerror(e));
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
