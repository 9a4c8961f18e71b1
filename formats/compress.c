/*
 * compress.c -- the compressing writer: one gzip member, zstd frame or
 * xz stream, written sequentially to a descriptor (a pipe will do).
 *
 * The output is a function of the input only: fixed levels
 * (compress.h), a gzip header with no name and mtime 0 (zlib's default
 * header), single-threaded zstd with its checksum on (as the zstd tool
 * writes), xz with CRC64 (as the xz tool writes).  So fixtures and
 * conversions are reproducible byte for byte.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <lzma.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "compress.h"
#include "minidump.h"

#define	ZOUT_BUF	(256u << 10)
#define	ZOUT_IN_MAX	(1u << 30)	/* bytes handed to a library per call */

struct dk_zout {
	enum dk_comp	 kind;
	int		 fd;
	const char	*name;
	int		 live;
	z_stream	 z;
	ZSTD_CCtx	*zc;
	lzma_stream	 x;
	uint64_t	 nin, nout;
	uint8_t		 buf[ZOUT_BUF];
};

static enum dk_status
emit(struct dk_zout *c, const uint8_t *p, size_t n, struct dk_err *err)
{
	while (n > 0) {
		ssize_t w = write(c->fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int e = w < 0 ? errno : ENOSPC;

			dk_err_at(err, DK_ESYS, c->name, c->nout, "writing "
			    "the %s stream: %s", dk_comp_name(c->kind),
			    strerror(e));
			err->sys_errno = e;
			return DK_ESYS;
		}
		p += w;
		n -= (size_t)w;
		c->nout += (uint64_t)w;
	}
	return DK_OK;
}

enum dk_status
dk_zout_open(struct dk_zout **cp, enum dk_comp kind, int fd,
    const char *name, struct dk_err *err)
{
	static const lzma_stream xinit = LZMA_STREAM_INIT;
	struct dk_zout *c = calloc(1, sizeof(*c));
	int ok;

	*cp = NULL;
	if (c == NULL)
		return dk_err_set(err, DK_ENOMEM, "%s: out of memory", name);
	c->kind = kind;
	c->fd = fd;
	c->name = name;
	switch (kind) {
	case DK_COMP_GZIP:
		/* windowBits 16 + 15: a gzip wrapper, default header. */
		ok = deflateInit2(&c->z, DK_COMP_GZIP_LEVEL, Z_DEFLATED,
		    16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK;
		break;
	case DK_COMP_ZSTD:
		c->zc = ZSTD_createCCtx();
		ok = c->zc != NULL && !ZSTD_isError(ZSTD_CCtx_setParameter(
		    c->zc, ZSTD_c_compressionLevel, DK_COMP_ZSTD_LEVEL)) &&
		    !ZSTD_isError(ZSTD_CCtx_setParameter(c->zc,
		    ZSTD_c_checksumFlag, 1));
		break;
	case DK_COMP_XZ:
		c->x = xinit;
		ok = lzma_easy_encoder(&c->x, DK_COMP_XZ_PRESET,
		    LZMA_CHECK_CRC64) == LZMA_OK;
		break;
	default:
		free(c);
		return dk_err_set(err, DK_EINVAL, "%s: not a compression kind",
		    name);
	}
	c->live = ok;
	if (!ok) {
		dk_zout_free(c);
		return dk_err_set(err, DK_ENOMEM, "%s: %s encoder: out of memory",
		    name, dk_comp_name(kind));
	}
	*cp = c;
	return DK_OK;
}

/* Feed len bytes (finish: and end the stream); write what comes out. */
static enum dk_status
step(struct dk_zout *c, const uint8_t *p, size_t len, int finish,
    struct dk_err *err)
{
	enum dk_status st;
	int done = 0;

	while (!done) {
		size_t used = 0, made = 0;
		const char *why = NULL;

		if (c->kind == DK_COMP_GZIP) {
			int rc;

			c->z.next_in = (Bytef *)(uintptr_t)p;
			c->z.avail_in = (uInt)len;
			c->z.next_out = c->buf;
			c->z.avail_out = sizeof(c->buf);
			rc = deflate(&c->z, finish ? Z_FINISH : Z_NO_FLUSH);
			used = len - c->z.avail_in;
			made = sizeof(c->buf) - c->z.avail_out;
			if (rc == Z_STREAM_ERROR)
				why = "deflate: stream error";
			done = finish ? rc == Z_STREAM_END :
			    c->z.avail_in == 0 && c->z.avail_out != 0;
		} else if (c->kind == DK_COMP_ZSTD) {
			ZSTD_inBuffer ib = { p, len, 0 };
			ZSTD_outBuffer ob = { c->buf, sizeof(c->buf), 0 };
			size_t rc = ZSTD_compressStream2(c->zc, &ob, &ib,
			    finish ? ZSTD_e_end : ZSTD_e_continue);

			if (ZSTD_isError(rc))
				why = ZSTD_getErrorName(rc);
			used = ib.pos;
			made = ob.pos;
			done = finish ? rc == 0 : ib.pos == ib.size;
		} else {
			lzma_ret rc;

			c->x.next_in = p;
			c->x.avail_in = len;
			c->x.next_out = c->buf;
			c->x.avail_out = sizeof(c->buf);
			rc = lzma_code(&c->x, finish ? LZMA_FINISH : LZMA_RUN);
			used = len - c->x.avail_in;
			made = sizeof(c->buf) - c->x.avail_out;
			if (rc != LZMA_OK && rc != LZMA_STREAM_END)
				why = rc == LZMA_MEM_ERROR ? "out of memory" :
				    "liblzma encoder error";
			done = finish ? rc == LZMA_STREAM_END :
			    c->x.avail_in == 0 && c->x.avail_out != 0;
		}
		if (why != NULL)
			return dk_err_set(err, DK_ESYS, "%s: %s encoder: %s",
			    c->name, dk_comp_name(c->kind), why);
		p += used;
		len -= used;
		c->nin += used;
		if (made > 0 && (st = emit(c, c->buf, made, err)) != DK_OK)
			return st;
	}
	return DK_OK;
}

enum dk_status
dk_zout_write(struct dk_zout *c, const void *buf, size_t len,
    struct dk_err *err)
{
	const uint8_t *p = buf;
	enum dk_status st;

	while (len > 0) {
		size_t n = len < ZOUT_IN_MAX ? len : ZOUT_IN_MAX;

		if ((st = step(c, p, n, 0, err)) != DK_OK)
			return st;
		p += n;
		len -= n;
	}
	return DK_OK;
}

enum dk_status
dk_zout_finish(struct dk_zout *c, struct dk_err *err)
{
	return step(c, NULL, 0, 1, err);
}

void
dk_zout_counts(const struct dk_zout *c, uint64_t *in, uint64_t *out)
{
	*in = c->nin;
	*out = c->nout;
}

void
dk_zout_free(struct dk_zout *c)
{
	if (c == NULL)
		return;
	if (c->kind == DK_COMP_GZIP && c->live)
		(void)deflateEnd(&c->z);
	else if (c->kind == DK_COMP_XZ && c->live)
		lzma_end(&c->x);
	ZSTD_freeCCtx(c->zc);
	free(c);
}

static enum dk_status
sink_filter(void *arg, const void *p, size_t n, struct dk_err *err)
{
	return dk_zout_write(arg, p, n, err);
}

void
dk_sink_compress(struct dk_sink *s, struct dk_zout *z)
{
	s->filter = sink_filter;
	s->filter_arg = z;
	s->seekable = 0;
}

enum dk_status
dk_compress_src(const struct dk_src *src, enum dk_comp kind, int fd,
    const char *name, struct dk_err *err)
{
	struct dk_zout *c;
	uint8_t *buf = malloc(ZOUT_BUF);
	enum dk_status st;

	if (buf == NULL)
		return dk_err_set(err, DK_ENOMEM, "%s: out of memory", name);
	if ((st = dk_zout_open(&c, kind, fd, name, err)) != DK_OK) {
		free(buf);
		return st;
	}
	for (uint64_t off = 0; st == DK_OK && off < src->size; ) {
		size_t n = src->size - off < ZOUT_BUF ? (size_t)(src->size -
		    off) : ZOUT_BUF;

		st = dk_src_pread(src, buf, n, off, "data", err);
		if (st == DK_OK)
			st = dk_zout_write(c, buf, n, err);
		off += n;
	}
	if (st == DK_OK)
		st = dk_zout_finish(c, err);
	dk_zout_free(c);
	free(buf);
	return st;
}

enum dk_status
dk_compress_file(const char *path, enum dk_comp kind, const char *dst,
    int force, struct dk_err *err)
{
	struct dk_src src = { .name = path };
	struct dk_out out;
	struct stat sb;
	enum dk_status st;

	src.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (src.fd < 0 || fstat(src.fd, &sb) != 0) {
		dk_err_set(err, DK_ESYS, "%s: %s", path, strerror(errno));
		err->sys_errno = errno;
		if (src.fd >= 0)
			close(src.fd);
		return DK_ESYS;
	}
	src.size = (uint64_t)sb.st_size;
	/* In place: the rename replaces the source, which is open here. */
	if ((st = dk_out_open(&out, dst, force || strcmp(path, dst) == 0,
	    err)) == DK_OK) {
		st = dk_compress_src(&src, kind, out.fd, dst, err);
		if (st == DK_OK)
			st = dk_out_commit(&out, err);
		else
			dk_out_abort(&out);
	}
	close(src.fd);
	return st;
}
