/*
 * check_elf.c -- dumpcheck's rules for FreeBSD full ELF cores (FORMATS.md
 * 4.1), as findings with stable codes (docs/dumpcheck.md, "elfcore.*").
 *
 * What dumpsys_generic guarantees and this checks: the ELF identity
 * (class and data of a FreeBSD architecture, EV_CURRENT, EI_OSABI 255,
 * ET_CORE, the class's e_ehsize and e_phentsize, e_phoff right after the
 * ELF header); the program headers inside the file; every PT_LOAD inside
 * the file, with p_filesz = p_memsz, page-aligned offset, address and
 * size; the first segment at round_page(e_phoff + e_phnum * e_phentsize)
 * with the gap before it zero; the segments back to back in ascending
 * address order, disjoint in the file and in memory.  The headers are
 * decoded with the ELF layer (elf.c), as everywhere, but the rules are
 * checked here, independently of fmt_elf.c, so that a reader bug and a
 * checker bug do not hide each other.
 */
#include <elf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checker.h"
#include "dkelf.h"
#include "portable.h"

#define	CE_PAGE		4096u
#define	CE_PT_DELTA	0x6fb5d000u
#define	CE_MAX_SHOWN	8		/* findings of one code per file */

struct ce {
	const struct dk_src	*src;
	struct dk_ck		*ck;
	unsigned		 shown[8];
};

/* What the checks find out about a core, besides the findings. */
struct ce_stats {
	char		 arch[24];	/* the row of the ELF header, or "" */
	uint64_t	 phnum, nload;	/* program headers, non-empty PT_LOADs */
	uint64_t	 npages;	/* pages of the PT_LOADs */
};

static const struct dk_check_code ce_codes[] = {
	{ "elfcore.ident", DK_SEV_ERROR,
	  "a full ELF core's identity differs from dumpsys_generic's" },
	{ "elfcore.phdr-past-eof", DK_SEV_ERROR,
	  "a full ELF core's program headers extend past the file" },
	{ "elfcore.load-past-eof", DK_SEV_ERROR,
	  "a full ELF core's PT_LOAD extends past the end of the file" },
	{ "elfcore.overlap", DK_SEV_ERROR,
	  "two PT_LOADs overlap in the file or in memory" },
	{ "elfcore.order", DK_SEV_WARNING,
	  "PT_LOADs not in ascending address order" },
	{ "elfcore.misaligned", DK_SEV_ERROR,
	  "a PT_LOAD's offset, address or size is not page-aligned" },
	{ "elfcore.layout", DK_SEV_WARNING,
	  "segments not where the kernel puts them, or a non-zero gap" },
	{ "elfcore.filesz", DK_SEV_ERROR,
	  "a PT_LOAD's p_filesz differs from its p_memsz" },
};

enum { K_IDENT, K_PHDR, K_EOF, K_OVERLAP, K_ORDER, K_ALIGN, K_GAP, K_SIZE };
static const char *const kname[] = {
	"elfcore.ident", "elfcore.phdr-past-eof", "elfcore.load-past-eof",
	"elfcore.overlap", "elfcore.order", "elfcore.misaligned",
	"elfcore.layout", "elfcore.filesz",
};

static void
say(struct ce *c, unsigned k, uint64_t off, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
say(struct ce *c, unsigned k, uint64_t off, const char *fmt, ...)
{
	char msg[320];
	va_list ap;

	if (c->shown[k]++ >= CE_MAX_SHOWN)
		return;
	va_start(ap, fmt);
	(void)vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	dk_ck_emit(c->ck, kname[k], off, "%s", msg);
}

struct ce_seg {
	uint64_t	phoff, off, addr, filesz;
	int		virt;
};

static int
by_addr(const void *a, const void *b)
{
	const struct ce_seg *x = a, *y = b;

	if (x->virt != y->virt)
		return x->virt - y->virt;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int
by_off(const void *a, const void *b)
{
	const struct ce_seg *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/* Is src a FreeBSD full ELF core (ELF, EI_OSABI 255, ET_CORE)? */
static int
ce_is(const struct dk_src *src)
{
	uint8_t eh[18];
	struct dk_err err;

	if (src->size < sizeof(eh) ||
	    dk_src_pread(src, eh, sizeof(eh), 0, "ELF header", &err) != DK_OK)
		return 0;
	return dk_elf_magic(eh) && eh[EI_OSABI] == ELFOSABI_STANDALONE &&
	    dk_elf_get(eh, DK_E_TYPE, eh[EI_CLASS], dk_elf_endian(eh)) ==
	    ET_CORE;
}

/* The core's ELF structure; DK_OK unless reading it fails. */
static enum dk_status
ce_structure(struct dk_ck *ck, struct ce_stats *st, struct dk_err *err)
{
	const struct dk_src *src = &ck->src;
	struct ce c = { src, ck, { 0 } };
	uint8_t eh[64] = { 0 }, zero[512];
	struct dk_ehdr h;
	int c64;
	enum dk_endian e;
	unsigned cls, ehsize, phentsize;
	uint64_t phoff, phnum, phend, first, allones;
	struct ce_seg *s = NULL;
	size_t n = 0;
	uint8_t *ph;

	memset(st, 0, sizeof(*st));
	if (dk_src_pread(src, eh, src->size < 64 ? (size_t)src->size : 64, 0,
	    "ELF header", err) != DK_OK)
		return err->code;
	if (eh[EI_CLASS] != ELFCLASS32 && eh[EI_CLASS] != ELFCLASS64) {
		say(&c, K_IDENT, EI_CLASS, "EI_CLASS %u: expected 1 "
		    "(ELFCLASS32) or 2 (ELFCLASS64)", eh[EI_CLASS]);
		return DK_OK;
	}
	cls = eh[EI_CLASS];
	c64 = cls == ELFCLASS64;
	e = dk_elf_endian(eh);
	ehsize = dk_elf_size(DK_ELF_EHDR, cls);
	allones = c64 ? UINT64_MAX : UINT32_MAX;
	/* What the file lacks of the header reads as zeros. */
	dk_ehdr_decode(eh, cls, e, &h);
	if (eh[EI_DATA] != ELFDATA2LSB && eh[EI_DATA] != ELFDATA2MSB)
		say(&c, K_IDENT, EI_DATA, "EI_DATA %u: expected 1 (LSB) or 2 "
		    "(MSB)", eh[EI_DATA]);
	if (eh[EI_VERSION] != EV_CURRENT || h.version != EV_CURRENT)
		say(&c, K_IDENT, eh[EI_VERSION] != EV_CURRENT ? EI_VERSION :
		    dk_elf_off(DK_E_VERSION, cls), "EI_VERSION %u, e_version "
		    "%ju: expected 1 (EV_CURRENT)", eh[EI_VERSION],
		    (uintmax_t)h.version);
	if (src->size < ehsize) {
		say(&c, K_PHDR, 0, "the ELF header needs %u bytes, the file "
		    "has %ju", ehsize, (uintmax_t)src->size);
		return DK_OK;
	}
	{
		const struct dk_arch *a;
		struct dk_err aerr;

		if (dk_arch_from_elf_header(eh, ehsize, src->name, &a, &aerr)
		    != DK_OK)
			say(&c, K_IDENT, dk_elf_off(DK_E_MACHINE, cls),
			    "e_machine %ju with class %u, data %u: no FreeBSD "
			    "architecture", (uintmax_t)h.machine, eh[EI_CLASS],
			    eh[EI_DATA]);
		else
			snprintf(st->arch, sizeof(st->arch), "%s", a->name);
	}
	phoff = h.phoff;
	phentsize = (unsigned)h.phentsize;
	phnum = h.phnum;
	if (h.ehsize != ehsize)
		say(&c, K_IDENT, dk_elf_off(DK_E_EHSIZE, cls), "e_ehsize %ju: "
		    "expected %u", (uintmax_t)h.ehsize, ehsize);
	if (phoff != ehsize)
		say(&c, K_IDENT, dk_elf_off(DK_E_PHOFF, cls), "e_phoff %#jx: "
		    "the kernel puts the program headers right after the ELF "
		    "header, at %#x", (uintmax_t)phoff, ehsize);
	if (phentsize != dk_elf_size(DK_ELF_PHDR, cls)) {
		say(&c, K_IDENT, dk_elf_off(DK_E_PHENTSIZE, cls), "e_phentsize "
		    "%u: expected %u", phentsize, dk_elf_size(DK_ELF_PHDR,
		    cls));
		return DK_OK;
	}
	phend = phoff + phnum * phentsize;
	if (phnum == 0 || phoff > src->size || phend > src->size) {
		say(&c, K_PHDR, dk_elf_off(DK_E_PHOFF, cls), "%ju program "
		    "headers at %#jx end at %#jx; the file ends at %#jx",
		    (uintmax_t)phnum, (uintmax_t)phoff, (uintmax_t)phend,
		    (uintmax_t)src->size);
		return DK_OK;
	}
	st->phnum = phnum;
	if ((ph = malloc((size_t)(phend - phoff))) == NULL ||
	    (s = calloc((size_t)phnum, sizeof(*s))) == NULL) {
		free(ph);
		return dk_err_set(err, DK_ENOMEM, "%s: out of memory",
		    src->name);
	}
	if (dk_src_pread(src, ph, (size_t)(phend - phoff), phoff, "program "
	    "headers", err) != DK_OK) {
		free(ph);
		free(s);
		return err->code;
	}
	for (uint64_t i = 0; i < phnum; i++) {
		uint64_t at = phoff + i * phentsize, off, va, pa, fs, ms, al;
		struct dk_phdr p;

		dk_phdr_decode(ph + i * phentsize, cls, e, &p);
		off = p.offset;
		va = p.vaddr;
		pa = p.paddr;
		fs = p.filesz;
		ms = p.memsz;
		al = p.align;
		if (p.type == CE_PT_DELTA)
			continue;
		if (p.type != PT_LOAD) {
			say(&c, K_IDENT, at, "program header %ju has type "
			    "%#jx: a full core has PT_LOADs (and arm's "
			    "PT_DUMP_DELTA) only", (uintmax_t)i,
			    (uintmax_t)p.type);
			continue;
		}
		if (fs != ms)
			say(&c, K_SIZE, at + dk_elf_off(DK_P_FILESZ, cls),
			    "PT_LOAD %ju: p_filesz %#jx differs from p_memsz "
			    "%#jx", (uintmax_t)i, (uintmax_t)fs,
			    (uintmax_t)ms);
		if (off % CE_PAGE || fs % CE_PAGE || (pa != allones &&
		    pa % CE_PAGE) || (pa == allones && va % CE_PAGE) ||
		    al != CE_PAGE)
			say(&c, K_ALIGN, at, "PT_LOAD %ju: p_offset %#jx, "
			    "address %#jx, p_filesz %#jx, p_align %#jx: "
			    "expected multiples of, and p_align, %#x",
			    (uintmax_t)i, (uintmax_t)off, (uintmax_t)(pa ==
			    allones ? va : pa), (uintmax_t)fs, (uintmax_t)al,
			    CE_PAGE);
		if (off > src->size || fs > src->size - off)
			say(&c, K_EOF, at, "PT_LOAD %ju: [%#jx, %#jx) of the "
			    "file, which ends at %#jx", (uintmax_t)i,
			    (uintmax_t)off, (uintmax_t)(off + fs),
			    (uintmax_t)src->size);
		if (fs == 0)
			continue;
		s[n].phoff = at;
		s[n].off = off;
		s[n].virt = pa == allones;
		s[n].addr = s[n].virt ? va : pa;
		s[n].filesz = fs;
		if (n > 0 && s[n].virt == s[n - 1].virt &&
		    s[n].addr < s[n - 1].addr)
			say(&c, K_ORDER, at, "PT_LOAD %ju at address %#jx "
			    "follows one at %#jx: the kernel writes ascending "
			    "addresses", (uintmax_t)i, (uintmax_t)s[n].addr,
			    (uintmax_t)s[n - 1].addr);
		st->npages += (fs + CE_PAGE - 1) / CE_PAGE;
		n++;
	}
	free(ph);
	st->nload = n;
	/* Layout in the file: first segment, zero gap, back to back. */
	qsort(s, n, sizeof(*s), by_off);
	first = (phend + CE_PAGE - 1) / CE_PAGE * CE_PAGE;
	if (n > 0 && s[0].off != first)
		say(&c, K_GAP, s[0].phoff, "the first segment is at %#jx: "
		    "dumpsys_generic puts it at round_page(e_phoff + e_phnum * "
		    "e_phentsize) = %#jx", (uintmax_t)s[0].off,
		    (uintmax_t)first);
	for (uint64_t o = phend, bad = 0; n > 0 && !bad && o < s[0].off &&
	    o < src->size; o += sizeof(zero)) {
		size_t k = s[0].off - o < sizeof(zero) ? (size_t)(s[0].off - o) :
		    sizeof(zero);

		if (k > src->size - o)
			k = (size_t)(src->size - o);
		if (dk_src_pread(src, zero, k, o, "gap", err) != DK_OK)
			break;
		for (size_t j = 0; j < k && !bad; j++)
			if (zero[j] != 0) {
				say(&c, K_GAP, o + j, "byte %#x in the gap "
				    "before the first segment: the kernel "
				    "zero-fills it", zero[j]);
				bad = 1;
			}
	}
	dk_err_clear(err);
	for (size_t i = 1; i < n; i++) {
		if (s[i].off < s[i - 1].off + s[i - 1].filesz)
			say(&c, K_OVERLAP, s[i].phoff, "PT_LOAD at file offset "
			    "%#jx overlaps the one at offset %#jx in the file "
			    "([%#jx, %#jx))", (uintmax_t)s[i].off,
			    (uintmax_t)s[i - 1].phoff,
			    (uintmax_t)s[i - 1].off,
			    (uintmax_t)(s[i - 1].off + s[i - 1].filesz));
		else if (s[i].off != s[i - 1].off + s[i - 1].filesz)
			say(&c, K_GAP, s[i].phoff, "PT_LOAD at file offset "
			    "%#jx: the kernel writes segments back to back, "
			    "expected %#jx", (uintmax_t)s[i].off,
			    (uintmax_t)(s[i - 1].off + s[i - 1].filesz));
	}
	/* In memory: disjoint address ranges. */
	qsort(s, n, sizeof(*s), by_addr);
	for (size_t i = 1; i < n; i++)
		if (s[i].virt == s[i - 1].virt &&
		    s[i].addr - s[i - 1].addr < s[i - 1].filesz)
			say(&c, K_OVERLAP, s[i].phoff, "PT_LOAD at %s address "
			    "%#jx overlaps the one at offset %#jx, [%#jx, "
			    "%#jx)", s[i].virt ? "virtual" : "physical",
			    (uintmax_t)s[i].addr, (uintmax_t)s[i - 1].phoff,
			    (uintmax_t)s[i - 1].addr,
			    (uintmax_t)(s[i - 1].addr + s[i - 1].filesz));
	free(s);
	return DK_OK;
}

/* ---------------------------------------------------------------------- */
/* The check.                                                              */

/* A FreeBSD full core says so in its identity: rank 2. */
static int
ce_check_probe(const struct dk_src *src, const struct dk_open_opts *o)
{
	(void)o;
	return ce_is(src) ? 2 : 0;
}

/*
 * The pages, as for any dump (--checksum), but not against the pattern:
 * which pages of a full core hold page tables, the fixture generator
 * knows and the core does not say, so --pattern would call them
 * mismatches.  The test suite compares full cores with the model.
 */
static void
ce_content(struct dk_ck *c)
{
	if (c->o->pattern)
		dk_ck_emit(c, "check.incomplete", DK_CK_NOOFF, "--pattern is "
		    "not applied to a full ELF core: its page-table pages "
		    "cannot be told from the others without the fixture's "
		    "model");
	dk_ck_content(c, c->d->src.size, 0);
}

/*
 * A full core in the portable format: its program headers load, and
 * its layout rules are checked on the native core.
 */
static enum dk_status
ce_pcheck_open(struct dk_ck *c)
{
	struct dk_check_result *res = c->res;

	dk_ck_result_from_dump(c);
	dk_ck_emit(c, "check.incomplete", DK_CK_NOOFF, "a full ELF core in "
	    "the portable format: its program headers load, and its layout "
	    "rules (elfcore.*) are checked on the native core (dumpconv --to "
	    "native)");
	res->deep = 1;
	if (!c->o->quick)
		ce_content(c);
	return DK_OK;
}

/*
 * A FreeBSD full ELF core: its structure, then whether the library opens
 * it.  Page data is read as for any dump (--checksum); --pattern is not
 * applied, since the core does not say which pages hold page tables.
 */
static enum dk_status
ce_check(struct dk_ck *c, struct dk_err *err)
{
	struct dk_check_result *res = c->res;
	struct ce_stats es;
	enum dk_status st;

	if (c->d != NULL && dk_is_portable(c->d))
		return ce_pcheck_open(c);
	if ((st = ce_structure(c, &es, err)) != DK_OK)
		return st;
	res->examined = 1;
	res->format = "elf";
	snprintf(res->arch, sizeof(res->arch), "%s", es.arch);
	res->page_size = 4096;
	res->npages = es.npages;
	if ((st = dk_ck_open(c, err)) != DK_OK)
		return st;
	if (c->d == NULL) {
		dk_ck_refused(c, NULL);
		return DK_OK;
	}
	res->version = dk_info(c->d)->version;
	res->npages_present = dk_info(c->d)->npages_present;
	res->deep = 1;
	if (!c->o->quick)
		ce_content(c);
	return DK_OK;
}

/* What the formats table's full-core row gives dumpcheck (fmt_elf.c). */
const struct dk_format_check dk_elfcore_check = {
	.probe		= ce_check_probe,
	.check		= ce_check,
	.codes		= ce_codes,
	.ncodes		= DK_ARRAY_LEN(ce_codes),
};
