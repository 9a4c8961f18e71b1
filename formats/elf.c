/*
 * elf.c -- the one ELF layer (dkelf.h): every ELF header, program
 * header, section header and note header the library, the validator and
 * the fixture generator read or write goes through the table below.
 *
 * One row per field: where it is and how wide in each class, and which
 * member of the host struct holds it.  The decoders and the encoders are
 * the same loop in two directions, so no offset is written twice.  The
 * places are the ELF specification's (System V gABI, "ELF Header",
 * "Program Header", "Sections", "Note Section"); tests/check_elf_layer.c
 * checks them against bytes typed in from it and against readelf.
 */
#include <stddef.h>
#include <string.h>

#include "bytes.h"
#include "dkelf.h"

/* A row: name, structure, host member, offsets and widths (32, 64). */
#define	F(id, nm, k, st, m, o32, w32, o64, w64)				\
	[id] = { nm, k, offsetof(struct st, m), { o32, o64 }, { w32, w64 } }

static const struct dk_elf_field fields[DK_ELF_NFIELDS] = {
	F(DK_E_TYPE, "e_type", DK_ELF_EHDR, dk_ehdr, type, 16, 2, 16, 2),
	F(DK_E_MACHINE, "e_machine", DK_ELF_EHDR, dk_ehdr, machine,
	    18, 2, 18, 2),
	F(DK_E_VERSION, "e_version", DK_ELF_EHDR, dk_ehdr, version,
	    20, 4, 20, 4),
	F(DK_E_ENTRY, "e_entry", DK_ELF_EHDR, dk_ehdr, entry, 24, 4, 24, 8),
	F(DK_E_PHOFF, "e_phoff", DK_ELF_EHDR, dk_ehdr, phoff, 28, 4, 32, 8),
	F(DK_E_SHOFF, "e_shoff", DK_ELF_EHDR, dk_ehdr, shoff, 32, 4, 40, 8),
	F(DK_E_FLAGS, "e_flags", DK_ELF_EHDR, dk_ehdr, flags, 36, 4, 48, 4),
	F(DK_E_EHSIZE, "e_ehsize", DK_ELF_EHDR, dk_ehdr, ehsize,
	    40, 2, 52, 2),
	F(DK_E_PHENTSIZE, "e_phentsize", DK_ELF_EHDR, dk_ehdr, phentsize,
	    42, 2, 54, 2),
	F(DK_E_PHNUM, "e_phnum", DK_ELF_EHDR, dk_ehdr, phnum, 44, 2, 56, 2),
	F(DK_E_SHENTSIZE, "e_shentsize", DK_ELF_EHDR, dk_ehdr, shentsize,
	    46, 2, 58, 2),
	F(DK_E_SHNUM, "e_shnum", DK_ELF_EHDR, dk_ehdr, shnum, 48, 2, 60, 2),
	F(DK_E_SHSTRNDX, "e_shstrndx", DK_ELF_EHDR, dk_ehdr, shstrndx,
	    50, 2, 62, 2),
	/* p_flags moved up in ELF64, next to p_type, for alignment. */
	F(DK_P_TYPE, "p_type", DK_ELF_PHDR, dk_phdr, type, 0, 4, 0, 4),
	F(DK_P_FLAGS, "p_flags", DK_ELF_PHDR, dk_phdr, flags, 24, 4, 4, 4),
	F(DK_P_OFFSET, "p_offset", DK_ELF_PHDR, dk_phdr, offset, 4, 4, 8, 8),
	F(DK_P_VADDR, "p_vaddr", DK_ELF_PHDR, dk_phdr, vaddr, 8, 4, 16, 8),
	F(DK_P_PADDR, "p_paddr", DK_ELF_PHDR, dk_phdr, paddr, 12, 4, 24, 8),
	F(DK_P_FILESZ, "p_filesz", DK_ELF_PHDR, dk_phdr, filesz,
	    16, 4, 32, 8),
	F(DK_P_MEMSZ, "p_memsz", DK_ELF_PHDR, dk_phdr, memsz, 20, 4, 40, 8),
	F(DK_P_ALIGN, "p_align", DK_ELF_PHDR, dk_phdr, align, 28, 4, 48, 8),
	F(DK_S_NAME, "sh_name", DK_ELF_SHDR, dk_shdr, name, 0, 4, 0, 4),
	F(DK_S_TYPE, "sh_type", DK_ELF_SHDR, dk_shdr, type, 4, 4, 4, 4),
	F(DK_S_FLAGS, "sh_flags", DK_ELF_SHDR, dk_shdr, flags, 8, 4, 8, 8),
	F(DK_S_ADDR, "sh_addr", DK_ELF_SHDR, dk_shdr, addr, 12, 4, 16, 8),
	F(DK_S_OFFSET, "sh_offset", DK_ELF_SHDR, dk_shdr, offset,
	    16, 4, 24, 8),
	F(DK_S_SIZE, "sh_size", DK_ELF_SHDR, dk_shdr, size, 20, 4, 32, 8),
	F(DK_S_LINK, "sh_link", DK_ELF_SHDR, dk_shdr, link, 24, 4, 40, 4),
	F(DK_S_INFO, "sh_info", DK_ELF_SHDR, dk_shdr, info, 28, 4, 44, 4),
	F(DK_S_ADDRALIGN, "sh_addralign", DK_ELF_SHDR, dk_shdr, addralign,
	    32, 4, 48, 8),
	F(DK_S_ENTSIZE, "sh_entsize", DK_ELF_SHDR, dk_shdr, entsize,
	    36, 4, 56, 8),
	F(DK_N_NAMESZ, "n_namesz", DK_ELF_NHDR, dk_nhdr, namesz, 0, 4, 0, 4),
	F(DK_N_DESCSZ, "n_descsz", DK_ELF_NHDR, dk_nhdr, descsz, 4, 4, 4, 4),
	F(DK_N_TYPE, "n_type", DK_ELF_NHDR, dk_nhdr, type, 8, 4, 8, 4),
};

#undef	F

/* sizeof each structure: [kind][0] ELFCLASS32, [kind][1] ELFCLASS64. */
static const uint8_t sizes[DK_ELF_NKINDS][2] = {
	[DK_ELF_EHDR] = { 52, 64 },
	[DK_ELF_PHDR] = { 32, 56 },
	[DK_ELF_SHDR] = { 40, 64 },
	[DK_ELF_NHDR] = { DK_NHDR_SIZE, DK_NHDR_SIZE },
};

/* The column of the table for EI_CLASS cls. */
static unsigned
col(unsigned cls)
{
	return cls == ELFCLASS64;
}

const struct dk_elf_field *
dk_elf_field(enum dk_elf_fid f)
{
	return &fields[f];
}

unsigned
dk_elf_off(enum dk_elf_fid f, unsigned cls)
{
	return fields[f].off[col(cls)];
}

unsigned
dk_elf_width(enum dk_elf_fid f, unsigned cls)
{
	return fields[f].width[col(cls)];
}

unsigned
dk_elf_size(enum dk_elf_kind k, unsigned cls)
{
	return sizes[k][col(cls)];
}

uint64_t
dk_elf_get(const uint8_t *p, enum dk_elf_fid f, unsigned cls,
    enum dk_endian e)
{
	unsigned c = col(cls);

	return dec_uint(p + fields[f].off[c], fields[f].width[c], e);
}

void
dk_elf_put(uint8_t *p, enum dk_elf_fid f, unsigned cls, enum dk_endian e,
    uint64_t v)
{
	unsigned c = col(cls);

	enc_uint(p + fields[f].off[c], fields[f].width[c], e, v);
}

int
dk_elf_magic(const uint8_t *p)
{
	return memcmp(p, ELFMAG, SELFMAG) == 0;
}

enum dk_endian
dk_elf_endian(const uint8_t *ident)
{
	return ident[EI_DATA] == ELFDATA2MSB ? DK_BE : DK_LE;
}

void
dk_elf_ident(uint8_t *ident, unsigned cls, enum dk_endian e, unsigned osabi)
{
	memset(ident, 0, EI_NIDENT);
	memcpy(ident, ELFMAG, SELFMAG);
	ident[EI_CLASS] = (uint8_t)cls;
	ident[EI_DATA] = e == DK_BE ? ELFDATA2MSB : ELFDATA2LSB;
	ident[EI_VERSION] = EV_CURRENT;
	ident[EI_OSABI] = (uint8_t)osabi;
}

/* The fields of structure k between p and host h, one way or the other. */
/*
 * The fields of each structure, a slice of fields[] (the ids are grouped
 * by structure, in enum dk_elf_fid's order): the twins loop over their
 * structure's fields only, as the writers call them once per program
 * header (a million for a dump of a million runs).
 */
static const struct {
	uint8_t		 first, end;
} span[DK_ELF_NKINDS] = {
	[DK_ELF_EHDR] = { DK_E_TYPE, DK_P_TYPE },
	[DK_ELF_PHDR] = { DK_P_TYPE, DK_S_NAME },
	[DK_ELF_SHDR] = { DK_S_NAME, DK_N_NAMESZ },
	[DK_ELF_NHDR] = { DK_N_NAMESZ, DK_ELF_NFIELDS },
};

static void
decode(enum dk_elf_kind k, const uint8_t *p, unsigned cls, enum dk_endian e,
    void *h)
{
	unsigned c = col(cls);

	for (size_t i = span[k].first; i < span[k].end; i++)
		*(uint64_t *)((char *)h + fields[i].member) = dec_uint(p +
		    fields[i].off[c], fields[i].width[c], e);
}

static void
encode(enum dk_elf_kind k, uint8_t *p, unsigned cls, enum dk_endian e,
    const void *h)
{
	unsigned c = col(cls);

	for (size_t i = span[k].first; i < span[k].end; i++)
		enc_uint(p + fields[i].off[c], fields[i].width[c], e,
		    *(const uint64_t *)((const char *)h + fields[i].member));
}

void
dk_ehdr_decode(const uint8_t *p, unsigned cls, enum dk_endian e,
    struct dk_ehdr *h)
{
	memcpy(h->ident, p, EI_NIDENT);
	decode(DK_ELF_EHDR, p, cls, e, h);
}

void
dk_ehdr_encode(uint8_t *p, unsigned cls, enum dk_endian e,
    const struct dk_ehdr *h)
{
	memcpy(p, h->ident, EI_NIDENT);
	encode(DK_ELF_EHDR, p, cls, e, h);
}

void
dk_phdr_decode(const uint8_t *p, unsigned cls, enum dk_endian e,
    struct dk_phdr *h)
{
	decode(DK_ELF_PHDR, p, cls, e, h);
}

void
dk_phdr_encode(uint8_t *p, unsigned cls, enum dk_endian e,
    const struct dk_phdr *h)
{
	encode(DK_ELF_PHDR, p, cls, e, h);
}

void
dk_shdr_decode(const uint8_t *p, unsigned cls, enum dk_endian e,
    struct dk_shdr *h)
{
	decode(DK_ELF_SHDR, p, cls, e, h);
}

void
dk_shdr_encode(uint8_t *p, unsigned cls, enum dk_endian e,
    const struct dk_shdr *h)
{
	encode(DK_ELF_SHDR, p, cls, e, h);
}

void
dk_nhdr_decode(const uint8_t *p, enum dk_endian e, struct dk_nhdr *h)
{
	decode(DK_ELF_NHDR, p, ELFCLASS32, e, h);
}

void
dk_nhdr_encode(uint8_t *p, enum dk_endian e, const struct dk_nhdr *h)
{
	encode(DK_ELF_NHDR, p, ELFCLASS32, e, h);
}

enum dk_status
dk_phdr_read(const struct dk_src *src, uint64_t off, unsigned cls,
    enum dk_endian e, struct dk_phdr *ph, const char *what,
    struct dk_err *err)
{
	uint8_t b[DK_ELF_MAXSZ];
	enum dk_status st;

	if ((st = dk_src_pread(src, b, dk_elf_size(DK_ELF_PHDR, cls), off,
	    what, err)) != DK_OK)
		return st;
	dk_phdr_decode(b, cls, e, ph);
	return DK_OK;
}

/* ---------------------------------------------------------------------- */
/* PN_XNUM.                                                                */

enum dk_status
dk_elf_phnum(const struct dk_src *src, const struct dk_ehdr *eh,
    uint64_t *n, struct dk_err *err)
{
	unsigned cls = eh->ident[EI_CLASS];
	unsigned at = dk_elf_off(DK_S_INFO, cls);
	unsigned w = dk_elf_width(DK_S_INFO, cls);
	uint8_t b[8];
	enum dk_status st;

	*n = eh->phnum;
	if (eh->phnum != PN_XNUM)
		return DK_OK;
	if (eh->shoff > src->size || src->size - eh->shoff < at + w)
		return DK_NOMATCH;
	if ((st = dk_src_pread(src, b, w, eh->shoff + at, "sh_info of "
	    "section header 0", err)) != DK_OK)
		return st;
	*n = dec_uint(b, w, dk_elf_endian(eh->ident));
	return DK_OK;
}

int
dk_elf_xnum_put(struct dk_ehdr *eh, struct dk_shdr *sh0, uint64_t n,
    uint64_t shoff)
{
	unsigned cls = eh->ident[EI_CLASS];

	memset(sh0, 0, sizeof(*sh0));
	if (!dk_elf_xnum_needed(n)) {
		eh->phnum = n;
		eh->shoff = 0;
		eh->shentsize = 0;
		eh->shnum = 0;
		return 0;
	}
	eh->phnum = PN_XNUM;
	eh->shoff = shoff;
	eh->shentsize = dk_elf_size(DK_ELF_SHDR, cls);
	eh->shnum = 1;
	sh0->type = SHT_NULL;
	sh0->info = n;
	return 1;
}

/* ---------------------------------------------------------------------- */
/* Section headers.                                                        */

enum dk_status
dk_shdr_read(const struct dk_src *src, const struct dk_ehdr *eh, uint64_t i,
    struct dk_shdr *sh, struct dk_err *err)
{
	unsigned cls = eh->ident[EI_CLASS];
	uint64_t size = dk_elf_size(DK_ELF_SHDR, cls), off;
	uint8_t b[DK_ELF_MAXSZ];
	enum dk_status st;

	if (eh->shentsize != size)
		return dk_err_at(err, DK_ECORRUPT, src->name,
		    dk_elf_off(DK_E_SHENTSIZE, cls), "e_shentsize %ju: "
		    "expected %ju for ELFCLASS%d section headers",
		    (uintmax_t)eh->shentsize, (uintmax_t)size,
		    cls == ELFCLASS64 ? 64 : 32);
	if (i != 0 && i >= eh->shnum)
		return dk_err_at(err, DK_ECORRUPT, src->name,
		    dk_elf_off(DK_E_SHNUM, cls), "section header %ju: "
		    "e_shnum is %ju", (uintmax_t)i, (uintmax_t)eh->shnum);
	if (eh->shoff > src->size || i >= (src->size - eh->shoff) / size)
		return dk_err_at(err, DK_ETRUNC, src->name,
		    dk_elf_off(DK_E_SHOFF, cls), "section header %ju at "
		    "e_shoff %#jx + %ju * %ju is past the end of the file at "
		    "%#jx", (uintmax_t)i, (uintmax_t)eh->shoff, (uintmax_t)i,
		    (uintmax_t)size, (uintmax_t)src->size);
	off = eh->shoff + i * size;
	if ((st = dk_src_pread(src, b, (size_t)size, off, "section header",
	    err)) != DK_OK)
		return st;
	dk_shdr_decode(b, cls, dk_elf_endian(eh->ident), sh);
	return DK_OK;
}

/* ---------------------------------------------------------------------- */
/* Notes.                                                                  */

static uint64_t
note_pad(uint64_t x)
{
	return (x + DK_NOTE_ALIGN - 1) / DK_NOTE_ALIGN * DK_NOTE_ALIGN;
}

uint64_t
dk_note_size(uint64_t namesz, uint64_t descsz)
{
	return dk_elf_size(DK_ELF_NHDR, ELFCLASS32) + note_pad(namesz) +
	    note_pad(descsz);
}

size_t
dk_note_head(uint8_t *nh, enum dk_endian e, uint64_t type, const char *name,
    uint64_t namesz, uint64_t descsz)
{
	struct dk_nhdr h = { namesz, descsz, type };
	size_t hs = dk_elf_size(DK_ELF_NHDR, ELFCLASS32);

	dk_nhdr_encode(nh, e, &h);
	memcpy(nh + hs, name, (size_t)namesz);
	memset(nh + hs + namesz, 0, (size_t)(note_pad(namesz) - namesz));
	return hs + (size_t)note_pad(namesz);
}

void
dk_note_iter_init(struct dk_note_iter *it, const struct dk_src *src,
    uint64_t off, uint64_t end, enum dk_endian e, const char *what)
{
	it->src = *src;
	it->off = off;
	it->end = end;
	it->e = e;
	it->what = what;
	it->failed = DK_OK;
}

void
dk_note_iter_mem(struct dk_note_iter *it, const uint8_t *p, size_t len,
    enum dk_endian e, const char *what)
{
	struct dk_src src = { .fd = -1, .mem = p, .size = len,
	    .name = "memory" };

	dk_note_iter_init(it, &src, 0, len, e, what);
}

int
dk_note_is(const struct dk_note *n, const char *s)
{
	size_t l = strlen(s);

	return n->have_name && (n->namesz == l || n->namesz == l + 1) &&
	    memcmp(n->name, s, l) == 0;
}

enum dk_status
dk_note_next(struct dk_note_iter *it, struct dk_note *n, struct dk_err *err)
{
	size_t hs = dk_elf_size(DK_ELF_NHDR, ELFCLASS32);
	uint8_t b[DK_NHDR_SIZE];
	struct dk_nhdr h;
	uint64_t off = it->off, left;
	enum dk_status st;

	if (it->failed != DK_OK)
		return it->failed;
	if (off >= it->end)
		return DK_NOMATCH;
	memset(n, 0, sizeof(*n));
	n->off = off;
	left = it->end - off;
	if (left < hs) {
		st = dk_err_at(err, DK_ECORRUPT, it->src.name, off, "a note "
		    "header needs %zu bytes, %s has %ju left", hs, it->what,
		    (uintmax_t)left);
		goto fail;
	}
	if ((st = dk_src_pread(&it->src, b, hs, off, "note header", err)) !=
	    DK_OK)
		goto fail;
	dk_nhdr_decode(b, it->e, &h);
	n->namesz = h.namesz;
	n->descsz = h.descsz;
	n->type = h.type;
	if (note_pad(h.namesz) > left - hs ||
	    note_pad(h.descsz) > left - hs - note_pad(h.namesz)) {
		st = dk_err_at(err, DK_ECORRUPT, it->src.name, off, "note of "
		    "type %ju (name %ju bytes, descriptor %ju) extends past "
		    "%s's end at %#jx", (uintmax_t)h.type,
		    (uintmax_t)h.namesz, (uintmax_t)h.descsz, it->what,
		    (uintmax_t)it->end);
		goto fail;
	}
	n->desc_off = off + hs + note_pad(h.namesz);
	if (h.namesz <= DK_NOTE_NAME_MAX) {
		if ((st = dk_src_pread(&it->src, n->name, (size_t)h.namesz,
		    off + hs, "note name", err)) != DK_OK)
			goto fail;
		n->have_name = 1;
	}
	it->off = n->desc_off + note_pad(h.descsz);
	return DK_OK;
fail:
	it->failed = st;
	return st;
}
