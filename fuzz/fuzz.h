/*
 * fuzz.h -- what every fuzz target shares: the entry point libFuzzer
 * (or replay.c) calls, FZ_CHECK (a broken invariant aborts, naming the
 * file, the line and the condition, which libFuzzer reports as a crash)
 * and the check that a dumpcheck finding is well formed.
 */
#ifndef DK_FUZZ_H
#define DK_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dkcheck.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define	FZ_CHECK(cond) do {						\
	if (!(cond))							\
		fz_fail(__FILE__, __LINE__, #cond);			\
} while (0)

static inline void
fz_fail(const char *file, int line, const char *what)
{
	fprintf(stderr, "%s:%d: invariant broken: %s\n", file, line, what);
	abort();
}

/* A finding has a code the engine lists and a terminated message. */
static inline void
fz_finding(void *arg, const struct dk_finding *f)
{
	const struct dk_check_code *k;
	int known = 0;

	(void)arg;
	for (size_t i = 0; (k = dk_check_code_at(i)) != NULL; i++)
		known |= strcmp(k->code, f->code) == 0;
	FZ_CHECK(known);
	FZ_CHECK(memchr(f->msg, '\0', sizeof(f->msg)) != NULL);
}

#endif /* DK_FUZZ_H */
