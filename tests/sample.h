/*
 * sample.h -- DK_TEST_SAMPLE=N makes the large loop tests over the
 * fixture matrix run one iteration in N: those whose index is a multiple
 * of N.  Unset, empty or 1: every iteration.  CI's sanitizer pass sets
 * it to stay within its time budget; the plain pass runs everything.
 * The loop indexes interleave variants, kinds and containers, so a
 * stride that is prime to their counts still visits every family.
 */
#ifndef DK_TEST_SAMPLE_H
#define DK_TEST_SAMPLE_H

#include <stdlib.h>

static inline int
dk_test_sampled_out(int i)
{
	const char *s = getenv("DK_TEST_SAMPLE");
	long n = s != NULL && *s != '\0' ? strtol(s, NULL, 10) : 1;

	return n > 1 && i % n != 0;
}

#endif
