/*
 * arch.c -- THE list of architectures.
 *
 * One row per (machine, byte order, ABI), named as FreeBSD's MACHINE_ARCH
 * names it.  A row points at its minidump family (arch_<family>.c), which
 * knows the header layout and the page tables; the row adds what the
 * family cannot know from the dump alone: byte order, word size, and how
 * a kernel ELF image of that row identifies itself.  A new architecture
 * is a new row, and a family with one byte order has one row.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "dkelf.h"
#include "private.h"

static const struct dk_arch arches[] = {
	{ .name = "amd64", .aliases = "x86_64", .family = "amd64",
	  .endian = DK_LE, .elf_machine = EM_X86_64, .elf_class = ELFCLASS64,
	  .long_size = 8, .minidump = &dk_md_amd64 },
	{ .name = "i386", .aliases = "i686 x86", .family = "i386",
	  .endian = DK_LE, .elf_machine = EM_386, .elf_class = ELFCLASS32,
	  .long_size = 4, .minidump = &dk_md_i386 },
	{ .name = "aarch64", .aliases = "arm64", .family = "arm64",
	  .endian = DK_LE, .elf_machine = EM_AARCH64,
	  .elf_class = ELFCLASS64, .long_size = 8, .minidump = &dk_md_arm64 },
	{ .name = "arm", .aliases = "armv7 armv6 armel armhf", .family = "arm",
	  .endian = DK_LE, .elf_machine = EM_ARM, .elf_class = ELFCLASS32,
	  .long_size = 4, .minidump = &dk_md_arm },
	{ .name = "armeb", .aliases = NULL, .family = "arm",
	  .endian = DK_BE, .elf_machine = EM_ARM, .elf_class = ELFCLASS32,
	  .long_size = 4, .minidump = &dk_md_arm },
	/*
	 * mips: one magic for three ABIs in two byte orders.  The kernel's
	 * ELF header tells them apart by EI_CLASS and EF_MIPS_ABI2 (n32).
	 */
	{ .name = "mips", .aliases = "mipso32 mipshf", .family = "mips",
	  .endian = DK_BE, .abi = DK_ABI_O32, .elf_machine = EM_MIPS,
	  .elf_class = ELFCLASS32, .long_size = 4,
	  .elf_flags_mask = EF_MIPS_ABI2, .elf_flags = 0,
	  .minidump = &dk_md_mips },
	{ .name = "mipsel", .aliases = "mipso32el mipselhf", .family = "mips",
	  .endian = DK_LE, .abi = DK_ABI_O32, .elf_machine = EM_MIPS,
	  .elf_class = ELFCLASS32, .long_size = 4,
	  .elf_flags_mask = EF_MIPS_ABI2, .elf_flags = 0,
	  .minidump = &dk_md_mips },
	{ .name = "mipsn32", .aliases = NULL, .family = "mips",
	  .endian = DK_BE, .abi = DK_ABI_N32, .elf_machine = EM_MIPS,
	  .elf_class = ELFCLASS32, .long_size = 4,
	  .elf_flags_mask = EF_MIPS_ABI2, .elf_flags = EF_MIPS_ABI2,
	  .minidump = &dk_md_mips },
	{ .name = "mipsn32el", .aliases = NULL, .family = "mips",
	  .endian = DK_LE, .abi = DK_ABI_N32, .elf_machine = EM_MIPS,
	  .elf_class = ELFCLASS32, .long_size = 4,
	  .elf_flags_mask = EF_MIPS_ABI2, .elf_flags = EF_MIPS_ABI2,
	  .minidump = &dk_md_mips },
	{ .name = "mips64", .aliases = "mipsn64 mips64hf", .family = "mips",
	  .endian = DK_BE, .abi = DK_ABI_N64, .elf_machine = EM_MIPS,
	  .elf_class = ELFCLASS64, .long_size = 8,
	  .minidump = &dk_md_mips },
	{ .name = "mips64el", .aliases = "mipsn64el mips64elhf",
	  .family = "mips", .endian = DK_LE, .abi = DK_ABI_N64,
	  .elf_machine = EM_MIPS, .elf_class = ELFCLASS64, .long_size = 8,
	  .minidump = &dk_md_mips },
	{ .name = "powerpc64", .aliases = "ppc64", .family = "powerpc64",
	  .endian = DK_BE, .elf_machine = EM_PPC64, .elf_class = ELFCLASS64,
	  .long_size = 8, .minidump = &dk_md_powerpc64 },
	{ .name = "powerpc64le", .aliases = "ppc64le", .family = "powerpc64",
	  .endian = DK_LE, .elf_machine = EM_PPC64, .elf_class = ELFCLASS64,
	  .long_size = 8, .minidump = &dk_md_powerpc64 },
	{ .name = "riscv64", .aliases = "riscv", .family = "riscv",
	  .endian = DK_LE, .elf_machine = EM_RISCV, .elf_class = ELFCLASS64,
	  .long_size = 8, .minidump = &dk_md_riscv },
	/* powerpc (32-bit): no minidump; full ELF cores only (fmt_elf.c). */
	{ .name = "powerpc", .aliases = "ppc powerpcspe", .family = "powerpc",
	  .endian = DK_BE, .elf_machine = EM_PPC, .elf_class = ELFCLASS32,
	  .long_size = 4, .minidump = NULL },
	/* sparc64: no minidump; its own dump format (fmt_sparc64.c). */
	{ .name = "sparc64", .aliases = "sparcv9", .family = "sparc64",
	  .endian = DK_BE, .elf_machine = EM_SPARCV9,
	  .elf_class = ELFCLASS64, .long_size = 8, .minidump = NULL,
	  .no_elfcore = "FreeBSD/sparc64 wrote its own dump format (8 KiB "
	  "pages, a TSB), never full ELF cores" },
};

DK_EXPORT const struct dk_arch *
dk_arch_at(size_t i)
{
	return i < DK_ARRAY_LEN(arches) ? &arches[i] : NULL;
}

/* Is name one of the space-separated words of list? */
static int
in_list(const char *list, const char *name)
{
	size_t n = strlen(name);

	while (list != NULL && *list != '\0') {
		size_t k = strcspn(list, " ");

		if (k == n && strncmp(list, name, n) == 0)
			return 1;
		list += k;
		list += strspn(list, " ");
	}
	return 0;
}

DK_EXPORT const struct dk_arch *
dk_arch_by_name(const char *name)
{
	for (size_t i = 0; i < DK_ARRAY_LEN(arches); i++)
		if (strcmp(arches[i].name, name) == 0 ||
		    in_list(arches[i].aliases, name))
			return &arches[i];
	return NULL;
}

DK_EXPORT const char *
dk_arch_name(const struct dk_arch *a)
{
	return a->name;
}

DK_EXPORT enum dk_endian
dk_arch_endian(const struct dk_arch *a)
{
	return a->endian;
}

const struct dk_arch *
dk_arch_family_endian(const char *family, enum dk_endian e)
{
	for (size_t i = 0; i < DK_ARRAY_LEN(arches); i++)
		if (strcmp(arches[i].family, family) == 0 &&
		    arches[i].endian == e)
			return &arches[i];
	return NULL;
}

/*
 * Identify the row of a kernel ELF image from its ELF header alone:
 * EI_CLASS, EI_DATA and e_machine, as libkvm does (FORMATS.md 6.1).
 */
enum dk_status
dk_arch_from_elf_header(const uint8_t *eh, size_t len, const char *name,
    const struct dk_arch **ap, struct dk_err *err)
{
	unsigned need = dk_elf_off(DK_E_MACHINE, ELFCLASS32) +
	    dk_elf_width(DK_E_MACHINE, ELFCLASS32);
	enum dk_endian e;
	uint16_t machine;
	uint32_t flags;
	size_t fo;

	if (len < need)
		return dk_err_off(err, DK_ETRUNC, len, "%s: offset %zu: the "
		    "ELF header needs %u bytes for e_machine, the file has "
		    "%zu", name, len, need, len);
	if (!dk_elf_magic(eh))
		return dk_err_at(err, DK_EINVAL, name, 0, "expected the ELF "
		    "magic 7f 45 4c 46 of a kernel image, found %02x %02x "
		    "%02x %02x", eh[0], eh[1], eh[2], eh[3]);
	if (eh[EI_DATA] == ELFDATA2LSB)
		e = DK_LE;
	else if (eh[EI_DATA] == ELFDATA2MSB)
		e = DK_BE;
	else
		return dk_err_off(err, DK_EINVAL, EI_DATA, "%s: offset %d: "
		    "EI_DATA %u is neither LSB (1) nor MSB (2)", name, EI_DATA,
		    eh[EI_DATA]);
	machine = (uint16_t)dk_elf_get(eh, DK_E_MACHINE, eh[EI_CLASS], e);
	/* e_flags (36 in ELF32 headers, 48 in ELF64 ones), if len has it. */
	fo = dk_elf_off(DK_E_FLAGS, eh[EI_CLASS]) +
	    dk_elf_width(DK_E_FLAGS, eh[EI_CLASS]);
	flags = len >= fo ? (uint32_t)dk_elf_get(eh, DK_E_FLAGS, eh[EI_CLASS],
	    e) : 0;
	for (size_t i = 0; i < DK_ARRAY_LEN(arches); i++) {
		if (arches[i].elf_machine == machine &&
		    arches[i].elf_class == eh[EI_CLASS] &&
		    arches[i].endian == e &&
		    (flags & arches[i].elf_flags_mask) == arches[i].elf_flags) {
			*ap = &arches[i];
			return DK_OK;
		}
	}
	return dk_err_set(err, DK_EUNSUP, "%s: no architecture known for "
	    "e_machine %u, EI_CLASS %u, EI_DATA %u, e_flags %#x", name,
	    machine, eh[EI_CLASS], eh[EI_DATA], flags);
}

enum dk_status
dk_arch_from_kernel(const char *path, const struct dk_arch **ap,
    struct dk_err *err)
{
	uint8_t eh[64];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		dk_err_set(err, DK_ESYS, "%s: %s", path, strerror(errno));
		err->sys_errno = errno;
		return DK_ESYS;
	}
	n = pread(fd, eh, sizeof(eh), 0);
	close(fd);
	if (n < 0) {
		dk_err_set(err, DK_ESYS, "%s: reading the ELF header: %s",
		    path, strerror(errno));
		err->sys_errno = errno;
		return DK_ESYS;
	}
	return dk_arch_from_elf_header(eh, (size_t)n, path, ap, err);
}
