/*
 * check_threads.c -- several dumps, several threads, at once.
 *
 * dumpkit.h promises no global mutable state: several dumps may be open
 * in several threads, one thread per handle (tests/symbols.sh checks the
 * objects for writable data).  Here the promise is used: one dump per
 * architecture row is generated, then NTHREADS threads each open every
 * dump with a handle of their own, in a different order, and at the
 * same time read every dumped page, read the kernel map through the page
 * tables, and run the validation engine.  What each thread reads is
 * compared with the fixture model (the pattern of docs/fixture-pattern.md
 * through dk_pattern_fill(), and the page-table pages), and each
 * engine's digest with one taken before any thread started.  Errors are
 * caller-owned: a thread's failed open must name that thread's file.
 *
 * DK_TEST_ARCH=row restricts the dumps to one row.
 */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dkcheck.h"
#include "gen.h"

#define	NTHREADS	8
#define	MAXDUMPS	32
#define	CHUNK		(64u << 10)	/* bytes per dk_read_pa() */
#define	MEM		(32u << 20)	/* RAM of each machine */

struct fixture {
	struct fx_dump	 f;
	char		 path[512];
	uint64_t	 digest[2];	/* taken before the threads start */
	uint64_t	 npages;
};

static char tmpdir[256];

/* The dumps, built once: shared by the threads read-only. */
struct world {
	struct fixture	 fx[MAXDUMPS];
	size_t		 n;
};

/* What one thread did and the first thing that went wrong. */
struct job {
	const struct world *w;
	int		 id;
	uint64_t	 bytes;		/* page data compared */
	uint64_t	 vreads;	/* kernel-map reads compared */
	uint64_t	 checks;	/* engine runs */
	int		 failed;
	char		 why[1024];
};

static void
job_fail(struct job *j, const char *fmt, const char *a, const char *b)
{
	if (j->failed++ == 0)
		snprintf(j->why, sizeof(j->why), fmt, a, b);
}

static void
on_finding(void *arg, const struct dk_finding *f)
{
	uint64_t *nerr = arg;

	if (f->severity == DK_SEV_ERROR)
		(*nerr)++;
}

/* The engine on fx, with the pattern and the digest. */
static enum dk_status
engine(const struct fixture *fx, struct dk_check_result *res,
    uint64_t *nerr, struct dk_err *err)
{
	struct dk_check_opts co = { .arch = fx->f.arch->name, .pattern = 1,
	    .seed = fx->f.o.seed, .checksum = 1, .finding = on_finding };

	*nerr = 0;
	co.arg = nerr;
	return dk_check(fx->path, &co, res, err);
}

/* Every dumped page of fx through dk_read_pa, against the model. */
static void
read_all(struct job *j, const struct fixture *fx, struct dk_dump *d,
    uint8_t *got, uint8_t *want)
{
	struct dk_run_iter it = { 0 };
	struct dk_run r;
	struct dk_err err;
	char where[64];

	while (dk_run_next(d, &it, &r)) {
		for (uint64_t o = 0; o < r.len; o += CHUNK) {
			size_t n = r.len - o < CHUNK ? (size_t)(r.len - o) :
			    CHUNK;

			snprintf(where, sizeof(where), "pa %#jx",
			    (uintmax_t)(r.pa + o));
			if (dk_read_pa(d, r.pa + o, got, n, &err) != DK_OK) {
				job_fail(j, "%s: %s", fx->path, err.msg);
				return;
			}
			fx_expect(&fx->f, r.pa + o, want, n);
			if (memcmp(got, want, n) != 0) {
				job_fail(j, "%s: %s: differs from the model",
				    fx->path, where);
				return;
			}
			j->bytes += n;
		}
	}
}

/* The first and last bytes of every kernel mapping, through the tables. */
static void
read_kmap(struct job *j, const struct fixture *fx, struct dk_dump *d)
{
	uint8_t got[64], want[64];
	struct dk_err err;
	char where[64];

	for (size_t i = 0; i < fx->f.nmaps; i++) {
		const struct dk_map *m = &fx->f.maps[i];
		uint64_t ends[2] = { m->va, m->va + m->len - sizeof(got) };

		for (int k = 0; k < 2; k++) {
			uint64_t pa;

			if (!fx_va_to_pa(&fx->f, ends[k], &pa) ||
			    !fx_dumped(&fx->f, pa) ||
			    !fx_dumped(&fx->f, pa + sizeof(got) - 1))
				continue;
			snprintf(where, sizeof(where), "va %#jx",
			    (uintmax_t)ends[k]);
			if (dk_read_va(d, ends[k], got, sizeof(got), &err) !=
			    DK_OK) {
				job_fail(j, "%s: %s", fx->path, err.msg);
				return;
			}
			fx_expect(&fx->f, pa, want, sizeof(want));
			if (memcmp(got, want, sizeof(got)) != 0) {
				job_fail(j, "%s: %s: differs from the model",
				    fx->path, where);
				return;
			}
			j->vreads++;
		}
	}
}

static void *
worker(void *arg)
{
	struct job *j = arg;
	const struct world *w = j->w;
	uint8_t *got = malloc(CHUNK), *want = malloc(CHUNK);
	char missing[300];

	if (got == NULL || want == NULL) {
		job_fail(j, "%s%s", "out of memory", "");
		goto out;
	}
	for (size_t k = 0; k < w->n && !j->failed; k++) {
		/* Each thread its own order: threads meet on every dump. */
		const struct fixture *fx = &w->fx[(k + (size_t)j->id) % w->n];
		struct dk_open_opts oo = { .arch = fx->f.arch->name };
		struct dk_check_result res;
		struct dk_dump *d;
		struct dk_err err;
		uint64_t nerr;

		if (dk_open(fx->path, &oo, &d, &err) != DK_OK) {
			job_fail(j, "%s: %s", fx->path, err.msg);
			break;
		}
		if (dk_info(d)->npages != fx->npages)
			job_fail(j, "%s: %s", fx->path, "page count differs");
		read_all(j, fx, d, got, want);
		read_kmap(j, fx, d);
		dk_close(d);

		if (engine(fx, &res, &nerr, &err) != DK_OK)
			job_fail(j, "%s: dk_check: %s", fx->path, err.msg);
		else if (nerr != 0 || res.nerrors != 0)
			job_fail(j, "%s: %s", fx->path, "dk_check found errors");
		else if (memcmp(res.checksum, fx->digest,
		    sizeof(fx->digest)) != 0)
			job_fail(j, "%s: %s", fx->path, "digest differs from the "
			    "single-threaded one");
		j->checks++;
	}
	/* An error belongs to its caller: this thread's file, no other. */
	snprintf(missing, sizeof(missing), "%s/missing-%d", tmpdir, j->id);
	{
		struct dk_dump *d;
		struct dk_err err;

		if (dk_open(missing, NULL, &d, &err) == DK_OK) {
			dk_close(d);
			job_fail(j, "%s: %s", missing, "opened");
		} else if (strstr(err.msg, missing) == NULL)
			job_fail(j, "error message '%s' does not name %s",
			    err.msg, missing);
	}
out:
	free(got);
	free(want);
	return NULL;
}

static void
build_world(struct world *w)
{
	const char *only = getenv("DK_TEST_ARCH");
	const char *t = getenv("TMPDIR");
	struct fx_variant v;

	if (t == NULL)
		t = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	snprintf(tmpdir, sizeof(tmpdir), "%s/dkthr.XXXXXX", t);
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	w->n = 0;
	/* The first generatable variant of every architecture row. */
	for (size_t i = 0; fx_variant_at(i, &v) && w->n < MAXDUMPS; i++) {
		struct fixture *fx = &w->fx[w->n];
		struct fx_opts o = { .arch = v.arch, .version = v.version,
		    .variant = v.variant, .mem = MEM, .seed = 100 + w->n };
		struct dk_check_result res;
		struct dk_err err;
		uint64_t nerr;
		size_t k;

		if (only != NULL && *only != '\0' && strcmp(only, v.arch) != 0)
			continue;
		for (k = 0; k < w->n; k++)
			if (strcmp(w->fx[k].f.arch->name, v.arch) == 0)
				break;
		if (k < w->n)
			continue;
		ck_assert_msg(fx_build(&o, &fx->f, &err) == DK_OK, "%s: %s",
		    v.arch, err.msg);
		snprintf(fx->path, sizeof(fx->path), "%s/vmcore.%s", tmpdir,
		    v.arch);
		ck_assert_msg(fx_write(&fx->f, fx->path, 0, &err) == DK_OK,
		    "%s", err.msg);
		fx->npages = fx->f.bm.count;
		ck_assert_msg(engine(fx, &res, &nerr, &err) == DK_OK, "%s",
		    err.msg);
		ck_assert_msg(nerr == 0 && res.has_checksum, "%s: %ju errors",
		    fx->path, (uintmax_t)nerr);
		memcpy(fx->digest, res.checksum, sizeof(fx->digest));
		w->n++;
	}
	ck_assert_msg(w->n > 0, "no dump to read (DK_TEST_ARCH=%s?)",
	    only != NULL ? only : "");
}

static void
free_world(struct world *w)
{
	for (size_t i = 0; i < w->n; i++) {
		(void)unlink(w->fx[i].path);
		fx_free(&w->fx[i].f);
	}
	(void)rmdir(tmpdir);
}

START_TEST(test_threads)
{
	static struct world w;
	static struct job jobs[NTHREADS];
	pthread_t tid[NTHREADS];
	uint64_t bytes = 0, total = 0;

	build_world(&w);
	for (size_t i = 0; i < w.n; i++)
		total += w.fx[i].npages << w.fx[i].f.page_shift;
	for (int i = 0; i < NTHREADS; i++) {
		jobs[i] = (struct job){ .w = &w, .id = i };
		ck_assert_int_eq(pthread_create(&tid[i], NULL, worker,
		    &jobs[i]), 0);
	}
	for (int i = 0; i < NTHREADS; i++)
		ck_assert_int_eq(pthread_join(tid[i], NULL), 0);
	for (int i = 0; i < NTHREADS; i++) {
		ck_assert_msg(!jobs[i].failed, "thread %d: %d failures, the "
		    "first: %s", i, jobs[i].failed, jobs[i].why);
		/* Every thread read every dump whole, not a part of it. */
		ck_assert_uint_eq(jobs[i].bytes, total);
		ck_assert_uint_eq(jobs[i].checks, w.n);
		ck_assert_uint_gt(jobs[i].vreads, 0);
		bytes += jobs[i].bytes;
	}
	printf("check_threads: %d threads, %zu dumps, %ju MiB compared\n",
	    NTHREADS, w.n, (uintmax_t)(bytes >> 20));
	free_world(&w);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("threads");
	TCase *tc = tcase_create("several dumps, several threads");
	SRunner *sr;
	int nfailed;

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_threads);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_ENV);
	nfailed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfailed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
