/*
 * linux.c -- the Linux kernel seen through a dump of any Linux format
 * (linux.h): kernel virtual addresses and the kernel log.
 *
 * Everything here is read from two places only: the VMCOREINFO
 * attributes the format found (source "VMCOREINFO"; the kdump sub
 * header's phys_base as a fallback) and physical memory (dk_read_pa).
 * VMCOREINFO's spelling (the kernel's vmcoreinfo_append_str and the
 * VMCOREINFO_* macros): SYMBOL(name)=%lx and KERNELOFFSET=%lx are hex
 * without 0x; NUMBER(name)=%ld is signed decimal, but the arch values
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "linux.h"

#define	LX_START_KERNEL_MAP	0xffffffff80000000ull	/* x86_64 */
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
 * The number VMCOREINFO gives key: SYMBOL() and KERNELOFFSET in hex,
 * the rest decimal (signed) unless written 0x.  0 found, -1 absent or
 * not a number.
 */
static int
vmci_num(const struct dk_dump *d, const char *key, uint64_t *v)
{
	const char *s = vmci_str(d, key), *p;
	char *end;
	int hex = strncmp(key, "SYMBOL(", 7) == 0 ||
	    strcmp(key, "KERNELOFFSET") == 0;

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

/* Which architectures' kernels are translated, and how. */
static const struct {
	const struct dk_arch_ops *m;
	enum dk_status	(*mmu)(struct dk_dump *, uint64_t, struct lx_mmu *,
			    struct dk_err *);
} mmus[] = {
	{ &dk_arch_amd64, mmu_amd64 },
	{ &dk_arch_arm64, mmu_arm64 },
	{ &dk_arch_riscv, mmu_riscv },
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
		if ((st = mmus[i].mmu(d, va, &m, err)) != DK_OK)
			return st;
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
	    "dumps (it walks the page tables of x86_64, aarch64 and riscv64 "
	    "kernels); physical addresses read", d->src.name, (uintmax_t)va,
	    d->arch != NULL ? d->arch->name : "this architecture's");
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
};

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
			    err)) != DK_OK)
				return dk_err_prefix(err, "%s: the kernel log: "
				    "%s at %#jx", lg->d->src.name, what,
				    (uintmax_t)va);
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

/*
 * The lockless ring (5.10 on): struct printk_ringbuffer at *prb holds
 * the descriptor ring (count_bits, descs, infos, head_id, tail_id) and
 * the text data ring (size_bits, data).  Records are the ids tail_id to
 * head_id (62-bit ids on 64-bit kernels, 30 on 32); a descriptor's
 * state_var has the id in its low bits and the state in its top two:
 * only committed (1) and finalized (2) ones are printed.  Its text
 * block [begin, next) (positions modulo the ring's size) starts with the
 * id (a long); a block whose begin is past its next wrapped and starts
 * at 0; text_len (printk_info) is cut to the block.
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
	uint64_t prb, count_bits, size_bits, count, size, descs, infos, data;
	uint64_t head, tail, idmask, n;
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
	if (size_bits > LX_MAX_LOG_SHIFT || count_bits > size_bits ||
	    count_bits > LX_MAX_DESC_SHIFT)
		return dk_err_set(err, DK_ECORRUPT, "%s: the kernel log: the "
		    "printk_ringbuffer at %#jx has a text ring of 2^%ju bytes "
		    "and 2^%ju descriptors: expected at most 2^%u bytes and "
		    "2^%u descriptors, no more descriptors than bytes",
		    lg->d->src.name, (uintmax_t)prb, (uintmax_t)size_bits,
		    (uintmax_t)count_bits, LX_MAX_LOG_SHIFT,
		    LX_MAX_DESC_SHIFT);
	count = 1ull << count_bits;
	size = 1ull << size_bits;
	idmask = L == 8 ? ~(3ull << 62) : 0x3fffffffull;
	n = ((head - tail) & idmask) + 1;
	if (n > count)
		return dk_err_set(err, DK_ECORRUPT, "%s: the kernel log: the "
		    "printk_ringbuffer at %#jx has tail_id %#jx and head_id "
		    "%#jx, %ju records apart: more than its %ju descriptors",
		    lg->d->src.name, (uintmax_t)prb, (uintmax_t)tail,
		    (uintmax_t)head, (uintmax_t)n, (uintmax_t)count);
	DK_TRACE(lg->d, "linux: printk_ringbuffer at %#jx: %ju descriptors "
	    "at %#jx, infos at %#jx, %ju text bytes at %#jx, ids %#jx..%#jx",
	    (uintmax_t)prb, (uintmax_t)count, (uintmax_t)descs,
	    (uintmax_t)infos, (uintmax_t)size, (uintmax_t)data,
	    (uintmax_t)tail, (uintmax_t)head);
	for (uint64_t id = tail, i = 0; i < n && !lg->stopped;
	    i++, id = (id + 1) & idmask) {
		uint64_t slot = id % count, sv, begin, next, len, ts;

		if ((st = lx_read(lg, &lg->pg[0], descs + slot * sz_desc, desc,
		    (size_t)sz_desc, "a descriptor (prb_desc)", err)) != DK_OK)
			return st;
		sv = lx_dec(lg, desc + o_sv + o_counter, L);
		if ((sv & idmask) != id || ((sv >> (8 * L - 2)) & 3) == 0 ||
		    ((sv >> (8 * L - 2)) & 3) == 3)
			continue;	/* not this id's, reserved or reusable */
		begin = lx_dec(lg, desc + o_tblk + o_begin, L) % size;
		next = lx_dec(lg, desc + o_tblk + o_next, L) % size;
		if (begin == next)
			continue;	/* no text */
		if ((st = lx_read(lg, &lg->pg[1], infos + slot * sz_info, inf,
		    (size_t)sz_info, "a record's printk_info", err)) != DK_OK)
			return st;
		len = lx_dec(lg, inf + o_tlen, 2);
		ts = lx_dec(lg, inf + o_ts, 8);
		if (begin > next)
			begin = 0;
		if (next < begin + L)
			return dk_err_set(err, DK_ECORRUPT, "%s: the kernel "
			    "log: record %#jx: its text block ends at %#jx, "
			    "inside the %u-byte id at its start %#jx",
			    lg->d->src.name, (uintmax_t)id, (uintmax_t)next,
			    L, (uintmax_t)begin);
		begin += L;
		if (next - begin < len)
			len = next - begin;
		if ((st = lx_record(lg, &lg->pg[2], ts, data + begin,
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
 * the header.
 */
static enum dk_status
lx_printk_log(struct lx_log *lg, struct dk_err *err)
{
	uint64_t buf_sym, len_sym, first_sym, next_sym, sz, o_ts, o_len,
	    o_tlen;
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
	if ((st = lx_ulong(lg, buf_sym, &buf, "log_buf", err)) != DK_OK ||
	    (st = lx_u32(lg, len_sym, &blen, "log_buf_len", err)) != DK_OK ||
	    (st = lx_u32(lg, first_sym, &first, "log_first_idx", err)) !=
	    DK_OK ||
	    (st = lx_u32(lg, next_sym, &nidx, "log_next_idx", err)) != DK_OK)
		return st;
	if (blen > (1ull << LX_MAX_LOG_SHIFT) || blen < sz || first >= blen ||
	    nidx >= blen)
		return dk_err_set(err, DK_ECORRUPT, "%s: the kernel log: "
		    "log_buf_len %ju, log_first_idx %ju, log_next_idx %ju: "
		    "expected a length of %ju to 2^%u and both indexes below "
		    "it", lg->d->src.name, (uintmax_t)blen, (uintmax_t)first,
		    (uintmax_t)nidx, (uintmax_t)sz, LX_MAX_LOG_SHIFT);
	/*
	 * From log_first_idx to log_next_idx, wrapping at most once (at an
	 * end marker) and never past log_first_idx after it: at most
	 * log_buf_len bytes of records, so a damaged ring is found before
	 * it is printed more than once.
	 */
	for (at = first; at != nidx && !lg->stopped; ) {
		uint64_t rec = at, len, tlen;

		if (++nrec > blen / sz + 1)
			return dk_err_set(err, DK_ECORRUPT, "%s: the kernel "
			    "log: the records of log_buf at %#jx do not reach "
			    "log_next_idx %ju in %ju records: they loop",
			    lg->d->src.name, (uintmax_t)buf, (uintmax_t)nidx,
			    (uintmax_t)(blen / sz + 1));
		for (int pass = 0; ; pass++) {
			if (rec + sz > blen)
				return dk_err_set(err, DK_ECORRUPT, "%s: the "
				    "kernel log: a record at index %ju of "
				    "log_buf (%ju bytes) passes its end",
				    lg->d->src.name, (uintmax_t)rec,
				    (uintmax_t)blen);
			if ((st = lx_read(lg, &lg->pg[0], buf + rec, h,
			    (size_t)sz, "a printk_log record", err)) != DK_OK)
				return st;
			if ((len = lx_dec(lg, h + o_len, 2)) != 0)
				break;
			if (pass > 0 || rec == 0)
				return dk_err_set(err, DK_ECORRUPT, "%s: the "
				    "kernel log: the record at index 0 of "
				    "log_buf has length 0", lg->d->src.name);
			if (wrapped++)
				return dk_err_set(err, DK_ECORRUPT, "%s: the "
				    "kernel log: the records of log_buf wrap "
				    "twice (an end marker at index %ju) before "
				    "log_next_idx %ju: they loop",
				    lg->d->src.name, (uintmax_t)rec,
				    (uintmax_t)nidx);
			rec = 0;	/* the end marker: wrap */
		}
		if (wrapped && rec >= first && rec != nidx)
			return dk_err_set(err, DK_ECORRUPT, "%s: the kernel "
			    "log: the record at index %ju of log_buf, after "
			    "the wrap, is at or past log_first_idx %ju "
			    "without meeting log_next_idx %ju: the records "
			    "loop", lg->d->src.name, (uintmax_t)rec,
			    (uintmax_t)first, (uintmax_t)nidx);
		tlen = lx_dec(lg, h + o_tlen, 2);
		if (len < sz || rec + len > blen || sz + tlen > len)
			return dk_err_set(err, DK_ECORRUPT, "%s: the kernel "
			    "log: the record at index %ju of log_buf: length "
			    "%ju, text %ju bytes: expected a length of %ju or "
			    "more holding the text, within the %ju bytes",
			    lg->d->src.name, (uintmax_t)rec, (uintmax_t)len,
			    (uintmax_t)tlen, (uintmax_t)sz, (uintmax_t)blen);
		if ((st = lx_record(lg, &lg->pg[2], lx_dec(lg, h + o_ts, 8),
		    buf + rec + sz, (size_t)tlen, err)) != DK_OK)
			return st;
		at = rec + len;
		if (at > blen - sz && at != nidx)
			return dk_err_set(err, DK_ECORRUPT, "%s: the kernel "
			    "log: the record at index %ju of log_buf ends at "
			    "%ju, past the last place a record fits (%ju)",
			    lg->d->src.name, (uintmax_t)rec, (uintmax_t)at,
			    (uintmax_t)(blen - sz));
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
	    (blen & (blen - 1)) != 0)
		return dk_err_set(err, DK_ECORRUPT, "%s: the kernel log: "
		    "log_buf_len %ju: expected a power of two up to 2^%u",
		    lg->d->src.name, (uintmax_t)blen, LX_MAX_LOG_SHIFT);
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

enum dk_status
dk_linux_log(struct dk_dump *d, int (*put)(void *, const char *, size_t),
    void *arg, struct dk_err *err)
{
	struct lx_log *lg;
	enum dk_status (*layout)(struct lx_log *, struct dk_err *);
	enum dk_status st;

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
	for (size_t i = 0; i < DK_ARRAY_LEN(lg->pg); i++)
		free(lg->pg[i].buf);
	free(lg);
	return st;
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
