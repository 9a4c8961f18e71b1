/*
 * check_linux.c -- the Linux kernel through its dumps (formats/linux.c):
 * kernel virtual addresses and the kernel log.
 *
 *  - "real": a real crash (Debian 6.1 x86_64, dumped by makedumpfile
 *    1.7.2 -c -d 31, reduced to the pages makedumpfile --dump-dmesg and
 *    these reads need: tests/data/linux/README).  The log equals
 *    makedumpfile --dump-dmesg's output byte for byte; kernel virtual
 *    reads at VMCOREINFO's symbols equal what libkdumpfile 0.5.1 read
 *    there, and translate to the PA derived by hand (va -
 *    __START_KERNEL_map + phys_base for the kernel image, va -
 *    0xffff888000000000 in the direct map of a 4-level kernel without
 *    KASLR), whose physical bytes libkdumpfile read too; the errors
 *    of addresses that are not mapped, not canonical or whose tables
 *    were left out name the VA, the level and the entry's PA.
 *  - "walks": page tables written here entry by entry from the
 *    architecture manuals' descriptor formats (Intel SDM vol. 3 4.5,
 *    Arm ARM VMSAv8-64 descriptors, RISC-V privileged Sv39/48/57) into
 *    small kdump files with VMCOREINFO, translated by dk_kvtop: x86_64
 *    5-level with a phys_base, aarch64 4 KiB (39 and 48 VA bits), 16
 *    KiB (47), 64 KiB (48, 52-bit output addresses, a 52-bit kernel on
 *    48-bit TTBR1), riscv64 Sv39 (from VA_BITS and from PAGE_OFFSET),
 *    Sv48, Sv57, s390x DAT from region-third and region-second roots
 *    (the identity map and Linux 6.10's KERNELOFFPHYS), powerpc64
 *    radix trees of 64 and 4 KiB pages and the hash MMU's linear map,
 *    arm short descriptors from PHYS_OFFSET;
 *    what is not translated (FEAT_LPA2, the hash MMU's vmalloc space,
 *    missing keys) is DK_EUNSUP naming it.
 *  - "log": the three log layouts written here (fuzz/linux_ring.h): the
 *    lockless ring with wrapped blocks, 62-bit ids that wrap, every
 *    descriptor state, newlines, escapes; struct printk_log records
 *    with the wrap marker; the plain ring wrapped.  The expected text
 *    is typed in, as makedumpfile's rules make it.  Damaged rings:
 *    ECORRUPT, ELIMIT or EUNSUP naming what, never a hang.
 *
 * CHECK_LINUX_SEEDS=DIR writes the fuzz target's seeds there.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "dkcheck.h"
#include "linux.h"
#include "private.h"
#include "../fuzz/linux_ring.h"

#define	DATA		"tests/data/linux/"
#define	REAL		DATA "real-x86_64.kdump.xz"

#define	HAS(msg, s)	ck_assert_msg(strstr((msg), (s)) != NULL, \
			    "'%s' not in: %s", (s), (msg))

/* ---------------------------------------------------------------------- */
/* Helpers.                                                                */

/* The whole of file path, NUL-terminated; *n its length. */
static char *
slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *b;
	long len;

	ck_assert_msg(f != NULL, "%s (run from the top of the tree)", path);
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	rewind(f);
	b = malloc((size_t)len + 1);
	ck_assert_ptr_nonnull(b);
	ck_assert_uint_eq(fread(b, 1, (size_t)len, f), (size_t)len);
	b[len] = '\0';
	fclose(f);
	*n = (size_t)len;
	return b;
}

/* The log as one string. */
struct text {
	char	*b;
	size_t	 n, cap;
};

static int
text_put(void *arg, const char *p, size_t n)
{
	struct text *t = arg;

	if (t->n + n + 1 > t->cap) {
		t->cap = (t->n + n + 1) * 2;
		t->b = realloc(t->b, t->cap);
		ck_assert_ptr_nonnull(t->b);
	}
	memcpy(t->b + t->n, p, n);
	t->n += n;
	t->b[t->n] = '\0';
	return 0;
}

static enum dk_status
log_of(struct dk_dump *d, struct text *t, struct dk_err *err)
{
	memset(t, 0, sizeof(*t));
	text_put(t, "", 0);
	return dk_linux_log(d, text_put, t, err);
}

/* Memory written by hand and the kdump file of it. */
struct hm {
	uint8_t		*mem;
	unsigned	 n;
	uint32_t	 psz;
	uint8_t		*file;
};

static void
hm_new(struct hm *m, unsigned n, uint32_t psz)
{
	m->n = n;
	m->psz = psz;
	m->mem = calloc(n, psz);
	m->file = NULL;
	ck_assert_ptr_nonnull(m->mem);
}

/* The 8-byte entry idx of the table at pa. */
static void
ent(struct hm *m, uint64_t pa, unsigned idx, uint64_t v)
{
	ck_assert_uint_lt(pa + 8 * idx + 8, (uint64_t)m->n * m->psz + 1);
	lr_le(m->mem + pa + 8 * idx, 8, v);
}

static struct dk_dump *
hm_open(struct hm *m, const char *machine, const char *vmci)
{
	struct dk_dump *d = NULL;
	struct dk_err err;
	size_t len = LR_FILE_SIZE(m->n, m->psz);

	free(m->file);
	m->file = malloc(len);
	ck_assert_ptr_nonnull(m->file);
	lr_kdump_of(m->mem, m->n, m->psz, machine, vmci, strlen(vmci),
	    m->file);
	ck_assert_msg(dk_open_mem(m->file, len, "hand.kdump", NULL, &d,
	    &err) == DK_OK, "%s", err.msg);
	return d;
}

static void
hm_free(struct hm *m)
{
	free(m->mem);
	free(m->file);
}

static void
kv_ok(struct dk_dump *d, uint64_t va, uint64_t want)
{
	struct dk_err err;
	uint64_t pa = 0;

	ck_assert_msg(dk_kvtop(d, va, &pa, &err) == DK_OK, "va %#jx: %s",
	    (uintmax_t)va, err.msg);
	ck_assert_msg(pa == want, "va %#jx: pa %#jx, expected %#jx",
	    (uintmax_t)va, (uintmax_t)pa, (uintmax_t)want);
}

static void
kv_fails(struct dk_dump *d, uint64_t va, enum dk_status code,
    const char *says)
{
	struct dk_err err;
	uint64_t pa;

	ck_assert_int_eq(dk_kvtop(d, va, &pa, &err), code);
	HAS(err.msg, says);
}

/* ---------------------------------------------------------------------- */
/* The real crash.                                                         */

/* The log equals makedumpfile --dump-dmesg's, byte for byte. */
START_TEST(test_real_dmesg)
{
	struct dk_dump *d = NULL;
	struct dk_err err;
	struct text t;
	size_t n, got;
	char *want = slurp(DATA "real-x86_64.dmesg", &n), small[100];
	char *big;

	ck_assert_msg(dk_open(REAL, NULL, &d, &err) == DK_OK, "%s", err.msg);
	ck_assert_msg(log_of(d, &t, &err) == DK_OK, "%s", err.msg);
	ck_assert_uint_eq(t.n, n);
	ck_assert(memcmp(t.b, want, n) == 0);
	/* Through the format's read_log: whole, and its first 100 bytes. */
	big = malloc(n + 10);
	ck_assert_int_eq(dk_read_msgbuf(d, big, n + 10, &got, &err), DK_OK);
	ck_assert_uint_eq(got, n);
	ck_assert(memcmp(big, want, n) == 0);
	ck_assert_int_eq(dk_read_msgbuf(d, small, sizeof(small), &got, &err),
	    DK_OK);
	ck_assert_uint_eq(got, sizeof(small));
	ck_assert(memcmp(small, want, sizeof(small)) == 0);
	/* 409 records, the first and the panic among them. */
	ck_assert_ptr_nonnull(strstr(t.b, "[    0.000000] Linux version "
	    "6.1.0-57-amd64 (debian-kernel@lists.debian.org)"));
	ck_assert_ptr_nonnull(strstr(t.b, "[    6.199587] Kernel panic - not "
	    "syncing: sysrq triggered crash\n"));
	free(big);
	free(t.b);
	free(want);
	dk_close(d);
}
END_TEST

/*
 * Kernel virtual reads at VMCOREINFO's symbols (tests/data/linux/README):
 * the PA as derived by hand, and the 16 bytes libkdumpfile 0.5.1 read at
 * the VA (KDUMP_KVADDR) and at the PA (KDUMP_MACHPHYSADDR).
 */
START_TEST(test_real_kvtop)
{
	static const struct {
		const char	*what;
		uint64_t	 va, pa;
		uint8_t		 b[16];
	} f[] = {
		{ "SYMBOL(init_uts_ns): sysname", 0xffffffff82bfb000ull,
		  0x2bfb000, "Linux" },
		{ "init_uts_ns.name.release (+130)", 0xffffffff82bfb082ull,
		  0x2bfb082, "6.1.0-57-amd64" },
		{ "SYMBOL(_stext)", 0xffffffff81000000ull, 0x1000000,
		  { 0x48, 0x8d, 0x25, 0x51, 0x3f, 0xa0, 0x01, 0x48, 0x8d,
		    0x3d, 0xf2, 0xff, 0xff, 0xff, 0xb9, 0x01 } },
		{ "SYMBOL(mem_section), in the direct map",
		  0xffff888017cab000ull, 0x17cab000,
		  { 0x00, 0x60, 0xfd, 0x17, 0x80, 0x88, 0xff, 0xff } },
		{ "SYMBOL(prb): &printk_rb_static", 0xffffffff82a643e0ull,
		  0x2a643e0, { 0x00, 0x44, 0xa6, 0x82, 0xff, 0xff, 0xff,
		    0xff } },
		{ "init_top_pgt entries 510 and 511", 0xffffffff82a10ff0ull,
		  0x2a10ff0, { 0x67, 0x40, 0x31, 0x03, 0, 0, 0, 0, 0x67,
		    0x50, 0xa1, 0x02 } },
		{ "the text data ring's first block", 0xffffffff83f8ad18ull,
		  0x3f8ad18, { 0x00, 0xf0, 0xff, 0xff, 0, 0, 0, 0, 'L', 'i',
		    'n', 'u', 'x', ' ', 'v', 'e' } },
	};
	struct dk_dump *d = NULL;
	struct dk_err err;
	uint8_t b[16], p[16];
	uint64_t pa;

	ck_assert_msg(dk_open(REAL, NULL, &d, &err) == DK_OK, "%s", err.msg);
	for (size_t i = 0; i < DK_ARRAY_LEN(f); i++) {
		/* The kernel image: va - 0xffffffff80000000 + phys_base 0. */
		if (f[i].va >= 0xffffffff80000000ull)
			ck_assert_uint_eq(f[i].pa, f[i].va -
			    0xffffffff80000000ull);
		else
			ck_assert_uint_eq(f[i].pa, f[i].va -
			    0xffff888000000000ull);
		ck_assert_msg(dk_kvtop(d, f[i].va, &pa, &err) == DK_OK,
		    "%s: %s", f[i].what, err.msg);
		ck_assert_msg(pa == f[i].pa, "%s: pa %#jx", f[i].what,
		    (uintmax_t)pa);
		ck_assert_int_eq(dk_read_va(d, f[i].va, b, 16, &err), DK_OK);
		ck_assert_int_eq(dk_read_pa(d, f[i].pa, p, 16, &err), DK_OK);
		ck_assert_msg(memcmp(b, f[i].b, 16) == 0, "%s", f[i].what);
		ck_assert(memcmp(p, f[i].b, 16) == 0);
	}
	/* The printk_ringbuffer is printk_rb_static, as VMCOREINFO says. */
	ck_assert_str_eq(dk_attr_find(d, "SYMBOL(printk_rb_static)")->str,
	    "ffffffff82a64400");
	/* Not canonical; user space (init_top_pgt[0] empty). */
	kv_fails(d, 0x0000800000000000ull, DK_ENOTMAPPED, "not canonical");
	kv_fails(d, 0x1000, DK_ENOTMAPPED, "virtual address 0x1000: not "
	    "mapped (PML4E 0 at pa 0x2a10000 has no PG_V)");
	/* vmalloc space: its PDPT page was left out of the reduced file. */
	kv_fails(d, 0xffffc90000000000ull, DK_ENOTDUMPED, "virtual address "
	    "0xffffc90000000000: PDPE: physical address 0x4800000");
	dk_close(d);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Walks on tables written here.                                           */

/*
 * x86_64, 5-level (NUMBER(pgtable_l5_enabled)=1), phys_base 0x1000:
 * init_top_pgt at VA 0xffffffff80000000 is at PA 0x1000.  PML5 0x1000,
 * PML4 0x2000, PDPT 0x3000, PD 0x4000, PT 0x5000; entries P|RW|A|D
 * (0x63), a 1 GiB page with PS (0xe3).  VA bits: 56..48 PML5, 47..39
 * PML4, 38..30 PDPT, 29..21 PD, 20..12 PT.
 *  - 0xff11000000007abc: PML5 0x111 (273), PML4 0, PDPT 0, PD 0, PT 7
 *    -> the page at 0x1234000: pa 0x1234abc;
 *  - 0xff11000040000123: PDPT 1, a 1 GiB page at 0x40000000.
 */
START_TEST(test_walk_amd64_5level)
{
	static const char vmci[] =
	    "SYMBOL(init_top_pgt)=ffffffff80000000\n"
	    "NUMBER(phys_base)=4096\nNUMBER(pgtable_l5_enabled)=1\n";
	struct dk_dump *d;
	struct hm m;

	hm_new(&m, 8, 4096);
	ent(&m, 0x1000, 273, 0x2000 | 0x63);
	ent(&m, 0x2000, 0, 0x3000 | 0x63);
	ent(&m, 0x3000, 0, 0x4000 | 0x63);
	ent(&m, 0x3000, 1, 0x40000000 | 0xe3);
	ent(&m, 0x4000, 0, 0x5000 | 0x63);
	ent(&m, 0x5000, 7, 0x1234000 | 0x63);
	d = hm_open(&m, "x86_64", vmci);
	kv_ok(d, 0xff11000000007abcull, 0x1234abc);
	kv_ok(d, 0xff11000040000123ull, 0x40000123);
	kv_fails(d, 0xff11000000008000ull, DK_ENOTMAPPED, "PTE 0 at pa "
	    "0x5040 has no PG_V");
	/* Canonical in 5 levels only from bit 56 up. */
	kv_fails(d, 0x0100000000000000ull, DK_ENOTMAPPED, "bits 63..57");
	dk_close(d);
	hm_free(&m);
}
END_TEST

/* The aarch64 VMCOREINFO of a kernel with swapper_pg_dir at PA root. */
static void
arm64_vmci(char *b, size_t n, unsigned pagesize, const char *bits,
    uint64_t root)
{
	snprintf(b, n, "PAGESIZE=%u\n%sSYMBOL(swapper_pg_dir)=%jx\n"
	    "NUMBER(kimage_voffset)=0xffff800010000000\n", pagesize, bits,
	    (uintmax_t)(0xffff800010000000ull + root));
}

/*
 * aarch64, 4 KiB granule.  Descriptors: bits 1:0 = 11 a table (levels
 * 0-2) or a page (level 3), 01 a block; AF is bit 10, SH bits 9:8.
 *  - 48 VA bits (TCR_EL1_T1SZ 16): L0 0x1000, L1 0x2000, L2 0x3000, L3
 *    0x4000; VA = 0xffff000000000000 | i0 << 39 | i1 << 30 | i2 << 21 |
 *    i3 << 12 | offset.  (256, 2, 3, 4, 0x567) -> the page 0x40005000;
 *    (256, 2, 5) a 2 MiB block at 0x80200000; (256, 7) a 1 GiB block at
 *    0xc0000000; (256, 2, 3, 5) an invalid page descriptor.
 *  - 39 VA bits (VA_BITS only): three levels from L1 at 0x1000; VA =
 *    0xffffff8000000000 | i1 << 30 | i2 << 21 | i3 << 12.
 */
START_TEST(test_walk_arm64_4k)
{
	const uint64_t b48 = 0xffff000000000000ull, b39 = 0xffffff8000000000ull;
	struct dk_dump *d;
	struct hm m;
	char vmci[512];

	hm_new(&m, 8, 4096);
	ent(&m, 0x1000, 256, 0x2000 | 3);
	ent(&m, 0x2000, 2, 0x3000 | 3);
	ent(&m, 0x2000, 7, 0xc0000000 | 0x401);
	ent(&m, 0x3000, 3, 0x4000 | 3);
	ent(&m, 0x3000, 5, 0x80200000 | 0x401);
	ent(&m, 0x4000, 4, 0x40005000 | 0x703);
	arm64_vmci(vmci, sizeof(vmci), 4096, "NUMBER(VA_BITS)=48\n"
	    "NUMBER(TCR_EL1_T1SZ)=16\n", 0x1000);
	d = hm_open(&m, "aarch64", vmci);
	kv_ok(d, b48 | 256ull << 39 | 2ull << 30 | 3 << 21 | 4 << 12 | 0x567,
	    0x40005567);
	kv_ok(d, b48 | 256ull << 39 | 2ull << 30 | 5 << 21 | 0x12345,
	    0x80212345);
	kv_ok(d, b48 | 256ull << 39 | 7ull << 30 | 0x3456789, 0xc3456789);
	kv_fails(d, b48 | 256ull << 39 | 2ull << 30 | 3 << 21 | 5 << 12,
	    DK_ENOTMAPPED, "level 3 descriptor 0 at pa 0x4028 is invalid");
	kv_fails(d, 0x0000400000000000ull, DK_ENOTMAPPED, "not a kernel "
	    "(TTBR1) address");
	dk_close(d);
	hm_free(&m);

	hm_new(&m, 8, 4096);
	ent(&m, 0x1000, 1, 0x2000 | 3);
	ent(&m, 0x2000, 2, 0x3000 | 3);
	ent(&m, 0x3000, 3, 0x12345000 | 0x403);
	arm64_vmci(vmci, sizeof(vmci), 4096, "NUMBER(VA_BITS)=39\n", 0x1000);
	d = hm_open(&m, "aarch64", vmci);
	kv_ok(d, b39 | 1ull << 30 | 2 << 21 | 3 << 12 | 0xabc, 0x12345abc);
	/* 0xffff800000000000 has bit 39..47 clear: not TTBR1 with 39. */
	kv_fails(d, 0xffff800000000000ull, DK_ENOTMAPPED, "bits 63..39");
	dk_close(d);
	hm_free(&m);

	/* 52 VA bits with 4 KiB pages (FEAT_LPA2): said, not guessed. */
	hm_new(&m, 2, 4096);
	arm64_vmci(vmci, sizeof(vmci), 4096, "NUMBER(VA_BITS)=52\n"
	    "NUMBER(TCR_EL1_T1SZ)=12\n", 0x1000);
	d = hm_open(&m, "aarch64", vmci);
	kv_fails(d, 0xfff0000000000000ull, DK_EUNSUP, "FEAT_LPA2");
	dk_close(d);
	hm_free(&m);
}
END_TEST

/*
 * aarch64, 16 KiB granule, 47 VA bits: three levels of 11 bits, L1
 * (bits 46..36) at 0x4000, L2 (35..25) at 0x8000, L3 (24..14) at
 * 0xc000; a page at 0x40010000 and a 32 MiB block (level 2) at
 * 0x82000000.
 */
START_TEST(test_walk_arm64_16k)
{
	const uint64_t b = 0xffff800000000000ull;
	struct dk_dump *d;
	struct hm m;
	char vmci[512];

	hm_new(&m, 4, 16384);
	ent(&m, 0x4000, 3, 0x8000 | 3);
	ent(&m, 0x8000, 5, 0xc000 | 3);
	ent(&m, 0x8000, 6, 0x82000000 | 0x401);
	ent(&m, 0xc000, 7, 0x40010000 | 0x403);
	arm64_vmci(vmci, sizeof(vmci), 16384, "NUMBER(VA_BITS)=47\n"
	    "NUMBER(TCR_EL1_T1SZ)=17\n", 0x4000);
	d = hm_open(&m, "aarch64", vmci);
	kv_ok(d, b | 3ull << 36 | 5ull << 25 | 7 << 14 | 0x3abc, 0x40013abc);
	kv_ok(d, b | 3ull << 36 | 6ull << 25 | 0x123456, 0x82123456);
	kv_fails(d, b | 4ull << 36, DK_ENOTMAPPED, "level 1 descriptor 0");
	dk_close(d);
	hm_free(&m);
}
END_TEST

/*
 * aarch64, 64 KiB granule: L1 (bits 47..42; 51..42 with 52 VA bits) at
 * 0x10000, L2 (41..29) at 0x20000, L3 (28..16) at 0x30000.  The page
 * descriptor holds OA[47:16] and, in bits 15:12, OA[51:48] (FEAT_LPA):
 * 0x12340000 with 0xa there is PA 0xa000012340000.  A 512 MiB block
 * at level 2.  A kernel built for 52 VA bits that runs with 48 (T1SZ
 * 16) has a 1024-entry L1 and TTBR1 64 entries from its end: VA bits
 * 47..42 = 40 is its entry 960 + 40 = 1000, where a 52-bit TTBR1 finds
 * the same (sign-extended) VA too.
 */
START_TEST(test_walk_arm64_64k)
{
	const uint64_t va = 0xffff000000000000ull | 40ull << 42 | 9ull << 29 |
	    11ull << 16 | 0x4321;
	const uint64_t blk = 0xffff000000000000ull | 40ull << 42 |
	    10ull << 29 | 0x1234567;
	struct dk_dump *d;
	struct hm m;
	char vmci[512];

	hm_new(&m, 4, 65536);
	ent(&m, 0x10000, 40, 0x20000 | 3);
	ent(&m, 0x20000, 9, 0x30000 | 3);
	ent(&m, 0x20000, 10, 0x60000000 | 0x401);
	ent(&m, 0x30000, 11, 0x12340000 | 0xa << 12 | 0x403);
	arm64_vmci(vmci, sizeof(vmci), 65536, "NUMBER(VA_BITS)=48\n",
	    0x10000);
	d = hm_open(&m, "aarch64", vmci);
	kv_ok(d, va, 0xa000012344321ull);
	kv_ok(d, blk, 0x61234567);
	dk_close(d);

	/* The 52-bit kernel: entry 40 empty, entry 1000 the one. */
	ent(&m, 0x10000, 40, 0);
	ent(&m, 0x10000, 1000, 0x20000 | 3);
	arm64_vmci(vmci, sizeof(vmci), 65536, "NUMBER(VA_BITS)=52\n"
	    "NUMBER(TCR_EL1_T1SZ)=16\n", 0x10000);
	d = hm_open(&m, "aarch64", vmci);
	kv_ok(d, va, 0xa000012344321ull);
	dk_close(d);
	arm64_vmci(vmci, sizeof(vmci), 65536, "NUMBER(VA_BITS)=52\n"
	    "NUMBER(TCR_EL1_T1SZ)=12\n", 0x10000);
	d = hm_open(&m, "aarch64", vmci);
	kv_ok(d, va, 0xa000012344321ull);
	kv_ok(d, blk, 0x61234567);
	dk_close(d);
	hm_free(&m);
}
END_TEST

/* The riscv64 VMCOREINFO: swapper_pg_dir at PA 0x1000. */
static void
riscv_vmci(char *b, size_t n, const char *mode)
{
	snprintf(b, n, "PAGESIZE=4096\nSYMBOL(swapper_pg_dir)=ffffffff80001000"
	    "\nNUMBER(va_kernel_pa_offset)=0xffffffff80000000\n%s", mode);
}

/* A PTE: the PPN of pa in bits 53..10 and the flags. */
#define	PTE(pa, fl)	((((uint64_t)(pa)) >> 12) << 10 | (fl))
#define	RV_PTR		0x01u		/* V: a pointer */
#define	RV_RWX		0xcfu		/* V R W X A D */
#define	RV_R		0xc3u		/* V R A D */

/*
 * riscv64 Sv39: VPN[2] bits 38..30, VPN[1] 29..21, VPN[0] 20..12, the
 * VA sign-extended from bit 38.  Root 0x1000, then 0x2000, 0x3000.
 *  - (300, 3, 4) a 4 KiB leaf at 0x80204000; (300, 5) a 2 MiB megapage
 *    at 0x80400000; (301) a 1 GiB gigapage at 0xc0000000; (300, 6) a
 *    megapage at 0x80401000, misaligned; (300, 3, 5) a pointer at the
 *    last level.
 */
START_TEST(test_walk_riscv)
{
	const uint64_t b39 = ~0ull << 39, b48 = ~0ull << 48,
	    b57 = ~0ull << 57;
	static const char *const how[] = { "NUMBER(VA_BITS)=39\n",
	    "NUMBER(PAGE_OFFSET)=0xffffffd800000000\n"
	    "NUMBER(VMEMMAP_START)=0xffffffc600000000\n" };
	struct dk_dump *d;
	struct hm m;
	char vmci[512];

	for (size_t k = 0; k < DK_ARRAY_LEN(how); k++) {
		hm_new(&m, 8, 4096);
		ent(&m, 0x1000, 300, PTE(0x2000, RV_PTR));
		ent(&m, 0x1000, 301, PTE(0xc0000000, RV_RWX));
		ent(&m, 0x2000, 3, PTE(0x3000, RV_PTR));
		ent(&m, 0x2000, 5, PTE(0x80400000, RV_R));
		ent(&m, 0x2000, 6, PTE(0x80401000, RV_R));
		ent(&m, 0x3000, 4, PTE(0x80204000, RV_RWX));
		ent(&m, 0x3000, 5, PTE(0x5000, RV_PTR));
		riscv_vmci(vmci, sizeof(vmci), how[k]);
		d = hm_open(&m, "riscv64", vmci);
		kv_ok(d, b39 | 300ull << 30 | 3 << 21 | 4 << 12 | 0x9ab,
		    0x802049ab);
		kv_ok(d, b39 | 300ull << 30 | 5 << 21 | 0x12345, 0x80412345);
		kv_ok(d, b39 | 301ull << 30 | 0x1234567, 0xc1234567);
		kv_fails(d, b39 | 300ull << 30 | 6 << 21, DK_ENOTMAPPED,
		    "misaligned superpage");
		kv_fails(d, b39 | 300ull << 30 | 3 << 21 | 5 << 12,
		    DK_ENOTMAPPED, "a pointer, not a leaf");
		kv_fails(d, b39 | 300ull << 30 | 4 << 21, DK_ENOTMAPPED,
		    "level 1 PTE 0 at pa 0x2020: V is clear");
		kv_fails(d, 0x0000004000000000ull, DK_ENOTMAPPED,
		    "not canonical for riscv Sv39");
		dk_close(d);
		hm_free(&m);
	}

	/* Sv48: VPN[3] bits 47..39. */
	hm_new(&m, 8, 4096);
	ent(&m, 0x1000, 400, PTE(0x2000, RV_PTR));
	ent(&m, 0x2000, 1, PTE(0x3000, RV_PTR));
	ent(&m, 0x3000, 2, PTE(0x4000, RV_PTR));
	ent(&m, 0x4000, 3, PTE(0x87654000, RV_RWX));
	riscv_vmci(vmci, sizeof(vmci), "NUMBER(VA_BITS)=48\n");
	d = hm_open(&m, "riscv64", vmci);
	kv_ok(d, b48 | 400ull << 39 | 1ull << 30 | 2 << 21 | 3 << 12 | 0x21,
	    0x87654021);
	dk_close(d);
	hm_free(&m);

	/* Sv57: VPN[4] bits 56..48. */
	hm_new(&m, 8, 4096);
	ent(&m, 0x1000, 500, PTE(0x2000, RV_PTR));
	ent(&m, 0x2000, 6, PTE(0x3000, RV_PTR));
	ent(&m, 0x3000, 1, PTE(0x4000, RV_PTR));
	ent(&m, 0x4000, 2, PTE(0x5000, RV_PTR));
	ent(&m, 0x5000, 3, PTE(0x1000000000ull, RV_RWX));
	riscv_vmci(vmci, sizeof(vmci), "NUMBER(VA_BITS)=57\n");
	d = hm_open(&m, "riscv64", vmci);
	kv_ok(d, b57 | 500ull << 48 | 6ull << 39 | 1ull << 30 | 2 << 21 |
	    3 << 12 | 0xfff, 0x1000000fffull);
	dk_close(d);
	hm_free(&m);
}
END_TEST

/* The 8-byte big-endian entry idx of the table at pa. */
static void
ent_be(struct hm *m, uint64_t pa, unsigned idx, uint64_t v)
{
	ck_assert_uint_lt(pa + 8 * idx + 8, (uint64_t)m->n * m->psz + 1);
	enc_be64(m->mem + pa + 8 * idx, v);
}

/* Fill the n big-endian entries of the table at pa with v. */
static void
fill_be(struct hm *m, uint64_t pa, unsigned n, uint64_t v)
{
	for (unsigned i = 0; i < n; i++)
		ent_be(m, pa, i, v);
}

/*
 * s390x DAT (z/Architecture Principles of Operation, chapter 3; LSB-0
 * bit values): region and segment table entries with I 0x20, TT in
 * 0x0c (1 region-third, 2 region-second), TF in 0xc0 and TL in 0x03,
 * FC 0x400 (a 1 MiB or 2 GiB frame); page table entries with I 0x400.
 * Empty slots hold invalid entries, as Linux leaves them.
 *  - 3 levels, the root a region-third table at 0x4000 (16 KiB), the
 *    identity map of Linux before 6.10 (swapper_pg_dir's VA is its PA):
 *    R3[0] -> segment table 0x8000; S[0] -> the page table at 0x10800
 *    (2 KiB aligned, not 4), whose [7] is the page 0x12345000; S[5] a
 *    1 MiB frame at 0x12300000; R3[1] a 2 GiB frame at 0x180000000;
 *    R3[2] -> the segment table 0xc000 with TF 1 (its first quarter
 *    absent), whose [512] is a 1 MiB frame at 0x7700000; R3[3] has the
 *    region-second type.
 *  - 4 levels, the root a region-second table found after three empty
 *    entries, at KERNELOFFPHYS + (swapper_pg_dir - KERNELOFFSET) (Linux
 *    6.10's __pa of the image, the keys in hex: 0x3000 + 0x1000): R2[3]
 *    -> R3 0x8000, whose [5] is a 2 GiB frame at 0x80000000.
 */
START_TEST(test_walk_s390x)
{
	struct dk_dump *d;
	struct hm m;

	hm_new(&m, 20, 4096);
	fill_be(&m, 0x4000, 2048, 0x24);
	fill_be(&m, 0x8000, 2048, 0x20);
	fill_be(&m, 0xc000, 2048, 0x20);
	fill_be(&m, 0x10800, 256, 0x400);
	ent_be(&m, 0x4000, 0, 0x8000 | 0x4 | 0x3);
	ent_be(&m, 0x4000, 1, 0x180000000ull | 0x400 | 0x4 | 0x3);
	ent_be(&m, 0x4000, 2, 0xc000 | 0x40 | 0x4 | 0x3);
	ent_be(&m, 0x4000, 3, 0x8000 | 0x8 | 0x3);
	ent_be(&m, 0x8000, 0, 0x10800);
	ent_be(&m, 0x8000, 5, 0x12300000 | 0x400 | 0x3);
	ent_be(&m, 0x10800, 7, 0x12345000 | 0x3d);
	ent_be(&m, 0xc000, 512, 0x7700000 | 0x400 | 0x3);
	d = hm_open(&m, "s390x", "PAGESIZE=4096\nSYMBOL(swapper_pg_dir)=4000\n");
	kv_ok(d, 0x7123, 0x12345123);
	kv_ok(d, 5 << 20 | 0x6789a, 0x1236789a);
	kv_ok(d, 1ull << 31 | 0x12345678, 0x192345678ull);
	kv_ok(d, 2ull << 31 | 512 << 20 | 0xabcde, 0x77abcde);
	kv_fails(d, 2ull << 31 | 0x1000, DK_ENOTMAPPED, "region-third table "
	    "entry 0xc047 at pa 0x4010: the next table's quarter 0 is outside "
	    "TF 1..TL 3");
	kv_fails(d, 3ull << 31, DK_ENOTMAPPED, "has table type 2, expected 1");
	kv_fails(d, 4ull << 31, DK_ENOTMAPPED, "region-third table entry 0x24 "
	    "at pa 0x4020: I is set");
	kv_fails(d, 8 << 12, DK_ENOTMAPPED, "page table entry 0x400 at pa "
	    "0x10840: I is set");
	kv_fails(d, 1ull << 42, DK_ENOTMAPPED, "beyond the 42 bits a "
	    "region-third table at the root translates");
	dk_close(d);
	hm_free(&m);

	hm_new(&m, 12, 4096);
	fill_be(&m, 0x4000, 2048, 0x28);
	fill_be(&m, 0x8000, 2048, 0x24);
	ent_be(&m, 0x4000, 3, 0x8000 | 0x8 | 0x3);
	ent_be(&m, 0x8000, 5, 0x80000000ull | 0x400 | 0x4 | 0x3);
	d = hm_open(&m, "s390x", "PAGESIZE=4096\n"
	    "SYMBOL(swapper_pg_dir)=3ffe0001000\nKERNELOFFSET=3ffe0000000\n"
	    "KERNELOFFPHYS=3000\nIDENTITYBASE=1000000000\n");
	kv_ok(d, 3ull << 42 | 5ull << 31 | 0x1234, 0x80001234);
	kv_fails(d, 1ull << 53, DK_ENOTMAPPED, "beyond the 53 bits");
	dk_close(d);
	hm_free(&m);
}
END_TEST

/*
 * powerpc64 Linux radix trees (Power ISA 3.0 Book III, "Radix Tree
 * Translation"): entries big-endian on ppc64le too, valid 1 << 63, leaf
 * 1 << 62, a directory's NLB (the next table) and NLS (its index bits)
 * in bits 59..8 and 4..0, PAGE_KERNEL leaves (0x18e: A D P R W).  The
 * kernel's quadrant 3 from 0xc000000000000000, the tree over EA bits
 * 51..0: root (swapper_pg_dir, 2^13 entries) 51..39, then 38..30,
 * 29..21 and, with 64 KiB pages, 20..16 (5 bits).
 *  - 64 KiB: root at 0x10000; vmalloc's 0xc008000000000000 is root
 *    [4096] -> PUD 0x20000; PUD[0] -> PMD 0x21000; PMD[0] -> PTE 0x22000
 *    (NLS 5), whose [2] is the page 0x730000; PMD[3] a 2 MiB leaf at
 *    0x40600000; PMD[4] has NLS 3; PUD[1] a 1 GiB leaf at 0x80000000.
 *  - 4 KiB: the same tree to a PTE table of 512 entries, [5] the page
 *    0x345000.
 */
START_TEST(test_walk_ppc64_radix)
{
	const uint64_t V = 1ull << 63, L = 1ull << 62, K = 0x18e;
	const uint64_t vm = 0xc008000000000000ull;
	static const char vmci64k[] = "PAGESIZE=65536\n"
	    "SYMBOL(swapper_pg_dir)=c000000000010000\nNUMBER(RADIX_MMU)=1\n";
	struct dk_dump *d;
	struct hm m;

	hm_new(&m, 8, 65536);
	ent_be(&m, 0x10000, 4096, V | 0x20000 | 9);
	ent_be(&m, 0x20000, 0, V | 0x21000 | 9);
	ent_be(&m, 0x20000, 1, V | L | 0x80000000ull | K);
	ent_be(&m, 0x21000, 0, V | 0x22000 | 5);
	ent_be(&m, 0x21000, 3, V | L | 0x40600000 | K);
	ent_be(&m, 0x21000, 4, V | 0x23000 | 3);
	ent_be(&m, 0x22000, 2, V | L | 0x730000 | K);
	d = hm_open(&m, "ppc64le", vmci64k);
	kv_ok(d, vm | 0x21234, 0x731234);
	kv_ok(d, vm | 3 << 21 | 0x12345, 0x40612345);
	kv_ok(d, vm | 1 << 30 | 0x1234567, 0x81234567);
	kv_fails(d, vm | 0x30000, DK_ENOTMAPPED, "radix level 4 entry 0 at pa "
	    "0x22018: not valid");
	kv_fails(d, vm | 4 << 21, DK_ENOTMAPPED, "NLS 3 leaves 21 EA bits, "
	    "expected 5 or more");
	kv_fails(d, 0xc000000000000000ull, DK_ENOTMAPPED, "radix level 1 "
	    "entry 0 at pa 0x10000: not valid");
	kv_fails(d, 0xc010000000000000ull, DK_ENOTMAPPED, "outside quadrant 3");
	dk_close(d);
	hm_free(&m);

	hm_new(&m, 40, 4096);
	ent_be(&m, 0x10000, 4096, V | 0x20000 | 9);
	ent_be(&m, 0x20000, 0, V | 0x21000 | 9);
	ent_be(&m, 0x21000, 0, V | 0x22000 | 9);
	ent_be(&m, 0x22000, 5, V | L | 0x345000 | K);
	d = hm_open(&m, "ppc64", "PAGESIZE=4096\n"
	    "SYMBOL(swapper_pg_dir)=c000000000010000\nNUMBER(RADIX_MMU)=1\n");
	kv_ok(d, vm | 5 << 12 | 0xabc, 0x345abc);
	dk_close(d);
	hm_free(&m);

	/*
	 * The hash MMU: the linear map by subtraction, no tables read; the
	 * rest is not translated, nor where VMCOREINFO does not say which.
	 */
	hm_new(&m, 2, 65536);
	d = hm_open(&m, "ppc64", "PAGESIZE=65536\nNUMBER(RADIX_MMU)=0\n");
	kv_ok(d, 0xc000000000012345ull, 0x12345);
	kv_fails(d, vm, DK_EUNSUP, "a kernel on the hash MMU "
	    "(NUMBER(RADIX_MMU)=0)");
	dk_close(d);
	d = hm_open(&m, "ppc64", "PAGESIZE=65536\n");
	kv_ok(d, 0xc000000000012345ull, 0x12345);
	kv_fails(d, vm, DK_EUNSUP, "whose VMCOREINFO lacks NUMBER(RADIX_MMU)");
	dk_close(d);
	hm_free(&m);
}
END_TEST

/*
 * arm short descriptors (Arm ARM B3.5, little-endian 4-byte entries):
 * swapper_pg_dir at 0xc0004000 in the direct map of PAGE_OFFSET
 * 0xc0000000 over PHYS_OFFSET, the lowest PA the dump has (0 here): the
 * L1 table at 0x4000.  L1[0xc00] a 1 MiB section at 0 (0x40e: AP 01, C,
 * B); L1[0xf00] a coarse table at 0x8400 (1 KiB aligned, 0x11), whose
 * [3] is the small page 0x5000 (0x1e).
 */
START_TEST(test_walk_arm)
{
	struct dk_dump *d;
	struct hm m;

	hm_new(&m, 10, 4096);
	lr_le(m.mem + 0x4000 + 4 * 0xc00, 4, 0x00000000 | 0x40e);
	lr_le(m.mem + 0x4000 + 4 * 0xf00, 4, 0x8400 | 0x11);
	lr_le(m.mem + 0x8400 + 4 * 3, 4, 0x5000 | 0x1e);
	d = hm_open(&m, "armv7l", "PAGESIZE=4096\n"
	    "SYMBOL(swapper_pg_dir)=c0004000\n");
	kv_ok(d, 0xc0012345ull, 0x12345);
	kv_ok(d, 0xf0003abcull, 0x5abc);
	kv_fails(d, 0xf0004000ull, DK_ENOTMAPPED, "L2 entry 0 at pa 0x8410 is "
	    "invalid");
	kv_fails(d, 0xe0000000ull, DK_ENOTMAPPED, "not mapped (L1 entry 0 at "
	    "pa 0x7800 has type 0)");
	dk_close(d);
	hm_free(&m);
}
END_TEST

/* What is not translated is DK_EUNSUP, naming it. */
START_TEST(test_unsupported)
{
	struct dk_dump *d = NULL;
	struct dk_err err;
	struct hm m;
	uint64_t pa;

	/*
	 * A real s390x dump (QEMU, no VMCOREINFO): what the walk needs.
	 */
	ck_assert_msg(dk_open("tests/data/kdump/s390x-fw.kdump-zlib.xz", NULL,
	    &d, &err) == DK_OK, "%s", err.msg);
	ck_assert_int_eq(dk_kvtop(d, 0x10000, &pa, &err), DK_EUNSUP);
	HAS(err.msg, "s390x Linux dump without VMCOREINFO, so without "
	    "SYMBOL(swapper_pg_dir)");
	dk_close(d);
	/* aarch64 without kimage_voffset; riscv64 without swapper_pg_dir. */
	hm_new(&m, 2, 4096);
	d = hm_open(&m, "aarch64", "NUMBER(VA_BITS)=48\n"
	    "SYMBOL(swapper_pg_dir)=ffff800010001000\n");
	kv_fails(d, 0xffff800000000000ull, DK_EUNSUP, "aarch64 Linux dump "
	    "whose VMCOREINFO lacks NUMBER(kimage_voffset)");
	dk_close(d);
	d = hm_open(&m, "riscv64", "NUMBER(VA_BITS)=39\n");
	kv_fails(d, ~0ull << 38, DK_EUNSUP, "SYMBOL(swapper_pg_dir)");
	dk_close(d);
	/* An arm kernel with long descriptors; mips64: the architecture. */
	d = hm_open(&m, "armv7l", "SYMBOL(swapper_pg_dir)=c0004000\n"
	    "CONFIG_ARM_LPAE=y\n");
	kv_fails(d, 0xc0008000ull, DK_EUNSUP, "an arm kernel with "
	    "CONFIG_ARM_LPAE=y");
	dk_close(d);
	d = hm_open(&m, "mips64", "SYMBOL(swapper_pg_dir)=c0004000\n");
	kv_fails(d, 0xc0008000ull, DK_EUNSUP, "does not translate the kernel "
	    "addresses of mips64 Linux dumps");
	dk_close(d);
	/* x86_64 without NUMBER(phys_base): the sub header's (0). */
	d = hm_open(&m, "x86_64", "SYMBOL(init_top_pgt)=ffffffff82a10000\n");
	kv_fails(d, 0xffffffff81000000ull, DK_ENOTDUMPED, "virtual address "
	    "0xffffffff81000000: PML4E: physical address 0x2a10");
	dk_close(d);
	hm_free(&m);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* The log layouts.                                                        */

/*
 * The hand-written image of layout l with its VMCOREINFO (after the
 * lines extra), opened.
 */
static struct dk_dump *
ring_open(uint8_t *mem, enum lr_layout l, const char *extra, uint8_t *file)
{
	char vmci[3000];
	size_t n = snprintf(vmci, sizeof(vmci), "%s", extra != NULL ? extra :
	    "");
	struct dk_dump *d = NULL;
	struct dk_err err;

	/* extra first: the first line of a key is the one read. */
	lr_tables(mem);
	lr_vmcoreinfo(vmci + n, sizeof(vmci) - n, l);
	lr_kdump(mem, vmci, strlen(vmci), file);
	ck_assert_msg(dk_open_mem(file, LR_FILE, "ring.kdump", NULL, &d,
	    &err) == DK_OK, "%s", err.msg);
	return d;
}

/*
 * The records of the lockless test, ids from 2^62 - 3 (they wrap to 0),
 * blocks from logical position 3 KiB + 1000: the first wraps to 0.
 */
static const struct lr_rec lockless_recs[] = {
	{ 0, "Linux version 6.1.0-test", 0, 0 },
	{ 1234567890, "two\nlines", 0, 0 },
	{ 2000000000, "reserved: not shown", 0, 4 },
	{ 61000999999ull, "\x01tab\there\xc3\xa9\\", 0, 0 },
	{ 100000000000000ull, "big", 0, 0 },
	{ 7000000, "committed", 0, 1 },
	{ 8000000, "reusable: not shown", 0, 3 },
	{ 9000000, "last\r", 0, 0 },
};

static const char lockless_want[] =
    "[    0.000000] Linux version 6.1.0-test\n"
    "[    1.234567] two\n"
    "               lines\n"
    "[   61.000999] \\x01tab\there\\xffffffc3\\xffffffa9\\\n"
    "[100000.000000] big\n"
    "[    0.007000] committed\n"
    "[    0.009000] last\r\n";

START_TEST(test_log_lockless)
{
	static uint8_t mem[LR_MEM], file[LR_FILE];
	struct dk_dump *d;
	struct dk_err err;
	struct text t;

	memset(mem, 0, sizeof(mem));
	lr_lockless(mem, lockless_recs, DK_ARRAY_LEN(lockless_recs),
	    (1ull << 62) - 3, 3 * 1024 + 1000);
	d = ring_open(mem, LR_LOCKLESS, NULL, file);
	ck_assert_msg(log_of(d, &t, &err) == DK_OK, "%s", err.msg);
	ck_assert_str_eq(t.b, lockless_want);
	free(t.b);
	dk_close(d);
}
END_TEST

START_TEST(test_log_printk_log)
{
	static const struct lr_rec r[] = {
		{ 1000, "hello", 0, 0 },
		{ 2000000000, "world again", 0, 0 },
		{ 3500000000ull, "a\nb", 0, 0 },
	};
	static uint8_t mem[LR_MEM], file[LR_FILE];
	struct dk_dump *d;
	struct dk_err err;
	struct text t;

	memset(mem, 0, sizeof(mem));
	/* 256 bytes from index 200: the second record wraps to 0. */
	lr_printk_log(mem, r, DK_ARRAY_LEN(r), 256, 200);
	d = ring_open(mem, LR_PRINTK_LOG, NULL, file);
	ck_assert_msg(log_of(d, &t, &err) == DK_OK, "%s", err.msg);
	ck_assert_str_eq(t.b, "[    0.000001] hello\n"
	    "[    2.000000] world again\n"
	    "[    3.500000] a\n"
	    "               b\n");
	free(t.b);
	dk_close(d);

	/* struct log (before 3.11): the same keys under its name. */
	lr_printk_log(mem, r, 1, 256, 0);
	d = ring_open(mem, LR_PRINTK_LOG, NULL, file);
	ck_assert_msg(log_of(d, &t, &err) == DK_OK, "%s", err.msg);
	ck_assert_str_eq(t.b, "[    0.000001] hello\n");
	free(t.b);
	dk_close(d);
}
END_TEST

START_TEST(test_log_plain)
{
	static const char text[] = "<6>one line\n<6>another line of the "
	    "old plain ring\n<4>a third, which wraps around\n";
	static uint8_t mem[LR_MEM], file[LR_FILE];
	struct dk_dump *d;
	struct dk_err err;
	struct text t;

	/* 64 bytes, 81 written: the last 64, from log_end % 64 on. */
	ck_assert_uint_eq(strlen(text), 81);
	memset(mem, 0, sizeof(mem));
	lr_plain(mem, text, 64, 0);
	d = ring_open(mem, LR_PLAIN, NULL, file);
	ck_assert_msg(log_of(d, &t, &err) == DK_OK, "%s", err.msg);
	ck_assert_str_eq(t.b, text + 17);
	free(t.b);
	dk_close(d);
	/* Not wrapped: log_end bytes from 0. */
	memset(mem, 0, sizeof(mem));
	lr_plain(mem, "short\n", 64, 0);
	d = ring_open(mem, LR_PLAIN, NULL, file);
	ck_assert_msg(log_of(d, &t, &err) == DK_OK, "%s", err.msg);
	ck_assert_str_eq(t.b, "short\n");
	free(t.b);
	dk_close(d);
}
END_TEST

/* A damaged lockless ring: code, and what the message names. */
static void
lockless_damaged(void (*damage)(uint8_t *), const char *extra,
    enum dk_status code, const char *says)
{
	static uint8_t mem[LR_MEM], file[LR_FILE];
	struct dk_dump *d;
	struct dk_err err;
	struct text t;

	memset(mem, 0, sizeof(mem));
	lr_lockless(mem, lockless_recs, DK_ARRAY_LEN(lockless_recs), 5, 0);
	if (damage != NULL)
		damage(mem);
	d = ring_open(mem, LR_LOCKLESS, extra, file);
	ck_assert_int_eq(log_of(d, &t, &err), code);
	HAS(err.msg, says);
	free(t.b);
	dk_close(d);
}

static void
count_27(uint8_t *mem)
{
	lr_le(mem + LR_RB, 4, 27);
	lr_le(mem + LR_RB + 48, 4, 31);
}

static void
size_32(uint8_t *mem)
{
	lr_le(mem + LR_RB + 48, 4, 32);
}

static void
head_far(uint8_t *mem)
{
	lr_le(mem + LR_RB + 24, 8, 5 + 100);
}

static void
short_block(uint8_t *mem)
{
	uint8_t *desc = mem + LR_DESCS + (5 % 16) * LR_DESC;

	lr_le(desc + 16, 8, dec_le64(desc + 8) + 4);
}

static void
descs_away(uint8_t *mem)
{
	lr_le(mem + LR_RB + 8, 8, 0x1000);
}

START_TEST(test_log_damaged)
{
	static uint8_t mem[LR_MEM], file[LR_FILE];
	struct dk_dump *d;
	struct dk_err err;
	struct text t;
	size_t got = 1;
	char b[16];

	lockless_damaged(count_27, NULL, DK_ECORRUPT, "2^27 descriptors");
	lockless_damaged(size_32, NULL, DK_ECORRUPT, "a text ring of 2^32 "
	    "bytes");
	lockless_damaged(head_far, NULL, DK_ECORRUPT, "tail_id 0x5 and "
	    "head_id 0x69, 101 records apart: more than its 16 descriptors");
	lockless_damaged(short_block, NULL, DK_ECORRUPT, "record 0x5: its "
	    "text block [0, 0x4) (descriptor index 5) is not aligned to a "
	    "long (a text ring of 1024 bytes)");
	lockless_damaged(descs_away, NULL, DK_ENOTMAPPED, "a descriptor "
	    "(prb_desc) at 0x1078: virtual address 0x1000: not mapped");
	lockless_damaged(NULL, "SIZE(printk_info)=5000\n", DK_ELIMIT,
	    "SIZE(printk_info)=5000: expected at most 4096");
	lockless_damaged(NULL, "OFFSET(printk_info.text_len)=87\n",
	    DK_ECORRUPT, "OFFSET(printk_info.text_len)=87 puts a 2-byte field "
	    "past SIZE(printk_info)=88");
	memset(mem, 0, sizeof(mem));
	lr_lockless(mem, lockless_recs, 2, 5, 0);
	lr_tables(mem);
	{
		static const char vmci[] = "SYMBOL(init_top_pgt)=ffffffff80001000\n"
		    "SYMBOL(prb)=ffffffff80004000\n"
		    "SIZE(printk_ringbuffer)=88\n"
		    "OFFSET(printk_ringbuffer.desc_ring)=0\n"
		    "OFFSET(printk_ringbuffer.text_data_ring)=48\n"
		    "OFFSET(prb_desc_ring.count_bits)=0\n"
		    "OFFSET(prb_desc_ring.descs)=8\n"
		    "OFFSET(prb_desc_ring.infos)=16\n"
		    "OFFSET(prb_desc_ring.head_id)=24\n"
		    "OFFSET(prb_desc_ring.tail_id)=32\n"
		    "SIZE(prb_desc)=24\n"
		    "OFFSET(prb_desc.text_blk_lpos)=8\n";
		static const char big[] = "SYMBOL(init_top_pgt)=ffffffff80001000\n"
		    "SYMBOL(prb)=ffffffff80004000\n"
		    "SIZE(printk_ringbuffer)=8800\n";

		/* A key missing: named. */
		lr_kdump(mem, vmci, strlen(vmci), file);
		ck_assert_int_eq(dk_open_mem(file, LR_FILE, "ring.kdump", NULL,
		    &d, &err), DK_OK);
		ck_assert_int_eq(log_of(d, &t, &err), DK_EUNSUP);
		HAS(err.msg, "VMCOREINFO has no OFFSET(prb_desc.state_var)");
		free(t.b);
		dk_close(d);
		/* A struct larger than any the kernel has. */
		lr_kdump(mem, big, strlen(big), file);
		ck_assert_int_eq(dk_open_mem(file, LR_FILE, "ring.kdump", NULL,
		    &d, &err), DK_OK);
		ck_assert_int_eq(log_of(d, &t, &err), DK_ELIMIT);
		HAS(err.msg, "SIZE(printk_ringbuffer)=8800");
		free(t.b);
		dk_close(d);
		/* No log named at all: DK_NOMATCH, and read_log reads 0. */
		lr_kdump(mem, vmci, 38, file);
		ck_assert_int_eq(dk_open_mem(file, LR_FILE, "ring.kdump", NULL,
		    &d, &err), DK_OK);
		ck_assert_int_eq(log_of(d, &t, &err), DK_NOMATCH);
		ck_assert_int_eq(dk_read_msgbuf(d, b, sizeof(b), &got, &err),
		    DK_OK);
		ck_assert_uint_eq(got, 0);
		free(t.b);
		dk_close(d);
	}
}
END_TEST

START_TEST(test_log_damaged_old)
{
	static const struct lr_rec r[] = { { 1000, "hello", 0, 0 } };
	static uint8_t mem[LR_MEM], file[LR_FILE];
	struct dk_dump *d;
	struct dk_err err;
	struct text t;

	/* The record at 0 of length 0. */
	memset(mem, 0, sizeof(mem));
	lr_printk_log(mem, r, 1, 256, 0);
	lr_le(mem + LR_DESCS + 8, 2, 0);
	d = ring_open(mem, LR_PRINTK_LOG, NULL, file);
	ck_assert_int_eq(log_of(d, &t, &err), DK_ECORRUPT);
	HAS(err.msg, "the record at index 0 of log_buf has length 0");
	free(t.b);
	dk_close(d);
	/* A loop: the marker at 32 wraps to 0, whose record leads to 32. */
	memset(mem, 0, sizeof(mem));
	lr_printk_log(mem, r, 1, 256, 0);
	lr_le(mem + LR_DESCS + 8, 2, 32);
	lr_le(mem + LR_VARS + 16, 4, 32);		/* log_first_idx */
	lr_le(mem + LR_VARS + 24, 4, 100);		/* log_next_idx */
	d = ring_open(mem, LR_PRINTK_LOG, NULL, file);
	ck_assert_int_eq(log_of(d, &t, &err), DK_ECORRUPT);
	/* Found at the second wrap, not after log_buf_len / 16 records. */
	HAS(err.msg, "wrap twice (an end marker at index 32) before "
	    "log_next_idx 100: they loop");
	/* The record read before it, once, as makedumpfile prints it. */
	ck_assert_str_eq(t.b, "[    0.000001] hello\n");
	free(t.b);
	dk_close(d);
	/* A record shorter than its header. */
	memset(mem, 0, sizeof(mem));
	lr_printk_log(mem, r, 1, 256, 0);
	lr_le(mem + LR_DESCS + 8, 2, 8);
	d = ring_open(mem, LR_PRINTK_LOG, NULL, file);
	ck_assert_int_eq(log_of(d, &t, &err), DK_ECORRUPT);
	HAS(err.msg, "length 8, text 5 bytes");
	free(t.b);
	dk_close(d);
	/* log_buf_len past 2^31; a plain ring that is not a power of 2. */
	memset(mem, 0, sizeof(mem));
	lr_printk_log(mem, r, 1, 256, 0);
	lr_le(mem + LR_VARS + 8, 4, 0x80000001u);
	d = ring_open(mem, LR_PRINTK_LOG, NULL, file);
	ck_assert_int_eq(log_of(d, &t, &err), DK_ECORRUPT);
	HAS(err.msg, "log_buf_len 2147483649");
	free(t.b);
	dk_close(d);
	memset(mem, 0, sizeof(mem));
	lr_plain(mem, "x", 48, 0);
	d = ring_open(mem, LR_PLAIN, NULL, file);
	ck_assert_int_eq(log_of(d, &t, &err), DK_ECORRUPT);
	HAS(err.msg, "log_buf_len 48: expected a power of two");
	free(t.b);
	dk_close(d);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* The check walk (dk_linux_log_check, dumpcheck's linux.log-* codes).     */

/* What the walk reported: code and VA of each damaged place. */
struct bads {
	unsigned	 n;
	char		 code[32][32];
	uint64_t	 va[32];
	char		 msg[32][400];
};

static void
bad_keep(void *arg, const struct dk_linux_logbad *b)
{
	struct bads *x = arg;

	if (x->n < 32) {
		snprintf(x->code[x->n], sizeof(x->code[0]), "%s", b->code);
		x->va[x->n] = b->va;
		snprintf(x->msg[x->n], sizeof(x->msg[0]), "%s", b->msg);
	}
	x->n++;
}

/* Walk the image of layout l (VMCOREINFO extra first): its status. */
static enum dk_status
bads_of(uint8_t *mem, enum lr_layout l, const char *extra, struct bads *x)
{
	static uint8_t file[LR_FILE];
	struct dk_dump *d = ring_open(mem, l, extra, file);
	struct dk_err err;
	enum dk_status st;

	memset(x, 0, sizeof(*x));
	st = dk_linux_log_check(d, bad_keep, x, &err);
	dk_close(d);
	return st;
}

/* The one damaged place: code at va, its message saying says. */
static void
one_bad(const struct bads *x, const char *code, uint64_t va,
    const char *says)
{
	ck_assert_msg(x->n == 1, "%u places, the first %s: %s", x->n,
	    x->n ? x->code[0] : "-", x->n ? x->msg[0] : "");
	ck_assert_str_eq(x->code[0], code);
	ck_assert_msg(x->va[0] == va, "%s at %#jx, not %#jx", code,
	    (uintmax_t)x->va[0], (uintmax_t)va);
	HAS(x->msg[0], says);
}

/* The lockless test ring: ids from 2^62 - 3, slot of record i. */
#define	LL_ID0		((1ull << 62) - 3)
#define	LL_SLOT(i)	((LL_ID0 + (i)) % 16)

static void
lockless_mem(uint8_t *mem)
{
	memset(mem, 0, LR_MEM);
	lr_lockless(mem, lockless_recs, DK_ARRAY_LEN(lockless_recs), LL_ID0,
	    3 * 1024 + 1000);
}

START_TEST(test_check_lockless)
{
	static uint8_t mem[LR_MEM];
	static const char lpos[] = "OFFSET(prb_data_ring.head_lpos)=16\n"
	    "OFFSET(prb_data_ring.tail_lpos)=24\n";
	struct bads x;
	uint8_t *d, *f;

	/* Undamaged, reserved and reusable descriptors included: nothing. */
	lockless_mem(mem);
	ck_assert_int_eq(bads_of(mem, LR_LOCKLESS, NULL, &x), DK_OK);
	ck_assert_uint_eq(x.n, 0);
	/* seq: record 4's 16 more (still its index modulo 16). */
	f = mem + LR_INFOS + LL_SLOT(4) * LR_INFO;
	lr_le(f, 8, dec_le64(f) + 16);
	ck_assert_int_eq(bads_of(mem, LR_LOCKLESS, NULL, &x), DK_OK);
	one_bad(&x, "linux.log-seq", LR_KVA(LR_INFOS + LL_SLOT(4) * LR_INFO),
	    "expected 65, one more per id than record 0x3ffffffffffffffd's 61");
	/* ... and one more: not its index modulo 16. */
	lr_le(f, 8, dec_le64(f) - 15);
	ck_assert_int_eq(bads_of(mem, LR_LOCKLESS, NULL, &x), DK_OK);
	one_bad(&x, "linux.log-seq", LR_KVA(LR_INFOS + LL_SLOT(4) * LR_INFO),
	    "seq 66 is not its descriptor's index 1 modulo the 16");
	/* Record 1's descriptor holding the id of the next wrap. */
	lockless_mem(mem);
	d = mem + LR_DESCS + LL_SLOT(1) * LR_DESC;
	lr_le(d, 8, ((LL_ID0 + 1 + 16) & ~(3ull << 62)) | 2ull << 62);
	ck_assert_int_eq(bads_of(mem, LR_LOCKLESS, NULL, &x), DK_OK);
	one_bad(&x, "linux.log-desc", LR_KVA(LR_DESCS + LL_SLOT(1) * LR_DESC),
	    "the id 0xe: expected the id 0x3ffffffffffffffe");
	/* The head's still the previous wrap's, reusable: desc_reserve(). */
	lockless_mem(mem);
	d = mem + LR_DESCS + LL_SLOT(7) * LR_DESC;
	lr_le(d, 8, ((LL_ID0 + 7 - 16) & ~(3ull << 62)) | 3ull << 62);
	ck_assert_int_eq(bads_of(mem, LR_LOCKLESS, NULL, &x), DK_OK);
	ck_assert_uint_eq(x.n, 0);
	/* The same one not at the head: damage. */
	d = mem + LR_DESCS + LL_SLOT(6) * LR_DESC;
	lr_le(d, 8, ((LL_ID0 + 6 - 16) & ~(3ull << 62)) | 3ull << 62);
	ck_assert_int_eq(bads_of(mem, LR_LOCKLESS, NULL, &x), DK_OK);
	one_bad(&x, "linux.log-desc", LR_KVA(LR_DESCS + LL_SLOT(6) * LR_DESC),
	    "expected the id 0x3");
	/* Record 0's block (wrapped: at 0 of the text) starting with 0. */
	lockless_mem(mem);
	lr_le(mem + LR_TEXT, 8, 0);
	ck_assert_int_eq(bads_of(mem, LR_LOCKLESS, NULL, &x), DK_OK);
	one_bad(&x, "linux.log-block", LR_KVA(LR_TEXT), "starts with the id "
	    "0: expected the record's");
	/* tail_lpos / head_lpos exported: record 1's block before the tail. */
	lockless_mem(mem);
	d = mem + LR_DESCS + LL_SLOT(1) * LR_DESC;
	lr_le(mem + LR_RB + 48 + 24, 8, dec_le64(d + 8) + 8);	/* tail_lpos */
	lr_le(mem + LR_RB + 48 + 16, 8, dec_le64(mem + LR_DESCS + LL_SLOT(7) *
	    LR_DESC + 16));					/* head_lpos */
	ck_assert_int_eq(bads_of(mem, LR_LOCKLESS, lpos, &x), DK_OK);
	ck_assert_uint_eq(x.n, 2);	/* records 0 and 1 precede it */
	ck_assert_str_eq(x.code[1], "linux.log-block");
	ck_assert_uint_eq(x.va[1], LR_KVA(LR_DESCS + LL_SLOT(1) * LR_DESC +
	    8));
	HAS(x.msg[1], "outside the text ring's [tail_lpos, head_lpos]");
	/* The positions more than the ring apart. */
	lr_le(mem + LR_RB + 48 + 24, 8, 0);
	lr_le(mem + LR_RB + 48 + 16, 8, 2048);
	ck_assert_int_eq(bads_of(mem, LR_LOCKLESS, lpos, &x), DK_OK);
	one_bad(&x, "linux.log-ids", LR_KVA(LR_RB + 48 + 24), "tail_lpos 0 "
	    "and head_lpos 0x800, 2048 bytes apart: more than its text ring's "
	    "1024");
	/* text_len past the block: cut, and the walk goes on. */
	lockless_mem(mem);
	f = mem + LR_INFOS + LL_SLOT(1) * LR_INFO;
	lr_le(f + 16, 2, 200);
	ck_assert_int_eq(bads_of(mem, LR_LOCKLESS, NULL, &x), DK_OK);
	one_bad(&x, "linux.log-text-len", LR_KVA(LR_INFOS + LL_SLOT(1) *
	    LR_INFO + 16), "text_len 200, but its text block holds 16 bytes");
	{
		static uint8_t file[LR_FILE];
		struct dk_dump *dd = ring_open(mem, LR_LOCKLESS, NULL, file);
		struct dk_err err;
		struct text t;

		ck_assert_int_eq(log_of(dd, &t, &err), DK_ECORRUPT);
		HAS(err.msg, "ring.kdump: the kernel log: record "
		    "0x3ffffffffffffffe: text_len 200");
		/* "two\nlines" and its block's padding, then the others. */
		HAS(t.b, "[    1.234567] two\n               lines"
		    "\\x00\\x00\\x00\\x00\\x00\\x00\\x00\n"
		    "[   61.000999] ");
		HAS(t.b, "[    0.009000] last\r\n");
		free(t.b);
		dk_close(dd);
	}
}
END_TEST

START_TEST(test_check_printk_log)
{
	static const struct lr_rec r[] = {
		{ 1000, "hello", 0, 0 },
		{ 2000000000, "world again", 0, 0 },
		{ 3500000000ull, "a\nb", 0, 0 },
	};
	static const char dict[] = "OFFSET(printk_log.dict_len)=12\n";
	static uint8_t mem[LR_MEM];
	struct bads x;

	memset(mem, 0, sizeof(mem));
	lr_printk_log(mem, r, 3, 256, 200);
	ck_assert_int_eq(bads_of(mem, LR_PRINTK_LOG, dict, &x), DK_OK);
	ck_assert_uint_eq(x.n, 0);
	/* Record 0 (at 200, 24 bytes): a dict of 4 past its end; on. */
	lr_le(mem + LR_DESCS + 200 + 12, 2, 4);
	ck_assert_int_eq(bads_of(mem, LR_PRINTK_LOG, dict, &x), DK_OK);
	one_bad(&x, "linux.log-text-len", LR_KVA(LR_DESCS + 200 + 10),
	    "length 24, text 5 and dictionary 4 bytes: more than the 8 after "
	    "its header");
	/* Without the key the dictionary is not known: nothing. */
	ck_assert_int_eq(bads_of(mem, LR_PRINTK_LOG, NULL, &x), DK_OK);
	ck_assert_uint_eq(x.n, 0);
	/* log_first_idx not a multiple of 4. */
	lr_le(mem + LR_VARS + 16, 4, 202);
	ck_assert_int_eq(bads_of(mem, LR_PRINTK_LOG, NULL, &x), DK_OK);
	one_bad(&x, "linux.log-ids", LR_KVA(LR_VARS + 16), "log_first_idx "
	    "202, log_next_idx 56: expected multiples of 4 below log_buf_len "
	    "256");
	/* log_buf_len not a power of two. */
	lr_le(mem + LR_VARS + 16, 4, 200);
	lr_le(mem + LR_VARS + 8, 4, 260);
	ck_assert_int_eq(bads_of(mem, LR_PRINTK_LOG, NULL, &x), DK_OK);
	one_bad(&x, "linux.log-ring", LR_KVA(LR_VARS + 8), "log_buf_len 260: "
	    "expected a power of two");
	/* Record 1 (at 0 after the wrap) too long to leave a header. */
	lr_le(mem + LR_VARS + 8, 4, 256);
	lr_le(mem + LR_DESCS + 0 + 8, 2, 248);
	ck_assert_int_eq(bads_of(mem, LR_PRINTK_LOG, NULL, &x), DK_OK);
	one_bad(&x, "linux.log-record", LR_KVA(LR_DESCS + 8), "the record at "
	    "index 0 of log_buf: length 248");
}
END_TEST

/* dumpcheck: at most 8 places of a code, then one more counting them. */
struct ck_found {
	unsigned	 n, ncount, nvoff;
	uint64_t	 more;
};

static void
ck_keep(void *arg, const struct dk_finding *f)
{
	struct ck_found *c = arg;

	if (strcmp(f->code, "linux.log-desc") != 0)
		return;
	c->n++;
	if (strstr(f->msg, "more damaged places of this code") != NULL) {
		c->ncount++;
		c->more = f->count;
	} else if (!f->has_offset)
		c->nvoff++;	/* kdump: pages compressed, no offset */
}

START_TEST(test_check_capped)
{
	static uint8_t mem[LR_MEM], file[LR_FILE];
	static const struct lr_rec r[12] = {
		{ 1, "a", 0, 0 }, { 2, "b", 0, 0 }, { 3, "c", 0, 0 },
		{ 4, "d", 0, 0 }, { 5, "e", 0, 0 }, { 6, "f", 0, 0 },
		{ 7, "g", 0, 0 }, { 8, "h", 0, 0 }, { 9, "i", 0, 0 },
		{ 10, "j", 0, 0 }, { 11, "k", 0, 0 }, { 12, "l", 0, 0 },
	};
	struct ck_found c = { 0 };
	struct dk_check_opts co = { .finding = ck_keep, .arg = &c };
	struct dk_check_result res;
	struct dk_err err;
	char vmci[3000];

	memset(mem, 0, sizeof(mem));
	lr_lockless(mem, r, 12, 100, 0);
	/* Every descriptor holding another id: 12 damaged places. */
	for (unsigned i = 0; i < 12; i++)
		lr_le(mem + LR_DESCS + ((100 + i) % 16) * LR_DESC, 8,
		    (100 + i + 32) | 2ull << 62);
	lr_tables(mem);
	lr_vmcoreinfo(vmci, sizeof(vmci), LR_LOCKLESS);
	lr_kdump(mem, vmci, strlen(vmci), file);
	ck_assert_int_eq(dk_check_mem(file, LR_FILE, "ring.kdump", &co, &res,
	    &err), DK_OK);
	ck_assert_uint_eq(c.n, 9);
	ck_assert_uint_eq(c.ncount, 1);
	ck_assert_uint_eq(c.more, 4);
	ck_assert_uint_eq(c.nvoff, 8);
	ck_assert_uint_ge(res.nerrors, 9);
}
END_TEST

/* ---------------------------------------------------------------------- */

/* The fuzz target's seeds: a layout byte, then the window's bytes. */
static void
write_seeds(const char *dir)
{
	static const struct lr_rec r[] = {
		{ 1000, "hello", 0, 0 }, { 2000000000, "world\nagain", 0, 0 },
	};
	static uint8_t mem[LR_MEM];
	char path[512];

	for (int l = LR_LOCKLESS; l <= LR_PLAIN; l++) {
		FILE *f;

		memset(mem, 0, sizeof(mem));
		if (l == LR_LOCKLESS)
			lr_lockless(mem, lockless_recs,
			    DK_ARRAY_LEN(lockless_recs), (1ull << 62) - 3,
			    3 * 1024 + 1000);
		else if (l == LR_PRINTK_LOG)
			lr_printk_log(mem, r, 2, 256, 200);
		else
			lr_plain(mem, "<6>plain ring\n", 64, 60);
		snprintf(path, sizeof(path), "%s/layout%d", dir, l);
		f = fopen(path, "wb");
		ck_assert_ptr_nonnull(f);
		fputc(l, f);
		fwrite(mem + LR_WIN, 1, LR_WIN_LEN, f);
		fclose(f);
	}
}

START_TEST(test_seeds)
{
	const char *dir = getenv("CHECK_LINUX_SEEDS");

	if (dir != NULL)
		write_seeds(dir);
}
END_TEST

static Suite *
linux_suite(void)
{
	Suite *s = suite_create("linux");
	TCase *real = tcase_create("real"), *walks = tcase_create("walks");
	TCase *lg = tcase_create("log");

	tcase_add_test(real, test_real_dmesg);
	tcase_add_test(real, test_real_kvtop);
	tcase_add_test(walks, test_walk_amd64_5level);
	tcase_add_test(walks, test_walk_arm64_4k);
	tcase_add_test(walks, test_walk_arm64_16k);
	tcase_add_test(walks, test_walk_arm64_64k);
	tcase_add_test(walks, test_walk_riscv);
	tcase_add_test(walks, test_walk_s390x);
	tcase_add_test(walks, test_walk_ppc64_radix);
	tcase_add_test(walks, test_walk_arm);
	tcase_add_test(walks, test_unsupported);
	tcase_add_test(lg, test_log_lockless);
	tcase_add_test(lg, test_log_printk_log);
	tcase_add_test(lg, test_log_plain);
	tcase_add_test(lg, test_log_damaged);
	tcase_add_test(lg, test_log_damaged_old);
	tcase_add_test(lg, test_check_lockless);
	tcase_add_test(lg, test_check_printk_log);
	tcase_add_test(lg, test_check_capped);
	tcase_add_test(lg, test_seeds);
	suite_add_tcase(s, real);
	suite_add_tcase(s, walks);
	suite_add_tcase(s, lg);
	return s;
}

int
main(void)
{
	SRunner *r = srunner_create(linux_suite());
	int failed;

	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
