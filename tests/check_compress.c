/*
 * check_compress.c -- compressed dump streams (formats/decompress.c,
 * formats/compress.c) against the real gzip, zstd and xz tools.
 *
 *  - streams made by the command-line tools decode to the bytes they
 *    were made from; concatenated members/frames/streams; zero padding
 *    after the stream accepted, other trailing bytes refused;
 *  - a stream cut at many points is DK_ETRUNC at the cut; a flipped byte
 *    is an error at or after the flip, naming the file;
 *  - the decompressed file is sparse, and no file or descriptor is left
 *    in TMPDIR after dk_close or after a failed dk_open;
 *  - dk_open() of a compressed generated dump reads what the fixture
 *    model says (pages compared with fx_expect);
 *  - our compressor's output is decoded by the tools to the input, and
 *    is the same bytes every time (gzip: no name, mtime 0).
 */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compress.h"
#include "gen.h"

static const char *const tool[] = {
	[DK_COMP_GZIP] = "gzip -n -c",
	[DK_COMP_ZSTD] = "zstd -q -c",
	[DK_COMP_XZ] = "xz -c",
};
static const char *const untool[] = {
	[DK_COMP_GZIP] = "gzip -dc",
	[DK_COMP_ZSTD] = "zstd -q -dc",
	[DK_COMP_XZ] = "xz -dc",
};

#define	DATA_LEN	(3u << 20)

static char dir[256];

static void
mk_dir(void)
{
	const char *t = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/dkz.XXXXXX", t != NULL ? t : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void
rm_dir(void)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static void
sh(const char *fmt, const char *a, const char *b, const char *c)
{
	char cmd[2048];

	snprintf(cmd, sizeof(cmd), fmt, a, b, c);
	ck_assert_msg(system(cmd) == 0, "command failed: %s", cmd);
}

/* Test data: zero 4 KiB blocks, pattern blocks, and an odd-length tail. */
static uint8_t *
data(size_t len, uint64_t seed)
{
	uint8_t *p = malloc(len);

	ck_assert_ptr_nonnull(p);
	dk_pattern_fill(seed, 0x100000, p, len);
	return p;
}

static void
put_file(const char *path, const void *p, size_t len)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(p, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

static uint8_t *
get_file(const char *path, size_t *len)
{
	struct stat sb;
	uint8_t *p;
	int fd = open(path, O_RDONLY);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fstat(fd, &sb), 0);
	p = malloc((size_t)sb.st_size + 1);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(pread(fd, p, (size_t)sb.st_size, 0), sb.st_size);
	close(fd);
	*len = (size_t)sb.st_size;
	return p;
}

/* The whole content of the decompressed file. */
static uint8_t *
get_fd(int fd, uint64_t size)
{
	uint8_t *p = malloc((size_t)size + 1);

	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(pread(fd, p, (size_t)size, 0), (ssize_t)size);
	return p;
}

static enum dk_status
unz(const char *path, struct dk_unz *u, struct dk_err *err)
{
	struct dk_src src = { .name = path };
	struct stat sb;
	uint8_t head[8] = { 0 };
	enum dk_status st;

	src.fd = open(path, O_RDONLY);
	ck_assert_int_ge(src.fd, 0);
	ck_assert_int_eq(fstat(src.fd, &sb), 0);
	src.size = (uint64_t)sb.st_size;
	(void)pread(src.fd, head, sizeof(head), 0);
	st = dk_unz_file(&src, dk_comp_detect(head, sizeof(head)) ==
	    DK_COMP_NONE ? DK_COMP_GZIP : dk_comp_detect(head, sizeof(head)),
	    0, u, err);
	close(src.fd);
	return st;
}

/* Descriptors of this process open on files in directory d. */
static int
fds_in(const char *d)
{
	DIR *pd = opendir("/proc/self/fd");
	struct dirent *e;
	char l[PATH_MAX + 1], p[PATH_MAX];
	int n = 0;

	ck_assert_ptr_nonnull(pd);
	while ((e = readdir(pd)) != NULL) {
		ssize_t k;

		snprintf(p, sizeof(p), "/proc/self/fd/%s", e->d_name);
		if ((k = readlink(p, l, sizeof(l) - 1)) <= 0)
			continue;
		l[k] = '\0';
		n += strncmp(l, d, strlen(d)) == 0;
	}
	closedir(pd);
	return n;
}

/* Entries of directory d other than . and .. */
static int
entries(const char *d)
{
	DIR *pd = opendir(d);
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(pd);
	while ((e = readdir(pd)) != NULL)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(pd);
	return n;
}

/* ---------------------------------------------------------------------- */

START_TEST(test_detect)
{
	static const uint8_t gz[] = { 0x1f, 0x8b, 0x08, 0 };
	static const uint8_t zs[] = { 0x28, 0xb5, 0x2f, 0xfd };
	static const uint8_t skip[] = { 0x5e, 0x2a, 0x4d, 0x18 };
	static const uint8_t xz[] = { 0xfd, '7', 'z', 'X', 'Z', 0 };
	static const uint8_t md[] = "minidump FreeBSD/amd64";

	ck_assert_int_eq(dk_comp_detect(gz, sizeof(gz)), DK_COMP_GZIP);
	ck_assert_int_eq(dk_comp_detect(zs, sizeof(zs)), DK_COMP_ZSTD);
	ck_assert_int_eq(dk_comp_detect(skip, sizeof(skip)), DK_COMP_ZSTD);
	ck_assert_int_eq(dk_comp_detect(xz, sizeof(xz)), DK_COMP_XZ);
	ck_assert_int_eq(dk_comp_detect(xz, 5), DK_COMP_NONE);
	ck_assert_int_eq(dk_comp_detect(md, sizeof(md)), DK_COMP_NONE);
	ck_assert_int_eq(dk_comp_by_name("zstd"), DK_COMP_ZSTD);
	ck_assert_int_eq(dk_comp_by_name("bzip2"), DK_COMP_NONE);
}
END_TEST

/* _i: the kind.  The tool's stream decodes to the input, sparsely. */
START_TEST(test_tool_stream)
{
	enum dk_comp k = (enum dk_comp)_i;
	uint8_t *in = data(DATA_LEN + 123, 7), *out;
	char plain[512], z[512];
	struct dk_unz u;
	struct dk_err err;
	struct stat sb;

	mk_dir();
	snprintf(plain, sizeof(plain), "%s/plain", dir);
	snprintf(z, sizeof(z), "%s/plain.z", dir);
	put_file(plain, in, DATA_LEN + 123);
	sh("%s '%s' > '%s'", tool[k], plain, z);
	ck_assert_msg(unz(z, &u, &err) == DK_OK, "%s", err.msg);
	ck_assert_uint_eq(u.size, DATA_LEN + 123);
	ck_assert_uint_eq(u.members, 1);
	ck_assert_uint_eq(u.padding, 0);
	out = get_fd(u.fd, u.size);
	ck_assert_mem_eq(out, in, DATA_LEN + 123);
	/* Three 4 KiB blocks in four are zero: holes, not disk. */
	ck_assert_int_eq(fstat(u.fd, &sb), 0);
	ck_assert_msg((uint64_t)sb.st_blocks * 512 < u.size / 2,
	    "%ju blocks for %ju bytes: not sparse", (uintmax_t)sb.st_blocks,
	    (uintmax_t)u.size);
	close(u.fd);
	free(in);
	free(out);
	rm_dir();
}
END_TEST

/* Two members/frames/streams, then zero padding, then garbage. */
START_TEST(test_concat_padding)
{
	enum dk_comp k = (enum dk_comp)_i;
	uint8_t *a = data(100000, 1), *b = data(200003, 2), *out;
	char pa[512], pb[512], z[512];
	static const uint8_t zeros[777];
	struct dk_unz u;
	struct dk_err err;
	size_t zlen;
	FILE *f;

	mk_dir();
	snprintf(pa, sizeof(pa), "%s/a", dir);
	snprintf(pb, sizeof(pb), "%s/b", dir);
	snprintf(z, sizeof(z), "%s/ab.z", dir);
	put_file(pa, a, 100000);
	put_file(pb, b, 200003);
	sh("%s '%s' > '%s'", tool[k], pa, z);
	sh("%s '%s' >> '%s'", tool[k], pb, z);
	free(get_file(z, &zlen));
	ck_assert_msg(unz(z, &u, &err) == DK_OK, "%s", err.msg);
	ck_assert_uint_eq(u.members, 2);
	ck_assert_uint_eq(u.size, 300003);
	out = get_fd(u.fd, u.size);
	ck_assert_mem_eq(out, a, 100000);
	ck_assert_mem_eq(out + 100000, b, 200003);
	close(u.fd);
	free(out);

	/* The device's last block: zero-padded.  Accepted, counted. */
	f = fopen(z, "ab");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(zeros, 1, sizeof(zeros), f), sizeof(zeros));
	fclose(f);
	ck_assert_msg(unz(z, &u, &err) == DK_OK, "%s", err.msg);
	ck_assert_uint_eq(u.size, 300003);
	ck_assert_uint_eq(u.padding, sizeof(zeros));
	ck_assert_uint_eq(u.in_end, zlen);
	close(u.fd);

	/* A nonzero byte after the padding is no padding. */
	f = fopen(z, "ab");
	fputc('x', f);
	fclose(f);
	ck_assert_int_eq(unz(z, &u, &err), DK_ECORRUPT);
	ck_assert_int_eq(u.fd, -1);
	ck_assert_uint_eq(u.fail_off, zlen + sizeof(zeros));
	ck_assert_msg(strstr(err.msg, z) != NULL && strstr(err.msg,
	    "expected zero padding") != NULL, "%s", err.msg);
	free(a);
	free(b);
	rm_dir();
}
END_TEST

/* Cut at many points: DK_ETRUNC at the cut, the file named. */
START_TEST(test_truncated)
{
	enum dk_comp k = (enum dk_comp)_i;
	uint8_t *in = data(400000, 3), *zb;
	char plain[512], z[512], cut[512];
	struct dk_unz u;
	struct dk_err err;
	size_t zlen, n = 0;

	mk_dir();
	snprintf(plain, sizeof(plain), "%s/plain", dir);
	snprintf(z, sizeof(z), "%s/plain.z", dir);
	snprintf(cut, sizeof(cut), "%s/cut.z", dir);
	put_file(plain, in, 400000);
	sh("%s '%s' > '%s'", tool[k], plain, z);
	zb = get_file(z, &zlen);
	for (size_t at = 6; at < zlen; at += 1 + at / 7, n++) {
		enum dk_status st;
		char off[32];

		put_file(cut, zb, at);
		st = unz(cut, &u, &err);
		ck_assert_msg(st == DK_ETRUNC, "%s cut at %zu of %zu: %s: %s",
		    dk_comp_name(k), at, zlen, dk_status_name(st), err.msg);
		ck_assert_uint_eq(u.fail_off, at);
		ck_assert_int_eq(u.fd, -1);
		snprintf(off, sizeof(off), "offset %#zx", at);
		ck_assert_msg(strstr(err.msg, cut) != NULL && strstr(err.msg,
		    off) != NULL && strstr(err.msg, "expected more") != NULL,
		    "%s", err.msg);
	}
	ck_assert_uint_gt(n, 20);
	/* The last byte alone missing. */
	put_file(cut, zb, zlen - 1);
	ck_assert_int_eq(unz(cut, &u, &err), DK_ETRUNC);
	/* Too short for a magic: not a stream of the kind. */
	put_file(cut, zb, 0);
	ck_assert_int_eq(unz(cut, &u, &err), DK_ECORRUPT);
	free(in);
	free(zb);
	rm_dir();
}
END_TEST

/* A byte flipped in the middle: an error at or after it. */
START_TEST(test_flipped)
{
	enum dk_comp k = (enum dk_comp)_i;
	uint8_t *in = data(400000, 4), *zb;
	char plain[512], z[512];
	struct dk_unz u;
	struct dk_err err;
	size_t zlen;

	mk_dir();
	snprintf(plain, sizeof(plain), "%s/plain", dir);
	snprintf(z, sizeof(z), "%s/plain.z", dir);
	put_file(plain, in, 400000);
	sh("%s '%s' > '%s'", tool[k], plain, z);
	zb = get_file(z, &zlen);
	for (size_t at = zlen / 4; at < zlen - 8; at += zlen / 5) {
		enum dk_status st;

		zb[at] ^= 0x55;
		put_file(z, zb, zlen);
		zb[at] ^= 0x55;
		st = unz(z, &u, &err);
		ck_assert_msg(st == DK_ECORRUPT || st == DK_ETRUNC,
		    "%s flip at %zu: %s", dk_comp_name(k), at,
		    dk_status_name(st));
		ck_assert_msg(u.fail_off >= at, "%s flip at %zu reported at "
		    "%ju: %s", dk_comp_name(k), at, (uintmax_t)u.fail_off,
		    err.msg);
		ck_assert_msg(strstr(err.msg, z) != NULL && strstr(err.msg,
		    "compressed offset") != NULL, "%s", err.msg);
	}
	free(in);
	free(zb);
	rm_dir();
}
END_TEST

/* Our compressor: the tools decode it; the bytes never change. */
START_TEST(test_writer)
{
	enum dk_comp k = (enum dk_comp)_i;
	uint8_t *in = data(DATA_LEN, 5), *back, *one, *two;
	char plain[512], z[512], z2[512], dz[512];
	struct dk_src src = { .fd = -1, .size = DATA_LEN, .name = "mem" };
	struct dk_err err;
	size_t n, n1, n2;
	int fd;

	src.mem = in;
	mk_dir();
	snprintf(plain, sizeof(plain), "%s/plain", dir);
	snprintf(z, sizeof(z), "%s/ours", dir);
	snprintf(z2, sizeof(z2), "%s/ours2", dir);
	snprintf(dz, sizeof(dz), "%s/back", dir);
	for (int r = 0; r < 2; r++) {
		fd = open(r ? z2 : z, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		ck_assert_int_ge(fd, 0);
		ck_assert_msg(dk_compress_src(&src, k, fd, z, &err) == DK_OK,
		    "%s", err.msg);
		close(fd);
	}
	sh("%s < '%s' > '%s'", untool[k], z, dz);
	back = get_file(dz, &n);
	ck_assert_uint_eq(n, DATA_LEN);
	ck_assert_mem_eq(back, in, DATA_LEN);
	one = get_file(z, &n1);
	two = get_file(z2, &n2);
	ck_assert_uint_eq(n1, n2);
	ck_assert_mem_eq(one, two, n1);
	ck_assert_uint_lt(n1, DATA_LEN);
	if (k == DK_COMP_GZIP) {
		/* RFC 1952: FLG 0 (no name), MTIME 0. */
		ck_assert_uint_eq(one[3], 0);
		ck_assert(one[4] == 0 && one[5] == 0 && one[6] == 0 &&
		    one[7] == 0);
	}
	free(in);
	free(back);
	free(one);
	free(two);
	rm_dir();
}
END_TEST

/* A generated dump, compressed by the tool, opened and read. */
START_TEST(test_open_dump)
{
	enum dk_comp k = (enum dk_comp)_i;
	struct fx_opts o = { .arch = "amd64", .version = 3, .mem = 64u << 20,
	    .seed = 9, .compact = 1 };
	struct fx_dump f;
	struct dk_dump *d;
	struct dk_err err;
	struct dk_run_iter it = { 0 };
	struct dk_run r;
	char plain[512], z[512], cut[512], tdir[512];
	uint8_t got[4096], want[4096], *zb;
	const char *old = getenv("TMPDIR");
	char *saved = old != NULL ? strdup(old) : NULL;
	size_t zlen, nread = 0;

	mk_dir();
	snprintf(plain, sizeof(plain), "%s/vmcore.0", dir);
	snprintf(z, sizeof(z), "%s/vmcore.0.z", dir);
	snprintf(cut, sizeof(cut), "%s/cut.z", dir);
	snprintf(tdir, sizeof(tdir), "%s/tmp", dir);
	ck_assert_int_eq(mkdir(tdir, 0700), 0);
	ck_assert_msg(fx_build(&o, &f, &err) == DK_OK, "%s", err.msg);
	ck_assert_msg(fx_write(&f, plain, 1, &err) == DK_OK, "%s", err.msg);
	sh("%s '%s' > '%s'", tool[k], plain, z);
	setenv("TMPDIR", tdir, 1);

	ck_assert_msg(dk_open(z, NULL, &d, &err) == DK_OK, "%s", err.msg);
	ck_assert_uint_eq(dk_nlayers(d), 1);
	ck_assert_str_eq(dk_layer(d, 0)->kind, dk_comp_name(k));
	ck_assert_str_eq(dk_info(d)->format, "minidump");
	ck_assert_int_eq(fds_in(tdir), 1);
	while (dk_run_next(d, &it, &r) && nread < 64) {
		for (uint64_t pa = r.pa; pa < r.pa + r.len && nread < 64;
		    pa += 4096 * 7, nread++) {
			ck_assert_int_eq(dk_read_pa(d, pa, got, sizeof(got),
			    &err), DK_OK);
			fx_expect(&f, pa, want, sizeof(want));
			ck_assert_msg(memcmp(got, want, sizeof(got)) == 0,
			    "pa %#jx", (uintmax_t)pa);
		}
	}
	ck_assert_uint_gt(nread, 10);
	dk_close(d);
	ck_assert_int_eq(fds_in(tdir), 0);
	ck_assert_int_eq(entries(tdir), 0);

	/* A failed open leaves nothing either, and says where. */
	zb = get_file(z, &zlen);
	put_file(cut, zb, zlen / 2);
	ck_assert_int_eq(dk_open(cut, NULL, &d, &err), DK_ETRUNC);
	ck_assert_ptr_null(d);
	ck_assert_msg(strstr(err.msg, cut) != NULL, "%s", err.msg);
	ck_assert_int_eq(fds_in(tdir), 0);
	ck_assert_int_eq(entries(tdir), 0);

	if (saved != NULL)
		setenv("TMPDIR", saved, 1);
	else
		unsetenv("TMPDIR");
	free(saved);
	free(zb);
	fx_free(&f);
	rm_dir();
}
END_TEST

/*
 * The one-pass stream (dk_open_stream): a zstd file of the tool's, whose
 * frame declares its size.  Pages read in order are the fixture's, with
 * nothing spooled and each byte decoded once; a read behind what was
 * kept spools the stream (one fallback, the whole size) and still reads
 * right; a sizeless stream (from a pipe) and gzip are spooled at open.
 */
START_TEST(test_one_pass)
{
	struct fx_opts o = { .arch = "amd64", .version = 3, .mem = 64u << 20,
	    .seed = 9, .compact = 1 };
	struct fx_dump f;
	struct dk_dump *d;
	struct dk_err err;
	struct dk_run_iter it = { 0 };
	struct dk_run r;
	struct dk_zstats zs;
	char plain[512], z[512], pz[512], gz[512];
	const char *one[1];
	uint8_t got[4096], want[4096];
	uint64_t mid = 0, last = 0, size;
	size_t nread = 0;

	mk_dir();
	snprintf(plain, sizeof(plain), "%s/vmcore.0", dir);
	snprintf(z, sizeof(z), "%s/vmcore.0.zst", dir);
	snprintf(pz, sizeof(pz), "%s/pipe.zst", dir);
	snprintf(gz, sizeof(gz), "%s/vmcore.0.gz", dir);
	ck_assert_msg(fx_build(&o, &f, &err) == DK_OK, "%s", err.msg);
	ck_assert_msg(fx_write(&f, plain, 1, &err) == DK_OK, "%s", err.msg);
	sh("%s '%s' > '%s'", tool[DK_COMP_ZSTD], plain, z);
	sh("%s < '%s' > '%s'", tool[DK_COMP_ZSTD], plain, pz);
	sh("%s '%s' > '%s'", tool[DK_COMP_GZIP], plain, gz);

	one[0] = z;
	ck_assert_msg(dk_open_stream(one, 1, NULL, &d, &err) == DK_OK, "%s",
	    err.msg);
	ck_assert_int_eq(dk_stream_stats(d, &zs), 1);
	size = dk_info(d)->file_size;
	ck_assert_uint_eq(zs.size, size);
	dk_src_sequential(&d->src);
	while (dk_run_next(d, &it, &r)) {
		for (uint64_t pa = r.pa; pa < r.pa + r.len; pa += 4096,
		    nread++) {
			ck_assert_int_eq(dk_read_pa(d, pa, got, sizeof(got),
			    &err), DK_OK);
			fx_expect(&f, pa, want, sizeof(want));
			ck_assert_msg(memcmp(got, want, sizeof(got)) == 0,
			    "pa %#jx", (uintmax_t)pa);
			if (nread == 1000)
				mid = pa;	/* 4 MiB in, past the head */
			last = pa;
		}
	}
	ck_assert_uint_gt(nread, 1000);
	ck_assert_int_eq(dk_stream_end(d, &err), DK_OK);
	dk_stream_stats(d, &zs);
	ck_assert_uint_eq(zs.fallbacks, 0);
	ck_assert_uint_eq(zs.spooled, 0);
	ck_assert_uint_eq(zs.decoded, size);	/* each byte once */
	ck_assert_uint_lt(zs.head, size / 2);
	dk_close(d);

	/* Behind the window and the head: one fallback, reads still right. */
	ck_assert_msg(dk_open_stream(one, 1, NULL, &d, &err) == DK_OK, "%s",
	    err.msg);
	dk_src_sequential(&d->src);
	ck_assert_int_eq(dk_read_pa(d, last, got, sizeof(got), &err), DK_OK);
	ck_assert_int_eq(dk_read_pa(d, mid, got, sizeof(got), &err), DK_OK);
	fx_expect(&f, mid, want, sizeof(want));
	ck_assert(memcmp(got, want, sizeof(got)) == 0);
	dk_stream_stats(d, &zs);
	ck_assert_uint_eq(zs.fallbacks, 1);
	ck_assert_uint_eq(zs.spooled, size);
	ck_assert_int_eq(dk_stream_end(d, &err), DK_OK);
	dk_close(d);

	/* No size in the frame, or gzip: the spool, as dk_open does. */
	one[0] = pz;
	ck_assert_msg(dk_open_stream(one, 1, NULL, &d, &err) == DK_OK, "%s",
	    err.msg);
	ck_assert_int_eq(dk_stream_stats(d, &zs), 0);
	dk_close(d);
	one[0] = gz;
	ck_assert_msg(dk_open_stream(one, 1, NULL, &d, &err) == DK_OK, "%s",
	    err.msg);
	ck_assert_int_eq(dk_stream_stats(d, &zs), 0);
	dk_close(d);
	fx_free(&f);
	rm_dir();
}
END_TEST

/* TMPDIR that cannot hold the file: a clear error, nothing left. */
START_TEST(test_bad_tmpdir)
{
	uint8_t *in = data(100000, 6);
	char plain[512], z[512];
	struct dk_unz u;
	struct dk_err err;
	const char *old = getenv("TMPDIR");
	char *saved = old != NULL ? strdup(old) : NULL;

	mk_dir();
	snprintf(plain, sizeof(plain), "%s/plain", dir);
	snprintf(z, sizeof(z), "%s/plain.gz", dir);
	put_file(plain, in, 100000);
	sh("%s '%s' > '%s'", tool[DK_COMP_GZIP], plain, z);
	setenv("TMPDIR", "/nonexistent/dumpkit", 1);
	ck_assert_int_eq(unz(z, &u, &err), DK_ESYS);
	ck_assert_msg(strstr(err.msg, "/nonexistent/dumpkit") != NULL &&
	    strstr(err.msg, "TMPDIR") != NULL, "%s", err.msg);
	if (saved != NULL)
		setenv("TMPDIR", saved, 1);
	else
		unsetenv("TMPDIR");
	free(saved);
	free(in);
	rm_dir();
}
END_TEST

static Suite *
compress_suite(void)
{
	Suite *s = suite_create("compress");
	TCase *dec = tcase_create("decode");
	TCase *wr = tcase_create("writer");
	TCase *op = tcase_create("open");

	tcase_add_test(dec, test_detect);
	tcase_add_loop_test(dec, test_tool_stream, DK_COMP_GZIP, DK_COMP_XZ + 1);
	tcase_add_loop_test(dec, test_concat_padding, DK_COMP_GZIP,
	    DK_COMP_XZ + 1);
	tcase_add_loop_test(dec, test_truncated, DK_COMP_GZIP, DK_COMP_XZ + 1);
	tcase_add_loop_test(dec, test_flipped, DK_COMP_GZIP, DK_COMP_XZ + 1);
	tcase_add_test(dec, test_bad_tmpdir);
	tcase_set_timeout(dec, 120);
	tcase_add_loop_test(wr, test_writer, DK_COMP_GZIP, DK_COMP_XZ + 1);
	tcase_set_timeout(wr, 120);
	tcase_add_loop_test(op, test_open_dump, DK_COMP_GZIP, DK_COMP_XZ + 1);
	tcase_add_test(op, test_one_pass);
	tcase_set_timeout(op, 120);
	suite_add_tcase(s, dec);
	suite_add_tcase(s, wr);
	suite_add_tcase(s, op);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(compress_suite());
	int nfailed;

	srunner_run_all(sr, CK_ENV);
	nfailed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfailed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
