/*
 * check_kdump.c -- dumpcheck's rules for makedumpfile's kdump-compressed
 * format (fmt_kdump.c, issue 14), as findings with stable codes
 * (docs/dumpcheck.md, "kdump.*").
 *
 * The reader stops at the first rule a file breaks; this pass goes on,
 * from the bytes, without the reader's state: the flattened form's
 * records (indexed here, each record's place, overlaps, the end marker,
 * a record cut by the end of the file), the header (its layout and byte
 * order decided as the reader decides them, kdump.h, then every field
 * judged), the sub header's offsets and sizes inside the file, both
 * bitmaps streamed side by side (bitmap 2 a subset of bitmap 1, no bit
 * at or past max_mapnr), then every page descriptor, streamed in PFN
 * order beside bitmap 2 (ascending offsets inside the file, no overlap
 * but for the shared zero page, sizes at most a block, size 0 only in an
 * incomplete dump).  In the full pass each stored page is read (1 MiB
 * reads of the page data, which makedumpfile writes in PFN order) and
 * decompressed with its codec's library to exactly one block, hashed for
 * --checksum and compared with the pattern for --pattern, as the
 * engine's content pass does for other formats; the digest is the same
 * as the library's read of the same pages.
 *
 * A file cut short, or an incomplete one (descriptors of size 0, the
 * header's incomplete flag), is reported with the number of pages lost
 * and their PFN ranges (the first four, and how many more).  Memory: the
 * flattened index (a record per write makedumpfile made), the read
 * buffers; the bitmaps and descriptors are streamed, never held.
 *
 * A --split set given together (dk_check_set, dumpcheck --set) is
 * checked part by part, in PFN order (so that the digest is the set's),
 * then as a set: every part of the same dump (the header fields the
 * reader compares, the utsname, split set), PFN ranges disjoint and
 * covering [0, max_mapnr).  A part checked alone says which PFNs it
 * holds (a note); each part's descriptors are checked against its own
 * range.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lzo/lzo1x.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include "bytes.h"
#include "checker.h"
#include "dkelf.h"
#include "kdump.h"
#include "portable.h"

#define	KC_WINDOW	(1u << 20)	/* page data read at once */
#define	KC_LOST_SHOWN	4		/* PFN ranges named in a message */
#define	KC_PROGRESS	(64ull << 20)	/* bytes between progress calls */

static const struct dk_check_code kc_codes[] = {
	{ "kdump.block-size", DK_SEV_ERROR,
	  "block_size is not a power of two from 4 KiB to 64 KiB" },
	{ "kdump.sub-hdr-size", DK_SEV_ERROR,
	  "sub_hdr_size is not a count of blocks that holds the sub header "
	  "and its notes" },
	{ "kdump.bitmap-size", DK_SEV_ERROR,
	  "bitmap_blocks cannot hold two bitmaps of max_mapnr bits" },
	{ "kdump.max-mapnr", DK_SEV_WARNING,
	  "max_mapnr differs from max_mapnr_64 cut to 32 bits (version 6)" },
	{ "kdump.offset-past-eof", DK_SEV_ERROR,
	  "a sub header offset and size (VMCOREINFO, notes, eraseinfo) "
	  "outside the file" },
	{ "kdump.notes", DK_SEV_ERROR,
	  "the ELF notes after the sub header are malformed" },
	{ "kdump.status", DK_SEV_WARNING,
	  "status has unknown bits or names more than one codec" },
	{ "kdump.bitmap2-not-subset", DK_SEV_ERROR,
	  "a page dumped (bitmap 2) that is not in memory (bitmap 1)" },
	{ "kdump.desc-order", DK_SEV_WARNING,
	  "a page's data is not after the previous page's" },
	{ "kdump.desc-overlap", DK_SEV_ERROR,
	  "two pages' data overlap (other than the shared zero page)" },
	{ "kdump.desc-past-eof", DK_SEV_ERROR,
	  "a page descriptor points past the end of the file" },
	{ "kdump.desc-size", DK_SEV_ERROR,
	  "a page's size is larger than a block, or a stored page's is not "
	  "one" },
	{ "kdump.desc-flags", DK_SEV_ERROR,
	  "a descriptor's flags name more than one codec or unknown bits" },
	{ "kdump.desc-empty", DK_SEV_ERROR,
	  "descriptors of size 0 (pages never written) in a dump not "
	  "flagged incomplete" },
	{ "kdump.page-corrupt", DK_SEV_ERROR,
	  "a page does not decompress to exactly one block" },
	{ "kdump.incomplete", DK_SEV_ERROR,
	  "the header's incomplete flag is set: pages were never written" },
	{ "kdump.encoders", DK_SEV_ERROR,
	  "a portable file's encoders note lacks a codec its pages use" },
	{ "kdump.incomplete-flag", DK_SEV_WARNING,
	  "the incomplete flag is set but every page is in the file" },
	{ "kdump.split-range", DK_SEV_ERROR,
	  "a split part's PFN range is empty-inverted or past max_mapnr" },
	{ "kdump.split-part", DK_SEV_NOTE,
	  "a part of a --split set checked alone: the PFNs it holds" },
	{ "kdump.split-mismatch", DK_SEV_ERROR,
	  "a file of a split set is not a part of the same dump" },
	{ "kdump.split-overlap", DK_SEV_ERROR,
	  "two parts of a split set hold the same PFNs" },
	{ "kdump.split-gap", DK_SEV_ERROR,
	  "no part of a split set holds some PFNs below max_mapnr" },
	{ "kdump.flat-header", DK_SEV_ERROR,
	  "the flattened header's type or version is not 1" },
	{ "kdump.flat-record", DK_SEV_ERROR,
	  "a flattened record with a negative offset or a size <= 0" },
	{ "kdump.flat-record-past-eof", DK_SEV_ERROR,
	  "a flattened record's data runs past the end of the file" },
	{ "kdump.flat-no-end", DK_SEV_ERROR,
	  "the flattened file ends without its end marker (-1, -1)" },
	{ "kdump.flat-trailing-bytes", DK_SEV_ERROR,
	  "bytes after the flattened file's end marker" },
	{ "kdump.flat-overlap", DK_SEV_WARNING,
	  "two flattened records write the same bytes of the dump" },
};

/* ---------------------------------------------------------------------- */
/* A file of the dump, flattened or not.                                   */

/* A record of a flattened file: dump bytes [lo, lo + len) at file phys. */
struct kc_rec {
	uint64_t	lo, len, phys, seq;
};

struct kc_file {
	const struct dk_src *src;
	const char	*name;
	int		 first;		/* the checked stream (offsets are its) */
	int		 flat;
	int		 overlap;	/* records overlap: later ones win */
	struct kc_rec	*rec;		/* sorted by lo */
	uint64_t	*maxend;	/* of rec[0..i] */
	size_t		 nrec;
	uint64_t	 size;		/* bytes of the dump the file holds */
	/* The header values, as this file has them. */
	struct dk_hdr	 h, s;
	uint32_t	 status;
	int		 split;
	uint64_t	 start, end;	/* PFNs held */
	uint64_t	 off_bm1, off_bm2, off_desc, half;
	uint64_t	 ndesc;		/* set bits of bitmap 2 in [start, end) */
	uint64_t	 nall;		/* set bits of bitmap 2 */
	uint64_t	 data_end;	/* where the last page's data ends */
};

static int
rec_cmp(const void *a, const void *b)
{
	const struct kc_rec *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int
seq_cmp(const void *a, const void *b)
{
	const struct kc_rec *const *x = a, *const *y = b;

	return (*x)->seq < (*y)->seq ? -1 : (*x)->seq > (*y)->seq;
}

/* The first record that ends after off (maxend ascends). */
static size_t
rec_first(const struct kc_file *f, uint64_t off)
{
	size_t lo = 0, hi = f->nrec;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->maxend[mid] <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The first dump offset at or after off that holds bytes of the file:
 * off itself in a plain file; flattened, where the next record starts
 * (what lies between reads as zeros), UINT64_MAX past the last one.
 */
static uint64_t
kc_next_data(const struct kc_file *f, uint64_t off)
{
	size_t i;

	if (!f->flat)
		return off;
	i = rec_first(f, off);
	return i == f->nrec ? UINT64_MAX : f->rec[i].lo > off ? f->rec[i].lo :
	    off;
}

/*
 * Read len bytes of the dump at off: the file's bytes, or, flattened,
 * the records' (zeros where none wrote, the last record's where several
 * did).  0, or -1 past the end of what the file holds or on an I/O
 * error.
 */
static int
kc_read(const struct kc_file *f, void *buf, size_t len, uint64_t off)
{
	struct dk_err e;
	uint8_t *out = buf;
	const struct kc_rec **hit = NULL;
	size_t nhit = 0, cap = 0;
	int rc = 0;

	if (off > f->size || len > f->size - off)
		return -1;
	if (!f->flat)
		return dk_src_pread(f->src, buf, len, off, "data", &e) ==
		    DK_OK ? 0 : -1;
	memset(buf, 0, len);
	for (size_t i = rec_first(f, off); i < f->nrec && f->rec[i].lo <
	    off + len; i++) {
		const struct kc_rec *r = &f->rec[i];

		if (r->lo + r->len <= off)
			continue;
		if (nhit == cap) {
			size_t nc = cap ? 2 * cap : 64;
			const struct kc_rec **nh = realloc(hit, nc *
			    sizeof(*nh));

			if (nh == NULL) {
				free(hit);
				return -1;
			}
			hit = nh;
			cap = nc;
		}
		hit[nhit++] = r;
	}
	if (f->overlap && nhit > 1)
		qsort(hit, nhit, sizeof(*hit), seq_cmp);
	for (size_t i = 0; i < nhit && rc == 0; i++) {
		const struct kc_rec *r = hit[i];
		uint64_t a = r->lo > off ? r->lo : off;
		uint64_t b = r->lo + r->len < off + len ? r->lo + r->len :
		    off + len;

		if (dk_src_pread(f->src, out + (a - off), (size_t)(b - a),
		    r->phys + (a - r->lo), "data", &e) != DK_OK)
			rc = -1;
	}
	free(hit);
	return rc;
}

/*
 * The file offset of dump byte off (flattened: where a record stores
 * it), DK_CK_NOOFF where none does.
 */
static uint64_t
kc_at(const struct kc_file *f, uint64_t off)
{
	if (!f->flat)
		return off;
	for (size_t i = rec_first(f, off); i < f->nrec && f->rec[i].lo <= off;
	    i++)
		if (off - f->rec[i].lo < f->rec[i].len)
			return f->rec[i].phys + (off - f->rec[i].lo);
	return DK_CK_NOOFF;
}

/* ---------------------------------------------------------------------- */
/* The state of the check.                                                 */

/* Runs of lost PFNs: the first few, and counts. */
struct kc_lost {
	uint64_t	 pages, runs;
	uint64_t	 r[KC_LOST_SHOWN][2];
	uint64_t	 last;		/* end of the last run */
};

struct kc {
	struct dk_ck	*ck;
	struct kc_file	*f;		/* the file being checked */
	const struct dk_layout *hl, *sl;
	enum dk_endian	 e;
	unsigned	 version;
	int		 diskdump;
	uint64_t	 block;
	uint64_t	 mapnr;
	const struct dk_arch *row;
	/* What the descriptor pass finds. */
	struct dk_ck_acc order, overlap, pasteof, dsize, dflags, corrupt,
			 pattern;
	struct kc_lost	 cut;		/* past the end of the file */
	struct kc_lost	 empty;		/* size 0 */
	uint64_t	 present;
	uint64_t	 min_past;	/* lowest offset of a page past EOF */
	uint64_t	 max_in;	/* highest end of a page in the file */
	uint64_t	 desc_cut;	/* first descriptor index past EOF */
	int		 zero_ok;	/* the shared page: -1 unknown, 0, 1;
					 * 2: an ordinary page is there */
	/* The full pass. */
	uint8_t		*win, *page, *pat;
	uint64_t	 wlo, wlen;
	z_stream	 zs;
	int		 zs_ready, lzo_ready;
	ZSTD_DCtx	*zd;
	struct dk_digest g;
	uint64_t	 done, next_progress, total;
};

static void
lost_add(struct kc_lost *l, uint64_t pfn)
{
	if (l->pages > 0 && l->last == pfn) {
		if (l->runs <= KC_LOST_SHOWN)
			l->r[l->runs - 1][1] = pfn + 1;
	} else {
		if (l->runs < KC_LOST_SHOWN) {
			l->r[l->runs][0] = pfn;
			l->r[l->runs][1] = pfn + 1;
		}
		l->runs++;
	}
	l->last = pfn + 1;
	l->pages++;
}

/* "PFNs [a, b) [c, d) and N more runs" into out. */
static void
lost_str(const struct kc_lost *l, char *out, size_t n)
{
	size_t k = 0;

	out[0] = '\0';
	for (uint64_t i = 0; i < l->runs && i < KC_LOST_SHOWN && k < n; i++)
		k += (size_t)snprintf(out + k, n - k, "%s[%#jx, %#jx)",
		    i ? " " : "", (uintmax_t)l->r[i][0],
		    (uintmax_t)l->r[i][1]);
	if (l->runs > KC_LOST_SHOWN && k < n)
		(void)snprintf(out + k, n - k, " and %ju more runs",
		    (uintmax_t)(l->runs - KC_LOST_SHOWN));
}

/*
 * Report a finding of code at offset off of the file being checked; in
 * another part of a set than the first, the file and the offset go into
 * the message (a finding's offset is the first file's).
 */
static void kemitn(struct kc *, const char *, uint64_t, uint64_t,
    const char *, ...) __attribute__((format(printf, 5, 6)));
static void kemit(struct kc *, const char *, uint64_t, const char *, ...)
    __attribute__((format(printf, 4, 5)));

static void
kemitv(struct kc *k, const char *code, uint64_t off, uint64_t count,
    const char *fmt, va_list ap)
{
	char msg[320];

	(void)vsnprintf(msg, sizeof(msg), fmt, ap);
	if (k->f == NULL || k->f->first)
		dk_ck_emitn(k->ck, code, off, count, "%s", msg);
	else if (off == DK_CK_NOOFF)
		dk_ck_emitn(k->ck, code, DK_CK_NOOFF, count, "part %s: %s",
		    k->f->name, msg);
	else
		dk_ck_emitn(k->ck, code, DK_CK_NOOFF, count, "part %s, at "
		    "%#jx: %s", k->f->name, (uintmax_t)off, msg);
}

static void
kemitn(struct kc *k, const char *code, uint64_t off, uint64_t count,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kemitv(k, code, off, count, fmt, ap);
	va_end(ap);
}

static void
kemit(struct kc *k, const char *code, uint64_t off, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kemitv(k, code, off, 1, fmt, ap);
	va_end(ap);
}

/* dk_ck_acc_flush through kemit. */
static void
kflush(struct kc *k, const char *code, struct dk_ck_acc *a, const char *what)
{
	if (a->n == 1)
		kemit(k, code, a->off, "%s", a->msg);
	else if (a->n > 1)
		kemitn(k, code, a->off, a->n, "%s (%ju %s in all)", a->msg,
		    (uintmax_t)a->n, what);
	a->n = 0;
}

/* File offset of field id of the header (sub: of the sub header). */
static uint64_t
field_at(const struct kc *k, int sub, unsigned id)
{
	const struct dk_field *fl = dk_layout_find(sub ? k->sl : k->hl, id,
	    k->version);

	return kc_at(k->f, (sub ? k->block : 0) + (fl != NULL ? fl->off : 0));
}

/* ---------------------------------------------------------------------- */
/* The flattened form.                                                     */

/*
 * Index the records of f, and report what is wrong with them: the
 * header's type and version, a record that is no record, one cut by the
 * end of the file, a missing end marker or bytes after it, overlaps.
 */
static enum dk_status
flat_scan(struct kc *k, struct kc_file *f, struct dk_err *err)
{
	const struct dk_src *s = f->src;
	uint8_t b[KD_FLAT_REC];
	uint64_t pos = KD_FLAT_HDR, n = 0, cap = 0, over = 0, first_over = 0;
	struct dk_err e;

	f->flat = 1;
	if (s->size < KD_FLAT_SIG_LEN + 16 || dk_src_pread(s, b, 16,
	    KD_FLAT_SIG_LEN, "flattened header", &e) != DK_OK) {
		kemit(k, "file.truncated", s->size, "the file ends at %#jx, "
		    "inside the %u-byte flattened header", (uintmax_t)s->size,
		    KD_FLAT_HDR);
		return DK_OK;
	}
	if (dec_be64(b) != 1 || dec_be64(b + 8) != 1)
		kemit(k, "kdump.flat-header", KD_FLAT_SIG_LEN, "flattened "
		    "header: expected type 1 and version 1 (big-endian int64), "
		    "found %#jx and %#jx", (uintmax_t)dec_be64(b),
		    (uintmax_t)dec_be64(b + 8));
	if (s->size < KD_FLAT_HDR) {
		kemit(k, "file.truncated", s->size, "the file ends at %#jx, "
		    "inside the %u-byte flattened header", (uintmax_t)s->size,
		    KD_FLAT_HDR);
		return DK_OK;
	}
	for (;;) {
		uint64_t off, size, have;

		if (s->size - pos < KD_FLAT_REC) {
			if (s->size == pos)
				kemit(k, "kdump.flat-no-end", pos, "the "
				    "file ends at %#jx after %ju records, "
				    "without the end marker (offset and size "
				    "-1): cut at a record's end, or not "
				    "finished", (uintmax_t)pos, (uintmax_t)n);
			else
				kemit(k, "kdump.flat-record-past-eof", pos,
				    "the file ends at %#jx inside the header "
				    "of record %ju: it is cut short",
				    (uintmax_t)s->size, (uintmax_t)n);
			break;
		}
		if (dk_src_pread(s, b, sizeof(b), pos, "record", &e) != DK_OK)
			return dk_err_set(err, e.code, "%s", e.msg);
		off = dec_be64(b);
		size = dec_be64(b + 8);
		if (off == KD_FLAT_END && size == KD_FLAT_END) {
			if (s->size - pos > KD_FLAT_REC)
				kemitn(k, "kdump.flat-trailing-bytes", pos +
				    KD_FLAT_REC, s->size - pos - KD_FLAT_REC,
				    "%ju bytes after the end marker at %#jx",
				    (uintmax_t)(s->size - pos - KD_FLAT_REC),
				    (uintmax_t)pos);
			break;
		}
		if (off > INT64_MAX || size == 0 || size > INT64_MAX ||
		    off > (uint64_t)INT64_MAX - size) {
			kemit(k, "kdump.flat-record", pos, "record %ju: "
			    "expected an offset >= 0 and a size > 0 ending "
			    "below 2^63, or the end marker (-1, -1); found "
			    "offset %#jx, size %#jx: the records after it "
			    "cannot be found", (uintmax_t)n, (uintmax_t)off,
			    (uintmax_t)size);
			break;
		}
		pos += KD_FLAT_REC;
		have = s->size - pos < size ? s->size - pos : size;
		if (n == cap) {
			size_t nc = cap ? 2 * cap : 256;
			struct kc_rec *nr = realloc(f->rec, nc * sizeof(*nr));

			if (nr == NULL)
				return dk_err_set(err, DK_ENOMEM, "%s: "
				    "flattened index of %ju records: out of "
				    "memory", f->name, (uintmax_t)n);
			f->rec = nr;
			cap = nc;
		}
		if (have > 0)
			f->rec[f->nrec++] = (struct kc_rec){ off, have, pos, n };
		n++;
		if (have < size) {
			kemit(k, "kdump.flat-record-past-eof", pos -
			    KD_FLAT_REC, "record %ju: %#jx bytes for dump "
			    "offset %#jx, of which the file holds %#jx: it "
			    "ends at %#jx, %#jx bytes short, with no end "
			    "marker", (uintmax_t)(n - 1), (uintmax_t)size,
			    (uintmax_t)off, (uintmax_t)have,
			    (uintmax_t)s->size, (uintmax_t)(size - have));
			break;
		}
		pos += size;
	}
	if (f->nrec == 0)
		return DK_OK;
	qsort(f->rec, f->nrec, sizeof(*f->rec), rec_cmp);
	if ((f->maxend = malloc(f->nrec * sizeof(*f->maxend))) == NULL)
		return dk_err_set(err, DK_ENOMEM, "%s: out of memory", f->name);
	for (size_t i = 0; i < f->nrec; i++) {
		uint64_t end = f->rec[i].lo + f->rec[i].len;

		if (i > 0 && f->rec[i].lo < f->maxend[i - 1]) {
			if (over++ == 0)
				first_over = i;
		}
		f->maxend[i] = i > 0 && f->maxend[i - 1] > end ?
		    f->maxend[i - 1] : end;
	}
	f->size = f->maxend[f->nrec - 1];
	if (over > 0) {
		const struct kc_rec *r = &f->rec[first_over];

		f->overlap = 1;
		kemitn(k, "kdump.flat-overlap", r->phys - KD_FLAT_REC, over,
		    "record %ju writes dump bytes [%#jx, %#jx), which an "
		    "earlier-sorted record also writes; the record written "
		    "later wins, as with makedumpfile -R (%ju overlaps in "
		    "all)", (uintmax_t)r->seq, (uintmax_t)r->lo,
		    (uintmax_t)(r->lo + r->len), (uintmax_t)over);
	}
	return DK_OK;
}

/* Open f's source: flattened or not, its dump's size. */
static enum dk_status
file_init(struct kc *k, struct kc_file *f, struct dk_err *err)
{
	uint8_t sig[KD_FLAT_SIG_LEN] = { 0 };
	struct dk_err e;
	size_t n = f->src->size < sizeof(sig) ? (size_t)f->src->size :
	    sizeof(sig);
	static const char flat[KD_FLAT_SIG_LEN] = KD_FLAT_SIG;

	f->size = f->src->size;
	if (dk_src_pread(f->src, sig, n, 0, "signature", &e) != DK_OK)
		return dk_err_set(err, e.code, "%s", e.msg);
	if (n == sizeof(sig) && memcmp(sig, flat, sizeof(flat)) == 0) {
		f->size = 0;
		return flat_scan(k, f, err);
	}
	return DK_OK;
}

static void
file_free(struct kc_file *f)
{
	free(f->rec);
	free(f->maxend);
}

/* ---------------------------------------------------------------------- */
/* The header.                                                             */

/* Bytes of s that differ from "KDUMP   " (signature damage). */
static unsigned
sig_dist(const uint8_t *s)
{
	unsigned n = 0;

	for (int i = 0; i < KD_SIG_LEN; i++)
		n += s[i] != (uint8_t)"KDUMP   "[i];
	return n;
}

/*
 * No layout fits: judge the likeliest reading (the one with most
 * plausible fields) field by field.
 */
static void
header_unfit(struct kc *k, const uint8_t *hb)
{
	static const struct dk_layout *const ls[] = { &dk_kd_hdr64,
	    &dk_kd_hdr32 };
	struct dk_hdr best;
	const struct dk_layout *bl = NULL;
	enum dk_endian be = DK_LE;
	int bscore = -1;

	for (size_t li = 0; li < 2; li++)
		for (int ei = 0; ei < 2; ei++) {
			enum dk_endian e = ei ? DK_BE : DK_LE;
			struct dk_hdr h;
			uint32_t v = (uint32_t)dec_uint(hb + 8, 4, e);
			uint64_t bs, sub, bb, nr;
			int score = 0;

			if (v > KD_MAX_VERSION)
				continue;
			dk_layout_decode(ls[li], v, hb, e, &h);
			bs = h.v[KD_F_BLOCK_SIZE];
			sub = h.v[KD_F_SUB_HDR_SIZE];
			bb = h.v[KD_F_BITMAP_BLOCKS];
			nr = h.v[KD_F_MAX_MAPNR];
			score += bs >= 512 && bs <= (1u << 20);
			score += sub >= 1 && sub <= 4096;
			score += bb >= 1 && bb < (1u << 24);
			score += nr >= 1;
			score += h.v[KD_F_NR_CPUS] >= 1 &&
			    h.v[KD_F_NR_CPUS] <= 65536;
			if (score > bscore) {
				bscore = score;
				best = h;
				bl = ls[li];
				be = e;
			}
		}
	if (bl == NULL)
		return;
	k->hl = bl;
	k->e = be;
	k->version = (unsigned)best.v[KD_F_HEADER_VERSION];
	{
		uint64_t bs = best.v[KD_F_BLOCK_SIZE];
		uint64_t sub = best.v[KD_F_SUB_HDR_SIZE];
		uint64_t bb = best.v[KD_F_BITMAP_BLOCKS];
		uint64_t nr = best.v[KD_F_MAX_MAPNR];
		int bs_ok = bs >= KD_MIN_BLOCK && bs <= KD_MAX_BLOCK &&
		    (bs & (bs - 1)) == 0;

		if (!bs_ok)
			kemit(k, "kdump.block-size", field_at(k, 0,
			    KD_F_BLOCK_SIZE), "block_size (read %s, %s-endian): "
			    "expected a power of two from %u to %u, found %ju",
			    bl->name, be == DK_BE ? "big" : "little",
			    KD_MIN_BLOCK, KD_MAX_BLOCK, (uintmax_t)bs);
		if (!k->diskdump && k->version >= 1 && (sub == 0 ||
		    sub > INT32_MAX))
			kemit(k, "kdump.sub-hdr-size", field_at(k, 0,
			    KD_F_SUB_HDR_SIZE), "sub_hdr_size: expected a "
			    "positive count of blocks, found %jd",
			    (intmax_t)(int32_t)sub);
		if (bs_ok && (bb == 0 || nr == 0 || bb * bs * 8 < nr))
			kemit(k, "kdump.bitmap-size", field_at(k, 0,
			    KD_F_BITMAP_BLOCKS), "bitmap_blocks %ju of %ju "
			    "bytes cannot hold max_mapnr %ju bits",
			    (uintmax_t)bb, (uintmax_t)bs, (uintmax_t)nr);
	}
}

/*
 * Is [off, off + size) inside the sub header's blocks past the sub
 * header itself, where makedumpfile and QEMU put VMCOREINFO and the
 * notes?  Inside the file?
 */
static void
sub_region(struct kc *k, const char *what, unsigned oid, uint64_t off,
    uint64_t size, int in_sub)
{
	struct kc_file *f = k->f;
	uint64_t lo = k->block + dk_layout_size(k->sl, k->version);
	uint64_t hi = (1 + f->h.v[KD_F_SUB_HDR_SIZE]) * k->block;

	if (size == 0)
		return;
	if (off > f->size || size > f->size - off) {
		kemit(k, "kdump.offset-past-eof", field_at(k, 1, oid),
		    "%s: %#jx bytes at offset %#jx end past the end of the "
		    "%s at %#jx", what, (uintmax_t)size, (uintmax_t)off,
		    f->flat ? "flattened file's dump" : "file",
		    (uintmax_t)f->size);
		return;
	}
	if (in_sub && (off < lo || off > hi || size > hi - off))
		kemit(k, "kdump.sub-hdr-size", field_at(k, 1, oid), "%s: "
		    "%#jx bytes at offset %#jx are not inside the sub header's "
		    "%ju blocks past the sub header, [%#jx, %#jx): "
		    "sub_hdr_size is too small, or the offset is wrong", what,
		    (uintmax_t)size, (uintmax_t)off,
		    (uintmax_t)f->h.v[KD_F_SUB_HDR_SIZE], (uintmax_t)lo,
		    (uintmax_t)hi);
}

/* The ELF notes must be whole notes (the reader stops at a bad one). */
static void
notes_check(struct kc *k, uint64_t off, uint64_t size)
{
	struct dk_note_iter it;
	struct dk_note nt;
	struct dk_err e;
	uint8_t *buf;
	enum dk_status st;

	if (size == 0 || size > KD_MAX_NOTES ||
	    (buf = malloc((size_t)size)) == NULL)
		return;
	if (kc_read(k->f, buf, (size_t)size, off) != 0) {
		free(buf);
		return;
	}
	dk_note_iter_mem(&it, buf, (size_t)size, k->e, "the notes");
	while ((st = dk_note_next(&it, &nt, &e)) == DK_OK)
		;
	if (st != DK_NOMATCH)
		kemit(k, "kdump.notes", kc_at(k->f, off +
		    dk_ck_err_offset(&e, 0)), "the ELF notes at %#jx (%#jx "
		    "bytes, offset_note and size_note): %s", (uintmax_t)off,
		    (uintmax_t)size, e.msg);
	free(buf);
}

/*
 * The header and sub header of file f (k->f): signature, version,
 * layout; every field; the sub header's regions; the split range; the
 * bitmaps' place.  0 when the bitmaps and descriptors can be walked.
 */
static int
header_check(struct kc *k, struct kc_file *f, int first, struct dk_err *err)
{
	struct dk_ck *c = k->ck;
	uint8_t hb[KD_HDR_READ] = { 0 }, sb[KD_SUB_READ] = { 0 };
	size_t n = f->size < sizeof(hb) ? (size_t)f->size : sizeof(hb);
	struct kd_cand cand;
	struct dk_err e;
	uint64_t bb, sub, mapnr;
	uint32_t vle, vbe;
	enum dk_status st;

	if (n < KD_SIG_LEN || kc_read(f, hb, n, 0) != 0) {
		kemit(k, "file.truncated", f->src->size, "the dump ends at "
		    "%#jx, before its 8-byte signature", (uintmax_t)f->size);
		return -1;
	}
	k->diskdump = memcmp(hb, "DISKDUMP", KD_SIG_LEN) == 0;
	if (!k->diskdump && memcmp(hb, "KDUMP   ", KD_SIG_LEN) != 0) {
		unsigned i = 0;

		if (sig_dist(hb) > 2 || !first) {
			kemit(k, "header.magic", kc_at(f, 0), "expected "
			    "the signature \"KDUMP   \" or \"DISKDUMP\"%s, "
			    "found \"%.8s\"", f->flat ? " at offset 0 of the "
			    "dump the flattened file holds" : "", (char *)hb);
			return -1;
		}
		while (hb[i] == (uint8_t)"KDUMP   "[i])
			i++;
		kemit(k, "header.magic", kc_at(f, i), "signature: expected "
		    "\"KDUMP   \", found \"%.8s\" (byte %u: 0x%02x)", (char *)hb,
		    i, hb[i]);
	}
	if (n < dk_layout_size(&dk_kd_hdr32, 0)) {
		kemit(k, "file.truncated", f->src->size, "the dump ends at "
		    "%#jx, inside its header (at least %zu bytes)",
		    (uintmax_t)f->size, dk_layout_size(&dk_kd_hdr32, 0));
		return -1;
	}
	if (!first) {
		dk_layout_decode(k->hl, k->version, hb, k->e, &f->h);
	} else {
		vle = dec_le32(hb + 8);
		vbe = dec_be32(hb + 8);
		if (vle > KD_MAX_VERSION && vbe > KD_MAX_VERSION) {
			kemit(k, "header.version", kc_at(f, 8),
			    "header_version: expected 0 to %u in either byte "
			    "order, found %#x little-endian, %#x big-endian",
			    KD_MAX_VERSION, vle, vbe);
			return -1;
		}
		if (c->o->arch != NULL &&
		    (k->row = dk_arch_by_name(c->o->arch)) == NULL)
			return dk_err_set(err, DK_EINVAL, "unknown architecture "
			    "'%s'", c->o->arch);
		st = dk_kd_header(f->name, hb, k->diskdump, k->row, &cand, &e);
		if (st == DK_EAMBIG || st == DK_EINVAL) {
			*err = e;
			return (int)st;
		}
		if (st != DK_OK) {
			header_unfit(k, hb);
			return -1;
		}
		k->hl = cand.l;
		k->e = cand.e;
		f->h = cand.h;
		k->version = (unsigned)f->h.v[KD_F_HEADER_VERSION];
		k->block = f->h.v[KD_F_BLOCK_SIZE];
		if (k->row == NULL)
			k->row = dk_kd_machine_row(f->h.s[KD_F_MACHINE], k->e);
	}
	f->status = (uint32_t)f->h.v[KD_F_STATUS];
	if (first && ((f->status & ~(KD_DH_CODECS | KD_DH_INCOMPLETE |
	    KD_DH_EXCL_VMEMMAP)) != 0 || __builtin_popcount(f->status &
	    KD_DH_CODECS) > 1))
		kemit(k, "kdump.status", field_at(k, 0, KD_F_STATUS),
		    "status %#x: expected at most one codec (zlib 0x1, lzo "
		    "0x2, snappy 0x4, zstd 0x20) and the flags incomplete "
		    "0x8, excluded vmemmap 0x10", f->status);
	sub = f->h.v[KD_F_SUB_HDR_SIZE];
	bb = f->h.v[KD_F_BITMAP_BLOCKS];
	mapnr = f->h.v[KD_F_MAX_MAPNR];
	/* The sub header. */
	memset(&f->s, 0, sizeof(f->s));
	if (!k->diskdump && k->version >= 1) {
		uint64_t have = f->size - k->block;

		if (f->size <= k->block) {
			kemit(k, "file.truncated", f->src->size, "the dump "
			    "ends at %#jx, before its sub header at %#jx: "
			    "every page is lost", (uintmax_t)f->size,
			    (uintmax_t)k->block);
			return -1;
		}
		if (kc_read(f, sb, have < sizeof(sb) ? (size_t)have :
		    sizeof(sb), k->block) != 0)
			return -1;
		if (first)
			k->sl = dk_kd_sub_layout(sb, k->hl, k->row, k->version,
			    k->e, k->block, sub);
		dk_layout_decode(k->sl, k->version, sb, k->e, &f->s);
		if (k->version >= 6) {
			uint64_t m64 = f->s.v[KD_F_MAX_MAPNR_64];

			if (first && mapnr != (m64 > UINT32_MAX ? UINT32_MAX :
			    m64))
				kemit(k, "kdump.max-mapnr", field_at(k, 0,
				    KD_F_MAX_MAPNR), "max_mapnr: expected "
				    "max_mapnr_64 %#jx cut to 32 bits, found "
				    "%#jx (max_mapnr_64 is used)",
				    (uintmax_t)m64, (uintmax_t)mapnr);
			mapnr = m64;
		}
	}
	if (first)
		k->mapnr = mapnr;
	/* VMCOREINFO, the notes, the eraseinfo: inside the file. */
	if (first && !k->diskdump) {
		if (k->version >= 3)
			sub_region(k, "VMCOREINFO", KD_F_OFFSET_VMCOREINFO,
			    f->s.v[KD_F_OFFSET_VMCOREINFO],
			    f->s.v[KD_F_SIZE_VMCOREINFO], 1);
		if (k->version >= 4) {
			sub_region(k, "the ELF notes", KD_F_OFFSET_NOTE,
			    f->s.v[KD_F_OFFSET_NOTE], f->s.v[KD_F_SIZE_NOTE],
			    1);
			notes_check(k, f->s.v[KD_F_OFFSET_NOTE],
			    f->s.v[KD_F_SIZE_NOTE]);
		}
		if (k->version >= 5)
			sub_region(k, "the eraseinfo", KD_F_OFFSET_ERASEINFO,
			    f->s.v[KD_F_OFFSET_ERASEINFO],
			    f->s.v[KD_F_SIZE_ERASEINFO], 0);
	}
	/* The PFNs this file holds. */
	f->start = 0;
	f->end = k->mapnr;
	if (!k->diskdump && k->version >= 2 && f->s.v[KD_F_SPLIT] != 0) {
		unsigned sid = k->version >= 6 ? KD_F_START_PFN_64 :
		    KD_F_START_PFN;

		f->split = 1;
		f->start = f->s.v[sid];
		f->end = f->s.v[k->version >= 6 ? KD_F_END_PFN_64 :
		    KD_F_END_PFN];
		if (f->start > f->end || f->end > k->mapnr) {
			kemit(k, "kdump.split-range", field_at(k, 1, sid),
			    "this part of a split set holds PFNs [%#jx, %#jx): "
			    "expected start <= end <= max_mapnr %#jx",
			    (uintmax_t)f->start, (uintmax_t)f->end,
			    (uintmax_t)k->mapnr);
			if (f->end > k->mapnr)
				f->end = k->mapnr;
			if (f->start > f->end)
				f->start = f->end;
		}
	}
	/* The bitmaps: two of half the blocks (an old diskdump: one). */
	f->half = bb * k->block / 2;
	if (f->half * 8 < k->mapnr) {
		if (k->diskdump && bb * k->block * 8 >= k->mapnr)
			f->half = bb * k->block;
		else {
			kemit(k, "kdump.bitmap-size", field_at(k, 0,
			    KD_F_BITMAP_BLOCKS), "bitmap_blocks %ju: two bitmaps "
			    "of %ju blocks of %ju bytes hold %ju bits each, "
			    "max_mapnr is %#jx", (uintmax_t)bb, (uintmax_t)(bb / 2),
			    (uintmax_t)k->block, (uintmax_t)(f->half * 8),
			    (uintmax_t)k->mapnr);
			return -1;
		}
	}
	f->off_bm1 = (1 + sub) * k->block;
	f->off_bm2 = f->half == bb * k->block ? f->off_bm1 : f->off_bm1 +
	    f->half;
	f->off_desc = f->off_bm1 + bb * k->block;
	if (f->off_desc > f->size) {
		kemit(k, "file.truncated", f->src->size, "the dump ends at "
		    "%#jx, inside the bitmaps [%#jx, %#jx) (bitmap_blocks %ju "
		    "of %ju bytes): every page is lost", (uintmax_t)f->size,
		    (uintmax_t)f->off_bm1, (uintmax_t)f->off_desc,
		    (uintmax_t)bb, (uintmax_t)k->block);
		return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------------- */
/* The bitmaps.                                                            */

/*
 * Bitmap 1 and bitmap 2 side by side: bitmap 2 inside bitmap 1, no bit
 * at or past max_mapnr; f->ndesc the set bits of bitmap 2 in f's range.
 */
static int
bitmap_check(struct kc *k, struct kc_file *f, uint8_t *b1, uint8_t *b2)
{
	struct dk_ck_acc notsub = { 0 }, beyond = { 0 };
	uint64_t nb = (k->mapnr + 7) / 8, nsub = 0, nbey = 0;
	size_t n = 0;

	f->ndesc = f->nall = 0;
	for (uint64_t done = 0, a, b; done < f->half; done += n) {
		/*
		 * A flattened file's bitmaps may be mostly holes (records
		 * need not write them): go straight to the next byte either
		 * holds, so the work is the file's, not the header's claim.
		 */
		a = kc_next_data(f, f->off_bm1 + done);
		b = kc_next_data(f, f->off_bm2 + done);
		a = a == UINT64_MAX ? UINT64_MAX : a - f->off_bm1;
		b = b == UINT64_MAX ? UINT64_MAX : b - f->off_bm2;
		if ((done = a < b ? a : b) >= f->half)
			break;
		n = f->half - done < KD_BITMAP_CHUNK ?
		    (size_t)(f->half - done) : KD_BITMAP_CHUNK;
		if (kc_read(f, b1, n, f->off_bm1 + done) != 0 ||
		    kc_read(f, b2, n, f->off_bm2 + done) != 0)
			return -1;
		for (size_t i = 0; i < n; i++) {
			uint64_t byte = done + i, lo = byte * 8;
			uint8_t m = 0xff;

			if (b1[i] == 0 && b2[i] == 0)
				continue;
			/* Bits at or past max_mapnr. */
			if (byte >= nb)
				m = 0;
			else if (byte == nb - 1 && k->mapnr % 8 != 0)
				m = (uint8_t)((1u << (k->mapnr % 8)) - 1);
			if ((b1[i] | b2[i]) & ~m) {
				unsigned x = (unsigned)((b1[i] | b2[i]) & ~m);

				nbey += (uint64_t)__builtin_popcount(x);
				dk_ck_acc_add(&beyond, kc_at(f, (b1[i] & ~m ?
				    f->off_bm1 : f->off_bm2) + byte), "bitmap "
				    "%d has PFN %#jx set, at or past max_mapnr "
				    "%#jx", b1[i] & ~m ? 1 : 2, (uintmax_t)(lo +
				    (uint64_t)__builtin_ctz(x)),
				    (uintmax_t)k->mapnr);
			}
			if (b2[i] & ~b1[i]) {
				unsigned x = (unsigned)(b2[i] & ~b1[i]);

				nsub += (uint64_t)__builtin_popcount(x);
				dk_ck_acc_add(&notsub, kc_at(f, f->off_bm2 +
				    byte), "PFN %#jx is set in bitmap 2 (dumped) "
				    "but clear in bitmap 1 (not in memory)",
				    (uintmax_t)(lo + (uint64_t)__builtin_ctz(x)));
			}
			/* Dumped pages, of this file's range. */
			f->nall += (uint64_t)__builtin_popcount(b2[i] & m);
			for (unsigned bit = 0; bit < 8; bit++)
				if ((b2[i] & m) >> bit & 1 && lo + bit >=
				    f->start && lo + bit < f->end)
					f->ndesc++;
		}
	}
	notsub.n = notsub.n ? nsub : 0;
	beyond.n = beyond.n ? nbey : 0;
	kflush(k, "kdump.bitmap2-not-subset", &notsub, "pages");
	kflush(k, "bitmap.bit-beyond-memory", &beyond, "bits");
	return 0;
}

/* ---------------------------------------------------------------------- */
/* The pages.                                                              */

static const char *
codec_name(unsigned codec)
{
	return codec == KD_DH_ZLIB ? "zlib" : codec == KD_DH_LZO ? "lzo" :
	    codec == KD_DH_SNAPPY ? "snappy" : codec == KD_DH_ZSTD ? "zstd" :
	    "stored";
}

/*
 * Decompress size bytes at in into k->page with codec: NULL, or why it
 * is not exactly one block (into why).
 */
static const char *
unpack(struct kc *k, unsigned codec, const uint8_t *in, uint64_t size,
    char *why, size_t wlen)
{
	uint64_t got = 0;

	switch (codec) {
	case 0:
		memcpy(k->page, in, (size_t)size);
		return NULL;
	case KD_DH_ZLIB: {
		int r;

		if (!k->zs_ready) {
			memset(&k->zs, 0, sizeof(k->zs));
			if (inflateInit(&k->zs) != Z_OK)
				return "zlib: inflateInit failed";
			k->zs_ready = 1;
		} else
			inflateReset(&k->zs);
		k->zs.next_in = (uint8_t *)(uintptr_t)in;
		k->zs.avail_in = (uInt)size;
		k->zs.next_out = k->page;
		k->zs.avail_out = (uInt)k->block;
		r = inflate(&k->zs, Z_FINISH);
		got = k->block - k->zs.avail_out;
		if (r != Z_STREAM_END) {
			snprintf(why, wlen, "zlib: %s (%d)", k->zs.msg != NULL ?
			    k->zs.msg : r == Z_BUF_ERROR ? "the stream is cut "
			    "or longer than a block" : "error", r);
			return why;
		}
		break;
	}
	case KD_DH_LZO: {
		lzo_uint out = (lzo_uint)k->block;
		int r;

		if (!k->lzo_ready) {
			if (lzo_init() != LZO_E_OK)
				return "lzo: lzo_init failed";
			k->lzo_ready = 1;
		}
		r = lzo1x_decompress_safe(in, (lzo_uint)size, k->page, &out,
		    NULL);
		if (r != LZO_E_OK) {
			snprintf(why, wlen, "lzo1x_decompress_safe returns %d",
			    r);
			return why;
		}
		got = out;
		break;
	}
	case KD_DH_SNAPPY: {
		size_t out = 0;

		if (snappy_uncompressed_length((const char *)in, (size_t)size,
		    &out) != SNAPPY_OK)
			return "snappy: no valid length at the start";
		if (out == k->block && snappy_uncompress((const char *)in,
		    (size_t)size, (char *)k->page, &out) != SNAPPY_OK)
			return "snappy: the data does not decode";
		got = out;
		break;
	}
	case KD_DH_ZSTD: {
		size_t r;

		if (k->zd == NULL && (k->zd = ZSTD_createDCtx()) == NULL)
			return "zstd: out of memory";
		r = ZSTD_decompressDCtx(k->zd, k->page, (size_t)k->block, in,
		    (size_t)size);
		if (ZSTD_isError(r)) {
			snprintf(why, wlen, "zstd: %s", ZSTD_getErrorName(r));
			return why;
		}
		got = r;
		break;
	}
	default:
		return "no codec";
	}
	if (got != k->block) {
		snprintf(why, wlen, "%s: %ju bytes, not a block of %ju",
		    codec_name(codec), (uintmax_t)got, (uintmax_t)k->block);
		return why;
	}
	return NULL;
}

/* The bytes [off, off + size) of the dump, through the read window. */
static const uint8_t *
window(struct kc *k, uint64_t off, uint64_t size)
{
	struct kc_file *f = k->f;
	uint64_t len;

	if (off >= k->wlo && off - k->wlo <= k->wlen &&
	    size <= k->wlen - (off - k->wlo))
		return k->win + (off - k->wlo);
	len = f->size - off < KC_WINDOW ? f->size - off : KC_WINDOW;
	k->wlen = 0;
	if (len < size || kc_read(f, k->win, (size_t)len, off) != 0)
		return NULL;
	k->wlo = off;
	k->wlen = len;
	k->ck->res->bytes_read += len;
	return k->win;
}

/* The page data of PFN pfn (descriptor at doff): decompressed, hashed. */
static void
page_data(struct kc *k, uint64_t pfn, uint64_t doff, uint64_t off,
    uint64_t size, unsigned codec, int shared)
{
	struct dk_ck *c = k->ck;
	const uint8_t *in;
	uint64_t pa = pfn * k->block;
	const char *why = NULL;
	char wb[160];

	if (shared && k->zero_ok == 0)
		return;		/* reported once */
	if (shared && k->zero_ok == 2) {
		dk_ck_acc_add(&k->overlap, kc_at(k->f, doff), "PFN %#jx points "
		    "at the page at %#jx, which is not all zeros (an earlier "
		    "PFN's page): only the shared zero page may be shared",
		    (uintmax_t)pfn, (uintmax_t)off);
		k->zero_ok = 0;
		return;
	}
	if (shared && k->zero_ok == 1) {	/* read once */
		memset(k->page, 0, (size_t)k->block);
		goto have;
	}
	if ((in = window(k, off, size)) == NULL) {
		dk_ck_acc_add(&k->corrupt, kc_at(k->f, off), "PFN %#jx: its "
		    "%ju bytes at %#jx cannot be read", (uintmax_t)pfn,
		    (uintmax_t)size, (uintmax_t)off);
		return;
	}
	if ((why = unpack(k, codec, in, size, wb, sizeof(wb))) != NULL) {
		dk_ck_acc_add(&k->corrupt, kc_at(k->f, off), "PFN %#jx (its "
		    "descriptor at %#jx): %ju bytes of %s data at %#jx do not "
		    "decompress to a block: %s", (uintmax_t)pfn,
		    (uintmax_t)kc_at(k->f, doff), (uintmax_t)size,
		    codec_name(codec), (uintmax_t)off, why);
		return;
	}
	if (shared && k->zero_ok < 0) {
		size_t i = 0;

		while (i < k->block && k->page[i] == 0)
			i++;
		/*
		 * Not zeros: the first page stored, in a file that shares no
		 * zero page (none left out, or none kept), is there, an
		 * ordinary page; another PFN pointing at it overlaps it.
		 */
		k->zero_ok = i == k->block ? 1 : 2;
	}
have:
	if (c->o->checksum)
		dk_digest_page(&k->g, pa, k->page);
	if (c->o->pattern) {
		dk_pattern_fill(c->o->seed, pa, k->pat, (size_t)k->block);
		if (memcmp(k->page, k->pat, (size_t)k->block) != 0) {
			size_t i = 0;

			while (k->page[i] == k->pat[i])
				i++;
			dk_ck_acc_add(&k->pattern, DK_CK_NOOFF, "pa %#jx: "
			    "expected %#04x (pattern seed %ju), found %#04x",
			    (uintmax_t)(pa + i), k->pat[i],
			    (uintmax_t)c->o->seed, k->page[i]);
		}
	}
	k->done += k->block;
	if (c->o->progress != NULL && k->done >= k->next_progress) {
		c->o->progress(c->o->arg, k->done, k->total);
		k->next_progress = k->done + KC_PROGRESS;
	}
}

/*
 * One descriptor, of PFN pfn (at dump offset doff): its rules, and its
 * page in the full pass.  prev_off/prev_end: the previous page's data.
 * The shared zero page is the first page of the data, stored: right
 * after the descriptors, which in a part of a split set makedumpfile
 * counts for the whole dump (every part's are as many as bitmap 2's
 * bits, though each holds its own only).
 */
static void
one_desc(struct kc *k, uint64_t pfn, uint64_t doff, const uint8_t *q,
    uint64_t *prev_off, uint64_t *prev_end)
{
	struct kc_file *f = k->f;
	uint64_t off = dec_uint(q, 8, k->e);
	uint64_t size = dec_uint(q + 8, 4, k->e);
	uint32_t flags = (uint32_t)dec_uint(q + 12, 4, k->e);
	unsigned codec = flags & KD_DH_CODECS;
	int shared;

	if (size == 0) {
		lost_add(&k->empty, pfn);
		return;
	}
	if ((flags & ~KD_DH_CODECS) != 0 || __builtin_popcount(codec) > 1) {
		dk_ck_acc_add(&k->dflags, kc_at(f, doff + 12), "PFN %#jx: "
		    "descriptor flags %#x: expected one codec (zlib 0x1, lzo "
		    "0x2, snappy 0x4, zstd 0x20) or none", (uintmax_t)pfn,
		    flags);
		return;
	}
	if (size > k->block || (codec == 0 && size != k->block)) {
		dk_ck_acc_add(&k->dsize, kc_at(f, doff + 8), "PFN %#jx: size "
		    "%ju: expected %s %ju (flags %#x, %s)", (uintmax_t)pfn,
		    (uintmax_t)size, codec ? "at most the block size" :
		    "exactly the block size", (uintmax_t)k->block, flags,
		    codec_name(codec));
		return;
	}
	if (off > f->size || size > f->size - off) {
		lost_add(&k->cut, pfn);
		if (off < k->min_past)
			k->min_past = off;
		dk_ck_acc_add(&k->pasteof, kc_at(f, doff), "PFN %#jx: its "
		    "%ju bytes at offset %#jx end past the end of the %s at "
		    "%#jx", (uintmax_t)pfn, (uintmax_t)size, (uintmax_t)off,
		    f->flat ? "flattened file's dump" : "file",
		    (uintmax_t)f->size);
		return;
	}
	shared = codec == 0 && (off == f->off_desc + f->ndesc * KD_DESC_SIZE ||
	    off == f->off_desc + f->nall * KD_DESC_SIZE);
	if (off + size > k->max_in)
		k->max_in = off + size;
	if (off + size > f->data_end)
		f->data_end = off + size;
	k->present++;
	if (!shared) {
		if (off < *prev_end && off + size > *prev_off)
			dk_ck_acc_add(&k->overlap, kc_at(f, doff), "PFN %#jx: "
			    "its data [%#jx, %#jx) overlaps the previous "
			    "page's [%#jx, %#jx)", (uintmax_t)pfn,
			    (uintmax_t)off, (uintmax_t)(off + size),
			    (uintmax_t)*prev_off, (uintmax_t)*prev_end);
		else if (off < *prev_end)
			dk_ck_acc_add(&k->order, kc_at(f, doff), "PFN %#jx: "
			    "its data at %#jx is before the previous page's "
			    "at %#jx (makedumpfile and QEMU write pages in PFN "
			    "order)", (uintmax_t)pfn, (uintmax_t)off,
			    (uintmax_t)*prev_off);
		*prev_off = off;
		*prev_end = off + size;
	}
	if (!k->ck->o->quick)
		page_data(k, pfn, doff, off, size, codec, shared);
}

/*
 * Every descriptor of f, in PFN order beside bitmap 2 (both streamed):
 * the descriptor rules and, in the full pass, the pages.
 */
static int
desc_pass(struct kc *k, struct kc_file *f, uint8_t *b2, uint8_t *db)
{
	uint64_t i = 0, dlo = 0, dn = 0, prev_off = 0, prev_end = 0;
	uint64_t w0 = f->start / 8, w1 = (f->end + 7) / 8;

	k->desc_cut = UINT64_MAX;
	for (uint64_t done = w0, n, at; done < w1; done += n) {
		/* Past bitmap 2's holes, as bitmap_check: work the file's. */
		if ((at = kc_next_data(f, f->off_bm2 + done)) == UINT64_MAX ||
		    (done = at - f->off_bm2) >= w1)
			break;
		n = w1 - done < KD_BITMAP_CHUNK ? w1 - done : KD_BITMAP_CHUNK;
		if (kc_read(f, b2, (size_t)n, f->off_bm2 + done) != 0)
			return -1;
		for (size_t j = 0; j < n; j++) {
			if (b2[j] == 0)
				continue;
			for (unsigned bit = 0; bit < 8; bit++) {
				uint64_t pfn = (done + j) * 8 + bit;
				uint64_t doff = f->off_desc + i * KD_DESC_SIZE;

				if (!(b2[j] >> bit & 1) || pfn < f->start ||
				    pfn >= f->end)
					continue;
				if (i >= dlo + dn) {	/* refill */
					uint64_t have = f->size > doff ?
					    (f->size - doff) / KD_DESC_SIZE : 0;
					uint64_t want = f->ndesc - i;

					if (want > KD_SCAN_CHUNK / KD_DESC_SIZE)
						want = KD_SCAN_CHUNK /
						    KD_DESC_SIZE;
					if (want > have)
						want = have;
					dlo = i;
					dn = want;
					if (dn == 0 || kc_read(f, db, (size_t)dn *
					    KD_DESC_SIZE, doff) != 0) {
						dn = 0;
						if (k->desc_cut == UINT64_MAX)
							k->desc_cut = i;
						lost_add(&k->cut, pfn);
						if (doff < k->min_past)
							k->min_past = doff;
						i++;
						continue;
					}
				}
				one_desc(k, pfn, doff, db + (i - dlo) *
				    KD_DESC_SIZE, &prev_off, &prev_end);
				i++;
			}
		}
	}
	return 0;
}

/*
 * What the descriptor pass found, as findings: the accumulated rules,
 * then the pages lost (cut short, never written) with their PFNs.
 */
static void
desc_report(struct kc *k, struct kc_file *f)
{
	char ranges[200];
	int cut;

	/*
	 * Pages past the end of the file are a cut file when they come
	 * after every page it holds and the first starts by its end; else
	 * their descriptors are wrong.
	 */
	cut = k->cut.pages > 0 && k->min_past <= f->size &&
	    k->max_in <= k->min_past;
	if (!cut)
		kflush(k, "kdump.desc-past-eof", &k->pasteof, "pages");
	kflush(k, "kdump.desc-flags", &k->dflags, "pages");
	kflush(k, "kdump.desc-size", &k->dsize, "pages");
	kflush(k, "kdump.desc-overlap", &k->overlap, "pages");
	kflush(k, "kdump.desc-order", &k->order, "pages");
	kflush(k, "kdump.page-corrupt", &k->corrupt, "pages");
	kflush(k, "content.pattern-mismatch", &k->pattern, "pages");
	if (cut) {
		lost_str(&k->cut, ranges, sizeof(ranges));
		kemitn(k, "file.truncated", f->src->size, k->cut.pages,
		    "the %s ends at %#jx, inside the %s: %ju of %ju pages "
		    "dumped are whole in it, %ju are lost%s; PFNs lost: %s",
		    f->flat ? "flattened file's dump" : "dump",
		    (uintmax_t)f->size, k->desc_cut != UINT64_MAX ?
		    "page descriptors" : "page data",
		    (uintmax_t)k->present, (uintmax_t)f->ndesc,
		    (uintmax_t)k->cut.pages, f->status & KD_DH_INCOMPLETE ?
		    " (the header's incomplete flag is set)" : "", ranges);
	}
	if (k->empty.pages > 0) {
		lost_str(&k->empty, ranges, sizeof(ranges));
		if (f->status & KD_DH_INCOMPLETE)
			kemitn(k, "kdump.incomplete", field_at(k, 0,
			    KD_F_STATUS), k->empty.pages, "the header's "
			    "incomplete flag is set (makedumpfile stopped, "
			    "out of space): %ju of %ju pages dumped were "
			    "never written (descriptor size 0); PFNs lost: %s",
			    (uintmax_t)k->empty.pages, (uintmax_t)f->ndesc,
			    ranges);
		else
			kemitn(k, "kdump.desc-empty", DK_CK_NOOFF,
			    k->empty.pages, "%ju of %ju page descriptors have "
			    "size 0 (pages never written), but the header's "
			    "incomplete flag is clear; PFNs lost: %s",
			    (uintmax_t)k->empty.pages, (uintmax_t)f->ndesc,
			    ranges);
	} else if ((f->status & KD_DH_INCOMPLETE) && k->cut.pages == 0)
		kemit(k, "kdump.incomplete-flag", field_at(k, 0,
		    KD_F_STATUS), "status %#x has the incomplete flag 0x8, but "
		    "every one of the %ju pages dumped is in the file",
		    f->status, (uintmax_t)f->ndesc);
}

/* ---------------------------------------------------------------------- */
/* The check.                                                              */

/*
 * A kdump file says so at offset 0 (rank 2: "KDUMP   ", "DISKDUMP",
 * the flattened "makedumpfile"); a signature 1 or 2 bytes off with a
 * header_version of 0 to 6 looks like one (rank 1).
 */
static int
kc_probe(const struct dk_src *src, const struct dk_open_opts *o)
{
	static const char flat[KD_FLAT_SIG_LEN] = KD_FLAT_SIG;
	uint8_t b[KD_FLAT_SIG_LEN] = { 0 };
	struct dk_err e;
	size_t n = src->size < sizeof(b) ? (size_t)src->size : sizeof(b);

	(void)o;
	if (n < 12 || dk_src_pread(src, b, n, 0, "signature", &e) != DK_OK)
		return 0;
	if (memcmp(b, "KDUMP   ", KD_SIG_LEN) == 0 ||
	    memcmp(b, "DISKDUMP", KD_SIG_LEN) == 0 ||
	    (n == sizeof(b) && memcmp(b, flat, sizeof(flat)) == 0))
		return 2;
	if (sig_dist(b) <= 2 && (dec_le32(b + 8) <= KD_MAX_VERSION ||
	    dec_be32(b + 8) <= KD_MAX_VERSION))
		return 1;
	return 0;
}

/*
 * The headers of file f (first: the one checked, which decides the
 * layout): 0 when its bitmaps and descriptors can be walked, -1 when
 * not (reported), or a status that ends the check (*err).
 */
static int
file_head(struct kc *k, struct kc_file *f, int first, struct dk_err *err)
{
	struct dk_check_result *res = k->ck->res;
	enum dk_status st;
	int r;

	k->f = f;
	if ((st = file_init(k, f, err)) != DK_OK)
		return (int)st;
	if ((r = header_check(k, f, first, err)) != 0)
		return r;
	if (first) {
		res->version = k->version;
		res->page_size = (uint32_t)k->block;
		if (k->row != NULL)
			snprintf(res->arch, sizeof(res->arch), "%s",
			    k->row->name);
		if (k->ck->o->checksum)
			dk_digest_init(&k->g, (size_t)k->block);
	}
	return 0;
}

/* The bitmaps, descriptors and pages of file f, its headers read. */
static enum dk_status
file_pages(struct kc *k, struct kc_file *f, struct dk_err *err)
{
	struct dk_check_result *res = k->ck->res;
	uint8_t *b1 = malloc(KD_BITMAP_CHUNK), *b2 = malloc(KD_BITMAP_CHUNK);
	uint8_t *db = malloc(KD_SCAN_CHUNK);
	enum dk_status st = DK_OK;

	k->f = f;
	if (b1 == NULL || b2 == NULL || db == NULL) {
		st = dk_err_set(err, DK_ENOMEM, "%s: out of memory", f->name);
		goto out;
	}
	if (bitmap_check(k, f, b1, b2) != 0)
		goto out;
	res->npages += f->ndesc;
	k->total += f->ndesc * k->block;	/* for the progress line */
	memset(&k->cut, 0, sizeof(k->cut));
	memset(&k->empty, 0, sizeof(k->empty));
	k->present = 0;
	k->min_past = UINT64_MAX;
	k->max_in = 0;
	k->zero_ok = -1;
	k->wlen = 0;
	if (desc_pass(k, f, b2, db) != 0)
		goto out;
	res->npages_present += k->present;
	desc_report(k, f);
out:
	free(b1);
	free(b2);
	free(db);
	return st;
}

static int
start_cmp(const void *a, const void *b)
{
	const struct kc_file *const *x = a, *const *y = b;

	if ((*x)->start != (*y)->start)
		return (*x)->start < (*y)->start ? -1 : 1;
	return (*x)->end < (*y)->end ? -1 : (*x)->end > (*y)->end;
}

/*
 * A part of the set (not the first) is a part of the same dump: the
 * header fields the reader compares, the utsname, split set.
 */
static void
same_dump(struct kc *k, struct kc_file *p, const struct kc_file *f0)
{
	static const unsigned same[] = { KD_F_HEADER_VERSION,
	    KD_F_BLOCK_SIZE, KD_F_SUB_HDR_SIZE, KD_F_BITMAP_BLOCKS,
	    KD_F_MAX_MAPNR };
	const struct dk_field *fl;

	k->f = p;
	for (size_t i = 0; i < DK_ARRAY_LEN(same); i++)
		if (p->h.v[same[i]] != f0->h.v[same[i]]) {
			fl = dk_layout_find(k->hl, same[i], k->version);
			kemit(k, "kdump.split-mismatch", fl->off, "%s is %ju "
			    "here, %ju in %s: not a part of the same dump",
			    fl->name, (uintmax_t)p->h.v[same[i]],
			    (uintmax_t)f0->h.v[same[i]], f0->name);
			return;
		}
	for (unsigned i = 0; i < KD_F_NSTR; i++)
		if (strcmp(p->h.s[i], f0->h.s[i]) != 0) {
			fl = dk_layout_find(k->hl, i, k->version);
			kemit(k, "kdump.split-mismatch", fl->off, "%s is \"%s\" "
			    "here, \"%s\" in %s: not a part of the same dump",
			    fl->name, p->h.s[i], f0->h.s[i], f0->name);
			return;
		}
	if (!p->split)
		kemit(k, "kdump.split-mismatch", k->block, "the sub header "
		    "has split 0: not a part of a makedumpfile --split set");
}

/*
 * The set's own rules over its parts (sorted by start): ranges disjoint,
 * covering [0, max_mapnr).
 */
static void
set_ranges(struct kc *k, struct kc_file **v, size_t n)
{
	uint64_t next = 0;

	k->f = NULL;
	for (size_t i = 0; i < n; i++) {
		if (v[i]->start < next && v[i]->end > v[i]->start)
			kemit(k, "kdump.split-overlap", DK_CK_NOOFF, "%s holds "
			    "PFNs [%#jx, %#jx), which overlap those of %s, "
			    "[%#jx, %#jx)", v[i]->name, (uintmax_t)v[i]->start,
			    (uintmax_t)v[i]->end, v[i - 1]->name,
			    (uintmax_t)v[i - 1]->start,
			    (uintmax_t)v[i - 1]->end);
		else if (v[i]->start > next)
			kemit(k, "kdump.split-gap", DK_CK_NOOFF, "no part holds "
			    "PFNs [%#jx, %#jx) (the next part, %s, starts at "
			    "%#jx)", (uintmax_t)next, (uintmax_t)v[i]->start,
			    v[i]->name, (uintmax_t)v[i]->start);
		if (v[i]->end > next)
			next = v[i]->end;
	}
	if (next < k->mapnr)
		kemit(k, "kdump.split-gap", DK_CK_NOOFF, "no part holds PFNs "
		    "[%#jx, %#jx): the parts end at %#jx, max_mapnr is %#jx",
		    (uintmax_t)next, (uintmax_t)k->mapnr, (uintmax_t)next,
		    (uintmax_t)k->mapnr);
}

/*
 * A kdump file in the portable format (docs/portable-elf-minidump.md
 * 10.3): its headers load from the source header note, and its layout
 * rules (kdump.*) are checked on the native file; the content pass reads
 * every page the portable file holds, as of the native file (--checksum:
 * the same digest).
 */
static enum dk_status
kc_pcheck_open(struct dk_ck *c)
{
	struct dk_kd_audit a;
	struct dk_err e;

	dk_ck_result_from_dump(c);
	dk_ck_emit(c, "check.incomplete", DK_CK_NOOFF, "a kdump-compressed "
	    "file in the portable format: its headers load from the source "
	    "header note, and its layout rules (kdump.*) are checked on the "
	    "native file (dumpconv --to native)");
	if (dk_kd_portable_audit(c->d, &a, &e) != DK_OK)
		dk_ck_emit(c, "kdump.encoders", dk_ck_err_offset(&e,
		    DK_CK_NOOFF), "the page descriptors do not read: %s",
		    dk_ck_unprefixed(c, e.msg));
	else if (a.noenc > 0)
		dk_ck_emit(c, "kdump.encoders", DK_CK_NOOFF, "%ju pages are "
		    "stored with a codec the encoders note names no encoder for "
		    "(the first: PFN %#jx, %s): they do not convert back",
		    (uintmax_t)a.noenc, (uintmax_t)a.noenc_pfn,
		    dk_kd_codec_name(a.noenc_codec));
	if (a.cut > 0)
		dk_ck_emit(c, "file.truncated", c->d->src.size, "the file ends "
		    "at %#jx, inside its page data: %ju of its %ju pages are "
		    "missing", (uintmax_t)c->d->src.size, (uintmax_t)a.cut,
		    (uintmax_t)a.stored);
	/* A source that lacked pages: its conversion lacks them too. */
	if (a.stored < c->d->info.npages)
		dk_ck_emit(c, "kdump.incomplete", DK_CK_NOOFF, "the source kdump "
		    "file held %ju of the %ju pages it dumped (cut short, or "
		    "never written); the rest are not in this file either",
		    (uintmax_t)a.stored, (uintmax_t)c->d->info.npages);
	c->res->deep = 1;
	if (!c->o->quick)
		dk_ck_content(c, c->d->src.size, c->o->pattern);
	dk_ck_linux_log(c);
	return DK_OK;
}

static enum dk_status
kc_check(struct dk_ck *c, struct dk_err *err)
{
	struct dk_check_result *res = c->res;
	size_t np = c->nset > 1 ? c->nset : 1, nv = 0;
	struct kc k;
	struct kc_file *f = calloc(np, sizeof(*f)), **v = calloc(np,
	    sizeof(*v));
	struct dk_src *srcs = calloc(np, sizeof(*srcs));
	enum dk_status st = DK_OK;
	int r;

	if (c->d != NULL && dk_is_portable(c->d)) {
		free(f);
		free(v);
		free(srcs);
		return kc_pcheck_open(c);
	}
	memset(&k, 0, sizeof(k));
	k.ck = c;
	res->examined = 1;
	res->format = "kdump";
	c->set_done = 1;
	if (f == NULL || v == NULL || srcs == NULL) {
		st = dk_err_set(err, DK_ENOMEM, "out of memory");
		goto out;
	}
	if (!c->o->quick) {
		k.win = malloc(KC_WINDOW);
		k.page = malloc(KD_MAX_BLOCK);
		k.pat = malloc(KD_MAX_BLOCK);
		if (k.win == NULL || k.page == NULL || k.pat == NULL) {
			st = dk_err_set(err, DK_ENOMEM, "out of memory");
			goto out;
		}
	}
	for (size_t i = 0; i < np; i++)
		srcs[i].fd = -1;
	f[0].src = &c->src;
	f[0].name = c->src.name;
	f[0].first = 1;
	if ((r = file_head(&k, &f[0], 1, err)) > 0) {
		st = (enum dk_status)r;
		goto out;
	}
	if (r == 0)
		v[nv++] = &f[0];
	/* The other parts: their headers first, then in PFN order. */
	for (size_t i = 1; r == 0 && i < np; i++) {
		if ((st = dk_src_open(c->set[i], &srcs[i], err)) != DK_OK)
			goto out;
		f[i].src = &srcs[i];
		f[i].name = c->set[i];
		if ((r = file_head(&k, &f[i], 0, err)) > 0) {
			st = (enum dk_status)r;
			goto out;
		}
		if (r == 0) {
			same_dump(&k, &f[i], &f[0]);
			v[nv++] = &f[i];
		}
		r = 0;
	}
	if (np > 1 && nv > 0 && !f[0].split) {
		k.f = &f[0];
		kemit(&k, "kdump.split-mismatch", k.block, "%zu files were "
		    "given as a set, but this one's sub header has split 0: "
		    "not a part of a makedumpfile --split set", np);
	}
	qsort(v, nv, sizeof(*v), start_cmp);
	for (size_t i = 0; i < nv; i++)
		if ((st = file_pages(&k, v[i], err)) != DK_OK)
			goto out;
	if (np > 1 && nv == np)
		set_ranges(&k, v, nv);
	else if (np == 1 && nv == 1 && f[0].split) {
		k.f = &f[0];
		kemit(&k, "kdump.split-part", field_at(&k, 1, k.version >= 6 ?
		    KD_F_START_PFN_64 : KD_F_START_PFN), "a part of a "
		    "makedumpfile --split set: it holds PFNs [%#jx, %#jx) of "
		    "max_mapnr %#jx; the other parts hold the rest (give them "
		    "all, dumpcheck --set, to check the set)",
		    (uintmax_t)f[0].start, (uintmax_t)f[0].end,
		    (uintmax_t)k.mapnr);
	}
	/* The library's word: the architecture, or why it refuses the file. */
	st = dk_ck_open(c, err);
	if (st == DK_EINVAL && np > 1)	/* files that are not one set */
		st = DK_OK;
	if (st != DK_OK)
		goto out;
	if (c->d == NULL)
		dk_ck_refused(c, NULL);
	else {
		snprintf(res->arch, sizeof(res->arch), "%s",
		    dk_info(c->d)->arch);
		res->deep = !c->o->quick;
		dk_ck_linux_log(c);
	}
	if (c->o->checksum && k.block != 0) {
		dk_digest_final(&k.g, res->checksum);
		res->has_checksum = 1;
	}
out:
	for (size_t i = 0; f != NULL && i < np; i++)
		file_free(&f[i]);
	for (size_t i = 1; srcs != NULL && i < np; i++)
		if (srcs[i].fd >= 0)
			close(srcs[i].fd);
	free(f);
	free(v);
	free(srcs);
	free(k.win);
	free(k.page);
	free(k.pat);
	if (k.zs_ready)
		inflateEnd(&k.zs);
	ZSTD_freeDCtx(k.zd);
	return st;
}

/* What the formats table's kdump row gives dumpcheck (fmt_kdump.c). */
const struct dk_format_check dk_kd_check = {
	.probe		= kc_probe,
	.check		= kc_check,
	.codes		= kc_codes,
	.ncodes		= DK_ARRAY_LEN(kc_codes),
};
