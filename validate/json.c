/*
 * json.c -- see json.h.  Addresses are written as hex strings because
 * JSON numbers lose precision above 2^53 in most readers.
 */
#include <inttypes.h>
#include <string.h>

#include "json.h"

void
json_init(struct json *j, FILE *fp)
{
	memset(j, 0, sizeof(*j));
	j->fp = fp;
	j->first[0] = 1;
}

void
json_open(struct json *j, FILE *fp, int array)
{
	json_init(j, fp);
	json_begin(j, NULL, array);
}

static void
quote(struct json *j, const char *s, size_t n)
{
	fputc('"', j->fp);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		switch (c) {
		case '"':
			fputs("\\\"", j->fp);
			break;
		case '\\':
			fputs("\\\\", j->fp);
			break;
		case '\n':
			fputs("\\n", j->fp);
			break;
		case '\r':
			fputs("\\r", j->fp);
			break;
		case '\t':
			fputs("\\t", j->fp);
			break;
		default:
			/* Controls, and bytes that are not ASCII: the dump's
			 * text has no declared encoding, so keep it exact. */
			if (c < 0x20 || c >= 0x7f)
				fprintf(j->fp, "\\u%04x", c);
			else
				fputc(c, j->fp);
		}
	}
	fputc('"', j->fp);
}

static void
member(struct json *j, const char *key)
{
	if (!j->first[j->depth])
		fputc(',', j->fp);
	j->first[j->depth] = 0;
	if (j->depth > 0) {
		fputc('\n', j->fp);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->fp);
	}
	if (key != NULL) {
		quote(j, key, strlen(key));
		fputs(": ", j->fp);
	}
}

void
json_begin(struct json *j, const char *key, int array)
{
	member(j, key);
	fputc(array ? '[' : '{', j->fp);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->first[j->depth] = 1;
}

void
json_end(struct json *j, int array)
{
	int empty = j->first[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (!empty) {
		fputc('\n', j->fp);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->fp);
	}
	fputc(array ? ']' : '}', j->fp);
	if (j->depth == 0)
		fputc('\n', j->fp);
}

void
json_strn(struct json *j, const char *key, const char *s, size_t n)
{
	member(j, key);
	quote(j, s, n);
}

void
json_str(struct json *j, const char *key, const char *s)
{
	member(j, key);
	if (s == NULL)
		fputs("null", j->fp);
	else
		quote(j, s, strlen(s));
}

void
json_u64(struct json *j, const char *key, uint64_t v)
{
	member(j, key);
	fprintf(j->fp, "%" PRIu64, v);
}

void
json_i64(struct json *j, const char *key, int64_t v)
{
	member(j, key);
	fprintf(j->fp, "%" PRId64, v);
}

void
json_bool(struct json *j, const char *key, int v)
{
	member(j, key);
	fputs(v ? "true" : "false", j->fp);
}

void
json_hex(struct json *j, const char *key, uint64_t v)
{
	member(j, key);
	fprintf(j->fp, "\"0x%" PRIx64 "\"", v);	/* "0x0" too, not "0" */
}
