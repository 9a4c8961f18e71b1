/*
 * linux.c -- the Linux kernel seen through a dump of any Linux format
 * (linux.h): kernel virtual addresses and the kernel log.
 *
 * Everything here is read from two places only: the VMCOREINFO
 * attributes the format found (source "VMCOREINFO"; the kdump sub
 * header's phys_base as a fallback) and physical memory (dk_read_pa).
 * VMCOREINFO's spelling (the kernel's vmcoreinfo_append_str and the
 * VMCOREINFO_* macros): SYMBOL(name)=%lx and KERNELOFFSET=%lx are hex
 * without 0x, as are s390x's KERNELOFFPHYS and IDENTITYBASE (6.10);
 * NUMBER(name)=%ld is signed decimal, but the arch values
 * the kernel writes with its own format (NUMBER(kimage_voffset)=0x...,
 * NUMBER(PAGE_OFFSET)=0x...) carry 0x; OFFSET, SIZE and LENGTH are
 * decimal.
 *
 * Kernel virtual addresses: the hardware walk of the architecture
 * module (struct dk_pt_walk) from the kernel's top page table, whose
 * physical address is derived from its symbol:
 *
 *  - x86_64: SYMBOL(init_top_pgt) (init_level4_pgt before 4.13), at
 *    va - __START_KERNEL_map (0xffffffff80000000) + phys_base, as
 *    __pa_symbol() computes it whatever KERNELOFFSET (KASLR moves the
 *    symbols, and phys_base follows); NUMBER(pgtable_l5_enabled)=1
 *    selects 5-level paging (LA57).  The direct map, vmalloc space and
 *    the kernel image are all reached through those tables.
 *  - aarch64: SYMBOL(swapper_pg_dir) at va - NUMBER(kimage_voffset)
 *    (__kimg_to_phys()); the granule from PAGESIZE; the VA bits of
 *    TTBR1 from NUMBER(TCR_EL1_T1SZ) (64 - T1SZ), else NUMBER(VA_BITS);
 *    the levels from both.  A kernel built for 52-bit VAs with 64 KiB
 *    pages that runs with 48 (T1SZ 16) points TTBR1 into its 52-bit
 *    top table, (2^10 - 2^6) entries in (TTBR1_BADDR_4852_OFFSET): the
 *    root is moved so.  52-bit VAs with 4 or 16 KiB pages (FEAT_LPA2)
 *    are not translated, and say so.
 *  - riscv64: SYMBOL(swapper_pg_dir) at va - NUMBER(va_kernel_pa_offset)
 *    (the kernel mapping; else va - NUMBER(PAGE_OFFSET) +
 *    NUMBER(phys_ram_base)); Sv39, Sv48 or Sv57 from NUMBER(VA_BITS),
 *    else from the lowest kernel region VMCOREINFO names
 *    (NUMBER(VMEMMAP_START), NUMBER(PAGE_OFFSET)): the first mode in
 *    whose upper half it lies.
 *
 *  - i386: see mmu_i386.
 *  - s390x: SYMBOL(swapper_pg_dir), the kernel's top table (its ASCE's
 *    origin), at its own address (the identity map of Linux before
 *    6.10), or at va - KERNELOFFSET + KERNELOFFPHYS where VMCOREINFO
 *    has KERNELOFFPHYS (6.10 on: __pa_nodebug() of the image).  Which
 *    table it is (region-first to segment) is in the TT field of its
 *    entries, as libkdumpfile reads it: the first valid one says.
 *  - powerpc64: the linear map by subtraction, the rest through the
 *    radix tree where the kernel ran the radix MMU (mmu_ppc64).
 *  - arm: short descriptors from swapper_pg_dir (mmu_arm).
 *
 * Any other architecture, or a dump whose VMCOREINFO lacks what its
 * walk needs, is DK_EUNSUP naming the architecture and the key.
 *
 * The kernel log: see linux.h; the layouts are the kernel's
 * (kernel/printk/printk_ringbuffer.h since 5.10, struct printk_log in
 * kernel/printk/printk.c 3.5 to 5.9, the plain ring before), found
 * through VMCOREINFO's SYMBOL, SIZE and OFFSET keys, and the text is
 * what makedumpfile 1.7.2's --dump-dmesg writes (facts from its
 * printk.c and dump_dmesg(), checked against its output on a real
 * dump: tests/data/linux/README).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "linux.h"

#define	LX_START_KERNEL_MAP	0xffffffff80000000ull	/* x86_64 */
#define	LX_I386_PAGE_OFFSET	0xc0000000ull	/* i386, VMSPLIT_3G */
#define	LX_ARM_PAGE_OFFSET	0xc0000000ull	/* arm, VMSPLIT_3G */
#define	LX_PPC64_KERNELBASE	0xc000000000000000ull	/* PAGE_OFFSET */
#define	LX_PPC64_LINEAR_END	0xc008000000000000ull	/* VMALLOC_START */
#define	LX_NOKEY		UINT64_MAX

/* ---------------------------------------------------------------------- */
/* VMCOREINFO values.                                                      */

/* The VMCOREINFO attribute key, or NULL. */
static const char *
vmci_str(const struct dk_dump *d, const char *key)
{
	const struct dk_attr *a = dk_attr_find(d, key);

	if (a == NULL || a->type != DK_ATTR_STRING || a->source == NULL ||
	    strcmp(a->source, "VMCOREINFO") != 0)
		return NULL;
	return a->str;
}

/*
 * The number VMCOREINFO gives key: SYMBOL(), KERNELOFFSET and s390x's
 * KERNELOFFPHYS and IDENTITYBASE in hex, the rest decimal (signed)
 * unless written 0x.  0 found, -1 absent or
 * not a number.
 */
static int
vmci_num(const struct dk_dump *d, const char *key, uint64_t *v)
{
	/* The keys the kernel writes with %lx, but SYMBOL()'s. */
	static const char *const hexkeys[] = { "KERNELOFFSET",
	    "KERNELOFFPHYS", "IDENTITYBASE" };
	const char *s = vmci_str(d, key), *p;
	char *end;
	int hex = strncmp(key, "SYMBOL(", 7) == 0;

	for (size_t i = 0; i < DK_ARRAY_LEN(hexkeys); i++)
		if (strcmp(key, hexkeys[i]) == 0)
			hex = 1;

	if (s == NULL || *s == '\0')
		return -1;
	p = s;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		hex = 1;
		p += 2;
	}
	errno = 0;
	if (hex) {
		if (*p == '\0' || *p == '-' || *p == '+')
			return -1;
		*v = strtoull(p, &end, 16);
	} else if (*p == '-')
		*v = (uint64_t)strtoll(p, &end, 10);
	else
		*v = strtoull(p, &end, 10);
	return errno == 0 && end != p && *end == '\0' ? 0 : -1;
}

/* Does d have any VMCOREINFO attribute? */
static int
has_vmcoreinfo(const struct dk_dump *d)
{
	for (size_t i = 0; i < dk_nattrs(d); i++) {
		const struct dk_attr *a = dk_attr(d, i);

		if (a->source != NULL && strcmp(a->source, "VMCOREINFO") == 0)
			return 1;
	}
	return 0;
}

/* DK_EUNSUP: the architecture's translation needs key, which is absent. */
static enum dk_status
need_key(struct dk_dump *d, uint64_t va, const char *key, const char *why,
    struct dk_err *err)
{
	return dk_err_set(err, DK_EUNSUP, "%s: kernel virtual address %#jx: "
	    "%s Linux dump %s %s%s%s%s", d->src.name, (uintmax_t)va,
	    d->info.arch, has_vmcoreinfo(d) ? "whose VMCOREINFO lacks" :
	    "without VMCOREINFO, so without", key, why[0] != '\0' ? " (" : "",
	    why, why[0] != '\0' ? ")" : "");
}

/* ---------------------------------------------------------------------- */
/* Kernel virtual addresses.                                               */

/* A walk of the module, its root and parameters as the dump has them. */
struct lx_mmu {
	struct dk_pt_walk	 w;		/* the module's, adjusted */
	uint64_t		 root;		/* PA of the top table */
	int			 linear;	/* no walk: root is va's PA */
};

static enum dk_status
mmu_amd64(struct dk_dump *d, uint64_t va, struct lx_mmu *m,
    struct dk_err *err)
{
	const char *sym = "SYMBOL(init_top_pgt)";
	const struct dk_pt_walk *w;
	const struct dk_attr *a;
	uint64_t top, phys_base, l5 = 0;

	if (vmci_num(d, sym, &top) != 0) {
		sym = "SYMBOL(init_level4_pgt)";
		if (vmci_num(d, sym, &top) != 0)
			return need_key(d, va, "SYMBOL(init_top_pgt)", "nor "
			    "init_level4_pgt: where the page tables are", err);
	}
	if (vmci_num(d, "NUMBER(phys_base)", &phys_base) != 0) {
		if ((a = dk_attr_find(d, "phys_base")) == NULL ||
		    a->type != DK_ATTR_NUMBER)
			return need_key(d, va, "NUMBER(phys_base)", "and the "
			    "dump header gives none", err);
		phys_base = a->num;
	}
	if (top < LX_START_KERNEL_MAP)
		return dk_err_set(err, DK_ECORRUPT, "%s: VMCOREINFO %s=%jx is "
		    "below __START_KERNEL_map %#jx: not a kernel image address",
		    d->src.name, sym, (uintmax_t)top,
		    (uintmax_t)LX_START_KERNEL_MAP);
	(void)vmci_num(d, "NUMBER(pgtable_l5_enabled)", &l5);
	w = dk_arch_walk(&dk_arch_amd64, l5 == 1 ? "amd64 5-level" :
	    "amd64 4-level");
	m->w = *w;
	m->root = top - LX_START_KERNEL_MAP + phys_base;
	return DK_OK;
}

static enum dk_status
mmu_arm64(struct dk_dump *d, uint64_t va, struct lx_mmu *m,
    struct dk_err *err)
{
	static const struct {
		uint64_t	 size;
		const char	*walk;
	} granules[] = {
		{ 4096, "arm64 4 KiB" },
		{ 16384, "arm64 16 KiB" },
		{ 65536, "arm64 64 KiB" },
	};
	const struct dk_pt_walk *w = NULL;
	uint64_t pagesize = d->page_size, t1sz, vabits, cfgbits, pgd, voff;
	unsigned ps, per, levels, topshift;

	(void)vmci_num(d, "PAGESIZE", &pagesize);
	for (size_t i = 0; i < DK_ARRAY_LEN(granules); i++)
		if (granules[i].size == pagesize)
			w = dk_arch_walk(&dk_arch_arm64, granules[i].walk);
	if (w == NULL)
		return dk_err_set(err, DK_EUNSUP, "%s: kernel virtual address "
		    "%#jx: aarch64 page size %ju: expected 4, 16 or 64 KiB",
		    d->src.name, (uintmax_t)va, (uintmax_t)pagesize);
	if (vmci_num(d, "NUMBER(VA_BITS)", &cfgbits) != 0)
		cfgbits = 0;
	if (vmci_num(d, "NUMBER(TCR_EL1_T1SZ)", &t1sz) == 0 && t1sz < 64)
		vabits = 64 - t1sz;
	else if ((vabits = cfgbits) == 0)
		return need_key(d, va, "NUMBER(TCR_EL1_T1SZ)", "and "
		    "NUMBER(VA_BITS): how many VA bits TTBR1 translates", err);
	if (vmci_num(d, "SYMBOL(swapper_pg_dir)", &pgd) != 0)
		return need_key(d, va, "SYMBOL(swapper_pg_dir)", "where the "
		    "page tables are", err);
	if (vmci_num(d, "NUMBER(kimage_voffset)", &voff) != 0)
		return need_key(d, va, "NUMBER(kimage_voffset)", "where the "
		    "kernel image is in physical memory", err);
	ps = w->page_shift;
	per = ps - 3;
	if (vabits <= ps || vabits > 52)
		return dk_err_set(err, DK_EUNSUP, "%s: kernel virtual address "
		    "%#jx: aarch64 with %ju VA bits: expected %u to 52",
		    d->src.name, (uintmax_t)va, (uintmax_t)vabits, ps + 1);
	levels = (unsigned)(vabits - ps + per - 1) / per;
	if (levels > 4 || (cfgbits > vabits && ps != 16))
		return dk_err_set(err, DK_EUNSUP, "%s: kernel virtual address "
		    "%#jx: aarch64 with %ju-bit VAs (VA_BITS %ju) and %ju-byte "
		    "pages: 52-bit VAs of 4 and 16 KiB pages (FEAT_LPA2) are "
		    "not translated", d->src.name, (uintmax_t)va,
		    (uintmax_t)vabits, (uintmax_t)cfgbits,
		    (uintmax_t)pagesize);
	m->w = *w;
	m->w.va_bits = (unsigned)vabits;
	m->w.levels = levels;
	m->root = pgd - voff;
	topshift = ps + (levels - 1) * per;
	if (cfgbits > vabits && cfgbits - topshift <= per)
		m->root += ((1ull << (cfgbits - topshift)) -
		    (1ull << (vabits - topshift))) * 8;
	return DK_OK;
}

static enum dk_status
mmu_riscv(struct dk_dump *d, uint64_t va, struct lx_mmu *m,
    struct dk_err *err)
{
	static const struct {
		unsigned	 bits;
		const char	*walk;
	} modes[] = {
		{ 39, "riscv Sv39" },
		{ 48, "riscv Sv48" },
		{ 57, "riscv Sv57" },
	};
	uint64_t pgd, off, base, vabits = 0, low = UINT64_MAX, v;
	const struct dk_pt_walk *w = NULL;

	if (vmci_num(d, "SYMBOL(swapper_pg_dir)", &pgd) != 0)
		return need_key(d, va, "SYMBOL(swapper_pg_dir)", "where the "
		    "page tables are", err);
	if (vmci_num(d, "NUMBER(va_kernel_pa_offset)", &off) == 0)
		m->root = pgd - off;
	else if (vmci_num(d, "NUMBER(PAGE_OFFSET)", &off) == 0 &&
	    vmci_num(d, "NUMBER(phys_ram_base)", &base) == 0 && pgd >= off)
		m->root = pgd - off + base;
	else
		return need_key(d, va, "NUMBER(va_kernel_pa_offset)", "where "
		    "the kernel image is in physical memory", err);
	if (vmci_num(d, "NUMBER(VA_BITS)", &vabits) != 0) {
		vabits = 0;
		if (vmci_num(d, "NUMBER(VMEMMAP_START)", &v) == 0)
			low = v;
		if (vmci_num(d, "NUMBER(PAGE_OFFSET)", &v) == 0 && v < low)
			low = v;
		for (size_t i = 0; vabits == 0 && low != UINT64_MAX &&
		    i < DK_ARRAY_LEN(modes); i++)
			if (low >= ~0ull << (modes[i].bits - 1))
				vabits = modes[i].bits;
		if (vabits == 0)
			return need_key(d, va, "NUMBER(VA_BITS)", "and "
			    "NUMBER(PAGE_OFFSET): which of Sv39, Sv48 and "
			    "Sv57 the kernel ran", err);
	}
	for (size_t i = 0; i < DK_ARRAY_LEN(modes); i++)
		if (modes[i].bits == vabits)
			w = dk_arch_walk(&dk_arch_riscv, modes[i].walk);
	if (w == NULL)
		return dk_err_set(err, DK_EUNSUP, "%s: kernel virtual address "
		    "%#jx: riscv64 NUMBER(VA_BITS)=%ju: expected 39, 48 or 57 "
		    "(Sv39, Sv48, Sv57)", d->src.name, (uintmax_t)va,
		    (uintmax_t)vabits);
	m->w = *w;
	return DK_OK;
}

/*
 * i386: swapper_pg_dir in the direct map at PAGE_OFFSET 0xc0000000 (the
 * default VMSPLIT_3G, which makedumpfile and libkdumpfile assume too:
 * VMCOREINFO does not say), a PDPT with CONFIG_X86_PAE=y, else a page
 * directory of 4-byte entries.
 */
static enum dk_status
mmu_i386(struct dk_dump *d, uint64_t va, struct lx_mmu *m,
    struct dk_err *err)
{
	const char *pae = vmci_str(d, "CONFIG_X86_PAE");
	uint64_t pgd;

	if (vmci_num(d, "SYMBOL(swapper_pg_dir)", &pgd) != 0)
		return need_key(d, va, "SYMBOL(swapper_pg_dir)", "where the "
		    "page tables are", err);
	if (pgd < LX_I386_PAGE_OFFSET || pgd > UINT32_MAX)
		return dk_err_set(err, DK_ECORRUPT, "%s: VMCOREINFO "
		    "SYMBOL(swapper_pg_dir)=%jx is not in i386's direct map "
		    "from %#jx", d->src.name, (uintmax_t)pgd,
		    (uintmax_t)LX_I386_PAGE_OFFSET);
	m->w = *dk_arch_walk(&dk_arch_i386, pae != NULL && strcmp(pae, "y") ==
	    0 ? "i386 PAE" : "i386");
	m->root = pgd - LX_I386_PAGE_OFFSET;
	return DK_OK;
}

/*
 * s390x: the root as the file's comment says; its type from the first
 * of its 2048 entries whose I bit is clear (an invalid entry's TT is
 * the same in Linux's, _REGION*_ENTRY_EMPTY, but a damaged one need
 * not be).
 */
static enum dk_status
mmu_s390x(struct dk_dump *d, uint64_t va, struct lx_mmu *m,
    struct dk_err *err)
{
	static const char *const walks[] = { "s390x segment",
	    "s390x region-third", "s390x region-second",
	    "s390x region-first" };
	uint64_t pgd, koff, kphys, e;
	enum dk_status st;

	if (vmci_num(d, "SYMBOL(swapper_pg_dir)", &pgd) != 0)
		return need_key(d, va, "SYMBOL(swapper_pg_dir)", "where the "
		    "page tables are", err);
	m->root = pgd;
	if (vmci_num(d, "KERNELOFFPHYS", &kphys) == 0) {
		if (vmci_num(d, "KERNELOFFSET", &koff) != 0 || pgd < koff)
			return dk_err_set(err, DK_ECORRUPT, "%s: VMCOREINFO "
			    "SYMBOL(swapper_pg_dir)=%jx is not in the kernel "
			    "image from KERNELOFFSET (KERNELOFFPHYS=%jx)",
			    d->src.name, (uintmax_t)pgd, (uintmax_t)kphys);
		m->root = pgd - koff + kphys;
	}
	for (unsigned i = 0; i < 2048; i++) {
		if ((st = dk_read_pa_u64(d, m->root + 8 * i, &e, err)) !=
		    DK_OK)
			return dk_err_prefix(err, "%s: kernel virtual address "
			    "%#jx: s390x top table (swapper_pg_dir) at pa %#jx",
			    d->src.name, (uintmax_t)va, (uintmax_t)m->root);
		if ((e & 0x20) == 0) {
			m->w = *dk_arch_walk(&dk_arch_s390x,
			    walks[(e >> 2) & 3]);
			return DK_OK;
		}
	}
	return dk_err_miss(d, err, DK_ENOTMAPPED, "%s: kernel virtual address "
	    "%#jx: not mapped (the s390x top table at pa %#jx, "
	    "swapper_pg_dir, has no valid entry)", d->src.name, (uintmax_t)va,
	    (uintmax_t)m->root);
}

/*
 * powerpc64 (Book3S 64): the linear map [PAGE_OFFSET 0xc000000000000000,
 * 0xc008000000000000), where the kernel image is too, has pa = va -
 * PAGE_OFFSET (__pa(), as makedumpfile translates it); under the radix
 * MMU, which NUMBER(RADIX_MMU)=1 says (Linux 6.7 on), everything is
 * walked from SYMBOL(swapper_pg_dir) at its linear-map PA, the linear
 * map included.  The hash MMU's vmalloc and I/O space are in its hashed
 * page table, which a dump does not describe: not translated.
 */
static enum dk_status
mmu_ppc64(struct dk_dump *d, uint64_t va, struct lx_mmu *m,
    struct dk_err *err)
{
	uint64_t radix, pgd;
	int have = vmci_num(d, "NUMBER(RADIX_MMU)", &radix) == 0;

	if (have && radix == 1) {
		if (vmci_num(d, "SYMBOL(swapper_pg_dir)", &pgd) != 0)
			return need_key(d, va, "SYMBOL(swapper_pg_dir)",
			    "where the radix tree is", err);
		if (pgd < LX_PPC64_KERNELBASE || pgd >= LX_PPC64_LINEAR_END)
			return dk_err_set(err, DK_ECORRUPT, "%s: VMCOREINFO "
			    "SYMBOL(swapper_pg_dir)=%jx is not in the powerpc64 "
			    "linear map [%#jx, %#jx)", d->src.name,
			    (uintmax_t)pgd, (uintmax_t)LX_PPC64_KERNELBASE,
			    (uintmax_t)LX_PPC64_LINEAR_END);
		m->w = *dk_arch_walk(&dk_arch_powerpc64, "powerpc64 radix");
		m->root = pgd - LX_PPC64_KERNELBASE;
		return DK_OK;
	}
	if (va >= LX_PPC64_KERNELBASE && va < LX_PPC64_LINEAR_END) {
		m->linear = 1;
		m->root = va - LX_PPC64_KERNELBASE;
		return DK_OK;
	}
	if (!have)
		return need_key(d, va, "NUMBER(RADIX_MMU)", "Linux 6.7 on: "
		    "whether the radix tree translates what lies outside the "
		    "linear map", err);
	return dk_err_set(err, DK_EUNSUP, "%s: kernel virtual address %#jx: "
	    "outside the powerpc64 linear map [%#jx, %#jx) of a kernel on the "
	    "hash MMU (NUMBER(RADIX_MMU)=%jd), whose hashed page table the "
	    "dump does not describe", d->src.name, (uintmax_t)va,
	    (uintmax_t)LX_PPC64_KERNELBASE, (uintmax_t)LX_PPC64_LINEAR_END,
	    (intmax_t)radix);
}

/*
 * arm (32-bit): swapper_pg_dir, the 16 KiB first-level table of short
 * descriptors, in the direct map at PAGE_OFFSET 0xc0000000 (VMSPLIT_3G,
 * which VMCOREINFO does not say; makedumpfile and crash assume it too),
 * which maps PHYS_OFFSET, the start of RAM: the lowest physical address
 * the dump has (makedumpfile's phys_base of arm).  A kernel built with
 * CONFIG_ARM_LPAE=y (VMCOREINFO_CONFIG(ARM_LPAE)) has long descriptors:
 * not translated.
 */
static enum dk_status
mmu_arm(struct dk_dump *d, uint64_t va, struct lx_mmu *m,
    struct dk_err *err)
{
	const char *lpae = vmci_str(d, "CONFIG_ARM_LPAE");
	uint64_t pgd, phys;

	if (lpae != NULL && strcmp(lpae, "y") == 0)
		return dk_err_set(err, DK_EUNSUP, "%s: kernel virtual address "
		    "%#jx: an arm kernel with CONFIG_ARM_LPAE=y, whose long "
		    "descriptors dumpkit does not walk", d->src.name,
		    (uintmax_t)va);
	if (vmci_num(d, "SYMBOL(swapper_pg_dir)", &pgd) != 0)
		return need_key(d, va, "SYMBOL(swapper_pg_dir)", "where the "
		    "page tables are", err);
	if (pgd < LX_ARM_PAGE_OFFSET || pgd > UINT32_MAX || d->navail == 0)
		return dk_err_set(err, DK_ECORRUPT, "%s: VMCOREINFO "
		    "SYMBOL(swapper_pg_dir)=%jx is not in arm's direct map "
		    "from %#jx%s", d->src.name, (uintmax_t)pgd,
		    (uintmax_t)LX_ARM_PAGE_OFFSET, d->navail == 0 ?
		    " (the dump has no physical memory)" : "");
	phys = d->avail[0].start;
	m->w = *dk_arch_walk(&dk_arch_arm, "arm short descriptor");
	m->root = pgd - LX_ARM_PAGE_OFFSET + phys;
	return DK_OK;
}

/* Which architectures' kernels are translated, and how. */
static const struct {
	const struct dk_arch_ops *m;
	enum dk_status	(*mmu)(struct dk_dump *, uint64_t, struct lx_mmu *,
			    struct dk_err *);
} mmus[] = {
	{ &dk_arch_amd64, mmu_amd64 },
	{ &dk_arch_arm64, mmu_arm64 },
	{ &dk_arch_riscv, mmu_riscv },
	{ &dk_arch_i386, mmu_i386 },
	{ &dk_arch_s390x, mmu_s390x },
	{ &dk_arch_powerpc64, mmu_ppc64 },
	{ &dk_arch_arm, mmu_arm },
};

enum dk_status
dk_linux_kvtop(struct dk_dump *d, uint64_t va, uint64_t *pa,
    struct dk_err *err)
{
	struct lx_mmu m;
	enum dk_status st;

	for (size_t i = 0; i < DK_ARRAY_LEN(mmus); i++) {
		if (d->arch == NULL || d->arch->ops != mmus[i].m)
			continue;
		m.linear = 0;
		if ((st = mmus[i].mmu(d, va, &m, err)) != DK_OK)
			return st;
		if (m.linear) {
			DK_TRACE(d, "linux: va %#jx -> pa %#jx (linear map)",
			    (uintmax_t)va, (uintmax_t)m.root);
			*pa = m.root;
			return DK_OK;
		}
		DK_TRACE(d, "linux: va %#jx: %s walk, %u levels of %u VA bits, "
		    "root at pa %#jx", (uintmax_t)va, m.w.name, m.w.levels,
		    m.w.va_bits, (uintmax_t)m.root);
		if ((st = m.w.translate(d, &m.w, m.root, va, pa, NULL, err)) ==
		    DK_OK)
			DK_TRACE(d, "linux: va %#jx -> pa %#jx", (uintmax_t)va,
			    (uintmax_t)*pa);
		return st;
	}
	return dk_err_set(err, DK_EUNSUP, "%s: kernel virtual address %#jx: "
	    "dumpkit does not translate the kernel addresses of %s Linux "
	    "dumps (it walks the page tables of x86_64, i386, aarch64, "
	    "arm, riscv64, s390x and powerpc64 radix kernels); physical addresses read", d->src.name,
	    (uintmax_t)va, d->arch != NULL ? d->arch->name :
	    "this architecture's");
}

/* ---------------------------------------------------------------------- */
/* Reading kernel memory for the log: a page at a time, per stream.       */

/* The last page a stream of reads touched. */
struct lx_page {
	uint64_t	 va;		/* its first VA; LX_NOKEY: none */
	uint8_t		*buf;		/* page_size bytes */
};

struct lx_log {
	struct dk_dump	*d;
	unsigned	 lsize;		/* sizeof(long) of the kernel */
	enum dk_endian	 e;
	struct lx_page	 pg[3];		/* descriptors, infos, text */
	/* The text as it is written: a buffer handed to put when full. */
	int		(*put)(void *, const char *, size_t);
	void		*arg;
	int		 stopped;	/* put asked to stop */
	char		 out[8192];
	size_t		 nout;
	/* The damaged places: handed to bad (if any), the first kept. */
	void		(*bad)(void *, const struct dk_linux_logbad *);
	void		*barg;
	uint64_t	 nbad;
	int		 fatal;		/* the walk stopped at one of them */
	char		 first[400];
	char		 last[400];
};

/* The library's message m without its "NAME: " prefix. */
static const char *
lx_unprefixed(const struct lx_log *lg, const char *m)
{
	size_t n = strlen(lg->d->src.name);

	if (strncmp(m, lg->d->src.name, n) == 0 && m[n] == ':' &&
	    m[n + 1] == ' ')
		return m + n + 2;
	return m;
}

/*
 * A damaged place of the log, of code at va (DK_LX_NOVA: none): handed
 * to bad, counted, the first and the last kept for the error.
 */
static void
lx_bad(struct lx_log *lg, const char *code, uint64_t va, const char *fmt,
    ...) __attribute__((format(printf, 4, 5)));

static void
lx_bad(struct lx_log *lg, const char *code, uint64_t va, const char *fmt,
    ...)
{
	struct dk_linux_logbad b = { code, va, lg->last };
	va_list ap;
	int k;

	k = snprintf(lg->last, sizeof(lg->last), "the kernel log: ");
	va_start(ap, fmt);
	(void)vsnprintf(lg->last + k, sizeof(lg->last) - (size_t)k, fmt, ap);
	va_end(ap);
	if (lg->nbad++ == 0)
		memcpy(lg->first, lg->last, sizeof(lg->first));
	if (lg->bad != NULL)
		lg->bad(lg->barg, &b);
}

/*
 * The walk stops at a damaged place: DK_ECORRUPT, its words the error
 * (with how many others there were before it).
 */
static enum dk_status
lx_fatal(struct lx_log *lg, struct dk_err *err)
{
	lg->fatal = 1;
	if (lg->nbad > 1)
		return dk_err_set(err, DK_ECORRUPT, "%s: %s (and %ju damaged "
		    "places before it, the first: %s)", lg->d->src.name,
		    lg->last, (uintmax_t)(lg->nbad - 1), lg->first);
	return dk_err_set(err, DK_ECORRUPT, "%s: %s", lg->d->src.name,
	    lg->last);
}

/* Read n bytes of kernel memory at va through stream p. */
static enum dk_status
lx_read(struct lx_log *lg, struct lx_page *p, uint64_t va, void *buf,
    size_t n, const char *what, struct dk_err *err)
{
	uint64_t psz = lg->d->page_size;
	uint8_t *o = buf;
	enum dk_status st;

	while (n > 0) {
		uint64_t pva = va & ~(psz - 1), in = va - pva;
		size_t k = psz - in < n ? (size_t)(psz - in) : n;

		if (p->va != pva) {
			p->va = LX_NOKEY;
			if ((st = dk_read_va(lg->d, pva, p->buf, (size_t)psz,
			    err)) != DK_OK) {
				/*
				 * What is not translated, or not in the
				 * dump (a cut file, a dump of part of
				 * memory), is not damage of the log.
				 */
				if (st == DK_EUNSUP || st == DK_ENOMEM ||
				    st == DK_ENOTDUMPED)
					return dk_err_prefix(err, "%s: the "
					    "kernel log: %s at %#jx",
					    lg->d->src.name, what,
					    (uintmax_t)va);
				lx_bad(lg, "linux.log-unreadable", va, "%s at "
				    "%#jx: %s", what,
				    (uintmax_t)va, lx_unprefixed(lg, err->msg));
				(void)lx_fatal(lg, err);
				return st;
			}
			p->va = pva;
		}
		memcpy(o, p->buf + in, k);
		o += k;
		va += k;
		n -= k;
	}
	return DK_OK;
}

/* An unsigned integer of width bytes at b, in the dump's byte order. */
static uint64_t
lx_dec(const struct lx_log *lg, const uint8_t *b, unsigned width)
{
	return dec_uint(b, width, lg->e);
}

/* A long (sizeof(long) bytes) of kernel memory at va. */
static enum dk_status
lx_ulong(struct lx_log *lg, uint64_t va, uint64_t *v, const char *what,
    struct dk_err *err)
{
	uint8_t b[8];
	enum dk_status st;

	if ((st = lx_read(lg, &lg->pg[0], va, b, lg->lsize, what, err)) !=
	    DK_OK)
		return st;
	*v = lx_dec(lg, b, lg->lsize);
	return DK_OK;
}

/* A 32-bit int of kernel memory at va. */
static enum dk_status
lx_u32(struct lx_log *lg, uint64_t va, uint64_t *v, const char *what,
    struct dk_err *err)
{
	uint8_t b[4];
	enum dk_status st;

	if ((st = lx_read(lg, &lg->pg[0], va, b, 4, what, err)) != DK_OK)
		return st;
	*v = lx_dec(lg, b, 4);
	return DK_OK;
}

static void
lx_flush(struct lx_log *lg)
{
	if (lg->nout > 0 && !lg->stopped)
		lg->stopped = lg->put(lg->arg, lg->out, lg->nout) != 0;
	lg->nout = 0;
}

static void
lx_emit(struct lx_log *lg, const char *s, size_t n)
{
	if (lg->put == NULL)
		return;		/* a check: the text is read, not written */
	while (n > 0 && !lg->stopped) {
		size_t k = sizeof(lg->out) - lg->nout;

		if (k > n)
			k = n;
		memcpy(lg->out + lg->nout, s, k);
		lg->nout += k;
		s += k;
		n -= k;
		if (lg->nout == sizeof(lg->out))
			lx_flush(lg);
	}
}

/*
 * The prefix of a record logged ts nanoseconds after boot, as
 * makedumpfile writes it: "[%5llu.%06lu] ", seconds and microseconds.
 */
static size_t
lx_stamp(char *b, size_t n, uint64_t ts)
{
	int k = snprintf(b, n, "[%5" PRIu64 ".%06" PRIu64 "] ",
	    ts / 1000000000u, ts % 1000000000u / 1000u);

	return k > 0 ? (size_t)k : 0;
}

/*
 * A record's text as makedumpfile writes it, after the prefix: a
 * newline is followed by as many spaces as the prefix has characters;
 * a byte isprint() or isspace() in the C locale (0x20 to 0x7e, \t \n
 * \v \f \r) is written as is; any other as \x and the hex of the byte
 * as a (signed, x86's) char promoted to int, so that 0x00 to 0x1f give
 * two digits and 0x80 to 0xff eight ("\xffffffc3").
 */
static void
lx_text(struct lx_log *lg, const uint8_t *t, size_t n, size_t indent)
{
	static const char spaces[] = "                                ";
	char esc[16];

	for (size_t i = 0; i < n && !lg->stopped; i++) {
		unsigned c = t[i];

		if (c == '\n') {
			lx_emit(lg, "\n", 1);
			for (size_t k = indent; k > 0; ) {
				size_t j = k < sizeof(spaces) - 1 ? k :
				    sizeof(spaces) - 1;

				lx_emit(lg, spaces, j);
				k -= j;
			}
		} else if ((c >= 0x20 && c < 0x7f) || (c >= '\t' && c <= '\r')) {
			char ch = (char)c;

			lx_emit(lg, &ch, 1);
		} else {
			int k = snprintf(esc, sizeof(esc), "\\x%02x",
			    c < 0x80 ? c : (unsigned)(int)(signed char)c);

			lx_emit(lg, esc, (size_t)k);
		}
	}
}

/* A record: its stamp, its text (read from va through stream p), "\n". */
static enum dk_status
lx_record(struct lx_log *lg, struct lx_page *p, uint64_t ts, uint64_t va,
    size_t len, struct dk_err *err)
{
	char stamp[48];
	uint8_t chunk[512];
	size_t indent = lx_stamp(stamp, sizeof(stamp), ts);
	enum dk_status st;

	lx_emit(lg, stamp, indent);
	while (len > 0 && !lg->stopped) {
		size_t k = len < sizeof(chunk) ? len : sizeof(chunk);

		if ((st = lx_read(lg, p, va, chunk, k, "a record's text",
		    err)) != DK_OK)
			return st;
		if (lg->put != NULL)
			lx_text(lg, chunk, k, indent);
		va += k;
		len -= k;
	}
	lx_emit(lg, "\n", 1);
	return DK_OK;
}

/* ---------------------------------------------------------------------- */
/* The layouts.                                                            */

/* Hard bounds on what the dump says (the kernel's own limits). */
#define	LX_MAX_STRUCT		4096		/* SIZE(...) of a struct */
#define	LX_MAX_LOG_SHIFT	31		/* LOG_BUF_LEN_MAX = 2^31 */
#define	LX_MAX_DESC_SHIFT	26		/* 2^31 >> PRB_AVGBITS (5) */

/*
 * The VMCOREINFO numbers a layout needs, by key; the first missing one
 * is named.  lo and hi bound each.
 */
struct lx_key {
	const char	*key;
	const char	*alt;		/* its name before 3.11 (struct log) */
	uint64_t	*v;
};

static enum dk_status
lx_keys(struct lx_log *lg, const struct lx_key *k, size_t n,
    const char *layout, struct dk_err *err)
{
	for (size_t i = 0; i < n; i++) {
		if (vmci_num(lg->d, k[i].key, k[i].v) == 0 || (k[i].alt !=
		    NULL && vmci_num(lg->d, k[i].alt, k[i].v) == 0)) {
			if (*k[i].v > LX_MAX_STRUCT &&
			    strncmp(k[i].key, "SYMBOL(", 7) != 0)
				return dk_err_set(err, DK_ELIMIT, "%s: the "
				    "kernel log: VMCOREINFO %s=%ju: expected "
				    "at most %u", lg->d->src.name, k[i].key,
				    (uintmax_t)*k[i].v, LX_MAX_STRUCT);
			continue;
		}
		return dk_err_set(err, DK_EUNSUP, "%s: the kernel log (%s): "
		    "VMCOREINFO has no %s", lg->d->src.name, layout,
		    k[i].key);
	}
	return DK_OK;
}

/* A field of width w at off must lie inside a struct of size bytes. */
static enum dk_status
lx_inside(struct lx_log *lg, const char *key, uint64_t off, unsigned w,
    uint64_t size, const char *sizekey, struct dk_err *err)
{
	if (off + w <= size)
		return DK_OK;
	return dk_err_set(err, DK_ECORRUPT, "%s: the kernel log: VMCOREINFO "
	    "%s=%ju puts a %u-byte field past %s=%ju", lg->d->src.name, key,
	    (uintmax_t)off, w, sizekey, (uintmax_t)size);
}

/* An optional key: its value, or LX_NOKEY where absent or past max. */
static uint64_t
lx_opt(const struct lx_log *lg, const char *key, uint64_t max)
{
	uint64_t v;

	return vmci_num(lg->d, key, &v) == 0 && v <= max ? v : LX_NOKEY;
}

/*
 * The lockless ring (5.10 on): struct printk_ringbuffer at *prb holds
 * the descriptor ring (count_bits, descs, infos, head_id, tail_id) and
 * the text data ring (size_bits, data, head_lpos, tail_lpos).  Records
 * are the ids tail_id to head_id (62-bit ids on 64-bit kernels, 30 on
 * 32); a descriptor's state_var has the id in its low bits and the
 * state in its top two: only committed (1) and finalized (2) ones are
 * printed.  Its text block [begin, next) starts with the id (a long):
 * positions are logical (the wrap count above size_bits), a block in
 * the next wrap than its begin starts at 0 (data_alloc()); positions
 * with bit 0 set are no block (FAILED_LPOS, EMPTY_LINE_LPOS).
 *
 * What is checked, each damaged place of its code: count_bits and
 * size_bits (linux.log-ring; the walk stops); tail_id to head_id no
 * more than the descriptors, head_lpos - tail_lpos no more than the
 * text ring (-ids; the first stops the walk); a descriptor of the range
 * holding another id (-desc), but the head's still holding the previous
 * wrap's, reusable, while desc_reserve() runs; a block whose positions
 * are not aligned to a long, not in one wrap or the next, outside
 * [tail_lpos, head_lpos], too short for its id, or whose first long is
 * not the id (-block); text_len past the block (-text-len: printed
 * cut, as makedumpfile prints it); seq not congruent to the
 * descriptor's index modulo the count, or not one more per id than the
 * first record's (-seq: prb_reserve() numbers records so).  A record
 * whose descriptor or block is damaged is skipped; the walk goes on.
 */
static enum dk_status
lx_lockless(struct lx_log *lg, struct dk_err *err)
{
	uint64_t prb_sym, sz_rb, o_desc_ring, o_text_ring, o_count, o_descs,
	    o_infos, o_head, o_tail, sz_desc, o_sv, o_tblk, o_begin, o_next,
	    sz_info, o_ts, o_tlen, o_size_bits, o_data, o_counter;
	const struct lx_key keys[] = {
		{ "SYMBOL(prb)", NULL, &prb_sym },
		{ "SIZE(printk_ringbuffer)", NULL, &sz_rb },
		{ "OFFSET(printk_ringbuffer.desc_ring)", NULL, &o_desc_ring },
		{ "OFFSET(printk_ringbuffer.text_data_ring)", NULL,
		  &o_text_ring },
		{ "OFFSET(prb_desc_ring.count_bits)", NULL, &o_count },
		{ "OFFSET(prb_desc_ring.descs)", NULL, &o_descs },
		{ "OFFSET(prb_desc_ring.infos)", NULL, &o_infos },
		{ "OFFSET(prb_desc_ring.head_id)", NULL, &o_head },
		{ "OFFSET(prb_desc_ring.tail_id)", NULL, &o_tail },
		{ "SIZE(prb_desc)", NULL, &sz_desc },
		{ "OFFSET(prb_desc.state_var)", NULL, &o_sv },
		{ "OFFSET(prb_desc.text_blk_lpos)", NULL, &o_tblk },
		{ "OFFSET(prb_data_blk_lpos.begin)", NULL, &o_begin },
		{ "OFFSET(prb_data_blk_lpos.next)", NULL, &o_next },
		{ "SIZE(printk_info)", NULL, &sz_info },
		{ "OFFSET(printk_info.ts_nsec)", NULL, &o_ts },
		{ "OFFSET(printk_info.text_len)", NULL, &o_tlen },
		{ "OFFSET(prb_data_ring.size_bits)", NULL, &o_size_bits },
		{ "OFFSET(prb_data_ring.data)", NULL, &o_data },
		{ "OFFSET(atomic_long_t.counter)", NULL, &o_counter },
	};
	const char *what = "printk_ringbuffer";
	unsigned L = lg->lsize;
	uint8_t rb[LX_MAX_STRUCT], desc[LX_MAX_STRUCT], inf[LX_MAX_STRUCT];
	uint8_t idb[8];
	uint64_t prb, count_bits, size_bits, count, size, descs, infos, data;
	uint64_t head, tail, idmask, lmask, n, o_seq, o_hl, o_tl, hl = 0,
	    tl = 0, span = 0, base_id = 0, base_seq = 0;
	int lpos = 0, based = 0;
	enum dk_status st;

	if ((st = lx_keys(lg, keys, DK_ARRAY_LEN(keys), "the lockless "
	    "ring buffer", err)) != DK_OK)
		return st;
	/* Every field the walk reads lies inside its struct. */
	{
		const struct {
			const char *key;
			uint64_t off;
			unsigned w;
			uint64_t size;
			const char *skey;
		} f[] = {
			{ "OFFSET(prb_desc_ring.count_bits)", o_desc_ring +
			  o_count, 4, sz_rb, "SIZE(printk_ringbuffer)" },
			{ "OFFSET(prb_desc_ring.descs)", o_desc_ring + o_descs,
			  L, sz_rb, "SIZE(printk_ringbuffer)" },
			{ "OFFSET(prb_desc_ring.infos)", o_desc_ring + o_infos,
			  L, sz_rb, "SIZE(printk_ringbuffer)" },
			{ "OFFSET(prb_desc_ring.head_id)", o_desc_ring +
			  o_head + o_counter, L, sz_rb,
			  "SIZE(printk_ringbuffer)" },
			{ "OFFSET(prb_desc_ring.tail_id)", o_desc_ring +
			  o_tail + o_counter, L, sz_rb,
			  "SIZE(printk_ringbuffer)" },
			{ "OFFSET(prb_data_ring.size_bits)", o_text_ring +
			  o_size_bits, 4, sz_rb, "SIZE(printk_ringbuffer)" },
			{ "OFFSET(prb_data_ring.data)", o_text_ring + o_data,
			  L, sz_rb, "SIZE(printk_ringbuffer)" },
			{ "OFFSET(prb_desc.state_var)", o_sv + o_counter, L,
			  sz_desc, "SIZE(prb_desc)" },
			{ "OFFSET(prb_data_blk_lpos.begin)", o_tblk + o_begin,
			  L, sz_desc, "SIZE(prb_desc)" },
			{ "OFFSET(prb_data_blk_lpos.next)", o_tblk + o_next,
			  L, sz_desc, "SIZE(prb_desc)" },
			{ "OFFSET(printk_info.ts_nsec)", o_ts, 8, sz_info,
			  "SIZE(printk_info)" },
			{ "OFFSET(printk_info.text_len)", o_tlen, 2, sz_info,
			  "SIZE(printk_info)" },
		};

		for (size_t i = 0; i < DK_ARRAY_LEN(f); i++)
			if ((st = lx_inside(lg, f[i].key, f[i].off, f[i].w,
			    f[i].size, f[i].skey, err)) != DK_OK)
				return st;
	}
	/* What 5.10 on export beside: checked where it is given. */
	o_seq = lx_opt(lg, "OFFSET(printk_info.seq)", sz_info - 8);
	o_hl = lx_opt(lg, "OFFSET(prb_data_ring.head_lpos)", LX_MAX_STRUCT);
	o_tl = lx_opt(lg, "OFFSET(prb_data_ring.tail_lpos)", LX_MAX_STRUCT);
	if (o_hl != LX_NOKEY && o_tl != LX_NOKEY &&
	    o_text_ring + o_hl + o_counter + L <= sz_rb &&
	    o_text_ring + o_tl + o_counter + L <= sz_rb)
		lpos = 1;
	if ((st = lx_ulong(lg, prb_sym, &prb, "prb", err)) != DK_OK ||
	    (st = lx_read(lg, &lg->pg[0], prb, rb, (size_t)sz_rb, what,
	    err)) != DK_OK)
		return st;
	count_bits = lx_dec(lg, rb + o_desc_ring + o_count, 4);
	size_bits = lx_dec(lg, rb + o_text_ring + o_size_bits, 4);
	descs = lx_dec(lg, rb + o_desc_ring + o_descs, L);
	infos = lx_dec(lg, rb + o_desc_ring + o_infos, L);
	head = lx_dec(lg, rb + o_desc_ring + o_head + o_counter, L);
	tail = lx_dec(lg, rb + o_desc_ring + o_tail + o_counter, L);
	data = lx_dec(lg, rb + o_text_ring + o_data, L);
	if (size_bits > LX_MAX_LOG_SHIFT || (1ull << size_bits) < 2 * L) {
		lx_bad(lg, "linux.log-ring", prb + o_text_ring + o_size_bits,
		    "the printk_ringbuffer at %#jx has a text ring of 2^%ju "
		    "bytes: expected 2^%u to 2^%u", (uintmax_t)prb,
		    (uintmax_t)size_bits, L == 8 ? 4 : 3, LX_MAX_LOG_SHIFT);
		return lx_fatal(lg, err);
	}
	if (count_bits > size_bits || count_bits > LX_MAX_DESC_SHIFT) {
		lx_bad(lg, "linux.log-ring", prb + o_desc_ring + o_count, "the "
		    "printk_ringbuffer at %#jx has 2^%ju descriptors "
		    "(count_bits) for a text ring of 2^%ju bytes: expected at "
		    "most 2^%u, and no more descriptors than bytes",
		    (uintmax_t)prb, (uintmax_t)count_bits,
		    (uintmax_t)size_bits, LX_MAX_DESC_SHIFT);
		return lx_fatal(lg, err);
	}
	count = 1ull << count_bits;
	size = 1ull << size_bits;
	idmask = L == 8 ? ~(3ull << 62) : 0x3fffffffull;
	lmask = L == 8 ? ~0ull : 0xffffffffull;
	n = ((head - tail) & idmask) + 1;
	if (n > count) {
		lx_bad(lg, "linux.log-ids", prb + o_desc_ring + o_tail +
		    o_counter, "the printk_ringbuffer at %#jx has tail_id %#jx "
		    "and head_id %#jx, %ju records apart: more than its %ju "
		    "descriptors", (uintmax_t)prb, (uintmax_t)tail,
		    (uintmax_t)head, (uintmax_t)n, (uintmax_t)count);
		return lx_fatal(lg, err);
	}
	if (lpos) {
		hl = lx_dec(lg, rb + o_text_ring + o_hl + o_counter, L);
		tl = lx_dec(lg, rb + o_text_ring + o_tl + o_counter, L);
		if ((span = (hl - tl) & lmask) > size) {
			lx_bad(lg, "linux.log-ids", prb + o_text_ring + o_tl +
			    o_counter, "the printk_ringbuffer at %#jx has "
			    "tail_lpos %#jx and head_lpos %#jx, %ju bytes "
			    "apart: more than its text ring's %ju",
			    (uintmax_t)prb, (uintmax_t)tl, (uintmax_t)hl,
			    (uintmax_t)span, (uintmax_t)size);
			lpos = 0;
		}
	}
	DK_TRACE(lg->d, "linux: printk_ringbuffer at %#jx: %ju descriptors "
	    "at %#jx, infos at %#jx, %ju text bytes at %#jx, ids %#jx..%#jx",
	    (uintmax_t)prb, (uintmax_t)count, (uintmax_t)descs,
	    (uintmax_t)infos, (uintmax_t)size, (uintmax_t)data,
	    (uintmax_t)tail, (uintmax_t)head);
	for (uint64_t id = tail, i = 0; i < n && !lg->stopped;
	    i++, id = (id + 1) & idmask) {
		uint64_t slot = id & (count - 1), dva = descs + slot * sz_desc;
		uint64_t iva = infos + slot * sz_info, sv, svid, state, begin;
		uint64_t next, at = 0, blen = 0, len, ts, seq, bva;
		const char *why = NULL;

		if ((st = lx_read(lg, &lg->pg[0], dva, desc, (size_t)sz_desc,
		    "a descriptor (prb_desc)", err)) != DK_OK)
			return st;
		sv = lx_dec(lg, desc + o_sv + o_counter, L);
		svid = sv & idmask;
		state = (sv >> (8 * L - 2)) & 3;
		if (svid != id) {
			if (id != head || state != 3 ||
			    svid != ((id - count) & idmask))
				lx_bad(lg, "linux.log-desc", dva + o_sv +
				    o_counter, "record %#jx: its descriptor "
				    "(index %ju at %#jx) has state_var %#jx, "
				    "the id %#jx: expected the id %#jx",
				    (uintmax_t)id, (uintmax_t)slot,
				    (uintmax_t)dva, (uintmax_t)sv,
				    (uintmax_t)svid, (uintmax_t)id);
			continue;	/* the head being reserved */
		}
		if (state == 0 || state == 3)
			continue;	/* reserved or reusable: not shown */
		bva = dva + o_tblk + o_begin;
		begin = lx_dec(lg, desc + o_tblk + o_begin, L) & lmask;
		next = lx_dec(lg, desc + o_tblk + o_next, L) & lmask;
		if ((begin & 1) && (next & 1))
			continue;	/* no text block */
		if (((begin | next) & (L - 1)) != 0)
			why = "not aligned to a long";
		else if (begin >> size_bits == next >> size_bits) {
			at = begin & (size - 1);
			if (next <= begin)
				why = "empty or ending before it begins";
			blen = next - begin;
		} else if ((((begin >> size_bits) + 1) & (lmask >> size_bits)) ==
		    next >> size_bits) {
			at = 0;		/* wrapped: from the ring's start */
			blen = next & (size - 1);
		} else
			why = "more than one wrap of the ring long";
		if (why == NULL && blen < L)
			why = "too short for its id";
		if (why == NULL && lpos && (((begin - tl) & lmask) > span ||
		    ((next - tl) & lmask) > span))
			why = "outside the text ring's [tail_lpos, head_lpos]";
		if (why != NULL) {
			char ring[96] = "";

			if (lpos)
				snprintf(ring, sizeof(ring), ", tail_lpos "
				    "%#jx, head_lpos %#jx", (uintmax_t)tl,
				    (uintmax_t)hl);
			lx_bad(lg, "linux.log-block", bva, "record %#jx: its "
			    "text block [%#jx, %#jx) (descriptor index %ju) is "
			    "%s (a text ring of %ju bytes%s)", (uintmax_t)id,
			    (uintmax_t)begin, (uintmax_t)next, (uintmax_t)slot,
			    why, (uintmax_t)size, ring);
			continue;
		}
		if ((st = lx_read(lg, &lg->pg[2], data + at, idb, L,
		    "a record's text block", err)) != DK_OK)
			return st;
		if (lx_dec(lg, idb, L) != id) {
			lx_bad(lg, "linux.log-block", data + at, "record %#jx: "
			    "its text block at %#jx (position %#jx) starts "
			    "with the id %#jx: expected the record's",
			    (uintmax_t)id, (uintmax_t)(data + at),
			    (uintmax_t)begin, (uintmax_t)lx_dec(lg, idb, L));
			continue;
		}
		if ((st = lx_read(lg, &lg->pg[1], iva, inf, (size_t)sz_info,
		    "a record's printk_info", err)) != DK_OK)
			return st;
		len = lx_dec(lg, inf + o_tlen, 2);
		ts = lx_dec(lg, inf + o_ts, 8);
		if (len > blen - L) {
			lx_bad(lg, "linux.log-text-len", iva + o_tlen, "record "
			    "%#jx: text_len %ju, but its text block holds %ju "
			    "bytes after the id: printed cut", (uintmax_t)id,
			    (uintmax_t)len, (uintmax_t)(blen - L));
			len = blen - L;
		}
		if (o_seq != LX_NOKEY) {
			seq = lx_dec(lg, inf + o_seq, 8);
			if ((seq & (count - 1)) != slot)
				lx_bad(lg, "linux.log-seq", iva + o_seq, "record "
				    "%#jx: seq %ju is not its descriptor's index "
				    "%ju modulo the %ju descriptors, as the "
				    "kernel numbers records", (uintmax_t)id,
				    (uintmax_t)seq, (uintmax_t)slot,
				    (uintmax_t)count);
			else if (based && seq != base_seq + ((id - base_id) &
			    idmask))
				lx_bad(lg, "linux.log-seq", iva + o_seq, "record "
				    "%#jx: seq %ju: expected %ju, one more per "
				    "id than record %#jx's %ju", (uintmax_t)id,
				    (uintmax_t)seq, (uintmax_t)(base_seq +
				    ((id - base_id) & idmask)),
				    (uintmax_t)base_id, (uintmax_t)base_seq);
			else if (!based) {
				based = 1;
				base_id = id;
				base_seq = seq;
			}
		}
		if ((st = lx_record(lg, &lg->pg[2], ts, data + at + L,
		    (size_t)len, err)) != DK_OK)
			return st;
	}
	return DK_OK;
}

/*
 * struct printk_log records (3.5 to 5.9; struct log before 3.11) in
 * the buffer *log_buf of log_buf_len bytes, from log_first_idx to
 * log_next_idx: a record's len (its size) leads to the next; a len of 0
 * ends the buffer, the record at 0 stands for it.  The text follows
 * the header, then the dictionary (dict_len).
 *
 * What is checked, each damaged place of its code: log_buf_len a power
 * of two from a header to 2^31 (linux.log-ring); log_first_idx and
 * log_next_idx multiples of 4 below it (-ids); a record's len at least
 * a header, a multiple of 4, inside the buffer and leaving room for the
 * next header, as log_store() places records (-record); text and
 * dictionary inside it (-text-len: printed cut); an end marker (len 0)
 * not at 0, met once, the walk not passing log_first_idx after it nor
 * taking more records than fit (-wrap).  All but -text-len stop the
 * walk: the next record cannot be found.
 */
static enum dk_status
lx_printk_log(struct lx_log *lg, struct dk_err *err)
{
	uint64_t buf_sym, len_sym, first_sym, next_sym, sz, o_ts, o_len,
	    o_tlen, o_dlen;
	const struct lx_key keys[] = {
		{ "SYMBOL(log_buf)", NULL, &buf_sym },
		{ "SYMBOL(log_buf_len)", NULL, &len_sym },
		{ "SYMBOL(log_first_idx)", NULL, &first_sym },
		{ "SYMBOL(log_next_idx)", NULL, &next_sym },
		{ "SIZE(printk_log)", "SIZE(log)", &sz },
		{ "OFFSET(printk_log.ts_nsec)", "OFFSET(log.ts_nsec)", &o_ts },
		{ "OFFSET(printk_log.len)", "OFFSET(log.len)", &o_len },
		{ "OFFSET(printk_log.text_len)", "OFFSET(log.text_len)",
		  &o_tlen },
	};
	uint8_t h[LX_MAX_STRUCT];
	uint64_t buf, blen, first, nidx, at, nrec = 0;
	int wrapped = 0;
	enum dk_status st;

	if ((st = lx_keys(lg, keys, DK_ARRAY_LEN(keys), "struct printk_log "
	    "records", err)) != DK_OK ||
	    (st = lx_inside(lg, "OFFSET(printk_log.ts_nsec)", o_ts, 8, sz,
	    "SIZE(printk_log)", err)) != DK_OK ||
	    (st = lx_inside(lg, "OFFSET(printk_log.len)", o_len, 2, sz,
	    "SIZE(printk_log)", err)) != DK_OK ||
	    (st = lx_inside(lg, "OFFSET(printk_log.text_len)", o_tlen, 2, sz,
	    "SIZE(printk_log)", err)) != DK_OK)
		return st;
	if ((o_dlen = lx_opt(lg, "OFFSET(printk_log.dict_len)", sz - 2)) ==
	    LX_NOKEY)
		o_dlen = lx_opt(lg, "OFFSET(log.dict_len)", sz - 2);
	if ((st = lx_ulong(lg, buf_sym, &buf, "log_buf", err)) != DK_OK ||
	    (st = lx_u32(lg, len_sym, &blen, "log_buf_len", err)) != DK_OK ||
	    (st = lx_u32(lg, first_sym, &first, "log_first_idx", err)) !=
	    DK_OK ||
	    (st = lx_u32(lg, next_sym, &nidx, "log_next_idx", err)) != DK_OK)
		return st;
	if (blen > (1ull << LX_MAX_LOG_SHIFT) || blen < sz ||
	    (blen & (blen - 1)) != 0) {
		lx_bad(lg, "linux.log-ring", len_sym, "log_buf_len %ju: "
		    "expected a power of two from SIZE(printk_log) %ju to 2^%u",
		    (uintmax_t)blen, (uintmax_t)sz, LX_MAX_LOG_SHIFT);
		return lx_fatal(lg, err);
	}
	if (first >= blen || nidx >= blen || first % 4 != 0 ||
	    nidx % 4 != 0) {
		lx_bad(lg, "linux.log-ids", first >= blen || first % 4 != 0 ?
		    first_sym : next_sym, "log_first_idx %ju, log_next_idx "
		    "%ju: expected multiples of 4 below log_buf_len %ju",
		    (uintmax_t)first, (uintmax_t)nidx, (uintmax_t)blen);
		return lx_fatal(lg, err);
	}
	/*
	 * From log_first_idx to log_next_idx, wrapping at most once (at an
	 * end marker) and never past log_first_idx after it: at most
	 * log_buf_len bytes of records, so a damaged ring is found before
	 * it is printed more than once.
	 */
	for (at = first; at != nidx && !lg->stopped; ) {
		uint64_t rec = at, len, tlen, dlen;

		if (++nrec > blen / sz + 1) {
			lx_bad(lg, "linux.log-wrap", buf + rec, "the records "
			    "of log_buf at %#jx do not reach log_next_idx %ju "
			    "in %ju records: they loop", (uintmax_t)buf,
			    (uintmax_t)nidx, (uintmax_t)(blen / sz + 1));
			return lx_fatal(lg, err);
		}
		for (int pass = 0; ; pass++) {
			if (rec + sz > blen) {
				lx_bad(lg, "linux.log-record", buf + rec, "a "
				    "record at index %ju of log_buf (%ju "
				    "bytes) passes its end", (uintmax_t)rec,
				    (uintmax_t)blen);
				return lx_fatal(lg, err);
			}
			if ((st = lx_read(lg, &lg->pg[0], buf + rec, h,
			    (size_t)sz, "a printk_log record", err)) != DK_OK)
				return st;
			if ((len = lx_dec(lg, h + o_len, 2)) != 0)
				break;
			if (pass > 0 || rec == 0) {
				lx_bad(lg, "linux.log-wrap", buf + rec + o_len,
				    "the record at index 0 of log_buf has "
				    "length 0");
				return lx_fatal(lg, err);
			}
			if (wrapped++) {
				lx_bad(lg, "linux.log-wrap", buf + rec + o_len,
				    "the records of log_buf wrap twice (an end "
				    "marker at index %ju) before log_next_idx "
				    "%ju: they loop", (uintmax_t)rec,
				    (uintmax_t)nidx);
				return lx_fatal(lg, err);
			}
			rec = 0;	/* the end marker: wrap */
		}
		if (wrapped && rec >= first && rec != nidx) {
			lx_bad(lg, "linux.log-wrap", buf + rec, "the record at "
			    "index %ju of log_buf, after the wrap, is at or "
			    "past log_first_idx %ju without meeting "
			    "log_next_idx %ju: the records loop",
			    (uintmax_t)rec, (uintmax_t)first, (uintmax_t)nidx);
			return lx_fatal(lg, err);
		}
		tlen = lx_dec(lg, h + o_tlen, 2);
		dlen = o_dlen != LX_NOKEY ? lx_dec(lg, h + o_dlen, 2) : 0;
		if (len < sz || len % 4 != 0 || rec + len > blen - sz) {
			if (rec + len == nidx && len >= sz && len % 4 == 0 &&
			    rec + len <= blen)
				goto fits;	/* the last, up to log_next_idx */
			lx_bad(lg, "linux.log-record", buf + rec + o_len, "the "
			    "record at index %ju of log_buf: length %ju, text "
			    "%ju bytes: expected a length of %ju or more, a "
			    "multiple of 4, ending %ju bytes or more before "
			    "the end of the %ju", (uintmax_t)rec,
			    (uintmax_t)len, (uintmax_t)tlen, (uintmax_t)sz,
			    (uintmax_t)sz, (uintmax_t)blen);
			return lx_fatal(lg, err);
		}
fits:
		if (sz + tlen + dlen > len) {
			lx_bad(lg, "linux.log-text-len", buf + rec + o_tlen,
			    "the record at index %ju of log_buf: length %ju, "
			    "text %ju and dictionary %ju bytes: more than the "
			    "%ju after its header: printed cut",
			    (uintmax_t)rec, (uintmax_t)len, (uintmax_t)tlen,
			    (uintmax_t)dlen, (uintmax_t)(len - sz));
			if (tlen > len - sz)
				tlen = len - sz;
		}
		if ((st = lx_record(lg, &lg->pg[2], lx_dec(lg, h + o_ts, 8),
		    buf + rec + sz, (size_t)tlen, err)) != DK_OK)
			return st;
		at = rec + len;
	}
	return DK_OK;
}

/* The kernel release is older than major.minor.patch (0: not known). */
static int
older_than(const struct dk_dump *d, unsigned a, unsigned b, unsigned c)
{
	const char *r = vmci_str(d, "OSRELEASE");
	unsigned x = 0, y = 0, z = 0;

	if (r == NULL || sscanf(r, "%u.%u.%u", &x, &y, &z) < 2)
		return 0;
	return x != a ? x < a : y != b ? y < b : z < c;
}

/*
 * The plain ring before 3.5: log_buf_len bytes at *log_buf, log_end
 * (unsigned since 2.6.25, unsigned long before) the count of bytes
 * ever written: the oldest is at log_end modulo the length once it
 * has wrapped.  Written as it is.
 */
static enum dk_status
lx_plain(struct lx_log *lg, struct dk_err *err)
{
	uint64_t buf_sym, len_sym, end_sym, buf, blen, end, from;
	const struct lx_key keys[] = {
		{ "SYMBOL(log_buf)", NULL, &buf_sym },
		{ "SYMBOL(log_buf_len)", NULL, &len_sym },
		{ "SYMBOL(log_end)", NULL, &end_sym },
	};
	uint8_t chunk[4096];
	enum dk_status st;

	if ((st = lx_keys(lg, keys, DK_ARRAY_LEN(keys), "the plain log_buf",
	    err)) != DK_OK)
		return st;
	if ((st = lx_ulong(lg, buf_sym, &buf, "log_buf", err)) != DK_OK ||
	    (st = lx_u32(lg, len_sym, &blen, "log_buf_len", err)) != DK_OK ||
	    (st = older_than(lg->d, 2, 6, 25) ? lx_ulong(lg, end_sym, &end,
	    "log_end", err) : lx_u32(lg, end_sym, &end, "log_end", err)) !=
	    DK_OK)
		return st;
	if (blen == 0 || blen > (1ull << LX_MAX_LOG_SHIFT) ||
	    (blen & (blen - 1)) != 0) {
		lx_bad(lg, "linux.log-ring", len_sym, "log_buf_len %ju: "
		    "expected a power of two up to 2^%u", (uintmax_t)blen,
		    LX_MAX_LOG_SHIFT);
		return lx_fatal(lg, err);
	}
	from = end < blen ? 0 : end & (blen - 1);
	for (int part = 0; part < 2 && !lg->stopped; part++) {
		uint64_t at = part == 0 ? from : 0;
		uint64_t stop = end < blen ? (part == 0 ? end : 0) :
		    part == 0 ? blen : from;

		while (at < stop && !lg->stopped) {
			size_t k = stop - at < sizeof(chunk) ?
			    (size_t)(stop - at) : sizeof(chunk);

			if ((st = lx_read(lg, &lg->pg[2], buf + at, chunk, k,
			    "log_buf", err)) != DK_OK)
				return st;
			lx_emit(lg, (const char *)chunk, k);
			at += k;
		}
	}
	return DK_OK;
}

/* ---------------------------------------------------------------------- */
/* The kernel log.                                                         */

/* The walk of d's log: its text to put (NULL: none), its damage to bad. */
static enum dk_status
lx_walk(struct dk_dump *d, int (*put)(void *, const char *, size_t),
    void *arg, void (*bad)(void *, const struct dk_linux_logbad *),
    void *barg, int *judged, struct dk_err *err)
{
	struct lx_log *lg;
	enum dk_status (*layout)(struct lx_log *, struct dk_err *);
	enum dk_status st;

	*judged = 0;
	if (vmci_str(d, "SYMBOL(prb)") != NULL)
		layout = lx_lockless;
	else if (vmci_str(d, "SYMBOL(log_buf)") == NULL)
		return DK_NOMATCH;
	else if (vmci_str(d, "SYMBOL(log_end)") != NULL)
		layout = lx_plain;
	else
		layout = lx_printk_log;
	if (d->arch == NULL || (d->arch->long_size != 4 &&
	    d->arch->long_size != 8))
		return dk_err_set(err, DK_EUNSUP, "%s: the kernel log: the "
		    "dump's architecture is not known", d->src.name);
	if ((lg = calloc(1, sizeof(*lg))) == NULL)
		return dk_err_set(err, DK_ENOMEM, "%s: out of memory",
		    d->src.name);
	lg->d = d;
	lg->lsize = d->arch->long_size;
	lg->e = d->arch->endian;
	lg->put = put;
	lg->arg = arg;
	lg->bad = bad;
	lg->barg = barg;
	st = DK_OK;
	for (size_t i = 0; i < DK_ARRAY_LEN(lg->pg); i++) {
		lg->pg[i].va = LX_NOKEY;
		if ((lg->pg[i].buf = malloc(d->page_size)) == NULL)
			st = dk_err_set(err, DK_ENOMEM, "%s: out of memory",
			    d->src.name);
	}
	/* What was read before a damaged record is handed over too. */
	if (st == DK_OK) {
		st = layout(lg, err);
		lx_flush(lg);
	}
	*judged = st == DK_OK || lg->fatal;
	/* Damage the walk went past: the first is the error. */
	if (st == DK_OK && lg->nbad > 0) {
		if (lg->nbad > 1)
			st = dk_err_set(err, DK_ECORRUPT, "%s: %s (and %ju "
			    "more damaged places)", d->src.name, lg->first,
			    (uintmax_t)(lg->nbad - 1));
		else
			st = dk_err_set(err, DK_ECORRUPT, "%s: %s",
			    d->src.name, lg->first);
	}
	for (size_t i = 0; i < DK_ARRAY_LEN(lg->pg); i++)
		free(lg->pg[i].buf);
	free(lg);
	return st;
}

enum dk_status
dk_linux_log(struct dk_dump *d, int (*put)(void *, const char *, size_t),
    void *arg, struct dk_err *err)
{
	int judged;

	return lx_walk(d, put, arg, NULL, NULL, &judged, err);
}

enum dk_status
dk_linux_log_check(struct dk_dump *d,
    void (*bad)(void *, const struct dk_linux_logbad *), void *arg,
    struct dk_err *err)
{
	int judged;
	enum dk_status st = lx_walk(d, NULL, NULL, bad, arg, &judged, err);

	/* Walked to its end, or to a damage bad was told of. */
	return judged ? DK_OK : st;
}

/* Where dk_linux_read_log puts the text. */
struct lx_fill {
	char	*buf;
	size_t	 len, got;
};

static int
lx_fill_put(void *arg, const char *p, size_t n)
{
	struct lx_fill *f = arg;
	size_t k = f->len - f->got < n ? f->len - f->got : n;

	memcpy(f->buf + f->got, p, k);
	f->got += k;
	return f->got == f->len;
}

enum dk_status
dk_linux_read_log(struct dk_dump *d, void *buf, size_t len, size_t *got,
    struct dk_err *err)
{
	struct lx_fill f = { buf, len, 0 };
	enum dk_status st;

	*got = 0;
	if (len == 0)
		return DK_OK;
	st = dk_linux_log(d, lx_fill_put, &f, err);
	if (st == DK_NOMATCH)
		return DK_OK;
	*got = f.got;
	return st;
}
