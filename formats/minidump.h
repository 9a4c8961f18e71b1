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

/* Output files: written under a temporary name, renamed when complete. */
struct dk_out {
	int	 fd;
	char	*path;		/* final name */
	char	*tmp;		/* temporary name in the same directory */
	int	 force;
};

/* Create a temporary file beside path; refuse an existing path unless force. */
enum dk_status	dk_out_open(struct dk_out *, const char *path, int force,
		    struct dk_err *);
/* fsync the temporary file and rename it to its final name. */
enum dk_status	dk_out_commit(struct dk_out *, struct dk_err *);
/* Remove the temporary file; nothing is left at the target. */
void		dk_out_abort(struct dk_out *);

#endif /* DK_MINIDUMP_H */
