/*
 * check_elfmini.c -- the portable ELF minidump (docs/portable-elf-minidump.md)
 * and the conversions both ways, against the spec and the fixture model.
 *
 *  - "matrix": every row of `dumpgen --list`, plain and --compact,
 *    converted with dk_elfmini_write, then
 *      (a) parsed with libelf (not with dumpkit) and checked against the
 *          spec: ELF header, PT_NOTE first, physical PT_LOADs exactly the
 *          model's runs with the fixture pattern at sample offsets and
 *          the direct-map address, virtual PT_LOADs exactly the model's
 *          kernel map, never a second copy of a page, the notes and the
 *          info record decoded here with the offsets of the spec;
 *      (b) reopened by dumpkit: same info, same bytes at 1,000 physical
 *          and 1,000 virtual addresses as the source;
 *      (c) native -> portable -> native and portable -> native ->
 *          portable, byte for byte.
 *  - "residue": sources cut mid-page and at a page boundary, with bytes
 *    in a section's padding, with trailing garbage: round trips still
 *    byte for byte, and the truncated pages absent from both.
 *  - "xnum": more than 65,535 physical runs (dumpgen --alternate):
 *    PN_XNUM, sh_info of section 0, libelf agrees, dumpkit reads it.
 *  - "corrupt": portable files cut at every structure boundary, with
 *    note sizes, data_offset and info fields changed: a clear error or
 *    correct reads, never a crash (run under ASan/UBSan by
 *    `make check SANITIZE=1`).
 *  - "io": the input is opened read-only; output to a pipe and to an
 *    O_APPEND descriptor equals the file written normally; a source read
 *    through its descriptor (copy_file_range, holes kept) converts to
 *    the same bytes as one read from memory; output files are atomic.
 *
 * Sources are read through a read-only mapping (dk_open_mem) where the
 * kernel map is walked: the powerpc64 hashed page table is searched page
 * by page, two reads a page, and memory makes that several times faster.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sample.h"
#include "gen.h"
#include "dkcheck.h"
#include "minidump.h"
#include "private.h"

/* ---------------------------------------------------------------------- */
/* What the spec says, written out here rather than taken from dumpkit.   */

#define	SPEC_NT_BASE		0x444b0000u
#define	SPEC_NT_INFO		(SPEC_NT_BASE + 1)
#define	SPEC_NT_SOURCE_HEADER	(SPEC_NT_BASE + 2)
#define	SPEC_NT_MSGBUF		(SPEC_NT_BASE + 3)
#define	SPEC_NT_DUMP_AVAIL	(SPEC_NT_BASE + 4)
#define	SPEC_NT_BITMAP		(SPEC_NT_BASE + 5)
#define	SPEC_NT_PMAP		(SPEC_NT_BASE + 6)
#define	SPEC_NT_RESIDUE		(SPEC_NT_BASE + 7)
#define	SPEC_INFO_SIZE		120
#define	SPEC_PN_XNUM		0xffff

/* Section 1: e_machine and e_flags; section 3: abi. */
static const struct spec_row {
	const char	*arch;
	unsigned	 machine;
	unsigned	 flags;
	unsigned	 abi;
	int		 mips32;	/* p_vaddr sign-extended from bit 31 */
} spec_rows[] = {
	{ "amd64", 62, 0, 0, 0 },
	{ "i386", 3, 0, 0, 0 },
	{ "aarch64", 183, 0, 0, 0 },
	{ "arm", 40, 0, 0, 0 },
	{ "armeb", 40, 0, 0, 0 },
	{ "mips", 8, 0, 1, 1 },
	{ "mipsel", 8, 0, 1, 1 },
	{ "mipsn32", 8, 0x20, 2, 1 },
	{ "mipsn32el", 8, 0x20, 2, 1 },
	{ "mips64", 8, 0, 3, 0 },
	{ "mips64el", 8, 0, 3, 0 },
	{ "powerpc64", 21, 0, 0, 0 },
	{ "powerpc64le", 21, 0, 0, 0 },
	{ "riscv64", 243, 0, 0, 0 },
};

static const struct spec_row *
spec_row(const char *arch)
{
	for (size_t i = 0; i < sizeof(spec_rows) / sizeof(spec_rows[0]); i++)
		if (strcmp(spec_rows[i].arch, arch) == 0)
			return &spec_rows[i];
	ck_abort_msg("no spec row for %s", arch);
	return NULL;
}

/* The info record of section 3, decoded here. */
struct spec_info {
	uint32_t	version, source_format, source_version, page_size;
	char		arch[17];
	uint32_t	abi, flags;
	uint64_t	kernbase, kva_end, dmap_base, dmap_end, dmap_phys;
	uint64_t	kernel_displacement, data_offset, npages;
	uint64_t	npages_stored, nphys;
};

static uint64_t
get_int(const uint8_t *p, size_t n, int big)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)p[big ? i : n - 1 - i] << (8 * (n - 1 - i));
	return v;
}

static void
put_int(uint8_t *p, size_t n, int big, uint64_t v)
{
	for (size_t i = 0; i < n; i++)
		p[big ? n - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

static void
decode_info(const uint8_t *b, int big, struct spec_info *si)
{
	si->version = (uint32_t)get_int(b + 0, 4, big);
	si->source_format = (uint32_t)get_int(b + 4, 4, big);
	si->source_version = (uint32_t)get_int(b + 8, 4, big);
	si->page_size = (uint32_t)get_int(b + 12, 4, big);
	memcpy(si->arch, b + 16, 16);
	si->arch[16] = '\0';
	si->abi = (uint32_t)get_int(b + 32, 4, big);
	si->flags = (uint32_t)get_int(b + 36, 4, big);
	si->kernbase = get_int(b + 40, 8, big);
	si->kva_end = get_int(b + 48, 8, big);
	si->dmap_base = get_int(b + 56, 8, big);
	si->dmap_end = get_int(b + 64, 8, big);
	si->dmap_phys = get_int(b + 72, 8, big);
	si->kernel_displacement = get_int(b + 80, 8, big);
	si->data_offset = get_int(b + 88, 8, big);
	si->npages = get_int(b + 96, 8, big);
	si->npages_stored = get_int(b + 104, 8, big);
	si->nphys = get_int(b + 112, 8, big);
}

/* ---------------------------------------------------------------------- */
/* Files.                                                                  */

static char tmpdir[256];

static int
rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* A failed assertion ends the test's process: its files go with it. */
static void
rm_tmp_tree(void)
{
	if (tmpdir[0] != '\0' && access(tmpdir, F_OK) == 0)
		(void)nftw(tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void
setup_tmp(void)
{
	static int registered;
	const char *t = getenv("TMPDIR");

	snprintf(tmpdir, sizeof(tmpdir), "%s/dkelfmini.XXXXXX", t ? t : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	if (!registered++)
		atexit(rm_tmp_tree);
}

static void
tmp_path(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", tmpdir, name);
}

/* Remove every file of tmpdir, then tmpdir. */
static void
rm_tmp(void)
{
	static const char *const names[] = { "native", "elf", "native2",
	    "elf2", "elf3", "cut", "xnum", "piped", "appended", "fd.elf",
	    "out", "out.exists", "n", "p" };
	char p[512];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		tmp_path(p, sizeof(p), names[i]);
		unlink(p);
	}
	ck_assert_msg(rmdir(tmpdir) == 0, "%s: %s (a file left behind?)",
	    tmpdir, strerror(errno));
	tmpdir[0] = '\0';
}

static uint64_t
file_size(const char *path)
{
	struct stat st;

	ck_assert_msg(stat(path, &st) == 0, "%s: %s", path, strerror(errno));
	return (uint64_t)st.st_size;
}

/* A read-only mapping of a whole file. */
struct map {
	uint8_t	*p;
	size_t	 len;
};

static struct map
map_file(const char *path)
{
	struct map m = { NULL, 0 };
	int fd = open(path, O_RDONLY);

	ck_assert_msg(fd >= 0, "%s: %s", path, strerror(errno));
	m.len = (size_t)file_size(path);
	if (m.len > 0) {
		m.p = mmap(NULL, m.len, PROT_READ, MAP_PRIVATE, fd, 0);
		ck_assert_msg(m.p != MAP_FAILED, "mmap %s: %s", path,
		    strerror(errno));
	}
	close(fd);
	return m;
}

static void
unmap(struct map *m)
{
	if (m->p != NULL)
		munmap(m->p, m->len);
	m->p = NULL;
}

/* lseek(fd, off, whence) for SEEK_DATA or SEEK_HOLE, clamped to len. */
static size_t
next_data(int fd, size_t off, size_t len, int whence)
{
	off_t o = lseek(fd, (off_t)off, whence);

	return o < 0 || (size_t)o > len ? len : (size_t)o;
}

/*
 * a and b hold the same bytes.  Where both have a hole the bytes are
 * zeros in both and are not read (SEEK_DATA): a 1 GiB sparse file read
 * through its holes is a gigabyte of zero-filled page cache.
 */
static void
files_equal(const char *a, const char *b, const char *what)
{
	struct map ma = map_file(a), mb = map_file(b);
	int fa = open(a, O_RDONLY), fb = open(b, O_RDONLY);
	size_t off = 0;

	ck_assert(fa >= 0 && fb >= 0);
	ck_assert_msg(ma.len == mb.len, "%s: %s has %zu bytes, %s %zu", what,
	    a, ma.len, b, mb.len);
	while (off < ma.len) {
		size_t da = next_data(fa, off, ma.len, SEEK_DATA);
		size_t db = next_data(fb, off, ma.len, SEEK_DATA);
		size_t end;

		off = da < db ? da : db;
		if (off >= ma.len)
			break;
		/* To where both are in a hole again. */
		da = next_data(fa, off, ma.len, SEEK_HOLE);
		db = next_data(fb, off, ma.len, SEEK_HOLE);
		end = da > db ? da : db;
		for (; off < end; off += 4096) {
			size_t n = end - off < 4096 ? end - off : 4096;

			if (memcmp(ma.p + off, mb.p + off, n) != 0) {
				size_t k = 0;

				while (ma.p[off + k] == mb.p[off + k])
					k++;
				ck_abort_msg("%s: %s and %s differ at offset "
				    "%#zx", what, a, b, off + k);
			}
		}
	}
	close(fa);
	close(fb);
	unmap(&ma);
	unmap(&mb);
}

static struct dk_dump *
open_path(const char *path, const char *arch)
{
	struct dk_open_opts o = { .arch = arch };
	struct dk_dump *d = NULL;
	struct dk_err err;

	ck_assert_msg(dk_open(path, &o, &d, &err) == DK_OK, "open %s: %s",
	    path, err.msg);
	return d;
}

static struct dk_dump *
open_map(const struct map *m, const char *name, const char *arch)
{
	struct dk_open_opts o = { .arch = arch };
	struct dk_dump *d = NULL;
	struct dk_err err;

	ck_assert_msg(dk_open_mem(m->p, m->len, name, &o, &d, &err) == DK_OK,
	    "open %s: %s", name, err.msg);
	return d;
}

enum conv { TO_ELF, TO_NATIVE };

/* The case being checked, for messages ("powerpc64 v2 radix compact"). */
static char what_case[128] = "";

/* Convert d into a new file at path. */
static void
convert(struct dk_dump *d, enum conv how, unsigned flags, const char *path)
{
	struct dk_sink s;
	struct dk_err err;
	enum dk_status st;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	ck_assert_msg(fd >= 0, "%s: %s", path, strerror(errno));
	dk_sink_init(&s, fd, path);
	st = how == TO_ELF ? dk_elfmini_write(d, &s, flags, &err) :
	    dk_native_write(d, &s, &err);
	ck_assert_msg(st == DK_OK, "%s: convert to %s: %s", what_case, path,
	    err.msg);
	ck_assert_int_eq(close(fd), 0);
}

/* Convert the file at from (read through a mapping) into to. */
static void
convert_file(const char *from, const char *arch, enum conv how,
    unsigned flags, const char *to)
{
	struct map m = map_file(from);
	struct dk_dump *d = open_map(&m, from, arch);

	convert(d, how, flags, to);
	dk_close(d);
	unmap(&m);
}

/* xorshift for choosing addresses; separate from the model's stream. */
static uint64_t
pick(uint64_t *s, uint64_t n)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return n ? *s % n : 0;
}

static size_t
nvariants(void)
{
	struct fx_variant v;
	size_t n = 0;

	while (fx_variant_at(n, &v))
		n++;
	return n;
}

static struct fx_variant
variant(size_t i)
{
	struct fx_variant v;

	ck_assert(fx_variant_at(i, &v));
	return v;
}

/* Build a fixture and write it at path. */
static void
make_fixture(struct fx_dump *f, const struct fx_opts *o, const char *path)
{
	struct dk_err err;

	ck_assert_msg(fx_build(o, f, &err) == DK_OK, "build %s v%u %s: %s",
	    o->arch, o->version, o->variant ? o->variant : "-", err.msg);
	ck_assert_msg(fx_write(f, path, 0, &err) == DK_OK, "write: %s",
	    err.msg);
}

/* ---------------------------------------------------------------------- */
/* (a) The file as libelf sees it.                                        */

struct elfview {
	int		 fd;
	Elf		*elf;
	GElf_Ehdr	 eh;
	size_t		 nph;
	GElf_Phdr	*ph;		/* nph headers */
	int		 big;
	uint64_t	 size;
	/* notes, in file order */
	size_t		 nnotes;
	struct {
		uint32_t type;
		char	 name[16];
		uint64_t off;		/* descriptor's file offset */
		uint64_t size;
	}		 notes[16];
	struct spec_info info;
};

static void
elf_open_view(const char *path, struct elfview *v)
{
	Elf_Data *nd;
	GElf_Nhdr nh;
	size_t off = 0, name_off, desc_off;
	uint8_t ib[SPEC_INFO_SIZE];

	memset(v, 0, sizeof(*v));
	ck_assert_uint_ne(elf_version(EV_CURRENT), EV_NONE);
	v->size = file_size(path);
	v->fd = open(path, O_RDONLY);
	ck_assert_int_ge(v->fd, 0);
	v->elf = elf_begin(v->fd, ELF_C_READ, NULL);
	ck_assert_msg(v->elf != NULL, "elf_begin: %s", elf_errmsg(-1));
	ck_assert_int_eq(elf_kind(v->elf), ELF_K_ELF);
	ck_assert_ptr_nonnull(gelf_getehdr(v->elf, &v->eh));
	v->big = v->eh.e_ident[EI_DATA] == ELFDATA2MSB;
	ck_assert_msg(elf_getphdrnum(v->elf, &v->nph) == 0, "getphdrnum: %s",
	    elf_errmsg(-1));
	ck_assert_uint_ge(v->nph, 1);
	v->ph = calloc(v->nph, sizeof(*v->ph));
	ck_assert_ptr_nonnull(v->ph);
	for (size_t i = 0; i < v->nph; i++)
		ck_assert_msg(gelf_getphdr(v->elf, (int)i, &v->ph[i]) != NULL,
		    "phdr %zu: %s", i, elf_errmsg(-1));
	/* Program header 0: the notes. */
	ck_assert_uint_eq(v->ph[0].p_type, PT_NOTE);
	nd = elf_getdata_rawchunk(v->elf, (int64_t)v->ph[0].p_offset,
	    v->ph[0].p_filesz, ELF_T_NHDR);
	ck_assert_msg(nd != NULL, "notes: %s", elf_errmsg(-1));
	while (off < nd->d_size &&
	    (off = gelf_getnote(nd, off, &nh, &name_off, &desc_off)) > 0) {
		ck_assert_uint_lt(v->nnotes, 16);
		v->notes[v->nnotes].type = nh.n_type;
		snprintf(v->notes[v->nnotes].name, 16, "%.*s",
		    (int)nh.n_namesz, (const char *)nd->d_buf + name_off);
		v->notes[v->nnotes].off = v->ph[0].p_offset + desc_off;
		v->notes[v->nnotes].size = nh.n_descsz;
		v->nnotes++;
	}
	ck_assert_uint_ge(v->nnotes, 1);
	ck_assert_uint_eq(v->notes[0].type, SPEC_NT_INFO);
	ck_assert_uint_ge(v->notes[0].size, SPEC_INFO_SIZE);
	ck_assert_int_eq(pread(v->fd, ib, sizeof(ib),
	    (off_t)v->notes[0].off), (ssize_t)sizeof(ib));
	decode_info(ib, v->big, &v->info);
}

static void
elf_close_view(struct elfview *v)
{
	elf_end(v->elf);
	close(v->fd);
	free(v->ph);
}

/* The descriptor of the note of type t, or -1. */
static int
note_index(const struct elfview *v, uint32_t t)
{
	for (size_t i = 0; i < v->nnotes; i++)
		if (v->notes[i].type == t)
			return (int)i;
	return -1;
}

/* The bytes [off, off + n) of the file behind fd equal src's? */
static void
same_bytes(int fd, uint64_t off, const uint8_t *want, size_t n,
    const char *what)
{
	uint8_t *got = malloc(n ? n : 1);

	ck_assert_ptr_nonnull(got);
	ck_assert_int_eq(pread(fd, got, n, (off_t)off), (ssize_t)n);
	ck_assert_msg(memcmp(got, want, n) == 0, "%s: %zu bytes at %#jx "
	    "differ", what, n, (uintmax_t)off);
	free(got);
}

/* A section of the native source, by name. */
/* The dump's direct-map window; all zeros if it has none. */
static struct dk_window
dmap_of(const struct dk_dump *d)
{
	const struct dk_window *w = dk_window_find(d, DK_WIN_DIRECT_MAP);
	struct dk_window z = { 0, NULL, 0, 0, 0 };

	return w != NULL ? *w : z;
}

static const struct dk_section *
section(const struct dk_dump *src, const char *name)
{
	for (size_t i = 0; i < dk_nsections(src); i++)
		if (strcmp(dk_section(src, i)->name, name) == 0)
			return dk_section(src, i);
	return NULL;
}

/* The physical segment holding pa (binary search), or NULL. */
static const GElf_Phdr *
phys_seg(const struct elfview *v, uint64_t pa)
{
	size_t lo = 1, hi = 1 + v->info.nphys;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const GElf_Phdr *p = &v->ph[mid];

		if (pa < p->p_paddr)
			hi = mid;
		else if (pa - p->p_paddr >= p->p_filesz)
			lo = mid + 1;
		else
			return p;
	}
	return NULL;
}

/* The virtual segment holding va (binary search), or NULL. */
static const GElf_Phdr *
virt_seg(const struct elfview *v, uint64_t va)
{
	size_t lo = 1 + v->info.nphys, hi = v->nph;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const GElf_Phdr *p = &v->ph[mid];

		if (va < p->p_vaddr)
			hi = mid;
		else if (va - p->p_vaddr >= p->p_memsz)
			lo = mid + 1;
		else
			return p;
	}
	return NULL;
}

static uint64_t
seg_va(const struct spec_row *sr, uint64_t va)
{
	return sr->mips32 && va != 0 ? (uint64_t)(int64_t)(int32_t)va : va;
}

/*
 * The model's protection of va as p_flags.  Page tables that have no
 * no-execute bit (i386 without PAE, mips, arm's V4 format) can only
 * say more than the model asked for, never less.
 */
static unsigned
model_flags(const struct fx_dump *f, uint64_t va)
{
	for (size_t i = 0; i < f->nmaps; i++)
		if (va >= f->maps[i].va && va - f->maps[i].va < f->maps[i].len)
			return PF_R | (f->maps[i].prot & DK_PROT_W ? PF_W : 0) |
			    (f->maps[i].prot & DK_PROT_X ? PF_X : 0);
	return 0;
}

/* An address window of section 2: [start, end) at PA base. */
struct spec_win {
	uint64_t	start, end, base;
};

/*
 * The windows section 2's table gives the source: MIPS o32 and n32
 * KSEG0 and KSEG1; n64 XKPHYS per cache attribute, CKSEG0, CKSEG1;
 * powerpc64 the link-time addresses from the header's startkernel,
 * dmapbase and dmapend.  Returns their count.
 */
static size_t
spec_windows(const struct fx_dump *f, struct dk_dump *src,
    struct spec_win *w)
{
	const char *fam = f->arch->minidump->family;
	uint64_t sk = 0, db = 0, de = 0, disp, first, last;
	struct dk_hfield hf;
	size_t n = 0;

	if (strcmp(fam, "mips") == 0 && f->arch->abi != DK_ABI_N64) {
		w[n++] = (struct spec_win){ 0x80000000u, 0xa0000000u, 0 };
		w[n++] = (struct spec_win){ 0xa0000000u, 0xc0000000u, 0 };
	} else if (strcmp(fam, "mips") == 0) {
		for (uint64_t c = 0; c < 8; c++)
			w[n++] = (struct spec_win){ 0x8000000000000000ull +
			    (c << 59), 0x8000000000000000ull + (c << 59) +
			    (1ull << 40), 0 };
		w[n++] = (struct spec_win){ 0xffffffff80000000ull,
		    0xffffffffa0000000ull, 0 };
		w[n++] = (struct spec_win){ 0xffffffffa0000000ull,
		    0xffffffffc0000000ull, 0 };
	} else if (strcmp(fam, "powerpc64") == 0) {
		for (size_t i = 0; dk_header_field(src, i, &hf) == 0; i++) {
			if (strcmp(hf.name, "startkernel") == 0)
				sk = hf.value;
			if (strcmp(hf.name, "dmapbase") == 0)
				db = hf.value;
			if (strcmp(hf.name, "dmapend") == 0)
				de = hf.value;
		}
		/* va < db with db <= va + disp <= de, modulo 2^64. */
		disp = sk - 0x100100;
		first = db - disp;
		last = first + (de - db);
		if (last < first)
			first = 0;
		if (last > db - 1)
			last = db - 1;
		if (first < db && first <= last)
			w[n++] = (struct spec_win){ first, last + 1,
			    first + disp - db };
	}
	return n;
}

/*
 * Check the portable file at path, converted from src (the model f's
 * native dump at native_path), against the spec and the model.
 */
static void
check_spec(struct fx_dump *f, struct dk_dump *src, const char *native_path,
    const char *path, int with_virtual, uint64_t seed)
{
	const struct spec_row *sr = spec_row(f->arch->name);
	const struct dk_info *in = dk_info(src);
	struct elfview v;
	const struct spec_info *si;
	struct map nat = map_file(native_path);
	uint64_t ps = in->page_size, rank = 0, s = seed | 1, prev_end = 0;
	uint64_t nvirt, kd = 0, wbytes = 0, wwant = 0;
	struct spec_win win[10];
	size_t nwin;
	struct dk_hfield hf;
	uint8_t want[256], got[256];
	static const uint32_t order[] = { SPEC_NT_INFO, SPEC_NT_SOURCE_HEADER,
	    SPEC_NT_MSGBUF, SPEC_NT_DUMP_AVAIL, SPEC_NT_BITMAP, SPEC_NT_PMAP };
	static const char *const sect[] = { NULL, NULL, "msgbuf",
	    "dump_avail", "bitmap", "pmap" };
	size_t k = 0;

	elf_open_view(path, &v);
	si = &v.info;

	/* 1. ELF header. */
	ck_assert_int_eq(v.eh.e_ident[EI_CLASS], ELFCLASS64);
	ck_assert_int_eq(v.eh.e_ident[EI_DATA], f->arch->endian == DK_BE ?
	    ELFDATA2MSB : ELFDATA2LSB);
	ck_assert_int_eq(v.eh.e_ident[EI_VERSION], EV_CURRENT);
	ck_assert_int_eq(v.eh.e_ident[EI_OSABI], ELFOSABI_NONE);
	ck_assert_uint_eq(v.eh.e_type, ET_CORE);
	ck_assert_uint_eq(v.eh.e_machine, sr->machine);
	ck_assert_uint_eq(v.eh.e_version, EV_CURRENT);
	ck_assert_uint_eq(v.eh.e_entry, 0);
	ck_assert_uint_eq(v.eh.e_phoff, 64);
	ck_assert_uint_eq(v.eh.e_flags, sr->flags);
	ck_assert_uint_eq(v.eh.e_ehsize, 64);
	ck_assert_uint_eq(v.eh.e_phentsize, 56);
	if (v.nph < SPEC_PN_XNUM) {
		ck_assert_uint_eq(v.eh.e_phnum, v.nph);
		ck_assert_uint_eq(v.eh.e_shoff, 0);
		ck_assert_uint_eq(v.eh.e_shnum, 0);
		ck_assert_uint_eq(v.eh.e_shentsize, 0);
	} else
		ck_assert_uint_eq(v.eh.e_phnum, SPEC_PN_XNUM);
	ck_assert_uint_eq(v.eh.e_shstrndx, 0);

	/* 3. Notes: dumpkit's, in the spec's order, then the residue. */
	ck_assert_uint_eq(v.ph[0].p_align, 4);
	ck_assert_uint_ge(v.ph[0].p_offset, 64 + 56 * v.nph);
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (order[i] == SPEC_NT_DUMP_AVAIL && section(src,
		    "dump_avail") == NULL) {
			ck_assert_int_eq(note_index(&v, order[i]), -1);
			continue;
		}
		ck_assert_msg(k < v.nnotes && v.notes[k].type == order[i],
		    "note %zu: expected type %#x", k, order[i]);
		ck_assert_str_eq(v.notes[k].name, "dumpkit");
		if (sect[i] != NULL) {
			const struct dk_section *sc = section(src, sect[i]);

			ck_assert_ptr_nonnull(sc);
			ck_assert_uint_eq(v.notes[k].size, sc->size);
			ck_assert_uint_le(sc->offset + sc->size, nat.len);
			same_bytes(v.fd, v.notes[k].off, nat.p + sc->offset,
			    (size_t)sc->size, sect[i]);
		}
		k++;
	}
	/* The source header: the native file's first page. */
	ck_assert_uint_eq(v.notes[1].size, ps);
	same_bytes(v.fd, v.notes[1].off, nat.p, (size_t)ps, "header page");
	ck_assert_int_eq(note_index(&v, SPEC_NT_RESIDUE), -1);
	ck_assert_uint_eq(k, v.nnotes);

	/* The info record. */
	ck_assert_uint_eq(v.notes[0].size, SPEC_INFO_SIZE);
	ck_assert_uint_eq(si->version, 1);
	ck_assert_uint_eq(si->source_format, 1);
	ck_assert_uint_eq(si->source_version, f->o.version);
	ck_assert_uint_eq(si->page_size, (uint64_t)1 << f->page_shift);
	ck_assert_str_eq(si->arch, f->arch->name);
	ck_assert_uint_eq(si->abi, sr->abi);
	ck_assert_uint_eq(si->flags, (f->g.dmap_base != 0 ? 1u : 0) |
	    (with_virtual ? 2u : 0));
	ck_assert_uint_eq(si->kernbase, f->g.kernbase);
	ck_assert_uint_eq(si->kva_end, in->kva_end);
	ck_assert_uint_eq(si->dmap_base, dmap_of(src).va);
	ck_assert_uint_eq(si->dmap_end, dmap_of(src).end);
	ck_assert_uint_eq(si->dmap_phys, dmap_of(src).pa);
	for (size_t i = 0; dk_header_field(src, i, &hf) == 0; i++)
		if (strcmp(hf.name, "startkernel") == 0)
			kd = hf.value - 0x100100;
	ck_assert_uint_eq(si->kernel_displacement, kd);
	ck_assert_uint_eq(si->data_offset % ps, 0);
	ck_assert_uint_ge(si->data_offset, v.ph[0].p_offset +
	    v.ph[0].p_filesz);
	ck_assert_uint_lt(si->data_offset, v.ph[0].p_offset +
	    v.ph[0].p_filesz + ps);
	ck_assert_uint_eq(si->npages, f->bm.count);
	ck_assert_uint_eq(si->npages_stored, f->bm.count);
	ck_assert_uint_le(1 + si->nphys, v.nph);
	nvirt = v.nph - 1 - si->nphys;
	ck_assert_uint_eq(v.size, si->data_offset + si->npages_stored * ps);
	ck_assert(with_virtual || nvirt == 0);

	/* 2. Physical segments: the model's runs, ascending. */
	for (size_t i = 1; i <= si->nphys; i++) {
		const GElf_Phdr *p = &v.ph[i];
		uint64_t dva = 0, mpa, n = p->p_filesz / ps;

		ck_assert_uint_eq(p->p_type, PT_LOAD);
		ck_assert_uint_eq(p->p_flags, PF_R | PF_W | PF_X);
		ck_assert_uint_eq(p->p_align, ps);
		ck_assert_uint_eq(p->p_filesz, p->p_memsz);
		ck_assert_uint_gt(p->p_filesz, 0);
		ck_assert_uint_eq(p->p_filesz % ps, 0);
		ck_assert_uint_eq(p->p_paddr % ps, 0);
		ck_assert_uint_ge(p->p_paddr, prev_end);
		prev_end = p->p_paddr + p->p_filesz;
		/* Exactly a run: dumped throughout, not beyond either end. */
		ck_assert_msg(fx_dumped(f, p->p_paddr) &&
		    fx_dumped(f, p->p_paddr + p->p_filesz - 1), "segment %zu "
		    "[%#jx, +%#jx) not dumped in the model", i,
		    (uintmax_t)p->p_paddr, (uintmax_t)p->p_filesz);
		if (n <= 64)
			for (uint64_t j = 0; j < n; j++)
				ck_assert(fx_dumped(f, p->p_paddr + j * ps));
		ck_assert_msg(p->p_paddr == 0 || !fx_dumped(f, p->p_paddr - 1) ||
		    (i > 1 && v.ph[i - 1].p_paddr + v.ph[i - 1].p_filesz ==
		    p->p_paddr), "segment %zu at %#jx: the page below is "
		    "dumped", i, (uintmax_t)p->p_paddr);
		if (i == si->nphys || v.ph[i + 1].p_paddr != prev_end)
			ck_assert_msg(!fx_dumped(f, prev_end), "segment %zu "
			    "ends at %#jx, a dumped page", i,
			    (uintmax_t)prev_end);
		/* Stored by rank. */
		ck_assert_uint_eq(p->p_offset, si->data_offset + rank * ps);
		rank += n;
		/* The direct-map address, as the model translates it. */
		if (f->g.dmap_base != 0 && p->p_paddr >= f->g.phys_base &&
		    p->p_paddr - f->g.phys_base < f->g.dmap_end -
		    f->g.dmap_base)
			dva = f->g.dmap_base + p->p_paddr - f->g.phys_base;
		ck_assert_msg(p->p_vaddr == seg_va(sr, dva), "segment %zu: "
		    "p_vaddr %#jx, expected %#jx", i, (uintmax_t)p->p_vaddr,
		    (uintmax_t)dva);
		if (dva != 0) {
			ck_assert(fx_va_to_pa(f, dva, &mpa));
			ck_assert_uint_eq(mpa, p->p_paddr);
		}
		/* The pattern at the start, the end and in between. */
		for (int t = 0; t < 3; t++) {
			uint64_t o = t == 0 ? 0 : t == 1 ? p->p_filesz - 64 :
			    pick(&s, p->p_filesz - 64);

			fx_expect(f, p->p_paddr + o, want, 64);
			same_bytes(v.fd, p->p_offset + o, want, 64, "page data");
		}
	}
	ck_assert_uint_eq(rank, f->bm.count);

	/*
	 * Virtual segments: the kernel map, inside the physical ones, and
	 * the address windows' (outside [kernbase, kva_end)).
	 */
	nwin = spec_windows(f, src, win);
	prev_end = 0;
	for (size_t i = 1 + si->nphys; i < v.nph; i++) {
		const GElf_Phdr *p = &v.ph[i];
		uint64_t va0 = sr->mips32 ? p->p_vaddr & 0xffffffffu :
		    p->p_vaddr;
		size_t w;

		ck_assert_uint_eq(p->p_type, PT_LOAD);
		ck_assert_uint_eq(p->p_align, ps);
		ck_assert_uint_eq(p->p_filesz, p->p_memsz);
		ck_assert_uint_gt(p->p_filesz, 0);
		ck_assert_uint_eq(p->p_filesz % ps, 0);
		ck_assert_uint_eq(p->p_vaddr, seg_va(sr, va0));
		ck_assert_msg(p->p_vaddr >= prev_end, "virtual segment %zu at "
		    "%#jx: below the end of the one before, %#jx", i,
		    (uintmax_t)p->p_vaddr, (uintmax_t)prev_end);
		prev_end = p->p_vaddr + p->p_filesz;
		if (va0 < in->kernbase || va0 >= in->kva_end) {
			/* A window's: inside one, its arithmetic, one copy. */
			for (w = 0; w < nwin; w++)
				if (va0 >= win[w].start && va0 < win[w].end)
					break;
			ck_assert_msg(w < nwin, "virtual segment %zu at %#jx: "
			    "outside the kernel map and every window", i,
			    (uintmax_t)va0);
			ck_assert_uint_le(p->p_filesz, win[w].end - va0);
			ck_assert_uint_eq(p->p_paddr, va0 - win[w].start +
			    win[w].base);
			ck_assert_uint_eq(p->p_flags, PF_R | PF_W | PF_X);
			ck_assert(va0 + p->p_filesz <= in->kernbase ||
			    va0 >= in->kva_end);
			for (uint64_t o = 0; o < p->p_filesz; o += ps) {
				const GElf_Phdr *ph = phys_seg(&v,
				    p->p_paddr + o);
				uint64_t mpa;

				ck_assert_msg(ph != NULL, "window va %#jx: pa "
				    "%#jx is in no physical segment",
				    (uintmax_t)(va0 + o),
				    (uintmax_t)(p->p_paddr + o));
				ck_assert_uint_eq(p->p_offset + o, ph->p_offset +
				    (p->p_paddr + o - ph->p_paddr));
				/* Where the model knows the window, it agrees. */
				if (fx_va_to_pa(f, va0 + o, &mpa))
					ck_assert_uint_eq(mpa, p->p_paddr + o);
			}
			wbytes += p->p_filesz;
			fx_expect(f, p->p_paddr, want, 64);
			same_bytes(v.fd, p->p_offset, want, 64, "window");
			continue;
		}
		ck_assert(p->p_flags & PF_R);
		ck_assert_uint_eq(p->p_flags & ~(unsigned)(PF_R | PF_W | PF_X),
		    0);
		ck_assert_msg((p->p_flags & model_flags(f, va0)) ==
		    model_flags(f, va0), "virtual segment at %#jx: p_flags "
		    "%#x, the model's map says %#x", (uintmax_t)va0,
		    (unsigned)p->p_flags, model_flags(f, va0));
		for (uint64_t o = 0; o < p->p_filesz; o += ps) {
			const GElf_Phdr *ph = phys_seg(&v, p->p_paddr + o);
			uint64_t mpa;

			ck_assert_msg(fx_va_to_pa(f, va0 + o, &mpa),
			    "va %#jx: not mapped in the model",
			    (uintmax_t)(va0 + o));
			ck_assert_msg(mpa == p->p_paddr + o, "va %#jx: "
			    "segment says pa %#jx, the model %#jx",
			    (uintmax_t)(va0 + o), (uintmax_t)(p->p_paddr + o),
			    (uintmax_t)mpa);
			/* The same bytes as the physical segment: one copy. */
			ck_assert_msg(ph != NULL, "va %#jx: pa %#jx is in no "
			    "physical segment", (uintmax_t)(va0 + o),
			    (uintmax_t)(p->p_paddr + o));
			ck_assert_uint_eq(p->p_offset + o, ph->p_offset +
			    (p->p_paddr + o - ph->p_paddr));
		}
		fx_expect(f, p->p_paddr, want, 64);
		same_bytes(v.fd, p->p_offset, want, 64, "virtual segment");
	}
	/*
	 * Every stored page a window reaches is in a window segment, at the
	 * window's address for it (but in the kernel map's range).
	 */
	for (size_t w = 0; with_virtual && w < nwin; w++)
		for (size_t i = 1; i <= si->nphys; i++) {
			const GElf_Phdr *ph = &v.ph[i];
			uint64_t wlen = win[w].end - win[w].start;

			for (uint64_t o = 0; o < ph->p_filesz; o += ps) {
				uint64_t pa = ph->p_paddr + o, va;
				const GElf_Phdr *p;

				if (pa < win[w].base || pa - win[w].base >= wlen)
					continue;
				va = win[w].start + (pa - win[w].base);
				if (va >= in->kernbase && va < in->kva_end)
					continue;
				wwant += ps;
				p = virt_seg(&v, seg_va(sr, va));
				ck_assert_msg(p != NULL, "window va %#jx (pa "
				    "%#jx, stored) is in no virtual segment",
				    (uintmax_t)va, (uintmax_t)pa);
				ck_assert_uint_eq(p->p_paddr + (seg_va(sr, va) -
				    p->p_vaddr), pa);
			}
		}
	ck_assert_uint_eq(wbytes, wwant);
	/* Every stored page of the model's kernel map is in one. */
	for (size_t i = 0; with_virtual && i < f->nmaps; i++) {
		const struct dk_map *m = &f->maps[i];

		for (uint64_t o = 0; o < m->len; o += ps) {
			const GElf_Phdr *p;

			if (m->va + o < in->kernbase || m->va + o >=
			    in->kva_end || !fx_dumped(f, m->pa + o))
				continue;
			p = virt_seg(&v, seg_va(sr, m->va + o));
			ck_assert_msg(p != NULL, "kernel map va %#jx (pa %#jx, "
			    "dumped) is in no virtual segment",
			    (uintmax_t)(m->va + o), (uintmax_t)(m->pa + o));
			ck_assert_uint_eq(p->p_paddr + (seg_va(sr, m->va + o) -
			    p->p_vaddr), m->pa + o);
		}
	}
	/* Reading a segment through libelf's view of the file, too. */
	if (si->nphys > 0) {
		const GElf_Phdr *p = &v.ph[1 + pick(&s, si->nphys)];
		Elf_Data *dd = elf_getdata_rawchunk(v.elf,
		    (int64_t)p->p_offset, sizeof(got), ELF_T_BYTE);

		ck_assert_ptr_nonnull(dd);
		fx_expect(f, p->p_paddr, want, sizeof(want));
		ck_assert_mem_eq(dd->d_buf, want, sizeof(want));
	}
	elf_close_view(&v);
	unmap(&nat);
}

/* ---------------------------------------------------------------------- */
/* (b) dumpkit reads the portable file as it reads the source.            */

/*
 * The source's runs, each with the number of dumped pages before it, so
 * that the k-th dumped page is a binary search (a walk of the runs per
 * pick was 111 million steps in the PN_XNUM case, 131,072 runs).
 */
struct runs {
	size_t		 n;
	uint64_t	*pa, *before, total;
};

static void
runs_of(struct dk_dump *d, struct runs *rs)
{
	struct dk_run_iter it = { 0 };
	struct dk_run r;
	uint64_t ps = dk_info(d)->page_size;
	size_t cap = 0;

	memset(rs, 0, sizeof(*rs));
	while (dk_run_next(d, &it, &r)) {
		if (rs->n == cap) {
			cap = cap == 0 ? 64 : 2 * cap;
			rs->pa = realloc(rs->pa, cap * sizeof(*rs->pa));
			rs->before = realloc(rs->before, cap *
			    sizeof(*rs->before));
			ck_assert(rs->pa != NULL && rs->before != NULL);
		}
		rs->pa[rs->n] = r.pa;
		rs->before[rs->n++] = rs->total;
		rs->total += r.len / ps;
	}
}

/* The pa of the k-th dumped page, 0 past the last. */
static uint64_t
nth_dumped(const struct runs *rs, uint64_t k, uint64_t ps)
{
	size_t lo = 0, hi = rs->n;

	if (k >= rs->total)
		return 0;
	while (hi - lo > 1) {		/* before[lo] <= k < before[hi] */
		size_t mid = lo + (hi - lo) / 2;

		if (rs->before[mid] <= k)
			lo = mid;
		else
			hi = mid;
	}
	return rs->pa[lo] + (k - rs->before[lo]) * ps;
}

static void
same_read(struct dk_dump *a, struct dk_dump *b, int virt, uint64_t addr,
    size_t n)
{
	uint8_t ga[64], gb[64];
	struct dk_err ea, eb;
	enum dk_status sa, sb;
	uint64_t pa_a = 0, pa_b = 0;

	if (virt) {
		sa = dk_kvtop(a, addr, &pa_a, &ea);
		sb = dk_kvtop(b, addr, &pa_b, &eb);
		ck_assert_msg(sa == sb, "kvtop %#jx: source %s (%s), portable "
		    "%s (%s)", (uintmax_t)addr, dk_status_name(sa), ea.msg,
		    dk_status_name(sb), eb.msg);
		ck_assert(sa != DK_OK || pa_a == pa_b);
		sa = dk_read_va(a, addr, ga, n, &ea);
		sb = dk_read_va(b, addr, gb, n, &eb);
	} else {
		sa = dk_read_pa(a, addr, ga, n, &ea);
		sb = dk_read_pa(b, addr, gb, n, &eb);
	}
	ck_assert_msg(sa == sb, "read %s %#jx: source %s (%s), portable %s "
	    "(%s)", virt ? "va" : "pa", (uintmax_t)addr, dk_status_name(sa),
	    ea.msg, dk_status_name(sb), eb.msg);
	if (sa == DK_OK)
		ck_assert_msg(memcmp(ga, gb, n) == 0, "read %s %#jx: bytes "
		    "differ", virt ? "va" : "pa", (uintmax_t)addr);
}

static void
check_same_dump(struct fx_dump *f, struct dk_dump *src, struct dk_dump *p,
    uint64_t seed)
{
	const struct dk_info *a = dk_info(src), *b = dk_info(p);
	uint64_t s = seed * 2654435761u + 7, ps = a->page_size, mem;
	struct dk_run_iter ia = { 0 }, ib = { 0 };
	struct dk_run ra, rb;
	struct runs rs;

	ck_assert_str_eq(b->format, "portable-elf");
	ck_assert_str_eq(a->arch, b->arch);
	ck_assert_uint_eq(a->version, b->version);
	ck_assert_int_eq(a->endian, b->endian);
	ck_assert_uint_eq(a->page_size, b->page_size);
	ck_assert_uint_eq(a->kernbase, b->kernbase);
	ck_assert_uint_eq(a->kva_end, b->kva_end);
	ck_assert_int_eq(dmap_of(src).kind, dmap_of(p).kind);
	ck_assert_uint_eq(dmap_of(src).va, dmap_of(p).va);
	ck_assert_uint_eq(dmap_of(src).end, dmap_of(p).end);
	ck_assert_uint_eq(dmap_of(src).pa, dmap_of(p).pa);
	ck_assert_uint_eq(a->npages, b->npages);
	ck_assert_uint_eq(a->npages_present, b->npages_present);
	ck_assert_uint_eq(dk_header_nfields(src), dk_header_nfields(p));
	ck_assert_uint_eq(dk_phys_nranges(src), dk_phys_nranges(p));
	/* The same runs, at their own offsets. */
	while (dk_run_next(src, &ia, &ra)) {
		ck_assert(dk_run_next(p, &ib, &rb));
		ck_assert_uint_eq(ra.pa, rb.pa);
		ck_assert_uint_eq(ra.len, rb.len);
	}
	ck_assert(!dk_run_next(p, &ib, &rb));
	runs_of(src, &rs);
	mem = f->o.mem + (64u << 20);
	for (int i = 0; i < 1000; i++) {
		uint64_t pa;

		if (i < 700 && a->npages > 0)
			pa = nth_dumped(&rs, pick(&s, a->npages), ps) +
			    pick(&s, ps - 64);
		else
			pa = f->g.phys_base + pick(&s, mem);
		same_read(src, p, 0, pa, 1 + (size_t)pick(&s, 64));
	}
	for (int i = 0; i < 1000; i++) {
		uint64_t va;

		if (i < 600 && f->nmaps > 0) {
			const struct dk_map *m = &f->maps[pick(&s, f->nmaps)];

			va = m->va + pick(&s, m->len);
		} else if (i < 800)
			va = a->kernbase + pick(&s, a->kva_end - a->kernbase);
		else if (i < 950 && dmap_of(src).kind != 0 && a->npages > 0)
			va = dmap_of(src).va + nth_dumped(&rs, pick(&s,
			    a->npages), ps) - dmap_of(src).pa + pick(&s, ps);
		else
			va = a->kernbase - 1 - pick(&s, 1u << 30);
		if ((va & (ps - 1)) > ps - 64)
			va -= 64;
		same_read(src, p, 1, va, 1 + (size_t)pick(&s, 64));
	}
	free(rs.pa);
	free(rs.before);
}

/* ---------------------------------------------------------------------- */
/* The matrix.                                                             */

static const char *
variant_name(const struct fx_variant *v)
{
	return strcmp(v->variant, "-") == 0 ? NULL : v->variant;
}

static void
check_variant(const struct fx_variant *fv, int compact, uint64_t seed)
{
	struct fx_opts o = { .arch = fv->arch, .version = fv->version,
	    .variant = variant_name(fv), .mem = compact ? 32u << 20 :
	    48u << 20, .seed = seed, .compact = compact };
	struct fx_dump f;
	char nat[512], elf[512], nat2[512], elf2[512];
	struct map m;
	struct dk_dump *src, *p;

	snprintf(what_case, sizeof(what_case), "%s v%u %s%s", fv->arch,
	    fv->version, fv->variant, compact ? " compact" : "");
	setup_tmp();
	tmp_path(nat, sizeof(nat), "native");
	tmp_path(elf, sizeof(elf), "elf");
	tmp_path(nat2, sizeof(nat2), "native2");
	tmp_path(elf2, sizeof(elf2), "elf2");
	make_fixture(&f, &o, nat);

	/* native -> portable */
	m = map_file(nat);
	src = open_map(&m, nat, fv->arch);
	convert(src, TO_ELF, 0, elf);
	/* (a) */
	check_spec(&f, src, nat, elf, 1, seed);
	/* (b), through the portable file's descriptor. */
	p = open_path(elf, NULL);
	check_same_dump(&f, src, p, seed);
	/* (c) portable -> native, byte for byte. */
	convert(p, TO_NATIVE, 0, nat2);
	dk_close(p);
	files_equal(nat, nat2, "native -> portable -> native");
	/* native (rebuilt) -> portable again, byte for byte. */
	convert_file(nat2, fv->arch, TO_ELF, 0, elf2);
	files_equal(elf, elf2, "portable -> native -> portable");
	dk_close(src);
	unmap(&m);
	fx_free(&f);
	rm_tmp();
}

START_TEST(test_matrix)
{
	/* First: the declarations' initialisers use the matrix index. */
	_i = dk_test_index(_i);
	struct fx_variant v = variant((size_t)_i / 2);

	check_variant(&v, _i % 2, 40 + (uint64_t)_i);
}
END_TEST

/* --no-virtual: no virtual segment, flag bit 1 clear, same data. */
START_TEST(test_no_virtual)
{
	struct fx_opts o = { .arch = "aarch64", .version = 3, .mem = 48u << 20,
	    .seed = 5 };
	struct fx_dump f;
	char nat[512], elf[512], nat2[512];
	struct dk_dump *src, *p;

	setup_tmp();
	tmp_path(nat, sizeof(nat), "native");
	tmp_path(elf, sizeof(elf), "elf");
	tmp_path(nat2, sizeof(nat2), "native2");
	make_fixture(&f, &o, nat);
	src = open_path(nat, NULL);
	convert(src, TO_ELF, DK_ELFMINI_NO_VIRTUAL, elf);
	check_spec(&f, src, nat, elf, 0, 5);
	p = open_path(elf, NULL);
	check_same_dump(&f, src, p, 5);
	convert(p, TO_NATIVE, 0, nat2);
	files_equal(nat, nat2, "--no-virtual round trip");
	dk_close(p);
	dk_close(src);
	fx_free(&f);
	rm_tmp();
}
END_TEST

/* What dk_check found: each code's count, and its first offset. */
struct win_seen {
	size_t		 n, nvirt;
	uint64_t	 virt_off;
};

static void
win_keep(void *arg, const struct dk_finding *fd)
{
	struct win_seen *ws = arg;

	ws->n++;
	if (strcmp(fd->code, "elf.virt-mismatch") == 0 && ws->nvirt++ == 0)
		ws->virt_off = fd->has_offset ? fd->offset : UINT64_MAX;
}

/*
 * The address windows' virtual segments are checked as the kernel map's
 * are: a converted mips o32, n64 and powerpc64 fixture is clean; one
 * window segment given the PA of the page after its own (a second copy
 * would not read as its address reads) is elf.virt-mismatch at its
 * program header.
 */
START_TEST(test_window_segments)
{
	static const struct fx_opts os[] = {
		{ .arch = "mips", .version = 2, .mem = 48u << 20, .seed = 5 },
		{ .arch = "mips64el", .version = 1, .mem = 48u << 20, .seed = 5 },
		{ .arch = "powerpc64", .version = 2, .mem = 48u << 20, .seed = 5 },
	};
	const struct fx_opts *o = &os[_i];
	struct fx_dump f;
	char nat[512], elf[512];
	struct dk_dump *src;
	struct elfview v;
	struct win_seen ws = { 0 };
	struct dk_check_opts co = { .arch = o->arch, .finding = win_keep,
	    .arg = &ws };
	struct dk_check_result res;
	struct dk_err err;
	size_t w = 0;
	uint8_t b[8];

	setup_tmp();
	tmp_path(nat, sizeof(nat), "native");
	tmp_path(elf, sizeof(elf), "elf");
	make_fixture(&f, o, nat);
	src = open_path(nat, o->arch);
	convert(src, TO_ELF, 0, elf);
	ck_assert_msg(dk_check(elf, &co, &res, &err) == DK_OK, "%s", err.msg);
	ck_assert_msg(ws.n == 0 || strcmp(o->arch, "powerpc64") == 0, "%s: "
	    "%zu findings", o->arch, ws.n);
	ck_assert_uint_eq(res.nerrors + res.nwarnings, 0);
	/* The first virtual segment below kernbase is a window's. */
	elf_open_view(elf, &v);
	for (size_t i = 1 + v.info.nphys; i < v.nph && w == 0; i++)
		if ((v.ph[i].p_vaddr & (spec_row(o->arch)->mips32 ?
		    0xffffffffu : UINT64_MAX)) < dk_info(src)->kernbase)
			w = i;
	ck_assert_uint_ne(w, 0);
	put_int(b, 8, v.big, v.ph[w].p_paddr + dk_info(src)->page_size);
	elf_close_view(&v);
	{
		int fd = open(elf, O_WRONLY);

		ck_assert_int_ge(fd, 0);
		ck_assert_int_eq(pwrite(fd, b, 8, (off_t)(64 + 56 * w + 24)),
		    8);
		close(fd);
	}
	memset(&ws, 0, sizeof(ws));
	ck_assert_msg(dk_check(elf, &co, &res, &err) == DK_OK, "%s", err.msg);
	ck_assert_uint_eq(ws.nvirt, 1);
	ck_assert_uint_eq(ws.virt_off, 64 + 56 * w);
	dk_close(src);
	fx_free(&f);
	rm_tmp();
}
END_TEST

/* ---------------------------------------------------------------------- */
/* (d) Residue: what the sections and pages do not reproduce.              */

enum damage {
	CUT_MID_PAGE,
	CUT_AT_PAGE,
	PADDING,
	TRAILING,
	PADDING_AND_CUT,
	NDAMAGE
};

static const char *const damage_name[] = { "cut mid-page",
	"cut at a page boundary", "non-zero section padding",
	"trailing garbage", "padding and a cut mid-page" };

/* Residue cases on these rows: little and big endian, 4 and 16 KiB. */
static const struct { const char *arch; uint32_t version;
    const char *variant; } residue_rows[] = {
	{ "amd64", 3, NULL },
	{ "armeb", 2, NULL },
	{ "aarch64", 3, "16k" },
	{ "mips64", 1, NULL },
	{ "i386", 1, "pae" },
};

/* Rewrite the native file at path with damage d; return its new size. */
static void
damage_file(const char *path, struct dk_dump *src, enum damage dmg,
    uint64_t *keep_pages)
{
	const struct dk_info *in = dk_info(src);
	const struct dk_section *pg = section(src, "pages");
	uint64_t ps = in->page_size, size = file_size(path);
	int fd = open(path, O_RDWR);

	ck_assert_int_ge(fd, 0);
	ck_assert_ptr_nonnull(pg);
	*keep_pages = in->npages;
	if (dmg == PADDING || dmg == PADDING_AND_CUT) {
		/* Bytes after each section's declared size, before its end. */
		int any = 0;

		for (size_t i = 1; i < dk_nsections(src); i++) {
			const struct dk_section *sc = dk_section(src, i);
			uint64_t end = (sc->offset + sc->size + ps - 1) / ps * ps;
			uint8_t b[3] = { 0xde, 0xad, (uint8_t)i };

			if (strcmp(sc->name, "pages") == 0 ||
			    sc->offset + sc->size == end)
				continue;
			ck_assert_int_eq(pwrite(fd, b, 1, (off_t)(sc->offset +
			    sc->size)), 1);
			if (end - (sc->offset + sc->size) >= 3)
				ck_assert_int_eq(pwrite(fd, b, 3,
				    (off_t)(end - 3)), 3);
			any = 1;
		}
		ck_assert_msg(any, "no section of %s has padding", in->arch);
	}
	if (dmg == CUT_MID_PAGE || dmg == PADDING_AND_CUT) {
		*keep_pages = in->npages / 2;
		ck_assert_int_eq(ftruncate(fd, (off_t)(pg->offset +
		    *keep_pages * ps + ps / 2 + 24)), 0);
	} else if (dmg == CUT_AT_PAGE) {
		*keep_pages = in->npages / 3;
		ck_assert_int_eq(ftruncate(fd, (off_t)(pg->offset +
		    *keep_pages * ps)), 0);
	} else if (dmg == TRAILING) {
		uint8_t junk[5000];

		for (size_t i = 0; i < sizeof(junk); i++)
			junk[i] = (uint8_t)(i * 7 + 1);
		ck_assert_int_eq(pwrite(fd, junk, sizeof(junk), (off_t)size),
		    (ssize_t)sizeof(junk));
	}
	close(fd);
}

START_TEST(test_residue)
{
	/* First: the declarations' initialisers use the matrix index. */
	_i = dk_test_index(_i);
	size_t row = (size_t)_i / NDAMAGE;
	enum damage dmg = (enum damage)(_i % NDAMAGE);
	struct fx_opts o = { .arch = residue_rows[row].arch,
	    .version = residue_rows[row].version,
	    .variant = residue_rows[row].variant, .mem = 32u << 20,
	    .seed = 77, .compact = 1 };
	struct fx_dump f;
	char nat[512], elf[512], nat2[512], elf2[512], elf3[512];
	struct dk_dump *src, *p;
	struct elfview v;
	uint64_t keep, ps;
	int ri;

	setup_tmp();
	tmp_path(nat, sizeof(nat), "native");
	tmp_path(elf, sizeof(elf), "elf");
	tmp_path(nat2, sizeof(nat2), "native2");
	tmp_path(elf2, sizeof(elf2), "elf2");
	tmp_path(elf3, sizeof(elf3), "elf3");
	make_fixture(&f, &o, nat);
	src = open_path(nat, o.arch);
	damage_file(nat, src, dmg, &keep);
	dk_close(src);

	src = open_path(nat, o.arch);
	ps = dk_info(src)->page_size;
	ck_assert_uint_eq(dk_info(src)->npages_present, keep);
	convert(src, TO_ELF, 0, elf);
	elf_open_view(elf, &v);
	ck_assert_uint_eq(v.info.npages_stored, keep);
	ck_assert_uint_eq(v.info.npages, f.bm.count);
	ck_assert_uint_eq((v.info.flags & 4) != 0, keep < f.bm.count);
	ck_assert_uint_eq(v.size, v.info.data_offset + keep * ps);
	ri = note_index(&v, SPEC_NT_RESIDUE);
	if (dmg == CUT_AT_PAGE)
		ck_assert_int_eq(ri, -1);
	else {
		/* Records: offset, length, bytes padded to 8. */
		uint8_t h[16];

		ck_assert_msg(ri >= 0, "%s: no residue note",
		    damage_name[dmg]);
		ck_assert_int_eq(pread(v.fd, h, 16, (off_t)v.notes[ri].off),
		    16);
		ck_assert_uint_gt(get_int(h + 8, 8, v.big), 0);
		ck_assert_uint_eq(v.notes[ri].size % 8, 0);
	}
	elf_close_view(&v);
	p = open_path(elf, NULL);
	check_same_dump(&f, src, p, 3 + (uint64_t)_i);
	/* Round trips, both ways, and portable -> portable. */
	convert(p, TO_NATIVE, 0, nat2);
	files_equal(nat, nat2, damage_name[dmg]);
	convert(p, TO_ELF, 0, elf3);
	files_equal(elf, elf3, damage_name[dmg]);
	dk_close(p);
	convert_file(nat2, o.arch, TO_ELF, 0, elf2);
	files_equal(elf, elf2, damage_name[dmg]);
	dk_close(src);
	fx_free(&f);
	rm_tmp();
}
END_TEST

/* ---------------------------------------------------------------------- */
/* (e) PN_XNUM: more than 65,535 program headers.                          */

START_TEST(test_xnum)
{
	struct fx_opts o = { .arch = "amd64", .version = 3, .mem = 1u << 30,
	    .seed = 9, .sparse = 1, .compact = 1, .alternate = 1 };
	struct fx_dump f;
	char nat[512], elf[512], nat2[512];
	struct dk_dump *src, *p;
	struct elfview v;
	Elf_Scn *scn;
	GElf_Shdr sh;
	size_t n, shnum;
	uint8_t raw[64];

	setup_tmp();
	tmp_path(nat, sizeof(nat), "native");
	tmp_path(elf, sizeof(elf), "xnum");
	tmp_path(nat2, sizeof(nat2), "native2");
	make_fixture(&f, &o, nat);
	src = open_path(nat, NULL);
	convert(src, TO_ELF, 0, elf);
	check_spec(&f, src, nat, elf, 1, 9);
	elf_open_view(elf, &v);
	ck_assert_uint_gt(v.info.nphys, 65535);
	ck_assert_uint_eq(v.eh.e_phnum, SPEC_PN_XNUM);
	ck_assert_uint_eq(v.nph, 1 + v.info.nphys + (v.nph - 1 -
	    v.info.nphys));
	ck_assert_int_eq(elf_getphdrnum(v.elf, &n), 0);
	ck_assert_uint_eq(n, v.nph);
	/* Section header 0, right after the program headers. */
	ck_assert_uint_eq(v.eh.e_shoff, 64 + 56 * (uint64_t)v.nph);
	ck_assert_uint_eq(v.eh.e_shnum, 1);
	ck_assert_uint_eq(v.eh.e_shentsize, 64);
	ck_assert_int_eq(elf_getshdrnum(v.elf, &shnum), 0);
	ck_assert_uint_eq(shnum, 1);
	scn = elf_getscn(v.elf, 0);
	ck_assert_ptr_nonnull(scn);
	ck_assert_ptr_nonnull(gelf_getshdr(scn, &sh));
	ck_assert_uint_eq(sh.sh_info, v.nph);
	ck_assert_uint_eq(sh.sh_type, SHT_NULL);
	ck_assert_uint_eq(sh.sh_offset, 0);
	ck_assert_uint_eq(sh.sh_size, 0);
	/* Read independently of libelf: sh_info at +44 in file order. */
	ck_assert_int_eq(pread(v.fd, raw, 64, (off_t)v.eh.e_shoff), 64);
	ck_assert_uint_eq(get_int(raw + 44, 4, v.big), v.nph);
	for (int i = 0; i < 64; i++)
		if (i < 44 || i >= 48)
			ck_assert_uint_eq(raw[i], 0);
	ck_assert_uint_ge(v.ph[0].p_offset, v.eh.e_shoff + 64);
	elf_close_view(&v);
	/* dumpkit reads it back, and rebuilds the source. */
	p = open_path(elf, NULL);
	check_same_dump(&f, src, p, 9);
	convert(p, TO_NATIVE, 0, nat2);
	files_equal(nat, nat2, "PN_XNUM round trip");
	dk_close(p);
	dk_close(src);
	fx_free(&f);
	rm_tmp();
}
END_TEST

/* The generator's --alternate: one run per dumped page outside the map. */
START_TEST(test_alternate_model)
{
	struct fx_opts o = { .arch = "riscv64", .version = 2, .mem = 64u << 20,
	    .seed = 4, .sparse = 1, .alternate = 1 };
	struct fx_dump f;
	struct dk_err err;
	uint64_t ps, even = 0, odd = 0;

	ck_assert_int_eq(fx_build(&o, &f, &err), DK_OK);
	ps = (uint64_t)1 << f.page_shift;
	for (size_t r = 0; r < f.navail; r++)
		for (uint64_t pa = f.avail[r].start; pa < f.avail[r].end;
		    pa += ps) {
			int used = 0;

			for (size_t i = 0; i < f.nmaps; i++)
				used |= pa >= f.maps[i].pa && pa - f.maps[i].pa <
				    f.maps[i].len;
			if ((pa / ps) % 2 == 0) {
				ck_assert(fx_dumped(&f, pa));
				even++;
			} else if (!used && fx_dumped(&f, pa))
				odd++;
		}
	ck_assert_uint_gt(even, 8000);
	/* Odd pages are dumped only for the page tables, not at random. */
	ck_assert_uint_le(odd, f.pb.npt);
	fx_free(&f);
}
END_TEST

/* ---------------------------------------------------------------------- */
/* (f) Damaged portable files.                                             */

static void
check_err_obj(enum dk_status st, const struct dk_err *err)
{
	if (st == DK_OK)
		return;
	ck_assert_int_eq(err->code, st);
	ck_assert_ptr_nonnull(memchr(err->msg, '\0', sizeof(err->msg)));
	ck_assert_msg(err->msg[0] != '\0', "an error without a message");
}

/*
 * Open a damaged image; if it opens, use it as every reader and writer
 * would: a clear error or correct reads, never a crash.  ref: the
 * undamaged file's dump, for reads that must agree when same is set.
 */
static void
try_damaged(const uint8_t *img, size_t len, struct dk_dump *ref, int same,
    int sink_fd, const char *what)
{
	struct dk_dump *d = NULL;
	struct dk_err err;
	struct dk_elfmini_plan pl;
	struct dk_sink s;
	struct dk_run_iter it = { 0 };
	struct dk_run r;
	enum dk_status st;
	uint8_t a[64], b[64];
	uint64_t pa;
	int n = 0;

	st = dk_open_mem(img, len, what, NULL, &d, &err);
	check_err_obj(st, &err);
	if (st != DK_OK) {
		ck_assert_ptr_null(d);
		return;
	}
	while (dk_run_next(d, &it, &r) && n++ < 64) {
		st = dk_read_pa(d, r.pa, a, 64, &err);
		check_err_obj(st, &err);
		if (same && st == DK_OK) {
			ck_assert_int_eq(dk_read_pa(ref, r.pa, b, 64, &err),
			    DK_OK);
			ck_assert_msg(memcmp(a, b, 64) == 0, "%s: pa %#jx reads "
			    "other bytes", what, (uintmax_t)r.pa);
		}
		st = dk_read_pa(d, r.pa + r.len - 8, a, 16, &err);
		check_err_obj(st, &err);
	}
	st = dk_kvtop(d, dk_info(d)->kernbase, &pa, &err);
	check_err_obj(st, &err);
	st = dk_read_va(d, dk_info(d)->kernbase + 0x2000, a, 64, &err);
	check_err_obj(st, &err);
	st = dk_elfmini_plan(d, 0, &pl, &err);
	check_err_obj(st, &err);
	if (st == DK_OK) {
		dk_sink_init(&s, sink_fd, "/dev/null");
		st = dk_elfmini_write(d, &s, 0, &err);
		check_err_obj(st, &err);
		dk_sink_init(&s, sink_fd, "/dev/null");
		st = dk_native_write(d, &s, &err);
		check_err_obj(st, &err);
	}
	dk_close(d);
}

/* A small portable file with a residue note, in memory. */
static uint8_t *
small_elfmini(const char *arch, uint32_t version, size_t *len,
    struct map *keep)
{
	struct fx_opts o = { .arch = arch, .version = version, .mem = 32u << 20,
	    .dumped = 1u << 20, .seed = 12, .compact = 1 };
	struct fx_dump f;
	char nat[512], elf[512];
	struct dk_dump *src;
	struct map m;
	uint8_t *img;
	int fd;

	tmp_path(nat, sizeof(nat), "n");
	tmp_path(elf, sizeof(elf), "p");
	make_fixture(&f, &o, nat);
	/* A partial last page: a residue record to damage too. */
	fd = open(nat, O_RDWR);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, (off_t)(file_size(nat) - 1000)), 0);
	close(fd);
	src = open_path(nat, arch);
	convert(src, TO_ELF, 0, elf);
	dk_close(src);
	fx_free(&f);
	m = map_file(elf);
	img = malloc(m.len);
	ck_assert_ptr_nonnull(img);
	memcpy(img, m.p, m.len);
	*len = m.len;
	unmap(&m);
	*keep = (struct map){ img, m.len };
	unlink(nat);
	unlink(elf);
	return img;
}

static const struct { const char *arch; uint32_t version; }
    corrupt_rows[] = { { "amd64", 3 }, { "armeb", 1 }, { "mips64", 2 } };

START_TEST(test_corrupt)
{
	/* First: the declarations' initialisers use the matrix index. */
	_i = dk_test_index(_i);
	size_t len, cut[256], ncut = 0;
	struct map keep;
	uint8_t *img, *copy;
	struct elfview v;
	struct dk_dump *ref;
	struct dk_err err;
	char path[512];
	int big, devnull = open("/dev/null", O_WRONLY);
	uint64_t s = 99, noff;
	FILE *fp;

	ck_assert_int_ge(devnull, 0);
	setup_tmp();
	img = small_elfmini(corrupt_rows[_i].arch, corrupt_rows[_i].version,
	    &len, &keep);
	ck_assert_int_eq(dk_open_mem(img, len, "ref", NULL, &ref, &err),
	    DK_OK);
	/* libelf's view, for the boundaries. */
	tmp_path(path, sizeof(path), "elf");
	fp = fopen(path, "wb");
	ck_assert_ptr_nonnull(fp);
	ck_assert_uint_eq(fwrite(img, 1, len, fp), len);
	fclose(fp);
	elf_open_view(path, &v);
	big = v.big;
	copy = malloc(len);
	ck_assert_ptr_nonnull(copy);

	/* Truncated at every structure boundary, and one byte either side. */
	cut[ncut++] = 0;
	cut[ncut++] = 4;
	cut[ncut++] = 16;
	cut[ncut++] = 64;
	for (size_t i = 0; i <= v.nph && ncut < 60; i++)
		cut[ncut++] = 64 + 56 * i;
	cut[ncut++] = 64 + 56 * v.nph;
	for (size_t i = 0; i < v.nnotes; i++) {
		cut[ncut++] = v.notes[i].off - 20;	/* note header */
		cut[ncut++] = v.notes[i].off - 8;	/* name */
		cut[ncut++] = v.notes[i].off;		/* descriptor */
		cut[ncut++] = v.notes[i].off + 16;
		cut[ncut++] = v.notes[i].off + v.notes[i].size;
	}
	cut[ncut++] = v.info.data_offset;
	cut[ncut++] = v.info.data_offset + v.info.page_size;
	cut[ncut++] = len - v.info.page_size;
	cut[ncut++] = len - 1;
	for (size_t i = 0; i < ncut; i++)
		for (int dl = -1; dl <= 1; dl++) {
			size_t c = cut[i] + (size_t)(ssize_t)dl;

			if (c > len || (dl == -1 && cut[i] == 0))
				continue;
			memcpy(copy, img, c);
			try_damaged(copy, c, ref, 0, devnull, "truncated");
		}

	/* Note sizes changed: descsz and namesz of every note. */
	noff = v.ph[0].p_offset;
	for (size_t i = 0; i < v.nnotes; i++) {
		static const uint64_t deltas[] = { 1, 4, (uint64_t)-1,
		    (uint64_t)-4, 0x10000 };
		size_t h = (size_t)v.notes[i].off - 20;

		for (size_t k = 0; k < 5; k++) {
			memcpy(copy, img, len);
			put_int(copy + h + 4, 4, big, v.notes[i].size +
			    deltas[k]);
			try_damaged(copy, len, ref, 0, devnull, "descsz");
		}
		memcpy(copy, img, len);
		put_int(copy + h + 4, 4, big, 0xffffffffu);
		try_damaged(copy, len, ref, 0, devnull, "descsz max");
		memcpy(copy, img, len);
		put_int(copy + h + 4, 4, big, 0);
		try_damaged(copy, len, ref, 0, devnull, "descsz 0");
		for (uint64_t ns = 0; ns < 10; ns += 3) {
			memcpy(copy, img, len);
			put_int(copy + h, 4, big, ns);
			try_damaged(copy, len, ref, 0, devnull, "namesz");
		}
		memcpy(copy, img, len);
		put_int(copy + h, 4, big, 0xfffffff0u);
		try_damaged(copy, len, ref, 0, devnull, "namesz max");
		memcpy(copy, img, len);
		put_int(copy + h + 8, 4, big, SPEC_NT_INFO);
		try_damaged(copy, len, ref, 0, devnull, "type duplicated");
	}
	/* The PT_NOTE segment itself. */
	{
		static const uint64_t offs[] = { 0, 1, 64, (uint64_t)-1,
		    (uint64_t)1 << 40 };
		uint8_t *ph0 = copy + 64;

		for (size_t k = 0; k < 5; k++) {
			memcpy(copy, img, len);
			put_int(ph0 + 8, 8, big, offs[k]);
			try_damaged(copy, len, ref, 0, devnull, "note offset");
			memcpy(copy, img, len);
			put_int(ph0 + 32, 8, big, offs[k]);
			try_damaged(copy, len, ref, 0, devnull, "note size");
		}
		memcpy(copy, img, len);
		put_int(ph0, 4, big, PT_LOAD);
		try_damaged(copy, len, ref, 0, devnull, "no PT_NOTE");
	}
	/* ELF header fields. */
	{
		static const struct { size_t off, n; uint64_t val; } eh[] = {
			{ 32, 8, 0 }, { 32, 8, 1 }, { 32, 8, (uint64_t)-1 },
			{ 32, 8, 1ull << 40 }, { 54, 2, 0 }, { 54, 2, 64 },
			{ 56, 2, 0 }, { 56, 2, 0xffff }, { 16, 2, 2 },
			{ 18, 2, 3 }, { 40, 8, (uint64_t)-1 },
		};

		for (size_t k = 0; k < sizeof(eh) / sizeof(eh[0]); k++) {
			memcpy(copy, img, len);
			put_int(copy + eh[k].off, eh[k].n, big, eh[k].val);
			try_damaged(copy, len, ref, 0, devnull, "ehdr");
		}
		memcpy(copy, img, len);
		copy[EI_DATA] = big ? ELFDATA2LSB : ELFDATA2MSB;
		try_damaged(copy, len, ref, 0, devnull, "byte order");
		memcpy(copy, img, len);
		copy[EI_CLASS] = ELFCLASS32;
		try_damaged(copy, len, ref, 0, devnull, "class");
	}
	/* Info fields wrong. */
	{
		size_t io = (size_t)v.notes[0].off;
		static const struct { size_t off, n; uint64_t val; int same; }
		    fl[] = {
			{ 0, 4, 0, 0 }, { 0, 4, 2, 0 }, { 4, 4, 2, 0 },
			{ 8, 4, 9, 0 }, { 8, 4, 0, 0 }, { 12, 4, 0, 0 },
			{ 12, 4, 1, 0 }, { 12, 4, 8192, 0 },
			{ 12, 4, 0xffffffff, 0 }, { 32, 4, 7, 1 },
			{ 36, 4, 0xffffffff, 1 }, { 36, 4, 0, 1 },
			{ 40, 8, 0, 0 }, { 48, 8, 0, 0 }, { 80, 8, 12345, 1 },
			{ 88, 8, 0, 0 }, { 88, 8, 4096, 0 }, { 88, 8, 17, 0 },
			{ 88, 8, (uint64_t)-4096, 0 },
			{ 88, 8, (uint64_t)1 << 40, 0 },
			{ 96, 8, 0, 0 }, { 96, 8, (uint64_t)-1, 0 },
			{ 104, 8, 0, 0 }, { 104, 8, (uint64_t)-1, 0 },
			{ 104, 8, 1, 0 }, { 112, 8, 0, 1 },
			{ 112, 8, (uint64_t)-1, 1 },
		};

		for (size_t k = 0; k < sizeof(fl) / sizeof(fl[0]); k++) {
			memcpy(copy, img, len);
			put_int(copy + io + fl[k].off, fl[k].n, big,
			    fl[k].val);
			try_damaged(copy, len, ref, fl[k].same, devnull,
			    "info field");
		}
		/* data_offset: each page around its value and the file end. */
		for (int64_t dp = -3; dp <= 3; dp++) {
			memcpy(copy, img, len);
			put_int(copy + io + 88, 8, big, v.info.data_offset +
			    (uint64_t)dp * v.info.page_size);
			try_damaged(copy, len, ref, 0, devnull, "data_offset");
			memcpy(copy, img, len);
			put_int(copy + io + 88, 8, big, (len /
			    v.info.page_size + (uint64_t)dp) *
			    v.info.page_size);
			try_damaged(copy, len, ref, 0, devnull, "data_offset");
		}
		/* Architecture names. */
		{
			static const char *const names[] = { "", "amd64",
			    "armeb", "mips", "powerpc64le", "x86_64",
			    "aaaaaaaaaaaaaaaa", "vax" };

			for (size_t k = 0; k < 8; k++) {
				memcpy(copy, img, len);
				memset(copy + io + 16, 0, 16);
				memcpy(copy + io + 16, names[k],
				    strlen(names[k]));
				try_damaged(copy, len, ref, 0, devnull, "arch");
			}
		}
	}
	/* Residue records. */
	{
		int ri = note_index(&v, SPEC_NT_RESIDUE);
		size_t ro;

		ck_assert_int_ge(ri, 0);
		ro = (size_t)v.notes[ri].off;
		for (int k = 0; k < 6; k++) {
			static const uint64_t lens[] = { 0, 1, 1u << 20,
			    (uint64_t)-1, (uint64_t)-16, 7 };

			memcpy(copy, img, len);
			put_int(copy + ro + 8, 8, big, lens[k]);
			try_damaged(copy, len, ref, 0, devnull, "residue len");
			memcpy(copy, img, len);
			put_int(copy + ro, 8, big, lens[k]);
			try_damaged(copy, len, ref, 0, devnull, "residue off");
		}
	}
	/* Random bytes in the headers and notes. */
	for (int k = 0; k < 300; k++) {
		uint64_t lim = v.info.data_offset < len ? v.info.data_offset :
		    len;

		memcpy(copy, img, len);
		for (int j = 0; j < 4; j++)
			copy[pick(&s, lim)] ^= (uint8_t)(1u << pick(&s, 8));
		try_damaged(copy, len, ref, 0, devnull, "flipped bits");
	}
	(void)noff;
	elf_close_view(&v);
	dk_close(ref);
	free(copy);
	free(keep.p);
	close(devnull);
	unlink(path);
	rm_tmp();
}
END_TEST

/* ---------------------------------------------------------------------- */
/* I/O: read-only input, pipes, O_APPEND, holes, atomic output.           */

START_TEST(test_io)
{
	struct fx_opts o = { .arch = "amd64", .version = 2, .mem = 48u << 20,
	    .seed = 21 };
	struct fx_dump f;
	char nat[512], elf[512], fdelf[512], piped[512], app[512], out[512];
	struct dk_dump *src;
	struct dk_sink s;
	struct dk_err err;
	struct dk_out ou;
	struct stat sn, se;
	int fd, pfd[2], fl, status;
	pid_t pid;

	setup_tmp();
	tmp_path(nat, sizeof(nat), "native");
	tmp_path(elf, sizeof(elf), "elf");
	tmp_path(fdelf, sizeof(fdelf), "fd.elf");
	tmp_path(piped, sizeof(piped), "piped");
	tmp_path(app, sizeof(app), "appended");
	tmp_path(out, sizeof(out), "out");
	make_fixture(&f, &o, nat);
	convert_file(nat, NULL, TO_ELF, 0, elf);

	/* The input is opened read-only. */
	src = open_path(nat, NULL);
	fl = fcntl(src->src.fd, F_GETFL);
	ck_assert_int_ge(fl, 0);
	ck_assert_int_eq(fl & O_ACCMODE, O_RDONLY);

	/* Through the descriptor: copy_file_range, holes stay holes. */
	convert(src, TO_ELF, 0, fdelf);
	files_equal(elf, fdelf, "descriptor and memory sources");
	ck_assert_int_eq(stat(nat, &sn), 0);
	ck_assert_int_eq(stat(fdelf, &se), 0);
	/* The same data, allocated: the zero pages are holes in both. */
	ck_assert_msg((uint64_t)se.st_blocks * 512 < (uint64_t)sn.st_blocks *
	    512 + (1u << 20), "the portable file allocates %jd blocks, the "
	    "native %jd: holes were filled", (intmax_t)se.st_blocks,
	    (intmax_t)sn.st_blocks);
	ck_assert_uint_lt((uint64_t)sn.st_blocks * 512, file_size(nat) -
	    file_size(nat) / 4);

	/* An O_APPEND descriptor is written like a pipe. */
	fd = open(app, O_WRONLY | O_CREAT | O_APPEND, 0644);
	ck_assert_int_ge(fd, 0);
	dk_sink_init(&s, fd, app);
	ck_assert_int_eq(s.seekable, 0);
	ck_assert_int_eq(dk_elfmini_write(src, &s, 0, &err), DK_OK);
	close(fd);
	files_equal(elf, app, "O_APPEND output");

	/* A pipe: everything written, in order. */
	ck_assert_int_eq(pipe(pfd), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(pfd[0]);
		dk_sink_init(&s, pfd[1], "pipe");
		_exit(s.seekable == 0 && dk_elfmini_write(src, &s, 0, &err) ==
		    DK_OK ? 0 : 1);
	}
	close(pfd[1]);
	fd = open(piped, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ck_assert_int_ge(fd, 0);
	for (;;) {
		static uint8_t buf[1 << 16];
		ssize_t n = read(pfd[0], buf, sizeof(buf));

		ck_assert_int_ge(n, 0);
		if (n == 0)
			break;
		ck_assert_int_eq(write(fd, buf, (size_t)n), n);
	}
	close(fd);
	close(pfd[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	files_equal(elf, piped, "pipe output");

	/* Atomic output: refused without force, nothing left on abort. */
	ck_assert_int_eq(dk_out_open(&ou, elf, 0, &err), DK_ESYS);
	ck_assert_int_eq(err.sys_errno, EEXIST);
	ck_assert_int_eq(dk_out_open(&ou, out, 0, &err), DK_OK);
	dk_sink_init(&s, ou.fd, out);
	ck_assert_int_eq(dk_elfmini_write(src, &s, 0, &err), DK_OK);
	dk_out_abort(&ou);
	ck_assert_int_eq(access(out, F_OK), -1);
	ck_assert_int_eq(dk_out_open(&ou, out, 0, &err), DK_OK);
	dk_sink_init(&s, ou.fd, out);
	ck_assert_int_eq(dk_elfmini_write(src, &s, 0, &err), DK_OK);
	ck_assert_int_eq(dk_out_commit(&ou, &err), DK_OK);
	files_equal(elf, out, "committed output");
	dk_close(src);
	fx_free(&f);
	rm_tmp();
}
END_TEST

/* The plan says what the writer writes. */
START_TEST(test_plan)
{
	struct fx_opts o = { .arch = "riscv64", .version = 2,
	    .mem = 32u << 20, .seed = 8, .compact = 1 };
	struct fx_dump f;
	char nat[512], elf[512];
	struct dk_dump *src;
	struct dk_elfmini_plan pl;
	struct dk_err err;
	struct elfview v;

	setup_tmp();
	tmp_path(nat, sizeof(nat), "native");
	tmp_path(elf, sizeof(elf), "elf");
	make_fixture(&f, &o, nat);
	src = open_path(nat, NULL);
	ck_assert_int_eq(dk_elfmini_plan(src, 0, &pl, &err), DK_OK);
	convert(src, TO_ELF, 0, elf);
	elf_open_view(elf, &v);
	ck_assert_uint_eq(pl.nphys, v.info.nphys);
	ck_assert_uint_eq(1 + pl.nphys + pl.nvirt, v.nph);
	ck_assert_uint_eq(pl.notes_size, v.ph[0].p_filesz);
	ck_assert_uint_eq(pl.data_offset, v.info.data_offset);
	ck_assert_uint_eq(pl.file_size, v.size);
	ck_assert_uint_eq(pl.residue, 0);
	elf_close_view(&v);
	dk_close(src);
	fx_free(&f);
	rm_tmp();
}
END_TEST

static Suite *
elfmini_suite(void)
{
	Suite *s = suite_create("elfmini");
	TCase *mat = tcase_create("matrix");
	TCase *res = tcase_create("residue");
	TCase *xn = tcase_create("xnum");
	TCase *cor = tcase_create("corrupt");
	TCase *io = tcase_create("io");
	int n = (int)nvariants();

	tcase_add_loop_test(mat, test_matrix, 0, dk_test_loop_end(2 * n));
	tcase_add_test(mat, test_no_virtual);
	tcase_add_loop_test(mat, test_window_segments, 0, 3);
	tcase_set_timeout(mat, 600);
	tcase_add_loop_test(res, test_residue, 0, dk_test_loop_end((int)(
	    NDAMAGE * (sizeof(residue_rows) / sizeof(residue_rows[0])))));
	tcase_set_timeout(res, 300);
	tcase_add_test(xn, test_xnum);
	tcase_add_test(xn, test_alternate_model);
	tcase_set_timeout(xn, 300);
	tcase_add_loop_test(cor, test_corrupt, 0,
	    dk_test_loop_end((int)(sizeof(corrupt_rows) /
	    sizeof(corrupt_rows[0]))));
	tcase_set_timeout(cor, 600);
	tcase_add_test(io, test_io);
	tcase_add_test(io, test_plan);
	tcase_set_timeout(io, 300);
	suite_add_tcase(s, mat);
	suite_add_tcase(s, res);
	suite_add_tcase(s, xn);
	suite_add_tcase(s, cor);
	suite_add_tcase(s, io);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(elfmini_suite());
	int nfailed;

	srunner_run_all(sr, CK_ENV);
	nfailed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nfailed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
