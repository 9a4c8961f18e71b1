/*
 * check_linuxlog.c -- dumpcheck's pass over the kernel log of a Linux
 * dump (ELF vmcores, kdump-compressed files, portable files of
 * vmcores): the printk ring that VMCOREINFO's SYMBOL, SIZE and OFFSET
 * keys locate, walked by linux.c (dk_linux_log_check) as dumpinfo
 * --dmesg walks it, every damaged place a finding of its linux.log-*
 * code (docs/dumpcheck.md).
 *
 * A finding's offset is the file offset of the field's byte (its VA
 * through the kernel's page tables, then the physical address's place
 * in the file); none where the page is stored compressed (kdump) or the
 * address does not translate.  At most LL_MAX_SHOWN findings of a code
 * are reported one by one, the rest in one more finding that counts
 * them: a ring of 2^26 damaged descriptors is a few lines.
 */
#include <stdio.h>
#include <string.h>

#include "checker.h"
#include "linux.h"

#define	LL_MAX_SHOWN	8

/* The codes of the walk, in the order of docs/dumpcheck.md. */
static const char *const ll_codes[] = {
	"linux.log-unreadable", "linux.log-ring", "linux.log-ids",
	"linux.log-desc", "linux.log-block", "linux.log-text-len",
	"linux.log-seq", "linux.log-record", "linux.log-wrap",
};

struct ll {
	struct dk_ck	*ck;
	uint64_t	 n[DK_ARRAY_LEN(ll_codes)];
};

/* The file offset of the byte at kernel VA va, or DK_CK_NOOFF. */
static uint64_t
ll_offset(struct dk_ck *ck, uint64_t va)
{
	uint64_t pa, off;
	struct dk_err e;

	if (va == DK_LX_NOVA || dk_kvtop(ck->d, va, &pa, &e) != DK_OK ||
	    dk_pa_offset(ck->d, pa, &off, &e) != DK_OK ||
	    off == DK_OFF_ZERO || off == DK_OFF_PAGED)
		return DK_CK_NOOFF;
	return off;
}

static void
ll_bad(void *arg, const struct dk_linux_logbad *b)
{
	struct ll *l = arg;
	size_t k;

	for (k = 0; k < DK_ARRAY_LEN(ll_codes); k++)
		if (strcmp(ll_codes[k], b->code) == 0)
			break;
	if (k == DK_ARRAY_LEN(ll_codes))
		k = 0;		/* linux.c and this table disagree: a bug */
	if (l->n[k]++ >= LL_MAX_SHOWN)
		return;
	if (b->va == DK_LX_NOVA)
		dk_ck_emit(l->ck, ll_codes[k], DK_CK_NOOFF, "%s", b->msg);
	else
		dk_ck_emit(l->ck, ll_codes[k], ll_offset(l->ck, b->va), "%s "
		    "(kernel VA %#jx)", b->msg, (uintmax_t)b->va);
}

void
dk_ck_linux_log(struct dk_ck *ck)
{
	struct ll l;
	struct dk_err err;
	enum dk_status st;

	if (ck->d == NULL || ck->o->quick)
		return;
	if (ck->d->src.z != NULL) {
		/* Only the lockless ring's keys or log_buf's say a log. */
		if (dk_attr_find(ck->d, "SYMBOL(prb)") != NULL ||
		    dk_attr_find(ck->d, "SYMBOL(log_buf)") != NULL)
			dk_ck_emit(ck, "check.incomplete", DK_CK_NOOFF, "the "
			    "kernel log was not checked: it is read by "
			    "address, which a zstd stream decoded in one pass "
			    "is not (decompress the file to check it)");
		return;
	}
	memset(&l, 0, sizeof(l));
	l.ck = ck;
	st = dk_linux_log_check(ck->d, ll_bad, &l, &err);
	if (st != DK_OK && st != DK_NOMATCH) {
		const char *m = dk_ck_unprefixed(ck, err.msg);
		uint64_t seen = 0;

		for (size_t k = 0; k < DK_ARRAY_LEN(ll_codes); k++)
			seen += l.n[k];
		if (strncmp(m, "the kernel log: ", 16) == 0)
			m += 16;
		dk_ck_emit(ck, "check.incomplete", DK_CK_NOOFF, "the kernel "
		    "log was not checked%s: %s", seen > 0 ? " to its end" : "",
		    m);
	}
	for (size_t k = 0; k < DK_ARRAY_LEN(ll_codes); k++)
		if (l.n[k] > LL_MAX_SHOWN)
			dk_ck_emitn(ck, ll_codes[k], DK_CK_NOOFF, l.n[k] -
			    LL_MAX_SHOWN, "the kernel log: %ju more damaged "
			    "places of this code than the %u shown",
			    (uintmax_t)(l.n[k] - LL_MAX_SHOWN), LL_MAX_SHOWN);
}
