/*
 * check_minidump.c -- reading FreeBSD minidumps.
 *
 *  - "handmade": small dumps assembled here byte by byte from the tables
 *    of FORMATS.md 1.2-1.4 and 2.x, with no help from the library's
 *    layout tables or writer, so that a bug shared by our writer and our
 *    reader cannot hide.
 *  - "matrix": every entry of `dumpgen --list`, generated, reopened and
 *    read at 1,000 physical and 1,000 virtual addresses, compared with
 *    the fixture model (the pattern function and the model's own map).
 *  - "corrupt": truncation at and inside every section, and header size
 *    fields set to 0, to their maximum and to values that overflow 32-bit
 *    arithmetic: a clear error naming the section, or correct reads.
 *  - "large": a dump larger than 4 GiB, its last page read back.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sample.h"
#include "bytes.h"
#include "gen.h"
#include "private.h"
#include "dkcheck.h"
#include "minidump.h"
#include "img.h"

/* ---------------------------------------------------------------------- */
/* An image assembled by hand.                                             */

static uint64_t
kvtop_ok(struct dk_dump *d, uint64_t va)
{
	struct dk_err err;
	uint64_t pa = 0;

	ck_assert_msg(dk_kvtop(d, va, &pa, &err) == DK_OK, "kvtop %#jx: %s",
	    (uintmax_t)va, err.msg);
	return pa;
}

/*
 * amd64 version 3 (FORMATS.md 1.2, 1.3, 2.1).  Sections at 0x1000
 * (msgbuf "hello"), 0x2000 (dump_avail [0x1000,0x3000) [0x10000,0x12000)),
 * 0x3000 (bitmap: bits 0, 2, 3 = PA 0x1000, 0x10000, 0x11000), 0x4000
 * (pmap: PDE0 -> page table at PA 0x10000, PDE1 a 2 MiB page at 0x200000),
 * pages from 0x5000.
 */
static void
make_amd64_v3(struct img *im)
{
	img_init(im, 0x8000);
	put(im, 0, "minidump FreeBSD/amd64\0\0", 24);
	put_le32(im, 24, 3);			/* version */
	put_le32(im, 28, 5);			/* msgbufsize */
	put_le32(im, 32, 8);			/* bitmapsize */
	put_le32(im, 36, 4096);			/* pmapsize */
	put_le64(im, 40, 0xfffffe0000000000ull);	/* kernbase */
	put_le64(im, 48, 0xfffff80000000000ull);	/* dmapbase */
	put_le64(im, 56, 0xfffffc0000000000ull);	/* dmapend */
	put_le32(im, 64, 4096);			/* dumpavailsize */
	put(im, 0x1000, "hello", 5);
	put_le64(im, 0x2000, 0x1000);
	put_le64(im, 0x2008, 0x3000);
	put_le64(im, 0x2010, 0x10000);
	put_le64(im, 0x2018, 0x12000);
	im->p[0x3000] = 0x0d;
	put_le64(im, 0x4000, 0x10000 | 0x3);	/* PG_V | PG_RW */
	put_le64(im, 0x4008, 0x200000 | 0x83);	/* PG_PS | PG_V | PG_RW */
	memset(im->p + 0x5000, 0xa1, 0x1000);	/* PA 0x1000 */
	put_le64(im, 0x6000 + 3 * 8, 0x11000 | 0x1);	/* PTE 3 */
	put_le64(im, 0x6000 + 5 * 8, 0x2000 | 0x1);	/* PTE 5: not dumped */
	memset(im->p + 0x7000, 0xb2, 0x1000);	/* PA 0x11000 */
}

START_TEST(test_handmade_amd64_v3)
{
	const uint64_t kb = 0xfffffe0000000000ull;
	struct dk_run_iter it = { 0 };
	struct dk_run run;
	struct dk_img_check { int dummy; };
	const struct dk_info *in;
	struct dk_dump *d;
	struct dk_err err;
	struct img im;
	char msg[8] = { 0 };
	size_t got;
	uint64_t pa;

	make_amd64_v3(&im);
	d = img_open(&im, NULL);
	in = dk_info(d);
	ck_assert_str_eq(in->arch, "amd64");
	ck_assert_int_eq(in->arch_by, DK_BY_FORMAT);
	ck_assert_uint_eq(in->version, 3);
	ck_assert_int_eq(in->endian, DK_LE);
	ck_assert_uint_eq(in->page_size, 4096);
	ck_assert_uint_eq(in->kernbase, kb);
	ck_assert_uint_eq(dk_window_find(d, DK_WIN_DIRECT_MAP)->va,
	    0xfffff80000000000ull);
	ck_assert_uint_eq(in->npages, 3);
	ck_assert_uint_eq(in->npages_present, 3);
	ck_assert_str_eq(dk_section(d, 1)->name, "msgbuf");
	ck_assert_uint_eq(dk_section(d, 1)->offset, 0x1000);
	ck_assert_str_eq(dk_section(d, 2)->name, "dump_avail");
	ck_assert_uint_eq(dk_section(d, 2)->offset, 0x2000);
	ck_assert_str_eq(dk_section(d, 3)->name, "bitmap");
	ck_assert_uint_eq(dk_section(d, 3)->offset, 0x3000);
	ck_assert_str_eq(dk_section(d, 4)->name, "pmap");
	ck_assert_uint_eq(dk_section(d, 4)->offset, 0x4000);
	ck_assert_str_eq(dk_section(d, 5)->name, "pages");
	ck_assert_uint_eq(dk_section(d, 5)->offset, 0x5000);
	ck_assert_int_eq(dk_read_msgbuf(d, msg, sizeof(msg), &got, &err),
	    DK_OK);
	ck_assert_uint_eq(got, 5);
	ck_assert_str_eq(msg, "hello");

	expect_bytes(d, 0, 0x1000, 0xa1, 16);
	expect_bytes(d, 0, 0x11ff0, 0xb2, 16);
	expect_fail(d, 0, 0x1ff0, 32, DK_ENOTDUMPED, "0x2000");
	/* A hole between dump_avail ranges: libkvm returns another page. */
	expect_fail(d, 0, 0xf000, 8, DK_ENOTDUMPED, "outside physical memory");
	expect_fail(d, 0, 0x12000, 8, DK_ENOTDUMPED, NULL);

	ck_assert_uint_eq(kvtop_ok(d, kb + 3 * 4096 + 0x10), 0x11010);
	expect_bytes(d, 1, kb + 3 * 4096, 0xb2, 64);
	ck_assert_uint_eq(kvtop_ok(d, kb + 5 * 4096), 0x2000);
	expect_fail(d, 1, kb + 5 * 4096, 8, DK_ENOTDUMPED, NULL);
	expect_fail(d, 1, kb + 4096, 8, DK_ENOTMAPPED, NULL);
	ck_assert_uint_eq(kvtop_ok(d, kb + 0x200000 + 0x1234), 0x201234);
	expect_fail(d, 1, kb + 0x400000, 8, DK_ENOTMAPPED, NULL);
	expect_fail(d, 1, kb + 512ull * 0x200000, 8, DK_ENOTMAPPED, NULL);
	expect_fail(d, 1, 0xffff800000000000ull, 8, DK_ENOTMAPPED, NULL);
	expect_bytes(d, 1, 0xfffff80000011000ull, 0xb2, 64);
	ck_assert_int_eq(dk_kvtop(d, 0xfffff80000011000ull, &pa, &err), DK_OK);
	ck_assert_uint_eq(pa, 0x11000);

	ck_assert(dk_run_next(d, &it, &run));
	ck_assert_uint_eq(run.pa, 0x1000);
	ck_assert_uint_eq(run.len, 0x1000);
	ck_assert_uint_eq(run.offset, 0x5000);
	ck_assert(dk_run_next(d, &it, &run));
	ck_assert_uint_eq(run.pa, 0x10000);
	ck_assert_uint_eq(run.len, 0x2000);
	ck_assert_uint_eq(run.offset, 0x6000);
	ck_assert(!dk_run_next(d, &it, &run));
	dk_close(d);
	free(im.p);
}
END_TEST

/*
 * amd64 version 2, a 1 GiB page: the kernel writes it as a synthetic page
 * of 512 PDEs, entry j = PDPE + j * 2 MiB with PG_PS (FORMATS.md 2.1).
 * Here the second GiB of KVA maps PA 0x40000000, whose first 2 MiB page
 * is dumped (bitmap bit 0x40000).
 */
START_TEST(test_handmade_amd64_1g)
{
	const uint64_t kb = 0xfffffe0000000000ull;
	struct dk_dump *d;
	struct img im;

	img_init(&im, 0x13000 + 0x200000);
	put(&im, 0, "minidump FreeBSD/amd64\0\0", 24);
	put_le32(&im, 24, 2);
	put_le32(&im, 28, 0);			/* msgbufsize */
	put_le32(&im, 32, 0x10000);		/* bitmapsize: 2 GiB */
	put_le32(&im, 36, 8192);		/* pmapsize: 2 GiB of KVA */
	put_le64(&im, 40, kb);
	put_le64(&im, 48, 0xfffff80000000000ull);
	put_le64(&im, 56, 0xfffffc0000000000ull);
	for (unsigned k = 0; k < 512 / 8; k++)	/* PA 0x40000000 + 2M */
		im.p[0x1000 + 0x40000 / 8 + k] = 0xff;
	for (uint64_t j = 0; j < 512; j++)
		put_le64(&im, 0x11000 + 0x1000 + 8 * j,
		    (0x40000000ull + (j << 21)) | 0x83);
	memset(im.p + 0x13000, 0x5a, 0x200000);
	d = img_open(&im, NULL);
	ck_assert_uint_eq(dk_info(d)->npages, 512);
	ck_assert_uint_eq(kvtop_ok(d, kb + (1ull << 30) + 0x123),
	    0x40000123u);
	ck_assert_uint_eq(kvtop_ok(d, kb + (1ull << 30) + (5u << 21) + 0x77),
	    0x40000000u + (5u << 21) + 0x77);
	expect_bytes(d, 1, kb + (1ull << 30) + 0x1fffc0, 0x5a, 64);
	expect_fail(d, 1, kb + (1ull << 30) + 0x200000, 8, DK_ENOTDUMPED,
	    NULL);
	expect_fail(d, 1, kb, 8, DK_ENOTMAPPED, NULL);
	dk_close(d);
	free(im.p);
}
END_TEST

/* The same dump truncated inside its last page: ETRUNC for that page. */
START_TEST(test_handmade_truncated_page)
{
	struct dk_dump *d;
	struct img im;

	make_amd64_v3(&im);
	im.len = 0x7800;
	d = img_open(&im, NULL);
	ck_assert_uint_eq(dk_info(d)->npages_present, 2);
	expect_bytes(d, 0, 0x10018, 0x01, 1);	/* PTE 3, low byte */
	expect_fail(d, 0, 0x11000, 8, DK_ETRUNC, "past the end");
	dk_close(d);
	free(im.p);
}
END_TEST

/*
 * armeb version 2 (FORMATS.md 1.2 "arm", 1.4, 2.3), big-endian: the
 * version field reads 2 only big-endian.  Bitmap in 4-byte BE words:
 * bits 0, 9, 16, 17 -> word 0x00030201.  L2 PTEs: entry 0 a small page
 * (type 2) at 0x80009000, entry 1 type 3 (small in V6), entries 16-31 a
 * 64 KiB large page (type 1) at 0x80010000.
 */
static void
make_armeb_v2(struct img *im, uint32_t mmuformat)
{
	img_init(im, 0x9000);
	put(im, 0, "minidump FreeBSD/arm\0\0\0\0", 24);
	put_be32(im, 24, 2);
	put_be32(im, 28, 3);
	put_be32(im, 32, 8);			/* 64 bits: 64 pages */
	put_be32(im, 36, 4096);
	put_be32(im, 40, 0xc0000000u);
	put_be32(im, 44, 7);
	put_be32(im, 48, mmuformat);
	put_be32(im, 52, 4096);
	put(im, 0x1000, "abc", 3);
	put_be64(im, 0x2000, 0x80000000u);
	put_be64(im, 0x2008, 0x80040000u);
	put(im, 0x3000, "\x00\x03\x02\x01", 4);
	put_be32(im, 0x4000, 0x80009002u);
	put_be32(im, 0x4004, 0x80009003u);
	for (int i = 16; i < 32; i++)
		put_be32(im, 0x4000 + 4 * i, 0x80010001u);
	memset(im->p + 0x5000, 0x11, 0x1000);	/* PA 0x80000000 */
	memset(im->p + 0x6000, 0x22, 0x1000);	/* PA 0x80009000 */
	memset(im->p + 0x7000, 0x33, 0x1000);	/* PA 0x80010000 */
	memset(im->p + 0x8000, 0x44, 0x1000);	/* PA 0x80011000 */
}

START_TEST(test_handmade_armeb_v2)
{
	const struct dk_info *in;
	struct dk_dump *d;
	struct img im;

	make_armeb_v2(&im, 2);
	d = img_open(&im, NULL);
	in = dk_info(d);
	ck_assert_str_eq(in->arch, "armeb");
	ck_assert_int_eq(in->arch_by, DK_BY_HEADER);
	ck_assert_int_eq(in->endian, DK_BE);
	ck_assert_uint_eq(in->npages, 4);
	ck_assert_ptr_null(dk_window_find(d, DK_WIN_DIRECT_MAP));
	expect_bytes(d, 0, 0x80000000u, 0x11, 16);
	expect_bytes(d, 0, 0x80011ff0u, 0x44, 16);
	expect_fail(d, 0, 0x80001000u, 8, DK_ENOTDUMPED, NULL);
	ck_assert_uint_eq(kvtop_ok(d, 0xc0000123u), 0x80009123u);
	expect_bytes(d, 1, 0xc0000000u, 0x22, 64);
	ck_assert_uint_eq(kvtop_ok(d, 0xc0001000u), 0x80009000u);
	ck_assert_uint_eq(kvtop_ok(d, 0xc0011005u), 0x80011005u);
	expect_bytes(d, 1, 0xc0010000u, 0x33, 64);
	expect_bytes(d, 1, 0xc0011000u, 0x44, 64);
	expect_fail(d, 1, 0xc0002000u, 8, DK_ENOTMAPPED, NULL);
	expect_fail(d, 1, 0xc0400000u, 8, DK_ENOTMAPPED, NULL);
	expect_fail(d, 1, 0xbffff000u, 8, DK_ENOTMAPPED, NULL);
	dk_close(d);
	free(im.p);
}
END_TEST

/*
 * With mmuformat V4 a type-3 L2 entry is a 1 KiB tiny page, which
 * dumpkit does not translate: that address is refused (DK_EUNSUP),
 * the others read as before.
 */
START_TEST(test_handmade_arm_v4_tiny)
{
	struct dk_dump *d;
	struct dk_err err;
	struct img im;
	uint64_t pa;

	make_armeb_v2(&im, 1);
	d = img_open(&im, NULL);
	ck_assert_uint_eq(kvtop_ok(d, 0xc0000000u), 0x80009000u);
	ck_assert_int_eq(dk_kvtop(d, 0xc0001000u, &pa, &err), DK_EUNSUP);
	ck_assert_str_eq(err.msg, "virtual address 0xc0001000: L2 PTE "
	    "0x80009003 is a V4 1 KiB tiny page (type 3), which dumpkit does "
	    "not translate");
	expect_fail(d, 1, 0xc0001000u, 8, DK_EUNSUP, "tiny page");
	expect_bytes(d, 1, 0xc0000ff8u, 0x22, 8);
	expect_bytes(d, 1, 0xc0010000u, 0x33, 64);
	dk_close(d);
	free(im.p);
}
END_TEST

/* Forcing the wrong byte order is a clear error, never a silent misread. */
START_TEST(test_handmade_arm_wrong_order)
{
	struct dk_open_opts o = { .arch = "arm" };
	struct dk_dump *d = NULL;
	struct dk_err err;
	struct img im;

	make_armeb_v2(&im, 2);
	ck_assert_int_ne(dk_open_mem(im.p, im.len, "handmade", &o, &d, &err),
	    DK_OK);
	ck_assert_ptr_null(d);
	ck_assert_ptr_nonnull(strstr(err.msg, "offset 0x18"));
	o.arch = "amd64";
	ck_assert_int_eq(dk_open_mem(im.p, im.len, "handmade", &o, &d, &err),
	    DK_EINVAL);
	o.arch = "armeb";
	ck_assert_int_eq(dk_open_mem(im.p, im.len, "handmade", &o, &d, &err),
	    DK_OK);
	ck_assert_int_eq(dk_info(d)->arch_by, DK_BY_OPTION);
	dk_close(d);
	free(im.p);
}
END_TEST

/*
 * i386 version 1 with PAE (FORMATS.md 1.2 "i386", 2.2): no dump_avail,
 * so bit i is page i; 8-byte PTEs.  Bits 1 and 2 set.
 */
START_TEST(test_handmade_i386_pae_v1)
{
	struct dk_dump *d;
	struct img im;

	img_init(&im, 0x6000);
	put(&im, 0, "minidump FreeBSD/i386\0\0\0", 24);
	put_le32(&im, 24, 1);
	put_le32(&im, 28, 0);			/* msgbufsize */
	put_le32(&im, 32, 4);			/* bitmapsize */
	put_le32(&im, 36, 8192);		/* ptesize: 1024 PTEs */
	put_le32(&im, 40, 0xc0000000u);		/* kernbase */
	put_le32(&im, 44, 1);			/* paemode */
	im.p[0x1000] = 0x06;
	put_le64(&im, 0x2000, 0x2003);
	put_le64(&im, 0x2008, 0x8000000000001001ull);	/* NX */
	put_le64(&im, 0x2000 + 600 * 8, 0x100000001ull);
	memset(im.p + 0x4000, 0x55, 0x1000);	/* PA 0x1000 */
	memset(im.p + 0x5000, 0x66, 0x1000);	/* PA 0x2000 */
	d = img_open(&im, NULL);
	ck_assert_uint_eq(dk_info(d)->npages, 2);
	ck_assert_uint_eq(kvtop_ok(d, 0xc0000010u), 0x2010);
	expect_bytes(d, 1, 0xc0000000u, 0x66, 64);
	expect_bytes(d, 1, 0xc0001000u, 0x55, 64);
	ck_assert_uint_eq(kvtop_ok(d, 0xc0000000u + 600 * 4096), 0x100000000ull);
	expect_fail(d, 1, 0xc0000000u + 600 * 4096, 8, DK_ENOTDUMPED, NULL);
	expect_fail(d, 1, 0xc0400000u, 8, DK_ENOTMAPPED, NULL);
	expect_fail(d, 1, 0xbfff0000u, 8, DK_ENOTMAPPED, NULL);
	dk_close(d);
	free(im.p);
}
END_TEST

/* Non-PAE: 4-byte PTEs, PG_FRAME 0xfffff000. */
START_TEST(test_handmade_i386_v2)
{
	struct dk_dump *d;
	struct img im;

	img_init(&im, 0x6000);
	put(&im, 0, "minidump FreeBSD/i386\0\0\0", 24);
	put_le32(&im, 24, 2);
	put_le32(&im, 28, 0);
	put_le32(&im, 32, 1);			/* bitmapsize */
	put_le32(&im, 36, 4096);		/* ptesize: 1024 PTEs */
	put_le32(&im, 40, 0xc0000000u);
	put_le32(&im, 44, 0);			/* paemode */
	put_le32(&im, 48, 4096);		/* dumpavailsize */
	put_le64(&im, 0x1000, 0x100000);	/* dump_avail [1M, 1M+32K) */
	put_le64(&im, 0x1008, 0x108000);
	im.p[0x2000] = 0x81;			/* bits 0, 7 */
	put_le32(&im, 0x3000, 0x107063);	/* PA 0x107000 */
	put_le32(&im, 0x3004, 0x100001);	/* PA 0x100000 */
	memset(im.p + 0x4000, 0x70, 0x1000);
	memset(im.p + 0x5000, 0x77, 0x1000);
	d = img_open(&im, NULL);
	ck_assert_uint_eq(dk_info(d)->version, 2);
	ck_assert_uint_eq(kvtop_ok(d, 0xc0000abcu), 0x107abc);
	expect_bytes(d, 1, 0xc0000000u, 0x77, 64);
	expect_bytes(d, 1, 0xc0001000u, 0x70, 64);
	expect_fail(d, 1, 0xc0002000u, 8, DK_ENOTMAPPED, NULL);
	expect_fail(d, 0, 0x101000, 8, DK_ENOTDUMPED, NULL);
	dk_close(d);
	free(im.p);
}
END_TEST

/*
 * aarch64 version 3 with the 16 KiB granule (FORMATS.md 1.2 "arm64",
 * 2.4): every section is rounded to 16 KiB, bits are 16 KiB pages, the
 * pmap area has one L3 descriptor per 16 KiB page.
 */
static void
make_arm64_16k(struct img *im, uint32_t flags)
{
	img_init(im, 0x18000);
	put(im, 0, "minidump FreeBSD/arm64\0\0", 24);
	put_le32(im, 24, 3);
	put_le32(im, 28, 0);			/* msgbufsize */
	put_le32(im, 32, 8);			/* bitmapsize */
	put_le32(im, 36, 16384);		/* pmapsize */
	put_le64(im, 40, 0xffff000000000000ull);	/* kernbase */
	put_le64(im, 48, 0x80000000u);		/* dmapphys */
	put_le64(im, 56, 0xffffa00000000000ull);	/* dmapbase */
	put_le64(im, 64, 0xffffff0000000000ull);	/* dmapend */
	put_le32(im, 72, 16384);		/* dumpavailsize */
	put_le32(im, 76, flags);
	put_le64(im, 0x4000, 0x80000000u);	/* dump_avail: 64 pages */
	put_le64(im, 0x4008, 0x80100000u);
	im->p[0x8000] = 0x21;			/* bits 0 and 5 */
	put_le64(im, 0xc000, 0x80014000u | 0x400 | 3);	/* AF | L3_PAGE */
	put_le64(im, 0xc008, 0x80008000u | 0x400 | 3);
	memset(im->p + 0x10000, 0x77, 0x4000);	/* PA 0x80000000 */
	memset(im->p + 0x14000, 0x88, 0x4000);	/* PA 0x80014000 */
}

START_TEST(test_handmade_arm64_16k)
{
	const uint64_t kb = 0xffff000000000000ull;
	const struct dk_info *in;
	struct dk_dump *d;
	struct img im;

	make_arm64_16k(&im, 1);
	d = img_open(&im, NULL);
	in = dk_info(d);
	ck_assert_str_eq(in->arch, "aarch64");
	ck_assert_uint_eq(in->page_size, 16384);
	ck_assert_uint_eq(in->npages, 2);
	ck_assert_uint_eq(dk_section(d, 4)->offset, 0xc000);
	ck_assert_uint_eq(kvtop_ok(d, kb + 0x123), 0x80014123u);
	expect_bytes(d, 1, kb + 0x3fc0, 0x88, 64);
	ck_assert_uint_eq(kvtop_ok(d, kb + 0x4000), 0x80008000u);
	expect_fail(d, 1, kb + 0x4000, 8, DK_ENOTDUMPED, NULL);
	expect_fail(d, 1, kb + 0x8000, 8, DK_ENOTMAPPED, NULL);
	expect_bytes(d, 1, 0xffffa00000003fc0ull, 0x77, 64);
	expect_fail(d, 1, 0xffffa00000003ff0ull, 32, DK_ENOTDUMPED, NULL);
	expect_bytes(d, 0, 0x80017fc0u, 0x88, 64);
	dk_close(d);
	free(im.p);
}
END_TEST

/* Page-size flags 2 (64 KiB, reserved) and 3 are not guessed at. */
START_TEST(test_handmade_arm64_bad_flags)
{
	struct dk_dump *d = NULL;
	struct dk_err err;
	struct img im;

	make_arm64_16k(&im, 2);
	ck_assert_int_eq(dk_open_mem(im.p, im.len, "handmade", NULL, &d, &err),
	    DK_EUNSUP);
	ck_assert_ptr_nonnull(strstr(err.msg, "76"));
	free(im.p);
}
END_TEST

/* Magic checks include the NUL: "arm" is a prefix of "arm64". */
START_TEST(test_handmade_magic)
{
	struct dk_dump *d = NULL;
	struct dk_err err;
	struct img im;

	make_amd64_v3(&im);
	memcpy(im.p, "minidump FreeBSD/amd6", 22);	/* "amd6\0" */
	ck_assert_int_eq(dk_open_mem(im.p, im.len, "handmade", NULL, &d, &err),
	    DK_EUNSUP);
	ck_assert_ptr_nonnull(strstr(err.msg, "offset 0"));
	ck_assert_ptr_nonnull(strstr(err.msg, "minidump FreeBSD/amd6"));
	memcpy(im.p, "MINIDUMP", 8);
	ck_assert_int_eq(dk_open_mem(im.p, im.len, "handmade", NULL, &d, &err),
	    DK_EUNSUP);
	ck_assert_ptr_null(d);
	free(im.p);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* The matrix: every generatable variant against the model.               */

static char tmpdir[256];

static void
setup_tmp(void)
{
	const char *t = getenv("TMPDIR");

	snprintf(tmpdir, sizeof(tmpdir), "%s/dkcheck.XXXXXX", t ? t : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void
rm_tmp(const char *file)
{
	if (file != NULL)
		unlink(file);
	rmdir(tmpdir);
}

/* Read the whole file at path into *len bytes (malloc'd). */
static uint8_t *
slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *p;
	long n;

	ck_assert_ptr_nonnull(fp);
	ck_assert_int_eq(fseek(fp, 0, SEEK_END), 0);
	n = ftell(fp);
	ck_assert_int_ge(n, 0);
	rewind(fp);
	p = malloc(n > 0 ? (size_t)n : 1);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(fread(p, 1, (size_t)n, fp), (size_t)n);
	fclose(fp);
	*len = (size_t)n;
	return p;
}

static uint64_t
be(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

struct tiny_seen {
	size_t		n;
	char		code[4][40];
	uint64_t	off[4];
	int		sev[4];
};

static void
tiny_keep(void *arg, const struct dk_finding *f)
{
	struct tiny_seen *s = arg;

	if (s->n < 4) {
		snprintf(s->code[s->n], sizeof(s->code[0]), "%s", f->code);
		s->off[s->n] = f->has_offset ? f->offset : UINT64_MAX;
		s->sev[s->n] = f->severity;
	}
	s->n++;
}

/*
 * dumpcheck of path finds what make_armeb_v2's V4 dump holds, with its
 * pmap area at pmap: the large page's entries 18 to 31 map pages not in
 * the dump (a warning at entry 18), the tiny page is a note at entry 1;
 * no error.
 */
static void
tiny_checked(const char *path, uint64_t pmap)
{
	struct tiny_seen s = { 0 };
	struct dk_check_opts o = { .finding = tiny_keep, .arg = &s };
	struct dk_check_result res;
	struct dk_err err;

	ck_assert_msg(dk_check(path, &o, &res, &err) == DK_OK, "%s", err.msg);
	ck_assert_uint_eq(s.n, 2);
	ck_assert_str_eq(s.code[0], "pmap.page-not-dumped");
	ck_assert_int_eq(s.sev[0], DK_SEV_WARNING);
	ck_assert_uint_eq(s.off[0], pmap + 4 * 18);
	ck_assert_str_eq(s.code[1], "pmap.untranslated");
	ck_assert_int_eq(s.sev[1], DK_SEV_NOTE);
	ck_assert_uint_eq(s.off[1], pmap + 4);
	ck_assert_uint_eq(res.nerrors, 0);
}

/*
 * The same V4 dump converted to the portable format: the tiny page is
 * a hole in the virtual segments, not a failed conversion, and the rest
 * of the kernel map is there.  Worked out by hand from make_armeb_v2's
 * entries and bitmap: physical runs pa 0x80000000 (1 page, rank 0),
 * 0x80009000 (1, rank 1), 0x80010000 (2, rank 2); virtual segments va
 * 0xc0000000 -> 0x80009000 (one page: the next entry is the tiny page)
 * and 0xc0010000 -> 0x80010000 (the large page's two dumped pages),
 * p_flags PF_R | PF_X (V4: AP_W clear, no XN), each at its physical
 * page's offset.  dumpcheck finds the note at the entry (the pmap area
 * + 4 in the native file, the PMAP note's descriptor + 4 in the
 * portable one) and no error.  Back to native: the same bytes.
 */
START_TEST(test_handmade_arm_v4_tiny_portable)
{
	static const struct { uint64_t va, pa, len; } virt[] = {
		{ 0xc0000000u, 0x80009000u, 0x1000 },
		{ 0xc0010000u, 0x80010000u, 0x2000 },
	};
	static const uint64_t phys[3][2] = {
		{ 0x80000000u, 0x1000 }, { 0x80009000u, 0x1000 },
		{ 0x80010000u, 0x2000 },
	};
	char elf[512], nat[512], back[512];
	struct dk_dump *d;
	struct dk_sink sk;
	struct dk_err err;
	struct img im;
	uint8_t *f, *g;
	uint64_t data, noff, nend, pmap_note = 0;
	size_t flen, glen;
	int fd;

	make_armeb_v2(&im, 1);
	setup_tmp();
	snprintf(nat, sizeof(nat), "%s/native", tmpdir);
	snprintf(elf, sizeof(elf), "%s/elf", tmpdir);
	snprintf(back, sizeof(back), "%s/back", tmpdir);
	fd = open(nat, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ck_assert_int_ge(fd, 0);
	ck_assert_uint_eq(write(fd, im.p, im.len), im.len);
	close(fd);
	tiny_checked(nat, 0x4000);

	d = img_open(&im, NULL);
	fd = open(elf, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ck_assert_int_ge(fd, 0);
	dk_sink_init(&sk, fd, elf);
	ck_assert_msg(dk_elfmini_write(d, &sk, 0, &err) == DK_OK, "%s",
	    err.msg);
	close(fd);
	dk_close(d);

	/* The ELF side, decoded here (big-endian, ELFCLASS64). */
	f = slurp(elf, &flen);
	ck_assert_uint_eq(be(f + 56, 2), 1 + 3 + 2);		/* e_phnum */
	noff = be(f + 64 + 8, 8);				/* PT_NOTE */
	nend = noff + be(f + 64 + 32, 8);
	data = be(f + noff + 20 + 88, 8);	/* info: data_offset */
	for (uint64_t o = noff; o < nend; ) {
		uint64_t nsz = be(f + o, 4), dsz = be(f + o + 4, 4);

		if (be(f + o + 8, 4) == 0x444b0006)	/* NT_DUMPKIT_PMAP */
			pmap_note = o + 12 + ((nsz + 3) & ~3ull);
		o += 12 + ((nsz + 3) & ~3ull) + ((dsz + 3) & ~3ull);
	}
	ck_assert_uint_ne(pmap_note, 0);
	for (int i = 0; i < 3; i++) {
		const uint8_t *ph = f + 64 + 56 * (1 + i);

		ck_assert_uint_eq(be(ph + 24, 8), phys[i][0]);	/* p_paddr */
		ck_assert_uint_eq(be(ph + 32, 8), phys[i][1]);	/* p_filesz */
	}
	for (int i = 0; i < 2; i++) {
		const uint8_t *ph = f + 64 + 56 * (4 + i);
		const uint8_t *pp = f + 64 + 56 * (2 + i);

		ck_assert_uint_eq(be(ph, 4), 1);		/* PT_LOAD */
		ck_assert_uint_eq(be(ph + 4, 4), 4 | 1);	/* PF_R | PF_X */
		ck_assert_uint_eq(be(ph + 16, 8), virt[i].va);
		ck_assert_uint_eq(be(ph + 24, 8), virt[i].pa);
		ck_assert_uint_eq(be(ph + 32, 8), virt[i].len);
		ck_assert_uint_eq(be(ph + 40, 8), virt[i].len);
		/* One copy: the physical page's place, rank 1 and 2. */
		ck_assert_uint_eq(be(ph + 8, 8), be(pp + 8, 8));
		ck_assert_uint_eq(be(ph + 8, 8), data + 0x1000 * (1 + i));
	}
	free(f);
	tiny_checked(elf, pmap_note);

	/* Back to native, byte for byte. */
	ck_assert_msg(dk_open(elf, NULL, &d, &err) == DK_OK, "%s", err.msg);
	expect_fail(d, 1, 0xc0001000u, 8, DK_EUNSUP, "tiny page");
	fd = open(back, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ck_assert_int_ge(fd, 0);
	dk_sink_init(&sk, fd, back);
	ck_assert_msg(dk_native_write(d, &sk, &err) == DK_OK, "%s", err.msg);
	close(fd);
	dk_close(d);
	g = slurp(back, &glen);
	ck_assert_uint_eq(glen, im.len);
	ck_assert_mem_eq(g, im.p, im.len);
	free(g);
	unlink(nat);
	unlink(elf);
	rm_tmp(back);
	free(im.p);
}
END_TEST

/* xorshift for choosing addresses; separate from the model's stream. */
static uint64_t
pick(uint64_t *s, uint64_t n)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return n ? *s % n : 0;
}

/* The PA of the k-th set bit of the model, by walking runs. */
static uint64_t
nth_dumped(struct dk_dump *d, uint64_t k)
{
	struct dk_run_iter it = { 0 };
	struct dk_run r;
	uint64_t ps = dk_info(d)->page_size;

	while (dk_run_next(d, &it, &r)) {
		if (k < r.len / ps)
			return r.pa + k * ps;
		k -= r.len / ps;
	}
	return 0;
}

static void
check_pa(struct fx_dump *f, struct dk_dump *d, uint64_t pa, size_t n)
{
	uint8_t got[64], want[64];
	struct dk_err err;
	enum dk_status st = dk_read_pa(d, pa, got, n, &err);
	int dumped = 1;

	for (uint64_t a = pa; a < pa + n; a += 1)
		dumped &= fx_dumped(f, a);
	if (!dumped) {
		ck_assert_msg(st == DK_ENOTDUMPED, "pa %#jx: not in the model "
		    "but read gave %s (%s)", (uintmax_t)pa, dk_status_name(st),
		    err.msg);
		ck_assert_msg(strstr(err.msg, "0x") != NULL, "no address in "
		    "'%s'", err.msg);
		return;
	}
	ck_assert_msg(st == DK_OK, "pa %#jx: %s", (uintmax_t)pa, err.msg);
	fx_expect(f, pa, want, n);
	ck_assert_msg(memcmp(got, want, n) == 0, "pa %#jx: content differs "
	    "from the model", (uintmax_t)pa);
}

static void
check_va(struct fx_dump *f, struct dk_dump *d, uint64_t va, size_t n)
{
	uint8_t got[64], want[64];
	struct dk_err err;
	uint64_t pa = 0, mpa;
	enum dk_status st = dk_kvtop(d, va, &pa, &err);

	if (!fx_va_to_pa(f, va, &mpa)) {
		ck_assert_msg(st == DK_ENOTMAPPED, "va %#jx: unmapped in the "
		    "model, kvtop gave %s %#jx (%s)", (uintmax_t)va,
		    dk_status_name(st), (uintmax_t)pa, err.msg);
		ck_assert_msg(strstr(err.msg, "not mapped") != NULL ||
		    strstr(err.msg, "0x") != NULL, "'%s'", err.msg);
		return;
	}
	ck_assert_msg(st == DK_OK, "va %#jx: %s", (uintmax_t)va, err.msg);
	ck_assert_msg(pa == mpa, "va %#jx: kvtop %#jx, model %#jx",
	    (uintmax_t)va, (uintmax_t)pa, (uintmax_t)mpa);
	if (!fx_dumped(f, pa) || !fx_dumped(f, pa + n - 1))
		return;
	st = dk_read_va(d, va, got, n, &err);
	ck_assert_msg(st == DK_OK, "va %#jx: %s", (uintmax_t)va, err.msg);
	fx_expect(f, pa, want, n);
	ck_assert_msg(memcmp(got, want, n) == 0, "va %#jx (pa %#jx): content "
	    "differs from the model", (uintmax_t)va, (uintmax_t)pa);
}

static void
check_variant(const struct fx_variant *v, int compact, uint64_t seed)
{
	struct fx_opts o = { .arch = v->arch, .version = v->version,
	    .variant = v->variant, .mem = 64u << 20, .seed = seed,
	    .compact = compact };
	struct fx_dump f;
	struct dk_dump *d;
	struct dk_err err;
	const struct dk_info *in;
	struct dk_hfield hf;
	char path[512];
	uint64_t s = seed * 2654435761u + 1, ps, total = 0;
	struct dk_run_iter it = { 0 };
	struct dk_run r;
	uint64_t last = 0;
	enum dk_status st;

	setup_tmp();
	snprintf(path, sizeof(path), "%s/vmcore", tmpdir);
	ck_assert_msg(fx_build(&o, &f, &err) == DK_OK, "build %s v%u %s: %s",
	    v->arch, v->version, v->variant, err.msg);
	ck_assert_msg(fx_write(&f, path, 0, &err) == DK_OK, "write: %s",
	    err.msg);
	st = dk_open(path, NULL, &d, &err);
	if (st == DK_EAMBIG) {
		/* The header cannot tell (mips o32/n32): a candidate must be
		 * the row that wrote it, and --arch must then decide. */
		struct dk_open_opts oo = { .arch = v->arch };

		ck_assert_msg(strstr(err.msg, v->arch) != NULL, "%s: %s",
		    v->arch, err.msg);
		st = dk_open(path, &oo, &d, &err);
	}
	ck_assert_msg(st == DK_OK, "open %s v%u %s: %s", v->arch, v->version,
	    v->variant, err.msg);
	in = dk_info(d);
	ps = in->page_size;
	ck_assert_str_eq(in->format, "minidump");
	ck_assert_str_eq(in->arch, f.arch->name);
	ck_assert_uint_eq(in->version, v->version);
	ck_assert_int_eq(in->endian, f.arch->endian);
	ck_assert_uint_eq(ps, (uint64_t)1 << f.page_shift);
	ck_assert_uint_eq(in->kernbase, f.g.kernbase);
	ck_assert_uint_eq(in->npages, f.bm.count);
	ck_assert_uint_eq(in->npages_present, f.bm.count);
	ck_assert_int_eq(dk_window_find(d, DK_WIN_DIRECT_MAP) != NULL,
	    f.g.dmap_base != 0);
	/* Every header field decodes to what the model put there. */
	for (size_t i = 0; dk_header_field(d, i, &hf) == 0; i++) {
		const struct dk_field *fl = NULL;

		for (size_t k = 0; k < f.arch->minidump->layout->nfields; k++)
			if (strcmp(f.arch->minidump->layout->fields[k].name,
			    hf.name) == 0)
				fl = &f.arch->minidump->layout->fields[k];
		ck_assert_ptr_nonnull(fl);
		if (fl->kind == DK_FK_UINT || fl->kind == DK_FK_INT)
			switch (fl->id) {
			case DK_H_VERSION:
				ck_assert_uint_eq(hf.value, v->version);
				break;
			case DK_H_MSGBUFSIZE:
				ck_assert_uint_eq(hf.value, f.g.msgbufsize);
				break;
			case DK_H_PMAPSIZE:
				ck_assert_uint_eq(hf.value, f.pb.pmap_len);
				break;
			case DK_H_BITMAPSIZE:
				ck_assert_uint_ge(hf.value * 8, f.bm.nbits);
				ck_assert_uint_eq(hf.value % ps, 0);
				break;
			case DK_H_DUMPAVAILSIZE:
				ck_assert_uint_eq(hf.value, ps);
				break;
			default:
				ck_assert_uint_eq(hf.value,
				    f.spec.hdr.v[fl->id]);
			}
	}
	/* Runs: ascending, dumped in the model, adding up to npages. */
	while (dk_run_next(d, &it, &r)) {
		ck_assert_uint_ge(r.pa, last);
		ck_assert(fx_dumped(&f, r.pa));
		ck_assert(fx_dumped(&f, r.pa + r.len - 1));
		last = r.pa + r.len;
		total += r.len / ps;
	}
	ck_assert_uint_eq(total, f.bm.count);

	/* 1,000 physical addresses: 700 dumped, 300 anywhere. */
	for (int i = 0; i < 1000; i++) {
		uint64_t pa;

		if (i < 700)
			pa = nth_dumped(d, pick(&s, f.bm.count)) +
			    pick(&s, ps - 64);
		else
			pa = f.g.phys_base + pick(&s, o.mem + (64u << 20));
		check_pa(&f, d, pa, 1 + (size_t)pick(&s, 64));
	}
	/* 1,000 virtual addresses: kernel map, gaps, direct map, below. */
	for (int i = 0; i < 1000; i++) {
		const struct dk_map *m = &f.maps[pick(&s, f.nmaps)];
		uint64_t va;

		if (i < 600)
			va = m->va + pick(&s, m->len);
		else if (i < 800)
			va = f.g.kernbase + pick(&s, f.pb.kva_end -
			    f.g.kernbase);
		else if (i < 950 && f.g.dmap_base != 0)
			va = f.g.dmap_base + nth_dumped(d, pick(&s,
			    f.bm.count)) - f.g.phys_base + pick(&s, ps);
		else
			va = f.g.kernbase - 1 - pick(&s, 1u << 30);
		if ((va & (ps - 1)) > ps - 64)
			va -= 64;
		check_va(&f, d, va, 1 + (size_t)pick(&s, 64));
	}
	dk_close(d);
	fx_free(&f);
	rm_tmp(path);
}

static size_t
nvariants(void)
{
	struct fx_variant v;
	size_t n = 0;

	while (fx_variant_at(n, &v))
		n++;
	return n;
}

/* Variant i, which exists. */
static struct fx_variant
variant(size_t i)
{
	struct fx_variant v;

	ck_assert(fx_variant_at(i, &v));
	return v;
}

START_TEST(test_matrix)
{
	/* First: the declarations' initialisers use the matrix index. */
	_i = dk_test_index(_i);
	struct fx_variant v = variant((size_t)_i / 2);
	const char *only = getenv("DK_TEST_ARCH");

	/* DK_TEST_ARCH=row restricts the matrix while a family is written. */
	if (only != NULL && *only != '\0' && strcmp(only, v.arch) != 0)
		return;

	check_variant(&v, _i % 2, (uint64_t)_i + 1);
}
END_TEST

/* Same arguments, same bytes. */
START_TEST(test_deterministic)
{
	struct fx_opts o = { .arch = "aarch64", .version = 3, .mem = 48u << 20,
	    .seed = 99 };
	struct fx_dump f;
	struct dk_err err;
	char a[512], b[512], cmd[1100];

	setup_tmp();
	snprintf(a, sizeof(a), "%s/a", tmpdir);
	snprintf(b, sizeof(b), "%s/b", tmpdir);
	for (int k = 0; k < 2; k++) {
		ck_assert_int_eq(fx_build(&o, &f, &err), DK_OK);
		ck_assert_int_eq(fx_write(&f, k ? b : a, 0, &err), DK_OK);
		fx_free(&f);
	}
	snprintf(cmd, sizeof(cmd), "cmp -s %s %s", a, b);
	ck_assert_int_eq(system(cmd), 0);
	/* An existing file is not replaced without force. */
	ck_assert_int_eq(fx_build(&o, &f, &err), DK_OK);
	ck_assert_int_ne(fx_write(&f, a, 0, &err), DK_OK);
	ck_assert_ptr_nonnull(strstr(err.msg, "exists"));
	ck_assert_int_eq(fx_write(&f, a, 1, &err), DK_OK);
	fx_free(&f);
	unlink(a);
	rm_tmp(b);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Corruption.                                                             */

/* Generate a compact fixture and return it in memory. */
static uint8_t *
load_fixture(const struct fx_variant *v, size_t *len, struct fx_dump *f)
{
	struct fx_opts o = { .arch = v->arch, .version = v->version,
	    .variant = v->variant, .mem = 32u << 20, .dumped = 256u << 10,
	    .seed = 5, .compact = 1 };
	struct dk_err err;
	char path[512];
	struct stat st;
	uint8_t *buf;
	int fd;

	setup_tmp();
	snprintf(path, sizeof(path), "%s/vmcore", tmpdir);
	ck_assert_int_eq(fx_build(&o, f, &err), DK_OK);
	ck_assert_int_eq(fx_write(f, path, 0, &err), DK_OK);
	fd = open(path, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fstat(fd, &st), 0);
	buf = malloc((size_t)st.st_size);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(pread(fd, buf, (size_t)st.st_size, 0), st.st_size);
	close(fd);
	rm_tmp(path);
	*len = (size_t)st.st_size;
	return buf;
}

/*
 * Open a damaged image.  Either the open fails with a message that says
 * where, or every dumped page reads correctly or fails cleanly.  Limit
 * the address space so that an allocation the file cannot justify fails
 * (and shows up as ENOMEM) instead of succeeding quietly.
 */
static void
try_damaged_as(const uint8_t *img, size_t len, const char *what,
    const char *arch)
{
	struct dk_open_opts o = { .arch = arch };
	uint8_t *copy = malloc(len ? len : 1);
	struct dk_dump *d = NULL;
	struct dk_err err;
	enum dk_status st;

	ck_assert_ptr_nonnull(copy);
	memcpy(copy, img, len);
	st = dk_open_mem(copy, len, "damaged", &o, &d, &err);
	if (st != DK_OK) {
		ck_assert_msg(st != DK_ENOMEM, "%s: %s", what, err.msg);
		ck_assert_msg(d == NULL, "%s", what);
		ck_assert_msg(strstr(err.msg, "damaged") != NULL ||
		    strstr(err.msg, "offset") != NULL, "%s: message '%s' "
		    "names no place", what, err.msg);
	} else {
		struct dk_run_iter it = { 0 };
		struct dk_run r;
		uint8_t page[64];
		int n = 0;

		while (dk_run_next(d, &it, &r) && n++ < 10000) {
			st = dk_read_pa(d, r.pa + r.len - 64, page, 64, &err);
			ck_assert_msg(st == DK_OK || st == DK_ETRUNC, "%s: "
			    "%s", what, err.msg);
		}
		(void)dk_read_va(d, dk_info(d)->kernbase, page, 64, &err);
		dk_close(d);
	}
	free(copy);
}

/* Damaged input, opened as the dump tells and as the row that wrote it. */
static const char *damaged_arch;

static void
try_damaged(const uint8_t *img, size_t len, const char *what)
{
	try_damaged_as(img, len, what, NULL);
	try_damaged_as(img, len, what, damaged_arch);
}

static void
limit_memory(void)
{
#ifndef __SANITIZE_ADDRESS__
	struct rlimit rl = { 2ull << 30, 2ull << 30 };

	setrlimit(RLIMIT_AS, &rl);
#endif
}

START_TEST(test_truncate_everywhere)
{
	/* First: the declarations' initialisers use the matrix index. */
	_i = dk_test_index(_i);
	struct fx_variant vv = variant((size_t)_i);
	const struct fx_variant *v = &vv;
	struct fx_dump f;
	struct dk_dump *d;
	struct dk_err err;
	size_t len;
	uint8_t *img = load_fixture(v, &len, &f);
	char what[128];

	struct dk_open_opts oa = { .arch = v->arch };

	limit_memory();
	damaged_arch = v->arch;
	ck_assert_int_eq(dk_open_mem(img, len, "intact", &oa, &d, &err),
	    DK_OK);
	/* Every header byte, then each section's start, middle, end. */
	for (size_t cut = 0; cut < 160; cut++) {
		snprintf(what, sizeof(what), "%s v%u cut at %zu", v->arch,
		    v->version, cut);
		try_damaged(img, cut, what);
	}
	for (size_t s = 0; s < dk_nsections(d); s++) {
		uint64_t o = dk_section(d, s)->offset;
		uint64_t sp = dk_section(d, s)->space;
		uint64_t cuts[] = { o, o + 1, o + sp / 2, o + sp - 1, o + sp };

		for (size_t k = 0; k < DK_ARRAY_LEN(cuts); k++) {
			if (cuts[k] > len)
				continue;
			snprintf(what, sizeof(what), "%s v%u: %s cut at %#jx",
			    v->arch, v->version, dk_section(d, s)->name,
			    (uintmax_t)cuts[k]);
			try_damaged(img, (size_t)cuts[k], what);
			/* Cut inside a section the header needs: named. */
			if (k < 4 && s > 0 && s + 1 < dk_nsections(d) &&
			    dk_section(d, s)->size > 0) {
				struct dk_dump *d2 = NULL;

				ck_assert_int_eq(dk_open_mem(img,
				    (size_t)cuts[k], "cut", &oa, &d2, &err),
				    DK_ETRUNC);
				ck_assert_msg(strstr(err.msg,
				    dk_section(d, s)->name) != NULL, "%s: '%s'",
				    what, err.msg);
			}
		}
	}
	dk_close(d);
	fx_free(&f);
	free(img);
}
END_TEST

START_TEST(test_size_fields)
{
	/* First: the declarations' initialisers use the matrix index. */
	_i = dk_test_index(_i);
	static const uint64_t values[] = { 0, 1, 0xfff, 0x1000, 0x7fffffff,
	    0x80000000, 0xfffff000, 0xfffff001, 0xffffffff };
	static const unsigned ids[] = { DK_H_MSGBUFSIZE, DK_H_BITMAPSIZE,
	    DK_H_PMAPSIZE, DK_H_DUMPAVAILSIZE, DK_H_VERSION, DK_H_KERNBASE,
	    DK_H_PAEMODE, DK_H_MMUFORMAT, DK_H_FLAGS, DK_H_DMAPBASE,
	    DK_H_DMAPEND };
	struct fx_variant vv = variant((size_t)_i);
	const struct fx_variant *v = &vv;
	struct fx_dump f;
	size_t len;
	uint8_t *img = load_fixture(v, &len, &f);
	const struct dk_layout *l = f.arch->minidump->layout;
	uint8_t *copy = malloc(len);
	char what[128];

	limit_memory();
	damaged_arch = v->arch;
	for (size_t k = 0; k < DK_ARRAY_LEN(ids); k++) {
		const struct dk_field *fl = dk_layout_find(l, ids[k],
		    v->version);

		if (fl == NULL)
			continue;
		for (size_t j = 0; j < DK_ARRAY_LEN(values); j++) {
			memcpy(copy, img, len);
			enc_uint(copy + fl->off, fl->size, f.arch->endian,
			    values[j]);
			snprintf(what, sizeof(what), "%s v%u %s=%#jx", v->arch,
			    v->version, fl->name, (uintmax_t)values[j]);
			try_damaged(copy, len, what);
			/* The value with every high bit set, for u64s. */
			if (fl->size == 8) {
				enc_uint(copy + fl->off, 8, f.arch->endian,
				    ~values[j]);
				try_damaged(copy, len, what);
			}
		}
	}
	/* dump_avail garbage: unterminated, reversed, overlapping. */
	if (dk_layout_find(l, DK_H_DUMPAVAILSIZE, v->version) != NULL) {
		size_t ao = ((size_t)1 << f.page_shift) + (size_t)
		    ((f.g.msgbufsize + ((1u << f.page_shift) - 1)) &
		    ~((1u << f.page_shift) - 1));

		memcpy(copy, img, len);
		memset(copy + ao, 0xff, (size_t)1 << f.page_shift);
		try_damaged(copy, len, "dump_avail all ones");
		memcpy(copy, img, len);
		enc_uint(copy + ao, 8, f.arch->endian, 0x40000000);
		try_damaged(copy, len, "dump_avail start > end");
		memcpy(copy, img, len);
		enc_uint(copy + ao + 8, 8, f.arch->endian, ~0ull);
		try_damaged(copy, len, "dump_avail end at 2^64-1");
	}
	free(copy);
	fx_free(&f);
	free(img);
}
END_TEST

/* A random byte flip in every header byte, a thousand times over. */
START_TEST(test_header_flips)
{
	/* First: the declarations' initialisers use the matrix index. */
	_i = dk_test_index(_i);
	struct fx_variant vv = variant((size_t)_i);
	const struct fx_variant *v = &vv;
	struct fx_dump f;
	size_t len;
	uint8_t *img = load_fixture(v, &len, &f);
	uint8_t *copy = malloc(len);
	uint64_t s = 0x1234567 + (uint64_t)_i;

	limit_memory();
	damaged_arch = v->arch;
	for (int k = 0; k < 400; k++) {
		memcpy(copy, img, len);
		for (int j = 0; j < 3; j++)
			copy[pick(&s, 160)] ^= (uint8_t)(1u << pick(&s, 8));
		try_damaged(copy, len, "flipped header");
	}
	free(copy);
	fx_free(&f);
	free(img);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Larger than 4 GiB.                                                      */

START_TEST(test_large_file)
{
	struct fx_opts o = { .arch = "amd64", .version = 3, .mem = 5ull << 30,
	    .dumped = (4ull << 30) + (300u << 20), .seed = 11,
	    .compact = 1 };
	struct fx_dump f;
	struct dk_dump *d;
	struct dk_err err;
	struct dk_run_iter it = { 0 };
	struct dk_run r, lastrun = { 0, 0, 0 };
	uint8_t got[4096], want[4096];
	char path[512];
	struct stat st;

	setup_tmp();
	snprintf(path, sizeof(path), "%s/big", tmpdir);
	ck_assert_int_eq(fx_build(&o, &f, &err), DK_OK);
	ck_assert_msg(fx_write(&f, path, 0, &err) == DK_OK, "%s", err.msg);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_gt((uint64_t)st.st_size, 4ull << 30);
	ck_assert_int_eq(dk_open(path, NULL, &d, &err), DK_OK);
	while (dk_run_next(d, &it, &r))
		lastrun = r;
	ck_assert_uint_gt(lastrun.offset + lastrun.len, 4ull << 30);
	ck_assert_uint_eq(lastrun.offset + lastrun.len, (uint64_t)st.st_size);
	ck_assert_int_eq(dk_read_pa(d, lastrun.pa + lastrun.len - 4096, got,
	    4096, &err), DK_OK);
	fx_expect(&f, lastrun.pa + lastrun.len - 4096, want, 4096);
	ck_assert_mem_eq(got, want, 4096);
	/* A page whose pattern is not zero, as far from 4 GiB as possible. */
	for (uint64_t pa = lastrun.pa + lastrun.len - 4096; pa > lastrun.pa;
	    pa -= 4096) {
		if (dk_pattern_zero(11, pa))
			continue;
		ck_assert_int_eq(dk_read_pa(d, pa, got, 4096, &err), DK_OK);
		fx_expect(&f, pa, want, 4096);
		ck_assert_mem_eq(got, want, 4096);
		break;
	}
	dk_close(d);
	fx_free(&f);
	rm_tmp(path);
}
END_TEST

static Suite *
minidump_suite(void)
{
	Suite *s = suite_create("minidump");
	TCase *hand = tcase_create("handmade");
	TCase *mat = tcase_create("matrix");
	TCase *cor = tcase_create("corrupt");
	TCase *big = tcase_create("large");
	int n = (int)nvariants();

	tcase_add_test(hand, test_handmade_amd64_v3);
	tcase_add_test(hand, test_handmade_truncated_page);
	tcase_add_test(hand, test_handmade_amd64_1g);
	tcase_add_test(hand, test_handmade_armeb_v2);
	tcase_add_test(hand, test_handmade_arm_v4_tiny);
	tcase_add_test(hand, test_handmade_arm_v4_tiny_portable);
	tcase_add_test(hand, test_handmade_arm_wrong_order);
	tcase_add_test(hand, test_handmade_i386_pae_v1);
	tcase_add_test(hand, test_handmade_i386_v2);
	tcase_add_test(hand, test_handmade_arm64_16k);
	tcase_add_test(hand, test_handmade_arm64_bad_flags);
	tcase_add_test(hand, test_handmade_magic);
	tcase_add_loop_test(mat, test_matrix, 0, dk_test_loop_end(2 * n));
	tcase_add_test(mat, test_deterministic);
	tcase_set_timeout(mat, 300);
	tcase_add_loop_test(cor, test_truncate_everywhere, 0,
	    dk_test_loop_end(n));
	tcase_add_loop_test(cor, test_size_fields, 0, dk_test_loop_end(n));
	tcase_add_loop_test(cor, test_header_flips, 0, dk_test_loop_end(n));
	tcase_set_timeout(cor, 300);
	tcase_add_test(big, test_large_file);
	tcase_set_timeout(big, 600);
	suite_add_tcase(s, hand);
	suite_add_tcase(s, mat);
	suite_add_tcase(s, cor);
	suite_add_tcase(s, big);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(minidump_suite());
	int nfailed;

	srunner_run_all(sr, CK_ENV);
	nfailed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfailed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
