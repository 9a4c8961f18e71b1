/*
 * minidump.h -- the minidump writer and family lookup, for the tools
 * (dumpgen, dumpconv) and the tests; not part of the installed API.
 */
#ifndef DK_MINIDUMP_H
#define DK_MINIDUMP_H

#include "private.h"

/* Everything a minidump file is made of. */
struct dk_md_spec {
	const struct dk_arch	*arch;
	uint32_t		 version;
	/*
	 * Header values by id: kernbase, dmap*, paemode, arch, mmuformat,
	 * flags...  The writer sets magic, version and the four sizes.
	 */
	struct dk_hdr		 hdr;
	unsigned		 page_shift;
	const uint8_t		*msgbuf;
	uint64_t		 msgbufsize;
	/* Versions with dump_avail: the ranges and the section's size. */
	const struct dk_range	*avail;
	size_t			 navail;
	uint64_t		 availsize;	/* 0: one page */
	/* The bits, numbered as this version numbers them. */
	const struct dk_bitmap	*bm;
	uint64_t		 bitmapsize;	/* 0: just enough, page-rounded */
	const uint8_t		*pmap;
	uint64_t		 pmapsize;
	/* Fill buf with len bytes of physical memory at pa (whole pages). */
	enum dk_status		(*fill)(void *, uint64_t pa, uint8_t *buf,
				    size_t len, struct dk_err *);
	void			*fill_arg;
};

/* The minidump family named name ("amd64"), or NULL. */
const struct dk_mdarch *dk_md_family(const char *name);
/* Write a minidump to fd (an empty regular file); zero pages become holes. */
enum dk_status	dk_md_write(const struct dk_md_spec *, int fd,
		    const char *name, struct dk_err *);

/* Sequential output: a regular file (holes, copy_file_range) or a pipe. */
#define	DK_SINK_BUF	65536	/* small writes are gathered up to this */
struct dk_sink {
	int		 fd;
	const char	*name;
	uint64_t	 pos;		/* bytes written or skipped so far */
	int		 seekable;	/* a regular file written from 0 */
	int		 no_cfr;	/* copy_file_range failed: read/write */
	uint64_t	 done;		/* for progress */
	void		(*progress)(void *, uint64_t done);
	void		*progress_arg;
	/* Every byte goes through filter instead of fd (compress.h); or NULL. */
	enum dk_status	(*filter)(void *, const void *, size_t,
			    struct dk_err *);
	void		*filter_arg;
	/*
	 * The input's last extent dk_sink_copy asked the file system for:
	 * [ext_from, ext_data) a hole, [ext_data, ext_hole) data, of the
	 * source at fd ext_fd (-1: none) and window base ext_base.
	 */
	int		 ext_fd;
	uint64_t	 ext_base, ext_from, ext_data, ext_hole;
	uint64_t	 seeks;		/* SEEK_DATA and SEEK_HOLE asked */
	size_t		 nbuf;		/* bytes in buf, ending at pos */
	uint8_t		 buf[DK_SINK_BUF];
};

/* Start writing to fd at offset 0. */
void		dk_sink_init(struct dk_sink *, int fd, const char *name);
/* Append len bytes. */
enum dk_status	dk_sink_write(struct dk_sink *, const void *, size_t,
		    struct dk_err *);
/* Append len zero bytes: a hole in a regular file. */
enum dk_status	dk_sink_zero(struct dk_sink *, uint64_t, struct dk_err *);
/* Append bytes [off, off + len) of src; its holes stay holes. */
enum dk_status	dk_sink_copy(struct dk_sink *, const struct dk_src *,
		    uint64_t off, uint64_t len, struct dk_err *);
/* Write what is buffered; set the final size of a regular file. */
enum dk_status	dk_sink_finish(struct dk_sink *, struct dk_err *);

/* dk_elfmini_write() flags. */
#define	DK_ELFMINI_NO_VIRTUAL	0x1u	/* no virtual PT_LOAD segments */
#define	DK_ELFMINI_DROP_ZERO	0x2u	/* leave out a full core's zero pages */

/* Write d (a minidump or a portable file) as a portable ELF minidump. */
enum dk_status	dk_elfmini_write(struct dk_dump *, struct dk_sink *,
		    unsigned flags, struct dk_err *);
/* The same, with len bytes of whole ELF notes added after dumpkit's. */
enum dk_status	dk_elfmini_write_notes(struct dk_dump *, struct dk_sink *,
		    unsigned flags, const void *notes, size_t len,
		    struct dk_err *);
/* Write d as the native dump it came from, byte for byte. */
enum dk_status	dk_native_write(struct dk_dump *, struct dk_sink *,
		    struct dk_err *);
/* What the portable writer would write: segment counts and sizes. */
struct dk_elfmini_plan {
	uint64_t	nphys;		/* physical PT_LOADs */
	uint64_t	nvirt;		/* virtual PT_LOADs */
	uint64_t	notes_size;
	uint64_t	data_offset;
	uint64_t	file_size;
	uint64_t	residue;	/* bytes kept in the residue note */
	const char	*source;	/* the native format: "minidump",
					   "sparc64", "full ELF core" */
};
/* Plan the conversion of d without writing anything. */
enum dk_status	dk_elfmini_plan(struct dk_dump *, unsigned flags,
		    struct dk_elfmini_plan *, struct dk_err *);
/* The same, for dk_elfmini_write_notes with len bytes of notes. */
enum dk_status	dk_elfmini_plan_notes(struct dk_dump *, unsigned flags,
		    size_t len, struct dk_elfmini_plan *, struct dk_err *);

/*
 * The virtual PT_LOADs the portable file of d would have (the kernel
 * map's runs and the address windows', by VA); *runs is malloc'ed.
 */
struct dk_kmap_run;
enum dk_status	dk_elfmini_virt(struct dk_dump *, struct dk_kmap_run **runs,
		    size_t *n, struct dk_err *);

/* Output files: written under a temporary name, renamed when complete. */
struct dk_out {
	int	 fd;
	char	*path;		/* final name */
	char	*tmp;		/* temporary name in the same directory */
	int	 force;
	int	 synced;	/* dk_out_sync done */
};

/*
 * Create a temporary file beside path; refuse an existing path unless
 * force, and anything but a regular file even then.
 */
enum dk_status	dk_out_open(struct dk_out *, const char *path, int force,
		    struct dk_err *);
/*
 * fsync the temporary file (a set's parts all synced before any is
 * renamed); dk_out_commit then does not sync again.
 */
enum dk_status	dk_out_sync(struct dk_out *, struct dk_err *);
/* Whether dk_out_sync and dk_out_commit fsync (not DUMPKIT_NO_FSYNC=1). */
int		dk_out_syncs(void);
/* fsync the temporary file and rename it to its final name. */
enum dk_status	dk_out_commit(struct dk_out *, struct dk_err *);
/* Remove the temporary file; nothing is left at the target. */
void		dk_out_abort(struct dk_out *);

#endif /* DK_MINIDUMP_H */
