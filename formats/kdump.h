/*
 * kdump.h -- makedumpfile's kdump-compressed format: the facts its
 * reader (fmt_kdump.c), validator (check_kdump.c) and writer share; not
 * installed.  The format itself is described in fmt_kdump.c's opening
 * comment and in FORMATS.md.
 */
#ifndef DK_KDUMP_H
#define DK_KDUMP_H

#include "private.h"

/* Sanity limits on what a file may claim. */
#define	KD_MIN_BLOCK		4096u		/* block_size, a power of 2 */
#define	KD_MAX_BLOCK		65536u
#define	KD_MAX_VERSION		6u		/* header_version */
#define	KD_MAX_PARTS		1024u		/* files of a split set */
#define	KD_MAX_NOTES		(16u << 20)	/* bytes of ELF notes read */
#define	KD_MAX_VMCOREINFO	(1u << 20)	/* bytes of VMCOREINFO */
#define	KD_MAX_ERASEINFO	(1u << 20)	/* bytes of eraseinfo carried */
#define	KD_MAX_VMCI_LINES	8192u		/* KEY=value lines kept */
#define	KD_MAX_RANGES		(1u << 20)	/* runs of bitmap 1 */
#define	KD_BITMAP_CHUNK		(1u << 20)	/* bitmap bytes per read */
#define	KD_SCAN_CHUNK		(1u << 20)	/* descriptor bytes per read */

/* The file's fixed sizes. */
#define	KD_SIG_LEN		8
#define	KD_HDR_READ		512		/* both headers fit */
#define	KD_DESC_SIZE		24		/* struct page_desc */
#define	KD_DESC_CACHE		(170 * KD_DESC_SIZE)	/* descriptors read at once */
#define	KD_FLAT_HDR		4096		/* MAX_SIZE_MDF_HEADER */
#define	KD_FLAT_SIG		"makedumpfile"
#define	KD_FLAT_SIG_LEN		16		/* NUL-padded */
#define	KD_FLAT_REC		16		/* makedumpfile_data_header */
#define	KD_FLAT_END		UINT64_MAX	/* END_FLAG_FLAT_HEADER, -1 */

/* disk_dump_header.status and page_desc.flags (diskdump_mod.h). */
#define	KD_DH_ZLIB		0x1u
#define	KD_DH_LZO		0x2u
#define	KD_DH_SNAPPY		0x4u
#define	KD_DH_INCOMPLETE	0x8u
#define	KD_DH_EXCL_VMEMMAP	0x10u
#define	KD_DH_ZSTD		0x20u
#define	KD_DH_CODECS		(KD_DH_ZLIB | KD_DH_LZO | KD_DH_SNAPPY | \
				    KD_DH_ZSTD)

/* ELF note facts used to name the architecture. */
#define	KD_NT_PRSTATUS		1

/* ---------------------------------------------------------------------- */
/* Reading the headers: the reader's decisions, which its validator makes  */
/* the same way (fmt_kdump.c).                                             */

/* A reading of disk_dump_header: its layout, byte order and values. */
struct kd_cand {
	const struct dk_layout	*l;
	enum dk_endian		 e;
	struct dk_hdr		 h;
};

/*
 * The layout and byte order of the header bytes b (KD_HDR_READ of them,
 * zero-padded; diskdump: the signature is "DISKDUMP"), opt the row
 * --arch names or NULL; name is the file's, for messages.
 */
enum dk_status	dk_kd_header(const char *name, const uint8_t *b, int diskdump,
		    const struct dk_arch *opt, struct kd_cand *,
		    struct dk_err *);
/* The row utsname.machine m names in byte order e, or NULL. */
const struct dk_arch *dk_kd_machine_row(const char *m, enum dk_endian e);
/*
 * The sub header's layout, decided from its bytes sb (KD_SUB_READ of
 * them, zero-padded) for header layout hl and row (NULL: unknown) of
 * version v, byte order e, block size block and sub_hdr_size subblocks.
 */
const struct dk_layout *dk_kd_sub_layout(const uint8_t *sb,
		    const struct dk_layout *hl, const struct dk_arch *row,
		    unsigned v, enum dk_endian e, uint64_t block,
		    uint64_t subblocks);
#define	KD_SUB_READ		128	/* every sub header layout fits */

/* ---------------------------------------------------------------------- */
/* Layouts.                                                                */

/*
 * The field ids of the kdump headers (see enum dk_hid): the strings of
 * disk_dump_header first, then its integers, then kdump_sub_header's.
 */
enum kd_hid {
	KD_F_SIGNATURE = 0,
	KD_F_SYSNAME,
	KD_F_NODENAME,
	KD_F_RELEASE,
	KD_F_UTSVERSION,
	KD_F_MACHINE,
	KD_F_DOMAINNAME,
	KD_F_NSTR,
	KD_F_HEADER_VERSION = KD_F_NSTR,
	KD_F_TV_SEC,
	KD_F_TV_USEC,
	KD_F_STATUS,
	KD_F_BLOCK_SIZE,
	KD_F_SUB_HDR_SIZE,
	KD_F_BITMAP_BLOCKS,
	KD_F_MAX_MAPNR,
	KD_F_TOTAL_RAM_BLOCKS,
	KD_F_DEVICE_BLOCKS,
	KD_F_WRITTEN_BLOCKS,
	KD_F_CURRENT_CPU,
	KD_F_NR_CPUS,
	KD_F_TASKS,
	KD_F_PHYS_BASE,
	KD_F_DUMP_LEVEL,
	KD_F_SPLIT,
	KD_F_START_PFN,
	KD_F_END_PFN,
	KD_F_OFFSET_VMCOREINFO,
	KD_F_SIZE_VMCOREINFO,
	KD_F_OFFSET_NOTE,
	KD_F_SIZE_NOTE,
	KD_F_OFFSET_ERASEINFO,
	KD_F_SIZE_ERASEINFO,
	KD_F_START_PFN_64,
	KD_F_END_PFN_64,
	KD_F_MAX_MAPNR_64,
	KD_F_NIDS
};

_Static_assert(KD_F_NSTR <= DK_HDR_NSTR && KD_F_NIDS <= DK_H_PAD,
    "the kdump ids fit a struct dk_hdr");

/* Versions (header_version) that have a field. */
#define	KD_V0_6		0x7fu
#define	KD_V1_6		0x7eu
#define	KD_V2_6		0x7cu
#define	KD_V3_6		0x78u
#define	KD_V4_6		0x70u
#define	KD_V5_6		0x60u
#define	KD_V6		0x40u

/*
 * The header layouts (kdump_layout.c): disk_dump_header of LP64 and of
 * 32-bit writers, kdump_sub_header of LP64, of i386 and of the 32-bit
 * ABIs that align a 64-bit integer to 8; dk_kd_layouts() lists them.
 */
extern const struct dk_layout dk_kd_hdr64, dk_kd_hdr32, dk_kd_sub64,
		    dk_kd_sub32, dk_kd_sub32pad;

/* ---------------------------------------------------------------------- */
/* Writing (kdump_write.c).                                                */

#define	KD_WBATCH_BYTES	(1u << 20)	/* page bytes a thread takes at once */
#define	KD_WBATCH_MAX	256u		/* pages of a batch */
#define	KD_WDESC_BUF	(2730 * KD_DESC_SIZE)	/* descriptors per write */
#define	KD_WRITEBACK	(8u << 20)	/* page bytes between writebacks */

/* The codec's name ("zlib"; "none" for 0), or NULL if not one. */
const char	*dk_kd_codec_name(unsigned codec);
/*
 * Parse a codec as dumpconv --compress takes it, NAME or NAME:LEVEL:
 * zlib (levels 1-9, default 1 as makedumpfile -c), lzo (1: lzo1x_1, the
 * default; 9: lzo1x_999), snappy (no level), zstd (1-19, default 1),
 * none.  0 and *codec, *level set; -1 with why filled if not one.
 */
int		dk_kd_codec_parse(const char *, unsigned *codec, int *level,
		    char *why, size_t whylen);

/*
 * Fill buf (n * block bytes) with page frames pfn to pfn + n - 1, a run
 * of pages to store.  Any error of a run of more than one page makes the
 * writer ask again a page at a time; of one page, DK_ENOTDUMPED leaves
 * it out (counted as missing), any other error stops the writer.
 */
typedef enum dk_status (*dk_kd_fill_fn)(void *, uint64_t pfn, size_t n,
		    uint8_t *buf, struct dk_err *);

/*
 * Everything the writer needs: the layout, the pages (bitmap 1, and the
 * pages to store, bitmap 2 before zero pages are left out), the codec,
 * the metadata.  dumpconv fills it from an open dump (dk_kd_write_dump);
 * dumpgen for every variant of the format.
 */
struct dk_kd_wspec {
	unsigned		 version;	/* header_version, 1 to 6 (0
						 * with diskdump) */
	/*
	 * The old "DISKDUMP" signature, header version 0: no kdump sub
	 * header (block 1 zero, as an empty disk_dump_sub_header), no
	 * notes; what libkdumpfile, crash and dumpkit read as diskdump.
	 */
	int			 diskdump;
	enum dk_endian		 e;
	const struct dk_layout	*hl, *sl;	/* header, sub header */
	uint32_t		 block;		/* block_size: the page size */
	uint64_t		 max_mapnr;
	const struct dk_bitmap	*present;	/* bitmap 1 */
	const struct dk_bitmap	*dump;		/* the pages to store (indexed) */
	unsigned		 codec;		/* KD_DH_ZLIB..., 0: none */
	int			 level;		/* 0: the codec's default */
	unsigned		 threads;	/* compressing threads, >= 1 */
	int			 keep_zero;	/* zero pages on one shared page */
	int			 store_zero;	/* zero pages stored one by one,
						 * as any page (makedumpfile
						 * -d 0); keep_zero unused */
	/*
	 * The source's; the header gets it with 1 (DL_EXCLUDE_ZERO) added
	 * unless store_zero: makedumpfile -d 1 writes 1 whether zero pages
	 * share one page or are left out of bitmap 2.
	 */
	unsigned		 dump_level;
	uint64_t		 phys_base;
	/* utsname (KD_F_SYSNAME...), KD_F_TV_SEC, KD_F_TV_USEC, KD_F_NR_CPUS. */
	struct dk_hdr		 uts;
	const uint8_t		*notes;		/* ELF notes (version 4 on) */
	uint64_t		 notes_size;
	/* VMCOREINFO: its offset in notes; before version 4, its bytes. */
	uint64_t		 vmci_off, vmci_size;
	const uint8_t		*vmci;
	/*
	 * The eraseinfo (what makedumpfile --config erased, as text lines),
	 * written after the pages of every part (version 5 on); none if 0.
	 */
	const uint8_t		*erase;
	uint64_t		 erase_size;
	uint64_t		 stop_after;	/* pages written before the file
						 * ends (UINT64_MAX: all) */
	int			 incomplete;	/* set the header's flag */
	dk_kd_fill_fn		 fill;
	void			*fill_arg;
	/* Set by the writer. */
	uint64_t		 n_stored, n_raw, n_zero, n_missing;
	uint64_t		 bytes;		/* of the files (the dump's) */
};

/* The header's dump_level for s (see dump_level above). */
unsigned	dk_kd_dump_level(const struct dk_kd_wspec *);

/* One file written: by offset (a regular file) or as flattened records. */
struct dk_kd_out {
	int		 fd;
	const char	*name;
	int		 flat;
	/*
	 * A regular file to be fsynced: its pages' writeback is started
	 * every KD_WRITEBACK bytes (sync_file_range), so that the fsync at
	 * the end has little left to wait for.
	 */
	int		 writeback;
};

/*
 * Write s as nout files: one, or a --split set of nout parts (each the
 * header, notes and bitmaps, the pages of its PFN range: the pages to
 * store shared evenly; regular files only).  The same spec gives the
 * same bytes whatever s->threads is.
 */
enum dk_status	dk_kd_write(struct dk_kd_wspec *, const struct dk_kd_out *,
		    size_t nout, struct dk_err *);

/* dumpconv's choices for dk_kd_write_dump. */
struct dk_kd_opts {
	unsigned	 codec;
	int		 level;
	unsigned	 threads;
	int		 keep_zero;	/* zero pages share one stored page */
	int		 store_zero;	/* or each is stored (--keep-zero) */
};

/*
 * Fill s for dump d (any format with physical memory): header version
 * 6, LP64, d's byte order, its pages, ranges, utsname, notes and
 * VMCOREINFO (a FreeBSD dump's facts in a "DUMPKIT" note).  Free what it
 * allocated with dk_kd_spec_free.
 */
enum dk_status	dk_kd_spec_from_dump(struct dk_dump *, const struct dk_kd_opts *,
		    struct dk_kd_wspec *, struct dk_err *);
/* Linux's uname -m for architecture row name ("x86_64"), or NULL. */
const char	*dk_kd_machine(const char *row);
/* Free what dk_kd_spec_from_dump allocated. */
void		dk_kd_spec_free(struct dk_kd_wspec *);

/* A walk over the stored pages of a kdump dump (dk_kd_stored_next). */
struct dk_kd_stored {
	size_t		part;		/* set both to 0 to start */
	uint64_t	next;
	uint64_t	pfn;		/* the page's */
	uint64_t	desc_off;	/* the descriptor's file offset */
	uint64_t	off, size;	/* the page's bytes in the file */
	unsigned	codec;		/* KD_DH_*; UINT32_MAX: not a page */
	uint64_t	block;
};
/*
 * The next stored page of d (a kdump dump): its bytes into raw and the
 * page they decode to into page (each a block); 1, 0 at the end, -1 on err.
 */
int		dk_kd_stored_next(struct dk_dump *, struct dk_kd_stored *,
		    uint8_t *raw, uint8_t *page, struct dk_err *);

/* The next descriptor of d, as dk_kd_stored_next, without its page. */
int		dk_kd_desc_next(struct dk_dump *, struct dk_kd_stored *,
		    struct dk_err *);

/*
 * The next run of the pages d's files hold (bitmap 2's, less those whose
 * descriptor or data the file does not have), at base plus its first
 * page's rank among them times the block size.
 */
int		dk_kd_held_next(struct dk_dump *, struct dk_run_iter *,
		    struct dk_run *, uint64_t base);

/* A record of a flattened file: its header at at, its bytes after it. */
struct dk_kd_frec {
	uint64_t	at;
	uint64_t	off, size;	/* as the header says */
	uint64_t	have;		/* bytes of it in the file */
	int		end;		/* the end marker (-1, -1) */
};
/*
 * Record idx of flattened file s (named name) at *pos, moving *pos past
 * it: 1, 0 at the end of the file, -1 with err set on a bad header.
 */
int		dk_kd_flat_next(const struct dk_src *s, const char *name,
		    uint64_t idx, uint64_t *pos, struct dk_kd_frec *,
		    struct dk_err *);
/*
 * Where [off, off + len) of the image of d's part pi, flattened, is in
 * its file: the first piece, of out->end bytes, at file offset
 * out->start (UINT64_MAX: no record holds it, zeros); 0 if the part is
 * not flattened.
 */
int		dk_kd_flat_map(const struct dk_dump *, size_t pi, uint64_t off,
		    uint64_t len, struct dk_range *out);
typedef enum dk_status (*dk_kd_range_fn)(void *, uint64_t lo, uint64_t hi,
		    struct dk_err *);
/*
 * The bytes of d's flattened records that a later record overwrote, as
 * file ranges in ascending order, to fn.
 */
enum dk_status	dk_kd_flat_lost(struct dk_dump *, dk_kd_range_fn fn, void *arg,
		    struct dk_err *);

/* What the portable module (kdump_port.c) asks of an open kdump dump. */
struct dk_kd_facts {
	size_t		nparts;
	int		flat;		/* part 0 is flattened */
	int		split;		/* ... a part of a --split set */
	int		portable;	/* read from a portable file ... */
	uint64_t	pdata;		/* ... whose page data starts here */
	uint64_t	note_off, note_size;	/* the sub header's ELF notes */
	uint64_t	erase_off, erase_size;	/* ... and eraseinfo */
};
void		dk_kd_facts(const struct dk_dump *, struct dk_kd_facts *);

/*
 * A portable file's kdump (docs/portable-elf-minidump.md 10.3): the
 * file's bytes [0, hlen) are the source header note's at hoff, size its
 * size; the held pages decoded from data on.
 */
struct dk_kd_map {
	uint64_t	hoff, hlen, size, data;
};
/* Open d, a portable file, as the kdump file m describes. */
enum dk_status	dk_kd_open_mapped(struct dk_dump *, const struct dk_kd_map *,
		    struct dk_err *);
/* Give d's kdump state p, freed with fr when d is closed. */
void		dk_kd_set_port(struct dk_dump *, void *p, void (*fr)(void *));
/* What dk_kd_set_port gave, or NULL. */
void		*dk_kd_port(const struct dk_dump *);
/* What dumpcheck checks of a portable file's kdump (kdump_port.c). */
struct dk_kd_audit {
	uint64_t	stored;		/* pages its page data should hold */
	uint64_t	cut;		/* ... of them past the file's end */
	uint64_t	noenc;		/* pages of a codec with no encoder */
	uint64_t	noenc_pfn;	/* the first of them */
	unsigned	noenc_codec;
};
/* Audit d, read from a portable file (else all zero). */
enum dk_status	dk_kd_portable_audit(struct dk_dump *, struct dk_kd_audit *,
		    struct dk_err *);
/* The format in the portable file (kdump_port.c): source kind 5. */
struct dk_portable;
extern const struct dk_portable dk_kd_portable;

/*
 * Part pi of d: where its descriptors end and its size (a flattened
 * file's: the rearranged image's); 0 if there is no part pi.
 */
int		dk_kd_part_extent(struct dk_dump *, size_t pi,
		    uint64_t *meta_end, uint64_t *size);
/* Read [off, off + len) of part pi's (rearranged) image. */
enum dk_status	dk_kd_part_read(struct dk_dump *, size_t pi, void *buf,
		    size_t len, uint64_t off, struct dk_err *);

/* ---------------------------------------------------------------------- */
/* Re-encoding the stored pages (kdump_reenc.c): the way back from the    */
/* portable file (docs/portable-elf-minidump.md 10.3).                    */

/* A page encoder, as the portable file's encoders note records it. */
struct dk_kd_enc {
	unsigned	codec;		/* KD_DH_*; 0: none (no such page) */
	uint32_t	encoder;	/* 1 compress2, 2 libdeflate, 3 lzo1x_1,
					 * 4 lzo1x_999, 5 snappy, 6 zstd */
	int32_t		level;		/* 0 where it has none */
};
/* The index of codec (KD_DH_ZLIB: 0, LZO 1, SNAPPY 2, ZSTD 3), or -1. */
int		dk_kd_codec_index(unsigned codec);
/* The encoder's name ("zlib compress2"); NULL if e is not one we have. */
const char	*dk_kd_encoder_name(const struct dk_kd_enc *e);

/* The encoders' state (buffers, contexts): one per thread. */
struct dk_kd_encoder;
/* A new encoder state, or NULL if out of memory. */
struct dk_kd_encoder *dk_kd_encoder_new(void);
/* Free it (NULL: nothing). */
void		dk_kd_encoder_free(struct dk_kd_encoder *);
/* Encode the block bytes at in with e: *out its bytes, the count; 0 if not. */
size_t		dk_kd_encode(struct dk_kd_encoder *, const struct dk_kd_enc *e,
		    const uint8_t *in, size_t block, const uint8_t **out);

/*
 * The encoder of each codec index d's stored pages use (codec 0 where
 * none does), found by elimination on each codec's first pages: bounded
 * work, whatever the file.
 */
enum dk_status	dk_kd_reenc_choose(struct dk_dump *, struct dk_kd_enc enc[4],
		    struct dk_err *);

/* What the walk of a kdump's stored pages and the bytes between finds. */
enum dk_kd_piece_kind {
	DK_KD_SKIP,		/* a descriptor of no page the file holds */
	DK_KD_SHARED,		/* a page at bytes accounted for already
				 * (the shared zero page) */
	DK_KD_PLAIN,		/* a page stored as it is */
	DK_KD_SAME,		/* a page its encoder reproduces */
	DK_KD_DIFFER,		/* a page it does not */
	DK_KD_GAP		/* bytes between pages, or after the last */
};
struct dk_kd_piece {
	enum dk_kd_piece_kind	 kind;
	const struct dk_kd_stored *sp;	/* the descriptor (not for GAP) */
	uint64_t		 off, len;	/* in the part's image */
	uint64_t		 nz_lo, nz_hi;	/* GAP: its non-zero bytes'
						 * span (nz_lo UINT64_MAX:
						 * none) */
	const uint8_t		*raw;		/* PLAIN, SAME, DIFFER: the
						 * stored bytes */
};
typedef enum dk_status (*dk_kd_walk_fn)(void *, const struct dk_kd_piece *,
		    struct dk_err *);
/*
 * Every descriptor of d in order, its page re-encoded with enc, and the
 * bytes of each part between its descriptors' end and its own end that
 * no page holds, to fn.
 */
enum dk_status	dk_kd_reenc_walk(struct dk_dump *, const struct dk_kd_enc enc[4],
		    dk_kd_walk_fn fn, void *arg, struct dk_err *);

/* What the walk found (dk_kd_reenc_survey). */
struct dk_kd_reenc {
	struct dk_kd_enc chosen[4];	/* the encoder per codec index */
	uint64_t	pages[4];	/* compressed pages: zlib lzo snappy zstd */
	uint64_t	plain;		/* stored as they are */
	uint64_t	shared;		/* descriptors on bytes seen before
					 * (the shared zero page) */
	uint64_t	skipped;	/* descriptors that are not a page */
	const char	*enc[4];	/* the encoder chosen per codec */
	int		 level[4];	/* at this level */
	uint64_t	differ[4];	/* pages its re-encoding differs on */
	uint64_t	residue;	/* their bytes */
	uint64_t	gap;		/* bytes past the descriptors no page
					 * holds (eraseinfo, holes) ... */
	uint64_t	gap_nonzero;	/* ... and the span of those of them
					 * not zero */
};
/* Choose the encoders of d, then walk it and count what it finds. */
enum dk_status	dk_kd_reenc_survey(struct dk_dump *, struct dk_kd_reenc *,
		    struct dk_err *);

#endif /* DK_KDUMP_H */
