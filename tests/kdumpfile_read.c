/*
 * kdumpfile_read -- read a portable ELF minidump with libkdumpfile and
 * compare what it reads with what dumpkit reads from the source dump.
 *
 *	kdumpfile_read [-e] [-n COUNT] [-s SEED] [-a ARCH] PORTABLE SOURCE
 *	kdumpfile_read -p PATTERN_SEED [-e] [-n COUNT] [-s SEED] ELF
 *
 * COUNT (default 1,000) random physical addresses are chosen from the
 * PT_LOAD segments of PORTABLE, found with libelf (not with dumpkit),
 * and read with kdump_read(): in KDUMP_KPHYSADDR, the kernel's physical
 * addresses, where libkdumpfile can set that space up for a dump that is
 * not Linux's (it translates kernel-physical to machine-physical through
 * an OS-specific description that 0.5 has for Linux and Xen; for x86_64
 * and ia32 the identity map can be had by giving it the paging mode), and
 * always in KDUMP_MACHPHYSADDR, which libkdumpfile's ELF reader maps
 * straight onto p_paddr.  The same bytes are read from SOURCE with
 * dk_read_pa() (ARCH as dumpconv --arch, where SOURCE cannot tell).
 * Then kernel virtual addresses of the virtual segments are read in
 * KDUMP_KVADDR, and those libkdumpfile reads are compared with
 * dk_read_va() on SOURCE (it reads some through p_vaddr and asks its own
 * page-table code, which needs a Linux description, for the others).
 *
 * With -e, PORTABLE and SOURCE are a Linux ELF vmcore (the same file, or
 * two): every PT_LOAD is physical memory at p_paddr, and, where its
 * p_vaddr is neither 0 nor p_paddr, kernel virtual memory too; only the
 * bytes the file holds are picked (a truncated vmcore).
 *
 * With -p there is no SOURCE: ELF is a fixture (dumpgen --format
 * vmcore; -p implies -e) and the bytes libkdumpfile reads at physical
 * addresses are held against the fixture pattern of PATTERN_SEED
 * (dk_pattern_fill); virtual addresses are not read.
 *
 * With -v VA:LEN (-p or -e) no comparison is made: LEN bytes (at most
 * 4096) at the kernel virtual address VA are read with libkdumpfile
 * alone, translated as it translates them (its page-table walk from
 * VMCOREINFO), and written in hex on stdout, or its error on stderr
 * (exit 1).
 *
 * With -x the kernel-virtual space is not read (a Linux dump's source,
 * whose kernel virtual addresses dumpkit does not translate yet).
 *
 * Each space is read through a context of its own.  Where libkdumpfile
 * has no page size for the architecture (it takes it from a Linux
 * VMCOREINFO note otherwise: aarch64, ppc64, riscv64), arch.page_size is
 * set to the PT_LOADs' p_align, and the line says so.
 *
 * One line per address space on stdout ("kphys: 1000 of 1000 equal"),
 * "unavailable: REASON" where libkdumpfile cannot set a space up.
 * Exit status: 0 every address read in MACHPHYSADDR, and in every space
 * that could be set up, equals dumpkit's bytes; 1 a difference or a
 * failed read; 2 a file could not be opened; 3 usage error.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <libkdumpfile/kdumpfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dumpkit.h"
#include "kdumpfile_san.h"

#define	NOTE_NPHYS_OFF	112	/* info record: nphys (spec, section 3) */
#define	NT_DUMPKIT_INFO	0x444b0001u
#define	MAXLEN		64

struct seg {
	uint64_t	paddr, vaddr, size, align, off;
	int		virt;
};

struct ctx {
	struct seg	*seg;
	size_t		 nseg;
	uint64_t	 nphys;
	int		 vmcore;	/* -e: a Linux ELF vmcore */
	uint64_t	 fsize;		/* its size in bytes */
	uint64_t	 rng;
	kdump_ctx_t	*kd;
	struct dk_dump	*src;		/* NULL: the pattern of pseed */
	uint64_t	 pseed;
	const char	*path;
};

static uint64_t
next_rand(struct ctx *c, uint64_t n)
{
	uint64_t z = (c->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return n ? z % n : 0;
}

/* The PT_LOADs of path, and the info note's count of physical ones. */
static int
load_segments(struct ctx *c)
{
	int fd = open(c->path, O_RDONLY);
	Elf *e;
	GElf_Ehdr eh;
	size_t nph;
	uint64_t nload = 0;	/* PT_LOADs so far: the first nphys are physical */
	int rc = -1;

	if (fd < 0 || elf_version(EV_CURRENT) == EV_NONE) {
		fprintf(stderr, "kdumpfile_read: %s: %s\n", c->path,
		    strerror(errno));
		return -1;
	}
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (e == NULL || gelf_getehdr(e, &eh) == NULL ||
	    elf_getphdrnum(e, &nph) != 0) {
		fprintf(stderr, "kdumpfile_read: %s: libelf: %s\n", c->path,
		    elf_errmsg(-1));
		goto out;
	}
	c->seg = calloc(nph ? 2 * nph : 1, sizeof(*c->seg));
	if (c->seg == NULL)
		goto out;
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(e, (int)i, &ph) == NULL)
			goto out;
		if (ph.p_type == PT_NOTE) {
			Elf_Data *d = elf_getdata_rawchunk(e,
			    (int64_t)ph.p_offset, ph.p_filesz, ELF_T_NHDR);
			GElf_Nhdr nh;
			size_t off = 0, no, doff;

			while (d != NULL && off < d->d_size &&
			    (off = gelf_getnote(d, off, &nh, &no, &doff)) > 0)
				if (nh.n_type == NT_DUMPKIT_INFO &&
				    nh.n_descsz >= NOTE_NPHYS_OFF + 8) {
					const uint8_t *b = (const uint8_t *)
					    d->d_buf + doff + NOTE_NPHYS_OFF;

					c->nphys = 0;
					for (int k = 0; k < 8; k++)
						c->nphys |= (uint64_t)b[eh.e_ident[
						    EI_DATA] == ELFDATA2MSB ? 7 - k :
						    k] << (8 * k);
				}
			continue;
		}
		/*
		 * The stored bytes only: libkdumpfile 0.5.1 reports the
		 * pages past p_filesz (zeros that dumpconv --drop-zero left
		 * out) as not found; a segment may have none stored.
		 */
		if (ph.p_type != PT_LOAD || ++nload == 0 || ph.p_filesz == 0)
			continue;
		if (c->vmcore) {
			if (ph.p_offset >= c->fsize)
				continue;
			if (ph.p_filesz > c->fsize - ph.p_offset)
				ph.p_filesz = c->fsize - ph.p_offset;
		}
		c->seg[c->nseg].off = ph.p_offset;
		c->seg[c->nseg].paddr = ph.p_paddr;
		c->seg[c->nseg].vaddr = ph.p_vaddr;
		c->seg[c->nseg].size = ph.p_filesz;
		c->seg[c->nseg].align = ph.p_align;
		c->seg[c->nseg].virt = nload > c->nphys;
		c->nseg++;
	}
	if (c->vmcore) {
		/* Physical all; then the virtual views of those with one. */
		size_t np = c->nseg;

		c->nphys = np;
		for (size_t i = 0; i < np; i++)
			if (c->seg[i].vaddr != 0 &&
			    c->seg[i].vaddr != c->seg[i].paddr) {
				c->seg[c->nseg] = c->seg[i];
				c->seg[c->nseg++].virt = 1;
			}
	}
	rc = c->nseg > 0 ? 0 : -1;
	if (rc != 0)
		fprintf(stderr, "kdumpfile_read: %s: no PT_LOAD\n", c->path);
out:
	if (e != NULL)
		elf_end(e);
	close(fd);
	return rc;
}

/* A random address of a random segment (virtual ones if virt), len bytes. */
static uint64_t
pick(struct ctx *c, int virt, size_t *len, int *found)
{
	size_t lo = virt ? c->nphys : 0, hi = virt ? c->nseg : c->nphys;
	const struct seg *s;
	uint64_t off;

	*found = hi > lo;
	if (!*found)
		return 0;
	s = &c->seg[lo + next_rand(c, hi - lo)];
	*len = 1 + (size_t)next_rand(c, MAXLEN);
	if (*len > s->size)
		*len = (size_t)s->size;
	off = next_rand(c, s->size - *len + 1);
	return (virt ? s->vaddr : s->paddr) + off;
}

/* dumpkit's bytes at addr; a 32-bit MIPS VA is tried in its 32-bit form. */
static enum dk_status
dk_read(struct ctx *c, int virt, uint64_t addr, uint8_t *buf, size_t len,
    struct dk_err *err)
{
	enum dk_status st;

	if (c->src == NULL && !virt) {
		dk_pattern_fill(c->pseed, addr, buf, len);
		return DK_OK;
	}
	if (c->src == NULL)
		return dk_err_set(err, DK_EUNSUP, "no source to read a "
		    "virtual address from (-p)");
	if (!virt)
		return dk_read_pa(c->src, addr, buf, len, err);
	st = dk_read_va(c->src, addr, buf, len, err);
	if (st != DK_OK && addr >> 32 == 0xffffffffu)
		st = dk_read_va(c->src, addr & 0xffffffffu, buf, len, err);
	return st;
}

/*
 * Read n addresses in space as; 0 all equal, 1 a difference, -1 the
 * space is unavailable (the first read failed to set it up).
 */
static int
run(struct ctx *c, kdump_addrspace_t as, const char *name, int n)
{
	int virt = as == KDUMP_KVADDR, equal = 0, found, unread = 0;
	char why[128] = "";

	for (int i = 0; i < n; i++) {
		uint8_t a[MAXLEN], b[MAXLEN];
		size_t len = 0, got;
		uint64_t addr = pick(c, virt, &len, &found);
		struct dk_err err;
		kdump_status ks;

		if (!found) {
			printf("%s: unavailable: no %s segment\n", name,
			    virt ? "virtual" : "physical");
			return -1;
		}
		got = len;
		ks = kdump_read(c->kd, as, addr, a, &got);
		if (ks != KDUMP_OK) {
			if (i == 0 && as != KDUMP_MACHPHYSADDR) {
				printf("%s: unavailable: %s\n", name,
				    kdump_get_err(c->kd));
				return -1;
			}
			if (virt) {
				/*
				 * Kernel VAs are a bonus: libkdumpfile reads
				 * some through p_vaddr and tries its own page
				 * tables, which need a Linux, for others.
				 */
				if (unread++ == 0)
					snprintf(why, sizeof(why), "%s",
					    kdump_get_err(c->kd));
				continue;
			}
			printf("%s: %#jx: libkdumpfile: %s\n", name,
			    (uintmax_t)addr, kdump_get_err(c->kd));
			return 1;
		}
		if (dk_read(c, virt, addr, b, len, &err) != DK_OK) {
			printf("%s: %#jx: dumpkit: %s\n", name, (uintmax_t)addr,
			    err.msg);
			return 1;
		}
		if (memcmp(a, b, len) != 0) {
			printf("%s: %#jx: %zu bytes differ\n", name,
			    (uintmax_t)addr, len);
			return 1;
		}
		equal++;
	}
	if (unread > 0)
		printf("%s: %d of %d equal, %d not read (libkdumpfile: %s)\n",
		    name, equal, n, unread, why);
	else
		printf("%s: %d of %d equal\n", name, equal, n);
	return 0;
}

/*
 * What libkdumpfile needs to set up the kernel-physical space of a dump
 * it knows no OS of: the paging mode, which decides its page-table
 * format (not used here; physical addresses map one to one).
 */
static void
kphys_setup(kdump_ctx_t *kd, const char *arch)
{
	if (strcmp(arch, KDUMP_ARCH_X86_64) == 0)
		(void)kdump_set_number_attr(kd, "addrxlat.default.virt_bits",
		    48);
	else if (strcmp(arch, KDUMP_ARCH_IA32) == 0)
		(void)kdump_set_number_attr(kd, "addrxlat.default.phys_bits",
		    32);
}

/*
 * A libkdumpfile context on the portable file, with the page size set
 * from p_align where libkdumpfile has none; kphys: with kphys_setup().
 */
static kdump_ctx_t *
open_kd(struct ctx *c, int kphys, int *fd, char *note, size_t notesz)
{
	kdump_ctx_t *kd = kdump_new();
	const char *arch = "?";
	kdump_num_t ps;

	*fd = open(c->path, O_RDONLY);
	if (kd == NULL || *fd < 0 || kdump_open_fd(kd, *fd) != KDUMP_OK) {
		fprintf(stderr, "kdumpfile_read: %s: libkdumpfile: %s\n",
		    c->path, kd ? kdump_get_err(kd) : "kdump_new failed");
		exit(2);
	}
	note[0] = '\0';
	if (kdump_get_number_attr(kd, KDUMP_ATTR_PAGE_SIZE, &ps) !=
	    KDUMP_OK) {
		uint64_t al = c->seg[0].align;

		/* QEMU writes p_align 0: the ELF reader's page is then 4 KiB. */
		if (al == 0 || (al & (al - 1)) != 0)
			al = 4096;
		(void)kdump_set_number_attr(kd, KDUMP_ATTR_PAGE_SIZE, al);
		snprintf(note, notesz, " (arch.page_size set to %ju%s)",
		    (uintmax_t)al, al == c->seg[0].align ? ", p_align" : "");
	}
	(void)kdump_get_string_attr(kd, KDUMP_ATTR_ARCH_NAME, &arch);
	if (kphys)
		kphys_setup(kd, arch);
	return kd;
}

int
main(int argc, char **argv)
{
	static const struct { kdump_addrspace_t as; const char *name; }
	    spaces[] = {
		/* Machine-physical: the ELF reader's own space. */
		{ KDUMP_MACHPHYSADDR, "machphys" },
		{ KDUMP_KPHYSADDR, "kphys" },
		{ KDUMP_KVADDR, "kvaddr" },
	};
	struct ctx c = { .rng = 1 };
	struct dk_open_opts o = { 0 };
	struct dk_err err;
	const char *arch = "?", *fmt = "?";
	char note[96];
	int n = 1000, ch, fd, fail = 0, r, pattern = 0, novirt = 0;
	const char *va = NULL;

	while ((ch = getopt(argc, argv, "n:s:a:ep:xv:")) != -1)
		switch (ch) {
		case 'v':
			va = optarg;
			break;
		case 'p':
			pattern = novirt = c.vmcore = 1;
			c.pseed = strtoull(optarg, NULL, 0);
			break;
		case 'x':
			novirt = 1;
			break;
		case 'e':
			c.vmcore = 1;
			break;
		case 'n':
			n = atoi(optarg);
			break;
		case 's':
			c.rng = strtoull(optarg, NULL, 0);
			break;
		case 'a':
			o.arch = optarg;
			break;
		default:
			goto usage;
		}
	if (argc - optind != 2 - pattern || n <= 0)
		goto usage;
	c.path = argv[optind];
	{
		struct stat sb;

		if (stat(c.path, &sb) == 0)
			c.fsize = (uint64_t)sb.st_size;
	}
	if (load_segments(&c) != 0)
		return 2;
	if (va != NULL) {
		uint8_t b[4096];
		char *end;
		uint64_t at = strtoull(va, &end, 0);
		size_t len = *end == ':' ? strtoul(end + 1, NULL, 0) : 0;
		kdump_status ks;

		if (len == 0 || len > sizeof(b))
			goto usage;
		c.kd = open_kd(&c, 0, &fd, note, sizeof(note));
		/* A Linux dump: its VMCOREINFO drives the translation. */
		if (kdump_set_string_attr(c.kd, KDUMP_ATTR_OSTYPE, "linux") !=
		    KDUMP_OK)
			fprintf(stderr, "kdumpfile_read: ostype linux: %s\n",
			    kdump_get_err(c.kd));
		if ((ks = kdump_read(c.kd, KDUMP_KVADDR, at, b, &len)) !=
		    KDUMP_OK) {
			fprintf(stderr, "kdumpfile_read: kvaddr %#jx: %s\n",
			    (uintmax_t)at, kdump_get_err(c.kd));
			fail = 1;
		}
		for (size_t i = 0; !fail && i < len; i++)
			printf("%02x", b[i]);
		if (!fail)
			printf("\n");
		kdump_free(c.kd);
		close(fd);
		free(c.seg);
		return fail;
	}
	if (!pattern && dk_open(argv[optind + 1], &o, &c.src, &err) !=
	    DK_OK) {
		fprintf(stderr, "kdumpfile_read: %s\n", err.msg);
		return 2;
	}
	for (size_t i = 0; i < sizeof(spaces) / sizeof(spaces[0]); i++) {
		if (novirt && spaces[i].as == KDUMP_KVADDR)
			continue;
		c.kd = open_kd(&c, spaces[i].as == KDUMP_KPHYSADDR, &fd, note,
		    sizeof(note));
		if (i == 0) {
			(void)kdump_get_string_attr(c.kd,
			    KDUMP_ATTR_FILE_FORMAT, &fmt);
			(void)kdump_get_string_attr(c.kd,
			    KDUMP_ATTR_ARCH_NAME, &arch);
			printf("%s: libkdumpfile opens it as %s, arch.name %s%s;"
			    " %zu PT_LOAD, %ju physical\n", c.path, fmt, arch,
			    note, c.nseg, (uintmax_t)c.nphys);
		}
		r = run(&c, spaces[i].as, spaces[i].name, n);
		/* Only the machine-physical space must be there. */
		if (r > 0 || (r < 0 && spaces[i].as == KDUMP_MACHPHYSADDR))
			fail = 1;
		kdump_free(c.kd);
		close(fd);
	}
	dk_close(c.src);
	free(c.seg);
	return fail;
usage:
	fprintf(stderr, "usage: kdumpfile_read [-e] [-n COUNT] [-s SEED] "
	    "[-a ARCH] PORTABLE SOURCE\n"
	    "       kdumpfile_read [-x] ...; kdumpfile_read -p PATTERN_SEED "
	    "[-n COUNT] [-s SEED] ELF\n"
	    "       kdumpfile_read -p PATTERN_SEED -v VA:LEN ELF\n");
	return 3;
}
