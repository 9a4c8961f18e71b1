/*
 * arch_powerpc64.c -- placeholder: the powerpc64 minidump family is being written.
 * With no versions it matches no dump, and it has no fixture variants.
 */
#include "private.h"

static const struct dk_field powerpc64_fields[] = {
	{ "magic", 0, 32, DK_FK_CHARS, DK_H_MAGIC, DK_V(1), "char[32]", "" },
};

static const struct dk_layout powerpc64_layout = {
	"minidump-powerpc64", powerpc64_fields, DK_ARRAY_LEN(powerpc64_fields)
};

const struct dk_mdarch dk_md_powerpc64 = {
	.family		= "powerpc64",
	.magic		= "minidump FreeBSD/powerpc64",
	.layout		= &powerpc64_layout,
};
