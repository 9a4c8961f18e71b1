/*
 * arch_arm64.c -- arm64 (aarch64) minidumps: header layout, page-table
 * area and address translation (FORMATS.md 1.2 "arm64 / aarch64", 2.4).
 *
 * Version 1 (2015); version 2 (2020-09) adds dumpavailsize and the
 * dump_avail section, and 4 bytes of tail padding (sizeof 80); version
 * 3 puts a flags word in that padding, whose bits 1:0 give the page
 * size: 0 4 KiB, 1 16 KiB (2, 64 KiB, is reserved and commented out in
 * the kernel).  Little-endian only; 8-byte bitmap words.
 *
 * With 16 KiB pages every page-sized quantity scales (FORMATS.md 2.4,
 * [INFERRED] there from the kernel writer): the header page, section
 * rounding, bitmap bits and pmap entries all count 16 KiB pages.  setup
 * sets d->page_shift to 14 and the shared minidump code follows it.
 *
 * Direct map: dmapbase <= va < dmapend gives pa = va - dmapbase +
 * dmapphys.  The pmap area is a flat array of 8-byte L3 descriptors,
 * one per page from kernbase (VM_MIN_KERNEL_ADDRESS) to kernel_vm_end,
 * written as one page of descriptors per L2 block (2 MiB at 4 KiB,
 * 32 MiB at 16 KiB): the real L3 table, a zero page, or for an L2
 * (or L1) block synthetic entries (pa + i * PAGE) | ATTR_AF |
 * ATTR_SH(ATTR_SH_IS) | L3_PAGE.  Blocks carry no AP or XN bits there,
 * so they read as writable and executable.  A descriptor is valid iff
 * bits 1:0 are 3 (L3_PAGE).
 *
 * Decisions where FORMATS.md leaves room:
 *  - Output address: bits 49:12 (0x0003fffffffff000, ~ATTR_MASK) at
 *    4 KiB; bits 49:14 (0x0003ffffffffc000) at 16 KiB, where bits 13:12
 *    of a page descriptor are RES0.  Upstream libkvm's 16 KiB mask is
 *    [UNVERIFIED]; for any descriptor with its RES0 bits clear the two
 *    choices agree.  FEAT_LPA2/52-bit output addresses are not decoded.
 *  - Protection as libkvm reads it: writable unless AP_RO (bit 7),
 *    executable unless UXN (bit 54) or PXN (bit 53); the writer sets
 *    both XN bits for a non-executable page, as ATTR_S1_XN does.
 *  - flags bits 1:0 equal to 2 or 3 are refused (DK_EUNSUP), and so are
 *    set bits above them, which no known kernel writes: a flag dumpkit
 *    does not know could change how the file is laid out.
 *  - Header values whose arithmetic would wrap past 2^64 (kernbase plus
 *    the KVA the pmap area covers, dmapphys plus the direct map's size)
 *    are refused as corrupt.
 *
 * The constants are spelled out here, never taken from a host header,
 * so that this file builds and is tested on any host.
 */
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "kthreads.h"
#include "private.h"

#define	ARM64_PAGE_SHIFT_4K	12
#define	ARM64_PAGE_SHIFT_16K	14
#define	ARM64_ATTR_DESCR_MASK	0x3ull
#define	ARM64_L3_PAGE		0x3ull
#define	ARM64_ATTR_IDX_WB	(2ull << 2)	/* VM_MEMATTR_WRITE_BACK */
#define	ARM64_ATTR_AP_RO	(1ull << 7)	/* ATTR_S1_AP(ATTR_S1_AP_RO) */
#define	ARM64_ATTR_SH_IS	(3ull << 8)	/* ATTR_SH(ATTR_SH_IS) */
#define	ARM64_ATTR_AF		(1ull << 10)
#define	ARM64_ATTR_PXN		(1ull << 53)
#define	ARM64_ATTR_UXN		(1ull << 54)
#define	ARM64_ATTR_XN		(ARM64_ATTR_PXN | ARM64_ATTR_UXN)
#define	ARM64_OA_MASK_4K	0x0003fffffffff000ull
#define	ARM64_OA_MASK_16K	0x0003ffffffffc000ull
#define	ARM64_FLAG_PS_MASK	0x3u		/* MINIDUMP_FLAG_PS_MASK */
#define	ARM64_FLAG_PS_4K	0x0u
#define	ARM64_FLAG_PS_16K	0x1u
#define	ARM64_KERNBASE		0xffff000000000000ull
#define	ARM64_DMAP_MIN		0xffffa00000000000ull
#define	ARM64_DMAP_MAX		0xffffff0000000000ull
#define	ARM64_PHYS_BASE		0x80000000ull	/* RAM of a typical board */
#define	ARM64_PHYS_MAX		(1ull << 48)	/* 48-bit PA */
#define	ARM64_MSGBUF_SIZE	0x18000u	/* MSGBUF_SIZE */
#define	ARM64_MSGBUF_HDR	0x40u		/* sizeof(struct msgbuf) */
#define	ARM64_EM_AARCH64	183		/* the kernel's e_machine */
#define	ARM64_ELFCLASS64	2

#define	V123	(DK_V(1) | DK_V(2) | DK_V(3))

static const struct dk_field arm64_fields[] = {
	{ "magic", 0, 24, DK_FK_CHARS, DK_H_MAGIC, V123, "char[24]",
	  "\"minidump FreeBSD/arm64\", NUL-padded" },
	{ "version", 24, 4, DK_FK_UINT, DK_H_VERSION, V123, "uint32_t",
	  "1, 2 or 3" },
	{ "msgbufsize", 28, 4, DK_FK_UINT, DK_H_MSGBUFSIZE, V123, "uint32_t",
	  "bytes of the message buffer" },
	{ "bitmapsize", 32, 4, DK_FK_UINT, DK_H_BITMAPSIZE, V123, "uint32_t",
	  "bytes of the page bitmap" },
	{ "pmapsize", 36, 4, DK_FK_UINT, DK_H_PMAPSIZE, V123, "uint32_t",
	  "bytes of the L3-descriptor array" },
	{ "kernbase", 40, 8, DK_FK_UINT, DK_H_KERNBASE, V123, "uint64_t",
	  "VM_MIN_KERNEL_ADDRESS, the first KVA the array describes" },
	{ "dmapphys", 48, 8, DK_FK_UINT, DK_H_DMAPPHYS, V123, "uint64_t",
	  "DMAP_MIN_PHYSADDR, the PA mapped at dmapbase" },
	{ "dmapbase", 56, 8, DK_FK_UINT, DK_H_DMAPBASE, V123, "uint64_t",
	  "DMAP_MIN_ADDRESS" },
	{ "dmapend", 64, 8, DK_FK_UINT, DK_H_DMAPEND, V123, "uint64_t",
	  "DMAP_MAX_ADDRESS" },
	{ "dumpavailsize", 72, 4, DK_FK_UINT, DK_H_DUMPAVAILSIZE,
	  DK_V(2) | DK_V(3), "uint32_t", "bytes of the dump_avail section" },
	{ "(padding)", 76, 4, DK_FK_PAD, DK_H_PAD, DK_V(2), NULL,
	  "tail padding to the struct's 8-byte alignment" },
	{ "flags", 76, 4, DK_FK_UINT, DK_H_FLAGS, DK_V(3), "uint32_t",
	  "bits 1:0 page size: 0 4 KiB, 1 16 KiB" },
};

static const struct dk_layout arm64_layout = {
	"minidump-arm64", arm64_fields, DK_ARRAY_LEN(arm64_fields)
};

static unsigned
arm64_bitmap_word(const struct dk_arch *a, uint32_t version)
{
	(void)a;
	(void)version;
	return 8;
}

/* The page shift a header declares, or 0 if its flags are not known. */
static unsigned
arm64_hdr_page_shift(uint32_t version, const struct dk_hdr *h)
{
	if (version < 3 || h->v[DK_H_FLAGS] == ARM64_FLAG_PS_4K)
		return ARM64_PAGE_SHIFT_4K;
	if (h->v[DK_H_FLAGS] == ARM64_FLAG_PS_16K)
		return ARM64_PAGE_SHIFT_16K;
	return 0;
}

static enum dk_status
arm64_setup(struct dk_dump *d, struct dk_err *err)
{
	const struct dk_hdr *h = &d->hdr;
	uint64_t kb = h->v[DK_H_KERNBASE], pmapsize = h->v[DK_H_PMAPSIZE];
	uint64_t db = h->v[DK_H_DMAPBASE], de = h->v[DK_H_DMAPEND];
	uint64_t dp = h->v[DK_H_DMAPPHYS], flags = h->v[DK_H_FLAGS], cov;

	d->page_shift = arm64_hdr_page_shift(d->info.version, h);
	if (d->page_shift == 0 && (flags & ARM64_FLAG_PS_MASK) > 1)
		return dk_err_off(err, DK_EUNSUP, 76, "%s: offset 76: flags "
		    "%#jx give page size code %ju (%s); only 0 (4 KiB) and 1 "
		    "(16 KiB) are supported", d->src.name, (uintmax_t)flags,
		    (uintmax_t)(flags & ARM64_FLAG_PS_MASK),
		    (flags & ARM64_FLAG_PS_MASK) == 2 ? "64 KiB, reserved" :
		    "undefined");
	if (d->page_shift == 0)
		return dk_err_off(err, DK_EUNSUP, 76, "%s: offset 76: flags "
		    "%#jx have bits dumpkit does not know (%#jx); only bits "
		    "1:0, the page size, are defined", d->src.name,
		    (uintmax_t)flags,
		    (uintmax_t)(flags & ~(uint64_t) ARM64_FLAG_PS_MASK));
	dk_md(d)->pte_size = 8;
	if (de < db)
		return dk_err_off(err, DK_ECORRUPT, 64, "%s: offset 64: "
		    "dmapend %#jx is below dmapbase %#jx", d->src.name,
		    (uintmax_t)de, (uintmax_t)db);
	if (de > db && de - db - 1 > UINT64_MAX - dp)
		return dk_err_off(err, DK_ECORRUPT, 48, "%s: offset 48: "
		    "dmapphys %#jx plus the %#jx bytes of the direct map pass "
		    "2^64", d->src.name, (uintmax_t)dp, (uintmax_t)(de - db));
	dk_add_window(d, DK_WIN_DIRECT_MAP, "direct map", db, de, dp);
	if (pmapsize % dk_md(d)->pte_size != 0)
		return dk_err_off(err, DK_ECORRUPT, 36, "%s: offset 36: "
		    "pmapsize %#jx is not a multiple of the 8-byte L3 "
		    "descriptor", d->src.name, (uintmax_t)pmapsize);
	cov = pmapsize / dk_md(d)->pte_size << d->page_shift;
	if (cov > UINT64_MAX - kb)
		return dk_err_off(err, DK_ECORRUPT, 40, "%s: offset 40: "
		    "kernbase %#jx plus the %#jx bytes of KVA that pmapsize "
		    "%#jx (offset 36) describes pass 2^64", d->src.name,
		    (uintmax_t)kb, (uintmax_t)cov, (uintmax_t)pmapsize);
	d->info.kva_end = kb + cov;
	DK_TRACE(d, "arm64: %u KiB pages, KVA [%#jx, %#jx), direct map "
	    "[%#jx, %#jx) -> pa %#jx", 1u << (d->page_shift - 10),
	    (uintmax_t)kb, (uintmax_t)d->info.kva_end, (uintmax_t)db,
	    (uintmax_t)de, (uintmax_t)dp);
	return DK_OK;
}

/* The protection of a valid descriptor (one format: fmt is not read). */
static unsigned
arm64_prot(uint64_t e, unsigned fmt)
{
	(void)fmt;
	return ((e & ARM64_ATTR_AP_RO) ? 0 : DK_PROT_W) |
	    ((e & ARM64_ATTR_XN) ? 0 : DK_PROT_X);
}

static enum dk_status
arm64_kvtop(struct dk_dump *d, uint64_t va, uint64_t *pa, unsigned *prot,
    struct dk_err *err)
{
	uint64_t kb = d->hdr.v[DK_H_KERNBASE], idx, e;
	uint64_t mask = d->page_shift == ARM64_PAGE_SHIFT_16K ?
	    ARM64_OA_MASK_16K : ARM64_OA_MASK_4K;
	enum dk_status st;

	if (va < kb)
		return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address %#jx: "
		    "not mapped (below kernbase %#jx, outside the direct map "
		    "[%#jx, %#jx))", (uintmax_t)va, (uintmax_t)kb,
		    (uintmax_t)d->hdr.v[DK_H_DMAPBASE],
		    (uintmax_t)d->hdr.v[DK_H_DMAPEND]);
	idx = (va - kb) >> d->page_shift;
	if (idx >= dk_md(d)->pmap_nent)
		return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address %#jx: "
		    "not mapped (past the end of the L3 array at %#jx, outside "
		    "the direct map [%#jx, %#jx))", (uintmax_t)va,
		    (uintmax_t)d->info.kva_end,
		    (uintmax_t)d->hdr.v[DK_H_DMAPBASE],
		    (uintmax_t)d->hdr.v[DK_H_DMAPEND]);
	if ((st = dk_md_pmap_entry(d, idx, &e, err)) != DK_OK)
		return dk_err_prefix(err, "virtual address %#jx",
		    (uintmax_t)va);
	if (e == 0)		/* invalid, and maybe more after it */
		dk_md_pmap_zero(d, va, idx, d->page_shift);
	if ((e & ARM64_ATTR_DESCR_MASK) != ARM64_L3_PAGE)
		return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address %#jx: "
		    "not mapped (L3 descriptor %#jx is not a page, bits 1:0 = "
		    "%ju)", (uintmax_t)va, (uintmax_t)e,
		    (uintmax_t)(e & ARM64_ATTR_DESCR_MASK));
	*pa = (e & mask) | (va & (d->page_size - 1));
	DK_TRACE(d, "va %#jx: L3 descriptor %#jx -> pa %#jx", (uintmax_t)va,
	    (uintmax_t)e, (uintmax_t)*pa);
	if (prot != NULL)
		*prot = arm64_prot(e, 0);
	return DK_OK;
}

/* The L3 descriptor of one page of a small map, as pmap_kenter() does. */
static uint64_t
arm64_l3(uint64_t pa, unsigned prot)
{
	return pa | ARM64_ATTR_AF | ARM64_ATTR_SH_IS | ARM64_ATTR_IDX_WB |
	    ARM64_L3_PAGE | ((prot & DK_PROT_W) ? 0 : ARM64_ATTR_AP_RO) |
	    ((prot & DK_PROT_X) ? 0 : ARM64_ATTR_XN);
}

/*
 * Encode the maps as the kernel writes them: one L3 descriptor per page
 * from kernbase, one page of them per L2 block up to kva_end.  A large
 * map (an L2 block) is pre-expanded the way the kernel expands it, into
 * ATTR_AF | ATTR_SH(ATTR_SH_IS) | L3_PAGE entries: its protection is
 * lost.  The page size is b->page_shift; it must agree with the header
 * when the header declares one (flags 2 or 3 are encoded with
 * b->page_shift, so that a fixture for the reader's refusal can be
 * written).
 */
static enum dk_status
arm64_pmap_build(struct dk_pmap_build *b, struct dk_err *err)
{
	uint64_t kb = b->hdr->v[DK_H_KERNBASE];
	unsigned shift = b->page_shift, hs;
	uint64_t page, unit, npg;

	hs = arm64_hdr_page_shift(b->version, b->hdr);
	if ((shift != ARM64_PAGE_SHIFT_4K && shift != ARM64_PAGE_SHIFT_16K) ||
	    (hs != 0 && hs != shift))
		return dk_err_set(err, DK_EINVAL, "arm64 pmap: page shift %u, "
		    "expected %u (version %u, flags %#jx)", shift,
		    hs != 0 ? hs : ARM64_PAGE_SHIFT_4K, b->version,
		    (uintmax_t)b->hdr->v[DK_H_FLAGS]);
	page = 1ull << shift;
	unit = (page / 8) << shift;	/* L2_SIZE, a large map's block */
	if (b->kva_end < kb)
		return dk_err_set(err, DK_EINVAL, "arm64 pmap: end of the "
		    "kernel map %#jx is below kernbase %#jx",
		    (uintmax_t)b->kva_end, (uintmax_t)kb);
	for (size_t m = 0; m < b->nmaps; m++) {
		const struct dk_map *mp = &b->maps[m];
		uint64_t align = (mp->large ? unit : page) - 1;

		if (((mp->va | mp->pa | mp->len) & align) != 0 ||
		    mp->va < kb || mp->va > b->kva_end ||
		    mp->len > b->kva_end - mp->va || mp->pa >= ARM64_PHYS_MAX ||
		    mp->len > ARM64_PHYS_MAX - mp->pa)
			return dk_err_set(err, DK_EINVAL, "arm64 pmap: map %zu "
			    "(va %#jx, pa %#jx, %#jx bytes) is not "
			    "%#jx-aligned inside KVA [%#jx, %#jx) and PA "
			    "[0, %#jx)", m, (uintmax_t)mp->va,
			    (uintmax_t)mp->pa, (uintmax_t)mp->len,
			    (uintmax_t)(align + 1),
			    (uintmax_t)kb, (uintmax_t)b->kva_end,
			    (uintmax_t)ARM64_PHYS_MAX);
	}
	npg = (b->kva_end - kb) / unit + ((b->kva_end - kb) % unit != 0);
	if (npg > (UINT32_MAX >> shift))
		return dk_err_set(err, DK_EINVAL, "arm64 pmap: the kernel map "
		    "[%#jx, %#jx) needs a pmap area larger than pmapsize "
		    "(32 bits) can state", (uintmax_t)kb,
		    (uintmax_t)b->kva_end);
	b->pmap_len = npg * page;
	b->pmap = calloc(1, b->pmap_len != 0 ? b->pmap_len : 1);
	if (b->pmap == NULL)
		return dk_err_set(err, DK_ENOMEM, "pmap: out of memory");
	for (size_t m = 0; m < b->nmaps; m++) {
		const struct dk_map *mp = &b->maps[m];

		for (uint64_t o = 0; o < mp->len; o += page) {
			uint64_t i = (mp->va + o - kb) >> shift;
			uint64_t e;

			if (mp->large)
				e = (mp->pa + o) | ARM64_ATTR_AF |
				    ARM64_ATTR_SH_IS | ARM64_L3_PAGE;
			else
				e = arm64_l3(mp->pa + o, mp->prot);
			enc_le64(b->pmap + 8 * i, e);
		}
	}
	return DK_OK;
}

/*
 * The page size is read from the header: the caller sets flags (version
 * 3) before asking for the defaults.
 */
static void
arm64_gen_defaults(const struct dk_arch *a, uint32_t version,
    struct dk_mdgen *g, struct dk_hdr *h)
{
	unsigned shift = arm64_hdr_page_shift(version, h);
	uint64_t l2;

	(void)a;
	if (shift == 0)
		shift = ARM64_PAGE_SHIFT_4K;	/* a fixture for the refusal */
	l2 = ((1ull << shift) / 8) << shift;
	memset(g, 0, sizeof(*g));
	g->page_shift = shift;
	g->kernbase = ARM64_KERNBASE;
	g->dmap_base = ARM64_DMAP_MIN;
	g->dmap_end = ARM64_DMAP_MAX;
	g->phys_base = ARM64_PHYS_BASE;
	g->large_size = l2;
	g->pmap_unit = l2;
	g->ktext_va = ARM64_KERNBASE + l2;
	g->kmem_va = ARM64_KERNBASE + 0x10000000ull;
	g->phys_max = ARM64_PHYS_MAX;
	g->msgbufsize = ARM64_MSGBUF_SIZE - ARM64_MSGBUF_HDR;
	h->v[DK_H_KERNBASE] = g->kernbase;
	h->v[DK_H_DMAPPHYS] = g->phys_base;
	h->v[DK_H_DMAPBASE] = g->dmap_base;
	h->v[DK_H_DMAPEND] = g->dmap_end;
}

/* The fixture variants of `dumpgen --list`. */
static const struct dk_mdvariant arm64_variants[] = {
	{ 1, "-", "4 KiB granule (2015)", { { 0, 0, NULL } } },
	{ 2, "-", "4 KiB granule, dump_avail", { { 0, 0, NULL } } },
	{ 3, "-", "flags: 4 KiB granule", { { 0, 0, NULL } } },
	{ 3, "16k", "flags: 16 KiB granule", { { DK_H_FLAGS, 1, NULL } } },
};

const struct dk_mdarch dk_md_arm64 = {
	.family		= "arm64",
	.magic		= "minidump FreeBSD/arm64",
	.layout		= &arm64_layout,
	.versions	= V123,
	.bitmap_word	= arm64_bitmap_word,
	.setup		= arm64_setup,
	.kvtop		= arm64_kvtop,
	.pmap_build	= arm64_pmap_build,
	.gen_defaults	= arm64_gen_defaults,
	.variants	= arm64_variants,
	.nvariants	= DK_ARRAY_LEN(arm64_variants),
};

/* ---------------------------------------------------------------------- */
/* The hardware page tables (Linux dumps: linux.c finds the root).        */

/*
 * The VMSAv8-64 stage 1 walk of a kernel (TTBR1) address through the
 * tables at root (Arm ARM, "VMSAv8-64 translation table format
 * descriptors"): granule 1 << w->page_shift (4, 16 or 64 KiB),
 * w->va_bits bits of VA (64 - TCR_EL1.T1SZ) in w->levels tables, the
 * last one level 3, each of page_shift - 3 index bits but the top one,
 * which takes what is left.  The entry w is a template: linux.c copies
 * it with the dump's va_bits and levels.  Descriptor bits 1:0: 0b11 a
 * table (levels 0 to 2) or a page (level 3), 0b01 a block where the
 * granule has one (4 KiB: levels 1 and 2; 16 KiB: level 2; 64 KiB:
 * levels 1 and 2), bit 0 clear invalid.  The root is used as given
 * (TTBR1's BADDR: a top table smaller than a granule, or a 52-bit one
 * entered 64 entries from its end, is not granule-aligned); the tables
 * below it are.  Output address: bits 47 down
 * to the page shift; with 64 KiB granules bits 15:12 are OA[51:48]
 * (FEAT_LPA).  FEAT_LPA2's OA[51:50] (bits 9:8, TCR.DS) and its level
 * -1 are not decoded.
 */
static enum dk_status
arm64_walk(struct dk_dump *d, const struct dk_pt_walk *w, uint64_t root,
    uint64_t va, uint64_t *pa, unsigned *prot, struct dk_err *err)
{
	unsigned ps = w->page_shift, per = ps - 3, first, topshift;
	uint64_t oa = ((1ull << 48) - 1) & ~((1ull << ps) - 1);
	uint64_t table = root, e = 0, at;
	enum dk_status st;

	if ((ps != 12 && ps != 14 && ps != 16) || w->levels < 2 ||
	    w->levels > 4 || w->va_bits > 52)
		return dk_err_set(err, DK_EINVAL, "%s walk: granule 2^%u, %u "
		    "levels: expected a 4, 16 or 64 KiB granule and 2 to 4 "
		    "levels of at most 52 VA bits", w->name, ps, w->levels);
	first = 4 - w->levels;
	topshift = ps + (3 - first) * per;
	if (w->va_bits <= topshift || w->va_bits - topshift > per)
		return dk_err_set(err, DK_EINVAL, "%s walk: %u VA bits do not "
		    "fit %u levels of the 2^%u granule", w->name, w->va_bits,
		    w->levels, ps);
	if (w->va_bits < 64 && (va >> w->va_bits) !=
	    (UINT64_MAX >> w->va_bits))
		return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address %#jx: "
		    "not a kernel (TTBR1) address: bits 63..%u are not all "
		    "ones", (uintmax_t)va, w->va_bits);
	for (unsigned l = first; l <= 3; l++) {
		unsigned shift = ps + (3 - l) * per;
		unsigned bits = l == first ? w->va_bits - shift : per;
		uint64_t next;

		at = table + ((va >> shift) & ((1ull << bits) - 1)) * 8;
		if ((st = dk_read_pa_u64(d, at, &e, err)) != DK_OK)
			return dk_err_prefix(err, "virtual address %#jx: level "
			    "%u descriptor", (uintmax_t)va, l);
		DK_TRACE(d, "va %#jx: level %u descriptor at pa %#jx = %#jx",
		    (uintmax_t)va, l, (uintmax_t)at, (uintmax_t)e);
		if ((e & 1) == 0)
			return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address "
			    "%#jx: not mapped (level %u descriptor %#jx at pa "
			    "%#jx is invalid)", (uintmax_t)va, l, (uintmax_t)e,
			    (uintmax_t)at);
		next = e & oa;
		if (ps == 16)
			next |= ((e >> 12) & 0xf) << 48;
		if (l == 3 || (e & ARM64_ATTR_DESCR_MASK) == 1) {
			uint64_t mask = (1ull << shift) - 1;

			if (l != 3 && !(l == 2 || (l == 1 && ps != 14)))
				return dk_err_miss(d, err, DK_ENOTMAPPED,
				    "virtual address %#jx: not mapped (level "
				    "%u descriptor %#jx at pa %#jx is a block, "
				    "which a 2^%u granule has not there)",
				    (uintmax_t)va, l, (uintmax_t)e,
				    (uintmax_t)at, ps);
			if (l == 3 && (e & ARM64_ATTR_DESCR_MASK) != 3)
				return dk_err_miss(d, err, DK_ENOTMAPPED,
				    "virtual address %#jx: not mapped (level 3 "
				    "descriptor %#jx at pa %#jx is reserved: "
				    "bits 1:0 are 01)", (uintmax_t)va,
				    (uintmax_t)e, (uintmax_t)at);
			*pa = (next & ~mask) | (va & mask);
			break;
		}
		table = next;
	}
	if (prot != NULL)
		*prot = arm64_prot(e, 0);
	return DK_OK;
}

/*
 * Templates of the walk for each granule (linux.c sets va_bits and
 * levels from VMCOREINFO).
 */
static const struct dk_pt_walk arm64_walks[] = {
	{ "arm64 4 KiB", 4, ARM64_PAGE_SHIFT_4K, 48, 8, NULL, arm64_walk },
	{ "arm64 16 KiB", 4, ARM64_PAGE_SHIFT_16K, 48, 8, NULL, arm64_walk },
	{ "arm64 64 KiB", 3, 16, 48, 8, NULL, arm64_walk },
};

/* ---------------------------------------------------------------------- */
/* The module (arch.c lists it).                                           */

static const struct dk_arch arm64_rows[] = {
	{ .name = "aarch64", .aliases = "arm64", .family = "arm64",
	  .endian = DK_LE, .elf_machine = ARM64_EM_AARCH64,
	  .elf_class = ARM64_ELFCLASS64, .long_size = 8,
	  .minidump = &dk_md_arm64, .ops = &dk_arch_arm64 },
};

/*
 * Threads' registers: struct pcb (sys/arm64/include/pcb.h, FreeBSD 14:
 * pcb_x[12] holds x19 to x30 from offset 0, x29 the frame pointer at 80,
 * x30 the link register at 88, then pcb_sp at 96; a switched-out
 * thread's pc is its x30, as kgdb takes it) into gdb's aarch64
 * NT_PRSTATUS (392 bytes; pr_pid at 32, pr_reg at 112: x0 to x30, sp,
 * pc, pstate, 8 bytes each) and NT_PRPSINFO (136 bytes; pr_pid at 24,
 * pr_fname at 40).  FreeBSD 13 and earlier had pcb_x[31], pcb_pc and
 * pcb_sp: not decoded.
 */
static const struct dk_pcb_slot arm64_pcb_slots[] = {
	{ "x19", 19, 0 }, { "x20", 20, 8 }, { "x21", 21, 16 },
	{ "x22", 22, 24 }, { "x23", 23, 32 }, { "x24", 24, 40 },
	{ "x25", 25, 48 }, { "x26", 26, 56 }, { "x27", 27, 64 },
	{ "x28", 28, 72 }, { "x29", 29, 80 }, { "x30", 30, 88 },
	{ "sp", 31, 96 }, { "pc", 32, 88 },
};

static const struct dk_pcb_regs arm64_pcb = {
	.source		= "sys/arm64/include/pcb.h",
	.word		= 8,
	.pcb_min	= 104,
	.prstatus_size	= 392,
	.pid_off	= 32,
	.cursig_off	= 12,
	.reg_off	= 112,
	.nregs		= 34,
	.prpsinfo_size	= 136,
	.psinfo_pid_off	= 24,
	.psinfo_fname_off = 40,
	.slots		= arm64_pcb_slots,
	.nslots		= DK_ARRAY_LEN(arm64_pcb_slots),
};

const struct dk_arch_ops dk_arch_arm64 = {
	.name		= "arm64",
	.rows		= arm64_rows,
	.nrows		= DK_ARRAY_LEN(arm64_rows),
	.page_shift	= ARM64_PAGE_SHIFT_4K,
	.minidump	= &dk_md_arm64,
	.walks		= arm64_walks,
	.nwalks		= DK_ARRAY_LEN(arm64_walks),
	.prot		= arm64_prot,
	.pcb		= &arm64_pcb,
};
