# install.mk -- the shared library's versions and names, `make install`,
# `make uninstall`, and the pkg-config file.  Included by GNUmakefile
# before the module files.
#
#   make install   [PREFIX=/usr/local] [DESTDIR=]   tools, libraries,
#                  headers, dumpkit.pc and manuals
#   make uninstall [PREFIX=...] [DESTDIR=]          removes exactly those
#
# Directories may be set one by one: BINDIR, LIBDIR, INCLUDEDIR, MANDIR,
# PKGCONFIGDIR (default $(LIBDIR)/pkgconfig).  The Debian way is
# LIBDIR=/usr/lib/x86_64-linux-gnu (the multiarch directory): the
# libraries, their symlinks and dumpkit.pc follow it, and dumpkit.pc's
# libdir says it (tests/install.sh).  What is installed is the build in
# $(B); a sanitizer build (SANITIZE=1) is refused: its library and tools
# need the sanitizer runtime loaded first.

# One version, one place: DK_VERSION_STRING in formats/dumpkit.h, which
# dumpkit_version() returns and every tool's --version prints.  The
# soname carries the ABI's number: the major number from 1.0.0 on, and
# 0.MINOR before it (each 0.x release may change the ABI); the file its
# full version.
DK_VERSION := $(shell sed -n \
    's/^.define[[:space:]]*DK_VERSION_STRING[[:space:]]*"\([0-9.]*\)".*/\1/p' \
    formats/dumpkit.h)
ifeq ($(words $(subst ., ,$(DK_VERSION))),3)
DK_SOMAJOR := $(firstword $(subst ., ,$(DK_VERSION)))
DK_SOVER   := $(if $(filter 0,$(DK_SOMAJOR)),0.$(word 2,$(subst ., ,$(DK_VERSION))),$(DK_SOMAJOR))
else
$(error formats/dumpkit.h: DK_VERSION_STRING: expected "MAJOR.MINOR.PATCH", found "$(DK_VERSION)")
endif

# SOREAL is the file itself; SOLIB (what programs load) and SODEV (what
# -ldumpkit finds) are symlinks, as installed.
SONAME	 := libdumpkit.so.$(DK_SOVER)
SOLIB	 := $(B)/$(SONAME)
SOREAL	 := $(B)/libdumpkit.so.$(DK_VERSION)
SODEV	 := $(B)/libdumpkit.so

# Linked from the archive, whose objects are all -fPIC: the prerequisite
# is known here, before the module files have listed the sources.
$(SOREAL): $(LIB)
	$(CC) -shared -Wl,-soname,$(SONAME) $(SAN) -o $@ \
	    -Wl,--whole-archive $(LIB) -Wl,--no-whole-archive $(LDLIBS)

$(SOLIB): $(SOREAL)
	ln -sf $(notdir $<) $@

$(SODEV): $(SOLIB)
	ln -sf $(SONAME) $@

all: $(SODEV)

# --- install ------------------------------------------------------------

PREFIX		?= /usr/local
BINDIR		?= $(PREFIX)/bin
LIBDIR		?= $(PREFIX)/lib
INCLUDEDIR	?= $(PREFIX)/include
MANDIR		?= $(PREFIX)/share/man
PKGCONFIGDIR	?= $(LIBDIR)/pkgconfig
INSTALL		?= install

# The public interface: the headers whose functions the shared library
# exports (tests/symbols.sh holds the library to exactly these).
# formats/private.h and formats/minidump.h are the library's own.
PUBLIC_HEADERS	:= formats/dumpkit.h formats/dkcheck.h
MANUALS		 = $(sort $(wildcard man/*.[1-8]))

# Every file install writes, as DESTDIR-less paths; uninstall removes
# this list and nothing else.
INSTALLED	 = $(TOOLS:%=$(BINDIR)/%) \
		   $(LIBDIR)/libdumpkit.a $(LIBDIR)/$(notdir $(SOREAL)) \
		   $(LIBDIR)/$(SONAME) $(LIBDIR)/libdumpkit.so \
		   $(PUBLIC_HEADERS:formats/%=$(INCLUDEDIR)/dumpkit/%) \
		   $(PKGCONFIGDIR)/dumpkit.pc \
		   $(foreach m,$(MANUALS),$(MANDIR)/man$(subst .,,$(suffix $(m)))/$(notdir $(m)))

# ${prefix}-relative where possible, so that PKG_CONFIG_SYSROOT_DIR and
# --define-variable=prefix= work on the installed file.
pc_rel	 = $(patsubst $(PREFIX)/%,$${prefix}/%,$(1))

# Rewritten at every install: PREFIX may differ from the last one.
.PHONY: $(B)/dumpkit.pc
$(B)/dumpkit.pc: dumpkit.pc.in
	@mkdir -p $(@D)
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(call pc_rel,$(LIBDIR))|' \
	    -e 's|@INCLUDEDIR@|$(call pc_rel,$(INCLUDEDIR))|' \
	    -e 's|@VERSION@|$(DK_VERSION)|' -e 's|@LIBS_PRIVATE@|$(LDLIBS)|' \
	    dumpkit.pc.in > $@

.PHONY: install uninstall
install: all $(B)/dumpkit.pc
ifeq ($(SANITIZE),1)
	@echo "install: the sanitizer build is not installed; run make install without SANITIZE=1" >&2; exit 1
endif
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) \
	    $(DESTDIR)$(INCLUDEDIR)/dumpkit $(DESTDIR)$(PKGCONFIGDIR)
	$(INSTALL) -m 0755 $(TOOLS:%=$(B)/bin/%) $(DESTDIR)$(BINDIR)/
	$(INSTALL) -m 0644 $(LIB) $(DESTDIR)$(LIBDIR)/
	$(INSTALL) -m 0755 $(SOREAL) $(DESTDIR)$(LIBDIR)/
	ln -sf $(notdir $(SOREAL)) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libdumpkit.so
	$(INSTALL) -m 0644 $(PUBLIC_HEADERS) $(DESTDIR)$(INCLUDEDIR)/dumpkit/
	$(INSTALL) -m 0644 $(B)/dumpkit.pc $(DESTDIR)$(PKGCONFIGDIR)/
	@set -e; for m in $(MANUALS); do \
	    s=$${m##*.}; d=$(DESTDIR)$(MANDIR)/man$$s; \
	    echo "$(INSTALL) -m 0644 $$m $$d/"; \
	    $(INSTALL) -d $$d; $(INSTALL) -m 0644 $$m $$d/; done

# The directories are shared with other software: only ours goes.
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	rmdir $(DESTDIR)$(INCLUDEDIR)/dumpkit 2>/dev/null || true

# What the tests of the install ask the build (tests/install.sh,
# tests/symbols.sh, tests/man.sh).
.PHONY: print-tools print-public-headers print-ldlibs print-soname
print-tools:
	@echo $(TOOLS)
print-public-headers:
	@echo $(PUBLIC_HEADERS)
print-ldlibs:
	@echo $(LDLIBS)
print-soname:
	@echo $(SONAME)
