/*
 * check_minidump.c -- dumpcheck's rules for FreeBSD minidumps
 * (dkcheck.h, docs/dumpcheck.md), native and held in the portable ELF
 * minidump's notes.
 *
 * The raw phase examines the bytes with the layout tables and the
 * minidump families, without the library's handle, because the library
 * refuses outright some damage (a flipped magic byte, an unknown
 * version, a truncated bitmap) that the validator must still describe
 * precisely: header, sizes, sections, dump_avail, bitmap, file size,
 * msgbuf.  The deep phase, when the library opened the file, walks the
 * page tables (through the family's kvtop where it exposes one page at
 * a time, and where tables live in the dump's pages through the family's
 * own bounded pass, whose findings are judged here), then the engine
 * reads every page (dk_ck_content).
 *
 * Every count taken from the file is checked against the file's size
 * before it is used to allocate; every walk is bounded (depth, visited
 * tables, steps).
 */
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "checker.h"
#include "portable.h"

#define	CK_HDR_MAX	(1u << DK_MAX_PAGE_SHIFT)
#define	CK_MAGIC_FUZZ	2		/* magic bytes that may differ */
#define	CK_DELTA_MAX	16		/* pages tried by the size search */
#define	CK_DELTA_BITMAP	(16u << 20)	/* no size search past this bitmap */
#define	CK_MSGBUF_MAX	(4u << 20)	/* msgbuf bytes examined */
#define	CK_WALK_MAX	(64ull << 20)	/* kvtop steps of the generic walk */
#define	CK_LOST_SHOWN	4		/* lost physical ranges named */

/* The codes of the rules only a minidump has. */
static const struct dk_check_code md_codes[] = {
	{ "dump_avail.unterminated", DK_SEV_ERROR,
	  "no pair with end 0 in the dump_avail section" },
	{ "dump_avail.empty-range", DK_SEV_ERROR,
	  "a dump_avail pair with end <= start" },
	{ "dump_avail.order", DK_SEV_ERROR,
	  "dump_avail ranges not ascending or overlapping" },
	{ "dump_avail.misaligned", DK_SEV_WARNING,
	  "a dump_avail bound that is not page-aligned" },
	{ "dump_avail.trailing-nonzero", DK_SEV_WARNING,
	  "bytes after the terminating pair are not zero" },
};

/* The raw view of the check under way (dk_ck.fstate). */
#define	V(c)	((struct mdv *)(c)->fstate)

/* The minidump as the raw phase sees it (native, or inside the notes). */
struct mdv {
	int			 ok;		/* header decoded */
	const struct dk_mdarch	*md;
	const struct dk_arch	*row;
	uint32_t		 version;	/* as read */
	unsigned		 hver;		/* layout version used */
	struct dk_hdr		 hdr;
	uint64_t		 base;		/* file offset of the header */
	unsigned		 page_shift;
	uint64_t		 page;
	int			 has_avail;
	/* sizes: msgbuf, dump_avail, bitmap, pmap */
	uint64_t		 size[4];
	uint64_t		 off[4];
	uint64_t		 field_off[4];	/* file offset of each size field */
	uint64_t		 off_pages;
	int			 layout_ok;
	/* dump_avail */
	struct dk_range		*avail;
	uint64_t		*avail_bit;
	size_t			 navail;
	int			 avail_ok;
	/* bitmap */
	struct dk_bitmap	 own;
	const struct dk_bitmap	*bm;
	uint64_t		 nbits;
	int			 bm_ok;
	uint64_t		 phys_end;
	uint64_t		 stored;	/* pages the file holds */
};


static uint64_t
rnd(uint64_t x, uint64_t page)
{
	return (x + page - 1) & ~(page - 1);
}

/* ---------------------------------------------------------------------- */
/* Bits, ranges and runs of the raw view.                                  */

/* File offset of the byte holding bit n of the on-disk bitmap. */
static uint64_t
bit_offset(const struct mdv *v, uint64_t n)
{
	unsigned w = v->md->bitmap_word(v->row, v->hver);
	uint64_t k = n / 8;

	if (v->row->endian == DK_BE)
		k = k - k % w + (w - 1 - k % w);
	return v->off[2] + k;
}

static uint64_t
range_pages(const struct mdv *v, const struct dk_range *r)
{
	return ((r->end >> v->page_shift) + ((r->end & (v->page - 1)) !=
	    0)) - (r->start >> v->page_shift);
}

/* The bit of the page holding pa, or UINT64_MAX (outside every range). */
static uint64_t
pa_bit(const struct mdv *v, uint64_t pa)
{
	uint64_t pfn = pa >> v->page_shift;
	size_t lo = 0, hi = v->navail;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t first = v->avail[mid].start >> v->page_shift;

		if (pfn < first)
			hi = mid;
		else if (pfn - first >= v->avail_bit[mid + 1] -
		    v->avail_bit[mid])
			lo = mid + 1;
		else
			return v->avail_bit[mid] + pfn - first;
	}
	return UINT64_MAX;
}

/* Next run of set bits at or after bit *next: 1 and [pa, pa+len), or 0. */
static int
run_next(const struct mdv *v, uint64_t *next, size_t *r, uint64_t *pa,
    uint64_t *len, uint64_t *rank)
{
	uint64_t b = dk_bitmap_next(v->bm, *next, 1), e, rend;

	if (b >= v->bm->nbits)
		return 0;
	while (*r + 1 < v->navail && v->avail_bit[*r + 1] <= b)
		(*r)++;
	rend = v->avail_bit[*r + 1];
	e = dk_bitmap_next(v->bm, b, 0);
	if (e > rend)
		e = rend;
	*pa = ((v->avail[*r].start >> v->page_shift) + (b -
	    v->avail_bit[*r])) << v->page_shift;
	*len = (e - b) << v->page_shift;
	*rank = dk_bitmap_rank(v->bm, b);
	*next = e;
	return 1;
}

/* ---------------------------------------------------------------------- */
/* dump_avail.                                                             */

/*
 * Parse the dump_avail section at off (size bytes) into v's ranges.
 * quiet: report nothing (the size search).  Returns 1 if the section is
 * well formed.
 */
static int
avail_parse(struct dk_ck *c, struct mdv *v, uint64_t off, uint64_t size,
    int quiet)
{
	uint64_t nbytes = size < DK_MAX_AVAIL * 16 ? size : DK_MAX_AVAIL * 16;
	uint8_t *buf;
	size_t n, cap = (size_t)(nbytes / 16);
	int ok = 1, term = 0;
	struct dk_ck_acc mis = { 0, 0, "" };

	free(v->avail);
	free(v->avail_bit);
	v->avail = calloc(cap + 1, sizeof(*v->avail));
	v->avail_bit = calloc(cap + 2, sizeof(*v->avail_bit));
	buf = malloc(nbytes ? (size_t)nbytes : 1);
	v->navail = 0;
	if (v->avail == NULL || v->avail_bit == NULL || buf == NULL ||
	    dk_ck_read(c, buf, (size_t)nbytes, off) != 0) {
		free(buf);
		return 0;
	}
	for (n = 0; n < cap; n++) {
		uint64_t s = dec_uint(buf + 16 * n, 8, v->row->endian);
		uint64_t e = dec_uint(buf + 16 * n + 8, 8, v->row->endian);
		uint64_t po = off + 16 * n;

		if (e == 0) {
			term = 1;
			break;
		}
		if (e <= s) {
			if (!quiet)
				dk_ck_emit(c, "dump_avail.empty-range", po,
				    "dump_avail[%zu]: expected start < end, "
				    "found [%#jx, %#jx)", n, (uintmax_t)s,
				    (uintmax_t)e);
			ok = 0;
			break;
		}
		if (n > 0 && (s >> v->page_shift) <
		    (v->avail[n - 1].end >> v->page_shift) +
		    ((v->avail[n - 1].end & (v->page - 1)) != 0)) {
			if (!quiet)
				dk_ck_emit(c, "dump_avail.order", po,
				    "dump_avail[%zu]: expected a start at or "
				    "above the page after the end %#jx of "
				    "range %zu, found [%#jx, %#jx)", n,
				    (uintmax_t)v->avail[n - 1].end, n - 1,
				    (uintmax_t)s, (uintmax_t)e);
			ok = 0;
			break;
		}
		if (((s | e) & (v->page - 1)) != 0)
			dk_ck_acc_add(&mis, po, "dump_avail[%zu]: expected "
			    "page-aligned bounds, found [%#jx, %#jx)", n,
			    (uintmax_t)s, (uintmax_t)e);
		v->avail[n].start = s;
		v->avail[n].end = e;
	}
	v->navail = n;
	if (ok && !term) {
		if (!quiet)
			dk_ck_emit(c, "dump_avail.unterminated", off,
			    "dump_avail (%#jx bytes): expected a pair with "
			    "end 0 among its %zu pairs, found none",
			    (uintmax_t)size, cap);
		ok = 0;
	}
	if (ok && !quiet) {
		dk_ck_acc_flush(c, "dump_avail.misaligned", &mis, "ranges");
		/* The kernel copies its zero-filled array into a zeroed page. */
		for (size_t k = 16 * (n + 1); k < nbytes; k++)
			if (buf[k] != 0) {
				dk_ck_emit(c, "dump_avail.trailing-nonzero",
				    off + k, "dump_avail: expected zeros "
				    "after the terminating pair %zu, found "
				    "%#04x", n, buf[k]);
				break;
			}
	}
	free(buf);
	if (ok) {
		uint64_t bits = 0;

		for (size_t i = 0; i < n; i++) {
			v->avail_bit[i] = bits;
			bits += range_pages(v, &v->avail[i]);
		}
		v->avail_bit[n] = bits;
		v->nbits = bits;
		v->phys_end = n > 0 ? v->avail[n - 1].end : 0;
	}
	return ok;
}

/* Without dump_avail, bit i is page i: one synthetic range. */
static int
avail_synth(struct mdv *v)
{
	free(v->avail);
	free(v->avail_bit);
	v->avail = calloc(1, sizeof(*v->avail));
	v->avail_bit = calloc(2, sizeof(*v->avail_bit));
	if (v->avail == NULL || v->avail_bit == NULL)
		return 0;
	v->nbits = v->size[2] * 8;
	v->navail = v->nbits ? 1 : 0;
	v->avail[0].end = v->nbits << v->page_shift;
	v->avail_bit[1] = v->nbits;
	v->phys_end = v->avail[0].end;
	return 1;
}

/*
 * Count the set bits of the on-disk bitmap at off (size bytes) from byte
 * from (a multiple of the word size) on: those below nbits into *pop,
 * those at or past it into *beyond (the first at *first).  The file's
 * holes are clear bits and are not read.  0 on success.
 */
static int
bitmap_count(struct dk_ck *c, const struct mdv *v, uint64_t off, uint64_t size,
    uint64_t from, uint64_t nbits, uint64_t *pop, uint64_t *beyond,
    uint64_t *first)
{
	unsigned w = v->md->bitmap_word(v->row, v->hver);
	uint8_t *buf = malloc(DK_CK_CHUNK);
	uint64_t whole = size / w * w, data, hole;

	*pop = *beyond = 0;
	*first = UINT64_MAX;
	if (buf == NULL)
		return -1;
	for (uint64_t done = from; done < whole;) {
		size_t n;

		dk_src_data(&c->src, off + done, off + whole, w, &data, &hole);
		if (data - off > done) {
			done = data - off;
			continue;
		}
		n = hole - off - done < DK_CK_CHUNK ? (size_t)(hole - off -
		    done) : DK_CK_CHUNK;
		if (dk_ck_read(c, buf, n, off + done) != 0) {
			free(buf);
			return -1;
		}
		for (size_t i = 0; i < n; i += w) {
			uint64_t word = dec_uint(buf + i, w, v->row->endian);
			uint64_t bit0 = (done + i) * 8, lowmask;

			if (word == 0)
				continue;
			if (bit0 + 8 * w <= nbits) {
				*pop += (uint64_t)__builtin_popcountll(word);
				continue;
			}
			lowmask = nbits > bit0 ? ((uint64_t)1 << (nbits -
			    bit0)) - 1 : 0;
			*pop += (uint64_t)__builtin_popcountll(word & lowmask);
			word &= ~lowmask;
			if (word != 0 && *first == UINT64_MAX)
				*first = bit0 + (uint64_t)__builtin_ctzll(word);
			*beyond += (uint64_t)__builtin_popcountll(word);
		}
		done += n;
	}
	free(buf);
	return 0;
}

/* Load the bits dump_avail numbers into v->own (its data extents only). */
static int
bitmap_load(struct dk_ck *c, struct mdv *v)
{
	unsigned w = v->md->bitmap_word(v->row, v->hver);
	uint64_t nbytes = (v->nbits + 8 * w - 1) / (8 * w) * w;
	struct dk_err e;

	if (dk_bitmap_init(&v->own, v->nbits, &e) != DK_OK ||
	    dk_bitmap_read(&v->own, &c->src, v->off[2], nbytes, w,
	    v->row->endian, "bitmap", &e) != DK_OK ||
	    dk_bitmap_index(&v->own, &e) != DK_OK)
		return 0;
	v->bm = &v->own;
	return 1;
}

/* ---------------------------------------------------------------------- */
/* The header.                                                             */

/* Families, from the architecture rows, each once. */
static const struct dk_mdarch *
family_at(size_t i)
{
	const struct dk_arch *a;
	size_t n = 0;

	for (size_t r = 0; (a = dk_arch_at(r)) != NULL; r++) {
		int seen = 0;

		if (a->minidump == NULL)
			continue;
		for (size_t k = 0; k < r && !seen; k++)
			seen = dk_arch_at(k)->minidump == a->minidump;
		if (!seen && n++ == i)
			return a->minidump;
	}
	return NULL;
}

static const struct dk_field *
magic_field(const struct dk_mdarch *md)
{
	for (size_t i = 0; i < md->layout->nfields; i++)
		if (md->layout->fields[i].id == DK_H_MAGIC)
			return &md->layout->fields[i];
	return NULL;
}

/* Bytes of buf's magic field that differ from md's; *first the first. */
static unsigned
magic_distance(const struct dk_mdarch *md, const uint8_t *buf, size_t len,
    unsigned *first)
{
	const struct dk_field *f = magic_field(md);
	size_t ml = strlen(md->magic);
	unsigned d = 0;

	*first = 0;
	if (f == NULL || len < (size_t)f->off + f->size)
		return 1000;
	for (unsigned i = 0; i < f->size; i++) {
		uint8_t want = i < ml ? (uint8_t)md->magic[i] : 0;

		if (buf[f->off + i] != want && d++ == 0)
			*first = f->off + i;
	}
	return d;
}

/* The family whose magic is nearest buf's, within CK_MAGIC_FUZZ. */
static const struct dk_mdarch *
identify_family(const uint8_t *buf, size_t len, unsigned *dist,
    unsigned *first)
{
	const struct dk_mdarch *md, *best = NULL;
	unsigned bd = 1000, bf = 0, ties = 0;

	for (size_t i = 0; (md = family_at(i)) != NULL; i++) {
		unsigned f, dd = magic_distance(md, buf, len, &f);

		if (dd < bd) {
			bd = dd;
			bf = f;
			best = md;
			ties = 0;
		} else if (dd == bd)
			ties++;
	}
	if (best == NULL || bd > CK_MAGIC_FUZZ || ties > 0)
		return NULL;
	*dist = bd;
	*first = bf;
	return best;
}

static const struct dk_field *
field_any(const struct dk_mdarch *md, unsigned id)
{
	for (size_t i = 0; i < md->layout->nfields; i++)
		if (md->layout->fields[i].id == id)
			return &md->layout->fields[i];
	return NULL;
}

/*
 * The row of family md for this header: the one open already chose,
 * --arch, --kernel, or the rows on which the version is known (and the
 * family finds plausible); with no known version, the byte order in
 * which the version reads smallest.
 */
static enum dk_status
choose_row(struct dk_ck *c, const struct dk_mdarch *md, const uint8_t *buf,
    const struct dk_arch **rowp, struct dk_err *err)
{
	const struct dk_field *vf = field_any(md, DK_H_VERSION);
	const struct dk_arch *a, *pick = NULL, *small = NULL;
	uint64_t smallest = UINT64_MAX;
	size_t ncand = 0;
	enum dk_status st;

	if (c->d != NULL && c->d->arch != NULL && c->d->arch->minidump == md) {
		*rowp = c->d->arch;
		return DK_OK;
	}
	if (c->o->arch != NULL) {
		a = dk_arch_by_name(c->o->arch);
		if (a == NULL || a->minidump != md)
			return dk_err_set(err, DK_EINVAL, "%s: --arch %s: not "
			    "an architecture of %s minidumps", c->src.name,
			    c->o->arch, md->family);
		*rowp = a;
		return DK_OK;
	}
	if (c->o->kernel != NULL) {
		if ((st = dk_arch_from_kernel(c->o->kernel, &a, err)) != DK_OK)
			return st;
		if (a->minidump != md)
			return dk_err_set(err, DK_EINVAL, "%s: the kernel %s "
			    "is of %s, not of a %s minidump", c->src.name,
			    c->o->kernel, a->name, md->family);
		*rowp = a;
		return DK_OK;
	}
	for (size_t i = 0; (a = dk_arch_at(i)) != NULL; i++) {
		uint64_t ver;
		struct dk_hdr h;
		char why[96];

		if (a->minidump != md)
			continue;
		ver = dec_uint(buf + vf->off, vf->size, a->endian);
		if (ver < smallest) {
			smallest = ver;
			small = a;
		}
		if (ver >= 16 || !(md->versions & DK_V(ver)))
			continue;
		dk_layout_decode(md->layout, (unsigned)ver, buf, a->endian,
		    &h);
		if (md->plausible != NULL && !md->plausible(a, &h, why,
		    sizeof(why)))
			continue;
		if (ncand++ == 0)
			pick = a;
	}
	if (ncand > 1)
		return dk_err_set(err, DK_EAMBIG, "%s: this %s minidump could "
		    "have been written by several architectures; name it with "
		    "--arch", c->src.name, md->family);
	*rowp = pick != NULL ? pick : small;
	return *rowp != NULL ? DK_OK : dk_err_set(err, DK_EUNSUP, "%s: no row "
	    "for %s minidumps", c->src.name, md->family);
}

static unsigned
newest(uint16_t versions)
{
	unsigned v = 15;

	while (v > 0 && !(versions & DK_V(v)))
		v--;
	return v;
}

/*
 * Decode and judge the minidump header held in buf (len bytes of the
 * header page found at file offset base).  Fills v up to the section
 * sizes.  A non-OK status means the file cannot be examined at all.
 */
static enum dk_status
header_check(struct dk_ck *c, struct mdv *v, const uint8_t *buf, size_t len,
    uint64_t base, const struct dk_arch *row, struct dk_err *err)
{
	static const unsigned ids[4] = { DK_H_MSGBUFSIZE, DK_H_DUMPAVAILSIZE,
	    DK_H_BITMAPSIZE, DK_H_PMAPSIZE };
	const struct dk_field *vf;
	unsigned dist, first;
	size_t hsize;
	enum dk_status st;

	v->md = identify_family(buf, len, &dist, &first);
	if (v->md == NULL)
		return dk_err_at(err, DK_EUNSUP, c->src.name, base, "not a "
		    "dump dumpkit knows (no minidump magic within %d bytes)",
		    CK_MAGIC_FUZZ);
	v->base = base;
	if (dist > 0) {
		char seen[33];
		const struct dk_field *mf = magic_field(v->md);
		size_t i;

		for (i = 0; i < mf->size && i < 32; i++)
			seen[i] = buf[mf->off + i] >= 0x20 &&
			    buf[mf->off + i] < 0x7f ? (char)buf[mf->off + i] :
			    buf[mf->off + i] == 0 ? '\0' : '?';
		seen[i] = '\0';
		dk_ck_emitn(c, "header.magic", base + first, dist, "magic: "
		    "expected \"%s\" and NULs, found \"%s\" (%u byte%s "
		    "differ%s)", v->md->magic, seen, dist,
		    dist == 1 ? "" : "s", dist == 1 ? "s" : "");
	}
	vf = field_any(v->md, DK_H_VERSION);
	if (len < (size_t)vf->off + vf->size) {
		dk_ck_emit(c, "file.truncated", c->src.size, "the file ends "
		    "at %#jx, inside the header, before its version field at "
		    "%#jx", (uintmax_t)c->src.size,
		    (uintmax_t)(base + vf->off));
		return DK_OK;
	}
	if (row == NULL && (st = choose_row(c, v->md, buf, &row, err)) !=
	    DK_OK)
		return st;
	v->row = row;
	v->version = (uint32_t)dec_uint(buf + vf->off, vf->size, row->endian);
	v->hver = v->version;
	if (v->version >= 16 || !(v->md->versions & DK_V(v->version))) {
		v->hver = newest(v->md->versions);
		dk_ck_emit(c, "header.version", base + vf->off, "version: "
		    "expected one of the %s minidump versions (mask %#x), "
		    "found %u (%#x) read %s-endian; the rest is read as "
		    "version %u", v->md->family, v->md->versions, v->version,
		    v->version, row->endian == DK_BE ? "big" : "little",
		    v->hver);
	}
	hsize = dk_layout_size(v->md->layout, v->hver);
	if (len < hsize) {
		dk_ck_emit(c, "file.truncated", c->src.size, "the file ends "
		    "at %#jx, inside the version %u header [%#jx, %#jx)",
		    (uintmax_t)c->src.size, v->hver, (uintmax_t)base,
		    (uintmax_t)(base + hsize));
		return DK_OK;
	}
	dk_layout_decode(v->md->layout, v->hver, buf, row->endian, &v->hdr);


	/* The family's own range checks: its setup, on a scratch handle. */
	v->page_shift = 12;
	if (v->md->setup != NULL) {
		struct dk_dump *s = calloc(1, sizeof(*s));
		struct dk_err e;

		if (s == NULL || dk_md_new(s, &e) != DK_OK) {
			free(s);
			return dk_err_set(err, DK_ENOMEM, "out of memory");
		}
		s->src = c->src;
		s->arch = row;
		dk_md(s)->fam = v->md;
		s->hdr = v->hdr;
		s->info.version = v->hver;
		s->page_shift = 12;
		s->dmap_i = SIZE_MAX;
		if (v->md->setup(s, &e) != DK_OK)
			dk_ck_emit(c, "header.field-range",
			    base + dk_ck_err_offset(&e, 0), "%s",
			    dk_ck_unprefixed(c, e.msg));
		if (s->page_shift >= 12 && s->page_shift <= DK_MAX_PAGE_SHIFT)
			v->page_shift = s->page_shift;
		dk_md_close(s);
		free(s->win);
		free(s);
	}
	v->page = (uint64_t)1 << v->page_shift;

	/* Padding the compiler put in the struct: the kernel zeroes it. */
	for (size_t i = 0; i < v->md->layout->nfields; i++) {
		const struct dk_field *f = &v->md->layout->fields[i];

		if (f->kind != DK_FK_PAD || !(f->versions & DK_V(v->hver)))
			continue;
		for (unsigned k = 0; k < f->size; k++)
			if (buf[f->off + k] != 0) {
				dk_ck_emit(c, "header.padding-nonzero",
				    base + f->off + k, "%s at %u (%u bytes): "
				    "expected zeros (the kernel zeroes the "
				    "struct), found %#04x at byte %u", f->name,
				    f->off, f->size, buf[f->off + k], k);
				break;
			}
	}
	/* The rest of the header page: zeroed by the kernel. */
	{
		uint64_t nz = 0, firstnz = 0;
		size_t end = len < v->page ? len : (size_t)v->page;

		for (size_t k = hsize; k < end; k++)
			if (buf[k] != 0 && nz++ == 0)
				firstnz = k;
		if (nz > 0)
			dk_ck_emitn(c, "header.tail-nonzero", base + firstnz,
			    nz, "header page after the %zu-byte version %u "
			    "header: expected zeros to the page end at %#jx, "
			    "found %ju non-zero bytes, the first %#04x", hsize,
			    v->hver, (uintmax_t)(base + v->page),
			    (uintmax_t)nz, buf[firstnz]);
	}
	for (int i = 0; i < 4; i++) {
		const struct dk_field *f = dk_layout_find(v->md->layout, ids[i],
		    v->hver);

		v->size[i] = v->hdr.v[ids[i]];
		v->field_off[i] = f != NULL ? base + f->off : UINT64_MAX;
	}
	v->has_avail = DK_H_HAS(&v->hdr, DK_H_DUMPAVAILSIZE) != 0;
	v->ok = 1;
	return DK_OK;
}

static const char *const sect_name[4] = { "msgbuf", "dump_avail", "bitmap",
    "pmap" };

static const char *
size_name(const struct mdv *v, int i)
{
	static const unsigned ids[4] = { DK_H_MSGBUFSIZE, DK_H_DUMPAVAILSIZE,
	    DK_H_BITMAPSIZE, DK_H_PMAPSIZE };
	const struct dk_field *f = dk_layout_find(v->md->layout, ids[i],
	    v->hver);

	return f != NULL ? f->name : "size";
}

/* ---------------------------------------------------------------------- */
/* Sections of a native minidump.                                          */

/* Section offsets for sizes s; 0 if a section ends past the file. */
static int
native_offsets(const struct dk_ck *c, const struct mdv *v, const uint64_t s[4],
    uint64_t off[4], uint64_t *pages, int *bad)
{
	uint64_t o = v->base + v->page;

	for (int i = 0; i < 4; i++) {
		off[i] = o;
		if (i == 1 && !v->has_avail)
			continue;
		if (s[i] > c->src.size || o + rnd(s[i], v->page) > c->src.size) {
			*bad = i;
			return 0;
		}
		o += rnd(s[i], v->page);
	}
	*pages = o;
	return 1;
}

/*
 * Would the file be consistent with sizes s?  Sections inside the file,
 * dump_avail well formed, the bitmap covering it with nothing set past
 * it, and exactly one page per set bit after the sections.
 */
static int
layout_fits(struct dk_ck *c, const struct mdv *v, const uint64_t s[4])
{
	struct mdv t;
	uint64_t pages, pop, beyond, first;
	int bad, ok = 0;

	memset(&t, 0, sizeof(t));
	t.md = v->md;
	t.row = v->row;
	t.hver = v->hver;
	t.base = v->base;
	t.page = v->page;
	t.page_shift = v->page_shift;
	t.has_avail = v->has_avail;
	memcpy(t.size, s, sizeof(t.size));
	if (!native_offsets(c, v, s, t.off, &pages, &bad))
		return 0;
	if (t.has_avail ? avail_parse(c, &t, t.off[1], s[1], 1) :
	    avail_synth(&t)) {
		if (t.nbits <= s[2] * 8 && bitmap_count(c, &t, t.off[2], s[2],
		    0, t.nbits, &pop, &beyond, &first) == 0 && beyond == 0 &&
		    c->src.size == pages + (pop << t.page_shift))
			ok = 1;
	}
	free(t.avail);
	free(t.avail_bit);
	return ok;
}

/*
 * The declared sizes do not fit the file: find a size field which, a
 * few pages larger, makes everything agree, and name it.
 */
static void
size_search(struct dk_ck *c, const struct mdv *v)
{
	if (v->size[2] > CK_DELTA_BITMAP)
		return;
	for (int i = 0; i < 4; i++) {
		if (i == 1 && !v->has_avail)
			continue;
		for (uint64_t k = 1; k <= CK_DELTA_MAX; k++) {
			uint64_t s[4];

			memcpy(s, v->size, sizeof(s));
			s[i] = rnd(s[i], v->page) + k * v->page;
			if (s[i] > UINT32_MAX || !layout_fits(c, v, s))
				continue;
			dk_ck_emit(c, "header.size-too-small", v->field_off[i],
			    "%s %#jx: the file holds a larger %s section: "
			    "with %#jx (%ju page%s more) the sections, the "
			    "bitmap and the file size agree", size_name(v, i),
			    (uintmax_t)v->size[i], sect_name[i],
			    (uintmax_t)s[i], (uintmax_t)k, k == 1 ? "" : "s");
			break;
		}
	}
}

/* Name the physical memory whose pages the file lacks (from rank have). */
static void
lost_ranges(const struct mdv *v, uint64_t have, char *out, size_t n)
{
	uint64_t next = 0, pa, len, rank, nr = 0;
	size_t r = 0, k = 0;

	out[0] = '\0';
	if (!v->bm_ok)
		return;
	while (run_next(v, &next, &r, &pa, &len, &rank)) {
		uint64_t pages = len >> v->page_shift;

		if (rank + pages <= have)
			continue;
		if (rank < have) {
			pa += (have - rank) << v->page_shift;
			len -= (have - rank) << v->page_shift;
		}
		if (nr++ < CK_LOST_SHOWN && k < n)
			k += (size_t)snprintf(out + k, n - k, "%s[%#jx, %#jx)",
			    k ? " " : "", (uintmax_t)pa, (uintmax_t)(pa + len));
	}
	if (nr > CK_LOST_SHOWN && k < n)
		(void)snprintf(out + k, n - k, " and %ju more",
		    (uintmax_t)(nr - CK_LOST_SHOWN));
}

/* dump_avail, the bitmap and its bits past memory, with v->off set. */
static void
bitmap_check(struct dk_ck *c, struct mdv *v)
{
	uint64_t pop, beyond, first;
	unsigned w = v->md->bitmap_word(v->row, v->hver);

	v->avail_ok = v->has_avail ? avail_parse(c, v, v->off[1], v->size[1],
	    0) : avail_synth(v);
	if (!v->avail_ok)
		return;
	if (v->nbits > v->size[2] * 8) {
		dk_ck_emit(c, "bitmap.too-small", v->field_off[2], "%s %#jx "
		    "holds %ju bits; dump_avail numbers %ju pages, which need "
		    "%#jx bytes", size_name(v, 2), (uintmax_t)v->size[2],
		    (uintmax_t)(v->size[2] * 8), (uintmax_t)v->nbits,
		    (uintmax_t)((v->nbits + 8 * w - 1) / (8 * w) * w));
		return;
	}
	/*
	 * Bits past memory are in the words from the one holding bit
	 * nbits: those alone are read here, the rest once, by the load
	 * (or the open's, which the validator shares).
	 */
	if (v->has_avail && bitmap_count(c, v, v->off[2], v->size[2],
	    v->nbits / (8 * w) * w, v->nbits, &pop, &beyond, &first) == 0 &&
	    beyond > 0)
		dk_ck_emitn(c, "bitmap.bit-beyond-memory",
		    bit_offset(v, first), beyond, "bitmap bit %ju is set: "
		    "expected only the %ju bits of the pages dump_avail "
		    "numbers, found %ju set past them", (uintmax_t)first,
		    (uintmax_t)v->nbits, (uintmax_t)beyond);
	if (c->d != NULL && dk_md(c->d)->bm.nbits == v->nbits) {
		v->bm = &dk_md(c->d)->bm;
		v->bm_ok = 1;
	} else
		v->bm_ok = bitmap_load(c, v);
}

/* Zero padding between a section's size and its page end? */
static void
padding_check(struct dk_ck *c, const struct mdv *v, int i)
{
	uint64_t a = v->off[i] + v->size[i], b = v->off[i] +
	    rnd(v->size[i], v->page);
	uint8_t *buf;

	if (b == a || (buf = malloc((size_t)(b - a))) == NULL)
		return;
	if (dk_ck_read(c, buf, (size_t)(b - a), a) == 0)
		for (uint64_t k = 0; k < b - a; k++)
			if (buf[k] != 0) {
				dk_ck_emit(c, "section.padding-nonzero", a + k,
				    "%s: bytes past its %s %#jx up to the "
				    "page end are not zero (%#04x)",
				    sect_name[i], size_name(v, i),
				    (uintmax_t)v->size[i], buf[k]);
				break;
			}
	free(buf);
}

static void
msgbuf_check(struct dk_ck *c, const struct mdv *v)
{
	uint64_t n = v->size[0] < CK_MSGBUF_MAX ? v->size[0] : CK_MSGBUF_MAX;
	uint64_t text = 0, ctl = 0, first = 0;
	uint8_t *buf;

	if (v->size[0] == 0) {
		dk_ck_emit(c, "msgbuf.empty", v->field_off[0], "%s: expected "
		    "the size of the kernel's message buffer, found 0",
		    size_name(v, 0));
		return;
	}
	if ((buf = malloc((size_t)n)) == NULL || dk_ck_read(c, buf, (size_t)n,
	    v->off[0]) != 0) {
		free(buf);
		return;
	}
	for (uint64_t k = 0; k < n; k++) {
		uint8_t b = buf[k];

		if (b == 0)
			continue;
		if ((b < 0x20 && b != '\n' && b != '\t' && b != '\r' &&
		    b != 0x1b) || b == 0x7f) {
			if (ctl++ == 0)
				first = k;
		} else
			text++;
	}
	/* Some control bytes happen (console escapes); a lot is not text. */
	if (ctl > 4 && ctl * 100 > text + ctl)
		dk_ck_emitn(c, "msgbuf.not-text", v->off[0] + first, ctl,
		    "msgbuf: expected text, found %ju control bytes among %ju "
		    "(the first %#04x)", (uintmax_t)ctl,
		    (uintmax_t)(text + ctl), buf[first]);
	free(buf);
}

/* File size against what the sections and the bitmap imply. */
static void
size_check(struct dk_ck *c, struct mdv *v, uint64_t want_pages,
    const char *what)
{
	uint64_t end = v->off_pages + (want_pages << v->page_shift);
	uint64_t size = c->src.size;
	char lost[256];

	v->stored = size > v->off_pages ? (size - v->off_pages) >>
	    v->page_shift : 0;
	if (v->stored > want_pages)
		v->stored = want_pages;
	if (size < end) {
		uint64_t missing = want_pages - v->stored;

		lost_ranges(v, v->stored, lost, sizeof(lost));
		dk_ck_emitn(c, "file.truncated", size, missing, "the file "
		    "ends at %#jx, inside the pages: expected %ju pages (%s) "
		    "ending at %#jx, found %ju whole; %ju pages (%#jx bytes) "
		    "missing%s%s", (uintmax_t)size, (uintmax_t)want_pages,
		    what, (uintmax_t)end, (uintmax_t)v->stored,
		    (uintmax_t)missing, (uintmax_t)(end - size),
		    lost[0] ? "; physical memory " "lost: " : "", lost);
	} else if (size > end)
		dk_ck_emitn(c, "file.trailing-bytes", end, size - end,
		    "expected the file to end at %#jx after %ju pages (%s), "
		    "found %ju more bytes (%ju pages%s)", (uintmax_t)end,
		    (uintmax_t)want_pages, what, (uintmax_t)(size - end),
		    (uintmax_t)((size - end) >> v->page_shift),
		    ((size - end) & (v->page - 1)) ? " and a part" : "");
}

static enum dk_status
native_raw(struct dk_ck *c, struct dk_err *err)
{
	struct mdv *v = V(c);
	uint8_t *buf = calloc(1, CK_HDR_MAX);
	size_t n = c->src.size < CK_HDR_MAX ? (size_t)c->src.size : CK_HDR_MAX;
	uint64_t pages = 0;
	int bad = -1;
	enum dk_status st;

	if (buf == NULL)
		return dk_err_set(err, DK_ENOMEM, "out of memory");
	if (dk_ck_read(c, buf, n, 0) != 0) {
		free(buf);
		return dk_err_set(err, DK_ESYS, "%s: cannot read the header",
		    c->src.name);
	}
	st = header_check(c, v, buf, n, 0, NULL, err);
	free(buf);
	if (st != DK_OK || !v->ok)
		return st;
	if (c->src.size < v->page) {
		dk_ck_emit(c, "file.truncated", c->src.size, "the file ends "
		    "at %#jx, inside the header page [0, %#jx)",
		    (uintmax_t)c->src.size, (uintmax_t)v->page);
		return DK_OK;
	}
	if (!native_offsets(c, v, v->size, v->off, &pages, &bad)) {
		uint64_t o = v->off[bad], e = o + rnd(v->size[bad], v->page);

		/*
		 * A cut file and a size field too large look alike; the
		 * file is named truncated, and a field larger than the
		 * whole file is named as well.
		 */
		dk_ck_emit(c, "file.truncated", c->src.size, "the file ends "
		    "at %#jx, inside the %s section [%#jx, %#jx) (%s %#jx): "
		    "%#jx bytes of it, the sections after it and every page "
		    "are missing; physical memory lost: all",
		    (uintmax_t)c->src.size, sect_name[bad], (uintmax_t)o,
		    (uintmax_t)e, size_name(v, bad), (uintmax_t)v->size[bad],
		    (uintmax_t)(e - c->src.size));
		if (v->size[bad] > c->src.size)
			dk_ck_emit(c, "header.size-too-large",
			    v->field_off[bad], "%s %#jx: expected at most the "
			    "%#jx bytes of the whole file, found a %s section "
			    "[%#jx, %#jx) past its end (the field is wrong, "
			    "or the file is cut short)", size_name(v, bad),
			    (uintmax_t)v->size[bad], (uintmax_t)c->src.size,
			    sect_name[bad], (uintmax_t)o, (uintmax_t)e);
		return DK_OK;
	}
	v->off_pages = pages;
	v->layout_ok = 1;
	msgbuf_check(c, v);
	padding_check(c, v, 0);
	padding_check(c, v, 2);
	padding_check(c, v, 3);
	bitmap_check(c, v);
	if (v->bm_ok)
		size_check(c, v, v->bm->count, "one per set bit");
	/* Damage that a size field a few pages larger would explain. */
	if (!v->avail_ok || !v->bm_ok || c->src.size > v->off_pages +
	    (v->bm->count << v->page_shift))
		size_search(c, v);
	return DK_OK;
}

/* ---------------------------------------------------------------------- */
/* Page tables.                                                            */

struct pmstat {
	struct dk_ck_acc	past, hole, notdumped, ptmiss, loop, misal;
	struct dk_ck_acc	untrans;
	uint64_t	steps;
};

/*
 * An entry the family's kvtop does not decode (DK_EUNSUP: an ARMv4 1 KiB
 * tiny page): no error in the dump, a hole in what dumpkit reads.
 */
static void
untranslated(struct pmstat *ps, uint64_t off, const struct dk_err *e)
{
	dk_ck_acc_add(&ps->untrans, off, "%s: the page is a hole in the "
	    "kernel map dumpkit reads (and in a portable file's virtual "
	    "segments)", e->msg);
}


/* Judge a PA a valid entry maps; large: a large page, judge its base. */
static void
classify(struct dk_ck *c, struct pmstat *ps, uint64_t pa, uint64_t off,
    uint64_t va, int large)
{
	const struct mdv *v = V(c);
	char who[48];
	uint64_t bit;

	if (va == UINT64_MAX)
		snprintf(who, sizeof(who), "a kernel entry");
	else
		snprintf(who, sizeof(who), "the entry for va %#jx",
		    (uintmax_t)va);
	if (pa >= v->phys_end) {
		dk_ck_acc_add(&ps->past, off, "%s maps pa %#jx: expected a PA "
		    "below the end of physical memory at %#jx", who,
		    (uintmax_t)pa, (uintmax_t)v->phys_end);
		return;
	}
	bit = pa_bit(v, pa);
	if (bit == UINT64_MAX)
		dk_ck_acc_add(&ps->hole, off, "%s maps pa %#jx, between the "
		    "dump_avail ranges (device memory?)", who, (uintmax_t)pa);
	else if (!large && !dk_bitmap_test(v->bm, bit))
		dk_ck_acc_add(&ps->notdumped, off, "%s maps pa %#jx, a page "
		    "of memory that is not in the dump (bit %ju clear)", who,
		    (uintmax_t)pa, (uintmax_t)bit);
}

/*
 * A page-table page at pa that the walk needs: inside memory and
 * dumped?  Recorded (for --pattern, which must skip it).  1: walk it.
 */
static int
table_page(struct dk_ck *c, struct pmstat *ps, uint64_t pa, uint64_t off,
    const char *what)
{
	const struct mdv *v = V(c);
	uint64_t bit;

	if (pa >= v->phys_end) {
		dk_ck_acc_add(&ps->past, off, "%s points at a page-table page "
		    "at pa %#jx: expected a PA below the end of physical "
		    "memory at %#jx", what, (uintmax_t)pa,
		    (uintmax_t)v->phys_end);
		return 0;
	}
	bit = pa_bit(v, pa);
	if (bit == UINT64_MAX || !dk_bitmap_test(v->bm, bit)) {
		dk_ck_acc_add(&ps->ptmiss, off, "%s points at the page-table "
		    "page at pa %#jx: expected it in the dump, found %s", what,
		    (uintmax_t)pa, bit == UINT64_MAX ? "it outside every "
		    "dump_avail range" : "its bitmap bit clear");
		return 0;
	}
	(void)dk_ck_pt_add(c, pa & ~(v->page - 1));
	return 1;
}

/*
 * One entry per page from kernbase (i386, arm, arm64, mips, riscv,
 * amd64 version 1): the family's kvtop translates entry by entry.
 */
static void
walk_flat(struct dk_ck *c, struct pmstat *ps)
{
	struct dk_dump *d = c->d;
	const struct dk_md *m = dk_md(d);
	uint64_t kb = d->info.kernbase;
	struct dk_err e;

	for (uint64_t i = 0; i < m->pmap_nent; i++) {
		uint64_t va = kb + (i << d->page_shift), pa;
		uint64_t off = m->off_pmap + i * m->pte_size;
		enum dk_status st;

		d->unmapped_to = 0;
		st = m->fam->kvtop(d, va, &pa, NULL, &e);
		if (st == DK_OK)
			classify(c, ps, pa, off, va, 0);
		else if (st == DK_EUNSUP)
			untranslated(ps, off, &e);
		else if (d->unmapped_to > va + d->page_size &&
		    d->unmapped_to - kb <= (m->pmap_nent << d->page_shift))
			/* a run of zero entries: on after it */
			i = ((d->unmapped_to - kb) >> d->page_shift) - 1;
	}
}

/*
 * Any other family: the kernel map page by page through kvtop, jumping
 * over what the family says is unmapped, for at most CK_WALK_MAX steps.
 */
static void
walk_generic(struct dk_ck *c, struct pmstat *ps)
{
	struct dk_dump *d = c->d;
	uint64_t va = d->info.kernbase & ~(d->page_size - 1), pa;
	struct dk_err e;
	enum dk_status st;

	while (va >= d->info.kernbase && va < d->info.kva_end) {
		if (ps->steps++ >= CK_WALK_MAX) {
			dk_ck_emit(c, "pmap.walk-limit", UINT64_MAX, "the "
			    "kernel map walk stopped after %ju steps at va "
			    "%#jx, before its end at %#jx",
			    (uintmax_t)CK_WALK_MAX, (uintmax_t)va,
			    (uintmax_t)d->info.kva_end);
			return;
		}
		d->unmapped_to = 0;
		st = dk_md_kvtop_prot(d, va, &pa, NULL, &e);
		if (st == DK_OK)
			classify(c, ps, pa, UINT64_MAX, va, 0);
		else if (st == DK_EUNSUP)
			untranslated(ps, UINT64_MAX, &e);
		va = d->unmapped_to > va ? d->unmapped_to : va + d->page_size;
	}
}

struct ptv {
	struct dk_ck	*c;
	struct pmstat	*ps;
};


static void
ptv_leaf(void *arg, uint64_t va, uint64_t pa, uint64_t off, int large)
{
	struct ptv *p = arg;

	classify(p->c, p->ps, pa, off, va, large);
}

static int
ptv_table(void *arg, uint64_t pa, uint64_t off, const char *what)
{
	struct ptv *p = arg;

	return table_page(p->c, p->ps, pa, off, what) && !p->c->o->quick;
}

static int
ptv_seen(void *arg, uint64_t pa)
{
	struct ptv *p = arg;

	return dk_ck_pt_has(p->c, pa);
}

static void
ptv_misaligned(void *arg, uint64_t off, const char *msg)
{
	struct ptv *p = arg;

	dk_ck_acc_add(&p->ps->misal, off, "%s", msg);
}

static void
ptv_loop(void *arg, uint64_t off, const char *msg)
{
	struct ptv *p = arg;

	dk_ck_acc_add(&p->ps->loop, off, "%s", msg);
}

static void
pmap_check(struct dk_ck *c)
{
	struct dk_dump *d = c->d;
	const struct dk_md *m = dk_md(d);
	struct pmstat ps;
	struct ptv p = { c, &ps };
	const struct dk_pt_visitor v = { &p, ptv_leaf, ptv_table, ptv_seen,
	    ptv_misaligned, ptv_loop };

	memset(&ps, 0, sizeof(ps));
	if (m->fam->kvtop == NULL || !V(c)->bm_ok)
		return;
	if (m->fam->pt_visit == NULL || !m->fam->pt_visit(d, &v)) {
		if (m->pmap_nent > 0 && d->info.kva_end > d->info.kernbase &&
		    (d->info.kva_end - d->info.kernbase) >> d->page_shift ==
		    m->pmap_nent)
			walk_flat(c, &ps);
		else
			walk_generic(c, &ps);
	}
	dk_ck_acc_flush(c, "pmap.pa-past-memory", &ps.past, "entries");
	dk_ck_acc_flush(c, "pmap.pt-page-missing", &ps.ptmiss, "entries");
	dk_ck_acc_flush(c, "pmap.loop", &ps.loop, "entries");
	dk_ck_acc_flush(c, "pmap.large-misaligned", &ps.misal, "entries");
	dk_ck_acc_flush(c, "pmap.page-not-dumped", &ps.notdumped, "entries");
	dk_ck_acc_flush(c, "pmap.pa-in-hole", &ps.hole, "entries");
	dk_ck_acc_flush(c, "pmap.untranslated", &ps.untrans, "entries");
}

/* ---------------------------------------------------------------------- */
/* The checks.                                                             */

/* The runs of the raw view's bitmap, for the portable file's segments. */
struct mdv_runs {
	const struct mdv	*v;
	uint64_t		 next;
	size_t			 r;
};

static int
mdv_run(void *arg, uint64_t *pa, uint64_t *len, uint64_t *rank)
{
	struct mdv_runs *it = arg;

	return run_next(it->v, &it->next, &it->r, pa, len, rank);
}

/*
 * What every minidump check does once the raw phase is over: say what
 * was examined, then, if the library opened the file, the page tables,
 * the virtual segments of a portable file (em) and the pages.
 */
static enum dk_status
md_deep(struct dk_ck *c, const struct dk_emv *em)
{
	struct dk_check_result *res = c->res;
	struct mdv *v = V(c);

	res->examined = 1;
	res->format = em != NULL ? "portable-elf" : "minidump";
	if (v->row != NULL)
		snprintf(res->arch, sizeof(res->arch), "%s", v->row->name);
	res->version = v->version;
	res->page_size = (uint32_t)v->page;
	if (v->bm_ok) {
		res->npages = v->bm->count;
		res->npages_present = v->stored;
	}
	if (c->d == NULL) {
		dk_ck_refused(c, "page tables and page data not checked");
		return DK_OK;
	}
	if (!v->bm_ok) {
		dk_ck_emit(c, "check.incomplete", DK_CK_NOOFF, "page tables "
		    "and page data not checked: the bitmap could not be read");
		return DK_OK;
	}
	res->deep = 1;
	pmap_check(c);
	if (c->o->quick)
		return DK_OK;
	if (em != NULL)
		dk_em_virt_check(c, em);
	dk_ck_content(c, dk_md(c->d)->off_pages + (c->d->info.npages_present <<
	    c->d->page_shift), c->o->pattern);
	return DK_OK;
}

/*
 * The library may read a file with minidump magic as another format (a
 * kerneldumpheader naming sparc64 around it): its handle is then not
 * this module's to look into, and the file counts as refused.
 */
static void
own_handle(struct dk_ck *c)
{
	if (c->d == NULL || c->d->fmt == &dk_fmt_minidump)
		return;
	dk_err_set(&c->openerr, DK_EUNSUP, "%s: the library reads the file "
	    "as a %s, not as a minidump", c->src.name, c->d->fmt->desc);
	dk_close(c->d);
	c->d = NULL;
}

static void
mdv_free(struct mdv *v)
{
	free(v->avail);
	free(v->avail_bit);
	dk_bitmap_free(&v->own);
}

/*
 * A native minidump: dumpcheck looks at it when its first bytes are
 * within CK_MAGIC_FUZZ bytes of a family's magic (an ELF file never is).
 */
static int
md_check_probe(const struct dk_src *src, const struct dk_open_opts *o)
{
	uint8_t buf[64] = { 0 };
	size_t n = src->size < sizeof(buf) ? (size_t)src->size : sizeof(buf);
	unsigned dist, first;
	struct dk_err e;

	(void)o;
	if (dk_src_pread(src, buf, n, 0, "magic", &e) != DK_OK ||
	    (n >= 4 && memcmp(buf, "\177ELF", 4) == 0))
		return 0;
	return identify_family(buf, n, &dist, &first) != NULL;
}

static enum dk_status
md_check(struct dk_ck *c, struct dk_err *err)
{
	struct mdv v;
	enum dk_status st;

	memset(&v, 0, sizeof(v));
	c->fstate = &v;
	if ((st = dk_ck_open(c, err)) == DK_OK) {
		own_handle(c);
		if ((st = native_raw(c, err)) == DK_OK)
			st = md_deep(c, NULL);
	}
	mdv_free(&v);
	c->fstate = NULL;
	return st;
}

/*
 * The raw phase of a minidump in the notes of a portable file: the
 * source header note, the section notes against the header's sizes, the
 * bitmap against the info note, then the segments.
 */
static enum dk_status
md_praw(struct dk_ck *c, struct dk_emv *em, const struct dk_arch *row,
    struct mdv *v, struct dk_err *err)
{
	static const int nt[4] = { DK_PN_MSGBUF, DK_PN_DUMP_AVAIL,
	    DK_PN_BITMAP, DK_PN_PMAP };
	struct mdv_runs runs = { v, 0, 0 };
	struct dk_em_runs rs = { mdv_run, &runs, 0, 0, 0, 0 };
	uint8_t *hbuf;
	size_t hn;
	uint64_t psize, pop;
	enum dk_status st;

	psize = dk_em_info(em, 12, 4);
	if (!em->nt_seen[2]) {
		dk_ck_emit(c, "elf.note", em->noff, "expected the source "
		    "header note (type %#x), found none", DK_PNOTE_BASE + 2);
		return DK_OK;
	}
	hn = em->nt_size[2] < CK_HDR_MAX ? (size_t)em->nt_size[2] : CK_HDR_MAX;
	if (em->nt_off[2] + hn > c->src.size)
		hn = (size_t)(c->src.size - em->nt_off[2]);
	if ((hbuf = calloc(1, CK_HDR_MAX)) == NULL)
		return dk_err_set(err, DK_ENOMEM, "out of memory");
	if (dk_ck_read(c, hbuf, hn, em->nt_off[2]) != 0)
		hn = 0;
	st = header_check(c, v, hbuf, hn, em->nt_off[2], row, err);
	free(hbuf);
	if (st != DK_OK)
		return st;
	if (!v->ok)
		return DK_OK;
	if (em->nt_size[2] != v->page || psize != v->page)
		dk_ck_emit(c, "elf.note-size", em->nt_off[2] - 20, "source "
		    "header note: expected one page of %#jx bytes (the info "
		    "note says %#jx), found %#jx", (uintmax_t)v->page,
		    (uintmax_t)psize, (uintmax_t)em->nt_size[2]);
	if (dk_em_info(em, 8, 4) != v->version)
		dk_ck_emit(c, "elf.note-mismatch", em->info_off + 8, "info "
		    "note source_version: expected %u as the source header "
		    "says, found %ju", v->version,
		    (uintmax_t)dk_em_info(em, 8, 4));
	v->layout_ok = 1;
	for (int i = 0; i < 4; i++) {
		if (i == 1 && !v->has_avail)
			continue;
		v->off[i] = em->nt_off[nt[i]];
		if (!em->nt_seen[nt[i]]) {
			dk_ck_emit(c, "elf.note", em->noff, "expected the %s "
			    "note (type %#x) the source header declares, "
			    "found none", sect_name[i], DK_PNOTE_BASE + nt[i]);
			v->layout_ok = 0;
		} else if (em->nt_size[nt[i]] != v->size[i]) {
			dk_ck_emit(c, "elf.note-size", v->field_off[i], "%s "
			    "%#jx: the %s note at %#jx holds %#jx bytes",
			    size_name(v, i), (uintmax_t)v->size[i],
			    sect_name[i], (uintmax_t)em->nt_off[nt[i]],
			    (uintmax_t)em->nt_size[nt[i]]);
			v->layout_ok = 0;
		}
	}
	em->data_off = dk_em_info(em, 88, 8);
	em->npages = dk_em_info(em, 96, 8);
	em->nstored = dk_em_info(em, 104, 8);
	em->nphys = dk_em_info(em, 112, 8);
	em->flags = (uint32_t)dk_em_info(em, 36, 4);
	v->off_pages = em->data_off;
	if ((em->data_off & (v->page - 1)) != 0)
		dk_ck_emit(c, "elf.misaligned", em->info_off + 88, "info note "
		    "data_offset %#jx: expected a multiple of the page size "
		    "%#jx", (uintmax_t)em->data_off, (uintmax_t)v->page);
	else if (em->data_off < em->noff + em->nsize)
		dk_ck_emit(c, "elf.note-mismatch", em->info_off + 88, "info "
		    "note data_offset %#jx: expected at or after the end of "
		    "the notes at %#jx", (uintmax_t)em->data_off,
		    (uintmax_t)(em->noff + em->nsize));
	if (!v->layout_ok)
		return DK_OK;
	msgbuf_check(c, v);
	bitmap_check(c, v);
	if (!v->bm_ok)
		return DK_OK;
	pop = v->bm->count;
	if (em->npages != pop)
		dk_ck_emit(c, "bitmap.popcount-mismatch", em->info_off + 96,
		    "info note npages: expected %ju, the set bits of the "
		    "bitmap note, found %ju", (uintmax_t)pop,
		    (uintmax_t)em->npages);
	if (em->nstored > em->npages)
		dk_ck_emit(c, "elf.note-mismatch", em->info_off + 104, "info "
		    "note npages_stored %ju: expected at most npages %ju",
		    (uintmax_t)em->nstored, (uintmax_t)em->npages);
	if (((em->flags & 4) != 0) != (em->nstored < em->npages))
		dk_ck_emit(c, "elf.note-mismatch", em->info_off + 36, "info "
		    "note flags %#x: the truncated bit says %s, but %ju of "
		    "%ju pages are stored", em->flags,
		    (em->flags & 4) ? "yes" : "no", (uintmax_t)em->nstored,
		    (uintmax_t)em->npages);
	if (em->nstored < pop && em->nstored <= em->npages) {
		char lost[256];

		lost_ranges(v, em->nstored, lost, sizeof(lost));
		dk_ck_emitn(c, "file.truncated",
		    em->data_off + (em->nstored << v->page_shift),
		    pop - em->nstored, "the source dump was truncated: %ju of "
		    "its %ju pages are stored; physical memory lost: %s",
		    (uintmax_t)em->nstored, (uintmax_t)pop, lost);
	}
	size_check(c, v, em->nstored < pop ? em->nstored : pop,
	    "npages_stored of the info note");
	rs.ok = v->bm_ok;
	rs.count = v->bm_ok ? v->bm->count : 0;
	rs.page_shift = v->page_shift;
	rs.page_known = v->ok;
	dk_em_segments(c, em, &rs);
	em->ok = 1;
	return DK_OK;
}

/*
 * A portable file that holds a minidump, or whose raw checks stopped
 * before telling (row NULL: check_elfmini.c has reported why): the raw
 * phase on the notes, then what every minidump check does.
 */
static enum dk_status
md_pcheck(struct dk_ck *c, struct dk_emv *em, const struct dk_arch *row,
    struct dk_err *err)
{
	struct mdv v;
	enum dk_status st = DK_OK;

	memset(&v, 0, sizeof(v));
	c->fstate = &v;
	if (row != NULL)
		st = md_praw(c, em, row, &v, err);
	if (st == DK_OK)
		st = md_deep(c, em);
	mdv_free(&v);
	c->fstate = NULL;
	return st;
}

/* What the formats table's minidump row gives dumpcheck (fmt_minidump.c). */
const struct dk_format_check dk_md_check = {
	.probe		= md_check_probe,
	.check		= md_check,
	.pcheck		= md_pcheck,
	.codes		= md_codes,
	.ncodes		= DK_ARRAY_LEN(md_codes),
};
