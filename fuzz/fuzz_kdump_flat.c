/*
 * fuzz_kdump_flat.c -- libFuzzer target: the flattened form's records
 * (makedumpfile -F, QEMU), indexed by the reader (fmt_kdump.c) and by
 * the validator (check_kdump.c) each its own way.
 *
 * The input is what follows the 4096-byte flattened header (which this
 * target writes: "makedumpfile", type 1, version 1): big-endian (offset,
 * size) records and their bytes, overlapping, out of order, cut, with or
 * without the end marker.  The reader must open or refuse the file with
 * a message, read what it opens without crashing, and agree with the
 * validator (kdump_diff.h).  Seeds (fuzz/corpus/kdump_flat): the
 * records of the Check suite's flattened files.
 */
#include "kdump_diff.h"

#define	FZ_FLAT_HDR	4096

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *b = malloc(FZ_FLAT_HDR + size);
	struct dk_dump *d;
	struct dk_err err;

	if (b == NULL)
		return 0;
	memset(b, 0, FZ_FLAT_HDR);
	memcpy(b, "makedumpfile", 12);
	b[16 + 7] = 1;			/* type 1, big-endian int64 */
	b[24 + 7] = 1;			/* version 1 */
	if (size > 0)
		memcpy(b + FZ_FLAT_HDR, data, size);
	if (dk_open_mem(b, FZ_FLAT_HDR + size, "fuzz", NULL, &d, &err) ==
	    DK_OK) {
		struct dk_run_iter it = { 0 };
		struct dk_run r;
		uint8_t buf[64];
		int n = 0;

		while (dk_run_next(d, &it, &r) && n++ < 64) {
			enum dk_status st = dk_read_pa(d, r.pa, buf, 64, &err);

			FZ_CHECK(st == DK_OK || err.msg[0] != '\0');
		}
		dk_close(d);
	} else
		FZ_CHECK(err.msg[0] != '\0');
	fz_kd_diff(b, FZ_FLAT_HDR + size);
	free(b);
	return 0;
}
