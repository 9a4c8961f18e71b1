/*
 * fuzz_kernel_elf.c -- libFuzzer target for dk_arch_from_elf_header(),
 * which picks the architecture row of a kernel from its ELF header
 * (what --kernel FILE reads: the first 64 bytes of the image).
 *
 * The function is called on the whole input and on its first 64 bytes,
 * as dk_arch_from_kernel() would, and the answers are checked against
 * each other and against the row table.  A broken invariant aborts.
 *
 * Linked with libFuzzer (make fuzz) or with replay.c (make fuzz-replay).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "private.h"
#include "fuzz.h"

#define	FZ_EHDR_READ	64	/* bytes dk_arch_from_kernel reads */

static enum dk_status
pick(const uint8_t *data, size_t size, const struct dk_arch **ap)
{
	struct dk_err err;
	enum dk_status st;

	dk_err_clear(&err);
	*ap = NULL;
	st = dk_arch_from_elf_header(data, size, "fuzz-input", ap, &err);
	if (st == DK_OK) {
		FZ_CHECK(*ap != NULL);
		return st;
	}
	FZ_CHECK(err.code == st);
	FZ_CHECK(memchr(err.msg, '\0', sizeof(err.msg)) != NULL);
	FZ_CHECK(err.msg[0] != '\0');
	return st;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct dk_arch *a, *b, *row;
	enum dk_status sa, sb;
	size_t i;
	uint8_t *head;

	sa = pick(data, size, &a);
	if (sa == DK_OK) {
		/* The row is one of the table's, and matches the header. */
		for (i = 0; (row = dk_arch_at(i)) != NULL; i++)
			if (row == a)
				break;
		FZ_CHECK(row == a);
		FZ_CHECK(size >= 20);
		FZ_CHECK(a->elf_class == data[4]);
		FZ_CHECK(dk_arch_by_name(dk_arch_name(a)) == a);
		FZ_CHECK((a->endian == DK_LE && data[5] == 1) ||
		    (a->endian == DK_BE && data[5] == 2));
		FZ_CHECK(a->minidump == NULL ||
		    dk_arch_family_endian(a->family, a->endian) != NULL);
	}

	/* Only the first 64 bytes matter: the answer must not change. */
	if (size > FZ_EHDR_READ) {
		head = malloc(FZ_EHDR_READ);
		FZ_CHECK(head != NULL);
		memcpy(head, data, FZ_EHDR_READ);
		sb = pick(head, FZ_EHDR_READ, &b);
		FZ_CHECK(sa == sb && a == b);
		free(head);
	}
	return 0;
}
