/*
 * check_layout.c -- the layout engine and checker (formats/ctlayout.c,
 * formats/layouts.c; issue 7).
 *
 *  - "engine": declarations laid out by hand here, from the psABIs
 *    (SysV i386: uint64_t 4-aligned in a struct; arm EABI, mips o32,
 *    SysV powerpc: 8-aligned), and FreeBSD's typedefs from the machine
 *    _types.h headers.  The same rules are held against the real
 *    cross-compilers by tests/layout_oracle.sh.
 *  - "check": the real registry passes, with the known holes named;
 *    deliberately altered declarations (a moved field, uint32_t turned
 *    into u_long, a missing padding row, an unlisted or stale known
 *    difference) fail with a message that names the ABI, the field and
 *    both offsets.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctlayout.h"
#include "sparc64.h"

static const struct dk_ctabi *
abi(const char *name)
{
	const struct dk_ctabi *a = dk_ctabi_by_name(name);

	ck_assert_msg(a != NULL, "no ABI %s", name);
	return a;
}

/* struct { int a; uint64_t b; } */
static const struct dk_field int_u64_fields[] = {
	{ "a", 0, 4, DK_FK_INT, DK_H_VERSION, DK_V(1), "int", "" },
	{ "b", 8, 8, DK_FK_UINT, DK_H_KERNBASE, DK_V(1), "uint64_t", "" },
};
static const struct dk_layout int_u64 = {
	"test-int-u64", int_u64_fields, DK_ARRAY_LEN(int_u64_fields)
};

/* ABI, offset of b, sizeof, alignment: from the psABIs. */
static const struct {
	const char	*abi;
	uint32_t	 off_b, size, align;
} int_u64_want[] = {
	{ "i386", 4, 12, 4 },		/* i386 psABI: long long 4-aligned */
	{ "i386-pae", 4, 12, 4 },
	{ "amd64", 8, 16, 8 },
	{ "armel", 8, 16, 8 },		/* AAPCS: 8-aligned */
	{ "armhf", 8, 16, 8 },
	{ "armeb", 8, 16, 8 },
	{ "aarch64", 8, 16, 8 },
	{ "mips-o32", 8, 16, 8 },
	{ "mips-n32", 8, 16, 8 },
	{ "mips-n64", 8, 16, 8 },
	{ "powerpc", 8, 16, 8 },
	{ "powerpc64", 8, 16, 8 },
	{ "riscv64", 8, 16, 8 },
	{ "sparc64", 8, 16, 8 },
	{ "s390x", 8, 16, 8 },
};

START_TEST(test_int_u64)
{
	struct dk_ctresult r;
	struct dk_err err;

	ck_assert_int_eq(dk_ct_compute(&int_u64, 1,
	    abi(int_u64_want[_i].abi), &r, &err), DK_OK);
	ck_assert_uint_eq(r.n, 2);
	ck_assert_uint_eq(r.m[0].off, 0);
	ck_assert_msg(r.m[1].off == int_u64_want[_i].off_b,
	    "%s: b at %u, want %u", int_u64_want[_i].abi, r.m[1].off,
	    int_u64_want[_i].off_b);
	ck_assert_uint_eq(r.m[0].pad, int_u64_want[_i].off_b - 4);
	ck_assert_uint_eq(r.size, int_u64_want[_i].size);
	ck_assert_uint_eq(r.align, int_u64_want[_i].align);
	ck_assert_uint_eq(r.m[1].pad, 0);
}
END_TEST

/* Size and alignment of one ctype on one ABI. */
static const struct {
	const char	*ctype;
	const char	*abi;
	uint32_t	 size, align;
} types_want[] = {
	{ "char[24]", "sparc64", 24, 1 },
	{ "uint32_t", "mips-o32", 4, 4 },
	{ "int", "amd64", 4, 4 },
	{ "u_long", "i386", 4, 4 },
	{ "u_long", "amd64", 8, 8 },
	{ "u_long", "mips-n32", 4, 4 },		/* n32: ILP32 */
	{ "u_long", "mips-n64", 8, 8 },
	{ "u_long", "armhf", 4, 4 },
	{ "vm_offset_t", "i386", 4, 4 },
	{ "vm_offset_t", "mips-n32", 4, 4 },	/* mips/_types.h */
	{ "vm_offset_t", "sparc64", 8, 8 },
	{ "vm_paddr_t", "i386", 4, 4 },		/* x86/_types.h, !PAE */
	{ "vm_paddr_t", "i386-pae", 8, 4 },	/* PAE: 64-bit, 4-aligned */
	{ "vm_paddr_t", "armhf", 4, 4 },	/* arm/_types.h */
	{ "vm_paddr_t", "powerpc", 4, 4 },	/* AIM */
	{ "vm_paddr_t", "sparc64", 8, 8 },
	{ "vm_size_t", "powerpc64", 8, 8 },
	{ "uint64_t[3]", "i386", 24, 4 },
	{ "uint64_t[3]", "armel", 24, 8 },
	{ "long long", "i386", 8, 4 },
	{ "void *", "mips-n32", 4, 4 },
	{ "uint8_t[3]", "s390x", 3, 1 },
	{ "int32_t[]", "amd64", 0, 4 },
};

START_TEST(test_types)
{
	struct dk_cttype t;
	struct dk_err err;

	ck_assert_int_eq(dk_ct_type(types_want[_i].ctype,
	    abi(types_want[_i].abi), &t, &err), DK_OK);
	ck_assert_msg(t.size == types_want[_i].size &&
	    t.align == types_want[_i].align, "%s on %s: %u/%u, want %u/%u",
	    types_want[_i].ctype, types_want[_i].abi, t.size, t.align,
	    types_want[_i].size, types_want[_i].align);
}
END_TEST

START_TEST(test_bad_types)
{
	static const char *const bad[] = {
		"float", "char[0]", "char[", "char[12", "[4]", "char[70000]",
		"struct no_such_tag", "uint32_t[x]",
	};
	struct dk_cttype t;
	struct dk_err err;

	for (size_t i = 0; i < DK_ARRAY_LEN(bad); i++) {
		ck_assert_msg(dk_ct_type(bad[i], abi("amd64"), &t, &err) ==
		    DK_EINVAL, "%s accepted", bad[i]);
		ck_assert_msg(strstr(err.msg, bad[i]) != NULL,
		    "message for %s: %s", bad[i], err.msg);
	}
}
END_TEST

/* The FreeBSD typedefs the oracle's C defines. */
START_TEST(test_cdef)
{
	ck_assert_str_eq(dk_ct_cdef("u_long", abi("i386")), "unsigned long");
	ck_assert_str_eq(dk_ct_cdef("vm_paddr_t", abi("i386")), "uint32_t");
	ck_assert_str_eq(dk_ct_cdef("vm_paddr_t", abi("i386-pae")),
	    "uint64_t");
	ck_assert_str_eq(dk_ct_cdef("vm_offset_t", abi("sparc64")),
	    "uint64_t");
	ck_assert_ptr_null(dk_ct_cdef("uint32_t", abi("amd64")));
	ck_assert_ptr_nonnull(dk_ct_typedef_name(0));
}
END_TEST

/* A flexible array after an int: aligned, no size; nothing may follow. */
static const struct dk_field flex_fields[] = {
	{ "n", 0, 4, DK_FK_INT, DK_SP64_F_NREGIONS, DK_V(1) | DK_V(2), "int", "" },
	{ "r", 8, 0, DK_FK_ARRAY, DK_SP64_F_REGIONS, DK_V(1) | DK_V(2),
	  "uint64_t[]", "" },
	{ "x", 8, 4, DK_FK_UINT, DK_H_VERSION, DK_V(2), "uint32_t", "" },
};
static const struct dk_layout flex = {
	"test-flex", flex_fields, DK_ARRAY_LEN(flex_fields)
};

START_TEST(test_flexible_array)
{
	struct dk_ctresult r;
	struct dk_err err;

	ck_assert_int_eq(dk_ct_compute(&flex, 1, abi("sparc64"), &r, &err),
	    DK_OK);
	ck_assert_uint_eq(r.m[1].off, 8);
	ck_assert_uint_eq(r.m[1].t.size, 0);
	ck_assert_uint_eq(r.size, 8);
	ck_assert_uint_eq(r.m[0].pad, 4);
	ck_assert_int_eq(dk_ct_compute(&flex, 1, abi("i386"), &r, &err),
	    DK_OK);
	ck_assert_uint_eq(r.m[1].off, 4);	/* uint64_t 4-aligned */
	ck_assert_uint_eq(r.size, 4);
	/* Version 2 puts a field after the flexible array. */
	ck_assert_int_eq(dk_ct_compute(&flex, 2, abi("sparc64"), &r, &err),
	    DK_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "follows the flexible array"));
}
END_TEST

/* ---------------------------------------------------------------------- */
/* check                                                                   */

#define	MAXFIND	64

struct found {
	struct dk_ctfinding	f[MAXFIND];
	size_t			n;
};

static void
collect(void *arg, const struct dk_ctfinding *f)
{
	struct found *fd = arg;

	if (fd->n < MAXFIND)
		fd->f[fd->n++] = *f;
}

/* The first finding of kind k not known, or NULL. */
static const struct dk_ctfinding *
first_unknown(const struct found *fd, enum dk_ctkind k)
{
	for (size_t i = 0; i < fd->n; i++)
		if (fd->f[i].kind == k && !fd->f[i].known)
			return &fd->f[i];
	return NULL;
}

START_TEST(test_registry_passes)
{
	size_t total = 0;
	int saw_ppc_hole = 0;

	ck_assert_uint_ge(dk_ctreg_count(), 7);
	for (size_t i = 0; i < dk_ctreg_count(); i++) {
		const struct dk_ctentry *e = dk_ctreg_at(i);
		struct found fd = { .n = 0 };
		size_t bad = dk_ct_check(e, NULL, collect, &fd);

		for (size_t k = 0; k < fd.n; k++) {
			ck_assert_msg(fd.f[k].known, "%s", fd.f[k].msg);
			if (strcmp(fd.f[k].layout, "minidump-powerpc64") == 0 &&
			    fd.f[k].kind == DK_CT_HOLE &&
			    fd.f[k].native_off == 116 &&
			    fd.f[k].native_size == 4 &&
			    strcmp(fd.f[k].abi, "powerpc64") == 0)
				saw_ppc_hole = 1;
		}
		ck_assert_uint_eq(bad, 0);
		total += fd.n;
	}
	ck_assert_msg(saw_ppc_hole, "the powerpc64 hole at 116 not reported");
	ck_assert_uint_ge(total, 15);
}
END_TEST

/* A copy of a registry entry with its own table. */
struct altered {
	struct dk_ctentry	e;
	struct dk_field		f[DK_CT_MAXF];
	struct dk_layout	l;
};

/* One at a time: the layout function of an entry cannot take arguments. */
static struct altered alt;

static const struct dk_layout *
alt_layout(void)
{
	return &alt.l;
}

static void
alter(const char *name)
{
	const struct dk_ctentry *e = dk_ctreg_by_name(name);
	const struct dk_layout *l;

	ck_assert_ptr_nonnull(e);
	l = e->layout();
	ck_assert_uint_le(l->nfields, DK_CT_MAXF);
	memcpy(alt.f, l->fields, l->nfields * sizeof(alt.f[0]));
	alt.l = *l;
	alt.l.fields = alt.f;
	alt.e = *e;
	alt.e.layout = alt_layout;
}

static struct dk_field *
alt_field(const char *name, unsigned version)
{
	for (size_t i = 0; i < alt.l.nfields; i++)
		if (strcmp(alt.f[i].name, name) == 0 &&
		    (alt.f[i].versions & DK_V(version)))
			return &alt.f[i];
	ck_abort_msg("no field %s", name);
	return NULL;
}

START_TEST(test_u_long_fails)
{
	struct found fd = { .n = 0 };
	const struct dk_ctfinding *f;

	/* amd64: pmapsize declared u_long instead of uint32_t. */
	alter("minidump-amd64");
	alt_field("pmapsize", 1)->ctype = "u_long";
	ck_assert_uint_gt(dk_ct_check(&alt.e, NULL, collect, &fd), 0);
	f = first_unknown(&fd, DK_CT_MOVED);
	ck_assert_ptr_nonnull(f);
	ck_assert_str_eq(f->abi, "amd64");
	ck_assert_str_eq(f->field, "pmapsize");
	ck_assert_uint_eq(f->native_off, 40);
	ck_assert_uint_eq(f->table_off, 36);
	ck_assert_msg(strstr(f->msg, "abi amd64") && strstr(f->msg,
	    "pmapsize") && strstr(f->msg, "offset 40") &&
	    strstr(f->msg, "offset 36"), "message: %s", f->msg);
	ck_assert_ptr_nonnull(first_unknown(&fd, DK_CT_RESIZED));
	ck_assert_ptr_nonnull(first_unknown(&fd, DK_CT_UNDOC));
}
END_TEST

START_TEST(test_u_long_depends_on_abi)
{
	struct found fd = { .n = 0 };
	const struct dk_ctfinding *f;

	/* mips: uint32_t -> u_long is harmless on o32 and n32, not n64. */
	alter("minidump-mips");
	alt_field("version", 1)->ctype = "u_long";
	ck_assert_uint_eq(dk_ct_check(&alt.e, "mips-o32 mips-n32", collect,
	    &fd), 0);
	fd.n = 0;
	ck_assert_uint_gt(dk_ct_check(&alt.e, "mips-n64", collect, &fd), 0);
	f = first_unknown(&fd, DK_CT_MOVED);
	ck_assert_ptr_nonnull(f);
	ck_assert_str_eq(f->abi, "mips-n64");
	ck_assert_str_eq(f->field, "msgbufsize");	/* after version */
	ck_assert_uint_eq(f->native_off, 32);
	ck_assert_uint_eq(f->table_off, 28);
}
END_TEST

START_TEST(test_moved_field_fails)
{
	struct found fd = { .n = 0 };
	const struct dk_ctfinding *f;

	/* powerpc64: a table that "closes" the hole at 116. */
	alter("minidump-powerpc64");
	alt_field("startkernel", 1)->off = 116;
	ck_assert_uint_gt(dk_ct_check(&alt.e, "powerpc64", collect, &fd), 0);
	f = first_unknown(&fd, DK_CT_MOVED);
	ck_assert_ptr_nonnull(f);
	ck_assert_str_eq(f->field, "startkernel");
	ck_assert_uint_eq(f->native_off, 120);
	ck_assert_uint_eq(f->table_off, 116);
	ck_assert_msg(strstr(f->msg, "minidump-powerpc64 v1, abi powerpc64") &&
	    strstr(f->msg, "offset 120") && strstr(f->msg, "offset 116"),
	    "message: %s", f->msg);
}
END_TEST

START_TEST(test_wrong_abi_fails)
{
	struct found fd = { .n = 0 };
	const struct dk_ctfinding *f;

	/* The powerpc64 header as an i386 kernel would lay it out. */
	ck_assert_uint_gt(dk_ct_check(dk_ctreg_by_name("minidump-powerpc64"),
	    "i386", collect, &fd), 0);
	f = first_unknown(&fd, DK_CT_MOVED);
	ck_assert_ptr_nonnull(f);
	ck_assert_str_eq(f->field, "startkernel");
	ck_assert_uint_eq(f->native_off, 116);
	ck_assert_uint_eq(f->table_off, 120);
	ck_assert_ptr_nonnull(first_unknown(&fd, DK_CT_NOTPAD));
	/* i386 is in no known list: nothing there can be stale. */
	ck_assert_ptr_null(first_unknown(&fd, DK_CT_STALE));
}
END_TEST

START_TEST(test_unlisted_hole_fails)
{
	struct found fd = { .n = 0 };
	const struct dk_ctfinding *f;

	alter("minidump-powerpc64");
	memset(alt.e.known, 0, sizeof(alt.e.known));
	ck_assert_uint_gt(dk_ct_check(&alt.e, NULL, collect, &fd), 0);
	f = first_unknown(&fd, DK_CT_HOLE);
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->native_off, 116);
	ck_assert_ptr_nonnull(strstr(f->msg, "not listed as known"));
}
END_TEST

START_TEST(test_missing_pad_row_fails)
{
	struct found fd = { .n = 0 };
	const struct dk_ctfinding *f;

	/* amd64 v3 without the row of its tail padding. */
	alter("minidump-amd64");
	ck_assert_ptr_null(alt.f[alt.l.nfields - 1].ctype);
	alt.l.nfields--;
	ck_assert_uint_gt(dk_ct_check(&alt.e, NULL, collect, &fd), 0);
	f = first_unknown(&fd, DK_CT_UNDOC);
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->version, 3);
	ck_assert_uint_eq(f->native_off, 68);
	f = first_unknown(&fd, DK_CT_SIZE);
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->native_size, 72);
	ck_assert_uint_eq(f->table_size, 68);
}
END_TEST

START_TEST(test_stale_known_fails)
{
	struct found fd = { .n = 0 };
	const struct dk_ctfinding *f;

	/* The i386 header has no padding: a known hole there is stale. */
	alter("minidump-i386");
	alt.e.known[0] = (struct dk_ctknown){ "i386", DK_V(2), 52, 4,
	    "does not exist" };
	ck_assert_uint_gt(dk_ct_check(&alt.e, NULL, collect, &fd), 0);
	f = first_unknown(&fd, DK_CT_STALE);
	ck_assert_ptr_nonnull(f);
	ck_assert_str_eq(f->abi, "i386");
	ck_assert_uint_eq(f->table_off, 52);
}
END_TEST

START_TEST(test_sparc64_old_and_new)
{
	const struct dk_ctentry *old = dk_ctreg_by_name("sparc64-dump-hdr-old");
	const struct dk_ctentry *new = dk_ctreg_by_name("sparc64-dump-hdr-new");
	struct found fd = { .n = 0 };
	const struct dk_ctfinding *f;
	struct dk_ctresult r;
	struct dk_err err;

	ck_assert_ptr_nonnull(old);
	ck_assert_ptr_nonnull(new);
	/* On sparc64: the only difference is the known hole at 36. */
	ck_assert_uint_eq(dk_ct_check(old, NULL, collect, &fd), 0);
	ck_assert_uint_eq(fd.n, 1);
	ck_assert_int_eq(fd.f[0].kind, DK_CT_HOLE);
	ck_assert_uint_eq(fd.f[0].native_off, 36);
	ck_assert_str_eq(fd.f[0].field, "dh_nregions");
	/* The regions start at 40 with 24-byte descriptors, in both. */
	ck_assert_int_eq(dk_ct_compute(old->layout(), 1, abi("sparc64"), &r,
	    &err), DK_OK);
	ck_assert_uint_eq(r.m[r.n - 1].off, 40);
	ck_assert_uint_eq(r.size, 40);
	ck_assert_uint_eq(r.align, 8);
	/* On i386, vm_offset_t is 4 bytes: the old header falls apart. */
	fd.n = 0;
	ck_assert_uint_gt(dk_ct_check(old, "i386", collect, &fd), 0);
	f = first_unknown(&fd, DK_CT_RESIZED);
	ck_assert_ptr_nonnull(f);
	ck_assert_str_eq(f->field, "dh_hdr_size");
	ck_assert_uint_eq(f->native_size, 4);
	/* The fixed-width header: alike on every ABI, i386 included. */
	fd.n = 0;
	ck_assert_uint_eq(dk_ct_check(new, NULL, collect, &fd), 0);
	ck_assert_uint_eq(fd.n, 0);
	ck_assert_int_eq(dk_ct_compute(new->layout(), 1, abi("i386"), &r,
	    &err), DK_OK);
	ck_assert_uint_eq(r.m[r.n - 1].off, 40);
	ck_assert_uint_eq(r.m[r.n - 1].t.align, 4);	/* uint64_t on i386 */
	ck_assert_uint_eq(r.size, 40);
}
END_TEST

START_TEST(test_kdh_every_version_512)
{
	for (unsigned v = 1; v <= 4; v++) {
		char name[32];
		const struct dk_ctentry *e;
		struct dk_ctresult r;
		struct dk_err err;
		struct found fd = { .n = 0 };

		snprintf(name, sizeof(name), "kerneldumpheader-v%u", v);
		e = dk_ctreg_by_name(name);
		ck_assert_ptr_nonnull(e);
		ck_assert_int_eq(dk_ct_compute(e->layout(), v, abi("i386"), &r,
		    &err), DK_OK);
		ck_assert_uint_eq(r.size, 512);
		ck_assert_int_eq(dk_ct_compute(e->layout(), v, abi("sparc64"),
		    &r, &err), DK_OK);
		ck_assert_uint_eq(r.size, 512);
		ck_assert_uint_eq(dk_ct_check(e, NULL, collect, &fd), 0);
		ck_assert_uint_eq(fd.n, 0);
	}
}
END_TEST

START_TEST(test_registry_lookups)
{
	ck_assert_ptr_nonnull(dk_ctreg_by_name("minidump-powerpc64"));
	ck_assert_ptr_null(dk_ctreg_by_name("no-such-header"));
	ck_assert_ptr_nonnull(dk_ctreg_by_tag("minidumphdr"));
	ck_assert_int_eq(dk_ct_abi_in("mips-o32 mips-n32", "mips-n32"), 1);
	ck_assert_int_eq(dk_ct_abi_in("mips-o32 mips-n32", "mips"), 0);
	ck_assert_int_eq(dk_ct_abi_in(NULL, "i386"), 0);
	/* Every writer ABI of every entry exists. */
	for (size_t i = 0; i < dk_ctreg_count(); i++) {
		const struct dk_ctentry *e = dk_ctreg_at(i);
		char buf[256], *p, *save = NULL;

		snprintf(buf, sizeof(buf), "%s", e->abis);
		for (p = strtok_r(buf, " ", &save); p != NULL;
		    p = strtok_r(NULL, " ", &save))
			ck_assert_msg(dk_ctabi_by_name(p) != NULL,
			    "%s: writer ABI %s unknown", e->layout()->name, p);
	}
}
END_TEST

static Suite *
layout_suite(void)
{
	Suite *s = suite_create("layout");
	TCase *te = tcase_create("engine");
	TCase *tc = tcase_create("check");

	tcase_add_loop_test(te, test_int_u64, 0, DK_ARRAY_LEN(int_u64_want));
	tcase_add_loop_test(te, test_types, 0, DK_ARRAY_LEN(types_want));
	tcase_add_test(te, test_bad_types);
	tcase_add_test(te, test_cdef);
	tcase_add_test(te, test_flexible_array);
	tcase_add_test(tc, test_registry_passes);
	tcase_add_test(tc, test_u_long_fails);
	tcase_add_test(tc, test_u_long_depends_on_abi);
	tcase_add_test(tc, test_moved_field_fails);
	tcase_add_test(tc, test_wrong_abi_fails);
	tcase_add_test(tc, test_unlisted_hole_fails);
	tcase_add_test(tc, test_missing_pad_row_fails);
	tcase_add_test(tc, test_stale_known_fails);
	tcase_add_test(tc, test_sparc64_old_and_new);
	tcase_add_test(tc, test_kdh_every_version_512);
	tcase_add_test(tc, test_registry_lookups);
	suite_add_tcase(s, te);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(layout_suite());
	int nfailed;

	srunner_run_all(sr, CK_ENV);
	nfailed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfailed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
