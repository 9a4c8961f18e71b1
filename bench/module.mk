# bench/ -- `make bench`: read throughput next to cat, lookup rates, the
# memory and time of opening dumps of 1, 16 and 64 TiB machines, dumpgen
# next to dd, dumpconv of an 8 GiB dump next to cp, the conversion of a
# million runs, the kernel-map walk of a 1 TiB dump and of truncated and
# damaged page tables of every family (bench/kmapwalk) (bench/run.sh);
# dumpconv next to cp (alone and followed by sync) at every
# fragmentation, and the way back from --drop-zero (bench/convcp.sh,
# BENCH_CONV_REPEAT rounds, default 5); dumpcheck next to cat and dd
# (bench/dumpcheck.sh); compressed inputs (zstd -3, gzip -1, xz -1 of a
# 1 GiB dump) converted and checksummed next to their decoders
# (bench/compressed.sh, BENCH_Z_MEM).
#
# Variables: BENCH_DIR (where the scratch directory is made; default
# $TMPDIR, or $(B)/bench when TMPDIR is unset; removed at the end, in the
# background: bench/scratch.sh), BENCH_REPEAT (timed repetitions, best
# and median reported; default 3), BENCH_DUMPED (dumped bytes of the big
# dump, default 8G), BENCH_MEM (its RAM, default 10G).  Read by the
# scripts from the environment or the command line: BENCH_CONV_DUMPED and
# BENCH_CONV_MEM (the dump converted next to cp, 1G of 2G),
# BENCH_RUN_MEMS (RAM of the --alternate dumps converted next to cp,
# "256M 8G": 29,504 and 1,038,140 runs), BENCH_HUGE (RAM of the huge
# dumps opened, "1T 16T 64T"), BENCH_FULL_MEM, BENCH_CONV_REPEAT,
# BENCH_CONV_DIR, BENCH_TRASH_MAX.  To check the scripts, not to measure:
#   make bench BENCH_DUMPED=1G BENCH_MEM=2G BENCH_REPEAT=1 BENCH_CONV_REPEAT=1 \
#       BENCH_CONV_DUMPED=256M BENCH_CONV_MEM=512M BENCH_RUN_MEMS=64M \
#       BENCH_FULL_MEM=256M

BENCH_REPEAT	?= 3
BENCH_DUMPED	?= 8G
BENCH_MEM	?= 10G
BENCH_DIR	?=

$(B)/bench/readall: $(B)/bench/readall.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(SAN) -o $@ $^ $(LDLIBS)

# kmapwalk reads the library's counters (private.h): the static library.
$(B)/bench/kmapwalk: $(B)/bench/kmapwalk.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(SAN) -o $@ $^ $(LDLIBS)

$(B)/bench/maxrss: $(B)/bench/maxrss.o
	@mkdir -p $(@D)
	$(CC) $(SAN) -o $@ $^

.SECONDARY: $(B)/bench/readall.o $(B)/bench/maxrss.o $(B)/bench/kmapwalk.o

.PHONY: bench
bench: $(B)/bin/dumpgen $(B)/bin/dumpinfo $(B)/bin/dumpconv $(B)/bench/readall \
    $(B)/bench/maxrss $(B)/bin/dumpcheck $(B)/bench/kmapwalk
	DUMPGEN=$(B)/bin/dumpgen DUMPINFO=$(B)/bin/dumpinfo \
	    DUMPCONV=$(B)/bin/dumpconv MAXRSS=$(B)/bench/maxrss \
	    READALL=$(B)/bench/readall KMAPWALK=$(B)/bench/kmapwalk \
	    BENCH_REPEAT=$(BENCH_REPEAT) \
	    BENCH_DUMPED=$(BENCH_DUMPED) BENCH_MEM=$(BENCH_MEM) \
	    BENCH_DIR=$(BENCH_DIR) BENCH_B=$(B) sh bench/run.sh
	DUMPGEN=$(B)/bin/dumpgen DUMPCONV=$(B)/bin/dumpconv \
	    BENCH_DIR=$(BENCH_DIR) BENCH_B=$(B) sh bench/convcp.sh
	DUMPGEN=$(B)/bin/dumpgen DUMPCHECK=$(B)/bin/dumpcheck \
	    MAXRSS=$(B)/bench/maxrss BENCH_REPEAT=$(BENCH_REPEAT) \
	    BENCH_DUMPED=$(BENCH_DUMPED) BENCH_MEM=$(BENCH_MEM) \
	    BENCH_DIR=$(BENCH_DIR) BENCH_B=$(B) sh bench/dumpcheck.sh
	DUMPCHECK=$(B)/bin/dumpcheck BENCH_REPEAT=$(BENCH_REPEAT) \
	    BENCH_DIR=$(BENCH_DIR) BENCH_B=$(B) sh bench/kdumpcheck.sh
	DUMPGEN=$(B)/bin/dumpgen DUMPCONV=$(B)/bin/dumpconv \
	    DUMPCHECK=$(B)/bin/dumpcheck BENCH_REPEAT=$(BENCH_REPEAT) \
	    BENCH_DIR=$(BENCH_DIR) BENCH_B=$(B) sh bench/compressed.sh
