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

#define	KR_SAMPLE	64	/* pages of a codec the race may take */
#define	KR_BUDGET	(4u << 20)	/* bytes it may encode, per codec */
#define	KR_MAXCAND	48

/* The codecs by index: the bits of the descriptor's flags. */
static const unsigned kr_codec[4] = { KD_DH_ZLIB, KD_DH_LZO, KD_DH_SNAPPY,
    KD_DH_ZSTD };

/* The encoders; their numbers are the encoders note's (10.3). */
enum kr_lib { KR_COMPRESS2 = 1, KR_LIBDEFLATE, KR_LZO1X_1, KR_LZO1X_999,
    KR_SNAPPY, KR_ZSTD };

/*
 * The candidate encoders, per codec index, in order of preference: each
 * library at each of its levels, from lo to hi.  zstd stops at 19, the
 * highest level before the "ultra" ones, which no producer uses.
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
	{ 3, KR_ZSTD, 1, 19, "zstd" },
};

static const struct kr_lib_row *
kr_row(uint32_t lib)
{
	for (size_t i = 0; i < DK_ARRAY_LEN(kr_libs); i++)
		if ((uint32_t)kr_libs[i].lib == lib)
			return &kr_libs[i];
	return NULL;
}

int
dk_kd_codec_index(unsigned codec)
{
	for (int ci = 0; ci < 4; ci++)
		if (kr_codec[ci] == codec)
			return ci;
	return -1;
}

const char *
dk_kd_encoder_name(const struct dk_kd_enc *e)
{
	const struct kr_lib_row *r = kr_row(e->encoder);

	return r != NULL && (unsigned)r->ci == (unsigned)dk_kd_codec_index(
	    e->codec) && e->level >= r->lo && e->level <= r->hi ? r->name :
	    NULL;
}

/* kr_libs expanded: the candidates in order; their count. */
static size_t
kr_expand(struct dk_kd_enc *c, int *ci, size_t cap)
{
	size_t n = 0;

	for (size_t i = 0; i < DK_ARRAY_LEN(kr_libs); i++)
		for (int l = kr_libs[i].lo; l <= kr_libs[i].hi && n < cap;
		    l++) {
			ci[n] = kr_libs[i].ci;
			c[n++] = (struct dk_kd_enc){ kr_codec[kr_libs[i].ci],
			    (uint32_t)kr_libs[i].lib, l };
		}
	return n;
}

struct dk_kd_encoder {
	uint8_t		*out;		/* room for any encoder's output */
	size_t		 cap;
	uint8_t		*wrk;		/* lzo's work memory */
	ZSTD_CCtx	*zc;
	struct libdeflate_compressor *ld[13];
};

struct dk_kd_encoder *
dk_kd_encoder_new(void)
{
	struct dk_kd_encoder *s = calloc(1, sizeof(*s));

	if (s == NULL)
		return NULL;
	s->cap = 2 * KD_MAX_BLOCK + 4096;
	if ((s->out = malloc(s->cap)) == NULL ||
	    (s->wrk = malloc(LZO1X_999_MEM_COMPRESS)) == NULL ||
	    (s->zc = ZSTD_createCCtx()) == NULL || lzo_init() != LZO_E_OK) {
		dk_kd_encoder_free(s);
		return NULL;
	}
	return s;
}

void
dk_kd_encoder_free(struct dk_kd_encoder *s)
{
	if (s == NULL)
		return;
	for (size_t i = 0; i < DK_ARRAY_LEN(s->ld); i++)
		if (s->ld[i] != NULL)
			libdeflate_free_compressor(s->ld[i]);
	ZSTD_freeCCtx(s->zc);
	free(s->wrk);
	free(s->out);
	free(s);
}

size_t
dk_kd_encode(struct dk_kd_encoder *s, const struct dk_kd_enc *c,
    const uint8_t *in, size_t block, const uint8_t **out)
{
	size_t n = 0;

	*out = s->out;
	if (dk_kd_encoder_name(c) == NULL || block > KD_MAX_BLOCK)
		return 0;
	switch ((enum kr_lib)c->encoder) {
	case KR_COMPRESS2: {
		uLongf z = (uLongf)s->cap;

		n = compress2(s->out, &z, in, (uLong)block, c->level) == Z_OK ?
		    (size_t)z : 0;
		break;
	}
	case KR_LIBDEFLATE:
		if (s->ld[c->level] == NULL &&
		    (s->ld[c->level] = libdeflate_alloc_compressor(c->level)) ==
		    NULL)
			return 0;
		n = libdeflate_zlib_compress(s->ld[c->level], in, block, s->out,
		    s->cap);
		break;
	case KR_LZO1X_1:
	case KR_LZO1X_999: {
		lzo_uint z = 0;

		n = (c->encoder == KR_LZO1X_1 ? lzo1x_1_compress(in, block,
		    s->out, &z, s->wrk) : lzo1x_999_compress(in, block, s->out,
		    &z, s->wrk)) == LZO_E_OK ? (size_t)z : 0;
		break;
	}
	case KR_SNAPPY: {
		size_t z = s->cap;

		n = snappy_compress((const char *)in, block, (char *)s->out,
		    &z) == SNAPPY_OK ? z : 0;
		break;
	}
	case KR_ZSTD: {
		size_t r = ZSTD_compressCCtx(s->zc, s->out, s->cap, in, block,
		    c->level);

		n = ZSTD_isError(r) ? 0 : r;
		break;
	}
	}
	return n;
}

/* Does c give exactly the size bytes at raw for page? */
static int
kr_same(struct dk_kd_encoder *s, const struct dk_kd_enc *c,
    const uint8_t *page, size_t block, const uint8_t *raw, uint64_t size)
{
	const uint8_t *o;
	size_t n = dk_kd_encode(s, c, page, block, &o);

	return n == size && memcmp(o, raw, n) == 0;
}

/* The race of one codec's candidates (see the opening comment). */
struct kr_race {
	uint64_t	pages, spent;
	uint64_t	best;		/* the most hits of a candidate */
	int		done;
};

enum dk_status
dk_kd_reenc_choose(struct dk_dump *d, struct dk_kd_enc enc[4],
    struct dk_err *err)
{
	struct dk_kd_stored sp = { 0 };
	struct dk_kd_encoder *s = NULL;
	struct dk_kd_enc cand[KR_MAXCAND];
	int cci[KR_MAXCAND];
	uint64_t hit[KR_MAXCAND] = { 0 };
	struct kr_race race[4] = { { 0, 0, 0, 0 } };
	uint8_t *raw = NULL, *page = NULL;
	size_t ncand = kr_expand(cand, cci, KR_MAXCAND);
	enum dk_status st = DK_OK;
	int got, left = 4;

	memset(enc, 0, 4 * sizeof(*enc));
	dk_err_clear(err);
	if ((raw = malloc(KD_MAX_BLOCK)) == NULL ||
	    (page = malloc(KD_MAX_BLOCK)) == NULL ||
	    (s = dk_kd_encoder_new()) == NULL) {
		st = dk_err_set(err, DK_ENOMEM, "out of memory");
		goto out;
	}
	while (left > 0 && (got = dk_kd_stored_next(d, &sp, raw, page, err)) ==
	    1) {
		struct kr_race *r;
		uint64_t best = 0, lead = 0;
		int ci;

		if (sp.codec == UINT32_MAX || sp.codec == 0 ||
		    (ci = dk_kd_codec_index(sp.codec)) < 0 || race[ci].done)
			continue;
		r = &race[ci];
		for (size_t c = 0; c < ncand; c++) {
			if (cci[c] != ci || hit[c] != r->best)
				continue;
			hit[c] += kr_same(s, &cand[c], page, (size_t)sp.block,
			    raw, sp.size);
			r->spent += sp.block;
		}
		r->pages++;
		for (size_t c = 0; c < ncand; c++)
			if (cci[c] == ci && hit[c] > best)
				best = hit[c];
		for (size_t c = 0; c < ncand; c++)
			lead += cci[c] == ci && hit[c] == best;
		r->best = best;
		if ((best > 0 && lead == 1) || r->pages >= KR_SAMPLE ||
		    r->spent >= KR_BUDGET) {
			r->done = 1;
			left--;
		}
	}
	if (left > 0 && got < 0) {
		st = err->code;
		goto out;
	}
	dk_err_clear(err);
	/* Per codec seen: the first listed of those with the most hits. */
	for (int ci = 0; ci < 4; ci++)
		for (size_t c = 0; c < ncand && race[ci].pages > 0; c++)
			if (cci[c] == ci && hit[c] == race[ci].best) {
				enc[ci] = cand[c];
				break;
			}
out:
	dk_kd_encoder_free(s);
	free(page);
	free(raw);
	return st;
}

/* The walk's state: the part, where its bytes are accounted up to. */
struct kr_walk {
	struct dk_dump	*d;
	dk_kd_walk_fn	 fn;
	void		*arg;
	uint8_t		*buf;
	size_t		 part;
	uint64_t	 pos, size;
};

/*
 * The bytes [lo, hi) of the part between pages: to fn as a gap, with
 * the span of its non-zero bytes.
 */
static enum dk_status
kr_gap(struct kr_walk *w, uint64_t lo, uint64_t hi, struct dk_err *err)
{
	struct dk_kd_piece pc = { DK_KD_GAP, NULL, lo, hi - lo, UINT64_MAX, 0,
	    NULL };
	uint64_t at = lo;

	while (at < hi) {
		size_t n = hi - at < KD_MAX_BLOCK ? (size_t)(hi - at) :
		    KD_MAX_BLOCK;
		struct dk_range m;
		enum dk_status st;

		/* A flattened file's bytes no record holds: zeros, skipped. */
		if (dk_kd_flat_map(w->d, w->part, at, hi - at, &m)) {
			if (m.start == UINT64_MAX) {
				at += m.end;
				continue;
			}
			if (m.end < n)
				n = (size_t)m.end;
		}
		if ((st = dk_kd_part_read(w->d, w->part, w->buf, n, at, err)) !=
		    DK_OK)
			return st;
		for (size_t i = 0; i < n; i++)
			if (w->buf[i] != 0) {
				if (pc.nz_lo == UINT64_MAX)
					pc.nz_lo = at + i;
				pc.nz_hi = at + i + 1;
			}
		at += n;
	}
	return w->fn(w->arg, &pc, err);
}

/* Part w->part's pages are done: the bytes after them, to its end. */
static enum dk_status
kr_part_end(struct kr_walk *w, struct dk_err *err)
{
	if (w->pos < w->size)
		return kr_gap(w, w->pos, w->size, err);
	return DK_OK;
}

enum dk_status
dk_kd_reenc_walk(struct dk_dump *d, const struct dk_kd_enc enc[4],
    dk_kd_walk_fn fn, void *arg, struct dk_err *err)
{
	struct dk_kd_stored sp = { 0 };
	struct dk_kd_encoder *s = NULL;
	struct kr_walk w = { d, fn, arg, NULL, 0, 0, 0 };
	uint8_t *raw = NULL, *page = NULL;
	enum dk_status st = DK_OK;
	int got, started = 0;

	dk_err_clear(err);
	if ((raw = malloc(KD_MAX_BLOCK)) == NULL ||
	    (page = malloc(KD_MAX_BLOCK)) == NULL ||
	    (w.buf = malloc(KD_MAX_BLOCK)) == NULL ||
	    (s = dk_kd_encoder_new()) == NULL) {
		st = dk_err_set(err, DK_ENOMEM, "out of memory");
		goto out;
	}
	while ((got = dk_kd_stored_next(d, &sp, raw, page, err)) == 1) {
		struct dk_kd_piece pc = { DK_KD_SKIP, &sp, sp.off, sp.size,
		    0, 0, NULL };
		int ci;

		/* A new part: the last one's tail; this one's bytes from
		 * where its descriptors end. */
		if (!started || sp.part != w.part) {
			uint64_t meta;

			if (started && (st = kr_part_end(&w, err)) != DK_OK)
				goto out;
			w.part = sp.part;
			(void)dk_kd_part_extent(d, w.part, &meta, &w.size);
			w.pos = meta;
			started = 1;
		}
		if (sp.codec == UINT32_MAX)
			pc.kind = DK_KD_SKIP;
		else if (sp.off < w.pos) {
			/*
			 * Bytes already accounted for (the shared zero page):
			 * only what it has past them, as a gap.
			 */
			pc.kind = DK_KD_SHARED;
			if (sp.off + sp.size > w.pos) {
				if ((st = kr_gap(&w, w.pos, sp.off + sp.size,
				    err)) != DK_OK)
					goto out;
				w.pos = sp.off + sp.size;
			}
		} else {
			if (sp.off > w.pos && (st = kr_gap(&w, w.pos, sp.off,
			    err)) != DK_OK)
				goto out;
			w.pos = sp.off + sp.size;
			if (sp.codec == 0)
				pc.kind = DK_KD_PLAIN;
			else {
				ci = dk_kd_codec_index(sp.codec);
				pc.kind = enc[ci].codec != 0 && kr_same(s,
				    &enc[ci], page, (size_t)sp.block, raw,
				    sp.size) ? DK_KD_SAME : DK_KD_DIFFER;
			}
			pc.raw = raw;
		}
		if ((st = fn(arg, &pc, err)) != DK_OK)
			goto out;
	}
	if (got < 0) {
		st = err->code;
		goto out;
	}
	if (started)
		st = kr_part_end(&w, err);
	else {
		/* No descriptor at all: each part's bytes past its metadata. */
		uint64_t meta;

		for (w.part = 0; st == DK_OK && dk_kd_part_extent(d, w.part,
		    &meta, &w.size); w.part++) {
			w.pos = meta;
			st = kr_part_end(&w, err);
		}
	}
out:
	dk_kd_encoder_free(s);
	free(w.buf);
	free(page);
	free(raw);
	return st;
}

/* The survey's count of what the walk finds. */
static enum dk_status
kr_count(void *arg, const struct dk_kd_piece *pc, struct dk_err *err)
{
	struct dk_kd_reenc *r = arg;
	int ci;

	(void)err;
	switch (pc->kind) {
	case DK_KD_SKIP:
		r->skipped++;
		break;
	case DK_KD_SHARED:
		r->shared++;
		break;
	case DK_KD_PLAIN:
		r->plain++;
		break;
	case DK_KD_SAME:
	case DK_KD_DIFFER:
		ci = dk_kd_codec_index(pc->sp->codec);
		r->pages[ci]++;
		if (pc->kind == DK_KD_DIFFER) {
			r->differ[ci]++;
			r->residue += pc->len;
		}
		break;
	case DK_KD_GAP:
		r->gap += pc->len;
		if (pc->nz_lo != UINT64_MAX)
			r->gap_nonzero += pc->nz_hi - pc->nz_lo;
		break;
	}
	return DK_OK;
}

enum dk_status
dk_kd_reenc_survey(struct dk_dump *d, struct dk_kd_reenc *r,
    struct dk_err *err)
{
	enum dk_status st;

	memset(r, 0, sizeof(*r));
	if ((st = dk_kd_reenc_choose(d, r->chosen, err)) != DK_OK)
		return st;
	for (int ci = 0; ci < 4; ci++) {
		r->enc[ci] = dk_kd_encoder_name(&r->chosen[ci]);
		r->level[ci] = r->chosen[ci].level;
	}
	return dk_kd_reenc_walk(d, r->chosen, kr_count, r, err);
}
