/*
 * dumpcheck -- is a kernel dump whole and self-consistent, and if not,
 * what exactly is wrong and where.
 *
 * A thin tool over the validation engine (formats/dkcheck.h): parse the
 * options, check each file, print its findings as text or as one JSON
 * document.  The codes are listed in docs/dumpcheck.md.
 *
 * Exit status: 0 no finding at error severity in any file, 1 findings
 * at error severity, 2 a file could not be examined (unreadable, not a
 * dump dumpkit knows), 3 usage error (or an architecture to name).
 */
#include <getopt.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dkcheck.h"
#include "dumpkit.h"
#include "kthreads.h"
#include "tool.h"

static const char usage_text[] =
"usage: dumpcheck [--json] [--quick] [--pattern SEED] [--checksum]\n"
"                 [--max-findings N] [--arch ARCH] [--kernel FILE]\n"
"                 [--page-size N]\n"
"                 [--quiet | --verbose] [--no-progress] [--set] FILE...\n"
"       dumpcheck --list-codes\n"
"       dumpcheck --help | --version\n";

static const char help_text[] =
"Check that each kernel dump is whole and self-consistent: header,\n"
"sections, file size, dump_avail, page bitmap, page tables, page data.\n"
"Each finding has a code (docs/dumpcheck.md), a severity, the byte\n"
"offset in the file and what was expected and found.\n"
"\n"
"  -j, --json           one JSON document for all files\n"
"  -Q, --quick          headers, sizes, bitmaps and the page-table area\n"
"                       only; no page data is read\n"
"  -p, --pattern SEED   compare every page with the fixture pattern of\n"
"                       dumpgen --seed SEED (docs/fixture-pattern.md)\n"
"  -c, --checksum       print a digest of the memory image, equal for a\n"
"                       dump and its conversion by dumpconv\n"
"  -m, --max-findings N report at most N findings per file\n"
"  -a, --arch ARCH      the dump's architecture, where the dump cannot tell\n"
"  -k, --kernel FILE    the kernel's ELF image, to decide the architecture\n"
"      --page-size N    the page size, where the dump cannot tell (an\n"
"                       aarch64 or ppc64 vmcore without VMCOREINFO)\n"
"  -q, --quiet          print only findings at error severity, and no\n"
"                       progress line\n"
"  -v, --verbose        also say how deep each file was checked and how\n"
"                       much page data was read\n"
"      --no-progress    no progress line on a terminal\n"
"  -s, --set            the FILEs are the parts of one dump (the files of\n"
"                       a makedumpfile split set), checked as one\n"
"  -L, --list-codes     list every finding code and its severity\n"
"  -h, --help           this text\n"
"  -V, --version        print the version\n"
"\n"
"Exit status: 0 no error, 1 findings at error severity, 2 a file could\n"
"not be examined, 3 usage error.\n";

static const struct tool tool = { "dumpcheck", usage_text, help_text };

struct opts {
	int		 json;
	int		 quiet;
	int		 verbose;
	int		 progress;
	int		 set;
	struct dk_check_opts check;
};

/* What the callbacks need: where to print, and the file's name. */
struct out {
	const struct opts *o;
	struct json	*j;
	const char	*path;
	struct tool_progress pr;
};

static void
on_finding(void *arg, const struct dk_finding *f)
{
	struct out *w = arg;

	tool_progress_clear(&w->pr);
	if (w->j != NULL) {
		json_begin(w->j, NULL, 0);
		json_str(w->j, "code", f->code);
		json_str(w->j, "severity", dk_severity_name(f->severity));
		if (f->has_offset)
			json_hex(w->j, "offset", f->offset);
		else
			json_str(w->j, "offset", NULL);
		json_u64(w->j, "count", f->count);
		json_str(w->j, "message", f->msg);
		json_end(w->j, 0);
		return;
	}
	if (w->o->quiet && f->severity != DK_SEV_ERROR)
		return;
	if (f->has_offset)
		printf("  %-7s %#-12jx %s: %s\n", dk_severity_name(f->severity),
		    (uintmax_t)f->offset, f->code, f->msg);
	else
		printf("  %-7s %-12s %s: %s\n", dk_severity_name(f->severity),
		    "-", f->code, f->msg);
}

static void
on_progress(void *arg, uint64_t done, uint64_t total)
{
	struct out *w = arg;

	w->pr.total = total;
	tool_progress(&w->pr, done);
}

static void
list_codes(void)
{
	const struct dk_check_code *k;

	for (size_t i = 0; (k = dk_check_code_at(i)) != NULL; i++)
		printf("%-28s %-8s %s\n", k->code, dk_severity_name(k->severity),
		    k->meaning);
}

static void
kfinding(struct out *w, const char *code, enum dk_severity sev,
    struct dk_check_result *r, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* A finding of the --kernel checks, told and counted as the engine's are. */
static void
kfinding(struct out *w, const char *code, enum dk_severity sev,
    struct dk_check_result *r, const char *fmt, ...)
{
	struct dk_finding f = { code, sev, 0, 0, 1, "" };
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f.msg, sizeof(f.msg), fmt, ap);
	va_end(ap);
	r->nerrors += sev == DK_SEV_ERROR;
	r->nwarnings += sev == DK_SEV_WARNING;
	r->nnotes += sev == DK_SEV_NOTE;
	on_finding(w, &f);
}

/* A version string s on one line in buf (256 bytes): newlines, spaces. */
static const char *
one_line(char *buf, const char *s)
{
	snprintf(buf, 256, "%s", s);
	for (char *p = buf; *p != '\0'; p++)
		if (*p == '\n')
			*p = ' ';
	return buf;
}

/*
 * --kernel: does the image match the dump (its version string at its
 * address and in the kerneldumpheader, its build-id note), and can its
 * symbols' process list be walked?  Its findings counted into r.
 */
static void
check_kernel(const struct opts *o, struct out *w, const char *path,
    struct dk_check_result *r)
{
	const char *k = o->check.kernel;
	struct dk_ksym v = { "version", 0, 0 };
	struct dk_kthreads kt;
	enum dk_status kst;
	struct dk_dump *d;
	struct dk_err err;
	char kv[256] = "", dv[256] = "", pk[256], pd[256];
	uint8_t id[64];
	size_t n = 0;
	int compared = 0;

	if (dk_open(path, &(struct dk_open_opts){ .arch = o->check.arch,
	    .kernel = k, .page_size = o->check.page_size }, &d,
	    &err) != DK_OK)
		return;		/* the engine said why */
	/* The version string: the image's, 16 bytes at a time. */
	if (dk_kernel_symbols(k, &v, 1, &err) == DK_OK && v.found) {
		while (n + 16 < sizeof(kv) && dk_kernel_bytes(k, v.value + n,
		    kv + n, 16, &err) == DK_OK && memchr(kv + n, '\0', 16) ==
		    NULL)
			n += 16;
		/* A string that ends near its section's end: byte by byte. */
		while (n + 1 < sizeof(kv) && memchr(kv, '\0', n) == NULL &&
		    dk_kernel_bytes(k, v.value + n, kv + n, 1, &err) == DK_OK)
			n++;
		kv[sizeof(kv) - 1] = '\0';
		n = strlen(kv);
	}
	if (n > 0 && dk_read_va(d, v.value, dv, n + 1, &err) == DK_OK) {
		compared = 1;
		dv[sizeof(dv) - 1] = '\0';
		if (memcmp(kv, dv, n + 1) != 0)
			kfinding(w, "kernel.version-mismatch", DK_SEV_ERROR,
			    r, "%s: version at %#jx: the kernel has \"%s\", "
			    "the dump \"%s\"", k, (uintmax_t)v.value,
			    one_line(pk, kv), one_line(pd, dv));
	}
	if (n > 0 && dk_kdh(d) != NULL) {
		char hv[256];
		size_t m;

		snprintf(hv, sizeof(hv), "%s", dk_kdh(d)->versionstring);
		m = strlen(hv) < n ? strlen(hv) : n;
		compared = 1;
		if (m == 0 || strncmp(hv, kv, m) != 0)
			kfinding(w, "kernel.version-mismatch", DK_SEV_ERROR,
			    r, "%s: the kerneldumpheader's versionstring "
			    "is \"%s\", the kernel's \"%s\"", k,
			    one_line(pd, hv), one_line(pk, kv));
	}
	/* The build-id: the note at its section's address. */
	kst = dk_kthreads_load(d, k, 0, &kt, &err);
	if (kst == DK_OK && kt.layout.absurd)
		kfinding(w, "kernel.dwarf-layout", DK_SEV_WARNING, r,
		    "%s", kt.layout_note);
	if (kst != DK_OK) {
		/* An older kernel, without the debugger offsets: no list. */
		if (err.code != DK_EUNSUP)
			kfinding(w, "kernel.threads", DK_SEV_ERROR, r,
			    "%s", err.msg);
		memset(&kt, 0, sizeof(kt));
		(void)dk_kernel_build_id(k, kt.build_id, sizeof(kt.build_id),
		    &kt.build_id_len, &kt.build_id_va, &err);
	}
	if (kt.build_id_len > 0 && kt.build_id_len <= sizeof(id) &&
	    dk_read_va(d, kt.build_id_va + 16, id, kt.build_id_len, &err) ==
	    DK_OK) {
		char a[130], b[130];

		compared = 1;
		for (size_t i = 0; i < kt.build_id_len; i++) {
			snprintf(a + 2 * i, 3, "%02x", kt.build_id[i]);
			snprintf(b + 2 * i, 3, "%02x", id[i]);
		}
		if (memcmp(id, kt.build_id, kt.build_id_len) != 0)
			kfinding(w, "kernel.build-id-mismatch", DK_SEV_ERROR,
			    r, "%s: build-id %s, the dump's memory at %#jx "
			    "has %s", k, a, (uintmax_t)kt.build_id_va + 16, b);
	}
	if (!compared)
		kfinding(w, "kernel.unverified", DK_SEV_NOTE, r, "%s: "
		    "neither its version string nor its build-id note is in "
		    "the dump", k);
	dk_kthreads_free(&kt);
	dk_close(d);
}

/* Check one file (or, n > 1, the set of n files at paths); its exit status. */
static int
check_one(const struct opts *o, struct json *j, const char *const *paths,
    size_t n)
{
	const char *path = paths[0];
	struct dk_check_opts co = o->check;
	struct dk_check_result res;
	struct out w = { o, j, path, { 0 } };
	struct dk_err err;
	enum dk_status st;

	/* Any size: the check of a small file is quick, its line brief. */
	tool_progress_start(&w.pr, &tool, path, "checked", 0, 0, o->quiet ||
	    !o->progress);
	co.finding = on_finding;
	co.progress = on_progress;
	co.arg = &w;
	if (j != NULL) {
		json_begin(j, NULL, 0);
		json_str(j, "file", path);
		if (n > 1)
			json_u64(j, "set_files", n);
		json_begin(j, "findings", 1);
	}
	st = n > 1 ? dk_check_set(paths, n, &co, &res, &err) :
	    dk_check(path, &co, &res, &err);
	if (st == DK_OK && o->check.kernel != NULL)
		check_kernel(o, &w, path, &res);
	if (st == DK_OK && w.pr.shown)
		tool_progress_end(&w.pr, w.pr.done);
	tool_progress_clear(&w.pr);
	if (j != NULL) {
		json_end(j, 1);
		json_bool(j, "examined", st == DK_OK);
		if (st != DK_OK) {
			json_str(j, "error", err.msg);
			json_end(j, 0);
		}
	}
	if (st != DK_OK) {
		fprintf(stderr, "dumpcheck: %s\n", err.msg);
		if (j == NULL)
			printf("%s: not examined\n", path);
		return tool_open_exit(st);
	}
	if (j != NULL) {
		json_str(j, "format", res.format);
		json_str(j, "arch", res.arch);
		json_u64(j, "version", res.version);
		json_u64(j, "page_size", res.page_size);
		json_u64(j, "file_size", res.file_size);
		json_u64(j, "pages_dumped", res.npages);
		json_u64(j, "pages_in_file", res.npages_present);
		json_bool(j, "quick", o->check.quick);
		json_bool(j, "deep", res.deep);
		json_u64(j, "bytes_read", res.bytes_read);
		json_u64(j, "errors", res.nerrors);
		json_u64(j, "warnings", res.nwarnings);
		json_u64(j, "notes", res.nnotes);
		json_u64(j, "suppressed", res.nsuppressed);
		if (res.has_checksum) {
			char h[40];

			snprintf(h, sizeof(h), "%016" PRIx64 "%016" PRIx64,
			    res.checksum[0], res.checksum[1]);
			json_str(j, "checksum", h);
		} else
			json_str(j, "checksum", NULL);
		json_end(j, 0);
	} else {
		if (res.nsuppressed > 0 && !o->quiet)
			printf("  ... %ju more findings not shown "
			    "(--max-findings)\n", (uintmax_t)res.nsuppressed);
		if (res.has_checksum)
			printf("%s: checksum %016" PRIx64 "%016" PRIx64 "\n",
			    path, res.checksum[0], res.checksum[1]);
		if (!o->quiet || res.nerrors > 0)
			printf("%s: %s %s version %u, %ju pages: %ju error%s, "
			    "%ju warning%s, %ju note%s%s\n", path, res.format,
			    res.arch, res.version, (uintmax_t)res.npages,
			    (uintmax_t)res.nerrors, res.nerrors == 1 ? "" : "s",
			    (uintmax_t)res.nwarnings,
			    res.nwarnings == 1 ? "" : "s",
			    (uintmax_t)res.nnotes, res.nnotes == 1 ? "" : "s",
			    o->check.quick ? " (--quick)" : "");
		if (o->verbose)
			printf("%s: page tables %schecked; %ju bytes of page "
			    "data read\n", path, res.deep ? "" : "not ",
			    (uintmax_t)res.bytes_read);
	}
	return res.nerrors > 0 ? TOOL_NEGATIVE : TOOL_OK;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "quick", no_argument, NULL, 'Q' },
		{ "pattern", required_argument, NULL, 'p' },
		{ "checksum", no_argument, NULL, 'c' },
		{ "max-findings", required_argument, NULL, 'm' },
		{ "arch", required_argument, NULL, 'a' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "page-size", required_argument, NULL, 0x100 },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "no-progress", no_argument, NULL, 'P' },
		{ "set", no_argument, NULL, 's' },
		{ "list-codes", no_argument, NULL, 'L' },
		TOOL_LONGOPTS_END
	};
	struct opts o = { .progress = 1 };
	struct json j;
	int c, rc = TOOL_OK;
	char *end;

	/* getopt names the program by argv[0]: the tool, not its path. */
	argv[0] = "dumpcheck";
	while ((c = getopt_long(argc, argv, "jQp:cm:a:k:qvsLhV", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'j':
			o.json = 1;
			break;
		case 'Q':
			o.check.quick = 1;
			break;
		case 'p':
			o.check.pattern = 1;
			o.check.seed = strtoull(optarg, &end, 0);
			if (*optarg == '\0' || *end != '\0' || *optarg == '-')
				return tool_usage_error(&tool, "--pattern: "
				    "expected a seed number, found '%s'",
				    optarg);
			break;
		case 'c':
			o.check.checksum = 1;
			break;
		case 'm':
			o.check.max_findings = strtoull(optarg, &end, 0);
			if (*optarg == '\0' || *end != '\0' || *optarg == '-' ||
			    o.check.max_findings == 0)
				return tool_usage_error(&tool,
				    "--max-findings: expected a count of at "
				    "least 1, found '%s'", optarg);
			break;
		case 'a':
			o.check.arch = optarg;
			break;
		case 'k':
			o.check.kernel = optarg;
			break;
		case 0x100:
			if (tool_parse_page_size(&tool, optarg,
			    &o.check.page_size) != 0)
				return TOOL_USAGE;	/* it said why */
			break;
		case 'q':
			o.quiet = 1;
			break;
		case 'v':
			o.verbose = 1;
			break;
		case 'P':
			o.progress = 0;
			break;
		case 's':
			o.set = 1;
			break;
		case 'L':
			list_codes();
			return tool_finish(&tool, TOOL_OK);
		default:
			return tool_option(&tool, c, argv);
		}
	}
	if (optind == argc)
		return tool_usage_error(&tool, "expected at least one FILE");
	if (o.check.quick && (o.check.pattern || o.check.checksum))
		return tool_usage_error(&tool, "--quick reads no page data: it "
		    "cannot go with --pattern or --checksum");
	if (o.json) {
		tool_json_open(&j, &tool, 1);
		json_begin(&j, "files", 1);
	}
	for (int i = optind; i < argc; i++) {
		int r = check_one(&o, o.json ? &j : NULL,
		    (const char *const *)argv + i, o.set ? (size_t)(argc - i) :
		    1);

		if (o.set)
			i = argc;

		/* The worst status wins: usage, then trouble, then findings. */
		if (r == TOOL_USAGE || (r == TOOL_UNUSABLE &&
		    rc != TOOL_USAGE) || (r == TOOL_NEGATIVE && rc == TOOL_OK))
			rc = r;
		fflush(stdout);
	}
	if (o.json) {
		json_end(&j, 1);
		tool_json_exit(&j, rc);
	}
	return tool_finish(&tool, rc);
}
