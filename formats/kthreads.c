/*
 * kthreads.c -- the processes and threads of a FreeBSD dump, found the
 * way kgdb and LLDB's FreeBSD kernel plugin find them (docs/kthreads.md):
 *
 *  - the kernel image's symbols (--kernel FILE): allproc, zombproc,
 *    dumptid, dumppcb, stoppcbs, stopped_cpus, mp_maxid, pcb_size,
 *    panicstr, and the offsets the kernel exports for debuggers
 *    (proc_off_p_pid ... thread_off_td_plist, each a const int whose
 *    value is read from the dump's memory);
 *  - allproc (a LIST_HEAD of struct proc, linked by p_list) and, where
 *    the kernel has one, zombproc, each process's p_threads (a TAILQ of
 *    struct thread linked by td_plist), read through the dump's kernel
 *    virtual addresses;
 *  - each thread's registers: the thread that dumped (td_tid ==
 *    dumptid) from dumppcb, a thread on a CPU that stopped_cpus has
 *    stopped from stoppcbs[td_oncpu], any other from td_pcb; the
 *    architecture module's table (dk_arch_ops.pcb) puts the pcb's words
 *    where gdb's NT_PRSTATUS has them.
 *
 * Every list is bounded: at most DK_KT_MAX entries in all, each address
 * seen once (a cycle is an error at the address that closes it), each
 * pointer aligned and readable, each exported offset below KT_MAX_OFF.
 * Memory is the tables and a set of the addresses seen.
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "dkelf.h"
#include "kthreads.h"
#include "portable.h"

#define	KT_MAX_OFF	0x10000		/* an exported offset past this is
					 * not a struct proc's or thread's */
#define	KT_MAX_CPU	65536		/* mp_maxid + 1 */

/* sys/sys/proc.h, sys/sys/vmmeter.h: what ps's STAT letter is made of. */
#define	KT_P_STOPPED	0xe0000		/* P_STOPPED_SIG|TRACE|SINGLE */
#define	KT_TDI_SLEEPING	0x0002
#define	KT_TDI_LOCK	0x0008
#define	KT_TDF_SINTR	0x00000008	/* the sleep is interruptible */
#define	KT_MAXSLP	20		/* seconds: I (idle), not S */

/* The symbols, by index (kthreads.h, enum dk_kt_sym). */
#define	S_ALLPROC	DK_KS_ALLPROC
#define	S_ZOMBPROC	DK_KS_ZOMBPROC
#define	S_DUMPTID	DK_KS_DUMPTID
#define	S_DUMPPCB	DK_KS_DUMPPCB
#define	S_STOPPCBS	DK_KS_STOPPCBS
#define	S_STOPPED_CPUS	DK_KS_STOPPED_CPUS
#define	S_MP_MAXID	DK_KS_MP_MAXID
#define	S_PCB_SIZE	DK_KS_PCB_SIZE
#define	S_PANICSTR	DK_KS_PANICSTR
#define	S_TICKS		DK_KS_TICKS
#define	S_HZ		DK_KS_HZ
#define	S_P_PID		DK_KS_P_PID
#define	S_P_COMM	DK_KS_P_COMM
#define	S_P_LIST	DK_KS_P_LIST
#define	S_P_THREADS	DK_KS_P_THREADS
#define	S_TD_TID	DK_KS_TD_TID
#define	S_TD_NAME	DK_KS_TD_NAME
#define	S_TD_ONCPU	DK_KS_TD_ONCPU
#define	S_TD_PCB	DK_KS_TD_PCB
#define	S_TD_PLIST	DK_KS_TD_PLIST
#define	S_N		DK_KS_N

static const struct {
	const char	*name;
	int		 required;
} ksyms[S_N] = {
	[S_ALLPROC]	= { "allproc", 1 },
	[S_ZOMBPROC]	= { "zombproc", 0 },
	[S_DUMPTID]	= { "dumptid", 1 },
	[S_DUMPPCB]	= { "dumppcb", 1 },
	[S_STOPPCBS]	= { "stoppcbs", 0 },
	[S_STOPPED_CPUS] = { "stopped_cpus", 0 },
	[S_MP_MAXID]	= { "mp_maxid", 0 },
	[S_PCB_SIZE]	= { "pcb_size", 0 },
	[S_PANICSTR]	= { "panicstr", 0 },
	[S_TICKS]	= { "ticks", 0 },
	[S_HZ]		= { "hz", 0 },
	[S_P_PID]	= { "proc_off_p_pid", 1 },
	[S_P_COMM]	= { "proc_off_p_comm", 1 },
	[S_P_LIST]	= { "proc_off_p_list", 1 },
	[S_P_THREADS]	= { "proc_off_p_threads", 1 },
	[S_TD_TID]	= { "thread_off_td_tid", 1 },
	[S_TD_NAME]	= { "thread_off_td_name", 1 },
	[S_TD_ONCPU]	= { "thread_off_td_oncpu", 1 },
	[S_TD_PCB]	= { "thread_off_td_pcb", 1 },
	[S_TD_PLIST]	= { "thread_off_td_plist", 1 },
};

/* The walk's state. */
struct walk {
	const struct dk_kt_source *m;
	const struct dk_kdwarf	*lay;		/* NULL: no DWARF members */
	size_t			 max;
	struct dk_kthreads	*kt;
	uint64_t		 sym[S_N];
	uint32_t		 off[S_N];	/* the exported offsets */
	unsigned		 ptr;		/* sizeof(void *) */
	uint64_t		*seen;		/* open addressing, 0 empty */
	size_t			 seen_cap, seen_n;
	size_t			 pcap, tcap;
	uint64_t		 stopped[KT_MAX_CPU / 64];
};

const struct dk_pcb_regs *
dk_pcb_regs(const struct dk_arch *a)
{
	if (a == NULL)
		return NULL;
	return a->pcb != NULL ? a->pcb : a->ops != NULL ? a->ops->pcb : NULL;
}

void
dk_pcb_decode(const struct dk_pcb_regs *r, const uint8_t *pcb,
    enum dk_endian e, uint64_t *regs)
{
	memset(regs, 0, r->nregs * sizeof(*regs));
	for (size_t k = 0; k < r->nslots; k++)
		regs[r->slots[k].reg] = dec_uint(pcb + r->slots[k].pcb_off,
		    r->word, e);
}

static enum dk_status
rd(struct walk *w, uint64_t va, void *buf, size_t len, const char *what,
    struct dk_err *err)
{
	struct dk_err e2;

	if (w->m->read(w->m->arg, va, buf, len, &e2) != DK_OK)
		return dk_err_set(err, DK_ECORRUPT, "%s: %s at %#jx: not "
		    "readable in the dump (%s)", w->m->name, what,
		    (uintmax_t)va, e2.msg);
	return DK_OK;
}

static uint64_t
word(const struct walk *w, const uint8_t *p, unsigned size)
{
	return dec_uint(p, size, w->m->e);
}

/* A signed field of size bytes (an enum, a pid_t). */
static int64_t
sword(const struct walk *w, const uint8_t *p, unsigned size)
{
	uint64_t v = dec_uint(p, size, w->m->e);

	if (size < 8 && (v >> (8 * size - 1)) & 1)
		v |= ~0ull << (8 * size);
	return (int64_t)v;
}

/* The DWARF member i of struct proc p (DK_KT_UNKNOWN: unread). */
static int64_t
proc_member(struct walk *w, uint64_t p, size_t i, int sign)
{
	uint8_t b[8];
	struct dk_err e2;
	unsigned n;

	if (w->lay == NULL || (n = w->lay->width[i]) == 0 ||
	    w->m->read(w->m->arg, p + w->lay->off[i], b, n, &e2) != DK_OK)
		return DK_KT_UNKNOWN;
	return sign ? sword(w, b, n) : (int64_t)dec_uint(b, n, w->m->e);
}

static enum dk_status
rd_ptr(struct walk *w, uint64_t va, uint64_t *v, const char *what,
    struct dk_err *err)
{
	uint8_t b[8];
	enum dk_status st;

	if ((st = rd(w, va, b, w->ptr, what, err)) != DK_OK)
		return st;
	*v = word(w, b, w->ptr);
	return DK_OK;
}

/* Add va to the set of addresses seen; 1 if it was there already. */
static int
seen_add(struct walk *w, uint64_t va, struct dk_err *err, int *nomem)
{
	size_t mask, i;

	*nomem = 0;
	if (2 * (w->seen_n + 1) > w->seen_cap) {
		size_t ncap = w->seen_cap ? 2 * w->seen_cap : 1024;
		uint64_t *n = calloc(ncap, sizeof(*n));

		if (n == NULL) {
			*nomem = 1;
			dk_err_set(err, DK_ENOMEM, "out of memory");
			return 0;
		}
		for (size_t k = 0; k < w->seen_cap; k++) {
			uint64_t v = w->seen[k];

			if (v == 0)
				continue;
			for (i = (size_t)((v * 0x9e3779b97f4a7c15ull) >> 20) &
			    (ncap - 1); n[i] != 0; i = (i + 1) & (ncap - 1))
				;
			n[i] = v;
		}
		free(w->seen);
		w->seen = n;
		w->seen_cap = ncap;
	}
	mask = w->seen_cap - 1;
	for (i = (size_t)((va * 0x9e3779b97f4a7c15ull) >> 20) & mask;
	    w->seen[i] != 0; i = (i + 1) & mask)
		if (w->seen[i] == va)
			return 1;
	w->seen[i] = va;
	w->seen_n++;
	return 0;
}

/* A list element's address: aligned, not seen before, within bounds. */
static enum dk_status
check_elem(struct walk *w, uint64_t va, const char *what, uint64_t from,
    struct dk_err *err)
{
	int nomem;

	if (va % w->ptr != 0)
		return dk_err_set(err, DK_ECORRUPT, "%s: %s at %#jx (linked "
		    "from %#jx): expected an address aligned to %u bytes",
		    w->m->name, what, (uintmax_t)va, (uintmax_t)from,
		    w->ptr);
	if (w->kt->nthreads + w->kt->nprocs >= w->max)
		return dk_err_set(err, DK_ELIMIT, "%s: the process list has "
		    "more than %zu processes and threads (at %s %#jx): "
		    "expected fewer; a damaged list?", w->m->name,
		    w->max, what, (uintmax_t)va);
	if (seen_add(w, va, err, &nomem))
		return dk_err_set(err, DK_ECORRUPT, "%s: %s at %#jx (linked "
		    "from %#jx) is in the lists already: a cycle",
		    w->m->name, what, (uintmax_t)va, (uintmax_t)from);
	return nomem ? DK_ENOMEM : DK_OK;
}

static void
copy_name(char *dst, const uint8_t *src)
{
	memcpy(dst, src, DK_KT_COMM);
	dst[DK_KT_COMM - 1] = '\0';
}

static enum dk_status
grow(void **p, size_t *cap, size_t n, size_t size, struct dk_err *err)
{
	void *np;
	size_t ncap;

	if (n < *cap)
		return DK_OK;
	ncap = *cap ? 2 * *cap : 64;
	if ((np = realloc(*p, ncap * size)) == NULL)
		return dk_err_set(err, DK_ENOMEM, "out of memory");
	*p = np;
	*cap = ncap;
	return DK_OK;
}

/* The threads of process p (p_threads, linked by td_plist). */
static enum dk_status
walk_threads(struct walk *w, struct dk_kproc *kp, const uint8_t *pbuf,
    struct dk_err *err)
{
	struct dk_kthreads *kt = w->kt;
	uint32_t lo = UINT32_MAX, hi = 0;
	uint64_t td, from = kp->addr + w->off[S_P_THREADS];
	uint8_t *buf;
	static const int fields[] = { S_TD_TID, S_TD_NAME, S_TD_ONCPU,
	    S_TD_PCB, S_TD_PLIST };
	/* The DWARF's members of struct thread, and where t keeps each. */
	static const struct {
		enum dk_kd_member m;
		size_t at;
	} tdm[] = {
		{ DK_KD_TD_STATE, offsetof(struct dk_kthread, state) },
		{ DK_KD_TD_INHIBITORS, offsetof(struct dk_kthread, inhibitors) },
		{ DK_KD_TD_FLAGS, offsetof(struct dk_kthread, flags) },
		{ DK_KD_TD_SLPTICK, offsetof(struct dk_kthread, slptick) },
	};
	enum dk_status st;

	for (size_t i = 0; i < DK_ARRAY_LEN(fields); i++) {
		uint32_t o = w->off[fields[i]];
		uint32_t e = o + (fields[i] == S_TD_NAME ? DK_KT_COMM :
		    fields[i] == S_TD_TID || fields[i] == S_TD_ONCPU ? 4 :
		    w->ptr);

		lo = o < lo ? o : lo;
		hi = e > hi ? e : hi;
	}
	for (size_t i = 0; w->lay != NULL && i < DK_ARRAY_LEN(tdm); i++)
		if (w->lay->width[tdm[i].m] != 0) {
			uint32_t o = w->lay->off[tdm[i].m];
			uint32_t e = o + w->lay->width[tdm[i].m];

			lo = o < lo ? o : lo;
			hi = e > hi ? e : hi;
		}
	/* One read of the fields' span per thread (below 128 KiB). */
	if ((buf = malloc(hi - lo)) == NULL)
		return dk_err_set(err, DK_ENOMEM, "out of memory");
	st = DK_OK;
	td = word(w, pbuf, w->ptr);
	while (td != 0 && st == DK_OK) {
		struct dk_kthread *t;

		if ((st = check_elem(w, td, "struct thread", from, err)) !=
		    DK_OK ||
		    (st = grow((void **)&kt->threads, &w->tcap, kt->nthreads,
		    sizeof(*kt->threads), err)) != DK_OK ||
		    (st = rd(w, td + lo, buf, hi - lo, "struct thread",
		    err)) != DK_OK)
			break;
		t = &kt->threads[kt->nthreads];
		memset(t, 0, sizeof(*t));
		t->td = td;
		t->proc = kp->addr;
		t->pid = kp->pid;
		memcpy(t->comm, kp->comm, DK_KT_COMM);
		t->tid = (int32_t)word(w, buf + w->off[S_TD_TID] - lo, 4);
		t->oncpu = (int32_t)word(w, buf + w->off[S_TD_ONCPU] - lo, 4);
		t->pcb = word(w, buf + w->off[S_TD_PCB] - lo, w->ptr);
		copy_name(t->name, buf + w->off[S_TD_NAME] - lo);
		for (size_t i = 0; i < DK_ARRAY_LEN(tdm); i++) {
			enum dk_kd_member k = tdm[i].m;
			int64_t *v = (int64_t *)(void *)((char *)t + tdm[i].at);

			*v = w->lay == NULL || w->lay->width[k] == 0 ?
			    DK_KT_UNKNOWN : sword(w, buf + w->lay->off[k] - lo,
			    w->lay->width[k]);
		}
		if (t->tid == kt->dumptid && kt->crashed == SIZE_MAX) {
			t->crashed = 1;
			t->src = DK_KT_DUMPPCB;
			t->pcb = w->sym[S_DUMPPCB];
			kt->crashed = kt->nthreads;
		} else if (t->oncpu >= 0 && (uint32_t)t->oncpu < kt->ncpu &&
		    w->sym[S_STOPPCBS] != 0 && kt->pcb_size != 0 &&
		    (w->stopped[t->oncpu / 64] >> (t->oncpu % 64)) & 1) {
			t->src = DK_KT_STOPPCB;
			t->pcb = w->sym[S_STOPPCBS] + (uint64_t)kt->pcb_size *
			    (uint32_t)t->oncpu;
		}
		kt->nthreads++;
		kp->nthreads++;
		from = td + w->off[S_TD_PLIST];
		td = word(w, buf + w->off[S_TD_PLIST] - lo, w->ptr);
	}
	free(buf);
	return st;
}

/* The processes of the list whose head is at va (a LIST_HEAD). */
static enum dk_status
walk_procs(struct walk *w, uint64_t head, int zombie, struct dk_err *err)
{
	struct dk_kthreads *kt = w->kt;
	uint64_t p, from = head;
	uint8_t b[DK_KT_COMM];
	enum dk_status st;

	if ((st = rd_ptr(w, head, &p, zombie ? "zombproc" : "allproc",
	    err)) != DK_OK)
		return st;
	while (p != 0) {
		struct dk_kproc *kp;
		uint8_t tq[8];

		if ((st = check_elem(w, p, "struct proc", from, err)) != DK_OK)
			return st;
		if ((st = grow((void **)&kt->procs, &w->pcap, kt->nprocs,
		    sizeof(*kt->procs), err)) != DK_OK)
			return st;
		kp = &kt->procs[kt->nprocs];
		memset(kp, 0, sizeof(*kp));
		kp->addr = p;
		kp->zombie = (uint8_t)zombie;
		kp->first = kt->nthreads;
		if ((st = rd(w, p + w->off[S_P_PID], b, 4, "p_pid", err)) !=
		    DK_OK)
			return st;
		kp->pid = (int32_t)word(w, b, 4);
		if ((st = rd(w, p + w->off[S_P_COMM], b, DK_KT_COMM, "p_comm",
		    err)) != DK_OK)
			return st;
		copy_name(kp->comm, b);
		kp->state = proc_member(w, p, DK_KD_P_STATE, 1);
		kp->flag = proc_member(w, p, DK_KD_P_FLAG, 1);
		kp->ppid = proc_member(w, p, DK_KD_P_OPPID, 1);
		kp->pptr = (uint64_t)proc_member(w, p, DK_KD_P_PPTR, 0);
		if ((st = rd(w, p + w->off[S_P_THREADS], tq, w->ptr,
		    "p_threads", err)) != DK_OK)
			return st;
		kt->nprocs++;
		if ((st = walk_threads(w, kp, tq, err)) != DK_OK)
			return st;
		from = p + w->off[S_P_LIST];
		if ((st = rd_ptr(w, from, &p, "p_list", err)) != DK_OK)
			return st;
	}
	return DK_OK;
}

const char *
dk_kt_sym_name(size_t i)
{
	return i < S_N ? ksyms[i].name : NULL;
}

/* The int symbol i holds in the dump; DK_KT_UNKNOWN: absent, unread. */
static int64_t
sym_int(struct walk *w, int i)
{
	uint8_t b[4];
	struct dk_err e2;

	if (w->sym[i] == 0 || w->m->read(w->m->arg, w->sym[i], b, 4, &e2) !=
	    DK_OK)
		return DK_KT_UNKNOWN;
	return (int32_t)word(w, b, 4);
}

/* The values the symbols hold in the dump. */
static enum dk_status
load_symbols(struct walk *w, struct dk_err *err)
{
	struct dk_kthreads *kt = w->kt;
	uint8_t b[8];
	enum dk_status st;

	for (size_t i = 0; i < S_N; i++)
		if (w->sym[i] == 0 && ksyms[i].required)
			return dk_err_set(err, DK_EINVAL, "%s: no symbol %s",
			    w->m->name, ksyms[i].name);
	for (size_t i = S_P_PID; i < S_N; i++) {
		if ((st = rd(w, w->sym[i], b, 4, ksyms[i].name, err)) != DK_OK)
			return st;
		w->off[i] = (uint32_t)word(w, b, 4);
		if (w->off[i] >= KT_MAX_OFF)
			return dk_err_set(err, DK_ECORRUPT, "%s: %s at %#jx "
			    "is %#x: expected an offset in a struct, below "
			    "%#x", w->m->name, ksyms[i].name,
			    (uintmax_t)w->sym[i], w->off[i], KT_MAX_OFF);
	}
	if ((st = rd(w, w->sym[S_DUMPTID], b, 4, "dumptid", err)) != DK_OK)
		return st;
	kt->dumptid = (int32_t)word(w, b, 4);
	/* ticks and hz, for ps's I against S. */
	kt->ticks = sym_int(w, S_TICKS);
	kt->hz = sym_int(w, S_HZ);
	if (w->sym[S_PCB_SIZE] != 0) {
		if ((st = rd(w, w->sym[S_PCB_SIZE], b, 4, "pcb_size", err)) !=
		    DK_OK)
			return st;
		kt->pcb_size = (uint32_t)word(w, b, 4);
		if (kt->pcb_size >= KT_MAX_OFF)
			return dk_err_set(err, DK_ECORRUPT, "%s: pcb_size at "
			    "%#jx is %u: expected the size of a struct pcb, "
			    "below %u", w->m->name,
			    (uintmax_t)w->sym[S_PCB_SIZE], kt->pcb_size,
			    KT_MAX_OFF);
	}
	kt->ncpu = 1;
	if (w->sym[S_MP_MAXID] != 0) {
		uint32_t maxid;

		if ((st = rd(w, w->sym[S_MP_MAXID], b, 4, "mp_maxid", err)) !=
		    DK_OK)
			return st;
		if ((maxid = (uint32_t)word(w, b, 4)) >= KT_MAX_CPU)
			return dk_err_set(err, DK_ECORRUPT, "%s: mp_maxid at "
			    "%#jx is %u: expected fewer than %u CPUs",
			    w->m->name, (uintmax_t)w->sym[S_MP_MAXID],
			    maxid, KT_MAX_CPU);
		kt->ncpu = maxid + 1;
	}
	if (w->sym[S_STOPPED_CPUS] != 0) {
		/* cpuset_t: longs of bits, CPU n bit n % 64 of long n / 64. */
		for (uint32_t c = 0; c < kt->ncpu; c += 8 * w->ptr) {
			if ((st = rd(w, w->sym[S_STOPPED_CPUS] + c / 8, b,
			    w->ptr, "stopped_cpus", err)) != DK_OK)
				return st;
			w->stopped[c / 64] |= word(w, b, w->ptr) << (c % 64);
		}
	}
	if (w->sym[S_PANICSTR] != 0 &&
	    rd_ptr(w, w->sym[S_PANICSTR], &kt->panicstr, "panicstr", err) ==
	    DK_OK && kt->panicstr != 0) {
		/* Byte by byte up to a page end: the string may end there. */
		size_t n = 0;

		while (n + 1 < sizeof(kt->panic) && w->m->read(w->m->arg,
		    kt->panicstr + n, kt->panic + n, 1, err) == DK_OK &&
		    kt->panic[n] != '\0')
			n++;
		kt->panic[n] = '\0';
	}
	dk_err_clear(err);
	return DK_OK;
}

static int
by_addr(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

/*
 * Each process's PPID, as libkvm's kvm_proclist() takes it: p_oppid if
 * it is not 0, else the p_pid of the process p_pptr points at (from the
 * table, else read from the dump), else 0 where p_pptr is NULL.
 */
static enum dk_status
resolve_parents(struct walk *w, struct dk_err *err)
{
	struct dk_kthreads *kt = w->kt;
	uint64_t (*ix)[2] = NULL;
	int have_pptr = w->lay != NULL && w->lay->width[DK_KD_P_PPTR] != 0;

	if (!have_pptr) {
		for (size_t i = 0; i < kt->nprocs; i++)
			if (kt->procs[i].ppid == 0)
				kt->procs[i].ppid = DK_KT_UNKNOWN;
		return DK_OK;
	}
	if (kt->nprocs > 0 &&
	    (ix = malloc(kt->nprocs * sizeof(*ix))) == NULL)
		return dk_err_set(err, DK_ENOMEM, "out of memory");
	for (size_t i = 0; i < kt->nprocs; i++) {
		ix[i][0] = kt->procs[i].addr;
		ix[i][1] = i;
	}
	if (kt->nprocs > 0)
		qsort(ix, kt->nprocs, sizeof(*ix), by_addr);
	for (size_t i = 0; i < kt->nprocs; i++) {
		struct dk_kproc *kp = &kt->procs[i];
		uint64_t key[2] = { kp->pptr, 0 }, (*hit)[2];
		uint8_t b[4];
		struct dk_err e2;

		if (kp->ppid != 0 && kp->ppid != DK_KT_UNKNOWN)
			continue;	/* p_oppid */
		if (kp->pptr == (uint64_t)DK_KT_UNKNOWN) {
			kp->ppid = DK_KT_UNKNOWN;
			continue;
		}
		if (kp->pptr == 0) {
			kp->ppid = 0;
			continue;
		}
		hit = bsearch(key, ix, kt->nprocs, sizeof(*ix), by_addr);
		if (hit != NULL)
			kp->ppid = kt->procs[(*hit)[1]].pid;
		else if (kp->pptr % w->ptr == 0 && w->m->read(w->m->arg,
		    kp->pptr + w->off[S_P_PID], b, 4, &e2) == DK_OK)
			kp->ppid = sword(w, b, 4);
		else
			kp->ppid = DK_KT_UNKNOWN;
	}
	free(ix);
	return DK_OK;
}

enum dk_status
dk_kthreads_walk(const struct dk_kt_source *m, const uint64_t *sym,
    const struct dk_kdwarf *layout, size_t max, struct dk_kthreads *kt,
    struct dk_err *err)
{
	struct walk w;
	enum dk_status st;

	memset(kt, 0, sizeof(*kt));
	memset(&w, 0, sizeof(w));
	kt->crashed = SIZE_MAX;
	w.m = m;
	w.kt = kt;
	w.ptr = m->ptr;
	w.max = max != 0 && max < DK_KT_MAX ? max : DK_KT_MAX;
	w.lay = layout;
	/* The enumerators' values for dk_kproc_stat(): the DWARF's. */
	if (layout != NULL) {
		kt->layout = *layout;
		kt->have_layout = 1;
	} else {
		for (size_t i = 0; i < DK_KD_TDS_N; i++)
			kt->layout.tds[i] = (int64_t)i;
		for (size_t i = 0; i < DK_KD_PRS_N; i++)
			kt->layout.prs[i] = (int64_t)i;
	}
	memcpy(w.sym, sym, sizeof(w.sym));
	if (w.ptr != 4 && w.ptr != 8)
		return dk_err_set(err, DK_EINVAL, "%s: pointers of %u bytes",
		    m->name, w.ptr);
	if ((st = load_symbols(&w, err)) == DK_OK)
		st = walk_procs(&w, w.sym[S_ALLPROC], 0, err);
	if (st == DK_OK && w.sym[S_ZOMBPROC] != 0)
		st = walk_procs(&w, w.sym[S_ZOMBPROC], 1, err);
	if (st == DK_OK)
		st = resolve_parents(&w, err);
	free(w.seen);
	if (st != DK_OK)
		dk_kthreads_free(kt);
	return st;
}

/*
 * The DWARF members into kt->layout: kt->have_layout if any is usable,
 * kt->layout_note why not (or which are not).  Never an error: a kernel
 * without DWARF has no PPID and state, nothing more.
 */
static enum dk_status
dk_kthreads_dwarf(const char *kernel, unsigned ptr, struct dk_kthreads *kt)
{
	struct dk_err e2;
	size_t usable = 0;

	if (dk_kernel_dwarf(kernel, ptr, &kt->layout, &e2) != DK_OK) {
		snprintf(kt->layout_note, sizeof(kt->layout_note), "%s",
		    e2.msg);
		return DK_OK;
	}
	for (size_t i = 0; i < DK_KD_N; i++)
		usable += kt->layout.width[i] != 0;
	kt->have_layout = usable > 0;
	if (kt->layout.note[0] != '\0') {
		size_t n = (size_t)snprintf(kt->layout_note,
		    sizeof(kt->layout_note), "%s: ", kernel);

		if (n < sizeof(kt->layout_note))
			memcpy(kt->layout_note + n, kt->layout.note,
			    strnlen(kt->layout.note, sizeof(kt->layout_note) -
			    n - 1) + 1);
		kt->layout_note[sizeof(kt->layout_note) - 1] = '\0';
	}
	return DK_OK;
}

static enum dk_status
dump_read(void *arg, uint64_t va, void *buf, size_t len, struct dk_err *err)
{
	return dk_read_va(arg, va, buf, len, err);
}

enum dk_status
dk_kthreads_load(struct dk_dump *d, const char *kernel, size_t max,
    struct dk_kthreads *kt, struct dk_err *err)
{
	struct dk_kt_source m = { d->src.name, d->arch->endian,
	    d->arch->long_size, dump_read, d };
	struct dk_ksym s[S_N];
	struct dk_kthreads walked;
	uint64_t sym[S_N];
	enum dk_status st;

	memset(kt, 0, sizeof(*kt));
	kt->crashed = SIZE_MAX;
	for (size_t i = 0; i < S_N; i++)
		s[i] = (struct dk_ksym){ ksyms[i].name, 0, 0 };
	if ((st = dk_kernel_symbols(kernel, s, S_N, err)) != DK_OK)
		return st;
	for (size_t i = 0; i < S_N; i++) {
		if (!s[i].found && ksyms[i].required)
			return dk_err_set(err, DK_EUNSUP, "%s: the kernel has "
			    "no symbol %s: expected a FreeBSD kernel (11.0 "
			    "or later) with the debugger offsets",
			    kernel, ksyms[i].name);
		sym[i] = s[i].found ? s[i].value : 0;
	}
	if ((st = dk_kthreads_dwarf(kernel, m.ptr, kt)) == DK_OK)
		st = dk_kthreads_walk(&m, sym, kt->have_layout ? &kt->layout :
		    NULL, max, &walked, err);
	if (st != DK_OK)
		return st;
	/* The walk starts afresh: keep what the DWARF gave. */
	memcpy(&walked.layout, &kt->layout, sizeof(walked.layout));
	walked.have_layout = kt->have_layout;
	memcpy(walked.layout_note, kt->layout_note,
	    sizeof(walked.layout_note));
	*kt = walked;
	kt->regs = dk_pcb_regs(d->arch);
	if ((st = dk_kernel_build_id(kernel, kt->build_id,
	    sizeof(kt->build_id), &kt->build_id_len, &kt->build_id_va,
	    err)) != DK_OK)
		dk_kthreads_free(kt);
	return st;
}

static const char *const tds_words[DK_KD_TDS_N] = { "inactive", "inhibited",
    "can_run", "runq", "running" };

/* Which enumerator v is (enum td_states, p_states): index, or -1. */
static int
which(const int64_t *vals, size_t n, int64_t v)
{
	for (size_t i = 0; i < n; i++)
		if (vals[i] == v)
			return (int)i;
	return -1;
}

const char *
dk_kthread_state(const struct dk_kthreads *kt, size_t i)
{
	int k;

	if (kt->threads[i].state == DK_KT_UNKNOWN)
		return "-";
	k = which(kt->layout.tds, DK_KD_TDS_N, kt->threads[i].state);
	return k < 0 ? "?" : tds_words[k];
}

const char *
dk_kproc_stat(const struct dk_kthreads *kt, size_t i)
{
	const struct dk_kproc *p = &kt->procs[i];
	const struct dk_kthread *t;
	int ps, ts;

	if (p->state == DK_KT_UNKNOWN)
		return "-";
	ps = which(kt->layout.prs, DK_KD_PRS_N, p->state);
	if (ps == 2)
		return "Z";
	if (ps == 0)
		return "new";
	if (ps != 1)
		return "?";
	/* PRS_NORMAL: the first thread decides, as in libkvm. */
	if (p->nthreads == 0 || kt->threads[p->first].state == DK_KT_UNKNOWN)
		return "-";
	t = &kt->threads[p->first];
	ts = which(kt->layout.tds, DK_KD_TDS_N, t->state);
	if (ts >= 2)
		return "R";
	if (ts != 1)
		return "?";
	/*
	 * TDS_INHIBITED: libkvm's SSTOP (p_flag's P_STOPPED), SSLEEP
	 * (TDI_SLEEPING), SLOCK (TDI_LOCK), else SWAIT; ps's letter: T, an
	 * interruptible sleep (TDF_SINTR) I if it has lasted MAXSLP seconds
	 * ((ticks - td_slptick) / hz) else S, an uninterruptible one D, L,
	 * W.  sys/sys/proc.h, lib/libkvm/kvm_proc.c, bin/ps/print.c.
	 */
	if (p->flag == DK_KT_UNKNOWN || t->inhibitors == DK_KT_UNKNOWN)
		return "inhibited";
	if (p->flag & KT_P_STOPPED)
		return "T";
	if (t->inhibitors & KT_TDI_SLEEPING) {
		int32_t slept;

		if (t->flags == DK_KT_UNKNOWN)
			return "inhibited";
		if (!(t->flags & KT_TDF_SINTR))
			return "D";
		if (kt->ticks == DK_KT_UNKNOWN || kt->hz == DK_KT_UNKNOWN ||
		    kt->hz <= 0 || t->slptick == DK_KT_UNKNOWN)
			return "inhibited";
		slept = (int32_t)((uint32_t)kt->ticks - (uint32_t)t->slptick);
		return slept / kt->hz >= KT_MAXSLP ? "I" : "S";
	}
	return t->inhibitors & KT_TDI_LOCK ? "L" : "W";
}

void
dk_kthreads_free(struct dk_kthreads *kt)
{
	free(kt->procs);
	free(kt->threads);
	kt->procs = NULL;
	kt->threads = NULL;
	kt->nprocs = kt->nthreads = 0;
}

enum dk_status
dk_kthread_regs(struct dk_dump *d, const struct dk_kthreads *kt, size_t i,
    uint64_t *regs, struct dk_err *err)
{
	const struct dk_pcb_regs *r = kt->regs;
	const struct dk_kthread *t = &kt->threads[i];
	uint8_t pcb[DK_KT_MAXPCB];
	struct dk_err e2;

	if (r == NULL)
		return dk_err_set(err, DK_EUNSUP, "%s: the registers of a "
		    "%s thread are not decoded yet", d->src.name,
		    d->arch->name);
	memset(regs, 0, r->nregs * sizeof(*regs));
	if (t->pcb == 0)
		return dk_err_set(err, DK_ECORRUPT, "%s: thread %d (%s) has "
		    "no pcb (td_pcb NULL at %#jx)", d->src.name, t->tid,
		    t->name, (uintmax_t)t->td);
	if (dk_read_va(d, t->pcb, pcb, r->pcb_min, &e2) != DK_OK)
		return dk_err_set(err, DK_ECORRUPT, "%s: the pcb of thread "
		    "%d (%s) at %#jx: not readable in the dump (%s)",
		    d->src.name, t->tid, t->name, (uintmax_t)t->pcb, e2.msg);
	dk_pcb_decode(r, pcb, d->arch->endian, regs);
	return DK_OK;
}

/* Append a note (name, type, descriptor of len bytes) at *at of buf. */
static size_t
put_note(uint8_t *buf, size_t at, enum dk_endian e, const char *name,
    uint32_t type, const void *desc, size_t len)
{
	size_t namesz = strlen(name) + 1;

	at += dk_note_head(buf + at, e, type, name, namesz, len);
	memcpy(buf + at, desc, len);
	memset(buf + at + len, 0, (len + 3) / 4 * 4 - len);
	return at + (len + 3) / 4 * 4;
}

enum dk_status
dk_kthreads_notes(struct dk_dump *d, const struct dk_kthreads *kt,
    uint8_t **bufp, size_t *lenp, struct dk_err *err)
{
	const struct dk_pcb_regs *r = kt->regs;
	enum dk_endian e = d->arch->endian;
	uint8_t *buf, *desc;
	size_t n = kt->nthreads, size, at = 0, dmax, tsize;
	enum dk_status st = DK_OK;

	*bufp = NULL;
	*lenp = 0;
	if (r == NULL)
		return dk_err_set(err, DK_EUNSUP, "%s: the registers of a %s "
		    "thread are not decoded yet: convert with --no-threads",
		    d->src.name, d->arch->name);
	tsize = DK_KT_TABLE_HEAD + n * DK_KT_TABLE_REC;
	size = n * (size_t)dk_note_size(5, r->prstatus_size) +
	    (size_t)dk_note_size(5, r->prpsinfo_size) +
	    (size_t)dk_note_size(DK_PNOTE_NAMESZ, tsize) +
	    (size_t)dk_note_size(4, kt->build_id_len);
	dmax = tsize > r->prstatus_size ? tsize : r->prstatus_size;
	dmax = dmax > r->prpsinfo_size ? dmax : r->prpsinfo_size;
	if ((buf = malloc(size)) == NULL || (desc = calloc(1, dmax)) == NULL) {
		free(buf);
		return dk_err_set(err, DK_ENOMEM, "out of memory");
	}
	/* NT_PRSTATUS, the crashed thread first: gdb selects the first. */
	for (size_t k = 0; k < n && st == DK_OK; k++) {
		size_t i = kt->crashed == SIZE_MAX ? k : k == 0 ? kt->crashed :
		    k <= kt->crashed ? k - 1 : k;
		uint64_t regs[DK_KT_MAXREGS];

		memset(desc, 0, r->prstatus_size);
		if ((st = dk_kthread_regs(d, kt, i, regs, err)) != DK_OK)
			break;
		enc_uint(desc + r->pid_off, 4, e, (uint32_t)kt->threads[i].tid);
		if (kt->threads[i].crashed)
			enc_uint(desc + r->cursig_off, 2, e, 0);
		for (unsigned g = 0; g < r->nregs; g++)
			enc_uint(desc + r->reg_off + g * r->word, r->word, e,
			    regs[g]);
		at = put_note(buf, at, e, "CORE", NT_PRSTATUS, desc,
		    r->prstatus_size);
	}
	if (st == DK_OK) {
		/* NT_PRPSINFO: the process of the crashed thread. */
		const struct dk_kthread *c = kt->crashed != SIZE_MAX ?
		    &kt->threads[kt->crashed] : n > 0 ? &kt->threads[0] : NULL;

		memset(desc, 0, r->prpsinfo_size);
		if (c != NULL) {
			enc_uint(desc + r->psinfo_pid_off, 4, e,
			    (uint32_t)c->pid);
			memcpy(desc + r->psinfo_fname_off, c->comm,
			    strnlen(c->comm, 15));
			snprintf((char *)desc + r->psinfo_fname_off + 16, 80,
			    "%s", c->comm);
		}
		at = put_note(buf, at, e, "CORE", NT_PRPSINFO, desc,
		    r->prpsinfo_size);
	}
	if (st == DK_OK) {
		/* The thread table, list order. */
		uint8_t *p = desc;

		memset(desc, 0, tsize);
		enc_uint(p, 4, e, 1);
		enc_uint(p + 4, 4, e, DK_KT_TABLE_REC);
		enc_uint(p + 8, 8, e, n);
		for (size_t i = 0; i < n; i++) {
			const struct dk_kthread *t = &kt->threads[i];
			uint8_t *q = p + DK_KT_TABLE_HEAD + i * DK_KT_TABLE_REC;

			enc_uint(q, 4, e, (uint32_t)t->tid);
			enc_uint(q + 4, 4, e, (uint32_t)t->pid);
			enc_uint(q + 8, 4, e, (uint32_t)t->oncpu);
			enc_uint(q + 12, 4, e, (uint32_t)t->crashed |
			    (uint32_t)t->src << 1);
			enc_uint(q + 16, 8, e, t->td);
			enc_uint(q + 24, 8, e, t->pcb);
			memcpy(q + 32, t->comm, DK_KT_COMM);
			memcpy(q + 52, t->name, DK_KT_COMM);
		}
		at += dk_note_head(buf + at, e, DK_PNOTE_BASE + DK_PN_THREADS,
		    DK_PNOTE_NAME, DK_PNOTE_NAMESZ, tsize);
		memcpy(buf + at, desc, tsize);
		at += (tsize + 3) / 4 * 4;
		if (kt->build_id_len > 0)
			at = put_note(buf, at, e, "GNU", NT_GNU_BUILD_ID,
			    kt->build_id, kt->build_id_len);
	}
	free(desc);
	if (st != DK_OK) {
		free(buf);
		return st;
	}
	*bufp = buf;
	*lenp = at;
	return DK_OK;
}

/*
 * The debugger core of a 32-bit kernel (docs/kthreads.md, "32-bit
 * kernels"): ELFCLASS32 ET_CORE of the dump's machine and e_flags, one
 * PT_NOTE (notes), one PT_LOAD per virtual run of the portable file
 * (the kernel map's and the windows'), the bytes read through the dump.
 */
#define	C32_EHDR	dk_elf_size(DK_ELF_EHDR, ELFCLASS32)
#define	C32_PHDR	dk_elf_size(DK_ELF_PHDR, ELFCLASS32)
#define	C32_CHUNK	(256u << 10)

enum dk_status
dk_kthreads_core32(struct dk_dump *d, struct dk_sink *s, const void *notes,
    size_t len, struct dk_err *err)
{
	enum dk_endian e = d->arch->endian;
	struct dk_kmap_run *r = NULL;
	size_t n = 0;
	uint64_t noff, data, off, total;
	uint8_t h[DK_ELF_MAXSZ], *buf = NULL;
	struct dk_ehdr eh;
	enum dk_status st;

	if (d->arch->elf_class != ELFCLASS32)
		return dk_err_set(err, DK_EINVAL, "%s: a debugger core of "
		    "ELFCLASS32 is for a 32-bit kernel, this is %s",
		    d->src.name, d->arch->name);
	if ((st = dk_elfmini_virt(d, &r, &n, err)) != DK_OK)
		return st;
	if (n == 0 || n >= PN_XNUM - 1) {
		st = dk_err_set(err, DK_EUNSUP, "%s: %zu kernel-map runs: a "
		    "debugger core needs 1 to %u", d->src.name, n,
		    PN_XNUM - 2);
		goto out;
	}
	noff = C32_EHDR + (uint64_t)(n + 1) * C32_PHDR;
	data = (noff + len + d->page_size - 1) / d->page_size * d->page_size;
	total = data;
	for (size_t i = 0; i < n; i++) {
		uint64_t hi = r[i].va >> 32;

		/* o32 addresses are sign-extended: keep the low 32 bits. */
		if ((hi != 0 && hi != 0xffffffffu) || r[i].len > UINT32_MAX -
		    (uint32_t)r[i].va + 1ull) {
			st = dk_err_set(err, DK_EINVAL, "%s: kernel-map run at "
			    "%#jx (%ju bytes) is not a 32-bit address",
			    d->src.name, (uintmax_t)r[i].va,
			    (uintmax_t)r[i].len);
			goto out;
		}
		total += r[i].len;
	}
	if (total > UINT32_MAX) {
		st = dk_err_set(err, DK_EINVAL, "%s: the debugger core would "
		    "be %ju bytes: ELFCLASS32 holds at most 4 GiB",
		    d->src.name, (uintmax_t)total);
		goto out;
	}
	memset(&eh, 0, sizeof(eh));
	dk_elf_ident(eh.ident, ELFCLASS32, e, ELFOSABI_NONE);
	eh.type = ET_CORE;
	eh.machine = d->arch->elf_machine;
	eh.version = EV_CURRENT;
	eh.phoff = C32_EHDR;
	eh.flags = d->arch->elf_flags;
	eh.ehsize = C32_EHDR;
	eh.phentsize = C32_PHDR;
	eh.phnum = (uint16_t)(n + 1);
	dk_ehdr_encode(h, ELFCLASS32, e, &eh);
	if ((st = dk_sink_write(s, h, C32_EHDR, err)) != DK_OK)
		goto out;
	{
		struct dk_phdr p = { PT_NOTE, 0, noff, 0, 0, len, len, 4 };

		dk_phdr_encode(h, ELFCLASS32, e, &p);
		if ((st = dk_sink_write(s, h, C32_PHDR, err)) != DK_OK)
			goto out;
	}
	off = data;
	for (size_t i = 0; i < n; i++) {
		struct dk_phdr p = { PT_LOAD, dk_pflags(r[i].prot), off, r[i].va & UINT32_MAX,
		    r[i].pa <= UINT32_MAX ? r[i].pa : 0, r[i].len, r[i].len,
		    d->page_size };

		dk_phdr_encode(h, ELFCLASS32, e, &p);
		if ((st = dk_sink_write(s, h, C32_PHDR, err)) != DK_OK)
			goto out;
		off += r[i].len;
	}
	if ((st = dk_sink_write(s, notes, len, err)) != DK_OK ||
	    (st = dk_sink_zero(s, data - noff - len, err)) != DK_OK)
		goto out;
	if ((buf = malloc(C32_CHUNK)) == NULL) {
		st = dk_err_set(err, DK_ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n && st == DK_OK; i++)
		for (uint64_t at = 0; at < r[i].len && st == DK_OK;
		    at += C32_CHUNK) {
			size_t k = r[i].len - at < C32_CHUNK ?
			    (size_t)(r[i].len - at) : C32_CHUNK;

			if ((st = dk_read_va(d, r[i].va + at, buf, k, err)) ==
			    DK_OK)
				st = dk_sink_write(s, buf, k, err);
		}
	if (st == DK_OK)
		st = dk_sink_finish(s, err);
out:
	free(buf);
	free(r);
	return st;
}
