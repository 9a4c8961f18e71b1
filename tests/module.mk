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

.PHONY: check check-unit check-cli
# Units first, then the tools end to end; one summary line each.
check: all $(TESTS)
	@$(MAKE) --no-print-directory check-unit
	@$(MAKE) --no-print-directory fuzz-replay
	@$(MAKE) --no-print-directory check-cli

check-unit: $(TESTS)
	@fail=0; for t in $(TESTS); do \
	    echo "== $$t"; $$t || fail=1; done; exit $$fail

check-cli: all
	@B=$(B) bash tests/cli.sh
