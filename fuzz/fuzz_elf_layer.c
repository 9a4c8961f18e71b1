/*
 * fuzz_elf_layer.c -- libFuzzer target: the ELF layer (formats/elf.c)
 * alone, on any bytes.
 *
 * The seeds (fuzz/corpus/elf_layer, fuzz/seed.sh) are the starts of a
 * portable file, of full cores of both classes and byte orders, a kernel
 * image with section headers, and a PN_XNUM portable file.  For each
 * input:
 *
 *  1. every structure, decoded at offset 0 in both classes and orders
 *     where the input is long enough, encodes back to the same bytes;
 *  2. as a file (a memory-backed dk_src) with the header's own class and
 *     order: dk_elf_phnum, dk_shdr_read of the first sections, and the
 *     program headers read with dk_phdr_read up to FZ_PHDRS of them;
 *  3. the note iterator over the whole input, and over the range of
 *     every PT_NOTE found in 2: each note lies inside its range, offsets
 *     grow, an error is at a note's offset inside the range, and the
 *     iterator stays failed afterwards.
 *
 * Under ASan (make fuzz, make fuzz-replay SANITIZE=1) the input is the
 * exact buffer libFuzzer or replay.c allocated, so any read past it is
 * reported.  A broken invariant aborts.
 */
#include <stdint.h>
#include <string.h>

#include "dkelf.h"
#include "fuzz.h"

#define	FZ_PHDRS	4096	/* program headers read per input */
#define	FZ_SHDRS	64	/* section headers read per input */
#define	FZ_NOTES	100000	/* notes walked per range */

/* The iterator over [off, end) of src: its invariants. */
static void
fz_notes(const struct dk_src *src, uint64_t off, uint64_t end,
    enum dk_endian e)
{
	struct dk_note_iter it;
	struct dk_note n;
	struct dk_err err;
	uint64_t prev = off;
	enum dk_status st;
	int k = 0;

	dk_note_iter_init(&it, src, off, end, e, "the range");
	while (k++ < FZ_NOTES && (st = dk_note_next(&it, &n, &err)) ==
	    DK_OK) {
		FZ_CHECK(n.off == prev && n.off < end);
		FZ_CHECK(n.desc_off >= n.off + 12 + n.namesz);
		FZ_CHECK(n.desc_off + n.descsz <= end);
		FZ_CHECK(end > src->size || n.desc_off + n.descsz <= src->size);
		FZ_CHECK(it.off > n.off && it.off <= end);
		FZ_CHECK(!n.have_name || n.namesz <= DK_NOTE_NAME_MAX);
		prev = it.off;
	}
	if (k > FZ_NOTES)
		return;
	if (st != DK_NOMATCH) {
		FZ_CHECK(err.code == st);
		FZ_CHECK(err.offset == prev || st == DK_ETRUNC);
		FZ_CHECK(prev >= off && prev < end);
		FZ_CHECK(memchr(err.msg, '\0', sizeof(err.msg)) != NULL);
		FZ_CHECK(dk_note_next(&it, &n, &err) == st);
	} else
		FZ_CHECK(prev >= end);
}

/* Decode then encode the structure kind k at the start of the input. */
static void
fz_twins(const uint8_t *data, size_t size, unsigned cls, enum dk_endian e)
{
	uint8_t out[64];
	struct dk_ehdr eh;
	struct dk_phdr ph;
	struct dk_shdr sh;
	struct dk_nhdr nh;

	if (size >= dk_elf_size(DK_ELF_EHDR, cls)) {
		dk_ehdr_decode(data, cls, e, &eh);
		dk_ehdr_encode(out, cls, e, &eh);
		FZ_CHECK(memcmp(out, data, dk_elf_size(DK_ELF_EHDR, cls)) == 0);
	}
	if (size >= dk_elf_size(DK_ELF_PHDR, cls)) {
		dk_phdr_decode(data, cls, e, &ph);
		dk_phdr_encode(out, cls, e, &ph);
		FZ_CHECK(memcmp(out, data, dk_elf_size(DK_ELF_PHDR, cls)) == 0);
	}
	if (size >= dk_elf_size(DK_ELF_SHDR, cls)) {
		dk_shdr_decode(data, cls, e, &sh);
		dk_shdr_encode(out, cls, e, &sh);
		FZ_CHECK(memcmp(out, data, dk_elf_size(DK_ELF_SHDR, cls)) == 0);
	}
	if (size >= 12) {
		dk_nhdr_decode(data, e, &nh);
		dk_nhdr_encode(out, e, &nh);
		FZ_CHECK(memcmp(out, data, 12) == 0);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dk_src src = { .fd = -1, .mem = data, .size = size,
	    .name = "fuzz-input" };
	struct dk_ehdr eh;
	struct dk_shdr sh;
	struct dk_phdr ph;
	struct dk_err err;
	enum dk_endian e;
	unsigned cls, es, ps;
	uint64_t n;
	enum dk_status st;

	for (unsigned c = ELFCLASS32; c <= ELFCLASS64; c++) {
		fz_twins(data, size, c, DK_LE);
		fz_twins(data, size, c, DK_BE);
	}
	fz_notes(&src, 0, size, DK_LE);
	fz_notes(&src, 0, size, DK_BE);
	if (size < 64 || !dk_elf_magic(data))
		return 0;
	cls = data[EI_CLASS];
	e = dk_elf_endian(data);
	es = dk_elf_size(DK_ELF_EHDR, cls);
	ps = dk_elf_size(DK_ELF_PHDR, cls);
	dk_ehdr_decode(data, cls, e, &eh);
	st = dk_elf_phnum(&src, &eh, &n, &err);
	FZ_CHECK(st == DK_OK || st == DK_NOMATCH);
	FZ_CHECK(st == DK_OK || n == PN_XNUM);
	FZ_CHECK(eh.phnum == PN_XNUM || n == eh.phnum);
	for (uint64_t i = 0; i < FZ_SHDRS; i++) {
		st = dk_shdr_read(&src, &eh, i, &sh, &err);
		if (st != DK_OK) {
			FZ_CHECK(err.code == st && err.offset < es);
			break;
		}
		FZ_CHECK(eh.shentsize == dk_elf_size(DK_ELF_SHDR, cls));
		FZ_CHECK(eh.shoff + (i + 1) * eh.shentsize <= size);
	}
	for (uint64_t i = 0; i < n && i < FZ_PHDRS; i++) {
		uint64_t at = eh.phoff + i * ps;

		if (eh.phoff > size || at < eh.phoff || at > size ||
		    size - at < ps)
			break;
		FZ_CHECK(dk_phdr_read(&src, at, cls, e, &ph, "program header",
		    &err) == DK_OK);
		if (ph.type == PT_NOTE && ph.offset <= size)
			fz_notes(&src, ph.offset, ph.offset + ph.filesz >=
			    ph.offset ? ph.offset + ph.filesz : UINT64_MAX, e);
	}
	return 0;
}
