/*
 * arch_sparc64.c -- sparc64: the architecture row.
 *
 * FreeBSD/sparc64 wrote neither minidumps nor full ELF cores but a dump
 * format of its own: a header, physical regions and the kernel's TSB
 * (fmt_sparc64.c, FORMATS.md 5).  Reading the TSB is that format's
 * business, and so are its TTE bits, which sparc64.h shares with the
 * validator (check_sparc64.c) and the generator (fixtures/).
 *
 * The constants are spelled out here, never taken from a host header,
 * so that this file builds and is tested on any host.
 */
#include "private.h"
#include "sparc64.h"

#define	SPARC64_EM_SPARCV9	43		/* the kernel's e_machine */
#define	SPARC64_ELFCLASS64	2

static const struct dk_arch sparc64_rows[] = {
	{ .name = "sparc64", .aliases = "sparcv9", .family = "sparc64",
	  .endian = DK_BE, .elf_machine = SPARC64_EM_SPARCV9,
	  .elf_class = SPARC64_ELFCLASS64, .long_size = 8, .minidump = NULL,
	  .no_elfcore = "FreeBSD/sparc64 wrote its own dump format (8 KiB "
	  "pages, a TSB), never full ELF cores", .ops = &dk_arch_sparc64 },
};

const struct dk_arch_ops dk_arch_sparc64 = {
	.name		= "sparc64",
	.rows		= sparc64_rows,
	.nrows		= DK_ARRAY_LEN(sparc64_rows),
	.page_shift	= SP64_PAGE_SHIFT,
	.minidump	= NULL,
	.native		= &dk_fmt_sparc64,
};
