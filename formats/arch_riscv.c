/*
 * arch_riscv.c -- riscv (RV64, Sv39/Sv48) minidumps: header layout,
 * page-table area and address translation (FORMATS.md 1.2 "riscv",
 * 2.5).
 *
 * The header is laid out as arm64's version 2: version 1 (2019) has
 * sizeof 72; version 2 (2020-09) adds dumpavailsize and the dump_avail
 * section, and 4 bytes of tail padding (sizeof 80).  Little-endian
 * only; 8-byte bitmap words; 4 KiB pages.
 *
 * Direct map: dmapbase <= va < dmapend gives pa = va - dmapbase +
 * dmapphys (DMAP_MIN_PHYSADDR, the first PA of RAM: 0x80000000 on QEMU
 * virt and most boards).  The pmap area is a flat array of 8-byte L3
 * PTEs, one per 4 KiB page from kernbase to kernel_vm_end.  The kernel
 * writes one page of them per L2 entry (L2_SIZE, 2 MiB): the real L3
 * table, a zero page when there is no table, or, for a 2 MiB superpage
 * (an L2 leaf: R, W or X set), a synthetic page whose entry i is
 * l2e | (i << 10), i.e. the L2 entry with i in PPN[0].  A superpage's
 * entries therefore carry every bit of its L2 entry, protection
 * included.  The paging mode (Sv39 or Sv48) changes only the levels
 * above L2, which the dump does not contain: the format is the same.
 *
 * PTE bits: V 0, R 1, W 2, X 3, U 4, G 5, A 6, D 7, software 8-9, PPN
 * 10-53 (44 bits, so physical addresses have 56 bits), reserved 54-60,
 * PBMT 61-62 (Svpbmt), N 63 (Svnapot).
 *
 * Decisions where FORMATS.md leaves room:
 *  - kernbase.  The kernel walks the page tables from
 *    VM_MIN_KERNEL_ADDRESS and stores KERNBASE in the header (FORMATS.md
 *    marks their equality [UNVERIFIED]).  sys/riscv/include/vmparam.h
 *    defines KERNBASE as VM_MIN_KERNEL_ADDRESS, 0xffffffc000000000, both
 *    in the Sv39-only version of 2019-2021 and in the current Sv39/Sv48
 *    one (read in freebsd/freebsd-src, with the writer
 *    sys/riscv/riscv/minidump_machdep.c): the array starts at the
 *    header's kernbase, as libkvm indexes it, and no other value is
 *    assumed.
 *  - Physical address: ((pte >> 10) & (2^44 - 1)) << 12.  Bits 54..63
 *    are masked off: the reserved bits, the Svpbmt memory type and the
 *    Svnapot N bit are not part of the address (pmaps with Svpbmt
 *    support clear them, PTE_HI_MASK, before converting a PTE).  libkvm
 *    does not mask them, and returns a PA past 2^56 for such an entry.
 *    Svnapot ranges are not decoded: FreeBSD's riscv pmap makes none.
 *    The kernel writer copies L3 tables as they are, so these bits can
 *    appear in a dump; a superpage's expansion carries them too.
 *  - Validity, as libkvm: V set and at least one of R, W, X.  An entry
 *    with V set and R = W = X = 0 is a pointer to a next-level table,
 *    which the hardware refuses at the last level (page fault); it is
 *    read as not mapped (DK_ENOTMAPPED, the message says why), not as a
 *    corrupt dump: one odd entry does not make the rest unreadable, and
 *    a validator can report it.  The reserved R = 0, W = 1 encodings are
 *    accepted as libkvm accepts them.
 *  - Protection: writable iff W (bit 2), executable iff X (bit 3).
 *  - Header values whose arithmetic would wrap past 2^64 (kernbase plus
 *    the KVA the pmap area covers, dmapphys plus the direct map's size),
 *    dmapend below dmapbase, and a pmapsize that is not a whole number
 *    of entries are refused as corrupt, naming the offset.
 *
 * The constants are spelled out here, never taken from a host header,
 * so that this file builds and is tested on any host.
 */
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "kthreads.h"
#include "private.h"

#define	RISCV_PAGE_SHIFT	12
#define	RISCV_PAGE_SIZE		(1ull << RISCV_PAGE_SHIFT)
#define	RISCV_L2_SIZE		(1ull << 21)	/* one page of L3 PTEs */
#define	RISCV_PTE_SIZE		8
#define	RISCV_PTE_V		(1ull << 0)
#define	RISCV_PTE_R		(1ull << 1)
#define	RISCV_PTE_W		(1ull << 2)
#define	RISCV_PTE_X		(1ull << 3)
#define	RISCV_PTE_A		(1ull << 6)
#define	RISCV_PTE_D		(1ull << 7)
#define	RISCV_PTE_SW_WIRED	(1ull << 8)
#define	RISCV_PTE_RWX		(RISCV_PTE_R | RISCV_PTE_W | RISCV_PTE_X)
#define	RISCV_PTE_PPN0_S	10
#define	RISCV_PPN_MASK		((1ull << 44) - 1)	/* PTE bits 10..53 */
#define	RISCV_KERNBASE		0xffffffc000000000ull	/* KERNBASE */
#define	RISCV_DMAP_MIN		0xffffffd000000000ull
#define	RISCV_DMAP_MAX		0xfffffff000000000ull
#define	RISCV_PHYS_BASE		0x80000000ull	/* RAM on QEMU virt, boards */
#define	RISCV_PHYS_MAX		(1ull << 56)	/* 44-bit PPN */
#define	RISCV_MSGBUF_SIZE	0x18000u	/* MSGBUF_SIZE */
#define	RISCV_MSGBUF_HDR	0x40u		/* sizeof(struct msgbuf) */
#define	RISCV_EM_RISCV		243		/* the kernel's e_machine */
#define	RISCV_ELFCLASS64	2

#define	V12	(DK_V(1) | DK_V(2))

static const struct dk_field riscv_fields[] = {
	{ "magic", 0, 24, DK_FK_CHARS, DK_H_MAGIC, V12, "char[24]",
	  "\"minidump FreeBSD/riscv\", NUL-padded" },
	{ "version", 24, 4, DK_FK_UINT, DK_H_VERSION, V12, "uint32_t",
	  "1 or 2" },
	{ "msgbufsize", 28, 4, DK_FK_UINT, DK_H_MSGBUFSIZE, V12, "uint32_t",
	  "bytes of the message buffer" },
	{ "bitmapsize", 32, 4, DK_FK_UINT, DK_H_BITMAPSIZE, V12, "uint32_t",
	  "bytes of the page bitmap" },
	{ "pmapsize", 36, 4, DK_FK_UINT, DK_H_PMAPSIZE, V12, "uint32_t",
	  "bytes of the L3-PTE array" },
	{ "kernbase", 40, 8, DK_FK_UINT, DK_H_KERNBASE, V12, "uint64_t",
	  "KERNBASE (= VM_MIN_KERNEL_ADDRESS), the first KVA the array "
	  "describes" },
	{ "dmapphys", 48, 8, DK_FK_UINT, DK_H_DMAPPHYS, V12, "uint64_t",
	  "DMAP_MIN_PHYSADDR, the PA mapped at dmapbase" },
	{ "dmapbase", 56, 8, DK_FK_UINT, DK_H_DMAPBASE, V12, "uint64_t",
	  "DMAP_MIN_ADDRESS" },
	{ "dmapend", 64, 8, DK_FK_UINT, DK_H_DMAPEND, V12, "uint64_t",
	  "DMAP_MAX_ADDRESS" },
	{ "dumpavailsize", 72, 4, DK_FK_UINT, DK_H_DUMPAVAILSIZE, DK_V(2),
	  "uint32_t", "bytes of the dump_avail section" },
	{ "(padding)", 76, 4, DK_FK_PAD, DK_H_PAD, DK_V(2), NULL,
	  "tail padding to the struct's 8-byte alignment" },
};

static const struct dk_layout riscv_layout = {
	"minidump-riscv", riscv_fields, DK_ARRAY_LEN(riscv_fields)
};

static unsigned
riscv_bitmap_word(const struct dk_arch *a, uint32_t version)
{
	(void)a;
	(void)version;
	return 8;
}

static enum dk_status
riscv_setup(struct dk_dump *d, struct dk_err *err)
{
	const struct dk_hdr *h = &d->hdr;
	uint64_t kb = h->v[DK_H_KERNBASE], pmapsize = h->v[DK_H_PMAPSIZE];
	uint64_t db = h->v[DK_H_DMAPBASE], de = h->v[DK_H_DMAPEND];
	uint64_t dp = h->v[DK_H_DMAPPHYS], cov;

	d->page_shift = RISCV_PAGE_SHIFT;
	dk_md(d)->pte_size = RISCV_PTE_SIZE;
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
		    "pmapsize %#jx is not a multiple of the 8-byte L3 PTE",
		    d->src.name, (uintmax_t)pmapsize);
	cov = pmapsize / dk_md(d)->pte_size << RISCV_PAGE_SHIFT;
	if (cov > UINT64_MAX - kb)
		return dk_err_off(err, DK_ECORRUPT, 40, "%s: offset 40: "
		    "kernbase %#jx plus the %#jx bytes of KVA that pmapsize "
		    "%#jx (offset 36) describes pass 2^64", d->src.name,
		    (uintmax_t)kb, (uintmax_t)cov, (uintmax_t)pmapsize);
	d->info.kva_end = kb + cov;
	DK_TRACE(d, "riscv: KVA [%#jx, %#jx), direct map [%#jx, %#jx) -> "
	    "pa %#jx", (uintmax_t)kb, (uintmax_t)d->info.kva_end,
	    (uintmax_t)db, (uintmax_t)de, (uintmax_t)dp);
	return DK_OK;
}

/* The protection of a valid leaf (one format: fmt is not read). */
static unsigned
riscv_prot(uint64_t e, unsigned fmt)
{
	(void)fmt;
	return ((e & RISCV_PTE_W) ? DK_PROT_W : 0) |
	    ((e & RISCV_PTE_X) ? DK_PROT_X : 0);
}

static enum dk_status
riscv_kvtop(struct dk_dump *d, uint64_t va, uint64_t *pa, unsigned *prot,
    struct dk_err *err)
{
	uint64_t kb = d->hdr.v[DK_H_KERNBASE], idx, e;
	enum dk_status st;

	if (va < kb)
		return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address %#jx: "
		    "not mapped (below kernbase %#jx, outside the direct map "
		    "[%#jx, %#jx))", (uintmax_t)va, (uintmax_t)kb,
		    (uintmax_t)d->hdr.v[DK_H_DMAPBASE],
		    (uintmax_t)d->hdr.v[DK_H_DMAPEND]);
	idx = (va - kb) >> RISCV_PAGE_SHIFT;
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
		dk_md_pmap_zero(d, va, idx, RISCV_PAGE_SHIFT);
	if ((e & RISCV_PTE_V) == 0)
		return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address %#jx: "
		    "not mapped (L3 PTE 0x%016jx is not valid: V, bit 0, is "
		    "clear)", (uintmax_t)va, (uintmax_t)e);
	if ((e & RISCV_PTE_RWX) == 0)
		return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address %#jx: "
		    "not mapped (L3 PTE 0x%016jx has V set but R, W and X "
		    "clear: a pointer to a next-level table, not a leaf)",
		    (uintmax_t)va, (uintmax_t)e);
	*pa = (((e >> RISCV_PTE_PPN0_S) & RISCV_PPN_MASK) <<
	    RISCV_PAGE_SHIFT) | (va & (RISCV_PAGE_SIZE - 1));
	DK_TRACE(d, "va %#jx: L3 PTE 0x%016jx -> pa %#jx", (uintmax_t)va,
	    (uintmax_t)e, (uintmax_t)*pa);
	if (prot != NULL)
		*prot = riscv_prot(e, 0);
	return DK_OK;
}

/*
 * The leaf PTE of a page at pa, as pmap_enter() makes it for a wired
 * kernel page: V, R and A always, W and D when writable, X when
 * executable.  A superpage's L2 entry is the same with pa 2 MiB-aligned
 * (pmap_promote_l2() gives it the bits of its first L3 entry).
 */
static uint64_t
riscv_leaf(uint64_t pa, unsigned prot)
{
	return ((pa >> RISCV_PAGE_SHIFT) << RISCV_PTE_PPN0_S) | RISCV_PTE_V |
	    RISCV_PTE_R | RISCV_PTE_A | RISCV_PTE_SW_WIRED |
	    ((prot & DK_PROT_W) ? RISCV_PTE_W | RISCV_PTE_D : 0) |
	    ((prot & DK_PROT_X) ? RISCV_PTE_X : 0);
}

/*
 * Encode the maps as the kernel writes them: one L3 PTE per page from
 * kernbase, one page of them per L2_SIZE up to kva_end.  A large map
 * is a run of 2 MiB superpages; each is written the way the kernel
 * expands it, entry i = l2e | (i << 10).
 */
static enum dk_status
riscv_pmap_build(struct dk_pmap_build *b, struct dk_err *err)
{
	uint64_t kb = b->hdr->v[DK_H_KERNBASE];
	uint64_t npg;

	if (b->page_shift != RISCV_PAGE_SHIFT)
		return dk_err_set(err, DK_EINVAL, "riscv pmap: page shift %u, "
		    "expected %u", b->page_shift, RISCV_PAGE_SHIFT);
	if (b->kva_end < kb)
		return dk_err_set(err, DK_EINVAL, "riscv pmap: end of the "
		    "kernel map %#jx is below kernbase %#jx",
		    (uintmax_t)b->kva_end, (uintmax_t)kb);
	for (size_t m = 0; m < b->nmaps; m++) {
		const struct dk_map *mp = &b->maps[m];
		uint64_t align = (mp->large ? RISCV_L2_SIZE :
		    RISCV_PAGE_SIZE) - 1;

		if (((mp->va | mp->pa | mp->len) & align) != 0 ||
		    mp->va < kb || mp->va > b->kva_end ||
		    mp->len > b->kva_end - mp->va ||
		    mp->pa >= RISCV_PHYS_MAX ||
		    mp->len > RISCV_PHYS_MAX - mp->pa)
			return dk_err_set(err, DK_EINVAL, "riscv pmap: map %zu "
			    "(va %#jx, pa %#jx, %#jx bytes) is not "
			    "%#jx-aligned inside KVA [%#jx, %#jx) and PA "
			    "[0, %#jx)", m, (uintmax_t)mp->va,
			    (uintmax_t)mp->pa, (uintmax_t)mp->len,
			    (uintmax_t)(align + 1), (uintmax_t)kb,
			    (uintmax_t)b->kva_end, (uintmax_t)RISCV_PHYS_MAX);
	}
	npg = (b->kva_end - kb) / RISCV_L2_SIZE +
	    ((b->kva_end - kb) % RISCV_L2_SIZE != 0);
	if (npg > (UINT32_MAX >> RISCV_PAGE_SHIFT))
		return dk_err_set(err, DK_EINVAL, "riscv pmap: the kernel map "
		    "[%#jx, %#jx) needs a pmap area larger than pmapsize "
		    "(32 bits) can state", (uintmax_t)kb,
		    (uintmax_t)b->kva_end);
	b->pmap_len = npg * RISCV_PAGE_SIZE;
	b->pmap = calloc(1, b->pmap_len != 0 ? b->pmap_len : 1);
	if (b->pmap == NULL)
		return dk_err_set(err, DK_ENOMEM, "pmap: out of memory");
	for (size_t m = 0; m < b->nmaps; m++) {
		const struct dk_map *mp = &b->maps[m];

		for (uint64_t o = 0; o < mp->len; o += RISCV_PAGE_SIZE) {
			uint64_t i = (mp->va + o - kb) >> RISCV_PAGE_SHIFT;
			uint64_t e;

			if (mp->large) {
				uint64_t sp = o & ~(RISCV_L2_SIZE - 1);
				uint64_t l2e = riscv_leaf(mp->pa + sp,
				    mp->prot);

				e = l2e | (((o - sp) >> RISCV_PAGE_SHIFT) <<
				    RISCV_PTE_PPN0_S);
			} else
				e = riscv_leaf(mp->pa + o, mp->prot);
			enc_le64(b->pmap + RISCV_PTE_SIZE * i, e);
		}
	}
	return DK_OK;
}

static void
riscv_gen_defaults(const struct dk_arch *a, uint32_t version,
    struct dk_mdgen *g, struct dk_hdr *h)
{
	(void)a;
	(void)version;
	memset(g, 0, sizeof(*g));
	g->page_shift = RISCV_PAGE_SHIFT;
	g->kernbase = RISCV_KERNBASE;
	g->dmap_base = RISCV_DMAP_MIN;
	g->dmap_end = RISCV_DMAP_MAX;
	g->phys_base = RISCV_PHYS_BASE;
	g->large_size = RISCV_L2_SIZE;
	g->pmap_unit = RISCV_L2_SIZE;
	/* "The kernel is loaded at the beginning of the kernel map." */
	g->ktext_va = RISCV_KERNBASE;
	g->kmem_va = RISCV_KERNBASE + 0x20000000ull;
	g->phys_max = RISCV_PHYS_MAX;
	g->msgbufsize = RISCV_MSGBUF_SIZE - RISCV_MSGBUF_HDR;
	h->v[DK_H_KERNBASE] = g->kernbase;
	h->v[DK_H_DMAPPHYS] = g->phys_base;
	h->v[DK_H_DMAPBASE] = g->dmap_base;
	h->v[DK_H_DMAPEND] = g->dmap_end;
}

/* The fixture variants of `dumpgen --list`. */
static const struct dk_mdvariant riscv_variants[] = {
	{ 1, "-", "Sv39 L3 PTEs (2019)", { { 0, 0, NULL } } },
	{ 2, "-", "Sv39 L3 PTEs, dump_avail", { { 0, 0, NULL } } },
};

const struct dk_mdarch dk_md_riscv = {
	.family		= "riscv",
	.magic		= "minidump FreeBSD/riscv",
	.layout		= &riscv_layout,
	.versions	= V12,
	.bitmap_word	= riscv_bitmap_word,
	.setup		= riscv_setup,
	.kvtop		= riscv_kvtop,
	.pmap_build	= riscv_pmap_build,
	.gen_defaults	= riscv_gen_defaults,
	.variants	= riscv_variants,
	.nvariants	= DK_ARRAY_LEN(riscv_variants),
};

/* ---------------------------------------------------------------------- */
/* The hardware page tables (Linux dumps: linux.c finds the root).        */

/*
 * The Sv39, Sv48 or Sv57 walk (w->levels 3, 4, 5 of 9 VA bits each
 * above the 4 KiB page; RISC-V privileged spec., "Virtual Address
 * Translation Process") from the root table at root.  A PTE with V
 * clear is invalid; with R, W or X set a leaf, whose PPN below its
 * level must be zero (a misaligned superpage faults); with none of
 * them a pointer to the next table, which the last level may not be.
 * The VA must be canonical: bits 63..va_bits copies of bit va_bits - 1.
 */
static enum dk_status
riscv_walk(struct dk_dump *d, const struct dk_pt_walk *w, uint64_t root,
    uint64_t va, uint64_t *pa, unsigned *prot, struct dk_err *err)
{
	unsigned top = 64 - w->va_bits;
	uint64_t table = root, e = 0, at = root;
	enum dk_status st;

	if (w->levels < 3 || w->levels > 5 || w->va_bits != 12 + 9 *
	    w->levels)
		return dk_err_set(err, DK_EINVAL, "%s walk: %u levels of %u VA "
		    "bits: expected Sv39, Sv48 or Sv57", w->name, w->levels,
		    w->va_bits);
	if ((uint64_t)((int64_t)(va << top) >> top) != va)
		return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address %#jx: "
		    "not canonical for %s (bits 63..%u are not copies of bit "
		    "%u)", (uintmax_t)va, w->name, w->va_bits, w->va_bits - 1);
	for (unsigned l = w->levels; l-- > 0; ) {
		unsigned shift = RISCV_PAGE_SHIFT + 9 * l;
		uint64_t mask = (1ull << shift) - 1, base;

		at = table + ((va >> shift) & 511) * RISCV_PTE_SIZE;
		if ((st = dk_read_pa_u64(d, at, &e, err)) != DK_OK)
			return dk_err_prefix(err, "virtual address %#jx: level "
			    "%u PTE", (uintmax_t)va, l);
		DK_TRACE(d, "va %#jx: level %u PTE at pa %#jx = %#jx",
		    (uintmax_t)va, l, (uintmax_t)at, (uintmax_t)e);
		if ((e & RISCV_PTE_V) == 0)
			return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address "
			    "%#jx: not mapped (level %u PTE %#jx at pa %#jx: V "
			    "is clear)", (uintmax_t)va, l, (uintmax_t)e,
			    (uintmax_t)at);
		base = ((e >> RISCV_PTE_PPN0_S) & RISCV_PPN_MASK) <<
		    RISCV_PAGE_SHIFT;
		if (e & RISCV_PTE_RWX) {
			if (base & mask)
				return dk_err_miss(d, err, DK_ENOTMAPPED,
				    "virtual address %#jx: not mapped (level "
				    "%u PTE %#jx at pa %#jx is a misaligned "
				    "superpage)", (uintmax_t)va, l,
				    (uintmax_t)e, (uintmax_t)at);
			*pa = base | (va & mask);
			if (prot != NULL)
				*prot = riscv_prot(e, 0);
			return DK_OK;
		}
		table = base;
	}
	return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address %#jx: not "
	    "mapped (level 0 PTE %#jx at pa %#jx has V set but R, W and X "
	    "clear: a pointer, not a leaf)", (uintmax_t)va, (uintmax_t)e,
	    (uintmax_t)at);
}

static const struct dk_pt_walk riscv_walks[] = {
	{ "riscv Sv39", 3, RISCV_PAGE_SHIFT, 39, 8, NULL, riscv_walk },
	{ "riscv Sv48", 4, RISCV_PAGE_SHIFT, 48, 8, NULL, riscv_walk },
	{ "riscv Sv57", 5, RISCV_PAGE_SHIFT, 57, 8, NULL, riscv_walk },
};

/* ---------------------------------------------------------------------- */
/* The module (arch.c lists it).                                           */

static const struct dk_arch riscv_rows[] = {
	{ .name = "riscv64", .aliases = "riscv", .family = "riscv",
	  .endian = DK_LE, .elf_machine = RISCV_EM_RISCV,
	  .elf_class = RISCV_ELFCLASS64, .long_size = 8,
	  .minidump = &dk_md_riscv, .ops = &dk_arch_riscv },
};

/*
 * Threads' registers: struct pcb (sys/riscv/include/pcb.h: pcb_ra 0,
 * pcb_sp 8, pcb_gp 16, pcb_tp 24, pcb_s[12] from 32, s0 the frame
 * pointer first; a switched-out thread's pc is its ra, as kgdb takes
 * it) into gdb's riscv64 NT_PRSTATUS (376 bytes; pr_pid at 32, pr_reg
 * at 112: pc ra sp gp tp t0-t2 s0 s1 a0-a7 s2-s11 t3-t6, 8 bytes each)
 * and NT_PRPSINFO (136 bytes; pr_pid at 24, pr_fname at 40).
 */
static const struct dk_pcb_slot riscv_pcb_slots[] = {
	{ "pc", 0, 0 }, { "ra", 1, 0 }, { "sp", 2, 8 }, { "gp", 3, 16 },
	{ "tp", 4, 24 }, { "s0", 8, 32 }, { "s1", 9, 40 }, { "s2", 18, 48 },
	{ "s3", 19, 56 }, { "s4", 20, 64 }, { "s5", 21, 72 },
	{ "s6", 22, 80 }, { "s7", 23, 88 }, { "s8", 24, 96 },
	{ "s9", 25, 104 }, { "s10", 26, 112 }, { "s11", 27, 120 },
};

static const struct dk_pcb_regs riscv_pcb = {
	.source		= "sys/riscv/include/pcb.h",
	.word		= 8,
	.pcb_min	= 128,
	.prstatus_size	= 376,
	.pid_off	= 32,
	.cursig_off	= 12,
	.reg_off	= 112,
	.nregs		= 32,
	.prpsinfo_size	= 136,
	.psinfo_pid_off	= 24,
	.psinfo_fname_off = 40,
	.slots		= riscv_pcb_slots,
	.nslots		= DK_ARRAY_LEN(riscv_pcb_slots),
};

const struct dk_arch_ops dk_arch_riscv = {
	.name		= "riscv",
	.rows		= riscv_rows,
	.nrows		= DK_ARRAY_LEN(riscv_rows),
	.page_shift	= RISCV_PAGE_SHIFT,
	.minidump	= &dk_md_riscv,
	.walks		= riscv_walks,
	.nwalks		= DK_ARRAY_LEN(riscv_walks),
	.prot		= riscv_prot,
	.pcb		= &riscv_pcb,
};
