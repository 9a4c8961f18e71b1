/*
 * kernel.c -- symbols of a kernel ELF image (--kernel FILE), for the
 * readers that find the page tables of a full ELF core through them
 * (FORMATS.md 4.2: kernbase, KPML4phys, IdlePTD, IdlePDPT, kernel_l1pa,
 * physaddr).
 *
 * Read with libelf from the file descriptor (elf_begin, ELF_C_READ), so
 * that libelf converts the symbol table of either class and byte order;
 * only the .symtab section's data is loaded, never the whole image.
 * A kernel whose symbol table is larger than KSYM_MAX_BYTES is refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <string.h>
#include <unistd.h>

#include "private.h"

#define	KSYM_MAX_BYTES	(256ull << 20)	/* .symtab loaded in memory */

static enum dk_status
elf_fail(const char *path, const char *what, struct dk_err *err)
{
	return dk_err_set(err, DK_ECORRUPT, "%s: %s: %s", path, what,
	    elf_errmsg(-1));
}

enum dk_status
dk_kernel_symbols(const char *path, struct dk_ksym *syms, size_t n,
    struct dk_err *err)
{
	Elf *e = NULL;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t seen = 0;
	enum dk_status st = DK_OK;
	int fd, have_symtab = 0;

	for (size_t i = 0; i < n; i++) {
		syms[i].value = 0;
		syms[i].found = 0;
	}
	if (elf_version(EV_CURRENT) == EV_NONE)
		return dk_err_set(err, DK_EUNSUP, "libelf: %s",
		    elf_errmsg(-1));
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		dk_err_set(err, DK_ESYS, "%s: %s", path, strerror(errno));
		err->sys_errno = errno;
		return DK_ESYS;
	}
	if ((e = elf_begin(fd, ELF_C_READ, NULL)) == NULL) {
		st = elf_fail(path, "not readable as ELF", err);
		goto out;
	}
	if (elf_kind(e) != ELF_K_ELF) {
		st = dk_err_at(err, DK_EINVAL, path, 0, "expected a kernel "
		    "ELF image, found no ELF header");
		goto out;
	}
	while ((scn = elf_nextscn(e, scn)) != NULL && seen < n) {
		Elf_Data *data = NULL;
		size_t nsym;

		if (gelf_getshdr(scn, &sh) == NULL) {
			st = elf_fail(path, "section header", err);
			goto out;
		}
		if (sh.sh_type != SHT_SYMTAB)
			continue;
		have_symtab = 1;
		if (sh.sh_size > KSYM_MAX_BYTES || sh.sh_entsize == 0) {
			st = dk_err_at(err, DK_ELIMIT, path, sh.sh_offset,
			    "symbol table of %ju bytes (entries of %ju): "
			    "expected at most %ju bytes of nonzero-sized "
			    "entries", (uintmax_t)sh.sh_size,
			    (uintmax_t)sh.sh_entsize,
			    (uintmax_t)KSYM_MAX_BYTES);
			goto out;
		}
		if ((data = elf_getdata(scn, NULL)) == NULL) {
			st = elf_fail(path, "symbol table", err);
			goto out;
		}
		nsym = sh.sh_size / sh.sh_entsize;
		for (size_t k = 0; k < nsym && seen < n; k++) {
			GElf_Sym sym;
			const char *name;

			if (gelf_getsym(data, (int)k, &sym) == NULL)
				break;
			name = elf_strptr(e, sh.sh_link, sym.st_name);
			if (name == NULL || *name == '\0')
				continue;
			for (size_t i = 0; i < n; i++)
				if (!syms[i].found &&
				    strcmp(syms[i].name, name) == 0) {
					syms[i].value = sym.st_value;
					syms[i].found = 1;
					seen++;
				}
		}
	}
	if (!have_symtab)
		st = dk_err_set(err, DK_EINVAL, "%s: the kernel image has no "
		    "symbol table (.symtab): it was stripped; give the "
		    "unstripped kernel (or kernel.debug)", path);
out:
	if (e != NULL)
		elf_end(e);
	close(fd);
	return st;
}

/* Open path with libelf: *fd and *e, or an error. */
static enum dk_status
kernel_open(const char *path, int *fd, Elf **e, struct dk_err *err)
{
	if (elf_version(EV_CURRENT) == EV_NONE)
		return dk_err_set(err, DK_EUNSUP, "libelf: %s",
		    elf_errmsg(-1));
	if ((*fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		dk_err_set(err, DK_ESYS, "%s: %s", path, strerror(errno));
		err->sys_errno = errno;
		return DK_ESYS;
	}
	if ((*e = elf_begin(*fd, ELF_C_READ, NULL)) == NULL ||
	    elf_kind(*e) != ELF_K_ELF) {
		if (*e != NULL)
			elf_end(*e);
		close(*fd);
		return dk_err_at(err, DK_EINVAL, path, 0, "expected a kernel "
		    "ELF image, found no ELF header");
	}
	return DK_OK;
}

enum dk_status
dk_kernel_build_id(const char *path, uint8_t *id, size_t cap, size_t *len,
    uint64_t *va, struct dk_err *err)
{
	Elf *e;
	Elf_Scn *scn = NULL;
	int fd;
	enum dk_status st;

	*len = 0;
	*va = 0;
	if ((st = kernel_open(path, &fd, &e, err)) != DK_OK)
		return st;
	while ((scn = elf_nextscn(e, scn)) != NULL && *len == 0) {
		GElf_Shdr sh;
		GElf_Nhdr nh;
		Elf_Data *data;
		size_t off = 0, noff, doff;

		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_NOTE ||
		    sh.sh_size > KSYM_MAX_BYTES ||
		    (data = elf_getdata(scn, NULL)) == NULL)
			continue;
		while ((off = gelf_getnote(data, off, &nh, &noff, &doff)) > 0)
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    memcmp((char *)data->d_buf + noff, "GNU", 4) == 0 &&
			    nh.n_descsz <= cap) {
				memcpy(id, (char *)data->d_buf + doff,
				    nh.n_descsz);
				*len = nh.n_descsz;
				*va = sh.sh_addr;
				break;
			}
	}
	elf_end(e);
	close(fd);
	return DK_OK;
}

enum dk_status
dk_kernel_bytes(const char *path, uint64_t va, void *buf, size_t len,
    struct dk_err *err)
{
	Elf *e;
	Elf_Scn *scn = NULL;
	int fd;
	enum dk_status st;

	if ((st = kernel_open(path, &fd, &e, err)) != DK_OK)
		return st;
	st = dk_err_set(err, DK_EINVAL, "%s: no section of the kernel image "
	    "holds the %zu bytes at %#jx", path, len, (uintmax_t)va);
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (gelf_getshdr(scn, &sh) == NULL ||
		    sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_ALLOC) ||
		    va < sh.sh_addr || va - sh.sh_addr > sh.sh_size ||
		    sh.sh_size - (va - sh.sh_addr) < len)
			continue;
		if ((data = elf_getdata(scn, NULL)) == NULL ||
		    data->d_size < sh.sh_size)
			continue;
		memcpy(buf, (char *)data->d_buf + (va - sh.sh_addr), len);
		dk_err_clear(err);
		st = DK_OK;
		break;
	}
	elf_end(e);
	close(fd);
	return st;
}
