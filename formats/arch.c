/*
 * arch.c -- THE list of architectures: one table of modules.
 *
 * An architecture is a module, formats/arch_<name>.c, with one ops
 * table (struct dk_arch_ops): its rows, its minidump family where it
 * has one, its hardware page-table walks and its protection decoding.
 * A row is one (machine, byte order, ABI), named as FreeBSD's
 * MACHINE_ARCH names it (s390x, which FreeBSD never ran, as Linux
 * does); it adds what the family cannot know from the dump alone: byte
 * order, word size, and how a kernel ELF image of that row identifies
 * itself.  A new architecture is a new module at the end of modules[];
 * a family with one byte order has one row.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "dkelf.h"
#include "private.h"

/*
 * The modules, in the order dk_arch_at() numbers their rows: tools and
 * tests enumerate the rows, so a new module goes at the end.
 */
static const struct dk_arch_ops *const modules[] = {
	&dk_arch_amd64,
	&dk_arch_i386,
	&dk_arch_arm64,
	&dk_arch_arm,
	&dk_arch_mips,
	&dk_arch_powerpc64,
	&dk_arch_riscv,
	&dk_arch_powerpc,
	&dk_arch_sparc64,
	&dk_arch_s390x,
};

DK_EXPORT const struct dk_arch *
dk_arch_at(size_t i)
{
	for (size_t m = 0; m < DK_ARRAY_LEN(modules); m++) {
		if (i < modules[m]->nrows)
			return &modules[m]->rows[i];
		i -= modules[m]->nrows;
	}
	return NULL;
}

const struct dk_pt_walk *
dk_arch_walk(const struct dk_arch_ops *m, const char *name)
{
	for (size_t i = 0; i < m->nwalks; i++)
		if (strcmp(m->walks[i].name, name) == 0)
			return &m->walks[i];
	return NULL;
}

const char *
dk_arch_dump_format(const struct dk_arch *a)
{
	if (a->ops->native != NULL)
		return a->ops->native->name;
	return a->minidump != NULL ? "minidump" : NULL;
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
	const struct dk_arch *a;

	for (size_t i = 0; (a = dk_arch_at(i)) != NULL; i++)
		if (strcmp(a->name, name) == 0 || in_list(a->aliases, name))
			return a;
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
	const struct dk_arch *a;

	for (size_t i = 0; (a = dk_arch_at(i)) != NULL; i++)
		if (strcmp(a->family, family) == 0 && a->endian == e)
			return a;
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
	const struct dk_arch *a;
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
	for (size_t i = 0; (a = dk_arch_at(i)) != NULL; i++) {
		if (a->elf_machine == machine &&
		    a->elf_class == eh[EI_CLASS] &&
		    a->endian == e &&
		    (flags & a->elf_flags_mask) == a->elf_flags) {
			*ap = a;
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
