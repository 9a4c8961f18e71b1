/*
 * sample.h -- DK_TEST_SAMPLE=N makes the large loop tests over the
 * fixture matrix run one iteration in N: those whose index is a multiple
 * of N.  Unset, empty or 1: every iteration.  CI's sanitizer pass sets
 * it to stay within its time budget; the plain pass runs everything.
 * The loop indexes interleave variants, kinds and containers, so a
 * stride that is prime to their counts still visits every family.
 *
 * A sampled loop registers only the iterations that run (each costs a
 * fork in Check, even one that would return at once):
 *
 *	tcase_add_loop_test(tc, test_x, 0, dk_test_loop_end(n));
 *
 * and its body's first statement maps the loop's index to the matrix's:
 *
 *	_i = dk_test_index(_i);
 */
#ifndef DK_TEST_SAMPLE_H
#define DK_TEST_SAMPLE_H

#include <stdlib.h>

/* The stride N of DK_TEST_SAMPLE, 1 when unset, empty or below 2. */
static inline int
dk_test_stride(void)
{
	const char *s = getenv("DK_TEST_SAMPLE");
	long n = s != NULL && *s != '\0' ? strtol(s, NULL, 10) : 1;

	return n > 1 && n < 1000000 ? (int)n : 1;
}

/* How many of a loop's n iterations run: those with index 0, N, 2N... */
static inline int
dk_test_loop_end(int n)
{
	int s = dk_test_stride();

	return n <= 0 ? 0 : (n - 1) / s + 1;
}

/* The matrix index of the loop's iteration i. */
static inline int
dk_test_index(int i)
{
	return i * dk_test_stride();
}

#endif
