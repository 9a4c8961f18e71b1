/*
 * arch_powerpc.c -- 32-bit powerpc: the architecture row.
 *
 * FreeBSD/powerpc wrote no minidump; its full ELF cores are "virtual":
 * each PT_LOAD has the kernel VA in p_vaddr and all-ones in p_paddr
 * (fmt_elf.c, FORMATS.md 4), so no page tables are walked here.
 *
 * The constants are spelled out here, never taken from a host header,
 * so that this file builds and is tested on any host.
 */
#include "private.h"

#define	POWERPC_PAGE_SHIFT	12
#define	POWERPC_EM_PPC		20		/* the kernel's e_machine */
#define	POWERPC_ELFCLASS32	1

static const struct dk_arch powerpc_rows[] = {
	{ .name = "powerpc", .aliases = "ppc powerpcspe", .family = "powerpc",
	  .endian = DK_BE, .elf_machine = POWERPC_EM_PPC,
	  .elf_class = POWERPC_ELFCLASS32, .long_size = 4, .minidump = NULL,
	  .ops = &dk_arch_powerpc },
};

const struct dk_arch_ops dk_arch_powerpc = {
	.name		= "powerpc",
	.rows		= powerpc_rows,
	.nrows		= DK_ARRAY_LEN(powerpc_rows),
	.page_shift	= POWERPC_PAGE_SHIFT,
	.minidump	= NULL,
};
