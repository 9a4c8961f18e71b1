/*
 * fuzz_kdump_codec.c -- libFuzzer target: each codec's page path, in
 * the reader (fmt_kdump.c) and in the validator (check_kdump.c), with
 * the libraries (zlib, lzo2, snappy, zstd) fed any bytes.
 *
 * The target writes a well-formed kdump file around the input (LP64,
 * little-endian, version 6, 4 KiB blocks, four pages dumped): the input
 * is "C0 C1 C2 C3 L0 L1 L2 L3 bytes...", Ci each page's flags (its
 * codec: 0 stored, 1 zlib, 2 lzo, 4 snappy, 0x20 zstd, or anything),
 * Li the share of the bytes that page gets (its descriptor's size; a
 * size over a block is reported, not read).  Every page is read through
 * the library (DK_OK, DK_ECORRUPT naming the page, never a crash or a
 * page that is not one block), and the validator must agree
 * (kdump_diff.h).  Seeds (fuzz/corpus/kdump_codec): pages compressed by
 * each library, from the Check suite's writer.
 */
#include "kdump_diff.h"

#define	FZ_BS		4096u
#define	FZ_NP		4

static void
le(uint8_t *p, unsigned w, uint64_t v)
{
	for (unsigned i = 0; i < w; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* header, sub header, bitmap 1, bitmap 2, descriptors, pages */
	const size_t desc = 4 * FZ_BS, pages = desc + FZ_NP * 24;
	uint8_t *b;
	size_t rest, take[FZ_NP], at = 0, tot = 0;
	struct dk_dump *d;
	struct dk_err err;

	if (size < 2 * FZ_NP)
		return 0;
	rest = size - 2 * FZ_NP;
	for (int i = 0; i < FZ_NP; i++)
		tot += data[FZ_NP + i] + 1u;
	for (int i = 0; i < FZ_NP; i++) {
		take[i] = rest * (data[FZ_NP + i] + 1u) / tot;
		at += take[i];
	}
	take[FZ_NP - 1] += rest - at;
	if ((b = calloc(1, pages + rest)) == NULL)
		return 0;
	memcpy(b, "KDUMP   ", 8);
	le(b + 8, 4, 6);			/* header_version */
	memcpy(b + 272, "x86_64", 6);		/* utsname.machine */
	le(b + 424, 4, 1);			/* status: zlib */
	le(b + 428, 4, FZ_BS);			/* block_size */
	le(b + 432, 4, 1);			/* sub_hdr_size */
	le(b + 436, 4, 2);			/* bitmap_blocks */
	le(b + 440, 4, 16);			/* max_mapnr */
	le(b + 460, 4, 1);			/* nr_cpus */
	le(b + FZ_BS + 8, 4, 1);		/* dump_level */
	le(b + FZ_BS + 96, 8, 16);		/* max_mapnr_64 */
	b[2 * FZ_BS] = 0xff;			/* PFNs 0-7 in memory */
	b[3 * FZ_BS] = 0x0f;			/* 0-3 dumped */
	at = pages;
	for (int i = 0; i < FZ_NP; i++) {
		le(b + desc + 24 * i, 8, at);
		le(b + desc + 24 * i + 8, 4, take[i]);
		le(b + desc + 24 * i + 12, 4, data[i]);
		at += take[i];
	}
	memcpy(b + pages, data + 2 * FZ_NP, rest);
	if (dk_open_mem(b, pages + rest, "fuzz", NULL, &d, &err) == DK_OK) {
		uint8_t *page = malloc(FZ_BS);

		for (int i = 0; page != NULL && i < FZ_NP; i++) {
			enum dk_status st = dk_read_pa(d, (uint64_t)i * FZ_BS,
			    page, FZ_BS, &err);

			FZ_CHECK(st == DK_OK || st == DK_ECORRUPT ||
			    st == DK_ENOTDUMPED);
			FZ_CHECK(st == DK_OK || err.msg[0] != '\0');
		}
		free(page);
		dk_close(d);
	} else
		FZ_CHECK(err.msg[0] != '\0');
	fz_kd_diff(b, pages + rest);
	free(b);
	return 0;
}
