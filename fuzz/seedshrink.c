/*
 * seedshrink -- rewrite a generated minidump as a small fuzzing seed.
 *
 *	seedshrink [--pages N] [--pmap BYTES] [--seed N] IN OUT
 *
 * dumpgen's smallest fixtures are still megabytes (the kernel image is
 * at least one 2 MiB large page, the msgbuf is 96 KiB); a fuzzer mutates
 * a small input far better.  The output is a valid minidump of the same
 * architecture row, version and header values, with
 *
 *  - the msgbuf cut to the text it holds (at most 4032 bytes),
 *  - the page-table area cut to BYTES (default 16 KiB), which shortens
 *    the kernel map it describes,
 *  - the same dump_avail ranges and bitmap size, but at most N dumped
 *    pages (default: 24 KiB of pages, and at least 2): first every page that is not the fixture pattern
 *    of dk_pattern_fill() for the seed (the page-table pages amd64 v2+
 *    walks), then the first pages of the extents of the remaining kernel
 *    map, then the first page of each run of the input.
 *
 * Uses the library's private writer (minidump.h): a tool of the fuzz
 * directory, not installed.  Exit status: 0 written, 1 failed, 2 usage.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "minidump.h"
#include "private.h"

#define	SS_MSGBUF_MAX	4032u		/* a page less 64: not page-aligned */
#define	SS_VA_STEPS	(1u << 20)	/* pages of KVA walked at most */
#define	SS_PAGE_BYTES	(24u << 10)	/* default bytes of pages kept */

struct shrink {
	struct dk_dump	*d;
	struct dk_bitmap bm;		/* the pages kept */
	uint64_t	 seed;
	size_t		 budget;	/* pages still to keep */
	uint8_t		*page;		/* one page of scratch */
	uint8_t		*pat;		/* one page of scratch */
};

/* The bitmap bit of pa, or UINT64_MAX if pa is in no range. */
static uint64_t
pa_bit(const struct dk_dump *d, uint64_t pa)
{
	for (size_t i = 0; i < d->navail; i++)
		if (pa >= d->avail[i].start && pa < d->avail[i].end)
			return dk_md(d)->avail_bit[i] + (pa >> d->page_shift) -
			    (d->avail[i].start >> d->page_shift);
	return UINT64_MAX;
}

/* Keep the page holding pa if it is dumped, new, and the budget allows. */
static void
keep(struct shrink *s, uint64_t pa)
{
	uint64_t bit = pa_bit(s->d, pa);

	if (s->budget == 0 || bit == UINT64_MAX ||
	    !dk_bitmap_test(&dk_md(s->d)->bm, bit) || dk_bitmap_test(&s->bm, bit))
		return;
	dk_bitmap_set(&s->bm, bit);
	s->budget--;
}

/* Pages whose content is not the fixture pattern: page-table pages. */
static void
keep_tables(struct shrink *s)
{
	struct dk_dump *d = s->d;
	struct dk_run_iter it = { 0 };
	struct dk_run run;
	struct dk_err err;

	while (s->budget > 0 && dk_run_next(d, &it, &run))
		for (uint64_t o = 0; o < run.len && s->budget > 0;
		    o += d->page_size) {
			if (dk_read_pa(d, run.pa + o, s->page, d->page_size,
			    &err) != DK_OK)
				continue;
			dk_pattern_fill(s->seed, run.pa + o, s->pat,
			    d->page_size);
			if (memcmp(s->page, s->pat, d->page_size) != 0)
				keep(s, run.pa + o);
		}
}

/* The first two pages of the first extent, then one of each extent. */
static void
keep_kernel_map(struct shrink *s, uint64_t va_end)
{
	struct dk_dump *d = s->d;
	uint64_t va = d->info.kernbase, pa, inext = 0;
	struct dk_err err;
	int mapped = 0, extents = 0;

	for (uint64_t k = 0; k < SS_VA_STEPS && va < va_end && s->budget > 0;
	    k++, va += d->page_size) {
		if (dk_kvtop(d, va, &pa, &err) != DK_OK) {
			mapped = 0;
			continue;
		}
		if (!mapped) {
			extents++;
			inext = 0;
		}
		if (inext == 0 || (extents == 1 && inext == 1))
			keep(s, pa);
		inext++;
		mapped = 1;
	}
}

static void
keep_runs(struct shrink *s)
{
	struct dk_run_iter it = { 0 };
	struct dk_run run;

	while (s->budget > 0 && dk_run_next(s->d, &it, &run))
		keep(s, run.pa);
}

static enum dk_status
fill(void *arg, uint64_t pa, uint8_t *buf, size_t len, struct dk_err *err)
{
	return dk_read_pa(arg, pa, buf, len, err);
}

static int
usage(void)
{
	fprintf(stderr, "usage: seedshrink [--pages N] [--pmap BYTES] "
	    "[--seed N] IN OUT\n");
	return 2;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "pages", required_argument, NULL, 'n' },
		{ "pmap", required_argument, NULL, 'p' },
		{ "seed", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	struct shrink s;
	struct dk_md_spec spec;
	struct dk_out out;
	struct dk_err err;
	struct dk_dump *d, *check;
	uint64_t npages = 0, pmapcap = 16384, msgsize, pmapsize, va_end, n;
	uint8_t *msgbuf = NULL, *pmap = NULL;
	size_t got;
	enum dk_status st;
	int c;

	memset(&s, 0, sizeof(s));
	s.seed = 1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (dk_parse_u64(optarg, &npages) != 0 || npages == 0)
				return usage();
			break;
		case 'p':
			if (dk_parse_size(optarg, &pmapcap) != 0)
				return usage();
			break;
		case 's':
			if (dk_parse_u64(optarg, &s.seed) != 0)
				return usage();
			break;
		default:
			return usage();
		}
	}
	if (argc - optind != 2)
		return usage();
	if (dk_open(argv[optind], NULL, &d, &err) != DK_OK) {
		fprintf(stderr, "seedshrink: %s\n", err.msg);
		return 1;
	}
	s.d = d;
	if (npages == 0)
		npages = SS_PAGE_BYTES / d->page_size < 2 ? 2 :
		    SS_PAGE_BYTES / d->page_size;
	s.budget = (size_t)npages;
	s.page = malloc(d->page_size);
	s.pat = malloc(d->page_size);
	if (s.page == NULL || s.pat == NULL ||
	    dk_bitmap_init(&s.bm, dk_md(d)->bm.nbits, &err) != DK_OK) {
		fprintf(stderr, "seedshrink: out of memory\n");
		return 1;
	}

	/* The msgbuf: its text, without the zeros after it. */
	msgsize = d->hdr.v[DK_H_MSGBUFSIZE];
	if (msgsize > SS_MSGBUF_MAX)
		msgsize = SS_MSGBUF_MAX;
	msgbuf = calloc(1, msgsize + 1);
	if (msgbuf == NULL || dk_read_msgbuf(d, msgbuf, msgsize, &got,
	    &err) != DK_OK) {
		fprintf(stderr, "seedshrink: msgbuf: %s\n", err.msg);
		return 1;
	}
	for (n = got; n > 0 && msgbuf[n - 1] == 0; n--)
		;
	msgsize = (n + 64) & ~(uint64_t)63;
	if (msgsize > got)
		msgsize = got;

	/* The page-table area: its first pmapcap bytes, in whole pages. */
	pmapsize = d->hdr.v[DK_H_PMAPSIZE];
	pmapcap &= ~(d->page_size - 1);
	va_end = d->info.kva_end;
	if (pmapsize > pmapcap && pmapcap > 0) {
		va_end = d->info.kernbase + (d->info.kva_end -
		    d->info.kernbase) / pmapsize * pmapcap;
		pmapsize = pmapcap;
	}
	pmap = malloc(pmapsize ? pmapsize : 1);
	if (pmap == NULL || dk_src_pread(&d->src, pmap, pmapsize, dk_md(d)->off_pmap,
	    "pmap", &err) != DK_OK) {
		fprintf(stderr, "seedshrink: pmap: %s\n", err.msg);
		return 1;
	}

	keep_tables(&s);
	keep_kernel_map(&s, va_end);
	keep_runs(&s);
	if (dk_bitmap_index(&s.bm, &err) != DK_OK) {
		fprintf(stderr, "seedshrink: %s\n", err.msg);
		return 1;
	}

	memset(&spec, 0, sizeof(spec));
	spec.arch = d->arch;
	spec.version = d->info.version;
	spec.hdr = d->hdr;
	spec.page_shift = d->page_shift;
	spec.msgbuf = msgbuf;
	spec.msgbufsize = msgsize;
	spec.avail = d->avail;
	spec.navail = d->navail;
	spec.bm = &s.bm;
	spec.pmap = pmap;
	spec.pmapsize = pmapsize;
	spec.fill = fill;
	spec.fill_arg = d;
	st = dk_out_open(&out, argv[optind + 1], 1, &err);
	if (st == DK_OK) {
		st = dk_md_write(&spec, out.fd, argv[optind + 1], &err);
		if (st == DK_OK)
			st = dk_out_commit(&out, &err);
		else
			dk_out_abort(&out);
	}
	if (st != DK_OK) {
		fprintf(stderr, "seedshrink: %s\n", err.msg);
		return 1;
	}

	/* The seed must still open as the same kind of dump. */
	if (dk_open(argv[optind + 1], NULL, &check, &err) != DK_OK) {
		fprintf(stderr, "seedshrink: %s does not open: %s\n",
		    argv[optind + 1], err.msg);
		return 1;
	}
	if (strcmp(dk_info(check)->arch, d->info.arch) != 0 ||
	    dk_info(check)->version != d->info.version ||
	    dk_info(check)->npages != s.bm.count) {
		fprintf(stderr, "seedshrink: %s reopens as %s version %u with "
		    "%ju pages\n", argv[optind + 1], dk_info(check)->arch,
		    dk_info(check)->version,
		    (uintmax_t)dk_info(check)->npages);
		return 1;
	}
	printf("%s: %s version %u, %ju bytes, %ju pages, msgbuf %ju, pmap "
	    "%ju\n", argv[optind + 1], d->info.arch, d->info.version,
	    (uintmax_t)dk_info(check)->file_size, (uintmax_t)s.bm.count,
	    (uintmax_t)msgsize, (uintmax_t)pmapsize);
	dk_close(check);
	dk_close(d);
	dk_bitmap_free(&s.bm);
	free(s.page);
	free(s.pat);
	free(msgbuf);
	free(pmap);
	return 0;
}
