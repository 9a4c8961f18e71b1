/*
 * fuzz_minidump.c -- libFuzzer target: open the input as a dump held in
 * memory and do everything a reader does with it.
 *
 * The input is opened with no options, with zeroed options, and once for
 * each architecture row (so that "--arch armeb" drives the big-endian
 * decoders over any bytes).  Each successful open is exercised: dk_info,
 * every header field, the physical ranges, every run of dumped pages
 * (bounded), the msgbuf, physical reads at the edges of runs and at
 * addresses taken from the input, and translations and virtual reads at
 * kernbase, a few pages above it, the direct map and addresses taken
 * from the input.  A few invariants of the public API are checked on
 * the way; a broken one aborts, which libFuzzer reports as a crash.
 * Then the validator checks the same bytes (dk_check_mem, with the
 * pattern), so that every format's check is fuzzed with its reader.
 *
 * Linked with libFuzzer (make fuzz) or with replay.c (make fuzz-replay).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dumpkit.h"
#include "fuzz.h"

#define	FZ_NAME		"fuzz-input"
#define	FZ_MAX_RUNS	4096		/* runs iterated per open */
#define	FZ_READ_RUNS	8		/* runs whose edges are read */
#define	FZ_OFF_RUNS	64		/* runs whose offset is checked */
#define	FZ_MAX_PAGE	(1u << 16)	/* largest page a dump may declare */
#define	FZ_MSGBUF_MAX	(256u << 10)	/* bytes of msgbuf read */
#define	FZ_MAX_RANGES	8192		/* physical ranges looked at */

/* What one exercise needs: the input, the dump and a scratch buffer. */
struct fz {
	const uint8_t	*data;
	size_t		 size;
	struct dk_dump	*d;
	const struct dk_info *in;
	uint8_t		*buf;		/* bufsz bytes */
	uint8_t		*buf2;		/* as large */
	size_t		 bufsz;		/* two pages and a bit */
};

/* A failed call sets the error object to the code it returns. */
static void
check_err(enum dk_status st, const struct dk_err *err)
{
	FZ_CHECK(st != DK_NOMATCH);
	if (st == DK_OK)
		return;
	FZ_CHECK(err->code == st);
	FZ_CHECK(memchr(err->msg, '\0', sizeof(err->msg)) != NULL);
	FZ_CHECK(err->msg[0] != '\0');
	FZ_CHECK(dk_status_name(st) != NULL);
}

/* The k-th 8-byte little-endian word counted from the end of the input. */
static uint64_t
input_word(const struct fz *z, size_t k)
{
	uint64_t v = 0;

	if (z->size < 8 * (k + 1))
		return k * 0x9e3779b97f4a7c15ull;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | z->data[z->size - 8 * (k + 1) + (size_t)i];
	return v;
}

static void
check_info(const struct fz *z)
{
	const struct dk_info *in = z->in;

	FZ_CHECK(in != NULL);
	FZ_CHECK(in->format != NULL && strlen(in->format) > 0);
	FZ_CHECK(in->arch != NULL && strlen(in->arch) > 0);
	FZ_CHECK(in->arch_why != NULL);
	(void)strlen(in->arch_why);
	FZ_CHECK(dk_arch_by_name(in->arch) != NULL);
	FZ_CHECK(in->endian == DK_LE || in->endian == DK_BE);
	FZ_CHECK(in->page_size >= 512 && in->page_size <= FZ_MAX_PAGE);
	FZ_CHECK((in->page_size & (in->page_size - 1)) == 0);
	/* Inside a container (decompressed, say) the size is the payload's. */
	if (dk_nlayers(z->d) == 0)
		FZ_CHECK(in->file_size == z->size);
	else
		FZ_CHECK(dk_layer(z->d, dk_nlayers(z->d) - 1) != NULL);
	FZ_CHECK(in->npages_present <= in->npages);
	for (size_t i = 0; i < dk_nsections(z->d); i++) {
		FZ_CHECK(dk_section(z->d, i) != NULL);
		FZ_CHECK(dk_section(z->d, i)->name != NULL);
		(void)strlen(dk_section(z->d, i)->name);
	}
	FZ_CHECK(dk_section(z->d, dk_nsections(z->d)) == NULL);
	for (size_t i = 0; i < dk_nwindows(z->d); i++) {
		const struct dk_window *w = dk_window(z->d, i);

		FZ_CHECK(w != NULL && w->name != NULL && w->va <= w->end);
	}
	FZ_CHECK(dk_window(z->d, dk_nwindows(z->d)) == NULL);
	for (size_t i = 0; i < dk_nattrs(z->d); i++) {
		const struct dk_attr *a = dk_attr(z->d, i);

		FZ_CHECK(a != NULL && a->name != NULL && a->source != NULL);
		FZ_CHECK(a->type != DK_ATTR_STRING || a->str != NULL);
		FZ_CHECK(dk_attr_find(z->d, a->name) != NULL);
	}
	FZ_CHECK(dk_attr(z->d, dk_nattrs(z->d)) == NULL);
}

static void
check_header(const struct fz *z)
{
	size_t n = dk_header_nfields(z->d);
	struct dk_hfield f;

	FZ_CHECK(n < 256);
	for (size_t i = 0; i < n; i++) {
		FZ_CHECK(dk_header_field(z->d, i, &f) == 0);
		FZ_CHECK(f.name != NULL);
		(void)strlen(f.name);
		FZ_CHECK(memchr(f.str, '\0', sizeof(f.str)) != NULL);
		/* The widest: a kdump header's utsname strings, 65 bytes. */
		FZ_CHECK(f.size > 0 && f.size <= 65);
		if (f.is_string)
			FZ_CHECK(f.value == 0);
	}
	FZ_CHECK(dk_header_field(z->d, n, &f) == -1);
	FZ_CHECK(dk_header_field(z->d, (size_t)-1, &f) == -1);
}

static void
check_ranges(const struct fz *z)
{
	size_t n = dk_phys_nranges(z->d);
	struct dk_range r;

	for (size_t i = 0; i < n && i < FZ_MAX_RANGES; i++) {
		r = dk_phys_range(z->d, i);
		FZ_CHECK(r.start < r.end);
	}
	r = dk_phys_range(z->d, n);
	FZ_CHECK(r.start == 0 && r.end == 0);
	r = dk_phys_range(z->d, (size_t)-1);
	FZ_CHECK(r.start == 0 && r.end == 0);
}

/*
 * Read len bytes at pa.  A read that succeeds inside one dumped page
 * must return the input's bytes at that page's file offset.
 */
/*
 * Where the dump stream of d lies in the input: [0, size) for a plain
 * dump, the payload inside kerneldumpheader layers (windows of the same
 * bytes).  0 (nothing to compare) when a layer decompressed the stream.
 */
static int
raw_window(const struct dk_dump *d, uint64_t size, uint64_t *base,
    uint64_t *end)
{
	*base = 0;
	*end = size;
	for (size_t i = 0; i < dk_nlayers(d); i++) {
		const struct dk_layer_info *l = dk_layer(d, i);

		if (l == NULL || strcmp(l->kind, "kerneldumpheader") != 0)
			return 0;
		*base += l->offset;
		*end = *base + l->size;
	}
	return 1;
}

static void
read_pa(const struct fz *z, uint64_t pa, size_t len)
{
	struct dk_err err;
	enum dk_status st;
	uint64_t off, base, end;

	if (len > z->bufsz)
		len = z->bufsz;
	st = dk_read_pa(z->d, pa, z->buf, len, &err);
	check_err(st, &err);
	if (st != DK_OK)
		return;
	st = dk_pa_offset(z->d, pa, &off, &err);
	check_err(st, &err);
	FZ_CHECK(st == DK_OK);
	if (off == DK_OFF_ZERO) {	/* left out as zeros: reads as zeros */
		for (size_t k = 0; k < len && k < z->in->page_size -
		    (pa & (z->in->page_size - 1)); k++)
			FZ_CHECK(z->buf[k] == 0);
		return;
	}
	if (off == DK_OFF_PAGED)	/* no file offset: a kdump's pages */
		return;
	if ((pa & (z->in->page_size - 1)) + len <= z->in->page_size &&
	    raw_window(z->d, z->size, &base, &end)) {
		FZ_CHECK(base <= z->size && off <= z->size - base &&
		    len <= z->size - base - off);
		FZ_CHECK(memcmp(z->buf, z->data + base + off, len) == 0);
	}
}

/* Translate va; if that works, read len bytes of it. */
static void
read_va(const struct fz *z, uint64_t va, size_t len)
{
	struct dk_err err;
	enum dk_status st;
	uint64_t pa = 0;

	if (len > z->bufsz)
		len = z->bufsz;
	st = dk_kvtop(z->d, va, &pa, &err);
	check_err(st, &err);
	st = dk_read_va(z->d, va, z->buf2, len, &err);
	check_err(st, &err);
}

/* Is d a minidump, or a portable file made from one (its magic says)? */
static int
is_minidump(const struct dk_dump *d)
{
	struct dk_hfield f;

	return dk_header_field(d, 0, &f) == 0 && f.is_string &&
	    strncmp(f.str, "minidump ", 9) == 0;
}

static void
check_runs(const struct fz *z)
{
	struct dk_run_iter it;
	struct dk_run run, last = { 0, 0, 0 };
	uint64_t page = z->in->page_size, npages = 0, off;
	struct dk_err err;
	enum dk_status st;
	size_t n;

	/*
	 * A minidump (or its portable conversion) stores its pages in
	 * bitmap order, so its runs are page-aligned in the file, back to
	 * back, and add up to npages; sparc64 regions and ELF segments need
	 * not be any of these.
	 */
	int packed = is_minidump(z->d);

	memset(&it, 0, sizeof(it));
	for (n = 0; n < FZ_MAX_RUNS && dk_run_next(z->d, &it, &run); n++) {
		FZ_CHECK(run.len > 0);
		FZ_CHECK(run.len % page == 0 && run.pa % page == 0);
		/* sparc64 region data starts at a 512-byte boundary. */
		FZ_CHECK(!packed || run.offset % page == 0);
		if (n > 0 && packed)
			FZ_CHECK(run.offset == last.offset + last.len);
		npages += run.len / page;
		if (n < FZ_OFF_RUNS) {
			/* The first page of a run is dumped, where it says. */
			st = dk_pa_offset(z->d, run.pa, &off, &err);
			check_err(st, &err);
			FZ_CHECK(st == DK_OK || st == DK_ETRUNC);
			if (st == DK_OK)
				FZ_CHECK(off == run.offset);
		}
		if (n < FZ_READ_RUNS) {
			read_pa(z, run.pa, 16);
			read_pa(z, run.pa, (size_t)page);
			read_pa(z, run.pa + run.len - 8, 8);
			/* Across the end of the run, and just past it. */
			read_pa(z, run.pa + run.len - 8, 16);
			read_pa(z, run.pa + run.len, 1);
			if (run.pa >= 8)
				read_pa(z, run.pa - 8, 16);
			if (run.len > page)
				read_pa(z, run.pa + page - 4, 8);
		}
		last = run;
	}
	if (n > 0)
		read_pa(z, last.pa + last.len - page, (size_t)page);
	if (n < FZ_MAX_RUNS && packed)
		FZ_CHECK(npages == z->in->npages);
	/* The iterator stays finished. */
	if (n < FZ_MAX_RUNS)
		FZ_CHECK(dk_run_next(z->d, &it, &run) == 0);
}

static void
check_msgbuf(const struct fz *z)
{
	size_t len = FZ_MSGBUF_MAX, got = 1;
	struct dk_err err;
	enum dk_status st;
	uint8_t *mb;

	/* The section's size and one more byte, if that is smaller. */
	for (size_t i = 0; i < dk_nsections(z->d); i++)
		if (strcmp(dk_section(z->d, i)->name, "msgbuf") == 0 &&
		    dk_section(z->d, i)->size < len)
			len = (size_t)dk_section(z->d, i)->size + 1;
	mb = malloc(len);
	FZ_CHECK(mb != NULL);
	st = dk_read_msgbuf(z->d, mb, 0, &got, &err);
	check_err(st, &err);
	FZ_CHECK(st != DK_OK || got == 0);
	st = dk_read_msgbuf(z->d, mb, 1, &got, &err);
	check_err(st, &err);
	FZ_CHECK(st != DK_OK || got <= 1);
	st = dk_read_msgbuf(z->d, mb, len, &got, &err);
	check_err(st, &err);
	FZ_CHECK(st != DK_OK || got <= len);
	free(mb);
}

static void
check_reads(const struct fz *z)
{
	const struct dk_info *in = z->in;
	uint64_t page = in->page_size, kb = in->kernbase;
	struct dk_run_iter it;
	struct dk_run run;
	size_t nr = dk_phys_nranges(z->d);

	/* Physical addresses from the input, raw and folded into RAM. */
	for (size_t k = 0; k < 4; k++) {
		uint64_t w = input_word(z, k);
		size_t len = 1 + (size_t)(w >> 52) % (2 * page);

		read_pa(z, w, 8);
		if (nr > 0) {
			struct dk_range r = dk_phys_range(z->d, (size_t)(w %
			    (nr < FZ_MAX_RANGES ? nr : FZ_MAX_RANGES)));

			read_pa(z, r.start + w % (r.end - r.start), len);
			read_pa(z, r.start, 8);
			read_pa(z, r.end - 1, 1);
		}
	}
	read_pa(z, 0, 8);
	read_pa(z, UINT64_MAX - 7, 8);
	read_pa(z, UINT64_MAX - 3, 8);		/* wraps */
	read_pa(z, UINT64_MAX, 1);

	/* Kernel virtual addresses. */
	read_va(z, kb, 16);
	for (uint64_t k = 1; k <= 4; k++)
		read_va(z, kb + k * page, 16);
	read_va(z, kb + page - 8, 16);		/* straddles two pages */
	read_va(z, kb + 512 * page, (size_t)page);
	read_va(z, kb + (2u << 20) + 8, 32);	/* a 2 MiB page */
	read_va(z, kb + (20u << 20), 16);	/* compact fixtures' kmem */
	read_va(z, kb - 8, 16);
	read_va(z, in->kva_end - 8, 16);
	read_va(z, in->kva_end, 8);
	read_va(z, UINT64_MAX - 7, 16);
	/* Every address window: its ends, and where the first runs are. */
	for (size_t i = 0; i < dk_nwindows(z->d); i++) {
		const struct dk_window *w = dk_window(z->d, i);

		read_va(z, w->va, 16);
		read_va(z, w->va + page, 16);
		read_va(z, w->end - 8, 16);
		read_va(z, w->end, 8);
		memset(&it, 0, sizeof(it));
		for (int k = 0; k < 4 && dk_run_next(z->d, &it, &run); k++)
			read_va(z, w->va + run.pa - w->pa, 16);
	}
	for (size_t k = 0; k < 4; k++) {
		uint64_t w = input_word(z, k + 4);
		uint64_t span = in->kva_end > kb ? in->kva_end - kb : 0;
		size_t len = 1 + (size_t)(w >> 56) % page;

		read_va(z, w, 16);
		if (span > 0)
			read_va(z, kb + w % span, len);
	}
}

/* Everything a reader does with an open dump. */
static void
exercise(const uint8_t *data, size_t size, struct dk_dump *d)
{
	struct fz z = { data, size, d, dk_info(d), NULL, NULL, 0 };

	/*
	 * A Linux vmcore that does not know its page size (no VMCOREINFO,
	 * an architecture of several): its reads are byte-addressed, and
	 * fuzz_vmcore.c's invariants are the ones that hold for it.
	 */
	if (z.in->page_size == 0 && strcmp(z.in->format, "vmcore") == 0)
		return;
	check_info(&z);
	z.bufsz = 2 * (size_t)z.in->page_size + 64;
	z.buf = malloc(z.bufsz);
	z.buf2 = malloc(z.bufsz);
	FZ_CHECK(z.buf != NULL && z.buf2 != NULL);
	check_header(&z);
	check_ranges(&z);
	check_runs(&z);
	check_msgbuf(&z);
	check_reads(&z);
	free(z.buf);
	free(z.buf2);
}

/* Open with o; exercise the dump if full, else open, compare, close. */
static enum dk_status
open_and_run(const uint8_t *data, size_t size, const struct dk_open_opts *o,
    int full, struct dk_info *info)
{
	struct dk_dump *d = (struct dk_dump *)&d;	/* must be reset */
	struct dk_err err;
	enum dk_status st;

	st = dk_open_mem(data, size, FZ_NAME, o, &d, &err);
	check_err(st, &err);
	if (st != DK_OK) {
		FZ_CHECK(d == NULL);
		return st;
	}
	FZ_CHECK(d != NULL);
	/* After dk_close only info's static strings (arch) are used. */
	if (info != NULL)
		*info = *dk_info(d);
	if (full)
		exercise(data, size, d);
	dk_close(d);
	return st;
}

/*
 * The validator over the same bytes, whole (page tables and every page
 * read) and with the pattern of seed 1: it answers, and every finding
 * has a code the engine lists.
 */
static void
fz_validate(const uint8_t *data, size_t size)
{
	struct dk_check_opts co = { .pattern = 1, .seed = 1,
	    .finding = fz_finding };
	struct dk_check_result res;
	struct dk_err err;

	if (dk_check_mem(data, size, FZ_NAME, &co, &res, &err) != DK_OK)
		FZ_CHECK(err.msg[0] != '\0');
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dk_open_opts zero = { 0 };
	struct dk_info a, b;
	enum dk_status sa, sb;
	const struct dk_arch *row;

	/* No options and zeroed options mean the same thing. */
	sa = open_and_run(data, size, NULL, 1, &a);
	sb = open_and_run(data, size, &zero, 0, &b);
	FZ_CHECK(sa == sb);
	if (sa == DK_OK) {
		FZ_CHECK(strcmp(a.arch, b.arch) == 0);
		FZ_CHECK(a.version == b.version && a.npages == b.npages);
		FZ_CHECK(a.page_size == b.page_size);
	}
	/*
	 * Each architecture row named as --arch would name it; the row
	 * detection chose is only opened again, not exercised again.
	 */
	for (size_t i = 0; (row = dk_arch_at(i)) != NULL; i++) {
		struct dk_open_opts o = { .arch = dk_arch_name(row) };
		int same = sa == DK_OK && strcmp(b.arch, o.arch) == 0;

		FZ_CHECK(i < 64);
		if (open_and_run(data, size, &o, !same, &a) == DK_OK) {
			FZ_CHECK(strcmp(a.arch, dk_arch_name(row)) == 0);
			FZ_CHECK(a.arch_by == DK_BY_OPTION);
			FZ_CHECK(a.endian == dk_arch_endian(row));
		}
	}
	fz_validate(data, size);
	return 0;
}
