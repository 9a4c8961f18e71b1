/*
 * tool.h -- the conventions the five tools share (dumpinfo, dumpcheck,
 * dumplayout, dumpconv, dumpgen): their exit statuses, the options
 * every tool takes (-h, -V), usage errors, and the frame of their JSON
 * documents.  Linked into each tool, as the JSON writer is.
 */
#ifndef DK_TOOL_H
#define DK_TOOL_H

#include <stdint.h>

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
 * VERSION" (both TOOL_OK); anything else is an option getopt_long
 * refused: the usage on stderr, TOOL_USAGE.  With opterr 0, getopt_long
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
