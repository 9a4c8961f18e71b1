/*
 * linux.h -- the Linux kernel seen through a dump of any Linux format
 * (kdump-compressed, ELF vmcore): kernel virtual addresses translated
 * with the page tables VMCOREINFO points at, and the kernel log; not
 * installed.  The formats' kvtop operations call dk_linux_kvtop and
 * their read_log dk_linux_read_log, so that each Linux format is a
 * reader of physical memory and nothing more.
 */
#ifndef DK_LINUX_H
#define DK_LINUX_H

#include "private.h"

/*
 * Translate the kernel virtual address va of the Linux dump d with the
 * facts of its VMCOREINFO attributes and physical reads: the kernel's
 * page tables walked by the architecture module (x86_64 4- and 5-level,
 * i386 with and without PAE, aarch64 4, 16 and 64 KiB granules, riscv64
 * Sv39/48/57; linux.c says
 * from which keys); DK_EUNSUP naming the architecture, or the key that
 * is missing, where d is not translated.
 */
enum dk_status	dk_linux_kvtop(struct dk_dump *d, uint64_t va, uint64_t *pa,
		    struct dk_err *err);

/*
 * Is src a Linux kernel's ELF vmcore (an ET_CORE of neither FreeBSD's
 * kind, with kernel notes and no process notes)?  2: by its notes; 1:
 * by its ELF header alone, the file cut before its notes or inside its
 * program headers; 0: no.  fmt_vmcore.c.
 */
int		dk_vmcore_is(const struct dk_src *src);

#define	DK_VMCI_MAX_LINES	8192u	/* VMCOREINFO KEY=value lines kept */

/*
 * The KEY=value lines of the VMCOREINFO text t (n bytes, NUL or the end
 * stops it) as d's attributes, source "VMCOREINFO" (OSRELEASE also as
 * os_release); *hint (if still NULL) gets the row a key only one
 * architecture's kernel writes names, *hint_key that key (vmcoreinfo.c).
 */
enum dk_status	dk_vmcoreinfo_attrs(struct dk_dump *d, const char *t, size_t n,
		    const struct dk_arch **hint, const char **hint_key,
		    struct dk_err *err);

/* ---------------------------------------------------------------------- */
/* The kernel log.                                                         */

/*
 * The kernel log of the Linux dump d, read through VMCOREINFO's symbols
 * and offsets (the lockless printk ring of 5.10 on, struct printk_log
 * records of 3.5 to 5.9, the plain log_buf before) and kernel virtual
 * reads, handed to put(arg, bytes, n) in pieces as `makedumpfile
 * --dump-dmesg` (1.7.2) writes it: a line "[%5lu.%06lu] text" per
 * record in sequence order (the plain ring as it is).  Memory is a few
 * pages, whatever the log's size; every count read from the dump is
 * bounded, and a damaged ring is DK_ECORRUPT naming the record and
 * field: every record that can still be read is handed over first (the
 * lockless ring's records past a damaged descriptor too), then the
 * first damage is the error (with the count of others).  put returns nonzero to stop (DK_OK).  DK_NOMATCH: VMCOREINFO
 * names no log (no SYMBOL(prb) nor SYMBOL(log_buf)).
 */
enum dk_status	dk_linux_log(struct dk_dump *d,
		    int (*put)(void *arg, const char *, size_t), void *arg,
		    struct dk_err *err);
/*
 * A damaged place of the kernel log (dk_linux_log_check): its code (one
 * of the "linux.log-*" codes of dumpcheck, docs/dumpcheck.md), the
 * kernel virtual address of the field (DK_LX_NOVA: none) and what was
 * expected and found, without the dump's name.
 */
#define	DK_LX_NOVA	UINT64_MAX

struct dk_linux_logbad {
	const char	*code;
	uint64_t	 va;
	const char	*msg;
};

/*
 * Walk the kernel log of d as dk_linux_log does, without its text, and
 * hand every damaged place to bad(arg, ...) (each descriptor and record
 * at most once; at most the ring's size in records, a few pages of
 * memory).  DK_OK: the log was walked to its end or to a damaged place
 * bad was told of; DK_NOMATCH: VMCOREINFO names no log; another status:
 * the log could not be walked on (a key missing, an architecture not
 * translated, memory not in the dump), *err says why, after the damage
 * met before.
 */
enum dk_status	dk_linux_log_check(struct dk_dump *d,
		    void (*bad)(void *arg, const struct dk_linux_logbad *),
		    void *arg, struct dk_err *err);
/*
 * The formats' read_log (dk_read_msgbuf()): the first len bytes of
 * dk_linux_log's text into buf, *got of them; 0 and DK_OK where
 * VMCOREINFO names no log.
 */
enum dk_status	dk_linux_read_log(struct dk_dump *d, void *buf, size_t len,
		    size_t *got, struct dk_err *err);

#endif /* DK_LINUX_H */
