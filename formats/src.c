/*
 * src.c -- opening an input, positioned reads from a file descriptor or
 * from memory, and the trace channel.  Offsets are 64-bit; nothing reads a whole dump.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compress.h"
#include "private.h"

/*
 * Open path read-only as src: a regular file or a block device, or for
 * "-" standard input (used as it is where it is a regular file, else
 * copied once to a temporary file with no name, as compressed streams
 * are).  Anything else (a directory, /dev/null, a FIFO) is unusable.
 */
enum dk_status
dk_src_open(const char *path, struct dk_src *src, struct dk_err *err)
{
	struct stat sb;
	int in = strcmp(path, "-") == 0;

	src->fd = in ? fcntl(0, F_DUPFD_CLOEXEC, 3) :
	    open(path, O_RDONLY | O_CLOEXEC);
	if (src->fd < 0 || fstat(src->fd, &sb) != 0) {
		dk_err_set(err, DK_ESYS, "%s: %s", in ? "standard input" :
		    path, strerror(errno));
		err->sys_errno = errno;
		return DK_ESYS;
	}
	if (in && !S_ISREG(sb.st_mode) && !S_ISBLK(sb.st_mode)) {
		int pipe_fd = src->fd;
		uint64_t size;
		enum dk_status st;

		st = dk_spool_fd(pipe_fd, "standard input", &src->fd, &size,
		    err);
		close(pipe_fd);
		if (st != DK_OK)
			return st;
		src->size = size;
		return DK_OK;
	}
	if (!S_ISREG(sb.st_mode) && !S_ISBLK(sb.st_mode)) {
		dk_err_set(err, DK_ESYS, "%s: is %s, not a dump (a regular "
		    "file or a block device)", path, S_ISDIR(sb.st_mode) ?
		    "a directory" : S_ISCHR(sb.st_mode) ?
		    "a character device" : S_ISFIFO(sb.st_mode) ?
		    "a FIFO (give it as - on standard input)" :
		    "a special file");
		err->sys_errno = S_ISDIR(sb.st_mode) ? EISDIR : EINVAL;
		return DK_ESYS;
	}
	src->size = (uint64_t)sb.st_size;
	if (S_ISBLK(sb.st_mode)) {
		off_t end = lseek(src->fd, 0, SEEK_END);

		src->size = end < 0 ? 0 : (uint64_t)end;
	}
	return DK_OK;
}

enum dk_status
dk_src_pread(const struct dk_src *src, void *buf, size_t len, uint64_t off,
    const char *what, struct dk_err *err)
{
	uint8_t *p = buf;
	size_t done = 0;

	if (off > src->size || len > src->size - off) {
		dk_err_at(err, DK_ETRUNC, src->name, off, "%s needs %zu bytes, "
		    "but the file ends at %#jx", what, len,
		    (uintmax_t)src->size);
		err->file = src->index;
		return DK_ETRUNC;
	}
	if (src->z != NULL)
		return dk_zsrc_pread(src->z, buf, len, off, what, err);
	if (src->fd < 0) {
		memcpy(buf, src->mem + src->base + off, len);
		return DK_OK;
	}
	while (done < len) {
		ssize_t n = pread(src->fd, p + done, len - done,
		    (off_t)(src->base + off + done));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			dk_err_at(err, DK_ESYS, src->name, off + done,
			    "reading %s: %s", what, strerror(errno));
			err->sys_errno = errno;
			err->file = src->index;
			return DK_ESYS;
		}
		if (n == 0) {
			dk_err_at(err, DK_ETRUNC, src->name, off + done,
			    "%s: file shrank while reading", what);
			err->file = src->index;
			return DK_ETRUNC;
		}
		done += (size_t)n;
	}
	return DK_OK;
}

void
dk_trace_printf(const struct dk_dump *d, const char *fmt, ...)
{
	va_list ap;

	flockfile(stderr);
	fprintf(stderr, "dumpkit: %s: ", d->src.name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	funlockfile(stderr);
}
