/*
 * check_core.c -- the library's foundations: byte helpers, the error
 * object, the bitmap and its rank index, the layout loops, number
 * parsing, the fixture pattern and the JSON writer.  Expected values are
 * written out by hand, never produced by the code under test.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "json.h"
#include "private.h"

START_TEST(test_bytes_decode)
{
	static const uint8_t b[8] = { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab,
	    0xcd, 0xef };

	ck_assert_uint_eq(dec_le16(b), 0x2301);
	ck_assert_uint_eq(dec_be16(b), 0x0123);
	ck_assert_uint_eq(dec_le32(b), 0x67452301u);
	ck_assert_uint_eq(dec_be32(b), 0x01234567u);
	ck_assert_uint_eq(dec_le64(b), 0xefcdab8967452301ull);
	ck_assert_uint_eq(dec_be64(b), 0x0123456789abcdefull);
	ck_assert_uint_eq(dec_uint(b, 1, DK_BE), 0x01);
	ck_assert_uint_eq(dec_uint(b + 4, 4, DK_LE), 0xefcdab89u);
	ck_assert_uint_eq(dec_uint(b + 4, 4, DK_BE), 0x89abcdefu);
}
END_TEST

START_TEST(test_bytes_encode)
{
	static const uint8_t want_le[8] = { 0xef, 0xcd, 0xab, 0x89, 0x67,
	    0x45, 0x23, 0x01 };
	static const uint8_t want_be[8] = { 0x01, 0x23, 0x45, 0x67, 0x89,
	    0xab, 0xcd, 0xef };
	uint8_t b[8];

	enc_uint(b, 8, DK_LE, 0x0123456789abcdefull);
	ck_assert_mem_eq(b, want_le, 8);
	enc_uint(b, 8, DK_BE, 0x0123456789abcdefull);
	ck_assert_mem_eq(b, want_be, 8);
	memset(b, 0xaa, sizeof(b));
	enc_uint(b, 4, DK_BE, 0x01020304u);
	ck_assert_mem_eq(b, "\x01\x02\x03\x04\xaa", 5);
	enc_uint(b, 2, DK_LE, 0xbeef);
	ck_assert_mem_eq(b, "\xef\xbe\x03", 3);
}
END_TEST

START_TEST(test_err_prefix)
{
	struct dk_err err;

	ck_assert_int_eq(dk_err_set(&err, DK_ECORRUPT, "bad %s", "entry"),
	    DK_ECORRUPT);
	ck_assert_int_eq(dk_err_prefix(&err, "page %#x", 0x1f000),
	    DK_ECORRUPT);
	ck_assert_str_eq(err.msg, "page 0x1f000: bad entry");
	ck_assert_str_eq(dk_status_name(DK_ETRUNC), "ETRUNC");
	dk_err_clear(&err);
	ck_assert_int_eq(err.code, DK_OK);
	ck_assert_str_eq(err.msg, "");
}
END_TEST

/* Long prefixes truncate; they never overflow the fixed buffer. */
START_TEST(test_err_prefix_truncates)
{
	struct dk_err err;
	char big[1000];

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	dk_err_set(&err, DK_EINVAL, "%s", big);
	dk_err_prefix(&err, "%s", big);
	ck_assert_uint_eq(strlen(err.msg), sizeof(err.msg) - 1);
}
END_TEST

/*
 * FORMATS.md 1.4: on a big-endian target with 4-byte words, bit n is in
 * byte 4*(n/32) + 3 - (n%32)/8.  Bits 0, 9 and 35 set: word 0 is
 * 0x00000201, word 1 is 0x00000008.
 */
START_TEST(test_bitmap_load_be32)
{
	static const uint8_t disk[8] = { 0x00, 0x00, 0x02, 0x01, 0x00, 0x00,
	    0x00, 0x08 };
	struct dk_bitmap bm;
	struct dk_err err;

	ck_assert_int_eq(dk_bitmap_init(&bm, 64, &err), DK_OK);
	dk_bitmap_load(&bm, 0, disk, sizeof(disk), 4, DK_BE);
	ck_assert_int_eq(dk_bitmap_index(&bm, &err), DK_OK);
	ck_assert_uint_eq(bm.count, 3);
	ck_assert(dk_bitmap_test(&bm, 0));
	ck_assert(dk_bitmap_test(&bm, 9));
	ck_assert(dk_bitmap_test(&bm, 35));
	ck_assert(!dk_bitmap_test(&bm, 8));
	ck_assert(!dk_bitmap_test(&bm, 24));
	dk_bitmap_free(&bm);
}
END_TEST

/* The same bits in 8-byte big-endian words: 0x0000000800000201. */
START_TEST(test_bitmap_load_be64)
{
	static const uint8_t disk[8] = { 0x00, 0x00, 0x00, 0x08, 0x00, 0x00,
	    0x02, 0x01 };
	static const uint8_t le[8] = { 0x01, 0x02, 0x00, 0x00, 0x08, 0x00,
	    0x00, 0x00 };
	uint8_t out[8];
	struct dk_bitmap bm;
	struct dk_err err;

	ck_assert_int_eq(dk_bitmap_init(&bm, 64, &err), DK_OK);
	dk_bitmap_load(&bm, 0, disk, sizeof(disk), 8, DK_BE);
	ck_assert(dk_bitmap_test(&bm, 0) && dk_bitmap_test(&bm, 9) &&
	    dk_bitmap_test(&bm, 35));
	/* Little-endian storage is the same whatever the word size. */
	dk_bitmap_store(&bm, 0, out, 8, 4, DK_LE);
	ck_assert_mem_eq(out, le, 8);
	dk_bitmap_store(&bm, 0, out, 8, 8, DK_LE);
	ck_assert_mem_eq(out, le, 8);
	dk_bitmap_store(&bm, 0, out, 8, 8, DK_BE);
	ck_assert_mem_eq(out, disk, 8);
	dk_bitmap_free(&bm);
}
END_TEST

/*
 * Every bit of 1004 pseudo-random bytes, loaded in chunks whose offsets
 * alternate between word-aligned (the whole-word path) and not (the
 * byte path), and in one piece, against FORMATS.md 1.4's formula: bit
 * n is bit n%8 of byte ws*(n/(8ws)) + j, j = (n%(8ws))/8, or ws-1-j on
 * a big-endian target.
 */
START_TEST(test_bitmap_load_paths)
{
	static const struct { unsigned ws; enum dk_endian e; } enc[] = {
		{ 4, DK_LE }, { 8, DK_LE }, { 4, DK_BE }, { 8, DK_BE },
	};
	enum { LEN = 1004 };
	uint8_t disk[LEN];
	uint64_t x = 0x9e3779b97f4a7c15ull;
	struct dk_err err;

	for (size_t i = 0; i < LEN; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		disk[i] = (uint8_t)x;
	}
	for (size_t t = 0; t < sizeof(enc) / sizeof(enc[0]); t++) {
		unsigned ws = enc[t].ws;
		size_t chunk = ws == 4 ? 12 : 24, nw = LEN / ws * ws;
		struct dk_bitmap a, b;

		ck_assert_int_eq(dk_bitmap_init(&a, 8 * nw, &err), DK_OK);
		ck_assert_int_eq(dk_bitmap_init(&b, 8 * nw, &err), DK_OK);
		dk_bitmap_load(&a, 0, disk, nw, ws, enc[t].e);
		for (size_t off = 0; off < nw; off += chunk)
			dk_bitmap_load(&b, off, disk + off, nw - off < chunk ?
			    nw - off : chunk, ws, enc[t].e);
		for (uint64_t n = 0; n < 8 * nw; n++) {
			size_t j = (size_t)(n % (8 * ws)) / 8;
			size_t byte = ws * (size_t)(n / (8 * ws)) +
			    (enc[t].e == DK_BE ? ws - 1 - j : j);
			int want = disk[byte] >> (n % 8) & 1;

			ck_assert_int_eq(dk_bitmap_test(&a, n), want);
			ck_assert_int_eq(dk_bitmap_test(&b, n), want);
		}
		dk_bitmap_free(&a);
		dk_bitmap_free(&b);
	}
}
END_TEST

/* Bits at or past nbits are dropped on load: they do not exist. */
START_TEST(test_bitmap_tail_cleared)
{
	static const uint8_t disk[8] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	    0xff, 0xff };
	struct dk_bitmap bm;
	struct dk_err err;

	ck_assert_int_eq(dk_bitmap_init(&bm, 13, &err), DK_OK);
	dk_bitmap_load(&bm, 0, disk, sizeof(disk), 8, DK_LE);
	ck_assert_int_eq(dk_bitmap_index(&bm, &err), DK_OK);
	ck_assert_uint_eq(bm.count, 13);
	ck_assert_uint_eq(dk_bitmap_next(&bm, 0, 0), 13);
	dk_bitmap_free(&bm);
}
END_TEST

/* rank() against a naive count, across block and superblock borders. */
START_TEST(test_bitmap_rank)
{
	const uint64_t nbits = 3 * 65536 + 777;
	struct dk_bitmap bm;
	struct dk_err err;
	uint64_t x = 12345, naive = 0;

	ck_assert_int_eq(dk_bitmap_init(&bm, nbits, &err), DK_OK);
	for (uint64_t i = 0; i < nbits; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		if ((x >> 61) < 3 || (i > 70000 && i < 140000))
			dk_bitmap_set(&bm, i);
	}
	ck_assert_int_eq(dk_bitmap_index(&bm, &err), DK_OK);
	for (uint64_t i = 0; i <= nbits; i++) {
		if ((i & 511) == 0 || (i % 97) == 0 || i + 70 > nbits ||
		    (i & 65535) < 3)
			ck_assert_uint_eq(dk_bitmap_rank(&bm, i), naive);
		if (i < nbits && dk_bitmap_test(&bm, i))
			naive++;
	}
	ck_assert_uint_eq(bm.count, naive);
	ck_assert_uint_eq(dk_bitmap_next(&bm, 70001, 0), 140000 +
	    (dk_bitmap_test(&bm, 140000) ? dk_bitmap_next(&bm, 140000, 0) -
	    140000 : 0));
	dk_bitmap_free(&bm);
}
END_TEST

START_TEST(test_bitmap_empty)
{
	struct dk_bitmap bm;
	struct dk_err err;

	ck_assert_int_eq(dk_bitmap_init(&bm, 0, &err), DK_OK);
	ck_assert_int_eq(dk_bitmap_index(&bm, &err), DK_OK);
	ck_assert_uint_eq(dk_bitmap_rank(&bm, 0), 0);
	ck_assert_uint_eq(dk_bitmap_next(&bm, 0, 1), 0);
	ck_assert(!dk_bitmap_test(&bm, 0));
	dk_bitmap_free(&bm);
}
END_TEST

static const struct dk_field test_fields[] = {
	{ "magic", 0, 8, DK_FK_CHARS, DK_H_MAGIC, DK_V(1) | DK_V(2),
	  "char[8]", "" },
	{ "version", 8, 4, DK_FK_UINT, DK_H_VERSION, DK_V(1) | DK_V(2),
	  "uint32_t", "" },
	{ "kernbase", 16, 8, DK_FK_UINT, DK_H_KERNBASE, DK_V(2), "uint64_t",
	  "" },
	{ "(padding)", 12, 4, DK_FK_PAD, DK_H_PAD, DK_V(2), NULL, "" },
};
static const struct dk_layout test_layout = { "test", test_fields, 4 };

START_TEST(test_layout_roundtrip)
{
	static const uint8_t want[24] = { 'a', 'b', 'c', 0, 0, 0, 0, 0,
	    0, 0, 0, 2, 0xee, 0xee, 0xee, 0xee,
	    0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88 };
	struct dk_hdr h = { 0 }, back;
	struct dk_err err;
	uint8_t buf[24];

	ck_assert_uint_eq(dk_layout_size(&test_layout, 1), 12);
	ck_assert_uint_eq(dk_layout_size(&test_layout, 2), 24);
	ck_assert_ptr_null(dk_layout_find(&test_layout, DK_H_KERNBASE, 1));
	ck_assert_uint_eq(dk_layout_find(&test_layout, DK_H_KERNBASE,
	    2)->off, 16);
	strcpy(h.s[DK_H_MAGIC], "abc");
	h.v[DK_H_VERSION] = 2;
	h.v[DK_H_KERNBASE] = 0x1122334455667788ull;
	memset(buf, 0xee, sizeof(buf));
	ck_assert_int_eq(dk_layout_encode(&test_layout, 2, buf, DK_BE, &h,
	    &err), DK_OK);
	ck_assert_mem_eq(buf, want, 24);	/* padding left as it was */
	dk_layout_decode(&test_layout, 2, buf, DK_BE, &back);
	ck_assert_str_eq(back.s[DK_H_MAGIC], "abc");
	ck_assert_uint_eq(back.v[DK_H_KERNBASE], 0x1122334455667788ull);
	ck_assert(DK_H_HAS(&back, DK_H_KERNBASE));
	dk_layout_decode(&test_layout, 1, buf, DK_BE, &back);
	ck_assert(!DK_H_HAS(&back, DK_H_KERNBASE));
	ck_assert_uint_eq(back.v[DK_H_KERNBASE], 0);
}
END_TEST

/*
 * A value wider than its field is refused, naming the field, its type
 * and width, and the value, and nothing is written: 2^32 in the
 * uint32_t version field (the bitmapsize of a 128 TiB amd64 machine
 * is the same case).  The largest value that fits is written.
 */
START_TEST(test_layout_refuses_overflow)
{
	static const uint8_t max[12] = { 'a', 0, 0, 0, 0, 0, 0, 0,
	    0xff, 0xff, 0xff, 0xff };
	struct dk_hdr h = { 0 };
	struct dk_err err;
	uint8_t buf[24];

	strcpy(h.s[DK_H_MAGIC], "a");
	h.v[DK_H_VERSION] = (uint64_t)1 << 32;
	memset(buf, 0xee, sizeof(buf));
	ck_assert_int_eq(dk_layout_encode(&test_layout, 1, buf, DK_BE, &h,
	    &err), DK_EINVAL);
	ck_assert_msg(strstr(err.msg, "field version (uint32_t, 4 bytes) "
	    "cannot hold 4294967296 (0x100000000): at most 4294967295") !=
	    NULL, "%s", err.msg);
	ck_assert_ptr_nonnull(strstr(err.msg, "test version 1 header"));
	for (size_t i = 0; i < sizeof(buf); i++)
		ck_assert_uint_eq(buf[i], 0xee);	/* nothing written */
	h.v[DK_H_VERSION] = 0xffffffffu;
	ck_assert_int_eq(dk_layout_encode(&test_layout, 1, buf, DK_BE, &h,
	    &err), DK_OK);
	ck_assert_mem_eq(buf, max, sizeof(max));
	/* An 8-byte field holds anything; a field not in the version too. */
	h.v[DK_H_VERSION] = 1;
	h.v[DK_H_KERNBASE] = ~(uint64_t)0;
	ck_assert_int_eq(dk_layout_encode(&test_layout, 2, buf, DK_BE, &h,
	    &err), DK_OK);
	h.v[DK_H_KERNBASE] = 0;
	h.v[DK_H_PAD] = (uint64_t)1 << 40;	/* padding is not encoded */
	ck_assert_int_eq(dk_layout_encode(&test_layout, 2, buf, DK_BE, &h,
	    &err), DK_OK);
}
END_TEST

/* A signed field holds its two's complement range, as either value. */
START_TEST(test_layout_signed_range)
{
	static const struct dk_field f[] = {
		{ "n", 0, 2, DK_FK_INT, DK_H_VERSION, DK_V(1), "short", "" },
	};
	static const struct dk_layout l = { "signed", f, 1 };
	static const struct { uint64_t v; int ok; } cases[] = {
		{ 0x7fff, 1 }, { 0x8000, 1 }, { 0xffff, 1 }, { 0x10000, 0 },
		{ (uint64_t)-1, 1 }, { (uint64_t)-32768, 1 },
		{ (uint64_t)-32769, 0 },
	};
	struct dk_hdr h = { 0 };
	struct dk_err err;
	uint8_t buf[2];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		h.v[DK_H_VERSION] = cases[i].v;
		ck_assert_int_eq(dk_layout_encode(&l, 1, buf, DK_LE, &h, &err),
		    cases[i].ok ? DK_OK : DK_EINVAL);
	}
	ck_assert_ptr_nonnull(strstr(err.msg, "at most 32767"));
}
END_TEST

START_TEST(test_parse)
{
	uint64_t v;

	ck_assert_int_eq(dk_parse_size("8G", &v), 0);
	ck_assert_uint_eq(v, 8ull << 30);
	ck_assert_int_eq(dk_parse_size("512m", &v), 0);
	ck_assert_uint_eq(v, 512ull << 20);
	ck_assert_int_eq(dk_parse_size("1TiB", &v), 0);
	ck_assert_uint_eq(v, 1ull << 40);
	ck_assert_int_eq(dk_parse_size("4096", &v), 0);
	ck_assert_uint_eq(v, 4096);
	ck_assert_int_eq(dk_parse_size("0x10K", &v), 0);
	ck_assert_uint_eq(v, 16384);
	ck_assert_int_eq(dk_parse_size("", &v), -1);
	ck_assert_int_eq(dk_parse_size("G", &v), -1);
	ck_assert_int_eq(dk_parse_size("12X", &v), -1);
	ck_assert_int_eq(dk_parse_size("-1", &v), -1);
	ck_assert_int_eq(dk_parse_size("99999999999P", &v), -1);
	ck_assert_int_eq(dk_parse_u64("18446744073709551616", &v), -1);
	ck_assert_int_eq(dk_parse_u64("0xffffffffffffffff", &v), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
}
END_TEST

/*
 * docs/fixture-pattern.md, worked by hand for seed 7: splitmix64's
 * finaliser of (7 ^ 0x7061747465726e00 ^ 0x1000) + 0x9e3779b97f4a7c15.
 * The value was computed with Python from the document's definition.
 */
START_TEST(test_pattern_documented_values)
{
	uint8_t b[16];

	ck_assert_uint_eq(dk_pattern_word(7, 0x1000), 0x47e39dfacfde86acull);
	ck_assert_uint_eq(dk_pattern_word(7, 0x1003), 0x47e39dfacfde86acull);
	ck_assert_int_eq(dk_pattern_zero(7, 0x1000), 1);
	ck_assert_int_eq(dk_pattern_zero(7, 0x5000), 0);
	/* Bytes inside a frame that is not zero are the LE word bytes. */
	dk_pattern_fill(7, 0x5000, b, 16);
	ck_assert_uint_eq(dec_le64(b), dk_pattern_word(7, 0x5000));
	ck_assert_uint_eq(dec_le64(b + 8), dk_pattern_word(7, 0x5008));
	/* An unaligned fill agrees with the aligned one. */
	dk_pattern_fill(7, 0x5003, b, 5);
	ck_assert_uint_eq(b[0], (uint8_t)(dk_pattern_word(7, 0x5000) >> 24));
}
END_TEST

START_TEST(test_json_escaping)
{
	char *out = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&out, &n);
	struct json j;

	json_init(&j, fp);
	json_begin(&j, NULL, 0);
	json_str(&j, "s", "a\"b\\c\n\t\x01\xff");
	json_hex(&j, "h", 0xfffffe0000000000ull);
	json_begin(&j, "a", 1);
	json_u64(&j, NULL, 18446744073709551615ull);
	json_bool(&j, NULL, 0);
	json_str(&j, NULL, NULL);
	json_end(&j, 1);
	json_begin(&j, "e", 1);
	json_end(&j, 1);
	json_end(&j, 0);
	fclose(fp);
	ck_assert_str_eq(out, "{\n  \"s\": \"a\\\"b\\\\c\\n\\t\\u0001\\u00ff\","
	    "\n  \"h\": \"0xfffffe0000000000\",\n  \"a\": [\n    "
	    "18446744073709551615,\n    false,\n    null\n  ],\n  \"e\": []\n}\n");
	free(out);
}
END_TEST

static Suite *
core_suite(void)
{
	Suite *s = suite_create("core");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_bytes_decode);
	tcase_add_test(tc, test_bytes_encode);
	tcase_add_test(tc, test_err_prefix);
	tcase_add_test(tc, test_err_prefix_truncates);
	tcase_add_test(tc, test_bitmap_load_be32);
	tcase_add_test(tc, test_bitmap_load_be64);
	tcase_add_test(tc, test_bitmap_load_paths);
	tcase_add_test(tc, test_bitmap_tail_cleared);
	tcase_add_test(tc, test_bitmap_rank);
	tcase_add_test(tc, test_bitmap_empty);
	tcase_add_test(tc, test_layout_roundtrip);
	tcase_add_test(tc, test_layout_refuses_overflow);
	tcase_add_test(tc, test_layout_signed_range);
	tcase_add_test(tc, test_parse);
	tcase_add_test(tc, test_pattern_documented_values);
	tcase_add_test(tc, test_json_escaping);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(core_suite());
	int nfailed;

	srunner_run_all(sr, CK_ENV);
	nfailed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfailed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
