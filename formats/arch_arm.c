/* arch_arm.c -- placeholder until the arm family lands. */
#include "private.h"

static const struct dk_field arm_fields[] = {
	{ "magic", 0, 24, DK_FK_CHARS, DK_H_MAGIC, DK_V(1), "char[24]", "" },
	{ "version", 24, 4, DK_FK_UINT, DK_H_VERSION, DK_V(1), "uint32_t", "" },
};
static const struct dk_layout arm_layout = { "minidump-arm", arm_fields, 2 };
const struct dk_mdarch dk_md_arm = {
	.family = "arm", .magic = "minidump FreeBSD/arm", .layout = &arm_layout,
};
