/*
 * check_work.c -- the work a walk does is bounded by what the dump holds
 * (issue 17), counted, not timed: translations the kernel-map walk asks
 * (struct dk_kmap_iter's probes) and page-table pages it reads (the
 * page-table cache's misses, d->ptc).
 *
 * Every minidump variant, intact, cut at the start and in the middle of
 * its pages (the page-table pages a tree points at are then missing: the
 * truncated powerpc64 radix dump of the issue asked 21 million
 * translations), and with its page-table area overwritten with noise and
 * with all-ones: the walk ends, and asks at most a few translations per
 * page-table entry it read (the area's entries and those of each table
 * page it read) and per stored page.  A table page is read once, not an
 * entry at a time: misses at most the pages the walk could read.
 * The way back from a --drop-zero portable file asks the file system
 * where its data is a few times (the sink's seeks), not once per run.
 * CHECK_WORK_PRINT=1 prints each case's figures.
 */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen.h"
#include "gen_elf.h"
#include "minidump.h"
#include "private.h"
#include "sample.h"

/* Translations per entry read and per stored page, and a constant. */
#define	WORK_PER	4ull
#define	WORK_BASE	64ull

static char tmpdir[256];

static void
setup_tmp(void)
{
	const char *t = getenv("TMPDIR");

	snprintf(tmpdir, sizeof(tmpdir), "%s/dkwork.XXXXXX", t ? t : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

/* The fixture of variant v, in memory (*len bytes). */
static uint8_t *
load(const struct fx_variant *v, size_t *len)
{
	struct fx_opts o = { .arch = v->arch, .version = v->version,
	    .variant = v->variant, .mem = 64u << 20, .seed = 11 };
	struct fx_dump f;
	struct dk_err err;
	struct stat st;
	char path[300];
	uint8_t *buf;
	int fd;

	setup_tmp();
	snprintf(path, sizeof(path), "%s/dump", tmpdir);
	ck_assert_int_eq(fx_build(&o, &f, &err), DK_OK);
	ck_assert_int_eq(fx_write(&f, path, 0, &err), DK_OK);
	fx_free(&f);
	fd = open(path, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fstat(fd, &st), 0);
	buf = malloc((size_t)st.st_size);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(pread(fd, buf, (size_t)st.st_size, 0), st.st_size);
	close(fd);
	unlink(path);
	rmdir(tmpdir);
	*len = (size_t)st.st_size;
	return buf;
}

static const struct dk_section *
section(struct dk_dump *d, const char *name)
{
	for (size_t i = 0; i < dk_nsections(d); i++)
		if (strcmp(dk_section(d, i)->name, name) == 0)
			return dk_section(d, i);
	return NULL;
}

/* The entries of d's pmap area in img (len bytes) that are not zero. */
static uint64_t
nonzero_entries(struct dk_dump *d, const uint8_t *img, size_t len)
{
	const struct dk_section *pm = section(d, "pmap");
	unsigned w = dk_md(d)->pte_size;
	uint64_t n = 0, end;

	ck_assert_ptr_nonnull(pm);
	end = pm->offset + pm->size < len ? pm->offset + pm->size : len;
	for (uint64_t k = pm->offset; k + w <= end; k += w)
		for (unsigned b = 0; b < w; b++)
			if (img[k + b] != 0) {
				n++;
				break;
			}
	return n;
}

/*
 * Walk the kernel map of img (len bytes, a copy is opened) to its end
 * and hold the work against the bound; *runs gets the runs found.
 */
static void
walk(const struct fx_variant *v, const uint8_t *img, size_t len,
    const char *what, uint64_t *runs)
{
	struct dk_open_opts o = { .arch = v->arch };
	struct dk_kmap_iter it = { 0, 0, 0 };
	struct dk_kmap_run r;
	struct dk_dump *d;
	struct dk_err err;
	uint8_t *copy = malloc(len);
	uint64_t entries, bound, ps;

	ck_assert_ptr_nonnull(copy);
	memcpy(copy, img, len);
	ck_assert_msg(dk_open_mem(copy, len, what, &o, &d, &err) == DK_OK,
	    "%s %s v%u %s: %s", what, v->arch, v->version, v->variant,
	    err.msg);
	*runs = 0;
	while (dk_kmap_next(d, &it, &r, &err))
		(*runs)++;
	ck_assert_msg(err.code == DK_OK, "%s %s v%u %s: %s", what, v->arch,
	    v->version, v->variant, err.msg);
	ps = d->page_size;
	/*
	 * The area's entries that are not zero (a run of zero entries is
	 * crossed in one step), as the file holds them, and those of each
	 * table page read; not the stored pages: a large leaf's pages are
	 * taken in one step too.
	 */
	entries = nonzero_entries(d, img, len) + d->ptc.misses * (ps / 8);
	bound = WORK_BASE + WORK_PER * entries;
	if (getenv("CHECK_WORK_PRINT") != NULL)
		printf("%-12s v%u %-7s %-14s probes %9ju bound %9ju pt_nent "
		    "%7ju nonzero %7ju table pages %5ju (hits %7ju) pages %6ju "
		    "runs %ju\n", v->arch, v->version, v->variant, what,
		    (uintmax_t)it.probes, (uintmax_t)bound,
		    (uintmax_t)d->pt_nent, (uintmax_t)nonzero_entries(d, img,
		    len), (uintmax_t)d->ptc.misses,
		    (uintmax_t)d->ptc.hits, (uintmax_t)d->info.npages_present,
		    (uintmax_t)*runs);
	ck_assert_msg(it.probes <= bound, "%s %s v%u %s: %ju translations, "
	    "more than %ju for %ju non-zero entries", what, v->arch,
	    v->version, v->variant, (uintmax_t)it.probes, (uintmax_t)bound,
	    (uintmax_t)entries);
	ck_assert_msg(d->ptc.misses <= d->info.npages_present &&
	    d->ptc.misses <= it.probes, "%s %s v%u %s: %ju table pages read "
	    "for %ju translations", what, v->arch, v->version, v->variant,
	    (uintmax_t)d->ptc.misses, (uintmax_t)it.probes);
	dk_close(d);
	free(copy);
}

/*
 * dumpcheck's pass over a family with one pmap entry per page
 * (walk_flat in check_minidump.c) asks the family's translation of every
 * entry in turn: each asks where its run of zero entries ends, and the
 * pmap blocks read stay a few per block of the area, not one scan to the
 * end of the run per entry (check_threads took minutes when they did).
 */
static void
entrywise(const struct fx_variant *v, struct dk_dump *d, const char *what)
{
	struct dk_md *m = dk_md(d);
	uint64_t kb = d->info.kernbase, blocks, before = m->pmc_reads, pa;
	struct dk_err err;

	if (m->pmap_nent == 0 || d->info.kva_end <= kb ||
	    (d->info.kva_end - kb) >> d->page_shift != m->pmap_nent)
		return;
	for (uint64_t i = 0; i < m->pmap_nent; i++)
		(void)m->fam->kvtop(d, kb + (i << d->page_shift), &pa, NULL,
		    &err);
	blocks = m->pmap_nent * m->pte_size / sizeof(m->pmc) + 1;
	if (getenv("CHECK_WORK_PRINT") != NULL)
		printf("%-12s v%u %-7s %-14s entry by entry: %ju entries, "
		    "%ju pmap blocks read for %ju\n", v->arch, v->version,
		    v->variant, what, (uintmax_t)m->pmap_nent,
		    (uintmax_t)(m->pmc_reads - before), (uintmax_t)blocks);
	ck_assert_msg(m->pmc_reads - before <= 3 * blocks + 4, "%s %s v%u "
	    "%s: %ju pmap blocks read entry by entry, for %ju blocks", what,
	    v->arch, v->version, v->variant,
	    (uintmax_t)(m->pmc_reads - before), (uintmax_t)blocks);
}

START_TEST(test_walk_bounded)
{
	/* First: the declarations' initialisers use the matrix index. */
	_i = dk_test_index(_i);
	struct fx_variant v;
	struct dk_open_opts o;
	struct dk_dump *d;
	struct dk_err err;
	const struct dk_section *pm, *pg;
	uint64_t runs, full, rng = 0x5eed;
	uint8_t *img, *bad;
	size_t len;

	ck_assert(fx_variant_at((size_t)_i, &v));
	if (strcmp(v.format, "minidump") != 0)
		return;
	img = load(&v, &len);
	memset(&o, 0, sizeof(o));
	o.arch = v.arch;
	ck_assert_int_eq(dk_open_mem(img, len, "intact", &o, &d, &err), DK_OK);
	pm = section(d, "pmap");
	pg = section(d, "pages");
	ck_assert_ptr_nonnull(pm);
	ck_assert_ptr_nonnull(pg);

	entrywise(&v, d, "intact");
	walk(&v, img, len, "intact", &full);
	ck_assert_uint_gt(full, 0);
	/* Cut where the pages start, and in their middle. */
	walk(&v, img, (size_t)pg->offset, "cut-at-pages", &runs);
	ck_assert_uint_le(runs, full);
	walk(&v, img, (size_t)(pg->offset + (len - pg->offset) / 2),
	    "cut-mid-pages", &runs);
	/* The page-table area overwritten: noise, then all ones. */
	bad = malloc(len);
	ck_assert_ptr_nonnull(bad);
	memcpy(bad, img, len);
	for (uint64_t k = 0; k + 8 <= pm->size; k += 8) {
		uint64_t x = fx_rng_next(&rng);

		memcpy(bad + pm->offset + k, &x, 8);
	}
	walk(&v, bad, len, "noise-pmap", &runs);
	memset(bad + pm->offset, 0xff, (size_t)pm->size);
	walk(&v, bad, len, "ones-pmap", &runs);
	free(bad);
	dk_close(d);
	free(img);
}
END_TEST

/*
 * A full ELF core's kernel map, walked through its hardware page tables
 * (--kernel): the walk asks about the entries of the tables it reads and
 * the pages mapped, not each page of [kernbase, kva_end) (amd64: 2 GiB,
 * 524,288 pages; i386 and arm: 1 GiB).  The mapped pages are found by
 * the model, which counts each page of each mapping.
 */
START_TEST(test_elf_walk_bounded)
{
	struct fx_elf_variant v;
	struct fx_elf_opts o = { .mem = 64u << 20, .seed = 3 };
	struct fx_elf f;
	struct dk_open_opts oo;
	struct dk_kmap_iter it = { 0, 0, 0 };
	struct dk_kmap_run r;
	struct dk_dump *d;
	struct dk_err err;
	char core[300], kern[300];
	uint64_t mapped = 0, runs = 0, entries, bound;

	ck_assert(fx_elf_variant_at((size_t)_i, &v));
	o.arch = v.arch;
	o.variant = v.variant;
	ck_assert_int_eq(fx_elf_build(&o, &f, &err), DK_OK);
	if (f.virt) {		/* a virtual core: no walk to bound */
		fx_elf_free(&f);
		return;
	}
	setup_tmp();
	snprintf(core, sizeof(core), "%s/core", tmpdir);
	snprintf(kern, sizeof(kern), "%s/kernel", tmpdir);
	ck_assert_int_eq(fx_elf_write(&f, core, kern, 0, &err), DK_OK);
	for (size_t i = 0; i < f.nmap; i++)
		mapped += f.map[i].len / 4096;
	memset(&oo, 0, sizeof(oo));
	oo.kernel = kern;
	ck_assert_msg(dk_open(core, &oo, &d, &err) == DK_OK, "%s: %s",
	    v.arch, err.msg);
	while (dk_kmap_next(d, &it, &r, &err))
		runs++;
	ck_assert_msg(err.code == DK_OK, "%s: %s", v.arch, err.msg);
	entries = d->ptc.misses * (d->page_size / 4);
	/* The tables' entries: a leaf's pages are one step, not one each. */
	bound = WORK_BASE + WORK_PER * entries;
	if (getenv("CHECK_WORK_PRINT") != NULL)
		printf("elf %-12s %-8s probes %9ju bound %9ju table pages "
		    "%5ju (hits %7ju) mapped pages %6ju runs %ju\n", v.arch,
		    v.variant, (uintmax_t)it.probes, (uintmax_t)bound,
		    (uintmax_t)d->ptc.misses, (uintmax_t)d->ptc.hits,
		    (uintmax_t)mapped, (uintmax_t)runs);
	ck_assert_uint_gt(runs, 0);
	ck_assert_msg(it.probes <= bound, "%s %s: %ju translations, more "
	    "than %ju for %ju table pages and %ju mapped pages", v.arch,
	    v.variant, (uintmax_t)it.probes, (uintmax_t)bound,
	    (uintmax_t)d->ptc.misses, (uintmax_t)mapped);
	/* A table page is read once: a few reads, thousands of entries. */
	ck_assert_uint_le(d->ptc.misses, 64);
	dk_close(d);
	fx_elf_free(&f);
	unlink(core);
	unlink(kern);
	rmdir(tmpdir);
}
END_TEST

/* Write d to path through a sink: as portable (native 0) or native. */
static void
write_to(struct dk_dump *d, const char *path, int native, unsigned flags,
    uint64_t *seeks)
{
	struct dk_sink s;
	struct dk_err err;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);

	ck_assert_int_ge(fd, 0);
	dk_sink_init(&s, fd, path);
	ck_assert_msg((native ? dk_native_write(d, &s, &err) :
	    dk_elfmini_write(d, &s, flags, &err)) == DK_OK, "%s", err.msg);
	ck_assert_int_eq(close(fd), 0);
	*seeks = s.seeks;
}

/*
 * The way back from --drop-zero: the portable file's pages are one data
 * extent, copied run by run between the holes of the zero pages.  The
 * file system is asked where its data is a few times, not once per run
 * (on tmpfs each SEEK_HOLE scans to the end of the extent: 581 s for a
 * 2 GiB core), and the native file comes back byte for byte.
 */
START_TEST(test_drop_zero_back_seeks)
{
	struct fx_elf_opts o = { .arch = "amd64", .mem = 64u << 20,
	    .seed = 9 };
	struct fx_elf f;
	struct dk_dump *d;
	struct dk_err err;
	struct dk_elfmini_plan pl;
	char core[300], port[300], back[300], cmd[1000];
	uint64_t seeks;

	ck_assert_int_eq(fx_elf_build(&o, &f, &err), DK_OK);
	setup_tmp();
	snprintf(core, sizeof(core), "%s/core", tmpdir);
	snprintf(port, sizeof(port), "%s/port", tmpdir);
	snprintf(back, sizeof(back), "%s/back", tmpdir);
	ck_assert_int_eq(fx_elf_write(&f, core, NULL, 0, &err), DK_OK);
	ck_assert_int_eq(dk_open(core, NULL, &d, &err), DK_OK);
	write_to(d, port, 0, DK_ELFMINI_DROP_ZERO | DK_ELFMINI_NO_VIRTUAL,
	    &seeks);
	dk_close(d);
	ck_assert_int_eq(dk_open(port, NULL, &d, &err), DK_OK);
	/* Thousands of runs of kept pages between runs of zeros. */
	ck_assert_int_eq(dk_elfmini_plan(d, DK_ELFMINI_NO_VIRTUAL, &pl, &err),
	    DK_OK);
	ck_assert_uint_gt(pl.nphys, 1000);
	write_to(d, back, 1, 0, &seeks);
	dk_close(d);
	if (getenv("CHECK_WORK_PRINT") != NULL)
		printf("drop-zero back: %ju segments, %ju seeks\n",
		    (uintmax_t)pl.nphys, (uintmax_t)seeks);
	ck_assert_msg(seeks <= 8, "%ju SEEK_DATA/SEEK_HOLE for %ju segments",
	    (uintmax_t)seeks, (uintmax_t)pl.nphys);
	snprintf(cmd, sizeof(cmd), "cmp -s '%s' '%s'", core, back);
	ck_assert_int_eq(system(cmd), 0);
	fx_elf_free(&f);
	unlink(core);
	unlink(port);
	unlink(back);
	rmdir(tmpdir);
}
END_TEST

static Suite *
work_suite(void)
{
	Suite *s = suite_create("work");
	TCase *tc = tcase_create("walks");
	struct fx_variant v;
	int n = 0;

	while (fx_variant_at((size_t)n, &v))
		n++;
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_walk_bounded, 0, dk_test_loop_end(n));
	n = 0;
	{
		struct fx_elf_variant ev;

		while (fx_elf_variant_at((size_t)n, &ev))
			n++;
	}
	tcase_add_loop_test(tc, test_elf_walk_bounded, 0, n);
	tcase_add_test(tc, test_drop_zero_back_seeks);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(work_suite());
	int nfailed;

	srunner_run_all(sr, CK_ENV);
	nfailed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfailed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
