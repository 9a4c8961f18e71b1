/*
 * check_vmcore.c -- the Linux ELF vmcore reader (formats/fmt_vmcore.c)
 * and its validator (formats/check_vmcore.c) on vmcores written here
 * byte by byte at the offsets of the ELF gABI (the ELF header, program
 * headers and notes of both classes and byte orders) and of the Linux
 * kernel's struct elf_prstatus (include/uapi/linux/elfcore.h: pr_pid at
 * 32, pr_reg at 112 in a 64-bit one; 24 and 72 in a 32-bit one), each
 * architecture's register set (x86_64 user_regs_struct: rip 16th word,
 * rsp 19th; i386 eip 12, esp 15; aarch64 sp 31, pc 32; riscv64 pc 0, sp
 * 2; ppc64 gpr1 1, nip 32; s390x psw.addr 1, gpr15 17; arm r13, r15) and
 * VMCOREINFO's KEY=value text.  The real files are tests/vmcore.sh's.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dkcheck.h"
#include "dumpkit.h"

static void
put(uint8_t *p, unsigned width, int be, uint64_t v)
{
	for (unsigned i = 0; i < width; i++)
		p[be ? width - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

/* A program header to write. */
struct ph {
	uint32_t	type;
	uint64_t	off, vaddr, paddr, filesz, memsz;
	int		nofill;		/* its bytes are another's: not written */
};

/* A vmcore being written: its bytes grow as needed. */
struct vm {
	uint8_t		*b;
	size_t		 len, cap;
	int		 is64, be;
	unsigned	 machine;
	struct ph	*ph;
	size_t		 nph, capph;
	uint8_t		 notes[8192];
	size_t		 nlen;
};

static void
vm_init(struct vm *v, int is64, int be, unsigned machine)
{
	memset(v, 0, sizeof(*v));
	v->is64 = is64;
	v->be = be;
	v->machine = machine;
}

static void
vm_free(struct vm *v)
{
	free(v->b);
	free(v->ph);
}

static void
vm_ph(struct vm *v, uint32_t type, uint64_t off, uint64_t vaddr,
    uint64_t paddr, uint64_t filesz, uint64_t memsz)
{
	if (v->nph == v->capph) {
		v->capph = v->capph ? 2 * v->capph : 16;
		v->ph = realloc(v->ph, v->capph * sizeof(*v->ph));
		ck_assert_ptr_nonnull(v->ph);
	}
	v->ph[v->nph++] = (struct ph){ type, off, vaddr, paddr, filesz,
	    memsz, 0 };
}

/* A note; returns the descriptor's place in v->notes. */
static uint8_t *
vm_note(struct vm *v, const char *name, uint32_t type, size_t descsz)
{
	size_t at = v->nlen, nl = strlen(name) + 1;
	uint8_t *d;

	put(v->notes + at, 4, v->be, nl);
	put(v->notes + at + 4, 4, v->be, descsz);
	put(v->notes + at + 8, 4, v->be, type);
	memcpy(v->notes + at + 12, name, nl);
	d = v->notes + at + 12 + ((nl + 3) & ~(size_t)3);
	v->nlen = (size_t)(d - v->notes) + ((descsz + 3) & ~(size_t)3);
	ck_assert_uint_lt(v->nlen, sizeof(v->notes));
	return d;
}

static void
vm_grow(struct vm *v, size_t n)
{
	if (n > v->cap) {
		size_t c = v->cap * 2 > n ? v->cap * 2 : n;

		v->b = realloc(v->b, c);
		ck_assert_ptr_nonnull(v->b);
		memset(v->b + v->cap, 0, c - v->cap);
		v->cap = c;
	}
	if (n > v->len)
		v->len = n;
}

/*
 * Lay the file out: ELF header, program headers (PT_NOTE first, then
 * the PT_LOADs given), the notes, and the PT_LOADs' data at the offsets
 * given (relative to data, the first byte after the notes, rounded to
 * 4 KiB), filled with byte (pa * 7 + 3) for each byte's physical
 * address.  PN_XNUM when more than 65534.  Returns data.
 */
static uint64_t
vm_finish(struct vm *v)
{
	unsigned ehs = v->is64 ? 64 : 52, phs = v->is64 ? 56 : 32;
	uint64_t nph = v->nph + 1, shoff = 0, phoff = ehs, noff, data;
	int xnum = nph >= 0xffff;

	if (xnum) {
		shoff = ehs;
		phoff = ehs + (v->is64 ? 64 : 40);
	}
	noff = phoff + nph * phs;
	data = (noff + v->nlen + 4095) & ~(uint64_t)4095;
	vm_grow(v, (size_t)data);
	memcpy(v->b, "\177ELF", 4);
	v->b[4] = v->is64 ? 2 : 1;
	v->b[5] = v->be ? 2 : 1;
	v->b[6] = 1;
	put(v->b + 16, 2, v->be, 4);
	put(v->b + 18, 2, v->be, v->machine);
	put(v->b + 20, 4, v->be, 1);
	if (v->is64) {
		put(v->b + 32, 8, v->be, phoff);
		put(v->b + 40, 8, v->be, shoff);
		put(v->b + 52, 2, v->be, 64);
		put(v->b + 54, 2, v->be, 56);
		put(v->b + 56, 2, v->be, xnum ? 0xffff : nph);
		put(v->b + 58, 2, v->be, xnum ? 64 : 0);
		put(v->b + 60, 2, v->be, xnum ? 1 : 0);
		if (xnum)
			put(v->b + shoff + 44, 4, v->be, nph);	/* sh_info */
	} else {
		put(v->b + 28, 4, v->be, phoff);
		put(v->b + 32, 4, v->be, shoff);
		put(v->b + 40, 2, v->be, 52);
		put(v->b + 42, 2, v->be, 32);
		put(v->b + 44, 2, v->be, xnum ? 0xffff : nph);
		put(v->b + 46, 2, v->be, xnum ? 40 : 0);
		put(v->b + 48, 2, v->be, xnum ? 1 : 0);
		if (xnum)
			put(v->b + shoff + 28, 4, v->be, nph);
	}
	memcpy(v->b + noff, v->notes, v->nlen);
	for (uint64_t i = 0; i < nph; i++) {
		uint8_t *p = v->b + phoff + i * phs;
		struct ph h = i == 0 ? (struct ph){ 4, noff, 0, 0, v->nlen,
		    v->nlen, 1 } : v->ph[i - 1];

		if (i > 0)
			h.off += data;
		put(p, 4, v->be, h.type);
		if (v->is64) {
			put(p + 4, 4, v->be, 7);
			put(p + 8, 8, v->be, h.off);
			put(p + 16, 8, v->be, h.vaddr);
			put(p + 24, 8, v->be, h.paddr);
			put(p + 32, 8, v->be, h.filesz);
			put(p + 40, 8, v->be, h.memsz);
		} else {
			put(p + 4, 4, v->be, h.off);
			put(p + 8, 4, v->be, h.vaddr);
			put(p + 12, 4, v->be, h.paddr);
			put(p + 16, 4, v->be, h.filesz);
			put(p + 20, 4, v->be, h.memsz);
			put(p + 24, 4, v->be, 7);
		}
		if (i == 0 || h.nofill)
			continue;
		vm_grow(v, (size_t)(h.off + h.filesz));
		for (uint64_t k = 0; k < h.filesz; k++)
			v->b[h.off + k] = (uint8_t)((h.paddr + k) * 7 + 3);
	}
	return data;
}

static struct dk_dump *
vm_open(const struct vm *v, size_t len)
{
	struct dk_dump *d = NULL;
	struct dk_err err;

	ck_assert_msg(dk_open_mem(v->b, len, "mem", NULL, &d, &err) == DK_OK,
	    "%s", err.msg);
	ck_assert_str_eq(dk_info(d)->format, "vmcore");
	return d;
}

static uint64_t
num(struct dk_dump *d, const char *name)
{
	const struct dk_attr *a = dk_attr_find(d, name);

	ck_assert_msg(a != NULL, "no attribute %s", name);
	return a->num;
}

static const char *
str(struct dk_dump *d, const char *name)
{
	const struct dk_attr *a = dk_attr_find(d, name);

	ck_assert_msg(a != NULL, "no attribute %s", name);
	return a->str;
}

#define	HAS(msg, s)	ck_assert_msg(strstr((msg), (s)) != NULL, \
			    "expected \"%s\" in: %s", (s), (msg))

/* ---------------------------------------------------------------------- */
/* The CPUs' notes.                                                        */

static const struct {
	const char	*arch;
	unsigned	 machine, is64, be;
	uint32_t	 size;
	unsigned	 pid, pc, sp;	/* byte offsets in the descriptor */
	unsigned	 w;		/* register width */
} cpus[] = {
	{ "amd64", 62, 1, 0, 336, 32, 112 + 16 * 8, 112 + 19 * 8, 8 },
	{ "i386", 3, 0, 0, 144, 24, 72 + 12 * 4, 72 + 15 * 4, 4 },
	{ "i386", 3, 1, 0, 144, 24, 72 + 12 * 4, 72 + 15 * 4, 4 },	/* QEMU */
	{ "aarch64", 183, 1, 0, 392, 32, 112 + 32 * 8, 112 + 31 * 8, 8 },
	{ "riscv64", 243, 1, 0, 376, 32, 112, 112 + 2 * 8, 8 },
	{ "powerpc64", 21, 1, 1, 504, 32, 112 + 32 * 8, 112 + 8, 8 },
	{ "powerpc64le", 21, 1, 0, 504, 32, 112 + 32 * 8, 112 + 8, 8 },
	{ "s390x", 22, 1, 1, 336, 32, 112 + 8, 112 + 17 * 8, 8 },
	{ "arm", 40, 0, 0, 148, 24, 72 + 15 * 4, 72 + 13 * 4, 4 },
	{ "armeb", 40, 0, 1, 148, 24, 72 + 15 * 4, 72 + 13 * 4, 4 },
};

START_TEST(test_prstatus)
{
	struct vm v;
	struct dk_dump *d;
	uint64_t pc = cpus[_i].w == 8 ? 0xffffffff81234567ull : 0xc0123456u;
	uint64_t sp = cpus[_i].w == 8 ? 0xffffc90000013a30ull : 0xc7654320u;

	vm_init(&v, cpus[_i].is64, cpus[_i].be, cpus[_i].machine);
	for (unsigned cpu = 0; cpu < 3; cpu++) {
		uint8_t *p = vm_note(&v, "CORE", 1, cpus[_i].size);

		put(p + cpus[_i].pid, 4, v.be, 100 + cpu);
		put(p + cpus[_i].pc, cpus[_i].w, v.be, pc + cpu);
		put(p + cpus[_i].sp, cpus[_i].w, v.be, sp - cpu * 16);
		vm_note(&v, "CORE", 2, 512);		/* NT_FPREGSET */
	}
	vm_ph(&v, 1, 0, 0, 0x100000, 0x2000, 0x2000);
	vm_finish(&v);
	d = vm_open(&v, v.len);
	ck_assert_str_eq(dk_info(d)->arch, cpus[_i].arch);
	ck_assert_uint_eq(num(d, "cpus"), 3);
	ck_assert_uint_eq(num(d, "cpu.2.pid"), 102);
	ck_assert_uint_eq(num(d, "cpu.1.pc"), pc + 1);
	ck_assert_uint_eq(num(d, "cpu.2.sp"), sp - 32);
	ck_assert_str_eq(str(d, "notes"), "CORE NT_PRSTATUS x3, CORE "
	    "NT_FPREGSET x3");
	ck_assert_str_eq(str(d, "producer"), "kernel");
	HAS(str(d, "quirks"), "no-vmcoreinfo");
	if (cpus[_i].is64 && cpus[_i].machine == 3)
		HAS(str(d, "quirks"), "elf64-em386");
	dk_close(d);
	vm_free(&v);
}
END_TEST

/* QEMU's x86 CPU state: cr3 at 416 (QEMUCPUState). */
START_TEST(test_qemu_note)
{
	struct vm v;
	struct dk_dump *d;
	uint8_t *q;

	vm_init(&v, 1, 0, 62);
	vm_note(&v, "CORE", 1, 336);
	q = vm_note(&v, "QEMU", 0, 440);
	put(q, 4, 0, 1);			/* version */
	put(q + 4, 4, 0, 440);			/* size */
	put(q + 416, 8, 0, 0x487c000);
	vm_ph(&v, 1, 0, 0, 0, 0x1000, 0x1000);
	vm_finish(&v);
	d = vm_open(&v, v.len);
	ck_assert_uint_eq(num(d, "cpu.0.cr3"), 0x487c000);
	ck_assert_str_eq(str(d, "producer"), "QEMU");
	dk_close(d);
	vm_free(&v);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* VMCOREINFO.                                                             */

START_TEST(test_vmcoreinfo)
{
	static const char text[] = "OSRELEASE=6.1.0-57-arm64\nPAGESIZE=16384\n"
	    "SYMBOL(swapper_pg_dir)=ffff800009f10000\nNUMBER(VA_BITS)=48\n"
	    "NUMBER(kimage_voffset)=0xffff7fffc8000000\nCRASHTIME=1796188390\n"
	    "no equals sign here\n";
	struct vm v;
	struct dk_dump *d;

	vm_init(&v, 1, 0, 183);
	vm_note(&v, "CORE", 1, 392);
	memcpy(vm_note(&v, "VMCOREINFO", 0, sizeof(text) - 1), text,
	    sizeof(text) - 1);
	vm_ph(&v, 1, 0, 0, 0x40000000, 0x4000, 0x4000);
	vm_finish(&v);
	d = vm_open(&v, v.len);
	ck_assert_str_eq(str(d, "OSRELEASE"), "6.1.0-57-arm64");
	ck_assert_str_eq(str(d, "os_release"), "6.1.0-57-arm64");
	ck_assert_str_eq(str(d, "SYMBOL(swapper_pg_dir)"), "ffff800009f10000");
	ck_assert_str_eq(str(d, "NUMBER(kimage_voffset)"),
	    "0xffff7fffc8000000");
	ck_assert_str_eq(dk_attr_find(d, "PAGESIZE")->source, "VMCOREINFO");
	ck_assert_uint_eq(dk_info(d)->page_size, 16384);
	ck_assert_str_eq(str(d, "page_size_source"), "VMCOREINFO PAGESIZE");
	ck_assert_int_eq(dk_attr_find(d, "dump_time")->type, DK_ATTR_TIME);
	ck_assert_uint_eq(num(d, "dump_time"), 1796188390);
	ck_assert_ptr_null(dk_attr_find(d, "no equals sign here"));
	dk_close(d);
	vm_free(&v);
	/* Without it, aarch64 has no one page size: 0, and said so. */
	vm_init(&v, 1, 0, 183);
	vm_note(&v, "CORE", 1, 392);
	vm_ph(&v, 1, 0, 0, 0x40000000, 0x4000, 0x4000);
	vm_finish(&v);
	d = vm_open(&v, v.len);
	ck_assert_uint_eq(dk_info(d)->page_size, 0);
	HAS(str(d, "page_size_source"), "unknown");
	dk_close(d);
	vm_free(&v);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* Segments.                                                               */

/* The byte vm_finish wrote at pa. */
static uint8_t
byte_at(uint64_t pa)
{
	return (uint8_t)(pa * 7 + 3);
}

static void
read_ok(struct dk_dump *d, uint64_t pa, size_t len)
{
	uint8_t buf[256];
	struct dk_err err;

	ck_assert_uint_le(len, sizeof(buf));
	ck_assert_msg(dk_read_pa(d, pa, buf, len, &err) == DK_OK, "pa %#jx: "
	    "%s", (uintmax_t)pa, err.msg);
	for (size_t i = 0; i < len; i++)
		ck_assert_uint_eq(buf[i], byte_at(pa + i));
}

static const char *
read_fails(struct dk_dump *d, uint64_t pa, size_t len)
{
	static struct dk_err err;
	uint8_t buf[256];

	ck_assert_int_eq(dk_read_pa(d, pa, buf, len, &err), DK_ENOTDUMPED);
	return err.msg;
}

/*
 * The kernel's layout: unaligned ends (0x9ec00), the kernel text inside
 * the direct map at another offset, p_vaddr reads; makedumpfile's
 * p_memsz > p_filesz.
 */
START_TEST(test_segments)
{
	struct vm v;
	struct dk_dump *d;
	uint8_t buf[64];
	struct dk_err err;
	uint64_t pa;

	vm_init(&v, 1, 0, 62);
	vm_note(&v, "CORE", 1, 336);
	vm_ph(&v, 1, 0, 0xffffffff81000000ull, 0x1000000, 0x4000, 0x4000);
	vm_ph(&v, 1, 0x4000, 0xffff888000001000ull, 0x1000, 0x9dc00, 0x9dc00);
	vm_ph(&v, 1, 0xa2000, 0xffff888000fff000ull, 0xfff000, 0x8000,
	    0x10000);
	vm_finish(&v);
	d = vm_open(&v, v.len);
	ck_assert_uint_eq(dk_phys_nranges(d), 2);
	ck_assert_uint_eq(dk_phys_range(d, 0).start, 0x1000);
	ck_assert_uint_eq(dk_phys_range(d, 0).end, 0x9ec00);
	ck_assert_uint_eq(dk_phys_range(d, 1).start, 0xfff000);
	ck_assert_uint_eq(dk_phys_range(d, 1).end, 0x1007000);
	read_ok(d, 0x9ebf0, 16);
	HAS(read_fails(d, 0x9ebf0, 32), "in no PT_LOAD");
	read_ok(d, 0x1000ff0, 64);	/* across the two segments' overlap */
	HAS(read_fails(d, 0x1007000, 8), "past p_filesz of PT_LOAD 3 "
	    "(p_memsz > p_filesz");
	HAS(str(d, "quirks"), "excluded");
	ck_assert_str_eq(str(d, "producer"), "makedumpfile");
	/* Kernel virtual addresses through p_vaddr. */
	ck_assert_int_eq(dk_read_va(d, 0xffffffff81001000ull, buf, 64, &err),
	    DK_OK);
	for (size_t i = 0; i < 64; i++)
		ck_assert_uint_eq(buf[i], byte_at(0x1001000 + i));
	ck_assert_int_eq(dk_kvtop(d, 0xffff888000002345ull, &pa, &err), DK_OK);
	ck_assert_uint_eq(pa, 0x2345);
	/* Elsewhere: the Linux translation, which says what it does. */
	ck_assert_int_ne(dk_kvtop(d, 0xffffffffa0000000ull, &pa, &err), DK_OK);
	dk_close(d);
	vm_free(&v);
}
END_TEST

/* A truncated file: what is gone is not dumped, with its range. */
START_TEST(test_truncated)
{
	struct vm v;
	struct dk_dump *d;
	uint64_t data;
	struct dk_check_opts o = { 0 };
	struct dk_check_result res;
	struct dk_err err;

	vm_init(&v, 1, 0, 62);
	vm_note(&v, "CORE", 1, 336);
	vm_ph(&v, 1, 0, 0, 0x100000, 0x10000, 0x10000);
	vm_ph(&v, 1, 0x10000, 0, 0x200000, 0x10000, 0x10000);
	data = vm_finish(&v);
	d = vm_open(&v, (size_t)(data + 0x14000));
	read_ok(d, 0x100000, 64);
	read_ok(d, 0x203f00, 256);
	HAS(read_fails(d, 0x204000, 8), "PT_LOAD 2 puts [0x204000, 0x210000) "
	    "past the end of the truncated file");
	HAS(read_fails(d, 0x203ff0, 32), "past the end");
	ck_assert_uint_eq(dk_info(d)->npages, 32);
	ck_assert_uint_eq(dk_info(d)->npages_present, 20);
	ck_assert_uint_eq(num(d, "bytes_past_eof"), 0xc000);
	dk_close(d);
	ck_assert_int_eq(dk_check_mem(v.b, (size_t)(data + 0x14000), "mem", &o,
	    &res, &err), DK_OK);
	ck_assert_uint_eq(res.nerrors, 1);
	vm_free(&v);
}
END_TEST

/* dumpcheck's findings, each at its place. */
struct got {
	char	codes[2048];
	uint64_t off[64];
	char	 names[64][48];
	size_t	 n;
};

static void
collect(void *arg, const struct dk_finding *f)
{
	struct got *g = arg;
	size_t l = strlen(g->codes);

	snprintf(g->codes + l, sizeof(g->codes) - l, "%s ", f->code);
	if (g->n < 64) {
		g->off[g->n] = f->has_offset ? f->offset : UINT64_MAX;
		snprintf(g->names[g->n++], sizeof(g->names[0]), "%s", f->code);
	}
}

static void
check(const struct vm *v, size_t len, struct got *g,
    struct dk_check_result *res)
{
	struct dk_check_opts o = { 0 };
	struct dk_err err;

	memset(g, 0, sizeof(*g));
	o.finding = collect;
	o.arg = g;
	ck_assert_msg(dk_check_mem(v->b, len, "mem", &o, res, &err) == DK_OK,
	    "%s", err.msg);
	ck_assert_str_eq(res->format, "vmcore");
}

static uint64_t
at(const struct got *g, const char *code)
{
	for (size_t i = 0; i < g->n; i++)
		if (strcmp(g->names[i], code) == 0)
			return g->off[i];
	ck_abort_msg("no %s in: %s", code, g->codes);
	return 0;
}

/* Overlaps: aliases, identical bytes elsewhere, a conflict. */
START_TEST(test_overlaps)
{
	struct vm v;
	struct got g;
	struct dk_check_result res;
	uint64_t data;

	/* The kernel text again in the direct map: identical, a note. */
	vm_init(&v, 1, 0, 62);
	memcpy(vm_note(&v, "VMCOREINFO", 0, 30), "OSRELEASE=6.1.0\nPAGESIZE="
	    "4096\n", 30);
	vm_ph(&v, 1, 0, 0xffff888000000000ull, 0, 0x10000, 0x10000);
	vm_ph(&v, 1, 0x10000, 0xffffffff81000000ull, 0x4000, 0x2000, 0x2000);
	vm_ph(&v, 1, 0x4000, 0xffffc90000000000ull, 0x4000, 0x1000, 0x1000);
	data = vm_finish(&v);
	check(&v, v.len, &g, &res);
	ck_assert_uint_eq(res.nerrors + res.nwarnings, 0);
	HAS(g.codes, "vmcore.overlap ");
	HAS(g.codes, "vmcore.quirk.aliases ");
	/* A byte of the copy changed: a conflict, at that byte. */
	ck_assert_uint_eq(v.b[data + 0x10000 + 0x123], byte_at(0x4123));
	v.b[data + 0x10000 + 0x123] ^= 0xff;
	check(&v, v.len, &g, &res);
	ck_assert_uint_eq(res.nerrors, 1);
	ck_assert_uint_eq(at(&g, "vmcore.overlap-conflict"),
	    data + 0x10000 + 0x123);
	vm_free(&v);
}
END_TEST

/* VMCOREINFO against the header, malformed notes, bad segments. */
START_TEST(test_findings)
{
	static const char bad[] = "OSRELEASE=6.1.0\nPAGESIZE=8192\n"
	    "NUMBER(kimage_voffset)=0x1\n";
	struct vm v;
	struct got g;
	struct dk_check_result res;
	uint8_t *p;

	vm_init(&v, 1, 0, 62);
	memcpy(vm_note(&v, "VMCOREINFO", 0, sizeof(bad) - 1), bad,
	    sizeof(bad) - 1);
	vm_note(&v, "CORE", 1, 300);		/* not x86_64's 336 */
	vm_ph(&v, 1, 0, 0xff00000000001000ull, 0, 0x1000, 0x1000);
	vm_ph(&v, 1, 0x1000, 0, 0x1000, 0x2000, 0x1000);	/* filesz > memsz */
	vm_finish(&v);
	check(&v, v.len, &g, &res);
	HAS(g.codes, "vmcore.vmcoreinfo-mismatch ");
	HAS(g.codes, "vmcore.prstatus-size ");
	HAS(g.codes, "vmcore.non-canonical ");
	HAS(g.codes, "vmcore.load ");
	ck_assert_int_eq(res.deep, 0);		/* the reader refuses it too */
	vm_free(&v);
	/* A note that claims more than its segment: found, still read. */
	vm_init(&v, 1, 0, 62);
	vm_note(&v, "CORE", 1, 336);
	p = vm_note(&v, "CORE", 1, 336);
	put(p - 20 + 4, 4, 0, 0x7fffffff);
	vm_ph(&v, 1, 0, 0, 0, 0x1000, 0x1000);
	vm_finish(&v);
	check(&v, v.len, &g, &res);
	ck_assert_uint_eq(res.nerrors, 1);
	HAS(g.codes, "vmcore.note-malformed ");
	{
		struct dk_dump *d = vm_open(&v, v.len);

		HAS(str(d, "notes_error"), "note");
		read_ok(d, 0x10, 32);
		dk_close(d);
	}
	vm_free(&v);
}
END_TEST

/*
 * PN_XNUM: 200,000 PT_LOADs (QEMU's paging dumps: one per virtual
 * page, most aliasing a page of the direct map) open in linear time
 * and read right.
 */
START_TEST(test_xnum)
{
	enum { N = 200000 };
	struct vm v;
	struct dk_dump *d;
	struct got g;
	struct dk_check_result res;
	uint8_t buf[16];
	struct dk_err err;
	clock_t t0;

	vm_init(&v, 1, 0, 62);
	vm_note(&v, "CORE", 1, 336);
	vm_ph(&v, 1, 0, 0xffff888000000000ull, 0, 0x40000, 0x40000);
	for (uint64_t i = 1; i < N; i++) {
		uint64_t pg = (i * 37) % 64;

		vm_ph(&v, 1, pg << 12, 0xffffc90000000000ull + (i << 12),
		    pg << 12, 0x1000, 0x1000);
		v.ph[v.nph - 1].nofill = 1;
	}
	vm_finish(&v);
	t0 = clock();
	d = vm_open(&v, v.len);
	ck_assert_msg(clock() - t0 < 10 * CLOCKS_PER_SEC, "open took %.1f s",
	    (double)(clock() - t0) / CLOCKS_PER_SEC);
	HAS(str(d, "quirks"), "pn-xnum");
	HAS(str(d, "quirks"), "aliases");
	ck_assert_uint_eq(num(d, "pt_loads"), N);
	ck_assert_uint_eq(dk_phys_nranges(d), 1);
	read_ok(d, 0x3f000, 64);
	ck_assert_int_eq(dk_read_va(d, 0xffffc90000000000ull + (5 << 12) + 8,
	    buf, 8, &err), DK_OK);
	ck_assert_uint_eq(buf[0], byte_at((((5 * 37) % 64) << 12) + 8));
	dk_close(d);
	check(&v, v.len, &g, &res);
	ck_assert_uint_eq(res.nerrors + res.nwarnings, 0);
	HAS(g.codes, "vmcore.quirk.pn-xnum ");
	vm_free(&v);
}
END_TEST

/*
 * Boundaries at odd bytes: reads go by granules of at least 64 bytes
 * (dumpcheck's digest hashes 64-byte blocks), so a fragment of a segment
 * smaller than one is not dumped, and says so; the rest reads right.
 */
START_TEST(test_fragment)
{
	struct vm v;
	struct dk_dump *d;
	struct got g;
	struct dk_check_result res;

	vm_init(&v, 1, 0, 62);
	vm_note(&v, "CORE", 1, 336);
	vm_ph(&v, 1, 0, 0, 0x1030, 0x100, 0x100);
	vm_finish(&v);
	d = vm_open(&v, v.len);
	read_ok(d, 0x1040, 0xc0);
	HAS(read_fails(d, 0x1034, 4), "a fragment smaller than the reads' "
	    "granule of 64 bytes");
	HAS(read_fails(d, 0x1100, 2), "fragment");
	dk_close(d);
	check(&v, v.len, &g, &res);
	ck_assert_uint_eq(res.nerrors + res.nwarnings, 0);
	vm_free(&v);
}
END_TEST

/* A 32-bit big-endian vmcore (powerpc): the same rules. */
START_TEST(test_elf32_be)
{
	struct vm v;
	struct dk_dump *d;

	vm_init(&v, 0, 1, 20);
	vm_note(&v, "CORE", 1, 268);
	vm_ph(&v, 1, 0, 0xc0000000u, 0, 0x3000, 0x3000);
	vm_finish(&v);
	d = vm_open(&v, v.len);
	ck_assert_str_eq(dk_info(d)->arch, "powerpc");
	ck_assert_int_eq(dk_info(d)->endian, DK_BE);
	read_ok(d, 0x2ff0, 16);
	dk_close(d);
	vm_free(&v);
}
END_TEST

static Suite *
vmcore_suite(void)
{
	Suite *s = suite_create("vmcore");
	TCase *notes = tcase_create("notes");
	TCase *segs = tcase_create("segments");
	TCase *ck = tcase_create("check");

	tcase_add_loop_test(notes, test_prstatus, 0, sizeof(cpus) /
	    sizeof(cpus[0]));
	tcase_add_test(notes, test_qemu_note);
	tcase_add_test(notes, test_vmcoreinfo);
	tcase_add_test(segs, test_segments);
	tcase_add_test(segs, test_truncated);
	tcase_add_test(segs, test_elf32_be);
	tcase_add_test(segs, test_fragment);
	tcase_add_test(segs, test_xnum);
	tcase_set_timeout(segs, 120);
	tcase_add_test(ck, test_overlaps);
	tcase_add_test(ck, test_findings);
	suite_add_tcase(s, notes);
	suite_add_tcase(s, segs);
	suite_add_tcase(s, ck);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(vmcore_suite());
	int nf;

	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
