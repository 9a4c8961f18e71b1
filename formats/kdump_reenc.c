/*
 * kdump_reenc.c -- how a kdump-compressed file's stored pages re-encode:
 * the first step of the portable ELF minidump's way back (source kind 5,
 * docs/portable-elf-minidump.md).  The compressors are deterministic, but
 * the bytes depend on the encoder and its level: makedumpfile and QEMU
 * call zlib's compress2 at Z_BEST_SPEED, dumpkit's writer libdeflate at
 * its level; lzo1x_1 or lzo1x_999; zstd at a level.  The encoder is not
 * in the file: it is found by trying each candidate of the table on the
 * first KR_SAMPLE pages of a codec and keeping the one that reproduces
 * the most (the first listed on a tie); every later page is re-encoded
 * with it alone.  A page it does not reproduce byte for byte is residue.
 */
#include <stdlib.h>
#include <string.h>

#include <libdeflate.h>
#include <lzo/lzo1x.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include "kdump.h"

#define	KR_SAMPLE	32	/* pages of a codec the candidates are tried on */
#define	KR_EARLY	4	/* ... or these, if one reproduces them all */
#define	KR_MAXCAND	48

/* The codecs by index: the bits of the descriptor's flags. */
static const unsigned kr_codec[4] = { KD_DH_ZLIB, KD_DH_LZO, KD_DH_SNAPPY,
    KD_DH_ZSTD };

enum kr_lib { KR_COMPRESS2, KR_LIBDEFLATE, KR_LZO1X_1, KR_LZO1X_999,
    KR_SNAPPY, KR_ZSTD };

/*
 * The candidate encoders, per codec index, in order of preference: each
 * library at each of its levels, from lo to hi.
 */
static const struct kr_lib_row {
	int		 ci;
	enum kr_lib	 lib;
	int		 lo, hi;
	const char	*name;
} kr_libs[] = {
	{ 0, KR_COMPRESS2, 1, 9, "zlib compress2" },	/* makedumpfile, QEMU */
	{ 0, KR_LIBDEFLATE, 1, 12, "libdeflate" },	/* dumpkit */
	{ 1, KR_LZO1X_1, 1, 1, "lzo1x_1" },
	{ 1, KR_LZO1X_999, 9, 9, "lzo1x_999" },
	{ 2, KR_SNAPPY, 0, 0, "snappy" },
	{ 3, KR_ZSTD, 1, 22, "zstd" },
};

/* One candidate: a library at a level. */
struct kr_cand {
	int		 ci;
	enum kr_lib	 lib;
	int		 level;
	const char	*name;
};

/* kr_libs expanded: the candidates in order; their count. */
static size_t
kr_expand(struct kr_cand *c, size_t cap)
{
	size_t n = 0;

	for (size_t i = 0; i < DK_ARRAY_LEN(kr_libs); i++)
		for (int l = kr_libs[i].lo; l <= kr_libs[i].hi && n < cap; l++)
			c[n++] = (struct kr_cand){ kr_libs[i].ci,
			    kr_libs[i].lib, l, kr_libs[i].name };
	return n;
}

struct kr_state {
	uint8_t		*out;		/* room for any encoder's output */
	size_t		 cap;
	uint8_t		*wrk;		/* lzo's work memory */
	ZSTD_CCtx	*zc;
	struct libdeflate_compressor *ld[13];
};

/* Encode the page of block bytes with candidate c: its size, 0 if none. */
static size_t
kr_encode(struct kr_state *s, const struct kr_cand *c, const uint8_t *in,
    size_t block)
{
	switch (c->lib) {
	case KR_COMPRESS2: {
		uLongf n = (uLongf)s->cap;

		return compress2(s->out, &n, in, (uLong)block, c->level) ==
		    Z_OK ? (size_t)n : 0;
	}
	case KR_LIBDEFLATE:
		if (s->ld[c->level] == NULL &&
		    (s->ld[c->level] = libdeflate_alloc_compressor(c->level)) ==
		    NULL)
			return 0;
		return libdeflate_zlib_compress(s->ld[c->level], in, block,
		    s->out, s->cap);
	case KR_LZO1X_1:
	case KR_LZO1X_999: {
		lzo_uint n = 0;

		return (c->lib == KR_LZO1X_1 ? lzo1x_1_compress(in, block,
		    s->out, &n, s->wrk) : lzo1x_999_compress(in, block, s->out,
		    &n, s->wrk)) == LZO_E_OK ? (size_t)n : 0;
	}
	case KR_SNAPPY: {
		size_t n = s->cap;

		return snappy_compress((const char *)in, block,
		    (char *)s->out, &n) == SNAPPY_OK ? n : 0;
	}
	case KR_ZSTD: {
		size_t r = ZSTD_compressCCtx(s->zc, s->out, s->cap, in, block,
		    c->level);

		return ZSTD_isError(r) ? 0 : r;
	}
	}
	return 0;
}

/* Does candidate c give exactly the size bytes at raw for page? */
static int
kr_same(struct kr_state *s, const struct kr_cand *c, const uint8_t *page,
    size_t block, const uint8_t *raw, uint64_t size)
{
	size_t n = kr_encode(s, c, page, block);

	return n == size && memcmp(s->out, raw, n) == 0;
}

/* A stored page's bytes in its part. */
struct kr_ext {
	size_t		part;
	uint64_t	off, size;
};

static int
kr_ext_cmp(const void *a, const void *b)
{
	const struct kr_ext *x = a, *y = b;

	if (x->part != y->part)
		return x->part < y->part ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* Count [lo, hi) of part pi into the gap bytes, and those not zero. */
static enum dk_status
kr_gap(struct dk_dump *d, size_t pi, uint64_t lo, uint64_t hi, uint8_t *buf,
    struct dk_kd_reenc *r, struct dk_err *err)
{
	while (lo < hi) {
		size_t n = hi - lo < KD_MAX_BLOCK ? (size_t)(hi - lo) :
		    KD_MAX_BLOCK;
		enum dk_status st;

		if ((st = dk_kd_part_read(d, pi, buf, n, lo, err)) != DK_OK)
			return st;
		r->gap += n;
		for (size_t i = 0; i < n; i++)
			r->gap_nonzero += buf[i] != 0;
		lo += n;
	}
	return DK_OK;
}

/*
 * The bytes of each part past its descriptors that no stored page holds:
 * what the residue carries besides pages (eraseinfo, non-zero holes).
 */
static enum dk_status
kr_gaps(struct dk_dump *d, struct kr_ext *x, size_t n, uint8_t *buf,
    struct dk_kd_reenc *r, struct dk_err *err)
{
	uint64_t meta, size;
	size_t j = 0;
	enum dk_status st;

	if (n > 1)
		qsort(x, n, sizeof(*x), kr_ext_cmp);
	for (size_t pi = 0; dk_kd_part_extent(d, pi, &meta, &size); pi++) {
		uint64_t at = meta;

		for (; j < n && x[j].part == pi; j++) {
			if (x[j].off > at && (st = kr_gap(d, pi, at,
			    x[j].off < size ? x[j].off : size, buf, r, err)) !=
			    DK_OK)
				return st;
			if (x[j].off + x[j].size > at)
				at = x[j].off + x[j].size;
		}
		if (at < size && (st = kr_gap(d, pi, at, size, buf, r, err)) !=
		    DK_OK)
			return st;
	}
	return DK_OK;
}

/* Does a candidate of codec ci reproduce all n pages sampled? */
static int
kr_perfect(const struct kr_cand *cand, size_t ncand, int ci,
    const uint64_t *hit, uint64_t n)
{
	for (size_t c = 0; c < ncand; c++)
		if (cand[c].ci == ci && hit[c] == n)
			return 1;
	return 0;
}

/*
 * The sample of codec ci (n pages) is done: choose the candidate of most
 * hits, the first on a tie; the pages it missed are residue.
 */
static void
kr_choose(const struct kr_cand *cand, size_t ncand, int ci,
    const uint64_t *hit, const uint64_t *miss_bytes, uint64_t n,
    int *chosen, struct dk_kd_reenc *r)
{
	for (size_t c = 0; c < ncand; c++)
		if (cand[c].ci == ci && (chosen[ci] < 0 ||
		    hit[c] > hit[chosen[ci]]))
			chosen[ci] = (int)c;
	r->differ[ci] += n - hit[chosen[ci]];
	r->residue += miss_bytes[chosen[ci]];
}

enum dk_status
dk_kd_reenc_survey(struct dk_dump *d, struct dk_kd_reenc *r,
    struct dk_err *err)
{
	struct dk_kd_stored sp = { 0 };
	struct kr_state s = { 0 };
	uint64_t seen[4] = { 0 }, hit[KR_MAXCAND] = { 0 };
	uint64_t miss_bytes[KR_MAXCAND] = { 0 }, zoff = UINT64_MAX;
	int chosen[4] = { -1, -1, -1, -1 };
	uint8_t *raw = NULL, *page = NULL;
	enum dk_status st = DK_OK;
	struct kr_cand cand[KR_MAXCAND];
	struct kr_ext *x = NULL;
	size_t next = 0, capx = 0;
	size_t ncand = kr_expand(cand, KR_MAXCAND);
	int got;

	memset(r, 0, sizeof(*r));
	dk_err_clear(err);
	s.cap = 2 * KD_MAX_BLOCK + 4096;
	if ((raw = malloc(KD_MAX_BLOCK)) == NULL ||
	    (page = malloc(KD_MAX_BLOCK)) == NULL ||
	    (s.out = malloc(s.cap)) == NULL ||
	    (s.wrk = malloc(LZO1X_999_MEM_COMPRESS)) == NULL ||
	    (s.zc = ZSTD_createCCtx()) == NULL || lzo_init() != LZO_E_OK) {
		st = dk_err_set(err, DK_ENOMEM, "out of memory");
		goto out;
	}
	while ((got = dk_kd_stored_next(d, &sp, raw, page, err)) == 1) {
		size_t block = (size_t)sp.block;
		int ci;

		if (sp.codec == UINT32_MAX) {
			r->skipped++;
			continue;
		}
		/*
		 * makedumpfile writes one zero page, stored as it is, for
		 * every zero page's descriptor (dump level bit 1 unset).
		 */
		if (sp.off == zoff) {
			r->shared++;
			continue;
		}
		if (next == capx) {
			struct kr_ext *nx;

			capx = capx ? 2 * capx : 1024;
			if ((nx = realloc(x, capx * sizeof(*x))) == NULL) {
				st = dk_err_set(err, DK_ENOMEM, "out of memory");
				goto out;
			}
			x = nx;
		}
		x[next++] = (struct kr_ext){ sp.part, sp.off, sp.size };
		if (sp.codec == 0) {
			if (zoff == UINT64_MAX && page[0] == 0 &&
			    memcmp(page, page + 1, block - 1) == 0)
				zoff = sp.off;
			r->plain++;
			continue;
		}
		for (ci = 0; kr_codec[ci] != sp.codec; ci++)
			;
		r->pages[ci]++;
		if (chosen[ci] < 0) {
			for (size_t c = 0; c < ncand; c++) {
				if (cand[c].ci != ci)
					continue;
				if (kr_same(&s, &cand[c], page, block, raw,
				    sp.size))
					hit[c]++;
				else
					miss_bytes[c] += sp.size;
			}
			seen[ci]++;
			if (seen[ci] >= KR_SAMPLE || (seen[ci] >= KR_EARLY &&
			    kr_perfect(cand, ncand, ci, hit, seen[ci])))
				kr_choose(cand, ncand, ci, hit, miss_bytes,
				    seen[ci], chosen, r);
			continue;
		}
		if (!kr_same(&s, &cand[chosen[ci]], page, block, raw,
		    sp.size)) {
			r->differ[ci]++;
			r->residue += sp.size;
		}
	}
	if (got < 0) {
		st = err->code;
		goto out;
	}
	if ((st = kr_gaps(d, x, next, raw, r, err)) != DK_OK)
		goto out;
	/* Codecs of fewer pages than the sample. */
	for (int ci = 0; ci < 4; ci++) {
		if (chosen[ci] < 0 && seen[ci] > 0)
			kr_choose(cand, ncand, ci, hit, miss_bytes, seen[ci],
			    chosen, r);
		if (chosen[ci] >= 0) {
			r->enc[ci] = cand[chosen[ci]].name;
			r->level[ci] = cand[chosen[ci]].level;
		}
	}
out:
	for (size_t i = 0; i < DK_ARRAY_LEN(s.ld); i++)
		if (s.ld[i] != NULL)
			libdeflate_free_compressor(s.ld[i]);
	ZSTD_freeCCtx(s.zc);
	free(s.wrk);
	free(s.out);
	free(x);
	free(page);
	free(raw);
	return st;
}
