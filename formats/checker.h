/*
 * checker.h -- what the validation engine (check.c) gives the validators
 * of the formats and containers (check_<name>.c); not installed.
 *
 * The engine peels the containers (each container's check reports on
 * its layer and narrows ck->src to the stream inside), asks the formats
 * which one the stream is (dk_format_check.probe), and runs that
 * format's check.  A check reports every broken rule through one
 * interface, dk_ck_emit(ck, code, offset, ...): a stable code from a
 * table (its module's, or the engine's generic ones), the byte offset
 * in the stream (the engine turns it into a file offset), and a message
 * saying what was expected and what was found.  The engine counts,
 * caps and delivers; a check never prints.
 */
#ifndef DK_CHECKER_H
#define DK_CHECKER_H

#include "dkcheck.h"
#include "private.h"

#define	DK_CK_CHUNK	(1u << 20)	/* page data read per pread */
#define	DK_CK_NOOFF	UINT64_MAX	/* a finding with no place */

/* Findings of one code, summarised: the first one's place and words. */
struct dk_ck_acc {
	uint64_t	n;
	uint64_t	off;
	char		msg[320];
};

/* A set of physical page addresses (page-table pages), open addressing. */
struct dk_ck_paset {
	uint64_t	*slot;		/* 0: empty; values are stored + 1 */
	size_t		 cap, n;
};

/* The engine's state for one file. */
struct dk_ck {
	const struct dk_check_opts *o;
	struct dk_check_result	*res;
	struct dk_src		 src;		/* the stream being checked */
	const char		*path;		/* the file, or NULL: ... */
	const void		*mem;		/* ... bytes in memory */
	size_t			 len;
	int			 inner;		/* open on src: inside a container,
						 * or standard input's copy */
	int			 stop;		/* a container says: no stream */
	void			*fstate;	/* the format check's own */
	uint64_t		 off_shift;	/* the stream's offset in the file */
	struct dk_dump		*d;		/* the library's handle, or NULL */
	struct dk_err		 openerr;	/* why it is NULL */
	struct dk_ck_paset	 pt;		/* page-table pages (--pattern) */
	const char *const	*set;		/* the files of a dump set (path
						 * is set[0]), nset > 1; or NULL */
	size_t			 nset;
	int			 set_done;	/* the validator checked the set */
	int			 unz_fd;	/* a decompressed stream's file */
	char			 unz_name[512];
	/*
	 * A zstd stream read in one pass (decompress.c), or NULL; its
	 * findings are held until its end has decoded, then delivered:
	 * if it fails to decode, the check is done again on the spool, as
	 * it would have been, and the held ones are dropped.
	 */
	int			 stream_ok;
	struct dk_zsrc		*z;
	struct dk_finding	*held;
	size_t			 nheld, capheld;
	uint64_t		 delivered;
	uint64_t		 progress_total, progress_done, progress_next;
};

/* Report a finding of code at stream offset off (DK_CK_NOOFF: none). */
void		dk_ck_emit(struct dk_ck *, const char *code, uint64_t off,
		    const char *, ...) __attribute__((format(printf, 4, 5)));
/* The same for count occurrences summarised in one finding. */
void		dk_ck_emitn(struct dk_ck *, const char *code, uint64_t off,
		    uint64_t count, const char *, ...)
		    __attribute__((format(printf, 5, 6)));
/* Count a finding into a; the first one's offset and words are kept. */
void		dk_ck_acc_add(struct dk_ck_acc *, uint64_t off, const char *,
		    ...) __attribute__((format(printf, 3, 4)));
/* Report what a holds as one finding of code ("N what in all"). */
void		dk_ck_acc_flush(struct dk_ck *, const char *code,
		    struct dk_ck_acc *, const char *what);

/*
 * Fill ck->res from the open dump's dk_info (examined, format, arch,
 * version, page size, pages): a portable file whose source's own rules
 * are checked on the native file.
 */
void		dk_ck_result_from_dump(struct dk_ck *);

/* Read len bytes at off of the stream; 0 on success (no message). */
int		dk_ck_read(struct dk_ck *, void *, size_t, uint64_t off);
/* Record the page at pa as holding page tables; -1 out of memory. */
int		dk_ck_pt_add(struct dk_ck *, uint64_t pa);
/* Was the page at pa recorded as holding page tables? */
int		dk_ck_pt_has(const struct dk_ck *, uint64_t pa);
/* Where the library's error is (err->offset), or fallback. */
uint64_t	dk_ck_err_offset(const struct dk_err *, uint64_t fallback);
/* The library's message without its "NAME: " prefix. */
const char     *dk_ck_unprefixed(const struct dk_ck *, const char *msg);

/*
 * Open the library's handle on the stream into ck->d (NULL, with the
 * reason in ck->openerr, if it refuses the file).  DK_OK unless the
 * refusal ends the check (a usage error, ambiguity, I/O, memory):
 * then *err is the reason.
 */
enum dk_status	dk_ck_open(struct dk_ck *, struct dk_err *);
/*
 * The library refused the file: say why as open.refused if no error was
 * found that would explain it, and what was not checked (incomplete
 * says it, or NULL: nothing more).
 */
void		dk_ck_refused(struct dk_ck *, const char *incomplete);
/*
 * The content pass over ck->d: every stored page, in physical order,
 * read (an I/O error is a finding), hashed for --checksum, compared with
 * the pattern for --pattern (the page-table pages recorded excepted).
 * Runs at or past pend are not read (a truncated file); each is read as
 * far as pend.  pattern 0: no pattern comparison, whatever the options.
 */
void		dk_ck_content(struct dk_ck *, uint64_t pend, int pattern);

/*
 * The kernel log of the Linux dump ck->d, walked as dumpinfo --dmesg
 * walks it: each damaged place a linux.log-* finding, a log VMCOREINFO
 * names but that cannot be walked check.incomplete (check_linuxlog.c).
 * Nothing with --quick or where VMCOREINFO names no log.
 */
void		dk_ck_linux_log(struct dk_ck *);

/* The finding codes the engine itself reports (check.c). */
extern const struct dk_check_code dk_ck_codes[];
extern const size_t dk_ck_ncodes;

/*
 * The portable ELF minidump as the validator sees it (check_elfmini.c):
 * the ELF header's fields, the notes found, the info record.
 */
#define	DK_EM_NT_MAX	8

struct dk_emv {
	int		 ok;		/* the segments were checked */
	enum dk_endian	 e;
	uint64_t	 phoff, phnum, noff, nsize;
	uint64_t	 nt_off[DK_EM_NT_MAX], nt_size[DK_EM_NT_MAX];
	int		 nt_seen[DK_EM_NT_MAX];
	uint8_t		 info[120];
	uint64_t	 info_off;
	uint64_t	 data_off, npages, nstored, nphys;
	uint32_t	 flags;
};

/* A field of the info record (dk_emv.info), in the file's byte order. */
uint64_t	dk_em_info(const struct dk_emv *, unsigned off, unsigned width);
/* The ELF header's fields against the spec (row NULL: not e_machine). */
void		dk_em_header_check(struct dk_ck *, const struct dk_emv *,
		    const struct dk_arch *row);
/*
 * The runs of stored pages a source's raw view gives (its bitmap), for
 * the physical PT_LOADs to be compared with.
 */
struct dk_em_runs {
	int		(*next)(void *, uint64_t *pa, uint64_t *len,
			    uint64_t *rank);
	void		*arg;
	int		 ok;		/* the runs are known */
	uint64_t	 count;		/* pages the runs hold */
	unsigned	 page_shift;
	int		 page_known;	/* page_shift is the source's */
};
/* The PT_LOADs inside the file, page-aligned, one per run, in order. */
void		dk_em_segments(struct dk_ck *, struct dk_emv *,
		    const struct dk_em_runs *);
/* The virtual PT_LOADs against the page tables of ck->d. */
void		dk_em_virt_check(struct dk_ck *, const struct dk_emv *);

#endif /* DK_CHECKER_H */
