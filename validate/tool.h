/*
 * tool.h -- the conventions the five tools share (dumpinfo, dumpcheck,
 * dumplayout, dumpconv, dumpgen): their exit statuses, the options
 * every tool takes (-h, -V), usage errors, and the frame of their JSON
 * documents.  Linked into each tool, as the JSON writer is.
 */
#ifndef DK_TOOL_H
#define DK_TOOL_H

#include <stdint.h>
#include <time.h>

#include "dumpkit.h"
#include "json.h"

/* The exit statuses, as each manual's EXIT STATUS section gives them. */
enum tool_exit {
	TOOL_OK = 0,		/* success */
	TOOL_NEGATIVE = 1,	/* a negative answer: findings (dumpcheck,
				 * dumplayout), an address that could not
				 * be read (dumpinfo) */
	TOOL_UNUSABLE = 2,	/* an input or output unusable */
	TOOL_USAGE = 3,		/* usage error (or an architecture to name) */
};

/* A tool: its name, as its messages start, and its texts for -h. */
struct tool {
	const char	*name;		/* "dumpcheck" */
	const char	*usage;		/* "usage: ...\n", the synopsis */
	const char	*help;		/* what --help prints after it */
};

/*
 * The last entries of a tool's getopt_long table: --help and --version,
 * which tool_option() answers, and the end.
 */
#define	TOOL_LONGOPTS_END						\
	{ "help", no_argument, NULL, 'h' },				\
	{ "version", no_argument, NULL, 'V' },				\
	{ NULL, 0, NULL, 0 }

/*
 * The end of a tool's option switch, for c as getopt_long returned it:
 * 'h' prints the usage and the help on stdout, 'V' "TOOL (dumpkit)
 * VERSION" (both TOOL_OK, through tool_finish()); anything else is an
 * option getopt_long refused: the usage on stderr, TOOL_USAGE.  With opterr 0, getopt_long
 * said nothing, and this names the option (argv: the tool's).
 */
int	tool_option(const struct tool *, int c, char *const *argv);
/* "TOOL: message\n" and the usage on stderr; TOOL_USAGE. */
int	tool_usage_error(const struct tool *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/*
 * The exit status of a dump the library would not open: TOOL_USAGE
 * where the user must say more (DK_EINVAL, DK_EAMBIG: an architecture
 * to name), else TOOL_UNUSABLE.
 */
int	tool_open_exit(enum dk_status);

/*
 * The end of every tool's main: flush and close standard output; if any
 * write to it failed (a full disk, /dev/full, a closed pipe), say so on
 * stderr and return TOOL_UNUSABLE where rc was a lesser status.  Every
 * tool returns through this, so no write to stdout goes unchecked.
 */
int	tool_finish(const struct tool *, int rc);

/*
 * Parse a length option, "N" or "N" with a K, M, G, T or P suffix
 * (powers of 1024, "MiB" as "M"; 0x for hex), as dk_parse_size() does;
 * on failure say which option and what was found, and return -1.
 */
int	tool_parse_size(const struct tool *, const char *option,
	    const char *arg, uint64_t *v);
/*
 * Parse --page-size: a power of two from 1K to 64K, as a size; 0, or
 * TOOL_USAGE after tool_usage_error() saying what was found.
 */
int	tool_parse_page_size(const struct tool *, const char *arg,
	    uint32_t *v);

/*
 * The progress line of a long-running tool, the same in every tool: on
 * stderr, only where stderr is a terminal and not --quiet, at most five
 * redraws a second:
 *
 *	dumpconv: vmcore.3:  42%  1.6 GiB of 3.9 GiB, 410 MiB/s, 6 s left
 *
 * the rate and the time left only once a second has passed (before that
 * there is no rate worth printing); tool_progress_end() replaces it by a
 * final line whose numbers are exact.  The line goes before any other
 * output on stderr or stdout: tool_progress_clear() erases it first.
 */
struct tool_progress {
	const struct tool *tool;
	const char	*what;		/* the file, as the line names it */
	const char	*verb;		/* "written", "checked" */
	uint64_t	 total;		/* bytes expected; 0: unknown */
	uint64_t	 done;
	int		 on;		/* drawing at all */
	int		 shown;		/* a line is on the screen */
	struct timespec	 start, last;
};

/*
 * Start p for what (total bytes, 0 if not known); quiet, or a total under
 * min bytes (too short to need one), or stderr not a terminal: no line.
 */
void	tool_progress_start(struct tool_progress *p, const struct tool *,
	    const char *what, const char *verb, uint64_t total, uint64_t min,
	    int quiet);
/* done bytes so far: redraw if the last redraw is 0.2 s old. */
void	tool_progress(struct tool_progress *p, uint64_t done);
/* Erase the line, if one is shown, so that other output can follow. */
void	tool_progress_clear(struct tool_progress *p);
/*
 * The final line, with exact figures ("3.9 GiB written in 9.6 s,
 * 412 MiB/s") where a line was drawn; what follows (an fsync) draws none.
 */
void	tool_progress_end(struct tool_progress *p, uint64_t done);

/*
 * t (seconds since the epoch) in ISO 8601 UTC, "2026-12-01T21:47:45Z",
 * into buf and returned; "?" where the host's time_t cannot hold it.
 */
const char *tool_iso_time(uint64_t t, char *buf, size_t n);

/* "big-endian", "little-endian" or "unknown". */
const char *tool_endian_name(enum dk_endian);

/*
 * Open a JSON document on stdout, its top-level object open, with the
 * member "tool" (and "version" if with_version).
 */
void	tool_json_open(struct json *, const struct tool *, int with_version);
/* The document's last member, "exit": rc; and its end. */
void	tool_json_exit(struct json *, int rc);

#endif /* DK_TOOL_H */
