/*
 * sparc64.h -- the sparc64 dump format (FORMATS.md 5), shared by
 * fmt_sparc64.c (the reader), fmt_elfmini.c (the portable format holds a
 * sparc64 dump), check_sparc64.c (dumpcheck), fixtures/gen_sparc64.c and
 * the tests.  Not installed.
 *
 * File: [header 40 bytes][24-byte region descriptors][pad to dh_hdr_size]
 * [region data, in descriptor order].  Big-endian, LP64, no magic.
 */
#ifndef DK_SPARC64_H
#define DK_SPARC64_H

#include "private.h"

#define	SP64_PAGE_SHIFT		13		/* 8 KiB pages */
#define	SP64_PAGE_SIZE		(1ull << SP64_PAGE_SHIFT)
#define	SP64_HDR_SIZE		40		/* sizeof(sparc64_dump_hdr) */
#define	SP64_REG_SIZE		24		/* sizeof(sparc64_dump_reg) */
#define	SP64_HDR_ALIGN		512		/* dh_hdr_size's rounding */
#define	SP64_PAD_OFF		36		/* implicit padding, 4 bytes */
#define	SP64_MAX_REGIONS	65536		/* limit on dh_nregions */
#define	SP64_MAX_HDR		(16u << 20)	/* ... on dh_hdr_size (kernel:
						 * roundup(40 + 24n, 512)) */

/* The direct map: va >= SP64_DMAP_BASE maps pa = va & SP64_DMAP_MASK. */
#define	SP64_DMAP_BASE		0xfffff80000000000ull
#define	SP64_DMAP_MASK		((1ull << 43) - 1)

/* TSB entries: 32-byte slots (TTE_SHIFT 5), tag and data read. */
#define	SP64_TTE_SHIFT		5
#define	SP64_TTE_SLOT		(1u << SP64_TTE_SHIFT)
#define	SP64_TD_V		(1ull << 63)	/* valid */
#define	SP64_TD_SIZE_SHIFT	61		/* 2 bits: 8K 64K 512K 4M */
#define	SP64_TD_PA_MASK		(((1ull << 30) - 1) << 13) /* PA 13..42 */
#define	SP64_TD_W		(1ull << 1)	/* writable (sun4u) */
#define	SP64_TD_EXEC		(1ull << 7)	/* FreeBSD soft bit; see .c */

/* Bytes of a TTE of size s (0..3): 8 KiB << 3s. */
#define	SP64_TTE_BYTES(s)	(SP64_PAGE_SIZE << (3 * (s)))
/* The tag a TTE of size s has for va (FORMATS.md 5.2). */
#define	SP64_TAG(va, s)		((((va) >> (SP64_PAGE_SHIFT + 3 * (s))) << 2) \
				    | (uint64_t)(s))

/* A region descriptor as the header has it. */
struct dk_sp64_reg {
	uint64_t	pa;		/* dr_pa */
	uint64_t	size;		/* dr_size */
	uint64_t	offs;		/* dr_offs: native file offset */
};

/* A translation the TSB holds: [va, va + len) -> pa. */
struct dk_sp64_map {
	uint64_t	va;
	uint64_t	len;
	uint64_t	pa;
	unsigned	prot;		/* DK_PROT_* */
};

/* The reader's state, d->priv of a sparc64 dump. */
struct dk_sp64 {
	struct dk_sp64_reg *reg;	/* in header order */
	size_t		 nreg;
	size_t		*byp;		/* indexes of reg sorted by pa */
	uint64_t	 hdr_off;	/* file offset of the header blob */
	uint64_t	 data_off;	/* ... and of the regions' data */
	uint64_t	 hdr_size;	/* dh_hdr_size */
	uint64_t	 delta;		/* file offset = dr_offs + delta */
	uint64_t	 tsb_off;	/* file offset of the TSB ... */
	int		 tsb_ok;	/* ... if it lies in one region */
	char		 tsb_why[160];	/* why not */
	uint64_t	 tsb_nslots;	/* dh_tsb_mask + 1 */
	uint8_t		*tsb;		/* the TSB in memory, or NULL */
	struct dk_sp64_map *maps;	/* the TSB's mappings, by va */
	size_t		 nmaps;
	size_t		 kmap_i;	/* the kernel-map walk's position */
};

/* The field ids of the sparc64 layouts (their own, see enum dk_hid). */
enum dk_sp64_hid {
	DK_SP64_F_HDR_SIZE = 0,
	DK_SP64_F_TSB_PA,
	DK_SP64_F_TSB_SIZE,
	DK_SP64_F_TSB_MASK,
	DK_SP64_F_NREGIONS,
	DK_SP64_F_REGIONS,	/* flexible array: no value */
	DK_SP64_F_DR_PA,	/* struct sparc64_dump_reg */
	DK_SP64_F_DR_SIZE,
	DK_SP64_F_DR_OFFS,
	DK_SP64_F_NIDS
};

_Static_assert(DK_SP64_F_NIDS <= DK_H_PAD,
    "the sparc64 ids fit a struct dk_hdr");

/* The layouts: old (2002) and new (fixed-width) header, region. */
extern const struct dk_layout dk_sp64_hdr_old;
extern const struct dk_layout dk_sp64_hdr_new;
extern const struct dk_layout dk_sp64_reg_layout;

/* Is the file's size and header exactly what a sparc64 kernel writes? */
int		dk_sp64_plausible(const uint8_t *hdr, size_t len,
		    uint64_t file_size, char *why, size_t whylen);

/*
 * Set d up as a sparc64 dump whose header blob (dh_hdr_size bytes) is at
 * hdr_off and whose native offset dr_offs is at file offset dr_offs +
 * delta (0 for a native file).  Sets d->priv, d->hdr, d->info's memory
 * fields, d->avail.  Used by the native reader and the portable one.
 */
enum dk_status	dk_sp64_load(struct dk_dump *, uint64_t hdr_off,
		    uint64_t delta, struct dk_err *);
/* Its ops, once loaded (the portable reader reads through them). */
extern const struct dk_format_ops dk_fmt_sparc64;
/* The TTE at TSB slot i: 0, or -1 with err set. */
int		dk_sp64_tte(struct dk_dump *, uint64_t slot, uint64_t *tag,
		    uint64_t *data, struct dk_err *);

#endif /* DK_SPARC64_H */
