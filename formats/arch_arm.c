/*
 * arch_arm.c -- 32-bit arm minidumps: header layout, page-table area
 * and address translation (FORMATS.md 1.2 "arm", 2.3).
 *
 * Version 1 (2008) and version 2 (2020-09, adds dumpavailsize and the
 * dump_avail section); 4-byte bitmap words; written in the kernel's
 * byte order, so both the "arm" and the "armeb" rows use this family.
 * In 2016 (D4942) the kernel appended arch (__ARM_ARCH) and mmuformat
 * to the version 1 header without bumping the version: older version 1
 * dumps read 0 there because the header page is zeroed.  The table
 * below lists both fields in both versions.  mmuformat is 0 unknown,
 * 1 V4 (ARMv4/v5 pmap), 2 V6 (ARMv6/v7 short descriptors), 3 V6_LPAE;
 * 0 is read as V6, as libkvm does (1 KiB tiny pages, the one thing V4
 * decodes differently, are never used by FreeBSD); LPAE has no decoder
 * and is refused.
 *
 * The pmap area is a flat array of 4-byte second-level descriptors, one
 * per 4 KiB page from kernbase (KERNBASE) to kernel_vm_end; the kernel
 * makes each with pmap_dump_kextract(), which turns a 1 MiB section
 * into small-page entries.  t = pte & 3: 0 invalid; 1 a 64 KiB large
 * page (pa = (pte & 0xffff0000) + (va & 0xffff)); 2 a small page (pa =
 * pte & 0xfffff000); 3 a small page with XN in V6, a 1 KiB tiny page in
 * V4 (refused).  There is no direct map.
 *
 * Protection (FORMATS.md marks it as fvc's hints; the bits below are
 * this file's choice, used the same way by kvtop and pmap_build):
 *  - V4: writable iff AP0 bit 4 (AP_W in subpage 0) is set, as libkvm
 *    tests it; ARMv4/v5 have no XN, so every page is executable.  The
 *    writer puts AP_W in all four subpage AP fields (0x550).
 *  - V6 small page: XN is bit 0; read-only is FreeBSD's PTE2_RO, the
 *    TEX1 bit 0x80 that pmap-v6 uses with TEX remap (and libkvm tests).
 *    The hardware write-disable APX (bit 9) is FreeBSD's PTE2_NM, also
 *    set on clean writable pages, so it is not read; the writer sets it
 *    with PTE2_RO for a read-only page, as PTE2_AP_KR does.
 *  - V6 large page: XN is bit 15 and TEX sits at bits 14:12, so
 *    read-only is TEX1 at bit 13 (writer: bit 13 and APX).  FreeBSD's
 *    pmap-v6 never makes large pages; libkvm applies the small-page
 *    bits, which would call every large page non-executable.
 *
 * The constants are spelled out here, never taken from a host header,
 * so that this file builds and is tested on any host.
 */
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "kthreads.h"
#include "private.h"

#define	ARM_PAGE_SHIFT		12
#define	ARM_PAGE_SIZE		(1u << ARM_PAGE_SHIFT)
#define	ARM_PAGE_MASK		(ARM_PAGE_SIZE - 1)
#define	ARM_NPTEPG		1024		/* 4-byte entries per page */
#define	ARM_L2_TYPE_MASK	0x3u
#define	ARM_L2_TYPE_INV		0x0u
#define	ARM_L2_TYPE_L		0x1u		/* 64 KiB large page */
#define	ARM_L2_TYPE_S		0x2u		/* 4 KiB small page */
#define	ARM_L2_TYPE_T		0x3u		/* V4: 1 KiB tiny page */
#define	ARM_L2_L_SIZE		0x10000u
#define	ARM_L2_L_OFFSET		(ARM_L2_L_SIZE - 1)
#define	ARM_L2_L_FRAME		0xffff0000u
#define	ARM_L2_S_FRAME		0xfffff000u
#define	ARM_L2_AP0_W		0x10u		/* V4: AP_W in AP0 */
#define	ARM_L2_AP_W_ALL		0x550u		/* V4: AP_W in AP0..AP3 */
#define	ARM_PTE2_NX		0x1u		/* V6 small: XN */
#define	ARM_PTE2_A		0x10u		/* V6: AP0, "accessed" */
#define	ARM_PTE2_RO		0x80u		/* V6 small: TEX1 */
#define	ARM_PTE2_NM		0x200u		/* V6: APX */
#define	ARM_L2_L_NX		0x8000u		/* V6 large: XN */
#define	ARM_L2_L_RO		0x2000u		/* V6 large: TEX1 */
#define	ARM_MMU_UNKNOWN		0
#define	ARM_MMU_V4		1
#define	ARM_MMU_V6		2
#define	ARM_MMU_V6_LPAE		3
#define	ARM_ARCH_DEFAULT	7		/* __ARM_ARCH of armv7 */
#define	ARM_KERNBASE		0xc0000000ull
#define	ARM_VA_END		(1ull << 32)	/* end of the address space */
#define	ARM_PHYS_MAX		(1ull << 32)
#define	ARM_MSGBUF_SIZE		0x18000u	/* MSGBUF_SIZE */
#define	ARM_MSGBUF_HDR		0x30u		/* sizeof(struct msgbuf) */
#define	ARM_EM_ARM		40		/* the kernel's e_machine */
#define	ARM_ELFCLASS32		1

#define	V12	(DK_V(1) | DK_V(2))

static const struct dk_field arm_fields[] = {
	{ "magic", 0, 24, DK_FK_CHARS, DK_H_MAGIC, V12, "char[24]",
	  "\"minidump FreeBSD/arm\", NUL-padded" },
	{ "version", 24, 4, DK_FK_UINT, DK_H_VERSION, V12, "uint32_t",
	  "1 or 2" },
	{ "msgbufsize", 28, 4, DK_FK_UINT, DK_H_MSGBUFSIZE, V12, "uint32_t",
	  "bytes of the message buffer" },
	{ "bitmapsize", 32, 4, DK_FK_UINT, DK_H_BITMAPSIZE, V12, "uint32_t",
	  "bytes of the page bitmap" },
	{ "ptesize", 36, 4, DK_FK_UINT, DK_H_PMAPSIZE, V12, "uint32_t",
	  "bytes of the L2-PTE array" },
	{ "kernbase", 40, 4, DK_FK_UINT, DK_H_KERNBASE, V12, "uint32_t",
	  "KERNBASE, the first KVA the PTE array describes" },
	{ "arch", 44, 4, DK_FK_UINT, DK_H_ARCH, V12, "uint32_t",
	  "__ARM_ARCH of the kernel (0 in version 1 dumps before 2016)" },
	{ "mmuformat", 48, 4, DK_FK_UINT, DK_H_MMUFORMAT, V12, "uint32_t",
	  "0 unknown (read as V6), 1 V4, 2 V6, 3 V6_LPAE" },
	{ "dumpavailsize", 52, 4, DK_FK_UINT, DK_H_DUMPAVAILSIZE, DK_V(2),
	  "uint32_t", "bytes of the dump_avail section" },
};

static const struct dk_layout arm_layout = {
	"minidump-arm", arm_fields, DK_ARRAY_LEN(arm_fields)
};

static unsigned
arm_bitmap_word(const struct dk_arch *a, uint32_t version)
{
	(void)a;
	(void)version;
	return 4;
}

static enum dk_status
arm_setup(struct dk_dump *d, struct dk_err *err)
{
	struct dk_md *m = dk_md(d);
	const struct dk_hdr *h = &d->hdr;
	uint64_t mmu = h->v[DK_H_MMUFORMAT], kb = h->v[DK_H_KERNBASE];
	uint64_t ptesize = h->v[DK_H_PMAPSIZE];

	if (mmu == ARM_MMU_V6_LPAE)
		return dk_err_off(err, DK_EUNSUP, 48, "%s: offset 48: "
		    "mmuformat 3 (V6_LPAE, long descriptors) is not "
		    "supported; only V4 and V6 short-descriptor page tables "
		    "are", d->src.name);
	if (mmu > ARM_MMU_V6_LPAE)
		return dk_err_off(err, DK_EUNSUP, 48, "%s: offset 48: unknown "
		    "mmuformat %ju (expected 0 unknown, 1 V4, 2 V6 or 3 "
		    "V6_LPAE)", d->src.name, (uintmax_t)mmu);
	m->mmuformat = mmu == ARM_MMU_UNKNOWN ? ARM_MMU_V6 : (uint32_t)mmu;
	d->page_shift = ARM_PAGE_SHIFT;
	m->pte_size = 4;
	if (ptesize % m->pte_size != 0)
		return dk_err_off(err, DK_ECORRUPT, 36, "%s: offset 36: "
		    "ptesize %#jx is not a multiple of the 4-byte L2 PTE",
		    d->src.name, (uintmax_t)ptesize);
	d->info.kva_end = kb + (ptesize / m->pte_size << ARM_PAGE_SHIFT);
	if (d->info.kva_end > ARM_VA_END)
		return dk_err_off(err, DK_ECORRUPT, 36, "%s: offset 36: "
		    "ptesize %#jx describes KVA from kernbase %#jx to %#jx, "
		    "past the 4 GiB address space", d->src.name,
		    (uintmax_t)ptesize, (uintmax_t)kb,
		    (uintmax_t)d->info.kva_end);
	DK_TRACE(d, "arm: arch %ju, mmuformat %ju%s, KVA [%#jx, %#jx)",
	    (uintmax_t)h->v[DK_H_ARCH], (uintmax_t)mmu,
	    mmu == ARM_MMU_UNKNOWN ? " (unknown: read as V6)" :
	    mmu == ARM_MMU_V4 ? " (V4)" : " (V6)", (uintmax_t)kb,
	    (uintmax_t)d->info.kva_end);
	return DK_OK;
}

/*
 * The protection of a valid L2 descriptor; fmt is the minidump's
 * mmuformat (ARM_MMU_V4, else V6; see the top of the file).
 */
static unsigned
arm_prot(uint64_t e, unsigned mmu)
{
	unsigned t = (unsigned)e & ARM_L2_TYPE_MASK;

	if (mmu == ARM_MMU_V4)
		return ((e & ARM_L2_AP0_W) ? DK_PROT_W : 0) | DK_PROT_X;
	if (t == ARM_L2_TYPE_L)
		return ((e & ARM_L2_L_RO) ? 0 : DK_PROT_W) |
		    ((e & ARM_L2_L_NX) ? 0 : DK_PROT_X);
	return ((e & ARM_PTE2_RO) ? 0 : DK_PROT_W) |
	    ((e & ARM_PTE2_NX) ? 0 : DK_PROT_X);
}

static enum dk_status
arm_kvtop(struct dk_dump *d, uint64_t va, uint64_t *pa, unsigned *prot,
    struct dk_err *err)
{
	struct dk_md *m = dk_md(d);
	uint64_t kb = d->hdr.v[DK_H_KERNBASE], idx, e;
	unsigned t;
	enum dk_status st;

	if (va < kb)
		return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address %#jx: "
		    "not mapped (below kernbase %#jx; arm has no direct map)",
		    (uintmax_t)va, (uintmax_t)kb);
	idx = (va - kb) >> ARM_PAGE_SHIFT;
	if (idx >= m->pmap_nent)
		return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address %#jx: "
		    "not mapped (past the end of the PTE array at %#jx)",
		    (uintmax_t)va, (uintmax_t)d->info.kva_end);
	if ((st = dk_md_pmap_entry(d, idx, &e, err)) != DK_OK)
		return dk_err_prefix(err, "virtual address %#jx",
		    (uintmax_t)va);
	if (e == 0)		/* a fault entry, and maybe more after it */
		dk_md_pmap_zero(d, va, idx, ARM_PAGE_SHIFT);
	t = (unsigned)e & ARM_L2_TYPE_MASK;
	if (t == ARM_L2_TYPE_INV)
		return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address %#jx: "
		    "not mapped (L2 PTE %#jx is a fault entry, type 0)",
		    (uintmax_t)va, (uintmax_t)e);
	if (t == ARM_L2_TYPE_T && m->mmuformat == ARM_MMU_V4)
		return dk_err_set(err, DK_EUNSUP, "virtual address %#jx: L2 "
		    "PTE %#jx is a V4 1 KiB tiny page (type 3), which dumpkit "
		    "does not translate", (uintmax_t)va, (uintmax_t)e);
	if (t == ARM_L2_TYPE_L) {
		*pa = (e & ARM_L2_L_FRAME) + (va & ARM_L2_L_OFFSET);
		DK_TRACE(d, "va %#jx: 64 KiB large page, L2 PTE %#jx -> pa "
		    "%#jx", (uintmax_t)va, (uintmax_t)e, (uintmax_t)*pa);
	} else {
		*pa = (e & ARM_L2_S_FRAME) | (va & ARM_PAGE_MASK);
		DK_TRACE(d, "va %#jx: small page, L2 PTE %#jx -> pa %#jx",
		    (uintmax_t)va, (uintmax_t)e, (uintmax_t)*pa);
	}
	if (prot != NULL)
		*prot = arm_prot(e, m->mmuformat);
	return DK_OK;
}

/* The L2 descriptor of one page of a map (see the top of the file). */
static uint32_t
arm_pte(uint32_t mmu, uint64_t pa, unsigned prot, int large)
{
	uint32_t e;

	if (large) {
		e = ((uint32_t)pa & ARM_L2_L_FRAME) | ARM_L2_TYPE_L;
		if (mmu == ARM_MMU_V4)
			return e | ((prot & DK_PROT_W) ? ARM_L2_AP_W_ALL : 0);
		return e | ARM_PTE2_A |
		    ((prot & DK_PROT_W) ? 0 : ARM_L2_L_RO | ARM_PTE2_NM) |
		    ((prot & DK_PROT_X) ? 0 : ARM_L2_L_NX);
	}
	e = ((uint32_t)pa & ARM_L2_S_FRAME) | ARM_L2_TYPE_S;
	if (mmu == ARM_MMU_V4)
		return e | ((prot & DK_PROT_W) ? ARM_L2_AP_W_ALL : 0);
	return e | ARM_PTE2_A |
	    ((prot & DK_PROT_W) ? 0 : ARM_PTE2_RO | ARM_PTE2_NM) |
	    ((prot & DK_PROT_X) ? 0 : ARM_PTE2_NX);
}

/*
 * Encode the maps: one L2 descriptor per 4 KiB page from kernbase,
 * whole pages of them (4 MiB of KVA each) up to kva_end, in the row's
 * byte order.  A small page is a type 2 entry (type 3 in V6 when it is
 * not executable); a large map is made of 64 KiB large pages, each
 * written as the 16 identical type 1 entries that cover it.  V4 is used
 * when the header says mmuformat 1, V6 otherwise (also for 3 and for
 * unknown values, so that fixtures for the reader's refusals can be
 * written).
 */
static enum dk_status
arm_pmap_build(struct dk_pmap_build *b, struct dk_err *err)
{
	uint64_t kb = b->hdr->v[DK_H_KERNBASE];
	uint32_t mmu = b->hdr->v[DK_H_MMUFORMAT] == ARM_MMU_V4 ?
	    ARM_MMU_V4 : ARM_MMU_V6;
	uint64_t unit = (uint64_t)ARM_NPTEPG << ARM_PAGE_SHIFT;
	enum dk_endian e = b->arch->endian;

	if (b->page_shift != ARM_PAGE_SHIFT)
		return dk_err_set(err, DK_EINVAL, "arm pmap: page shift %u, "
		    "expected %u", b->page_shift, ARM_PAGE_SHIFT);
	if (b->kva_end < kb || b->kva_end > ARM_VA_END)
		return dk_err_set(err, DK_EINVAL, "arm pmap: end of the "
		    "kernel map %#jx is outside [kernbase %#jx, 4 GiB]",
		    (uintmax_t)b->kva_end, (uintmax_t)kb);
	for (size_t m = 0; m < b->nmaps; m++) {
		const struct dk_map *mp = &b->maps[m];
		uint64_t align = mp->large ? ARM_L2_L_OFFSET : ARM_PAGE_MASK;

		if (((mp->va | mp->pa | mp->len) & align) != 0 ||
		    mp->va < kb || mp->va > b->kva_end ||
		    mp->len > b->kva_end - mp->va ||
		    mp->pa >= ARM_PHYS_MAX || mp->len > ARM_PHYS_MAX - mp->pa)
			return dk_err_set(err, DK_EINVAL, "arm pmap: map %zu "
			    "(va %#jx, pa %#jx, %#jx bytes) is not %s-aligned "
			    "inside KVA [%#jx, %#jx) and PA [0, 4 GiB)", m,
			    (uintmax_t)mp->va, (uintmax_t)mp->pa,
			    (uintmax_t)mp->len, mp->large ? "64 KiB" : "page",
			    (uintmax_t)kb, (uintmax_t)b->kva_end);
	}
	b->pmap_len = (b->kva_end - kb + unit - 1) / unit * ARM_PAGE_SIZE;
	b->pmap = calloc(1, b->pmap_len != 0 ? b->pmap_len : 1);
	if (b->pmap == NULL)
		return dk_err_set(err, DK_ENOMEM, "pmap: out of memory");
	for (size_t m = 0; m < b->nmaps; m++) {
		const struct dk_map *mp = &b->maps[m];

		for (uint64_t o = 0; o < mp->len; o += ARM_PAGE_SIZE) {
			uint64_t i = (mp->va + o - kb) >> ARM_PAGE_SHIFT;

			enc_uint(b->pmap + 4 * i, 4, e, arm_pte(mmu,
			    mp->pa + o, mp->prot, mp->large != 0));
		}
	}
	return DK_OK;
}

static void
arm_gen_defaults(const struct dk_arch *a, uint32_t version,
    struct dk_mdgen *g, struct dk_hdr *h)
{
	(void)a;
	(void)version;
	memset(g, 0, sizeof(*g));
	g->page_shift = ARM_PAGE_SHIFT;
	g->kernbase = ARM_KERNBASE;
	g->dmap_base = 0;
	g->dmap_end = 0;
	g->phys_base = 0x40000000ull;	/* RAM of a typical SoC */
	g->large_size = ARM_L2_L_SIZE;
	g->pmap_unit = (uint64_t)ARM_NPTEPG << ARM_PAGE_SHIFT;
	g->ktext_va = ARM_KERNBASE + 0x00100000ull;
	g->kmem_va = ARM_KERNBASE + 0x04000000ull;
	g->phys_max = ARM_PHYS_MAX;
	g->msgbufsize = ARM_MSGBUF_SIZE - ARM_MSGBUF_HDR;
	h->v[DK_H_KERNBASE] = g->kernbase;
	if (h->v[DK_H_ARCH] == 0)
		h->v[DK_H_ARCH] = ARM_ARCH_DEFAULT;
	if (h->v[DK_H_MMUFORMAT] == 0)
		h->v[DK_H_MMUFORMAT] = ARM_MMU_V6;
}

/* The fixture variants of `dumpgen --list`. */
static const struct dk_mdvariant arm_variants[] = {
	/* The 2008 header had no arch and mmuformat: they stay zero. */
	{ 1, "2008", "44-byte header, no arch/mmuformat",
	  { { DK_H_ARCH, 0, NULL }, { DK_H_MMUFORMAT, 0, NULL } } },
	{ 1, "v4", "mmuformat V4 (2016 header)",
	  { { DK_H_ARCH, 5, NULL }, { DK_H_MMUFORMAT, 1, NULL } } },
	{ 1, "-", "mmuformat V6 (2016 header)", { { 0, 0, NULL } } },
	{ 2, "v4", "mmuformat V4, dump_avail",
	  { { DK_H_ARCH, 5, NULL }, { DK_H_MMUFORMAT, 1, NULL } } },
	{ 2, "-", "mmuformat V6, dump_avail", { { 0, 0, NULL } } },
};

const struct dk_mdarch dk_md_arm = {
	.family		= "arm",
	.magic		= "minidump FreeBSD/arm",
	.layout		= &arm_layout,
	.versions	= V12,
	.bitmap_word	= arm_bitmap_word,
	.setup		= arm_setup,
	.kvtop		= arm_kvtop,
	.pmap_build	= arm_pmap_build,
	.gen_defaults	= arm_gen_defaults,
	.variants	= arm_variants,
	.nvariants	= DK_ARRAY_LEN(arm_variants),
};

/* ---------------------------------------------------------------------- */
/* Full ELF cores: the hardware page tables (FORMATS.md 4.2).             */

#define	ARM_L1_SHIFT		20		/* 1 MiB per L1 entry */
#define	ARM_L1_TYPE_C		0x1u		/* coarse L2 table */
#define	ARM_L1_TYPE_S		0x2u		/* 1 MiB section */
#define	ARM_L1_S_FRAME		0xfff00000u
#define	ARM_L1_C_FRAME		0xfffffc00u
#define	ARM_L1_S_XN		0x10u		/* V6 section: XN */
#define	ARM_L1_S_APX		0x8000u		/* V6 section: read-only */

static enum dk_status
arm_entry(struct dk_dump *d, uint64_t pa, uint64_t *e, struct dk_err *err)
{
	uint8_t b[4];
	enum dk_status st;

	if ((st = dk_read_pt(d, pa, b, sizeof(b), err)) != DK_OK)
		return st;
	*e = dec_uint(b, 4, d->arch->endian);
	return DK_OK;
}

/*
 * The short-descriptor walk from the 16 KiB L1 table at root (what the
 * kernel_l1pa variable holds): an L1 entry is a 1 MiB section or points
 * at a 1 KiB coarse table of 256 L2 entries, each a 64 KiB large or a
 * 4 KiB small page (FORMATS.md 2.3, 4.2).  A V4 fine table (L1 type 3)
 * is not decoded.  Protections are read as ARMv6 encodes them.
 */
static enum dk_status
arm_walk(struct dk_dump *d, const struct dk_pt_walk *w, uint64_t root,
    uint64_t va, uint64_t *pa, unsigned *prot, struct dk_err *err)
{
	uint64_t at, e, blk;
	unsigned t;
	enum dk_status st;

	(void)w;
	if (va >= ARM_VA_END)
		return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address %#jx: "
		    "past the 32-bit address space", (uintmax_t)va);
	at = (root & ~0x3fffull) + (va >> ARM_L1_SHIFT) * 4;
	if ((st = arm_entry(d, at, &e, err)) != DK_OK)
		return dk_err_prefix(err, "virtual address %#jx: L1 entry",
		    (uintmax_t)va);
	DK_TRACE(d, "va %#jx: L1 entry at pa %#jx = %#jx", (uintmax_t)va,
	    (uintmax_t)at, (uintmax_t)e);
	t = (unsigned)e & 3;
	/* The L1 entry's 1 MiB: a section, or unmapped, or its L2 table. */
	blk = (va | ((1ull << ARM_L1_SHIFT) - 1)) + 1;
	if (t == ARM_L1_TYPE_S) {
		*pa = (e & ARM_L1_S_FRAME) | (va & ((1u << ARM_L1_SHIFT) - 1));
		d->mapped_to = blk;
		if (prot != NULL)
			*prot = ((e & ARM_L1_S_APX) ? 0 : DK_PROT_W) |
			    ((e & ARM_L1_S_XN) ? 0 : DK_PROT_X);
		return DK_OK;
	}
	if (t != ARM_L1_TYPE_C)
		d->unmapped_to = blk;
	if (t != ARM_L1_TYPE_C)
		return dk_err_set(err, t == 0 ? DK_ENOTMAPPED : DK_EUNSUP,
		    "virtual address %#jx: %s (L1 entry %#jx at pa %#jx has "
		    "type %u)", (uintmax_t)va, t == 0 ? "not mapped" :
		    "a V4 fine page table, which dumpkit does not decode",
		    (uintmax_t)e, (uintmax_t)at, t);
	at = (e & ARM_L1_C_FRAME) + ((va >> ARM_PAGE_SHIFT) & 0xff) * 4;
	if ((st = arm_entry(d, at, &e, err)) != DK_OK) {
		if (st == DK_ENOTDUMPED || st == DK_ETRUNC)
			d->unmapped_to = blk;
		return dk_err_prefix(err, "virtual address %#jx: L2 entry",
		    (uintmax_t)va);
	}
	DK_TRACE(d, "va %#jx: L2 entry at pa %#jx = %#jx", (uintmax_t)va,
	    (uintmax_t)at, (uintmax_t)e);
	t = (unsigned)e & ARM_L2_TYPE_MASK;
	if (t == ARM_L2_TYPE_INV)
		return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address %#jx: "
		    "not mapped (L2 entry %#jx at pa %#jx is invalid)",
		    (uintmax_t)va, (uintmax_t)e, (uintmax_t)at);
	if (t == ARM_L2_TYPE_L) {
		*pa = (e & ARM_L2_L_FRAME) | (va & ARM_L2_L_OFFSET);
		d->mapped_to = (va | ARM_L2_L_OFFSET) + 1;
	} else
		*pa = (e & ARM_L2_S_FRAME) | (va & ARM_PAGE_MASK);
	if (prot != NULL)
		*prot = arm_prot(e, ARM_MMU_V6);
	return DK_OK;
}

/* ---------------------------------------------------------------------- */
/* The module (arch.c lists it).                                           */

/* The full-core walk (fmt_elf.c finds its root, kernel_l1pa). */
static const struct dk_pt_walk arm_walks[] = {
	{ "arm short descriptor", 2, ARM_PAGE_SHIFT, 32, 4, NULL, arm_walk },
};

/* One family, written in the kernel's byte order: two rows. */
static const struct dk_arch arm_rows[] = {
	{ .name = "arm", .aliases = "armv7 armv6 armel armhf", .family = "arm",
	  .endian = DK_LE, .elf_machine = ARM_EM_ARM,
	  .elf_class = ARM_ELFCLASS32, .long_size = 4,
	  .minidump = &dk_md_arm, .ops = &dk_arch_arm },
	{ .name = "armeb", .aliases = NULL, .family = "arm",
	  .endian = DK_BE, .elf_machine = ARM_EM_ARM,
	  .elf_class = ARM_ELFCLASS32, .long_size = 4,
	  .minidump = &dk_md_arm, .ops = &dk_arch_arm },
};

/*
 * Threads' registers: struct pcb (sys/arm/include/pcb.h), whose first
 * member pcb_regs is a struct switchframe (sys/arm/include/frame.h):
 * sf_r4 to sf_r12 from 0, sf_sp 36, sf_lr 40, sf_pc 44, 4 bytes each;
 * into gdb's arm NT_PRSTATUS (148 bytes; pr_pid at 24, pr_reg at 72:
 * r0-r15, cpsr, orig_r0) and NT_PRPSINFO (124 bytes; pr_pid at 12,
 * pr_fname at 28).  r11 is the ARM-mode frame pointer.
 */
static const struct dk_pcb_slot arm_pcb_slots[] = {
	{ "r4", 4, 0 }, { "r5", 5, 4 }, { "r6", 6, 8 }, { "r7", 7, 12 },
	{ "r8", 8, 16 }, { "r9", 9, 20 }, { "r10", 10, 24 }, { "r11", 11, 28 },
	{ "r12", 12, 32 }, { "sp", 13, 36 }, { "lr", 14, 40 }, { "pc", 15, 44 },
};

static const struct dk_pcb_regs arm_pcb = {
	.source		= "sys/arm/include/pcb.h, frame.h",
	.word		= 4,
	.pcb_min	= 48,
	.prstatus_size	= 148,
	.pid_off	= 24,
	.cursig_off	= 12,
	.reg_off	= 72,
	.nregs		= 18,
	.prpsinfo_size	= 124,
	.psinfo_pid_off	= 12,
	.psinfo_fname_off = 28,
	.slots		= arm_pcb_slots,
	.nslots		= DK_ARRAY_LEN(arm_pcb_slots),
};

const struct dk_arch_ops dk_arch_arm = {
	.name		= "arm",
	.rows		= arm_rows,
	.nrows		= DK_ARRAY_LEN(arm_rows),
	.page_shift	= ARM_PAGE_SHIFT,
	.minidump	= &dk_md_arm,
	.walks		= arm_walks,
	.nwalks		= DK_ARRAY_LEN(arm_walks),
	.prot		= arm_prot,
	.pcb		= &arm_pcb,
};
