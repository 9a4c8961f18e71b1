/*
 * readall -- read throughput and lookup rates of libdumpkit, over the
 * public API only (dumpkit.h).
 *
 *	readall [--mode MODE] [-n N] [--chunk BYTES] [--seed S]
 *	        [--arch ARCH] FILE
 *
 * Modes:
 *   all     read every dumped page: each run of dk_run_next() with
 *           dk_read_pa() in chunks (default 1 MiB); bytes, seconds, MB/s
 *   random  read N random dumped pages, a page at a time (default N =
 *           100000); pages/s and MB/s
 *   kvtop   translate N random kernel virtual addresses (default 10^6):
 *           "mapped" draws from the mapped pages found by walking the
 *           kernel map from both ends, "any" draws uniformly from the
 *           kernel map [kernbase, kva_end); lookups/s and hit rate
 *   open    open and close only: the cost and peak RSS of dk_open
 *
 * One line of "key value" pairs per measurement on stdout, for scripts
 * (bench/run.sh); MB is 10^6 bytes.  Peak RSS (maxrss_kib) is the
 * process's whole life, from getrusage().  Exit status: 0 success, 1 the
 * dump could not be read, 2 usage error.
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "dumpkit.h"

#define	RA_CHUNK	(1u << 20)
#define	RA_WALK_STEPS	(1u << 20)	/* pages walked from each end */
#define	RA_MAX_MAPPED	(1u << 16)	/* mapped VAs kept for "mapped" */

struct runs {
	struct dk_run	*r;
	uint64_t	*first;		/* pages before run i */
	size_t		 n;
	uint64_t	 npages;
};

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static long
maxrss_kib(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : -1;
}

/* splitmix64: the benchmark's only source of randomness. */
static uint64_t
rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int
mode_all(struct dk_dump *d, size_t chunk)
{
	struct dk_run_iter it = { 0 };
	struct dk_run run;
	struct dk_err err;
	uint64_t bytes = 0, nruns = 0, sum = 0;
	uint8_t *buf = malloc(chunk);
	double t0, t;

	if (buf == NULL) {
		fprintf(stderr, "readall: out of memory\n");
		return 1;
	}
	t0 = now();
	while (dk_run_next(d, &it, &run)) {
		nruns++;
		for (uint64_t o = 0; o < run.len; ) {
			size_t n = run.len - o < chunk ? (size_t)(run.len - o) :
			    chunk;

			if (dk_read_pa(d, run.pa + o, buf, n, &err) != DK_OK) {
				fprintf(stderr, "readall: %s\n", err.msg);
				free(buf);
				return 1;
			}
			sum += buf[0] + buf[n - 1];
			bytes += n;
			o += n;
		}
	}
	t = now() - t0;
	printf("mode all runs %ju bytes %ju seconds %.3f MBps %.1f "
	    "maxrss_kib %ld check %ju\n", (uintmax_t)nruns, (uintmax_t)bytes,
	    t, t > 0 ? (double)bytes / t / 1e6 : 0.0, maxrss_kib(),
	    (uintmax_t)sum);
	free(buf);
	return 0;
}

static void
runs_free(struct runs *rs)
{
	free(rs->r);
	free(rs->first);
}

/* Collect the runs, with the count of pages before each. */
static int
runs_load(struct dk_dump *d, struct runs *rs)
{
	struct dk_run_iter it = { 0 };
	struct dk_run run;
	size_t cap = 0;
	uint64_t page = dk_info(d)->page_size;

	memset(rs, 0, sizeof(*rs));
	while (dk_run_next(d, &it, &run)) {
		if (rs->n == cap) {
			size_t ncap = cap ? 2 * cap : 1024;
			struct dk_run *nr = realloc(rs->r, ncap * sizeof(*nr));
			uint64_t *nf;

			if (nr == NULL)
				return -1;
			rs->r = nr;
			nf = realloc(rs->first, ncap * sizeof(*nf));
			if (nf == NULL)
				return -1;
			rs->first = nf;
			cap = ncap;
		}
		rs->r[rs->n] = run;
		rs->first[rs->n++] = rs->npages;
		rs->npages += run.len / page;
	}
	return 0;
}

/* The physical address of dumped page k (0 <= k < npages). */
static uint64_t
runs_page(const struct runs *rs, uint64_t k, uint64_t page)
{
	size_t lo = 0, hi = rs->n;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (rs->first[mid] <= k)
			lo = mid;
		else
			hi = mid;
	}
	return rs->r[lo].pa + (k - rs->first[lo]) * page;
}

static int
mode_random(struct dk_dump *d, uint64_t n, uint64_t seed)
{
	uint64_t page = dk_info(d)->page_size, sum = 0;
	struct runs rs;
	struct dk_err err;
	uint8_t *buf = malloc(page);
	double t0, t;

	if (buf == NULL || runs_load(d, &rs) != 0) {
		fprintf(stderr, "readall: out of memory\n");
		free(buf);
		return 1;
	}
	if (rs.npages == 0) {
		fprintf(stderr, "readall: no dumped pages\n");
		runs_free(&rs);
		free(buf);
		return 1;
	}
	t0 = now();
	for (uint64_t i = 0; i < n; i++) {
		uint64_t pa = runs_page(&rs, rnd(&seed) % rs.npages, page);

		if (dk_read_pa(d, pa, buf, page, &err) != DK_OK) {
			fprintf(stderr, "readall: %s\n", err.msg);
			runs_free(&rs);
			free(buf);
			return 1;
		}
		sum += buf[0];
	}
	t = now() - t0;
	printf("mode random pages %ju bytes %ju seconds %.3f pages_per_s %.0f "
	    "MBps %.1f maxrss_kib %ld check %ju\n", (uintmax_t)n,
	    (uintmax_t)(n * page), t, t > 0 ? (double)n / t : 0.0,
	    t > 0 ? (double)(n * page) / t / 1e6 : 0.0, maxrss_kib(),
	    (uintmax_t)sum);
	runs_free(&rs);
	free(buf);
	return 0;
}

/*
 * Walk the kernel map a page at a time from its start, then from its end
 * (RA_WALK_STEPS pages at most each way); keep the mapped VAs.
 */
static size_t
find_mapped(struct dk_dump *d, uint64_t *va, size_t max)
{
	const struct dk_info *in = dk_info(d);
	uint64_t page = in->page_size, kb = in->kernbase, end = in->kva_end;
	uint64_t pages = end > kb ? (end - kb) / page : 0, pa, fwd, lo;
	struct dk_err err;
	size_t n = 0;

	fwd = pages < RA_WALK_STEPS ? pages : RA_WALK_STEPS;
	lo = pages - fwd > fwd ? pages - fwd : fwd;
	for (uint64_t k = 0; k < fwd && n < max / 2; k++)
		if (dk_kvtop(d, kb + k * page, &pa, &err) == DK_OK)
			va[n++] = kb + k * page;
	for (uint64_t k = pages; k > lo && n < max; k--)
		if (dk_kvtop(d, kb + (k - 1) * page, &pa, &err) == DK_OK)
			va[n++] = kb + (k - 1) * page;
	return n;
}

static int
mode_kvtop(struct dk_dump *d, uint64_t n, uint64_t seed)
{
	const struct dk_info *in = dk_info(d);
	uint64_t *va = malloc(RA_MAX_MAPPED * sizeof(*va));
	uint64_t span = in->kva_end > in->kernbase ? in->kva_end -
	    in->kernbase : 0, hits = 0, pa, sum = 0;
	struct dk_err err;
	size_t nmapped;
	double t0, t;

	if (va == NULL) {
		fprintf(stderr, "readall: out of memory\n");
		return 1;
	}
	t0 = now();
	nmapped = find_mapped(d, va, RA_MAX_MAPPED);
	t = now() - t0;
	printf("mode kvtop-scan found %zu seconds %.3f\n", nmapped, t);
	if (nmapped > 0) {
		t0 = now();
		for (uint64_t i = 0; i < n; i++) {
			uint64_t v = va[rnd(&seed) % nmapped] +
			    rnd(&seed) % in->page_size;

			if (dk_kvtop(d, v, &pa, &err) == DK_OK) {
				hits++;
				sum += pa;
			}
		}
		t = now() - t0;
		printf("mode kvtop-mapped lookups %ju hits %ju seconds %.3f "
		    "lookups_per_s %.0f check %ju\n", (uintmax_t)n,
		    (uintmax_t)hits, t, t > 0 ? (double)n / t : 0.0,
		    (uintmax_t)sum);
	}
	if (span > 0) {
		hits = 0;
		t0 = now();
		for (uint64_t i = 0; i < n; i++) {
			uint64_t v = in->kernbase + rnd(&seed) % span;

			if (dk_kvtop(d, v, &pa, &err) == DK_OK)
				hits++;
		}
		t = now() - t0;
		printf("mode kvtop-any lookups %ju hits %ju seconds %.3f "
		    "lookups_per_s %.0f\n", (uintmax_t)n, (uintmax_t)hits, t,
		    t > 0 ? (double)n / t : 0.0);
	}
	free(va);
	return 0;
}

static int
usage(void)
{
	fprintf(stderr, "usage: readall [--mode all|random|kvtop|open] "
	    "[-n N] [--chunk BYTES] [--seed S] [--arch ARCH] FILE\n");
	return 2;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "mode", required_argument, NULL, 'm' },
		{ "count", required_argument, NULL, 'n' },
		{ "chunk", required_argument, NULL, 'c' },
		{ "seed", required_argument, NULL, 's' },
		{ "arch", required_argument, NULL, 'a' },
		{ NULL, 0, NULL, 0 },
	};
	struct dk_open_opts o = { 0 };
	const char *mode = "all";
	uint64_t n = 0, seed = 1;
	size_t chunk = RA_CHUNK;
	struct dk_dump *d;
	struct dk_err err;
	double t0, t;
	int c, rc;
	char *end;

	while ((c = getopt_long(argc, argv, "m:n:c:s:a:", longopts, NULL)) !=
	    -1) {
		switch (c) {
		case 'm':
			mode = optarg;
			break;
		case 'n':
			n = strtoull(optarg, &end, 0);
			if (*optarg == '\0' || *end != '\0' || n == 0)
				return usage();
			break;
		case 'c':
			chunk = (size_t)strtoull(optarg, &end, 0);
			if (*optarg == '\0' || *end != '\0' || chunk == 0)
				return usage();
			break;
		case 's':
			seed = strtoull(optarg, &end, 0);
			if (*optarg == '\0' || *end != '\0')
				return usage();
			break;
		case 'a':
			o.arch = optarg;
			break;
		default:
			return usage();
		}
	}
	if (argc - optind != 1)
		return usage();
	if (strcmp(mode, "all") != 0 && strcmp(mode, "random") != 0 &&
	    strcmp(mode, "kvtop") != 0 && strcmp(mode, "open") != 0)
		return usage();

	t0 = now();
	if (dk_open(argv[optind], &o, &d, &err) != DK_OK) {
		fprintf(stderr, "readall: %s\n", err.msg);
		return 1;
	}
	t = now() - t0;
	if (strcmp(mode, "open") == 0) {
		const struct dk_info *in = dk_info(d);

		printf("mode open seconds %.3f npages %ju file_size %ju "
		    "maxrss_kib %ld\n", t, (uintmax_t)in->npages,
		    (uintmax_t)in->file_size, maxrss_kib());
		rc = 0;
	} else if (strcmp(mode, "all") == 0)
		rc = mode_all(d, chunk);
	else if (strcmp(mode, "random") == 0)
		rc = mode_random(d, n ? n : 100000, seed);
	else
		rc = mode_kvtop(d, n ? n : 1000000, seed);
	dk_close(d);
	return rc;
}
