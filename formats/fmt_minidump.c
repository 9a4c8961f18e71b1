/*
 * fmt_minidump.c -- FreeBSD minidumps, every architecture (FORMATS.md 1).
 *
 * A minidump is a sequence of page-aligned sections:
 *
 *	header page | msgbuf | [dump_avail] | bitmap | pmap area | pages
 *
 * The header is the kernel's struct minidumphdr, written natively at the
 * start of a zeroed page; each family (arch_*.c) supplies its layout
 * table.  Each section occupies round_page(size) bytes.  dump_avail
 * exists in the newest version of every family; without it bit i of the
 * bitmap is physical page i, with it the bits are numbered consecutively
 * across the dump_avail ranges (FORMATS.md 1.4).  Pages follow in
 * ascending physical order, one per set bit.
 *
 * The header does not state its byte order.  A family that exists in
 * both orders (arm) is decided by --arch, by the kernel's ELF image, or
 * by the version field, which reads as a small number in one order only.
 *
 * Producer quirks handled here: libkvm reads big-endian bitmaps as host
 * words and returns another page's bytes for a physical address in a
 * dump_avail hole; dumpkit does neither.  A truncated file is accepted:
 * the pages it lacks read as DK_ETRUNC naming their offset.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bytes.h"
#include "minidump.h"
#include "portable.h"
#include "private.h"

#define	MD_MAGIC_PREFIX		"minidump"
#define	MD_HDR_READ		4096	/* enough for every header */

static const struct dk_mdarch *const families[] = {
	&dk_md_amd64,
	&dk_md_i386,
	&dk_md_arm64,
	&dk_md_arm,		/* "minidump FreeBSD/arm" + NUL: after arm64 */
	&dk_md_mips,
	&dk_md_powerpc64,	/* its magic field is char[32], not [24] */
	&dk_md_riscv,
};

const struct dk_mdarch *
dk_md_family(const char *name)
{
	for (size_t i = 0; i < DK_ARRAY_LEN(families); i++)
		if (strcmp(families[i]->family, name) == 0)
			return families[i];
	return NULL;
}

/* A field of the family's layout that has the same place in every version. */
static const struct dk_field *
any_version(const struct dk_layout *l, unsigned id)
{
	for (size_t i = 0; i < l->nfields; i++)
		if (l->fields[i].id == id)
			return &l->fields[i];
	return NULL;
}

static uint64_t
round_up(uint64_t x, uint64_t page)
{
	return (x + page - 1) & ~(page - 1);
}

static enum dk_status
md_probe(const struct dk_src *src, struct dk_err *err)
{
	uint8_t m[8];

	if (src->size < sizeof(m))
		return DK_NOMATCH;
	if (dk_src_pread(src, m, sizeof(m), 0, "magic", err) != DK_OK)
		return err->code;
	return memcmp(m, MD_MAGIC_PREFIX, sizeof(m)) == 0 ? DK_OK :
	    DK_NOMATCH;
}

/* Which family's magic, compared with its NUL padding, is at buf? */
static const struct dk_mdarch *
match_family(const uint8_t *buf)
{
	for (size_t i = 0; i < DK_ARRAY_LEN(families); i++) {
		const struct dk_field *f = any_version(families[i]->layout,
		    DK_H_MAGIC);
		char want[64] = { 0 };

		strncpy(want, families[i]->magic, sizeof(want) - 1);
		if (memcmp(buf + f->off, want, f->size) == 0)
			return families[i];
	}
	return NULL;
}

/*
 * Choose the architecture row: --arch, then --kernel, then the rows of
 * the family on which the version field reads as one of the family's
 * versions and whose family hook finds the header plausible.  One
 * candidate decides; several mean the dump alone cannot tell, and the
 * caller is asked for --arch rather than given a guess.
 */
static enum dk_status
choose_row(struct dk_dump *d, const struct dk_mdarch *md, const uint8_t *buf,
    const struct dk_open_opts *o, struct dk_err *err)
{
	const struct dk_field *vf = any_version(md->layout, DK_H_VERSION);
	const struct dk_arch *row = NULL, *a, *pick = NULL;
	char names[128] = "", why[96] = "", reason[96];
	size_t nrows = 0, ncand = 0, n;
	enum dk_status st;
	uint64_t v, vle, vbe;

	if (o != NULL && o->arch != NULL) {
		row = dk_arch_by_name(o->arch);
		if (row == NULL)
			return dk_err_set(err, DK_EINVAL, "unknown "
			    "architecture '%s'", o->arch);
		d->info.arch_by = DK_BY_OPTION;
		snprintf(d->arch_why, sizeof(d->arch_why), "--arch %s",
		    o->arch);
	} else if (o != NULL && o->kernel != NULL) {
		if ((st = dk_arch_from_kernel(o->kernel, &row, err)) != DK_OK)
			return st;
		d->info.arch_by = DK_BY_KERNEL;
		snprintf(d->arch_why, sizeof(d->arch_why), "kernel ELF "
		    "header of %s", o->kernel);
	}
	if (row != NULL) {
		if (row->minidump != md)
			return dk_err_at(err, DK_EINVAL, d->src.name, 0, "the "
			    "magic says \"%s\", which is not a minidump of %s "
			    "(%s)", md->magic, row->name, d->arch_why);
		d->arch = row;
		return DK_OK;
	}
	for (size_t i = 0; (a = dk_arch_at(i)) != NULL; i++) {
		struct dk_hdr h;

		if (a->minidump != md)
			continue;
		nrows++;
		v = dec_uint(buf + vf->off, vf->size, a->endian);
		if (v >= 16 || !(md->versions & DK_V(v)))
			continue;
		reason[0] = '\0';
		dk_layout_decode(md->layout, (unsigned)v, buf, a->endian, &h);
		if (md->plausible != NULL && !md->plausible(a, &h, reason,
		    sizeof(reason)))
			continue;
		if (ncand++ == 0) {
			pick = a;
			snprintf(why, sizeof(why), "%s", reason);
		}
		n = strlen(names);
		snprintf(names + n, sizeof(names) - n, "%s%s", n ? ", " : "",
		    a->name);
	}
	vle = dec_uint(buf + vf->off, vf->size, DK_LE);
	vbe = dec_uint(buf + vf->off, vf->size, DK_BE);
	if (ncand == 0)
		return dk_err_off(err, DK_EUNSUP, vf->off, "%s: offset %u: "
		    "expected a %s minidump version (mask %#x), found 0x%08jx "
		    "read little-endian, 0x%08jx read big-endian", d->src.name,
		    vf->off, md->family, md->versions, (uintmax_t)vle,
		    (uintmax_t)vbe);
	if (ncand > 1)
		return dk_err_set(err, DK_EAMBIG, "%s: this %s minidump could "
		    "have been written by %s; name the architecture with "
		    "--arch or give the kernel with --kernel", d->src.name,
		    md->family, names);
	d->arch = pick;
	if (nrows == 1) {
		d->info.arch_by = DK_BY_FORMAT;
		snprintf(d->arch_why, sizeof(d->arch_why), "%s minidumps "
		    "exist in one byte order only", md->family);
		return DK_OK;
	}
	d->info.arch_by = DK_BY_HEADER;
	v = pick->endian == DK_BE ? vbe : vle;
	snprintf(d->arch_why, sizeof(d->arch_why), "the version field at "
	    "offset %u is %ju only when read %s-endian%s%s", vf->off,
	    (uintmax_t)v, pick->endian == DK_BE ? "big" : "little",
	    why[0] ? "; " : "", why);
	return DK_OK;
}

static void
add_section(struct dk_dump *d, const char *name, uint64_t off, uint64_t size)
{
	dk_add_section(d, name, off, size, round_up(size, d->page_size));
}

/* Read and check dump_avail: [start, end) pairs ended by an end of 0. */
static enum dk_status
load_avail(struct dk_dump *d, uint64_t size, struct dk_err *err)
{
	struct dk_md *m = dk_md(d);
	uint64_t nbytes = size < DK_MAX_AVAIL * 16 ? size : DK_MAX_AVAIL * 16;
	enum dk_endian e = d->arch->endian;
	uint8_t *buf;
	size_t n = 0, cap = nbytes / 16;
	enum dk_status st;

	buf = malloc(nbytes ? nbytes : 1);
	d->avail = calloc(cap + 1, sizeof(*d->avail));
	m->avail_bit = calloc(cap + 2, sizeof(*m->avail_bit));
	if (buf == NULL || d->avail == NULL || m->avail_bit == NULL) {
		free(buf);
		return dk_err_set(err, DK_ENOMEM, "dump_avail: out of memory");
	}
	st = dk_src_pread(&d->src, buf, nbytes, m->off_avail, "dump_avail",
	    err);
	for (; st == DK_OK; n++) {
		uint64_t start, end;

		if (n == cap) {
			st = dk_err_at(err,
			    size > nbytes ? DK_ELIMIT : DK_ECORRUPT,
			    d->src.name, m->off_avail, "dump_avail: no "
			    "terminating pair (end 0) in %zu pairs", n);
			break;
		}
		start = dec_uint(buf + 16 * n, 8, e);
		end = dec_uint(buf + 16 * n + 8, 8, e);
		if (end == 0)
			break;
		if (end <= start) {
			st = dk_err_at(err, DK_ECORRUPT, d->src.name,
			    m->off_avail + 16 * n, "dump_avail[%zu]: expected "
			    "start < end, found [%#jx, %#jx)", n,
			    (uintmax_t)start, (uintmax_t)end);
			break;
		}
		/*
		 * Ascending and disjoint in whole pages, as the kernel writes
		 * them: otherwise one page would have two bits.
		 */
		if (n > 0 && (start >> d->page_shift) <
		    (d->avail[n - 1].end >> d->page_shift) +
		    ((d->avail[n - 1].end & (d->page_size - 1)) != 0)) {
			st = dk_err_at(err, DK_ECORRUPT, d->src.name,
			    m->off_avail + 16 * n, "dump_avail[%zu]: expected "
			    "a start at or above the page after the end %#jx "
			    "of the previous range, found %#jx", n,
			    (uintmax_t)d->avail[n - 1].end, (uintmax_t)start);
			break;
		}
		d->avail[n].start = start;
		d->avail[n].end = end;
		DK_TRACE(d, "dump_avail[%zu] = [%#jx, %#jx)", n,
		    (uintmax_t)start, (uintmax_t)end);
	}
	free(buf);
	d->navail = n;
	return st;
}

/* Pages of range r, counted as the kernel counts them (FORMATS.md 1.4). */
static uint64_t
range_pages(const struct dk_dump *d, const struct dk_range *r)
{
	uint64_t mask = d->page_size - 1;

	return ((r->end >> d->page_shift) + ((r->end & mask) != 0)) -
	    (r->start >> d->page_shift);
}

static enum dk_status
load_bitmap(struct dk_dump *d, uint64_t bitmapsize, struct dk_err *err)
{
	struct dk_md *m = dk_md(d);
	unsigned ws = m->fam->bitmap_word(d->arch, d->info.version);
	uint64_t nbits = 0, nbytes;
	enum dk_status st;

	if (!DK_H_HAS(&d->hdr, DK_H_DUMPAVAILSIZE)) {
		/* No dump_avail: bit i is physical page i. */
		d->avail = calloc(1, sizeof(*d->avail));
		m->avail_bit = calloc(2, sizeof(*m->avail_bit));
		if (d->avail == NULL || m->avail_bit == NULL)
			return dk_err_set(err, DK_ENOMEM, "out of memory");
		d->navail = 1;
		d->avail[0].end = (bitmapsize * 8) << d->page_shift;
		if (bitmapsize == 0)
			d->navail = 0;
	}
	for (size_t i = 0; i < d->navail; i++) {
		m->avail_bit[i] = nbits;
		nbits += range_pages(d, &d->avail[i]);
		if (nbits > bitmapsize * 8)
			return dk_err_at(err, DK_ECORRUPT, d->src.name,
			    m->off_avail + 16 * i, "dump_avail[%zu] needs "
			    "bits up to %ju, but the bitmap has %ju "
			    "(bitmapsize %#jx)", i, (uintmax_t)nbits,
			    (uintmax_t)(bitmapsize * 8), (uintmax_t)bitmapsize);
	}
	m->avail_bit[d->navail] = nbits;
	if ((st = dk_bitmap_init(&m->bm, nbits, err)) != DK_OK)
		return st;
	/*
	 * Only the bytes holding meaningful bits, in whole words, and of
	 * them only the file's data: the writer leaves a huge machine's
	 * pages of clear bits as holes.
	 */
	nbytes = (nbits + 8 * ws - 1) / (8 * ws) * ws;
	st = dk_bitmap_read(&m->bm, &d->src, m->off_bitmap, nbytes, ws,
	    d->arch->endian, "bitmap", err);
	if (st == DK_OK)
		st = dk_bitmap_index(&m->bm, err);
	DK_TRACE(d, "bitmap: %ju bits in %u-byte %s-endian words, %ju set",
	    (uintmax_t)nbits, ws, d->arch->endian == DK_BE ? "big" : "little",
	    (uintmax_t)m->bm.count);
	return st;
}

/*
 * Decode a minidump header page: family, architecture row, version,
 * fields, and the family's setup (page size, direct map).  buf holds
 * len bytes of the page, found at file offset base (0 in a minidump;
 * a note's descriptor in the portable format, whose row is given), and
 * is readable, zero-filled, for at least MD_HDR_READ bytes.
 */
enum dk_status
dk_md_header(struct dk_dump *d, const uint8_t *buf, size_t len,
    uint64_t base, const struct dk_arch *row, const struct dk_open_opts *o,
    struct dk_err *err)
{
	struct dk_md *m = dk_md(d);
	const struct dk_mdarch *md;
	const struct dk_field *vf;
	size_t hsize;
	enum dk_status st;

	md = match_family(buf);
	if (md == NULL) {
		char seen[33];
		size_t i;

		for (i = 0; i < 32 && i < len && buf[i] >= 0x20 &&
		    buf[i] < 0x7f; i++)
			seen[i] = (char)buf[i];
		seen[i] = '\0';
		return dk_err_at(err, DK_EUNSUP, d->src.name, base, "expected "
		    "the magic of a known minidump (\"minidump "
		    "FreeBSD/<arch>\" and NULs), found \"%s\"", seen);
	}
	m->fam = md;
	d->hlayout = md->layout;
	vf = any_version(md->layout, DK_H_VERSION);
	if (vf == NULL || md->versions == 0)
		return dk_err_at(err, DK_EUNSUP, d->src.name, base, "%s "
		    "minidumps are not read yet", md->family);
	if (len < (size_t)vf->off + vf->size)
		return dk_err_at(err, DK_ETRUNC, d->src.name, base + vf->off,
		    "the header ends before its version field (%zu bytes)",
		    len);
	if (row != NULL) {
		if (row->minidump != md)
			return dk_err_at(err, DK_ECORRUPT, d->src.name, base,
			    "the header's magic \"%s\" is not that of %s",
			    md->magic, row->name);
		d->arch = row;
	} else if ((st = choose_row(d, md, buf, o, err)) != DK_OK)
		return st;
	d->info.arch = d->arch->name;
	d->info.arch_why = d->arch_why;
	d->info.endian = d->arch->endian;
	d->info.version = (uint32_t)dec_uint(buf + vf->off, vf->size,
	    d->arch->endian);
	if (d->info.version >= 16 || !(md->versions & DK_V(d->info.version)))
		return dk_err_at(err, DK_EUNSUP, d->src.name, base + vf->off,
		    "expected a %s minidump version (mask %#x), found %u",
		    md->family, md->versions, d->info.version);
	hsize = dk_layout_size(md->layout, d->info.version);
	if (len < hsize)
		return dk_err_at(err, DK_ETRUNC, d->src.name, base + len,
		    "the version %u header needs %zu bytes, found %zu",
		    d->info.version, hsize, len);
	dk_layout_decode(md->layout, d->info.version, buf, d->arch->endian,
	    &d->hdr);
	DK_TRACE(d, "family %s, row %s (%s), version %u", md->family,
	    d->arch->name, d->arch_why, d->info.version);
	for (size_t i = 0; i < md->layout->nfields; i++) {
		const struct dk_field *f = &md->layout->fields[i];

		if ((f->versions & DK_V(d->info.version)) &&
		    f->kind != DK_FK_PAD && f->kind != DK_FK_CHARS)
			DK_TRACE(d, "header @%u %s = %#jx", f->off, f->name,
			    (uintmax_t)d->hdr.v[f->id]);
	}
	d->page_shift = 12;
	if (md->setup != NULL && (st = md->setup(d, err)) != DK_OK)
		return st;
	d->page_size = (uint64_t)1 << d->page_shift;
	d->info.page_size = (uint32_t)d->page_size;
	d->info.kernbase = d->hdr.v[DK_H_KERNBASE];
	m->hsize = hsize;
	return DK_OK;
}

/*
 * With off_msgbuf, off_avail, off_bitmap, off_pmap and off_pages set and
 * checked against the file: read dump_avail and the bitmap, count the
 * pages the file holds.
 */
enum dk_status
dk_md_load(struct dk_dump *d, struct dk_err *err)
{
	struct dk_md *m = dk_md(d);
	enum dk_status st;

	if (DK_H_HAS(&d->hdr, DK_H_DUMPAVAILSIZE) &&
	    (st = load_avail(d, d->hdr.v[DK_H_DUMPAVAILSIZE], err)) != DK_OK)
		return st;
	if ((st = load_bitmap(d, d->hdr.v[DK_H_BITMAPSIZE], err)) != DK_OK)
		return st;
	if (m->pte_size != 0)
		m->pmap_nent = d->hdr.v[DK_H_PMAPSIZE] / m->pte_size;
	d->pt_nent = m->pmap_nent;
	d->info.npages = m->bm.count;
	d->info.npages_present = d->src.size < m->off_pages ? 0 :
	    (d->src.size - m->off_pages) >> d->page_shift;
	if (d->info.npages_present > d->info.npages)
		d->info.npages_present = d->info.npages;
	DK_TRACE(d, "pages at %#jx: %ju in the bitmap, %ju in the file",
	    (uintmax_t)m->off_pages, (uintmax_t)d->info.npages,
	    (uintmax_t)d->info.npages_present);
	return DK_OK;
}

static enum dk_status
md_open(struct dk_dump *d, const struct dk_open_opts *o, struct dk_err *err)
{
	uint8_t buf[MD_HDR_READ] = { 0 };
	size_t n;
	uint64_t off, end, sz[4], *offp[4];
	struct dk_md *m;
	enum dk_status st;
	static const char *const names[] = { "msgbuf", "dump_avail",
	    "bitmap", "pmap" };

	if ((st = dk_md_new(d, err)) != DK_OK)
		return st;
	m = dk_md(d);
	offp[0] = &m->off_msgbuf;
	offp[1] = &m->off_avail;
	offp[2] = &m->off_bitmap;
	offp[3] = &m->off_pmap;
	n = d->src.size < sizeof(buf) ? (size_t)d->src.size : sizeof(buf);
	if ((st = dk_src_pread(&d->src, buf, n, 0, "header", err)) != DK_OK)
		return st;
	if ((st = dk_md_header(d, buf, n, 0, NULL, o, err)) != DK_OK)
		return st;
	d->info.format = "minidump";

	/* Sections, in file order (FORMATS.md 1.3). */
	sz[0] = d->hdr.v[DK_H_MSGBUFSIZE];
	sz[1] = d->hdr.v[DK_H_DUMPAVAILSIZE];
	sz[2] = d->hdr.v[DK_H_BITMAPSIZE];
	sz[3] = d->hdr.v[DK_H_PMAPSIZE];
	dk_add_section(d, "header", 0, m->hsize, d->page_size);
	off = d->page_size;
	for (int i = 0; i < 4; i++) {
		*offp[i] = off;
		if (i == 1 && !DK_H_HAS(&d->hdr, DK_H_DUMPAVAILSIZE))
			continue;
		add_section(d, names[i], off, sz[i]);
		end = off + round_up(sz[i], d->page_size);
		DK_TRACE(d, "section %s at %#jx, %#jx bytes", names[i],
		    (uintmax_t)off, (uintmax_t)sz[i]);
		if (end > d->src.size)
			return dk_err_at(err, DK_ETRUNC, d->src.name, off,
			    "section %s [%#jx, %#jx) extends past the end of "
			    "the file at %#jx", names[i], (uintmax_t)off,
			    (uintmax_t)end, (uintmax_t)d->src.size);
		off = end;
	}
	m->off_pages = off;
	if ((st = dk_md_load(d, err)) != DK_OK)
		return st;
	add_section(d, "pages", m->off_pages, d->info.npages << d->page_shift);
	return DK_OK;
}

enum dk_status
dk_md_new(struct dk_dump *d, struct dk_err *err)
{
	struct dk_md *m = calloc(1, sizeof(*m));

	if (m == NULL)
		return dk_err_set(err, DK_ENOMEM, "%s: out of memory",
		    d->src.name);
	m->pmc_off = UINT64_MAX;
	d->priv = m;
	return DK_OK;
}

void
dk_md_close(struct dk_dump *d)
{
	struct dk_md *m = dk_md(d);

	if (m == NULL)
		return;
	free(m->avail_bit);
	free(m->pmap_mem);
	free(m->fam_index);
	dk_bitmap_free(&m->bm);
	free(m);
	d->priv = NULL;
}

/* The msgbuf section, as stored: at most len bytes of it. */
static enum dk_status
md_read_log(struct dk_dump *d, void *buf, size_t len, size_t *got,
    struct dk_err *err)
{
	uint64_t size = d->hdr.v[DK_H_MSGBUFSIZE];
	size_t n = size < len ? (size_t)size : len;

	*got = 0;
	if (dk_src_pread(&d->src, buf, n, dk_md(d)->off_msgbuf, "msgbuf",
	    err) != DK_OK)
		return err->code;
	*got = n;
	return DK_OK;
}

/* The kernel map, page by page through the family's translation. */
static int
md_kmap_next(struct dk_dump *d, struct dk_kmap_iter *it,
    struct dk_kmap_run *run, struct dk_err *err)
{
	if (dk_md(d)->fam->kvtop == NULL)
		return 0;
	return dk_kmap_walk(d, it, run, dk_md_kvtop_prot, err);
}

/*
 * The dump_avail range holding the page of pa, or navail.  Ranges are
 * compared in whole pages, as the kernel numbers their bits: a range
 * that starts inside a page covers that page (FORMATS.md 1.4).  Ranges
 * are ascending and disjoint in pages (load_avail checks it).
 */
static size_t
find_range(const struct dk_dump *d, uint64_t pa)
{
	struct dk_md *m = dk_md(d);
	uint64_t pfn = pa >> d->page_shift;
	size_t lo = 0, hi = d->navail;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t first = d->avail[mid].start >> d->page_shift;

		if (pfn < first)
			hi = mid;
		else if (pfn - first >= m->avail_bit[mid + 1] -
		    m->avail_bit[mid])
			lo = mid + 1;
		else
			return mid;
	}
	return d->navail;
}

enum dk_status
dk_md_pa_offset(struct dk_dump *d, uint64_t pa, uint64_t *offp,
    struct dk_err *err)
{
	struct dk_md *m = dk_md(d);
	size_t r = find_range(d, pa);
	uint64_t bit, rank, off;

	if (r == d->navail)
		return dk_err_miss(d, err, DK_ENOTDUMPED, "physical address %#jx "
		    "is outside physical memory (in no dump_avail range)",
		    (uintmax_t)pa);
	bit = m->avail_bit[r] + (pa >> d->page_shift) -
	    (d->avail[r].start >> d->page_shift);
	if (!dk_bitmap_test(&m->bm, bit))
		return dk_err_miss(d, err, DK_ENOTDUMPED, "physical address %#jx: "
		    "page not in the dump (bitmap bit %ju is clear)",
		    (uintmax_t)pa, (uintmax_t)bit);
	rank = dk_bitmap_rank(&m->bm, bit);
	off = m->off_pages + (rank << d->page_shift) +
	    (pa & (d->page_size - 1));
	if (rank >= d->info.npages_present)
		return dk_err_off(err, DK_ETRUNC, off & ~(d->page_size - 1),
		    "physical address %#jx: page %ju of the dump should be at "
		    "offset %#jx, past the end of the truncated file at %#jx",
		    (uintmax_t)pa, (uintmax_t)rank,
		    (uintmax_t)(off & ~(d->page_size - 1)),
		    (uintmax_t)d->src.size);
	*offp = off;
	return DK_OK;
}

/*
 * The first stored page at or after the page-aligned pa: the next set
 * bit from pa's (or from the next dump_avail range's first) that the
 * file holds, as a physical address; UINT64_MAX if none.
 */
static uint64_t
md_pa_next(struct dk_dump *d, uint64_t pa)
{
	struct dk_md *m = dk_md(d);
	uint64_t pfn = pa >> d->page_shift, bit, b;
	size_t lo = 0, hi = d->navail;

	/* The first range that ends above pa. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t first = d->avail[mid].start >> d->page_shift;

		if (pfn >= first && pfn - first >= m->avail_bit[mid + 1] -
		    m->avail_bit[mid])
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == d->navail)
		return UINT64_MAX;
	bit = m->avail_bit[lo];
	if (pfn > d->avail[lo].start >> d->page_shift)
		bit += pfn - (d->avail[lo].start >> d->page_shift);
	b = dk_bitmap_next(&m->bm, bit, 1);
	if (b >= m->avail_bit[d->navail] ||
	    dk_bitmap_rank(&m->bm, b) >= d->info.npages_present)
		return UINT64_MAX;
	/* The range of bit b. */
	lo = 0;
	hi = d->navail;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->avail_bit[mid] <= b)
			lo = mid;
		else
			hi = mid;
	}
	return ((d->avail[lo].start >> d->page_shift) + (b -
	    m->avail_bit[lo])) << d->page_shift;
}

/*
 * The stored pages from the page-aligned pa on, in bytes (at most max):
 * the set bits from pa's up to the next clear one, within pa's range
 * (the next range's bits are not its pages) and the pages the file
 * holds.  Their ranks are consecutive, so are their offsets.
 */
static uint64_t
md_pa_span(struct dk_dump *d, uint64_t pa, uint64_t max)
{
	struct dk_md *m = dk_md(d);
	size_t r = find_range(d, pa);
	uint64_t bit, end, rank, n;

	if (r == d->navail)
		return 0;
	bit = m->avail_bit[r] + (pa >> d->page_shift) -
	    (d->avail[r].start >> d->page_shift);
	if (!dk_bitmap_test(&m->bm, bit) ||
	    (rank = dk_bitmap_rank(&m->bm, bit)) >= d->info.npages_present)
		return 0;
	max >>= d->page_shift;
	end = m->avail_bit[r + 1];
	if (end - bit > max)
		end = bit + max;
	if (end - bit > d->info.npages_present - rank)
		end = bit + (d->info.npages_present - rank);
	n = dk_bitmap_next(&m->bm, bit, 0);
	if (n > end)
		n = end;
	return (n - bit) << d->page_shift;
}

enum dk_status
dk_md_kvtop(struct dk_dump *d, uint64_t va, uint64_t *pa, struct dk_err *err)
{
	return dk_md_kvtop_prot(d, va, pa, NULL, err);
}

enum dk_status
dk_md_kvtop_prot(struct dk_dump *d, uint64_t va, uint64_t *pa,
    unsigned *prot, struct dk_err *err)
{
	d->unmapped_to = 0;
	const struct dk_window *w = dk_dmap(d);

	if (w != NULL && va >= w->va && va < w->end) {
		*pa = va - w->va + w->pa;
		DK_TRACE(d, "va %#jx: direct map -> pa %#jx", (uintmax_t)va,
		    (uintmax_t)*pa);
		if (prot != NULL)
			*prot = DK_PROT_W;
		return DK_OK;
	}
	return dk_md(d)->fam->kvtop(d, va, pa, prot, err);
}

/*
 * Hold the aligned block of the pmap area that holds the entry at file
 * offset off (what of it the file holds) in m->pmc.
 */
static enum dk_status
pmc_fill(struct dk_dump *d, uint64_t off, struct dk_err *err)
{
	struct dk_md *m = dk_md(d);
	uint64_t start = off - (off - m->off_pmap) % sizeof(m->pmc);
	uint64_t end = m->off_pmap + m->pmap_nent * m->pte_size;
	size_t n;
	enum dk_status st;

	if (off >= m->pmc_off && off + m->pte_size <= m->pmc_off + m->pmc_len)
		return DK_OK;
	if (end > d->src.size)
		end = d->src.size;
	n = end - start < sizeof(m->pmc) ? (size_t)(end - start) :
	    sizeof(m->pmc);
	m->pmc_off = UINT64_MAX;
	if ((st = dk_src_pread(&d->src, m->pmc, n, start, "pmap entry",
	    err)) != DK_OK)
		return st;
	m->pmc_off = start;
	m->pmc_len = n;
	m->pmc_reads++;
	return DK_OK;
}

/* Entries of the pmap area the file holds whole. */
static uint64_t
pmap_held(const struct dk_dump *d)
{
	const struct dk_md *m = dk_md(d);
	uint64_t n;

	if (m->off_pmap >= d->src.size)
		return 0;
	n = (d->src.size - m->off_pmap) / m->pte_size;
	return n < m->pmap_nent ? n : m->pmap_nent;
}

enum dk_status
dk_md_pmap_entry(struct dk_dump *d, uint64_t idx, uint64_t *v,
    struct dk_err *err)
{
	struct dk_md *m = dk_md(d);
	uint64_t off;
	enum dk_status st;

	if (idx >= m->pmap_nent)
		return dk_err_miss(d, err, DK_ENOTMAPPED, "pmap index %ju is past "
		    "the %ju entries of the page-table area", (uintmax_t)idx,
		    (uintmax_t)m->pmap_nent);
	off = m->off_pmap + idx * m->pte_size;
	if (idx >= pmap_held(d)) {
		/*
		 * Past the end of a cut file.  Every family's entries are in
		 * VA order (a PTE per page, amd64's PDE per 2 MiB), so the
		 * rest of the kernel map is cut too: the walk stops here.
		 */
		d->unmapped_to = d->info.kva_end;
		return dk_err_at(err, DK_ETRUNC, d->src.name, off, "pmap "
		    "entry %ju needs %u bytes at %#jx, but the file ends at "
		    "%#jx", (uintmax_t)idx, m->pte_size, (uintmax_t)off,
		    (uintmax_t)d->src.size);
	}
	if ((st = pmc_fill(d, off, err)) != DK_OK)
		return st;
	*v = dec_uint(m->pmc + (off - m->pmc_off), m->pte_size,
	    d->arch->endian);
	DK_TRACE(d, "pmap[%ju] @%#jx = %#jx", (uintmax_t)idx, (uintmax_t)off,
	    (uintmax_t)*v);
	return DK_OK;
}

void
dk_md_pmap_zero(struct dk_dump *d, uint64_t va, uint64_t idx,
    unsigned shift)
{
	uint64_t base = va & ~((1ull << shift) - 1);
	uint64_t n = dk_md_pmap_nonzero(d, idx + 1) - idx;

	/* n >= 1; past the top of the address space is its end. */
	d->unmapped_to = n > (UINT64_MAX - base) >> shift ? UINT64_MAX :
	    base + (n << shift);
}

uint64_t
dk_md_pmap_nonzero(struct dk_dump *d, uint64_t idx)
{
	struct dk_md *m = dk_md(d);
	uint64_t held = pmap_held(d), from = idx;
	struct dk_err e;

	if (m->zr_valid && idx >= m->zr_from && idx <= m->zr_to)
		return m->zr_to;
	while (idx < held) {
		uint64_t off = m->off_pmap + idx * m->pte_size, k, n;
		const uint8_t *p;

		dk_err_clear(&e);
		if (pmc_fill(d, off, &e) != DK_OK)
			return idx;	/* the read's error is the entry's */
		k = (off - m->pmc_off) / m->pte_size;
		n = m->pmc_len / m->pte_size;
		if (n - k > held - idx)
			n = k + (held - idx);
		p = m->pmc + k * m->pte_size;
		if (dk_all_zero(p, (size_t)((n - k) * m->pte_size))) {
			idx += n - k;
			continue;
		}
		for (; k < n; k++, idx++, p += m->pte_size)
			if (!dk_all_zero(p, m->pte_size))
				goto found;
	}
found:
	m->zr_from = from;
	m->zr_to = idx;
	m->zr_valid = 1;
	return idx;
}

/*
 * Read len bytes at offset off of the pmap area.  The first call loads
 * the whole area into memory when it is at most DK_PMAP_MEM_MAX bytes
 * (it is metadata: memory stays proportional to it), so that families
 * that probe it at random (the powerpc64 hashed page table) do not pay
 * a pread per probe; larger areas are read with pread.
 */
enum dk_status
dk_md_pmap_read(struct dk_dump *d, uint64_t off, void *buf, size_t len,
    struct dk_err *err)
{
	struct dk_md *m = dk_md(d);
	uint64_t size = d->hdr.v[DK_H_PMAPSIZE];

	if (off > size || len > size - off)
		return dk_err_miss(d, err, DK_ENOTMAPPED, "pmap bytes [%#jx, +%zu) "
		    "are past the page-table area's %#jx bytes",
		    (uintmax_t)off, len, (uintmax_t)size);
	if (m->pmap_mem == NULL && size <= DK_PMAP_MEM_MAX && size > 0 &&
	    !m->pmap_mem_failed) {
		m->pmap_mem = malloc((size_t)size);
		if (m->pmap_mem == NULL || dk_src_pread(&d->src, m->pmap_mem,
		    (size_t)size, m->off_pmap, "pmap area", err) != DK_OK) {
			free(m->pmap_mem);
			m->pmap_mem = NULL;
			m->pmap_mem_failed = 1;
		}
	}
	if (m->pmap_mem != NULL) {
		memcpy(buf, m->pmap_mem + off, len);
		return DK_OK;
	}
	return dk_src_pread(&d->src, buf, len, m->off_pmap + off, "pmap area",
	    err);
}

int
dk_md_run_next(const struct dk_dump *d, struct dk_run_iter *it,
    struct dk_run *run)
{
	struct dk_md *m = dk_md(d);
	uint64_t b = dk_bitmap_next(&m->bm, it->next_bit, 1);
	uint64_t e, rend;
	size_t r = it->range;

	if (b >= m->bm.nbits)
		return 0;
	while (r + 1 < d->navail && m->avail_bit[r + 1] <= b)
		r++;
	rend = m->avail_bit[r + 1];
	e = dk_bitmap_next(&m->bm, b, 0);
	if (e > rend)
		e = rend;
	run->pa = ((d->avail[r].start >> d->page_shift) + (b -
	    m->avail_bit[r])) << d->page_shift;
	run->len = (e - b) << d->page_shift;
	/* No bit of [next_bit, b) is set, every bit of [b, e) is. */
	run->offset = m->off_pages + (it->rank << d->page_shift);
	it->rank += e - b;
	it->next_bit = e;
	it->range = r;
	return 1;
}

/* ---------------------------------------------------------------------- */
/* In the portable ELF minidump (portable.h): the header page, msgbuf,    */
/* dump_avail, bitmap and pmap in notes, the pages one per set bit.       */

/* Reading a portable minidump: this reader, on the notes. */
static enum dk_status
md_popen(struct dk_dump *d, const struct dk_pctx *c, struct dk_err *err)
{
	static const struct { int type; unsigned id; const char *name; }
	    sect[] = {
		{ DK_PN_MSGBUF, DK_H_MSGBUFSIZE, "msgbuf" },
		{ DK_PN_DUMP_AVAIL, DK_H_DUMPAVAILSIZE, "dump_avail" },
		{ DK_PN_BITMAP, DK_H_BITMAPSIZE, "bitmap" },
		{ DK_PN_PMAP, DK_H_PMAPSIZE, "pmap" },
	};
	const struct dk_pnote *notes = c->notes;
	const uint8_t *info = c->info;
	uint64_t ioff = notes[DK_PN_INFO].off, psize, stored, *offp[4];
	enum dk_endian e = c->e;
	uint8_t hbuf[4096] = { 0 };
	struct dk_md *m;
	enum dk_status st;
	size_t n;

	/* From now on this reader's close frees what it allocates. */
	d->fmt = &dk_fmt_minidump;
	if ((st = dk_md_new(d, err)) != DK_OK)
		return st;
	m = dk_md(d);
	offp[0] = &m->off_msgbuf;
	offp[1] = &m->off_avail;
	offp[2] = &m->off_bitmap;
	offp[3] = &m->off_pmap;
	psize = dec_uint(info + 12, 4, e);
	if (!notes[DK_PN_SOURCE_HEADER].seen ||
	    notes[DK_PN_SOURCE_HEADER].size != psize)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, c->noff,
		    "expected a source header note of page_size %ju bytes, "
		    "found %s%ju", (uintmax_t)psize,
		    notes[DK_PN_SOURCE_HEADER].seen ? "" : "none, ",
		    (uintmax_t)notes[DK_PN_SOURCE_HEADER].size);
	n = psize < sizeof(hbuf) ? (size_t)psize : sizeof(hbuf);
	if ((st = dk_src_pread(&d->src, hbuf, n,
	    notes[DK_PN_SOURCE_HEADER].off, "source header", err)) != DK_OK)
		return st;
	m->off_header = notes[DK_PN_SOURCE_HEADER].off;
	if ((st = dk_md_header(d, hbuf, n, m->off_header, c->row, NULL,
	    err)) != DK_OK)
		return st;
	if (d->page_size != psize || d->info.version != dec_uint(info + 8, 4,
	    e))
		return dk_err_at(err, DK_ECORRUPT, d->src.name, ioff, "the "
		    "info note says page size %ju, version %ju; the source "
		    "header says %ju, %u", (uintmax_t)psize,
		    (uintmax_t)dec_uint(info + 8, 4, e),
		    (uintmax_t)d->page_size, d->info.version);
	d->info.format = "portable-elf";
	dk_add_section(d, "elf headers", 0, c->noff, c->noff);
	dk_add_section(d, "notes", c->noff, c->nsize, c->nsize);
	for (size_t i = 0; i < DK_ARRAY_LEN(sect); i++) {
		const struct dk_pnote *nt = &notes[sect[i].type];
		uint64_t want = d->hdr.v[sect[i].id];

		*offp[i] = nt->off;
		if (sect[i].type == DK_PN_DUMP_AVAIL &&
		    !DK_H_HAS(&d->hdr, DK_H_DUMPAVAILSIZE))
			continue;
		if (!nt->seen || nt->size != want)
			return dk_err_at(err, DK_ECORRUPT, d->src.name,
			    c->noff, "expected a %s note of %ju bytes as the "
			    "source header says, found %s%ju", sect[i].name,
			    (uintmax_t)want, nt->seen ? "" : "none, ",
			    (uintmax_t)nt->size);
		if (sect[i].type != DK_PN_MSGBUF)
			dk_add_section(d, sect[i].name, nt->off, nt->size,
			    nt->size);
	}
	m->off_pages = dec_uint(info + 88, 8, e);
	if (m->off_pages % d->page_size != 0 || m->off_pages > d->src.size)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, ioff + 88,
		    "data_offset %#jx is not a page-aligned offset inside the "
		    "file of %#jx bytes", (uintmax_t)m->off_pages,
		    (uintmax_t)d->src.size);
	if ((st = dk_md_load(d, err)) != DK_OK)
		return st;
	stored = dec_uint(info + 104, 8, e);
	if (dec_uint(info + 96, 8, e) != d->info.npages ||
	    stored > d->info.npages)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, ioff + 96,
		    "the info note says %ju pages dumped, %ju stored; the "
		    "bitmap has %ju", (uintmax_t)dec_uint(info + 96, 8, e),
		    (uintmax_t)stored, (uintmax_t)d->info.npages);
	if (d->info.npages_present > stored)
		d->info.npages_present = stored;
	m->kerndisp = (int64_t)dec_uint(info + 80, 8, e);
	dk_add_section(d, "pages", m->off_pages, d->info.npages_present <<
	    d->page_shift, d->info.npages_present << d->page_shift);
	return DK_OK;
}

/* The native layout of d's sections: offsets, declared and rounded sizes. */
struct native_sect {
	uint64_t	src;		/* offset of the bytes in d's file */
	uint64_t	size;
	uint64_t	off;		/* offset in the native file */
};

static size_t
native_layout(const struct dk_dump *d, struct native_sect *ns)
{
	struct dk_md *m = dk_md(d);
	uint64_t srcs[] = { m->off_msgbuf, m->off_avail, m->off_bitmap,
	    m->off_pmap };
	unsigned ids[] = { DK_H_MSGBUFSIZE, DK_H_DUMPAVAILSIZE,
	    DK_H_BITMAPSIZE, DK_H_PMAPSIZE };
	uint64_t off = d->page_size;
	size_t n = 0;

	ns[n++] = (struct native_sect){ m->off_header, d->page_size, 0 };
	for (size_t i = 0; i < 4; i++) {
		if (ids[i] == DK_H_DUMPAVAILSIZE &&
		    !DK_H_HAS(&d->hdr, DK_H_DUMPAVAILSIZE))
			continue;
		ns[n++] = (struct native_sect){ srcs[i], d->hdr.v[ids[i]],
		    off };
		off += round_up(d->hdr.v[ids[i]], d->page_size);
	}
	ns[n++] = (struct native_sect){ m->off_pages, 0, off };	/* pages */
	return n;
}

/* Residue of a native source: non-zero padding, a partial last page. */
static enum dk_status
native_residue(struct dk_dump *d, struct dk_plan *pl, struct dk_err *err)
{
	struct native_sect ns[6];
	size_t n = native_layout(d, ns);
	uint8_t buf[65536];
	uint64_t end;
	enum dk_status st;

	for (size_t i = 1; i + 1 < n; i++) {
		uint64_t a = ns[i].off + ns[i].size;
		uint64_t b = ns[i].off + round_up(ns[i].size, d->page_size);

		if (b == a)
			continue;
		if ((st = dk_src_pread(&d->src, buf, (size_t)(b - a), a,
		    "section padding", err)) != DK_OK)
			return st;
		for (size_t k = 0; k < b - a; k++)
			if (buf[k] != 0) {
				st = dk_plan_residue(pl, a, b - a, a, err);
				if (st != DK_OK)
					return st;
				break;
			}
	}
	end = dk_md(d)->off_pages + pl->present;
	if (d->src.size > end)
		return dk_plan_residue(pl, end, d->src.size - end, end, err);
	return DK_OK;
}

static uint64_t
md_extent(const struct dk_dump *d, uint64_t *len)
{
	*len = d->info.npages_present << d->page_shift;
	return dk_md(d)->off_pages;
}

/* Non-zero section padding and trailing bytes, native or portable. */
static enum dk_status
md_residue(struct dk_dump *d, struct dk_plan *pl, struct dk_err *err)
{
	struct native_sect ns[6];

	if (!dk_is_portable(d))
		return native_residue(d, pl, err);
	return dk_plan_note_residue(d, pl, ns[native_layout(d, ns) - 1].off +
	    pl->present, err);
}

static uint64_t
md_notes_size(const struct dk_dump *d, const struct dk_plan *pl)
{
	uint64_t n = 0;

	(void)pl;
	n += dk_pnote_size(d->page_size);
	n += dk_pnote_size(d->hdr.v[DK_H_MSGBUFSIZE]);
	if DK_H_HAS(&d->hdr, DK_H_DUMPAVAILSIZE)
		n += dk_pnote_size(d->hdr.v[DK_H_DUMPAVAILSIZE]);
	n += dk_pnote_size(d->hdr.v[DK_H_BITMAPSIZE]);
	n += dk_pnote_size(d->hdr.v[DK_H_PMAPSIZE]);
	return n;
}

static enum dk_status
md_notes(struct dk_dump *d, const struct dk_plan *pl, struct dk_sink *s,
    struct dk_err *err)
{
	struct dk_md *m = dk_md(d);
	enum dk_status st;

	(void)pl;
	st = dk_pnote_copy(s, d, DK_PN_SOURCE_HEADER, m->off_header,
	    d->page_size, err);
	if (st == DK_OK)
		st = dk_pnote_copy(s, d, DK_PN_MSGBUF, m->off_msgbuf,
		    d->hdr.v[DK_H_MSGBUFSIZE], err);
	if (st == DK_OK && DK_H_HAS(&d->hdr, DK_H_DUMPAVAILSIZE))
		st = dk_pnote_copy(s, d, DK_PN_DUMP_AVAIL, m->off_avail,
		    d->hdr.v[DK_H_DUMPAVAILSIZE], err);
	if (st == DK_OK)
		st = dk_pnote_copy(s, d, DK_PN_BITMAP, m->off_bitmap,
		    d->hdr.v[DK_H_BITMAPSIZE], err);
	if (st == DK_OK)
		st = dk_pnote_copy(s, d, DK_PN_PMAP, m->off_pmap,
		    d->hdr.v[DK_H_PMAPSIZE], err);
	return st;
}

/* The native minidump: its sections, then its pages, residue over them. */
static enum dk_status
md_rebuild(struct dk_dump *d, struct dk_sink *s, const struct dk_plan *pl,
    struct dk_err *err)
{
	struct native_sect ns[6];
	size_t n, ri = 0;
	enum dk_status st = DK_OK;

	n = native_layout(d, ns);
	for (size_t i = 0; st == DK_OK && i + 1 < n; i++) {
		uint64_t space = round_up(ns[i].size, d->page_size);

		st = dk_plan_emit(s, d, pl, &ri, ns[i].src, ns[i].size, err);
		if (st == DK_OK)
			st = dk_plan_emit(s, d, pl, &ri, UINT64_MAX, space -
			    ns[i].size, err);
	}
	if (st == DK_OK)
		st = dk_plan_emit(s, d, pl, &ri, dk_md(d)->off_pages,
		    pl->present, err);
	/* Residue past the pages: a partial page, trailing bytes. */
	while (st == DK_OK && ri < pl->nres) {
		const struct dk_presidue *r = &pl->res[ri];

		if (r->off + r->len <= s->pos) {
			ri++;
			continue;
		}
		st = dk_plan_emit(s, d, pl, &ri, UINT64_MAX, r->off + r->len -
		    s->pos, err);
	}
	return st;
}

/*
 * The info record's kernel_displacement: powerpc64's startkernel minus
 * the kernel's link address 0x100100 (the header field the family
 * relocates addresses below dmapbase with), else what the source said.
 */
#define	PPC64_LINK_KERNBASE	0x100100ull

static uint64_t
md_kdisp(const struct dk_dump *d)
{
	if DK_H_HAS(&d->hdr, DK_H_STARTKERNEL)
		return d->hdr.v[DK_H_STARTKERNEL] - PPC64_LINK_KERNBASE;
	return (uint64_t)dk_md(d)->kerndisp;
}

static int
md_row_ok(const struct dk_arch *a)
{
	return a->minidump != NULL;
}

static const struct dk_portable md_portable = {
	.id		= 1,
	.name		= "minidump",
	.noun		= "minidump",
	.row_ok		= md_row_ok,
	.open		= md_popen,
	.extent		= md_extent,
	.residue	= md_residue,
	.notes_size	= md_notes_size,
	.notes		= md_notes,
	.rebuild	= md_rebuild,
	.kdisp		= md_kdisp,
};

const struct dk_format_ops dk_fmt_minidump = {
	.name		= "minidump",
	.desc		= "FreeBSD minidump",
	.probe		= md_probe,
	.open		= md_open,
	.close		= dk_md_close,
	.pa_offset	= dk_md_pa_offset,
	.kvtop		= dk_md_kvtop,
	.pa_next	= md_pa_next,
	.pa_span	= md_pa_span,
	.run_next	= dk_md_run_next,
	.kmap_next	= md_kmap_next,
	.read_log	= md_read_log,
	.portable	= &md_portable,
	.check		= &dk_md_check,
};

/* ---------------------------------------------------------------------- */
/* The writer.                                                             */

#define	MD_WRITE_CHUNK	(1u << 20)

static enum dk_status
pwrite_all(int fd, const void *buf, size_t len, uint64_t off,
    const char *name, const char *what, struct dk_err *err)
{
	const uint8_t *p = buf;

	while (len > 0) {
		ssize_t n = pwrite(fd, p, len, (off_t)off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			dk_err_at(err, DK_ESYS, name, off, "writing %s: %s",
			    what, strerror(errno));
			err->sys_errno = errno;
			return DK_ESYS;
		}
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return DK_OK;
}

static int
page_is_zero(const uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i += 8) {
		uint64_t w;

		memcpy(&w, p + i, 8);
		if (w != 0)
			return 0;
	}
	return 1;
}

/* Write the pages of [pa, pa + len) at file offset off, skipping zeros. */
static enum dk_status
write_run(const struct dk_md_spec *s, int fd, const char *name, uint8_t *buf,
    uint64_t pa, uint64_t len, uint64_t off, struct dk_err *err)
{
	size_t page = (size_t)1 << s->page_shift;
	enum dk_status st;

	while (len > 0) {
		size_t n = len < MD_WRITE_CHUNK ? (size_t)len : MD_WRITE_CHUNK;
		size_t i = 0;

		if ((st = s->fill(s->fill_arg, pa, buf, n, err)) != DK_OK)
			return dk_err_prefix(err, "%s: physical address %#jx",
			    name, (uintmax_t)pa);
		while (i < n) {
			size_t j;

			if (page_is_zero(buf + i, page)) {
				i += page;
				continue;
			}
			for (j = i + page; j < n && !page_is_zero(buf + j,
			    page); j += page)
				;
			st = pwrite_all(fd, buf + i, j - i, off + i, name,
			    "pages", err);
			if (st != DK_OK)
				return st;
			i = j;
		}
		pa += n;
		off += n;
		len -= n;
	}
	return DK_OK;
}

enum dk_status
dk_md_write(const struct dk_md_spec *s, int fd, const char *name,
    struct dk_err *err)
{
	const struct dk_mdarch *md = s->arch->minidump;
	enum dk_endian e = s->arch->endian;
	uint64_t page = (uint64_t)1 << s->page_shift;
	unsigned ws = md->bitmap_word(s->arch, s->version);
	struct dk_hdr h = s->hdr;
	uint64_t off, nbits, bit, availbit;
	int has_avail;
	uint8_t *buf;
	enum dk_status st = DK_OK;
	size_t r;

	if (dk_layout_find(md->layout, DK_H_VERSION, s->version) == NULL)
		return dk_err_set(err, DK_EINVAL, "%s: no %s minidump version "
		    "%u", name, md->family, s->version);
	has_avail = dk_layout_find(md->layout, DK_H_DUMPAVAILSIZE,
	    s->version) != NULL;
	buf = calloc(1, MD_WRITE_CHUNK > page ? MD_WRITE_CHUNK : page);
	if (buf == NULL)
		return dk_err_set(err, DK_ENOMEM, "out of memory");

	/* Fill in what the layout of the file decides. */
	snprintf(h.s[DK_H_MAGIC], sizeof(h.s[0]), "%s", md->magic);
	h.v[DK_H_VERSION] = s->version;
	h.v[DK_H_MSGBUFSIZE] = s->msgbufsize;
	nbits = s->bm->nbits;
	h.v[DK_H_BITMAPSIZE] = s->bitmapsize != 0 ? s->bitmapsize :
	    round_up((nbits + 8 * ws - 1) / (8 * ws) * ws, page);
	h.v[DK_H_PMAPSIZE] = s->pmapsize;
	h.v[DK_H_DUMPAVAILSIZE] = has_avail ? (s->availsize != 0 ?
	    s->availsize : page) : 0;

	/*
	 * Header page: a size the header cannot hold (the bitmapsize of a
	 * 128 TiB machine, 2^32 in a uint32_t) is the caller's error.
	 */
	memset(buf, 0, page);
	if ((st = dk_layout_encode(md->layout, s->version, buf, e, &h,
	    err)) != DK_OK) {
		free(buf);
		return dk_err_prefix(err, "%s", name);
	}
	st = pwrite_all(fd, buf, page, 0, name, "header", err);
	off = page;
	if (st == DK_OK && s->msgbufsize > 0)
		st = pwrite_all(fd, s->msgbuf, s->msgbufsize, off, name,
		    "msgbuf", err);
	off += round_up(s->msgbufsize, page);
	if (st == DK_OK && has_avail) {
		uint64_t n = h.v[DK_H_DUMPAVAILSIZE];

		if ((s->navail + 1) * 16 > n || n > MD_WRITE_CHUNK) {
			st = dk_err_set(err, DK_EINVAL, "%s: %zu dump_avail "
			    "ranges do not fit %ju bytes", name, s->navail,
			    (uintmax_t)n);
		} else {
			memset(buf, 0, n);
			for (r = 0; r < s->navail; r++) {
				enc_uint(buf + 16 * r, 8, e, s->avail[r].start);
				enc_uint(buf + 16 * r + 8, 8, e,
				    s->avail[r].end);
			}
			st = pwrite_all(fd, buf, n, off, name, "dump_avail",
			    err);
		}
		off += round_up(n, page);
	}
	/*
	 * Bitmap: only its pages with a set bit are written, up to
	 * MD_WRITE_CHUNK bytes at a time; the others are holes (the file
	 * is empty, and its size is set at the end), so the bitmap of a
	 * huge machine with little dumped costs no disk.  A word never
	 * straddles a page, so a page's bits are its bytes.
	 */
	for (uint64_t p = 0, size = h.v[DK_H_BITMAPSIZE]; st == DK_OK &&
	    p < size; ) {
		uint64_t b = dk_bitmap_next(s->bm, 8 * p, 1), q;

		if (b >= nbits || b / 8 >= size)
			break;
		p = b / 8 / page * page;
		for (q = p + page; q < size && q - p < MD_WRITE_CHUNK &&
		    8 * q < nbits && dk_bitmap_next(s->bm, 8 * q, 1) <
		    8 * (q + page); q += page)
			;
		if (q > size)
			q = size;
		dk_bitmap_store(s->bm, p, buf, (size_t)(q - p), ws, e);
		st = pwrite_all(fd, buf, (size_t)(q - p), off + p, name,
		    "bitmap", err);
		p = q;
	}
	off += round_up(h.v[DK_H_BITMAPSIZE], page);
	if (st == DK_OK && s->pmapsize > 0)
		st = pwrite_all(fd, s->pmap, s->pmapsize, off, name, "pmap",
		    err);
	off += round_up(s->pmapsize, page);

	/* Pages: one run per stretch of set bits inside one range. */
	bit = 0;
	availbit = 0;
	r = 0;
	while (st == DK_OK && (bit = dk_bitmap_next(s->bm, bit, 1)) < nbits) {
		uint64_t start, rstart, rend, endbit, pa;

		if (has_avail) {
			while (r < s->navail && bit >= availbit +
			    (((s->avail[r].end + page - 1) >> s->page_shift) -
			    (s->avail[r].start >> s->page_shift))) {
				availbit += ((s->avail[r].end + page - 1) >>
				    s->page_shift) - (s->avail[r].start >>
				    s->page_shift);
				r++;
			}
			if (r == s->navail)
				break;
			rstart = s->avail[r].start >> s->page_shift;
			rend = availbit + ((s->avail[r].end + page - 1) >>
			    s->page_shift) - rstart;
		} else {
			rstart = 0;
			rend = nbits;
		}
		endbit = dk_bitmap_next(s->bm, bit, 0);
		if (endbit > rend)
			endbit = rend;
		start = bit - (has_avail ? availbit : 0);
		pa = (rstart + start) << s->page_shift;
		st = write_run(s, fd, name, buf, pa, (endbit - bit) <<
		    s->page_shift, off, err);
		off += (endbit - bit) << s->page_shift;
		bit = endbit;
	}
	if (st == DK_OK && ftruncate(fd, (off_t)off) != 0) {
		st = dk_err_set(err, DK_ESYS, "%s: setting the size to %#jx: "
		    "%s", name, (uintmax_t)off, strerror(errno));
		err->sys_errno = errno;
	}
	free(buf);
	return st;
}
