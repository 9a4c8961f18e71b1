/*
 * sink.c -- sequential output for the converters: a regular file, where
 * runs of zeros become holes and data is copied between data extents
 * with copy_file_range, or a pipe, where everything is written.
 *
 * Small writes (ELF and program headers, note headers: a million of
 * them for a dump of a million runs) are gathered in the sink's buffer
 * and written DK_SINK_BUF bytes at a time; the buffer is flushed before
 * a hole, a copy_file_range, and at the end.  Each data extent of the
 * input is one copy_file_range; where the kernel cannot (a pipe, a
 * compressor, another file system), the data goes through the buffer.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "minidump.h"

#define	SINK_CHUNK	(1u << 20)	/* reads and writes of long copies */

void
dk_sink_init(struct dk_sink *s, int fd, const char *name)
{
	struct stat st;

	int fl = fcntl(fd, F_GETFL);

	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->name = name;
	s->ext_fd = -1;
	/*
	 * An O_APPEND descriptor (">> file") is written like a pipe: Linux
	 * pwrite appends whatever the offset, which would drop the holes.
	 */
	s->seekable = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    fl >= 0 && !(fl & O_APPEND) && lseek(fd, 0, SEEK_CUR) == 0;
}

static enum dk_status
sys_error(struct dk_sink *s, const char *what, struct dk_err *err)
{
	int e = errno;

	dk_err_at(err, DK_ESYS, s->name, s->pos, "%s: %s", what, strerror(e));
	err->sys_errno = e;
	return DK_ESYS;
}

static void
progress(struct dk_sink *s, uint64_t n)
{
	s->done += n;
	if (s->progress != NULL)
		s->progress(s->progress_arg, s->done);
}

/* Write len bytes at file offset off (seekable) or next (pipe). */
static enum dk_status
put(struct dk_sink *s, const uint8_t *p, size_t len, uint64_t off,
    struct dk_err *err)
{
	if (s->filter != NULL)		/* not seekable: bytes in order */
		return s->filter(s->filter_arg, p, len, err);
	while (len > 0) {
		ssize_t n = s->seekable ? pwrite(s->fd, p, len, (off_t)off) :
		    write(s->fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return sys_error(s, "write", err);
		}
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return DK_OK;
}

/* Write the buffered bytes, which end at s->pos. */
static enum dk_status
flush(struct dk_sink *s, struct dk_err *err)
{
	size_t n = s->nbuf;

	s->nbuf = 0;
	return n == 0 ? DK_OK : put(s, s->buf, n, s->pos - n, err);
}

enum dk_status
dk_sink_write(struct dk_sink *s, const void *buf, size_t len,
    struct dk_err *err)
{
	const uint8_t *p = buf;
	enum dk_status st;

	if (len > sizeof(s->buf) - s->nbuf) {
		if ((st = flush(s, err)) != DK_OK)
			return st;
		if (len >= sizeof(s->buf)) {
			if ((st = put(s, p, len, s->pos, err)) != DK_OK)
				return st;
			s->pos += len;
			progress(s, len);
			return DK_OK;
		}
	}
	memcpy(s->buf + s->nbuf, p, len);
	s->nbuf += len;
	s->pos += len;
	progress(s, len);
	return DK_OK;
}

enum dk_status
dk_sink_zero(struct dk_sink *s, uint64_t len, struct dk_err *err)
{
	static const uint8_t zeros[65536];
	enum dk_status st;

	if (s->seekable) {
		if ((st = flush(s, err)) != DK_OK)
			return st;
		s->pos += len;		/* a hole; dk_sink_finish sets the size */
		progress(s, len);
		return DK_OK;
	}
	while (len > 0) {
		size_t n = len < sizeof(zeros) ? (size_t)len : sizeof(zeros);

		if ((st = dk_sink_write(s, zeros, n, err)) != DK_OK)
			return st;
		len -= n;
	}
	return DK_OK;
}

/*
 * Copy [off, off + len) of a file with read and write: a short stretch
 * read into the sink's buffer after what is buffered (written when the
 * buffer is full, before a hole, at the end), a long one in
 * SINK_CHUNK-byte reads and writes.
 */
static enum dk_status
copy_slow(struct dk_sink *s, const struct dk_src *src, uint64_t off,
    uint64_t len, struct dk_err *err)
{
	uint8_t *big = NULL;
	enum dk_status st = DK_OK;

	if (len > sizeof(s->buf) && (st = flush(s, err)) == DK_OK)
		big = malloc(SINK_CHUNK);
	while (st == DK_OK && len > 0) {
		size_t room = big != NULL ? SINK_CHUNK : sizeof(s->buf) -
		    s->nbuf;
		size_t n = len < room ? (size_t)len : room;

		if (n == 0) {
			st = flush(s, err);
			continue;
		}
		st = dk_src_pread(src, big != NULL ? big : s->buf + s->nbuf, n,
		    off, "page data", err);
		if (st == DK_OK && big != NULL)
			st = put(s, big, n, s->pos, err);
		if (st != DK_OK)
			break;
		if (big == NULL)
			s->nbuf += n;
		s->pos += n;
		progress(s, n);
		off += n;
		len -= n;
	}
	free(big);
	return st;
}

/*
 * Copy one data extent: one copy_file_range (the kernel moves the
 * bytes, and a call is all an extent costs, a page or a gigabyte)
 * where the sink is a regular file and the kernel can; else read and
 * write.  Data extents are separated by holes, and a hole in a regular
 * file ends a write, so gathering small extents in the buffer saved no
 * write: it only added a read per extent (on a 1 GiB dump of 48k
 * extents, 77k preads and 48k pwrites became 48k copy_file_range).
 */
static enum dk_status
copy_extent(struct dk_sink *s, const struct dk_src *src, uint64_t off,
    uint64_t len, struct dk_err *err)
{
	enum dk_status st;

	/* copy_file_range writes at s->pos: what is buffered goes first. */
	if (s->seekable && !s->no_cfr && len > 0 &&
	    (st = flush(s, err)) != DK_OK)
		return st;
	while (s->seekable && !s->no_cfr && len > 0) {
		loff_t in = (loff_t)(src->base + off), out = (loff_t)s->pos;
		size_t want = len < (1u << 30) ? (size_t)len : (1u << 30);
		ssize_t n = copy_file_range(src->fd, &in, s->fd, &out, want, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* Not supported here (EXDEV, ENOSYS, EINVAL...). */
			s->no_cfr = 1;
			break;
		}
		off += (uint64_t)n;
		len -= (uint64_t)n;
		s->pos += (uint64_t)n;
		progress(s, (uint64_t)n);
	}
	return len > 0 ? copy_slow(s, src, off, len, err) : DK_OK;
}

/*
 * Copy from a one-pass stream (decompress.c): the bytes as they are
 * decoded, without a copy; in a file, whole zero blocks (of the
 * stream's offsets, as the spool's holes were) become holes.  The copy
 * starts the
 * sequential pass: what was decoded before it stays kept.
 */
static enum dk_status
copy_stream(struct dk_sink *s, const struct dk_src *src, uint64_t off,
    uint64_t len, struct dk_err *err)
{
	enum dk_status st = DK_OK;

	dk_src_sequential(src);
	while (st == DK_OK && len > 0) {
		const uint8_t *p;
		size_t n = len < SINK_CHUNK ? (size_t)len : SINK_CHUNK;

		if ((st = dk_zsrc_peek(src->z, off, &p, &n, err)) != DK_OK)
			return st;
		if (n == 0)		/* spooled: read it as a file */
			return copy_slow(s, src, off, len, err);
		/*
		 * A pipe or a compressor takes the zeros as bytes: the
		 * stretch goes as it was decoded, with no scan and no copy.
		 */
		if (!s->seekable) {
			st = dk_sink_write(s, p, n, err);
			off += n;
			len -= n;
			continue;
		}
		for (size_t i = 0; st == DK_OK && i < n; ) {
			size_t k = DK_ZBLOCK - (size_t)((off + i) % DK_ZBLOCK);
			size_t j = i;
			int zero;

			if (k > n - i)
				k = n - i;
			zero = dk_all_zero(p + i, k);
			do {
				j += k;
				k = n - j < DK_ZBLOCK ? n - j : DK_ZBLOCK;
			} while (k > 0 && dk_all_zero(p + j, k) == zero);
			st = zero ? dk_sink_zero(s, j - i, err) :
			    dk_sink_write(s, p + i, j - i, err);
			i = j;
		}
		off += n;
		len -= n;
	}
	return st;
}

/*
 * The extent of src at off, in file offsets: *data (>= off) where the
 * data starts (end: a hole to the end), *hole where it ends, -1 if the
 * file system cannot tell.  The last answer is kept: the pages of a
 * --drop-zero portable file are one extent the rebuild copies run by
 * run, and on tmpfs each SEEK_HOLE scans to the end of it (581 s for
 * 2 GiB); asked once, every run after is inside the known extent.
 */
static int
extent_at(struct dk_sink *s, const struct dk_src *src, uint64_t off,
    uint64_t end, uint64_t *data, uint64_t *hole)
{
	off_t x, h;

	if (s->ext_fd == src->fd && s->ext_base == src->base &&
	    off >= s->ext_from && off < s->ext_hole) {
		*data = off > s->ext_data ? off : s->ext_data;
		*hole = s->ext_hole;
		return 0;
	}
	s->seeks++;
	x = lseek(src->fd, (off_t)(src->base + off), SEEK_DATA);
	if (x < 0 && errno == ENXIO) {
		*data = *hole = UINT64_MAX;		/* a hole to the end */
		return 0;
	}
	if (x < 0)
		return -1;
	s->seeks++;
	h = lseek(src->fd, x, SEEK_HOLE);
	*data = (uint64_t)x - src->base;
	*hole = h >= 0 ? (uint64_t)h - src->base : end;
	if (h >= 0) {
		s->ext_fd = src->fd;
		s->ext_base = src->base;
		s->ext_from = off;
		s->ext_data = *data;
		s->ext_hole = *hole;
	}
	return 0;
}

enum dk_status
dk_sink_copy(struct dk_sink *s, const struct dk_src *src, uint64_t off,
    uint64_t len, struct dk_err *err)
{
	uint64_t end = off + len, data, hole;
	enum dk_status st;

	if (off > src->size || len > src->size - off)
		return dk_err_at(err, DK_ETRUNC, src->name, off, "%#jx bytes "
		    "of page data needed, the file ends at %#jx",
		    (uintmax_t)len, (uintmax_t)src->size);
	if (src->z != NULL)
		return copy_stream(s, src, off, len, err);
	if (src->fd < 0)
		return dk_sink_write(s, src->mem + src->base + off,
		    (size_t)len, err);
	/* Holes of the input stay holes: copy the data extents only. */
	while (off < end) {
		/* lseek speaks file offsets; the window starts at base. */
		if (extent_at(s, src, off, end, &data, &hole) != 0)
			return copy_extent(s, src, off, end - off, err);
		if (data > end)
			data = end;
		if (data > off && (st = dk_sink_zero(s, data - off, err)) !=
		    DK_OK)
			return st;
		off = data;
		if (off >= end)
			break;
		if (hole > end)
			hole = end;
		if ((st = copy_extent(s, src, off, hole - off, err)) != DK_OK)
			return st;
		off = hole;
	}
	return DK_OK;
}

enum dk_status
dk_sink_finish(struct dk_sink *s, struct dk_err *err)
{
	enum dk_status st;

	if ((st = flush(s, err)) != DK_OK)
		return st;
	if (s->seekable && ftruncate(s->fd, (off_t)s->pos) != 0)
		return sys_error(s, "setting the file size", err);
	return DK_OK;
}
