/*
 * check_describe.c -- the format-neutral description of a dump: its
 * sections (dk_section) and the bytes they locate (dk_read_stream),
 * address windows (dk_window) and attributes (dk_attr), and the place
 * an error carries (struct dk_err's offset).
 *
 * The dumps are assembled byte by byte from FORMATS.md (1.2, 1.3 and
 * 3.3): the expected values are the bytes the test wrote, not what the
 * library's own writer would produce.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dumpkit.h"
#include "img.h"
#include "private.h"

#define	KDH	512			/* a leading kerneldumpheader */
#define	DMAPBASE 0xfffff80000000000ull
#define	DMAPEND	0xfffffc0000000000ull
#define	HOST	"crash.example.org"
#define	VSTR	"FreeBSD 14.1-RELEASE #0: Tue Jan  2 03:04:05 UTC 2024\n"
#define	PANIC	"page fault while in kernel mode"
#define	TIME	1704164645ull		/* 2024-01-02T03:04:05Z */

/*
 * An amd64 version 3 minidump at base (FORMATS.md 1.2, 1.3): msgbuf at
 * 0x1000, dump_avail [0x1000, 0x3000) at 0x2000, bitmap (bits 0 and 1)
 * at 0x3000, one pmap page (no valid PDE) at 0x4000, two pages at 0x5000.
 */
static void
put_amd64_v3(struct img *im, size_t base)
{
	put(im, base, "minidump FreeBSD/amd64\0\0", 24);
	put_le32(im, base + 24, 3);			/* version */
	put_le32(im, base + 28, 5);			/* msgbufsize */
	put_le32(im, base + 32, 8);			/* bitmapsize */
	put_le32(im, base + 36, 4096);			/* pmapsize */
	put_le64(im, base + 40, 0xfffffe0000000000ull);	/* kernbase */
	put_le64(im, base + 48, DMAPBASE);		/* dmapbase */
	put_le64(im, base + 56, DMAPEND);		/* dmapend */
	put_le32(im, base + 64, 4096);			/* dumpavailsize */
	put(im, base + 0x1000, "hello", 5);
	put_le64(im, base + 0x2000, 0x1000);
	put_le64(im, base + 0x2008, 0x3000);
	im->p[base + 0x3000] = 0x03;
	memset(im->p + base + 0x5000, 0xa1, 0x2000);
}

/* A version 1 leading kerneldumpheader (FORMATS.md 3.3) for len bytes. */
static void
put_kdh_v1(struct img *im, uint64_t len)
{
	uint32_t x = 0, w;

	put(im, 0, "FreeBSD Kernel Dump", 19);	/*   0 magic[20] */
	put(im, 20, "amd64", 5);		/*  20 architecture[12] */
	put_be32(im, 32, 1);			/*  32 version */
	put_be32(im, 36, 2);			/*  36 architectureversion */
	put_be64(im, 40, len);			/*  40 dumplength */
	put_be64(im, 48, TIME);			/*  48 dumptime */
	put_be32(im, 56, 512);			/*  56 blocksize */
	put(im, 60, HOST, strlen(HOST));	/*  60 hostname[64] */
	put(im, 124, VSTR, strlen(VSTR));	/* 124 versionstring[192] */
	put(im, 316, PANIC, strlen(PANIC));	/* 316 panicstring[192] */
	for (int i = 0; i < KDH; i += 4) {	/* 508 parity: XOR to 0 */
		memcpy(&w, im->p + i, 4);
		x ^= w;
	}
	memcpy(im->p + 508, &x, 4);
}

START_TEST(test_sections)
{
	static const struct dk_section want[] = {
		{ "header", 0, 72, 0x1000 },
		{ "msgbuf", 0x1000, 5, 0x1000 },
		{ "dump_avail", 0x2000, 4096, 0x1000 },
		{ "bitmap", 0x3000, 8, 0x1000 },
		{ "pmap", 0x4000, 4096, 0x1000 },
		{ "pages", 0x5000, 0x2000, 0x2000 },
	};
	struct img im;
	struct dk_dump *d;

	img_init(&im, 0x7000);
	put_amd64_v3(&im, 0);
	d = img_open(&im, NULL);
	ck_assert_uint_eq(dk_nsections(d), 6);
	for (size_t i = 0; i < 6; i++) {
		const struct dk_section *s = dk_section(d, i);

		ck_assert_ptr_nonnull(s);
		ck_assert_str_eq(s->name, want[i].name);
		ck_assert_uint_eq(s->offset, want[i].offset);
		ck_assert_uint_eq(s->size, want[i].size);
		ck_assert_uint_eq(s->space, want[i].space);
	}
	ck_assert_ptr_null(dk_section(d, 6));
	/* No fixed maximum: the list grows past the old eight slots. */
	for (int i = 0; i < 100; i++)
		dk_add_section(d, "extra", (uint64_t)i, 1, 1);
	ck_assert_uint_eq(dk_nsections(d), 106);
	ck_assert_str_eq(dk_section(d, 0)->name, "header");
	ck_assert_uint_eq(dk_section(d, 105)->offset, 99);
	dk_close(d);
	free(im.p);
}
END_TEST

START_TEST(test_windows)
{
	const struct dk_window *w;
	struct img im;
	struct dk_dump *d;
	uint64_t pa;
	struct dk_err err;

	img_init(&im, 0x7000);
	put_amd64_v3(&im, 0);
	d = img_open(&im, NULL);
	ck_assert_uint_eq(dk_nwindows(d), 1);
	w = dk_window(d, 0);
	ck_assert_ptr_nonnull(w);
	ck_assert_int_eq(w->kind, DK_WIN_DIRECT_MAP);
	ck_assert_str_eq(w->name, "direct map");
	ck_assert_uint_eq(w->va, DMAPBASE);
	ck_assert_uint_eq(w->end, DMAPEND);
	ck_assert_uint_eq(w->pa, 0);
	ck_assert_ptr_eq(dk_window_find(d, DK_WIN_DIRECT_MAP), w);
	ck_assert_ptr_null(dk_window_find(d, DK_WIN_UNMAPPED));
	ck_assert_ptr_null(dk_window(d, 1));
	/* The window translates: its first VA is PA 0, its end is not. */
	ck_assert_int_eq(dk_kvtop(d, DMAPBASE + 0x1234, &pa, &err), DK_OK);
	ck_assert_uint_eq(pa, 0x1234);
	ck_assert_int_ne(dk_kvtop(d, DMAPEND, &pa, &err), DK_OK);
	dk_close(d);
	free(im.p);
}
END_TEST

START_TEST(test_attrs)
{
	static const char *const names[] = { "hostname", "version_string",
	    "panic_string", "dump_time", "architecture" };
	const struct dk_attr *a;
	struct img im;
	struct dk_dump *d;

	/* A plain minidump has none. */
	img_init(&im, 0x7000);
	put_amd64_v3(&im, 0);
	d = img_open(&im, NULL);
	ck_assert_uint_eq(dk_nattrs(d), 0);
	ck_assert_ptr_null(dk_attr(d, 0));
	ck_assert_ptr_null(dk_attr_find(d, "hostname"));
	dk_close(d);
	free(im.p);

	/* The same after a leading kerneldumpheader: its metadata. */
	img_init(&im, KDH + 0x7000);
	put_amd64_v3(&im, KDH);
	put_kdh_v1(&im, 0x7000);
	d = img_open(&im, NULL);
	ck_assert_uint_eq(dk_nattrs(d), 5);
	for (size_t i = 0; i < 5; i++) {
		a = dk_attr(d, i);
		ck_assert_ptr_nonnull(a);
		ck_assert_str_eq(a->name, names[i]);
		ck_assert_str_eq(a->source, "kerneldumpheader");
		ck_assert_ptr_eq(dk_attr_find(d, names[i]), a);
	}
	ck_assert_ptr_null(dk_attr(d, 5));
	a = dk_attr_find(d, "hostname");
	ck_assert_int_eq(a->type, DK_ATTR_STRING);
	ck_assert_str_eq(a->str, HOST);
	ck_assert_str_eq(dk_attr_find(d, "version_string")->str, VSTR);
	ck_assert_str_eq(dk_attr_find(d, "panic_string")->str, PANIC);
	ck_assert_str_eq(dk_attr_find(d, "architecture")->str, "amd64");
	a = dk_attr_find(d, "dump_time");
	ck_assert_int_eq(a->type, DK_ATTR_TIME);
	ck_assert_uint_eq(a->num, TIME);
	ck_assert_ptr_null(dk_attr_find(d, "os_release"));
	/* The sections are the stream's, as before. */
	ck_assert_str_eq(dk_section(d, 1)->name, "msgbuf");
	dk_close(d);
	free(im.p);
}
END_TEST

/*
 * dk_read_stream reads at the offsets dk_section gives, which behind a
 * leading kerneldumpheader are KDH bytes short of the file's.
 */
START_TEST(test_read_stream)
{
	struct img im;
	struct dk_dump *d;
	struct dk_err err;
	uint8_t b[24];

	img_init(&im, KDH + 0x7000);
	put_amd64_v3(&im, KDH);
	put_kdh_v1(&im, 0x7000);
	d = img_open(&im, NULL);
	ck_assert_uint_eq(dk_info(d)->file_size, 0x7000);
	ck_assert_int_eq(dk_read_stream(d, dk_section(d, 0)->offset, b, 24,
	    &err), DK_OK);
	ck_assert_mem_eq(b, "minidump FreeBSD/amd64\0\0", 24);
	ck_assert_int_eq(dk_read_stream(d, dk_section(d, 1)->offset, b, 5,
	    &err), DK_OK);
	ck_assert_mem_eq(b, "hello", 5);
	/* The last byte of the stream, and one past it. */
	ck_assert_int_eq(dk_read_stream(d, 0x6fff, b, 1, &err), DK_OK);
	ck_assert_uint_eq(b[0], 0xa1);
	ck_assert_int_eq(dk_read_stream(d, 0x6fff, b, 2, &err), DK_ETRUNC);
	ck_assert_int_eq(dk_read_stream(d, UINT64_MAX, b, 1, &err), DK_ETRUNC);
	dk_close(d);
	free(im.p);
}
END_TEST

START_TEST(test_err_offset)
{
	struct dk_err err;
	struct dk_dump *d;
	struct img im;

	ck_assert_int_eq(dk_err_at(&err, DK_ECORRUPT, "f.core", 0x10,
	    "expected %d, found %d", 1, 2), DK_ECORRUPT);
	ck_assert_str_eq(err.msg, "f.core: offset 0x10: expected 1, found 2");
	ck_assert_uint_eq(err.offset, 0x10);
	ck_assert_uint_eq(err.file, 0);
	dk_err_prefix(&err, "outer");
	ck_assert_uint_eq(err.offset, 0x10);
	ck_assert_str_eq(err.msg, "outer: f.core: offset 0x10: expected 1, "
	    "found 2");
	dk_err_off(&err, DK_ETRUNC, 0, "%s: offset 0: short", "g");
	ck_assert_uint_eq(err.offset, 0);
	ck_assert_str_eq(err.msg, "g: offset 0: short");
	dk_err_set(&err, DK_EINVAL, "no place");
	ck_assert_uint_eq(err.offset, DK_ERR_NOOFFSET);
	dk_err_clear(&err);
	ck_assert_uint_eq(err.offset, DK_ERR_NOOFFSET);

	/*
	 * A minidump cut inside its pmap section [0x4000, 0x5000): the open
	 * fails there, at the section's first byte.
	 */
	img_init(&im, 0x7000);
	put_amd64_v3(&im, 0);
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(dk_open_mem(im.p, 0x4800, "cut", NULL, &d, &err),
	    DK_ETRUNC);
	ck_assert_uint_eq(err.offset, 0x4000);
	ck_assert_ptr_nonnull(strstr(err.msg, "offset 0x4000:"));
	free(im.p);
	/* A bad magic byte: at offset 0, where the header is. */
	img_init(&im, 0x7000);
	put_amd64_v3(&im, 0);
	im.p[9] = 'X';
	ck_assert_int_eq(dk_open_mem(im.p, im.len, "magic", NULL, &d, &err),
	    DK_EUNSUP);
	ck_assert_uint_eq(err.offset, 0);
	free(im.p);
}
END_TEST

static Suite *
describe_suite(void)
{
	Suite *s = suite_create("describe");
	TCase *t = tcase_create("describe");

	tcase_add_test(t, test_sections);
	tcase_add_test(t, test_windows);
	tcase_add_test(t, test_attrs);
	tcase_add_test(t, test_read_stream);
	tcase_add_test(t, test_err_offset);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	SRunner *r = srunner_create(describe_suite());
	int nf;

	srunner_run_all(r, CK_NORMAL);
	nf = srunner_ntests_failed(r);
	srunner_free(r);
	return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
