/*
 * arch_powerpc64.c -- powerpc64 minidumps: header layout, the hashed
 * page table and the radix tree, and address translation (FORMATS.md
 * 1.2 "powerpc64", 2.7, 2.8).
 *
 * Version 1 (2019-12) and version 2 (2020-09, adds dumpavailsize and
 * the dump_avail section).  The header is the kernel's struct
 * minidumphdr, memcpy'd into a zeroed page in the kernel's byte order:
 * big-endian on powerpc64, little-endian on powerpc64le.  Its int
 * hw_direct_map at 112 is followed by 4 bytes of padding before the
 * u64 startkernel (offset 120); version 2 ends with 4 bytes of tail
 * padding (sizeof 144).  Neither padding is read.  Bitmap words are
 * 8 bytes in both versions.  mmu_name (pmap_mmu_name()) says which
 * page table the pmap area holds:
 *
 *  - "mmu_g5" (bare metal, moea64_native) and "mmu_phyp" (PAPR guest):
 *    the whole hashed page table, pmapsize / 128 PTE groups (PTEGs) of
 *    8 PTEs of 16 bytes, pte_hi then pte_lo.
 *  - "mmu_radix" (POWER9 radix MMU): exactly 65536 bytes, the root
 *    table of 8192 entries; lower tables are pages of the dump.
 *
 * Translation of a kernel virtual address va (libkvm's order):
 *  1. va < dmapbase is a link-time address of the kernel (linked at
 *     0x100100, KERNBASE): it moves by startkernel - 0x100100, the run
 *     address of the relocatable kernel (a direct-map address) minus
 *     its link address.  Every address below dmapbase moves, as in
 *     libkvm, not only those of the kernel image.
 *  2. dmapbase <= va <= dmapend (inclusive): pa = va - dmapbase.
 *  3. va >= kernbase: the hashed page table or the radix tree.
 *  4. Anything else is not mapped.
 *
 * Linux's kernels (linux.c) are walked by ppc64_radix_walk from their
 * own root, with each table's size from the entry above it.
 * The generic minidump code translates [dmapbase, dmapend] itself
 * (its window ends at dmapend + 1, exclusive); an address below dmapbase
 * is never in that window, so it reaches this file's kvtop, which does
 * steps 1 to 4.
 *
 * Hashed page table search (FORMATS.md 2.7; PowerISA 5.7.7): a segment
 * is 256 MiB, ESID = va >> 28, and every kernel segment has VSID
 * ((((esid << 8) | (esid >> 28)) * 0x13bb) & (2^36 - 1)) | 2^36.  As
 * libkvm, the segments searched are those of [kernbase, kernend), with
 * 4 KiB base pages, then those of [dmapbase, min(dmapend, dmapbase +
 * bitmapsize * 8 * 4096)), with 16 MiB base pages when hw_direct_map
 * is set; the kernel's segments are found first.  With b the base page
 * shift, va_page = (va & 0x0fffffff) >> b, the primary hash is (vsid &
 * 0x7fffffffff) ^ va_page, the secondary hash ~primary & 0x7fffffffff,
 * and the PTEG is hash & (nPTEG - 1): two groups, 16 probes, no more.
 * A PTE matches when V is set, H is 0 in the primary group and 1 in the
 * secondary, B (segment size) is 256 MiB, the AVA's VSID is vsid, the
 * AVA's page bits ((pte_hi & 0xf80) >> 7) >> s_ava equal va_page >>
 * s_va, (s_ava, s_va) = (0, 11) for 4 KiB and (1, 0) for 16 MiB, and L
 * is set exactly for 16 MiB.  pa = (pte_lo & 0x0ffffffffffff000) |
 * (va & 0xfff), or for 16 MiB (pte_lo & 0x0fffffffff000000) |
 * (va & 0xffffff).  16 MiB pages are thus searched only in direct-map
 * segments, which libkvm reaches only for an address past dmapend in
 * dmapend's own segment when that segment is not the kernel's: no
 * FreeBSD layout has one (the kernel's own 16 MiB PTEs are the direct
 * map's, translated by step 2), but the rule is kept exactly.
 *
 * Radix walk (FORMATS.md 2.8): root index (va >> 39) & 8191, then
 * tables of 512 entries indexed by (va >> 30), (va >> 21), (va >> 12)
 * & 511, each at entry & 0x00ffffffffffff00 in the dump.  Valid is bit
 * 63, leaf bit 62; a leaf at shift S maps 2^S bytes: pa = (entry &
 * 0x00fffffffffff000 & ~(2^S - 1)) | (va & (2^S - 1)).  Four reads at
 * most.
 *
 * Decisions where FORMATS.md is unverified (read in freebsd-src:
 * sys/powerpc/powerpc/minidump_machdep.c, sys/powerpc/aim/
 * moea64_native.c, sys/powerpc/pseries/mmu_phyp.c, sys/powerpc/aim/
 * mmu_radix.c, sys/powerpc/include/mmuvar.h, lib/libkvm/
 * kvm_minidump_powerpc64*.c and lib/libkvm/tests/kvm_open2_test.c):
 *  - Header byte order: the kernel's (memcpy of the struct).  libkvm's
 *    big-endian decode of every field is not repeated; the row comes
 *    from the version field, which is 1 or 2 in one byte order only.
 *  - PTE byte order of the hashed page table, by mmu_name:
 *    mmu_g5 -- always big-endian.  The dump is a copy of the hardware
 *      table (moea64_dump_pmap_native returns a pointer into it), which
 *      the kernel writes with htobe64 and reads with be64toh on
 *      powerpc64le as well.
 *    mmu_phyp -- the kernel's byte order.  Each PTE is the pair of
 *      registers H_READ returns, stored as native u64s
 *      (mphyp_dump_pmap), so little-endian on powerpc64le.
 *    DK_TRACE reports the choice when a dump is opened.
 *  - Radix: mmu_name is "mmu_radix" (MMU_TYPE_RADIX in mmuvar.h, and
 *    the 2026 libkvm test writes it); radix entries are big-endian
 *    whatever the kernel's byte order (mmu_radix.c reads every entry
 *    with be64toh; libkvm decodes root and tables with be64toh).  Read
 *    in both versions, written by the generator in version 2 only.
 *  - Radix addresses: the tree maps the 2^52 bytes of quadrant 3 (top
 *    12 bits 0xc00).  An address whose top 12 bits differ is not
 *    mapped; libkvm ignores those bits and would alias it onto the
 *    tree.  info.kva_end is 0xc010000000000000.
 *  - Direct map: pa = va - dmapbase for dmapbase <= va <= dmapend, as
 *    libkvm's radix reader and the generic code compute it.  libkvm's
 *    HPT reader computes va & ~dmapbase, which is the same value for
 *    every header whose dmapend - dmapbase is below the lowest set bit
 *    of dmapbase (all FreeBSD ones: 0xc000000000000000); for others
 *    DK_TRACE says that the two readings differ.
 *  - hw_direct_map other than 0 or 1 is refused (libkvm takes any
 *    nonzero value as 1); dmapend below dmapbase is refused.
 *  - pmapsize, hashed page table: a multiple of 128 whose PTEG count
 *    is a power of two and at least 2048 (the architecture's smallest
 *    table, HTABSIZE 0; the kernel never makes a smaller one).  With
 *    fewer PTEGs the group index and the AVA no longer name one page,
 *    so a match could be another page's.  Radix: exactly 65536.
 *    Anything else is DK_ECORRUPT naming offset 76.
 *  - Protection: writable unless PP (pte_lo & 3) is 3, read-only;
 *    executable unless N (pte_lo & 4).  libkvm calls PP 3 writable and
 *    inverts N.  Radix: EAA W (0x2) and X (0x1).
 *
 * The generator's hashed page table is a real one of at least 2048
 * PTEGs: the 16 MiB PTEs of the direct map when hw_direct_map is set,
 * then unwired 4 KiB PTEs of user address spaces (VSIDs without the
 * kernel bit, from a fixed pseudo-random sequence) until 70% of the
 * slots are taken, then the wired PTEs of the kernel map, each in the
 * first free slot of its primary group, else of its secondary group
 * (H set), else in place of an unwired PTE, as moea64_pte_insert
 * does; so some kernel PTEs sit in secondary groups.  The kernel image
 * is not in the kernel map: it runs in the direct map, at startkernel,
 * and the fixture reaches it through a window from its link address.
 *
 * The constants are spelled out here, never taken from a host header,
 * so that this file builds and is tested on any host.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "kthreads.h"
#include "private.h"

#define	PPC64_PAGE_SHIFT	12
#define	PPC64_PAGE_SIZE		(1ull << PPC64_PAGE_SHIFT)
#define	PPC64_LINK_BASE		0x100100ull	/* KERNBASE: link address */
#define	PPC64_SEG_SHIFT		28		/* 256 MiB segments */
#define	PPC64_SEG_SIZE		(1ull << PPC64_SEG_SHIFT)
#define	PPC64_ESID_LIMIT	(1ull << 36)	/* ESIDs of a 64-bit EA */
#define	PPC64_LP_SHIFT		24		/* 16 MiB pages */
#define	PPC64_LP_SIZE		(1ull << PPC64_LP_SHIFT)
#define	PPC64_KERNEL_VSID_BIT	(1ull << 36)
#define	PPC64_VSID_MULT		0x13bbull

/* Hashed page table (pte.h, PowerISA 5.7.7). */
#define	PPC64_PTEG_BYTES	128u		/* 8 PTEs of 16 bytes */
#define	PPC64_PTEG_MIN		2048u		/* 2^11: HTABSIZE 0 */
#define	PPC64_PTEG_MAX		(1u << 24)	/* pmapsize fits 32 bits */
#define	PPC64_HASH_MASK		0x7fffffffffull	/* 39 hash bits */
#define	PPC64_PTEH_VALID	0x1ull
#define	PPC64_PTEH_HID		0x2ull
#define	PPC64_PTEH_BIG		0x4ull		/* L: 16 MiB */
#define	PPC64_PTEH_WIRED	0x10ull		/* software: LPTE_WIRED */
#define	PPC64_PTEH_AVA_PAGE	0xf80ull
#define	PPC64_PTEH_AVA_SHIFT	7
#define	PPC64_PTEH_VSID		0x3ffffffffffff000ull
#define	PPC64_PTEH_VSID_SHIFT	12
#define	PPC64_PTEH_B		0xc000000000000000ull
#define	PPC64_PTEL_PA		0x0ffffffffffff000ull
#define	PPC64_PTEL_LP_PA	0x0fffffffff000000ull
#define	PPC64_PTEL_REF		0x100ull
#define	PPC64_PTEL_CHG		0x080ull
#define	PPC64_PTEL_M		0x010ull
#define	PPC64_PTEL_NOEXEC	0x004ull
#define	PPC64_PTEL_PP		0x003ull
#define	PPC64_PTEL_BW		0x002ull	/* read-write */
#define	PPC64_PTEL_BR		0x003ull	/* read-only */
#define	PPC64_HPT_FILL		70		/* percent of slots in use */
#define	PPC64_VISIT_CHUNK	(1u << 20)	/* HPT bytes read at a time */

/* Radix tree (mmu_radix.c, kvm_minidump_powerpc64_radix.c). */
#define	PPC64_RADIX_ROOT_SIZE	65536u
#define	PPC64_RADIX_ROOT_N	8192u
#define	PPC64_RADIX_N		512u
#define	PPC64_RPTE_VALID	(1ull << 63)
#define	PPC64_RPTE_LEAF		(1ull << 62)
#define	PPC64_RPTE_RPN		0x00fffffffffff000ull
#define	PPC64_RPDE_NLB		0x00ffffffffffff00ull
#define	PPC64_RPDE_NLS		9ull		/* 2^9 entries below */
#define	PPC64_RPDE_NLS_MASK	0x1full
#define	PPC64_RADIX_ROOT_BITS	13u		/* 2^13 root entries */
#define	PPC64_RPTE_R		0x100ull
#define	PPC64_RPTE_C		0x080ull
#define	PPC64_RPTE_EAA_P	0x008ull	/* privileged */
#define	PPC64_RPTE_EAA_R	0x004ull
#define	PPC64_RPTE_EAA_W	0x002ull
#define	PPC64_RPTE_EAA_X	0x001ull
#define	PPC64_RADIX_Q3		0xc00ull	/* va >> 52 in the tree */
#define	PPC64_RADIX_END		0xc010000000000000ull
#define	PPC64_RADIX_LEVELS	4		/* root and three tables */

/* Generator values (sys/powerpc/include/vmparam.h, param.h). */
#define	PPC64_DMAP_BASE		0xc000000000000000ull
#define	PPC64_V1_KERNBASE	0xe000000000000000ull	/* FreeBSD 12 */
#define	PPC64_V1_KERNEND	0xe0000007ffffffffull
#define	PPC64_V1_DMAP_END	0xcfffffffffffffffull
#define	PPC64_V2_KERNBASE	0xc008000000000000ull	/* FreeBSD 13+ */
#define	PPC64_V2_KERNEND	0xc0080007ffffffffull
#define	PPC64_V2_DMAP_END	0xc007ffffffffffffull
#define	PPC64_KIMG_SIZE		0x1000000ull	/* endkernel - startkernel */
#define	PPC64_PHYS_MAX		(1ull << 48)
#define	PPC64_MSGBUF_SIZE	0x10000u	/* MSGBUF_SIZE */
#define	PPC64_MSGBUF_HDR	0x40u		/* sizeof(struct msgbuf) */
#define	PPC64_EM_PPC64		21		/* the kernel's e_machine */
#define	PPC64_ELFCLASS64	2

#define	V12	(DK_V(1) | DK_V(2))

static const struct dk_field powerpc64_fields[] = {
	{ "magic", 0, 32, DK_FK_CHARS, DK_H_MAGIC, V12, "char[32]",
	  "\"minidump FreeBSD/powerpc64\", NUL-padded" },
	{ "mmu_name", 32, 32, DK_FK_CHARS, DK_H_MMU_NAME, V12, "char[32]",
	  "pmap_mmu_name(): mmu_g5, mmu_phyp (hashed page table), "
	  "mmu_radix" },
	{ "version", 64, 4, DK_FK_UINT, DK_H_VERSION, V12, "uint32_t",
	  "1 or 2" },
	{ "msgbufsize", 68, 4, DK_FK_UINT, DK_H_MSGBUFSIZE, V12, "uint32_t",
	  "bytes of the message buffer" },
	{ "bitmapsize", 72, 4, DK_FK_UINT, DK_H_BITMAPSIZE, V12, "uint32_t",
	  "bytes of the page bitmap" },
	{ "pmapsize", 76, 4, DK_FK_UINT, DK_H_PMAPSIZE, V12, "uint32_t",
	  "bytes of the hashed page table, or 65536 (radix root)" },
	{ "kernbase", 80, 8, DK_FK_UINT, DK_H_KERNBASE, V12, "uint64_t",
	  "VM_MIN_KERNEL_ADDRESS" },
	{ "kernend", 88, 8, DK_FK_UINT, DK_H_KERNEND, V12, "uint64_t",
	  "VM_MAX_SAFE_KERNEL_ADDRESS" },
	{ "dmapbase", 96, 8, DK_FK_UINT, DK_H_DMAPBASE, V12, "uint64_t",
	  "DMAP_BASE_ADDRESS" },
	{ "dmapend", 104, 8, DK_FK_UINT, DK_H_DMAPEND, V12, "uint64_t",
	  "DMAP_MAX_ADDRESS, the last byte of the direct map" },
	{ "hw_direct_map", 112, 4, DK_FK_INT, DK_H_HW_DIRECT_MAP, V12, "int",
	  "1: the direct map uses 16 MiB pages" },
	{ "(padding)", 116, 4, DK_FK_PAD, DK_H_PAD, V12, NULL,
	  "alignment of startkernel to 8 bytes" },
	{ "startkernel", 120, 8, DK_FK_UINT, DK_H_STARTKERNEL, V12,
	  "uint64_t", "__startkernel, run address of the kernel (linked at "
	  "0x100100)" },
	{ "endkernel", 128, 8, DK_FK_UINT, DK_H_ENDKERNEL, V12, "uint64_t",
	  "__endkernel" },
	{ "dumpavailsize", 136, 4, DK_FK_UINT, DK_H_DUMPAVAILSIZE, DK_V(2),
	  "uint32_t", "bytes of the dump_avail section" },
	{ "(padding)", 140, 4, DK_FK_PAD, DK_H_PAD, DK_V(2), NULL,
	  "tail padding to the struct's 8-byte alignment" },
};

static const struct dk_layout powerpc64_layout = {
	"minidump-powerpc64", powerpc64_fields,
	DK_ARRAY_LEN(powerpc64_fields)
};

/* The page tables mmu_name can name (kept in dk_md(d)->mmuformat). */
enum ppc64_mmu {
	PPC64_MMU_UNKNOWN = 0,
	PPC64_MMU_G5,		/* hashed page table, hardware copy */
	PPC64_MMU_PHYP,		/* hashed page table, read by H_READ */
	PPC64_MMU_RADIX,
};

static enum ppc64_mmu
ppc64_mmu_of(const char *name)
{
	if (strcmp(name, "mmu_g5") == 0)
		return PPC64_MMU_G5;
	if (strcmp(name, "mmu_phyp") == 0)
		return PPC64_MMU_PHYP;
	if (strcmp(name, "mmu_radix") == 0)
		return PPC64_MMU_RADIX;
	return PPC64_MMU_UNKNOWN;
}

/* Byte order of the hashed page table's PTEs (see the top of the file). */
static enum dk_endian
ppc64_hpt_endian(enum ppc64_mmu mmu, enum dk_endian row)
{
	return mmu == PPC64_MMU_PHYP ? row : DK_BE;
}

static unsigned
ppc64_bitmap_word(const struct dk_arch *a, uint32_t version)
{
	(void)a;
	(void)version;
	return 8;
}

/* VSID of a kernel segment (KERNEL_VSID of the kernel and libkvm). */
static uint64_t
ppc64_kernel_vsid(uint64_t esid)
{
	return ((((esid << 8) | (esid >> 28)) * PPC64_VSID_MULT) &
	    (PPC64_KERNEL_VSID_BIT - 1)) | PPC64_KERNEL_VSID_BIT;
}

/* Segments a loop "for (ea = start; ea < end; ea += 256 MiB)" visits. */
static uint64_t
ppc64_nsegs(uint64_t start, uint64_t end)
{
	return end > start ? ((end - start - 1) >> PPC64_SEG_SHIFT) + 1 : 0;
}

/* End of the kernel's segments: the KVA the hashed page table serves. */
static uint64_t
ppc64_kseg_end(const struct dk_hdr *h)
{
	uint64_t kb = h->v[DK_H_KERNBASE];
	uint64_t e = (kb >> PPC64_SEG_SHIFT) + ppc64_nsegs(kb,
	    h->v[DK_H_KERNEND]);

	if (ppc64_nsegs(kb, h->v[DK_H_KERNEND]) == 0)
		return kb;
	return e >= PPC64_ESID_LIMIT ? UINT64_MAX : e << PPC64_SEG_SHIFT;
}

/*
 * The base page shift of the segment holding va in libkvm's software
 * SLB (kernel segments first), or 0 when no segment holds it.
 */
static unsigned
ppc64_seg_shift(const struct dk_hdr *h, uint64_t va)
{
	uint64_t esid = va >> PPC64_SEG_SHIFT, e0, n, maxmem, end;
	uint64_t db = h->v[DK_H_DMAPBASE], de = h->v[DK_H_DMAPEND];

	e0 = h->v[DK_H_KERNBASE] >> PPC64_SEG_SHIFT;
	n = ppc64_nsegs(h->v[DK_H_KERNBASE], h->v[DK_H_KERNEND]);
	if (esid >= e0 && esid - e0 < n)
		return PPC64_PAGE_SHIFT;
	maxmem = (h->v[DK_H_BITMAPSIZE] * 8) << PPC64_PAGE_SHIFT;
	end = de - db < maxmem ? de : db + maxmem;
	e0 = db >> PPC64_SEG_SHIFT;
	n = ppc64_nsegs(db, end);
	if (esid >= e0 && esid - e0 < n)
		return h->v[DK_H_HW_DIRECT_MAP] ? PPC64_LP_SHIFT :
		    PPC64_PAGE_SHIFT;
	return 0;
}

/*
 * The AVA's page bits: (s_ava, s_va) = (0, 11) for 4 KiB base pages,
 * (1, 0) for 16 MiB (libkvm's AVA_PAGE_SHIFT and VA_PAGE_SHIFT, from
 * PowerISA 2.07B 5.7.7.3).
 */
static unsigned
ppc64_s_ava(unsigned b)
{
	return b == PPC64_PAGE_SHIFT ? 0 : 1;
}

static unsigned
ppc64_s_va(unsigned b)
{
	return b == PPC64_PAGE_SHIFT ? 11 : 0;
}

/* Does pte_hi's AVA page field match va_page (base page shift b)? */
static int
ppc64_ava_match(uint64_t hi, uint64_t va_page, unsigned b)
{
	return ((hi & PPC64_PTEH_AVA_PAGE) >> PPC64_PTEH_AVA_SHIFT) >>
	    ppc64_s_ava(b) == va_page >> ppc64_s_va(b);
}

/* The AVA page field the writer puts in pte_hi (the low bit 0 at 16 MiB). */
static uint64_t
ppc64_ava_page(uint64_t va_page, unsigned b)
{
	return ((va_page >> ppc64_s_va(b)) << ppc64_s_ava(b)) <<
	    PPC64_PTEH_AVA_SHIFT;
}

/* Copy a header string for a message, non-printing bytes as '?'. */
static void
ppc64_printable(char *out, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i + 1 < n && s[i] != '\0'; i++)
		out[i] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
	out[i] = '\0';
}

/*
 * Report the addresses below dmapbase that kvtop moves into the direct
 * map (steps 1 and 2 at the top) as the kernel's window: va < dmapbase
 * with dmapbase <= va + disp <= dmapend, disp = startkernel - 0x100100,
 * the sum taken modulo 2^64 as kvtop takes it; pa = va + disp -
 * dmapbase.  The va of [dmapbase, dmapend] are [first, last] modulo
 * 2^64; when that wraps past 2^64, first is above dmapbase (the direct
 * map and the addresses below it do not fit in 2^64 otherwise), so the
 * window is [0, last].  One window, or none.
 */
static void
ppc64_reloc_window(struct dk_dump *d)
{
	const struct dk_hdr *h = &d->hdr;
	uint64_t db = h->v[DK_H_DMAPBASE], de = h->v[DK_H_DMAPEND];
	uint64_t disp = h->v[DK_H_STARTKERNEL] - PPC64_LINK_BASE;
	uint64_t first = db - disp, last = first + (de - db);

	if (last < first)
		first = 0;
	if (first >= db)
		return;
	if (last > db - 1)
		last = db - 1;
	dk_add_window(d, DK_WIN_KERNEL, "kernel relocation", first, last + 1,
	    first + disp - db);
}

static enum dk_status
ppc64_setup(struct dk_dump *d, struct dk_err *err)
{
	struct dk_md *m = dk_md(d);
	const struct dk_hdr *h = &d->hdr;
	enum ppc64_mmu mmu = ppc64_mmu_of(h->s[DK_H_MMU_NAME]);
	uint64_t pmapsize = h->v[DK_H_PMAPSIZE], hdm = h->v[DK_H_HW_DIRECT_MAP];
	uint64_t db = h->v[DK_H_DMAPBASE], de = h->v[DK_H_DMAPEND];
	uint64_t npteg = pmapsize / PPC64_PTEG_BYTES;
	char name[40];

	ppc64_printable(name, sizeof(name), h->s[DK_H_MMU_NAME]);
	if (mmu == PPC64_MMU_UNKNOWN)
		return dk_err_off(err, DK_EUNSUP, 32, "%s: offset 32: "
		    "mmu_name \"%s\" is not a page table dumpkit reads "
		    "(mmu_g5 or mmu_phyp: hashed page table; mmu_radix: radix "
		    "tree)", d->src.name, name);
	m->mmuformat = mmu;
	d->page_shift = PPC64_PAGE_SHIFT;
	if (hdm > 1)
		return dk_err_off(err, DK_ECORRUPT, 112, "%s: offset 112: "
		    "hw_direct_map: expected 0 or 1, found %ju", d->src.name,
		    (uintmax_t)hdm);
	if (de < db)
		return dk_err_off(err, DK_ECORRUPT, 104, "%s: offset 104: "
		    "dmapend %#jx is below dmapbase %#jx", d->src.name,
		    (uintmax_t)de, (uintmax_t)db);
	if (mmu == PPC64_MMU_RADIX) {
		if (pmapsize != PPC64_RADIX_ROOT_SIZE)
			return dk_err_off(err, DK_ECORRUPT, 76, "%s: offset "
			    "76: pmapsize: expected 65536 (the radix root "
			    "table) for mmu_radix, found %#jx", d->src.name,
			    (uintmax_t)pmapsize);
		m->pte_size = 8;
		d->info.kva_end = h->v[DK_H_KERNBASE] < PPC64_RADIX_END ?
		    PPC64_RADIX_END : h->v[DK_H_KERNBASE];
		DK_TRACE(d, "powerpc64: mmu_name \"%s\": radix tree, root of "
		    "8192 entries in the pmap area, lower tables in the dump; "
		    "entries big-endian (the radix MMU's format, whatever the "
		    "kernel's byte order)", name);
	} else {
		if (pmapsize % PPC64_PTEG_BYTES != 0 ||
		    npteg < PPC64_PTEG_MIN || (npteg & (npteg - 1)) != 0)
			return dk_err_off(err, DK_ECORRUPT, 76, "%s: offset "
			    "76: pmapsize: expected a hashed page table of a "
			    "power of two of 128-byte PTE groups, at least "
			    "2048 (256 KiB), found %#jx bytes", d->src.name,
			    (uintmax_t)pmapsize);
		m->pte_size = 16;
		d->info.kva_end = ppc64_kseg_end(h);
		DK_TRACE(d, "powerpc64: mmu_name \"%s\": hashed page table of "
		    "%ju PTEGs; PTEs %s-endian (%s)", name, (uintmax_t)npteg,
		    ppc64_hpt_endian(mmu, d->arch->endian) == DK_BE ? "big" :
		    "little", mmu == PPC64_MMU_G5 ? "a copy of the hardware "
		    "table, big-endian whatever the kernel's byte order" :
		    "H_READ results stored in the kernel's byte order");
		DK_TRACE(d, "powerpc64: segments searched: [%#jx, %#jx) with "
		    "4 KiB pages, direct-map segments with %s pages",
		    (uintmax_t)h->v[DK_H_KERNBASE], (uintmax_t)d->info.kva_end,
		    hdm ? "16 MiB" : "4 KiB");
	}
	dk_add_window(d, DK_WIN_DIRECT_MAP, "direct map", db,
	    de == UINT64_MAX ? de : de + 1, 0);
	ppc64_reloc_window(d);
	if (db != 0 && de - db >= (db & -db))
		DK_TRACE(d, "powerpc64: direct map [%#jx, %#jx]: va - dmapbase "
		    "(used) and libkvm's va & ~dmapbase differ here",
		    (uintmax_t)db, (uintmax_t)de);
	DK_TRACE(d, "powerpc64: addresses below dmapbase move by "
	    "startkernel - 0x100100 = %#jx", (uintmax_t)(h->v[DK_H_STARTKERNEL]
	    - PPC64_LINK_BASE));
	return DK_OK;
}

static unsigned
ppc64_hpt_prot(uint64_t lo)
{
	return ((lo & PPC64_PTEL_PP) != PPC64_PTEL_BR ? DK_PROT_W : 0) |
	    ((lo & PPC64_PTEL_NOEXEC) ? 0 : DK_PROT_X);
}

static unsigned
ppc64_radix_prot(uint64_t e)
{
	return ((e & PPC64_RPTE_EAA_W) ? DK_PROT_W : 0) |
	    ((e & PPC64_RPTE_EAA_X) ? DK_PROT_X : 0);
}

/*
 * The protection of a valid entry; fmt is the page table, as mmu_name
 * names it (enum ppc64_mmu): a radix leaf, or a hashed PTE's pte_lo.
 */
static unsigned
ppc64_prot(uint64_t e, unsigned mmu)
{
	return mmu == PPC64_MMU_RADIX ? ppc64_radix_prot(e) :
	    ppc64_hpt_prot(e);
}

/*
 * The index of the hashed page table's valid entries: pairs (VSID, page
 * of the 256 MiB segment), sorted.  A 4 KiB PTE's page is its AVA's five
 * page bits (the page's 8 MiB block) and, where the table has 2^11
 * groups or more, the eleven low bits the hash gives back (the group's
 * index, complemented for a secondary one, XOR the VSID): the page
 * itself.  A 16 MiB PTE marks its whole segment (PPC64_IDX_SEG).
 */
#define	PPC64_SEG_PAGES		(1ull << (PPC64_SEG_SHIFT - PPC64_PAGE_SHIFT))
#define	PPC64_IDX_SEG		UINT64_MAX
#define	PPC64_HASH_BITS		11	/* page bits below the AVA's */

static int
cmp_pair(const void *x, const void *y)
{
	const uint64_t *a = x, *b = y;

	if (a[0] != b[0])
		return a[0] < b[0] ? -1 : 1;
	return a[1] < b[1] ? -1 : a[1] > b[1];
}

/* Low page bits the index does not know: 0, or the hash's 11. */
static unsigned
ppc64_idx_gran(const struct dk_dump *d)
{
	return d->hdr.v[DK_H_PMAPSIZE] / PPC64_PTEG_BYTES >=
	    (1ull << PPC64_HASH_BITS) ? 0 : PPC64_HASH_BITS;
}

/*
 * Built once from the table in memory, so that the kernel-map walk
 * (kmap.c) jumps from a page that is not mapped to the next one the
 * table may map, instead of probing each page of a segment: its cost
 * is the entries present, not the segments' 65,536 pages each.
 * Without the table in memory (larger than DK_PMAP_MEM_MAX) there is
 * no index and no hint.
 */
static void
ppc64_vsid_index(struct dk_dump *d, enum dk_endian e)
{
	struct dk_md *m = dk_md(d);
	uint64_t n = d->hdr.v[DK_H_PMAPSIZE] / 16, k = 0;
	uint64_t npteg = d->hdr.v[DK_H_PMAPSIZE] / PPC64_PTEG_BYTES;
	unsigned gran = ppc64_idx_gran(d);
	uint8_t probe[16];
	struct dk_err err;

	m->fam_indexed = 1;
	if (dk_md_pmap_read(d, 0, probe, sizeof(probe), &err) != DK_OK ||
	    m->pmap_mem == NULL || n > SIZE_MAX / 16 ||
	    (m->fam_index = malloc((size_t)n * 16)) == NULL)
		return;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t hi = dec_uint(m->pmap_mem + 16 * i, 8, e);
		uint64_t vsid = (hi & PPC64_PTEH_VSID) >> PPC64_PTEH_VSID_SHIFT;
		uint64_t pg, h;

		if (!(hi & PPC64_PTEH_VALID))
			continue;
		if (hi & PPC64_PTEH_BIG) {
			pg = PPC64_IDX_SEG;
		} else {
			h = (hi & PPC64_PTEH_HID) ? ~(i / 8) : i / 8;
			pg = ((hi & PPC64_PTEH_AVA_PAGE) >>
			    PPC64_PTEH_AVA_SHIFT) << PPC64_HASH_BITS;
			if (gran == 0)
				pg |= (h ^ vsid) & (npteg - 1) &
				    ((1u << PPC64_HASH_BITS) - 1);
		}
		m->fam_index[2 * k] = vsid;
		m->fam_index[2 * k + 1] = pg;
		k++;
	}
	qsort(m->fam_index, (size_t)k, 16, cmp_pair);
	m->fam_nindex = (size_t)k;
	if (k > 0 && k < n) {		/* the valid entries only */
		uint64_t *p = realloc(m->fam_index, (size_t)k * 16);

		if (p != NULL)
			m->fam_index = p;
	}
}

/*
 * The first page at or after page p of the segment of vsid that the
 * table may map: p itself, a later page, or PPC64_SEG_PAGES (none).
 */
static uint64_t
ppc64_next_used(const struct dk_dump *d, uint64_t vsid, uint64_t p)
{
	struct dk_md *m = dk_md(d);
	unsigned gran = ppc64_idx_gran(d);
	uint64_t blk = p >> gran << gran;
	size_t lo = 0, hi = m->fam_nindex;

	if (m->fam_index == NULL)
		return p;	/* no index: assume it may be */
	while (lo < hi) {	/* the first pair at or after (vsid, blk) */
		size_t mid = lo + (hi - lo) / 2;
		const uint64_t *x = m->fam_index + 2 * mid;

		if (x[0] < vsid || (x[0] == vsid && x[1] < blk))
			lo = mid + 1;
		else
			hi = mid;
	}
	/* A 16 MiB PTE (PPC64_IDX_SEG) sorts last in its VSID. */
	if (lo < m->fam_nindex && m->fam_index[2 * lo] == vsid) {
		const uint64_t *x = m->fam_index + 2 * lo;

		if (x[1] == PPC64_IDX_SEG || x[1] >> gran == p >> gran)
			return p;
		return x[1] > p ? x[1] : p;
	}
	return PPC64_SEG_PAGES;
}

static enum dk_status
ppc64_hpt_kvtop(struct dk_dump *d, const char *where, uint64_t a,
    uint64_t *pa, unsigned *prot, struct dk_err *err)
{
	struct dk_md *m = dk_md(d);
	const struct dk_hdr *h = &d->hdr;
	unsigned b = ppc64_seg_shift(h, a);
	uint64_t npteg = h->v[DK_H_PMAPSIZE] / PPC64_PTEG_BYTES;
	uint64_t vsid, va_page, hash, pteg[2];
	enum dk_endian e = ppc64_hpt_endian((enum ppc64_mmu)m->mmuformat,
	    d->arch->endian);
	uint8_t g[PPC64_PTEG_BYTES];
	enum dk_status st;

	if (b == 0)
		return dk_err_miss(d, err, DK_ENOTMAPPED, "%s: not mapped (no "
		    "segment holds it: the hashed page table serves the "
		    "kernel's segments [%#jx, %#jx) and the direct map's)",
		    where, (uintmax_t)h->v[DK_H_KERNBASE],
		    (uintmax_t)d->info.kva_end);
	vsid = ppc64_kernel_vsid(a >> PPC64_SEG_SHIFT);
	if (!m->fam_indexed)
		ppc64_vsid_index(d, e);
	if (ppc64_next_used(d, vsid, 0) == PPC64_SEG_PAGES) {
		/* No PTE of this segment is valid: all of it is unmapped. */
		d->unmapped_to = (a | (PPC64_SEG_SIZE - 1)) + 1;
		return dk_err_miss(d, err, DK_ENOTMAPPED, "%s: not mapped (no "
		    "valid entry of the hashed page table has the segment's "
		    "VSID %#jx)", where, (uintmax_t)vsid);
	}
	va_page = (a & (PPC64_SEG_SIZE - 1)) >> b;
	hash = (vsid & PPC64_HASH_MASK) ^ va_page;
	pteg[0] = hash & (npteg - 1);
	pteg[1] = (~hash & PPC64_HASH_MASK) & (npteg - 1);
	for (unsigned hid = 0; hid < 2; hid++) {
		st = dk_md_pmap_read(d, pteg[hid] * PPC64_PTEG_BYTES, g,
		    sizeof(g), err);
		if (st != DK_OK)
			return dk_err_prefix(err, "%s: PTEG %#jx", where,
			    (uintmax_t)pteg[hid]);
		for (unsigned i = 0; i < 8; i++) {
			uint64_t hi = dec_uint(g + 16 * i, 8, e);
			uint64_t lo = dec_uint(g + 16 * i + 8, 8, e);

			if ((hi & PPC64_PTEH_HID) != (hid ? PPC64_PTEH_HID : 0)
			    || !(hi & PPC64_PTEH_VALID) ||
			    (hi & PPC64_PTEH_B) != 0 ||
			    (hi & PPC64_PTEH_VSID) >> PPC64_PTEH_VSID_SHIFT !=
			    vsid ||
			    !ppc64_ava_match(hi, va_page, b) ||
			    ((hi & PPC64_PTEH_BIG) != 0) !=
			    (b == PPC64_LP_SHIFT))
				continue;
			if (b == PPC64_LP_SHIFT)
				*pa = (lo & PPC64_PTEL_LP_PA) |
				    (a & (PPC64_LP_SIZE - 1));
			else
				*pa = (lo & PPC64_PTEL_PA) |
				    (a & (PPC64_PAGE_SIZE - 1));
			if (prot != NULL)
				*prot = ppc64_hpt_prot(lo);
			DK_TRACE(d, "%s: %s PTEG %#jx slot %u (offset %#jx): "
			    "pte_hi %#jx pte_lo %#jx, %s page -> pa %#jx",
			    where, hid ? "secondary" : "primary",
			    (uintmax_t)pteg[hid], i, (uintmax_t)(m->off_pmap +
			    pteg[hid] * PPC64_PTEG_BYTES + 16 * i),
			    (uintmax_t)hi, (uintmax_t)lo,
			    b == PPC64_LP_SHIFT ? "16 MiB" : "4 KiB",
			    (uintmax_t)*pa);
			return DK_OK;
		}
	}
	/* The walk goes on at the next page the table may map. */
	if (b == PPC64_PAGE_SHIFT) {
		uint64_t next = ppc64_next_used(d, vsid, va_page + 1);

		if (next > va_page + 1)
			d->unmapped_to = (a & ~(PPC64_SEG_SIZE - 1)) +
			    (next << PPC64_PAGE_SHIFT);
	}
	return dk_err_miss(d, err, DK_ENOTMAPPED, "%s: not mapped (no valid PTE "
	    "for VSID %#jx page %#jx in PTEG %#jx (primary) or %#jx "
	    "(secondary))", where, (uintmax_t)vsid, (uintmax_t)va_page,
	    (uintmax_t)pteg[0], (uintmax_t)pteg[1]);
}

/* Read entry idx of the radix table at physical address t (big-endian). */
static enum dk_status
ppc64_radix_entry(struct dk_dump *d, int root, uint64_t t, uint64_t idx,
    uint64_t *v, struct dk_err *err)
{
	uint8_t b[8];
	enum dk_status st;

	if (root)
		st = dk_src_pread(&d->src, b, 8, dk_md(d)->off_pmap + 8 * idx,
		    "radix root", err);
	else
		st = dk_read_pt(d, t + 8 * idx, b, 8, err);
	if (st != DK_OK)
		return st;
	*v = dec_be64(b);
	return DK_OK;
}

static enum dk_status
ppc64_radix_kvtop(struct dk_dump *d, const char *where, uint64_t a,
    uint64_t *pa, unsigned *prot, struct dk_err *err)
{
	static const unsigned shifts[] = { 39, 30, 21, 12 };
	uint64_t e = 0, t = 0, idx;
	enum dk_status st;

	if (a >> 52 != PPC64_RADIX_Q3)
		return dk_err_miss(d, err, DK_ENOTMAPPED, "%s: not mapped (outside "
		    "quadrant 3 [0xc000000000000000, %#jx), the radix tree's "
		    "2^52 bytes)", where, (uintmax_t)PPC64_RADIX_END);
	for (unsigned lv = 0; lv < DK_ARRAY_LEN(shifts); lv++) {
		uint64_t size = 1ull << shifts[lv];

		idx = (a >> shifts[lv]) & (lv == 0 ? PPC64_RADIX_ROOT_N - 1 :
		    PPC64_RADIX_N - 1);
		if ((st = ppc64_radix_entry(d, lv == 0, t, idx, &e, err)) !=
		    DK_OK) {
			/*
			 * A table that is not in the dump (a page not dumped,
			 * past the end of a cut file) leaves the block of the
			 * entry that points at it a hole: one probe, not one
			 * per page under it.  The root's entries are in VA
			 * order, so a root cut short cuts the rest.
			 */
			if (lv == 0 && st == DK_ETRUNC)
				d->unmapped_to = PPC64_RADIX_END;
			else if (lv > 0 && (st == DK_ETRUNC ||
			    st == DK_ENOTDUMPED))
				d->unmapped_to = (a | ((1ull <<
				    shifts[lv - 1]) - 1)) + 1;
			return dk_err_prefix(err, "%s: radix level %u table at "
			    "%s%#jx", where, lv + 1, lv == 0 ? "pmap offset " :
			    "pa ", (uintmax_t)(lv == 0 ? dk_md(d)->off_pmap : t));
		}
		DK_TRACE(d, "%s: radix level %u [%ju] = %#jx", where, lv + 1,
		    (uintmax_t)idx, (uintmax_t)e);
		if (!(e & PPC64_RPTE_VALID)) {
			/*
			 * The entry's whole block is unmapped: tell the
			 * kernel-map walk (kmap.c), which would otherwise
			 * probe each of its pages.
			 */
			if (lv == 0 && e == 0)	/* and the zero ones after */
				dk_md_pmap_zero(d, a, idx, shifts[0]);
			else
				d->unmapped_to = (a | (size - 1)) + 1;
			return dk_err_miss(d, err, DK_ENOTMAPPED, "%s: not mapped "
			    "(radix level %u entry %ju is %#jx, not valid)",
			    where, lv + 1, (uintmax_t)idx, (uintmax_t)e);
		}
		if (e & PPC64_RPTE_LEAF) {
			*pa = (e & PPC64_RPTE_RPN & ~(size - 1)) |
			    (a & (size - 1));
			d->mapped_to = (a | (size - 1)) + 1;
			if (prot != NULL)
				*prot = ppc64_radix_prot(e);
			DK_TRACE(d, "%s: radix leaf of %ju bytes -> pa %#jx",
			    where, (uintmax_t)size, (uintmax_t)*pa);
			return DK_OK;
		}
		t = e & PPC64_RPDE_NLB;
	}
	return dk_err_miss(d, err, DK_ENOTMAPPED, "%s: not mapped (radix level 4 "
	    "entry %#jx has no leaf bit)", where, (uintmax_t)e);
}

/*
 * The radix tree from a root in physical memory (Linux's swapper_pg_dir:
 * linux.c), as the MMU walks it (Power ISA 3.0 Book III, "Radix Tree
 * Translation"): a root of 2^13 entries (the process table's RPDS,
 * Linux's RADIX_PGD_INDEX_SIZE) indexed by EA bits 51..39; below it,
 * each directory entry's NLS (bits 4..0) is the next table's index width
 * and NLB (bits 59..8) its base, so that Linux's tree of 64 KiB pages
 * (13, 9, 9, 5 index bits) is walked as its tree of 4 KiB pages (13, 9,
 * 9, 9) is; a leaf at any level maps the EA bits not yet consumed.
 * Entries are big-endian whatever the kernel's byte order.  Only
 * quadrant 3 (EA bits 63..62 set, 61..52 clear) is the kernel's.
 */
static enum dk_status
ppc64_radix_walk(struct dk_dump *d, const struct dk_pt_walk *w,
    uint64_t root, uint64_t va, uint64_t *pa, unsigned *prot,
    struct dk_err *err)
{
	unsigned left = 52, bits = PPC64_RADIX_ROOT_BITS;
	uint64_t t = root, e = 0, at = root;
	uint8_t b[8];
	enum dk_status st;

	if (va >> 52 != PPC64_RADIX_Q3)
		return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address %#jx: "
		    "not mapped (outside quadrant 3 [0xc000000000000000, "
		    "%#jx), the kernel's radix tree)", (uintmax_t)va,
		    (uintmax_t)PPC64_RADIX_END);
	for (unsigned lv = 1; lv <= w->levels; lv++) {
		if (bits < 5 || bits + 12 > left)
			return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual "
			    "address %#jx: not mapped (radix level %u entry "
			    "%#jx at pa %#jx: NLS %u leaves %u EA bits, "
			    "expected 5 or more, and 12 bits for the page)",
			    (uintmax_t)va, lv - 1, (uintmax_t)e,
			    (uintmax_t)at, bits, left);
		left -= bits;
		at = t + 8 * ((va >> left) & ((1ull << bits) - 1));
		if ((st = dk_read_pt(d, at, b, 8, err)) != DK_OK)
			return dk_err_prefix(err, "virtual address %#jx: radix "
			    "level %u entry", (uintmax_t)va, lv);
		e = dec_be64(b);
		DK_TRACE(d, "va %#jx: radix level %u entry at pa %#jx = %#jx",
		    (uintmax_t)va, lv, (uintmax_t)at, (uintmax_t)e);
		if (!(e & PPC64_RPTE_VALID)) {
			d->unmapped_to = dk_block_end(va, (1ull << left) - 1);
			return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual "
			    "address %#jx: not mapped (radix level %u entry "
			    "%#jx at pa %#jx: not valid)", (uintmax_t)va, lv,
			    (uintmax_t)e, (uintmax_t)at);
		}
		if (e & PPC64_RPTE_LEAF) {
			uint64_t size = 1ull << left;

			*pa = (e & PPC64_RPTE_RPN & ~(size - 1)) |
			    (va & (size - 1));
			d->mapped_to = dk_block_end(va, size - 1);
			if (prot != NULL)
				*prot = ppc64_radix_prot(e);
			return DK_OK;
		}
		t = e & PPC64_RPDE_NLB;
		bits = (unsigned)(e & PPC64_RPDE_NLS_MASK);
	}
	return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address %#jx: not "
	    "mapped (radix level %u entry %#jx at pa %#jx is a directory: "
	    "the tree has %u levels)", (uintmax_t)va, w->levels,
	    (uintmax_t)e, (uintmax_t)at, w->levels);
}

static const struct dk_pt_walk ppc64_walks[] = {
	{ "powerpc64 radix", PPC64_RADIX_LEVELS, 12, 52, 8, NULL,
	  ppc64_radix_walk },
};

static enum dk_status
ppc64_kvtop(struct dk_dump *d, uint64_t va, uint64_t *pa, unsigned *prot,
    struct dk_err *err)
{
	const struct dk_hdr *h = &d->hdr;
	uint64_t a = va, db = h->v[DK_H_DMAPBASE], de = h->v[DK_H_DMAPEND];
	char where[96];

	if (va < db) {
		a = va + (h->v[DK_H_STARTKERNEL] - PPC64_LINK_BASE);
		snprintf(where, sizeof(where), "virtual address %#jx "
		    "(relocated to %#jx)", (uintmax_t)va, (uintmax_t)a);
		DK_TRACE(d, "va %#jx: below dmapbase, a link-time address: "
		    "+ startkernel - 0x100100 -> %#jx", (uintmax_t)va,
		    (uintmax_t)a);
	} else
		snprintf(where, sizeof(where), "virtual address %#jx",
		    (uintmax_t)va);
	if (a >= db && a <= de) {
		*pa = a - db;
		if (prot != NULL)
			*prot = DK_PROT_W | DK_PROT_X;
		DK_TRACE(d, "%s: direct map -> pa %#jx", where,
		    (uintmax_t)*pa);
		return DK_OK;
	}
	if (a < h->v[DK_H_KERNBASE])
		return dk_err_miss(d, err, DK_ENOTMAPPED, "%s: not mapped (below "
		    "kernbase %#jx, outside the direct map [%#jx, %#jx])",
		    where, (uintmax_t)h->v[DK_H_KERNBASE], (uintmax_t)db,
		    (uintmax_t)de);
	if (dk_md(d)->mmuformat == PPC64_MMU_RADIX) {
		enum dk_status st = ppc64_radix_kvtop(d, where, a, pa, prot,
		    err);

		if (a != va)	/* hints about a, not va */
			d->unmapped_to = d->mapped_to = 0;
		return st;
	}
	{
		enum dk_status st = ppc64_hpt_kvtop(d, where, a, pa, prot,
		    err);

		if (a != va)
			d->unmapped_to = 0;	/* a hint about a, not va */
		return st;
	}
}

/* ---------------------------------------------------------------------- */
/* dumpcheck's page-table pass (struct dk_pt_visitor).                    */

/*
 * The hashed page table: the kernel's PTEs are those whose VSID has the
 * kernel bit (user address spaces share the table and map what they
 * like), in the byte order mmu_name says (the top of the file).  16 MiB
 * PTEs map the direct map, which need not be dumped.
 */
static void
ppc64_hpt_visit(struct dk_dump *d, const struct dk_pt_visitor *v)
{
	struct dk_md *m = dk_md(d);
	enum dk_endian e = ppc64_hpt_endian((enum ppc64_mmu)m->mmuformat,
	    d->arch->endian);
	uint64_t n = d->hdr.v[DK_H_PMAPSIZE] / 16;
	uint8_t *buf = malloc(PPC64_VISIT_CHUNK);
	struct dk_err err;

	if (buf == NULL)
		return;
	for (uint64_t done = 0; done < n; done += PPC64_VISIT_CHUNK / 16) {
		uint64_t k = n - done < PPC64_VISIT_CHUNK / 16 ? n - done :
		    PPC64_VISIT_CHUNK / 16;

		if (dk_src_pread(&d->src, buf, (size_t)(k * 16), m->off_pmap +
		    done * 16, "hashed page table", &err) != DK_OK)
			break;
		for (uint64_t i = 0; i < k; i++) {
			uint64_t hi = dec_uint(buf + 16 * i, 8, e);
			uint64_t lo = dec_uint(buf + 16 * i + 8, 8, e);
			uint64_t vsid = (hi & PPC64_PTEH_VSID) >>
			    PPC64_PTEH_VSID_SHIFT;

			if (!(hi & PPC64_PTEH_VALID) ||
			    !(vsid & PPC64_KERNEL_VSID_BIT))
				continue;
			v->leaf(v->arg, UINT64_MAX, lo & ((hi &
			    PPC64_PTEH_BIG) ? PPC64_PTEL_LP_PA : PPC64_PTEL_PA),
			    m->off_pmap + (done + i) * 16,
			    (hi & PPC64_PTEH_BIG) != 0);
		}
	}
	free(buf);
}

/* The radix walk: the tables on the path from the root, and its steps. */
struct ppc64_rvisit {
	struct dk_dump			*d;
	const struct dk_pt_visitor	*v;
	uint64_t			 path[PPC64_RADIX_LEVELS];
	uint64_t			 steps;
};

/*
 * One radix table (lvl 0: the root in the pmap area; 1..3: pages of the
 * dump).  Depth is bounded by PPC64_RADIX_LEVELS and the tables walked
 * by the dump's pages; a table is walked once (shared tables are not
 * walked again), and an entry that points at a table on its own path
 * is a loop, not followed.
 */
static void
ppc64_radix_visit_table(struct ppc64_rvisit *w, unsigned lvl,
    const uint8_t *t, uint64_t nent, uint64_t toff, uint64_t vabase)
{
	static const unsigned shift[PPC64_RADIX_LEVELS] = { 39, 30, 21, 12 };
	struct dk_dump *d = w->d;
	const struct dk_pt_visitor *v = w->v;
	struct dk_err e;
	char what[80], msg[256];

	if (lvl >= PPC64_RADIX_LEVELS)
		return;
	for (uint64_t i = 0; i < nent; i++) {
		uint64_t ent = dec_be64(t + 8 * i), eoff = toff + 8 * i;
		uint64_t va = vabase | (i << shift[lvl]), size, nt, noff;
		int loop = 0;
		uint8_t *sub;

		if (!(ent & PPC64_RPTE_VALID))
			continue;
		size = 1ull << shift[lvl];
		if (ent & PPC64_RPTE_LEAF) {
			if ((ent & PPC64_RPTE_RPN & (size - 1)) != 0) {
				snprintf(msg, sizeof(msg), "radix level %u "
				    "leaf for va %#jx maps %#jx bytes: "
				    "expected a frame aligned to it, found "
				    "%#jx", lvl + 1, (uintmax_t)va,
				    (uintmax_t)size,
				    (uintmax_t)(ent & PPC64_RPTE_RPN));
				v->misaligned(v->arg, eoff, msg);
			}
			v->leaf(v->arg, va, ent & PPC64_RPTE_RPN & ~(size - 1),
			    eoff, lvl + 1 < PPC64_RADIX_LEVELS);
			continue;
		}
		if (lvl + 1 >= PPC64_RADIX_LEVELS)
			continue;
		nt = ent & PPC64_RPDE_NLB & ~0xfffull;
		for (unsigned k = 1; k <= lvl; k++)
			loop |= w->path[k] == nt;
		if (loop) {
			snprintf(msg, sizeof(msg), "radix level %u entry %ju "
			    "(va %#jx) points at the table at pa %#jx, which "
			    "is on its own path: a loop", lvl + 1,
			    (uintmax_t)i, (uintmax_t)va, (uintmax_t)nt);
			v->loop(v->arg, eoff, msg);
			continue;
		}
		snprintf(what, sizeof(what), "radix level %u entry %ju (va "
		    "%#jx)", lvl + 1, (uintmax_t)i, (uintmax_t)va);
		if (v->seen(v->arg, nt) || !v->table(v->arg, nt, eoff, what))
			continue;
		if (++w->steps > d->info.npages ||
		    dk_pa_offset(d, nt, &noff, &e) != DK_OK ||
		    (sub = malloc(PPC64_PAGE_SIZE)) == NULL)
			continue;
		if (dk_read_pa(d, nt, sub, PPC64_PAGE_SIZE, &e) == DK_OK) {
			w->path[lvl + 1] = nt;
			ppc64_radix_visit_table(w, lvl + 1, sub, PPC64_RADIX_N,
			    noff, va);
		}
		free(sub);
	}
}

/* The radix tree from its root, or the hashed page table. */
static int
ppc64_pt_visit(struct dk_dump *d, const struct dk_pt_visitor *v)
{
	struct dk_md *m = dk_md(d);
	struct ppc64_rvisit w = { d, v, { UINT64_MAX, 0, 0, 0 }, 0 };
	uint64_t n = d->hdr.v[DK_H_PMAPSIZE];
	struct dk_err err;
	uint8_t *root;

	if (m->mmuformat != PPC64_MMU_RADIX) {
		ppc64_hpt_visit(d, v);
		return 1;
	}
	root = malloc((size_t)n);
	if (root != NULL && dk_src_pread(&d->src, root, (size_t)n,
	    m->off_pmap, "radix root", &err) == DK_OK)
		ppc64_radix_visit_table(&w, 0, root, n / 8, m->off_pmap,
		    PPC64_RADIX_Q3 << 52);
	free(root);
	return 1;
}

/* ---------------------------------------------------------------------- */
/* The writer.                                                             */

static uint64_t
ppc64_rng(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * Put a PTE in the first free slot of its primary group, else of its
 * secondary group (H set); with evict, else in place of the first
 * unwired PTE of either (moea64_pte_insert).  0 if there is no room.
 */
static int
ppc64_hpt_insert(uint64_t *t, uint64_t npteg, uint64_t hash, uint64_t hi,
    uint64_t lo, int evict)
{
	for (int pass = 0; pass < (evict ? 2 : 1); pass++) {
		for (unsigned hid = 0; hid < 2; hid++) {
			uint64_t g = (hid ? ~hash & PPC64_HASH_MASK : hash) &
			    (npteg - 1);

			for (unsigned s = 0; s < 8; s++) {
				uint64_t *p = t + 2 * (g * 8 + s);

				if (pass == 0 ? (p[0] & PPC64_PTEH_VALID) :
				    (p[0] & PPC64_PTEH_WIRED))
					continue;
				p[0] = hi | (hid ? PPC64_PTEH_HID : 0);
				p[1] = lo;
				return 1;
			}
		}
	}
	return 0;
}

/* A kernel PTE (wired) for va with base page shift b. */
static int
ppc64_hpt_kenter(uint64_t *t, uint64_t npteg, uint64_t va, uint64_t pa,
    unsigned prot, unsigned b)
{
	uint64_t vsid = ppc64_kernel_vsid(va >> PPC64_SEG_SHIFT);
	uint64_t va_page = (va & (PPC64_SEG_SIZE - 1)) >> b;
	uint64_t hi = vsid << PPC64_PTEH_VSID_SHIFT |
	    ppc64_ava_page(va_page, b) | PPC64_PTEH_WIRED | PPC64_PTEH_VALID |
	    (b == PPC64_LP_SHIFT ? PPC64_PTEH_BIG : 0);
	uint64_t lo = (pa & (b == PPC64_LP_SHIFT ? PPC64_PTEL_LP_PA :
	    PPC64_PTEL_PA)) | PPC64_PTEL_REF | PPC64_PTEL_CHG | PPC64_PTEL_M |
	    ((prot & DK_PROT_W) ? PPC64_PTEL_BW : PPC64_PTEL_BR) |
	    ((prot & DK_PROT_X) ? 0 : PPC64_PTEL_NOEXEC);

	return ppc64_hpt_insert(t, npteg, (vsid & PPC64_HASH_MASK) ^ va_page,
	    hi, lo, 1);
}

/* Fill a table of npteg groups (host values); 0 if a kernel PTE fit nowhere. */
static int
ppc64_hpt_fill(const struct dk_pmap_build *b, uint64_t *t, uint64_t npteg,
    uint64_t nkernel, uint64_t ram_end)
{
	const struct dk_hdr *h = b->hdr;
	uint64_t s = 0x7070633634687074ull ^ npteg ^ nkernel;
	uint64_t want = npteg * 8 * PPC64_HPT_FILL / 100, nuser;

	/* Boot: the direct map in 16 MiB pages (moea64_setup_direct_map). */
	if (h->v[DK_H_HW_DIRECT_MAP])
		for (uint64_t pa = 0; pa < ram_end; pa += PPC64_LP_SIZE)
			if (!ppc64_hpt_kenter(t, npteg, h->v[DK_H_DMAPBASE] +
			    pa, pa, DK_PROT_W | DK_PROT_X, PPC64_LP_SHIFT))
				return 0;
	/* User address spaces: VSIDs without the kernel bit, unwired. */
	nuser = want > nkernel ? want - nkernel : 0;
	for (uint64_t k = 0; k < nuser; k++) {
		uint64_t r = ppc64_rng(&s);
		uint64_t vsid = (r & (PPC64_KERNEL_VSID_BIT - 1)) | 1;
		uint64_t va_page = (r >> 40) & 0xffff;
		uint64_t hi = vsid << PPC64_PTEH_VSID_SHIFT |
		    ppc64_ava_page(va_page, PPC64_PAGE_SHIFT) |
		    PPC64_PTEH_VALID;
		uint64_t lo = (ppc64_rng(&s) & 0x3ffff000ull) | PPC64_PTEL_M |
		    PPC64_PTEL_REF | PPC64_PTEL_BW;

		(void)ppc64_hpt_insert(t, npteg, (vsid & PPC64_HASH_MASK) ^
		    va_page, hi, lo, 0);
	}
	/* The kernel map, wired 4 KiB pages. */
	for (size_t m = 0; m < b->nmaps; m++) {
		const struct dk_map *mp = &b->maps[m];

		for (uint64_t o = 0; o < mp->len; o += PPC64_PAGE_SIZE)
			if (!ppc64_hpt_kenter(t, npteg, mp->va + o, mp->pa + o,
			    mp->prot, PPC64_PAGE_SHIFT))
				return 0;
	}
	return 1;
}

static enum dk_status
ppc64_hpt_build(struct dk_pmap_build *b, enum ppc64_mmu mmu,
    struct dk_err *err)
{
	const struct dk_hdr *h = b->hdr;
	uint64_t kb = h->v[DK_H_KERNBASE], kend = ppc64_kseg_end(h);
	uint64_t nkernel = 0, ram_end = 0, npteg = PPC64_PTEG_MIN, *t;
	enum dk_endian e = ppc64_hpt_endian(mmu, b->arch->endian);

	for (size_t m = 0; m < b->nmaps; m++) {
		const struct dk_map *mp = &b->maps[m];

		if (((mp->va | mp->pa | mp->len) & (PPC64_PAGE_SIZE - 1)) !=
		    0 || mp->va < kb || mp->va > kend ||
		    mp->len > kend - mp->va || mp->pa > PPC64_PTEL_PA ||
		    mp->len > PPC64_PTEL_PA - mp->pa)
			return dk_err_set(err, DK_EINVAL, "powerpc64 pmap: map "
			    "%zu (va %#jx, pa %#jx, %#jx bytes) is not "
			    "page-aligned inside the kernel's segments [%#jx, "
			    "%#jx) and 60-bit PA", m, (uintmax_t)mp->va,
			    (uintmax_t)mp->pa, (uintmax_t)mp->len,
			    (uintmax_t)kb, (uintmax_t)kend);
		nkernel += mp->len >> PPC64_PAGE_SHIFT;
		if (mp->pa + mp->len > ram_end)
			ram_end = mp->pa + mp->len;
	}
	ram_end = (ram_end + PPC64_LP_SIZE - 1) & ~(PPC64_LP_SIZE - 1);
	if (h->v[DK_H_HW_DIRECT_MAP])
		nkernel += ram_end >> PPC64_LP_SHIFT;
	/* The kernel's PTEs take at most half of the slots. */
	while (npteg < PPC64_PTEG_MAX && npteg * 4 < nkernel)
		npteg <<= 1;
	for (;;) {
		t = calloc(npteg * 16, sizeof(*t));
		if (t == NULL)
			return dk_err_set(err, DK_ENOMEM, "pmap: out of "
			    "memory");
		if (ppc64_hpt_fill(b, t, npteg, nkernel, ram_end))
			break;
		free(t);
		if (npteg >= PPC64_PTEG_MAX)
			return dk_err_set(err, DK_EINVAL, "powerpc64 pmap: %ju "
			    "kernel PTEs do not fit a hashed page table of "
			    "%ju PTEGs", (uintmax_t)nkernel,
			    (uintmax_t)npteg);
		npteg <<= 1;
	}
	b->pmap_len = npteg * PPC64_PTEG_BYTES;
	b->pmap = malloc(b->pmap_len);
	if (b->pmap == NULL) {
		free(t);
		return dk_err_set(err, DK_ENOMEM, "pmap: out of memory");
	}
	for (uint64_t i = 0; i < npteg * 16; i++)
		enc_uint(b->pmap + 8 * i, 8, e, t[i]);
	free(t);
	return DK_OK;
}

/* The table page of b at physical address pa, or -1. */
static long
ppc64_radix_find(const struct dk_pmap_build *b, uint64_t pa)
{
	for (size_t i = 0; i < b->npt; i++)
		if (b->pt_pa[i] == pa)
			return (long)i;
	return -1;
}

/*
 * The entry idx of table tbl (-1: the root), as a pointer into b's
 * buffers; valid until the next table is allocated.
 */
static uint8_t *
ppc64_radix_slot(struct dk_pmap_build *b, long tbl, uint64_t idx)
{
	return (tbl < 0 ? b->pmap : b->pt_data + ((size_t)tbl <<
	    PPC64_PAGE_SHIFT)) + 8 * idx;
}

/* The table below entry idx of tbl, allocated if absent; -1 on error. */
static long
ppc64_radix_down(struct dk_pmap_build *b, long tbl, uint64_t idx,
    size_t *cap, struct dk_err *err)
{
	uint64_t e = dec_be64(ppc64_radix_slot(b, tbl, idx)), pa;
	long k;

	if (e & PPC64_RPTE_VALID) {
		if (e & PPC64_RPTE_LEAF) {
			dk_err_set(err, DK_EINVAL, "powerpc64 pmap: maps "
			    "overlap a radix leaf");
			return -1;
		}
		if ((k = ppc64_radix_find(b, e & PPC64_RPDE_NLB)) < 0)
			dk_err_set(err, DK_EINVAL, "powerpc64 pmap: radix "
			    "table %#jx lost", (uintmax_t)(e &
			    PPC64_RPDE_NLB));
		return k;
	}
	if (b->npt == *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;
		uint64_t *np = realloc(b->pt_pa, ncap * sizeof(*np));
		uint8_t *nd;

		if (np == NULL) {
			dk_err_set(err, DK_ENOMEM, "pmap: out of memory");
			return -1;
		}
		b->pt_pa = np;
		nd = realloc(b->pt_data, ncap << PPC64_PAGE_SHIFT);
		if (nd == NULL) {
			dk_err_set(err, DK_ENOMEM, "pmap: out of memory");
			return -1;
		}
		b->pt_data = nd;
		*cap = ncap;
	}
	pa = b->alloc_pt(b->alloc_arg);
	k = (long)b->npt++;
	b->pt_pa[k] = pa;
	memset(b->pt_data + ((size_t)k << PPC64_PAGE_SHIFT), 0,
	    PPC64_PAGE_SIZE);
	enc_be64(ppc64_radix_slot(b, tbl, idx), PPC64_RPTE_VALID | pa |
	    PPC64_RPDE_NLS);
	return k;
}

/*
 * Encode the maps as a radix tree: the root in the pmap area, lower
 * tables in pages from alloc_pt, all entries big-endian.  A large map
 * uses 1 GiB or 2 MiB leaves where it is aligned, 4 KiB leaves
 * elsewhere.
 */
static enum dk_status
ppc64_radix_build(struct dk_pmap_build *b, struct dk_err *err)
{
	uint64_t kb = b->hdr->v[DK_H_KERNBASE];
	size_t cap = 0;

	for (size_t m = 0; m < b->nmaps; m++) {
		const struct dk_map *mp = &b->maps[m];

		if (((mp->va | mp->pa | mp->len) & (PPC64_PAGE_SIZE - 1)) !=
		    0 || mp->va < kb || mp->va >> 52 != PPC64_RADIX_Q3 ||
		    mp->len > PPC64_RADIX_END - mp->va ||
		    mp->pa > PPC64_RPTE_RPN ||
		    mp->len > PPC64_RPTE_RPN - mp->pa)
			return dk_err_set(err, DK_EINVAL, "powerpc64 pmap: map "
			    "%zu (va %#jx, pa %#jx, %#jx bytes) is not "
			    "page-aligned inside [kernbase %#jx, %#jx) and "
			    "56-bit PA", m, (uintmax_t)mp->va,
			    (uintmax_t)mp->pa, (uintmax_t)mp->len,
			    (uintmax_t)kb, (uintmax_t)PPC64_RADIX_END);
	}
	b->pmap_len = PPC64_RADIX_ROOT_SIZE;
	b->pmap = calloc(1, b->pmap_len);
	if (b->pmap == NULL)
		return dk_err_set(err, DK_ENOMEM, "pmap: out of memory");
	for (size_t m = 0; m < b->nmaps; m++) {
		const struct dk_map *mp = &b->maps[m];
		uint64_t leaf = PPC64_RPTE_VALID | PPC64_RPTE_LEAF |
		    PPC64_RPTE_R | PPC64_RPTE_C | PPC64_RPTE_EAA_P |
		    PPC64_RPTE_EAA_R |
		    ((mp->prot & DK_PROT_W) ? PPC64_RPTE_EAA_W : 0) |
		    ((mp->prot & DK_PROT_X) ? PPC64_RPTE_EAA_X : 0);

		for (uint64_t o = 0; o < mp->len; ) {
			uint64_t va = mp->va + o, pa = mp->pa + o;
			uint64_t left = mp->len - o;
			long tbl = ppc64_radix_down(b, -1, (va >> 39) &
			    (PPC64_RADIX_ROOT_N - 1), &cap, err);
			unsigned shift = 30;

			/* Descend until a leaf of 2^shift bytes fits. */
			while (tbl >= 0) {
				uint64_t size = 1ull << shift;
				uint64_t idx = (va >> shift) &
				    (PPC64_RADIX_N - 1);

				if (shift == PPC64_PAGE_SHIFT || (mp->large &&
				    ((va | pa) & (size - 1)) == 0 &&
				    left >= size)) {
					enc_be64(ppc64_radix_slot(b, tbl, idx),
					    leaf | pa);
					o += size;
					break;
				}
				tbl = ppc64_radix_down(b, tbl, idx, &cap, err);
				shift -= 9;
			}
			if (tbl < 0)
				return err->code;
		}
	}
	/* Table pages in ascending physical order. */
	for (size_t i = 1; i < b->npt; i++)
		for (size_t j = i; j > 0 && b->pt_pa[j - 1] > b->pt_pa[j];
		    j--) {
			uint8_t tmp[PPC64_PAGE_SIZE];
			uint64_t p = b->pt_pa[j];
			uint8_t *x = b->pt_data + (j << PPC64_PAGE_SHIFT);

			b->pt_pa[j] = b->pt_pa[j - 1];
			b->pt_pa[j - 1] = p;
			memcpy(tmp, x, PPC64_PAGE_SIZE);
			memcpy(x, x - PPC64_PAGE_SIZE, PPC64_PAGE_SIZE);
			memcpy(x - PPC64_PAGE_SIZE, tmp, PPC64_PAGE_SIZE);
		}
	return DK_OK;
}

static enum dk_status
ppc64_pmap_build(struct dk_pmap_build *b, struct dk_err *err)
{
	enum ppc64_mmu mmu = ppc64_mmu_of(b->hdr->s[DK_H_MMU_NAME]);

	if (b->page_shift != PPC64_PAGE_SHIFT)
		return dk_err_set(err, DK_EINVAL, "powerpc64 pmap: page shift "
		    "%u, expected %u", b->page_shift, PPC64_PAGE_SHIFT);
	switch (mmu) {
	case PPC64_MMU_G5:
	case PPC64_MMU_PHYP:
		return ppc64_hpt_build(b, mmu, err);
	case PPC64_MMU_RADIX:
		return ppc64_radix_build(b, err);
	default:
		return dk_err_set(err, DK_EINVAL, "powerpc64 pmap: no writer "
		    "for mmu_name \"%.32s\"", b->hdr->s[DK_H_MMU_NAME]);
	}
}

/*
 * Defaults: FreeBSD 12's layout for version 1 (kernel map at
 * 0xe000000000000000, direct map to 0xcfffffffffffffff), FreeBSD 13's
 * for version 2 and radix; mmu_g5 with a 16 MiB direct map unless a
 * variant presets otherwise.  The kernel is linked at 0x100100 and
 * runs in the direct map at startkernel: by default at PA 0x100000,
 * its link address.  The fixture reaches link-time addresses through
 * a window that is exactly the range the reader moves into the direct
 * map (step 1 and 2 at the top of the file).
 */
static void
ppc64_gen_defaults(const struct dk_arch *a, uint32_t version,
    struct dk_mdgen *g, struct dk_hdr *h)
{
	uint64_t db = PPC64_DMAP_BASE, de, sk, disp, lo, hi;

	(void)a;
	memset(g, 0, sizeof(*g));
	if (h->s[DK_H_MMU_NAME][0] == '\0')
		snprintf(h->s[DK_H_MMU_NAME], sizeof(h->s[0]), "mmu_g5");
	if (version == 1 && ppc64_mmu_of(h->s[DK_H_MMU_NAME]) !=
	    PPC64_MMU_RADIX) {
		g->kernbase = PPC64_V1_KERNBASE;
		h->v[DK_H_KERNEND] = PPC64_V1_KERNEND;
		de = PPC64_V1_DMAP_END;
	} else {
		g->kernbase = PPC64_V2_KERNBASE;
		h->v[DK_H_KERNEND] = PPC64_V2_KERNEND;
		de = PPC64_V2_DMAP_END;
	}
	sk = h->v[DK_H_STARTKERNEL] != 0 ? h->v[DK_H_STARTKERNEL] :
	    db + PPC64_LINK_BASE;
	h->v[DK_H_KERNBASE] = g->kernbase;
	h->v[DK_H_DMAPBASE] = db;
	h->v[DK_H_DMAPEND] = de;
	h->v[DK_H_HW_DIRECT_MAP] = 1;
	h->v[DK_H_STARTKERNEL] = sk;
	h->v[DK_H_ENDKERNEL] = sk + PPC64_KIMG_SIZE;
	g->page_shift = PPC64_PAGE_SHIFT;
	g->dmap_base = db;
	g->dmap_end = de + 1;
	g->phys_base = 0;
	g->large_size = 0;		/* the kernel map has 4 KiB pages */
	g->pmap_unit = 0;		/* a hash: no KVA per pmap page */
	g->ktext_va = 0;		/* in the direct map, via win[0] */
	g->kmem_va = g->kernbase + (2u << 20);
	g->phys_max = PPC64_PHYS_MAX;
	g->msgbufsize = PPC64_MSGBUF_SIZE - PPC64_MSGBUF_HDR;
	/*
	 * The window: va < db with db <= va + disp <= de, where pa = va +
	 * disp - db.  For a run address in the direct map (disp between
	 * db - 0x100100 and de) it is [lo, hi) below; no wrap past 2^64.
	 */
	disp = sk - PPC64_LINK_BASE;
	lo = disp >= db ? 0 : db - disp;
	hi = de < disp ? 0 : de - disp >= db - 1 ? db : de - disp + 1;
	if (hi > lo) {
		g->win[0] = (struct dk_window){ DK_WIN_KERNEL,
		    "kernel relocation", lo, hi, lo + disp - db };
		g->nwin = 1;
	}
}

/* The fixture variants of `dumpgen --list`. */
static const struct dk_mdvariant powerpc64_variants[] = {
	{ 1, "-", "mmu_g5 hashed page table, 16 MiB direct map (2019)",
	  { { 0, 0, NULL } } },
	{ 1, "phyp", "mmu_phyp hashed page table (PTEs from H_READ)",
	  { { DK_H_MMU_NAME, 0, "mmu_phyp" } } },
	{ 2, "-", "mmu_g5 hashed page table, dump_avail (2020)",
	  { { 0, 0, NULL } } },
	{ 2, "phyp", "mmu_phyp hashed page table, dump_avail",
	  { { DK_H_MMU_NAME, 0, "mmu_phyp" } } },
	{ 2, "nodmap", "mmu_g5, hw_direct_map 0 (4 KiB direct-map segments)",
	  { { DK_H_HW_DIRECT_MAP, 0, NULL } } },
	{ 2, "reloc", "mmu_phyp, kernel loaded 1 MiB above its link address",
	  { { DK_H_MMU_NAME, 0, "mmu_phyp" },
	    { DK_H_STARTKERNEL, PPC64_DMAP_BASE + 0x200100ull, NULL } } },
	{ 2, "radix", "mmu_radix radix tree (2026)",
	  { { DK_H_MMU_NAME, 0, "mmu_radix" } } },
};

const struct dk_mdarch dk_md_powerpc64 = {
	.family		= "powerpc64",
	.magic		= "minidump FreeBSD/powerpc64",
	.layout		= &powerpc64_layout,
	.versions	= V12,
	.bitmap_word	= ppc64_bitmap_word,
	.setup		= ppc64_setup,
	.kvtop		= ppc64_kvtop,
	.pt_visit	= ppc64_pt_visit,
	.pmap_build	= ppc64_pmap_build,
	.gen_defaults	= ppc64_gen_defaults,
	.variants	= powerpc64_variants,
	.nvariants	= DK_ARRAY_LEN(powerpc64_variants),
};

/* ---------------------------------------------------------------------- */
/* The module (arch.c lists it).                                           */

static const struct dk_arch powerpc64_rows[] = {
	{ .name = "powerpc64", .aliases = "ppc64", .family = "powerpc64",
	  .endian = DK_BE, .elf_machine = PPC64_EM_PPC64,
	  .elf_class = PPC64_ELFCLASS64, .long_size = 8,
	  .minidump = &dk_md_powerpc64, .ops = &dk_arch_powerpc64 },
	{ .name = "powerpc64le", .aliases = "ppc64le", .family = "powerpc64",
	  .endian = DK_LE, .elf_machine = PPC64_EM_PPC64,
	  .elf_class = PPC64_ELFCLASS64, .long_size = 8,
	  .minidump = &dk_md_powerpc64, .ops = &dk_arch_powerpc64 },
};

/*
 * Threads' registers: struct pcb (sys/powerpc/include/pcb.h:
 * pcb_context[20], r12 to r31 as cpu_switch stores them, from 0; pcb_cr
 * 160, pcb_sp (r1) 168, pcb_toc (r2) 176, pcb_lr 184: the pc of a
 * switched-out thread) into gdb's ppc64 NT_PRSTATUS (504 bytes; pr_pid
 * at 32, pr_reg at 112: r0-r31, nip, msr, orig_r3, ctr, link, xer, ccr,
 * softe, trap, dar, dsisr, result and 4 spare, 8 bytes each) and
 * NT_PRPSINFO (136 bytes; pr_pid at 24, pr_fname at 40).
 */
static const struct dk_pcb_slot ppc64_pcb_slots[] = {
	{ "r1", 1, 168 }, { "r2", 2, 176 },
	{ "r12", 12, 0 }, { "r13", 13, 8 }, { "r14", 14, 16 },
	{ "r15", 15, 24 }, { "r16", 16, 32 }, { "r17", 17, 40 },
	{ "r18", 18, 48 }, { "r19", 19, 56 }, { "r20", 20, 64 },
	{ "r21", 21, 72 }, { "r22", 22, 80 }, { "r23", 23, 88 },
	{ "r24", 24, 96 }, { "r25", 25, 104 }, { "r26", 26, 112 },
	{ "r27", 27, 120 }, { "r28", 28, 128 }, { "r29", 29, 136 },
	{ "r30", 30, 144 }, { "r31", 31, 152 },
	{ "pc", 32, 184 }, { "lr", 36, 184 }, { "cr", 38, 160 },
};

static const struct dk_pcb_regs ppc64_pcb = {
	.source		= "sys/powerpc/include/pcb.h",
	.word		= 8,
	.pcb_min	= 192,
	.prstatus_size	= 504,
	.pid_off	= 32,
	.cursig_off	= 12,
	.reg_off	= 112,
	.nregs		= 48,
	.prpsinfo_size	= 136,
	.psinfo_pid_off	= 24,
	.psinfo_fname_off = 40,
	.slots		= ppc64_pcb_slots,
	.nslots		= DK_ARRAY_LEN(ppc64_pcb_slots),
};

const struct dk_arch_ops dk_arch_powerpc64 = {
	.name		= "powerpc64",
	.rows		= powerpc64_rows,
	.nrows		= DK_ARRAY_LEN(powerpc64_rows),
	.page_shift	= PPC64_PAGE_SHIFT,
	.minidump	= &dk_md_powerpc64,
	.walks		= ppc64_walks,
	.nwalks		= DK_ARRAY_LEN(ppc64_walks),
	.prot		= ppc64_prot,
	.pcb		= &ppc64_pcb,
};
