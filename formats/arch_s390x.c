/*
 * arch_s390x.c -- s390x (64-bit z/Architecture): the architecture row.
 *
 * FreeBSD has no s390x port, so there is no minidump family and there
 * are no FreeBSD full ELF cores of it; the row names the machine as
 * Linux does, with its byte order (big-endian), its word size and how
 * its kernel's ELF header identifies it (ELFCLASS64, EM_S390), for
 * Linux's dumps.  Pages are 4 KiB.
 *
 * The hardware walk (dynamic address translation, z/Architecture
 * Principles of Operation, chapter 3, "Translation Tables"; bit numbers
 * here are LSB 0, the manual's are MSB 0): a region-first, -second or
 * -third table or a segment table at the root (which one the kernel's
 * ASCE says; linux.c finds it from the root's entries), 2048 entries of
 * 8 bytes (16 KiB) each, indexed by 11 VA bits from 53, 42, 31 and 20;
 * then a page table of 256 entries (2 KiB) indexed by bits 19..12.
 * A region or segment table entry:
 *  - bit 5 (0x20) I: invalid;
 *  - bits 3..2 TT: the type of the table it is in (3 region-first, 2
 *    region-second, 1 region-third, 0 segment), which must match;
 *  - bit 10 (0x400) FC, in a region-third or segment entry (EDAT-2 and
 *    EDAT-1): a 2 GiB or 1 MiB frame at bits 63..31 or 63..20;
 *  - otherwise the next table's origin: bits 63..12 of a region entry,
 *    whose bits 7..6 TF and 1..0 TL bound the part of the next table
 *    present (in 4 KiB quarters: the next index's two top bits), and
 *    bits 63..11 of a segment entry (a page table is 2 KiB aligned).
 * A page table entry: bit 10 (0x400) I invalid, the frame at bits
 * 63..12, bit 9 (0x200) P protection and bit 8 (0x100) IEP no-execute.
 * Entries are big-endian, as everything on this machine.
 *
 * The constants are spelled out here, never taken from a host header,
 * so that this file builds and is tested on any host.
 */
#include "private.h"

#define	S390X_PAGE_SHIFT	12
#define	S390X_EM_S390		22		/* the kernel's e_machine */
#define	S390X_ELFCLASS64	2

#define	S390X_ENT		8		/* bytes per entry */
#define	S390X_TBL_BITS		11		/* region, segment tables */
#define	S390X_PT_BITS		8		/* page tables */
#define	S390X_SEG_SHIFT		20
#define	S390X_RST_I		0x20ull		/* region/segment: invalid */
#define	S390X_RST_FC		0x400ull	/* a large frame */
#define	S390X_RST_TT(e)		((unsigned)((e) >> 2) & 3)
#define	S390X_RT_TF(e)		((unsigned)((e) >> 6) & 3)
#define	S390X_RT_TL(e)		((unsigned)(e) & 3)
#define	S390X_RT_ORIGIN		(~0xfffull)
#define	S390X_ST_ORIGIN		(~0x7ffull)
#define	S390X_PTE_I		0x400ull
#define	S390X_PTE_P		0x200ull
#define	S390X_PTE_IEP		0x100ull

/* The tables by depth below the page table: their names. */
static const char *const s390x_tables[] = {
	"page table", "segment table", "region-third table",
	"region-second table", "region-first table",
};

/* The protection of a valid page-table entry (one format). */
static unsigned
s390x_prot(uint64_t e, unsigned fmt)
{
	(void)fmt;
	return ((e & S390X_PTE_P) ? 0 : DK_PROT_W) |
	    ((e & S390X_PTE_IEP) ? 0 : DK_PROT_X);
}

/*
 * The walk from the root table at root, of w->levels tables (2: a
 * segment table at the root, 5: a region-first table), as the file's
 * comment describes.  A VA beyond what the root translates (2^31,
 * 2^42, 2^53) is not mapped (an ASCE-type exception).
 */
static enum dk_status
s390x_walk(struct dk_dump *d, const struct dk_pt_walk *w, uint64_t root,
    uint64_t va, uint64_t *pa, unsigned *prot, struct dk_err *err)
{
	uint64_t t = root, e, at, idx;
	unsigned depth;
	enum dk_status st;

	if (w->levels < 2 || w->levels > 5)
		return dk_err_set(err, DK_EINVAL, "%s walk: %u levels: expected "
		    "2 to 5", w->name, w->levels);
	if (w->va_bits < 64 && va >> w->va_bits != 0)
		return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address %#jx: "
		    "not mapped (beyond the %u bits a %s at the root "
		    "translates)", (uintmax_t)va, w->va_bits,
		    s390x_tables[w->levels - 1]);
	for (depth = w->levels - 1; depth >= 1; depth--) {
		unsigned shift = S390X_SEG_SHIFT + S390X_TBL_BITS * (depth - 1);
		const char *tn = s390x_tables[depth];

		idx = va >> shift & ((1u << S390X_TBL_BITS) - 1);
		at = t + idx * S390X_ENT;
		if ((st = dk_read_pa_u64(d, at, &e, err)) != DK_OK)
			return dk_err_prefix(err, "virtual address %#jx: %s "
			    "entry", (uintmax_t)va, tn);
		DK_TRACE(d, "va %#jx: %s [%ju] at pa %#jx = %#jx",
		    (uintmax_t)va, tn, (uintmax_t)idx, (uintmax_t)at,
		    (uintmax_t)e);
		if (e & S390X_RST_I)
			return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address "
			    "%#jx: not mapped (%s entry %#jx at pa %#jx: I is "
			    "set)", (uintmax_t)va, tn, (uintmax_t)e,
			    (uintmax_t)at);
		if (S390X_RST_TT(e) != depth - 1)
			return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address "
			    "%#jx: not mapped (%s entry %#jx at pa %#jx has "
			    "table type %u, expected %u: a translation-"
			    "specification exception)", (uintmax_t)va, tn,
			    (uintmax_t)e, (uintmax_t)at, S390X_RST_TT(e),
			    depth - 1);
		if (depth <= 2 && (e & S390X_RST_FC)) {
			uint64_t mask = (1ull << shift) - 1;

			*pa = (e & ~mask) | (va & mask);
			if (prot != NULL)
				*prot = s390x_prot(e, 0);
			d->mapped_to = dk_block_end(va, mask);
			return DK_OK;
		}
		if (depth >= 2) {
			unsigned q = (unsigned)(va >> (shift - S390X_TBL_BITS) >>
			    (S390X_TBL_BITS - 2)) & 3;

			if (q < S390X_RT_TF(e) || q > S390X_RT_TL(e))
				return dk_err_miss(d, err, DK_ENOTMAPPED,
				    "virtual address %#jx: not mapped (%s "
				    "entry %#jx at pa %#jx: the next table's "
				    "quarter %u is outside TF %u..TL %u)",
				    (uintmax_t)va, tn, (uintmax_t)e,
				    (uintmax_t)at, q, S390X_RT_TF(e),
				    S390X_RT_TL(e));
			t = e & S390X_RT_ORIGIN;
		} else
			t = e & S390X_ST_ORIGIN;
	}
	idx = va >> S390X_PAGE_SHIFT & ((1u << S390X_PT_BITS) - 1);
	at = t + idx * S390X_ENT;
	if ((st = dk_read_pa_u64(d, at, &e, err)) != DK_OK)
		return dk_err_prefix(err, "virtual address %#jx: page table "
		    "entry", (uintmax_t)va);
	DK_TRACE(d, "va %#jx: page table [%ju] at pa %#jx = %#jx",
	    (uintmax_t)va, (uintmax_t)idx, (uintmax_t)at, (uintmax_t)e);
	if (e & S390X_PTE_I)
		return dk_err_miss(d, err, DK_ENOTMAPPED, "virtual address %#jx: "
		    "not mapped (page table entry %#jx at pa %#jx: I is set)",
		    (uintmax_t)va, (uintmax_t)e, (uintmax_t)at);
	*pa = (e & ~0xfffull) | (va & 0xfff);
	if (prot != NULL)
		*prot = s390x_prot(e, 0);
	return DK_OK;
}

/* By the table at the root: linux.c picks one from its entries' TT. */
static const struct dk_pt_walk s390x_walks[] = {
	{ "s390x segment", 2, S390X_PAGE_SHIFT, 31, 8, NULL, s390x_walk },
	{ "s390x region-third", 3, S390X_PAGE_SHIFT, 42, 8, NULL, s390x_walk },
	{ "s390x region-second", 4, S390X_PAGE_SHIFT, 53, 8, NULL,
	  s390x_walk },
	{ "s390x region-first", 5, S390X_PAGE_SHIFT, 64, 8, NULL, s390x_walk },
};

static const struct dk_arch s390x_rows[] = {
	{ .name = "s390x", .aliases = NULL, .family = "s390x",
	  .endian = DK_BE, .elf_machine = S390X_EM_S390,
	  .elf_class = S390X_ELFCLASS64, .long_size = 8, .minidump = NULL,
	  .no_elfcore = "FreeBSD has no s390x port, so no FreeBSD kernel "
	  "wrote a full ELF core of it", .ops = &dk_arch_s390x },
};

const struct dk_arch_ops dk_arch_s390x = {
	.name		= "s390x",
	.rows		= s390x_rows,
	.nrows		= DK_ARRAY_LEN(s390x_rows),
	.page_shift	= S390X_PAGE_SHIFT,
	.minidump	= NULL,
	.walks		= s390x_walks,
	.nwalks		= DK_ARRAY_LEN(s390x_walks),
	.prot		= s390x_prot,
};
