/*
 * check_compress.c -- dumpcheck's pass over a compressed dump (gzip,
 * zstd, xz; compress.h).  The stream is decoded once, into the unlinked
 * temporary file decompress.c makes, keeping whatever decodes before a
 * failure: the decompressed stream is then checked as usual, so that a
 * truncated .gz is reported both as a cut compressed stream (here, at
 * the compressed offset) and as the truncated dump it decodes to (by
 * the usual codes, at decompressed offsets).  Offsets given to emit
 * are in src's window; check.c makes them file offsets (a device
 * image's stream).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "checker.h"
#include "compress.h"

/* What the pass found. */
struct dk_unz_check {
	int		 found;		/* the file is a compressed stream */
	enum dk_comp	 kind;
	int		 fd;		/* decompressed stream (what decoded), or -1 */
	uint64_t	 size;		/* its length */
	char		 name[512];	/* "FILE (decompressed)" */
	struct dk_err	 err;		/* when fd is -1: why it cannot be checked */
};

/* The message without its leading "NAME: ", which the finding's file has. */
static const char *
bare(const char *msg, const char *name)
{
	size_t n = strlen(name);

	return strncmp(msg, name, n) == 0 && msg[n] == ':' && msg[n + 1] ==
	    ' ' ? msg + n + 2 : msg;
}

/* The zero bytes after the last member, from in_end to the end. */
static void
padding(struct dk_ck *ck, enum dk_comp kind, uint64_t n, uint64_t in_end)
{
	dk_ck_emit(ck, "compress.padding", in_end, "%ju zero bytes after the "
	    "end of the %s stream (from %#jx to the end of the file): a dump "
	    "device's last block is zero-padded", (uintmax_t)n,
	    dk_comp_name(kind), (uintmax_t)in_end);
}

/*
 * If ck->src is compressed, decompress it, keeping what decodes before
 * an error, and report compress.truncated, compress.corrupt,
 * compress.trailing-bytes, compress.padding at compressed offsets.
 * out->fd is then the stream to check.
 */
static void
unz_scan(struct dk_ck *ck, struct dk_unz_check *out)
{
	const struct dk_src *src = &ck->src;
	uint8_t head[8];
	size_t n = src->size < sizeof(head) ? (size_t)src->size : sizeof(head);
	char msg[600];
	struct dk_unz u;
	enum dk_status st;

	memset(out, 0, sizeof(*out));
	out->fd = -1;
	if (n < 3 || dk_src_pread(src, head, n, 0, "magic", &out->err) !=
	    DK_OK || (out->kind = dk_comp_detect(head, n)) == DK_COMP_NONE) {
		dk_err_clear(&out->err);
		return;
	}
	out->found = 1;
	snprintf(out->name, sizeof(out->name), "%s (decompressed)", src->name);
	st = dk_unz_file(src, out->kind, 1, &u, &out->err);
	if (st == DK_ETRUNC || st == DK_ECORRUPT) {
		snprintf(msg, sizeof(msg), "%s", bare(out->err.msg, src->name));
		dk_ck_emit(ck, st == DK_ETRUNC ? "compress.truncated" :
		    u.trailing ? "compress.trailing-bytes" : "compress.corrupt",
		    u.fail_off, "%s", msg);
		dk_err_clear(&out->err);
	}
	if (u.padding > 0)
		padding(ck, u.kind, u.padding, u.in_end);
	out->fd = u.fd;
	out->size = u.size;
}

static const struct dk_check_code unz_codes[] = {
	{ "compress.truncated", DK_SEV_ERROR,
	  "the compressed stream ends inside a member or frame" },
	{ "compress.corrupt", DK_SEV_ERROR,
	  "a compressed block does not decode, or fails its checksum" },
	{ "compress.trailing-bytes", DK_SEV_ERROR,
	  "bytes after the compressed stream: no member, no zero padding" },
	{ "compress.padding", DK_SEV_NOTE,
	  "zero bytes after the compressed stream (the device's last block)" },
};

/*
 * A compressed file: its findings, then the stream it decompresses to
 * (what decoded) is what the rest of the engine checks, at decompressed
 * offsets.
 */
/*
 * A zstd stream whose frames declare their size: read it in one pass
 * (check.c holds the findings until its end decodes).  0: the spool.
 */
static int
unz_stream(struct dk_ck *c)
{
	uint8_t head[8];
	size_t n = c->src.size < sizeof(head) ? (size_t)c->src.size :
	    sizeof(head);
	struct dk_zsrc *z;
	struct dk_zstats zs;
	struct dk_err e;
	enum dk_comp k;

	if (n < 3 || dk_src_pread(&c->src, head, n, 0, "magic", &e) != DK_OK ||
	    (k = dk_comp_detect(head, n)) == DK_COMP_NONE ||
	    dk_zsrc_open(&c->src, k, &z, &e) != DK_OK)
		return 0;
	c->z = z;
	dk_zsrc_stats(z, &zs);
	if (zs.in_end < c->src.size)
		padding(c, k, c->src.size - zs.in_end, zs.in_end);
	c->inner = 1;
	snprintf(c->unz_name, sizeof(c->unz_name), "%s (decompressed)",
	    c->src.name);
	c->src = (struct dk_src){ .fd = -1, .size = zs.size,
	    .name = c->unz_name, .z = z };
	c->off_shift = 0;
	return 1;
}

static enum dk_status
unz_check(struct dk_ck *c, struct dk_err *err)
{
	struct dk_unz_check u;

	if (c->stream_ok && unz_stream(c))
		return DK_OK;
	unz_scan(c, &u);
	if (!u.found)
		return DK_OK;
	if (u.fd < 0) {
		*err = u.err;
		return err->code;
	}
	c->inner = 1;
	c->unz_fd = u.fd;
	snprintf(c->unz_name, sizeof(c->unz_name), "%s", u.name);
	c->src.fd = u.fd;
	c->src.mem = NULL;
	c->src.base = 0;
	c->src.size = u.size;
	c->src.name = c->unz_name;
	c->off_shift = 0;
	return DK_OK;
}

/* What the containers table's compressed rows give dumpcheck (one pass). */
const struct dk_format_check dk_unz_ck = {
	.check		= unz_check,
	.codes		= unz_codes,
	.ncodes		= DK_ARRAY_LEN(unz_codes),
};
