/*
 * fmt_elf.c -- FreeBSD full ELF cores (debug.minidump=0, and 32-bit
 * powerpc), FORMATS.md 4.
 *
 * dumpsys_generic writes an ET_CORE of the kernel's class, byte order and
 * e_machine with EI_OSABI = ELFOSABI_STANDALONE (255), no sections and no
 * PT_NOTE: one PT_LOAD per physical memory chunk (p_paddr = the chunk's
 * PA), back to back from round_page(e_phoff + e_phnum * e_phentsize);
 * arm adds a PT_DUMP_DELTA program header (p_vaddr = KERNVIRTADDR,
 * p_paddr = its PA); powerpc "virtual" cores instead give each PT_LOAD
 * the kernel VA in p_vaddr and all-ones in p_paddr.
 *
 * The ELF header and program headers are decoded with the library's ELF
 * layer (elf.c, dkelf.h), not with libelf: the reader must work on a
 * file descriptor read with pread and on bytes in memory (dk_open_mem,
 * the fuzzer) alike, libelf's elf_memory would need a whole big dump in
 * memory, and its elf_begin on a descriptor buys nothing for two
 * fixed-layout tables.  The kernel image's symbols (kernel.c) are read
 * with libelf.
 *
 * Physical reads go through the physical PT_LOADs (sorted by p_paddr;
 * overlapping ones are refused).  The segments are also the library's
 * page model: dump_avail is the list of segments, and every page of each
 * is stored, so dk_phys_range, dk_run_next and npages answer as for a
 * minidump.  Kernel virtual reads walk the hardware page tables found in
 * the dumped memory from the kernel's symbols (--kernel), as libkvm
 * does, or, in a virtual core, go through the virtual PT_LOADs.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "dkelf.h"
#include "portable.h"
#include "private.h"

#define	ELFC_PAGE_SHIFT		12		/* every full-core arch */
#define	ELFC_PT_DUMP_DELTA	0x6fb5d000u	/* arm aux header */
#define	ELFC_MAX_PHNUM		65534u		/* PN_XNUM not handled */

struct elfc_seg {
	uint64_t	addr;		/* p_paddr, or p_vaddr if virtual */
	uint64_t	filesz;
	uint64_t	memsz;
	uint64_t	off;		/* p_offset */
	uint64_t	phoff;		/* where its program header is */
};

struct dk_elfcore {
	int		 is64;
	uint64_t	 hoff;		/* where the ELF header is */
	uint64_t	 first;		/* where the first segment's data is */
	struct elfc_seg	*phys;		/* sorted by addr */
	size_t		 nphys;
	struct elfc_seg	*virt;		/* sorted by addr */
	size_t		 nvirt;
	const struct dk_pt_walk *walk;	/* the module's; NULL: none */
	uint64_t	 root;		/* PA of the top page-table level */
	int		 have_delta;
	uint64_t	 delta_va, delta_pa;
	uint64_t	 hdr_len;	/* ELF header to the first segment */
	/*
	 * A portable file written with --drop-zero: bit i of keep is set if
	 * page i of the core's data extent (its bytes from the first
	 * segment to the end of the core) is stored, clear if it was all
	 * zero and left out.  Segment offsets stay in extent terms (data
	 * plus the position in the extent); ext_off() maps them to the
	 * file.  dropped == 0: every page is stored, offsets are the file's.
	 */
	int		 dropped;
	struct dk_bitmap keep;
	uint64_t	 data;		/* where the stored pages start */
	uint64_t	 ext_size;	/* bytes in the core's data extent */
};

/* The core's state: d->priv of a full ELF core. */
static struct dk_elfcore *
elfc(const struct dk_dump *d)
{
	return d->priv;
}

/* The file offset of extent position pos (>= c->data), or DK_OFF_ZERO. */
static uint64_t
ext_off(const struct dk_elfcore *c, uint64_t pos)
{
	uint64_t x = pos - c->data, i = x >> ELFC_PAGE_SHIFT;

	if (!c->dropped)
		return pos;
	if (!dk_bitmap_test(&c->keep, i))
		return DK_OFF_ZERO;
	return c->data + (dk_bitmap_rank(&c->keep, i) << ELFC_PAGE_SHIFT) +
	    (x & ((1u << ELFC_PAGE_SHIFT) - 1));
}

static enum dk_status
elfc_probe(const struct dk_src *src, struct dk_err *err)
{
	uint8_t eh[18];
	enum dk_endian e;

	if (src->size < sizeof(eh))
		return DK_NOMATCH;
	if (dk_src_pread(src, eh, sizeof(eh), 0, "ELF header", err) != DK_OK)
		return err->code;
	if (!dk_elf_magic(eh) || eh[EI_OSABI] != ELFOSABI_STANDALONE ||
	    (eh[EI_DATA] != ELFDATA2LSB && eh[EI_DATA] != ELFDATA2MSB))
		return DK_NOMATCH;
	e = dk_elf_endian(eh);
	if (dk_elf_get(eh, DK_E_TYPE, eh[EI_CLASS], e) != ET_CORE)
		return DK_NOMATCH;
	return DK_OK;
}

static int
seg_cmp(const void *a, const void *b)
{
	const struct elfc_seg *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Sort and refuse overlaps: an address must have one place in the file. */
static enum dk_status
sort_segs(struct dk_dump *d, struct elfc_seg *s, size_t n, const char *kind,
    struct dk_err *err)
{
	qsort(s, n, sizeof(*s), seg_cmp);
	for (size_t i = 1; i < n; i++)
		if (s[i].addr - s[i - 1].addr < s[i - 1].memsz)
			return dk_err_at(err, DK_ECORRUPT, d->src.name,
			    s[i].phoff, "the PT_LOAD at %s address %#jx "
			    "overlaps the one at offset %#jx, [%#jx, %#jx)",
			    kind, (uintmax_t)s[i].addr,
			    (uintmax_t)s[i - 1].phoff,
			    (uintmax_t)s[i - 1].addr,
			    (uintmax_t)(s[i - 1].addr + s[i - 1].memsz));
	return DK_OK;
}

/*
 * The library's page model: dump_avail is the physical segments, and
 * the pages of each are numbered on from the previous one's, as a
 * minidump's bits are.  No bitmap is built: every page of a segment is
 * stored, and a segment may declare far more memory than a truncated
 * file holds.
 */
static enum dk_status
page_model(struct dk_dump *d, struct dk_err *err)
{
	struct dk_elfcore *c = d->priv;

	d->navail = c->nphys;
	d->avail = calloc(c->nphys ? c->nphys : 1, sizeof(*d->avail));
	if (d->avail == NULL)
		return dk_err_set(err, DK_ENOMEM, "%s: out of memory",
		    d->src.name);
	for (size_t i = 0; i < c->nphys; i++) {
		const struct elfc_seg *s = &c->phys[i];

		d->avail[i] = (struct dk_range){ s->addr, s->addr + s->filesz };
	}
	return DK_OK;
}

/* Count stored pages, and those the file holds whole. */
static void
count_pages(struct dk_dump *d, const struct elfc_seg *s, size_t n,
    uint64_t size)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t pages = (s[i].filesz + d->page_size - 1) >>
		    d->page_shift;
		uint64_t have = 0;

		if (s[i].off < size)
			have = (size - s[i].off < s[i].filesz ?
			    size - s[i].off : s[i].filesz) >> d->page_shift;
		if (have == pages - 1 && s[i].filesz % d->page_size != 0 &&
		    s[i].off + s[i].filesz <= size)
			have = pages;
		d->info.npages += pages;
		d->info.npages_present += have;
	}
}

/* Read a kernel variable of size bytes at physical address pa. */
static enum dk_status
read_var(struct dk_dump *d, const char *name, uint64_t pa, unsigned size,
    uint64_t *v, struct dk_err *err)
{
	uint8_t b[8];
	enum dk_status st;

	if ((st = dk_read_pa(d, pa, b, size, err)) != DK_OK)
		return dk_err_prefix(err, "%s: reading the kernel variable %s "
		    "at physical address %#jx", d->src.name, name,
		    (uintmax_t)pa);
	*v = dec_uint(b, size, d->arch->endian);
	return DK_OK;
}

/* The kernel symbols find_root looks up, by index in its s[]. */
enum { S_KERNBASE, S_KPML4, S_PTD, S_PDPT, S_L1PA, S_PHYSADDR, S_N };

/*
 * The root of each module's walk, from the kernel's symbols as libkvm
 * finds it: a variable's PA is its address less kernbase (amd64, i386:
 * the kernel is loaded at KERNBASE's PA 0), or less kernbase plus
 * physaddr (arm, where PT_DUMP_DELTA gives both when present).  Each
 * sets c->root and c->walk, or *need to the symbols that are missing.
 */
static enum dk_status
root_amd64(struct dk_dump *d, const struct dk_ksym *s, const char **need,
    struct dk_err *err)
{
	struct dk_elfcore *c = d->priv;
	uint64_t kb = s[S_KERNBASE].value;
	enum dk_status st;

	if (!s[S_KERNBASE].found || !s[S_KPML4].found) {
		*need = "kernbase and KPML4phys";
		return DK_OK;
	}
	if ((st = read_var(d, "KPML4phys", s[S_KPML4].value - kb, 8,
	    &c->root, err)) != DK_OK)
		return st;
	c->walk = dk_arch_walk(&dk_arch_amd64, "amd64 4-level");
	return DK_OK;
}

static enum dk_status
root_i386(struct dk_dump *d, const struct dk_ksym *s, const char **need,
    struct dk_err *err)
{
	struct dk_elfcore *c = d->priv;
	uint64_t kb = s[S_KERNBASE].value;
	int pae = s[S_PDPT].found;
	unsigned k = pae ? S_PDPT : S_PTD;
	enum dk_status st;

	if (!s[S_KERNBASE].found || !s[k].found) {
		*need = "kernbase and IdlePDPT (PAE) or IdlePTD";
		return DK_OK;
	}
	if ((st = read_var(d, s[k].name, s[k].value - kb, 4, &c->root,
	    err)) != DK_OK)
		return st;
	c->walk = dk_arch_walk(&dk_arch_i386, pae ? "i386 PAE" : "i386");
	return DK_OK;
}

static enum dk_status
root_arm(struct dk_dump *d, const struct dk_ksym *s, const char **need,
    struct dk_err *err)
{
	struct dk_elfcore *c = d->priv;
	uint64_t kb = s[S_KERNBASE].value, phys = s[S_PHYSADDR].value;
	enum dk_status st;

	if (c->have_delta) {
		kb = c->delta_va;
		phys = c->delta_pa;
		d->info.kernbase = kb;
	}
	if (!s[S_L1PA].found || (!c->have_delta &&
	    (!s[S_KERNBASE].found || !s[S_PHYSADDR].found))) {
		*need = "kernel_l1pa, and kernbase and physaddr when the core "
		    "has no PT_DUMP_DELTA header";
		return DK_OK;
	}
	if ((st = read_var(d, "kernel_l1pa", s[S_L1PA].value - kb + phys, 4,
	    &c->root, err)) != DK_OK)
		return st;
	c->walk = dk_arch_walk(&dk_arch_arm, "arm short descriptor");
	return DK_OK;
}

/*
 * The architecture modules whose full cores dumpkit walks: which kernel
 * variables hold the root is the format's business (this table), the
 * walk from it the module's.  Another module's core has virtual
 * PT_LOADs or nothing to walk.
 */
static const struct elfc_root {
	const struct dk_arch_ops *arch;
	enum dk_status	(*find)(struct dk_dump *, const struct dk_ksym *,
			    const char **need, struct dk_err *);
} roots[] = {
	{ &dk_arch_amd64, root_amd64 },
	{ &dk_arch_i386, root_i386 },
	{ &dk_arch_arm, root_arm },
};

/* The entry of row a's module in roots[], or NULL. */
static const struct elfc_root *
root_of(const struct dk_arch *a)
{
	for (size_t i = 0; i < DK_ARRAY_LEN(roots); i++)
		if (roots[i].arch == a->ops)
			return &roots[i];
	return NULL;
}

/* Find the page-table root and the walk from the kernel's symbols. */
static enum dk_status
find_root(struct dk_dump *d, const char *kernel, struct dk_err *err)
{
	struct dk_elfcore *c = d->priv;
	struct dk_ksym s[S_N] = {
		[S_KERNBASE] = { "kernbase", 0, 0 },
		[S_KPML4] = { "KPML4phys", 0, 0 },
		[S_PTD] = { "IdlePTD", 0, 0 },
		[S_PDPT] = { "IdlePDPT", 0, 0 },
		[S_L1PA] = { "kernel_l1pa", 0, 0 },
		[S_PHYSADDR] = { "physaddr", 0, 0 },
	};
	const struct elfc_root *r = root_of(d->arch);
	const char *need = NULL;
	uint64_t pa;
	enum dk_status st;

	if ((st = dk_kernel_symbols(kernel, s, S_N, err)) != DK_OK)
		return st;
	if (s[S_KERNBASE].found)
		d->info.kernbase = s[S_KERNBASE].value;
	if (r == NULL)
		return DK_OK;	/* virtual PT_LOADs or nothing to walk */
	if ((st = r->find(d, s, &need, err)) != DK_OK)
		return st;
	if (need != NULL) {
		c->walk = NULL;
		return dk_err_set(err, DK_EINVAL, "%s: the kernel's symbol "
		    "table lacks %s, which a %s full ELF core needs to find "
		    "its page tables", kernel, need, d->arch->name);
	}
	/*
	 * The kernel map the walk lists: from kernbase to the top of the
	 * address space (the last page left out, so that the end is a
	 * number).  On amd64 that is the kernel and its modules, not the
	 * kmem below kernbase nor the direct map.
	 */
	d->info.kva_end = d->arch->elf_class == ELFCLASS64 ?
	    UINT64_MAX - d->page_size + 1 : 0x100000000ull;
	pa = c->root;
	DK_TRACE(d, "page-table root at pa %#jx (kernbase %#jx)",
	    (uintmax_t)pa, (uintmax_t)d->info.kernbase);
	return DK_OK;
}

/* The architecture row: the core's ELF header, checked against options. */
static enum dk_status
choose_row(struct dk_dump *d, const uint8_t *eh, size_t len,
    const struct dk_open_opts *o, struct dk_err *err)
{
	const struct dk_arch *want;
	unsigned machine;
	enum dk_status st;

	if ((st = dk_arch_from_elf_header(eh, len, d->src.name, &d->arch,
	    err)) != DK_OK)
		return st;
	machine = (unsigned)dk_elf_get(eh, DK_E_MACHINE, eh[EI_CLASS],
	    d->arch->endian);
	if (d->arch->no_elfcore != NULL)
		return dk_err_off(err, DK_EUNSUP, dk_elf_off(DK_E_MACHINE,
		    eh[EI_CLASS]), "%s: offset %u: e_machine %u is %s: %s",
		    d->src.name, dk_elf_off(DK_E_MACHINE, eh[EI_CLASS]),
		    machine, d->arch->name, d->arch->no_elfcore);
	d->info.arch_by = DK_BY_HEADER;
	snprintf(d->arch_why, sizeof(d->arch_why), "the core's ELF header "
	    "(e_machine %u, class %u, data %u)", machine, eh[EI_CLASS],
	    eh[EI_DATA]);
	if (o == NULL)
		return DK_OK;
	if (o->arch != NULL) {
		if ((want = dk_arch_by_name(o->arch)) == NULL)
			return dk_err_set(err, DK_EINVAL, "unknown "
			    "architecture '%s'", o->arch);
		if (want != d->arch)
			return dk_err_at(err, DK_EINVAL, d->src.name, 0, "the "
			    "core's ELF header says %s, not %s (--arch)",
			    d->arch->name, want->name);
		d->info.arch_by = DK_BY_OPTION;
		snprintf(d->arch_why, sizeof(d->arch_why), "--arch %s, as "
		    "the core's ELF header says", o->arch);
	}
	if (o->kernel != NULL) {
		if ((st = dk_arch_from_kernel(o->kernel, &want, err)) != DK_OK)
			return st;
		if (want != d->arch)
			return dk_err_at(err, DK_EINVAL, d->src.name, 0, "the "
			    "core's ELF header says %s, the kernel %s is %s",
			    d->arch->name, o->kernel, want->name);
		if (o->arch == NULL) {
			d->info.arch_by = DK_BY_KERNEL;
			snprintf(d->arch_why, sizeof(d->arch_why), "kernel ELF "
			    "header of %s, as the core's ELF header says",
			    o->kernel);
		}
	}
	return DK_OK;
}

/*
 * Load the page-keep bitmap note of a portable file (docs/portable-elf-
 * minidump.md, 10.1): the core's data extent size, then one bit per page
 * of it in 64-bit words of the file's byte order.  The note's size must
 * be what the extent needs and the stored pages must fill the file from
 * data on exactly, so the bitmap's memory is bounded by the note's.
 */
static enum dk_status
load_keep(struct dk_dump *d, const struct dk_range *keep, uint64_t data,
    struct dk_err *err)
{
	struct dk_elfcore *c = d->priv;
	enum dk_endian e = d->arch->endian;
	uint64_t size = keep->end - keep->start, ext, npages, nwords, stored;
	uint64_t ps = 1u << ELFC_PAGE_SHIFT;
	uint8_t buf[65536];
	enum dk_status st;

	if (size < 8 || (st = dk_src_pread(&d->src, buf, 8, keep->start,
	    "page-keep note", err)) != DK_OK)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, keep->start,
		    "expected a page-keep note of at least 8 bytes, found %ju",
		    (uintmax_t)size);
	ext = dec_uint(buf, 8, e);
	npages = (ext >> ELFC_PAGE_SHIFT) + ((ext & (ps - 1)) != 0);
	nwords = (npages + 63) / 64;
	if (size != 8 + nwords * 8)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, keep->start,
		    "the page-keep note has %ju bytes; a data extent of %#jx "
		    "bytes (%ju pages) needs 8 + %ju", (uintmax_t)size,
		    (uintmax_t)ext, (uintmax_t)npages, (uintmax_t)(nwords * 8));
	if ((st = dk_bitmap_init(&c->keep, npages, err)) != DK_OK)
		return st;
	for (uint64_t done = 0; done < nwords * 8; ) {
		size_t n = nwords * 8 - done < sizeof(buf) ?
		    (size_t)(nwords * 8 - done) : sizeof(buf);

		if ((st = dk_src_pread(&d->src, buf, n, keep->start + 8 + done,
		    "page-keep bitmap", err)) != DK_OK)
			return st;
		dk_bitmap_load(&c->keep, done, buf, n, 8, e);
		done += n;
	}
	if ((st = dk_bitmap_index(&c->keep, err)) != DK_OK)
		return st;
	if (dk_bitmap_rank(&c->keep, npages) != c->keep.count)
		return dk_err_at(err, DK_ECORRUPT, d->src.name,
		    keep->start + 8 + npages / 8, "the page-keep bitmap has "
		    "bits set past its last page, %ju", (uintmax_t)npages);
	stored = c->keep.count << ELFC_PAGE_SHIFT;
	if ((ext & (ps - 1)) != 0 && dk_bitmap_test(&c->keep, npages - 1))
		stored -= ps - (ext & (ps - 1));
	if (data > d->src.size || stored != d->src.size - data)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, keep->start,
		    "the page-keep bitmap stores %ju pages, %#jx bytes from "
		    "data_offset %#jx; the file has %#jx there",
		    (uintmax_t)c->keep.count, (uintmax_t)stored,
		    (uintmax_t)data,
		    (uintmax_t)(data <= d->src.size ? d->src.size - data : 0));
	c->dropped = 1;
	c->data = data;
	c->ext_size = ext;
	return DK_OK;
}

/*
 * Set d up from the ELF header and program headers at hoff of d's file,
 * hlen bytes of it (the whole file for a core; the source header note
 * of a portable file), with the segments' data moved to start at data
 * (UINT64_MAX: where p_offset says, a core) and, if keep is not NULL,
 * the page-keep bitmap note at [keep->start, keep->end) of the file.
 */
static enum dk_status
elfc_setup(struct dk_dump *d, const struct dk_open_opts *o, uint64_t hoff,
    uint64_t hlen, uint64_t data, const struct dk_range *keep,
    struct dk_err *err)
{
	uint8_t eh[64];
	struct dk_ehdr h;
	struct dk_elfcore *c;
	enum dk_endian e;
	uint64_t phoff, phend, allones, first = UINT64_MAX, last = 0;
	unsigned cls, ehsize, phentsize, phnum;
	uint8_t *ph = NULL;
	enum dk_status st;

	memset(eh, 0, sizeof(eh));
	if (hoff > d->src.size || hlen > d->src.size - hoff)
		return dk_err_at(err, DK_ETRUNC, d->src.name, hoff, "the ELF "
		    "headers [%#jx, +%#jx) extend past the end of the file",
		    (uintmax_t)hoff, (uintmax_t)hlen);
	if ((st = dk_src_pread(&d->src, eh, hlen < sizeof(eh) ? (size_t)hlen :
	    sizeof(eh), hoff, "ELF header", err)) != DK_OK)
		return st;
	if (eh[EI_CLASS] != ELFCLASS32 && eh[EI_CLASS] != ELFCLASS64)
		return dk_err_off(err, DK_ECORRUPT, EI_CLASS, "%s: offset %d: "
		    "expected EI_CLASS 1 (32-bit) or 2 (64-bit), found %u",
		    d->src.name, EI_CLASS, eh[EI_CLASS]);
	cls = eh[EI_CLASS];
	ehsize = dk_elf_size(DK_ELF_EHDR, cls);
	if (hlen < ehsize)
		return dk_err_at(err, DK_ETRUNC, d->src.name, hoff, "the ELF "
		    "header needs %u bytes, there are %ju", ehsize,
		    (uintmax_t)hlen);
	e = dk_elf_endian(eh);
	if ((d->priv = c = calloc(1, sizeof(*c))) == NULL)
		return dk_err_set(err, DK_ENOMEM, "%s: out of memory",
		    d->src.name);
	c->is64 = cls == ELFCLASS64;
	allones = c->is64 ? UINT64_MAX : UINT32_MAX;
	if ((st = choose_row(d, eh, ehsize, o, err)) != DK_OK)
		return st;
	dk_ehdr_decode(eh, cls, e, &h);
	phoff = h.phoff;
	phentsize = (unsigned)h.phentsize;
	phnum = (unsigned)h.phnum;
	if (phentsize != dk_elf_size(DK_ELF_PHDR, cls))
		return dk_err_at(err, DK_ECORRUPT, d->src.name,
		    dk_elf_off(DK_E_PHENTSIZE, cls), "expected e_phentsize %u "
		    "for ELFCLASS%d, found %u", dk_elf_size(DK_ELF_PHDR, cls),
		    c->is64 ? 64 : 32, phentsize);
	if (phnum == 0 || phnum > ELFC_MAX_PHNUM)
		return dk_err_at(err, phnum == 0 ? DK_ECORRUPT : DK_EUNSUP,
		    d->src.name, dk_elf_off(DK_E_PHNUM, cls), "e_phnum %u: "
		    "expected 1 to %u program headers", phnum, ELFC_MAX_PHNUM);
	phend = phoff + (uint64_t)phnum * phentsize;
	if (phoff > hlen || phend > hlen)
		return dk_err_at(err, DK_ETRUNC, d->src.name,
		    hoff + dk_elf_off(DK_E_PHOFF, cls), "the %u program "
		    "headers at e_phoff %#jx end at %#jx, past the end of the "
		    "%s at %#jx", phnum,
		    (uintmax_t)phoff, (uintmax_t)phend,
		    data == UINT64_MAX ? "file" : "source header note",
		    (uintmax_t)hlen);
	if ((ph = malloc((size_t)(phend - phoff))) == NULL)
		return dk_err_set(err, DK_ENOMEM, "%s: out of memory",
		    d->src.name);
	c->phys = calloc(phnum, sizeof(*c->phys));
	c->virt = calloc(phnum, sizeof(*c->virt));
	if (c->phys == NULL || c->virt == NULL) {
		free(ph);
		return dk_err_set(err, DK_ENOMEM, "%s: out of memory",
		    d->src.name);
	}
	if ((st = dk_src_pread(&d->src, ph, (size_t)(phend - phoff), hoff +
	    phoff, "program headers", err)) != DK_OK) {
		free(ph);
		return st;
	}
	for (unsigned i = 0; i < phnum; i++) {
		struct dk_phdr p;
		struct elfc_seg s;
		uint64_t vaddr;

		dk_phdr_decode(ph + (size_t)i * phentsize, cls, e, &p);
		s.phoff = hoff + phoff + (uint64_t)i * phentsize;
		s.off = p.offset;
		vaddr = p.vaddr;
		s.addr = p.paddr;
		s.filesz = p.filesz;
		s.memsz = p.memsz;
		if (p.type == ELFC_PT_DUMP_DELTA) {
			c->have_delta = 1;
			c->delta_va = vaddr;
			c->delta_pa = s.addr;
			continue;
		}
		if (p.type != PT_LOAD || s.memsz == 0)
			continue;
		if (s.filesz > s.memsz || s.off + s.filesz < s.off) {
			free(ph);
			return dk_err_at(err, DK_ECORRUPT, d->src.name,
			    s.phoff, "PT_LOAD with p_filesz %#jx larger than "
			    "p_memsz %#jx or past 2^64 from p_offset %#jx",
			    (uintmax_t)s.filesz, (uintmax_t)s.memsz,
			    (uintmax_t)s.off);
		}
		if ((s.off | s.filesz | (s.addr == allones ? vaddr : s.addr)) &
		    ((1u << ELFC_PAGE_SHIFT) - 1)) {
			/* The kernel writes whole pages; so does the model. */
			free(ph);
			return dk_err_at(err, DK_ECORRUPT, d->src.name,
			    s.phoff, "PT_LOAD with p_offset %#jx, address "
			    "%#jx, p_filesz %#jx: expected multiples of 4096",
			    (uintmax_t)s.off,
			    (uintmax_t)(s.addr == allones ? vaddr : s.addr),
			    (uintmax_t)s.filesz);
		}
		if (s.addr == allones) {
			s.addr = vaddr;
			if (s.addr + s.memsz - 1 < s.addr)
				goto wrap;
			c->virt[c->nvirt++] = s;
		} else {
			if (s.addr + s.memsz - 1 < s.addr)
				goto wrap;
			c->phys[c->nphys++] = s;
		}
		if (s.off < first)
			first = s.off;
		if (s.off + s.filesz > last)
			last = s.off + s.filesz;
		continue;
wrap:
		free(ph);
		return dk_err_at(err, DK_ECORRUPT, d->src.name, s.phoff,
		    "PT_LOAD [%#jx, +%#jx) wraps past the top of the address "
		    "space", (uintmax_t)s.addr, (uintmax_t)s.memsz);
	}
	free(ph);
	c->hdr_len = first != UINT64_MAX ? first : phend;
	if (data != UINT64_MAX && c->hdr_len != hlen)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, hoff, "the "
		    "source header note has %#jx bytes, but the core's first "
		    "segment is at %#jx", (uintmax_t)hlen,
		    (uintmax_t)c->hdr_len);
	if (data != UINT64_MAX) {
		/* A portable file: the data, verbatim, from data on. */
		for (size_t i = 0; i < c->nphys; i++)
			c->phys[i].off = c->phys[i].off - first + data;
		for (size_t i = 0; i < c->nvirt; i++)
			c->virt[i].off = c->virt[i].off - first + data;
		first = data;
	}
	c->hoff = hoff;
	c->first = first != UINT64_MAX ? first : phend;
	DK_TRACE(d, "%s core, %u program headers: %zu physical, %zu virtual "
	    "PT_LOADs%s", d->arch->name, phnum, c->nphys, c->nvirt,
	    c->have_delta ? ", PT_DUMP_DELTA" : "");
	if ((st = sort_segs(d, c->phys, c->nphys, "physical", err)) != DK_OK ||
	    (st = sort_segs(d, c->virt, c->nvirt, "virtual", err)) != DK_OK)
		return st;
	d->page_shift = ELFC_PAGE_SHIFT;
	d->page_size = 1u << ELFC_PAGE_SHIFT;
	d->info.format = "elf";
	d->info.arch = d->arch->name;
	d->info.arch_why = d->arch_why;
	d->info.version = (uint32_t)h.version;
	d->info.endian = e;
	d->info.page_size = (uint32_t)d->page_size;
	if (c->have_delta)
		d->info.kernbase = c->delta_va;
	if (data == UINT64_MAX) {
		dk_add_section(d, "elf headers", 0, phend, phend);
		if (first != UINT64_MAX)
			dk_add_section(d, "pages", first, last - first,
			    last - first);
	}
	if (keep != NULL && (st = load_keep(d, keep, first, err)) != DK_OK)
		return st;
	count_pages(d, c->phys, c->nphys, c->dropped ? c->data +
	    c->ext_size : d->src.size);
	count_pages(d, c->virt, c->nvirt, c->dropped ? c->data +
	    c->ext_size : d->src.size);
	if ((st = page_model(d, err)) != DK_OK)
		return st;
	if (o != NULL && o->kernel != NULL &&
	    (st = find_root(d, o->kernel, err)) != DK_OK)
		return st;
	return DK_OK;
}

static enum dk_status
elfc_open(struct dk_dump *d, const struct dk_open_opts *o, struct dk_err *err)
{
	return elfc_setup(d, o, 0, d->src.size, UINT64_MAX, NULL, err);
}

/*
 * A portable file's full core: its ELF and program headers (hlen bytes)
 * at hoff, its segment data from data of d's file, with pages left out
 * as the page-keep note at [keep->start, keep->end) says (NULL: none).
 */
static enum dk_status
elfc_load(struct dk_dump *d, uint64_t hoff, uint64_t hlen, uint64_t data,
    const struct dk_range *keep, struct dk_err *err)
{
	enum dk_decided by = d->info.arch_by;
	char why[sizeof(d->arch_why)];
	enum dk_status st;

	/* What decided the architecture is the portable reader's to say. */
	memcpy(why, d->arch_why, sizeof(why));
	d->fmt = &dk_fmt_elf;
	st = elfc_setup(d, NULL, hoff, hlen, data, keep, err);
	memcpy(d->arch_why, why, sizeof(why));
	d->info.arch_by = by;
	d->info.format = "portable-elf";
	return st;
}

static void
elfc_close(struct dk_dump *d)
{
	struct dk_elfcore *c = d->priv;

	if (c != NULL) {
		free(c->phys);
		free(c->virt);
		dk_bitmap_free(&c->keep);
		free(c);
		d->priv = NULL;
	}
}

/* The segment of s[0..n) holding addr, or NULL. */
static const struct elfc_seg *
find_seg(const struct elfc_seg *s, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (addr < s[mid].addr)
			hi = mid;
		else if (addr - s[mid].addr >= s[mid].memsz)
			lo = mid + 1;
		else
			return &s[mid];
	}
	return NULL;
}

/* File offset of addr inside segment s, or an error naming kind. */
static enum dk_status
seg_offset(struct dk_dump *d, const struct elfc_seg *s, uint64_t addr,
    const char *kind, uint64_t *offp, struct dk_err *err)
{
	const struct dk_elfcore *c = d->priv;
	uint64_t off = s->off + (addr - s->addr);

	if (addr - s->addr >= s->filesz)
		return dk_err_off(err, DK_ENOTDUMPED, s->phoff, "%s address "
		    "%#jx: in the PT_LOAD at offset %#jx but past its "
		    "p_filesz %#jx", kind, (uintmax_t)addr,
		    (uintmax_t)s->phoff, (uintmax_t)s->filesz);
	if (c->dropped) {
		if (off - c->data >= c->ext_size)
			return dk_err_set(err, DK_ETRUNC, "%s address %#jx: "
			    "should be at %#jx of the core's data, past its "
			    "end at %#jx", kind, (uintmax_t)addr,
			    (uintmax_t)(off - c->data),
			    (uintmax_t)c->ext_size);
		*offp = ext_off(c, off);
		return DK_OK;
	}
	if (off >= d->src.size)
		return dk_err_off(err, DK_ETRUNC, off, "%s address %#jx: "
		    "should be at offset %#jx, past the end of the truncated "
		    "file at %#jx", kind, (uintmax_t)addr, (uintmax_t)off,
		    (uintmax_t)d->src.size);
	*offp = off;
	return DK_OK;
}

static enum dk_status
elfc_pa_offset(struct dk_dump *d, uint64_t pa, uint64_t *offp,
    struct dk_err *err)
{
	struct dk_elfcore *c = elfc(d);
	const struct elfc_seg *s = find_seg(c->phys, c->nphys, pa);

	if (s == NULL)
		return dk_err_miss(d, err, DK_ENOTDUMPED, "physical address %#jx "
		    "is in no physical PT_LOAD of the core", (uintmax_t)pa);
	return seg_offset(d, s, pa, "physical", offp, err);
}

/*
 * The first page at or after the page-aligned pa that a physical
 * PT_LOAD stores (within its p_filesz and the file), or UINT64_MAX.
 */
static uint64_t
elfc_pa_next(struct dk_dump *d, uint64_t pa)
{
	struct dk_elfcore *c = elfc(d);
	uint64_t mask = (1ull << ELFC_PAGE_SHIFT) - 1;

	size_t lo = 0, hi = c->nphys;

	/* The first segment whose stored bytes end above pa. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct elfc_seg *s = &c->phys[mid];

		if (s->addr + s->filesz <= pa)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < c->nphys; lo++) {
		const struct elfc_seg *s = &c->phys[lo];
		uint64_t p = pa > s->addr ? pa : (s->addr + mask) & ~mask;
		uint64_t pos, off;

		if (p < s->addr || p - s->addr >= s->filesz)
			continue;
		pos = s->off + (p - s->addr);
		if (c->dropped && pos >= c->data &&
		    ext_off(c, pos) == DK_OFF_ZERO) {
			/* The next page of the extent that was kept. */
			uint64_t i = (pos - c->data) >> ELFC_PAGE_SHIFT;
			uint64_t b = dk_bitmap_next(&c->keep, i, 1);

			if (b >= c->keep.nbits || ((b - i) << ELFC_PAGE_SHIFT) >=
			    s->filesz - (p - s->addr))
				continue;
			p += (b - i) << ELFC_PAGE_SHIFT;
			pos += (b - i) << ELFC_PAGE_SHIFT;
		}
		if ((off = ext_off(c, pos)) == DK_OFF_ZERO ||
		    off >= d->src.size)
			continue;
		return p;
	}
	return UINT64_MAX;
}

/*
 * The bytes from the page-aligned pa on that pa's segment stores at
 * consecutive offsets of the file (at most max): to p_filesz and the
 * file's end, and in a --drop-zero file to the next page left out.
 */
static uint64_t
elfc_pa_span(struct dk_dump *d, uint64_t pa, uint64_t max)
{
	struct dk_elfcore *c = elfc(d);
	const struct elfc_seg *s = find_seg(c->phys, c->nphys, pa);
	uint64_t n, pos, off;

	if (s == NULL || pa - s->addr >= s->filesz)
		return 0;
	n = s->filesz - (pa - s->addr);
	pos = s->off + (pa - s->addr);
	if (c->dropped) {
		uint64_t x = pos - c->data, i = x >> ELFC_PAGE_SHIFT, e;

		if (pos < c->data || x >= c->ext_size ||
		    !dk_bitmap_test(&c->keep, i))
			return 0;
		e = (dk_bitmap_next(&c->keep, i, 0) << ELFC_PAGE_SHIFT) - x;
		if (e < n)
			n = e;
		if (c->ext_size - x < n)
			n = c->ext_size - x;
	}
	if ((off = ext_off(c, pos)) >= d->src.size)
		return 0;
	if (d->src.size - off < n)
		n = d->src.size - off;
	return n < max ? n : max;
}

static enum dk_status
elfc_va_offset(struct dk_dump *d, uint64_t va, uint64_t *offp,
    struct dk_err *err)
{
	const struct dk_elfcore *c = d->priv;
	const struct elfc_seg *s;

	if (c->nvirt == 0)
		return DK_NOMATCH;
	if ((s = find_seg(c->virt, c->nvirt, va)) != NULL)
		return seg_offset(d, s, va, "virtual", offp, err);
	if (c->walk != NULL)
		return DK_NOMATCH;
	return dk_err_miss(d, err, DK_ENOTDUMPED, "virtual address %#jx is in no "
	    "virtual PT_LOAD of the core", (uintmax_t)va);
}

static enum dk_status
elfc_kvtop_prot(struct dk_dump *d, uint64_t va, uint64_t *pa,
    unsigned *prot, struct dk_err *err)
{
	const struct dk_elfcore *c = d->priv;

	if (c->walk != NULL)
		return c->walk->translate(d, c->walk, c->root, va, pa, prot,
		    err);
	if (c->nvirt > 0)
		return dk_err_set(err, DK_EUNSUP, "virtual address %#jx: this "
		    "virtual core stores kernel memory by virtual address, "
		    "without physical addresses: it has no translation to give "
		    "(read the address itself)", (uintmax_t)va);
	if (root_of(d->arch) != NULL)
		return dk_err_set(err, DK_EINVAL, "virtual address %#jx: a "
		    "full ELF core holds physical memory only; its page "
		    "tables are found from the kernel's symbols: give "
		    "--kernel FILE", (uintmax_t)va);
	return dk_err_set(err, DK_EUNSUP, "virtual address %#jx: dumpkit "
	    "does not walk the page tables of a %s full ELF core",
	    (uintmax_t)va, d->arch->name);
}

static enum dk_status
elfc_kvtop(struct dk_dump *d, uint64_t va, uint64_t *pa, struct dk_err *err)
{
	return elfc_kvtop_prot(d, va, pa, NULL, err);
}

/*
 * The next run of segments s[0..n) (ascending addresses), one per
 * segment; in a file with pages left out, a segment is cut where stored
 * pages and left-out ones (offset DK_OFF_ZERO) alternate.  *seg is the
 * segment, *done the bytes of it already returned.
 */
static int
seg_next(const struct dk_dump *d, const struct elfc_seg *s, size_t n,
    size_t *seg, uint64_t *done, uint64_t *addr, uint64_t *len,
    uint64_t *off)
{
	const struct dk_elfcore *c = d->priv;
	uint64_t x, i, j, end;
	int kept;

	while (*seg < n && *done >= s[*seg].filesz) {
		(*seg)++;
		*done = 0;
	}
	if (*seg >= n)
		return 0;
	s += *seg;
	*addr = s->addr + *done;
	if (!c->dropped || s->off + *done - c->data >= c->ext_size) {
		/* Past the end of a truncated core's data: past the file's. */
		*len = s->filesz - *done;
		*off = !c->dropped ? s->off + *done : d->src.size +
		    (s->off + *done - c->data - c->ext_size);
		*done = s->filesz;
		return 1;
	}
	x = s->off + *done - c->data;
	i = x >> ELFC_PAGE_SHIFT;
	kept = dk_bitmap_test(&c->keep, i);
	j = dk_bitmap_next(&c->keep, i + 1, !kept);
	end = j >= c->keep.nbits ? s->filesz : (j << ELFC_PAGE_SHIFT) -
	    (s->off - c->data);
	if (end > s->filesz)
		end = s->filesz;
	*len = end - *done;
	*off = ext_off(c, s->off + *done);
	*done = end;
	return 1;
}

/* The physical PT_LOADs, in ascending physical order. */
static int
elfc_run_next(const struct dk_dump *d, struct dk_run_iter *it,
    struct dk_run *run)
{
	struct dk_elfcore *c = elfc(d);

	return seg_next(d, c->phys, c->nphys, &it->range,
	    &it->next_bit, &run->pa, &run->len, &run->offset);
}

/*
 * The kernel map of a core of physical memory whose page tables were
 * found (--kernel): [kernbase, kva_end) walked page by page, as a
 * minidump's is.  That of a virtual core: its virtual PT_LOADs, with no
 * physical address (pa all-ones, as the core says), it->va counting
 * segments and it->probes the bytes of the current one returned.
 */
static int
elfc_kmap_next(struct dk_dump *d, struct dk_kmap_iter *it,
    struct dk_kmap_run *run, struct dk_err *err)
{
	struct dk_elfcore *c = elfc(d);
	size_t seg = (size_t)it->va;

	if (c->walk != NULL)
		return dk_kmap_walk(d, it, run, elfc_kvtop_prot, err);
	if (it->done || !seg_next(d, c->virt, c->nvirt, &seg,
	    &it->probes, &run->va, &run->len, &run->offset)) {
		it->done = 1;
		return 0;
	}
	it->va = seg;
	run->pa = UINT64_MAX;
	run->prot = DK_PROT_W | DK_PROT_X;
	return 1;
}

/* ---------------------------------------------------------------------- */
/* In the portable ELF minidump (portable.h): the source header note is   */
/* the core's bytes from its ELF header to its first segment (the ELF     */
/* header, the program headers and the zero gap), and the page data is    */
/* the rest of the file, verbatim, so that the physical PT_LOADs of the   */
/* portable file point into it, no residue is ever needed, and the        */
/* native rebuild is the note then the data.  The program headers in the  */
/* note are what the reader loads the segments from.                      */

static int
elfc_row_ok(const struct dk_arch *a)
{
	return a->no_elfcore == NULL;
}

static enum dk_status
elfc_popen(struct dk_dump *d, const struct dk_pctx *c, struct dk_err *err)
{
	const struct dk_pnote *hn = &c->notes[DK_PN_SOURCE_HEADER];
	uint64_t ioff = c->notes[DK_PN_INFO].off, data, stored;
	struct dk_range keep = { 0, 0 };
	enum dk_status st;

	data = dk_pinfo(c, DK_INFO_DATA_OFFSET, 8);
	if (!hn->seen)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, c->noff,
		    "expected a source header note (the core's ELF and "
		    "program headers), found none");
	if (data % 4096 != 0 || data > d->src.size)
		return dk_err_at(err, DK_ECORRUPT, d->src.name,
		    ioff + DK_INFO_DATA_OFFSET,
		    "data_offset %#jx is not a page-aligned offset inside the "
		    "file of %#jx bytes", (uintmax_t)data,
		    (uintmax_t)d->src.size);
	if (c->notes[DK_PN_BITMAP].seen) {
		keep.start = c->notes[DK_PN_BITMAP].off;
		keep.end = keep.start + c->notes[DK_PN_BITMAP].size;
	}
	if ((st = elfc_load(d, hn->off, hn->size, data,
	    c->notes[DK_PN_BITMAP].seen ? &keep : NULL, err)) != DK_OK)
		return st;
	if (d->arch != c->row)
		return dk_err_at(err, DK_ECORRUPT, d->src.name,
		    ioff + DK_INFO_ARCH,
		    "the info note names %s, the source ELF header %s",
		    c->row->name, d->arch->name);
	stored = dk_pinfo(c, DK_INFO_NSTORED, 8);
	if (dk_pinfo(c, DK_INFO_NPAGES, 8) != d->info.npages ||
	    stored > d->info.npages)
		return dk_err_at(err, DK_ECORRUPT, d->src.name,
		    ioff + DK_INFO_NPAGES,
		    "the info note says %ju pages in the segments, %ju "
		    "stored; the program headers say %ju",
		    (uintmax_t)dk_pinfo(c, DK_INFO_NPAGES, 8),
		    (uintmax_t)stored, (uintmax_t)d->info.npages);
	if (d->info.npages_present > stored)
		d->info.npages_present = stored;
	dk_add_section(d, "elf headers", 0, c->noff, c->noff);
	dk_add_section(d, "notes", c->noff, c->nsize, c->nsize);
	dk_add_section(d, "pages", data, d->src.size - data,
	    d->src.size - data);
	return DK_OK;
}

static uint64_t
elfc_extent(const struct dk_dump *d, uint64_t *len)
{
	struct dk_elfcore *c = elfc(d);

	/* A truncated core may end before its first segment. */
	*len = c->first < d->src.size ? d->src.size - c->first : 0;
	return c->first;
}

/* The page-keep note's descriptor: extent size, then 64-bit words. */
static uint64_t
keep_note_size(const struct dk_plan *pl)
{
	return pl->keep == NULL ? 0 : 8 + (pl->keep->nbits + 63) / 64 * 8;
}

static uint64_t
elfc_notes_size(const struct dk_dump *d, const struct dk_plan *pl)
{
	return dk_pnote_size(elfc(d)->hdr_len) +
	    (pl->keep != NULL ? dk_pnote_size(keep_note_size(pl)) :
	    0);
}

static enum dk_status
elfc_notes(struct dk_dump *d, const struct dk_plan *pl, struct dk_sink *s,
    struct dk_err *err)
{
	struct dk_elfcore *c = elfc(d);
	enum dk_endian e = d->arch->endian;
	uint8_t buf[4096];
	enum dk_status st;

	st = dk_pnote_copy(s, d, DK_PN_SOURCE_HEADER, c->hoff,
	    c->hdr_len, err);
	if (st != DK_OK || pl->keep == NULL)
		return st;
	if ((st = dk_pnote_head(s, e, DK_PN_BITMAP, keep_note_size(pl),
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
elfc_rebuild(struct dk_dump *d, struct dk_sink *s, const struct dk_plan *pl,
    struct dk_err *err)
{
	struct dk_elfcore *c = elfc(d);
	uint64_t ps = d->page_size, stored = 0;
	enum dk_status st;

	st = dk_sink_copy(s, &d->src, c->hoff,
	    c->hdr_len, err);
	if (st != DK_OK || pl->keep == NULL)
		return st != DK_OK ? st : dk_sink_copy(s, &d->src,
		    c->first, pl->present, err);
	for (uint64_t i = 0; st == DK_OK && i < pl->keep->nbits; ) {
		int kept = dk_bitmap_test(pl->keep, i);
		uint64_t j = dk_bitmap_next(pl->keep, i, !kept);
		uint64_t len = (j * ps < pl->ext_size ? j * ps :
		    pl->ext_size) - i * ps;

		if (kept) {
			st = dk_sink_copy(s, &d->src, c->first + stored,
			    len, err);
			stored += len;
		} else
			st = dk_sink_zero(s, len, err);
		i = j;
	}
	return st;
}

/* The page-keep bitmap of a portable core written with --drop-zero. */
static const struct dk_bitmap *
elfc_keep(const struct dk_dump *d, uint64_t *ext_size)
{
	struct dk_elfcore *c = elfc(d);

	if (d->priv == NULL || !c->dropped)
		return NULL;
	*ext_size = c->ext_size;
	return &c->keep;
}

static const struct dk_portable elfc_portable = {
	.id		= 3,
	.name		= "full ELF core",
	.noun		= "full ELF core",
	.row_ok		= elfc_row_ok,
	.open		= elfc_popen,
	.extent		= elfc_extent,
	.notes_size	= elfc_notes_size,
	.notes		= elfc_notes,
	.rebuild	= elfc_rebuild,
	.keep		= elfc_keep,
	.drop_zero	= 1,
	.vaddr_is_pa	= 1,
};

const struct dk_format_ops dk_fmt_elf = {
	.name		= "elf",
	.desc		= "FreeBSD full ELF core (debug.minidump=0)",
	.probe		= elfc_probe,
	.open		= elfc_open,
	.close		= elfc_close,
	.pa_offset	= elfc_pa_offset,
	.pa_next	= elfc_pa_next,
	.pa_span	= elfc_pa_span,
	.kvtop		= elfc_kvtop,
	.run_next	= elfc_run_next,
	.va_offset	= elfc_va_offset,
	.kmap_next	= elfc_kmap_next,
	.portable	= &elfc_portable,
	.check		= &dk_elfcore_check,
};
