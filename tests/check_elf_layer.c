/*
 * check_elf_layer.c -- the ELF layer (formats/elf.c, formats/dkelf.h)
 * against what is known without it.
 *
 *  - "known": ELF headers, program headers, section headers and note
 *    headers typed in below byte by byte from the ELF specification, in
 *    both classes and both byte orders, with a distinct value in every
 *    field: each decodes to those values, and encodes back to the bytes.
 *  - "table": the layer's offsets and widths against the system's
 *    <elf.h> structs (offsetof, sizeof of Elf32_* and Elf64_*).
 *  - "identity": decode then encode gives random bytes back, encode then
 *    decode random values (fitted to their fields), for every structure,
 *    class and order.
 *  - "readelf": small cores the layer writes, read by GNU readelf -h -l
 *    -n and eu-readelf -h -l; their fields must be those written.
 *  - "xnum": 70,000 program headers: PN_XNUM, section 0's sh_info, as
 *    readelf reports it, and read back by dk_elf_phnum.
 *  - "notes": the note iterator on good, truncated, unpadded, 8-aligned
 *    and oversized notes, in memory (buffers of the exact size, so a read
 *    past the range is an ASan error under SANITIZE=1) and in a file; and
 *    the checked section-header read.
 */
#include <check.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dkelf.h"

static char tmpdir[256];

static void
make_tmpdir(void)
{
	const char *t = getenv("TMPDIR");

	snprintf(tmpdir, sizeof(tmpdir), "%s/check_elf_layer.XXXXXX",
	    t != NULL ? t : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

/* ---------------------------------------------------------------------- */
/* Known bytes, from the specification.                                    */

/*
 * One value per field, the same in all four headers where it fits:
 * ET_CORE, e_version 1, e_entry, e_phoff after the header, e_shoff,
 * e_flags, the class's sizes, 3 program headers, 5 sections, index 4.
 */
static const uint8_t ehdr64le[64] = {
	0x7f, 'E', 'L', 'F', 2, 1, 1, 0,	/* 0x00 ELFCLASS64 LSB EV_CURRENT */
	0, 0, 0, 0, 0, 0, 0, 0,			/* 0x08 abiversion, padding */
	4, 0,					/* 0x10 e_type ET_CORE */
	0x3e, 0,				/* 0x12 e_machine 62 */
	1, 0, 0, 0,				/* 0x14 e_version */
	0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,	/* 0x18 e_entry */
	0x40, 0, 0, 0, 0, 0, 0, 0,		/* 0x20 e_phoff 64 */
	8, 7, 6, 5, 4, 3, 2, 1,			/* 0x28 e_shoff */
	0xd4, 0xc3, 0xb2, 0xa1,			/* 0x30 e_flags */
	64, 0,					/* 0x34 e_ehsize */
	56, 0,					/* 0x36 e_phentsize */
	3, 0,					/* 0x38 e_phnum */
	64, 0,					/* 0x3a e_shentsize */
	5, 0,					/* 0x3c e_shnum */
	4, 0,					/* 0x3e e_shstrndx */
};

static const uint8_t ehdr64be[64] = {
	0x7f, 'E', 'L', 'F', 2, 2, 1, 0,	/* 0x00 ELFCLASS64 MSB */
	0, 0, 0, 0, 0, 0, 0, 0,
	0, 4,					/* 0x10 e_type */
	0, 0x15,				/* 0x12 e_machine 21 (PPC64) */
	0, 0, 0, 1,				/* 0x14 e_version */
	0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,	/* 0x18 e_entry */
	0, 0, 0, 0, 0, 0, 0, 0x40,		/* 0x20 e_phoff */
	1, 2, 3, 4, 5, 6, 7, 8,			/* 0x28 e_shoff */
	0xa1, 0xb2, 0xc3, 0xd4,			/* 0x30 e_flags */
	0, 64,					/* 0x34 e_ehsize */
	0, 56,					/* 0x36 e_phentsize */
	0, 3,					/* 0x38 e_phnum */
	0, 64,					/* 0x3a e_shentsize */
	0, 5,					/* 0x3c e_shnum */
	0, 4,					/* 0x3e e_shstrndx */
};

static const uint8_t ehdr32le[52] = {
	0x7f, 'E', 'L', 'F', 1, 1, 1, 0xff,	/* 0x00 ELFCLASS32 LSB, OSABI 255 */
	0, 0, 0, 0, 0, 0, 0, 0,
	4, 0,					/* 0x10 e_type */
	0x28, 0,				/* 0x12 e_machine 40 (ARM) */
	1, 0, 0, 0,				/* 0x14 e_version */
	0x44, 0x33, 0x22, 0x11,			/* 0x18 e_entry */
	0x34, 0, 0, 0,				/* 0x1c e_phoff 52 */
	0x88, 0x77, 0x66, 0x55,			/* 0x20 e_shoff */
	0xd4, 0xc3, 0xb2, 0xa1,			/* 0x24 e_flags */
	52, 0,					/* 0x28 e_ehsize */
	32, 0,					/* 0x2a e_phentsize */
	3, 0,					/* 0x2c e_phnum */
	40, 0,					/* 0x2e e_shentsize */
	5, 0,					/* 0x30 e_shnum */
	4, 0,					/* 0x32 e_shstrndx */
};

static const uint8_t ehdr32be[52] = {
	0x7f, 'E', 'L', 'F', 1, 2, 1, 0xff,	/* 0x00 ELFCLASS32 MSB */
	0, 0, 0, 0, 0, 0, 0, 0,
	0, 4,					/* 0x10 e_type */
	0, 0x14,				/* 0x12 e_machine 20 (PPC) */
	0, 0, 0, 1,				/* 0x14 e_version */
	0x11, 0x22, 0x33, 0x44,			/* 0x18 e_entry */
	0, 0, 0, 0x34,				/* 0x1c e_phoff */
	0x55, 0x66, 0x77, 0x88,			/* 0x20 e_shoff */
	0xa1, 0xb2, 0xc3, 0xd4,			/* 0x24 e_flags */
	0, 52,					/* 0x28 e_ehsize */
	0, 32,					/* 0x2a e_phentsize */
	0, 3,					/* 0x2c e_phnum */
	0, 40,					/* 0x2e e_shentsize */
	0, 5,					/* 0x30 e_shnum */
	0, 4,					/* 0x32 e_shstrndx */
};

/* PT_LOAD, PF_R|PF_W|PF_X, at 0x1000, a kernel VA, PA 0x200000. */
static const uint8_t phdr64le[56] = {
	1, 0, 0, 0,				/* +0x00 p_type PT_LOAD */
	7, 0, 0, 0,				/* +0x04 p_flags RWX */
	0, 0x10, 0, 0, 0, 0, 0, 0,		/* +0x08 p_offset 0x1000 */
	0, 0, 0x20, 0x80, 0xff, 0xff, 0xff, 0xff, /* +0x10 p_vaddr */
	0, 0, 0x20, 0, 0, 0, 0, 0,		/* +0x18 p_paddr 0x200000 */
	0, 0x30, 0, 0, 0, 0, 0, 0,		/* +0x20 p_filesz 0x3000 */
	0, 0x40, 0, 0, 0, 0, 0, 0,		/* +0x28 p_memsz 0x4000 */
	0, 0x10, 0, 0, 0, 0, 0, 0,		/* +0x30 p_align 0x1000 */
};

static const uint8_t phdr64be[56] = {
	0, 0, 0, 1,				/* +0x00 p_type */
	0, 0, 0, 7,				/* +0x04 p_flags */
	0, 0, 0, 0, 0, 0, 0x10, 0,		/* +0x08 p_offset */
	0xff, 0xff, 0xff, 0xff, 0x80, 0x20, 0, 0, /* +0x10 p_vaddr */
	0, 0, 0, 0, 0, 0x20, 0, 0,		/* +0x18 p_paddr */
	0, 0, 0, 0, 0, 0, 0x30, 0,		/* +0x20 p_filesz */
	0, 0, 0, 0, 0, 0, 0x40, 0,		/* +0x28 p_memsz */
	0, 0, 0, 0, 0, 0, 0x10, 0,		/* +0x30 p_align */
};

/* In ELF32, p_flags comes after p_memsz; the VA is 0xc0200000. */
static const uint8_t phdr32le[32] = {
	1, 0, 0, 0,				/* +0x00 p_type */
	0, 0x10, 0, 0,				/* +0x04 p_offset */
	0, 0, 0x20, 0xc0,			/* +0x08 p_vaddr */
	0, 0, 0x20, 0,				/* +0x0c p_paddr */
	0, 0x30, 0, 0,				/* +0x10 p_filesz */
	0, 0x40, 0, 0,				/* +0x14 p_memsz */
	7, 0, 0, 0,				/* +0x18 p_flags */
	0, 0x10, 0, 0,				/* +0x1c p_align */
};

static const uint8_t phdr32be[32] = {
	0, 0, 0, 1,				/* +0x00 p_type */
	0, 0, 0x10, 0,				/* +0x04 p_offset */
	0xc0, 0x20, 0, 0,			/* +0x08 p_vaddr */
	0, 0x20, 0, 0,				/* +0x0c p_paddr */
	0, 0, 0x30, 0,				/* +0x10 p_filesz */
	0, 0, 0x40, 0,				/* +0x14 p_memsz */
	0, 0, 0, 7,				/* +0x18 p_flags */
	0, 0, 0x10, 0,				/* +0x1c p_align */
};

/* SHT_SYMTAB, name 1, flags 2, addr, offset 0x200, size 0x180, link 2,
 * info 1, addralign 8, entsize 24. */
static const uint8_t shdr64le[64] = {
	1, 0, 0, 0,				/* +0x00 sh_name */
	2, 0, 0, 0,				/* +0x04 sh_type SHT_SYMTAB */
	2, 0, 0, 0, 0, 0, 0, 0,			/* +0x08 sh_flags SHF_ALLOC */
	0, 0x10, 0, 0, 0, 0, 0, 0,		/* +0x10 sh_addr 0x1000 */
	0, 2, 0, 0, 0, 0, 0, 0,			/* +0x18 sh_offset 0x200 */
	0x80, 1, 0, 0, 0, 0, 0, 0,		/* +0x20 sh_size 0x180 */
	2, 0, 0, 0,				/* +0x28 sh_link */
	1, 0, 0, 0,				/* +0x2c sh_info */
	8, 0, 0, 0, 0, 0, 0, 0,			/* +0x30 sh_addralign */
	24, 0, 0, 0, 0, 0, 0, 0,		/* +0x38 sh_entsize */
};

static const uint8_t shdr64be[64] = {
	0, 0, 0, 1,
	0, 0, 0, 2,
	0, 0, 0, 0, 0, 0, 0, 2,
	0, 0, 0, 0, 0, 0, 0x10, 0,
	0, 0, 0, 0, 0, 0, 2, 0,
	0, 0, 0, 0, 0, 0, 1, 0x80,
	0, 0, 0, 2,
	0, 0, 0, 1,
	0, 0, 0, 0, 0, 0, 0, 8,
	0, 0, 0, 0, 0, 0, 0, 24,
};

static const uint8_t shdr32le[40] = {
	1, 0, 0, 0,				/* +0x00 sh_name */
	2, 0, 0, 0,				/* +0x04 sh_type */
	2, 0, 0, 0,				/* +0x08 sh_flags */
	0, 0x10, 0, 0,				/* +0x0c sh_addr */
	0, 2, 0, 0,				/* +0x10 sh_offset */
	0x80, 1, 0, 0,				/* +0x14 sh_size */
	2, 0, 0, 0,				/* +0x18 sh_link */
	1, 0, 0, 0,				/* +0x1c sh_info */
	8, 0, 0, 0,				/* +0x20 sh_addralign */
	24, 0, 0, 0,				/* +0x24 sh_entsize */
};

static const uint8_t shdr32be[40] = {
	0, 0, 0, 1,
	0, 0, 0, 2,
	0, 0, 0, 2,
	0, 0, 0x10, 0,
	0, 0, 2, 0,
	0, 0, 1, 0x80,
	0, 0, 0, 2,
	0, 0, 0, 1,
	0, 0, 0, 8,
	0, 0, 0, 24,
};

/* namesz 8, descsz 0x78, type 0x444b0001: dumpkit's info note. */
static const uint8_t nhdr_le[12] = { 8, 0, 0, 0, 0x78, 0, 0, 0,
	1, 0, 0x4b, 0x44 };
static const uint8_t nhdr_be[12] = { 0, 0, 0, 8, 0, 0, 0, 0x78,
	0x44, 0x4b, 0, 1 };

/* The four combinations, in loop-test order. */
static const struct form {
	unsigned	 cls;
	enum dk_endian	 e;
	const uint8_t	*eh, *ph, *sh, *nh;
	uint64_t	 machine, entry, shoff, vaddr;
} forms[4] = {
	{ ELFCLASS64, DK_LE, ehdr64le, phdr64le, shdr64le, nhdr_le,
	  62, 0x1122334455667788ull, 0x0102030405060708ull,
	  0xffffffff80200000ull },
	{ ELFCLASS64, DK_BE, ehdr64be, phdr64be, shdr64be, nhdr_be,
	  21, 0x1122334455667788ull, 0x0102030405060708ull,
	  0xffffffff80200000ull },
	{ ELFCLASS32, DK_LE, ehdr32le, phdr32le, shdr32le, nhdr_le,
	  40, 0x11223344, 0x55667788, 0xc0200000 },
	{ ELFCLASS32, DK_BE, ehdr32be, phdr32be, shdr32be, nhdr_be,
	  20, 0x11223344, 0x55667788, 0xc0200000 },
};

START_TEST(test_known_ehdr)
{
	const struct form *f = &forms[_i];
	int c64 = f->cls == ELFCLASS64;
	unsigned n = c64 ? 64 : 52;
	struct dk_ehdr h;
	uint8_t out[64];

	ck_assert_uint_eq(dk_elf_size(DK_ELF_EHDR, f->cls), n);
	memset(&h, 0xa5, sizeof(h));
	dk_ehdr_decode(f->eh, f->cls, f->e, &h);
	ck_assert_mem_eq(h.ident, f->eh, EI_NIDENT);
	ck_assert_int_eq(dk_elf_magic(f->eh), 1);
	ck_assert_int_eq(dk_elf_endian(f->eh), f->e);
	ck_assert_uint_eq(h.type, ET_CORE);
	ck_assert_uint_eq(h.machine, f->machine);
	ck_assert_uint_eq(h.version, 1);
	ck_assert_uint_eq(h.entry, f->entry);
	ck_assert_uint_eq(h.phoff, n);
	ck_assert_uint_eq(h.shoff, f->shoff);
	ck_assert_uint_eq(h.flags, 0xa1b2c3d4u);
	ck_assert_uint_eq(h.ehsize, n);
	ck_assert_uint_eq(h.phentsize, c64 ? 56 : 32);
	ck_assert_uint_eq(h.phnum, 3);
	ck_assert_uint_eq(h.shentsize, c64 ? 64 : 40);
	ck_assert_uint_eq(h.shnum, 5);
	ck_assert_uint_eq(h.shstrndx, 4);
	/* Field by field, as callers that read part of a header do. */
	ck_assert_uint_eq(dk_elf_get(f->eh, DK_E_PHNUM, f->cls, f->e), 3);
	ck_assert_uint_eq(dk_elf_off(DK_E_FLAGS, f->cls), c64 ? 48 : 36);
	memset(out, 0x5a, sizeof(out));
	dk_ehdr_encode(out, f->cls, f->e, &h);
	ck_assert_mem_eq(out, f->eh, n);
	if (!c64)
		ck_assert_uint_eq(out[52], 0x5a);	/* nothing past it */
}
END_TEST

START_TEST(test_known_phdr)
{
	const struct form *f = &forms[_i];
	unsigned n = f->cls == ELFCLASS64 ? 56 : 32;
	struct dk_phdr h;
	uint8_t out[56];

	ck_assert_uint_eq(dk_elf_size(DK_ELF_PHDR, f->cls), n);
	dk_phdr_decode(f->ph, f->cls, f->e, &h);
	ck_assert_uint_eq(h.type, PT_LOAD);
	ck_assert_uint_eq(h.flags, PF_R | PF_W | PF_X);
	ck_assert_uint_eq(h.offset, 0x1000);
	ck_assert_uint_eq(h.vaddr, f->vaddr);
	ck_assert_uint_eq(h.paddr, 0x200000);
	ck_assert_uint_eq(h.filesz, 0x3000);
	ck_assert_uint_eq(h.memsz, 0x4000);
	ck_assert_uint_eq(h.align, 0x1000);
	dk_phdr_encode(out, f->cls, f->e, &h);
	ck_assert_mem_eq(out, f->ph, n);
}
END_TEST

START_TEST(test_known_shdr)
{
	const struct form *f = &forms[_i];
	unsigned n = f->cls == ELFCLASS64 ? 64 : 40;
	struct dk_shdr h;
	uint8_t out[64];

	ck_assert_uint_eq(dk_elf_size(DK_ELF_SHDR, f->cls), n);
	dk_shdr_decode(f->sh, f->cls, f->e, &h);
	ck_assert_uint_eq(h.name, 1);
	ck_assert_uint_eq(h.type, SHT_SYMTAB);
	ck_assert_uint_eq(h.flags, SHF_ALLOC);
	ck_assert_uint_eq(h.addr, 0x1000);
	ck_assert_uint_eq(h.offset, 0x200);
	ck_assert_uint_eq(h.size, 0x180);
	ck_assert_uint_eq(h.link, 2);
	ck_assert_uint_eq(h.info, 1);
	ck_assert_uint_eq(h.addralign, 8);
	ck_assert_uint_eq(h.entsize, 24);
	dk_shdr_encode(out, f->cls, f->e, &h);
	ck_assert_mem_eq(out, f->sh, n);
}
END_TEST

START_TEST(test_known_nhdr)
{
	const struct form *f = &forms[_i];
	struct dk_nhdr h;
	uint8_t out[12];

	ck_assert_uint_eq(dk_elf_size(DK_ELF_NHDR, f->cls), 12);
	dk_nhdr_decode(f->nh, f->e, &h);
	ck_assert_uint_eq(h.namesz, 8);
	ck_assert_uint_eq(h.descsz, 0x78);
	ck_assert_uint_eq(h.type, 0x444b0001u);
	dk_nhdr_encode(out, f->e, &h);
	ck_assert_mem_eq(out, f->nh, 12);
}
END_TEST

/* An e_ident as dk_elf_ident writes it: typed in. */
START_TEST(test_known_ident)
{
	static const uint8_t want[EI_NIDENT] = {
		0x7f, 'E', 'L', 'F', 1, 2, 1, 9, 0, 0, 0, 0, 0, 0, 0, 0,
	};
	uint8_t id[EI_NIDENT];

	memset(id, 0xee, sizeof(id));
	dk_elf_ident(id, ELFCLASS32, DK_BE, ELFOSABI_FREEBSD);
	ck_assert_mem_eq(id, want, EI_NIDENT);
	dk_elf_ident(id, ELFCLASS64, DK_LE, ELFOSABI_NONE);
	ck_assert_mem_eq(id, ehdr64le, EI_NIDENT);
	ck_assert_int_eq(dk_elf_magic((const uint8_t *)"\177ELG"), 0);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* The table against the system's <elf.h>.                                 */

#define	SYS(fid, s32, s64, m)						\
	{ fid, offsetof(s32, m), sizeof(((s32 *)0)->m),			\
	  offsetof(s64, m), sizeof(((s64 *)0)->m) }

START_TEST(test_table_vs_elf_h)
{
	static const struct { unsigned id; size_t o32, w32, o64, w64; }
	    sys[] = {
		SYS(DK_E_TYPE, Elf32_Ehdr, Elf64_Ehdr, e_type),
		SYS(DK_E_MACHINE, Elf32_Ehdr, Elf64_Ehdr, e_machine),
		SYS(DK_E_VERSION, Elf32_Ehdr, Elf64_Ehdr, e_version),
		SYS(DK_E_ENTRY, Elf32_Ehdr, Elf64_Ehdr, e_entry),
		SYS(DK_E_PHOFF, Elf32_Ehdr, Elf64_Ehdr, e_phoff),
		SYS(DK_E_SHOFF, Elf32_Ehdr, Elf64_Ehdr, e_shoff),
		SYS(DK_E_FLAGS, Elf32_Ehdr, Elf64_Ehdr, e_flags),
		SYS(DK_E_EHSIZE, Elf32_Ehdr, Elf64_Ehdr, e_ehsize),
		SYS(DK_E_PHENTSIZE, Elf32_Ehdr, Elf64_Ehdr, e_phentsize),
		SYS(DK_E_PHNUM, Elf32_Ehdr, Elf64_Ehdr, e_phnum),
		SYS(DK_E_SHENTSIZE, Elf32_Ehdr, Elf64_Ehdr, e_shentsize),
		SYS(DK_E_SHNUM, Elf32_Ehdr, Elf64_Ehdr, e_shnum),
		SYS(DK_E_SHSTRNDX, Elf32_Ehdr, Elf64_Ehdr, e_shstrndx),
		SYS(DK_P_TYPE, Elf32_Phdr, Elf64_Phdr, p_type),
		SYS(DK_P_FLAGS, Elf32_Phdr, Elf64_Phdr, p_flags),
		SYS(DK_P_OFFSET, Elf32_Phdr, Elf64_Phdr, p_offset),
		SYS(DK_P_VADDR, Elf32_Phdr, Elf64_Phdr, p_vaddr),
		SYS(DK_P_PADDR, Elf32_Phdr, Elf64_Phdr, p_paddr),
		SYS(DK_P_FILESZ, Elf32_Phdr, Elf64_Phdr, p_filesz),
		SYS(DK_P_MEMSZ, Elf32_Phdr, Elf64_Phdr, p_memsz),
		SYS(DK_P_ALIGN, Elf32_Phdr, Elf64_Phdr, p_align),
		SYS(DK_S_NAME, Elf32_Shdr, Elf64_Shdr, sh_name),
		SYS(DK_S_TYPE, Elf32_Shdr, Elf64_Shdr, sh_type),
		SYS(DK_S_FLAGS, Elf32_Shdr, Elf64_Shdr, sh_flags),
		SYS(DK_S_ADDR, Elf32_Shdr, Elf64_Shdr, sh_addr),
		SYS(DK_S_OFFSET, Elf32_Shdr, Elf64_Shdr, sh_offset),
		SYS(DK_S_SIZE, Elf32_Shdr, Elf64_Shdr, sh_size),
		SYS(DK_S_LINK, Elf32_Shdr, Elf64_Shdr, sh_link),
		SYS(DK_S_INFO, Elf32_Shdr, Elf64_Shdr, sh_info),
		SYS(DK_S_ADDRALIGN, Elf32_Shdr, Elf64_Shdr, sh_addralign),
		SYS(DK_S_ENTSIZE, Elf32_Shdr, Elf64_Shdr, sh_entsize),
		SYS(DK_N_NAMESZ, Elf32_Nhdr, Elf64_Nhdr, n_namesz),
		SYS(DK_N_DESCSZ, Elf32_Nhdr, Elf64_Nhdr, n_descsz),
		SYS(DK_N_TYPE, Elf32_Nhdr, Elf64_Nhdr, n_type),
	};
	static const struct { unsigned k; size_t s32, s64; } size[] = {
		{ DK_ELF_EHDR, sizeof(Elf32_Ehdr), sizeof(Elf64_Ehdr) },
		{ DK_ELF_PHDR, sizeof(Elf32_Phdr), sizeof(Elf64_Phdr) },
		{ DK_ELF_SHDR, sizeof(Elf32_Shdr), sizeof(Elf64_Shdr) },
		{ DK_ELF_NHDR, sizeof(Elf32_Nhdr), sizeof(Elf64_Nhdr) },
	};
	size_t covered[DK_ELF_NKINDS][2] = { { EI_NIDENT, EI_NIDENT } };

	ck_assert_uint_eq(sizeof(sys) / sizeof(sys[0]), DK_ELF_NFIELDS);
	for (size_t i = 0; i < sizeof(sys) / sizeof(sys[0]); i++) {
		const struct dk_elf_field *f = dk_elf_field(sys[i].id);

		ck_assert_msg(dk_elf_off(sys[i].id, ELFCLASS32) == sys[i].o32 &&
		    dk_elf_width(sys[i].id, ELFCLASS32) == sys[i].w32 &&
		    dk_elf_off(sys[i].id, ELFCLASS64) == sys[i].o64 &&
		    dk_elf_width(sys[i].id, ELFCLASS64) == sys[i].w64,
		    "%s: the layer has %u/%u and %u/%u, <elf.h> %zu/%zu and "
		    "%zu/%zu", f->name, f->off[0], f->width[0], f->off[1],
		    f->width[1], sys[i].o32, sys[i].w32, sys[i].o64,
		    sys[i].w64);
		covered[f->kind][0] += f->width[0];
		covered[f->kind][1] += f->width[1];
	}
	/* The fields (and e_ident) cover every byte: no padding. */
	for (size_t i = 0; i < sizeof(size) / sizeof(size[0]); i++) {
		ck_assert_uint_eq(dk_elf_size(size[i].k, ELFCLASS32),
		    size[i].s32);
		ck_assert_uint_eq(dk_elf_size(size[i].k, ELFCLASS64),
		    size[i].s64);
		ck_assert_uint_eq(covered[size[i].k][0], size[i].s32);
		ck_assert_uint_eq(covered[size[i].k][1], size[i].s64);
	}
}
END_TEST

#undef	SYS

/* ---------------------------------------------------------------------- */
/* decode o encode, encode o decode.                                       */

static uint64_t
rng(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Both directions through the host struct of kind k, n random times. */
static void
identity(unsigned k, unsigned cls, enum dk_endian e, uint64_t *seed)
{
	union { struct dk_ehdr eh; struct dk_phdr ph; struct dk_shdr sh;
	    struct dk_nhdr nh; } h, g;
	unsigned n = dk_elf_size(k, cls);
	uint8_t in[64], out[64];

	for (int round = 0; round < 1000; round++) {
		for (unsigned i = 0; i < sizeof(in); i++)
			in[i] = (uint8_t)rng(seed);
		memset(out, 0, sizeof(out));
		switch (k) {
		case DK_ELF_EHDR:
			dk_ehdr_decode(in, cls, e, &h.eh);
			dk_ehdr_encode(out, cls, e, &h.eh);
			break;
		case DK_ELF_PHDR:
			dk_phdr_decode(in, cls, e, &h.ph);
			dk_phdr_encode(out, cls, e, &h.ph);
			break;
		case DK_ELF_SHDR:
			dk_shdr_decode(in, cls, e, &h.sh);
			dk_shdr_encode(out, cls, e, &h.sh);
			break;
		default:
			dk_nhdr_decode(in, e, &h.nh);
			dk_nhdr_encode(out, e, &h.nh);
			break;
		}
		ck_assert_mem_eq(out, in, n);
		/* Values fitted to each field, through bytes and back. */
		memset(&h, 0, sizeof(h));
		for (unsigned i = 0; i < EI_NIDENT; i++)
			h.eh.ident[i] = k == DK_ELF_EHDR ? (uint8_t)rng(seed) : 0;
		for (unsigned i = 0; i < DK_ELF_NFIELDS; i++) {
			const struct dk_elf_field *f = dk_elf_field(i);
			unsigned w = dk_elf_width(i, cls);

			if (f->kind == k)
				*(uint64_t *)((char *)&h + f->member) =
				    rng(seed) & (w == 8 ? UINT64_MAX :
				    (1ull << (8 * w)) - 1);
		}
		memset(&g, 0, sizeof(g));
		switch (k) {
		case DK_ELF_EHDR:
			dk_ehdr_encode(out, cls, e, &h.eh);
			dk_ehdr_decode(out, cls, e, &g.eh);
			break;
		case DK_ELF_PHDR:
			dk_phdr_encode(out, cls, e, &h.ph);
			dk_phdr_decode(out, cls, e, &g.ph);
			break;
		case DK_ELF_SHDR:
			dk_shdr_encode(out, cls, e, &h.sh);
			dk_shdr_decode(out, cls, e, &g.sh);
			break;
		default:
			dk_nhdr_encode(out, e, &h.nh);
			dk_nhdr_decode(out, e, &g.nh);
			break;
		}
		ck_assert_mem_eq(&g, &h, sizeof(h));
	}
}

START_TEST(test_identity)
{
	uint64_t seed = 0x656c666c61796572ull + (uint64_t)_i;

	for (unsigned k = 0; k < DK_ELF_NKINDS; k++)
		identity(k, forms[_i].cls, forms[_i].e, &seed);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* readelf and eu-readelf.                                                 */

#define	NOTE_NAME	"dumpkit"	/* 8 bytes with its NUL */
#define	NOTE_TYPE	0x444b0001u
#define	NOTE_DESCSZ	24u
#define	CORE_NLOAD	3

/*
 * A small core through the layer: the ELF header, a PT_NOTE with one
 * note, CORE_NLOAD PT_LOADs of distinct values.  Returns its size.
 */
static size_t
small_core(uint8_t *b, const struct form *f)
{
	unsigned es = dk_elf_size(DK_ELF_EHDR, f->cls);
	unsigned ps = dk_elf_size(DK_ELF_PHDR, f->cls);
	uint64_t noff = 0x200, nlen = dk_note_size(8, NOTE_DESCSZ);
	struct dk_ehdr eh;
	struct dk_shdr sh0;
	size_t at;

	memset(b, 0, 0x1000);
	memset(&eh, 0, sizeof(eh));
	dk_elf_ident(eh.ident, f->cls, f->e, ELFOSABI_NONE);
	eh.type = ET_CORE;
	eh.machine = f->machine;
	eh.version = EV_CURRENT;
	eh.phoff = es;
	eh.ehsize = es;
	eh.phentsize = ps;
	ck_assert_int_eq(dk_elf_xnum_put(&eh, &sh0, 1 + CORE_NLOAD, 0), 0);
	dk_ehdr_encode(b, f->cls, f->e, &eh);
	dk_phdr_encode(b + es, f->cls, f->e, &(struct dk_phdr){ PT_NOTE, 0,
	    noff, 0, 0, nlen, nlen, 4 });
	for (unsigned i = 0; i < CORE_NLOAD; i++)
		dk_phdr_encode(b + es + (1 + i) * ps, f->cls, f->e,
		    &(struct dk_phdr){ PT_LOAD, PF_R | (i ? PF_W : PF_X),
		    0x1000 + i * 0x1000ull, f->vaddr + i * 0x10000ull,
		    0x300000 + i * 0x20000ull, 0x1000, 0x1000 + i * 0x1000ull,
		    0x1000 });
	at = dk_note_head(b + noff, f->e, NOTE_TYPE, NOTE_NAME, 8,
	    NOTE_DESCSZ);
	ck_assert_uint_eq(at, 20);
	memset(b + noff + at, 0xab, NOTE_DESCSZ);
	return 0x1000 + CORE_NLOAD * 0x1000;
}

static char *
run(const char *cmd)
{
	static char out[16384];
	size_t n;
	FILE *p = popen(cmd, "r");

	ck_assert_ptr_nonnull(p);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	ck_assert_msg(pclose(p) == 0, "%s failed:\n%s", cmd, out);
	return out;
}

/* The value after "label" on a line of readelf -h ("  label   value"). */
static const char *
after(const char *text, const char *label)
{
	const char *p = strstr(text, label);

	ck_assert_msg(p != NULL, "no \"%s\" in:\n%s", label, text);
	p += strlen(label);
	while (*p == ' ' || *p == ':')
		p++;
	return p;
}

static int
write_file(const char *path, const uint8_t *b, size_t len)
{
	FILE *fp = fopen(path, "wb");
	int ok;

	ck_assert_ptr_nonnull(fp);
	ok = fwrite(b, 1, len, fp) == len;
	return fclose(fp) == 0 && ok;
}

START_TEST(test_readelf)
{
	static uint8_t b[0x1000 + CORE_NLOAD * 0x1000];
	const struct form *f = &forms[_i];
	int c64 = f->cls == ELFCLASS64;
	char path[300], cmd[400];
	const char *o, *line;
	size_t len = small_core(b, f);
	unsigned long long off, va, pa, fs, ms, al;
	char type[32];
	unsigned nload = 0;

	make_tmpdir();
	snprintf(path, sizeof(path), "%s/small.core", tmpdir);
	ck_assert(write_file(path, b, len));

	snprintf(cmd, sizeof(cmd), "LC_ALL=C readelf -h %s", path);
	o = run(cmd);
	ck_assert_msg(strncmp(after(o, "Class"), c64 ? "ELF64" : "ELF32", 5)
	    == 0, "%s", o);
	ck_assert_msg(strncmp(after(o, "Data"), f->e == DK_BE ?
	    "2's complement, big endian" : "2's complement, little endian",
	    26) == 0, "%s", o);
	ck_assert(strncmp(after(o, "Type"), "CORE", 4) == 0);
	ck_assert_uint_eq(strtoull(after(o, "Start of program headers"),
	    NULL, 0), c64 ? 64 : 52);
	ck_assert_uint_eq(strtoull(after(o, "Size of this header"), NULL, 0),
	    c64 ? 64 : 52);
	ck_assert_uint_eq(strtoull(after(o, "Size of program headers"), NULL,
	    0), c64 ? 56 : 32);
	ck_assert_uint_eq(strtoull(after(o, "Number of program headers"),
	    NULL, 0), 1 + CORE_NLOAD);
	ck_assert_uint_eq(strtoull(after(o, "Number of section headers"),
	    NULL, 0), 0);

	/* readelf -lW: Type Offset VirtAddr PhysAddr FileSiz MemSiz Flg Align */
	snprintf(cmd, sizeof(cmd), "LC_ALL=C readelf -lW %s", path);
	o = run(cmd);
	for (line = o; (line = strstr(line, "\n  ")) != NULL; line++) {
		char l[256];
		size_t ll = strcspn(line + 1, "\n");

		snprintf(l, sizeof(l), "%.*s", (int)ll, line + 1);
		if (sscanf(l, " %31s %llx %llx %llx %llx %llx", type, &off,
		    &va, &pa, &fs, &ms) != 6 || (strcmp(type, "LOAD") != 0 &&
		    strcmp(type, "NOTE") != 0))
			continue;
		al = strtoull(strrchr(l, ' ') + 1, NULL, 0);
		if (strcmp(type, "NOTE") == 0) {
			ck_assert_uint_eq(off, 0x200);
			ck_assert_uint_eq(fs, 20 + NOTE_DESCSZ);
			ck_assert_uint_eq(al, 4);
			continue;
		}
		ck_assert_uint_eq(off, 0x1000 + nload * 0x1000ull);
		ck_assert_uint_eq(va, f->vaddr + nload * 0x10000ull);
		ck_assert_uint_eq(pa, 0x300000 + nload * 0x20000ull);
		ck_assert_uint_eq(fs, 0x1000);
		ck_assert_uint_eq(ms, 0x1000 + nload * 0x1000ull);
		ck_assert_uint_eq(al, 0x1000);
		ck_assert_ptr_nonnull(strstr(l, nload ? " RW " : " R E "));
		nload++;
	}
	ck_assert_msg(nload == CORE_NLOAD, "%u PT_LOADs in:\n%s", nload, o);

	/* readelf -n: the owner, the descriptor's size and the type. */
	snprintf(cmd, sizeof(cmd), "LC_ALL=C readelf -nW %s", path);
	o = run(cmd);
	ck_assert_msg(strstr(o, "offset 0x00000200 with length 0x0000002c") !=
	    NULL, "%s", o);
	line = after(o, "dumpkit");
	ck_assert_uint_eq(strtoull(line, NULL, 16), NOTE_DESCSZ);
	ck_assert_msg(strstr(line, "0x444b0001") != NULL, "%s", o);

	/* eu-readelf, another reader: the header and the segments. */
	snprintf(cmd, sizeof(cmd), "LC_ALL=C eu-readelf -h -l %s", path);
	o = run(cmd);
	ck_assert(strncmp(after(o, "Class"), c64 ? "ELF64" : "ELF32", 5) ==
	    0);
	ck_assert_uint_eq(strtoull(after(o, "Number of program headers "
	    "entries"), NULL, 0), 1 + CORE_NLOAD);
	ck_assert_ptr_nonnull(strstr(o, f->e == DK_BE ? "big endian" :
	    "little endian"));
	for (unsigned i = 0; i < CORE_NLOAD; i++) {
		char want[128];

		snprintf(want, sizeof(want), "0x%0*llx 0x%0*llx", c64 ? 16 : 8,
		    (unsigned long long)(f->vaddr + i * 0x10000ull),
		    c64 ? 16 : 8, 0x300000 + i * 0x20000ull);
		ck_assert_msg(strstr(o, want) != NULL, "no %s in:\n%s", want,
		    o);
	}
	unlink(path);
	rmdir(tmpdir);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* PN_XNUM.                                                                */

#define	XNUM_N	70000u

START_TEST(test_xnum)
{
	const struct form *f = &forms[_i];
	unsigned es = dk_elf_size(DK_ELF_EHDR, f->cls);
	unsigned ps = dk_elf_size(DK_ELF_PHDR, f->cls);
	unsigned ss = dk_elf_size(DK_ELF_SHDR, f->cls);
	uint64_t shoff = es + (uint64_t)XNUM_N * ps, n;
	size_t len = (size_t)shoff + ss;
	uint8_t *b = calloc(1, len);
	struct dk_src src = { .fd = -1, .mem = b, .size = len,
	    .name = "xnum" };
	struct dk_ehdr eh, back;
	struct dk_shdr sh0, sh;
	struct dk_err err;
	char path[300], cmd[400], want[64];
	const char *o;

	ck_assert_ptr_nonnull(b);
	memset(&eh, 0, sizeof(eh));
	dk_elf_ident(eh.ident, f->cls, f->e, ELFOSABI_NONE);
	eh.type = ET_CORE;
	eh.machine = f->machine;
	eh.version = EV_CURRENT;
	eh.phoff = es;
	eh.ehsize = es;
	eh.phentsize = ps;
	ck_assert_int_eq(dk_elf_xnum_put(&eh, &sh0, XNUM_N, shoff), 1);
	/* What the writer must put, as the gABI says. */
	ck_assert_uint_eq(eh.phnum, 0xffff);
	ck_assert_uint_eq(eh.shoff, shoff);
	ck_assert_uint_eq(eh.shnum, 1);
	ck_assert_uint_eq(eh.shentsize, f->cls == ELFCLASS64 ? 64 : 40);
	ck_assert_uint_eq(sh0.type, SHT_NULL);
	ck_assert_uint_eq(sh0.info, XNUM_N);
	dk_ehdr_encode(b, f->cls, f->e, &eh);
	for (uint64_t i = 0; i < XNUM_N; i++)
		dk_phdr_encode(b + es + i * ps, f->cls, f->e,
		    &(struct dk_phdr){ PT_LOAD, PF_R, 0, i << 12, i << 12, 0,
		    0x1000, 0x1000 });
	dk_shdr_encode(b + shoff, f->cls, f->e, &sh0);
	/* sh_info, by hand: offset 28 (ELF32) or 44 (ELF64) of section 0. */
	ck_assert_uint_eq(b[shoff + (f->cls == ELFCLASS64 ? 44 : 28) +
	    (f->e == DK_BE ? 1 : 2)], 1);		/* 70000 = 0x11170 */

	dk_ehdr_decode(b, f->cls, f->e, &back);
	ck_assert_int_eq(dk_elf_phnum(&src, &back, &n, &err), DK_OK);
	ck_assert_uint_eq(n, XNUM_N);
	ck_assert_int_eq(dk_shdr_read(&src, &back, 0, &sh, &err), DK_OK);
	ck_assert_uint_eq(sh.info, XNUM_N);
	/* Section 0 cut off: the count cannot be known. */
	src.size = shoff + dk_elf_off(DK_S_INFO, f->cls) + 3;
	ck_assert_int_eq(dk_elf_phnum(&src, &back, &n, &err), DK_NOMATCH);
	ck_assert_uint_eq(n, PN_XNUM);
	src.size = len;
	/* Fewer than PN_XNUM: e_phnum itself, no section header. */
	ck_assert_int_eq(dk_elf_xnum_put(&back, &sh0, 0xfffe, 99), 0);
	ck_assert_uint_eq(back.phnum, 0xfffe);
	ck_assert_uint_eq(back.shoff + back.shnum + back.shentsize, 0);
	ck_assert_int_eq(dk_elf_phnum(&src, &back, &n, &err), DK_OK);
	ck_assert_uint_eq(n, 0xfffe);

	make_tmpdir();
	snprintf(path, sizeof(path), "%s/xnum.core", tmpdir);
	ck_assert(write_file(path, b, len));
	snprintf(cmd, sizeof(cmd), "LC_ALL=C readelf -h %s", path);
	o = run(cmd);
	snprintf(want, sizeof(want), "65535 (%u)", XNUM_N);
	ck_assert_msg(strncmp(after(o, "Number of program headers"), want,
	    strlen(want)) == 0, "%s", o);
	snprintf(cmd, sizeof(cmd), "LC_ALL=C eu-readelf -h %s", path);
	o = run(cmd);
	snprintf(want, sizeof(want), "65535 (%u in [0].sh_info)", XNUM_N);
	ck_assert_msg(strstr(o, want) != NULL, "%s", o);
	unlink(path);
	rmdir(tmpdir);
	free(b);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Notes.                                                                  */

/*
 * Three notes, little-endian, written out from the gABI's note layout:
 * "CORE" (namesz 5, padded to 8) type 1 with a 3-byte descriptor
 * (padded to 4); "dumpkit" type 0x444b0002 with 8 bytes; an empty name
 * (namesz 0) type 7 with no descriptor.
 */
static const uint8_t notes_le[] = {
	5, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0,	/* 0x00 */
	'C', 'O', 'R', 'E', 0, 0, 0, 0,		/* 0x0c name, padded */
	0xa, 0xb, 0xc, 0,			/* 0x14 desc, padded */
	8, 0, 0, 0, 8, 0, 0, 0, 2, 0, 0x4b, 0x44,	/* 0x18 */
	'd', 'u', 'm', 'p', 'k', 'i', 't', 0,	/* 0x24 */
	1, 2, 3, 4, 5, 6, 7, 8,			/* 0x2c */
	0, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0,	/* 0x34 */
};						/* 0x40 */

/* Walk p[0, len) to its end or an error; the notes seen in *n. */
static enum dk_status
walk(const uint8_t *p, size_t len, struct dk_note *seen, size_t max,
    size_t *n, struct dk_err *err)
{
	struct dk_note_iter it;
	struct dk_note note;
	enum dk_status st;

	*n = 0;
	dk_note_iter_mem(&it, p, len, DK_LE, "the range");
	while ((st = dk_note_next(&it, &note, err)) == DK_OK)
		if (*n < max)
			seen[(*n)++] = note;
	/* Once done or failed, it stays so. */
	ck_assert_int_eq(dk_note_next(&it, &note, err), st);
	return st;
}

/* A copy of the first len bytes in a buffer of exactly len bytes. */
static uint8_t *
exact(const uint8_t *p, size_t len)
{
	uint8_t *b = malloc(len ? len : 1);

	ck_assert_ptr_nonnull(b);
	memcpy(b, p, len);
	return b;
}

START_TEST(test_notes_good)
{
	struct dk_note n[4];
	struct dk_err err;
	size_t k;

	ck_assert_int_eq(walk(notes_le, sizeof(notes_le), n, 4, &k, &err),
	    DK_NOMATCH);
	ck_assert_uint_eq(k, 3);
	ck_assert_uint_eq(n[0].off, 0);
	ck_assert_uint_eq(n[0].namesz, 5);
	ck_assert_int_eq(n[0].have_name, 1);
	ck_assert_str_eq((const char *)n[0].name, "CORE");
	ck_assert_uint_eq(n[0].type, 1);
	ck_assert_uint_eq(n[0].desc_off, 0x14);
	ck_assert_uint_eq(n[0].descsz, 3);
	ck_assert_uint_eq(n[1].off, 0x18);
	ck_assert_mem_eq(n[1].name, "dumpkit", 8);
	ck_assert_uint_eq(n[1].type, 0x444b0002u);
	ck_assert_uint_eq(n[1].desc_off, 0x2c);
	ck_assert_uint_eq(n[1].descsz, 8);
	ck_assert_uint_eq(n[2].off, 0x34);
	ck_assert_uint_eq(n[2].namesz, 0);
	ck_assert_uint_eq(n[2].desc_off, 0x40);
	ck_assert_uint_eq(n[2].type, 7);
	ck_assert_uint_eq(dk_note_size(5, 3), 0x18);
	ck_assert_uint_eq(dk_note_size(8, 8), 0x1c);
	ck_assert_uint_eq(dk_note_size(0, 0), 12);
	/* An empty range has no notes. */
	ck_assert_int_eq(walk(notes_le, 0, n, 4, &k, &err), DK_NOMATCH);
	ck_assert_uint_eq(k, 0);
}
END_TEST

/*
 * Cut at every length: the notes wholly inside are yielded, the one cut
 * is an error at its own offset, in a buffer that ends at the cut.
 */
START_TEST(test_notes_truncated)
{
	static const size_t start[] = { 0, 0x18, 0x34, 0x40 };
	size_t len = (size_t)_i, k, whole = 0;
	uint8_t *b = exact(notes_le, len);
	struct dk_note n[4];
	struct dk_err err;
	enum dk_status st;

	while (whole < 3 && start[whole + 1] <= len)
		whole++;
	st = walk(b, len, n, 4, &k, &err);
	ck_assert_uint_eq(k, whole);
	if (len == start[whole]) {
		ck_assert_int_eq(st, DK_NOMATCH);
	} else {
		ck_assert_int_eq(st, DK_ECORRUPT);
		ck_assert_uint_eq(err.offset, start[whole]);
		ck_assert_ptr_nonnull(strstr(err.msg, len - start[whole] < 12 ?
		    "a note header needs 12 bytes, the range has" :
		    "extends past the range's end"));
	}
	free(b);
}
END_TEST

/* A producer that does not pad: the next header is read 2 bytes early. */
START_TEST(test_notes_unpadded)
{
	static const uint8_t b[] = {
		4, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0,	/* 0x00 */
		'C', 'O', 'R', 'E',			/* 0x0c no NUL: 4 */
		0x11, 0x22,				/* 0x10 desc, unpadded */
		5, 0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 0,	/* 0x12 next header */
		'C', 'O', 'R', 'E', 0, 0, 0, 0, 9, 9, 9, 9,
	};
	uint8_t *x = exact(b, sizeof(b));
	struct dk_note n[4];
	struct dk_err err;
	size_t k;

	/* At 0x14: namesz 0x40000 (bytes 0 0 4 0): past the end. */
	ck_assert_int_eq(walk(x, sizeof(b), n, 4, &k, &err), DK_ECORRUPT);
	ck_assert_uint_eq(k, 1);
	ck_assert_uint_eq(n[0].desc_off, 0x10);
	ck_assert_uint_eq(err.offset, 0x14);
	ck_assert_ptr_nonnull(strstr(err.msg, "name 262144 bytes"));
	free(x);
}
END_TEST

/*
 * Notes aligned to 8 (a GNU property note, then another): the 4-byte
 * iterator reads the first note's padding as a header, as documented,
 * and never yields the second note at its true offset.
 */
START_TEST(test_notes_align8)
{
	static const uint8_t b[] = {
		4, 0, 0, 0, 4, 0, 0, 0, 5, 0, 0, 0,	/* 0x00 */
		'G', 'N', 'U', 0,			/* 0x0c */
		1, 2, 3, 4,				/* 0x10 desc */
		0, 0, 0, 0,				/* 0x14 pad to 8 */
		4, 0, 0, 0, 8, 0, 0, 0, 5, 0, 0, 0,	/* 0x18 */
		'G', 'N', 'U', 0,
		1, 2, 3, 4, 5, 6, 7, 8,
	};
	uint8_t *x = exact(b, sizeof(b));
	struct dk_note n[4];
	struct dk_err err;
	size_t k;

	(void)walk(x, sizeof(b), n, 4, &k, &err);
	ck_assert_uint_ge(k, 1);
	ck_assert_uint_eq(n[0].desc_off, 0x10);
	for (size_t i = 1; i < k; i++)
		ck_assert_uint_ne(n[i].off, 0x18);
	free(x);
}
END_TEST

/* Sizes near 2^32: errors, no wrap-around, no read. */
START_TEST(test_notes_oversized)
{
	static const uint8_t big[][12] = {
		{ 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 1, 0, 0, 0 },
		{ 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 1, 0, 0, 0 },
		{ 0xfd, 0xff, 0xff, 0xff, 0xfd, 0xff, 0xff, 0xff, 1, 0, 0, 0 },
		{ 0x21, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0 },
	};
	struct dk_note n[1];
	struct dk_err err;
	size_t k;

	for (size_t i = 0; i < 3; i++) {
		uint8_t *x = exact(big[i], 12);

		ck_assert_int_eq(walk(x, 12, n, 1, &k, &err), DK_ECORRUPT);
		ck_assert_uint_eq(k, 0);
		ck_assert_uint_eq(err.offset, 0);
		ck_assert_ptr_nonnull(strstr(err.msg, "extends past"));
		free(x);
	}
	/* A 33-byte name that fits is yielded, its bytes not copied. */
	{
		uint8_t x[12 + 36] = { 0 };

		memcpy(x, big[3], 12);
		ck_assert_int_eq(walk(x, sizeof(x), n, 1, &k, &err),
		    DK_NOMATCH);
		ck_assert_uint_eq(k, 1);
		ck_assert_int_eq(n[0].have_name, 0);
		ck_assert_uint_eq(n[0].desc_off, 48);
	}
}
END_TEST

/* Through a file: a range past the file's end fails at the read. */
START_TEST(test_notes_file)
{
	char path[300];
	struct dk_note_iter it;
	struct dk_note n;
	struct dk_err err;
	struct dk_src src = { .fd = -1, .mem = NULL, .size = 0,
	    .name = "notes.bin" };
	FILE *fp;
	int k = 0;

	make_tmpdir();
	snprintf(path, sizeof(path), "%s/notes.bin", tmpdir);
	fp = fopen(path, "wb");
	ck_assert_ptr_nonnull(fp);
	ck_assert_uint_eq(fwrite(notes_le, 1, sizeof(notes_le), fp),
	    sizeof(notes_le));
	fclose(fp);
	fp = fopen(path, "rb");
	src.fd = fileno(fp);
	src.size = 0x20;		/* the file, as src sees it, ends here */
	dk_note_iter_init(&it, &src, 0, sizeof(notes_le), DK_LE,
	    "the PT_NOTE segment");
	while (dk_note_next(&it, &n, &err) == DK_OK)
		k++;
	ck_assert_int_eq(k, 1);
	ck_assert_int_eq(err.code, DK_ETRUNC);
	ck_assert_uint_eq(err.offset, 0x18);
	/* An end below the start: nothing. */
	dk_note_iter_init(&it, &src, 0x18, 0x10, DK_LE, "x");
	ck_assert_int_eq(dk_note_next(&it, &n, &err), DK_NOMATCH);
	fclose(fp);
	unlink(path);
	rmdir(tmpdir);
}
END_TEST

/* The checked section-header read refuses what it cannot trust. */
START_TEST(test_shdr_read)
{
	uint8_t b[64 + 3 * 64];
	struct dk_src src = { .fd = -1, .mem = b, .size = sizeof(b),
	    .name = "sh" };
	struct dk_ehdr eh;
	struct dk_shdr sh;
	struct dk_err err;

	memset(b, 0, sizeof(b));
	memcpy(b, ehdr64le, sizeof(ehdr64le));
	memcpy(b + 64 + 64, shdr64le, sizeof(shdr64le));
	dk_ehdr_decode(b, ELFCLASS64, DK_LE, &eh);
	eh.shoff = 64;
	eh.shnum = 3;
	ck_assert_int_eq(dk_shdr_read(&src, &eh, 1, &sh, &err), DK_OK);
	ck_assert_uint_eq(sh.type, SHT_SYMTAB);
	ck_assert_uint_eq(sh.entsize, 24);
	ck_assert_int_eq(dk_shdr_read(&src, &eh, 3, &sh, &err), DK_ECORRUPT);
	ck_assert_uint_eq(err.offset, 60);
	eh.shnum = 4;
	ck_assert_int_eq(dk_shdr_read(&src, &eh, 3, &sh, &err), DK_ETRUNC);
	ck_assert_uint_eq(err.offset, 40);
	eh.shoff = UINT64_MAX - 8;
	ck_assert_int_eq(dk_shdr_read(&src, &eh, 0, &sh, &err), DK_ETRUNC);
	eh.shoff = 64;
	eh.shentsize = 40;
	ck_assert_int_eq(dk_shdr_read(&src, &eh, 0, &sh, &err), DK_ECORRUPT);
	ck_assert_uint_eq(err.offset, 58);
	ck_assert_ptr_nonnull(strstr(err.msg, "e_shentsize 40"));
}
END_TEST

static Suite *
elf_layer_suite(void)
{
	Suite *s = suite_create("elf_layer");
	TCase *known = tcase_create("known");
	TCase *tools = tcase_create("readelf");
	TCase *notes = tcase_create("notes");

	tcase_add_loop_test(known, test_known_ehdr, 0, 4);
	tcase_add_loop_test(known, test_known_phdr, 0, 4);
	tcase_add_loop_test(known, test_known_shdr, 0, 4);
	tcase_add_loop_test(known, test_known_nhdr, 0, 4);
	tcase_add_test(known, test_known_ident);
	tcase_add_test(known, test_table_vs_elf_h);
	tcase_add_loop_test(known, test_identity, 0, 4);
	tcase_add_loop_test(tools, test_readelf, 0, 4);
	tcase_add_loop_test(tools, test_xnum, 0, 4);
	tcase_set_timeout(tools, 60);
	tcase_add_test(notes, test_notes_good);
	tcase_add_loop_test(notes, test_notes_truncated, 0,
	    (int)sizeof(notes_le) + 1);
	tcase_add_test(notes, test_notes_unpadded);
	tcase_add_test(notes, test_notes_align8);
	tcase_add_test(notes, test_notes_oversized);
	tcase_add_test(notes, test_notes_file);
	tcase_add_test(notes, test_shdr_read);
	suite_add_tcase(s, known);
	suite_add_tcase(s, tools);
	suite_add_tcase(s, notes);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(elf_layer_suite());
	int nfailed;

	srunner_run_all(sr, CK_ENV);
	nfailed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfailed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
