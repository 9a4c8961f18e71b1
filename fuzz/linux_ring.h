/*
 * linux_ring.h -- a small Linux x86_64 kdump-compressed dump written by
 * hand, for tests/check_linux.c and fuzz/fuzz_linux_log.c: 16 pages of
 * physical memory, the kernel's page tables in them, a kernel log in
 * one of its three layouts, and VMCOREINFO naming them.
 *
 * Memory (PA; the kernel image is at __START_KERNEL_map + PA, phys_base
 * 0, mapped by one 2 MiB page):
 *	0x1000	PML4: entry 511 -> 0x2000 (Intel SDM vol. 3, 4.5: P 0x1,
 *		RW 0x2, A 0x20, D 0x40, PS 0x80)
 *	0x2000	PDPT: entry 510 -> 0x3000
 *	0x3000	PD: entry 0 a 2 MiB page at PA 0
 *	0x4000	the log's variables (SYMBOL(prb) or SYMBOL(log_buf) ...)
 *	0x4100	struct printk_ringbuffer (lockless ring)
 *	0x5000	the descriptors, or the printk_log buffer, or the plain one
 *	0x6000	the printk_info array
 *	0x8000	the text data ring
 * The window [LR_WIN, LR_WIN + LR_WIN_LEN) is what a fuzzer rewrites.
 *
 * The file (makedumpfile's diskdump_mod.h, an LP64 writer, header
 * version 3): block 0 struct disk_dump_header (signature "KDUMP   ",
 * header_version @8, utsname @12 (six 65-byte strings: sysname,
 * nodename, release, version, machine, domainname), block_size @428,
 * sub_hdr_size @432, bitmap_blocks @436, max_mapnr @440, nr_cpus @460);
 * block 1 struct kdump_sub_header (phys_base @0, dump_level @8,
 * offset_vmcoreinfo @32, size_vmcoreinfo @40) and the VMCOREINFO text
 * after it; blocks 2 and 3 bitmaps 1 and 2; block 4 the 24-byte page
 * descriptors (offset, size, flags 0: stored as is, page_flags); the
 * pages from block 5.
 */
#ifndef DK_LINUX_RING_H
#define DK_LINUX_RING_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define	LR_PAGE		4096u
#define	LR_PAGES	16u
#define	LR_MEM		(LR_PAGES * LR_PAGE)
#define	LR_KVA(pa)	(0xffffffff80000000ull + (pa))
#define	LR_VARS		0x4000u
#define	LR_RB		0x4100u
#define	LR_DESCS	0x5000u
#define	LR_INFOS	0x6000u
#define	LR_TEXT		0x8000u
#define	LR_WIN		0x4000u
#define	LR_WIN_LEN	0x5000u
#define	LR_FILE		((5 + LR_PAGES) * LR_PAGE)

/* The three layouts of the kernel log. */
enum lr_layout { LR_LOCKLESS, LR_PRINTK_LOG, LR_PLAIN };

static inline void
lr_le(uint8_t *p, unsigned w, uint64_t v)
{
	for (unsigned i = 0; i < w; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* v in w bytes at p, big-endian if be, else little-endian. */
static inline void
lr_put(uint8_t *p, unsigned w, uint64_t v, int be)
{
	for (unsigned i = 0; i < w; i++)
		p[be ? w - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

/* The page tables: VA LR_KVA(x) -> PA x for x below 2 MiB. */
static inline void
lr_tables(uint8_t *mem)
{
	lr_le(mem + 0x1000 + 511 * 8, 8, 0x2000 | 0x63);
	lr_le(mem + 0x2000 + 510 * 8, 8, 0x3000 | 0x63);
	lr_le(mem + 0x3000 + 0 * 8, 8, 0x0 | 0xe3);
}

/* One record of a lockless ring. */
struct lr_rec {
	uint64_t	 ts;		/* ns after boot */
	const char	*text;
	size_t		 len;		/* 0: strlen(text) */
	unsigned	 state;		/* 0: finalized (2); 1 committed, 3
					 * reusable, 4 reserved (0) */
};

#define	LR_COUNT_BITS	4		/* 16 descriptors */
#define	LR_SIZE_BITS	10		/* 1 KiB of text */
#define	LR_DESC		24		/* SIZE(prb_desc) */
#define	LR_INFO		88		/* SIZE(printk_info) */

/*
 * A lockless ring (kernel/printk/printk_ringbuffer.h) of the n records,
 * ids from id0 (62-bit ids: the top two bits of state_var are the
 * state), text blocks from logical position lpos0: each block the id (a
 * long) then the text, its size rounded up to 8; a block that would
 * reach the end of the ring (its next in the following wrap, as
 * data_alloc() decides) starts at its beginning, begin keeping the
 * position where it would have been.
 */
static inline void
lr_lockless(uint8_t *mem, const struct lr_rec *r, size_t n, uint64_t id0,
    uint64_t lpos0)
{
	const uint64_t size = 1u << LR_SIZE_BITS, count = 1u << LR_COUNT_BITS;
	const uint64_t mask = ~(3ull << 62);
	uint64_t lpos = lpos0, id = id0;
	uint8_t *rb = mem + LR_RB;

	lr_le(mem + LR_VARS, 8, LR_KVA(LR_RB));			/* prb */
	lr_le(rb + 0, 4, LR_COUNT_BITS);
	lr_le(rb + 8, 8, LR_KVA(LR_DESCS));
	lr_le(rb + 16, 8, LR_KVA(LR_INFOS));
	lr_le(rb + 32, 8, id0);					/* tail_id */
	lr_le(rb + 48 + 0, 4, LR_SIZE_BITS);
	lr_le(rb + 48 + 8, 8, LR_KVA(LR_TEXT));
	for (size_t i = 0; i < n; i++, id = (id + 1) & mask) {
		size_t len = r[i].len != 0 ? r[i].len : strlen(r[i].text);
		uint64_t blk = (8 + len + 7) & ~7ull, begin = lpos, at, next;
		uint8_t *d = mem + LR_DESCS + (id % count) * LR_DESC;
		uint8_t *f = mem + LR_INFOS + (id % count) * LR_INFO;

		if (lpos % size + blk >= size) {
			at = 0;
			next = (lpos / size + 1) * size + blk;
		} else {
			at = lpos % size;
			next = lpos + blk;
		}
		lr_le(mem + LR_TEXT + at, 8, id);
		memcpy(mem + LR_TEXT + at + 8, r[i].text, len);
		lr_le(d, 8, id | (uint64_t)(r[i].state == 0 ? 2 :
		    r[i].state == 4 ? 0 : r[i].state) << 62);
		lr_le(d + 8, 8, begin);
		lr_le(d + 16, 8, next);
		/* seq: the index modulo the count, one more per id. */
		lr_le(f + 0, 8, 3 * count + id0 % count + i);

		lr_le(f + 8, 8, r[i].ts);
		lr_le(f + 16, 2, len);
		lpos = next;
		lr_le(rb + 24, 8, id);				/* head_id */
	}
}

/*
 * struct printk_log records (3.5 to 5.9): ts_nsec @0, len @8, text_len
 * @10, 16 bytes then the text, len rounded up to 8, in a log_buf of
 * blen bytes at LR_DESCS from index first; a record that does not fit
 * before the end leaves a zero len there and goes to index 0.
 */
static inline void
lr_printk_log(uint8_t *mem, const struct lr_rec *r, size_t n, uint32_t blen,
    uint32_t first)
{
	uint32_t at = first;

	lr_le(mem + LR_VARS, 8, LR_KVA(LR_DESCS));		/* log_buf */
	lr_le(mem + LR_VARS + 8, 4, blen);			/* log_buf_len */
	lr_le(mem + LR_VARS + 16, 4, first);			/* log_first_idx */
	for (size_t i = 0; i < n; i++) {
		size_t len = r[i].len != 0 ? r[i].len : strlen(r[i].text);
		uint32_t sz = (uint32_t)((16 + len + 7) & ~(size_t)7);

		if (at + sz + 16 > blen) {
			lr_le(mem + LR_DESCS + at + 8, 2, 0);
			at = 0;
		}
		lr_le(mem + LR_DESCS + at, 8, r[i].ts);
		lr_le(mem + LR_DESCS + at + 8, 2, sz);
		lr_le(mem + LR_DESCS + at + 10, 2, len);
		memcpy(mem + LR_DESCS + at + 16, r[i].text, len);
		at += sz;
	}
	lr_le(mem + LR_VARS + 24, 4, at);			/* log_next_idx */
}

/* The plain ring (before 3.5): blen bytes at LR_DESCS, log_end written. */
static inline void
lr_plain(uint8_t *mem, const char *text, uint32_t blen, uint32_t start)
{
	size_t n = strlen(text);

	lr_le(mem + LR_VARS, 8, LR_KVA(LR_DESCS));
	lr_le(mem + LR_VARS + 8, 4, blen);
	for (size_t i = 0; i < n; i++)
		mem[LR_DESCS + (start + i) % blen] = (uint8_t)text[i];
	lr_le(mem + LR_VARS + 16, 4, start + n);		/* log_end */
}

/* VMCOREINFO naming the tables and the log of layout l. */
static inline size_t
lr_vmcoreinfo(char *b, size_t cap, enum lr_layout l)
{
	static const char common[] =
	    "PAGESIZE=4096\n"
	    "SYMBOL(init_top_pgt)=ffffffff80001000\n"
	    "NUMBER(pgtable_l5_enabled)=0\n"
	    "NUMBER(phys_base)=0\n"
	    "KERNELOFFSET=0\n";
	static const char lockless[] =
	    "OSRELEASE=6.1.0-test\n"
	    "SYMBOL(prb)=ffffffff80004000\n"
	    "SIZE(printk_ringbuffer)=88\n"
	    "OFFSET(printk_ringbuffer.desc_ring)=0\n"
	    "OFFSET(printk_ringbuffer.text_data_ring)=48\n"
	    "OFFSET(prb_desc_ring.count_bits)=0\n"
	    "OFFSET(prb_desc_ring.descs)=8\n"
	    "OFFSET(prb_desc_ring.infos)=16\n"
	    "OFFSET(prb_desc_ring.head_id)=24\n"
	    "OFFSET(prb_desc_ring.tail_id)=32\n"
	    "SIZE(prb_desc)=24\n"
	    "OFFSET(prb_desc.state_var)=0\n"
	    "OFFSET(prb_desc.text_blk_lpos)=8\n"
	    "OFFSET(prb_data_blk_lpos.begin)=0\n"
	    "OFFSET(prb_data_blk_lpos.next)=8\n"
	    "SIZE(printk_info)=88\n"
	    "OFFSET(printk_info.seq)=0\n"
	    "OFFSET(printk_info.ts_nsec)=8\n"
	    "OFFSET(printk_info.text_len)=16\n"
	    "OFFSET(prb_data_ring.size_bits)=0\n"
	    "OFFSET(prb_data_ring.data)=8\n"
	    "OFFSET(atomic_long_t.counter)=0\n";
	static const char printk_log[] =
	    "OSRELEASE=5.4.0-test\n"
	    "SYMBOL(log_buf)=ffffffff80004000\n"
	    "SYMBOL(log_buf_len)=ffffffff80004008\n"
	    "SYMBOL(log_first_idx)=ffffffff80004010\n"
	    "SYMBOL(log_next_idx)=ffffffff80004018\n"
	    "SIZE(printk_log)=16\n"
	    "OFFSET(printk_log.ts_nsec)=0\n"
	    "OFFSET(printk_log.len)=8\n"
	    "OFFSET(printk_log.text_len)=10\n";
	static const char plain[] =
	    "OSRELEASE=2.6.32-test\n"
	    "SYMBOL(log_buf)=ffffffff80004000\n"
	    "SYMBOL(log_buf_len)=ffffffff80004008\n"
	    "SYMBOL(log_end)=ffffffff80004010\n";
	int k = snprintf(b, cap, "%s%s", common, l == LR_LOCKLESS ? lockless :
	    l == LR_PRINTK_LOG ? printk_log : plain);

	return k > 0 ? (size_t)k : 0;
}

/* Bytes of the kdump file of n pages of psz bytes. */
#define	LR_FILE_SIZE(n, psz)	((5 + (size_t)(n)) * (psz))

/*
 * The kdump-compressed file of the n pages of psz bytes at mem, the
 * utsname machine given, into f (LR_FILE_SIZE(n, psz) bytes; n at most
 * psz / 24); big-endian for s390x, ppc64 and mips64, else
 * little-endian.
 */
static inline void
lr_kdump_of(const uint8_t *mem, unsigned n, uint32_t psz,
    const char *machine, const char *vmci, size_t vlen, uint8_t *f)
{
	/* The header in the machine's byte order, as makedumpfile's. */
	int be = strcmp(machine, "s390x") == 0 || strcmp(machine, "ppc64") ==
	    0 || strcmp(machine, "mips64") == 0;

	memset(f, 0, LR_FILE_SIZE(n, psz));
	memcpy(f, "KDUMP   ", 8);
	lr_put(f + 8, 4, 3, be);					/* version */
	memcpy(f + 12, "Linux", 5);
	memcpy(f + 12 + 2 * 65, "6.1.0-test", 10);
	memcpy(f + 12 + 4 * 65, machine, strlen(machine));
	lr_put(f + 428, 4, psz, be);
	lr_put(f + 432, 4, 1, be);
	lr_put(f + 436, 4, 2, be);
	lr_put(f + 440, 4, n, be);
	lr_put(f + 460, 4, 1, be);
	lr_put(f + psz + 8, 4, 31, be);				/* dump_level */
	lr_put(f + psz + 32, 8, psz + 48, be);
	lr_put(f + psz + 40, 8, vlen, be);
	memcpy(f + psz + 48, vmci, vlen);
	for (unsigned i = 0; i < n; i++) {
		uint8_t *d = f + 4 * (size_t)psz + 24 * i;

		f[2 * (size_t)psz + i / 8] |= (uint8_t)(1u << (i % 8));
		f[3 * (size_t)psz + i / 8] |= (uint8_t)(1u << (i % 8));
		lr_put(d, 8, (5 + (uint64_t)i) * psz, be);
		lr_put(d + 8, 4, psz, be);
		memcpy(f + (5 + (size_t)i) * psz, mem + (size_t)i * psz, psz);
	}
}

/* The x86_64 file of the LR_PAGES pages at mem into f (LR_FILE). */
static inline void
lr_kdump(const uint8_t *mem, const char *vmci, size_t vlen, uint8_t *f)
{
	lr_kdump_of(mem, LR_PAGES, LR_PAGE, "x86_64", vmci, vlen, f);
}

#endif /* DK_LINUX_RING_H */
