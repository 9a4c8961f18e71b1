/*
 * check_arch_powerpc64.c -- the powerpc64 minidump family
 * (formats/arch_powerpc64.c).
 *
 *  - "handmade": dumps assembled here byte by byte from FORMATS.md 1.2
 *    ("powerpc64"), 1.3, 1.4, 2.7 and 2.8, with no help from the
 *    library's layout table or writer; the VSID, the two hashes and the
 *    PTE words are computed here from the formulas of FORMATS.md 2.7,
 *    written out again.  A big-endian version 2 dump with a hashed page
 *    table (a PTE behind five decoys in its primary group, another in
 *    its secondary group because the primary is full), the direct map,
 *    garbage in the padding at 116..119 and a relocated kernel; a
 *    16 MiB page; little-endian headers with mmu_phyp PTEs in either
 *    byte order and mmu_g5 PTEs big-endian; a radix tree with leaves at
 *    512 GiB, 1 GiB, 2 MiB and 4 KiB; refused headers.
 *  - "writer": the generator's hashed page tables (every kernel PTE
 *    found again with the formulas here; some in secondary groups), its
 *    radix trees, the relocation window against the reader, and the
 *    family's pmap_build called directly.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gen.h"
#include "private.h"
#include "img.h"

/* Addresses of FreeBSD 13+ (sys/powerpc/include/vmparam.h). */
#define	KB	0xc008000000000000ull	/* VM_MIN_KERNEL_ADDRESS */
#define	KE	0xc0080007ffffffffull	/* VM_MAX_SAFE_KERNEL_ADDRESS */
#define	DB	0xc000000000000000ull	/* DMAP_BASE_ADDRESS */
#define	DE	0xc007ffffffffffffull	/* DMAP_MAX_ADDRESS */
#define	LINK	0x100100ull		/* the kernel's link address */

/* FORMATS.md 2.7: PTE bits. */
#define	H_V	0x1ull
#define	H_H	0x2ull
#define	H_L	0x4ull
#define	L_BW	0x2ull			/* PP: read-write */
#define	L_BR	0x3ull			/* PP: read-only */
#define	L_N	0x4ull			/* no-execute */
#define	NPTEG	2048u			/* 256 KiB: the smallest table */

/* FORMATS.md 2.8: radix entry bits. */
#define	R_V	(1ull << 63)
#define	R_L	(1ull << 62)

enum order { BE, LE };

/* ---------------------------------------------------------------------- */
/* An image assembled by hand.                                             */

static void
put32(struct img *im, size_t off, uint32_t v, enum order o)
{
	uint8_t b[4];

	for (int i = 0; i < 4; i++)
		b[o == BE ? 3 - i : i] = (uint8_t)(v >> (8 * i));
	put(im, off, b, 4);
}

static void
put64(struct img *im, size_t off, uint64_t v, enum order o)
{
	uint8_t b[8];

	for (int i = 0; i < 8; i++)
		b[o == BE ? 7 - i : i] = (uint8_t)(v >> (8 * i));
	put(im, off, b, 8);
}

static uint64_t
get64(const uint8_t *p, enum order o)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v |= (uint64_t)p[o == BE ? 7 - i : i] << (8 * i);
	return v;
}

/*
 * Bit n of a bitmap of 8-byte words (FORMATS.md 1.4): little-endian,
 * byte n / 8; big-endian, byte 8 * (n / 64) + 7 - (n % 64) / 8.
 */
static void
set_bit(struct img *im, size_t off, uint64_t n, enum order o)
{
	size_t byte = o == LE ? n / 8 : 8 * (n / 64) + 7 - (n % 64) / 8;

	ck_assert_uint_lt(off + byte, im->len);
	im->p[off + byte] |= (uint8_t)(1u << (n % 8));
}

/*
 * The header of FORMATS.md 1.2 "powerpc64" (offsets written out here):
 * magic@0 char[32], mmu_name@32 char[32], version@64, msgbufsize@68,
 * bitmapsize@72, pmapsize@76, kernbase@80, kernend@88, dmapbase@96,
 * dmapend@104, hw_direct_map@112 (int), padding 116..119,
 * startkernel@120, endkernel@128, dumpavailsize@136 (v2).
 */
struct hdr {
	const char	*mmu;
	uint32_t	 version, msgbufsize, bitmapsize, pmapsize;
	uint64_t	 kernbase, kernend, dmapbase, dmapend;
	int32_t		 hw_direct_map;
	uint64_t	 startkernel, endkernel;
	uint32_t	 dumpavailsize;
};

static void
put_hdr(struct img *im, const struct hdr *h, enum order o)
{
	put(im, 0, "minidump FreeBSD/powerpc64", 26);	/* NULs follow */
	put(im, 32, h->mmu, strlen(h->mmu));
	put32(im, 64, h->version, o);
	put32(im, 68, h->msgbufsize, o);
	put32(im, 72, h->bitmapsize, o);
	put32(im, 76, h->pmapsize, o);
	put64(im, 80, h->kernbase, o);
	put64(im, 88, h->kernend, o);
	put64(im, 96, h->dmapbase, o);
	put64(im, 104, h->dmapend, o);
	put32(im, 112, (uint32_t)h->hw_direct_map, o);
	put64(im, 120, h->startkernel, o);
	put64(im, 128, h->endkernel, o);
	if (h->version == 2)
		put32(im, 136, h->dumpavailsize, o);
}

/* ---------------------------------------------------------------------- */
/* FORMATS.md 2.7, written out again.                                      */

static uint64_t
t_vsid(uint64_t va)
{
	uint64_t esid = va >> 28;
	uint64_t x = ((esid << 8) | (esid >> 28)) * 0x13bb;

	return (x & ((1ull << 36) - 1)) | (1ull << 36);
}

/* Primary (hid 0) or secondary (hid 1) PTEG of va, base page shift b. */
static uint64_t
t_pteg(uint64_t va, unsigned b, int hid, uint64_t npteg)
{
	uint64_t page = (va & 0x0fffffff) >> b;
	uint64_t h = (t_vsid(va) & 0x7fffffffff) ^ page;

	if (hid)
		h = ~h & 0x7fffffffff;
	return h & (npteg - 1);
}

/* pte_hi of va: VSID in bits 12..61, the AVA page bits at 7..11. */
static uint64_t
t_pte_hi(uint64_t va, unsigned b, int hid)
{
	uint64_t page = (va & 0x0fffffff) >> b;
	uint64_t ava = b == 12 ? page >> 11 : page << 1;

	return t_vsid(va) << 12 | ava << 7 | H_V | (hid ? H_H : 0) |
	    (b == 24 ? H_L : 0);
}

static void
put_pte(struct img *im, size_t pmap, uint64_t pteg, unsigned slot,
    uint64_t hi, uint64_t lo, enum order o)
{
	size_t off = pmap + (size_t)pteg * 128 + slot * 16;

	put64(im, off, hi, o);
	put64(im, off + 8, lo, o);
}

/*
 * Find va's 4 KiB PTE in a table of npteg groups stored in byte order o:
 * 0 in the primary group, 1 in the secondary one, -1 if absent; *lo is
 * its pte_lo.  The software bits 0x18 (wired, locked) are not compared.
 */
static int
find_pte(const uint8_t *t, uint64_t npteg, uint64_t va, enum order o,
    uint64_t *lo)
{
	for (int hid = 0; hid < 2; hid++) {
		const uint8_t *g = t + 128 * t_pteg(va, 12, hid, npteg);

		for (int s = 0; s < 8; s++)
			if ((get64(g + 16 * s, o) & ~0x18ull) ==
			    t_pte_hi(va, 12, hid)) {
				*lo = get64(g + 16 * s + 8, o);
				return hid;
			}
	}
	return -1;
}

/* ---------------------------------------------------------------------- */
/* Reading helpers.                                                        */

static void
open_fails(const struct img *im, const char *arch, enum dk_status code,
    const char *needle, const char *needle2)
{
	struct dk_open_opts o = { .arch = arch };
	struct dk_dump *d = NULL;
	struct dk_err err;
	enum dk_status st;

	st = dk_open_mem(im->p, im->len, "handmade", &o, &d, &err);
	ck_assert_msg(st == code, "open: expected %s, got %s (%s)",
	    dk_status_name(code), dk_status_name(st), err.msg);
	ck_assert_ptr_null(d);
	ck_assert_msg(strstr(err.msg, needle) != NULL || (needle2 != NULL &&
	    strstr(err.msg, needle2) != NULL), "message '%s' lacks '%s'",
	    err.msg, needle);
}

static uint64_t
kvtop_ok(struct dk_dump *d, uint64_t va)
{
	struct dk_err err;
	uint64_t pa = 0;

	ck_assert_msg(dk_kvtop(d, va, &pa, &err) == DK_OK, "kvtop %#jx: %s",
	    (uintmax_t)va, err.msg);
	return pa;
}

static void
kvtop_fails(struct dk_dump *d, uint64_t va, enum dk_status code,
    const char *needle)
{
	struct dk_err err;
	uint64_t pa = 0;
	enum dk_status st = dk_kvtop(d, va, &pa, &err);
	char addr[32];

	ck_assert_msg(st == code, "kvtop %#jx: expected %s, got %s %#jx (%s)",
	    (uintmax_t)va, dk_status_name(code), dk_status_name(st),
	    (uintmax_t)pa, err.msg);
	snprintf(addr, sizeof(addr), "%#jx", (uintmax_t)va);
	ck_assert_msg(strstr(err.msg, addr) != NULL, "message '%s' lacks the "
	    "address %s", err.msg, addr);
	if (needle != NULL)
		ck_assert_msg(strstr(err.msg, needle) != NULL, "message '%s' "
		    "lacks '%s'", err.msg, needle);
}

static void
read_fails(struct dk_dump *d, uint64_t va, enum dk_status code)
{
	uint8_t buf[16];
	struct dk_err err;
	enum dk_status st = dk_read_va(d, va, buf, sizeof(buf), &err);

	ck_assert_msg(st == code, "read va %#jx: expected %s, got %s (%s)",
	    (uintmax_t)va, dk_status_name(code), dk_status_name(st), err.msg);
}

/* ---------------------------------------------------------------------- */
/* Big-endian version 2, mmu_g5.                                           */

/*
 * Layout (FORMATS.md 1.3): header 0, msgbuf 0x1000 ("ppc64"),
 * dump_avail 0x2000 ([0, 8 MiB)), bitmap 0x3000, pmap 0x4000 (256 KiB:
 * 2048 PTEGs), pages 0x44000: PA 0x10000 (0xa1), 0x11000 (0xb2),
 * 0x20000 (0xd4), 0x400000 (0xc3).  The kernel runs at PA 0x400000:
 * startkernel = dmapbase + 0x400100.
 */
#define	PMAP	0x4000u
#define	PAGES	0x44000u
#define	SK	(DB + 0x400100ull)
#define	VA_A	(KB + 0x5000ull)	/* page 5 of the first segment */
#define	VA_B	(KB + ((6ull + 8 * 2048) << 12))	/* page 16390 */
#define	VA_C	(KB + 0x7000ull)	/* in a segment, no PTE */

static void
make_hpt_be(struct img *im)
{
	struct hdr h = { "mmu_g5", 2, 5, 4096, NPTEG * 128, KB, KE, DB, DE,
	    1, SK, SK + 0x1000000, 4096 };
	uint64_t g, hi;

	img_init(im, PAGES + 4 * 0x1000);
	put_hdr(im, &h, BE);
	put(im, 116, "\xde\xad\xbe\xef", 4);	/* padding: never read */
	put(im, 0x1000, "ppc64", 5);
	put64(im, 0x2000, 0, BE);
	put64(im, 0x2008, 0x800000, BE);
	set_bit(im, 0x3000, 0x10, BE);
	set_bit(im, 0x3000, 0x11, BE);
	set_bit(im, 0x3000, 0x20, BE);
	set_bit(im, 0x3000, 0x400, BE);

	/*
	 * VA_A: its primary group holds five decoys first, each mapping
	 * PA 0x666000: the secondary bit set, not valid, L set, B = 1 TiB
	 * segment, another VSID; then its PTE in slot 5.
	 */
	g = t_pteg(VA_A, 12, 0, NPTEG);
	hi = t_pte_hi(VA_A, 12, 0);
	put_pte(im, PMAP, g, 0, hi | H_H, 0x666000 | L_BW, BE);
	put_pte(im, PMAP, g, 1, hi & ~H_V, 0x666000 | L_BW, BE);
	put_pte(im, PMAP, g, 2, hi | H_L, 0x666000 | L_BW, BE);
	put_pte(im, PMAP, g, 3, hi | 1ull << 62, 0x666000 | L_BW, BE);
	put_pte(im, PMAP, g, 4, hi ^ 1ull << 12, 0x666000 | L_BW, BE);
	put_pte(im, PMAP, g, 5, hi, 0x10000 | 0x190 | L_BR | L_N, BE);

	/*
	 * VA_B: the pages 6 + 2048 k (k = 0..7) of the segment share its
	 * primary group (same low 11 page bits) and differ in the AVA's
	 * page bits (k): they fill it, so VA_B's PTE is in the secondary
	 * group, with H set.
	 */
	g = t_pteg(VA_B, 12, 0, NPTEG);
	for (unsigned k = 0; k < 8; k++) {
		uint64_t va = KB + ((6ull + 2048 * k) << 12);

		ck_assert_uint_eq(t_pteg(va, 12, 0, NPTEG), g);
		put_pte(im, PMAP, g, k, t_pte_hi(va, 12, 0),
		    (0x700000 + 0x1000 * k) | L_BW, BE);
	}
	ck_assert_uint_ne(t_pteg(VA_B, 12, 1, NPTEG), g);
	put_pte(im, PMAP, t_pteg(VA_B, 12, 1, NPTEG), 2,
	    t_pte_hi(VA_B, 12, 1), 0x11000 | L_BW, BE);

	memset(im->p + PAGES, 0xa1, 0x1000);		/* PA 0x10000 */
	memset(im->p + PAGES + 0x1000, 0xb2, 0x1000);	/* PA 0x11000 */
	memset(im->p + PAGES + 0x2000, 0xd4, 0x1000);	/* PA 0x20000 */
	memset(im->p + PAGES + 0x3000, 0xc3, 0x1000);	/* PA 0x400000 */
}

START_TEST(test_hpt_be_v2)
{
	const struct dk_info *in;
	struct dk_hfield hf;
	struct dk_dump *d;
	struct dk_err err;
	struct img im;
	char msg[8] = { 0 };
	size_t got;
	uint64_t pa;

	make_hpt_be(&im);
	d = img_open(&im, NULL);
	in = dk_info(d);
	ck_assert_str_eq(in->arch, "powerpc64");
	ck_assert_int_eq(in->arch_by, DK_BY_HEADER);
	ck_assert_int_eq(in->endian, DK_BE);
	ck_assert_uint_eq(in->version, 2);
	ck_assert_uint_eq(in->page_size, 4096);
	ck_assert_uint_eq(in->kernbase, KB);
	ck_assert_ptr_nonnull(dk_window_find(d, DK_WIN_DIRECT_MAP));
	ck_assert_uint_eq(dk_window_find(d, DK_WIN_DIRECT_MAP)->va, DB);
	ck_assert_uint_eq(dk_window_find(d, DK_WIN_DIRECT_MAP)->end, DE + 1);
	ck_assert_uint_eq(dk_window_find(d, DK_WIN_DIRECT_MAP)->pa, 0);
	ck_assert_uint_eq(in->kva_end, 0xc008000800000000ull);
	ck_assert_uint_eq(in->npages, 4);
	ck_assert_str_eq(dk_section(d, 4)->name, "pmap");
	ck_assert_uint_eq(dk_section(d, 4)->offset, PMAP);
	ck_assert_uint_eq(dk_section(d, 5)->offset, PAGES);
	ck_assert_int_eq(dk_read_msgbuf(d, msg, sizeof(msg), &got, &err),
	    DK_OK);
	ck_assert_str_eq(msg, "ppc64");
	/* The padding at 116 is not read: startkernel is at 120. */
	for (size_t i = 0; dk_header_field(d, i, &hf) == 0; i++) {
		if (strcmp(hf.name, "hw_direct_map") == 0)
			ck_assert_uint_eq(hf.value, 1);
		if (strcmp(hf.name, "startkernel") == 0) {
			ck_assert_uint_eq(hf.offset, 120);
			ck_assert_uint_eq(hf.value, SK);
		}
		if (strcmp(hf.name, "mmu_name") == 0)
			ck_assert_str_eq(hf.str, "mmu_g5");
	}

	/* A primary slot behind five decoys; a secondary slot. */
	ck_assert_uint_eq(kvtop_ok(d, VA_A + 0x123), 0x10123);
	expect_bytes(d, 1, VA_A, 0xa1, 64);
	ck_assert_uint_eq(kvtop_ok(d, VA_B + 0xfff), 0x11fff);
	expect_bytes(d, 1, VA_B + 0xfc0, 0xb2, 64);
	for (unsigned k = 0; k < 8; k++) {
		uint64_t va = KB + ((6ull + 2048 * k) << 12);

		ck_assert_uint_eq(kvtop_ok(d, va + 8), 0x700008 + 0x1000 * k);
		read_fails(d, va, DK_ENOTDUMPED);
	}
	/* Not mapped, with the address in the message. */
	kvtop_fails(d, VA_C, DK_ENOTMAPPED, "not mapped");
	read_fails(d, VA_C, DK_ENOTMAPPED);
	kvtop_fails(d, VA_A - 0x1000, DK_ENOTMAPPED, "PTEG");
	kvtop_fails(d, 0xc008000800000000ull, DK_ENOTMAPPED, "segment");
	kvtop_fails(d, 0xd000000000000000ull, DK_ENOTMAPPED, NULL);

	/* The direct map: pa = va - dmapbase, dmapend inclusive. */
	ck_assert_uint_eq(kvtop_ok(d, DB + 0x20010), 0x20010);
	expect_bytes(d, 1, DB + 0x20000, 0xd4, 64);
	read_fails(d, DB + 0x21000, DK_ENOTDUMPED);
	ck_assert_uint_eq(kvtop_ok(d, DE), DE - DB);
	ck_assert_uint_eq(kvtop_ok(d, DB), 0);

	/*
	 * Relocation: a link-time address moves by startkernel - 0x100100
	 * into the direct map, where the kernel runs at PA 0x400000.
	 */
	ck_assert_uint_eq(kvtop_ok(d, LINK), 0x400100);
	ck_assert_uint_eq(kvtop_ok(d, 0x100000), 0x400000);
	expect_bytes(d, 1, LINK + 0x10, 0xc3, 64);
	/* Every address below dmapbase moves, as in libkvm: an alias. */
	ck_assert_uint_eq(kvtop_ok(d, VA_A - (SK - LINK)), 0x10000);
	/* Wrapping past 2^64 lands below kernbase: not mapped. */
	kvtop_fails(d, 0x3ffffffffff00000ull, DK_ENOTMAPPED, "relocated to "
	    "0x200000");
	ck_assert_int_eq(dk_kvtop(d, 0x3ffffffffff00000ull, &pa, &err),
	    DK_ENOTMAPPED);
	dk_close(d);

	/* The version field's byte order decides; forcing the other fails. */
	open_fails(&im, "powerpc64le", DK_EUNSUP, "offset 64", "offset 0x40");
	d = img_open(&im, "ppc64");
	ck_assert_int_eq(dk_info(d)->arch_by, DK_BY_OPTION);
	dk_close(d);
	free(im.p);
}
END_TEST

/* Without the padding's garbage, the same dump reads the same. */
START_TEST(test_hpt_padding_ignored)
{
	struct dk_dump *d;
	struct img im;

	make_hpt_be(&im);
	memset(im.p + 116, 0, 4);
	d = img_open(&im, NULL);
	ck_assert_uint_eq(kvtop_ok(d, VA_B), 0x11000);
	ck_assert_uint_eq(kvtop_ok(d, LINK), 0x400100);
	dk_close(d);
	memset(im.p + 116, 0xff, 4);
	d = img_open(&im, NULL);
	ck_assert_uint_eq(kvtop_ok(d, VA_A), 0x10000);
	dk_close(d);
	free(im.p);
}
END_TEST

/* A PTE whose group says secondary but whose H bit is clear is no match. */
START_TEST(test_hpt_secondary_needs_h)
{
	struct dk_dump *d;
	struct img im;

	make_hpt_be(&im);
	put_pte(&im, PMAP, t_pteg(VA_B, 12, 1, NPTEG), 2,
	    t_pte_hi(VA_B, 12, 0), 0x11000 | L_BW, BE);
	d = img_open(&im, NULL);
	kvtop_fails(d, VA_B, DK_ENOTMAPPED, "secondary");
	dk_close(d);
	free(im.p);
}
END_TEST

/*
 * A 16 MiB page (FORMATS.md 2.7).  16 MiB base pages are those of the
 * direct map's segments with hw_direct_map set, and the hashed page
 * table is searched only at or above kernbase outside [dmapbase,
 * dmapend]: here the direct map ends 128 MiB into its first segment and
 * the kernel's segment lies below it (kernbase 0x8000000000000000;
 * startkernel = 0x100100, so nothing moves), and 0xc000000009123456 is
 * past dmapend in a direct-map segment.  Its page is 9 of the segment,
 * its PTE maps PA 0x2000000: pa = 0x2123456.
 */
static void
make_large(struct img *im, int32_t hdm, int ava_low_bit)
{
	struct hdr h = { "mmu_g5", 2, 0, 4096, NPTEG * 128,
	    0x8000000000000000ull, 0x800000000fffffffull, DB,
	    DB + 0x7ffffff, hdm, LINK, LINK + 0x1000000, 4096 };
	const uint64_t va = DB + 0x9123456;
	uint64_t g = t_pteg(va, 24, 0, NPTEG);

	img_init(im, 0x44000);
	put_hdr(im, &h, BE);
	put64(im, 0x1000, 0, BE);		/* dump_avail [0, 64 MiB) */
	put64(im, 0x1008, 0x4000000, BE);
	set_bit(im, 0x2000, 0x2123, BE);
	/* A 4 KiB PTE with the same words but L clear comes first. */
	put_pte(im, 0x3000, g, 0, t_pte_hi(va, 24, 0) & ~H_L,
	    0x5000000 | L_BW, BE);
	put_pte(im, 0x3000, g, 1, t_pte_hi(va, 24, 0) |
	    (ava_low_bit ? 1ull << 7 : 0), 0x2000000 | L_BW, BE);
	memset(im->p + 0x43000, 0x16, 0x1000);	/* PA 0x2123000 */
}

START_TEST(test_hpt_large_page)
{
	struct dk_dump *d;
	struct img im;

	make_large(&im, 1, 0);
	d = img_open(&im, NULL);
	ck_assert_uint_eq(kvtop_ok(d, DB + 0x9123456), 0x2123456);
	ck_assert_uint_eq(kvtop_ok(d, DB + 0x9000000), 0x2000000);
	ck_assert_uint_eq(kvtop_ok(d, DB + 0x9ffffff), 0x2ffffff);
	expect_bytes(d, 1, DB + 0x9123000, 0x16, 64);
	read_fails(d, DB + 0x9124000, DK_ENOTDUMPED);
	kvtop_fails(d, DB + 0xa000000, DK_ENOTMAPPED, NULL);
	/* In the direct map: arithmetic, not the table. */
	ck_assert_uint_eq(kvtop_ok(d, DB + 0x7ffffff), 0x7ffffff);
	/* Past the direct map's only segment: no segment. */
	kvtop_fails(d, DB + 0x10000000, DK_ENOTMAPPED, "segment");
	dk_close(d);
	free(im.p);

	/* The AVA's lowest bit is not compared for 16 MiB pages. */
	make_large(&im, 1, 1);
	d = img_open(&im, NULL);
	ck_assert_uint_eq(kvtop_ok(d, DB + 0x9123456), 0x2123456);
	dk_close(d);
	free(im.p);

	/* hw_direct_map 0: 4 KiB base pages there, so no match. */
	make_large(&im, 0, 0);
	d = img_open(&im, NULL);
	kvtop_fails(d, DB + 0x9123456, DK_ENOTMAPPED, "PTEG");
	dk_close(d);
	free(im.p);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Little-endian headers.                                                  */

/*
 * powerpc64le version 1 (FreeBSD 12 addresses): no dump_avail, so bit i
 * is page i (FORMATS.md 1.4); bitmapsize 8; sections: header, bitmap
 * 0x1000, pmap 0x2000, pages 0x42000 (PA 0x3000, 0x3c).  The PTE of
 * 0xe000000000003000 is stored in byte order pte_order.
 */
static void
make_le_v1(struct img *im, const char *mmu, enum order pte_order)
{
	const uint64_t kb = 0xe000000000000000ull, va = kb + 0x3000;
	struct hdr h = { mmu, 1, 0, 8, NPTEG * 128, kb, 0xe0000007ffffffffull,
	    DB, 0xcfffffffffffffffull, 1, DB + LINK, DB + LINK + 0x1000000,
	    0 };

	img_init(im, 0x43000);
	put_hdr(im, &h, LE);
	set_bit(im, 0x1000, 3, LE);
	ck_assert_uint_eq(im->p[0x1000], 0x08);
	put_pte(im, 0x2000, t_pteg(va, 12, 0, NPTEG), 0, t_pte_hi(va, 12, 0),
	    0x3000 | L_BW, pte_order);
	memset(im->p + 0x42000, 0x3c, 0x1000);
}

START_TEST(test_le_v1_phyp)
{
	const struct dk_info *in;
	struct dk_dump *d;
	struct img im;

	/* mmu_phyp: H_READ results stored natively, little-endian here. */
	make_le_v1(&im, "mmu_phyp", LE);
	d = img_open(&im, NULL);
	in = dk_info(d);
	ck_assert_str_eq(in->arch, "powerpc64le");
	ck_assert_int_eq(in->arch_by, DK_BY_HEADER);
	ck_assert_ptr_nonnull(strstr(in->arch_why, "little"));
	ck_assert_int_eq(in->endian, DK_LE);
	ck_assert_uint_eq(in->version, 1);
	ck_assert_uint_eq(in->npages, 1);
	ck_assert_str_eq(dk_section(d, 2)->name, "bitmap");
	ck_assert_uint_eq(dk_section(d, 2)->offset, 0x1000);
	ck_assert_uint_eq(dk_section(d, 3)->offset, 0x2000);
	ck_assert_uint_eq(dk_window_find(d, DK_WIN_DIRECT_MAP)->end,
	    0xd000000000000000ull);
	ck_assert_uint_eq(kvtop_ok(d, 0xe000000000003abcull), 0x3abc);
	expect_bytes(d, 1, 0xe000000000003000ull, 0x3c, 64);
	expect_bytes(d, 1, DB + 0x3000, 0x3c, 64);
	expect_bytes(d, 1, 0x3000, 0x3c, 64);	/* link-time: PA = VA */
	/* Between the direct map and kernbase. */
	kvtop_fails(d, 0xd000000000000000ull, DK_ENOTMAPPED, "kernbase");
	dk_close(d);
	open_fails(&im, "powerpc64", DK_EUNSUP, "offset 64", "offset 0x40");
	free(im.p);

	/* The same PTE stored big-endian is not found. */
	make_le_v1(&im, "mmu_phyp", BE);
	d = img_open(&im, NULL);
	kvtop_fails(d, 0xe000000000003000ull, DK_ENOTMAPPED, NULL);
	dk_close(d);
	free(im.p);
}
END_TEST

START_TEST(test_le_v1_g5)
{
	struct dk_dump *d;
	struct img im;

	/* mmu_g5: the hardware table, big-endian under a LE header. */
	make_le_v1(&im, "mmu_g5", BE);
	d = img_open(&im, NULL);
	ck_assert_str_eq(dk_info(d)->arch, "powerpc64le");
	ck_assert_uint_eq(kvtop_ok(d, 0xe000000000003008ull), 0x3008);
	expect_bytes(d, 1, 0xe000000000003000ull, 0x3c, 64);
	dk_close(d);
	free(im.p);

	make_le_v1(&im, "mmu_g5", LE);
	d = img_open(&im, NULL);
	kvtop_fails(d, 0xe000000000003000ull, DK_ENOTMAPPED, NULL);
	dk_close(d);
	free(im.p);
}
END_TEST

/*
 * The version field decides the row: 1 or 2 read in one byte order only.
 * 0 and 3 are versions in neither.  Big-endian 2 under little-endian
 * fields picks powerpc64, whose reading of the other fields then fails
 * (hw_direct_map 1 read big-endian is 0x01000000).
 */
START_TEST(test_version_field)
{
	struct img im;

	make_le_v1(&im, "mmu_phyp", LE);
	put32(&im, 64, 3, LE);
	open_fails(&im, NULL, DK_EUNSUP, "offset 64", "offset 0x40");
	put32(&im, 64, 0, LE);
	open_fails(&im, NULL, DK_EUNSUP, "offset 64", "offset 0x40");
	put32(&im, 64, 1, BE);
	open_fails(&im, NULL, DK_ECORRUPT, "offset 112", NULL);
	open_fails(&im, "powerpc64le", DK_EUNSUP, "offset 64", "offset 0x40");
	free(im.p);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Radix.                                                                  */

/*
 * powerpc64le version 2, mmu_radix (FORMATS.md 2.8): header LE, entries
 * big-endian.  dump_avail [0, 2 GiB): bitmapsize 0x10000.  Sections:
 * dump_avail 0x1000, bitmap 0x2000, pmap (root) 0x12000, pages 0x22000.
 * Tables at PA 0x1000 (level 2), 0x2000 (level 3), 0x3000 (level 4).
 *   root[4096] -> 0x1000        root[4097] = 512 GiB leaf at PA 0
 *   L2[0] -> 0x2000   L2[1] = 1 GiB leaf at 0x40000000
 *   L2[2] -> 0x7000 (a table page not in the dump)
 *   L3[0] -> 0x3000   L3[1] = 2 MiB leaf at 0x600000
 *   L4[5] = 4 KiB leaf at 0x5000, L4[6] invalid, L4[7] valid, no leaf
 * Dumped: 0x1000, 0x2000, 0x3000, 0x5000 (0x55), 0x603000 (0x66),
 * 0x40007000 (0x77).
 */
#define	RPMAP	0x12000u
#define	RPAGES	0x22000u

static void
make_radix(struct img *im)
{
	struct hdr h = { "mmu_radix", 2, 0, 0x10000, 65536, KB, KE, DB, DE,
	    1, DB + LINK, DB + LINK + 0x1000000, 4096 };
	static const uint64_t pas[] = { 0x1000, 0x2000, 0x3000, 0x5000,
	    0x603000, 0x40007000 };
	const uint64_t leaf = R_V | R_L | 0x100 | 0x80 | 0x8 | 0x4 | 0x2;

	img_init(im, RPAGES + 6 * 0x1000);
	put_hdr(im, &h, LE);
	put64(im, 0x1000, 0, LE);
	put64(im, 0x1008, 0x80000000ull, LE);
	for (size_t i = 0; i < 6; i++)
		set_bit(im, 0x2000, pas[i] >> 12, LE);
	ck_assert_uint_eq((KB >> 39) & 8191, 4096);
	put64(im, RPMAP + 8 * 4096, R_V | 0x1000 | 9, BE);
	put64(im, RPMAP + 8 * 4097, leaf | 0x1 | 0, BE);
	put64(im, RPAGES + 0x0000 + 8 * 0, R_V | 0x2000 | 9, BE);
	put64(im, RPAGES + 0x0000 + 8 * 1, leaf | 0x40000000, BE);
	put64(im, RPAGES + 0x0000 + 8 * 2, R_V | 0x7000 | 9, BE);
	put64(im, RPAGES + 0x1000 + 8 * 0, R_V | 0x3000 | 9, BE);
	put64(im, RPAGES + 0x1000 + 8 * 1, leaf | 0x600000, BE);
	put64(im, RPAGES + 0x2000 + 8 * 5, leaf | 0x5000, BE);
	put64(im, RPAGES + 0x2000 + 8 * 6, 0x5000 | 0x6, BE);
	put64(im, RPAGES + 0x2000 + 8 * 7, R_V | 0x5000, BE);
	memset(im->p + RPAGES + 0x3000, 0x55, 0x1000);
	memset(im->p + RPAGES + 0x4000, 0x66, 0x1000);
	memset(im->p + RPAGES + 0x5000, 0x77, 0x1000);
}

START_TEST(test_radix)
{
	const struct dk_info *in;
	struct dk_dump *d;
	struct img im;

	make_radix(&im);
	d = img_open(&im, NULL);
	in = dk_info(d);
	ck_assert_str_eq(in->arch, "powerpc64le");
	ck_assert_uint_eq(in->npages, 6);
	ck_assert_uint_eq(dk_section(d, 4)->offset, RPMAP);
	ck_assert_uint_eq(dk_section(d, 5)->offset, RPAGES);
	/* 4 KiB */
	ck_assert_uint_eq(kvtop_ok(d, KB + 0x5123), 0x5123);
	expect_bytes(d, 1, KB + 0x5fc0, 0x55, 64);
	kvtop_fails(d, KB + 0x6000, DK_ENOTMAPPED, "level 4");
	kvtop_fails(d, KB + 0x7000, DK_ENOTMAPPED, "leaf");
	kvtop_fails(d, KB + 0x8000, DK_ENOTMAPPED, NULL);
	/* 2 MiB */
	ck_assert_uint_eq(kvtop_ok(d, KB + 0x200000), 0x600000);
	ck_assert_uint_eq(kvtop_ok(d, KB + 0x3fffff), 0x7fffff);
	expect_bytes(d, 1, KB + 0x203000, 0x66, 64);
	read_fails(d, KB + 0x204000, DK_ENOTDUMPED);
	kvtop_fails(d, KB + 0x400000, DK_ENOTMAPPED, "level 3");
	/* 1 GiB */
	ck_assert_uint_eq(kvtop_ok(d, KB + 0x40000000 + 0x7008), 0x40007008);
	ck_assert_uint_eq(kvtop_ok(d, KB + 0x7fffffff), 0x7fffffff);
	expect_bytes(d, 1, KB + 0x40007000, 0x77, 64);
	/* A table page that is not in the dump. */
	kvtop_fails(d, KB + 0x80000000ull, DK_ENOTDUMPED, "radix");
	kvtop_fails(d, KB + 0xc0000000ull, DK_ENOTMAPPED, "level 2");
	/* 512 GiB at the root. */
	ck_assert_uint_eq(kvtop_ok(d, KB + (1ull << 39) + 0x5008), 0x5008);
	expect_bytes(d, 1, KB + (1ull << 39) + 0x5000, 0x55, 64);
	kvtop_fails(d, KB + (2ull << 39), DK_ENOTMAPPED, "level 1");
	/* The tree serves quadrant 3 only: no alias from another. */
	kvtop_fails(d, 0xd008000000005000ull, DK_ENOTMAPPED, "quadrant");
	/* Direct map and relocation as with the hashed page table. */
	expect_bytes(d, 1, DB + 0x5000, 0x55, 64);
	expect_bytes(d, 1, 0x5000, 0x55, 64);
	dk_close(d);
	free(im.p);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Refused headers.                                                        */

START_TEST(test_refused)
{
	struct img im;

	make_hpt_be(&im);
	memcpy(im.p + 32, "mmu_oea\0", 8);
	open_fails(&im, NULL, DK_EUNSUP, "offset 32", NULL);
	memcpy(im.p + 32, "mmu_g5\0", 7);
	put32(&im, 76, NPTEG * 128 + 4096, BE);	/* not a power of two */
	open_fails(&im, NULL, DK_ECORRUPT, "offset 76", NULL);
	put32(&im, 76, 1024 * 128, BE);		/* 1024 PTEGs: too few */
	open_fails(&im, NULL, DK_ECORRUPT, "offset 76", NULL);
	put32(&im, 76, NPTEG * 128 + 64, BE);
	open_fails(&im, NULL, DK_ECORRUPT, "offset 76", NULL);
	put32(&im, 76, 0, BE);
	open_fails(&im, NULL, DK_ECORRUPT, "offset 76", NULL);
	put32(&im, 76, NPTEG * 128, BE);
	put32(&im, 112, 2, BE);
	open_fails(&im, NULL, DK_ECORRUPT, "offset 112", NULL);
	put32(&im, 112, 0xffffffffu, BE);
	open_fails(&im, NULL, DK_ECORRUPT, "offset 112", NULL);
	put32(&im, 112, 1, BE);
	put64(&im, 104, DB - 1, BE);
	open_fails(&im, NULL, DK_ECORRUPT, "offset 104", NULL);
	free(im.p);

	make_radix(&im);
	put32(&im, 76, NPTEG * 128, LE);
	open_fails(&im, NULL, DK_ECORRUPT, "offset 76", NULL);
	free(im.p);
}
END_TEST

/* The layout table against FORMATS.md 1.2, field by field. */
START_TEST(test_layout)
{
	static const struct {
		const char *name;
		unsigned off, size, kind, v2only;
		const char *ctype;
	} want[] = {
		{ "magic", 0, 32, DK_FK_CHARS, 0, "char[32]" },
		{ "mmu_name", 32, 32, DK_FK_CHARS, 0, "char[32]" },
		{ "version", 64, 4, DK_FK_UINT, 0, "uint32_t" },
		{ "msgbufsize", 68, 4, DK_FK_UINT, 0, "uint32_t" },
		{ "bitmapsize", 72, 4, DK_FK_UINT, 0, "uint32_t" },
		{ "pmapsize", 76, 4, DK_FK_UINT, 0, "uint32_t" },
		{ "kernbase", 80, 8, DK_FK_UINT, 0, "uint64_t" },
		{ "kernend", 88, 8, DK_FK_UINT, 0, "uint64_t" },
		{ "dmapbase", 96, 8, DK_FK_UINT, 0, "uint64_t" },
		{ "dmapend", 104, 8, DK_FK_UINT, 0, "uint64_t" },
		{ "hw_direct_map", 112, 4, DK_FK_INT, 0, "int" },
		{ "(padding)", 116, 4, DK_FK_PAD, 0, NULL },
		{ "startkernel", 120, 8, DK_FK_UINT, 0, "uint64_t" },
		{ "endkernel", 128, 8, DK_FK_UINT, 0, "uint64_t" },
		{ "dumpavailsize", 136, 4, DK_FK_UINT, 1, "uint32_t" },
		{ "(padding)", 140, 4, DK_FK_PAD, 1, NULL },
	};
	const struct dk_layout *l = dk_md_powerpc64.layout;

	ck_assert_str_eq(dk_md_powerpc64.family, "powerpc64");
	ck_assert_str_eq(dk_md_powerpc64.magic, "minidump FreeBSD/powerpc64");
	ck_assert_uint_eq(dk_md_powerpc64.versions, DK_V(1) | DK_V(2));
	ck_assert_uint_eq(l->nfields, DK_ARRAY_LEN(want));
	for (size_t i = 0; i < l->nfields; i++) {
		const struct dk_field *f = &l->fields[i];

		ck_assert_str_eq(f->name, want[i].name);
		ck_assert_uint_eq(f->off, want[i].off);
		ck_assert_uint_eq(f->size, want[i].size);
		ck_assert_uint_eq(f->kind, want[i].kind);
		ck_assert_uint_eq(f->versions, want[i].v2only ? DK_V(2) :
		    DK_V(1) | DK_V(2));
		if (want[i].ctype == NULL)
			ck_assert_ptr_null(f->ctype);
		else
			ck_assert_str_eq(f->ctype, want[i].ctype);
	}
	ck_assert_uint_eq(dk_layout_size(l, 1), 136);
	ck_assert_uint_eq(dk_layout_size(l, 2), 144);
	ck_assert_uint_eq(dk_md_powerpc64.bitmap_word(
	    dk_arch_by_name("powerpc64"), 1), 8);
	ck_assert_uint_eq(dk_md_powerpc64.bitmap_word(
	    dk_arch_by_name("powerpc64le"), 2), 8);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* The writer and the generated fixtures.                                  */

static void
build(struct fx_dump *f, const char *arch, uint32_t version,
    const char *variant, uint64_t mem, int compact)
{
	struct fx_opts o = { .arch = arch, .version = version,
	    .variant = variant, .mem = mem, .seed = 7, .compact = compact };
	struct dk_err err;

	ck_assert_msg(fx_build(&o, f, &err) == DK_OK, "build %s v%u %s: %s",
	    arch, version, variant, err.msg);
}

/*
 * Find every kernel-map page's PTE again with the formulas above: in
 * its primary group with H clear or in its secondary group with H set,
 * PA and protection as the map says.  Returns the number found in
 * secondary groups.
 */
static uint64_t
check_hpt(const struct fx_dump *f, enum order o, uint64_t *nprimary)
{
	const uint8_t *t = f->pb.pmap;
	uint64_t npteg = f->pb.pmap_len / 128, nsec = 0, nkernel = 0;

	ck_assert_uint_ge(npteg, NPTEG);
	ck_assert_uint_eq(npteg & (npteg - 1), 0);
	*nprimary = 0;
	for (size_t m = 0; m < f->nmaps; m++) {
		const struct dk_map *mp = &f->maps[m];

		for (uint64_t off = 0; off < mp->len; off += 4096) {
			uint64_t va = mp->va + off, lo = 0;
			int hid = find_pte(t, npteg, va, o, &lo);

			ck_assert_msg(hid >= 0, "va %#jx: no PTE",
			    (uintmax_t)va);
			ck_assert_uint_eq(lo & 0x0ffffffffffff000ull,
			    mp->pa + off);
			ck_assert_uint_eq((lo & 3) == L_BW,
			    (mp->prot & DK_PROT_W) != 0);
			ck_assert_uint_eq((lo & L_N) == 0,
			    (mp->prot & DK_PROT_X) != 0);
			if (hid)
				nsec++;
			else
				(*nprimary)++;
			nkernel++;
		}
	}
	ck_assert_uint_eq(nkernel, nsec + *nprimary);
	return nsec;
}

START_TEST(test_fixture_hpt)
{
	static const struct {
		const char *arch, *variant;
		enum order pte;
	} cases[] = {
		{ "powerpc64", "-", BE },
		{ "powerpc64", "phyp", BE },
		{ "powerpc64le", "-", BE },	/* mmu_g5: hardware table */
		{ "powerpc64le", "phyp", LE },	/* H_READ, stored natively */
		{ "powerpc64le", "nodmap", BE },
	};

	for (size_t c = 0; c < DK_ARRAY_LEN(cases); c++) {
		struct fx_dump f;
		uint64_t np, ns, nvalid = 0, nkernel = 0, nlarge = 0;
		uint64_t hdm;

		build(&f, cases[c].arch, 2, cases[c].variant, 64u << 20, 0);
		ns = check_hpt(&f, cases[c].pte, &np);
		/* Both kinds of slot are used. */
		ck_assert_msg(ns > 0 && np > 0, "%s %s: %ju primary, %ju "
		    "secondary", cases[c].arch, cases[c].variant,
		    (uintmax_t)np, (uintmax_t)ns);
		hdm = f.spec.hdr.v[DK_H_HW_DIRECT_MAP];
		for (uint64_t i = 0; i < f.pb.pmap_len / 16; i++) {
			uint64_t hi = get64(f.pb.pmap + 16 * i, cases[c].pte);

			if (!(hi & H_V))
				continue;
			nvalid++;
			if (hi >> 12 & (1ull << 36)) {
				nkernel++;
				nlarge += (hi & H_L) != 0;
			}
		}
		/* 16 MiB direct-map PTEs only with hw_direct_map. */
		ck_assert_uint_eq(nlarge != 0, hdm != 0);
		/* Mostly full, with user PTEs (VSIDs without bit 36). */
		ck_assert_uint_gt(nvalid, f.pb.pmap_len / 16 / 2);
		ck_assert_uint_gt(nvalid, nkernel);
		fx_free(&f);
	}
}
END_TEST

/* The same arguments, the same table. */
START_TEST(test_fixture_deterministic)
{
	struct fx_dump a, b;

	build(&a, "powerpc64", 1, "phyp", 48u << 20, 0);
	build(&b, "powerpc64", 1, "phyp", 48u << 20, 0);
	ck_assert_uint_eq(a.pb.pmap_len, b.pb.pmap_len);
	ck_assert_mem_eq(a.pb.pmap, b.pb.pmap, a.pb.pmap_len);
	fx_free(&a);
	fx_free(&b);
}
END_TEST

/* Decode a fixture's radix tree here, for every page of the kernel map. */
START_TEST(test_fixture_radix)
{
	struct fx_dump f;

	build(&f, "powerpc64le", 2, "radix", 64u << 20, 0);
	ck_assert_str_eq(f.spec.hdr.s[DK_H_MMU_NAME], "mmu_radix");
	ck_assert_uint_eq(f.pb.pmap_len, 65536);
	ck_assert_uint_gt(f.pb.npt, 2);
	for (size_t i = 1; i < f.pb.npt; i++)
		ck_assert_uint_gt(f.pb.pt_pa[i], f.pb.pt_pa[i - 1]);
	for (size_t m = 0; m < f.nmaps; m++) {
		const struct dk_map *mp = &f.maps[m];

		for (uint64_t off = 0; off < mp->len; off += 4096) {
			uint64_t va = mp->va + off, e, t;
			static const unsigned sh[] = { 39, 30, 21, 12 };
			uint8_t b[8];

			e = get64(f.pb.pmap + 8 * ((va >> 39) & 8191), BE);
			for (int lv = 1; lv < 4; lv++) {
				ck_assert(e & R_V);
				ck_assert(!(e & R_L));
				t = e & 0x00ffffffffffff00ull;
				ck_assert(fx_dumped(&f, t));
				fx_expect(&f, t + 8 * ((va >> sh[lv]) & 511),
				    b, 8);
				e = get64(b, BE);
			}
			ck_assert(e & R_V);
			ck_assert(e & R_L);
			ck_assert_uint_eq(e & 0x00fffffffffff000ull,
			    mp->pa + off);
			ck_assert_uint_eq((e & 0x2) != 0,
			    (mp->prot & DK_PROT_W) != 0);
		}
	}
	fx_free(&f);
}
END_TEST

/*
 * The relocation window of the model against the reader: link-time
 * addresses of the reloc variant (the kernel 1 MiB above its link
 * address) and of the plain one (at it).
 */
START_TEST(test_fixture_window)
{
	static const struct {
		const char *arch, *variant;
		uint64_t kpa;		/* PA of link address 0x100000 */
	} cases[] = {
		{ "powerpc64", "reloc", 0x200000 },
		{ "powerpc64le", "reloc", 0x200000 },
		{ "powerpc64", "-", 0x100000 },
		{ "powerpc64le", "radix", 0x100000 },
	};

	for (size_t c = 0; c < DK_ARRAY_LEN(cases); c++) {
		struct fx_dump f;
		struct dk_dump *d;
		struct dk_err err;
		char path[] = "/tmp/dkppc64.XXXXXX";
		uint64_t s = 0x1234 + c, pa, mpa;
		enum dk_status st;
		uint8_t *img;
		size_t len;
		FILE *fp;
		int fd = mkstemp(path);

		ck_assert_int_ge(fd, 0);
		close(fd);
		unlink(path);
		build(&f, cases[c].arch, 2, cases[c].variant, 64u << 20, 1);
		/* Read back into memory and unlink at once: no leftovers. */
		st = fx_write(&f, path, 0, &err);
		fp = fopen(path, "rb");
		unlink(path);
		ck_assert_msg(st == DK_OK, "%s", err.msg);
		ck_assert_ptr_nonnull(fp);
		img = malloc(64u << 20);
		ck_assert_ptr_nonnull(img);
		len = fread(img, 1, 64u << 20, fp);
		fclose(fp);
		ck_assert_uint_gt(len, 0);
		ck_assert_uint_eq(f.spec.hdr.v[DK_H_STARTKERNEL],
		    DB + cases[c].kpa + 0x100);
		ck_assert_uint_eq(f.g.nwin, 1);
		ck_assert_int_eq(dk_open_mem(img, len, "window", NULL, &d,
		    &err), DK_OK);
		ck_assert(fx_va_to_pa(&f, LINK, &mpa));
		ck_assert_uint_eq(mpa, cases[c].kpa + 0x100);
		ck_assert_uint_eq(kvtop_ok(d, LINK), mpa);
		for (int i = 0; i < 1000; i++) {
			uint64_t va;
			uint8_t got[32], want[32];

			s ^= s << 13;
			s ^= s >> 7;
			s ^= s << 17;
			va = i < 500 ? LINK - 0x100 + s % (64u << 20) :
			    f.g.win[0].va + s % (f.g.win[0].end -
			    f.g.win[0].va);
			ck_assert(fx_va_to_pa(&f, va, &mpa));
			ck_assert_uint_eq(kvtop_ok(d, va), mpa);
			va &= ~31ull;
			ck_assert(fx_va_to_pa(&f, va, &mpa));
			if (!fx_dumped(&f, mpa)) {
				read_fails(d, va, DK_ENOTDUMPED);
				continue;
			}
			ck_assert_int_eq(dk_read_va(d, va, got, 32, &err),
			    DK_OK);
			fx_expect(&f, mpa, want, 32);
			ck_assert_mem_eq(got, want, 32);
		}
		/* The window ends where the reader stops moving into it. */
		ck_assert(!fx_va_to_pa(&f, f.g.win[0].end, &mpa) ||
		    f.g.win[0].end >= DB);
		ck_assert_int_eq(dk_kvtop(d, f.g.win[0].end - 1, &pa, &err),
		    DK_OK);
		ck_assert_uint_eq(pa, DE - DB);
		dk_close(d);
		free(img);
		fx_free(&f);
	}
}
END_TEST

/* A page-table page allocator for pmap_build called directly. */
static uint64_t
next_pt(void *arg)
{
	uint64_t *next = arg;

	*next += 0x1000;
	return *next;
}

START_TEST(test_pmap_build)
{
	struct dk_hdr h;
	struct dk_map maps[3];
	struct dk_pmap_build b;
	struct dk_err err;
	uint64_t next = 0x100000;

	memset(&h, 0, sizeof(h));
	snprintf(h.s[DK_H_MMU_NAME], sizeof(h.s[0]), "mmu_radix");
	h.v[DK_H_KERNBASE] = KB;
	h.v[DK_H_KERNEND] = KE;
	h.v[DK_H_DMAPBASE] = DB;
	h.v[DK_H_DMAPEND] = DE;
	/* Large maps: a 1 GiB leaf, then 2 MiB leaves, then 4 KiB ones. */
	maps[0] = (struct dk_map){ KB + (1ull << 30), 0x80000000ull,
	    1ull << 30, DK_PROT_W, 1 };
	maps[1] = (struct dk_map){ KB + (3ull << 30), 0x40000000ull,
	    (4u << 20) + 0x3000, DK_PROT_X, 1 };
	maps[2] = (struct dk_map){ KB + (4ull << 30) + 0x1000, 0x1000,
	    0x1000, DK_PROT_W, 1 };
	memset(&b, 0, sizeof(b));
	b.arch = dk_arch_by_name("powerpc64");
	b.version = 2;
	b.hdr = &h;
	b.page_shift = 12;
	b.kva_end = KB + (5ull << 30);
	b.maps = maps;
	b.nmaps = 3;
	b.alloc_pt = next_pt;
	b.alloc_arg = &next;
	ck_assert_int_eq(dk_md_powerpc64.pmap_build(&b, &err), DK_OK);
	/* One level-2 table; level-3 tables for GiB 3 and 4; one PT each. */
	ck_assert_uint_eq(b.npt, 5);
	{
		uint64_t l2 = get64(b.pmap + 8 * 4096, BE) &
		    0x00ffffffffffff00ull;
		const uint8_t *t2 = b.pt_data + (l2 - 0x101000);
		uint64_t e = get64(t2 + 8 * 1, BE);

		ck_assert_uint_eq(l2, 0x101000);
		ck_assert(e & R_L);
		ck_assert_uint_eq(e & 0x00fffffffffff000ull, 0x80000000ull);
		ck_assert_uint_eq(e & 0x2, 0x2);
		e = get64(t2 + 8 * 3, BE);
		ck_assert(!(e & R_L));
		{
			uint64_t l3 = e & 0x00ffffffffffff00ull;
			const uint8_t *t3 = b.pt_data + (l3 - 0x101000);

			e = get64(t3 + 8 * 0, BE);
			ck_assert(e & R_L);
			ck_assert_uint_eq(e & 0x00fffffffffff000ull,
			    0x40000000ull);
			ck_assert_uint_eq(e & 0x1, 0x1);
			e = get64(t3 + 8 * 1, BE);
			ck_assert(e & R_L);
			ck_assert_uint_eq(e & 0x00fffffffffff000ull,
			    0x40200000ull);
			e = get64(t3 + 8 * 2, BE);
			ck_assert(!(e & R_L));
		}
	}
	free(b.pmap);
	free(b.pt_pa);
	free(b.pt_data);

	/* Radix: outside quadrant 3 or below kernbase is refused. */
	memset(&b, 0, sizeof(b));
	b.arch = dk_arch_by_name("powerpc64");
	b.version = 2;
	b.hdr = &h;
	b.page_shift = 12;
	b.maps = maps;
	b.nmaps = 1;
	b.alloc_pt = next_pt;
	b.alloc_arg = &next;
	maps[0] = (struct dk_map){ DB + 0x1000, 0x1000, 0x1000, 0, 0 };
	ck_assert_int_eq(dk_md_powerpc64.pmap_build(&b, &err), DK_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "map 0"));

	/* HPT: a map past the kernel's segments is refused. */
	snprintf(h.s[DK_H_MMU_NAME], sizeof(h.s[0]), "mmu_g5");
	maps[0] = (struct dk_map){ 0xc008000800000000ull, 0x1000, 0x1000, 0,
	    0 };
	ck_assert_int_eq(dk_md_powerpc64.pmap_build(&b, &err), DK_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "segments"));
	free(b.pmap);
	/* A large map in the hashed page table becomes 4 KiB PTEs. */
	memset(&b, 0, sizeof(b));
	b.arch = dk_arch_by_name("powerpc64le");
	b.version = 2;
	b.hdr = &h;
	b.page_shift = 12;
	b.maps = maps;
	b.nmaps = 1;
	maps[0] = (struct dk_map){ KB, 0x2000000, 2u << 20, DK_PROT_W, 1 };
	ck_assert_int_eq(dk_md_powerpc64.pmap_build(&b, &err), DK_OK);
	ck_assert_uint_eq(b.pmap_len, NPTEG * 128);
	ck_assert_uint_eq(b.npt, 0);
	for (uint64_t off = 0; off < (2u << 20); off += 0x1000) {
		uint64_t lo = 0;

		ck_assert_msg(find_pte(b.pmap, NPTEG, KB + off, BE, &lo) >= 0,
		    "offset %#jx", (uintmax_t)off);
		ck_assert_uint_eq(lo & ~0xfffull, 0x2000000 + off);
	}
	free(b.pmap);
	/* No writer for an unknown MMU, and 4 KiB pages only. */
	snprintf(h.s[DK_H_MMU_NAME], sizeof(h.s[0]), "mmu_booke");
	memset(&b, 0, sizeof(b));
	b.hdr = &h;
	b.page_shift = 12;
	ck_assert_int_eq(dk_md_powerpc64.pmap_build(&b, &err), DK_EINVAL);
	b.page_shift = 14;
	ck_assert_int_eq(dk_md_powerpc64.pmap_build(&b, &err), DK_EINVAL);
}
END_TEST

/* The defaults of every variant: header values and the model's maps. */
START_TEST(test_defaults)
{
	struct fx_dump f;

	build(&f, "powerpc64", 1, "-", 32u << 20, 1);
	ck_assert_str_eq(f.spec.hdr.s[DK_H_MMU_NAME], "mmu_g5");
	ck_assert_uint_eq(f.spec.hdr.v[DK_H_KERNBASE], 0xe000000000000000ull);
	ck_assert_uint_eq(f.spec.hdr.v[DK_H_DMAPEND], 0xcfffffffffffffffull);
	ck_assert_uint_eq(f.g.dmap_end, 0xd000000000000000ull);
	ck_assert_uint_eq(f.spec.hdr.v[DK_H_HW_DIRECT_MAP], 1);
	ck_assert_uint_eq(f.g.ktext_va, 0);
	fx_free(&f);
	build(&f, "powerpc64le", 2, "nodmap", 32u << 20, 1);
	ck_assert_uint_eq(f.spec.hdr.v[DK_H_HW_DIRECT_MAP], 0);
	ck_assert_uint_eq(f.spec.hdr.v[DK_H_KERNBASE], KB);
	ck_assert_uint_eq(f.spec.hdr.v[DK_H_KERNEND], KE);
	ck_assert_uint_eq(f.spec.hdr.v[DK_H_DMAPEND], DE);
	fx_free(&f);
	build(&f, "powerpc64", 2, "reloc", 32u << 20, 1);
	ck_assert_str_eq(f.spec.hdr.s[DK_H_MMU_NAME], "mmu_phyp");
	ck_assert_uint_eq(f.spec.hdr.v[DK_H_ENDKERNEL] -
	    f.spec.hdr.v[DK_H_STARTKERNEL], 0x1000000);
	fx_free(&f);
}
END_TEST

static Suite *
powerpc64_suite(void)
{
	Suite *s = suite_create("powerpc64");
	TCase *hand = tcase_create("handmade");
	TCase *wr = tcase_create("writer");

	tcase_add_test(hand, test_hpt_be_v2);
	tcase_add_test(hand, test_hpt_padding_ignored);
	tcase_add_test(hand, test_hpt_secondary_needs_h);
	tcase_add_test(hand, test_hpt_large_page);
	tcase_add_test(hand, test_le_v1_phyp);
	tcase_add_test(hand, test_le_v1_g5);
	tcase_add_test(hand, test_version_field);
	tcase_add_test(hand, test_radix);
	tcase_add_test(hand, test_refused);
	tcase_add_test(hand, test_layout);
	tcase_add_test(wr, test_fixture_hpt);
	tcase_add_test(wr, test_fixture_deterministic);
	tcase_add_test(wr, test_fixture_radix);
	tcase_add_test(wr, test_fixture_window);
	tcase_add_test(wr, test_pmap_build);
	tcase_add_test(wr, test_defaults);
	tcase_set_timeout(wr, 120);
	suite_add_tcase(s, hand);
	suite_add_tcase(s, wr);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(powerpc64_suite());
	int nfailed;

	srunner_run_all(sr, CK_ENV);
	nfailed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfailed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
