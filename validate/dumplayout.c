/*
 * dumplayout -- does each dump header, as its original FreeBSD header
 * declared it with native C types, lay out on every ABI that wrote it
 * exactly as the fixed-width tables dumpkit reads it with?  And do two
 * dumps of one format written by different code mean the same thing?
 *
 * A thin tool over the layout engine (formats/ctlayout.h) and the
 * library's decoded header (dk_header_field).  docs/dumplayout.md.
 *
 * Exit status: 0 no unexpected difference (check) or no change of
 * meaning (compare), 1 unexpected differences or changes of meaning,
 * 2 a file could not be examined, 3 usage error.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctlayout.h"
#include "dumpkit.h"
#include "tool.h"

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

static const struct tool tool = { "dumplayout", usage_text, help_text };

struct opts {
	const char	*abis;		/* space-separated, or NULL */
	char		 abibuf[512];
	int		 hversion;	/* -1: every version */
	const char	*arch;
	int		 json;
	int		 quiet;
	int		 verbose;
};

static const struct dk_ctentry *
find_header(const char *name)
{
	const struct dk_ctentry *e = dk_ctreg_by_name(name);

	if (e == NULL) {
		fprintf(stderr, "dumplayout: no header named '%s'; the headers "
		    "are:", name);
		for (size_t i = 0; i < dk_ctreg_count(); i++)
			fprintf(stderr, " %s", dk_ctreg_at(i)->layout()->name);
		fprintf(stderr, "\n");
	}
	return e;
}

/* "a,b c" or "all" into a space-separated list of known ABIs; 0 or -1. */
static int
parse_abis(struct opts *o, const char *arg)
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

/* ---------------------------------------------------------------------- */
/* list, abis                                                             */

static void
print_versions(FILE *fp, uint16_t vs)
{
	const char *sep = "";

	for (unsigned v = 0; v < 16; v++)
		if (vs & DK_V(v)) {
			fprintf(fp, "%s%u", sep, v);
			sep = ",";
		}
}

static int
cmd_list(const struct opts *o)
{
	struct json j;

	if (o->json) {
		tool_json_open(&j, &tool, 0);
		json_begin(&j, "headers", 1);
	}
	for (size_t i = 0; i < dk_ctreg_count(); i++) {
		const struct dk_ctentry *e = dk_ctreg_at(i);
		const struct dk_layout *l = e->layout();
		uint16_t vs = dk_ctreg_versions(e);

		if (o->json) {
			json_begin(&j, NULL, 0);
			json_str(&j, "name", l->name);
			json_u64(&j, "versions", vs);
			json_str(&j, "struct", e->tag);
			json_str(&j, "source", e->source);
			json_str(&j, "abis", e->abis);
			json_end(&j, 0);
			continue;
		}
		printf("%-24s v", l->name);
		print_versions(stdout, vs);
		printf("  struct %s (%s)\n%24s  written on: %s\n", e->tag,
		    e->source, "", e->abis);
	}
	if (o->json) {
		json_end(&j, 1);
		json_end(&j, 0);
	}
	return TOOL_OK;
}

static int
cmd_abis(const struct opts *o)
{
	struct json j;

	if (o->json) {
		tool_json_open(&j, &tool, 0);
		json_begin(&j, "abis", 1);
	} else
		printf("%-12s %-6s %-5s %-5s %-5s %-5s %-6s %-3s %-3s %-3s  "
		    "%s\n", "abi", "order", "long", "llong", "ptr", "u64",
		    "bsd", "vmo", "vmp", "vms", "compiler");
	for (size_t i = 0; i < dk_ctabi_count(); i++) {
		const struct dk_ctabi *a = dk_ctabi_at(i);

		if (o->json) {
			json_begin(&j, NULL, 0);
			json_str(&j, "name", a->name);
			json_str(&j, "desc", a->desc);
			json_str(&j, "endian", tool_endian_name(a->endian));
			json_bool(&j, "freebsd", a->freebsd);
			json_u64(&j, "long_size", a->c_long.size);
			json_u64(&j, "long_long_align", a->c_llong.align);
			json_u64(&j, "pointer_size", a->c_ptr.size);
			json_u64(&j, "uint64_align", a->u64.align);
			json_u64(&j, "vm_offset_t", a->vm_offset);
			json_u64(&j, "vm_paddr_t", a->vm_paddr);
			json_u64(&j, "vm_size_t", a->vm_size);
			json_str(&j, "cc", a->cc);
			json_str(&j, "ccflags", a->ccflags);
			json_end(&j, 0);
			continue;
		}
		printf("%-12s %-6s %u/%u   %u/%u   %u/%u   %u/%u   %-6s %-3u "
		    "%-3u %-3u  %s %s\n", a->name,
		    a->endian == DK_BE ? "BE" : "LE",
		    a->c_long.size, a->c_long.align, a->c_llong.size,
		    a->c_llong.align, a->c_ptr.size, a->c_ptr.align,
		    a->u64.size, a->u64.align, a->freebsd ? "yes" : "no",
		    a->vm_offset, a->vm_paddr, a->vm_size, a->cc, a->ccflags);
	}
	if (o->json) {
		json_end(&j, 1);
		json_end(&j, 0);
	} else
		printf("(size/align in bytes; u64: uint64_t inside a struct; "
		    "bsd: FreeBSD ran on it;\nvmo/vmp/vms: bytes of "
		    "vm_offset_t, vm_paddr_t, vm_size_t)\n");
	return TOOL_OK;
}

/* ---------------------------------------------------------------------- */
/* show                                                                   */

static void
show_text(const struct dk_ctentry *e, unsigned v, const struct dk_ctabi *a,
    const struct dk_ctresult *r)
{
	const struct dk_layout *l = e->layout();
	uint32_t sum = 0, holes = 0, sumholes = 0;
	size_t tsize = dk_layout_size(l, v);

	printf("/* %s v%u on %s (%s), from %s */\nstruct %s {\n", l->name, v,
	    a->name, tool_endian_name(a->endian), e->source, e->tag);
	for (size_t i = 0; i < r->n; i++) {
		const struct dk_ctmember *m = &r->m[i];
		char decl[128], type[64];

		snprintf(type, sizeof(type), "%s", m->t.base);
		if (m->t.count > 0)
			snprintf(decl, sizeof(decl), "%s[%ld];", m->f->name,
			    m->t.count);
		else if (m->t.count == 0)
			snprintf(decl, sizeof(decl), "%s[];", m->f->name);
		else
			snprintf(decl, sizeof(decl), "%s;", m->f->name);
		printf("\t%-26s %-22s /* %5u %5u */", type, decl, m->off,
		    m->t.size);
		if (m->off != m->f->off || m->t.size != m->f->size)
			printf("  /* table: %u %u */", m->f->off, m->f->size);
		printf("\n");
		sum += m->t.size;
		if (m->pad != 0 && i + 1 < r->n) {
			printf("\n\t/* XXX %u byte%s hole, try to pack */\n\n",
			    m->pad, m->pad == 1 ? "" : "s");
			holes++;
			sumholes += m->pad;
		}
	}
	printf("\n\t/* size: %u, members: %zu, align: %u */\n", r->size, r->n,
	    r->align);
	printf("\t/* sum members: %u, holes: %u, sum holes: %u */\n", sum,
	    holes, sumholes);
	if (r->size != r->end)
		printf("\t/* padding: %u */\n", r->size - r->end);
	if (tsize != r->size)
		printf("\t/* the table's size: %zu */\n", tsize);
	printf("};\n");
}

static void
show_json(struct json *j, const struct dk_ctentry *e, unsigned v,
    const struct dk_ctabi *a, const struct dk_ctresult *r)
{
	const struct dk_layout *l = e->layout();

	json_begin(j, NULL, 0);
	json_str(j, "header", l->name);
	json_u64(j, "version", v);
	json_str(j, "abi", a->name);
	json_str(j, "endian", tool_endian_name(a->endian));
	json_str(j, "struct", e->tag);
	json_u64(j, "size", r->size);
	json_u64(j, "align", r->align);
	json_u64(j, "tail_padding", r->size - r->end);
	json_u64(j, "table_size", dk_layout_size(l, v));
	json_begin(j, "members", 1);
	for (size_t i = 0; i < r->n; i++) {
		const struct dk_ctmember *m = &r->m[i];

		json_begin(j, NULL, 0);
		json_str(j, "name", m->f->name);
		json_str(j, "ctype", m->f->ctype);
		json_u64(j, "offset", m->off);
		json_u64(j, "size", m->t.size);
		json_u64(j, "align", m->t.align);
		json_u64(j, "padding_after", m->pad);
		json_u64(j, "table_offset", m->f->off);
		json_u64(j, "table_size", m->f->size);
		json_end(j, 0);
	}
	json_end(j, 1);
	json_end(j, 0);
}

static int
cmd_show(const struct opts *o, const char *name)
{
	const struct dk_ctentry *e = find_header(name);
	const struct dk_layout *l;
	struct dk_ctresult r;
	struct dk_err err;
	struct json j;
	uint16_t vs;
	int rc = TOOL_OK, shown = 0;

	if (e == NULL)
		return TOOL_USAGE;
	l = e->layout();
	vs = dk_ct_versions(l);
	if (o->hversion >= 0 && (o->hversion > 15 ||
	    !(vs & DK_V(o->hversion)))) {
		fprintf(stderr, "dumplayout: %s has no version %d (it has ",
		    l->name, o->hversion);
		print_versions(stderr, vs);
		fprintf(stderr, ")\n");
		return TOOL_USAGE;
	}
	if (o->json) {
		tool_json_open(&j, &tool, 0);
		json_begin(&j, "layouts", 1);
	}
	for (unsigned v = 0; v < 16; v++) {
		if (!(vs & DK_V(v)) || (o->hversion >= 0 &&
		    (unsigned)o->hversion != v))
			continue;
		/* The entry of this version: it says who wrote it. */
		for (size_t i = 0; i < dk_ctreg_count(); i++)
			if (dk_ctreg_at(i)->layout() == l &&
			    (dk_ctreg_versions(dk_ctreg_at(i)) & DK_V(v)))
				e = dk_ctreg_at(i);
		for (size_t i = 0; i < dk_ctabi_count(); i++) {
			const struct dk_ctabi *a = dk_ctabi_at(i);

			if (!dk_ct_abi_in(o->abis ? o->abis : e->abis,
			    a->name))
				continue;
			if (dk_ct_compute(l, v, a, &r, &err) != DK_OK) {
				fprintf(stderr, "dumplayout: %s\n", err.msg);
				rc = TOOL_NEGATIVE;
				continue;
			}
			if (o->json)
				show_json(&j, e, v, a, &r);
			else {
				if (shown++)
					printf("\n");
				show_text(e, v, a, &r);
			}
		}
	}
	if (o->json) {
		json_end(&j, 1);
		json_end(&j, 0);
	}
	return rc;
}

/* ---------------------------------------------------------------------- */
/* check                                                                  */

struct ckout {
	const struct opts	*o;
	struct json		*j;
	size_t			 known, unknown;
};

static void
on_finding(void *arg, const struct dk_ctfinding *f)
{
	struct ckout *c = arg;

	if (f->known)
		c->known++;
	else
		c->unknown++;
	if (c->j != NULL) {
		json_begin(c->j, NULL, 0);
		json_str(c->j, "kind", dk_ct_kind_name(f->kind));
		json_bool(c->j, "known", f->known);
		json_str(c->j, "header", f->layout);
		json_u64(c->j, "version", f->version);
		json_str(c->j, "abi", f->abi);
		json_str(c->j, "field", f->field);
		json_u64(c->j, "native_offset", f->native_off);
		json_u64(c->j, "table_offset", f->table_off);
		json_u64(c->j, "native_size", f->native_size);
		json_u64(c->j, "table_size", f->table_size);
		json_str(c->j, "message", f->msg);
		json_str(c->j, "why", f->why);
		json_end(c->j, 0);
		return;
	}
	if (f->known && c->o->quiet)
		return;
	printf("%s %s\n", f->known ? "known:" : "ERROR:", f->msg);
	if (f->known && f->why != NULL && c->o->verbose)
		printf("       (%s)\n", f->why);
}

static int
cmd_check(const struct opts *o, char **names, int nnames)
{
	struct ckout c = { .o = o };
	struct json j;
	size_t nh = 0, nlay = 0;

	for (int i = 0; i < nnames; i++)
		if (find_header(names[i]) == NULL)
			return TOOL_USAGE;
	if (o->json) {
		tool_json_open(&j, &tool, 1);
		json_begin(&j, "findings", 1);
		c.j = &j;
	}
	for (size_t i = 0; i < dk_ctreg_count(); i++) {
		const struct dk_ctentry *e = dk_ctreg_at(i);
		const char *abis = o->abis ? o->abis : e->abis;
		uint16_t vs = dk_ctreg_versions(e);
		int want = nnames == 0;

		for (int k = 0; k < nnames; k++)
			if (strcmp(names[k], e->layout()->name) == 0)
				want = 1;
		if (!want)
			continue;
		nh++;
		for (unsigned v = 0; v < 16; v++)
			for (size_t a = 0; a < dk_ctabi_count(); a++)
				if ((vs & DK_V(v)) && dk_ct_abi_in(abis,
				    dk_ctabi_at(a)->name))
					nlay++;
		(void)dk_ct_check(e, abis, on_finding, &c);
	}
	if (o->json) {
		json_end(&j, 1);
		json_u64(&j, "headers", nh);
		json_u64(&j, "layouts", nlay);
		json_u64(&j, "known", c.known);
		json_u64(&j, "unexpected", c.unknown);
		tool_json_exit(&j, c.unknown ? TOOL_NEGATIVE : TOOL_OK);
	} else
		printf("check: %zu header%s, %zu layouts (version x ABI), "
		    "%zu known difference%s, %zu unexpected\n", nh,
		    nh == 1 ? "" : "s", nlay, c.known,
		    c.known == 1 ? "" : "s", c.unknown);
	return c.unknown ? TOOL_NEGATIVE : TOOL_OK;
}

/* ---------------------------------------------------------------------- */
/* c, offsets: the compiler oracle's input and the engine's answers.      */

/* The C name of version v of layout l: dl_<name>_v<v>. */
static void
struct_name(const struct dk_layout *l, unsigned v, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "dl_%s_v%u", l->name, v);

	for (size_t i = 0; i < n && i < len; i++)
		if (!isalnum((unsigned char)buf[i]) && buf[i] != '_')
			buf[i] = '_';
}

/* Is e's tag named by "struct TAG" in some ctype of the registry? */
static int
nested(const struct dk_ctentry *e)
{
	char want[64];
	size_t n;

	n = (size_t)snprintf(want, sizeof(want), "struct %s", e->tag);
	for (size_t i = 0; i < dk_ctreg_count(); i++) {
		const struct dk_layout *l = dk_ctreg_at(i)->layout();

		for (size_t k = 0; k < l->nfields; k++) {
			const char *t = l->fields[k].ctype;

			if (t != NULL && strncmp(t, want, n) == 0 &&
			    (t[n] == '\0' || t[n] == '['))
				return 1;
		}
	}
	return 0;
}

/* One struct: C declaration (emit_c) or offsets lines (!emit_c). */
static int
one_struct(const struct dk_ctentry *e, unsigned v, const struct dk_ctabi *a,
    int emit_c)
{
	const struct dk_layout *l = e->layout();
	struct dk_ctresult r;
	struct dk_err err;
	char sn[96], tn[96];

	if (dk_ct_compute(l, v, a, &r, &err) != DK_OK) {
		fprintf(stderr, "dumplayout: %s\n", err.msg);
		return -1;
	}
	struct_name(l, v, sn, sizeof(sn));
	if (!emit_c) {
		for (size_t i = 0; i < r.n; i++)
			printf("%s %s %u %u\n", sn, r.m[i].f->name, r.m[i].off,
			    r.m[i].t.size);
		printf("%s sizeof %u\n", sn, r.size);
		return 0;
	}
	printf("/* %s v%u: struct %s of %s */\nstruct %s {\n", l->name, v,
	    e->tag, e->source, sn);
	for (size_t i = 0; i < r.n; i++) {
		const struct dk_ctmember *m = &r.m[i];

		/* A nested struct: the version of it the engine used. */
		if (m->t.nested != NULL) {
			struct_name(m->t.nested, m->t.nested_version, tn,
			    sizeof(tn) - 7);
			printf("\tstruct %s %s", tn, m->f->name);
		} else
			printf("\t%s %s", m->t.base, m->f->name);
		if (m->t.count > 0)
			printf("[%ld]", m->t.count);
		else if (m->t.count == 0)
			printf("[]");
		printf(";\n");
	}
	printf("};\n");
	for (size_t i = 0; i < r.n; i++)
		printf("_Static_assert(offsetof(struct %s, %s) == %u, "
		    "\"%s v%u on %s: the engine puts %s at %u\");\n", sn,
		    r.m[i].f->name, r.m[i].off, l->name, v, a->name,
		    r.m[i].f->name, r.m[i].off);
	printf("_Static_assert(sizeof(struct %s) == %u, \"%s v%u on %s: the "
	    "engine's sizeof is %u\");\n", sn, r.size, l->name, v, a->name,
	    r.size);
	printf("_Static_assert(_Alignof(struct %s) == %u, \"%s v%u on %s: "
	    "the engine's alignment is %u\");\n", sn, r.align, l->name, v,
	    a->name, r.align);
	/* A use, so that the compiler emits the type's DWARF. */
	printf("struct %s *dl_use_%s;\n\n", sn, sn);
	return 0;
}

static int
cmd_c(const struct opts *o, int emit_c)
{
	const struct dk_ctabi *a;
	const char *t;
	int rc = TOOL_OK;

	if (o->abis == NULL || strchr(o->abis, ' ') != NULL)
		return tool_usage_error(&tool, "%s: expected exactly one --abi",
		    emit_c ? "c" : "offsets");
	a = dk_ctabi_by_name(o->abis);
	if (emit_c) {
		printf("/*\n * Generated by `dumplayout c --abi %s`: the "
		    "native declarations of\n * every header dumpkit reads, "
		    "with the "
		    "layout engine's answers\n * for %s as _Static_asserts. "
		    " Compile only: %s %s -c\n */\n#include <stddef.h>\n"
		    "#include <stdint.h>\n\n", a->name, a->name, a->cc,
		    a->ccflags);
		printf("/* FreeBSD's typedefs on %s */\n", a->name);
		for (size_t i = 0; (t = dk_ct_typedef_name(i)) != NULL; i++)
			printf("typedef %s %s;\n", dk_ct_cdef(t, a), t);
		printf("\n");
	}
	/* Structs other structs name come first: C wants them defined. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < dk_ctreg_count(); i++) {
			const struct dk_ctentry *e = dk_ctreg_at(i);
			uint16_t vs = dk_ctreg_versions(e);

			if (nested(e) != (pass == 0))
				continue;
			for (unsigned v = 0; v < 16; v++)
				if ((vs & DK_V(v)) && one_struct(e, v, a,
				    emit_c) != 0)
					rc = TOOL_NEGATIVE;
		}
	return rc;
}

/* ---------------------------------------------------------------------- */
/* compare                                                                */

#define	CMP_MAXF	64
#define	CMP_HDRMAX	4096

/* One header of a dump, decoded by the library, and its raw bytes. */
struct view {
	const char		*what;	/* "kerneldumpheader", "header" */
	struct dk_hfield	 f[CMP_MAXF];
	uint8_t			 pad[CMP_MAXF];	/* f[i] is padding */
	size_t			 n;
	uint8_t			 raw[CMP_HDRMAX];
	size_t			 nraw;	/* bytes of raw read */
	enum dk_endian		 endian;
};

struct side {
	const char		*path;
	struct dk_dump		*d;
	const struct dk_info	*info;
	struct view		 kdh;	/* n == 0: no kerneldumpheader */
	struct view		 hdr;
};

/*
 * Is f padding?  The library says so for the compiler's padding; a
 * declared padding field (sparc64's dh_pad) has the id DK_H_PAD in its
 * table, found here through the name, which points into the table.
 */
static int
hfield_is_pad(const struct dk_hfield *f)
{
	if (f->is_padding)
		return 1;
	for (size_t i = 0; i < dk_ctreg_count(); i++) {
		const struct dk_layout *l = dk_ctreg_at(i)->layout();

		for (size_t k = 0; k < l->nfields; k++)
			if (l->fields[k].name == f->name)
				return l->fields[k].id == DK_H_PAD ||
				    l->fields[k].kind == DK_FK_PAD;
	}
	return 0;
}

/* The kerneldumpheader a dump was found under, decoded with its table. */
static void
load_kdh(struct side *s)
{
	const struct dk_kdh_info *k = dk_kdh(s->d);
	const uint8_t *raw = dk_kdh_raw(s->d);
	const struct dk_layout *l;
	struct dk_hdr h;
	struct view *v = &s->kdh;

	v->n = 0;
	if (k == NULL || raw == NULL || (l = dk_kdh_layout(k->version)) ==
	    NULL)
		return;
	v->what = "kerneldumpheader";
	v->endian = DK_BE;		/* on every machine */
	memcpy(v->raw, raw, DK_KDH_SIZE);
	v->nraw = DK_KDH_SIZE;
	dk_layout_decode(l, k->version, raw, DK_BE, &h);
	for (size_t i = 0; i < l->nfields && v->n < CMP_MAXF; i++) {
		const struct dk_field *f = &l->fields[i];
		struct dk_hfield *o = &v->f[v->n];

		if (!(f->versions & DK_V(k->version)))
			continue;
		memset(o, 0, sizeof(*o));
		o->name = f->name;
		o->offset = f->off;
		o->size = f->size;
		o->is_string = f->kind == DK_FK_CHARS;
		o->is_padding = f->kind == DK_FK_PAD;
		if (o->is_string)
			snprintf(o->str, sizeof(o->str), "%s", h.s[f->id]);
		else if (f->kind != DK_FK_PAD && f->kind != DK_FK_ARRAY)
			o->value = h.v[f->id];
		v->pad[v->n++] = f->kind == DK_FK_PAD || f->id == DK_H_PAD;
	}
}

static int
load_side(struct side *s, const struct opts *o, struct dk_err *err)
{
	struct dk_open_opts oo = { .arch = o->arch };
	struct view *v = &s->hdr;
	uint64_t hoff = 0, n;
	int found = 0;

	if (dk_open(s->path, &oo, &s->d, err) != DK_OK)
		return -1;
	s->info = dk_info(s->d);
	load_kdh(s);
	v->what = "header";
	v->endian = s->info->endian;
	v->n = dk_header_nfields(s->d);
	if (v->n > CMP_MAXF)
		v->n = CMP_MAXF;
	for (size_t i = 0; i < v->n; i++) {
		if (dk_header_field(s->d, i, &v->f[i]) != 0) {
			v->n = i;
			break;
		}
		v->pad[i] = hfield_is_pad(&v->f[i]);
	}
	/*
	 * The raw header, for its padding bytes, read from the dump stream
	 * (inside any container), past the struct too: the bytes where the
	 * other dump has a field or padding.
	 */
	for (size_t i = 0; i < s->info->nsections; i++)
		if (strcmp(s->info->sections[i].name, "header") == 0) {
			hoff = s->info->sections[i].offset;
			found = 1;
		}
	v->nraw = 0;
	if (found && hoff < s->d->src.size) {
		n = s->d->src.size - hoff;
		if (n > CMP_HDRMAX)
			n = CMP_HDRMAX;
		if (dk_src_pread(&s->d->src, v->raw, (size_t)n, hoff,
		    "header", err) == DK_OK)
			v->nraw = (size_t)n;
	}
	return 0;
}

static const struct dk_hfield *
side_field(const struct view *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!s->pad[i] && strcmp(s->f[i].name, name) == 0)
			return &s->f[i];
	return NULL;
}

/* Decode size bytes at off of s's raw header, as s's reader would. */
static int
raw_value(const struct view *s, uint32_t off, uint32_t size, uint64_t *v)
{
	*v = 0;
	if (size > 8 || (size_t)off + size > s->nraw)
		return -1;
	for (uint32_t i = 0; i < size; i++) {
		unsigned sh = s->endian == DK_BE ? 8 * (size - 1 - i) :
		    8 * i;

		*v |= (uint64_t)s->raw[off + i] << sh;
	}
	return 0;
}

enum verdict { V_SAME, V_PADDING, V_MEANING };

static const char *const verdict_names[] = {
	"same", "padding-only", "meaning-changes"
};

struct cmpout {
	const struct opts	*o;
	struct json		*j;
	const char		*what;	/* the header being compared */
	enum verdict		 worst;
	size_t			 nmeaning, npadding;
};

static void
row(struct cmpout *c, const char *name, const struct dk_hfield *a,
    const struct dk_hfield *b, enum verdict v, const char *what)
{
	if (v > c->worst)
		c->worst = v;
	if (v == V_MEANING)
		c->nmeaning++;
	else if (v == V_PADDING)
		c->npadding++;
	if (c->j != NULL) {
		json_begin(c->j, NULL, 0);
		json_str(c->j, "header", c->what);
		json_str(c->j, "field", name);
		if (a != NULL)
			json_u64(c->j, "old_offset", a->offset);
		if (b != NULL)
			json_u64(c->j, "new_offset", b->offset);
		json_str(c->j, "verdict", verdict_names[v]);
		json_str(c->j, "detail", what);
		json_end(c->j, 0);
		return;
	}
	printf("  %-22s ", name);
	if (a != NULL)
		printf("%4u+%-4u", a->offset, a->size);
	else
		printf("%9s", "-");
	if (b != NULL)
		printf(" %4u+%-4u", b->offset, b->size);
	else
		printf(" %9s", "-");
	printf("  %-15s %s\n", verdict_names[v], what);
}

static void
fmt_value(const struct dk_hfield *f, char *buf, size_t len)
{
	if (f->is_string)
		snprintf(buf, len, "\"%.60s\"", f->str);
	else
		snprintf(buf, len, "%#" PRIx64, f->value);
}

/* Is every byte of [off, off + size) padding in s, or past its header? */
static int
is_pad_range(const struct view *s, uint32_t off, uint32_t size)
{
	for (uint32_t b = off; b < off + size; b++) {
		int pad = 1;

		for (size_t i = 0; i < s->n; i++)
			if (b >= s->f[i].offset && b < s->f[i].offset +
			    s->f[i].size && !s->pad[i])
				pad = 0;
		if (!pad)
			return 0;
	}
	return 1;
}

static void
compare_fields(struct cmpout *c, const struct view *a, const struct view *b)
{
	char what[320], va[96], vb[96];

	/* Named fields: OLD's order, then NEW's additions. */
	for (int pass = 0; pass < 2; pass++) {
		const struct view *s = pass == 0 ? a : b;

		for (size_t i = 0; i < s->n; i++) {
			const struct dk_hfield *fa, *fb;
			int same;

			if (s->pad[i])
				continue;
			fa = side_field(a, s->f[i].name);
			fb = side_field(b, s->f[i].name);
			if (pass == 1 && fa != NULL)
				continue;	/* done in pass 0 */
			if (fa == NULL || fb == NULL) {
				const struct dk_hfield *f = fa ? fa : fb;
				int wasgap = is_pad_range(fa ? b : a,
				    f->offset, f->size);

				fmt_value(f, va, sizeof(va));
				snprintf(what, sizeof(what), "only in %s: %s%s",
				    fa ? "OLD" : "NEW", va, wasgap ?
				    (fa ? " (padding or absent in NEW)" :
				    " (padding or absent in OLD)") : "");
				row(c, f->name, fa, fb, V_MEANING, what);
				continue;
			}
			if (fa->size == 0 && fb->size == 0 &&
			    fa->offset == fb->offset) {
				row(c, fa->name, fa, fb, V_SAME, "flexible "
				    "array member: no value, same place");
				continue;
			}
			fmt_value(fa, va, sizeof(va));
			fmt_value(fb, vb, sizeof(vb));
			same = fa->is_string ? strcmp(fa->str, fb->str) == 0 :
			    fa->value == fb->value;
			if (fa->offset == fb->offset && fa->size == fb->size) {
				if (same)
					snprintf(what, sizeof(what), "%s", va);
				else
					snprintf(what, sizeof(what), "%s -> %s",
					    va, vb);
				row(c, fa->name, fa, fb, same ? V_SAME :
				    V_MEANING, what);
				continue;
			}
			/* Moved: what would OLD's reader find in NEW? */
			if (!fb->is_string) {
				uint64_t x;

				if (raw_value(b, fa->offset, fa->size, &x) == 0)
					snprintf(what, sizeof(what), "moved; "
					    "%s %s; a reader of OLD's layout "
					    "reads %#" PRIx64 " in NEW",
					    same ? "same value" : "value",
					    same ?
					    va : vb, x);
				else
					snprintf(what, sizeof(what), "moved; "
					    "%s%s%s", va, same ? "" : " -> ",
					    same ? "" : vb);
			} else {
				char x[48];
				size_t k = 0;

				/* OLD's reader: a NUL-padded string at its
				 * offset in NEW's bytes. */
				for (uint32_t p = fa->offset; p < fa->offset +
				    fa->size && p < b->nraw && k + 1 <
				    sizeof(x) && b->raw[p] != 0; p++)
					x[k++] = isprint(b->raw[p]) ?
					    (char)b->raw[p] : '.';
				x[k] = '\0';
				snprintf(what, sizeof(what), "moved; %s%s%s; a "
				    "reader of OLD's layout reads \"%s\" in "
				    "NEW", va, same ? "" : " -> ", same ? "" :
				    vb, x);
			}
			row(c, fa->name, fa, fb, V_MEANING, what);
		}
	}
	/* Padding: compare the raw bytes of each padding range. */
	for (int pass = 0; pass < 2; pass++) {
		const struct view *s = pass == 0 ? a : b;
		const struct view *t = pass == 0 ? b : a;

		for (size_t i = 0; i < s->n; i++) {
			const struct dk_hfield *p = &s->f[i], *q = NULL;
			uint32_t off = p->offset, sz = p->size;
			int differ;

			if (!s->pad[i])
				continue;
			for (size_t k = 0; k < t->n; k++)
				if (t->pad[k] && t->f[k].offset ==
				    off && t->f[k].size == sz)
					q = &t->f[k];
			if (pass == 1 && q != NULL)
				continue;	/* done in pass 0 */
			if (q == NULL && !is_pad_range(t, off, sz))
				continue;	/* a field there: reported */
			if ((size_t)off + sz > a->nraw ||
			    (size_t)off + sz > b->nraw) {
				row(c, p->name, pass ? q : p, pass ? p : q,
				    V_SAME, "padding; bytes not readable to "
				    "compare");
				continue;
			}
			differ = memcmp(a->raw + off, b->raw + off, sz) != 0;
			snprintf(what, sizeof(what), "padding at %u..%u%s; %s",
			    off, off + sz - 1, q != NULL ? "" : pass == 0 ?
			    " in OLD only" : " in NEW only", differ ?
			    "bytes differ" : "same bytes");
			if (differ) {
				size_t n = strlen(what);

				snprintf(what + n, sizeof(what) - n, " (");
				for (uint32_t k = 0; k < sz && k < 8; k++) {
					n = strlen(what);
					snprintf(what + n, sizeof(what) - n,
					    "%02x", a->raw[off + k]);
				}
				n = strlen(what);
				snprintf(what + n, sizeof(what) - n, " -> ");
				for (uint32_t k = 0; k < sz && k < 8; k++) {
					n = strlen(what);
					snprintf(what + n, sizeof(what) - n,
					    "%02x", b->raw[off + k]);
				}
				n = strlen(what);
				snprintf(what + n, sizeof(what) - n, ")");
			}
			if (q != NULL && strcmp(p->name, q->name) != 0) {
				char nm[64];

				/* Padding here, a declared pad field there. */
				snprintf(nm, sizeof(nm), "%s=%s", p->name,
				    q->name);
				row(c, nm, p, q, differ ? V_PADDING : V_SAME,
				    what);
				continue;
			}
			row(c, p->name, pass ? q : p, pass ? p : q,
			    differ ? V_PADDING : V_SAME, what);
		}
	}
}

static int
cmd_compare(const struct opts *o, const char *old, const char *new)
{
	struct side *a, *b;
	struct dk_err err;
	struct cmpout c = { .o = o };
	struct json j;
	int rc = TOOL_OK;

	a = calloc(1, sizeof(*a));
	b = calloc(1, sizeof(*b));
	if (a == NULL || b == NULL) {
		fprintf(stderr, "dumplayout: out of memory\n");
		free(a);
		free(b);
		return TOOL_UNUSABLE;
	}
	a->path = old;
	b->path = new;
	if (load_side(a, o, &err) != 0 || load_side(b, o, &err) != 0) {
		fprintf(stderr, "dumplayout: %s\n", err.msg);
		rc = err.code == DK_EAMBIG ? TOOL_USAGE : TOOL_UNUSABLE;
		goto out;
	}
	if (strcmp(a->info->format, b->info->format) != 0 ||
	    strcmp(a->info->arch, b->info->arch) != 0) {
		fprintf(stderr, "dumplayout: %s is a %s %s dump, %s a %s %s "
		    "dump: compare takes two dumps of one format and "
		    "architecture\n", old, a->info->format, a->info->arch,
		    new, b->info->format, b->info->arch);
		rc = TOOL_USAGE;
		goto out;
	}
	if (a->hdr.n == 0 || b->hdr.n == 0) {
		fprintf(stderr, "dumplayout: %s: the library gives no header "
		    "fields for %s dumps\n", a->hdr.n == 0 ? old : new,
		    a->info->format);
		rc = TOOL_UNUSABLE;
		goto out;
	}
	if (o->json) {
		tool_json_open(&j, &tool, 0);
		json_str(&j, "old", old);
		json_str(&j, "new", new);
		json_str(&j, "format", a->info->format);
		json_str(&j, "old_arch", a->info->arch);
		json_str(&j, "new_arch", b->info->arch);
		json_u64(&j, "old_version", a->info->version);
		json_u64(&j, "new_version", b->info->version);
		if (a->kdh.n != 0)
			json_u64(&j, "old_kdh_version", dk_kdh(a->d)->version);
		if (b->kdh.n != 0)
			json_u64(&j, "new_kdh_version", dk_kdh(b->d)->version);
		json_begin(&j, "fields", 1);
		c.j = &j;
	} else
		printf("OLD %s: %s %s v%u, %s\nNEW %s: %s %s v%u, %s\n", old,
		    a->info->format, a->info->arch, a->info->version,
		    tool_endian_name(a->info->endian), new, b->info->format,
		    b->info->arch, b->info->version,
		    tool_endian_name(b->info->endian));
	if (a->kdh.n != 0 && b->kdh.n != 0) {
		c.what = "kerneldumpheader";
		if (!o->json)
			printf("kerneldumpheader: OLD v%u, NEW v%u (big-endian)"
			    "\n  %-22s %-9s %-9s  %-15s %s\n",
			    dk_kdh(a->d)->version, dk_kdh(b->d)->version,
			    "field", "OLD off+sz", "NEW off+sz", "verdict",
			    "values");
		compare_fields(&c, &a->kdh, &b->kdh);
	} else if (a->kdh.n != 0 || b->kdh.n != 0) {
		c.what = "kerneldumpheader";
		if (!o->json)
			printf("kerneldumpheader:\n");
		row(&c, "kerneldumpheader", NULL, NULL, V_MEANING,
		    a->kdh.n != 0 ? "only OLD is under a kerneldumpheader" :
		    "only NEW is under a kerneldumpheader");
	}
	c.what = "header";
	if (!o->json)
		printf("%s header: OLD v%u, NEW v%u\n  %-22s %-9s %-9s  %-15s "
		    "%s\n", a->info->format, a->info->version,
		    b->info->version, "field", "OLD off+sz", "NEW off+sz",
		    "verdict", "values");
	compare_fields(&c, &a->hdr, &b->hdr);
	rc = c.worst == V_MEANING ? TOOL_NEGATIVE : TOOL_OK;
	if (o->json) {
		json_end(&j, 1);
		json_str(&j, "verdict", verdict_names[c.worst]);
		json_u64(&j, "meaning_changes", c.nmeaning);
		json_u64(&j, "padding_differences", c.npadding);
		tool_json_exit(&j, rc);
	} else
		printf("verdict: %s (%zu field%s change meaning, %zu padding "
		    "range%s differ)\n", verdict_names[c.worst], c.nmeaning,
		    c.nmeaning == 1 ? "" : "s", c.npadding,
		    c.npadding == 1 ? "" : "s");
out:
	dk_close(a->d);
	dk_close(b->d);
	free(a);
	free(b);
	return rc;
}

/* ---------------------------------------------------------------------- */

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
	struct opts o = { .hversion = -1 };
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
				return tool_usage_error(&tool, "--abi: "
				    "expected ABI names separated by commas, "
				    "found '%s'", optarg);
			break;
		case 'n':
			errno = 0;
			o.hversion = (int)strtol(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || errno != 0 ||
			    o.hversion < 0 || o.hversion > 15)
				return tool_usage_error(&tool,
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
			return tool_option(&tool, c, argv);
		}
	}
	if (optind == argc)
		return tool_usage_error(&tool, "expected a command");
	cmd = argv[optind];
	args = argv + optind + 1;
	nargs = argc - optind - 1;
	if (strcmp(cmd, "list") == 0 && nargs == 0)
		rc = cmd_list(&o);
	else if (strcmp(cmd, "abis") == 0 && nargs == 0)
		rc = cmd_abis(&o);
	else if (strcmp(cmd, "show") == 0 && nargs == 1)
		rc = cmd_show(&o, args[0]);
	else if (strcmp(cmd, "check") == 0)
		rc = cmd_check(&o, args, nargs);
	else if (strcmp(cmd, "compare") == 0 && nargs == 2)
		rc = cmd_compare(&o, args[0], args[1]);
	else if (strcmp(cmd, "c") == 0 && nargs == 0)
		rc = cmd_c(&o, 1);
	else if (strcmp(cmd, "offsets") == 0 && nargs == 0)
		rc = cmd_c(&o, 0);
	else
		return tool_usage_error(&tool, "unknown command, or wrong "
		    "number of arguments: '%s'", cmd);
	return fflush(stdout) == 0 ? rc : TOOL_UNUSABLE;
}
