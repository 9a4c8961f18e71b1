/*
 * kmap.c -- walk the kernel map as runs that are contiguous in virtual
 * memory, in physical memory and in the file, with one protection.  The
 * portable format's virtual PT_LOAD segments are these runs.
 *
 * The walk asks a translation page by page from kernbase to kva_end: a
 * minidump family's kvtop (to the end of the page-table area), or a full
 * ELF core's page-table walk (fmt_elf.c, to the top of the address
 * space); where it knows a whole block is unmapped (an invalid amd64
 * PDE) it says so in d->unmapped_to and the walk jumps over it.  The
 * pmap area is read through a one-block cache.  A page whose entry
 * dumpkit cannot translate (DK_EUNSUP: an ARMv4 1 KiB tiny page) ends
 * a run like an unmapped one: one such entry is a hole in the virtual
 * segments, not a failed conversion.
 */
#include "private.h"

/*
 * The walk's budget of translations.  A family that knows a whole block
 * is unmapped says so (d->unmapped_to) and the walk jumps over it; one
 * that cannot (a hashed page table, a tree whose invalid upper entries
 * it does not report) makes the walk ask for every page of
 * [kernbase, kva_end), which can be 2^39 pages (powerpc64 radix).  A
 * dump of real page tables needs at most a few lookups per page-table
 * entry and per stored page (a page-table page describes 512 pages), so
 * beyond KMAP_PROBES_BASE + KMAP_PROBES_PER x (entries + pages) the walk
 * stops with DK_ELIMIT rather than run for hours: the caller can leave
 * the virtual segments out (dumpconv --no-virtual).
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
	ok = tr(d, va, pa, prot, err) == DK_OK &&
	    d->fmt->pa_offset(d, *pa, off, err) == DK_OK;
	d->probing = 0;
	/* A page dumped as zeros and left out is no stored page. */
	return ok && *off != DK_OFF_ZERO;
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
		 * runs, as an unmapped page is; dumpcheck reports it.
		 */
		if (err->code != DK_ENOTMAPPED && err->code != DK_ENOTDUMPED &&
		    err->code != DK_ETRUNC && err->code != DK_EUNSUP) {
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
	run->len = ps;
	/* Extend while the next page continues the run. */
	for (it->va += ps; it->va < end && it->va != 0; it->va += ps) {
		uint64_t npa, noff;
		unsigned nprot;

		if (!page_at(d, it, tr, it->va, &npa, &noff, &nprot, err) ||
		    npa != run->pa + run->len ||
		    noff != run->offset + run->len || nprot != run->prot)
			break;
		run->len += ps;
	}
	if (it->va == 0)
		it->done = 1;	/* wrapped past the top of the address space */
	dk_err_clear(err);
	return 1;
}
