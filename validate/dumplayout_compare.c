/*
 * dumplayout_compare.c -- dumplayout's second job: do two dumps of one
 * format, written by different code, mean the same thing?  Their
 * headers (and kerneldumpheaders), as the library decodes them, field
 * by field, and the raw bytes of their padding (compare).  See
 * dumplayout.h.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctlayout.h"
#include "dumplayout.h"

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
load_side(struct side *s, const struct dl_opts *o, struct dk_err *err)
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
	for (size_t i = 0; i < dk_nsections(s->d); i++)
		if (strcmp(dk_section(s->d, i)->name, "header") == 0) {
			hoff = dk_section(s->d, i)->offset;
			found = 1;
		}
	v->nraw = 0;
	if (found && hoff < s->info->file_size) {
		n = s->info->file_size - hoff;
		if (n > CMP_HDRMAX)
			n = CMP_HDRMAX;
		if (dk_read_stream(s->d, hoff, v->raw, (size_t)n, err) ==
		    DK_OK)
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
	const struct dl_opts	*o;
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

int
dl_compare(const struct dl_opts *o, const char *old, const char *new)
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
		tool_json_open(&j, &dl_tool, 0);
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
