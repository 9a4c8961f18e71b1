/*
 * check_bitmap.c -- the sparse page bitmap (formats/bitmap.c) against a
 * plain array of words, the obvious model: loads of chunks at every
 * alignment, word size and byte order, loads that overwrite, single
 * bits set in any order, and every query (test, rank, next set, next
 * clear, store) at and around every block and superblock border; and
 * the memory it holds for the bitmap of a 64 TiB machine, which must
 * follow the runs of set bits, not the size of the bitmap.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "private.h"

/* A xorshift generator: the same bits on every run. */
static uint64_t
rng(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* The model: bit n is bit n % 64 of m[n / 64]. */
static int
model_test(const uint64_t *m, uint64_t n)
{
	return (int)(m[n >> 6] >> (n & 63) & 1);
}

/* On-disk bytes of the model's bits [8 * off, 8 * (off + len)). */
static void
model_disk(const uint64_t *m, uint64_t off, uint8_t *buf, size_t len,
    unsigned ws, enum dk_endian e)
{
	for (size_t k = 0; k < len; k++) {
		uint64_t i = off + k;
		size_t j = k % ws, at = e == DK_BE ? k - j + ws - 1 - j : k;

		buf[at] = (uint8_t)(m[i >> 3] >> (8 * (i & 7)));
	}
}

/* Every query of bm against the model m of nbits bits. */
static void
compare(const struct dk_bitmap *bm, const uint64_t *m, uint64_t nbits,
    uint64_t *x)
{
	uint64_t *next1 = malloc((size_t)(nbits + 1) * 8);
	uint64_t *next0 = malloc((size_t)(nbits + 1) * 8);
	uint64_t rank = 0;

	ck_assert_ptr_nonnull(next1);
	ck_assert_ptr_nonnull(next0);
	ck_assert_uint_eq(bm->nbits, nbits);
	/* The next set and clear bit at or after each, backwards. */
	next1[nbits] = next0[nbits] = nbits;
	for (uint64_t n = nbits; n-- > 0; ) {
		next1[n] = model_test(m, n) ? n : next1[n + 1];
		next0[n] = model_test(m, n) ? next0[n + 1] : n;
	}
	/* Check's assertions cost a write each: test, then assert once. */
	for (uint64_t n = 0; n < nbits; n++) {
		int bit = model_test(m, n);

		if (((n & 63) < 2 || (n & 511) > 509 || rng(x) % 8 == 0) &&
		    (dk_bitmap_rank(bm, n) != rank ||
		    dk_bitmap_next(bm, n, 1) != next1[n] ||
		    dk_bitmap_next(bm, n, 0) != next0[n]))
			ck_abort_msg("bit %ju: rank %ju next set %ju next clear "
			    "%ju, expected %ju %ju %ju", (uintmax_t)n,
			    (uintmax_t)dk_bitmap_rank(bm, n),
			    (uintmax_t)dk_bitmap_next(bm, n, 1),
			    (uintmax_t)dk_bitmap_next(bm, n, 0),
			    (uintmax_t)rank, (uintmax_t)next1[n],
			    (uintmax_t)next0[n]);
		if (dk_bitmap_test(bm, n) != bit)
			ck_abort_msg("bit %ju: test %d, expected %d",
			    (uintmax_t)n, dk_bitmap_test(bm, n), bit);
		rank += (uint64_t)bit;
	}
	ck_assert_uint_eq(bm->count, rank);
	ck_assert_uint_eq(dk_bitmap_rank(bm, nbits), rank);
	ck_assert_uint_eq(dk_bitmap_next(bm, nbits, 1), nbits);
	ck_assert_uint_eq(dk_bitmap_next(bm, nbits, 0), nbits);
	ck_assert(!dk_bitmap_test(bm, nbits));
	free(next1);
	free(next0);
}

/*
 * Random bitmaps of runs, dense stretches and empty superblocks, loaded
 * in random chunks (whole words, and not), partly overwritten, then
 * compared; stored back in every encoding and compared byte for byte.
 */
START_TEST(test_bitmap_model)
{
	static const struct { unsigned ws; enum dk_endian e; } enc[] = {
		{ 4, DK_LE }, { 8, DK_LE }, { 4, DK_BE }, { 8, DK_BE },
	};
	uint64_t x = 0x9e3779b97f4a7c15ull + (uint64_t)_i;
	uint64_t nbits = 5 * 65536 + rng(&x) % 70000;
	size_t nw = (size_t)((nbits + 63) / 64), nbytes;
	uint64_t *m = calloc(nw, 8);
	unsigned ws = enc[_i % 4].ws;
	enum dk_endian e = enc[_i % 4].e;
	uint8_t *disk, *out;
	struct dk_bitmap bm;
	struct dk_err err;

	ck_assert_ptr_nonnull(m);
	/* Runs of random lengths; a stretch of random bits; a gap. */
	for (uint64_t n = rng(&x) % 2000; n < nbits; ) {
		uint64_t len = rng(&x) % (_i & 4 ? 5000 : 40) + 1;

		if (n > 2 * 65536 && n < 2 * 65536 + 3000)
			for (; n < 2 * 65536 + 3000 && n < nbits; n++)
				if (rng(&x) & 1)
					m[n >> 6] |= (uint64_t)1 << (n & 63);
		for (uint64_t k = 0; k < len && n < nbits; k++, n++)
			m[n >> 6] |= (uint64_t)1 << (n & 63);
		n += rng(&x) % (_i & 2 ? 3000 : 600) + 1;
		if (n > 3 * 65536 && n < 4 * 65536 + 100)
			n = 4 * 65536 + 100;	/* an empty superblock */
	}
	nbytes = (size_t)((nbits + 8 * ws - 1) / (8 * ws) * ws);
	disk = calloc(1, nbytes + 64);
	out = calloc(1, nbytes + 64);
	ck_assert_ptr_nonnull(disk);
	ck_assert_ptr_nonnull(out);
	model_disk(m, 0, disk, nbytes, ws, e);

	ck_assert_int_eq(dk_bitmap_init(&bm, nbits, &err), DK_OK);
	/* Garbage first, then the real bits over it, chunk by chunk. */
	memset(out, 0xa5, nbytes);
	dk_bitmap_load(&bm, 0, out, nbytes / 2 / ws * ws, ws, e);
	for (size_t off = 0; off < nbytes; ) {
		size_t n = ((size_t)rng(&x) % 300 + 1) * ws;

		if (n > nbytes - off)
			n = nbytes - off;
		dk_bitmap_load(&bm, off, disk + off, n, ws, e);
		off += n;
	}
	ck_assert_int_eq(dk_bitmap_index(&bm, &err), DK_OK);
	compare(&bm, m, nbits, &x);
	/* Stored in chunks, it is the same bytes. */
	memset(out, 0x5a, nbytes);
	for (size_t off = 0; off < nbytes; ) {
		size_t n = ((size_t)rng(&x) % 300 + 1) * ws;

		if (n > nbytes - off)
			n = nbytes - off;
		dk_bitmap_store(&bm, off, out + off, n, ws, e);
		off += n;
	}
	ck_assert_mem_eq(out, disk, nbytes);

	/* The same bits set one by one, in a scrambled order. */
	dk_bitmap_free(&bm);
	ck_assert_int_eq(dk_bitmap_init(&bm, nbits, &err), DK_OK);
	for (uint64_t n = 0; n < nbits; n++) {
		uint64_t k = (n * 2654435761u + 17) % nbits;

		if (model_test(m, k))
			dk_bitmap_set(&bm, k);
	}
	dk_bitmap_set(&bm, nbits);		/* past the end: nothing */
	dk_bitmap_set(&bm, nbits + 1000000);
	ck_assert_int_eq(dk_bitmap_index(&bm, &err), DK_OK);
	compare(&bm, m, nbits, &x);

	/* The same bits ORed word by word, over some of them already set. */
	dk_bitmap_free(&bm);
	ck_assert_int_eq(dk_bitmap_init(&bm, nbits, &err), DK_OK);
	for (uint64_t n = 0; n < nbits; n += 7)
		if (model_test(m, n))
			dk_bitmap_set(&bm, n);
	for (size_t w = nw; w-- > 0; )
		dk_bitmap_or(&bm, w, m[w]);
	/* Bits past nbits: nothing. */
	if (nbits % 64 != 0)
		dk_bitmap_or(&bm, nw - 1, ~(uint64_t)0 << (nbits % 64));
	dk_bitmap_or(&bm, nw + 5, ~(uint64_t)0);
	ck_assert_int_eq(dk_bitmap_index(&bm, &err), DK_OK);
	compare(&bm, m, nbits, &x);

	/* Zeros loaded over a stretch: its blocks go, the rest stays. */
	memset(out, 0, nbytes);
	dk_bitmap_load(&bm, 8192, out, 16384, ws, e);
	memset(m + 1024, 0, 16384);
	ck_assert_int_eq(dk_bitmap_index(&bm, &err), DK_OK);
	compare(&bm, m, nbits, &x);
	dk_bitmap_free(&bm);
	free(disk);
	free(out);
	free(m);
}
END_TEST

/*
 * The bitmap of a 64 TiB machine of 4 KiB pages (2^34 bits, 2 GiB on
 * disk) with a few runs, read chunk by chunk as a reader reads it,
 * holds memory for its runs only: a few KiB, where the words alone were
 * 2 GiB.  Every query answers as for the runs.
 */
START_TEST(test_bitmap_huge_sparse)
{
	const uint64_t nbits = (uint64_t)1 << 34;
	static const struct { uint64_t start, len; } runs[] = {
		{ 0, 4096 }, { 65536 * 3 + 5, 1 }, { (uint64_t)1 << 33, 100000 },
		{ ((uint64_t)1 << 34) - 777, 777 },
	};
	enum { CHUNK = 1 << 20 };
	uint8_t *buf = malloc(CHUNK);
	uint64_t total = 0;
	struct dk_bitmap bm;
	struct dk_err err;

	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(dk_bitmap_init(&bm, nbits, &err), DK_OK);
	/* Only the chunks with a set bit are read; the rest are zeros. */
	for (size_t r = 0; r < sizeof(runs) / sizeof(runs[0]); r++) {
		uint64_t a = runs[r].start, b = a + runs[r].len;

		for (uint64_t c = a / 8 / CHUNK; c <= (b - 1) / 8 / CHUNK;
		    c++) {
			memset(buf, 0, CHUNK);
			for (size_t q = 0; q <= r; q++)
				for (uint64_t n = runs[q].start; n <
				    runs[q].start + runs[q].len; n++)
					if (n / 8 / CHUNK == c)
						buf[n / 8 % CHUNK] |=
						    (uint8_t)(1u << (n % 8));
			dk_bitmap_load(&bm, c * CHUNK, buf, CHUNK, 8, DK_LE);
		}
		total += runs[r].len;
	}
	memset(buf, 0, CHUNK);
	dk_bitmap_load(&bm, (uint64_t)3 << 29, buf, CHUNK, 8, DK_LE);
	ck_assert_int_eq(dk_bitmap_index(&bm, &err), DK_OK);
	ck_assert_uint_eq(bm.count, total);
	ck_assert_msg(dk_bitmap_bytes(&bm) <= 8192, "%ju bytes for %zu runs",
	    (uintmax_t)dk_bitmap_bytes(&bm), sizeof(runs) / sizeof(runs[0]));
	ck_assert_uint_eq(dk_bitmap_rank(&bm, (uint64_t)1 << 33), 4097);
	ck_assert_uint_eq(dk_bitmap_rank(&bm, ((uint64_t)1 << 33) + 99999),
	    4097 + 99999);
	ck_assert_uint_eq(dk_bitmap_next(&bm, 4096, 1), 65536 * 3 + 5);
	ck_assert_uint_eq(dk_bitmap_next(&bm, 65536 * 3 + 6, 1),
	    (uint64_t)1 << 33);
	ck_assert_uint_eq(dk_bitmap_next(&bm, (uint64_t)1 << 33, 0),
	    ((uint64_t)1 << 33) + 100000);
	ck_assert_uint_eq(dk_bitmap_next(&bm, nbits - 777, 0), nbits);
	ck_assert_uint_eq(dk_bitmap_next(&bm, nbits - 778, 1), nbits - 777);
	ck_assert(dk_bitmap_test(&bm, nbits - 1));
	ck_assert(!dk_bitmap_test(&bm, nbits - 778));
	ck_assert_uint_eq(dk_bitmap_rank(&bm, nbits - 1), total - 1);
	dk_bitmap_free(&bm);
	free(buf);
}
END_TEST

/* A dense bitmap costs about its words: 66 bytes per mixed block. */
START_TEST(test_bitmap_dense_memory)
{
	const uint64_t nbits = 1u << 22;
	struct dk_bitmap bm;
	struct dk_err err;

	ck_assert_int_eq(dk_bitmap_init(&bm, nbits, &err), DK_OK);
	for (uint64_t n = 0; n < nbits; n += 2)
		dk_bitmap_set(&bm, n);
	ck_assert_int_eq(dk_bitmap_index(&bm, &err), DK_OK);
	ck_assert_uint_eq(bm.count, nbits / 2);
	ck_assert_uint_le(dk_bitmap_bytes(&bm), nbits / 8 * 66 / 64 + 8192);
	ck_assert_uint_eq(dk_bitmap_rank(&bm, 1000001), 500001);
	dk_bitmap_free(&bm);
	/* All set: masks only, no words. */
	ck_assert_int_eq(dk_bitmap_init(&bm, nbits, &err), DK_OK);
	for (uint64_t n = 0; n < nbits; n++)
		dk_bitmap_set(&bm, n);
	ck_assert_int_eq(dk_bitmap_index(&bm, &err), DK_OK);
	ck_assert_uint_eq(bm.count, nbits);
	ck_assert_uint_le(dk_bitmap_bytes(&bm), (nbits >> 16) * 128);
	ck_assert_uint_eq(dk_bitmap_next(&bm, 0, 0), nbits);
	ck_assert_uint_eq(dk_bitmap_rank(&bm, 123457), 123457);
	dk_bitmap_free(&bm);
}
END_TEST

static Suite *
bitmap_suite(void)
{
	Suite *s = suite_create("bitmap");
	TCase *tc = tcase_create("bitmap");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_bitmap_model, 0, 16);
	tcase_add_test(tc, test_bitmap_huge_sparse);
	tcase_add_test(tc, test_bitmap_dense_memory);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(bitmap_suite());
	int nfailed;

	srunner_run_all(sr, CK_ENV);
	nfailed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfailed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
