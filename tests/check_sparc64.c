/*
 * check_sparc64.c -- the sparc64 dump format (FORMATS.md 5), against a
 * dump written here by hand, byte by byte, from the document: header
 * bytes with their offsets, TTE tags and data computed by hand for each
 * of the four page sizes, page contents a formula of this file.
 *
 *  - "read": the format recognised without options (the file is exactly
 *    what the kernel writes), header fields, regions, translations of
 *    the direct map and of each TTE size (every 8 KiB page of a large
 *    TTE, including through the large page's first slot), reads.
 *  - "errors": one broken invariant at a time: the library's error
 *    names the byte offset; the file is never taken for sparc64 without
 *    --arch once it is not exactly what the kernel writes.
 *  - "check": dumpcheck's findings and their offsets for the same.
 *  - "portable": conversion to the portable format read back with
 *    libelf (program headers hand-computed), and back to native byte
 *    for byte: garbage in bytes 36..39, a non-zero padding byte, regions
 *    not in physical order.
 *  - "fixture": dumpgen's sparc64 model, old and new header style,
 *    translations and pages against the fixture pattern.
 */
#include <check.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "corrupt.h"
#include "dkcheck.h"
#include "gen_sparc64.h"
#include "minidump.h"
#include "private.h"

/* ---------------------------------------------------------------------- */
/* The hand-made dump.                                                     */

#define	PG		8192u
#define	HDR		0x200u		/* dh_hdr_size */
#define	RA_PA		0x1000000u	/* region 0: 4 pages, holds the TSB */
#define	RA_SIZE		0x8000u
#define	RB_PA		0x0u		/* region 1: 8 MiB from PA 0 */
#define	RB_SIZE		0x800000u
#define	RB_OFF		(HDR + RA_SIZE)	/* 0x8200 */
#define	FILE_SIZE	(HDR + RA_SIZE + RB_SIZE)
#define	TSB_SLOTS	512u
#define	TSB_OFF		HDR		/* the TSB is region 0's first bytes */

static const uint8_t hdr_bytes[88] = {
	/*  0 dh_hdr_size  */ 0, 0, 0, 0, 0, 0, 0x02, 0x00,
	/*  8 dh_tsb_pa    */ 0, 0, 0, 0, 0x01, 0x00, 0x00, 0x00,
	/* 16 dh_tsb_size  */ 0, 0, 0, 0, 0, 0, 0x40, 0x00,
	/* 24 dh_tsb_mask  */ 0, 0, 0, 0, 0, 0, 0x01, 0xff,
	/* 32 dh_nregions  */ 0, 0, 0, 2,
	/* 36 padding: stack garbage, as the kernel left it */
			      0xde, 0xad, 0xbe, 0xef,
	/* 40 region 0: dr_pa   */ 0, 0, 0, 0, 0x01, 0x00, 0x00, 0x00,
	/* 48           dr_size */ 0, 0, 0, 0, 0, 0, 0x80, 0x00,
	/* 56           dr_offs */ 0, 0, 0, 0, 0, 0, 0x02, 0x00,
	/* 64 region 1: dr_pa   */ 0, 0, 0, 0, 0, 0, 0x00, 0x00,
	/* 72           dr_size */ 0, 0, 0, 0, 0, 0x80, 0x00, 0x00,
	/* 80           dr_offs */ 0, 0, 0, 0, 0, 0, 0x82, 0x00,
};

/*
 * The TSB: slot = (va >> 13) & 0x1ff; tag = (va >> (13 + 3 size)) << 2
 * | size; data = valid (bit 63) | size << 61 | pa | W (bit 1) | EXEC
 * (bit 7).  Computed by hand:
 */
static const struct {
	unsigned	slot;
	uint64_t	tag, data;
} ttes[] = {
	/* 8K   va 0xc0002000 -> pa 0x6000, W: slot 1 */
	{ 1, 0x180004, 0x8000000000006002ull },
	/* 8K   va 0xc0004000, valid bit clear: slot 2 */
	{ 2, 0x180008, 0x0000000000008002ull },
	/* 64K  va 0xc0010000 -> pa 0x20000, W: slots 8..15 (one per 8K) */
	{ 8, 0x30005, 0xa000000000020002ull },
	{ 9, 0x30005, 0xa000000000020002ull },
	{ 10, 0x30005, 0xa000000000020002ull },
	{ 11, 0x30005, 0xa000000000020002ull },
	{ 12, 0x30005, 0xa000000000020002ull },
	{ 13, 0x30005, 0xa000000000020002ull },
	{ 14, 0x30005, 0xa000000000020002ull },
	{ 15, 0x30005, 0xa000000000020002ull },
	/* 512K va 0xc0080000 -> pa 0x100000, W: its first slot, 64, only */
	{ 64, 0x6006, 0xc000000000100002ull },
	/* 4M   va 0xc0400000 -> pa 0, EXEC: its first slot, 0, only */
	{ 0, 0xc07, 0xe000000000000080ull },
};

/* The content of memory: word at 8-aligned pa = pa ^ "SPARC64\0", BE. */
static uint64_t
word_at(uint64_t pa)
{
	return pa ^ 0x5350415243363400ull;
}

static void
put_be64(uint8_t *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

static uint64_t
get_be64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

/* The whole file, malloc'd (FILE_SIZE bytes). */
static uint8_t *
make_dump(void)
{
	uint8_t *f = calloc(1, FILE_SIZE);

	ck_assert_ptr_nonnull(f);
	memcpy(f, hdr_bytes, sizeof(hdr_bytes));
	f[500] = 0x5a;			/* padding before dh_hdr_size */
	for (size_t i = 0; i < DK_ARRAY_LEN(ttes); i++) {
		put_be64(f + TSB_OFF + 32 * ttes[i].slot, ttes[i].tag);
		put_be64(f + TSB_OFF + 32 * ttes[i].slot + 8, ttes[i].data);
	}
	/* Region 0 after the TSB's 16 KiB, and all of region 1. */
	for (uint64_t o = 0x4000; o < RA_SIZE; o += 8)
		put_be64(f + HDR + o, word_at(RA_PA + o));
	for (uint64_t o = 0; o < RB_SIZE; o += 8)
		put_be64(f + RB_OFF + o, word_at(RB_PA + o));
	return f;
}

static struct dk_dump *
open_ok(const uint8_t *f, size_t len, const char *arch)
{
	struct dk_open_opts o = { .arch = arch };
	struct dk_dump *d = NULL;
	struct dk_err err;

	ck_assert_msg(dk_open_mem(f, len, "hand", &o, &d, &err) == DK_OK,
	    "%s", err.msg);
	return d;
}

/* ---------------------------------------------------------------------- */
/* read                                                                    */

static const struct {
	uint64_t	va, pa;
} xlat[] = {
	{ 0xc0002010, 0x6010 },			/* 8K */
	{ 0xc0010000, 0x20000 },		/* 64K, first 8K */
	{ 0xc001e008, 0x2e008 },		/* 64K, 8K page 7 (slot 15) */
	{ 0xc0080000, 0x100000 },		/* 512K, first 8K */
	{ 0xc00fe000, 0x17e000 },		/* 512K, last 8K: slot 127 is
						 * empty, slot 64 answers */
	{ 0xc0400000, 0x0 },			/* 4M */
	{ 0xc0412345, 0x12345 },		/* 4M, slot 9 holds the 64K
						 * TTE: slot 0 answers */
	{ 0xc07ffff8, 0x3ffff8 },		/* 4M, last word */
	{ 0xfffff80000006000ull, 0x6000 },	/* direct map */
	{ 0xfffff80001004000ull, 0x1004000 },
};

START_TEST(test_read)
{
	uint8_t *f = make_dump(), buf[32];
	struct dk_dump *d = open_ok(f, FILE_SIZE, NULL);
	const struct dk_info *in = dk_info(d);
	struct dk_hfield hf;
	struct dk_err err;
	uint64_t pa;

	ck_assert_str_eq(in->format, "sparc64");
	ck_assert_str_eq(in->arch, "sparc64");
	ck_assert_int_eq(in->arch_by, DK_BY_HEADER);
	ck_assert_uint_eq(in->page_size, 8192);
	ck_assert_int_eq(in->endian, DK_BE);
	ck_assert_uint_eq(in->npages, (RA_SIZE + RB_SIZE) / PG);
	ck_assert_uint_eq(in->npages_present, (RA_SIZE + RB_SIZE) / PG);
	ck_assert_uint_eq(in->kernbase, 0xc0002000);
	ck_assert_uint_eq(in->kva_end, 0xc0800000);
	/* Regions in physical order, whatever the header's order. */
	ck_assert_uint_eq(dk_phys_nranges(d), 2);
	ck_assert_uint_eq(dk_phys_range(d, 0).start, 0);
	ck_assert_uint_eq(dk_phys_range(d, 0).end, RB_SIZE);
	ck_assert_uint_eq(dk_phys_range(d, 1).start, RA_PA);
	/* The header as dumpinfo lists it. */
	ck_assert_int_eq(dk_header_field(d, 4, &hf), 0);
	ck_assert_str_eq(hf.name, "dh_nregions");
	ck_assert_uint_eq(hf.offset, 32);
	ck_assert_uint_eq(hf.value, 2);
	ck_assert_int_eq(dk_header_field(d, 5, &hf), 0);
	ck_assert_int_eq(hf.is_padding, 1);
	ck_assert_uint_eq(hf.offset, 36);
	for (size_t i = 0; i < DK_ARRAY_LEN(xlat); i++) {
		ck_assert_msg(dk_kvtop(d, xlat[i].va, &pa, &err) == DK_OK,
		    "va %#jx: %s", (uintmax_t)xlat[i].va, err.msg);
		ck_assert_msg(pa == xlat[i].pa, "va %#jx: pa %#jx, want %#jx",
		    (uintmax_t)xlat[i].va, (uintmax_t)pa,
		    (uintmax_t)xlat[i].pa);
	}
	/* Valid bit clear; no TTE at all; the TSB's own bytes by PA. */
	ck_assert_int_eq(dk_kvtop(d, 0xc0004000, &pa, &err), DK_ENOTMAPPED);
	ck_assert_int_eq(dk_kvtop(d, 0xc0300000, &pa, &err), DK_ENOTMAPPED);
	ck_assert_int_eq(dk_read_pa(d, RA_PA + 32 * 64, buf, 16, &err), DK_OK);
	ck_assert_uint_eq(get_be64(buf), 0x6006);
	ck_assert_uint_eq(get_be64(buf + 8), 0xc000000000100002ull);
	/* Page contents through each kind of translation. */
	ck_assert_int_eq(dk_read_va(d, 0xc0412340, buf, 16, &err), DK_OK);
	ck_assert_uint_eq(get_be64(buf), word_at(0x12340));
	ck_assert_uint_eq(get_be64(buf + 8), word_at(0x12348));
	ck_assert_int_eq(dk_read_va(d, 0xc00fe000, buf, 8, &err), DK_OK);
	ck_assert_uint_eq(get_be64(buf), word_at(0x17e000));
	ck_assert_int_eq(dk_read_va(d, 0xfffff80001006000ull, buf, 8, &err),
	    DK_OK);
	ck_assert_uint_eq(get_be64(buf), word_at(0x1006000));
	/* A read across the region boundary in the file is two reads. */
	ck_assert_int_eq(dk_read_pa(d, RB_SIZE - 8, buf, 8, &err), DK_OK);
	ck_assert_uint_eq(get_be64(buf), word_at(RB_SIZE - 8));
	ck_assert_int_eq(dk_read_pa(d, RB_SIZE, buf, 8, &err),
	    DK_ENOTDUMPED);
	dk_close(d);
	/* --arch naming another machine: refused, not read as sparc64. */
	{
		struct dk_open_opts am = { .arch = "amd64" };

		ck_assert_int_eq(dk_open_mem(f, FILE_SIZE, "hand", &am, &d,
		    &err), DK_EINVAL);
		ck_assert_ptr_nonnull(strstr(err.msg, "sparc64"));
	}
	free(f);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* errors                                                                  */

static const struct {
	const char	*what;
	unsigned	 off;		/* byte to change */
	unsigned	 width;
	uint64_t	 value;
	enum dk_status	 st;
	const char	*msg;		/* in the message */
	const char	*code;		/* dumpcheck's finding */
	uint64_t	 at;		/* at this offset */
	int		 shaped;	/* still shaped as the kernel writes */
} breaks[] = {
	{ "no regions", 32, 4, 0, DK_ECORRUPT, "offset 0x20",
	  "sparc64.nregions", 32, 0 },
	{ "negative regions", 32, 4, 0xffffffff, DK_ECORRUPT, "found -1",
	  "sparc64.nregions", 32, 0 },
	{ "header too small", 0, 8, 0x40, DK_ECORRUPT, "offset 0:",
	  "sparc64.hdr-size", 0, 0 },
	{ "regions overlap", 40, 8, 0x2000, DK_ECORRUPT, "offset 0x28",
	  "sparc64.region-overlap", 40, 1 },
	{ "mask past the TSB", 24, 8, 0x3ff, DK_ECORRUPT, "offset 0x18",
	  "sparc64.tsb-mask", 24, 0 },
	{ "size not whole pages", 48, 8, 0x7000, DK_ECORRUPT, "offset 0x28",
	  "sparc64.region-range", 48, 0 },
	{ "offset in the header", 56, 8, 0x100, DK_ECORRUPT, "offset 0x38",
	  "sparc64.first-offset", 56, 0 },
};

static void
put_n(uint8_t *p, unsigned width, uint64_t v)
{
	for (int i = (int)width - 1; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

START_TEST(test_errors)
{
	uint8_t *f = make_dump();
	struct dk_open_opts sp = { .arch = "sparc64" };
	struct dk_dump *d;
	struct dk_err err;
	uint8_t save[8];

	memcpy(save, f + breaks[_i].off, breaks[_i].width);
	put_n(f + breaks[_i].off, breaks[_i].width, breaks[_i].value);
	/*
	 * Not shaped as the kernel writes: never taken for sparc64 without
	 * --arch.  Shaped so (sizes, offsets and file size agree), it is
	 * taken, and the damage reported.
	 */
	ck_assert_int_eq(dk_open_mem(f, FILE_SIZE, "hand", NULL, &d, &err),
	    breaks[_i].shaped ? breaks[_i].st : DK_EUNSUP);
	ck_assert_int_eq(dk_open_mem(f, FILE_SIZE, "hand", &sp, &d, &err),
	    breaks[_i].st);
	ck_assert_msg(strstr(err.msg, breaks[_i].msg) != NULL, "%s: %s",
	    breaks[_i].what, err.msg);
	memcpy(f + breaks[_i].off, save, breaks[_i].width);
	free(f);
}
END_TEST

START_TEST(test_truncated)
{
	uint8_t *f = make_dump(), buf[8];
	struct dk_dump *d;
	struct dk_err err;
	uint64_t pa;

	/* The last 4 KiB cut: only --arch opens it; the last page is gone. */
	ck_assert_int_eq(dk_open_mem(f, FILE_SIZE - 4096, "cut", NULL, &d,
	    &err), DK_EUNSUP);
	d = open_ok(f, FILE_SIZE - 4096, "sparc64");
	ck_assert_int_eq(dk_info(d)->arch_by, DK_BY_OPTION);
	ck_assert_uint_eq(dk_info(d)->npages_present, dk_info(d)->npages - 1);
	ck_assert_int_eq(dk_read_pa(d, RB_SIZE - PG, buf, 8, &err),
	    DK_ETRUNC);
	ck_assert_int_eq(dk_read_pa(d, RB_SIZE - 2 * PG, buf, 8, &err), DK_OK);
	dk_close(d);
	/* A kernel's ELF header names it: EM_SPARCV9 (43), ELF64, MSB. */
	{
		static const uint8_t kern[64] = { 0x7f, 'E', 'L', 'F', 2, 2, 1,
		    [16] = 0, 2, /* ET_EXEC */ [18] = 0, 43, /* e_machine */
		    [20] = 0, 0, 0, 1 };
		char kp[] = "/tmp/check_sparc64.kernel.XXXXXX";
		struct dk_open_opts ko = { .kernel = kp };
		int fd = mkstemp(kp);

		ck_assert_int_ge(fd, 0);
		ck_assert_int_eq(write(fd, kern, sizeof(kern)), 64);
		close(fd);
		ck_assert_msg(dk_open_mem(f, FILE_SIZE - 4096, "cut", &ko, &d,
		    &err) == DK_OK, "%s", err.msg);
		ck_assert_int_eq(dk_info(d)->arch_by, DK_BY_KERNEL);
		ck_assert_str_eq(dk_info(d)->format, "sparc64");
		dk_close(d);
		unlink(kp);
	}
	/* The TSB in a hole: the direct map still translates, the TSB not. */
	put_n(f + 8, 8, 0x900000);	/* between the regions */
	d = open_ok(f, FILE_SIZE, "sparc64");
	ck_assert_int_eq(dk_kvtop(d, 0xc0002000, &pa, &err), DK_ENOTMAPPED);
	ck_assert_ptr_nonnull(strstr(err.msg, "does not lie inside one "
	    "region"));
	ck_assert_int_eq(dk_kvtop(d, 0xfffff80000006000ull, &pa, &err), DK_OK);
	ck_assert_uint_eq(pa, 0x6000);
	dk_close(d);
	free(f);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* check                                                                   */

struct seen {
	char		code[48];
	uint64_t	off;
	int		has_off;
	size_t		n;
};

static struct seen found[32];
static size_t nfound;

static void
keep(void *arg, const struct dk_finding *f)
{
	(void)arg;
	if (nfound < DK_ARRAY_LEN(found)) {
		snprintf(found[nfound].code, sizeof(found[0].code), "%s",
		    f->code);
		found[nfound].off = f->offset;
		found[nfound].has_off = f->has_offset;
		nfound++;
	}
}

static int
has(const char *code, uint64_t off)
{
	for (size_t i = 0; i < nfound; i++)
		if (strcmp(found[i].code, code) == 0 && found[i].has_off &&
		    found[i].off == off)
			return 1;
	return 0;
}

static void
check(const uint8_t *f, size_t len, struct dk_check_result *res)
{
	struct dk_check_opts o = { .arch = "sparc64", .finding = keep };
	struct dk_err err;

	nfound = 0;
	ck_assert_msg(dk_check_mem(f, len, "hand", &o, res, &err) == DK_OK,
	    "%s", err.msg);
}

START_TEST(test_check_clean)
{
	uint8_t *f = make_dump();
	struct dk_check_result res;

	check(f, FILE_SIZE, &res);
	/* The padding byte at 500 is the one note; bytes 36..39: none. */
	ck_assert_uint_eq(res.nerrors, 0);
	ck_assert_uint_eq(res.nwarnings, 1);
	ck_assert(has("header.tail-nonzero", 500));
	ck_assert_uint_eq(res.npages, (RA_SIZE + RB_SIZE) / PG);
	f[500] = 0;
	check(f, FILE_SIZE, &res);
	ck_assert_uint_eq(res.nerrors + res.nwarnings + res.nnotes, 0);
	ck_assert_int_eq(res.deep, 1);
	free(f);
}
END_TEST

START_TEST(test_check_breaks)
{
	uint8_t *f = make_dump();
	struct dk_check_result res;

	f[500] = 0;
	put_n(f + breaks[_i].off, breaks[_i].width, breaks[_i].value);
	check(f, FILE_SIZE, &res);
	ck_assert_msg(has(breaks[_i].code, breaks[_i].at), "%s: no %s at %ju "
	    "(%zu findings, first %s)", breaks[_i].what, breaks[_i].code,
	    (uintmax_t)breaks[_i].at, nfound, nfound ? found[0].code : "-");
	free(f);
}
END_TEST

START_TEST(test_check_tsb)
{
	uint8_t *f = make_dump();
	struct dk_check_result res;

	f[500] = 0;
	/* An 8K TTE for va 0xc0300000 (slot 384) put in slot 100. */
	put_be64(f + TSB_OFF + 32 * 100, 0x180600);
	put_be64(f + TSB_OFF + 32 * 100 + 8, 0x8000000000008002ull);
	/* The 512K TTE's address not 512K-aligned. */
	put_be64(f + TSB_OFF + 32 * 64 + 8, 0xc000000000102002ull);
	/* A 64K TTE whose tag says 8K: slot 20, tag size bits 0. */
	put_be64(f + TSB_OFF + 32 * 20, 0x30004);
	put_be64(f + TSB_OFF + 32 * 20 + 8, 0xa000000000020002ull);
	/* The 4M TTE's page moved to 8 MiB: past region 1. */
	put_be64(f + TSB_OFF + 8, 0xe000000000800080ull);
	/* One byte short. */
	check(f, FILE_SIZE - 1, &res);
	ck_assert(has("file.truncated", FILE_SIZE - 1));
	check(f, FILE_SIZE, &res);
	ck_assert(has("sparc64.tte-unreachable", TSB_OFF + 32 * 100));
	ck_assert(has("pmap.large-misaligned", TSB_OFF + 32 * 64));
	ck_assert(has("sparc64.tte-size", TSB_OFF + 32 * 20));
	ck_assert(has("pmap.page-not-dumped", TSB_OFF + 0));
	free(f);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* portable                                                                */

static char tmpdir[] = "/tmp/check_sparc64.XXXXXX";

static void
write_file(const char *path, const uint8_t *b, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, b, n), (ssize_t)n);
	close(fd);
}

static uint8_t *
read_file(const char *path, size_t *n)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *b;
	long len;

	ck_assert_ptr_nonnull(fp);
	fseek(fp, 0, SEEK_END);
	len = ftell(fp);
	rewind(fp);
	b = malloc((size_t)len + 1);
	ck_assert_int_eq(fread(b, 1, (size_t)len, fp), (size_t)len);
	fclose(fp);
	*n = (size_t)len;
	return b;
}

/* Convert src (native or portable) to dst with write(). */
static void
convert(const char *src, const char *dst, int native)
{
	struct dk_dump *d;
	struct dk_sink *s = malloc(sizeof(*s));
	struct dk_err err;
	int fd;

	ck_assert_msg(dk_open(src, NULL, &d, &err) == DK_OK, "%s", err.msg);
	fd = open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ck_assert_int_ge(fd, 0);
	dk_sink_init(s, fd, dst);
	ck_assert_msg((native ? dk_native_write(d, s, &err) :
	    dk_elfmini_write(d, s, 0, &err)) == DK_OK, "%s", err.msg);
	close(fd);
	free(s);
	dk_close(d);
}

START_TEST(test_portable)
{
	static const struct {
		uint64_t va, pa, len;
		unsigned flags;
	} virt[] = {
		{ 0xc0002000, 0x6000, 0x2000, PF_R | PF_W },
		{ 0xc0010000, 0x20000, 0x10000, PF_R | PF_W },
		{ 0xc0080000, 0x100000, 0x80000, PF_R | PF_W },
		{ 0xc0400000, 0x0, 0x400000, PF_R | PF_X },
	};
	char nat[64], elf[80], back[80];
	uint8_t *f = make_dump(), *b, *e;
	size_t nb, ne, nphdr;
	uint64_t data = 0, info = UINT64_MAX, hdrnote = UINT64_MAX;
	Elf *el;
	GElf_Ehdr eh;
	GElf_Phdr ph;
	int fd;

	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	snprintf(nat, sizeof(nat), "%s/vmcore", tmpdir);
	snprintf(elf, sizeof(elf), "%s/vmcore.elf", tmpdir);
	snprintf(back, sizeof(back), "%s/vmcore.again", tmpdir);
	write_file(nat, f, FILE_SIZE);
	convert(nat, elf, 0);
	convert(elf, back, 1);
	b = read_file(back, &nb);
	ck_assert_uint_eq(nb, FILE_SIZE);
	ck_assert_msg(memcmp(b, f, FILE_SIZE) == 0, "rebuilt file differs");

	/* The portable file through libelf, against the spec. */
	ck_assert_uint_ne(elf_version(EV_CURRENT), EV_NONE);
	fd = open(elf, O_RDONLY);
	el = elf_begin(fd, ELF_C_READ, NULL);
	ck_assert_ptr_nonnull(gelf_getehdr(el, &eh));
	ck_assert_int_eq(eh.e_ident[EI_CLASS], ELFCLASS64);
	ck_assert_int_eq(eh.e_ident[EI_DATA], ELFDATA2MSB);
	ck_assert_uint_eq(eh.e_type, ET_CORE);
	ck_assert_uint_eq(eh.e_machine, 43);		/* EM_SPARCV9 */
	ck_assert_int_eq(elf_getphdrnum(el, &nphdr), 0);
	ck_assert_uint_eq(nphdr, 1 + 2 + DK_ARRAY_LEN(virt));
	ck_assert_ptr_nonnull(gelf_getphdr(el, 0, &ph));
	ck_assert_uint_eq(ph.p_type, PT_NOTE);
	/* Notes: find the info record and the source header. */
	e = read_file(elf, &ne);
	for (uint64_t o = ph.p_offset; o < ph.p_offset + ph.p_filesz; ) {
		uint32_t namesz = (uint32_t)(get_be64(e + o) >> 32);
		uint32_t descsz = (uint32_t)get_be64(e + o);
		uint32_t type = (uint32_t)(get_be64(e + o + 4) & 0xffffffff);
		uint64_t desc;

		desc = o + 12 + ((namesz + 3) & ~3u);
		if (type == 0x444b0001)
			info = desc;
		if (type == 0x444b0002) {
			hdrnote = desc;
			ck_assert_uint_eq(descsz, HDR);
		}
		o = desc + ((descsz + 3) & ~3u);
	}
	ck_assert_uint_ne(info, UINT64_MAX);
	ck_assert_uint_ne(hdrnote, UINT64_MAX);
	/* version 1, source_format 2 (sparc64), page size 8192, "sparc64" */
	ck_assert_uint_eq(get_be64(e + info), 0x0000000100000002ull);
	ck_assert_uint_eq(get_be64(e + info + 8) & 0xffffffff, 8192);
	ck_assert_str_eq((const char *)e + info + 16, "sparc64");
	data = get_be64(e + info + 88);
	ck_assert_uint_eq(data % 8192, 0);
	ck_assert_uint_eq(get_be64(e + info + 96), (RA_SIZE + RB_SIZE) / PG);
	ck_assert_uint_eq(get_be64(e + info + 112), 2);	/* nphys */
	/* The header blob, garbage and padding byte included. */
	ck_assert(memcmp(e + hdrnote, f, HDR) == 0);
	ck_assert_uint_eq(e[hdrnote + 36], 0xde);
	ck_assert_uint_eq(e[hdrnote + 500], 0x5a);
	ck_assert_uint_eq(ne, data + RA_SIZE + RB_SIZE);
	/* Physical segments in PA order: region 1 (data + 0x8000), then 0. */
	ck_assert_ptr_nonnull(gelf_getphdr(el, 1, &ph));
	ck_assert_uint_eq(ph.p_paddr, 0);
	ck_assert_uint_eq(ph.p_vaddr, 0xfffff80000000000ull);
	ck_assert_uint_eq(ph.p_offset, data + RA_SIZE);
	ck_assert_uint_eq(ph.p_filesz, RB_SIZE);
	ck_assert_uint_eq(ph.p_align, 8192);
	ck_assert_ptr_nonnull(gelf_getphdr(el, 2, &ph));
	ck_assert_uint_eq(ph.p_paddr, RA_PA);
	ck_assert_uint_eq(ph.p_offset, data);
	ck_assert_uint_eq(ph.p_filesz, RA_SIZE);
	for (size_t i = 0; i < DK_ARRAY_LEN(virt); i++) {
		ck_assert_ptr_nonnull(gelf_getphdr(el, 3 + (int)i, &ph));
		ck_assert_uint_eq(ph.p_type, PT_LOAD);
		ck_assert_uint_eq(ph.p_vaddr, virt[i].va);
		ck_assert_uint_eq(ph.p_paddr, virt[i].pa);
		ck_assert_uint_eq(ph.p_filesz, virt[i].len);
		ck_assert_uint_eq(ph.p_flags, virt[i].flags);
		/* Region 1 starts at data + 0x8000 and at PA 0. */
		ck_assert_uint_eq(ph.p_offset, data + RA_SIZE + virt[i].pa);
		ck_assert_uint_eq(get_be64(e + ph.p_offset),
		    word_at(virt[i].pa));
	}
	elf_end(el);
	close(fd);
	/* The portable file opens as a sparc64 dump and translates alike. */
	{
		struct dk_dump *d;
		struct dk_err err;
		uint64_t pa;

		ck_assert_msg(dk_open(elf, NULL, &d, &err) == DK_OK, "%s",
		    err.msg);
		ck_assert_str_eq(dk_info(d)->format, "portable-elf");
		ck_assert_str_eq(dk_info(d)->arch, "sparc64");
		for (size_t i = 0; i < DK_ARRAY_LEN(xlat); i++) {
			ck_assert_int_eq(dk_kvtop(d, xlat[i].va, &pa, &err),
			    DK_OK);
			ck_assert_uint_eq(pa, xlat[i].pa);
		}
		dk_close(d);
	}
	unlink(nat);
	unlink(elf);
	unlink(back);
	rmdir(tmpdir);
	free(b);
	free(e);
	free(f);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* fixture                                                                 */

START_TEST(test_fixture)
{
	struct fx_opts o = { .arch = "sparc64", .variant = _i ? "new" : "old",
	    .mem = 64u << 20, .seed = 7 };
	char path[64], elf[80], back[80];
	uint8_t want[64], got[64], *a, *b;
	struct fx_sp64 f;
	struct dk_dump *d;
	struct dk_err err;
	size_t na, nb;
	uint64_t pa;

	ck_assert_int_eq(fx_sp64_build(&o, &f, &err), DK_OK);
	snprintf(path, sizeof(path), "/tmp/check_sparc64.fx.%d.%d",
	    (int)getpid(), _i);
	snprintf(elf, sizeof(elf), "%s.elf", path);
	snprintf(back, sizeof(back), "%s.again", path);
	ck_assert_msg(fx_sp64_write(&f, path, 1, &err) == DK_OK, "%s",
	    err.msg);
	ck_assert_msg(dk_open(path, NULL, &d, &err) == DK_OK, "%s", err.msg);
	/* Bytes 36..39: garbage (old) or zero (new), never read. */
	a = read_file(path, &na);
	if (_i)
		ck_assert_uint_eq(a[36] | a[37] | a[38] | a[39], 0);
	else
		ck_assert_uint_ne(a[36] | a[37] | a[38] | a[39], 0);
	/* The layout docs/fixture-pattern.md gives, whatever the model. */
	ck_assert_int_eq(dk_kvtop(d, 0xc0012340, &pa, &err), DK_OK);
	ck_assert_uint_eq(pa, 0x812340);		/* 4M at 0x800000 */
	ck_assert_int_eq(dk_kvtop(d, 0xc047e008, &pa, &err), DK_OK);
	ck_assert_uint_eq(pa, 0xc7e008);		/* 512K at 0xc00000 */
	ck_assert_int_eq(dk_kvtop(d, 0xc0490000, &pa, &err), DK_OK);
	ck_assert_uint_eq(pa, (64u << 20) / 2 + (32u << 20) + 0x20000);
	ck_assert_int_eq(dk_read_pa(d, 0x400000 + 32 * 0, got, 16, &err),
	    DK_OK);			/* slot 0: the 4M TTE's first copy */
	ck_assert_uint_eq(get_be64(got), (0xc0000000ull >> 22) << 2 | 3);
	ck_assert_uint_eq(get_be64(got + 8) >> 61, 4 | 3);
	/* Every TTE's first, middle and last 8 KiB page. */
	for (size_t i = 0; i < f.ntte; i++) {
		uint64_t bytes = SP64_TTE_BYTES(f.tte[i].size);
		uint64_t vas[3] = { f.tte[i].va, f.tte[i].va + bytes / 2,
		    f.tte[i].va + bytes - 64 };

		for (int k = 0; k < 3; k++) {
			ck_assert_msg(dk_kvtop(d, vas[k], &pa, &err) == DK_OK,
			    "%s", err.msg);
			ck_assert_uint_eq(pa, f.tte[i].pa + (vas[k] -
			    f.tte[i].va));
			ck_assert_int_eq(dk_read_va(d, vas[k], got, 64, &err),
			    DK_OK);
			dk_pattern_fill(7, pa, want, 64);
			if (pa >= f.tsb_pa && pa < f.tsb_pa + f.tsb_size)
				memcpy(want, f.tsb + (pa - f.tsb_pa), 64);
			ck_assert(memcmp(got, want, 64) == 0);
		}
	}
	dk_close(d);
	convert(path, elf, 0);
	convert(elf, back, 1);
	/* dumpcheck: clean against the pattern, one digest for both files. */
	{
		struct dk_check_opts co = { .pattern = 1, .seed = 7,
		    .checksum = 1, .finding = keep };
		struct dk_check_result r1, r2;

		nfound = 0;
		ck_assert_int_eq(dk_check(path, &co, &r1, &err), DK_OK);
		ck_assert_int_eq(dk_check(elf, &co, &r2, &err), DK_OK);
		ck_assert_msg(nfound == 0, "%zu findings, first %s", nfound,
		    nfound ? found[0].code : "-");
		ck_assert_int_eq(r1.has_checksum && r2.has_checksum, 1);
		ck_assert_uint_eq(r1.checksum[0], r2.checksum[0]);
		ck_assert_uint_eq(r1.checksum[1], r2.checksum[1]);
		ck_assert_uint_eq(r1.bytes_read, 64u << 20);
		co.seed = 8;
		nfound = 0;
		ck_assert_int_eq(dk_check(path, &co, &r1, &err), DK_OK);
		ck_assert_uint_ge(r1.nerrors, 1);
		ck_assert_str_eq(found[0].code, "content.pattern-mismatch");
	}
	b = read_file(back, &nb);
	ck_assert_uint_eq(na, nb);
	ck_assert(memcmp(a, b, na) == 0);
	unlink(path);
	unlink(elf);
	unlink(back);
	free(a);
	free(b);
	fx_sp64_free(&f);
}
END_TEST

/* Each dumpgen --corrupt kind: dumpcheck's code at the kind's offset. */
START_TEST(test_fixture_corrupt)
{
	const struct fx_corruption *k = fx_corruption_at(_i, FX_SPARC64);
	struct fx_opts o = { .arch = "sparc64", .mem = 32u << 20, .seed = 3,
	    .sparse = 1 };
	struct dk_check_opts co = { .arch = "sparc64", .finding = keep };
	struct dk_check_result res;
	char path[64];
	struct fx_sp64 f;
	struct dk_err err;
	uint64_t off;

	ck_assert_ptr_nonnull(k);
	ck_assert_int_eq(fx_sp64_build(&o, &f, &err), DK_OK);
	snprintf(path, sizeof(path), "/tmp/check_sparc64.k.%d.%d",
	    (int)getpid(), _i);
	ck_assert_msg(fx_sp64_write_corrupt(&f, &k, 1, path, 1, &off, &err) ==
	    DK_OK, "%s", err.msg);
	nfound = 0;
	ck_assert_msg(dk_check(path, &co, &res, &err) == DK_OK, "%s",
	    err.msg);
	ck_assert_msg(has(k->codes, off), "%s: no %s at %#jx (first: %s)",
	    k->name, k->codes, (uintmax_t)off, nfound ? found[0].code : "-");
	ck_assert_uint_ge(res.nerrors + res.nwarnings, 1);
	unlink(path);
	fx_sp64_free(&f);
}
END_TEST

static Suite *
sparc64_suite(void)
{
	Suite *s = suite_create("sparc64");
	TCase *rd = tcase_create("read");
	TCase *er = tcase_create("errors");
	TCase *ck = tcase_create("check");
	TCase *pt = tcase_create("portable");
	TCase *fx = tcase_create("fixture");

	tcase_add_test(rd, test_read);
	tcase_add_loop_test(er, test_errors, 0, DK_ARRAY_LEN(breaks));
	tcase_add_test(er, test_truncated);
	tcase_add_test(ck, test_check_clean);
	tcase_add_loop_test(ck, test_check_breaks, 0, DK_ARRAY_LEN(breaks));
	tcase_add_test(ck, test_check_tsb);
	tcase_add_test(pt, test_portable);
	tcase_add_loop_test(fx, test_fixture, 0, 2);
	{
		int nk = 0;

		while (fx_corruption_at((size_t)nk, FX_SPARC64) != NULL)
			nk++;
		tcase_add_loop_test(fx, test_fixture_corrupt, 0, nk);
	}
	tcase_set_timeout(fx, 120);
	tcase_set_timeout(pt, 120);
	suite_add_tcase(s, rd);
	suite_add_tcase(s, er);
	suite_add_tcase(s, ck);
	suite_add_tcase(s, pt);
	suite_add_tcase(s, fx);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(sparc64_suite());
	int nfailed;

	srunner_run_all(sr, CK_ENV);
	nfailed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfailed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
