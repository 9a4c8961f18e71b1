/*
 * check_dumpcheck.c -- the validation engine (formats/check.c) and its
 * measure, the corruption matrix.
 *
 *  - "clean": every entry of `dumpgen --list`, as a minidump and as a
 *    portable ELF minidump: no error, no warning, with --pattern; and
 *    the memory digest of both files is the same.
 *  - "matrix": every corruption kind (fixtures/corrupt.c) on every entry
 *    of `dumpgen --list`, in both formats, where the kind applies: the
 *    expected finding code is reported, at the expected offset where the
 *    kind has one.
 *  - "engine": files that cannot be examined, --quick reading no page
 *    data, --max-findings, the digest's properties, the code table.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sample.h"
#include "dkcheck.h"
#include "corrupt.h"
#include "gen.h"

#define	SEED		5
#define	MAX_SEEN	64

static char tmpdir[256];

static void
setup_tmp(void)
{
	const char *t = getenv("TMPDIR");

	/*
	 * Fixtures are written and fsynced by the thousand: in memory
	 * (/dev/shm) unless TMPDIR says otherwise.
	 */
	if (t == NULL)
		t = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	snprintf(tmpdir, sizeof(tmpdir), "%s/dkchk.XXXXXX", t);
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void
rm_tmp(const char *file)
{
	if (file != NULL)
		(void)unlink(file);
	(void)rmdir(tmpdir);
}

/* The findings of one check, kept for the assertions. */
struct seen {
	size_t			 n;
	struct dk_finding	 f[MAX_SEEN];
};

static void
keep(void *arg, const struct dk_finding *f)
{
	struct seen *s = arg;

	if (s->n < MAX_SEEN)
		s->f[s->n++] = *f;
}

/* All findings, one a line, for a failure message. */
static const char *
listing(const struct seen *s)
{
	static char buf[8192];
	size_t k = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < s->n && k < sizeof(buf); i++)
		k += (size_t)snprintf(buf + k, sizeof(buf) - k, "\n  %s %s @%#jx"
		    " %s", dk_severity_name(s->f[i].severity), s->f[i].code,
		    (uintmax_t)s->f[i].offset, s->f[i].msg);
	return buf;
}

static size_t
nvariants(void)
{
	struct fx_variant v;
	size_t n = 0;

	while (fx_variant_at(n, &v))
		n++;
	return n;
}

static size_t
nkinds(void)
{
	size_t n = 0;

	while (fx_corruption_at(n, FX_NATIVE | FX_PORTABLE) != NULL)
		n++;
	return n;
}

static void
build(size_t i, struct fx_dump *f)
{
	struct fx_variant v;
	struct fx_opts o = { .mem = 32u << 20, .seed = SEED, .compact = 1 };
	struct dk_err err;

	ck_assert(fx_variant_at(i, &v));
	o.arch = v.arch;
	o.version = v.version;
	o.variant = v.variant;
	ck_assert_msg(fx_build(&o, f, &err) == DK_OK, "build %s v%u %s: %s",
	    v.arch, v.version, v.variant, err.msg);
}

static enum dk_status
run_check(const char *path, const struct fx_dump *f, int quick,
    struct seen *s, struct dk_check_result *res, struct dk_err *err)
{
	struct dk_check_opts o = { .arch = f->arch->name, .quick = quick,
	    .pattern = !quick && !f->o.sparse, .seed = f->o.seed,
	    .checksum = !quick, .finding = keep, .arg = s };

	s->n = 0;
	return dk_check(path, &o, res, err);
}

/* ---------------------------------------------------------------------- */

START_TEST(test_dumpcheck_clean)
{
	/* First: the declarations' initialisers use the matrix index. */
	_i = dk_test_index(_i);
	struct fx_dump f;
	struct dk_err err;
	struct dk_check_result res;
	struct seen s;
	char path[512];
	uint64_t sum[2][2];

	setup_tmp();
	snprintf(path, sizeof(path), "%s/clean", tmpdir);
	build((size_t)_i, &f);
	for (int portable = 0; portable < 2; portable++) {
		ck_assert_msg(fx_write_corrupt(&f, NULL, 0, portable, path, 1,
		    NULL, &err) == DK_OK, "write: %s", err.msg);
		ck_assert_msg(run_check(path, &f, 0, &s, &res, &err) == DK_OK,
		    "%s: %s", f.arch->name, err.msg);
		ck_assert_msg(res.examined && res.deep, "not examined");
		ck_assert_msg(res.nerrors == 0 && res.nwarnings == 0,
		    "%s v%u %s%s: %ju errors, %ju warnings:%s", f.arch->name,
		    f.o.version, f.o.variant, portable ? " portable" : "",
		    (uintmax_t)res.nerrors, (uintmax_t)res.nwarnings,
		    listing(&s));
		ck_assert(res.has_checksum);
		ck_assert_uint_eq(res.npages_present, res.npages);
		memcpy(sum[portable], res.checksum, sizeof(sum[0]));
		/* --quick: the same verdict without reading a page. */
		ck_assert_int_eq(run_check(path, &f, 1, &s, &res, &err), DK_OK);
		ck_assert_msg(res.nerrors == 0 && res.nwarnings == 0,
		    "--quick:%s", listing(&s));
		ck_assert_uint_eq(res.bytes_read, 0);
	}
	ck_assert_msg(sum[0][0] == sum[1][0] && sum[0][1] == sum[1][1],
	    "%s: the digests of a dump and its conversion differ",
	    f.arch->name);
	fx_free(&f);
	rm_tmp(path);
}
END_TEST

/*
 * The compressed-stream kinds damage the stream, not the dump: the
 * decoder's finding is the same on every row of an architecture, so the
 * matrix runs them on its last row (its newest version) only.  Each
 * compresses the whole file: on every row they took half the matrix's
 * time, in zlib and liblzma.
 */
static int
stream_kind_skipped(const struct fx_corruption *k, size_t vi)
{
	struct fx_variant v, next;

	return strncmp(k->codes, "compress.", 9) == 0 &&
	    fx_variant_at(vi, &v) && fx_variant_at(vi + 1, &next) &&
	    strcmp(v.arch, next.arch) == 0;
}

/* Iteration i: variant, kind and format. */
START_TEST(test_dumpcheck_matrix)
{
	/* First: the declarations' initialisers use the matrix index. */
	_i = dk_test_index(_i);
	size_t nk = nkinds(), vi = (size_t)_i / (2 * nk);
	const struct fx_corruption *k = fx_corruption_at((size_t)_i / 2 % nk,
	    FX_NATIVE | FX_PORTABLE);
	int portable = _i % 2, found = 0, at = 0;
	struct fx_dump f;
	struct fx_expect x;
	struct dk_err err;
	struct dk_check_result res;
	struct seen s;
	char path[512];
	enum dk_status st;

	if (stream_kind_skipped(k, vi))
		return;
	build(vi, &f);
	if (fx_corruption_na(k, &f, portable) != NULL) {
		fx_free(&f);
		return;
	}
	setup_tmp();
	snprintf(path, sizeof(path), "%s/bad", tmpdir);
	st = fx_write_corrupt(&f, &k, 1, portable, path, 1, &x, &err);
	ck_assert_msg(st == DK_OK, "%s on %s v%u %s: %s", k->name,
	    f.arch->name, f.o.version, f.o.variant, err.msg);
	st = run_check(path, &f, 0, &s, &res, &err);
	ck_assert_msg(st == DK_OK && res.examined, "%s on %s v%u %s%s: not "
	    "examined: %s", k->name, f.arch->name, f.o.version, f.o.variant,
	    portable ? " (portable)" : "", err.msg);
	for (size_t i = 0; i < s.n; i++)
		if (strcmp(s.f[i].code, x.code) == 0) {
			found = 1;
			at |= x.off == UINT64_MAX || (s.f[i].has_offset &&
			    s.f[i].offset == x.off);
		}
	ck_assert_msg(found && at, "%s on %s v%u %s%s: expected %s at %#jx, "
	    "found:%s", k->name, f.arch->name, f.o.version, f.o.variant,
	    portable ? " (portable)" : "", x.code, (uintmax_t)x.off,
	    listing(&s));
	/* A broken file is never reported without an error, unless the
	 * kind's finding is a warning or a note by design (a tiny page is
	 * no damage: dumpkit does not translate it). */
	ck_assert_msg(res.nerrors > 0 || strcmp(x.code,
	    "pmap.page-not-dumped") == 0 || strcmp(x.code, "kdh.cleared") ==
	    0 || strcmp(x.code, "kdh.encrypted") == 0 || strcmp(x.code,
	    "pmap.untranslated") == 0, "%s: no error", k->name);
	/* ... and then it is the only finding. */
	if (strcmp(x.code, "pmap.untranslated") == 0)
		ck_assert_msg(s.n == 1 && res.nerrors == 0 &&
		    res.nwarnings == 0, "%s on %s v%u %s%s: expected only "
		    "the note, found:%s", k->name, f.arch->name, f.o.version,
		    f.o.variant, portable ? " (portable)" : "", listing(&s));
	fx_free(&f);
	rm_tmp(path);
}
END_TEST

/* How many combinations the matrix runs, and how many do not apply. */
START_TEST(test_dumpcheck_census)
{
	size_t nv = nvariants(), nk = nkinds(), yes = 0, no = 0, skip = 0;
	struct fx_dump f;

	for (size_t v = 0; v < nv; v++) {
		build(v, &f);
		for (size_t k = 0; k < nk; k++)
			for (int p = 0; p < 2; p++) {
				const struct fx_corruption *c =
				    fx_corruption_at(k, FX_NATIVE | FX_PORTABLE);

				if (stream_kind_skipped(c, v))
					skip++;
				else if (fx_corruption_na(c, &f, p) == NULL)
					yes++;
				else
					no++;
			}
		fx_free(&f);
	}
	printf("dumpcheck matrix: %zu variants x %zu kinds x 2 formats: %zu "
	    "combinations checked, %zu not applicable, %zu compressed-stream "
	    "combinations left to the last row of each architecture\n", nv,
	    nk, yes, no, skip);
	ck_assert_uint_gt(yes, nv * 2 * 16);
}
END_TEST

/* ---------------------------------------------------------------------- */

START_TEST(test_dumpcheck_not_examined)
{
	struct dk_check_opts o = { 0 };
	struct dk_check_result res;
	struct dk_err err;
	static const char text[] = "this is not a dump, only some text\n";
	uint8_t elf[64] = { 0x7f, 'E', 'L', 'F', 2, 1, 1 };

	ck_assert_int_eq(dk_check("/nonexistent/dump", &o, &res, &err),
	    DK_ESYS);
	ck_assert_int_eq(res.examined, 0);
	ck_assert_int_eq(dk_check_mem(text, sizeof(text), "text", &o, &res,
	    &err), DK_EUNSUP);
	ck_assert_msg(strstr(err.msg, "offset 0") != NULL, "%s", err.msg);
	ck_assert_int_eq(dk_check_mem(elf, sizeof(elf), "elf", &o, &res,
	    &err), DK_EUNSUP);
	ck_assert_int_eq(dk_check_mem(text, 0, "empty", &o, &res, &err),
	    DK_EUNSUP);
}
END_TEST

/* A header cut to a few bytes is still a minidump, reported truncated. */
START_TEST(test_dumpcheck_tiny)
{
	struct dk_check_result res;
	struct dk_err err;
	struct seen s = { 0 };
	struct dk_check_opts o = { .finding = keep, .arg = &s };
	char buf[40] = "minidump FreeBSD/amd64";

	for (size_t n = 24; n <= sizeof(buf); n++) {
		s.n = 0;
		ck_assert_int_eq(dk_check_mem(buf, n, "tiny", &o, &res, &err),
		    DK_OK);
		ck_assert_msg(res.nerrors > 0 && strcmp(s.f[s.n - 1].code,
		    "check.incomplete") == 0, "%zu bytes:%s", n, listing(&s));
	}
}
END_TEST

START_TEST(test_dumpcheck_max_findings)
{
	struct fx_dump f;
	const struct fx_corruption *k[2] = { fx_corruption_by_name("pattern"),
	    fx_corruption_by_name("bitmap-beyond-memory") };
	struct fx_expect x[2];
	struct dk_err err;
	struct dk_check_result res;
	struct seen s = { 0 };
	struct dk_check_opts o = { .pattern = 1, .seed = SEED,
	    .max_findings = 1, .finding = keep, .arg = &s };
	char path[512];

	setup_tmp();
	snprintf(path, sizeof(path), "%s/two", tmpdir);
	build(2, &f);		/* amd64 version 3 */
	ck_assert_msg(fx_write_corrupt(&f, k, 2, 0, path, 1, x, &err) ==
	    DK_OK, "%s", err.msg);
	ck_assert_int_eq(dk_check(path, &o, &res, &err), DK_OK);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_uint_eq(res.nerrors, 2);
	ck_assert_uint_eq(res.nsuppressed, 1);
	fx_free(&f);
	rm_tmp(path);
}
END_TEST

/* The digest depends on every byte and on every page's address. */
START_TEST(test_dumpcheck_digest)
{
	uint8_t page[4096] = { 0 };
	struct dk_digest g;
	uint64_t a[2], b[2], c[2], z[2];

	dk_digest_init(&g, sizeof(page));
	dk_digest_page(&g, 0x1000, page);
	dk_digest_final(&g, z);
	page[4095] = 1;
	dk_digest_init(&g, sizeof(page));
	dk_digest_page(&g, 0x1000, page);
	dk_digest_final(&g, a);
	dk_digest_init(&g, sizeof(page));
	dk_digest_page(&g, 0x2000, page);
	dk_digest_final(&g, b);
	dk_digest_init(&g, sizeof(page));
	dk_digest_page(&g, 0x1000, page);
	dk_digest_page(&g, 0x2000, page);
	dk_digest_final(&g, c);
	ck_assert(a[0] != z[0] && a[1] != z[1]);
	ck_assert(a[0] != b[0] && a[1] != b[1]);
	ck_assert(c[0] != a[0] && c[1] != a[1]);
	/* A known answer, so that the documented digest stays the same. */
	ck_assert_msg(z[0] == 0xc87f92896f10e998ull, "%#jx", (uintmax_t)z[0]);
}
END_TEST

START_TEST(test_dumpcheck_codes)
{
	const struct dk_check_code *k;
	const struct fx_corruption *c;
	size_t n = 0;

	for (size_t i = 0; (k = dk_check_code_at(i)) != NULL; i++, n++) {
		ck_assert_ptr_nonnull(strchr(k->code, '.'));
		for (size_t j = 0; j < i; j++)
			ck_assert_str_ne(dk_check_code_at(j)->code, k->code);
	}
	ck_assert_uint_ge(n, 30);
	/* Every code a kind expects is in the table. */
	for (size_t i = 0; (c = fx_corruption_at(i, FX_NATIVE |
	    FX_PORTABLE)) != NULL; i++) {
		char code[64];
		int ok = 0;

		sscanf(c->codes, "%63[a-z_.-]", code);
		for (size_t j = 0; (k = dk_check_code_at(j)) != NULL; j++)
			ok |= strcmp(k->code, code) == 0;
		ck_assert_msg(ok, "kind %s expects unknown code %s", c->name,
		    code);
	}
}
END_TEST

/*
 * Random damage: bytes of the metadata flipped, the file cut anywhere.
 * Whatever the verdict, the engine must return, within its bounds (the
 * sanitizers watch the memory).
 */
START_TEST(test_dumpcheck_random_damage)
{
	static const size_t pick[] = { 2, 19, 47 };	/* amd64 v3, armeb, radix */
	struct fx_dump f;
	struct dk_err err;
	struct dk_check_result res;
	struct seen s;
	char path[512];
	uint64_t rng = 0x5eed0000u + (uint64_t)_i;
	uint8_t *img;
	FILE *fp;
	long len;

	setup_tmp();
	snprintf(path, sizeof(path), "%s/rnd", tmpdir);
	build(pick[_i % 3] < nvariants() ? pick[_i % 3] : 0, &f);
	ck_assert_msg(fx_write_corrupt(&f, NULL, 0, _i >= 3, path, 1, NULL,
	    &err) == DK_OK, "%s", err.msg);
	fp = fopen(path, "rb");
	ck_assert_ptr_nonnull(fp);
	fseek(fp, 0, SEEK_END);
	len = ftell(fp);
	rewind(fp);
	img = malloc((size_t)len);
	ck_assert_ptr_nonnull(img);
	ck_assert_uint_eq(fread(img, 1, (size_t)len, fp), (size_t)len);
	fclose(fp);
	for (int round = 0; round < 150; round++) {
		uint8_t *copy = malloc((size_t)len);
		size_t n = (size_t)len, meta = n < 0x60000 ? n : 0x60000;
		struct dk_check_opts o = { .arch = f.arch->name, .pattern = 1,
		    .seed = SEED, .checksum = 1, .finding = keep, .arg = &s };

		ck_assert_ptr_nonnull(copy);
		memcpy(copy, img, n);
		for (int k = 0; k < 1 + round % 8; k++) {
			rng = rng * 6364136223846793005ull + 1442695040888963407ull;
			copy[(rng >> 33) % meta] ^= (uint8_t)(1u << (rng >> 29 & 7));
		}
		if (round % 5 == 0)
			n = (size_t)((rng >> 17) % n);
		s.n = 0;
		(void)dk_check_mem(copy, n, "damaged", &o, &res, &err);
		free(copy);
	}
	free(img);
	fx_free(&f);
	rm_tmp(path);
}
END_TEST

static Suite *
dumpcheck_suite(void)
{
	Suite *s = suite_create("dumpcheck");
	TCase *clean = tcase_create("clean");
	TCase *mat = tcase_create("matrix");
	TCase *eng = tcase_create("engine");
	int nv = (int)nvariants(), nk = (int)nkinds();

	tcase_add_loop_test(clean, test_dumpcheck_clean, 0,
	    dk_test_loop_end(nv));
	tcase_set_timeout(clean, 300);
	tcase_add_loop_test(mat, test_dumpcheck_matrix, 0,
	    dk_test_loop_end(nv * nk * 2));
	tcase_add_test(mat, test_dumpcheck_census);
	tcase_set_timeout(mat, 300);
	tcase_add_test(eng, test_dumpcheck_not_examined);
	tcase_add_test(eng, test_dumpcheck_tiny);
	tcase_add_test(eng, test_dumpcheck_max_findings);
	tcase_add_test(eng, test_dumpcheck_digest);
	tcase_add_test(eng, test_dumpcheck_codes);
	tcase_add_loop_test(eng, test_dumpcheck_random_damage, 0, 6);
	tcase_set_timeout(eng, 120);
	suite_add_tcase(s, clean);
	suite_add_tcase(s, mat);
	suite_add_tcase(s, eng);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(dumpcheck_suite());
	int nfailed;

	srunner_run_all(sr, CK_ENV);
	nfailed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfailed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
