/*
 * check_kthreads.c -- the process-list walk (formats/kthreads.c) over
 * kernel memory written here byte by byte, as FreeBSD lays its lists
 * out (docs/kthreads.md): LIST_HEAD allproc, struct proc linked by
 * p_list, its p_threads TAILQ linked by td_plist, the offsets exported
 * as 4-byte ints.  The answers are the bytes written: tids, names, the
 * thread that dumped (dumppcb), the one stopped on CPU 1 (stoppcbs +
 * pcb_size), the rest (td_pcb); and the bounds: a cycle, a huge list,
 * a misaligned or unreadable pointer, an absurd offset, each an error
 * naming the address, in both byte orders and pointer sizes.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "kthreads.h"

#define	BASE	0x10000u
#define	PROC	(BASE + 0x400)	/* two procs, 0x80 each */
#define	TD	(BASE + 0x800)	/* threads, 0x80 each */

struct img {
	uint8_t		 mem[0x800 + 0x80 * 64];
	size_t		 len;
	enum dk_endian	 e;
	unsigned	 ptr;
};

static enum dk_status
img_read(void *arg, uint64_t va, void *buf, size_t len, struct dk_err *err)
{
	const struct img *m = arg;

	if (va < BASE || va - BASE > m->len || m->len - (va - BASE) < len)
		return dk_err_set(err, DK_ECORRUPT, "unmapped");
	memcpy(buf, m->mem + (va - BASE), len);
	return DK_OK;
}

static void
put(struct img *m, uint64_t va, uint64_t v, unsigned size)
{
	enc_uint(m->mem + (va - BASE), size, m->e, v);
}

/* Symbol i at BASE + 16 i. */
static uint64_t
sym(int i)
{
	return BASE + 16 * (uint64_t)i;
}

/*
 * Two processes: pid 5 "init" with threads 100 "a", 101 "b" (on CPU 1),
 * pid 9 "sh" with 102 "c" (dumptid); then nth - 3 more threads of sh.
 */
static void
build(struct img *m, enum dk_endian e, unsigned ptr, size_t nth)
{
	static const struct { int s; uint32_t v; } offs[] = {
		{ DK_KS_P_PID, 0x48 }, { DK_KS_P_COMM, 0x60 },
		{ DK_KS_P_LIST, 0x10 }, { DK_KS_P_THREADS, 0x20 },
		{ DK_KS_TD_TID, 0x28 }, { DK_KS_TD_NAME, 0x40 },
		{ DK_KS_TD_ONCPU, 0x2c }, { DK_KS_TD_PCB, 0x30 },
		{ DK_KS_TD_PLIST, 0x08 }, { DK_KS_PCB_SIZE, 0x100 },
		{ DK_KS_MP_MAXID, 1 }, { DK_KS_DUMPTID, 102 },
	};

	memset(m, 0, sizeof(*m));
	m->e = e;
	m->ptr = ptr;
	m->len = 0x800 + 0x80 * nth;
	for (size_t i = 0; i < sizeof(offs) / sizeof(offs[0]); i++)
		put(m, sym(offs[i].s), offs[i].v, 4);
	put(m, sym(DK_KS_STOPPED_CPUS), 2, ptr);	/* CPU 1 */
	put(m, sym(DK_KS_ALLPROC), PROC, ptr);
	put(m, PROC + 0x10, PROC + 0x80, ptr);
	put(m, PROC + 0x48, 5, 4);
	memcpy(m->mem + PROC - BASE + 0x60, "init", 5);
	put(m, PROC + 0x20, TD, ptr);
	put(m, PROC + 0x80 + 0x48, 9, 4);
	memcpy(m->mem + PROC - BASE + 0x80 + 0x60, "sh", 3);
	put(m, PROC + 0x80 + 0x20, TD + 0x100, ptr);
	for (size_t i = 0; i < nth; i++) {
		uint64_t t = TD + 0x80 * i;

		put(m, t + 0x28, 100 + i, 4);
		put(m, t + 0x2c, i == 1 ? 1 : (uint32_t)-1, 4);
		put(m, t + 0x30, BASE + 0x300, ptr);
		m->mem[t - BASE + 0x40] = (uint8_t)('a' + i % 26);
		put(m, t + 0x08, i == 0 || (i >= 2 && i + 1 < nth) ? t + 0x80 :
		    0, ptr);
	}
	put(m, sym(DK_KS_PANICSTR), BASE + 0x3f0, ptr);
	memcpy(m->mem + 0x3f0, "boom", 5);
}

static enum dk_status
walk(struct img *m, size_t max, struct dk_kthreads *kt, struct dk_err *err)
{
	struct dk_kt_source src = { "img", m->e, m->ptr, img_read, m };
	uint64_t s[DK_KS_N];

	for (int i = 0; i < DK_KS_N; i++)
		s[i] = i == DK_KS_ZOMBPROC || i == DK_KS_DUMPPCB ||
		    i == DK_KS_STOPPCBS ? 0 : sym(i);
	s[DK_KS_DUMPPCB] = BASE + 0x200;
	s[DK_KS_STOPPCBS] = BASE + 0x1000;
	dk_err_clear(err);
	return dk_kthreads_walk(&src, s, NULL, max, kt, err);
}

START_TEST(test_walk)
{
	static const struct { enum dk_endian e; unsigned ptr; } v[] = {
		{ DK_LE, 8 }, { DK_BE, 8 }, { DK_LE, 4 }, { DK_BE, 4 },
	};
	struct img m;
	struct dk_kthreads kt;
	struct dk_err err;

	build(&m, v[_i].e, v[_i].ptr, 3);
	ck_assert_int_eq(walk(&m, 0, &kt, &err), DK_OK);
	ck_assert_uint_eq(kt.nprocs, 2);
	ck_assert_uint_eq(kt.nthreads, 3);
	ck_assert_int_eq(kt.procs[0].pid, 5);
	ck_assert_str_eq(kt.procs[0].comm, "init");
	ck_assert_uint_eq(kt.procs[0].nthreads, 2);
	ck_assert_str_eq(kt.procs[1].comm, "sh");
	ck_assert_int_eq(kt.threads[0].tid, 100);
	ck_assert_str_eq(kt.threads[0].name, "a");
	ck_assert_int_eq(kt.threads[0].oncpu, -1);
	ck_assert_uint_eq(kt.threads[0].src, DK_KT_TD_PCB);
	ck_assert_uint_eq(kt.threads[0].pcb, BASE + 0x300);
	ck_assert_int_eq(kt.threads[1].oncpu, 1);
	ck_assert_uint_eq(kt.threads[1].src, DK_KT_STOPPCB);
	ck_assert_uint_eq(kt.threads[1].pcb, BASE + 0x1000 + 0x100);
	ck_assert_uint_eq(kt.crashed, 2);
	ck_assert_int_eq(kt.threads[2].pid, 9);
	ck_assert_uint_eq(kt.threads[2].src, DK_KT_DUMPPCB);
	ck_assert_uint_eq(kt.threads[2].pcb, BASE + 0x200);
	ck_assert_str_eq(kt.panic, "boom");
	dk_kthreads_free(&kt);
}
END_TEST

/*
 * A DWARF layout of 0x80-byte structs with p_state at 0x30 and td_state
 * at 0x58, FreeBSD's enumerators; the tests add the members they read.
 */
static void
layout(struct dk_kdwarf *lay)
{
	memset(lay, 0, sizeof(*lay));
	lay->size[DK_KD_PROC] = lay->size[DK_KD_THREAD] = 0x80;
	lay->off[DK_KD_P_STATE] = 0x30;
	lay->off[DK_KD_TD_STATE] = 0x58;
	lay->width[DK_KD_P_STATE] = lay->width[DK_KD_TD_STATE] = 4;
	for (int i = 0; i < DK_KD_TDS_N; i++)
		lay->tds[i] = i;
	for (int i = 0; i < DK_KD_PRS_N; i++)
		lay->prs[i] = i;
}

/*
 * The DWARF's members (p_state 0x30, p_oppid 0x34, p_pptr 0x38,
 * td_state 0x58): init's parent is a struct proc outside the lists
 * (its p_pid, 1, read from memory), sh's is init (5, from the table),
 * then p_oppid 77 first, as libkvm; an unreadable p_pptr is unknown.
 * STAT from p_state and the first thread's td_state.
 */
START_TEST(test_parents)
{
	static const struct { enum dk_endian e; unsigned ptr; } v[] = {
		{ DK_LE, 8 }, { DK_BE, 8 }, { DK_LE, 4 }, { DK_BE, 4 },
	};
	struct img m;
	struct dk_kthreads kt;
	struct dk_kdwarf lay;
	struct dk_err err;
	uint64_t s[DK_KS_N];
	struct dk_kt_source src;
	unsigned ptr = v[_i].ptr;

	build(&m, v[_i].e, ptr, 3);
	layout(&lay);
	lay.off[DK_KD_P_OPPID] = 0x34;
	lay.off[DK_KD_P_PPTR] = 0x38;
	lay.width[DK_KD_P_OPPID] = 4;
	lay.width[DK_KD_P_PPTR] = (uint8_t)ptr;
	put(&m, PROC + 0x30, 1, 4);			/* PRS_NORMAL */
	put(&m, PROC + 0x38, BASE + 0x600, ptr);
	put(&m, BASE + 0x600 + 0x48, 1, 4);
	put(&m, PROC + 0x80 + 0x30, 2, 4);		/* PRS_ZOMBIE */
	put(&m, PROC + 0x80 + 0x38, PROC, ptr);
	put(&m, TD + 0x58, 1, 4);			/* TDS_INHIBITED */
	put(&m, TD + 0x80 + 0x58, 4, 4);		/* TDS_RUNNING */
	put(&m, TD + 0x100 + 0x58, 3, 4);		/* TDS_RUNQ */
	src = (struct dk_kt_source){ "img", m.e, m.ptr, img_read, &m };
	for (int i = 0; i < DK_KS_N; i++)
		s[i] = i == DK_KS_ZOMBPROC || i == DK_KS_STOPPCBS ? 0 : sym(i);
	s[DK_KS_DUMPPCB] = BASE + 0x200;
	ck_assert_int_eq(dk_kthreads_walk(&src, s, &lay, 0, &kt, &err), DK_OK);
	ck_assert_int_eq(kt.procs[0].ppid, 1);
	ck_assert_int_eq(kt.procs[1].ppid, 5);
	ck_assert_str_eq(dk_kproc_stat(&kt, 0), "inhibited");
	ck_assert_str_eq(dk_kproc_stat(&kt, 1), "Z");
	ck_assert_str_eq(dk_kthread_state(&kt, 0), "inhibited");
	ck_assert_str_eq(dk_kthread_state(&kt, 1), "running");
	ck_assert_str_eq(dk_kthread_state(&kt, 2), "runq");
	dk_kthreads_free(&kt);

	/* p_oppid first; a p_pptr nothing maps; a state out of range. */
	put(&m, PROC + 0x80 + 0x34, 77, 4);
	put(&m, PROC + 0x38, BASE + 0x100000, ptr);
	put(&m, PROC + 0x30, 9, 4);
	put(&m, TD + 0x80 + 0x58, 0, 4);		/* TDS_INACTIVE */
	ck_assert_int_eq(dk_kthreads_walk(&src, s, &lay, 0, &kt, &err), DK_OK);
	ck_assert_int_eq(kt.procs[1].ppid, 77);
	ck_assert(kt.procs[0].ppid == DK_KT_UNKNOWN);
	ck_assert_str_eq(dk_kproc_stat(&kt, 0), "?");
	ck_assert_str_eq(dk_kthread_state(&kt, 1), "inactive");
	dk_kthreads_free(&kt);

	/* Without the DWARF: nothing read. */
	ck_assert_int_eq(dk_kthreads_walk(&src, s, NULL, 0, &kt, &err), DK_OK);
	ck_assert(kt.procs[0].ppid == DK_KT_UNKNOWN);
	ck_assert_str_eq(dk_kproc_stat(&kt, 1), "-");
	ck_assert_str_eq(dk_kthread_state(&kt, 0), "-");
	dk_kthreads_free(&kt);
}
END_TEST

/*
 * ps's STAT letter of init (its first thread "a" TDS_INHIBITED), from
 * p_flag 0x50, td_inhibitors 0x5c, td_flags 0x60, td_slptick 0x64 and
 * the symbols ticks and hz, as libkvm and ps decide it (sys/sys/proc.h:
 * P_STOPPED_SIG 0x20000, TDI_SUSPENDED 1, TDI_SLEEPING 2, TDI_LOCK 8,
 * TDI_IWAIT 0x10, TDF_SINTR 8; MAXSLP 20 s).
 */
START_TEST(test_stat)
{
	static const struct {
		uint32_t	 p_flag, inhib, flags;
		int32_t		 ticks, slptick;
		int		 hz;	/* 0: no symbol hz */
		const char	*want;
	} c[] = {
		{ 0x20000, 2, 8, 50000, 45000, 1000, "T" },
		{ 0, 2, 0, 50000, 45000, 1000, "D" },
		{ 0, 2, 8, 50000, 45000, 1000, "S" },	/* 5 s */
		{ 0, 2, 8, 50000, 30001, 1000, "S" },	/* 19.999 s */
		{ 0, 2, 8, 50000, 30000, 1000, "I" },	/* 20 s */
		{ 0, 2, 8, 50000, 20000, 1000, "I" },
		{ 0, 2, 8, -2147483000, 2147483000, 100, "S" },	/* wrapped */
		{ 0, 8, 0, 0, 0, 1000, "L" },
		{ 0, 0x10, 0, 0, 0, 1000, "W" },
		{ 0, 1, 0, 0, 0, 1000, "W" },		/* suspended alone */
		{ 0, 2, 8, 50000, 45000, 0, "inhibited" },	/* no hz */
	};
	struct img m;
	struct dk_kthreads kt;
	struct dk_kdwarf lay;
	struct dk_err err;
	uint64_t s[DK_KS_N];
	struct dk_kt_source src;

	build(&m, DK_LE, 8, 3);
	layout(&lay);
	lay.off[DK_KD_P_FLAG] = 0x50;
	lay.off[DK_KD_TD_INHIBITORS] = 0x5c;
	lay.off[DK_KD_TD_FLAGS] = 0x60;
	lay.off[DK_KD_TD_SLPTICK] = 0x64;
	lay.width[DK_KD_P_FLAG] = lay.width[DK_KD_TD_INHIBITORS] = 4;
	lay.width[DK_KD_TD_FLAGS] = lay.width[DK_KD_TD_SLPTICK] = 4;
	put(&m, PROC + 0x30, 1, 4);			/* PRS_NORMAL */
	put(&m, TD + 0x58, 1, 4);			/* TDS_INHIBITED */
	src = (struct dk_kt_source){ "img", m.e, m.ptr, img_read, &m };
	for (size_t k = 0; k < DK_ARRAY_LEN(c); k++) {
		for (int i = 0; i < DK_KS_N; i++)
			s[i] = i == DK_KS_ZOMBPROC || i == DK_KS_STOPPCBS ||
			    (i == DK_KS_HZ && c[k].hz == 0) ? 0 : sym(i);
		s[DK_KS_DUMPPCB] = BASE + 0x200;
		put(&m, PROC + 0x50, c[k].p_flag, 4);
		put(&m, TD + 0x5c, c[k].inhib, 4);
		put(&m, TD + 0x60, c[k].flags, 4);
		put(&m, TD + 0x64, (uint32_t)c[k].slptick, 4);
		put(&m, sym(DK_KS_TICKS), (uint32_t)c[k].ticks, 4);
		put(&m, sym(DK_KS_HZ), (uint32_t)c[k].hz, 4);
		ck_assert_int_eq(dk_kthreads_walk(&src, s, &lay, 0, &kt, &err),
		    DK_OK);
		ck_assert_msg(strcmp(dk_kproc_stat(&kt, 0), c[k].want) == 0,
		    "case %zu: STAT %s, expected %s", k, dk_kproc_stat(&kt, 0),
		    c[k].want);
		dk_kthreads_free(&kt);
	}
}
END_TEST

/* Each damage: its status and the words its message must have. */
START_TEST(test_damage)
{
	struct img m;
	struct dk_kthreads kt;
	struct dk_err err;
	enum dk_status st;
	const char *want;
	char buf[128];

	build(&m, DK_LE, 8, _i == 1 ? 60 : 3);
	switch (_i) {
	case 0:		/* c's td_plist back to sh's first thread: a cycle */
		put(&m, TD + 0x100 + 0x08, TD + 0x100, 8);
		want = "at 0x10900 (linked from 0x10908) is in the lists "
		    "already: a cycle";
		st = DK_ECORRUPT;
		break;
	case 1:		/* 60 threads, at most 40 entries */
		want = "more than 40 processes and threads";
		st = DK_ELIMIT;
		break;
	case 2:		/* init's p_list to unmapped memory */
		put(&m, PROC + 0x10, 0x7000000, 8);
		want = "p_pid at 0x7000048: not readable";
		st = DK_ECORRUPT;
		break;
	case 3:		/* a misaligned thread */
		put(&m, PROC + 0x20, TD + 3, 8);
		want = "struct thread at 0x10803 (linked from 0x10420): "
		    "expected an address aligned to 8 bytes";
		st = DK_ECORRUPT;
		break;
	default:	/* thread_off_td_name far away */
		put(&m, sym(DK_KS_TD_NAME), 0x7fffffff, 4);
		snprintf(buf, sizeof(buf), "thread_off_td_name at %#jx is "
		    "0x7fffffff: expected an offset",
		    (uintmax_t)sym(DK_KS_TD_NAME));
		want = buf;
		st = DK_ECORRUPT;
		break;
	}
	ck_assert_int_eq(walk(&m, 40, &kt, &err), st);
	ck_assert_msg(strstr(err.msg, want) != NULL, "message '%s', wanted "
	    "'%s'", err.msg, want);
	ck_assert_ptr_null(kt.threads);
}
END_TEST

/* The tables of every architecture with one: slots inside pr_reg. */
START_TEST(test_pcb_tables)
{
	const struct dk_arch *a;
	size_t n = 0;

	for (size_t i = 0; (a = dk_arch_at(i)) != NULL; i++) {
		const struct dk_pcb_regs *r = dk_pcb_regs(a);

		if (r == NULL)
			continue;
		n++;
		ck_assert_uint_le(r->reg_off + r->nregs * r->word,
		    r->prstatus_size);
		ck_assert_uint_le(r->nregs, DK_KT_MAXREGS);
		ck_assert_uint_le(r->pcb_min, DK_KT_MAXPCB);
		for (size_t k = 0; k < r->nslots; k++) {
			ck_assert_uint_lt(r->slots[k].reg, r->nregs);
			ck_assert_uint_le(r->slots[k].pcb_off + r->word,
			    r->pcb_min);
		}
	}
	/* amd64, i386, arm, armeb, aarch64, riscv64, powerpc64(le), mips
	 * o32, n32 and n64 in both byte orders. */
	ck_assert_uint_ge(n, 14);
}
END_TEST

/*
 * The decoders against pcbs written here from FreeBSD's headers:
 * arm's struct switchframe (sys/arm/include/frame.h: sf_r4..sf_r12,
 * sf_sp, sf_lr, sf_pc, 4 bytes each from 0); mips's struct pcb
 * (sys/mips/include/pcb.h: struct trapframe of 74 register_t, then
 * pcb_context[] s0-s7, sp, s8, ra, sr, gp, pc).  Each pcb word k holds
 * 0x1000 + k; the answer is where Linux's elf_gregset puts the register
 * (arm: r0-r15, cpsr, orig_r0; mips o32: $n at 6 + n, EPC 40, STATUS
 * 42; n32 and n64: $n at n, EPC 34, STATUS 36) and the note sizes
 * BFD's grok_prstatus and grok_psinfo take (elf32-arm 148, elf32-mips
 * 256 and 128, elfn32-mips 440 and 128, elf64-mips 480 and 136).
 */
static const struct {
	const char	*arch;
	unsigned	 word, ctx;	/* register bytes; pcb_context's word */
	unsigned	 prstatus, pid, reg, nregs, psinfo, ps_pid, fname;
	/* gdb register index of pcb_context[k] (or sf word k), -1 none */
	int		 gdb[14];
} pcbs[] = {
	{ "arm", 4, 0, 148, 24, 72, 18, 124, 12, 28,
	  { 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, -1, -1 } },
	{ "armeb", 4, 0, 148, 24, 72, 18, 124, 12, 28,
	  { 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, -1, -1 } },
	{ "mips", 4, 74, 256, 24, 72, 45, 128, 16, 32,
	  { 22, 23, 24, 25, 26, 27, 28, 29, 35, 36, 37, 42, 34, 40 } },
	{ "mipsel", 4, 74, 256, 24, 72, 45, 128, 16, 32,
	  { 22, 23, 24, 25, 26, 27, 28, 29, 35, 36, 37, 42, 34, 40 } },
	{ "mipsn32", 8, 74, 440, 24, 72, 45, 128, 16, 32,
	  { 16, 17, 18, 19, 20, 21, 22, 23, 29, 30, 31, 36, 28, 34 } },
	{ "mipsn32el", 8, 74, 440, 24, 72, 45, 128, 16, 32,
	  { 16, 17, 18, 19, 20, 21, 22, 23, 29, 30, 31, 36, 28, 34 } },
	{ "mips64", 8, 74, 480, 32, 112, 45, 136, 24, 40,
	  { 16, 17, 18, 19, 20, 21, 22, 23, 29, 30, 31, 36, 28, 34 } },
	{ "mips64el", 8, 74, 480, 32, 112, 45, 136, 24, 40,
	  { 16, 17, 18, 19, 20, 21, 22, 23, 29, 30, 31, 36, 28, 34 } },
};

START_TEST(test_pcb_decode)
{
	const struct dk_arch *a = dk_arch_by_name(pcbs[_i].arch);
	const struct dk_pcb_regs *r;
	uint8_t pcb[DK_KT_MAXPCB];
	uint64_t regs[DK_KT_MAXREGS];
	unsigned w = pcbs[_i].word, set = 0;

	ck_assert_ptr_nonnull(a);
	r = dk_pcb_regs(a);
	ck_assert_msg(r != NULL, "%s: no pcb decoder", pcbs[_i].arch);
	ck_assert_uint_eq(r->word, w);
	ck_assert_uint_eq(r->prstatus_size, pcbs[_i].prstatus);
	ck_assert_uint_eq(r->pid_off, pcbs[_i].pid);
	ck_assert_uint_eq(r->cursig_off, 12);
	ck_assert_uint_eq(r->reg_off, pcbs[_i].reg);
	ck_assert_uint_eq(r->nregs, pcbs[_i].nregs);
	ck_assert_uint_eq(r->prpsinfo_size, pcbs[_i].psinfo);
	ck_assert_uint_eq(r->psinfo_pid_off, pcbs[_i].ps_pid);
	ck_assert_uint_eq(r->psinfo_fname_off, pcbs[_i].fname);
	memset(pcb, 0xee, sizeof(pcb));
	for (unsigned k = 0; k < 14; k++)
		enc_uint(pcb + (pcbs[_i].ctx + k) * w, w, a->endian,
		    0x1000 + k);
	dk_pcb_decode(r, pcb, a->endian, regs);
	for (unsigned k = 0; k < 14; k++) {
		int g = pcbs[_i].gdb[k];

		if (g < 0)
			continue;
		ck_assert_msg(regs[g] == 0x1000 + k, "%s: gdb register %d is "
		    "%#jx, expected pcb word %u (%#x)", pcbs[_i].arch, g,
		    (uintmax_t)regs[g], pcbs[_i].ctx + k, 0x1000 + k);
		set++;
	}
	/* Every other register is 0: not saved in a pcb. */
	for (unsigned g = 0; g < r->nregs; g++)
		if (regs[g] != 0)
			set--;
	ck_assert_uint_eq(set, 0);
}
END_TEST

static Suite *
kthreads_suite(void)
{
	Suite *s = suite_create("kthreads");
	TCase *tc = tcase_create("kthreads");

	tcase_add_loop_test(tc, test_walk, 0, 4);
	tcase_add_loop_test(tc, test_parents, 0, 4);
	tcase_add_loop_test(tc, test_damage, 0, 5);
	tcase_add_test(tc, test_stat);
	tcase_add_test(tc, test_pcb_tables);
	tcase_add_loop_test(tc, test_pcb_decode, 0,
	    (int)(sizeof(pcbs) / sizeof(pcbs[0])));
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(kthreads_suite());
	int nfailed;

	srunner_run_all(sr, CK_ENV);
	nfailed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfailed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
