/*
 * fmt_sparc64.c -- the sparc64 dump format of FreeBSD 5 to 12
 * (FORMATS.md 5): reading, kernel address translation through the TSB
 * and the direct map, and the kernel-map walk of the portable format.
 *
 * The header is the kernel's struct sparc64_dump_hdr, big-endian, in the
 * LP64 layout hard-coded below whatever the host: 8 + 8 + 8 + 8 + 4
 * bytes, 4 bytes the compiler inserted (the kernel never set them: they
 * are stack garbage in real dumps and are never looked at), then the
 * region descriptors from offset 40.  There is no magic: the format is
 * taken when --arch or --kernel names sparc64, when the kerneldumpheader
 * the dump was found under says "sparc64", or when the file is exactly what the
 * kernel writes (dk_sp64_plausible), and then dumpinfo says which.
 *
 * Translation differs from libkvm's in one respect, on purpose.  libkvm
 * looks up the TSB slot of the 8 KiB page of va only and adds va's
 * offset in that 8 KiB page to the TTE's physical address, even for a
 * 64K, 512K or 4M TTE: right only for the first 8 KiB of a large page.
 * Here a large TTE translates every 8 KiB page inside it: the offset
 * added is va's offset in the large page (the TTE's address taken down
 * to the large page's alignment, as the MMU ignores those bits), and
 * when the 8 KiB page's own slot holds no match, the slot of the large
 * page's first 8 KiB page is looked at for a TTE of that size, so that a
 * TSB filled either way (one copy per 8 KiB slot, or one copy at the
 * large page's first slot) translates the whole large page.
 *
 * Protection, used only for the portable format's p_flags: writable from
 * the sun4u TTE's W bit (bit 1); executable from FreeBSD's software bit
 * TD_EXEC, bit 7 (TD_SOFT_SHIFT), as remembered from the kernel's tte.h:
 * FORMATS.md does not list it and no stored copy confirmed it.  The
 * kernel map's bounds (dk_info kernbase, kva_end) are those of the TSB's
 * valid entries, not a constant of the port.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "portable.h"
#include "sparc64.h"

#define	SP64_TSB_MEM_MAX	(64ull << 20)	/* TSBs held in memory */
#define	SP64_TSB_CHUNK		(1u << 20)	/* scan reads */
#define	SP64_MAX_MAPS		(1u << 24)	/* distinct TSB mappings */

/* ---------------------------------------------------------------------- */
/* Layouts.                                                                */

/*
 * Two declarations of one header.  The original one (2002) used the
 * machine's types, so the 4 bytes at 36 are padding the compiler put
 * before the 8-byte-aligned flexible array; the fixed-width rewrite of
 * FreeBSD's sys/sparc64/include/kerneldump.h (uint64_t, int32_t) names
 * them dh_pad.  Same bytes, same offsets.  Rows that do not depend on
 * the declaration are shared through these macros.
 */
#define	M_HDR_SIZE	"offset of the first region's data; roundup(40 + " \
			"24 * dh_nregions, 512)"
#define	M_TSB_PA	"physical address of the kernel TSB"
#define	M_TSB_SIZE	"bytes of the kernel TSB"
#define	M_TSB_MASK	"TSB index mask: slots - 1"
#define	M_NREGIONS	"number of region descriptors"
#define	ROW_REGIONS	{ "dh_regions", 40, 0, DK_FK_ARRAY, DK_SP64_F_REGIONS, \
			  DK_V(1), "struct sparc64_dump_reg[]", \
			  "region descriptors, 24 bytes each" }

static const struct dk_field hdr_old_fields[] = {
	{ "dh_hdr_size", 0, 8, DK_FK_UINT, DK_SP64_F_HDR_SIZE, DK_V(1),
	  "vm_offset_t", M_HDR_SIZE },
	{ "dh_tsb_pa", 8, 8, DK_FK_UINT, DK_SP64_F_TSB_PA, DK_V(1),
	  "vm_paddr_t", M_TSB_PA },
	{ "dh_tsb_size", 16, 8, DK_FK_UINT, DK_SP64_F_TSB_SIZE, DK_V(1),
	  "vm_size_t", M_TSB_SIZE },
	{ "dh_tsb_mask", 24, 8, DK_FK_UINT, DK_SP64_F_TSB_MASK, DK_V(1),
	  "vm_size_t", M_TSB_MASK },
	{ "dh_nregions", 32, 4, DK_FK_INT, DK_SP64_F_NREGIONS, DK_V(1),
	  "int", M_NREGIONS },
	{ "(padding)", 36, 4, DK_FK_PAD, DK_H_PAD, DK_V(1),
	  NULL, "inserted by the compiler; never set by the kernel" },
	ROW_REGIONS,
};

static const struct dk_field hdr_new_fields[] = {
	{ "dh_hdr_size", 0, 8, DK_FK_UINT, DK_SP64_F_HDR_SIZE, DK_V(1),
	  "uint64_t", M_HDR_SIZE },
	{ "dh_tsb_pa", 8, 8, DK_FK_UINT, DK_SP64_F_TSB_PA, DK_V(1),
	  "uint64_t", M_TSB_PA },
	{ "dh_tsb_size", 16, 8, DK_FK_UINT, DK_SP64_F_TSB_SIZE, DK_V(1),
	  "uint64_t", M_TSB_SIZE },
	{ "dh_tsb_mask", 24, 8, DK_FK_UINT, DK_SP64_F_TSB_MASK, DK_V(1),
	  "uint64_t", M_TSB_MASK },
	{ "dh_nregions", 32, 4, DK_FK_INT, DK_SP64_F_NREGIONS, DK_V(1),
	  "int32_t", M_NREGIONS },
	{ "dh_pad", 36, 4, DK_FK_INT, DK_H_PAD, DK_V(1),
	  "int32_t", "explicit padding, written 0" },
	ROW_REGIONS,
};

/*
 * struct sparc64_dump_reg: version 1 is the 2002 declaration (machine
 * types), version 2 the fixed-width one; the bytes are the same.
 */
static const struct dk_field reg_fields[] = {
	{ "dr_pa", 0, 8, DK_FK_UINT, DK_SP64_F_DR_PA, DK_V(1),
	  "vm_paddr_t", "physical address of the region" },
	{ "dr_size", 8, 8, DK_FK_UINT, DK_SP64_F_DR_SIZE, DK_V(1),
	  "vm_offset_t", "bytes of the region" },
	{ "dr_offs", 16, 8, DK_FK_UINT, DK_SP64_F_DR_OFFS, DK_V(1),
	  "vm_offset_t", "file offset of the region's data" },
	{ "dr_pa", 0, 8, DK_FK_UINT, DK_SP64_F_DR_PA, DK_V(2),
	  "uint64_t", "physical address of the region" },
	{ "dr_size", 8, 8, DK_FK_UINT, DK_SP64_F_DR_SIZE, DK_V(2),
	  "uint64_t", "bytes of the region" },
	{ "dr_offs", 16, 8, DK_FK_UINT, DK_SP64_F_DR_OFFS, DK_V(2),
	  "uint64_t", "file offset of the region's data" },
};

const struct dk_layout dk_sp64_hdr_old = {
	"sparc64-dump-hdr-old", hdr_old_fields, DK_ARRAY_LEN(hdr_old_fields)
};
const struct dk_layout dk_sp64_hdr_new = {
	"sparc64-dump-hdr-new", hdr_new_fields, DK_ARRAY_LEN(hdr_new_fields)
};
const struct dk_layout dk_sp64_reg_layout = {
	"sparc64-dump-reg", reg_fields, DK_ARRAY_LEN(reg_fields)
};

const struct dk_layout *const *
dk_sp64_layouts(size_t *n)
{
	static const struct dk_layout *const all[] = {
		&dk_sp64_hdr_old, &dk_sp64_hdr_new, &dk_sp64_reg_layout,
	};

	*n = DK_ARRAY_LEN(all);
	return all;
}

/* ---------------------------------------------------------------------- */
/* Recognition.                                                            */

static uint64_t
hdr_round(uint64_t n)
{
	return (SP64_HDR_SIZE + SP64_REG_SIZE * n + SP64_HDR_ALIGN - 1) /
	    SP64_HDR_ALIGN * SP64_HDR_ALIGN;
}

/*
 * Strict plausibility, for a file nothing else names: the header size
 * is the one the kernel computes, the regions are whole pages, each one
 * starts where the previous one ended, the first at dh_hdr_size, and
 * the file ends where the last one does.  A dump that is truncated or
 * damaged fails this and needs --arch sparc64 (which then says what is
 * wrong).  hdr holds the file's first len bytes.
 */
int
dk_sp64_plausible(const uint8_t *hdr, size_t len, uint64_t file_size,
    char *why, size_t whylen)
{
	uint64_t hs, n, off, tsz, mask;

	if (len < SP64_HDR_SIZE)
		return 0;
	hs = dec_be64(hdr);
	tsz = dec_be64(hdr + 16);
	mask = dec_be64(hdr + 24);
	n = dec_be32(hdr + 32);
	if (n == 0 || n > SP64_MAX_REGIONS || hs != hdr_round(n) ||
	    len < SP64_HDR_SIZE + SP64_REG_SIZE * n)
		return 0;
	if (tsz == 0 || tsz % SP64_TTE_SLOT != 0 ||
	    mask + 1 != tsz / SP64_TTE_SLOT)
		return 0;
	off = hs;
	for (uint64_t i = 0; i < n; i++) {
		const uint8_t *r = hdr + SP64_HDR_SIZE + SP64_REG_SIZE * i;
		uint64_t pa = dec_be64(r), sz = dec_be64(r + 8);

		if (dec_be64(r + 16) != off || sz == 0 || off > file_size ||
		    sz % SP64_PAGE_SIZE != 0 || pa % SP64_PAGE_SIZE != 0 ||
		    sz > file_size - off)
			return 0;
		off += sz;
	}
	if (off != file_size)
		return 0;
	snprintf(why, whylen, "no option named the format; the file is "
	    "exactly a sparc64 dump (dh_hdr_size %#jx for %ju regions, "
	    "contiguous regions ending at the file's end %#jx)",
	    (uintmax_t)hs, (uintmax_t)n, (uintmax_t)file_size);
	return 1;
}

static enum dk_status
sp64_probe(const struct dk_src *src, struct dk_err *err)
{
	uint8_t buf[4096];
	size_t n = src->size < sizeof(buf) ? (size_t)src->size : sizeof(buf);
	uint64_t nreg;
	uint8_t *big;
	char why[8];
	int ok;

	if (n < SP64_HDR_SIZE)
		return DK_NOMATCH;
	if (dk_src_pread(src, buf, n, 0, "sparc64 header", err) != DK_OK)
		return err->code;
	nreg = dec_be32(buf + 32);
	if (nreg == 0 || nreg > SP64_MAX_REGIONS)
		return DK_NOMATCH;
	if (SP64_HDR_SIZE + SP64_REG_SIZE * nreg <= n)
		return dk_sp64_plausible(buf, n, src->size, why, sizeof(why)) ?
		    DK_OK : DK_NOMATCH;
	/* Many regions: read the whole descriptor array (bounded). */
	n = SP64_HDR_SIZE + SP64_REG_SIZE * (size_t)nreg;
	if (n > src->size || (big = malloc(n)) == NULL)
		return DK_NOMATCH;
	ok = dk_src_pread(src, big, n, 0, "sparc64 regions", err) == DK_OK &&
	    dk_sp64_plausible(big, n, src->size, why, sizeof(why));
	free(big);
	dk_err_clear(err);
	return ok ? DK_OK : DK_NOMATCH;
}

/*
 * The options or a container name sparc64.  An --arch or --kernel that
 * names another architecture leaves the file to the probes.
 */
static int
sp64_claim(struct dk_dump *d, const struct dk_open_opts *o)
{
	const struct dk_arch *a = NULL;
	struct dk_err e;

	if (o != NULL && o->arch != NULL)
		a = dk_arch_by_name(o->arch);
	else if (o != NULL && o->kernel != NULL &&
	    dk_arch_from_kernel(o->kernel, &a, &e) != DK_OK)
		a = NULL;
	else if (dk_kdh(d) != NULL)
		a = dk_arch_by_name(dk_kdh(d)->architecture);
	return a != NULL && a->ops->native == &dk_fmt_sparc64;
}

/* ---------------------------------------------------------------------- */
/* Opening.                                                                */

static struct dk_sp64 *
sp(const struct dk_dump *d)
{
	return d->priv;
}

/* A region's pa and its index in the header: sorted, the lookup's index. */
struct pa_idx {
	uint64_t	pa;
	size_t		i;
};

static int
cmp_pa(const void *a, const void *b)
{
	const struct pa_idx *x = a, *y = b;

	return x->pa < y->pa ? -1 : x->pa > y->pa;
}

static int
cmp_map(const void *a, const void *b)
{
	const struct dk_sp64_map *x = a, *y = b;

	if (x->va != y->va)
		return x->va < y->va ? -1 : 1;
	return x->len < y->len ? -1 : x->len > y->len;
}

static void
sp64_close(struct dk_dump *d)
{
	struct dk_sp64 *s = sp(d);

	if (s != NULL) {
		free(s->reg);
		free(s->byp);
		free(s->tsb);
		free(s->maps);
		free(s);
	}
	d->priv = NULL;
}

/* The region holding pa, or SIZE_MAX. */
static size_t
find_region(const struct dk_sp64 *s, uint64_t pa)
{
	size_t lo = 0, hi = s->nreg;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct dk_sp64_reg *r = &s->reg[s->byp[mid]];

		if (pa < r->pa)
			hi = mid;
		else if (pa - r->pa >= r->size)
			lo = mid + 1;
		else
			return s->byp[mid];
	}
	return SIZE_MAX;
}

static enum dk_status
sp64_pa_offset(struct dk_dump *d, uint64_t pa, uint64_t *off,
    struct dk_err *err)
{
	const struct dk_sp64 *s = sp(d);
	size_t i = find_region(s, pa);
	uint64_t o, page;

	if (i == SIZE_MAX)
		return dk_err_miss(d, err, DK_ENOTDUMPED, "physical address %#jx "
		    "is in no region of the dump", (uintmax_t)pa);
	o = s->reg[i].offs + s->delta + (pa - s->reg[i].pa);
	page = o - (pa & (SP64_PAGE_SIZE - 1));
	if (page > d->src.size || d->src.size - page < SP64_PAGE_SIZE)
		return dk_err_off(err, DK_ETRUNC, page, "physical address "
		    "%#jx: region %zu's page should be at offset %#jx, past "
		    "the end of the truncated file at %#jx", (uintmax_t)pa, i,
		    (uintmax_t)page, (uintmax_t)d->src.size);
	*off = o;
	return DK_OK;
}

int
dk_sp64_tte(struct dk_dump *d, uint64_t slot, uint64_t *tag, uint64_t *data,
    struct dk_err *err)
{
	const struct dk_sp64 *s = sp(d);
	uint8_t b[16];

	if (!s->tsb_ok) {
		dk_err_miss(d, err, DK_ENOTMAPPED, "%s", s->tsb_why);
		return -1;
	}
	if (s->tsb != NULL)
		memcpy(b, s->tsb + (slot << SP64_TTE_SHIFT), sizeof(b));
	else if (dk_src_pread(&d->src, b, sizeof(b), s->tsb_off +
	    (slot << SP64_TTE_SHIFT), "TSB entry", err) != DK_OK)
		return -1;
	*tag = dec_be64(b);
	*data = dec_be64(b + 8);
	DK_TRACE(d, "tsb[%ju] @%#jx: tag %#jx data %#jx", (uintmax_t)slot,
	    (uintmax_t)(s->tsb_off + (slot << SP64_TTE_SHIFT)),
	    (uintmax_t)*tag, (uintmax_t)*data);
	return 0;
}

static enum dk_status
sp64_kvtop_prot(struct dk_dump *d, uint64_t va, uint64_t *pa,
    unsigned *prot, struct dk_err *err)
{
	const struct dk_sp64 *s = sp(d);
	uint64_t first = (va >> SP64_PAGE_SHIFT) & (s->tsb_nslots - 1);

	if (va >= SP64_DMAP_BASE) {
		*pa = va & SP64_DMAP_MASK;
		if (prot != NULL)
			*prot = DK_PROT_W;
		DK_TRACE(d, "va %#jx: direct map -> pa %#jx", (uintmax_t)va,
		    (uintmax_t)*pa);
		return DK_OK;
	}
	/*
	 * Size 0 is the 8 KiB page's own slot, where a TTE of any size may
	 * match; sizes 1 to 3 the slot of the first 8 KiB page of the 64K,
	 * 512K or 4M page around va, for a TTE of that size only.
	 */
	for (unsigned sz = 0; sz < 4; sz++) {
		uint64_t slot = ((va >> (SP64_PAGE_SHIFT + 3 * sz)) <<
		    (3 * sz)) & (s->tsb_nslots - 1);
		uint64_t tag, data, bytes;
		unsigned tsz;

		if (sz > 0 && slot == first)
			continue;
		if (dk_sp64_tte(d, slot, &tag, &data, err) != 0)
			return err->code;
		tsz = (unsigned)(data >> SP64_TD_SIZE_SHIFT) & 3;
		if (!(data & SP64_TD_V) || (sz > 0 && tsz != sz) ||
		    tag != SP64_TAG(va, tsz))
			continue;
		bytes = SP64_TTE_BYTES(tsz);
		*pa = ((data & SP64_TD_PA_MASK) & ~(bytes - 1)) |
		    (va & (bytes - 1));
		if (prot != NULL)
			*prot = ((data & SP64_TD_W) ? DK_PROT_W : 0) |
			    ((data & SP64_TD_EXEC) ? DK_PROT_X : 0);
		DK_TRACE(d, "va %#jx: TSB slot %ju, %ju KiB TTE -> pa %#jx",
		    (uintmax_t)va, (uintmax_t)slot, (uintmax_t)(bytes >> 10),
		    (uintmax_t)*pa);
		return DK_OK;
	}
	return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address %#jx: no "
	    "valid TTE matches it in TSB slot %ju (nor in the slots of the "
	    "large pages around it)", (uintmax_t)va, (uintmax_t)first);
}

static enum dk_status
sp64_kvtop(struct dk_dump *d, uint64_t va, uint64_t *pa, struct dk_err *err)
{
	return sp64_kvtop_prot(d, va, pa, NULL, err);
}

static int
sp64_run_next(const struct dk_dump *d, struct dk_run_iter *it,
    struct dk_run *run)
{
	const struct dk_sp64 *s = sp(d);

	while (it->range < s->nreg) {
		const struct dk_sp64_reg *r = &s->reg[s->byp[it->range++]];
		uint64_t off = r->offs + s->delta, len = r->size;

		/* A truncated file: the whole pages it holds. */
		if (off >= d->src.size)
			continue;
		if (len > d->src.size - off)
			len = (d->src.size - off) & ~(SP64_PAGE_SIZE - 1);
		if (len == 0)
			continue;
		run->pa = r->pa;
		run->len = len;
		run->offset = off;
		return 1;
	}
	return 0;
}

/* Read the TSB (into memory when small enough) and list its mappings. */
static enum dk_status
load_tsb(struct dk_dump *d, struct dk_sp64 *s, struct dk_err *err)
{
	uint64_t tsb_pa = d->hdr.v[DK_SP64_F_TSB_PA];
	uint64_t size = s->tsb_nslots << SP64_TTE_SHIFT;
	size_t i = find_region(s, tsb_pa), cap = 0;
	uint8_t *chunk = NULL;
	enum dk_status st = DK_OK;

	if (i == SIZE_MAX || s->reg[i].pa + s->reg[i].size - tsb_pa < size) {
		snprintf(s->tsb_why, sizeof(s->tsb_why), "the TSB [%#jx, "
		    "+%#jx) does not lie inside one region of the dump: no "
		    "kernel address outside the direct map translates",
		    (uintmax_t)tsb_pa, (uintmax_t)size);
		DK_TRACE(d, "%s", s->tsb_why);
		return DK_OK;
	}
	s->tsb_off = s->reg[i].offs + s->delta + (tsb_pa - s->reg[i].pa);
	if (s->tsb_off > d->src.size || size > d->src.size - s->tsb_off) {
		snprintf(s->tsb_why, sizeof(s->tsb_why), "the TSB at file "
		    "offset %#jx (%#jx bytes) is past the end of the truncated "
		    "file at %#jx", (uintmax_t)s->tsb_off, (uintmax_t)size,
		    (uintmax_t)d->src.size);
		return DK_OK;
	}
	s->tsb_ok = 1;
	if (size <= SP64_TSB_MEM_MAX && (s->tsb = malloc(size)) != NULL) {
		if ((st = dk_src_pread(&d->src, s->tsb, size, s->tsb_off,
		    "TSB", err)) != DK_OK)
			return st;
	} else if ((chunk = malloc(SP64_TSB_CHUNK)) == NULL)
		return dk_err_set(err, DK_ENOMEM, "out of memory");
	for (uint64_t off = 0; off < size; off += SP64_TSB_CHUNK) {
		size_t n = size - off < SP64_TSB_CHUNK ? (size_t)(size - off) :
		    SP64_TSB_CHUNK;
		const uint8_t *p = s->tsb != NULL ? s->tsb + off : chunk;

		if (s->tsb == NULL && (st = dk_src_pread(&d->src, chunk, n,
		    s->tsb_off + off, "TSB", err)) != DK_OK)
			break;
		for (size_t k = 0; k < n; k += SP64_TTE_SLOT) {
			uint64_t tag = dec_be64(p + k);
			uint64_t data = dec_be64(p + k + 8);
			unsigned tsz = (unsigned)(data >> SP64_TD_SIZE_SHIFT) &
			    3;
			struct dk_sp64_map *m;

			if (!(data & SP64_TD_V) || (tag & 3) != tsz)
				continue;
			if (s->nmaps == cap) {
				if (cap >= SP64_MAX_MAPS) {
					st = dk_err_set(err, DK_ELIMIT, "%s: "
					    "more than %u valid TSB entries",
					    d->src.name, SP64_MAX_MAPS);
					break;
				}
				cap = cap ? 2 * cap : 1024;
				m = realloc(s->maps, cap * sizeof(*m));
				if (m == NULL) {
					st = dk_err_set(err, DK_ENOMEM, "out "
					    "of memory");
					break;
				}
				s->maps = m;
			}
			m = &s->maps[s->nmaps++];
			m->len = SP64_TTE_BYTES(tsz);
			m->va = (tag >> 2) << (SP64_PAGE_SHIFT + 3 * tsz);
			m->pa = (data & SP64_TD_PA_MASK) & ~(m->len - 1);
			m->prot = ((data & SP64_TD_W) ? DK_PROT_W : 0) |
			    ((data & SP64_TD_EXEC) ? DK_PROT_X : 0);
		}
		if (st != DK_OK)
			break;
	}
	free(chunk);
	if (st != DK_OK)
		return st;
	/* One mapping per distinct page: a large TTE has many copies. */
	if (s->nmaps > 0)
		qsort(s->maps, s->nmaps, sizeof(*s->maps), cmp_map);
	cap = 0;
	for (size_t k = 0; k < s->nmaps; k++)
		if (cap == 0 || s->maps[k].va != s->maps[cap - 1].va ||
		    s->maps[k].len != s->maps[cap - 1].len)
			s->maps[cap++] = s->maps[k];
	s->nmaps = cap;
	if (s->nmaps > 0) {
		d->info.kernbase = s->maps[0].va;
		for (size_t k = 0; k < s->nmaps; k++)
			if (s->maps[k].va + s->maps[k].len > d->info.kva_end)
				d->info.kva_end = s->maps[k].va +
				    s->maps[k].len;
	}
	return DK_OK;
}

enum dk_status
dk_sp64_load(struct dk_dump *d, uint64_t hdr_off, uint64_t delta,
    struct dk_err *err)
{
	uint8_t h[SP64_HDR_SIZE];
	struct dk_sp64 *s;
	struct pa_idx *pi = NULL;
	uint64_t n, hs, tsz, mask, stored = 0;
	uint8_t *regs = NULL;
	enum dk_status st;

	if ((st = dk_src_pread(&d->src, h, sizeof(h), hdr_off, "sparc64 "
	    "dump header (40 bytes)", err)) != DK_OK)
		return st;
	dk_layout_decode(&dk_sp64_hdr_old, 1, h, DK_BE, &d->hdr);
	d->hlayout = &dk_sp64_hdr_old;
	hs = d->hdr.v[DK_SP64_F_HDR_SIZE];
	tsz = d->hdr.v[DK_SP64_F_TSB_SIZE];
	mask = d->hdr.v[DK_SP64_F_TSB_MASK];
	n = d->hdr.v[DK_SP64_F_NREGIONS];
	if (n > SP64_MAX_REGIONS)
		return dk_err_at(err, n > INT32_MAX ? DK_ECORRUPT : DK_ELIMIT,
		    d->src.name, hdr_off + 32, "dh_nregions: expected 1 to %d "
		    "region descriptors, found %jd", SP64_MAX_REGIONS,
		    (intmax_t)(int32_t)(uint32_t)n);
	if (n == 0)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, hdr_off + 32,
		    "dh_nregions: expected at least one region, found 0");
	if (hs > SP64_MAX_HDR)
		return dk_err_at(err, DK_ELIMIT, d->src.name, hdr_off,
		    "dh_hdr_size %#jx is past the %u bytes dumpkit accepts "
		    "(the kernel writes roundup(40 + 24 x %ju, 512) = %#jx)",
		    (uintmax_t)hs, SP64_MAX_HDR, (uintmax_t)n,
		    (uintmax_t)hdr_round(n));
	if (hs < SP64_HDR_SIZE + SP64_REG_SIZE * n)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, hdr_off,
		    "dh_hdr_size: expected at least %ju bytes (40 + 24 x %ju "
		    "regions), found %#jx",
		    (uintmax_t)(SP64_HDR_SIZE + SP64_REG_SIZE * n),
		    (uintmax_t)n, (uintmax_t)hs);
	if (tsz % SP64_TTE_SLOT != 0 || mask >= tsz / SP64_TTE_SLOT ||
	    (mask & (mask + 1)) != 0)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, hdr_off + 24,
		    "dh_tsb_mask: expected 2^k - 1 below the %ju 32-byte "
		    "slots of dh_tsb_size %#jx, found %#jx",
		    (uintmax_t)(tsz / SP64_TTE_SLOT), (uintmax_t)tsz,
		    (uintmax_t)mask);
	if ((s = calloc(1, sizeof(*s))) == NULL)
		return dk_err_set(err, DK_ENOMEM, "out of memory");
	d->priv = s;
	s->hdr_off = hdr_off;
	s->hdr_size = hs;
	s->delta = delta;
	s->nreg = (size_t)n;
	s->tsb_nslots = mask + 1;
	s->reg = calloc(s->nreg, sizeof(*s->reg));
	s->byp = calloc(s->nreg, sizeof(*s->byp));
	pi = calloc(s->nreg, sizeof(*pi));
	regs = malloc(SP64_REG_SIZE * s->nreg);
	d->avail = calloc(s->nreg, sizeof(*d->avail));
	if (s->reg == NULL || s->byp == NULL || pi == NULL || regs == NULL ||
	    d->avail == NULL) {
		st = dk_err_set(err, DK_ENOMEM, "out of memory");
		goto out;
	}
	if ((st = dk_src_pread(&d->src, regs, SP64_REG_SIZE * s->nreg,
	    hdr_off + SP64_HDR_SIZE, "sparc64 region descriptors", err)) !=
	    DK_OK)
		goto out;
	for (size_t i = 0; i < s->nreg; i++) {
		struct dk_sp64_reg *r = &s->reg[i];
		const uint8_t *p = regs + SP64_REG_SIZE * i;
		uint64_t at = hdr_off + SP64_HDR_SIZE + SP64_REG_SIZE * i;
		struct dk_hdr rh;

		dk_layout_decode(&dk_sp64_reg_layout, 1, p, DK_BE, &rh);
		r->pa = rh.v[DK_SP64_F_DR_PA];
		r->size = rh.v[DK_SP64_F_DR_SIZE];
		r->offs = rh.v[DK_SP64_F_DR_OFFS];
		if (r->pa % SP64_PAGE_SIZE != 0 ||
		    r->size % SP64_PAGE_SIZE != 0 || r->size == 0 ||
		    r->pa + r->size < r->pa) {
			st = dk_err_at(err, DK_ECORRUPT, d->src.name, at,
			    "region %zu: expected a non-empty range of whole "
			    "8 KiB pages, found dr_pa %#jx dr_size %#jx", i,
			    (uintmax_t)r->pa, (uintmax_t)r->size);
			goto out;
		}
		if (r->offs < hs || r->offs + r->size < r->offs ||
		    r->offs + delta < r->offs) {
			st = dk_err_at(err, DK_ECORRUPT, d->src.name, at + 16,
			    "region %zu: dr_offs %#jx is inside the header "
			    "(dh_hdr_size %#jx) or overflows", i,
			    (uintmax_t)r->offs, (uintmax_t)hs);
			goto out;
		}
		pi[i] = (struct pa_idx){ r->pa, i };
	}
	qsort(pi, s->nreg, sizeof(*pi), cmp_pa);
	for (size_t k = 0; k < s->nreg; k++) {
		const struct dk_sp64_reg *r = &s->reg[pi[k].i];
		uint64_t off = r->offs + delta;

		s->byp[k] = pi[k].i;
		if (k > 0 && s->reg[pi[k - 1].i].pa + s->reg[pi[k - 1].i].size >
		    r->pa) {
			st = dk_err_at(err, DK_ECORRUPT, d->src.name,
			    hdr_off + SP64_HDR_SIZE + SP64_REG_SIZE * pi[k].i,
			    "region %zu [%#jx, %#jx) overlaps region %zu in "
			    "physical memory", pi[k].i, (uintmax_t)r->pa,
			    (uintmax_t)(r->pa + r->size), pi[k - 1].i);
			goto out;
		}
		d->avail[k] = (struct dk_range){ r->pa, r->pa + r->size };
		d->info.npages += r->size >> SP64_PAGE_SHIFT;
		if (off < d->src.size)
			stored += (r->size < d->src.size - off ? r->size :
			    d->src.size - off) >> SP64_PAGE_SHIFT;
	}
	d->navail = s->nreg;
	d->info.npages_present = stored;
	d->page_shift = SP64_PAGE_SHIFT;
	d->page_size = SP64_PAGE_SIZE;
	d->info.page_size = SP64_PAGE_SIZE;
	d->info.endian = DK_BE;
	d->info.version = 1;
	/* The window reaches the top: 2^64, which is UINT64_MAX + 1. */
	dk_add_window(d, DK_WIN_DIRECT_MAP, "direct map", SP64_DMAP_BASE,
	    UINT64_MAX, 0);
	st = load_tsb(d, s, err);
out:
	free(pi);
	free(regs);
	return st;
}

static enum dk_status
sp64_open(struct dk_dump *d, const struct dk_open_opts *o, struct dk_err *err)
{
	const struct dk_arch *row = dk_arch_by_name("sparc64");
	uint8_t buf[4096];
	size_t n = d->src.size < sizeof(buf) ? (size_t)d->src.size :
	    sizeof(buf);
	enum dk_status st;

	d->arch = row;
	d->info.arch = row->name;
	d->info.format = "sparc64";
	/* Taken by its shape while the options name another machine. */
	if (o != NULL && (o->arch != NULL || o->kernel != NULL) &&
	    !sp64_claim(d, o))
		return dk_err_at(err, DK_EINVAL, d->src.name, 0, "the file is "
		    "shaped exactly as a sparc64 dump, not as one of %s (%s)",
		    o->arch != NULL ? o->arch : "the kernel's " "architecture",
		    o->arch != NULL ? "--arch" : o->kernel);
	if (o != NULL && o->arch != NULL) {
		d->info.arch_by = DK_BY_OPTION;
		snprintf(d->arch_why, sizeof(d->arch_why), "--arch %s (the "
		    "sparc64 format has no magic)", o->arch);
	} else if (o != NULL && o->kernel != NULL) {
		d->info.arch_by = DK_BY_KERNEL;
		snprintf(d->arch_why, sizeof(d->arch_why), "kernel ELF header "
		    "of %s (EM_SPARCV9)", o->kernel);
	} else if (dk_kdh(d) != NULL && sp64_claim(d, NULL)) {
		d->info.arch_by = DK_BY_HEADER;
		snprintf(d->arch_why, sizeof(d->arch_why), "the "
		    "kerneldumpheader's architecture \"%s\"",
		    dk_kdh(d)->architecture);
	} else {
		d->info.arch_by = DK_BY_HEADER;
		if (dk_src_pread(&d->src, buf, n, 0, "sparc64 header", err) !=
		    DK_OK || !dk_sp64_plausible(buf, n, d->src.size,
		    d->arch_why, sizeof(d->arch_why)))
			snprintf(d->arch_why, sizeof(d->arch_why), "the file "
			    "is exactly a sparc64 dump (many regions)");
	}
	d->info.arch_why = d->arch_why;
	if (d->src.size < SP64_HDR_SIZE)
		return dk_err_at(err, DK_ETRUNC, d->src.name, 0, "a sparc64 "
		    "dump header needs 40 bytes, the file has %ju",
		    (uintmax_t)d->src.size);
	if ((st = dk_sp64_load(d, 0, 0, err)) != DK_OK)
		return st;
	if (d->hdr.v[DK_SP64_F_HDR_SIZE] > d->src.size)
		return dk_err_at(err, DK_ETRUNC, d->src.name, 0, "dh_hdr_size "
		    "%#jx is past the end of the file at %#jx",
		    (uintmax_t)d->hdr.v[DK_SP64_F_HDR_SIZE],
		    (uintmax_t)d->src.size);
	/* Where the regions' data starts (the portable writer's source). */
	sp(d)->data_off = d->hdr.v[DK_SP64_F_HDR_SIZE];
	dk_add_section(d, "header", 0, SP64_HDR_SIZE + SP64_REG_SIZE *
	    sp(d)->nreg, d->hdr.v[DK_SP64_F_HDR_SIZE]);
	dk_add_section(d, "regions", d->hdr.v[DK_SP64_F_HDR_SIZE],
	    d->info.npages << SP64_PAGE_SHIFT, d->src.size -
	    d->hdr.v[DK_SP64_F_HDR_SIZE]);
	return DK_OK;
}

/* ---------------------------------------------------------------------- */
/* The kernel-map walk: the TSB's mappings, each checked by a lookup.     */

static int
sp64_page(struct dk_dump *d, uint64_t va, uint64_t *pa, uint64_t *off,
    unsigned *prot, struct dk_err *err)
{
	if (sp64_kvtop_prot(d, va, pa, prot, err) != DK_OK)
		return 0;
	return sp64_pa_offset(d, *pa, off, err) == DK_OK;
}

/*
 * Runs of the kernel map in ascending VA.  Only the pages of the TSB's
 * mappings are looked at, each through the same lookup as dk_kvtop, so
 * that an entry a lookup would not find (a stale copy in a wrong slot)
 * gives no segment.  Overlapping mappings are walked once from the
 * highest VA reached.
 */
static int
sp64_kmap_next(struct dk_dump *d, struct dk_kmap_iter *it,
    struct dk_kmap_run *run, struct dk_err *err)
{
	struct dk_sp64 *s = sp(d);
	uint64_t pa, off;
	unsigned prot;

	dk_err_clear(err);
	if (it->done)
		return 0;
	if (it->va == 0)
		s->kmap_i = 0;
	for (;;) {
		const struct dk_sp64_map *m;

		if (s->kmap_i >= s->nmaps) {
			it->done = 1;
			dk_err_clear(err);	/* the end, not an error */
			return 0;
		}
		m = &s->maps[s->kmap_i];
		if (it->va < m->va)
			it->va = m->va;
		if (it->va >= m->va + m->len) {
			s->kmap_i++;
			continue;
		}
		it->probes++;
		if (sp64_page(d, it->va, &pa, &off, &prot, err))
			break;
		if (err->code != DK_ENOTMAPPED && err->code != DK_ENOTDUMPED &&
		    err->code != DK_ETRUNC) {
			it->done = 1;
			return 0;
		}
		it->va += SP64_PAGE_SIZE;
	}
	*run = (struct dk_kmap_run){ it->va, pa, SP64_PAGE_SIZE, off, prot };
	for (it->va += SP64_PAGE_SIZE; it->va != 0; it->va += SP64_PAGE_SIZE) {
		uint64_t npa, noff;
		unsigned nprot;

		/* Past the mappings that cover it: the run ends. */
		while (s->kmap_i < s->nmaps &&
		    s->maps[s->kmap_i].va + s->maps[s->kmap_i].len <= it->va)
			s->kmap_i++;
		if (s->kmap_i >= s->nmaps || s->maps[s->kmap_i].va > it->va)
			break;
		it->probes++;
		if (!sp64_page(d, it->va, &npa, &noff, &nprot, err) ||
		    npa != run->pa + run->len ||
		    noff != run->offset + run->len || nprot != run->prot)
			break;
		run->len += SP64_PAGE_SIZE;
	}
	if (it->va == 0)
		it->done = 1;
	dk_err_clear(err);
	return 1;
}

/* ---------------------------------------------------------------------- */
/* In the portable ELF minidump (portable.h): the header blob (dh_hdr_size */
/* bytes: header, descriptors and padding, every byte as the kernel left  */
/* it, bytes 36..39 included), then the regions' data in the file's order. */
/* The rebuild is the blob and the data back to back: never a residue.    */

/*
 * Reading a portable sparc64 dump: this reader, with the header blob in
 * the source header note and the regions' data, in the native file's
 * order, from data_offset (so a region's file offset is dr_offs -
 * dh_hdr_size + data_offset).
 */
static enum dk_status
sp64_popen(struct dk_dump *d, const struct dk_pctx *c, struct dk_err *err)
{
	const struct dk_pnote *hn = &c->notes[DK_PN_SOURCE_HEADER];
	uint64_t ioff = c->notes[DK_PN_INFO].off, hs, data, stored;
	uint8_t b[8];
	enum dk_status st;

	if (!hn->seen || hn->size < SP64_HDR_SIZE)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, c->noff,
		    "expected a source header note of at least 40 bytes (the "
		    "sparc64 header), found %s%ju", hn->seen ? "" : "none, ",
		    (uintmax_t)hn->size);
	if ((st = dk_src_pread(&d->src, b, sizeof(b), hn->off, "source "
	    "header", err)) != DK_OK)
		return st;
	hs = dec_be64(b);
	data = dk_pinfo(c, DK_INFO_DATA_OFFSET, 8);
	if (hs != hn->size)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, hn->off,
		    "dh_hdr_size %#jx differs from the source header note's "
		    "%ju bytes", (uintmax_t)hs, (uintmax_t)hn->size);
	if (data % SP64_PAGE_SIZE != 0 || data > d->src.size || data < hs)
		return dk_err_at(err, DK_ECORRUPT, d->src.name,
		    ioff + DK_INFO_DATA_OFFSET,
		    "data_offset %#jx is not an 8 KiB-aligned offset inside "
		    "the file of %#jx bytes", (uintmax_t)data,
		    (uintmax_t)d->src.size);
	/* From now on sparc64's close frees what its loader allocates. */
	d->fmt = &dk_fmt_sparc64;
	d->arch = c->row;
	d->info.arch = c->row->name;
	d->info.arch_why = d->arch_why;
	if ((st = dk_sp64_load(d, hn->off, data - hs, err)) != DK_OK)
		return st;
	sp(d)->data_off = data;
	stored = dk_pinfo(c, DK_INFO_NSTORED, 8);
	if (dk_pinfo(c, DK_INFO_NPAGES, 8) != d->info.npages ||
	    stored > d->info.npages || dk_pinfo(c, DK_INFO_PAGE_SIZE, 4) !=
	    SP64_PAGE_SIZE)
		return dk_err_at(err, DK_ECORRUPT, d->src.name,
		    ioff + DK_INFO_NPAGES,
		    "the info note says %ju pages of %ju bytes in the "
		    "regions, %ju stored; the regions have %ju of 8192",
		    (uintmax_t)dk_pinfo(c, DK_INFO_NPAGES, 8),
		    (uintmax_t)dk_pinfo(c, DK_INFO_PAGE_SIZE, 4),
		    (uintmax_t)stored, (uintmax_t)d->info.npages);
	if (d->info.npages_present > stored)
		d->info.npages_present = stored;
	d->info.format = "portable-elf";
	dk_add_section(d, "elf headers", 0, c->noff, c->noff);
	dk_add_section(d, "notes", c->noff, c->nsize, c->nsize);
	dk_add_section(d, "regions", data, d->src.size - data, d->src.size -
	    data);
	return DK_OK;
}

static int
sp64_row_ok(const struct dk_arch *a)
{
	return a->ops == &dk_arch_sparc64;
}

static uint64_t
sp64_extent(const struct dk_dump *d, uint64_t *len)
{
	uint64_t off = sp(d)->data_off;

	*len = off < d->src.size ? d->src.size - off : 0;
	return off;
}

static uint64_t
sp64_notes_size(const struct dk_dump *d, const struct dk_plan *pl)
{
	(void)pl;
	return dk_pnote_size(sp(d)->hdr_size);
}

static enum dk_status
sp64_notes(struct dk_dump *d, const struct dk_plan *pl, struct dk_sink *s,
    struct dk_err *err)
{
	(void)pl;
	return dk_pnote_copy(s, d, DK_PN_SOURCE_HEADER, sp(d)->hdr_off,
	    sp(d)->hdr_size, err);
}

static enum dk_status
sp64_rebuild(struct dk_dump *d, struct dk_sink *s, const struct dk_plan *pl,
    struct dk_err *err)
{
	enum dk_status st;

	st = dk_sink_copy(s, &d->src, sp(d)->hdr_off, sp(d)->hdr_size, err);
	if (st == DK_OK)
		st = dk_sink_copy(s, &d->src, sp(d)->data_off, pl->present,
		    err);
	return st;
}

static const struct dk_portable sp64_portable = {
	.id		= 2,
	.name		= "sparc64",
	.noun		= "sparc64 dump",
	.row_ok		= sp64_row_ok,
	.open		= sp64_popen,
	.extent		= sp64_extent,
	.notes_size	= sp64_notes_size,
	.notes		= sp64_notes,
	.rebuild	= sp64_rebuild,
};

const struct dk_format_ops dk_fmt_sparc64 = {
	.name		= "sparc64",
	.desc		= "FreeBSD sparc64 dump (no magic)",
	.probe		= sp64_probe,
	.claim		= sp64_claim,
	.open		= sp64_open,
	.close		= sp64_close,
	.pa_offset	= sp64_pa_offset,
	.kvtop		= sp64_kvtop,
	.run_next	= sp64_run_next,
	.kmap_next	= sp64_kmap_next,
	.portable	= &sp64_portable,
	.check		= &dk_sp64_check,
};
