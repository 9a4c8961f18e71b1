/*
 * kdumpfile_kdump -- read every page of a kdump-compressed file with
 * libkdumpfile and compare it with what dumpkit reads from the source
 * the file was written from (dumpconv --to kdump).
 *
 *	kdumpfile_kdump [-a ARCH] [-z] KDUMP SOURCE...
 *	kdumpfile_kdump -p SEED -m MEM [-x] [-k] [-i] KDUMP
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
 * With -p, KDUMP is a dumpgen --format kdump file of MEM bytes of RAM,
 * and every page frame below MEM is read with libkdumpfile and checked
 * against the fixture pattern of SEED (docs/fixture-pattern.md): a page
 * must read as the pattern, or have no data where the pattern is zero
 * (-k: zero pages were kept, so never), where -x excluded it (PFN % 7 ==
 * 3, dumpgen's "excluded"), or anywhere (-i: an incomplete dump, whose
 * unwritten pages libkdumpfile 0.5.1 calls corrupt: "Wrong page size:
 * 0"); with -i a page of the pattern must be missing somewhere.
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
#include "kdumpfile_san.h"

/* docs/fixture-pattern.md, from the text (not formats/pattern.c). */
static uint64_t
mix(uint64_t x)
{
	uint64_t z = x + 0x9e3779b97f4a7c15ull;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void
pattern(uint64_t seed, uint64_t pa, unsigned char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++, pa++) {
		if (mix(seed ^ 0x5a45524f50414745ull ^ (pa >> 12)) % 4 != 0)
			buf[i] = 0;
		else
			buf[i] = (unsigned char)(mix(seed ^
			    0x7061747465726e00ull ^ (pa & ~7ull)) >>
			    (8 * (pa % 8)));
	}
}

static int all_zero(const unsigned char *, size_t);

/* -p: every frame below mem against the pattern. */
static int
check_pattern(kdump_ctx_t *kd, uint64_t seed, uint64_t mem, int excl,
    int keep, int incomplete)
{
	kdump_num_t ps = 0;
	unsigned char *a, *b;
	uint64_t equal = 0, none = 0, bad = 0, first_none = UINT64_MAX;

	if (kdump_get_number_attr(kd, KDUMP_ATTR_PAGE_SIZE, &ps) != KDUMP_OK ||
	    ps == 0 || (a = malloc(ps)) == NULL || (b = malloc(ps)) == NULL) {
		fprintf(stderr, "kdumpfile_kdump: no page size: %s\n",
		    kdump_get_err(kd));
		return 2;
	}
	for (uint64_t pa = 0; pa + ps <= mem; pa += ps) {
		uint64_t pfn = pa / ps;
		size_t got = ps;
		kdump_status ks = kdump_read(kd, KDUMP_MACHPHYSADDR, pa, a, &got);

		pattern(seed, pa, b, ps);
		if (ks == KDUMP_OK && got == ps && memcmp(a, b, ps) == 0 &&
		    !(excl && pfn % 7 == 3)) {
			equal++;
			continue;
		}
		/* libkdumpfile 0.5.1: an empty descriptor is "corrupt". */
		if ((ks == KDUMP_ERR_NODATA && ((excl && pfn % 7 == 3) ||
		    (!keep && all_zero(b, ps)))) || (incomplete &&
		    ks != KDUMP_OK)) {
			none++;
			if (first_none == UINT64_MAX && !(excl && pfn % 7 ==
			    3) && !all_zero(b, ps))
				first_none = pfn;
			continue;
		}
		if (bad++ < 10)
			fprintf(stderr, "kdumpfile_kdump: %#jx: %s\n",
			    (uintmax_t)pa, ks != KDUMP_OK ? kdump_get_err(kd) :
			    "not the pattern");
	}
	/* Incomplete: what is there is a prefix, and something is missing. */
	if (incomplete && first_none == UINT64_MAX) {
		fprintf(stderr, "kdumpfile_kdump: -i: every page was read\n");
		bad++;
	}
	printf("%ju pages equal to the pattern, %ju without data; page size "
	    "%ju%s\n", (uintmax_t)equal, (uintmax_t)none, (uintmax_t)ps,
	    bad ? "; DIFFERENCES" : "");
	free(a);
	free(b);
	return bad ? 1 : 0;
}

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
	int c, fd, no_zero = 0, pat = 0, excl = 0, keep = 0, inc = 0;
	uint64_t seed = 0, mem = 0;
	size_t ps;
	kdump_num_t kps = 0;

	while ((c = getopt(argc, argv, "a:zp:m:xki")) != -1) {
		if (c == 'a')
			oo.arch = optarg;
		else if (c == 'z')
			no_zero = 1;
		else if (c == 'p') {
			pat = 1;
			seed = strtoull(optarg, NULL, 0);
		} else if (c == 'm')
			mem = strtoull(optarg, NULL, 0);
		else if (c == 'x')
			excl = 1;
		else if (c == 'k')
			keep = 1;
		else if (c == 'i')
			inc = 1;
		else
			return 3;
	}
	if (pat) {
		if (argc - optind != 1 || mem == 0)
			return 3;
		fd = open(argv[optind], O_RDONLY);
		kd = kdump_new();
		if (fd < 0 || kd == NULL || kdump_open_fd(kd, fd) != KDUMP_OK) {
			fprintf(stderr, "kdumpfile_kdump: %s: %s\n",
			    argv[optind], kd != NULL ? kdump_get_err(kd) :
			    "kdump_new failed");
			return 2;
		}
		c = check_pattern(kd, seed, mem, excl, keep, inc);
		kdump_free(kd);
		close(fd);
		return c;
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
	/* A source of unknown page size (--page-size): the kdump file's. */
	if ((ps = dk_info(d)->page_size) == 0 &&
	    kdump_get_number_attr(kd, KDUMP_ATTR_PAGE_SIZE, &kps) == KDUMP_OK)
		ps = kps;
	if (ps == 0) {
		fprintf(stderr, "kdumpfile_kdump: no page size: %s\n",
		    kdump_get_err(kd));
		return 2;
	}
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
