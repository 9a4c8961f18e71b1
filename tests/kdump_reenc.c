/*
 * kdump_reenc.c -- print how a kdump-compressed file's stored pages
 * re-encode (dk_kd_reenc_survey): the encoder found per codec, the pages
 * it does not reproduce and their bytes, the residue of source kind 5.
 *
 *	kdump_reenc FILE...	(the parts of a split set together)
 */
#include <stdio.h>

#include "dumpkit.h"
#include "kdump.h"

int
main(int argc, char **argv)
{
	static const char *const cn[4] = { "zlib", "lzo", "snappy", "zstd" };
	struct dk_dump *d = NULL;
	struct dk_kd_reenc r;
	struct dk_err err;

	if (argc < 2) {
		fprintf(stderr, "usage: kdump_reenc FILE...\n");
		return 2;
	}
	if (dk_open_set((const char *const *)argv + 1, (size_t)argc - 1, NULL,
	    &d, &err) != DK_OK || dk_kd_reenc_survey(d, &r, &err) != DK_OK) {
		fprintf(stderr, "kdump_reenc: %s\n", err.msg);
		dk_close(d);
		return 1;
	}
	printf("plain %ju shared %ju skipped %ju residue %ju gap %ju "
	    "nonzero %ju\n", (uintmax_t)r.plain, (uintmax_t)r.shared,
	    (uintmax_t)r.skipped, (uintmax_t)r.residue, (uintmax_t)r.gap,
	    (uintmax_t)r.gap_nonzero);
	for (int i = 0; i < 4; i++)
		if (r.pages[i] > 0)
			printf("%s %ju pages: %s level %d, %ju differ\n",
			    cn[i], (uintmax_t)r.pages[i], r.enc[i], r.level[i],
			    (uintmax_t)r.differ[i]);
	dk_close(d);
	return 0;
}
