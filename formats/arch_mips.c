/*
 * arch_mips.c -- mips minidumps, o32, n32 and n64 in both byte orders:
 * header layout, page-table area, unmapped segments and address
 * translation (FORMATS.md 1.2 "mips", 1.4, 2.6, 6.2, 6.3).
 *
 * One magic, "minidump FreeBSD/mips", for six rows (arch.c): mips,
 * mipsel (o32), mipsn32, mipsn32el (n32), mips64, mips64el (n64).
 * Version 1 (2010) and version 2 (2020-09, adds dumpavailsize and the
 * dump_avail section).  The header is written natively, so its byte
 * order is the row's.  The u64 kernbase at offset 40 is 8-aligned in
 * every ABI, so the struct has no inner padding; version 2 ends with
 * 4 bytes of tail padding (sizeof 72; version 1: 64).
 *
 * The pmap area is a flat array of PTEs, one per 4 KiB page from
 * kernbase (VM_MIN_KERNEL_ADDRESS) to kernel_vm_end, written as whole
 * page-table pages.  The entry size is the ABI's pt_entry_t: 4 bytes
 * for o32 (PFN mask 0x1FFFFFC0, software RO bit 29), 8 bytes for n32
 * and n64 (PFN mask 0x3FFFFFFC0, RO bit 55).  A PTE is valid iff PTE_V
 * (0x2) is set; pa = ((pte & PFN_MASK) >> 6) << 12.  The kernel fills
 * every invalid kernel PTE with PTE_G (0x1) (FreeBSD's mips pmap.c,
 * pmap_bootstrap and pmap_qremove, read by text search; FORMATS.md does
 * not say it), so "non-zero" does not mean valid.  No superpages.
 * Protection, as libkvm's page walker reads it: writable iff RO is
 * clear; always executable (the classic MIPS TLB has no
 * execute-inhibit that FreeBSD used).
 *
 * Unmapped segments are translated by arithmetic before the PTE array
 * is consulted, chosen by the kernel's ELF class as libkvm does, so n32
 * (ELFCLASS32) uses the 32-bit segments:
 *  - o32, n32: KSEG0 [0x80000000, 0xa0000000) and KSEG1
 *    [0xa0000000, 0xc0000000): pa = va & 0x1fffffff.
 *  - n64: XKPHYS [0x8000000000000000, 0xc000000000000000):
 *    pa = va & 0xffffffffff (40 bits; the cache attribute in bits 61:59
 *    is ignored, and so are bits 58:40, which the hardware requires to
 *    be zero: libkvm aliases them, and so does dumpkit); CKSEG0
 *    [0xffffffff80000000, 0xffffffffa0000000) and CKSEG1
 *    [0xffffffffa0000000, 0xffffffffc0000000): pa = va & 0x1fffffff.
 * Setup reports them as address windows (DK_WIN_UNMAPPED; XKPHYS as
 * one window of 2^40 bytes per cache attribute, mips_windows).
 * There is no direct map in the dmap sense: dmapbase and dmapend are
 * written 0 by the kernel and are not used (non-zero values are traced,
 * not refused).
 *
 * Decisions where FORMATS.md is silent or unverified:
 *  - Segment ends.  libkvm tests "va < 0x9fffffff" (and the like) with
 *    inclusive-style constants, but on a page-truncated va, so its last
 *    page is still inside.  Every segment here is half-open with its
 *    true end, and the test is made on the page-truncated va: the whole
 *    segment, last page included, is translated (pa = va & mask for
 *    every byte, since the masks keep the page offset).
 *  - 32-bit ABIs (o32, n32): a va that is the sign extension of a
 *    32-bit address (0xffffffff80000000 and up) is read as that 32-bit
 *    address, since BFD and gdb sign-extend MIPS VMAs and the portable
 *    format's p_vaddr does too (fmt_elfmini.c); any other va of 2^32 or
 *    more is ENOTMAPPED, never truncated.  libkvm would look the
 *    sign-extended form up in the PTE array and fail.
 *  - Bitmap words (FORMATS.md 1.4, 7): version 1 uses 32-bit words
 *    (uint32_t vm_page_dump[]) in every ABI; version 2 uses the
 *    kernel's long: 4 bytes for o32 and n32, 8 for n64 (the row's
 *    long_size).  dump_avail entries are u64 (the 2020-12 layout).
 *  - Header checks, each before the value is used: kernbase page
 *    aligned; ptesize a multiple of the ABI's PTE size; the PTE array,
 *    [kernbase, kernbase + (ptesize / PTE size) * 4 KiB), inside the
 *    ABI's mapped kernel space and not wrapping: [0xc0000000, 2^32)
 *    for o32 and n32 (KSEG2/KSEG3), for n64 XKSEG from
 *    0xc000000000000000 up to CKSEG0, or CKSSEG/CKSEG3 from
 *    0xffffffffc0000000 up to 2^64.  A PTE array overlapping an
 *    unmapped segment could never have been used by the CPU, and the
 *    segment would shadow its entries, so it is refused rather than
 *    half read.  Each refusal is DK_ECORRUPT naming the file, the
 *    offset, expected and found.
 *
 * Row inference (the plausible hook; choose_row has already matched the
 * version field in each byte order):
 *  - n64 iff kernbase is not a 32-bit value (>= 2^32).  A 32-bit kernel
 *    stores its 32-bit VM_MIN_KERNEL_ADDRESS zero-extended, n64 stores
 *    0xc000000000000000: the two never meet.  Any kernbase >= 2^32
 *    names n64, and setup then refuses one that is not a kernel address
 *    with its own precise message, instead of the hook leaving no row
 *    and choose_row blaming the version field.
 *  - o32 and n32 iff kernbase < 2^32.  Nothing in a real header tells
 *    them apart: the kernel writes whole page-table pages, so ptesize
 *    is a multiple of 4096 in both (4 MiB of KVA per page with 4-byte
 *    PTEs, 2 MiB with 8-byte ones), and no other field depends on the
 *    ABI.  The one decisive case is ptesize against the kernel range:
 *    when (ptesize / 4) pages from kernbase would end past 4 GiB, o32
 *    cannot have written the header and n32 is decided.  Otherwise both
 *    stay plausible and the open fails with DK_EAMBIG asking for --arch
 *    or --kernel (whose EF_MIPS_ABI2 decides): a wrong guess would read
 *    every PTE wrongly.  ptesize not being a multiple of 8 is NOT used
 *    to pick o32: the kernel never writes such a value, so it can only
 *    be damage, and damage must not decide the row.
 *
 * Generator: kernbase = VM_MIN_KERNEL_ADDRESS (0xc0000000; n64
 * 0xc000000000000000); the kernel image lives in KSEG0 (n64: CKSEG0,
 * also reached through XKPHYS), so it is dumped but not mapped in the
 * page tables (ktext_va 0) and the model reaches it through windows.
 * RAM starts at PA 0.  phys_max is what the format can express, not
 * what KSEG0 reaches: o32 4 GiB (32-bit vm_paddr_t; its PTE could say
 * 32 GiB), n32 and n64 1 TiB (40-bit PFN).  Memory above 512 MiB is
 * reachable only through the PTE array (32-bit ABIs) or XKPHYS, and the
 * model's windows say exactly that; `make demo` asks every row for
 * 512 MiB, which 512 MiB of phys_max could not hold.  msgbufsize is
 * MSGBUF_SIZE (0x18000) less sizeof(struct msgbuf), 0x38 on ILP32 and
 * 0x48 on LP64 [INFERRED from the struct, not measured on a mips
 * kernel]; no reader depends on it.  Windows: KSEG0 and KSEG1 (o32,
 * n32); the XKPHYS cached window FreeBSD uses as its direct map,
 * CKSEG0, CKSEG1 and the top 2^40 bytes of XKPHYS (n64, see
 * mips_gen_defaults).
 *
 * The constants are spelled out here, never taken from a host header,
 * so that this file builds and is tested on any host.
 */
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "kthreads.h"
#include "private.h"

#define	MIPS_ELFCLASS64		2
#define	MIPS_ELFCLASS32		1
#define	MIPS_EM_MIPS		8		/* the kernel's e_machine */
#define	MIPS_EF_ABI2		0x20u		/* EF_MIPS_ABI2: n32 */
#define	MIPS_PAGE_SHIFT		12
#define	MIPS_PAGE_SIZE		(1u << MIPS_PAGE_SHIFT)
#define	MIPS_PAGE_MASK		((uint64_t)MIPS_PAGE_SIZE - 1)
#define	MIPS_PTE_G		0x1ull		/* global */
#define	MIPS_PTE_V		0x2ull		/* valid */
#define	MIPS_PTE_D		0x4ull		/* dirty: hardware-writable */
#define	MIPS_PTE_C_CACHED	(3ull << 3)	/* cache attribute 3 */
#define	MIPS_PFN_SHIFT		6
#define	MIPS32_PFN_MASK		0x1FFFFFC0ull
#define	MIPS64_PFN_MASK		0x3FFFFFFC0ull
#define	MIPS32_PTE_RO		(1ull << 29)
#define	MIPS64_PTE_RO		(1ull << 55)
/* 32-bit segments (o32, n32). */
#define	MIPS32_KSEG0		0x80000000ull
#define	MIPS32_KSEG1		0xa0000000ull
#define	MIPS32_KSEG2		0xc0000000ull	/* end of KSEG1 */
#define	MIPS_KSEG_PHYS_MASK	0x1fffffffull
#define	MIPS32_VA_END		(1ull << 32)
/* 64-bit segments (n64). */
#define	MIPS_XKPHYS		0x8000000000000000ull
#define	MIPS_XKPHYS_CACHED	0x9800000000000000ull	/* CCA 3 */
#define	MIPS_XKSEG		0xc000000000000000ull	/* end of XKPHYS */
#define	MIPS_XKPHYS_PHYS_MASK	0x000000ffffffffffull	/* 40 bits */
#define	MIPS_XKPHYS_CCA_SHIFT	59		/* cache attribute, 61:59 */
#define	MIPS_CKSEG0		0xffffffff80000000ull
#define	MIPS_CKSEG1		0xffffffffa0000000ull
#define	MIPS_CKSSEG		0xffffffffc0000000ull	/* end of CKSEG1 */
/* VM_MIN_KERNEL_ADDRESS */
#define	MIPS32_KERNBASE		0xc0000000ull
#define	MIPS64_KERNBASE		MIPS_XKSEG
#define	MIPS32_PHYS_MAX		(1ull << 32)	/* o32 vm_paddr_t */
#define	MIPS64_PHYS_MAX		(1ull << 40)	/* 8-byte PTE PFN */
/* MSGBUF_SIZE less sizeof(struct msgbuf), ILP32 and LP64 [INFERRED]. */
#define	MIPS_MSGBUF_SIZE	0x18000u
#define	MIPS32_MSGBUF_HDR	0x38u
#define	MIPS64_MSGBUF_HDR	0x48u

#define	V12	(DK_V(1) | DK_V(2))

static const struct dk_field mips_fields[] = {
	{ "magic", 0, 24, DK_FK_CHARS, DK_H_MAGIC, V12, "char[24]",
	  "\"minidump FreeBSD/mips\", NUL-padded; every ABI, both orders" },
	{ "version", 24, 4, DK_FK_UINT, DK_H_VERSION, V12, "uint32_t",
	  "1 or 2" },
	{ "msgbufsize", 28, 4, DK_FK_UINT, DK_H_MSGBUFSIZE, V12, "uint32_t",
	  "bytes of the message buffer" },
	{ "bitmapsize", 32, 4, DK_FK_UINT, DK_H_BITMAPSIZE, V12, "uint32_t",
	  "bytes of the page bitmap" },
	{ "ptesize", 36, 4, DK_FK_UINT, DK_H_PMAPSIZE, V12, "uint32_t",
	  "bytes of the PTE array (4-byte PTEs o32, 8-byte n32/n64)" },
	{ "kernbase", 40, 8, DK_FK_UINT, DK_H_KERNBASE, V12, "uint64_t",
	  "VM_MIN_KERNEL_ADDRESS, first KVA of the PTE array "
	  "(o32/n32: zero-extended)" },
	{ "dmapbase", 48, 8, DK_FK_UINT, DK_H_DMAPBASE, V12, "uint64_t",
	  "not set by the kernel (0); unused" },
	{ "dmapend", 56, 8, DK_FK_UINT, DK_H_DMAPEND, V12, "uint64_t",
	  "not set by the kernel (0); unused" },
	{ "dumpavailsize", 64, 4, DK_FK_UINT, DK_H_DUMPAVAILSIZE, DK_V(2),
	  "uint32_t", "bytes of the dump_avail section" },
	{ "(padding)", 68, 4, DK_FK_PAD, DK_H_PAD, DK_V(2), NULL,
	  "tail padding to the struct's 8-byte alignment" },
};

static const struct dk_layout mips_layout = {
	"minidump-mips", mips_fields, DK_ARRAY_LEN(mips_fields)
};

/* The row's ABI; a row without one is read by its ELF class. */
static enum dk_abi
mips_abi(const struct dk_arch *a)
{
	if (a->abi != DK_ABI_DEFAULT)
		return a->abi;
	return a->elf_class == MIPS_ELFCLASS64 ? DK_ABI_N64 : DK_ABI_O32;
}

static const char *
mips_abi_name(enum dk_abi abi)
{
	return abi == DK_ABI_N64 ? "n64" : abi == DK_ABI_N32 ? "n32" : "o32";
}

/* Bytes of a pt_entry_t: 4 for o32, 8 for n32 and n64. */
static unsigned
mips_pte_bytes(enum dk_abi abi)
{
	return abi == DK_ABI_O32 ? 4 : 8;
}

static unsigned
mips_bitmap_word(const struct dk_arch *a, uint32_t version)
{
	if (version < 2)
		return 4;		/* uint32_t vm_page_dump[] */
	if (a->long_size == 4 || a->long_size == 8)
		return a->long_size;	/* long words of a bitset */
	return mips_abi(a) == DK_ABI_N64 ? 8 : 4;
}

/*
 * The unmapped segment holding the page of va: 1 with *pa and *seg set,
 * or 0.  The test is made on the page-truncated va (see the top).
 */
static int
mips_segment(int is64, uint64_t va, uint64_t *pa, const char **seg)
{
	uint64_t page = va & ~MIPS_PAGE_MASK;

	if (!is64) {
		if (page >= MIPS32_KSEG0 && page < MIPS32_KSEG2) {
			*pa = va & MIPS_KSEG_PHYS_MASK;
			*seg = page < MIPS32_KSEG1 ? "KSEG0" : "KSEG1";
			return 1;
		}
		return 0;
	}
	if (page >= MIPS_XKPHYS && page < MIPS_XKSEG) {
		*pa = va & MIPS_XKPHYS_PHYS_MASK;
		*seg = "XKPHYS";
		return 1;
	}
	if (page >= MIPS_CKSEG0 && page < MIPS_CKSSEG) {
		*pa = va & MIPS_KSEG_PHYS_MASK;
		*seg = page < MIPS_CKSEG1 ? "CKSEG0" : "CKSEG1";
		return 1;
	}
	return 0;
}

/*
 * Report the unmapped segments mips_segment translates as address
 * windows.  32-bit ABIs: KSEG0 and KSEG1 (their sign extensions are the
 * same addresses, not other windows).  n64: XKPHYS as the hardware
 * defines it, one window of 2^40 bytes per cache attribute (CCA 3 is
 * the cached one FreeBSD's direct map uses), then CKSEG0 and CKSEG1.
 * The XKPHYS addresses whose bits 58:40 are not zero, which the
 * hardware refuses and kvtop aliases (see the top), are no window.
 */
static void
mips_windows(struct dk_dump *d, int is64)
{
	static const char *const cca[8] = { "XKPHYS CCA 0", "XKPHYS CCA 1",
	    "XKPHYS CCA 2", "XKPHYS CCA 3", "XKPHYS CCA 4", "XKPHYS CCA 5",
	    "XKPHYS CCA 6", "XKPHYS CCA 7" };

	if (!is64) {
		dk_add_window(d, DK_WIN_UNMAPPED, "KSEG0", MIPS32_KSEG0,
		    MIPS32_KSEG1, 0);
		dk_add_window(d, DK_WIN_UNMAPPED, "KSEG1", MIPS32_KSEG1,
		    MIPS32_KSEG2, 0);
		return;
	}
	for (uint64_t i = 0; i < DK_ARRAY_LEN(cca); i++) {
		uint64_t va = MIPS_XKPHYS | i << MIPS_XKPHYS_CCA_SHIFT;

		dk_add_window(d, DK_WIN_UNMAPPED, cca[i], va, va +
		    MIPS_XKPHYS_PHYS_MASK + 1, 0);
	}
	dk_add_window(d, DK_WIN_UNMAPPED, "CKSEG0", MIPS_CKSEG0, MIPS_CKSEG1,
	    0);
	dk_add_window(d, DK_WIN_UNMAPPED, "CKSEG1", MIPS_CKSEG1, MIPS_CKSSEG,
	    0);
}

/*
 * Would kernbase kb and ptesize ps fit the address space of abi?  On 0,
 * *end is the end the PTE array would reach (0 when past 2^64).
 */
static int
mips_kva_fits(enum dk_abi abi, uint64_t kb, uint64_t ps, uint64_t *end)
{
	uint64_t span = ps / mips_pte_bytes(abi) << MIPS_PAGE_SHIFT;

	if (abi != DK_ABI_N64) {
		*end = kb + span;
		return kb <= MIPS32_VA_END && span <= MIPS32_VA_END - kb;
	}
	*end = kb != 0 && span > 0 - kb ? 0 : kb + span;
	return kb == 0 || span <= 0 - kb;
}

static enum dk_status
mips_setup(struct dk_dump *d, struct dk_err *err)
{
	struct dk_md *m = dk_md(d);
	const struct dk_hdr *h = &d->hdr;
	enum dk_abi abi = mips_abi(d->arch);
	const char *an = mips_abi_name(abi);
	uint64_t kb = h->v[DK_H_KERNBASE], ptesize = h->v[DK_H_PMAPSIZE];
	uint64_t end;

	d->page_shift = MIPS_PAGE_SHIFT;
	m->pte_size = mips_pte_bytes(abi);
	if ((kb & MIPS_PAGE_MASK) != 0)
		return dk_err_off(err, DK_ECORRUPT, 40, "%s: offset 40: "
		    "expected a page-aligned kernbase, found %#jx",
		    d->src.name, (uintmax_t)kb);
	if (abi != DK_ABI_N64 && kb >= MIPS32_VA_END)
		return dk_err_off(err, DK_ECORRUPT, 40, "%s: offset 40: "
		    "expected a 32-bit kernbase for %s (%s ABI, "
		    "zero-extended, normally 0xc0000000), found %#jx%s (row "
		    "chosen by %s)", d->src.name, d->arch->name, an,
		    (uintmax_t)kb,
		    kb >= MIPS64_KERNBASE ? ", an n64 kernel address" : "",
		    d->arch_why);
	if (abi != DK_ABI_N64 && kb < MIPS32_KSEG2)
		return dk_err_off(err, DK_ECORRUPT, 40, "%s: offset 40: "
		    "expected a kernbase in mapped kernel space (KSEG2/KSEG3, "
		    "at or above 0xc0000000), found %#jx, %s", d->src.name,
		    (uintmax_t)kb,
		    kb >= MIPS32_KSEG0 ? "in unmapped KSEG0/KSEG1, where no "
		    "PTE is used" : "a user address (kuseg)");
	if (abi == DK_ABI_N64 && kb < MIPS64_KERNBASE)
		return dk_err_off(err, DK_ECORRUPT, 40, "%s: offset 40: "
		    "expected an n64 kernel address as kernbase for %s (at or "
		    "above 0xc000000000000000, normally exactly that), found "
		    "%#jx%s (row chosen by %s)", d->src.name, d->arch->name,
		    (uintmax_t)kb,
		    kb < MIPS32_VA_END ? ", a 32-bit address as o32 and n32 "
		    "kernels write it" : "",
		    d->arch_why);
	if (abi == DK_ABI_N64 && kb >= MIPS_CKSEG0 && kb < MIPS_CKSSEG)
		return dk_err_off(err, DK_ECORRUPT, 40, "%s: offset 40: "
		    "expected a kernbase in mapped kernel space (XKSEG, or "
		    "CKSSEG and above), found %#jx, in unmapped "
		    "CKSEG0/CKSEG1, where no PTE is used", d->src.name,
		    (uintmax_t)kb);
	if (ptesize % m->pte_size != 0)
		return dk_err_off(err, DK_ECORRUPT, 36, "%s: offset 36: "
		    "expected a ptesize that is a multiple of the %u-byte %s "
		    "PTE, found %#jx", d->src.name, m->pte_size, an,
		    (uintmax_t)ptesize);
	if (!mips_kva_fits(abi, kb, ptesize, &end))
		return dk_err_off(err, DK_ECORRUPT, 36, "%s: offset 36: "
		    "ptesize %#jx (%ju %u-byte PTEs) describes KVA from "
		    "kernbase %#jx to %#jx, expected it to end within the %s "
		    "address space (%s)", d->src.name, (uintmax_t)ptesize,
		    (uintmax_t)(ptesize / m->pte_size), m->pte_size,
		    (uintmax_t)kb, (uintmax_t)end, an,
		    abi == DK_ABI_N64 ? "it wraps past 2^64" : "4 GiB");
	if (abi == DK_ABI_N64 && kb < MIPS_CKSEG0 && end > MIPS_CKSEG0)
		return dk_err_off(err, DK_ECORRUPT, 36, "%s: offset 36: "
		    "ptesize %#jx describes KVA from kernbase %#jx to %#jx, "
		    "expected it to end before the unmapped CKSEG0 at %#jx",
		    d->src.name, (uintmax_t)ptesize, (uintmax_t)kb,
		    (uintmax_t)end, (uintmax_t)MIPS_CKSEG0);
	d->info.kva_end = end;
	if (h->v[DK_H_DMAPBASE] != 0 || h->v[DK_H_DMAPEND] != 0)
		DK_TRACE(d, "mips: dmapbase %#jx, dmapend %#jx: not written by "
		    "the kernel, ignored", (uintmax_t)h->v[DK_H_DMAPBASE],
		    (uintmax_t)h->v[DK_H_DMAPEND]);
	DK_TRACE(d, "mips: %s ABI, %u-byte PTEs, %s segments, KVA [%#jx, "
	    "%#jx)", an, m->pte_size, abi == DK_ABI_N64 ?
	    "XKPHYS/CKSEG0/CKSEG1" : "KSEG0/KSEG1", (uintmax_t)kb,
	    (uintmax_t)end);
	mips_windows(d, abi == DK_ABI_N64);
	return DK_OK;
}

/*
 * The protection of a valid PTE; fmt is its width, 4 (o32) or 8 bytes
 * (n32, n64), which places the software RO bit (see the top).
 */
static unsigned
mips_prot(uint64_t e, unsigned ptesz)
{
	uint64_t ro = ptesz == 4 ? MIPS32_PTE_RO : MIPS64_PTE_RO;

	return ((e & ro) ? 0 : DK_PROT_W) | DK_PROT_X;
}

/* Translate va, an address of the row's own width. */
static enum dk_status
mips_translate(struct dk_dump *d, uint64_t va, uint64_t *pa, unsigned *prot,
    struct dk_err *err)
{
	struct dk_md *m = dk_md(d);
	uint64_t kb = d->hdr.v[DK_H_KERNBASE], page = va & ~MIPS_PAGE_MASK;
	int is64 = mips_abi(d->arch) == DK_ABI_N64;
	uint64_t mask = m->pte_size == 4 ? MIPS32_PFN_MASK : MIPS64_PFN_MASK;
	uint64_t idx, e;
	const char *seg;
	enum dk_status st;

	if (mips_segment(is64, va, pa, &seg)) {
		DK_TRACE(d, "va %#jx: unmapped segment %s -> pa %#jx",
		    (uintmax_t)va, seg, (uintmax_t)*pa);
		if (prot != NULL)
			*prot = DK_PROT_W | DK_PROT_X;
		return DK_OK;
	}
	if (page < kb)
		return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address %#jx: "
		    "not mapped (below kernbase %#jx and in none of the "
		    "unmapped segments %s)", (uintmax_t)va, (uintmax_t)kb,
		    is64 ? "XKPHYS, CKSEG0, CKSEG1" : "KSEG0, KSEG1");
	idx = (page - kb) >> MIPS_PAGE_SHIFT;
	if (idx >= m->pmap_nent)
		return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address %#jx: "
		    "not mapped (past the end of the PTE array at %#jx)",
		    (uintmax_t)va, (uintmax_t)d->info.kva_end);
	if ((st = dk_md_pmap_entry(d, idx, &e, err)) != DK_OK)
		return dk_err_prefix(err, "virtual address %#jx",
		    (uintmax_t)va);
	if (e == 0)		/* invalid, and maybe more after it */
		dk_md_pmap_zero(d, va, idx, MIPS_PAGE_SHIFT);
	if (!(e & MIPS_PTE_V))
		return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address %#jx: "
		    "not mapped (PTE %#jx has no PTE_V)", (uintmax_t)va,
		    (uintmax_t)e);
	*pa = ((e & mask) >> MIPS_PFN_SHIFT << MIPS_PAGE_SHIFT) |
	    (va & MIPS_PAGE_MASK);
	DK_TRACE(d, "va %#jx: PTE %#jx -> pa %#jx", (uintmax_t)va,
	    (uintmax_t)e, (uintmax_t)*pa);
	if (prot != NULL)
		*prot = mips_prot(e, m->pte_size);
	return DK_OK;
}

/*
 * On a 32-bit ABI, a va of 2^32 or more is either the sign extension of
 * a 32-bit address, read as that address, or not mapped.
 */
static enum dk_status
mips_kvtop(struct dk_dump *d, uint64_t va, uint64_t *pa, unsigned *prot,
    struct dk_err *err)
{
	enum dk_status st;

	if (mips_abi(d->arch) == DK_ABI_N64 || va < MIPS32_VA_END)
		return mips_translate(d, va, pa, prot, err);
	if ((va >> 31) != 0x1ffffffffull)
		return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address %#jx: "
		    "not mapped (%s is a 32-bit ABI: no address above "
		    "0xffffffff other than the sign extension of "
		    "0x80000000-0xffffffff)", (uintmax_t)va, d->arch->name);
	DK_TRACE(d, "va %#jx: the sign extension of %#jx", (uintmax_t)va,
	    (uintmax_t)(va & 0xffffffffull));
	st = mips_translate(d, va & 0xffffffffull, pa, prot, err);
	if (st != DK_OK)
		return dk_err_prefix(err, "virtual address %#jx, sign-extended",
		    (uintmax_t)va);
	return DK_OK;
}

static int
mips_plausible(const struct dk_arch *a, const struct dk_hdr *h, char *why,
    size_t n)
{
	enum dk_abi abi = mips_abi(a);
	uint64_t kb = h->v[DK_H_KERNBASE], ps = h->v[DK_H_PMAPSIZE], end;

	if (abi == DK_ABI_N64) {
		if (kb < MIPS32_VA_END)
			return 0;
		snprintf(why, n, "kernbase %#jx is a 64-bit address (n64)",
		    (uintmax_t)kb);
		return 1;
	}
	if (kb >= MIPS32_VA_END)
		return 0;
	if (!mips_kva_fits(DK_ABI_O32, kb, ps, &end)) {
		/* (ps / 4) pages from kb end past 4 GiB: o32 is impossible. */
		if (abi == DK_ABI_O32)
			return 0;
		snprintf(why, n, "kernbase %#jx is 32-bit; ptesize %#jx is too "
		    "large for 4-byte o32 PTEs", (uintmax_t)kb, (uintmax_t)ps);
	} else
		snprintf(why, n, "kernbase %#jx is a 32-bit address",
		    (uintmax_t)kb);
	return 1;
}

/* The PTE of one page of a map (see the top of the file). */
static uint64_t
mips_pte(unsigned ptesz, uint64_t pa, unsigned prot)
{
	uint64_t mask = ptesz == 4 ? MIPS32_PFN_MASK : MIPS64_PFN_MASK;
	uint64_t ro = ptesz == 4 ? MIPS32_PTE_RO : MIPS64_PTE_RO;

	return ((pa >> MIPS_PAGE_SHIFT << MIPS_PFN_SHIFT) & mask) |
	    MIPS_PTE_C_CACHED | MIPS_PTE_V | MIPS_PTE_G |
	    ((prot & DK_PROT_W) ? MIPS_PTE_D : ro);
}

/*
 * Encode the maps as the kernel writes them: whole page-table pages
 * (4 MiB of KVA each with 4-byte PTEs, 2 MiB with 8-byte ones) from
 * kernbase to kva_end, in the row's byte order, every invalid entry
 * PTE_G as the kernel leaves it.  mips has no superpages: a large map
 * is written as its 4 KiB pages.
 */
static enum dk_status
mips_pmap_build(struct dk_pmap_build *b, struct dk_err *err)
{
	enum dk_abi abi = mips_abi(b->arch);
	unsigned ptesz = mips_pte_bytes(abi);
	uint64_t kb = b->hdr->v[DK_H_KERNBASE];
	uint64_t unit = (uint64_t)(MIPS_PAGE_SIZE / ptesz) << MIPS_PAGE_SHIFT;
	uint64_t pmax = abi == DK_ABI_O32 ? MIPS32_PHYS_MAX : MIPS64_PHYS_MAX;
	uint64_t vmax = abi == DK_ABI_N64 ? UINT64_MAX : MIPS32_VA_END;
	enum dk_endian e = b->arch->endian;
	uint64_t npt, nent;

	if (b->page_shift != MIPS_PAGE_SHIFT)
		return dk_err_set(err, DK_EINVAL, "mips pmap: page shift %u, "
		    "expected %u", b->page_shift, MIPS_PAGE_SHIFT);
	if ((kb & MIPS_PAGE_MASK) != 0 || b->kva_end < kb ||
	    b->kva_end > vmax)
		return dk_err_set(err, DK_EINVAL, "mips pmap: kernel map "
		    "[kernbase %#jx, %#jx) is not page-aligned inside the %s "
		    "address space", (uintmax_t)kb, (uintmax_t)b->kva_end,
		    mips_abi_name(abi));
	for (size_t m = 0; m < b->nmaps; m++) {
		const struct dk_map *mp = &b->maps[m];

		if (((mp->va | mp->pa | mp->len) & MIPS_PAGE_MASK) != 0 ||
		    mp->va < kb || mp->va > b->kva_end ||
		    mp->len > b->kva_end - mp->va ||
		    mp->pa >= pmax || mp->len > pmax - mp->pa)
			return dk_err_set(err, DK_EINVAL, "mips pmap: map %zu "
			    "(va %#jx, pa %#jx, %#jx bytes) is not "
			    "page-aligned inside KVA [%#jx, %#jx) and PA "
			    "[0, %#jx)", m,
			    (uintmax_t)mp->va, (uintmax_t)mp->pa,
			    (uintmax_t)mp->len, (uintmax_t)kb,
			    (uintmax_t)b->kva_end, (uintmax_t)pmax);
	}
	npt = (b->kva_end - kb) / unit + ((b->kva_end - kb) % unit != 0);
	if (npt > UINT32_MAX / MIPS_PAGE_SIZE)
		return dk_err_set(err, DK_EINVAL, "mips pmap: the kernel map "
		    "[%#jx, %#jx) needs a PTE array larger than ptesize "
		    "(32 bits) can state", (uintmax_t)kb,
		    (uintmax_t)b->kva_end);
	b->pmap_len = npt * MIPS_PAGE_SIZE;
	b->pmap = malloc(b->pmap_len != 0 ? b->pmap_len : 1);
	if (b->pmap == NULL)
		return dk_err_set(err, DK_ENOMEM, "pmap: out of memory");
	nent = b->pmap_len / ptesz;
	for (uint64_t i = 0; i < nent; i++)
		enc_uint(b->pmap + ptesz * i, ptesz, e, MIPS_PTE_G);
	for (size_t m = 0; m < b->nmaps; m++) {
		const struct dk_map *mp = &b->maps[m];

		for (uint64_t o = 0; o < mp->len; o += MIPS_PAGE_SIZE) {
			uint64_t i = (mp->va + o - kb) >> MIPS_PAGE_SHIFT;

			enc_uint(b->pmap + ptesz * i, ptesz, e,
			    mips_pte(ptesz, mp->pa + o, mp->prot));
		}
	}
	return DK_OK;
}

static void
mips_gen_defaults(const struct dk_arch *a, uint32_t version,
    struct dk_mdgen *g, struct dk_hdr *h)
{
	enum dk_abi abi = mips_abi(a);
	unsigned ptesz = mips_pte_bytes(abi);

	(void)version;
	memset(g, 0, sizeof(*g));
	g->page_shift = MIPS_PAGE_SHIFT;
	g->dmap_base = 0;
	g->dmap_end = 0;
	g->phys_base = 0;
	g->large_size = 0;		/* no superpages */
	g->pmap_unit = (uint64_t)(MIPS_PAGE_SIZE / ptesz) << MIPS_PAGE_SHIFT;
	g->ktext_va = 0;		/* the image is in KSEG0, unmapped */
	if (abi == DK_ABI_N64) {
		g->kernbase = MIPS64_KERNBASE;
		g->phys_max = MIPS64_PHYS_MAX;
		g->msgbufsize = MIPS_MSGBUF_SIZE - MIPS64_MSGBUF_HDR;
		/* FreeBSD's direct map: XKPHYS with cache attribute 3. */
		g->win[0] = (struct dk_window){ DK_WIN_UNMAPPED,
		    "XKPHYS", MIPS_XKPHYS_CACHED, MIPS_XKPHYS_CACHED +
		    MIPS64_PHYS_MAX, 0 };
		/* Where the kernel is linked, and its uncached twin. */
		g->win[1] = (struct dk_window){ DK_WIN_UNMAPPED,
		    "CKSEG0", MIPS_CKSEG0, MIPS_CKSEG1, 0 };
		g->win[2] = (struct dk_window){ DK_WIN_UNMAPPED,
		    "CKSEG1", MIPS_CKSEG1, MIPS_CKSSEG, 0 };
		/*
		 * The last 2^40 bytes of XKPHYS, just below kernbase: no
		 * window FreeBSD uses, but the reader translates them
		 * (XKPHYS aliases every 2^40 bytes) and the tests probe
		 * below kernbase, so the model says so too.
		 */
		g->win[3] = (struct dk_window){ DK_WIN_UNMAPPED,
		    "XKPHYS", MIPS_XKSEG - MIPS64_PHYS_MAX, MIPS_XKSEG, 0 };
		g->nwin = 4;
	} else {
		g->kernbase = MIPS32_KERNBASE;
		g->phys_max = abi == DK_ABI_O32 ? MIPS32_PHYS_MAX :
		    MIPS64_PHYS_MAX;
		g->msgbufsize = MIPS_MSGBUF_SIZE - MIPS32_MSGBUF_HDR;
		g->win[0] = (struct dk_window){ DK_WIN_UNMAPPED,
		    "KSEG0", MIPS32_KSEG0, MIPS32_KSEG1, 0 };
		g->win[1] = (struct dk_window){ DK_WIN_UNMAPPED,
		    "KSEG1", MIPS32_KSEG1, MIPS32_KSEG2, 0 };
		g->nwin = 2;
	}
	g->kmem_va = g->kernbase + 0x01000000ull;
	h->v[DK_H_KERNBASE] = g->kernbase;
	h->v[DK_H_DMAPBASE] = 0;
	h->v[DK_H_DMAPEND] = 0;
}

/* The fixture variants of `dumpgen --list`. */
static const struct dk_mdvariant mips_variants[] = {
	{ 1, "-", "PTE array, 32-bit bitmap words (2010)",
	  { { 0, 0, NULL } } },
	{ 2, "-", "PTE array, dump_avail, long bitmap words (2020)",
	  { { 0, 0, NULL } } },
};

const struct dk_mdarch dk_md_mips = {
	.family		= "mips",
	.magic		= "minidump FreeBSD/mips",
	.layout		= &mips_layout,
	.versions	= V12,
	.bitmap_word	= mips_bitmap_word,
	.setup		= mips_setup,
	.kvtop		= mips_kvtop,
	.pmap_build	= mips_pmap_build,
	.gen_defaults	= mips_gen_defaults,
	.plausible	= mips_plausible,
	.variants	= mips_variants,
	.nvariants	= DK_ARRAY_LEN(mips_variants),
};

/* ---------------------------------------------------------------------- */
/* The module (arch.c lists it).                                           */

/*
 * Threads' registers: struct pcb (sys/mips/include/pcb.h) is a struct
 * trapframe (frame.h: 74 register_t, 4 bytes o32, 8 n64), then
 * pcb_context[14]: s0-s7 0-7, sp 8, s8 9, ra 10, sr 11, gp 12, pc 13
 * (PCB_REG_*; cpu_switch and savectx in swtch.S store them; kgdb's
 * trgt_mips.c reads them so).  Into gdb's Linux NT_PRSTATUS: elf_gregset
 * of 45 words, o32 $n at EF_REG0 6 + n, EF_CP0_EPC 40, EF_CP0_STATUS 42
 * (pr_reg at 72 of 256 bytes, pr_pid at 24); n64 $n at n, EPC 34,
 * STATUS 36 (pr_reg at 112 of 480, pr_pid at 32).  NT_PRPSINFO: o32
 * 128 bytes (pr_pid 16, pr_fname 32: mips's uid_t is 4 bytes), n64 136
 * (pr_pid 24, pr_fname 40).  n32 below.
 */
#define	MIPS_TF_WORDS	74	/* sizeof(struct trapframe) / sizeof(long) */
#define	MIPS_PCB_SLOTS(w, r0, epc, st) \
	{ "s0", (r0) + 16, (MIPS_TF_WORDS + 0) * (w) }, \
	{ "s1", (r0) + 17, (MIPS_TF_WORDS + 1) * (w) }, \
	{ "s2", (r0) + 18, (MIPS_TF_WORDS + 2) * (w) }, \
	{ "s3", (r0) + 19, (MIPS_TF_WORDS + 3) * (w) }, \
	{ "s4", (r0) + 20, (MIPS_TF_WORDS + 4) * (w) }, \
	{ "s5", (r0) + 21, (MIPS_TF_WORDS + 5) * (w) }, \
	{ "s6", (r0) + 22, (MIPS_TF_WORDS + 6) * (w) }, \
	{ "s7", (r0) + 23, (MIPS_TF_WORDS + 7) * (w) }, \
	{ "sp", (r0) + 29, (MIPS_TF_WORDS + 8) * (w) }, \
	{ "s8", (r0) + 30, (MIPS_TF_WORDS + 9) * (w) }, \
	{ "ra", (r0) + 31, (MIPS_TF_WORDS + 10) * (w) }, \
	{ "status", (st), (MIPS_TF_WORDS + 11) * (w) }, \
	{ "gp", (r0) + 28, (MIPS_TF_WORDS + 12) * (w) }, \
	{ "pc", (epc), (MIPS_TF_WORDS + 13) * (w) }

static const struct dk_pcb_slot mips_o32_pcb_slots[] = {
	MIPS_PCB_SLOTS(4, 6, 40, 42),
};

static const struct dk_pcb_slot mips_n64_pcb_slots[] = {
	MIPS_PCB_SLOTS(8, 0, 34, 36),
};

static const struct dk_pcb_regs mips_o32_pcb = {
	.source		= "sys/mips/include/pcb.h, frame.h",
	.word		= 4,
	.pcb_min	= (MIPS_TF_WORDS + 14) * 4,
	.prstatus_size	= 256,
	.pid_off	= 24,
	.cursig_off	= 12,
	.reg_off	= 72,
	.nregs		= 45,
	.prpsinfo_size	= 128,
	.psinfo_pid_off	= 16,
	.psinfo_fname_off = 32,
	.slots		= mips_o32_pcb_slots,
	.nslots		= DK_ARRAY_LEN(mips_o32_pcb_slots),
};

/*
 * n32: register_t is 8 bytes (the pcb as n64's), pointers and longs 4:
 * Linux's n32 NT_PRSTATUS is the 32-bit header (pr_pid at 24) with the
 * 64-bit elf_gregset (pr_reg at 72, $n at n, EPC 34, STATUS 36, as BFD's
 * elfn32-mips and gdb's mips64 gregset read it), 440 bytes; NT_PRPSINFO
 * o32's 128.
 */
static const struct dk_pcb_regs mips_n32_pcb = {
	.source		= "sys/mips/include/pcb.h, frame.h",
	.word		= 8,
	.pcb_min	= (MIPS_TF_WORDS + 14) * 8,
	.prstatus_size	= 440,
	.pid_off	= 24,
	.cursig_off	= 12,
	.reg_off	= 72,
	.nregs		= 45,
	.prpsinfo_size	= 128,
	.psinfo_pid_off	= 16,
	.psinfo_fname_off = 32,
	.slots		= mips_n64_pcb_slots,
	.nslots		= DK_ARRAY_LEN(mips_n64_pcb_slots),
};

static const struct dk_pcb_regs mips_n64_pcb = {
	.source		= "sys/mips/include/pcb.h, frame.h",
	.word		= 8,
	.pcb_min	= (MIPS_TF_WORDS + 14) * 8,
	.prstatus_size	= 480,
	.pid_off	= 32,
	.cursig_off	= 12,
	.reg_off	= 112,
	.nregs		= 45,
	.prpsinfo_size	= 136,
	.psinfo_pid_off	= 24,
	.psinfo_fname_off = 40,
	.slots		= mips_n64_pcb_slots,
	.nslots		= DK_ARRAY_LEN(mips_n64_pcb_slots),
};

/*
 * One magic for three ABIs in two byte orders.  The kernel's ELF header
 * tells them apart by EI_CLASS and EF_MIPS_ABI2 (n32).
 */
static const struct dk_arch mips_rows[] = {
	{ .name = "mips", .aliases = "mipso32 mipshf", .family = "mips",
	  .endian = DK_BE, .abi = DK_ABI_O32, .elf_machine = MIPS_EM_MIPS,
	  .elf_class = MIPS_ELFCLASS32, .long_size = 4,
	  .elf_flags_mask = MIPS_EF_ABI2, .elf_flags = 0,
	  .minidump = &dk_md_mips, .ops = &dk_arch_mips,
	  .pcb = &mips_o32_pcb },
	{ .name = "mipsel", .aliases = "mipso32el mipselhf", .family = "mips",
	  .endian = DK_LE, .abi = DK_ABI_O32, .elf_machine = MIPS_EM_MIPS,
	  .elf_class = MIPS_ELFCLASS32, .long_size = 4,
	  .elf_flags_mask = MIPS_EF_ABI2, .elf_flags = 0,
	  .minidump = &dk_md_mips, .ops = &dk_arch_mips,
	  .pcb = &mips_o32_pcb },
	{ .name = "mipsn32", .aliases = NULL, .family = "mips",
	  .endian = DK_BE, .abi = DK_ABI_N32, .elf_machine = MIPS_EM_MIPS,
	  .elf_class = MIPS_ELFCLASS32, .long_size = 4,
	  .elf_flags_mask = MIPS_EF_ABI2, .elf_flags = MIPS_EF_ABI2,
	  .minidump = &dk_md_mips, .ops = &dk_arch_mips,
	  .pcb = &mips_n32_pcb },
	{ .name = "mipsn32el", .aliases = NULL, .family = "mips",
	  .endian = DK_LE, .abi = DK_ABI_N32, .elf_machine = MIPS_EM_MIPS,
	  .elf_class = MIPS_ELFCLASS32, .long_size = 4,
	  .elf_flags_mask = MIPS_EF_ABI2, .elf_flags = MIPS_EF_ABI2,
	  .minidump = &dk_md_mips, .ops = &dk_arch_mips,
	  .pcb = &mips_n32_pcb },
	{ .name = "mips64", .aliases = "mipsn64 mips64hf", .family = "mips",
	  .endian = DK_BE, .abi = DK_ABI_N64, .elf_machine = MIPS_EM_MIPS,
	  .elf_class = MIPS_ELFCLASS64, .long_size = 8,
	  .minidump = &dk_md_mips, .ops = &dk_arch_mips,
	  .pcb = &mips_n64_pcb },
	{ .name = "mips64el", .aliases = "mipsn64el mips64elhf",
	  .family = "mips", .endian = DK_LE, .abi = DK_ABI_N64,
	  .elf_machine = MIPS_EM_MIPS, .elf_class = MIPS_ELFCLASS64,
	  .long_size = 8, .minidump = &dk_md_mips, .ops = &dk_arch_mips,
	  .pcb = &mips_n64_pcb },
};

const struct dk_arch_ops dk_arch_mips = {
	.name		= "mips",
	.rows		= mips_rows,
	.nrows		= DK_ARRAY_LEN(mips_rows),
	.page_shift	= MIPS_PAGE_SHIFT,
	.minidump	= &dk_md_mips,
	.prot		= mips_prot,
};
