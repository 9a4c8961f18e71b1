/*
 * recognize.c -- dumps dumpkit recognises but does not read yet.
 *
 * When no format of dump.c's formats[] takes a stream, it is held
 * against the rows of unread[] below, so that a Linux vmcore or a
 * process core is named for what it is, with the fact that names it,
 * instead of being called unknown.  Each row is one such
 * fact; the format that learns to read one replaces its row by a module
 * in formats[].  The formats are asked first, so nothing dumpkit reads
 * (a FreeBSD full core, a portable file, a sparc64 dump) ever reaches
 * these rows.
 *
 * makedumpfile's kdump-compressed and flattened files, once rows here,
 * are read by fmt_kdump.c; the Linux kernel's ELF vmcore (a "VMCOREINFO"
 * note, or "CORE" NT_PRSTATUS notes without process notes: /proc/vmcore,
 * makedumpfile -E, QEMU dump-guest-memory), once two rows here, by
 * fmt_vmcore.c.  The facts, from the writers' own definitions:
 *  - A Linux process core (fs/binfmt_elf.c) has "CORE" notes
 *    NT_PRSTATUS, NT_PRPSINFO, NT_SIGINFO, NT_AUXV and NT_FILE; a
 *    FreeBSD one (sys/kern/imgact_elf.c) notes named "FreeBSD",
 *    NT_PRPSINFO first.  No kernel core has NT_PRPSINFO, NT_AUXV or
 *    NT_FILE.
 *
 * Only an ELF ET_CORE's PT_NOTE segments are walked, with the library's
 * note iterator, within the bounds below; a damaged note ends its
 * segment's walk, and what was seen before still counts.
 */
#include <string.h>

#include "bytes.h"
#include "dkelf.h"
#include "private.h"

#define	RK_HEAD			512	/* bytes a magic row may look at */
#define	RK_MAX_PHDRS		4096	/* program headers searched for notes */
#define	RK_MAX_NOTES		65536	/* notes walked in all */
#define	RK_NT_PRPSINFO		3
#define	RK_NT_AUXV		6
#define	RK_NT_FILE		0x46494c45u	/* "FILE" */

/* How a row recognises its dump. */
enum rk_how {
	RK_MAGIC,		/* magic bytes at offset 0 */
	RK_NOTE,		/* an ELF ET_CORE with a note of this owner */
};

/* A note type a row looks for, and its name for the message. */
struct rk_type {
	uint32_t	 type;
	const char	*name;
};

struct rk_sig {
	const char	*what;		/* what the dump is, in words */
	enum rk_how	 how;
	const char	*magic;		/* RK_MAGIC: the bytes ... */
	size_t		 len;		/* ... and their count */
	const char	*owner;		/* RK_NOTE: the note's name */
	struct rk_type	 types[3];	/* RK_NOTE: its types (ntypes) */
	size_t		 ntypes;	/* 0: any type */
	/* What the dump itself says, in words, into buf; or NULL. */
	void		(*detail)(const struct dk_src *, const uint8_t *head,
			    size_t n, char *buf, size_t len);
	const char	*hint;		/* what reads it instead, or NULL */
};

/*
 * THE list, in order of precedence: the first row that matches names
 * the dump.
 */
static const struct rk_sig unread[] = {
	{ "a FreeBSD process core, a program's core dump rather than the "
	  "kernel's",
	  RK_NOTE, NULL, 0, "FreeBSD", { { RK_NT_PRPSINFO, "NT_PRPSINFO" } },
	  1, NULL, "gdb or lldb reads it with the program" },
	{ "a Linux process core, a program's core dump rather than the "
	  "kernel's",
	  RK_NOTE, NULL, 0, "CORE", { { RK_NT_PRPSINFO, "NT_PRPSINFO" },
	  { RK_NT_AUXV, "NT_AUXV" }, { RK_NT_FILE, "NT_FILE" } }, 3, NULL,
	  "gdb reads it with the program" },
};

/*
 * Does note n match row r?  1, with *type the name of its type (NULL:
 * any type matches); else 0.
 */
static int
note_matches(const struct rk_sig *r, const struct dk_note *n,
    const char **type)
{
	size_t ol = strlen(r->owner);

	*type = NULL;
	if (!n->have_name || (n->namesz != ol && n->namesz != ol + 1) ||
	    memcmp(n->name, r->owner, ol) != 0)
		return 0;
	if (r->ntypes == 0)
		return 1;
	for (size_t i = 0; i < r->ntypes; i++)
		if (n->type == r->types[i].type) {
			*type = r->types[i].name;
			return 1;
		}
	return 0;
}

/*
 * An ELF ET_CORE's notes against the RK_NOTE rows: *best gets the
 * index of the first row matched (or is left as it is), *at the offset
 * of the note that matched it and *type the name of its type.
 */
static void
elf_notes(const struct dk_src *src, const uint8_t *head, size_t n,
    size_t *best, uint64_t *at, const char **type)
{
	unsigned cls = head[EI_CLASS];
	enum dk_endian e = dk_elf_endian(head);
	uint64_t phnum, notes = 0;
	struct dk_ehdr h;
	struct dk_err err;

	if (n < dk_elf_size(DK_ELF_EHDR, cls) || !dk_elf_magic(head) ||
	    (cls != ELFCLASS32 && cls != ELFCLASS64) ||
	    (head[EI_DATA] != ELFDATA2LSB && head[EI_DATA] != ELFDATA2MSB))
		return;
	dk_ehdr_decode(head, cls, e, &h);
	if (h.type != ET_CORE || h.phentsize != dk_elf_size(DK_ELF_PHDR, cls))
		return;
	if (dk_elf_phnum(src, &h, &phnum, &err) != DK_OK)
		return;
	if (phnum > RK_MAX_PHDRS)
		phnum = RK_MAX_PHDRS;
	for (uint64_t i = 0; i < phnum && notes < RK_MAX_NOTES; i++) {
		struct dk_note_iter it;
		struct dk_phdr ph;
		struct dk_note nt;

		if (dk_phdr_read(src, h.phoff + i * h.phentsize, cls, e, &ph,
		    "program header", &err) != DK_OK)
			return;
		if (ph.type != PT_NOTE)
			continue;
		dk_note_iter_init(&it, src, ph.offset, ph.offset + ph.filesz, e,
		    "the PT_NOTE segment");
		while (notes++ < RK_MAX_NOTES &&
		    dk_note_next(&it, &nt, &err) == DK_OK)
			for (size_t k = 0; k < *best; k++) {
				const char *t;

				if (unread[k].how == RK_NOTE &&
				    note_matches(&unread[k], &nt, &t)) {
					*best = k;
					*at = nt.off;
					*type = t;
					break;
				}
			}
	}
}

enum dk_status
dk_recognize(const struct dk_src *src, struct dk_err *err)
{
	uint8_t head[RK_HEAD];
	size_t n = src->size < sizeof(head) ? (size_t)src->size : sizeof(head);
	size_t best = DK_ARRAY_LEN(unread);
	uint64_t at = 0;
	const char *type = NULL;
	const struct rk_sig *r;
	char why[64], detail[200] = "";
	struct dk_err e;

	if (n == 0 || dk_src_pread(src, head, n, 0, "header", &e) != DK_OK)
		return DK_NOMATCH;
	for (size_t k = 0; k < DK_ARRAY_LEN(unread); k++)
		if (unread[k].how == RK_MAGIC && n >= unread[k].len &&
		    memcmp(head, unread[k].magic, unread[k].len) == 0) {
			best = k;
			break;
		}
	if (best == DK_ARRAY_LEN(unread))
		elf_notes(src, head, n, &best, &at, &type);
	if (best == DK_ARRAY_LEN(unread))
		return DK_NOMATCH;
	r = &unread[best];
	if (r->how == RK_MAGIC)
		snprintf(why, sizeof(why), "signature \"%.*s\"", (int)strnlen(
		    r->magic, r->len), r->magic);
	else
		snprintf(why, sizeof(why), "note \"%s\"%s%s", r->owner,
		    type != NULL ? " " : "", type != NULL ? type : "");
	if (r->detail != NULL)
		r->detail(src, head, n, detail, sizeof(detail));
	return dk_err_at(err, DK_EUNSUP, src->name, at, "%s (%s%s%s): dumpkit "
	    "recognises it but does not read it yet%s%s", r->what, why,
	    detail[0] != '\0' ? "; " : "", detail, r->hint != NULL ? "; " :
	    "", r->hint != NULL ? r->hint : "");
}
