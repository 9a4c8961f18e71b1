/*
 * check_recognize.c -- dumps dumpkit recognises but does not read yet
 * (formats/recognize.c): the open fails with DK_EUNSUP, which every
 * tool maps to exit 2 (validate/tool.c, tool_open_exit), and a message
 * that names what the file is and the fact that says so, at its offset.
 *
 *  - "magic": makedumpfile's kdump-compressed header ("KDUMP   ", both
 *    byte orders of header_version), diskdump's ("DISKDUMP") and the
 *    flattened header ("makedumpfile"), once rows of the table, are now
 *    the kdump reader's (formats/fmt_kdump.c, tests/check_kdump.c): the
 *    headers typed in from makedumpfile's struct disk_dump_header
 *    (diskdump_mod.h: char signature[8], int header_version, struct
 *    new_utsname of six char[65]) and struct makedumpfile_header
 *    (makedumpfile.h: char signature[16], int64 type 1, int64 version
 *    1, big-endian, then big-endian (offset, size) records) are handed
 *    to it and refused as damaged kdump files, never as recognised but
 *    unread; one byte off the signature is still unknown.
 *  - "elf": ELF cores written below field by field at the offsets of
 *    the ELF gABI (both classes, both byte orders), with the notes the
 *    Linux kernel writes into a vmcore (VMCOREINFO, type 0; CORE
 *    NT_PRSTATUS), into a process core (CORE NT_PRSTATUS, NT_PRPSINFO,
 *    NT_AUXV, NT_FILE) and FreeBSD into a process core ("FreeBSD"
 *    notes, EI_OSABI 9); the precedence of the rows (the Linux kernel's
 *    cores, once rows, are read by fmt_vmcore.c now, and are opened
 *    here as such); what is not
 *    recognised (no such note, not ET_CORE, notes past the end) stays
 *    "not a dump format dumpkit knows"; a FreeBSD full core (EI_OSABI
 *    255) with a VMCOREINFO note is still read as the full core it is.
 *  - "real": a process core the Linux kernel wrote for a static
 *    program that wrote to address 0 (x86_64, Linux 6.x), cut after its
 *    notes (the ELF header, 9 program headers and the PT_NOTE segment
 *    at 0x238, the first 16 KiB) and xz-compressed:
 *    tests/data/linux-process-core-x86_64.head.xz.  readelf -n lists
 *    NT_PRSTATUS (0x150 bytes) first, so NT_PRPSINFO, the note that
 *    names it, is at 0x238 + 12 + 8 + 0x150 = 0x39c.
 *  - "check": dumpcheck's engine (dk_check_mem) names them the same
 *    (it has no kdump validator yet: a kdump file is not checked).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dkcheck.h"
#include "dumpkit.h"

#define	REAL_CORE	"tests/data/linux-process-core-x86_64.head.xz"

/* ---------------------------------------------------------------------- */
/* Bytes by hand.                                                          */

static void
put(uint8_t *p, unsigned width, int be, uint64_t v)
{
	for (unsigned i = 0; i < width; i++)
		p[be ? width - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

/* An ELF core being written: class 64 or 32, one byte order. */
struct core {
	uint8_t		 b[0x3000];
	int		 is64, be;
	size_t		 nph;		/* program headers written */
	size_t		 notes;		/* where the next note goes */
	size_t		 notes_at;	/* the PT_NOTE segment's offset */
};

/*
 * The ELF header (gABI): e_ident, e_type ET_CORE (4) at 16, e_machine
 * at 18, e_version 1 at 20, e_phoff at 32 (64-bit) or 28 (32-bit),
 * e_ehsize, e_phentsize, e_phnum at 52/54/56 or 40/42/44.  Two program
 * headers: PT_NOTE at 0x200, a PT_LOAD of one page at 0x1000 whose
 * p_paddr is 0x100000.
 */
static void
core_init(struct core *c, int is64, int be, unsigned osabi, unsigned type,
    unsigned machine)
{
	uint8_t *p;

	memset(c, 0, sizeof(*c));
	c->is64 = is64;
	c->be = be;
	memcpy(c->b, "\177ELF", 4);
	c->b[4] = is64 ? 2 : 1;			/* EI_CLASS */
	c->b[5] = be ? 2 : 1;			/* EI_DATA */
	c->b[6] = 1;				/* EI_VERSION */
	c->b[7] = (uint8_t)osabi;		/* EI_OSABI */
	put(c->b + 16, 2, be, type);
	put(c->b + 18, 2, be, machine);
	put(c->b + 20, 4, be, 1);
	if (is64) {
		put(c->b + 32, 8, be, 64);	/* e_phoff */
		put(c->b + 52, 2, be, 64);	/* e_ehsize */
		put(c->b + 54, 2, be, 56);	/* e_phentsize */
		put(c->b + 56, 2, be, 2);	/* e_phnum */
	} else {
		put(c->b + 28, 4, be, 52);
		put(c->b + 40, 2, be, 52);
		put(c->b + 42, 2, be, 32);
		put(c->b + 44, 2, be, 2);
	}
	c->notes_at = c->notes = 0x200;
	/* Program header 1: PT_LOAD (1), p_offset 0x1000, p_paddr 0x100000. */
	p = c->b + (is64 ? 64 + 56 : 52 + 32);
	put(p, 4, be, 1);
	if (is64) {
		put(p + 4, 4, be, 7);			/* p_flags */
		put(p + 8, 8, be, 0x1000);		/* p_offset */
		put(p + 16, 8, be, 0xffff888000100000ull);	/* p_vaddr */
		put(p + 24, 8, be, 0x100000);		/* p_paddr */
		put(p + 32, 8, be, 0x1000);		/* p_filesz */
		put(p + 40, 8, be, 0x1000);		/* p_memsz */
		put(p + 48, 8, be, 0x1000);		/* p_align */
	} else {
		put(p + 4, 4, be, 0x1000);		/* p_offset */
		put(p + 8, 4, be, 0xc0100000u);		/* p_vaddr */
		put(p + 12, 4, be, 0x100000);		/* p_paddr */
		put(p + 16, 4, be, 0x1000);		/* p_filesz */
		put(p + 20, 4, be, 0x1000);		/* p_memsz */
		put(p + 24, 4, be, 7);			/* p_flags */
		put(p + 28, 4, be, 0x1000);		/* p_align */
	}
}

/*
 * Append a note (namesz with the NUL, descsz, type, the name and the
 * descriptor each padded to 4: zeros); return its offset.
 */
static size_t
core_note(struct core *c, const char *name, uint32_t type, size_t descsz)
{
	size_t at = c->notes, nl = strlen(name) + 1;

	put(c->b + at, 4, c->be, nl);
	put(c->b + at + 4, 4, c->be, descsz);
	put(c->b + at + 8, 4, c->be, type);
	memcpy(c->b + at + 12, name, nl);
	c->notes = at + 12 + ((nl + 3) & ~(size_t)3) + ((descsz + 3) &
	    ~(size_t)3);
	ck_assert_uint_lt(c->notes, 0x1000);
	return at;
}

/* Program header 0: the PT_NOTE segment (4) over the notes written. */
static void
core_finish(struct core *c)
{
	uint8_t *p = c->b + (c->is64 ? 64 : 52);
	size_t size = c->notes - c->notes_at;

	put(p, 4, c->be, 4);
	if (c->is64) {
		put(p + 8, 8, c->be, c->notes_at);	/* p_offset */
		put(p + 32, 8, c->be, size);		/* p_filesz */
		put(p + 48, 8, c->be, 4);		/* p_align */
	} else {
		put(p + 4, 4, c->be, c->notes_at);
		put(p + 16, 4, c->be, size);
		put(p + 28, 4, c->be, 4);
	}
}

/* Open bytes that must be recognised: DK_EUNSUP, the offset; the message. */
static const char *
refused(const void *b, size_t n, uint64_t off)
{
	static struct dk_err err;
	struct dk_dump *d = NULL;

	ck_assert_int_eq(dk_open_mem(b, n, "mem", NULL, &d, &err), DK_EUNSUP);
	ck_assert_ptr_null(d);
	ck_assert_msg(err.offset == off, "offset %#jx, expected %#jx: %s",
	    (uintmax_t)err.offset, (uintmax_t)off, err.msg);
	ck_assert_msg(strstr(err.msg, "dumpkit recognises it but does not "
	    "read it yet") != NULL, "%s", err.msg);
	ck_assert_msg(strstr(err.msg, "not a dump format") == NULL, "%s",
	    err.msg);
	return err.msg;
}

/* Open bytes that are not recognised: unknown, as before. */
static void
unknown(const void *b, size_t n)
{
	struct dk_dump *d = NULL;
	struct dk_err err;

	ck_assert_int_eq(dk_open_mem(b, n, "mem", NULL, &d, &err), DK_EUNSUP);
	ck_assert_msg(strstr(err.msg, "not a dump format dumpkit knows") !=
	    NULL, "%s", err.msg);
}

/*
 * Open bytes that the ELF vmcore reader (fmt_vmcore.c) reads now: the
 * Linux kernel cores these rows once named; the row of their e_machine.
 */
static void
read_vmcore(const void *b, size_t n, const char *arch)
{
	struct dk_dump *d = NULL;
	struct dk_err err;

	ck_assert_msg(dk_open_mem(b, n, "mem", NULL, &d, &err) == DK_OK, "%s",
	    err.msg);
	ck_assert_str_eq(dk_info(d)->format, "vmcore");
	ck_assert_str_eq(dk_info(d)->arch, arch);
	dk_close(d);
}

#define	HAS(msg, s)	ck_assert_msg(strstr((msg), (s)) != NULL, \
			    "expected \"%s\" in: %s", (s), (msg))

/* ---------------------------------------------------------------------- */
/* Signatures at offset 0.                                                 */

/* struct disk_dump_header: signature, header_version, utsname. */
static size_t
kdump_header(uint8_t *b, size_t len, const char *sig, int be)
{
	memset(b, 0, len);
	memcpy(b, sig, 8);
	put(b + 8, 4, be, 6);			/* header_version */
	memcpy(b + 12, "Linux", 5);		/* utsname.sysname */
	memcpy(b + 12 + 65, "guest", 5);	/* nodename */
	memcpy(b + 12 + 130, "6.1.0-13-amd64", 14);	/* release */
	memcpy(b + 12 + 195, "#1 SMP", 6);	/* version */
	memcpy(b + 12 + 260, be ? "ppc64" : "x86_64", be ? 5 : 6);
	return len;
}

/* Open bytes the kdump reader must take and refuse: code and message. */
static const char *
kdump_refused(const void *b, size_t n, enum dk_status want)
{
	static struct dk_err err;
	struct dk_dump *d = NULL;

	ck_assert_int_eq(dk_open_mem(b, n, "mem", NULL, &d, &err), want);
	ck_assert_ptr_null(d);
	ck_assert_msg(strstr(err.msg, "recognises it but does not read it") ==
	    NULL && strstr(err.msg, "not a dump format") == NULL, "%s",
	    err.msg);
	return err.msg;
}

START_TEST(test_kdump_compressed)
{
	static uint8_t b[8192];

	/* block_size 0: the reader's, damaged. */
	kdump_header(b, sizeof(b), "KDUMP   ", 0);
	HAS(kdump_refused(b, sizeof(b), DK_ECORRUPT), "mem: offset 0: neither "
	    "the 64-bit nor the 32-bit layout of disk_dump_header fits");
	kdump_header(b, sizeof(b), "KDUMP   ", 1);
	HAS(kdump_refused(b, sizeof(b), DK_ECORRUPT), "disk_dump_header");
	/* Cut right after the signature: too short for a header. */
	HAS(kdump_refused(b, 8, DK_ETRUNC), "the header takes at least 452 "
	    "bytes");
	/* One space short is not the signature. */
	b[7] = 0;
	unknown(b, sizeof(b));
}
END_TEST

START_TEST(test_diskdump)
{
	static uint8_t b[4096];

	kdump_header(b, sizeof(b), "DISKDUMP", 0);
	HAS(kdump_refused(b, sizeof(b), DK_ECORRUPT), "disk_dump_header");
}
END_TEST

START_TEST(test_flattened)
{
	static uint8_t b[3 * 4096];

	memcpy(b, "makedumpfile", 12);		/* signature[16], NUL-padded */
	put(b + 16, 8, 1, 1);			/* type TYPE_FLAT_HEADER */
	put(b + 24, 8, 1, 1);			/* version */
	put(b + 4096, 8, 1, 0);			/* record: offset 0 */
	put(b + 4096 + 8, 8, 1, 4096);		/* size */
	memcpy(b + 4096 + 16, "KDUMP   ", 8);	/* its data */
	put(b + 8208, 8, 1, UINT64_MAX);	/* the end marker: -1, -1 */
	put(b + 8216, 8, 1, UINT64_MAX);
	HAS(kdump_refused(b, sizeof(b), DK_ECORRUPT), "disk_dump_header");
	/* A record of size 0 is no record (makedumpfile -R stops there). */
	put(b + 8216, 8, 1, 0);
	HAS(kdump_refused(b, sizeof(b), DK_ECORRUPT), "mem: offset 0x2010: "
	    "flattened record 1: expected an offset >= 0 and a size > 0");
	put(b + 8216, 8, 1, UINT64_MAX);
	/* A flattened ELF vmcore (makedumpfile -E -F): named, not read. */
	memcpy(b + 4096 + 16, "\177ELF", 4);
	HAS(kdump_refused(b, sizeof(b), DK_EUNSUP), "a makedumpfile "
	    "flattened file holding an ELF vmcore");
	/* Only the header block: no record holds a header. */
	HAS(kdump_refused(b, 4096, DK_ETRUNC), "the dump ends before its "
	    "8-byte signature (the flattened file's records end at 0x0");
	/* The signature is 16 bytes: "makedumpfile" then NULs. */
	b[12] = 'x';
	unknown(b, sizeof(b));
}
END_TEST

/* ---------------------------------------------------------------------- */
/* ELF cores.                                                              */

#define	EM_X86_64_	62
#define	EM_PPC_		20
#define	EM_MIPS_	8

START_TEST(test_linux_vmcore)
{
	static struct core c;
	size_t at;

	/* The kernel's crash notes: CORE NT_PRSTATUS per CPU, VMCOREINFO. */
	core_init(&c, 1, 0, 0, 4, EM_X86_64_);
	core_note(&c, "CORE", 1, 336);
	core_note(&c, "CORE", 1, 336);
	at = core_note(&c, "VMCOREINFO", 0, 64);
	memcpy(c.b + at + 24, "OSRELEASE=6.1.0\nPAGESIZE=4096\n", 30);
	core_finish(&c);
	read_vmcore(c.b, sizeof(c.b), "amd64");
}
END_TEST

/* 32-bit and big-endian: the notes are found in every class and order. */
START_TEST(test_vmcore_32_be)
{
	static struct core c;

	core_init(&c, 0, 1, 0, 4, EM_PPC_);
	core_note(&c, "VMCOREINFO", 0, 16);
	core_finish(&c);
	read_vmcore(c.b, sizeof(c.b), "powerpc");
	core_init(&c, 0, 0, 0, 4, EM_MIPS_);
	core_note(&c, "CORE", 1, 144);
	core_finish(&c);
	read_vmcore(c.b, sizeof(c.b), "mipsel");
}
END_TEST

/* QEMU's dump without VMCOREINFO: NT_PRSTATUS and its own "QEMU" notes. */
START_TEST(test_kernel_core_no_vmcoreinfo)
{
	static struct core c;

	core_init(&c, 1, 0, 0, 4, EM_X86_64_);
	core_note(&c, "CORE", 1, 336);
	core_note(&c, "QEMU", 0, 440);
	core_finish(&c);
	read_vmcore(c.b, sizeof(c.b), "amd64");
}
END_TEST

START_TEST(test_process_core)
{
	static const struct { uint32_t type; const char *name; } t[] = {
		{ 3, "NT_PRPSINFO" }, { 6, "NT_AUXV" },
		{ 0x46494c45, "NT_FILE" },
	};
	static struct core c;
	size_t at;

	for (size_t i = 0; i < 3; i++) {
		core_init(&c, 1, 0, 0, 4, EM_X86_64_);
		core_note(&c, "CORE", 1, 336);	/* NT_PRSTATUS first */
		at = core_note(&c, "CORE", t[i].type, 136);
		core_note(&c, "LINUX", 0x202, 512);	/* NT_X86_XSTATE */
		core_finish(&c);
		HAS(refused(c.b, sizeof(c.b), at), t[i].name);
		HAS(refused(c.b, sizeof(c.b), at), "a Linux process core, a "
		    "program's core dump rather than the kernel's (note "
		    "\"CORE\" ");
		HAS(refused(c.b, sizeof(c.b), at), "; gdb reads it with the "
		    "program");
	}
}
END_TEST

/* FreeBSD's imgact_elf.c: EI_OSABI 9, "FreeBSD" notes, NT_PRPSINFO first. */
START_TEST(test_freebsd_process_core)
{
	static struct core c;
	size_t at;

	core_init(&c, 1, 0, 9, 4, EM_X86_64_);
	at = core_note(&c, "FreeBSD", 3, 120);
	core_note(&c, "FreeBSD", 1, 224);
	core_finish(&c);
	HAS(refused(c.b, sizeof(c.b), at), "a FreeBSD process core, a "
	    "program's core dump rather than the kernel's (note \"FreeBSD\" "
	    "NT_PRPSINFO)");
}
END_TEST

/* The first row that matches wins, wherever its note is. */
START_TEST(test_precedence)
{
	static struct core c;
	size_t at;

	/* /proc/kcore has process-like notes and VMCOREINFO: a kernel's. */
	core_init(&c, 1, 0, 0, 4, EM_X86_64_);
	core_note(&c, "CORE", 1, 336);
	core_note(&c, "CORE", 3, 136);
	core_note(&c, "VMCOREINFO", 0, 16);
	core_finish(&c);
	read_vmcore(c.b, sizeof(c.b), "amd64");
	/* NT_PRSTATUS before NT_PRPSINFO: still a process core. */
	core_init(&c, 1, 0, 0, 4, EM_X86_64_);
	core_note(&c, "CORE", 1, 336);
	at = core_note(&c, "CORE", 6, 16);
	core_finish(&c);
	HAS(refused(c.b, sizeof(c.b), at), "a Linux process core");
	/* A note's name must be the whole owner: "COREX" is not "CORE". */
	core_init(&c, 1, 0, 0, 4, EM_X86_64_);
	core_note(&c, "COREX", 1, 336);
	core_note(&c, "VMCOREINFO_XEN", 0, 16);
	core_finish(&c);
	unknown(c.b, sizeof(c.b));
}
END_TEST

START_TEST(test_not_recognised)
{
	static struct core c;

	/* An ELF core with no note dumpkit knows of. */
	core_init(&c, 1, 0, 0, 4, EM_X86_64_);
	core_note(&c, "GNU", 5, 16);
	core_finish(&c);
	unknown(c.b, sizeof(c.b));
	/* The notes of a vmcore in an executable (ET_EXEC, 2): no core. */
	core_init(&c, 1, 0, 0, 2, EM_X86_64_);
	core_note(&c, "VMCOREINFO", 0, 16);
	core_finish(&c);
	unknown(c.b, sizeof(c.b));
	/* Text, and nothing at all. */
	unknown("just some text\n", 15);
	unknown("", 0);
}
END_TEST

/*
 * A vmcore cut before its notes, or inside its program headers, has
 * nothing but its ELF header to go by: ET_CORE, EI_OSABI 0, a Linux
 * vmcore's e_machine make it one (dumpcheck then reports the cut); a
 * FreeBSD process core's EI_OSABI, or a machine no Linux vmcore has,
 * does not.
 */
START_TEST(test_cut_vmcore)
{
	static struct core c;
	struct dk_dump *d = NULL;
	struct dk_err err;

	core_init(&c, 1, 0, 0, 4, EM_X86_64_);
	core_note(&c, "VMCOREINFO", 0, 16);
	core_finish(&c);
	ck_assert_msg(dk_open_mem(c.b, 0x200, "mem", NULL, &d, &err) == DK_OK,
	    "%s", err.msg);
	ck_assert_str_eq(dk_info(d)->format, "vmcore");
	dk_close(d);
	d = NULL;
	/* e_phoff (0x40) past the end: the header alone. */
	ck_assert_msg(dk_open_mem(c.b, 0x48, "mem", NULL, &d, &err) != DK_OK,
	    "a vmcore whose program headers are cut opens");
	ck_assert_msg(strstr(err.msg, "not a dump format") == NULL, "%s",
	    err.msg);
	core_init(&c, 1, 0, 9, 4, EM_X86_64_);		/* ELFOSABI_FREEBSD */
	core_note(&c, "VMCOREINFO", 0, 16);
	core_finish(&c);
	unknown(c.b, 0x200);
	core_init(&c, 1, 0, 0, 4, 2);			/* EM_SPARC */
	core_note(&c, "VMCOREINFO", 0, 16);
	core_finish(&c);
	unknown(c.b, 0x200);
}
END_TEST

/*
 * A damaged note ends the walk of its segment, and what came before it
 * counts: a vmcore whose last note claims more bytes than the segment.
 */
START_TEST(test_damaged_notes)
{
	static struct core c;
	size_t bad;

	core_init(&c, 1, 0, 0, 4, EM_X86_64_);
	core_note(&c, "VMCOREINFO", 0, 16);
	bad = core_note(&c, "CORE", 1, 336);
	put(c.b + bad + 4, 4, 0, 0x7fffffff);	/* descsz past the segment */
	core_finish(&c);
	read_vmcore(c.b, sizeof(c.b), "amd64");
}
END_TEST

/*
 * A FreeBSD full core (EI_OSABI 255, FORMATS.md 4) is read as one,
 * whatever notes it has: the formats come first.
 */
START_TEST(test_freebsd_full_core_unchanged)
{
	static struct core c;
	struct dk_dump *d = NULL;
	struct dk_err err;

	core_init(&c, 1, 0, 255, 4, EM_X86_64_);
	core_note(&c, "VMCOREINFO", 0, 16);
	core_finish(&c);
	memset(c.b + 0x1000, 0x5a, 0x1000);
	ck_assert_msg(dk_open_mem(c.b, 0x2000, "mem", NULL, &d, &err) == DK_OK,
	    "%s", err.msg);
	ck_assert_str_eq(dk_info(d)->format, "elf");
	dk_close(d);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* A real process core, and dumpcheck.                                     */

START_TEST(test_real_process_core)
{
	struct dk_dump *d = NULL;
	struct dk_err err;

	ck_assert_msg(dk_open(REAL_CORE, NULL, &d, &err) == DK_EUNSUP,
	    "%s (run from the top of the tree)", err.msg);
	ck_assert_uint_eq(err.offset, 0x39c);
	ck_assert_str_eq(err.msg, REAL_CORE " (decompressed): offset 0x39c: "
	    "a Linux process core, a program's core dump rather than the "
	    "kernel's (note \"CORE\" NT_PRPSINFO): dumpkit recognises it but "
	    "does not read it yet; gdb reads it with the program");
}
END_TEST

static void
ck_refused(const void *b, size_t n, const char *want)
{
	struct dk_check_opts o = { 0 };
	struct dk_check_result res;
	struct dk_err err;

	ck_assert_int_eq(dk_check_mem(b, n, "mem", &o, &res, &err), DK_EUNSUP);
	ck_assert_int_eq(res.examined, 0);
	HAS(err.msg, want);
	HAS(err.msg, "dumpkit recognises it but does not read it yet");
}

START_TEST(test_dumpcheck)
{
	static struct core c;
	struct dk_check_opts o = { 0 };
	struct dk_check_result res;
	struct dk_err err;

	core_init(&c, 1, 0, 0, 4, EM_X86_64_);
	core_note(&c, "VMCOREINFO", 0, 16);
	core_finish(&c);
	ck_assert_int_eq(dk_check_mem(c.b, sizeof(c.b), "mem", &o, &res, &err),
	    DK_OK);
	ck_assert_str_eq(res.format, "vmcore");
	core_init(&c, 1, 1, 0, 4, 21);
	core_note(&c, "CORE", 1, 336);
	core_note(&c, "CORE", 0x46494c45, 16);
	core_finish(&c);
	ck_refused(c.b, sizeof(c.b), "a Linux process core");
	ck_assert_int_eq(dk_check(REAL_CORE, &o, &res, &err), DK_EUNSUP);
	HAS(err.msg, "offset 0x39c: a Linux process core");
}
END_TEST

static Suite *
recognize_suite(void)
{
	Suite *s = suite_create("recognize");
	TCase *magic = tcase_create("magic");
	TCase *elf = tcase_create("elf");
	TCase *real = tcase_create("real");
	TCase *ck = tcase_create("check");

	tcase_add_test(magic, test_kdump_compressed);
	tcase_add_test(magic, test_diskdump);
	tcase_add_test(magic, test_flattened);
	tcase_add_test(elf, test_linux_vmcore);
	tcase_add_test(elf, test_vmcore_32_be);
	tcase_add_test(elf, test_kernel_core_no_vmcoreinfo);
	tcase_add_test(elf, test_process_core);
	tcase_add_test(elf, test_freebsd_process_core);
	tcase_add_test(elf, test_precedence);
	tcase_add_test(elf, test_not_recognised);
	tcase_add_test(elf, test_damaged_notes);
	tcase_add_test(elf, test_cut_vmcore);
	tcase_add_test(elf, test_freebsd_full_core_unchanged);
	tcase_add_test(real, test_real_process_core);
	tcase_add_test(ck, test_dumpcheck);
	suite_add_tcase(s, magic);
	suite_add_tcase(s, elf);
	suite_add_tcase(s, real);
	suite_add_tcase(s, ck);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(recognize_suite());
	int nfailed;

	srunner_run_all(sr, CK_ENV);
	nfailed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfailed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
