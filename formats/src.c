/*
 * src.c -- positioned reads from a file descriptor or from memory, and
 * the trace channel.  Offsets are 64-bit; nothing reads a whole dump.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "private.h"

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
