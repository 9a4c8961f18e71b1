/*
 * kdwarf.c -- the members of struct proc and struct thread that the
 * FreeBSD kernel exports no offset for (p_pptr, p_oppid, p_state,
 * p_flag, td_state, td_inhibitors, td_flags, td_slptick), read from the
 * kernel's DWARF with libdw (docs/kthreads.md,
 * "Parent and state: the kernel's DWARF").
 *
 * The file is opened through libdwfl's offline reporting, so that the
 * DWARF of a relocatable object (a module, a compiler's -c output) is
 * relocated as a linker would; no separate debug file is looked for.
 * The compile units are walked at their top level only, up to the first
 * complete definition (a byte_size, not a declaration) of each struct;
 * the members' types give their widths, the enumerations' enumerators
 * the values of PRS_* and TDS_* (FreeBSD's own when the type has none).
 *
 * What libdw returns is not trusted: a struct of KD_MAX_STRUCT bytes or
 * more, a member that does not lie inside its struct, a width the walk
 * cannot read: the member is not used, and kd->note says why.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kthreads.h"

#define	KD_MAX_STRUCT	0x10000		/* bytes: a struct proc is ~1.4 KiB */
#define	KD_MAX_DIES	(1u << 26)	/* top-level DIEs visited in all */

static const struct {
	const char	*name;
	unsigned	 in;		/* DK_KD_PROC, DK_KD_THREAD */
	unsigned	 kind;		/* what its type must be */
} members[DK_KD_N] = {
	[DK_KD_P_PPTR]	= { "p_pptr", DK_KD_PROC, 'p' },
	[DK_KD_P_OPPID]	= { "p_oppid", DK_KD_PROC, 'i' },
	[DK_KD_P_STATE]	= { "p_state", DK_KD_PROC, 'e' },
	[DK_KD_P_FLAG]	= { "p_flag", DK_KD_PROC, 'i' },
	[DK_KD_TD_STATE] = { "td_state", DK_KD_THREAD, 'e' },
	[DK_KD_TD_INHIBITORS] = { "td_inhibitors", DK_KD_THREAD, 'i' },
	[DK_KD_TD_FLAGS] = { "td_flags", DK_KD_THREAD, 'i' },
	[DK_KD_TD_SLPTICK] = { "td_slptick", DK_KD_THREAD, 'i' },
};

static const char *const structs[2] = { "proc", "thread" };

/* The enumerators, FreeBSD's values (sys/sys/proc.h) by position. */
static const char *const prs_names[DK_KD_PRS_N] = { "PRS_NEW", "PRS_NORMAL",
    "PRS_ZOMBIE" };
static const char *const tds_names[DK_KD_TDS_N] = { "TDS_INACTIVE",
    "TDS_INHIBITED", "TDS_CAN_RUN", "TDS_RUNQ", "TDS_RUNNING" };

const char *
dk_kd_member_name(size_t i)
{
	return i < DK_KD_N ? members[i].name : NULL;
}

const char *
dk_kd_enum_name(int thread, size_t i)
{
	if (thread)
		return i < DK_KD_TDS_N ? tds_names[i] : NULL;
	return i < DK_KD_PRS_N ? prs_names[i] : NULL;
}

/* Append a sentence to kd->note (a finding; the first ones are kept). */
static void
note(struct dk_kdwarf *kd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
note(struct dk_kdwarf *kd, const char *fmt, ...)
{
	size_t n = strlen(kd->note);
	va_list ap;

	if (n + 3 >= sizeof(kd->note))
		return;
	if (n > 0) {
		memcpy(kd->note + n, "; ", 3);
		n += 2;
	}
	va_start(ap, fmt);
	vsnprintf(kd->note + n, sizeof(kd->note) - n, fmt, ap);
	va_end(ap);
}

/* DW_AT_data_member_location as a constant, or a DW_OP_plus_uconst. */
static int
member_offset(Dwarf_Die *m, Dwarf_Word *off)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t n;

	if (dwarf_attr(m, DW_AT_data_member_location, &a) == NULL)
		return -1;
	switch (dwarf_whatform(&a)) {
	case DW_FORM_data1: case DW_FORM_data2: case DW_FORM_data4:
	case DW_FORM_data8: case DW_FORM_udata: case DW_FORM_sdata:
	case DW_FORM_implicit_const:
		return dwarf_formudata(&a, off);
	}
	if (dwarf_getlocation(&a, &ops, &n) != 0 || n != 1 ||
	    ops[0].atom != DW_OP_plus_uconst)
		return -1;
	*off = ops[0].number;
	return 0;
}

/*
 * What member m's type is: *kind 'p' pointer, 'e' enumeration, 'i'
 * integer, 0 other; *width its bytes; *et its enumeration type.
 */
static int
member_type(Dwarf_Die *m, int addr_size, int *kind, Dwarf_Word *width,
    Dwarf_Die *et)
{
	Dwarf_Attribute a;
	Dwarf_Die t;
	Dwarf_Word w;

	*kind = 0;
	*width = 0;
	if (dwarf_attr(m, DW_AT_type, &a) == NULL ||
	    dwarf_formref_die(&a, &t) == NULL || dwarf_peel_type(&t, &t) != 0)
		return -1;
	switch (dwarf_tag(&t)) {
	case DW_TAG_pointer_type:
		*kind = 'p';
		if (dwarf_attr(&t, DW_AT_byte_size, &a) != NULL) {
			if (dwarf_formudata(&a, &w) != 0)
				return -1;
			*width = w;
		} else
			*width = (Dwarf_Word)addr_size;
		return 0;
	case DW_TAG_enumeration_type:
		*kind = 'e';
		*et = t;
		break;
	case DW_TAG_base_type:
		*kind = 'i';
		break;
	}
	if (dwarf_attr(&t, DW_AT_byte_size, &a) == NULL ||
	    dwarf_formudata(&a, &w) != 0)
		return -1;
	*width = w;
	return 0;
}

/* The values of the enumerators names[n] in enumeration type et. */
static int
enum_values(Dwarf_Die *et, const char *const *names, size_t n, int64_t *v)
{
	Dwarf_Die c;
	size_t found = 0, seen = 0;
	int64_t got[8];
	uint8_t have[8] = { 0 };

	if (dwarf_child(et, &c) != 0)
		return 0;
	do {
		Dwarf_Attribute a;
		Dwarf_Sword s;
		const char *name;

		if (++seen > 4096)
			break;
		if (dwarf_tag(&c) != DW_TAG_enumerator ||
		    (name = dwarf_diename(&c)) == NULL ||
		    dwarf_attr(&c, DW_AT_const_value, &a) == NULL ||
		    dwarf_formsdata(&a, &s) != 0)
			continue;
		for (size_t i = 0; i < n; i++)
			if (!have[i] && strcmp(name, names[i]) == 0) {
				got[i] = s;
				have[i] = 1;
				found++;
			}
	} while (dwarf_siblingof(&c, &c) == 0);
	if (found != n)
		return 0;
	memcpy(v, got, n * sizeof(*v));
	return 1;
}

/* The members of struct s (DK_KD_PROC or DK_KD_THREAD) at die. */
static void
read_struct(struct dk_kdwarf *kd, Dwarf_Die *die, unsigned s, int addr_size,
    unsigned ptr)
{
	Dwarf_Die m;
	size_t seen = 0;

	if (dwarf_child(die, &m) != 0)
		return;
	do {
		Dwarf_Word off, width;
		Dwarf_Die et;
		const char *name;
		int kind;
		size_t i;

		if (++seen > 4096)
			break;
		if (dwarf_tag(&m) != DW_TAG_member ||
		    (name = dwarf_diename(&m)) == NULL)
			continue;
		for (i = 0; i < DK_KD_N; i++)
			if (members[i].in == s &&
			    strcmp(members[i].name, name) == 0)
				break;
		if (i == DK_KD_N || kd->width[i] != 0)
			continue;
		if (member_offset(&m, &off) != 0 ||
		    member_type(&m, addr_size, &kind, &width, &et) != 0) {
			note(kd, "struct %s member %s: no offset or type the "
			    "reader understands", structs[s], name);
			continue;
		}
		if (off >= kd->size[s] || width > kd->size[s] - off) {
			note(kd, "struct %s member %s at offset %#jx (%ju "
			    "bytes) lies outside the struct's %ju bytes",
			    structs[s], name, (uintmax_t)off,
			    (uintmax_t)width, (uintmax_t)kd->size[s]);
			kd->absurd = 1;
			continue;
		}
		if (kind != (int)members[i].kind ||
		    (kind == 'p' ? width != ptr : width != 1 && width != 2 &&
		    width != 4 && width != 8)) {
			note(kd, "struct %s member %s is %ju bytes of %s: "
			    "expected %s", structs[s], name, (uintmax_t)width,
			    kind == 'p' ? "a pointer" : kind == 'e' ?
			    "an enumeration" : kind == 'i' ? "an integer" :
			    "another type", members[i].kind == 'p' ?
			    (ptr == 8 ? "an 8-byte pointer" :
			    "a 4-byte pointer") : members[i].kind == 'e' ?
			    "an enumeration" : "an integer");
			continue;
		}
		kd->off[i] = (uint32_t)off;
		kd->width[i] = (uint8_t)width;
		if (kind == 'e' && i == DK_KD_P_STATE)
			kd->enum_dwarf[0] = (uint8_t)enum_values(&et, prs_names,
			    DK_KD_PRS_N, kd->prs);
		else if (kind == 'e' && i == DK_KD_TD_STATE)
			kd->enum_dwarf[1] = (uint8_t)enum_values(&et, tds_names,
			    DK_KD_TDS_N, kd->tds);
	} while (dwarf_siblingof(&m, &m) == 0);
}

enum dk_status
dk_kdwarf_read(struct Dwarf *dw, const char *name, unsigned ptr,
    struct dk_kdwarf *kd, struct dk_err *err)
{
	Dwarf_CU *cu = NULL, *next;
	Dwarf_Die cudie;
	size_t dies = 0;
	int r;

	(void)err;
	while (kd->size[DK_KD_PROC] == 0 || kd->size[DK_KD_THREAD] == 0) {
		Dwarf_Die d;
		Dwarf_Half version;
		uint8_t type, as, os;
		int addr_size;

		if ((r = dwarf_get_units(dw, cu, &next, &version, &type,
		    &cudie, NULL)) != 0)
			break;
		cu = next;
		/* A unit whose header libdw could not take has no DIE. */
		if (type == DW_UT_skeleton || type == DW_UT_split_compile ||
		    type == DW_UT_split_type || cudie.addr == NULL ||
		    cudie.cu == NULL || dwarf_cu_info(cu, NULL, NULL, NULL,
		    NULL, NULL, &as, &os) != 0 || dwarf_child(&cudie, &d) != 0)
			continue;
		addr_size = as;
		do {
			Dwarf_Attribute a;
			Dwarf_Word size;
			const char *n;
			unsigned s;

			if (++dies > KD_MAX_DIES)
				return dk_err_set(err, DK_ELIMIT, "%s: more "
				    "than %u DIEs at the top of the compile "
				    "units without struct proc and struct "
				    "thread", name, KD_MAX_DIES);
			if (dwarf_tag(&d) != DW_TAG_structure_type ||
			    (n = dwarf_diename(&d)) == NULL ||
			    dwarf_hasattr(&d, DW_AT_declaration))
				continue;
			for (s = 0; s < 2; s++)
				if (strcmp(n, structs[s]) == 0)
					break;
			if (s == 2 || kd->size[s] != 0 ||
			    dwarf_attr(&d, DW_AT_byte_size, &a) == NULL ||
			    dwarf_formudata(&a, &size) != 0)
				continue;
			if (size == 0 || size >= KD_MAX_STRUCT) {
				note(kd, "struct %s is %ju bytes: expected 1 "
				    "to %u", structs[s], (uintmax_t)size,
				    KD_MAX_STRUCT - 1);
				kd->absurd = 1;
				kd->size[s] = UINT64_MAX;	/* not again */
				continue;
			}
			kd->size[s] = size;
			read_struct(kd, &d, s, addr_size, ptr);
		} while (dwarf_siblingof(&d, &d) == 0);
	}
	for (unsigned s = 0; s < 2; s++)
		if (kd->size[s] == UINT64_MAX)
			kd->size[s] = 0;
	if (kd->size[DK_KD_PROC] == 0 && kd->size[DK_KD_THREAD] == 0 &&
	    !kd->absurd)
		return dk_err_set(err, DK_EUNSUP, "%s: its DWARF defines no "
		    "struct proc nor struct thread", name);
	for (size_t i = 0; i < DK_KD_N; i++)
		if (kd->width[i] == 0 && kd->size[members[i].in] != 0 &&
		    i != DK_KD_P_OPPID && strstr(kd->note,
		    members[i].name) == NULL)
			note(kd, "struct %s has no member %s",
			    structs[members[i].in], members[i].name);
	for (unsigned s = 0; s < 2; s++)
		if (kd->size[s] == 0 && !kd->absurd)
			note(kd, "the DWARF defines no struct %s", structs[s]);
	return DK_OK;
}

static void
kd_init(struct dk_kdwarf *kd)
{
	memset(kd, 0, sizeof(*kd));
	for (size_t i = 0; i < DK_KD_PRS_N; i++)
		kd->prs[i] = (int64_t)i;
	for (size_t i = 0; i < DK_KD_TDS_N; i++)
		kd->tds[i] = (int64_t)i;
}

/* No separate debug file: the DWARF is the file's own, or none. */
static int
no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
    Dwarf_Addr base, const char *file_name, const char *debuglink_file,
    GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	(void)mod; (void)userdata; (void)modname; (void)base;
	(void)file_name; (void)debuglink_file; (void)debuglink_crc;
	*debuginfo_file_name = NULL;
	return -1;
}

/* The DWARF of a relocatable object, relocated by libdwfl. */
static enum dk_status
dwarf_rel(int fd, const char *name, unsigned ptr, struct dk_kdwarf *kd,
    struct dk_err *err)
{
	static const Dwfl_Callbacks cb = {
		.find_elf = dwfl_build_id_find_elf,
		.find_debuginfo = no_debuginfo,
		.section_address = dwfl_offline_section_address,
	};
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwarf *dw;
	Dwarf_Addr bias;
	enum dk_status st;
	int fd2;

	if ((fd2 = dup(fd)) < 0) {
		dk_err_set(err, DK_ESYS, "%s: %s", name, strerror(errno));
		err->sys_errno = errno;
		return DK_ESYS;
	}
	if ((dwfl = dwfl_begin(&cb)) == NULL) {
		close(fd2);
		return dk_err_set(err, DK_ENOMEM, "libdwfl: %s",
		    dwfl_errmsg(-1));
	}
	/* dwfl owns fd2 from here: dwfl_end closes it. */
	if ((mod = dwfl_report_offline(dwfl, name, name, fd2)) == NULL ||
	    dwfl_report_end(dwfl, NULL, NULL) != 0) {
		st = dk_err_set(err, DK_EUNSUP, "%s: not readable for its "
		    "DWARF: %s", name, dwfl_errmsg(-1));
		goto out;
	}
	if ((dw = dwfl_module_getdwarf(mod, &bias)) == NULL) {
		st = dk_err_set(err, DK_EUNSUP, "%s: a relocatable object "
		    "whose DWARF libdw does not relocate: %s (a linked file "
		    "is read as it is)", name, dwfl_errmsg(-1));
		goto out;
	}
	st = dk_kdwarf_read(dw, name, ptr, kd, err);
out:
	dwfl_end(dwfl);
	return st;
}

static int
has_debug_info(Elf *e)
{
	Elf_Scn *scn = NULL;
	size_t shstr;

	if (elf_getshdrstrndx(e, &shstr) != 0)
		return 0;
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		const char *n;

		if (gelf_getshdr(scn, &sh) != NULL &&
		    (n = elf_strptr(e, shstr, sh.sh_name)) != NULL &&
		    (strcmp(n, ".debug_info") == 0 ||
		    strcmp(n, ".zdebug_info") == 0))
			return 1;
	}
	return 0;
}

enum dk_status
dk_kernel_dwarf_fd(int fd, const char *name, unsigned ptr,
    struct dk_kdwarf *kd, struct dk_err *err)
{
	Elf *e;
	GElf_Ehdr eh;
	Dwarf *dw;
	enum dk_status st;

	kd_init(kd);
	if (elf_version(EV_CURRENT) == EV_NONE)
		return dk_err_set(err, DK_EUNSUP, "libelf: %s",
		    elf_errmsg(-1));
	if ((e = elf_begin(fd, ELF_C_READ_MMAP, NULL)) == NULL ||
	    elf_kind(e) != ELF_K_ELF || gelf_getehdr(e, &eh) == NULL) {
		if (e != NULL)
			elf_end(e);
		return dk_err_at(err, DK_EINVAL, name, 0, "expected an ELF "
		    "file, found no ELF header");
	}
	if (!has_debug_info(e)) {
		elf_end(e);
		return dk_err_set(err, DK_EUNSUP, "%s: no DWARF (no "
		    ".debug_info section); kernel.debug has it", name);
	}
	if (eh.e_type == ET_REL) {
		elf_end(e);
		return dwarf_rel(fd, name, ptr, kd, err);
	}
	/* A kernel (ET_EXEC) is linked: its DWARF needs no relocation. */
	if ((dw = dwarf_begin_elf(e, DWARF_C_READ, NULL)) == NULL) {
		st = dk_err_set(err, DK_EUNSUP, "%s: no DWARF (.debug_info): "
		    "%s; kernel.debug has it", name, dwarf_errmsg(-1));
		elf_end(e);
		return st;
	}
	st = dk_kdwarf_read(dw, name, ptr, kd, err);
	dwarf_end(dw);
	elf_end(e);
	return st;
}

enum dk_status
dk_kernel_dwarf(const char *path, unsigned ptr, struct dk_kdwarf *kd,
    struct dk_err *err)
{
	enum dk_status st;
	int fd;

	kd_init(kd);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		dk_err_set(err, DK_ESYS, "%s: %s", path, strerror(errno));
		err->sys_errno = errno;
		return DK_ESYS;
	}
	st = dk_kernel_dwarf_fd(fd, path, ptr, kd, err);
	close(fd);
	return st;
}
