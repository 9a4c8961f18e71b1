/*
 * fmt_elfmini.c -- the portable ELF minidump (docs/portable-elf-minidump.md),
 * read and written; and the rebuilding of the native dump it came from.
 *
 * The file is an ELFCLASS64 ET_CORE in the source's byte order: program
 * header 0 is a PT_NOTE holding dumpkit's notes (an info record, then the
 * source's metadata verbatim), then one physical PT_LOAD per run of
 * stored pages and one virtual PT_LOAD per run of the kernel map.  What
 * the metadata and the page data are depends on the source's kind, a
 * row of kinds[] at the end of this file: a minidump's header page,
 * msgbuf, dump_avail, bitmap and page-table area, and its pages one per
 * set bit in ascending order (the reader is then the minidump reader with
 * its section offsets pointing into the notes); a sparc64 dump's header
 * blob and its regions' data as the file holds it (the reader is the
 * sparc64 reader with the regions' offsets moved).  Either way a
 * conversion copies the metadata and one extent of page data, and the
 * native rebuild is byte for byte.
 *
 * Writing never goes through libelf: the headers are encoded with the
 * library's ELF layer (elf.c, dkelf.h), and pages are copied between the
 * files' data extents (see docs/portable-elf-minidump.md, section 8, for
 * why).
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "dkelf.h"
#include "minidump.h"
#include "private.h"
#include "sparc64.h"

#define	EM_CLASS	ELFCLASS64	/* whatever the source's class */
#define	EHDR_SIZE	dk_elf_size(DK_ELF_EHDR, EM_CLASS)
#define	PHDR_SIZE	dk_elf_size(DK_ELF_PHDR, EM_CLASS)
#define	SHDR_SIZE	dk_elf_size(DK_ELF_SHDR, EM_CLASS)
#define	NOTE_NAME	"dumpkit"
#define	NOTE_NAMESZ	8
#define	INFO_SIZE	120
#define	INFO_VERSION	1
#define	SOURCE_MINIDUMP	1	/* source_format of the info record */
#define	SOURCE_SPARC64	2
#define	SOURCE_ELFCORE	3	/* a FreeBSD full ELF core (fmt_elf.c) */
#define	MAX_RESIDUE	(64ull << 20)	/* bytes of residue we agree to keep */
#define	MAX_RESIDUE_RECS 65536

/*
 * Note types are "DK" in the high half: readers that ignore the owner
 * name and go by type alone (BFD, eu-readelf on cores) must not take
 * them for NT_PRSTATUS and friends.  The index is the low half.
 */
#define	NT_DK_BASE	0x444b0000u
enum {
	NT_DK_INFO = 1,
	NT_DK_SOURCE_HEADER,
	NT_DK_MSGBUF,
	NT_DK_DUMP_AVAIL,
	NT_DK_BITMAP,
	NT_DK_PMAP,
	NT_DK_RESIDUE,
	NT_DK_KDH,		/* the source's kerneldumpheader, 512 bytes */
	NT_DK_MAX
};

#define	FLAG_DMAP	0x1u
#define	FLAG_VIRTUAL	0x2u
#define	FLAG_TRUNCATED	0x4u
#define	FLAG_DROPPED	0x8u	/* zero pages left out (page-keep note) */

static uint64_t
align_up(uint64_t x, uint64_t a)
{
	return (x + a - 1) / a * a;
}

/* ---------------------------------------------------------------------- */
/* Reading.                                                                */

static enum dk_status
em_probe(const struct dk_src *src, struct dk_err *err)
{
	uint8_t eh[DK_ELF_MAXSZ], nh[DK_NHDR_SIZE + NOTE_NAMESZ];
	struct dk_ehdr h;
	struct dk_phdr ph;
	struct dk_nhdr n;
	enum dk_endian e;
	uint64_t phoff, noff;

	if (src->size < EHDR_SIZE)
		return DK_NOMATCH;
	if (dk_src_pread(src, eh, EHDR_SIZE, 0, "ELF header", err) != DK_OK)
		return err->code;
	if (!dk_elf_magic(eh) || eh[EI_CLASS] != EM_CLASS ||
	    (eh[EI_DATA] != ELFDATA2LSB && eh[EI_DATA] != ELFDATA2MSB))
		return DK_NOMATCH;
	e = dk_elf_endian(eh);
	dk_ehdr_decode(eh, EM_CLASS, e, &h);
	if (h.type != ET_CORE)
		return DK_NOMATCH;
	phoff = h.phoff;
	if (phoff > src->size || src->size - phoff < PHDR_SIZE ||
	    dk_phdr_read(src, phoff, EM_CLASS, e, &ph, "program header",
	    err) != DK_OK || ph.type != PT_NOTE)
		return DK_NOMATCH;
	noff = ph.offset;
	if (noff > src->size || src->size - noff < sizeof(nh) ||
	    dk_src_pread(src, nh, sizeof(nh), noff, "note", err) != DK_OK)
		return DK_NOMATCH;
	dk_nhdr_decode(nh, e, &n);
	if (n.namesz != NOTE_NAMESZ ||
	    memcmp(nh + DK_NHDR_SIZE, NOTE_NAME, NOTE_NAMESZ) != 0 ||
	    n.type != NT_DK_BASE + NT_DK_INFO)
		return DK_NOMATCH;
	return DK_OK;
}

struct em_note {
	uint64_t	off;		/* descriptor's file offset */
	uint64_t	size;
	int		seen;
};

/* Find dumpkit's notes in [off, off + size). */
static enum dk_status
read_notes(struct dk_dump *d, enum dk_endian e, uint64_t off, uint64_t size,
    struct em_note *notes, struct dk_err *err)
{
	struct dk_note_iter it;
	struct dk_note n;
	enum dk_status st;

	dk_note_iter_init(&it, &d->src, off, off + size, e,
	    "the PT_NOTE segment");
	while ((st = dk_note_next(&it, &n, err)) == DK_OK) {
		uint64_t type = n.type;

		if (n.namesz != NOTE_NAMESZ ||
		    memcmp(n.name, NOTE_NAME, NOTE_NAMESZ) != 0 ||
		    type <= NT_DK_BASE || type >= NT_DK_BASE + NT_DK_MAX)
			continue;
		type -= NT_DK_BASE;
		if (notes[type].seen)
			return dk_err_at(err, DK_ECORRUPT, d->src.name, n.off,
			    "a second dumpkit note of type %ju",
			    (uintmax_t)type);
		notes[type].off = n.desc_off;
		notes[type].size = n.descsz;
		notes[type].seen = 1;
		DK_TRACE(d, "note %ju at %#jx, %ju bytes", (uintmax_t)type,
		    (uintmax_t)n.desc_off, (uintmax_t)n.descsz);
	}
	return st == DK_NOMATCH ? DK_OK : st;
}

/*
 * A kind of source dump the portable file holds (the table is at the
 * end of this file): how it is read back, which notes carry it, where
 * its page data is, how the native file is rebuilt.
 */
struct em_ctx;
struct plan;
struct em_kind {
	uint32_t	 id;		/* source_format of the info record */
	const char	*name;		/* "minidump", "sparc64" */
	/* Can architecture row a be of this kind? */
	int		(*row_ok)(const struct dk_arch *);
	/* Is the open dump d (native or portable) of this kind? */
	int		(*is)(const struct dk_dump *);
	/* Reading: set d up from the notes (d->fmt may change). */
	enum dk_status	(*open)(struct dk_dump *, const struct em_ctx *,
			    struct dk_err *);
	/* Bytes of page data in d's file from d->off_pages. */
	uint64_t	(*present)(const struct dk_dump *);
	/* Residue records of d (NULL: the kind never needs any). */
	enum dk_status	(*residue)(struct dk_dump *, struct plan *,
			    struct dk_err *);
	/* The kind's notes after the info note: their size, their bytes. */
	uint64_t	(*notes_size)(const struct dk_dump *, const struct plan *);
	enum dk_status	(*notes)(struct dk_dump *, const struct plan *,
			    struct dk_sink *, struct dk_err *);
	/* Write the native file (the residue is in the plan). */
	enum dk_status	(*rebuild)(struct dk_dump *, struct dk_sink *,
			    const struct plan *, struct dk_err *);
};

static const struct em_kind *kind_of(const struct dk_dump *);

/* What a source kind's reader is given: the common part, decoded. */
struct em_ctx {
	enum dk_endian		 e;
	uint64_t		 noff, nsize;	/* the PT_NOTE segment */
	const struct em_note	*notes;
	const uint8_t		*info;		/* INFO_SIZE bytes */
	const struct dk_arch	*row;		/* the info note's arch */
};

static const struct em_kind *kind_by_id(uint32_t);

static enum dk_status
em_open(struct dk_dump *d, const struct dk_open_opts *o, struct dk_err *err)
{
	uint8_t eh[DK_ELF_MAXSZ], info[INFO_SIZE];
	struct em_note notes[NT_DK_MAX] = { { 0, 0, 0 } };
	struct dk_ehdr h;
	struct dk_phdr ph;
	const struct em_kind *kind;
	const struct dk_arch *row;
	struct em_ctx ctx;
	enum dk_endian e;
	uint64_t phoff, noff, nsize;
	char arch[17];
	enum dk_status st;

	if ((st = dk_src_pread(&d->src, eh, EHDR_SIZE, 0, "ELF header",
	    err)) != DK_OK)
		return st;
	e = dk_elf_endian(eh);
	dk_ehdr_decode(eh, EM_CLASS, e, &h);
	phoff = h.phoff;
	if (h.phentsize != PHDR_SIZE)
		return dk_err_at(err, DK_ECORRUPT, d->src.name,
		    dk_elf_off(DK_E_PHENTSIZE, EM_CLASS), "expected "
		    "e_phentsize %u, found %ju", PHDR_SIZE,
		    (uintmax_t)h.phentsize);
	if ((st = dk_phdr_read(&d->src, phoff, EM_CLASS, e, &ph, "program "
	    "header 0", err)) != DK_OK)
		return st;
	noff = ph.offset;
	nsize = ph.filesz;
	if (noff > d->src.size || nsize > d->src.size - noff)
		return dk_err_at(err, DK_ETRUNC, d->src.name, phoff +
		    dk_elf_off(DK_P_OFFSET, EM_CLASS), "the "
		    "PT_NOTE segment [%#jx, %#jx) extends past the end of the "
		    "file at %#jx", (uintmax_t)noff, (uintmax_t)(noff + nsize),
		    (uintmax_t)d->src.size);
	if ((st = read_notes(d, e, noff, nsize, notes, err)) != DK_OK)
		return st;
	if (!notes[NT_DK_INFO].seen || notes[NT_DK_INFO].size < INFO_SIZE)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, noff,
		    "expected a dumpkit info note of at least %d bytes, found "
		    "%ju", INFO_SIZE, (uintmax_t)notes[NT_DK_INFO].size);
	if ((st = dk_src_pread(&d->src, info, sizeof(info),
	    notes[NT_DK_INFO].off, "info note", err)) != DK_OK)
		return st;
	kind = kind_by_id((uint32_t)dec_uint(info + 4, 4, e));
	if (dec_uint(info, 4, e) != INFO_VERSION || kind == NULL)
		return dk_err_at(err, DK_EUNSUP, d->src.name,
		    notes[NT_DK_INFO].off, "expected portable format version "
		    "1 of a source format dumpkit knows (1 minidump, 2 "
		    "sparc64, 3 full ELF core), found version %ju of source "
		    "format %ju", (uintmax_t)dec_uint(info, 4, e),
		    (uintmax_t)dec_uint(info + 4, 4, e));
	memcpy(arch, info + 16, 16);
	arch[16] = '\0';
	row = dk_arch_by_name(arch);
	if (row == NULL || strcmp(row->name, arch) != 0 ||
	    row->endian != e || !kind->row_ok(row))
		return dk_err_at(err, DK_ECORRUPT, d->src.name,
		    notes[NT_DK_INFO].off + 16, "the info note names "
		    "architecture \"%s\", which is not a %s-endian %s "
		    "architecture", arch, e == DK_BE ? "big" : "little",
		    kind->name);
	/*
	 * The file names its architecture.  An --arch or --kernel that says
	 * otherwise is refused, as the minidump reader refuses one that
	 * contradicts the magic; one that agrees is what decided.
	 */
	d->info.arch_by = DK_BY_HEADER;
	snprintf(d->arch_why, sizeof(d->arch_why), "the portable file's info "
	    "note names %s", arch);
	if (o != NULL && (o->arch != NULL || o->kernel != NULL)) {
		const struct dk_arch *want = NULL;

		if (o->arch != NULL) {
			if ((want = dk_arch_by_name(o->arch)) == NULL)
				return dk_err_set(err, DK_EINVAL, "unknown "
				    "architecture '%s'", o->arch);
			d->info.arch_by = DK_BY_OPTION;
			snprintf(d->arch_why, sizeof(d->arch_why), "--arch %s, "
			    "as the portable file's info note says", o->arch);
		} else {
			if ((st = dk_arch_from_kernel(o->kernel, &want, err)) !=
			    DK_OK)
				return st;
			d->info.arch_by = DK_BY_KERNEL;
			snprintf(d->arch_why, sizeof(d->arch_why), "kernel ELF "
			    "header of %s, as the portable file's info note "
			    "says", o->kernel);
		}
		if (want != row)
			return dk_err_at(err, DK_EINVAL, d->src.name,
			    notes[NT_DK_INFO].off + 16, "the info note names "
			    "architecture %s, not %s (%s)", row->name,
			    want->name, o->arch != NULL ? "--arch" : o->kernel);
	}
	ctx = (struct em_ctx){ e, noff, nsize, notes, info, row };
	if (notes[NT_DK_RESIDUE].seen) {
		d->off_residue = notes[NT_DK_RESIDUE].off;
		d->residue_size = notes[NT_DK_RESIDUE].size;
	}
	if (notes[NT_DK_KDH].seen && (st = dk_kdh_note_load(d,
	    notes[NT_DK_KDH].off, notes[NT_DK_KDH].size, err)) != DK_OK)
		return st;
	return kind->open(d, &ctx, err);
}

/* The reader of a portable minidump: the minidump reader on the notes. */
static enum dk_status
open_minidump(struct dk_dump *d, const struct em_ctx *c, struct dk_err *err)
{
	static const struct { int type; unsigned id; const char *name; }
	    sect[] = {
		{ NT_DK_MSGBUF, DK_H_MSGBUFSIZE, "msgbuf" },
		{ NT_DK_DUMP_AVAIL, DK_H_DUMPAVAILSIZE, "dump_avail" },
		{ NT_DK_BITMAP, DK_H_BITMAPSIZE, "bitmap" },
		{ NT_DK_PMAP, DK_H_PMAPSIZE, "pmap" },
	};
	uint64_t *offp[] = { &d->off_msgbuf, &d->off_avail, &d->off_bitmap,
	    &d->off_pmap };
	const struct em_note *notes = c->notes;
	const uint8_t *info = c->info;
	uint64_t ioff = notes[NT_DK_INFO].off, psize, stored;
	enum dk_endian e = c->e;
	uint8_t hbuf[4096] = { 0 };
	enum dk_status st;
	size_t n;

	psize = dec_uint(info + 12, 4, e);
	if (!notes[NT_DK_SOURCE_HEADER].seen ||
	    notes[NT_DK_SOURCE_HEADER].size != psize)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, c->noff,
		    "expected a source header note of page_size %ju bytes, "
		    "found %s%ju", (uintmax_t)psize,
		    notes[NT_DK_SOURCE_HEADER].seen ? "" : "none, ",
		    (uintmax_t)notes[NT_DK_SOURCE_HEADER].size);
	n = psize < sizeof(hbuf) ? (size_t)psize : sizeof(hbuf);
	if ((st = dk_src_pread(&d->src, hbuf, n,
	    notes[NT_DK_SOURCE_HEADER].off, "source header", err)) != DK_OK)
		return st;
	d->off_header = notes[NT_DK_SOURCE_HEADER].off;
	if ((st = dk_md_header(d, hbuf, n, d->off_header, c->row, NULL,
	    err)) != DK_OK)
		return st;
	if (d->page_size != psize || d->info.version != dec_uint(info + 8, 4,
	    e))
		return dk_err_at(err, DK_ECORRUPT, d->src.name, ioff, "the "
		    "info note says page size %ju, version %ju; the source "
		    "header says %ju, %u", (uintmax_t)psize,
		    (uintmax_t)dec_uint(info + 8, 4, e),
		    (uintmax_t)d->page_size, d->info.version);
	d->info.format = "portable-elf";
	dk_add_section(d, "elf headers", 0, c->noff, c->noff);
	dk_add_section(d, "notes", c->noff, c->nsize, c->nsize);
	for (size_t i = 0; i < DK_ARRAY_LEN(sect); i++) {
		const struct em_note *nt = &notes[sect[i].type];
		uint64_t want = d->hdr.v[sect[i].id];

		*offp[i] = nt->off;
		if (sect[i].type == NT_DK_DUMP_AVAIL &&
		    !DK_H_HAS(&d->hdr, DK_H_DUMPAVAILSIZE))
			continue;
		if (!nt->seen || nt->size != want)
			return dk_err_at(err, DK_ECORRUPT, d->src.name,
			    c->noff, "expected a %s note of %ju bytes as the "
			    "source header says, found %s%ju", sect[i].name,
			    (uintmax_t)want, nt->seen ? "" : "none, ",
			    (uintmax_t)nt->size);
		if (sect[i].type != NT_DK_MSGBUF)
			dk_add_section(d, sect[i].name, nt->off, nt->size,
			    nt->size);
	}
	d->off_pages = dec_uint(info + 88, 8, e);
	if (d->off_pages % d->page_size != 0 || d->off_pages > d->src.size)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, ioff + 88,
		    "data_offset %#jx is not a page-aligned offset inside the "
		    "file of %#jx bytes", (uintmax_t)d->off_pages,
		    (uintmax_t)d->src.size);
	if ((st = dk_md_load(d, err)) != DK_OK)
		return st;
	stored = dec_uint(info + 104, 8, e);
	if (dec_uint(info + 96, 8, e) != d->info.npages ||
	    stored > d->info.npages)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, ioff + 96,
		    "the info note says %ju pages dumped, %ju stored; the "
		    "bitmap has %ju", (uintmax_t)dec_uint(info + 96, 8, e),
		    (uintmax_t)stored, (uintmax_t)d->info.npages);
	if (d->info.npages_present > stored)
		d->info.npages_present = stored;
	d->nphys = dec_uint(info + 112, 8, e);
	d->kerndisp = (int64_t)dec_uint(info + 80, 8, e);
	dk_add_section(d, "pages", d->off_pages, d->info.npages_present <<
	    d->page_shift, d->info.npages_present << d->page_shift);
	return DK_OK;
}

/*
 * The reader of a portable sparc64 dump: the sparc64 reader, with the
 * header blob in the source header note and the regions' data, in the
 * native file's order, from data_offset (so a region's file offset is
 * dr_offs - dh_hdr_size + data_offset).  From here on the dump is read
 * through dk_fmt_sparc64's ops.
 */
static enum dk_status
open_sparc64(struct dk_dump *d, const struct em_ctx *c, struct dk_err *err)
{
	const struct em_note *hn = &c->notes[NT_DK_SOURCE_HEADER];
	uint64_t ioff = c->notes[NT_DK_INFO].off, hs, data, stored;
	uint8_t b[8];
	enum dk_status st;

	if (!hn->seen || hn->size < SP64_HDR_SIZE)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, c->noff,
		    "expected a source header note of at least 40 bytes (the "
		    "sparc64 header), found %s%ju", hn->seen ? "" : "none, ",
		    (uintmax_t)hn->size);
	if ((st = dk_src_pread(&d->src, b, sizeof(b), hn->off, "source "
	    "header", err)) != DK_OK)
		return st;
	hs = dec_be64(b);
	data = dec_uint(c->info + 88, 8, c->e);
	if (hs != hn->size)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, hn->off,
		    "dh_hdr_size %#jx differs from the source header note's "
		    "%ju bytes", (uintmax_t)hs, (uintmax_t)hn->size);
	if (data % SP64_PAGE_SIZE != 0 || data > d->src.size || data < hs)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, ioff + 88,
		    "data_offset %#jx is not an 8 KiB-aligned offset inside "
		    "the file of %#jx bytes", (uintmax_t)data,
		    (uintmax_t)d->src.size);
	/* From now on sparc64's close frees what its loader allocates. */
	d->fmt = &dk_fmt_sparc64;
	d->arch = c->row;
	d->info.arch = c->row->name;
	d->info.arch_why = d->arch_why;
	d->off_header = hn->off;
	d->off_pages = data;
	if ((st = dk_sp64_load(d, hn->off, data - hs, err)) != DK_OK)
		return st;
	stored = dec_uint(c->info + 104, 8, c->e);
	if (dec_uint(c->info + 96, 8, c->e) != d->info.npages ||
	    stored > d->info.npages || dec_uint(c->info + 12, 4, c->e) !=
	    SP64_PAGE_SIZE)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, ioff + 96,
		    "the info note says %ju pages of %ju bytes in the "
		    "regions, %ju stored; the regions have %ju of 8192",
		    (uintmax_t)dec_uint(c->info + 96, 8, c->e),
		    (uintmax_t)dec_uint(c->info + 12, 4, c->e),
		    (uintmax_t)stored, (uintmax_t)d->info.npages);
	if (d->info.npages_present > stored)
		d->info.npages_present = stored;
	d->nphys = dec_uint(c->info + 112, 8, c->e);
	d->info.format = "portable-elf";
	dk_add_section(d, "elf headers", 0, c->noff, c->noff);
	dk_add_section(d, "notes", c->noff, c->nsize, c->nsize);
	dk_add_section(d, "regions", data, d->src.size - data, d->src.size -
	    data);
	return DK_OK;
}

const struct dk_format_ops dk_fmt_elfmini = {
	.name		= "portable-elf",
	.desc		= "dumpkit portable ELF minidump",
	.probe		= em_probe,
	.open		= em_open,
	.close		= dk_md_close,
	.pa_offset	= dk_md_pa_offset,
	.kvtop		= dk_md_kvtop,
	.run_next	= dk_md_run_next,
};

/* ---------------------------------------------------------------------- */
/* The residue: source bytes nothing else reproduces.                      */

struct residue {
	uint64_t	off;		/* offset in the native file */
	uint64_t	len;
	uint64_t	src_off;	/* where the bytes are in d's file */
};

struct em_kind;

struct plan {
	struct dk_elfmini_plan	 p;
	const struct em_kind	*kind;		/* the source's row */
	struct dk_kmap_run	*virt;		/* the kernel map's runs */
	size_t			 nkmap;
	struct residue		*res;
	size_t			 nres;
	uint64_t		 present;	/* bytes of stored pages */
	uint64_t		 notes_off;
	uint64_t		 shoff;		/* 0: no section header */
	uint64_t		 nph;
	unsigned		 flags;
	/*
	 * Pages of a full core's data extent the file stores (set) or
	 * leaves out as zeros (clear): own, if --drop-zero found them here
	 * (the source's runs are then cut by it), or the source's own
	 * page-keep note; NULL if every page is stored.
	 */
	const struct dk_bitmap	*keep;
	uint64_t		 ext_size;
	struct dk_bitmap	 own;
	int			 scan;
};

static void
plan_free(struct plan *pl)
{
	free(pl->virt);
	free(pl->res);
	dk_bitmap_free(&pl->own);
}

/* Is the page of len bytes at p all zero? */
static int
all_zero(const uint8_t *p, size_t len)
{
	return len == 0 || (p[0] == 0 && memcmp(p, p + 1, len - 1) == 0);
}

/*
 * --drop-zero on a full core: one pass over its data extent (the bytes
 * from d->off_pages to the end of the file) marks the pages that are not
 * all zero; the partial last page is always kept.  The bitmap is one
 * bit per page: metadata, 32 MiB per TiB of core.
 */
static enum dk_status
scan_zero(struct dk_dump *d, struct plan *pl, struct dk_err *err)
{
	uint64_t ext = d->off_pages < d->src.size ? d->src.size -
	    d->off_pages : 0, ps = d->page_size;
	uint64_t npages = (ext + ps - 1) / ps, kept = 0;
	size_t chunk = 1u << 20;
	uint8_t *buf;
	enum dk_status st;

	if ((st = dk_bitmap_init(&pl->own, npages, err)) != DK_OK)
		return st;
	if ((buf = malloc(chunk)) == NULL)
		return dk_err_set(err, DK_ENOMEM, "out of memory");
	for (uint64_t done = 0; done < ext; done += chunk) {
		size_t n = ext - done < chunk ? (size_t)(ext - done) : chunk;

		if ((st = dk_src_pread(&d->src, buf, n, d->off_pages + done,
		    "page data", err)) != DK_OK) {
			free(buf);
			return st;
		}
		for (size_t k = 0; k < n; k += (size_t)ps) {
			size_t len = n - k < ps ? n - k : (size_t)ps;

			if (len < ps || !all_zero(buf + k, len)) {
				dk_bitmap_set(&pl->own, (done + k) / ps);
				kept += len;
			}
		}
	}
	free(buf);
	if ((st = dk_bitmap_index(&pl->own, err)) != DK_OK)
		return st;
	pl->keep = &pl->own;
	pl->ext_size = ext;
	pl->scan = 1;
	pl->present = kept;
	return DK_OK;
}

/*
 * The source's stored pages as pieces of the new file: contiguous in
 * the address space (physical runs, or the kernel map's runs of
 * pl->virt), each either stored (off: its offset in the new file) or
 * left out as zeros (off DK_OFF_ZERO).  Runs of a source scanned for
 * --drop-zero are cut where the plan's bitmap changes.
 */
struct piece {
	uint64_t	addr, pa, len, off;
	unsigned	prot;
};

struct piece_iter {
	int			virt;	/* pl->virt, not the physical runs */
	struct dk_run_iter	it;
	size_t			vi;
	struct dk_run		r;	/* the run being cut; r.pa: address */
	uint64_t		pa;	/* a virtual run's PA */
	unsigned		prot;
	uint64_t		done;
	int			have;
};

static int
piece_next(struct dk_dump *d, const struct plan *pl, struct piece_iter *pi,
    struct piece *p)
{
	uint64_t pend = d->off_pages + (pl->scan ? pl->ext_size :
	    pl->present), data = pl->p.data_offset, ps = d->page_size;
	uint64_t x, i, j, n;
	int kept;

	while (!pi->have || pi->done >= pi->r.len) {
		if (pi->virt) {
			const struct dk_kmap_run *v;

			if (pi->vi >= pl->nkmap)
				return 0;
			v = &pl->virt[pi->vi++];
			pi->r = (struct dk_run){ v->va, v->len, v->offset };
			pi->pa = v->pa;
			pi->prot = v->prot;
		} else {
			if (!dk_run_next(d, &pi->it, &pi->r))
				return 0;
			pi->pa = pi->r.pa;
			pi->prot = DK_PROT_W | DK_PROT_X;
		}
		pi->have = 1;
		pi->done = 0;
		/* Runs past the stored pages (a truncated source): none. */
		if (pi->r.offset != DK_OFF_ZERO && pi->r.offset >= pend) {
			pi->done = pi->r.len;
			continue;
		}
		if (pi->r.offset != DK_OFF_ZERO &&
		    pi->r.offset + pi->r.len > pend)
			pi->r.len = pend - pi->r.offset;
	}
	*p = (struct piece){ pi->r.pa + pi->done, pi->pa == UINT64_MAX ?
	    UINT64_MAX : pi->pa + pi->done, pi->r.len - pi->done, 0, pi->prot };
	if (pi->r.offset == DK_OFF_ZERO || !pl->scan) {
		p->off = pi->r.offset == DK_OFF_ZERO ? DK_OFF_ZERO : data +
		    (pi->r.offset + pi->done - d->off_pages);
		pi->done = pi->r.len;
		return 1;
	}
	x = pi->r.offset + pi->done - d->off_pages;
	i = x / ps;
	kept = dk_bitmap_test(pl->keep, i);
	j = dk_bitmap_next(pl->keep, i + 1, !kept);
	n = j * ps - x;
	if (n < p->len)
		p->len = n;
	p->off = kept ? data + dk_bitmap_rank(pl->keep, i) * ps + x % ps :
	    DK_OFF_ZERO;
	pi->done += p->len;
	return 1;
}

static enum dk_status
add_residue(struct plan *pl, uint64_t off, uint64_t len, uint64_t src_off,
    struct dk_err *err)
{
	struct residue *r;

	if (pl->nres >= MAX_RESIDUE_RECS || pl->p.residue + len > MAX_RESIDUE)
		return dk_err_set(err, DK_ELIMIT, "more than %ju bytes in %d "
		    "records would have to be kept verbatim (non-zero section "
		    "padding or trailing bytes)", (uintmax_t)MAX_RESIDUE,
		    MAX_RESIDUE_RECS);
	r = realloc(pl->res, (pl->nres + 1) * sizeof(*r));
	if (r == NULL)
		return dk_err_set(err, DK_ENOMEM, "out of memory");
	pl->res = r;
	pl->res[pl->nres++] = (struct residue){ off, len, src_off };
	pl->p.residue += len;
	return DK_OK;
}

/* The native layout of d's sections: offsets, declared and rounded sizes. */
struct native_sect {
	uint64_t	src;		/* offset of the bytes in d's file */
	uint64_t	size;
	uint64_t	off;		/* offset in the native file */
};

static size_t
native_layout(const struct dk_dump *d, struct native_sect *ns)
{
	uint64_t srcs[] = { d->off_msgbuf, d->off_avail, d->off_bitmap,
	    d->off_pmap };
	unsigned ids[] = { DK_H_MSGBUFSIZE, DK_H_DUMPAVAILSIZE,
	    DK_H_BITMAPSIZE, DK_H_PMAPSIZE };
	uint64_t off = d->page_size;
	size_t n = 0;

	ns[n++] = (struct native_sect){ d->off_header, d->page_size, 0 };
	for (size_t i = 0; i < 4; i++) {
		if (ids[i] == DK_H_DUMPAVAILSIZE &&
		    !DK_H_HAS(&d->hdr, DK_H_DUMPAVAILSIZE))
			continue;
		ns[n++] = (struct native_sect){ srcs[i], d->hdr.v[ids[i]],
		    off };
		off += align_up(d->hdr.v[ids[i]], d->page_size);
	}
	ns[n++] = (struct native_sect){ d->off_pages, 0, off };	/* pages */
	return n;
}

/* Residue of a native source: non-zero padding, a partial last page. */
static enum dk_status
native_residue(struct dk_dump *d, struct plan *pl, struct dk_err *err)
{
	struct native_sect ns[6];
	size_t n = native_layout(d, ns);
	uint8_t buf[65536];
	uint64_t end;
	enum dk_status st;

	for (size_t i = 1; i + 1 < n; i++) {
		uint64_t a = ns[i].off + ns[i].size;
		uint64_t b = ns[i].off + align_up(ns[i].size, d->page_size);

		if (b == a)
			continue;
		if ((st = dk_src_pread(&d->src, buf, (size_t)(b - a), a,
		    "section padding", err)) != DK_OK)
			return st;
		for (size_t k = 0; k < b - a; k++)
			if (buf[k] != 0) {
				st = add_residue(pl, a, b - a, a, err);
				if (st != DK_OK)
					return st;
				break;
			}
	}
	end = d->off_pages + pl->present;
	if (d->src.size > end)
		return add_residue(pl, end, d->src.size - end, end, err);
	return DK_OK;
}

/* Residue of a portable source: the records of its residue note. */
static enum dk_status
note_residue(struct dk_dump *d, struct plan *pl, struct dk_err *err)
{
	uint64_t off = d->off_residue, end = off + d->residue_size, prev = 0;
	struct native_sect ns[6];
	uint64_t nend;
	enum dk_status st;

	/*
	 * Where the rebuilt native file's pages end: a record lies before
	 * (section padding, the pages) or starts exactly there (a partial
	 * page, trailing bytes).  One further out would have the rebuild
	 * write zeros up to it: terabytes, for one flipped bit.
	 */
	nend = ns[native_layout(d, ns) - 1].off + pl->present;

	while (off < end) {
		uint8_t h[16];
		uint64_t roff, rlen;

		if (end - off < 16 || (st = dk_src_pread(&d->src, h, 16, off,
		    "residue record", err)) != DK_OK)
			return dk_err_at(err, DK_ECORRUPT, d->src.name, off,
			    "a residue record needs 16 bytes, the note has "
			    "%ju left", (uintmax_t)(end - off));
		roff = dec_uint(h, 8, d->arch->endian);
		rlen = dec_uint(h + 8, 8, d->arch->endian);
		if (rlen == 0 || rlen > end - off - 16 || roff < prev)
			return dk_err_at(err, DK_ECORRUPT, d->src.name, off,
			    "residue record [%#jx, +%#jx) is empty, overlaps "
			    "the previous one or extends past the note",
			    (uintmax_t)roff, (uintmax_t)rlen);
		if (roff > nend || (roff != nend && rlen > nend - roff))
			return dk_err_at(err, DK_ECORRUPT, d->src.name, off,
			    "residue record [%#jx, +%#jx) is past the end of "
			    "the native file's pages at %#jx and does not "
			    "start there", (uintmax_t)roff, (uintmax_t)rlen,
			    (uintmax_t)nend);
		if ((st = add_residue(pl, roff, rlen, off + 16, err)) != DK_OK)
			return st;
		prev = roff + rlen;
		off += 16 + align_up(rlen, 8);
	}
	return DK_OK;
}

static enum dk_status load_phdrs(struct dk_dump *, struct plan *,
		    struct dk_sink *, int, struct dk_err *);

static enum dk_status
make_plan(struct dk_dump *d, unsigned flags, struct plan *pl,
    struct dk_err *err)
{
	struct dk_kmap_iter kit = { 0, 0, 0 };
	struct dk_kmap_run kr;
	uint64_t notes = 0, cap = 0;
	enum dk_status st;

	memset(pl, 0, sizeof(*pl));
	pl->flags = flags;
	if ((pl->kind = kind_of(d)) == NULL)
		return dk_err_set(err, DK_EUNSUP, "%s: a %s dump does not "
		    "convert to the portable format yet", d->src.name,
		    d->info.format != NULL ? d->info.format : "?");
	pl->p.source = pl->kind->name;
	pl->present = pl->kind->present(d);
	if ((pl->keep = dk_elfcore_keep(d, &pl->ext_size)) == NULL &&
	    (flags & DK_ELFMINI_DROP_ZERO)) {
		if (pl->kind->id != SOURCE_ELFCORE)
			return dk_err_set(err, DK_EUNSUP, "%s: --drop-zero "
			    "leaves out the zero pages of a full ELF core; a "
			    "%s's pages are kept as its own format stores them",
			    d->src.name, pl->kind->name);
		if ((st = scan_zero(d, pl, err)) != DK_OK)
			return st;
	}
	if ((st = load_phdrs(d, pl, NULL, 0, err)) != DK_OK)
		return st;
	while (!(flags & DK_ELFMINI_NO_VIRTUAL) &&
	    dk_kmap_next(d, &kit, &kr, err)) {
		if (pl->nkmap == cap) {
			struct dk_kmap_run *n;

			cap = cap ? 2 * cap : 256;
			n = realloc(pl->virt, cap * sizeof(*n));
			if (n == NULL)
				return dk_err_set(err, DK_ENOMEM, "out of "
				    "memory");
			pl->virt = n;
		}
		pl->virt[pl->nkmap++] = kr;
	}
	if (err->code != DK_OK)
		return err->code;
	if ((st = load_phdrs(d, pl, NULL, 1, err)) != DK_OK)
		return st;
	if (pl->kind->residue != NULL &&
	    (st = pl->kind->residue(d, pl, err)) != DK_OK)
		return st;

	/* Notes: info, then the source kind's, then the residue. */
	notes += dk_note_size(NOTE_NAMESZ, INFO_SIZE);
	notes += pl->kind->notes_size(d, pl);
	if (pl->nres > 0) {
		uint64_t sz = 0;

		for (size_t i = 0; i < pl->nres; i++)
			sz += 16 + align_up(pl->res[i].len, 8);
		notes += dk_note_size(NOTE_NAMESZ, sz);
	}
	if (dk_kdh_raw(d) != NULL)
		notes += dk_note_size(NOTE_NAMESZ, DK_KDH_SIZE);
	pl->nph = 1 + pl->p.nphys + pl->p.nvirt;
	pl->p.notes_size = notes;
	pl->notes_off = EHDR_SIZE + pl->nph * PHDR_SIZE;
	if (dk_elf_xnum_needed(pl->nph)) {
		pl->shoff = pl->notes_off;
		pl->notes_off += SHDR_SIZE;
	}
	pl->notes_off = align_up(pl->notes_off, 8);
	pl->p.data_offset = align_up(pl->notes_off + notes, d->page_size);
	pl->p.file_size = pl->p.data_offset + pl->present;
	return DK_OK;
}

enum dk_status
dk_elfmini_plan(struct dk_dump *d, unsigned flags, struct dk_elfmini_plan *p,
    struct dk_err *err)
{
	struct plan pl;
	enum dk_status st;

	dk_err_clear(err);
	st = make_plan(d, flags, &pl, err);
	*p = pl.p;
	plan_free(&pl);
	return st;
}

/* ---------------------------------------------------------------------- */
/* Writing the portable file.                                              */

static enum dk_status
put_phdr(struct dk_sink *s, enum dk_endian e, uint32_t type, uint32_t flags,
    uint64_t off, uint64_t vaddr, uint64_t paddr, uint64_t size,
    uint64_t memsz, uint64_t align, struct dk_err *err)
{
	const struct dk_phdr p = { type, flags, off, vaddr, paddr, size, memsz,
	    align };
	uint8_t ph[DK_ELF_MAXSZ];

	dk_phdr_encode(ph, EM_CLASS, e, &p);
	return dk_sink_write(s, ph, PHDR_SIZE, err);
}

static enum dk_status
put_note_head(struct dk_sink *s, enum dk_endian e, uint32_t type,
    uint64_t descsz, struct dk_err *err)
{
	uint8_t nh[DK_NHDR_SIZE + NOTE_NAMESZ];

	return dk_sink_write(s, nh, dk_note_head(nh, e, NT_DK_BASE + type,
	    NOTE_NAME, NOTE_NAMESZ, descsz), err);
}

/* A note whose descriptor is [off, off + len) of d's file. */
static enum dk_status
copy_note(struct dk_sink *s, struct dk_dump *d, uint32_t type, uint64_t off,
    uint64_t len, struct dk_err *err)
{
	enum dk_status st;

	if ((st = put_note_head(s, d->arch->endian, type, len, err)) != DK_OK ||
	    (st = dk_sink_copy(s, &d->src, off, len, err)) != DK_OK)
		return st;
	return dk_sink_zero(s, align_up(len, DK_NOTE_ALIGN) - len, err);
}

static uint64_t
dmap_va(const struct dk_dump *d, uint64_t pa)
{
	const struct dk_window *w = dk_dmap(d);

	if (w != NULL && pa >= w->pa && pa - w->pa < w->end - w->va)
		return w->va + (pa - w->pa);
	return 0;
}

/*
 * p_vaddr of a physical segment at pa: its direct-map address; in a full
 * ELF core's conversion, pa itself, as the core's own program headers
 * have it (so gdb reads physical memory by the same addresses in both).
 */
static uint64_t seg_vaddr(const struct dk_dump *, uint64_t);

static uint64_t
phys_vaddr(const struct dk_dump *d, uint64_t pa)
{
	if (d->fmt == &dk_fmt_elf && d->elf != NULL)
		return pa;
	return seg_vaddr(d, dmap_va(d, pa));
}

/*
 * A kernel virtual address as p_vaddr: the address itself, except for
 * the 32-bit MIPS ABIs (o32, n32), whose addresses are 64-bit addresses
 * with bit 31 copied upwards (KSEG2 0xc0000000 is 0xffffffffc0000000 to
 * a MIPS64 CPU, to BFD, which sign-extends MIPS VMAs, and so to gdb).
 */
static uint64_t
seg_vaddr(const struct dk_dump *d, uint64_t va)
{
	if (d->arch->elf_machine == EM_MIPS &&
	    d->arch->elf_class == ELFCLASS32 && va != 0)
		return (uint64_t)(int64_t)(int32_t)(uint32_t)va;
	return va;
}

/*
 * The info record's kernel_displacement: powerpc64's startkernel minus
 * the kernel's link address 0x100100 (the header field the family
 * relocates addresses below dmapbase with), else what the source said.
 */
#define	PPC64_LINK_KERNBASE	0x100100ull

static uint64_t
kernel_displacement(const struct dk_dump *d)
{
	if DK_H_HAS(&d->hdr, DK_H_STARTKERNEL)
		return d->hdr.v[DK_H_STARTKERNEL] - PPC64_LINK_KERNBASE;
	return (uint64_t)d->kerndisp;
}

/*
 * The physical (virt 0) or virtual PT_LOADs: one per piece of stored
 * pages, a piece of zeros left out becoming the tail of the segment
 * before it (p_memsz past p_filesz, which ELF readers read as zeros) or
 * a segment of its own with p_filesz 0.  With s NULL, only count them
 * into the plan.
 */
static enum dk_status
load_phdrs(struct dk_dump *d, struct plan *pl, struct dk_sink *s, int virt,
    struct dk_err *err)
{
	struct piece_iter pi;
	struct piece p, cur;
	uint64_t fsz = 0, n = 0, next_off = pl->p.data_offset;
	int have = 0;
	enum dk_status st = DK_OK;

	memset(&pi, 0, sizeof(pi));
	memset(&cur, 0, sizeof(cur));
	pi.virt = virt;
	for (;;) {
		int more = piece_next(d, pl, &pi, &p);

		if (have && more && p.off == DK_OFF_ZERO &&
		    p.addr == cur.addr + cur.len && p.prot == cur.prot) {
			cur.len += p.len;	/* zeros: the segment's tail */
			continue;
		}
		if (have) {
			n++;
			if (s != NULL && !virt)
				st = put_phdr(s, d->arch->endian, PT_LOAD,
				    PF_R | PF_W | PF_X, cur.off, phys_vaddr(d,
				    cur.addr), cur.addr, fsz, cur.len,
				    d->page_size, err);
			else if (s != NULL)
				st = put_phdr(s, d->arch->endian, PT_LOAD,
				    PF_R | ((cur.prot & DK_PROT_W) ? PF_W : 0) |
				    ((cur.prot & DK_PROT_X) ? PF_X : 0),
				    cur.off, seg_vaddr(d, cur.addr), cur.pa,
				    fsz, cur.len, d->page_size, err);
			if (st != DK_OK)
				return st;
		}
		if (!more)
			break;
		cur = p;
		have = 1;
		fsz = p.off == DK_OFF_ZERO ? 0 : p.len;
		if (p.off == DK_OFF_ZERO)
			cur.off = next_off;
		else
			next_off = p.off + p.len;
	}
	if (s == NULL && !virt)
		pl->p.nphys = n;
	else if (s == NULL)
		pl->p.nvirt = n;
	return DK_OK;
}

static enum dk_status
write_elfmini(struct dk_dump *d, struct dk_sink *s, struct plan *pl,
    struct dk_err *err)
{
	enum dk_endian e = d->arch->endian;
	uint8_t eh[DK_ELF_MAXSZ], info[INFO_SIZE] = { 0 };
	uint64_t data = pl->p.data_offset;
	struct dk_ehdr hdr;
	struct dk_shdr sh0;
	uint32_t flags;
	int xnum;
	enum dk_status st;

	/* ELF header; past PN_XNUM - 1 program headers, section 0 counts. */
	memset(&hdr, 0, sizeof(hdr));
	dk_elf_ident(hdr.ident, EM_CLASS, e, ELFOSABI_NONE);
	hdr.type = ET_CORE;
	hdr.machine = d->arch->elf_machine;
	hdr.version = EV_CURRENT;
	hdr.phoff = EHDR_SIZE;
	hdr.flags = d->arch->elf_flags;
	hdr.ehsize = EHDR_SIZE;
	hdr.phentsize = PHDR_SIZE;
	xnum = dk_elf_xnum_put(&hdr, &sh0, pl->nph, pl->shoff);
	dk_ehdr_encode(eh, EM_CLASS, e, &hdr);
	if ((st = dk_sink_write(s, eh, EHDR_SIZE, err)) != DK_OK)
		return st;

	/* Program headers: the notes, physical runs, the kernel map. */
	st = put_phdr(s, e, PT_NOTE, 0, pl->notes_off, 0, 0, pl->p.notes_size,
	    pl->p.notes_size, DK_NOTE_ALIGN, err);
	if (st == DK_OK)
		st = load_phdrs(d, pl, s, 0, err);
	if (st == DK_OK)
		st = load_phdrs(d, pl, s, 1, err);
	if (st == DK_OK && xnum) {
		uint8_t sh[DK_ELF_MAXSZ];

		dk_shdr_encode(sh, EM_CLASS, e, &sh0);
		st = dk_sink_write(s, sh, SHDR_SIZE, err);
	}
	if (st == DK_OK)
		st = dk_sink_zero(s, pl->notes_off - s->pos, err);
	if (st != DK_OK)
		return st;

	/* Notes. */
	flags = (dk_dmap(d) != NULL ? FLAG_DMAP : 0) |
	    (pl->flags & DK_ELFMINI_NO_VIRTUAL ? 0 : FLAG_VIRTUAL) |
	    (d->info.npages_present < d->info.npages ? FLAG_TRUNCATED : 0) |
	    (pl->keep != NULL ? FLAG_DROPPED : 0);
	enc_uint(info, 4, e, INFO_VERSION);
	enc_uint(info + 4, 4, e, pl->kind->id);
	enc_uint(info + 8, 4, e, d->info.version);
	enc_uint(info + 12, 4, e, d->page_size);
	memcpy(info + 16, d->arch->name, strnlen(d->arch->name, 16));
	enc_uint(info + 32, 4, e, d->arch->abi);
	enc_uint(info + 36, 4, e, flags);
	enc_uint(info + 40, 8, e, d->info.kernbase);
	enc_uint(info + 48, 8, e, d->info.kva_end);
	enc_uint(info + 56, 8, e, dk_dmap(d) != NULL ? dk_dmap(d)->va : 0);
	enc_uint(info + 64, 8, e, dk_dmap(d) != NULL ? dk_dmap(d)->end : 0);
	enc_uint(info + 72, 8, e, dk_dmap(d) != NULL ? dk_dmap(d)->pa : 0);
	enc_uint(info + 80, 8, e, kernel_displacement(d));
	enc_uint(info + 88, 8, e, data);
	enc_uint(info + 96, 8, e, d->info.npages);
	enc_uint(info + 104, 8, e, d->info.npages_present);
	enc_uint(info + 112, 8, e, pl->p.nphys);
	if ((st = put_note_head(s, e, NT_DK_INFO, INFO_SIZE, err)) != DK_OK ||
	    (st = dk_sink_write(s, info, sizeof(info), err)) != DK_OK)
		return st;
	st = pl->kind->notes(d, pl, s, err);
	if (st == DK_OK && pl->nres > 0) {
		uint64_t sz = 0;

		for (size_t i = 0; i < pl->nres; i++)
			sz += 16 + align_up(pl->res[i].len, 8);
		st = put_note_head(s, e, NT_DK_RESIDUE, sz, err);
		for (size_t i = 0; st == DK_OK && i < pl->nres; i++) {
			uint8_t h[16];

			enc_uint(h, 8, e, pl->res[i].off);
			enc_uint(h + 8, 8, e, pl->res[i].len);
			st = dk_sink_write(s, h, sizeof(h), err);
			if (st == DK_OK)
				st = dk_sink_copy(s, &d->src,
				    pl->res[i].src_off, pl->res[i].len, err);
			if (st == DK_OK)
				st = dk_sink_zero(s, align_up(pl->res[i].len,
				    8) - pl->res[i].len, err);
		}
	}
	/* The kerneldumpheader the source came in, verbatim. */
	if (st == DK_OK && dk_kdh_raw(d) != NULL &&
	    (st = put_note_head(s, e, NT_DK_KDH, DK_KDH_SIZE, err)) == DK_OK)
		st = dk_sink_write(s, dk_kdh_raw(d), DK_KDH_SIZE, err);
	if (st == DK_OK)
		st = dk_sink_zero(s, data - s->pos, err);

	/* The pages, as the source stores them, less those left out. */
	if (st == DK_OK && pl->scan) {
		uint64_t ps = d->page_size, n = pl->own.nbits;

		for (uint64_t i = dk_bitmap_next(&pl->own, 0, 1); st == DK_OK &&
		    i < n; i = dk_bitmap_next(&pl->own, i, 1)) {
			uint64_t j = dk_bitmap_next(&pl->own, i, 0);
			uint64_t end = j * ps < pl->ext_size ? j * ps :
			    pl->ext_size;

			st = dk_sink_copy(s, &d->src, d->off_pages + i * ps,
			    end - i * ps, err);
			i = j;
		}
	} else if (st == DK_OK)
		st = dk_sink_copy(s, &d->src, d->off_pages, pl->present, err);
	if (st == DK_OK)
		st = dk_sink_finish(s, err);
	return st;
}

enum dk_status
dk_elfmini_write(struct dk_dump *d, struct dk_sink *s, unsigned flags,
    struct dk_err *err)
{
	struct plan pl;
	enum dk_status st;

	dk_err_clear(err);
	if ((st = make_plan(d, flags, &pl, err)) == DK_OK)
		st = write_elfmini(d, s, &pl, err);
	plan_free(&pl);
	return st;
}

/* ---------------------------------------------------------------------- */
/* Rebuilding the native dump.                                             */

/*
 * Append len bytes: those of d's file at src (or zeros if src is
 * UINT64_MAX), with the residue records that fall inside written over
 * them.  *ri is the first record not yet written.
 */
static enum dk_status
emit(struct dk_sink *s, struct dk_dump *d, const struct plan *pl, size_t *ri,
    uint64_t src, uint64_t len, struct dk_err *err)
{
	uint64_t end = s->pos + len;
	enum dk_status st;

	while (s->pos < end) {
		const struct residue *r = *ri < pl->nres ? &pl->res[*ri] : NULL;
		uint64_t n;

		if (r != NULL && r->off + r->len <= s->pos) {
			(*ri)++;
			continue;
		}
		if (r != NULL && r->off <= s->pos) {
			/* Inside a record: its bytes win. */
			n = r->off + r->len - s->pos;
			if (n > end - s->pos)
				n = end - s->pos;
			st = dk_sink_copy(s, &d->src, r->src_off + (s->pos -
			    r->off), n, err);
		} else {
			n = end - s->pos;
			if (r != NULL && r->off - s->pos < n)
				n = r->off - s->pos;
			st = src == UINT64_MAX ? dk_sink_zero(s, n, err) :
			    dk_sink_copy(s, &d->src, src + (len - (end -
			    s->pos)), n, err);
		}
		if (st != DK_OK)
			return st;
	}
	return DK_OK;
}

/* The native minidump: its sections, then its pages, residue over them. */
static enum dk_status
rebuild_minidump(struct dk_dump *d, struct dk_sink *s, const struct plan *pl,
    struct dk_err *err)
{
	struct native_sect ns[6];
	size_t n, ri = 0;
	enum dk_status st = DK_OK;

	n = native_layout(d, ns);
	for (size_t i = 0; st == DK_OK && i + 1 < n; i++) {
		uint64_t space = align_up(ns[i].size, d->page_size);

		st = emit(s, d, pl, &ri, ns[i].src, ns[i].size, err);
		if (st == DK_OK)
			st = emit(s, d, pl, &ri, UINT64_MAX, space -
			    ns[i].size, err);
	}
	if (st == DK_OK)
		st = emit(s, d, pl, &ri, d->off_pages, pl->present, err);
	/* Residue past the pages: a partial page, trailing bytes. */
	while (st == DK_OK && ri < pl->nres) {
		const struct residue *r = &pl->res[ri];

		if (r->off + r->len <= s->pos) {
			ri++;
			continue;
		}
		st = emit(s, d, pl, &ri, UINT64_MAX, r->off + r->len - s->pos,
		    err);
	}
	return st;
}

enum dk_status
dk_native_write(struct dk_dump *d, struct dk_sink *s, struct dk_err *err)
{
	struct plan pl;
	enum dk_status st;

	dk_err_clear(err);
	if ((st = make_plan(d, DK_ELFMINI_NO_VIRTUAL, &pl, err)) == DK_OK)
		st = pl.kind->rebuild(d, s, &pl, err);
	if (st == DK_OK)
		st = dk_sink_finish(s, err);
	plan_free(&pl);
	return st;
}

/* ---------------------------------------------------------------------- */
/* The source kinds.                                                       */

/* Minidump: its header page, msgbuf, dump_avail, bitmap and pmap. */
static int
row_minidump(const struct dk_arch *a)
{
	return a->minidump != NULL;
}

static int
is_minidump(const struct dk_dump *d)
{
	return d->md != NULL;
}

static uint64_t
present_minidump(const struct dk_dump *d)
{
	return d->info.npages_present << d->page_shift;
}

static enum dk_status
residue_minidump(struct dk_dump *d, struct plan *pl, struct dk_err *err)
{
	return d->info.format != NULL && strcmp(d->info.format,
	    "portable-elf") == 0 ? note_residue(d, pl, err) :
	    native_residue(d, pl, err);
}

static uint64_t
notes_size_minidump(const struct dk_dump *d, const struct plan *pl)
{
	uint64_t n = 0;

	(void)pl;
	n += dk_note_size(NOTE_NAMESZ, d->page_size);
	n += dk_note_size(NOTE_NAMESZ, d->hdr.v[DK_H_MSGBUFSIZE]);
	if DK_H_HAS(&d->hdr, DK_H_DUMPAVAILSIZE)
		n += dk_note_size(NOTE_NAMESZ, d->hdr.v[DK_H_DUMPAVAILSIZE]);
	n += dk_note_size(NOTE_NAMESZ, d->hdr.v[DK_H_BITMAPSIZE]);
	n += dk_note_size(NOTE_NAMESZ, d->hdr.v[DK_H_PMAPSIZE]);
	return n;
}

static enum dk_status
notes_minidump(struct dk_dump *d, const struct plan *pl, struct dk_sink *s,
    struct dk_err *err)
{
	enum dk_status st;

	(void)pl;
	st = copy_note(s, d, NT_DK_SOURCE_HEADER, d->off_header, d->page_size,
	    err);
	if (st == DK_OK)
		st = copy_note(s, d, NT_DK_MSGBUF, d->off_msgbuf,
		    d->hdr.v[DK_H_MSGBUFSIZE], err);
	if (st == DK_OK && DK_H_HAS(&d->hdr, DK_H_DUMPAVAILSIZE))
		st = copy_note(s, d, NT_DK_DUMP_AVAIL, d->off_avail,
		    d->hdr.v[DK_H_DUMPAVAILSIZE], err);
	if (st == DK_OK)
		st = copy_note(s, d, NT_DK_BITMAP, d->off_bitmap,
		    d->hdr.v[DK_H_BITMAPSIZE], err);
	if (st == DK_OK)
		st = copy_note(s, d, NT_DK_PMAP, d->off_pmap,
		    d->hdr.v[DK_H_PMAPSIZE], err);
	return st;
}

/*
 * sparc64: the header blob (dh_hdr_size bytes: header, descriptors and
 * padding, every byte as the kernel left it, bytes 36..39 included),
 * then the regions' data in the file's order.  The rebuild is the blob
 * and the data back to back, so no residue is ever needed.
 */
static int
row_sparc64(const struct dk_arch *a)
{
	return a->ops == &dk_arch_sparc64;
}

static int
is_sparc64(const struct dk_dump *d)
{
	return d->fmt == &dk_fmt_sparc64 && d->priv != NULL;
}

static uint64_t
present_sparc64(const struct dk_dump *d)
{
	/* d->off_pages is where the regions' data starts in this file. */
	return d->off_pages < d->src.size ? d->src.size - d->off_pages : 0;
}

static uint64_t
notes_size_sparc64(const struct dk_dump *d, const struct plan *pl)
{
	const struct dk_sp64 *s = d->priv;

	(void)pl;
	return dk_note_size(NOTE_NAMESZ, s->hdr_size);
}

static enum dk_status
notes_sparc64(struct dk_dump *d, const struct plan *pl, struct dk_sink *s,
    struct dk_err *err)
{
	const struct dk_sp64 *sp = d->priv;

	(void)pl;
	return copy_note(s, d, NT_DK_SOURCE_HEADER, sp->hdr_off,
	    sp->hdr_size, err);
}

static enum dk_status
rebuild_sparc64(struct dk_dump *d, struct dk_sink *s, const struct plan *pl,
    struct dk_err *err)
{
	const struct dk_sp64 *sp = d->priv;
	enum dk_status st;

	st = dk_sink_copy(s, &d->src, sp->hdr_off, sp->hdr_size, err);
	if (st == DK_OK)
		st = dk_sink_copy(s, &d->src, d->off_pages, pl->present, err);
	return st;
}

/*
 * Full ELF cores (fmt_elf.c, FORMATS.md 4): the source header note is
 * the core's bytes from its ELF header to its first segment (the ELF
 * header, the program headers and the zero gap), and the page data is
 * the rest of the file, verbatim, so that the physical PT_LOADs of the
 * portable file point into it, no residue is ever needed, and the
 * native rebuild is the note then the data.  The program headers in the
 * note are what the reader loads the segments from.
 */
static int
row_elfcore(const struct dk_arch *a)
{
	return a->no_elfcore == NULL;
}

static int
is_elfcore(const struct dk_dump *d)
{
	return d->fmt == &dk_fmt_elf && d->elf != NULL;
}

static enum dk_status
open_elfcore(struct dk_dump *d, const struct em_ctx *c, struct dk_err *err)
{
	const struct em_note *hn = &c->notes[NT_DK_SOURCE_HEADER];
	uint64_t ioff = c->notes[NT_DK_INFO].off, data, stored;
	struct dk_range keep = { 0, 0 };
	enum dk_status st;

	data = dec_uint(c->info + 88, 8, c->e);
	if (!hn->seen)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, c->noff,
		    "expected a source header note (the core's ELF and "
		    "program headers), found none");
	if (data % 4096 != 0 || data > d->src.size)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, ioff + 88,
		    "data_offset %#jx is not a page-aligned offset inside the "
		    "file of %#jx bytes", (uintmax_t)data,
		    (uintmax_t)d->src.size);
	if (c->notes[NT_DK_BITMAP].seen) {
		keep.start = c->notes[NT_DK_BITMAP].off;
		keep.end = keep.start + c->notes[NT_DK_BITMAP].size;
	}
	if ((st = dk_elfcore_load(d, hn->off, hn->size, data,
	    c->notes[NT_DK_BITMAP].seen ? &keep : NULL, err)) != DK_OK)
		return st;
	if (d->arch != c->row)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, ioff + 16,
		    "the info note names %s, the source ELF header %s",
		    c->row->name, d->arch->name);
	stored = dec_uint(c->info + 104, 8, c->e);
	if (dec_uint(c->info + 96, 8, c->e) != d->info.npages ||
	    stored > d->info.npages)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, ioff + 96,
		    "the info note says %ju pages in the segments, %ju "
		    "stored; the program headers say %ju",
		    (uintmax_t)dec_uint(c->info + 96, 8, c->e),
		    (uintmax_t)stored, (uintmax_t)d->info.npages);
	if (d->info.npages_present > stored)
		d->info.npages_present = stored;
	d->nphys = dec_uint(c->info + 112, 8, c->e);
	dk_add_section(d, "elf headers", 0, c->noff, c->noff);
	dk_add_section(d, "notes", c->noff, c->nsize, c->nsize);
	dk_add_section(d, "pages", data, d->src.size - data, d->src.size - data);
	return DK_OK;
}

static uint64_t
present_elfcore(const struct dk_dump *d)
{
	/* A truncated core may end before its first segment. */
	return d->off_pages < d->src.size ? d->src.size - d->off_pages : 0;
}

/* The page-keep note's descriptor: extent size, then 64-bit words. */
static uint64_t
keep_note_size(const struct plan *pl)
{
	return pl->keep == NULL ? 0 : 8 + (pl->keep->nbits + 63) / 64 * 8;
}

static uint64_t
notes_size_elfcore(const struct dk_dump *d, const struct plan *pl)
{
	return dk_note_size(NOTE_NAMESZ, dk_elfcore_header_len(d)) +
	    (pl->keep != NULL ? dk_note_size(NOTE_NAMESZ, keep_note_size(pl)) :
	    0);
}

static enum dk_status
notes_elfcore(struct dk_dump *d, const struct plan *pl, struct dk_sink *s,
    struct dk_err *err)
{
	enum dk_endian e = d->arch->endian;
	uint8_t buf[4096];
	enum dk_status st;

	st = copy_note(s, d, NT_DK_SOURCE_HEADER, d->off_header,
	    dk_elfcore_header_len(d), err);
	if (st != DK_OK || pl->keep == NULL)
		return st;
	if ((st = put_note_head(s, e, NT_DK_BITMAP, keep_note_size(pl),
	    err)) != DK_OK)
		return st;
	enc_uint(buf, 8, e, pl->ext_size);
	if ((st = dk_sink_write(s, buf, 8, err)) != DK_OK)
		return st;
	for (uint64_t done = 0; st == DK_OK && done < keep_note_size(pl) - 8;
	    done += sizeof(buf)) {
		size_t n = keep_note_size(pl) - 8 - done < sizeof(buf) ?
		    (size_t)(keep_note_size(pl) - 8 - done) : sizeof(buf);

		dk_bitmap_store(pl->keep, done, buf, n, 8, e);
		st = dk_sink_write(s, buf, n, err);
	}
	return st;
}

/*
 * The core: its headers, then its data extent, pages left out written
 * back as the zeros they were.
 */
static enum dk_status
rebuild_elfcore(struct dk_dump *d, struct dk_sink *s, const struct plan *pl,
    struct dk_err *err)
{
	uint64_t ps = d->page_size, stored = 0;
	enum dk_status st;

	st = dk_sink_copy(s, &d->src, d->off_header,
	    dk_elfcore_header_len(d), err);
	if (st != DK_OK || pl->keep == NULL)
		return st != DK_OK ? st : dk_sink_copy(s, &d->src,
		    d->off_pages, pl->present, err);
	for (uint64_t i = 0; st == DK_OK && i < pl->keep->nbits; ) {
		int kept = dk_bitmap_test(pl->keep, i);
		uint64_t j = dk_bitmap_next(pl->keep, i, !kept);
		uint64_t len = (j * ps < pl->ext_size ? j * ps :
		    pl->ext_size) - i * ps;

		if (kept) {
			st = dk_sink_copy(s, &d->src, d->off_pages + stored,
			    len, err);
			stored += len;
		} else
			st = dk_sink_zero(s, len, err);
		i = j;
	}
	return st;
}

/*
 * THE list of source kinds a portable file holds; source_format in the
 * info record is the row's id.  To add one (full ELF cores, say): give
 * it the next free id, write its reader (set d up from the notes so that
 * its ops read the file), its notes (sizes and bytes; the info note and
 * the residue note are written for every kind), how much of its file is
 * page data (from d->off_pages; copied verbatim to data_offset, so the
 * physical and virtual PT_LOADs' offsets follow from the runs'), and its
 * rebuild, then add the row here.  Nothing else in this file changes.
 */
static const struct em_kind kinds[] = {
	{ SOURCE_MINIDUMP, "minidump", row_minidump, is_minidump,
	  open_minidump, present_minidump, residue_minidump,
	  notes_size_minidump, notes_minidump, rebuild_minidump },
	{ SOURCE_SPARC64, "sparc64", row_sparc64, is_sparc64, open_sparc64,
	  present_sparc64, NULL, notes_size_sparc64, notes_sparc64,
	  rebuild_sparc64 },
	{ SOURCE_ELFCORE, "full ELF core", row_elfcore, is_elfcore,
	  open_elfcore, present_elfcore, NULL, notes_size_elfcore,
	  notes_elfcore, rebuild_elfcore },
};

static const struct em_kind *
kind_by_id(uint32_t id)
{
	for (size_t i = 0; i < DK_ARRAY_LEN(kinds); i++)
		if (kinds[i].id == id)
			return &kinds[i];
	return NULL;
}

static const struct em_kind *
kind_of(const struct dk_dump *d)
{
	for (size_t i = 0; i < DK_ARRAY_LEN(kinds); i++)
		if (kinds[i].is(d))
			return &kinds[i];
	return NULL;
}
