/*
 * linux.c -- kernel virtual addresses of Linux dumps (linux.h).
 *
 * No architecture is translated yet: every address is DK_EUNSUP, said
 * once here rather than in each Linux format.
 */
#include "linux.h"

enum dk_status
dk_linux_kvtop(struct dk_dump *d, uint64_t va, uint64_t *pa,
    struct dk_err *err)
{
	(void)pa;
	return dk_err_set(err, DK_ENOTMAPPED, "%s: kernel virtual address "
	    "%#jx: dumpkit does not translate the kernel addresses of Linux "
	    "dumps yet (physical addresses read)", d->src.name,
	    (uintmax_t)va);
}
