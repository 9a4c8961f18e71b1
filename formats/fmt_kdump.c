/*
 * fmt_kdump.c -- makedumpfile's kdump-compressed format ("diskdump"), as
 * one file or a --split set, plain or flattened (issue 14).
 *
 * A kdump-compressed file is a sequence of blocks of block_size bytes,
 * the dumped kernel's page size (makedumpfile's diskdump_mod.h,
 * write_kdump_header() and write_kdump_pages_and_bitmap_cyclic()):
 *
 *	block 0		struct disk_dump_header
 *	block 1		struct kdump_sub_header, then the ELF notes of the
 *			vmcore (VMCOREINFO among them): sub_hdr_size blocks
 *	then		bitmap 1, a bit per PFN below max_mapnr, set if the
 *			page exists; bitmap 2, set if it is dumped; each
 *			bitmap_blocks / 2 blocks; bit n is bit n % 8 of byte
 *			n / 8 in every byte order
 *	then		a struct page_desc per set bit of bitmap 2, in PFN
 *			order: off_t offset, unsigned int size, unsigned int
 *			flags (the page's codec), unsigned long long
 *			page_flags, 24 bytes
 *	then		the pages, each compressed alone (zlib, lzo, snappy,
 *			zstd) or stored as is; with dump level bit 1 unset
 *			in -d (zero pages kept) every zero page's descriptor
 *			points at one shared zero page, the first written
 *	at the end	the eraseinfo, if the sub header says so
 *
 * Every integer is in the dumped machine's byte order, which the header
 * does not state: header_version (1 to 6) reads as a small number in one
 * order only.  The header holds a struct timeval and unsigned long
 * fields, so its layout is the writer's ABI: 64-bit (LP64) and 32-bit
 * makedumpfile builds differ from offset 402 on, and the sub header of
 * 32-bit builds differs again between i386 (a 64-bit integer is 4-byte
 * aligned) and arm, mips and powerpc (8-byte aligned).  QEMU, which
 * writes the format for any guest, declares its 32-bit sub header
 * packed: the i386 layout whatever the guest.  The five layouts are the
 * tables below (`dumplayout list`); which one a file has is decided
 * from the file: the 64-bit and 32-bit headers put block_size,
 * sub_hdr_size, bitmap_blocks and max_mapnr in different places and
 * only one reading is consistent, and the two 32-bit sub headers are
 * told apart by where their notes and VMCOREINFO offsets point, as
 * libkdumpfile does.  The architecture comes from --arch, else from
 * utsname.machine (makedumpfile copies the kernel's), else, when QEMU
 * wrote "Unknown" or nothing there, from the size of the notes'
 * NT_PRSTATUS in the header's byte order and word size, else from
 * VMCOREINFO keys only one architecture's kernel writes.
 *
 * The flattened form (makedumpfile -F, QEMU's kdump-* output) is the
 * same bytes sent as a stream: a 4096-byte header ("makedumpfile", NUL
 * padding, big-endian int64 type 1 and version 1), then records of a
 * big-endian int64 offset and size followed by size bytes, meant to be
 * written at that offset, ended by a record of offset and size -1.  It
 * is read in place: the records are indexed once at open (a later
 * record overwrites an earlier one where they overlap, as makedumpfile
 * -R writes them in order), and every read goes through the index;
 * bytes no record covers read as zeros, as in the rearranged file.
 *
 * A --split set is several files, each a whole header, the notes and
 * both whole bitmaps, with the descriptors and pages of PFNs
 * [start_pfn, end_pfn) only (split = 1 in the sub header).  Given
 * together (dk_open_set, any order) they are one dump; a part alone is
 * a dump of its PFN range, and says so (attributes split_start_pfn,
 * split_end_pfn; a page of another part is DK_ENOTDUMPED naming both).
 *
 * Pages have no file offset (DK_OFF_PAGED): they are read through the
 * page-read path, one descriptor and one page at a time.  A page whose
 * descriptor or data the file does not hold (makedumpfile stopped on
 * ENOSPC, or the file was cut) is DK_ENOTDUMPED with its PFN, never
 * zeros; a page the dump level excluded (in bitmap 1, not in bitmap 2)
 * is DK_ENOTDUMPED too, or zeros when asked (dk_zero_excluded(),
 * dumpinfo --zero-excluded, as crash has); the header's incomplete flag
 * is reported as an attribute.  The
 * physical ranges are the runs of bitmap 1; the page count is bitmap 2's.
 * Kernel virtual addresses are not translated yet.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <lzo/lzo1x.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include "bytes.h"
#include "dkelf.h"
#include "kdump.h"
#include "linux.h"
#include "private.h"

/* ---------------------------------------------------------------------- */
/* State.                                                                  */

/* A stretch of a flattened file's dump: [lo, lo + len) is at phys. */
struct kd_ext {
	uint64_t	lo;
	uint64_t	len;
	uint64_t	phys;
};

/* One file of the dump (the only one, or a part of a split set). */
struct kd_part {
	const struct dk_src *src;
	const char	*name;
	uint32_t	 index;		/* in the set as given */
	int		 flat;		/* flattened: read through ext */
	int		 mapped;	/* read through ext too: a portable
					 * file's source header note */
	int		 flat_end;	/* its end marker was found */
	struct kd_ext	*ext;		/* sorted, disjoint */
	size_t		 next;
	uint64_t	 nrec;		/* records of the flattened file */
	uint64_t	 size;		/* bytes of the dump it holds */
	uint32_t	 status;
	int		 split;
	uint64_t	 start, end;	/* the PFNs it holds */
	uint64_t	 off_bm1, off_bm2, off_desc;
	uint64_t	 rank0;		/* bitmap 2's set bits below start */
	uint64_t	 ndesc;		/* descriptors, one per set bit */
};

struct dk_kdump {
	struct kd_part	*part;		/* sorted by start */
	size_t		 npart;
	size_t		 first;		/* the index of the file given first */
	const struct dk_layout *sl;	/* the sub header's layout */
	const struct dk_layout *subs[3];	/* its candidates */
	size_t		 nsubs;
	enum dk_endian	 e;
	unsigned	 version;
	int		 diskdump;	/* "DISKDUMP": no kdump sub header */
	int		 zero_excluded;	/* excluded pages read as zeros */
	uint64_t	 block;
	uint64_t	 max_mapnr;
	uint64_t	 bm_bytes;	/* bytes of each bitmap */
	struct dk_hdr	 sub;		/* the first file's sub header */
	struct dk_bitmap bm2;		/* dumped pages, of every part read */
	/* The page-read path. */
	uint8_t		*cbuf;		/* block bytes: a stored page */
	z_stream	 zs;
	int		 zs_ready;
	int		 lzo_ready;
	ZSTD_DCtx	*zd;
	uint8_t		 dc[KD_DESC_CACHE];	/* descriptors read ahead */
	size_t		 dc_part;
	uint64_t	 dc_off;
	size_t		 dc_len;
	/*
	 * The pages the files hold (bitmap 2's whose descriptor and data
	 * are in the file): all of bitmap 2 (held_all), or held.  Built
	 * when first asked (kd_held).
	 */
	int		 held_built, held_all;
	struct dk_bitmap held;
	/*
	 * Read from a portable file (kdump_port.c): the decoded pages from
	 * pdata on, one per held page in PFN order; port is kdump_port.c's.
	 */
	int		 portable;
	uint64_t	 pdata;
	void		*port;
	void		(*port_free)(void *);
};

static struct dk_kdump *
kd(const struct dk_dump *d)
{
	return d->priv;
}

static enum dk_status kd_held(struct dk_dump *, struct dk_err *);

/* ---------------------------------------------------------------------- */
/* Probe.                                                                  */

static int
is_flat_sig(const uint8_t *b)
{
	static const char want[KD_FLAT_SIG_LEN] = KD_FLAT_SIG;

	return memcmp(b, want, sizeof(want)) == 0;
}

static int
is_kdump_sig(const uint8_t *b)
{
	return memcmp(b, "KDUMP   ", KD_SIG_LEN) == 0 ||
	    memcmp(b, "DISKDUMP", KD_SIG_LEN) == 0;
}

static enum dk_status
kd_probe(const struct dk_src *src, struct dk_err *err)
{
	uint8_t b[KD_FLAT_SIG_LEN];

	if (src->size < KD_SIG_LEN)
		return DK_NOMATCH;
	if (dk_src_pread(src, b, KD_SIG_LEN, 0, "signature", err) != DK_OK)
		return err->code;
	if (is_kdump_sig(b))
		return DK_OK;
	if (src->size < sizeof(b))
		return DK_NOMATCH;
	if (dk_src_pread(src, b, sizeof(b), 0, "signature", err) != DK_OK)
		return err->code;
	return is_flat_sig(b) ? DK_OK : DK_NOMATCH;
}

/* ---------------------------------------------------------------------- */
/* The flattened form: its records, indexed once.                          */

struct kd_rec {
	uint64_t	lo, len, phys;
	uint64_t	seq;		/* later records win */
};

static int
rec_cmp(const void *a, const void *b)
{
	const struct kd_rec *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int
u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Max-heap of record indices by seq. */
static void
heap_push(size_t *h, size_t *n, const struct kd_rec *r, size_t v)
{
	size_t i = (*n)++;

	while (i > 0 && r[h[(i - 1) / 2]].seq < r[v].seq) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = v;
}

static void
heap_pop(size_t *h, size_t *n, const struct kd_rec *r)
{
	size_t i = 0, v = h[--(*n)];

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= *n)
			break;
		if (c + 1 < *n && r[h[c + 1]].seq > r[h[c]].seq)
			c++;
		if (r[h[c]].seq <= r[v].seq)
			break;
		h[i] = h[c];
		i = c;
	}
	if (*n > 0)
		h[i] = v;
}

/*
 * Records sorted by lo that overlap: the extents where each byte comes
 * from the last record that wrote it (a sweep over the records' ends,
 * the covering record of highest seq on top of a heap).
 */
static enum dk_status
flat_resolve(struct kd_part *p, struct kd_rec *r, size_t n,
    struct dk_err *err)
{
	uint64_t *pts = malloc(2 * n * sizeof(*pts));
	size_t *h = malloc(n * sizeof(*h));
	struct kd_ext *out = malloc(2 * n * sizeof(*out));
	size_t npts = 0, hn = 0, i = 0, nout = 0;

	if (pts == NULL || h == NULL || out == NULL) {
		free(pts);
		free(h);
		free(out);
		return dk_err_set(err, DK_ENOMEM, "%s: flattened index: out "
		    "of memory", p->name);
	}
	for (size_t k = 0; k < n; k++) {
		pts[npts++] = r[k].lo;
		pts[npts++] = r[k].lo + r[k].len;
	}
	qsort(pts, npts, sizeof(*pts), u64_cmp);
	for (size_t k = 0; k + 1 < npts; k++) {
		uint64_t x = pts[k], y = pts[k + 1], phys;
		const struct kd_rec *w;

		if (x == y)
			continue;
		while (i < n && r[i].lo <= x)
			heap_push(h, &hn, r, i++);
		while (hn > 0 && r[h[0]].lo + r[h[0]].len <= x)
			heap_pop(h, &hn, r);
		if (hn == 0)
			continue;
		w = &r[h[0]];
		phys = w->phys + (x - w->lo);
		if (nout > 0 && out[nout - 1].lo + out[nout - 1].len == x &&
		    out[nout - 1].phys + out[nout - 1].len == phys)
			out[nout - 1].len += y - x;
		else
			out[nout++] = (struct kd_ext){ x, y - x, phys };
	}
	free(pts);
	free(h);
	p->ext = out;
	p->next = nout;
	return DK_OK;
}

int
dk_kd_flat_next(const struct dk_src *s, const char *name, uint64_t idx,
    uint64_t *pos, struct dk_kd_frec *r, struct dk_err *err)
{
	uint8_t b[KD_FLAT_REC];

	dk_err_clear(err);
	if (s->size < *pos || s->size - *pos < KD_FLAT_REC)
		return 0;		/* cut short: no end marker */
	if (dk_src_pread(s, b, sizeof(b), *pos, "flattened record", err) !=
	    DK_OK)
		return -1;
	r->at = *pos;
	r->off = dec_be64(b);
	r->size = dec_be64(b + 8);
	r->end = r->off == KD_FLAT_END && r->size == KD_FLAT_END;
	if (r->end) {
		*pos += KD_FLAT_REC;
		r->have = 0;
		return 1;
	}
	if (r->off > INT64_MAX || r->size == 0 || r->size > INT64_MAX ||
	    r->off > (uint64_t)INT64_MAX - r->size) {
		dk_err_at(err, DK_ECORRUPT, name, *pos, "flattened record %ju: "
		    "expected an offset >= 0 and a size > 0 that end below "
		    "2^63, or the end marker (-1, -1); found offset %#jx, size "
		    "%#jx", (uintmax_t)idx, (uintmax_t)r->off,
		    (uintmax_t)r->size);
		return -1;
	}
	*pos += KD_FLAT_REC;
	r->have = s->size - *pos < r->size ? s->size - *pos : r->size;
	*pos += r->have;
	return 1;
}

/*
 * Index the records of flattened file p: the header, then (offset,
 * size) records, each followed by its bytes, to the end marker.  A file
 * cut short keeps the records (and the part of the last one) it holds.
 */
static enum dk_status
flat_index(struct kd_part *p, struct dk_err *err)
{
	const struct dk_src *s = p->src;
	uint8_t h[KD_FLAT_SIG_LEN + 16];
	uint64_t pos = KD_FLAT_HDR, type, version;
	struct kd_rec *r = NULL;
	size_t n = 0, cap = 0;
	int overlap = 0;
	uint64_t maxend = 0;
	enum dk_status st;

	if ((st = dk_src_pread(s, h, sizeof(h), 0, "flattened header",
	    err)) != DK_OK)
		return st;
	type = dec_be64(h + KD_FLAT_SIG_LEN);
	version = dec_be64(h + KD_FLAT_SIG_LEN + 8);
	if (type != 1 || version != 1)
		return dk_err_at(err, DK_EUNSUP, p->name, KD_FLAT_SIG_LEN,
		    "flattened header: expected type 1 and version 1 "
		    "(big-endian int64, the only ones makedumpfile writes), "
		    "found %#jx and %#jx", (uintmax_t)type,
		    (uintmax_t)version);
	if (s->size < KD_FLAT_HDR)
		return dk_err_at(err, DK_ETRUNC, p->name, s->size,
		    "the flattened header takes %u bytes, the file has %#jx",
		    KD_FLAT_HDR, (uintmax_t)s->size);
	p->flat = 1;
	for (;;) {
		struct dk_kd_frec fr;
		int got = dk_kd_flat_next(s, p->name, n, &pos, &fr, err);

		if (got < 0) {
			st = err->code;
			goto fail;
		}
		if (got == 0)
			break;		/* cut short: no end marker */
		if (fr.end) {
			p->flat_end = 1;
			break;
		}
		if (n == cap) {
			size_t nc = cap ? 2 * cap : 64;
			struct kd_rec *nr = realloc(r, nc * sizeof(*r));

			if (nr == NULL) {
				st = dk_err_set(err, DK_ENOMEM, "%s: flattened "
				    "index of %zu records: out of memory",
				    p->name, n);
				goto fail;
			}
			r = nr;
			cap = nc;
		}
		if (fr.have > 0) {
			r[n] = (struct kd_rec){ fr.off, fr.have, fr.at +
			    KD_FLAT_REC, n };
			n++;
		}
		if (fr.have < fr.size)
			break;		/* the last record is cut */
	}
	p->nrec = n;
	if (n > 0)
		qsort(r, n, sizeof(*r), rec_cmp);
	for (size_t i = 0; i < n; i++) {
		if (r[i].lo < maxend)
			overlap = 1;
		if (r[i].lo + r[i].len > maxend)
			maxend = r[i].lo + r[i].len;
	}
	p->size = maxend;
	if (overlap) {
		st = flat_resolve(p, r, n, err);
		free(r);
		return st;
	}
	/* No overlaps: the records are the extents. */
	p->ext = (struct kd_ext *)r;
	for (size_t i = 0; i < n; i++)
		p->ext[i] = (struct kd_ext){ r[i].lo, r[i].len, r[i].phys };
	p->next = n;
	if (n > 0) {
		struct kd_ext *e = realloc(p->ext, n * sizeof(*e));

		if (e != NULL)
			p->ext = e;
	}
	return DK_OK;
fail:
	free(r);
	return st;
}

/*
 * Read len bytes at offset off of the dump part p holds: the file's own
 * bytes, or, flattened, the records' (zeros where none wrote).
 */
static enum dk_status
kd_read(const struct kd_part *p, void *buf, size_t len, uint64_t off,
    const char *what, struct dk_err *err)
{
	uint8_t *out = buf;
	size_t lo = 0, hi;

	if (!p->flat && !p->mapped)
		return dk_src_pread(p->src, buf, len, off, what, err);
	if (off > p->size || len > p->size - off) {
		dk_err_at(err, DK_ETRUNC, p->name, off, "%s needs %zu bytes "
		    "at offset %#jx of the dump, but %s end at %#jx%s", what,
		    len, (uintmax_t)off, p->flat ? "the flattened file's "
		    "records" : "the kdump file the portable file holds",
		    (uintmax_t)p->size, !p->flat || p->flat_end ? "" : " (the "
		    "file is cut short: no end marker)");
		err->file = p->index;
		return DK_ETRUNC;
	}
	/* The first extent that ends after off. */
	hi = p->next;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->ext[mid].lo + p->ext[mid].len <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (len > 0) {
		const struct kd_ext *x = lo < p->next ? &p->ext[lo] : NULL;
		size_t n;
		enum dk_status st;

		if (x != NULL && x->lo <= off) {
			n = x->lo + x->len - off < len ?
			    (size_t)(x->lo + x->len - off) : len;
			if ((st = dk_src_pread(p->src, out, n, x->phys + (off -
			    x->lo), what, err)) != DK_OK)
				return st;
			lo++;
		} else {
			uint64_t stop = x != NULL ? x->lo : p->size;

			n = stop - off < len ? (size_t)(stop - off) : len;
			memset(out, 0, n);
		}
		out += n;
		off += n;
		len -= n;
	}
	return DK_OK;
}

/* The file offset of dump byte off of p (flattened: where it is stored). */
static uint64_t
kd_phys(const struct kd_part *p, uint64_t off)
{
	if (!p->flat && !p->mapped)
		return off;
	for (size_t i = 0; i < p->next; i++)
		if (off >= p->ext[i].lo && off - p->ext[i].lo < p->ext[i].len)
			return p->ext[i].phys + (off - p->ext[i].lo);
	return off;
}

/* ---------------------------------------------------------------------- */
/* The header: which layout, which byte order, which architecture.        */

/* Linux's uname -m (utsname.machine) and the rows they name. */
static const struct {
	const char	*machine;
	int		 prefix;	/* matches any name starting so */
	const char	*le, *be;	/* the row in each byte order */
} machines[] = {
	{ "x86_64", 0, "amd64", NULL },
	{ "i386", 0, "i386", NULL },
	{ "i486", 0, "i386", NULL },
	{ "i586", 0, "i386", NULL },
	{ "i686", 0, "i386", NULL },
	{ "aarch64", 0, "aarch64", NULL },
	{ "arm64", 0, "aarch64", NULL },
	{ "arm", 1, "arm", "armeb" },	/* armv7l, armv6l, armv5tel */
	{ "ppc64le", 0, "powerpc64le", NULL },
	{ "ppc64", 0, "powerpc64le", "powerpc64" },
	{ "ppc", 0, NULL, "powerpc" },
	{ "s390x", 0, NULL, "s390x" },	/* QEMU writes "S390X" */
	{ "riscv64", 0, "riscv64", NULL },
	{ "mips64", 0, "mips64el", "mips64" },
	{ "mips", 0, "mipsel", "mips" },
};

/*
 * The size of a Linux NT_PRSTATUS (struct elf_prstatus: 112 or 72 bytes
 * of signal and time fields, the general registers, pr_fpvalid, the
 * struct's alignment) and the row it names in a byte order and word
 * size.  s390x and x86_64 share 336, in different byte orders.
 */
static const struct {
	uint32_t	 size;
	enum dk_endian	 e;
	unsigned	 long_size;
	const char	*row;
} prstatus[] = {
	{ 336, DK_LE, 8, "amd64" },		/* 27 registers */
	{ 392, DK_LE, 8, "aarch64" },		/* 34 */
	{ 376, DK_LE, 8, "riscv64" },		/* 32 */
	{ 504, DK_LE, 8, "powerpc64le" },	/* 48 */
	{ 504, DK_BE, 8, "powerpc64" },
	{ 336, DK_BE, 8, "s390x" },		/* psw, 16 gprs, acrs */
	{ 480, DK_BE, 8, "mips64" },		/* 45 */
	{ 480, DK_LE, 8, "mips64el" },
	{ 144, DK_LE, 4, "i386" },		/* 17 */
	{ 148, DK_LE, 4, "arm" },		/* 18 */
	{ 148, DK_BE, 4, "armeb" },
	{ 268, DK_BE, 4, "powerpc" },		/* 48 */
	{ 256, DK_BE, 4, "mips" },		/* 45 */
	{ 256, DK_LE, 4, "mipsel" },
};

/* The row a utsname.machine names in byte order e, or NULL. */
const struct dk_arch *
dk_kd_machine_row(const char *m, enum dk_endian e)
{
	for (size_t i = 0; i < DK_ARRAY_LEN(machines); i++) {
		size_t n = strlen(machines[i].machine);
		const char *r;

		if (machines[i].prefix ? strncasecmp(m, machines[i].machine,
		    n) != 0 : strcasecmp(m, machines[i].machine) != 0)
			continue;
		r = e == DK_BE && machines[i].be != NULL ? machines[i].be :
		    machines[i].le != NULL ? machines[i].le : machines[i].be;
		return dk_arch_by_name(r);
	}
	return NULL;
}

/*
 * Could header h (read with layout l in byte order e) be one that
 * makedumpfile or QEMU wrote?  A block size that is a power of two from
 * 4 KiB to 64 KiB, a sub header and bitmaps of at least a block, and
 * bitmaps that cover max_mapnr; why gets what failed.
 */
static int
hdr_plausible(const struct dk_hdr *h, int diskdump, char *why, size_t len)
{
	uint64_t bs = h->v[KD_F_BLOCK_SIZE], bb = h->v[KD_F_BITMAP_BLOCKS];
	uint64_t mapnr = h->v[KD_F_MAX_MAPNR];

	if (bs < KD_MIN_BLOCK || bs > KD_MAX_BLOCK || (bs & (bs - 1)) != 0) {
		snprintf(why, len, "block_size %ju is not a power of two from "
		    "%u to %u", (uintmax_t)bs, KD_MIN_BLOCK, KD_MAX_BLOCK);
		return 0;
	}
	if (!diskdump && h->v[KD_F_HEADER_VERSION] >= 1 &&
	    (h->v[KD_F_SUB_HDR_SIZE] == 0 ||
	    h->v[KD_F_SUB_HDR_SIZE] > INT32_MAX)) {
		snprintf(why, len, "sub_hdr_size %jd is not a positive count "
		    "of blocks", (intmax_t)(int32_t)h->v[KD_F_SUB_HDR_SIZE]);
		return 0;
	}
	if (bb == 0 || mapnr == 0 || bb * bs * 8 < mapnr) {
		snprintf(why, len, "bitmap_blocks %ju of %ju bytes cannot hold "
		    "max_mapnr %ju bits", (uintmax_t)bb, (uintmax_t)bs,
		    (uintmax_t)mapnr);
		return 0;
	}
	return 1;
}

/*
 * Does reading c fit the architecture the options (opt) or
 * utsname.machine (m) name: its byte order, and its word size for the
 * layout?
 */
static int
cand_fits(const struct kd_cand *c, const struct dk_arch *opt, const char *m)
{
	const struct dk_arch *a = opt != NULL ? opt : dk_kd_machine_row(m, c->e);

	return a != NULL && a->endian == c->e &&
	    (a->long_size == 8) == (c->l == &dk_kd_hdr64);
}

/*
 * Choose the header's layout and byte order: the readings whose
 * header_version is 0 to 6 and whose values hdr_plausible accepts; if
 * several remain, the one that fits the architecture the options or
 * utsname.machine name.
 */
enum dk_status
dk_kd_header(const char *name, const uint8_t *b, int diskdump,
    const struct dk_arch *opt, struct kd_cand *out, struct dk_err *err)
{
	static const struct dk_layout *const ls[] = { &dk_kd_hdr64, &dk_kd_hdr32 };
	static const enum dk_endian es[] = { DK_LE, DK_BE };
	struct kd_cand c[4];
	char why[2][160] = { "", "" }, m[66];
	size_t nc = 0, nfit = 0, fit = 0, nv = 0;
	uint32_t vle = dec_le32(b + 8), vbe = dec_be32(b + 8);

	memcpy(m, b + 272, 65);
	m[65] = '\0';
	for (size_t li = 0; li < DK_ARRAY_LEN(ls); li++)
		for (size_t ei = 0; ei < DK_ARRAY_LEN(es); ei++) {
			uint32_t v = es[ei] == DK_BE ? vbe : vle;

			if (v > KD_MAX_VERSION)
				continue;
			nv++;
			c[nc].l = ls[li];
			c[nc].e = es[ei];
			dk_layout_decode(c[nc].l, v, b, c[nc].e, &c[nc].h);
			if (hdr_plausible(&c[nc].h, diskdump, why[li],
			    sizeof(why[li])))
				nc++;
		}
	if (nv == 0)
		return dk_err_at(err, DK_EUNSUP, name, 8, "expected "
		    "header_version 0 to %u in either byte order, found "
		    "%#x little-endian, %#x big-endian", KD_MAX_VERSION, vle,
		    vbe);
	if (nc == 0)
		return dk_err_at(err, DK_ECORRUPT, name, 0, "neither "
		    "the 64-bit nor the 32-bit layout of disk_dump_header "
		    "fits: read as 64-bit (block_size at 428), %s; read as "
		    "32-bit (block_size at 416), %s", why[0], why[1]);
	for (size_t i = 0; i < nc; i++)
		if (cand_fits(&c[i], opt, m)) {
			nfit++;
			fit = i;
		}
	if (nc > 1 && nfit != 1)
		return dk_err_set(err, DK_EAMBIG, "%s: the header reads "
		    "consistently in more than one layout or byte order "
		    "(64-bit and 32-bit makedumpfile builds differ); name the "
		    "architecture with --arch", name);
	*out = c[nc > 1 ? fit : 0];
	return DK_OK;
}

/* ---------------------------------------------------------------------- */
/* Opening a file of the dump.                                             */

/* Is [off, off + size) inside the sub header's blocks, past sub's end? */
static int
in_subhdr(uint64_t off, uint64_t size, uint64_t block, uint64_t sub_end,
    uint64_t lim)
{
	if (off == 0 && size == 0)
		return 1;
	return off >= block + sub_end && off <= lim && size <= lim - off;
}

/*
 * The sub header's layout, from the candidates ls (the likeliest
 * first): of those whose VMCOREINFO and notes offsets point inside the
 * sub header's blocks, past the sub header, where makedumpfile and QEMU
 * put them (the eraseinfo goes at the end of the file), the one that
 * finds the most of the two, the likeliest of equals.  This tells the
 * i386 layout (QEMU's for every 32-bit guest) from the one of 8-aligned
 * 64-bit integers (arm, mips and powerpc makedumpfile), as libkdumpfile
 * does, and a 32-bit build with a 64-bit time_t (Debian's armhf since
 * 2025), whose header has the 64-bit layout, from a 64-bit build; and a
 * 64-bit writer's file of a 32-bit machine (dumpconv --to kdump of an
 * arm dump) from the i386 layout, in which the 64-bit VMCOREINFO pair
 * reads as the notes' and the VMCOREINFO pair as absent.  Before
 * version 3 nothing tells them apart: the first is taken.
 */
static const struct dk_layout *
choose_sub(const uint8_t *b, unsigned v, enum dk_endian e, uint64_t block,
    uint64_t subblocks, const struct dk_layout *const *ls, size_t n)
{
	uint64_t lim = (1 + subblocks) * block;
	const struct dk_layout *best = ls[0];
	int best_found = -1;

	if (v < 3)
		return ls[0];
	for (size_t i = 0; i < n; i++) {
		struct dk_hdr h;
		uint64_t end = dk_layout_size(ls[i], v);
		int found;

		dk_layout_decode(ls[i], v, b, e, &h);
		if (!in_subhdr(h.v[KD_F_OFFSET_VMCOREINFO],
		    h.v[KD_F_SIZE_VMCOREINFO], block, end, lim))
			continue;
		if (v >= 4 && !in_subhdr(h.v[KD_F_OFFSET_NOTE],
		    h.v[KD_F_SIZE_NOTE], block, end, lim))
			continue;
		/* Another than the likeliest needs something to show. */
		found = (h.v[KD_F_SIZE_VMCOREINFO] != 0) + (v >= 4 &&
		    h.v[KD_F_SIZE_NOTE] != 0);
		if ((i == 0 || found > 0) && found > best_found) {
			best = ls[i];
			best_found = found;
		}
	}
	return best;
}

/*
 * The sub header's layouts the writer's ABI may have had (into subs,
 * their count returned), the likeliest first: a 64-bit header has a
 * 64-bit sub header, but for a 32-bit machine's 32-bit time_t build
 * (QEMU's i386 guests have a 64-bit one); a 32-bit header has i386's
 * (and QEMU's) but for arm, mips and powerpc.  choose_sub decides from
 * the file.
 */
static size_t
sub_cands(const struct dk_layout *hl, const struct dk_arch *row,
    const struct dk_layout *subs[3])
{
	int i386 = row == NULL || row->long_size == 8 ||
	    strcmp(row->name, "i386") == 0;
	size_t n = 0;

	if (hl == &dk_kd_hdr64 && (row == NULL || row->long_size == 8 ||
	    i386))
		subs[n++] = &dk_kd_sub64;
	if (hl != &dk_kd_hdr64 || row == NULL || row->long_size == 4) {
		subs[n++] = i386 ? &dk_kd_sub32 : &dk_kd_sub32pad;
		subs[n++] = i386 ? &dk_kd_sub32pad : &dk_kd_sub32;
	}
	if (hl == &dk_kd_hdr64 && subs[0] != &dk_kd_sub64)
		subs[n++] = &dk_kd_sub64;
	return n;
}

const struct dk_layout *
dk_kd_sub_layout(const uint8_t *sb, const struct dk_layout *hl,
    const struct dk_arch *row, unsigned v, enum dk_endian e, uint64_t block,
    uint64_t subblocks)
{
	const struct dk_layout *subs[3];
	size_t n = sub_cands(hl, row, subs);

	return choose_sub(sb, v, e, block, subblocks, subs, n);
}

/*
 * Read the headers of part p (the first file opened when p is the
 * dump's first): check that they agree with the dump's, find its PFN
 * range and the offsets of its bitmaps and descriptors.
 */
static enum dk_status
open_part(struct dk_dump *d, struct kd_part *p, const uint8_t *hb,
    struct dk_err *err)
{
	struct dk_kdump *k = kd(d);
	uint8_t sb[128] = { 0 };
	struct dk_hdr h, s;
	uint64_t half, bb, subblocks;
	size_t ssize;
	enum dk_status st;

	dk_layout_decode(d->hlayout, k->version, hb, k->e, &h);
	/* A part of the set must be a part of the same dump. */
	if (p != &k->part[k->first]) {
		static const unsigned same[] = { KD_F_HEADER_VERSION,
		    KD_F_BLOCK_SIZE, KD_F_SUB_HDR_SIZE, KD_F_BITMAP_BLOCKS,
		    KD_F_MAX_MAPNR };

		for (size_t i = 0; i < DK_ARRAY_LEN(same); i++)
			if (h.v[same[i]] != d->hdr.v[same[i]]) {
				const struct dk_field *f = dk_layout_find(
				    d->hlayout, same[i], k->version);

				st = dk_err_at(err, DK_ECORRUPT, p->name,
				    f->off, "%s is %ju here, %ju in %s: the "
				    "files are not parts of one dump", f->name,
				    (uintmax_t)h.v[same[i]],
				    (uintmax_t)d->hdr.v[same[i]],
				    k->part[k->first].name);
				err->file = p->index;
				return st;
			}
		for (unsigned i = 0; i < KD_F_NSTR; i++)
			if (strcmp(h.s[i], d->hdr.s[i]) != 0) {
				const struct dk_field *f = dk_layout_find(
				    d->hlayout, i, k->version);

				st = dk_err_at(err, DK_ECORRUPT, p->name,
				    f->off, "%s is \"%s\" here, \"%s\" in %s: "
				    "the files are not parts of one dump",
				    f->name, h.s[i], d->hdr.s[i],
				    k->part[k->first].name);
				err->file = p->index;
				return st;
			}
	}
	p->status = (uint32_t)h.v[KD_F_STATUS];
	subblocks = h.v[KD_F_SUB_HDR_SIZE];
	bb = h.v[KD_F_BITMAP_BLOCKS];
	memset(&s, 0, sizeof(s));
	if (!k->diskdump && k->version >= 1) {
		/* The largest of the layouts it may have: choose_sub's. */
		ssize = dk_layout_size(k->sl, k->version);
		for (size_t i = 0; p == &k->part[k->first] && i < k->nsubs;
		    i++)
			if (dk_layout_size(k->subs[i], k->version) > ssize)
				ssize = dk_layout_size(k->subs[i], k->version);
		if ((st = kd_read(p, sb, ssize, k->block, "kdump sub header",
		    err)) != DK_OK)
			return st;
		if (p == &k->part[k->first])
			k->sl = choose_sub(sb, k->version, k->e, k->block,
			    subblocks, k->subs, k->nsubs);
		dk_layout_decode(k->sl, k->version, sb, k->e, &s);
	}
	if (p == &k->part[k->first]) {
		k->sub = s;
		k->max_mapnr = k->version >= 6 && !k->diskdump ?
		    s.v[KD_F_MAX_MAPNR_64] : h.v[KD_F_MAX_MAPNR];
	}
	p->start = 0;
	p->end = k->max_mapnr;
	if (!k->diskdump && k->version >= 2 && s.v[KD_F_SPLIT] != 0) {
		p->split = 1;
		p->start = k->version >= 6 ? s.v[KD_F_START_PFN_64] :
		    s.v[KD_F_START_PFN];
		p->end = k->version >= 6 ? s.v[KD_F_END_PFN_64] :
		    s.v[KD_F_END_PFN];
		if (p->start > p->end) {
			const struct dk_field *f = dk_layout_find(k->sl,
			    k->version >= 6 ? KD_F_START_PFN_64 :
			    KD_F_START_PFN, k->version);

			st = dk_err_at(err, DK_ECORRUPT, p->name, k->block +
			    f->off, "this part of a split set starts at PFN "
			    "%#jx, after its end %#jx", (uintmax_t)p->start,
			    (uintmax_t)p->end);
			err->file = p->index;
			return st;
		}
		if (p->end > k->max_mapnr)
			p->end = k->max_mapnr;
		if (p->start > p->end)
			p->start = p->end;
	}
	/* Two bitmaps, each of half the blocks (an old diskdump: one). */
	half = bb * k->block / 2;
	if (half * 8 < k->max_mapnr)
		half = bb * k->block;
	if (p == &k->part[k->first]) {
		if (half * 8 < k->max_mapnr) {
			const struct dk_field *f = k->version >= 6 &&
			    !k->diskdump ? dk_layout_find(k->sl,
			    KD_F_MAX_MAPNR_64, k->version) : dk_layout_find(
			    d->hlayout, KD_F_MAX_MAPNR, k->version);

			st = dk_err_at(err, DK_ECORRUPT, p->name, (f->id ==
			    KD_F_MAX_MAPNR ? 0 : k->block) + f->off, "%s %#jx "
			    "needs more bits than the %ju blocks of "
			    "bitmap_blocks hold", f->name,
			    (uintmax_t)k->max_mapnr, (uintmax_t)bb);
			err->file = p->index;
			return st;
		}
		k->bm_bytes = half;
	}
	p->off_bm1 = (1 + subblocks) * k->block;
	p->off_bm2 = half == bb * k->block ? p->off_bm1 : p->off_bm1 + half;
	p->off_desc = p->off_bm1 + bb * k->block;
	/*
	 * The bitmaps must be in the file, and no larger than the file
	 * itself (a flattened file may claim offsets far past its bytes).
	 */
	if (p->off_desc > p->size || bb * k->block > p->src->size) {
		st = dk_err_at(err, DK_ETRUNC, p->name, p->off_bm1, "the "
		    "bitmaps (%ju blocks of %ju bytes from offset %#jx) end "
		    "at %#jx, past the end of the %s at %#jx", (uintmax_t)bb,
		    (uintmax_t)k->block, (uintmax_t)p->off_bm1,
		    (uintmax_t)p->off_desc, p->flat ? "flattened file's "
		    "records" : "file", (uintmax_t)p->size);
		err->file = p->index;
		return st;
	}
	return DK_OK;
}

/*
 * OR into bm2 the bits of part p's bitmap 2 that are in its PFN range
 * [start, end); in a set each part's own copy counts for its range.
 */
static enum dk_status
load_bitmap2(struct dk_kdump *k, struct kd_part *p, uint8_t *buf,
    struct dk_err *err)
{
	uint64_t w0 = p->start / 64, w1 = (p->end + 63) / 64, w;
	enum dk_status st;

	for (w = w0; w < w1; ) {
		size_t nw = (w1 - w) * 8 < KD_BITMAP_CHUNK ?
		    (size_t)(w1 - w) : KD_BITMAP_CHUNK / 8;
		size_t nb = nw * 8;

		/* The bitmap's last word may end past its bytes. */
		if (w * 8 + nb > k->bm_bytes) {
			memset(buf, 0, nb);
			nb = (size_t)(k->bm_bytes - w * 8);
		}
		if ((st = kd_read(p, buf, nb, p->off_bm2 + w * 8, "bitmap 2",
		    err)) != DK_OK)
			return st;
		for (size_t i = 0; i < nw; i++, w++) {
			uint64_t v = dec_le64(buf + 8 * i);
			uint64_t lo = w * 64, hi = lo + 64;

			if (p->start > lo)
				v &= ~(uint64_t)0 << (p->start - lo);
			if (p->end < hi)
				v &= ((uint64_t)1 << (p->end - lo)) - 1;
			dk_bitmap_or(&k->bm2, w, v);
		}
	}
	return DK_OK;
}

/*
 * The runs of bitmap 1 of the first file: the machine's physical
 * memory, d->avail.
 */
static enum dk_status
load_ranges(struct dk_dump *d, struct kd_part *p, uint8_t *buf,
    struct dk_err *err)
{
	struct dk_kdump *k = kd(d);
	struct dk_bitmap bm;
	uint64_t nbytes = (k->max_mapnr + 63) / 64 * 8, done, b, e;
	size_t n = 0, cap = 0;
	enum dk_status st;

	if ((st = dk_bitmap_init(&bm, k->max_mapnr, err)) != DK_OK)
		return st;
	for (done = 0; done < nbytes; done += KD_BITMAP_CHUNK) {
		size_t c = nbytes - done < KD_BITMAP_CHUNK ?
		    (size_t)(nbytes - done) : KD_BITMAP_CHUNK;
		size_t have = done + c > k->bm_bytes ?
		    (size_t)(k->bm_bytes - done) : c;

		memset(buf, 0, c);
		if ((st = kd_read(p, buf, have, p->off_bm1 + done,
		    "bitmap 1", err)) != DK_OK)
			goto out;
		dk_bitmap_load(&bm, done, buf, c, 8, DK_LE);
	}
	for (b = dk_bitmap_next(&bm, 0, 1); b < bm.nbits;
	    b = dk_bitmap_next(&bm, e, 1)) {
		e = dk_bitmap_next(&bm, b, 0);
		if (n == cap) {
			size_t nc = cap ? 2 * cap : 16;
			struct dk_range *r;

			if (nc > KD_MAX_RANGES) {
				st = dk_err_at(err, DK_ELIMIT, p->name,
				    kd_phys(p, p->off_bm1), "bitmap 1 has more "
				    "than %u runs of present pages",
				    KD_MAX_RANGES);
				goto out;
			}
			if ((r = realloc(d->avail, nc * sizeof(*r))) == NULL) {
				st = dk_err_set(err, DK_ENOMEM, "%s: out of "
				    "memory", p->name);
				goto out;
			}
			d->avail = r;
			cap = nc;
		}
		d->avail[n++] = (struct dk_range){ b << d->page_shift,
		    e << d->page_shift };
	}
	d->navail = n;
out:
	dk_bitmap_free(&bm);
	return st;
}

/* ---------------------------------------------------------------------- */
/* Notes and VMCOREINFO.                                                   */

/* Read n bytes at off of part p into a new buffer (NUL-terminated). */
static enum dk_status
read_blob(struct kd_part *p, uint64_t off, uint64_t n, uint64_t max,
    const char *what, uint8_t **out, struct dk_err *err)
{
	enum dk_status st;

	*out = NULL;
	if (n > max) {
		st = dk_err_at(err, DK_ELIMIT, p->name, off, "%s of %#jx bytes "
		    "is larger than the %#jx dumpkit reads", what,
		    (uintmax_t)n, (uintmax_t)max);
		err->file = p->index;
		return st;
	}
	if ((*out = malloc((size_t)n + 1)) == NULL)
		return dk_err_set(err, DK_ENOMEM, "%s: out of memory", p->name);
	if ((st = kd_read(p, *out, (size_t)n, off, what, err)) != DK_OK) {
		free(*out);
		*out = NULL;
		return st;
	}
	(*out)[n] = 0;
	return DK_OK;
}

/* The architecture the notes' NT_PRSTATUS names, or NULL. */
static const struct dk_arch *
prstatus_row(uint64_t size, enum dk_endian e, unsigned long_size)
{
	for (size_t i = 0; i < DK_ARRAY_LEN(prstatus); i++)
		if (prstatus[i].size == size && prstatus[i].e == e &&
		    prstatus[i].long_size == long_size)
			return dk_arch_by_name(prstatus[i].row);
	return NULL;
}

/*
 * The notes (version 4 on) and VMCOREINFO of the first file: sections,
 * attributes, and a hint of the architecture: *nt_row from the first
 * CORE NT_PRSTATUS (its size in *nt_size), *vi_row from VMCOREINFO.
 */
static enum dk_status
read_notes(struct dk_dump *d, struct kd_part *p, const struct dk_arch **nt_row,
    uint64_t *nt_size, const struct dk_arch **vi_row, const char **vi_key,
    struct dk_err *err)
{
	struct dk_kdump *k = kd(d);
	uint64_t noff = k->sub.v[KD_F_OFFSET_NOTE];
	uint64_t nsize = k->sub.v[KD_F_SIZE_NOTE];
	uint64_t voff = k->sub.v[KD_F_OFFSET_VMCOREINFO];
	uint64_t vsize = k->sub.v[KD_F_SIZE_VMCOREINFO];
	unsigned ls = d->hlayout == &dk_kd_hdr64 ? 8 : 4;
	uint8_t *buf = NULL;
	int have_vmci = 0;
	enum dk_status st = DK_OK;

	if (k->diskdump)
		return DK_OK;
	if (k->version >= 4 && nsize > 0) {
		struct dk_note_iter it;
		struct dk_note nt;

		dk_add_section(d, "notes", kd_phys(p, noff), nsize, nsize);
		if ((st = read_blob(p, noff, nsize, KD_MAX_NOTES, "the ELF "
		    "notes", &buf, err)) != DK_OK)
			return st;
		dk_note_iter_mem(&it, buf, (size_t)nsize, k->e, "the notes");
		while ((st = dk_note_next(&it, &nt, err)) == DK_OK) {
			if (nt.have_name && nt.namesz == 5 &&
			    memcmp(nt.name, "CORE", 5) == 0 &&
			    nt.type == KD_NT_PRSTATUS && *nt_size == 0) {
				*nt_size = nt.descsz;
				*nt_row = prstatus_row(nt.descsz, k->e, ls);
			}
			if (nt.have_name && nt.namesz == 11 &&
			    memcmp(nt.name, "VMCOREINFO", 11) == 0 &&
			    !have_vmci) {
				have_vmci = 1;
				dk_add_section(d, "vmcoreinfo", kd_phys(p,
				    noff + nt.desc_off), nt.descsz, nt.descsz);
				st = dk_vmcoreinfo_attrs(d, (const char *)buf +
				    nt.desc_off, (size_t)nt.descsz, vi_row,
				    vi_key, err);
				if (st != DK_OK)
					break;
			}
		}
		free(buf);
		buf = NULL;
		if (st == DK_NOMATCH)
			st = DK_OK;
		else if (st != DK_OK && err->offset != DK_ERR_NOOFFSET) {
			uint64_t at = noff + err->offset;
			char inner[sizeof(err->msg)];

			memcpy(inner, err->msg, sizeof(inner));
			st = dk_err_at(err, st, p->name, kd_phys(p, at), "the "
			    "ELF notes at %#jx (%#jx bytes: the sub header's "
			    "offset_note and size_note): %s", (uintmax_t)noff,
			    (uintmax_t)nsize, inner);
			err->file = p->index;
			return st;
		} else if (st != DK_OK)
			return st;
	}
	if (!have_vmci && k->version >= 3 && vsize > 0) {
		dk_add_section(d, "vmcoreinfo", kd_phys(p, voff), vsize, vsize);
		if ((st = read_blob(p, voff, vsize, KD_MAX_VMCOREINFO,
		    "VMCOREINFO", &buf, err)) != DK_OK)
			return st;
		st = dk_vmcoreinfo_attrs(d, (const char *)buf, (size_t)vsize,
		    vi_row, vi_key, err);
		free(buf);
	}
	return st;
}

/* ---------------------------------------------------------------------- */
/* Open and close.                                                         */

static int
part_cmp(const void *a, const void *b)
{
	const struct kd_part *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/*
 * Does descriptor q of part p describe a page the file holds: a size of
 * at most a block, its bytes inside the file?  (count_present's rule.)
 */
static int
desc_held(const struct dk_kdump *k, const struct kd_part *p, const uint8_t *q)
{
	uint64_t off = dec_uint(q, 8, k->e), sz = dec_uint(q + 8, 4, k->e);

	return sz > 0 && sz <= k->block && off <= p->size &&
	    sz <= p->size - off;
}

/* The dump's pages each file holds whole; a scan only if one is cut. */
static enum dk_status
count_present(struct dk_dump *d, struct dk_err *err)
{
	struct dk_kdump *k = kd(d);
	uint8_t *buf = NULL;
	enum dk_status st = DK_OK;

	d->info.npages_present = 0;
	for (size_t i = 0; i < k->npart; i++) {
		struct kd_part *p = &k->part[i];
		uint64_t have, done = 0;
		uint8_t last[KD_DESC_SIZE];

		if (p->ndesc == 0)
			continue;
		have = p->size < p->off_desc ? 0 : (p->size - p->off_desc) /
		    KD_DESC_SIZE;
		if (have > p->ndesc)
			have = p->ndesc;
		/* Complete: every descriptor, the last page in the file. */
		if (have == p->ndesc && !(p->status & KD_DH_INCOMPLETE) &&
		    kd_read(p, last, sizeof(last), p->off_desc + (p->ndesc -
		    1) * KD_DESC_SIZE, "page descriptor", err) == DK_OK) {
			if (desc_held(k, p, last)) {
				d->info.npages_present += p->ndesc;
				continue;
			}
		}
		dk_err_clear(err);
		if (buf == NULL && (buf = malloc(KD_SCAN_CHUNK)) == NULL)
			return dk_err_set(err, DK_ENOMEM, "%s: out of memory",
			    d->src.name);
		while (done < have) {
			size_t n = have - done < KD_SCAN_CHUNK / KD_DESC_SIZE ?
			    (size_t)(have - done) : KD_SCAN_CHUNK / KD_DESC_SIZE;

			if ((st = kd_read(p, buf, n * KD_DESC_SIZE, p->off_desc +
			    done * KD_DESC_SIZE, "page descriptors", err)) !=
			    DK_OK)
				goto out;
			for (size_t j = 0; j < n; j++)
				d->info.npages_present += desc_held(k, p,
				    buf + j * KD_DESC_SIZE);
			done += n;
		}
	}
out:
	free(buf);
	return st;
}

static void
add_attrs(struct dk_dump *d)
{
	struct dk_kdump *k = kd(d);
	const struct dk_hdr *h = &d->hdr;
	const char *src = "kdump header", *codec = NULL;
	struct kd_part *p0 = &k->part[k->first];
	char vs[3 * 66 + 2];
	uint32_t st = (uint32_t)h->v[KD_F_STATUS];

	dk_add_attr_str(d, "hostname", h->s[KD_F_NODENAME], src);
	dk_add_attr_str(d, "os_release", h->s[KD_F_RELEASE], src);
	if (h->s[KD_F_RELEASE][0] != '\0') {
		snprintf(vs, sizeof(vs), "%.65s%s%.65s %.65s",
		    h->s[KD_F_SYSNAME],
h->s[KD_F_SYSNAME][0] ? " " : "",
		    h->s[KD_F_RELEASE], h->s[KD_F_UTSVERSION]);
		dk_add_attr_str(d, "version_string", vs, src);
	}
	dk_add_attr_str(d, "sysname", h->s[KD_F_SYSNAME], src);
	dk_add_attr_str(d, "machine", h->s[KD_F_MACHINE], src);
	dk_add_attr_str(d, "domainname", h->s[KD_F_DOMAINNAME], src);
	/* tv_sec is a long: negative (or QEMU's 0) is no time. */
	if (h->v[KD_F_TV_SEC] != 0 && (d->hlayout == &dk_kd_hdr64 ?
	    h->v[KD_F_TV_SEC] <= INT64_MAX : h->v[KD_F_TV_SEC] <= INT32_MAX))
		dk_add_attr_num(d, "dump_time", DK_ATTR_TIME,
		    h->v[KD_F_TV_SEC], src);
	if (st & KD_DH_ZLIB)
		codec = "zlib";
	else if (st & KD_DH_LZO)
		codec = "lzo";
	else if (st & KD_DH_SNAPPY)
		codec = "snappy";
	else if (st & KD_DH_ZSTD)
		codec = "zstd";
	dk_add_attr_str(d, "compression", codec != NULL ? codec : "none",
	    src);
	dk_add_attr_num(d, "nr_cpus", DK_ATTR_NUMBER, h->v[KD_F_NR_CPUS], src);
	if (st & KD_DH_INCOMPLETE)
		dk_add_attr_num(d, "incomplete", DK_ATTR_NUMBER, 1, src);
	if (st & KD_DH_EXCL_VMEMMAP)
		dk_add_attr_num(d, "excluded_vmemmap", DK_ATTR_NUMBER, 1, src);
	if (!k->diskdump && k->version >= 1) {
		dk_add_attr_num(d, "dump_level", DK_ATTR_NUMBER,
		    k->sub.v[KD_F_DUMP_LEVEL], "kdump sub header");
		dk_add_attr_num(d, "phys_base", DK_ATTR_NUMBER,
		    k->sub.v[KD_F_PHYS_BASE], "kdump sub header");
	}
	dk_add_attr_num(d, "max_mapnr", DK_ATTR_NUMBER, k->max_mapnr, src);
	if (k->npart == 1 && p0->split) {
		dk_add_attr_num(d, "split_start_pfn", DK_ATTR_NUMBER, p0->start,
		    "kdump sub header");
		dk_add_attr_num(d, "split_end_pfn", DK_ATTR_NUMBER, p0->end,
		    "kdump sub header");
	}
	if (k->npart > 1)
		dk_add_attr_num(d, "split_parts", DK_ATTR_NUMBER, k->npart,
		    "dk_open_set");
	if (p0->flat) {
		dk_add_attr_num(d, "flattened_records", DK_ATTR_NUMBER,
		    p0->nrec, "makedumpfile flattened file");
		if (!p0->flat_end)
			dk_add_attr_num(d, "flattened_cut_short",
			    DK_ATTR_NUMBER, 1, "makedumpfile flattened file");
	}
}

static void
add_sections(struct dk_dump *d)
{
	struct dk_kdump *k = kd(d);
	struct kd_part *p = &k->part[k->first];
	uint64_t hsize = dk_layout_size(d->hlayout, k->version);

	if (p->flat)
		dk_add_section(d, "flattened header", 0, KD_FLAT_HDR,
		    KD_FLAT_HDR);
	dk_add_section(d, "header", kd_phys(p, 0), hsize, k->block);
	if (!k->diskdump && k->version >= 1)
		dk_add_section(d, "sub header", kd_phys(p, k->block),
		    dk_layout_size(k->sl, k->version), p->off_bm1 - k->block);
	dk_add_section(d, "bitmap 1", kd_phys(p, p->off_bm1), k->bm_bytes,
	    k->bm_bytes);
	if (p->off_bm2 != p->off_bm1)
		dk_add_section(d, "bitmap 2", kd_phys(p, p->off_bm2),
		    k->bm_bytes, k->bm_bytes);
	dk_add_section(d, "descriptors", kd_phys(p, p->off_desc),
	    p->ndesc * KD_DESC_SIZE, p->ndesc * KD_DESC_SIZE);
	dk_add_section(d, "pages", kd_phys(p, p->off_desc + p->ndesc *
	    KD_DESC_SIZE), p->size > p->off_desc + p->ndesc * KD_DESC_SIZE ?
	    p->size - p->off_desc - p->ndesc * KD_DESC_SIZE : 0,
	    p->size > p->off_desc + p->ndesc * KD_DESC_SIZE ?
	    p->size - p->off_desc - p->ndesc * KD_DESC_SIZE : 0);
	if (!k->diskdump && k->version >= 5 &&
	    k->sub.v[KD_F_SIZE_ERASEINFO] > 0)
		dk_add_section(d, "eraseinfo", kd_phys(p,
		    k->sub.v[KD_F_OFFSET_ERASEINFO]),
		    k->sub.v[KD_F_SIZE_ERASEINFO],
		    k->sub.v[KD_F_SIZE_ERASEINFO]);
}

/* Decide the row from what was found, or ask for --arch. */
static enum dk_status
settle_arch(struct dk_dump *d, const struct dk_arch *row,
    const struct dk_arch *nt_row, uint64_t nt_size,
    const struct dk_arch *vi_row, const char *vi_key, struct dk_err *err)
{
	const char *m = d->hdr.s[KD_F_MACHINE];

	if (row == NULL && nt_row != NULL && nt_row->endian == d->info.endian) {
		row = nt_row;
		d->info.arch_by = DK_BY_HEADER;
		snprintf(d->arch_why, sizeof(d->arch_why), "utsname.machine "
		    "is \"%.65s\"; the notes' NT_PRSTATUS is %ju bytes, as %s "
		    "writes it (%s-endian, %u-byte long)", m, (uintmax_t)nt_size,
		    row->name, row->endian == DK_BE ? "big" : "little",
		    d->hlayout == &dk_kd_hdr64 ? 8 : 4);
	}
	if (row == NULL && vi_row != NULL && vi_row->endian == d->info.endian) {
		row = vi_row;
		d->info.arch_by = DK_BY_HEADER;
		snprintf(d->arch_why, sizeof(d->arch_why), "utsname.machine "
		    "is \"%.65s\"; VMCOREINFO has %.40s, which only %s kernels "
		    "write", m, vi_key, row->name);
	}
	if (row == NULL)
		return dk_err_set(err, DK_EAMBIG, "%s: the header's "
		    "utsname.machine is \"%s\" and neither the notes (%s) nor "
		    "VMCOREINFO name the architecture of this %s-endian dump; "
		    "name it with --arch", d->src.name, m, nt_size ?
		    "an NT_PRSTATUS of a size dumpkit does not know" :
		    "no NT_PRSTATUS", d->info.endian == DK_BE ? "big" :
		    "little");
	d->arch = row;
	d->info.arch = row->name;
	d->info.arch_why = d->arch_why;
	return DK_OK;
}

static void kd_close(struct dk_dump *);

/*
 * Open d: its files (m NULL), or the kdump file a portable file holds
 * (kdump_port.c): one part, its bytes [0, m->hlen) the source header
 * note's at m->hoff, m->size bytes in all.
 */
static enum dk_status
kd_setup(struct dk_dump *d, const struct dk_open_opts *o,
    const struct dk_kd_map *m, struct dk_err *err)
{
	struct dk_kdump *k;
	uint8_t hb[KD_HDR_READ] = { 0 }, *buf = NULL;
	const struct dk_arch *want = NULL, *row = NULL, *nt_row = NULL;
	const struct dk_arch *vi_row = NULL;
	const char *vi_key = NULL;
	uint64_t nt_size = 0;
	static const struct kd_cand c0;
	struct kd_cand c = c0;
	size_t n, np = dk_nfiles(d);
	enum dk_status st;

	if ((k = calloc(1, sizeof(*k))) == NULL)
		return dk_err_set(err, DK_ENOMEM, "%s: out of memory",
		    d->src.name);
	d->priv = k;
	if (np > KD_MAX_PARTS)
		return dk_err_set(err, DK_ELIMIT, "%s: %zu files: a split set "
		    "of more than %u is not read", d->src.name, np,
		    KD_MAX_PARTS);
	if ((k->part = calloc(np, sizeof(*k->part))) == NULL)
		return dk_err_set(err, DK_ENOMEM, "%s: out of memory",
		    d->src.name);
	k->npart = np;
	for (size_t i = 0; i < np; i++) {
		struct kd_part *p = &k->part[i];
		uint8_t sig[KD_FLAT_SIG_LEN] = { 0 };

		p->src = i == 0 ? &d->src : &d->part[i];
		p->name = i == 0 ? d->src.name : d->part[i].name;
		p->index = (uint32_t)i;
		p->size = p->src->size;
		if (m != NULL) {
			if ((p->ext = malloc(sizeof(*p->ext))) == NULL)
				return dk_err_set(err, DK_ENOMEM, "%s: out of "
				    "memory", d->src.name);
			p->ext[0] = (struct kd_ext){ 0, m->hlen, m->hoff };
			p->next = 1;
			p->mapped = 1;
			p->size = m->size;
			k->portable = 1;
			k->pdata = m->data;
			continue;
		}
		n = p->src->size < sizeof(sig) ? (size_t)p->src->size :
		    sizeof(sig);
		if ((st = dk_src_pread(p->src, sig, n, 0, "signature", err)) !=
		    DK_OK)
			return st;
		if (is_flat_sig(sig) && (st = flat_index(p, err)) != DK_OK)
			return st;
	}
	/* The first file decides the layout, byte order and architecture. */
	{
		struct kd_part *p = &k->part[0];

		n = p->size < sizeof(hb) ? (size_t)p->size : sizeof(hb);
		if ((st = kd_read(p, hb, n, 0, "header", err)) != DK_OK)
			return st;
		if (n < KD_SIG_LEN)
			return dk_err_at(err, DK_ETRUNC, p->name, n, "the "
			    "dump ends before its 8-byte signature%s",
			    p->flat ? " (the flattened file's records end at "
			    "0x0 or cover less)" : "");
		if (!is_kdump_sig(hb)) {
			if (p->flat && n >= 4 && dk_elf_magic(hb))
				return dk_err_at(err, DK_EUNSUP, p->name, 0,
				    "a makedumpfile flattened file holding an "
				    "ELF vmcore (makedumpfile -E -F), not a "
				    "kdump-compressed dump: dumpkit reads the "
				    "vmcore once it is rearranged (makedumpfile "
				    "-R OUT < FILE), not in its flattened form");
			return dk_err_at(err, DK_ECORRUPT, p->name, p->flat ?
			    kd_phys(p, 0) : 0, "expected the signature "
			    "\"KDUMP   \" or \"DISKDUMP\"%s, found \"%.8s\"",
			    p->flat ? " at offset 0 of the dump the flattened "
			    "file holds" : "", n >= KD_SIG_LEN ? (char *)hb :
			    "");
		}
		k->diskdump = memcmp(hb, "DISKDUMP", KD_SIG_LEN) == 0;
		if (o != NULL && o->arch != NULL &&
		    (want = dk_arch_by_name(o->arch)) == NULL)
			return dk_err_set(err, DK_EINVAL, "unknown "
			    "architecture '%s'", o->arch);
		if (n < dk_layout_size(&dk_kd_hdr32, 0))
			return dk_err_at(err, DK_ETRUNC, p->name, n, "the "
			    "header takes at least %zu bytes (the 32-bit "
			    "layout), the dump has %zu", dk_layout_size(
			    &dk_kd_hdr32, 0), n);
		if ((st = dk_kd_header(d->src.name, hb, k->diskdump, want, &c,
		    err)) != DK_OK)
			return st;
		d->hlayout = c.l;
		d->hdr = c.h;
		k->e = c.e;
		k->version = (unsigned)c.h.v[KD_F_HEADER_VERSION];
		k->block = c.h.v[KD_F_BLOCK_SIZE];
		d->info.endian = c.e;
		d->info.version = k->version;
		d->page_size = k->block;
		d->page_shift = (unsigned)__builtin_ctzll(k->block);
		d->info.page_size = (uint32_t)k->block;
		d->info.format = "kdump";
	}
	/* The row the options or utsname.machine name, in this byte order. */
	if (want != NULL) {
		row = want;
		d->info.arch_by = DK_BY_OPTION;
		snprintf(d->arch_why, sizeof(d->arch_why), "--arch %s",
		    o->arch);
		if (row->endian != k->e)
			return dk_err_at(err, DK_EINVAL, d->src.name, 8, "--arch "
			    "%s is %s-endian, but the header is %s-endian "
			    "(header_version %u)", o->arch, row->endian ==
			    DK_BE ? "big" : "little", k->e == DK_BE ? "big" :
			    "little", k->version);
	} else if ((row = dk_kd_machine_row(d->hdr.s[KD_F_MACHINE], k->e)) !=
	    NULL) {
		d->info.arch_by = DK_BY_HEADER;
		snprintf(d->arch_why, sizeof(d->arch_why), "utsname.machine "
		    "is \"%s\"", d->hdr.s[KD_F_MACHINE]);
		if (row->endian != k->e)
			return dk_err_at(err, DK_ECORRUPT, d->src.name, 272,
			    "utsname.machine \"%s\" is a %s-endian machine, "
			    "but the header is %s-endian", d->hdr.s[
			    KD_F_MACHINE], row->endian == DK_BE ? "big" :
			    "little", k->e == DK_BE ? "big" : "little");
	}
	k->nsubs = sub_cands(d->hlayout, row, k->subs);
	k->sl = k->subs[0];
	/*
	 * The first file given is the dump's first; the parts, read in
	 * the order given, are sorted by their ranges afterwards.
	 */
	k->first = 0;
	for (size_t i = 0; i < np; i++) {
		struct kd_part *p = &k->part[i];
		uint8_t b[KD_HDR_READ] = { 0 };

		if (i > 0) {
			n = p->size < sizeof(b) ? (size_t)p->size : sizeof(b);
			if ((st = kd_read(p, b, n, 0, "header", err)) != DK_OK)
				return st;
			if (n < dk_layout_size(d->hlayout, k->version) ||
			    memcmp(b, hb, KD_SIG_LEN) != 0 ||
			    memcmp(b + 8, hb + 8, 4) != 0) {
				st = dk_err_at(err, DK_ECORRUPT, p->name, 0,
				    "expected the signature and header_version "
				    "of %s's header (\"%.8s\", version %u), "
				    "found others: the files are not parts of "
				    "one dump", k->part[0].name, (char *)hb,
				    k->version);
				err->file = p->index;
				return st;
			}
		} else
			memcpy(b, hb, sizeof(b));
		if ((st = open_part(d, p, b, err)) != DK_OK)
			return st;
		if (np > 1 && !p->split) {
			st = dk_err_at(err, DK_EINVAL, p->name, k->block,
			    "%zu files were given, but this one is not a part "
			    "of a makedumpfile --split set (its sub header "
			    "has split 0)", np);
			err->file = p->index;
			return st;
		}
	}
	/* Bitmaps: the memory (the first file's), the dumped pages (all). */
	if ((buf = malloc(KD_BITMAP_CHUNK)) == NULL)
		return dk_err_set(err, DK_ENOMEM, "%s: out of memory",
		    d->src.name);
	if ((st = load_ranges(d, &k->part[0], buf, err)) != DK_OK)
		goto out;
	if ((st = dk_bitmap_init(&k->bm2, k->max_mapnr, err)) != DK_OK)
		goto out;
	for (size_t i = 0; i < np; i++)
		if ((st = load_bitmap2(k, &k->part[i], buf, err)) != DK_OK)
			goto out;
	free(buf);
	buf = NULL;
	qsort(k->part, np, sizeof(*k->part), part_cmp);
	for (size_t i = 0; i < np; i++) {
		if (k->part[i].index == 0)
			k->first = i;
		if (i > 0 && k->part[i].start < k->part[i - 1].end) {
			st = dk_err_at(err, DK_ECORRUPT, k->part[i].name,
			    k->block, "this part holds PFNs [%#jx, %#jx), "
			    "which overlap those of %s, [%#jx, %#jx)",
			    (uintmax_t)k->part[i].start,
			    (uintmax_t)k->part[i].end, k->part[i - 1].name,
			    (uintmax_t)k->part[i - 1].start,
			    (uintmax_t)k->part[i - 1].end);
			err->file = k->part[i].index;
			return st;
		}
	}
	if ((st = dk_bitmap_index(&k->bm2, err)) != DK_OK)
		return st;
	for (size_t i = 0; i < np; i++) {
		struct kd_part *p = &k->part[i];

		p->rank0 = dk_bitmap_rank(&k->bm2, p->start);
		p->ndesc = dk_bitmap_rank(&k->bm2, p->end) - p->rank0;
	}
	d->info.npages = k->bm2.count;
	add_attrs(d);
	if ((st = read_notes(d, &k->part[k->first], &nt_row, &nt_size,
	    &vi_row, &vi_key, err)) != DK_OK)
		return st;
	if ((st = settle_arch(d, row, nt_row, nt_size, vi_row, vi_key,
	    err)) != DK_OK)
		return st;
	if ((st = count_present(d, err)) != DK_OK)
		return st;
	if ((k->cbuf = malloc(k->block)) == NULL)
		return dk_err_set(err, DK_ENOMEM, "%s: out of memory",
		    d->src.name);
	k->dc_len = 0;
	add_sections(d);
	/* The sections in file order (the notes were found first). */
	for (size_t i = 1; i < d->nsect; i++)
		for (size_t j = i; j > 0 && d->sect[j - 1].offset >
		    d->sect[j].offset; j--) {
			struct dk_section t = d->sect[j];

			d->sect[j] = d->sect[j - 1];
			d->sect[j - 1] = t;
		}
	DK_TRACE(d, "kdump v%u, %s, %s-endian, block %ju, max_mapnr %#jx, "
	    "%zu file(s), %ju pages dumped, %ju present", k->version,
	    d->hlayout->name, k->e == DK_BE ? "big" : "little",
	    (uintmax_t)k->block, (uintmax_t)k->max_mapnr, np,
	    (uintmax_t)d->info.npages, (uintmax_t)d->info.npages_present);
	return DK_OK;
out:
	free(buf);
	return st;
}

static enum dk_status
kd_open(struct dk_dump *d, const struct dk_open_opts *o, struct dk_err *err)
{
	return kd_setup(d, o, NULL, err);
}

enum dk_status
dk_kd_open_mapped(struct dk_dump *d, const struct dk_kd_map *m,
    struct dk_err *err)
{
	enum dk_status st;

	d->fmt = &dk_fmt_kdump;
	if ((st = kd_setup(d, NULL, m, err)) != DK_OK)
		return st;
	return kd_held(d, err);
}

static void
kd_close(struct dk_dump *d)
{
	struct dk_kdump *k = kd(d);

	if (k == NULL)
		return;
	for (size_t i = 0; i < k->npart; i++)
		free(k->part[i].ext);
	free(k->part);
	dk_bitmap_free(&k->bm2);
	dk_bitmap_free(&k->held);
	if (k->port_free != NULL)
		k->port_free(k->port);
	free(k->cbuf);
	if (k->zs_ready)
		inflateEnd(&k->zs);
	ZSTD_freeDCtx(k->zd);
	free(k);
	d->priv = NULL;
}

/* ---------------------------------------------------------------------- */
/* Reading.                                                                */

/* The part holding PFN pfn, or NULL. */
static struct kd_part *
find_part(const struct dk_kdump *k, uint64_t pfn)
{
	size_t lo = 0, hi = k->npart;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (pfn < k->part[mid].start)
			hi = mid;
		else if (pfn >= k->part[mid].end)
			lo = mid + 1;
		else
			return &k->part[mid];
	}
	return NULL;
}

/* Is PFN pfn in the machine's memory (a run of bitmap 1)? */
static int
in_memory(const struct dk_dump *d, uint64_t pa)
{
	size_t lo = 0, hi = d->navail;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (pa < d->avail[mid].start)
			hi = mid;
		else if (pa >= d->avail[mid].end)
			lo = mid + 1;
		else
			return 1;
	}
	return 0;
}

static enum dk_status
kd_pa_offset(struct dk_dump *d, uint64_t pa, uint64_t *off,
    struct dk_err *err)
{
	struct dk_kdump *k = kd(d);
	uint64_t pfn = pa >> d->page_shift;

	if (pfn >= k->max_mapnr)
		return dk_err_miss(d, err, DK_ENOTDUMPED, "physical address "
		    "%#jx (PFN %#jx) is past the last page frame the dump "
		    "covers (max_mapnr %#jx)", (uintmax_t)pa, (uintmax_t)pfn,
		    (uintmax_t)k->max_mapnr);
	if (dk_bitmap_test(&k->bm2, pfn)) {
		*off = DK_OFF_PAGED;
		/* From a portable file: the page decoded, at its rank. */
		if (k->portable && (k->held_all || dk_bitmap_test(&k->held,
		    pfn)))
			*off = k->pdata + (dk_bitmap_rank(k->held_all ?
			    &k->bm2 : &k->held, pfn) << d->page_shift) +
			    (pa & (d->page_size - 1));
		return DK_OK;
	}
	if (find_part(k, pfn) == NULL) {
		const struct kd_part *p = &k->part[k->first];

		if (k->npart == 1)
			return dk_err_miss(d, err, DK_ENOTDUMPED, "physical "
			    "address %#jx (PFN %#jx) is in another part of "
			    "the split set: %s holds PFNs [%#jx, %#jx) only",
			    (uintmax_t)pa, (uintmax_t)pfn, p->name,
			    (uintmax_t)p->start, (uintmax_t)p->end);
		return dk_err_miss(d, err, DK_ENOTDUMPED, "physical address "
		    "%#jx (PFN %#jx): no file of the split set holds it",
		    (uintmax_t)pa, (uintmax_t)pfn);
	}
	if (!in_memory(d, pa))
		return dk_err_miss(d, err, DK_ENOTDUMPED, "physical address "
		    "%#jx (PFN %#jx) is not in the machine's memory (clear "
		    "in bitmap 1)", (uintmax_t)pa, (uintmax_t)pfn);
	if (k->zero_excluded) {		/* asked: the dump level's, as zeros */
		*off = DK_OFF_ZERO;
		return DK_OK;
	}
	return dk_err_miss(d, err, DK_ENOTDUMPED, "physical address %#jx "
	    "(PFN %#jx) was left out of the dump (set in bitmap 1, clear in "
	    "bitmap 2: dump level %ju)", (uintmax_t)pa, (uintmax_t)pfn,
	    (uintmax_t)k->sub.v[KD_F_DUMP_LEVEL]);
}

/* The page descriptor i of part p (pi its index), through the cache. */
static enum dk_status
read_desc(struct dk_kdump *k, size_t pi, uint64_t i, uint64_t pfn,
    uint8_t *out, struct dk_err *err)
{
	struct kd_part *p = &k->part[pi];
	uint64_t off = p->off_desc + i * KD_DESC_SIZE;
	size_t n;
	enum dk_status st;

	if (k->dc_len > 0 && k->dc_part == pi && off >= k->dc_off &&
	    off + KD_DESC_SIZE <= k->dc_off + k->dc_len) {
		memcpy(out, k->dc + (off - k->dc_off), KD_DESC_SIZE);
		return DK_OK;
	}
	if (off >= p->size || p->size - off < KD_DESC_SIZE) {
		st = dk_err_at(err, DK_ENOTDUMPED, p->name, off, "PFN %#jx: "
		    "its page descriptor (%ju of this file) is past the end of "
		    "the %s at %#jx: the dump is incomplete", (uintmax_t)pfn,
		    (uintmax_t)i, p->flat ? "flattened file's records" :
		    "file", (uintmax_t)p->size);
		err->file = p->index;
		return st;
	}
	n = (p->ndesc - i) * KD_DESC_SIZE < sizeof(k->dc) ?
	    (size_t)((p->ndesc - i) * KD_DESC_SIZE) : sizeof(k->dc);
	if (n > p->size - off)
		n = (size_t)(p->size - off) / KD_DESC_SIZE * KD_DESC_SIZE;
	k->dc_len = 0;
	if ((st = kd_read(p, k->dc, n, off, "page descriptor", err)) != DK_OK)
		return st;
	k->dc_part = pi;
	k->dc_off = off;
	k->dc_len = n;
	memcpy(out, k->dc, KD_DESC_SIZE);
	return DK_OK;
}

/* Decompress the size bytes at k->cbuf into page with codec. */
static enum dk_status
decompress(struct dk_kdump *k, const struct kd_part *p, unsigned codec,
    uint64_t size, uint64_t at, uint64_t pfn, uint8_t *page,
    struct dk_err *err)
{
	const char *name = NULL, *why = NULL;
	uint64_t got = 0;
	char zmsg[96];
	enum dk_status st;

	switch (codec) {
	case KD_DH_ZLIB: {
		int r;

		name = "zlib";
		if (!k->zs_ready) {
			memset(&k->zs, 0, sizeof(k->zs));
			if (inflateInit(&k->zs) != Z_OK)
				return dk_err_set(err, DK_ENOMEM, "zlib: "
				    "inflateInit failed");
			k->zs_ready = 1;
		} else
			inflateReset(&k->zs);
		k->zs.next_in = k->cbuf;
		k->zs.avail_in = (uInt)size;
		k->zs.next_out = page;
		k->zs.avail_out = (uInt)k->block;
		r = inflate(&k->zs, Z_FINISH);
		got = k->block - k->zs.avail_out;
		if (r != Z_STREAM_END) {
			snprintf(zmsg, sizeof(zmsg), "%s (%d)", k->zs.msg !=
			    NULL ? k->zs.msg : r == Z_BUF_ERROR ? "the stream "
			    "is cut or longer than a page" : "error", r);
			why = zmsg;
		}
		break;
	}
	case KD_DH_LZO: {
		lzo_uint out = (lzo_uint)k->block;
		int r;

		name = "lzo";
		if (!k->lzo_ready) {
			if (lzo_init() != LZO_E_OK)
				return dk_err_set(err, DK_EUNSUP, "lzo: "
				    "lzo_init fails: the library is unusable");
			k->lzo_ready = 1;
		}
		r = lzo1x_decompress_safe(k->cbuf, (lzo_uint)size, page, &out,
		    NULL);
		got = out;
		if (r != LZO_E_OK) {
			snprintf(zmsg, sizeof(zmsg), "lzo1x_decompress_safe "
			    "returns %d", r);
			why = zmsg;
		}
		break;
	}
	case KD_DH_SNAPPY: {
		size_t out = 0;

		name = "snappy";
		if (snappy_uncompressed_length((const char *)k->cbuf,
		    (size_t)size, &out) != SNAPPY_OK) {
			why = "no valid length at the start";
			break;
		}
		if (out != k->block) {
			got = out;
			break;
		}
		if (snappy_uncompress((const char *)k->cbuf, (size_t)size,
		    (char *)page, &out) != SNAPPY_OK)
			why = "the data does not decode";
		got = out;
		break;
	}
	case KD_DH_ZSTD: {
		size_t r;

		name = "zstd";
		if (k->zd == NULL && (k->zd = ZSTD_createDCtx()) == NULL)
			return dk_err_set(err, DK_ENOMEM, "zstd: out of memory");
		r = ZSTD_decompressDCtx(k->zd, page, (size_t)k->block,
		    k->cbuf, (size_t)size);
		if (ZSTD_isError(r))
			why = ZSTD_getErrorName(r);
		else
			got = r;
		break;
	}
	default:
		st = dk_err_at(err, DK_ECORRUPT, p->name, at, "PFN %#jx: its "
		    "descriptor's flags %#x name more than one codec",
		    (uintmax_t)pfn, codec);
		err->file = p->index;
		return st;
	}
	if (why == NULL && got != k->block) {
		snprintf(zmsg, sizeof(zmsg), "%ju bytes, not a page of %ju",
		    (uintmax_t)got, (uintmax_t)k->block);
		why = zmsg;
	}
	if (why != NULL) {
		st = dk_err_at(err, DK_ECORRUPT, p->name, kd_phys(p, at), "PFN "
		    "%#jx: its %ju bytes of %s data do not decompress to a "
		    "page: %s", (uintmax_t)pfn, (uintmax_t)size, name, why);
		err->file = p->index;
		return st;
	}
	return DK_OK;
}

static enum dk_status
kd_read_page(struct dk_dump *d, uint64_t pa, void *page, struct dk_err *err)
{
	struct dk_kdump *k = kd(d);
	uint64_t pfn = pa >> d->page_shift, i, off, size;
	struct kd_part *p;
	uint8_t desc[KD_DESC_SIZE] = { 0 };
	uint32_t flags, codec;
	enum dk_status st;

	if (pfn >= k->max_mapnr || !dk_bitmap_test(&k->bm2, pfn) ||
	    (p = find_part(k, pfn)) == NULL) {
		uint64_t o;

		return kd_pa_offset(d, pa, &o, err) == DK_OK ?
		    dk_err_set(err, DK_ENOTDUMPED, "PFN %#jx: no part holds "
		    "it", (uintmax_t)pfn) : err->code;
	}
	i = dk_bitmap_rank(&k->bm2, pfn) - p->rank0;
	if ((st = read_desc(k, (size_t)(p - k->part), i, pfn, desc, err)) !=
	    DK_OK)
		return st;
	off = dec_uint(desc, 8, k->e);
	size = dec_uint(desc + 8, 4, k->e);
	flags = (uint32_t)dec_uint(desc + 12, 4, k->e);
	codec = flags & KD_DH_CODECS;
	if (size == 0) {
		st = dk_err_at(err, DK_ENOTDUMPED, p->name, kd_phys(p,
		    p->off_desc + i * KD_DESC_SIZE), "PFN %#jx: its page "
		    "descriptor is empty (size 0, offset %#jx): the page was "
		    "never written, the dump is incomplete%s", (uintmax_t)pfn,
		    (uintmax_t)off, p->status & KD_DH_INCOMPLETE ? " (the "
		    "header says so)" : "");
		err->file = p->index;
		return st;
	}
	if (size > k->block || (codec == 0 && size != k->block)) {
		st = dk_err_at(err, DK_ECORRUPT, p->name, kd_phys(p,
		    p->off_desc + i * KD_DESC_SIZE + 8), "PFN %#jx: expected "
		    "a page size %s %ju, found %ju (flags %#x)",
		    (uintmax_t)pfn, codec == 0 ? "of exactly" : "of at most",
		    (uintmax_t)k->block, (uintmax_t)size, flags);
		err->file = p->index;
		return st;
	}
	if (off > p->size || size > p->size - off) {
		st = dk_err_at(err, DK_ENOTDUMPED, p->name, kd_phys(p,
		    p->off_desc + i * KD_DESC_SIZE), "PFN %#jx: its %ju bytes "
		    "at offset %#jx are past the end of the %s at %#jx: the "
		    "dump is incomplete", (uintmax_t)pfn, (uintmax_t)size,
		    (uintmax_t)off, p->flat ? "flattened file's records" :
		    "file", (uintmax_t)p->size);
		err->file = p->index;
		return st;
	}
	if (codec == 0)
		return kd_read(p, page, (size_t)size, off, "page data", err);
	if ((st = kd_read(p, k->cbuf, (size_t)size, off, "compressed page",
	    err)) != DK_OK)
		return st;
	return decompress(k, p, codec, size, off, pfn, page, err);
}

/*
 * The next run of bitmap 2 (the held pages where held is given) from
 * it->next_bit on; its PFNs [*b, *e).
 */
static int
bm_run(const struct dk_bitmap *bm, struct dk_run_iter *it, uint64_t *b,
    uint64_t *e)
{
	if ((*b = dk_bitmap_next(bm, it->next_bit, 1)) >= bm->nbits)
		return 0;
	*e = dk_bitmap_next(bm, *b, 0);
	it->next_bit = *e;
	return 1;
}

static int
kd_run_next(const struct dk_dump *d, struct dk_run_iter *it, struct dk_run *r)
{
	const struct dk_kdump *k = kd(d);
	uint64_t b, e;

	if (k->portable)
		return dk_kd_held_next((struct dk_dump *)d, it, r, k->pdata);
	if (!bm_run(&k->bm2, it, &b, &e))
		return 0;
	r->pa = b << d->page_shift;
	r->len = (e - b) << d->page_shift;
	r->offset = DK_OFF_PAGED;
	return 1;
}

/*
 * The held pages: every page of bitmap 2 when every descriptor holds
 * one, else a bitmap from one pass over the descriptors.
 */
static enum dk_status
kd_held(struct dk_dump *d, struct dk_err *err)
{
	struct dk_kdump *k = kd(d);
	uint8_t *buf;
	enum dk_status st;

	if (k->held_built)
		return DK_OK;
	if (d->info.npages_present == d->info.npages) {
		k->held_all = k->held_built = 1;
		return DK_OK;
	}
	if ((st = dk_bitmap_init(&k->held, k->max_mapnr, err)) != DK_OK)
		return st;
	if ((buf = malloc(KD_SCAN_CHUNK)) == NULL)
		return dk_err_set(err, DK_ENOMEM, "%s: out of memory",
		    d->src.name);
	for (size_t i = 0; i < k->npart; i++) {
		struct kd_part *p = &k->part[i];
		uint64_t have, done = 0, pfn = p->start;

		have = p->size < p->off_desc ? 0 : (p->size - p->off_desc) /
		    KD_DESC_SIZE;
		if (have > p->ndesc)
			have = p->ndesc;
		while (done < have) {
			size_t n = have - done < KD_SCAN_CHUNK / KD_DESC_SIZE ?
			    (size_t)(have - done) : KD_SCAN_CHUNK / KD_DESC_SIZE;

			if ((st = kd_read(p, buf, n * KD_DESC_SIZE, p->off_desc +
			    done * KD_DESC_SIZE, "page descriptors", err)) !=
			    DK_OK) {
				free(buf);
				return st;
			}
			for (size_t j = 0; j < n; j++, pfn++) {
				pfn = dk_bitmap_next(&k->bm2, pfn, 1);
				if (desc_held(k, p, buf + j * KD_DESC_SIZE))
					dk_bitmap_set(&k->held, pfn);
			}
			done += n;
		}
	}
	free(buf);
	if ((st = dk_bitmap_index(&k->held, err)) != DK_OK)
		return st;
	k->held_built = 1;
	return DK_OK;
}

int
dk_kd_held_next(struct dk_dump *d, struct dk_run_iter *it, struct dk_run *r,
    uint64_t base)
{
	struct dk_kdump *k = kd(d);
	struct dk_err e2;
	const struct dk_bitmap *bm;
	uint64_t b, e;

	if (kd_held(d, &e2) != DK_OK)
		return 0;
	bm = k->held_all ? &k->bm2 : &k->held;
	if (!bm_run(bm, it, &b, &e))
		return 0;
	r->pa = b << d->page_shift;
	r->len = (e - b) << d->page_shift;
	/* bm_run: no bit of [next_bit, b) is set, every bit of [b, e) is. */
	r->offset = base + (it->rank << d->page_shift);
	it->rank += e - b;
	return 1;
}

DK_EXPORT enum dk_status
dk_zero_excluded(struct dk_dump *d, int on, struct dk_err *err)
{
	if (d->fmt != &dk_fmt_kdump)
		return dk_err_set(err, DK_EUNSUP, "%s: a %s dump leaves no "
		    "page of memory out by a dump level: only kdump-compressed "
		    "files do", d->src.name, d->info.format);
	kd(d)->zero_excluded = on != 0;
	return DK_OK;
}

static enum dk_status
kd_kvtop(struct dk_dump *d, uint64_t va, uint64_t *pa, struct dk_err *err)
{
	return dk_linux_kvtop(d, va, pa, err);
}

const struct dk_format_ops dk_fmt_kdump = {
	.name		= "kdump",
	.desc		= "makedumpfile kdump-compressed dump",
	.probe		= kd_probe,
	.open		= kd_open,
	.close		= kd_close,
	.pa_offset	= kd_pa_offset,
	.kvtop		= kd_kvtop,
	.run_next	= kd_run_next,
	.read_page	= kd_read_page,
	.read_log	= dk_linux_read_log,
	.sets		= 1,
	.portable	= &dk_kd_portable,
	.check		= &dk_kd_check,
};

/* ---------------------------------------------------------------------- */
/* The stored pages as the file holds them (kdump_reenc.c: the way back   */
/* from the portable file re-encodes them).                                */

int
dk_kd_desc_next(struct dk_dump *d, struct dk_kd_stored *sp, struct dk_err *err)
{
	struct dk_kdump *k = kd(d);
	uint8_t desc[KD_DESC_SIZE];

	while (sp->part < k->npart) {
		struct kd_part *p = &k->part[sp->part];
		uint64_t i = sp->next;

		if (i >= p->ndesc) {
			sp->part++;
			sp->next = 0;
			continue;
		}
		sp->next++;
		/* Descriptor i is bitmap 2's i-th set bit from the part's start. */
		sp->pfn = dk_bitmap_next(&k->bm2, i == 0 ? p->start : sp->pfn +
		    1, 1);
		if (read_desc(k, sp->part, i, sp->pfn, desc, err) != DK_OK)
			return -1;
		sp->desc_off = kd_phys(p, p->off_desc + i * KD_DESC_SIZE);
		sp->off = dec_uint(desc, 8, k->e);
		sp->size = dec_uint(desc + 8, 4, k->e);
		sp->codec = (unsigned)dec_uint(desc + 12, 4, k->e) &
		    KD_DH_CODECS;
		sp->block = k->block;
		if (!desc_held(k, p, desc) || (sp->codec & (sp->codec - 1)) != 0)
			sp->codec = UINT32_MAX;		/* not a page: skip */
		return 1;
	}
	return 0;
}

int
dk_kd_stored_next(struct dk_dump *d, struct dk_kd_stored *sp, uint8_t *raw,
    uint8_t *page, struct dk_err *err)
{
	struct dk_kdump *k = kd(d);
	struct kd_part *p;
	int got = dk_kd_desc_next(d, sp, err);

	if (got != 1 || sp->codec == UINT32_MAX)
		return got;
	p = &k->part[sp->part];
	if (kd_read(p, raw, (size_t)sp->size, sp->off, "page data", err) !=
	    DK_OK)
		return -1;
	if (sp->codec == 0) {
		memcpy(page, raw, (size_t)sp->size);
		return 1;
	}
	memcpy(k->cbuf, raw, (size_t)sp->size);
	if (decompress(k, p, sp->codec, sp->size, sp->off, sp->pfn, page,
	    err) != DK_OK)
		return -1;
	return 1;
}

int
dk_kd_part_extent(struct dk_dump *d, size_t pi, uint64_t *meta_end,
    uint64_t *size)
{
	struct dk_kdump *k = kd(d);

	if (pi >= k->npart)
		return 0;
	*meta_end = k->part[pi].off_desc + k->part[pi].ndesc * KD_DESC_SIZE;
	*size = k->part[pi].size;
	return 1;
}

enum dk_status
dk_kd_part_read(struct dk_dump *d, size_t pi, void *buf, size_t len,
    uint64_t off, struct dk_err *err)
{
	return kd_read(&kd(d)->part[pi], buf, len, off, "page area", err);
}

void
dk_kd_facts(const struct dk_dump *d, struct dk_kd_facts *f)
{
	const struct dk_kdump *k = kd(d);
	const struct kd_part *p = &k->part[k->first];
	int v5 = k->version >= 5 && !k->diskdump;

	memset(f, 0, sizeof(*f));
	f->nparts = k->npart;
	f->flat = p->flat;
	f->split = p->split;
	f->portable = k->portable;
	f->pdata = k->pdata;
	if (!k->diskdump && k->version >= 4) {
		f->note_off = k->sub.v[KD_F_OFFSET_NOTE];
		f->note_size = k->sub.v[KD_F_SIZE_NOTE];
	}
	if (v5) {
		f->erase_off = k->sub.v[KD_F_OFFSET_ERASEINFO];
		f->erase_size = k->sub.v[KD_F_SIZE_ERASEINFO];
	}
}

void
dk_kd_set_port(struct dk_dump *d, void *p, void (*fr)(void *))
{
	kd(d)->port = p;
	kd(d)->port_free = fr;
}

void *
dk_kd_port(const struct dk_dump *d)
{
	return d->fmt == &dk_fmt_kdump ? kd(d)->port : NULL;
}

int
dk_kd_flat_map(const struct dk_dump *d, size_t pi, uint64_t off, uint64_t len,
    struct dk_range *out)
{
	const struct kd_part *p;
	size_t lo = 0, hi;

	if (pi >= kd(d)->npart || !kd(d)->part[pi].flat || len == 0)
		return 0;
	p = &kd(d)->part[pi];
	hi = p->next;
	while (lo < hi) {	/* the first extent that ends after off */
		size_t mid = lo + (hi - lo) / 2;

		if (p->ext[mid].lo + p->ext[mid].len <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo >= p->next || p->ext[lo].lo >= off + len) {
		/* No record holds [off, ...): to the next one, or the end. */
		out->start = UINT64_MAX;
		out->end = lo < p->next && p->ext[lo].lo - off < len ?
		    p->ext[lo].lo - off : len;
		return 1;
	}
	if (p->ext[lo].lo > off) {
		out->start = UINT64_MAX;
		out->end = p->ext[lo].lo - off;
		return 1;
	}
	out->start = p->ext[lo].phys + (off - p->ext[lo].lo);
	out->end = p->ext[lo].lo + p->ext[lo].len - off < len ?
	    p->ext[lo].lo + p->ext[lo].len - off : len;
	return 1;
}

static int
ext_phys_cmp(const void *a, const void *b)
{
	const struct kd_ext *x = a, *y = b;

	return x->phys < y->phys ? -1 : x->phys > y->phys;
}

enum dk_status
dk_kd_flat_lost(struct dk_dump *d, dk_kd_range_fn fn, void *arg,
    struct dk_err *err)
{
	const struct kd_part *p = &kd(d)->part[0];
	struct kd_ext *x;
	uint64_t pos = KD_FLAT_HDR;
	size_t j = 0;
	enum dk_status st = DK_OK;

	if (!p->flat || p->next == 0)
		return DK_OK;
	if ((x = malloc(p->next * sizeof(*x))) == NULL)
		return dk_err_set(err, DK_ENOMEM, "out of memory");
	memcpy(x, p->ext, p->next * sizeof(*x));
	qsort(x, p->next, sizeof(*x), ext_phys_cmp);
	/* Each record's bytes in the file less those an extent reads. */
	for (uint64_t i = 0; ; i++) {
		struct dk_kd_frec fr;
		uint64_t at, end;
		int got = dk_kd_flat_next(p->src, p->name, i, &pos, &fr, err);

		if (got <= 0 || fr.end) {
			if (got < 0)
				st = err->code;
			break;
		}
		at = fr.at + KD_FLAT_REC;
		end = at + fr.have;
		while (st == DK_OK && at < end) {
			while (j < p->next && x[j].phys + x[j].len <= at)
				j++;
			if (j < p->next && x[j].phys <= at) {
				at = x[j].phys + x[j].len;
				continue;
			}
			st = fn(arg, at, j < p->next && x[j].phys < end ?
			    x[j].phys : end, err);
			at = j < p->next && x[j].phys < end ? x[j].phys : end;
		}
		if (st != DK_OK || fr.have < fr.size)
			break;
	}
	free(x);
	return st;
}
