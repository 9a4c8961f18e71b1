/*
 * kdump_layout.c -- the header layouts of makedumpfile's kdump-compressed
 * format, one table each, for its reader, validator, writer and
 * generator and for dumplayout.
 */
#include "kdump.h"

/* struct disk_dump_header: the rows both layouts share, to offset 402. */
#define	M_SIG	"\"KDUMP   \" (makedumpfile, QEMU) or \"DISKDUMP\" (the older " \
		"diskdump), no NUL"
#define	M_UTS	"struct new_utsname utsname, the kernel's (QEMU leaves it " \
		"empty but for machine): "
#define	HDR_HEAD							\
	{ "signature", 0, 8, DK_FK_CHARS, KD_F_SIGNATURE, KD_V0_6,	\
	  "char[8]", M_SIG },						\
	{ "header_version", 8, 4, DK_FK_INT, KD_F_HEADER_VERSION,	\
	  KD_V0_6, "int", "1 to 6 (makedumpfile writes 6); says the "	\
	  "byte order, being small in one order only" },		\
	{ "sysname", 12, 65, DK_FK_CHARS, KD_F_SYSNAME, KD_V0_6,	\
	  "char[65]", M_UTS "sysname, \"Linux\"" },			\
	{ "nodename", 77, 65, DK_FK_CHARS, KD_F_NODENAME, KD_V0_6,	\
	  "char[65]", M_UTS "nodename, the host name" },		\
	{ "release", 142, 65, DK_FK_CHARS, KD_F_RELEASE, KD_V0_6,	\
	  "char[65]", M_UTS "release, \"6.1.0-13-amd64\"" },		\
	{ "version", 207, 65, DK_FK_CHARS, KD_F_UTSVERSION, KD_V0_6,	\
	  "char[65]", M_UTS "version, \"#1 SMP ...\"" },		\
	{ "machine", 272, 65, DK_FK_CHARS, KD_F_MACHINE, KD_V0_6,	\
	  "char[65]", M_UTS "machine, uname -m (QEMU: \"x86_64\", "	\
	  "\"S390X\" or \"Unknown\")" },				\
	{ "domainname", 337, 65, DK_FK_CHARS, KD_F_DOMAINNAME, KD_V0_6,	\
	  "char[65]", M_UTS "domainname" }

#define	M_TV_SEC	"struct timeval timestamp: tv_sec (time_t), the crash " \
			"time (VMCOREINFO's CRASHTIME); 0 from QEMU"
#define	M_TV_USEC	"struct timeval timestamp: tv_usec (suseconds_t)"
#define	M_STATUS	"flags: compressed with zlib 0x1, lzo 0x2, snappy 0x4, " \
			"zstd 0x20; incomplete 0x8; unused vmemmap excluded 0x10"
#define	M_BLOCK		"bytes per block: the dumped kernel's page size"
#define	M_SUBHDR	"blocks of the kdump sub header and the ELF notes that " \
			"follow it"
#define	M_BITMAP	"blocks of both bitmaps (each takes half)"
#define	M_MAPNR		"PFNs the bitmaps cover, cut to 32 bits (version 6: " \
			"max_mapnr_64)"
#define	M_UNSET		"diskdump's; makedumpfile leaves it 0"
#define	M_NRCPUS	"CPUs of the dumped machine"
#define	M_TASKS		"struct task_struct *tasks[0]: nothing is stored"

/* LP64 makedumpfile (x86_64, aarch64, ppc64, s390x, riscv64...). */
static const struct dk_field hdr64_fields[] = {
	HDR_HEAD,
	{ "(padding)", 402, 6, DK_FK_PAD, DK_H_PAD, KD_V0_6, NULL,
	  "the 8-byte alignment of struct timeval: zero (makedumpfile "
	  "allocates the header zeroed, QEMU writes zeros)" },
	{ "tv_sec", 408, 8, DK_FK_INT, KD_F_TV_SEC, KD_V0_6, "long",
	  M_TV_SEC },
	{ "tv_usec", 416, 8, DK_FK_INT, KD_F_TV_USEC, KD_V0_6, "long",
	  M_TV_USEC },
	{ "status", 424, 4, DK_FK_UINT, KD_F_STATUS, KD_V0_6,
	  "unsigned int", M_STATUS },
	{ "block_size", 428, 4, DK_FK_INT, KD_F_BLOCK_SIZE, KD_V0_6, "int",
	  M_BLOCK },
	{ "sub_hdr_size", 432, 4, DK_FK_INT, KD_F_SUB_HDR_SIZE, KD_V0_6,
	  "int", M_SUBHDR },
	{ "bitmap_blocks", 436, 4, DK_FK_UINT, KD_F_BITMAP_BLOCKS, KD_V0_6,
	  "unsigned int", M_BITMAP },
	{ "max_mapnr", 440, 4, DK_FK_UINT, KD_F_MAX_MAPNR, KD_V0_6,
	  "unsigned int", M_MAPNR },
	{ "total_ram_blocks", 444, 4, DK_FK_UINT, KD_F_TOTAL_RAM_BLOCKS,
	  KD_V0_6, "unsigned int", M_UNSET },
	{ "device_blocks", 448, 4, DK_FK_UINT, KD_F_DEVICE_BLOCKS, KD_V0_6,
	  "unsigned int", M_UNSET },
	{ "written_blocks", 452, 4, DK_FK_UINT, KD_F_WRITTEN_BLOCKS,
	  KD_V0_6, "unsigned int", M_UNSET },
	{ "current_cpu", 456, 4, DK_FK_UINT, KD_F_CURRENT_CPU, KD_V0_6,
	  "unsigned int", M_UNSET },
	{ "nr_cpus", 460, 4, DK_FK_INT, KD_F_NR_CPUS, KD_V0_6, "int",
	  M_NRCPUS },
	{ "tasks", 464, 0, DK_FK_ARRAY, KD_F_TASKS, KD_V0_6, "void *[]",
	  M_TASKS },
};

/* ILP32 makedumpfile (i386, arm, mips, powerpc), and QEMU's 32-bit. */
static const struct dk_field hdr32_fields[] = {
	HDR_HEAD,
	{ "(padding)", 402, 2, DK_FK_PAD, DK_H_PAD, KD_V0_6, NULL,
	  "the 4-byte alignment of struct timeval: zero" },
	{ "tv_sec", 404, 4, DK_FK_INT, KD_F_TV_SEC, KD_V0_6, "long",
	  M_TV_SEC },
	{ "tv_usec", 408, 4, DK_FK_INT, KD_F_TV_USEC, KD_V0_6, "long",
	  M_TV_USEC },
	{ "status", 412, 4, DK_FK_UINT, KD_F_STATUS, KD_V0_6,
	  "unsigned int", M_STATUS },
	{ "block_size", 416, 4, DK_FK_INT, KD_F_BLOCK_SIZE, KD_V0_6, "int",
	  M_BLOCK },
	{ "sub_hdr_size", 420, 4, DK_FK_INT, KD_F_SUB_HDR_SIZE, KD_V0_6,
	  "int", M_SUBHDR },
	{ "bitmap_blocks", 424, 4, DK_FK_UINT, KD_F_BITMAP_BLOCKS, KD_V0_6,
	  "unsigned int", M_BITMAP },
	{ "max_mapnr", 428, 4, DK_FK_UINT, KD_F_MAX_MAPNR, KD_V0_6,
	  "unsigned int", M_MAPNR },
	{ "total_ram_blocks", 432, 4, DK_FK_UINT, KD_F_TOTAL_RAM_BLOCKS,
	  KD_V0_6, "unsigned int", M_UNSET },
	{ "device_blocks", 436, 4, DK_FK_UINT, KD_F_DEVICE_BLOCKS, KD_V0_6,
	  "unsigned int", M_UNSET },
	{ "written_blocks", 440, 4, DK_FK_UINT, KD_F_WRITTEN_BLOCKS,
	  KD_V0_6, "unsigned int", M_UNSET },
	{ "current_cpu", 444, 4, DK_FK_UINT, KD_F_CURRENT_CPU, KD_V0_6,
	  "unsigned int", M_UNSET },
	{ "nr_cpus", 448, 4, DK_FK_INT, KD_F_NR_CPUS, KD_V0_6, "int",
	  M_NRCPUS },
	{ "tasks", 452, 0, DK_FK_ARRAY, KD_F_TASKS, KD_V0_6, "void *[]",
	  M_TASKS },
};

/* struct kdump_sub_header, at offset block_size. */
#define	M_PHYS	"phys_base: where the kernel was loaded, minus its link " \
		"address (x86_64)"
#define	M_LEVEL	"dump_level, makedumpfile -d: 1 zero pages, 2 cache, 4 " \
		"cache private, 8 user, 16 free pages left out"
#define	M_SPLIT	"1: a part of a --split set"
#define	M_SPFN	"first PFN of this part (cut to unsigned long; version 6: " \
		"start_pfn_64)"
#define	M_EPFN	"end (exclusive) PFN of this part (version 6: end_pfn_64)"
#define	M_OVMCI	"off_t offset_vmcoreinfo (makedumpfile is built with " \
		"_FILE_OFFSET_BITS=64): VMCOREINFO's text, inside the notes"
#define	M_SVMCI	"bytes of VMCOREINFO"
#define	M_ONOTE	"off_t offset_note: the vmcore's ELF notes"
#define	M_SNOTE	"bytes of notes"
#define	M_OERASE "off_t offset_eraseinfo: what --config erased, at the end"
#define	M_SERASE "bytes of eraseinfo"
#define	M_SPFN64 "first PFN of this part"
#define	M_EPFN64 "end PFN of this part"
#define	M_MAPNR64 "PFNs the bitmaps cover"

static const struct dk_field sub64_fields[] = {
	{ "phys_base", 0, 8, DK_FK_UINT, KD_F_PHYS_BASE, KD_V1_6,
	  "unsigned long", M_PHYS },
	{ "dump_level", 8, 4, DK_FK_INT, KD_F_DUMP_LEVEL, KD_V1_6, "int",
	  M_LEVEL },
	{ "(padding)", 12, 4, DK_FK_PAD, DK_H_PAD, DK_V(1), NULL,
	  "version 1's struct ends here, aligned to 8" },
	{ "split", 12, 4, DK_FK_INT, KD_F_SPLIT, KD_V2_6, "int", M_SPLIT },
	{ "start_pfn", 16, 8, DK_FK_UINT, KD_F_START_PFN, KD_V2_6,
	  "unsigned long", M_SPFN },
	{ "end_pfn", 24, 8, DK_FK_UINT, KD_F_END_PFN, KD_V2_6,
	  "unsigned long", M_EPFN },
	{ "offset_vmcoreinfo", 32, 8, DK_FK_INT, KD_F_OFFSET_VMCOREINFO,
	  KD_V3_6, "int64_t", M_OVMCI },
	{ "size_vmcoreinfo", 40, 8, DK_FK_UINT, KD_F_SIZE_VMCOREINFO,
	  KD_V3_6, "unsigned long", M_SVMCI },
	{ "offset_note", 48, 8, DK_FK_INT, KD_F_OFFSET_NOTE, KD_V4_6,
	  "int64_t", M_ONOTE },
	{ "size_note", 56, 8, DK_FK_UINT, KD_F_SIZE_NOTE, KD_V4_6,
	  "unsigned long", M_SNOTE },
	{ "offset_eraseinfo", 64, 8, DK_FK_INT, KD_F_OFFSET_ERASEINFO,
	  KD_V5_6, "int64_t", M_OERASE },
	{ "size_eraseinfo", 72, 8, DK_FK_UINT, KD_F_SIZE_ERASEINFO, KD_V5_6,
	  "unsigned long", M_SERASE },
	{ "start_pfn_64", 80, 8, DK_FK_UINT, KD_F_START_PFN_64, KD_V6,
	  "unsigned long long", M_SPFN64 },
	{ "end_pfn_64", 88, 8, DK_FK_UINT, KD_F_END_PFN_64, KD_V6,
	  "unsigned long long", M_EPFN64 },
	{ "max_mapnr_64", 96, 8, DK_FK_UINT, KD_F_MAX_MAPNR_64, KD_V6,
	  "unsigned long long", M_MAPNR64 },
};

/* The rows every 32-bit sub header shares, to offset 20. */
#define	SUB32_HEAD							\
	{ "phys_base", 0, 4, DK_FK_UINT, KD_F_PHYS_BASE, KD_V1_6,	\
	  "unsigned long", M_PHYS },					\
	{ "dump_level", 4, 4, DK_FK_INT, KD_F_DUMP_LEVEL, KD_V1_6, "int",\
	  M_LEVEL },							\
	{ "split", 8, 4, DK_FK_INT, KD_F_SPLIT, KD_V2_6, "int", M_SPLIT },\
	{ "start_pfn", 12, 4, DK_FK_UINT, KD_F_START_PFN, KD_V2_6,	\
	  "unsigned long", M_SPFN },					\
	{ "end_pfn", 16, 4, DK_FK_UINT, KD_F_END_PFN, KD_V2_6,		\
	  "unsigned long", M_EPFN }

/* i386 (64-bit integers 4-aligned), and QEMU's packed KdumpSubHeader32. */
static const struct dk_field sub32_fields[] = {
	SUB32_HEAD,
	{ "offset_vmcoreinfo", 20, 8, DK_FK_INT, KD_F_OFFSET_VMCOREINFO,
	  KD_V3_6, "int64_t", M_OVMCI },
	{ "size_vmcoreinfo", 28, 4, DK_FK_UINT, KD_F_SIZE_VMCOREINFO,
	  KD_V3_6, "unsigned long", M_SVMCI },
	{ "offset_note", 32, 8, DK_FK_INT, KD_F_OFFSET_NOTE, KD_V4_6,
	  "int64_t", M_ONOTE },
	{ "size_note", 40, 4, DK_FK_UINT, KD_F_SIZE_NOTE, KD_V4_6,
	  "unsigned long", M_SNOTE },
	{ "offset_eraseinfo", 44, 8, DK_FK_INT, KD_F_OFFSET_ERASEINFO,
	  KD_V5_6, "int64_t", M_OERASE },
	{ "size_eraseinfo", 52, 4, DK_FK_UINT, KD_F_SIZE_ERASEINFO, KD_V5_6,
	  "unsigned long", M_SERASE },
	{ "start_pfn_64", 56, 8, DK_FK_UINT, KD_F_START_PFN_64, KD_V6,
	  "unsigned long long", M_SPFN64 },
	{ "end_pfn_64", 64, 8, DK_FK_UINT, KD_F_END_PFN_64, KD_V6,
	  "unsigned long long", M_EPFN64 },
	{ "max_mapnr_64", 72, 8, DK_FK_UINT, KD_F_MAX_MAPNR_64, KD_V6,
	  "unsigned long long", M_MAPNR64 },
};

/* arm, mips o32, powerpc: 64-bit integers 8-aligned. */
#define	M_PAD8	"before an 8-aligned 64-bit integer (or, where it ends the " \
		"version's struct, the struct's alignment to 8)"
static const struct dk_field sub32pad_fields[] = {
	SUB32_HEAD,
	{ "(padding)", 20, 4, DK_FK_PAD, DK_H_PAD, KD_V3_6, NULL, M_PAD8 },
	{ "offset_vmcoreinfo", 24, 8, DK_FK_INT, KD_F_OFFSET_VMCOREINFO,
	  KD_V3_6, "int64_t", M_OVMCI },
	{ "size_vmcoreinfo", 32, 4, DK_FK_UINT, KD_F_SIZE_VMCOREINFO,
	  KD_V3_6, "unsigned long", M_SVMCI },
	{ "(padding)", 36, 4, DK_FK_PAD, DK_H_PAD, KD_V3_6, NULL, M_PAD8 },
	{ "offset_note", 40, 8, DK_FK_INT, KD_F_OFFSET_NOTE, KD_V4_6,
	  "int64_t", M_ONOTE },
	{ "size_note", 48, 4, DK_FK_UINT, KD_F_SIZE_NOTE, KD_V4_6,
	  "unsigned long", M_SNOTE },
	{ "(padding)", 52, 4, DK_FK_PAD, DK_H_PAD, KD_V4_6, NULL, M_PAD8 },
	{ "offset_eraseinfo", 56, 8, DK_FK_INT, KD_F_OFFSET_ERASEINFO,
	  KD_V5_6, "int64_t", M_OERASE },
	{ "size_eraseinfo", 64, 4, DK_FK_UINT, KD_F_SIZE_ERASEINFO, KD_V5_6,
	  "unsigned long", M_SERASE },
	{ "(padding)", 68, 4, DK_FK_PAD, DK_H_PAD, KD_V5_6, NULL, M_PAD8 },
	{ "start_pfn_64", 72, 8, DK_FK_UINT, KD_F_START_PFN_64, KD_V6,
	  "unsigned long long", M_SPFN64 },
	{ "end_pfn_64", 80, 8, DK_FK_UINT, KD_F_END_PFN_64, KD_V6,
	  "unsigned long long", M_EPFN64 },
	{ "max_mapnr_64", 88, 8, DK_FK_UINT, KD_F_MAX_MAPNR_64, KD_V6,
	  "unsigned long long", M_MAPNR64 },
};

const struct dk_layout dk_kd_hdr64 = {
	"kdump-header-64", hdr64_fields, DK_ARRAY_LEN(hdr64_fields)
};
const struct dk_layout dk_kd_hdr32 = {
	"kdump-header-32", hdr32_fields, DK_ARRAY_LEN(hdr32_fields)
};
const struct dk_layout dk_kd_sub64 = {
	"kdump-sub-header-64", sub64_fields, DK_ARRAY_LEN(sub64_fields)
};
const struct dk_layout dk_kd_sub32 = {
	"kdump-sub-header-32", sub32_fields, DK_ARRAY_LEN(sub32_fields)
};
const struct dk_layout dk_kd_sub32pad = {
	"kdump-sub-header-32pad", sub32pad_fields,
	DK_ARRAY_LEN(sub32pad_fields)
};

const struct dk_layout *const *
dk_kd_layouts(size_t *n)
{
	static const struct dk_layout *const all[] = {
		&dk_kd_hdr64, &dk_kd_hdr32, &dk_kd_sub64, &dk_kd_sub32,
		&dk_kd_sub32pad,
	};

	*n = DK_ARRAY_LEN(all);
	return all;
}
