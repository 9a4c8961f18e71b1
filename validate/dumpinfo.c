/*
 * dumpinfo -- print what libdumpkit knows of a dump, or read its memory.
 *
 * A thin tool over the public API (dumpkit.h).  Exit status: 0 success,
 * 1 an address could not be read, 2 the file could not be examined,
 * 3 usage error.
 */
#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dumpkit.h"
#include "tool.h"

#define	MSGBUF_MAX	(4u << 20)	/* bytes of msgbuf scanned */
#define	MSGBUF_LINES	10
#define	READ_MAX	(64u << 20)	/* largest --read-* length */

static const char usage_text[] =
"usage: dumpinfo [--json] [--arch ARCH] [--kernel FILE] FILE\n"
"       dumpinfo --read-pa ADDR[:LEN] [--raw] [options] FILE\n"
"       dumpinfo --read-va ADDR[:LEN] [--raw] [options] FILE\n"
"       dumpinfo --help | --version\n";

static const char help_text[] =
"Describe a kernel dump, or print its memory like kgdb's x command.\n"
"\n"
"  -j, --json           one JSON document instead of text\n"
"  -p, --read-pa A[:N]  print N bytes (default 64) of physical memory at A\n"
"  -r, --read-va A[:N]  print N bytes of kernel virtual memory at A\n"
"      --raw            write the bytes read, unformatted, to stdout\n"
"  -a, --arch ARCH      the dump's architecture, where the dump cannot tell\n"
"  -k, --kernel FILE    the kernel's ELF image, to decide the architecture\n"
"  -q, --quiet          print only errors\n"
"  -v, --verbose        also list every run of dumped pages\n"
"  -h, --help           this text\n"
"  -V, --version        print the version\n"
"\n"
"Exit status: 0 success, 1 an address could not be read, 2 the file\n"
"could not be examined, 3 usage error.  DUMPKIT_TRACE=1 in the\n"
"environment traces every parsing decision to stderr.\n";

static const struct tool tool = { "dumpinfo", usage_text, help_text };

struct opts {
	int		 json;
	int		 raw;
	int		 quiet;		/* print only errors */
	int		 verbose;
	int		 read;		/* 0, 'p' or 'v' */
	const char	*path;
	uint64_t	 addr;
	uint64_t	 len;
	struct dk_open_opts open;
};

static const char *
decided_name(enum dk_decided d)
{
	static const char *const n[] = { "format", "header", "kernel",
	    "option" };

	return (unsigned)d < 4 ? n[d] : "?";
}

/* A window kind's name in --json. */
static const char *
window_kind(enum dk_window_kind k)
{
	return k == DK_WIN_DIRECT_MAP ? "direct_map" : k == DK_WIN_UNMAPPED ?
	    "unmapped" : k == DK_WIN_KERNEL ? "kernel" : "?";
}

/* t (seconds since the epoch) in ISO 8601 UTC: 2026-12-01T21:47:45Z. */
static const char *
iso_time(uint64_t t, char *buf, size_t n)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if ((uint64_t)tt != t || gmtime_r(&tt, &tm) == NULL ||
	    strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, n, "?");
	return buf;
}

/* Parse "ADDR[:LEN]". */
static int
parse_range(const char *s, uint64_t *addr, uint64_t *len)
{
	char buf[64];
	char *colon;
	unsigned long long a, n = 64;
	char *end;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	colon = strchr(buf, ':');
	if (colon != NULL) {
		*colon++ = '\0';
		n = strtoull(colon, &end, 0);
		if (*colon == '\0' || *end != '\0' || n == 0 || n > READ_MAX)
			return -1;
	}
	a = strtoull(buf, &end, 16);
	if (buf[0] == '\0' || *end != '\0')
		return -1;
	*addr = a;
	*len = n;
	return 0;
}

/* The msgbuf's text with NULs dropped; *n is its length. */
static char *
msgbuf_text(struct dk_dump *d, size_t *n)
{
	struct dk_err err;
	char *buf = malloc(MSGBUF_MAX);
	size_t got = 0, k = 0;

	*n = 0;
	if (buf == NULL || dk_read_msgbuf(d, buf, MSGBUF_MAX, &got, &err) !=
	    DK_OK) {
		free(buf);
		return NULL;
	}
	for (size_t i = 0; i < got; i++)
		if (buf[i] != '\0')
			buf[k++] = buf[i];
	*n = k;
	return buf;
}

/* Start of the last `lines` lines of text. */
static size_t
tail_start(const char *t, size_t n, int lines)
{
	size_t i = n;

	while (i > 0 && t[i - 1] == '\n')
		i--;
	while (i > 0) {
		if (t[i - 1] == '\n' && --lines == 0)
			break;
		i--;
	}
	return i;
}

static void
print_text(struct dk_dump *d, const struct opts *o)
{
	const struct dk_info *in = dk_info(d);
	const struct dk_window *w;
	const struct dk_section *sc;
	const struct dk_attr *a;
	struct dk_hfield f;
	struct dk_run_iter it = { 0, 0 };
	struct dk_run run;
	uint64_t nruns = 0;
	size_t n, i;
	char *t, tb[32];

	printf("format:       %s version %u\n", in->format, in->version);
	printf("architecture: %s (decided by %s: %s)\n", in->arch,
	    decided_name(in->arch_by), in->arch_why);
	printf("byte order:   %s\n", tool_endian_name(in->endian));
	printf("page size:    %u\n", in->page_size);
	printf("kernel map:   %#jx - %#jx\n", (uintmax_t)in->kernbase,
	    (uintmax_t)in->kva_end);
	if ((w = dk_window_find(d, DK_WIN_DIRECT_MAP)) != NULL)
		printf("direct map:   %#jx - %#jx -> pa %#jx\n",
		    (uintmax_t)w->va, (uintmax_t)w->end, (uintmax_t)w->pa);
	else
		printf("direct map:   none\n");
	for (i = 0; (w = dk_window(d, i)) != NULL; i++)
		if (w->kind != DK_WIN_DIRECT_MAP)
			printf("window:       %s %#jx - %#jx -> pa %#jx\n",
			    w->name, (uintmax_t)w->va, (uintmax_t)w->end,
			    (uintmax_t)w->pa);
	printf("file size:    %ju\n", (uintmax_t)in->file_size);
	printf("pages:        %ju dumped, %ju in the file%s\n",
	    (uintmax_t)in->npages, (uintmax_t)in->npages_present,
	    in->npages_present < in->npages ? " (TRUNCATED)" : "");
	for (i = 0; i < dk_nlayers(d); i++)
		printf("container:    %s at %#jx, %ju bytes: %s\n",
		    dk_layer(d, i)->kind, (uintmax_t)dk_layer(d, i)->offset,
		    (uintmax_t)dk_layer(d, i)->size, dk_layer(d, i)->desc);
	if (dk_kdh(d) != NULL) {
		const struct dk_kdh_info *k = dk_kdh(d);

		printf("kerneldumpheader: v%u %s dump (%s)%s, %s, dumptime "
		    "%ju, compression %s\n", k->version, k->magic_name,
		    k->placement_name, k->cleared ? ", trailer cleared" : "",
		    k->architecture, (uintmax_t)k->dumptime,
		    dk_kdh_compression_name(k->compression));
		printf("  hostname:   %s\n  panic:      %s\n  version:    "
		    "%.*s\n", k->hostname, k->panicstring,
		    (int)strcspn(k->versionstring, "\n"), k->versionstring);
	}
	printf("\nheader:\n");
	for (i = 0; dk_header_field(d, i, &f) == 0; i++) {
		if (f.is_string)
			printf("  @%-4u %-15s \"%s\"\n", f.offset, f.name,
			    f.str);
		else if (f.is_padding)
			printf("  @%-4u %-15s %u bytes\n", f.offset, f.name,
			    f.size);
		else
			printf("  @%-4u %-15s %#jx\n", f.offset, f.name,
			    (uintmax_t)f.value);
	}
	printf("\nsections:\n");
	for (i = 0; (sc = dk_section(d, i)) != NULL; i++)
		printf("  %-11s offset %#-14jx size %#-12jx occupies %#jx\n",
		    sc->name, (uintmax_t)sc->offset, (uintmax_t)sc->size,
		    (uintmax_t)sc->space);
	if (dk_nattrs(d) > 0)
		printf("\nattributes:\n");
	for (i = 0; (a = dk_attr(d, i)) != NULL; i++) {
		printf("  %-15s ", a->name);
		if (a->type == DK_ATTR_STRING)
			printf("\"%.*s\"", (int)strcspn(a->str, "\n"), a->str);
		else if (a->type == DK_ATTR_TIME)
			printf("%ju (%s)", (uintmax_t)a->num,
			    iso_time(a->num, tb, sizeof(tb)));
		else
			printf("%ju", (uintmax_t)a->num);
		printf(" (%s)\n", a->source);
	}
	printf("\nphysical memory:\n");
	for (i = 0; i < dk_phys_nranges(d); i++) {
		struct dk_range r = dk_phys_range(d, i);

		printf("  %#014jx - %#014jx\n", (uintmax_t)r.start,
		    (uintmax_t)r.end);
	}
	if (o->verbose)
		printf("\nruns of dumped pages:\n");
	while (dk_run_next(d, &it, &run)) {
		nruns++;
		if (o->verbose && run.offset == DK_OFF_ZERO)
			printf("  pa %#014jx - %#014jx zeros, left out of the "
			    "file\n", (uintmax_t)run.pa,
			    (uintmax_t)(run.pa + run.len));
		else if (o->verbose)
			printf("  pa %#014jx - %#014jx at offset %#jx\n",
			    (uintmax_t)run.pa, (uintmax_t)(run.pa + run.len),
			    (uintmax_t)run.offset);
	}
	printf("\nruns:         %ju\n", (uintmax_t)nruns);
	if ((t = msgbuf_text(d, &n)) != NULL) {
		size_t s = tail_start(t, n, MSGBUF_LINES);

		printf("\nmsgbuf (last lines):\n");
		while (s < n) {
			size_t e = s;

			while (e < n && t[e] != '\n')
				e++;
			printf("  ");
			for (size_t k = s; k < e; k++)
				putchar(isprint((unsigned char)t[k]) ||
				    t[k] == '\t' ? t[k] : '.');
			putchar('\n');
			s = e + 1;
		}
		free(t);
	}
}

static void
print_json(struct dk_dump *d)
{
	const struct dk_info *in = dk_info(d);
	const struct dk_window *w;
	const struct dk_section *sc;
	const struct dk_attr *a;
	char tb[32];
	struct dk_hfield f;
	struct dk_run_iter it = { 0, 0 };
	struct dk_run run;
	uint64_t nruns = 0;
	struct json j;
	size_t n, i;
	char *t;

	json_open(&j, stdout, 0);
	json_str(&j, "format", in->format);
	json_u64(&j, "version", in->version);
	json_str(&j, "arch", in->arch);
	json_str(&j, "arch_decided_by", decided_name(in->arch_by));
	json_str(&j, "arch_reason", in->arch_why);
	json_str(&j, "byte_order", tool_endian_name(in->endian));
	json_u64(&j, "page_size", in->page_size);
	json_hex(&j, "kernbase", in->kernbase);
	json_hex(&j, "kva_end", in->kva_end);
	if ((w = dk_window_find(d, DK_WIN_DIRECT_MAP)) != NULL) {
		json_begin(&j, "direct_map", 0);
		json_hex(&j, "base", w->va);
		json_hex(&j, "end", w->end);
		json_hex(&j, "phys", w->pa);
		json_end(&j, 0);
	} else
		json_str(&j, "direct_map", NULL);
	json_begin(&j, "windows", 1);
	for (i = 0; (w = dk_window(d, i)) != NULL; i++) {
		json_begin(&j, NULL, 0);
		json_str(&j, "kind", window_kind(w->kind));
		json_str(&j, "name", w->name);
		json_hex(&j, "va", w->va);
		json_hex(&j, "end", w->end);
		json_hex(&j, "pa", w->pa);
		json_end(&j, 0);
	}
	json_end(&j, 1);
	json_u64(&j, "file_size", in->file_size);
	json_u64(&j, "pages_dumped", in->npages);
	json_u64(&j, "pages_in_file", in->npages_present);
	json_bool(&j, "truncated", in->npages_present < in->npages);
	if (dk_kdh(d) != NULL) {
		const struct dk_kdh_info *k = dk_kdh(d);

		json_begin(&j, "kerneldumpheader", 0);
		json_u64(&j, "version", k->version);
		json_str(&j, "magic", k->magic_name);
		json_str(&j, "placement", k->placement_name);
		json_str(&j, "architecture", k->architecture);
		json_u64(&j, "dumptime", k->dumptime);
		json_str(&j, "hostname", k->hostname);
		json_str(&j, "versionstring", k->versionstring);
		json_str(&j, "panicstring", k->panicstring);
		json_u64(&j, "dumplength", k->dumplength);
		json_u64(&j, "compression", k->compression);
		json_bool(&j, "cleared", k->cleared);
		json_end(&j, 0);
	}
	json_begin(&j, "header", 1);
	for (i = 0; dk_header_field(d, i, &f) == 0; i++) {
		json_begin(&j, NULL, 0);
		json_str(&j, "name", f.name);
		json_u64(&j, "offset", f.offset);
		json_u64(&j, "size", f.size);
		if (f.is_string)
			json_str(&j, "value", f.str);
		else
			json_hex(&j, "value", f.value);
		json_end(&j, 0);
	}
	json_end(&j, 1);
	json_begin(&j, "sections", 1);
	for (i = 0; (sc = dk_section(d, i)) != NULL; i++) {
		json_begin(&j, NULL, 0);
		json_str(&j, "name", sc->name);
		json_hex(&j, "offset", sc->offset);
		json_u64(&j, "size", sc->size);
		json_u64(&j, "space", sc->space);
		json_end(&j, 0);
	}
	json_end(&j, 1);
	json_begin(&j, "attributes", 1);
	for (i = 0; (a = dk_attr(d, i)) != NULL; i++) {
		json_begin(&j, NULL, 0);
		json_str(&j, "name", a->name);
		if (a->type == DK_ATTR_STRING)
			json_str(&j, "value", a->str);
		else
			json_u64(&j, "value", a->num);
		if (a->type == DK_ATTR_TIME)
			json_str(&j, "utc", iso_time(a->num, tb, sizeof(tb)));
		json_str(&j, "source", a->source);
		json_end(&j, 0);
	}
	json_end(&j, 1);
	json_begin(&j, "physical_ranges", 1);
	for (i = 0; i < dk_phys_nranges(d); i++) {
		struct dk_range r = dk_phys_range(d, i);

		json_begin(&j, NULL, 0);
		json_hex(&j, "start", r.start);
		json_hex(&j, "end", r.end);
		json_end(&j, 0);
	}
	json_end(&j, 1);
	while (dk_run_next(d, &it, &run))
		nruns++;
	json_u64(&j, "runs", nruns);
	if ((t = msgbuf_text(d, &n)) != NULL) {
		size_t s = tail_start(t, n, MSGBUF_LINES);

		json_strn(&j, "msgbuf_tail", t + s, n - s);
		free(t);
	}
	json_end(&j, 0);
}

/* A hex dump, 16 bytes a line, addresses as the reader asked for them. */
static void
hexdump(uint64_t addr, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i += 16) {
		printf("%#018jx:", (uintmax_t)(addr + i));
		for (size_t k = 0; k < 16; k++) {
			if (i + k < n)
				printf("%s%02x", k == 8 ? "  " : " ", p[i + k]);
			else
				printf("%s  ", k == 8 ? "  " : " ");
		}
		printf("  |");
		for (size_t k = 0; k < 16 && i + k < n; k++)
			putchar(isprint(p[i + k]) ? p[i + k] : '.');
		printf("|\n");
	}
}

static int
do_read(struct dk_dump *d, const struct opts *o)
{
	struct dk_err err;
	uint8_t *buf = malloc(o->len);
	enum dk_status st;

	if (buf == NULL) {
		fprintf(stderr, "dumpinfo: out of memory\n");
		return TOOL_UNUSABLE;
	}
	if (o->read == 'p')
		st = dk_read_pa(d, o->addr, buf, o->len, &err);
	else
		st = dk_read_va(d, o->addr, buf, o->len, &err);
	if (st != DK_OK) {
		fprintf(stderr, "dumpinfo: %s: %s\n", o->path, err.msg);
		free(buf);
		return TOOL_NEGATIVE;
	}
	if (o->quiet)
		;	/* readable: the exit status says so */
	else if (o->raw)
		fwrite(buf, 1, o->len, stdout);
	else
		hexdump(o->addr, buf, o->len);
	free(buf);
	return fflush(stdout) == 0 ? TOOL_OK : TOOL_UNUSABLE;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "read-pa", required_argument, NULL, 'p' },
		{ "read-va", required_argument, NULL, 'r' },
		{ "raw", no_argument, NULL, 'R' },
		{ "arch", required_argument, NULL, 'a' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		TOOL_LONGOPTS_END
	};
	struct opts o = { 0 };
	struct dk_dump *d;
	struct dk_err err;
	int c, rc = TOOL_OK;

	/* getopt names the program by argv[0]: the tool, not its path. */
	argv[0] = "dumpinfo";
	while ((c = getopt_long(argc, argv, "jp:r:a:k:qvhV", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'j':
			o.json = 1;
			break;
		case 'p':
		case 'r':
			if (o.read != 0 || parse_range(optarg, &o.addr,
			    &o.len) != 0)
				return tool_usage_error(&tool, "--read-%s: "
				    "expected one ADDR[:LEN] (hex address, "
				    "length up to %u), found '%s'", c == 'p' ?
				    "pa" : "va", READ_MAX, optarg);
			o.read = c == 'p' ? 'p' : 'v';
			break;
		case 'R':
			o.raw = 1;
			break;
		case 'a':
			o.open.arch = optarg;
			break;
		case 'k':
			o.open.kernel = optarg;
			break;
		case 'q':
			o.quiet = 1;
			break;
		case 'v':
			o.verbose = 1;
			break;
		default:
			return tool_option(&tool, c, argv);
		}
	}
	if (argc - optind != 1)
		return tool_usage_error(&tool, "expected one FILE");
	o.path = argv[optind];
	if (dk_open(o.path, &o.open, &d, &err) != DK_OK) {
		fprintf(stderr, "dumpinfo: %s\n", err.msg);
		return tool_open_exit(err.code);
	}
	if (o.read != 0)
		rc = do_read(d, &o);
	else if (o.quiet)
		;	/* a dump dumpkit reads: the exit status says so */
	else if (o.json)
		print_json(d);
	else
		print_text(d, &o);
	dk_close(d);
	return rc;
}
