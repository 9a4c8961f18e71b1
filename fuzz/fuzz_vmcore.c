/*
 * fuzz_vmcore.c -- libFuzzer target: Linux ELF vmcores (fmt_vmcore.c),
 * the VMCOREINFO parser (vmcoreinfo.c) and their dumpcheck rules
 * (check_vmcore.c).
 *
 * The seeds (fuzz/corpus/vmcore) are the first 16 KiB of each real
 * vmcore of tests/data/vmcore (QEMU's of six architectures, paging with
 * PN_XNUM, the kernel's /proc/vmcore, makedumpfile -E): real headers,
 * notes and VMCOREINFO, the segments mostly past the end.  For each
 * input:
 *
 *  1. dk_open_mem: on success the runs are ascending, disjoint and
 *     inside the input, the ranges ascending and disjoint, every run's
 *     first and last bytes read as the input's bytes at its offset, the
 *     byte after a run is either another run's or not dumped (never
 *     zeros from nowhere), and kernel VAs (each architecture's walk)
 *     return a status; a dump of
 *     unknown page size, opened again with --page-size 16K, says 16K
 *     and keeps those rules;
 *  2. dk_check_mem, quick and full: every finding has a code the
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
#include "private.h"
#include "fuzz.h"

#define	FZ_RUNS		256	/* runs read per input */

/* Kernel addresses translated per input (fz_reads). */
static const uint64_t kvas[] = {
	0xffff888000000000ull, 0xffffffff81000000ull, 0x100000ull,
	0xc000000000000000ull, 0xc008000000000000ull,
};

static void
fz_reads(struct dk_dump *d, const uint8_t *data, size_t size)
{
	struct dk_run_iter it = { 0 };
	struct dk_run r;
	struct dk_err err;
	uint64_t prev_end = 0, pa;
	uint8_t b;
	int n = 0;

	/*
	 * A vmcore's runs are what the file holds; another format the
	 * input turns out to be (a FreeBSD full core cut short) may list
	 * dumped runs past its end, which reads then refuse.
	 */
	int held = d->fmt == &dk_fmt_vmcore;	/* native or portable */

	FZ_CHECK(dk_info(d)->npages_present <= dk_info(d)->npages);
	for (size_t i = 1; i < dk_phys_nranges(d); i++)
		FZ_CHECK(dk_phys_range(d, i).start >
		    dk_phys_range(d, i - 1).end);
	while (dk_run_next(d, &it, &r) && n++ < FZ_RUNS) {
		enum dk_status st;

		FZ_CHECK(r.len > 0 && (n == 1 || r.pa >= prev_end));
		prev_end = r.pa + r.len;
		if (!held)
			continue;
		FZ_CHECK(r.offset < size && r.len <= size - r.offset);
		FZ_CHECK(dk_read_pa(d, r.pa, &b, 1, &err) == DK_OK);
		FZ_CHECK(b == data[r.offset]);
		FZ_CHECK(dk_read_pa(d, r.pa + r.len - 1, &b, 1, &err) ==
		    DK_OK);
		FZ_CHECK(b == data[r.offset + r.len - 1]);
		if (r.pa + r.len == 0)
			continue;
		st = dk_read_pa(d, r.pa + r.len, &b, 1, &err);
		FZ_CHECK(st == DK_OK || st == DK_ENOTDUMPED);
	}
	/*
	 * The direct map and the image of x86_64, s390x's identity map,
	 * powerpc64's linear map and vmalloc space: each walk the
	 * architecture of the input has.
	 */
	for (size_t k = 0; k < DK_ARRAY_LEN(kvas); k++)
		for (uint64_t va = 0; va < 4; va++)
			(void)dk_kvtop(d, kvas[k] + va * 0x1000, &pa, &err);
	for (size_t i = 0; i < dk_nattrs(d); i++) {
		const struct dk_attr *a = dk_attr(d, i);

		FZ_CHECK(a->name != NULL && a->source != NULL);
		FZ_CHECK(a->type != DK_ATTR_STRING || a->str != NULL);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dk_dump *d = NULL;
	struct dk_err err;
	struct dk_check_result res;
	struct dk_check_opts quick = { .quick = 1, .finding = fz_finding };
	struct dk_check_opts full = { .checksum = 1, .finding = fz_finding };
	enum dk_status st;

	st = dk_open_mem(data, size, "fuzz-input", NULL, &d, &err);
	if (st == DK_OK) {
		int ps_unknown = dk_info(d)->page_size == 0;

		fz_reads(d, data, size);
		dk_close(d);
		/* A dump that cannot tell its page size, given one. */
		if (ps_unknown && dk_open_mem(data, size, "fuzz-input",
		    &(struct dk_open_opts){ .page_size = 16384 }, &d, &err) ==
		    DK_OK) {
			FZ_CHECK(dk_info(d)->page_size == 16384);
			fz_reads(d, data, size);
			dk_close(d);
		}
	} else {
		FZ_CHECK(d == NULL && err.code == st);
		FZ_CHECK(memchr(err.msg, '\0', sizeof(err.msg)) != NULL);
	}
	(void)dk_check_mem(data, size, "fuzz-input", &quick, &res, &err);
	(void)dk_check_mem(data, size, "fuzz-input", &full, &res, &err);
	return 0;
}
