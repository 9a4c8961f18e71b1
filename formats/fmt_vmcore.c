/*
 * fmt_vmcore.c -- Linux ELF vmcores (issue 13): the kernel's /proc/vmcore
 * as kdump saves it, makedumpfile -E, and QEMU's dump-guest-memory ELF.
 *
 * An ET_CORE of the crashed machine's class and byte order (EI_OSABI 0),
 * PT_NOTE segments (a CORE NT_PRSTATUS per CPU; VMCOREINFO where the
 * kernel exported it; QEMU's own CPU-state notes, s390x's LINUX notes)
 * and PT_LOADs whose p_paddr is the machine-physical address and p_vaddr
 * a kernel virtual address where the writer knew one.  What the writers
 * do that the ELF rules do not say, each seen in real files
 * (shared/real-dumps/README.md) and each named in the "quirks" attribute:
 *  - QEMU 7.x: e_ehsize 8 (ehsize); section headers (NULL, .shstrtab) at
 *    offset 64 with the program headers after them (shdr-first); on a
 *    big-endian guest the .shstrtab header in the host's byte order
 *    (shstrtab-swapped); ELFCLASS64 with EM_386 and 32-bit NT_PRSTATUS
 *    notes for x86 CPUs not in long mode (elf64-em386); paging dumps of
 *    more than 65,534 program headers (pn-xnum: e_phnum PN_XNUM, the
 *    count in section 0's sh_info) whose PT_LOADs share p_offset and
 *    p_paddr by the thousand (aliases), some with non-canonical p_vaddr
 *    (non-canonical); no VMCOREINFO unless the guest exported it.
 *  - The kernel: the kernel-text PT_LOAD inside the direct-map one, the
 *    same physical bytes twice at two offsets (overlap).
 *  - makedumpfile -E: p_memsz > p_filesz, the filtered pages of the tail
 *    left out (excluded).
 *  - A file cut short: PT_LOADs past its end (truncated).
 *
 * The ELF header's e_ehsize and the section headers are not needed and
 * not trusted (section 0 is read for PN_XNUM only).  The program headers
 * are read in chunks and the PT_LOADs indexed once, sorted: physical
 * pieces (disjoint, by p_paddr; where segments overlap, the bytes of the
 * one that starts lower are the dump's, of two that start together the
 * earlier program header's, and the overlap is counted as an alias when
 * both put the address at the same file offset, else as an overlap,
 * which dumpcheck compares byte by byte), and virtual pieces by p_vaddr.
 * Memory and time are so proportional to the program headers, n log n.
 *
 * Physical reads are machine-physical, by p_paddr; an address in no
 * PT_LOAD, past a p_filesz or past the end of a truncated file is
 * DK_ENOTDUMPED naming the segment and the range, never zeros.  The
 * physical ranges (dk_phys_range) are the union of the segments'
 * [p_paddr, p_paddr + p_filesz), the runs those of them the file holds.
 * Kernel virtual addresses go through the p_vaddr of the segments that
 * carry one (p_vaddr != p_paddr), else dk_linux_kvtop (linux.h).
 *
 * ELF segments are byte-addressed: physical reads need no page size.  The
 * page size reported is VMCOREINFO's PAGESIZE, else the architecture's
 * where Linux has one only, else the opener's (--page-size), else 0
 * (unknown: aarch64 and ppc64 without VMCOREINFO), and the attribute
 * page_size_source says which, and what an unknown one leaves undone.  The reads' own granule (the
 * library's d->page_size) is the largest power of two, at most the page
 * size, that every segment boundary is a multiple of.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "dkelf.h"
#include "linux.h"
#include "portable.h"
#include "private.h"

#define	VMC_MAX_PHNUM		(1u << 24)	/* program headers read */
#define	VMC_PH_CHUNK		(1u << 20)	/* their bytes per read */
#define	VMC_PROBE_PHDRS		4096u	/* searched for notes by the probe */
#define	VMC_PROBE_NOTES		256u
#define	VMC_MAX_NOTE_DESC	(1u << 20)	/* a descriptor read whole */
#define	VMC_MAX_CPUS		4096u		/* CPUs given attributes */
#define	VMC_GRANULE_MAX		(1u << 12)	/* the reads' granule */
#define	VMC_GRANULE_MIN		64u	/* dumpcheck hashes 64-byte blocks */
#define	VMC_NT_PRSTATUS		1
#define	VMC_NT_PRPSINFO		3
#define	VMC_NT_AUXV		6
#define	VMC_NT_FILE		0x46494c45u
#define	VMC_SHT_STRTAB		3u

/* A piece of memory: [addr, addr + len) at file offset off (and pa). */
struct vmc_piece {
	uint64_t	addr;
	uint64_t	len;
	uint64_t	off;
	uint64_t	pa;		/* virtual pieces: PA of addr */
	uint64_t	va;		/* physical: p_vaddr at addr, 0: none */
	uint64_t	ph;		/* its program header's index */
};

/* A physical range the dump does not hold, and why. */
enum { VMC_EXCLUDED = 1, VMC_PAST_EOF, VMC_UNALIGNED };
struct vmc_hole {
	uint64_t	pa;
	uint64_t	len;
	uint64_t	ph;
	int		why;
};

struct dk_vmcore {
	unsigned	 cls;
	enum dk_endian	 e;
	uint64_t	 phoff, phnum;
	struct vmc_piece *phys;		/* sorted, disjoint, in the file */
	size_t		 nphys;
	struct vmc_piece *virt;		/* sorted by addr, disjoint */
	size_t		 nvirt;
	struct vmc_hole	*hole;		/* sorted by pa */
	size_t		 nhole;
	uint64_t	 nload, naliases, noverlaps, nnoncanon, nexcluded;
	uint64_t	 missing;	/* bytes past the end of the file */
	char		 quirks[256];
	/*
	 * Where the vmcore's bytes are in d's file (vmc_at).  Natively at
	 * their own offsets, hlen (the source header: every byte before
	 * the first PT_LOAD's data) and data both that first offset; read
	 * from a portable file (docs/portable-elf-minidump.md, 10.2), its
	 * [0, hlen) in the source header note at hoff and the rest from
	 * data on.  size is the vmcore's own size.
	 */
	int		 mapped;
	uint64_t	 hoff, hlen, data, size;
	struct dk_range	 note[64];	/* its PT_NOTE segments, d's offsets */
	size_t		 nnote;
	char		 noport[256];	/* why it does not convert, or "" */
};

/* A portable file's vmcore: the source header note, the page data. */
struct vmc_map {
	uint64_t		 hoff, hlen, data;
	const struct dk_arch	*row;	/* the info note's */
};

static struct dk_vmcore *
vmc(const struct dk_dump *d)
{
	return d->priv;
}

/*
 * *fo: the offset in d's file of the vmcore's bytes [o, o + len), the
 * source header's or the page data's; 0 if they straddle the two.
 */
static int
vmc_at(const struct dk_vmcore *v, uint64_t o, uint64_t len, uint64_t *fo)
{
	if (!v->mapped) {
		*fo = o;
		return 1;
	}
	if (o < v->hlen) {
		if (len > v->hlen - o)
			return 0;
		*fo = v->hoff + o;
		return 1;
	}
	*fo = v->data + (o - v->hlen);
	return 1;
}

/*
 * The vmcore's bytes [o, o + len), what, straddle its source header's
 * end: natively, the reason it does not convert (the first one); read
 * from a portable file, an error.
 */
static enum dk_status
vmc_straddle(struct dk_dump *d, const char *what, uint64_t o, uint64_t len,
    struct dk_err *err)
{
	struct dk_vmcore *v = vmc(d);

	if (o >= v->hlen || len <= v->hlen - o)
		return DK_OK;
	if (v->mapped)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, v->hoff,
		    "the source header note has %#jx bytes, but the vmcore's "
		    "%s [%#jx, %#jx) runs past its end", (uintmax_t)v->hlen,
		    what, (uintmax_t)o, (uintmax_t)(o + len));
	if (v->noport[0] == '\0')
		snprintf(v->noport, sizeof(v->noport), "the vmcore's %s "
		    "[%#jx, %#jx) runs into its first PT_LOAD's data at %#jx: "
		    "a source header that holds it would hold segment data",
		    what, (uintmax_t)o, (uintmax_t)(o + len),
		    (uintmax_t)v->hlen);
	return DK_OK;
}

/* ---------------------------------------------------------------------- */
/* Probe: a Linux kernel's ELF core, by its notes.                         */


static const struct dk_arch *machine_row(unsigned, unsigned, enum dk_endian,
    int *);
static int	linux_row(const struct dk_arch *);

/*
 * A file cut before its notes (or whose e_phoff is past its end) has
 * no notes to tell: it is taken for a vmcore by its ELF header alone
 * when that is complete and a Linux writer's (ET_CORE, EI_OSABI 0,
 * e_machine of a row a Linux vmcore has), so that dumpcheck reports
 * the truncation.  The portable file's header is the same: one cut
 * there is reported as truncated either way (check_vmcore.c).
 */
static int
header_alone(const struct dk_src *src, const uint8_t *eh,
    const struct dk_ehdr *h, int have_note, int phdrs_in, int notes_in)
{
	unsigned cls = eh[EI_CLASS];
	int other;

	if (eh[EI_OSABI] != ELFOSABI_NONE || src->size < dk_elf_size(
	    DK_ELF_EHDR, cls) || !linux_row(machine_row((unsigned)h->machine,
	    cls, dk_elf_endian(eh), &other)))
		return 0;
	return !phdrs_in || (have_note && !notes_in);
}

int
dk_vmcore_is(const struct dk_src *src)
{
	uint8_t eh[64] = { 0 };
	unsigned cls;
	enum dk_endian e;
	struct dk_ehdr h;
	struct dk_err err;
	uint64_t phnum, notes = 0;
	int kernel = 0, vmci = 0, proc = 0, phdrs_in, notes_in = 0;
	int have_note = 0;

	if (src->size < 52 || dk_src_pread(src, eh, src->size < 64 ?
	    (size_t)src->size : 64, 0, "ELF header", &err) != DK_OK)
		return 0;
	cls = eh[EI_CLASS];
	if (!dk_elf_magic(eh) || (cls != ELFCLASS32 && cls != ELFCLASS64) ||
	    (eh[EI_DATA] != ELFDATA2LSB && eh[EI_DATA] != ELFDATA2MSB) ||
	    eh[EI_OSABI] == ELFOSABI_STANDALONE ||
	    eh[EI_OSABI] == ELFOSABI_FREEBSD)
		return 0;
	e = dk_elf_endian(eh);
	dk_ehdr_decode(eh, cls, e, &h);
	if (h.type != ET_CORE || h.phentsize != dk_elf_size(DK_ELF_PHDR, cls))
		return 0;
	switch (dk_elf_phnum(src, &h, &phnum, &err)) {
	case DK_OK:
		break;
	case DK_NOMATCH:	/* PN_XNUM, section 0 past the end */
		return header_alone(src, eh, &h, 0, 0, 0);
	default:
		return 0;
	}
	phdrs_in = h.phoff <= src->size && phnum <= (src->size - h.phoff) /
	    h.phentsize;
	if (phnum > VMC_PROBE_PHDRS)
		phnum = VMC_PROBE_PHDRS;
	for (uint64_t i = 0; i < phnum && notes < VMC_PROBE_NOTES; i++) {
		struct dk_note_iter it;
		struct dk_phdr ph;
		struct dk_note nt;

		if (dk_phdr_read(src, h.phoff + i * h.phentsize, cls, e, &ph,
		    "program header", &err) != DK_OK)
			break;
		if (ph.type != PT_NOTE)
			continue;
		have_note = 1;
		notes_in |= ph.offset < src->size && src->size - ph.offset >=
		    DK_NHDR_SIZE;
		dk_note_iter_init(&it, src, ph.offset, ph.offset + ph.filesz, e,
		    "the PT_NOTE segment");
		while (notes++ < VMC_PROBE_NOTES &&
		    dk_note_next(&it, &nt, &err) == DK_OK) {
			/* A portable file of a vmcore: the notes are copies. */
			if (notes == 1 && dk_note_is(&nt, DK_PNOTE_NAME) &&
			    nt.type == DK_PNOTE_BASE + DK_PN_INFO)
				return 0;
			if (dk_note_is(&nt, "CORE") && (nt.type ==
			    VMC_NT_PRPSINFO || nt.type == VMC_NT_AUXV ||
			    nt.type == VMC_NT_FILE))
				proc = 1;
			if (dk_note_is(&nt, "VMCOREINFO"))
				vmci = 1;
			if (dk_note_is(&nt, "QEMU") || (dk_note_is(&nt, "CORE") &&
			    nt.type == VMC_NT_PRSTATUS))
				kernel = 1;
		}
	}
	/* A process core, unless VMCOREINFO says a kernel's (/proc/kcore). */
	if (vmci || (kernel && !proc))
		return 2;
	return !proc && header_alone(src, eh, &h, have_note, phdrs_in,
	    notes_in);
}

static enum dk_status
vmc_probe(const struct dk_src *src, struct dk_err *err)
{
	(void)err;
	return dk_vmcore_is(src) ? DK_OK : DK_NOMATCH;
}

/* ---------------------------------------------------------------------- */
/* The architecture, the CPUs' registers.                                  */

/*
 * A Linux struct elf_prstatus per architecture: its size, the word size
 * of its fields, and which words of pr_reg (at 112 in a 64-bit one, 72
 * in a 32-bit one; pr_pid at 32 or 24) are the PC and the SP
 * (user_regs_struct, user_pt_regs, s390_regs, pt_regs).  x86 rows share
 * a group: QEMU writes 32-bit notes for CPUs not in long mode.
 */
static const struct vmc_prs {
	const char	*row;
	const char	*group;
	uint32_t	 size;
	uint8_t		 long_size;
	uint8_t		 pc, sp;
} prs[] = {
	{ "amd64", "x86", 336, 8, 16, 19 },	/* rip, rsp */
	{ "i386", "x86", 144, 4, 12, 15 },	/* eip, esp */
	{ "aarch64", NULL, 392, 8, 32, 31 },	/* pc, sp */
	{ "riscv64", NULL, 376, 8, 0, 2 },	/* pc, sp */
	{ "powerpc64", NULL, 504, 8, 32, 1 },	/* nip, gpr1 */
	{ "powerpc64le", NULL, 504, 8, 32, 1 },
	{ "s390x", NULL, 336, 8, 1, 17 },	/* psw.addr, gpr15 */
	{ "arm", NULL, 148, 4, 15, 13 },	/* r15, r13 */
	{ "armeb", NULL, 148, 4, 15, 13 },
};

/* Does a Linux kernel of row a write vmcores (a row of prs[])? */
static int
linux_row(const struct dk_arch *a)
{
	for (size_t i = 0; a != NULL && i < DK_ARRAY_LEN(prs); i++)
		if (strcmp(prs[i].row, a->name) == 0)
			return 1;
	return 0;
}

/* The NT_PRSTATUS layout of row a for a descriptor of size bytes. */
static const struct vmc_prs *
prs_of(const struct dk_arch *a, uint64_t size)
{
	const char *group = NULL;

	for (size_t i = 0; i < DK_ARRAY_LEN(prs); i++)
		if (strcmp(prs[i].row, a->name) == 0) {
			if (prs[i].size == size)
				return &prs[i];
			group = prs[i].group;
		}
	for (size_t i = 0; group != NULL && i < DK_ARRAY_LEN(prs); i++)
		if (prs[i].group != NULL && strcmp(prs[i].group, group) == 0 &&
		    prs[i].size == size)
			return &prs[i];
	return NULL;
}

/* Linux's one page size on the architectures that have one. */
static const struct {
	const char	*row;
	uint32_t	 page_size;
} arch_pages[] = {
	{ "amd64", 4096 }, { "i386", 4096 }, { "s390x", 4096 },
	{ "riscv64", 4096 }, { "arm", 4096 }, { "armeb", 4096 },
};

/*
 * The row of e_machine in the file's byte order: of the file's class if
 * one is (kexec writes 32-bit headers for some 64-bit kernels too), else
 * of either class (QEMU's ELFCLASS64 EM_386).
 */
static const struct dk_arch *
machine_row(unsigned machine, unsigned cls, enum dk_endian e, int *other)
{
	const struct dk_arch *a, *any = NULL;

	for (size_t i = 0; (a = dk_arch_at(i)) != NULL; i++) {
		if (a->elf_machine != machine || a->endian != e)
			continue;
		if (a->elf_class == cls) {
			*other = 0;
			return a;
		}
		if (any == NULL)
			any = a;
	}
	*other = any != NULL;
	return any;
}

static enum dk_status
choose_row(struct dk_dump *d, const struct dk_ehdr *h,
    const struct dk_open_opts *o, struct dk_err *err)
{
	unsigned cls = h->ident[EI_CLASS];
	const struct dk_arch *want;
	int other;

	d->arch = machine_row((unsigned)h->machine, cls, d->info.endian,
	    &other);
	if (d->arch == NULL)
		return dk_err_at(err, DK_EUNSUP, d->src.name, dk_elf_off(
		    DK_E_MACHINE, cls), "e_machine %ju (ELFCLASS%u, %s-endian):"
		    " no architecture dumpkit knows", (uintmax_t)h->machine,
		    cls == ELFCLASS64 ? 64 : 32, d->info.endian == DK_BE ?
		    "big" : "little");
	d->info.arch_by = DK_BY_HEADER;
	snprintf(d->arch_why, sizeof(d->arch_why), "the vmcore's ELF header "
	    "(e_machine %ju, class %u, data %u%s)", (uintmax_t)h->machine, cls,
	    h->ident[EI_DATA], other ? ", the machine's other class: as QEMU "
	    "writes x86 CPUs not in long mode" : "");
	if (o != NULL && o->arch != NULL) {
		if ((want = dk_arch_by_name(o->arch)) == NULL)
			return dk_err_set(err, DK_EINVAL, "unknown "
			    "architecture '%s'", o->arch);
		if (want != d->arch)
			return dk_err_at(err, DK_EINVAL, d->src.name, 0, "the "
			    "vmcore's ELF header says %s, not %s (--arch)",
			    d->arch->name, want->name);
		d->info.arch_by = DK_BY_OPTION;
		snprintf(d->arch_why, sizeof(d->arch_why), "--arch %s, as the "
		    "vmcore's ELF header says", o->arch);
	}
	return DK_OK;
}

/* ---------------------------------------------------------------------- */
/* Notes.                                                                  */

/* Linux's note types dumpkit names, by owner. */
static const struct {
	const char	*owner;
	uint32_t	 type;
	const char	*name;
} note_names[] = {
	{ "CORE", 1, "NT_PRSTATUS" }, { "CORE", 2, "NT_FPREGSET" },
	{ "CORE", 3, "NT_PRPSINFO" }, { "CORE", 0x202, "NT_X86_XSTATE" },
	{ "CORE", 0x100, "NT_PPC_VMX" }, { "CORE", 0x102, "NT_PPC_VSX" },
	{ "LINUX", 0x100, "NT_PPC_VMX" }, { "LINUX", 0x102, "NT_PPC_VSX" },
	{ "LINUX", 0x300, "NT_S390_HIGH_GPRS" },
	{ "LINUX", 0x301, "NT_S390_TIMER" },
	{ "LINUX", 0x302, "NT_S390_TODCMP" },
	{ "LINUX", 0x303, "NT_S390_TODPREG" },
	{ "LINUX", 0x304, "NT_S390_CTRS" },
	{ "LINUX", 0x305, "NT_S390_PREFIX" },
	{ "LINUX", 0x309, "NT_S390_VXRS_LOW" },
	{ "LINUX", 0x30a, "NT_S390_VXRS_HIGH" },
	{ "LINUX", 0x30b, "NT_S390_GS_CB" }, { "LINUX", 0x400, "NT_ARM_VFP" },
	{ "QEMU", 0, "CPU state" }, { "VMCOREINFO", 0, "VMCOREINFO" },
};

/* What the note walk counts and lists. */
struct vmc_notes {
	char		 list[1024];	/* "CORE NT_PRSTATUS x2, ..." */
	struct {
		char	 key[48];
		uint64_t n;
	} seen[24];
	size_t		 nseen;
	uint64_t	 ncpu, nqemu;
	int		 have_vmci;
	int		 failed;	/* a walk failed: notes_error says */
	struct dk_err	 err;
	const struct dk_arch *vi_row;
	const char	*vi_key;
};

/* Count one note of owner and type in n's list. */
static void
notes_count(struct vmc_notes *n, const struct dk_note *nt)
{
	const char *owner = nt->have_name ? (const char *)nt->name : "?";
	char key[48];
	size_t i;

	snprintf(key, sizeof(key), "%.20s %#jx", owner, (uintmax_t)nt->type);
	for (i = 0; i < DK_ARRAY_LEN(note_names); i++)
		if (dk_note_is(nt, note_names[i].owner) &&
		    nt->type == note_names[i].type) {
			snprintf(key, sizeof(key), "%s %s", note_names[i].owner,
			    note_names[i].name);
			break;
		}
	for (i = 0; i < n->nseen; i++)
		if (strcmp(n->seen[i].key, key) == 0)
			break;
	if (i == n->nseen) {
		if (n->nseen == DK_ARRAY_LEN(n->seen))
			return;
		memcpy(n->seen[n->nseen++].key, key, sizeof(key));
	}
	n->seen[i].n++;
}

static void
cpu_attr(struct dk_dump *d, uint64_t cpu, const char *what, uint64_t v,
    const char *source)
{
	char name[48];

	snprintf(name, sizeof(name), "cpu.%ju.%s", (uintmax_t)cpu, what);
	dk_add_attr_num(d, name, DK_ATTR_NUMBER, v, source);
}

/* An NT_PRSTATUS's pid, PC and SP as attributes of CPU n->ncpu. */
static void
note_prstatus(struct dk_dump *d, struct vmc_notes *n, const uint8_t *b,
    uint64_t size)
{
	const struct vmc_prs *p = prs_of(d->arch, size);
	unsigned ls, reg;

	if (n->ncpu++ >= VMC_MAX_CPUS)
		return;
	if (p == NULL) {
		cpu_attr(d, n->ncpu - 1, "prstatus_size", size, "NT_PRSTATUS");
		return;
	}
	ls = p->long_size;
	reg = ls == 8 ? 112 : 72;
	cpu_attr(d, n->ncpu - 1, "pid", dec_uint(b + (ls == 8 ? 32 : 24), 4,
	    d->info.endian), "NT_PRSTATUS");
	cpu_attr(d, n->ncpu - 1, "pc", dec_uint(b + reg + p->pc * ls, ls,
	    d->info.endian), "NT_PRSTATUS");
	cpu_attr(d, n->ncpu - 1, "sp", dec_uint(b + reg + p->sp * ls, ls,
	    d->info.endian), "NT_PRSTATUS");
}

/*
 * QEMU's x86 CPU state (target/i386/arch_dump.c, QEMUCPUState): version
 * and size, 16 general registers, rip, rflags, 10 segments of 24 bytes,
 * cr[5]: cr3 (the page-table root) is at 416.
 */
static void
note_qemu(struct dk_dump *d, struct vmc_notes *n, const uint8_t *b,
    uint64_t size)
{
	if (n->nqemu++ >= VMC_MAX_CPUS || size < 424)
		return;
	cpu_attr(d, n->nqemu - 1, "cr3", dec_uint(b + 416, 8, d->info.endian),
	    "QEMU note");
}

/* Walk the notes of one PT_NOTE segment [off, off + size). */
static enum dk_status
walk_notes(struct dk_dump *d, struct vmc_notes *n, uint64_t off,
    uint64_t size, struct dk_err *err)
{
	struct dk_note_iter it;
	struct dk_note nt;
	enum dk_status st;
	uint8_t *b = NULL;

	dk_add_section(d, "notes", off, size, size);
	dk_note_iter_init(&it, &d->src, off, off + size, d->info.endian,
	    "the PT_NOTE segment");
	while ((st = dk_note_next(&it, &nt, &n->err)) == DK_OK) {
		int prstatus = dk_note_is(&nt, "CORE") &&
		    nt.type == VMC_NT_PRSTATUS;
		int qemu = dk_note_is(&nt, "QEMU") && nt.type == 0;
		int vmci = dk_note_is(&nt, "VMCOREINFO") && !n->have_vmci;

		notes_count(n, &nt);
		if (!prstatus && !qemu && !vmci)
			continue;
		if (nt.descsz > VMC_MAX_NOTE_DESC) {
			st = dk_err_at(&n->err, DK_ELIMIT, d->src.name, nt.off,
			    "a note's descriptor of %#jx bytes is larger than "
			    "the %#x dumpkit reads", (uintmax_t)nt.descsz,
			    VMC_MAX_NOTE_DESC);
			break;
		}
		free(b);
		if ((b = calloc(1, (size_t)nt.descsz + 1)) == NULL)
			return dk_err_set(err, DK_ENOMEM, "%s: out of memory",
			    d->src.name);
		if ((st = dk_src_pread(&d->src, b, (size_t)nt.descsz,
		    nt.desc_off, "note descriptor", &n->err)) != DK_OK)
			break;
		if (prstatus)
			note_prstatus(d, n, b, nt.descsz);
		else if (qemu)
			note_qemu(d, n, b, nt.descsz);
		else {
			n->have_vmci = 1;
			dk_add_section(d, "vmcoreinfo", nt.desc_off, nt.descsz,
			    nt.descsz);
			if ((st = dk_vmcoreinfo_attrs(d, (const char *)b,
			    (size_t)nt.descsz, &n->vi_row, &n->vi_key, err)) !=
			    DK_OK)
				break;
		}
	}
	free(b);
	if (st == DK_NOMATCH || st == DK_ECORRUPT || st == DK_ETRUNC ||
	    st == DK_ELIMIT) {
		/* A damaged note ends the walk; the memory is still read. */
		if (st != DK_NOMATCH && !n->failed) {
			n->failed = 1;
			dk_add_attr_str(d, "notes_error", n->err.msg,
			    "PT_NOTE");
		}
		return DK_OK;
	}
	if (st != DK_OK)
		*err = n->err;
	return st;
}

/* ---------------------------------------------------------------------- */
/* The PT_LOAD index.                                                      */

static int
piece_cmp(const void *a, const void *b)
{
	const struct vmc_piece *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->ph < y->ph ? -1 : x->ph > y->ph;
}

static int
hole_cmp(const void *a, const void *b)
{
	const struct vmc_hole *x = a, *y = b;

	return x->pa < y->pa ? -1 : x->pa > y->pa;
}

/*
 * Sort p[0..n) and make its pieces disjoint: where they overlap, the
 * bytes of the piece that starts lower stay (at the same address, the
 * earlier program header's), and the overlap is an alias
 * (*alias) when the later one puts it at the same file offset and PA,
 * else an overlap (*over).  Pieces contiguous in address, offset, PA and
 * VA (where they have one) are merged.  Returns the new count.
 */
static size_t
sweep(struct vmc_piece *p, size_t n, uint64_t *alias, uint64_t *over)
{
	size_t k = 0;
	uint64_t end = 0;

	qsort(p, n, sizeof(*p), piece_cmp);
	for (size_t i = 0; i < n; i++) {
		struct vmc_piece x = p[i];
		uint64_t xend = x.addr + x.len;

		if (k > 0 && x.addr < end) {
			const struct vmc_piece *l = &p[k - 1];

			if (x.addr >= l->addr && x.off - x.addr == l->off -
			    l->addr && x.pa - x.addr == l->pa - l->addr)
				(*alias)++;
			else
				(*over)++;
			if (xend <= end)
				continue;
			x.off += end - x.addr;
			x.pa += end - x.addr;
			if (x.va != 0)
				x.va += end - x.addr;
			x.len = xend - end;
			x.addr = end;
		}
		if (k > 0 && p[k - 1].addr + p[k - 1].len == x.addr &&
		    p[k - 1].off + p[k - 1].len == x.off &&
		    p[k - 1].pa + p[k - 1].len == x.pa &&
		    (p[k - 1].va == 0 ? x.va == 0 :
		    p[k - 1].va + p[k - 1].len == x.va))
			p[k - 1].len += x.len;
		else
			p[k++] = x;
		end = x.addr + x.len;
	}
	return k;
}

/* Is va canonical for a 48-bit x86_64 or aarch64 address space? */
static int
canonical48(uint64_t va)
{
	uint64_t top = va >> 47;

	return top == 0 || top == (UINT64_MAX >> 47);
}

/* Add name to the quirks list. */
static void
quirk(struct dk_vmcore *v, const char *name)
{
	size_t l = strlen(v->quirks);

	if (strstr(v->quirks, name) != NULL)
		return;
	snprintf(v->quirks + l, sizeof(v->quirks) - l, "%s%s", l ? "," : "",
	    name);
}

/*
 * Read the program headers: PT_NOTEs into *notes (their offsets and
 * sizes, at most nmax), PT_LOADs into the physical and virtual pieces
 * and the holes.
 */
static enum dk_status
read_phdrs(struct dk_dump *d, const struct dk_ehdr *h, struct dk_range *notes,
    size_t nmax, size_t *nnotes, struct dk_err *err)
{
	struct dk_vmcore *v = vmc(d);
	unsigned cls = v->cls, pes = dk_elf_size(DK_ELF_PHDR, cls);
	uint64_t allones = cls == ELFCLASS64 ? UINT64_MAX : UINT32_MAX;
	uint8_t *buf;
	size_t cap = 0;
	enum dk_status st = DK_OK;

	if ((buf = malloc(VMC_PH_CHUNK)) == NULL ||
	    (v->phys = calloc(v->phnum ? v->phnum : 1, sizeof(*v->phys))) ==
	    NULL ||
	    (v->virt = calloc(v->phnum ? v->phnum : 1, sizeof(*v->virt))) ==
	    NULL) {
		free(buf);
		return dk_err_set(err, DK_ENOMEM, "%s: out of memory",
		    d->src.name);
	}
	*nnotes = 0;
	for (uint64_t i = 0; i < v->phnum; ) {
		uint64_t k = VMC_PH_CHUNK / pes;
		uint64_t at = h->phoff + i * pes;

		if (k > v->phnum - i)
			k = v->phnum - i;
		if ((st = dk_src_pread(&d->src, buf, (size_t)(k * pes), at,
		    "program headers", err)) != DK_OK)
			break;
		for (uint64_t j = 0; j < k; j++, i++) {
			struct dk_phdr p;
			uint64_t pho = at + j * pes;

			dk_phdr_decode(buf + j * pes, cls, v->e, &p);
			if (p.type == PT_NOTE) {
				if (*nnotes < nmax)
					notes[(*nnotes)++] = (struct dk_range){
					    p.offset, p.filesz };
				continue;
			}
			if (p.type != PT_LOAD)
				continue;
			if (p.filesz > p.memsz || p.offset + p.filesz <
			    p.offset || p.paddr + p.memsz - 1 < p.paddr ||
			    p.paddr + p.memsz - 1 > allones) {
				st = dk_err_at(err, DK_ECORRUPT, d->src.name,
				    pho, "PT_LOAD %ju: p_offset %#jx, p_paddr "
				    "%#jx, p_filesz %#jx, p_memsz %#jx: p_filesz"
				    " larger than p_memsz, or past the top of "
				    "the file or address space", (uintmax_t)i,
				    (uintmax_t)p.offset, (uintmax_t)p.paddr,
				    (uintmax_t)p.filesz, (uintmax_t)p.memsz);
				goto out;
			}
			if (p.memsz == 0)
				continue;
			if (p.filesz > 0 && !v->mapped && p.offset < v->hlen)
				v->hlen = p.offset;
			if (p.filesz > 0 && v->mapped && (p.offset < v->hlen ||
			    p.filesz > UINT64_MAX - v->data ||
			    p.offset - v->hlen > UINT64_MAX - v->data -
			    p.filesz)) {
				st = dk_err_at(err, DK_ECORRUPT, d->src.name,
				    pho, "PT_LOAD %ju: p_offset %#jx is inside "
				    "the source header note's %#jx bytes, or "
				    "past 2^64 from data_offset: the note is "
				    "not the vmcore's bytes before its first "
				    "segment", (uintmax_t)i,
				    (uintmax_t)p.offset, (uintmax_t)v->hlen);
				goto out;
			}
			if (p.filesz > 0 && v->mapped)
				p.offset = v->data + (p.offset - v->hlen);
			v->nload++;
			if (p.memsz > p.filesz) {
				if (v->nhole == cap) {
					size_t nc = cap ? cap * 2 : 64;
					void *nh = realloc(v->hole, nc *
					    sizeof(*v->hole));

					if (nh == NULL) {
						st = dk_err_set(err, DK_ENOMEM,
						    "%s: out of memory",
						    d->src.name);
						goto out;
					}
					v->hole = nh;
					cap = nc;
				}
				v->hole[v->nhole++] = (struct vmc_hole){
				    p.paddr + p.filesz, p.memsz - p.filesz, i,
				    VMC_EXCLUDED };
				v->nexcluded++;
			}
			if (p.filesz == 0)
				continue;
			v->phys[v->nphys++] = (struct vmc_piece){ p.paddr,
			    p.filesz, p.offset, p.paddr, p.vaddr, i };
			if (v->e == DK_LE && cls == ELFCLASS64 &&
			    d->arch->elf_class == ELFCLASS64 && p.vaddr != 0 &&
			    !canonical48(p.vaddr))
				v->nnoncanon++;
			if (p.vaddr != p.paddr && p.vaddr != 0 &&
			    p.vaddr + p.filesz - 1 >= p.vaddr)
				v->virt[v->nvirt++] = (struct vmc_piece){
				    p.vaddr, p.filesz, p.offset, p.paddr, 0, i };
		}
	}
out:
	free(buf);
	return st;
}

/*
 * Each segment keeps the whole granules of g the file holds: what is
 * past the end of the file, or of a granule cut (a boundary not a
 * multiple of VMC_GRANULE_MIN), becomes a hole.
 */
static enum dk_status
clip_eof(struct dk_dump *d, uint64_t g, struct dk_err *err)
{
	struct dk_vmcore *v = vmc(d);
	uint64_t size = d->src.size;
	size_t k = 0;
	void *nh;

	if ((nh = realloc(v->hole, (v->nhole + 3 * v->nphys + 1) *
	    sizeof(*v->hole))) == NULL)
		return dk_err_set(err, DK_ENOMEM, "%s: out of memory",
		    d->src.name);
	v->hole = nh;
	for (size_t i = 0; i < v->nphys; i++) {
		struct vmc_piece p = v->phys[i];
		uint64_t a = p.addr, e = p.addr + p.len, fe = a, ra, re;

		if (p.off < size)
			fe = size - p.off < p.len ? a + (size - p.off) : e;
		ra = a % g == 0 ? a : a - a % g + g;
		re = fe - fe % g;
		if (ra < a || re <= ra)
			ra = re = a;	/* no whole granule */
		if (ra > a)
			v->hole[v->nhole++] = (struct vmc_hole){ a, ra - a,
			    p.ph, VMC_UNALIGNED };
		/* A fragment before the end of the file is past it, too. */
		if (e > fe) {
			v->hole[v->nhole++] = (struct vmc_hole){ re, e - re,
			    p.ph, VMC_PAST_EOF };
			v->missing += e - fe;
		} else if (fe > re)
			v->hole[v->nhole++] = (struct vmc_hole){ re, fe - re,
			    p.ph, VMC_UNALIGNED };
		if (re > ra) {
			p.off += ra - a;
			if (p.va != 0)
				p.va += ra - a;
			p.pa = p.addr = ra;
			p.len = re - ra;
			v->phys[k++] = p;
		}
	}
	v->nphys = k;
	if (v->nhole > 1)
		qsort(v->hole, v->nhole, sizeof(*v->hole), hole_cmp);
	return DK_OK;
}

/*
 * The largest power of two <= max that divides every piece boundary,
 * and at least VMC_GRANULE_MIN (dumpcheck's digest hashes 64-byte blocks):
 * a piece that ends inside a granule keeps its whole granules, the rest
 * is not dumped.
 */
static uint64_t
granule(const struct dk_vmcore *v, uint64_t max)
{
	uint64_t bits = max;

	for (size_t i = 0; i < v->nphys; i++)
		bits |= v->phys[i].addr | (v->phys[i].addr + v->phys[i].len);
	bits &= -bits;
	return bits < VMC_GRANULE_MIN ? VMC_GRANULE_MIN : bits;
}

/* dk_phys_range: the union of the segments' dumped ranges (sorts them). */
static enum dk_status
phys_ranges(struct dk_dump *d, struct dk_err *err)
{
	struct dk_vmcore *v = vmc(d);
	size_t n = 0;

	qsort(v->phys, v->nphys, sizeof(*v->phys), piece_cmp);
	if ((d->avail = calloc(v->nphys ? v->nphys : 1, sizeof(*d->avail))) ==
	    NULL)
		return dk_err_set(err, DK_ENOMEM, "%s: out of memory",
		    d->src.name);
	for (size_t i = 0; i < v->nphys; i++) {
		const struct vmc_piece *p = &v->phys[i];

		if (n > 0 && d->avail[n - 1].end >= p->addr) {
			if (p->addr + p->len > d->avail[n - 1].end)
				d->avail[n - 1].end = p->addr + p->len;
		} else
			d->avail[n++] = (struct dk_range){ p->addr,
			    p->addr + p->len };
	}
	d->navail = n;
	return DK_OK;
}

/* Pages of page size ps touched by the ranges [r, r + n). */
static uint64_t
pages_of(const struct vmc_piece *p, size_t n, uint64_t ps)
{
	uint64_t count = 0, last = UINT64_MAX;

	for (size_t i = 0; i < n; i++) {
		uint64_t a = p[i].addr / ps, b = (p[i].addr + p[i].len - 1) /
		    ps;

		count += b - a + 1 - (a == last);
		last = b;
	}
	return count;
}

/* ---------------------------------------------------------------------- */
/* Open.                                                                   */

/* The producer, from what the file shows. */
static const char *
producer(const struct dk_vmcore *v, const struct vmc_notes *n,
    const struct dk_ehdr *h)
{
	if (n->nqemu > 0 || strstr(v->quirks, "ehsize") != NULL ||
	    strstr(v->quirks, "shdr-first") != NULL)
		return "QEMU";
	if (v->nexcluded > 0)
		return "makedumpfile";
	(void)h;
	return "kernel";
}

static void vmc_close(struct dk_dump *);

/*
 * Set d up from its vmcore: natively (m NULL) d's file; from a portable
 * file, m's source header note and page data (vmc_at).
 */
static enum dk_status
vmc_setup(struct dk_dump *d, const struct dk_open_opts *o,
    const struct vmc_map *m, struct dk_err *err)
{
	struct dk_vmcore *v;
	uint8_t eh[64] = { 0 };
	struct dk_ehdr h, hm;
	uint64_t at, shlen = 0;
	struct dk_range notes[64];
	struct vmc_notes nn;
	size_t nnotes = 0;
	uint64_t phend, ps = 0, g;
	const struct dk_attr *a;
	const char *ps_src = "unknown: no VMCOREINFO PAGESIZE and the "
	    "architecture has several; physical reads need none, page-granular "
	    "work (page tables, page-based formats) needs --page-size";
	enum dk_status st;

	memset(&nn, 0, sizeof(nn));
	if ((d->priv = v = calloc(1, sizeof(*v))) == NULL)
		return dk_err_set(err, DK_ENOMEM, "%s: out of memory",
		    d->src.name);
	v->size = d->src.size;
	if (m != NULL) {
		v->mapped = 1;
		v->hoff = m->hoff;
		v->hlen = m->hlen;
		v->data = m->data;
		v->size = m->hlen + (d->src.size - m->data);
	}
	if (!vmc_at(v, 0, v->size < 64 ? v->size : 64, &at))
		return vmc_straddle(d, "ELF header", 0, 64, err);
	if ((st = dk_src_pread(&d->src, eh, v->size < 64 ?
	    (size_t)v->size : 64, at, "ELF header", err)) != DK_OK)
		return st;
	v->cls = eh[EI_CLASS];
	v->e = dk_elf_endian(eh);
	/* The probe saw a native file's; a note's is checked here. */
	if (v->mapped && (!dk_elf_magic(eh) || (v->cls != ELFCLASS32 &&
	    v->cls != ELFCLASS64) || (eh[EI_DATA] != ELFDATA2LSB &&
	    eh[EI_DATA] != ELFDATA2MSB) || v->e != m->row->endian ||
	    dec_uint(eh + EI_NIDENT, 2, v->e) != ET_CORE))
		return dk_err_at(err, DK_ECORRUPT, d->src.name, at, "the "
		    "source header note does not start with the ELF header of "
		    "a %s-endian ET_CORE (a vmcore's): %02x %02x %02x %02x, "
		    "class %u, data %u", m->row->endian == DK_BE ? "big" :
		    "little", eh[0], eh[1], eh[2], eh[3], eh[EI_CLASS],
		    eh[EI_DATA]);
	if (v->size < dk_elf_size(DK_ELF_EHDR, v->cls))
		return dk_err_at(err, DK_ETRUNC, d->src.name, 0, "the ELF "
		    "header needs %u bytes, the file has %ju",
		    dk_elf_size(DK_ELF_EHDR, v->cls), (uintmax_t)v->size);
	dk_ehdr_decode(eh, v->cls, v->e, &h);
	/* hm: the header with its tables' offsets in d's file. */
	hm = h;
	if (h.phnum == PN_XNUM || (h.shnum >= 2 && h.shentsize ==
	    dk_elf_size(DK_ELF_SHDR, v->cls)))
		shlen = (uint64_t)(h.shnum >= 2 ? 2 : 1) * h.shentsize;
	if (shlen > 0 && (!vmc_at(v, h.shoff, shlen, &hm.shoff)))
		return vmc_straddle(d, "section headers", h.shoff, shlen, err);
	d->info.endian = v->e;
	d->info.format = "vmcore";
	d->info.version = (uint32_t)h.version;
	if ((st = choose_row(d, &h, o, err)) != DK_OK)
		return st;
	d->info.arch = d->arch->name;
	d->info.arch_why = d->arch_why;
	if (h.phentsize != dk_elf_size(DK_ELF_PHDR, v->cls))
		return dk_err_at(err, DK_ECORRUPT, d->src.name, dk_elf_off(
		    DK_E_PHENTSIZE, v->cls), "expected e_phentsize %u, found "
		    "%ju", dk_elf_size(DK_ELF_PHDR, v->cls),
		    (uintmax_t)h.phentsize);
	if (h.ehsize != dk_elf_size(DK_ELF_EHDR, v->cls))
		quirk(v, "ehsize");
	if (h.shoff != 0 && h.shoff < h.phoff)
		quirk(v, "shdr-first");
	if ((eh[EI_CLASS] == ELFCLASS64) != (d->arch->elf_class ==
	    ELFCLASS64))
		quirk(v, "elf64-em386");
	if (h.shnum >= 2 && h.shentsize == dk_elf_size(DK_ELF_SHDR, v->cls)) {
		struct dk_shdr sh;
		struct dk_err e2;

		if (dk_shdr_read(&d->src, &hm, 1, &sh, &e2) == DK_OK &&
		    sh.type != VMC_SHT_STRTAB &&
		    __builtin_bswap32((uint32_t)sh.type) == VMC_SHT_STRTAB)
			quirk(v, "shstrtab-swapped");
	}
	st = dk_elf_phnum(&d->src, &hm, &v->phnum, err);
	if (st == DK_NOMATCH)
		return dk_err_at(err, DK_ETRUNC, d->src.name, dk_elf_off(
		    DK_E_PHNUM, v->cls), "e_phnum is PN_XNUM (%#x), but "
		    "section header 0 at e_shoff %#jx, which holds the count, "
		    "is past the end of the file", PN_XNUM,
		    (uintmax_t)h.shoff);
	if (st != DK_OK)
		return st;
	if (h.phnum == PN_XNUM)
		quirk(v, "pn-xnum");
	if (v->phnum == 0 || v->phnum > VMC_MAX_PHNUM)
		return dk_err_at(err, v->phnum == 0 ? DK_ECORRUPT : DK_ELIMIT,
		    d->src.name, dk_elf_off(DK_E_PHNUM, v->cls), "%ju program "
		    "headers: expected 1 to %u", (uintmax_t)v->phnum,
		    VMC_MAX_PHNUM);
	v->phoff = h.phoff;
	phend = h.phoff + v->phnum * h.phentsize;
	if (h.phoff > v->size || phend > v->size)
		return dk_err_at(err, DK_ETRUNC, d->src.name, dk_elf_off(
		    DK_E_PHOFF, v->cls), "the %ju program headers at e_phoff "
		    "%#jx end at %#jx, past the end of the file at %#jx",
		    (uintmax_t)v->phnum, (uintmax_t)h.phoff, (uintmax_t)phend,
		    (uintmax_t)v->size);
	dk_add_section(d, "elf headers", 0, phend, phend);
	if (!vmc_at(v, h.phoff, phend - h.phoff, &hm.phoff))
		return vmc_straddle(d, "program headers", h.phoff,
		    phend - h.phoff, err);
	if (!v->mapped)
		v->hlen = v->size;	/* read_phdrs lowers it */
	if ((st = read_phdrs(d, &hm, notes, DK_ARRAY_LEN(notes), &nnotes,
	    err)) != DK_OK)
		return st;
	if (!v->mapped) {
		v->data = v->hlen;
		(void)vmc_straddle(d, "ELF header", 0, dk_elf_size(
		    DK_ELF_EHDR, v->cls), err);
		if (shlen > 0)
			(void)vmc_straddle(d, "section headers", h.shoff,
			    shlen, err);
		(void)vmc_straddle(d, "program headers", h.phoff,
		    phend - h.phoff, err);
	}
	/* Notes, then VMCOREINFO's facts. */
	for (size_t i = 0; i < nnotes; i++) {
		if (notes[i].start > v->size || notes[i].end >
		    v->size - notes[i].start) {
			if (!nn.failed) {
				char msg[160];

				nn.failed = 1;
				snprintf(msg, sizeof(msg), "the PT_NOTE segment "
				    "[%#jx, +%#jx) extends past the end of the "
				    "file at %#jx", (uintmax_t)notes[i].start,
				    (uintmax_t)notes[i].end,
				    (uintmax_t)v->size);
				dk_add_attr_str(d, "notes_error", msg,
				    "PT_NOTE");
			}
			if (notes[i].start > v->size)
				continue;
			notes[i].end = v->size - notes[i].start;
		}
		if ((st = vmc_straddle(d, "PT_NOTE segment", notes[i].start,
		    notes[i].end, err)) != DK_OK)
			return st;
		if (!vmc_at(v, notes[i].start, notes[i].end, &at))
			continue;	/* natively: noport says why */
		v->note[v->nnote++] = (struct dk_range){ at, notes[i].end };
		if ((st = walk_notes(d, &nn, at, notes[i].end, err)) != DK_OK)
			return st;
	}
	if (!nn.have_vmci)
		quirk(v, "no-vmcoreinfo");
	if ((a = dk_attr_find(d, "PAGESIZE")) != NULL &&
	    dk_parse_u64(a->str, &ps) == 0 && ps >= 1024 &&
	    ps <= (1u << DK_MAX_PAGE_SHIFT) && (ps & (ps - 1)) == 0)
		ps_src = "VMCOREINFO PAGESIZE";
	else {
		ps = 0;
		for (size_t i = 0; i < DK_ARRAY_LEN(arch_pages); i++)
			if (strcmp(arch_pages[i].row, d->arch->name) == 0) {
				ps = arch_pages[i].page_size;
				ps_src = "the architecture: Linux has one page "
				    "size there";
			}
		/* dk_open checks a --page-size against the others. */
		if (ps == 0 && o != NULL && o->page_size != 0) {
			ps = o->page_size;
			ps_src = "--page-size";
		}
	}
	if ((a = dk_attr_find(d, "CRASHTIME")) != NULL) {
		uint64_t t;

		if (dk_parse_u64(a->str, &t) == 0)
			dk_add_attr_num(d, "dump_time", DK_ATTR_TIME, t,
			    "VMCOREINFO");
	}
	/*
	 * The reads' granule; the ranges; what the file holds of each
	 * segment (so that where segments overlap, bytes the file has are
	 * never hidden by a segment it lacks); then the pieces.
	 */
	g = granule(v, ps != 0 && ps < VMC_GRANULE_MAX ? ps : VMC_GRANULE_MAX);
	if ((st = phys_ranges(d, err)) != DK_OK ||
	    (st = clip_eof(d, g, err)) != DK_OK)
		return st;
	v->nphys = sweep(v->phys, v->nphys, &v->naliases, &v->noverlaps);
	{
		uint64_t va = 0, vo = 0;

		v->nvirt = sweep(v->virt, v->nvirt, &va, &vo);
	}
	if (v->naliases > 0)
		quirk(v, "aliases");
	if (v->noverlaps > 0)
		quirk(v, "overlap");
	if (v->nnoncanon > 0)
		quirk(v, "non-canonical");
	if (v->nexcluded > 0)
		quirk(v, "excluded");
	if (v->missing > 0)
		quirk(v, "truncated");
	d->page_size = g;
	d->page_shift = (unsigned)__builtin_ctzll(g);
	d->info.page_size = (uint32_t)ps;
	{
		uint64_t cps = ps != 0 ? ps : 4096;
		struct vmc_piece *all = NULL;

		d->info.npages = 0;
		/* The dumped pages: the ranges, as pieces. */
		if ((all = calloc(d->navail ? d->navail : 1, sizeof(*all))) ==
		    NULL)
			return dk_err_set(err, DK_ENOMEM, "%s: out of memory",
			    d->src.name);
		for (size_t i = 0; i < d->navail; i++) {
			all[i].addr = d->avail[i].start;
			all[i].len = d->avail[i].end - d->avail[i].start;
		}
		d->info.npages = pages_of(all, d->navail, cps);
		free(all);
		/* Pages of which the file holds a byte (a cut one counts). */
		d->info.npages_present = pages_of(v->phys, v->nphys, cps);
		if (d->info.npages_present > d->info.npages)
			d->info.npages_present = d->info.npages;
	}
	if (v->nphys > 0)
		dk_add_section(d, "pages", v->phys[0].off, d->src.size -
		    v->phys[0].off, d->src.size - v->phys[0].off);
	dk_add_attr_str(d, "producer", producer(v, &nn, &h), "ELF layout");
	dk_add_attr_str(d, "page_size_source", ps_src, "vmcore reader");
	dk_add_attr_num(d, "cpus", DK_ATTR_NUMBER, nn.ncpu, "NT_PRSTATUS");
	{
		char list[1024] = "";
		size_t l = 0;

		for (size_t i = 0; i < nn.nseen && l < sizeof(list); i++)
			l += (size_t)snprintf(list + l, sizeof(list) - l,
			    "%s%s x%ju", i ? ", " : "", nn.seen[i].key,
			    (uintmax_t)nn.seen[i].n);
		dk_add_attr_str(d, "notes", list, "PT_NOTE");
	}
	dk_add_attr_num(d, "pt_loads", DK_ATTR_NUMBER, v->nload, "ELF layout");
	if (v->naliases > 0)
		dk_add_attr_num(d, "pt_load_aliases", DK_ATTR_NUMBER,
		    v->naliases, "ELF layout");
	if (v->noverlaps > 0)
		dk_add_attr_num(d, "pt_load_overlaps", DK_ATTR_NUMBER,
		    v->noverlaps, "ELF layout");
	if (v->missing > 0)
		dk_add_attr_num(d, "bytes_past_eof", DK_ATTR_NUMBER,
		    v->missing, "ELF layout");
	dk_add_attr_str(d, "quirks", v->quirks[0] != '\0' ? v->quirks : "none",
	    "ELF layout");
	DK_TRACE(d, "vmcore: %ju program headers, %ju PT_LOADs -> %zu "
	    "physical pieces, %zu virtual; granule %#jx; quirks %s",
	    (uintmax_t)v->phnum, (uintmax_t)v->nload, v->nphys, v->nvirt,
	    (uintmax_t)g, v->quirks);
	return DK_OK;
}

static enum dk_status
vmc_open(struct dk_dump *d, const struct dk_open_opts *o, struct dk_err *err)
{
	return vmc_setup(d, o, NULL, err);
}

static void
vmc_close(struct dk_dump *d)
{
	struct dk_vmcore *v = d->priv;

	if (v != NULL) {
		free(v->phys);
		free(v->virt);
		free(v->hole);
		free(v);
		d->priv = NULL;
	}
}

/* ---------------------------------------------------------------------- */
/* Reads.                                                                  */

/* The piece of p[0..n) holding addr, or NULL. */
static const struct vmc_piece *
find_piece(const struct vmc_piece *p, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (addr < p[mid].addr)
			hi = mid;
		else if (addr - p[mid].addr >= p[mid].len)
			lo = mid + 1;
		else
			return &p[mid];
	}
	return NULL;
}

/* The hole holding pa, or NULL (excluded tails may overlap: look back). */
static const struct vmc_hole *
find_hole(const struct dk_vmcore *v, uint64_t pa)
{
	size_t lo = 0, hi = v->nhole;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v->hole[mid].pa <= pa)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo, k = 0; i > 0 && k < 64; i--, k++)
		if (pa - v->hole[i - 1].pa < v->hole[i - 1].len)
			return &v->hole[i - 1];
	return NULL;
}

static enum dk_status
vmc_pa_offset(struct dk_dump *d, uint64_t pa, uint64_t *off,
    struct dk_err *err)
{
	const struct dk_vmcore *v = vmc(d);
	const struct vmc_piece *p = find_piece(v->phys, v->nphys, pa);
	const struct vmc_hole *h;

	if (p != NULL) {
		*off = p->off + (pa - p->addr);
		return DK_OK;
	}
	if (d->probing || (h = find_hole(v, pa)) == NULL)
		return dk_err_miss(d, err, DK_ENOTDUMPED, "physical address "
		    "%#jx is in no PT_LOAD of the vmcore", (uintmax_t)pa);
	if (h->why == VMC_UNALIGNED)
		return dk_err_set(err, DK_ENOTDUMPED, "physical address %#jx: "
		    "PT_LOAD %ju's bytes [%#jx, %#jx) are a fragment smaller than "
		    "the reads' granule of %ju bytes: not read", (uintmax_t)pa,
		    (uintmax_t)h->ph, (uintmax_t)h->pa,
		    (uintmax_t)(h->pa + h->len), (uintmax_t)d->page_size);
	if (h->why == VMC_PAST_EOF)
		return dk_err_set(err, DK_ENOTDUMPED, "physical address %#jx: "
		    "PT_LOAD %ju puts [%#jx, %#jx) past the end of the "
		    "truncated file (%#jx bytes): not in the dump",
		    (uintmax_t)pa, (uintmax_t)h->ph, (uintmax_t)h->pa,
		    (uintmax_t)(h->pa + h->len), (uintmax_t)d->src.size);
	return dk_err_set(err, DK_ENOTDUMPED, "physical address %#jx: in "
	    "[%#jx, %#jx), past p_filesz of PT_LOAD %ju (p_memsz > p_filesz: "
	    "pages the dump excluded, as makedumpfile does with filtered "
	    "pages)", (uintmax_t)pa, (uintmax_t)h->pa,
	    (uintmax_t)(h->pa + h->len), (uintmax_t)h->ph);
}

static enum dk_status
vmc_kvtop(struct dk_dump *d, uint64_t va, uint64_t *pa, struct dk_err *err)
{
	const struct dk_vmcore *v = vmc(d);
	const struct vmc_piece *p = find_piece(v->virt, v->nvirt, va);

	if (p != NULL) {
		*pa = p->pa + (va - p->addr);
		return DK_OK;
	}
	return dk_linux_kvtop(d, va, pa, err);
}

static int
vmc_run_next(const struct dk_dump *d, struct dk_run_iter *it,
    struct dk_run *run)
{
	const struct dk_vmcore *v = vmc(d);
	const struct vmc_piece *p;

	if (it->range >= v->nphys)
		return 0;
	p = &v->phys[it->range++];
	run->pa = p->addr;
	run->len = p->len;
	run->offset = p->off;
	return 1;
}

/*
 * Does a physical PT_LOAD of the portable file give the byte at x of
 * virtual piece p (the same VA for the same PA at the same offset)?
 * *n: how many bytes from x on have the same answer.
 */
static int
vmc_given(const struct dk_vmcore *v, const struct vmc_piece *p, uint64_t x,
    uint64_t *n)
{
	uint64_t pa = p->pa + x, left = p->len - x;
	const struct vmc_piece *q = find_piece(v->phys, v->nphys, pa);
	size_t lo = 0, hi = v->nphys;

	if (q != NULL) {
		*n = q->addr + q->len - pa < left ? q->addr + q->len - pa :
		    left;
		return q->va != 0 && q->va - q->addr == p->addr - p->pa &&
		    q->off - q->addr == p->off - p->pa;
	}
	while (lo < hi) {	/* the first physical piece above pa */
		size_t mid = lo + (hi - lo) / 2;

		if (v->phys[mid].addr <= pa)
			lo = mid + 1;
		else
			hi = mid;
	}
	*n = lo < v->nphys && v->phys[lo].addr - pa < left ?
	    v->phys[lo].addr - pa : left;
	return 0;
}

/*
 * The kernel-map walk of the portable writer: the segments' own p_vaddr
 * mappings, the virtual pieces (by VA, disjoint), less what the physical
 * PT_LOADs' p_vaddr already give; it->va counts the pieces, it->probes
 * the bytes of the current one done.
 */
static int
vmc_kmap_next(struct dk_dump *d, struct dk_kmap_iter *it,
    struct dk_kmap_run *run, struct dk_err *err)
{
	const struct dk_vmcore *v = vmc(d);

	(void)err;
	while (!it->done && it->va < v->nvirt) {
		const struct vmc_piece *p = &v->virt[it->va];
		uint64_t start = it->probes, end = start, n;

		while (end < p->len) {
			int given = vmc_given(v, p, end, &n);

			if (given && end > start)
				break;
			end += n;
			if (given)
				start = end;
		}
		it->probes = end;
		if (end >= p->len) {
			it->va++;
			it->probes = 0;
		}
		if (end > start) {
			*run = (struct dk_kmap_run){ p->addr + start, p->pa +
			    start, end - start, p->off + start,
			    DK_PROT_W | DK_PROT_X };
			return 1;
		}
	}
	it->done = 1;
	return 0;
}

/* ---------------------------------------------------------------------- */
/* In the portable ELF minidump (portable.h, docs/portable-elf-minidump.md */
/* 10.2): the source header note is the vmcore's bytes before its first   */
/* PT_LOAD's data (ELF header, section and program headers, notes, quirks */
/* and all) and the page data the rest of the file, verbatim, trailing    */
/* bytes and a cut last segment included; the native rebuild is the note  */
/* then the data.  The source's notes are copied after dumpkit's, so that */
/* the portable file is a vmcore to makedumpfile and libkdumpfile too.     */

/* Rows a Linux vmcore can be of: those whose NT_PRSTATUS is known. */
static int
vmc_row_ok(const struct dk_arch *a)
{
	for (size_t i = 0; i < DK_ARRAY_LEN(prs); i++)
		if (strcmp(prs[i].row, a->name) == 0)
			return 1;
	return 0;
}

static enum dk_status
vmc_convertible(const struct dk_dump *d, struct dk_err *err)
{
	const struct dk_vmcore *v = vmc(d);

	if (v->noport[0] != '\0')
		return dk_err_set(err, DK_EUNSUP, "%s: %s; it does not convert "
		    "to the portable format (dumpconv --to elf writes a clean "
		    "vmcore)", d->src.name, v->noport);
	if (v->hlen > UINT32_MAX - 8)
		return dk_err_set(err, DK_ELIMIT, "%s: the vmcore's %#jx bytes "
		    "before its first segment are more than a note holds",
		    d->src.name, (uintmax_t)v->hlen);
	return DK_OK;
}

/*
 * The source's notes, copied whole into the portable PT_NOTE: those of
 * each PT_NOTE segment in turn, up to the first that does not walk (the
 * rest of that segment is left out), but dumpkit's own (a vmcore made
 * from a portable file's bytes), which would be taken for the portable
 * file's.  With s NULL, only count the bytes.
 */
static enum dk_status
src_notes(struct dk_dump *d, struct dk_sink *s, uint64_t *bytes,
    struct dk_err *err)
{
	const struct dk_vmcore *v = vmc(d);
	enum dk_status st = DK_OK;

	*bytes = 0;
	for (size_t i = 0; i < v->nnote && st == DK_OK; i++) {
		struct dk_note_iter it;
		struct dk_note n;
		struct dk_err e2;

		dk_note_iter_init(&it, &d->src, v->note[i].start,
		    v->note[i].start + v->note[i].end, v->e,
		    "the PT_NOTE segment");
		while (st == DK_OK && dk_note_next(&it, &n, &e2) == DK_OK) {
			uint64_t len = it.off - n.off;

			if (dk_note_is(&n, DK_PNOTE_NAME))
				continue;
			*bytes += len;
			if (s != NULL)
				st = dk_sink_copy(s, &d->src, n.off, len, err);
		}
	}
	return st;
}

static uint64_t
vmc_notes_size(const struct dk_dump *d, const struct dk_plan *pl)
{
	uint64_t n;
	struct dk_err e2;

	(void)pl;
	(void)src_notes((struct dk_dump *)d, NULL, &n, &e2);
	return dk_pnote_size(vmc(d)->hlen) + n;
}

static enum dk_status
vmc_notes(struct dk_dump *d, const struct dk_plan *pl, struct dk_sink *s,
    struct dk_err *err)
{
	const struct dk_vmcore *v = vmc(d);
	uint64_t n;
	enum dk_status st;

	(void)pl;
	if ((st = dk_pnote_copy(s, d, DK_PN_SOURCE_HEADER, v->hoff, v->hlen,
	    err)) != DK_OK)
		return st;
	return src_notes(d, s, &n, err);
}

static uint64_t
vmc_extent(const struct dk_dump *d, uint64_t *len)
{
	const struct dk_vmcore *v = vmc(d);

	*len = d->src.size > v->data ? d->src.size - v->data : 0;
	return v->data;
}

/* The vmcore: its source header, then the rest of its bytes. */
static enum dk_status
vmc_rebuild(struct dk_dump *d, struct dk_sink *s, const struct dk_plan *pl,
    struct dk_err *err)
{
	const struct dk_vmcore *v = vmc(d);
	enum dk_status st;

	if ((st = dk_sink_copy(s, &d->src, v->hoff, v->hlen, err)) != DK_OK)
		return st;
	return dk_sink_copy(s, &d->src, pl->src_off, pl->present, err);
}

/* A physical PT_LOAD's p_vaddr: the source's at pa, or 0 if none. */
static uint64_t
vmc_pvaddr(const struct dk_dump *d, uint64_t pa)
{
	const struct dk_vmcore *v = vmc(d);
	const struct vmc_piece *q = find_piece(v->phys, v->nphys, pa);

	return q != NULL && q->va != 0 ? q->va + (pa - q->addr) : 0;
}

static enum dk_status
vmc_popen(struct dk_dump *d, const struct dk_pctx *c, struct dk_err *err)
{
	const struct dk_pnote *hn = &c->notes[DK_PN_SOURCE_HEADER];
	uint64_t data;
	enum dk_decided by = d->info.arch_by;
	char why[sizeof(d->arch_why)];
	struct vmc_map m;
	enum dk_status st;

	if (!hn->seen)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, c->noff,
		    "expected a source header note (the vmcore's bytes "
		    "before its first segment), found none");
	if ((st = dk_pdata_offset(d, c, &data, err)) != DK_OK)
		return st;
	m = (struct vmc_map){ hn->off, hn->size, data, c->row };
	/* What decided the architecture is the portable reader's to say. */
	memcpy(why, d->arch_why, sizeof(why));
	d->fmt = &dk_fmt_vmcore;
	st = vmc_setup(d, NULL, &m, err);
	memcpy(d->arch_why, why, sizeof(why));
	d->info.arch_by = by;
	if (st != DK_OK) {
		/* Offsets below hn->size may be the vmcore's: say whose. */
		size_t l = strlen(err->msg);

		snprintf(err->msg + l, sizeof(err->msg) - l, " (reading the "
		    "vmcore whose first %#jx bytes are the source header note "
		    "at %#jx, the rest the page data at %#jx)",
		    (uintmax_t)hn->size, (uintmax_t)hn->off, (uintmax_t)data);
		return st;
	}
	return dk_popen_done(d, c, data, "the source ELF header",
	    "the vmcore's program headers", err);
}

/* The page data keeps the vmcore's alignment: data_offset = h mod a page. */
static uint64_t
vmc_phase(const struct dk_dump *d)
{
	return vmc(d)->hlen;
}

static const struct dk_portable vmc_portable = {
	.id		= 4,
	.name		= "Linux ELF vmcore",
	.noun		= "Linux ELF vmcore",
	.row_ok		= vmc_row_ok,
	.open		= vmc_popen,
	.extent		= vmc_extent,
	.convertible	= vmc_convertible,
	.notes_size	= vmc_notes_size,
	.notes		= vmc_notes,
	.rebuild	= vmc_rebuild,
	.pvaddr		= vmc_pvaddr,
	.phase		= vmc_phase,
	.align_zero	= 1,
};

const struct dk_format_ops dk_fmt_vmcore = {
	.name		= "vmcore",
	.desc		= "Linux ELF vmcore (/proc/vmcore, makedumpfile -E, QEMU "
			  "dump-guest-memory)",
	.probe		= vmc_probe,
	.open		= vmc_open,
	.close		= vmc_close,
	.pa_offset	= vmc_pa_offset,
	.kvtop		= vmc_kvtop,
	.read_log	= dk_linux_read_log,
	.run_next	= vmc_run_next,
	.kmap_next	= vmc_kmap_next,
	.portable	= &vmc_portable,
	.check		= &dk_vmcore_check,
};
