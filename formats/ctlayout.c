/*
 * ctlayout.c -- lay out a header declared with native C types under the
 * rules of each ABI, and compare the result with the fixed-width layout
 * tables the readers use (issue 7, docs/dumplayout.md).
 *
 * The C rules are those every ABI here shares: a member goes at the next
 * multiple of its alignment, a struct is aligned to its most aligned
 * member and its size is rounded up to that alignment, a flexible array
 * member adds no size but its alignment.  What differs between ABIs is
 * the table below: the sizes and alignments of the C types, and
 * FreeBSD's machine typedefs.  tests/layout_oracle.sh holds every answer
 * of this file against the real cross-compilers.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctlayout.h"

/*
 * The ABIs.  Alignment of uint64_t inside a struct: 4 on i386 (the
 * SysV i386 psABI), 8 on every other ABI here, including arm EABI and
 * mips o32, whose 32-bit kernels therefore pad before a uint64_t that
 * follows an odd number of 32-bit fields.
 *
 * FreeBSD typedefs (sys/<machine>/include/_types.h, sys/x86/include/
 * _types.h): vm_offset_t and vm_size_t are as wide as a pointer;
 * vm_paddr_t is 32-bit on i386 without PAE, arm, mips o32/n32 and
 * 32-bit powerpc (AIM), 64-bit on i386 with PAE (and on every i386
 * kernel since FreeBSD 13, whose pmap chooses PAE at boot), 32-bit
 * powerpc Book-E and every 64-bit ABI.  s390x never ran FreeBSD: its
 * typedefs follow the LP64 pattern, for the compiler oracle only.
 */
#define	SA(s, a)	{ (s), (a) }
#define	ILP32(u64al)	SA(2, 2), SA(4, 4), SA(4, 4), SA(8, u64al), SA(4, 4), \
			SA(8, u64al)
#define	LP64		SA(2, 2), SA(4, 4), SA(8, 8), SA(8, 8), SA(8, 8), \
			SA(8, 8)

static const struct dk_ctabi abis[] = {
	{ "i386", "x86 32-bit (SysV i386 psABI), no PAE", DK_LE, 1,
	  ILP32(4), 4, 4, 4, "i686-linux-gnu-gcc", "",
	  "vm_paddr_t 32-bit without PAE (x86/_types.h before FreeBSD 13)" },
	{ "i386-pae", "x86 32-bit with PAE", DK_LE, 1,
	  ILP32(4), 4, 8, 4, "i686-linux-gnu-gcc", "",
	  "vm_paddr_t 64-bit under PAE, and always since FreeBSD 13" },
	{ "amd64", "x86-64 (LP64)", DK_LE, 1,
	  LP64, 8, 8, 8, "x86_64-linux-gnu-gcc", "", NULL },
	{ "armel", "32-bit arm EABI, soft float, little-endian", DK_LE, 1,
	  ILP32(8), 4, 4, 4, "arm-linux-gnueabi-gcc", "",
	  "arm/_types.h: vm_paddr_t 32-bit" },
	{ "armhf", "32-bit arm EABI, hard float, little-endian", DK_LE, 1,
	  ILP32(8), 4, 4, 4, "arm-linux-gnueabihf-gcc", "",
	  "arm/_types.h: vm_paddr_t 32-bit" },
	{ "armeb", "32-bit arm EABI, big-endian", DK_BE, 1,
	  ILP32(8), 4, 4, 4, "arm-linux-gnueabihf-gcc", "-mbig-endian",
	  "arm/_types.h: vm_paddr_t 32-bit" },
	{ "aarch64", "64-bit arm (LP64)", DK_LE, 1,
	  LP64, 8, 8, 8, "aarch64-linux-gnu-gcc", "", NULL },
	{ "mips-o32", "mips o32, big-endian", DK_BE, 1,
	  ILP32(8), 4, 4, 4, "mips-linux-gnu-gcc", "",
	  "mips/_types.h: 32-bit vm types except on n64" },
	{ "mipsel-o32", "mips o32, little-endian", DK_LE, 1,
	  ILP32(8), 4, 4, 4, "mipsel-linux-gnu-gcc", "",
	  "mips/_types.h: 32-bit vm types except on n64" },
	{ "mips-n32", "mips n32 (ILP32 on a 64-bit CPU), big-endian", DK_BE, 1,
	  ILP32(8), 4, 4, 4, "mips64-linux-gnuabi64-gcc", "-mabi=n32",
	  "mips/_types.h: 32-bit vm types except on n64" },
	{ "mipsel-n32", "mips n32, little-endian", DK_LE, 1,
	  ILP32(8), 4, 4, 4, "mips64-linux-gnuabi64-gcc", "-mabi=n32 -EL",
	  "mips/_types.h: 32-bit vm types except on n64" },
	{ "mips-n64", "mips n64 (LP64), big-endian", DK_BE, 1,
	  LP64, 8, 8, 8, "mips64-linux-gnuabi64-gcc", "-mabi=64", NULL },
	{ "mipsel-n64", "mips n64 (LP64), little-endian", DK_LE, 1,
	  LP64, 8, 8, 8, "mips64-linux-gnuabi64-gcc", "-mabi=64 -EL", NULL },
	{ "powerpc", "32-bit powerpc (SysV), big-endian", DK_BE, 1,
	  ILP32(8), 4, 4, 4, "powerpc-linux-gnu-gcc", "",
	  "powerpc/_types.h: vm_paddr_t 32-bit on AIM (64-bit on Book-E)" },
	{ "powerpc64", "64-bit powerpc (LP64), big-endian", DK_BE, 1,
	  LP64, 8, 8, 8, "powerpc64-linux-gnu-gcc", "", NULL },
	{ "powerpc64le", "64-bit powerpc (LP64), little-endian", DK_LE, 1,
	  LP64, 8, 8, 8, "powerpc64le-linux-gnu-gcc", "", NULL },
	{ "riscv64", "64-bit RISC-V (LP64)", DK_LE, 1,
	  LP64, 8, 8, 8, "riscv64-linux-gnu-gcc", "", NULL },
	{ "sparc64", "64-bit SPARC V9 (LP64), big-endian", DK_BE, 1,
	  LP64, 8, 8, 8, "sparc64-linux-gnu-gcc", "", NULL },
	{ "s390x", "64-bit z/Architecture (LP64), big-endian; never ran "
	  "FreeBSD", DK_BE, 0,
	  LP64, 8, 8, 8, "s390x-linux-gnu-gcc", "",
	  "no FreeBSD port: LP64 pattern assumed" },
};

size_t
dk_ctabi_count(void)
{
	return DK_ARRAY_LEN(abis);
}

const struct dk_ctabi *
dk_ctabi_at(size_t i)
{
	return i < DK_ARRAY_LEN(abis) ? &abis[i] : NULL;
}

const struct dk_ctabi *
dk_ctabi_by_name(const char *name)
{
	for (size_t i = 0; i < DK_ARRAY_LEN(abis); i++)
		if (strcmp(abis[i].name, name) == 0)
			return &abis[i];
	return NULL;
}

int
dk_ct_abi_in(const char *list, const char *abi)
{
	size_t n = strlen(abi);

	for (const char *p = list; p != NULL && *p != '\0'; ) {
		size_t k = strcspn(p, " ");

		if (k == n && strncmp(p, abi, n) == 0)
			return 1;
		p += k;
		p += strspn(p, " ");
	}
	return 0;
}

uint16_t
dk_ctreg_versions(const struct dk_ctentry *e)
{
	uint16_t v = dk_ct_versions(e->layout());

	return e->versions != 0 ? (uint16_t)(v & e->versions) : v;
}

uint16_t
dk_ct_versions(const struct dk_layout *l)
{
	uint16_t v = 0;

	for (size_t i = 0; i < l->nfields; i++)
		v |= l->fields[i].versions;
	return v;
}

/* ---------------------------------------------------------------------- */
/* Types.                                                                  */

enum ctk {
	K_1,			/* char and the 8-bit integers */
	K_SHORT,
	K_INT,			/* int and the 32-bit integers */
	K_LONG,
	K_LLONG,		/* long long */
	K_U64,			/* the 64-bit integers */
	K_VMOFF,
	K_VMPADDR,
	K_VMSIZE,
	K_PTR,
};

/*
 * Every base type a ctype may name.  cdef: what a typedef that is not
 * standard C stands for, for the C the oracle compiles (NULL: the name
 * is standard C or <stdint.h>; "=" : a vm type, its width per ABI).
 */
static const struct {
	const char	*name;
	enum ctk	 k;
	const char	*cdef;
} types[] = {
	{ "char", K_1, NULL },
	{ "signed char", K_1, NULL },
	{ "unsigned char", K_1, NULL },
	{ "u_char", K_1, "unsigned char" },
	{ "int8_t", K_1, NULL },
	{ "uint8_t", K_1, NULL },
	{ "u_int8_t", K_1, "uint8_t" },
	{ "short", K_SHORT, NULL },
	{ "unsigned short", K_SHORT, NULL },
	{ "u_short", K_SHORT, "unsigned short" },
	{ "int16_t", K_SHORT, NULL },
	{ "uint16_t", K_SHORT, NULL },
	{ "u_int16_t", K_SHORT, "uint16_t" },
	{ "int", K_INT, NULL },
	{ "unsigned int", K_INT, NULL },
	{ "unsigned", K_INT, NULL },
	{ "u_int", K_INT, "unsigned int" },
	{ "int32_t", K_INT, NULL },
	{ "uint32_t", K_INT, NULL },
	{ "u_int32_t", K_INT, "uint32_t" },
	{ "long", K_LONG, NULL },
	{ "unsigned long", K_LONG, NULL },
	{ "u_long", K_LONG, "unsigned long" },
	{ "long long", K_LLONG, NULL },
	{ "unsigned long long", K_LLONG, NULL },
	{ "int64_t", K_U64, NULL },
	{ "uint64_t", K_U64, NULL },
	{ "u_int64_t", K_U64, "uint64_t" },
	{ "vm_offset_t", K_VMOFF, "=" },
	{ "vm_paddr_t", K_VMPADDR, "=" },
	{ "vm_size_t", K_VMSIZE, "=" },
	{ "void *", K_PTR, NULL },
};

/* An unsigned integer of n bytes (a typedef of uint32_t or uint64_t). */
static struct dk_ctsa
uint_sa(const struct dk_ctabi *a, unsigned n)
{
	return n == 8 ? a->u64 : a->c_int;
}

static struct dk_ctsa
kind_sa(const struct dk_ctabi *a, enum ctk k)
{
	static const struct dk_ctsa one = { 1, 1 };

	switch (k) {
	case K_1:	return one;
	case K_SHORT:	return a->c_short;
	case K_INT:	return a->c_int;
	case K_LONG:	return a->c_long;
	case K_LLONG:	return a->c_llong;
	case K_U64:	return a->u64;
	case K_VMOFF:	return uint_sa(a, a->vm_offset);
	case K_VMPADDR:	return uint_sa(a, a->vm_paddr);
	case K_VMSIZE:	return uint_sa(a, a->vm_size);
	case K_PTR:	return a->c_ptr;
	}
	return one;
}

const char *
dk_ct_cdef(const char *base, const struct dk_ctabi *a)
{
	for (size_t i = 0; i < DK_ARRAY_LEN(types); i++) {
		if (strcmp(types[i].name, base) != 0)
			continue;
		if (types[i].cdef == NULL || strcmp(types[i].cdef, "=") != 0)
			return types[i].cdef;
		return kind_sa(a, types[i].k).size == 8 ? "uint64_t" :
		    "uint32_t";
	}
	return NULL;
}

const char *
dk_ct_typedef_name(size_t i)
{
	for (size_t k = 0; k < DK_ARRAY_LEN(types); k++)
		if (types[k].cdef != NULL && i-- == 0)
			return types[k].name;
	return NULL;
}

static enum dk_status	ct_compute(const struct dk_layout *, unsigned,
			    const struct dk_ctabi *, struct dk_ctresult *,
			    int, unsigned, struct dk_err *);

/* The nestv of the registry's entry for version v of l; 0 if none. */
static unsigned
reg_nestv(const struct dk_layout *l, unsigned v)
{
	for (size_t i = 0; i < dk_ctreg_count(); i++) {
		const struct dk_ctentry *e = dk_ctreg_at(i);

		if (e->layout() == l && (dk_ctreg_versions(e) & DK_V(v)))
			return e->nestv;
	}
	return 0;
}

/* Nested structs: a header holds an array of descriptors, no deeper. */
#define	CT_MAXDEPTH	4

static enum dk_status
ct_type(const char *ctype, const struct dk_ctabi *a, struct dk_cttype *t,
    int depth, unsigned nestv, struct dk_err *err)
{
	const char *lb = strchr(ctype, '['), *end;
	size_t n;

	memset(t, 0, sizeof(*t));
	t->count = -1;
	end = lb != NULL ? lb : ctype + strlen(ctype);
	while (end > ctype && end[-1] == ' ')
		end--;
	n = (size_t)(end - ctype);
	if (n == 0 || n >= sizeof(t->base))
		return dk_err_set(err, DK_EINVAL, "C type \"%s\": no base "
		    "type, or one longer than %zu characters", ctype,
		    sizeof(t->base) - 1);
	memcpy(t->base, ctype, n);
	t->base[n] = '\0';
	if (lb != NULL) {
		char *rb;
		unsigned long c;

		if (lb[1] == ']' && lb[2] == '\0')
			t->count = 0;
		else {
			c = strtoul(lb + 1, &rb, 10);
			if (rb == lb + 1 || strcmp(rb, "]") != 0 || c == 0 ||
			    c > 65535)
				return dk_err_set(err, DK_EINVAL, "C type "
				    "\"%s\": expected [N] with 0 < N < 65536 "
				    "or [] at its end", ctype);
			t->count = (long)c;
		}
	}
	if (strncmp(t->base, "struct ", 7) == 0) {
		const struct dk_ctentry *e = dk_ctreg_by_tag(t->base + 7);
		struct dk_ctresult *r;
		uint16_t v;
		unsigned first = 0;
		enum dk_status st;

		if (e == NULL)
			return dk_err_set(err, DK_EINVAL, "C type \"%s\": no "
			    "header in the registry has the tag %s", ctype,
			    t->base + 7);
		if (depth >= CT_MAXDEPTH)
			return dk_err_set(err, DK_ELIMIT, "C type \"%s\": "
			    "structs nested deeper than %d", ctype,
			    CT_MAXDEPTH);
		v = dk_ct_versions(e->layout());
		while (first < 16 && !(v & DK_V(first)))
			first++;
		if (nestv != 0 && nestv < 16 && (v & DK_V(nestv)))
			first = nestv;
		t->nested = e->layout();
		t->nested_version = first;
		if ((r = malloc(sizeof(*r))) == NULL)
			return dk_err_set(err, DK_ENOMEM, "C type \"%s\": "
			    "out of memory", ctype);
		st = ct_compute(e->layout(), first, a, r, depth + 1,
		    reg_nestv(e->layout(), first), err);
		t->size = r->size;
		t->align = r->align;
		free(r);
		if (st != DK_OK)
			return dk_err_prefix(err, "C type \"%s\"", ctype);
	} else {
		size_t i;

		for (i = 0; i < DK_ARRAY_LEN(types); i++)
			if (strcmp(types[i].name, t->base) == 0)
				break;
		if (i == DK_ARRAY_LEN(types) && t->base[n - 1] == '*')
			i = DK_ARRAY_LEN(types) - 1;	/* any pointer */
		if (i == DK_ARRAY_LEN(types))
			return dk_err_set(err, DK_EINVAL, "C type \"%s\": "
			    "the layout engine does not know \"%s\"", ctype,
			    t->base);
		t->size = kind_sa(a, types[i].k).size;
		t->align = kind_sa(a, types[i].k).align;
	}
	if (t->count == 0)
		t->size = 0;
	else if (t->count > 0)
		t->size *= (uint32_t)t->count;
	return DK_OK;
}

enum dk_status
dk_ct_type(const char *ctype, const struct dk_ctabi *a, struct dk_cttype *t,
    struct dk_err *err)
{
	return ct_type(ctype, a, t, 0, 0, err);
}

static uint32_t
roundup_u32(uint32_t x, uint32_t a)
{
	return (x + a - 1) / a * a;
}

static enum dk_status
ct_compute(const struct dk_layout *l, unsigned version,
    const struct dk_ctabi *a, struct dk_ctresult *r, int depth,
    unsigned nestv, struct dk_err *err)
{
	uint32_t cur = 0;

	memset(r, 0, sizeof(*r));
	r->align = 1;
	for (size_t i = 0; i < l->nfields; i++) {
		const struct dk_field *f = &l->fields[i];
		struct dk_ctmember *m;

		if (!(f->versions & DK_V(version)) || f->ctype == NULL)
			continue;
		if (r->n == DK_CT_MAXF)
			return dk_err_set(err, DK_ELIMIT, "%s: more than %d "
			    "declared fields", l->name, DK_CT_MAXF);
		if (r->n > 0 && r->m[r->n - 1].t.count == 0)
			return dk_err_set(err, DK_EINVAL, "%s v%u: field %s "
			    "follows the flexible array member %s", l->name,
			    version, f->name, r->m[r->n - 1].f->name);
		m = &r->m[r->n];
		m->f = f;
		if (ct_type(f->ctype, a, &m->t, depth, nestv, err) != DK_OK)
			return dk_err_prefix(err, "%s v%u: field %s", l->name,
			    version, f->name);
		m->off = roundup_u32(cur, m->t.align);
		if (r->n > 0)
			r->m[r->n - 1].pad = m->off - cur;
		cur = m->off + m->t.size;
		if (m->t.align > r->align)
			r->align = m->t.align;
		r->n++;
	}
	r->end = cur;
	r->size = roundup_u32(cur, r->align);
	if (r->n > 0)
		r->m[r->n - 1].pad = r->size - cur;
	return DK_OK;
}

enum dk_status
dk_ct_compute(const struct dk_layout *l, unsigned version,
    const struct dk_ctabi *a, struct dk_ctresult *r, struct dk_err *err)
{
	return ct_compute(l, version, a, r, 0, reg_nestv(l, version), err);
}

/* ---------------------------------------------------------------------- */
/* check.                                                                  */

const char *
dk_ct_kind_name(enum dk_ctkind k)
{
	static const char *const names[] = {
		[DK_CT_MOVED] = "moved",
		[DK_CT_RESIZED] = "resized",
		[DK_CT_HOLE] = "hole",
		[DK_CT_TAIL] = "tail-padding",
		[DK_CT_UNDOC] = "undocumented-padding",
		[DK_CT_NOTPAD] = "not-padding",
		[DK_CT_SIZE] = "size",
		[DK_CT_STALE] = "stale-known",
		[DK_CT_BADTYPE] = "bad-type",
	};

	return (unsigned)k < DK_ARRAY_LEN(names) ? names[k] : "?";
}

/* The state of one check: where findings go and what was counted. */
struct ctck {
	const struct dk_ctentry	*e;
	unsigned		 version;
	const struct dk_ctabi	*abi;
	dk_ct_cb		 cb;
	void			*arg;
	size_t			 unknown;
	uint8_t			 seen[DK_CT_MAXKNOWN];
};

static void
emit(struct ctck *c, struct dk_ctfinding *f, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
emit(struct ctck *c, struct dk_ctfinding *f, const char *fmt, ...)
{
	va_list ap;
	int n;

	f->layout = c->e->layout()->name;
	f->version = c->version;
	f->abi = c->abi->name;
	n = snprintf(f->msg, sizeof(f->msg), "%s v%u, abi %s: ",
	    f->layout, f->version, f->abi);
	if (n > 0 && (size_t)n < sizeof(f->msg)) {
		va_start(ap, fmt);
		(void)vsnprintf(f->msg + n, sizeof(f->msg) - (size_t)n, fmt,
		    ap);
		va_end(ap);
	}
	if (!f->known)
		c->unknown++;
	if (c->cb != NULL)
		c->cb(c->arg, f);
}

/* The registry's entry for padding [off, off + len) here, or -1. */
static int
known_at(struct ctck *c, uint32_t off, uint32_t len)
{
	for (int i = 0; i < DK_CT_MAXKNOWN && c->e->known[i].len != 0; i++) {
		const struct dk_ctknown *k = &c->e->known[i];

		if (k->off == off && k->len == len &&
		    (k->versions & DK_V(c->version)) &&
		    dk_ct_abi_in(k->abis, c->abi->name))
			return i;
	}
	return -1;
}

/* Is [off, off + len) a padding row (no ctype) of this version? */
static const struct dk_field *
pad_row(const struct dk_layout *l, unsigned v, uint32_t off, uint32_t len)
{
	for (size_t i = 0; i < l->nfields; i++) {
		const struct dk_field *f = &l->fields[i];

		if ((f->versions & DK_V(v)) && f->ctype == NULL &&
		    f->off == off && f->size == len)
			return f;
	}
	return NULL;
}

static void
check_one(struct ctck *c)
{
	const struct dk_layout *l = c->e->layout();
	struct dk_ctresult r;
	struct dk_ctfinding f;
	struct dk_err err;
	size_t tsize;

	memset(c->seen, 0, sizeof(c->seen));
	if (dk_ct_compute(l, c->version, c->abi, &r, &err) != DK_OK) {
		memset(&f, 0, sizeof(f));
		f.kind = DK_CT_BADTYPE;
		emit(c, &f, "%s", err.msg);
		return;
	}
	for (size_t i = 0; i < r.n; i++) {
		const struct dk_ctmember *m = &r.m[i];
		uint32_t end = m->off + m->t.size;
		int k;

		memset(&f, 0, sizeof(f));
		f.field = m->f->name;
		f.native_off = m->off;
		f.table_off = m->f->off;
		f.native_size = m->t.size;
		f.table_size = m->f->size;
		if (m->off != m->f->off) {
			f.kind = DK_CT_MOVED;
			emit(c, &f, "field %s (%s) is at offset %u natively, "
			    "at offset %u in the table", m->f->name,
			    m->f->ctype, m->off, m->f->off);
		}
		if (m->t.size != m->f->size) {
			f.kind = DK_CT_RESIZED;
			emit(c, &f, "field %s (%s) is %u bytes natively, %u in "
			    "the table", m->f->name, m->f->ctype, m->t.size,
			    m->f->size);
		}
		if (m->pad == 0)
			continue;
		memset(&f, 0, sizeof(f));
		f.field = m->f->name;
		f.native_off = end;
		f.native_size = m->pad;
		f.kind = i + 1 == r.n ? DK_CT_TAIL : DK_CT_HOLE;
		if ((k = known_at(c, end, m->pad)) >= 0) {
			c->seen[k] = 1;
			f.known = 1;
			f.why = c->e->known[k].why;
		}
		if (pad_row(l, c->version, end, m->pad) == NULL) {
			f.kind = DK_CT_UNDOC;
			f.known = 0;
			emit(c, &f, "%u bytes of padding at %u..%u after %s "
			    "(%s) have no padding row in the table", m->pad,
			    end, end + m->pad - 1, m->f->name, m->f->ctype);
		} else
			emit(c, &f, "%s at %u..%u (%u bytes) after %s (%s)%s",
			    f.kind == DK_CT_TAIL ? "tail padding" :
			    "hidden padding", end, end + m->pad - 1, m->pad,
			    m->f->name, m->f->ctype, f.known ? "" :
			    ": not listed as known in the registry");
	}
	/* Padding rows where the compiler inserts nothing. */
	for (size_t i = 0; i < l->nfields; i++) {
		const struct dk_field *p = &l->fields[i];
		int hole = 0;

		if (!(p->versions & DK_V(c->version)) || p->ctype != NULL)
			continue;
		for (size_t j = 0; j < r.n; j++)
			if (r.m[j].off + r.m[j].t.size == p->off &&
			    r.m[j].pad == p->size)
				hole = 1;
		if (hole)
			continue;
		memset(&f, 0, sizeof(f));
		f.kind = DK_CT_NOTPAD;
		f.field = p->name;
		f.table_off = p->off;
		f.table_size = p->size;
		emit(c, &f, "the table pads %u..%u, where the compiler puts "
		    "no padding", p->off, p->off + p->size - 1);
	}
	tsize = dk_layout_size(l, c->version);
	if (tsize != r.size) {
		memset(&f, 0, sizeof(f));
		f.kind = DK_CT_SIZE;
		f.native_size = r.size;
		f.table_size = (uint32_t)tsize;
		emit(c, &f, "sizeof is %u natively, %zu in the table", r.size,
		    tsize);
	}
	for (int i = 0; i < DK_CT_MAXKNOWN && c->e->known[i].len != 0; i++) {
		const struct dk_ctknown *k = &c->e->known[i];

		if (c->seen[i] || !(k->versions & DK_V(c->version)) ||
		    !dk_ct_abi_in(k->abis, c->abi->name))
			continue;
		memset(&f, 0, sizeof(f));
		f.kind = DK_CT_STALE;
		f.table_off = k->off;
		f.table_size = k->len;
		f.why = k->why;
		emit(c, &f, "the registry lists padding at %u..%u as known, "
		    "but the compiler puts none there", k->off,
		    k->off + k->len - 1);
	}
}

size_t
dk_ct_check(const struct dk_ctentry *e, const char *abilist, dk_ct_cb cb,
    void *arg)
{
	struct ctck c;
	uint16_t vs = dk_ctreg_versions(e);

	memset(&c, 0, sizeof(c));
	c.e = e;
	c.cb = cb;
	c.arg = arg;
	if (abilist == NULL)
		abilist = e->abis;
	for (unsigned v = 0; v < 16; v++) {
		if (!(vs & DK_V(v)))
			continue;
		for (size_t i = 0; i < DK_ARRAY_LEN(abis); i++) {
			if (!dk_ct_abi_in(abilist, abis[i].name))
				continue;
			c.version = v;
			c.abi = &abis[i];
			check_one(&c);
		}
	}
	return c.unknown;
}
