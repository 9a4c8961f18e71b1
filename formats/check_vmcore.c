/*
 * check_vmcore.c -- dumpcheck's rules for Linux ELF vmcores (the kernel's
 * /proc/vmcore, makedumpfile -E, QEMU dump-guest-memory), as findings
 * with stable codes (docs/dumpcheck.md, "vmcore.*").
 *
 * The ELF header and the program headers are decoded here again with the
 * ELF layer, independently of fmt_vmcore.c's index, so that a reader bug
 * and a checker bug do not hide each other.  What is checked: the ELF
 * identity; the program headers inside the file; each PT_LOAD's sizes
 * (p_filesz <= p_memsz, no wrap), and the file holding its bytes (a
 * truncated file: how many pages of which ranges are missing); PT_LOADs
 * that overlap in physical memory, as aliases (the same file bytes: QEMU's
 * paging dumps) or overlaps, whose bytes are compared (identical: the
 * kernel's text mapping inside its direct map; different: a conflict, the
 * address has two contents); the notes, walked whole; NT_PRSTATUS sizes
 * against the architecture; VMCOREINFO missing, malformed, or against the
 * ELF header (PAGESIZE, the architecture its keys name); non-canonical
 * p_vaddr.  Each quirk of a real producer is a note of its own code: a
 * clean real dump gets no error and no warning.  Then the library opens
 * the file and the content pass reads every stored byte (--checksum).
 */
#include <elf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "checker.h"
#include "dkelf.h"
#include "linux.h"
#include "portable.h"

#define	CV_MAX_SHOWN	8		/* findings of one code shown */
#define	CV_PH_CHUNK	(1u << 20)
#define	CV_MAX_PHNUM	(1u << 24)
#define	CV_MAX_DESC	(1u << 20)
#define	CV_CMP_CHUNK	(1u << 16)
#define	CV_SHT_STRTAB	3u

static const struct dk_check_code cv_codes[] = {
	{ "vmcore.ident", DK_SEV_ERROR,
	  "a vmcore's ELF identity is not one a Linux writer gives" },
	{ "vmcore.phdr-past-eof", DK_SEV_ERROR,
	  "a vmcore's program headers extend past the file" },
	{ "vmcore.load", DK_SEV_ERROR,
	  "a PT_LOAD's sizes are impossible (p_filesz > p_memsz, a wrap)" },
	{ "vmcore.load-past-eof", DK_SEV_ERROR,
	  "PT_LOADs extend past the end of the file: pages are missing" },
	{ "vmcore.overlap-conflict", DK_SEV_ERROR,
	  "two PT_LOADs give one physical address different bytes" },
	{ "vmcore.overlap", DK_SEV_NOTE,
	  "PT_LOADs overlap in physical memory with identical bytes" },
	{ "vmcore.note-malformed", DK_SEV_ERROR,
	  "a PT_NOTE segment is past the file or a note does not fit it" },
	{ "vmcore.prstatus-size", DK_SEV_WARNING,
	  "an NT_PRSTATUS of a size the architecture's kernel does not write" },
	{ "vmcore.vmcoreinfo-missing", DK_SEV_NOTE,
	  "no VMCOREINFO note (QEMU without -device vmcoreinfo)" },
	{ "vmcore.vmcoreinfo-malformed", DK_SEV_WARNING,
	  "VMCOREINFO has lines that are not KEY=value, or lacks OSRELEASE or "
	  "PAGESIZE" },
	{ "vmcore.vmcoreinfo-mismatch", DK_SEV_ERROR,
	  "VMCOREINFO contradicts the ELF header (PAGESIZE, architecture)" },
	{ "vmcore.non-canonical", DK_SEV_NOTE,
	  "PT_LOADs with a non-canonical p_vaddr (QEMU paging dumps)" },
	{ "vmcore.quirk.ehsize", DK_SEV_NOTE,
	  "e_ehsize is not the class's header size (QEMU 7.x writes 8)" },
	{ "vmcore.quirk.shdr-first", DK_SEV_NOTE,
	  "section headers before the program headers (QEMU 7.x)" },
	{ "vmcore.quirk.shstrtab-swapped", DK_SEV_NOTE,
	  "the .shstrtab section header is in the other byte order (QEMU "
	  "7.x, big-endian guests)" },
	{ "vmcore.quirk.elf64-em386", DK_SEV_NOTE,
	  "ELFCLASS64 with a 32-bit e_machine (QEMU, x86 not in long mode)" },
	{ "vmcore.quirk.pn-xnum", DK_SEV_NOTE,
	  "more than 65534 program headers: the count in section 0 (PN_XNUM)" },
	{ "vmcore.quirk.aliases", DK_SEV_NOTE,
	  "PT_LOADs sharing p_offset and p_paddr (QEMU paging dumps)" },
	{ "vmcore.quirk.excluded", DK_SEV_NOTE,
	  "PT_LOADs with p_memsz > p_filesz: pages left out (makedumpfile)" },
};

enum {
	K_IDENT, K_PHDR, K_LOAD, K_EOF, K_CONFLICT, K_OVERLAP, K_NOTE,
	K_PRSTATUS, K_VMCI_MISSING, K_VMCI_BAD, K_VMCI_MISMATCH, K_NONCANON,
	K_Q_EHSIZE, K_Q_SHDR, K_Q_SWAP, K_Q_EM386, K_Q_XNUM, K_Q_ALIAS,
	K_Q_EXCL, K_N
};

struct cv {
	struct dk_ck	*ck;
	const struct dk_src *src;
	unsigned	 shown[K_N];
	unsigned	 cls;
	enum dk_endian	 e;
	const struct dk_arch *row;
	struct dk_ehdr	 h;
	uint64_t	 phnum;
};

struct cv_seg {
	uint64_t	pa, len, off, ph;
};

static void
say(struct cv *c, unsigned k, uint64_t off, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
say(struct cv *c, unsigned k, uint64_t off, const char *fmt, ...)
{
	char msg[320];
	va_list ap;

	if (c->shown[k]++ >= CV_MAX_SHOWN)
		return;
	va_start(ap, fmt);
	(void)vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	dk_ck_emit(c->ck, cv_codes[k].code, off, "%s", msg);
}

static int
seg_cmp(const void *a, const void *b)
{
	const struct cv_seg *x = a, *y = b;

	if (x->pa != y->pa)
		return x->pa < y->pa ? -1 : 1;
	return x->ph < y->ph ? -1 : x->ph > y->ph;
}

/* The row of e_machine: of the file's class, else of the other. */
static const struct dk_arch *
row_of(unsigned machine, unsigned cls, enum dk_endian e)
{
	const struct dk_arch *a, *any = NULL;

	for (size_t i = 0; (a = dk_arch_at(i)) != NULL; i++)
		if (a->elf_machine == machine && a->endian == e) {
			if (a->elf_class == cls)
				return a;
			if (any == NULL)
				any = a;
		}
	return any;
}

/* The ELF header: identity and quirks; 0 if nothing more can be read. */
static int
cv_header(struct cv *c)
{
	uint8_t eh[64] = { 0 };
	struct dk_err err;
	unsigned cls;

	if (dk_src_pread(c->src, eh, c->src->size < 64 ? (size_t)c->src->size :
	    64, 0, "ELF header", &err) != DK_OK)
		return 0;
	cls = c->cls = eh[EI_CLASS];
	c->e = dk_elf_endian(eh);
	if (c->src->size < dk_elf_size(DK_ELF_EHDR, cls)) {
		say(c, K_PHDR, 0, "the ELF header needs %u bytes, the file has "
		    "%ju", dk_elf_size(DK_ELF_EHDR, cls),
		    (uintmax_t)c->src->size);
		return 0;
	}
	dk_ehdr_decode(eh, cls, c->e, &c->h);
	if (eh[EI_VERSION] != EV_CURRENT || c->h.version != EV_CURRENT)
		say(c, K_IDENT, EI_VERSION, "EI_VERSION %u, e_version %ju: "
		    "expected 1 (EV_CURRENT)", eh[EI_VERSION],
		    (uintmax_t)c->h.version);
	if ((c->row = row_of((unsigned)c->h.machine, cls, c->e)) == NULL)
		say(c, K_IDENT, dk_elf_off(DK_E_MACHINE, cls), "e_machine %ju "
		    "(class %u, data %u): no architecture dumpkit knows",
		    (uintmax_t)c->h.machine, cls, eh[EI_DATA]);
	else if (c->row->elf_class != cls)
		say(c, K_Q_EM386, dk_elf_off(DK_E_MACHINE, cls), "e_machine "
		    "%ju (%s) in an ELFCLASS%u file: QEMU writes so for x86 "
		    "CPUs not in long mode", (uintmax_t)c->h.machine,
		    c->row->name, cls == ELFCLASS64 ? 64 : 32);
	if (c->h.ehsize != dk_elf_size(DK_ELF_EHDR, cls))
		say(c, K_Q_EHSIZE, dk_elf_off(DK_E_EHSIZE, cls), "e_ehsize %ju, "
		    "the header has %u bytes (QEMU 7.x writes 8; nothing reads "
		    "it)", (uintmax_t)c->h.ehsize, dk_elf_size(DK_ELF_EHDR,
		    cls));
	if (c->h.phentsize != dk_elf_size(DK_ELF_PHDR, cls)) {
		say(c, K_IDENT, dk_elf_off(DK_E_PHENTSIZE, cls), "e_phentsize "
		    "%ju: expected %u", (uintmax_t)c->h.phentsize,
		    dk_elf_size(DK_ELF_PHDR, cls));
		return 0;
	}
	if (c->h.shoff != 0 && c->h.shoff < c->h.phoff)
		say(c, K_Q_SHDR, dk_elf_off(DK_E_SHOFF, cls), "section headers "
		    "at %#jx, before the program headers at %#jx (QEMU 7.x)",
		    (uintmax_t)c->h.shoff, (uintmax_t)c->h.phoff);
	if (c->h.shnum >= 2 && c->h.shentsize == dk_elf_size(DK_ELF_SHDR,
	    cls)) {
		struct dk_shdr sh;

		if (dk_shdr_read(c->src, &c->h, 1, &sh, &err) == DK_OK &&
		    sh.type != CV_SHT_STRTAB &&
		    __builtin_bswap32((uint32_t)sh.type) == CV_SHT_STRTAB)
			say(c, K_Q_SWAP, c->h.shoff + c->h.shentsize, "section "
			    "header 1 (.shstrtab) reads sh_type %#jx: "
			    "SHT_STRTAB in the other byte order (QEMU 7.x on a "
			    "%s-endian guest)", (uintmax_t)sh.type, c->e ==
			    DK_BE ? "big" : "little");
	}
	switch (dk_elf_phnum(c->src, &c->h, &c->phnum, &err)) {
	case DK_OK:
		break;
	case DK_NOMATCH:
		say(c, K_PHDR, dk_elf_off(DK_E_PHNUM, cls), "e_phnum is "
		    "PN_XNUM, but section header 0 at %#jx, which holds the "
		    "count, is past the end of the file", (uintmax_t)c->h.shoff);
		return 0;
	default:
		return 0;
	}
	if (c->h.phnum == PN_XNUM)
		say(c, K_Q_XNUM, c->h.shoff, "%ju program headers: e_phnum "
		    "PN_XNUM, the count in section 0's sh_info",
		    (uintmax_t)c->phnum);
	if (c->phnum == 0 || c->phnum > CV_MAX_PHNUM || c->h.phoff >
	    c->src->size || c->phnum * c->h.phentsize > c->src->size -
	    c->h.phoff) {
		say(c, K_PHDR, dk_elf_off(DK_E_PHOFF, cls), "%ju program "
		    "headers at %#jx; the file ends at %#jx",
		    (uintmax_t)c->phnum, (uintmax_t)c->h.phoff,
		    (uintmax_t)c->src->size);
		return 0;
	}
	return 1;
}

/* Do [a, +n) and [b, +n) of the file hold the same bytes?  -1: unread. */
static int
same_bytes(struct cv *c, uint64_t a, uint64_t b, uint64_t n,
    uint64_t *where)
{
	static const size_t chunk = CV_CMP_CHUNK;
	uint8_t *x = malloc(chunk), *y = malloc(chunk);
	int r = 1;

	if (x == NULL || y == NULL)
		r = -1;
	for (uint64_t done = 0; r == 1 && done < n; done += chunk) {
		size_t k = n - done < chunk ? (size_t)(n - done) : chunk;
		struct dk_err err;

		if (dk_src_pread(c->src, x, k, a + done, "segment", &err) !=
		    DK_OK || dk_src_pread(c->src, y, k, b + done, "segment",
		    &err) != DK_OK) {
			r = -1;
			break;
		}
		if (memcmp(x, y, k) != 0) {
			size_t i = 0;

			while (x[i] == y[i])
				i++;
			*where = done + i;
			r = 0;
		}
	}
	free(x);
	free(y);
	return r;
}

/*
 * Overlaps in physical memory, sorted segments s[0..n) against the one
 * reaching furthest so far: the same file bytes (alias), identical
 * bytes at two places, or a conflict.  Bytes are compared only where
 * the file holds both (--quick: not at all).
 */
static void
cv_overlaps(struct cv *c, struct cv_seg *s, size_t n)
{
	uint64_t nalias = 0, nsame = 0, nunread = 0, first_alias = 0;
	/* Bytes compared at most: each is read twice, a few passes in all. */
	uint64_t budget = 4 * c->src->size + CV_CMP_CHUNK;
	size_t top = 0;

	qsort(s, n, sizeof(*s), seg_cmp);
	for (size_t i = 1; i < n; i++) {
		const struct cv_seg *t = &s[top];
		uint64_t tend = t->pa + t->len, len, at, w;
		int r;

		if (s[i].pa >= tend) {
			top = i;
			continue;
		}
		len = (s[i].pa + s[i].len < tend ? s[i].pa + s[i].len : tend) -
		    s[i].pa;
		at = t->off + (s[i].pa - t->pa);
		if (at == s[i].off) {
			if (nalias++ == 0)
				first_alias = c->h.phoff + s[i].ph *
				    c->h.phentsize;
		} else if (c->ck->o->quick || at + len > c->src->size ||
		    s[i].off + len > c->src->size || len > budget ||
		    (budget -= len, r = same_bytes(c, at, s[i].off, len,
		    &w)) < 0) {
			nunread++;
		} else if (r == 1) {
			if (nsame++ < CV_MAX_SHOWN)
				say(c, K_OVERLAP, c->h.phoff + s[i].ph *
				    c->h.phentsize, "PT_LOAD %ju [%#jx, %#jx) "
				    "overlaps PT_LOAD %ju in physical memory for "
				    "%#jx bytes at another file offset (%#jx, "
				    "%#jx); the bytes are identical",
				    (uintmax_t)s[i].ph, (uintmax_t)s[i].pa,
				    (uintmax_t)(s[i].pa + s[i].len),
				    (uintmax_t)t->ph, (uintmax_t)len,
				    (uintmax_t)s[i].off, (uintmax_t)at);
		} else {
			say(c, K_CONFLICT, s[i].off + w, "PT_LOAD %ju and "
			    "PT_LOAD %ju both hold physical address %#jx, "
			    "with different bytes (file offsets %#jx and "
			    "%#jx): the dump has two contents for it",
			    (uintmax_t)t->ph, (uintmax_t)s[i].ph,
			    (uintmax_t)(s[i].pa + w), (uintmax_t)(at + w),
			    (uintmax_t)(s[i].off + w));
		}
		if (s[i].pa + s[i].len > tend)
			top = i;
	}
	if (nalias > 0)
		say(c, K_Q_ALIAS, first_alias, "%ju PT_LOADs alias bytes of "
		    "another one (the same p_paddr at the same file offset), as "
		    "QEMU's paging dumps write one per virtual mapping",
		    (uintmax_t)nalias);
	if (nunread > 0)
		dk_ck_emit(c->ck, "check.incomplete", DK_CK_NOOFF, "%ju "
		    "overlapping PT_LOADs were not compared byte by byte (%s)",
		    (uintmax_t)nunread, c->ck->o->quick ? "--quick" :
		    "the file does not hold both, or four times the file's "
		    "bytes were compared already");
}

/* A SIZE(s) or OFFSET(s.m) line of VMCOREINFO: s, the value, the line. */
struct cv_key {
	const char	*s;
	size_t		 len, klen;	/* of s; of the key's whole name */
	uint64_t	 v, at;
};

static int
cv_key_cmp(const void *a, const void *b)
{
	const struct cv_key *x = a, *y = b;
	int r = memcmp(x->s, y->s, x->len < y->len ? x->len : y->len);

	return r != 0 ? r : (x->len > y->len) - (x->len < y->len);
}

/*
 * Each OFFSET(s.m) inside its struct's SIZE(s) where VMCOREINFO gives
 * both (a member that starts past its struct's end is no layout: the
 * readers of the kernel's structures would read past them).  Sorted
 * SIZE lines, a binary search per OFFSET line: n log n in the lines.
 */
static void
cv_vmci_offsets(struct cv *c, const char *t, size_t n, uint64_t off)
{
	struct cv_key *sz = NULL, *of = NULL;
	size_t nsz = 0, nof = 0, cap = 0, bad = 0;
	const struct cv_key *first = NULL, *firstsz = NULL;

	for (size_t i = 0; i < n && t[i] != '\0'; ) {
		size_t l = 0, eq, pre;
		char v[24] = "";

		while (i + l < n && t[i + l] != '\n' && t[i + l] != '\0')
			l++;
		for (eq = 0; eq < l && t[i + eq] != '='; eq++)
			;
		pre = eq > 7 && memcmp(t + i, "OFFSET(", 7) == 0 ? 7 : eq > 5 &&
		    memcmp(t + i, "SIZE(", 5) == 0 ? 5 : 0;
		if (pre != 0 && eq < l && t[i + eq - 1] == ')' &&
		    l - eq - 1 < sizeof(v)) {
			struct cv_key k = { t + i + pre, eq - pre - 1,
			    eq - pre - 1, 0, off + i };

			memcpy(v, t + i + eq + 1, l - eq - 1);
			if (pre == 7) {	/* s.m: s alone */
				const char *dot = memchr(k.s, '.', k.len);

				k.len = dot != NULL ? (size_t)(dot - k.s) : 0;
			}
			if (k.len > 0 && dk_parse_u64(v, &k.v) == 0) {
				if (nsz + nof == cap) {
					size_t nc = cap ? 2 * cap : 64;
					struct cv_key *a = realloc(sz, nc *
					    sizeof(*a)), *b;

					if (a == NULL)
						goto out;
					sz = a;
					if ((b = realloc(of, nc * sizeof(*b))) ==
					    NULL)
						goto out;
					of = b;
					cap = nc;
				}
				if (pre == 5)
					sz[nsz++] = k;
				else
					of[nof++] = k;
			}
		}
		i += l + 1;
	}
	if (nsz == 0)
		goto out;
	qsort(sz, nsz, sizeof(*sz), cv_key_cmp);
	for (size_t i = 0; i < nof; i++) {
		const struct cv_key *z = bsearch(&of[i], sz, nsz, sizeof(*sz),
		    cv_key_cmp);

		if (z != NULL && of[i].v >= z->v && bad++ == 0) {
			first = &of[i];
			firstsz = z;
		}
	}
	if (first != NULL)
		say(c, K_VMCI_BAD, first->at, "%zu VMCOREINFO OFFSET%s past "
		    "its struct's SIZE: the first, OFFSET(%.*s)=%ju, SIZE("
		    "%.*s)=%ju", bad, bad == 1 ? "" : "s", (int)first->klen,
		    first->s, (uintmax_t)first->v, (int)firstsz->len,
		    firstsz->s, (uintmax_t)firstsz->v);
out:
	free(sz);
	free(of);
}

/* The VMCOREINFO text t (n bytes) against the header. */
static void
cv_vmcoreinfo(struct cv *c, const char *t, size_t n, uint64_t off)
{
	size_t bad = 0, firstbad = 0, lines = 0;
	int have_os = 0;
	uint64_t ps = 0;
	const char *hint_key = NULL;
	const struct dk_arch *hint = NULL;
	static const struct {
		const char *key, *row, *row_be;
	} keys[] = {
		{ "SYMBOL(init_top_pgt)", "amd64", NULL },
		{ "NUMBER(kimage_voffset)", "aarch64", NULL },
		{ "NUMBER(phys_ram_base)", "riscv64", NULL },
		{ "SYMBOL(lowcore_ptr)", NULL, "s390x" },
		{ "SYMBOL(mmu_psize_defs)", "powerpc64le", "powerpc64" },
	};

	for (size_t i = 0; i < n && t[i] != '\0'; ) {
		size_t l = 0, eq;

		while (i + l < n && t[i + l] != '\n' && t[i + l] != '\0')
			l++;
		for (eq = 0; eq < l && t[i + eq] != '='; eq++)
			;
		lines++;
		if (eq == 0 || eq == l) {
			if (bad++ == 0)
				firstbad = i;
		} else {
			if (eq == 9 && memcmp(t + i, "OSRELEASE", 9) == 0)
				have_os = 1;
			if (eq == 8 && memcmp(t + i, "PAGESIZE", 8) == 0) {
				char v[24] = "";

				memcpy(v, t + i + 9, l - 9 < sizeof(v) - 1 ?
				    l - 9 : sizeof(v) - 1);
				if (dk_parse_u64(v, &ps) != 0 || ps == 0 ||
				    (ps & (ps - 1)) != 0)
					say(c, K_VMCI_MISMATCH, off + i,
					    "PAGESIZE=%s is not a power of two",
					    v);
			}
			for (size_t k = 0; hint == NULL && k < DK_ARRAY_LEN(keys);
			    k++)
				if (strlen(keys[k].key) == eq &&
				    memcmp(t + i, keys[k].key, eq) == 0) {
					const char *r = c->e == DK_BE ?
					    keys[k].row_be : keys[k].row;

					hint_key = keys[k].key;
					hint = r != NULL ? dk_arch_by_name(r) :
					    NULL;
					if (r == NULL)
						say(c, K_VMCI_MISMATCH, off + i,
						    "VMCOREINFO has %s, which "
						    "only %s kernels write, in "
						    "a %s-endian file",
						    keys[k].key, keys[k].row ?
						    keys[k].row : keys[k].row_be,
						    c->e == DK_BE ? "big" :
						    "little");
				}
		}
		i += l + 1;
	}
	if (bad > 0)
		say(c, K_VMCI_BAD, off + firstbad, "%zu of %zu VMCOREINFO lines "
		    "are not KEY=value", bad, lines);
	if (!have_os || ps == 0)
		say(c, K_VMCI_BAD, off, "VMCOREINFO has no %s", !have_os ?
		    "OSRELEASE" : "PAGESIZE");
	cv_vmci_offsets(c, t, n, off);
	if (hint != NULL && c->row != NULL && hint != c->row &&
	    strcmp(hint->family, c->row->family) != 0)
		say(c, K_VMCI_MISMATCH, off, "VMCOREINFO has %s, which only %s "
		    "kernels write; the ELF header's e_machine is %s's",
		    hint_key, hint->name, c->row->name);
	if (ps != 0 && c->row != NULL && c->row->ops != NULL &&
	    (strcmp(c->row->family, "amd64") == 0 ||
	    strcmp(c->row->family, "i386") == 0 ||
	    strcmp(c->row->family, "s390x") == 0) && ps != 4096)
		say(c, K_VMCI_MISMATCH, off, "PAGESIZE=%ju, but %s has 4096-byte "
		    "pages only", (uintmax_t)ps, c->row->name);
}

/* The notes of one PT_NOTE segment. */
static void
cv_notes(struct cv *c, uint64_t at, uint64_t off, uint64_t size,
    int *have_vmci)
{
	struct dk_note_iter it;
	struct dk_note nt;
	struct dk_err err;
	enum dk_status st;

	if (off > c->src->size || size > c->src->size - off) {
		say(c, K_NOTE, at, "the PT_NOTE segment [%#jx, %#jx) extends "
		    "past the end of the file at %#jx", (uintmax_t)off,
		    (uintmax_t)(off + size), (uintmax_t)c->src->size);
		if (off > c->src->size)
			return;
		size = c->src->size - off;
	}
	dk_note_iter_init(&it, c->src, off, off + size, c->e,
	    "the PT_NOTE segment");
	while ((st = dk_note_next(&it, &nt, &err)) == DK_OK) {
		int vmci = nt.have_name && nt.namesz == 11 &&
		    memcmp(nt.name, "VMCOREINFO", 11) == 0;
		char *b;

		if (nt.have_name && nt.namesz == 5 && memcmp(nt.name, "CORE",
		    5) == 0 && nt.type == 1 && c->row != NULL) {
			static const struct {
				const char *family;
				uint64_t size[2];
			} ps[] = {
				{ "amd64", { 336, 144 } }, { "i386", { 144, 0 } },
				{ "arm64", { 392, 0 } }, { "riscv", { 376, 0 } },
				{ "powerpc64", { 504, 0 } },
				{ "s390x", { 336, 0 } }, { "arm", { 148, 0 } },
			};

			for (size_t i = 0; i < DK_ARRAY_LEN(ps); i++)
				if (strcmp(ps[i].family, c->row->family) == 0 &&
				    nt.descsz != ps[i].size[0] &&
				    nt.descsz != ps[i].size[1])
					say(c, K_PRSTATUS, nt.off, "NT_PRSTATUS "
					    "of %#jx bytes: a %s kernel's is "
					    "%#jx", (uintmax_t)nt.descsz,
					    c->row->name,
					    (uintmax_t)ps[i].size[0]);
		}
		if (!vmci || *have_vmci)
			continue;
		*have_vmci = 1;
		if (nt.descsz > CV_MAX_DESC || (b = calloc(1, (size_t)nt.descsz +
		    1)) == NULL)
			continue;
		if (dk_src_pread(c->src, b, (size_t)nt.descsz, nt.desc_off,
		    "VMCOREINFO", &err) == DK_OK)
			cv_vmcoreinfo(c, b, (size_t)nt.descsz, nt.desc_off);
		free(b);
	}
	if (st != DK_NOMATCH)
		say(c, K_NOTE, dk_ck_err_offset(&err, off), "%s",
		    dk_ck_unprefixed(c->ck, err.msg));
}

/* Missing pages of the segments past the end of the file. */
struct cv_eof {
	uint64_t	 nseg, bytes, pages;
	uint64_t	 first_ph;
	char		 ranges[200];
	size_t		 rl;
};

/* The program headers, streamed: loads into *sp (*np of them). */
static enum dk_status
cv_phdrs(struct cv *c, struct cv_seg **sp, size_t *np, struct dk_err *err)
{
	unsigned cls = c->cls, pes = (unsigned)c->h.phentsize;
	uint64_t allones = cls == ELFCLASS64 ? UINT64_MAX : UINT32_MAX;
	uint64_t nexcl = 0, excl_bytes = 0, first_excl = 0, noncanon = 0;
	uint64_t first_nc = 0;
	struct cv_eof eof = { 0 };
	struct cv_seg *s;
	uint8_t *buf;
	size_t n = 0;
	int have_vmci = 0;

	buf = malloc(CV_PH_CHUNK);
	s = calloc((size_t)c->phnum, sizeof(*s));
	if (buf == NULL || s == NULL) {
		free(buf);
		free(s);
		return dk_err_set(err, DK_ENOMEM, "%s: out of memory",
		    c->src->name);
	}
	for (uint64_t i = 0; i < c->phnum; ) {
		uint64_t k = CV_PH_CHUNK / pes, at = c->h.phoff + i * pes;

		if (k > c->phnum - i)
			k = c->phnum - i;
		if (dk_src_pread(c->src, buf, (size_t)(k * pes), at, "program "
		    "headers", err) != DK_OK) {
			free(buf);
			free(s);
			return err->code;
		}
		for (uint64_t j = 0; j < k; j++, i++) {
			uint64_t pho = at + j * pes;
			struct dk_phdr p;

			dk_phdr_decode(buf + j * pes, cls, c->e, &p);
			if (p.type == PT_NOTE) {
				cv_notes(c, pho, p.offset, p.filesz,
				    &have_vmci);
				continue;
			}
			if (p.type != PT_LOAD)
				continue;
			if (p.filesz > p.memsz || p.offset + p.filesz <
			    p.offset || (p.memsz > 0 && (p.paddr + p.memsz -
			    1 < p.paddr || p.paddr + p.memsz - 1 > allones))) {
				say(c, K_LOAD, pho, "PT_LOAD %ju: p_offset "
				    "%#jx, p_paddr %#jx, p_filesz %#jx, "
				    "p_memsz %#jx: p_filesz above p_memsz, or "
				    "past the top of the file or the address "
				    "space", (uintmax_t)i, (uintmax_t)p.offset,
				    (uintmax_t)p.paddr, (uintmax_t)p.filesz,
				    (uintmax_t)p.memsz);
				continue;
			}
			if (p.memsz > p.filesz) {
				if (nexcl++ == 0)
					first_excl = pho;
				excl_bytes += p.memsz - p.filesz;
			}
			if (cls == ELFCLASS64 && c->row != NULL &&
			    (strcmp(c->row->family, "amd64") == 0) &&
			    p.vaddr != 0 && (p.vaddr >> 47) != 0 &&
			    (p.vaddr >> 47) != (UINT64_MAX >> 47) &&
			    noncanon++ == 0)
				first_nc = pho;
			if (p.filesz == 0)
				continue;
			if (p.offset + p.filesz > c->src->size) {
				uint64_t have = p.offset < c->src->size ?
				    c->src->size - p.offset : 0;
				uint64_t miss = p.filesz - have;

				if (eof.nseg++ == 0)
					eof.first_ph = pho;
				eof.bytes += miss;
				eof.pages += (p.paddr + p.filesz - 1) / 4096 -
				    (p.paddr + have) / 4096 + 1;
				if (eof.rl < sizeof(eof.ranges) - 40)
					eof.rl += (size_t)snprintf(eof.ranges +
					    eof.rl, sizeof(eof.ranges) - eof.rl,
					    "%s[%#jx, %#jx)", eof.rl ? ", " :
					    "", (uintmax_t)(p.paddr + have),
					    (uintmax_t)(p.paddr + p.filesz));
			}
			s[n++] = (struct cv_seg){ p.paddr, p.filesz, p.offset,
			    i };
		}
	}
	free(buf);
	if (eof.nseg > 0)
		say(c, K_EOF, eof.first_ph, "%ju PT_LOADs extend past the end "
		    "of the file at %#jx: %#jx bytes, %ju pages of 4 KiB "
		    "missing, physical %s%s", (uintmax_t)eof.nseg,
		    (uintmax_t)c->src->size, (uintmax_t)eof.bytes,
		    (uintmax_t)eof.pages, eof.ranges, eof.rl >=
		    sizeof(eof.ranges) - 40 ? ", ..." : "");
	if (nexcl > 0)
		say(c, K_Q_EXCL, first_excl, "%ju PT_LOADs have p_memsz > "
		    "p_filesz: %#jx bytes of memory left out of the dump (what "
		    "makedumpfile filters), read as not dumped",
		    (uintmax_t)nexcl, (uintmax_t)excl_bytes);
	if (noncanon > 0)
		say(c, K_NONCANON, first_nc, "%ju PT_LOADs have a non-canonical "
		    "p_vaddr (bits 63 to 47 not all equal), as QEMU's paging "
		    "dumps write: those p_vaddr are not used",
		    (uintmax_t)noncanon);
	if (!have_vmci)
		say(c, K_VMCI_MISSING, DK_CK_NOOFF, "no VMCOREINFO note: the "
		    "kernel's symbols and sizes (page tables, the log) are "
		    "unknown; QEMU writes one only with -device vmcoreinfo and "
		    "the guest's qemu_fw_cfg driver");
	*sp = s;
	*np = n;
	return DK_OK;
}

/* ---------------------------------------------------------------------- */
/* The check.                                                              */

/* A Linux vmcore says so in its notes: rank 2. */
static int
cv_probe(const struct dk_src *src, const struct dk_open_opts *o)
{
	(void)o;
	return dk_vmcore_is(src) ? 2 : 0;
}

/*
 * A vmcore in the portable format (docs/portable-elf-minidump.md 10.2):
 * its headers load from the source header note, and its layout rules
 * (vmcore.*) are checked on the native vmcore; the content pass reads
 * every stored byte, as of the native file (--checksum: the same digest).
 */
static enum dk_status
cv_pcheck_open(struct dk_ck *ck)
{
	const struct dk_attr *a;

	dk_ck_result_from_dump(ck);
	dk_ck_emit(ck, "check.incomplete", DK_CK_NOOFF, "a Linux ELF vmcore "
	    "in the portable format: its headers load from the source header "
	    "note, and its layout rules (vmcore.*) are checked on the native "
	    "vmcore (dumpconv --to native)");
	/* A cut source stays cut: its conversion keeps what it had. */
	if ((a = dk_attr_find(ck->d, "bytes_past_eof")) != NULL)
		dk_ck_emit(ck, "vmcore.load-past-eof", DK_CK_NOOFF, "the "
		    "source vmcore was cut short: %ju bytes of its PT_LOADs "
		    "were past its end, and are not in this file either",
		    (uintmax_t)a->num);
	ck->res->deep = 1;
	if (!ck->o->quick)
		dk_ck_content(ck, ck->d->src.size, 0);
	dk_ck_linux_log(ck);
	return DK_OK;
}

static enum dk_status
cv_check(struct dk_ck *ck, struct dk_err *err)
{
	struct dk_check_result *res = ck->res;
	struct cv c;
	struct cv_seg *s = NULL;
	size_t n = 0;
	enum dk_status st;

	if (ck->d != NULL && dk_is_portable(ck->d))
		return cv_pcheck_open(ck);
	memset(&c, 0, sizeof(c));
	c.ck = ck;
	c.src = &ck->src;
	res->examined = 1;
	res->format = "vmcore";
	if (dk_vmcore_is(c.src) == 1)
		dk_ck_emit(ck, "file.truncated", c.src->size, "the file ends at "
		    "%#jx, before its notes or inside its program headers: "
		    "taken for a vmcore by its ELF header alone",
		    (uintmax_t)c.src->size);
	if (cv_header(&c)) {
		if ((st = cv_phdrs(&c, &s, &n, err)) != DK_OK)
			return st;
		cv_overlaps(&c, s, n);
		free(s);
	}
	if (c.row != NULL)
		snprintf(res->arch, sizeof(res->arch), "%s", c.row->name);
	if ((st = dk_ck_open(ck, err)) != DK_OK)
		return st;
	if (ck->d == NULL) {
		dk_ck_refused(ck, NULL);
		return DK_OK;
	}
	res->version = dk_info(ck->d)->version;
	res->page_size = dk_info(ck->d)->page_size;
	res->npages = dk_info(ck->d)->npages;
	res->npages_present = dk_info(ck->d)->npages_present;
	res->deep = 1;
	if (!ck->o->quick)
		dk_ck_content(ck, ck->d->src.size, 0);
	dk_ck_linux_log(ck);
	return DK_OK;
}

/* What the formats table's vmcore row gives dumpcheck (fmt_vmcore.c). */
const struct dk_format_check dk_vmcore_check = {
	.probe		= cv_probe,
	.check		= cv_check,
	.codes		= cv_codes,
	.ncodes		= DK_ARRAY_LEN(cv_codes),
};
