/*
 * fuzz_elf.c -- libFuzzer target: FreeBSD full ELF cores (fmt_elf.c),
 * their dumpcheck rules (check_elf.c), the page-table walkers and the
 * kernel symbol lookup (kernel.c).
 *
 * The seeds (fuzz/corpus/elf) are the first 64 KiB of a generated core
 * of every full-ELF row of `dumpgen --list`, and the kernel images
 * dumpgen --kernel-out writes.  For each input:
 *
 *  1. dk_open_mem: on success the page model must be consistent (runs
 *     ascending, inside the file or reported truncated, npages the sum
 *     of the runs for physical cores), and a read of the first bytes of
 *     every run (at most FZ_RUNS), a few VA reads and every walk of
 *     every architecture module from the first run's start must return
 *     a status, never crash;
 *  2. dk_check_mem: every finding has a code the engine lists;
 *  3. the input as a kernel image (through a memfd): dk_kernel_symbols
 *     either fails with a message or finds each symbol at most once.
 *
 * A broken invariant aborts.  Linked with libFuzzer (make fuzz) or with
 * replay.c (make fuzz-replay).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dkcheck.h"
#include "private.h"
#include "fuzz.h"

#define	FZ_RUNS		256	/* runs read per input */

/* Every walk of every module from root, at a few VAs of its width. */
static void
fz_walks(struct dk_dump *d, uint64_t root)
{
	const struct dk_arch *row, *prev = NULL;
	struct dk_err err;
	uint64_t pa;

	for (size_t i = 0; (row = dk_arch_at(i)) != NULL; prev = row, i++) {
		const struct dk_arch_ops *m = row->ops;

		if (prev != NULL && prev->ops == m)
			continue;
		for (size_t k = 0; k < m->nwalks; k++) {
			const struct dk_pt_walk *w = &m->walks[k];

			for (uint64_t va = 0; va < 8; va++) {
				uint64_t a = va * 0x1f3001000ull ^
				    0xffffffff80201000ull;

				if (w->va_bits <= 32)
					a &= 0xffffffff;
				(void)w->translate(d, w, root, a, &pa, NULL,
				    &err);
			}
		}
	}
}

static void
fz_reads(struct dk_dump *d, size_t size)
{
	const struct dk_info *in = dk_info(d);
	struct dk_run_iter it = { 0 };
	struct dk_run r;
	struct dk_err err;
	uint64_t prev_end = 0, pages = 0, first = UINT64_MAX;
	uint8_t buf[64];
	int n = 0;

	FZ_CHECK(in->npages_present <= in->npages);
	while (dk_run_next(d, &it, &r)) {
		FZ_CHECK(r.len > 0 && r.pa >= prev_end);
		FZ_CHECK(r.pa + r.len - 1 >= r.pa);
		prev_end = r.pa + r.len;
		/* A Linux vmcore may not know its page size (0): no count. */
		if (in->page_size > 0)
			pages += (r.len + in->page_size - 1) / in->page_size;
		if (first == UINT64_MAX)
			first = r.pa;
		if (n++ < FZ_RUNS) {
			enum dk_status st = dk_read_pa(d, r.pa, buf,
			    r.len < sizeof(buf) ? (size_t)r.len : sizeof(buf),
			    &err);

			FZ_CHECK(st == DK_OK || st == DK_ETRUNC);
			FZ_CHECK(st != DK_OK || r.offset < size ||
			    r.offset == DK_OFF_ZERO);
			/* Pages left out as zeros read as zeros. */
			for (size_t k = 0; r.offset == DK_OFF_ZERO && st ==
			    DK_OK && k < sizeof(buf) && k < r.len; k++)
				FZ_CHECK(buf[k] == 0);
		}
	}
	FZ_CHECK(pages <= in->npages);
	for (uint64_t va = 0; va < 4; va++) {
		uint64_t a = va * 0x40001000ull + (first != UINT64_MAX ?
		    first : 0);

		(void)dk_read_va(d, a, buf, sizeof(buf), &err);
		(void)dk_read_va(d, 0xffffffff80000000ull + a, buf, 8, &err);
	}
	if (first != UINT64_MAX && d->arch != NULL)
		fz_walks(d, first);
}

static void
fz_kernel(const uint8_t *data, size_t size)
{
	struct dk_ksym s[] = {
		{ "kernbase", 0, 0 }, { "KPML4phys", 0, 0 },
		{ "IdlePTD", 0, 0 }, { "kernel_l1pa", 0, 0 },
	};
	struct dk_err err;
	char path[64];
	int fd = memfd_create("fuzz-elf-kernel", MFD_CLOEXEC);
	enum dk_status st;

	FZ_CHECK(fd >= 0);
	FZ_CHECK(write(fd, data, size) == (ssize_t)size);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	dk_err_clear(&err);
	st = dk_kernel_symbols(path, s, DK_ARRAY_LEN(s), &err);
	if (st != DK_OK)
		FZ_CHECK(err.code == st && err.msg[0] != '\0');
	close(fd);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dk_dump *d = NULL;
	struct dk_err err;
	struct dk_check_result res;
	struct dk_check_opts co = { .quick = 1, .finding = fz_finding };
	enum dk_status st;

	st = dk_open_mem(data, size, "fuzz-input", NULL, &d, &err);
	if (st == DK_OK) {
		fz_reads(d, size);
		dk_close(d);
	} else {
		FZ_CHECK(d == NULL && err.code == st);
		FZ_CHECK(memchr(err.msg, '\0', sizeof(err.msg)) != NULL);
	}
	(void)dk_check_mem(data, size, "fuzz-input", &co, &res, &err);
	fz_kernel(data, size);
	return 0;
}
