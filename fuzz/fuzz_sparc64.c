/*
 * fuzz_sparc64.c -- libFuzzer target: sparc64 dumps (fmt_sparc64.c),
 * their dumpcheck rules (check_sparc64.c) and their conversion plan to
 * the portable format (fmt_elfmini.c's sparc64 row).
 *
 * The seeds (fuzz/corpus/sparc64, made by fuzz/seed.sh) are small
 * hand-shaped dumps: two regions out of physical order, a TSB with one
 * TTE of each size, old and new header styles, truncated; and the
 * portable conversion of one (old.elf).  For each input:
 *
 *  1. dk_open_mem, without options (the format must then be exactly
 *     what the kernel writes) and with --arch sparc64: on success runs
 *     ascend, do not overlap and lie in the file, npages_present <=
 *     npages; reads of each run's first bytes, translations of a few
 *     addresses taken from the input, the kernel-map walk (bounded by
 *     the TSB) and the portable plan return a status, never crash;
 *  2. dk_check_mem with --arch sparc64: every finding has a code the
 *     engine lists.
 *
 * A broken invariant aborts.  Linked with libFuzzer (make fuzz) or with
 * replay.c (make fuzz-replay).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dkcheck.h"
#include "minidump.h"
#include "private.h"
#include "fuzz.h"

#define	FZ_RUNS		64	/* runs read per input */
#define	FZ_KMAP		4096	/* kernel-map runs per input */

static uint64_t
be64_at(const uint8_t *data, size_t size, size_t off)
{
	uint64_t v = 0;

	for (size_t i = 0; i < 8 && off + i < size; i++)
		v = v << 8 | data[off + i];
	return v;
}

static void
fz_dump(struct dk_dump *d, const uint8_t *data, size_t size)
{
	const struct dk_info *in = dk_info(d);
	struct dk_run_iter it = { 0 };
	struct dk_kmap_iter kit = { 0, 0, 0 };
	struct dk_kmap_run kr;
	struct dk_elfmini_plan plan;
	struct dk_run r;
	struct dk_err err;
	uint64_t prev_end = 0, pa, vas[6];
	uint8_t buf[64];
	int n = 0;

	FZ_CHECK(in->page_size == 8192);
	FZ_CHECK(in->npages_present <= in->npages);
	while (dk_run_next(d, &it, &r)) {
		FZ_CHECK(r.len > 0 && r.len % 8192 == 0);
		FZ_CHECK(r.pa >= prev_end);
		FZ_CHECK(r.offset <= size && r.len <= size - r.offset);
		prev_end = r.pa + r.len;
		if (n++ < FZ_RUNS)
			FZ_CHECK(dk_read_pa(d, r.pa, buf, sizeof(buf), &err) ==
			    DK_OK);
	}
	/* Addresses from the input: TSB tags turned back into VAs, etc. */
	vas[0] = be64_at(data, size, 512) >> 2 << 13;
	vas[1] = be64_at(data, size, 520);
	vas[2] = 0xfffff80000000000ull | be64_at(data, size, 40);
	vas[3] = in->kernbase;
	vas[4] = in->kva_end - 8;
	vas[5] = in->kernbase + (in->kva_end - in->kernbase) / 2;
	for (size_t i = 0; i < sizeof(vas) / sizeof(vas[0]); i++) {
		enum dk_status st = dk_kvtop(d, vas[i], &pa, &err);

		FZ_CHECK(st == DK_OK || err.msg[0] != '\0');
		(void)dk_read_va(d, vas[i], buf, sizeof(buf), &err);
	}
	prev_end = 0;
	for (n = 0; n < FZ_KMAP && dk_kmap_next(d, &kit, &kr, &err); n++) {
		FZ_CHECK(kr.len > 0 && kr.va >= prev_end);
		FZ_CHECK(dk_kvtop(d, kr.va, &pa, &err) == DK_OK &&
		    pa == kr.pa);
		prev_end = kr.va + kr.len;
	}
	if (dk_elfmini_plan(d, 0, &plan, &err) == DK_OK)
		FZ_CHECK(plan.nphys <= in->npages);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dk_open_opts sp = { .arch = "sparc64" };
	struct dk_check_opts co = { .arch = "sparc64", .quick = 1,
	    .finding = fz_finding };
	struct dk_check_result res;
	struct dk_dump *d;
	struct dk_err err;

	/* Without options another format may take the input. */
	if (dk_open_mem(data, size, "fuzz", NULL, &d, &err) == DK_OK) {
		if (strcmp(dk_info(d)->arch, "sparc64") == 0)
			fz_dump(d, data, size);
		dk_close(d);
	}
	if (dk_open_mem(data, size, "fuzz", &sp, &d, &err) == DK_OK) {
		fz_dump(d, data, size);
		dk_close(d);
	} else
		FZ_CHECK(err.msg[0] != '\0');
	(void)dk_check_mem(data, size, "fuzz", &co, &res, &err);
	return 0;
}
