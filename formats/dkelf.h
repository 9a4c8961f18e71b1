/*
 * dkelf.h -- the library's one ELF layer (elf.c): the ELF header, the
 * program header, the section header and the note header of either
 * class and byte order, decoded into host structs and encoded back from
 * them through one table of field offsets and widths; the program-header
 * count of PN_XNUM files; a bounded note iterator; a checked read of a
 * section header.  Not installed.
 *
 * The header is not called elf.h: formats/ is an -I directory, and an
 * elf.h there would hide the system's <elf.h> from every file of the
 * tree (libelf's <libelf.h> includes it too).  The ELF constants (EI_*,
 * ET_*, PT_*, PN_XNUM...) are the system's.
 *
 * Nothing here decides what a format makes of the values: a decoder
 * never refuses a field, and the callers keep their own rules and
 * messages.  File bytes are read with bytes.h, in the byte order given.
 */
#ifndef DK_DKELF_H
#define DK_DKELF_H

#include <elf.h>
#include <stdint.h>

#include "private.h"

/* The structures the layer knows. */
enum dk_elf_kind {
	DK_ELF_EHDR = 0,	/* Elf32_Ehdr, Elf64_Ehdr */
	DK_ELF_PHDR,		/* Elf32_Phdr, Elf64_Phdr */
	DK_ELF_SHDR,		/* Elf32_Shdr, Elf64_Shdr */
	DK_ELF_NHDR,		/* Elf32_Nhdr, Elf64_Nhdr (the same) */
	DK_ELF_NKINDS
};

/* Bytes of the largest structure (Elf64_Ehdr, Elf64_Shdr): any one fits. */
#define	DK_ELF_MAXSZ	64
/* Bytes of a note header, in either class (for buffers; see sizes[]). */
#define	DK_NHDR_SIZE	12

/*
 * The fields, one id each, grouped by structure in the order of the
 * ELF specification.  e_ident is not a field: it is bytes, copied.
 */
enum dk_elf_fid {
	DK_E_TYPE = 0,
	DK_E_MACHINE,
	DK_E_VERSION,
	DK_E_ENTRY,
	DK_E_PHOFF,
	DK_E_SHOFF,
	DK_E_FLAGS,
	DK_E_EHSIZE,
	DK_E_PHENTSIZE,
	DK_E_PHNUM,
	DK_E_SHENTSIZE,
	DK_E_SHNUM,
	DK_E_SHSTRNDX,
	DK_P_TYPE,
	DK_P_FLAGS,
	DK_P_OFFSET,
	DK_P_VADDR,
	DK_P_PADDR,
	DK_P_FILESZ,
	DK_P_MEMSZ,
	DK_P_ALIGN,
	DK_S_NAME,
	DK_S_TYPE,
	DK_S_FLAGS,
	DK_S_ADDR,
	DK_S_OFFSET,
	DK_S_SIZE,
	DK_S_LINK,
	DK_S_INFO,
	DK_S_ADDRALIGN,
	DK_S_ENTSIZE,
	DK_N_NAMESZ,
	DK_N_DESCSZ,
	DK_N_TYPE,
	DK_ELF_NFIELDS
};

/* The host views: every field widened to 64 bits. */
struct dk_ehdr {
	uint8_t		ident[EI_NIDENT];	/* verbatim */
	uint64_t	type;
	uint64_t	machine;
	uint64_t	version;
	uint64_t	entry;
	uint64_t	phoff;
	uint64_t	shoff;
	uint64_t	flags;
	uint64_t	ehsize;
	uint64_t	phentsize;
	uint64_t	phnum;		/* PN_XNUM: see dk_elf_phnum() */
	uint64_t	shentsize;
	uint64_t	shnum;
	uint64_t	shstrndx;
};

struct dk_phdr {
	uint64_t	type;
	uint64_t	flags;
	uint64_t	offset;
	uint64_t	vaddr;
	uint64_t	paddr;
	uint64_t	filesz;
	uint64_t	memsz;
	uint64_t	align;
};

struct dk_shdr {
	uint64_t	name;
	uint64_t	type;
	uint64_t	flags;
	uint64_t	addr;
	uint64_t	offset;
	uint64_t	size;
	uint64_t	link;
	uint64_t	info;
	uint64_t	addralign;
	uint64_t	entsize;
};

struct dk_nhdr {
	uint64_t	namesz;
	uint64_t	descsz;
	uint64_t	type;
};

/* One field: its name, structure, host member, place in each class. */
struct dk_elf_field {
	const char	*name;		/* "e_phoff", as the specification has it */
	uint8_t		 kind;		/* enum dk_elf_kind */
	uint8_t		 member;	/* offsetof() in the host struct */
	uint8_t		 off[2];	/* [0] ELFCLASS32, [1] ELFCLASS64 */
	uint8_t		 width[2];	/* bytes: 2, 4 or 8 */
};

/*
 * In every function below, cls is EI_CLASS: ELFCLASS64 selects the
 * 64-bit layout, any other value the 32-bit one (the caller checks
 * EI_CLASS where it matters; e_type, e_machine and e_version are at the
 * same place in both), and e the byte order (DK_BE, else little).
 */

/* Field f of the table. */
const struct dk_elf_field *dk_elf_field(enum dk_elf_fid f);
/* The byte offset of field f inside its structure in class cls. */
unsigned	dk_elf_off(enum dk_elf_fid f, unsigned cls);
/* The width in bytes of field f in class cls. */
unsigned	dk_elf_width(enum dk_elf_fid f, unsigned cls);
/* sizeof the structure k in class cls (52/64, 32/56, 40/64, 12). */
unsigned	dk_elf_size(enum dk_elf_kind k, unsigned cls);
/* Decode field f of the structure at p (dk_elf_off + width bytes). */
uint64_t	dk_elf_get(const uint8_t *p, enum dk_elf_fid f, unsigned cls,
		    enum dk_endian e);
/* Encode v as field f of the structure at p (its low bytes). */
void		dk_elf_put(uint8_t *p, enum dk_elf_fid f, unsigned cls,
		    enum dk_endian e, uint64_t v);

/* Is p (at least SELFMAG bytes) the ELF magic 7f 'E' 'L' 'F'? */
int		dk_elf_magic(const uint8_t *p);
/* The byte order EI_DATA of ident names: DK_BE for ELFDATA2MSB, else LE. */
enum dk_endian	dk_elf_endian(const uint8_t *ident);
/*
 * Fill an e_ident: magic, class, data (of e), EI_VERSION EV_CURRENT,
 * osabi, and zeros (EI_ABIVERSION, padding).
 */
void		dk_elf_ident(uint8_t *ident, unsigned cls, enum dk_endian e,
		    unsigned osabi);

/*
 * The decode/encode twins: p holds dk_elf_size(kind, cls) bytes.  An
 * encoder writes every byte of its structure (e_ident from h->ident),
 * so encode(decode(bytes)) gives the bytes back, and decode(encode(h))
 * gives h back for values that fit their fields.
 */
void		dk_ehdr_decode(const uint8_t *, unsigned cls, enum dk_endian,
		    struct dk_ehdr *);
void		dk_ehdr_encode(uint8_t *, unsigned cls, enum dk_endian,
		    const struct dk_ehdr *);
void		dk_phdr_decode(const uint8_t *, unsigned cls, enum dk_endian,
		    struct dk_phdr *);
void		dk_phdr_encode(uint8_t *, unsigned cls, enum dk_endian,
		    const struct dk_phdr *);
void		dk_shdr_decode(const uint8_t *, unsigned cls, enum dk_endian,
		    struct dk_shdr *);
void		dk_shdr_encode(uint8_t *, unsigned cls, enum dk_endian,
		    const struct dk_shdr *);
void		dk_nhdr_decode(const uint8_t *, enum dk_endian,
		    struct dk_nhdr *);
void		dk_nhdr_encode(uint8_t *, enum dk_endian,
		    const struct dk_nhdr *);

/*
 * Read and decode the program header at off of src ("what" names it in
 * the message of a short read: dk_src_pread's).
 */
enum dk_status	dk_phdr_read(const struct dk_src *, uint64_t off, unsigned cls,
		    enum dk_endian, struct dk_phdr *, const char *what,
		    struct dk_err *);

/* p_flags of a segment of kernel memory with protection prot (DK_PROT_*). */
static inline unsigned
dk_pflags(unsigned prot)
{
	return PF_R | ((prot & DK_PROT_W) ? PF_W : 0) |
	    ((prot & DK_PROT_X) ? PF_X : 0);
}

/* ---------------------------------------------------------------------- */
/* PN_XNUM: more than 65534 program headers.                               */

/*
 * The program-header count of the file whose ELF header is eh: e_phnum,
 * or, when e_phnum is PN_XNUM, sh_info of section header 0 at e_shoff
 * (only the bytes up to the end of sh_info are read, and e_shentsize
 * and e_shnum are not consulted).  DK_NOMATCH, with *n = PN_XNUM, when
 * e_phnum is PN_XNUM but sh_info is not inside src; another error only
 * if the read fails.
 */
enum dk_status	dk_elf_phnum(const struct dk_src *, const struct dk_ehdr *,
		    uint64_t *n, struct dk_err *);
/*
 * What a writer of n program headers puts in eh (e_phnum, e_shoff,
 * e_shentsize, e_shnum) and, if it returns 1, writes at shoff: one
 * SHT_NULL section header *sh0 whose sh_info is n (n >= PN_XNUM; the
 * count must fit sh_info's 32 bits).  0: e_phnum is n, no section
 * header (e_shoff, e_shentsize, e_shnum 0), shoff unused.
 */
int		dk_elf_xnum_put(struct dk_ehdr *eh, struct dk_shdr *sh0,
		    uint64_t n, uint64_t shoff);
/* Does a file of n program headers need PN_XNUM (and so a section 0)? */
static inline int
dk_elf_xnum_needed(uint64_t n)
{
	return n >= PN_XNUM;
}

/* ---------------------------------------------------------------------- */
/* Section headers: optional in a core, checked before any use.            */

/*
 * Read section header i of the file whose ELF header is eh, checked:
 * e_shentsize must be the class's size, i below e_shnum (section 0 may
 * be read whatever e_shnum says: it is where PN_XNUM and SHN_XINDEX
 * counts live), and the header inside src.  Each failure is an error at
 * its offset (DK_ECORRUPT; DK_ETRUNC past the end of src).  Nothing in
 * the library needs a core's section headers: they are never trusted.
 */
enum dk_status	dk_shdr_read(const struct dk_src *, const struct dk_ehdr *,
		    uint64_t i, struct dk_shdr *, struct dk_err *);

/* ---------------------------------------------------------------------- */
/* Notes.                                                                  */

#define	DK_NOTE_ALIGN		4	/* name and descriptor padding */
#define	DK_NOTE_NAME_MAX	32	/* name bytes copied into a dk_note */

/* One note, as the iterator yields it. */
struct dk_note {
	uint64_t	off;		/* the note header's offset */
	uint64_t	namesz;		/* as the header says, NUL included */
	uint64_t	descsz;
	uint64_t	type;
	uint64_t	desc_off;	/* the descriptor's offset */
	/*
	 * The name's bytes when namesz <= DK_NOTE_NAME_MAX (have_name
	 * set), NUL-padded; a longer name is not read (see desc_off -
	 * off - 12 for its place).
	 */
	int		have_name;
	uint8_t		name[DK_NOTE_NAME_MAX + 1];
};

/*
 * The iterator's state: the range [off, end) of src still to walk.
 * Each note must fit in it whole: a 12-byte header, the name padded to
 * 4 bytes, the descriptor padded to 4 bytes.  Always 4: the gABI's
 * alignment of notes in both classes, the one core files (FreeBSD,
 * Linux, dumpkit's own) use.  Some producers write notes aligned to 8
 * (GNU property notes in PT_NOTE segments of p_align 8); this iterator
 * does not guess them: their padding would be read as the next note's
 * header, which then most likely fails to fit, and the walk stops with
 * an error there.  A caller that meets p_align 8 decides for itself.
 */
struct dk_note_iter {
	struct dk_src	 src;		/* a copy: memory ranges keep theirs */
	uint64_t	 off;		/* the next note */
	uint64_t	 end;
	enum dk_endian	 e;
	const char	*what;		/* "the PT_NOTE segment", for messages */
	enum dk_status	 failed;	/* DK_OK, or the error every call returns */
};

/*
 * Walk the notes of [off, end) of src, in byte order e; what names the
 * range in error messages.  An end below off is an empty range.
 */
void		dk_note_iter_init(struct dk_note_iter *, const struct dk_src *,
		    uint64_t off, uint64_t end, enum dk_endian,
		    const char *what);
/* The same over len bytes in memory (offsets are from p). */
void		dk_note_iter_mem(struct dk_note_iter *, const uint8_t *p,
		    size_t len, enum dk_endian, const char *what);
/* Is note n's name s (its NUL counted or not)? */
int		dk_note_is(const struct dk_note *n, const char *s);
/*
 * The next note into *n: DK_OK; DK_NOMATCH when the range is done; or
 * an error at the note's offset, after which it->off is that offset and
 * every later call fails the same way: DK_ECORRUPT when the range has
 * fewer than 12 bytes left for a header or the note does not fit in it
 * (n->namesz, descsz and type are then the header's), or the read's
 * error (DK_ETRUNC past the end of src, DK_ESYS).  Never reads outside
 * the range.
 */
enum dk_status	dk_note_next(struct dk_note_iter *, struct dk_note *,
		    struct dk_err *);
/* The bytes a note of a namesz-byte name and descsz descriptor takes. */
uint64_t	dk_note_size(uint64_t namesz, uint64_t descsz);
/* Encode a note header and name (nh holds 12 + namesz padded to 4). */
size_t		dk_note_head(uint8_t *nh, enum dk_endian, uint64_t type,
		    const char *name, uint64_t namesz, uint64_t descsz);

#endif /* DK_DKELF_H */
