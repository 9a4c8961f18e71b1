/*
 * arch_i386.c -- i386 minidumps: header layout, page-table area and
 * address translation (FORMATS.md 1.2 "i386", 2.2).
 *
 * Version 1 (2006) and version 2 (2020-09, adds dumpavailsize and the
 * dump_avail section); little-endian only; 4-byte bitmap words.  The
 * header's paemode field (present since version 1) says how wide a PTE
 * is: 0 for the classic 4-byte entries, 1 for PAE 8-byte entries.
 *
 * The pmap area is a flat array of PTEs, one per 4 KiB page from
 * kernbase (KERNBASE) up to kernel_vm_end.  The kernel writes one page
 * of PTEs per page-directory entry (NBPDR: 4 MiB without PAE, 2 MiB
 * with it): the real page-table page, a zero page for an invalid PDE,
 * or, for a large (PG_PS) PDE, a synthetic page whose entry k is
 * (pa + k * 4096) | PG_V | PG_RW | PG_A | PG_M.  The reader therefore
 * has no large-page case, and large pages read as writable and (with
 * PAE) executable whatever their PDE said.  There is no direct map.
 *
 * Decisions where FORMATS.md leaves room:
 *  - paemode other than 0 or 1 is refused as corrupt (libkvm treats any
 *    non-zero value as PAE; the kernel only writes 0 or 1).
 *  - A ptesize that would describe KVA past 4 GiB is refused as corrupt:
 *    the kernel cannot write it, and an i386 VA has 32 bits.
 *  - Without PAE there is no NX bit, so every page reads as executable.
 *
 * The constants are spelled out here, never taken from a host header,
 * so that this file builds and is tested on any host.
 */
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "kthreads.h"
#include "private.h"

#define	I386_PAGE_SHIFT		12
#define	I386_PAGE_SIZE		(1u << I386_PAGE_SHIFT)
#define	I386_PAGE_MASK		(I386_PAGE_SIZE - 1)
#define	I386_NPTEPG		1024		/* 4-byte PTEs per page */
#define	I386_NPTEPG_PAE		512		/* 8-byte PTEs per page */
#define	I386_PG_V		0x1ull
#define	I386_PG_RW		0x2ull
#define	I386_PG_A		0x20ull
#define	I386_PG_M		0x40ull
#define	I386_PG_G		0x100ull
#define	I386_PG_NX		(1ull << 63)	/* PAE only */
#define	I386_PG_FRAME		0xfffff000ull
#define	I386_PG_FRAME_PAE	0x000ffffffffff000ull
#define	I386_EM_386		3		/* the kernel's e_machine */
#define	I386_ELFCLASS32		1
#define	I386_KERNBASE		0xc0000000ull
#define	I386_KERNLOAD		0x00400000ull	/* kernel image offset */
#define	I386_VA_END		(1ull << 32)	/* end of the address space */
#define	I386_PHYS_MAX		(1ull << 32)
#define	I386_PHYS_MAX_PAE	(1ull << 36)
#define	I386_MSGBUF_SIZE	0x18000u	/* MSGBUF_SIZE */
#define	I386_MSGBUF_HDR		0x30u		/* sizeof(struct msgbuf) */

#define	V12	(DK_V(1) | DK_V(2))

static const struct dk_field i386_fields[] = {
	{ "magic", 0, 24, DK_FK_CHARS, DK_H_MAGIC, V12, "char[24]",
	  "\"minidump FreeBSD/i386\", NUL-padded" },
	{ "version", 24, 4, DK_FK_UINT, DK_H_VERSION, V12, "uint32_t",
	  "1 or 2" },
	{ "msgbufsize", 28, 4, DK_FK_UINT, DK_H_MSGBUFSIZE, V12, "uint32_t",
	  "bytes of the message buffer" },
	{ "bitmapsize", 32, 4, DK_FK_UINT, DK_H_BITMAPSIZE, V12, "uint32_t",
	  "bytes of the page bitmap" },
	{ "ptesize", 36, 4, DK_FK_UINT, DK_H_PMAPSIZE, V12, "uint32_t",
	  "bytes of the PTE array" },
	{ "kernbase", 40, 4, DK_FK_UINT, DK_H_KERNBASE, V12, "uint32_t",
	  "KERNBASE, the first KVA the PTE array describes" },
	{ "paemode", 44, 4, DK_FK_UINT, DK_H_PAEMODE, V12, "uint32_t",
	  "0: 4-byte PTEs, 1: PAE 8-byte PTEs" },
	{ "dumpavailsize", 48, 4, DK_FK_UINT, DK_H_DUMPAVAILSIZE, DK_V(2),
	  "uint32_t", "bytes of the dump_avail section" },
};

static const struct dk_layout i386_layout = {
	"minidump-i386", i386_fields, DK_ARRAY_LEN(i386_fields)
};

static unsigned
i386_bitmap_word(const struct dk_arch *a, uint32_t version)
{
	(void)a;
	(void)version;
	return 4;
}

static enum dk_status
i386_setup(struct dk_dump *d, struct dk_err *err)
{
	struct dk_md *m = dk_md(d);
	const struct dk_hdr *h = &d->hdr;
	uint64_t pae = h->v[DK_H_PAEMODE], kb = h->v[DK_H_KERNBASE];
	uint64_t ptesize = h->v[DK_H_PMAPSIZE];

	if (pae > 1)
		return dk_err_off(err, DK_ECORRUPT, 44, "%s: offset 44: "
		    "expected paemode 0 or 1, found %ju", d->src.name,
		    (uintmax_t)pae);
	d->page_shift = I386_PAGE_SHIFT;
	m->pte_size = pae ? 8 : 4;
	if (ptesize % m->pte_size != 0)
		return dk_err_off(err, DK_ECORRUPT, 36, "%s: offset 36: "
		    "ptesize %#jx is not a multiple of the %u-byte %s PTE",
		    d->src.name, (uintmax_t)ptesize, m->pte_size,
		    pae ? "PAE" : "non-PAE");
	d->info.kva_end = kb + (ptesize / m->pte_size << I386_PAGE_SHIFT);
	if (d->info.kva_end > I386_VA_END)
		return dk_err_off(err, DK_ECORRUPT, 36, "%s: offset 36: "
		    "ptesize %#jx describes KVA from kernbase %#jx to %#jx, "
		    "past the 4 GiB address space", d->src.name,
		    (uintmax_t)ptesize, (uintmax_t)kb,
		    (uintmax_t)d->info.kva_end);
	DK_TRACE(d, "i386: %s, %u-byte PTEs, KVA [%#jx, %#jx)",
	    pae ? "PAE" : "non-PAE", m->pte_size, (uintmax_t)kb,
	    (uintmax_t)d->info.kva_end);
	return DK_OK;
}

/* The protection of a valid entry; fmt (pae) 0: 4 bytes, 1: PAE, NX. */
static unsigned
i386_prot(uint64_t e, unsigned pae)
{
	return ((e & I386_PG_RW) ? DK_PROT_W : 0) |
	    ((pae && (e & I386_PG_NX)) ? 0 : DK_PROT_X);
}

static enum dk_status
i386_kvtop(struct dk_dump *d, uint64_t va, uint64_t *pa, unsigned *prot,
    struct dk_err *err)
{
	struct dk_md *m = dk_md(d);
	uint64_t kb = d->hdr.v[DK_H_KERNBASE], idx, e;
	int pae = m->pte_size == 8;
	enum dk_status st;

	if (va < kb)
		return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address %#jx: "
		    "not mapped (below kernbase %#jx; i386 has no direct map)",
		    (uintmax_t)va, (uintmax_t)kb);
	idx = (va - kb) >> I386_PAGE_SHIFT;
	if (idx >= m->pmap_nent)
		return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address %#jx: "
		    "not mapped (past the end of the PTE array at %#jx)",
		    (uintmax_t)va, (uintmax_t)d->info.kva_end);
	if ((st = dk_md_pmap_entry(d, idx, &e, err)) != DK_OK)
		return dk_err_prefix(err, "virtual address %#jx",
		    (uintmax_t)va);
	if (e == 0)		/* invalid, and maybe more after it */
		dk_md_pmap_zero(d, va, idx, I386_PAGE_SHIFT);
	if (!(e & I386_PG_V))
		return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address %#jx: "
		    "not mapped (%sPTE %#jx has no PG_V)", (uintmax_t)va,
		    pae ? "PAE " : "", (uintmax_t)e);
	*pa = (e & (pae ? I386_PG_FRAME_PAE : I386_PG_FRAME)) |
	    (va & I386_PAGE_MASK);
	DK_TRACE(d, "va %#jx: %sPTE %#jx -> pa %#jx", (uintmax_t)va,
	    pae ? "PAE " : "", (uintmax_t)e, (uintmax_t)*pa);
	if (prot != NULL)
		*prot = i386_prot(e, pae);
	return DK_OK;
}

/* The PTE of a small mapping, as pmap_kenter() makes one. */
static uint64_t
i386_pte(uint64_t pa, unsigned prot, int pae)
{
	return pa | I386_PG_V | I386_PG_A | I386_PG_M | I386_PG_G |
	    ((prot & DK_PROT_W) ? I386_PG_RW : 0) |
	    ((pae && !(prot & DK_PROT_X)) ? I386_PG_NX : 0);
}

/*
 * Encode the maps as the kernel writes them: a PTE per 4 KiB page, one
 * page of PTEs per NBPDR of KVA from kernbase.  A large map is written
 * as the kernel expands a PS PDE: PG_V | PG_RW | PG_A | PG_M, with no
 * PG_NX, so its own protection is lost.  paemode comes from the header;
 * any non-zero value gives 8-byte entries (the reader refuses values
 * above 1, which lets a fixture for that refusal be written).
 */
static enum dk_status
i386_pmap_build(struct dk_pmap_build *b, struct dk_err *err)
{
	uint64_t kb = b->hdr->v[DK_H_KERNBASE];
	int pae = b->hdr->v[DK_H_PAEMODE] != 0;
	unsigned esize = pae ? 8 : 4;
	uint64_t unit = (uint64_t)(pae ? I386_NPTEPG_PAE : I386_NPTEPG) <<
	    I386_PAGE_SHIFT;
	uint64_t pmax = pae ? I386_PHYS_MAX_PAE : I386_PHYS_MAX;

	if (b->page_shift != I386_PAGE_SHIFT)
		return dk_err_set(err, DK_EINVAL, "i386 pmap: page shift %u, "
		    "expected %u", b->page_shift, I386_PAGE_SHIFT);
	if (b->kva_end < kb || b->kva_end > I386_VA_END)
		return dk_err_set(err, DK_EINVAL, "i386 pmap: end of the "
		    "kernel map %#jx is outside [kernbase %#jx, 4 GiB]",
		    (uintmax_t)b->kva_end, (uintmax_t)kb);
	for (size_t m = 0; m < b->nmaps; m++) {
		const struct dk_map *mp = &b->maps[m];

		if (((mp->va | mp->pa | mp->len) & I386_PAGE_MASK) != 0 ||
		    mp->va < kb || mp->va > b->kva_end ||
		    mp->len > b->kva_end - mp->va ||
		    mp->pa >= pmax || mp->len > pmax - mp->pa)
			return dk_err_set(err, DK_EINVAL, "i386 pmap: map %zu "
			    "(va %#jx, pa %#jx, %#jx bytes) is not "
			    "page-aligned inside KVA [%#jx, %#jx) and PA "
			    "[0, %#jx)", m, (uintmax_t)mp->va,
			    (uintmax_t)mp->pa, (uintmax_t)mp->len,
			    (uintmax_t)kb, (uintmax_t)b->kva_end,
			    (uintmax_t)pmax);
	}
	b->pmap_len = (b->kva_end - kb + unit - 1) / unit * I386_PAGE_SIZE;
	b->pmap = calloc(1, b->pmap_len != 0 ? b->pmap_len : 1);
	if (b->pmap == NULL)
		return dk_err_set(err, DK_ENOMEM, "pmap: out of memory");
	for (size_t m = 0; m < b->nmaps; m++) {
		const struct dk_map *mp = &b->maps[m];

		for (uint64_t o = 0; o < mp->len; o += I386_PAGE_SIZE) {
			uint64_t i = (mp->va + o - kb) >> I386_PAGE_SHIFT;
			uint64_t pte;

			if (mp->large)
				pte = (mp->pa + o) | I386_PG_V | I386_PG_RW |
				    I386_PG_A | I386_PG_M;
			else
				pte = i386_pte(mp->pa + o, mp->prot, pae);
			enc_uint(b->pmap + esize * i, esize, DK_LE, pte);
		}
	}
	return DK_OK;
}

/*
 * The defaults depend on paemode when the caller has already put it in
 * the header; without it they are the non-PAE ones, which also hold for
 * PAE (a 4 MiB unit is two PAE units, and 4 GiB is below 64 GiB).
 */
static void
i386_gen_defaults(const struct dk_arch *a, uint32_t version,
    struct dk_mdgen *g, struct dk_hdr *h)
{
	int pae = h->v[DK_H_PAEMODE] != 0;

	(void)a;
	(void)version;
	memset(g, 0, sizeof(*g));
	g->page_shift = I386_PAGE_SHIFT;
	g->kernbase = I386_KERNBASE;
	g->dmap_base = 0;
	g->dmap_end = 0;
	g->phys_base = 0;
	g->large_size = 0;		/* PS PDEs are pre-expanded */
	g->pmap_unit = (uint64_t)(pae ? I386_NPTEPG_PAE : I386_NPTEPG) <<
	    I386_PAGE_SHIFT;
	g->ktext_va = I386_KERNBASE + I386_KERNLOAD;
	g->kmem_va = I386_KERNBASE + 0x04000000ull;
	g->phys_max = pae ? I386_PHYS_MAX_PAE : I386_PHYS_MAX;
	g->msgbufsize = I386_MSGBUF_SIZE - I386_MSGBUF_HDR;
	h->v[DK_H_KERNBASE] = g->kernbase;
}

/* The fixture variants of `dumpgen --list`. */
static const struct dk_mdvariant i386_variants[] = {
	{ 1, "-", "4-byte PTEs", { { 0, 0, NULL } } },
	{ 1, "pae", "PAE, 8-byte PTEs", { { DK_H_PAEMODE, 1, NULL } } },
	{ 2, "-", "4-byte PTEs, dump_avail", { { 0, 0, NULL } } },
	{ 2, "pae", "PAE, 8-byte PTEs, dump_avail",
	  { { DK_H_PAEMODE, 1, NULL } } },
};

const struct dk_mdarch dk_md_i386 = {
	.family		= "i386",
	.magic		= "minidump FreeBSD/i386",
	.layout		= &i386_layout,
	.versions	= V12,
	.bitmap_word	= i386_bitmap_word,
	.setup		= i386_setup,
	.kvtop		= i386_kvtop,
	.pmap_build	= i386_pmap_build,
	.gen_defaults	= i386_gen_defaults,
	.variants	= i386_variants,
	.nvariants	= DK_ARRAY_LEN(i386_variants),
};

/* ---------------------------------------------------------------------- */
/* Full ELF cores: the hardware page tables (FORMATS.md 4.2).             */

#define	I386_PDRSHIFT		22		/* 4 MiB, non-PAE */
#define	I386_PDRSHIFT_PAE	21		/* 2 MiB */
#define	I386_PDPSHIFT_PAE	30		/* 4 PDPT entries of 1 GiB */
#define	I386_PG_PS		0x80ull
#define	I386_PG_PS_FRAME	0xffc00000ull
#define	I386_PG_PS_FRAME_PAE	0x000fffffffe00000ull

/* Read one entry (4 or 8 bytes) of a page-table page at pa. */
static enum dk_status
i386_entry(struct dk_dump *d, uint64_t pa, unsigned size, uint64_t *e,
    struct dk_err *err)
{
	uint8_t b[8];
	enum dk_status st;

	if ((st = dk_read_pt(d, pa, b, size, err)) != DK_OK)
		return st;
	*e = dec_uint(b, size, d->arch->endian);
	return DK_OK;
}

/*
 * Non-PAE: a page directory of 1024 4-byte PDEs at root (PS: 4 MiB),
 * then a page table of 1024 PTEs.  PAE (8-byte entries, w->pte_size): a
 * PDPT of 4 8-byte entries at root, each the PA of a page directory of
 * 512 PDEs (PS: 2 MiB), then a page table of 512 PTEs.  This is the
 * walk libkvm does from IdlePTD or IdlePDPT.
 */
static enum dk_status
i386_walk(struct dk_dump *d, const struct dk_pt_walk *w, uint64_t root,
    uint64_t va, uint64_t *pa, unsigned *prot, struct dk_err *err)
{
	int pae = w->pte_size == 8;
	unsigned esz = pae ? 8 : 4;
	uint64_t frame = pae ? I386_PG_FRAME_PAE : I386_PG_FRAME;
	uint64_t at, e, pd = root, blk;
	enum dk_status st;

	if (va >= I386_VA_END)
		return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address %#jx: "
		    "past the 32-bit address space", (uintmax_t)va);
	if (pae) {
		at = (root & ~0x1full) + (va >> I386_PDPSHIFT_PAE) * 8;
		if ((st = i386_entry(d, at, 8, &e, err)) != DK_OK)
			return dk_err_prefix(err, "virtual address %#jx: PDPT "
			    "entry", (uintmax_t)va);
		if (!(e & I386_PG_V)) {
			/* Its whole 1 GiB is unmapped: the walk jumps. */
			d->unmapped_to = (va | ((1ull << I386_PDPSHIFT_PAE) -
			    1)) + 1;
			return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address "
			    "%#jx: not mapped (PDPT entry %#jx at pa %#jx has "
			    "no PG_V)", (uintmax_t)va, (uintmax_t)e,
			    (uintmax_t)at);
		}
		pd = e & frame;
		at = pd + ((va >> I386_PDRSHIFT_PAE) & (I386_NPTEPG_PAE - 1)) *
		    8;
	} else
		at = (pd & frame) + (va >> I386_PDRSHIFT) * 4;
	if ((st = i386_entry(d, at, esz, &e, err)) != DK_OK) {
		if (pae && (st == DK_ENOTDUMPED || st == DK_ETRUNC))
			d->unmapped_to = (va | ((1ull << I386_PDPSHIFT_PAE) -
			    1)) + 1;
		return dk_err_prefix(err, "virtual address %#jx: PDE",
		    (uintmax_t)va);
	}
	DK_TRACE(d, "va %#jx: PDE at pa %#jx = %#jx", (uintmax_t)va,
	    (uintmax_t)at, (uintmax_t)e);
	/* An invalid PDE, or a page table the dump lacks: its block. */
	blk = (va | ((1ull << (pae ? I386_PDRSHIFT_PAE : I386_PDRSHIFT)) -
	    1)) + 1;
	if (!(e & I386_PG_V))
		d->unmapped_to = blk;
	if (!(e & I386_PG_V))
		return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address %#jx: "
		    "not mapped (PDE %#jx at pa %#jx has no PG_V)",
		    (uintmax_t)va, (uintmax_t)e, (uintmax_t)at);
	if (e & I386_PG_PS) {
		*pa = pae ? (e & I386_PG_PS_FRAME_PAE) | (va & 0x1fffff) :
		    (e & I386_PG_PS_FRAME) | (va & 0x3fffff);
		d->mapped_to = blk;
	} else {
		at = (e & frame) + ((va >> I386_PAGE_SHIFT) & ((pae ?
		    I386_NPTEPG_PAE : I386_NPTEPG) - 1)) * esz;
		if ((st = i386_entry(d, at, esz, &e, err)) != DK_OK) {
			if (st == DK_ENOTDUMPED || st == DK_ETRUNC)
				d->unmapped_to = blk;
			return dk_err_prefix(err, "virtual address %#jx: PTE",
			    (uintmax_t)va);
		}
		DK_TRACE(d, "va %#jx: PTE at pa %#jx = %#jx", (uintmax_t)va,
		    (uintmax_t)at, (uintmax_t)e);
		if (!(e & I386_PG_V))
			return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address "
			    "%#jx: not mapped (PTE %#jx at pa %#jx has no "
			    "PG_V)", (uintmax_t)va, (uintmax_t)e,
			    (uintmax_t)at);
		*pa = (e & frame) | (va & I386_PAGE_MASK);
	}
	if (prot != NULL)
		*prot = i386_prot(e, pae);
	return DK_OK;
}

/* ---------------------------------------------------------------------- */
/* The module (arch.c lists it).                                           */

/* The full-core walks (fmt_elf.c finds their root, IdlePTD or IdlePDPT). */
static const struct dk_pt_walk i386_walks[] = {
	{ "i386", 2, I386_PAGE_SHIFT, 32, 4, NULL, i386_walk },
	{ "i386 PAE", 3, I386_PAGE_SHIFT, 32, 8, NULL, i386_walk },
};

static const struct dk_arch i386_rows[] = {
	{ .name = "i386", .aliases = "i686 x86", .family = "i386",
	  .endian = DK_LE, .elf_machine = I386_EM_386,
	  .elf_class = I386_ELFCLASS32, .long_size = 4,
	  .minidump = &dk_md_i386, .ops = &dk_arch_i386 },
};

/*
 * Threads' registers: struct pcb (sys/i386/include/pcb.h, the fields
 * "used by kernel debuggers", whose ABI is kept: pcb_edi 0, pcb_esi 4,
 * pcb_ebp 8, pcb_esp 12, pcb_ebx 16, pcb_eip 20) into gdb's i386
 * NT_PRSTATUS (144 bytes; pr_pid at 24, pr_reg at 72: ebx ecx edx esi
 * edi ebp eax ds es fs gs orig_eax eip cs eflags esp ss, 4 bytes each)
 * and NT_PRPSINFO (124 bytes; pr_pid at 12, pr_fname at 28).
 */
static const struct dk_pcb_slot i386_pcb_slots[] = {
	{ "edi", 4, 0 }, { "esi", 3, 4 }, { "ebp", 5, 8 }, { "esp", 15, 12 },
	{ "ebx", 0, 16 }, { "eip", 12, 20 },
};

static const struct dk_pcb_regs i386_pcb = {
	.source		= "sys/i386/include/pcb.h",
	.word		= 4,
	.pcb_min	= 24,
	.prstatus_size	= 144,
	.pid_off	= 24,
	.cursig_off	= 12,
	.reg_off	= 72,
	.nregs		= 17,
	.prpsinfo_size	= 124,
	.psinfo_pid_off	= 12,
	.psinfo_fname_off = 28,
	.slots		= i386_pcb_slots,
	.nslots		= DK_ARRAY_LEN(i386_pcb_slots),
};

const struct dk_arch_ops dk_arch_i386 = {
	.name		= "i386",
	.rows		= i386_rows,
	.nrows		= DK_ARRAY_LEN(i386_rows),
	.page_shift	= I386_PAGE_SHIFT,
	.minidump	= &dk_md_i386,
	.walks		= i386_walks,
	.nwalks		= DK_ARRAY_LEN(i386_walks),
	.prot		= i386_prot,
	.pcb		= &i386_pcb,
};
