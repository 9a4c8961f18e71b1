LIB_SRCS += formats/err.c formats/src.c formats/layout.c formats/bitmap.c \
	    formats/arch.c formats/dump.c formats/out.c formats/pattern.c formats/parse.c \
	    formats/fmt_minidump.c formats/fmt_elfmini.c formats/kmap.c \
	    formats/recognize.c \
	    formats/fmt_kdh.c formats/check_kdh.c \
	    formats/sink.c formats/check.c \
	    formats/arch_amd64.c formats/arch_i386.c formats/arch_arm.c \
	    formats/arch_arm64.c formats/arch_mips.c \
	    formats/arch_powerpc64.c formats/arch_riscv.c \
	    formats/arch_powerpc.c formats/arch_sparc64.c formats/arch_s390x.c \
	    formats/decompress.c formats/compress.c \
	    formats/check_compress.c formats/check_minidump.c formats/check_elfmini.c
LIB_SRCS += formats/elf.c formats/fmt_elf.c formats/kernel.c formats/check_elf.c
LIB_SRCS += formats/fmt_sparc64.c formats/check_sparc64.c
LIB_SRCS += formats/fmt_kdump.c formats/kdump_layout.c formats/linux.c
LIB_SRCS += formats/vmcoreinfo.c formats/fmt_vmcore.c formats/check_vmcore.c
LIB_SRCS += formats/check_kdump.c formats/check_linuxlog.c
LIB_SRCS += formats/kdump_write.c formats/kdump_reenc.c formats/kdump_port.c
LDLIBS   += -pthread
LIB_SRCS += formats/ctlayout.c formats/layouts.c
LIB_SRCS += formats/kthreads.c
LIB_SRCS += formats/vmcore_write.c
LIB_SRCS += formats/kdwarf.c
