/*
 * vmcore_write.h -- the Linux ELF vmcore writer (vmcore_write.c): a
 * Linux dump with physical memory, of any format dumpkit reads, written
 * as the ELF core that /proc/vmcore and makedumpfile -E give; not
 * installed.
 */
#ifndef DK_VMCORE_WRITE_H
#define DK_VMCORE_WRITE_H

#include "minidump.h"

/* Sanity limits. */
#define	DK_VMW_MAX_NOTES	(16u << 20)	/* bytes of notes carried */
#define	DK_VMW_MAX_VMCOREINFO	(1u << 20)	/* bytes of --vmcoreinfo */

/* dk_vmw_opts flags. */
#define	DK_VMW_ELF32		0x1u	/* ELFCLASS32 (a 32-bit source) */

struct dk_vmw_opts {
	unsigned	 flags;		/* DK_VMW_* */
	/* VMCOREINFO text to add as a note (the dump has none), or NULL. */
	const char	*vmcoreinfo;
	size_t		 vmcoreinfo_len;
	const char	*vmcoreinfo_name;	/* its file, for messages */
};

/* One PT_LOAD: [pa, pa + len) at file offset off, virtual address va. */
struct dk_vmw_load {
	uint64_t	pa;
	uint64_t	len;
	uint64_t	off;
	uint64_t	va;
};

/* A stretch of the source's memory the data of the loads is made of. */
struct dk_vmw_piece {
	uint64_t	pa;
	uint64_t	len;
	uint64_t	src;		/* offset in d->src, DK_OFF_ZERO or
					   DK_OFF_PAGED (read by address) */
};

/* What the writer writes, computed before a byte is. */
struct dk_vmw_plan {
	unsigned		 cls;		/* ELFCLASS32 or ELFCLASS64 */
	enum dk_endian		 e;
	uint16_t		 machine;	/* e_machine */
	uint64_t		 nphdr;		/* PT_NOTE + every PT_LOAD */
	int			 xnum;		/* PN_XNUM: section 0 written */
	struct dk_vmw_load	*load;		/* the physical PT_LOADs */
	size_t			 nload;
	struct dk_vmw_load	*alias;		/* kernel-text PT_LOADs that
						   share the loads' bytes */
	size_t			 nalias;
	struct dk_vmw_piece	*piece;
	size_t			 npiece;
	uint8_t			*notes;		/* the PT_NOTE's bytes */
	uint64_t		 notes_size;
	uint64_t		 notes_off;
	int			 vmcoreinfo;	/* 0 none, 1 the dump's, 2 added */
	uint64_t		 direct_map;	/* p_vaddr of pa 0, or 0: none */
	const char		*direct_map_why; /* what told it */
	uint64_t		 data_off;	/* the first PT_LOAD's bytes */
	uint64_t		 file_size;
	uint64_t		 missing;	/* pages the source lacks */
};

/*
 * The direct map of Linux dump d: p_vaddr minus p_paddr, from the
 * reader's direct-map window, else VMCOREINFO's NUMBER(PAGE_OFFSET),
 * else x86_64's fixed base without KASLR; 0 if none is known.  *why
 * says which.
 */
uint64_t	dk_vmw_direct_map(const struct dk_dump *d, const char **why);
/* Is d a Linux dump (kdump-compressed, ELF vmcore) this writer takes? */
int		dk_vmw_linux(const struct dk_dump *d);
/*
 * Plan the Linux ELF vmcore of d: read its notes, find the present
 * physical ranges and the pages missing from a damaged source (read
 * once for that only when dk_info says some are).  Free with
 * dk_vmw_plan_free.
 */
enum dk_status	dk_vmw_plan(struct dk_dump *d, const struct dk_vmw_opts *,
		    struct dk_vmw_plan *, struct dk_err *);
/* Free what dk_vmw_plan allocated. */
void		dk_vmw_plan_free(struct dk_vmw_plan *);
/*
 * Write the Linux ELF vmcore of d to s (dk_vmw_plan, then the bytes);
 * done, if not NULL, gets the plan's counts (its arrays freed, NULL).
 */
enum dk_status	dk_vmcore_write(struct dk_dump *d, struct dk_sink *s,
		    const struct dk_vmw_opts *, struct dk_vmw_plan *done,
		    struct dk_err *);

#endif /* DK_VMCORE_WRITE_H */
