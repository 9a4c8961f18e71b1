/*
 * fuzz_compress.c -- libFuzzer target for the compressed-stream decoder
 * (formats/decompress.c) and its container rows.
 *
 * The input is decoded as each of gzip, zstd and xz (the magic decides
 * for dk_open_mem, which then opens whatever the stream holds), and the
 * answers are checked: an error has a message naming the input and a
 * failure offset inside it, and leaves no descriptor; a success gives a
 * file of exactly the size it reports.  A broken invariant aborts.
 *
 * A few bytes of zstd can ask for gigabytes of output (RLE blocks): the
 * temporary files are bounded by RLIMIT_FSIZE, so that such an input is
 * a clean DK_ESYS (EFBIG), not a slow fuzzer.
 *
 * The one-pass stream (dk_zsrc_open: the zstd frame walk) must agree
 * with the spool: where it opens, reading it front to back gives the
 * bytes the spool holds, and it fails exactly where the spool fails.
 *
 * Linked with libFuzzer (make fuzz) or with replay.c (make fuzz-replay).
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compress.h"
#include "fuzz.h"

#define	FZ_FSIZE_MAX	(64ull << 20)	/* bytes a temporary file may reach */

static void
fz_limit(void)
{
	struct rlimit rl;

	signal(SIGXFSZ, SIG_IGN);
	if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && (rl.rlim_cur == RLIM_INFINITY ||
	    rl.rlim_cur > FZ_FSIZE_MAX)) {
		rl.rlim_cur = FZ_FSIZE_MAX;
		(void)setrlimit(RLIMIT_FSIZE, &rl);
	}
}

static void
one(const struct dk_src *src, enum dk_comp k, int partial)
{
	struct dk_unz u;
	struct dk_err err;
	struct stat sb;
	enum dk_status st;

	dk_err_clear(&err);
	st = dk_unz_file(src, k, partial, &u, &err);
	if (st == DK_OK) {
		FZ_CHECK(u.fd >= 0);
		FZ_CHECK(fstat(u.fd, &sb) == 0);
		FZ_CHECK((uint64_t)sb.st_size == u.size);
		FZ_CHECK(u.members >= 1);
		FZ_CHECK(u.in_end + u.padding == src->size);
		close(u.fd);
		return;
	}
	FZ_CHECK(err.code == st);
	FZ_CHECK(memchr(err.msg, '\0', sizeof(err.msg)) != NULL);
	FZ_CHECK(strncmp(err.msg, src->name, strlen(src->name)) == 0);
	if (st == DK_ETRUNC || st == DK_ECORRUPT) {
		FZ_CHECK(u.fail_off <= src->size);
		FZ_CHECK(st != DK_ETRUNC || u.fail_off == src->size);
		FZ_CHECK(partial ? u.fd >= 0 : u.fd == -1);
	} else
		FZ_CHECK(u.fd == -1);
	if (u.fd >= 0) {
		FZ_CHECK(fstat(u.fd, &sb) == 0);
		FZ_CHECK((uint64_t)sb.st_size == u.size);
		close(u.fd);
	}
}

/* The one-pass stream, read in order, against the spool's bytes. */
static void
one_pass(const struct dk_src *src, enum dk_comp k)
{
	struct dk_zsrc *z;
	struct dk_zstats zs;
	struct dk_unz u;
	struct dk_err err, e2;
	uint8_t a[8192], b[8192];
	enum dk_status st, sp;
	uint64_t off = 0;

	if (dk_zsrc_open(src, k, &z, &err) != DK_OK)
		return;
	FZ_CHECK(dk_zsrc_stats(z, &zs) == 1);
	if (zs.size > FZ_FSIZE_MAX) {		/* bounded, as the spool is */
		dk_zsrc_close(z);
		return;
	}
	sp = dk_unz_file(src, k, 1, &u, &e2);
	st = DK_OK;
	while (st == DK_OK && off < zs.size) {
		size_t n = zs.size - off < sizeof(a) ? (size_t)(zs.size - off) :
		    sizeof(a);

		if ((st = dk_zsrc_pread(z, a, n, off, "data", &err)) != DK_OK)
			break;
		/* What the spool decoded before its failure is the same. */
		if (u.fd >= 0 && off + n <= u.size) {
			FZ_CHECK(pread(u.fd, b, n, (off_t)off) == (ssize_t)n);
			FZ_CHECK(memcmp(a, b, n) == 0);
		}
		off += n;
	}
	if (st == DK_OK)
		st = dk_zsrc_end(z, &err);
	FZ_CHECK((st == DK_OK) == (sp == DK_OK));
	if (st != DK_OK)
		FZ_CHECK(err.code == st && strncmp(err.msg, src->name,
		    strlen(src->name)) == 0);
	if (sp == DK_OK)
		FZ_CHECK(u.size == zs.size);
	if (u.fd >= 0)
		close(u.fd);
	dk_zsrc_close(z);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dk_src src = { .fd = -1, .mem = data, .size = size,
	    .name = "fuzz-input" };
	enum dk_comp k = dk_comp_detect(data, size);
	struct dk_dump *d;
	struct dk_err err;

	fz_limit();
	/* The kind the magic names, partial and not; the others refuse. */
	if (k != DK_COMP_NONE) {
		one(&src, k, 0);
		one(&src, k, 1);
		one_pass(&src, k);
	}
	for (int o = DK_COMP_GZIP; o <= DK_COMP_XZ; o++)
		if (o != (int)k)
			one(&src, (enum dk_comp)o, 0);
	/* Through the container table, into whatever format it holds. */
	if (dk_open_mem(data, size, "fuzz-input", NULL, &d, &err) == DK_OK) {
		FZ_CHECK(k == DK_COMP_NONE || dk_nlayers(d) >= 1);
		dk_close(d);
	} else
		FZ_CHECK(err.code != DK_OK && err.msg[0] != '\0');
	return 0;
}
