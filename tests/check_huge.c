/*
 * check_huge.c -- dumps of machines with huge memory (issue 17).
 *
 * The dump of a 16 TiB machine with 64 MiB dumped has a 512 MiB bitmap;
 * opening, reading and checking it must hold memory for its runs of
 * dumped pages, not for the bitmap (the bound below is per run; the
 * whole bitmap would be 512 MiB and its index 16 MiB more), and its
 * writer leaves the bitmap's empty chunks as holes.  A 128 TiB amd64
 * machine needs a bitmapsize of 2^32, which the header's uint32_t
 * cannot hold: the writer refuses it, naming the field, and dumpgen
 * exits 3 with that message and writes nothing.  The open reads only the
 * bitmap's data extents (SEEK_DATA), counted by the bitmap's read.
 */
#include <check.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dkcheck.h"
#include "gen.h"
#include "private.h"

static char tmpdir[256];

static void
setup_tmp(void)
{
	const char *t = getenv("TMPDIR");

	snprintf(tmpdir, sizeof(tmpdir), "%s/dkhuge.XXXXXX", t ? t : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static const char huge_bitmap_msg[] = "field bitmapsize (uint32_t, 4 "
    "bytes) cannot hold 4294967296 (0x100000000): at most 4294967295";

START_TEST(test_huge_open_bounded)
{
	struct fx_opts o = { .arch = "amd64", .version = 3,
	    .mem = (uint64_t)16 << 40, .dumped = 64u << 20, .seed = 7,
	    .sparse = 1 };
	struct dk_check_opts co = { .quick = 1 };
	struct dk_check_result res;
	struct dk_run_iter it = { 0 };
	struct dk_run run;
	struct fx_dump f;
	struct dk_dump *d;
	struct dk_err err;
	struct stat sb;
	char path[300];
	uint8_t got[64], want[64];
	uint64_t nruns = 0, bytes, nbits;

	setup_tmp();
	snprintf(path, sizeof(path), "%s/huge", tmpdir);
	ck_assert_int_eq(fx_build(&o, &f, &err), DK_OK);
	ck_assert_int_eq(fx_write(&f, path, 0, &err), DK_OK);
	/* 512 MiB of bitmap, nearly all of it zero: holes, not blocks. */
	ck_assert_int_eq(stat(path, &sb), 0);
	ck_assert_msg((uint64_t)sb.st_blocks * 512 < (32u << 20), "%s: %ju "
	    "bytes allocated of %ju", path, (uintmax_t)sb.st_blocks * 512,
	    (uintmax_t)sb.st_size);

	ck_assert_int_eq(dk_open(path, NULL, &d, &err), DK_OK);
	ck_assert_uint_eq(d->info.npages, f.bm.count);
	while (dk_run_next(d, &it, &run))
		nruns++;
	nbits = dk_md(d)->bm.nbits;
	bytes = dk_bitmap_bytes(&dk_md(d)->bm);
	ck_assert_uint_gt(nbits, (uint64_t)1 << 31);	/* 16 TiB of 4 KiB pages */
	/*
	 * A run starts and ends in at most two 66-byte blocks and two
	 * 64-byte superblock entries (twice that, as the array doubles).
	 */
	ck_assert_msg(bytes <= 400 * nruns + 4096, "the bitmap of %ju bits "
	    "(%ju runs) holds %ju bytes", (uintmax_t)nbits,
	    (uintmax_t)nruns, (uintmax_t)bytes);
	ck_assert_uint_lt(bytes, nbits / 8 / 1000);
	/*
	 * The open read the bitmap's data extents only (SEEK_DATA): at
	 * most what the file has allocated, not its 512 MiB.
	 */
	ck_assert_msg(dk_md(d)->bm.read <= (uint64_t)sb.st_blocks * 512 &&
	    dk_md(d)->bm.read < nbits / 8 / 16, "the open read %ju bytes of "
	    "a bitmap of %ju bytes (%ju allocated in the file)",
	    (uintmax_t)dk_md(d)->bm.read, (uintmax_t)(nbits / 8),
	    (uintmax_t)sb.st_blocks * 512);
	ck_assert_uint_gt(dk_md(d)->bm.read, 0);
	/* The first and the last dumped page read as the model says. */
	it = (struct dk_run_iter){ 0 };
	ck_assert(dk_run_next(d, &it, &run));
	ck_assert_int_eq(dk_read_pa(d, run.pa, got, sizeof(got), &err),
	    DK_OK);
	fx_expect(&f, run.pa, want, sizeof(want));
	ck_assert_mem_eq(got, want, sizeof(want));
	while (dk_run_next(d, &it, &run))
		;
	ck_assert_int_eq(dk_read_pa(d, run.pa + run.len - 64, got,
	    sizeof(got), &err), DK_OK);
	fx_expect(&f, run.pa + run.len - 64, want, sizeof(want));
	ck_assert_mem_eq(got, want, sizeof(want));
	dk_close(d);

	/* The validator reads the same bitmap, and finds nothing. */
	ck_assert_int_eq(dk_check(path, &co, &res, &err), DK_OK);
	ck_assert(res.examined);
	ck_assert_uint_eq(res.npages, f.bm.count);
	ck_assert_uint_eq(res.nerrors, 0);
	fx_free(&f);
	unlink(path);
	rmdir(tmpdir);
}
END_TEST

/* The writer refuses what the header cannot hold, and leaves no file. */
START_TEST(test_huge_bitmapsize_refused)
{
	struct fx_opts o = { .arch = "amd64", .version = 3,
	    .mem = (uint64_t)128 << 40, .dumped = 64u << 20, .seed = 7,
	    .sparse = 1 };
	struct fx_dump f;
	struct dk_err err;
	char path[300];

	setup_tmp();
	snprintf(path, sizeof(path), "%s/huge", tmpdir);
	ck_assert_int_eq(fx_build(&o, &f, &err), DK_OK);
	ck_assert_int_eq(fx_write(&f, path, 0, &err), DK_EINVAL);
	ck_assert_msg(strstr(err.msg, huge_bitmap_msg) != NULL, "%s",
	    err.msg);
	ck_assert_ptr_nonnull(strstr(err.msg, "minidump-amd64 version 3"));
	ck_assert_int_eq(access(path, F_OK), -1);
	fx_free(&f);
	/* The largest machine whose bitmap fits: 2^35 - 2^15 pages. */
	o.mem = ((uint64_t)128 << 40) - ((uint64_t)128 << 20);
	ck_assert_int_eq(fx_build(&o, &f, &err), DK_OK);
	ck_assert_int_eq(fx_write(&f, path, 0, &err), DK_OK);
	fx_free(&f);
	unlink(path);
	ck_assert_int_eq(rmdir(tmpdir), 0);
}
END_TEST

/* The dumpgen next to this program: BUILD/tests/check_huge. */
static void
tool_path(char *buf, size_t len, const char *tool)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	ck_assert_int_gt(n, 0);
	self[n] = '\0';
	ck_assert_ptr_nonnull(slash = strrchr(self, '/'));
	*slash = '\0';
	ck_assert_ptr_nonnull(slash = strrchr(self, '/'));
	*slash = '\0';
	ck_assert_int_lt(snprintf(buf, len, "%.*s/bin/%s", (int)(len - 64),
	    self, tool), (int)len);
	ck_assert_msg(access(buf, X_OK) == 0, "%s: %s (make all first)", buf,
	    strerror(errno));
}

/* dumpgen --mem 128T: exit 3, the field named, nothing written. */
START_TEST(test_huge_dumpgen_128t)
{
	char dumpgen[PATH_MAX], out[300], log[300], msg[1024];
	int status;
	pid_t pid;
	FILE *fp;
	size_t n;

	tool_path(dumpgen, sizeof(dumpgen), "dumpgen");
	setup_tmp();
	snprintf(out, sizeof(out), "%s/vmcore.0", tmpdir);
	snprintf(log, sizeof(log), "%s/stderr", tmpdir);
	ck_assert_int_ge(pid = fork(), 0);
	if (pid == 0) {
		if (freopen(log, "w", stderr) == NULL ||
		    freopen("/dev/null", "w", stdout) == NULL)
			_exit(126);
		execl(dumpgen, "dumpgen", "--arch", "amd64", "--mem", "128T",
		    "--dumped", "64M", "--sparse", "-o", out, (char *)NULL);
		_exit(127);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 3);
	ck_assert_int_eq(access(out, F_OK), -1);
	ck_assert_ptr_nonnull(fp = fopen(log, "r"));
	n = fread(msg, 1, sizeof(msg) - 1, fp);
	msg[n] = '\0';
	fclose(fp);
	ck_assert_msg(strstr(msg, huge_bitmap_msg) != NULL, "%s", msg);
	ck_assert_msg(strncmp(msg, "dumpgen: ", 9) == 0, "%s", msg);
	unlink(log);
	ck_assert_int_eq(rmdir(tmpdir), 0);
}
END_TEST

static Suite *
huge_suite(void)
{
	Suite *s = suite_create("huge");
	TCase *tc = tcase_create("huge");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_huge_open_bounded);
	tcase_add_test(tc, test_huge_bitmapsize_refused);
	tcase_add_test(tc, test_huge_dumpgen_128t);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(huge_suite());
	int nfailed;

	srunner_run_all(sr, CK_ENV);
	nfailed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfailed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
