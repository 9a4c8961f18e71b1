/*
 * fuzz_elfmini.c -- libFuzzer target: the portable ELF minidump
 * (docs/portable-elf-minidump.md) and the conversions both ways.
 *
 * The seeds (fuzz/corpus/elfmini) are portable files converted from the
 * compact minidump seeds, so that mutations start inside the format; any
 * input is taken, minidumps included.  For each input:
 *
 *  1. everything fuzz_minidump.c does with an input: every reader path,
 *     with its invariants (its target is compiled in here under another
 *     name, so both targets check the same things); for a Linux vmcore,
 *     native or portable (source kind 4, seeds fuzz/corpus/elfmini/
 *     vmcore-*), fuzz_vmcore.c's instead, whose invariants hold for
 *     byte-addressed segments and unknown page sizes;
 *  2. if it opens: dk_elfmini_plan, with and without the virtual segments
 *     (the kernel-map walk only where it spans at most FZ_KMAP_PAGES
 *     pages, so that one input costs milliseconds, not seconds);
 *     dk_elfmini_write into a memfd (a full ELF core's zero pages left
 *     out, --drop-zero), which must hold exactly the planned
 *     bytes and reopen as the same dump; dk_native_write of the input and
 *     of that conversion, which must be the same bytes, and for a
 *     minidump or a vmcore input the input itself, byte for byte;
 *  3. the same writers into /dev/null, a descriptor that is not a regular
 *     file (the pipe path of formats/sink.c).
 *
 * A broken invariant aborts, which libFuzzer reports as a crash.
 * Linked with libFuzzer (make fuzz) or with replay.c (make fuzz-replay).
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "minidump.h"

/* The readers' exercise: fuzz_minidump.c's target, renamed. */
int	fz_minidump_input(const uint8_t *, size_t);
#define	LLVMFuzzerTestOneInput	fz_minidump_input
#include "fuzz_minidump.c"
#undef	LLVMFuzzerTestOneInput

/* A Linux vmcore's: fuzz_vmcore.c's target, renamed. */
int	fz_vmcore_input(const uint8_t *, size_t);
#define	LLVMFuzzerTestOneInput	fz_vmcore_input
#include "fuzz_vmcore.c"
#undef	LLVMFuzzerTestOneInput

#define	FZ_KMAP_PAGES	(1ull << 20)	/* kernel map walked at most */
#define	FZ_OUT_MAX	(64ull << 20)	/* larger outputs are not compared */

/* Output files, opened once: two memfds and /dev/null. */
static int fz_out[2] = { -1, -1 };
static int fz_null = -1;

static void
fz_open_outputs(void)
{
	if (fz_null >= 0)
		return;
	fz_out[0] = memfd_create("fuzz-elfmini-a", MFD_CLOEXEC);
	fz_out[1] = memfd_create("fuzz-elfmini-b", MFD_CLOEXEC);
	fz_null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	FZ_CHECK(fz_out[0] >= 0 && fz_out[1] >= 0 && fz_null >= 0);
}

/* An empty regular file at offset 0, as dk_sink_init wants it. */
static int
fz_reset(int k)
{
	FZ_CHECK(ftruncate(fz_out[k], 0) == 0);
	FZ_CHECK(lseek(fz_out[k], 0, SEEK_SET) == 0);
	return fz_out[k];
}

/* The bytes of output k (its size in *len), or NULL if too large. */
static uint8_t *
fz_contents(int k, uint64_t len)
{
	uint8_t *p;

	if (len > FZ_OUT_MAX)
		return NULL;
	p = malloc(len ? (size_t)len : 1);
	FZ_CHECK(p != NULL);
	FZ_CHECK(pread(fz_out[k], p, (size_t)len, 0) == (ssize_t)len);
	return p;
}

/* Rebuild d's native dump into output k; its size, or -1 on error. */
static int64_t
fz_native(struct dk_dump *d, int k)
{
	struct dk_sink s;
	struct dk_err err;
	enum dk_status st;

	dk_sink_init(&s, fz_reset(k), "native");
	FZ_CHECK(s.seekable);
	st = dk_native_write(d, &s, &err);
	check_err(st, &err);
	return st == DK_OK ? (int64_t)s.pos : -1;
}

static int
fz_walk_ok(const struct dk_info *in)
{
	return in->kva_end <= in->kernbase ||
	    (in->kva_end - in->kernbase) / in->page_size <= FZ_KMAP_PAGES;
}

static void
fz_convert(const uint8_t *data, size_t size)
{
	struct dk_dump *d = NULL, *p = NULL;
	const struct dk_info *in;
	struct dk_elfmini_plan pl, plnv;
	struct dk_sink s;
	struct dk_err err;
	enum dk_status st;
	unsigned flags;
	uint8_t *elf = NULL, *n1 = NULL, *n2 = NULL;
	int64_t len1, len2;
	int minidump, vmcore, is_linux;

	st = dk_open_mem(data, size, FZ_NAME, NULL, &d, &err);
	check_err(st, &err);
	if (st != DK_OK)
		return;
	in = dk_info(d);
	minidump = strcmp(in->format, "minidump") == 0;
	vmcore = strcmp(in->format, "vmcore") == 0;
	is_linux = d->fmt == &dk_fmt_vmcore;	/* native or portable */
	flags = fz_walk_ok(in) ? 0 : DK_ELFMINI_NO_VIRTUAL;
	/* A full core's zero pages are left out (and come back). */
	if (strcmp(in->format, "elf") == 0)
		flags |= DK_ELFMINI_DROP_ZERO;

	st = dk_elfmini_plan(d, DK_ELFMINI_NO_VIRTUAL, &plnv, &err);
	check_err(st, &err);
	if (st == DK_OK) {
		FZ_CHECK(plnv.nvirt == 0);
		/* A vmcore's pieces may be shorter than a page. */
		FZ_CHECK(is_linux || plnv.nphys <= in->npages);
		/* A vmcore's page data keeps its own alignment. */
		FZ_CHECK(is_linux || plnv.data_offset % in->page_size == 0);
		/* Packed pages; a full core's may be left out as zeros. */
		FZ_CHECK(!is_minidump(d) || plnv.file_size ==
		    plnv.data_offset + in->npages_present * in->page_size);
		FZ_CHECK(plnv.file_size >= plnv.data_offset);
	}
	st = dk_elfmini_plan(d, flags, &pl, &err);
	check_err(st, &err);
	if (st != DK_OK)
		goto out;
	FZ_CHECK((flags & DK_ELFMINI_DROP_ZERO) || (pl.nphys == plnv.nphys &&
	    pl.residue == plnv.residue && pl.file_size - pl.data_offset ==
	    plnv.file_size - plnv.data_offset));
	FZ_CHECK(pl.file_size - pl.data_offset <=
	    plnv.file_size - plnv.data_offset);

	/* Portable: exactly what was planned, and it reopens as d. */
	dk_sink_init(&s, fz_reset(0), "portable");
	st = dk_elfmini_write(d, &s, flags, &err);
	check_err(st, &err);
	if (st != DK_OK)
		goto out;
	FZ_CHECK(s.pos == pl.file_size);
	if ((elf = fz_contents(0, s.pos)) == NULL)
		goto out;
	st = dk_open_mem(elf, (size_t)s.pos, "converted", NULL, &p, &err);
	check_err(st, &err);
	FZ_CHECK(st == DK_OK);
	{
		const struct dk_info *pi = dk_info(p);

		FZ_CHECK(strcmp(pi->format, "portable-elf") == 0);
		FZ_CHECK(strcmp(pi->arch, in->arch) == 0);
		FZ_CHECK(pi->version == in->version);
		FZ_CHECK(pi->page_size == in->page_size);
		FZ_CHECK(pi->npages == in->npages);
		FZ_CHECK(pi->npages_present == in->npages_present);
		FZ_CHECK(pi->kernbase == in->kernbase);
		FZ_CHECK((dk_window_find(p, DK_WIN_DIRECT_MAP) != NULL) ==
		    (dk_window_find(d, DK_WIN_DIRECT_MAP) != NULL));
	}

	/* Native: the same from the input and from its conversion. */
	len1 = fz_native(d, 0);
	len2 = fz_native(p, 1);
	FZ_CHECK((len1 < 0) == (len2 < 0));
	if (len1 >= 0) {
		FZ_CHECK(len1 == len2);
		n1 = fz_contents(0, (uint64_t)len1);
		n2 = fz_contents(1, (uint64_t)len2);
		if (n1 != NULL && n2 != NULL)
			FZ_CHECK(memcmp(n1, n2, (size_t)len1) == 0);
		/*
		 * A minidump or a Linux vmcore comes back byte for byte: the
		 * input, or the payload of the kerneldumpheader layers around
		 * it (a decompressed stream is not in the input to compare).
		 */
		uint64_t base, end;

		if ((minidump || vmcore) && n1 != NULL &&
		    raw_window(d, size, &base, &end)) {
			FZ_CHECK(end <= size && (uint64_t)len1 == end - base);
			FZ_CHECK(memcmp(n1, data + base, (size_t)len1) == 0);
		}
	}

	/* Not a regular file: every byte written, in order. */
	dk_sink_init(&s, fz_null, "/dev/null");
	FZ_CHECK(!s.seekable);
	st = dk_elfmini_write(p, &s, flags, &err);
	check_err(st, &err);
	FZ_CHECK(st != DK_OK || s.pos == pl.file_size);
	dk_sink_init(&s, fz_null, "/dev/null");
	st = dk_native_write(d, &s, &err);
	check_err(st, &err);
	FZ_CHECK(st != DK_OK || len1 < 0 || s.pos == (uint64_t)len1);
out:
	free(elf);
	free(n1);
	free(n2);
	dk_close(p);
	dk_close(d);
}

/* Is the input a Linux vmcore that opens, native or portable? */
static int
fz_is_vmcore(const uint8_t *data, size_t size)
{
	struct dk_dump *d = NULL;
	struct dk_err err;
	int v;

	if (dk_open_mem(data, size, FZ_NAME, NULL, &d, &err) != DK_OK)
		return 0;
	v = d->fmt == &dk_fmt_vmcore;
	dk_close(d);
	return v;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_open_outputs();
	if (fz_is_vmcore(data, size))
		fz_vmcore_input(data, size);
	else
		fz_minidump_input(data, size);
	fz_convert(data, size);
	return 0;
}
