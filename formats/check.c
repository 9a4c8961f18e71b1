/*
 * check.c -- the validation engine (dkcheck.h): walk a dump and report
 * every rule it breaks as a finding, with a stable code, a severity and
 * the byte offset in the file.  docs/dumpcheck.md lists the codes.
 *
 * The work is done in two phases:
 *
 *  1. Raw: the bytes of the file are examined with the layout tables
 *     and the minidump families, but without dk_open(), because the
 *     library refuses outright some damage (a flipped magic byte, an
 *     unknown version, a truncated bitmap) that the validator must
 *     still describe precisely.  Header, sizes, sections, dump_avail,
 *     bitmap, file size, msgbuf; for the portable format also the ELF
 *     header, the notes and the program headers.
 *  2. Deep, when dk_open() accepted the file: the page tables (through
 *     the family's kvtop where it exposes one page at a time, and where
 *     tables live in the dump's pages through the family's own bounded
 *     pass, whose findings are judged here),
 *     the page data (read in physical order in 1 MiB chunks), the
 *     fixture pattern, the digest, and the portable format's segments.
 *
 * When dk_open() refuses a file and the raw phase found nothing to say,
 * the library's message becomes a finding (open.refused), so that a
 * file the library cannot read is never reported clean.
 *
 * Every count taken from the file is checked against the file's size
 * before it is used to allocate; every walk is bounded (depth, visited
 * tables, steps).  No global state: everything hangs off struct ck.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bytes.h"
#include "compress.h"
#include "dkcheck.h"
#include "portable.h"
#include "dkelf.h"
#include "private.h"
#include "sparc64.h"

#define	CK_CHUNK	(1u << 20)	/* page data read per pread */
#define	CK_HDR_MAX	(1u << DK_MAX_PAGE_SHIFT)
#define	CK_MAGIC_FUZZ	2		/* magic bytes that may differ */
#define	CK_DELTA_MAX	16		/* pages tried by the size search */
#define	CK_DELTA_BITMAP	(16u << 20)	/* no size search past this bitmap */
#define	CK_MSGBUF_MAX	(4u << 20)	/* msgbuf bytes examined */
#define	CK_WALK_MAX	(64ull << 20)	/* kvtop steps of the generic walk */
#define	CK_LOST_SHOWN	4		/* lost physical ranges named */

/* ELF portable format (docs/portable-elf-minidump.md). */
#define	EM_CLASS	ELFCLASS64
#define	EM_EHDR		dk_elf_size(DK_ELF_EHDR, EM_CLASS)
#define	EM_PHDR		dk_elf_size(DK_ELF_PHDR, EM_CLASS)
#define	EM_INFO		120
#define	EM_NT_BASE	0x444b0000u
#define	EM_NT_MAX	8

/* ---------------------------------------------------------------------- */
/* The codes.                                                              */

static const struct dk_check_code codes[] = {
	{ "file.truncated", DK_SEV_ERROR,
	  "the file ends before the data its header declares" },
	{ "file.trailing-bytes", DK_SEV_ERROR,
	  "bytes after the end the header implies" },
	{ "header.magic", DK_SEV_ERROR,
	  "the magic differs from the family's" },
	{ "header.version", DK_SEV_ERROR,
	  "a version the family does not have" },
	{ "header.field-range", DK_SEV_ERROR,
	  "a header field outside its legal range" },
	{ "header.size-too-large", DK_SEV_ERROR,
	  "a section size larger than the file can hold" },
	{ "header.size-too-small", DK_SEV_ERROR,
	  "a section size smaller than the section the file holds" },
	{ "header.padding-nonzero", DK_SEV_WARNING,
	  "a padding byte of the header struct is not zero" },
	{ "header.tail-nonzero", DK_SEV_WARNING,
	  "the header page is not zero after the header struct" },
	{ "section.padding-nonzero", DK_SEV_NOTE,
	  "bytes between a section's size and its page end are not zero" },
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
	{ "bitmap.too-small", DK_SEV_ERROR,
	  "the bitmap has fewer bits than dump_avail numbers" },
	{ "bitmap.bit-beyond-memory", DK_SEV_ERROR,
	  "a bit set past the pages dump_avail numbers" },
	{ "bitmap.popcount-mismatch", DK_SEV_ERROR,
	  "the page count stated elsewhere differs from the bitmap's" },
	{ "pmap.pa-past-memory", DK_SEV_ERROR,
	  "a valid page-table entry maps a PA past physical memory" },
	{ "pmap.pa-in-hole", DK_SEV_NOTE,
	  "a valid entry maps a PA between memory ranges (device memory)" },
	{ "pmap.page-not-dumped", DK_SEV_WARNING,
	  "a valid entry maps a page of memory that is not in the dump" },
	{ "pmap.pt-page-missing", DK_SEV_ERROR,
	  "a page-table page the walk needs is not in the dump" },
	{ "pmap.large-misaligned", DK_SEV_ERROR,
	  "a large-page entry whose frame is not aligned to its size" },
	{ "pmap.loop", DK_SEV_ERROR,
	  "a page table that maps itself or refers to an ancestor" },
	{ "pmap.walk-limit", DK_SEV_NOTE,
	  "the page-table walk stopped at its step limit" },
	{ "content.pattern-mismatch", DK_SEV_ERROR,
	  "a page differs from the fixture pattern (--pattern)" },
	{ "content.read-error", DK_SEV_ERROR,
	  "page data could not be read" },
	{ "msgbuf.empty", DK_SEV_WARNING,
	  "msgbufsize is 0: the kernel always dumps its message buffer" },
	{ "msgbuf.not-text", DK_SEV_WARNING,
	  "the message buffer holds control bytes, not text" },
	{ "elf.header", DK_SEV_ERROR,
	  "an ELF header field differs from the portable format's" },
	{ "elf.note", DK_SEV_ERROR,
	  "a note is malformed, duplicated or missing" },
	{ "elf.note-size", DK_SEV_ERROR,
	  "a note's size differs from the source header's size field" },
	{ "elf.note-mismatch", DK_SEV_ERROR,
	  "the info note disagrees with the segments or the header" },
	{ "elf.load-past-eof", DK_SEV_ERROR,
	  "a PT_LOAD segment extends past the end of the file" },
	{ "elf.misaligned", DK_SEV_ERROR,
	  "page data or a segment not at a page-aligned offset" },
	{ "elf.segment-mismatch", DK_SEV_ERROR,
	  "a physical PT_LOAD differs from the run of stored pages" },
	{ "elf.virt-mismatch", DK_SEV_ERROR,
	  "a virtual PT_LOAD differs from the page tables" },
	{ "compress.truncated", DK_SEV_ERROR,
	  "the compressed stream ends inside a member or frame" },
	{ "compress.corrupt", DK_SEV_ERROR,
	  "a compressed block does not decode, or fails its checksum" },
	{ "compress.trailing-bytes", DK_SEV_ERROR,
	  "bytes after the compressed stream: no member, no zero padding" },
	{ "compress.padding", DK_SEV_NOTE,
	  "zero bytes after the compressed stream (the device's last block)" },
	{ "kdh.parity", DK_SEV_ERROR,
	  "a kerneldumpheader's 128 words do not XOR to 0" },
	{ "kdh.leader-trailer-differ", DK_SEV_ERROR,
	  "the leader is not the trailer's copy (or is missing)" },
	{ "kdh.cleared", DK_SEV_WARNING,
	  "the trailer says \"Cleared Kernel Dump\": already saved" },
	{ "kdh.truncated", DK_SEV_ERROR,
	  "the device image ends before the dump its header declares" },
	{ "kdh.length-beyond-extent", DK_SEV_ERROR,
	  "dumplength past dumpextent (v3+) or past the trailer" },
	{ "kdh.field-range", DK_SEV_ERROR,
	  "a kerneldumpheader field outside its legal values" },
	{ "kdh.key-blob", DK_SEV_ERROR,
	  "the key blob of an encrypted dump is malformed" },
	{ "kdh.encrypted", DK_SEV_WARNING,
	  "an encrypted dump: its stream cannot be checked" },
	{ "kdh.text-not-tar", DK_SEV_ERROR,
	  "a text dump whose first block is not a ustar header" },
	{ "elfcore.ident", DK_SEV_ERROR,
	  "a full ELF core's identity differs from dumpsys_generic's" },
	{ "elfcore.phdr-past-eof", DK_SEV_ERROR,
	  "a full ELF core's program headers extend past the file" },
	{ "elfcore.load-past-eof", DK_SEV_ERROR,
	  "a full ELF core's PT_LOAD extends past the end of the file" },
	{ "elfcore.overlap", DK_SEV_ERROR,
	  "two PT_LOADs overlap in the file or in memory" },
	{ "elfcore.order", DK_SEV_WARNING,
	  "PT_LOADs not in ascending address order" },
	{ "elfcore.misaligned", DK_SEV_ERROR,
	  "a PT_LOAD's offset, address or size is not page-aligned" },
	{ "elfcore.layout", DK_SEV_WARNING,
	  "segments not where the kernel puts them, or a non-zero gap" },
	{ "elfcore.filesz", DK_SEV_ERROR,
	  "a PT_LOAD's p_filesz differs from its p_memsz" },
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
	{ "open.refused", DK_SEV_ERROR,
	  "the library refused the file for a reason no other code names" },
	{ "check.incomplete", DK_SEV_NOTE,
	  "page tables and page data were not checked, and why" },
};

DK_EXPORT const struct dk_check_code *
dk_check_code_at(size_t i)
{
	return i < DK_ARRAY_LEN(codes) ? &codes[i] : NULL;
}

DK_EXPORT const char *
dk_severity_name(enum dk_severity s)
{
	return s == DK_SEV_ERROR ? "error" : s == DK_SEV_WARNING ? "warning" :
	    "note";
}

/* ---------------------------------------------------------------------- */
/* The digest (docs/dumpcheck.md): XXH64-style page hash, two lanes.       */

#define	P1	0x9e3779b185ebca87ull
#define	P2	0xc2b2ae3d27d4eb4full
#define	P3	0x165667b19e3779f9ull
#define	P4	0x85ebca77c2b2ae63ull
#define	P5	0x27d4eb2f165667c5ull

static inline uint64_t
rotl(uint64_t x, unsigned r)
{
	return (x << r) | (x >> (64 - r));
}

static inline uint64_t
xround(uint64_t v, uint64_t w)
{
	return rotl(v + w * P2, 31) * P1;
}

static uint64_t
avalanche(uint64_t h)
{
	h ^= h >> 33;
	h *= P2;
	h ^= h >> 29;
	h *= P3;
	return h ^ (h >> 32);
}

/* XXH64 with seed 0 of n bytes, n a multiple of 32 (no tail). */
static uint64_t
page_hash(const uint8_t *p, size_t n)
{
	uint64_t v1 = P1 + P2, v2 = P2, v3 = 0, v4 = 0 - P1, h;

	for (size_t i = 0; i < n; i += 32) {
		v1 = xround(v1, dec_le64(p + i));
		v2 = xround(v2, dec_le64(p + i + 8));
		v3 = xround(v3, dec_le64(p + i + 16));
		v4 = xround(v4, dec_le64(p + i + 24));
	}
	h = rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18);
	h = (h ^ xround(0, v1)) * P1 + P4;
	h = (h ^ xround(0, v2)) * P1 + P4;
	h = (h ^ xround(0, v3)) * P1 + P4;
	h = (h ^ xround(0, v4)) * P1 + P4;
	h += n;
	return avalanche(h);
}

static int
is_zero(const uint8_t *p, size_t n)
{
	uint64_t acc = 0;

	/* Whole 64-byte blocks, OR-ed, so the loop vectorises. */
	for (size_t i = 0; i < n; i += 64) {
		uint64_t w[8];

		memcpy(w, p + i, 64);
		acc |= w[0] | w[1] | w[2] | w[3] | w[4] | w[5] | w[6] | w[7];
		if (acc != 0)
			return 0;
	}
	return 1;
}

DK_EXPORT void
dk_digest_init(struct dk_digest *g, size_t page)
{
	uint8_t *z = calloc(1, page);

	g->a = P5;
	g->b = P4;
	g->n = 0;
	g->page = page;
	/* page is at most 64 KiB; without memory, hash the zeros in place. */
	if (z != NULL) {
		g->zero_hash = page_hash(z, page);
		free(z);
	} else {
		uint64_t v1 = P1 + P2, v2 = P2, v3 = 0, v4 = 0 - P1, h;

		for (size_t i = 0; i < page; i += 32) {
			v1 = xround(v1, 0);
			v2 = xround(v2, 0);
			v3 = xround(v3, 0);
			v4 = xround(v4, 0);
		}
		h = rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18);
		h = (h ^ xround(0, v1)) * P1 + P4;
		h = (h ^ xround(0, v2)) * P1 + P4;
		h = (h ^ xround(0, v3)) * P1 + P4;
		h = (h ^ xround(0, v4)) * P1 + P4;
		g->zero_hash = avalanche(h + page);
	}
}

DK_EXPORT void
dk_digest_page(struct dk_digest *g, uint64_t pa, const uint8_t *p)
{
	uint64_t x = is_zero(p, g->page) ? g->zero_hash : page_hash(p,
	    g->page);

	g->a = rotl((g->a ^ x ^ (pa * P3)) * P1, 29);
	g->b = (g->b + x + rotl(pa, 17)) * P2;
	g->b ^= g->b >> 31;
	g->n++;
}

DK_EXPORT void
dk_digest_final(const struct dk_digest *g, uint64_t out[2])
{
	out[0] = avalanche(g->a ^ g->n);
	out[1] = avalanche(g->b + g->n * P5);
}

/* ---------------------------------------------------------------------- */
/* State.                                                                  */

/* Findings of one code, summarised: the first one's place and words. */
struct acc {
	uint64_t	n;
	uint64_t	off;
	char		msg[320];
};

/* A set of physical page addresses (page-table pages), open addressing. */
struct paset {
	uint64_t	*slot;		/* 0: empty; values are stored + 1 */
	size_t		 cap, n;
};

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

/* The portable file's ELF view. */
struct emv {
	int		 ok;
	enum dk_endian	 e;
	uint64_t	 phoff, phnum, noff, nsize;
	uint64_t	 nt_off[EM_NT_MAX], nt_size[EM_NT_MAX];
	int		 nt_seen[EM_NT_MAX];
	uint8_t		 info[EM_INFO];
	uint64_t	 info_off;
	uint64_t	 data_off, npages, nstored, nphys;
	uint32_t	 flags;
};

struct ck {
	const struct dk_check_opts *o;
	struct dk_check_result	*res;
	struct dk_src		 src;
	int			 fd;
	struct dk_dump		*d;
	struct dk_err		 openerr;
	struct mdv		 v;
	struct emv		 em;
	int			 portable;
	struct paset		 pt;
	struct dk_unz_check	 unz;		/* a compressed file's stream */
	struct dk_kdh_check	 kdh;		/* a kerneldumpheader container */
	uint64_t		 off_shift;	/* the stream's offset in the file */
	uint64_t		 delivered;
	uint64_t		 progress_total, progress_done, progress_next;
};

static const struct dk_check_code *
code_of(const char *code)
{
	for (size_t i = 0; i < DK_ARRAY_LEN(codes); i++)
		if (strcmp(codes[i].code, code) == 0)
			return &codes[i];
	return NULL;
}

/* Report a finding; off UINT64_MAX: none.  The table gives the severity. */
static void
emitv(struct ck *c, const char *code, uint64_t off, uint64_t count,
    const char *fmt, va_list ap)
{
	const struct dk_check_code *k = code_of(code);
	struct dk_finding f;

	f.code = code;
	f.severity = k != NULL ? k->severity : DK_SEV_ERROR;
	f.has_offset = off != UINT64_MAX;
	f.offset = f.has_offset ? off + c->off_shift : 0;
	f.count = count ? count : 1;
	(void)vsnprintf(f.msg, sizeof(f.msg), fmt, ap);
	if (f.severity == DK_SEV_ERROR)
		c->res->nerrors++;
	else if (f.severity == DK_SEV_WARNING)
		c->res->nwarnings++;
	else
		c->res->nnotes++;
	if (c->o->max_findings != 0 && c->delivered >= c->o->max_findings) {
		c->res->nsuppressed++;
		return;
	}
	c->delivered++;
	if (c->o->finding != NULL)
		c->o->finding(c->o->arg, &f);
}

static void emit(struct ck *, const char *, uint64_t, uint64_t, const char *,
    ...) __attribute__((format(printf, 5, 6)));

static void
emit(struct ck *c, const char *code, uint64_t off, uint64_t count,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emitv(c, code, off, count, fmt, ap);
	va_end(ap);
}

static void acc_add(struct acc *, uint64_t, const char *, ...)
    __attribute__((format(printf, 3, 4)));

static void
acc_add(struct acc *a, uint64_t off, const char *fmt, ...)
{
	va_list ap;

	if (a->n++ > 0)
		return;
	a->off = off;
	va_start(ap, fmt);
	(void)vsnprintf(a->msg, sizeof(a->msg), fmt, ap);
	va_end(ap);
}

static void
acc_flush(struct ck *c, const char *code, struct acc *a, const char *what)
{
	if (a->n == 0)
		return;
	if (a->n == 1)
		emit(c, code, a->off, 1, "%s", a->msg);
	else
		emit(c, code, a->off, a->n, "%s (%ju %s in all)", a->msg,
		    (uintmax_t)a->n, what);
	a->n = 0;
}

static uint64_t
rnd(uint64_t x, uint64_t page)
{
	return (x + page - 1) & ~(page - 1);
}

/* Read from the file; 0 on success (messages are the caller's). */
static int
rd(struct ck *c, void *buf, size_t len, uint64_t off)
{
	struct dk_err e;

	return dk_src_pread(&c->src, buf, len, off, "data", &e) == DK_OK ?
	    0 : -1;
}

static int
paset_has(const struct paset *s, uint64_t pa)
{
	if (s->cap == 0)
		return 0;
	for (size_t i = (size_t)((pa >> 12) * P1 >> 7) & (s->cap - 1);;
	    i = (i + 1) & (s->cap - 1)) {
		if (s->slot[i] == 0)
			return 0;
		if (s->slot[i] == pa + 1)
			return 1;
	}
}

/* Add pa; 1 if it was new, 0 if present, -1 out of memory. */
static int
paset_add(struct paset *s, uint64_t pa)
{
	if (paset_has(s, pa))
		return 0;
	if (2 * (s->n + 1) > s->cap) {
		struct paset t = { NULL, s->cap ? 2 * s->cap : 256, 0 };

		t.slot = calloc(t.cap, sizeof(*t.slot));
		if (t.slot == NULL)
			return -1;
		for (size_t i = 0; i < s->cap; i++)
			if (s->slot[i] != 0)
				(void)paset_add(&t, s->slot[i] - 1);
		free(s->slot);
		*s = t;
	}
	for (size_t i = (size_t)((pa >> 12) * P1 >> 7) & (s->cap - 1);;
	    i = (i + 1) & (s->cap - 1))
		if (s->slot[i] == 0) {
			s->slot[i] = pa + 1;
			s->n++;
			return 1;
		}
}

/* Where the library's error is, or fallback if it names no place. */
static uint64_t
err_offset(const struct dk_err *e, uint64_t fallback)
{
	return e->offset == DK_ERR_NOOFFSET ? fallback : e->offset;
}

/* The message without its "name: " prefix, for findings. */
static const char *
unprefixed(const struct ck *c, const char *msg)
{
	size_t n = strlen(c->src.name);

	if (strncmp(msg, c->src.name, n) == 0 && msg[n] == ':' &&
	    msg[n + 1] == ' ')
		return msg + n + 2;
	return msg;
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
avail_parse(struct ck *c, struct mdv *v, uint64_t off, uint64_t size,
    int quiet)
{
	uint64_t nbytes = size < DK_MAX_AVAIL * 16 ? size : DK_MAX_AVAIL * 16;
	uint8_t *buf;
	size_t n, cap = (size_t)(nbytes / 16);
	int ok = 1, term = 0;
	struct acc mis = { 0, 0, "" };

	free(v->avail);
	free(v->avail_bit);
	v->avail = calloc(cap + 1, sizeof(*v->avail));
	v->avail_bit = calloc(cap + 2, sizeof(*v->avail_bit));
	buf = malloc(nbytes ? (size_t)nbytes : 1);
	v->navail = 0;
	if (v->avail == NULL || v->avail_bit == NULL || buf == NULL ||
	    rd(c, buf, (size_t)nbytes, off) != 0) {
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
				emit(c, "dump_avail.empty-range", po, 1,
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
				emit(c, "dump_avail.order", po, 1,
				    "dump_avail[%zu]: expected a start at or "
				    "above the page after the end %#jx of "
				    "range %zu, found [%#jx, %#jx)", n,
				    (uintmax_t)v->avail[n - 1].end, n - 1,
				    (uintmax_t)s, (uintmax_t)e);
			ok = 0;
			break;
		}
		if (((s | e) & (v->page - 1)) != 0)
			acc_add(&mis, po, "dump_avail[%zu]: expected page-"
			    "aligned bounds, found [%#jx, %#jx)", n,
			    (uintmax_t)s, (uintmax_t)e);
		v->avail[n].start = s;
		v->avail[n].end = e;
	}
	v->navail = n;
	if (ok && !term) {
		if (!quiet)
			emit(c, "dump_avail.unterminated", off, 1, "dump_avail "
			    "(%#jx bytes): expected a pair with end 0 among "
			    "its %zu pairs, found none", (uintmax_t)size, cap);
		ok = 0;
	}
	if (ok && !quiet) {
		acc_flush(c, "dump_avail.misaligned", &mis, "ranges");
		/* The kernel copies its zero-filled array into a zeroed page. */
		for (size_t k = 16 * (n + 1); k < nbytes; k++)
			if (buf[k] != 0) {
				emit(c, "dump_avail.trailing-nonzero", off + k,
				    1, "dump_avail: expected zeros after the "
				    "terminating pair %zu, found %#04x", n,
				    buf[k]);
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
 * Count the set bits of the on-disk bitmap at off (size bytes): those
 * below nbits into *pop, those at or past it into *beyond (the first at
 * *first).  0 on success.
 */
static int
bitmap_count(struct ck *c, const struct mdv *v, uint64_t off, uint64_t size,
    uint64_t nbits, uint64_t *pop, uint64_t *beyond, uint64_t *first)
{
	unsigned w = v->md->bitmap_word(v->row, v->hver);
	uint8_t *buf = malloc(CK_CHUNK);
	uint64_t whole = size / w * w;

	*pop = *beyond = 0;
	*first = UINT64_MAX;
	if (buf == NULL)
		return -1;
	for (uint64_t done = 0; done < whole; done += CK_CHUNK) {
		size_t n = whole - done < CK_CHUNK ? (size_t)(whole - done) :
		    CK_CHUNK;

		if (rd(c, buf, n, off + done) != 0) {
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
	}
	free(buf);
	return 0;
}

/* Load the bits dump_avail numbers into v->own. */
static int
bitmap_load(struct ck *c, struct mdv *v)
{
	unsigned w = v->md->bitmap_word(v->row, v->hver);
	uint64_t nbytes = (v->nbits + 8 * w - 1) / (8 * w) * w;
	struct dk_err e;
	uint8_t *buf;

	if (dk_bitmap_init(&v->own, v->nbits, &e) != DK_OK)
		return 0;
	buf = malloc(CK_CHUNK);
	if (buf == NULL)
		return 0;
	for (uint64_t done = 0; done < nbytes; done += CK_CHUNK) {
		size_t n = nbytes - done < CK_CHUNK ? (size_t)(nbytes - done) :
		    CK_CHUNK;

		if (rd(c, buf, n, v->off[2] + done) != 0) {
			free(buf);
			return 0;
		}
		dk_bitmap_load(&v->own, done, buf, n, w, v->row->endian);
	}
	free(buf);
	if (dk_bitmap_index(&v->own, &e) != DK_OK)
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
choose_row(struct ck *c, const struct dk_mdarch *md, const uint8_t *buf,
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
			return dk_err_set(err, DK_EINVAL, "%s: the kernel %s is "
			    "of %s, not of a %s minidump", c->src.name,
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
header_check(struct ck *c, struct mdv *v, const uint8_t *buf, size_t len,
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
		emit(c, "header.magic", base + first, dist, "magic: expected "
		    "\"%s\" and NULs, found \"%s\" (%u byte%s differ%s)",
		    v->md->magic, seen, dist, dist == 1 ? "" : "s",
		    dist == 1 ? "s" : "");
	}
	vf = field_any(v->md, DK_H_VERSION);
	if (len < (size_t)vf->off + vf->size) {
		emit(c, "file.truncated", c->src.size, 1, "the file ends at "
		    "%#jx, inside the header, before its version field at "
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
		emit(c, "header.version", base + vf->off, 1, "version: expected "
		    "one of the %s minidump versions (mask %#x), found %u "
		    "(%#x) read %s-endian; the rest is read as version %u",
		    v->md->family, v->md->versions, v->version, v->version,
		    row->endian == DK_BE ? "big" : "little", v->hver);
	}
	hsize = dk_layout_size(v->md->layout, v->hver);
	if (len < hsize) {
		emit(c, "file.truncated", c->src.size, 1, "the file ends at "
		    "%#jx, inside the version %u header [%#jx, %#jx)",
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
			emit(c, "header.field-range", base + err_offset(&e,
			    0), 1, "%s", unprefixed(c, e.msg));
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
				emit(c, "header.padding-nonzero", base + f->off +
				    k, 1, "%s at %u (%u bytes): expected zeros "
				    "(the kernel zeroes the struct), found %#04x "
				    "at byte %u", f->name, f->off, f->size,
				    buf[f->off + k], k);
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
			emit(c, "header.tail-nonzero", base + firstnz, nz,
			    "header page after the %zu-byte version %u header: "
			    "expected zeros to the page end at %#jx, found %ju "
			    "non-zero bytes, the first %#04x", hsize, v->hver,
			    (uintmax_t)(base + v->page), (uintmax_t)nz,
			    buf[firstnz]);
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
native_offsets(const struct ck *c, const struct mdv *v, const uint64_t s[4],
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
layout_fits(struct ck *c, const struct mdv *v, const uint64_t s[4])
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
		    t.nbits, &pop, &beyond, &first) == 0 && beyond == 0 &&
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
size_search(struct ck *c, const struct mdv *v)
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
			emit(c, "header.size-too-small", v->field_off[i], 1,
			    "%s %#jx: the file holds a larger %s section: with "
			    "%#jx (%ju page%s more) the sections, the bitmap "
			    "and the file size agree", size_name(v, i),
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
bitmap_check(struct ck *c, struct mdv *v)
{
	uint64_t pop, beyond, first;

	v->avail_ok = v->has_avail ? avail_parse(c, v, v->off[1], v->size[1],
	    0) : avail_synth(v);
	if (!v->avail_ok)
		return;
	if (v->nbits > v->size[2] * 8) {
		unsigned w = v->md->bitmap_word(v->row, v->hver);

		emit(c, "bitmap.too-small", v->field_off[2], 1, "%s %#jx holds "
		    "%ju bits; dump_avail numbers %ju pages, which need %#jx "
		    "bytes", size_name(v, 2), (uintmax_t)v->size[2],
		    (uintmax_t)(v->size[2] * 8), (uintmax_t)v->nbits,
		    (uintmax_t)((v->nbits + 8 * w - 1) / (8 * w) * w));
		return;
	}
	if (v->has_avail && bitmap_count(c, v, v->off[2], v->size[2],
	    v->nbits, &pop, &beyond, &first) == 0 && beyond > 0)
		emit(c, "bitmap.bit-beyond-memory", bit_offset(v, first), beyond,
		    "bitmap bit %ju is set: expected only the %ju bits of the "
		    "pages dump_avail numbers, found %ju set past them",
		    (uintmax_t)first, (uintmax_t)v->nbits, (uintmax_t)beyond);
	if (c->d != NULL && dk_md(c->d)->bm.nbits == v->nbits) {
		v->bm = &dk_md(c->d)->bm;
		v->bm_ok = 1;
	} else
		v->bm_ok = bitmap_load(c, v);
}

/* Zero padding between a section's size and its page end? */
static void
padding_check(struct ck *c, const struct mdv *v, int i)
{
	uint64_t a = v->off[i] + v->size[i], b = v->off[i] +
	    rnd(v->size[i], v->page);
	uint8_t *buf;

	if (b == a || (buf = malloc((size_t)(b - a))) == NULL)
		return;
	if (rd(c, buf, (size_t)(b - a), a) == 0)
		for (uint64_t k = 0; k < b - a; k++)
			if (buf[k] != 0) {
				emit(c, "section.padding-nonzero", a + k, 1,
				    "%s: bytes past its %s %#jx up to the page "
				    "end are not zero (%#04x)", sect_name[i],
				    size_name(v, i), (uintmax_t)v->size[i],
				    buf[k]);
				break;
			}
	free(buf);
}

static void
msgbuf_check(struct ck *c, const struct mdv *v)
{
	uint64_t n = v->size[0] < CK_MSGBUF_MAX ? v->size[0] : CK_MSGBUF_MAX;
	uint64_t text = 0, ctl = 0, first = 0;
	uint8_t *buf;

	if (v->size[0] == 0) {
		emit(c, "msgbuf.empty", v->field_off[0], 1, "%s: expected the "
		    "size of the kernel's message buffer, found 0",
		    size_name(v, 0));
		return;
	}
	if ((buf = malloc((size_t)n)) == NULL || rd(c, buf, (size_t)n,
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
		emit(c, "msgbuf.not-text", v->off[0] + first, ctl, "msgbuf: "
		    "expected text, found %ju control bytes among %ju (the "
		    "first %#04x)", (uintmax_t)ctl, (uintmax_t)(text + ctl),
		    buf[first]);
	free(buf);
}

/* File size against what the sections and the bitmap imply. */
static void
size_check(struct ck *c, struct mdv *v, uint64_t want_pages,
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
		emit(c, "file.truncated", size, missing, "the file ends at "
		    "%#jx, inside the pages: expected %ju pages (%s) ending at "
		    "%#jx, found %ju whole; %ju pages (%#jx bytes) missing%s%s",
		    (uintmax_t)size, (uintmax_t)want_pages, what,
		    (uintmax_t)end, (uintmax_t)v->stored, (uintmax_t)missing,
		    (uintmax_t)(end - size), lost[0] ? "; physical memory "
		    "lost: " : "", lost);
	} else if (size > end)
		emit(c, "file.trailing-bytes", end, size - end, "expected the "
		    "file to end at %#jx after %ju pages (%s), found %ju more "
		    "bytes (%ju pages%s)", (uintmax_t)end,
		    (uintmax_t)want_pages, what, (uintmax_t)(size - end),
		    (uintmax_t)((size - end) >> v->page_shift),
		    ((size - end) & (v->page - 1)) ? " and a part" : "");
}

static enum dk_status
native_raw(struct ck *c, struct dk_err *err)
{
	struct mdv *v = &c->v;
	uint8_t *buf = calloc(1, CK_HDR_MAX);
	size_t n = c->src.size < CK_HDR_MAX ? (size_t)c->src.size : CK_HDR_MAX;
	uint64_t pages = 0;
	int bad = -1;
	enum dk_status st;

	if (buf == NULL)
		return dk_err_set(err, DK_ENOMEM, "out of memory");
	if (rd(c, buf, n, 0) != 0) {
		free(buf);
		return dk_err_set(err, DK_ESYS, "%s: cannot read the header",
		    c->src.name);
	}
	st = header_check(c, v, buf, n, 0, NULL, err);
	free(buf);
	if (st != DK_OK || !v->ok)
		return st;
	if (c->src.size < v->page) {
		emit(c, "file.truncated", c->src.size, 1, "the file ends at "
		    "%#jx, inside the header page [0, %#jx)",
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
		emit(c, "file.truncated", c->src.size, 1, "the file ends at "
		    "%#jx, inside the %s section [%#jx, %#jx) (%s %#jx): "
		    "%#jx bytes of it, the sections after it and every page "
		    "are missing; physical memory lost: all",
		    (uintmax_t)c->src.size, sect_name[bad], (uintmax_t)o,
		    (uintmax_t)e, size_name(v, bad), (uintmax_t)v->size[bad],
		    (uintmax_t)(e - c->src.size));
		if (v->size[bad] > c->src.size)
			emit(c, "header.size-too-large", v->field_off[bad], 1,
			    "%s %#jx: expected at most the %#jx bytes of the "
			    "whole file, found a %s section [%#jx, %#jx) past "
			    "its end (the field is wrong, or the file is cut "
			    "short)", size_name(v, bad),
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
/* The portable ELF minidump: ELF header, notes, segments.                 */

static uint64_t
em_info(const struct emv *em, unsigned off, unsigned width)
{
	return dec_uint(em->info + off, width, em->e);
}

/*
 * Is this an ELF core with dumpkit's notes (or one cut short before
 * they could be seen)?  Fills em's header view.  DK_NOMATCH if not.
 */
static enum dk_status
em_identify(struct ck *c, struct emv *em)
{
	uint8_t eh[DK_ELF_MAXSZ] = { 0 }, nh[DK_NHDR_SIZE + 8];
	size_t n = c->src.size < EM_EHDR ? (size_t)c->src.size : EM_EHDR;
	struct dk_ehdr h;
	struct dk_phdr ph;
	struct dk_nhdr nt;
	struct dk_err e;

	if (n < 20 || rd(c, eh, n, 0) != 0 || !dk_elf_magic(eh) ||
	    eh[EI_CLASS] != EM_CLASS || (eh[EI_DATA] != ELFDATA2LSB &&
	    eh[EI_DATA] != ELFDATA2MSB))
		return DK_NOMATCH;
	em->e = dk_elf_endian(eh);
	dk_ehdr_decode(eh, EM_CLASS, em->e, &h);	/* zeros past n */
	if (h.type != ET_CORE)
		return DK_NOMATCH;
	if (n < EM_EHDR)
		return DK_OK;		/* cut inside the ELF header */
	em->phoff = h.phoff;
	/* PN_XNUM: sh_info of section 0 if the file has it, else 0xffff. */
	(void)dk_elf_phnum(&c->src, &h, &em->phnum, &e);
	if (em->phoff > c->src.size || c->src.size - em->phoff < EM_PHDR)
		return em->phoff == EM_EHDR ? DK_OK : DK_NOMATCH;
	if (dk_phdr_read(&c->src, em->phoff, EM_CLASS, em->e, &ph, "data",
	    &e) != DK_OK || ph.type != PT_NOTE)
		return DK_NOMATCH;
	em->noff = ph.offset;
	em->nsize = ph.filesz;
	if (em->noff > c->src.size || c->src.size - em->noff < sizeof(nh))
		return em->noff < (1u << 30) ? DK_OK : DK_NOMATCH;
	if (rd(c, nh, sizeof(nh), em->noff) != 0)
		return DK_NOMATCH;
	dk_nhdr_decode(nh, em->e, &nt);
	if (nt.namesz != 8 || memcmp(nh + DK_NHDR_SIZE, "dumpkit", 8) != 0)
		return DK_NOMATCH;
	return DK_OK;
}

/* The ELF header's fields against docs/portable-elf-minidump.md 1. */
static void
em_header_check(struct ck *c, struct emv *em, const struct dk_arch *row)
{
	uint8_t eh[DK_ELF_MAXSZ];
	struct dk_ehdr h;

	if (rd(c, eh, EM_EHDR, 0) != 0)
		return;
	dk_ehdr_decode(eh, EM_CLASS, em->e, &h);
	{
		const struct { unsigned off; uint64_t got, want;
		    const char *name; } f[] = {
			{ EI_VERSION, eh[EI_VERSION], EV_CURRENT, "EI_VERSION" },
			{ EI_OSABI, eh[EI_OSABI], ELFOSABI_NONE, "EI_OSABI" },
#define	FIELD(id, v, want)						\
	{ dk_elf_off(id, EM_CLASS), v, want, dk_elf_field(id)->name }
			FIELD(DK_E_VERSION, h.version, EV_CURRENT),
			FIELD(DK_E_PHOFF, h.phoff, EM_EHDR),
			FIELD(DK_E_EHSIZE, h.ehsize, EM_EHDR),
			FIELD(DK_E_PHENTSIZE, h.phentsize, EM_PHDR),
#undef	FIELD
		};

		for (size_t i = 0; i < DK_ARRAY_LEN(f); i++)
			if (f[i].got != f[i].want)
				emit(c, "elf.header", f[i].off, 1, "%s: "
				    "expected %ju, found %ju", f[i].name,
				    (uintmax_t)f[i].want, (uintmax_t)f[i].got);
	}
	if (row != NULL) {
		if (h.machine != row->elf_machine)
			emit(c, "elf.header", dk_elf_off(DK_E_MACHINE,
			    EM_CLASS), 1, "e_machine: expected %u (%s, as the "
			    "info note says), found %ju", row->elf_machine,
			    row->name, (uintmax_t)h.machine);
		if (h.flags != row->elf_flags)
			emit(c, "elf.header", dk_elf_off(DK_E_FLAGS, EM_CLASS),
			    1, "e_flags: expected %#x for %s, found %#jx",
			    row->elf_flags, row->name, (uintmax_t)h.flags);
	}
}

/*
 * Walk the notes of the PT_NOTE segment (what the file holds of it: a
 * header or a name the file's end cuts is no finding of its own, the
 * truncation is one already).
 */
static void
em_notes(struct ck *c, struct emv *em)
{
	struct dk_note_iter it;
	struct dk_note n;
	struct dk_err e;
	enum dk_status st;

	dk_note_iter_init(&it, &c->src, em->noff, em->noff + em->nsize, em->e,
	    "the PT_NOTE segment");
	while ((st = dk_note_next(&it, &n, &e)) == DK_OK) {
		uint64_t type = n.type;

		if (n.namesz != 8 || memcmp(n.name, "dumpkit", 8) != 0 ||
		    type <= EM_NT_BASE || type >= EM_NT_BASE + EM_NT_MAX)
			continue;
		type -= EM_NT_BASE;
		if (em->nt_seen[type])
			emit(c, "elf.note", n.off, 1, "a second dumpkit note "
			    "of type %#jx (the first at %#jx)",
			    (uintmax_t)(type + EM_NT_BASE),
			    (uintmax_t)em->nt_off[type]);
		else {
			em->nt_seen[type] = 1;
			em->nt_off[type] = n.desc_off;
			em->nt_size[type] = n.descsz;
		}
	}
	if (st == DK_NOMATCH)
		return;
	if (st == DK_ECORRUPT && it.end - it.off >= DK_NHDR_SIZE)
		emit(c, "elf.note", it.off, 1, "note of type %#jx: name %ju and "
		    "descriptor %ju bytes extend past the PT_NOTE segment's "
		    "end at %#jx", (uintmax_t)n.type, (uintmax_t)n.namesz,
		    (uintmax_t)n.descsz, (uintmax_t)it.end);
	else if (em->noff + em->nsize <= c->src.size)
		emit(c, "elf.note", it.off, 1, "a note header needs 12 bytes, "
		    "the PT_NOTE segment has %ju left",
		    (uintmax_t)(it.end - it.off));
}

/* Read program header i into ph; 0 on success. */
static int
em_phdr(struct ck *c, const struct emv *em, uint64_t i, struct dk_phdr *ph)
{
	uint64_t off = em->phoff + i * EM_PHDR;
	struct dk_err e;

	return off > c->src.size || c->src.size - off < EM_PHDR ||
	    dk_phdr_read(&c->src, off, EM_CLASS, em->e, ph, "data", &e) !=
	    DK_OK ? -1 : 0;
}

/* The physical PT_LOADs against the runs of stored pages. */
static void
em_segments(struct ck *c, struct emv *em, struct mdv *v)
{
	uint64_t next = 0, pa, len, rank, nruns = 0, pend;
	uint64_t nph = em->phnum;
	size_t r = 0;
	struct dk_phdr ph;

	/* Each PT_LOAD: inside the file, page-aligned. */
	for (uint64_t i = 1; i < nph; i++) {
		uint64_t po = em->phoff + i * EM_PHDR, off, fsz, msz;

		if (em_phdr(c, em, i, &ph) != 0)
			break;
		if (ph.type != PT_LOAD)
			continue;
		off = ph.offset;
		fsz = ph.filesz;
		msz = ph.memsz;
		if (off > c->src.size || fsz > c->src.size - off)
			emit(c, "elf.load-past-eof", po, 1, "program header "
			    "%ju: PT_LOAD [%#jx, %#jx) extends past the end of "
			    "the file at %#jx", (uintmax_t)i, (uintmax_t)off,
			    (uintmax_t)(off + fsz), (uintmax_t)c->src.size);
		if (v->ok && (off & (v->page - 1)) != 0)
			emit(c, "elf.misaligned", po + dk_elf_off(DK_P_OFFSET,
			    EM_CLASS), 1, "program header "
			    "%ju: p_offset %#jx is not a multiple of the page "
			    "size %#jx", (uintmax_t)i, (uintmax_t)off,
			    (uintmax_t)v->page);
		if (fsz != msz)
			emit(c, "elf.segment-mismatch", po +
			    dk_elf_off(DK_P_FILESZ, EM_CLASS), 1, "program "
			    "header %ju: expected p_filesz = p_memsz, found "
			    "%#jx and %#jx", (uintmax_t)i, (uintmax_t)fsz,
			    (uintmax_t)msz);
	}
	if (!v->bm_ok)
		return;
	/* Physical segments: one per run of stored pages, in order. */
	pend = em->nstored < v->bm->count ? em->nstored : v->bm->count;
	while (run_next(v, &next, &r, &pa, &len, &rank)) {
		uint64_t po = em->phoff + (1 + nruns) * EM_PHDR;

		if (rank >= pend)
			break;
		if (rank + (len >> v->page_shift) > pend)
			len = (pend - rank) << v->page_shift;
		if (nruns < em->nphys && 1 + nruns < nph &&
		    em_phdr(c, em, 1 + nruns, &ph) == 0) {
			uint64_t type = ph.type;
			uint64_t off = ph.offset;
			uint64_t paddr = ph.paddr;
			uint64_t fsz = ph.filesz;
			uint64_t want = em->data_off + (rank << v->page_shift);

			if (type != PT_LOAD || paddr != pa || fsz != len ||
			    off != want)
				emit(c, "elf.segment-mismatch", po, 1, "program "
				    "header %ju: expected the run of stored "
				    "pages pa [%#jx, %#jx) at offset %#jx, "
				    "found type %ju pa [%#jx, %#jx) at %#jx",
				    (uintmax_t)(1 + nruns), (uintmax_t)pa,
				    (uintmax_t)(pa + len), (uintmax_t)want,
				    (uintmax_t)type, (uintmax_t)paddr,
				    (uintmax_t)(paddr + fsz), (uintmax_t)off);
		}
		nruns++;
	}
	if (nruns != em->nphys)
		emit(c, "elf.note-mismatch", em->info_off + 112, 1, "info note "
		    "nphys: expected %ju physical PT_LOADs (the runs of stored "
		    "pages the bitmap gives), found %ju", (uintmax_t)nruns,
		    (uintmax_t)em->nphys);
	if (1 + em->nphys > nph)
		emit(c, "elf.note-mismatch", em->info_off + 112, 1, "info note "
		    "nphys %ju: the file has only %ju program headers",
		    (uintmax_t)em->nphys, (uintmax_t)nph);
}

static enum dk_status
portable_raw(struct ck *c, struct dk_err *err)
{
	static const int nt[4] = { 3, 4, 5, 6 };
	struct emv *em = &c->em;
	struct mdv *v = &c->v;
	const struct dk_arch *row;
	char arch[17];
	uint8_t *hbuf;
	size_t hn;
	uint64_t psize, pop;
	enum dk_status st;

	if (em_identify(c, em) != DK_OK)
		return dk_err_at(err, DK_EUNSUP, c->src.name, 0, "an ELF "
		    "file, but not a portable ELF minidump (an ELF core whose "
		    "first note is dumpkit's info note)");
	c->portable = 1;
	if (c->src.size < EM_EHDR) {
		emit(c, "file.truncated", c->src.size, 1, "the file ends at "
		    "%#jx, inside the %u-byte ELF header",
		    (uintmax_t)c->src.size, EM_EHDR);
		return DK_OK;
	}
	if (em->phoff + (em->phnum ? em->phnum : 1) * EM_PHDR > c->src.size) {
		emit(c, "file.truncated", c->src.size, 1, "the file ends at "
		    "%#jx, inside the %ju program headers [%#jx, %#jx)",
		    (uintmax_t)c->src.size, (uintmax_t)em->phnum,
		    (uintmax_t)em->phoff, (uintmax_t)(em->phoff + (em->phnum ?
		    em->phnum : 1) * EM_PHDR));
		em_header_check(c, em, NULL);
		return DK_OK;
	}
	if (em->noff + em->nsize > c->src.size)
		emit(c, "file.truncated", c->src.size, 1, "the file ends at "
		    "%#jx, inside the notes [%#jx, %#jx) (PT_NOTE, program "
		    "header 0): %#jx bytes of them and every page are missing",
		    (uintmax_t)c->src.size, (uintmax_t)em->noff,
		    (uintmax_t)(em->noff + em->nsize),
		    (uintmax_t)(em->noff + em->nsize - c->src.size));
	em_notes(c, em);
	if (!em->nt_seen[1] || em->nt_size[1] < EM_INFO ||
	    rd(c, em->info, EM_INFO, em->nt_off[1]) != 0) {
		if (em->noff + em->nsize <= c->src.size)
			emit(c, "elf.note", em->noff, 1, "expected dumpkit's "
			    "info note of at least %d bytes, found %s", EM_INFO,
			    em->nt_seen[1] ? "a shorter one" : "none");
		em_header_check(c, em, NULL);
		return DK_OK;
	}
	em->info_off = em->nt_off[1];
	memcpy(arch, em->info + 16, 16);
	arch[16] = '\0';
	row = dk_arch_by_name(arch);
	if (em_info(em, 0, 4) == 1 && (em_info(em, 4, 4) == 2 ||
	    em_info(em, 4, 4) == 3)) {
		/*
		 * A sparc64 dump or a full core in the portable format: they
		 * are checked once the reader opens them, and this one did
		 * not.  Its reason is the finding.
		 */
		emit(c, "elf.note", em->info_off, 1, "a portable %s that does "
		    "not open: %s", em_info(em, 4, 4) == 2 ? "sparc64 dump" :
		    "full ELF core", unprefixed(c, c->openerr.msg));
		em_header_check(c, em, NULL);
		return DK_OK;
	}
	if (em_info(em, 0, 4) != 1 || em_info(em, 4, 4) != 1)
		emit(c, "elf.note", em->info_off, 1, "info note: expected "
		    "version 1 of source format 1 (minidump), found version "
		    "%ju of %ju", (uintmax_t)em_info(em, 0, 4),
		    (uintmax_t)em_info(em, 4, 4));
	if (row == NULL || strcmp(row->name, arch) != 0 || row->endian !=
	    em->e || row->minidump == NULL) {
		emit(c, "elf.note-mismatch", em->info_off + 16, 1, "info note "
		    "arch: expected a %s-endian minidump architecture, found "
		    "\"%s\"", em->e == DK_BE ? "big" : "little", arch);
		em_header_check(c, em, NULL);
		return DK_OK;
	}
	em_header_check(c, em, row);
	psize = em_info(em, 12, 4);
	if (!em->nt_seen[2]) {
		emit(c, "elf.note", em->noff, 1, "expected the source header "
		    "note (type %#x), found none", EM_NT_BASE + 2);
		return DK_OK;
	}
	hn = em->nt_size[2] < CK_HDR_MAX ? (size_t)em->nt_size[2] : CK_HDR_MAX;
	if (em->nt_off[2] + hn > c->src.size)
		hn = (size_t)(c->src.size - em->nt_off[2]);
	if ((hbuf = calloc(1, CK_HDR_MAX)) == NULL)
		return dk_err_set(err, DK_ENOMEM, "out of memory");
	if (rd(c, hbuf, hn, em->nt_off[2]) != 0)
		hn = 0;
	st = header_check(c, v, hbuf, hn, em->nt_off[2], row, err);
	free(hbuf);
	if (st != DK_OK)
		return st;
	if (!v->ok)
		return DK_OK;
	if (em->nt_size[2] != v->page || psize != v->page)
		emit(c, "elf.note-size", em->nt_off[2] - 20, 1, "source header "
		    "note: expected one page of %#jx bytes (the info note says "
		    "%#jx), found %#jx", (uintmax_t)v->page, (uintmax_t)psize,
		    (uintmax_t)em->nt_size[2]);
	if (em_info(em, 8, 4) != v->version)
		emit(c, "elf.note-mismatch", em->info_off + 8, 1, "info note "
		    "source_version: expected %u as the source header says, "
		    "found %ju", v->version, (uintmax_t)em_info(em, 8, 4));
	v->layout_ok = 1;
	for (int i = 0; i < 4; i++) {
		if (i == 1 && !v->has_avail)
			continue;
		v->off[i] = em->nt_off[nt[i]];
		if (!em->nt_seen[nt[i]]) {
			emit(c, "elf.note", em->noff, 1, "expected the %s note "
			    "(type %#x) the source header declares, found none",
			    sect_name[i], EM_NT_BASE + nt[i]);
			v->layout_ok = 0;
		} else if (em->nt_size[nt[i]] != v->size[i]) {
			emit(c, "elf.note-size", v->field_off[i], 1, "%s %#jx: "
			    "the %s note at %#jx holds %#jx bytes",
			    size_name(v, i), (uintmax_t)v->size[i],
			    sect_name[i], (uintmax_t)em->nt_off[nt[i]],
			    (uintmax_t)em->nt_size[nt[i]]);
			v->layout_ok = 0;
		}
	}
	em->data_off = em_info(em, 88, 8);
	em->npages = em_info(em, 96, 8);
	em->nstored = em_info(em, 104, 8);
	em->nphys = em_info(em, 112, 8);
	em->flags = (uint32_t)em_info(em, 36, 4);
	v->off_pages = em->data_off;
	if ((em->data_off & (v->page - 1)) != 0)
		emit(c, "elf.misaligned", em->info_off + 88, 1, "info note "
		    "data_offset %#jx: expected a multiple of the page size "
		    "%#jx", (uintmax_t)em->data_off, (uintmax_t)v->page);
	else if (em->data_off < em->noff + em->nsize)
		emit(c, "elf.note-mismatch", em->info_off + 88, 1, "info note "
		    "data_offset %#jx: expected at or after the end of the "
		    "notes at %#jx", (uintmax_t)em->data_off,
		    (uintmax_t)(em->noff + em->nsize));
	if (!v->layout_ok)
		return DK_OK;
	msgbuf_check(c, v);
	bitmap_check(c, v);
	if (!v->bm_ok)
		return DK_OK;
	pop = v->bm->count;
	if (em->npages != pop)
		emit(c, "bitmap.popcount-mismatch", em->info_off + 96, 1,
		    "info note npages: expected %ju, the set bits of the "
		    "bitmap note, found %ju", (uintmax_t)pop,
		    (uintmax_t)em->npages);
	if (em->nstored > em->npages)
		emit(c, "elf.note-mismatch", em->info_off + 104, 1, "info note "
		    "npages_stored %ju: expected at most npages %ju",
		    (uintmax_t)em->nstored, (uintmax_t)em->npages);
	if (((em->flags & 4) != 0) != (em->nstored < em->npages))
		emit(c, "elf.note-mismatch", em->info_off + 36, 1, "info note "
		    "flags %#x: the truncated bit says %s, but %ju of %ju "
		    "pages are stored", em->flags, (em->flags & 4) ? "yes" :
		    "no", (uintmax_t)em->nstored, (uintmax_t)em->npages);
	if (em->nstored < pop && em->nstored <= em->npages) {
		char lost[256];

		lost_ranges(v, em->nstored, lost, sizeof(lost));
		emit(c, "file.truncated", em->data_off + (em->nstored <<
		    v->page_shift), pop - em->nstored, "the source dump was "
		    "truncated: %ju of its %ju pages are stored; physical "
		    "memory lost: %s", (uintmax_t)em->nstored,
		    (uintmax_t)pop, lost);
	}
	size_check(c, v, em->nstored < pop ? em->nstored : pop,
	    "npages_stored of the info note");
	em_segments(c, em, v);
	em->ok = 1;
	return DK_OK;
}

/* ---------------------------------------------------------------------- */
/* Page tables.                                                            */

struct pmstat {
	struct acc	past, hole, notdumped, ptmiss, loop, misal;
	uint64_t	steps;
};

/* Judge a PA a valid entry maps; large: a large page, judge its base. */
static void
classify(struct ck *c, struct pmstat *ps, uint64_t pa, uint64_t off,
    uint64_t va, int large)
{
	const struct mdv *v = &c->v;
	char who[48];
	uint64_t bit;

	if (va == UINT64_MAX)
		snprintf(who, sizeof(who), "a kernel entry");
	else
		snprintf(who, sizeof(who), "the entry for va %#jx",
		    (uintmax_t)va);
	if (pa >= v->phys_end) {
		acc_add(&ps->past, off, "%s maps pa %#jx: expected a PA below "
		    "the end of physical memory at %#jx", who, (uintmax_t)pa,
		    (uintmax_t)v->phys_end);
		return;
	}
	bit = pa_bit(v, pa);
	if (bit == UINT64_MAX)
		acc_add(&ps->hole, off, "%s maps pa %#jx, between the "
		    "dump_avail ranges (device memory?)", who, (uintmax_t)pa);
	else if (!large && !dk_bitmap_test(v->bm, bit))
		acc_add(&ps->notdumped, off, "%s maps pa %#jx, a page of memory "
		    "that is not in the dump (bit %ju clear)", who,
		    (uintmax_t)pa, (uintmax_t)bit);
}

/*
 * A page-table page at pa that the walk needs: inside memory and
 * dumped?  Recorded (for --pattern, which must skip it).  1: walk it.
 */
static int
table_page(struct ck *c, struct pmstat *ps, uint64_t pa, uint64_t off,
    const char *what)
{
	const struct mdv *v = &c->v;
	uint64_t bit;

	if (pa >= v->phys_end) {
		acc_add(&ps->past, off, "%s points at a page-table page at pa "
		    "%#jx: expected a PA below the end of physical memory at "
		    "%#jx", what, (uintmax_t)pa, (uintmax_t)v->phys_end);
		return 0;
	}
	bit = pa_bit(v, pa);
	if (bit == UINT64_MAX || !dk_bitmap_test(v->bm, bit)) {
		acc_add(&ps->ptmiss, off, "%s points at the page-table page at "
		    "pa %#jx: expected it in the dump, found %s", what,
		    (uintmax_t)pa, bit == UINT64_MAX ? "it outside every "
		    "dump_avail range" : "its bitmap bit clear");
		return 0;
	}
	(void)paset_add(&c->pt, pa & ~(v->page - 1));
	return 1;
}

/*
 * One entry per page from kernbase (i386, arm, arm64, mips, riscv,
 * amd64 version 1): the family's kvtop translates entry by entry.
 */
static void
walk_flat(struct ck *c, struct pmstat *ps)
{
	struct dk_dump *d = c->d;
	const struct dk_md *m = dk_md(d);
	uint64_t kb = d->info.kernbase;
	struct dk_err e;

	for (uint64_t i = 0; i < m->pmap_nent; i++) {
		uint64_t va = kb + (i << d->page_shift), pa;

		if (m->fam->kvtop(d, va, &pa, NULL, &e) == DK_OK)
			classify(c, ps, pa, m->off_pmap + i * m->pte_size, va,
			    0);
	}
}

/*
 * Any other family: the kernel map page by page through kvtop, jumping
 * over what the family says is unmapped, for at most CK_WALK_MAX steps.
 */
static void
walk_generic(struct ck *c, struct pmstat *ps)
{
	struct dk_dump *d = c->d;
	uint64_t va = d->info.kernbase & ~(d->page_size - 1), pa;
	struct dk_err e;

	while (va >= d->info.kernbase && va < d->info.kva_end) {
		if (ps->steps++ >= CK_WALK_MAX) {
			emit(c, "pmap.walk-limit", UINT64_MAX, 1, "the kernel "
			    "map walk stopped after %ju steps at va %#jx, "
			    "before its end at %#jx", (uintmax_t)CK_WALK_MAX,
			    (uintmax_t)va, (uintmax_t)d->info.kva_end);
			return;
		}
		d->unmapped_to = 0;
		if (dk_md_kvtop_prot(d, va, &pa, NULL, &e) == DK_OK)
			classify(c, ps, pa, UINT64_MAX, va, 0);
		va = d->unmapped_to > va ? d->unmapped_to : va + d->page_size;
	}
}

/*
 * The visitor of a family's own pass over its page-table area
 * (dk_mdarch's pt_visit: amd64 versions 2 and 3, powerpc64): the family
 * walks, these judge.
 */
struct ptv {
	struct ck	*c;
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

	return paset_has(&p->c->pt, pa);
}

static void
ptv_misaligned(void *arg, uint64_t off, const char *msg)
{
	struct ptv *p = arg;

	acc_add(&p->ps->misal, off, "%s", msg);
}

static void
ptv_loop(void *arg, uint64_t off, const char *msg)
{
	struct ptv *p = arg;

	acc_add(&p->ps->loop, off, "%s", msg);
}

static void
pmap_check(struct ck *c)
{
	struct dk_dump *d = c->d;
	const struct dk_md *m = dk_md(d);
	struct pmstat ps;
	struct ptv p = { c, &ps };
	const struct dk_pt_visitor v = { &p, ptv_leaf, ptv_table, ptv_seen,
	    ptv_misaligned, ptv_loop };

	memset(&ps, 0, sizeof(ps));
	if (m->fam->kvtop == NULL || !c->v.bm_ok)
		return;
	if (m->fam->pt_visit == NULL || !m->fam->pt_visit(d, &v)) {
		if (m->pmap_nent > 0 && d->info.kva_end > d->info.kernbase &&
		    (d->info.kva_end - d->info.kernbase) >> d->page_shift ==
		    m->pmap_nent)
			walk_flat(c, &ps);
		else
			walk_generic(c, &ps);
	}
	acc_flush(c, "pmap.pa-past-memory", &ps.past, "entries");
	acc_flush(c, "pmap.pt-page-missing", &ps.ptmiss, "entries");
	acc_flush(c, "pmap.loop", &ps.loop, "entries");
	acc_flush(c, "pmap.large-misaligned", &ps.misal, "entries");
	acc_flush(c, "pmap.page-not-dumped", &ps.notdumped, "entries");
	acc_flush(c, "pmap.pa-in-hole", &ps.hole, "entries");
}

/* ---------------------------------------------------------------------- */
/* Page data.                                                              */

static void
progress(struct ck *c, uint64_t n)
{
	c->progress_done += n;
	if (c->o->progress != NULL && c->progress_done >= c->progress_next) {
		c->o->progress(c->o->arg, c->progress_done, c->progress_total);
		c->progress_next = c->progress_done + (64u << 20);
	}
}

/* What the content pass accumulates. */
struct content {
	struct dk_digest g;
	struct acc	 bad, ioerr;
	uint8_t		*exp;		/* a page of the pattern */
	int		 pattern;
};

/*
 * n bytes of pages read at pa (file offset off, or UINT64_MAX for pages
 * that have none): hashed for --checksum, compared with the pattern for
 * --pattern (page-table pages excepted: they hold page tables).
 */
static void
content_chunk(struct ck *c, struct content *k, uint64_t pa, const uint8_t *buf,
    size_t n, uint64_t off)
{
	size_t page = (size_t)c->d->page_size;

	for (size_t p = 0; p < n; p += page) {
		if (c->o->checksum)
			dk_digest_page(&k->g, pa + p, buf + p);
		if (!k->pattern || paset_has(&c->pt, pa + p))
			continue;
		dk_pattern_fill(c->o->seed, pa + p, k->exp, page);
		if (memcmp(buf + p, k->exp, page) != 0) {
			size_t i = 0;

			while (buf[p + i] == k->exp[i])
				i++;
			acc_add(&k->bad, off == UINT64_MAX ? UINT64_MAX : off +
			    p + i, "pa %#jx: expected %#04x (pattern seed %ju), "
			    "found %#04x", (uintmax_t)(pa + p + i), k->exp[i],
			    (uintmax_t)c->o->seed, buf[p + i]);
		}
	}
	progress(c, n);
}

/*
 * Every stored page in physical order, in chunks of 1 MiB: read (an I/O
 * error is a finding), hashed for --checksum, compared with the pattern
 * for --pattern.  Pages stored with no file offset (DK_OFF_PAGED) are
 * read by address.
 */
static void
content_check(struct ck *c)
{
	struct dk_dump *d = c->d;
	struct dk_run_iter it = { 0, 0 };
	struct dk_run r;
	uint64_t page = d->page_size;
	/*
	 * A minidump's (and sparc64's) pages are packed from off_pages: what
	 * lies past the stored ones is not read.  A full ELF core's
	 * segments are where their program headers say, in any order: each
	 * run is read as far as the file goes (elfcore.load-past-eof
	 * reports the rest).
	 */
	int scattered = d->fmt == &dk_fmt_elf;
	uint64_t len, pend = scattered ? d->src.size :
	    d->fmt->portable->extent(d, &len) + (d->info.npages_present <<
	    d->page_shift);
	struct content k = { .pattern = c->o->pattern };
	uint8_t *buf = malloc(CK_CHUNK);

	k.exp = malloc((size_t)page);
	if (buf == NULL || k.exp == NULL) {
		free(buf);
		free(k.exp);
		return;
	}
	if (c->o->checksum)
		dk_digest_init(&k.g, (size_t)page);
	/*
	 * Which pages of a full ELF core hold page tables, the fixture
	 * generator knows and the core does not say: --pattern would call
	 * them mismatches.  Say so rather than compare (the test suite
	 * compares full cores with the generator's model).
	 */
	if (c->o->pattern && scattered) {
		emit(c, "check.incomplete", UINT64_MAX, 1, "--pattern is not "
		    "applied to a full ELF core: its page-table pages cannot "
		    "be told from the others without the fixture's model");
		k.pattern = 0;
	}
	c->progress_total = d->info.npages_present << d->page_shift;
	while (dk_run_next(d, &it, &r)) {
		if (r.offset == DK_OFF_ZERO) {	/* dumped as zeros, left out */
			memset(buf, 0, (size_t)page);
			for (uint64_t p = 0; c->o->checksum && p < r.len;
			    p += page)
				dk_digest_page(&k.g, r.pa + p, buf);
			progress(c, r.len);
			continue;
		}
		if (r.offset == DK_OFF_PAGED) {	/* read by address */
			for (uint64_t done = 0; done < r.len; done += CK_CHUNK) {
				size_t n = r.len - done < CK_CHUNK ?
				    (size_t)(r.len - done) : CK_CHUNK;
				struct dk_err e;

				if (dk_read_pa(d, r.pa + done, buf, n, &e) !=
				    DK_OK) {
					acc_add(&k.ioerr, err_offset(&e,
					    UINT64_MAX), "pages at pa %#jx: %s",
					    (uintmax_t)(r.pa + done),
					    unprefixed(c, e.msg));
					continue;
				}
				c->res->bytes_read += n;
				content_chunk(c, &k, r.pa + done, buf, n,
				    UINT64_MAX);
			}
			continue;
		}
		if (r.offset >= pend) {
			if (scattered)
				continue;
			break;
		}
		if (r.offset + r.len > pend)
			r.len = pend - r.offset;
		for (uint64_t done = 0; done < r.len; done += CK_CHUNK) {
			size_t n = r.len - done < CK_CHUNK ? (size_t)(r.len -
			    done) : CK_CHUNK;
			struct dk_err e;

			if (dk_src_pread(&d->src, buf, n, r.offset + done,
			    "page data", &e) != DK_OK) {
				acc_add(&k.ioerr, r.offset + done, "pages at pa "
				    "%#jx: %s", (uintmax_t)(r.pa + done),
				    unprefixed(c, e.msg));
				continue;
			}
			c->res->bytes_read += n;
			content_chunk(c, &k, r.pa + done, buf, n,
			    r.offset + done);
		}
	}
	acc_flush(c, "content.read-error", &k.ioerr, "chunks");
	acc_flush(c, "content.pattern-mismatch", &k.bad, "pages");
	if (c->o->checksum) {
		dk_digest_final(&k.g, c->res->checksum);
		c->res->has_checksum = 1;
	}
	free(buf);
	free(k.exp);
}

/* Virtual PT_LOADs against the page tables, page by page. */
static void
virt_check(struct ck *c)
{
	struct emv *em = &c->em;
	struct dk_dump *d = c->d;
	uint64_t budget = 4 * d->info.npages + 1024;
	struct acc bad = { 0, 0, "" };
	struct dk_phdr ph;

	if (!em->ok || !(em->flags & 2))
		return;
	for (uint64_t i = 1 + em->nphys; i < em->phnum; i++) {
		uint64_t po = em->phoff + i * EM_PHDR, va, pa, off, len, got;
		struct dk_err e;

		if (em_phdr(c, em, i, &ph) != 0 || ph.type != PT_LOAD)
			continue;
		off = ph.offset;
		va = ph.vaddr;
		pa = ph.paddr;
		len = ph.filesz;
		/* 32-bit kernels: p_vaddr may be sign-extended (BFD's MIPS). */
		if (d->arch->elf_class == ELFCLASS32)
			va = (uint32_t)va;
		if (dk_pa_offset(d, pa, &got, &e) != DK_OK || got != off) {
			acc_add(&bad, po, "program header %ju: va %#jx: the "
			    "segment's pa %#jx is %s", (uintmax_t)i,
			    (uintmax_t)va, (uintmax_t)pa, "not a stored page at "
			    "its p_offset");
			continue;
		}
		for (uint64_t k = 0; k < len; k += d->page_size) {
			uint64_t p;

			if (budget-- == 0)
				return;
			if (dk_kvtop(d, va + k, &p, &e) != DK_OK) {
				acc_add(&bad, po, "program header %ju: va %#jx: "
				    "the segment maps it to pa %#jx, the page "
				    "tables do not map it (%s)", (uintmax_t)i,
				    (uintmax_t)(va + k), (uintmax_t)(pa + k),
				    e.msg);
				break;
			}
			if (p != pa + k) {
				acc_add(&bad, po, "program header %ju: va %#jx: "
				    "expected pa %#jx as the page tables say, "
				    "found %#jx", (uintmax_t)i,
				    (uintmax_t)(va + k), (uintmax_t)p,
				    (uintmax_t)(pa + k));
				break;
			}
		}
	}
	acc_flush(c, "elf.virt-mismatch", &bad, "segments");
}

/* ---------------------------------------------------------------------- */
/* The entry points.                                                       */

static void
elfcore_emit(void *arg, const char *code, uint64_t off, const char *msg)
{
	emit(arg, code, off, 1, "%s", msg);
}

/*
 * A FreeBSD full ELF core: its structure (check_elf.c), then whether
 * the library opens it.  Page data is not read: the PT_LOADs are the
 * whole of the data, and their bounds are checked.
 */
static enum dk_status
elfcore_run(struct ck *c, const char *path, const void *mem, size_t len,
    struct dk_err *err)
{
	struct dk_open_opts oo = { c->o->arch, c->o->kernel };
	struct dk_check_result *res = c->res;
	struct dk_elfcore_stats es;
	enum dk_status st;

	if ((st = dk_elfcore_check(&c->src, elfcore_emit, c, &es, err)) !=
	    DK_OK)
		return st;
	res->examined = 1;
	res->format = "elf";
	snprintf(res->arch, sizeof(res->arch), "%s", es.arch);
	res->page_size = 4096;
	res->npages = es.npages;
	dk_err_clear(&c->openerr);
	st = c->unz.found || c->kdh.found ? dk_open_src(&c->src, &oo, &c->d,
	    &c->openerr) :
	    path != NULL ? dk_open(path, &oo, &c->d, &c->openerr) :
	    dk_open_mem(mem, len, c->src.name, &oo, &c->d, &c->openerr);
	if (st == DK_EINVAL || st == DK_ESYS || st == DK_ENOMEM) {
		*err = c->openerr;
		return st;
	}
	if (st != DK_OK) {
		if (res->nerrors == 0)
			emit(c, "open.refused", err_offset(&c->openerr,
			    UINT64_MAX), 1, "%s", unprefixed(c,
			    c->openerr.msg));
		return DK_OK;
	}
	res->version = dk_info(c->d)->version;
	res->npages_present = dk_info(c->d)->npages_present;
	/* The pages, as for any dump: --pattern, --checksum. */
	res->deep = 1;
	if (!c->o->quick)
		content_check(c);
	return DK_OK;
}

static void
sp64_emit(void *arg, const char *code, uint64_t off, uint64_t count,
    const char *msg)
{
	emit(arg, code, off, count, "%s", msg);
}

/*
 * A sparc64 dump, native or portable (check_sparc64.c): the header
 * blob and the TSB; then the page data as for any dump (content_check:
 * --pattern, --checksum), region by region in physical order.
 */
static enum dk_status
sp64_run(struct ck *c, const char *path, const void *mem, size_t len,
    struct dk_err *err)
{
	struct dk_open_opts oo = { c->o->arch, c->o->kernel };
	struct dk_check_result *res = c->res;
	struct dk_sp64_check r;
	enum dk_status st = DK_OK;

	if (c->d == NULL) {
		dk_err_clear(&c->openerr);
		st = c->unz.found || c->kdh.found ? dk_open_src(&c->src, &oo,
		    &c->d, &c->openerr) :
		    path != NULL ? dk_open(path, &oo, &c->d, &c->openerr) :
		    dk_open_mem(mem, len, c->src.name, &oo, &c->d,
		    &c->openerr);
		if (st == DK_EINVAL || st == DK_ESYS || st == DK_ENOMEM) {
			*err = c->openerr;
			return st;
		}
	}
	if (c->d != NULL && c->d->fmt != &dk_fmt_sparc64) {
		dk_close(c->d);
		c->d = NULL;
	}
	dk_sp64_check(&c->src, c->d, sp64_emit, c, &r);
	res->examined = 1;
	res->format = c->d != NULL ? dk_info(c->d)->format : "sparc64";
	snprintf(res->arch, sizeof(res->arch), "sparc64");
	res->version = 1;
	res->page_size = SP64_PAGE_SIZE;
	res->npages = r.npages;
	res->npages_present = r.nstored;
	if (c->d == NULL) {
		if (res->nerrors == 0)
			emit(c, "open.refused", err_offset(&c->openerr,
			    UINT64_MAX), 1, "%s", unprefixed(c,
			    c->openerr.msg));
		emit(c, "check.incomplete", UINT64_MAX, 1, "the TSB was not "
		    "checked: the library does not open the file (%s)",
		    dk_status_name(c->openerr.code));
		return DK_OK;
	}
	res->deep = 1;
	if (c->o->quick)
		return DK_OK;
	/* Page data: the TSB's pages hold TTEs, not the fixture pattern. */
	if (c->o->pattern) {
		const struct dk_sp64 *sp = c->d->priv;
		uint64_t tpa = c->d->hdr.v[DK_SP64_F_TSB_PA];

		for (uint64_t o = 0; sp->tsb_ok && o < sp->tsb_nslots *
		    SP64_TTE_SLOT; o += SP64_PAGE_SIZE)
			if (paset_add(&c->pt, (tpa + o) & ~(SP64_PAGE_SIZE -
			    1)) < 0)
				break;
	}
	content_check(c);
	return DK_OK;
}

static enum dk_status
check_run(struct ck *c, const char *path, const void *mem, size_t len,
    struct dk_err *err)
{
	struct dk_open_opts oo = { c->o->arch, c->o->kernel };
	struct dk_check_result *res = c->res;
	uint8_t head[4] = { 0 };
	int elf;
	enum dk_status st;

	res->file_size = c->src.size;
	if (c->unz.found)
		c->off_shift = 0;	/* offsets in the decompressed stream */
	if (c->kdh.stop) {
		res->examined = 1;
		res->format = "kerneldumpheader";
		res->version = c->kdh.info.version;
		emit(c, "check.incomplete", UINT64_MAX, 1, "the dump stream "
		    "was not checked: %s", c->kdh.why);
		return DK_OK;
	}
	elf = c->src.size >= 4 && rd(c, head, 4, 0) == 0 &&
	    memcmp(head, ELFMAG, SELFMAG) == 0;
	if (elf && dk_elfcore_is(&c->src))
		return elfcore_run(c, path, mem, len, err);
	if (!elf && dk_sp64_check_claims(&c->src, &oo))
		return sp64_run(c, path, mem, len, err);
	if (!elf) {
		uint8_t buf[64] = { 0 };
		size_t n = c->src.size < sizeof(buf) ? (size_t)c->src.size :
		    sizeof(buf);
		unsigned dist, first;

		if (rd(c, buf, n, 0) != 0 || identify_family(buf, n, &dist,
		    &first) == NULL)
			return dk_err_at(err, DK_EUNSUP, c->src.name, 0, "not "
			    "a dump format dumpkit knows (expected a minidump "
			    "magic \"minidump FreeBSD/<arch>\" or an ELF core "
			    "with dumpkit notes; a damaged sparc64 dump needs "
			    "--arch sparc64)");
	}
	dk_err_clear(&c->openerr);
	st = c->unz.found || c->kdh.found ? dk_open_src(&c->src, &oo, &c->d,
	    &c->openerr) :
	    path != NULL ? dk_open(path, &oo, &c->d, &c->openerr) :
	    dk_open_mem(mem, len, c->src.name, &oo, &c->d, &c->openerr);
	if (st == DK_EAMBIG || st == DK_EINVAL || st == DK_ESYS ||
	    st == DK_ENOMEM) {
		*err = c->openerr;
		return st;
	}
	if (c->d != NULL && c->d->fmt == &dk_fmt_sparc64)	/* portable */
		return sp64_run(c, path, mem, len, err);
	if (c->d != NULL && c->d->fmt == &dk_fmt_elf) {	/* portable */
		res->examined = 1;
		res->format = dk_info(c->d)->format;
		snprintf(res->arch, sizeof(res->arch), "%s",
		    dk_info(c->d)->arch);
		res->version = dk_info(c->d)->version;
		res->page_size = dk_info(c->d)->page_size;
		res->npages = dk_info(c->d)->npages;
		res->npages_present = dk_info(c->d)->npages_present;
		emit(c, "check.incomplete", UINT64_MAX, 1, "a full ELF core in "
		    "the portable format: its program headers load, and its "
		    "layout rules (elfcore.*) are checked on the native core "
		    "(dumpconv --to native)");
		res->deep = 1;
		if (!c->o->quick)
			content_check(c);
		return DK_OK;
	}
	if ((st = elf ? portable_raw(c, err) : native_raw(c, err)) != DK_OK)
		return st;
	res->examined = 1;
	res->format = elf ? "portable-elf" : "minidump";
	if (c->v.row != NULL)
		snprintf(res->arch, sizeof(res->arch), "%s", c->v.row->name);
	res->version = c->v.version;
	res->page_size = (uint32_t)c->v.page;
	if (c->v.bm_ok) {
		res->npages = c->v.bm->count;
		res->npages_present = c->v.stored;
	}
	if (c->d == NULL) {
		if (res->nerrors == 0)
			emit(c, "open.refused", err_offset(&c->openerr,
			    UINT64_MAX), 1, "%s", unprefixed(c,
			    c->openerr.msg));
		emit(c, "check.incomplete", UINT64_MAX, 1, "page tables and "
		    "page data not checked: the library does not open the "
		    "file (%s)", dk_status_name(c->openerr.code));
		return DK_OK;
	}
	if (!c->v.bm_ok) {
		emit(c, "check.incomplete", UINT64_MAX, 1, "page tables and "
		    "page data not checked: the bitmap could not be read");
		return DK_OK;
	}
	res->deep = 1;
	pmap_check(c);
	if (c->o->quick)
		return DK_OK;
	if (c->portable)
		virt_check(c);
	content_check(c);
	return DK_OK;
}

static void
unz_emit(void *arg, const char *code, uint64_t off, const char *msg)
{
	emit(arg, code, off, 1, "%s", msg);
}

static void
kdh_emit(void *arg, const char *code, uint64_t off, const char *msg)
{
	emit(arg, code, off, 1, "%s", msg);
}

/*
 * A kerneldumpheader container (check_kdh.c): its findings, then the
 * dump stream inside, a window of the same file, is what the rest of
 * the engine checks; offsets found there are turned back into file
 * offsets.
 */
static enum dk_status
kdh_unwrap(struct ck *c)
{
	dk_kdh_check(&c->src, kdh_emit, c, &c->kdh);
	if (!c->kdh.found || c->kdh.stop)
		return DK_OK;
	c->src.base += c->kdh.stream_off;
	c->src.size = c->kdh.stream_size;
	c->off_shift += c->kdh.stream_off;
	return DK_OK;
}

/*
 * A compressed file (check_compress.c): its findings, then the stream
 * it decompresses to is what the rest of the engine checks.
 */
static enum dk_status
unz_unwrap(struct ck *c, struct dk_err *err)
{
	dk_unz_check(&c->src, unz_emit, c, &c->unz);
	if (!c->unz.found)
		return DK_OK;
	if (c->unz.fd < 0) {
		*err = c->unz.err;
		return err->code;
	}
	c->src.fd = c->unz.fd;
	c->src.mem = NULL;
	c->src.base = 0;
	c->src.size = c->unz.size;
	c->src.name = c->unz.name;
	return DK_OK;
}

static void
ck_free(struct ck *c)
{
	dk_close(c->d);
	free(c->v.avail);
	free(c->v.avail_bit);
	dk_bitmap_free(&c->v.own);
	if (c->unz.fd >= 0)
		close(c->unz.fd);
	free(c->pt.slot);
}

static void
ck_init(struct ck *c, const struct dk_check_opts *o,
    struct dk_check_result *res)
{
	memset(c, 0, sizeof(*c));
	memset(res, 0, sizeof(*res));
	c->o = o;
	c->res = res;
	c->fd = -1;
	c->src.fd = -1;
	c->unz.fd = -1;
}

DK_EXPORT enum dk_status
dk_check(const char *path, const struct dk_check_opts *o,
    struct dk_check_result *res, struct dk_err *err)
{
	struct ck c;
	struct stat sb;
	enum dk_status st;

	dk_err_clear(err);
	ck_init(&c, o, res);
	c.src.name = path;
	c.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (c.fd < 0 || fstat(c.fd, &sb) != 0) {
		dk_err_set(err, DK_ESYS, "%s: %s", path, strerror(errno));
		err->sys_errno = errno;
		if (c.fd >= 0)
			close(c.fd);
		return DK_ESYS;
	}
	if (!S_ISREG(sb.st_mode) && !S_ISBLK(sb.st_mode)) {
		close(c.fd);
		return dk_err_set(err, DK_ESYS, "%s: not a regular file or a "
		    "block device", path);
	}
	c.src.fd = c.fd;
	c.src.size = (uint64_t)sb.st_size;
	if (S_ISBLK(sb.st_mode)) {
		off_t end = lseek(c.fd, 0, SEEK_END);

		c.src.size = end < 0 ? 0 : (uint64_t)end;
	}
	(void)posix_fadvise(c.fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	if ((st = kdh_unwrap(&c)) == DK_OK && (c.kdh.stop ||
	    (st = unz_unwrap(&c, err)) == DK_OK))
		st = check_run(&c, path, NULL, 0, err);
	ck_free(&c);
	close(c.fd);
	return st;
}

DK_EXPORT enum dk_status
dk_check_mem(const void *buf, size_t len, const char *name,
    const struct dk_check_opts *o, struct dk_check_result *res,
    struct dk_err *err)
{
	struct ck c;
	enum dk_status st;

	dk_err_clear(err);
	ck_init(&c, o, res);
	c.src.name = name;
	c.src.mem = buf;
	c.src.size = len;
	if ((st = kdh_unwrap(&c)) == DK_OK && (c.kdh.stop ||
	    (st = unz_unwrap(&c, err)) == DK_OK))
		st = check_run(&c, NULL, buf, len, err);
	ck_free(&c);
	return st;
}
