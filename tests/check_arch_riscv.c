/*
 * check_arch_riscv.c -- the riscv minidump family (formats/arch_riscv.c).
 *
 *  - "handmade": dumps assembled here byte by byte from FORMATS.md 1.2
 *    ("riscv": the arm64 v2 layout), 1.3, 1.4 and 2.5, with no help from
 *    the library's layout table or writer: a version 2 dump with
 *    dump_avail, a version 1 dump whose bits count pages from PA 0, the
 *    translation of every kind of L3 entry, the direct map with a
 *    nonzero dmapphys, truncation and damaged header values.
 *  - "writer": the family's pmap_build (the kernel's superpage
 *    expansion, its checks) and the generated fixtures, whose pmap area
 *    is decoded here with the formula of FORMATS.md 2.5.
 */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen.h"
#include "private.h"
#include "img.h"

#define	KB	0xffffffc000000000ull	/* KERNBASE = VM_MIN_KERNEL_ADDRESS */
#define	DMIN	0xffffffd000000000ull	/* DMAP_MIN_ADDRESS */
#define	DMAX	0xfffffff000000000ull	/* DMAP_MAX_ADDRESS */
#define	RAM	0x80000000ull		/* dmapphys: RAM on QEMU virt */
#define	SP	0x200000ull		/* L2_SIZE: a superpage */

/* PTE bits (FORMATS.md 2.5). */
#define	V	0x001ull
#define	R	0x002ull
#define	W	0x004ull
#define	X	0x008ull
#define	A	0x040ull
#define	D	0x080ull
#define	WIRED	0x100ull

/* The PTE of a page at pa: PPN in bits 10..53. */
static uint64_t
pte(uint64_t pa, uint64_t bits)
{
	return (pa >> 12) << 10 | bits;
}

/* ---------------------------------------------------------------------- */
/* An image assembled by hand.                                             */

static uint64_t
get_le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint32_t
get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

/* Open must fail with code, and the message must contain needle. */
static void
open_fails(const uint8_t *p, size_t len, enum dk_status code,
    const char *needle)
{
	struct dk_dump *d = NULL;
	struct dk_err err = { .code = DK_OK };
	enum dk_status st;

	st = dk_open_mem(p, len, "handmade", NULL, &d, &err);
	ck_assert_msg(st == code, "open of %zu bytes: expected %s, got %s "
	    "(%s)", len, dk_status_name(code), dk_status_name(st), err.msg);
	ck_assert_ptr_null(d);
	ck_assert_msg(strstr(err.msg, needle) != NULL, "open of %zu bytes: "
	    "message '%s' lacks '%s'", len, err.msg, needle);
}

static uint64_t
kvtop_ok(struct dk_dump *d, uint64_t va)
{
	struct dk_err err = { .code = DK_OK };
	uint64_t pa = 0;

	ck_assert_msg(dk_kvtop(d, va, &pa, &err) == DK_OK, "kvtop %#jx: %s",
	    (uintmax_t)va, err.msg);
	return pa;
}

/* kvtop must say ENOTMAPPED, with the address and why in the message. */
static void
kvtop_unmapped(struct dk_dump *d, uint64_t va, const char *why)
{
	struct dk_err err = { .code = DK_OK };
	uint64_t pa = 0;
	char hex[24];

	ck_assert_msg(dk_kvtop(d, va, &pa, &err) == DK_ENOTMAPPED, "kvtop "
	    "%#jx: expected ENOTMAPPED, got %#jx (%s)", (uintmax_t)va,
	    (uintmax_t)pa, err.msg);
	snprintf(hex, sizeof(hex), "%#jx", (uintmax_t)va);
	ck_assert_msg(strstr(err.msg, hex) != NULL, "'%s' lacks %s", err.msg,
	    hex);
	ck_assert_msg(strstr(err.msg, "not mapped") != NULL, "'%s'", err.msg);
	if (why != NULL)
		ck_assert_msg(strstr(err.msg, why) != NULL, "'%s' lacks '%s'",
		    err.msg, why);
}

/* The protection the family reads from the entry of va. */
static unsigned
prot_of(struct dk_dump *d, uint64_t va)
{
	struct dk_err err = { .code = DK_OK };
	uint64_t pa;
	unsigned prot = ~0u;

	ck_assert_int_eq(dk_md_riscv.kvtop(d, va, &pa, &prot, &err), DK_OK);
	return prot;
}

/* ---------------------------------------------------------------------- */
/* Version 2.                                                              */

/*
 * Version 2 (FORMATS.md 1.2 "riscv", 1.3, 1.4, 2.5).  Sections:
 *   0x0000 header (sizeof 80)
 *   0x1000 msgbuf, 12 bytes
 *   0x2000 dump_avail [0x80000000, 0x80010000) [0x80200000, 0x80400000):
 *          bits 0-15 and 16-527
 *   0x3000 bitmap, one page: bits 3, 15, 16, 21, 527
 *   0x4000 pmap, two pages: an L3 table for [KB, KB + 2M), then the
 *          expansion of a superpage at PA 0x80200000 for [KB + 2M, KB + 4M)
 *   0x6000 pages: PA 0x80003000 (0x33), 0x8000f000 (0x3f), 0x80200000
 *          (0x50), 0x80205000 (0x55), 0x803ff000 (0x5f)
 */
#define	V2_SIZE		0xb000
#define	L2E		pte(0x80200000, V | R | W | X | A | D)

static void
make_v2(struct img *im)
{
	img_init(im, V2_SIZE);
	put(im, 0, "minidump FreeBSD/riscv\0\0", 24);
	put_le32(im, 24, 2);			/* version */
	put_le32(im, 28, 12);			/* msgbufsize */
	put_le32(im, 32, 4096);			/* bitmapsize */
	put_le32(im, 36, 8192);			/* pmapsize: 1024 PTEs */
	put_le64(im, 40, KB);			/* kernbase */
	put_le64(im, 48, RAM);			/* dmapphys */
	put_le64(im, 56, DMIN);			/* dmapbase */
	put_le64(im, 64, DMAX);			/* dmapend */
	put_le32(im, 72, 4096);			/* dumpavailsize */
	put(im, 0x1000, "riscv panic\n", 12);
	put_le64(im, 0x2000, 0x80000000);
	put_le64(im, 0x2008, 0x80010000);
	put_le64(im, 0x2010, 0x80200000);
	put_le64(im, 0x2018, 0x80400000);
	im->p[0x3000] = 0x08;			/* bit 3: PA 0x80003000 */
	im->p[0x3001] = 0x80;			/* bit 15: PA 0x8000f000 */
	im->p[0x3002] = 0x21;			/* bits 16, 21: 0x80200000, */
						/* 0x80205000 */
	im->p[0x3000 + 527 / 8] = 0x80;		/* bit 527: PA 0x803ff000 */
	/* The L3 table. */
	put_le64(im, 0x4000 + 8 * 0, pte(0x80003000, V | R | W | A | D));
	put_le64(im, 0x4000 + 8 * 1, pte(0x8000f000, V | R | X | A));
	/* Reserved, PBMT and N bits (54..63) set: not part of the PA. */
	put_le64(im, 0x4000 + 8 * 2, 0xffc0000000000000ull |
	    pte(0x8000f000, V | R | W));
	/* V with R = W = X = 0: a pointer to a table, not a leaf. */
	put_le64(im, 0x4000 + 8 * 3, pte(0x80003000, V));
	/* Not valid: V clear, everything else set. */
	put_le64(im, 0x4000 + 8 * 4, pte(0x80003000, R | W | X | A | D));
	/* 5: zero. */
	put_le64(im, 0x4000 + 8 * 6, pte(0x80100000, V | R | W | A | D));
	put_le64(im, 0x4000 + 8 * 7, pte(0x80008000, V | R | A));
	/* PBMT = NC (bit 61) alone, as Svpbmt kernels set it. */
	put_le64(im, 0x4000 + 8 * 8, 1ull << 61 |
	    pte(0x80003000, V | R | W | A | D));
	/* Every bit: PPN all ones gives the highest 56-bit PA. */
	put_le64(im, 0x4000 + 8 * 9, ~0ull);
	/* R = 0, W = 1: reserved by the ISA, accepted as libkvm does. */
	put_le64(im, 0x4000 + 8 * 10, pte(0x80003000, V | W));
	/* The superpage, expanded as the kernel does: l2e | (i << 10). */
	for (uint64_t i = 0; i < 512; i++)
		put_le64(im, 0x5000 + 8 * i, L2E | i << 10);
	memset(im->p + 0x6000, 0x33, 0x1000);
	memset(im->p + 0x7000, 0x3f, 0x1000);
	memset(im->p + 0x8000, 0x50, 0x1000);
	memset(im->p + 0x9000, 0x55, 0x1000);
	memset(im->p + 0xa000, 0x5f, 0x1000);
}

START_TEST(test_v2_info)
{
	static const struct {
		const char	*name;
		uint32_t	 off, size;
		uint64_t	 value;
	} want[] = {
		{ "magic", 0, 24, 0 },
		{ "version", 24, 4, 2 },
		{ "msgbufsize", 28, 4, 12 },
		{ "bitmapsize", 32, 4, 4096 },
		{ "pmapsize", 36, 4, 8192 },
		{ "kernbase", 40, 8, KB },
		{ "dmapphys", 48, 8, RAM },
		{ "dmapbase", 56, 8, DMIN },
		{ "dmapend", 64, 8, DMAX },
		{ "dumpavailsize", 72, 4, 4096 },
		{ "(padding)", 76, 4, 0 },
	};
	static const char *const sect[] = { "header", "msgbuf", "dump_avail",
	    "bitmap", "pmap", "pages" };
	static const uint64_t sect_off[] = { 0, 0x1000, 0x2000, 0x3000,
	    0x4000, 0x6000 };
	static const uint64_t run_pa[] = { 0x80003000, 0x8000f000,
	    0x80200000, 0x80205000, 0x803ff000 };
	struct dk_run_iter it = { 0 };
	const struct dk_info *in;
	struct dk_hfield hf;
	struct dk_dump *d;
	struct dk_err err = { .code = DK_OK };
	struct dk_run run;
	struct img im;
	char msg[16] = { 0 };
	size_t got, i;

	make_v2(&im);
	d = img_open(&im, NULL);
	in = dk_info(d);
	ck_assert_str_eq(in->format, "minidump");
	ck_assert_str_eq(in->arch, "riscv64");
	ck_assert_int_eq(in->arch_by, DK_BY_FORMAT);
	ck_assert_uint_eq(in->version, 2);
	ck_assert_int_eq(in->endian, DK_LE);
	ck_assert_uint_eq(in->page_size, 4096);
	ck_assert_uint_eq(in->kernbase, KB);
	ck_assert_uint_eq(in->kva_end, KB + 2 * SP);
	ck_assert_ptr_nonnull(dk_window_find(d, DK_WIN_DIRECT_MAP));
	ck_assert_uint_eq(dk_window_find(d, DK_WIN_DIRECT_MAP)->va, DMIN);
	ck_assert_uint_eq(dk_window_find(d, DK_WIN_DIRECT_MAP)->end, DMAX);
	ck_assert_uint_eq(dk_window_find(d, DK_WIN_DIRECT_MAP)->pa, RAM);
	ck_assert_uint_eq(in->npages, 5);
	ck_assert_uint_eq(in->npages_present, 5);

	/* The layout table agrees with FORMATS.md, field by field. */
	ck_assert_uint_eq(dk_header_nfields(d), DK_ARRAY_LEN(want));
	for (i = 0; i < DK_ARRAY_LEN(want); i++) {
		ck_assert_int_eq(dk_header_field(d, i, &hf), 0);
		ck_assert_str_eq(hf.name, want[i].name);
		ck_assert_uint_eq(hf.offset, want[i].off);
		ck_assert_uint_eq(hf.size, want[i].size);
		if (i == 0)
			ck_assert_str_eq(hf.str, "minidump FreeBSD/riscv");
		else
			ck_assert_uint_eq(hf.value, want[i].value);
	}
	ck_assert_int_eq(dk_header_field(d, i, &hf), -1);
	ck_assert_uint_eq(dk_section(d, 0)->size, 80);	/* sizeof, v2 */

	ck_assert_uint_eq(dk_nsections(d), DK_ARRAY_LEN(sect));
	for (i = 0; i < DK_ARRAY_LEN(sect); i++) {
		ck_assert_str_eq(dk_section(d, i)->name, sect[i]);
		ck_assert_uint_eq(dk_section(d, i)->offset, sect_off[i]);
	}
	ck_assert_int_eq(dk_read_msgbuf(d, msg, sizeof(msg), &got, &err),
	    DK_OK);
	ck_assert_uint_eq(got, 12);
	ck_assert_str_eq(msg, "riscv panic\n");

	ck_assert_uint_eq(dk_phys_nranges(d), 2);
	ck_assert_uint_eq(dk_phys_range(d, 0).start, 0x80000000);
	ck_assert_uint_eq(dk_phys_range(d, 0).end, 0x80010000);
	ck_assert_uint_eq(dk_phys_range(d, 1).start, 0x80200000);
	ck_assert_uint_eq(dk_phys_range(d, 1).end, 0x80400000);

	/* Runs: one page each, in PA order, at consecutive file pages. */
	for (i = 0; dk_run_next(d, &it, &run); i++) {
		ck_assert_uint_lt(i, DK_ARRAY_LEN(run_pa));
		ck_assert_uint_eq(run.pa, run_pa[i]);
		ck_assert_uint_eq(run.len, 0x1000);
		ck_assert_uint_eq(run.offset, 0x6000 + 0x1000 * i);
	}
	ck_assert_uint_eq(i, DK_ARRAY_LEN(run_pa));

	/* Physical reads: dumped pages, a clear bit, a hole, past RAM. */
	expect_bytes(d, 0, 0x80003000, 0x33, 64);
	expect_bytes(d, 0, 0x8000ffc0, 0x3f, 64);
	expect_bytes(d, 0, 0x803fffc0, 0x5f, 64);
	expect_fail(d, 0, 0x80001000, 8, DK_ENOTDUMPED, "bitmap bit 1");
	expect_fail(d, 0, 0x80100000, 8, DK_ENOTDUMPED,
	    "outside physical memory");
	expect_fail(d, 0, 0x80400000, 8, DK_ENOTDUMPED,
	    "outside physical memory");
	expect_fail(d, 0, 0x8000fff0, 32, DK_ENOTDUMPED, "0x80010000");
	dk_close(d);
	free(im.p);
}
END_TEST

START_TEST(test_v2_translate)
{
	struct dk_dump *d;
	struct img im;

	make_v2(&im);
	d = img_open(&im, NULL);

	/* A plain leaf, read-write. */
	ck_assert_uint_eq(kvtop_ok(d, KB + 0x123), 0x80003123);
	expect_bytes(d, 1, KB + 0xfc0, 0x33, 64);
	ck_assert_uint_eq(prot_of(d, KB), DK_PROT_W);
	/* Read-execute. */
	ck_assert_uint_eq(kvtop_ok(d, KB + 0x1000), 0x8000f000);
	expect_bytes(d, 1, KB + 0x1000, 0x3f, 64);
	ck_assert_uint_eq(prot_of(d, KB + 0x1000), DK_PROT_X);
	/* Bits 54..63 set: masked off, the PA is that of PPN alone. */
	ck_assert_uint_eq(kvtop_ok(d, KB + 0x2abc), 0x8000fabc);
	expect_bytes(d, 1, KB + 0x2000, 0x3f, 64);
	ck_assert_uint_eq(prot_of(d, KB + 0x2000), DK_PROT_W);
	ck_assert_uint_eq(kvtop_ok(d, KB + 0x8010), 0x80003010);
	expect_bytes(d, 1, KB + 0x8000, 0x33, 64);
	/* All 64 bits set: PPN bits 10..53 only, a 56-bit PA. */
	ck_assert_uint_eq(kvtop_ok(d, KB + 0x9fff), 0x00ffffffffffffffull);
	ck_assert_uint_eq(prot_of(d, KB + 0x9000), DK_PROT_W | DK_PROT_X);
	expect_fail(d, 1, KB + 0x9000, 8, DK_ENOTDUMPED,
	    "outside physical memory");
	/* R = 0, W = 1 (reserved encoding): read as libkvm reads it. */
	ck_assert_uint_eq(kvtop_ok(d, KB + 0xa000), 0x80003000);
	expect_bytes(d, 1, KB + 0xa000, 0x33, 16);

	/* Not leaves: V without R/W/X, V clear, zero. */
	kvtop_unmapped(d, KB + 0x3000, "next-level table");
	expect_fail(d, 1, KB + 0x3000, 8, DK_ENOTMAPPED, "0xffffffc000003000");
	kvtop_unmapped(d, KB + 0x4000, "not valid");
	kvtop_unmapped(d, KB + 0x5000, "not valid");
	kvtop_unmapped(d, KB + 0xb000, NULL);
	/* Valid leaves to pages the dump does not hold. */
	ck_assert_uint_eq(kvtop_ok(d, KB + 0x6000), 0x80100000);
	expect_fail(d, 1, KB + 0x6000, 8, DK_ENOTDUMPED,
	    "outside physical memory");
	ck_assert_uint_eq(kvtop_ok(d, KB + 0x7000), 0x80008000);
	expect_fail(d, 1, KB + 0x7000, 8, DK_ENOTDUMPED, "bitmap bit 8");
	/* A read that runs from a mapped page into an unmapped one. */
	expect_fail(d, 1, KB + 0x2ff0, 32, DK_ENOTMAPPED,
	    "0xffffffc000003000");

	/* The superpage: entry i = l2e | (i << 10). */
	ck_assert_uint_eq(kvtop_ok(d, KB + SP), 0x80200000);
	ck_assert_uint_eq(kvtop_ok(d, KB + SP + 0x5123), 0x80205123);
	ck_assert_uint_eq(kvtop_ok(d, KB + 2 * SP - 1), 0x803fffff);
	ck_assert_uint_eq(prot_of(d, KB + SP + 0x5000), DK_PROT_W | DK_PROT_X);
	expect_bytes(d, 1, KB + SP, 0x50, 64);
	expect_bytes(d, 1, KB + SP + 0x5000, 0x55, 64);
	expect_bytes(d, 1, KB + 2 * SP - 64, 0x5f, 64);
	expect_fail(d, 1, KB + SP + 0x6000, 8, DK_ENOTDUMPED, "0x80206000");
	expect_fail(d, 1, KB + SP + 0x5ff0, 32, DK_ENOTDUMPED, "0x80206000");

	/* Outside the L3 array. */
	kvtop_unmapped(d, KB + 2 * SP, "past the end");
	kvtop_unmapped(d, KB - 0x1000, "below kernbase");
	kvtop_unmapped(d, 0, "below kernbase");
	kvtop_unmapped(d, 0xffffffc800000000ull, NULL);

	/* The direct map, with dmapphys 0x80000000. */
	ck_assert_uint_eq(kvtop_ok(d, DMIN), RAM);
	ck_assert_uint_eq(kvtop_ok(d, DMIN + 0x3010), 0x80003010);
	ck_assert_uint_eq(kvtop_ok(d, DMAX - 1), RAM + (DMAX - DMIN) - 1);
	expect_bytes(d, 1, DMIN + 0x3010, 0x33, 32);
	expect_bytes(d, 1, DMIN + 0x205000, 0x55, 64);
	expect_bytes(d, 1, DMIN + 0x3fffc0, 0x5f, 64);
	expect_fail(d, 1, DMIN + 0x1000, 8, DK_ENOTDUMPED, "0x80001000");
	expect_fail(d, 1, DMIN + 0x100000, 8, DK_ENOTDUMPED,
	    "outside physical memory");
	kvtop_unmapped(d, DMAX, NULL);
	kvtop_unmapped(d, DMIN - 1, NULL);
	dk_close(d);
	free(im.p);
}
END_TEST

/* --arch: the row and its alias are obeyed, another family is refused. */
START_TEST(test_v2_arch_option)
{
	struct dk_open_opts o = { .arch = "riscv" };
	struct dk_dump *d = NULL;
	struct dk_err err = { .code = DK_OK };
	struct img im;

	make_v2(&im);
	ck_assert_int_eq(dk_open_mem(im.p, im.len, "handmade", &o, &d, &err),
	    DK_OK);
	ck_assert_str_eq(dk_info(d)->arch, "riscv64");
	ck_assert_int_eq(dk_info(d)->arch_by, DK_BY_OPTION);
	dk_close(d);
	d = NULL;
	o.arch = "aarch64";
	ck_assert_int_eq(dk_open_mem(im.p, im.len, "handmade", &o, &d, &err),
	    DK_EINVAL);
	ck_assert_ptr_null(d);
	ck_assert_ptr_nonnull(strstr(err.msg, "minidump FreeBSD/riscv"));
	free(im.p);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Version 1.                                                              */

/*
 * Version 1 (FORMATS.md 1.2, 1.3, 1.4): sizeof 72, no dump_avail, so bit
 * i is the page at PA i * 4096, counted from PA 0 although RAM starts at
 * 0x80000000.  bitmapsize 0x10080 (bits for PAs below 0x80400000) is
 * rounded up to 0x11000 in the file.
 *   0x00000 header; msgbufsize 0 (no msgbuf pages)
 *   0x01000 bitmap: byte 0x10000 = 0x06, bits 0x80001, 0x80002
 *   0x12000 pmap, one page
 *   0x13000 pages: PA 0x80001000 (0xa1), 0x80002000 (0xa2)
 * Offset 72 holds a stray 4096: dumpavailsize does not exist in
 * version 1, and readers ignore it (FORMATS.md 1.1).
 */
static void
make_v1(struct img *im)
{
	img_init(im, 0x15000);
	put(im, 0, "minidump FreeBSD/riscv\0\0", 24);
	put_le32(im, 24, 1);
	put_le32(im, 28, 0);			/* msgbufsize */
	put_le32(im, 32, 0x10080);		/* bitmapsize */
	put_le32(im, 36, 4096);			/* pmapsize: 512 PTEs */
	put_le64(im, 40, KB);
	put_le64(im, 48, RAM);
	put_le64(im, 56, DMIN);
	put_le64(im, 64, DMAX);
	put_le32(im, 72, 4096);			/* not a field in v1 */
	im->p[0x1000 + 0x80000 / 8] = 0x06;
	put_le64(im, 0x12000 + 8 * 0, pte(0x80002000, V | R | W | A | D));
	put_le64(im, 0x12000 + 8 * 1, pte(0x80001000, V | R | A));
	put_le64(im, 0x12000 + 8 * 2, pte(0x80000000, V | R | A));
	put_le64(im, 0x12000 + 8 * 3, pte(0x1000, V | R | A));
	put_le64(im, 0x12000 + 8 * 4, pte(0x90000000, V | R | A));
	memset(im->p + 0x13000, 0xa1, 0x1000);
	memset(im->p + 0x14000, 0xa2, 0x1000);
}

START_TEST(test_v1)
{
	static const char *const sect[] = { "header", "msgbuf", "bitmap",
	    "pmap", "pages" };
	static const uint64_t sect_off[] = { 0, 0x1000, 0x1000, 0x12000,
	    0x13000 };
	struct dk_run_iter it = { 0 };
	const struct dk_info *in;
	struct dk_hfield hf;
	struct dk_dump *d;
	struct dk_run run;
	struct img im;

	make_v1(&im);
	d = img_open(&im, NULL);
	in = dk_info(d);
	ck_assert_str_eq(in->arch, "riscv64");
	ck_assert_uint_eq(in->version, 1);
	ck_assert_uint_eq(in->npages, 2);
	ck_assert_uint_eq(in->kva_end, KB + SP);
	ck_assert_uint_eq(dk_section(d, 0)->size, 72);	/* sizeof, v1 */
	ck_assert_uint_eq(dk_nsections(d), DK_ARRAY_LEN(sect));
	for (size_t i = 0; i < DK_ARRAY_LEN(sect); i++) {
		ck_assert_str_eq(dk_section(d, i)->name, sect[i]);
		ck_assert_uint_eq(dk_section(d, i)->offset, sect_off[i]);
	}
	/* Nine fields, no dumpavailsize and no padding. */
	ck_assert_uint_eq(dk_header_nfields(d), 9);
	ck_assert_int_eq(dk_header_field(d, 8, &hf), 0);
	ck_assert_str_eq(hf.name, "dmapend");
	ck_assert_uint_eq(hf.offset, 64);
	/* One range of physical memory: every page below the last bit. */
	ck_assert_uint_eq(dk_phys_nranges(d), 1);
	ck_assert_uint_eq(dk_phys_range(d, 0).start, 0);
	ck_assert_uint_eq(dk_phys_range(d, 0).end, 0x80400000);
	ck_assert(dk_run_next(d, &it, &run));
	ck_assert_uint_eq(run.pa, 0x80001000);
	ck_assert_uint_eq(run.len, 0x2000);
	ck_assert_uint_eq(run.offset, 0x13000);
	ck_assert(!dk_run_next(d, &it, &run));

	expect_bytes(d, 0, 0x80001000, 0xa1, 64);
	expect_bytes(d, 0, 0x80002fc0, 0xa2, 64);
	expect_fail(d, 0, 0x80000000, 8, DK_ENOTDUMPED, "bitmap bit 524288");
	expect_fail(d, 0, 0x1000, 8, DK_ENOTDUMPED, "bitmap bit 1");
	expect_fail(d, 0, 0x80400000, 8, DK_ENOTDUMPED,
	    "outside physical memory");

	ck_assert_uint_eq(kvtop_ok(d, KB + 0x10), 0x80002010);
	expect_bytes(d, 1, KB, 0xa2, 64);
	ck_assert_uint_eq(prot_of(d, KB), DK_PROT_W);
	expect_bytes(d, 1, KB + 0x1000, 0xa1, 64);
	ck_assert_uint_eq(prot_of(d, KB + 0x1000), 0);
	/* A read across the two pages, physically in the other order. */
	{
		uint8_t buf[32];
		struct dk_err err;

		ck_assert_int_eq(dk_read_va(d, KB + 0xff0, buf, 32, &err),
		    DK_OK);
		ck_assert_uint_eq(buf[0], 0xa2);
		ck_assert_uint_eq(buf[31], 0xa1);
	}
	expect_fail(d, 1, KB + 0x2000, 8, DK_ENOTDUMPED, "0x80000000");
	expect_fail(d, 1, KB + 0x3000, 8, DK_ENOTDUMPED, "0x1000");
	expect_fail(d, 1, KB + 0x4000, 8, DK_ENOTDUMPED, "0x90000000");
	kvtop_unmapped(d, KB + 0x5000, "not valid");
	kvtop_unmapped(d, KB + SP, "past the end");
	expect_bytes(d, 1, DMIN + 0x1000, 0xa1, 64);
	expect_bytes(d, 1, DMIN + 0x2000, 0xa2, 64);
	dk_close(d);
	free(im.p);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Truncation and damaged headers.                                         */

START_TEST(test_truncated_header)
{
	static const struct {
		size_t		 cut;
		enum dk_status	 code;
		const char	*needle;
	} v2[] = {
		{ 32, DK_ETRUNC, "version 2 header needs 80 bytes" },
		{ 72, DK_ETRUNC, "version 2 header needs 80 bytes" },
		{ 79, DK_ETRUNC, "version 2 header needs 80 bytes" },
		{ 80, DK_ETRUNC, "section msgbuf" },
		{ 0x1000, DK_ETRUNC, "section msgbuf" },
		{ 0x1fff, DK_ETRUNC, "section msgbuf" },
		{ 0x2000, DK_ETRUNC, "section dump_avail" },
		{ 0x2fff, DK_ETRUNC, "section dump_avail" },
		{ 0x3000, DK_ETRUNC, "section bitmap" },
		{ 0x3800, DK_ETRUNC, "section bitmap" },
		{ 0x4000, DK_ETRUNC, "section pmap" },
		{ 0x5fff, DK_ETRUNC, "section pmap" },
	}, v1[] = {
		{ 71, DK_ETRUNC, "version 1 header needs 72 bytes" },
		{ 72, DK_ETRUNC, "section msgbuf" },
		{ 0x1000, DK_ETRUNC, "section bitmap" },
		{ 0x11fff, DK_ETRUNC, "section bitmap" },
		{ 0x12000, DK_ETRUNC, "section pmap" },
		{ 0x12ff8, DK_ETRUNC, "section pmap" },
	};
	struct img im;

	make_v2(&im);
	for (size_t i = 0; i < DK_ARRAY_LEN(v2); i++)
		open_fails(im.p, v2[i].cut, v2[i].code, v2[i].needle);
	/*
	 * Shorter than the longest magic field (32 bytes, powerpc64's): the
	 * open fails and says where, whatever it blames.
	 */
	for (size_t cut = 8; cut < 32; cut++) {
		struct dk_dump *d = NULL;
		struct dk_err err;

		ck_assert_int_ne(dk_open_mem(im.p, cut, "handmade", NULL, &d,
		    &err), DK_OK);
		ck_assert_ptr_null(d);
		ck_assert_msg(strstr(err.msg, "offset") != NULL, "cut %zu: "
		    "'%s'", cut, err.msg);
	}
	free(im.p);
	make_v1(&im);
	for (size_t i = 0; i < DK_ARRAY_LEN(v1); i++)
		open_fails(im.p, v1[i].cut, v1[i].code, v1[i].needle);
	free(im.p);
}
END_TEST

/* Cut inside the pages: the open works, a missing page is ETRUNC. */
START_TEST(test_truncated_pages)
{
	struct dk_dump *d;
	struct img im;

	make_v2(&im);
	im.len = 0x9800;
	d = img_open(&im, NULL);
	ck_assert_uint_eq(dk_info(d)->npages, 5);
	ck_assert_uint_eq(dk_info(d)->npages_present, 3);
	expect_bytes(d, 1, KB + SP, 0x50, 64);
	expect_fail(d, 1, KB + SP + 0x5000, 8, DK_ETRUNC, "past the end");
	expect_fail(d, 0, 0x803ff000, 8, DK_ETRUNC, "0xa000");
	dk_close(d);
	im.len = 0x6000;			/* no pages at all */
	d = img_open(&im, NULL);
	ck_assert_uint_eq(dk_info(d)->npages_present, 0);
	expect_fail(d, 1, KB, 8, DK_ETRUNC, "0x6000");
	dk_close(d);
	free(im.p);
}
END_TEST

START_TEST(test_bad_header)
{
	struct img im;

	make_v2(&im);
	/* dmapend below dmapbase. */
	put_le64(&im, 64, DMIN - 0x1000);
	open_fails(im.p, im.len, DK_ECORRUPT, "offset 64");
	put_le64(&im, 64, DMAX);
	/* dmapphys + the size of the direct map past 2^64. */
	put_le64(&im, 48, 0xffffffff00000000ull);
	open_fails(im.p, im.len, DK_ECORRUPT, "offset 48");
	put_le64(&im, 48, RAM);
	/* pmapsize not a whole number of 8-byte PTEs. */
	put_le32(&im, 36, 8190);
	open_fails(im.p, im.len, DK_ECORRUPT, "offset 36");
	put_le32(&im, 36, 8192);
	/* kernbase + 4 MiB of KVA past 2^64. */
	put_le64(&im, 40, 0xfffffffffff00000ull);
	open_fails(im.p, im.len, DK_ECORRUPT, "offset 40");
	put_le64(&im, 40, KB);
	/* Versions 0 and 3 do not exist. */
	put_le32(&im, 24, 3);
	open_fails(im.p, im.len, DK_EUNSUP, "offset 24");
	put_le32(&im, 24, 0);
	open_fails(im.p, im.len, DK_EUNSUP, "offset 24");
	put_le32(&im, 24, 2);
	/* The magic is compared with its NUL: "riscv64" is no riscv dump. */
	put(&im, 0, "minidump FreeBSD/riscv64", 24);
	open_fails(im.p, im.len, DK_EUNSUP, "offset 0");
	put(&im, 0, "minidump FreeBSD/riscv\0\0", 24);
	/* Intact again: it opens. */
	dk_close(img_open(&im, NULL));
	free(im.p);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* The writer.                                                             */

static struct dk_pmap_build
build_in(const struct dk_hdr *h, const struct dk_map *maps, size_t n,
    uint64_t kva_end)
{
	struct dk_pmap_build b;

	memset(&b, 0, sizeof(b));
	b.arch = dk_arch_by_name("riscv64");
	b.version = 2;
	b.hdr = h;
	b.page_shift = 12;
	b.kva_end = kva_end;
	b.maps = maps;
	b.nmaps = n;
	return b;
}

/* pmap_build must refuse these maps with EINVAL. */
static void
build_refuses(const struct dk_hdr *h, struct dk_map m, uint64_t kva_end,
    const char *needle)
{
	struct dk_pmap_build b = build_in(h, &m, 1, kva_end);
	struct dk_err err = { .code = DK_OK };

	ck_assert_int_eq(dk_md_riscv.pmap_build(&b, &err), DK_EINVAL);
	ck_assert_ptr_null(b.pmap);
	ck_assert_msg(strstr(err.msg, needle) != NULL, "'%s' lacks '%s'",
	    err.msg, needle);
}

START_TEST(test_pmap_build)
{
	const struct dk_map maps[] = {
		{ KB, 0x80200000, 2 * SP, DK_PROT_X, 1 },
		{ KB + 2 * SP + 0x3000, 0x80001000, 0x2000, DK_PROT_W, 0 },
	};
	struct dk_hdr h;
	struct dk_pmap_build b;
	struct dk_err err = { .code = DK_OK };
	struct dk_map m;

	memset(&h, 0, sizeof(h));
	h.v[DK_H_KERNBASE] = KB;
	b = build_in(&h, maps, 2, KB + 2 * SP + 0x5000);
	ck_assert_int_eq(dk_md_riscv.pmap_build(&b, &err), DK_OK);
	/* One page per L2_SIZE started: three. */
	ck_assert_uint_eq(b.pmap_len, 3 * 4096);
	for (uint64_t s = 0; s < 2; s++) {
		uint64_t l2e = get_le64(b.pmap + 4096 * s);

		/* A 2 MiB leaf: PPN[0] zero, R and X, not W. */
		ck_assert_uint_eq(l2e >> 10 & 511, 0);
		ck_assert_uint_eq(l2e, pte(0x80200000 + s * SP,
		    V | R | X | A | WIRED));
		for (uint64_t i = 0; i < 512; i++) {
			uint64_t e = get_le64(b.pmap + 4096 * s + 8 * i);

			ck_assert_uint_eq(e, l2e | i << 10);
			ck_assert_uint_eq((e >> 10 & ((1ull << 44) - 1)) << 12,
			    0x80200000 + s * SP + 4096 * i);
		}
	}
	ck_assert_uint_eq(get_le64(b.pmap + 8192 + 8 * 2), 0);
	ck_assert_uint_eq(get_le64(b.pmap + 8192 + 8 * 3),
	    pte(0x80001000, V | R | W | A | D | WIRED));
	ck_assert_uint_eq(get_le64(b.pmap + 8192 + 8 * 4),
	    pte(0x80002000, V | R | W | A | D | WIRED));
	ck_assert_uint_eq(get_le64(b.pmap + 8192 + 8 * 5), 0);
	free(b.pmap);

	/* An empty kernel map: an empty area. */
	b = build_in(&h, NULL, 0, KB);
	ck_assert_int_eq(dk_md_riscv.pmap_build(&b, &err), DK_OK);
	ck_assert_uint_eq(b.pmap_len, 0);
	free(b.pmap);

	/* Refusals. */
	m = (struct dk_map){ KB + 0x1000, 0x80200000, SP, 0, 1 };
	build_refuses(&h, m, KB + 4 * SP, "0x200000-aligned");
	m = (struct dk_map){ KB, 0x80201000, SP, 0, 1 };
	build_refuses(&h, m, KB + 4 * SP, "0x200000-aligned");
	m = (struct dk_map){ KB, 0x80000000, 0x1800, 0, 0 };
	build_refuses(&h, m, KB + 4 * SP, "0x1000-aligned");
	m = (struct dk_map){ KB - 0x1000, 0x80000000, 0x1000, 0, 0 };
	build_refuses(&h, m, KB + 4 * SP, "KVA");
	m = (struct dk_map){ KB + 4 * SP, 0x80000000, 0x1000, 0, 0 };
	build_refuses(&h, m, KB + 4 * SP, "KVA");
	m = (struct dk_map){ KB, 1ull << 56, 0x1000, 0, 0 };
	build_refuses(&h, m, KB + 4 * SP, "PA [0, 0x100000000000000)");
	m = (struct dk_map){ KB, (1ull << 56) - 0x1000, 0x2000, 0, 0 };
	build_refuses(&h, m, KB + 4 * SP, "PA");
	m = (struct dk_map){ KB, (1ull << 56) - 0x1000, 0x1000, 0, 0 };
	b = build_in(&h, &m, 1, KB + 0x1000);
	ck_assert_int_eq(dk_md_riscv.pmap_build(&b, &err), DK_OK);
	ck_assert_uint_eq(get_le64(b.pmap), (((1ull << 44) - 1) << 10) |
	    V | R | A | WIRED);
	free(b.pmap);
	b = build_in(&h, NULL, 0, KB - 1);
	ck_assert_int_eq(dk_md_riscv.pmap_build(&b, &err), DK_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "below kernbase"));
	/*
	 * 2^20 pages of PTEs (2 TiB of KVA) is 4 GiB: too much for the u32
	 * pmapsize.  The KVA above KERNBASE is only 256 GiB, so the kernel
	 * map starts at 0 here.
	 */
	h.v[DK_H_KERNBASE] = 0;
	b = build_in(&h, NULL, 0, 1ull << 41);
	ck_assert_int_eq(dk_md_riscv.pmap_build(&b, &err), DK_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "32 bits"));
	h.v[DK_H_KERNBASE] = KB;
	b = build_in(&h, NULL, 0, KB);
	b.page_shift = 14;
	ck_assert_int_eq(dk_md_riscv.pmap_build(&b, &err), DK_EINVAL);
}
END_TEST

/*
 * The generated fixtures: their header, read at the offsets of
 * FORMATS.md, has the Sv39 layout's values, and their pmap area,
 * decoded here with the formula of FORMATS.md 2.5, maps every page of
 * the model's kernel map where the model says, superpages as
 * l2e | (i << 10).
 */
static void
check_generated(uint32_t version, int compact)
{
	struct fx_opts o = { .arch = "riscv", .version = version,
	    .mem = 64u << 20, .seed = 17 + version, .compact = compact };
	const char *t = getenv("TMPDIR");
	struct fx_dump f;
	struct dk_err err = { .code = DK_OK };
	char dir[256], path[300];
	struct stat st;
	uint8_t *buf;
	uint64_t off, pmap, npte, nlarge = 0, nsmall = 0;
	int fd;

	snprintf(dir, sizeof(dir), "%s/dkriscv.XXXXXX", t ? t : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/vmcore", dir);
	ck_assert_msg(fx_build(&o, &f, &err) == DK_OK, "%s", err.msg);
	ck_assert_msg(fx_write(&f, path, 0, &err) == DK_OK, "%s", err.msg);
	fd = open(path, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fstat(fd, &st), 0);
	buf = malloc((size_t)st.st_size);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(pread(fd, buf, (size_t)st.st_size, 0), st.st_size);
	close(fd);
	unlink(path);
	rmdir(dir);

	ck_assert_mem_eq(buf, "minidump FreeBSD/riscv\0\0", 24);
	ck_assert_uint_eq(get_le32(buf + 24), version);
	ck_assert_uint_eq(get_le32(buf + 28), 0x18000 - 0x40);
	ck_assert_uint_eq(get_le64(buf + 40), KB);
	ck_assert_uint_eq(get_le64(buf + 48), RAM);
	ck_assert_uint_eq(get_le64(buf + 56), DMIN);
	ck_assert_uint_eq(get_le64(buf + 64), DMAX);
	ck_assert_uint_eq(get_le32(buf + 72), version == 2 ? 4096 : 0);
	ck_assert_uint_eq(get_le32(buf + 76), 0);
	for (size_t i = 80; i < 4096; i++)
		ck_assert_uint_eq(buf[i], 0);
	/* Sections (FORMATS.md 1.3): every size rounded to a page. */
	off = 4096 + ((get_le32(buf + 28) + 4095ull) & ~4095ull);
	off += (get_le32(buf + 72) + 4095ull) & ~4095ull;
	off += (get_le32(buf + 32) + 4095ull) & ~4095ull;
	pmap = off;
	ck_assert_uint_eq(get_le32(buf + 36) % 4096, 0);
	npte = get_le32(buf + 36) / 8;
	ck_assert_uint_le(pmap + 8 * npte, (uint64_t)st.st_size);

	for (size_t k = 0; k < f.nmaps; k++) {
		const struct dk_map *m = &f.maps[k];

		for (uint64_t o2 = 0; o2 < m->len; o2 += 4096) {
			uint64_t i = (m->va + o2 - KB) >> 12, e;

			ck_assert_uint_lt(i, npte);
			e = get_le64(buf + pmap + 8 * i);
			ck_assert_msg((e & V) && (e & (R | W | X)), "va %#jx: "
			    "PTE %#jx", (uintmax_t)(m->va + o2), (uintmax_t)e);
			ck_assert_uint_eq((e >> 10 & ((1ull << 44) - 1)) << 12,
			    m->pa + o2);
			ck_assert_uint_eq(e >> 54, 0);
			if (m->large) {
				uint64_t first = get_le64(buf + pmap + 8 *
				    (i & ~511ull));

				ck_assert_uint_eq(first >> 10 & 511, 0);
				ck_assert_uint_eq(e, first | (i & 511) << 10);
				nlarge++;
			} else {
				ck_assert_uint_eq(!!(e & W),
				    !!(m->prot & DK_PROT_W));
				ck_assert_uint_eq(!!(e & X),
				    !!(m->prot & DK_PROT_X));
				nsmall++;
			}
		}
	}
	/* The kernel image is in superpages, kernel memory in pages. */
	ck_assert_uint_ge(nlarge, 1024);
	ck_assert_uint_ge(nsmall, 64);
	free(buf);
	fx_free(&f);
}

START_TEST(test_generated)
{
	struct fx_variant v;
	int seen = 0;

	check_generated(1, _i);
	check_generated(2, _i);
	/* dumpgen --list has both versions, plain. */
	for (size_t i = 0; fx_variant_at(i, &v); i++)
		if (strcmp(v.arch, "riscv64") == 0) {
			ck_assert_str_eq(v.variant, "-");
			seen |= 1 << v.version;
		}
	ck_assert_int_eq(seen, 6);
}
END_TEST

/* The defaults are those of FreeBSD's Sv39 kernel map (vmparam.h). */
START_TEST(test_gen_defaults)
{
	struct dk_mdgen g;
	struct dk_hdr h;

	memset(&h, 0, sizeof(h));
	dk_md_riscv.gen_defaults(dk_arch_by_name("riscv64"), 2, &g, &h);
	ck_assert_uint_eq(g.kernbase, KB);
	ck_assert_uint_eq(g.dmap_base, DMIN);
	ck_assert_uint_eq(g.dmap_end, DMAX);
	ck_assert_uint_eq(g.phys_base, RAM);
	ck_assert_uint_eq(g.large_size, SP);
	ck_assert_uint_eq(g.pmap_unit, SP);
	ck_assert_uint_ge(g.ktext_va, KB);
	ck_assert_uint_gt(g.kmem_va, g.ktext_va + (64u << 20));
	ck_assert_uint_lt(g.kmem_va, 0xffffffc800000000ull);
	ck_assert_uint_eq(g.phys_max, 1ull << 56);
	ck_assert_uint_eq(g.msgbufsize, 0x18000 - 0x40);
	ck_assert_uint_eq(g.page_shift, 12);
	ck_assert_uint_eq(h.v[DK_H_KERNBASE], KB);
	ck_assert_uint_eq(h.v[DK_H_DMAPPHYS], RAM);
	ck_assert_uint_eq(h.v[DK_H_DMAPBASE], DMIN);
	ck_assert_uint_eq(h.v[DK_H_DMAPEND], DMAX);
}
END_TEST

static Suite *
riscv_suite(void)
{
	Suite *s = suite_create("arch_riscv");
	TCase *hand = tcase_create("handmade");
	TCase *wr = tcase_create("writer");

	tcase_add_test(hand, test_v2_info);
	tcase_add_test(hand, test_v2_translate);
	tcase_add_test(hand, test_v2_arch_option);
	tcase_add_test(hand, test_v1);
	tcase_add_test(hand, test_truncated_header);
	tcase_add_test(hand, test_truncated_pages);
	tcase_add_test(hand, test_bad_header);
	tcase_add_test(wr, test_pmap_build);
	tcase_add_loop_test(wr, test_generated, 0, 2);
	tcase_add_test(wr, test_gen_defaults);
	tcase_set_timeout(wr, 120);
	suite_add_tcase(s, hand);
	suite_add_tcase(s, wr);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(riscv_suite());
	int nfailed;

	srunner_run_all(sr, CK_ENV);
	nfailed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfailed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
