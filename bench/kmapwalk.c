/*
 * kmapwalk -- the kernel-map walk of a dump alone, for make bench: the
 * runs dumpconv writes as virtual segments, the translations the walk
 * asked (the library's probe counter, private.h), the page-table pages
 * it read (the page-table cache's misses) and the time.
 *
 *	kmapwalk [--arch ARCH] [--kernel FILE] FILE
 *
 * One line of "key value" pairs on stdout: runs, probes, table_pages,
 * seconds, ns_per_probe, and status (ok, or the walk's error code, e.g.
 * DK_ELIMIT when the walk gave up).  Exit status: 0 walked (even if the
 * walk stopped with an error), 1 the dump did not open, 2 usage error.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "private.h"

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "arch", required_argument, NULL, 'a' },
		{ "kernel", required_argument, NULL, 'k' },
		{ NULL, 0, NULL, 0 }
	};
	struct dk_open_opts o;
	struct dk_kmap_iter it = { 0, 0, 0 };
	struct dk_kmap_run r;
	struct dk_dump *d;
	struct dk_err err;
	uint64_t runs = 0;
	double t0, t;
	int c;

	memset(&o, 0, sizeof(o));
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (c == 'a')
			o.arch = optarg;
		else if (c == 'k')
			o.kernel = optarg;
		else
			goto usage;
	}
	if (optind + 1 != argc)
		goto usage;
	if (dk_open(argv[optind], &o, &d, &err) != DK_OK) {
		fprintf(stderr, "kmapwalk: %s\n", err.msg);
		return 1;
	}
	t0 = now();
	while (dk_kmap_next(d, &it, &r, &err))
		runs++;
	t = now() - t0;
	printf("runs %ju probes %ju table_pages %ju seconds %.6f "
	    "ns_per_probe %.1f status %s\n", (uintmax_t)runs,
	    (uintmax_t)it.probes, (uintmax_t)d->ptc.misses, t,
	    it.probes > 0 ? t * 1e9 / (double)it.probes : 0.0,
	    err.code == DK_OK ? "ok" : dk_status_name(err.code));
	dk_close(d);
	return 0;
usage:
	fprintf(stderr, "usage: kmapwalk [--arch ARCH] [--kernel FILE] "
	    "FILE\n");
	return 2;
}
