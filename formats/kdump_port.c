/*
 * kdump_port.c -- makedumpfile's kdump-compressed files in the portable
 * ELF minidump: source kind 5 (docs/portable-elf-minidump.md 10.3).
 *
 * A kdump file stores each page compressed alone, so the portable file
 * cannot hold its page data verbatim as it holds the other kinds': it
 * holds the pages decoded, one per page the file holds (bitmap 2's,
 * less what an incomplete file lacks) in PFN order, and the way back
 * re-encodes them.  That is exact because the compressors are
 * deterministic once the encoder and its level are known, and those are
 * found at conversion time (kdump_reenc.c) and kept in the encoders
 * note, with the rebuilt file's size and the CRC-32 of the pages the
 * rebuild writes, so that a damaged note is an error, never a wrong
 * file.  Everything else comes back from the source header note (the
 * file's bytes up to the end of its page descriptors: headers, ELF
 * notes, bitmaps, descriptors) and the residue: the pages the encoder
 * does not reproduce, the eraseinfo, a cut last page, any non-zero byte
 * between pages.
 *
 * Reading a portable file of this kind, fmt_kdump.c takes over: the
 * source header note is its file's first bytes (dk_kd_open_mapped), and
 * a held page's bytes are in the page data at its rank.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "bytes.h"
#include "dkelf.h"
#include "kdump.h"
#include "portable.h"
#include "vmcore_write.h"

#define	KP_ENC_ENTRY	16	/* flag, encoder, level, 0 */
#define	KP_ENC_TAIL	16	/* image size; CRC-32, 0 */
#define	KP_REC_HEAD	(KD_FLAT_HDR + 16)	/* records note: header, file
						 * size, record count */
#define	KP_MAX_LOST	(64u << 20)	/* overwritten record bytes kept */
#define	KP_MAX_LOST_RUNS 65536u

/* What a conversion or a portable file knows beyond fmt_kdump.c's state. */
struct kp_state {
	struct dk_kd_enc enc[4];	/* by codec index; codec 0: none */
	uint64_t	 size;		/* of the native file (flattened: of
					 * the image it holds) */
	uint32_t	 crc;		/* of the pages the rebuild writes */
	uint64_t	 hoff, hlen;	/* the source header in d's file */
	int		 chosen;	/* enc, crc known */
	uint64_t	 stored;	/* pages the page data holds */
	/*
	 * A flattened source: the stream's size and records (the end
	 * marker's counted), the records note in d's file (portable), and
	 * the bytes of records a later one overwrote: off, len in the
	 * stream, src_off where d's file has them.
	 */
	int		 flat;
	uint64_t	 flat_size, nrec, roff;
	struct dk_presidue *lost;
	size_t		 nlost;
	uint64_t	 lost_bytes;
	/* The residue found natively, kept for the next plan. */
	struct dk_presidue *res;
	size_t		 nres;
};

static void
kp_free(void *p)
{
	struct kp_state *k = p;

	if (k != NULL) {
		free(k->lost);
		free(k->res);
	}
	free(k);
}

/* d's state, made on first use. */
static struct kp_state *
kp(struct dk_dump *d, struct dk_err *err)
{
	struct kp_state *k = dk_kd_port(d);
	uint64_t meta, size;

	if (k != NULL)
		return k;
	if ((k = calloc(1, sizeof(*k))) == NULL) {
		dk_err_set(err, DK_ENOMEM, "%s: out of memory", d->src.name);
		return NULL;
	}
	(void)dk_kd_part_extent(d, 0, &meta, &size);
	k->hoff = 0;
	k->hlen = meta;
	k->size = size;
	dk_kd_set_port(d, k, kp_free);
	return k;
}

/* ---------------------------------------------------------------------- */
/* Writing.                                                                */

/* Rows a kdump file can be of: those with a Linux machine name. */
static int
kp_row_ok(const struct dk_arch *a)
{
	return dk_kd_machine(a->name) != NULL;
}

static enum dk_status
kp_convertible(const struct dk_dump *d, struct dk_err *err)
{
	struct dk_kd_facts f;
	uint64_t meta, size;

	dk_kd_facts(d, &f);
	if (f.nparts > 1) {
		char names[512];
		size_t n = 0;

		names[0] = '\0';
		for (size_t i = 0; i < f.nparts && n < sizeof(names); i++)
			n += (size_t)snprintf(names + n, sizeof(names) - n,
			    "%s%s", i > 0 ? ", " : "", dk_file(d, i));
		return dk_err_set(err, DK_EUNSUP, "the %zu files of a --split "
		    "set do not convert together to the portable format (a "
		    "portable file holds one kdump file): convert each part "
		    "alone: %s", f.nparts, names);
	}
	(void)dk_kd_part_extent((struct dk_dump *)d, 0, &meta, &size);
	if (meta > UINT32_MAX - 8)
		return dk_err_set(err, DK_ELIMIT, "%s: the kdump file's %#jx "
		    "bytes of headers, bitmaps and descriptors are more than "
		    "a note holds", d->src.name, (uintmax_t)meta);
	return DK_OK;
}

static uint64_t
kp_extent(const struct dk_dump *d, uint64_t *len)
{
	*len = d->info.npages_present * d->page_size;
	return 0;
}

static int
kp_prun_next(struct dk_dump *d, struct dk_run_iter *it, struct dk_run *r)
{
	return dk_kd_held_next(d, it, r, 0);
}

/* The conversion's walk: residue records, the CRC of the pages. */
struct kp_res {
	struct dk_dump	*d;
	struct dk_plan	*pl;
	uLong		 crc;
};

/*
 * [off, off + len) of the kdump file into the residue: where its bytes
 * are, which in a flattened file is where its records put them (bytes no
 * record holds are zeros, which the rebuild writes anyway).
 */
static enum dk_status
kp_res_add(struct kp_res *r, uint64_t off, uint64_t len, struct dk_err *err)
{
	struct dk_range m;
	enum dk_status st;

	while (len > 0) {
		if (!dk_kd_flat_map(r->d, 0, off, len, &m))
			return dk_plan_residue(r->pl, off, len, off, err);
		if (m.start != UINT64_MAX && (st = dk_plan_residue(r->pl, off,
		    m.end, m.start, err)) != DK_OK)
			return st;
		off += m.end;
		len -= m.end;
	}
	return DK_OK;
}

static enum dk_status
kp_res_piece(void *arg, const struct dk_kd_piece *pc, struct dk_err *err)
{
	struct kp_res *r = arg;

	switch (pc->kind) {
	case DK_KD_PLAIN:
	case DK_KD_SAME:
		r->crc = crc32(r->crc, pc->raw, (uInt)pc->len);
		return DK_OK;
	case DK_KD_DIFFER:
		return kp_res_add(r, pc->off, pc->len, err);
	case DK_KD_GAP:
		if (pc->nz_lo == UINT64_MAX)
			return DK_OK;
		return kp_res_add(r, pc->nz_lo, pc->nz_hi - pc->nz_lo, err);
	default:
		return DK_OK;
	}
}

/* A run of overwritten record bytes [lo, hi) of the stream, into k. */
static enum dk_status
kp_lost_add(void *arg, uint64_t lo, uint64_t hi, struct dk_err *err)
{
	struct kp_state *k = arg;
	struct dk_presidue *n;

	if (k->nlost >= KP_MAX_LOST_RUNS || k->lost_bytes + (hi - lo) >
	    KP_MAX_LOST)
		return dk_err_set(err, DK_ELIMIT, "more than %u bytes in %u "
		    "runs of the flattened file's records are overwritten by "
		    "later records: more than the portable file keeps",
		    KP_MAX_LOST, KP_MAX_LOST_RUNS);
	if ((n = realloc(k->lost, (k->nlost + 1) * sizeof(*n))) == NULL)
		return dk_err_set(err, DK_ENOMEM, "out of memory");
	k->lost = n;
	k->lost[k->nlost++] = (struct dk_presidue){ lo, hi - lo, lo };
	k->lost_bytes += hi - lo;
	return DK_OK;
}

/*
 * A flattened source: its size, its records (the end marker's
 * included), the record bytes a later record overwrote.
 */
static enum dk_status
kp_flat_scan(struct dk_dump *d, struct kp_state *k, struct dk_err *err)
{
	struct dk_kd_facts f;
	struct dk_kd_frec fr;
	uint64_t pos = KD_FLAT_HDR;
	int got;

	dk_kd_facts(d, &f);
	if (!f.flat)
		return DK_OK;
	k->flat = 1;
	k->flat_size = d->src.size;
	k->nrec = 0;
	free(k->lost);
	k->lost = NULL;
	k->nlost = 0;
	k->lost_bytes = 0;
	while ((got = dk_kd_flat_next(&d->src, d->src.name, k->nrec, &pos,
	    &fr, err)) == 1) {
		k->nrec++;
		if (fr.end || fr.have < fr.size)
			break;
	}
	if (got < 0)
		return err->code;
	return dk_kd_flat_lost(d, kp_lost_add, k, err);
}

/*
 * The residue: natively, found by choosing the encoders and walking the
 * file; from a portable file, its residue note's.
 */
static enum dk_status
kp_residue(struct dk_dump *d, struct dk_plan *pl, struct dk_err *err)
{
	struct kp_state *k = kp(d, err);
	struct kp_res r = { d, pl, crc32(0, NULL, 0) };
	enum dk_status st;

	if (k == NULL)
		return err->code;
	if (dk_is_portable(d))
		return dk_plan_note_residue(d, pl, k->size, err);
	if (k->chosen) {	/* planned before: the same residue */
		for (size_t i = 0; i < k->nres; i++)
			if ((st = dk_plan_residue(pl, k->res[i].off,
			    k->res[i].len, k->res[i].src_off, err)) != DK_OK)
				return st;
		return DK_OK;
	}
	if ((st = dk_kd_reenc_choose(d, k->enc, err)) != DK_OK ||
	    (st = dk_kd_reenc_walk(d, k->enc, kp_res_piece, &r, err)) != DK_OK ||
	    (st = kp_flat_scan(d, k, err)) != DK_OK)
		return st;
	if (pl->nres > 0) {
		if ((k->res = malloc(pl->nres * sizeof(*k->res))) == NULL)
			return dk_err_set(err, DK_ENOMEM, "out of memory");
		memcpy(k->res, pl->res, pl->nres * sizeof(*k->res));
		k->nres = pl->nres;
	}
	k->crc = (uint32_t)r.crc;
	k->chosen = 1;
	return DK_OK;
}

static uint64_t
kp_nenc(const struct kp_state *k)
{
	uint64_t n = 0;

	for (int ci = 0; ci < 4; ci++)
		n += k->enc[ci].codec != 0;
	return n;
}


/*
 * The kdump's own ELF notes (its sub header's offset_note, size_note),
 * whole, less dumpkit's: their bytes, and with s given, copied.  They
 * lie in the source header (read through the kdump reader: a flattened
 * file's are in its records); the walk stops at the first that does not.
 */
static enum dk_status
kp_elf_notes(struct dk_dump *d, const struct kp_state *k, struct dk_sink *s,
    uint64_t *bytes, struct dk_err *err)
{
	struct dk_kd_facts f;
	struct dk_note_iter it;
	struct dk_note n;
	struct dk_err e2;
	enum dk_status st = DK_OK;
	uint8_t *buf;
	uint64_t end;

	*bytes = 0;
	dk_kd_facts(d, &f);
	if (f.note_size == 0 || f.note_off >= k->hlen)
		return DK_OK;
	end = f.note_size < k->hlen - f.note_off ? f.note_off + f.note_size :
	    k->hlen;
	if (end - f.note_off > KD_MAX_NOTES)
		end = f.note_off + KD_MAX_NOTES;
	if ((buf = malloc((size_t)(end - f.note_off))) == NULL)
		return dk_err_set(err, DK_ENOMEM, "out of memory");
	if ((st = dk_kd_part_read(d, 0, buf, (size_t)(end - f.note_off),
	    f.note_off, err)) != DK_OK) {
		free(buf);
		return st;
	}
	dk_note_iter_mem(&it, buf, (size_t)(end - f.note_off),
	    d->arch->endian, "the kdump's ELF notes");
	while (st == DK_OK && dk_note_next(&it, &n, &e2) == DK_OK) {
		uint64_t len = it.off - n.off;

		if (dk_note_is(&n, DK_PNOTE_NAME))
			continue;
		*bytes += len;
		if (s != NULL)
			st = dk_sink_write(s, buf + n.off, (size_t)len, err);
	}
	free(buf);
	return st;
}

/* The records note's size: header, counts, records, overwritten runs. */
static uint64_t
kp_rec_size(const struct kp_state *k)
{
	uint64_t n = KP_REC_HEAD + 16 * k->nrec;

	for (size_t i = 0; i < k->nlost; i++)
		n += 16 + (k->lost[i].len + 7) / 8 * 8;
	return n;
}

/* The records note of a flattened source, from its file. */
static enum dk_status
kp_rec_note(struct dk_dump *d, const struct kp_state *k, struct dk_sink *s,
    struct dk_err *err)
{
	enum dk_endian e = d->arch->endian;
	uint8_t b[16];
	uint64_t pos = KD_FLAT_HDR;
	struct dk_kd_frec fr;
	enum dk_status st;

	if ((st = dk_pnote_head(s, e, DK_PN_RECORDS, kp_rec_size(k),
	    err)) != DK_OK ||
	    (st = dk_sink_copy(s, &d->src, 0, KD_FLAT_HDR, err)) != DK_OK)
		return st;
	enc_uint(b, 8, e, k->flat_size);
	enc_uint(b + 8, 8, e, k->nrec);
	if ((st = dk_sink_write(s, b, 16, err)) != DK_OK)
		return st;
	for (uint64_t i = 0; i < k->nrec; i++) {
		if (dk_kd_flat_next(&d->src, d->src.name, i, &pos, &fr,
		    err) != 1)
			return err->code != DK_OK ? err->code :
			    dk_err_set(err, DK_ECORRUPT, "%s: the flattened "
			    "records changed", d->src.name);
		if ((st = dk_sink_copy(s, &d->src, fr.at, KD_FLAT_REC, err)) !=
		    DK_OK)
			return st;
	}
	for (size_t i = 0; i < k->nlost; i++) {
		enc_uint(b, 8, e, k->lost[i].off);
		enc_uint(b + 8, 8, e, k->lost[i].len);
		if ((st = dk_sink_write(s, b, 16, err)) != DK_OK ||
		    (st = dk_sink_copy(s, &d->src, k->lost[i].src_off,
		    k->lost[i].len, err)) != DK_OK ||
		    (st = dk_sink_zero(s, (k->lost[i].len + 7) / 8 * 8 -
		    k->lost[i].len, err)) != DK_OK)
			return st;
	}
	return DK_OK;
}

/* The source header's bytes of a flattened file, through its records. */
static enum dk_status
kp_copy_head(struct dk_dump *d, const struct kp_state *k, struct dk_sink *s,
    struct dk_err *err)
{
	uint8_t *buf;
	enum dk_status st = DK_OK;

	if ((buf = malloc(KD_MAX_BLOCK)) == NULL)
		return dk_err_set(err, DK_ENOMEM, "out of memory");
	for (uint64_t at = 0; st == DK_OK && at < k->hlen; ) {
		size_t n = k->hlen - at < KD_MAX_BLOCK ? (size_t)(k->hlen -
		    at) : KD_MAX_BLOCK;

		if ((st = dk_kd_part_read(d, 0, buf, n, at, err)) == DK_OK)
			st = dk_sink_write(s, buf, n, err);
		at += n;
	}
	free(buf);
	return st;
}

/* The source header note. */
static enum dk_status
kp_head_note(struct dk_dump *d, const struct kp_state *k, struct dk_sink *s,
    struct dk_err *err)
{
	enum dk_status st;

	if (!k->flat || dk_is_portable(d))
		return dk_pnote_copy(s, d, DK_PN_SOURCE_HEADER, k->hoff, k->hlen,
		    err);
	if ((st = dk_pnote_head(s, d->arch->endian, DK_PN_SOURCE_HEADER,
	    k->hlen, err)) != DK_OK || (st = kp_copy_head(d, k, s, err)) !=
	    DK_OK)
		return st;
	return dk_sink_zero(s, (k->hlen + 3) / 4 * 4 - k->hlen, err);
}

static uint64_t
kp_notes_size(const struct dk_dump *d, const struct dk_plan *pl)
{
	struct dk_err e2;
	struct kp_state *k = kp((struct dk_dump *)d, &e2);
	uint64_t n = 0;

	(void)pl;
	if (k == NULL)
		return 0;
	(void)kp_elf_notes((struct dk_dump *)d, k, NULL, &n, &e2);
	return dk_pnote_size(k->hlen) + dk_pnote_size(kp_nenc(k) *
	    KP_ENC_ENTRY + KP_ENC_TAIL) + (k->flat ?
	    dk_pnote_size(kp_rec_size(k)) : 0) + n;
}

static enum dk_status
kp_notes(struct dk_dump *d, const struct dk_plan *pl, struct dk_sink *s,
    struct dk_err *err)
{
	struct kp_state *k = kp(d, err);
	enum dk_endian e = d->arch->endian;
	uint8_t b[4 * KP_ENC_ENTRY + KP_ENC_TAIL] = { 0 };
	uint64_t n = 0, len;
	enum dk_status st;

	(void)pl;
	if (k == NULL)
		return err->code;
	if ((st = kp_head_note(d, k, s, err)) != DK_OK)
		return st;
	for (int ci = 0; ci < 4; ci++) {
		if (k->enc[ci].codec == 0)
			continue;
		enc_uint(b + n * KP_ENC_ENTRY, 4, e, k->enc[ci].codec);
		enc_uint(b + n * KP_ENC_ENTRY + 4, 4, e, k->enc[ci].encoder);
		enc_uint(b + n * KP_ENC_ENTRY + 8, 4, e,
		    (uint32_t)k->enc[ci].level);
		n++;
	}
	enc_uint(b + n * KP_ENC_ENTRY, 8, e, k->size);
	enc_uint(b + n * KP_ENC_ENTRY + 8, 4, e, k->crc);
	len = n * KP_ENC_ENTRY + KP_ENC_TAIL;
	if ((st = dk_pnote_head(s, e, DK_PN_ENCODERS, len, err)) != DK_OK ||
	    (st = dk_sink_write(s, b, (size_t)len, err)) != DK_OK)
		return st;
	if (k->flat && dk_is_portable(d))
		st = dk_pnote_copy(s, d, DK_PN_RECORDS, k->roff,
		    kp_rec_size(k), err);
	else if (k->flat)
		st = kp_rec_note(d, k, s, err);
	if (st != DK_OK)
		return st;
	return kp_elf_notes(d, k, s, &n, err);
}

/* The held pages decoded, in PFN order; pages of zeros as holes. */
static enum dk_status
kp_data(struct dk_dump *d, const struct dk_plan *pl, struct dk_sink *s,
    struct dk_err *err)
{
	struct dk_run_iter it = { 0 };
	struct dk_run r;
	uint64_t ps = d->page_size;
	uint8_t *page;
	enum dk_status st = DK_OK;

	(void)pl;
	if ((page = malloc((size_t)ps)) == NULL)
		return dk_err_set(err, DK_ENOMEM, "out of memory");
	while (st == DK_OK && dk_kd_held_next(d, &it, &r, 0))
		for (uint64_t x = 0; st == DK_OK && x < r.len; x += ps) {
			if ((st = dk_read_pa(d, r.pa + x, page, (size_t)ps,
			    err)) != DK_OK)
				break;
			st = dk_all_zero(page, (size_t)ps) ? dk_sink_zero(s, ps,
			    err) : dk_sink_write(s, page, (size_t)ps, err);
		}
	free(page);
	return st;
}

/* A physical PT_LOAD's p_vaddr: the direct map's, as --to elf's. */
static uint64_t
kp_pvaddr(const struct dk_dump *d, uint64_t pa)
{
	const char *why;
	uint64_t dm = dk_vmw_direct_map(d, &why);

	return dm != 0 ? dm + pa : 0;
}

/* ---------------------------------------------------------------------- */
/* The way back.                                                           */

/*
 * The native file (a flattened source's image): the source header, then
 * each descriptor's page not yet written at its offset (re-encoded, or
 * as it is), zeros between, up to the file's size; the residue over all
 * of it.
 */
static enum dk_status
kp_image(struct dk_dump *d, struct dk_sink *s, const struct dk_plan *pl,
    struct dk_err *err)
{
	struct kp_state *k = kp(d, err);
	struct dk_kd_stored sp = { 0 };
	struct dk_kd_encoder *enc = NULL;
	uint8_t *page = NULL;
	uLong crc = crc32(0, NULL, 0);
	size_t ri = 0;
	enum dk_status st;
	int got;

	if (k == NULL)
		return err->code;
	if (!k->chosen && !dk_is_portable(d))
		return dk_err_set(err, DK_EINVAL, "%s: no encoders chosen",
		    d->src.name);
	st = k->flat && !dk_is_portable(d) ? kp_copy_head(d, k, s, err) :
	    dk_plan_emit(s, d, pl, &ri, k->hoff, k->hlen, err);
	if (st != DK_OK)
		return st;
	if ((page = malloc((size_t)d->page_size)) == NULL ||
	    (enc = dk_kd_encoder_new()) == NULL) {
		st = dk_err_set(err, DK_ENOMEM, "out of memory");
		goto out;
	}
	while ((got = dk_kd_desc_next(d, &sp, err)) == 1) {
		const struct dk_presidue *rr;
		const uint8_t *o = page;
		size_t n;
		int ci = 0;

		if (sp.codec == UINT32_MAX || sp.off + sp.size <= s->pos)
			continue;		/* not a page; written already */
		if (sp.off < s->pos) {		/* its tail is the residue's */
			if ((st = dk_plan_emit(s, d, pl, &ri, UINT64_MAX,
			    sp.off + sp.size - s->pos, err)) != DK_OK)
				goto out;
			continue;
		}
		if ((st = dk_plan_emit(s, d, pl, &ri, UINT64_MAX, sp.off -
		    s->pos, err)) != DK_OK)
			goto out;
		while (ri < pl->nres && pl->res[ri].off + pl->res[ri].len <=
		    sp.off)
			ri++;
		rr = ri < pl->nres ? &pl->res[ri] : NULL;
		if (rr != NULL && rr->off <= sp.off && rr->off + rr->len >=
		    sp.off + sp.size) {		/* the page is residue */
			st = dk_plan_emit(s, d, pl, &ri, UINT64_MAX, sp.size,
			    err);
			if (st != DK_OK)
				goto out;
			continue;
		}
		if ((st = dk_read_pa(d, sp.pfn * sp.block, page,
		    (size_t)sp.block, err)) != DK_OK)
			goto out;
		n = (size_t)sp.block;
		if (sp.codec != 0) {
			ci = dk_kd_codec_index(sp.codec);
			if (k->enc[ci].codec == 0) {
				st = dk_err_set(err, DK_ECORRUPT, "%s: PFN %#jx "
				    "is stored with %s, for which the encoders "
				    "note names no encoder", d->src.name,
				    (uintmax_t)sp.pfn,
				    dk_kd_codec_name(sp.codec));
				goto out;
			}
			n = dk_kd_encode(enc, &k->enc[ci], page,
			    (size_t)sp.block, &o);
		}
		if (n != sp.size) {
			st = dk_err_set(err, DK_ECORRUPT, "%s: PFN %#jx: %s "
			    "gives %zu bytes where its descriptor says %ju: "
			    "the encoders note or the page data is damaged",
			    d->src.name, (uintmax_t)sp.pfn, sp.codec == 0 ?
			    "the page" : dk_kd_encoder_name(&k->enc[ci]), n,
			    (uintmax_t)sp.size);
			goto out;
		}
		crc = crc32(crc, o, (uInt)n);
		if ((st = dk_sink_write(s, o, n, err)) != DK_OK)
			goto out;
	}
	if (got < 0) {
		st = err->code;
		goto out;
	}
	if (s->pos > k->size) {
		st = dk_err_set(err, DK_ECORRUPT, "%s: the pages end at %#jx, "
		    "past the end of the kdump file at %#jx the encoders note "
		    "gives", d->src.name, (uintmax_t)s->pos,
		    (uintmax_t)k->size);
		goto out;
	}
	/* Before the tail (up to the note's size): a damage fails early. */
	if ((uint32_t)crc != k->crc) {
		st = dk_err_set(err, DK_ECORRUPT, "%s: the pages rebuilt have "
		    "CRC-32 %#010x, the encoders note says %#010x: the note or "
		    "the page data is damaged, and the file would not be the "
		    "source's", d->src.name, (unsigned)crc, (unsigned)k->crc);
		goto out;
	}
	st = dk_plan_emit(s, d, pl, &ri, UINT64_MAX, k->size - s->pos, err);
out:
	dk_kd_encoder_free(enc);
	free(page);
	return st;
}

/*
 * The next record header of the flattened stream (*i of k->nrec): where
 * d's file has its 16 bytes (natively the stream's own; from a portable
 * file the records note's), and its offset and size.
 */
static enum dk_status
kp_rec_at(struct dk_dump *d, const struct kp_state *k, uint64_t *pos,
    uint64_t i, struct dk_kd_frec *fr, struct dk_err *err)
{
	uint8_t b[KD_FLAT_REC];
	enum dk_status st;

	if (!dk_is_portable(d)) {
		if (dk_kd_flat_next(&d->src, d->src.name, i, pos, fr, err) == 1)
			return DK_OK;
		return err->code != DK_OK ? err->code : dk_err_set(err,
		    DK_ECORRUPT, "%s: the flattened records changed",
		    d->src.name);
	}
	fr->at = k->roff + KP_REC_HEAD + i * KD_FLAT_REC;
	if ((st = dk_src_pread(&d->src, b, sizeof(b), fr->at, "records note",
	    err)) != DK_OK)
		return st;
	fr->off = dec_be64(b);
	fr->size = dec_be64(b + 8);
	fr->end = fr->off == KD_FLAT_END && fr->size == KD_FLAT_END;
	return DK_OK;
}

/*
 * A flattened source: its image rebuilt into a temporary file, then the
 * stream: the 4096-byte header, each record's header and the image's
 * bytes at its offset (the last one cut where the stream was), with the
 * bytes later records overwrote written over them.
 */
static enum dk_status
kp_stream(struct dk_dump *d, struct dk_sink *s, const struct dk_plan *pl,
    const struct kp_state *k, struct dk_err *err)
{
	struct dk_plan lp;
	struct dk_sink ts;
	struct dk_src img;
	uint64_t pos = KD_FLAT_HDR;
	size_t ri = 0;
	enum dk_status st;
	int fd;

	if ((fd = dk_tmp_open(d->src.name, "the kdump file's image before "
	    "it is flattened", err)) < 0)
		return err->code;
	dk_sink_init(&ts, fd, "the temporary image");
	if ((st = kp_image(d, &ts, pl, err)) != DK_OK ||
	    (st = dk_sink_finish(&ts, err)) != DK_OK)
		goto out;
	memset(&img, 0, sizeof(img));
	img.fd = fd;
	img.size = k->size;
	img.name = "the temporary image";
	memset(&lp, 0, sizeof(lp));
	lp.res = k->lost;
	lp.nres = k->nlost;
	st = dk_plan_emit(s, d, &lp, &ri, dk_is_portable(d) ? k->roff : 0,
	    KD_FLAT_HDR, err);
	for (uint64_t i = 0; st == DK_OK && i < k->nrec; i++) {
		struct dk_kd_frec fr;
		uint64_t n;

		if ((st = kp_rec_at(d, k, &pos, i, &fr, err)) != DK_OK ||
		    (st = dk_plan_emit(s, d, &lp, &ri, fr.at, KD_FLAT_REC,
		    err)) != DK_OK || fr.end)
			break;
		n = fr.size;
		if (s->pos > k->flat_size || n > k->flat_size - s->pos)
			n = s->pos < k->flat_size ? k->flat_size - s->pos : 0;
		if (fr.off > k->size || n > k->size - fr.off) {
			st = dk_err_set(err, DK_ECORRUPT, "%s: flattened record "
			    "%ju: [%#jx, +%#jx) is past the end of the image at "
			    "%#jx: the records note is damaged", d->src.name,
			    (uintmax_t)i, (uintmax_t)fr.off, (uintmax_t)n,
			    (uintmax_t)k->size);
			break;
		}
		st = dk_plan_emit_from(s, &img, d, &lp, &ri, fr.off, n, err);
	}
	if (st == DK_OK && s->pos != k->flat_size)
		st = dk_err_set(err, DK_ECORRUPT, "%s: the flattened records "
		    "make %#jx bytes, the records note says %#jx: it is "
		    "damaged", d->src.name, (uintmax_t)s->pos,
		    (uintmax_t)k->flat_size);
out:
	close(fd);
	return st;
}

static enum dk_status
kp_rebuild(struct dk_dump *d, struct dk_sink *s, const struct dk_plan *pl,
    struct dk_err *err)
{
	struct kp_state *k = kp(d, err);

	if (k == NULL)
		return err->code;
	return k->flat ? kp_stream(d, s, pl, k, err) : kp_image(d, s, pl, err);
}

/* ---------------------------------------------------------------------- */
/* Reading a portable file.                                                */

/* The encoders note at off, descsz bytes, into k. */
static enum dk_status
kp_load_enc(struct dk_dump *d, const struct dk_pctx *c, struct kp_state *k,
    struct dk_err *err)
{
	const struct dk_pnote *en = &c->notes[DK_PN_ENCODERS];
	uint8_t b[4 * KP_ENC_ENTRY + KP_ENC_TAIL];
	uint64_t n;
	enum dk_status st;

	if (!en->seen || en->size < KP_ENC_TAIL || (en->size - KP_ENC_TAIL) %
	    KP_ENC_ENTRY != 0 || en->size > sizeof(b))
		return dk_err_at(err, DK_ECORRUPT, d->src.name, en->seen ?
		    en->off : c->noff, "expected an encoders note of 16 bytes "
		    "per codec (at most 4) and 16 more, found %s",
		    en->seen ? "one of another size" : "none");
	if ((st = dk_src_pread(&d->src, b, (size_t)en->size, en->off,
	    "encoders note", err)) != DK_OK)
		return st;
	n = (en->size - KP_ENC_TAIL) / KP_ENC_ENTRY;
	for (uint64_t i = 0; i < n; i++) {
		const uint8_t *q = b + i * KP_ENC_ENTRY;
		struct dk_kd_enc e = { (unsigned)dec_uint(q, 4, c->e),
		    (uint32_t)dec_uint(q + 4, 4, c->e),
		    (int32_t)(uint32_t)dec_uint(q + 8, 4, c->e) };
		int ci = dk_kd_codec_index(e.codec);

		if (ci < 0 || k->enc[ci].codec != 0 ||
		    dk_kd_encoder_name(&e) == NULL || dec_uint(q + 12, 4,
		    c->e) != 0)
			return dk_err_at(err, DK_ECORRUPT, d->src.name, en->off +
			    i * KP_ENC_ENTRY, "encoders note entry %ju: "
			    "expected a codec not named before and one of its "
			    "encoders at a level it has, found codec %#x, "
			    "encoder %u, level %d", (uintmax_t)i, e.codec,
			    (unsigned)e.encoder, (int)e.level);
		k->enc[ci] = e;
	}
	k->size = dec_uint(b + n * KP_ENC_ENTRY, 8, c->e);
	k->crc = (uint32_t)dec_uint(b + n * KP_ENC_ENTRY + 8, 4, c->e);
	if (k->size < k->hlen)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, en->off + n *
		    KP_ENC_ENTRY, "the kdump file's size %#jx: expected at "
		    "least its source header's %#jx bytes", (uintmax_t)k->size,
		    (uintmax_t)k->hlen);
	k->chosen = 1;
	return DK_OK;
}

/*
 * The records note (a flattened source): the stream's size and record
 * count, the record headers, the overwritten runs after them (ascending,
 * inside the stream).
 */
static enum dk_status
kp_load_rec(struct dk_dump *d, const struct dk_pctx *c, struct kp_state *k,
    struct dk_err *err)
{
	const struct dk_pnote *rn = &c->notes[DK_PN_RECORDS];
	uint8_t b[16];
	uint64_t at, end = rn->off + rn->size, prev = KD_FLAT_HDR;
	enum dk_status st;

	if (!rn->seen)
		return DK_OK;
	k->flat = 1;
	k->roff = rn->off;
	if (rn->size < KP_REC_HEAD || (st = dk_src_pread(&d->src, b, 16,
	    rn->off + KD_FLAT_HDR, "records note", err)) != DK_OK)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, rn->off,
		    "expected a records note of at least %u bytes, found %ju",
		    KP_REC_HEAD, (uintmax_t)rn->size);
	k->flat_size = dec_uint(b, 8, c->e);
	k->nrec = dec_uint(b + 8, 8, c->e);
	if (k->nrec > (rn->size - KP_REC_HEAD) / KD_FLAT_REC)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, rn->off +
		    KD_FLAT_HDR + 8, "the records note counts %ju records, it "
		    "has room for %ju", (uintmax_t)k->nrec, (uintmax_t)((rn->size -
		    KP_REC_HEAD) / KD_FLAT_REC));
	for (at = rn->off + KP_REC_HEAD + k->nrec * KD_FLAT_REC; at < end; ) {
		struct dk_presidue *n;
		uint64_t lo, len;

		if (end - at < 16 || (st = dk_src_pread(&d->src, b, 16, at,
		    "records note", err)) != DK_OK)
			return dk_err_at(err, DK_ECORRUPT, d->src.name, at,
			    "an overwritten run needs 16 bytes, the records "
			    "note has %ju left", (uintmax_t)(end - at));
		lo = dec_uint(b, 8, c->e);
		len = dec_uint(b + 8, 8, c->e);
		if (len == 0 || len > end - at - 16 || lo < prev ||
		    lo > k->flat_size || len > k->flat_size - lo ||
		    k->nlost >= KP_MAX_LOST_RUNS)
			return dk_err_at(err, DK_ECORRUPT, d->src.name, at,
			    "overwritten run [%#jx, +%#jx): expected one after "
			    "the last, inside the stream of %#jx bytes and the "
			    "note", (uintmax_t)lo, (uintmax_t)len,
			    (uintmax_t)k->flat_size);
		if ((n = realloc(k->lost, (k->nlost + 1) * sizeof(*n))) ==
		    NULL)
			return dk_err_set(err, DK_ENOMEM, "out of memory");
		k->lost = n;
		k->lost[k->nlost++] = (struct dk_presidue){ lo, len, at + 16 };
		k->lost_bytes += len;
		prev = lo + len;
		at += 16 + (len + 7) / 8 * 8;
	}
	return DK_OK;
}

static enum dk_status
kp_open(struct dk_dump *d, const struct dk_pctx *c, struct dk_err *err)
{
	const struct dk_pnote *hn = &c->notes[DK_PN_SOURCE_HEADER];
	uint64_t data;
	enum dk_decided by = d->info.arch_by;
	char why[sizeof(d->arch_why)];
	struct kp_state tmp, *k;
	struct dk_kd_map m;
	enum dk_status st;

	memset(&tmp, 0, sizeof(tmp));
	if (!hn->seen)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, c->noff,
		    "expected a source header note (the kdump file's bytes "
		    "up to the end of its page descriptors), found none");
	tmp.hoff = hn->off;
	tmp.hlen = hn->size;
	if ((st = kp_load_enc(d, c, &tmp, err)) != DK_OK ||
	    (st = kp_load_rec(d, c, &tmp, err)) != DK_OK) {
		free(tmp.lost);
		return st;
	}
	if ((st = dk_pdata_offset(d, c, &data, err)) != DK_OK) {
		free(tmp.lost);
		return st;
	}
	m = (struct dk_kd_map){ tmp.hoff, tmp.hlen, tmp.size, data };
	memcpy(why, d->arch_why, sizeof(why));
	st = dk_kd_open_mapped(d, &m, err);
	memcpy(d->arch_why, why, sizeof(why));
	d->info.arch_by = by;
	if (st == DK_OK && (k = kp(d, err)) == NULL)
		st = err->code;
	if (st != DK_OK) {
		free(tmp.lost);
		size_t l = strlen(err->msg);

		snprintf(err->msg + l, sizeof(err->msg) - l, " (reading the "
		    "kdump file whose first %#jx bytes are the source header "
		    "note at %#jx)", (uintmax_t)hn->size, (uintmax_t)hn->off);
		return st;
	}
	*k = tmp;
	if ((st = dk_popen_done(d, c, data, "the kdump file's headers",
	    "the kdump file's bitmaps and descriptors", err)) != DK_OK)
		return st;
	/* A portable file cut short: the pages past its end are not in it. */
	k->stored = d->info.npages_present;
	if (d->src.size - data < (k->stored << d->page_shift))
		d->info.npages_present = (d->src.size - data) >> d->page_shift;
	return DK_OK;
}

enum dk_status
dk_kd_portable_audit(struct dk_dump *d, struct dk_kd_audit *a,
    struct dk_err *err)
{
	struct kp_state *k = dk_kd_port(d);
	struct dk_kd_stored sp = { 0 };
	struct dk_kd_facts f;
	uint64_t end;
	int got;

	memset(a, 0, sizeof(*a));
	if (k == NULL || !dk_is_portable(d))
		return DK_OK;
	dk_kd_facts(d, &f);
	end = f.pdata + (k->stored << d->page_shift);
	if (d->src.size < end)
		a->cut = (end - d->src.size + d->page_size - 1) >>
		    d->page_shift;
	a->stored = k->stored;
	while ((got = dk_kd_desc_next(d, &sp, err)) == 1) {
		int ci = dk_kd_codec_index(sp.codec);

		if (sp.codec == UINT32_MAX || sp.codec == 0 ||
		    (ci >= 0 && k->enc[ci].codec != 0))
			continue;
		if (a->noenc++ == 0) {
			a->noenc_pfn = sp.pfn;
			a->noenc_codec = sp.codec;
		}
	}
	return got < 0 ? err->code : DK_OK;
}

const struct dk_portable dk_kd_portable = {
	.id		= 5,
	.name		= "kdump",
	.noun		= "kdump-compressed file",
	.row_ok		= kp_row_ok,
	.open		= kp_open,
	.extent		= kp_extent,
	.convertible	= kp_convertible,
	.residue	= kp_residue,
	.notes_size	= kp_notes_size,
	.notes		= kp_notes,
	.rebuild	= kp_rebuild,
	.prun_next	= kp_prun_next,
	.data		= kp_data,
	.pvaddr		= kp_pvaddr,
};
