/*
 * kthreads.h -- the processes and threads of a FreeBSD dump, found as
 * kgdb finds them (kthreads.c, docs/kthreads.md): the kernel's symbols
 * (--kernel FILE), the allproc and zombproc lists walked through the
 * dump's memory with the offsets the kernel exports for debuggers, and
 * each thread's saved registers (dumppcb, stoppcbs, td_pcb) decoded by
 * its architecture module into gdb's NT_PRSTATUS layout.  Not installed.
 */
#ifndef DK_KTHREADS_H
#define DK_KTHREADS_H

#include "private.h"

#define	DK_KT_COMM	20		/* MAXCOMLEN + 1: p_comm, td_name */
#define	DK_KT_MAX	(1u << 22)	/* threads (and processes) walked */
#define	DK_KT_MAXREGS	64		/* words of one register set */
#define	DK_KT_MAXPCB	1024		/* bytes of a pcb read (pcb_min) */

/* Where a thread's registers were saved. */
enum dk_kt_src {
	DK_KT_TD_PCB = 0,	/* td_pcb: switched out */
	DK_KT_DUMPPCB,		/* dumppcb: the thread that dumped */
	DK_KT_STOPPCB,		/* stoppcbs[td_oncpu]: stopped on its CPU */
};

struct dk_kthread {
	uint64_t	td;		/* struct thread */
	uint64_t	proc;		/* its struct proc */
	uint64_t	pcb;		/* the pcb its registers are read from */
	int32_t		tid;		/* td_tid */
	int32_t		pid;		/* p_pid */
	int32_t		oncpu;		/* td_oncpu; -1 NOCPU */
	uint8_t		src;		/* enum dk_kt_src */
	uint8_t		crashed;	/* td_tid == dumptid */
	char		comm[DK_KT_COMM];	/* p_comm, NUL-terminated */
	char		name[DK_KT_COMM];	/* td_name */
	int64_t		state;		/* td_state; DK_KT_UNKNOWN: unread */
	int64_t		inhibitors;	/* td_inhibitors, or DK_KT_UNKNOWN */
	int64_t		flags;		/* td_flags, or DK_KT_UNKNOWN */
	int64_t		slptick;	/* td_slptick, or DK_KT_UNKNOWN */
};

#define	DK_KT_UNKNOWN	INT64_MIN	/* a field the walk could not read */

struct dk_kproc {
	uint64_t	addr;		/* struct proc */
	int32_t		pid;
	uint8_t		zombie;		/* found on zombproc */
	char		comm[DK_KT_COMM];
	size_t		first;		/* its first thread in the table */
	size_t		nthreads;
	int64_t		ppid;		/* p_oppid, else p_pptr->p_pid (0:
					 * no parent), as libkvm; or
					 * DK_KT_UNKNOWN */
	uint64_t	pptr;		/* p_pptr */
	int64_t		state;		/* p_state, or DK_KT_UNKNOWN */
	int64_t		flag;		/* p_flag, or DK_KT_UNKNOWN */
};

/*
 * The members of struct proc and struct thread the kernel exports no
 * offset for, from its DWARF (kdwarf.c; docs/kthreads.md).
 */
enum dk_kd_member {
	DK_KD_P_PPTR, DK_KD_P_OPPID, DK_KD_P_STATE, DK_KD_P_FLAG,
	DK_KD_TD_STATE, DK_KD_TD_INHIBITORS, DK_KD_TD_FLAGS, DK_KD_TD_SLPTICK,
	DK_KD_N
};
#define	DK_KD_PROC	0
#define	DK_KD_THREAD	1
#define	DK_KD_PRS_N	3	/* PRS_NEW, PRS_NORMAL, PRS_ZOMBIE */
#define	DK_KD_TDS_N	5	/* TDS_INACTIVE ... TDS_RUNNING */

struct dk_kdwarf {
	uint64_t	size[2];	/* byte_size of struct proc, thread;
					 * 0: not defined */
	uint32_t	off[DK_KD_N];	/* offset of each member */
	uint8_t		width[DK_KD_N];	/* its bytes; 0: not usable */
	int64_t		prs[DK_KD_PRS_N];	/* the enumerators' values */
	int64_t		tds[DK_KD_TDS_N];
	uint8_t		enum_dwarf[2];	/* 1: prs/tds read from the DWARF,
					 * 0: FreeBSD's (0, 1, 2, ...) */
	uint8_t		absurd;		/* a struct or member outside bounds */
	char		note[512];	/* why a member is not used, or "" */
};

/* The name of member i (enum dk_kd_member), or NULL past them. */
const char	*dk_kd_member_name(size_t i);
/* The name of enumerator i of p_state (thread 0) or td_state, or NULL. */
const char	*dk_kd_enum_name(int thread, size_t i);
/*
 * Read the members from the DWARF of the ELF file at path (pointers of
 * ptr bytes): DK_OK with what was usable (kd->note says what was not),
 * DK_EUNSUP if the file has no DWARF or no struct proc and thread.
 */
enum dk_status	dk_kernel_dwarf(const char *path, unsigned ptr,
		    struct dk_kdwarf *, struct dk_err *);
/* The same from an open file (not closed); name is for messages. */
enum dk_status	dk_kernel_dwarf_fd(int fd, const char *name, unsigned ptr,
		    struct dk_kdwarf *, struct dk_err *);
struct Dwarf;
/* The same from libdw's handle (kd initialised by the caller). */
enum dk_status	dk_kdwarf_read(struct Dwarf *, const char *name, unsigned ptr,
		    struct dk_kdwarf *, struct dk_err *);

/*
 * A gdb NT_PRSTATUS layout and how an architecture's struct pcb fills
 * it (a table in each arch module, dk_arch_ops.pcb).  Registers are
 * words of `word` bytes; slot i of regs takes the pcb word at pcb_off
 * (plus add, e.g. a stack pointer that the saved one is below).
 */
struct dk_pcb_slot {
	const char	*name;		/* gdb's name of the register */
	unsigned	 reg;		/* index in pr_reg, in words */
	unsigned	 pcb_off;	/* byte offset in struct pcb */
};

struct dk_pcb_regs {
	const char	*source;	/* "sys/amd64/include/pcb.h" */
	unsigned	 word;		/* bytes per register: 4 or 8 */
	unsigned	 pcb_min;	/* bytes of struct pcb read */
	unsigned	 prstatus_size;	/* descsz of NT_PRSTATUS */
	unsigned	 pid_off;	/* pr_pid (int32) */
	unsigned	 cursig_off;	/* pr_cursig (int16) */
	unsigned	 reg_off;	/* pr_reg */
	unsigned	 nregs;		/* words of pr_reg */
	unsigned	 prpsinfo_size;	/* descsz of NT_PRPSINFO */
	unsigned	 psinfo_pid_off;	/* pr_pid in it */
	unsigned	 psinfo_fname_off;	/* pr_fname[16], pr_psargs[80] */
	const struct dk_pcb_slot *slots;
	size_t		 nslots;
};

/* The register set of architecture row a's threads, or NULL. */
const struct dk_pcb_regs *dk_pcb_regs(const struct dk_arch *);
/* Decode the pcb bytes (r->pcb_min of them) into regs[r->nregs]. */
void		dk_pcb_decode(const struct dk_pcb_regs *r, const uint8_t *pcb,
		    enum dk_endian, uint64_t *regs);

/* What the walk found, and the kernel it used. */
struct dk_kthreads {
	struct dk_kproc		*procs;
	size_t			 nprocs;
	struct dk_kthread	*threads;
	size_t			 nthreads;
	size_t			 crashed;	/* index, or SIZE_MAX */
	int32_t			 dumptid;
	uint64_t		 panicstr;	/* its value (a char *), or 0 */
	char			 panic[256];	/* the string it points at */
	uint32_t		 pcb_size;
	uint32_t		 ncpu;		/* mp_maxid + 1 */
	int64_t			 ticks, hz;	/* the clock, for sleep times;
					 * DK_KT_UNKNOWN: no symbol */
	const struct dk_pcb_regs *regs;	/* NULL: registers not decoded */
	uint8_t			 build_id[64];	/* the kernel file's */
	size_t			 build_id_len;
	uint64_t		 build_id_va;	/* its note's address */
	struct dk_kdwarf	 layout;	/* what the DWARF gave */
	uint8_t			 have_layout;	/* the DWARF was read */
	char			 layout_note[512];	/* why PPID or a
					 * state is not read, or "" */
};

/*
 * Find the processes and threads of d with the kernel image at kernel
 * (DK_EUNSUP: the kernel lacks the symbols, an older or another one):
 * every bound (list length, at most max entries, 0: DK_KT_MAX; cycles,
 * unreadable or misaligned pointers, absurd offsets) is an error naming
 * the address, never a hang.
 */
enum dk_status	dk_kthreads_load(struct dk_dump *, const char *kernel,
		    size_t max, struct dk_kthreads *, struct dk_err *);

/* The symbols the walk uses, by index. */
enum dk_kt_sym {
	DK_KS_ALLPROC, DK_KS_ZOMBPROC, DK_KS_DUMPTID, DK_KS_DUMPPCB,
	DK_KS_STOPPCBS, DK_KS_STOPPED_CPUS, DK_KS_MP_MAXID, DK_KS_PCB_SIZE,
	DK_KS_PANICSTR, DK_KS_TICKS, DK_KS_HZ, DK_KS_P_PID, DK_KS_P_COMM,
	DK_KS_P_LIST,
	DK_KS_P_THREADS, DK_KS_TD_TID, DK_KS_TD_NAME, DK_KS_TD_ONCPU,
	DK_KS_TD_PCB, DK_KS_TD_PLIST, DK_KS_N
};

/* The name of symbol i (enum dk_kt_sym), or NULL past them. */
const char	*dk_kt_sym_name(size_t i);

/* Kernel memory as the walk reads it: a dump's, or a fuzzer's. */
struct dk_kt_source {
	const char	*name;		/* in messages */
	enum dk_endian	 e;
	unsigned	 ptr;		/* sizeof(void *): 4 or 8 */
	enum dk_status	(*read)(void *arg, uint64_t va, void *buf,
			    size_t len, struct dk_err *);
	void		*arg;
};

/*
 * The walk of dk_kthreads_load() over m, with the symbols' addresses
 * sym[DK_KS_N] (0: absent) and the DWARF's members (NULL: none, the
 * parents and states unread); kt->regs and the build-id are left unset.
 */
enum dk_status	dk_kthreads_walk(const struct dk_kt_source *m,
		    const uint64_t *sym, const struct dk_kdwarf *layout,
		    size_t max, struct dk_kthreads *, struct dk_err *);
/*
 * Thread i's td_state by its enumerator's name, lower case without TDS_
 * ("running", "runq", ...); "?" a value not in enum td_states, "-" not
 * read (no DWARF).
 */
const char	*dk_kthread_state(const struct dk_kthreads *, size_t i);
/*
 * Process i's state as ps(1)'s STAT column begins (its first letter),
 * from p_state, p_flag and its first thread's td_state, td_inhibitors,
 * td_flags and sleep time, as libkvm's kvm_proclist() and ps's state()
 * decide it: "Z", "R", "T", "D", "S", "I", "L", "W"; "inhibited" where a
 * member or symbol that decides among the last six was not read, "new"
 * (PRS_NEW: libkvm skips it), "?" what ps cannot name, "-" not read.
 */
const char	*dk_kproc_stat(const struct dk_kthreads *, size_t i);
/* Free what dk_kthreads_load() allocated. */
void		dk_kthreads_free(struct dk_kthreads *);
/* The registers of thread i as words of regs[] (kt->regs->nregs). */
enum dk_status	dk_kthread_regs(struct dk_dump *, const struct dk_kthreads *,
		    size_t i, uint64_t *regs, struct dk_err *);
/*
 * The ELF notes a debugger reads threads from, in d's byte order: one
 * NT_PRSTATUS per thread (crashed first), NT_PRPSINFO, the thread
 * table, NT_GNU_BUILD_ID; *buf is malloc'ed.
 */
enum dk_status	dk_kthreads_notes(struct dk_dump *, const struct dk_kthreads *,
		    uint8_t **buf, size_t *len, struct dk_err *);

/*
 * Write d's kernel memory with notes[len] (dk_kthreads_notes) as an
 * ELFCLASS32 core, for a debugger that reads no 32-bit target from an
 * ELFCLASS64 file (gdb: arm, mips o32); not a portable file.
 */
struct dk_sink;
enum dk_status	dk_kthreads_core32(struct dk_dump *, struct dk_sink *,
		    const void *notes, size_t len, struct dk_err *);

/* The thread table note (docs/portable-elf-minidump.md 3.2). */
#define	DK_KT_TABLE_HEAD	16
#define	DK_KT_TABLE_REC		72

#endif /* DK_KTHREADS_H */
