/*
 * decompress.c -- compressed dump streams: gzip (zlib), zstd (libzstd)
 * and xz (liblzma), recognised by their magic bytes, never by name.
 *
 * A dump is read at random offsets (a page here, the page tables
 * there), which none of the three formats allows without decoding from
 * the start.  So the stream is decoded once, front to back, into a
 * temporary file in TMPDIR that has no name (O_TMPFILE, or mkstemp and
 * an immediate unlink): it disappears with its descriptor, on close,
 * on error and on a crash alike.  Whole 4 KiB blocks of zeros are not
 * written but skipped with the file offset, so the file is sparse: a
 * dump is mostly zero pages, and the disk it takes is the allocated
 * size of the decompressed dump, not its length.  Memory is bounded by
 * the buffers below and each decoder's window (DK_COMP_*_MAX).
 *
 * The driver decodes one member (gzip member, zstd frame, xz stream) at
 * a time and looks at what follows each: another member of the same
 * kind is decoded in turn (savecore's and pigz's concatenations, zstd's
 * multi-frame output); zero bytes to the end of the input are padding
 * (the dump device's last block, FORMATS.md 3.5); anything else is an
 * error at its offset.
 */
#include <errno.h>
#include <fcntl.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "compress.h"

#define	UNZ_IN		(64u << 10)	/* compressed bytes per read */
#define	UNZ_OUT		(1u << 20)	/* decompressed bytes per write */
#define	UNZ_ZSTD_SLICE	4096u		/* compressed bytes per zstd call */

static const uint8_t gzip_magic[] = { 0x1f, 0x8b, 0x08 };
static const uint8_t zstd_magic[] = { 0x28, 0xb5, 0x2f, 0xfd };
static const uint8_t xz_magic[] = { 0xfd, '7', 'z', 'X', 'Z', 0x00 };

static const struct {
	const char	*name;
	const char	*suffix;
	const char	*unit;		/* what one member is called */
} kinds[] = {
	[DK_COMP_NONE] = { "none", "", "stream" },
	[DK_COMP_GZIP] = { "gzip", ".gz", "gzip member" },
	[DK_COMP_ZSTD] = { "zstd", ".zst", "zstd frame" },
	[DK_COMP_XZ] = { "xz", ".xz", "xz stream" },
};

/* A member of kind k starts at p (len bytes available)? */
static int
member_at(enum dk_comp k, const uint8_t *p, size_t len)
{
	switch (k) {
	case DK_COMP_GZIP:
		return len >= sizeof(gzip_magic) &&
		    memcmp(p, gzip_magic, sizeof(gzip_magic)) == 0;
	case DK_COMP_ZSTD:
		/* A frame, or a skippable frame (0x184d2a50 to 5f, LE). */
		return len >= 4 && (memcmp(p, zstd_magic, 4) == 0 ||
		    ((p[0] & 0xf0) == 0x50 && p[1] == 0x2a && p[2] == 0x4d &&
		    p[3] == 0x18));
	case DK_COMP_XZ:
		return len >= sizeof(xz_magic) &&
		    memcmp(p, xz_magic, sizeof(xz_magic)) == 0;
	default:
		return 0;
	}
}

enum dk_comp
dk_comp_detect(const uint8_t *p, size_t len)
{
	for (int k = DK_COMP_GZIP; k <= DK_COMP_XZ; k++)
		if (member_at((enum dk_comp)k, p, len))
			return (enum dk_comp)k;
	return DK_COMP_NONE;
}

const char *
dk_comp_name(enum dk_comp k)
{
	return (unsigned)k < DK_ARRAY_LEN(kinds) ? kinds[k].name : "?";
}

const char *
dk_comp_suffix(enum dk_comp k)
{
	return (unsigned)k < DK_ARRAY_LEN(kinds) ? kinds[k].suffix : "";
}

enum dk_comp
dk_comp_by_name(const char *name)
{
	for (int k = DK_COMP_GZIP; k <= DK_COMP_XZ; k++)
		if (strcmp(name, kinds[k].name) == 0)
			return (enum dk_comp)k;
	return DK_COMP_NONE;
}

/* ---------------------------------------------------------------------- */
/* The three decoders behind one step function.                            */

struct dec {
	enum dk_comp	 kind;
	int		 live;
	z_stream	 z;
	ZSTD_DStream	*zs;
	lzma_stream	 x;
};

static void
dec_end(struct dec *c)
{
	if (!c->live)
		return;
	if (c->kind == DK_COMP_GZIP)
		(void)inflateEnd(&c->z);
	else if (c->kind == DK_COMP_XZ)
		lzma_end(&c->x);
	c->live = 0;
}

/* Ready the decoder for a new member. */
static enum dk_status
dec_start(struct dec *c, const char *name, struct dk_err *err)
{
	static const lzma_stream xinit = LZMA_STREAM_INIT;
	int ok = 1;

	dec_end(c);
	switch (c->kind) {
	case DK_COMP_GZIP:
		memset(&c->z, 0, sizeof(c->z));
		ok = inflateInit2(&c->z, 16 + MAX_WBITS) == Z_OK;	/* gzip */
		break;
	case DK_COMP_ZSTD:
		if (c->zs == NULL) {
			c->zs = ZSTD_createDStream();
			ok = c->zs != NULL && !ZSTD_isError(ZSTD_DCtx_setParameter(
			    c->zs, ZSTD_d_windowLogMax, DK_COMP_ZSTD_WLOG_MAX));
		}
		ok = ok && !ZSTD_isError(ZSTD_DCtx_reset(c->zs,
		    ZSTD_reset_session_only));
		break;
	case DK_COMP_XZ:
		c->x = xinit;
		ok = lzma_stream_decoder(&c->x, DK_COMP_XZ_MEMLIMIT, 0) ==
		    LZMA_OK;
		break;
	default:
		ok = 0;
	}
	if (!ok)
		return dk_err_set(err, DK_ENOMEM, "%s: %s decoder: out of memory",
		    name, dk_comp_name(c->kind));
	c->live = c->kind != DK_COMP_ZSTD;
	return DK_OK;
}

static void
dec_free(struct dec *c)
{
	dec_end(c);
	ZSTD_freeDStream(c->zs);
	c->zs = NULL;
}

/*
 * Decode from in[0..inlen) into out[0..outlen): *used input bytes
 * taken, *made output bytes given, *end set when the member ended.
 * An error sets *why (the library's words) and returns its code.
 */
static enum dk_status
dec_step(struct dec *c, const uint8_t *in, size_t inlen, int eof,
    size_t *used, uint8_t *out, size_t outlen, size_t *made, int *end,
    const char **why)
{
	*end = 0;
	*why = NULL;
	if (c->kind == DK_COMP_GZIP) {
		int rc;

		c->z.next_in = (Bytef *)(uintptr_t)in;
		c->z.avail_in = (uInt)inlen;
		c->z.next_out = out;
		c->z.avail_out = (uInt)outlen;
		rc = inflate(&c->z, Z_NO_FLUSH);
		*used = inlen - c->z.avail_in;
		*made = outlen - c->z.avail_out;
		if (rc == Z_STREAM_END)
			*end = 1;
		else if (rc == Z_MEM_ERROR)
			return DK_ENOMEM;
		else if (rc != Z_OK && rc != Z_BUF_ERROR) {
			*why = c->z.msg != NULL ? c->z.msg : rc == Z_NEED_DICT ?
			    "a preset dictionary is required" : "bad data";
			return DK_ECORRUPT;
		}
		return DK_OK;
	}
	if (c->kind == DK_COMP_ZSTD) {
		/*
		 * libzstd leaves pos alone on an error: small slices, so that
		 * the end of the one it failed on is near the bad byte.
		 */
		ZSTD_inBuffer ib = { in, inlen < UNZ_ZSTD_SLICE ? inlen :
		    UNZ_ZSTD_SLICE, 0 };
		ZSTD_outBuffer ob = { out, outlen, 0 };
		size_t rc = ZSTD_decompressStream(c->zs, &ob, &ib);

		*used = ib.pos;
		*made = ob.pos;
		if (ZSTD_isError(rc)) {
			*used = ib.pos > 0 ? ib.pos : ib.size;
			*why = ZSTD_getErrorName(rc);
			return ZSTD_getErrorCode(rc) ==
			    ZSTD_error_frameParameter_windowTooLarge ?
			    DK_ELIMIT : ZSTD_getErrorCode(rc) ==
			    ZSTD_error_memory_allocation ? DK_ENOMEM :
			    DK_ECORRUPT;
		}
		/* 0: the frame is decoded and flushed whole. */
		*end = rc == 0;
		return DK_OK;
	} else {
		lzma_ret rc;

		c->x.next_in = in;
		c->x.avail_in = inlen;
		c->x.next_out = out;
		c->x.avail_out = outlen;
		rc = lzma_code(&c->x, eof ? LZMA_FINISH : LZMA_RUN);
		*used = inlen - c->x.avail_in;
		*made = outlen - c->x.avail_out;
		switch (rc) {
		case LZMA_OK:
		case LZMA_BUF_ERROR:	/* no progress: the driver decides */
			return DK_OK;
		case LZMA_STREAM_END:
			*end = 1;
			return DK_OK;
		case LZMA_MEM_ERROR:
			return DK_ENOMEM;
		case LZMA_MEMLIMIT_ERROR:
			*why = "the stream needs more memory than the limit";
			return DK_ELIMIT;
		case LZMA_FORMAT_ERROR:
			*why = "not an xz stream header";
			return DK_ECORRUPT;
		case LZMA_OPTIONS_ERROR:
			*why = "unsupported stream options";
			return DK_ECORRUPT;
		case LZMA_DATA_ERROR:
			*why = "compressed data is corrupt (liblzma: "
			    "LZMA_DATA_ERROR)";
			return DK_ECORRUPT;
		default:
			*why = "liblzma internal error";
			return DK_ECORRUPT;
		}
	}
}

/* ---------------------------------------------------------------------- */
/* The temporary file.                                                     */

static const char *
tmp_dir(void)
{
	const char *t = getenv("TMPDIR");

	return t != NULL && *t != '\0' ? t : "/tmp";
}

int
dk_tmp_open(const char *name, const char *what, struct dk_err *err)
{
	const char *dir = tmp_dir();
	char path[4096];
	int fd;

#ifdef O_TMPFILE
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
	/* Not supported by this kernel or file system: mkstemp, unlink. */
	if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
		goto fail;
#endif
	if ((size_t)snprintf(path, sizeof(path), "%s/dumpkit-unz.XXXXXX",
	    dir) >= sizeof(path)) {
		errno = ENAMETOOLONG;
		goto fail;
	}
	if ((fd = mkostemp(path, O_CLOEXEC)) < 0)
		goto fail;
	(void)unlink(path);
	return fd;
fail:
	dk_err_set(err, DK_ESYS, "%s: creating a temporary file in %s (set "
	    "TMPDIR) for %s: %s", name, dir, what, strerror(errno));
	err->sys_errno = errno;
	return -1;
}

struct unz {
	const struct dk_src	*src;
	struct dk_unz		*u;
	struct dec		 dec;
	uint8_t			*in, *out;
	uint64_t		 wpos;		/* put(): the next byte's offset */
	/* Where unz_next stands: see there. */
	uint64_t		 off, mstart;	/* next unread byte; member start */
	size_t			 have, pos;	/* bytes in in, and taken */
	int			 started, done;
};

/* Append n decompressed bytes; whole zero blocks become holes. */
static enum dk_status
put(struct unz *s, const uint8_t *p, size_t n, struct dk_err *err)
{
		while (n > 0) {
		size_t run = 0, k;
		int zero;

		/* A run of blocks, all zero or all not, on block bounds. */
		k = DK_ZBLOCK - (size_t)(s->wpos % DK_ZBLOCK);
		if (k > n)
			k = n;
		zero = dk_all_zero(p, k);
		do {
			run += k;
			k = n - run < DK_ZBLOCK ? n - run : DK_ZBLOCK;
		} while (k > 0 && dk_all_zero(p + run, k) == zero);
		while (!zero && run > 0) {
			ssize_t w = pwrite(s->u->fd, p, run, (off_t)s->wpos);

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				int e = w < 0 ? errno : ENOSPC;

				dk_err_off(err, DK_ESYS, s->wpos, "%s: "
				    "writing the decompressed dump into %s "
				    "(TMPDIR), decompressed offset %#jx: %s%s",
				    s->src->name, tmp_dir(),
				    (uintmax_t)s->wpos, strerror(e),
				    e == ENOSPC ? " (it needs the allocated "
				    "size of the decompressed dump there; set "
				    "TMPDIR elsewhere)" : "");
				err->sys_errno = e;
				return DK_ESYS;
			}
			p += w;
			n -= (size_t)w;
			run -= (size_t)w;
			s->wpos += (uint64_t)w;
		}
		p += run;
		n -= run;
		s->wpos += run;
	}
	return DK_OK;
}

enum dk_status
dk_spool_fd(int in, const char *name, int *fd, uint64_t *size,
    struct dk_err *err)
{
	struct dk_src src = { .fd = in, .name = name };
	struct dk_unz u = { .kind = DK_COMP_NONE, .fd = -1 };
	struct unz s = { .src = &src, .u = &u };
	enum dk_status st = DK_OK;
	ssize_t n;

	*fd = -1;
	*size = 0;
	if ((s.out = malloc(UNZ_OUT)) == NULL)
		return dk_err_set(err, DK_ENOMEM, "%s: out of memory", name);
	if ((u.fd = dk_tmp_open(name, "a copy of it", err)) < 0) {
		free(s.out);
		return err->code;
	}
	while (st == DK_OK && (n = read(in, s.out, UNZ_OUT)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			dk_err_off(err, DK_ESYS, s.wpos, "%s: reading at "
			    "offset %#jx: %s", name, (uintmax_t)s.wpos,
			    strerror(errno));
			err->sys_errno = errno;
			st = DK_ESYS;
		} else
			st = put(&s, s.out, (size_t)n, err);
	}
	u.size = s.wpos;
	/* A trailing hole still counts: the file is as long as the stream. */
	if (st == DK_OK && ftruncate(u.fd, (off_t)u.size) != 0) {
		dk_err_set(err, DK_ESYS, "%s: sizing the temporary copy in %s "
		    "(TMPDIR): %s", name, tmp_dir(), strerror(errno));
		err->sys_errno = errno;
		st = DK_ESYS;
	}
	free(s.out);
	if (st != DK_OK) {
		close(u.fd);
		return st;
	}
	*fd = u.fd;
	*size = u.size;
	return DK_OK;
}

/* The offset of the first nonzero byte at or after off, or the size. */
static enum dk_status
skip_zeros(struct unz *s, uint64_t off, uint64_t *nz, struct dk_err *err)
{
	const struct dk_src *src = s->src;

	while (off < src->size) {
		size_t n = src->size - off < UNZ_IN ? (size_t)(src->size - off) :
		    UNZ_IN, i;

		if (dk_src_pread(src, s->in, n, off, "compressed data", err) !=
		    DK_OK)
			return err->code;
		for (i = 0; i < n && s->in[i] == 0; i++)
			;
		if (i < n) {
			*nz = off + i;
			return DK_OK;
		}
		off += n;
	}
	*nz = src->size;
	return DK_OK;
}

/*
 * At a member boundary at off: start the next member (1), end here (0,
 * with the padding noted), or fail.
 */
static int
boundary(struct unz *s, uint64_t off, uint64_t *next, enum dk_status *st,
    struct dk_err *err)
{
	const struct dk_src *src = s->src;
	struct dk_unz *u = s->u;
	uint8_t head[8];
	size_t n = src->size - off < sizeof(head) ? (size_t)(src->size - off) :
	    sizeof(head);
	uint64_t nz = 0;

	*st = DK_OK;
	*next = off;
	if (n == 0)
		return 0;
	if ((*st = dk_src_pread(src, head, n, off, "compressed data", err)) !=
	    DK_OK)
		return 0;
	if (member_at(u->kind, head, n))
		return 1;
	if (head[0] == 0) {
		if ((*st = skip_zeros(s, off, &nz, err)) != DK_OK)
			return 0;
		if (nz == src->size) {
			u->padding = src->size - off;
			return 0;
		}
		/* xz allows stream padding (4-byte multiples) between streams. */
		n = src->size - nz < sizeof(head) ? (size_t)(src->size - nz) :
		    sizeof(head);
		if (u->kind == DK_COMP_XZ && (nz - off) % 4 == 0 &&
		    dk_src_pread(src, head, n, nz, "compressed data", err) ==
		    DK_OK && member_at(u->kind, head, n)) {
			*next = nz;
			return 1;
		}
		u->fail_off = nz;
		u->trailing = 1;
		*st = dk_err_off(err, DK_ECORRUPT, nz, "%s: compressed offset "
		    "%#jx: after %s %ju (ends at %#jx) and %ju zero bytes: "
		    "expected zero padding to the end of the file, found a "
		    "nonzero byte", src->name, (uintmax_t)nz,
		    kinds[u->kind].unit, (uintmax_t)u->members, (uintmax_t)off,
		    (uintmax_t)(nz - off));
		return 0;
	}
	u->fail_off = off;
	u->trailing = off > 0;
	*st = dk_err_off(err, DK_ECORRUPT, off, "%s: compressed offset %#jx: "
	    "after %s %ju: expected another %s or zero padding, found bytes "
	    "%02x %02x %02x %02x", src->name, (uintmax_t)off,
	    kinds[u->kind].unit, (uintmax_t)u->members, kinds[u->kind].unit,
	    head[0], n > 1 ? head[1] : 0, n > 2 ? head[2] : 0,
	    n > 3 ? head[3] : 0);
	return 0;
}

/*
 * Decode the next stretch of the stream into s->out: *made bytes (up to
 * UNZ_OUT; 0 only with s->done set, at the end of the last member),
 * member after member, with the checks at each boundary.  u->size
 * counts what was made.  Resumable: the spool and the one-pass stream
 * both drive it.
 */
static enum dk_status
unz_next(struct unz *s, size_t *made, struct dk_err *err)
{
	const struct dk_src *src = s->src;
	struct dk_unz *u = s->u;
	enum dk_status st;

	*made = 0;
	if (!s->started) {
		s->started = 1;
		if (!boundary(s, 0, &s->mstart, &st, err)) {
			s->done = 1;
			if (st != DK_OK)
				return st;
			u->fail_off = 0;
			return dk_err_off(err, DK_ECORRUPT, 0, "%s: compressed "
			    "offset 0: expected a %s, found %s", src->name,
			    kinds[u->kind].unit, src->size == 0 ?
			    "an empty file" : "zero bytes");
		}
		s->off = s->mstart;
	}
	while (!s->done && *made < UNZ_OUT) {
		size_t used, got;
		int end, eof;
		const char *why;

		if (s->pos == s->have && s->off < src->size) {
			s->have = src->size - s->off < UNZ_IN ?
			    (size_t)(src->size - s->off) : UNZ_IN;
			if ((st = dk_src_pread(src, s->in, s->have, s->off,
			    "compressed data", err)) != DK_OK)
				return st;
			s->off += s->have;
			s->pos = 0;
		}
		eof = s->off == src->size;
		st = dec_step(&s->dec, s->in + s->pos, s->have - s->pos, eof,
		    &used, s->out + *made, UNZ_OUT - *made, &got, &end, &why);
		if (st != DK_OK) {
			u->fail_off = s->off - s->have + s->pos + used;
			if (st == DK_ENOMEM)
				return dk_err_set(err, st, "%s: %s decoder: out "
				    "of memory", src->name, dk_comp_name(u->kind));
			return dk_err_off(err, st, u->fail_off, "%s: "
			    "compressed offset %#jx: %s %ju (from %#jx): "
			    "expected %s, found %s (%ju bytes decoded)",
			    src->name, (uintmax_t)u->fail_off,
			    kinds[u->kind].unit, (uintmax_t)u->members + 1,
			    (uintmax_t)s->mstart,
			    st == DK_ELIMIT ? "a window the decoder's memory "
			    "limit allows" : "data that decodes",
			    why, (uintmax_t)u->size);
		}
		*made += got;
		u->size += got;
		s->pos += used;
		if (end) {
			uint64_t at = s->off - s->have + s->pos;

			u->members++;
			u->in_end = at;
			if (!boundary(s, at, &s->mstart, &st, err)) {
				s->done = 1;
				return st;
			}
			/* The next member: decode from its first byte. */
			if (s->mstart != at) {
				s->off = s->mstart;
				s->pos = s->have = 0;
			}
			if ((st = dec_start(&s->dec, src->name, err)) != DK_OK)
				return st;
			continue;
		}
		if (used == 0 && got == 0 && s->pos == s->have && eof) {
			u->fail_off = src->size;
			return dk_err_off(err, DK_ETRUNC, src->size, "%s: "
			    "compressed offset %#jx: %s %ju (from %#jx): "
			    "expected more compressed data, found the end of "
			    "the file (%ju bytes decoded)", src->name,
			    (uintmax_t)src->size, kinds[u->kind].unit,
			    (uintmax_t)u->members + 1, (uintmax_t)s->mstart,
			    (uintmax_t)u->size);
		}
		if (used == 0 && got == 0 && s->pos < s->have) {
			/* The three libraries buffer what they take: never. */
			u->fail_off = s->off - s->have + s->pos;
			return dk_err_off(err, DK_ECORRUPT, u->fail_off, "%s: "
			    "compressed offset %#jx: the %s decoder makes no "
			    "progress", src->name, (uintmax_t)u->fail_off,
			    dk_comp_name(u->kind));
		}
	}
	return DK_OK;
}

/* Decode every member into u->fd, which is open. */
static enum dk_status
unz_run(struct unz *s, struct dk_err *err)
{
	enum dk_status st;
	size_t made;

	do {
		/* What decoded before an error is kept (keep_partial). */
		struct dk_err e2;

		st = unz_next(s, &made, err);
		if (made > 0 && put(s, s->out, made, st == DK_OK ? err : &e2) !=
		    DK_OK && st == DK_OK)
			st = err->code;
	} while (st == DK_OK && !s->done);
	return st;
}

/* Inside a container (a device image): where the stream is in the file. */
static void
note_base(const struct dk_src *src, const struct dk_unz *u, enum dk_status st,
    struct dk_err *err)
{
	size_t n = strlen(err->msg);

	if ((st == DK_ETRUNC || st == DK_ECORRUPT) && src->base != 0)
		snprintf(err->msg + n, sizeof(err->msg) - n, " [the stream "
		    "starts at file offset %#jx: file offset %#jx]",
		    (uintmax_t)src->base, (uintmax_t)(src->base + u->fail_off));
}

enum dk_status
dk_unz_file(const struct dk_src *src, enum dk_comp kind, int keep_partial,
    struct dk_unz *u, struct dk_err *err)
{
	struct unz s = { .src = src, .u = u };
	enum dk_status st;

	memset(u, 0, sizeof(*u));
	u->kind = kind;
	u->fd = -1;
	if (kind < DK_COMP_GZIP || kind > DK_COMP_XZ)
		return dk_err_set(err, DK_EINVAL, "%s: not a compression kind",
		    src->name);
	s.dec.kind = kind;
	s.in = malloc(UNZ_IN);
	s.out = malloc(UNZ_OUT);
	if (s.in == NULL || s.out == NULL) {
		st = dk_err_set(err, DK_ENOMEM, "%s: out of memory", src->name);
		goto out;
	}
	if ((u->fd = dk_tmp_open(src->name, "the decompressed dump",
	    err)) < 0) {
		st = DK_ESYS;
		goto out;
	}
	if ((st = dec_start(&s.dec, src->name, err)) == DK_OK)
		st = unz_run(&s, err);
	/* The holes at the end: give the file its length. */
	if (ftruncate(u->fd, (off_t)u->size) != 0 && st == DK_OK) {
		dk_err_set(err, DK_ESYS, "%s: setting the size of the "
		    "decompressed dump in %s (TMPDIR) to %#jx: %s", src->name,
		    tmp_dir(), (uintmax_t)u->size, strerror(errno));
		err->sys_errno = errno;
		st = DK_ESYS;
	}
	note_base(src, u, st, err);
out:
	dec_free(&s.dec);
	free(s.in);
	free(s.out);
	if (st != DK_OK && u->fd >= 0 && !(keep_partial &&
	    (st == DK_ETRUNC || st == DK_ECORRUPT))) {
		close(u->fd);
		u->fd = -1;
	}
	return st;
}

/* ---------------------------------------------------------------------- */
/* The one-pass stream (private.h, struct dk_zsrc).                        */

#define	ZSRC_HEAD_MAX	(64u << 20)	/* kept before the pass, at most */
#define	ZSTD_HDR_MAX	18		/* magic + the longest frame header */

struct dk_zsrc {
	struct dk_src	 outer;		/* the compressed stream */
	struct dk_unz	 u;
	struct unz	 s;		/* s.out holds [win, win + nwin) */
	uint64_t	 win;
	size_t		 nwin;
	uint8_t		*head;		/* [0, nhead) decoded before the pass */
	size_t		 nhead, caphead;
	int		 seq;		/* the pass began: head is final */
	int		 fd;		/* the spool after a fallback, or -1 */
	int		 trace;		/* DUMPKIT_TRACE: the counters at close */
	enum dk_status	 failed;	/* a decoding error, sticky */
	struct dk_err	 ferr;
	struct dk_zstats st;
};

static uint32_t
le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

/*
 * The decompressed size of the zstd stream src from its frames'
 * headers, without decoding (RFC 8878 3.1.1): every frame must declare
 * its content size; its blocks are walked by their 3-byte headers
 * (Last_Block, Block_Type, Block_Size; an RLE block holds one byte) to
 * the next frame; skippable frames give nothing; zero bytes to the end
 * are padding.  0 when it cannot tell (a frame without the size, a
 * reserved block type, a cut frame, other bytes after the last frame):
 * the spool then decodes the stream and says what is wrong.  Each step
 * advances by 3 bytes at least: bounded by the file's size.
 */
static int
zstd_size(const struct dk_src *src, uint64_t *size, uint64_t *end)
{
	uint8_t b[ZSTD_HDR_MAX];
	uint64_t off = 0, total = 0, frames = 0;
	struct dk_err e;

	while (off < src->size) {
		size_t n = src->size - off < sizeof(b) ?
		    (size_t)(src->size - off) : sizeof(b), h;
		unsigned long long fcs;
		int cksum;

		if (dk_src_pread(src, b, n, off, "zstd frame header", &e) !=
		    DK_OK)
			return 0;
		if (n >= 8 && (b[0] & 0xf0) == 0x50 && b[1] == 0x2a &&
		    b[2] == 0x4d && b[3] == 0x18) {
			off += 8 + (uint64_t)le32(b + 4);	/* skippable */
			continue;
		}
		if (n < 4 || memcmp(b, zstd_magic, 4) != 0)
			break;
		/*
		 * Frame_Header_Descriptor: FCS_Field_Size from bits 7-6
		 * (and Single_Segment, bit 5, which also drops the
		 * Window_Descriptor), Dictionary_ID's from bits 1-0.
		 */
		h = n < 5 ? 0 : 5 + !(b[4] & 0x20) +
		    (size_t)"\0\1\2\4"[b[4] & 3] +
		    (size_t)"\0\2\4\10"[b[4] >> 6] + (b[4] >> 6 == 0 &&
		    (b[4] & 0x20));
		fcs = ZSTD_getFrameContentSize(b, n);
		if (h == 0 || h > n || (b[4] & 0x08) ||
		    fcs == ZSTD_CONTENTSIZE_UNKNOWN ||
		    fcs == ZSTD_CONTENTSIZE_ERROR || total + fcs < total)
			return 0;
		total += fcs;
		cksum = (b[4] >> 2) & 1;	/* Content_Checksum_flag */
		off += h;
		for (;;) {
			uint32_t v;

			if (src->size - off < 3 || dk_src_pread(src, b, 3, off,
			    "zstd block header", &e) != DK_OK)
				return 0;
			v = (uint32_t)b[0] | (uint32_t)b[1] << 8 |
			    (uint32_t)b[2] << 16;
			if (((v >> 1) & 3) == 3)
				return 0;		/* reserved type */
			off += 3 + (((v >> 1) & 3) == 1 ? 1 : v >> 3);
			if (off > src->size)
				return 0;
			if (v & 1)
				break;			/* Last_Block */
		}
		off += cksum ? 4 : 0;
		if (off > src->size)
			return 0;
		frames++;
	}
	if (frames == 0 || off > src->size)
		return 0;
	*end = off;
	while (off < src->size) {		/* padding: zeros only */
		size_t n = src->size - off < sizeof(b) ?
		    (size_t)(src->size - off) : sizeof(b);

		if (dk_src_pread(src, b, n, off, "padding", &e) != DK_OK ||
		    !dk_all_zero(b, n))
			return 0;
		off += n;
	}
	*size = total;
	return 1;
}

/* Remember a decoding failure: every later read reports it again. */
static enum dk_status
zfail(struct dk_zsrc *z, enum dk_status st, struct dk_err *err)
{
	if (st == DK_OK)
		return st;
	note_base(&z->outer, &z->u, st, err);
	z->failed = st;
	z->ferr = *err;
	return st;
}

/*
 * A read went behind what is kept (or the head outgrew its bound):
 * decode the whole stream again, into the temporary file the other
 * path uses, and read from it from now on.
 */
static enum dk_status
zspool(struct dk_zsrc *z, struct dk_err *err)
{
	struct dk_unz u;
	enum dk_status st;

	if ((st = dk_unz_file(&z->outer, z->u.kind, 0, &u, err)) != DK_OK)
		return zfail(z, st, err);
	z->fd = u.fd;
	z->st.fallbacks++;
	z->st.spooled += u.size;
	z->st.decoded += u.size;
	free(z->head);
	z->head = NULL;
	z->nhead = z->caphead = 0;
	if (u.size != z->st.size)
		return zfail(z, dk_err_at(err, DK_ECORRUPT, z->outer.name,
		    u.in_end, "its frames declare %ju decompressed bytes, "
		    "they decode to %ju", (uintmax_t)z->st.size,
		    (uintmax_t)u.size), err);
	return DK_OK;
}

/* Decode the next stretch into the window (and the head, before the pass). */
static enum dk_status
zfill(struct dk_zsrc *z, struct dk_err *err)
{
	size_t made;
	enum dk_status st;

	if (z->s.done)
		return zfail(z, dk_err_at(err, DK_ECORRUPT, z->outer.name,
		    z->u.in_end, "its frames declare %ju decompressed bytes, "
		    "they decode to %ju", (uintmax_t)z->st.size,
		    (uintmax_t)z->u.size), err);
	if ((st = unz_next(&z->s, &made, err)) != DK_OK)
		return zfail(z, st, err);
	z->win += z->nwin;
	z->nwin = made;
	z->st.decoded += made;
	z->st.steps++;
	if (z->win + made > z->st.size)
		return zfail(z, dk_err_at(err, DK_ECORRUPT, z->outer.name,
		    z->s.off, "its frames declare %ju decompressed bytes, "
		    "they decode to more", (uintmax_t)z->st.size), err);
	/*
	 * A consumer that reads this far without saying it reads in order
	 * is taken to: the head stops here (a read behind it spools).
	 */
	if (!z->seq && z->nhead + made > ZSRC_HEAD_MAX)
		z->seq = 1;
	if (z->seq || made == 0)
		return DK_OK;
	if (z->nhead + made > z->caphead) {
		size_t c = z->caphead ? z->caphead : UNZ_OUT;
		uint8_t *p;

		while (c < z->nhead + made)
			c *= 2;
		if ((p = realloc(z->head, c)) == NULL) {
			z->seq = 1;	/* no more head: reads go on */
			return DK_OK;
		}
		z->head = p;
		z->caphead = c;
	}
	memcpy(z->head + z->nhead, z->s.out, made);
	z->nhead += made;
	return DK_OK;
}

/*
 * Where the bytes at off are, decoding forward to them: *p and *n (the
 * bytes there), or *n 0 once the stream is spooled.
 */
static enum dk_status
zlocate(struct dk_zsrc *z, uint64_t off, const uint8_t **p, size_t *n,
    struct dk_err *err)
{
	enum dk_status st;

	*n = 0;
	while (z->fd < 0) {
		if (z->failed != DK_OK) {
			*err = z->ferr;
			return z->failed;
		}
		if (off < z->nhead) {
			*p = z->head + off;
			*n = z->nhead - (size_t)off;
			return DK_OK;
		}
		if (off >= z->win && off < z->win + z->nwin) {
			*p = z->s.out + (off - z->win);
			*n = z->nwin - (size_t)(off - z->win);
			return DK_OK;
		}
		st = off >= z->win + z->nwin ? zfill(z, err) : zspool(z, err);
		if (st != DK_OK)
			return st;
	}
	return DK_OK;
}

enum dk_status
dk_zsrc_peek(struct dk_zsrc *z, uint64_t off, const uint8_t **p, size_t *n,
    struct dk_err *err)
{
	size_t want = *n;
	enum dk_status st;

	z->st.reads++;
	if ((st = zlocate(z, off, p, n, err)) == DK_OK && *n > want)
		*n = want;
	return st;
}

enum dk_status
dk_zsrc_pread(struct dk_zsrc *z, void *buf, size_t len, uint64_t off,
    const char *what, struct dk_err *err)
{
	uint8_t *b = buf;

	z->st.reads++;
	while (len > 0) {
		const uint8_t *p;
		size_t n;
		enum dk_status st = zlocate(z, off, &p, &n, err);

		if (st != DK_OK)
			return st;
		if (n == 0) {		/* spooled: the temporary file */
			struct dk_src f = { .fd = z->fd, .size = z->st.size,
			    .name = z->outer.name };

			return dk_src_pread(&f, b, len, off, what, err);
		}
		if (n > len)
			n = len;
		memcpy(b, p, n);
		b += n;
		off += n;
		len -= n;
	}
	return DK_OK;
}

void
dk_src_sequential(const struct dk_src *src)
{
	if (src->z != NULL)
		src->z->seq = 1;
}

void
dk_zsrc_close(struct dk_zsrc *z)
{
	if (z == NULL)
		return;
	if (z->trace)
		fprintf(stderr, "dumpkit: %s: %s one pass: %ju bytes, %ju "
		    "decoded in %ju steps, %ju reads, %zu kept before the "
		    "pass, %ju fallbacks, %ju spooled\n", z->outer.name,
		    dk_comp_name(z->u.kind), (uintmax_t)z->st.size,
		    (uintmax_t)z->st.decoded, (uintmax_t)z->st.steps,
		    (uintmax_t)z->st.reads, z->nhead,
		    (uintmax_t)z->st.fallbacks, (uintmax_t)z->st.spooled);
	dec_free(&z->s.dec);
	free(z->s.in);
	free(z->s.out);
	free(z->head);
	if (z->fd >= 0)
		close(z->fd);
	free(z);
}

/* A dump format's magic at 0 (whose probes read the start, not the end). */
static int
format_magic(const uint8_t *p)
{
	static const char *const magic[] = { "minidump", "\177ELF",
	    "KDUMP   ", "DISKDUMP", "makedumpfile" };

	for (size_t i = 0; i < DK_ARRAY_LEN(magic); i++)
		if (memcmp(p, magic[i], strlen(magic[i])) == 0)
			return 1;
	return 0;
}

/*
 * A one-pass stream for d->src (kind k), if its decompressed size is
 * known from its headers and it holds a format read from the start;
 * DK_NOMATCH to take the spool instead.
 */
enum dk_status
dk_zsrc_open(const struct dk_src *src, enum dk_comp k, struct dk_zsrc **zp,
    struct dk_err *err)
{
	struct dk_zsrc *z;
	uint64_t size, end;
	uint8_t m[16];
	const char *t;
	enum dk_status st;

	*zp = NULL;
	if (k != DK_COMP_ZSTD || src->z != NULL ||
	    !zstd_size(src, &size, &end) || size < sizeof(m))
		return DK_NOMATCH;
	if ((z = calloc(1, sizeof(*z))) == NULL)
		return dk_err_set(err, DK_ENOMEM, "%s: out of memory",
		    src->name);
	z->outer = *src;
	z->u.kind = k;
	z->u.fd = -1;
	z->fd = -1;
	z->st.size = size;
	z->st.in_end = end;
	z->s.src = &z->outer;
	z->s.u = &z->u;
	z->s.dec.kind = k;
	z->s.in = malloc(UNZ_IN);
	z->s.out = malloc(UNZ_OUT);
	if (z->s.in == NULL || z->s.out == NULL)
		st = dk_err_set(err, DK_ENOMEM, "%s: out of memory", src->name);
	else if ((st = dec_start(&z->s.dec, src->name, err)) == DK_OK &&
	    (st = dk_zsrc_pread(z, m, sizeof(m), 0, "magic", err)) == DK_OK &&
	    !format_magic(m))
		st = DK_NOMATCH;
	if (st != DK_OK) {
		dk_zsrc_close(z);
		return st;
	}
	z->trace = (t = getenv("DUMPKIT_TRACE")) != NULL && *t != '\0' &&
	    strcmp(t, "0") != 0;
	*zp = z;
	return DK_OK;
}

static struct dk_zsrc *
stream_of(const struct dk_dump *d)
{
	for (size_t i = 0; i < d->nlayers; i++)
		if (d->layers[i].z != NULL)
			return d->layers[i].z;
	return NULL;
}

enum dk_status
dk_stream_end(struct dk_dump *d, struct dk_err *err)
{
	struct dk_zsrc *z = stream_of(d);

	return z != NULL ? dk_zsrc_end(z, err) : DK_OK;
}

enum dk_status
dk_zsrc_end(struct dk_zsrc *z, struct dk_err *err)
{
	enum dk_status st;

	if (z->failed != DK_OK) {
		*err = z->ferr;
		return z->failed;
	}
	if (z->fd >= 0)
		return DK_OK;	/* the spool decoded and checked it whole */
	z->seq = 1;
	while (!z->s.done) {
		if (z->failed != DK_OK) {
			*err = z->ferr;
			return z->failed;
		}
		if ((st = zfill(z, err)) != DK_OK)
			return st;
	}
	if (z->u.size != z->st.size)
		return zfail(z, dk_err_at(err, DK_ECORRUPT, z->outer.name,
		    z->u.in_end, "its frames declare %ju decompressed bytes, "
		    "they decode to %ju", (uintmax_t)z->st.size,
		    (uintmax_t)z->u.size), err);
	return DK_OK;
}

int
dk_stream_stats(const struct dk_dump *d, struct dk_zstats *out)
{
	return dk_zsrc_stats(stream_of(d), out);
}

int
dk_zsrc_stats(const struct dk_zsrc *z, struct dk_zstats *out)
{
	memset(out, 0, sizeof(*out));
	if (z == NULL)
		return 0;
	*out = z->st;
	out->head = z->nhead;
	return 1;
}

/* ---------------------------------------------------------------------- */
/* The container rows: a compressed stream around a dump (dump.c).         */

static enum dk_status
ctr_probe(const struct dk_src *src, enum dk_comp kind, struct dk_err *err)
{
	uint8_t b[8];
	size_t n = src->size < sizeof(b) ? (size_t)src->size : sizeof(b);

	if (n < 3)
		return DK_NOMATCH;
	if (dk_src_pread(src, b, n, 0, "compression magic", err) != DK_OK)
		return err->code;
	return dk_comp_detect(b, n) == kind ? DK_OK : DK_NOMATCH;
}

/* The layer of a one-pass stream: d->src becomes z. */
static enum dk_status
zsrc_layer(struct dk_dump *d, const struct dk_container_ops *ops,
    struct dk_zsrc *z, char *name, size_t nlen)
{
	struct dk_layer *l = &d->layers[d->nlayers];

	snprintf(name, nlen, "%s (decompressed)", d->src.name);
	memset(l, 0, sizeof(*l));
	l->ops = ops;
	l->outer = d->src;
	l->fd = -1;
	l->z = z;
	l->priv = name;
	l->info.kind = dk_comp_name(z->u.kind);
	l->info.offset = 0;
	l->info.size = d->src.size;
	snprintf(l->desc, sizeof(l->desc), "%ju bytes decompressed as they "
	    "are read, in one pass (the size from the frame headers)",
	    (uintmax_t)z->st.size);
	l->info.desc = l->desc;
	d->nlayers++;
	DK_TRACE(d, "%s: %s", dk_comp_name(z->u.kind), l->desc);
	d->src = (struct dk_src){ .fd = -1, .size = z->st.size, .name = name,
	    .z = z };
	return DK_OK;
}

static enum dk_status
ctr_open(struct dk_dump *d, const struct dk_container_ops *ops,
    enum dk_comp kind, struct dk_err *err)
{
	struct dk_layer *l = &d->layers[d->nlayers];
	size_t nlen = strlen(d->src.name) + sizeof(" (decompressed)");
	char *name = malloc(nlen);
	struct dk_zsrc *z;
	struct dk_unz u;
	enum dk_status st;

	if (name == NULL)
		return dk_err_set(err, DK_ENOMEM, "%s: out of memory",
		    d->src.name);
	if (d->stream_ok && (st = dk_zsrc_open(&d->src, kind, &z, err)) !=
	    DK_NOMATCH) {
		if (st != DK_OK) {
			free(name);
			return st;
		}
		return zsrc_layer(d, ops, z, name, nlen);
	}
	if ((st = dk_unz_file(&d->src, kind, 0, &u, err)) != DK_OK) {
		free(name);
		return st;
	}
	snprintf(name, nlen, "%s (decompressed)", d->src.name);
	memset(l, 0, sizeof(*l));
	l->ops = ops;
	l->outer = d->src;
	l->fd = u.fd;
	l->priv = name;
	l->info.kind = dk_comp_name(kind);
	l->info.offset = 0;
	l->info.size = u.in_end;
	snprintf(l->desc, sizeof(l->desc), "%ju %s%s, %ju bytes decompressed "
	    "into an unlinked file in %s%s", (uintmax_t)u.members,
	    kinds[kind].unit, u.members == 1 ? "" : "s", (uintmax_t)u.size,
	    tmp_dir(), u.padding > 0 ? ", zero padding after" : "");
	l->info.desc = l->desc;
	d->nlayers++;
	DK_TRACE(d, "%s: %s", dk_comp_name(kind), l->desc);
	d->src.fd = u.fd;
	d->src.mem = NULL;
	d->src.base = 0;
	d->src.size = u.size;
	d->src.name = name;
	return DK_OK;
}

static void
ctr_close(struct dk_dump *d, struct dk_layer *l)
{
	(void)d;
	dk_zsrc_close(l->z);
	l->z = NULL;
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
	free(l->priv);
	l->priv = NULL;
}

#define	DK_UNZ_ROW(sym, kind)						\
static enum dk_status							\
sym##_probe(const struct dk_src *src, struct dk_err *err)		\
{									\
	return ctr_probe(src, kind, err);				\
}									\
static enum dk_status							\
sym##_open(struct dk_dump *d, const struct dk_open_opts *o,		\
    struct dk_err *err)							\
{									\
	(void)o;							\
	return ctr_open(d, &dk_ctr_##sym, kind, err);			\
}									\
const struct dk_container_ops dk_ctr_##sym = {				\
	.name	= #sym,							\
	.probe	= sym##_probe,						\
	.open	= sym##_open,						\
	.close	= ctr_close,						\
	.check	= &dk_unz_ck,						\
}

DK_UNZ_ROW(gzip, DK_COMP_GZIP);
DK_UNZ_ROW(zstd, DK_COMP_ZSTD);
DK_UNZ_ROW(xz, DK_COMP_XZ);
