/*
 * arch_s390x.c -- s390x (64-bit z/Architecture): the architecture row.
 *
 * FreeBSD has no s390x port, so there is no minidump family and there
 * are no FreeBSD full ELF cores of it; the row names the machine as
 * Linux does, with its byte order (big-endian), its word size and how
 * its kernel's ELF header identifies it (ELFCLASS64, EM_S390), for the
 * Linux dumps that come next.  Pages are 4 KiB.  No page-table walk
 * yet: the DAT tables (region, segment and page tables) come with the
 * Linux reader.
 *
 * The constants are spelled out here, never taken from a host header,
 * so that this file builds and is tested on any host.
 */
#include "private.h"

#define	S390X_PAGE_SHIFT	12
#define	S390X_EM_S390		22		/* the kernel's e_machine */
#define	S390X_ELFCLASS64	2

static const struct dk_arch s390x_rows[] = {
	{ .name = "s390x", .aliases = NULL, .family = "s390x",
	  .endian = DK_BE, .elf_machine = S390X_EM_S390,
	  .elf_class = S390X_ELFCLASS64, .long_size = 8, .minidump = NULL,
	  .no_elfcore = "FreeBSD has no s390x port, so no FreeBSD kernel "
	  "wrote a full ELF core of it", .ops = &dk_arch_s390x },
};

const struct dk_arch_ops dk_arch_s390x = {
	.name		= "s390x",
	.rows		= s390x_rows,
	.nrows		= DK_ARRAY_LEN(s390x_rows),
	.page_shift	= S390X_PAGE_SHIFT,
	.minidump	= NULL,
};
