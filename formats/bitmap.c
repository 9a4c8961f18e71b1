/*
 * bitmap.c -- the page bitmap, normalised, with a two-level rank index.
 *
 * On disk the kernel sets bits in words of 4 or 8 bytes (LSB = lowest
 * page) and writes the words in its own byte order (FORMATS.md 1.4).
 * On a little-endian dump bit n is therefore byte n/8, bit n%8 whatever
 * the word size; on a big-endian dump the bytes of each word are
 * reversed.  Here bit n is always bit n%64 of w[n/64].
 *
 * Index: super[] holds the count of set bits before each 65536-bit
 * superblock (8 bytes per 8 KiB of bitmap), sub[] the count from the
 * superblock's start to each 512-bit block (2 bytes per 64 bytes of
 * bitmap): 3.2% on top of the bits.
 */
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "private.h"

#define	BLOCK_WORDS	(1u << (DK_BM_BLOCK_SHIFT - 6))

enum dk_status
dk_bitmap_init(struct dk_bitmap *bm, uint64_t nbits, struct dk_err *err)
{
	memset(bm, 0, sizeof(*bm));
	bm->nbits = nbits;
	/* Whole blocks, so that rank never reads past the array. */
	bm->nwords = ((nbits + (1u << DK_BM_BLOCK_SHIFT) - 1) >>
	    DK_BM_BLOCK_SHIFT) * BLOCK_WORDS;
	if (bm->nwords > SIZE_MAX / 8)
		return dk_err_set(err, DK_ELIMIT, "bitmap of %ju bits is too "
		    "large for this host", (uintmax_t)nbits);
	bm->w = calloc(bm->nwords ? bm->nwords : 1, 8);
	if (bm->w == NULL)
		return dk_err_set(err, DK_ENOMEM, "bitmap of %ju bits: out "
		    "of memory", (uintmax_t)nbits);
	return DK_OK;
}

void
dk_bitmap_free(struct dk_bitmap *bm)
{
	free(bm->w);
	free(bm->super);
	free(bm->sub);
	memset(bm, 0, sizeof(*bm));
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
 * formats use.
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

void
dk_bitmap_load(struct dk_bitmap *bm, uint64_t byteoff, const uint8_t *buf,
    size_t len, unsigned wordsize, enum dk_endian e)
{
	uint64_t cap = bm->nwords * 8;
	size_t k = 0;

	/* Whole words while the chunk is word-aligned: the common case. */
	if (byteoff % 8 == 0 && (wordsize == 4 || wordsize == 8))
		for (; k + 8 <= len && byteoff + k + 8 <= cap; k += 8)
			bm->w[(byteoff + k) >> 3] = disk_word(buf + k,
			    wordsize, e);
	/* The normalised bytes are stored as LE words: byte k of w[]. */
	for (; k < len && byteoff + k < cap; k++) {
		uint64_t i = byteoff + k;
		uint8_t b = buf[disk_byte(k, wordsize, e)];
		uint64_t *wp = &bm->w[i >> 3];

		*wp &= ~((uint64_t)0xff << (8 * (i & 7)));
		*wp |= (uint64_t)b << (8 * (i & 7));
	}
	/* Bits at or beyond nbits do not exist; keep them clear. */
	if (bm->nbits % 64 != 0 && (bm->nbits >> 6) < bm->nwords)
		bm->w[bm->nbits >> 6] &= ((uint64_t)1 << (bm->nbits % 64)) - 1;
	for (uint64_t i = (bm->nbits + 63) >> 6; i < bm->nwords; i++)
		bm->w[i] = 0;
}

void
dk_bitmap_store(const struct dk_bitmap *bm, uint64_t byteoff, uint8_t *buf,
    size_t len, unsigned wordsize, enum dk_endian e)
{
	uint64_t cap = bm->nwords * 8;

	for (size_t k = 0; k < len; k++) {
		uint64_t i = byteoff + k;
		uint8_t b = 0;

		if (i < cap)
			b = (uint8_t)(bm->w[i >> 3] >> (8 * (i & 7)));
		buf[disk_byte(k, wordsize, e)] = b;
	}
}

enum dk_status
dk_bitmap_index(struct dk_bitmap *bm, struct dk_err *err)
{
	uint64_t nblocks = bm->nwords / BLOCK_WORDS;
	uint64_t nsuper = (nblocks >> (DK_BM_SUPER_SHIFT -
	    DK_BM_BLOCK_SHIFT)) + 1;
	uint64_t total = 0, insuper = 0;

	free(bm->super);
	free(bm->sub);
	bm->super = calloc(nsuper, sizeof(*bm->super));
	bm->sub = calloc(nblocks ? nblocks : 1, sizeof(*bm->sub));
	if (bm->super == NULL || bm->sub == NULL)
		return dk_err_set(err, DK_ENOMEM, "bitmap index: out of "
		    "memory");
	for (uint64_t b = 0; b < nblocks; b++) {
		if ((b & ((1u << (DK_BM_SUPER_SHIFT - DK_BM_BLOCK_SHIFT)) -
		    1)) == 0) {
			bm->super[b >> (DK_BM_SUPER_SHIFT -
			    DK_BM_BLOCK_SHIFT)] = total;
			insuper = 0;
		}
		bm->sub[b] = (uint16_t)insuper;
		for (unsigned k = 0; k < BLOCK_WORDS; k++) {
			unsigned c = (unsigned)__builtin_popcountll(
			    bm->w[b * BLOCK_WORDS + k]);

			insuper += c;
			total += c;
		}
	}
	bm->count = total;
	return DK_OK;
}

uint64_t
dk_bitmap_rank(const struct dk_bitmap *bm, uint64_t n)
{
	uint64_t block, r;
	uint64_t word;

	if (n >= bm->nbits)
		return bm->count;
	block = n >> DK_BM_BLOCK_SHIFT;
	r = bm->super[n >> DK_BM_SUPER_SHIFT] + bm->sub[block];
	for (word = block * BLOCK_WORDS; word < (n >> 6); word++)
		r += (uint64_t)__builtin_popcountll(bm->w[word]);
	if (n & 63)
		r += (uint64_t)__builtin_popcountll(bm->w[n >> 6] &
		    (((uint64_t)1 << (n & 63)) - 1));
	return r;
}

uint64_t
dk_bitmap_next(const struct dk_bitmap *bm, uint64_t n, int want)
{
	while (n < bm->nbits) {
		uint64_t w = bm->w[n >> 6];

		if (!want)
			w = ~w;
		w &= ~(uint64_t)0 << (n & 63);
		if (w != 0) {
			n = (n & ~(uint64_t)63) + (uint64_t)__builtin_ctzll(w);
			return n < bm->nbits ? n : bm->nbits;
		}
		n = (n | 63) + 1;
	}
	return bm->nbits;
}
