/*
 * arch_mips.c -- placeholder: the mips minidump family is being written.
 * With no versions it matches no dump, and it has no fixture variants.
 */
#include "private.h"

static const struct dk_field mips_fields[] = {
	{ "magic", 0, 24, DK_FK_CHARS, DK_H_MAGIC, DK_V(1), "char[24]", "" },
};

static const struct dk_layout mips_layout = {
	"minidump-mips", mips_fields, DK_ARRAY_LEN(mips_fields)
};

const struct dk_mdarch dk_md_mips = {
	.family		= "mips",
	.magic		= "minidump FreeBSD/mips",
	.layout		= &mips_layout,
};
