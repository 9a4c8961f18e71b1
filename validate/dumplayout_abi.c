/*
 * dumplayout_abi.c -- dumplayout's first job: each header as FreeBSD
 * declared it, laid out under the C rules of every ABI that wrote it,
 * and checked against the fixed-width table dumpkit reads it with
 * (list, abis, show, check), and the compiler oracle's input and the
 * engine's answers (c, offsets).  See dumplayout.h.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "ctlayout.h"
#include "dumplayout.h"

/* The header named name; NULL, after saying which headers there are. */
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

int
dl_list(const struct dl_opts *o)
{
	struct json j;

	if (o->json) {
		tool_json_open(&j, &dl_tool, 0);
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

int
dl_abis(const struct dl_opts *o)
{
	struct json j;

	if (o->json) {
		tool_json_open(&j, &dl_tool, 0);
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

int
dl_show(const struct dl_opts *o, const char *name)
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
		tool_json_open(&j, &dl_tool, 0);
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
	const struct dl_opts	*o;
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

int
dl_check(const struct dl_opts *o, char **names, int nnames)
{
	struct ckout c = { .o = o };
	struct json j;
	size_t nh = 0, nlay = 0;

	for (int i = 0; i < nnames; i++)
		if (find_header(names[i]) == NULL)
			return TOOL_USAGE;
	if (o->json) {
		tool_json_open(&j, &dl_tool, 1);
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

int
dl_c(const struct dl_opts *o, int emit_c)
{
	const struct dk_ctabi *a;
	const char *t;
	int rc = TOOL_OK;

	if (o->abis == NULL || strchr(o->abis, ' ') != NULL)
		return tool_usage_error(&dl_tool, "%s: expected exactly one "
		    "--abi", emit_c ? "c" : "offsets");
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
