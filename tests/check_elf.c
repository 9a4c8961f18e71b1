/*
 * check_elf.c -- FreeBSD full ELF cores (formats/fmt_elf.c, FORMATS.md 4).
 *
 * The hand-made cores below are written byte by byte from FORMATS.md
 * 4.1: the ELF and program headers as literal bytes with their offsets
 * in comments, page-table entries put by hand at the PAs the walk must
 * visit, and the answers of the walks computed by hand in the comments.
 * The generated cores (fixtures/gen_elf.c) are checked against the
 * generator's model and the fixture pattern, page by page.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "corrupt.h"
#include "dkcheck.h"
#include "gen_elf.h"
#include "private.h"

#define	PG	4096u

static void
put_le(uint8_t *p, unsigned n, uint64_t v)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/*
 * The modules' full-core walks, called through their ops tables as
 * fmt_elf.c calls them (formats/arch_amd64.c, arch_i386.c, arch_arm.c).
 */
static enum dk_status
mod_walk(const struct dk_arch_ops *m, const char *name, struct dk_dump *d,
    uint64_t root, uint64_t va, uint64_t *pa, unsigned *prot,
    struct dk_err *err)
{
	const struct dk_pt_walk *w = dk_arch_walk(m, name);

	ck_assert_ptr_nonnull(w);
	return w->translate(d, w, root, va, pa, prot, err);
}

static enum dk_status
amd64_walk(struct dk_dump *d, uint64_t root, uint64_t va, uint64_t *pa,
    unsigned *prot, struct dk_err *err)
{
	return mod_walk(&dk_arch_amd64, "amd64 4-level", d, root, va, pa,
	    prot, err);
}

static enum dk_status
i386_walk(struct dk_dump *d, uint64_t root, int pae, uint64_t va,
    uint64_t *pa, unsigned *prot, struct dk_err *err)
{
	return mod_walk(&dk_arch_i386, pae ? "i386 PAE" : "i386", d, root, va,
	    pa, prot, err);
}

static enum dk_status
arm_walk(struct dk_dump *d, uint64_t root, uint64_t va, uint64_t *pa,
    unsigned *prot, struct dk_err *err)
{
	return mod_walk(&dk_arch_arm, "arm short descriptor", d, root, va, pa,
	    prot, err);
}

/* ELF64 little-endian core header, x86-64, one program header. */
static const uint8_t amd64_ehdr[64] = {
	0x7f, 'E', 'L', 'F', 2, 1, 1, 0xff,	/* 0x00 ELFCLASS64, LSB, EV_CURRENT, */
	0, 0, 0, 0, 0, 0, 0, 0,			/*      EI_OSABI 255 STANDALONE */
	4, 0,					/* 0x10 e_type ET_CORE */
	62, 0,					/* 0x12 e_machine EM_X86_64 */
	1, 0, 0, 0,				/* 0x14 e_version */
	0, 0, 0, 0, 0, 0, 0, 0,			/* 0x18 e_entry */
	64, 0, 0, 0, 0, 0, 0, 0,		/* 0x20 e_phoff */
	0, 0, 0, 0, 0, 0, 0, 0,			/* 0x28 e_shoff */
	0, 0, 0, 0,				/* 0x30 e_flags */
	64, 0,					/* 0x34 e_ehsize */
	56, 0,					/* 0x36 e_phentsize */
	1, 0,					/* 0x38 e_phnum */
	64, 0,					/* 0x3a e_shentsize */
	0, 0, 0, 0,				/* 0x3c e_shnum, e_shstrndx */
};

/* At 0x40: PT_LOAD of PA [0, 0x6000) at file offset 0x1000. */
static const uint8_t amd64_phdr[56] = {
	1, 0, 0, 0,				/* +0x00 p_type PT_LOAD */
	4, 0, 0, 0,				/* +0x04 p_flags PF_R */
	0, 0x10, 0, 0, 0, 0, 0, 0,		/* +0x08 p_offset 0x1000 */
	0, 0, 0, 0, 0, 0, 0, 0,			/* +0x10 p_vaddr 0 */
	0, 0, 0, 0, 0, 0, 0, 0,			/* +0x18 p_paddr 0 */
	0, 0x60, 0, 0, 0, 0, 0, 0,		/* +0x20 p_filesz 0x6000 */
	0, 0x60, 0, 0, 0, 0, 0, 0,		/* +0x28 p_memsz 0x6000 */
	0, 0x10, 0, 0, 0, 0, 0, 0,		/* +0x30 p_align 4096 */
};

#define	AMD64_SIZE	0x7000u

/*
 * Memory (PA = file offset - 0x1000): PML4 at 0, PDP at 0x1000, PD at
 * 0x2000, PT at 0x3000, a data page at 0x4000.
 */
static uint8_t *
amd64_core(void)
{
	uint8_t *b = calloc(1, AMD64_SIZE);

	memcpy(b, amd64_ehdr, sizeof(amd64_ehdr));
	memcpy(b + 0x40, amd64_phdr, sizeof(amd64_phdr));
	/* 0xffffffff80201234: PML4 511, PDP 510, PD 1, PT 1. */
	put_le(b + 0x1000 + 511 * 8, 8, 0x1003);	/* PML4[511] */
	put_le(b + 0x2000 + 510 * 8, 8, 0x2003);	/* PDP[510] */
	put_le(b + 0x3000 + 1 * 8, 8, 0x3003);		/* PD[1] */
	put_le(b + 0x4000 + 1 * 8, 8, 0x8000000000004003ull); /* PT[1], NX */
	/* PD[2]: a 2 MiB page at PA 0x200000 (not dumped). */
	put_le(b + 0x3000 + 2 * 8, 8, 0x200083);
	/* PDP[0]: a 1 GiB page at PA 0x40000000 (VA 0xffffff8000000000). */
	put_le(b + 0x2000 + 0 * 8, 8, 0x40000083);
	memcpy(b + 0x5000 + 0x234, "amd64 data", 10);
	return b;
}

static struct dk_dump *
open_mem(const uint8_t *b, size_t len, const char *name)
{
	struct dk_dump *d = NULL;
	struct dk_err err;
	enum dk_status st = dk_open_mem(b, len, name, NULL, &d, &err);

	ck_assert_msg(st == DK_OK, "%s: %s", name, err.msg);
	return d;
}

START_TEST(test_amd64_hand)
{
	uint8_t *b = amd64_core();
	struct dk_dump *d = open_mem(b, AMD64_SIZE, "hand-amd64");
	const struct dk_info *in = dk_info(d);
	struct dk_run_iter it = { 0 };
	struct dk_run r;
	struct dk_err err;
	uint64_t pa;
	unsigned prot;
	char buf[16];

	ck_assert_str_eq(in->format, "elf");
	ck_assert_str_eq(in->arch, "amd64");
	ck_assert_uint_eq(in->npages, 6);
	ck_assert_uint_eq(in->npages_present, 6);
	ck_assert_uint_eq(dk_phys_nranges(d), 1);
	ck_assert_uint_eq(dk_phys_range(d, 0).end, 0x6000);
	ck_assert_int_eq(dk_run_next(d, &it, &r), 1);
	ck_assert_uint_eq(r.pa, 0);
	ck_assert_uint_eq(r.len, 0x6000);
	ck_assert_uint_eq(r.offset, 0x1000);
	ck_assert_int_eq(dk_run_next(d, &it, &r), 0);
	/* Physical read: PA 0x4234 is file offset 0x5234. */
	ck_assert_int_eq(dk_read_pa(d, 0x4234, buf, 10, &err), DK_OK);
	ck_assert_mem_eq(buf, "amd64 data", 10);
	ck_assert_int_eq(dk_read_pa(d, 0x6000, buf, 1, &err), DK_ENOTDUMPED);
	/* No --kernel: no walk, and the message says what is needed. */
	ck_assert_int_eq(dk_kvtop(d, 0xffffffff80201234ull, &pa, &err),
	    DK_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "--kernel"));
	/* The walk from the PML4 at PA 0. */
	ck_assert_int_eq(amd64_walk(d, 0, 0xffffffff80201234ull, &pa, &prot,
	    &err), DK_OK);
	ck_assert_uint_eq(pa, 0x4234);
	ck_assert_uint_eq(prot, DK_PROT_W);		/* RW, NX */
	ck_assert_int_eq(amd64_walk(d, 0, 0xffffffff80412345ull, &pa, NULL,
	    &err), DK_OK);
	ck_assert_uint_eq(pa, 0x212345);		/* 2 MiB page */
	ck_assert_int_eq(amd64_walk(d, 0, 0xffffff8000abcdefull, &pa, NULL,
	    &err), DK_OK);
	ck_assert_uint_eq(pa, 0x40abcdef);		/* 1 GiB page */
	ck_assert_int_eq(amd64_walk(d, 0, 0xffffffff80601000ull, &pa, NULL,
	    &err), DK_ENOTMAPPED);			/* PD[3] is 0 */
	ck_assert_ptr_nonnull(strstr(err.msg, "PDE"));
	ck_assert_int_eq(amd64_walk(d, 0, 0xffff800000000000ull, &pa, NULL,
	    &err), DK_ENOTMAPPED);			/* PML4[256] is 0 */
	ck_assert_int_eq(amd64_walk(d, 0, 0x0000800000000000ull, &pa, NULL,
	    &err), DK_ENOTMAPPED);
	ck_assert_ptr_nonnull(strstr(err.msg, "canonical"));
	dk_close(d);
	free(b);
}
END_TEST

/* ELF32 little-endian core header, i386, one program header. */
static const uint8_t i386_ehdr[52] = {
	0x7f, 'E', 'L', 'F', 1, 1, 1, 0xff,	/* 0x00 ELFCLASS32, LSB, 255 */
	0, 0, 0, 0, 0, 0, 0, 0,
	4, 0,					/* 0x10 e_type ET_CORE */
	3, 0,					/* 0x12 e_machine EM_386 */
	1, 0, 0, 0,				/* 0x14 e_version */
	0, 0, 0, 0,				/* 0x18 e_entry */
	52, 0, 0, 0,				/* 0x1c e_phoff */
	0, 0, 0, 0,				/* 0x20 e_shoff */
	0, 0, 0, 0,				/* 0x24 e_flags */
	52, 0,					/* 0x28 e_ehsize */
	32, 0,					/* 0x2a e_phentsize */
	1, 0,					/* 0x2c e_phnum */
	40, 0,					/* 0x2e e_shentsize */
	0, 0, 0, 0,				/* 0x30 e_shnum, e_shstrndx */
};

/* At 0x34: PT_LOAD of PA [0, 0x4000) at file offset 0x1000. */
static const uint8_t i386_phdr[32] = {
	1, 0, 0, 0,				/* +0x00 p_type PT_LOAD */
	0, 0x10, 0, 0,				/* +0x04 p_offset 0x1000 */
	0, 0, 0, 0,				/* +0x08 p_vaddr 0 */
	0, 0, 0, 0,				/* +0x0c p_paddr 0 */
	0, 0x40, 0, 0,				/* +0x10 p_filesz 0x4000 */
	0, 0x40, 0, 0,				/* +0x14 p_memsz 0x4000 */
	4, 0, 0, 0,				/* +0x18 p_flags PF_R */
	0, 0x10, 0, 0,				/* +0x1c p_align 4096 */
};

START_TEST(test_i386_hand)
{
	uint8_t *b = calloc(1, 0x5000);
	struct dk_dump *d;
	struct dk_err err;
	uint64_t pa;
	unsigned prot;

	memcpy(b, i386_ehdr, sizeof(i386_ehdr));
	memcpy(b + 0x34, i386_phdr, sizeof(i386_phdr));
	/* Non-PAE: PD at PA 0, PT at 0x1000.  0xc0401234: PDE 0x301, PTE 1. */
	put_le(b + 0x1000 + 0x301 * 4, 4, 0x1003);
	put_le(b + 0x2000 + 1 * 4, 4, 0x2001);		/* read-only */
	put_le(b + 0x1000 + 0x302 * 4, 4, 0x00800083);	/* 4 MiB page */
	d = open_mem(b, 0x5000, "hand-i386");
	ck_assert_str_eq(dk_info(d)->arch, "i386");
	ck_assert_int_eq(i386_walk(d, 0, 0, 0xc0401234, &pa, &prot, &err),
	    DK_OK);
	ck_assert_uint_eq(pa, 0x2234);
	ck_assert_uint_eq(prot, DK_PROT_X);
	/* 0xc0823456: PDE 0x302, PS: 0x800000 + 0x023456. */
	ck_assert_int_eq(i386_walk(d, 0, 0, 0xc0823456, &pa, NULL, &err),
	    DK_OK);
	ck_assert_uint_eq(pa, 0x823456);
	ck_assert_int_eq(i386_walk(d, 0, 0, 0xc0c00000, &pa, NULL, &err),
	    DK_ENOTMAPPED);
	ck_assert_int_eq(i386_walk(d, 0, 0, 0xc0402000, &pa, NULL, &err),
	    DK_ENOTMAPPED);				/* PTE 2 is 0 */
	ck_assert_ptr_nonnull(strstr(err.msg, "PTE"));
	dk_close(d);

	/*
	 * PAE: PDPT at PA 0, the page directory of PDPT entry 3 at 0x1000,
	 * a PT at 0x2000.  0xc0401234: PDPT 3, PDE (0x602 & 511) = 2,
	 * PTE 1.  0xc0654321: PDE 3, a 2 MiB page at 0x600000.
	 */
	memset(b + 0x1000, 0, 0x4000);
	put_le(b + 0x1000 + 3 * 8, 8, 0x1001);
	put_le(b + 0x2000 + 2 * 8, 8, 0x2003);
	put_le(b + 0x2000 + 3 * 8, 8, 0x8000000000600083ull);
	put_le(b + 0x3000 + 1 * 8, 8, 0x3003);
	d = open_mem(b, 0x5000, "hand-i386-pae");
	ck_assert_int_eq(i386_walk(d, 0, 1, 0xc0401234, &pa, &prot, &err),
	    DK_OK);
	ck_assert_uint_eq(pa, 0x3234);
	ck_assert_uint_eq(prot, DK_PROT_W | DK_PROT_X);
	ck_assert_int_eq(i386_walk(d, 0, 1, 0xc0654321, &pa, &prot, &err),
	    DK_OK);
	ck_assert_uint_eq(pa, 0x654321);
	ck_assert_uint_eq(prot, DK_PROT_W);		/* NX */
	ck_assert_int_eq(i386_walk(d, 0, 1, 0x40000000, &pa, NULL, &err),
	    DK_ENOTMAPPED);				/* PDPT[1] is 0 */
	ck_assert_ptr_nonnull(strstr(err.msg, "PDPT"));
	dk_close(d);
	free(b);
}
END_TEST

/* arm: ELF32 LSB, EM_ARM, a PT_LOAD and the PT_DUMP_DELTA header. */
static const uint8_t arm_hdrs[52 + 2 * 32] = {
	0x7f, 'E', 'L', 'F', 1, 1, 1, 0xff,	/* 0x00 ELFCLASS32, LSB, 255 */
	0, 0, 0, 0, 0, 0, 0, 0,
	4, 0,					/* 0x10 ET_CORE */
	40, 0,					/* 0x12 EM_ARM */
	1, 0, 0, 0,				/* 0x14 e_version */
	0, 0, 0, 0,				/* 0x18 e_entry */
	52, 0, 0, 0,				/* 0x1c e_phoff */
	0, 0, 0, 0,				/* 0x20 e_shoff */
	0, 0, 0, 0,				/* 0x24 e_flags */
	52, 0, 32, 0, 2, 0,			/* 0x28 ehsize, phentsize, phnum */
	40, 0, 0, 0, 0, 0,			/* 0x2e shentsize, shnum, shstrndx */
	/* 0x34: PT_LOAD, PA 0x40000000, 0x6000 bytes at offset 0x1000 */
	1, 0, 0, 0,  0, 0x10, 0, 0,  0, 0, 0, 0x40,  0, 0, 0, 0x40,
	0, 0x60, 0, 0,  0, 0x60, 0, 0,  4, 0, 0, 0,  0, 0x10, 0, 0,
	/* 0x54: PT_DUMP_DELTA 0x6fb5d000, vaddr 0xc0000000, paddr 0x40000000 */
	0x00, 0xd0, 0xb5, 0x6f,  0, 0, 0, 0,  0, 0, 0, 0xc0,  0, 0, 0, 0x40,
	0, 0, 0, 0,  0, 0, 0, 0,  0, 0, 0, 0,  0, 0x10, 0, 0,
};

START_TEST(test_arm_hand)
{
	uint8_t *b = calloc(1, 0x7000);
	struct dk_dump *d;
	struct dk_err err;
	uint64_t pa;

	memcpy(b, arm_hdrs, sizeof(arm_hdrs));
	/*
	 * L1 (16 KiB) at PA 0x40000000, an L2 table at 0x40004000.
	 * 0xc0101234: L1 0xc01 -> coarse; L2 (0x101 & 0xff) = 1: small
	 * page 0x40005000.  0xc00abcde: L1 0xc00, a section at 0x40000000.
	 * 0xc0115678: L2 0x15, in the large page 0x40010000 (entries
	 * 0x10 to 0x1f).
	 */
	put_le(b + 0x1000 + 0xc01 * 4, 4, 0x40004001);
	put_le(b + 0x1000 + 0xc00 * 4, 4, 0x40000c02);
	put_le(b + 0x5000 + 1 * 4, 4, 0x40005032);
	for (int k = 0x10; k < 0x20; k++)
		put_le(b + 0x5000 + k * 4, 4, 0x40010031);
	d = open_mem(b, 0x7000, "hand-arm");
	ck_assert_str_eq(dk_info(d)->arch, "arm");
	ck_assert_uint_eq(dk_info(d)->kernbase, 0xc0000000);	/* the delta */
	ck_assert_int_eq(arm_walk(d, 0x40000000, 0xc0101234, &pa, NULL,
	    &err), DK_OK);
	ck_assert_uint_eq(pa, 0x40005234);
	ck_assert_int_eq(arm_walk(d, 0x40000000, 0xc00abcde, &pa, NULL,
	    &err), DK_OK);
	ck_assert_uint_eq(pa, 0x400abcde);
	ck_assert_int_eq(arm_walk(d, 0x40000000, 0xc0115678, &pa, NULL,
	    &err), DK_OK);
	ck_assert_uint_eq(pa, 0x40015678);
	ck_assert_int_eq(arm_walk(d, 0x40000000, 0xc0102000, &pa, NULL,
	    &err), DK_ENOTMAPPED);			/* L2[2] is 0 */
	ck_assert_int_eq(arm_walk(d, 0x40000000, 0xc0200000, &pa, NULL,
	    &err), DK_ENOTMAPPED);			/* L1[0xc02] is 0 */
	dk_close(d);
	free(b);
}
END_TEST

/*
 * powerpc virtual cores: two PT_LOADs with p_paddr all-ones, kernel
 * text at VA A (one page, offset 0x1000) and kernel memory at VA K (two
 * pages, offset 0x2000).  Built for ELF32 BE, ELF64 BE and ELF64 LE.
 */
static const uint8_t ppc32_hdrs[52 + 2 * 32] = {
	0x7f, 'E', 'L', 'F', 1, 2, 1, 0xff,	/* 0x00 ELFCLASS32, MSB, 255 */
	0, 0, 0, 0, 0, 0, 0, 0,
	0, 4,					/* 0x10 ET_CORE */
	0, 20,					/* 0x12 EM_PPC */
	0, 0, 0, 1,				/* 0x14 e_version */
	0, 0, 0, 0,				/* 0x18 e_entry */
	0, 0, 0, 52,				/* 0x1c e_phoff */
	0, 0, 0, 0,  0, 0, 0, 0,		/* 0x20 e_shoff, e_flags */
	0, 52, 0, 32, 0, 2,			/* 0x28 ehsize, phentsize, phnum */
	0, 40, 0, 0, 0, 0,			/* 0x2e */
	/* 0x34: PT_LOAD off 0x1000 vaddr 0x00100000 paddr ~0 size 0x1000 */
	0, 0, 0, 1,  0, 0, 0x10, 0,  0, 0x10, 0, 0,  0xff, 0xff, 0xff, 0xff,
	0, 0, 0x10, 0,  0, 0, 0x10, 0,  0, 0, 0, 4,  0, 0, 0x10, 0,
	/* 0x54: PT_LOAD off 0x2000 vaddr 0xd0000000 paddr ~0 size 0x2000 */
	0, 0, 0, 1,  0, 0, 0x20, 0,  0xd0, 0, 0, 0,  0xff, 0xff, 0xff, 0xff,
	0, 0, 0x20, 0,  0, 0, 0x20, 0,  0, 0, 0, 4,  0, 0, 0x10, 0,
};

static const uint8_t ppc64_hdrs[64 + 2 * 56] = {
	0x7f, 'E', 'L', 'F', 2, 2, 1, 0xff,	/* 0x00 ELFCLASS64, MSB, 255 */
	0, 0, 0, 0, 0, 0, 0, 0,
	0, 4, 0, 21,				/* 0x10 ET_CORE, EM_PPC64 */
	0, 0, 0, 1,				/* 0x14 e_version */
	0, 0, 0, 0, 0, 0, 0, 0,			/* 0x18 e_entry */
	0, 0, 0, 0, 0, 0, 0, 64,		/* 0x20 e_phoff */
	0, 0, 0, 0, 0, 0, 0, 0,			/* 0x28 e_shoff */
	0, 0, 0, 0,				/* 0x30 e_flags */
	0, 64, 0, 56, 0, 2,			/* 0x34 ehsize, phentsize, phnum */
	0, 64, 0, 0, 0, 0,			/* 0x3a */
	/* 0x40: PT_LOAD PF_R off 0x1000 vaddr 0xc000000000100000 paddr ~0 */
	0, 0, 0, 1,  0, 0, 0, 4,  0, 0, 0, 0, 0, 0, 0x10, 0,
	0xc0, 0, 0, 0, 0, 0x10, 0, 0,  0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff,  0, 0, 0, 0, 0, 0, 0x10, 0,  0, 0, 0, 0, 0, 0, 0x10, 0,
	0, 0, 0, 0, 0, 0, 0x10, 0,
	/* 0x78: PT_LOAD PF_R off 0x2000 vaddr 0xe000000000000000 paddr ~0 */
	0, 0, 0, 1,  0, 0, 0, 4,  0, 0, 0, 0, 0, 0, 0x20, 0,
	0xe0, 0, 0, 0, 0, 0, 0, 0,  0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff,  0, 0, 0, 0, 0, 0, 0x20, 0,  0, 0, 0, 0, 0, 0, 0x20, 0,
	0, 0, 0, 0, 0, 0, 0x10, 0,
};

/* The LE copy: every multi-byte field of ppc64_hdrs reversed. */
static void
ppc64le_hdrs(uint8_t *o)
{
	static const struct { unsigned off, n; } f[] = {
		{ 0x10, 2 }, { 0x12, 2 }, { 0x14, 4 }, { 0x18, 8 }, { 0x20, 8 },
		{ 0x28, 8 }, { 0x30, 4 }, { 0x34, 2 }, { 0x36, 2 }, { 0x38, 2 },
		{ 0x3a, 2 }, { 0x3c, 2 }, { 0x3e, 2 },
	};
	static const struct { unsigned off, n; } p[] = {
		{ 0, 4 }, { 4, 4 }, { 8, 8 }, { 16, 8 }, { 24, 8 }, { 32, 8 },
		{ 40, 8 }, { 48, 8 },
	};

	memcpy(o, ppc64_hdrs, sizeof(ppc64_hdrs));
	o[5] = 1;					/* ELFDATA2LSB */
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		for (unsigned k = 0; k < f[i].n / 2; k++) {
			uint8_t t = o[f[i].off + k];

			o[f[i].off + k] = o[f[i].off + f[i].n - 1 - k];
			o[f[i].off + f[i].n - 1 - k] = t;
		}
	for (unsigned ph = 0; ph < 2; ph++)
		for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++)
			for (unsigned k = 0; k < p[i].n / 2; k++) {
				uint8_t *q = o + 64 + ph * 56 + p[i].off;
				uint8_t t = q[k];

				q[k] = q[p[i].n - 1 - k];
				q[p[i].n - 1 - k] = t;
			}
}

static void
check_virtual(const uint8_t *hdrs, size_t hlen, const char *arch,
    uint64_t text, uint64_t kmem)
{
	uint8_t *b = calloc(1, 0x4000), buf[16];
	struct dk_dump *d;
	struct dk_err err;
	uint64_t pa;

	memcpy(b, hdrs, hlen);
	memcpy(b + 0x1000 + 0x10, "kernel text", 11);
	memcpy(b + 0x2ff8, "ABCDEFGHabcdefgh", 16);	/* spans 2 pages */
	d = open_mem(b, 0x4000, arch);
	ck_assert_str_eq(dk_info(d)->arch, arch);
	ck_assert_uint_eq(dk_info(d)->npages, 3);
	ck_assert_uint_eq(dk_phys_nranges(d), 0);
	ck_assert_int_eq(dk_read_va(d, text + 0x10, buf, 11, &err), DK_OK);
	ck_assert_mem_eq(buf, "kernel text", 11);
	ck_assert_int_eq(dk_read_va(d, kmem + 0xff8, buf, 16, &err), DK_OK);
	ck_assert_mem_eq(buf, "ABCDEFGHabcdefgh", 16);
	ck_assert_int_eq(dk_read_va(d, kmem + 0x1ffc, buf, 8, &err),
	    DK_ENOTDUMPED);				/* past the segment */
	ck_assert_int_eq(dk_read_va(d, text + 0x1000, buf, 1, &err),
	    DK_ENOTDUMPED);
	ck_assert_int_eq(dk_kvtop(d, text, &pa, &err), DK_EUNSUP);
	dk_close(d);
	free(b);
}

START_TEST(test_powerpc_virtual)
{
	uint8_t le[sizeof(ppc64_hdrs)];

	check_virtual(ppc32_hdrs, sizeof(ppc32_hdrs), "powerpc", 0x00100000,
	    0xd0000000);
	check_virtual(ppc64_hdrs, sizeof(ppc64_hdrs), "powerpc64",
	    0xc000000000100000ull, 0xe000000000000000ull);
	ppc64le_hdrs(le);
	check_virtual(le, sizeof(le), "powerpc64le", 0xc000000000100000ull,
	    0xe000000000000000ull);
}
END_TEST

/* Bad inputs: the code and the offset named in the message. */
static void
expect_open(const uint8_t *b, size_t len, enum dk_status code,
    const char *needle)
{
	struct dk_dump *d = NULL;
	struct dk_err err;

	ck_assert_int_eq(dk_open_mem(b, len, "bad", NULL, &d, &err), code);
	ck_assert_msg(strstr(err.msg, needle) != NULL, "'%s' not in '%s'",
	    needle, err.msg);
	ck_assert_ptr_null(d);
}

START_TEST(test_bad_inputs)
{
	uint8_t *b = amd64_core(), *c = malloc(AMD64_SIZE);
	struct dk_dump *d;
	struct dk_err err;
	uint8_t buf[8];

	/* Wrong class: EI_CLASS (offset 4) 3. */
	memcpy(c, b, AMD64_SIZE);
	c[4] = 3;
	expect_open(c, AMD64_SIZE, DK_ECORRUPT, "offset 4: expected EI_CLASS");
	/* A 64-bit core that says 32-bit entries: e_phentsize at 0x36. */
	memcpy(c, b, AMD64_SIZE);
	c[0x36] = 32;
	expect_open(c, AMD64_SIZE, DK_ECORRUPT, "offset 0x36");
	/* Program headers past the end of the file. */
	expect_open(b, 0x60, DK_ETRUNC, "offset 0x20");
	/* Two PT_LOADs overlapping: the second (at 0x78) is PA 0x5000. */
	memcpy(c, b, AMD64_SIZE);
	c[0x38] = 2;
	memcpy(c + 0x78, amd64_phdr, sizeof(amd64_phdr));
	c[0x78 + 0x19] = 0x50;				/* p_paddr 0x5000 */
	expect_open(c, AMD64_SIZE, DK_ECORRUPT, "offset 0x78");
	/* p_filesz larger than p_memsz. */
	memcpy(c, b, AMD64_SIZE);
	c[0x40 + 0x21] = 0x70;
	expect_open(c, AMD64_SIZE, DK_ECORRUPT, "offset 0x40");
	/* p_paddr 0x800: the reader's page model refuses it. */
	memcpy(c, b, AMD64_SIZE);
	c[0x40 + 0x19] = 0x08;
	expect_open(c, AMD64_SIZE, DK_ECORRUPT, "offset 0x40");
	/* EI_OSABI 0 and no dumpkit notes: not a dump dumpkit knows. */
	memcpy(c, b, AMD64_SIZE);
	c[7] = 0;
	expect_open(c, AMD64_SIZE, DK_EUNSUP, "offset 0");
	/* A segment past EOF: opened, its missing pages are DK_ETRUNC. */
	d = open_mem(b, 0x4800, "truncated");
	ck_assert_uint_eq(dk_info(d)->npages, 6);
	ck_assert_uint_eq(dk_info(d)->npages_present, 3);
	ck_assert_int_eq(dk_read_pa(d, 0x3000, buf, 8, &err), DK_OK);
	ck_assert_int_eq(dk_read_pa(d, 0x4000, buf, 8, &err), DK_ETRUNC);
	ck_assert_ptr_nonnull(strstr(err.msg, "offset 0x5000"));
	dk_close(d);
	free(b);
	free(c);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Generated cores against the generator's model.                         */

static char tmpdir[256];

static void
make_tmpdir(void)
{
	const char *t = getenv("TMPDIR");

	snprintf(tmpdir, sizeof(tmpdir), "%s/check_elf.XXXXXX",
	    t != NULL ? t : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void
check_bytes(struct dk_dump *d, const struct fx_elf *f, uint64_t va,
    uint64_t pa, int virt)
{
	uint8_t got[64], want[64];
	struct dk_err err;
	enum dk_status st;

	fx_elf_expect(f, pa, want, sizeof(want));
	st = virt ? dk_read_va(d, va, got, sizeof(got), &err) :
	    dk_read_pa(d, pa, got, sizeof(got), &err);
	ck_assert_msg(st == DK_OK, "%s %#jx: %s", f->arch->name,
	    (uintmax_t)(virt ? va : pa), err.msg);
	ck_assert_msg(memcmp(got, want, sizeof(got)) == 0, "%s: bytes at va "
	    "%#jx pa %#jx differ", f->arch->name, (uintmax_t)va,
	    (uintmax_t)pa);
}

START_TEST(test_generated)
{
	struct fx_elf_variant v;
	const char *only = getenv("DK_TEST_ARCH");
	char core[300], kern[300];

	make_tmpdir();
	for (size_t i = 0; fx_elf_variant_at(i, &v); i++) {
		struct fx_elf_opts o = { v.arch, v.variant, 32u << 20, 7 };
		struct dk_open_opts oo = { .kernel = kern };
		struct fx_elf f;
		struct dk_dump *d;
		struct dk_err err;
		struct dk_run_iter it = { 0 };
		struct dk_run r;
		uint64_t pages = 0, pa;
		size_t nrun = 0;

		if (only != NULL && strcmp(only, v.arch) != 0)
			continue;
		snprintf(core, sizeof(core), "%s/%s-%s.core", tmpdir, v.arch,
		    v.variant);
		snprintf(kern, sizeof(kern), "%s/%s-%s.kern", tmpdir, v.arch,
		    v.variant);
		ck_assert_int_eq(fx_elf_build(&o, &f, &err), DK_OK);
		ck_assert_msg(fx_elf_write(&f, core, kern, 1, &err) == DK_OK,
		    "%s", err.msg);
		ck_assert_msg(dk_open(core, &oo, &d, &err) == DK_OK, "%s: %s",
		    core, err.msg);
		ck_assert_str_eq(dk_info(d)->arch, f.arch->name);
		ck_assert_int_eq(dk_info(d)->arch_by, DK_BY_KERNEL);
		/* Runs are the chunks (physical cores). */
		while (dk_run_next(d, &it, &r)) {
			ck_assert(!f.virt && nrun < f.nchunk);
			ck_assert_uint_eq(r.pa, f.chunk[nrun].start);
			ck_assert_uint_eq(r.len, f.chunk[nrun].end -
			    f.chunk[nrun].start);
			pages += r.len / PG;
			nrun++;
		}
		if (!f.virt) {
			ck_assert_uint_eq(nrun, f.nchunk);
			ck_assert_uint_eq(dk_info(d)->npages, pages);
			/* Every 61st page of memory, physically. */
			for (size_t c = 0; c < f.nchunk; c++)
				for (pa = f.chunk[c].start; pa < f.chunk[c].end;
				    pa += 61 * PG)
					check_bytes(d, &f, 0, pa + 0x100, 0);
			ck_assert_int_eq(dk_read_pa(d, f.chunk[0].end,
			    (uint8_t[1]){ 0 }, 1, &err), DK_ENOTDUMPED);
		}
		/* Every page of the kernel map (17th in big maps), by VA. */
		for (size_t m = 0; m < f.nmap; m++) {
			uint64_t step = f.map[m].len > (1u << 20) ? 17 * PG : PG;

			for (uint64_t o2 = 0; o2 < f.map[m].len &&
			    o2 < (64ull << 20); o2 += step) {
				uint64_t va = f.map[m].va + o2 + 0x80;

				ck_assert(fx_elf_va_to_pa(&f, va, &pa));
				if (!f.virt && (dk_read_pa(d, pa,
				    (uint8_t[1]){ 0 }, 1, &err) != DK_OK))
					continue;	/* a DMAP hole */
				check_bytes(d, &f, va, pa, 1);
			}
		}
		/* An unmapped VA. */
		ck_assert_int_ne(dk_kvtop(d, f.arch->elf_class == 2 ?
		    0xffff800000000000ull : 0x10000000, &pa, &err), DK_OK);
		dk_close(d);
		unlink(core);
		unlink(kern);
		fx_elf_free(&f);
	}
	rmdir(tmpdir);
}
END_TEST

/* Without the kernel's symbols, or with the wrong kernel. */
START_TEST(test_kernel_errors)
{
	struct fx_elf_opts o = { "amd64", NULL, 32u << 20, 3 };
	struct fx_elf f, g;
	struct dk_dump *d;
	struct dk_err err;
	char core[300], kern[300], other[300];
	struct dk_open_opts oo = { .kernel = other };

	make_tmpdir();
	snprintf(core, sizeof(core), "%s/a.core", tmpdir);
	snprintf(kern, sizeof(kern), "%s/a.kern", tmpdir);
	snprintf(other, sizeof(other), "%s/i.kern", tmpdir);
	ck_assert_int_eq(fx_elf_build(&o, &f, &err), DK_OK);
	ck_assert_int_eq(fx_elf_write(&f, core, kern, 1, &err), DK_OK);
	o.arch = "i386";
	ck_assert_int_eq(fx_elf_build(&o, &g, &err), DK_OK);
	ck_assert_int_eq(fx_elf_write_kernel(&g, other, 1, &err), DK_OK);
	/* An i386 kernel for an amd64 core. */
	ck_assert_int_eq(dk_open(core, &oo, &d, &err), DK_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "i386"));
	/* --arch that contradicts the ELF header. */
	oo.kernel = NULL;
	oo.arch = "arm";
	ck_assert_int_eq(dk_open(core, &oo, &d, &err), DK_EINVAL);
	/* The kernel is not ELF. */
	oo.arch = NULL;
	oo.kernel = core + 0;
	{
		FILE *fp = fopen(other, "w");

		fputs("not an ELF file", fp);
		fclose(fp);
		oo.kernel = other;
	}
	ck_assert_int_ne(dk_open(core, &oo, &d, &err), DK_OK);
	unlink(core);
	unlink(kern);
	unlink(other);
	rmdir(tmpdir);
	fx_elf_free(&f);
	fx_elf_free(&g);
}
END_TEST

/* dumpcheck's findings for each damage, on every full-ELF row. */
struct seen {
	const char	*code;
	uint64_t	 off;
	int		 hit, errors, warnings;
};

static void
on_finding(void *arg, const struct dk_finding *f)
{
	struct seen *s = arg;

	if (strcmp(f->code, s->code) == 0 && f->has_offset &&
	    f->offset == s->off)
		s->hit++;
	else if (f->severity == DK_SEV_ERROR)
		s->errors++;
	else if (f->severity == DK_SEV_WARNING)
		s->warnings++;
}

START_TEST(test_corruption_matrix)
{
	struct fx_elf_variant v;
	const struct fx_corruption *k;
	char core[300];
	size_t n = 0;

	make_tmpdir();
	snprintf(core, sizeof(core), "%s/c.core", tmpdir);
	for (size_t i = 0; fx_elf_variant_at(i, &v); i++) {
		struct fx_elf_opts o = { v.arch, v.variant, 32u << 20, 11 };
		struct fx_elf f;
		struct dk_err err;
		struct dk_check_result res;
		struct seen s = { "", UINT64_MAX, 0, 0, 0 };
		struct dk_check_opts co = { .finding = on_finding, .arg = &s };

		ck_assert_int_eq(fx_elf_build(&o, &f, &err), DK_OK);
		/* Clean: no error, no warning. */
		ck_assert_int_eq(fx_elf_write(&f, core, NULL, 1, &err), DK_OK);
		ck_assert_int_eq(dk_check(core, &co, &res, &err), DK_OK);
		ck_assert_str_eq(res.format, "elf");
		ck_assert_msg(s.errors == 0 && s.warnings == 0, "%s-%s clean: %d "
		    "errors, %d warnings", v.arch, v.variant, s.errors,
		    s.warnings);
		for (size_t j = 0; (k = fx_corruption_at(j,
		    FX_ELFCORE)) != NULL; j++) {
			ck_assert_int_eq(fx_elf_write(&f, core, NULL, 1, &err),
			    DK_OK);
			s = (struct seen){ k->codes, 0, 0, 0, 0 };
			ck_assert_int_eq(fx_elf_corrupt(&f, core, k, &s.off,
			    &err), DK_OK);
			ck_assert_int_eq(dk_check(core, &co, &res, &err), DK_OK);
			ck_assert_msg(s.hit == 1 && s.errors == 0 &&
			    s.warnings == 0, "%s-%s %s: %d hits of %s at %#jx, "
			    "%d other errors, %d warnings", v.arch, v.variant,
			    k->name, s.hit, k->codes, (uintmax_t)s.off,
			    s.errors, s.warnings);
			n++;
		}
		fx_elf_free(&f);
	}
	ck_assert_uint_ge(n, 9 * 7);
	unlink(core);
	rmdir(tmpdir);
}
END_TEST

/*
 * kernel.c on an object the C compiler wrote, against nm's reading of
 * the same symbols; and on a stripped copy (no .symtab).
 */
START_TEST(test_kernel_symbols_nm)
{
	struct dk_ksym s[] = {
		{ "kernbase", 0, 0 }, { "KPML4phys", 0, 0 },
		{ "IdlePTD", 0, 0 }, { "absent_symbol", 0, 0 },
	};
	char src[300], obj[300], cmd[1024], name[64];
	struct dk_err err;
	unsigned long long v;
	char type;
	int seen = 0;
	FILE *fp;

	make_tmpdir();
	snprintf(src, sizeof(src), "%s/k.c", tmpdir);
	snprintf(obj, sizeof(obj), "%s/k.o", tmpdir);
	fp = fopen(src, "w");
	ck_assert_ptr_nonnull(fp);
	fputs("char pad[40];\nlong kernbase = 1;\nchar pad2[24];\n"
	    "unsigned long KPML4phys = 2;\nint IdlePTD[3];\n", fp);
	fclose(fp);
	snprintf(cmd, sizeof(cmd), "cc -c -o %s %s", obj, src);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(dk_kernel_symbols(obj, s, 4, &err), DK_OK);
	snprintf(cmd, sizeof(cmd), "nm %s", obj);
	fp = popen(cmd, "r");
	ck_assert_ptr_nonnull(fp);
	while (fscanf(fp, "%llx %c %63s", &v, &type, name) == 3)
		for (int i = 0; i < 3; i++)
			if (strcmp(name, s[i].name) == 0) {
				ck_assert_msg(s[i].found && s[i].value == v,
				    "%s: nm %#llx, dumpkit %#jx", name, v,
				    (uintmax_t)s[i].value);
				seen++;
			}
	pclose(fp);
	ck_assert_int_eq(seen, 3);
	ck_assert_int_eq(s[3].found, 0);
	snprintf(cmd, sizeof(cmd), "strip %s", obj);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(dk_kernel_symbols(obj, s, 4, &err), DK_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "stripped"));
	unlink(src);
	unlink(obj);
	rmdir(tmpdir);
}
END_TEST

/* dumpcheck on hand-made cores: the finding and its offset. */
static void
expect_finding(const uint8_t *b, size_t len, const char *code, uint64_t off)
{
	struct seen s = { code, off, 0, 0, 0 };
	struct dk_check_opts co = { .finding = on_finding, .arg = &s };
	struct dk_check_result res;
	struct dk_err err;

	ck_assert_int_eq(dk_check_mem(b, len, "hand", &co, &res, &err), DK_OK);
	ck_assert_msg(s.hit == 1, "no %s at %#jx (%d other errors)", code,
	    (uintmax_t)off, s.errors);
}

START_TEST(test_check_hand)
{
	uint8_t *b = amd64_core(), *c = malloc(AMD64_SIZE);
	struct seen s = { "", UINT64_MAX, 0, 0, 0 };
	struct dk_check_opts co = { .finding = on_finding, .arg = &s };
	struct dk_check_result res;
	struct dk_err err;

	/* The hand core is clean, 6 pages, amd64. */
	ck_assert_int_eq(dk_check_mem(b, AMD64_SIZE, "hand", &co, &res, &err),
	    DK_OK);
	ck_assert_int_eq(s.errors + s.warnings, 0);
	ck_assert_str_eq(res.arch, "amd64");
	ck_assert_uint_eq(res.npages, 6);
	/* Segment past EOF: the header of PT_LOAD 0, at 0x40. */
	expect_finding(b, 0x6000, "elfcore.load-past-eof", 0x40);
	/* p_paddr 0x800: misaligned, at 0x40. */
	memcpy(c, b, AMD64_SIZE);
	c[0x40 + 0x19] = 0x08;
	expect_finding(c, AMD64_SIZE, "elfcore.misaligned", 0x40);
	/*
	 * A second PT_LOAD (at 0x78) of one page at PA 0x5000, inside the
	 * first one's [0, 0x6000), stored at file offset 0x7000.
	 */
	c = realloc(c, 0x8000);
	memcpy(c, b, AMD64_SIZE);
	memset(c + AMD64_SIZE, 0, 0x1000);
	c[0x38] = 2;
	memcpy(c + 0x78, amd64_phdr, sizeof(amd64_phdr));
	c[0x78 + 0x09] = 0x70;				/* p_offset */
	c[0x78 + 0x19] = 0x50;				/* p_paddr */
	c[0x78 + 0x21] = c[0x78 + 0x29] = 0x10;		/* 0x1000 bytes */
	expect_finding(c, 0x8000, "elfcore.overlap", 0x78);
	/* Wrong class: EI_CLASS 3, at offset 4. */
	memcpy(c, b, AMD64_SIZE);
	c[4] = 3;
	expect_finding(c, AMD64_SIZE, "elfcore.ident", 4);
	free(b);
	free(c);
}
END_TEST

static Suite *
elf_suite(void)
{
	Suite *s = suite_create("fmt_elf");
	TCase *hand = tcase_create("hand");
	TCase *gen = tcase_create("generated");

	tcase_add_test(hand, test_amd64_hand);
	tcase_add_test(hand, test_i386_hand);
	tcase_add_test(hand, test_arm_hand);
	tcase_add_test(hand, test_powerpc_virtual);
	tcase_add_test(hand, test_bad_inputs);
	tcase_add_test(hand, test_check_hand);
	tcase_set_timeout(gen, 120);
	tcase_add_test(gen, test_generated);
	tcase_add_test(gen, test_kernel_errors);
	tcase_add_test(gen, test_kernel_symbols_nm);
	tcase_add_test(gen, test_corruption_matrix);
	suite_add_tcase(s, hand);
	suite_add_tcase(s, gen);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(elf_suite());
	int nfailed;

	srunner_run_all(sr, CK_ENV);
	nfailed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfailed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
