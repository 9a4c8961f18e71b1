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

.PHONY: check check-unit check-cli check-interop
# Units first, then the tools end to end; one summary line each.
check: all $(TESTS)
	@$(MAKE) --no-print-directory check-unit
	@$(MAKE) --no-print-directory fuzz-replay
	@$(MAKE) --no-print-directory check-cli
	@$(MAKE) --no-print-directory check-interop
	@$(MAKE) --no-print-directory check-dumpcheck

check-unit: $(TESTS)
	@fail=0; for t in $(TESTS); do \
	    echo "== $$t"; $$t || fail=1; done; exit $$fail

check-cli: all
	@B=$(B) bash tests/cli.sh

# The portable ELF minidump read by readelf, eu-readelf, eu-elflint,
# libkdumpfile and gdb-multiarch, and dumpconv end to end (tests/interop.sh).
# The reader is built here; if libkdumpfile is missing, interop.sh says so
# and counts it as a failure.
check-interop: all
	@$(MAKE) --no-print-directory $(KDUMPFILE_READ) || true
	@B=$(B) KDUMPFILE_READ=$(KDUMPFILE_READ) bash tests/interop.sh
