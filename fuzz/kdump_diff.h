/*
 * kdump_diff.h -- what the kdump fuzz targets share (fuzz_kdump_check.c,
 * fuzz_kdump_flat.c, fuzz_kdump_codec.c): the validator's full pass
 * held against the reader on the same bytes.
 *
 * dumpcheck reads a kdump file on its own (check_kdump.c: its own
 * flattened index, descriptor walk and decompression); the reader
 * (fmt_kdump.c) is the library's.  On any input both must return, the
 * findings be well formed (fz_finding), and where the validator finds
 * no error the reader must open the file and read every dumped page,
 * with the digest of those pages (dk_digest, ascending addresses) equal
 * to dumpcheck --checksum's.
 */
#ifndef DK_KDUMP_DIFF_H
#define DK_KDUMP_DIFF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dkcheck.h"
#include "dumpkit.h"
#include "fuzz.h"

#define	FZ_KD_MAXPAGES	4096	/* pages read back per input */

static inline void
fz_kd_diff(const uint8_t *data, size_t size)
{
	struct dk_check_opts co = { .checksum = 1, .finding = fz_finding };
	struct dk_check_result res;
	struct dk_dump *d = NULL;
	struct dk_err err;
	struct dk_run_iter it = { 0 };
	struct dk_run r;
	struct dk_digest g;
	uint64_t sum[2], n = 0;
	uint8_t *page;
	size_t ps;
	int ok = 1;

	if (dk_check_mem(data, size, "fuzz", &co, &res, &err) != DK_OK) {
		FZ_CHECK(err.msg[0] != '\0');
		return;
	}
	FZ_CHECK(res.examined);
	if (res.format == NULL || strcmp(res.format, "kdump") != 0 ||
	    res.nerrors != 0 || res.npages > FZ_KD_MAXPAGES)
		return;
	/* No error: the reader opens it and reads every page alike. */
	FZ_CHECK(dk_open_mem(data, size, "fuzz", NULL, &d, &err) == DK_OK);
	FZ_CHECK(res.has_checksum);
	ps = dk_info(d)->page_size;
	FZ_CHECK(ps == res.page_size);
	FZ_CHECK(dk_info(d)->npages == res.npages);
	if ((page = malloc(ps)) == NULL) {
		dk_close(d);
		return;
	}
	dk_digest_init(&g, ps);
	while (ok && dk_run_next(d, &it, &r))
		for (uint64_t pa = r.pa; pa < r.pa + r.len; pa += ps, n++) {
			ok = dk_read_pa(d, pa, page, ps, &err) == DK_OK;
			if (!ok)
				break;
			dk_digest_page(&g, pa, page);
		}
	FZ_CHECK(ok);
	FZ_CHECK(n == res.npages);
	dk_digest_final(&g, sum);
	FZ_CHECK(sum[0] == res.checksum[0] && sum[1] == res.checksum[1]);
	free(page);
	dk_close(d);
}

#endif /* DK_KDUMP_DIFF_H */
