/*
 * tool.c -- see tool.h.  What every tool does the same way, once: the
 * tools keep only what is their own (options, texts, their job).
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tool.h"

int
tool_option(const struct tool *t, int c, char *const *argv)
{
	switch (c) {
	case 'h':
		printf("%s\n%s", t->usage, t->help);
		return TOOL_OK;
	case 'V':
		printf("%s (dumpkit) %s\n", t->name, dumpkit_version());
		return TOOL_OK;
	default:
		/* getopt_long named it already, unless told to be quiet. */
		if (opterr == 0 && optopt != 0)
			fprintf(stderr, "%s: -%c: unknown option or missing "
			    "argument\n", t->name, optopt);
		else if (opterr == 0)
			fprintf(stderr, "%s: %s: unknown option or missing "
			    "argument\n", t->name, argv[optind - 1]);
		fprintf(stderr, "%s", t->usage);
		return TOOL_USAGE;
	}
}

int
tool_usage_error(const struct tool *t, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", t->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n%s", t->usage);
	return TOOL_USAGE;
}

int
tool_open_exit(enum dk_status st)
{
	return st == DK_EINVAL || st == DK_EAMBIG ? TOOL_USAGE :
	    TOOL_UNUSABLE;
}

const char *
tool_endian_name(enum dk_endian e)
{
	return e == DK_BE ? "big-endian" : e == DK_LE ? "little-endian" :
	    "unknown";
}

void
tool_json_open(struct json *j, const struct tool *t, int with_version)
{
	json_open(j, stdout, 0);
	json_str(j, "tool", t->name);
	if (with_version)
		json_str(j, "version", dumpkit_version());
}

void
tool_json_exit(struct json *j, int rc)
{
	json_u64(j, "exit", (uint64_t)rc);
	json_end(j, 0);
}

int
tool_finish(const struct tool *t, int rc)
{
	/* An earlier failed write set the error flag; its errno is gone. */
	const char *why = ferror(stdout) ? "a write failed" : NULL;

	if (fflush(stdout) != 0 && why == NULL)
		why = strerror(errno);
	if (fclose(stdout) != 0 && why == NULL)
		why = strerror(errno);
	if (why == NULL)
		return rc;
	fprintf(stderr, "%s: standard output: %s\n", t->name, why);
	return rc < TOOL_UNUSABLE ? TOOL_UNUSABLE : rc;
}

int
tool_parse_size(const struct tool *t, const char *option, const char *arg,
    uint64_t *v)
{
	if (dk_parse_size(arg, v) == 0)
		return 0;
	fprintf(stderr, "%s: %s: expected a size (a number, optionally "
	    "with K, M, G, T or P), found '%s'\n", t->name, option, arg);
	return -1;
}
