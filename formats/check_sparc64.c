/*
 * check_sparc64.c -- dumpcheck's rules for sparc64 dumps (FORMATS.md 8,
 * the sparc64 list; docs/dumpcheck.md names the codes).
 *
 * The header blob is examined byte by byte, without the library, so that
 * a dump the library refuses (a negative dh_nregions, overlapping
 * regions) is still described precisely; when the library did open the
 * dump, the TSB is walked slot by slot.  Bytes 36 to 39 are never looked
 * at: the kernel never set them.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "checker.h"
#include "sparc64.h"

#define	CK_SP64_CHUNK	(1u << 20)	/* TSB bytes read at a time */

/* What the pass finds out about a dump, besides the findings. */
struct dk_sp64_check {
	uint64_t	npages;		/* pages the regions declare */
	uint64_t	nstored;	/* of those, pages the file holds */
	uint64_t	nttes;		/* valid TSB entries seen */
};

struct sck {
	const struct dk_src	*src;
	struct dk_ck		*ck;
	struct dk_sp64_check	*res;
};

static const struct dk_check_code sp64_codes[] = {
	{ "sparc64.nregions", DK_SEV_ERROR,
	  "dh_nregions is not a count of 1 to 65536 regions" },
	{ "sparc64.hdr-size", DK_SEV_ERROR,
	  "dh_hdr_size is not roundup(40 + 24 x nregions, 512)" },
	{ "sparc64.region-range", DK_SEV_ERROR,
	  "a region that is empty or not whole 8 KiB pages" },
	{ "sparc64.first-offset", DK_SEV_ERROR,
	  "the first region's data does not start at dh_hdr_size" },
	{ "sparc64.offsets-gap", DK_SEV_ERROR,
	  "a region's data does not follow the previous region's" },
	{ "sparc64.region-overlap", DK_SEV_ERROR,
	  "two regions overlap in physical memory" },
	{ "sparc64.tsb-outside", DK_SEV_ERROR,
	  "the TSB does not lie inside one region" },
	{ "sparc64.tsb-mask", DK_SEV_ERROR,
	  "dh_tsb_mask is not 2^k - 1 within the TSB's slots" },
	{ "sparc64.tsb-mask-small", DK_SEV_WARNING,
	  "dh_tsb_mask indexes fewer slots than dh_tsb_size holds" },
	{ "sparc64.tte-size", DK_SEV_ERROR,
	  "a valid TTE whose tag and data disagree on its size" },
	{ "sparc64.tte-unreachable", DK_SEV_WARNING,
	  "a valid TTE in a slot no lookup of its address probes" },
};

static void
say(struct sck *k, const char *code, uint64_t off, uint64_t count,
    const char *fmt, ...)
{
	char msg[320];
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	dk_ck_emitn(k->ck, code, off, count, "%s", msg);
}

/*
 * The options name sparc64 (rank 3), or the file is exactly what a
 * sparc64 kernel writes (rank 2): dumpcheck takes it for a sparc64 dump.
 */
static int
sp64_check_probe(const struct dk_src *src, const struct dk_open_opts *o)
{
	const struct dk_arch *a = NULL;
	uint8_t buf[4096];
	size_t n = src->size < sizeof(buf) ? (size_t)src->size : sizeof(buf);
	struct dk_err e;
	char why[8];

	if (o != NULL && o->arch != NULL)
		a = dk_arch_by_name(o->arch);
	else if (o != NULL && o->kernel != NULL &&
	    dk_arch_from_kernel(o->kernel, &a, &e) != DK_OK)
		a = NULL;
	if (a != NULL)
		return a->ops == &dk_arch_sparc64 ? 3 : 0;
	return dk_src_pread(src, buf, n, 0, "header", &e) == DK_OK &&
	    dk_sp64_plausible(buf, n, src->size, why, sizeof(why)) ? 2 : 0;
}

struct reg_at {
	uint64_t	pa, size, offs;
	size_t		i;
};

static int
cmp_reg(const void *a, const void *b)
{
	const struct reg_at *x = a, *y = b;

	return x->pa < y->pa ? -1 : x->pa > y->pa;
}

/* The TSB's entries: each one a lookup would find, and sound. */
static void
tsb_check(struct sck *k, struct dk_dump *d)
{
	struct dk_sp64 *s = d->priv;
	uint64_t nslots = s->tsb_nslots, n_mis = 0, n_un = 0, n_out = 0;
	uint64_t n_size = 0, f_mis = 0, f_un = 0, f_out = 0, f_size = 0;
	uint64_t e_mis = 0, e_un = 0, e_out = 0;
	uint8_t *buf;

	if (!s->tsb_ok || (buf = malloc(CK_SP64_CHUNK)) == NULL)
		return;
	for (uint64_t off = 0; off < nslots * SP64_TTE_SLOT;
	    off += CK_SP64_CHUNK) {
		uint64_t left = nslots * SP64_TTE_SLOT - off;
		size_t len = left < CK_SP64_CHUNK ? (size_t)left :
		    CK_SP64_CHUNK;
		struct dk_err e;

		if (dk_src_pread(&d->src, buf, len, s->tsb_off + off, "TSB",
		    &e) != DK_OK)
			break;
		for (size_t j = 0; j < len; j += SP64_TTE_SLOT) {
			uint64_t tag = dec_be64(buf + j);
			uint64_t data = dec_be64(buf + j + 8);
			uint64_t slot = (off + j) / SP64_TTE_SLOT;
			uint64_t fo = s->tsb_off + off + j, va, pa, bytes, rel;
			unsigned sz = (unsigned)(data >> SP64_TD_SIZE_SHIFT) &
			    3;
			uint64_t dpa, doff;

			if (!(data & SP64_TD_V))
				continue;
			k->res->nttes++;
			if ((tag & 3) != sz) {
				if (n_size++ == 0)
					f_size = fo;
				continue;
			}
			bytes = SP64_TTE_BYTES(sz);
			va = (tag >> 2) << (SP64_PAGE_SHIFT + 3 * sz);
			pa = data & SP64_TD_PA_MASK;
			/*
			 * A lookup probes the slot of each 8 KiB page (any
			 * size) and the large page's first slot.
			 */
			rel = (slot - (va >> SP64_PAGE_SHIFT)) & (nslots - 1);
			if (rel >= bytes / SP64_PAGE_SIZE && n_un++ == 0) {
				f_un = fo;
				e_un = va;
			}
			if ((pa & (bytes - 1)) != 0 && n_mis++ == 0) {
				f_mis = fo;
				e_mis = pa;
			}
			pa &= ~(bytes - 1);
			for (dpa = pa; dpa < pa + bytes; dpa += SP64_PAGE_SIZE)
				if (d->fmt->pa_offset(d, dpa, &doff, &e) !=
				    DK_OK)
					break;
			if (dpa < pa + bytes && n_out++ == 0) {
				f_out = fo;
				e_out = dpa;
			}
		}
	}
	free(buf);
	if (n_size)
		say(k, "sparc64.tte-size", f_size, n_size, "%ju valid TTEs "
		    "whose tag's size bits differ from the data's; no lookup "
		    "matches them (the first in this slot)", (uintmax_t)n_size);
	if (n_un)
		say(k, "sparc64.tte-unreachable", f_un, n_un, "%ju valid "
		    "TTEs in slots a lookup never probes (the first maps va "
		    "%#jx, whose slots are from %ju)", (uintmax_t)n_un,
		    (uintmax_t)e_un, (uintmax_t)((e_un >> SP64_PAGE_SHIFT) &
		    (nslots - 1)));
	if (n_mis)
		say(k, "pmap.large-misaligned", f_mis, n_mis, "%ju large TTEs "
		    "whose physical address is not aligned to their size "
		    "(the first: %#jx)", (uintmax_t)n_mis, (uintmax_t)e_mis);
	if (n_out)
		say(k, "pmap.page-not-dumped", f_out, n_out, "%ju valid TTEs "
		    "map memory that is in no region of the dump (the first: "
		    "pa %#jx)", (uintmax_t)n_out, (uintmax_t)e_out);
}

/*
 * The header blob and the regions of the dump in ck->src (d: the
 * library's handle of it, or NULL when it refused the file: the header
 * blob is then at offset 0), and the TSB when d is there.
 */
static void
sp64_structure(struct dk_ck *ck, struct dk_dump *d, struct dk_sp64_check *res)
{
	const struct dk_src *src = &ck->src;
	struct sck k = { src, ck, res };
	const struct dk_sp64 *s = d != NULL ? d->priv : NULL;
	uint64_t ho = s != NULL ? s->hdr_off : 0;
	uint64_t delta = s != NULL ? s->delta : 0;
	uint8_t h[SP64_HDR_SIZE], *regs = NULL, *pad = NULL;
	struct reg_at *ra = NULL;
	uint64_t hs, tpa, tsz, mask, want, end = 0, n;
	int64_t sn;
	struct dk_err e;

	memset(res, 0, sizeof(*res));
	if (dk_src_pread(src, h, sizeof(h), ho, "header", &e) != DK_OK) {
		say(&k, "file.truncated", src->size, 1, "the file ends at "
		    "%#jx, inside the 40-byte sparc64 dump header",
		    (uintmax_t)src->size);
		return;
	}
	hs = dec_be64(h);
	tpa = dec_be64(h + 8);
	tsz = dec_be64(h + 16);
	mask = dec_be64(h + 24);
	sn = (int32_t)dec_be32(h + 32);
	if (sn <= 0 || sn > SP64_MAX_REGIONS) {
		say(&k, "sparc64.nregions", ho + 32, 1, "dh_nregions: expected "
		    "1 to %d regions, found %jd", SP64_MAX_REGIONS,
		    (intmax_t)sn);
		return;
	}
	n = (uint64_t)sn;
	want = (SP64_HDR_SIZE + SP64_REG_SIZE * n + SP64_HDR_ALIGN - 1) /
	    SP64_HDR_ALIGN * SP64_HDR_ALIGN;
	if (hs != want)
		say(&k, "sparc64.hdr-size", ho, 1, "dh_hdr_size: expected "
		    "roundup(40 + 24 x %ju, 512) = %#jx, found %#jx",
		    (uintmax_t)n, (uintmax_t)want, (uintmax_t)hs);
	regs = malloc(SP64_REG_SIZE * n);
	ra = calloc(n, sizeof(*ra));
	if (regs == NULL || ra == NULL)
		goto out;
	if (dk_src_pread(src, regs, SP64_REG_SIZE * n, ho + SP64_HDR_SIZE,
	    "regions", &e) != DK_OK) {
		say(&k, "file.truncated", src->size, 1, "the file ends at "
		    "%#jx, inside the %ju region descriptors [%#jx, %#jx)",
		    (uintmax_t)src->size, (uintmax_t)n,
		    (uintmax_t)(ho + SP64_HDR_SIZE),
		    (uintmax_t)(ho + SP64_HDR_SIZE + SP64_REG_SIZE * n));
		goto out;
	}
	/* Padding after the descriptors, up to dh_hdr_size. */
	if (hs > SP64_HDR_SIZE + SP64_REG_SIZE * n && hs <= want + 65536 &&
	    (pad = malloc(hs)) != NULL && dk_src_pread(src, pad, hs, ho,
	    "header", &e) == DK_OK)
		for (uint64_t i = SP64_HDR_SIZE + SP64_REG_SIZE * n; i < hs;
		    i++)
			if (pad[i] != 0) {
				say(&k, "header.tail-nonzero", ho + i, 1,
				    "byte %#jx between the region descriptors "
				    "and dh_hdr_size %#jx is %#x, not 0 (the "
				    "kernel's block buffer was zero)",
				    (uintmax_t)i, (uintmax_t)hs, pad[i]);
				break;
			}
	for (size_t i = 0; i < n; i++) {
		const uint8_t *p = regs + SP64_REG_SIZE * i;
		uint64_t at = ho + SP64_HDR_SIZE + SP64_REG_SIZE * i;
		struct reg_at *r = &ra[i];

		r->pa = dec_be64(p);
		r->size = dec_be64(p + 8);
		r->offs = dec_be64(p + 16);
		r->i = i;
		if (r->pa % SP64_PAGE_SIZE != 0)
			say(&k, "sparc64.region-range", at, 1, "region %zu: "
			    "dr_pa %#jx is not a multiple of 8 KiB", i,
			    (uintmax_t)r->pa);
		if (r->size == 0 || r->size % SP64_PAGE_SIZE != 0 ||
		    r->pa + r->size < r->pa)
			say(&k, "sparc64.region-range", at + 8, 1, "region "
			    "%zu: dr_size %#jx is not a non-zero multiple of 8 "
			    "KiB inside the address space", i,
			    (uintmax_t)r->size);
		if (i == 0 && r->offs != hs)
			say(&k, "sparc64.first-offset", at + 16, 1, "region 0: "
			    "dr_offs: expected dh_hdr_size %#jx, found %#jx",
			    (uintmax_t)hs, (uintmax_t)r->offs);
		if (i > 0 && r->offs != ra[i - 1].offs + ra[i - 1].size)
			say(&k, "sparc64.offsets-gap", at + 16, 1, "region "
			    "%zu: dr_offs: expected %#jx, where region %zu's "
			    "data ends, found %#jx", i,
			    (uintmax_t)(ra[i - 1].offs + ra[i - 1].size), i - 1,
			    (uintmax_t)r->offs);
		if (r->offs + r->size > end && r->offs + r->size >= r->offs)
			end = r->offs + r->size;
		res->npages += r->size / SP64_PAGE_SIZE;
		if (r->offs + delta < src->size)
			res->nstored += (r->size < src->size - r->offs - delta ?
			    r->size : src->size - r->offs - delta) /
			    SP64_PAGE_SIZE;
	}
	qsort(ra, n, sizeof(*ra), cmp_reg);
	for (size_t i = 1; i < n; i++)
		if (ra[i - 1].pa + ra[i - 1].size > ra[i].pa)
			say(&k, "sparc64.region-overlap", ho + SP64_HDR_SIZE +
			    SP64_REG_SIZE * ra[i].i, 1, "region %zu [%#jx, "
			    "%#jx) overlaps region %zu [%#jx, %#jx) in "
			    "physical memory", ra[i].i, (uintmax_t)ra[i].pa,
			    (uintmax_t)(ra[i].pa + ra[i].size), ra[i - 1].i,
			    (uintmax_t)ra[i - 1].pa,
			    (uintmax_t)(ra[i - 1].pa + ra[i - 1].size));
	/* The TSB: in one region, and the mask the size implies. */
	{
		size_t i;

		for (i = 0; i < n; i++)
			if (tpa >= ra[i].pa && tpa - ra[i].pa < ra[i].size &&
			    tsz <= ra[i].size - (tpa - ra[i].pa))
				break;
		if (i == n || tsz == 0)
			say(&k, "sparc64.tsb-outside", ho + 8, 1, "the TSB "
			    "[%#jx, +%#jx) is not inside one region: kernel "
			    "addresses outside the direct map do not translate",
			    (uintmax_t)tpa, (uintmax_t)tsz);
	}
	if (tsz % SP64_TTE_SLOT != 0 || mask >= tsz / SP64_TTE_SLOT ||
	    (mask & (mask + 1)) != 0)
		say(&k, "sparc64.tsb-mask", ho + 24, 1, "dh_tsb_mask %#jx: "
		    "expected 2^k - 1 below the %ju 32-byte slots of "
		    "dh_tsb_size %#jx", (uintmax_t)mask,
		    (uintmax_t)(tsz / SP64_TTE_SLOT), (uintmax_t)tsz);
	else if (mask + 1 != tsz / SP64_TTE_SLOT)
		say(&k, "sparc64.tsb-mask-small", ho + 24, 1, "dh_tsb_mask "
		    "%#jx indexes %ju slots; dh_tsb_size %#jx holds %ju",
		    (uintmax_t)mask, (uintmax_t)(mask + 1), (uintmax_t)tsz,
		    (uintmax_t)(tsz / SP64_TTE_SLOT));
	/* The file ends where the last region's data does. */
	if (end + delta > src->size)
		say(&k, "file.truncated", src->size, 1, "the file ends at "
		    "%#jx; the regions' data ends at %#jx (%ju of %ju pages "
		    "stored)", (uintmax_t)src->size,
		    (uintmax_t)(end + delta), (uintmax_t)res->nstored,
		    (uintmax_t)res->npages);
	else if (end + delta < src->size)
		say(&k, "file.trailing-bytes", end + delta, 1, "%ju bytes "
		    "after the end of the regions' data at %#jx",
		    (uintmax_t)(src->size - end - delta),
		    (uintmax_t)(end + delta));
	if (d != NULL && d->priv != NULL)
		tsb_check(&k, d);
out:
	free(regs);
	free(ra);
	free(pad);
}

/* ---------------------------------------------------------------------- */
/* The check.                                                              */

/* Where the stored regions' data ends in d's file. */
static uint64_t
sp64_pend(const struct dk_dump *d)
{
	const struct dk_sp64 *s = d->priv;

	return s->data_off + (d->info.npages_present << d->page_shift);
}

/*
 * A sparc64 dump, native or portable: the header blob and the TSB; then
 * the page data as for any dump (--pattern, --checksum), region by
 * region in physical order, the TSB's pages (TTEs, not the fixture
 * pattern) excepted.
 */
static enum dk_status
sp64_check(struct dk_ck *c, struct dk_err *err)
{
	struct dk_check_result *res = c->res;
	struct dk_sp64_check r;
	enum dk_status st;

	if (c->d == NULL && (st = dk_ck_open(c, err)) != DK_OK)
		return st;
	if (c->d != NULL && c->d->fmt != &dk_fmt_sparc64) {
		dk_close(c->d);
		c->d = NULL;
	}
	sp64_structure(c, c->d, &r);
	res->examined = 1;
	res->format = c->d != NULL ? dk_info(c->d)->format : "sparc64";
	snprintf(res->arch, sizeof(res->arch), "sparc64");
	res->version = 1;
	res->page_size = SP64_PAGE_SIZE;
	res->npages = r.npages;
	res->npages_present = r.nstored;
	if (c->d == NULL) {
		dk_ck_refused(c, "the TSB was not checked");
		return DK_OK;
	}
	res->deep = 1;
	if (c->o->quick)
		return DK_OK;
	if (c->o->pattern) {
		const struct dk_sp64 *sp = c->d->priv;
		uint64_t tpa = c->d->hdr.v[DK_SP64_F_TSB_PA];

		for (uint64_t o = 0; sp->tsb_ok && o < sp->tsb_nslots *
		    SP64_TTE_SLOT; o += SP64_PAGE_SIZE)
			if (dk_ck_pt_add(c, (tpa + o) & ~(SP64_PAGE_SIZE - 1)) <
			    0)
				break;
	}
	dk_ck_content(c, sp64_pend(c->d), c->o->pattern);
	return DK_OK;
}

/* What the formats table's sparc64 row gives dumpcheck (fmt_sparc64.c). */
const struct dk_format_check dk_sp64_check = {
	.probe		= sp64_check_probe,
	.check		= sp64_check,
	.codes		= sp64_codes,
	.ncodes		= DK_ARRAY_LEN(sp64_codes),
};
