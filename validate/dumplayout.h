/*
 * dumplayout.h -- dumplayout's two jobs, as its command line
 * (dumplayout.c) runs them: laying out every header on every ABI and
 * checking the tables against that (dumplayout_abi.c: list, abis, show,
 * check, c, offsets), and comparing two dumps of one format field by
 * field (dumplayout_compare.c: compare).  Each command returns the
 * tool's exit status.
 */
#ifndef DK_DUMPLAYOUT_H
#define DK_DUMPLAYOUT_H

#include "tool.h"

/* The options, as main parsed them. */
struct dl_opts {
	const char	*abis;		/* space-separated, or NULL */
	char		 abibuf[512];
	int		 hversion;	/* -1: every version */
	const char	*arch;
	int		 json;
	int		 quiet;
	int		 verbose;
};

/* The tool: its name and usage, for messages. */
extern const struct tool dl_tool;

/* list: the headers; abis: the ABIs. */
int	dl_list(const struct dl_opts *);
int	dl_abis(const struct dl_opts *);
/* show HEADER: its layout on each ABI, as pahole prints it. */
int	dl_show(const struct dl_opts *, const char *name);
/* check [HEADER...]: every version on every ABI that wrote it. */
int	dl_check(const struct dl_opts *, char **names, int nnames);
/* c (emit_c) or offsets: the compiler oracle's input, or its answers. */
int	dl_c(const struct dl_opts *, int emit_c);
/* compare OLD NEW: two dumps of one format, field by field. */
int	dl_compare(const struct dl_opts *, const char *old, const char *new);

#endif /* DK_DUMPLAYOUT_H */
