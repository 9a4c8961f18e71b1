/*
 * check_kdump.c -- makedumpfile's kdump-compressed format
 * (formats/fmt_kdump.c), from bytes written here and from real files.
 *
 * The files written here follow makedumpfile's own declarations
 * (diskdump_mod.h, makedumpfile.h) with the offsets typed in below, not
 * taken from the library's tables: struct disk_dump_header as an LP64
 * build lays it out (timestamp at 408, status 424, block_size 428,
 * sub_hdr_size 432, bitmap_blocks 436, max_mapnr 440, nr_cpus 460) and
 * as an ILP32 one does (404, 412, 416, 420, 424, 428, 448); struct
 * kdump_sub_header in its three layouts (LP64; i386 and QEMU's packed
 * one; arm, mips and powerpc with 8-aligned 64-bit integers), each
 * version's size where makedumpfile puts the notes; two bitmaps of
 * bitmap_blocks / 2 blocks; 24-byte page descriptors; pages compressed
 * by the libraries makedumpfile uses (zlib compress2, lzo1x_1_compress,
 * snappy_compress, ZSTD_compress) or stored as they are; the shared
 * zero page; and the flattened form of every file (records in any
 * order, overlapping, with holes).  The page contents are a function of
 * the PFN (page_byte), so every byte read is checked.
 *
 *  - "layouts": every (layout, byte order, version 1..6) and block
 *    sizes 4 KiB to 64 KiB read; the library's tables have the sizes
 *    and offsets written here and pass dumplayout's check.
 *  - "pages": every codec, mixed codecs, the shared zero page, pages
 *    not dumped (clear in bitmap 2 but in memory, or not in memory),
 *    corrupt pages (ECORRUPT naming the PFN), runs and physical ranges.
 *  - "flattened": the same dumps flattened, read alike; overlaps (the
 *    later record wins), holes (zeros), a file cut short, bad records.
 *  - "split": a set of three parts in any order, each part alone (its
 *    PFN range said; the others' pages DK_ENOTDUMPED), sets that are
 *    not one dump.
 *  - "incomplete": files cut in the pages, in the descriptors and in
 *    the bitmaps; descriptors never written (makedumpfile after ENOSPC,
 *    the header's incomplete flag): what is present reads, the rest is
 *    DK_ENOTDUMPED with its PFN, never zeros; every prefix of a file
 *    opens or fails cleanly.
 *  - "meta": VMCOREINFO lines as attributes (versions 3 and 4+), the
 *    utsname, the architecture from utsname.machine, from NT_PRSTATUS
 *    (QEMU's "Unknown"), from VMCOREINFO, from --arch; headers that no
 *    layout fits.
 *  - "real": files that QEMU 7.2 (dump-guest-memory kdump-zlib, the
 *    flattened form: x86_64, s390x, riscv64, ppc64 firmware guests) and
 *    makedumpfile 1.7.2 (a crashed Debian 6.1 kernel, -d 31: lzo, zlib
 *    and uncompressed cut to their first 600000 bytes, a --split part
 *    with pages, an empty one) wrote, made by
 *    ../shared/real-dumps/make-real-dumps.sh, xz-compressed in
 *    tests/data/kdump/ (README there); every run's page count, nonzero
 *    pages and CRC-32 as libkdumpfile 0.5.1 reads them (its kdread
 *    tool, on makedumpfile -R's rearrangement of the flattened ones),
 *    and bytes at given addresses.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <lzo/lzo1x.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include "ctlayout.h"
#include "dkcheck.h"
#include "dumpkit.h"
#include "kdump.h"
#include "minidump.h"
#include "private.h"

#define	DATA		"tests/data/kdump/"

/* ---------------------------------------------------------------------- */
/* Writing kdump files by hand.                                            */

enum kabi { K64, K32, K32PAD };

/* Codecs (page_desc.flags); KMIXED: each page its own, by PFN. */
#define	KNONE		0u
#define	KZLIB		1u
#define	KLZO		2u
#define	KSNAPPY		4u
#define	KZSTD		0x20u
#define	KMIXED		0x100u

struct ks {
	enum kabi	 abi;
	int		 be;
	unsigned	 version;
	uint32_t	 block;
	uint64_t	 mapnr;
	const char	*sig;		/* NULL: "KDUMP   " */
	const char	*machine;
	const char	*node;		/* utsname.nodename */
	uint64_t	 ram[4][2];	/* bitmap 1: PFN ranges */
	size_t		 nram;
	uint64_t	 dump[6][2];	/* bitmap 2 */
	size_t		 ndump;
	unsigned	 codec;
	int		 share_zero;
	const char	*vmcoreinfo;
	uint32_t	 prstatus;	/* NT_PRSTATUS descsz; 0: none */
	uint32_t	 status;	/* extra status bits */
	uint64_t	 tv_sec;
	int		 split;
	uint64_t	 start, end;
};

/* A file written: its bytes, and where things went. */
struct kf {
	uint8_t		*b;
	size_t		 len;
	size_t		 off_desc, off_data;
	size_t		 ndesc;
	uint64_t	 pfn[4096];	/* the PFN of each descriptor */
};

static void
put(uint8_t *p, unsigned w, int be, uint64_t v)
{
	for (unsigned i = 0; i < w; i++)
		p[be ? w - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

static uint64_t
get(const uint8_t *p, unsigned w, int be)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < w; i++)
		v |= (uint64_t)p[be ? w - 1 - i : i] << (8 * i);
	return v;
}

/* The byte at offset i of page pfn; every seventh page is zero. */
static uint8_t
page_byte(uint64_t pfn, size_t i)
{
	if (pfn % 7 == 3)
		return 0;
	return (uint8_t)(pfn * 167 + i * 13 + (i >> 7) * 5 + 1);
}

static void
fill_page(uint64_t pfn, uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = page_byte(pfn, i);
}

static int
in_ranges(const uint64_t (*r)[2], size_t n, uint64_t pfn)
{
	for (size_t i = 0; i < n; i++)
		if (pfn >= r[i][0] && pfn < r[i][1])
			return 1;
	return 0;
}

/* kdump_sub_header: offsets of each field, and each version's sizeof. */
enum { S_PHYS, S_LEVEL, S_SPLIT, S_SPFN, S_EPFN, S_OVMCI, S_SVMCI,
	S_ONOTE, S_SNOTE, S_OERASE, S_SERASE, S_SPFN64, S_EPFN64, S_MAPNR64 };

static const struct { unsigned off, w; } sub_at[3][14] = {
	[K64] = { { 0, 8 }, { 8, 4 }, { 12, 4 }, { 16, 8 }, { 24, 8 },
	    { 32, 8 }, { 40, 8 }, { 48, 8 }, { 56, 8 }, { 64, 8 }, { 72, 8 },
	    { 80, 8 }, { 88, 8 }, { 96, 8 } },
	[K32] = { { 0, 4 }, { 4, 4 }, { 8, 4 }, { 12, 4 }, { 16, 4 },
	    { 20, 8 }, { 28, 4 }, { 32, 8 }, { 40, 4 }, { 44, 8 }, { 52, 4 },
	    { 56, 8 }, { 64, 8 }, { 72, 8 } },
	[K32PAD] = { { 0, 4 }, { 4, 4 }, { 8, 4 }, { 12, 4 }, { 16, 4 },
	    { 24, 8 }, { 32, 4 }, { 40, 8 }, { 48, 4 }, { 56, 8 }, { 64, 4 },
	    { 72, 8 }, { 80, 8 }, { 88, 8 } },
};
static const unsigned sub_size[3][7] = {
	[K64] = { 0, 16, 32, 48, 64, 80, 104 },
	[K32] = { 0, 8, 20, 32, 44, 56, 80 },
	[K32PAD] = { 0, 8, 20, 40, 56, 72, 96 },
};

static void
sub_put(const struct ks *s, uint8_t *sub, int f, uint64_t v)
{
	put(sub + sub_at[s->abi][f].off, sub_at[s->abi][f].w, s->be, v);
}

/* An ELF note: namesz, descsz, type, name and descriptor padded to 4. */
static size_t
note(uint8_t *p, int be, const char *name, uint32_t type, const void *desc,
    size_t dl)
{
	size_t nl = strlen(name) + 1, at = 12;

	put(p, 4, be, nl);
	put(p + 4, 4, be, dl);
	put(p + 8, 4, be, type);
	memcpy(p + at, name, nl);
	at += (nl + 3) & ~(size_t)3;
	if (desc != NULL)
		memcpy(p + at, desc, dl);
	else
		memset(p + at, 0, dl);
	return at + ((dl + 3) & ~(size_t)3);
}

/* Compress a page with codec; the stored size (block: stored as is). */
static size_t
compress_page(unsigned codec, const uint8_t *in, size_t n, uint8_t *out,
    size_t cap)
{
	size_t got = cap;

	switch (codec) {
	case KZLIB: {
		uLongf z = (uLongf)cap;

		if (compress2(out, &z, in, (uLong)n, 1) != Z_OK)
			return n;
		got = z;
		break;
	}
	case KLZO: {
		static uint8_t wrk[LZO1X_1_MEM_COMPRESS];
		lzo_uint l = (lzo_uint)cap;

		ck_assert_int_eq(lzo1x_1_compress(in, n, out, &l, wrk),
		    LZO_E_OK);
		got = l;
		break;
	}
	case KSNAPPY:
		ck_assert_int_eq(snappy_compress((const char *)in, n,
		    (char *)out, &got), SNAPPY_OK);
		break;
	case KZSTD:
		got = ZSTD_compress(out, cap, in, n, 1);
		ck_assert(!ZSTD_isError(got));
		break;
	default:
		return n;
	}
	return got < n ? got : n;
}

static unsigned
codec_of(const struct ks *s, uint64_t pfn)
{
	static const unsigned all[] = { KNONE, KZLIB, KLZO, KSNAPPY, KZSTD };

	return s->codec == KMIXED ? all[pfn % 5] : s->codec;
}

/*
 * Write the file s describes into f: header, sub header and notes (or
 * version 3's VMCOREINFO), both bitmaps, the descriptors of the dumped
 * pages of the part's range, the zero page if shared, the pages.
 */
static void
kd_build(const struct ks *s, struct kf *f)
{
	uint32_t bs = s->block;
	unsigned v = s->version, ssz = sub_size[s->abi][v];
	uint8_t notes[8192];
	size_t nn = 0, bmb, sub_blocks, cap, pos;
	uint64_t start = s->split ? s->start : 0, end = s->split ? s->end :
	    s->mapnr;
	uint8_t *h, *sub, *page = malloc(bs), *z = malloc(2 * bs + 64);
	int hdr64 = s->abi == K64;
	uint64_t zero_off = 0;
	uint32_t status = s->status;

	ck_assert(page != NULL && z != NULL);
	memset(f, 0, sizeof(*f));
	if (v >= 4) {
		if (s->prstatus)
			nn += note(notes + nn, s->be, "CORE", 1, NULL,
			    s->prstatus);
		if (s->vmcoreinfo != NULL)
			nn += note(notes + nn, s->be, "VMCOREINFO", 0,
			    s->vmcoreinfo, strlen(s->vmcoreinfo));
	} else if (v == 3 && s->vmcoreinfo != NULL) {
		nn = strlen(s->vmcoreinfo);
		memcpy(notes, s->vmcoreinfo, nn);
	}
	sub_blocks = (ssz + nn + bs - 1) / bs;
	if (sub_blocks == 0)
		sub_blocks = 1;
	bmb = ((s->mapnr + 7) / 8 + bs - 1) / bs * bs;	/* each bitmap */
	f->off_desc = (1 + sub_blocks) * bs + 2 * bmb;
	for (uint64_t p = start; p < end; p++)
		if (in_ranges(s->dump, s->ndump, p)) {
			ck_assert_uint_lt(f->ndesc, 4096);
			f->pfn[f->ndesc++] = p;
		}
	f->off_data = f->off_desc + 24 * f->ndesc;
	cap = f->off_data + (f->ndesc + 1) * (size_t)bs;
	f->b = calloc(1, cap);
	ck_assert_ptr_nonnull(f->b);
	h = f->b;
	sub = f->b + bs;

	/* Pages. */
	pos = f->off_data;
	if (s->share_zero) {
		zero_off = pos;
		pos += bs;		/* a page of zeros */
	}
	for (size_t i = 0; i < f->ndesc; i++) {
		uint8_t *d = f->b + f->off_desc + 24 * i;
		unsigned c = codec_of(s, f->pfn[i]);
		size_t n;
		int zero;

		fill_page(f->pfn[i], page, bs);
		zero = f->pfn[i] % 7 == 3;
		if (s->share_zero && zero) {
			put(d, 8, s->be, zero_off);
			put(d + 8, 4, s->be, bs);
			put(d + 12, 4, s->be, 0);
			continue;
		}
		n = compress_page(c, page, bs, z, 2 * bs + 64);
		if (n >= bs) {
			memcpy(f->b + pos, page, bs);
			n = bs;
			c = KNONE;
		} else
			memcpy(f->b + pos, z, n);
		put(d, 8, s->be, pos);
		put(d + 8, 4, s->be, n);
		put(d + 12, 4, s->be, c);
		put(d + 16, 8, s->be, 0);
		pos += n;
	}
	f->len = pos;

	/* Bitmaps: bit n is bit n % 8 of byte n / 8. */
	for (uint64_t p = 0; p < s->mapnr; p++) {
		uint8_t *b1 = f->b + (1 + sub_blocks) * bs;

		if (in_ranges(s->ram, s->nram, p))
			b1[p / 8] |= (uint8_t)(1u << (p % 8));
		if (in_ranges(s->dump, s->ndump, p))
			b1[bmb + p / 8] |= (uint8_t)(1u << (p % 8));
	}

	/* disk_dump_header. */
	memcpy(h, s->sig != NULL ? s->sig : "KDUMP   ", 8);
	put(h + 8, 4, s->be, v);
	memcpy(h + 12, "Linux", 5);				/* sysname */
	if (s->node != NULL)
		memcpy(h + 77, s->node, strlen(s->node));	/* nodename */
	memcpy(h + 142, "6.1.0-57-amd64", 14);			/* release */
	memcpy(h + 207, "#1 SMP test", 11);			/* version */
	if (s->machine != NULL)
		memcpy(h + 272, s->machine, strlen(s->machine));
	memcpy(h + 337, "(none)", 6);				/* domainname */
	if (codec_of(s, 1) & (KZLIB | KLZO | KSNAPPY | KZSTD))
		status |= codec_of(s, 1);
	put(h + (hdr64 ? 408 : 404), hdr64 ? 8 : 4, s->be, s->tv_sec);
	put(h + (hdr64 ? 424 : 412), 4, s->be, status);
	put(h + (hdr64 ? 428 : 416), 4, s->be, bs);
	put(h + (hdr64 ? 432 : 420), 4, s->be, sub_blocks);
	put(h + (hdr64 ? 436 : 424), 4, s->be, 2 * bmb / bs);
	put(h + (hdr64 ? 440 : 428), 4, s->be, s->mapnr);
	put(h + (hdr64 ? 460 : 448), 4, s->be, 1);		/* nr_cpus */

	/* kdump_sub_header, then the notes. */
	sub_put(s, sub, S_PHYS, 0x1000000);
	sub_put(s, sub, S_LEVEL, 31);
	if (v >= 2 && s->split) {
		sub_put(s, sub, S_SPLIT, 1);
		sub_put(s, sub, S_SPFN, s->start);
		sub_put(s, sub, S_EPFN, s->end);
	}
	memcpy(sub + ssz, notes, nn);
	if (v >= 4 && nn > 0) {
		sub_put(s, sub, S_ONOTE, bs + ssz);
		sub_put(s, sub, S_SNOTE, nn);
	}
	if (v >= 3 && s->vmcoreinfo != NULL) {
		size_t vo = v >= 4 ? nn - ((strlen(s->vmcoreinfo) + 3) &
		    ~(size_t)3) : 0;

		sub_put(s, sub, S_OVMCI, bs + ssz + vo);
		sub_put(s, sub, S_SVMCI, strlen(s->vmcoreinfo));
	}
	if (v >= 6) {
		if (s->split) {
			sub_put(s, sub, S_SPFN64, s->start);
			sub_put(s, sub, S_EPFN64, s->end);
		}
		sub_put(s, sub, S_MAPNR64, s->mapnr);
	}
	free(page);
	free(z);
}

/*
 * The flattened form of f: the 4096-byte header, then records of chunk
 * bytes (order: 0 in order, 1 reversed, 2 odd ones first), all-zero
 * chunks left out when holes is set, garbage first over [0, garbage)
 * that the real records overwrite; end marker unless cut.
 */
static uint8_t *
flatten(const struct kf *f, size_t chunk, int order, int holes,
    size_t garbage, int end, size_t *outlen)
{
	size_t n = (f->len + chunk - 1) / chunk, cap, pos = 4096;
	uint8_t *o;

	cap = 4096 + (n + 2) * (16 + chunk) + garbage + 32;
	o = calloc(1, cap);
	ck_assert_ptr_nonnull(o);
	memcpy(o, "makedumpfile", 12);
	put(o + 16, 8, 1, 1);
	put(o + 24, 8, 1, 1);
	if (garbage > 0) {
		put(o + pos, 8, 1, 0);
		put(o + pos + 8, 8, 1, garbage);
		memset(o + pos + 16, 0xa5, garbage);
		pos += 16 + garbage;
	}
	for (size_t k = 0; k < n; k++) {
		size_t i = order == 0 ? k : order == 1 ? n - 1 - k :
		    k < n / 2 ? 2 * k + 1 : 2 * (k - n / 2);
		size_t lo = i * chunk, len = f->len - lo < chunk ? f->len - lo :
		    chunk, j;

		if (i >= n)
			i = n - 1;
		if (holes) {
			for (j = 0; j < len && f->b[lo + j] == 0; j++)
				;
			if (j == len && lo + len != f->len)
				continue;
		}
		put(o + pos, 8, 1, lo);
		put(o + pos + 8, 8, 1, len);
		memcpy(o + pos + 16, f->b + lo, len);
		pos += 16 + len;
	}
	if (end) {
		put(o + pos, 8, 1, UINT64_MAX);
		put(o + pos + 8, 8, 1, UINT64_MAX);
		pos += 16;
	}
	*outlen = pos;
	return o;
}

/* A spec with two RAM ranges, two dumped ranges, 4 KiB blocks. */
static struct ks
spec(enum kabi abi, int be, unsigned version, unsigned codec)
{
	struct ks s = { .abi = abi, .be = be, .version = version,
	    .block = 4096, .mapnr = 300, .codec = codec,
	    .ram = { { 0, 160 }, { 256, 300 } }, .nram = 2,
	    .dump = { { 1, 40 }, { 100, 130 }, { 256, 262 } }, .ndump = 3,
	    .prstatus = 0, .vmcoreinfo = "OSRELEASE=6.1.0-57-amd64\n"
	    "PAGESIZE=4096\nSYMBOL(init_uts_ns)=ffffffff82a1a1a0\n"
	    "CRASHTIME=1796177224\n" };

	s.machine = abi == K64 ? (be ? "s390x" : "x86_64") :
	    abi == K32 ? (be ? "ppc" : "i686") : (be ? "ppc" : "armv7l");
	return s;
}

static struct dk_dump *
open_ok(const void *b, size_t n, const struct dk_open_opts *o)
{
	struct dk_dump *d = NULL;
	struct dk_err err;

	ck_assert_msg(dk_open_mem(b, n, "mem", o, &d, &err) == DK_OK,
	    "%s (%s)", err.msg, dk_status_name(err.code));
	return d;
}

/* Open bytes that must fail with want; the message. */
static const char *
open_fails(const void *b, size_t n, const struct dk_open_opts *o,
    enum dk_status want)
{
	static struct dk_err err;
	struct dk_dump *d = NULL;
	enum dk_status st = dk_open_mem(b, n, "mem", o, &d, &err);

	ck_assert_msg(st == want, "got %s, expected %s: %s",
	    dk_status_name(st), dk_status_name(want), err.msg);
	ck_assert_ptr_null(d);
	ck_assert(err.msg[0] != '\0');
	return err.msg;
}

#define	HAS(msg, s)	ck_assert_msg(strstr((msg), (s)) != NULL, \
			    "expected \"%s\" in: %s", (s), (msg))

/*
 * Every page of s reads as page_byte says, pages of its part's range
 * and bitmap 2 only; others are DK_ENOTDUMPED; runs are bitmap 2's,
 * ranges bitmap 1's.
 */
static void
check_pages(struct dk_dump *d, const struct ks *s, uint64_t start,
    uint64_t end)
{
	uint32_t bs = s->block;
	uint8_t *buf = malloc(bs), *want = malloc(bs);
	struct dk_run_iter it = { 0 };
	struct dk_run r;
	struct dk_err err;
	uint64_t pfn, npages = 0;
	size_t nruns = 0;

	ck_assert(buf != NULL && want != NULL);
	for (pfn = 0; pfn < s->mapnr + 2; pfn++) {
		int dumped = pfn >= start && pfn < end && pfn < s->mapnr &&
		    in_ranges(s->dump, s->ndump, pfn);
		enum dk_status st = dk_read_pa(d, pfn * bs, buf, bs, &err);

		if (!dumped) {
			ck_assert_msg(st == DK_ENOTDUMPED, "PFN %ju: %s %s",
			    (uintmax_t)pfn, dk_status_name(st), err.msg);
			continue;
		}
		npages++;
		ck_assert_msg(st == DK_OK, "PFN %ju: %s", (uintmax_t)pfn,
		    err.msg);
		fill_page(pfn, want, bs);
		ck_assert_msg(memcmp(buf, want, bs) == 0, "PFN %ju differs",
		    (uintmax_t)pfn);
	}
	ck_assert_uint_eq(dk_info(d)->npages, npages);
	/* A read across two pages, at an odd address. */
	if (in_ranges(s->dump, s->ndump, 5) && start <= 5 && end > 6) {
		ck_assert_int_eq(dk_read_pa(d, 5 * (uint64_t)bs + bs - 3, buf,
		    7, &err), DK_OK);
		for (int i = 0; i < 7; i++)
			ck_assert_uint_eq(buf[i], i < 3 ? page_byte(5, bs - 3 +
			    (size_t)i) : page_byte(6, (size_t)i - 3));
	}
	while (dk_run_next(d, &it, &r)) {
		/* Read from a portable file (kind 5): the decoded pages'. */
		ck_assert(r.offset == DK_OFF_PAGED ||
		    strcmp(dk_info(d)->format, "portable-elf") == 0);
		ck_assert(in_ranges(s->dump, s->ndump, r.pa / bs));
		ck_assert(!in_ranges(s->dump, s->ndump, (r.pa + r.len) / bs) ||
		    (r.pa + r.len) / bs >= end);
		nruns++;
	}
	ck_assert_uint_ge(nruns, 1);
	ck_assert_uint_eq(dk_phys_nranges(d), s->nram);
	for (size_t i = 0; i < s->nram; i++) {
		ck_assert_uint_eq(dk_phys_range(d, i).start, s->ram[i][0] * bs);
		ck_assert_uint_eq(dk_phys_range(d, i).end, s->ram[i][1] * bs);
	}
	free(buf);
	free(want);
}

static const struct dk_attr *
attr(struct dk_dump *d, const char *name)
{
	const struct dk_attr *a = dk_attr_find(d, name);

	ck_assert_msg(a != NULL, "no attribute %s", name);
	return a;
}

/* ---------------------------------------------------------------------- */
/* Layouts, byte orders, versions, block sizes.                            */

/* _i: layout (3) x byte order (2) x version (6). */
START_TEST(test_layouts)
{
	enum kabi abi = (enum kabi)(_i / 12);
	int be = _i / 6 % 2;
	unsigned v = (unsigned)(_i % 6) + 1;
	struct ks s = spec(abi, be, v, KZLIB);
	struct kf f;
	struct dk_dump *d;
	const struct dk_info *in;
	struct dk_hfield hf;
	int seen_bs = 0;

	kd_build(&s, &f);
	d = open_ok(f.b, f.len, NULL);
	in = dk_info(d);
	ck_assert_str_eq(in->format, "kdump");
	ck_assert_uint_eq(in->version, v);
	ck_assert_int_eq(in->endian, be ? DK_BE : DK_LE);
	ck_assert_uint_eq(in->page_size, 4096);
	ck_assert_str_eq(in->arch, abi == K64 ? (be ? "s390x" : "amd64") :
	    abi == K32 ? (be ? "powerpc" : "i386") : (be ? "powerpc" :
	    "arm"));
	ck_assert_int_eq(in->arch_by, DK_BY_HEADER);
	ck_assert_uint_eq(in->npages, in->npages_present);
	check_pages(d, &s, 0, s.mapnr);
	for (size_t i = 0; dk_header_field(d, i, &hf) == 0; i++)
		if (strcmp(hf.name, "block_size") == 0) {
			ck_assert_uint_eq(hf.offset, abi == K64 ? 428 : 416);
			ck_assert_uint_eq(hf.value, 4096);
			seen_bs = 1;
		}
	ck_assert(seen_bs);
	ck_assert_ptr_null(dk_attr_find(d, "hostname"));
	ck_assert_str_eq(attr(d, "version_string")->str,
	    "Linux 6.1.0-57-amd64 #1 SMP test");
	ck_assert_str_eq(attr(d, "compression")->str, "zlib");
	ck_assert_uint_eq(attr(d, "dump_level")->num, 31);
	ck_assert_uint_eq(attr(d, "phys_base")->num, 0x1000000);
	if (v >= 3) {
		ck_assert_str_eq(attr(d, "OSRELEASE")->str, "6.1.0-57-amd64");
		ck_assert_str_eq(attr(d, "SYMBOL(init_uts_ns)")->str,
		    "ffffffff82a1a1a0");
		ck_assert_str_eq(attr(d, "OSRELEASE")->source, "VMCOREINFO");
	} else
		ck_assert_ptr_null(dk_attr_find(d, "OSRELEASE"));
	dk_close(d);
	free(f.b);
}
END_TEST

/* Block sizes 4 KiB to 64 KiB, in both layouts and byte orders. */
START_TEST(test_block_sizes)
{
	static const uint32_t sizes[] = { 4096, 8192, 16384, 65536 };
	struct ks s = spec(_i % 2 ? K64 : K32PAD, _i / 2 % 2, 6, KMIXED);
	struct kf f;
	struct dk_dump *d;

	s.block = sizes[_i / 4];
	s.mapnr = 140;
	s.ram[0][1] = 140;
	s.nram = 1;
	s.dump[1][1] = 112;
	s.ndump = 2;
	kd_build(&s, &f);
	d = open_ok(f.b, f.len, NULL);
	ck_assert_uint_eq(dk_info(d)->page_size, s.block);
	check_pages(d, &s, 0, s.mapnr);
	dk_close(d);
	free(f.b);
}
END_TEST

/* The library's tables: names, sizes per version, and dumplayout's check. */
START_TEST(test_tables)
{
	static const char *const names[] = { "kdump-header-64",
	    "kdump-header-32", "kdump-sub-header-64", "kdump-sub-header-32",
	    "kdump-sub-header-32pad" };
	const struct dk_layout *const *all;
	size_t n;

	all = dk_kd_layouts(&n);
	ck_assert_uint_eq(n, 5);
	for (size_t i = 0; i < n; i++) {
		const struct dk_ctentry *e = dk_ctreg_by_name(names[i]);

		ck_assert_str_eq(all[i]->name, names[i]);
		ck_assert_ptr_nonnull(e);
		ck_assert_uint_eq(dk_ct_check(e, NULL, NULL, NULL), 0);
	}
	ck_assert_uint_eq(dk_layout_size(all[0], 6), 464);
	ck_assert_uint_eq(dk_layout_size(all[1], 6), 452);
	for (unsigned v = 1; v <= 6; v++) {
		ck_assert_uint_eq(dk_layout_size(all[2], v), sub_size[K64][v]);
		ck_assert_uint_eq(dk_layout_size(all[3], v), sub_size[K32][v]);
		ck_assert_uint_eq(dk_layout_size(all[4], v),
		    sub_size[K32PAD][v]);
	}
	/* The i386 layout is not arm's: dumplayout tells them apart. */
	ck_assert_uint_gt(dk_ct_check(dk_ctreg_by_name("kdump-sub-header-32"),
	    "armhf", NULL, NULL), 0);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Pages.                                                                  */

START_TEST(test_codecs)
{
	static const unsigned codecs[] = { KNONE, KZLIB, KLZO, KSNAPPY,
	    KZSTD, KMIXED };
	static const char *const names[] = { "none", "zlib", "lzo", "snappy",
	    "zstd", "zlib" };
	struct ks s = spec(K64, _i >= 6, 6, codecs[_i % 6]);
	struct kf f;
	struct dk_dump *d;

	kd_build(&s, &f);
	d = open_ok(f.b, f.len, NULL);
	ck_assert_str_eq(attr(d, "compression")->str, names[_i % 6]);
	check_pages(d, &s, 0, s.mapnr);
	dk_close(d);
	free(f.b);
}
END_TEST

START_TEST(test_shared_zero_page)
{
	struct ks s = spec(K64, 0, 6, KLZO);
	struct kf f;
	struct dk_dump *d;
	size_t zero = 0;

	s.share_zero = 1;
	kd_build(&s, &f);
	/* Every zero page's descriptor points at the one page of zeros. */
	for (size_t i = 0; i < f.ndesc; i++)
		if (f.pfn[i] % 7 == 3) {
			ck_assert_uint_eq(get(f.b + f.off_desc + 24 * i, 8, 0),
			    f.off_data);
			zero++;
		}
	ck_assert_uint_ge(zero, 5);
	d = open_ok(f.b, f.len, NULL);
	check_pages(d, &s, 0, s.mapnr);
	ck_assert_uint_eq(dk_info(d)->npages_present, dk_info(d)->npages);
	dk_close(d);
	free(f.b);
}
END_TEST

START_TEST(test_not_dumped)
{
	struct ks s = spec(K64, 0, 6, KZLIB);
	struct kf f;
	struct dk_dump *d;
	struct dk_err err;
	uint8_t b[16];
	uint64_t off;

	kd_build(&s, &f);
	d = open_ok(f.b, f.len, NULL);
	/* In memory (bitmap 1), left out by the dump level (bitmap 2). */
	ck_assert_int_eq(dk_read_pa(d, 50 * 4096, b, 16, &err), DK_ENOTDUMPED);
	HAS(err.msg, "physical address 0x32000 (PFN 0x32) was left out of the "
	    "dump (set in bitmap 1, clear in bitmap 2: dump level 31)");
	ck_assert_int_eq(dk_pa_offset(d, 50 * 4096, &off, &err),
	    DK_ENOTDUMPED);
	ck_assert_int_eq(dk_pa_offset(d, 2 * 4096 + 5, &off, &err), DK_OK);
	ck_assert_uint_eq(off, DK_OFF_PAGED);
	/* Not in memory at all, past max_mapnr. */
	ck_assert_int_eq(dk_read_pa(d, 200 * 4096, b, 16, &err),
	    DK_ENOTDUMPED);
	HAS(err.msg, "is not in the machine's memory (clear in bitmap 1)");
	ck_assert_int_eq(dk_read_pa(d, 300 * 4096, b, 16, &err),
	    DK_ENOTDUMPED);
	HAS(err.msg, "past the last page frame the dump covers (max_mapnr "
	    "0x12c)");
	/* A read that runs from a dumped page into one that is not. */
	ck_assert_int_eq(dk_read_pa(d, 40 * 4096 - 8, b, 16, &err),
	    DK_ENOTDUMPED);
	/* No VMCOREINFO: no page tables to walk (linux.c). */
	ck_assert_int_eq(dk_kvtop(d, 0xffffffff81000000ull, &off, &err),
	    DK_EUNSUP);
	HAS(err.msg, "SYMBOL(init_top_pgt)");
	dk_close(d);
	free(f.b);
}
END_TEST

/* Damaged pages: ECORRUPT naming the PFN and the offset. */
START_TEST(test_corrupt_pages)
{
	struct ks s = spec(K64, 0, 6, KMIXED);
	struct kf f;
	struct dk_dump *d;
	struct dk_err err;
	uint8_t *b = malloc(4096);
	uint8_t *desc;
	size_t i;

	kd_build(&s, &f);
	/* Descriptor 2 (PFN 3) is a zero page; take each codec's page. */
	for (i = 0; i < f.ndesc; i++) {
		uint64_t pfn = f.pfn[i];
		unsigned c = codec_of(&s, pfn);
		uint64_t off, size;

		desc = f.b + f.off_desc + 24 * i;
		off = get(desc, 8, 0);
		size = get(desc + 8, 4, 0);
		if (c == KNONE || get(desc + 12, 4, 0) == 0 || pfn > 30)
			continue;
		/* Damage the compressed bytes. */
		f.b[off + size / 2] ^= 0x5a;
		f.b[off] ^= 0xff;
		d = open_ok(f.b, f.len, NULL);
		ck_assert_int_eq(dk_read_pa(d, pfn * 4096, b, 4096, &err),
		    DK_ECORRUPT);
		HAS(err.msg, "do not decompress to a page");
		ck_assert_uint_eq(err.offset, off);
		dk_close(d);
		f.b[off + size / 2] ^= 0x5a;
		f.b[off] ^= 0xff;
	}
	/* Two codecs at once; a size over a block; a raw page not a block. */
	desc = f.b + f.off_desc;			/* PFN 1 */
	put(desc + 12, 4, 0, KZLIB | KLZO);
	d = open_ok(f.b, f.len, NULL);
	ck_assert_int_eq(dk_read_pa(d, 4096, b, 16, &err), DK_ECORRUPT);
	HAS(err.msg, "PFN 0x1: its descriptor's flags 0x3 name more than one "
	    "codec");
	dk_close(d);
	put(desc + 12, 4, 0, KZLIB);
	put(desc + 8, 4, 0, 4097);
	d = open_ok(f.b, f.len, NULL);
	ck_assert_int_eq(dk_read_pa(d, 4096, b, 16, &err), DK_ECORRUPT);
	HAS(err.msg, "PFN 0x1: expected a page size of at most 4096, found "
	    "4097");
	ck_assert_uint_eq(err.offset, f.off_desc + 8);
	dk_close(d);
	put(desc + 12, 4, 0, 0);
	put(desc + 8, 4, 0, 100);
	d = open_ok(f.b, f.len, NULL);
	ck_assert_int_eq(dk_read_pa(d, 4096, b, 16, &err), DK_ECORRUPT);
	HAS(err.msg, "of exactly 4096, found 100");
	dk_close(d);
	free(b);
	free(f.b);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* In the portable ELF minidump (source kind 5) and back.                  */

/* The bytes a writer put in memfd fd: a copy, its length in *n. */
static uint8_t *
memfd_bytes(int fd, size_t *n)
{
	off_t end = lseek(fd, 0, SEEK_END);
	uint8_t *b;

	ck_assert_int_ge(end, 0);
	*n = (size_t)end;
	b = malloc(*n + 1);
	ck_assert_ptr_nonnull(b);
	ck_assert_int_eq(pread(fd, b, *n, 0), (ssize_t)*n);
	return b;
}

/*
 * _i: each codec (this file's encoders: compress2 1, lzo1x_1, snappy,
 * ZSTD_compress 1, as makedumpfile calls them), plain and flattened, of
 * both ABIs and byte orders: the portable file reads every page as the
 * builder wrote it, holds no residue (the survey found the encoders),
 * and --to native gives the builder's bytes back.
 */
START_TEST(test_portable)
{
	static const unsigned codecs[] = { KNONE, KZLIB, KLZO, KSNAPPY,
	    KZSTD, KMIXED };
	struct ks s = spec(_i % 3 ? K64 : K32, _i % 2, 6, codecs[_i % 6]);
	struct kf f;
	struct dk_dump *d, *p;
	struct dk_sink sink;
	struct dk_kd_reenc r;
	struct dk_err err;
	uint8_t *src, *pb, *back;
	size_t n, np, nb;
	int fd[2];

	s.share_zero = _i % 4 == 0;
	kd_build(&s, &f);
	src = f.b;
	n = f.len;
	if (_i >= 6)
		src = flatten(&f, _i % 2 ? 1000 : 4096, _i % 3, _i % 2, 0, 1,
		    &n);
	d = open_ok(src, n, NULL);
	ck_assert_msg(dk_kd_reenc_survey(d, &r, &err) == DK_OK, "%s", err.msg);
	ck_assert_uint_eq(r.residue, 0);
	ck_assert_uint_eq(r.gap_nonzero, 0);
	for (int ci = 0; ci < 4; ci++)
		ck_assert_uint_eq(r.differ[ci], 0);
	ck_assert(s.codec != KZLIB || strcmp(r.enc[0], "zlib compress2") == 0);
	ck_assert(s.codec != KZSTD || (strcmp(r.enc[3], "zstd") == 0 &&
	    r.level[3] == 1));
	for (int k = 0; k < 2; k++) {
		fd[k] = memfd_create("check-kdump-portable", MFD_CLOEXEC);
		ck_assert_int_ge(fd[k], 0);
	}
	dk_sink_init(&sink, fd[0], "portable");
	ck_assert_msg(dk_elfmini_write(d, &sink, 0, &err) == DK_OK, "%s",
	    err.msg);
	pb = memfd_bytes(fd[0], &np);
	p = open_ok(pb, np, NULL);
	ck_assert_str_eq(dk_info(p)->format, "portable-elf");
	check_pages(p, &s, 0, s.mapnr);
	ck_assert_uint_eq(dk_info(p)->npages, dk_info(d)->npages);
	dk_sink_init(&sink, fd[1], "native");
	ck_assert_msg(dk_native_write(p, &sink, &err) == DK_OK, "%s",
	    err.msg);
	back = memfd_bytes(fd[1], &nb);
	ck_assert_uint_eq(nb, n);
	ck_assert_msg(memcmp(back, src, n) == 0, "the way back differs");
	dk_close(p);
	dk_close(d);
	for (int k = 0; k < 2; k++)
		close(fd[k]);
	free(back);
	free(pb);
	if (src != f.b)
		free(src);
	free(f.b);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Flattened.                                                              */

/* _i: chunk sizes and record orders; holes; garbage overwritten. */
START_TEST(test_flattened)
{
	static const size_t chunks[] = { 4096, 1000, 65536, 777 };
	struct ks s = spec(_i % 2 ? K32 : K64, _i % 4 == 3, 6, KMIXED);
	struct kf f;
	struct dk_dump *d;
	uint8_t *o;
	size_t n;

	s.share_zero = _i % 2;
	kd_build(&s, &f);
	o = flatten(&f, chunks[_i % 4], _i % 3, _i % 2, _i >= 4 && _i % 2 ==
	    0 ? 9000 : 0, 1, &n);
	d = open_ok(o, n, NULL);
	ck_assert_str_eq(dk_info(d)->format, "kdump");
	ck_assert_uint_eq(dk_info(d)->file_size, n);
	ck_assert_ptr_nonnull(dk_attr_find(d, "flattened_records"));
	ck_assert_ptr_null(dk_attr_find(d, "flattened_cut_short"));
	ck_assert_str_eq(dk_section(d, 0)->name, "flattened header");
	check_pages(d, &s, 0, s.mapnr);
	ck_assert_uint_eq(dk_info(d)->npages_present, dk_info(d)->npages);
	dk_close(d);
	free(o);
	free(f.b);
}
END_TEST

/* The later of two records wins where they overlap, as -R writes them. */
START_TEST(test_flattened_overlap)
{
	struct ks s = spec(K64, 0, 6, KZLIB);
	struct kf f, g;
	struct dk_dump *d;
	uint8_t *o, *p;
	size_t n;

	s.node = "first";
	kd_build(&s, &g);
	s.node = "second";
	kd_build(&s, &f);
	/* The first file's header block after the second's records. */
	o = flatten(&f, 5000, 0, 0, 0, 0, &n);
	p = realloc(o, n + 16 + 4096 + 16);
	ck_assert_ptr_nonnull(p);
	o = p;
	put(o + n, 8, 1, 0);
	put(o + n + 8, 8, 1, 4096);
	memcpy(o + n + 16, g.b, 4096);
	n += 16 + 4096;
	put(o + n, 8, 1, UINT64_MAX);
	put(o + n + 8, 8, 1, UINT64_MAX);
	n += 16;
	d = open_ok(o, n, NULL);
	ck_assert_str_eq(attr(d, "hostname")->str, "first");
	check_pages(d, &s, 0, s.mapnr);
	dk_close(d);
	free(o);
	/* And before: the file's own header comes later and wins. */
	o = flatten(&f, 5000, 0, 0, 0, 1, &n);
	p = malloc(n + 16 + 4096);
	ck_assert_ptr_nonnull(p);
	memcpy(p, o, 4096);
	put(p + 4096, 8, 1, 0);
	put(p + 4104, 8, 1, 4096);
	memcpy(p + 4112, g.b, 4096);
	memcpy(p + 4112 + 4096, o + 4096, n - 4096);
	d = open_ok(p, n + 16 + 4096, NULL);
	ck_assert_str_eq(attr(d, "hostname")->str, "second");
	dk_close(d);
	free(p);
	free(o);
	free(f.b);
	free(g.b);
}
END_TEST

START_TEST(test_flattened_bad)
{
	struct ks s = spec(K64, 0, 6, KZLIB);
	struct kf f;
	struct dk_dump *d;
	struct dk_err err;
	uint8_t *o, b[16];
	size_t n, cut;

	kd_build(&s, &f);
	/* No end marker, the last record cut: what is there reads. */
	o = flatten(&f, 3000, 0, 0, 0, 0, &n);
	cut = n - 1500;
	d = open_ok(o, cut, NULL);
	ck_assert_ptr_nonnull(dk_attr_find(d, "flattened_cut_short"));
	ck_assert_uint_lt(dk_info(d)->npages_present, dk_info(d)->npages);
	ck_assert_int_eq(dk_read_pa(d, 1 * 4096, b, 16, &err), DK_OK);
	ck_assert_int_eq(dk_read_pa(d, 261 * 4096, b, 16, &err),
	    DK_ENOTDUMPED);
	HAS(err.msg, "PFN 0x105: its ");
	HAS(err.msg, "past the end of the flattened file's records");
	dk_close(d);
	free(o);
	/* Type and version other than 1. */
	o = flatten(&f, 3000, 0, 0, 0, 1, &n);
	put(o + 24, 8, 1, 2);
	HAS(open_fails(o, n, NULL, DK_EUNSUP), "mem: offset 0x10: flattened "
	    "header: expected type 1 and version 1");
	put(o + 24, 8, 1, 1);
	/* A negative offset, a size of 0. */
	put(o + 4096, 8, 1, (uint64_t)-5);
	HAS(open_fails(o, n, NULL, DK_ECORRUPT), "mem: offset 0x1000: "
	    "flattened record 0: expected an offset >= 0");
	put(o + 4096, 8, 1, 0);
	put(o + 4096 + 8, 8, 1, 0);
	open_fails(o, n, NULL, DK_ECORRUPT);
	free(o);
	free(f.b);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Split sets.                                                             */

/* Write the parts of a split set to files; paths in p (freed by caller). */
static void
write_set(const struct ks *base, const uint64_t (*ranges)[2], size_t n,
    int flat, char (*paths)[64])
{
	for (size_t i = 0; i < n; i++) {
		struct ks s = *base;
		struct kf f;
		FILE *fp;
		uint8_t *o = NULL;
		size_t len;

		s.split = 1;
		s.start = ranges[i][0];
		s.end = ranges[i][1];
		kd_build(&s, &f);
		snprintf(paths[i], 64, "/tmp/check_kdump.%ld.%zu",
		    (long)getpid(), i);
		fp = fopen(paths[i], "wb");
		ck_assert_ptr_nonnull(fp);
		if (flat)
			o = flatten(&f, 2048, 1, 0, 0, 1, &len);
		ck_assert_uint_eq(fwrite(o != NULL ? o : f.b, 1, o != NULL ?
		    len : f.len, fp), o != NULL ? len : f.len);
		fclose(fp);
		free(o);
		free(f.b);
	}
}

START_TEST(test_split_set)
{
	static const uint64_t ranges[3][2] = { { 0, 35 }, { 35, 120 },
	    { 120, 300 } };
	struct ks s = spec(_i % 2 ? K32 : K64, 0, _i >= 2 ? 5 : 6, KZLIB);
	char paths[3][64];
	const char *order[3];
	struct dk_dump *d;
	struct dk_err err;
	uint8_t b[16];

	write_set(&s, ranges, 3, _i == 1, paths);
	/* Given in any order: one dump. */
	order[0] = paths[1];
	order[1] = paths[2];
	order[2] = paths[0];
	ck_assert_msg(dk_open_set(order, 3, NULL, &d, &err) == DK_OK, "%s",
	    err.msg);
	ck_assert_uint_eq(dk_nfiles(d), 3);
	ck_assert_uint_eq(attr(d, "split_parts")->num, 3);
	ck_assert_ptr_null(dk_attr_find(d, "split_start_pfn"));
	check_pages(d, &s, 0, s.mapnr);
	dk_close(d);
	/* Each part alone: its range, and the rest is elsewhere. */
	for (size_t i = 0; i < 3; i++) {
		ck_assert_int_eq(dk_open(paths[i], NULL, &d, &err), DK_OK);
		ck_assert_uint_eq(attr(d, "split_start_pfn")->num,
		    ranges[i][0]);
		ck_assert_uint_eq(attr(d, "split_end_pfn")->num, ranges[i][1]);
		check_pages(d, &s, ranges[i][0], ranges[i][1]);
		ck_assert_int_eq(dk_read_pa(d, (i == 0 ? 100 : 1) * 4096, b,
		    16, &err), DK_ENOTDUMPED);
		HAS(err.msg, "is in another part of the split set");
		HAS(err.msg, i == 0 ? "holds PFNs [0, 0x23) only" : i == 1 ?
		    "holds PFNs [0x23, 0x78) only" :
		    "holds PFNs [0x78, 0x12c) only");
		dk_close(d);
	}
	/* Two of three: the missing part's pages are in no file. */
	ck_assert_int_eq(dk_open_set(order, 2, NULL, &d, &err), DK_OK);
	check_pages(d, &s, 35, 300);
	ck_assert_int_eq(dk_read_pa(d, 4096, b, 16, &err), DK_ENOTDUMPED);
	HAS(err.msg, "no file of the split set holds it");
	dk_close(d);
	/* The same part twice: overlapping ranges. */
	order[1] = paths[1];
	ck_assert_int_eq(dk_open_set(order, 2, NULL, &d, &err), DK_ECORRUPT);
	HAS(err.msg, "which overlap those of");
	for (size_t i = 0; i < 3; i++)
		unlink(paths[i]);
}
END_TEST

START_TEST(test_split_not_a_set)
{
	static const uint64_t ranges[2][2] = { { 0, 100 }, { 100, 300 } };
	struct ks s = spec(K64, 0, 6, KZLIB);
	char paths[2][64], other[64];
	const char *two[2];
	struct dk_dump *d;
	struct dk_err err;
	struct kf f;
	FILE *fp;

	write_set(&s, ranges, 2, 0, paths);
	/* A whole dump is not a part. */
	kd_build(&s, &f);
	snprintf(other, sizeof(other), "/tmp/check_kdump.%ld.whole",
	    (long)getpid());
	fp = fopen(other, "wb");
	ck_assert_ptr_nonnull(fp);
	ck_assert_uint_eq(fwrite(f.b, 1, f.len, fp), f.len);
	fclose(fp);
	two[0] = paths[0];
	two[1] = other;
	ck_assert_int_eq(dk_open_set(two, 2, NULL, &d, &err), DK_EINVAL);
	HAS(err.msg, "this one is not a part of a makedumpfile --split set");
	ck_assert_uint_eq(err.file, 1);
	free(f.b);
	/* A part of another dump (another block size). */
	s.block = 8192;
	s.split = 1;
	s.start = 100;
	s.end = 300;
	kd_build(&s, &f);
	fp = fopen(other, "wb");
	ck_assert_uint_eq(fwrite(f.b, 1, f.len, fp), f.len);
	fclose(fp);
	ck_assert_int_eq(dk_open_set(two, 2, NULL, &d, &err), DK_ECORRUPT);
	HAS(err.msg, "block_size is 8192 here, 4096 in");
	ck_assert_uint_eq(err.file, 1);
	free(f.b);
	unlink(other);
	unlink(paths[0]);
	unlink(paths[1]);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Incomplete and truncated files.                                         */

START_TEST(test_cut_in_pages)
{
	struct ks s = spec(K64, 1, 6, KZLIB);
	struct kf f;
	struct dk_dump *d;
	struct dk_err err;
	uint8_t b[4096], want[4096];
	size_t cut, k = 30;		/* the cut falls in page 30's data */
	uint64_t present = 0;

	kd_build(&s, &f);
	cut = (size_t)get(f.b + f.off_desc + 24 * k, 8, 1) + 10;
	d = open_ok(f.b, cut, NULL);
	for (size_t i = 0; i < f.ndesc; i++) {
		enum dk_status st = dk_read_pa(d, f.pfn[i] * 4096, b, 4096,
		    &err);

		if (i < k) {
			ck_assert_msg(st == DK_OK, "%s", err.msg);
			fill_page(f.pfn[i], want, 4096);
			ck_assert(memcmp(b, want, 4096) == 0);
			present++;
			continue;
		}
		ck_assert_int_eq(st, DK_ENOTDUMPED);
		HAS(err.msg, "past the end of the file");
		HAS(err.msg, "the dump is incomplete");
	}
	ck_assert_uint_eq(dk_info(d)->npages_present, present);
	ck_assert_uint_eq(dk_info(d)->npages, f.ndesc);
	dk_close(d);
	free(f.b);
}
END_TEST

START_TEST(test_cut_in_descriptors)
{
	struct ks s = spec(K32PAD, 0, 6, KSNAPPY);
	struct kf f;
	struct dk_dump *d;
	struct dk_err err;
	uint8_t b[16];

	kd_build(&s, &f);
	d = open_ok(f.b, f.off_desc + 24 * 10 + 5, NULL);
	ck_assert_uint_eq(dk_info(d)->npages_present, 0);
	ck_assert_int_eq(dk_read_pa(d, f.pfn[12] * 4096, b, 16, &err),
	    DK_ENOTDUMPED);
	HAS(err.msg, "PFN 0xd: its page descriptor (12 of this file) is past "
	    "the end of the file");
	ck_assert_uint_eq(err.offset, f.off_desc + 24 * 12);
	ck_assert_int_eq(dk_read_pa(d, f.pfn[3] * 4096, b, 16, &err),
	    DK_ENOTDUMPED);
	HAS(err.msg, "past the end of the file");
	dk_close(d);
	/* Cut inside the bitmaps: the dump cannot be opened. */
	HAS(open_fails(f.b, f.off_desc - 100, NULL, DK_ETRUNC), "the bitmaps");
	free(f.b);
}
END_TEST

/* makedumpfile after ENOSPC: descriptors never written, zero. */
START_TEST(test_never_written)
{
	struct ks s = spec(K64, 0, 6, KZSTD);
	struct kf f;
	struct dk_dump *d;
	struct dk_err err;
	uint8_t b[4096];

	s.status = 0x8;			/* DUMP_DH_COMPRESSED_INCOMPLETE */
	kd_build(&s, &f);
	memset(f.b + f.off_desc + 24 * 20, 0, 24 * (f.ndesc - 20));
	d = open_ok(f.b, f.len, NULL);
	ck_assert_uint_eq(attr(d, "incomplete")->num, 1);
	ck_assert_uint_eq(dk_info(d)->npages_present, 20);
	ck_assert_int_eq(dk_read_pa(d, f.pfn[19] * 4096, b, 4096, &err),
	    DK_OK);
	ck_assert_int_eq(dk_read_pa(d, f.pfn[25] * 4096, b, 4096, &err),
	    DK_ENOTDUMPED);
	ck_assert_str_eq(err.msg, "physical address 0x1a000: mem: offset "
	    "0x4258: PFN 0x1a: its page "
	    "descriptor is empty (size 0, offset 0): the page was never "
	    "written, the dump is incomplete (the header says so)");
	dk_close(d);
	free(f.b);
}
END_TEST

/* Every prefix of a file (and of its flattened form) opens or fails. */
START_TEST(test_prefixes)
{
	struct ks s = spec(_i ? K32 : K64, _i, 4, KMIXED);
	struct kf f;
	uint8_t *o, *copy, b[64];
	size_t n;

	s.mapnr = 64;
	s.ram[0][1] = 64;
	s.nram = 1;
	s.dump[1][0] = 50;
	s.dump[1][1] = 60;
	s.ndump = 2;
	kd_build(&s, &f);
	o = flatten(&f, 700, 2, 1, 0, 1, &n);
	for (int which = 0; which < 2; which++) {
		const uint8_t *src = which ? o : f.b;
		size_t len = which ? n : f.len;

		for (size_t cut = 0; cut <= len; cut += cut < 5000 ? 7 : 61) {
			struct dk_dump *d = NULL;
			struct dk_err err;

			/* An exact-size copy: any over-read trips ASan. */
			copy = malloc(cut ? cut : 1);
			memcpy(copy, src, cut);
			if (dk_open_mem(copy, cut, "mem", NULL, &d, &err) ==
			    DK_OK) {
				struct dk_run_iter it = { 0 };
				struct dk_run r;

				while (dk_run_next(d, &it, &r))
					(void)dk_read_pa(d, r.pa, b,
					    sizeof(b), &err);
				dk_close(d);
			} else
				ck_assert(err.msg[0] != '\0');
			free(copy);
		}
	}
	free(o);
	free(f.b);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Metadata, architecture, bad headers.                                    */

START_TEST(test_arch_sources)
{
	struct ks s = spec(K64, 0, 6, KZLIB);
	struct dk_open_opts o = { 0 };
	struct kf f;
	struct dk_dump *d;

	/* QEMU: "Unknown", the architecture from NT_PRSTATUS's size. */
	s.machine = "Unknown";
	s.prstatus = 392;
	kd_build(&s, &f);
	d = open_ok(f.b, f.len, NULL);
	ck_assert_str_eq(dk_info(d)->arch, "aarch64");
	HAS(dk_info(d)->arch_why, "NT_PRSTATUS is 392 bytes");
	dk_close(d);
	free(f.b);
	/* Big-endian, 336 bytes: s390x (x86_64's size, the other order). */
	s.be = 1;
	s.prstatus = 336;
	kd_build(&s, &f);
	d = open_ok(f.b, f.len, NULL);
	ck_assert_str_eq(dk_info(d)->arch, "s390x");
	dk_close(d);
	free(f.b);
	/* Empty utsname, no notes: a VMCOREINFO key only riscv64 writes. */
	s.be = 0;
	s.machine = NULL;
	s.prstatus = 0;
	s.vmcoreinfo = "OSRELEASE=6.1\nNUMBER(phys_ram_base)=0x80000000\n";
	kd_build(&s, &f);
	d = open_ok(f.b, f.len, NULL);
	ck_assert_str_eq(dk_info(d)->arch, "riscv64");
	HAS(dk_info(d)->arch_why, "VMCOREINFO has NUMBER(phys_ram_base)");
	ck_assert_str_eq(attr(d, "os_release")->str, "6.1.0-57-amd64");
	ck_assert_str_eq(attr(d, "OSRELEASE")->str, "6.1");
	dk_close(d);
	free(f.b);
	/* Nothing says: --arch, or EAMBIG. */
	s.vmcoreinfo = NULL;
	kd_build(&s, &f);
	HAS(open_fails(f.b, f.len, NULL, DK_EAMBIG), "name it with --arch");
	o.arch = "ppc64le";
	d = open_ok(f.b, f.len, &o);
	ck_assert_str_eq(dk_info(d)->arch, "powerpc64le");
	ck_assert_int_eq(dk_info(d)->arch_by, DK_BY_OPTION);
	dk_close(d);
	o.arch = "s390x";
	HAS(open_fails(f.b, f.len, &o, DK_EINVAL), "--arch s390x is "
	    "big-endian, but the header is little-endian");
	o.arch = "vax";
	open_fails(f.b, f.len, &o, DK_EINVAL);
	free(f.b);
	/* utsname.machine against the byte order. */
	s.machine = "x86_64";
	s.be = 1;
	kd_build(&s, &f);
	HAS(open_fails(f.b, f.len, NULL, DK_ECORRUPT), "utsname.machine "
	    "\"x86_64\" is a little-endian machine");
	free(f.b);
}
END_TEST

START_TEST(test_meta)
{
	struct ks s = spec(K64, 0, 6, KZLIB);
	struct kf f;
	struct dk_dump *d;
	const struct dk_section *sc;
	int saw_vmci = 0, saw_notes = 0;
	uint64_t last = 0;

	s.node = "guest";
	s.tv_sec = 1796177224;
	s.prstatus = 336;
	kd_build(&s, &f);
	d = open_ok(f.b, f.len, NULL);
	ck_assert_str_eq(attr(d, "hostname")->str, "guest");
	ck_assert_str_eq(attr(d, "os_release")->str, "6.1.0-57-amd64");
	ck_assert_int_eq(attr(d, "dump_time")->type, DK_ATTR_TIME);
	ck_assert_uint_eq(attr(d, "dump_time")->num, 1796177224);
	ck_assert_str_eq(attr(d, "CRASHTIME")->str, "1796177224");
	ck_assert_str_eq(attr(d, "PAGESIZE")->str, "4096");
	ck_assert_str_eq(attr(d, "machine")->str, "x86_64");
	ck_assert_uint_eq(attr(d, "max_mapnr")->num, 300);
	ck_assert_ptr_null(dk_attr_find(d, "incomplete"));
	for (size_t i = 0; (sc = dk_section(d, i)) != NULL; i++) {
		ck_assert_uint_ge(sc->offset, last);
		last = sc->offset;
		if (strcmp(sc->name, "vmcoreinfo") == 0) {
			saw_vmci = 1;
			ck_assert_uint_eq(sc->size, strlen(s.vmcoreinfo));
			ck_assert(memcmp(f.b + sc->offset, "OSRELEASE=", 10) ==
			    0);
		}
		saw_notes |= strcmp(sc->name, "notes") == 0;
	}
	ck_assert(saw_vmci && saw_notes);
	ck_assert_str_eq(dk_section(d, 0)->name, "header");
	dk_close(d);
	free(f.b);
}
END_TEST

START_TEST(test_bad_headers)
{
	struct ks s = spec(K64, 0, 6, KZLIB);
	struct kf f;

	kd_build(&s, &f);
	put(f.b + 428, 4, 0, 5000);		/* block_size */
	HAS(open_fails(f.b, f.len, NULL, DK_ECORRUPT), "read as 64-bit "
	    "(block_size at 428), block_size 5000 is not a power of two");
	put(f.b + 428, 4, 0, 4096);
	put(f.b + 8, 4, 0, 7);			/* header_version */
	HAS(open_fails(f.b, f.len, NULL, DK_EUNSUP), "mem: offset 0x8: "
	    "expected header_version 0 to 6");
	put(f.b + 8, 4, 0, 6);
	put(f.b + 436, 4, 0, 0);		/* bitmap_blocks */
	HAS(open_fails(f.b, f.len, NULL, DK_ECORRUPT), "bitmap_blocks 0");
	put(f.b + 436, 4, 0, 2);
	/* max_mapnr_64 larger than the bitmaps hold. */
	put(f.b + 4096 + 96, 8, 0, 1u << 20);
	HAS(open_fails(f.b, f.len, NULL, DK_ECORRUPT), "mem: offset 0x1060: "
	    "max_mapnr_64 0x100000 needs more bits");
	put(f.b + 4096 + 96, 8, 0, 300);
	/* Notes that do not fit where the sub header says. */
	put(f.b + 4096 + 56, 8, 0, 1u << 20);
	HAS(open_fails(f.b, f.len, NULL, DK_ETRUNC), "the ELF notes needs "
	    "1048576 bytes");
	put(f.b + 4096 + 56, 8, 0, 64u << 20);
	HAS(open_fails(f.b, f.len, NULL, DK_ELIMIT), "is larger than the "
	    "0x1000000 dumpkit reads");
	free(f.b);
	/* A diskdump header (no kdump sub header) reads too. */
	s.sig = "DISKDUMP";
	s.version = 1;
	kd_build(&s, &f);
	{
		struct dk_dump *d = open_ok(f.b, f.len, NULL);

		check_pages(d, &s, 0, s.mapnr);
		ck_assert_ptr_null(dk_attr_find(d, "dump_level"));
		dk_close(d);
	}
	free(f.b);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Hostile headers: every bound the reader relies on.                      */

/*
 * Each field set to a value no writer writes: the open (or the read of
 * the page it concerns) fails with the status given, a message naming
 * the file, and the offset of the field or structure at fault; never a
 * crash, a hang or a large allocation (the suite runs under ASan).
 */
START_TEST(test_hostile_headers)
{
	struct ks s = spec(K64, 0, 6, KZLIB);
	struct kf f;
	uint8_t *b, page[4096];
	struct dk_err err;
	struct dk_dump *d;

	kd_build(&s, &f);
	b = malloc(f.len);
	ck_assert_ptr_nonnull(b);
	{
		/* (offset, width, value, status, message, offset of error) */
		const struct { size_t off; unsigned w; uint64_t v;
		    enum dk_status st; const char *msg; uint64_t at; } h[] = {
			/* max_mapnr_64 of 2^60 PFNs: more than the bitmaps. */
			{ 4096 + 96, 8, (uint64_t)1 << 60, DK_ECORRUPT,
			  "needs more bits than the", 4096 + 96 },
			/* bitmap_blocks 2^32 - 1: the bitmaps past EOF. */
			{ 436, 4, UINT32_MAX, DK_ETRUNC, "the bitmaps", 8192 },
			/* sub_hdr_size 2^31 - 1: the bitmaps past EOF. */
			{ 432, 4, INT32_MAX, DK_ETRUNC, "the bitmaps",
			  ((uint64_t)INT32_MAX + 1) * 4096 },
			/* block_size 2^31: no layout fits. */
			{ 428, 4, (uint64_t)1 << 31, DK_ECORRUPT,
			  "neither the 64-bit nor the 32-bit layout", 0 },
			/* The notes past the end of the file. */
			{ 4096 + 48, 8, (uint64_t)1 << 40, DK_ETRUNC,
			  "the ELF notes", (uint64_t)1 << 40 },
			/* 1 TiB of notes. */
			{ 4096 + 56, 8, (uint64_t)1 << 40, DK_ELIMIT,
			  "is larger than the", 4096 + sub_size[K64][6] },
			/* 1 TiB of VMCOREINFO (version 6 reads the note's). */
			{ 4096 + 40, 8, (uint64_t)1 << 40, DK_OK, NULL, 0 },
			/* A split part ending past max_mapnr: cut to it. */
			{ 4096 + 12, 4, 1, DK_OK, NULL, 0 },
		};

		for (size_t i = 0; i < DK_ARRAY_LEN(h); i++) {
			memcpy(b, f.b, f.len);
			put(b + h[i].off, h[i].w, 0, h[i].v);
			if (h[i].st == DK_OK) {
				d = open_ok(b, f.len, NULL);
				dk_close(d);
				continue;
			}
			ck_assert_msg(dk_open_mem(b, f.len, "mem", NULL, &d,
			    &err) == h[i].st, "case %zu: %s (%s)", i, err.msg,
			    dk_status_name(err.code));
			HAS(err.msg, h[i].msg);
			ck_assert_msg(strncmp(err.msg, "mem", 3) == 0, "case "
			    "%zu: the file is not named: %s", i, err.msg);
			ck_assert_msg(err.offset == h[i].at, "case %zu: offset "
			    "%#jx, expected %#jx: %s", i, (uintmax_t)err.offset,
			    (uintmax_t)h[i].at, err.msg);
		}
	}
	/* Descriptors: size 2^32 - 1, offset 2^63 - 1, offset + size wrap. */
	{
		const struct { unsigned w, at; uint64_t v; enum dk_status st;
		    uint64_t eoff; } q[] = {
			{ 4, 8, UINT32_MAX, DK_ECORRUPT, 8 },
			{ 8, 0, INT64_MAX, DK_ENOTDUMPED, 0 },
			{ 8, 0, UINT64_MAX - 100, DK_ENOTDUMPED, 0 },
		};

		for (size_t i = 0; i < DK_ARRAY_LEN(q); i++) {
			memcpy(b, f.b, f.len);
			put(b + f.off_desc + q[i].at, q[i].w, 0, q[i].v);
			d = open_ok(b, f.len, NULL);
			ck_assert_int_eq(dk_read_pa(d, 4096, page, 4096, &err),
			    q[i].st);
			HAS(err.msg, "mem: offset");	/* file, offset */
			HAS(err.msg, "PFN 0x1");
			ck_assert_uint_eq(err.offset, f.off_desc + q[i].eoff);
			dk_close(d);
		}
	}
	free(b);
	/* Flattened: a record far past the end, and one of 2^40 bytes. */
	{
		size_t n;
		uint8_t *o = flatten(&f, 4096, 0, 0, 0, 1, &n);
		uint8_t *big = malloc(n + 32);

		ck_assert_ptr_nonnull(big);
		/* A last record at dump offset 2^62 (before the end marker). */
		memcpy(big, o, n - 16);
		put(big + n - 16, 8, 1, (uint64_t)1 << 62);
		put(big + n - 8, 8, 1, 16);
		memset(big + n, 0xee, 16);
		put(big + n + 16, 8, 1, UINT64_MAX);
		put(big + n + 24, 8, 1, UINT64_MAX);
		d = open_ok(big, n + 32, NULL);
		check_pages(d, &s, 0, s.mapnr);
		dk_close(d);
		/* The same record claiming 2^40 bytes: the file is cut there. */
		put(big + n - 8, 8, 1, (uint64_t)1 << 40);
		d = open_ok(big, n + 32, NULL);
		ck_assert_int_eq(dk_attr_find(d, "flattened_cut_short")->num,
		    1);
		dk_close(d);
		free(big);
		free(o);
	}
	free(f.b);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* --zero-excluded.                                                        */

START_TEST(test_zero_excluded)
{
	static const uint64_t ranges[2][2] = { { 0, 100 }, { 100, 300 } };
	struct ks s = spec(K64, 0, 6, KZLIB);
	struct kf f;
	struct dk_dump *d;
	struct dk_err err;
	uint8_t b[4096], z[4096] = { 0 };
	char paths[2][64];
	uint64_t off;

	kd_build(&s, &f);
	d = open_ok(f.b, f.len, NULL);
	ck_assert_int_eq(dk_read_pa(d, 50 * 4096, b, 4096, &err),
	    DK_ENOTDUMPED);
	ck_assert_int_eq(dk_zero_excluded(d, 1, &err), DK_OK);
	/* In memory, left out by the dump level: zeros, when asked. */
	ck_assert_int_eq(dk_read_pa(d, 50 * 4096, b, 4096, &err), DK_OK);
	ck_assert_mem_eq(b, z, 4096);
	ck_assert_int_eq(dk_pa_offset(d, 50 * 4096, &off, &err), DK_OK);
	ck_assert_uint_eq(off, DK_OFF_ZERO);
	/* A read across a dumped page and an excluded one. */
	ck_assert_int_eq(dk_read_pa(d, 40 * 4096 - 8, b, 16, &err), DK_OK);
	for (int i = 0; i < 8; i++)
		ck_assert_uint_eq(b[i], page_byte(39, 4096 - 8 + (size_t)i));
	ck_assert_mem_eq(b + 8, z, 8);
	/* Not memory, past max_mapnr: still not dumped. */
	ck_assert_int_eq(dk_read_pa(d, 200 * 4096, b, 16, &err),
	    DK_ENOTDUMPED);
	ck_assert_int_eq(dk_read_pa(d, 300 * 4096, b, 16, &err),
	    DK_ENOTDUMPED);
	/* The runs (and so dumpcheck's digest) are the stored pages only. */
	{
		struct dk_run_iter it = { 0 };
		struct dk_run r;
		uint64_t n = 0;

		while (dk_run_next(d, &it, &r))
			n += r.len / 4096;
		ck_assert_uint_eq(n, dk_info(d)->npages);
	}
	dk_close(d);
	/* A page the file lost is never zeros. */
	d = open_ok(f.b, f.off_data + 10, NULL);
	ck_assert_int_eq(dk_zero_excluded(d, 1, &err), DK_OK);
	ck_assert_int_eq(dk_read_pa(d, 4096, b, 4096, &err), DK_ENOTDUMPED);
	HAS(err.msg, "the dump is incomplete");
	dk_close(d);
	free(f.b);
	/* Nor a page of another part of a split set. */
	write_set(&s, ranges, 2, 0, paths);
	ck_assert_int_eq(dk_open(paths[0], NULL, &d, &err), DK_OK);
	ck_assert_int_eq(dk_zero_excluded(d, 1, &err), DK_OK);
	ck_assert_int_eq(dk_read_pa(d, 110 * 4096, b, 16, &err),
	    DK_ENOTDUMPED);
	HAS(err.msg, "is in another part of the split set");
	ck_assert_int_eq(dk_read_pa(d, 50 * 4096, b, 16, &err), DK_OK);
	dk_close(d);
	unlink(paths[0]);
	unlink(paths[1]);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* dumpcheck's validator (formats/check_kdump.c).                          */

struct seen {
	size_t		 n;
	struct { char code[40]; uint64_t off; int has; uint64_t count;
	    char msg[384]; } f[32];
};

static void
on_finding(void *arg, const struct dk_finding *f)
{
	struct seen *s = arg;

	if (s->n >= DK_ARRAY_LEN(s->f))
		return;
	snprintf(s->f[s->n].code, sizeof(s->f[s->n].code), "%s", f->code);
	s->f[s->n].off = f->offset;
	s->f[s->n].has = f->has_offset;
	s->f[s->n].count = f->count;
	memcpy(s->f[s->n].msg, f->msg, sizeof(f->msg));
	s->n++;
}

/* dumpcheck (full pass, --checksum) of bytes: the findings into *s. */
static struct dk_check_result
kcheck(const void *b, size_t n, struct seen *s)
{
	struct dk_check_opts o = { .checksum = 1, .finding = on_finding,
	    .arg = s };
	struct dk_check_result res;
	struct dk_err err;

	memset(s, 0, sizeof(*s));
	ck_assert_msg(dk_check_mem(b, n, "mem", &o, &res, &err) == DK_OK,
	    "%s", err.msg);
	ck_assert_str_eq(res.format, "kdump");
	return res;
}

/* The finding of code in s (at off, unless off is DK_CK_NOOFF), or NULL. */
static const char *
found(const struct seen *s, const char *code, uint64_t off)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->f[i].code, code) == 0 && (off == UINT64_MAX ||
		    (s->f[i].has && s->f[i].off == off)))
			return s->f[i].msg;
	return NULL;
}

static void
dump_seen(const struct seen *s, char *out, size_t n)
{
	size_t k = 0;

	out[0] = '\0';
	for (size_t i = 0; i < s->n && k < n; i++)
		k += (size_t)snprintf(out + k, n - k, "[%s at %#jx: %s] ",
		    s->f[i].code, (uintmax_t)s->f[i].off, s->f[i].msg);
}

#define	FOUND(s, code, off) do {					\
	char all_[4096];						\
									\
	dump_seen((s), all_, sizeof(all_));				\
	ck_assert_msg(found((s), (code), (off)) != NULL, "no %s at %#jx: %s", \
	    (code), (uintmax_t)(off), all_);				\
} while (0)

/* The library's digest of the pages it reads, as dumpcheck computes it. */
static void
lib_digest(struct dk_dump *d, uint64_t out[2])
{
	struct dk_run_iter it = { 0 };
	struct dk_run r;
	struct dk_digest g;
	struct dk_err err;
	size_t ps = dk_info(d)->page_size;
	uint8_t *b = malloc(ps);

	ck_assert_ptr_nonnull(b);
	dk_digest_init(&g, ps);
	while (dk_run_next(d, &it, &r))
		for (uint64_t pa = r.pa; pa < r.pa + r.len; pa += ps) {
			ck_assert_int_eq(dk_read_pa(d, pa, b, ps, &err), DK_OK);
			dk_digest_page(&g, pa, b);
		}
	dk_digest_final(&g, out);
	free(b);
}

/*
 * _i: layout (3) x byte order (2) x plain or flattened (2), every codec
 * mixed, the shared zero page: clean, and the digest the library's.
 */
START_TEST(test_check_clean)
{
	struct ks s = spec((enum kabi)(_i / 4), _i / 2 % 2, 6, KMIXED);
	struct kf f;
	struct seen sn;
	struct dk_check_result res;
	struct dk_dump *d;
	uint64_t sum[2];
	uint8_t *o = NULL;
	size_t n;
	char all[4096];

	s.share_zero = 1;
	kd_build(&s, &f);
	if (_i % 2)
		o = flatten(&f, 1000, 2, 1, 0, 1, &n);
	res = kcheck(o != NULL ? o : f.b, o != NULL ? n : f.len, &sn);
	dump_seen(&sn, all, sizeof(all));
	ck_assert_msg(res.nerrors == 0 && res.nwarnings == 0, "%s", all);
	ck_assert_uint_eq(res.npages, f.ndesc);
	ck_assert_uint_eq(res.npages_present, f.ndesc);
	ck_assert_uint_eq(res.version, 6);
	ck_assert(res.deep && res.has_checksum);
	d = open_ok(o != NULL ? o : f.b, o != NULL ? n : f.len, NULL);
	ck_assert_str_eq(res.arch, dk_info(d)->arch);
	lib_digest(d, sum);
	ck_assert(sum[0] == res.checksum[0] && sum[1] == res.checksum[1]);
	dk_close(d);
	free(o);
	free(f.b);
}
END_TEST

/* One damage, written by hand into a clean file: its code at its offset. */
START_TEST(test_check_findings)
{
	struct ks s = spec(K64, 0, 6, KMIXED);
	struct kf f;
	struct seen sn;
	struct dk_check_result res;
	uint8_t *b;
	uint64_t d5, d6;

	s.share_zero = 1;
	s.status = 0;
	kd_build(&s, &f);
	b = malloc(f.len + 64);
	ck_assert_ptr_nonnull(b);
	d5 = f.off_desc + 24 * 5;
	d6 = f.off_desc + 24 * 6;
#define	FRESH()	memcpy(b, f.b, f.len)
	/* Header fields (LP64: status 424, block_size 428, max_mapnr 440). */
	FRESH();
	put(b + 428, 4, 0, 12288);
	(void)kcheck(b, f.len, &sn);
	FOUND(&sn, "kdump.block-size", 428);
	FRESH();
	put(b + 424, 4, 0, KZLIB | KLZO);
	(void)kcheck(b, f.len, &sn);
	FOUND(&sn, "kdump.status", 424);
	FRESH();
	put(b + 440, 4, 0, 299);
	(void)kcheck(b, f.len, &sn);
	FOUND(&sn, "kdump.max-mapnr", 440);
	/* Sub header: VMCOREINFO outside its blocks, eraseinfo past EOF. */
	FRESH();
	put(b + 4096 + sub_at[K64][S_OVMCI].off, 8, 0, 3 * 4096 + 8);
	(void)kcheck(b, f.len, &sn);
	FOUND(&sn, "kdump.sub-hdr-size", 4096 + sub_at[K64][S_OVMCI].off);
	FRESH();
	put(b + 4096 + sub_at[K64][S_OERASE].off, 8, 0, (uint64_t)1 << 40);
	put(b + 4096 + sub_at[K64][S_SERASE].off, 8, 0, 100);
	(void)kcheck(b, f.len, &sn);
	FOUND(&sn, "kdump.offset-past-eof", 4096 + sub_at[K64][S_OERASE].off);
	/* A note header that does not fit its descriptor. */
	FRESH();
	put(b + 4096 + sub_size[K64][6] + 4, 4, 0, 1u << 20);
	(void)kcheck(b, f.len, &sn);
	FOUND(&sn, "kdump.notes", 4096 + sub_size[K64][6]);
	/* Bitmaps: a bit past max_mapnr (300: byte 37, bit 4) in bitmap 1. */
	FRESH();
	b[2 * 4096 + 37] |= 0x10;
	(void)kcheck(b, f.len, &sn);
	FOUND(&sn, "bitmap.bit-beyond-memory", 2 * 4096 + 37);
	/* Descriptors 5 and 6 swapped, then overlapping. */
	FRESH();
	memcpy(b + d5, f.b + d6, 16);
	memcpy(b + d6, f.b + d5, 16);
	res = kcheck(b, f.len, &sn);
	FOUND(&sn, "kdump.desc-order", d6);
	ck_assert_uint_eq(res.nerrors, 0);
	FRESH();
	put(b + d6, 8, 0, get(f.b + d5, 8, 0) + 1);
	(void)kcheck(b, f.len, &sn);
	FOUND(&sn, "kdump.desc-overlap", d6);
	/* The shared zero page (the first after the descriptors) not zero. */
	FRESH();
	b[f.off_data + 100] = 1;
	(void)kcheck(b, f.len, &sn);
	ck_assert_ptr_nonnull(strstr(found(&sn, "kdump.desc-overlap",
	    UINT64_MAX), "which is not all zeros"));
	/* Each codec's page damaged: kdump.page-corrupt at its data. */
	for (size_t i = 0; i < f.ndesc; i++) {
		const uint8_t *q = f.b + f.off_desc + 24 * i;
		uint64_t off = get(q, 8, 0), size = get(q + 8, 4, 0);
		unsigned c = (unsigned)get(q + 12, 4, 0);

		if (c == 0 || f.pfn[i] > 10)
			continue;
		FRESH();
		b[off + size / 2] ^= 0x5a;
		b[off] ^= 0xff;
		(void)kcheck(b, f.len, &sn);
		FOUND(&sn, "kdump.page-corrupt", off);
		ck_assert_ptr_nonnull(strstr(found(&sn, "kdump.page-corrupt",
		    off), c == KZLIB ? "zlib" : c == KLZO ? "lzo" :
		    c == KSNAPPY ? "snappy" : "zstd"));
	}
	/* Cut inside page 7's data: pages 7 on lost, their PFN ranges. */
	ck_assert_uint_eq(f.pfn[7], 8);
	{
		const uint8_t *q = f.b + f.off_desc + 24 * 7;
		uint64_t cut = get(q, 8, 0) + 5, lost = 0;
		char want[64];

		for (size_t i = 0; i < f.ndesc; i++)
			lost += get(f.b + f.off_desc + 24 * i, 8, 0) + get(f.b +
			    f.off_desc + 24 * i + 8, 4, 0) > cut;
		(void)kcheck(f.b, (size_t)cut, &sn);
		FOUND(&sn, "file.truncated", cut);
		ck_assert_uint_eq(sn.f[0].count, lost);
		/* PFN 10 and 17 are zero pages (PFN % 7 == 3), shared, kept. */
		snprintf(want, sizeof(want), "PFNs lost: [%#jx, 0xa) [0xb, "
		    "0x11) [0x12, 0x18)", (uintmax_t)f.pfn[7]);
		HAS(found(&sn, "file.truncated", cut), want);
	}
	free(b);
	free(f.b);
	/* A split part whose end is past max_mapnr. */
	s.split = 1;
	s.start = 100;
	s.end = 300;
	kd_build(&s, &f);
	put(f.b + 4096 + sub_at[K64][S_EPFN64].off, 8, 0, 400);
	(void)kcheck(f.b, f.len, &sn);
	FOUND(&sn, "kdump.split-range", 4096 + sub_at[K64][S_SPFN64].off);
	free(f.b);
	/* Flattened: records overlapping (garbage the real ones overwrite). */
	s = spec(K32, 1, 5, KLZO);
	kd_build(&s, &f);
	{
		size_t n;
		uint8_t *o = flatten(&f, 4096, 0, 0, 3000, 1, &n);

		res = kcheck(o, n, &sn);
		FOUND(&sn, "kdump.flat-overlap", UINT64_MAX);
		ck_assert_uint_eq(res.nerrors, 0);
		free(o);
	}
	free(f.b);
#undef FRESH
}
END_TEST

/* A set of three parts: one dump for dumpcheck --set; broken sets. */
START_TEST(test_check_set)
{
	static const uint64_t ranges[3][2] = { { 0, 35 }, { 35, 120 },
	    { 120, 300 } };
	struct ks s = spec(K64, 0, 6, KZLIB);
	struct dk_check_opts o = { .checksum = 1, .finding = on_finding };
	struct dk_check_result res, whole;
	struct seen sn;
	struct dk_err err;
	struct kf f;
	char paths[3][64];
	const char *order[3];

	kd_build(&s, &f);
	whole = kcheck(f.b, f.len, &sn);
	free(f.b);
	write_set(&s, ranges, 3, 0, paths);
	order[0] = paths[2];
	order[1] = paths[0];
	order[2] = paths[1];
	o.arg = &sn;
	memset(&sn, 0, sizeof(sn));
	ck_assert_int_eq(dk_check_set(order, 3, &o, &res, &err), DK_OK);
	ck_assert_uint_eq(res.nerrors + res.nwarnings, 0);
	ck_assert_uint_eq(res.npages, whole.npages);
	/* The set's digest is the unsplit file's. */
	ck_assert(res.checksum[0] == whole.checksum[0] &&
	    res.checksum[1] == whole.checksum[1]);
	/* Two of three: a gap; the same part twice: an overlap. */
	memset(&sn, 0, sizeof(sn));
	ck_assert_int_eq(dk_check_set(order, 2, &o, &res, &err), DK_OK);
	FOUND(&sn, "kdump.split-gap", UINT64_MAX);
	HAS(found(&sn, "kdump.split-gap", UINT64_MAX), "[0x23, 0x78)");
	order[2] = paths[2];
	memset(&sn, 0, sizeof(sn));
	ck_assert_int_eq(dk_check_set(order, 3, &o, &res, &err), DK_OK);
	FOUND(&sn, "kdump.split-overlap", UINT64_MAX);
	for (size_t i = 0; i < 3; i++)
		unlink(paths[i]);
	/* A part of another dump (another nodename). */
	{
		struct ks t = s;
		char other[2][64], moved[80];
		const char *mix[3];

		t.node = "other";
		write_set(&t, ranges, 2, 0, other);
		snprintf(moved, sizeof(moved), "%s.other", other[1]);
		ck_assert_int_eq(rename(other[1], moved), 0);
		write_set(&s, ranges, 3, 0, paths);
		mix[0] = paths[0];
		mix[1] = moved;
		mix[2] = paths[2];
		memset(&sn, 0, sizeof(sn));
		ck_assert_int_eq(dk_check_set(mix, 3, &o, &res, &err), DK_OK);
		FOUND(&sn, "kdump.split-mismatch", UINT64_MAX);
		HAS(found(&sn, "kdump.split-mismatch", UINT64_MAX),
		    "nodename is \"other\" here");
		unlink(moved);
	}
	for (size_t i = 0; i < 3; i++)
		unlink(paths[i]);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Real files.                                                             */

/* A run as libkdumpfile's kdread prints it. */
struct fact_run {
	uint64_t	start, end;	/* [start, end] */
	uint64_t	pages, nonzero, errors;
	uint32_t	crc;
};

/* Summarise the runs of d as kdread does (missing pages as zeros). */
static size_t
summary(struct dk_dump *d, struct fact_run *out, size_t max)
{
	uint64_t ps = dk_info(d)->page_size;
	uint8_t *buf = malloc(ps);
	struct dk_run_iter it = { 0 };
	struct dk_run r;
	struct dk_err err;
	size_t n = 0;

	ck_assert_ptr_nonnull(buf);
	while (dk_run_next(d, &it, &r)) {
		struct fact_run *f;

		ck_assert_uint_lt(n, max);
		f = &out[n++];
		memset(f, 0, sizeof(*f));
		f->start = r.pa;
		f->end = r.pa + r.len - 1;
		f->crc = (uint32_t)crc32(0, Z_NULL, 0);
		for (uint64_t pa = r.pa; pa < r.pa + r.len; pa += ps) {
			size_t i;

			if (dk_read_pa(d, pa, buf, ps, &err) != DK_OK) {
				ck_assert_int_eq(err.code, DK_ENOTDUMPED);
				f->errors++;
				memset(buf, 0, ps);
			}
			f->crc = (uint32_t)crc32(f->crc, buf, (uInt)ps);
			for (i = 0; i < ps && buf[i] == 0; i++)
				;
			f->nonzero += i < ps;
			f->pages++;
		}
	}
	free(buf);
	return n;
}

static void
check_runs(struct dk_dump *d, const struct fact_run *want, size_t n)
{
	struct fact_run got[64];
	size_t k = summary(d, got, 64);

	ck_assert_uint_eq(k, n);
	for (size_t i = 0; i < n; i++) {
		ck_assert_uint_eq(got[i].start, want[i].start);
		ck_assert_uint_eq(got[i].end, want[i].end);
		ck_assert_uint_eq(got[i].pages, want[i].pages);
		ck_assert_uint_eq(got[i].nonzero, want[i].nonzero);
		ck_assert_uint_eq(got[i].errors, want[i].errors);
		ck_assert_msg(got[i].crc == want[i].crc, "run %zu: crc32 %08x, "
		    "libkdumpfile %08x", i, got[i].crc, want[i].crc);
	}
}

/* The 16 bytes at pa are hex (libkdumpfile's kdread -m). */
static void
check_bytes(struct dk_dump *d, uint64_t pa, const char *hex)
{
	uint8_t b[16];
	char s[64];
	struct dk_err err;

	ck_assert_msg(dk_read_pa(d, pa, b, 16, &err) == DK_OK, "%#jx: %s",
	    (uintmax_t)pa, err.msg);
	for (int i = 0; i < 16; i++)
		snprintf(s + 3 * i, 4, "%02x ", b[i]);
	s[47] = '\0';
	ck_assert_str_eq(s, hex);
}

static struct dk_dump *
open_real(const char *name)
{
	struct dk_dump *d = NULL;
	struct dk_err err;

	ck_assert_msg(dk_open(name, NULL, &d, &err) == DK_OK, "%s (run from "
	    "the top of the tree)", err.msg);
	return d;
}

/* QEMU 7.2, x86_64 SeaBIOS guest: flattened, 64-bit header, zero page. */
START_TEST(test_real_qemu_x86_64)
{
	static const struct fact_run runs[] = {
		{ 0x0, 0x1ffffff, 8192, 61, 0, 0x63f1b692 },
		{ 0xfffc0000, 0xffffffff, 64, 46, 0, 0xf9aa9dbd },
	};
	struct dk_dump *d = open_real(DATA "x86_64-fw.kdump-zlib.flat.xz");
	const struct dk_info *in = dk_info(d);

	ck_assert_str_eq(in->format, "kdump");
	ck_assert_str_eq(in->arch, "amd64");
	ck_assert_uint_eq(in->version, 6);
	ck_assert_uint_eq(in->npages, 8256);
	ck_assert_uint_eq(in->npages_present, 8256);
	ck_assert_uint_eq(attr(d, "flattened_records")->num, 97);
	ck_assert_str_eq(attr(d, "machine")->str, "x86_64");
	ck_assert_ptr_null(dk_attr_find(d, "dump_time"));	/* QEMU: 0 */
	check_runs(d, runs, 2);
	check_bytes(d, 0x0, "53 ff 00 f0 53 ff 00 f0 c3 e2 00 f0 53 ff 00 f0");
	check_bytes(d, 0xf0000, "43 24 83 c4 20 5b 5e 5f 5d c3 55 57 56 53 "
	    "83 ec");
	ck_assert_uint_eq(dk_phys_nranges(d), 2);
	ck_assert_uint_eq(dk_phys_range(d, 1).start, 0xfffc0000);
	dk_close(d);
}
END_TEST

/* s390x: big-endian, flattened and as makedumpfile -R rearranged it. */
START_TEST(test_real_qemu_s390x)
{
	static const struct fact_run runs[] = {
		{ 0x0, 0x3ffffff, 16384, 22, 0, 0xa9a6bc5a },
	};
	static const char *const files[] = { DATA "s390x-fw.kdump-zlib.flat.xz",
	    DATA "s390x-fw.kdump-zlib.xz" };

	for (size_t i = 0; i < 2; i++) {
		struct dk_dump *d = open_real(files[i]);

		ck_assert_str_eq(dk_info(d)->arch, "s390x");
		ck_assert_int_eq(dk_info(d)->endian, DK_BE);
		ck_assert_uint_eq(dk_info(d)->npages, 16384);
		ck_assert((dk_attr_find(d, "flattened_records") != NULL) ==
		    (i == 0));
		check_runs(d, runs, 1);
		dk_close(d);
	}
}
END_TEST

/* riscv64 and ppc64 (64 KiB blocks): the architecture from NT_PRSTATUS. */
START_TEST(test_real_qemu_notes_arch)
{
	static const struct fact_run rv[] = {
		{ 0x1000, 0xffff, 15, 1, 0, 0x838d673f },
		{ 0x80000000, 0x83ffffff, 16384, 41, 0, 0xe80e9b7b },
	};
	static const struct fact_run ppc[] = {
		{ 0x0, 0xfffffff, 4096, 51, 0, 0x6198c02f },
	};
	struct dk_dump *d = open_real(DATA "riscv64-fw.kdump-zlib.flat.xz");
	struct dk_err err;
	uint8_t b[16];

	ck_assert_str_eq(dk_info(d)->arch, "riscv64");
	HAS(dk_info(d)->arch_why, "\"Unknown\"; the notes' NT_PRSTATUS is 376");
	check_runs(d, rv, 2);
	check_bytes(d, 0x1000, "97 02 00 00 13 86 82 02 73 25 40 f1 83 b5 02 "
	    "02");
	ck_assert_int_eq(dk_read_pa(d, 0, b, 16, &err), DK_ENOTDUMPED);
	dk_close(d);
	d = open_real(DATA "ppc64-fw.kdump-zlib.flat.xz");
	ck_assert_str_eq(dk_info(d)->arch, "powerpc64");
	ck_assert_uint_eq(dk_info(d)->page_size, 65536);
	check_runs(d, ppc, 1);
	check_bytes(d, 0x0, "00 00 00 00 00 00 00 d8 00 00 00 00 00 00 00 88");
	check_bytes(d, 0x1000, "7c 10 43 a6 7c 09 02 a6 7c 12 43 a6 7c 08 02 "
	    "a6");
	dk_close(d);
}
END_TEST

/*
 * makedumpfile 1.7.2 -d 31 of a crashed Debian kernel, cut to 600000
 * bytes: 19872 pages in bitmap 2 (libkdumpfile on the whole file), of
 * which the first bytes hold 6095 (lzo), 6101 (zlib), 6080 (none):
 * those whose descriptor and data end by 600000 (every zero page: they
 * share one).  The first two runs are whole and read as libkdumpfile
 * reads the whole file; the first page cut is PFN 0x1014, 0x101a, 0x1005.
 */
START_TEST(test_real_makedumpfile_cut)
{
	static const struct {
		const char	*file, *codec;
		uint64_t	 present, first_missing;
	} f[] = {
		{ DATA "mdf-lzo-d31.head.xz", "lzo", 6095, 0x1014 },
		{ DATA "mdf-zlib-d31.head.xz", "zlib", 6101, 0x101a },
		{ DATA "mdf-none-d31.head.xz", "none", 6080, 0x1005 },
	};
	static const struct fact_run whole[] = {
		{ 0x1000, 0x9efff, 158, 16, 0, 0x9b01513f },
		{ 0x100000, 0x11ffff, 32, 0, 0, 0x7ee8cdcd },
	};

	for (size_t i = 0; i < DK_ARRAY_LEN(f); i++) {
		struct dk_dump *d = open_real(f[i].file);
		struct fact_run got[40];
		struct dk_err err;
		uint8_t b[16];
		size_t n;
		uint64_t errors = 0;

		ck_assert_str_eq(dk_info(d)->arch, "amd64");
		ck_assert_uint_eq(dk_info(d)->npages, 19872);
		ck_assert_uint_eq(dk_info(d)->npages_present, f[i].present);
		ck_assert_str_eq(attr(d, "compression")->str, f[i].codec);
		ck_assert_str_eq(attr(d, "OSRELEASE")->str, "6.1.0-57-amd64");
		ck_assert_str_eq(attr(d, "hostname")->str, "(none)");
		ck_assert_uint_eq(attr(d, "dump_level")->num, 31);
		ck_assert_uint_eq(attr(d, "dump_time")->num, 1796177224);
		n = summary(d, got, 40);
		ck_assert_uint_eq(n, 31);
		for (size_t k = 0; k < 2; k++) {
			ck_assert_uint_eq(got[k].pages, whole[k].pages);
			ck_assert_uint_eq(got[k].crc, whole[k].crc);
		}
		for (size_t k = 0; k < n; k++)
			errors += got[k].errors;
		ck_assert_uint_eq(errors, 19872 - f[i].present);
		check_bytes(d, 0x1000000, "48 8d 25 51 3f a0 01 48 8d 3d f2 ff "
		    "ff ff b9 01");
		check_bytes(d, 0x1001000, "74 2d 81 f9 00 00 00 80 75 d3 8b 40 "
		    "28 83 c2 01");
		ck_assert_int_eq(dk_read_pa(d, f[i].first_missing * 4096, b,
		    16, &err), DK_ENOTDUMPED);
		HAS(err.msg, "the dump is incomplete");
		dk_close(d);
	}
}
END_TEST

/* Copy the stream of an xz file dumpkit opens to a plain temporary file. */
static void
unxz(const char *name, char *path, size_t len)
{
	struct dk_dump *d = open_real(name);
	uint64_t size = dk_info(d)->file_size;
	uint8_t *b = malloc((size_t)size);
	struct dk_err err;
	FILE *fp;

	ck_assert_ptr_nonnull(b);
	ck_assert_int_eq(dk_read_stream(d, 0, b, (size_t)size, &err), DK_OK);
	snprintf(path, len, "/tmp/check_kdump.%ld.%s", (long)getpid(),
	    strrchr(name, '/') + 1);
	fp = fopen(path, "wb");
	ck_assert_ptr_nonnull(fp);
	ck_assert_uint_eq(fwrite(b, 1, (size_t)size, fp), size);
	fclose(fp);
	free(b);
	dk_close(d);
}

/*
 * makedumpfile --split --splitblock-size 1024 into 8: parts 4 and 5,
 * alone and together (libkdumpfile's kdread -s 2), and a part of a split
 * into 4 that holds no page.
 */
START_TEST(test_real_makedumpfile_split)
{
	static const struct fact_run p4[] = {
		{ 0x3000000, 0x3043fff, 68, 68, 0, 0x83f472d3 },
		{ 0x330f000, 0x3cfffff, 2545, 13, 0, 0x1af1e41d },
	};
	static const struct fact_run set[] = {
		{ 0x3000000, 0x3043fff, 68, 68, 0, 0x83f472d3 },
		{ 0x330f000, 0x4202fff, 3828, 139, 0, 0x5428e055 },
		{ 0x4400000, 0x4410fff, 17, 5, 0, 0x91ef074f },
		{ 0x4800000, 0x4c2ffff, 1072, 838, 0, 0x319f4d5f },
		{ 0x4c34000, 0x4cfffff, 204, 204, 0, 0x1af9cb33 },
	};
	char a[128], b[128];
	const char *two[2];
	struct dk_dump *d = open_real(DATA "mdf-split8-lzo-d31.4.xz");
	struct dk_err err;
	uint8_t buf[16];

	ck_assert_uint_eq(dk_info(d)->npages, 2613);
	ck_assert_uint_eq(attr(d, "split_start_pfn")->num, 0x3000);
	ck_assert_uint_eq(attr(d, "split_end_pfn")->num, 0x3d00);
	check_runs(d, p4, 2);
	check_bytes(d, 0x3000000, "00 00 05 00 08 00 00 00 05 00 30 00 d8 ff "
	    "15 00");
	ck_assert_int_eq(dk_read_pa(d, 0x1000000, buf, 16, &err),
	    DK_ENOTDUMPED);
	HAS(err.msg, "is in another part of the split set");
	dk_close(d);
	unxz(DATA "mdf-split8-lzo-d31.4.xz", a, sizeof(a));
	unxz(DATA "mdf-split8-lzo-d31.5.xz", b, sizeof(b));
	two[0] = b;
	two[1] = a;
	ck_assert_msg(dk_open_set(two, 2, NULL, &d, &err) == DK_OK, "%s",
	    err.msg);
	ck_assert_uint_eq(dk_info(d)->npages, 5189);
	check_runs(d, set, 5);
	check_bytes(d, 0x4000000, "00 00 00 00 00 00 00 00 00 00 00 00 00 00 "
	    "00 00");
	dk_close(d);
	unlink(a);
	unlink(b);
	d = open_real(DATA "mdf-split4-lzo-d31.2.xz");
	ck_assert_uint_eq(dk_info(d)->npages, 0);
	ck_assert_uint_eq(attr(d, "split_start_pfn")->num, 98263);
	ck_assert_uint_eq(attr(d, "split_end_pfn")->num, 98263);
	dk_close(d);
}
END_TEST

static Suite *
kdump_suite(void)
{
	Suite *s = suite_create("kdump");
	TCase *lay = tcase_create("layouts");
	TCase *pg = tcase_create("pages");
	TCase *fl = tcase_create("flattened");
	TCase *sp = tcase_create("split");
	TCase *inc = tcase_create("incomplete");
	TCase *meta = tcase_create("meta");
	TCase *real = tcase_create("real");
	TCase *ck = tcase_create("check");

	tcase_add_loop_test(lay, test_layouts, 0, 36);
	tcase_add_loop_test(lay, test_block_sizes, 0, 16);
	tcase_add_test(lay, test_tables);
	tcase_add_loop_test(pg, test_codecs, 0, 12);
	tcase_add_test(pg, test_shared_zero_page);
	tcase_add_test(pg, test_not_dumped);
	tcase_add_test(pg, test_corrupt_pages);
	tcase_add_loop_test(fl, test_flattened, 0, 8);
	tcase_add_loop_test(fl, test_portable, 0, 12);
	tcase_add_test(fl, test_flattened_overlap);
	tcase_add_test(fl, test_flattened_bad);
	tcase_add_loop_test(sp, test_split_set, 0, 3);
	tcase_add_test(sp, test_split_not_a_set);
	tcase_add_test(inc, test_cut_in_pages);
	tcase_add_test(inc, test_cut_in_descriptors);
	tcase_add_test(inc, test_never_written);
	tcase_add_loop_test(inc, test_prefixes, 0, 2);
	tcase_set_timeout(inc, 120);
	tcase_add_test(meta, test_arch_sources);
	tcase_add_test(meta, test_meta);
	tcase_add_test(meta, test_bad_headers);
	tcase_add_test(pg, test_zero_excluded);
	tcase_add_test(meta, test_hostile_headers);
	tcase_add_loop_test(ck, test_check_clean, 0, 12);
	tcase_add_test(ck, test_check_findings);
	tcase_add_test(ck, test_check_set);
	tcase_set_timeout(ck, 120);
	tcase_add_test(real, test_real_qemu_x86_64);
	tcase_add_test(real, test_real_qemu_s390x);
	tcase_add_test(real, test_real_qemu_notes_arch);
	tcase_add_test(real, test_real_makedumpfile_cut);
	tcase_add_test(real, test_real_makedumpfile_split);
	tcase_set_timeout(real, 120);
	suite_add_tcase(s, lay);
	suite_add_tcase(s, pg);
	suite_add_tcase(s, fl);
	suite_add_tcase(s, sp);
	suite_add_tcase(s, inc);
	suite_add_tcase(s, meta);
	suite_add_tcase(s, real);
	suite_add_tcase(s, ck);
	return s;
}

/*
 * The fuzz target's seeds (fuzz/corpus/kdump), written by this file's
 * writer when CHECK_KDUMP_SEEDS names a directory: small files of each
 * layout, byte order and codec, flattened, split and cut.
 */
static void
write_seed(const char *dir, const char *name, const uint8_t *b, size_t n)
{
	char path[512];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((fp = fopen(path, "wb")) == NULL || fwrite(b, 1, n, fp) != n) {
		perror(path);
		exit(EXIT_FAILURE);
	}
	fclose(fp);
}

static void
write_seeds(const char *dir)
{
	static const struct { const char *name; enum kabi abi; int be;
	    unsigned v, codec; int zero, split; } seeds[] = {
		{ "lp64-le-v6-zlib", K64, 0, 6, KZLIB, 1, 0 },
		{ "ilp32-le-v4-lzo", K32, 0, 4, KLZO, 0, 0 },
		{ "ilp32pad-be-v3-snappy", K32PAD, 1, 3, KSNAPPY, 1, 0 },
		{ "lp64-be-v6-zstd", K64, 1, 6, KZSTD, 0, 0 },
		{ "lp64-le-v5-mixed", K64, 0, 5, KMIXED, 1, 0 },
		{ "lp64-le-v6-split", K64, 0, 6, KZLIB, 0, 1 },
		{ "ilp32-be-v2-none", K32, 1, 2, KNONE, 1, 0 },
	};
	char name[96];

	for (size_t i = 0; i < DK_ARRAY_LEN(seeds); i++) {
		struct ks s = spec(seeds[i].abi, seeds[i].be, seeds[i].v,
		    seeds[i].codec);
		struct kf f;
		uint8_t *o;
		size_t n;

		s.mapnr = 64;
		s.ram[0][1] = 64;
		s.nram = 1;
		s.dump[0][1] = 12;
		s.dump[1][0] = 50;
		s.dump[1][1] = 56;
		s.ndump = 2;
		s.prstatus = seeds[i].v >= 4 ? 336 : 0;
		s.share_zero = seeds[i].zero;
		if (seeds[i].split) {
			s.split = 1;
			s.start = 8;
			s.end = 64;
		}
		kd_build(&s, &f);
		write_seed(dir, seeds[i].name, f.b, f.len);
		snprintf(name, sizeof(name), "%s.cut", seeds[i].name);
		write_seed(dir, name, f.b, f.len - f.len / 5);
		o = flatten(&f, i % 2 ? 1000 : 4096, (int)i % 3, (int)i % 2,
		    i == 4 ? 5000 : 0, i != 3, &n);
		snprintf(name, sizeof(name), "%s.flat", seeds[i].name);
		write_seed(dir, name, o, n);
		free(o);
		free(f.b);
	}
}

/*
 * The seeds of the validator's targets, in DIR_check, DIR_flat and
 * DIR_codec beside DIR: damaged files (each a finding of check_kdump.c),
 * flattened records without their header, and four pages of each codec
 * in fuzz_kdump_codec's input form.
 */
static void
write_check_seeds(const char *dir)
{
	char sub[512], name[96];
	struct ks s = spec(K64, 0, 6, KMIXED);
	struct kf f;
	uint8_t *o, *b;
	size_t n;

	s.mapnr = 64;
	s.ram[0][1] = 64;
	s.nram = 1;
	s.dump[0][1] = 12;
	s.dump[1][0] = 50;
	s.dump[1][1] = 56;
	s.ndump = 2;
	s.share_zero = 1;
	kd_build(&s, &f);
	snprintf(sub, sizeof(sub), "%s_check", dir);
	{
		/* (offset, width, value) patches of the LP64 file. */
		const struct { const char *name; size_t off; unsigned w;
		    uint64_t v; } dmg[] = {
			{ "block-size", 428, 4, 3000 },
			{ "status", 424, 4, 0x9 },
			{ "desc-past-eof", f.off_desc + 24, 8, 1u << 30 },
			{ "desc-size", f.off_desc + 24 + 8, 4, 4097 },
			{ "desc-flags", f.off_desc + 24 + 12, 4, 3 },
			{ "desc-empty", f.off_desc + 48 + 8, 4, 0 },
			{ "bitmap1-clear", 2 * 4096, 1, 0 },
			{ "notes", 4096 + 56, 8, 7 },
			{ "max-mapnr", 4096 + 96, 8, 1u << 20 },
		};

		for (size_t i = 0; i < DK_ARRAY_LEN(dmg); i++) {
			b = malloc(f.len);
			ck_assert_ptr_nonnull(b);
			memcpy(b, f.b, f.len);
			put(b + dmg[i].off, dmg[i].w, 0, dmg[i].v);
			write_seed(sub, dmg[i].name, b, f.len);
			free(b);
		}
	}
	o = flatten(&f, 1000, 2, 1, 5000, 1, &n);
	write_seed(sub, "flat-overlap", o, n);
	snprintf(name, sizeof(name), "%s_flat", dir);
	write_seed(name, "records-overlap", o + 4096, n - 4096);
	free(o);
	o = flatten(&f, 4096, 1, 0, 0, 0, &n);
	write_seed(name, "records-reversed-no-end", o + 4096, n - 4096);
	free(o);
	free(f.b);
	/* fuzz_kdump_codec: flags, shares, then the four pages. */
	snprintf(name, sizeof(name), "%s_codec", dir);
	for (int set = 0; set < 2; set++) {
		static const unsigned c[2][4] = {
			{ KZLIB, KLZO, KSNAPPY, KZSTD },
			{ KNONE, KZSTD, KZLIB, KLZO },
		};
		uint8_t page[4096], z[4][8192 + 64], in[8 + 4 * 8256];
		size_t zl[4], at = 8;

		for (int i = 0; i < 4; i++) {
			fill_page((uint64_t)(11 + i + set), page, sizeof(page));
			zl[i] = compress_page(c[set][i], page, sizeof(page),
			    z[i], sizeof(z[i]));
			if (zl[i] >= sizeof(page))
				memcpy(z[i], page, zl[i] = sizeof(page));
			in[i] = (uint8_t)(zl[i] == sizeof(page) ? 0 :
			    c[set][i]);
		}
		/* Equal shares: fuzz_kdump_codec splits the rest by them. */
		for (int i = 0; i < 4; i++)
			in[4 + i] = 0xff;
		for (int i = 0; i < 4; i++) {
			memcpy(in + at, z[i], zl[i]);
			at += zl[i];
		}
		snprintf(sub, sizeof(sub), "pages-%d", set);
		write_seed(name, sub, in, at);
	}
}

START_TEST(test_write_seeds)
{
	write_seeds(getenv("CHECK_KDUMP_SEEDS"));
	write_check_seeds(getenv("CHECK_KDUMP_SEEDS"));
}
END_TEST

int
main(void)
{
	SRunner *sr;

	if (getenv("CHECK_KDUMP_SEEDS") != NULL) {
		Suite *s = suite_create("kdump-seeds");
		TCase *tc = tcase_create("seeds");

		tcase_add_test(tc, test_write_seeds);
		suite_add_tcase(s, tc);
		sr = srunner_create(s);
	} else
		sr = srunner_create(kdump_suite());
	int nfailed;

	srunner_run_all(sr, CK_ENV);
	nfailed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfailed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
