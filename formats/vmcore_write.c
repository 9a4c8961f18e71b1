/*
 * vmcore_write.c -- a Linux dump written as a clean Linux ELF vmcore
 * (vmcore_write.h): the file the kernel's /proc/vmcore and makedumpfile
 * -E give, in the layout every reader assumes.
 *
 *	ELF header		ET_CORE, the source's e_machine and byte
 *				order, ELFCLASS64 (ELFCLASS32 when asked,
 *				for a 32-bit source whose memory fits)
 *	program headers		right after it: one PT_NOTE, then the
 *				kernel-text PT_LOADs (below), then one
 *				PT_LOAD per run of present physical memory,
 *				ascending, p_filesz == p_memsz
 *	section header 0	only with PN_XNUM (65,535 program headers
 *				or more): SHT_NULL, the count in sh_info,
 *				after the program headers as makedumpfile
 *				puts it
 *	notes			the source's notes as they are (NT_PRSTATUS
 *				of every CPU, VMCOREINFO, QEMU's, s390x's),
 *				and VMCOREINFO from --vmcoreinfo FILE when
 *				the source has none
 *	pages			from the next page boundary, each PT_LOAD's
 *				bytes in turn; pages of zeros are holes
 *
 * e_machine is the source's, but for an x86_64 machine whose first
 * NT_PRSTATUS is i386's (its CPUs not in long mode, as QEMU finds
 * firmware): EM_386 in ELFCLASS64, as QEMU writes that machine.
 *
 * p_paddr is the physical address.  p_vaddr is the direct-map address
 * where the dump tells it: the reader's direct-map window, else
 * VMCOREINFO's NUMBER(PAGE_OFFSET) (riscv64 and others), else on x86_64
 * the fixed base of the 4- or 5-level direct map (NUMBER(
 * pgtable_l5_enabled)) when KERNELOFFSET is 0, as without KASLR the
 * direct map is not moved either; else 0, which makedumpfile and crash
 * read as "no virtual address" and gdb does not use.
 *
 * The kernel's own vmcore also maps the kernel image at its link
 * address (on x86_64 0xffffffff81000000 on, the same physical pages as
 * the direct map: two overlapping PT_LOADs), which is what gdb needs to
 * read a kernel symbol.  The data is written once: the kernel-text
 * PT_LOADs are aliases, program headers whose p_offset points at the
 * bytes of the physical PT_LOAD that holds them.  Their range is the
 * reader's kernel window where it has one, else on x86_64 from
 * VMCOREINFO: [SYMBOL(_stext), the highest SYMBOL() in the kernel
 * map] rounded up to 2 MiB, at pa = va - __START_KERNEL_map +
 * NUMBER(phys_base).
 *
 * Absent pages.  A kdump-compressed file leaves out the pages its dump
 * level excluded (bitmap 2) and a cut file the pages past its end.
 * makedumpfile -E, reading /proc/vmcore, keeps a run of fewer than 256
 * excluded pages inside its PT_LOAD with the bytes /proc/vmcore had,
 * starts a new PT_LOAD after a longer run, and counts excluded pages at
 * the end of a source segment in p_memsz but not in p_filesz (readers
 * take those as zeros; an all-excluded segment has p_filesz 0 and
 * p_offset 0).  dumpkit has no bytes for an excluded page and invents
 * none: every absent page ends a PT_LOAD and the next present page
 * starts one, so p_filesz is always p_memsz and an absent page is
 * absent to every reader, never zeros.  Pages the source stores as
 * zeros (a portable file's --drop-zero) are written as zeros (holes).
 * Where dk_info says the file lacks some of its pages (cut short), each
 * page is read once before writing to find them; the plan counts them.
 *
 * Memory: the notes, and 32 bytes per PT_LOAD and per piece of the
 * source (a run of its pages): metadata only.  The bytes are copied
 * with dk_sink_copy (copy_file_range, holes kept) or, for pages read by
 * address (compressed), a megabyte at a time.
 */
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "dkelf.h"
#include "vmcore_write.h"

#define	VMW_BUF		(1u << 20)	/* pages read by address at once */
#define	X86_64_KMAP	0xffffffff80000000ull	/* __START_KERNEL_map */
#define	X86_64_KIMAGE	(1ull << 30)	/* KERNEL_IMAGE_SIZE default */
#define	X86_64_DMAP4	0xffff888000000000ull	/* __PAGE_OFFSET_BASE_L4 */
#define	X86_64_DMAP5	0xff11000000000000ull	/* __PAGE_OFFSET_BASE_L5 */
#define	VMW_2M		(2ull << 20)
#define	I386_PRSTATUS	144	/* struct elf_prstatus of i386 */

/* The formats whose dumps are Linux's. */
static const char *const linux_formats[] = { "kdump", "vmcore" };

int
dk_vmw_linux(const struct dk_dump *d)
{
	for (size_t i = 0; i < DK_ARRAY_LEN(linux_formats); i++)
		if (strcmp(d->fmt->name, linux_formats[i]) == 0)
			return 1;
	return 0;
}

/*
 * A VMCOREINFO value: hexadecimal (SYMBOL, KERNELOFFSET: %lx), or a
 * NUMBER, decimal or 0x-hexadecimal as each architecture prints it.
 */
static int
vmci(const struct dk_dump *d, const char *key, int hex, uint64_t *v)
{
	const struct dk_attr *a = dk_attr_find(d, key);
	char *end;

	if (a == NULL || a->type != DK_ATTR_STRING || a->str[0] == '\0')
		return 0;
	*v = strtoull(a->str, &end, hex ? 16 : 0);
	return *end == '\0';
}

/* Append to a growing array; 0 when out of memory. */
static int
grow(void **p, size_t *cap, size_t n, size_t size)
{
	void *q;
	size_t nc;

	if (n < *cap)
		return 1;
	nc = *cap == 0 ? 64 : *cap * 2;
	if ((q = realloc(*p, nc * size)) == NULL)
		return 0;
	*p = q;
	*cap = nc;
	return 1;
}

void
dk_vmw_plan_free(struct dk_vmw_plan *p)
{
	free(p->load);
	free(p->alias);
	free(p->piece);
	free(p->notes);
	memset(p, 0, sizeof(*p));
}

/* ---------------------------------------------------------------------- */
/* Notes.                                                                  */

/*
 * The source's notes (every section named "notes", in order), checked
 * note by note; VMCOREINFO found in them, or taken from a "vmcoreinfo"
 * section, or added from the options.
 */
static enum dk_status
plan_notes(struct dk_dump *d, const struct dk_vmw_opts *o,
    struct dk_vmw_plan *p, struct dk_err *err)
{
	const struct dk_section *vs = NULL;
	const char *add = NULL;
	uint64_t addlen = 0, total = 0;
	int prstatus = 0;
	struct dk_note_iter it;
	struct dk_note n;
	enum dk_status st;
	uint8_t *b;

	for (size_t i = 0; i < dk_nsections(d); i++) {
		const struct dk_section *s = dk_section(d, i);

		if (strcmp(s->name, "vmcoreinfo") == 0 && vs == NULL)
			vs = s;
		if (strcmp(s->name, "notes") != 0)
			continue;
		if (s->size > DK_VMW_MAX_NOTES - total)
			return dk_err_at(err, DK_ELIMIT, d->src.name, s->offset,
			    "notes of %#jx bytes: more than the %#x dumpkit "
			    "carries", (uintmax_t)(total + s->size),
			    DK_VMW_MAX_NOTES);
		if ((b = realloc(p->notes, (size_t)(total + s->size) + 1)) ==
		    NULL)
			return dk_err_set(err, DK_ENOMEM, "out of memory");
		p->notes = b;
		if ((st = dk_read_stream(d, s->offset, b + total,
		    (size_t)s->size, err)) != DK_OK)
			return st;
		total += s->size;
	}
	dk_note_iter_mem(&it, p->notes, (size_t)total, p->e, "the notes");
	while ((st = dk_note_next(&it, &n, err)) == DK_OK) {
		if (n.have_name && n.namesz == 11 &&
		    memcmp(n.name, "VMCOREINFO", 11) == 0)
			p->vmcoreinfo = 1;
		/*
		 * An x86_64 machine whose CPUs were not in long mode (QEMU
		 * dumping firmware) has i386's 144-byte NT_PRSTATUS; QEMU
		 * then writes EM_386 in ELFCLASS64, and readers (libkdumpfile)
		 * refuse that note under EM_X86_64.
		 */
		if (n.have_name && n.namesz == 5 && memcmp(n.name, "CORE",
		    5) == 0 && n.type == NT_PRSTATUS && !prstatus++ &&
		    p->machine == EM_X86_64 && n.descsz == I386_PRSTATUS)
			p->machine = EM_386;
	}
	if (st != DK_NOMATCH)
		return dk_err_prefix(err, "%s: the notes to carry",
		    d->src.name);
	if (o->vmcoreinfo != NULL) {
		if (p->vmcoreinfo || vs != NULL)
			return dk_err_set(err, DK_EINVAL, "%s: --vmcoreinfo %s: "
			    "the dump has VMCOREINFO already", d->src.name,
			    o->vmcoreinfo_name);
		add = o->vmcoreinfo;
		addlen = o->vmcoreinfo_len;
	} else if (!p->vmcoreinfo && vs != NULL) {
		/* A kdump file of header version 3 keeps it apart. */
		if (vs->size > DK_VMW_MAX_VMCOREINFO)
			return dk_err_at(err, DK_ELIMIT, d->src.name,
			    vs->offset, "VMCOREINFO of %#jx bytes: more than "
			    "the %#x dumpkit carries", (uintmax_t)vs->size,
			    DK_VMW_MAX_VMCOREINFO);
		addlen = vs->size;
	}
	if (add != NULL || addlen > 0) {
		uint64_t sz = dk_note_size(11, addlen);
		size_t h;

		if ((b = realloc(p->notes, (size_t)(total + sz))) == NULL)
			return dk_err_set(err, DK_ENOMEM, "out of memory");
		p->notes = b;
		h = dk_note_head(b + total, p->e, 0, "VMCOREINFO", 11, addlen);
		if (add != NULL)
			memcpy(b + total + h, add, (size_t)addlen);
		else if ((st = dk_read_stream(d, vs->offset, b + total + h,
		    (size_t)addlen, err)) != DK_OK)
			return st;
		memset(b + total + h + addlen, 0, (size_t)(sz - h - addlen));
		total += sz;
		p->vmcoreinfo = add != NULL ? 2 : 1;
	}
	p->notes_size = total;
	return DK_OK;
}

/* ---------------------------------------------------------------------- */
/* Memory: pieces of the source, PT_LOADs, aliases.                        */

/* Append [pa, pa + len) from src (an offset, or a kind) to the pieces. */
static int
add_piece(struct dk_vmw_plan *p, size_t *cap, uint64_t pa, uint64_t len,
    uint64_t src)
{
	struct dk_vmw_piece *l = p->npiece > 0 ? &p->piece[p->npiece - 1] :
	    NULL;

	if (len == 0)
		return 1;
	if (l != NULL && l->pa + l->len == pa && (l->src == src ?
	    src >= DK_OFF_PAGED : src < DK_OFF_PAGED && l->src < DK_OFF_PAGED
	    && l->src + l->len == src)) {
		l->len += len;
		return 1;
	}
	if (!grow((void **)&p->piece, cap, p->npiece, sizeof(*p->piece)))
		return 0;
	p->piece[p->npiece++] = (struct dk_vmw_piece){ pa, len, src };
	return 1;
}

/*
 * The pieces of d's memory that the file holds: its runs, less the
 * pages past the end of the file and, where dk_info says some pages are
 * missing, the pages read by address that do not read.
 */
static enum dk_status
plan_pieces(struct dk_dump *d, struct dk_vmw_plan *p, struct dk_err *err)
{
	const struct dk_info *in = dk_info(d);
	uint64_t ps = d->page_size;
	int probe = in->npages_present < in->npages;
	struct dk_run_iter it = { 0 };
	struct dk_run r;
	uint8_t *page = NULL;
	size_t cap = 0;
	enum dk_status st = DK_OK;

	if (probe && (page = malloc((size_t)ps)) == NULL)
		return dk_err_set(err, DK_ENOMEM, "out of memory");
	while (st == DK_OK && dk_run_next(d, &it, &r)) {
		uint64_t keep = r.len;

		if (r.offset < DK_OFF_PAGED) {
			/* Bytes past the end of the file are missing. */
			keep = r.offset >= d->src.size ? 0 : r.len <=
			    d->src.size - r.offset ? r.len : (d->src.size -
			    r.offset) / ps * ps;
			if (!add_piece(p, &cap, r.pa, keep, r.offset))
				st = DK_ENOMEM;
		} else if (r.offset == DK_OFF_ZERO || !probe) {
			if (!add_piece(p, &cap, r.pa, r.len, r.offset))
				st = DK_ENOMEM;
		} else {
			keep = 0;
			for (uint64_t a = r.pa; st == DK_OK && a < r.pa + r.len;
			    a += ps) {
				st = dk_read_pa(d, a, page, (size_t)ps, err);
				if (st == DK_ENOTDUMPED) {
					st = DK_OK;
					continue;
				}
				keep += ps;
				if (st == DK_OK && !add_piece(p, &cap, a, ps,
				    DK_OFF_PAGED))
					st = DK_ENOMEM;
			}
		}
		p->missing += (r.len - keep) / ps;
	}
	free(page);
	if (st == DK_ENOMEM)
		return dk_err_set(err, DK_ENOMEM, "out of memory");
	return st;
}

uint64_t
dk_vmw_direct_map(const struct dk_dump *d, const char **why)
{
	const struct dk_window *w = dk_window_find(d, DK_WIN_DIRECT_MAP);
	uint64_t v, off = 0, l5 = 0;

	*why = "none known: p_vaddr 0";
	if (w != NULL && w->va >= w->pa) {
		*why = "the dump's direct-map window";
		return w->va - w->pa;
	}
	if (vmci(d, "NUMBER(PAGE_OFFSET)", 0, &v)) {
		uint64_t base = 0;

		if (!vmci(d, "NUMBER(phys_ram_base)", 0, &base))
			(void)vmci(d, "NUMBER(PHYS_OFFSET)", 0, &base);
		if (v < base)
			return 0;
		*why = "VMCOREINFO NUMBER(PAGE_OFFSET)";
		return v - base;
	}
	if (d->arch->elf_machine == EM_X86_64 && vmci(d, "KERNELOFFSET", 1,
	    &off) && off == 0) {
		(void)vmci(d, "NUMBER(pgtable_l5_enabled)", 0, &l5);
		*why = l5 ? "x86_64 5-level direct map (KERNELOFFSET 0: no "
		    "KASLR)" : "x86_64 4-level direct map (KERNELOFFSET 0: no "
		    "KASLR)";
		return l5 ? X86_64_DMAP5 : X86_64_DMAP4;
	}
	return 0;
}

/*
 * The kernel image's mapping [*va, *va + *len) at *pa, from the
 * reader's kernel window or x86_64's VMCOREINFO; 0 if none.
 */
static int
kernel_text(const struct dk_dump *d, const struct dk_vmw_plan *p,
    uint64_t *va, uint64_t *pa, uint64_t *len)
{
	const struct dk_window *w = dk_window_find(d, DK_WIN_KERNEL);
	uint64_t stext, pbase = 0, size = X86_64_KIMAGE, hi, v;

	if (w != NULL && w->end > w->va) {
		*va = w->va;
		*pa = w->pa;
		*len = w->end - w->va;
		return 1;
	}
	if (p->machine != EM_X86_64 || !vmci(d, "SYMBOL(_stext)", 1, &stext))
		return 0;
	(void)vmci(d, "NUMBER(phys_base)", 0, &pbase);
	(void)vmci(d, "NUMBER(KERNEL_IMAGE_SIZE)", 0, &size);
	if (stext < X86_64_KMAP || stext - X86_64_KMAP >= size)
		return 0;
	hi = stext;
	for (size_t i = 0; i < dk_nattrs(d); i++) {
		const struct dk_attr *a = dk_attr(d, i);

		if (strncmp(a->name, "SYMBOL(", 7) == 0 &&
		    vmci(d, a->name, 1, &v) && v >= stext &&
		    v - X86_64_KMAP < size && v > hi)
			hi = v;
	}
	hi = (hi - X86_64_KMAP + 1 + VMW_2M - 1) / VMW_2M * VMW_2M +
	    X86_64_KMAP;
	*va = stext;
	*pa = stext - X86_64_KMAP + pbase;
	*len = hi - stext;
	return 1;
}

/* The PT_LOADs of the pieces, their offsets, and the aliases. */
static enum dk_status
plan_loads(struct dk_dump *d, struct dk_vmw_plan *p, struct dk_err *err)
{
	size_t cap = 0, acap = 0;
	uint64_t off = p->data_off, kva, kpa, klen;

	for (size_t i = 0; i < p->npiece; i++) {
		const struct dk_vmw_piece *c = &p->piece[i];
		struct dk_vmw_load *l = p->nload > 0 ? &p->load[p->nload - 1] :
		    NULL;

		if (l != NULL && l->pa + l->len == c->pa) {
			l->len += c->len;
		} else {
			if (!grow((void **)&p->load, &cap, p->nload,
			    sizeof(*p->load)))
				return dk_err_set(err, DK_ENOMEM, "out of "
				    "memory");
			p->load[p->nload++] = (struct dk_vmw_load){ c->pa,
			    c->len, off, p->direct_map != 0 ? p->direct_map +
			    c->pa : 0 };
		}
		off += c->len;
	}
	p->file_size = off;
	if (!kernel_text(d, p, &kva, &kpa, &klen))
		return DK_OK;
	for (size_t i = 0; i < p->nload; i++) {
		const struct dk_vmw_load *l = &p->load[i];
		uint64_t lo = l->pa > kpa ? l->pa : kpa;
		uint64_t hi = l->pa + l->len < kpa + klen ? l->pa + l->len :
		    kpa + klen;

		if (lo >= hi)
			continue;
		if (!grow((void **)&p->alias, &acap, p->nalias,
		    sizeof(*p->alias)))
			return dk_err_set(err, DK_ENOMEM, "out of memory");
		p->alias[p->nalias++] = (struct dk_vmw_load){ lo, hi - lo,
		    l->off + (lo - l->pa), kva + (lo - kpa) };
	}
	return DK_OK;
}

/* ELFCLASS32: every address, size and offset must fit 32 bits. */
static enum dk_status
check_elf32(const struct dk_dump *d, const struct dk_vmw_plan *p,
    struct dk_err *err)
{
	const uint64_t lim = 1ull << 32;

	if (d->arch->elf_class != ELFCLASS32)
		return dk_err_set(err, DK_EINVAL, "%s: ELFCLASS32 is for "
		    "32-bit sources; this %s dump has 64-bit addresses",
		    d->src.name, d->arch->name);
	for (size_t i = 0; i < p->nload; i++)
		if (p->load[i].pa + p->load[i].len > lim ||
		    p->load[i].va + p->load[i].len > lim)
			return dk_err_set(err, DK_EINVAL, "%s: ELFCLASS32 "
			    "cannot hold physical memory at %#jx-%#jx (above "
			    "4 GiB): write ELFCLASS64", d->src.name,
			    (uintmax_t)p->load[i].pa, (uintmax_t)(p->load[i].pa
			    + p->load[i].len));
	if (p->file_size > lim)
		return dk_err_set(err, DK_EINVAL, "%s: ELFCLASS32 cannot hold "
		    "a file of %ju bytes: write ELFCLASS64", d->src.name,
		    (uintmax_t)p->file_size);
	return DK_OK;
}

enum dk_status
dk_vmw_plan(struct dk_dump *d, const struct dk_vmw_opts *o,
    struct dk_vmw_plan *p, struct dk_err *err)
{
	enum dk_status st;
	uint64_t ps = d->page_size, hdrs;
	size_t pass;

	memset(p, 0, sizeof(*p));
	p->cls = o->flags & DK_VMW_ELF32 ? ELFCLASS32 : ELFCLASS64;
	p->e = d->info.endian == DK_BE ? DK_BE : DK_LE;
	p->machine = d->arch->elf_machine;
	if (!dk_vmw_linux(d)) {
		st = dk_err_set(err, DK_EINVAL, "%s: a Linux ELF vmcore is "
		    "written from a Linux dump (kdump-compressed, ELF vmcore), "
		    "not from a %s", d->src.name, d->info.format);
		goto fail;
	}
	if (ps == 0 || (ps & (ps - 1)) != 0) {
		st = dk_err_set(err, DK_EUNSUP, "%s: the page size is not "
		    "known (give it with --arch or VMCOREINFO)", d->src.name);
		goto fail;
	}
	if ((st = plan_notes(d, o, p, err)) != DK_OK ||
	    (st = plan_pieces(d, p, err)) != DK_OK)
		goto fail;
	p->direct_map = dk_vmw_direct_map(d, &p->direct_map_why);
	/*
	 * The aliases' count is known only with the loads, which need the
	 * data's offset, which follows the program headers: plan twice,
	 * the second time with the count the first found.
	 */
	for (pass = 0; pass < 2; pass++) {
		p->nphdr = 1 + p->nload + p->nalias;
		p->xnum = dk_elf_xnum_needed(p->nphdr);
		hdrs = dk_elf_size(DK_ELF_EHDR, p->cls) + p->nphdr *
		    dk_elf_size(DK_ELF_PHDR, p->cls) + (p->xnum ?
		    dk_elf_size(DK_ELF_SHDR, p->cls) : 0);
		p->notes_off = hdrs;
		p->data_off = (hdrs + p->notes_size + ps - 1) / ps * ps;
		p->nload = p->nalias = 0;
		if ((st = plan_loads(d, p, err)) != DK_OK)
			goto fail;
		if (1 + p->nload + p->nalias == p->nphdr)
			break;
	}
	if (p->xnum && p->nphdr > UINT32_MAX) {
		st = dk_err_set(err, DK_ELIMIT, "%s: %ju program headers: more "
		    "than section 0's sh_info can count", d->src.name,
		    (uintmax_t)p->nphdr);
		goto fail;
	}
	if (p->cls == ELFCLASS32 && (st = check_elf32(d, p, err)) != DK_OK)
		goto fail;
	return DK_OK;
fail:
	dk_vmw_plan_free(p);
	return st;
}

/* ---------------------------------------------------------------------- */
/* Writing.                                                                */

static enum dk_status
put_phdr(struct dk_sink *s, const struct dk_vmw_plan *p, uint64_t type,
    uint64_t flags, const struct dk_vmw_load *l, struct dk_err *err)
{
	struct dk_phdr ph = { .type = type, .flags = flags, .offset = l->off,
	    .vaddr = l->va, .paddr = l->pa, .filesz = l->len, .memsz = l->len,
	    .align = 0 };
	uint8_t b[DK_ELF_MAXSZ];

	dk_phdr_encode(b, p->cls, p->e, &ph);
	return dk_sink_write(s, b, dk_elf_size(DK_ELF_PHDR, p->cls), err);
}

/* The headers: ELF header, program headers, section 0, notes, padding. */
static enum dk_status
write_headers(struct dk_sink *s, const struct dk_vmw_plan *p,
    struct dk_err *err)
{
	const struct dk_vmw_load note = { 0, p->notes_size, p->notes_off, 0 };
	const unsigned rwx = PF_R | PF_W | PF_X;
	struct dk_ehdr eh = { 0 };
	struct dk_shdr sh0;
	uint8_t b[DK_ELF_MAXSZ];
	enum dk_status st;
	uint64_t shoff;

	dk_elf_ident(eh.ident, p->cls, p->e, ELFOSABI_NONE);
	eh.type = ET_CORE;
	eh.machine = p->machine;
	eh.version = EV_CURRENT;
	eh.ehsize = dk_elf_size(DK_ELF_EHDR, p->cls);
	eh.phoff = eh.ehsize;
	eh.phentsize = dk_elf_size(DK_ELF_PHDR, p->cls);
	shoff = eh.phoff + p->nphdr * eh.phentsize;
	(void)dk_elf_xnum_put(&eh, &sh0, p->nphdr, shoff);
	dk_ehdr_encode(b, p->cls, p->e, &eh);
	if ((st = dk_sink_write(s, b, eh.ehsize, err)) != DK_OK ||
	    (st = put_phdr(s, p, PT_NOTE, 0, &note, err)) != DK_OK)
		return st;
	for (size_t i = 0; i < p->nalias; i++)
		if ((st = put_phdr(s, p, PT_LOAD, rwx, &p->alias[i], err)) !=
		    DK_OK)
			return st;
	for (size_t i = 0; i < p->nload; i++)
		if ((st = put_phdr(s, p, PT_LOAD, rwx, &p->load[i], err)) !=
		    DK_OK)
			return st;
	if (p->xnum) {
		dk_shdr_encode(b, p->cls, p->e, &sh0);
		if ((st = dk_sink_write(s, b, dk_elf_size(DK_ELF_SHDR, p->cls),
		    err)) != DK_OK)
			return st;
	}
	if ((st = dk_sink_write(s, p->notes, (size_t)p->notes_size, err)) !=
	    DK_OK)
		return st;
	return dk_sink_zero(s, p->data_off - s->pos, err);
}

/* Is the page all zeros? */
static int
zero_page(const uint8_t *b, size_t n)
{
	static const uint8_t z[1u << DK_MAX_PAGE_SHIFT];

	return memcmp(b, z, n) == 0;
}

/* The pages of piece c read by address, VMW_BUF bytes at a time. */
static enum dk_status
write_paged(struct dk_dump *d, struct dk_sink *s, const struct dk_vmw_piece *c,
    uint8_t *buf, struct dk_err *err)
{
	size_t ps = (size_t)d->page_size, fill = 0;
	enum dk_status st = DK_OK;

	dk_src_sequential(&d->src);	/* the pages, in order */
	for (uint64_t a = c->pa; st == DK_OK && a < c->pa + c->len; a += ps) {
		if ((st = dk_read_pa(d, a, buf + fill, ps, err)) != DK_OK)
			break;
		if (zero_page(buf + fill, ps)) {
			/* A hole: what is gathered goes first. */
			if ((st = dk_sink_write(s, buf, fill, err)) == DK_OK)
				st = dk_sink_zero(s, ps, err);
			fill = 0;
			continue;
		}
		if ((fill += ps) + ps > VMW_BUF) {
			st = dk_sink_write(s, buf, fill, err);
			fill = 0;
		}
	}
	if (st == DK_OK && fill > 0)
		st = dk_sink_write(s, buf, fill, err);
	return st;
}

enum dk_status
dk_vmcore_write(struct dk_dump *d, struct dk_sink *s,
    const struct dk_vmw_opts *o, struct dk_vmw_plan *done, struct dk_err *err)
{
	struct dk_vmw_plan p;
	uint8_t *buf = NULL;
	enum dk_status st;

	if ((st = dk_vmw_plan(d, o, &p, err)) != DK_OK)
		return st;
	if ((buf = malloc(VMW_BUF)) == NULL) {
		st = dk_err_set(err, DK_ENOMEM, "out of memory");
		goto out;
	}
	if ((st = write_headers(s, &p, err)) != DK_OK)
		goto out;
	for (size_t i = 0; st == DK_OK && i < p.npiece; i++) {
		const struct dk_vmw_piece *c = &p.piece[i];

		if (c->src == DK_OFF_ZERO)
			st = dk_sink_zero(s, c->len, err);
		else if (c->src == DK_OFF_PAGED)
			st = write_paged(d, s, c, buf, err);
		else
			st = dk_sink_copy(s, &d->src, c->src, c->len, err);
	}
	if (st == DK_OK && s->pos != p.file_size)
		st = dk_err_set(err, DK_EINVAL, "%s: wrote %ju bytes, planned "
		    "%ju", s->name, (uintmax_t)s->pos, (uintmax_t)p.file_size);
	if (st == DK_OK)
		st = dk_sink_finish(s, err);
out:
	free(buf);
	if (done != NULL) {
		*done = p;
		done->load = done->alias = NULL;
		done->piece = NULL;
		done->notes = NULL;
	}
	dk_vmw_plan_free(&p);
	return st;
}
