/* arch_i386.c -- placeholder until the i386 family lands. */
#include "private.h"

static const struct dk_field i386_fields[] = {
	{ "magic", 0, 24, DK_FK_CHARS, DK_H_MAGIC, DK_V(1), "char[24]", "" },
	{ "version", 24, 4, DK_FK_UINT, DK_H_VERSION, DK_V(1), "uint32_t", "" },
};
static const struct dk_layout i386_layout = { "minidump-i386", i386_fields, 2 };
const struct dk_mdarch dk_md_i386 = {
	.family = "i386", .magic = "minidump FreeBSD/i386", .layout = &i386_layout,
};
