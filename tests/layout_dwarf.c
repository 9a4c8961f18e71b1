/*
 * layout_dwarf -- print the layout a real compiler gave each struct of
 * an object file, read back from its DWARF with libdw (elfutils):
 *
 *	STRUCT MEMBER OFFSET SIZE
 *	STRUCT sizeof SIZE
 *
 * the same lines as `dumplayout offsets --abi ABI`, so that the compiler
 * oracle (tests/layout_oracle.sh) can diff the two.  Also prints
 * "elf-data LSB|MSB" from the object's ELF header, to check the ABI's
 * byte order.  A test helper: not installed.
 *
 * The objects are relocatable (compile only), and on RELA machines
 * (powerpc64, sparc64, s390x, ...) the DWARF's string offsets are zero
 * until the relocations are applied: libdwfl's offline mode applies
 * them, for every machine elfutils has a backend for.  elfutils 0.188
 * (Debian 12) has none for mips: there, the data relocations of the
 * .debug_* sections (R_MIPS_32, R_MIPS_64; n32 and n64 use RELA) are
 * applied here before libdw reads the sections.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define	R_MIPS_32	2
#define	R_MIPS_64	18

/* Bytes of the type of die (a member); 0 for a flexible array. */
static Dwarf_Word
member_size(Dwarf_Die *member)
{
	Dwarf_Attribute at;
	Dwarf_Die type;
	Dwarf_Word size;

	if (dwarf_attr_integrate(member, DW_AT_type, &at) == NULL ||
	    dwarf_formref_die(&at, &type) == NULL)
		return 0;
	if (dwarf_aggregate_size(&type, &size) != 0)
		return 0;	/* an array without bound: [] */
	return size;
}

static int
print_struct(Dwarf_Die *die)
{
	const char *name = dwarf_diename(die);
	Dwarf_Die child;
	Dwarf_Word size;

	if (name == NULL || dwarf_hasattr(die, DW_AT_declaration))
		return 0;
	if (dwarf_child(die, &child) == 0) {
		do {
			Dwarf_Attribute at;
			Dwarf_Word off = 0;
			const char *m;

			if (dwarf_tag(&child) != DW_TAG_member)
				continue;
			m = dwarf_diename(&child);
			if (dwarf_attr(&child, DW_AT_data_member_location,
			    &at) != NULL && dwarf_formudata(&at, &off) != 0) {
				fprintf(stderr, "layout_dwarf: struct %s: "
				    "member %s: location is not a constant\n",
				    name, m ? m : "?");
				return -1;
			}
			printf("%s %s %" PRIu64 " %" PRIu64 "\n", name,
			    m ? m : "?", (uint64_t)off,
			    (uint64_t)member_size(&child));
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	if (dwarf_aggregate_size(die, &size) == 0)
		printf("%s sizeof %" PRIu64 "\n", name, (uint64_t)size);
	return 0;
}

/* Store the n-byte value v at p in the byte order of the object. */
static void
put(uint8_t *p, unsigned n, uint64_t v, int msb)
{
	for (unsigned i = 0; i < n; i++)
		p[msb ? n - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

/*
 * Apply the RELA data relocations of the .debug_* sections of a mips
 * ET_REL object in memory.  A mips64 r_info is r_sym (32 bits), then
 * r_ssym, r_type3, r_type2, r_type (8 bits each) in file order, which
 * a little-endian read of the 64-bit word scrambles.  0 or -1.
 */
static int
mips_relocate(Elf *elf, const GElf_Ehdr *eh)
{
	int msb = eh->e_ident[EI_DATA] == ELFDATA2MSB;
	int is64 = eh->e_ident[EI_CLASS] == ELFCLASS64;
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return -1;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh, tsh;
		Elf_Scn *tscn, *symscn;
		Elf_Data *rd, *td, *sd;
		const char *tname;

		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_RELA)
			continue;
		if ((tscn = elf_getscn(elf, sh.sh_info)) == NULL ||
		    gelf_getshdr(tscn, &tsh) == NULL ||
		    (tname = elf_strptr(elf, shstrndx, tsh.sh_name)) == NULL ||
		    strncmp(tname, ".debug_", 7) != 0)
			continue;
		if ((symscn = elf_getscn(elf, sh.sh_link)) == NULL ||
		    (rd = elf_getdata(scn, NULL)) == NULL ||
		    (td = elf_getdata(tscn, NULL)) == NULL ||
		    (sd = elf_getdata(symscn, NULL)) == NULL)
			return -1;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Rela r;
			GElf_Sym sym;
			uint64_t symi, type;
			unsigned n;

			if (gelf_getrela(rd, (int)i, &r) == NULL)
				return -1;
			if (is64 && !msb) {
				symi = r.r_info & 0xffffffffu;
				type = r.r_info >> 56;
			} else if (is64) {
				symi = r.r_info >> 32;
				type = r.r_info & 0xff;
			} else {
				symi = GELF_R_SYM(r.r_info);
				type = GELF_R_TYPE(r.r_info);
			}
			n = type == R_MIPS_32 ? 4 : type == R_MIPS_64 ? 8 : 0;
			if (n == 0)
				continue;
			if (gelf_getsym(sd, (int)symi, &sym) == NULL ||
			    r.r_offset + n > td->d_size)
				return -1;
			put((uint8_t *)td->d_buf + r.r_offset, n,
			    sym.st_value + (uint64_t)r.r_addend, msb);
		}
	}
	return 0;
}

/* Without a libdwfl backend: relocate by hand (mips) and open with libdw. */
static Dwarf *
open_plain(const char *path, int *fdp, Elf **elfp)
{
	GElf_Ehdr eh;
	Elf *elf;
	Dwarf *dw;
	int fd;

	elf_version(EV_CURRENT);
	if ((fd = open(path, O_RDONLY)) < 0)
		return NULL;
	if ((elf = elf_begin(fd, ELF_C_READ, NULL)) == NULL ||
	    gelf_getehdr(elf, &eh) == NULL || (eh.e_machine == EM_MIPS &&
	    eh.e_type == ET_REL && mips_relocate(elf, &eh) != 0) ||
	    (dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL)) == NULL) {
		if (elf != NULL)
			elf_end(elf);
		close(fd);
		return NULL;
	}
	*fdp = fd;
	*elfp = elf;
	return dw;
}

int
main(int argc, char **argv)
{
	static const Dwfl_Callbacks cbs = {
		.find_elf = dwfl_build_id_find_elf,
		.find_debuginfo = dwfl_standard_find_debuginfo,
		.section_address = dwfl_offline_section_address,
	};
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwarf *dw;
	Dwarf_Addr bias;
	Dwarf_Off off = 0, next;
	size_t hsize;
	Elf *elf, *plain = NULL;
	GElf_Ehdr eh;
	int rc = 0, fd = -1;

	if (argc != 2) {
		fprintf(stderr, "usage: layout_dwarf OBJECT\n");
		return 3;
	}
	if ((dwfl = dwfl_begin(&cbs)) == NULL ||
	    (mod = dwfl_report_offline(dwfl, "obj", argv[1], -1)) == NULL ||
	    dwfl_report_end(dwfl, NULL, NULL) != 0 ||
	    (dw = dwfl_module_getdwarf(mod, &bias)) == NULL) {
		if (dwfl != NULL)
			dwfl_end(dwfl);
		dwfl = NULL;
		if ((dw = open_plain(argv[1], &fd, &plain)) == NULL) {
			fprintf(stderr, "layout_dwarf: %s: %s\n", argv[1],
			    dwfl_errmsg(-1));
			return 2;
		}
	}
	elf = dwarf_getelf(dw);
	if (elf != NULL && gelf_getehdr(elf, &eh) != NULL)
		printf("elf-data %s\n", eh.e_ident[EI_DATA] == ELFDATA2MSB ?
		    "MSB" : "LSB");
	while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, die;

		if (dwarf_offdie(dw, off + hsize, &cu) != NULL &&
		    dwarf_child(&cu, &die) == 0) {
			do {
				if (dwarf_tag(&die) == DW_TAG_structure_type &&
				    print_struct(&die) != 0)
					rc = 1;
			} while (dwarf_siblingof(&die, &die) == 0);
		}
		off = next;
	}
	if (dwfl != NULL)
		dwfl_end(dwfl);
	else {
		dwarf_end(dw);
		elf_end(plain);
		close(fd);
	}
	return rc;
}
