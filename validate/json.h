/*
 * json.h -- a small streaming JSON writer for the tools' --json modes.
 * It tracks nesting to place commas, and escapes strings per RFC 8259.
 */
#ifndef DK_JSON_H
#define DK_JSON_H

#include <stdint.h>
#include <stdio.h>

#define	JSON_MAX_DEPTH	16

struct json {
	FILE	*fp;
	int	 depth;
	int	 first[JSON_MAX_DEPTH];	/* no member written yet at depth */
	int	 pretty;
};

/* Start writing to fp. */
void	json_init(struct json *, FILE *);
/* Start a document on fp: its top-level object (array: 1) is open. */
void	json_open(struct json *, FILE *, int array);
/* Open an object or array; key is NULL inside an array or at the top. */
void	json_begin(struct json *, const char *key, int array);
/* Close the innermost object or array. */
void	json_end(struct json *, int array);
/* Members: a string (NULL writes null), an unsigned number, a boolean. */
void	json_str(struct json *, const char *key, const char *);
void	json_strn(struct json *, const char *key, const char *, size_t);
void	json_u64(struct json *, const char *key, uint64_t);
/* A signed number. */
void	json_i64(struct json *, const char *key, int64_t);
void	json_bool(struct json *, const char *key, int);
/* A number written as a "0x..." string: addresses exceed 2^53. */
void	json_hex(struct json *, const char *key, uint64_t);

#endif /* DK_JSON_H */
