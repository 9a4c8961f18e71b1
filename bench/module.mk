# bench/ -- `make bench`: read throughput next to cat, lookup rates, the
# memory of opening a 1 TiB dump, dumpgen next to dd, dumpconv next to
# cp, and the conversion of a million runs (bench/run.sh); dumpcheck next
# to cat (bench/dumpcheck.sh).
#
# Variables: BENCH_DIR (scratch directory; default a fresh directory in
# $TMPDIR, or $(B)/bench when TMPDIR is unset; removed at the end),
# BENCH_REPEAT (timed repetitions, best and median reported; default 3),
# BENCH_DUMPED (dumped bytes of the big dump, default 8G), BENCH_MEM
# (its RAM, default 10G).

BENCH_REPEAT	?= 3
BENCH_DUMPED	?= 8G
BENCH_MEM	?= 10G
BENCH_DIR	?=

$(B)/bench/readall: $(B)/bench/readall.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(SAN) -o $@ $^ $(LDLIBS)

$(B)/bench/maxrss: $(B)/bench/maxrss.o
	@mkdir -p $(@D)
	$(CC) $(SAN) -o $@ $^

.SECONDARY: $(B)/bench/readall.o $(B)/bench/maxrss.o

.PHONY: bench
bench: $(B)/bin/dumpgen $(B)/bin/dumpinfo $(B)/bin/dumpconv $(B)/bench/readall \
    $(B)/bench/maxrss $(B)/bin/dumpcheck
	DUMPGEN=$(B)/bin/dumpgen DUMPINFO=$(B)/bin/dumpinfo \
	    DUMPCONV=$(B)/bin/dumpconv MAXRSS=$(B)/bench/maxrss \
	    READALL=$(B)/bench/readall BENCH_REPEAT=$(BENCH_REPEAT) \
	    BENCH_DUMPED=$(BENCH_DUMPED) BENCH_MEM=$(BENCH_MEM) \
	    BENCH_DIR=$(BENCH_DIR) BENCH_B=$(B) sh bench/run.sh
	DUMPGEN=$(B)/bin/dumpgen DUMPCHECK=$(B)/bin/dumpcheck \
	    BENCH_REPEAT=$(BENCH_REPEAT) BENCH_DUMPED=$(BENCH_DUMPED) \
	    BENCH_MEM=$(BENCH_MEM) BENCH_DIR=$(BENCH_DIR) BENCH_B=$(B) \
	    sh bench/dumpcheck.sh
