/*
 * parse.c -- numbers and sizes as the tools take them on the command
 * line.  Strict: the whole string must parse, and overflow is an error.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "private.h"

int
dk_parse_u64(const char *s, uint64_t *v)
{
	char *end;
	unsigned long long n;

	if (s == NULL || *s == '\0' || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	n = strtoull(s, &end, 0);
	if (errno != 0 || *end != '\0')
		return -1;
	*v = n;
	return 0;
}

DK_EXPORT int
dk_parse_size(const char *s, uint64_t *v)
{
	static const char units[] = "KMGTP";
	char buf[64];
	size_t n;
	const char *u;
	uint64_t x;
	unsigned shift = 0;

	if (s == NULL || (n = strlen(s)) == 0 || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n + 1);
	if (n >= 2 && (buf[n - 1] == 'B' || buf[n - 1] == 'b') &&
	    strchr("iI", buf[n - 2]) != NULL)
		buf[n -= 2] = '\0';		/* "GiB" -> "G" */
	u = strchr(units, toupper((unsigned char)buf[n - 1]));
	if (n > 1 && u != NULL) {
		shift = 10 * (unsigned)(u - units + 1);
		buf[n - 1] = '\0';
	}
	if (dk_parse_u64(buf, &x) != 0)
		return -1;
	if (shift != 0 && x > (UINT64_MAX >> shift))
		return -1;
	*v = x << shift;
	return 0;
}
