/*
 * check_elfmini.c -- dumpcheck's rules for the portable ELF minidump
 * (docs/portable-elf-minidump.md, docs/dumpcheck.md): its ELF side, the
 * same whatever the source it holds.
 *
 * A source the library can read only once it opens the file (a sparc64
 * dump, a full core) is checked by its own module when it does; the
 * source whose checks can read the notes themselves (a minidump: the
 * formats table's format with a pcheck) is checked from the notes after
 * the ELF header, the notes and the info note here, opened or not, and
 * takes the segments and the virtual PT_LOADs from here too.
 */
#include <elf.h>
#include <string.h>

#include "bytes.h"
#include "checker.h"
#include "dkelf.h"
#include "portable.h"

#define	EM_CLASS	ELFCLASS64
#define	EM_EHDR		dk_elf_size(DK_ELF_EHDR, EM_CLASS)
#define	EM_PHDR		dk_elf_size(DK_ELF_PHDR, EM_CLASS)

static const struct dk_check_code em_codes[] = {
	{ "elf.header", DK_SEV_ERROR,
	  "an ELF header field differs from the portable format's" },
	{ "elf.note", DK_SEV_ERROR,
	  "a note is malformed, duplicated or missing" },
	{ "elf.note-size", DK_SEV_ERROR,
	  "a note's size differs from the source header's size field" },
	{ "elf.note-mismatch", DK_SEV_ERROR,
	  "the info note disagrees with the segments or the header" },
	{ "elf.load-past-eof", DK_SEV_ERROR,
	  "a PT_LOAD segment extends past the end of the file" },
	{ "elf.misaligned", DK_SEV_ERROR,
	  "page data or a segment not at a page-aligned offset" },
	{ "elf.segment-mismatch", DK_SEV_ERROR,
	  "a physical PT_LOAD differs from the run of stored pages" },
	{ "elf.virt-mismatch", DK_SEV_ERROR,
	  "a virtual PT_LOAD differs from the page tables or windows" },
};

uint64_t
dk_em_info(const struct dk_emv *em, unsigned off, unsigned width)
{
	return dec_uint(em->info + off, width, em->e);
}

/* The source format whose dk_portable.id is id, or NULL. */
static const struct dk_portable *
source_kind(uint32_t id)
{
	const struct dk_format_ops *f;

	for (size_t i = 0; (f = dk_format_at(i)) != NULL; i++)
		if (f->portable != NULL && f->portable->id == id)
			return f->portable;
	return NULL;
}

/*
 * Is this an ELF core with dumpkit's notes (or one cut short before
 * they could be seen)?  Fills em's header view.  DK_NOMATCH if not.
 */
static enum dk_status
em_identify(struct dk_ck *c, struct dk_emv *em)
{
	uint8_t eh[DK_ELF_MAXSZ] = { 0 }, nh[DK_NHDR_SIZE + 8];
	size_t n = c->src.size < EM_EHDR ? (size_t)c->src.size : EM_EHDR;
	struct dk_ehdr h;
	struct dk_phdr ph;
	struct dk_nhdr nt;
	struct dk_err e;

	if (n < 20 || dk_ck_read(c, eh, n, 0) != 0 || !dk_elf_magic(eh) ||
	    eh[EI_CLASS] != EM_CLASS || (eh[EI_DATA] != ELFDATA2LSB &&
	    eh[EI_DATA] != ELFDATA2MSB))
		return DK_NOMATCH;
	em->e = dk_elf_endian(eh);
	dk_ehdr_decode(eh, EM_CLASS, em->e, &h);	/* zeros past n */
	if (h.type != ET_CORE)
		return DK_NOMATCH;
	if (n < EM_EHDR)
		return DK_OK;		/* cut inside the ELF header */
	em->phoff = h.phoff;
	/* PN_XNUM: sh_info of section 0 if the file has it, else 0xffff. */
	(void)dk_elf_phnum(&c->src, &h, &em->phnum, &e);
	if (em->phoff > c->src.size || c->src.size - em->phoff < EM_PHDR)
		return em->phoff == EM_EHDR ? DK_OK : DK_NOMATCH;
	if (dk_phdr_read(&c->src, em->phoff, EM_CLASS, em->e, &ph, "data",
	    &e) != DK_OK || ph.type != PT_NOTE)
		return DK_NOMATCH;
	em->noff = ph.offset;
	em->nsize = ph.filesz;
	if (em->noff > c->src.size || c->src.size - em->noff < sizeof(nh))
		return em->noff < (1u << 30) ? DK_OK : DK_NOMATCH;
	if (dk_ck_read(c, nh, sizeof(nh), em->noff) != 0)
		return DK_NOMATCH;
	dk_nhdr_decode(nh, em->e, &nt);
	if (nt.namesz != 8 || memcmp(nh + DK_NHDR_SIZE, "dumpkit", 8) != 0)
		return DK_NOMATCH;
	return DK_OK;
}

/* The ELF header's fields against docs/portable-elf-minidump.md 1. */
void
dk_em_header_check(struct dk_ck *c, const struct dk_emv *em,
    const struct dk_arch *row)
{
	uint8_t eh[DK_ELF_MAXSZ];
	struct dk_ehdr h;

	if (dk_ck_read(c, eh, EM_EHDR, 0) != 0)
		return;
	dk_ehdr_decode(eh, EM_CLASS, em->e, &h);
	{
		const struct { unsigned off; uint64_t got, want;
		    const char *name; } f[] = {
			{ EI_VERSION, eh[EI_VERSION], EV_CURRENT, "EI_VERSION" },
			{ EI_OSABI, eh[EI_OSABI], ELFOSABI_NONE, "EI_OSABI" },
#define	FIELD(id, v, want)						\
	{ dk_elf_off(id, EM_CLASS), v, want, dk_elf_field(id)->name }
			FIELD(DK_E_VERSION, h.version, EV_CURRENT),
			FIELD(DK_E_PHOFF, h.phoff, EM_EHDR),
			FIELD(DK_E_EHSIZE, h.ehsize, EM_EHDR),
			FIELD(DK_E_PHENTSIZE, h.phentsize, EM_PHDR),
#undef	FIELD
		};

		for (size_t i = 0; i < DK_ARRAY_LEN(f); i++)
			if (f[i].got != f[i].want)
				dk_ck_emit(c, "elf.header", f[i].off, "%s: "
				    "expected %ju, found %ju", f[i].name,
				    (uintmax_t)f[i].want, (uintmax_t)f[i].got);
	}
	if (row != NULL) {
		if (h.machine != row->elf_machine)
			dk_ck_emit(c, "elf.header",
			    dk_elf_off(DK_E_MACHINE, EM_CLASS), "e_machine: "
			    "expected %u (%s, as the info note says), found "
			    "%ju", row->elf_machine, row->name,
			    (uintmax_t)h.machine);
		if (h.flags != row->elf_flags)
			dk_ck_emit(c, "elf.header",
			    dk_elf_off(DK_E_FLAGS, EM_CLASS), "e_flags: "
			    "expected %#x for %s, found %#jx", row->elf_flags,
			    row->name, (uintmax_t)h.flags);
	}
}

/*
 * Walk the notes of the PT_NOTE segment (what the file holds of it: a
 * header or a name the file's end cuts is no finding of its own, the
 * truncation is one already).
 */
static void
em_notes(struct dk_ck *c, struct dk_emv *em)
{
	struct dk_note_iter it;
	struct dk_note n;
	struct dk_err e;
	enum dk_status st;

	dk_note_iter_init(&it, &c->src, em->noff, em->noff + em->nsize, em->e,
	    "the PT_NOTE segment");
	while ((st = dk_note_next(&it, &n, &e)) == DK_OK) {
		uint64_t type = n.type;

		if (n.namesz != 8 || memcmp(n.name, "dumpkit", 8) != 0 ||
		    type <= DK_PNOTE_BASE ||
		    type >= DK_PNOTE_BASE + DK_EM_NT_MAX)
			continue;
		type -= DK_PNOTE_BASE;
		if (em->nt_seen[type])
			dk_ck_emit(c, "elf.note", n.off, "a second dumpkit "
			    "note of type %#jx (the first at %#jx)",
			    (uintmax_t)(type + DK_PNOTE_BASE),
			    (uintmax_t)em->nt_off[type]);
		else {
			em->nt_seen[type] = 1;
			em->nt_off[type] = n.desc_off;
			em->nt_size[type] = n.descsz;
		}
	}
	if (st == DK_NOMATCH)
		return;
	if (st == DK_ECORRUPT && it.end - it.off >= DK_NHDR_SIZE)
		dk_ck_emit(c, "elf.note", it.off, "note of type %#jx: name "
		    "%ju and descriptor %ju bytes extend past the PT_NOTE "
		    "segment's end at %#jx", (uintmax_t)n.type,
		    (uintmax_t)n.namesz, (uintmax_t)n.descsz,
		    (uintmax_t)it.end);
	else if (em->noff + em->nsize <= c->src.size)
		dk_ck_emit(c, "elf.note", it.off, "a note header needs 12 "
		    "bytes, the PT_NOTE segment has %ju left",
		    (uintmax_t)(it.end - it.off));
}

/* Read program header i into ph; 0 on success. */
static int
em_phdr(struct dk_ck *c, const struct dk_emv *em, uint64_t i,
    struct dk_phdr *ph)
{
	uint64_t off = em->phoff + i * EM_PHDR;
	struct dk_err e;

	return off > c->src.size || c->src.size - off < EM_PHDR ||
	    dk_phdr_read(&c->src, off, EM_CLASS, em->e, ph, "data", &e) !=
	    DK_OK ? -1 : 0;
}

/*
 * The physical PT_LOADs against the runs of stored pages: each inside
 * the file and page-aligned, and one per run, in order.
 */
void
dk_em_segments(struct dk_ck *c, struct dk_emv *em, const struct dk_em_runs *v)
{
	uint64_t pa, len, rank, nruns = 0, pend;
	uint64_t nph = em->phnum, page = (uint64_t)1 << v->page_shift;
	struct dk_phdr ph;

	/* Each PT_LOAD: inside the file, page-aligned. */
	for (uint64_t i = 1; i < nph; i++) {
		uint64_t po = em->phoff + i * EM_PHDR, off, fsz, msz;

		if (em_phdr(c, em, i, &ph) != 0)
			break;
		if (ph.type != PT_LOAD)
			continue;
		off = ph.offset;
		fsz = ph.filesz;
		msz = ph.memsz;
		if (off > c->src.size || fsz > c->src.size - off)
			dk_ck_emit(c, "elf.load-past-eof", po, "program "
			    "header %ju: PT_LOAD [%#jx, %#jx) extends past "
			    "the end of the file at %#jx", (uintmax_t)i,
			    (uintmax_t)off, (uintmax_t)(off + fsz),
			    (uintmax_t)c->src.size);
		if (v->page_known && (off & (page - 1)) != 0)
			dk_ck_emit(c, "elf.misaligned",
			    po + dk_elf_off(DK_P_OFFSET, EM_CLASS), "program "
			    "header %ju: p_offset %#jx is not a multiple of "
			    "the page size %#jx", (uintmax_t)i, (uintmax_t)off,
			    (uintmax_t)page);
		if (fsz != msz)
			dk_ck_emit(c, "elf.segment-mismatch",
			    po + dk_elf_off(DK_P_FILESZ, EM_CLASS), "program "
			    "header %ju: expected p_filesz = p_memsz, found "
			    "%#jx and %#jx", (uintmax_t)i, (uintmax_t)fsz,
			    (uintmax_t)msz);
	}
	if (!v->ok)
		return;
	/* Physical segments: one per run of stored pages, in order. */
	pend = em->nstored < v->count ? em->nstored : v->count;
	while (v->next(v->arg, &pa, &len, &rank)) {
		uint64_t po = em->phoff + (1 + nruns) * EM_PHDR;

		if (rank >= pend)
			break;
		if (rank + (len >> v->page_shift) > pend)
			len = (pend - rank) << v->page_shift;
		if (nruns < em->nphys && 1 + nruns < nph &&
		    em_phdr(c, em, 1 + nruns, &ph) == 0) {
			uint64_t type = ph.type;
			uint64_t off = ph.offset;
			uint64_t paddr = ph.paddr;
			uint64_t fsz = ph.filesz;
			uint64_t want = em->data_off + (rank << v->page_shift);

			if (type != PT_LOAD || paddr != pa || fsz != len ||
			    off != want)
				dk_ck_emit(c, "elf.segment-mismatch", po,
				    "program header %ju: expected the run of "
				    "stored pages pa [%#jx, %#jx) at offset "
				    "%#jx, found type %ju pa [%#jx, %#jx) at "
				    "%#jx", (uintmax_t)(1 + nruns),
				    (uintmax_t)pa, (uintmax_t)(pa + len),
				    (uintmax_t)want, (uintmax_t)type,
				    (uintmax_t)paddr, (uintmax_t)(paddr + fsz),
				    (uintmax_t)off);
		}
		nruns++;
	}
	if (nruns != em->nphys)
		dk_ck_emit(c, "elf.note-mismatch", em->info_off + 112, "info "
		    "note nphys: expected %ju physical PT_LOADs (the runs of "
		    "stored pages the bitmap gives), found %ju",
		    (uintmax_t)nruns, (uintmax_t)em->nphys);
	if (1 + em->nphys > nph)
		dk_ck_emit(c, "elf.note-mismatch", em->info_off + 112, "info "
		    "note nphys %ju: the file has only %ju program headers",
		    (uintmax_t)em->nphys, (uintmax_t)nph);
}

/*
 * Virtual PT_LOADs against the page tables (and the address windows,
 * which kvtop translates by arithmetic), page by page: as many pages as
 * the kernel map and each window can hold, each stored page at most
 * once per window.
 */
void
dk_em_virt_check(struct dk_ck *c, const struct dk_emv *em)
{
	struct dk_dump *d = c->d;
	uint64_t budget = (4 + dk_nwindows(d)) * d->info.npages + 1024;
	struct dk_ck_acc bad = { 0, 0, "" };
	struct dk_phdr ph;

	if (!em->ok || !(em->flags & 2))
		return;
	for (uint64_t i = 1 + em->nphys; i < em->phnum; i++) {
		uint64_t po = em->phoff + i * EM_PHDR, va, pa, off, len, got;
		struct dk_err e;

		if (em_phdr(c, em, i, &ph) != 0 || ph.type != PT_LOAD)
			continue;
		off = ph.offset;
		va = ph.vaddr;
		pa = ph.paddr;
		len = ph.filesz;
		/* 32-bit kernels: p_vaddr may be sign-extended (BFD's MIPS). */
		if (d->arch->elf_class == ELFCLASS32)
			va = (uint32_t)va;
		if (dk_pa_offset(d, pa, &got, &e) != DK_OK || got != off) {
			dk_ck_acc_add(&bad, po, "program header %ju: va %#jx: "
			    "the segment's pa %#jx is %s", (uintmax_t)i,
			    (uintmax_t)va, (uintmax_t)pa, "not a stored page "
			    "at its p_offset");
			continue;
		}
		for (uint64_t k = 0; k < len; k += d->page_size) {
			uint64_t p;

			if (budget-- == 0)
				return;
			if (dk_kvtop(d, va + k, &p, &e) != DK_OK) {
				dk_ck_acc_add(&bad, po, "program header %ju: "
				    "va %#jx: the segment maps it to pa %#jx, "
				    "the page tables do not map it (%s)",
				    (uintmax_t)i, (uintmax_t)(va + k),
				    (uintmax_t)(pa + k), e.msg);
				break;
			}
			if (p != pa + k) {
				dk_ck_acc_add(&bad, po, "program header %ju: "
				    "va %#jx: expected pa %#jx as the page "
				    "tables say, found %#jx", (uintmax_t)i,
				    (uintmax_t)(va + k), (uintmax_t)p,
				    (uintmax_t)(pa + k));
				break;
			}
		}
	}
	dk_ck_acc_flush(c, "elf.virt-mismatch", &bad, "segments");
}

/*
 * The ELF side of a portable file the library did not open, or whose
 * source is checked from the notes (raw: that source's description):
 * the ELF header, the notes, the info note.  *rowp is the info note's
 * row when the raw source's checks go on, NULL when they cannot.
 */
static enum dk_status
em_raw(struct dk_ck *c, struct dk_emv *em, const struct dk_portable *raw,
    const struct dk_arch **rowp, struct dk_err *err)
{
	const struct dk_portable *kind;
	const struct dk_arch *row;
	char arch[17];

	*rowp = NULL;
	if (em_identify(c, em) != DK_OK) {
		/* A Linux vmcore, a process core: named for what it is. */
		if (dk_recognize(&c->src, err) != DK_NOMATCH)
			return err->code;
		return dk_err_at(err, DK_EUNSUP, c->src.name, 0, "an ELF "
		    "file, but not a portable ELF minidump (an ELF core whose "
		    "first note is dumpkit's info note)");
	}
	if (c->src.size < EM_EHDR) {
		dk_ck_emit(c, "file.truncated", c->src.size, "the file ends "
		    "at %#jx, inside the %u-byte ELF header",
		    (uintmax_t)c->src.size, EM_EHDR);
		return DK_OK;
	}
	if (em->phoff + (em->phnum ? em->phnum : 1) * EM_PHDR > c->src.size) {
		dk_ck_emit(c, "file.truncated", c->src.size, "the file ends "
		    "at %#jx, inside the %ju program headers [%#jx, %#jx)",
		    (uintmax_t)c->src.size, (uintmax_t)em->phnum,
		    (uintmax_t)em->phoff,
		    (uintmax_t)(em->phoff + (em->phnum ? em->phnum : 1) *
		    EM_PHDR));
		dk_em_header_check(c, em, NULL);
		return DK_OK;
	}
	if (em->noff + em->nsize > c->src.size)
		dk_ck_emit(c, "file.truncated", c->src.size, "the file ends "
		    "at %#jx, inside the notes [%#jx, %#jx) (PT_NOTE, program "
		    "header 0): %#jx bytes of them and every page are missing",
		    (uintmax_t)c->src.size, (uintmax_t)em->noff,
		    (uintmax_t)(em->noff + em->nsize),
		    (uintmax_t)(em->noff + em->nsize - c->src.size));
	em_notes(c, em);
	if (!em->nt_seen[1] || em->nt_size[1] < DK_INFO_SIZE ||
	    dk_ck_read(c, em->info, DK_INFO_SIZE, em->nt_off[1]) != 0) {
		if (em->noff + em->nsize <= c->src.size)
			dk_ck_emit(c, "elf.note", em->noff, "expected "
			    "dumpkit's info note of at least %d bytes, found "
			    "%s", DK_INFO_SIZE,
			    em->nt_seen[1] ? "a shorter one" : "none");
		dk_em_header_check(c, em, NULL);
		return DK_OK;
	}
	em->info_off = em->nt_off[1];
	memcpy(arch, em->info + 16, 16);
	arch[16] = '\0';
	row = dk_arch_by_name(arch);
	kind = source_kind((uint32_t)dk_em_info(em, DK_INFO_SOURCE, 4));
	if (dk_em_info(em, DK_INFO_VERSION, 4) == 1 && kind != NULL &&
	    kind != raw) {
		/*
		 * A source checked once the reader opens it (a sparc64 dump,
		 * a full core), and this one did not.  Its reason is the
		 * finding.
		 */
		dk_ck_emit(c, "elf.note", em->info_off, "a portable %s that "
		    "does not open: %s", kind->noun, dk_ck_unprefixed(c,
		    c->openerr.msg));
		dk_em_header_check(c, em, NULL);
		return DK_OK;
	}
	if (dk_em_info(em, DK_INFO_VERSION, 4) != 1 || kind != raw)
		dk_ck_emit(c, "elf.note", em->info_off, "info note: expected "
		    "version 1 of source format %u (%s), found version %ju of "
		    "%ju", raw->id, raw->name,
		    (uintmax_t)dk_em_info(em, DK_INFO_VERSION, 4),
		    (uintmax_t)dk_em_info(em, DK_INFO_SOURCE, 4));
	if (row == NULL || strcmp(row->name, arch) != 0 || row->endian !=
	    em->e || !raw->row_ok(row)) {
		dk_ck_emit(c, "elf.note-mismatch", em->info_off + 16, "info "
		    "note arch: expected a %s-endian %s architecture, found "
		    "\"%s\"", em->e == DK_BE ? "big" : "little", raw->name,
		    arch);
		dk_em_header_check(c, em, NULL);
		return DK_OK;
	}
	dk_em_header_check(c, em, row);
	*rowp = row;
	return DK_OK;
}

/* Any ELF file that is not a FreeBSD full core's (rank 2 there). */
static int
em_check_probe(const struct dk_src *src, const struct dk_open_opts *o)
{
	uint8_t b[4];
	struct dk_err e;

	(void)o;
	return src->size >= 4 && dk_src_pread(src, b, 4, 0, "ELF magic", &e) ==
	    DK_OK && dk_elf_magic(b);
}

static enum dk_status
em_check(struct dk_ck *c, struct dk_err *err)
{
	const struct dk_format_ops *f, *raw = NULL;
	const struct dk_arch *row;
	struct dk_emv em;
	enum dk_status st;

	if ((st = dk_ck_open(c, err)) != DK_OK)
		return st;
	/* A source checked once the library reads it from the file. */
	if (c->d != NULL && c->d->fmt->check != NULL &&
	    c->d->fmt->check->pcheck == NULL)
		return c->d->fmt->check->check(c, err);
	/* The source whose checks read the notes themselves. */
	for (size_t i = 0; (f = dk_format_at(i)) != NULL && raw == NULL; i++)
		if (f->portable != NULL && f->check != NULL &&
		    f->check->pcheck != NULL)
			raw = f;
	if (raw == NULL)
		return dk_err_set(err, DK_EUNSUP, "%s: no format checks a "
		    "portable file's notes", c->src.name);
	memset(&em, 0, sizeof(em));
	if ((st = em_raw(c, &em, raw->portable, &row, err)) != DK_OK)
		return st;
	return raw->check->pcheck(c, &em, row, err);
}

/* What the formats table's portable row gives dumpcheck (fmt_elfmini.c). */
const struct dk_format_check dk_em_check = {
	.probe		= em_check_probe,
	.check		= em_check,
	.codes		= em_codes,
	.ncodes		= DK_ARRAY_LEN(em_codes),
};
