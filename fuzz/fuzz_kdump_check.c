/*
 * fuzz_kdump_check.c -- libFuzzer target: dumpcheck's kdump validator
 * (formats/check_kdump.c) on any bytes, its full pass (every page
 * decompressed, --checksum) and its quick one, held against the reader
 * (kdump_diff.h): where it finds no error, the reader reads every page
 * and the digests agree.
 *
 * Seeds: fuzz/corpus/kdump_check, written with the others by the Check
 * suite's writer (CHECK_KDUMP_SEEDS=fuzz/corpus/kdump
 * build/tests/check_kdump): plain, flattened, split and cut files of
 * every layout and codec, and damaged ones (the descriptors, bitmaps
 * and records the validator reports on).
 */
#include "kdump_diff.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dk_check_opts co = { .quick = 1, .finding = fz_finding };
	struct dk_check_result res;
	struct dk_err err;

	fz_kd_diff(data, size);
	if (dk_check_mem(data, size, "fuzz", &co, &res, &err) != DK_OK)
		FZ_CHECK(err.msg[0] != '\0');
	return 0;
}
