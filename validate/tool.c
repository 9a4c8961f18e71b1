/*
 * tool.c -- see tool.h.  What every tool does the same way, once: the
 * tools keep only what is their own (options, texts, their job).
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tool.h"

int
tool_option(const struct tool *t, int c, char *const *argv)
{
	switch (c) {
	case 'h':
		printf("%s\n%s", t->usage, t->help);
		return tool_finish(t, TOOL_OK);
	case 'V':
		printf("%s (dumpkit) %s\n", t->name, dumpkit_version());
		return tool_finish(t, TOOL_OK);
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
tool_iso_time(uint64_t t, char *buf, size_t n)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if ((uint64_t)tt != t || gmtime_r(&tt, &tm) == NULL ||
	    strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, n, "?");
	return buf;
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
	const char *why = ferror(stdout) ? "write error" : NULL;

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

int
tool_parse_page_size(const struct tool *t, const char *arg, uint32_t *v)
{
	uint64_t n;

	if (dk_parse_size(arg, &n) == 0 && n >= 1024 && n <= 65536 &&
	    (n & (n - 1)) == 0) {
		*v = (uint32_t)n;
		return 0;
	}
	return tool_usage_error(t, "--page-size: expected a power of two "
	    "from 1K to 64K, found '%s'", arg);
}

/* ---------------------------------------------------------------------- */
/* Progress.                                                               */

static double
seconds_since(const struct timespec *t0, const struct timespec *t)
{
	return (double)(t->tv_sec - t0->tv_sec) +
	    (double)(t->tv_nsec - t0->tv_nsec) / 1e9;
}

/* n bytes as "512 KiB", "1.6 GiB": three significant digits at most. */
static const char *
human(uint64_t n, char *buf, size_t len)
{
	static const char units[][4] = { "B", "KiB", "MiB", "GiB", "TiB",
	    "PiB", "EiB" };
	double v = (double)n;
	size_t u = 0;

	while (v >= 1024 && u + 1 < sizeof(units) / sizeof(units[0])) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, u == 0 || v >= 100 ? "%.0f %s" : "%.1f %s", v,
	    units[u]);
	return buf;
}

void
tool_progress_start(struct tool_progress *p, const struct tool *t,
    const char *what, const char *verb, uint64_t total, uint64_t min,
    int quiet)
{
	memset(p, 0, sizeof(*p));
	p->tool = t;
	p->what = what;
	p->verb = verb;
	p->total = total;
	p->on = !quiet && total >= min && isatty(STDERR_FILENO);
	clock_gettime(CLOCK_MONOTONIC, &p->start);
}

void
tool_progress(struct tool_progress *p, uint64_t done)
{
	struct timespec now;
	double el, rate;
	char a[32], b[32], r[32];

	p->done = done;
	if (!p->on)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (p->shown && seconds_since(&p->last, &now) < 0.2)
		return;
	p->last = now;
	el = seconds_since(&p->start, &now);
	fprintf(stderr, "\r\033[K%s: %s: ", p->tool->name, p->what);
	if (p->total > 0)
		fprintf(stderr, "%3u%%  %s of %s", (unsigned)(done >= p->total ?
		    100 : done * 100 / p->total), human(done, a, sizeof(a)),
		    human(p->total, b, sizeof(b)));
	else
		fprintf(stderr, "%s %s", human(done, a, sizeof(a)), p->verb);
	/* A rate from less than a second of work says nothing yet. */
	if (el >= 1 && done > 0) {
		rate = (double)done / el;
		fprintf(stderr, ", %s/s", human((uint64_t)rate, r, sizeof(r)));
		if (p->total > done)
			fprintf(stderr, ", %.0f s left",
			    (double)(p->total - done) / rate + 0.5);
	}
	fflush(stderr);
	p->shown = 1;
}

void
tool_progress_clear(struct tool_progress *p)
{
	if (p->shown) {
		fputs("\r\033[K", stderr);
		p->shown = 0;
	}
}

void
tool_progress_end(struct tool_progress *p, uint64_t done)
{
	struct timespec now;
	double el;
	char a[32], r[32];

	if (!p->on)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	el = seconds_since(&p->start, &now);
	fprintf(stderr, "\r\033[K%s: %s: %s %s in %.1f s", p->tool->name,
	    p->what, human(done, a, sizeof(a)), p->verb, el);
	if (el > 0)
		fprintf(stderr, ", %s/s", human((uint64_t)((double)done / el),
		    r, sizeof(r)));
	fputc('\n', stderr);
	p->shown = 0;
	p->on = 0;
}
