/*
 * fuzz_kthreads.c -- libFuzzer target for the process-list walk
 * (dk_kthreads_walk, formats/kthreads.c): the kernel memory it reads is
 * the input.
 *
 * Byte 0 chooses the byte order (bit 0: big-endian), the pointer
 * size (bit 1: 4 bytes, else 8) and whether the walk has the DWARF's
 * members (bit 2: p_state 0x30, p_oppid 0x38, p_pptr 0x40, td_state
 * 0x20, in 0x80-byte structs; the parents are then resolved); the rest is kernel memory from VA
 * FZ_BASE, and symbol i (enum dk_kt_sym) is at FZ_BASE + 16 * i, in the
 * first 288 bytes: the offsets' values, allproc's first pointer, and so
 * on.  Whatever the bytes, the walk must end (a cycle, an unreadable or
 * misaligned pointer, too many entries, an absurd offset: an error with
 * a message), and what it returns must be consistent.  A broken
 * invariant aborts.
 *
 * Linked with libFuzzer (make fuzz) or with replay.c (make fuzz-replay).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kthreads.h"
#include "fuzz.h"

#define	FZ_BASE		0x10000u
#define	FZ_MAX		4096	/* entries walked: the bound is exercised */

struct mem {
	const uint8_t	*p;
	size_t		 n;
};

static enum dk_status
mem_read(void *arg, uint64_t va, void *buf, size_t len, struct dk_err *err)
{
	const struct mem *m = arg;

	if (va < FZ_BASE || va - FZ_BASE > m->n || m->n - (va - FZ_BASE) < len)
		return dk_err_set(err, DK_ECORRUPT, "%#jx: outside the input",
		    (uintmax_t)va);
	memcpy(buf, m->p + (va - FZ_BASE), len);
	return DK_OK;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mem m;
	struct dk_kt_source src;
	struct dk_kthreads kt;
	struct dk_kdwarf lay;
	struct dk_err err;
	uint64_t sym[DK_KS_N];
	size_t sum = 0;
	enum dk_status st;

	if (size < 1)
		return 0;
	m = (struct mem){ data + 1, size - 1 };
	src = (struct dk_kt_source){ "fuzz-input", data[0] & 1 ? DK_BE : DK_LE,
	    data[0] & 2 ? 4 : 8, mem_read, &m };
	for (size_t i = 0; i < DK_KS_N; i++)
		sym[i] = FZ_BASE + 16 * i;
	dk_err_clear(&err);
	memset(&lay, 0, sizeof(lay));
	lay.size[DK_KD_PROC] = lay.size[DK_KD_THREAD] = 0x80;
	lay.off[DK_KD_P_STATE] = 0x30;
	lay.off[DK_KD_P_OPPID] = 0x38;
	lay.off[DK_KD_P_PPTR] = 0x40;
	lay.off[DK_KD_TD_STATE] = 0x20;
	lay.width[DK_KD_P_STATE] = lay.width[DK_KD_P_OPPID] = 4;
	lay.width[DK_KD_TD_STATE] = 4;
	lay.width[DK_KD_P_PPTR] = (uint8_t)src.ptr;
	st = dk_kthreads_walk(&src, sym, data[0] & 4 ? &lay : NULL, FZ_MAX,
	    &kt, &err);
	if (st != DK_OK) {
		FZ_CHECK(err.code == st);
		FZ_CHECK(memchr(err.msg, '\0', sizeof(err.msg)) != NULL);
		FZ_CHECK(err.msg[0] != '\0');
		FZ_CHECK(kt.threads == NULL && kt.procs == NULL);
		return 0;
	}
	FZ_CHECK(kt.nthreads + kt.nprocs <= FZ_MAX);
	FZ_CHECK(kt.crashed == SIZE_MAX || kt.crashed < kt.nthreads);
	FZ_CHECK(kt.crashed == SIZE_MAX ||
	    kt.threads[kt.crashed].tid == kt.dumptid);
	for (size_t i = 0; i < kt.nprocs; i++) {
		const struct dk_kproc *p = &kt.procs[i];

		FZ_CHECK(p->first == sum);
		FZ_CHECK(memchr(p->comm, '\0', DK_KT_COMM) != NULL);
		FZ_CHECK((data[0] & 4) || (p->ppid == DK_KT_UNKNOWN &&
		    p->state == DK_KT_UNKNOWN));
		FZ_CHECK(p->state == DK_KT_UNKNOWN ||
		    (p->state >= INT32_MIN && p->state <= INT32_MAX));
		for (size_t k = p->first; k < p->first + p->nthreads; k++) {
			FZ_CHECK(kt.threads[k].proc == p->addr);
			FZ_CHECK(kt.threads[k].pid == p->pid);
			FZ_CHECK(memchr(kt.threads[k].name, '\0', DK_KT_COMM) !=
			    NULL);
			FZ_CHECK(kt.threads[k].td % src.ptr == 0);
		}
		sum += p->nthreads;
	}
	FZ_CHECK(sum == kt.nthreads);
	FZ_CHECK(memchr(kt.panic, '\0', sizeof(kt.panic)) != NULL);
	dk_kthreads_free(&kt);
	return 0;
}
