/*
 * fuzz_kdh.c -- libFuzzer target for kerneldumpheader containers
 * (formats/fmt_kdh.c, formats/check_kdh.c).
 *
 * The input is taken three ways: as one header (its first 512 bytes
 * decoded, re-encoded and decoded again: the values must survive), as a
 * dump-device image or leading-header vmcore located in memory, and
 * opened and checked through the public API (dk_open_mem, dk_check_mem),
 * which peel the container and hand the stream on.  Invariants: a
 * located container's pieces lie inside the input, an error has a
 * message, a success of dk_open_mem reports the layer it went through.
 * A broken invariant aborts.
 *
 * Linked with libFuzzer (make fuzz) or with replay.c (make fuzz-replay).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dkcheck.h"
#include "private.h"
#include "fuzz.h"

static void
one_header(const uint8_t *data)
{
	struct dk_kdh_info a, b;
	struct dk_err err;
	uint8_t out[DK_KDH_SIZE];

	if (dk_kdh_decode(data, &a, &err) != DK_OK)
		return;
	FZ_CHECK(a.version >= 1 && a.version <= 4);
	FZ_CHECK(memchr(a.hostname, '\0', sizeof(a.hostname)) != NULL);
	FZ_CHECK(memchr(a.panicstring, '\0', sizeof(a.panicstring)) != NULL);
	dk_kdh_encode(&a, out);
	FZ_CHECK(dk_kdh_parity(out) == 0);
	FZ_CHECK(dk_kdh_decode(out, &b, &err) == DK_OK);
	FZ_CHECK(b.version == a.version && b.dumplength == a.dumplength &&
	    b.dumptime == a.dumptime && b.blocksize == a.blocksize &&
	    b.dumpkeysize == a.dumpkeysize && b.compression == a.compression);
	FZ_CHECK(strcmp(a.hostname, b.hostname) == 0);
}

static void
on_finding(void *arg, const struct dk_finding *f)
{
	FZ_CHECK(f->code != NULL && f->msg[0] != '\0');
	(void)arg;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dk_src src = { .fd = -1, .mem = data, .size = size,
	    .name = "fuzz-input" };
	struct dk_check_opts co = { .quick = 1, .finding = on_finding };
	struct dk_check_result res;
	struct dk_kdh_info k;
	struct dk_dump *d;
	struct dk_err err;
	uint8_t raw[DK_KDH_SIZE];
	enum dk_status st;

	if (size >= DK_KDH_SIZE)
		one_header(data);
	dk_err_clear(&err);
	st = dk_kdh_locate(&src, &k, raw, &err);
	if (st == DK_OK) {
		FZ_CHECK(k.leader_offset <= size - DK_KDH_SIZE);
		FZ_CHECK(k.dump_offset <= size);
		FZ_CHECK(k.dumplength <= size - k.dump_offset);
		FZ_CHECK(k.trailer_offset == UINT64_MAX ||
		    k.trailer_offset <= size - DK_KDH_SIZE);
		FZ_CHECK(memcmp(raw, data + k.leader_offset, DK_KDH_SIZE) == 0);
	} else if (st != DK_NOMATCH)
		FZ_CHECK(err.code == st && err.msg[0] != '\0');
	if (dk_open_mem(data, size, "fuzz-input", NULL, &d, &err) == DK_OK) {
		if (st == DK_OK && k.magic != DK_KDH_TEXT && !k.encrypted) {
			FZ_CHECK(dk_nlayers(d) >= 1);
			FZ_CHECK(dk_kdh(d) != NULL);
		}
		dk_close(d);
	} else
		FZ_CHECK(err.msg[0] != '\0');
	(void)dk_check_mem(data, size, "fuzz-input", &co, &res, &err);
	return 0;
}
