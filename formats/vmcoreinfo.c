/*
 * vmcoreinfo.c -- the kernel's VMCOREINFO text as a dump's attributes
 * (linux.h), for every Linux format that carries it: the kdump-compressed
 * reader (its sub header's copy or its notes' VMCOREINFO note) and the ELF
 * vmcore reader (the note).
 *
 * VMCOREINFO is lines of KEY=value (kernel/vmcore_info.c: OSRELEASE,
 * PAGESIZE, SYMBOL(name), OFFSET(struct.member), SIZE(...), LENGTH(...),
 * NUMBER(...), KERNELOFFSET, CRASHTIME, ...), NUL-padded.  Each line
 * whose key is 1 to 127 bytes becomes a string attribute of that name,
 * with source "VMCOREINFO"; OSRELEASE is also os_release.  A few keys are
 * written by one architecture's kernel only, and so hint at it.
 */
#include <stdlib.h>
#include <string.h>

#include "linux.h"

/* VMCOREINFO keys that one architecture's kernel writes. */
static const struct {
	const char	*key;
	const char	*row;
	const char	*row_be;	/* the row if the dump is big-endian */
} vmci_keys[] = {
	{ "SYMBOL(init_top_pgt)", "amd64", NULL },	/* crash_core_64.c */
	{ "NUMBER(kimage_voffset)", "aarch64", NULL },
	{ "NUMBER(phys_ram_base)", "riscv64", NULL },
	{ "SYMBOL(lowcore_ptr)", NULL, "s390x" },
	{ "SYMBOL(mmu_psize_defs)", "powerpc64le", "powerpc64" },
};

enum dk_status
dk_vmcoreinfo_attrs(struct dk_dump *d, const char *t, size_t n,
    const struct dk_arch **hint, const char **hint_key, struct dk_err *err)
{
	size_t lines = 0;
	char key[128], *val;

	while (n > 0 && *t != '\0') {
		size_t l = 0, eq;

		while (l < n && t[l] != '\n' && t[l] != '\0')
			l++;
		for (eq = 0; eq < l && t[eq] != '='; eq++)
			;
		if (eq > 0 && eq < l && eq < sizeof(key)) {
			if (++lines > DK_VMCI_MAX_LINES)
				return dk_err_set(err, DK_ELIMIT, "%s: "
				    "VMCOREINFO has more than %u lines",
				    d->src.name, DK_VMCI_MAX_LINES);
			memcpy(key, t, eq);
			key[eq] = '\0';
			if ((val = malloc(l - eq)) == NULL)
				return dk_err_set(err, DK_ENOMEM, "%s: out of "
				    "memory", d->src.name);
			memcpy(val, t + eq + 1, l - eq - 1);
			val[l - eq - 1] = '\0';
			dk_add_attr_str(d, key, val, "VMCOREINFO");
			if (strcmp(key, "OSRELEASE") == 0 &&
			    dk_attr_find(d, "os_release") == NULL)
				dk_add_attr_str(d, "os_release", val,
				    "VMCOREINFO");
			free(val);
			for (size_t i = 0; *hint == NULL &&
			    i < DK_ARRAY_LEN(vmci_keys); i++)
				if (strcmp(key, vmci_keys[i].key) == 0) {
					const char *r = d->info.endian ==
					    DK_BE ? vmci_keys[i].row_be :
					    vmci_keys[i].row;

					*hint = r != NULL ? dk_arch_by_name(r) :
					    NULL;
					*hint_key = vmci_keys[i].key;
				}
		}
		if (l == n)
			break;
		if (t[l] == '\0')
			break;
		t += l + 1;
		n -= l + 1;
	}
	return DK_OK;
}
