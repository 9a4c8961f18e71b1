/*
 * check_kdump_write.c -- the kdump writer (formats/kdump_write.c), its
 * bytes against offsets typed in here from makedumpfile's diskdump_mod.h
 * (struct disk_dump_header, kdump_sub_header, page_desc: LP64 and i386
 * offsets written out by hand, not taken from kdump_layout.c).
 *
 *  - "bytes": a machine of 16 page frames, 4 present (PFN 1 zero, PFNs
 *    2, 3 and 9 the pattern), codec none: every header field, both
 *    bitmaps, the descriptors and the pages where the struct puts them;
 *    PFN 1 left out of bitmap 2; with keep_zero, its descriptor points
 *    at the shared zero page, the first of the data; with store_zero,
 *    at a page of its own; dump level 1, 1 and 0 (makedumpfile -c -d 1
 *    writes 1 with a shared zero page, -d 0 stores each).
 *  - "i386": the same machine as a big-endian 32-bit writer's file with
 *    the packed sub header: block_size at 416, max_mapnr_64 at 72.
 *  - "threads": a 4 MiB machine in zlib, zstd and lzo written with 1, 2,
 *    3, 4 and 8 threads: the same bytes; every page read back by dumpkit;
 *    so too with the shared zero page and an incomplete dump (stop_after).
 *  - "fill_fails", "write_fails": a page the source cannot read (the
 *    fill's DK_ECORRUPT at PFN 700 of 1024), and a write past the file
 *    size limit (RLIMIT_FSIZE 1 MiB: EFBIG, in whichever thread writes
 *    that batch), with 1 to 8 threads: that error, its message and
 *    offset, returned by dk_kd_write, never a hang.
 *  - "refused": a version past 6, a block size not a power of two, a
 *    split set of version 1, a flattened split set, a max_mapnr a
 *    version 5 header cannot hold: DK_EINVAL, nothing written.
 */
#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "dumpkit.h"
#include "kdump.h"

#define	BS	4096u

static uint64_t
le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = n; i-- > 0; )
		v = v << 8 | p[i];
	return v;
}

static uint64_t
be(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

struct fill {
	uint64_t seed;
	uint32_t block;
	uint64_t missing;	/* a PFN the source lacks (0: none) */
	uint64_t calls, runs;	/* fill calls; those of more than 1 page */
};

/* PFN 1 zero, the others the pattern's words, odd (never zero). */
static void
one_page(const struct fill *f, uint64_t pfn, uint8_t *page)
{
	if (pfn == 1) {
		memset(page, 0, f->block);
		return;
	}
	for (uint32_t i = 0; i < f->block; i += 8) {
		uint64_t w = dk_pattern_word(f->seed, pfn * f->block + i) | 1;

		memcpy(page + i, &w, 8);
	}
	if (pfn % 2 == 0)	/* half of them compress */
		memset(page + f->block / 2, 0, f->block / 2);
}

/* n pages from pfn; DK_ENOTDUMPED if f->missing is among them. */
static enum dk_status
fill_page(void *arg, uint64_t pfn, size_t n, uint8_t *buf, struct dk_err *err)
{
	struct fill *f = arg;

	f->calls++;
	f->runs += n > 1;
	if (f->missing != 0 && pfn <= f->missing && f->missing < pfn + n)
		return dk_err_set(err, DK_ENOTDUMPED, "PFN %ju not dumped",
		    (uintmax_t)f->missing);
	for (size_t i = 0; i < n; i++)
		one_page(f, pfn + i, buf + i * f->block);
	return DK_OK;
}

struct machine {
	struct dk_bitmap bm1, bm2;
	struct dk_kd_wspec s;
	struct fill f;
};

static void
machine(struct machine *m, uint64_t npfn, const uint64_t *pfn, size_t n)
{
	struct dk_err err;

	memset(m, 0, sizeof(*m));
	ck_assert_int_eq(dk_bitmap_init(&m->bm1, npfn, &err), DK_OK);
	ck_assert_int_eq(dk_bitmap_init(&m->bm2, npfn, &err), DK_OK);
	for (size_t i = 0; i < n; i++) {
		dk_bitmap_set(&m->bm1, pfn[i]);
		dk_bitmap_set(&m->bm2, pfn[i]);
	}
	if (n == 0)
		for (uint64_t p = 0; p < npfn; p++) {
			dk_bitmap_set(&m->bm1, p);
			dk_bitmap_set(&m->bm2, p);
		}
	ck_assert_int_eq(dk_bitmap_index(&m->bm1, &err), DK_OK);
	ck_assert_int_eq(dk_bitmap_index(&m->bm2, &err), DK_OK);
	m->f.seed = 9;
	m->f.block = BS;
	m->s.version = 6;
	m->s.e = DK_LE;
	m->s.hl = &dk_kd_hdr64;
	m->s.sl = &dk_kd_sub64;
	m->s.block = BS;
	m->s.max_mapnr = npfn;
	m->s.present = &m->bm1;
	m->s.dump = &m->bm2;
	m->s.threads = 1;
	m->s.stop_after = UINT64_MAX;
	m->s.fill = fill_page;
	m->s.fill_arg = &m->f;
	snprintf(m->s.uts.s[KD_F_SYSNAME], 65, "Linux");
	snprintf(m->s.uts.s[KD_F_MACHINE], 65, "x86_64");
	m->s.uts.v[KD_F_TV_SEC] = 0x11223344;
	m->s.uts.v[KD_F_NR_CPUS] = 3;
}

static void
machine_free(struct machine *m)
{
	dk_bitmap_free(&m->bm1);
	dk_bitmap_free(&m->bm2);
}

/* Write m to a new temporary file; its bytes in *buf, the size. */
static size_t
write_tmp(struct machine *m, uint8_t **buf, char *path)
{
	struct dk_kd_out o;
	struct dk_err err;
	FILE *fp;
	size_t n;
	int fd;

	strcpy(path, "/tmp/ckkdw.XXXXXX");
	ck_assert_int_ge(fd = mkstemp(path), 0);
	o = (struct dk_kd_out){ .fd = fd, .name = path };
	ck_assert_msg(dk_kd_write(&m->s, &o, 1, &err) == DK_OK, "%s", err.msg);
	close(fd);
	ck_assert_ptr_nonnull(fp = fopen(path, "rb"));
	fseek(fp, 0, SEEK_END);
	n = (size_t)ftell(fp);
	rewind(fp);
	*buf = malloc(n);
	ck_assert_uint_eq(fread(*buf, 1, n, fp), n);
	fclose(fp);
	return n;
}

START_TEST(bytes)
{
	static const uint64_t pfn[] = { 1, 2, 3, 9 };
	struct machine m;
	uint8_t *b, page[BS];
	char path[64];
	size_t n;
	uint64_t bm1, desc, data;

	machine(&m, 16, pfn, 4);
	n = write_tmp(&m, &b, path);
	unlink(path);
	/* struct disk_dump_header, LP64. */
	ck_assert_mem_eq(b, "KDUMP   ", 8);
	ck_assert_uint_eq(le(b + 8, 4), 6);		/* header_version */
	ck_assert_str_eq((char *)b + 12, "Linux");	/* utsname.sysname */
	ck_assert_str_eq((char *)b + 272, "x86_64");	/* utsname.machine */
	ck_assert_uint_eq(le(b + 408, 8), 0x11223344);	/* tv_sec */
	ck_assert_uint_eq(le(b + 424, 4), 0);		/* status: no codec */
	ck_assert_uint_eq(le(b + 428, 4), BS);		/* block_size */
	ck_assert_uint_eq(le(b + 432, 4), 1);		/* sub_hdr_size */
	ck_assert_uint_eq(le(b + 436, 4), 2);		/* bitmap_blocks */
	ck_assert_uint_eq(le(b + 440, 4), 16);		/* max_mapnr */
	ck_assert_uint_eq(le(b + 460, 4), 3);		/* nr_cpus */
	/* struct kdump_sub_header at block 1. */
	ck_assert_uint_eq(le(b + BS + 8, 4), 1);	/* dump_level */
	ck_assert_uint_eq(le(b + BS + 12, 4), 0);	/* split */
	ck_assert_uint_eq(le(b + BS + 96, 8), 16);	/* max_mapnr_64 */
	/* Bitmaps at block 2 and 3: bit n of byte n / 8. */
	bm1 = 2 * BS;
	ck_assert_uint_eq(b[bm1], 0x0e);		/* PFNs 1, 2, 3 */
	ck_assert_uint_eq(b[bm1 + 1], 0x02);		/* PFN 9 */
	ck_assert_uint_eq(b[bm1 + BS], 0x0c);		/* 1 is zero: out */
	ck_assert_uint_eq(b[bm1 + BS + 1], 0x02);
	/* page_desc: offset, size, flags, page_flags; room for 4. */
	desc = 4 * BS;
	data = desc + 4 * 24;
	ck_assert_uint_eq(le(b + desc, 8), data);
	ck_assert_uint_eq(le(b + desc + 8, 4), BS);
	ck_assert_uint_eq(le(b + desc + 12, 4), 0);
	ck_assert_uint_eq(le(b + desc + 24, 8), data + BS);
	ck_assert_uint_eq(le(b + desc + 48, 8), data + 2 * BS);
	ck_assert_uint_eq(le(b + desc + 72, 8), 0);	/* the room's tail */
	ck_assert_uint_eq(n, data + 3 * BS);
	one_page(&m.f, 9, page);
	ck_assert_mem_eq(b + data + 2 * BS, page, BS);
	free(b);
	/*
	 * keep_zero: PFN 1 stored, pointing at the shared zero page; dump
	 * level 1 still, as makedumpfile -c -d 1 writes such a file.
	 */
	m.s.keep_zero = 1;
	n = write_tmp(&m, &b, path);
	unlink(path);
	ck_assert_uint_eq(le(b + BS + 8, 4), 1);	/* dump_level */
	ck_assert_uint_eq(b[bm1 + BS], 0x0e);
	ck_assert_uint_eq(le(b + desc, 8), data);	/* the zero page */
	ck_assert_uint_eq(le(b + desc + 8, 4), BS);
	ck_assert_uint_eq(le(b + desc + 24, 8), data + BS);
	for (size_t i = 0; i < BS; i++)
		ck_assert_uint_eq(b[data + i], 0);
	ck_assert_uint_eq(n, data + 4 * BS);
	free(b);
	/*
	 * store_zero: PFN 1 stored as any page (no codec: its zeros as they
	 * are), no shared page, dump level 0, as makedumpfile -d 0.
	 */
	m.s.store_zero = 1;
	m.s.keep_zero = 0;
	n = write_tmp(&m, &b, path);
	unlink(path);
	ck_assert_uint_eq(le(b + BS + 8, 4), 0);	/* dump_level */
	ck_assert_uint_eq(b[bm1 + BS], 0x0e);
	ck_assert_uint_eq(le(b + desc, 8), data);	/* PFN 1's own page */
	ck_assert_uint_eq(le(b + desc + 24, 8), data + BS);
	ck_assert_uint_eq(le(b + desc + 72, 8), data + 3 * BS);
	for (size_t i = 0; i < BS; i++)
		ck_assert_uint_eq(b[data + i], 0);
	ck_assert_uint_eq(n, data + 4 * BS);
	free(b);
	machine_free(&m);
}
END_TEST

START_TEST(i386_be)
{
	static const uint64_t pfn[] = { 1, 2, 3, 9 };
	struct machine m;
	uint8_t *b;
	char path[64];

	machine(&m, 16, pfn, 4);
	m.s.e = DK_BE;
	m.s.hl = &dk_kd_hdr32;
	m.s.sl = &dk_kd_sub32;
	m.s.codec = KD_DH_ZLIB;
	(void)write_tmp(&m, &b, path);
	unlink(path);
	ck_assert_uint_eq(be(b + 8, 4), 6);
	ck_assert_uint_eq(be(b + 404, 4), 0x11223344);	/* tv_sec */
	ck_assert_uint_eq(be(b + 412, 4), KD_DH_ZLIB);	/* status */
	ck_assert_uint_eq(be(b + 416, 4), BS);		/* block_size */
	ck_assert_uint_eq(be(b + 428, 4), 16);		/* max_mapnr */
	ck_assert_uint_eq(be(b + BS + 4, 4), 1);	/* dump_level */
	ck_assert_uint_eq(be(b + BS + 72, 8), 16);	/* max_mapnr_64 */
	ck_assert_uint_eq(b[2 * BS + BS], 0x0c);	/* bitmap 2 */
	free(b);
	machine_free(&m);
}
END_TEST

/* The thread counts every output is compared across. */
static const unsigned nthreads[] = { 2, 3, 4, 8 };

START_TEST(threads)
{
	static const unsigned codecs[] = { KD_DH_ZLIB, KD_DH_ZSTD, KD_DH_LZO };
	struct machine m;
	char path[64];

	machine(&m, 1024, NULL, 0);
	for (size_t c = 0; c < sizeof(codecs) / sizeof(codecs[0]); c++) {
		uint8_t *b1, *bn;
		size_t n1, nn;
		struct dk_dump *d;
		struct dk_err err;
		uint8_t page[BS], want[BS];

		m.s.codec = codecs[c];
		m.s.level = 1;
		m.s.threads = 1;
		n1 = write_tmp(&m, &b1, path);
		ck_assert_int_eq(dk_open(path, NULL, &d, &err), DK_OK);
		ck_assert_uint_eq(dk_info(d)->npages, 1023);
		for (uint64_t p = 0; p < 1024; p++) {
			one_page(&m.f, p, want);
			if (p == 1) {
				ck_assert_int_eq(dk_read_pa(d, p * BS, page, BS,
				    &err), DK_ENOTDUMPED);
				continue;
			}
			ck_assert_int_eq(dk_read_pa(d, p * BS, page, BS, &err),
			    DK_OK);
			ck_assert_mem_eq(page, want, BS);
		}
		dk_close(d);
		unlink(path);
		for (size_t t = 0; t < DK_ARRAY_LEN(nthreads); t++) {
			m.s.threads = nthreads[t];
			nn = write_tmp(&m, &bn, path);
			unlink(path);
			ck_assert_uint_eq(nn, n1);
			ck_assert_msg(memcmp(b1, bn, n1) == 0, "%s, %u threads: "
			    "other bytes than 1 thread's", dk_kd_codec_name(
			    m.s.codec), nthreads[t]);
			free(bn);
		}
		free(b1);
	}
	/*
	 * The shared zero page (descriptors at the first data page) and an
	 * incomplete dump (the first 300 pages only): the batches' order
	 * decides both, not the threads'.
	 */
	m.s.codec = KD_DH_ZLIB;
	for (int v = 0; v < 2; v++) {
		uint8_t *b1, *bn;
		size_t n1, nn;

		m.s.keep_zero = v == 0;
		m.s.stop_after = v == 0 ? UINT64_MAX : 300;
		m.s.threads = 1;
		n1 = write_tmp(&m, &b1, path);
		unlink(path);
		/*
		 * Descriptors at block 4 (header, sub header, two bitmaps of
		 * a block each), 24 bytes each, the data after 1024 of them:
		 * PFN 1's at the shared zero page, the first of the data;
		 * incomplete, 300 descriptors and the 301st a hole.
		 */
		if (v == 0) {
			ck_assert_uint_eq(le(b1 + 4 * BS + 24, 8),
			    4 * BS + 1024 * 24);
			ck_assert_uint_eq(le(b1 + 4 * BS + 24 + 8, 4), BS);
		} else {
			ck_assert_uint_ne(le(b1 + 4 * BS + 299 * 24, 8), 0);
			ck_assert_uint_eq(le(b1 + 4 * BS + 300 * 24, 8), 0);
		}
		for (size_t t = 0; t < DK_ARRAY_LEN(nthreads); t++) {
			m.s.threads = nthreads[t];
			nn = write_tmp(&m, &bn, path);
			unlink(path);
			ck_assert_uint_eq(nn, n1);
			ck_assert_int_eq(memcmp(b1, bn, n1), 0);
			free(bn);
		}
		free(b1);
	}
	machine_free(&m);
}
END_TEST

/* fill_page, but PFN 700 cannot be read. */
static enum dk_status
fill_bad(void *arg, uint64_t pfn, size_t n, uint8_t *buf, struct dk_err *err)
{
	if (pfn <= 700 && 700 < pfn + n)
		return dk_err_at(err, DK_ECORRUPT, "src", 700 * BS,
		    "page 700 damaged");
	return fill_page(arg, pfn, n, buf, err);
}

/*
 * The source is read a run of pages at a time (1,024 pages in one call
 * per batch, not 1,024 calls), and a run with a page the source lacks
 * is read again a page at a time: that page alone is left out (missing,
 * not zeros), its neighbours are stored, whatever the threads.
 */
START_TEST(fill_runs)
{
	struct machine m;
	char path[64];

	machine(&m, 1024, NULL, 0);
	m.s.codec = KD_DH_ZLIB;
	m.f.missing = 500;
	for (size_t t = 0; t < DK_ARRAY_LEN(nthreads); t++) {
		struct dk_dump *d;
		struct dk_err err;
		uint8_t *b, page[BS], want[BS];

		m.s.threads = nthreads[t];
		m.f.calls = m.f.runs = 0;
		m.s.n_missing = 0;
		free((write_tmp(&m, &b, path), b));
		ck_assert_uint_eq(m.s.n_missing, 1);
		/* A run per batch; a page at a time only in 500's. */
		ck_assert_msg(m.f.runs == 1024 / (KD_WBATCH_BYTES / BS) &&
		    m.f.calls - m.f.runs == KD_WBATCH_BYTES / BS, "%ju calls, "
		    "%ju of runs", (uintmax_t)m.f.calls, (uintmax_t)m.f.runs);
		ck_assert_int_eq(dk_open(path, NULL, &d, &err), DK_OK);
		ck_assert_int_eq(dk_read_pa(d, 500 * BS, page, BS, &err),
		    DK_ENOTDUMPED);
		for (uint64_t p = 490; p < 510; p++) {
			if (p == 500)
				continue;
			one_page(&m.f, p, want);
			ck_assert_int_eq(dk_read_pa(d, p * BS, page, BS, &err),
			    DK_OK);
			ck_assert_mem_eq(page, want, BS);
		}
		dk_close(d);
		unlink(path);
	}
	machine_free(&m);
}
END_TEST

START_TEST(fill_fails)
{
	struct machine m;
	struct dk_kd_out o;
	struct dk_err err;
	char path[64];
	int fd;

	machine(&m, 1024, NULL, 0);
	m.s.codec = KD_DH_ZLIB;
	m.s.fill = fill_bad;
	for (size_t t = 0; t < DK_ARRAY_LEN(nthreads); t++) {
		m.s.threads = nthreads[t];
		strcpy(path, "/tmp/ckkdw.XXXXXX");
		ck_assert_int_ge(fd = mkstemp(path), 0);
		o = (struct dk_kd_out){ .fd = fd, .name = path };
		ck_assert_int_eq(dk_kd_write(&m.s, &o, 1, &err), DK_ECORRUPT);
		ck_assert_ptr_nonnull(strstr(err.msg, "page 700 damaged"));
		ck_assert_uint_eq(err.offset, 700 * BS);
		close(fd);
		unlink(path);
	}
	machine_free(&m);
}
END_TEST

/*
 * A write that fails mid-way: the file size limit at 1 MiB (SIGXFSZ
 * ignored: pwrite fails with EFBIG), under a 4 MiB machine of
 * incompressible pages (codec none): the headers and bitmaps fit, the
 * pages do not.  Check runs each test in a process of its own.
 */
START_TEST(write_fails)
{
	struct rlimit rl = { 1u << 20, 1u << 20 };
	struct machine m;
	struct dk_kd_out o;
	struct dk_err err;
	char path[64];
	int fd;

	signal(SIGXFSZ, SIG_IGN);
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &rl), 0);
	machine(&m, 1024, NULL, 0);
	m.s.codec = 0;
	for (size_t t = 0; t < DK_ARRAY_LEN(nthreads); t++) {
		m.s.threads = nthreads[t];
		strcpy(path, "/tmp/ckkdw.XXXXXX");
		ck_assert_int_ge(fd = mkstemp(path), 0);
		o = (struct dk_kd_out){ .fd = fd, .name = path };
		ck_assert_int_eq(dk_kd_write(&m.s, &o, 1, &err), DK_ESYS);
		ck_assert_int_eq(err.sys_errno, EFBIG);
		ck_assert_ptr_nonnull(strstr(err.msg, path));
		ck_assert_ptr_nonnull(strstr(err.msg, "write"));
		/* Where it failed: at or past the limit, not before. */
		ck_assert_uint_ge(err.offset + BS, 1u << 20);
		ck_assert_uint_le(lseek(fd, 0, SEEK_END), 1u << 20);
		close(fd);
		unlink(path);
	}
	machine_free(&m);
}
END_TEST

START_TEST(refused)
{
	static const uint64_t pfn[] = { 2 };
	struct machine m;
	struct dk_kd_out o[2] = { { .fd = -1, .name = "x" },
	    { .fd = -1, .name = "y", .flat = 1 } };
	struct dk_err err;

	machine(&m, 16, pfn, 1);
	m.s.version = 7;
	ck_assert_int_eq(dk_kd_write(&m.s, o, 1, &err), DK_EINVAL);
	m.s.version = 6;
	m.s.block = 6000;
	ck_assert_int_eq(dk_kd_write(&m.s, o, 1, &err), DK_EINVAL);
	m.s.block = BS;
	ck_assert_int_eq(dk_kd_write(&m.s, o, 2, &err), DK_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "flattened"));
	m.s.version = 1;
	o[1].flat = 0;
	ck_assert_int_eq(dk_kd_write(&m.s, o, 2, &err), DK_EINVAL);
	machine_free(&m);
	/* max_mapnr past 2^32 in a version 5 header: the field is named. */
	machine(&m, (1ull << 32) + 64, pfn, 1);
	m.s.version = 5;
	{
		char path[64];
		int fd;

		strcpy(path, "/tmp/ckkdw.XXXXXX");
		ck_assert_int_ge(fd = mkstemp(path), 0);
		o[0] = (struct dk_kd_out){ .fd = fd, .name = path };
		ck_assert_int_eq(dk_kd_write(&m.s, o, 1, &err), DK_EINVAL);
		ck_assert_ptr_nonnull(strstr(err.msg, "max_mapnr"));
		ck_assert_int_eq(lseek(fd, 0, SEEK_END), 0);
		close(fd);
		unlink(path);
	}
	machine_free(&m);
}
END_TEST

static Suite *
kdump_write_suite(void)
{
	Suite *s = suite_create("kdump_write");
	TCase *tc = tcase_create("writer");

	tcase_add_test(tc, bytes);
	tcase_add_test(tc, i386_be);
	tcase_add_test(tc, threads);
	tcase_add_test(tc, fill_fails);
	tcase_add_test(tc, fill_runs);
	tcase_add_test(tc, write_fails);
	tcase_add_test(tc, refused);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(kdump_write_suite());
	int nfailed;

	srunner_run_all(sr, CK_ENV);
	nfailed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfailed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
