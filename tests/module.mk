# Check suites: each tests/check_<name>.c is one program.  The fixture
# model (fixtures/gen.c) and the JSON writer are linked in for the
# suites that need them.
CHECKS	 = $(patsubst tests/check_%.c,%,$(wildcard tests/check_*.c))
TESTS	+= $(CHECKS:%=$(B)/tests/check_%)
TEST_OBJS = $(FX_OBJS) $(JSON_OBJ)

$(B)/tests/check_%: $(B)/tests/check_%.o $(TEST_OBJS) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(SAN) -o $@ $^ $(CHECK_LIBS) $(LDLIBS)

$(B)/tests/check_%.o: tests/check_%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -Ifixtures -Ivalidate $(DEPFLAGS) $(CHECK_CFLAGS) \
	    $(ALL_CFLAGS) -c -o $@ $<

# The libkdumpfile reader of the interoperability tests (Debian
# libkdumpfile-dev); linked with the library to compare its reads.
KDUMP_CFLAGS = $(shell pkg-config --cflags libkdumpfile 2>/dev/null)
KDUMP_LIBS   = $(shell pkg-config --libs libkdumpfile 2>/dev/null || \
		 echo -lkdumpfile)
KDUMPFILE_READ = $(B)/tests/kdumpfile_read

$(B)/tests/kdumpfile_read.o: tests/kdumpfile_read.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(DEPFLAGS) $(KDUMP_CFLAGS) $(ALL_CFLAGS) -c -o $@ $<

$(KDUMPFILE_READ): $(B)/tests/kdumpfile_read.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(SAN) -o $@ $^ $(KDUMP_LIBS) $(LDLIBS)

# The kdump re-encoding survey (formats/kdump_reenc.c): the residue the
# portable file of a kdump dump would carry, per file.
KDUMP_REENC = $(B)/tests/kdump_reenc

$(KDUMP_REENC): $(B)/tests/kdump_reenc.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(SAN) -o $@ $^ $(LDLIBS)

.PHONY: check check-unit check-cli check-interop
# Units first, then the tools end to end; one summary line each.
check: all $(TESTS)
	@$(MAKE) --no-print-directory check-unit
	@$(MAKE) --no-print-directory fuzz-replay
	@$(MAKE) --no-print-directory check-cli
	@$(MAKE) --no-print-directory check-interop
	@$(MAKE) --no-print-directory check-dumpcheck
	@$(MAKE) --no-print-directory check-fullelf
	@$(MAKE) --no-print-directory check-compress
	@$(MAKE) --no-print-directory check-kdh
	@$(MAKE) --no-print-directory check-vmcore
	@$(MAKE) --no-print-directory check-kdumpcheck
	@$(MAKE) --no-print-directory check-kdump-corrupt
	@$(MAKE) --no-print-directory check-dmesg
	@$(MAKE) --no-print-directory check-install
	@$(MAKE) --no-print-directory check-layout
	@$(MAKE) --no-print-directory check-kthreads
	@$(MAKE) --no-print-directory check-vmcore-write
	@$(MAKE) --no-print-directory check-vmcore-kernel
	@$(MAKE) --no-print-directory check-vmcore-portable
	@$(MAKE) --no-print-directory check-kdump-write
	@$(MAKE) --no-print-directory check-kdump-reenc
	@$(MAKE) --no-print-directory check-kdump-portable

check-unit: $(TESTS)
	@fail=0; for t in $(TESTS); do \
	    echo "== $$t"; $$t || fail=1; done; exit $$fail

# The tools' command lines (tests/cli.sh) and the conventions the five
# share (tests/conventions.sh, docs/tools.md).
check-cli: all
	@fail=0; for t in cli conventions; do \
	    echo "== tests/$$t.sh"; B=$(B) bash tests/$$t.sh || fail=1; done; \
	    exit $$fail

# Installed as others use it (tests/install.sh: the plain build only,
# the sanitizer build is not installed), its exports and state
# (tests/symbols.sh), the manuals (tests/man.sh); the threads suite
# links pthreads.
.PHONY: check-install
check-install: all
	@fail=0; for t in $(if $(filter 1,$(SANITIZE)),,install) symbols man; do \
	    echo "== tests/$$t.sh"; B=$(B) bash tests/$$t.sh || fail=1; done; \
	    exit $$fail
$(B)/tests/check_threads: CHECK_LIBS += -pthread

# The portable ELF minidump read by readelf, eu-readelf, eu-elflint,
# libkdumpfile and gdb-multiarch, and dumpconv end to end (tests/interop.sh).
# The reader is built here; if libkdumpfile is missing, interop.sh says so
# and counts it as a failure.
check-interop: all
	@$(MAKE) --no-print-directory $(KDUMPFILE_READ) || true
	@B=$(B) KDUMPFILE_READ=$(KDUMPFILE_READ) bash tests/interop.sh

# Full ELF cores read by readelf, eu-readelf and gdb-multiarch, and by
# dumpinfo against the pattern (tests/fullelf.sh).
.PHONY: check-fullelf
check-fullelf: all
	@B=$(B) bash tests/fullelf.sh

# Compressed dumps (gzip, zstd, xz) through the tools, against the real
# gzip, zstd and xz (tests/compress.sh).
.PHONY: check-compress
check-compress: all
	@B=$(B) bash tests/compress.sh

# The kernel log of Linux dumps against makedumpfile (tests/dmesg.sh);
# REAL_DUMPS=/tmp/realdumps/dumps adds make-real-dumps.sh's whole files.
.PHONY: check-dmesg
check-dmesg: all
	@B=$(B) bash tests/dmesg.sh

# kerneldumpheader containers (device images, leading headers, text and
# encrypted dumps) through dumpgen, dumpconv, dumpinfo and dumpcheck.
.PHONY: check-kdh
check-kdh: all
	@B=$(B) bash tests/kdh.sh

# Real Linux ELF vmcores (QEMU, the kernel, makedumpfile -E) against
# readelf, eu-readelf and libkdumpfile (tests/vmcore.sh).
.PHONY: check-vmcore
check-vmcore: all
	@$(MAKE) --no-print-directory $(KDUMPFILE_READ) || true
	@B=$(B) KDUMPFILE_READ=$(KDUMPFILE_READ) bash tests/vmcore.sh

# dumpgen --format vmcore --corrupt: each vm-* kind on each producer gives
# dumpcheck's code at the layout's offset (a Check suite, also run by
# check-unit; its scratch files in /dev/shm unless TMPDIR says).
.PHONY: check-vmcore-corrupt
check-vmcore-corrupt: $(B)/tests/check_vmcore_corrupt
	@$(B)/tests/check_vmcore_corrupt
# dumpcheck on kdump-compressed files: the real ones, damaged copies
# patched by hand, libkdumpfile through python3 ctypes (tests/kdumpcheck.sh).
.PHONY: check-kdumpcheck
check-kdumpcheck: all
	@B=$(B) bash tests/kdumpcheck.sh
# dumpgen --format kdump --corrupt kd-*: each kind's finding at its
# offset across variants, every kdump code with a kind
# (tests/kdump_corrupt.sh).
.PHONY: check-kdump-corrupt
check-kdump-corrupt: all
	@B=$(B) bash tests/kdump_corrupt.sh

# Header layouts across ABIs (issue 7): dumplayout end to end
# (tests/layout.sh), then the compiler oracle (tests/layout_oracle.sh)
# on the ABIs CI installs compilers for; `make check-cross` runs it on
# every ABI of the engine.  The DWARF reader links libdw (libdw-dev).
LAYOUT_CI_ABIS = i386 armhf mips-o32 mips-n32 powerpc64 sparc64
LAYOUT_DWARF   = $(B)/tests/layout_dwarf

$(LAYOUT_DWARF): tests/layout_dwarf.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -o $@ $< -ldw -lelf

.PHONY: check-layout check-cross
check-layout: all $(LAYOUT_DWARF)
	@B=$(B) bash tests/layout.sh
	@B=$(B) bash tests/layout_oracle.sh $(LAYOUT_CI_ABIS)

check-cross: all $(LAYOUT_DWARF)
	@B=$(B) LAYOUT_ORACLE_SHOW=1 bash tests/layout_oracle.sh

# The README's two commands, as written, in a fresh Debian root
# (tests/fresh.sh: mmdebstrap, chroot; root only).  It builds in the
# root from the committed tree: nothing here is a prerequisite.
.PHONY: check-fresh
check-fresh:
	@bash tests/fresh.sh

# The suites' environment (README.md, "Testing"), for each target that
# runs tests, whether make check or CI calls it:
#  - DUMPKIT_NO_FSYNC=1: atomic outputs are not fsynced (formats/out.c).
#    The suites write thousands of files and 32 MiB cores, and no test
#    tests durability; one that did would unset it for its command.
#  - Check's timeouts, per test function: CK_DEFAULT_TIMEOUT for a test
#    case that sets none (Check's own default is 4 s), and every timeout,
#    tcase_set_timeout()'s too, multiplied by CK_TIMEOUT_MULTIPLIER.
#    Either may be set on the command line or in the environment.
SUITE_GOALS = check check-unit check-cli check-interop check-dumpcheck \
	      check-fullelf check-compress check-kdh check-vmcore check-kdumpcheck \
	      check-kdump-corrupt \
	      check-install check-layout check-cross fuzz-replay check-kthreads \
	      check-dmesg check-vmcore-write check-vmcore-kernel \
	      check-vmcore-portable check-kdump-write check-kdump-reenc \
	      check-kdump-portable
$(SUITE_GOALS): export DUMPKIT_NO_FSYNC = 1
$(SUITE_GOALS): export CK_DEFAULT_TIMEOUT ?= 60
$(SUITE_GOALS): export CK_TIMEOUT_MULTIPLIER ?= 3

# Threads, registers and processes of a FreeBSD dump (issue 15):
# dumpgen --kernel-out, dumpconv --kernel, read by gdb-multiarch and
# readelf, damaged lists (tests/kthreads.sh).
.PHONY: check-kthreads
check-kthreads: all
	@B=$(B) bash tests/kthreads.sh
# Linux ELF vmcores: dumpgen --format vmcore and dumpconv --to elf read by
# readelf, eu-readelf, libkdumpfile, makedumpfile and gdb-multiarch
# (tests/vmcore_write.sh; the real crash's whole files when present).
.PHONY: check-vmcore-write
check-vmcore-write: all $(B)/tests/check_kdump
	@$(MAKE) --no-print-directory $(KDUMPFILE_READ)
	@B=$(B) KDUMPFILE_READ=$(KDUMPFILE_READ) bash tests/vmcore_write.sh
# The fixture kernel of dumpgen --format vmcore (fixtures/gen_linux.c):
# its printk log against the documented formula and makedumpfile
# --dump-dmesg, its page tables against the pattern and libkdumpfile's
# walk (tests/vmcore_kernel.sh; DK_TEST_SAMPLE=N runs one case in N).
.PHONY: check-vmcore-kernel
check-vmcore-kernel: all
	@$(MAKE) --no-print-directory $(KDUMPFILE_READ)
	@B=$(B) KDUMPFILE_READ=$(KDUMPFILE_READ) bash tests/vmcore_kernel.sh
# Linux ELF vmcores in the portable ELF minidump and back, byte for
# byte, read by readelf, eu-readelf, libkdumpfile and makedumpfile
# (tests/vmcore_portable.sh; DK_TEST_SAMPLE=N: one vmcore row in N).
.PHONY: check-vmcore-portable
check-vmcore-portable: all
	@$(MAKE) --no-print-directory $(KDUMPFILE_READ)
	@B=$(B) KDUMPFILE_READ=$(KDUMPFILE_READ) bash tests/vmcore_portable.sh
# The kdump writer (issue 14): dumpconv --to kdump and dumpgen --format
# kdump read by libkdumpfile (tests/kdumpfile_kdump.c, every page),
# makedumpfile -R, --reassemble and -d 31, drgn (tests/kdump_write.sh).
KDUMPFILE_KDUMP = $(B)/tests/kdumpfile_kdump

$(B)/tests/kdumpfile_kdump.o: tests/kdumpfile_kdump.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(DEPFLAGS) $(KDUMP_CFLAGS) $(ALL_CFLAGS) -c -o $@ $<

$(KDUMPFILE_KDUMP): $(B)/tests/kdumpfile_kdump.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(SAN) -o $@ $^ $(KDUMP_LIBS) $(LDLIBS)

.PHONY: check-kdump-write
check-kdump-write: all $(KDUMPFILE_KDUMP)
	@B=$(B) KDUMPFILE_KDUMP=$(KDUMPFILE_KDUMP) bash tests/kdump_write.sh

# A manual step, not in make check: crash with the Debian kernel's debug
# vmlinux says of our conversions of real dumps what it says of their
# sources (tests/crash_vmlinux.sh; needs make-real-dumps.sh's output with
# its -dbg package, REAL_DUMPS and REAL_VMLINUX; about 3 minutes).
.PHONY: check-crash
check-crash: all
	@B=$(B) bash tests/crash_vmlinux.sh

# How kdump files' stored pages re-encode: the encoder of each producer,
# the residue source kind 5 would carry (tests/kdump_reenc.sh).
.PHONY: check-kdump-reenc
check-kdump-reenc: all $(KDUMP_REENC)
	@B=$(B) bash tests/kdump_reenc.sh

# makedumpfile's kdump-compressed files in the portable ELF minidump and
# back, byte for byte, held against a parse by hand (tests/kdump_portable.py),
# readelf, eu-readelf, libkdumpfile and makedumpfile
# (tests/kdump_portable.sh; DK_TEST_SAMPLE=N: one generated fixture in N).
.PHONY: check-kdump-portable
check-kdump-portable: all
	@$(MAKE) --no-print-directory $(KDUMPFILE_READ)
	@B=$(B) KDUMPFILE_READ=$(KDUMPFILE_READ) bash tests/kdump_portable.sh
