/*
 * check_kdwarf.c -- the DWARF reader of struct proc and struct thread
 * members (formats/kdwarf.c) against real compilers' DWARF: gcc and the
 * cross-compilers the README installs compile, with -g -c, a file that
 * declares the members as FreeBSD's sys/sys/proc.h does among others of
 * its own, and that also stores offsetof() and sizeof() of each in an
 * array (dk_layout, in .data).  That array is the compiler's layout
 * computed as code, not as DWARF: the reader's offsets, widths and
 * sizes must equal it, in every byte order and pointer size, in DWARF 4
 * and 5.  A cross-compiler that is missing is a failure (README).
 *
 * Also: a file without DWARF (DK_EUNSUP, saying so), a struct proc
 * without p_pptr (the others still read, the note naming it), a member
 * type the reader must refuse.
 */
#include <check.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bytes.h"
#include "kthreads.h"

/* The members among others, as FreeBSD declares them (LIST_ENTRY ...). */
static const char src[] =
"#include <stddef.h>\n"
"struct thread;\n"
"struct proc {\n"
"	struct { struct proc *le_next; struct proc **le_prev; } p_list;\n"
"	struct { struct thread *tqh_first; struct thread **tqh_last; } p_threads;\n"
"	int p_flag;\n"
"	char p_pad;\n"
"	enum p_states { PRS_NEW = 0, PRS_NORMAL, PRS_ZOMBIE } p_state;\n"
"	int p_pid;\n"
"	struct proc *p_pptr;\n"
"	long p_other[3];\n"
"	int p_oppid;\n"
"	char p_comm[20];\n"
"};\n"
"struct thread {\n"
"	void *td_lock;\n"
"	struct proc *td_proc;\n"
"	int td_flags;\n"
"	int td_inhibitors;\n"
"	char td_pad;\n"
"	enum td_states { TDS_INACTIVE = 0x0, TDS_INHIBITED, TDS_CAN_RUN,\n"
"	    TDS_RUNQ, TDS_RUNNING } td_state;\n"
"	int td_tid;\n"
"	int td_slptick;\n"
"};\n"
"struct proc p0; struct thread t0;\n"
"unsigned dk_layout[] = {\n"
"	offsetof(struct proc, p_pptr), sizeof(p0.p_pptr),\n"
"	offsetof(struct proc, p_oppid), sizeof(p0.p_oppid),\n"
"	offsetof(struct proc, p_state), sizeof(p0.p_state),\n"
"	offsetof(struct thread, td_state), sizeof(t0.td_state),\n"
"	sizeof(struct proc), sizeof(struct thread), sizeof(void *),\n"
"	offsetof(struct proc, p_flag), sizeof(p0.p_flag),\n"
"	offsetof(struct thread, td_inhibitors), sizeof(t0.td_inhibitors),\n"
"	offsetof(struct thread, td_flags), sizeof(t0.td_flags),\n"
"	offsetof(struct thread, td_slptick), sizeof(t0.td_slptick),\n"
"};\n";

static const struct cc {
	const char	*cc;
	const char	*flags;
} ccs[] = {
	{ "cc", "-gdwarf-5" }, { "cc", "-gdwarf-4" },
	{ "cc", "-gdwarf-2 -gstrict-dwarf" },	/* DW_OP_plus_uconst */
	{ "i686-linux-gnu-gcc", "-g" },
	{ "arm-linux-gnueabihf-gcc", "-g" },
	/*
	 * Debian 12's libdw (elfutils 0.188) has no MIPS backend to
	 * relocate an object's DWARF: linked, as a kernel is.
	 */
	{ "mips-linux-gnu-gcc", "-g -nostdlib -static -Wl,-e,0" },
	{ "mips64-linux-gnuabi64-gcc", "-gdwarf-4 -nostdlib -static -Wl,-e,0" },
	{ "powerpc64-linux-gnu-gcc", "-g" },
	{ "sparc64-linux-gnu-gcc", "-g" },
};

static char dir[] = "/tmp/check_kdwarf.XXXXXX";

static void
setup(void)
{
	FILE *f;
	char path[64];

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/p.c", dir);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	fputs(src, f);
	fclose(f);
}

static void
teardown(void)
{
	char cmd[96];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "%s: not removed\n", dir);
}

/* dk_layout[] of the object at path, decoded in its byte order. */
static size_t
layout_of(const char *path, uint32_t *v, size_t cap)
{
	Elf *e;
	Elf_Scn *scn = NULL;
	size_t n = 0, shstr;
	int fd;

	ck_assert(elf_version(EV_CURRENT) != EV_NONE);
	ck_assert_int_ge(fd = open(path, O_RDONLY), 0);
	ck_assert_ptr_nonnull(e = elf_begin(fd, ELF_C_READ, NULL));
	ck_assert_int_eq(elf_getshdrstrndx(e, &shstr), 0);
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *d;
		const char *name;

		gelf_getshdr(scn, &sh);
		name = elf_strptr(e, shstr, sh.sh_name);
		if (name == NULL || strcmp(name, ".data") != 0)
			continue;
		/* elf_rawdata: the bytes as stored, in the file's order. */
		ck_assert_ptr_nonnull(d = elf_rawdata(scn, NULL));
		for (n = 0; n < cap && 4 * (n + 1) <= d->d_size; n++)
			v[n] = (uint32_t)dec_uint((uint8_t *)d->d_buf + 4 * n,
			    4, elf_getident(e, NULL)[EI_DATA] == ELFDATA2MSB ?
			    DK_BE : DK_LE);
	}
	elf_end(e);
	close(fd);
	return n;
}

START_TEST(test_compilers)
{
	const struct cc *c = &ccs[_i];
	char cmd[512], obj[64];
	uint32_t want[19];
	struct dk_kdwarf kd;
	struct dk_err err;
	/* dk_layout's pairs: 4 before the sizes and pointer, 4 after. */
	static const int order[] = { DK_KD_P_PPTR, DK_KD_P_OPPID,
	    DK_KD_P_STATE, DK_KD_TD_STATE, DK_KD_P_FLAG, DK_KD_TD_INHIBITORS,
	    DK_KD_TD_FLAGS, DK_KD_TD_SLPTICK };

	snprintf(obj, sizeof(obj), "%s/p%d.o", dir, _i);
	snprintf(cmd, sizeof(cmd), "%s %s -O0 %s -o %s %s/p.c 2>&1", c->cc,
	    c->flags, strstr(c->flags, "-static") ? "" : "-c", obj, dir);
	ck_assert_msg(system(cmd) == 0, "%s failed (installed? README)", cmd);
	ck_assert_uint_eq(layout_of(obj, want, 19), 19);
	dk_err_clear(&err);
	ck_assert_msg(dk_kernel_dwarf(obj, want[10], &kd, &err) == DK_OK,
	    "%s: %s", c->cc, err.msg);
	ck_assert_msg(kd.note[0] == '\0', "%s: note '%s'", c->cc, kd.note);
	for (size_t k = 0; k < DK_ARRAY_LEN(order); k++) {
		size_t at = 2 * k + (k >= 4 ? 3 : 0);	/* past the sizes */

		ck_assert_msg(kd.off[order[k]] == want[at] &&
		    kd.width[order[k]] == want[at + 1], "%s %s: %s at %u "
		    "(%u bytes), the compiler's %u (%u)", c->cc, c->flags,
		    dk_kd_member_name((size_t)order[k]), kd.off[order[k]],
		    kd.width[order[k]], want[at], want[at + 1]);
	}
	ck_assert_uint_eq(kd.size[DK_KD_PROC], want[8]);
	ck_assert_uint_eq(kd.size[DK_KD_THREAD], want[9]);
	/* The enumerators from the DWARF: FreeBSD's values. */
	ck_assert_int_eq(kd.enum_dwarf[0], 1);
	ck_assert_int_eq(kd.enum_dwarf[1], 1);
	ck_assert_int_eq(kd.prs[2], 2);
	ck_assert_int_eq(kd.tds[4], 4);
}
END_TEST

/* Compile text to obj with cc -g -c; the reader's answer for it. */
static enum dk_status
read_text(const char *text, const char *flags, struct dk_kdwarf *kd,
    struct dk_err *err)
{
	char path[64], obj[64], cmd[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/t.c", dir);
	snprintf(obj, sizeof(obj), "%s/t.o", dir);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	fputs(text, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "cc %s -c -o %s %s", flags, obj, path);
	ck_assert_int_eq(system(cmd), 0);
	dk_err_clear(err);
	return dk_kernel_dwarf(obj, 8, kd, err);
}

START_TEST(test_no_dwarf)
{
	struct dk_kdwarf kd;
	struct dk_err err;

	ck_assert_int_eq(read_text("struct proc { int p_state; } p;\n", "-g0",
	    &kd, &err), DK_EUNSUP);
	ck_assert_ptr_nonnull(strstr(err.msg, "no DWARF"));
	ck_assert_int_eq(read_text("int x;\n", "-g", &kd, &err), DK_EUNSUP);
	ck_assert_ptr_nonnull(strstr(err.msg, "no struct proc"));
}
END_TEST

START_TEST(test_partial)
{
	struct dk_kdwarf kd;
	struct dk_err err;

	/* No p_pptr, p_state a char *: both named, td_state still read. */
	ck_assert_int_eq(read_text("struct proc { long a; char *p_state; "
	    "int p_oppid; } p;\nstruct thread { int x; enum { A, B } "
	    "td_state; } t;\n", "-g", &kd, &err), DK_OK);
	ck_assert_ptr_nonnull(strstr(kd.note, "struct proc has no member "
	    "p_pptr"));
	ck_assert_ptr_nonnull(strstr(kd.note, "p_state is 8 bytes of a "
	    "pointer: expected an enumeration"));
	ck_assert_uint_eq(kd.width[DK_KD_P_PPTR], 0);
	ck_assert_uint_eq(kd.width[DK_KD_P_STATE], 0);
	ck_assert_uint_eq(kd.off[DK_KD_P_OPPID], 16);
	ck_assert_uint_eq(kd.width[DK_KD_P_OPPID], 4);
	ck_assert_uint_eq(kd.off[DK_KD_TD_STATE], 4);
	/* Its enumerators are not FreeBSD's: the values stay FreeBSD's. */
	ck_assert_int_eq(kd.enum_dwarf[1], 0);
	ck_assert_int_eq(kd.tds[3], 3);
}
END_TEST

static Suite *
kdwarf_suite(void)
{
	Suite *s = suite_create("kdwarf");
	TCase *tc = tcase_create("compilers");

	tcase_add_unchecked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_compilers, 0, (int)DK_ARRAY_LEN(ccs));
	tcase_add_test(tc, test_no_dwarf);
	tcase_add_test(tc, test_partial);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(kdwarf_suite());
	int nfailed;

	srunner_run_all(sr, CK_ENV);
	nfailed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfailed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
