/*
 * linux.h -- the Linux kernel seen through a dump of any Linux format
 * (kdump-compressed, ELF vmcore): kernel virtual addresses translated
 * with the page tables VMCOREINFO points at, and the kernel log; not
 * installed.  The formats' kvtop operations call dk_linux_kvtop, so
 * that each Linux format is a reader of physical memory and nothing
 * more.
 */
#ifndef DK_LINUX_H
#define DK_LINUX_H

#include "private.h"

/*
 * Translate the kernel virtual address va of the Linux dump d with the
 * facts of its VMCOREINFO attributes and physical reads; DK_EUNSUP
 * where d's architecture is not translated.
 */
enum dk_status	dk_linux_kvtop(struct dk_dump *d, uint64_t va, uint64_t *pa,
		    struct dk_err *err);

/*
 * Is src a Linux kernel's ELF vmcore (an ET_CORE of neither FreeBSD's
 * kind, with kernel notes and no process notes)?  fmt_vmcore.c.
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

#endif /* DK_LINUX_H */
