/*
 * fmt_kdh.c -- struct kerneldumpheader and the containers it makes
 * (FORMATS.md 3): a raw image of the dump device, and a saved vmcore
 * that starts with one header (old savecore, netdumpd, the powerpc
 * libkvm path).
 *
 * The header is 512 bytes in every version, its integers big-endian on
 * every machine, and its 128 32-bit words XOR to 0 (the parity field
 * makes them).  On the device the kernel writes
 *
 *	current (v2+):	... | leader | key | extent ........ | trailer |
 *			     1 block  keysize  dump at its start  1 block
 *	old (v1 era):	... | leader | dump ........ | trailer |
 *			     512 bytes                 512 bytes, at the end
 *
 * savecore finds the trailer in the device's last block, computes where
 * the leader must be, and wants the two equal byte for byte.  After
 * saving it rewrites the trailer's magic as "Cleared Kernel Dump",
 * leaving the parity as it was: a cleared trailer is compared with its
 * magic put back.  A text dump's tar is written in 512-byte blocks
 * backwards, ending just before the trailer.
 *
 * The container layer hands the dump stream on as a window of the same
 * file (dk_src.base): nothing is copied.  Text dumps and encrypted dumps
 * have no memory image to hand on: open refuses them, with a message
 * saying what they are; dk_textdump_write() puts a text dump's tar in
 * order, dk_kdh_read() reports any header.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bytes.h"
#include "private.h"

#define	KDH_MAGIC_LEN		20
#define	KDH_KEY_HDR		37	/* struct kerneldumpkey, packed */
#define	KDH_ENC_MAX		2	/* KERNELDUMP_ENC_CHACHA20 */
#define	KDH_COMP_MAX		2	/* KERNELDUMP_COMP_ZSTD */
#define	KDH_TEXT_CHUNK		(64u << 10)

/* ---------------------------------------------------------------------- */
/* Layouts, one table per version (sys/sys/kerneldump.h over the years).   */

#define	KDH_ROW_HEAD(v)							\
	{ "magic", 0, 20, DK_FK_CHARS, DK_KDH_F_MAGIC, DK_V(v),		\
	  "char[20]", "\"FreeBSD Kernel Dump\", \"FreeBSD Text Dump\" "	\
	  "or \"Cleared Kernel Dump\", NUL-padded" },			\
	{ "architecture", 20, 12, DK_FK_CHARS, DK_KDH_F_ARCHITECTURE,	\
	  DK_V(v), "char[12]", "MACHINE_ARCH of the kernel" },		\
	{ "version", 32, 4, DK_FK_UINT, DK_KDH_F_VERSION, DK_V(v),	\
	  "uint32_t", "header version" },				\
	{ "architectureversion", 36, 4, DK_FK_UINT,			\
	  DK_KDH_F_ARCHVERSION, DK_V(v), "uint32_t",			\
	  "KERNELDUMP_<ARCH>_VERSION" },				\
	{ "dumplength", 40, 8, DK_FK_UINT, DK_KDH_F_DUMPLENGTH,		\
	  DK_V(v), "uint64_t", "bytes of dump data, headers excluded" }

#define	KDH_ROW_PARITY(v)						\
	{ "parity", 508, 4, DK_FK_UINT, DK_KDH_F_PARITY, DK_V(v),	\
	  "uint32_t", "makes the XOR of the 128 32-bit words 0" }

static const struct dk_field kdh_v1[] = {
	KDH_ROW_HEAD(1),
	{ "dumptime", 48, 8, DK_FK_UINT, DK_KDH_F_DUMPTIME, DK_V(1), "uint64_t",
	  "seconds since the epoch" },
	{ "blocksize", 56, 4, DK_FK_UINT, DK_KDH_F_BLOCKSIZE, DK_V(1),
	  "uint32_t", "sector size of the dump device" },
	{ "hostname", 60, 64, DK_FK_CHARS, DK_KDH_F_HOSTNAME, DK_V(1),
	  "char[64]", "hostname" },
	{ "versionstring", 124, 192, DK_FK_CHARS, DK_KDH_F_VERSIONSTRING,
	  DK_V(1), "char[192]", "the kernel's version string" },
	{ "panicstring", 316, 192, DK_FK_CHARS, DK_KDH_F_PANICSTRING, DK_V(1),
	  "char[192]", "the panic message" },
	KDH_ROW_PARITY(1),
};

static const struct dk_field kdh_v2[] = {
	KDH_ROW_HEAD(2),
	{ "dumptime", 48, 8, DK_FK_UINT, DK_KDH_F_DUMPTIME, DK_V(2), "uint64_t",
	  "seconds since the epoch" },
	{ "dumpkeysize", 56, 4, DK_FK_UINT, DK_KDH_F_DUMPKEYSIZE, DK_V(2),
	  "uint32_t", "bytes of the key blob after the leader (0: plain)" },
	{ "blocksize", 60, 4, DK_FK_UINT, DK_KDH_F_BLOCKSIZE, DK_V(2),
	  "uint32_t", "sector size of the dump device" },
	{ "hostname", 64, 64, DK_FK_CHARS, DK_KDH_F_HOSTNAME, DK_V(2),
	  "char[64]", "hostname" },
	{ "versionstring", 128, 192, DK_FK_CHARS, DK_KDH_F_VERSIONSTRING,
	  DK_V(2), "char[192]", "the kernel's version string" },
	{ "panicstring", 320, 188, DK_FK_CHARS, DK_KDH_F_PANICSTRING, DK_V(2),
	  "char[188]", "the panic message" },
	KDH_ROW_PARITY(2),
};

static const struct dk_field kdh_v3[] = {
	KDH_ROW_HEAD(3),
	{ "dumpextent", 48, 8, DK_FK_UINT, DK_KDH_F_DUMPEXTENT, DK_V(3),
	  "uint64_t", "bytes reserved between the headers" },
	{ "dumptime", 56, 8, DK_FK_UINT, DK_KDH_F_DUMPTIME, DK_V(3), "uint64_t",
	  "seconds since the epoch" },
	{ "dumpkeysize", 64, 4, DK_FK_UINT, DK_KDH_F_DUMPKEYSIZE, DK_V(3),
	  "uint32_t", "bytes of the key blob after the leader (0: plain)" },
	{ "blocksize", 68, 4, DK_FK_UINT, DK_KDH_F_BLOCKSIZE, DK_V(3),
	  "uint32_t", "sector size of the dump device" },
	{ "compression", 72, 1, DK_FK_UINT, DK_KDH_F_COMPRESSION, DK_V(3),
	  "uint8_t", "0 none, 1 gzip, 2 zstd" },
	{ "hostname", 73, 64, DK_FK_CHARS, DK_KDH_F_HOSTNAME, DK_V(3),
	  "char[64]", "hostname" },
	{ "versionstring", 137, 192, DK_FK_CHARS, DK_KDH_F_VERSIONSTRING,
	  DK_V(3), "char[192]", "the kernel's version string" },
	{ "panicstring", 329, 179, DK_FK_CHARS, DK_KDH_F_PANICSTRING, DK_V(3),
	  "char[179]", "the panic message" },
	KDH_ROW_PARITY(3),
};

static const struct dk_field kdh_v4[] = {
	KDH_ROW_HEAD(4),
	{ "dumptime", 48, 8, DK_FK_UINT, DK_KDH_F_DUMPTIME, DK_V(4), "uint64_t",
	  "seconds since the epoch" },
	{ "dumpkeysize", 56, 4, DK_FK_UINT, DK_KDH_F_DUMPKEYSIZE, DK_V(4),
	  "uint32_t", "bytes of the key blob after the leader (0: plain)" },
	{ "blocksize", 60, 4, DK_FK_UINT, DK_KDH_F_BLOCKSIZE, DK_V(4),
	  "uint32_t", "sector size of the dump device" },
	{ "hostname", 64, 64, DK_FK_CHARS, DK_KDH_F_HOSTNAME, DK_V(4),
	  "char[64]", "hostname" },
	{ "versionstring", 128, 192, DK_FK_CHARS, DK_KDH_F_VERSIONSTRING,
	  DK_V(4), "char[192]", "the kernel's version string" },
	{ "panicstring", 320, 175, DK_FK_CHARS, DK_KDH_F_PANICSTRING, DK_V(4),
	  "char[175]", "the panic message" },
	{ "compression", 495, 1, DK_FK_UINT, DK_KDH_F_COMPRESSION, DK_V(4),
	  "uint8_t", "0 none, 1 gzip, 2 zstd" },
	{ "dumpextent", 496, 8, DK_FK_UINT, DK_KDH_F_DUMPEXTENT, DK_V(4),
	  "uint64_t", "bytes reserved between the headers" },
	{ "unused", 504, 4, DK_FK_PAD, DK_H_PAD, DK_V(4), "char[4]",
	  "declared unused field, zero" },
	KDH_ROW_PARITY(4),
};

static const struct dk_layout kdh_layouts[] = {
	{ "kerneldumpheader-v1", kdh_v1, DK_ARRAY_LEN(kdh_v1) },
	{ "kerneldumpheader-v2", kdh_v2, DK_ARRAY_LEN(kdh_v2) },
	{ "kerneldumpheader-v3", kdh_v3, DK_ARRAY_LEN(kdh_v3) },
	{ "kerneldumpheader-v4", kdh_v4, DK_ARRAY_LEN(kdh_v4) },
};

const struct dk_layout *
dk_kdh_layout_at(size_t i)
{
	return i < DK_ARRAY_LEN(kdh_layouts) ? &kdh_layouts[i] : NULL;
}

const struct dk_layout *
dk_kdh_layout(unsigned version)
{
	return version >= 1 && version <= DK_ARRAY_LEN(kdh_layouts) ?
	    &kdh_layouts[version - 1] : NULL;
}

/* ---------------------------------------------------------------------- */
/* One header.                                                             */

static const struct {
	const char		*magic;
	enum dk_kdh_magic	 kind;
	const char		*name;
} magics[] = {
	{ "FreeBSD Kernel Dump", DK_KDH_KERNEL, "kernel" },
	{ "FreeBSD Text Dump", DK_KDH_TEXT, "text" },
	{ "Cleared Kernel Dump", DK_KDH_CLEARED, "cleared" },
};

/* The magic at b, compared with its NUL padding; 0 if none. */
int
dk_kdh_magic(const uint8_t *b)
{
	for (size_t i = 0; i < DK_ARRAY_LEN(magics); i++) {
		char want[KDH_MAGIC_LEN] = { 0 };

		memcpy(want, magics[i].magic, strlen(magics[i].magic));
		if (memcmp(b, want, KDH_MAGIC_LEN) == 0)
			return (int)i + 1;
	}
	return 0;
}

uint32_t
dk_kdh_parity(const uint8_t *b)
{
	uint32_t x = 0;

	/* Word order is irrelevant to XOR; read them big-endian. */
	for (size_t i = 0; i < DK_KDH_SIZE; i += 4)
		x ^= dec_be32(b + i);
	return x;
}

DK_EXPORT const char *
dk_kdh_compression_name(uint32_t c)
{
	static const char *const names[] = { "none", "gzip", "zstd" };

	return c < DK_ARRAY_LEN(names) ? names[c] : "?";
}

enum dk_status
dk_kdh_decode(const uint8_t *b, struct dk_kdh_info *out,
    struct dk_err *err)
{
	const struct dk_layout *l;
	struct dk_hdr h;
	int m = dk_kdh_magic(b);
	uint32_t v;

	memset(out, 0, sizeof(*out));
	if (m == 0)
		return DK_NOMATCH;
	out->magic = magics[m - 1].kind;
	out->magic_name = magics[m - 1].name;
	v = dec_be32(b + 32);
	if ((l = dk_kdh_layout(v)) == NULL)
		return dk_err_off(err, DK_EUNSUP, 32, "offset 32: "
		    "kerneldumpheader version: expected 1 to 4, found %u "
		    "(0x%08x)", v, v);
	dk_layout_decode(l, v, b, DK_BE, &h);
	out->version = v;
	memcpy(out->architecture, h.s[DK_KDH_F_ARCHITECTURE],
	    sizeof(out->architecture) - 1);
	memcpy(out->hostname, h.s[DK_KDH_F_HOSTNAME],
	    sizeof(out->hostname) - 1);
	memcpy(out->versionstring, h.s[DK_KDH_F_VERSIONSTRING],
	    sizeof(out->versionstring) - 1);
	memcpy(out->panicstring, h.s[DK_KDH_F_PANICSTRING],
	    sizeof(out->panicstring) - 1);
	out->architectureversion = (uint32_t)h.v[DK_KDH_F_ARCHVERSION];
	out->dumplength = h.v[DK_KDH_F_DUMPLENGTH];
	out->dumptime = h.v[DK_KDH_F_DUMPTIME];
	out->blocksize = (uint32_t)h.v[DK_KDH_F_BLOCKSIZE];
	out->dumpkeysize = (uint32_t)h.v[DK_KDH_F_DUMPKEYSIZE];
	out->dumpextent = DK_H_HAS(&h, DK_KDH_F_DUMPEXTENT) ?
	    h.v[DK_KDH_F_DUMPEXTENT] : h.v[DK_KDH_F_DUMPLENGTH];
	out->compression = (uint32_t)h.v[DK_KDH_F_COMPRESSION];
	out->encrypted = out->dumpkeysize > 0;
	out->parity = (uint32_t)h.v[DK_KDH_F_PARITY];
	out->leader_offset = out->key_offset = out->dump_offset =
	    out->trailer_offset = UINT64_MAX;
	out->placement_name = "not located";
	return DK_OK;
}

void
dk_kdh_encode(const struct dk_kdh_info *in, uint8_t *b)
{
	const struct dk_layout *l = dk_kdh_layout(in->version);
	struct dk_hdr h;
	struct dk_err err;
	int m = 0;

	memset(b, 0, DK_KDH_SIZE);
	if (l == NULL)
		return;
	memset(&h, 0, sizeof(h));
	for (size_t i = 0; i < DK_ARRAY_LEN(magics); i++)
		if (magics[i].kind == in->magic)
			m = (int)i;
	snprintf(h.s[DK_KDH_F_MAGIC], sizeof(h.s[0]), "%s", magics[m].magic);
	snprintf(h.s[DK_KDH_F_ARCHITECTURE], sizeof(h.s[0]), "%s",
	    in->architecture);
	snprintf(h.s[DK_KDH_F_HOSTNAME], sizeof(h.s[0]), "%s", in->hostname);
	snprintf(h.s[DK_KDH_F_VERSIONSTRING], sizeof(h.s[0]), "%s",
	    in->versionstring);
	snprintf(h.s[DK_KDH_F_PANICSTRING], sizeof(h.s[0]), "%s",
	    in->panicstring);
	h.v[DK_KDH_F_VERSION] = in->version;
	h.v[DK_KDH_F_ARCHVERSION] = in->architectureversion;
	h.v[DK_KDH_F_DUMPLENGTH] = in->dumplength;
	h.v[DK_KDH_F_DUMPTIME] = in->dumptime;
	h.v[DK_KDH_F_BLOCKSIZE] = in->blocksize;
	h.v[DK_KDH_F_DUMPKEYSIZE] = in->dumpkeysize;
	h.v[DK_KDH_F_DUMPEXTENT] = in->dumpextent;
	h.v[DK_KDH_F_COMPRESSION] = in->compression;
	h.v[DK_KDH_F_PARITY] = 0;
	/* Each member is as wide as its field, but compression's byte. */
	if (dk_layout_encode(l, in->version, b, DK_BE, &h, &err) != DK_OK) {
		memset(b, 0, DK_KDH_SIZE);	/* no header, not a wrong one */
		return;
	}
	enc_be32(b + 508, dk_kdh_parity(b));
}

/* ---------------------------------------------------------------------- */
/* Finding the container.                                                  */

static const char *const placement_names[] = {
	NULL, "leading header (saved vmcore)",
	"device image, current placement", "device image, old placement",
};

static int
pow2(uint64_t x)
{
	return x != 0 && (x & (x - 1)) == 0;
}

/* File offset of field id of the header (version k->version) at off. */
static uint64_t
fld(const struct dk_kdh_info *k, uint64_t off, unsigned id)
{
	const struct dk_field *f = dk_layout_find(dk_kdh_layout(k->version),
	    id, k->version);

	return f != NULL ? off + f->off : off;
}

/*
 * The rules one header must keep, whatever its place: parity, sizes,
 * compression, encryption.  off is the header's offset for messages.
 */
static enum dk_status
verify(const struct dk_src *src, const uint8_t *b, uint64_t off,
    const struct dk_kdh_info *k, struct dk_err *err)
{
	uint32_t x = dk_kdh_parity(b);

	if (x != 0)
		return dk_err_at(err, DK_ECORRUPT, src->name, off,
		    "kerneldumpheader parity: expected the 128 words to XOR "
		    "to 0, found 0x%08x (parity field 0x%08x at %#jx)", x,
		    k->parity, (uintmax_t)(off + 508));
	if (k->version >= 3 && k->dumplength > k->dumpextent)
		return dk_err_at(err, DK_ECORRUPT, src->name,
		    fld(k, off, DK_KDH_F_DUMPLENGTH), "kerneldumpheader: "
		    "expected dumplength <= dumpextent (%#jx), found "
		    "dumplength %#jx",
		    (uintmax_t)k->dumpextent, (uintmax_t)k->dumplength);
	if (k->compression > KDH_COMP_MAX)
		return dk_err_at(err, DK_ECORRUPT, src->name,
		    fld(k, off, DK_KDH_F_COMPRESSION), "kerneldumpheader "
		    "compression: expected 0, 1 or 2, found %u",
		    k->compression);
	if (k->compression != 0 && k->encrypted)
		return dk_err_at(err, DK_ECORRUPT, src->name,
		    fld(k, off, DK_KDH_F_COMPRESSION), "kerneldumpheader: "
		    "compressed (%s) and encrypted (key of %u bytes) at once, "
		    "which the kernel refuses",
		    dk_kdh_compression_name(k->compression), k->dumpkeysize);
	if (k->magic == DK_KDH_TEXT && k->dumplength % DK_KDH_TEXT_BLOCK)
		return dk_err_at(err, DK_ECORRUPT, src->name,
		    fld(k, off, DK_KDH_F_DUMPLENGTH), "text dump: expected a "
		    "dumplength multiple of 512, found %#jx",
		    (uintmax_t)k->dumplength);
	return DK_OK;
}

/* The key blob of an encrypted dump: struct kerneldumpkey must fit. */
static enum dk_status
verify_key(const struct dk_src *src, const struct dk_kdh_info *k,
    struct dk_err *err)
{
	uint8_t kb[KDH_KEY_HDR];
	uint32_t eks;
	enum dk_status st;

	if (!k->encrypted)
		return DK_OK;
	if (k->dumpkeysize < KDH_KEY_HDR)
		return dk_err_at(err, DK_ECORRUPT, src->name, k->key_offset,
		    "key blob: expected at least %d bytes (struct "
		    "kerneldumpkey), found dumpkeysize %u", KDH_KEY_HDR,
		    k->dumpkeysize);
	if ((st = dk_src_pread(src, kb, sizeof(kb), k->key_offset, "key blob",
	    err)) != DK_OK)
		return st;
	eks = dec_be32(kb + 33);
	if (kb[0] == 0 || kb[0] > KDH_ENC_MAX)
		return dk_err_at(err, DK_ECORRUPT, src->name, k->key_offset,
		    "key blob: expected kdk_encryption 1 (AES-256-CBC) or 2 "
		    "(ChaCha20), found %u", kb[0]);
	if (eks > k->dumpkeysize - KDH_KEY_HDR)
		return dk_err_at(err, DK_ECORRUPT, src->name,
		    k->key_offset + 33, "key blob: kdk_encryptedkeysize %u "
		    "does not fit the %u bytes of dumpkeysize", eks,
		    k->dumpkeysize);
	return DK_OK;
}

/* Read and decode the header at off; DK_NOMATCH if no magic there. */
static enum dk_status
read_hdr(const struct dk_src *src, uint64_t off, uint8_t *b,
    struct dk_kdh_info *k, struct dk_err *err)
{
	enum dk_status st;

	if (off > src->size || src->size - off < DK_KDH_SIZE)
		return DK_NOMATCH;
	if ((st = dk_src_pread(src, b, DK_KDH_SIZE, off, "kerneldumpheader",
	    err)) != DK_OK)
		return st;
	if ((st = dk_kdh_decode(b, k, err)) == DK_OK || st == DK_NOMATCH)
		return st;
	return dk_err_prefix(err, "%s: header at %#jx", src->name,
	    (uintmax_t)off);
}

int
dk_kdh_differ(const uint8_t *lead, const uint8_t *trail)
{
	int from = 0;

	if (dk_kdh_magic(trail) == DK_KDH_CLEARED && dk_kdh_magic(lead) != 0 &&
	    dk_kdh_magic(lead) != DK_KDH_CLEARED)
		from = KDH_MAGIC_LEN;
	for (int i = from; i < DK_KDH_SIZE; i++)
		if (lead[i] != trail[i])
			return i;
	return -1;
}

int
dk_kdh_leader_at(const struct dk_kdh_info *t, uint64_t th,
    enum dk_kdh_placement p, uint64_t *lh, uint64_t *data)
{
	uint64_t bs = t->blocksize, need;

	if (p == DK_KDH_DEVICE) {
		need = t->dumpextent + t->dumpkeysize + bs;
		if (need < t->dumpextent || th < need)
			return 0;
		*lh = th - need;
		*data = th - t->dumpextent;
	} else {
		need = t->dumplength + DK_KDH_SIZE + t->dumpkeysize;
		if (need < t->dumplength || th < need)
			return 0;
		*lh = th - need;
		*data = *lh + DK_KDH_SIZE + t->dumpkeysize;
	}
	return 1;
}

/* Does the window start with 4 KiB of zeros, as a device image does? */
static int
zero_head(const struct dk_src *src)
{
	uint8_t b[4096];
	struct dk_err e;

	if (src->size < sizeof(b) || dk_src_pread(src, b, sizeof(b), 0,
	    "start", &e) != DK_OK)
		return 0;
	return b[0] == 0 && memcmp(b, b + 1, sizeof(b) - 1) == 0;
}

static int
known_stream(const struct dk_src *src)
{
	static const struct {
		const char	*m;
		size_t		 n;
	} known[] = {
		{ "minidump", 8 }, { "\177ELF", 4 }, { "\037\213", 2 },
		{ "\050\265\057\375", 4 }, { "\3757zXZ", 5 },
	};
	uint8_t m[8];
	struct dk_err e;

	if (src->size < 8 || dk_src_pread(src, m, 8, 0, "magic", &e) != DK_OK)
		return 0;
	for (size_t i = 0; i < DK_ARRAY_LEN(known); i++)
		if (memcmp(m, known[i].m, known[i].n) == 0)
			return 1;
	return 0;
}

/* Finish *k for a header found at lh with the stream at data. */
static enum dk_status
place(const struct dk_src *src, struct dk_kdh_info *k, const uint8_t *lead,
    enum dk_kdh_placement p, uint64_t lh, uint64_t data, uint64_t th,
    struct dk_err *err)
{
	uint64_t end = th != UINT64_MAX ? th : src->size;
	enum dk_status st;

	k->placement = p;
	k->placement_name = placement_names[p];
	k->leader_offset = lh;
	k->trailer_offset = th;
	k->key_offset = k->encrypted ? lh + (p == DK_KDH_DEVICE ?
	    k->blocksize : DK_KDH_SIZE) : UINT64_MAX;
	/* A text dump's tar ends just before the trailer. */
	k->dump_offset = k->magic == DK_KDH_TEXT && p != DK_KDH_LEADING ?
	    end - k->dumplength : data;
	if ((st = verify(src, lead, lh, k, err)) != DK_OK)
		return st;
	if (p != DK_KDH_LEADING && (!pow2(k->blocksize) ||
	    k->blocksize < DK_KDH_SIZE || k->blocksize > DK_KDH_MAX_BLOCK))
		return dk_err_at(err, DK_ECORRUPT, src->name,
		    fld(k, lh, DK_KDH_F_BLOCKSIZE), "kerneldumpheader "
		    "blocksize: expected a power of two from 512 to %u, found "
		    "%u",
		    DK_KDH_MAX_BLOCK, k->blocksize);
	if (data > end || k->dumplength > end - data ||
	    k->dump_offset < data)
		return dk_err_at(err, DK_ETRUNC, src->name, lh,
		    "kerneldumpheader: dumplength %#jx from offset %#jx "
		    "expected to end by %#jx (%s), but %s",
		    (uintmax_t)k->dumplength, (uintmax_t)data, (uintmax_t)end,
		    th != UINT64_MAX ? "the trailer" : "the end of the file",
		    th != UINT64_MAX ? "it goes past" : "the file is shorter "
		    "(truncated image)");
	return verify_key(src, k, err);
}

/* The first trailer found that no leader matched, for the message. */
struct miss {
	int			 have;
	uint64_t		 th, lh;	/* lh UINT64_MAX: none fits */
	uint8_t			 tb[DK_KDH_SIZE];
	struct dk_kdh_info	 t;
};

static enum dk_status
mismatch(const struct dk_src *src, const struct miss *m, struct dk_err *err)
{
	uint8_t lb[DK_KDH_SIZE];
	struct dk_kdh_info l;
	enum dk_status st;
	int i;

	if (m->lh == UINT64_MAX)
		return dk_err_at(err, DK_ETRUNC, src->name, m->th, "the "
		    "trailer declares dumplength %#jx (extent %#jx, key %u "
		    "bytes, blocksize %u): expected the leader before it, but "
		    "the image is only %#jx bytes", (uintmax_t)m->t.dumplength,
		    (uintmax_t)m->t.dumpextent, m->t.dumpkeysize,
		    m->t.blocksize, (uintmax_t)src->size);
	if ((st = read_hdr(src, m->lh, lb, &l, err)) == DK_NOMATCH)
		return dk_err_at(err, DK_ECORRUPT, src->name, m->lh,
		    "expected a leader equal to the trailer at %#jx, found no "
		    "kerneldumpheader magic", (uintmax_t)m->th);
	if (st != DK_OK)
		return st;
	if ((i = dk_kdh_differ(lb, m->tb)) < 0)
		i = 0;
	return dk_err_at(err, DK_ECORRUPT, src->name, m->lh + (uint64_t)i,
	    "leader and trailer differ: expected 0x%02x (the trailer's byte "
	    "%d, at %#jx), found 0x%02x", m->tb[i], i,
	    (uintmax_t)(m->th + (uint64_t)i), lb[i]);
}

enum dk_status
dk_kdh_locate(const struct dk_src *src, struct dk_kdh_info *k, uint8_t *raw,
    struct dk_err *err)
{
	uint8_t tb[DK_KDH_SIZE], lb[DK_KDH_SIZE];
	struct dk_kdh_info t, l;
	struct miss m;
	enum dk_status st;

	m.have = 0;
	/*
	 * The trailer: the last block (current placement, the header's
	 * blocksize says which) or the last 512 bytes (old placement).
	 */
	for (uint64_t bs = DK_KDH_SIZE; bs <= DK_KDH_MAX_BLOCK && bs <=
	    src->size; bs <<= 1) {
		uint64_t th = src->size - bs;

		if ((st = read_hdr(src, th, tb, &t, err)) == DK_NOMATCH)
			continue;
		/* A damaged "trailer" in the pages of a known stream. */
		if (st != DK_OK && known_stream(src)) {
			dk_err_clear(err);
			continue;
		}
		if (st != DK_OK)
			return st;
		for (int p = DK_KDH_DEVICE; p <= DK_KDH_DEVICE_OLD; p++) {
			enum dk_kdh_placement pl = (enum dk_kdh_placement)p;
			uint64_t lh = UINT64_MAX, data = 0;
			int fits;

			if ((pl == DK_KDH_DEVICE && t.blocksize != bs) ||
			    (pl == DK_KDH_DEVICE_OLD && bs != DK_KDH_SIZE))
				continue;
			fits = dk_kdh_leader_at(&t, th, pl, &lh, &data);
			if (fits && (st = read_hdr(src, lh, lb, &l, err)) ==
			    DK_OK && dk_kdh_differ(lb, tb) < 0) {
				/* Both rules give the same place: the
				 * version tells which kernel wrote it. */
				if (t.blocksize == DK_KDH_SIZE &&
				    t.dumpextent == t.dumplength &&
				    t.dumpkeysize == 0)
					pl = t.version == 1 ?
					    DK_KDH_DEVICE_OLD : DK_KDH_DEVICE;
				*k = l;
				k->cleared = dk_kdh_magic(tb) == DK_KDH_CLEARED;
				if (raw != NULL)
					memcpy(raw, lb, DK_KDH_SIZE);
				return place(src, k, lb, pl, lh, data, th,
				    err);
			}
			if (fits && st != DK_OK && st != DK_NOMATCH &&
			    !known_stream(src))
				return st;
			dk_err_clear(err);
			if (!m.have || (m.lh == UINT64_MAX && fits)) {
				m.have = 1;
				m.th = th;
				m.lh = fits ? lh : UINT64_MAX;
				m.t = t;
				memcpy(m.tb, tb, sizeof(tb));
			}
		}
	}
	/* A saved vmcore (or an image) with the header first. */
	st = read_hdr(src, 0, lb, &l, err);
	if (st != DK_NOMATCH && (!m.have || m.lh == UINT64_MAX)) {
		if (st != DK_OK)
			return st;
		*k = l;
		if (raw != NULL)
			memcpy(raw, lb, DK_KDH_SIZE);
		return place(src, k, lb, DK_KDH_LEADING, 0, DK_KDH_SIZE +
		    (uint64_t)l.dumpkeysize, UINT64_MAX, err);
	}
	if (st != DK_NOMATCH && st != DK_OK)
		return st;
	/*
	 * Page data that happens to hold a header is no container: a dump
	 * format's magic at 0, or a "trailer" with no leader where it says
	 * in a file that does not start as a device does (with zeros).
	 */
	if (!m.have || known_stream(src))
		return DK_NOMATCH;
	if (!zero_head(src) && (m.lh == UINT64_MAX || read_hdr(src, m.lh, lb,
	    &l, err) != DK_OK))
		return DK_NOMATCH;
	return mismatch(src, &m, err);
}

/* ---------------------------------------------------------------------- */
/* The container.                                                          */

struct kdh_layer {
	struct dk_kdh_info	info;
	uint8_t			raw[DK_KDH_SIZE];
	char			*name;	/* the inner stream's, for messages */
};

static enum dk_status
kdh_probe(const struct dk_src *src, struct dk_err *err)
{
	struct dk_kdh_info k;

	/*
	 * A one-pass stream starts with a dump format's magic (decompress.c
	 * takes no other): no container, and the trailer probe would have
	 * to decode it all to read its end.
	 */
	if (src->z != NULL)
		return DK_NOMATCH;
	return dk_kdh_locate(src, &k, NULL, err);
}

static enum dk_status
refuse(const struct dk_src *src, const struct dk_kdh_info *k,
    struct dk_err *err)
{
	if (k->magic == DK_KDH_TEXT)
		return dk_err_at(err, DK_EUNSUP, src->name, k->leader_offset,
		    "a text dump (\"FreeBSD Text Dump\": a tar of ddb output, "
		    "%#jx bytes, no memory image); extract it with dumpconv "
		    "--to tar", (uintmax_t)k->dumplength);
	return dk_err_at(err, DK_EUNSUP, src->name, k->leader_offset, "an "
	    "encrypted dump (key blob of %u bytes at %#jx): dumpkit cannot "
	    "decrypt it; decryptcore(8) with the private key gives a plain "
	    "vmcore", k->dumpkeysize, (uintmax_t)k->key_offset);
}

/* The header's metadata as the dump's attributes (dk_attr). */
static void
kdh_attrs(struct dk_dump *d, const struct dk_kdh_info *k)
{
	static const char src[] = "kerneldumpheader";

	dk_add_attr_str(d, "hostname", k->hostname, src);
	dk_add_attr_str(d, "version_string", k->versionstring, src);
	dk_add_attr_str(d, "panic_string", k->panicstring, src);
	if (k->dumptime != 0)
		dk_add_attr_num(d, "dump_time", DK_ATTR_TIME, k->dumptime,
		    src);
	dk_add_attr_str(d, "architecture", k->architecture, src);
}

static enum dk_status
kdh_open(struct dk_dump *d, const struct dk_open_opts *o, struct dk_err *err)
{
	struct dk_layer *ly = &d->layers[d->nlayers];
	struct kdh_layer *p;
	enum dk_status st;

	(void)o;
	if ((p = calloc(1, sizeof(*p))) == NULL)
		return dk_err_set(err, DK_ENOMEM, "%s: out of memory",
		    d->src.name);
	if ((st = dk_kdh_locate(&d->src, &p->info, p->raw, err)) != DK_OK) {
		free(p);
		return st;
	}
	if (p->info.magic == DK_KDH_TEXT || p->info.encrypted) {
		st = refuse(&d->src, &p->info, err);
		free(p);
		return st;
	}
	/* Messages about the stream say where it is in the file. */
	if ((p->name = malloc(strlen(d->src.name) + 64)) == NULL) {
		free(p);
		return dk_err_set(err, DK_ENOMEM, "%s: out of memory",
		    d->src.name);
	}
	sprintf(p->name, "%s (dump stream at %#jx)", d->src.name,
	    (uintmax_t)(d->src.base + p->info.dump_offset));
	memset(ly, 0, sizeof(*ly));
	ly->ops = &dk_ctr_kdh;
	ly->outer = d->src;
	ly->priv = p;
	ly->fd = -1;
	snprintf(ly->desc, sizeof(ly->desc), "kerneldumpheader v%u, %s, "
	    "leader at %#jx, blocksize %u%s%s", p->info.version,
	    p->info.placement_name, (uintmax_t)p->info.leader_offset,
	    p->info.blocksize, p->info.compression ? ", compressed " : "",
	    p->info.compression ?
	    dk_kdh_compression_name(p->info.compression) : "");
	ly->info.kind = "kerneldumpheader";
	ly->info.offset = p->info.dump_offset;
	ly->info.size = p->info.dumplength;
	ly->info.desc = ly->desc;
	d->nlayers++;
	kdh_attrs(d, &p->info);
	DK_TRACE(d, "%s; dump stream [%#jx, +%#jx)", ly->desc,
	    (uintmax_t)p->info.dump_offset, (uintmax_t)p->info.dumplength);
	d->src.base += p->info.dump_offset;
	d->src.size = p->info.dumplength;
	d->src.name = p->name;
	return DK_OK;
}

static void
kdh_close(struct dk_dump *d, struct dk_layer *ly)
{
	struct kdh_layer *p = ly->priv;

	(void)d;
	if (p != NULL)
		free(p->name);
	free(p);
	ly->priv = NULL;
}

const struct dk_container_ops dk_ctr_kdh = {
	.name	= "kerneldumpheader",
	.probe	= kdh_probe,
	.open	= kdh_open,
	.close	= kdh_close,
	.check	= &dk_kdh_ck,
};

static const struct kdh_layer *
kdh_layer_of(const struct dk_dump *d)
{
	for (size_t i = 0; i < d->nlayers; i++)
		if (d->layers[i].ops == &dk_ctr_kdh)
			return d->layers[i].priv;
	return NULL;
}

DK_EXPORT const struct dk_kdh_info *
dk_kdh(const struct dk_dump *d)
{
	const struct kdh_layer *p = kdh_layer_of(d);

	return p != NULL ? &p->info : dk_portable_kdh(d, NULL);
}

const uint8_t *
dk_kdh_raw(const struct dk_dump *d)
{
	const struct kdh_layer *p = kdh_layer_of(d);

	const uint8_t *raw = NULL;

	if (p != NULL)
		return p->raw;
	return dk_portable_kdh(d, &raw) != NULL ? raw : NULL;
}

/*
 * The portable format's NT_DK_KDH note: the leader, verbatim.  Its
 * parity is checked like the header's own; where it came from (the
 * placement, the offsets) is the source file's business, not kept.
 */
enum dk_status
dk_kdh_note_load(struct dk_dump *d, uint64_t off, uint64_t size,
    struct dk_kdh_info *k, uint8_t *raw, struct dk_err *err)
{
	enum dk_status st;
	uint32_t x;

	if (size != DK_KDH_SIZE)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, off,
		    "kerneldumpheader note: expected 512 bytes, found %ju",
		    (uintmax_t)size);
	if ((st = dk_src_pread(&d->src, raw, DK_KDH_SIZE, off,
	    "kerneldumpheader note", err)) != DK_OK)
		return st;
	st = dk_kdh_decode(raw, k, err);
	if (st == DK_NOMATCH)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, off,
		    "kerneldumpheader note: expected one of the three magics, "
		    "found none");
	if (st != DK_OK)
		return dk_err_prefix(err, "%s: note at %#jx", d->src.name,
		    (uintmax_t)off);
	if ((x = dk_kdh_parity(raw)) != 0)
		return dk_err_at(err, DK_ECORRUPT, d->src.name, off,
		    "kerneldumpheader note: expected its words to XOR to 0, "
		    "found 0x%08x", x);
	k->placement_name = "from the portable file's note";
	kdh_attrs(d, k);
	return DK_OK;
}

/* ---------------------------------------------------------------------- */
/* Without opening the stream: any header, and text dumps.                 */

static enum dk_status
src_open(const char *path, struct dk_src *src, struct dk_err *err)
{
	struct stat sb;

	memset(src, 0, sizeof(*src));
	src->name = path;
	src->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (src->fd < 0 || fstat(src->fd, &sb) != 0) {
		dk_err_set(err, DK_ESYS, "%s: %s", path, strerror(errno));
		err->sys_errno = errno;
		if (src->fd >= 0)
			close(src->fd);
		return DK_ESYS;
	}
	src->size = (uint64_t)sb.st_size;
	if (S_ISBLK(sb.st_mode)) {
		off_t end = lseek(src->fd, 0, SEEK_END);

		src->size = end < 0 ? 0 : (uint64_t)end;
	} else if (!S_ISREG(sb.st_mode)) {
		close(src->fd);
		return dk_err_set(err, DK_EINVAL, "%s: not a regular file or a "
		    "block device", path);
	}
	return DK_OK;
}

static enum dk_status
locate_path(const char *path, struct dk_src *src, struct dk_kdh_info *k,
    struct dk_err *err)
{
	enum dk_status st;

	dk_err_clear(err);
	if ((st = src_open(path, src, err)) != DK_OK)
		return st;
	st = dk_kdh_locate(src, k, NULL, err);
	if (st == DK_NOMATCH)
		st = dk_err_off(err, DK_EUNSUP, 0, "%s: no kerneldumpheader: "
		    "expected one of the three magics at offset 0 or in the "
		    "last block", path);
	if (st != DK_OK)
		close(src->fd);
	return st;
}

DK_EXPORT enum dk_status
dk_kdh_read(const char *path, struct dk_kdh_info *k, struct dk_err *err)
{
	struct dk_src src;
	enum dk_status st;

	if ((st = locate_path(path, &src, k, err)) == DK_OK)
		close(src.fd);
	return st;
}

static enum dk_status
write_all(int fd, const uint8_t *p, size_t len, struct dk_err *err)
{
	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			dk_err_set(err, DK_ESYS, "writing the tar: %s",
			    strerror(n < 0 ? errno : EIO));
			err->sys_errno = n < 0 ? errno : EIO;
			return DK_ESYS;
		}
		p += n;
		len -= (size_t)n;
	}
	return DK_OK;
}

DK_EXPORT enum dk_status
dk_textdump_write(const char *path, int fd, struct dk_err *err)
{
	struct dk_src src;
	struct dk_kdh_info k;
	uint8_t *buf, blk[DK_KDH_TEXT_BLOCK];
	uint64_t end;
	enum dk_status st;

	if ((st = locate_path(path, &src, &k, err)) != DK_OK)
		return st;
	if (k.magic != DK_KDH_TEXT) {
		close(src.fd);
		return dk_err_at(err, DK_EINVAL, path, k.leader_offset,
		    "expected a text dump (\"FreeBSD Text Dump\"), found a %s "
		    "dump", k.magic_name);
	}
	if ((buf = malloc(KDH_TEXT_CHUNK)) == NULL) {
		close(src.fd);
		return dk_err_set(err, DK_ENOMEM, "out of memory");
	}
	/*
	 * The kernel wrote tar block i at (end - 512 * (i + 1)): read
	 * chunks from the end backwards, turn each chunk's blocks round.
	 */
	end = k.dump_offset + k.dumplength;
	while (st == DK_OK && end > k.dump_offset) {
		size_t n = end - k.dump_offset < KDH_TEXT_CHUNK ?
		    (size_t)(end - k.dump_offset) : KDH_TEXT_CHUNK;

		st = dk_src_pread(&src, buf, n, end - n, "text dump blocks",
		    err);
		for (size_t i = 0, j = n - DK_KDH_TEXT_BLOCK; st == DK_OK &&
		    i < j; i += DK_KDH_TEXT_BLOCK, j -= DK_KDH_TEXT_BLOCK) {
			memcpy(blk, buf + i, sizeof(blk));
			memcpy(buf + i, buf + j, sizeof(blk));
			memcpy(buf + j, blk, sizeof(blk));
		}
		if (st == DK_OK)
			st = write_all(fd, buf, n, err);
		end -= n;
	}
	free(buf);
	close(src.fd);
	return st;
}
