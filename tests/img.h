/*
 * img.h -- dump images assembled by hand in the Check suites: a zeroed
 * buffer, bytes put at offsets in either byte order (each put checked
 * against the image's end), the image opened with dk_open_mem, and
 * reads of it expected to give bytes or to fail.
 * Header-only (static inline), so that a suite uses what it needs.
 */
#ifndef DK_TEST_IMG_H
#define DK_TEST_IMG_H

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dumpkit.h"

struct img {
	uint8_t	*p;
	size_t	 len;
};

/* A zeroed image of len bytes (freed by the test with free(im->p)). */
static inline void
img_init(struct img *im, size_t len)
{
	im->p = calloc(1, len);
	ck_assert_ptr_nonnull(im->p);
	im->len = len;
}

/* n bytes of b at off; the test fails if they would pass the end. */
static inline void
put(struct img *im, size_t off, const void *b, size_t n)
{
	ck_assert_uint_le(off + n, im->len);
	memcpy(im->p + off, b, n);
}

static inline void
put_le32(struct img *im, size_t off, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16),
	    (uint8_t)(v >> 24) };

	put(im, off, b, 4);
}

static inline void
put_be32(struct img *im, size_t off, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)(v >> 24), (uint8_t)(v >> 16),
	    (uint8_t)(v >> 8), (uint8_t)v };

	put(im, off, b, 4);
}

static inline void
put_le64(struct img *im, size_t off, uint64_t v)
{
	put_le32(im, off, (uint32_t)v);
	put_le32(im, off + 4, (uint32_t)(v >> 32));
}

static inline void
put_be64(struct img *im, size_t off, uint64_t v)
{
	put_be32(im, off, (uint32_t)(v >> 32));
	put_be32(im, off + 4, (uint32_t)v);
}

/* The image opened (with --arch arch, or none); the test fails if not. */
static inline struct dk_dump *
img_open(const struct img *im, const char *arch)
{
	struct dk_open_opts o = { .arch = arch };
	struct dk_dump *d = NULL;
	struct dk_err err = { .code = DK_OK };
	enum dk_status st;

	st = dk_open_mem(im->p, im->len, "handmade", &o, &d, &err);
	ck_assert_msg(st == DK_OK, "open: %s", err.msg);
	return d;
}

/* n bytes at addr (virtual if virt, else physical) read as fill. */
static inline void
expect_bytes(struct dk_dump *d, int virt, uint64_t addr, uint8_t fill,
    size_t n)
{
	uint8_t buf[128], want[128];
	struct dk_err err = { .code = DK_OK };
	enum dk_status st;

	ck_assert_uint_le(n, sizeof(buf));
	st = virt ? dk_read_va(d, addr, buf, n, &err) :
	    dk_read_pa(d, addr, buf, n, &err);
	ck_assert_msg(st == DK_OK, "read %s %#jx: %s", virt ? "va" : "pa",
	    (uintmax_t)addr, err.msg);
	memset(want, fill, n);
	ck_assert_mem_eq(buf, want, n);
}

/* The read fails with code and a message holding needle (if not NULL). */
static inline void
expect_fail(struct dk_dump *d, int virt, uint64_t addr, size_t n,
    enum dk_status code, const char *needle)
{
	uint8_t buf[128];
	struct dk_err err = { .code = DK_OK };
	enum dk_status st;

	ck_assert_uint_le(n, sizeof(buf));
	st = virt ? dk_read_va(d, addr, buf, n, &err) :
	    dk_read_pa(d, addr, buf, n, &err);
	ck_assert_msg(st == code, "read %s %#jx: expected %s, got %s (%s)",
	    virt ? "va" : "pa", (uintmax_t)addr, dk_status_name(code),
	    dk_status_name(st), st == DK_OK ? "" : err.msg);
	if (needle != NULL)
		ck_assert_msg(strstr(err.msg, needle) != NULL, "message '%s' "
		    "lacks '%s'", err.msg, needle);
}

#endif /* DK_TEST_IMG_H */
