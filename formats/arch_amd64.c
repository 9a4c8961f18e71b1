/*
 * arch_amd64.c -- amd64 minidumps: header layout, page-table area and
 * address translation (FORMATS.md 1.2 "amd64", 2.1).
 *
 * Version 1 (2006): the pmap area is one 8-byte PTE per 4 KiB page from
 * kernbase.  Versions 2 and 3: one 8-byte PDE per 2 MiB from kernbase,
 * written as one page of 512 PDEs per GiB of KVA; a PDE without PG_PS
 * points at a page-table page that is itself in the dump.  1 GiB pages
 * are pre-expanded by the kernel into 512 PS PDEs, so the reader needs
 * no case for them.  Version 3 adds dump_avail.  Little-endian only.
 * The direct map starts at PA 0.
 *
 * The constants are spelled out here, never taken from a host header,
 * so that this file builds and is tested on any host.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "kthreads.h"
#include "private.h"

#define	AMD64_PAGE_SHIFT	12
#define	AMD64_PDRSHIFT		21		/* 2 MiB */
#define	AMD64_NPTEPG		512
#define	AMD64_PG_V		0x1ull
#define	AMD64_PG_RW		0x2ull
#define	AMD64_PG_A		0x20ull
#define	AMD64_PG_M		0x40ull
#define	AMD64_PG_PS		0x80ull
#define	AMD64_PG_G		0x100ull
#define	AMD64_PG_NX		(1ull << 63)
#define	AMD64_PG_FRAME		0x000ffffffffff000ull
#define	AMD64_PG_PS_FRAME	0x000fffffffe00000ull
#define	AMD64_PS_LOW		0x00000000001fe000ull	/* not PAT (bit 12) */
#define	AMD64_EM_X86_64		62		/* the kernel's e_machine */
#define	AMD64_ELFCLASS64	2

#define	V123	(DK_V(1) | DK_V(2) | DK_V(3))

static const struct dk_field amd64_fields[] = {
	{ "magic", 0, 24, DK_FK_CHARS, DK_H_MAGIC, V123, "char[24]",
	  "\"minidump FreeBSD/amd64\", NUL-padded" },
	{ "version", 24, 4, DK_FK_UINT, DK_H_VERSION, V123, "uint32_t",
	  "1, 2 or 3" },
	{ "msgbufsize", 28, 4, DK_FK_UINT, DK_H_MSGBUFSIZE, V123, "uint32_t",
	  "bytes of the message buffer" },
	{ "bitmapsize", 32, 4, DK_FK_UINT, DK_H_BITMAPSIZE, V123, "uint32_t",
	  "bytes of the page bitmap" },
	{ "pmapsize", 36, 4, DK_FK_UINT, DK_H_PMAPSIZE, V123, "uint32_t",
	  "bytes of the page-table area (ptesize in v1)" },
	{ "kernbase", 40, 8, DK_FK_UINT, DK_H_KERNBASE, V123, "uint64_t",
	  "first KVA the page-table area describes" },
	{ "dmapbase", 48, 8, DK_FK_UINT, DK_H_DMAPBASE, V123, "uint64_t",
	  "DMAP_MIN_ADDRESS" },
	{ "dmapend", 56, 8, DK_FK_UINT, DK_H_DMAPEND, V123, "uint64_t",
	  "DMAP_MAX_ADDRESS" },
	{ "dumpavailsize", 64, 4, DK_FK_UINT, DK_H_DUMPAVAILSIZE, DK_V(3),
	  "uint32_t", "bytes of the dump_avail section" },
	{ "(padding)", 68, 4, DK_FK_PAD, DK_H_PAD, DK_V(3), NULL,
	  "tail padding to the struct's 8-byte alignment" },
};

static const struct dk_layout amd64_layout = {
	"minidump-amd64", amd64_fields, DK_ARRAY_LEN(amd64_fields)
};

static unsigned
amd64_bitmap_word(const struct dk_arch *a, uint32_t version)
{
	(void)a;
	(void)version;
	return 8;
}

static enum dk_status
amd64_setup(struct dk_dump *d, struct dk_err *err)
{
	const struct dk_hdr *h = &d->hdr;

	d->page_shift = AMD64_PAGE_SHIFT;
	dk_md(d)->pte_size = 8;
	if (h->v[DK_H_DMAPEND] < h->v[DK_H_DMAPBASE])
		return dk_err_off(err, DK_ECORRUPT, 56, "%s: offset 56: "
		    "dmapend %#jx is below dmapbase %#jx", d->src.name,
		    (uintmax_t)h->v[DK_H_DMAPEND],
		    (uintmax_t)h->v[DK_H_DMAPBASE]);
	dk_add_window(d, DK_WIN_DIRECT_MAP, "direct map",
	    h->v[DK_H_DMAPBASE], h->v[DK_H_DMAPEND], 0);
	d->info.kva_end = h->v[DK_H_KERNBASE] + (h->v[DK_H_PMAPSIZE] / 8 <<
	    (d->info.version == 1 ? AMD64_PAGE_SHIFT : AMD64_PDRSHIFT));
	return DK_OK;
}

/* The protection of a valid entry (one format: fmt is not read). */
static unsigned
amd64_prot(uint64_t e, unsigned fmt)
{
	(void)fmt;
	return ((e & AMD64_PG_RW) ? DK_PROT_W : 0) |
	    ((e & AMD64_PG_NX) ? 0 : DK_PROT_X);
}

static enum dk_status
amd64_kvtop(struct dk_dump *d, uint64_t va, uint64_t *pa, unsigned *prot,
    struct dk_err *err)
{
	uint64_t kb = d->hdr.v[DK_H_KERNBASE], e, pt, idx;
	unsigned shift = d->info.version == 1 ? AMD64_PAGE_SHIFT :
	    AMD64_PDRSHIFT;
	enum dk_status st;

	if (va < kb)
		return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address %#jx: "
		    "not mapped (below kernbase %#jx, outside the direct map)",
		    (uintmax_t)va, (uintmax_t)kb);
	idx = (va - kb) >> shift;
	if ((st = dk_md_pmap_entry(d, idx, &e, err)) != DK_OK)
		return dk_err_prefix(err, "virtual address %#jx",
		    (uintmax_t)va);
	if (!(e & AMD64_PG_V)) {
		/*
		 * An invalid PDE leaves its whole 2 MiB unmapped; a run of
		 * zero entries (PTEs or PDEs) all they map.
		 */
		if (e == 0)
			dk_md_pmap_zero(d, va, idx, shift);
		else if (d->info.version != 1)
			d->unmapped_to = (va | ((1ull << AMD64_PDRSHIFT) - 1)) +
			    1;
		return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address %#jx: "
		    "not mapped (%s %#jx has no PG_V)", (uintmax_t)va,
		    d->info.version == 1 ? "PTE" : "PDE", (uintmax_t)e);
	}
	if (d->info.version == 1) {
		*pa = (e & AMD64_PG_FRAME) | (va & 0xfff);
	} else if (e & AMD64_PG_PS) {
		*pa = (e & AMD64_PG_PS_FRAME) | (va & 0x1fffff);
		d->mapped_to = (va | ((1ull << AMD64_PDRSHIFT) - 1)) + 1;
		DK_TRACE(d, "va %#jx: 2 MiB page, PDE %#jx", (uintmax_t)va,
		    (uintmax_t)e);
	} else {
		pt = (e & AMD64_PG_FRAME) + ((va >> AMD64_PAGE_SHIFT) &
		    (AMD64_NPTEPG - 1)) * 8;
		if ((st = dk_read_pa_u64(d, pt, &e, err)) != DK_OK) {
			/* A page-table page not in the dump: its 2 MiB. */
			if (st == DK_ENOTDUMPED || st == DK_ETRUNC)
				d->unmapped_to = (va | ((1ull <<
				    AMD64_PDRSHIFT) - 1)) + 1;
			return dk_err_prefix(err, "virtual address %#jx: "
			    "page-table page", (uintmax_t)va);
		}
		DK_TRACE(d, "va %#jx: PTE at pa %#jx = %#jx", (uintmax_t)va,
		    (uintmax_t)pt, (uintmax_t)e);
		if (!(e & AMD64_PG_V))
			return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address "
			    "%#jx: not mapped (PTE %#jx at pa %#jx has no "
			    "PG_V)", (uintmax_t)va, (uintmax_t)e,
			    (uintmax_t)pt);
		*pa = (e & AMD64_PG_FRAME) | (va & 0xfff);
	}
	if (prot != NULL)
		*prot = amd64_prot(e, 0);
	return DK_OK;
}

/*
 * dumpcheck's page-table pass, versions 2 and 3: a PDE per 2 MiB; a PDE
 * without PG_PS points at a page-table page that is itself a page of
 * the dump (FORMATS.md 8.7).  The PDE's structure bits are read here,
 * the leaves through kvtop.  A page-table page that maps itself is a
 * loop.  Version 1, a PTE per page, is the validator's own walk.
 */
static int
amd64_pt_visit(struct dk_dump *d, const struct dk_pt_visitor *v)
{
	uint64_t kb = d->info.kernbase;
	struct dk_err e;
	char what[64], msg[256];

	if (d->info.version < 2)
		return 0;
	for (uint64_t i = 0; i < dk_md(d)->pmap_nent; i++) {
		uint64_t pde, off = dk_md(d)->off_pmap + 8 * i, va0 = kb + (i << 21);
		uint64_t pt, ptoff;

		if (dk_md_pmap_entry(d, i, &pde, &e) != DK_OK)
			break;
		if (pde == 0) {		/* a run of them: on to the next */
			i = dk_md_pmap_nonzero(d, i + 1) - 1;
			continue;
		}
		if (!(pde & AMD64_PG_V))
			continue;
		if (pde & AMD64_PG_PS) {
			if (pde & AMD64_PS_LOW) {
				snprintf(msg, sizeof(msg), "PDE %ju for va "
				    "%#jx maps a 2 MiB page: expected a 2 MiB-"
				    "aligned frame, found %#jx", (uintmax_t)i,
				    (uintmax_t)va0, (uintmax_t)(pde &
				    AMD64_PG_FRAME));
				v->misaligned(v->arg, off, msg);
			}
			v->leaf(v->arg, va0, pde & AMD64_PG_PS_FRAME, off, 1);
			continue;
		}
		pt = pde & AMD64_PG_FRAME;
		snprintf(what, sizeof(what), "PDE %ju for va %#jx",
		    (uintmax_t)i, (uintmax_t)va0);
		if (!v->table(v->arg, pt, off, what) ||
		    dk_pa_offset(d, pt, &ptoff, &e) != DK_OK)
			continue;
		for (unsigned j = 0; j < 512; j++) {
			uint64_t va = va0 + ((uint64_t)j << 12), pa;

			if (dk_md_kvtop_prot(d, va, &pa, NULL, &e) != DK_OK)
				continue;
			if ((pa & ~0xfffull) == pt) {
				snprintf(msg, sizeof(msg), "the page-table "
				    "page at pa %#jx maps itself: entry %u (va "
				    "%#jx) points back at it", (uintmax_t)pt,
				    j, (uintmax_t)va);
				v->loop(v->arg, ptoff + 8 * j, msg);
			} else
				v->leaf(v->arg, va, pa, ptoff + 8 * j, 0);
		}
	}
	return 1;
}

static uint64_t
amd64_pte(uint64_t pa, unsigned prot)
{
	return pa | AMD64_PG_V | AMD64_PG_A | AMD64_PG_M | AMD64_PG_G |
	    ((prot & DK_PROT_W) ? AMD64_PG_RW : 0) |
	    ((prot & DK_PROT_X) ? 0 : AMD64_PG_NX);
}

/*
 * Encode the maps as the kernel writes them.  v1: a PTE per page (large
 * maps expanded).  v2+: a page of PDEs per GiB; a large map becomes PS
 * PDEs, small maps go to page-table pages taken from alloc_pt.
 */
static enum dk_status
amd64_pmap_build(struct dk_pmap_build *b, struct dk_err *err)
{
	uint64_t kb = b->hdr->v[DK_H_KERNBASE];
	unsigned shift = b->version == 1 ? AMD64_PAGE_SHIFT : AMD64_PDRSHIFT;
	uint64_t unit = (uint64_t)AMD64_NPTEPG << shift;
	uint64_t nent, *ptidx = NULL;

	if (b->kva_end < kb)
		return dk_err_set(err, DK_EINVAL, "amd64 pmap: end of the "
		    "kernel map %#jx is below kernbase %#jx",
		    (uintmax_t)b->kva_end, (uintmax_t)kb);
	for (size_t m = 0; m < b->nmaps; m++) {
		const struct dk_map *mp = &b->maps[m];
		uint64_t align = (mp->large && b->version != 1 ?
		    (1ull << AMD64_PDRSHIFT) : (1ull << AMD64_PAGE_SHIFT)) - 1;

		if (((mp->va | mp->pa | mp->len) & align) != 0 ||
		    mp->va < kb || mp->va > b->kva_end ||
		    mp->len > b->kva_end - mp->va ||
		    ((mp->pa + mp->len - 1) & ~AMD64_PG_FRAME & ~0xfffull) != 0)
			return dk_err_set(err, DK_EINVAL, "amd64 pmap: map %zu "
			    "(va %#jx, pa %#jx, %#jx bytes) is not "
			    "%#jx-aligned inside KVA [%#jx, %#jx) and 52-bit PA",
			    m, (uintmax_t)mp->va, (uintmax_t)mp->pa,
			    (uintmax_t)mp->len, (uintmax_t)(align + 1),
			    (uintmax_t)kb, (uintmax_t)b->kva_end);
	}
	nent = ((b->kva_end - kb) / unit + ((b->kva_end - kb) % unit != 0)) *
	    AMD64_NPTEPG;
	if (nent > UINT32_MAX / 8)
		return dk_err_set(err, DK_EINVAL, "amd64 pmap: the kernel map "
		    "[%#jx, %#jx) needs a pmap area larger than pmapsize "
		    "(32 bits) can state", (uintmax_t)kb,
		    (uintmax_t)b->kva_end);
	b->pmap_len = nent * 8;
	b->pmap = calloc(1, b->pmap_len);
	if (b->version != 1)
		ptidx = calloc(nent, sizeof(*ptidx));	/* 1 + page index */
	b->pt_pa = calloc(nent, sizeof(*b->pt_pa));
	if (b->pmap == NULL || (b->version != 1 && ptidx == NULL) ||
	    b->pt_pa == NULL) {
		free(ptidx);
		return dk_err_set(err, DK_ENOMEM, "pmap: out of memory");
	}
	for (size_t m = 0; m < b->nmaps; m++) {
		const struct dk_map *mp = &b->maps[m];

		for (uint64_t o = 0; o < mp->len; ) {
			uint64_t va = mp->va + o, i = (va - kb) >> shift;
			uint64_t pte = amd64_pte(mp->pa + o, mp->prot);

			if (b->version == 1) {
				enc_le64(b->pmap + 8 * i, pte);
				o += 1u << AMD64_PAGE_SHIFT;
			} else if (mp->large) {
				enc_le64(b->pmap + 8 * i, pte | AMD64_PG_PS);
				o += 1u << AMD64_PDRSHIFT;
			} else {
				uint8_t *pt;

				if (ptidx[i] == 0) {
					uint8_t *nd = realloc(b->pt_data,
					    (b->npt + 1) << AMD64_PAGE_SHIFT);

					if (nd == NULL) {
						free(ptidx);
						return dk_err_set(err,
						    DK_ENOMEM, "pmap: out of "
						    "memory");
					}
					b->pt_data = nd;
					memset(nd + (b->npt << 12), 0, 4096);
					b->pt_pa[b->npt] = b->alloc_pt(
					    b->alloc_arg);
					enc_le64(b->pmap + 8 * i,
					    b->pt_pa[b->npt] | AMD64_PG_V |
					    AMD64_PG_RW | AMD64_PG_A);
					ptidx[i] = ++b->npt;
				}
				pt = b->pt_data + ((ptidx[i] - 1) << 12);
				enc_le64(pt + 8 * ((va >> 12) & 511), pte);
				o += 1u << AMD64_PAGE_SHIFT;
			}
		}
	}
	free(ptidx);
	return DK_OK;
}

static void
amd64_gen_defaults(const struct dk_arch *a, uint32_t version,
    struct dk_mdgen *g, struct dk_hdr *h)
{
	(void)a;
	memset(g, 0, sizeof(*g));
	if (version == 1) {
		/* 2006: KVA was the 2 GiB below the top, DMAP 512 GiB. */
		g->kernbase = 0xffffffff80000000ull;
		g->dmap_base = 0xffffff0000000000ull;
		g->dmap_end = 0xffffff8000000000ull;
		g->ktext_va = 0xffffffff80200000ull;
		g->kmem_va = 0xffffffff90000000ull;
		g->pmap_unit = 1ull << 21;
	} else {
		/* VM_MIN_KERNEL_ADDRESS, and a 4 TiB DMAP (FreeBSD 13). */
		g->kernbase = 0xfffffe0000000000ull;
		g->dmap_base = 0xfffff80000000000ull;
		g->dmap_end = 0xfffffc0000000000ull;
		g->ktext_va = 0xffffffff80200000ull;
		g->kmem_va = 0xfffffe0000200000ull;
		g->pmap_unit = 1ull << 30;
	}
	g->phys_base = 0;
	g->large_size = 1ull << 21;
	g->phys_max = 1ull << 52;
	g->msgbufsize = 0x18000 - 0x40;	/* MSGBUF_SIZE less struct msgbuf */
	h->v[DK_H_KERNBASE] = g->kernbase;
	h->v[DK_H_DMAPBASE] = g->dmap_base;
	h->v[DK_H_DMAPEND] = g->dmap_end;
}

/* The fixture variants of `dumpgen --list`. */
static const struct dk_mdvariant amd64_variants[] = {
	{ 1, "-", "PTE page-table area (2006)", { { 0, 0, NULL } } },
	{ 2, "-", "PDE page-table area (2010)", { { 0, 0, NULL } } },
	{ 3, "-", "PDE area, dump_avail (2020)", { { 0, 0, NULL } } },
};

const struct dk_mdarch dk_md_amd64 = {
	.family		= "amd64",
	.magic		= "minidump FreeBSD/amd64",
	.layout		= &amd64_layout,
	.versions	= V123,
	.bitmap_word	= amd64_bitmap_word,
	.setup		= amd64_setup,
	.kvtop		= amd64_kvtop,
	.pt_visit	= amd64_pt_visit,
	.pmap_build	= amd64_pmap_build,
	.gen_defaults	= amd64_gen_defaults,
	.variants	= amd64_variants,
	.nvariants	= DK_ARRAY_LEN(amd64_variants),
};

/* ---------------------------------------------------------------------- */
/* Full ELF cores: the hardware page tables (FORMATS.md 4.2).             */

#define	AMD64_PDPSHIFT		30		/* 1 GiB */
#define	AMD64_PML4SHIFT		39
#define	AMD64_PML5SHIFT		48
#define	AMD64_PG_1GB_FRAME	0x000fffffc0000000ull

/*
 * The four- or five-level walk (w->levels) from the top table at root:
 * PML5E (5-level paging only), PML4E, PDPE (PS: 1 GiB), PDE (PS:
 * 2 MiB), PTE.  The hardware sign-extends bit w->va_bits - 1 (47, or
 * 56 with LA57); a VA that is not canonical has no translation.
 */
static enum dk_status
amd64_walk(struct dk_dump *d, const struct dk_pt_walk *w, uint64_t root,
    uint64_t va, uint64_t *pa, unsigned *prot, struct dk_err *err)
{
	static const struct {
		unsigned	 shift;
		uint64_t	 ps_frame;	/* 0: no large page here */
		const char	*name;
	} lv[] = {
		{ AMD64_PML5SHIFT, 0, "PML5E" },
		{ AMD64_PML4SHIFT, 0, "PML4E" },
		{ AMD64_PDPSHIFT, AMD64_PG_1GB_FRAME, "PDPE" },
		{ AMD64_PDRSHIFT, AMD64_PG_PS_FRAME, "PDE" },
		{ AMD64_PAGE_SHIFT, 0, "PTE" },
	};
	unsigned top = 64 - w->va_bits;
	uint64_t table = root, e = 0, at;
	enum dk_status st;

	if (!(w->levels == 4 && w->va_bits == 48) &&
	    !(w->levels == 5 && w->va_bits == 57))
		return dk_err_set(err, DK_EINVAL, "amd64 walk %s: %u levels "
		    "of %u VA bits: expected 4 of 48 or 5 of 57", w->name,
		    w->levels, w->va_bits);
	if ((uint64_t)((int64_t)(va << top) >> top) != va)
		return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address %#jx: "
		    "not canonical (bits 63..%u are not copies of bit %u)",
		    (uintmax_t)va, w->va_bits, w->va_bits - 1);
	for (size_t i = DK_ARRAY_LEN(lv) - w->levels; i < DK_ARRAY_LEN(lv);
	    i++) {
		at = (table & AMD64_PG_FRAME) + ((va >> lv[i].shift) &
		    (AMD64_NPTEPG - 1)) * 8;
		if ((st = dk_read_pa_u64(d, at, &e, err)) != DK_OK) {
			/* A table the dump lacks: the entry above's block. */
			if (i > 0 && (st == DK_ENOTDUMPED || st == DK_ETRUNC))
				d->unmapped_to = dk_block_end(va, (1ull <<
				    lv[i - 1].shift) - 1);
			return dk_err_prefix(err, "virtual address %#jx: %s",
			    (uintmax_t)va, lv[i].name);
		}
		DK_TRACE(d, "va %#jx: %s at pa %#jx = %#jx", (uintmax_t)va,
		    lv[i].name, (uintmax_t)at, (uintmax_t)e);
		/* An invalid entry leaves its whole block unmapped. */
		if (!(e & AMD64_PG_V) && i + 1 < DK_ARRAY_LEN(lv))
			d->unmapped_to = dk_block_end(va, (1ull <<
			    lv[i].shift) - 1);
		if (!(e & AMD64_PG_V))
			return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address "
			    "%#jx: not mapped (%s %#jx at pa %#jx has no PG_V)",
			    (uintmax_t)va, lv[i].name, (uintmax_t)e,
			    (uintmax_t)at);
		if (lv[i].ps_frame != 0 && (e & AMD64_PG_PS)) {
			uint64_t mask = (1ull << lv[i].shift) - 1;

			*pa = (e & lv[i].ps_frame) | (va & mask);
			d->mapped_to = dk_block_end(va, mask);
			break;
		}
		if (i + 1 == DK_ARRAY_LEN(lv))
			*pa = (e & AMD64_PG_FRAME) | (va & 0xfff);
		table = e;
	}
	if (prot != NULL)
		*prot = amd64_prot(e, 0);
	return DK_OK;
}

/* ---------------------------------------------------------------------- */
/* The module (arch.c lists it).                                           */

/*
 * The full-core walk (fmt_elf.c finds its root, KPML4phys); Linux's
 * with 5-level paging (linux.c: NUMBER(pgtable_l5_enabled)).
 */
static const struct dk_pt_walk amd64_walks[] = {
	{ "amd64 4-level", 4, AMD64_PAGE_SHIFT, 48, 8, NULL, amd64_walk },
	{ "amd64 5-level", 5, AMD64_PAGE_SHIFT, 57, 8, NULL, amd64_walk },
};

static const struct dk_arch amd64_rows[] = {
	{ .name = "amd64", .aliases = "x86_64", .family = "amd64",
	  .endian = DK_LE, .elf_machine = AMD64_EM_X86_64,
	  .elf_class = AMD64_ELFCLASS64, .long_size = 8,
	  .minidump = &dk_md_amd64, .ops = &dk_arch_amd64 },
};

/*
 * Threads' registers: struct pcb (sys/amd64/include/pcb.h, FORMATS.md
 * 6.2: pcb_r15, r14, r13, r12, rbp, rsp, rbx, rip, 8 bytes each from 0)
 * into gdb's amd64 NT_PRSTATUS (336 bytes; pr_pid at 32, pr_reg at 112:
 * 27 words in the order r15 r14 r13 r12 rbp rbx r11 r10 r9 r8 rax rcx
 * rdx rsi rdi orig_rax rip cs eflags rsp ss fs_base gs_base ds es fs gs)
 * and NT_PRPSINFO (136 bytes; pr_pid at 24, pr_fname at 40).  The
 * registers a pcb does not save stay 0, as kgdb leaves them unknown.
 */
static const struct dk_pcb_slot amd64_pcb_slots[] = {
	{ "r15", 0, 0 }, { "r14", 1, 8 }, { "r13", 2, 16 }, { "r12", 3, 24 },
	{ "rbp", 4, 32 }, { "rsp", 19, 40 }, { "rbx", 5, 48 },
	{ "rip", 16, 56 },
};

static const struct dk_pcb_regs amd64_pcb = {
	.source		= "sys/amd64/include/pcb.h",
	.word		= 8,
	.pcb_min	= 64,
	.prstatus_size	= 336,
	.pid_off	= 32,
	.cursig_off	= 12,
	.reg_off	= 112,
	.nregs		= 27,
	.prpsinfo_size	= 136,
	.psinfo_pid_off	= 24,
	.psinfo_fname_off = 40,
	.slots		= amd64_pcb_slots,
	.nslots		= DK_ARRAY_LEN(amd64_pcb_slots),
};

const struct dk_arch_ops dk_arch_amd64 = {
	.name		= "amd64",
	.rows		= amd64_rows,
	.nrows		= DK_ARRAY_LEN(amd64_rows),
	.page_shift	= AMD64_PAGE_SHIFT,
	.minidump	= &dk_md_amd64,
	.walks		= amd64_walks,
	.nwalks		= DK_ARRAY_LEN(amd64_walks),
	.prot		= amd64_prot,
	.pcb		= &amd64_pcb,
};
