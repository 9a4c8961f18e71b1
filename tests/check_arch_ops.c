/*
 * check_arch_ops.c -- the architecture modules (formats/arch.c and the
 * ops table, struct dk_arch_ops, of each formats/arch_<name>.c).
 *
 *  - "modules": the rows in dk_arch_at() order against a list typed
 *    here, each reachable through exactly one module and pointing back
 *    at it; each module's walks, protection decoding and page size; the
 *    s390x row by name and by a hand-written ELF header.
 *  - "walks": each full-core walk called through its module's ops table
 *    on page tables written here entry by entry into small ELF cores
 *    (FORMATS.md 4.1, 2.1, 2.2, 2.3, 4.2), the PA and the protection of
 *    each leaf worked out by hand in the comments.
 *  - "windows": the address windows of hand-assembled mips o32, n32 and
 *    n64 minidumps and of powerpc64 ones (FORMATS.md 1.2, 1.3, 1.4),
 *    every window's first, middle and last byte translated by dk_kvtop
 *    as the window says, and bytes read through them; the windows of
 *    generated fixtures against the generator's model.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gen.h"
#include "private.h"
#include "img.h"

#define	PW	DK_PROT_W
#define	PX	DK_PROT_X

/* ---------------------------------------------------------------------- */
/* The modules.                                                            */

/* dk_arch_at() order, as tools and tests have always enumerated it. */
static const char *const row_names[] = {
	"amd64", "i386", "aarch64", "arm", "armeb", "mips", "mipsel",
	"mipsn32", "mipsn32el", "mips64", "mips64el", "powerpc64",
	"powerpc64le", "riscv64", "powerpc", "sparc64", "s390x",
};

/* Every module, with what it should hold. */
static const struct {
	const struct dk_arch_ops *m;
	const char	*name;
	size_t		 nrows;
	int		 has_minidump, has_prot;
	unsigned	 page_shift;
	const char	*walks[5];	/* NULL-terminated */
} modules[] = {
	{ &dk_arch_amd64, "amd64", 1, 1, 1, 12, { "amd64 4-level",
	  "amd64 5-level" } },
	{ &dk_arch_i386, "i386", 1, 1, 1, 12, { "i386", "i386 PAE" } },
	{ &dk_arch_arm64, "arm64", 1, 1, 1, 12, { "arm64 4 KiB",
	  "arm64 16 KiB", "arm64 64 KiB" } },
	{ &dk_arch_arm, "arm", 2, 1, 1, 12, { "arm short descriptor" } },
	{ &dk_arch_mips, "mips", 6, 1, 1, 12, { NULL } },
	{ &dk_arch_powerpc64, "powerpc64", 2, 1, 1, 12,
	  { "powerpc64 radix" } },
	{ &dk_arch_riscv, "riscv", 1, 1, 1, 12, { "riscv Sv39",
	  "riscv Sv48", "riscv Sv57" } },
	{ &dk_arch_powerpc, "powerpc", 1, 0, 0, 12, { NULL } },
	{ &dk_arch_sparc64, "sparc64", 1, 0, 0, 13, { NULL } },
	{ &dk_arch_s390x, "s390x", 1, 0, 1, 12, { "s390x segment",
	  "s390x region-third", "s390x region-second",
	  "s390x region-first" } },
};

START_TEST(test_row_order)
{
	size_t i;

	for (i = 0; i < DK_ARRAY_LEN(row_names); i++) {
		ck_assert_ptr_nonnull(dk_arch_at(i));
		ck_assert_str_eq(dk_arch_name(dk_arch_at(i)), row_names[i]);
		ck_assert_ptr_eq(dk_arch_by_name(row_names[i]), dk_arch_at(i));
	}
	ck_assert_ptr_null(dk_arch_at(i));
	ck_assert_ptr_null(dk_arch_at(SIZE_MAX));
}
END_TEST

/*
 * Each row is in the rows of exactly one module, that module is its
 * ops, and the modules' rows follow each other in dk_arch_at() order.
 */
START_TEST(test_rows_modules)
{
	const struct dk_arch *a;
	size_t i, total = 0, at = 0;

	for (i = 0; (a = dk_arch_at(i)) != NULL; i++) {
		size_t owners = 0;

		for (size_t k = 0; k < DK_ARRAY_LEN(modules); k++) {
			const struct dk_arch_ops *m = modules[k].m;

			if (a >= m->rows && a < m->rows + m->nrows) {
				owners++;
				ck_assert_ptr_eq(a->ops, m);
			}
		}
		ck_assert_msg(owners == 1, "row %s: %zu modules", a->name,
		    owners);
		ck_assert_ptr_eq(a->minidump, a->ops->minidump);
		ck_assert_ptr_eq(dk_arch_by_name(a->name), a);
	}
	for (size_t k = 0; k < DK_ARRAY_LEN(modules); k++) {
		const struct dk_arch_ops *m = modules[k].m;

		ck_assert_str_eq(m->name, modules[k].name);
		ck_assert_uint_eq(m->nrows, modules[k].nrows);
		for (size_t r = 0; r < m->nrows; r++)
			ck_assert_ptr_eq(dk_arch_at(at++), &m->rows[r]);
		total += m->nrows;
	}
	ck_assert_uint_eq(total, i);
	ck_assert_uint_eq(total, DK_ARRAY_LEN(row_names));
}
END_TEST

/* The walks are found by name, the rest of the table is as listed. */
START_TEST(test_module_tables)
{
	for (size_t k = 0; k < DK_ARRAY_LEN(modules); k++) {
		const struct dk_arch_ops *m = modules[k].m;
		size_t n = 0;

		ck_assert_int_eq(m->minidump != NULL, modules[k].has_minidump);
		ck_assert_int_eq(m->prot != NULL, modules[k].has_prot);
		ck_assert_uint_eq(m->page_shift, modules[k].page_shift);
		while (n < 4 && modules[k].walks[n] != NULL)
			n++;
		ck_assert_uint_eq(m->nwalks, n);
		ck_assert_int_eq(m->walks != NULL, n > 0);
		for (size_t w = 0; w < n; w++) {
			const struct dk_pt_walk *p = dk_arch_walk(m,
			    modules[k].walks[w]);

			ck_assert_ptr_eq(p, &m->walks[w]);
			ck_assert_ptr_nonnull(p->translate);
			ck_assert_uint_ge(p->levels, 2);
			ck_assert(p->page_shift == 12 || p->page_shift == 14 ||
			    p->page_shift == 16);
			/* i386; riscv, x86, arm64; ppc64 radix; s390x. */
			ck_assert(p->va_bits == 32 || p->va_bits == 39 ||
			    p->va_bits == 48 || p->va_bits == 57 ||
			    p->va_bits == 52 || p->va_bits == 31 ||
			    p->va_bits == 42 || p->va_bits == 53 ||
			    p->va_bits == 64);
			ck_assert(p->pte_size == 4 || p->pte_size == 8);
		}
		ck_assert_ptr_null(dk_arch_walk(m, "no such walk"));
	}
	/* The byte order of a family picks its row. */
	ck_assert_str_eq(dk_arch_family_endian("arm", DK_BE)->name, "armeb");
	ck_assert_str_eq(dk_arch_family_endian("mips", DK_LE)->name,
	    "mipsel");
	ck_assert_ptr_null(dk_arch_family_endian("amd64", DK_BE));
}
END_TEST

/*
 * A 64-byte ELF64 header (the System V gABI's Elf64_Ehdr): e_ident,
 * e_type@16, e_machine@18, e_version@20, e_flags@48, big-endian unless
 * le.
 */
static void
ehdr64(uint8_t *eh, unsigned cls, int le, uint16_t type, uint16_t machine)
{
	memset(eh, 0, 64);
	memcpy(eh, "\x7f" "ELF", 4);
	eh[4] = (uint8_t)cls;			/* EI_CLASS */
	eh[5] = le ? 1 : 2;			/* EI_DATA */
	eh[6] = 1;				/* EI_VERSION */
	eh[16 + !le] = (uint8_t)type;
	eh[18 + le] = (uint8_t)(machine >> 8);
	eh[18 + !le] = (uint8_t)machine;
	eh[20 + (le ? 0 : 3)] = 1;		/* e_version */
}

START_TEST(test_s390x)
{
	const struct dk_arch *a = dk_arch_by_name("s390x"), *got = NULL;
	struct dk_dump *d = NULL;
	struct dk_err err;
	struct img im;
	uint8_t eh[64];

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_eq(a->ops, &dk_arch_s390x);
	ck_assert_int_eq(dk_arch_endian(a), DK_BE);
	ck_assert_uint_eq(a->elf_class, 2);		/* ELFCLASS64 */
	ck_assert_uint_eq(a->elf_machine, 22);		/* EM_S390 */
	ck_assert_uint_eq(a->long_size, 8);
	ck_assert_uint_eq(a->ops->page_shift, 12);	/* 4 KiB */
	ck_assert_ptr_null(a->minidump);
	ck_assert_ptr_nonnull(a->no_elfcore);
	/* DAT from each of the four root tables; PTE P and IEP. */
	ck_assert_uint_eq(a->ops->nwalks, 4);
	ck_assert_uint_eq(a->ops->prot(0x12345000, 0), PW | PX);
	ck_assert_uint_eq(a->ops->prot(0x12345000 | 0x200, 0), PX);
	ck_assert_uint_eq(a->ops->prot(0x12345000 | 0x100, 0), PW);
	ck_assert_ptr_eq(dk_arch_family_endian("s390x", DK_BE), a);
	ck_assert_ptr_null(dk_arch_family_endian("s390x", DK_LE));

	/* A kernel's header: ET_EXEC (2), EM_S390, MSB, ELFCLASS64. */
	ehdr64(eh, 2, 0, 2, 22);
	ck_assert_uint_eq(eh[18], 0);
	ck_assert_uint_eq(eh[19], 22);
	ck_assert_int_eq(dk_arch_from_elf_header(eh, sizeof(eh), "vmlinux",
	    &got, &err), DK_OK);
	ck_assert_ptr_eq(got, a);
	/* 31-bit s390 (ELFCLASS32) and a little-endian one: no row. */
	ehdr64(eh, 1, 0, 2, 22);
	ck_assert_int_eq(dk_arch_from_elf_header(eh, sizeof(eh), "vmlinux",
	    &got, &err), DK_EUNSUP);
	ck_assert_ptr_nonnull(strstr(err.msg, "e_machine 22"));
	ehdr64(eh, 2, 1, 2, 22);
	ck_assert_int_eq(dk_arch_from_elf_header(eh, sizeof(eh), "vmlinux",
	    &got, &err), DK_EUNSUP);

	/*
	 * A full ELF core of it (EI_OSABI 255, ET_CORE, one PT_LOAD) is
	 * refused at e_machine, with the reason, as sparc64's is.
	 */
	img_init(&im, 0x2000);
	ehdr64(im.p, 2, 0, 4, 22);
	im.p[7] = 255;				/* ELFOSABI_STANDALONE */
	put_be64(&im, 32, 64);			/* e_phoff */
	im.p[53] = 64;				/* e_ehsize */
	im.p[55] = 56;				/* e_phentsize */
	im.p[57] = 1;				/* e_phnum */
	put_be32(&im, 64, 1);			/* PT_LOAD */
	put_be64(&im, 64 + 8, 0x1000);		/* p_offset */
	put_be64(&im, 64 + 32, 0x1000);		/* p_filesz */
	put_be64(&im, 64 + 40, 0x1000);		/* p_memsz */
	ck_assert_int_eq(dk_open_mem(im.p, im.len, "s390x.core", NULL, &d,
	    &err), DK_EUNSUP);
	ck_assert_ptr_null(d);
	ck_assert_uint_eq(err.offset, 18);
	ck_assert_msg(strstr(err.msg, "s390x") != NULL &&
	    strstr(err.msg, "port") != NULL, "%s", err.msg);
	free(im.p);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* The walks, through the ops tables.                                      */

/*
 * A little-endian full ELF core (FORMATS.md 4.1): the ELF header, one
 * PT_LOAD of PA [0, bytes) at file offset 0x1000.  ELF64: header 64
 * bytes, e_phoff@32, e_ehsize@52, e_phentsize@54, e_phnum@56; program
 * header p_type@0, p_offset@8, p_vaddr@16, p_paddr@24, p_filesz@32,
 * p_memsz@40.  ELF32: header 52 bytes, e_phoff@28, e_ehsize@40,
 * e_phentsize@42, e_phnum@44; p_type@0, p_offset@4, p_vaddr@8,
 * p_paddr@12, p_filesz@16, p_memsz@20.  PA 0 is at offset 0x1000.
 */
static void
make_core(struct img *im, int is64, uint16_t machine, uint32_t bytes)
{
	img_init(im, 0x1000 + bytes);
	put(im, 0, "\x7f" "ELF", 4);
	im->p[4] = is64 ? 2 : 1;
	im->p[5] = 1;				/* LSB */
	im->p[6] = 1;
	im->p[7] = 255;				/* ELFOSABI_STANDALONE */
	im->p[16] = 4;				/* ET_CORE */
	im->p[18] = (uint8_t)machine;
	im->p[19] = (uint8_t)(machine >> 8);
	put_le32(im, 20, 1);
	if (is64) {
		put_le64(im, 32, 64);
		im->p[52] = 64;
		im->p[54] = 56;
		im->p[56] = 1;
		put_le32(im, 64, 1);		/* PT_LOAD */
		put_le64(im, 64 + 8, 0x1000);
		put_le64(im, 64 + 32, bytes);
		put_le64(im, 64 + 40, bytes);
	} else {
		put_le32(im, 28, 52);
		im->p[40] = 52;
		im->p[42] = 32;
		im->p[44] = 1;
		put_le32(im, 52, 1);
		put_le32(im, 52 + 4, 0x1000);
		put_le32(im, 52 + 16, bytes);
		put_le32(im, 52 + 20, bytes);
	}
}

/* The entry at pa of the core (file offset 0x1000 + pa). */
static void
entry32(struct img *im, uint64_t pa, uint32_t v)
{
	put_le32(im, 0x1000 + (size_t)pa, v);
}

static void
entry64(struct img *im, uint64_t pa, uint64_t v)
{
	put_le64(im, 0x1000 + (size_t)pa, v);
}

/* va through walk name of module m from root: pa and prot, or code. */
static void
walk_ok(const struct dk_arch_ops *m, const char *name, struct dk_dump *d,
    uint64_t root, uint64_t va, uint64_t want_pa, unsigned want_prot)
{
	const struct dk_pt_walk *w = dk_arch_walk(m, name);
	struct dk_err err;
	uint64_t pa = 0;
	unsigned prot = ~0u;

	ck_assert_ptr_nonnull(w);
	ck_assert_msg(w->translate(d, w, root, va, &pa, &prot, &err) == DK_OK,
	    "%s: va %#jx: %s", name, (uintmax_t)va, err.msg);
	ck_assert_msg(pa == want_pa, "%s: va %#jx: pa %#jx, expected %#jx",
	    name, (uintmax_t)va, (uintmax_t)pa, (uintmax_t)want_pa);
	ck_assert_msg(prot == want_prot, "%s: va %#jx: prot %#x, expected "
	    "%#x", name, (uintmax_t)va, prot, want_prot);
	/* prot may be NULL. */
	ck_assert_int_eq(w->translate(d, w, root, va, &pa, NULL, &err), DK_OK);
}

static void
walk_fails(const struct dk_arch_ops *m, const char *name, struct dk_dump *d,
    uint64_t root, uint64_t va, enum dk_status code)
{
	const struct dk_pt_walk *w = dk_arch_walk(m, name);
	struct dk_err err;
	uint64_t pa;

	ck_assert_ptr_nonnull(w);
	ck_assert_int_eq(w->translate(d, w, root, va, &pa, NULL, &err), code);
}

/*
 * amd64 (FORMATS.md 2.1, 4.2): P 0x1, RW 0x2, PS 0x80, NX bit 63.  PML4
 * at PA 0, PDPT at 0x1000, PD at 0x2000, PT at 0x3000.
 *  - 0xffffffff80203abc: PML4 511, PDPT 510, PD 1, PT 3 -> the 4 KiB
 *    page 0x5000, RW: pa 0x5abc, writable and executable.
 *  - 0xffffffff80600123: PD 3, a 2 MiB page at 0x400000, NX, not RW:
 *    pa 0x400123, neither.
 *  - 0xffffffffc0000010: PDPT 511, a 1 GiB page at 0x40000000, RW|NX:
 *    pa 0x40000010, writable only.
 *  - PT 4 is empty; 0x0000800000000000 is not canonical.
 */
START_TEST(test_walk_amd64)
{
	const struct dk_arch_ops *m = &dk_arch_amd64;
	struct dk_dump *d;
	struct img im;

	make_core(&im, 1, 62, 0x6000);		/* EM_X86_64 */
	entry64(&im, 0x0000 + 511 * 8, 0x1000 | 0x3);
	entry64(&im, 0x1000 + 510 * 8, 0x2000 | 0x3);
	entry64(&im, 0x1000 + 511 * 8, 0x8000000040000083ull);
	entry64(&im, 0x2000 + 1 * 8, 0x3000 | 0x3);
	entry64(&im, 0x2000 + 3 * 8, 0x8000000000400081ull);
	entry64(&im, 0x3000 + 3 * 8, 0x5000 | 0x3);
	d = img_open(&im, NULL);
	ck_assert_ptr_eq(d->arch->ops, m);
	walk_ok(m, "amd64 4-level", d, 0, 0xffffffff80203abcull, 0x5abc,
	    PW | PX);
	walk_ok(m, "amd64 4-level", d, 0, 0xffffffff80600123ull, 0x400123, 0);
	walk_ok(m, "amd64 4-level", d, 0, 0xffffffffc0000010ull, 0x40000010,
	    PW);
	walk_fails(m, "amd64 4-level", d, 0, 0xffffffff80204000ull,
	    DK_ENOTMAPPED);
	walk_fails(m, "amd64 4-level", d, 0, 0x0000800000000000ull,
	    DK_ENOTMAPPED);
	/* The same entries through the module's protection decoding. */
	ck_assert_uint_eq(m->prot(0x5003, 0), PW | PX);
	ck_assert_uint_eq(m->prot(0x8000000000400081ull, 0), 0);
	ck_assert_uint_eq(m->prot(0x8000000040000083ull, 0), PW);
	dk_close(d);
	free(im.p);
}
END_TEST

/*
 * i386 (FORMATS.md 2.2, 4.2): P 0x1, RW 0x2, PS 0x80; PAE adds NX at
 * bit 63.  Without PAE, the page directory at PA 0, a page table at
 * 0x1000:
 *  - 0xc0805678: PDE 0x302 -> PT, PTE 5 = 0x3000|P|RW: pa 0x3678, W, X.
 *  - 0xc0c01234: PDE 0x303, a 4 MiB page at 0xc00000, read-only: pa
 *    0xc01234, executable only (no NX without PAE).
 * With PAE, the PDPT at PA 0 (4 entries), a page directory at 0x1000,
 * a page table at 0x2000:
 *  - 0xc0201234: PDPT 3, PDE 1, PTE 1 = 0x4000|P|RW|NX: pa 0x4234, W.
 *  - 0xc0400321: PDE 2, a 2 MiB page at 0x600000: pa 0x600321, X.
 */
START_TEST(test_walk_i386)
{
	const struct dk_arch_ops *m = &dk_arch_i386;
	struct dk_dump *d;
	struct img im;

	make_core(&im, 0, 3, 0x5000);		/* EM_386 */
	entry32(&im, 0x302 * 4, 0x1000 | 0x3);
	entry32(&im, 0x303 * 4, 0x00c00000 | 0x81);
	entry32(&im, 0x1000 + 5 * 4, 0x3000 | 0x3);
	d = img_open(&im, NULL);
	ck_assert_ptr_eq(d->arch->ops, m);
	walk_ok(m, "i386", d, 0, 0xc0805678, 0x3678, PW | PX);
	walk_ok(m, "i386", d, 0, 0xc0c01234, 0xc01234, PX);
	walk_fails(m, "i386", d, 0, 0xc0806000, DK_ENOTMAPPED);
	walk_fails(m, "i386", d, 0, 0x100000000ull, DK_ENOTMAPPED);
	ck_assert_uint_eq(m->prot(0x3003, 0), PW | PX);
	ck_assert_uint_eq(m->prot(0x8000000000004003ull, 0), PW | PX);
	dk_close(d);
	free(im.p);

	make_core(&im, 0, 3, 0x5000);
	entry64(&im, 3 * 8, 0x1000 | 0x1);
	entry64(&im, 0x1000 + 1 * 8, 0x2000 | 0x3);
	entry64(&im, 0x1000 + 2 * 8, 0x600000 | 0x81);
	entry64(&im, 0x2000 + 1 * 8, 0x8000000000004003ull);
	d = img_open(&im, NULL);
	walk_ok(m, "i386 PAE", d, 0, 0xc0201234, 0x4234, PW);
	walk_ok(m, "i386 PAE", d, 0, 0xc0400321, 0x600321, PX);
	walk_fails(m, "i386 PAE", d, 0, 0x40000000, DK_ENOTMAPPED);
	ck_assert_uint_eq(m->prot(0x8000000000004003ull, 1), PW);
	ck_assert_uint_eq(m->prot(0x600081, 1), PX);
	dk_close(d);
	free(im.p);
}
END_TEST

/*
 * arm short descriptors (FORMATS.md 2.3, 4.2), read as ARMv6: the L1
 * table at PA 0 (4096 entries), a coarse L2 table at 0x4000.
 *  - 0xc0102abc: L1 0xc01 = 0x4000|1 (coarse), L2 2 = 0x5000|2, a small
 *    page: pa 0x5abc, writable and executable.
 *  - 0xc0103abc: L2 3 = 0x6000|3|0x80: XN (type 3) and read-only
 *    (TEX1): pa 0x6abc, neither.
 *  - 0xc0312345: L1 0xc03, a 1 MiB section at 0x300000 with APX and
 *    XN: pa 0x312345, neither.
 *  - L1 0xc04 is a fault entry.
 */
START_TEST(test_walk_arm)
{
	const struct dk_arch_ops *m = &dk_arch_arm;
	const char *w = "arm short descriptor";
	struct dk_dump *d;
	struct img im;

	make_core(&im, 0, 40, 0x7000);		/* EM_ARM */
	entry32(&im, 0xc01 * 4, 0x4000 | 0x1);
	entry32(&im, 0xc03 * 4, 0x00300000 | 0x8000 | 0x10 | 0x2);
	entry32(&im, 0x4000 + 2 * 4, 0x5000 | 0x2);
	entry32(&im, 0x4000 + 3 * 4, 0x6000 | 0x80 | 0x3);
	d = img_open(&im, NULL);
	ck_assert_ptr_eq(d->arch->ops, m);
	walk_ok(m, w, d, 0, 0xc0102abc, 0x5abc, PW | PX);
	walk_ok(m, w, d, 0, 0xc0103abc, 0x6abc, 0);
	walk_ok(m, w, d, 0, 0xc0312345, 0x312345, 0);
	walk_fails(m, w, d, 0, 0xc0400000, DK_ENOTMAPPED);
	walk_fails(m, w, d, 0, 0xc0104000, DK_ENOTMAPPED);	/* L2 4 */
	ck_assert_uint_eq(m->prot(0x5002, 2), PW | PX);	/* V6 */
	ck_assert_uint_eq(m->prot(0x6083, 2), 0);
	/* V4: writable iff AP0 bit 4; always executable. */
	ck_assert_uint_eq(m->prot(0x5012, 1), PW | PX);
	ck_assert_uint_eq(m->prot(0x5002, 1), PX);
	dk_close(d);
	free(im.p);
}
END_TEST

/*
 * The modules without a full-core walk decode their minidump entries:
 * arm64 (AP_RO bit 7, UXN|PXN bits 53, 54), riscv (W bit 2, X bit 3),
 * mips (RO bit 29 in 4-byte o32 PTEs, bit 55 in 8-byte ones; always
 * executable), powerpc64 (hashed pte_lo: PP 3 read-only, N 0x4; radix
 * leaves: EAA W 0x2, X 0x1; fmt is the mmu, 3 for mmu_radix).
 */
START_TEST(test_prot_decoding)
{
	ck_assert_uint_eq(dk_arch_arm64.prot(0x743ull, 0), PW | PX);
	ck_assert_uint_eq(dk_arch_arm64.prot(0x00600000000007c3ull, 0), 0);
	ck_assert_uint_eq(dk_arch_riscv.prot(0xcfull, 0), PW | PX);
	ck_assert_uint_eq(dk_arch_riscv.prot(0x43ull, 0), 0);
	ck_assert_uint_eq(dk_arch_mips.prot(0x5full, 4), PW | PX);
	ck_assert_uint_eq(dk_arch_mips.prot(0x2000005full, 4), PX);
	ck_assert_uint_eq(dk_arch_mips.prot(0x2000005full, 8), PW | PX);
	ck_assert_uint_eq(dk_arch_mips.prot(0x008000000000005full, 8), PX);
	ck_assert_uint_eq(dk_arch_powerpc64.prot(0x10192ull, 1), PW | PX);
	ck_assert_uint_eq(dk_arch_powerpc64.prot(0x10197ull, 1), 0);
	ck_assert_uint_eq(dk_arch_powerpc64.prot(0x10197ull, 2), 0);
	ck_assert_uint_eq(dk_arch_powerpc64.prot(0xc000000000005183ull, 3),
	    PW | PX);
	ck_assert_uint_eq(dk_arch_powerpc64.prot(0xc000000000005184ull, 3),
	    0);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Address windows.                                                        */

struct win {
	enum dk_window_kind kind;
	const char	*name;
	uint64_t	 va, end, pa;
};

/*
 * d reports exactly the windows w[0..n) in that order, and dk_kvtop
 * translates a window's first byte, a byte inside and its last byte by
 * pa = va - window.va + window.pa.
 */
static void
expect_windows(struct dk_dump *d, const struct win *w, size_t n)
{
	ck_assert_uint_eq(dk_nwindows(d), n);
	ck_assert_ptr_null(dk_window(d, n));
	for (size_t i = 0; i < n; i++) {
		const struct dk_window *g = dk_window(d, i);
		uint64_t at[3] = { w[i].va, w[i].va + (w[i].end - w[i].va) / 3,
		    w[i].end - 1 };

		ck_assert_ptr_nonnull(g);
		ck_assert_int_eq(g->kind, w[i].kind);
		ck_assert_str_eq(g->name, w[i].name);
		ck_assert_uint_eq(g->va, w[i].va);
		ck_assert_uint_eq(g->end, w[i].end);
		ck_assert_uint_eq(g->pa, w[i].pa);
		for (size_t k = 0; k < 3; k++) {
			struct dk_err err;
			uint64_t pa = 0;

			ck_assert_msg(dk_kvtop(d, at[k], &pa, &err) == DK_OK,
			    "%s: va %#jx: %s", w[i].name, (uintmax_t)at[k],
			    err.msg);
			ck_assert_msg(pa == at[k] - w[i].va + w[i].pa, "%s: "
			    "va %#jx: pa %#jx", w[i].name, (uintmax_t)at[k],
			    (uintmax_t)pa);
		}
	}
}

/*
 * mips o32, big-endian, version 1 (FORMATS.md 1.2 "mips", 1.3, 1.4):
 * magic@0, version@24, msgbufsize@28, bitmapsize@32, ptesize@36,
 * kernbase@40 (u64, zero-extended).  Header page, msgbuf "boot" at
 * 0x1000, bitmap at 0x2000 (one 32-bit big-endian word, bit 1: PA
 * 0x1000), 1024 4-byte PTEs at 0x3000 (PTE 0 = PA 0x1000: PFN 1 << 6
 * | G V D, cache 3), the page of PA 0x1000 at 0x4000.
 */
static void
make_mips_o32(struct img *im)
{
	img_init(im, 0x5000);
	put(im, 0, "minidump FreeBSD/mips\0\0\0", 24);
	put_be32(im, 24, 1);
	put_be32(im, 28, 4);
	put_be32(im, 32, 4);
	put_be32(im, 36, 4096);
	put_be64(im, 40, 0xc0000000ull);
	put(im, 0x1000, "boot", 4);
	put_be32(im, 0x2000, 0x00000002u);
	put_be32(im, 0x3000, 0x0000005fu);
	memset(im->p + 0x4000, 0x5a, 0x1000);
}

START_TEST(test_windows_mips32)
{
	static const struct win kseg[] = {
		{ DK_WIN_UNMAPPED, "KSEG0", 0x80000000, 0xa0000000, 0 },
		{ DK_WIN_UNMAPPED, "KSEG1", 0xa0000000, 0xc0000000, 0 },
	};
	static const char *const rows[] = { "mips", "mipsn32" };
	struct img im;

	make_mips_o32(&im);
	for (size_t r = 0; r < DK_ARRAY_LEN(rows); r++) {
		struct dk_dump *d = img_open(&im, rows[r]);

		ck_assert_str_eq(dk_info(d)->arch, rows[r]);
		ck_assert_ptr_null(dk_window_find(d, DK_WIN_DIRECT_MAP));
		expect_windows(d, kseg, DK_ARRAY_LEN(kseg));
		/* The dumped page through both segments. */
		expect_bytes(d, 1, 0x80001000, 0x5a, 64);
		expect_bytes(d, 1, 0xa0001fc0, 0x5a, 64);
		expect_fail(d, 1, 0x80002000, 8, DK_ENOTDUMPED, NULL);
		dk_close(d);
	}
	free(im.p);
}
END_TEST

/*
 * mips n64, little-endian, version 2: as o32 with dumpavailsize@64;
 * msgbuf empty, dump_avail at 0x1000 ([0, 0x40000): 64 pages), bitmap
 * at 0x2000 (one 64-bit little-endian word, bit 1), 512 8-byte PTEs at
 * 0x3000 (all invalid), the page of PA 0x1000 at 0x4000.  XKPHYS is a
 * window of 2^40 bytes (the PFN's 40 bits) per cache attribute, bits
 * 61:59.
 */
START_TEST(test_windows_mips64)
{
	static const struct win w[] = {
		{ DK_WIN_UNMAPPED, "XKPHYS CCA 0", 0x8000000000000000ull,
		  0x8000010000000000ull, 0 },
		{ DK_WIN_UNMAPPED, "XKPHYS CCA 1", 0x8800000000000000ull,
		  0x8800010000000000ull, 0 },
		{ DK_WIN_UNMAPPED, "XKPHYS CCA 2", 0x9000000000000000ull,
		  0x9000010000000000ull, 0 },
		{ DK_WIN_UNMAPPED, "XKPHYS CCA 3", 0x9800000000000000ull,
		  0x9800010000000000ull, 0 },
		{ DK_WIN_UNMAPPED, "XKPHYS CCA 4", 0xa000000000000000ull,
		  0xa000010000000000ull, 0 },
		{ DK_WIN_UNMAPPED, "XKPHYS CCA 5", 0xa800000000000000ull,
		  0xa800010000000000ull, 0 },
		{ DK_WIN_UNMAPPED, "XKPHYS CCA 6", 0xb000000000000000ull,
		  0xb000010000000000ull, 0 },
		{ DK_WIN_UNMAPPED, "XKPHYS CCA 7", 0xb800000000000000ull,
		  0xb800010000000000ull, 0 },
		{ DK_WIN_UNMAPPED, "CKSEG0", 0xffffffff80000000ull,
		  0xffffffffa0000000ull, 0 },
		{ DK_WIN_UNMAPPED, "CKSEG1", 0xffffffffa0000000ull,
		  0xffffffffc0000000ull, 0 },
	};
	struct dk_dump *d;
	struct img im;

	img_init(&im, 0x5000);
	put(&im, 0, "minidump FreeBSD/mips\0\0\0", 24);
	put_le32(&im, 24, 2);
	put_le32(&im, 28, 0);
	put_le32(&im, 32, 8);
	put_le32(&im, 36, 4096);
	put_le64(&im, 40, 0xc000000000000000ull);
	put_le32(&im, 64, 4096);
	put_le64(&im, 0x1000, 0);
	put_le64(&im, 0x1008, 0x40000);
	im.p[0x2000] = 0x02;
	memset(im.p + 0x4000, 0x6b, 0x1000);
	d = img_open(&im, NULL);
	ck_assert_str_eq(dk_info(d)->arch, "mips64el");
	expect_windows(d, w, DK_ARRAY_LEN(w));
	expect_bytes(d, 1, 0x9800000000001000ull, 0x6b, 64);
	expect_bytes(d, 1, 0x9000000000001fc0ull, 0x6b, 64);
	expect_bytes(d, 1, 0xffffffff80001000ull, 0x6b, 64);
	expect_bytes(d, 1, 0xffffffffa0001800ull, 0x6b, 64);
	dk_close(d);
	free(im.p);
}
END_TEST

/*
 * powerpc64, big-endian, version 2 (FORMATS.md 1.2 "powerpc64", 1.3):
 * magic@0 char[32], mmu_name@32, version@64, msgbufsize@68,
 * bitmapsize@72, pmapsize@76, kernbase@80, kernend@88, dmapbase@96,
 * dmapend@104, hw_direct_map@112, startkernel@120, endkernel@128,
 * dumpavailsize@136.  FreeBSD 13's addresses; msgbuf at 0x1000,
 * dump_avail at 0x2000 ([0, 0x800000)), bitmap at 0x3000 (8-byte
 * big-endian words: bit 0x400, PA 0x400000, is byte 8 * 16 + 7), an
 * empty hashed page table of 2048 PTEGs at 0x4000, the page of PA
 * 0x400000 at 0x44000.
 */
#define	PPC_DB	0xc000000000000000ull	/* DMAP_BASE_ADDRESS */
#define	PPC_DE	0xc007ffffffffffffull	/* DMAP_MAX_ADDRESS */

static void
make_ppc64(struct img *im, uint64_t startkernel)
{
	img_init(im, 0x45000);
	put(im, 0, "minidump FreeBSD/powerpc64", 26);
	put(im, 32, "mmu_g5", 6);
	put_be32(im, 64, 2);
	put_be32(im, 68, 5);
	put_be32(im, 72, 4096);
	put_be32(im, 76, 2048 * 128);
	put_be64(im, 80, 0xc008000000000000ull);
	put_be64(im, 88, 0xc0080007ffffffffull);
	put_be64(im, 96, PPC_DB);
	put_be64(im, 104, PPC_DE);
	put_be32(im, 112, 1);
	put_be64(im, 120, startkernel);
	put_be64(im, 128, startkernel + 0x1000000);
	put_be32(im, 136, 4096);
	put(im, 0x1000, "ppc64", 5);
	put_be64(im, 0x2000, 0);
	put_be64(im, 0x2008, 0x800000);
	im->p[0x3000 + 8 * 16 + 7] = 0x01;
	memset(im->p + 0x44000, 0xc3, 0x1000);
}

/*
 * The kernel runs at startkernel = dmapbase + 0x400100 (PA 0x400100),
 * linked at 0x100100: addresses below dmapbase move by disp =
 * startkernel - 0x100100 = dmapbase + 0x300000, into the direct map for
 * va + disp <= dmapend, so va < 0x0007ffffffd00000, pa = va + 0x300000.
 */
START_TEST(test_windows_powerpc64)
{
	static const struct win w[] = {
		{ DK_WIN_DIRECT_MAP, "direct map", PPC_DB, PPC_DE + 1, 0 },
		{ DK_WIN_KERNEL, "kernel relocation", 0, 0x0007ffffffd00000ull,
		  0x300000 },
	};
	struct dk_dump *d;
	struct dk_err err;
	struct img im;
	uint64_t pa;

	make_ppc64(&im, PPC_DB + 0x400100);
	d = img_open(&im, NULL);
	ck_assert_str_eq(dk_info(d)->arch, "powerpc64");
	expect_windows(d, w, DK_ARRAY_LEN(w));
	/* The kernel's link address is its run address's PA. */
	ck_assert_int_eq(dk_kvtop(d, 0x100100, &pa, &err), DK_OK);
	ck_assert_uint_eq(pa, 0x400100);
	expect_bytes(d, 1, 0x100000, 0xc3, 64);
	expect_bytes(d, 1, PPC_DB + 0x400fc0, 0xc3, 64);
	/* At the window's end va + disp is kernbase: the page table's. */
	ck_assert_int_ne(dk_kvtop(d, w[1].end, &pa, &err), DK_OK);
	dk_close(d);
	free(im.p);

	/*
	 * startkernel 0 (below the link address): va + disp is va -
	 * 0x100100 modulo 2^64, which never lands in the direct map for a
	 * va below dmapbase.  No window, and nothing below dmapbase maps.
	 */
	make_ppc64(&im, 0);
	d = img_open(&im, NULL);
	expect_windows(d, w, 1);
	ck_assert_ptr_null(dk_window_find(d, DK_WIN_KERNEL));
	ck_assert_int_ne(dk_kvtop(d, 0x100100, &pa, &err), DK_OK);
	ck_assert_int_ne(dk_kvtop(d, 0x1000, &pa, &err), DK_OK);
	dk_close(d);
	free(im.p);
}
END_TEST

/*
 * The generator's model of a fixture (its dk_mdgen windows) against the
 * windows the reader reports for the dump it writes: powerpc64's
 * relocation window, and mips n64's XKPHYS cached window, CKSEG0 and
 * CKSEG1 (the model's fourth window, an alias of XKPHYS below
 * kernbase, is none of the hardware's).
 */
START_TEST(test_windows_model)
{
	static const struct {
		const char *arch, *variant;
		const char *names[3];	/* the reader's, for model win[i] */
	} cases[] = {
		{ "powerpc64", "-", { "kernel relocation" } },
		{ "powerpc64le", "reloc", { "kernel relocation" } },
		{ "powerpc64", "radix", { "kernel relocation" } },
		{ "mips64", "-", { "XKPHYS CCA 3", "CKSEG0", "CKSEG1" } },
	};

	for (size_t c = 0; c < DK_ARRAY_LEN(cases); c++) {
		struct fx_opts o = { .arch = cases[c].arch, .version = 2,
		    .variant = cases[c].variant, .mem = 32u << 20,
		    .seed = 3, .compact = 1 };
		char path[] = "/tmp/dkarchops.XXXXXX";
		struct fx_dump f;
		struct dk_dump *d;
		struct dk_err err;
		int fd = mkstemp(path);

		ck_assert_int_ge(fd, 0);
		close(fd);
		ck_assert_msg(fx_build(&o, &f, &err) == DK_OK, "%s", err.msg);
		ck_assert_msg(fx_write(&f, path, 1, &err) == DK_OK, "%s",
		    err.msg);
		ck_assert_int_eq(dk_open(path, NULL, &d, &err), DK_OK);
		unlink(path);
		for (size_t i = 0; i < 3 && cases[c].names[i] != NULL; i++) {
			const struct dk_window *g = NULL;

			for (size_t k = 0; k < dk_nwindows(d); k++)
				if (strcmp(dk_window(d, k)->name,
				    cases[c].names[i]) == 0)
					g = dk_window(d, k);
			ck_assert_uint_gt(f.g.nwin, i);
			ck_assert_msg(g != NULL, "%s: no %s window",
			    cases[c].arch, cases[c].names[i]);
			ck_assert_int_eq(g->kind, f.g.win[i].kind);
			ck_assert_uint_eq(g->va, f.g.win[i].va);
			ck_assert_uint_eq(g->end, f.g.win[i].end);
			ck_assert_uint_eq(g->pa, f.g.win[i].pa);
		}
		dk_close(d);
		fx_free(&f);
	}
}
END_TEST

static Suite *
arch_ops_suite(void)
{
	Suite *s = suite_create("arch_ops");
	TCase *mod = tcase_create("modules");
	TCase *walk = tcase_create("walks");
	TCase *win = tcase_create("windows");

	tcase_add_test(mod, test_row_order);
	tcase_add_test(mod, test_rows_modules);
	tcase_add_test(mod, test_module_tables);
	tcase_add_test(mod, test_s390x);
	tcase_add_test(walk, test_walk_amd64);
	tcase_add_test(walk, test_walk_i386);
	tcase_add_test(walk, test_walk_arm);
	tcase_add_test(walk, test_prot_decoding);
	tcase_add_test(win, test_windows_mips32);
	tcase_add_test(win, test_windows_mips64);
	tcase_add_test(win, test_windows_powerpc64);
	tcase_add_test(win, test_windows_model);
	tcase_set_timeout(win, 60);
	suite_add_tcase(s, mod);
	suite_add_tcase(s, walk);
	suite_add_tcase(s, win);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(arch_ops_suite());
	int nfailed;

	srunner_run_all(sr, CK_ENV);
	nfailed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfailed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
