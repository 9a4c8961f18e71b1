/*
 * fuzz_linux_log.c -- libFuzzer target: the kernel log of Linux dumps
 * (formats/linux.c, dk_linux_log) read from a damaged ring.
 *
 * The input's first byte chooses the layout (lockless ring, struct
 * printk_log records, the plain ring; fuzz/linux_ring.h) and the rest
 * replaces the window of physical memory that holds the log's variables,
 * the printk_ringbuffer, the descriptors, the infos and the text; the
 * page tables and VMCOREINFO stay as the layout has them.  The dump is
 * a kdump-compressed file written by linux_ring.h and opened from
 * memory.  The seeds (fuzz/corpus/linux_log) are the valid rings of
 * CHECK_LINUX_SEEDS=DIR build/tests/check_linux.  For each input:
 *
 *  1. dk_linux_log: DK_OK, or DK_ECORRUPT, DK_ELIMIT, DK_EUNSUP,
 *     DK_ENOTMAPPED, DK_ENOTDUMPED with a message; never a crash, a hang
 *     or an unbounded allocation.  The text of the record layouts is
 *     what makedumpfile writes: printable bytes, \t to \r, no NUL.
 *  2. dk_read_msgbuf into a small buffer: the same first bytes.
 *  3. dk_linux_log_check, the walk dumpcheck makes: DK_OK, or
 *     DK_ENOTDUMPED, DK_EUNSUP, DK_ELIMIT; every damaged place a
 *     linux.log-* code and a message; none exactly where dk_linux_log
 *     gave DK_OK, some where it gave DK_ECORRUPT or DK_ENOTMAPPED.
 *  4. dk_check_mem on the file (dumpcheck's whole pass): its linux.log-*
 *     findings are codes dumpcheck lists, at most 8 of one code and one
 *     more that counts the rest.
 *
 * A broken invariant aborts.  Linked with libFuzzer (make fuzz) or with
 * replay.c (make fuzz-replay).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dkcheck.h"
#include "linux.h"
#include "private.h"
#include "fuzz.h"
#include "linux_ring.h"

/* What the log wrote: its first bytes, its length, its characters. */
struct fz_text {
	char		 head[256];
	size_t		 n;
	int		 records;	/* the record layouts: escaped text */
};

static int
fz_put(void *arg, const char *p, size_t n)
{
	struct fz_text *t = arg;

	for (size_t i = 0; i < n && t->records; i++) {
		unsigned char c = (unsigned char)p[i];

		FZ_CHECK((c >= 0x20 && c < 0x7f) || (c >= '\t' && c <= '\r'));
	}
	for (size_t i = 0; i < n && t->n + i < sizeof(t->head); i++)
		t->head[t->n + i] = p[i];
	t->n += n;
	return 0;
}

/* What the check walk reported. */
struct fz_bad {
	uint64_t	 n;
};

static void
fz_bad(void *arg, const struct dk_linux_logbad *b)
{
	static const char *const codes[] = {
		"linux.log-unreadable", "linux.log-ring", "linux.log-ids",
		"linux.log-desc", "linux.log-block", "linux.log-text-len",
		"linux.log-seq", "linux.log-record", "linux.log-wrap",
	};
	struct fz_bad *f = arg;
	int known = 0;

	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		known |= strcmp(codes[i], b->code) == 0;
	FZ_CHECK(known);
	FZ_CHECK(strncmp(b->msg, "the kernel log: ", 16) == 0 &&
	    strlen(b->msg) > 20);
	f->n++;
}

/* dumpcheck's findings of the log: known codes, at most 9 of each. */
struct fz_find {
	unsigned	 n[512];
};

static void
fz_log_finding(void *arg, const struct dk_finding *f)
{
	struct fz_find *x = arg;
	const struct dk_check_code *c;
	size_t i;

	fz_finding(NULL, f);
	if (strncmp(f->code, "linux.log-", 10) != 0)
		return;
	for (i = 0; (c = dk_check_code_at(i)) != NULL; i++)
		if (strcmp(c->code, f->code) == 0)
			break;
	FZ_CHECK(c != NULL && i < sizeof(x->n) / sizeof(x->n[0]));
	FZ_CHECK(++x->n[i] <= 9);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t mem[LR_MEM], file[LR_FILE];
	char vmci[3000], small[64];
	enum lr_layout l;
	struct fz_text t;
	struct dk_dump *d = NULL;
	struct dk_err err;
	enum dk_status st;
	size_t vlen, got = 0;

	if (size < 1)
		return 0;
	l = data[0] % 3 == 0 ? LR_LOCKLESS : data[0] % 3 == 1 ?
	    LR_PRINTK_LOG : LR_PLAIN;
	memset(mem, 0, sizeof(mem));
	memcpy(mem + LR_WIN, data + 1, size - 1 < LR_WIN_LEN ? size - 1 :
	    LR_WIN_LEN);
	lr_tables(mem);
	vlen = lr_vmcoreinfo(vmci, sizeof(vmci), l);
	lr_kdump(mem, vmci, vlen, file);
	FZ_CHECK(dk_open_mem(file, LR_FILE, "fuzz.kdump", NULL, &d, &err) ==
	    DK_OK);
	memset(&t, 0, sizeof(t));
	t.records = l != LR_PLAIN;
	st = dk_linux_log(d, fz_put, &t, &err);
	FZ_CHECK(st == DK_OK || st == DK_ECORRUPT || st == DK_ELIMIT ||
	    st == DK_EUNSUP || st == DK_ENOTMAPPED || st == DK_ENOTDUMPED);
	FZ_CHECK(st == DK_OK || err.msg[0] != '\0');
	if (st == DK_OK) {
		FZ_CHECK(dk_read_msgbuf(d, small, sizeof(small), &got, &err) ==
		    DK_OK);
		FZ_CHECK(got == (t.n < sizeof(small) ? t.n : sizeof(small)));
		FZ_CHECK(memcmp(small, t.head, got) == 0);
	}
	{
		struct fz_bad b = { 0 };
		enum dk_status cst = dk_linux_log_check(d, fz_bad, &b, &err);

		FZ_CHECK(cst == DK_OK || cst == DK_ENOTDUMPED ||
		    cst == DK_EUNSUP || cst == DK_ELIMIT);
		FZ_CHECK((st == DK_OK) == (cst == DK_OK && b.n == 0));
		FZ_CHECK((st != DK_ECORRUPT && st != DK_ENOTMAPPED) || b.n > 0);
	}
	dk_close(d);
	{
		struct fz_find x;
		struct dk_check_opts co = { .finding = fz_log_finding, .arg = &x };
		struct dk_check_result res;

		memset(&x, 0, sizeof(x));
		FZ_CHECK(dk_check_mem(file, LR_FILE, "fuzz.kdump", &co, &res,
		    &err) == DK_OK);
	}
	return 0;
}
