/* arch_arm64.c -- placeholder until the arm64 family lands. */
#include "private.h"

static const struct dk_field arm64_fields[] = {
	{ "magic", 0, 24, DK_FK_CHARS, DK_H_MAGIC, DK_V(1), "char[24]", "" },
	{ "version", 24, 4, DK_FK_UINT, DK_H_VERSION, DK_V(1), "uint32_t", "" },
};
static const struct dk_layout arm64_layout = { "minidump-arm64", arm64_fields, 2 };
const struct dk_mdarch dk_md_arm64 = {
	.family = "arm64", .magic = "minidump FreeBSD/arm64", .layout = &arm64_layout,
};
