/*
 * check.c -- the validation engine (dkcheck.h): walk a dump and report
 * every rule it breaks as a finding, with a stable code, a severity and
 * the byte offset in the file.  docs/dumpcheck.md lists the codes.
 *
 * This file is the driver and the passes every format shares; the rules
 * are the formats' and the containers' own (check_<name>.c, checker.h).
 * The driver peels the containers of the containers table, each once,
 * outermost first (a kerneldumpheader device image, then a compressed
 * stream: each reports on its layer and narrows the stream), gives the
 * stream to the format whose validator ranks it highest (an option
 * naming a format beats a format's identity, which beats a likeness),
 * and runs that format's check.  A check has a raw phase, on the bytes,
 * without the library (which refuses outright some damage that must
 * still be described precisely), and, when the library opened the file,
 * a deep phase: page tables, then the content pass here (every stored
 * page read in physical order, hashed for --checksum, compared with the
 * fixture pattern for --pattern).
 *
 * When the library refuses a file and the raw phase found nothing to
 * say, the library's message becomes a finding (open.refused), so that a
 * file the library cannot read is never reported clean.
 *
 * Every count taken from the file is checked against the file's size
 * before it is used to allocate; every walk is bounded.  No global
 * state: everything hangs off struct dk_ck.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bytes.h"
#include "checker.h"

/* ---------------------------------------------------------------------- */
/* The codes.                                                              */

/*
 * The codes of the rules every format shares; the formats' and the
 * containers' own are in their validators (dk_format_check.codes).
 */
const struct dk_check_code dk_ck_codes[] = {
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
	{ "pmap.untranslated", DK_SEV_NOTE,
	  "a valid entry dumpkit does not translate (an ARMv4 tiny page)" },
	{ "content.pattern-mismatch", DK_SEV_ERROR,
	  "a page differs from the fixture pattern (--pattern)" },
	{ "content.read-error", DK_SEV_ERROR,
	  "page data could not be read" },
	{ "msgbuf.empty", DK_SEV_WARNING,
	  "msgbufsize is 0: the kernel always dumps its message buffer" },
	{ "msgbuf.not-text", DK_SEV_WARNING,
	  "the message buffer holds control bytes, not text" },
	{ "linux.log-unreadable", DK_SEV_ERROR,
	  "a part of the Linux kernel log cannot be read from the dump" },
	{ "linux.log-ring", DK_SEV_ERROR,
	  "the kernel log's ring sizes are impossible (count_bits, size_bits, "
	  "log_buf_len)" },
	{ "linux.log-ids", DK_SEV_ERROR,
	  "the kernel log's head and tail (ids, positions, log_first_idx, "
	  "log_next_idx) do not fit its ring" },
	{ "linux.log-desc", DK_SEV_ERROR,
	  "a kernel log descriptor holds another record's id" },
	{ "linux.log-block", DK_SEV_ERROR,
	  "a kernel log record's text block is not inside the text ring, or "
	  "not its own" },
	{ "linux.log-text-len", DK_SEV_ERROR,
	  "a kernel log record's text is longer than its block or record" },
	{ "linux.log-seq", DK_SEV_ERROR,
	  "a kernel log record's sequence number is not the ring's next" },
	{ "linux.log-record", DK_SEV_ERROR,
	  "a struct printk_log record's length is impossible" },
	{ "linux.log-wrap", DK_SEV_ERROR,
	  "the struct printk_log records wrap twice or loop" },
	{ "open.refused", DK_SEV_ERROR,
	  "the library refused the file for a reason no other code names" },
	{ "check.incomplete", DK_SEV_NOTE,
	  "page tables and page data were not checked, and why" },
	{ "kernel.version-mismatch", DK_SEV_ERROR,
	  "the --kernel image's version string is not the dump's" },
	{ "kernel.build-id-mismatch", DK_SEV_ERROR,
	  "the --kernel image's build-id is not the one in the dump's memory" },
	{ "kernel.threads", DK_SEV_ERROR,
	  "the process list the kernel's symbols locate cannot be walked" },
	{ "kernel.dwarf-layout", DK_SEV_WARNING,
	  "the --kernel image's DWARF puts a member of struct proc or struct "
	  "thread outside its struct" },
	{ "kernel.unverified", DK_SEV_NOTE,
	  "the dump holds nothing to compare the --kernel image with" },
};

const size_t dk_ck_ncodes = DK_ARRAY_LEN(dk_ck_codes);

/*
 * The i-th code: the engine's, then each container's and each format's
 * in their tables' order (the compressed rows, which share one
 * validator, once).
 */
DK_EXPORT const struct dk_check_code *
dk_check_code_at(size_t i)
{
	const struct dk_format_check *prev = NULL, *ck;
	const struct dk_container_ops *co;
	const struct dk_format_ops *fo;

	if (i < dk_ck_ncodes)
		return &dk_ck_codes[i];
	i -= dk_ck_ncodes;
	for (size_t k = 0; (co = dk_container_at(k)) != NULL; k++) {
		if ((ck = co->check) == NULL || ck == prev)
			continue;
		prev = ck;
		if (i < ck->ncodes)
			return &ck->codes[i];
		i -= ck->ncodes;
	}
	for (size_t k = 0; (fo = dk_format_at(k)) != NULL; k++) {
		if ((ck = fo->check) == NULL)
			continue;
		if (i < ck->ncodes)
			return &ck->codes[i];
		i -= ck->ncodes;
	}
	return NULL;
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
/* Findings.                                                               */

static const struct dk_check_code *
code_of(const char *code)
{
	const struct dk_check_code *k;

	for (size_t i = 0; (k = dk_check_code_at(i)) != NULL; i++)
		if (strcmp(k->code, code) == 0)
			return k;
	return NULL;
}

/* Report a finding; the code's table gives the severity. */
static void	deliver(struct dk_ck *, const struct dk_finding *);

/*
 * Keep f until the one-pass stream has decoded to its end; without the
 * memory, the stream is given up (the check is then done on the spool).
 */
static void
hold(struct dk_ck *c, const struct dk_finding *f)
{
	if (c->nheld == c->capheld) {
		size_t n = c->capheld ? 2 * c->capheld : 16;
		struct dk_finding *p = realloc(c->held, n * sizeof(*p));

		if (p == NULL) {
			c->stream_ok = 0;	/* redo it on the spool */
			return;
		}
		c->held = p;
		c->capheld = n;
	}
	c->held[c->nheld++] = *f;
}

static void
emitv(struct dk_ck *c, const char *code, uint64_t off, uint64_t count,
    const char *fmt, va_list ap)
{
	const struct dk_check_code *k = code_of(code);
	struct dk_finding f;

	f.code = code;
	f.severity = k != NULL ? k->severity : DK_SEV_ERROR;
	f.has_offset = off != DK_CK_NOOFF;
	f.offset = f.has_offset ? off + c->off_shift : 0;
	f.count = count ? count : 1;
	(void)vsnprintf(f.msg, sizeof(f.msg), fmt, ap);
	if (f.severity == DK_SEV_ERROR)
		c->res->nerrors++;
	else if (f.severity == DK_SEV_WARNING)
		c->res->nwarnings++;
	else
		c->res->nnotes++;
	if (c->z != NULL) {
		hold(c, &f);
		return;
	}
	deliver(c, &f);
}

/* Give f to the caller, up to max_findings. */
static void
deliver(struct dk_ck *c, const struct dk_finding *f)
{
	if (c->o->max_findings != 0 && c->delivered >= c->o->max_findings) {
		c->res->nsuppressed++;
		return;
	}
	c->delivered++;
	if (c->o->finding != NULL)
		c->o->finding(c->o->arg, f);
}

void
dk_ck_emit(struct dk_ck *c, const char *code, uint64_t off, const char *fmt,
    ...)
{
	va_list ap;

	va_start(ap, fmt);
	emitv(c, code, off, 1, fmt, ap);
	va_end(ap);
}

void
dk_ck_emitn(struct dk_ck *c, const char *code, uint64_t off, uint64_t count,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emitv(c, code, off, count, fmt, ap);
	va_end(ap);
}

void
dk_ck_acc_add(struct dk_ck_acc *a, uint64_t off, const char *fmt, ...)
{
	va_list ap;

	if (a->n++ > 0)
		return;
	a->off = off;
	va_start(ap, fmt);
	(void)vsnprintf(a->msg, sizeof(a->msg), fmt, ap);
	va_end(ap);
}

void
dk_ck_acc_flush(struct dk_ck *c, const char *code, struct dk_ck_acc *a,
    const char *what)
{
	if (a->n == 0)
		return;
	if (a->n == 1)
		dk_ck_emit(c, code, a->off, "%s", a->msg);
	else
		dk_ck_emitn(c, code, a->off, a->n, "%s (%ju %s in all)", a->msg,
		    (uintmax_t)a->n, what);
	a->n = 0;
}

void
dk_ck_result_from_dump(struct dk_ck *ck)
{
	struct dk_check_result *res = ck->res;
	const struct dk_info *in = dk_info(ck->d);

	res->examined = 1;
	res->format = in->format;
	snprintf(res->arch, sizeof(res->arch), "%s", in->arch);
	res->version = in->version;
	res->page_size = in->page_size;
	res->npages = in->npages;
	res->npages_present = in->npages_present;
}

int
dk_ck_read(struct dk_ck *c, void *buf, size_t len, uint64_t off)
{
	struct dk_err e;

	return dk_src_pread(&c->src, buf, len, off, "data", &e) == DK_OK ?
	    0 : -1;
}

/* The slot of pa's hash chain to start at. */
static size_t
pt_slot(const struct dk_ck_paset *s, uint64_t pa)
{
	return (size_t)((pa >> 12) * 0x9e3779b185ebca87ull >> 7) &
	    (s->cap - 1);
}

int
dk_ck_pt_has(const struct dk_ck *c, uint64_t pa)
{
	const struct dk_ck_paset *s = &c->pt;

	if (s->cap == 0)
		return 0;
	for (size_t i = pt_slot(s, pa);; i = (i + 1) & (s->cap - 1)) {
		if (s->slot[i] == 0)
			return 0;
		if (s->slot[i] == pa + 1)
			return 1;
	}
}

/* Add pa to s; 1 if it was new, 0 if present, -1 out of memory. */
static int
pt_add(struct dk_ck_paset *s, uint64_t pa)
{
	for (size_t i = s->cap ? pt_slot(s, pa) : 0; s->cap != 0;
	    i = (i + 1) & (s->cap - 1)) {
		if (s->slot[i] == 0)
			break;
		if (s->slot[i] == pa + 1)
			return 0;
	}
	if (2 * (s->n + 1) > s->cap) {
		struct dk_ck_paset t = { NULL, s->cap ? 2 * s->cap : 256, 0 };

		t.slot = calloc(t.cap, sizeof(*t.slot));
		if (t.slot == NULL)
			return -1;
		for (size_t i = 0; i < s->cap; i++)
			if (s->slot[i] != 0)
				(void)pt_add(&t, s->slot[i] - 1);
		free(s->slot);
		*s = t;
	}
	for (size_t i = pt_slot(s, pa);; i = (i + 1) & (s->cap - 1))
		if (s->slot[i] == 0) {
			s->slot[i] = pa + 1;
			s->n++;
			return 1;
		}
}

int
dk_ck_pt_add(struct dk_ck *c, uint64_t pa)
{
	return pt_add(&c->pt, pa);
}

uint64_t
dk_ck_err_offset(const struct dk_err *e, uint64_t fallback)
{
	return e->offset == DK_ERR_NOOFFSET ? fallback : e->offset;
}

const char *
dk_ck_unprefixed(const struct dk_ck *c, const char *msg)
{
	size_t n = strlen(c->src.name);

	if (strncmp(msg, c->src.name, n) == 0 && msg[n] == ':' &&
	    msg[n + 1] == ' ')
		return msg + n + 2;
	return msg;
}

/* ---------------------------------------------------------------------- */
/* The library's handle.                                                   */

enum dk_status
dk_ck_open(struct dk_ck *c, struct dk_err *err)
{
	struct dk_open_opts oo = { .arch = c->o->arch, .kernel = c->o->kernel,
	    .page_size = c->o->page_size };
	enum dk_status st;

	dk_err_clear(&c->openerr);
	st = c->nset > 1 ? dk_open_set(c->set, c->nset, &oo, &c->d,
	    &c->openerr) :
	    c->inner ? dk_open_src(&c->src, &oo, &c->d, &c->openerr) :
	    c->path != NULL ? dk_open(c->path, &oo, &c->d, &c->openerr) :
	    dk_open_mem(c->mem, c->len, c->src.name, &oo, &c->d,
	    &c->openerr);
	if (st == DK_EAMBIG || st == DK_EINVAL || st == DK_ESYS ||
	    st == DK_ENOMEM) {
		*err = c->openerr;
		return st;
	}
	return DK_OK;
}

void
dk_ck_refused(struct dk_ck *c, const char *incomplete)
{
	if (c->res->nerrors == 0)
		dk_ck_emit(c, "open.refused", dk_ck_err_offset(&c->openerr,
		    DK_CK_NOOFF), "%s", dk_ck_unprefixed(c, c->openerr.msg));
	if (incomplete != NULL)
		dk_ck_emit(c, "check.incomplete", DK_CK_NOOFF, "%s: the "
		    "library does not open the file (%s)", incomplete,
		    dk_status_name(c->openerr.code));
}

/* ---------------------------------------------------------------------- */
/* Page data.                                                              */

static void
progress(struct dk_ck *c, uint64_t n)
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
	struct dk_ck_acc bad, ioerr;
	uint8_t		*exp;		/* a page of the pattern */
	int		 pattern;
};

/*
 * n bytes of pages read at pa (file offset off, or DK_CK_NOOFF for pages
 * that have none): hashed for --checksum, compared with the pattern for
 * --pattern (page-table pages excepted: they hold page tables).
 */
static void
content_chunk(struct dk_ck *c, struct content *k, uint64_t pa,
    const uint8_t *buf, size_t n, uint64_t off)
{
	size_t page = (size_t)c->d->page_size;

	for (size_t p = 0; p < n; p += page) {
		if (c->o->checksum)
			dk_digest_page(&k->g, pa + p, buf + p);
		if (!k->pattern || dk_ck_pt_has(c, pa + p))
			continue;
		dk_pattern_fill(c->o->seed, pa + p, k->exp, page);
		if (memcmp(buf + p, k->exp, page) != 0) {
			size_t i = 0;

			while (buf[p + i] == k->exp[i])
				i++;
			dk_ck_acc_add(&k->bad,
			    off == DK_CK_NOOFF ? DK_CK_NOOFF : off + p + i,
			    "pa %#jx: expected %#04x (pattern seed %ju), "
			    "found %#04x", (uintmax_t)(pa + p + i), k->exp[i],
			    (uintmax_t)c->o->seed, buf[p + i]);
		}
	}
	progress(c, n);
}

void
dk_ck_content(struct dk_ck *c, uint64_t pend, int pattern)
{
	struct dk_dump *d = c->d;
	struct dk_run_iter it = { 0 };
	struct dk_run r;
	uint64_t page = d->page_size;
	struct content k = { .pattern = pattern };
	uint8_t *buf = malloc(DK_CK_CHUNK);
	size_t step;

	k.exp = malloc((size_t)page);
	if (buf == NULL || k.exp == NULL) {
		free(buf);
		free(k.exp);
		return;
	}
	if (c->o->checksum)
		dk_digest_init(&k.g, (size_t)page);
	dk_src_sequential(&d->src);	/* the pages, in order from here */
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
			for (uint64_t done = 0; done < r.len;
			    done += DK_CK_CHUNK) {
				size_t n = r.len - done < DK_CK_CHUNK ?
				    (size_t)(r.len - done) : DK_CK_CHUNK;
				struct dk_err e;

				if (dk_read_pa(d, r.pa + done, buf, n, &e) !=
				    DK_OK) {
					dk_ck_acc_add(&k.ioerr,
					    dk_ck_err_offset(&e, DK_CK_NOOFF),
					    "pages at pa %#jx: %s",
					    (uintmax_t)(r.pa + done),
					    dk_ck_unprefixed(c, e.msg));
					continue;
				}
				c->res->bytes_read += n;
				content_chunk(c, &k, r.pa + done, buf, n,
				    DK_CK_NOOFF);
			}
			continue;
		}
		/* Past the stored pages (a truncated file): not read. */
		if (r.offset >= pend)
			continue;
		if (r.offset + r.len > pend)
			r.len = pend - r.offset;
		for (uint64_t done = 0; done < r.len; done += step) {
			const uint8_t *p = buf;
			size_t n = r.len - done < DK_CK_CHUNK ? (size_t)(r.len -
			    done) : DK_CK_CHUNK, m = n;
			struct dk_err e;

			step = n;
			/* A one-pass stream's pages, hashed where they are. */
			if (d->src.z != NULL && dk_zsrc_peek(d->src.z,
			    r.offset + done, &p, &m, &e) == DK_OK && m >= page) {
				step = m / page * page;
				c->res->bytes_read += step;
				content_chunk(c, &k, r.pa + done, p, step,
				    r.offset + done);
				continue;
			}
			if (dk_src_pread(&d->src, buf, n, r.offset + done,
			    "page data", &e) != DK_OK) {
				dk_ck_acc_add(&k.ioerr, r.offset + done,
				    "pages at pa %#jx: %s",
				    (uintmax_t)(r.pa + done),
				    dk_ck_unprefixed(c, e.msg));
				continue;
			}
			c->res->bytes_read += n;
			content_chunk(c, &k, r.pa + done, buf, n,
			    r.offset + done);
		}
	}
	dk_ck_acc_flush(c, "content.read-error", &k.ioerr, "chunks");
	dk_ck_acc_flush(c, "content.pattern-mismatch", &k.bad, "pages");
	if (c->o->checksum) {
		dk_digest_final(&k.g, c->res->checksum);
		c->res->has_checksum = 1;
	}
	free(buf);
	free(k.exp);
}

/* ---------------------------------------------------------------------- */
/* The driver.                                                             */

/*
 * The stream, its containers peeled: the format whose validator ranks
 * it highest (the first of the table among equals) checks it.
 */
static enum dk_status
check_run(struct dk_ck *c, struct dk_err *err)
{
	struct dk_open_opts oo = { .arch = c->o->arch, .kernel = c->o->kernel,
	    .page_size = c->o->page_size };
	const struct dk_format_check *prev = NULL, *best = NULL;
	const struct dk_container_ops *co;
	const struct dk_format_ops *fo;
	enum dk_status st;
	int rank = 0;

	for (size_t i = 0; (co = dk_container_at(i)) != NULL && !c->stop;
	    i++) {
		if (co->check == NULL || co->check == prev)
			continue;	/* the compressed rows share one */
		prev = co->check;
		if ((st = co->check->check(c, err)) != DK_OK)
			return st;
	}
	c->res->file_size = c->src.size;
	if (c->stop)
		return DK_OK;
	for (size_t i = 0; (fo = dk_format_at(i)) != NULL; i++) {
		int r = fo->check != NULL && fo->check->probe != NULL ?
		    fo->check->probe(&c->src, &oo) : 0;

		if (r > rank) {
			rank = r;
			best = fo->check;
		}
	}
	if (best == NULL) {
		/* A format the library reads but no validator checks yet. */
		struct dk_dump *d;
		struct dk_err e;

		if (dk_open_src(&c->src, &oo, &d, &e) == DK_OK) {
			st = dk_err_at(err, DK_EUNSUP, c->src.name, 0, "a %s "
			    "file: dumpkit reads it (dumpinfo describes it) "
			    "but has no validator for it yet",
			    dk_info(d)->format);
			dk_close(d);
			return st;
		}
	}
	if (best == NULL && (st = dk_recognize(&c->src, err)) != DK_NOMATCH)
		return st;
	if (best == NULL)
		return dk_err_at(err, DK_EUNSUP, c->src.name, 0, "not a dump "
		    "format dumpkit knows (expected a minidump magic "
		    "\"minidump FreeBSD/<arch>\" or an ELF core with dumpkit "
		    "notes; a damaged sparc64 dump needs --arch sparc64)");
	return best->check(c, err);
}

static void
ck_free(struct dk_ck *c)
{
	dk_close(c->d);
	dk_zsrc_close(c->z);
	free(c->held);
	if (c->unz_fd >= 0)
		close(c->unz_fd);
	free(c->pt.slot);
}

static void
ck_init(struct dk_ck *c, const struct dk_check_opts *o,
    struct dk_check_result *res)
{
	memset(c, 0, sizeof(*c));
	memset(res, 0, sizeof(*res));
	c->o = o;
	c->res = res;
	c->src.fd = -1;
	c->unz_fd = -1;
}

DK_EXPORT enum dk_status
dk_check(const char *path, const struct dk_check_opts *o,
    struct dk_check_result *res, struct dk_err *err)
{
	struct dk_ck c;
	struct dk_src orig;
	struct dk_err e;
	enum dk_status st;
	int fd;

	dk_err_clear(err);
	ck_init(&c, o, res);
	c.src.name = path;
	c.path = path;
	if ((st = dk_src_open(path, &c.src, err)) != DK_OK)
		return st;
	fd = c.src.fd;
	if (strcmp(path, "-") == 0) {
		/* Standard input can be read once: open on its copy. */
		c.src.name = "standard input";
		c.inner = 1;
	}
	(void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	orig = c.src;
	c.stream_ok = !c.inner;		/* standard input is spooled already */
	st = check_run(&c, err);
	if (c.z != NULL && (!c.stream_ok || dk_zsrc_end(c.z, &e) != DK_OK)) {
		/* The stream does not decode: check what the spool holds. */
		ck_free(&c);
		ck_init(&c, o, res);
		c.src = orig;
		c.path = path;
		dk_err_clear(err);
		st = check_run(&c, err);
	}
	for (size_t i = 0; i < c.nheld; i++)
		deliver(&c, &c.held[i]);
	ck_free(&c);
	close(fd);
	return st;
}

DK_EXPORT enum dk_status
dk_check_set(const char *const *paths, size_t n,
    const struct dk_check_opts *o, struct dk_check_result *res,
    struct dk_err *err)
{
	struct dk_ck c;
	enum dk_status st;
	int fd;

	if (n == 1)
		return dk_check(paths[0], o, res, err);
	dk_err_clear(err);
	ck_init(&c, o, res);
	if (n == 0)
		return dk_err_set(err, DK_EINVAL, "no file to check");
	c.src.name = paths[0];
	c.path = paths[0];
	c.set = paths;
	c.nset = n;
	if ((st = dk_src_open(paths[0], &c.src, err)) != DK_OK)
		return st;
	fd = c.src.fd;
	st = check_run(&c, err);
	/* A validator that knows no sets leaves them unchecked: refuse. */
	if (st == DK_OK && !c.set_done)
		st = dk_err_set(err, DK_EINVAL, "%s: a %s dump is one file; "
		    "%zu were given as one dump", paths[0], res->format != NULL ?
		    res->format : "", n);
	ck_free(&c);
	close(fd);
	return st;
}

DK_EXPORT enum dk_status
dk_check_mem(const void *buf, size_t len, const char *name,
    const struct dk_check_opts *o, struct dk_check_result *res,
    struct dk_err *err)
{
	struct dk_ck c;
	enum dk_status st;

	dk_err_clear(err);
	ck_init(&c, o, res);
	c.src.name = name;
	c.src.mem = buf;
	c.src.size = len;
	c.mem = buf;
	c.len = len;
	st = check_run(&c, err);
	ck_free(&c);
	return st;
}
