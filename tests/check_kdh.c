/*
 * check_kdh.c -- struct kerneldumpheader and its containers
 * (formats/fmt_kdh.c, formats/check_kdh.c) against FORMATS.md 3.
 *
 *  - "header": a header of each version 1..4 typed in here byte by byte
 *    from the tables of FORMATS.md 3.3 (offsets in the comments), its
 *    parity made by a loop of this file over native words: dumpkit
 *    decodes every field of it, and encodes the same values into the
 *    same 512 bytes.  The layout tables cover the 512 bytes exactly.
 *  - "image": device images assembled here by the rules of FORMATS.md
 *    3.4 (current placement at block sizes 512 and 4096, the old one,
 *    a leading header): located at the offsets the rules give; every
 *    broken rule (parity, leader and trailer, dumplength, extent,
 *    compression, encryption, truncation, unknown version) refused with
 *    its offset, a cleared trailer accepted and reported.
 *  - "open": a fixture minidump wrapped by hand in images of every
 *    placement opens through the container layer and reads the bytes
 *    the fixture model says; encrypted and text dumps are refused; the
 *    text dump's tar comes out in order; dumpcheck reports each damage.
 */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dkcheck.h"
#include "gen.h"
#include "private.h"

#define	HS	512

/* ---------------------------------------------------------------------- */
/* Headers typed in from FORMATS.md 3.3.                                   */

static void
put(uint8_t *h, unsigned off, const void *p, size_t n)
{
	memcpy(h + off, p, n);
}

/* Big-endian integers, byte by byte. */
static void
be32(uint8_t *h, unsigned off, uint32_t v)
{
	h[off] = (uint8_t)(v >> 24);
	h[off + 1] = (uint8_t)(v >> 16);
	h[off + 2] = (uint8_t)(v >> 8);
	h[off + 3] = (uint8_t)v;
}

static void
be64(uint8_t *h, unsigned off, uint64_t v)
{
	be32(h, off, (uint32_t)(v >> 32));
	be32(h, off + 4, (uint32_t)v);
}

/*
 * The parity as the kernel computes it: XOR of the 128 words read as
 * native integers, stored natively; independent of dumpkit's (which
 * reads big-endian), and equal to it because XOR is bytewise.
 */
static void
set_parity(uint8_t *h)
{
	uint32_t x = 0, w;

	memset(h + 508, 0, 4);
	for (int i = 0; i < HS; i += 4) {
		memcpy(&w, h + i, 4);
		x ^= w;
	}
	memcpy(h + 508, &x, 4);
}

#define	MAGIC_K	"FreeBSD Kernel Dump"	/* 19 chars + NUL: all 20 */
#define	HOST	"crash.example.org"
#define	VSTR	"FreeBSD 12.0-CURRENT #0 r300000: Mon Jan  1 00:00:00 UTC 2018\n"
#define	PANIC	"page fault while in kernel mode"
#define	LEN	0x123000ull
#define	EXTENT	0x200000ull
#define	TIME	1514764800ull

/* Version v with dumplength len, keysize key, compression comp. */
static void
hand_header(uint8_t *h, unsigned v, uint64_t len, uint64_t extent,
    uint32_t bs, uint32_t key, uint8_t comp)
{
	memset(h, 0, HS);
	put(h, 0, MAGIC_K, 19);			/*   0 magic[20]      */
	put(h, 20, "amd64", 5);			/*  20 architecture[12] */
	be32(h, 32, v);				/*  32 version        */
	be32(h, 36, 2);				/*  36 architectureversion */
	be64(h, 40, len);			/*  40 dumplength     */
	switch (v) {
	case 1:
		be64(h, 48, TIME);		/*  48 dumptime       */
		be32(h, 56, bs);		/*  56 blocksize      */
		put(h, 60, HOST, strlen(HOST));	/*  60 hostname[64]   */
		put(h, 124, VSTR, strlen(VSTR));/* 124 versionstring[192] */
		put(h, 316, PANIC, strlen(PANIC));/* 316 panicstring[192] */
		break;
	case 2:
		be64(h, 48, TIME);		/*  48 dumptime       */
		be32(h, 56, key);		/*  56 dumpkeysize    */
		be32(h, 60, bs);		/*  60 blocksize      */
		put(h, 64, HOST, strlen(HOST));	/*  64 hostname[64]   */
		put(h, 128, VSTR, strlen(VSTR));/* 128 versionstring[192] */
		put(h, 320, PANIC, strlen(PANIC));/* 320 panicstring[188] */
		break;
	case 3:
		be64(h, 48, extent);		/*  48 dumpextent     */
		be64(h, 56, TIME);		/*  56 dumptime       */
		be32(h, 64, key);		/*  64 dumpkeysize    */
		be32(h, 68, bs);		/*  68 blocksize      */
		h[72] = comp;			/*  72 compression    */
		put(h, 73, HOST, strlen(HOST));	/*  73 hostname[64]   */
		put(h, 137, VSTR, strlen(VSTR));/* 137 versionstring[192] */
		put(h, 329, PANIC, strlen(PANIC));/* 329 panicstring[179] */
		break;
	default:
		be64(h, 48, TIME);		/*  48 dumptime       */
		be32(h, 56, key);		/*  56 dumpkeysize    */
		be32(h, 60, bs);		/*  60 blocksize      */
		put(h, 64, HOST, strlen(HOST));	/*  64 hostname[64]   */
		put(h, 128, VSTR, strlen(VSTR));/* 128 versionstring[192] */
		put(h, 320, PANIC, strlen(PANIC));/* 320 panicstring[175] */
		h[495] = comp;			/* 495 compression    */
		be64(h, 496, extent);		/* 496 dumpextent     */
		break;				/* 504 unused[4] = 0  */
	}
	set_parity(h);				/* 508 parity         */
}

/* Loop test: _i is the version. */
START_TEST(test_decode_hand_header)
{
	uint8_t h[HS];
	struct dk_kdh_info k;
	struct dk_err err;
	unsigned v = (unsigned)_i;

	hand_header(h, v, LEN, EXTENT, 512, 0, v >= 3 ? 2 : 0);
	ck_assert_uint_eq(dk_kdh_parity(h), 0);
	ck_assert_int_eq(dk_kdh_decode(h, &k, &err), DK_OK);
	ck_assert_int_eq(k.magic, DK_KDH_KERNEL);
	ck_assert_uint_eq(k.version, v);
	ck_assert_str_eq(k.architecture, "amd64");
	ck_assert_uint_eq(k.architectureversion, 2);
	ck_assert_uint_eq(k.dumplength, LEN);
	ck_assert_uint_eq(k.dumptime, TIME);
	ck_assert_uint_eq(k.blocksize, 512);
	ck_assert_uint_eq(k.dumpextent, v >= 3 ? EXTENT : LEN);
	ck_assert_uint_eq(k.compression, v >= 3 ? 2 : 0);
	ck_assert_str_eq(k.hostname, HOST);
	ck_assert_str_eq(k.versionstring, VSTR);
	ck_assert_str_eq(k.panicstring, PANIC);
	ck_assert_int_eq(k.encrypted, 0);
}
END_TEST

/* Loop test: the writer puts the same values at the same bytes. */
START_TEST(test_encode_matches_hand)
{
	uint8_t h[HS], out[HS];
	struct dk_kdh_info k;
	struct dk_err err;
	unsigned v = (unsigned)_i;

	hand_header(h, v, LEN, EXTENT, 4096, v >= 2 ? 1024 : 0, 0);
	ck_assert_int_eq(dk_kdh_decode(h, &k, &err), DK_OK);
	ck_assert_uint_eq(k.dumpkeysize, v >= 2 ? 1024 : 0);
	dk_kdh_encode(&k, out);
	for (int i = 0; i < HS; i++)
		ck_assert_msg(out[i] == h[i], "v%u byte %d: 0x%02x, by hand "
		    "0x%02x", v, i, out[i], h[i]);
}
END_TEST

/*
 * Loop test over versions 1..4: every byte of the header is in the
 * parity (a loop inside, not a fork per byte: 2,048 forks took 44 s
 * under ASan).
 */
START_TEST(test_parity_every_byte)
{
	uint8_t h[HS];

	hand_header(h, (unsigned)_i, LEN, EXTENT, 512, 0, 0);
	for (size_t b = 0; b < HS; b++) {
		h[b] ^= 0x10;
		ck_assert_msg(dk_kdh_parity(h) != 0, "version %d: byte %zu "
		    "flipped, parity still 0", _i, b);
		h[b] ^= 0x10;
	}
	ck_assert_uint_eq(dk_kdh_parity(h), 0);
}
END_TEST

/* The four layouts: named, 512 bytes, no gap, no overlap. */
START_TEST(test_layouts_cover)
{
	const struct dk_layout *l;
	char want[32];
	size_t n = 0;

	for (; (l = dk_kdh_layout_at(n)) != NULL; n++) {
		uint8_t cover[HS] = { 0 };
		unsigned v = (unsigned)n + 1;

		snprintf(want, sizeof(want), "kerneldumpheader-v%u", v);
		ck_assert_str_eq(l->name, want);
		ck_assert_ptr_eq(dk_kdh_layout(v), l);
		ck_assert_uint_eq(dk_layout_size(l, v), HS);
		for (size_t i = 0; i < l->nfields; i++) {
			const struct dk_field *f = &l->fields[i];

			ck_assert(f->versions == DK_V(v));
			ck_assert_ptr_nonnull(f->ctype);
			for (unsigned b = f->off; b < f->off + f->size; b++) {
				ck_assert_msg(cover[b] == 0, "%s: byte %u "
				    "twice", l->name, b);
				cover[b] = 1;
			}
		}
		for (int b = 0; b < HS; b++)
			ck_assert_msg(cover[b], "%s: byte %d in no field",
			    l->name, b);
	}
	ck_assert_uint_eq(n, 4);
	/* v4's unused bytes are the one padding row. */
	ck_assert_int_eq(dk_layout_find(dk_kdh_layout(4), DK_H_PAD, 4)->off,
	    504);
	ck_assert_ptr_null(dk_kdh_layout(5));
	ck_assert_ptr_null(dk_kdh_layout(0));
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Images assembled by FORMATS.md 3.4.                                     */

struct img {
	uint8_t		*b;
	uint64_t	 size;
	uint64_t	 lh, th, data;
};

static void
img_free(struct img *m)
{
	free(m->b);
	m->b = NULL;
}

static uint8_t
payload_byte(uint64_t i)
{
	return (uint8_t)(i * 7 + 3);
}

/*
 * Current placement: 64 KiB untouched, a leader block, the key, the
 * extent (dump at its start), a trailer block at the end.
 */
static void
img_new(struct img *m, unsigned v, uint32_t bs, uint64_t len,
    uint64_t extent, uint32_t key, uint8_t comp)
{
	uint8_t h[HS];

	hand_header(h, v, len, extent, bs, key, comp);
	m->size = 65536 + bs + key + (v >= 3 ? extent : len) + bs;
	m->size = (m->size + bs - 1) / bs * bs;
	m->b = calloc(1, m->size);
	ck_assert_ptr_nonnull(m->b);
	m->th = m->size - bs;
	m->data = m->th - (v >= 3 ? extent : len);
	m->lh = m->data - key - bs;
	memcpy(m->b + m->lh, h, HS);
	memcpy(m->b + m->th, h, HS);
	/* A dumplength past the extent (a broken header) fills the extent. */
	for (uint64_t i = 0; i < len && m->data + i < m->th; i++)
		m->b[m->data + i] = payload_byte(i);
	if (key > 0) {
		m->b[m->lh + bs] = 1;		/* AES-256-CBC */
		be32(m->b + m->lh + bs, 33, 16);	/* encryptedkeysize */
	}
}

/* Old placement: leader, dump, 512-byte trailer at the very end. */
static void
img_old(struct img *m, unsigned v, uint32_t bs, uint64_t len)
{
	uint8_t h[HS];

	hand_header(h, v, len, len, bs, 0, 0);
	m->size = 65536 + HS + len + HS;
	m->size = (m->size + bs - 1) / bs * bs;
	m->b = calloc(1, m->size);
	ck_assert_ptr_nonnull(m->b);
	m->th = m->size - HS;
	m->lh = m->th - len - HS;
	m->data = m->lh + HS;
	memcpy(m->b + m->lh, h, HS);
	memcpy(m->b + m->th, h, HS);
	for (uint64_t i = 0; i < len; i++)
		m->b[m->data + i] = payload_byte(i);
}

static enum dk_status
locate(const struct img *m, struct dk_kdh_info *k, struct dk_err *err)
{
	struct dk_src s = { .fd = -1, .mem = m->b, .size = m->size,
	    .name = "img" };

	dk_err_clear(err);
	return dk_kdh_locate(&s, k, NULL, err);
}

/* Loop test: _i = version (1..4) x block size (512, 4096). */
START_TEST(test_locate_current)
{
	unsigned v = (unsigned)(_i >> 1) + 1;
	uint32_t bs = (_i & 1) ? 4096 : 512;
	struct img m;
	struct dk_kdh_info k;
	struct dk_err err;

	img_new(&m, v, bs, 0x6000, 0x8000, 0, 0);
	ck_assert_msg(locate(&m, &k, &err) == DK_OK, "v%u bs %u: %s", v, bs,
	    err.msg);
	ck_assert_uint_eq(k.leader_offset, m.lh);
	ck_assert_uint_eq(k.trailer_offset, m.th);
	ck_assert_uint_eq(k.dump_offset, m.data);
	ck_assert_uint_eq(k.dumplength, 0x6000);
	/* v1 and v2 at 512 bytes a block: both rules give one place. */
	ck_assert_int_eq(k.placement, v == 1 && bs == 512 ?
	    DK_KDH_DEVICE_OLD : DK_KDH_DEVICE);
	img_free(&m);
}
END_TEST

START_TEST(test_locate_old)
{
	unsigned v = (unsigned)(_i >> 1) + 1;
	uint32_t bs = (_i & 1) ? 4096 : 512;
	struct img m;
	struct dk_kdh_info k;
	struct dk_err err;

	img_old(&m, v, bs, 0x3000);
	ck_assert_msg(locate(&m, &k, &err) == DK_OK, "%s", err.msg);
	ck_assert_uint_eq(k.leader_offset, m.lh);
	ck_assert_uint_eq(k.trailer_offset, m.th);
	ck_assert_uint_eq(k.dump_offset, m.data);
	if (bs != 512)
		ck_assert_int_eq(k.placement, DK_KDH_DEVICE_OLD);
	img_free(&m);
}
END_TEST

START_TEST(test_locate_leading)
{
	struct img m = { 0 };
	struct dk_kdh_info k;
	struct dk_err err;

	m.size = HS + 0x2000;
	m.b = calloc(1, m.size);
	hand_header(m.b, 4, 0x2000, 0x2000, 512, 0, 0);
	ck_assert_int_eq(locate(&m, &k, &err), DK_OK);
	ck_assert_int_eq(k.placement, DK_KDH_LEADING);
	ck_assert_uint_eq(k.dump_offset, HS);
	ck_assert_uint_eq(k.trailer_offset, UINT64_MAX);
	/* One byte short: truncated, the end of the file named. */
	m.size--;
	ck_assert_int_eq(locate(&m, &k, &err), DK_ETRUNC);
	ck_assert_ptr_nonnull(strstr(err.msg, "0x21ff"));
	img_free(&m);
}
END_TEST

/* Each broken rule, its status and a word of its message. */
START_TEST(test_locate_errors)
{
	struct img m;
	struct dk_kdh_info k;
	struct dk_err err;
	uint8_t h[HS];

	/* Parity: a byte of both copies. */
	img_new(&m, 4, 512, 0x2000, 0x2000, 0, 0);
	m.b[m.lh + 70] ^= 1;
	m.b[m.th + 70] ^= 1;
	ck_assert_int_eq(locate(&m, &k, &err), DK_ECORRUPT);
	ck_assert_ptr_nonnull(strstr(err.msg, "parity"));
	ck_assert_ptr_nonnull(strstr(err.msg, "0x10000"));
	img_free(&m);

	/* Leader and trailer differ (both parities good). */
	img_new(&m, 4, 512, 0x2000, 0x2000, 0, 0);
	m.b[m.th + 330] ^= 0x20;
	set_parity(m.b + m.th);
	ck_assert_int_eq(locate(&m, &k, &err), DK_ECORRUPT);
	ck_assert_ptr_nonnull(strstr(err.msg, "differ"));
	ck_assert_ptr_nonnull(strstr(err.msg, "0x1014a"));	/* lh + 330 */
	img_free(&m);

	/* v3 and v4: dumplength past dumpextent. */
	for (unsigned v = 3; v <= 4; v++) {
		img_new(&m, v, 512, 0x3000, 0x2000, 0, 0);
		ck_assert_int_eq(locate(&m, &k, &err), DK_ECORRUPT);
		ck_assert_ptr_nonnull(strstr(err.msg, "dumpextent"));
		ck_assert_ptr_nonnull(strstr(err.msg, "offset 0x10028:"));
		img_free(&m);
	}

	/* Compression 3. */
	img_new(&m, 4, 512, 0x2000, 0x2000, 0, 3);
	ck_assert_int_eq(locate(&m, &k, &err), DK_ECORRUPT);
	ck_assert_ptr_nonnull(strstr(err.msg, "compression"));
	ck_assert_ptr_nonnull(strstr(err.msg, "offset 0x101ef:"));	/* 495 */
	img_free(&m);

	/* Compressed and encrypted. */
	img_new(&m, 4, 512, 0x2000, 0x2000, 512, 1);
	ck_assert_int_eq(locate(&m, &k, &err), DK_ECORRUPT);
	ck_assert_ptr_nonnull(strstr(err.msg, "encrypted"));
	img_free(&m);

	/* A key blob whose kdk_encryption is 0. */
	img_new(&m, 4, 512, 0x2000, 0x2000, 512, 0);
	m.b[m.lh + 512] = 0;
	ck_assert_int_eq(locate(&m, &k, &err), DK_ECORRUPT);
	ck_assert_ptr_nonnull(strstr(err.msg, "kdk_encryption"));
	img_free(&m);

	/* A trailer that declares more than the image holds. */
	img_new(&m, 4, 512, 0x2000, 0x2000, 0, 0);
	hand_header(h, 4, 0x100000, 0x100000, 512, 0, 0);
	memcpy(m.b + m.th, h, HS);
	ck_assert_int_eq(locate(&m, &k, &err), DK_ETRUNC);
	img_free(&m);

	/* Version 5. */
	img_new(&m, 4, 512, 0x2000, 0x2000, 0, 0);
	be32(m.b + m.th, 32, 5);
	set_parity(m.b + m.th);
	ck_assert_int_eq(locate(&m, &k, &err), DK_EUNSUP);
	ck_assert_ptr_nonnull(strstr(err.msg, "found 5"));
	img_free(&m);

	/* No header anywhere: not a container. */
	m.size = 0x4000;
	m.b = calloc(1, m.size);
	ck_assert_int_eq(locate(&m, &k, &err), DK_NOMATCH);
	img_free(&m);
}
END_TEST

/* savecore's clearing: the trailer's magic only, its parity left stale. */
START_TEST(test_locate_cleared)
{
	struct img m;
	struct dk_kdh_info k;
	struct dk_err err;

	img_new(&m, 4, 512, 0x2000, 0x2000, 0, 0);
	memcpy(m.b + m.th, "Cleared Kernel Dump", 20);
	ck_assert_int_eq(locate(&m, &k, &err), DK_OK);
	ck_assert_int_eq(k.cleared, 1);
	ck_assert_int_eq(k.magic, DK_KDH_KERNEL);
	img_free(&m);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* A fixture minidump inside images; refusals; text dumps; dumpcheck.      */

static char tmpdir[256];

static void
setup_tmp(void)
{
	const char *t = getenv("TMPDIR");

	snprintf(tmpdir, sizeof(tmpdir), "%s/dkkdh.XXXXXX", t ? t : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void
rm_tmp(const char *p)
{
	(void)unlink(p);
	(void)rmdir(tmpdir);
}

/* The fixture minidump's bytes, read back from the file dumpgen wrote. */
static uint8_t *
fixture(struct fx_dump *f, uint64_t *len)
{
	struct fx_opts o = { .arch = "amd64", .version = 3, .mem = 32u << 20,
	    .seed = 11, .compact = 1 };
	char path[512];
	struct dk_err err;
	struct stat sb;
	uint8_t *b;
	int fd;

	ck_assert_int_eq(fx_build(&o, f, &err), DK_OK);
	setup_tmp();
	snprintf(path, sizeof(path), "%s/md", tmpdir);
	ck_assert_int_eq(fx_write(f, path, 1, &err), DK_OK);
	fd = open(path, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fstat(fd, &sb), 0);
	*len = (uint64_t)sb.st_size;
	b = malloc(*len);
	ck_assert_ptr_nonnull(b);
	ck_assert_int_eq(pread(fd, b, *len, 0), (ssize_t)*len);
	close(fd);
	rm_tmp(path);
	return b;
}

/* The model's bytes at a few stored pages equal what the image reads. */
static void
compare_reads(struct dk_dump *d, struct fx_dump *f)
{
	struct dk_run_iter it = { 0 };
	struct dk_run r;
	uint8_t got[256], want[256];
	struct dk_err err;
	int n = 0;

	while (dk_run_next(d, &it, &r) && n < 32) {
		ck_assert_int_eq(dk_read_pa(d, r.pa + 0x40, got, sizeof(got),
		    &err), DK_OK);
		fx_expect(f, r.pa + 0x40, want, sizeof(want));
		ck_assert_mem_eq(got, want, sizeof(got));
		n++;
	}
	ck_assert_int_gt(n, 0);
}

/* Loop test: _i = 0 current v4, 1 current v3 at 4 KiB, 2 old v1, 3 leading. */
START_TEST(test_open_wrapped_fixture)
{
	struct fx_dump f;
	uint64_t len, size, lh, th, data, bs = _i == 1 ? 4096 : 512;
	uint8_t *md = fixture(&f, &len), *b, h[HS];
	struct dk_dump *d;
	struct dk_err err;
	const struct dk_kdh_info *k;
	unsigned v = _i == 0 ? 4 : _i == 1 ? 3 : _i == 2 ? 1 : 2;

	hand_header(h, v, len, len, (uint32_t)bs, 0, 0);
	if (_i == 3) {
		size = HS + len;
		lh = 0;
		data = HS;
		th = UINT64_MAX;
	} else {
		size = 65536 + 2 * bs + len;
		th = size - (_i == 2 ? HS : bs);
		data = th - len;
		lh = data - (_i == 2 ? HS : bs);
	}
	b = calloc(1, size);
	memcpy(b + lh, h, HS);
	if (th != UINT64_MAX)
		memcpy(b + th, h, HS);
	memcpy(b + data, md, len);
	ck_assert_msg(dk_open_mem(b, size, "img", NULL, &d, &err) == DK_OK,
	    "%s", err.msg);
	ck_assert_uint_eq(dk_nlayers(d), 1);
	ck_assert_str_eq(dk_layer(d, 0)->kind, "kerneldumpheader");
	ck_assert_uint_eq(dk_layer(d, 0)->offset, data);
	ck_assert_uint_eq(dk_layer(d, 0)->size, len);
	ck_assert_ptr_null(dk_layer(d, 1));
	k = dk_kdh(d);
	ck_assert_ptr_nonnull(k);
	ck_assert_str_eq(k->hostname, HOST);
	ck_assert_str_eq(dk_info(d)->format, "minidump");
	ck_assert_uint_eq(dk_info(d)->file_size, len);
	compare_reads(d, &f);
	ck_assert_mem_eq(dk_kdh_raw(d), h, HS);
	dk_close(d);
	free(b);
	free(md);
	fx_free(&f);
}
END_TEST

/*
 * A header in a dump's pages (the kernel builds one in memory) is no
 * container: in a minidump's last block, and in a file that starts
 * with data rather than a device's zeros, with no leader where it says.
 */
START_TEST(test_stray_header)
{
	struct fx_dump f;
	uint64_t len;
	uint8_t *md = fixture(&f, &len), h[HS];
	struct dk_dump *d;
	struct dk_err err;
	struct img m;
	struct dk_kdh_info k;

	hand_header(h, 4, 0x1000, 0x1000, 512, 0, 0);
	memcpy(md + len - HS, h, HS);
	ck_assert_msg(dk_open_mem(md, len, "md", NULL, &d, &err) == DK_OK,
	    "%s", err.msg);
	ck_assert_uint_eq(dk_nlayers(d), 0);
	ck_assert_ptr_null(dk_kdh(d));
	dk_close(d);
	m.size = 0x8000;
	m.b = malloc(m.size);
	for (uint64_t i = 0; i < m.size; i++)
		m.b[i] = payload_byte(i);
	memcpy(m.b + m.size - HS, h, HS);
	ck_assert_int_eq(locate(&m, &k, &err), DK_NOMATCH);
	/* The same trailer on a device (zeros first) is a broken image. */
	memset(m.b, 0, 0x7000);
	ck_assert_int_eq(locate(&m, &k, &err), DK_ECORRUPT);
	img_free(&m);
	free(md);
	fx_free(&f);
}
END_TEST

/* An encrypted or text dump never opens as a dump. */
START_TEST(test_open_refused)
{
	struct img m;
	struct dk_dump *d;
	struct dk_err err;

	img_new(&m, 4, 512, 0x2000, 0x2000, 512, 0);
	ck_assert_int_eq(dk_open_mem(m.b, m.size, "enc", NULL, &d, &err),
	    DK_EUNSUP);
	ck_assert_ptr_nonnull(strstr(err.msg, "encrypted"));
	img_free(&m);

	img_new(&m, 4, 512, 0x2000, 0x2000, 0, 0);
	memcpy(m.b + m.lh, "FreeBSD Text Dump\0\0", 20);
	set_parity(m.b + m.lh);
	memcpy(m.b + m.th, m.b + m.lh, HS);
	ck_assert_int_eq(dk_open_mem(m.b, m.size, "txt", NULL, &d, &err),
	    DK_EUNSUP);
	ck_assert_ptr_nonnull(strstr(err.msg, "text dump"));
	img_free(&m);
}
END_TEST

/* Blocks stored backwards before the trailer come out in order. */
START_TEST(test_textdump_order)
{
	struct img m;
	char path[512], out[512];
	uint8_t got[5 * HS];
	int fd;
	struct dk_err err;
	struct stat sb;

	img_new(&m, 4, 512, 5 * HS, 5 * HS, 0, 0);
	memcpy(m.b + m.lh, "FreeBSD Text Dump\0\0", 20);
	set_parity(m.b + m.lh);
	memcpy(m.b + m.th, m.b + m.lh, HS);
	/* Tar block i at th - 512 (i + 1), block i filled with 'A' + i. */
	for (int i = 0; i < 5; i++)
		memset(m.b + m.th - HS * (uint64_t)(i + 1), 'A' + i, HS);
	setup_tmp();
	snprintf(path, sizeof(path), "%s/text", tmpdir);
	snprintf(out, sizeof(out), "%s/tar", tmpdir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ck_assert_int_eq(write(fd, m.b, m.size), (ssize_t)m.size);
	close(fd);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ck_assert_int_eq(dk_textdump_write(path, fd, &err), DK_OK);
	close(fd);
	fd = open(out, O_RDONLY);
	ck_assert_int_eq(fstat(fd, &sb), 0);
	ck_assert_int_eq(sb.st_size, 5 * HS);
	ck_assert_int_eq(read(fd, got, sizeof(got)), (ssize_t)sizeof(got));
	close(fd);
	for (int i = 0; i < 5 * HS; i++)
		ck_assert_int_eq(got[i], 'A' + i / HS);
	(void)unlink(out);
	rm_tmp(path);
	img_free(&m);
}
END_TEST

struct seen {
	char	code[16][40];
	uint64_t off[16];
	int	n;
};

static void
on_finding(void *arg, const struct dk_finding *f)
{
	struct seen *s = arg;

	if (s->n < 16) {
		snprintf(s->code[s->n], sizeof(s->code[0]), "%s", f->code);
		s->off[s->n++] = f->has_offset ? f->offset : UINT64_MAX;
	}
}

static int
has(const struct seen *s, const char *code, uint64_t off)
{
	for (int i = 0; i < s->n; i++)
		if (strcmp(s->code[i], code) == 0 && (off == UINT64_MAX ||
		    s->off[i] == off))
			return 1;
	return 0;
}

/* dumpcheck's codes for each damage, at the offsets the rules give. */
START_TEST(test_check_findings)
{
	struct fx_dump f;
	uint64_t len;
	uint8_t *md = fixture(&f, &len), h[HS];
	struct dk_check_opts o = { .finding = on_finding, .quick = 1 };
	struct dk_check_result res;
	struct dk_err err;
	struct seen s;
	uint64_t size = 65536 + 2 * HS + len, th = size - HS, lh = th - len -
	    HS;
	uint8_t *b = calloc(1, size);

	hand_header(h, 4, len, len, 512, 0, 0);
	memcpy(b + lh, h, HS);
	memcpy(b + th, h, HS);
	memcpy(b + lh + HS, md, len);
	o.arg = &s;

	/* Clean. */
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(dk_check_mem(b, size, "img", &o, &res, &err), DK_OK);
	ck_assert_int_eq(s.n, 0);
	ck_assert_str_eq(res.format, "minidump");

	/* A cleared trailer: a warning, the dump still checked. */
	memcpy(b + th, "Cleared Kernel Dump", 20);
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(dk_check_mem(b, size, "img", &o, &res, &err), DK_OK);
	ck_assert(has(&s, "kdh.cleared", th));
	ck_assert_uint_eq(res.nerrors, 0);
	ck_assert_int_eq(res.deep, 1);
	memcpy(b + th, h, HS);

	/* Bad parity in both copies. */
	b[lh + 100] ^= 4;
	b[th + 100] ^= 4;
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(dk_check_mem(b, size, "img", &o, &res, &err), DK_OK);
	ck_assert(has(&s, "kdh.parity", lh + 508));
	memcpy(b + lh, h, HS);
	memcpy(b + th, h, HS);

	/* The trailer differs at byte 400. */
	b[th + 400] ^= 1;
	set_parity(b + th);
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(dk_check_mem(b, size, "img", &o, &res, &err), DK_OK);
	ck_assert(has(&s, "kdh.leader-trailer-differ", lh + 400));
	memcpy(b + th, h, HS);

	/* Truncated half-way into the dump: the leader is searched for. */
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(dk_check_mem(b, lh + HS + len / 2, "img", &o, &res,
	    &err), DK_OK);
	ck_assert(has(&s, "kdh.truncated", lh + HS + len / 2));
	ck_assert(has(&s, "file.truncated", UINT64_MAX));

	/* dumplength past dumpextent. */
	hand_header(h, 4, len + 512, len, 512, 0, 0);
	memcpy(b + lh, h, HS);
	memcpy(b + th, h, HS);
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(dk_check_mem(b, size, "img", &o, &res, &err), DK_OK);
	ck_assert(has(&s, "kdh.length-beyond-extent", lh + 40));

	/* Encrypted: a warning, nothing more checked. */
	hand_header(h, 4, len - 512, len - 512, 512, 512, 0);
	memcpy(b + lh, h, HS);
	memcpy(b + th, h, HS);
	b[lh + HS] = 1;				/* kdk_encryption */
	be32(b + lh + HS, 33, 256);		/* kdk_encryptedkeysize */
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(dk_check_mem(b, size, "img", &o, &res, &err), DK_OK);
	ck_assert(has(&s, "kdh.encrypted", lh));
	ck_assert(has(&s, "check.incomplete", UINT64_MAX));
	ck_assert_str_eq(res.format, "kerneldumpheader");
	free(b);
	free(md);
	fx_free(&f);
}
END_TEST

static Suite *
kdh_suite(void)
{
	Suite *s = suite_create("kdh");
	TCase *th = tcase_create("header");
	TCase *ti = tcase_create("image");
	TCase *to = tcase_create("open");

	tcase_add_loop_test(th, test_decode_hand_header, 1, 5);
	tcase_add_loop_test(th, test_encode_matches_hand, 1, 5);
	tcase_add_loop_test(th, test_parity_every_byte, 1, 5);
	tcase_add_test(th, test_layouts_cover);
	tcase_add_loop_test(ti, test_locate_current, 0, 8);
	tcase_add_loop_test(ti, test_locate_old, 0, 8);
	tcase_add_test(ti, test_locate_leading);
	tcase_add_test(ti, test_locate_errors);
	tcase_add_test(ti, test_locate_cleared);
	tcase_add_loop_test(to, test_open_wrapped_fixture, 0, 4);
	tcase_add_test(to, test_open_refused);
	tcase_add_test(to, test_stray_header);
	tcase_add_test(to, test_textdump_order);
	tcase_add_test(to, test_check_findings);
	tcase_set_timeout(to, 120);
	suite_add_tcase(s, th);
	suite_add_tcase(s, ti);
	suite_add_tcase(s, to);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(kdh_suite());
	int nfailed;

	srunner_run_all(sr, CK_ENV);
	nfailed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfailed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
