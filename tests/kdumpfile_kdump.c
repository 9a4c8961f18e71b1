/*
 * kdumpfile_kdump -- read every page of a kdump-compressed file with
 * libkdumpfile and compare it with what dumpkit reads from the source
 * the file was written from (dumpconv --to kdump).
 *
 *	kdumpfile_kdump [-a ARCH] [-z] KDUMP SOURCE...
 *
 * SOURCE is one dump or the files of a split set (dk_open_set).  For
 * every page of every run of SOURCE (dk_run_next), the page is read from
 * KDUMP with kdump_read() in KDUMP_MACHPHYSADDR and from SOURCE with
 * dk_read_pa(); they must be equal.  A page libkdumpfile finds no data
 * for (KDUMP_ERR_NODATA: left out of bitmap 2) must be all zeros in
 * SOURCE (a zero page left out), unless -z says none was left out.
 * libkdumpfile reads no page that SOURCE does not have: the count of
 * its pages is not checked here (dumpinfo does).
 *
 * One line on stdout: "PAGES pages equal, ZERO zero pages left out, of
 * RUNS runs; libkdumpfile: FORMAT, ARCH".  Exit status: 0 every page
 * equal, 1 a difference or a failed read, 2 a file could not be opened,
 * 3 usage error.
 */
#include <fcntl.h>
#include <libkdumpfile/kdumpfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dumpkit.h"

static int
all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != 0)
			return 0;
	return 1;
}

int
main(int argc, char **argv)
{
	struct dk_open_opts oo = { 0 };
	struct dk_dump *d;
	struct dk_err err;
	struct dk_run_iter it = { 0 };
	struct dk_run r;
	kdump_ctx_t *kd;
	const char *fmt = "?", *arch = "?";
	unsigned char *a, *b;
	uint64_t equal = 0, zero = 0, runs = 0, bad = 0;
	int c, fd, no_zero = 0;
	size_t ps;

	while ((c = getopt(argc, argv, "a:z")) != -1) {
		if (c == 'a')
			oo.arch = optarg;
		else if (c == 'z')
			no_zero = 1;
		else
			return 3;
	}
	if (argc - optind < 2) {
		fprintf(stderr, "usage: kdumpfile_kdump [-a ARCH] [-z] KDUMP "
		    "SOURCE...\n");
		return 3;
	}
	if ((argc - optind == 2 ? dk_open(argv[optind + 1], &oo, &d, &err) :
	    dk_open_set((const char *const *)argv + optind + 1,
	    (size_t)(argc - optind - 1), &oo, &d, &err)) != DK_OK) {
		fprintf(stderr, "kdumpfile_kdump: %s\n", err.msg);
		return 2;
	}
	fd = open(argv[optind], O_RDONLY);
	kd = kdump_new();
	if (fd < 0 || kd == NULL || kdump_open_fd(kd, fd) != KDUMP_OK) {
		fprintf(stderr, "kdumpfile_kdump: %s: %s\n", argv[optind],
		    kd != NULL ? kdump_get_err(kd) : "kdump_new failed");
		return 2;
	}
	(void)kdump_get_string_attr(kd, KDUMP_ATTR_FILE_FORMAT, &fmt);
	(void)kdump_get_string_attr(kd, KDUMP_ATTR_ARCH_NAME, &arch);
	ps = dk_info(d)->page_size;
	a = malloc(ps);
	b = malloc(ps);
	if (a == NULL || b == NULL)
		return 2;
	while (dk_run_next(d, &it, &r)) {
		runs++;
		for (uint64_t pa = r.pa; pa < r.pa + r.len; pa += ps) {
			size_t got = ps;
			kdump_status ks;

			if (dk_read_pa(d, pa, b, ps, &err) != DK_OK) {
				fprintf(stderr, "kdumpfile_kdump: source: %s\n",
				    err.msg);
				bad++;
				continue;
			}
			ks = kdump_read(kd, KDUMP_MACHPHYSADDR, pa, a, &got);
			if (ks == KDUMP_ERR_NODATA && !no_zero &&
			    all_zero(b, ps)) {
				zero++;
				continue;
			}
			if (ks != KDUMP_OK || got != ps) {
				if (bad++ < 10)
					fprintf(stderr, "kdumpfile_kdump: %#jx: "
					    "libkdumpfile: %s\n", (uintmax_t)pa,
					    kdump_get_err(kd));
				continue;
			}
			if (memcmp(a, b, ps) != 0) {
				if (bad++ < 10)
					fprintf(stderr, "kdumpfile_kdump: %#jx: "
					    "the bytes differ\n", (uintmax_t)pa);
				continue;
			}
			equal++;
		}
	}
	printf("%ju pages equal, %ju zero pages left out, of %ju runs; "
	    "libkdumpfile: %s, %s%s\n", (uintmax_t)equal, (uintmax_t)zero,
	    (uintmax_t)runs, fmt, arch, bad ? "; DIFFERENCES" : "");
	kdump_free(kd);
	close(fd);
	dk_close(d);
	free(a);
	free(b);
	return bad ? 1 : 0;
}
