/*
 * arch_riscv.c -- placeholder: the riscv minidump family is being written.
 * With no versions it matches no dump, and it has no fixture variants.
 */
#include "private.h"

static const struct dk_field riscv_fields[] = {
	{ "magic", 0, 24, DK_FK_CHARS, DK_H_MAGIC, DK_V(1), "char[24]", "" },
};

static const struct dk_layout riscv_layout = {
	"minidump-riscv", riscv_fields, DK_ARRAY_LEN(riscv_fields)
};

const struct dk_mdarch dk_md_riscv = {
	.family		= "riscv",
	.magic		= "minidump FreeBSD/riscv",
	.layout		= &riscv_layout,
};
