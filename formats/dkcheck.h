/*
 * dkcheck.h -- the validation engine of dumpcheck: is a dump file whole
 * and self-consistent, and if not, what exactly is wrong and where.
 *
 * The engine walks a dump (every format libdumpkit reads) and reports
 * each broken rule as a finding through a callback: a stable code, a
 * severity, the byte offset in the file and a one-line message saying
 * what was expected and what was found.  It never prints.  The codes are
 * listed by dk_check_code_at() and in docs/dumpcheck.md.
 *
 * A finding is data, not an error: a file full of findings is still a
 * file that was examined.  Only a file that cannot be examined at all
 * (unreadable, or not a dump dumpkit knows) makes dk_check() fail.
 */
#ifndef DK_DKCHECK_H
#define DK_DKCHECK_H

#include <stdint.h>

#include "dumpkit.h"

#ifdef __cplusplus
extern "C" {
#endif

enum dk_severity {
	DK_SEV_NOTE = 0,	/* worth knowing; nothing is wrong */
	DK_SEV_WARNING,		/* unusual, the kernel may do it on purpose */
	DK_SEV_ERROR,		/* a rule of the format is broken */
};

/* One finding, valid during the callback only. */
struct dk_finding {
	const char		*code;		/* "bitmap.popcount-mismatch" */
	enum dk_severity	 severity;
	int			 has_offset;	/* 0: the finding has no place */
	uint64_t		 offset;	/* byte offset in the file */
	uint64_t		 count;		/* occurrences summarised (>= 1) */
	char			 msg[384];	/* expected and found, one line */
};

/* What the engine checks and whom it tells. */
struct dk_check_opts {
	const char	*arch;		/* as dk_open_opts: --arch */
	const char	*kernel;	/* --kernel */
	uint32_t	 page_size;	/* --page-size */
	int		 quick;		/* headers, sizes, bitmaps; no page data */
	int		 pattern;	/* compare pages with the fixture pattern */
	uint64_t	 seed;		/* ... of this seed */
	int		 checksum;	/* compute the memory image's digest */
	uint64_t	 max_findings;	/* deliver at most this many; 0: all */
	/* Each finding, in the order found. */
	void		(*finding)(void *, const struct dk_finding *);
	/* Bytes of page data done out of total, now and then. */
	void		(*progress)(void *, uint64_t done, uint64_t total);
	void		*arg;
};

/* What a check found out, besides the findings. */
struct dk_check_result {
	int		 examined;	/* 1: the findings are the answer */
	const char	*format;	/* "minidump", "portable-elf", or NULL */
	char		 arch[24];	/* architecture row, or "" */
	uint32_t	 version;
	uint32_t	 page_size;
	uint64_t	 file_size;
	uint64_t	 npages;	/* pages the bitmap marks dumped */
	uint64_t	 npages_present;/* of those, pages the file holds */
	int		 deep;		/* 1: page tables and content checked */
	uint64_t	 bytes_read;	/* page data read */
	uint64_t	 nerrors, nwarnings, nnotes;
	uint64_t	 nsuppressed;	/* findings past max_findings */
	int		 has_checksum;
	uint64_t	 checksum[2];	/* see docs/dumpcheck.md, "checksum" */
};

/*
 * Check the dump at path.  DK_OK: the file was examined (findings went
 * to the callback, counts are in *res); otherwise it could not be (err
 * says why: DK_ESYS unreadable, DK_EUNSUP not a dump dumpkit knows,
 * DK_EAMBIG the architecture must be named).
 */
enum dk_status	dk_check(const char *path, const struct dk_check_opts *,
		    struct dk_check_result *, struct dk_err *);
/*
 * Check the n files at paths as one dump (a makedumpfile --split set,
 * in any order): paths[0] as dk_check does, then the other parts and
 * the set's own rules; n == 1 is dk_check.  A format that is always one
 * file refuses a set (DK_EINVAL).
 */
enum dk_status	dk_check_set(const char *const *paths, size_t n,
		    const struct dk_check_opts *, struct dk_check_result *,
		    struct dk_err *);
/* The same for a dump held in memory (tests, fuzzing). */
enum dk_status	dk_check_mem(const void *, size_t, const char *name,
		    const struct dk_check_opts *, struct dk_check_result *,
		    struct dk_err *);

/* A finding code: its name, severity and meaning. */
struct dk_check_code {
	const char		*code;
	enum dk_severity	 severity;
	const char		*meaning;
};

/* The i-th finding code, or NULL past the end. */
const struct dk_check_code *dk_check_code_at(size_t);
/* "error", "warning" or "note". */
const char	*dk_severity_name(enum dk_severity);

/*
 * The memory-image digest, step by step (docs/dumpcheck.md): start,
 * feed each stored page in ascending physical order, finish.
 */
struct dk_digest {
	uint64_t	a, b, n;
	uint64_t	zero_hash;	/* hash of an all-zero page */
	size_t		page;
};

/* Start a digest over pages of page bytes (a multiple of 32). */
void		dk_digest_init(struct dk_digest *, size_t page);
/* Feed the page at physical address pa. */
void		dk_digest_page(struct dk_digest *, uint64_t pa,
		    const uint8_t *);
/* The 128-bit result, as two 64-bit halves. */
void		dk_digest_final(const struct dk_digest *, uint64_t out[2]);

#ifdef __cplusplus
}
#endif

#endif /* DK_DKCHECK_H */
