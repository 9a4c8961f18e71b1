/*
 * kdump_write.c -- write makedumpfile's kdump-compressed format (issue 14):
 * one file, a --split set, or the flattened stream (makedumpfile -F).
 *
 * The file is laid out as fmt_kdump.c describes it, in one pass over
 * the source: block 0 the header, block 1 the sub header and the notes,
 * then both bitmaps, then room for one descriptor per page to store,
 * then the pages.  Zero pages are found while the pages are written, so
 * the descriptors (one per page kept, in PFN order, packed from the
 * start of their room) are fewer than the room when zero pages are left
 * out: the room's tail is never written (a hole in a regular file, no
 * record in a flattened one).  Bitmap 2 is written last.  Each page is
 * compressed alone; one that does not shrink is stored as it is, with
 * no codec flag, as makedumpfile does.  With keep_zero every zero page's
 * descriptor points at one raw zero page, the first of the data; with
 * store_zero zero pages are not looked for (makedumpfile -d 0).
 *
 * Every header field goes through the layout tables (kdump_layout.c)
 * with dk_layout_encode, so the writer writes any version, byte order
 * and writer ABI the reader reads; dumpconv asks for version 6, LP64.
 *
 * Threads: the pages are cut into batches of KD_WBATCH_BYTES; each of
 * s->threads threads, the calling thread one of them, reads the next
 * batch from the source (fill: one thread at a time, in order),
 * compresses it, and writes the next batch in order when it is done and
 * no other thread writes (kw_run).  At most 2 batches per thread are in
 * memory (2 MiB each, with their output; 1 batch with one thread), and
 * the bytes depend on the batches, never on the threads.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libdeflate.h>
#include <lzo/lzo1x.h>
#include <snappy-c.h>
#include <zstd.h>

#include "bytes.h"
#include "dkelf.h"
#include "kdump.h"

#define	KW_MAX_THREADS	64
/*
 * A split part starts at a multiple of 64 PFNs: crash counts a part's
 * pages of bitmap 2 by 64-bit words from start_pfn >> 6, so a part
 * starting inside a word has the pages before it counted as its own and
 * every page read from the wrong descriptor ("cannot resolve
 * init_task_union").  makedumpfile's parts start on its split blocks.
 */
#define	KW_SPLIT_ALIGN	64u

/* ---------------------------------------------------------------------- */
/* Codecs.                                                                 */

static const struct {
	const char	*name;
	unsigned	 codec;
	int		 lo, hi, def;	/* levels */
} codecs[] = {
	{ "none", 0, 0, 0, 0 },
	{ "zlib", KD_DH_ZLIB, 1, 9, 1 },
	{ "lzo", KD_DH_LZO, 1, 9, 1 },
	{ "snappy", KD_DH_SNAPPY, 0, 0, 0 },
	{ "zstd", KD_DH_ZSTD, 1, 19, 1 },
};

const char *
dk_kd_codec_name(unsigned codec)
{
	for (size_t i = 0; i < DK_ARRAY_LEN(codecs); i++)
		if (codecs[i].codec == codec)
			return codecs[i].name;
	return NULL;
}

int
dk_kd_codec_parse(const char *s, unsigned *codec, int *level, char *why,
    size_t whylen)
{
	const char *colon = strchr(s, ':');
	size_t n = colon != NULL ? (size_t)(colon - s) : strlen(s);

	for (size_t i = 0; i < DK_ARRAY_LEN(codecs); i++) {
		uint64_t v;

		if (strlen(codecs[i].name) != n ||
		    strncmp(codecs[i].name, s, n) != 0)
			continue;
		*codec = codecs[i].codec;
		*level = codecs[i].def;
		if (colon == NULL)
			return 0;
		if (codecs[i].hi == 0) {
			snprintf(why, whylen, "%s takes no level", codecs[i].name);
			return -1;
		}
		if (dk_parse_u64(colon + 1, &v) != 0 || v < (uint64_t)
		    codecs[i].lo || v > (uint64_t)codecs[i].hi ||
		    (codecs[i].codec == KD_DH_LZO && v != 1 && v != 9)) {
			snprintf(why, whylen, "%s levels are %s, not '%s'",
			    codecs[i].name, codecs[i].codec == KD_DH_LZO ?
			    "1 (lzo1x_1) and 9 (lzo1x_999)" : codecs[i].hi == 9 ?
			    "1 to 9" : "1 to 19", colon + 1);
			return -1;
		}
		*level = (int)v;
		return 0;
	}
	snprintf(why, whylen, "expected zlib, lzo, snappy, zstd or none "
	    "(NAME or NAME:LEVEL), found '%s'", s);
	return -1;
}

struct kw;

/* One thread's compressor state. */
struct kw_codec {
	unsigned	 codec;
	int		 level;
	size_t		 block;
	struct libdeflate_compressor *zd;	/* zlib: libdeflate's */
	void		*lzo_wrk;
	ZSTD_CCtx	*zc;
	uint8_t		*tmp;		/* room for any codec's worst case */
	size_t		 tmpcap;
	struct kw	*w;		/* the writer whose thread this is */
};

static enum dk_status
codec_init(struct kw_codec *c, unsigned codec, int level, size_t block,
    struct dk_err *err)
{
	memset(c, 0, sizeof(*c));
	c->codec = codec;
	c->level = level;
	c->block = block;
	c->tmpcap = block + block / 16 + 64 + 3;	/* lzo's bound */
	if (snappy_max_compressed_length(block) > c->tmpcap)
		c->tmpcap = snappy_max_compressed_length(block);
	if (ZSTD_compressBound(block) > c->tmpcap)
		c->tmpcap = ZSTD_compressBound(block);
	if ((c->tmp = malloc(c->tmpcap)) == NULL)
		return dk_err_set(err, DK_ENOMEM, "kdump writer: out of memory");
	switch (codec) {
	case KD_DH_ZLIB:
		if ((c->zd = libdeflate_alloc_compressor(level)) == NULL)
			return dk_err_set(err, DK_ENOMEM, "zlib: libdeflate_"
			    "alloc_compressor failed");
		break;
	case KD_DH_LZO:
		if (lzo_init() != LZO_E_OK)
			return dk_err_set(err, DK_EUNSUP, "lzo: lzo_init fails: "
			    "the library is unusable");
		c->lzo_wrk = malloc(level == 9 ? LZO1X_999_MEM_COMPRESS :
		    LZO1X_1_MEM_COMPRESS);
		if (c->lzo_wrk == NULL)
			return dk_err_set(err, DK_ENOMEM, "lzo: out of memory");
		break;
	case KD_DH_ZSTD:
		if ((c->zc = ZSTD_createCCtx()) == NULL)
			return dk_err_set(err, DK_ENOMEM, "zstd: out of memory");
		break;
	default:
		break;
	}
	return DK_OK;
}

static void
codec_free(struct kw_codec *c)
{
	if (c->zd != NULL)
		libdeflate_free_compressor(c->zd);
	free(c->lzo_wrk);
	ZSTD_freeCCtx(c->zc);
	free(c->tmp);
	memset(c, 0, sizeof(*c));
}

/*
 * Compress the page in into out (room for a block): its size, and the
 * codec flag, 0 if it is stored as it is (it did not shrink).
 */
static size_t
codec_page(struct kw_codec *c, const uint8_t *in, uint8_t *out,
    uint32_t *flag)
{
	size_t n = 0;
	int ok = 0;

	switch (c->codec) {
	case KD_DH_ZLIB:
		/* A zlib stream (RFC 1950), as compress2 writes; 0 when it
		 * would not be smaller than the page. */
		n = libdeflate_zlib_compress(c->zd, in, c->block, out,
		    c->block - 1);
		ok = n > 0;
		break;
	case KD_DH_LZO: {
		lzo_uint ol = 0;

		ok = (c->level == 9 ? lzo1x_999_compress(in, c->block, c->tmp,
		    &ol, c->lzo_wrk) : lzo1x_1_compress(in, c->block, c->tmp,
		    &ol, c->lzo_wrk)) == LZO_E_OK && ol < c->block;
		n = ol;
		if (ok)
			memcpy(out, c->tmp, n);
		break;
	}
	case KD_DH_SNAPPY: {
		size_t ol = c->tmpcap;

		ok = snappy_compress((const char *)in, c->block,
		    (char *)c->tmp, &ol) == SNAPPY_OK && ol < c->block;
		n = ol;
		if (ok)
			memcpy(out, c->tmp, n);
		break;
	}
	case KD_DH_ZSTD: {
		size_t r = ZSTD_compressCCtx(c->zc, out, c->block - 1, in,
		    c->block, c->level);

		ok = !ZSTD_isError(r);
		n = r;
		break;
	}
	default:
		break;
	}
	if (ok && n > 0 && n < c->block) {
		*flag = c->codec;
		return n;
	}
	memcpy(out, in, c->block);
	*flag = 0;
	return c->block;
}

static int
page_zero(const uint8_t *p, size_t len)
{
	uint64_t acc = 0;

	for (size_t i = 0; i < len; i += 64) {
		uint64_t w[8];

		memcpy(w, p + i, sizeof(w));
		for (int k = 0; k < 8; k++)
			acc |= w[k];
		if (acc != 0)
			return 0;
	}
	return 1;
}

/* ---------------------------------------------------------------------- */
/* Output: by offset, or flattened records.                               */

static enum dk_status
sys_fail(const struct dk_kd_out *o, const char *what, uint64_t off,
    struct dk_err *err)
{
	int e = errno;

	dk_err_at(err, DK_ESYS, o->name, off, "%s: %s%s", what, strerror(e),
	    e == ENOSPC ? " (the dump does not fit: nothing is kept)" : "");
	err->sys_errno = e;
	return DK_ESYS;
}

static enum dk_status
write_all(const struct dk_kd_out *o, const uint8_t *p, size_t len,
    uint64_t off, int seek, struct dk_err *err)
{
	while (len > 0) {
		ssize_t n = seek ? pwrite(o->fd, p, len, (off_t)off) :
		    write(o->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return sys_fail(o, "write", off, err);
		}
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return DK_OK;
}

/* Put len bytes at offset off of the dump o holds. */
static enum dk_status
put(const struct dk_kd_out *o, const void *buf, size_t len, uint64_t off,
    struct dk_err *err)
{
	uint8_t rec[KD_FLAT_REC];
	enum dk_status st;

	if (len == 0)
		return DK_OK;
	if (!o->flat)
		return write_all(o, buf, len, off, 1, err);
	enc_be64(rec, off);
	enc_be64(rec + 8, len);
	if ((st = write_all(o, rec, sizeof(rec), off, 0, err)) != DK_OK)
		return st;
	return write_all(o, buf, len, off, 0, err);
}

static enum dk_status
flat_begin(const struct dk_kd_out *o, struct dk_err *err)
{
	uint8_t h[KD_FLAT_HDR] = { 0 };

	memcpy(h, KD_FLAT_SIG, sizeof(KD_FLAT_SIG) - 1);
	enc_be64(h + KD_FLAT_SIG_LEN, 1);	/* type */
	enc_be64(h + KD_FLAT_SIG_LEN + 8, 1);	/* version */
	return write_all(o, h, sizeof(h), 0, 0, err);
}

static enum dk_status
flat_end(const struct dk_kd_out *o, struct dk_err *err)
{
	uint8_t rec[KD_FLAT_REC];

	enc_be64(rec, KD_FLAT_END);
	enc_be64(rec + 8, KD_FLAT_END);
	return write_all(o, rec, sizeof(rec), 0, 0, err);
}

/* ---------------------------------------------------------------------- */
/* Batches and threads.                                                    */

/*
 * A batch slot's life: FREE, then read (by the one thread reading),
 * compressed by that thread (BUSY), DONE, written in order (by whichever
 * thread finds it next to write), FREE.
 */
enum { B_FREE, B_BUSY, B_DONE };

/* What became of a page of a batch. */
enum { P_MISSING, P_ZERO, P_STORED };

struct kw_batch {
	int		 state;
	uint64_t	 seq;
	size_t		 n;
	uint64_t	 pfn[KD_WBATCH_MAX];
	uint8_t		 kind[KD_WBATCH_MAX];
	uint32_t	 size[KD_WBATCH_MAX];
	uint32_t	 flag[KD_WBATCH_MAX];
	uint8_t		*in;
	uint8_t		*out;
	size_t		 outlen;
};

struct kw_part;

struct kw {
	struct dk_kd_wspec	*s;
	size_t			 per;		/* pages per batch */
	struct kw_batch		*b;
	size_t			 nb;
	struct kw_codec		*cc;		/* one per thread */
	pthread_t		*tid;
	struct dk_bitmap	 bm2;		/* bitmap 2 as written */
	/*
	 * The part being written (write_pages), under mu: the source is
	 * read by one thread at a time (reading), in order (pfn, seq_fill),
	 * and the batches written by one at a time (writing), in order
	 * (seq_write); the first failure (st, werr) stops every thread.
	 */
	pthread_mutex_t		 mu;
	pthread_cond_t		 cv;
	struct kw_part		*p;
	uint64_t		 pfn, seq_fill, seq_write, written;
	int			 eof, reading, writing;
	enum dk_status		 st;
	struct dk_err		 werr;
};

static void
batch_compress(struct kw *w, struct kw_codec *c, struct kw_batch *b)
{
	size_t bs = w->s->block;

	b->outlen = 0;
	for (size_t i = 0; i < b->n; i++) {
		const uint8_t *pg = b->in + i * bs;

		if (b->kind[i] == P_MISSING)
			continue;
		if (!w->s->store_zero && page_zero(pg, bs)) {
			b->kind[i] = P_ZERO;
			continue;
		}
		b->kind[i] = P_STORED;
		b->size[i] = (uint32_t)codec_page(c, pg, b->out + b->outlen,
		    &b->flag[i]);
		b->outlen += b->size[i];
	}
}

static void
kw_free(struct kw *w)
{
	for (size_t i = 0; w->b != NULL && i < w->nb; i++) {
		free(w->b[i].in);
		free(w->b[i].out);
	}
	for (unsigned i = 0; w->cc != NULL && i < w->s->threads; i++)
		codec_free(&w->cc[i]);
	free(w->b);
	free(w->cc);
	free(w->tid);
	dk_bitmap_free(&w->bm2);
	pthread_mutex_destroy(&w->mu);
	pthread_cond_destroy(&w->cv);
}

static enum dk_status
kw_init(struct kw *w, struct dk_kd_wspec *s, struct dk_err *err)
{
	unsigned nt = s->threads;
	enum dk_status st;

	memset(w, 0, sizeof(*w));
	w->s = s;
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	if ((st = dk_bitmap_init(&w->bm2, s->max_mapnr, err)) != DK_OK)
		return st;
	w->per = KD_WBATCH_BYTES / s->block;
	if (w->per > KD_WBATCH_MAX)
		w->per = KD_WBATCH_MAX;
	if (w->per == 0)
		w->per = 1;
	w->nb = nt > 1 ? 2 * (size_t)nt : 1;
	w->b = calloc(w->nb, sizeof(*w->b));
	w->cc = calloc(nt, sizeof(*w->cc));
	w->tid = calloc(nt, sizeof(*w->tid));
	if (w->b == NULL || w->cc == NULL || w->tid == NULL)
		return dk_err_set(err, DK_ENOMEM, "kdump writer: out of memory");
	for (size_t i = 0; i < w->nb; i++) {
		w->b[i].in = malloc(w->per * s->block);
		w->b[i].out = malloc(w->per * s->block);
		if (w->b[i].in == NULL || w->b[i].out == NULL)
			return dk_err_set(err, DK_ENOMEM, "kdump writer: out "
			    "of memory");
	}
	for (unsigned i = 0; i < nt; i++)
		if ((st = codec_init(&w->cc[i], s->codec, s->level, s->block,
		    err)) != DK_OK)
			return st;
	return DK_OK;
}

/* ---------------------------------------------------------------------- */
/* A file of the dump.                                                     */

struct kw_part {
	const struct dk_kd_out	*o;
	uint64_t		 start, end;	/* PFNs */
	uint64_t		 ncand;		/* pages to store in it */
	uint64_t		 off_bm1, off_bm2, off_desc, off_data;
	uint64_t		 desc_pos, data_pos, size;
	uint64_t		 wb_pos;	/* data before it: writeback started */
	uint64_t		 off_erase;	/* 0 until written */
	uint8_t			 dbuf[KD_WDESC_BUF];
	size_t			 dlen;
	uint64_t		 dbuf_off;
};

/* The file's layout: its offsets, from the spec. */
struct kw_geo {
	uint64_t	sub_size;	/* bytes of the sub header */
	uint64_t	sub_blocks;
	uint64_t	bm_bytes;	/* of each bitmap */
	uint64_t	bm_blocks;	/* bitmap_blocks */
	uint64_t	note_off, vmci_off;
};

static enum dk_status
geometry(const struct dk_kd_wspec *s, struct kw_geo *g, struct dk_err *err)
{
	uint64_t bs = s->block, extra = 0;

	if (s->diskdump ? s->version != 0 : s->version < 1 ||
	    s->version > KD_MAX_VERSION)
		return dk_err_set(err, DK_EINVAL, "kdump writer: header "
		    "version %u: expected %s", s->version, s->diskdump ?
		    "0 with the DISKDUMP signature" : "1 to 6");
	if (bs < KD_MIN_BLOCK || bs > KD_MAX_BLOCK || (bs & (bs - 1)) != 0)
		return dk_err_set(err, DK_EINVAL, "kdump writer: block size "
		    "%ju: expected a power of two from %u to %u",
		    (uintmax_t)bs, KD_MIN_BLOCK, KD_MAX_BLOCK);
	if (s->max_mapnr == 0)
		return dk_err_set(err, DK_EINVAL, "kdump writer: no page "
		    "frames (max_mapnr 0)");
	if (s->erase_size > 0 && (s->diskdump || s->version < 5))
		return dk_err_set(err, DK_EINVAL, "kdump writer: an eraseinfo "
		    "needs header version 5 or later, not %u", s->version);
	if (s->erase_size > KD_MAX_ERASEINFO)
		return dk_err_set(err, DK_ELIMIT, "kdump writer: an eraseinfo "
		    "of %ju bytes: at most %u", (uintmax_t)s->erase_size,
		    KD_MAX_ERASEINFO);
	g->sub_size = s->version >= 1 ? dk_layout_size(s->sl, s->version) : 0;
	g->note_off = g->vmci_off = 0;
	if (s->version >= 4 && s->notes_size > 0) {
		g->note_off = bs + g->sub_size;
		extra = s->notes_size;
		if (s->vmci_size > 0)
			g->vmci_off = g->note_off + s->vmci_off;
	} else if (s->version == 3 && s->vmci_size > 0) {
		g->vmci_off = bs + g->sub_size;
		extra = s->vmci_size;
	}
	g->sub_blocks = (g->sub_size + extra + bs - 1) / bs;
	if (g->sub_blocks == 0)
		g->sub_blocks = 1;	/* diskdump: one block of zeros */
	g->bm_bytes = ((s->max_mapnr + 7) / 8 + bs - 1) / bs * bs;
	g->bm_blocks = 2 * g->bm_bytes / bs;
	return DK_OK;
}

/* Append descriptor bytes, written KD_WDESC_BUF at a time. */
static enum dk_status
desc_flush(struct kw_part *p, struct dk_err *err)
{
	enum dk_status st = put(p->o, p->dbuf, p->dlen, p->dbuf_off, err);

	p->dbuf_off += p->dlen;
	p->dlen = 0;
	return st;
}

static enum dk_status
desc_add(struct kw_part *p, enum dk_endian e, uint64_t off, uint32_t size,
    uint32_t flags, struct dk_err *err)
{
	uint8_t *d;

	if (p->dlen + KD_DESC_SIZE > sizeof(p->dbuf)) {
		enum dk_status st = desc_flush(p, err);

		if (st != DK_OK)
			return st;
	}
	d = p->dbuf + p->dlen;
	enc_uint(d, 8, e, off);
	enc_uint(d + 8, 4, e, size);
	enc_uint(d + 12, 4, e, flags);
	enc_uint(d + 16, 8, e, 0);	/* page_flags */
	p->dlen += KD_DESC_SIZE;
	p->desc_pos += KD_DESC_SIZE;
	return DK_OK;
}

/* The header and sub header fields of part p (of n) into *hp. */
static void
head_fields(const struct dk_kd_wspec *s, const struct kw_geo *g,
    const struct kw_part *p, size_t n, unsigned status, struct dk_hdr *hp)
{
	uint64_t bs = s->block;
	struct dk_hdr h = s->uts;
	uint64_t mapnr32 = s->max_mapnr > UINT32_MAX ? UINT32_MAX :
	    s->max_mapnr;
	uint64_t lmax = s->sl == &dk_kd_sub64 ? UINT64_MAX : UINT32_MAX;

	memcpy(h.s[KD_F_SIGNATURE], s->diskdump ? "DISKDUMP" : "KDUMP   ", 9);
	h.v[KD_F_HEADER_VERSION] = s->version;
	h.v[KD_F_STATUS] = status;
	h.v[KD_F_BLOCK_SIZE] = bs;
	h.v[KD_F_SUB_HDR_SIZE] = g->sub_blocks;
	h.v[KD_F_BITMAP_BLOCKS] = g->bm_blocks;
	h.v[KD_F_MAX_MAPNR] = s->version >= 6 ? mapnr32 : s->max_mapnr;
	h.v[KD_F_PHYS_BASE] = s->phys_base;
	h.v[KD_F_DUMP_LEVEL] = dk_kd_dump_level(s);
	h.v[KD_F_SPLIT] = n > 1;
	h.v[KD_F_START_PFN] = n > 1 ? (s->version >= 6 && p->start > lmax ?
	    lmax : p->start) : 0;
	h.v[KD_F_END_PFN] = n > 1 ? (s->version >= 6 && p->end > lmax ? lmax :
	    p->end) : 0;
	h.v[KD_F_OFFSET_VMCOREINFO] = g->vmci_off;
	h.v[KD_F_SIZE_VMCOREINFO] = g->vmci_off != 0 ? s->vmci_size : 0;
	h.v[KD_F_OFFSET_NOTE] = g->note_off;
	h.v[KD_F_SIZE_NOTE] = g->note_off != 0 ? s->notes_size : 0;
	h.v[KD_F_START_PFN_64] = n > 1 ? p->start : 0;
	h.v[KD_F_END_PFN_64] = n > 1 ? p->end : 0;
	h.v[KD_F_MAX_MAPNR_64] = s->max_mapnr;
	h.v[KD_F_OFFSET_ERASEINFO] = p->off_erase;
	h.v[KD_F_SIZE_ERASEINFO] = p->off_erase != 0 ? s->erase_size : 0;
	*hp = h;
}

/* Block 1 on of part p: the sub header of h, the notes or VMCOREINFO. */
static enum dk_status
write_sub(const struct dk_kd_wspec *s, const struct kw_geo *g,
    struct kw_part *p, const struct dk_hdr *h, struct dk_err *err)
{
	uint8_t *blk = calloc(g->sub_blocks, s->block);
	enum dk_status st = DK_OK;

	if (blk == NULL)
		return dk_err_set(err, DK_ENOMEM, "kdump writer: out of memory");
	if (s->version >= 1)
		st = dk_layout_encode(s->sl, s->version, blk, s->e, h, err);
	if (g->note_off != 0)
		memcpy(blk + g->sub_size, s->notes, s->notes_size);
	else if (g->vmci_off != 0)
		memcpy(blk + g->sub_size, s->vmci, s->vmci_size);
	if (st == DK_OK)
		st = put(p->o, blk, g->sub_blocks * s->block, s->block, err);
	free(blk);
	return st;
}

/* The headers, the notes and bitmap 1 of part p (i of n). */
static enum dk_status
write_head(const struct dk_kd_wspec *s, const struct kw_geo *g,
    struct kw_part *p, size_t n, unsigned status, struct dk_err *err)
{
	uint64_t bs = s->block, hsz = dk_layout_size(s->hl, s->version);
	struct dk_hdr h;
	uint8_t *blk, *buf;
	enum dk_status st;

	head_fields(s, g, p, n, status, &h);
	if ((blk = calloc(1, bs)) == NULL)
		return dk_err_set(err, DK_ENOMEM, "kdump writer: out of memory");
	if (hsz > bs || g->sub_size > bs) {
		free(blk);
		return dk_err_set(err, DK_EINVAL, "kdump writer: the header "
		    "does not fit a block");
	}
	if ((st = dk_layout_encode(s->hl, s->version, blk, s->e, &h, err)) !=
	    DK_OK || (st = put(p->o, blk, bs, 0, err)) != DK_OK)
		goto out;
	/*
	 * Block 1 on; with an eraseinfo, once its offset is known
	 * (write_erase): written once, so no flattened record overwrites
	 * another.
	 */
	if (s->erase_size == 0 && (st = write_sub(s, g, p, &h, err)) != DK_OK)
		goto out;
	/* Bitmap 1, a chunk at a time. */
	if ((buf = malloc(KD_BITMAP_CHUNK)) == NULL) {
		st = dk_err_set(err, DK_ENOMEM, "kdump writer: out of memory");
		goto out;
	}
	for (uint64_t done = 0; st == DK_OK && done < g->bm_bytes;
	    done += KD_BITMAP_CHUNK) {
		size_t c = g->bm_bytes - done < KD_BITMAP_CHUNK ?
		    (size_t)(g->bm_bytes - done) : KD_BITMAP_CHUNK;

		dk_bitmap_store(s->present, done, buf, c, 8, DK_LE);
		st = put(p->o, buf, c, p->off_bm1 + done, err);
	}
	free(buf);
out:
	free(blk);
	return st;
}

static enum dk_status
write_bitmap2(const struct kw *w, const struct kw_geo *g,
    const struct kw_part *p, struct dk_err *err)
{
	uint8_t *buf = malloc(KD_BITMAP_CHUNK);
	enum dk_status st = DK_OK;

	if (buf == NULL)
		return dk_err_set(err, DK_ENOMEM, "kdump writer: out of memory");
	for (uint64_t done = 0; st == DK_OK && done < g->bm_bytes;
	    done += KD_BITMAP_CHUNK) {
		size_t c = g->bm_bytes - done < KD_BITMAP_CHUNK ?
		    (size_t)(g->bm_bytes - done) : KD_BITMAP_CHUNK;

		dk_bitmap_store(&w->bm2, done, buf, c, 8, DK_LE);
		st = put(p->o, buf, c, p->off_bm2 + done, err);
	}
	free(buf);
	return st;
}

/*
 * The eraseinfo after the pages of part p, then block 1 on, its offset
 * and size in the sub header.
 */
static enum dk_status
write_erase(const struct dk_kd_wspec *s, const struct kw_geo *g,
    struct kw_part *p, size_t n, unsigned status, struct dk_err *err)
{
	struct dk_hdr h;
	enum dk_status st;

	p->off_erase = p->data_pos;
	if ((st = put(p->o, s->erase, (size_t)s->erase_size, p->data_pos,
	    err)) != DK_OK)
		return st;
	p->data_pos += s->erase_size;
	head_fields(s, g, p, n, status, &h);
	return write_sub(s, g, p, &h, err);
}

/* Write batch b's descriptors and data into part p. */
static enum dk_status
batch_write(struct kw *w, struct kw_part *p, struct kw_batch *b,
    uint64_t *written, struct dk_err *err)
{
	struct dk_kd_wspec *s = w->s;
	uint64_t data0 = p->data_pos, at = 0;
	size_t outlen = 0;
	enum dk_status st;

	for (size_t i = 0; i < b->n; i++) {
		if (b->kind[i] == P_MISSING) {
			s->n_missing++;
			continue;
		}
		if (b->kind[i] == P_ZERO) {
			s->n_zero++;
			if (!s->keep_zero)
				continue;
		}
		dk_bitmap_set(&w->bm2, b->pfn[i]);
		if (*written >= s->stop_after)
			continue;	/* an incomplete dump: never written */
		(*written)++;
		if (b->kind[i] == P_ZERO)
			st = desc_add(p, s->e, p->off_data, s->block, 0, err);
		else {
			s->n_stored++;
			if (b->flag[i] == 0)
				s->n_raw++;
			st = desc_add(p, s->e, data0 + at, b->size[i],
			    b->flag[i], err);
			at += b->size[i];
			outlen = (size_t)at;
		}
		if (st != DK_OK)
			return st;
	}
	if (outlen == 0)
		return DK_OK;
	p->data_pos += outlen;
	if ((st = put(p->o, b->out, outlen, data0, err)) != DK_OK)
		return st;
	/*
	 * Start the writeback of the pages written since the last time,
	 * without waiting for it: the disk writes while the threads
	 * compress, not all at the fsync.  Only a hint: fsync reports what
	 * fails.
	 */
	if (p->o->writeback && p->data_pos - p->wb_pos >= KD_WRITEBACK) {
		(void)sync_file_range(p->o->fd, (off_t)p->wb_pos,
		    (off_t)(p->data_pos - p->wb_pos), SYNC_FILE_RANGE_WRITE);
		p->wb_pos = p->data_pos;
	}
	return DK_OK;
}

/*
 * Fill batch b with the next pages of p from *pfn; 0 when none are left.
 * Consecutive page frames are read as one run (one read of the source
 * for up to a batch, not one per page); a run that fails is read again
 * a page at a time, so that a page the source lacks leaves out only that
 * page and an error names the page it is about.
 */
static enum dk_status
batch_fill(struct kw *w, struct kw_part *p, uint64_t *pfn, struct kw_batch *b,
    struct dk_err *err)
{
	struct dk_kd_wspec *s = w->s;
	const struct dk_bitmap *bm = s->dump;

	b->n = 0;
	for (uint64_t f = dk_bitmap_next(bm, *pfn, 1); f < p->end &&
	    b->n < w->per; f = dk_bitmap_next(bm, f, 1)) {
		uint64_t e = dk_bitmap_next(bm, f, 0);
		size_t run, i;
		enum dk_status st;

		if (e > p->end)
			e = p->end;
		run = e - f < w->per - b->n ? (size_t)(e - f) : w->per - b->n;
		st = s->fill(s->fill_arg, f, run, b->in + b->n * s->block,
		    err);
		for (i = 0; i < run; i++) {
			b->pfn[b->n + i] = f + i;
			b->kind[b->n + i] = P_STORED;
		}
		if (st != DK_OK && run > 1) {	/* again, a page at a time */
			for (i = 0; i < run; i++) {
				dk_err_clear(err);
				st = s->fill(s->fill_arg, f + i, 1, b->in +
				    (b->n + i) * s->block, err);
				if (st == DK_ENOTDUMPED)
					b->kind[b->n + i] = P_MISSING;
				else if (st != DK_OK)
					return st;
			}
			dk_err_clear(err);
		} else if (st == DK_ENOTDUMPED) {
			b->kind[b->n] = P_MISSING;
			dk_err_clear(err);
		} else if (st != DK_OK)
			return st;
		b->n += run;
		f += run;
		*pfn = f;
	}
	if (b->n == 0)
		*pfn = p->end;
	return DK_OK;
}

/* The first failure, under w->mu: every thread stops. */
static void
kw_fail(struct kw *w, enum dk_status st, const struct dk_err *err)
{
	if (w->st == DK_OK) {
		w->st = st;
		w->werr = *err;
	}
	pthread_cond_broadcast(&w->cv);
}

/*
 * One thread's part in writing w->p, each of s->threads the same, the
 * calling thread one of them.  A thread writes the next batch in order
 * if it is done and no other thread writes; else it reads the next one
 * if no other thread reads and a slot is free, and compresses it
 * itself; else it waits.  No thread only hands batches over: on 2 CPUs,
 * 2 threads keep both busy, the serial parts (reading the source,
 * writing) each overlapping the other's compression.
 */
static void
kw_run(struct kw *w, struct kw_codec *c)
{
	struct dk_err err;
	enum dk_status st;

	dk_err_clear(&err);
	pthread_mutex_lock(&w->mu);
	while (w->st == DK_OK) {
		struct kw_batch *b = &w->b[w->seq_write % w->nb];

		if (!w->writing && w->seq_write < w->seq_fill &&
		    b->state == B_DONE) {
			w->writing = 1;
			pthread_mutex_unlock(&w->mu);
			st = batch_write(w, w->p, b, &w->written, &err);
			pthread_mutex_lock(&w->mu);
			w->writing = 0;
			b->state = B_FREE;
			w->seq_write++;
			if (st != DK_OK)
				kw_fail(w, st, &err);
			else
				pthread_cond_broadcast(&w->cv);
			continue;
		}
		if (!w->eof && !w->reading && w->seq_fill - w->seq_write <
		    w->nb) {
			b = &w->b[w->seq_fill % w->nb];
			w->reading = 1;
			pthread_mutex_unlock(&w->mu);
			st = batch_fill(w, w->p, &w->pfn, b, &err);
			pthread_mutex_lock(&w->mu);
			w->reading = 0;
			if (st != DK_OK) {
				kw_fail(w, st, &err);
				continue;
			}
			pthread_cond_broadcast(&w->cv);
			if (b->n == 0) {
				w->eof = 1;
				continue;
			}
			b->seq = w->seq_fill++;
			b->state = B_BUSY;
			pthread_mutex_unlock(&w->mu);
			batch_compress(w, c, b);
			pthread_mutex_lock(&w->mu);
			b->state = B_DONE;
			pthread_cond_broadcast(&w->cv);
			continue;
		}
		if (w->eof && !w->reading && w->seq_write == w->seq_fill)
			break;
		pthread_cond_wait(&w->cv, &w->mu);
	}
	pthread_mutex_unlock(&w->mu);
}

static void *
kw_thread(void *arg)
{
	struct kw_codec *c = arg;

	kw_run(c->w, c);
	return NULL;
}

/* The pages of part p, through the batches, by s->threads threads. */
static enum dk_status
write_pages(struct kw *w, struct kw_part *p, struct dk_err *err)
{
	struct dk_kd_wspec *s = w->s;
	enum dk_status st = DK_OK;
	unsigned started = 0;

	if (s->keep_zero) {
		uint8_t *z = calloc(1, s->block);

		if (z == NULL)
			return dk_err_set(err, DK_ENOMEM, "kdump writer: out "
			    "of memory");
		st = put(p->o, z, s->block, p->off_data, err);
		free(z);
		p->data_pos += s->block;
		if (st != DK_OK)
			return st;
	}
	w->p = p;
	w->pfn = p->start;
	w->seq_fill = w->seq_write = w->written = 0;
	w->eof = w->reading = w->writing = 0;
	w->st = DK_OK;
	for (size_t i = 0; i < w->nb; i++)
		w->b[i].state = B_FREE;
	for (unsigned i = 1; i < s->threads; i++) {
		w->cc[i].w = w;
		if (pthread_create(&w->tid[i], NULL, kw_thread, &w->cc[i]) !=
		    0) {
			struct dk_err e;

			dk_err_set(&e, DK_ESYS, "kdump writer: "
			    "pthread_create failed");
			pthread_mutex_lock(&w->mu);
			kw_fail(w, DK_ESYS, &e);
			pthread_mutex_unlock(&w->mu);
			break;
		}
		started++;
	}
	kw_run(w, &w->cc[0]);
	for (unsigned i = 1; i <= started; i++)
		pthread_join(w->tid[i], NULL);
	if (w->st != DK_OK) {
		*err = w->werr;
		return w->st;
	}
	return desc_flush(p, err);
}

/* The first PFN of the r-th page to store (r < the count), by rank. */
static uint64_t
select_pfn(const struct dk_bitmap *bm, uint64_t r)
{
	uint64_t lo = 0, hi = bm->nbits;

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (dk_bitmap_rank(bm, mid + 1) <= r)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

unsigned
dk_kd_dump_level(const struct dk_kd_wspec *s)
{
	return s->dump_level | (s->store_zero ? 0 : 1);
}

enum dk_status
dk_kd_write(struct dk_kd_wspec *s, const struct dk_kd_out *outs, size_t nout,
    struct dk_err *err)
{
	struct kw w;
	struct kw_geo g = { 0 };
	struct kw_part *parts = NULL;
	uint64_t total;
	unsigned status;
	enum dk_status st;

	s->n_stored = s->n_raw = s->n_zero = s->n_missing = s->bytes = 0;
	if (s->threads == 0)
		s->threads = 1;
	if (s->threads > KW_MAX_THREADS)
		return dk_err_set(err, DK_EINVAL, "kdump writer: %u threads: "
		    "at most %u", s->threads, KW_MAX_THREADS);
	if (nout == 0 || nout > KD_MAX_PARTS)
		return dk_err_set(err, DK_EINVAL, "kdump writer: %zu files: "
		    "expected 1 to %u", nout, KD_MAX_PARTS);
	if (nout > 1 && s->version < 2)
		return dk_err_set(err, DK_EINVAL, "kdump writer: a split set "
		    "needs header version 2 or later");
	for (size_t i = 0; nout > 1 && i < nout; i++)
		if (outs[i].flat)
			return dk_err_set(err, DK_EINVAL, "kdump writer: a "
			    "split set is written to regular files, not "
			    "flattened");
	if (dk_kd_codec_name(s->codec) == NULL)
		return dk_err_set(err, DK_EINVAL, "kdump writer: codec %#x",
		    s->codec);
	if ((st = geometry(s, &g, err)) != DK_OK)
		return st;
	if ((parts = calloc(nout, sizeof(*parts))) == NULL)
		return dk_err_set(err, DK_ENOMEM, "kdump writer: out of memory");
	if ((st = kw_init(&w, s, err)) != DK_OK)
		goto out;
	/*
	 * The parts' PFN ranges: the pages to store shared evenly, each
	 * start rounded down to KW_SPLIT_ALIGN.
	 */
	total = dk_bitmap_rank(s->dump, s->dump->nbits);
	for (size_t i = 0; i < nout; i++) {
		struct kw_part *p = &parts[i];
		uint64_t r = total * i / nout;

		p->o = &outs[i];
		p->start = i == 0 ? 0 : r >= total ? s->max_mapnr :
		    select_pfn(s->dump, r) / KW_SPLIT_ALIGN * KW_SPLIT_ALIGN;
		if (i > 0 && p->start < parts[i - 1].start)
			p->start = parts[i - 1].start;
		if (i > 0)
			parts[i - 1].end = p->start;
		p->end = s->max_mapnr;
	}
	status = s->codec | (s->incomplete ? KD_DH_INCOMPLETE : 0);
	for (size_t i = 0; i < nout && st == DK_OK; i++) {
		struct kw_part *p = &parts[i];

		p->ncand = dk_bitmap_rank(s->dump, p->end) -
		    dk_bitmap_rank(s->dump, p->start);
		p->off_bm1 = (1 + g.sub_blocks) * s->block;
		p->off_bm2 = p->off_bm1 + g.bm_bytes;
		p->off_desc = p->off_bm1 + 2 * g.bm_bytes;
		p->off_data = p->off_desc + p->ncand * KD_DESC_SIZE;
		p->desc_pos = p->dbuf_off = p->off_desc;
		p->data_pos = p->wb_pos = p->off_data;
		if (p->o->flat && (st = flat_begin(p->o, err)) != DK_OK)
			break;
		if ((st = write_head(s, &g, p, nout, status, err)) != DK_OK)
			break;
		st = write_pages(&w, p, err);
	}
	/* Bitmap 2, now known, into every part. */
	for (size_t i = 0; i < nout && st == DK_OK; i++) {
		struct kw_part *p = &parts[i];

		if ((st = write_bitmap2(&w, &g, p, err)) != DK_OK)
			break;
		if (s->erase_size > 0 &&
		    (st = write_erase(s, &g, p, nout, status, err)) != DK_OK)
			break;
		if (!p->o->flat && ftruncate(p->o->fd, (off_t)p->data_pos) != 0)
			st = sys_fail(p->o, "ftruncate", p->data_pos, err);
		else if (p->o->flat)
			st = flat_end(p->o, err);
		s->bytes += p->data_pos;
	}
out:
	kw_free(&w);
	free(parts);
	return st;
}

/* ---------------------------------------------------------------------- */
/* From an open dump.                                                      */

/* FreeBSD MACHINE_ARCH rows and Linux's uname -m for them. */
static const struct {
	const char	*row;
	const char	*machine;
} unames[] = {
	{ "amd64", "x86_64" },
	{ "i386", "i686" },
	{ "aarch64", "aarch64" },
	{ "arm", "armv7l" },
	{ "armeb", "armv7b" },
	{ "powerpc64", "ppc64" },
	{ "powerpc64le", "ppc64le" },
	{ "powerpc", "ppc" },
	{ "riscv64", "riscv64" },
	{ "mips", "mips" },
	{ "mipsel", "mips" },
	{ "mipsn32", "mips64" },
	{ "mipsn32el", "mips64" },
	{ "mips64", "mips64" },
	{ "mips64el", "mips64" },
	{ "s390x", "s390x" },
};

const char *
dk_kd_machine(const char *row)
{
	for (size_t i = 0; i < DK_ARRAY_LEN(unames); i++)
		if (strcmp(unames[i].row, row) == 0)
			return unames[i].machine;
	return NULL;
}

/*
 * The page size of a kdump file is the dumped kernel's (dk_info's
 * page_size), which is not always the library's read granule
 * d->page_size: an ELF vmcore is read in the largest power of two that
 * divides its segments' bounds (1 KiB for a /proc/vmcore whose low
 * segment ends at 0x9ec00), and its pages are 4 KiB all the same.
 */
static uint64_t
kpage(const struct dk_dump *d)
{
	return dk_info(d)->page_size;
}

static enum dk_status
read_fill(void *arg, uint64_t pfn, size_t n, uint8_t *buf, struct dk_err *err)
{
	struct dk_dump *d = arg;
	uint64_t ps = kpage(d);

	dk_src_sequential(&d->src);	/* the pages, in order */
	return dk_read_pa(d, pfn * ps, buf, n * (size_t)ps, err);
}

/* Set bits [lo, hi) of bm, a word at a time where whole. */
static void
set_range(struct dk_bitmap *bm, uint64_t lo, uint64_t hi)
{
	if (hi > bm->nbits)
		hi = bm->nbits;
	while (lo < hi) {
		uint64_t w = lo / 64, b = lo % 64;
		uint64_t n = hi - lo < 64 - b ? hi - lo : 64 - b;
		uint64_t v = n == 64 ? ~(uint64_t)0 :
		    (((uint64_t)1 << n) - 1) << b;

		dk_bitmap_or(bm, w, v);
		lo += n;
	}
}

/* The section named name, or NULL. */
static const struct dk_section *
section(const struct dk_dump *d, const char *name)
{
	for (size_t i = 0; i < dk_nsections(d); i++)
		if (strcmp(dk_section(d, i)->name, name) == 0)
			return dk_section(d, i);
	return NULL;
}

static void
uts_str(struct dk_hdr *h, unsigned id, const struct dk_dump *d,
    const char *attr)
{
	const struct dk_attr *a = dk_attr_find(d, attr);

	if (a != NULL && a->type == DK_ATTR_STRING)
		snprintf(h->s[id], 65, "%s", a->str);
}

/* Append a note (name, type, desc) to the buffer *nb of *nlen bytes. */
static enum dk_status
note_add(uint8_t **nb, uint64_t *nlen, enum dk_endian e, const char *name,
    uint32_t type, const void *desc, uint64_t dlen, struct dk_err *err)
{
	size_t namesz = strlen(name) + 1;
	uint64_t sz = dk_note_size(namesz, dlen);
	uint8_t *n = realloc(*nb, *nlen + sz), nh[DK_NHDR_SIZE + 64];
	size_t hl;

	if (n == NULL || namesz > 64)
		return dk_err_set(err, DK_ENOMEM, "kdump writer: out of memory");
	*nb = n;
	memset(n + *nlen, 0, sz);
	hl = dk_note_head(nh, e, type, name, namesz, dlen);
	memcpy(n + *nlen, nh, hl);
	memcpy(n + *nlen + hl, desc, dlen);
	*nlen += sz;
	return DK_OK;
}

/*
 * A dump with no ELF notes of its own (FreeBSD's): a "DUMPKIT" note of
 * KEY=value lines (format, arch, version, page size, kernbase, the
 * attributes), then one note per metadata section of the source with its
 * bytes ("DUMPKIT" type 2, desc: the section's NUL-terminated name, then
 * its bytes), so that nothing of the source's metadata is lost.
 */
static enum dk_status
source_notes(struct dk_dump *d, uint8_t **nb, uint64_t *nlen,
    struct dk_err *err)
{
	static const char *const skip[] = { "bitmap", "pages", "page data",
	    "descriptors", "data" };
	char *t = NULL;
	size_t tl = 0;
	FILE *f = open_memstream(&t, &tl);
	const struct dk_info *in = dk_info(d);
	enum dk_status st;

	if (f == NULL)
		return dk_err_set(err, DK_ENOMEM, "kdump writer: out of memory");
	fprintf(f, "SOURCE_FORMAT=%s\nSOURCE_VERSION=%u\nSOURCE_ARCH=%s\n"
	    "PAGESIZE=%u\nKERNBASE=%jx\n", in->format, in->version, in->arch,
	    in->page_size, (uintmax_t)in->kernbase);
	for (size_t i = 0; i < dk_nattrs(d); i++) {
		const struct dk_attr *a = dk_attr(d, i);

		if (a->type == DK_ATTR_STRING)
			fprintf(f, "ATTR(%s)=%.*s\n", a->name, (int)strcspn(
			    a->str, "\n"), a->str);
		else
			fprintf(f, "ATTR(%s)=%ju\n", a->name,
			    (uintmax_t)a->num);
	}
	fclose(f);
	st = note_add(nb, nlen, d->info.endian, "DUMPKIT", 1, t, tl, err);
	free(t);
	for (size_t i = 0; st == DK_OK && i < dk_nsections(d); i++) {
		const struct dk_section *sc = dk_section(d, i);
		size_t nl = strlen(sc->name) + 1;
		uint8_t *buf;
		int skipped = 0;

		for (size_t k = 0; k < DK_ARRAY_LEN(skip); k++)
			if (strncmp(sc->name, skip[k], strlen(skip[k])) == 0)
				skipped = 1;
		if (skipped || sc->size == 0 || sc->size > KD_MAX_NOTES / 4)
			continue;
		if ((buf = malloc(nl + sc->size)) == NULL)
			return dk_err_set(err, DK_ENOMEM, "kdump writer: out "
			    "of memory");
		memcpy(buf, sc->name, nl);
		st = dk_read_stream(d, sc->offset, buf + nl, (size_t)sc->size,
		    err);
		if (st == DK_OK)
			st = note_add(nb, nlen, d->info.endian, "DUMPKIT", 2,
			    buf, nl + sc->size, err);
		free(buf);
	}
	return st;
}

enum dk_status
dk_kd_spec_from_dump(struct dk_dump *d, const struct dk_kd_opts *o,
    struct dk_kd_wspec *s, struct dk_err *err)
{
	const struct dk_info *in = dk_info(d);
	const struct dk_section *ns = section(d, "notes");
	const struct dk_section *vs = section(d, "vmcoreinfo");
	const struct dk_section *es = strcmp(in->format, "kdump") == 0 ?
	    section(d, "eraseinfo") : NULL;
	const struct dk_attr *a;
	struct dk_bitmap *bm1 = NULL, *bm2 = NULL;
	struct dk_run_iter it = { 0 };
	struct dk_run r;
	uint64_t maxpfn = 0;
	uint8_t *notes = NULL;
	uint64_t nlen = 0;
	enum dk_status st;
	unsigned shift;
	uint64_t ps;

	memset(s, 0, sizeof(*s));
	if (d->arch == NULL || d->page_size == 0 || in->page_size == 0)
		return dk_err_set(err, DK_EUNSUP, "%s: its page size is not "
		    "known (%s), and a kdump file is made of pages: give it "
		    "with --page-size", d->src.name, d->arch == NULL ?
		    "nor its architecture" : "no VMCOREINFO PAGESIZE");
	ps = kpage(d);
	if ((ps & (ps - 1)) != 0)
		return dk_err_set(err, DK_EUNSUP, "%s: its page size %ju is not "
		    "a power of two", d->src.name, (uintmax_t)ps);
	shift = (unsigned)__builtin_ctzll(ps);
	/* max_mapnr: the source's, or past its last range and page. */
	for (size_t i = 0; i < dk_phys_nranges(d); i++) {
		struct dk_range pr = dk_phys_range(d, i);
		uint64_t e = (pr.end + ps - 1) >> shift;

		if (e > maxpfn)
			maxpfn = e;
	}
	while (dk_run_next(d, &it, &r)) {
		uint64_t e = (r.pa + r.len + ps - 1) >> shift;

		if (e > maxpfn)
			maxpfn = e;
	}
	if ((a = dk_attr_find(d, "max_mapnr")) != NULL && a->num > maxpfn)
		maxpfn = a->num;
	if (maxpfn == 0)
		return dk_err_set(err, DK_EUNSUP, "%s: no physical memory to "
		    "write", d->src.name);
	bm1 = calloc(1, sizeof(*bm1));
	bm2 = calloc(1, sizeof(*bm2));
	if (bm1 == NULL || bm2 == NULL) {
		free(bm1);
		free(bm2);
		return dk_err_set(err, DK_ENOMEM, "%s: out of memory",
		    d->src.name);
	}
	s->present = bm1;
	s->dump = bm2;
	if ((st = dk_bitmap_init(bm1, maxpfn, err)) != DK_OK ||
	    (st = dk_bitmap_init(bm2, maxpfn, err)) != DK_OK)
		goto fail;
	/* Bitmap 1: the ranges and the dumped pages; bitmap 2 the pages. */
	for (size_t i = 0; i < dk_phys_nranges(d); i++) {
		struct dk_range pr = dk_phys_range(d, i);

		set_range(bm1, pr.start >> shift, (pr.end +
		    ps - 1) >> shift);
	}
	memset(&it, 0, sizeof(it));
	while (dk_run_next(d, &it, &r)) {
		uint64_t lo = r.pa >> shift;
		uint64_t hi = (r.pa + r.len + ps - 1) >> shift;

		set_range(bm1, lo, hi);
		set_range(bm2, lo, hi);
	}
	if ((st = dk_bitmap_index(bm1, err)) != DK_OK ||
	    (st = dk_bitmap_index(bm2, err)) != DK_OK)
		goto fail;
	s->version = 6;
	s->e = in->endian;
	s->hl = &dk_kd_hdr64;
	s->sl = &dk_kd_sub64;
	s->block = in->page_size;
	s->max_mapnr = maxpfn;
	s->codec = o->codec;
	s->level = o->level;
	s->threads = o->threads;
	s->keep_zero = o->keep_zero && !o->store_zero;
	s->store_zero = o->store_zero;
	s->stop_after = UINT64_MAX;
	s->fill = read_fill;
	s->fill_arg = d;
	if ((a = dk_attr_find(d, "dump_level")) != NULL)
		s->dump_level = (unsigned)a->num;
	if ((a = dk_attr_find(d, "phys_base")) != NULL)
		s->phys_base = a->num;
	/* utsname: the kdump source's as it is, else what the source says. */
	if (strcmp(in->format, "kdump") == 0) {
		static const unsigned ids[] = { KD_F_SYSNAME, KD_F_NODENAME,
		    KD_F_RELEASE, KD_F_UTSVERSION, KD_F_MACHINE,
		    KD_F_DOMAINNAME, KD_F_TV_SEC, KD_F_TV_USEC, KD_F_NR_CPUS };

		for (size_t i = 0; i < DK_ARRAY_LEN(ids); i++) {
			s->uts.v[ids[i]] = d->hdr.v[ids[i]];
			if (ids[i] < KD_F_NSTR)
				memcpy(s->uts.s[ids[i]], d->hdr.s[ids[i]], 66);
		}
	} else {
		const struct dk_attr *v = dk_attr_find(d, "version_string");

		uts_str(&s->uts, KD_F_NODENAME, d, "hostname");
		uts_str(&s->uts, KD_F_RELEASE, d, "os_release");
		if (v != NULL && v->type == DK_ATTR_STRING)
			snprintf(s->uts.s[KD_F_UTSVERSION], 65, "%.*s",
			    (int)strcspn(v->str, "\n"), v->str);
		/*
		 * nr_cpus: one per NT_PRSTATUS, as makedumpfile counts them
		 * (crash warns of 0: "invalid nr_cpus value").
		 */
		if ((a = dk_attr_find(d, "cpus")) != NULL &&
		    a->num <= INT32_MAX)
			s->uts.v[KD_F_NR_CPUS] = a->num;
	}
	if (s->uts.s[KD_F_MACHINE][0] == '\0' &&
	    dk_kd_machine(d->arch->name) != NULL)
		snprintf(s->uts.s[KD_F_MACHINE], 65, "%s",
		    dk_kd_machine(d->arch->name));
	/* A Linux ELF vmcore's kernel is Linux; the rest but kdump FreeBSD. */
	if (s->uts.s[KD_F_SYSNAME][0] == '\0' &&
	    strcmp(in->format, "kdump") != 0)
		snprintf(s->uts.s[KD_F_SYSNAME], 65, "%s",
		    strcmp(in->format, "vmcore") == 0 ? "Linux" : "FreeBSD");
	if (s->uts.v[KD_F_TV_SEC] == 0 &&
	    (a = dk_attr_find(d, "dump_time")) != NULL)
		s->uts.v[KD_F_TV_SEC] = a->num;
	/* The notes and VMCOREINFO, read from the source as they are. */
	if (ns != NULL && ns->size > 0) {
		if (ns->size > KD_MAX_NOTES) {
			st = dk_err_set(err, DK_ELIMIT, "%s: notes of %ju "
			    "bytes", d->src.name, (uintmax_t)ns->size);
			goto fail;
		}
		if ((notes = malloc((size_t)ns->size)) == NULL) {
			st = dk_err_set(err, DK_ENOMEM, "%s: out of memory",
			    d->src.name);
			goto fail;
		}
		nlen = ns->size;
		if ((st = dk_read_stream(d, ns->offset, notes, (size_t)nlen,
		    err)) != DK_OK)
			goto fail;
		if (vs != NULL && vs->offset >= ns->offset && vs->offset +
		    vs->size <= ns->offset + ns->size) {
			s->vmci_off = vs->offset - ns->offset;
			s->vmci_size = vs->size;
		}
	} else if (vs != NULL && vs->size > 0 && vs->size <= KD_MAX_VMCOREINFO) {
		uint8_t *v = malloc((size_t)vs->size);

		if (v == NULL) {
			st = dk_err_set(err, DK_ENOMEM, "%s: out of memory",
			    d->src.name);
			goto fail;
		}
		if ((st = dk_read_stream(d, vs->offset, v, (size_t)vs->size,
		    err)) == DK_OK)
			st = note_add(&notes, &nlen, in->endian, "VMCOREINFO",
			    0, v, vs->size, err);
		free(v);
		if (st != DK_OK)
			goto fail;
		/* The descriptor follows the 12-byte header and "VMCOREINFO". */
		s->vmci_off = DK_NHDR_SIZE + 12;
		s->vmci_size = vs->size;
	} else if (strcmp(in->format, "kdump") != 0 &&
	    (st = source_notes(d, &notes, &nlen, err)) != DK_OK)
		goto fail;
	s->notes = notes;
	s->notes_size = nlen;
	notes = NULL;
	/* A kdump source's eraseinfo, carried as makedumpfile re-filtering does. */
	if (es != NULL && es->size > 0) {
		uint8_t *e;

		if (es->size > KD_MAX_ERASEINFO) {
			st = dk_err_set(err, DK_ELIMIT, "%s: an eraseinfo of %ju "
			    "bytes: at most %u", d->src.name,
			    (uintmax_t)es->size, KD_MAX_ERASEINFO);
			goto fail;
		}
		if ((e = malloc((size_t)es->size)) == NULL) {
			st = dk_err_set(err, DK_ENOMEM, "%s: out of memory",
			    d->src.name);
			goto fail;
		}
		s->erase = e;
		s->erase_size = es->size;
		if ((st = dk_read_stream(d, es->offset, e, (size_t)es->size,
		    err)) != DK_OK)
			goto fail;
	}
	return DK_OK;
fail:
	free(notes);
	dk_kd_spec_free(s);
	return st;
}

void
dk_kd_spec_free(struct dk_kd_wspec *s)
{
	if (s->present != NULL) {
		dk_bitmap_free((struct dk_bitmap *)(uintptr_t)s->present);
		free((void *)(uintptr_t)s->present);
	}
	if (s->dump != NULL) {
		dk_bitmap_free((struct dk_bitmap *)(uintptr_t)s->dump);
		free((void *)(uintptr_t)s->dump);
	}
	free((void *)(uintptr_t)s->notes);
	free((void *)(uintptr_t)s->erase);
	s->present = s->dump = NULL;
	s->notes = s->erase = NULL;
	s->erase_size = 0;
}
