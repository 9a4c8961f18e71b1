/*
 * fmt_elfmini.c -- the portable ELF minidump (docs/portable-elf-minidump.md),
 * read and written; and the rebuilding of the native dump it came from.
 *
 * The file is an ELFCLASS64 ET_CORE in the source's byte order: program
 * header 0 is a PT_NOTE holding dumpkit's notes (an info record, then the
 * source's metadata verbatim), then one physical PT_LOAD per run of
 * stored pages and one virtual PT_LOAD per run of the kernel map or of
 * an address window (MIPS KSEG0, XKPHYS...; powerpc64's relocated
 * kernel) over the stored pages, by VA.  What
 * the metadata and the page data are is the source format's business:
 * each format module that converts describes itself with a struct
 * dk_portable (portable.h), found through the formats table by the info
 * record's source_format.  A minidump gives its header page, msgbuf,
 * dump_avail, bitmap and page-table area, and its pages one per set bit
 * (fmt_minidump.c); a sparc64 dump its header blob and its regions' data
 * (fmt_sparc64.c); a full ELF core its headers and its data extent
 * (fmt_elf.c); a Linux vmcore its headers and the rest (fmt_vmcore.c); a
 * kdump-compressed file its headers and descriptors, and its pages
 * decoded, which the kind writes itself (dk_portable.data, kdump_port.c).
 * Reading, the source's module takes over the dump (d->fmt becomes it,
 * d->wrap this module); either way a conversion copies the metadata and
 * one extent of page data, and the rebuild is byte for byte.
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
#include "portable.h"

#define	EM_CLASS	ELFCLASS64	/* whatever the source's class */
#define	EHDR_SIZE	dk_elf_size(DK_ELF_EHDR, EM_CLASS)
#define	PHDR_SIZE	dk_elf_size(DK_ELF_PHDR, EM_CLASS)
#define	SHDR_SIZE	dk_elf_size(DK_ELF_SHDR, EM_CLASS)
#define	NOTE_NAME	DK_PNOTE_NAME
#define	NOTE_NAMESZ	DK_PNOTE_NAMESZ
#define	INFO_SIZE	DK_INFO_SIZE
#define	INFO_VERSION	1
#define	MAX_RESIDUE	(64ull << 20)	/* bytes of residue we agree to keep */
#define	MAX_RESIDUE_RECS 65536

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
	    n.type != DK_PNOTE_BASE + DK_PN_INFO)
		return DK_NOMATCH;
	return DK_OK;
}

/* Find dumpkit's notes in [off, off + size). */
static enum dk_status
read_notes(struct dk_dump *d, enum dk_endian e, uint64_t off, uint64_t size,
    struct dk_pnote *notes, struct dk_err *err)
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
		    type <= DK_PNOTE_BASE || type >= DK_PNOTE_BASE + DK_PN_MAX)
			continue;
		type -= DK_PNOTE_BASE;
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
 * The state of a dump read from a portable file (d->wrap_priv), beside
 * the source format's own (d->priv): the residue note, and the
 * kerneldumpheader the source came in.
 */
struct em_file {
	uint64_t		off_residue, residue_size;
	int			has_kdh;
	struct dk_kdh_info	kdh;
	uint8_t			kdh_raw[DK_KDH_SIZE];
};

/* The source format whose dk_portable.id is id, or NULL. */
static const struct dk_portable *
kind_by_id(uint32_t id)
{
	const struct dk_format_ops *f;

	for (size_t i = 0; (f = dk_format_at(i)) != NULL; i++)
		if (f->portable != NULL && f->portable->id == id)
			return f->portable;
	return NULL;
}

/* "1 minidump, 2 sparc64, ...": the source formats, for a message. */
static const char *
kind_names(char *buf, size_t n)
{
	const struct dk_format_ops *f;
	size_t k = 0;

	buf[0] = '\0';
	for (size_t i = 0; (f = dk_format_at(i)) != NULL && k < n; i++)
		if (f->portable != NULL)
			k += (size_t)snprintf(buf + k, n - k, "%s%u %s",
			    k ? ", " : "", f->portable->id, f->portable->name);
	return buf;
}

static void
em_close(struct dk_dump *d)
{
	free(d->wrap_priv);
	d->wrap_priv = NULL;
}

static enum dk_status
em_open(struct dk_dump *d, const struct dk_open_opts *o, struct dk_err *err)
{
	uint8_t eh[DK_ELF_MAXSZ], info[INFO_SIZE];
	struct dk_pnote notes[DK_PN_MAX] = { { 0, 0, 0 } };
	struct dk_ehdr h;
	struct dk_phdr ph;
	const struct dk_portable *kind;
	const struct dk_arch *row;
	struct dk_pctx ctx;
	struct em_file *pf;
	enum dk_endian e;
	uint64_t phoff, noff, nsize;
	char arch[17], names[128];
	enum dk_status st;

	/* This module's state, freed by dk_close whatever happens next. */
	d->wrap = &dk_fmt_elfmini;
	if ((d->wrap_priv = pf = calloc(1, sizeof(*pf))) == NULL)
		return dk_err_set(err, DK_ENOMEM, "%s: out of memory",
		    d->src.name);
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
	if (!notes[DK_PN_INFO].seen || notes[DK_PN_INFO].size < INFO_SIZE)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, noff,
		    "expected a dumpkit info note of at least %d bytes, found "
		    "%ju", INFO_SIZE, (uintmax_t)notes[DK_PN_INFO].size);
	if ((st = dk_src_pread(&d->src, info, sizeof(info),
	    notes[DK_PN_INFO].off, "info note", err)) != DK_OK)
		return st;
	kind = kind_by_id((uint32_t)dec_uint(info + 4, 4, e));
	if (dec_uint(info, 4, e) != INFO_VERSION || kind == NULL)
		return dk_err_at(err, DK_EUNSUP, d->src.name,
		    notes[DK_PN_INFO].off, "expected portable format version "
		    "1 of a source format dumpkit knows (%s), found version "
		    "%ju of source format %ju", kind_names(names,
		    sizeof(names)), (uintmax_t)dec_uint(info, 4, e),
		    (uintmax_t)dec_uint(info + 4, 4, e));
	memcpy(arch, info + 16, 16);
	arch[16] = '\0';
	row = dk_arch_by_name(arch);
	if (row == NULL || strcmp(row->name, arch) != 0 ||
	    row->endian != e || !kind->row_ok(row))
		return dk_err_at(err, DK_ECORRUPT, d->src.name,
		    notes[DK_PN_INFO].off + 16, "the info note names "
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
			    notes[DK_PN_INFO].off + 16, "the info note names "
			    "architecture %s, not %s (%s)", row->name,
			    want->name, o->arch != NULL ? "--arch" : o->kernel);
	}
	ctx = (struct dk_pctx){ e, noff, nsize, notes, info, row };
	if (notes[DK_PN_RESIDUE].seen) {
		pf->off_residue = notes[DK_PN_RESIDUE].off;
		pf->residue_size = notes[DK_PN_RESIDUE].size;
	}
	if (notes[DK_PN_KDH].seen) {
		if ((st = dk_kdh_note_load(d, notes[DK_PN_KDH].off,
		    notes[DK_PN_KDH].size, &pf->kdh, pf->kdh_raw, err)) !=
		    DK_OK)
			return st;
		pf->has_kdh = 1;
	}
	return kind->open(d, &ctx, err);
}

enum dk_status
dk_pdata_offset(const struct dk_dump *d, const struct dk_pctx *c,
    uint64_t *data, struct dk_err *err)
{
	*data = dk_pinfo(c, DK_INFO_DATA_OFFSET, 8);
	if (*data > d->src.size || *data < c->noff + c->nsize)
		return dk_err_at(err, DK_ECORRUPT, d->src.name,
		    c->notes[DK_PN_INFO].off + DK_INFO_DATA_OFFSET,
		    "data_offset %#jx: expected an offset past the notes "
		    "(%#jx) inside the file of %#jx bytes", (uintmax_t)*data,
		    (uintmax_t)(c->noff + c->nsize), (uintmax_t)d->src.size);
	return DK_OK;
}

enum dk_status
dk_popen_done(struct dk_dump *d, const struct dk_pctx *c, uint64_t data,
    const char *arch_by, const char *counts_by, struct dk_err *err)
{
	uint64_t ioff = c->notes[DK_PN_INFO].off;
	uint64_t npages = dk_pinfo(c, DK_INFO_NPAGES, 8);
	uint64_t stored = dk_pinfo(c, DK_INFO_NSTORED, 8);

	d->info.format = "portable-elf";
	if (d->arch != c->row)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, ioff +
		    DK_INFO_ARCH, "the info note names %s, %s %s",
		    c->row->name, arch_by, d->arch->name);
	if (npages != d->info.npages || stored != d->info.npages_present)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, ioff +
		    DK_INFO_NPAGES, "the info note says %ju pages, %ju stored; "
		    "%s say %ju, %ju", (uintmax_t)npages, (uintmax_t)stored,
		    counts_by, (uintmax_t)d->info.npages,
		    (uintmax_t)d->info.npages_present);
	/* The portable file's sections, not the source's. */
	d->nsect = 0;
	dk_add_section(d, "elf headers", 0, c->noff, c->noff);
	dk_add_section(d, "notes", c->noff, c->nsize, c->nsize);
	dk_add_section(d, "pages", data, d->src.size - data,
	    d->src.size - data);
	return DK_OK;
}

/*
 * A portable file is read by its source's module (d->fmt, set by the
 * source's dk_portable.open); this one only opens it and frees its own
 * state (d->wrap).
 */
const struct dk_format_ops dk_fmt_elfmini = {
	.name		= "portable-elf",
	.desc		= "dumpkit portable ELF minidump",
	.probe		= em_probe,
	.open		= em_open,
	.close		= em_close,
	.check		= &dk_em_check,
};

int
dk_is_portable(const struct dk_dump *d)
{
	return d->wrap == &dk_fmt_elfmini;
}

const struct dk_kdh_info *
dk_portable_kdh(const struct dk_dump *d, const uint8_t **raw)
{
	const struct em_file *pf = dk_is_portable(d) ? d->wrap_priv : NULL;

	if (pf == NULL || !pf->has_kdh)
		return NULL;
	if (raw != NULL)
		*raw = pf->kdh_raw;
	return &pf->kdh;
}

/* ---------------------------------------------------------------------- */
/* Planning a conversion.                                                  */

static void
plan_free(struct dk_plan *pl)
{
	free(pl->virt);
	free(pl->res);
	dk_bitmap_free(&pl->own);
}

/*
 * --drop-zero on a full core: one pass over its data extent (the bytes
 * from pl->src_off to the end of the file) marks the pages that are not
 * all zero; the partial last page is always kept.  The bitmap is one
 * bit per page: metadata, 32 MiB per TiB of core.
 */
static enum dk_status
scan_zero(struct dk_dump *d, struct dk_plan *pl, struct dk_err *err)
{
	uint64_t ext = pl->src_off < d->src.size ? d->src.size -
	    pl->src_off : 0, ps = d->page_size;
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

		if ((st = dk_src_pread(&d->src, buf, n, pl->src_off + done,
		    "page data", err)) != DK_OK) {
			free(buf);
			return st;
		}
		for (size_t k = 0; k < n; k += (size_t)ps) {
			size_t len = n - k < ps ? n - k : (size_t)ps;

			if (len < ps || !dk_all_zero(buf + k, len)) {
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
piece_next(struct dk_dump *d, const struct dk_plan *pl, struct piece_iter *pi,
    struct piece *p)
{
	uint64_t pend = pl->src_off + (pl->scan ? pl->ext_size :
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
			if (!(pl->kind->prun_next != NULL ?
			    pl->kind->prun_next(d, &pi->it, &pi->r) :
			    dk_run_next(d, &pi->it, &pi->r)))
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
		    (pi->r.offset + pi->done - pl->src_off);
		pi->done = pi->r.len;
		return 1;
	}
	x = pi->r.offset + pi->done - pl->src_off;
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

enum dk_status
dk_plan_residue(struct dk_plan *pl, uint64_t off, uint64_t len,
    uint64_t src_off, struct dk_err *err)
{
	struct dk_presidue *r;

	if (pl->nres >= MAX_RESIDUE_RECS || pl->p.residue + len > MAX_RESIDUE)
		return dk_err_set(err, DK_ELIMIT, "more than %ju bytes in %d "
		    "records would have to be kept verbatim (non-zero section "
		    "padding or trailing bytes)", (uintmax_t)MAX_RESIDUE,
		    MAX_RESIDUE_RECS);
	r = realloc(pl->res, (pl->nres + 1) * sizeof(*r));
	if (r == NULL)
		return dk_err_set(err, DK_ENOMEM, "out of memory");
	pl->res = r;
	pl->res[pl->nres++] = (struct dk_presidue){ off, len, src_off };
	pl->p.residue += len;
	return DK_OK;
}

/*
 * Residue of a portable source: the records of its residue note.  nend
 * is where the rebuilt native file's pages end: a record lies before
 * (section padding, the pages) or starts exactly there (a partial page,
 * trailing bytes).  One further out would have the rebuild write zeros
 * up to it: terabytes, for one flipped bit.
 */
enum dk_status
dk_plan_note_residue(struct dk_dump *d, struct dk_plan *pl, uint64_t nend,
    struct dk_err *err)
{
	const struct em_file *pf = dk_is_portable(d) ? d->wrap_priv : NULL;
	uint64_t off = pf != NULL ? pf->off_residue : 0;
	uint64_t end = off + (pf != NULL ? pf->residue_size : 0), prev = 0;
	enum dk_status st;

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
		if ((st = dk_plan_residue(pl, roff, rlen, off + 16, err)) !=
		    DK_OK)
			return st;
		prev = roff + rlen;
		off += 16 + align_up(rlen, 8);
	}
	return DK_OK;
}

static enum dk_status load_phdrs(struct dk_dump *, struct dk_plan *,
		    struct dk_sink *, int, struct dk_err *);

/* Append run r to the plan's virtual runs (*cap of them held). */
static enum dk_status
add_virt(struct dk_plan *pl, uint64_t *cap, const struct dk_kmap_run *r,
    struct dk_err *err)
{
	if (pl->nkmap == *cap) {
		struct dk_kmap_run *n;

		*cap = *cap ? 2 * *cap : 256;
		if ((n = realloc(pl->virt, *cap * sizeof(*n))) == NULL)
			return dk_err_set(err, DK_ENOMEM, "out of memory");
		pl->virt = n;
	}
	pl->virt[pl->nkmap++] = *r;
	return DK_OK;
}

static int
virt_cmp(const void *a, const void *b)
{
	const struct dk_kmap_run *x = a, *y = b;

	return x->va < y->va ? -1 : x->va > y->va;
}

/*
 * The address windows that are not the direct map (MIPS KSEG0, KSEG1,
 * XKPHYS, CKSEG0, CKSEG1; powerpc64's kernel relocation), as virtual
 * runs: each window's share of every run of stored pages, at the VA the
 * window gives its PA, sharing the run's page data.  The kernel map the
 * walk lists, [kernbase, kva_end), is left to it.  The physical
 * segments' p_vaddr already say the direct map.  Then every virtual run
 * is sorted by VA (the walk's ascend; the windows are disjoint, of the
 * walk and of each other; MIPS o32 and n32 addresses keep their order
 * sign-extended) and a run that overlaps the one before it is cut to
 * what it adds.
 */
static enum dk_status
window_runs(struct dk_dump *d, struct dk_plan *pl, uint64_t *cap,
    struct dk_err *err)
{
	uint64_t kb = d->info.kernbase, ke = d->info.kva_end;
	size_t n = 0;
	enum dk_status st;

	for (size_t w = 0; w < d->nwin; w++) {
		const struct dk_window *win = &d->win[w];
		uint64_t span = win->end - win->va;
		uint64_t wend = span > UINT64_MAX - win->pa ? UINT64_MAX :
		    win->pa + span;
		struct dk_run_iter it = { 0 };
		struct dk_run r;

		if (win->kind == DK_WIN_DIRECT_MAP || win->end <= win->va)
			continue;
		while (pl->kind->prun_next != NULL ? pl->kind->prun_next(d,
		    &it, &r) : dk_run_next(d, &it, &r)) {
			uint64_t lo = r.pa > win->pa ? r.pa : win->pa;
			uint64_t hi = r.pa + r.len < wend ? r.pa + r.len : wend;
			uint64_t va = win->va + (lo - win->pa), end;
			uint64_t cut[2][2];

			if (r.offset == DK_OFF_ZERO || r.offset == DK_OFF_PAGED ||
			    lo >= hi)
				continue;
			end = va + (hi - lo);
			/* [va, end) less the kernel map: up to two pieces. */
			cut[0][0] = va;
			cut[0][1] = end;
			cut[1][0] = cut[1][1] = 0;
			if (ke > kb && va < ke && end > kb) {
				cut[0][1] = kb > va ? kb : va;
				cut[1][0] = ke;
				cut[1][1] = end > ke ? end : ke;
			}
			for (int k = 0; k < 2; k++) {
				struct dk_kmap_run wr = { cut[k][0], lo +
				    (cut[k][0] - va), cut[k][1] - cut[k][0],
				    r.offset + (lo - r.pa) + (cut[k][0] - va),
				    DK_PROT_W | DK_PROT_X };

				if (wr.len > 0 && (st = add_virt(pl, cap, &wr,
				    err)) != DK_OK)
					return st;
			}
		}
	}
	if (pl->nkmap > 1)	/* qsort's array may not be NULL, even empty */
		qsort(pl->virt, pl->nkmap, sizeof(*pl->virt), virt_cmp);
	for (size_t i = 0; i < pl->nkmap; i++) {
		struct dk_kmap_run r = pl->virt[i];

		if (n > 0) {
			const struct dk_kmap_run *p = &pl->virt[n - 1];
			uint64_t pend = p->va + p->len;

			if (r.va + r.len <= pend)
				continue;
			if (r.va < pend) {
				uint64_t cut = pend - r.va;

				r.va += cut;
				r.len -= cut;
				if (r.pa != UINT64_MAX)
					r.pa += cut;
				if (r.offset != DK_OFF_ZERO)
					r.offset += cut;
			}
		}
		pl->virt[n++] = r;
	}
	pl->nkmap = n;
	return DK_OK;
}

static enum dk_status
make_plan(struct dk_dump *d, unsigned flags, uint64_t extra,
    struct dk_plan *pl, struct dk_err *err)
{
	struct dk_kmap_iter kit = { 0, 0, 0 };
	struct dk_kmap_run kr;
	uint64_t notes = 0, cap = 0;
	enum dk_status st;

	memset(pl, 0, sizeof(*pl));
	pl->flags = flags;
	if ((pl->kind = d->fmt->portable) == NULL)
		return dk_err_set(err, DK_EUNSUP, "%s: a %s dump does not "
		    "convert to the portable format yet", d->src.name,
		    d->info.format != NULL ? d->info.format : "?");
	pl->p.source = pl->kind->name;
	if (pl->kind->convertible != NULL &&
	    (st = pl->kind->convertible(d, err)) != DK_OK)
		return st;
	pl->src_off = pl->kind->extent(d, &pl->present);
	if ((pl->keep = pl->kind->keep != NULL ? pl->kind->keep(d,
	    &pl->ext_size) : NULL) == NULL && (flags & DK_ELFMINI_DROP_ZERO)) {
		if (!pl->kind->drop_zero)
			return dk_err_set(err, DK_EINVAL, "%s: --drop-zero "
			    "leaves out the zero pages of a full ELF core; a "
			    "%s's pages are kept as its own format stores them",
			    d->src.name, pl->kind->name);
		if ((st = scan_zero(d, pl, err)) != DK_OK)
			return st;
	}
	if ((st = load_phdrs(d, pl, NULL, 0, err)) != DK_OK)
		return st;
	while (!(flags & DK_ELFMINI_NO_VIRTUAL) &&
	    dk_kmap_next(d, &kit, &kr, err))
		if ((st = add_virt(pl, &cap, &kr, err)) != DK_OK)
			return st;
	if (err->code != DK_OK)
		return err->code;
	if (!(flags & DK_ELFMINI_NO_VIRTUAL) &&
	    (st = window_runs(d, pl, &cap, err)) != DK_OK)
		return st;
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
	notes += extra;		/* the threads' notes (kthreads.c) */
	pl->nph = 1 + pl->p.nphys + pl->p.nvirt;
	pl->p.notes_size = notes;
	pl->notes_off = EHDR_SIZE + pl->nph * PHDR_SIZE;
	if (dk_elf_xnum_needed(pl->nph)) {
		pl->shoff = pl->notes_off;
		pl->notes_off += SHDR_SIZE;
	}
	pl->notes_off = align_up(pl->notes_off, 8);
	/*
	 * The page data starts on a page: the reads' granule, or the
	 * dump's page size where that is larger (a Linux vmcore's granule
	 * is what its segments' boundaries allow); at the kind's phase in
	 * it, if it has one.
	 */
	{
		uint64_t a = d->info.page_size > d->page_size ?
		    d->info.page_size : d->page_size, x = pl->notes_off + notes;
		uint64_t ph = pl->kind->phase != NULL ? pl->kind->phase(d) %
		    a : 0;

		pl->p.data_offset = align_up(x, a) + ph;
		if (ph != 0 && pl->p.data_offset - a >= x)
			pl->p.data_offset -= a;
	}
	pl->p.file_size = pl->p.data_offset + pl->present;
	return DK_OK;
}

enum dk_status
dk_elfmini_plan(struct dk_dump *d, unsigned flags, struct dk_elfmini_plan *p,
    struct dk_err *err)
{
	return dk_elfmini_plan_notes(d, flags, 0, p, err);
}

enum dk_status
dk_elfmini_plan_notes(struct dk_dump *d, unsigned flags, size_t len,
    struct dk_elfmini_plan *p, struct dk_err *err)
{
	struct dk_plan pl;
	enum dk_status st;

	dk_err_clear(err);
	st = make_plan(d, flags, len, &pl, err);
	*p = pl.p;
	plan_free(&pl);
	return st;
}

enum dk_status
dk_elfmini_virt(struct dk_dump *d, struct dk_kmap_run **runs, size_t *n,
    struct dk_err *err)
{
	struct dk_plan pl;
	enum dk_status st;

	*runs = NULL;
	*n = 0;
	dk_err_clear(err);
	if ((st = make_plan(d, 0, 0, &pl, err)) == DK_OK) {
		*runs = pl.virt;
		*n = pl.nkmap;
		pl.virt = NULL;
	}
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

uint64_t
dk_pnote_size(uint64_t descsz)
{
	return dk_note_size(NOTE_NAMESZ, descsz);
}

enum dk_status
dk_pnote_head(struct dk_sink *s, enum dk_endian e, uint32_t type,
    uint64_t descsz, struct dk_err *err)
{
	uint8_t nh[DK_NHDR_SIZE + NOTE_NAMESZ];

	return dk_sink_write(s, nh, dk_note_head(nh, e, DK_PNOTE_BASE + type,
	    NOTE_NAME, NOTE_NAMESZ, descsz), err);
}

enum dk_status
dk_pnote_copy(struct dk_sink *s, struct dk_dump *d, uint32_t type,
    uint64_t off, uint64_t len, struct dk_err *err)
{
	enum dk_status st;

	if ((st = dk_pnote_head(s, d->arch->endian, type, len, err)) != DK_OK ||
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
phys_vaddr(const struct dk_dump *d, const struct dk_plan *pl, uint64_t pa)
{
	if (pl->kind->vaddr_is_pa)
		return pa;
	if (pl->kind->pvaddr != NULL)
		return pl->kind->pvaddr(d, pa);
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
 * The physical (virt 0) or virtual PT_LOADs: one per piece of stored
 * pages, a piece of zeros left out becoming the tail of the segment
 * before it (p_memsz past p_filesz, which ELF readers read as zeros) or
 * a segment of its own with p_filesz 0.  With s NULL, only count them
 * into the plan.
 */
static enum dk_status
load_phdrs(struct dk_dump *d, struct dk_plan *pl, struct dk_sink *s, int virt,
    struct dk_err *err)
{
	struct piece_iter pi;
	struct piece p, cur;
	uint64_t fsz = 0, n = 0, next_off = pl->p.data_offset;
	uint64_t align = pl->kind->align_zero ? 0 : d->page_size;
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
				    pl, cur.addr), cur.addr, fsz, cur.len,
				    align, err);
			else if (s != NULL)
				st = put_phdr(s, d->arch->endian, PT_LOAD,
				    dk_pflags(cur.prot), cur.off, seg_vaddr(d,
				    cur.addr), cur.pa, fsz, cur.len, align, err);
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
write_elfmini(struct dk_dump *d, struct dk_sink *s, struct dk_plan *pl,
    const void *extra, size_t nextra, struct dk_err *err)
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
	flags = (dk_dmap(d) != NULL ? DK_PFLAG_DMAP : 0) |
	    (pl->flags & DK_ELFMINI_NO_VIRTUAL ? 0 : DK_PFLAG_VIRTUAL) |
	    (d->info.npages_present < d->info.npages ? DK_PFLAG_TRUNCATED : 0) |
	    (pl->keep != NULL ? DK_PFLAG_DROPPED : 0);
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
	enc_uint(info + 80, 8, e, pl->kind->kdisp != NULL ?
	    pl->kind->kdisp(d) : 0);
	enc_uint(info + 88, 8, e, data);
	enc_uint(info + 96, 8, e, d->info.npages);
	enc_uint(info + 104, 8, e, d->info.npages_present);
	enc_uint(info + 112, 8, e, pl->p.nphys);
	if ((st = dk_pnote_head(s, e, DK_PN_INFO, INFO_SIZE, err)) != DK_OK ||
	    (st = dk_sink_write(s, info, sizeof(info), err)) != DK_OK)
		return st;
	st = pl->kind->notes(d, pl, s, err);
	if (st == DK_OK && pl->nres > 0) {
		uint64_t sz = 0;

		for (size_t i = 0; i < pl->nres; i++)
			sz += 16 + align_up(pl->res[i].len, 8);
		st = dk_pnote_head(s, e, DK_PN_RESIDUE, sz, err);
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
	    (st = dk_pnote_head(s, e, DK_PN_KDH, DK_KDH_SIZE, err)) == DK_OK)
		st = dk_sink_write(s, dk_kdh_raw(d), DK_KDH_SIZE, err);
	/* Notes of other owners, whole (NT_PRSTATUS...), last. */
	if (st == DK_OK && nextra > 0)
		st = dk_sink_write(s, extra, nextra, err);
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

			st = dk_sink_copy(s, &d->src, pl->src_off + i * ps,
			    end - i * ps, err);
			i = j;
		}
	} else if (st == DK_OK && pl->kind->data != NULL)
		st = pl->kind->data(d, pl, s, err);
	else if (st == DK_OK)
		st = dk_sink_copy(s, &d->src, pl->src_off, pl->present, err);
	if (st == DK_OK)
		st = dk_sink_finish(s, err);
	return st;
}

enum dk_status
dk_elfmini_write_notes(struct dk_dump *d, struct dk_sink *s, unsigned flags,
    const void *notes, size_t len, struct dk_err *err)
{
	struct dk_plan pl;
	enum dk_status st;

	dk_err_clear(err);
	if ((st = make_plan(d, flags, len, &pl, err)) == DK_OK)
		st = write_elfmini(d, s, &pl, notes, len, err);
	plan_free(&pl);
	return st;
}

enum dk_status
dk_elfmini_write(struct dk_dump *d, struct dk_sink *s, unsigned flags,
    struct dk_err *err)
{
	return dk_elfmini_write_notes(d, s, flags, NULL, 0, err);
}

/* ---------------------------------------------------------------------- */
/* Rebuilding the native dump.                                             */

enum dk_status
dk_plan_emit(struct dk_sink *s, struct dk_dump *d, const struct dk_plan *pl,
    size_t *ri, uint64_t src, uint64_t len, struct dk_err *err)
{
	return dk_plan_emit_from(s, &d->src, d, pl, ri, src, len, err);
}

enum dk_status
dk_plan_emit_from(struct dk_sink *s, const struct dk_src *from,
    struct dk_dump *d, const struct dk_plan *pl, size_t *ri, uint64_t src,
    uint64_t len, struct dk_err *err)
{
	uint64_t end = s->pos + len;
	enum dk_status st;

	while (s->pos < end) {
		const struct dk_presidue *r = *ri < pl->nres ? &pl->res[*ri] :
		    NULL;
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
			    dk_sink_copy(s, from, src + (len - (end -
			    s->pos)), n, err);
		}
		if (st != DK_OK)
			return st;
	}
	return DK_OK;
}

enum dk_status
dk_native_write(struct dk_dump *d, struct dk_sink *s, struct dk_err *err)
{
	struct dk_plan pl;
	enum dk_status st;

	dk_err_clear(err);
	if ((st = make_plan(d, DK_ELFMINI_NO_VIRTUAL, 0, &pl, err)) == DK_OK)
		st = pl.kind->rebuild(d, s, &pl, err);
	if (st == DK_OK)
		st = dk_sink_finish(s, err);
	plan_free(&pl);
	return st;
}

