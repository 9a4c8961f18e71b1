/*
 * check_vmcore_corrupt.c -- dumpgen --format vmcore --corrupt (the vm-*
 * kinds of fixtures/corrupt.c, their hooks in fixtures/gen_vmcore.c)
 * against dumpcheck (formats/check_vmcore.c).
 *
 * For each producer on architectures of both classes and byte orders
 * (amd64, aarch64: ELF64 little-endian; i386: ELF32 from the kernel and
 * makedumpfile, ELF64 from QEMU; powerpc64 with 64 KiB pages and s390x:
 * big-endian), the
 * undamaged file must be clean (no error, no warning), and each kind
 * that applies must make dumpcheck report its code at the offset the
 * hook computed from the layout the generator wrote, and nothing else
 * the clean file did not have, but for the consequences listed below
 * with their reasons.  A kind that does not apply says why (its na
 * hook).  Every vmcore.* code of the validator needs a kind, or an entry
 * in no_kind[] with the reason; where that reason is a producer's
 * quirk, that producer's clean file must show it.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "corrupt.h"
#include "dkcheck.h"
#include "dumpkit.h"
#include "gen_vmcore.h"

static const char *const arches[] = {
	"amd64", "i386", "aarch64", "powerpc64", "s390x",
};

static const char *const producers[] = {
	"kernel", "kernel-novmcoreinfo", "makedumpfile", "qemu-7.2",
	"qemu-7.2-vmcoreinfo", "qemu-7.2-paging", "makedumpfile,oldlog",
};

/* Findings a kind brings besides its own, and why that is right. */
static const struct {
	const char	*kind;
	const char	*code;
	const char	*why;
} also[] = {
	{ "vm-header-cut", "file.truncated", "the file is cut: where it "
	  "ends is reported too" },
	{ "vm-truncated", "check.incomplete", "where the file lost one copy "
	  "of the kernel text, the overlap cannot be compared" },
	{ "vm-note-cut", "vmcore.vmcoreinfo-missing", "the note cut is "
	  "VMCOREINFO (the last one), which is then unread" },
	{ "vm-vmci-offset", "check.incomplete", "where the OFFSET damaged is "
	  "one the kernel log's reader uses, the log is not checked" },
};

/*
 * The validator's codes without a kind: a producer's quirk (its clean
 * file must have it), or no producer and the reason.
 */
static const struct {
	const char	*code;
	const char	*arch, *producer;	/* whose clean file has it */
	const char	*why;
} no_kind[] = {
	{ "vmcore.overlap", "amd64", "kernel", "a note: the kernel's own "
	  "kernel-text PT_LOAD over the direct map, bytes identical" },
	{ "vmcore.quirk.ehsize", "amd64", "qemu-7.2", "QEMU 7.x's quirk" },
	{ "vmcore.quirk.shdr-first", "amd64", "qemu-7.2", "QEMU 7.x's quirk" },
	{ "vmcore.quirk.shstrtab-swapped", "s390x", "qemu-7.2", "QEMU 7.x's "
	  "quirk on big-endian guests" },
	{ "vmcore.quirk.elf64-em386", "i386", "qemu-7.2", "QEMU's x86 CPUs "
	  "not in long mode" },
	{ "vmcore.quirk.pn-xnum", "amd64", "qemu-7.2-paging", "QEMU's paging "
	  "dumps" },
	{ "vmcore.quirk.aliases", "amd64", "qemu-7.2-paging", "QEMU's paging "
	  "dumps" },
	{ "vmcore.quirk.excluded", NULL, NULL, "makedumpfile -d N's filtering "
	  "(p_memsz > p_filesz), not damage; dumpgen's makedumpfile producer "
	  "is -d 0, which leaves nothing out" },
};

struct finding {
	char		code[48];
	int		has_off;
	uint64_t	off;
	enum dk_severity sev;
};

struct found {
	struct finding	f[64];
	size_t		n;
};

static void
keep(void *arg, const struct dk_finding *f)
{
	struct found *s = arg;

	if (s->n < DK_ARRAY_LEN(s->f)) {
		snprintf(s->f[s->n].code, sizeof(s->f[0].code), "%s", f->code);
		s->f[s->n].has_off = f->has_offset;
		s->f[s->n].off = f->offset;
		s->f[s->n].sev = f->severity;
		s->n++;
	}
}

/* Is (code, off) among s's?  off UINT64_MAX: a finding with no offset. */
static int
has(const struct found *s, const char *code, uint64_t off)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->f[i].code, code) == 0 && (off == UINT64_MAX ?
		    !s->f[i].has_off : s->f[i].has_off && s->f[i].off == off))
			return 1;
	return 0;
}

static void
run_check(const char *path, struct found *s)
{
	struct dk_check_opts co = { .finding = keep, .arg = s };
	struct dk_check_result res;
	struct dk_err err;

	memset(s, 0, sizeof(*s));
	ck_assert_msg(dk_check(path, &co, &res, &err) == DK_OK, "%s: %s",
	    path, err.msg);
	ck_assert_msg(s->n < DK_ARRAY_LEN(s->f), "%s: too many findings",
	    path);
}

static int
allowed(const char *kind, const char *code)
{
	for (size_t i = 0; i < DK_ARRAY_LEN(also); i++)
		if (strcmp(also[i].kind, kind) == 0 &&
		    strcmp(also[i].code, code) == 0)
			return 1;
	return 0;
}

static void
tmp_path(char *buf, size_t len, const char *what, int i)
{
	const char *t = getenv("TMPDIR");

	/* Some 300 files of 25 to 100 MiB: in memory unless told. */
	if (t == NULL)
		t = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	snprintf(buf, len, "%s/check_vmcore_corrupt.%d.%s.%d", t,
	    (int)getpid(), what, i);
}

/* Append a line to the failures of one model. */
static void
note_bad(char *buf, size_t len, size_t *n, const char *line)
{
	if (*n < len)
		*n += (size_t)snprintf(buf + *n, len - *n, "\n  %s", line);
}

/* One (arch, producer): the clean file, then each kind on it. */
START_TEST(test_kinds)
{
	struct fx_opts o = { .arch = arches[_i / DK_ARRAY_LEN(producers)],
	    .variant = producers[_i % DK_ARRAY_LEN(producers)],
	    .mem = 64u << 20, .seed = 5 };
	const struct fx_corruption *k;
	static struct found base, got;
	char path[256], name[64], line[600], bad[8192];
	size_t nbad = 0, napplied = 0;
	struct fx_vm *m;
	struct dk_err err;
	uint64_t off;

	bad[0] = '\0';
	ck_assert_msg(fx_vm_build(&o, &m, &err) == DK_OK, "%s", err.msg);
	fx_vm_name(m, name, sizeof(name));
	tmp_path(path, sizeof(path), "clean", _i);
	ck_assert_msg(fx_vm_write(m, NULL, 0, path, 1, NULL, &err) == DK_OK,
	    "%s: %s", name, err.msg);
	run_check(path, &base);
	for (size_t i = 0; i < base.n; i++)
		ck_assert_msg(base.f[i].sev == DK_SEV_NOTE, "%s, undamaged: %s "
		    "(%s)", name, base.f[i].code,
		    dk_severity_name(base.f[i].sev));
	for (size_t i = 0; (k = fx_corruption_at(i, FX_VMCORE)) != NULL; i++) {
		const char *why = fx_vm_na(m, k);

		if (why != NULL) {
			ck_assert_ptr_nonnull(k->vm->na);
			ck_assert_uint_gt(strlen(why), 10);
			continue;
		}
		napplied++;
		ck_assert_msg(fx_vm_write(m, &k, 1, path, 1, &off, &err) ==
		    DK_OK, "%s, %s: %s", name, k->name, err.msg);
		run_check(path, &got);
		if (has(&base, k->codes, off)) {
			snprintf(line, sizeof(line), "%s: the undamaged file has "
			    "%s at %#jx already", k->name, k->codes,
			    (uintmax_t)off);
			note_bad(bad, sizeof(bad), &nbad, line);
		}
		if (!has(&got, k->codes, off)) {
			snprintf(line, sizeof(line), "%s: no %s at %#jx (first "
			    "finding: %s)", k->name, k->codes, (uintmax_t)off,
			    got.n > 0 ? got.f[0].code : "none");
			note_bad(bad, sizeof(bad), &nbad, line);
		}
		for (size_t j = 0; j < got.n; j++) {
			const struct finding *f = &got.f[j];
			uint64_t at = f->has_off ? f->off : UINT64_MAX;

			if ((strcmp(f->code, k->codes) == 0 && at == off) ||
			    has(&base, f->code, at) || allowed(k->name,
			    f->code))
				continue;
			snprintf(line, sizeof(line), "%s: also %s at %#jx",
			    k->name, f->code, (uintmax_t)at);
			note_bad(bad, sizeof(bad), &nbad, line);
		}
	}
	unlink(path);
	fx_vm_free(m);
	ck_assert_msg(nbad == 0, "%s:%s", name, bad);
	ck_assert_uint_ge(napplied, 5);
}
END_TEST

/* Every vmcore.* code has a kind, or a reason not to; each kind applies. */
START_TEST(test_coverage)
{
	const struct dk_check_code *c;
	const struct fx_corruption *k;
	size_t ncodes = 0, nlog = 0;

	for (size_t i = 0; (c = dk_check_code_at(i)) != NULL; i++) {
		int n = 0;

		if (strncmp(c->code, "linux.log-", 10) == 0) {
			nlog++;
			for (size_t j = 0; (k = fx_corruption_at(j,
			    FX_VMCORE)) != NULL; j++)
				n += strcmp(k->codes, c->code) == 0;
			ck_assert_msg(n == 1, "%s: %d vm-log-* kinds, not one",
			    c->code, n);
			continue;
		}
		if (strncmp(c->code, "vmcore.", 7) != 0)
			continue;
		ncodes++;
		for (size_t j = 0; (k = fx_corruption_at(j, FX_VMCORE)) !=
		    NULL; j++)
			n += strcmp(k->codes, c->code) == 0;
		for (size_t j = 0; j < DK_ARRAY_LEN(no_kind); j++)
			if (strcmp(no_kind[j].code, c->code) == 0) {
				ck_assert_msg(n == 0, "%s: a kind and in "
				    "no_kind[]", c->code);
				n = -1;
			}
		ck_assert_msg(n != 0, "%s: no vm-* kind, and not in no_kind[] "
		    "with a reason", c->code);
	}
	ck_assert_uint_eq(ncodes, 19);
	ck_assert_uint_eq(nlog, 9);
	for (size_t j = 0; j < DK_ARRAY_LEN(no_kind); j++) {
		int known = 0;

		for (size_t i = 0; (c = dk_check_code_at(i)) != NULL; i++)
			known |= strcmp(c->code, no_kind[j].code) == 0;
		ck_assert_msg(known, "no_kind[]: %s is not a code",
		    no_kind[j].code);
	}
	/* Each kind applies to one of the models the matrix tests. */
	for (size_t j = 0; (k = fx_corruption_at(j, FX_VMCORE)) != NULL; j++) {
		int n = 0;

		ck_assert_ptr_nonnull(k->vm);
		ck_assert_ptr_nonnull(k->vm->file);
		ck_assert_ptr_null(k->elf);
		for (size_t i = 0; i < DK_ARRAY_LEN(arches) *
		    DK_ARRAY_LEN(producers); i++) {
			struct fx_opts o = { .arch = arches[i /
			    DK_ARRAY_LEN(producers)], .variant = producers[i %
			    DK_ARRAY_LEN(producers)], .mem = 64u << 20 };
			struct fx_vm *m;
			struct dk_err err;

			ck_assert_int_eq(fx_vm_build(&o, &m, &err), DK_OK);
			n += fx_vm_na(m, k) == NULL;
			fx_vm_free(m);
		}
		ck_assert_msg(n > 0, "%s applies to no model tested", k->name);
	}
}
END_TEST

/* A quirk without a kind: its producer's clean file has it. */
START_TEST(test_no_kind_quirks)
{
	struct fx_opts o = { .arch = no_kind[_i].arch, .variant =
	    no_kind[_i].producer, .mem = 64u << 20, .seed = 5 };
	static struct found base;
	char path[256];
	struct fx_vm *m;
	struct dk_err err;
	int seen = 0;

	if (no_kind[_i].producer == NULL) {
		ck_assert_uint_gt(strlen(no_kind[_i].why), 20);
		return;
	}
	ck_assert_int_eq(fx_vm_build(&o, &m, &err), DK_OK);
	tmp_path(path, sizeof(path), "quirk", _i);
	ck_assert_msg(fx_vm_write(m, NULL, 0, path, 1, NULL, &err) == DK_OK,
	    "%s", err.msg);
	run_check(path, &base);
	for (size_t i = 0; i < base.n; i++)
		seen |= strcmp(base.f[i].code, no_kind[_i].code) == 0;
	ck_assert_msg(seen, "%s %s: no %s (%s)", o.arch, o.variant,
	    no_kind[_i].code, no_kind[_i].why);
	unlink(path);
	fx_vm_free(m);
}
END_TEST

/* dumpgen refuses a kind where it does not apply, with the reason. */
START_TEST(test_refuse)
{
	struct fx_opts o = { .arch = "powerpc64", .variant = "qemu-7.2",
	    .mem = 64u << 20 };
	const struct fx_corruption *k = fx_corruption_by_name(
	    "vm-overlap-conflict");
	char path[256];
	struct fx_vm *m;
	struct dk_err err;
	uint64_t off;

	ck_assert_ptr_nonnull(k);
	ck_assert_int_eq(fx_vm_build(&o, &m, &err), DK_OK);
	tmp_path(path, sizeof(path), "refuse", 0);
	ck_assert_int_eq(fx_vm_write(m, &k, 1, path, 1, &off, &err),
	    DK_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "QEMU writes each physical "
	    "byte once"));
	ck_assert_int_ne(access(path, F_OK), 0);
	fx_vm_free(m);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("vmcore_corrupt");
	TCase *tc = tcase_create("kinds");
	TCase *cov = tcase_create("coverage");
	SRunner *sr;
	int nfailed;

	tcase_add_loop_test(tc, test_kinds, 0, (int)(DK_ARRAY_LEN(arches) *
	    DK_ARRAY_LEN(producers)));
	tcase_set_timeout(tc, 300);
	tcase_add_test(cov, test_coverage);
	tcase_add_loop_test(cov, test_no_kind_quirks, 0,
	    (int)DK_ARRAY_LEN(no_kind));
	tcase_add_test(cov, test_refuse);
	tcase_set_timeout(cov, 120);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, cov);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_ENV);
	nfailed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfailed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
