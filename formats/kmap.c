/*
 * kmap.c -- walk the kernel map as runs that are contiguous in virtual
 * memory, in physical memory and in the file, with one protection.  The
 * portable format's virtual PT_LOAD segments are these runs.
 *
 * The walk asks a translation page by page from kernbase to kva_end: a
 * minidump family's kvtop (to the end of the page-table area), or a full
 * ELF core's page-table walk (fmt_elf.c, to the top of the address
 * space).  Its cost follows the entries the page tables hold, not the
 * size of the range: where a translation knows a whole block is
 * unmapped (an invalid upper-level entry, a table page the dump lacks,
 * a radix subtree, a hashed-table segment or 8 MiB block with no valid
 * entry, the rest of a page-table area cut short) it says so in
 * d->unmapped_to and the walk jumps over it; where a large leaf maps
 * pages the file lacks (d->mapped_to), the format's pa_next gives the
 * next stored one, and the pages of a large leaf the file stores one
 * after another (pa_span) join a run in one step, not a probe each.  Page-table pages are read whole, once, through a
 * cache (dk_read_pt), and the pmap area a block at a time.  A page whose
 * entry dumpkit cannot translate (DK_EUNSUP: an ARMv4 1 KiB tiny page)
 * ends a run like an unmapped one: one such entry is a hole in the
 * virtual segments, not a failed conversion.
 */
#include <stdlib.h>
#include <string.h>

#include "private.h"

/*
 * The walk's budget of translations, a guard against a walk the hints
 * above do not cover (a full core's tree whose invalid upper entries
 * its walk does not report): a dump of real page tables needs at most a
 * few lookups per page-table entry and per stored page (tests/check_work.c
 * holds every family to four), so beyond KMAP_PROBES_BASE +
 * KMAP_PROBES_PER x (entries + pages) the walk stops with DK_ELIMIT
 * rather than run for hours: the caller can leave the virtual segments
 * out (dumpconv --no-virtual).
 */
#define	KMAP_PROBES_BASE	(1ull << 24)
#define	KMAP_PROBES_PER		512ull

static uint64_t
budget(const struct dk_dump *d)
{
	return KMAP_PROBES_BASE + KMAP_PROBES_PER * (d->pt_nent +
	    d->info.npages);
}

/* The run at va, if va is mapped to a stored page; else 0. */
static int
page_at(struct dk_dump *d, struct dk_kmap_iter *it, dk_kvtop_prot_fn tr,
    uint64_t va, uint64_t *pa, uint64_t *off, unsigned *prot,
    struct dk_err *err)
{
	int ok;

	if (++it->probes > budget(d)) {
		dk_err_set(err, DK_ELIMIT, "the kernel map [%#jx, %#jx) "
		    "needs more than %ju translations to walk (stopped at "
		    "%#jx): its page tables do not tell which blocks are "
		    "unmapped; leave the virtual segments out (dumpconv "
		    "--no-virtual)",
		    (uintmax_t)d->info.kernbase, (uintmax_t)d->info.kva_end,
		    (uintmax_t)budget(d), (uintmax_t)va);
		return 0;
	}
	/* A miss is an answer here: its message is not built. */
	d->probing = 1;
	d->mapped_to = 0;
	ok = tr(d, va, pa, prot, err) == DK_OK;
	if (ok && d->fmt->pa_offset(d, *pa, off, err) != DK_OK) {
		ok = 0;
		/*
		 * A large leaf over pages the file lacks: go on at the
		 * first page of it that the file stores, or past it.
		 */
		if (d->mapped_to > va && d->fmt->pa_next != NULL &&
		    (err->code == DK_ENOTDUMPED || err->code == DK_ETRUNC)) {
			uint64_t ps = d->page_size, p0 = *pa & ~(ps - 1);
			uint64_t n = d->fmt->pa_next(d, p0 + ps);

			d->unmapped_to = n == UINT64_MAX || n < p0 ||
			    n - p0 >= d->mapped_to - va ? d->mapped_to :
			    va + (n - p0);
		}
	}
	d->probing = 0;
	/* A page dumped as zeros and left out is no stored page. */
	return ok && *off != DK_OFF_ZERO;
}

/*
 * After page_at found va stored at pa: the bytes of the rest of its
 * large leaf (d->mapped_to) that the file stores right after pa's, up
 * to end, in whole pages; the walk adds them to the run without a probe
 * each, as probing them would have (one entry: one protection, the
 * physical pages consecutive).  0 without a leaf or without pa_span.
 */
static uint64_t
leaf_rest(struct dk_dump *d, uint64_t va, uint64_t pa, uint64_t end)
{
	uint64_t ps = d->page_size, to = d->mapped_to, n;

	if (d->fmt->pa_span == NULL || to <= va || to - va <= ps)
		return 0;
	if (to > end)
		to = end;
	if (to <= va || (pa & (ps - 1)) != 0)
		return 0;
	n = d->fmt->pa_span(d, pa, to - va) & ~(ps - 1);
	return n > ps ? n - ps : 0;
}

int
dk_kmap_next(struct dk_dump *d, struct dk_kmap_iter *it,
    struct dk_kmap_run *run, struct dk_err *err)
{
	dk_err_clear(err);
	if (d->fmt->kmap_next == NULL)		/* no kernel map to list */
		return 0;
	return d->fmt->kmap_next(d, it, run, err);
}

int
dk_kmap_walk(struct dk_dump *d, struct dk_kmap_iter *it,
    struct dk_kmap_run *run, dk_kvtop_prot_fn tr, struct dk_err *err)
{
	uint64_t end = d->info.kva_end, ps = d->page_size;
	uint64_t pa, off;
	unsigned prot;

	dk_err_clear(err);
	if (it->done)
		return 0;
	if (it->va == 0)
		it->va = d->info.kernbase & ~(ps - 1);
	/* Find the first stored page. */
	for (;;) {
		if (it->va >= end || it->va < d->info.kernbase) {
			it->done = 1;
			dk_err_clear(err);	/* the end, not an error */
			return 0;
		}
		d->unmapped_to = 0;
		if (page_at(d, it, tr, it->va, &pa, &off, &prot, err))
			break;
		/*
		 * An entry the translation does not decode (an ARMv4 1 KiB
		 * tiny page, a V4 fine table: DK_EUNSUP) is a hole in the
		 * runs, as an unmapped page is; dumpcheck reports it.  So is
		 * a page dumped as zeros and left out (DK_OK, no offset).
		 */
		if (err->code != DK_OK && err->code != DK_ENOTMAPPED &&
		    err->code != DK_ENOTDUMPED && err->code != DK_ETRUNC &&
		    err->code != DK_EUNSUP) {
			it->done = 1;
			return 0;
		}
		if (d->unmapped_to > it->va)
			it->va = d->unmapped_to;
		else
			it->va += ps;
	}
	run->va = it->va;
	run->pa = pa;
	run->offset = off;
	run->prot = prot;
	run->len = ps + leaf_rest(d, it->va, pa, end);
	/* Extend while the next page continues the run. */
	for (it->va += run->len; it->va < end && it->va != 0; ) {
		uint64_t npa, noff, more;
		unsigned nprot;

		if (!page_at(d, it, tr, it->va, &npa, &noff, &nprot, err) ||
		    npa != run->pa + run->len ||
		    noff != run->offset + run->len || nprot != run->prot)
			break;
		more = ps + leaf_rest(d, it->va, npa, end);
		run->len += more;
		it->va += more;
	}
	if (it->va == 0)
		it->done = 1;	/* wrapped past the top of the address space */
	dk_err_clear(err);
	return 1;
}

/*
 * Fill slot k of the page-table cache with the page at the page-aligned
 * pa: DK_OK, DK_NOMATCH when the page is not one stretch of the file
 * (a page split between segments, the partial page at the end of a
 * cut file: read it with dk_read_pa), or the lookup's miss.
 */
static enum dk_status
pt_fill(struct dk_dump *d, uint64_t pa, uint8_t *page, struct dk_err *err)
{
	uint64_t ps = d->page_size, off, last;
	enum dk_status st;

	if ((st = d->fmt->pa_offset(d, pa, &off, err)) != DK_OK)
		return st;
	if (off == DK_OFF_ZERO) {		/* dumped as zeros, left out */
		memset(page, 0, (size_t)ps);
		return DK_OK;
	}
	if (off == DK_OFF_PAGED)
		return d->fmt->read_page == NULL ? DK_NOMATCH :
		    d->fmt->read_page(d, pa, page, err);
	if (off > d->src.size || d->src.size - off < ps ||
	    d->fmt->pa_offset(d, pa + ps - 1, &last, err) != DK_OK ||
	    last != off + ps - 1) {
		dk_err_clear(err);
		return DK_NOMATCH;
	}
	return dk_src_pread(&d->src, page, (size_t)ps, off, "page-table page",
	    err);
}

enum dk_status
dk_read_pt(struct dk_dump *d, uint64_t pa, void *buf, size_t len,
    struct dk_err *err)
{
	struct dk_pcache *c = &d->ptc;
	uint64_t ps = d->page_size, base = pa & ~(ps - 1);
	unsigned k;
	enum dk_status st;

	if ((pa & (ps - 1)) + len > ps)
		return dk_read_pa(d, pa, buf, len, err);
	if (c->buf == NULL) {
		if ((c->buf = malloc(DK_PCACHE_N * ps)) == NULL)
			return dk_err_set(err, DK_ENOMEM, "%s: out of memory",
			    d->src.name);
		for (k = 0; k < DK_PCACHE_N; k++)
			c->pa[k] = UINT64_MAX;
	}
	for (k = 0; k < DK_PCACHE_N; k++)
		if (c->pa[k] == base) {
			c->hits++;
			memcpy(buf, c->buf + k * ps + (pa - base), len);
			return DK_OK;
		}
	k = c->next;
	c->next = (k + 1) % DK_PCACHE_N;
	c->pa[k] = UINT64_MAX;
	st = pt_fill(d, base, c->buf + k * ps, err);
	if (st == DK_NOMATCH)
		return dk_read_pa(d, pa, buf, len, err);
	if (st != DK_OK)
		return st;
	c->misses++;		/* a page read: what a walk's reads cost */
	c->pa[k] = base;
	memcpy(buf, c->buf + k * ps + (pa - base), len);
	return DK_OK;
}
