/*
 * dumpkit.h -- the public interface of libdumpkit.
 *
 * libdumpkit reads and writes kernel crash dumps on any host, whatever the
 * architecture, word size or byte order of the machine that wrote them.
 * Every on-disk integer is decoded with an explicit width and byte order.
 *
 * Conventions:
 *  - Errors: each fallible call takes a caller-owned struct dk_err as its
 *    last argument and returns its code (DK_OK on success).  The message
 *    names the file, the byte offset, what was expected and what was found.
 *  - No global mutable state: every piece of state hangs off a handle, so
 *    several dumps may be open in several threads (one thread per handle).
 *  - Addresses, sizes and offsets are uint64_t everywhere.
 */
#ifndef DUMPKIT_H
#define DUMPKIT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define	DK_VERSION_STRING	"0.2.0"

/* Result codes: few, each telling the caller what to do next. */
enum dk_status {
	DK_OK = 0,
	DK_NOMATCH,	/* probe only: not this format; try the next one */
	DK_ESYS,	/* an OS call failed; errno is in sys_errno */
	DK_ETRUNC,	/* the input ends inside a structure or section */
	DK_ECORRUPT,	/* the input breaks a rule of its format */
	DK_EUNSUP,	/* valid input that dumpkit does not handle */
	DK_ELIMIT,	/* a named sanity limit was exceeded */
	DK_ENOMEM,	/* out of memory */
	DK_EINVAL,	/* caller misuse or bad option */
	DK_ENOTMAPPED,	/* an address has no translation */
	DK_ENOTDUMPED,	/* an address is valid but its page is not in the dump */
	DK_EAMBIG,	/* the dump alone cannot decide; ask for --arch */
};

/*
 * The error object: owned by the caller, never allocated.  Where the
 * error has a place in the input, offset is that byte offset (the same
 * number the message names) and file which file of a dump set holds it
 * (0 for a dump of one file); validators read them, never the message.
 */
struct dk_err {
	enum dk_status	code;
	int		sys_errno;
	uint64_t	offset;		/* DK_ERR_NOOFFSET: no place */
	uint32_t	file;		/* index in the dump set, 0 if one file */
	char		msg[512];
};

#define	DK_ERR_NOOFFSET	UINT64_MAX

/* Set err and return code, so callers may "return dk_err_set(...)". */
enum dk_status	dk_err_set(struct dk_err *, enum dk_status, const char *, ...)
		    __attribute__((format(printf, 3, 4)));
/* The same, for an error at byte off of the file named name: the
 * message reads "NAME: offset OFF: ..." and err->offset is off. */
enum dk_status	dk_err_at(struct dk_err *, enum dk_status, const char *name,
		    uint64_t off, const char *, ...)
		    __attribute__((format(printf, 5, 6)));
/* dk_err_set with err->offset = off; the message is the caller's. */
enum dk_status	dk_err_off(struct dk_err *, enum dk_status, uint64_t off,
		    const char *, ...) __attribute__((format(printf, 4, 5)));
/* Prefix err's message with context ("file: ..."); keeps and returns code. */
enum dk_status	dk_err_prefix(struct dk_err *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
/* Reset err to DK_OK with an empty message. */
void		dk_err_clear(struct dk_err *);
/* A short name for a status code ("ECORRUPT"). */
const char     *dk_status_name(enum dk_status);

/* Byte order of a dump.  DK_ENDIAN_UNKNOWN only before detection. */
enum dk_endian {
	DK_ENDIAN_UNKNOWN = 0,
	DK_LE,
	DK_BE,
};

/* What decided the architecture variant (byte order, ABI) of a dump. */
enum dk_decided {
	DK_BY_FORMAT = 0,	/* the format exists in one variant only */
	DK_BY_HEADER,		/* inferred from header values */
	DK_BY_KERNEL,		/* the kernel ELF image (--kernel) */
	DK_BY_OPTION,		/* the caller named the architecture (--arch) */
};

/* The version of the library actually linked, e.g. "0.1.0". */
const char     *dumpkit_version(void);

/*
 * Parse a size: a decimal, 0x-hex or 0-octal number with an optional K, M,
 * G, T or P suffix (powers of 1024; "MiB" reads as "M").  0, or -1.
 */
int		dk_parse_size(const char *, uint64_t *);

/*
 * Architectures.  One row per (machine, byte order, ABI): "amd64", "i386",
 * "arm", "armeb", "aarch64", ...  The row names are FreeBSD's MACHINE_ARCH.
 */
struct dk_arch;

/* The i-th architecture row, or NULL past the end. */
const struct dk_arch *dk_arch_at(size_t);
/* Look an architecture up by name or alias; NULL if unknown. */
const struct dk_arch *dk_arch_by_name(const char *);
/* The row's canonical name ("armeb"). */
const char     *dk_arch_name(const struct dk_arch *);
/* The row's byte order. */
enum dk_endian	dk_arch_endian(const struct dk_arch *);

/* Options for dk_open(); a zeroed struct means "detect everything". */
struct dk_open_opts {
	const char	*arch;		/* architecture name, or NULL */
	const char	*kernel;	/* path of the kernel ELF image, or NULL */
	/*
	 * The page size, for a dump that cannot tell (an aarch64 or ppc64
	 * vmcore without VMCOREINFO), or 0; one that contradicts the
	 * dump's own is an error (DK_EINVAL).
	 */
	uint32_t	 page_size;
};

struct dk_dump;

/* Open a dump read-only; the format is detected from its content. */
enum dk_status	dk_open(const char *path, const struct dk_open_opts *,
		    struct dk_dump **, struct dk_err *);
/*
 * Open a dump written as n files (a makedumpfile --split set, in any
 * order); n == 1 is dk_open.  A format that is always one file refuses
 * a set, naming the format.
 */
enum dk_status	dk_open_set(const char *const *paths, size_t n,
		    const struct dk_open_opts *, struct dk_dump **,
		    struct dk_err *);
/* Number of files the dump was opened from (1 but for a set). */
size_t		dk_nfiles(const struct dk_dump *);
/* The name of file i of the dump (as given to the opener), or NULL. */
const char     *dk_file(const struct dk_dump *, size_t i);
/* Open a dump held in memory (tests, fuzzing); buf must outlive the dump. */
enum dk_status	dk_open_mem(const void *buf, size_t len, const char *name,
		    const struct dk_open_opts *, struct dk_dump **,
		    struct dk_err *);
/*
 * on 1: read the pages the dump left out on purpose (a kdump file's dump
 * level: in memory, bitmap 1, but not dumped) as zeros, as crash
 * --zero_excluded; 0 (the default): DK_ENOTDUMPED.  DK_EUNSUP for a
 * format that leaves no page out so.
 */
enum dk_status	dk_zero_excluded(struct dk_dump *, int on, struct dk_err *);
/* Close a dump and free everything it holds; NULL is allowed. */
void		dk_close(struct dk_dump *);

/* A region of the dump file. */
struct dk_section {
	const char	*name;		/* "header", "msgbuf", "bitmap", ... */
	uint64_t	 offset;	/* byte offset in the file */
	uint64_t	 size;		/* bytes the header declares */
	uint64_t	 space;		/* bytes occupied (page-rounded) */
};

/*
 * What the library knows of an open dump, whatever its format.  Valid
 * until dk_close().  The file's regions, its address windows and its
 * metadata are listed by dk_section(), dk_window() and dk_attr().
 */
struct dk_info {
	const char	*format;	/* "minidump" */
	const char	*arch;		/* architecture row name */
	const char	*arch_why;	/* what decided the row, in words */
	enum dk_decided	 arch_by;
	uint32_t	 version;	/* format version */
	enum dk_endian	 endian;
	uint32_t	 page_size;
	uint64_t	 kernbase;	/* start of the kernel map */
	uint64_t	 kva_end;	/* end of what the page-table area covers */
	uint64_t	 file_size;
	uint64_t	 npages;	/* pages stored in the dump */
	uint64_t	 npages_present;/* of those, pages the file holds whole */
};

/* Describe an open dump. */
const struct dk_info *dk_info(const struct dk_dump *);

/*
 * Read len bytes at offset off of the dump stream: the bytes whose
 * offsets dk_section() gives and whose size is dk_info()->file_size
 * (inside any container, decompressed); fails past its end.
 */
enum dk_status	dk_read_stream(struct dk_dump *, uint64_t off, void *buf,
		    size_t len, struct dk_err *);

/* Number of regions of the dump file (no fixed maximum). */
size_t		dk_nsections(const struct dk_dump *);
/* Region i, in file order (0 is the header), or NULL past the last. */
const struct dk_section *dk_section(const struct dk_dump *, size_t i);

/*
 * An address window: kernel virtual addresses the machine translates by
 * arithmetic, without page tables, pa = va - window.va + window.pa.
 */
enum dk_window_kind {
	DK_WIN_DIRECT_MAP = 1,	/* all of physical memory (amd64 DMAP...) */
	DK_WIN_UNMAPPED,	/* a hardware segment (MIPS KSEG0, XKPHYS) */
	DK_WIN_KERNEL,		/* the kernel image moved by its relocation */
};

struct dk_window {
	enum dk_window_kind kind;
	const char	*name;		/* "direct map", "KSEG0", ... */
	uint64_t	 va;		/* first VA */
	uint64_t	 end;		/* end (exclusive; UINT64_MAX: the top) */
	uint64_t	 pa;		/* PA of va */
};

/* Number of address windows the dump's format reports. */
size_t		dk_nwindows(const struct dk_dump *);
/* Window i, or NULL past the last. */
const struct dk_window *dk_window(const struct dk_dump *, size_t i);
/* The first window of kind k, or NULL if there is none. */
const struct dk_window *dk_window_find(const struct dk_dump *,
		    enum dk_window_kind k);

/*
 * The dump's metadata as named attributes, whatever the format: the
 * hostname, version and panic strings, the dump time, the OS release,
 * and (for Linux dumps) every VMCOREINFO key.  Names are stable.
 */
enum dk_attr_type {
	DK_ATTR_STRING = 1,
	DK_ATTR_NUMBER,
	DK_ATTR_TIME,		/* seconds since 1970-01-01 UTC */
};

struct dk_attr {
	const char	*name;		/* "hostname", "panic_string", ... */
	enum dk_attr_type type;
	const char	*str;		/* DK_ATTR_STRING: NUL-terminated */
	uint64_t	 num;		/* DK_ATTR_NUMBER, DK_ATTR_TIME */
	const char	*source;	/* where it was read: "kerneldumpheader" */
};

/* Number of attributes of the dump. */
size_t		dk_nattrs(const struct dk_dump *);
/* Attribute i, in the order found, or NULL past the last. */
const struct dk_attr *dk_attr(const struct dk_dump *, size_t i);
/* The attribute named name, or NULL. */
const struct dk_attr *dk_attr_find(const struct dk_dump *, const char *name);

/*
 * Containers the dump stream was found in (a dump-device image with its
 * kerneldumpheader, a compressed stream...), outermost first.
 */
struct dk_layer_info {
	const char	*kind;		/* "kerneldumpheader", "gzip", ... */
	uint64_t	 offset;	/* the payload's offset in the outer stream */
	uint64_t	 size;		/* the payload's size in the outer stream */
	const char	*desc;		/* one line: placement, method... */
};

/* Number of container layers around the dump stream (0: a plain dump). */
size_t		dk_nlayers(const struct dk_dump *);
/* Layer i (0 = outermost), or NULL past the last. */
const struct dk_layer_info *dk_layer(const struct dk_dump *, size_t i);

/* struct kerneldumpheader (FreeBSD sys/sys/kerneldump.h), decoded. */
enum dk_kdh_magic {
	DK_KDH_KERNEL = 1,	/* "FreeBSD Kernel Dump" */
	DK_KDH_TEXT,		/* "FreeBSD Text Dump": a block-reversed tar */
	DK_KDH_CLEARED,		/* "Cleared Kernel Dump": savecore saved it */
};

/* Where the header was found. */
enum dk_kdh_placement {
	DK_KDH_LEADING = 1,	/* a saved vmcore starting with one header */
	DK_KDH_DEVICE,		/* device image, current placement (blocks) */
	DK_KDH_DEVICE_OLD,	/* device image, v1-era placement (512 bytes) */
};

struct dk_kdh_info {
	enum dk_kdh_magic	 magic;		/* of the leader */
	const char		*magic_name;	/* "kernel", "text", "cleared" */
	int			 cleared;	/* the trailer says Cleared */
	enum dk_kdh_placement	 placement;
	const char		*placement_name;
	uint32_t		 version;	/* header version, 1..4 */
	char			 architecture[13];
	uint32_t		 architectureversion;
	uint64_t		 dumplength;	/* bytes of the dump stream */
	uint64_t		 dumptime;	/* seconds since the epoch */
	uint32_t		 blocksize;
	uint32_t		 dumpkeysize;	/* v2+: bytes of the key blob */
	uint64_t		 dumpextent;	/* v3+: else dumplength */
	uint32_t		 compression;	/* v3+: 0 none, 1 gzip, 2 zstd */
	int			 encrypted;	/* dumpkeysize > 0 */
	uint32_t		 parity;
	char			 hostname[65];
	char			 versionstring[193];
	char			 panicstring[193];
	/* Offsets in the file (UINT64_MAX: none). */
	uint64_t		 leader_offset;
	uint64_t		 key_offset;
	uint64_t		 dump_offset;
	uint64_t		 trailer_offset;
};

/* The kerneldumpheader the dump was found under, or NULL if none. */
const struct dk_kdh_info *dk_kdh(const struct dk_dump *);
/*
 * Read and verify the kerneldumpheader container of the file at path
 * without opening its stream (text and encrypted dumps too).
 */
enum dk_status	dk_kdh_read(const char *path, struct dk_kdh_info *,
		    struct dk_err *);
/*
 * Write the tar archive of the text dump at path (a device image or a
 * file with a leading header) to fd, its 512-byte blocks put in order.
 */
enum dk_status	dk_textdump_write(const char *path, int fd, struct dk_err *);
/* The name of a kerneldumpheader compression value ("gzip"), or "?". */
const char     *dk_kdh_compression_name(uint32_t);

/* The decoded header, field by field, in the order of the on-disk layout. */
struct dk_hfield {
	const char	*name;		/* field name, as FORMATS.md spells it */
	uint32_t	 offset;	/* byte offset in the header */
	uint32_t	 size;		/* bytes */
	int		 is_string;	/* char[] field: str is set, value is 0 */
	int		 is_padding;	/* bytes the compiler inserted: no value */
	uint64_t	 value;
	char		 str[200];	/* NUL-terminated */
};

/* Number of header fields present in this dump's version. */
size_t		dk_header_nfields(const struct dk_dump *);
/* Fetch header field i (0 <= i < dk_header_nfields()); returns 0 or -1. */
int		dk_header_field(const struct dk_dump *, size_t,
		    struct dk_hfield *);

/* The physical ranges the machine had (dump_avail), as [start, end). */
struct dk_range {
	uint64_t	start;
	uint64_t	end;
};

/* Number of physical memory ranges of the dump. */
size_t		dk_phys_nranges(const struct dk_dump *);
/* Physical range i. */
struct dk_range	dk_phys_range(const struct dk_dump *, size_t);

/* Read len bytes of physical memory at pa; fails if any byte is absent. */
enum dk_status	dk_read_pa(struct dk_dump *, uint64_t pa, void *buf,
		    size_t len, struct dk_err *);
/* Translate a kernel virtual address (direct map or page tables). */
enum dk_status	dk_kvtop(struct dk_dump *, uint64_t va, uint64_t *pa,
		    struct dk_err *);
/* Read len bytes of kernel virtual memory at va. */
enum dk_status	dk_read_va(struct dk_dump *, uint64_t va, void *buf,
		    size_t len, struct dk_err *);
/*
 * File offset of the byte at physical address pa, if it is dumped;
 * DK_OFF_ZERO if it was dumped as zeros that the file leaves out.
 */
enum dk_status	dk_pa_offset(struct dk_dump *, uint64_t pa, uint64_t *off,
		    struct dk_err *);

/*
 * An offset that is not in the file: the pages were dumped, every byte
 * of them zero, and the file leaves them out (a portable file written
 * by dumpconv --drop-zero).  Reads return zeros.
 */
#define	DK_OFF_ZERO	UINT64_MAX
/*
 * An offset that does not exist: the page is stored in a form read page
 * by page (compressed), not as bytes of the file.  dk_read_pa reads it.
 */
#define	DK_OFF_PAGED	(UINT64_MAX - 1)

/* A run of dumped pages, contiguous in physical memory and in the file. */
struct dk_run {
	uint64_t	pa;		/* first physical address */
	uint64_t	len;		/* bytes */
	uint64_t	offset;		/* file offset of the first byte, or
					   DK_OFF_ZERO: a run of zeros, or
					   DK_OFF_PAGED: read it by address */
};

/* Iterator state for dk_run_next(); zero it to start. */
struct dk_run_iter {
	uint64_t	next_bit;
	size_t		range;
	uint64_t	rank;		/* set bits before next_bit, where the
					   format's offsets are ranks */
};

/* Next run in ascending physical order: 1 = *run set, 0 = no more. */
int		dk_run_next(const struct dk_dump *, struct dk_run_iter *,
		    struct dk_run *);

/* Read up to len bytes of the msgbuf section; *got is the count read. */
enum dk_status	dk_read_msgbuf(struct dk_dump *, void *buf, size_t len,
		    size_t *got, struct dk_err *);

/*
 * The fixture pattern (docs/fixture-pattern.md): the content dumpgen
 * gives every physical page that is not a page-table page.
 */
/* Nonzero if the 4 KiB frame holding pa is all zero in the pattern. */
int		dk_pattern_zero(uint64_t seed, uint64_t pa);
/* The pattern's 64-bit word at the 8-byte-aligned address pa & ~7. */
uint64_t	dk_pattern_word(uint64_t seed, uint64_t pa);
/* Fill buf with the pattern's len bytes at physical address pa. */
void		dk_pattern_fill(uint64_t seed, uint64_t pa, void *buf,
		    size_t len);

#ifdef __cplusplus
}
#endif

#endif /* DUMPKIT_H */
