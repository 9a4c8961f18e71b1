/*
 * portable.h -- the portable ELF minidump (fmt_elfmini.c,
 * docs/portable-elf-minidump.md) and the formats it holds; not installed.
 *
 * A portable file holds one source dump: its metadata verbatim in
 * dumpkit's notes and its page data as one extent (verbatim, or, for a
 * kdump file, its pages decoded: dk_portable.prun_next, .data).  What the
 * metadata and the page data of a source format are, how the format is
 * read back from the notes and how its native file is rebuilt is the
 * format module's business: it describes itself with a struct
 * dk_portable (dk_format_ops.portable).  The portable module does the
 * rest for every source alike: the ELF and program headers, the info,
 * residue and kerneldumpheader notes, the physical and virtual PT_LOADs,
 * --drop-zero, and the residue's overlay on the way back.
 */
#ifndef DK_PORTABLE_H
#define DK_PORTABLE_H

#include "bytes.h"
#include "minidump.h"
#include "private.h"

/*
 * Note types are "DK" in the high half: readers that ignore the owner
 * name and go by type alone (BFD, eu-readelf on cores) must not take
 * them for NT_PRSTATUS and friends.  The index is the low half.
 */
#define	DK_PNOTE_NAME	"dumpkit"
#define	DK_PNOTE_NAMESZ	8
#define	DK_PNOTE_BASE	0x444b0000u

enum dk_pnote_type {
	DK_PN_INFO = 1,
	DK_PN_SOURCE_HEADER,
	DK_PN_MSGBUF,
	DK_PN_DUMP_AVAIL,
	DK_PN_BITMAP,		/* also a full core's page-keep bitmap */
	DK_PN_PMAP,
	DK_PN_RESIDUE,
	DK_PN_KDH,		/* the source's kerneldumpheader, 512 bytes */
	DK_PN_THREADS,		/* the kernel's thread table (kthreads.c) */
	DK_PN_ENCODERS,		/* a kdump's page encoders (kdump_port.c) */
	DK_PN_RECORDS,		/* a flattened kdump's records */
	DK_PN_MAX
};

/* The info record (spec section 3): its size and fields' offsets. */
#define	DK_INFO_SIZE		120
#define	DK_INFO_VERSION		0	/* u32: 1 */
#define	DK_INFO_SOURCE		4	/* u32: dk_portable.id */
#define	DK_INFO_SRC_VERSION	8	/* u32 */
#define	DK_INFO_PAGE_SIZE	12	/* u32 */
#define	DK_INFO_ARCH		16	/* char[16] */
#define	DK_INFO_FLAGS		36	/* u32: DK_PFLAG_* */
#define	DK_INFO_KDISP		80	/* u64: kernel_displacement */
#define	DK_INFO_DATA_OFFSET	88	/* u64 */
#define	DK_INFO_NPAGES		96	/* u64 */
#define	DK_INFO_NSTORED		104	/* u64 */
#define	DK_INFO_NPHYS		112	/* u64 */

#define	DK_PFLAG_DMAP		0x1u
#define	DK_PFLAG_VIRTUAL	0x2u
#define	DK_PFLAG_TRUNCATED	0x4u
#define	DK_PFLAG_DROPPED	0x8u	/* zero pages left out (page-keep) */

/* A dumpkit note of a portable file: where its descriptor is. */
struct dk_pnote {
	uint64_t	off;		/* descriptor's file offset */
	uint64_t	size;
	int		seen;
};

/* What a source format's portable reader is given, decoded. */
struct dk_pctx {
	enum dk_endian		 e;
	uint64_t		 noff, nsize;	/* the PT_NOTE segment */
	const struct dk_pnote	*notes;		/* by enum dk_pnote_type */
	const uint8_t		*info;		/* DK_INFO_SIZE bytes */
	const struct dk_arch	*row;		/* the info note's arch */
};

/* A field of the info record, in the file's byte order. */
static inline uint64_t
dk_pinfo(const struct dk_pctx *c, unsigned off, unsigned width)
{
	return dec_uint(c->info + off, width, c->e);
}

/* Source bytes nothing else reproduces: kept in the residue note. */
struct dk_presidue {
	uint64_t	off;		/* offset in the native file */
	uint64_t	len;
	uint64_t	src_off;	/* where the bytes are in d's file */
};

struct dk_portable;

/* A conversion, planned before anything is written. */
struct dk_plan {
	struct dk_elfmini_plan	 p;
	const struct dk_portable *kind;		/* the source's format */
	uint64_t		 src_off;	/* its page data's extent ... */
	uint64_t		 present;	/* ... and the bytes stored */
	struct dk_kmap_run	*virt;		/* the virtual segments' runs:
						 * the kernel map's and the
						 * windows', by VA */
	size_t			 nkmap;
	struct dk_presidue	*res;
	size_t			 nres;
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

/*
 * A source format as the portable file holds it: a format module's
 * dk_format_ops.portable.  The info record's source_format is the id.
 */
struct dk_portable {
	uint32_t	 id;		/* 1 minidump, 2 sparc64, 3 full core,
					 * 4 Linux ELF vmcore, 5 kdump */
	const char	*name;		/* "minidump", in messages */
	const char	*noun;		/* "sparc64 dump": "a portable ..." */
	/* Can architecture row a be of this format? */
	int		(*row_ok)(const struct dk_arch *);
	/* Reading: set d up from the notes; d->fmt becomes the format. */
	enum dk_status	(*open)(struct dk_dump *, const struct dk_pctx *,
			    struct dk_err *);
	/* Where d's page data starts in its file, and its stored bytes. */
	uint64_t	(*extent)(const struct dk_dump *, uint64_t *len);
	/*
	 * Can d be converted?  An error says why not (NULL: always); called
	 * before anything is planned or written.
	 */
	enum dk_status	(*convertible)(const struct dk_dump *,
			    struct dk_err *);
	/* Residue records of d into the plan (NULL: never any). */
	enum dk_status	(*residue)(struct dk_dump *, struct dk_plan *,
			    struct dk_err *);
	/* The format's notes after the info note: their size, their bytes. */
	uint64_t	(*notes_size)(const struct dk_dump *,
			    const struct dk_plan *);
	enum dk_status	(*notes)(struct dk_dump *, const struct dk_plan *,
			    struct dk_sink *, struct dk_err *);
	/* Write the native file (the residue is in the plan). */
	enum dk_status	(*rebuild)(struct dk_dump *, struct dk_sink *,
			    const struct dk_plan *, struct dk_err *);
	/* The info record's kernel_displacement; NULL: 0. */
	uint64_t	(*kdisp)(const struct dk_dump *);
	/*
	 * A page-keep bitmap the source already has (a portable full core
	 * written with --drop-zero) and its data extent's size; NULL: none.
	 */
	const struct dk_bitmap *(*keep)(const struct dk_dump *,
			    uint64_t *ext_size);
	/* --drop-zero applies (full cores); else it is refused. */
	int		 drop_zero;
	/*
	 * Physical PT_LOADs have p_vaddr = p_paddr, as the source's own
	 * program headers do (full cores); else the direct-map address.
	 */
	int		 vaddr_is_pa;
	/*
	 * PT_LOADs have p_align 0, as every Linux vmcore's do (the kernel's,
	 * QEMU's, makedumpfile's), not the page size: crash takes a nonzero
	 * p_align for the page size, and a vmcore's read granule is none.
	 */
	int		 align_zero;
	/*
	 * p_vaddr of the physical PT_LOAD that starts at pa, where the
	 * format knows it better than the library's direct-map window
	 * (Linux vmcores: VMCOREINFO); NULL: the window's.
	 */
	uint64_t	(*pvaddr)(const struct dk_dump *, uint64_t pa);
	/*
	 * Where in a page the page data starts (data_offset is that modulo
	 * the page size), so that the source's data keeps its alignment in
	 * the file, and its holes; NULL: 0.
	 */
	uint64_t	(*phase)(const struct dk_dump *);
	/*
	 * Where the page data is not the source's bytes but made from them
	 * (a kdump's pages, decoded): the next run of stored pages with its
	 * offset in the page data (extent's start 0), as dk_run_next gives
	 * a run's file offset; and the writing of the extent's bytes.  NULL:
	 * dk_run_next, and the extent copied verbatim.
	 */
	int		(*prun_next)(struct dk_dump *, struct dk_run_iter *,
			    struct dk_run *);
	enum dk_status	(*data)(struct dk_dump *, const struct dk_plan *,
			    struct dk_sink *, struct dk_err *);
};

/*
 * What fmt_elfmini.c gives the formats it holds.
 */
/* The bytes of a note whose descriptor has descsz bytes. */
uint64_t	dk_pnote_size(uint64_t descsz);
/* Write a dumpkit note's header (type: enum dk_pnote_type). */
enum dk_status	dk_pnote_head(struct dk_sink *, enum dk_endian, uint32_t type,
		    uint64_t descsz, struct dk_err *);
/* Write a note whose descriptor is [off, off + len) of d's file. */
enum dk_status	dk_pnote_copy(struct dk_sink *, struct dk_dump *, uint32_t type,
		    uint64_t off, uint64_t len, struct dk_err *);
/* Keep [off, off + len) of the native file, at src_off of d's, verbatim. */
enum dk_status	dk_plan_residue(struct dk_plan *, uint64_t off, uint64_t len,
		    uint64_t src_off, struct dk_err *);
/*
 * The residue of d read from a portable file: its residue note's records,
 * none past nend (where the rebuilt native file's pages end).
 */
enum dk_status	dk_plan_note_residue(struct dk_dump *, struct dk_plan *,
		    uint64_t nend, struct dk_err *);
/*
 * Append len bytes to the rebuilt native file: those at src of d's
 * file (UINT64_MAX: zeros), with the residue records that fall inside
 * written over them; *ri is the first record not yet written.
 */
enum dk_status	dk_plan_emit(struct dk_sink *, struct dk_dump *,
		    const struct dk_plan *, size_t *ri, uint64_t src,
		    uint64_t len, struct dk_err *);
/* The same, the bytes outside the residue from file from, not d's. */
enum dk_status	dk_plan_emit_from(struct dk_sink *, const struct dk_src *from,
		    struct dk_dump *, const struct dk_plan *, size_t *ri,
		    uint64_t src, uint64_t len, struct dk_err *);
/*
 * *data: the info note's data_offset, checked to lie past the notes and
 * inside the file (the kinds whose page data starts there).
 */
enum dk_status	dk_pdata_offset(const struct dk_dump *, const struct dk_pctx *,
		    uint64_t *data, struct dk_err *);
/*
 * A kind's open is done: d is the portable file's (format, sections),
 * its architecture and page counts are the info note's, or an error
 * naming what said otherwise (arch_by, counts_by: "the vmcore's program
 * headers").
 */
enum dk_status	dk_popen_done(struct dk_dump *, const struct dk_pctx *,
		    uint64_t data, const char *arch_by, const char *counts_by,
		    struct dk_err *);
/* Was d read from a portable file (and not from its native format)? */
int		dk_is_portable(const struct dk_dump *);

#endif /* DK_PORTABLE_H */
