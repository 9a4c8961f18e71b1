/*
 * compress.h -- compressed dump streams (gzip, zstd, xz): detection,
 * streaming decompression into an unlinked sparse temporary file
 * (decompress.c), and a streaming compressor for the writers
 * (compress.c).  Private to the library, the tools and the tests.
 */
#ifndef DK_COMPRESS_H
#define DK_COMPRESS_H

#include <stdint.h>

#include "private.h"

enum dk_comp {
	DK_COMP_NONE = 0,
	DK_COMP_GZIP,		/* RFC 1952 members (zlib) */
	DK_COMP_ZSTD,		/* RFC 8878 frames (libzstd) */
	DK_COMP_XZ,		/* .xz streams (liblzma) */
};

/* The fixed levels of the writer: the same input gives the same bytes. */
#define	DK_COMP_GZIP_LEVEL	6	/* gzip's and the kernel's default */
#define	DK_COMP_ZSTD_LEVEL	3	/* zstd's default */
#define	DK_COMP_XZ_PRESET	6	/* xz's default */

/* Sanity limits of the decoders: memory they may take. */
#define	DK_COMP_ZSTD_WLOG_MAX	27	/* 128 MiB window, libzstd's default */
#define	DK_COMP_XZ_MEMLIMIT	(256ull << 20)

/* The compression the first len bytes start with, or DK_COMP_NONE. */
enum dk_comp	dk_comp_detect(const uint8_t *, size_t);
/* "gzip", "zstd", "xz" (or "none"). */
const char     *dk_comp_name(enum dk_comp);
/* The kind named name; DK_COMP_NONE if none (also for "none"). */
enum dk_comp	dk_comp_by_name(const char *);
/* The usual file name suffix: ".gz", ".zst", ".xz". */
const char     *dk_comp_suffix(enum dk_comp);

/* What a decompression did, also when it failed half-way. */
struct dk_unz {
	enum dk_comp	 kind;
	int		 fd;		/* the decompressed temporary file */
	uint64_t	 size;		/* decompressed bytes written */
	uint64_t	 in_end;	/* end of the last whole member/frame */
	uint64_t	 members;	/* gzip members, zstd frames, xz streams */
	uint64_t	 padding;	/* zero bytes after the last member */
	uint64_t	 fail_off;	/* compressed offset where decoding failed */
	int		 trailing;	/* the failure: bytes after a member that
					 * are neither a member nor padding */
};

/*
 * Decompress src (of compression kind k) into a new temporary file in
 * TMPDIR (default /tmp) that has no name: O_TMPFILE, or mkstemp and
 * unlink at once, so it goes with its descriptor on exit, error or crash.
 * Zero runs become holes.  Concatenated members/frames/streams are
 * decoded in turn; zero bytes after the last one are padding.
 * DK_ETRUNC: the stream ends inside a member; DK_ECORRUPT: it does not
 * decode (bad data, bad check, garbage after a member); DK_ELIMIT: the
 * decoder would need more memory than its limit; DK_ESYS (ENOSPC...).
 * On an error in the stream, keep_partial leaves u->fd open holding the
 * u->size bytes decoded before it; otherwise u->fd is -1 on any error.
 */
enum dk_status	dk_unz_file(const struct dk_src *, enum dk_comp,
		    int keep_partial, struct dk_unz *, struct dk_err *);

/*
 * A one-pass stream over src, compressed as k, if its decompressed size
 * is known from its headers (zstd frames that declare it) and it starts
 * with a dump format's magic; else DK_NOMATCH (use dk_unz_file).
 */
enum dk_status	dk_zsrc_open(const struct dk_src *, enum dk_comp,
		    struct dk_zsrc **, struct dk_err *);

/*
 * Copy the stream on descriptor in (standard input, a pipe) to a new
 * temporary file with no name, as dk_unz_file() does, reading it once
 * front to back; whole zero blocks become holes.  *fd the file (the
 * caller closes it), *size its length.  name is for messages.
 */
enum dk_status	dk_spool_fd(int in, const char *name, int *fd,
		    uint64_t *size, struct dk_err *);

/* The container rows of dump.c's containers[]. */
extern const struct dk_container_ops dk_ctr_gzip;
extern const struct dk_container_ops dk_ctr_zstd;
extern const struct dk_container_ops dk_ctr_xz;

/* ---------------------------------------------------------------------- */
/* The compressing writer.                                                 */

struct dk_zout;

/* Start a compressed stream of kind k written to fd (sequentially). */
enum dk_status	dk_zout_open(struct dk_zout **, enum dk_comp, int fd,
		    const char *name, struct dk_err *);
/* Compress len bytes. */
enum dk_status	dk_zout_write(struct dk_zout *, const void *, size_t,
		    struct dk_err *);
/* End the stream (trailer, checksum) and write what is left. */
enum dk_status	dk_zout_finish(struct dk_zout *, struct dk_err *);
/* Uncompressed bytes taken and compressed bytes written so far. */
void		dk_zout_counts(const struct dk_zout *, uint64_t *in,
		    uint64_t *out);
/* Free the compressor (finished or not); NULL is allowed. */
void		dk_zout_free(struct dk_zout *);

/*
 * Send everything the sink writes through z (the sink then writes in
 * order, zeros included: no holes in a compressed stream).  Call after
 * dk_sink_init; after the writer's dk_sink_finish, dk_zout_finish.
 */
struct dk_sink;
void		dk_sink_compress(struct dk_sink *, struct dk_zout *);

/* Compress all of src into fd as one stream of kind k. */
enum dk_status	dk_compress_src(const struct dk_src *, enum dk_comp, int fd,
		    const char *name, struct dk_err *);

/*
 * Compress the file at src into dst as one stream of kind k, atomically
 * (a temporary file beside dst, renamed); dst may be src.  An existing
 * dst other than src is replaced only with force.
 */
enum dk_status	dk_compress_file(const char *src, enum dk_comp, const char *dst,
		    int force, struct dk_err *);

#endif /* DK_COMPRESS_H */
