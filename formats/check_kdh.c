/*
 * check_kdh.c -- dumpcheck's pass over a kerneldumpheader container
 * (FORMATS.md 3, 8): a dump-device image or a vmcore with a leading
 * header.
 *
 * Unlike the reader (fmt_kdh.c), which stops at the first broken rule,
 * this pass goes on: it reports every rule the headers break, with its
 * code and the file offset, and still hands the dump stream on to the
 * rest of the check wherever it can be placed (from the trailer when
 * the leader is damaged, clipped at the end of a truncated image).
 * Only what has no memory image stops it: an encrypted dump, a text
 * dump.
 *
 * A truncated device image has lost its trailer, and the trailer is
 * what says where the leader is; the leader is then looked for at each
 * 512-byte boundary of the first CKDH_SCAN_MAX bytes of a file that
 * starts with zeros (the kernel leaves 64 KiB untouched at the start of
 * the device, and puts the leader as late as the dump allows).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "checker.h"

#define	CKDH_SCAN_MAX	(64ull << 20)	/* bytes searched for a leader */
#define	CKDH_CHUNK	(1u << 20)
#define	CKDH_ZERO_HEAD	4096		/* zero bytes a searched file starts with */

struct pass {
	const struct dk_src	*src;
	struct dk_ck		*ck;
	char			 msg[384];
};

/*
 * What the pass found: found is 0 when the file is no kerneldumpheader
 * container; the window of the dump stream when the inner stream can be
 * checked, else stop and why (encrypted, text, no stream).
 */
struct kdh_check {
	int		 found;
	int		 stop;
	const char	*why;		/* when stop: in words */
	uint64_t	 stream_off, stream_size;
	struct dk_kdh_info info;
};

static const struct dk_check_code kdh_codes[] = {
	{ "kdh.parity", DK_SEV_ERROR,
	  "a kerneldumpheader's 128 words do not XOR to 0" },
	{ "kdh.leader-trailer-differ", DK_SEV_ERROR,
	  "the leader is not the trailer's copy (or is missing)" },
	{ "kdh.cleared", DK_SEV_WARNING,
	  "the trailer says \"Cleared Kernel Dump\": already saved" },
	{ "kdh.truncated", DK_SEV_ERROR,
	  "the device image ends before the dump its header declares" },
	{ "kdh.length-beyond-extent", DK_SEV_ERROR,
	  "dumplength past dumpextent (v3+) or past the trailer" },
	{ "kdh.field-range", DK_SEV_ERROR,
	  "a kerneldumpheader field outside its legal values" },
	{ "kdh.key-blob", DK_SEV_ERROR,
	  "the key blob of an encrypted dump is malformed" },
	{ "kdh.encrypted", DK_SEV_WARNING,
	  "an encrypted dump: its stream cannot be checked" },
	{ "kdh.text-not-tar", DK_SEV_ERROR,
	  "a text dump whose first block is not a ustar header" },
};

static void say(struct pass *, const char *, uint64_t, const char *, ...)
    __attribute__((format(printf, 4, 5)));

static void
say(struct pass *p, const char *code, uint64_t off, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(p->msg, sizeof(p->msg), fmt, ap);
	va_end(ap);
	dk_ck_emit(p->ck, code, off, "%s", p->msg);
}

static int
rd(const struct pass *p, void *buf, size_t len, uint64_t off)
{
	struct dk_err e;

	return off <= p->src->size && len <= p->src->size - off &&
	    dk_src_pread(p->src, buf, len, off, "kerneldumpheader", &e) ==
	    DK_OK;
}

/* File offset of field id in the header at lh. */
static uint64_t
field_at(const struct dk_kdh_info *k, uint64_t lh, unsigned id)
{
	const struct dk_field *f = dk_layout_find(dk_kdh_layout(k->version),
	    id, k->version);

	return f != NULL ? lh + f->off : lh;
}

/* Decode the header at off; 0 if no magic, -1 (reported) if unreadable. */
static int
decode_at(struct pass *p, uint64_t off, uint8_t *b, struct dk_kdh_info *k)
{
	struct dk_err e;

	if (!rd(p, b, DK_KDH_SIZE, off) || dk_kdh_magic(b) == 0)
		return 0;
	if (dk_kdh_decode(b, k, &e) != DK_OK) {
		say(p, "kdh.field-range", off + 32, "kerneldumpheader version: "
		    "expected 1 to 4, found %u", dec_be32(b + 32));
		return -1;
	}
	return 1;
}

/*
 * The leader at a 512-byte boundary of the start, for a lost trailer.
 * Only in a file whose first 4 KiB are zero, as the 64 KiB the kernel
 * never writes at the start of a device usually are: a dump's own pages
 * may hold a header (the kernel builds one in memory), and a minidump
 * or sparc64 dump, which start with their headers, are not searched.
 */
static int
scan_leader(struct pass *p, uint64_t *lh)
{
	uint64_t end = p->src->size < CKDH_SCAN_MAX ? p->src->size :
	    CKDH_SCAN_MAX;
	uint8_t *buf = malloc(CKDH_CHUNK);
	size_t head = end < CKDH_ZERO_HEAD ? (size_t)end : CKDH_ZERO_HEAD;
	int found = 0;

	if (buf == NULL)
		return 0;
	if (!rd(p, buf, head, 0) || head < CKDH_ZERO_HEAD ||
	    memcmp(buf, buf + 1, head - 1) != 0 || buf[0] != 0) {
		free(buf);
		return 0;
	}
	for (uint64_t off = 0; !found && off + DK_KDH_SIZE <= end;
	    off += CKDH_CHUNK) {
		size_t n = end - off < CKDH_CHUNK ? (size_t)(end - off) :
		    CKDH_CHUNK;

		if (!rd(p, buf, n, off))
			break;
		for (size_t i = 0; i + DK_KDH_SIZE <= n; i += DK_KDH_SIZE)
			if (dk_kdh_magic(buf + i) != 0 &&
			    dk_kdh_parity(buf + i) == 0) {
				*lh = off + i;
				found = 1;
				break;
			}
	}
	free(buf);
	return found;
}

/* The rules of one header (the leader, or the trailer standing in). */
static void
header_rules(struct pass *p, const uint8_t *b, const struct dk_kdh_info *k,
    uint64_t lh, int device)
{
	uint32_t x = dk_kdh_parity(b);

	if (x != 0)
		say(p, "kdh.parity", lh + 508, "kerneldumpheader parity: "
		    "expected the 128 words of the header at %#jx to XOR to 0, "
		    "found 0x%08x (parity field 0x%08x)", (uintmax_t)lh, x,
		    k->parity);
	if (k->version >= 3 && k->dumplength > k->dumpextent)
		say(p, "kdh.length-beyond-extent", field_at(k, lh,
		    DK_KDH_F_DUMPLENGTH), "expected dumplength <= dumpextent "
		    "(%#jx), found %#jx", (uintmax_t)k->dumpextent,
		    (uintmax_t)k->dumplength);
	if (k->compression > 2)
		say(p, "kdh.field-range", field_at(k, lh, DK_KDH_F_COMPRESSION),
		    "compression: expected 0 (none), 1 (gzip) or 2 (zstd), "
		    "found %u", k->compression);
	if (k->compression != 0 && k->encrypted)
		say(p, "kdh.field-range", field_at(k, lh, DK_KDH_F_DUMPKEYSIZE),
		    "compressed (%s) and encrypted (dumpkeysize %u) at once: "
		    "the kernel refuses that", dk_kdh_compression_name(
		    k->compression), k->dumpkeysize);
	if (device && (k->blocksize < DK_KDH_SIZE || k->blocksize >
	    DK_KDH_MAX_BLOCK || (k->blocksize & (k->blocksize - 1)) != 0))
		say(p, "kdh.field-range", field_at(k, lh, DK_KDH_F_BLOCKSIZE),
		    "blocksize: expected a power of two from 512 to %u, found "
		    "%u", DK_KDH_MAX_BLOCK, k->blocksize);
	if (k->magic == DK_KDH_TEXT && k->dumplength % DK_KDH_TEXT_BLOCK)
		say(p, "kdh.field-range", field_at(k, lh, DK_KDH_F_DUMPLENGTH),
		    "text dump: expected a dumplength multiple of 512, found "
		    "%#jx", (uintmax_t)k->dumplength);
}

/* The key blob of an encrypted dump. */
static void
key_rules(struct pass *p, const struct dk_kdh_info *k, uint64_t key)
{
	uint8_t kb[37];
	uint32_t eks;

	if (k->dumpkeysize < sizeof(kb) || !rd(p, kb, sizeof(kb), key)) {
		say(p, "kdh.key-blob", key, "key blob: expected a struct "
		    "kerneldumpkey (37 bytes and the key) in %u bytes",
		    k->dumpkeysize);
		return;
	}
	eks = dec_be32(kb + 33);
	if (kb[0] == 0 || kb[0] > 2)
		say(p, "kdh.key-blob", key, "key blob: expected kdk_encryption "
		    "1 (AES-256-CBC) or 2 (ChaCha20), found %u", kb[0]);
	else if (eks > k->dumpkeysize - sizeof(kb))
		say(p, "kdh.key-blob", key + 33, "key blob: "
		    "kdk_encryptedkeysize %u does not fit in dumpkeysize %u",
		    eks, k->dumpkeysize);
}

/* The first tar block of a text dump (just before the trailer). */
static void
text_rules(struct pass *p, const struct dk_kdh_info *k, uint64_t end)
{
	uint8_t h[512];
	unsigned sum = 0, want;
	char num[9];

	if (k->dumplength < sizeof(h) || !rd(p, h, sizeof(h), end - 512))
		return;
	memcpy(num, h + 148, 8);
	num[8] = '\0';
	memset(h + 148, ' ', 8);
	for (size_t i = 0; i < sizeof(h); i++)
		sum += h[i];
	want = (unsigned)strtoul(num, NULL, 8);
	if (memcmp(h + 257, "ustar", 5) != 0 || want != sum)
		say(p, "kdh.text-not-tar", end - 512, "text dump: expected a "
		    "ustar header (checksum %o) in the block before the "
		    "trailer, found %s", sum, memcmp(h + 257, "ustar", 5) ?
		    "no ustar magic" : "a wrong checksum");
}

/* The container in ck->src: its rules, and where its stream is. */
static void
kdh_scan(struct dk_ck *ck, struct kdh_check *out)
{
	const struct dk_src *src = &ck->src;
	struct pass p = { src, ck, "" };
	uint8_t tb[DK_KDH_SIZE], lb[DK_KDH_SIZE];
	struct dk_kdh_info t, l, *k;
	uint64_t th = UINT64_MAX, lh = UINT64_MAX, data = 0, end;
	enum dk_kdh_placement pl = DK_KDH_LEADING;
	int r, have_l = 0;

	memset(out, 0, sizeof(*out));
	/* The trailer: the last block, or the last 512 bytes. */
	for (uint64_t bs = DK_KDH_SIZE; th == UINT64_MAX && bs <=
	    DK_KDH_MAX_BLOCK && bs <= src->size; bs <<= 1) {
		if ((r = decode_at(&p, src->size - bs, tb, &t)) < 0) {
			out->found = out->stop = 1;
			out->why = "the trailer's version is unknown";
			return;
		}
		if (r == 0 || (t.blocksize != bs && bs != DK_KDH_SIZE))
			continue;
		th = src->size - bs;
	}
	if (th != UINT64_MAX) {
		uint64_t first = UINT64_MAX, fdata = 0;

		for (int i = DK_KDH_DEVICE; !have_l && i <= DK_KDH_DEVICE_OLD;
		    i++) {
			enum dk_kdh_placement q = (enum dk_kdh_placement)i;
			uint64_t c, cd;

			if ((q == DK_KDH_DEVICE && t.blocksize !=
			    src->size - th) || (q == DK_KDH_DEVICE_OLD &&
			    src->size - th != DK_KDH_SIZE) ||
			    !dk_kdh_leader_at(&t, th, q, &c, &cd))
				continue;
			if (first == UINT64_MAX) {
				first = c;
				fdata = cd;
				pl = q;
			}
			if (decode_at(&p, c, lb, &l) == 1 &&
			    dk_kdh_differ(lb, tb) < 0) {
				have_l = 1;
				lh = c;
				data = cd;
				pl = q;
			}
		}
		if (!have_l && first == UINT64_MAX) {
			/* Nothing fits: the image is shorter than declared. */
			say(&p, "kdh.truncated", th, "the trailer declares "
			    "dumplength %#jx (extent %#jx, key %u bytes): "
			    "expected the leader and the dump before it, but "
			    "the image starts %#jx bytes before it",
			    (uintmax_t)t.dumplength, (uintmax_t)t.dumpextent,
			    t.dumpkeysize, (uintmax_t)th);
			out->found = out->stop = 1;
			out->why = "the dump does not fit in the image";
			out->info = t;
			return;
		}
		if (!have_l) {
			int i = 0;

			r = decode_at(&p, first, lb, &l);
			if (r == 1 && (i = dk_kdh_differ(lb, tb)) < 0)
				i = 0;
			if (r == 1)
				say(&p, "kdh.leader-trailer-differ",
				    first + (uint64_t)i, "leader and trailer "
				    "differ: expected 0x%02x (the trailer's "
				    "byte %d, at %#jx), found 0x%02x", tb[i],
				    i, (uintmax_t)(th + (uint64_t)i), lb[i]);
			else
				say(&p, "kdh.leader-trailer-differ", first,
				    "expected a leader equal to the trailer at "
				    "%#jx, found no kerneldumpheader magic",
				    (uintmax_t)th);
			/* Go on with the trailer's word for the geometry. */
			lh = first;
			data = fdata;
		}
		/* A cleared trailer keeps the parity of the uncleared one. */
		if (dk_kdh_magic(tb) == DK_KDH_CLEARED)
			say(&p, "kdh.cleared", th, "the trailer says \"Cleared "
			    "Kernel Dump\": savecore has already saved this "
			    "dump");
		if (!have_l && dk_kdh_parity(tb) != 0)
			say(&p, "kdh.parity", th + 508, "kerneldumpheader "
			    "parity: expected the 128 words of the trailer at "
			    "%#jx to XOR to 0, found 0x%08x", (uintmax_t)th,
			    dk_kdh_parity(tb));
	} else if ((r = decode_at(&p, 0, lb, &l)) != 0 ||
	    scan_leader(&p, &lh)) {
		if (r < 0) {
			out->found = out->stop = 1;
			out->why = "the leader's version is unknown";
			return;
		}
		if (r == 0 && decode_at(&p, lh, lb, &l) != 1)
			return;
		if (r == 1)
			lh = 0;
		have_l = 1;
		/* A device image whose leader is not at 0 lost its end. */
		pl = lh == 0 ? DK_KDH_LEADING : DK_KDH_DEVICE;
		data = lh + (pl == DK_KDH_LEADING ? DK_KDH_SIZE :
		    l.blocksize) + l.dumpkeysize;
	} else
		return;
	out->found = 1;
	k = have_l ? &l : &t;
	header_rules(&p, have_l ? lb : tb, k, lh, pl != DK_KDH_LEADING);
	end = th != UINT64_MAX ? th : src->size;
	if ((data > end || k->dumplength > end - data) && !(k->version >= 3 &&
	    k->dumplength > k->dumpextent)) {
		if (th != UINT64_MAX)
			say(&p, "kdh.length-beyond-extent", field_at(k, lh,
			    DK_KDH_F_DUMPLENGTH), "dumplength %#jx from %#jx: "
			    "expected to end by the trailer at %#jx",
			    (uintmax_t)k->dumplength, (uintmax_t)data,
			    (uintmax_t)th);
		else
			say(&p, "kdh.truncated", src->size, "the header at "
			    "%#jx declares %#jx bytes of dump from %#jx%s, "
			    "but the image ends at %#jx", (uintmax_t)lh,
			    (uintmax_t)k->dumplength, (uintmax_t)data,
			    pl == DK_KDH_LEADING ? "" : " and a trailer "
			    "after them", (uintmax_t)src->size);
	}
	k->placement = pl;
	k->leader_offset = lh;
	k->trailer_offset = th;
	k->dump_offset = data;
	k->cleared = th != UINT64_MAX && dk_kdh_magic(tb) == DK_KDH_CLEARED;
	out->info = *k;
	out->stream_off = data < end ? data : end;
	out->stream_size = k->dumplength < end - out->stream_off ?
	    k->dumplength : end - out->stream_off;
	if (k->encrypted) {
		k->key_offset = lh + (pl == DK_KDH_DEVICE ? k->blocksize :
		    DK_KDH_SIZE);
		key_rules(&p, k, k->key_offset);
		say(&p, "kdh.encrypted", lh, "an encrypted dump (key blob of "
		    "%u bytes): its stream cannot be checked without the "
		    "private key (decryptcore(8))", k->dumpkeysize);
		out->stop = 1;
		out->why = "the dump is encrypted";
	} else if (k->magic == DK_KDH_TEXT) {
		text_rules(&p, k, end);
		out->stop = 1;
		out->why = "a text dump holds no memory image";
	}
	out->info = *k;
}

/*
 * A kerneldumpheader container: its findings; then the dump stream
 * inside, a window of the same file, is what the rest of the engine
 * checks (its offsets turned back into file offsets), unless there is
 * none to check (encrypted, text).
 */
static enum dk_status
kdh_check(struct dk_ck *c, struct dk_err *err)
{
	struct kdh_check k;

	(void)err;
	kdh_scan(c, &k);
	if (!k.found)
		return DK_OK;
	if (k.stop) {
		c->stop = 1;
		c->res->examined = 1;
		c->res->format = "kerneldumpheader";
		c->res->version = k.info.version;
		dk_ck_emit(c, "check.incomplete", DK_CK_NOOFF, "the dump "
		    "stream was not checked: %s", k.why);
		return DK_OK;
	}
	c->inner = 1;
	c->src.base += k.stream_off;
	c->src.size = k.stream_size;
	c->off_shift += k.stream_off;
	return DK_OK;
}

/* What the containers table's kerneldumpheader row gives dumpcheck. */
const struct dk_format_check dk_kdh_ck = {
	.check		= kdh_check,
	.codes		= kdh_codes,
	.ncodes		= DK_ARRAY_LEN(kdh_codes),
};
