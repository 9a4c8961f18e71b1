/*
 * check_pages.c -- the page-read path and dump sets, through a format
 * defined here: each file holds pages compressed one by one with zlib,
 * as kdump-compressed files do, so that no page has a file offset and
 * a dump may be several files.
 *
 * A file of the test format: "DKPAGED" and a NUL; u32 LE page size;
 * u32 LE page count n; u64 LE the physical address of its first page;
 * n records of (u64 LE offset, u32 LE compressed size, u32 0); the
 * compressed pages.  Page i of a file is at pa + i * page size.  The
 * pages hold the fixture pattern (docs/fixture-pattern.md) of SEED, so
 * every byte read is checked against dk_pattern_fill().
 */
#include <check.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "bytes.h"
#include "dumpkit.h"
#include "private.h"

#define	PG	4096u
#define	SEED	7u
#define	HDR	24u
#define	REC	16u
#define	MAXPART	4

/* The format's state: per file, its first PA and its page records. */
struct tp_file {
	uint64_t	 pa;
	uint32_t	 n;
	uint64_t	*off;
	uint32_t	*len;
};

struct tp {
	struct tp_file	 f[MAXPART];
	size_t		 nf;
	uint64_t	 reads;		/* read_page calls, for the cache test */
};

static enum dk_status
tp_open(struct dk_dump *d, const struct dk_open_opts *o, struct dk_err *err)
{
	struct tp *t = calloc(1, sizeof(*t));
	enum dk_status st;

	(void)o;
	if (t == NULL)
		return dk_err_set(err, DK_ENOMEM, "out of memory");
	d->priv = t;
	t->nf = dk_nfiles(d);
	ck_assert_uint_le(t->nf, MAXPART);
	d->avail = calloc(t->nf, sizeof(*d->avail));
	ck_assert_ptr_nonnull(d->avail);
	for (size_t i = 0; i < t->nf; i++) {
		struct tp_file *f = &t->f[i];
		uint8_t h[HDR], r[REC];

		if ((st = dk_part_pread(d, i, h, HDR, 0, "header", err)) !=
		    DK_OK)
			return st;
		if (memcmp(h, "DKPAGED", 8) != 0 || dec_le32(h + 8) != PG)
			return dk_err_at(err, DK_ECORRUPT, dk_file(d, i), 0,
			    "not a test file");
		f->n = dec_le32(h + 12);
		f->pa = dec_le64(h + 16);
		f->off = calloc(f->n, sizeof(*f->off));
		f->len = calloc(f->n, sizeof(*f->len));
		ck_assert(f->off != NULL && f->len != NULL);
		for (uint32_t k = 0; k < f->n; k++) {
			if ((st = dk_part_pread(d, i, r, REC, HDR + REC * k,
			    "record", err)) != DK_OK)
				return st;
			f->off[k] = dec_le64(r);
			f->len[k] = dec_le32(r + 8);
		}
		d->avail[i] = (struct dk_range){ f->pa, f->pa +
		    (uint64_t)f->n * PG };
		d->info.npages += f->n;
	}
	d->navail = t->nf;
	d->info.npages_present = d->info.npages;
	d->info.format = "test-paged";
	d->info.arch = "amd64";
	d->info.arch_why = "the test says so";
	d->arch = dk_arch_by_name("amd64");
	d->info.endian = DK_LE;
	d->page_shift = 12;
	d->page_size = PG;
	d->info.page_size = PG;
	return DK_OK;
}

static void
tp_close(struct dk_dump *d)
{
	struct tp *t = d->priv;

	for (size_t i = 0; t != NULL && i < t->nf; i++) {
		free(t->f[i].off);
		free(t->f[i].len);
	}
	free(t);
	d->priv = NULL;		/* d->avail is the library's to free */
}

/* The file and page of pa, or -1. */
static int
tp_find(const struct tp *t, uint64_t pa, size_t *fi, uint32_t *k)
{
	for (size_t i = 0; i < t->nf; i++)
		if (pa >= t->f[i].pa && (pa - t->f[i].pa) / PG < t->f[i].n) {
			*fi = i;
			*k = (uint32_t)((pa - t->f[i].pa) / PG);
			return 0;
		}
	return -1;
}

static enum dk_status
tp_pa_offset(struct dk_dump *d, uint64_t pa, uint64_t *off,
    struct dk_err *err)
{
	size_t fi;
	uint32_t k;

	if (tp_find(d->priv, pa, &fi, &k) != 0)
		return dk_err_set(err, DK_ENOTDUMPED, "pa %#jx: not dumped",
		    (uintmax_t)pa);
	*off = DK_OFF_PAGED;
	return DK_OK;
}

static enum dk_status
tp_read_page(struct dk_dump *d, uint64_t pa, void *page, struct dk_err *err)
{
	struct tp *t = d->priv;
	uint8_t z[2 * PG];
	uLongf n = PG;
	size_t fi;
	uint32_t k;
	enum dk_status st;

	t->reads++;
	ck_assert_uint_eq(pa % PG, 0);
	if (tp_find(t, pa, &fi, &k) != 0)
		return dk_err_set(err, DK_ENOTDUMPED, "pa %#jx", (uintmax_t)pa);
	if (t->f[fi].len[k] > sizeof(z))
		return dk_err_at(err, DK_ECORRUPT, dk_file(d, fi),
		    HDR + REC * k + 8, "compressed size too large");
	if ((st = dk_part_pread(d, fi, z, t->f[fi].len[k], t->f[fi].off[k],
	    "compressed page", err)) != DK_OK)
		return st;
	if (uncompress(page, &n, z, t->f[fi].len[k]) != Z_OK || n != PG)
		return dk_err_at(err, DK_ECORRUPT, dk_file(d, fi),
		    t->f[fi].off[k], "the page does not decompress");
	return DK_OK;
}

static int
tp_run_next(const struct dk_dump *d, struct dk_run_iter *it, struct dk_run *r)
{
	const struct tp *t = d->priv;

	if (it->range >= t->nf)
		return 0;
	r->pa = t->f[it->range].pa;
	r->len = (uint64_t)t->f[it->range].n * PG;
	r->offset = DK_OFF_PAGED;
	it->range++;
	return 1;
}

static enum dk_status
tp_kvtop(struct dk_dump *d, uint64_t va, uint64_t *pa, struct dk_err *err)
{
	(void)d;
	(void)pa;
	return dk_err_set(err, DK_ENOTMAPPED, "va %#jx", (uintmax_t)va);
}

static const struct dk_format_ops tp_fmt = {
	.name = "test-paged", .desc = "test paged dump", .open = tp_open,
	.close = tp_close, .pa_offset = tp_pa_offset, .kvtop = tp_kvtop,
	.run_next = tp_run_next, .read_page = tp_read_page, .sets = 1,
};

/* Write a test file of n pattern pages from pa; returns its path. */
static char *
write_file(const char *tag, uint64_t pa, uint32_t n)
{
	char *path = malloc(64);
	uint8_t h[HDR] = "DKPAGED", r[REC], page[PG], z[2 * PG];
	uint64_t off = HDR + (uint64_t)REC * n;
	FILE *fp;

	ck_assert_ptr_nonnull(path);
	snprintf(path, 64, "/tmp/check_pages.%d.%s", (int)getpid(), tag);
	ck_assert_ptr_nonnull(fp = fopen(path, "wb"));
	enc_le32(h + 8, PG);
	enc_le32(h + 12, n);
	enc_le64(h + 16, pa);
	ck_assert_uint_eq(fwrite(h, 1, HDR, fp), HDR);
	for (uint32_t k = 0; k < n; k++) {
		uLongf zl = sizeof(z);

		dk_pattern_fill(SEED, pa + (uint64_t)k * PG, page, PG);
		ck_assert_int_eq(compress2(z, &zl, page, PG, 6), Z_OK);
		memset(r, 0, sizeof(r));
		enc_le64(r, off);
		enc_le32(r + 8, (uint32_t)zl);
		ck_assert_int_eq(fseek(fp, (long)(HDR + REC * k), SEEK_SET), 0);
		ck_assert_uint_eq(fwrite(r, 1, REC, fp), REC);
		ck_assert_int_eq(fseek(fp, (long)off, SEEK_SET), 0);
		ck_assert_uint_eq(fwrite(z, 1, zl, fp), zl);
		off += zl;
	}
	ck_assert_int_eq(fclose(fp), 0);
	return path;
}

START_TEST(test_read_through_pages)
{
	char *p[2] = { write_file("a", 0x100000, 4), write_file("b", 0x800000,
	    3) };
	uint8_t got[3 * PG], want[3 * PG];
	struct dk_run_iter it = { 0 };
	struct dk_run r;
	struct dk_dump *d;
	struct dk_err err;
	struct tp *t;
	uint64_t off;

	ck_assert_int_eq(dk_open_fmt(&tp_fmt, (const char *const *)p, 2, NULL,
	    &d, &err), DK_OK);
	ck_assert_uint_eq(dk_nfiles(d), 2);
	ck_assert_str_eq(dk_file(d, 0), p[0]);
	ck_assert_str_eq(dk_file(d, 1), p[1]);
	ck_assert_ptr_null(dk_file(d, 2));
	ck_assert_uint_eq(dk_info(d)->npages, 7);
	/* Three pages from the middle of a page, across page boundaries. */
	ck_assert_int_eq(dk_read_pa(d, 0x100800, got, sizeof(got), &err),
	    DK_OK);
	dk_pattern_fill(SEED, 0x100800, want, sizeof(want));
	ck_assert_mem_eq(got, want, sizeof(got));
	/* The second file's pages. */
	ck_assert_int_eq(dk_read_pa(d, 0x802ff8, got, 8, &err), DK_OK);
	dk_pattern_fill(SEED, 0x802ff8, want, 8);
	ck_assert_mem_eq(got, want, 8);
	/* Past the last page: not dumped, and nothing read. */
	ck_assert_int_eq(dk_read_pa(d, 0x803000, got, 8, &err), DK_ENOTDUMPED);
	/* Runs say the pages have no offset; pa_offset says so too. */
	ck_assert_int_eq(dk_run_next(d, &it, &r), 1);
	ck_assert_uint_eq(r.pa, 0x100000);
	ck_assert_uint_eq(r.len, 4 * PG);
	ck_assert_uint_eq(r.offset, DK_OFF_PAGED);
	ck_assert_int_eq(dk_run_next(d, &it, &r), 1);
	ck_assert_uint_eq(r.pa, 0x800000);
	ck_assert_int_eq(dk_run_next(d, &it, &r), 0);
	ck_assert_int_eq(dk_pa_offset(d, 0x101000, &off, &err), DK_OK);
	ck_assert_uint_eq(off, DK_OFF_PAGED);
	dk_close(d);

	/* The cache: 512 words of one page decompress it once. */
	ck_assert_int_eq(dk_open_fmt(&tp_fmt, (const char *const *)p, 2, NULL,
	    &d, &err), DK_OK);
	t = d->priv;
	for (unsigned k = 0; k < PG; k += 8) {
		ck_assert_int_eq(dk_read_pa(d, 0x103000 + k, got, 8, &err),
		    DK_OK);
		dk_pattern_fill(SEED, 0x103000 + k, want, 8);
		ck_assert_mem_eq(got, want, 8);
	}
	ck_assert_uint_eq(t->reads, 1);
	/* All seven pages fit the cache: twice over, six more reads. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < 7; i++)
			ck_assert_int_eq(dk_read_pa(d, i < 4 ? 0x100000 + i *
			    PG : 0x800000 + (i - 4) * PG, got, 8, &err), DK_OK);
	ck_assert_uint_eq(t->reads, 7);
	ck_assert_uint_eq(d->pc.misses, 7);
	dk_close(d);
	unlink(p[0]);
	unlink(p[1]);
	free(p[0]);
	free(p[1]);
}
END_TEST

START_TEST(test_error_names_the_file)
{
	char *p[2] = { write_file("c", 0, 2), write_file("d", 0x10000, 2) };
	uint8_t got[8], junk[4] = { 0xde, 0xad, 0xbe, 0xef };
	struct dk_dump *d;
	struct dk_err err;
	uint64_t at = HDR + 2 * REC;	/* the second file's first page */
	int fd;

	ck_assert_int_ge(fd = open(p[1], O_WRONLY), 0);
	ck_assert_int_eq(pwrite(fd, junk, sizeof(junk), (off_t)at), 4);
	close(fd);
	ck_assert_int_eq(dk_open_fmt(&tp_fmt, (const char *const *)p, 2, NULL,
	    &d, &err), DK_OK);
	ck_assert_int_eq(dk_read_pa(d, 0x10000, got, 8, &err), DK_ECORRUPT);
	ck_assert_uint_eq(err.offset, at);
	ck_assert_ptr_nonnull(strstr(err.msg, p[1]));
	/* A truncated second file: the short read is in file 1. */
	ck_assert_int_eq(truncate(p[1], (off_t)(at + 2)), 0);
	ck_assert_int_eq(dk_read_pa(d, 0x11000, got, 8, &err), DK_ETRUNC);
	ck_assert_uint_eq(err.file, 1);
	dk_close(d);
	unlink(p[0]);
	unlink(p[1]);
	free(p[0]);
	free(p[1]);
}
END_TEST

START_TEST(test_one_file_formats_refuse_sets)
{
	/* An amd64 v1 minidump (FORMATS.md 1.2): a header, no pages. */
	char path[2][64];
	const char *pp[2] = { path[0], path[1] };
	uint8_t img[0x4000] = { 0 };
	struct dk_dump *d;
	struct dk_err err;

	memcpy(img, "minidump FreeBSD/amd64", 22);
	enc_le32(img + 24, 1);			/* version */
	enc_le32(img + 32, 4096);		/* bitmapsize */
	enc_le32(img + 36, 4096);		/* pmapsize */
	enc_le64(img + 40, 0xffffffff80000000ull);	/* kernbase */
	for (int i = 0; i < 2; i++) {
		FILE *fp;

		snprintf(path[i], sizeof(path[i]), "/tmp/check_pages.%d.m%d",
		    (int)getpid(), i);
		ck_assert_ptr_nonnull(fp = fopen(path[i], "wb"));
		ck_assert_uint_eq(fwrite(img, 1, 0x3000, fp), 0x3000);
		fclose(fp);
	}
	ck_assert_int_eq(dk_open_set(pp, 1, NULL, &d, &err), DK_OK);
	ck_assert_uint_eq(dk_nfiles(d), 1);
	ck_assert_str_eq(dk_info(d)->format, "minidump");
	dk_close(d);
	ck_assert_int_eq(dk_open_set(pp, 2, NULL, &d, &err), DK_EUNSUP);
	ck_assert_ptr_nonnull(strstr(err.msg, "2 files were given, but a "
	    "FreeBSD minidump is one file"));
	ck_assert_int_eq(dk_open_set(pp, 0, NULL, &d, &err), DK_EINVAL);
	unlink(path[0]);
	unlink(path[1]);
}
END_TEST

static Suite *
pages_suite(void)
{
	Suite *s = suite_create("pages");
	TCase *t = tcase_create("pages");

	tcase_add_test(t, test_read_through_pages);
	tcase_add_test(t, test_error_names_the_file);
	tcase_add_test(t, test_one_file_formats_refuse_sets);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	SRunner *r = srunner_create(pages_suite());
	int nf;

	srunner_run_all(r, CK_NORMAL);
	nf = srunner_ntests_failed(r);
	srunner_free(r);
	return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
