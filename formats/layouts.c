/*
 * layouts.c -- the registry of header layouts for the layout checker
 * (ctlayout.h): every on-disk header dumpkit reads, the C struct tag and
 * the FreeBSD header that declared it, the ABIs whose kernels wrote it,
 * and the differences between its native declaration and its
 * fixed-width table that are known and intended.
 *
 * A known difference is padding the compiler inserts (an interior hole
 * or tail padding), with the ABIs and versions where it occurs.  The
 * table must describe it with a padding row too; `dumplayout check`
 * fails on any hole that is missing from either place, and on any entry
 * here that no longer occurs.
 */
#include <string.h>

#include "ctlayout.h"

/* Every ABI whose kernel wrote a minidump of the mips family. */
#define	MIPS_ALL	"mips-o32 mipsel-o32 mips-n32 mipsel-n32 mips-n64 " \
			"mipsel-n64"
#define	V2		DK_V(2)

/*
 * Every ABI a FreeBSD kernel ran on: kerneldumpheader was written by all
 * of them (little-endian ones too: its integers are big-endian, but its
 * layout is the compiler's).
 */
#define	FREEBSD_ALL	"i386 i386-pae amd64 armel armhf armeb aarch64 " \
			MIPS_ALL " powerpc powerpc64 powerpc64le riscv64 " \
			"sparc64"
/* A fixed-width declaration is meant to lay out alike everywhere. */
#define	EVERY_ABI	FREEBSD_ALL " s390x"

#define	TAIL_WHY	"tail padding to the struct's 8-byte alignment: " \
			"the kernel zeroes the header page before it " \
			"copies the struct, so the bytes are zero"

/* The families' layouts are static in their files: reach them by function. */
#define	MD_LAYOUT(fam)							\
static const struct dk_layout *						\
md_##fam(void)								\
{									\
	return dk_md_##fam.layout;					\
}
MD_LAYOUT(amd64)
MD_LAYOUT(i386)
MD_LAYOUT(arm)
MD_LAYOUT(arm64)
MD_LAYOUT(mips)
MD_LAYOUT(powerpc64)
MD_LAYOUT(riscv)

/* kerneldumpheader: one table per version (fmt_kdh.c). */
#define	KDH_LAYOUT(v)							\
static const struct dk_layout *						\
kdh_v##v(void)								\
{									\
	return dk_kdh_layout(v);					\
}
KDH_LAYOUT(1)
KDH_LAYOUT(2)
KDH_LAYOUT(3)
KDH_LAYOUT(4)

/* sparc64 (fmt_sparc64.c): the header old and new, and its regions. */
static const struct dk_layout *
sp64_layout(const char *name)
{
	const struct dk_layout *const *all;
	size_t n;

	all = dk_sp64_layouts(&n);
	for (size_t i = 0; i < n; i++)
		if (strcmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}

static const struct dk_layout *
sp64_hdr_old(void)
{
	return sp64_layout("sparc64-dump-hdr-old");
}

static const struct dk_layout *
sp64_hdr_new(void)
{
	return sp64_layout("sparc64-dump-hdr-new");
}

static const struct dk_layout *
sp64_reg(void)
{
	return sp64_layout("sparc64-dump-reg");
}

/* kdump-compressed (fmt_kdump.c): the headers of 64- and 32-bit builds. */
static const struct dk_layout *
kd_layout(const char *name)
{
	const struct dk_layout *const *all;
	size_t n;

	all = dk_kd_layouts(&n);
	for (size_t i = 0; i < n; i++)
		if (strcmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}

#define	KD_LAYOUT(fn, name)						\
static const struct dk_layout *						\
fn(void)								\
{									\
	return kd_layout(name);						\
}
KD_LAYOUT(kd_hdr64, "kdump-header-64")
KD_LAYOUT(kd_hdr32, "kdump-header-32")
KD_LAYOUT(kd_sub64, "kdump-sub-header-64")
KD_LAYOUT(kd_sub32, "kdump-sub-header-32")
KD_LAYOUT(kd_sub32pad, "kdump-sub-header-32pad")

/*
 * The ABIs makedumpfile is built for (its arch/ directory), by word
 * size; mips n64 and sparc64 are LP64 too.  On i386 a 64-bit integer
 * is 4-aligned, on the other ILP32 ABIs 8-aligned: the sub header
 * differs, the header (no 64-bit field) does not.
 */
#define	KD_LP64		"amd64 aarch64 powerpc64 powerpc64le riscv64 s390x " \
			"sparc64 mips-n64 mipsel-n64"
#define	KD_ILP32	"i386 armel armhf armeb powerpc mips-o32 mipsel-o32"
#define	KD_ILP32_A8	"armel armhf armeb powerpc mips-o32 mipsel-o32"
#define	KD_V0_6		0x7f
#define	KD_PAD8		"a 64-bit integer is 8-aligned; makedumpfile zeroes " \
			"the sub header before filling it"

static const struct dk_ctentry registry[] = {
	{ md_amd64, "minidumphdr", "sys/amd64/include/minidump.h", "amd64",
	  { { "amd64", DK_V(3), 68, 4, TAIL_WHY } }, 0, 0 },
	{ md_i386, "minidumphdr", "sys/i386/include/minidump.h",
	  "i386 i386-pae", { { NULL, 0, 0, 0, NULL } }, 0, 0 },
	{ md_arm, "minidumphdr", "sys/arm/include/minidump.h",
	  "armel armhf armeb", { { NULL, 0, 0, 0, NULL } }, 0, 0 },
	{ md_arm64, "minidumphdr", "sys/arm64/include/minidump.h", "aarch64",
	  { { "aarch64", V2, 76, 4, TAIL_WHY " (flags takes them in v3)" } },
	  0, 0 },
	{ md_mips, "minidumphdr", "sys/mips/include/minidump.h", MIPS_ALL,
	  { { MIPS_ALL, V2, 68, 4, TAIL_WHY "; o32 and n32 too, where "
	      "uint64_t is 8-aligned" } }, 0, 0 },
	{ md_powerpc64, "minidumphdr", "sys/powerpc/include/minidump.h",
	  "powerpc64 powerpc64le",
	  { { "powerpc64 powerpc64le", DK_V(1) | V2, 116, 4,
	      "int hw_direct_map is followed by uint64_t startkernel: the "
	      "compiler aligns startkernel to 8, leaving a 4-byte hole the "
	      "kernel never writes" },
	    { "powerpc64 powerpc64le", V2, 140, 4, TAIL_WHY } }, 0, 0 },
	{ md_riscv, "minidumphdr", "sys/riscv/include/minidump.h", "riscv64",
	  { { "riscv64", V2, 76, 4, TAIL_WHY } }, 0, 0 },
	/*
	 * kerneldumpheader: 512 bytes in every version, whose fields were
	 * ordered (and the panic string shortened) so that no compiler
	 * inserts anything, on any ABI: nothing to list.
	 */
	{ kdh_v1, "kerneldumpheader", "sys/sys/kerneldump.h, 2002",
	  FREEBSD_ALL, { { NULL, 0, 0, 0, NULL } }, 0, 0 },
	{ kdh_v2, "kerneldumpheader", "sys/sys/kerneldump.h, 2017",
	  FREEBSD_ALL, { { NULL, 0, 0, 0, NULL } }, 0, 0 },
	{ kdh_v3, "kerneldumpheader", "sys/sys/kerneldump.h, 2017",
	  FREEBSD_ALL, { { NULL, 0, 0, 0, NULL } }, 0, 0 },
	{ kdh_v4, "kerneldumpheader", "sys/sys/kerneldump.h, 2018",
	  FREEBSD_ALL, { { NULL, 0, 0, 0, NULL } }, 0, 0 },
	/*
	 * sparc64: the kernel's declaration with machine types, written
	 * on sparc64 only, and the fixed-width one, which must lay out
	 * alike on every ABI (uint64_t is only 4-aligned on i386, and still
	 * nothing moves).  The region descriptor likewise: version 1 with
	 * machine types, version 2 fixed-width.
	 */
	{ sp64_hdr_old, "sparc64_dump_hdr",
	  "sys/sparc64/include/kerneldump.h, 2002", "sparc64",
	  { { "sparc64", DK_V(1), 36, 4, "int dh_nregions is followed by "
	      "the array of 8-aligned region descriptors: 4 bytes the "
	      "kernel never set (garbage in real dumps), dh_pad in the "
	      "fixed-width declaration" } }, 0, 1 },
	{ sp64_hdr_new, "sparc64_dump_hdr",
	  "sys/sparc64/include/kerneldump.h, fixed-width", EVERY_ABI,
	  { { NULL, 0, 0, 0, NULL } }, 0, 2 },
	{ sp64_reg, "sparc64_dump_reg",
	  "sys/sparc64/include/kerneldump.h, 2002", "sparc64",
	  { { NULL, 0, 0, 0, NULL } }, DK_V(1), 0 },
	{ sp64_reg, "sparc64_dump_reg",
	  "sys/sparc64/include/kerneldump.h, fixed-width", EVERY_ABI,
	  { { NULL, 0, 0, 0, NULL } }, DK_V(2), 0 },
	/*
	 * makedumpfile's disk_dump_header and kdump_sub_header
	 * (diskdump_mod.h), declared with long, struct timeval and off_t
	 * (64-bit: makedumpfile builds with _FILE_OFFSET_BITS=64); written
	 * natively by each build.  QEMU writes the 32-bit sub header
	 * packed, as i386 lays it out, for every guest.
	 */
	{ kd_hdr64, "disk_dump_header", "makedumpfile diskdump_mod.h",
	  KD_LP64, { { KD_LP64, KD_V0_6, 402, 6, "struct timeval timestamp "
	      "is 8-aligned after the 390 bytes of utsname; zero "
	      "(makedumpfile allocates the header zeroed)" } }, 0, 0 },
	{ kd_hdr32, "disk_dump_header", "makedumpfile diskdump_mod.h",
	  KD_ILP32, { { KD_ILP32, KD_V0_6, 402, 2, "struct timeval timestamp "
	      "is 4-aligned after the 390 bytes of utsname; zero" } }, 0, 0 },
	{ kd_sub64, "kdump_sub_header", "makedumpfile diskdump_mod.h",
	  KD_LP64, { { KD_LP64, DK_V(1), 12, 4, "version 1's struct (an "
	      "unsigned long and an int) is padded to 8; zero" } }, 0, 0 },
	{ kd_sub32, "kdump_sub_header", "makedumpfile diskdump_mod.h "
	  "(i386), QEMU's packed KdumpSubHeader32", "i386",
	  { { NULL, 0, 0, 0, NULL } }, 0, 0 },
	{ kd_sub32pad, "kdump_sub_header", "makedumpfile diskdump_mod.h",
	  KD_ILP32_A8,
	  { { KD_ILP32_A8, 0x78, 20, 4, "before offset_vmcoreinfo: " KD_PAD8 },
	    { KD_ILP32_A8, 0x78, 36, 4, "after size_vmcoreinfo (version 3's "
	      "end): " KD_PAD8 },
	    { KD_ILP32_A8, 0x70, 52, 4, "after size_note (version 4's end): "
	      KD_PAD8 },
	    { KD_ILP32_A8, 0x60, 68, 4, "after size_eraseinfo (version 5's "
	      "end): " KD_PAD8 } }, 0, 0 },
};

size_t
dk_ctreg_count(void)
{
	return DK_ARRAY_LEN(registry);
}

const struct dk_ctentry *
dk_ctreg_at(size_t i)
{
	return i < DK_ARRAY_LEN(registry) ? &registry[i] : NULL;
}

const struct dk_ctentry *
dk_ctreg_by_name(const char *name)
{
	for (size_t i = 0; i < DK_ARRAY_LEN(registry); i++)
		if (strcmp(registry[i].layout()->name, name) == 0)
			return &registry[i];
	return NULL;
}

const struct dk_ctentry *
dk_ctreg_by_tag(const char *tag)
{
	for (size_t i = 0; i < DK_ARRAY_LEN(registry); i++)
		if (strcmp(registry[i].tag, tag) == 0)
			return &registry[i];
	return NULL;
}
