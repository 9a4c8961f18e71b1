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

#include "compress.h"

/* The message without its leading "NAME: ", which the finding's file has. */
static const char *
bare(const char *msg, const char *name)
{
	size_t n = strlen(name);

	return strncmp(msg, name, n) == 0 && msg[n] == ':' && msg[n + 1] ==
	    ' ' ? msg + n + 2 : msg;
}

void
dk_unz_check(const struct dk_src *src,
    void (*emit)(void *, const char *, uint64_t, const char *), void *arg,
    struct dk_unz_check *out)
{
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
		emit(arg, st == DK_ETRUNC ? "compress.truncated" : u.trailing ?
		    "compress.trailing-bytes" : "compress.corrupt",
		    u.fail_off, msg);
		dk_err_clear(&out->err);
	}
	if (u.padding > 0) {
		snprintf(msg, sizeof(msg), "%ju zero bytes after the end of "
		    "the %s stream (from %#jx to the end of the file): a dump "
		    "device's last block is zero-padded", (uintmax_t)u.padding,
		    dk_comp_name(u.kind), (uintmax_t)u.in_end);
		emit(arg, "compress.padding", u.in_end, msg);
	}
	out->fd = u.fd;
	out->size = u.size;
}
