# fuzz/ -- fuzz targets, their corpus replayed by $(CC) in `make check`,
# and short libFuzzer runs built by clang in build-fuzz/.
#
#   make fuzz-replay    replay every corpus file through every target, with
#                       $(CC) and the sanitizers of this build (SANITIZE=1)
#   make fuzz           build each target with clang -fsanitize=fuzzer,
#                       address,undefined into build-fuzz/ and run it for
#                       FUZZ_SECONDS on a copy of its seed corpus; any
#                       crash, leak or timeout fails
#   make fuzz-seed      regenerate fuzz/corpus/ (fuzz/seed.sh)
#
# Variables: FUZZ_SECONDS (60), FUZZ_CC (clang), FUZZ_ARGS (extra libFuzzer
# options), FUZZ_SKIP_KNOWN (1: leave the corpus's crash-* inputs, known
# open library bugs, out of fuzz and fuzz-replay; by default they are
# run, and fail until the bug is fixed), FUZZ_TARGETS, FUZZ_REPLAY_TESTS
# (the replay programs: `make check` may run them itself, or depend on
# fuzz-replay, which runs each over its corpus directory).

FUZZ_TARGETS	:= fuzz_minidump fuzz_kernel_elf fuzz_elfmini fuzz_compress
FUZZ_TARGETS	+= fuzz_elf
FUZZ_TARGETS	+= fuzz_kdh
FUZZ_TARGETS	+= fuzz_sparc64
FUZZ_TARGETS	+= fuzz_elf_layer
FUZZ_TARGETS	+= fuzz_kdump
FUZZ_TARGETS	+= fuzz_kthreads
FUZZ_TARGETS	+= fuzz_vmcore
FUZZ_TARGETS	+= fuzz_kdump_check fuzz_kdump_flat fuzz_kdump_codec
FUZZ_TARGETS	+= fuzz_linux_log
FUZZ_TARGETS	+= fuzz_kdwarf
FUZZ_SECONDS	?= 60
FUZZ_CC		?= clang
FUZZ_ARGS	?=
FUZZ_SKIP_KNOWN	?= 0
FUZZ_B		:= build-fuzz

# The corpus directory of target fuzz_NAME is fuzz/corpus/NAME.
fuzz_corpus	 = fuzz/corpus/$(patsubst fuzz_%,%,$(1))

# --- Replay with $(CC), inside $(B) ------------------------------------

FUZZ_REPLAY_TESTS := $(FUZZ_TARGETS:%=$(B)/fuzz/replay_%)
FUZZ_REPLAY_RUNS  := $(FUZZ_TARGETS:%=fuzz-replay-%)

$(B)/fuzz/replay_%: $(B)/fuzz/%.o $(B)/fuzz/replay.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(SAN) -o $@ $^ $(LDLIBS)

$(B)/fuzz/seedshrink: $(B)/fuzz/seedshrink.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(SAN) -o $@ $^ $(LDLIBS)

# fuzz_elfmini.c compiles fuzz_minidump.c and fuzz_vmcore.c in (its
# readers' exercises); the .d files record that too, once built.
$(B)/fuzz/fuzz_elfmini.o: fuzz/fuzz_minidump.c fuzz/fuzz_vmcore.c

# Keep the objects make would otherwise delete as intermediate.
.SECONDARY: $(FUZZ_TARGETS:%=$(B)/fuzz/%.o) $(B)/fuzz/replay.o

.PHONY: fuzz-replay $(FUZZ_REPLAY_RUNS) fuzz-tools fuzz-seed
fuzz-replay: $(FUZZ_REPLAY_RUNS)
# The readers' exercise (fuzz_minidump, and fuzz_elfmini, which adds the
# conversions) opens whatever the library opens: the other formats'
# corpora are replayed through it too.
FUZZ_ALSO_minidump := fuzz/corpus/elf fuzz/corpus/sparc64 fuzz/corpus/kdh \
		      fuzz/corpus/compress
FUZZ_ALSO_elfmini  := $(FUZZ_ALSO_minidump) fuzz/corpus/kdump
# The kdump validator's target replays the reader's corpus too.
FUZZ_ALSO_kdump_check := fuzz/corpus/kdump

$(FUZZ_REPLAY_RUNS): fuzz-replay-%: $(B)/fuzz/replay_%
	$< $(if $(filter 1,$(FUZZ_SKIP_KNOWN)),-x crash-) $(call fuzz_corpus,$*) \
	    $(FUZZ_ALSO_$(patsubst fuzz_%,%,$*))

fuzz-tools: $(FUZZ_REPLAY_TESTS) $(B)/fuzz/seedshrink

fuzz-seed: $(B)/bin/dumpgen $(B)/fuzz/seedshrink $(B)/bin/dumpconv
	DUMPGEN=$(B)/bin/dumpgen SEEDSHRINK=$(B)/fuzz/seedshrink \
	    DUMPCONV=$(B)/bin/dumpconv sh fuzz/seed.sh

# --- libFuzzer builds with clang, inside build-fuzz ---------------------

ifneq ($(B),$(FUZZ_B))
FUZZ_SAN	 = -fsanitize=address,undefined -fno-sanitize-recover=all \
		   -fno-omit-frame-pointer
FUZZ_CFLAGS	 = $(WARN) -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link
FUZZ_LIB	:= $(FUZZ_B)/libdumpkit.a
FUZZ_BINS	:= $(FUZZ_TARGETS:%=$(FUZZ_B)/bin/%)
FUZZ_RUNS	:= $(FUZZ_TARGETS:%=fuzz-run-%)

$(FUZZ_B)/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(DEPFLAGS) $(FUZZ_CFLAGS) -c -o $@ $<

$(FUZZ_LIB): $(LIB_SRCS:%.c=$(FUZZ_B)/%.o)
	@rm -f $@
	$(AR) rcs $@ $^

$(FUZZ_B)/bin/%: $(FUZZ_B)/fuzz/%.o $(FUZZ_LIB)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

.SECONDARY: $(FUZZ_TARGETS:%=$(FUZZ_B)/fuzz/%.o)
$(FUZZ_B)/fuzz/fuzz_elfmini.o: fuzz/fuzz_minidump.c fuzz/fuzz_vmcore.c

.PHONY: fuzz fuzz-build $(FUZZ_RUNS)
fuzz-build: $(FUZZ_BINS)
fuzz: $(FUZZ_RUNS)
$(FUZZ_RUNS): fuzz-run-%: $(FUZZ_B)/bin/%
	FUZZ_B=$(FUZZ_B) FUZZ_SECONDS=$(FUZZ_SECONDS) \
	    FUZZ_SKIP_KNOWN=$(FUZZ_SKIP_KNOWN) sh fuzz/run.sh $< \
	    $(call fuzz_corpus,$*) $(FUZZ_ARGS)

-include $(shell find $(FUZZ_B) -name '*.d' 2>/dev/null)
endif
