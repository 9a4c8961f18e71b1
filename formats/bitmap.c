/*
 * bitmap.c -- the page bitmap, normalised and sparse, with a rank index.
 *
 * On disk the kernel sets bits in words of 4 or 8 bytes (LSB = lowest
 * page) and writes the words in its own byte order (FORMATS.md 1.4).
 * On a little-endian dump bit n is therefore byte n/8, bit n%8 whatever
 * the word size; on a big-endian dump the bytes of each word are
 * reversed.  Here bit n is always bit n%64 of word n/64.
 *
 * Only what is not uniform is held (private.h): the superblocks of
 * 65536 bits with a set bit, sorted by number; in each, a mask of the
 * 512-bit blocks whose bits are all set and a mask of those that have
 * both, whose 8 words follow one another in the superblock's array.
 * A bitmap is read chunk by chunk, so the whole of it is never in
 * memory: the 2 GiB bitmap of a 64 TiB machine with 64 MiB dumped in
 * 554 runs takes 73 KiB.  Memory is at most 66 bytes per block where a
 * run starts or ends, and 64 bytes per superblock with a set bit; a
 * dense bitmap costs about what its words cost (3 % more).
 *
 * Index (dk_bitmap_index): each superblock's count of set bits before
 * it, and per mixed block the set bits of the mixed blocks before it
 * (2 bytes), so that rank is a lookup, two mask popcounts and at most
 * eight word popcounts.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bytes.h"
#include "private.h"

#define	BLOCK_BITS	(1u << DK_BM_BLOCK_SHIFT)
#define	SUPER_BLOCKS	(1u << (DK_BM_SUPER_SHIFT - DK_BM_BLOCK_SHIFT))
#define	NONE		UINT64_MAX

static const uint64_t zero_words[8];
static const uint64_t one_words[8] = {
	~(uint64_t)0, ~(uint64_t)0, ~(uint64_t)0, ~(uint64_t)0,
	~(uint64_t)0, ~(uint64_t)0, ~(uint64_t)0, ~(uint64_t)0,
};

/* ---------------------------------------------------------------------- */
/* 128-bit block masks.                                                    */

/*
 * Set bits of x.  Without -mpopcnt __builtin_popcountll is a call into
 * libgcc; this is a dozen instructions inline (and one where the target
 * has the instruction: compilers know the idiom).
 */
static inline unsigned
pop64(uint64_t x)
{
	x -= (x >> 1) & 0x5555555555555555ull;
	x = (x & 0x3333333333333333ull) + (x >> 2 & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (unsigned)((x * 0x0101010101010101ull) >> 56);
}

static inline int
mask_test(const uint64_t *m, unsigned b)
{
	return (int)(m[b >> 6] >> (b & 63) & 1);
}

static inline void
mask_set(uint64_t *m, unsigned b)
{
	m[b >> 6] |= (uint64_t)1 << (b & 63);
}

static inline void
mask_clear(uint64_t *m, unsigned b)
{
	m[b >> 6] &= ~((uint64_t)1 << (b & 63));
}

/* Set bits of m below bit b (b <= 128). */
static inline unsigned
mask_below(const uint64_t *m, unsigned b)
{
	if (b < 64)
		return pop64(m[0] & (((uint64_t)1 << b) - 1));
	return pop64(m[0]) + pop64(b == 128 ? m[1] : m[1] &
	    (((uint64_t)1 << (b - 64)) - 1));
}

/* The first set bit of m (or of ~m, inv) at or after b, or 128. */
static inline unsigned
mask_next(const uint64_t *m, unsigned b, int inv)
{
	for (; b < 128; b = (b | 63) + 1) {
		uint64_t x = inv ? ~m[b >> 6] : m[b >> 6];

		x &= ~(uint64_t)0 << (b & 63);
		if (x != 0)
			return (b & ~63u) + (unsigned)__builtin_ctzll(x);
	}
	return 128;
}

/* ---------------------------------------------------------------------- */
/* Superblocks and blocks.                                                 */

/* The index of the first superblock numbered id or above (nsb if none). */
static inline uint64_t
sb_find(const struct dk_bitmap *bm, uint64_t id)
{
	uint64_t lo = 0, hi = bm->nsb;

	/* Contiguous superblocks (a dense bitmap): no search. */
	if (hi > 0 && id >= bm->sb[0].id && id - bm->sb[0].id < hi &&
	    bm->sb[id - bm->sb[0].id].id == id)
		return id - bm->sb[0].id;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (bm->sb[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The superblock numbered id, or NULL. */
static const struct dk_bm_super *
sb_at(const struct dk_bitmap *bm, uint64_t id)
{
	uint64_t i = sb_find(bm, id);

	return i < bm->nsb && bm->sb[i].id == id ? &bm->sb[i] : NULL;
}

/* The index of superblock id, made (empty) if need be; NONE: no memory. */
static uint64_t
sb_make(struct dk_bitmap *bm, uint64_t id)
{
	uint64_t i = sb_find(bm, id);

	if (i < bm->nsb && bm->sb[i].id == id)
		return i;
	if (bm->nsb == bm->capsb) {
		uint64_t cap = bm->capsb ? 2 * bm->capsb : 4;
		struct dk_bm_super *p = cap <= SIZE_MAX / sizeof(*p) ?
		    realloc(bm->sb, (size_t)cap * sizeof(*p)) : NULL;

		if (p == NULL) {
			bm->nomem = 1;
			return NONE;
		}
		bm->sb = p;
		bm->capsb = cap;
	}
	memmove(&bm->sb[i + 1], &bm->sb[i], (size_t)(bm->nsb - i) *
	    sizeof(bm->sb[0]));
	memset(&bm->sb[i], 0, sizeof(bm->sb[i]));
	bm->sb[i].id = id;
	bm->nsb++;
	return i;
}

/* The 8 words of block b of superblock s (s may be NULL). */
static inline const uint64_t *
block_words(const struct dk_bm_super *s, unsigned b)
{
	if (s == NULL)
		return zero_words;
	if (mask_test(s->mixed, b))
		return s->w + 8 * mask_below(s->mixed, b);
	return mask_test(s->full, b) ? one_words : zero_words;
}

/* Bytes of w (and its index) for cap mixed blocks. */
static size_t
words_size(uint32_t cap)
{
	return (size_t)cap * 64 + ((size_t)cap + 1) * sizeof(uint16_t);
}

/* Room for block b's words in s, in block order; NULL: no memory. */
static uint64_t *
block_add(struct dk_bitmap *bm, struct dk_bm_super *s, unsigned b)
{
	unsigned k = mask_below(s->mixed, b), n = mask_below(s->mixed, 128);

	if (n == s->cap) {
		uint32_t cap = s->cap ? 2 * s->cap : 1;
		uint64_t *p;

		if (cap > SUPER_BLOCKS)
			cap = SUPER_BLOCKS;
		if ((p = realloc(s->w, words_size(cap))) == NULL) {
			bm->nomem = 1;
			return NULL;
		}
		s->w = p;
		s->cap = cap;
	}
	memmove(s->w + 8 * (k + 1), s->w + 8 * k, (size_t)(n - k) * 64);
	mask_set(s->mixed, b);
	return s->w + 8 * k;
}

static void
block_del(struct dk_bm_super *s, unsigned b)
{
	unsigned k = mask_below(s->mixed, b), n = mask_below(s->mixed, 128);

	memmove(s->w + 8 * k, s->w + 8 * (k + 1), (size_t)(n - k - 1) * 64);
	mask_clear(s->mixed, b);
}

/* Make block b of s hold words w: nothing, a mask bit, or the words. */
static void
block_put(struct dk_bitmap *bm, struct dk_bm_super *s, unsigned b,
    const uint64_t *w)
{
	uint64_t all = w[0], any = w[0];
	uint64_t *p;

	for (unsigned i = 1; i < 8; i++) {
		all &= w[i];
		any |= w[i];
	}
	if (any == 0 || all == ~(uint64_t)0) {
		if (mask_test(s->mixed, b))
			block_del(s, b);
		if (any == 0)
			mask_clear(s->full, b);
		else
			mask_set(s->full, b);
		return;
	}
	mask_clear(s->full, b);
	p = mask_test(s->mixed, b) ? s->w + 8 * mask_below(s->mixed, b) :
	    block_add(bm, s, b);
	if (p != NULL)
		memcpy(p, w, 64);
}

/* ---------------------------------------------------------------------- */
/* The public operations.                                                  */

enum dk_status
dk_bitmap_init(struct dk_bitmap *bm, uint64_t nbits, struct dk_err *err)
{
	(void)err;
	memset(bm, 0, sizeof(*bm));
	bm->nbits = nbits;
	return DK_OK;
}

void
dk_bitmap_free(struct dk_bitmap *bm)
{
	for (uint64_t i = 0; i < bm->nsb; i++)
		free(bm->sb[i].w);
	free(bm->sb);
	memset(bm, 0, sizeof(*bm));
}

uint64_t
dk_bitmap_bytes(const struct dk_bitmap *bm)
{
	uint64_t n = bm->capsb * sizeof(bm->sb[0]);

	for (uint64_t i = 0; i < bm->nsb; i++)
		if (bm->sb[i].cap > 0)
			n += words_size(bm->sb[i].cap);
	return n;
}

int
dk_bitmap_test(const struct dk_bitmap *bm, uint64_t n)
{
	uint64_t i, id = n >> DK_BM_SUPER_SHIFT;
	const struct dk_bm_super *s;
	unsigned b;

	if (n >= bm->nbits || (i = sb_find(bm, id)) == bm->nsb ||
	    bm->sb[i].id != id)
		return 0;
	s = &bm->sb[i];
	b = (unsigned)(n >> DK_BM_BLOCK_SHIFT) & (SUPER_BLOCKS - 1);
	if (mask_test(s->full, b))
		return 1;
	if (!mask_test(s->mixed, b))
		return 0;
	return (int)(s->w[8 * mask_below(s->mixed, b) + ((n >> 6) & 7)] >>
	    (n & 63) & 1);
}

void
dk_bitmap_set(struct dk_bitmap *bm, uint64_t n)
{
	dk_bitmap_or(bm, n >> 6, (uint64_t)1 << (n & 63));
}

void
dk_bitmap_or(struct dk_bitmap *bm, uint64_t word, uint64_t v)
{
	unsigned b = (unsigned)(word >> (DK_BM_BLOCK_SHIFT - 6)) &
	    (SUPER_BLOCKS - 1);
	struct dk_bm_super *s;
	uint64_t i, *p;

	/* Bits at or beyond nbits do not exist. */
	if (word >= (bm->nbits + 63) / 64)
		return;
	if (bm->nbits - word * 64 < 64)
		v &= ((uint64_t)1 << (bm->nbits - word * 64)) - 1;
	if (v == 0 || (i = sb_make(bm, word >> (DK_BM_SUPER_SHIFT - 6))) ==
	    NONE)
		return;
	s = &bm->sb[i];
	if (mask_test(s->full, b))
		return;
	if (mask_test(s->mixed, b))
		p = s->w + 8 * mask_below(s->mixed, b);
	else if ((p = block_add(bm, s, b)) != NULL)
		memset(p, 0, 64);
	if (p != NULL)
		p[word & 7] |= v;
}

/*
 * The byte that holds normalised byte k (bits 8k..8k+7) in the on-disk
 * encoding, relative to the start of its word.
 */
static inline size_t
disk_byte(size_t k, unsigned wordsize, enum dk_endian e)
{
	if (e != DK_BE)
		return k;
	return k - k % wordsize + (wordsize - 1 - k % wordsize);
}

/*
 * The normalised 64-bit word whose 8 on-disk bytes start at p (at a
 * word boundary of the on-disk encoding), for the word sizes the
 * formats use; and its inverse.
 */
static inline uint64_t
disk_word(const uint8_t *p, unsigned wordsize, enum dk_endian e)
{
	if (e != DK_BE)
		return dec_le64(p);
	if (wordsize == 8)
		return dec_be64(p);
	return (uint64_t)dec_be32(p + 4) << 32 | dec_be32(p);
}

static inline void
disk_word_put(uint8_t *p, uint64_t w, unsigned wordsize, enum dk_endian e)
{
	if (e != DK_BE)
		enc_le64(p, w);
	else if (wordsize == 8)
		enc_be64(p, w);
	else {
		enc_be32(p, (uint32_t)w);
		enc_be32(p + 4, (uint32_t)(w >> 32));
	}
}

/* Are the 64 bytes at p zero? */
static inline int
raw_zero(const uint8_t *p)
{
	uint64_t any = 0;

	for (unsigned i = 0; i < 64; i += 8) {
		uint64_t x;

		memcpy(&x, p + i, 8);
		any |= x;
	}
	return any == 0;
}

void
dk_bitmap_load(struct dk_bitmap *bm, uint64_t byteoff, const uint8_t *buf,
    size_t len, unsigned wordsize, enum dk_endian e)
{
	uint64_t end = byteoff + len, cap = (bm->nbits + 7) / 8;
	uint64_t cur = NONE, si = NONE;
	int aligned = byteoff % 8 == 0 && (wordsize == 4 || wordsize == 8);

	if (end > cap)
		end = cap;
	/* One 64-byte block of the normalised bitmap at a time. */
	for (uint64_t blk = byteoff / 64; blk * 64 < end; blk++) {
		uint64_t lo = blk * 64 > byteoff ? blk * 64 : byteoff;
		uint64_t hi = blk * 64 + 64 < end ? blk * 64 + 64 : end;
		uint64_t id = blk / SUPER_BLOCKS, w[8];
		unsigned b = (unsigned)(blk % SUPER_BLOCKS);
		const uint8_t *raw = buf + (lo - byteoff);

		if (id != cur) {
			uint64_t i = sb_find(bm, id);

			cur = id;
			si = i < bm->nsb && bm->sb[i].id == id ? i : NONE;
		}
		if (aligned && hi - lo == 64) {
			/* The common case: whole words of a whole block. */
			if (raw_zero(raw)) {
				if (si == NONE)
					continue;	/* zero, and it was */
				memset(w, 0, sizeof(w));
			} else
				for (unsigned i = 0; i < 8; i++)
					w[i] = disk_word(raw + 8 * i,
					    wordsize, e);
		} else {
			/* The bytes are stored as LE words: byte k of w[]. */
			memcpy(w, block_words(si == NONE ? NULL : &bm->sb[si],
			    b), sizeof(w));
			for (uint64_t i = lo; i < hi; i++) {
				uint8_t v = buf[disk_byte((size_t)(i - byteoff),
				    wordsize, e)];
				uint64_t *wp = &w[(i >> 3) & 7];

				*wp &= ~((uint64_t)0xff << (8 * (i & 7)));
				*wp |= (uint64_t)v << (8 * (i & 7));
			}
		}
		/* Bits at or beyond nbits do not exist; keep them clear. */
		if (blk * 512 + 512 > bm->nbits)
			for (unsigned i = 0; i < 8; i++) {
				uint64_t bit0 = blk * 512 + 64 * i;

				if (bit0 >= bm->nbits)
					w[i] = 0;
				else if (bm->nbits - bit0 < 64)
					w[i] &= ((uint64_t)1 << (bm->nbits -
					    bit0)) - 1;
			}
		if (si == NONE) {
			if (w[0] == 0 && w[1] == 0 && w[2] == 0 && w[3] == 0 &&
			    w[4] == 0 && w[5] == 0 && w[6] == 0 && w[7] == 0)
				continue;
			if ((si = sb_make(bm, id)) == NONE)
				return;
		}
		block_put(bm, &bm->sb[si], b, w);
	}
}

void
dk_bitmap_store(const struct dk_bitmap *bm, uint64_t byteoff, uint8_t *buf,
    size_t len, unsigned wordsize, enum dk_endian e)
{
	uint64_t end = byteoff + len, cur = NONE;
	const struct dk_bm_super *s = NULL;
	int aligned = byteoff % 8 == 0 && (wordsize == 4 || wordsize == 8);

	for (uint64_t blk = byteoff / 64; blk * 64 < end; blk++) {
		uint64_t lo = blk * 64 > byteoff ? blk * 64 : byteoff;
		uint64_t hi = blk * 64 + 64 < end ? blk * 64 + 64 : end;
		uint64_t id = blk / SUPER_BLOCKS;
		uint8_t *raw = buf + (lo - byteoff);
		const uint64_t *w;

		if (id != cur) {
			cur = id;
			s = sb_at(bm, id);
		}
		w = block_words(s, (unsigned)(blk % SUPER_BLOCKS));
		if (aligned && hi - lo == 64) {
			if (w == zero_words)
				memset(raw, 0, 64);
			else
				for (unsigned i = 0; i < 8; i++)
					disk_word_put(raw + 8 * i, w[i],
					    wordsize, e);
			continue;
		}
		for (uint64_t i = lo; i < hi; i++)
			buf[disk_byte((size_t)(i - byteoff), wordsize, e)] =
			    (uint8_t)(w[(i >> 3) & 7] >> (8 * (i & 7)));
	}
}

enum dk_status
dk_bitmap_index(struct dk_bitmap *bm, struct dk_err *err)
{
	uint64_t total = 0, j = 0;

	for (uint64_t i = 0; i < bm->nsb; i++) {
		struct dk_bm_super s = bm->sb[i];
		unsigned k = 0, out = 0, acc = 0;
		uint16_t *sub;

		/* Mixed blocks that became uniform become masks. */
		for (unsigned b = mask_next(s.mixed, 0, 0); b < 128;
		    b = mask_next(s.mixed, b + 1, 0), k++) {
			const uint64_t *w = s.w + 8 * k;
			unsigned c = 0;

			for (unsigned x = 0; x < 8; x++)
				c += pop64(w[x]);
			if (c == 0 || c == BLOCK_BITS) {
				mask_clear(s.mixed, b);
				if (c != 0)
					mask_set(s.full, b);
				continue;
			}
			if (out != k)
				memmove(s.w + 8 * out, w, 64);
			out++;
		}
		if (out == 0) {
			free(s.w);
			s.w = NULL;
			s.cap = 0;
			if (s.full[0] == 0 && s.full[1] == 0)
				continue;	/* nothing set: dropped */
		} else if (out < s.cap) {
			uint64_t *p = realloc(s.w, words_size(out));

			if (p != NULL) {
				s.w = p;
				s.cap = out;
			}
		}
		if (out > 0) {
			sub = (uint16_t *)(void *)(s.w + 8 * (size_t)s.cap);
			for (k = 0; k < out; k++) {
				sub[k] = (uint16_t)acc;
				for (unsigned x = 0; x < 8; x++)
					acc += pop64(
					    s.w[8 * k + x]);
			}
			sub[out] = (uint16_t)acc;
		}
		s.rank = total;
		total += acc + (uint64_t)BLOCK_BITS * mask_below(s.full, 128);
		bm->sb[j++] = s;
	}
	bm->nsb = j;
	bm->count = total;
	/* What the array grew by, doubling, goes back. */
	if (bm->capsb > j && j > 0) {
		struct dk_bm_super *p = realloc(bm->sb, (size_t)j *
		    sizeof(*p));

		if (p != NULL) {
			bm->sb = p;
			bm->capsb = j;
		}
	}
	if (bm->nomem)
		return dk_err_set(err, DK_ENOMEM, "bitmap of %ju bits: out of "
		    "memory", (uintmax_t)bm->nbits);
	return DK_OK;
}

uint64_t
dk_bitmap_rank(const struct dk_bitmap *bm, uint64_t n)
{
	uint64_t i, r, id = n >> DK_BM_SUPER_SHIFT;
	const struct dk_bm_super *s;
	const uint64_t *w;
	unsigned b, k;

	if (n >= bm->nbits || (i = sb_find(bm, id)) == bm->nsb)
		return bm->count;
	s = &bm->sb[i];
	if (s->id != id)
		return s->rank;
	b = (unsigned)(n >> DK_BM_BLOCK_SHIFT) & (SUPER_BLOCKS - 1);
	r = s->rank + (uint64_t)BLOCK_BITS * mask_below(s->full, b);
	if ((k = mask_below(s->mixed, b)) > 0)
		r += ((const uint16_t *)(const void *)(s->w + 8 *
		    (size_t)s->cap))[k];
	if (mask_test(s->full, b))
		return r + (n & (BLOCK_BITS - 1));
	if (!mask_test(s->mixed, b))
		return r;
	w = s->w + 8 * k;
	for (unsigned x = 0; x < ((n >> 6) & 7); x++)
		r += (uint64_t)pop64(w[x]);
	if (n & 63)
		r += (uint64_t)pop64(w[(n >> 6) & 7] &
		    (((uint64_t)1 << (n & 63)) - 1));
	return r;
}

uint64_t
dk_bitmap_next(const struct dk_bitmap *bm, uint64_t n, int want)
{
	uint64_t i;

	if (n >= bm->nbits)
		return bm->nbits;
	i = sb_find(bm, n >> DK_BM_SUPER_SHIFT);
	/*
	 * Short runs (a run iterator asks twice per run): the answer is
	 * most often in n's own word (of a mixed block, or n itself in a
	 * full one).
	 */
	if (i < bm->nsb && bm->sb[i].id == n >> DK_BM_SUPER_SHIFT) {
		const uint64_t *w = block_words(&bm->sb[i], (unsigned)(n >>
		    DK_BM_BLOCK_SHIFT) & (SUPER_BLOCKS - 1));
		uint64_t v = want ? w[(n >> 6) & 7] : ~w[(n >> 6) & 7];

		v &= ~(uint64_t)0 << (n & 63);
		if (v != 0) {
			n = (n & ~(uint64_t)63) + (uint64_t)__builtin_ctzll(v);
			return n < bm->nbits ? n : bm->nbits;
		}
	}
	while (n < bm->nbits) {
		const struct dk_bm_super *s = i < bm->nsb ? &bm->sb[i] : NULL;
		uint64_t base;
		unsigned b;

		if (s == NULL || s->id > n >> DK_BM_SUPER_SHIFT) {
			/* n is in a superblock of clear bits. */
			if (!want)
				return n;
			if (s == NULL)
				break;
			n = s->id << DK_BM_SUPER_SHIFT;
		}
		base = s->id << DK_BM_SUPER_SHIFT;
		b = (unsigned)(n >> DK_BM_BLOCK_SHIFT) & (SUPER_BLOCKS - 1);
		while (b < SUPER_BLOCKS) {
			uint64_t any[2] = { s->full[0] | s->mixed[0],
			    s->full[1] | s->mixed[1] };
			unsigned c = want ? mask_next(any, b, 0) :
			    mask_next(s->full, b, 1);
			uint64_t start = base + (uint64_t)c * BLOCK_BITS;
			const uint64_t *w;

			if (c == SUPER_BLOCKS)
				break;
			if (n < start)
				n = start;
			if (!mask_test(s->mixed, c))
				/* A block of set (want) or clear bits. */
				return n < bm->nbits ? n : bm->nbits;
			w = s->w + 8 * mask_below(s->mixed, c);
			for (unsigned x = (unsigned)(n >> 6) & 7; x < 8; x++) {
				uint64_t v = want ? w[x] : ~w[x];

				if (x == ((n >> 6) & 7))
					v &= ~(uint64_t)0 << (n & 63);
				if (v != 0) {
					n = start + 64 * x +
					    (uint64_t)__builtin_ctzll(v);
					return n < bm->nbits ? n : bm->nbits;
				}
			}
			b = c + 1;
			n = start + BLOCK_BITS;
		}
		n = base + ((uint64_t)1 << DK_BM_SUPER_SHIFT);
		i++;
	}
	return bm->nbits;
}

void
dk_src_data(const struct dk_src *src, uint64_t off, uint64_t end,
    unsigned align, uint64_t *data, uint64_t *hole)
{
	off_t a, b;

	*data = off;
	*hole = end;
	if (src->fd < 0 || off >= end)
		return;
	a = lseek(src->fd, (off_t)(src->base + off), SEEK_DATA);
	if (a < 0) {
		if (errno == ENXIO)		/* a hole to the end */
			*data = end;
		return;				/* cannot tell: all data */
	}
	a -= (off_t)src->base;
	if ((uint64_t)a >= end) {
		*data = end;
		return;
	}
	*data = off + ((uint64_t)a - off) / align * align;
	b = lseek(src->fd, (off_t)src->base + a, SEEK_HOLE);
	if (b >= 0) {
		b -= (off_t)src->base;
		if ((uint64_t)b < end)
			*hole = off + ((uint64_t)b - off + align - 1) / align *
			    align;
		if (*hole > end)
			*hole = end;
	}
}

#define	BM_READ_CHUNK	(1u << 20)

enum dk_status
dk_bitmap_read(struct dk_bitmap *bm, const struct dk_src *src, uint64_t off,
    uint64_t nbytes, unsigned ws, enum dk_endian e, const char *what,
    struct dk_err *err)
{
	uint64_t pos = 0, data, hole;
	uint8_t *buf;
	enum dk_status st = DK_OK;

	if (nbytes == 0)
		return DK_OK;
	buf = malloc(nbytes < BM_READ_CHUNK ? (size_t)nbytes : BM_READ_CHUNK);
	if (buf == NULL)
		return dk_err_set(err, DK_ENOMEM, "out of memory");
	while (st == DK_OK && pos < nbytes) {
		dk_src_data(src, off + pos, off + nbytes, ws, &data, &hole);
		for (pos = data - off; st == DK_OK && pos < hole - off;) {
			size_t n = hole - off - pos < BM_READ_CHUNK ?
			    (size_t)(hole - off - pos) : BM_READ_CHUNK;

			st = dk_src_pread(src, buf, n, off + pos, what, err);
			if (st == DK_OK)
				dk_bitmap_load(bm, pos, buf, n, ws, e);
			bm->read += n;
			pos += n;
		}
	}
	free(buf);
	return st;
}
