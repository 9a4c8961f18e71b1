/*
 * dumplayout -- does each dump header, as its original FreeBSD header
 * declared it with native C types, lay out on every ABI that wrote it
 * exactly as the fixed-width tables dumpkit reads it with?  And do two
 * dumps of one format written by different code mean the same thing?
 *
 * A thin tool over the layout engine (formats/ctlayout.h) and the
 * library's decoded header (dk_header_field).  docs/dumplayout.md.
 * This file is its command line; each job has its own file
 * (dumplayout.h).
 *
 * Exit status: 0 no unexpected difference (check) or no change of
 * meaning (compare), 1 unexpected differences or changes of meaning,
 * 2 a file could not be examined, 3 usage error.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctlayout.h"
#include "dumplayout.h"

static const char usage_text[] =
"usage: dumplayout list | abis\n"
"       dumplayout show HEADER [--abi ABI] [--header-version N] [--json]\n"
"       dumplayout check [HEADER...] [--abi ABI,...] [-q | -v] [--json]\n"
"       dumplayout compare OLD NEW [--arch ARCH] [--json]\n"
"       dumplayout c --abi ABI | offsets --abi ABI\n"
"       dumplayout --help | --version\n";

static const char help_text[] =
"Lay out each dump header as FreeBSD declared it, with native C types,\n"
"under the C rules of an ABI, and compare with the fixed-width layout\n"
"dumpkit reads (docs/dumplayout.md).\n"
"\n"
"  list                 the headers: name, versions, struct, writers\n"
"  abis                 the ABIs: byte order, C type sizes, typedefs\n"
"  show HEADER          the layout as pahole prints it: offsets, sizes,\n"
"                       holes, tail padding (default: each writer ABI)\n"
"  check [HEADER...]    every version on every ABI that wrote it: each\n"
"                       moved or resized field, hidden padding, size;\n"
"                       fails on any difference not listed as known\n"
"  compare OLD NEW      two dumps of one format, field by field: same\n"
"                       value, padding only, or a change of meaning\n"
"  c, offsets           for the compiler oracle: the declarations as C\n"
"                       with _Static_asserts, or the engine's offsets\n"
"\n"
"  -a, --abi ABI[,ABI]  the ABIs to use (`all`: every ABI)\n"
"  -n, --header-version N   show only version N of the header\n"
"  -A, --arch ARCH      compare: the dumps' architecture, if they cannot\n"
"                       tell\n"
"  -j, --json           one JSON document\n"
"  -q, --quiet          check: print only unexpected differences\n"
"  -v, --verbose        check: also say why each known difference is\n"
"                       there\n"
"  -h, --help           this text\n"
"  -V, --version        print the version\n"
"\n"
"Exit status: 0 no unexpected difference, or no change of meaning;\n"
"1 unexpected differences, or a change of meaning; 2 a file could not\n"
"be examined; 3 usage error.\n";

const struct tool dl_tool = { "dumplayout", usage_text, help_text };

/* "a,b c" or "all" into a space-separated list of known ABIs; 0 or -1. */
static int
parse_abis(struct dl_opts *o, const char *arg)
{
	char tmp[512], *p, *save = NULL;
	size_t n = 0;

	o->abibuf[0] = '\0';
	if (strcmp(arg, "all") == 0) {
		for (size_t i = 0; i < dk_ctabi_count(); i++)
			n += (size_t)snprintf(o->abibuf + n,
			    sizeof(o->abibuf) - n, "%s%s", n ? " " : "",
			    dk_ctabi_at(i)->name);
		o->abis = o->abibuf;
		return 0;
	}
	snprintf(tmp, sizeof(tmp), "%s", arg);
	for (p = strtok_r(tmp, ", ", &save); p != NULL;
	    p = strtok_r(NULL, ", ", &save)) {
		if (dk_ctabi_by_name(p) == NULL) {
			fprintf(stderr, "dumplayout: --abi: no ABI named '%s'; "
			    "the ABIs are:", p);
			for (size_t i = 0; i < dk_ctabi_count(); i++)
				fprintf(stderr, " %s", dk_ctabi_at(i)->name);
			fprintf(stderr, " (or all)\n");
			return -1;
		}
		if (n + strlen(p) + 2 > sizeof(o->abibuf))
			return -1;
		n += (size_t)snprintf(o->abibuf + n, sizeof(o->abibuf) - n,
		    "%s%s", n ? " " : "", p);
	}
	if (n == 0)
		return -1;
	o->abis = o->abibuf;
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "abi", required_argument, NULL, 'a' },
		{ "header-version", required_argument, NULL, 'n' },
		{ "arch", required_argument, NULL, 'A' },
		{ "json", no_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		TOOL_LONGOPTS_END
	};
	struct dl_opts o = { .hversion = -1 };
	const char *cmd;
	char *end;
	int c, rc, nargs;
	char **args;

	opterr = 0;	/* our messages name the tool, not its path */
	while ((c = getopt_long(argc, argv, "a:n:A:jqvhV", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'a':
			if (parse_abis(&o, optarg) != 0)
				return tool_usage_error(&dl_tool, "--abi: "
				    "expected ABI names separated by commas, "
				    "found '%s'", optarg);
			break;
		case 'n':
			errno = 0;
			o.hversion = (int)strtol(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || errno != 0 ||
			    o.hversion < 0 || o.hversion > 15)
				return tool_usage_error(&dl_tool,
				    "--header-version: expected a number from "
				    "0 to 15, found '%s'", optarg);
			break;
		case 'A':
			o.arch = optarg;
			break;
		case 'j':
			o.json = 1;
			break;
		case 'q':
			o.quiet = 1;
			break;
		case 'v':
			o.verbose = 1;
			break;
		default:
			return tool_option(&dl_tool, c, argv);
		}
	}
	if (optind == argc)
		return tool_usage_error(&dl_tool, "expected a command");
	cmd = argv[optind];
	args = argv + optind + 1;
	nargs = argc - optind - 1;
	if (strcmp(cmd, "list") == 0 && nargs == 0)
		rc = dl_list(&o);
	else if (strcmp(cmd, "abis") == 0 && nargs == 0)
		rc = dl_abis(&o);
	else if (strcmp(cmd, "show") == 0 && nargs == 1)
		rc = dl_show(&o, args[0]);
	else if (strcmp(cmd, "check") == 0)
		rc = dl_check(&o, args, nargs);
	else if (strcmp(cmd, "compare") == 0 && nargs == 2)
		rc = dl_compare(&o, args[0], args[1]);
	else if (strcmp(cmd, "c") == 0 && nargs == 0)
		rc = dl_c(&o, 1);
	else if (strcmp(cmd, "offsets") == 0 && nargs == 0)
		rc = dl_c(&o, 0);
	else
		return tool_usage_error(&dl_tool, "unknown command, or wrong "
		    "number of arguments: '%s'", cmd);
	return tool_finish(&dl_tool, rc);
}
