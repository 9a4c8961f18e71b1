/*
 * private.h -- what the modules of libdumpkit share; not installed.
 *
 * The library is a set of tables: header layouts (layout.c and the arch
 * files), architecture modules with their rows and minidump families
 * (arch_*.c, listed by arch.c) and formats (dump.c).  A new format or
 * architecture is a new entry, not a special case in the code that
 * walks the tables.
 */
#ifndef DK_PRIVATE_H
#define DK_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dumpkit.h"

#define	DK_EXPORT	__attribute__((visibility("default")))

#define	DK_ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

/* Sanity limits on values read from a file (convention: named, in one place). */
#define	DK_MAX_PAGE_SHIFT	16		/* 64 KiB pages */
#define	DK_MAX_AVAIL		4096		/* dump_avail pairs */

/* ---------------------------------------------------------------------- */
/* Input: a file descriptor read with pread, or bytes in memory.           */

struct dk_src {
	int		 fd;		/* -1 when memory-backed */
	const uint8_t	*mem;
	uint64_t	 base;		/* offset of the window in fd or mem:
					 * every read adds it (containers) */
	uint64_t	 size;		/* bytes in the window */
	const char	*name;		/* for messages only */
	uint32_t	 index;		/* which file of a dump set (0: the
					 * first); errors carry it (err->file) */
	struct dk_zsrc	*z;		/* a compressed stream decoded as it
					 * is read (decompress.c), or NULL */
};

/*
 * Open path read-only as src: a regular file or a block device; "-" is
 * standard input (copied once to a temporary file unless it is a regular
 * file).  A directory, a character device, a FIFO: DK_ESYS, unusable.
 */
enum dk_status	dk_src_open(const char *path, struct dk_src *,
		    struct dk_err *);

/*
 * A temporary file with no name in TMPDIR (else /tmp), read-write, to
 * hold "what" (for the message); -1 with err set if none can be made.
 */
int		dk_tmp_open(const char *name, const char *what,
		    struct dk_err *);

/*
 * Read exactly len bytes at off; "what" names the structure for the
 * message.  Reading past the end of the file is DK_ETRUNC.
 */
enum dk_status	dk_src_pread(const struct dk_src *, void *, size_t, uint64_t,
		    const char *what, struct dk_err *);

/*
 * A compressed stream read in one pass (decompress.c): reads at
 * increasing offsets decode forward; what was decoded before the
 * sequential pass began is kept (the headers, bitmaps, page tables the
 * open and the walks read); a read behind that decodes the stream again
 * into a temporary file and reads it from there (a fallback, counted).
 */
struct dk_zsrc;
#define	DK_ZBLOCK	4096u	/* decompressed zero blocks become holes */
/* All n bytes at p are zero (n may be 0). */
static inline int
dk_all_zero(const uint8_t *p, size_t n)
{
	return n == 0 || (p[0] == 0 && memcmp(p, p + 1, n - 1) == 0);
}
/* What a one-pass stream did (the work-bound tests read it). */
struct dk_zstats {
	uint64_t	size;		/* decompressed size, from the frames */
	uint64_t	in_end;		/* where the last frame ends (then
					 * zero padding to the file's end) */
	uint64_t	decoded;	/* decompressed bytes decoded */
	uint64_t	head;		/* bytes kept from before the pass */
	uint64_t	steps;		/* decoder calls that gave bytes */
	uint64_t	reads;		/* reads served */
	uint64_t	fallbacks;	/* times the stream was spooled */
	uint64_t	spooled;	/* bytes decoded into a temporary file */
};
/* dk_stream_end for a stream of one's own; the first error, sticky. */
enum dk_status	dk_zsrc_end(struct dk_zsrc *, struct dk_err *);
/* Its counters (0 and zeros for NULL). */
int		dk_zsrc_stats(const struct dk_zsrc *, struct dk_zstats *);
/* Free it; NULL is allowed. */
void		dk_zsrc_close(struct dk_zsrc *);
enum dk_status	dk_zsrc_pread(struct dk_zsrc *, void *, size_t, uint64_t,
		    const char *what, struct dk_err *);
/*
 * Up to *n (> 0) bytes at off without copying: *p points at them until
 * the next call on z, *n says how many; 0 bytes when z was spooled
 * (then read it with dk_zsrc_pread).
 */
enum dk_status	dk_zsrc_peek(struct dk_zsrc *, uint64_t off,
		    const uint8_t **p, size_t *n, struct dk_err *);
/*
 * The consumer now reads in increasing order (a writer's copy, the
 * content pass): what is decoded from here on is no longer kept.
 */
void		dk_src_sequential(const struct dk_src *);
/*
 * Open like dk_open_set, letting a zstd stream be read in one pass
 * rather than decompressed into a temporary file first: for consumers
 * that read in order (dumpconv, dumpcheck's content pass), which call
 * dk_stream_end before they trust what they read.
 */
enum dk_status	dk_open_stream(const char *const *paths, size_t n,
		    const struct dk_open_opts *, struct dk_dump **,
		    struct dk_err *);
/*
 * Decode what the consumer did not read, to the end of the stream: its
 * checksums and what follows it are checked, as a whole decompression
 * checks them.  DK_OK at once when d is not a one-pass stream.
 */
enum dk_status	dk_stream_end(struct dk_dump *, struct dk_err *);
/* The counters of d's one-pass stream; 0 if it has none. */
int		dk_stream_stats(const struct dk_dump *, struct dk_zstats *);

/*
 * Open a dump on an existing source (dumpcheck's decompressed stream):
 * its descriptor is duplicated, its memory must outlive the dump.
 */
enum dk_status	dk_open_src(const struct dk_src *, const struct dk_open_opts *,
		    struct dk_dump **, struct dk_err *);
struct dk_format_ops;
/*
 * Open the n files at paths as a dump of format fmt, without probing
 * (tests and fuzzers drive one format directly); fmt NULL probes.
 */
enum dk_status	dk_open_fmt(const struct dk_format_ops *fmt,
		    const char *const *paths, size_t n,
		    const struct dk_open_opts *, struct dk_dump **,
		    struct dk_err *);
/* Read from file i of d's set (0 is the first, before containers). */
enum dk_status	dk_part_pread(const struct dk_dump *, size_t i, void *,
		    size_t, uint64_t, const char *what, struct dk_err *);

/* Parse a decimal, 0x-hex or 0-octal number; 0 or -1. */
int		dk_parse_u64(const char *, uint64_t *);

/* ---------------------------------------------------------------------- */
/* Tracing: DUMPKIT_TRACE set in the environment at open time.            */

struct dk_dump;
void		dk_trace_printf(const struct dk_dump *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
#define	DK_TRACE(d, ...) do {						\
	if ((d)->trace)							\
		dk_trace_printf((d), __VA_ARGS__);			\
} while (0)

/* ---------------------------------------------------------------------- */
/* Header layout tables: one per on-disk header, shared by every user.    */

/*
 * Semantic ids of header fields.  A layout maps each id it has to an
 * offset and a width; code asks for fields by id, never by offset.  Ids
 * are local to a format's layouts: each format numbers its own fields
 * from 0, its string-valued ones first (below DK_HDR_NSTR), so that any
 * number of formats and headers can be described.  This enum is the
 * FreeBSD minidump headers' (every family's); the kerneldumpheader's and
 * the sparc64 header's are below, next to their formats' declarations.
 */
#define	DK_HDR_IDS	128		/* ids one format may number */
#define	DK_HDR_NSTR	8		/* of them, string-valued (0..7) */
#define	DK_H_PAD	(DK_HDR_IDS - 1)	/* padding, in every format */

enum dk_hid {
	DK_H_MAGIC = 0,
	DK_H_MMU_NAME,
	DK_H_NSTR,
	DK_H_VERSION = DK_H_NSTR,
	DK_H_MSGBUFSIZE,
	DK_H_BITMAPSIZE,
	DK_H_PMAPSIZE,
	DK_H_KERNBASE,
	DK_H_KERNEND,
	DK_H_DMAPPHYS,
	DK_H_DMAPBASE,
	DK_H_DMAPEND,
	DK_H_PAEMODE,
	DK_H_ARCH,
	DK_H_MMUFORMAT,
	DK_H_DUMPAVAILSIZE,
	DK_H_FLAGS,
	DK_H_HW_DIRECT_MAP,
	DK_H_STARTKERNEL,
	DK_H_ENDKERNEL,
	DK_H_NIDS
};

enum dk_fkind {
	DK_FK_UINT,		/* unsigned integer, 1/2/4/8 bytes */
	DK_FK_INT,		/* signed integer (C int) */
	DK_FK_CHARS,		/* NUL-padded char array */
	DK_FK_PAD,		/* padding the compiler inserted */
	DK_FK_ARRAY,		/* flexible array member: size 0, no value;
				 * ctype "struct NAME[]" */
};

#define	DK_V(v)		(1u << (v))	/* version bit */

struct dk_field {
	const char	*name;		/* as the original header names it */
	uint16_t	 off;
	uint16_t	 size;
	uint8_t		 kind;		/* enum dk_fkind */
	uint8_t		 id;		/* enum dk_hid */
	uint16_t	 versions;	/* DK_V() bits of the versions that have it */
	const char	*ctype;		/* C type as the original header declared it */
	const char	*meaning;
};

struct dk_layout {
	const char		*name;	/* "minidump-amd64" */
	const struct dk_field	*fields;
	size_t			 nfields;
};

/* A decoded header: integer values and strings, by id. */
#define	DK_HDR_STRMAX	200		/* longest char[] field + NUL */

struct dk_hdr {
	uint64_t	v[DK_HDR_IDS];
	char		s[DK_HDR_NSTR][DK_HDR_STRMAX];
	uint64_t	present[DK_HDR_IDS / 64];	/* a bit per id: the
							 * version has it */
};

_Static_assert(DK_H_NSTR <= DK_HDR_NSTR && DK_H_NIDS <= DK_H_PAD,
    "the minidump ids fit a struct dk_hdr");

/* Does decoded header h have field id? */
#define	DK_H_HAS(h, id)	(((h)->present[(id) >> 6] >> ((id) & 63)) & 1)

/* The field of layout l with id in version v, or NULL. */
const struct dk_field *dk_layout_find(const struct dk_layout *, unsigned id,
		    unsigned version);
/* sizeof(struct) of the header in version v (end of its last field). */
size_t		dk_layout_size(const struct dk_layout *, unsigned version);
/* Decode the fields of version v from buf (at least dk_layout_size bytes). */
void		dk_layout_decode(const struct dk_layout *, unsigned version,
		    const uint8_t *, enum dk_endian, struct dk_hdr *);
/*
 * Encode the fields of version v into buf; padding is left as it is.
 * DK_EINVAL, naming the field, its width and the value, and nothing
 * written, if an integer does not fit its field.
 */
enum dk_status	dk_layout_encode(const struct dk_layout *, unsigned version,
		    uint8_t *, enum dk_endian, const struct dk_hdr *,
		    struct dk_err *);

/* ---------------------------------------------------------------------- */
/* Page bitmap with a rank index.                                          */

/*
 * The bits are held normalised (bit n is bit n % 64 of word n / 64,
 * whatever word size and byte order the dump used) and sparse: a
 * superblock of 65536 bits is held only if a bit of it is set, and in
 * it a 512-bit block as words only if it has both set and clear bits;
 * a block of set bits only is a bit of a mask.  Memory is so
 * proportional to the blocks where a run of set bits starts or ends,
 * never to the size of the bitmap: a 64 TiB machine's 2 GiB bitmap with
 * a few runs takes a few KiB.  rank(n), the number of set bits below n,
 * is a superblock lookup (direct where the superblocks are contiguous, a
 * binary search otherwise), two mask popcounts and at most eight word
 * popcounts, after a linear build (dk_bitmap_index).
 */
#define	DK_BM_BLOCK_SHIFT	9	/* 512 bits per block */
#define	DK_BM_SUPER_SHIFT	16	/* 65536 bits per superblock */

struct dk_bm_super {
	uint64_t	 id;		/* bits [id << 16, (id + 1) << 16) */
	uint64_t	 rank;		/* set bits before it (dk_bitmap_index) */
	uint64_t	 full[2];	/* a bit per block: all its bits set */
	uint64_t	 mixed[2];	/* a bit per block: its words are in w */
	/*
	 * 8 words per mixed block, in block order, for cap blocks; then
	 * (dk_bitmap_index) cap + 1 uint16_t: the set bits of the mixed
	 * blocks before each.
	 */
	uint64_t	*w;
	uint32_t	 cap;
};

struct dk_bitmap {
	uint64_t		 nbits;
	uint64_t		 count;		/* all set bits (dk_bitmap_index) */
	struct dk_bm_super	*sb;		/* superblocks with a set bit */
	uint64_t		 nsb, capsb;	/* sb[] is sorted by id */
	int			 nomem;		/* a set or load ran out of
						   memory: index reports it */
	uint64_t		 read;		/* file bytes dk_bitmap_read
						   read (tests, bench) */
};

/* An empty bitmap of nbits bits (nothing is allocated yet). */
enum dk_status	dk_bitmap_init(struct dk_bitmap *, uint64_t nbits,
		    struct dk_err *);
/* Free a bitmap's memory; the struct may be reused after init. */
void		dk_bitmap_free(struct dk_bitmap *);
/*
 * Load raw on-disk bitmap bytes starting at bit-byte index byteoff:
 * words of wordsize bytes (4 or 8) in byte order e.  byteoff and len are
 * multiples of wordsize.  The bytes replace what was there; bits at or
 * past nbits are dropped.  Chunk by chunk, memory stays proportional to
 * the blocks with both set and clear bits.
 */
void		dk_bitmap_load(struct dk_bitmap *, uint64_t byteoff,
		    const uint8_t *, size_t, unsigned wordsize, enum dk_endian);
/*
 * The next stretch of [off, end) of src that may hold data: [*data,
 * *hole), both multiples of align from off; *data = end if none.  The
 * file's holes (SEEK_DATA, SEEK_HOLE) read as zeros and are skipped;
 * memory, or a file system that cannot tell, is data throughout.
 */
void		dk_src_data(const struct dk_src *, uint64_t off, uint64_t end,
		    unsigned align, uint64_t *data, uint64_t *hole);
/*
 * Load the on-disk bitmap of nbytes bytes at off of src into a fresh
 * bitmap (dk_bitmap_load in chunks), reading only its data extents: the
 * holes of a huge machine's bitmap are its clear bits.  Counts bm->read.
 */
enum dk_status	dk_bitmap_read(struct dk_bitmap *, const struct dk_src *,
		    uint64_t off, uint64_t nbytes, unsigned wordsize,
		    enum dk_endian, const char *what, struct dk_err *);
/* Store bits as on-disk bytes (the inverse of dk_bitmap_load). */
void		dk_bitmap_store(const struct dk_bitmap *, uint64_t byteoff,
		    uint8_t *, size_t, unsigned wordsize, enum dk_endian);
/*
 * Build the rank index (and drop what a load or set left empty); call
 * after the last change to the bits.  DK_ENOMEM if a set or load could
 * not allocate (the bitmap is then incomplete).
 */
enum dk_status	dk_bitmap_index(struct dk_bitmap *, struct dk_err *);
/* Number of set bits below bit n (n <= nbits). */
uint64_t	dk_bitmap_rank(const struct dk_bitmap *, uint64_t);
/* First set (want=1) or clear (want=0) bit at or after n, or nbits. */
uint64_t	dk_bitmap_next(const struct dk_bitmap *, uint64_t, int want);
/* Is bit n set (0 past nbits)? */
int		dk_bitmap_test(const struct dk_bitmap *, uint64_t);
/* Set bit n (nothing past nbits). */
void		dk_bitmap_set(struct dk_bitmap *, uint64_t);
/* Set the bits of v in normalised word w (bits 64 w to 64 w + 63). */
void		dk_bitmap_or(struct dk_bitmap *, uint64_t w, uint64_t v);
/* Bytes of memory the bitmap holds (its superblocks, words and index). */
uint64_t	dk_bitmap_bytes(const struct dk_bitmap *);

/* ---------------------------------------------------------------------- */
/* Architectures.                                                          */

struct dk_mdarch;
struct dk_arch_ops;
struct dk_pcb_regs;

/* ABIs, where a machine and byte order have several (mips). */
enum dk_abi {
	DK_ABI_DEFAULT = 0,
	DK_ABI_O32,
	DK_ABI_N32,
	DK_ABI_N64,
};

/* One row per machine, byte order and ABI. */
struct dk_arch {
	const char	*name;		/* FreeBSD MACHINE_ARCH: "armeb" */
	const char	*aliases;	/* other names, space-separated, or NULL */
	const char	*family;	/* minidump family name: "arm" */
	enum dk_endian	 endian;
	enum dk_abi	 abi;
	uint16_t	 elf_machine;	/* EM_* of the kernel */
	uint8_t		 elf_class;	/* ELFCLASS32 or ELFCLASS64 of the kernel */
	uint8_t		 long_size;	/* sizeof(long) in the kernel: 4 or 8 */
	uint32_t	 elf_flags_mask;	/* e_flags bits that select the row */
	uint32_t	 elf_flags;	/* their value in the kernel's e_flags */
	const struct dk_mdarch *minidump;	/* NULL: no minidump format */
	const char	*no_elfcore;	/* why no full ELF cores, or NULL */
	const struct dk_arch_ops *ops;	/* the module the row belongs to */
	/* The row's pcb decoder where its ABI has its own; else ops->pcb. */
	const struct dk_pcb_regs *pcb;
};

/*
 * A hardware page-table walk of an architecture module: translate va
 * through the tables whose top level is at root (a PA) in the dumped
 * memory, giving the PA and the entry's protection (DK_PROT_*; prot
 * may be NULL).  Entries are read with dk_read_pa in the row's byte
 * order.  The numbers describe the walk and translate may read them
 * (w is the entry itself), so that one function can serve a family of
 * walks (4 or 5 levels, three granules); param holds what else a walk
 * needs.
 */
struct dk_pt_walk {
	const char	*name;		/* "amd64 4-level", "i386 PAE" */
	unsigned	 levels;	/* tables from the root to a page */
	unsigned	 page_shift;	/* the smallest page */
	unsigned	 va_bits;	/* bits of VA the tables translate */
	unsigned	 pte_size;	/* bytes per entry */
	const void	*param;		/* the walk's own parameters, or NULL */
	enum dk_status	(*translate)(struct dk_dump *,
			    const struct dk_pt_walk *w, uint64_t root,
			    uint64_t va, uint64_t *pa, unsigned *prot,
			    struct dk_err *);
};

/*
 * An architecture module, formats/arch_<name>.c: its rows, its FreeBSD
 * minidump family, its hardware page-table walks and its protection
 * decoding.  arch.c lists the modules; every row belongs to exactly
 * one, and points back at it.
 */
struct dk_arch_ops {
	const char		*name;		/* "amd64", "mips" */
	const struct dk_arch	*rows;		/* in dk_arch_at() order */
	size_t			 nrows;
	unsigned		 page_shift;	/* the base page (a dump may
						 * say otherwise: arm64) */
	const struct dk_mdarch	*minidump;	/* NULL: no minidump format */
	/*
	 * A dump format of the port's own, which it wrote instead of a
	 * minidump (sparc64's); NULL: none.  A format without magic claims
	 * a dump when the architecture given for it names the format here.
	 */
	const struct dk_format_ops *native;
	const struct dk_pt_walk	*walks;		/* NULL: none (nwalks 0) */
	size_t			 nwalks;
	/*
	 * The protection (DK_PROT_*) a valid page-table entry pte grants;
	 * fmt says which of the module's entry formats pte is in, numbered
	 * as the module's file says (0: its only or usual one).  NULL: the
	 * module decodes no entries.
	 */
	unsigned		(*prot)(uint64_t pte, unsigned fmt);
	/*
	 * How the module's struct pcb becomes gdb's NT_PRSTATUS registers
	 * (kthreads.h); NULL: threads' registers are not decoded.
	 */
	const struct dk_pcb_regs *pcb;
};

/*
 * The name of the dump format a's kernel writes, full cores aside: its
 * module's own (native), "minidump" for a row with a minidump family,
 * or NULL.
 */
const char	*dk_arch_dump_format(const struct dk_arch *a);

/* The walk of module m named name, or NULL. */
const struct dk_pt_walk *dk_arch_walk(const struct dk_arch_ops *m,
		    const char *name);

/* The modules (arch.c lists them in this order). */
extern const struct dk_arch_ops dk_arch_amd64;
extern const struct dk_arch_ops dk_arch_i386;
extern const struct dk_arch_ops dk_arch_arm64;
extern const struct dk_arch_ops dk_arch_arm;
extern const struct dk_arch_ops dk_arch_mips;
extern const struct dk_arch_ops dk_arch_powerpc64;
extern const struct dk_arch_ops dk_arch_riscv;
extern const struct dk_arch_ops dk_arch_powerpc;
extern const struct dk_arch_ops dk_arch_sparc64;
extern const struct dk_arch_ops dk_arch_s390x;

/*
 * The public description of a dump (dk_section, dk_window, dk_attr),
 * filled by the formats as they open it.  The lists grow as needed; if
 * memory runs out, d->oom is set and dk_open fails with DK_ENOMEM.
 * name and source are static strings; attribute names and values are
 * copied.
 */
void		dk_add_section(struct dk_dump *, const char *name, uint64_t off,
		    uint64_t size, uint64_t space);
/* Report an address window; a direct map also becomes dk_dmap(d). */
void		dk_add_window(struct dk_dump *, enum dk_window_kind,
		    const char *name, uint64_t va, uint64_t end, uint64_t pa);
/* Add a string attribute (an empty string adds nothing). */
void		dk_add_attr_str(struct dk_dump *, const char *name,
		    const char *value, const char *source);
/* Add a number or time attribute. */
void		dk_add_attr_num(struct dk_dump *, const char *name,
		    enum dk_attr_type, uint64_t value, const char *source);

/* The row of the family with byte order e, or NULL. */
const struct dk_arch *dk_arch_family_endian(const char *family,
		    enum dk_endian);
/* Pick the row of a kernel from the first len bytes of its ELF header. */
enum dk_status	dk_arch_from_elf_header(const uint8_t *, size_t, const char *,
		    const struct dk_arch **, struct dk_err *);
/* Pick the row a kernel ELF image was built for; see arch.c. */
enum dk_status	dk_arch_from_kernel(const char *path,
		    const struct dk_arch **, struct dk_err *);

/* ---------------------------------------------------------------------- */
/* Minidumps: the family ops each arch_*.c file provides.                 */

/* A mapping the fixture generator asks a family to encode. */
struct dk_map {
	uint64_t	va;		/* kernel virtual address */
	uint64_t	pa;
	uint64_t	len;		/* bytes, a multiple of the page size */
	unsigned	prot;		/* DK_PROT_* */
	unsigned	large;		/* 1: use the arch's large page */
};

#define	DK_PROT_W	0x1u
#define	DK_PROT_X	0x2u

/* Input and output of a family's pmap_build hook. */
struct dk_pmap_build {
	/* in */
	const struct dk_arch	*arch;
	uint32_t		 version;
	const struct dk_hdr	*hdr;		/* kernbase and arch fields */
	unsigned		 page_shift;
	uint64_t		 kva_end;	/* end of the kernel map */
	const struct dk_map	*maps;		/* sorted by va, disjoint */
	size_t			 nmaps;
	/* allocator of physical pages for page-table pages (amd64 v2+) */
	uint64_t		(*alloc_pt)(void *arg);
	void			*alloc_arg;
	/* out: the pmap area, malloc'd */
	uint8_t			*pmap;
	uint64_t		 pmap_len;
	/* out: page-table pages to place in physical memory, malloc'd */
	uint64_t		*pt_pa;
	uint8_t			*pt_data;	/* npt pages, back to back */
	size_t			 npt;
};

/* Fixed translations a family's generator model has (struct dk_window). */
#define	DK_MAX_WINDOWS	4

/* What a family's generator defaults are; fixtures/ reads these. */
struct dk_mdgen {
	uint64_t	kernbase;	/* default kernbase */
	uint64_t	dmap_base;	/* 0: no direct map */
	uint64_t	dmap_end;
	uint64_t	phys_base;	/* first PA of RAM */
	uint64_t	large_size;	/* bytes of a large mapping, 0 if none */
	uint64_t	pmap_unit;	/* KVA described by one pmap page */
	uint64_t	ktext_va;	/* where the kernel image is mapped; 0:
					 * not through the page tables (it is
					 * reached through a window) */
	uint64_t	kmem_va;	/* where small-page kernel memory starts */
	uint64_t	phys_max;	/* highest PA the format can express */
	uint32_t	msgbufsize;	/* msg_size as the kernel has it */
	unsigned	page_shift;	/* 0: 12 (4 KiB pages) */
	/* Fixed translations besides dmap (mips KSEG0, XKPHYS, ...). */
	struct dk_window win[DK_MAX_WINDOWS];
	size_t		nwin;
};

/*
 * A fixture variant of a family (a line of `dumpgen --list` for each of
 * the family's rows): the header fields the generator presets.  The
 * presets are applied before and after gen_defaults, so they win.
 */
struct dk_mdpreset {
	uint8_t		 id;		/* enum dk_hid; 0 (magic) ends the list */
	uint64_t	 value;
	const char	*str;		/* for string ids (mmu_name) */
};

struct dk_mdvariant {
	uint32_t		version;
	const char		*name;	/* "-" for the plain version */
	const char		*desc;
	struct dk_mdpreset	set[4];
};

/*
 * What a family's page-table pass (dk_mdarch's pt_visit) tells the
 * validator (check.c): the family walks its page-table area, the
 * validator judges what the walk finds.  off is the file offset of the
 * entry concerned; what and msg name the entry in words, msg also what
 * is wrong with it.
 */
struct dk_pt_visitor {
	void	*arg;
	/*
	 * A valid leaf maps pa (va UINT64_MAX: not known); large: a large
	 * page, pa its base.
	 */
	void	(*leaf)(void *arg, uint64_t va, uint64_t pa, uint64_t off,
		    int large);
	/*
	 * The entry at off points at a page-table page at pa that the walk
	 * needs: 1 to read and walk it, 0 not to (missing, or --quick).
	 */
	int	(*table)(void *arg, uint64_t pa, uint64_t off,
		    const char *what);
	/* Did table() accept a page at pa already (walk shared ones once)? */
	int	(*seen)(void *arg, uint64_t pa);
	/* A large entry whose frame is not aligned to its size. */
	void	(*misaligned)(void *arg, uint64_t off, const char *msg);
	/* An entry that points back at a table of its own path. */
	void	(*loop)(void *arg, uint64_t off, const char *msg);
};

struct dk_mdarch {
	const char		*family;	/* "amd64" */
	const char		*magic;		/* "minidump FreeBSD/amd64" */
	const struct dk_layout	*layout;
	uint16_t		 versions;	/* DK_V() of the readable versions */
	/* Bitmap word size in bytes for version v of row a. */
	unsigned		(*bitmap_word)(const struct dk_arch *, uint32_t);
	/*
	 * Called once the header is decoded: set page_shift and the direct
	 * map, check the arch's own fields.  NULL: 4 KiB pages, no dmap.
	 */
	enum dk_status		(*setup)(struct dk_dump *, struct dk_err *);
	/*
	 * Translate a kernel VA that is not in the direct map; *prot
	 * (DK_PROT_*, may be NULL) gets the entry's protection.
	 */
	enum dk_status		(*kvtop)(struct dk_dump *, uint64_t va,
				    uint64_t *pa, unsigned *prot,
				    struct dk_err *);
	/*
	 * dumpcheck's page-table pass: enumerate the page-table area of
	 * the open dump and tell v what is in it; 0 when the area of this
	 * dump is an entry per page from kernbase, which the validator
	 * walks itself through kvtop.  NULL: always so.
	 */
	int			(*pt_visit)(struct dk_dump *,
				    const struct dk_pt_visitor *v);
	/* Writer: encode the mappings into a pmap area. */
	enum dk_status		(*pmap_build)(struct dk_pmap_build *,
				    struct dk_err *);
	/* Generator defaults for version v. */
	void			(*gen_defaults)(const struct dk_arch *,
				    uint32_t, struct dk_mdgen *,
				    struct dk_hdr *);
	/*
	 * Could row a (already of the right byte order for the version
	 * field) have written this header?  Used only when the family has
	 * several rows and neither --arch nor --kernel decided.  On 1, why
	 * says what made it plausible.  NULL: every row is.
	 */
	int			(*plausible)(const struct dk_arch *,
				    const struct dk_hdr *, char *why,
				    size_t);
	/* The fixture variants the generator writes, newest last. */
	const struct dk_mdvariant *variants;
	size_t			 nvariants;
};

/* ---------------------------------------------------------------------- */
/* Containers: layers around the dump stream (kerneldumpheader, gzip...). */

#define	DK_MAX_LAYERS	4

/*
 * One layer the opener went through.  offset and size are the payload's
 * place in the outer stream; outer is the stream the layer was found in
 * (restored by dk_close before the layer's close runs).
 */
struct dk_layer {
	struct dk_layer_info	 info;		/* what dk_layer() returns */
	const struct dk_container_ops *ops;
	struct dk_src		 outer;
	void			*priv;		/* the layer's own data */
	int			 fd;		/* a file the layer owns, or -1 */
	struct dk_zsrc		*z;		/* a one-pass stream it owns */
	char			 desc[160];	/* info.desc points here */
};

struct dk_container_ops {
	const char	*name;		/* "kerneldumpheader" */
	/* The stream's first or last bytes: DK_OK, DK_NOMATCH or an error. */
	enum dk_status	(*probe)(const struct dk_src *, struct dk_err *);
	/*
	 * Record a layer in d->layers[d->nlayers++] and replace d->src by
	 * the inner stream.
	 */
	enum dk_status	(*open)(struct dk_dump *, const struct dk_open_opts *,
			    struct dk_err *);
	/* Free what open allocated in the layer; NULL if nothing. */
	void		(*close)(struct dk_dump *, struct dk_layer *);
	/* Its validator (check only); NULL: dumpcheck does not peel it. */
	const struct dk_format_check *check;
};

/* The i-th container of the containers table (dump.c), or NULL. */
const struct dk_container_ops *dk_container_at(size_t);

extern const struct dk_container_ops dk_ctr_kdh;

/* ---------------------------------------------------------------------- */
/* kerneldumpheader (fmt_kdh.c, FORMATS.md 3).                             */

#define	DK_KDH_SIZE		512
#define	DK_KDH_MAX_BLOCK	65536	/* largest blocksize believed */
#define	DK_KDH_TEXT_BLOCK	512	/* text dumps are reversed by 512 */

/* The kerneldumpheader's field ids (its layouts' own, see enum dk_hid). */
enum dk_kdh_hid {
	DK_KDH_F_MAGIC = 0,
	DK_KDH_F_ARCHITECTURE,
	DK_KDH_F_HOSTNAME,
	DK_KDH_F_VERSIONSTRING,
	DK_KDH_F_PANICSTRING,
	DK_KDH_F_NSTR,
	DK_KDH_F_VERSION = DK_KDH_F_NSTR,
	DK_KDH_F_ARCHVERSION,
	DK_KDH_F_DUMPLENGTH,
	DK_KDH_F_DUMPTIME,
	DK_KDH_F_BLOCKSIZE,
	DK_KDH_F_DUMPKEYSIZE,
	DK_KDH_F_DUMPEXTENT,
	DK_KDH_F_COMPRESSION,
	DK_KDH_F_PARITY,
	DK_KDH_F_NIDS
};

_Static_assert(DK_KDH_F_NSTR <= DK_HDR_NSTR && DK_KDH_F_NIDS <= DK_H_PAD,
    "the kerneldumpheader ids fit a struct dk_hdr");

/* The layout of struct kerneldumpheader version v (1..4), or NULL. */
const struct dk_layout *dk_kdh_layout(unsigned version);
/* The i-th kerneldumpheader layout (v1, v2, v3, v4), or NULL past them. */
const struct dk_layout *dk_kdh_layout_at(size_t);
/* XOR of the 128 32-bit words of a 512-byte header: 0 when it is sound. */
uint32_t	dk_kdh_parity(const uint8_t *);
/*
 * Decode a 512-byte header into *out (strings NUL-terminated).  Checks
 * magic and version only; DK_NOMATCH if the magic is none of the three.
 */
enum dk_status	dk_kdh_decode(const uint8_t *, struct dk_kdh_info *,
		    struct dk_err *);
/* Encode *in as a 512-byte header with its parity (the writer's twin). */
void		dk_kdh_encode(const struct dk_kdh_info *, uint8_t *);
/*
 * Locate and verify the container in src: *out gets the header and the
 * stream's place (dump_offset, dumplength), and *raw (if not NULL) the
 * 512 bytes of the leader.  DK_NOMATCH: no kerneldumpheader in the
 * places savecore looks.
 */
enum dk_status	dk_kdh_locate(const struct dk_src *, struct dk_kdh_info *,
		    uint8_t *raw, struct dk_err *);
/*
 * The raw 512-byte leader of d's kerneldumpheader layer, or of its
 * portable file's NT_DK_KDH note, or NULL.
 */
const uint8_t  *dk_kdh_raw(const struct dk_dump *);
/*
 * Load a portable file's kerneldumpheader note ([off, +size) of d->src)
 * into *k and raw (512 bytes), and make its fields d's attributes.
 */
enum dk_status	dk_kdh_note_load(struct dk_dump *, uint64_t off,
		    uint64_t size, struct dk_kdh_info *k, uint8_t *raw,
		    struct dk_err *);
/* The kerneldumpheader note of the portable file d was read from, or NULL. */
const struct dk_kdh_info *dk_portable_kdh(const struct dk_dump *,
		    const uint8_t **raw);
/* Which of the three magics is at b (enum dk_kdh_magic), or 0. */
int		dk_kdh_magic(const uint8_t *);
/*
 * First byte where leader and trailer differ, -1 if none (a trailer
 * savecore cleared is compared with its magic put back).
 */
int		dk_kdh_differ(const uint8_t *lead, const uint8_t *trail);
/*
 * Where the leader and the dump stream must be for trailer t at offset
 * th in placement p (DK_KDH_DEVICE or DK_KDH_DEVICE_OLD); 0 if the
 * sizes cannot fit before th.
 */
int		dk_kdh_leader_at(const struct dk_kdh_info *t, uint64_t th,
		    enum dk_kdh_placement p, uint64_t *lh, uint64_t *data);

/* ---------------------------------------------------------------------- */
/* The dump handle.                                                        */

struct dk_kmap_iter;
struct dk_kmap_run;
struct dk_portable;
struct dk_ck;
struct dk_emv;
struct dk_check_code;

/*
 * What a format or a container gives the validator (dkcheck.h; its
 * check_<name>.c, through checker.h).  dumpcheck peels the containers (each
 * check reports on its layer and narrows ck->src to the stream inside),
 * takes the stream for the format whose probe ranks it highest, and runs
 * that format's check.
 */
struct dk_format_check {
	/*
	 * Is the stream (damaged, maybe) of this format?  0 no; 1 it looks
	 * like one; 2 its identity says so exactly; 3 the options name it.
	 */
	int		(*probe)(const struct dk_src *,
			    const struct dk_open_opts *);
	/* Check ck->src: findings go to dk_ck_emit; DK_OK if examined. */
	enum dk_status	(*check)(struct dk_ck *, struct dk_err *);
	/*
	 * A source the portable ELF minidump holds, checked from its notes
	 * once check_elfmini.c has checked the ELF side (row NULL: those
	 * checks stopped early, and said why).  NULL: the source is checked
	 * by check when the library reads it from the portable file.
	 */
	enum dk_status	(*pcheck)(struct dk_ck *, struct dk_emv *,
			    const struct dk_arch *row, struct dk_err *);
	/* The finding codes only this check reports (docs/dumpcheck.md). */
	const struct dk_check_code *codes;
	size_t		 ncodes;
};

/* The validators of the formats and containers (check_<name>.c). */
extern const struct dk_format_check dk_md_check, dk_em_check,
		    dk_elfcore_check, dk_sp64_check, dk_kdh_ck, dk_unz_ck;
extern const struct dk_format_check dk_vmcore_check;
extern const struct dk_format_check dk_kd_check;

struct dk_format_ops {
	const char	*name;		/* stable id: "minidump" */
	const char	*desc;		/* one line for listings */
	/* First bytes only: DK_OK, DK_NOMATCH, or an error. */
	enum dk_status	(*probe)(const struct dk_src *, struct dk_err *);
	/* Decode headers and build indexes. */
	enum dk_status	(*open)(struct dk_dump *, const struct dk_open_opts *,
			    struct dk_err *);
	/* Free what open allocated; NULL if nothing. */
	void		(*close)(struct dk_dump *);
	/* File offset of the byte at pa, or DK_ENOTDUMPED. */
	enum dk_status	(*pa_offset)(struct dk_dump *, uint64_t, uint64_t *,
			    struct dk_err *);
	/* Translate a kernel VA. */
	enum dk_status	(*kvtop)(struct dk_dump *, uint64_t, uint64_t *,
			    struct dk_err *);
	/* Next run of dumped pages. */
	int		(*run_next)(const struct dk_dump *,
			    struct dk_run_iter *, struct dk_run *);
	/*
	 * Optional (NULL: none): file offset of the byte at kernel VA for
	 * formats that store virtual memory (powerpc virtual ELF cores);
	 * DK_NOMATCH: not stored so, translate with kvtop.
	 */
	enum dk_status	(*va_offset)(struct dk_dump *, uint64_t, uint64_t *,
			    struct dk_err *);
	/*
	 * Optional, for formats without magic (sparc64): nonzero when the
	 * options (--arch, --kernel) or the container (a kerneldumpheader's
	 * architecture) name this format; probe is then skipped and open
	 * says what is wrong.
	 */
	int		(*claim)(struct dk_dump *, const struct dk_open_opts *);
	/*
	 * Optional: the kernel-map walk of dk_kmap_next(), for formats
	 * whose translations can be listed rather than probed page by page.
	 */
	int		(*kmap_next)(struct dk_dump *, struct dk_kmap_iter *,
			    struct dk_kmap_run *, struct dk_err *);
	/*
	 * Optional: the first page at or after the page-aligned pa that the
	 * file stores, or UINT64_MAX; the kernel-map walk crosses a large
	 * mapping of pages not stored with it.  NULL: page by page.
	 */
	uint64_t	(*pa_next)(struct dk_dump *, uint64_t pa);
	/*
	 * Optional: how many bytes from the page-aligned pa (at most max,
	 * whole pages) the file stores at consecutive offsets, pa's and on;
	 * 0 if pa is not so stored.  The kernel-map walk takes a large
	 * leaf's stored pages in one step with it.  NULL: page by page.
	 */
	uint64_t	(*pa_span)(struct dk_dump *, uint64_t pa, uint64_t max);
	/*
	 * Optional, the page-read path: fill page (page_size bytes) with
	 * the dumped page at the page-aligned pa, for formats that store
	 * pages in a form with no file offset (compressed page by page);
	 * pa_offset and run_next then give DK_OFF_PAGED for those pages.
	 * dk_read_pa reads them through a small cache.
	 */
	enum dk_status	(*read_page)(struct dk_dump *, uint64_t pa, void *page,
			    struct dk_err *);
	/*
	 * Optional: read up to len bytes of the kernel's message buffer as
	 * the dump stores it; *got is the count.  NULL: the format has none.
	 */
	enum dk_status	(*read_log)(struct dk_dump *, void *, size_t,
			    size_t *got, struct dk_err *);
	/* Nonzero: a dump of this format may be several files (a set). */
	int		 sets;
	/* How the portable ELF minidump holds it (portable.h); or NULL. */
	const struct dk_portable *portable;
	/* Its validator; NULL: dumpcheck does not check it. */
	const struct dk_format_check *check;
};

/* The i-th format of the formats table (dump.c), or NULL past the end. */
const struct dk_format_ops *dk_format_at(size_t);
/*
 * A stream no format takes, held against the dumps dumpkit recognises
 * but does not read yet (recognize.c): DK_EUNSUP with a message naming
 * what it is, or DK_NOMATCH.
 */
enum dk_status	dk_recognize(const struct dk_src *, struct dk_err *);

/*
 * The page cache of the page-read path: DK_PCACHE_N pages, replaced in
 * turn.  Page-table walks read a few words of the same page again and
 * again, and a run is read in order: a handful of pages is enough.
 */
#define	DK_PCACHE_N	8
struct dk_pcache {
	uint8_t		*buf;		/* DK_PCACHE_N pages, or NULL */
	uint64_t	 pa[DK_PCACHE_N];	/* UINT64_MAX: empty */
	unsigned	 next;		/* the slot replaced next */
	uint64_t	 hits, misses;	/* for the benchmark and the tests */
};

struct dk_dump {
	struct dk_src		 src;		/* the innermost stream */
	int			 stream_ok;	/* dk_open_stream: may read a
						 * compressed stream in one pass */
	/* The files of a dump set as opened (part[0] is the first), or 0. */
	struct dk_src		*part;
	size_t			 npart;
	struct dk_pcache	 pc;
	/* Page-table pages read whole by dk_read_pt (the walks' reads). */
	struct dk_pcache	 ptc;
	int			 trace;
	struct dk_layer		 layers[DK_MAX_LAYERS];	/* outermost first */
	size_t			 nlayers;
	/* The format that reads the dump, and its state (freed by close). */
	const struct dk_format_ops *fmt;
	void			*priv;
	/*
	 * A format the dump was found wrapped in and that handed it to fmt
	 * (the portable ELF minidump), and its state; or NULL.
	 */
	const struct dk_format_ops *wrap;
	void			*wrap_priv;
	const struct dk_arch	*arch;
	struct dk_info		 info;
	char			 arch_why[256];
	/* What dk_section(), dk_window() and dk_attr() list. */
	struct dk_section	*sect;
	size_t			 nsect, capsect;
	struct dk_window	*win;
	size_t			 nwin, capwin;
	size_t			 dmap_i;	/* index in win, or SIZE_MAX */
	struct dk_attr		*attr;
	size_t			 nattr, capattr;
	int			 oom;		/* a list could not grow */

	/* The header the format decoded, and its layout (dk_header_field). */
	struct dk_hdr		 hdr;
	const struct dk_layout	*hlayout;
	unsigned		 page_shift;
	uint64_t		 page_size;
	/* The machine's physical memory ranges (dk_phys_range); freed here. */
	struct dk_range		*avail;
	size_t			 navail;
	/*
	 * Set by a translation that answers DK_ENOTMAPPED and knows that
	 * nothing below this VA is mapped either (an invalid PDE covers 2
	 * MiB); 0 when it does not know.  The kernel-map walk uses it.
	 */
	uint64_t		 unmapped_to;
	/*
	 * Set by a translation that answers DK_OK with a leaf mapping more
	 * than the page (a 2 MiB PDE, a radix leaf): the VA where the
	 * leaf's mapping ends; 0 when it does not say.
	 */
	uint64_t		 mapped_to;
	/* Page-table entries the dump holds: the kernel-map walk's budget. */
	uint64_t		 pt_nent;
	/* Nonzero while the kernel-map walk probes: see dk_err_miss(). */
	int			 probing;
};

/*
 * A miss (DK_ENOTMAPPED, DK_ENOTDUMPED) of a translation or a lookup on
 * d: dk_err_set(err, code, ...), but while the kernel-map walk probes
 * (d->probing), where a miss is an answer that no one reads, only the
 * code is set (dk_err_code): formatting a message for each unmapped
 * page cost more than the walk itself.
 */
#define	dk_err_miss(d, err, code, ...)					\
	((d)->probing ? dk_err_code((err), (code)) :			\
	    dk_err_set((err), (code), __VA_ARGS__))

/* Set err's code, with no place and an empty message; return it. */
enum dk_status	dk_err_code(struct dk_err *, enum dk_status);

/*
 * A minidump's state (d->priv of a minidump, native or portable): the
 * family, where the sections are, the bitmap, and what the family's
 * setup found.  The families (arch_*.c) and the minidump's validator
 * read it; nothing else does.
 */
struct dk_md {
	const struct dk_mdarch	*fam;
	uint64_t		 off_header;	/* the header page */
	uint64_t		 off_msgbuf, off_avail, off_bitmap;
	uint64_t		 off_pmap, off_pages;
	size_t			 hsize;		/* sizeof the header struct */
	uint64_t		*avail_bit;	/* first bit of each d->avail */
	struct dk_bitmap	 bm;

	/* set by the family's setup() */
	unsigned		 pte_size;	/* bytes per pmap entry */
	uint64_t		 pmap_nent;	/* entries in the pmap area */
	uint32_t		 mmuformat;	/* arm */
	int64_t			 kerndisp;	/* run-time minus link-time */

	/* a family's sorted index of its page tables (powerpc64: VSIDs) */
	uint64_t		*fam_index;
	size_t			 fam_nindex;
	int			 fam_indexed;

	/* the pmap area in memory, for random probes (dk_md_pmap_read) */
	uint8_t			*pmap_mem;
	int			 pmap_mem_failed;

	/* a cached block of the pmap area, for walks */
	uint8_t			 pmc[4096];
	uint64_t		 pmc_off;	/* file offset; UINT64_MAX: none */
	size_t			 pmc_len;
	uint64_t		 pmc_reads;	/* blocks read into it */
	/*
	 * The last zero run dk_md_pmap_nonzero() crossed: entries [zr_from,
	 * zr_to) are zero and zr_to is its answer from any idx in [zr_from,
	 * zr_to], so a walk entry by entry scans each run once.
	 */
	uint64_t		 zr_from, zr_to;
	int			 zr_valid;
};

/*
 * The end of the naturally aligned block of mask + 1 bytes holding va,
 * for unmapped_to and mapped_to: UINT64_MAX for the last block of the
 * address space, whose end does not fit (0 would say "not known").
 */
static inline uint64_t
dk_block_end(uint64_t va, uint64_t mask)
{
	return (va | mask) == UINT64_MAX ? UINT64_MAX : (va | mask) + 1;
}

/* The minidump state of d (a minidump's d->priv). */
static inline struct dk_md *
dk_md(const struct dk_dump *d)
{
	return (struct dk_md *)d->priv;
}

/* A fresh minidump state for d (d->priv); DK_ENOMEM if none. */
enum dk_status	dk_md_new(struct dk_dump *, struct dk_err *);

/* The direct-map window, or NULL if the dump has none. */
static inline const struct dk_window *
dk_dmap(const struct dk_dump *d)
{
	return d->dmap_i < d->nwin ? &d->win[d->dmap_i] : NULL;
}

/* Translate va with the family, giving the entry's protection too. */
enum dk_status	dk_md_kvtop_prot(struct dk_dump *, uint64_t, uint64_t *,
		    unsigned *, struct dk_err *);

/*
 * A range of the kernel map: contiguous in VA, PA and the file.  A full
 * ELF core's virtual segments have no PA (UINT64_MAX) and, in a portable
 * file with pages left out, may be runs of zeros (offset DK_OFF_ZERO).
 */
struct dk_kmap_run {
	uint64_t	va;
	uint64_t	pa;
	uint64_t	len;
	uint64_t	offset;		/* file offset of the byte at pa */
	unsigned	prot;		/* DK_PROT_* */
};

struct dk_kmap_iter {
	uint64_t	va;		/* next VA to look at */
	int		done;
	uint64_t	probes;		/* translations asked so far */
};

/*
 * Next run of the kernel map [kernbase, kva_end) whose pages are all
 * stored in the file: 1 = *run set, 0 = no more (or an error, in err:
 * I/O, or DK_ELIMIT when the walk needs more translations than the
 * dump's page tables and pages can justify, see kmap.c).  Pages that
 * are unmapped or absent end a run.
 */
int		dk_kmap_next(struct dk_dump *, struct dk_kmap_iter *,
		    struct dk_kmap_run *, struct dk_err *);
/* A translation that gives the entry's protection too. */
typedef enum dk_status (*dk_kvtop_prot_fn)(struct dk_dump *, uint64_t,
		    uint64_t *, unsigned *, struct dk_err *);
/*
 * dk_kmap_next's walk of [kernbase, kva_end) page by page with tr: what
 * a format's kmap_next calls when its translations must be probed.
 */
int		dk_kmap_walk(struct dk_dump *, struct dk_kmap_iter *,
		    struct dk_kmap_run *, dk_kvtop_prot_fn tr,
		    struct dk_err *);

/* Decode a minidump header page (see fmt_minidump.c); row NULL: choose. */
enum dk_status	dk_md_header(struct dk_dump *, const uint8_t *, size_t,
		    uint64_t base, const struct dk_arch *row,
		    const struct dk_open_opts *, struct dk_err *);
/* With the section offsets set: load dump_avail, the bitmap, count pages. */
enum dk_status	dk_md_load(struct dk_dump *, struct dk_err *);
/* The minidump format's ops, shared with formats that embed a minidump. */
void		dk_md_close(struct dk_dump *);
enum dk_status	dk_md_pa_offset(struct dk_dump *, uint64_t, uint64_t *,
		    struct dk_err *);
enum dk_status	dk_md_kvtop(struct dk_dump *, uint64_t, uint64_t *,
		    struct dk_err *);
int		dk_md_run_next(const struct dk_dump *, struct dk_run_iter *,
		    struct dk_run *);

#define	DK_PMAP_MEM_MAX	(256ull << 20)	/* pmap areas held in memory */
/* Read len bytes at offset off of the pmap area (held in memory). */
enum dk_status	dk_md_pmap_read(struct dk_dump *, uint64_t off, void *,
		    size_t, struct dk_err *);
/* Read entry idx of the pmap area (pte_size bytes, dump byte order). */
enum dk_status	dk_md_pmap_entry(struct dk_dump *, uint64_t idx, uint64_t *,
		    struct dk_err *);
/*
 * The first entry at or after idx of the pmap area that is not all zero
 * bytes, or the count the file holds whole: a walk of a family whose
 * zero entry is invalid crosses a run of them in one step.
 */
uint64_t	dk_md_pmap_nonzero(struct dk_dump *, uint64_t idx);
/*
 * Entry idx of the pmap area, mapping the 2^shift bytes at va, is all
 * zero, and zero is invalid in the family: set d->unmapped_to past it
 * and the zero entries after it.
 */
void		dk_md_pmap_zero(struct dk_dump *, uint64_t va, uint64_t idx,
		    unsigned shift);
/*
 * Read len bytes at pa inside one page of a page-table page: the page is
 * read whole into d->ptc, so a walk reads each table page once, not each
 * entry (its hits and misses count the walk's reads).
 */
enum dk_status	dk_read_pt(struct dk_dump *, uint64_t pa, void *, size_t,
		    struct dk_err *);
/* Read an 8-byte word of a dumped physical page (page-table walks). */
enum dk_status	dk_read_pa_u64(struct dk_dump *, uint64_t pa, uint64_t *,
		    struct dk_err *);

/* The families. */
extern const struct dk_mdarch dk_md_amd64;
extern const struct dk_mdarch dk_md_i386;
extern const struct dk_mdarch dk_md_arm;
extern const struct dk_mdarch dk_md_arm64;
extern const struct dk_mdarch dk_md_mips;
extern const struct dk_mdarch dk_md_powerpc64;
extern const struct dk_mdarch dk_md_riscv;

extern const struct dk_format_ops dk_fmt_minidump;
extern const struct dk_format_ops dk_fmt_elfmini;
extern const struct dk_format_ops dk_fmt_sparc64;

/*
 * The sparc64 dump's layouts (fmt_sparc64.c): "sparc64-dump-hdr-old",
 * "sparc64-dump-hdr-new", "sparc64-dump-reg"; *n gets their count.
 */
const struct dk_layout *const *dk_sp64_layouts(size_t *n);
extern const struct dk_format_ops dk_fmt_elf;
extern const struct dk_format_ops dk_fmt_kdump;
extern const struct dk_format_ops dk_fmt_vmcore;
/*
 * The kdump-compressed headers' layouts (fmt_kdump.c): "kdump-header-64",
 * "kdump-header-32", "kdump-sub-header-64", "-32", "-32pad"; *n their count.
 */
const struct dk_layout *const *dk_kd_layouts(size_t *n);

/* ---------------------------------------------------------------------- */
/* Full ELF cores: kernel symbols (the walks are the modules').           */

/* A symbol the full-ELF reader asks the kernel image for. */
struct dk_ksym {
	const char	*name;
	uint64_t	 value;
	int		 found;
};

/*
 * Look the n symbols up in the .symtab of the kernel ELF image at path
 * (libelf); found is set for each one present.  Fails if the image is
 * not ELF or has no symbol table.
 */
enum dk_status	dk_kernel_symbols(const char *path, struct dk_ksym *, size_t n,
		    struct dk_err *);
/*
 * The GNU build-id of the kernel image at path (its NT_GNU_BUILD_ID note,
 * at most cap bytes) and the address of its section; *len 0 if none.
 */
enum dk_status	dk_kernel_build_id(const char *path, uint8_t *id, size_t cap,
		    size_t *len, uint64_t *va, struct dk_err *);
/* Copy len bytes at va from the kernel image's loaded sections. */
enum dk_status	dk_kernel_bytes(const char *path, uint64_t va, void *buf,
		    size_t len, struct dk_err *);

#endif /* DK_PRIVATE_H */
