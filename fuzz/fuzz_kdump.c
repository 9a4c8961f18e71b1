/*
 * fuzz_kdump.c -- libFuzzer target: makedumpfile's kdump-compressed
 * files (fmt_kdump.c): the headers and their layout choice, the
 * flattened form's record index, the bitmaps, the descriptors and each
 * codec's page path (zlib, lzo, snappy, zstd, stored).
 *
 * The seeds (fuzz/corpus/kdump) are written by the Check suite's own
 * writer (CHECK_KDUMP_SEEDS=DIR build/tests/check_kdump): small files
 * of each header layout and byte order, every codec, the shared zero
 * page, a split part, version 3 with VMCOREINFO, their flattened forms
 * (records reversed, with holes, overlapping), and cut ones.  For each
 * input:
 *
 *  1. dk_open_mem without options, then with --arch amd64 and s390x
 *     (a little- and a big-endian row): on success npages_present <=
 *     npages, runs ascend, are whole pages and are read by address
 *     (DK_OFF_PAGED); reading each run's first and last bytes returns
 *     DK_OK, DK_ENOTDUMPED, DK_ECORRUPT or DK_ETRUNC with a message,
 *     never crashes; physical ranges ascend; attributes are well formed;
 *     with no options, the walk over the stored pages
 *     (dk_kd_stored_next): every page at most a block, or an error
 *     with a message;
 *  2. dk_check_mem (quick): the validator's rules (check_kdump.c; its
 *     full pass has targets of its own, fuzz_kdump_check.c and others).
 *
 * A broken invariant aborts.  Linked with libFuzzer (make fuzz) or with
 * replay.c (make fuzz-replay).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dkcheck.h"
#include "kdump.h"
#include "private.h"
#include "fuzz.h"

#define	FZ_RUNS		64	/* runs read per input */

static void
fz_read(struct dk_dump *d, uint64_t pa, uint8_t *buf, size_t len)
{
	struct dk_err err;
	enum dk_status st = dk_read_pa(d, pa, buf, len, &err);

	FZ_CHECK(st == DK_OK || st == DK_ENOTDUMPED || st == DK_ECORRUPT ||
	    st == DK_ETRUNC || st == DK_ELIMIT || st == DK_ENOMEM);
	FZ_CHECK(st == DK_OK || err.msg[0] != '\0');
}

static void
fz_dump(struct dk_dump *d)
{
	const struct dk_info *in = dk_info(d);
	struct dk_run_iter it = { 0 };
	const struct dk_attr *a;
	struct dk_run r;
	uint64_t prev_end = 0, ps = in->page_size;
	uint8_t buf[64];
	int n = 0;

	FZ_CHECK(strcmp(in->format, "kdump") == 0);
	FZ_CHECK(ps >= 4096 && ps <= 65536 && (ps & (ps - 1)) == 0);
	FZ_CHECK(in->npages_present <= in->npages);
	FZ_CHECK(in->arch != NULL && in->arch_why != NULL);
	while (dk_run_next(d, &it, &r)) {
		FZ_CHECK(r.len > 0 && r.len % ps == 0 && r.pa % ps == 0);
		FZ_CHECK(r.pa >= prev_end);
		FZ_CHECK(r.offset == DK_OFF_PAGED);
		prev_end = r.pa + r.len;
		if (n++ < FZ_RUNS) {
			fz_read(d, r.pa, buf, sizeof(buf));
			fz_read(d, r.pa + r.len - 16, buf, 32);
		}
	}
	prev_end = 0;
	for (size_t i = 0; i < dk_phys_nranges(d); i++) {
		struct dk_range g = dk_phys_range(d, i);

		FZ_CHECK(g.start < g.end && g.start >= prev_end);
		prev_end = g.end;
	}
	for (size_t i = 0; (a = dk_attr(d, i)) != NULL; i++) {
		FZ_CHECK(a->name != NULL && a->name[0] != '\0');
		FZ_CHECK(a->type != DK_ATTR_STRING || a->str != NULL);
	}
	/* Not dumped, out of range: an answer, not a crash. */
	fz_read(d, UINT64_MAX - 64, buf, 16);
}

/*
 * The walk over the stored pages that the re-encoding survey reads
 * (dk_kd_stored_next): each page's bytes at most a block, or an error
 * with a message.
 * Not the survey itself: its encoder search compresses each sampled
 * page with every candidate (zstd to level 22 at 64 KiB blocks), which
 * took a fuzz input past libFuzzer's 20 s.
 */
static void
fz_stored(struct dk_dump *d)
{
	static uint8_t raw[KD_MAX_BLOCK], page[KD_MAX_BLOCK];
	struct dk_kd_stored sp = { 0 };
	struct dk_err err;
	int got;

	while ((got = dk_kd_stored_next(d, &sp, raw, page, &err)) == 1) {
		FZ_CHECK(sp.codec == UINT32_MAX || (sp.size > 0 &&
		    sp.size <= sp.block && sp.block <= KD_MAX_BLOCK));
	}
	FZ_CHECK(got == 0 || err.msg[0] != '\0');
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct dk_open_opts opts[] = {
		{ .arch = NULL }, { .arch = "amd64" }, { .arch = "s390x" },
		{ .page_size = 65536 },
	};
	struct dk_check_opts co = { .quick = 1, .finding = fz_finding };
	struct dk_check_result res;
	struct dk_dump *d;
	struct dk_err err;

	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		if (dk_open_mem(data, size, "fuzz", &opts[i], &d, &err) ==
		    DK_OK) {
			if (strcmp(dk_info(d)->format, "kdump") == 0) {
				fz_dump(d);
				if (i == 0)
					fz_stored(d);
			}
			dk_close(d);
		} else
			FZ_CHECK(err.msg[0] != '\0');
	}
	(void)dk_check_mem(data, size, "fuzz", &co, &res, &err);
	return 0;
}
