TOOLS	+= dumpinfo

# savecore's info.N (validate/savecore.c), read by dumpinfo and dumpconv:
# link $(SAVECORE_OBJ) into a tool that reads it.
SAVECORE_OBJ = $(B)/validate/savecore.o

$(B)/bin/dumpinfo: $(B)/validate/dumpinfo.o $(SAVECORE_OBJ) $(TOOL_OBJ) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(SAN) -o $@ $^ $(LDLIBS)
TOOLS	+= dumpcheck

$(B)/bin/dumpcheck: $(B)/validate/dumpcheck.o $(TOOL_OBJ) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(SAN) -o $@ $^ $(LDLIBS)

# End-to-end tests of dumpcheck (tests/dumpcheck.sh), run by `make check`.
.PHONY: check-dumpcheck
check-dumpcheck: $(B)/bin/dumpcheck $(B)/bin/dumpgen $(B)/bin/dumpconv
	@B=$(B) bash tests/dumpcheck.sh
TOOLS	+= dumplayout

# The layout checker (issue 7): formats/ctlayout.c is its engine.
# One binary, a file per job (validate/dumplayout.h).
DUMPLAYOUT_OBJS = $(B)/validate/dumplayout.o $(B)/validate/dumplayout_abi.o \
		  $(B)/validate/dumplayout_compare.o
$(B)/bin/dumplayout: $(DUMPLAYOUT_OBJS) $(TOOL_OBJ) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(SAN) -o $@ $^ $(LDLIBS)
