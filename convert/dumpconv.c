/*
 * dumpconv -- convert a kernel dump to the portable ELF minidump
 * (docs/portable-elf-minidump.md), or a portable file back to the native
 * dump it came from, byte for byte.
 *
 * A thin tool over libdumpkit.  The output is written to a temporary
 * file beside the target, fsynced and renamed into place; an existing
 * target is replaced only with --force; on error nothing is left.
 * Exit status: 0 converted, 2 the input could not be read or the output
 * written, 3 usage error.
 */
#include <elf.h>
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "compress.h"
#include "kdump.h"
#include "kthreads.h"
#include "minidump.h"
#include "vmcore_write.h"
#include "../validate/savecore.h"
#include "../validate/tool.h"

#define	PROGRESS_MIN	(256ull << 20)	/* show progress above this size */

static const char usage_text[] =
"usage: dumpconv [--to elf|native|tar] [--no-virtual] [--drop-zero]\n"
"                [--force] [-q] [-v]\n"
"                [--to portable] [--vmcoreinfo FILE] [--elf32]\n"
"                [--compress gzip|zstd|xz]\n"
"                [--arch ARCH] [--kernel FILE [--no-threads]]\n"
"                INPUT -o OUTPUT\n"
"       dumpconv --to kdump [--compress zlib|lzo|snappy|zstd|none[:LEVEL]]\n"
"                [--threads N] [--split N] [--exclude-zero | --keep-zero]\n"
"                [--force] [--arch ARCH] [--page-size N] INPUT... -o OUTPUT|-\n"
"       dumpconv --info [--json] [--to elf|native|kdump] INPUT\n"
"       dumpconv --info [--json] --to portable INPUT\n"
"       dumpconv --help | --version\n";

static const char help_text[] =
"Convert a kernel dump that libdumpkit reads into a portable ELF minidump,\n"
"which readelf, gdb and libkdumpfile open, or a portable file back into\n"
"its native format, byte for byte.\n"
"\n"
"  -t, --to elf|native|tar|kdump  the output format (default elf); tar:\n"
"                       the tar archive of a text dump, blocks put in\n"
"                       order; kdump: makedumpfile's kdump-compressed\n"
"                       format (see below)\n"
"      --to portable    the portable ELF minidump, the default; --to elf\n"
"                       is the same for a FreeBSD dump, and for a Linux\n"
"                       dump (kdump-compressed, ELF vmcore) a Linux ELF\n"
"                       vmcore as makedumpfile -E writes (see below)\n"
"      --vmcoreinfo FILE  with --to elf of a Linux dump without VMCOREINFO:\n"
"                       add FILE's KEY=value lines as its VMCOREINFO note\n"
"      --elf32          with --to elf of a 32-bit Linux dump: ELFCLASS32;\n"
"                       with --to elf --kernel FILE of a FreeBSD dump of a\n"
"                       32-bit kernel (arm, mips o32): an ELFCLASS32 core\n"
"                       for gdb (the thread notes, the kernel map), not a\n"
"                       portable file (docs/kthreads.md)\n"
"  -o, --output FILE    where to write; - for standard output\n"
"  -f, --force          replace OUTPUT if it exists\n"
"      --no-virtual     leave out the kernel-map PT_LOAD segments\n"
"      --drop-zero      leave out a full ELF core's pages of zeros (they\n"
"                       read as zeros, and come back with --to native)\n"
"  -z, --compress gzip|zstd|xz  compress the output (one stream, fixed\n"
"                       level: gzip 6, zstd 3, xz 6); see below.  With\n"
"                       --to kdump: each page's codec, NAME[:LEVEL]\n"
"      --threads N      --to kdump: compress with N threads (default 1);\n"
"                       the bytes written are the same for every N\n"
"      --split N        --to kdump: N files OUTPUT.1 ... OUTPUT.N, a\n"
"                       makedumpfile --split set\n"
"      --exclude-zero   --to kdump: leave zero pages out of bitmap 2 (by\n"
"                       default they share one stored zero page, as\n"
"                       makedumpfile -d 1 writes them: dump level 1)\n"
"      --keep-zero      --to kdump: store each zero page as any other,\n"
"                       as makedumpfile -d 0 does (dump level 0)\n"
"  -i, --info           print what would be written; write nothing\n"
"  -j, --json           with --info: one JSON object\n"
"  -a, --arch ARCH      the input's architecture, where it cannot tell\n"
"  -k, --kernel FILE    the kernel's ELF image, to decide the architecture;\n"
"                       and the threads: one NT_PRSTATUS per kernel\n"
"                       thread (the crashed one first), NT_PRPSINFO, the\n"
"                       thread table and NT_GNU_BUILD_ID, so that gdb\n"
"                       shows threads, registers and backtraces\n"
"                       (docs/kthreads.md)\n"
"      --page-size N    the page size, where the dump cannot tell (an\n"
"                       aarch64 or ppc64 vmcore without VMCOREINFO)\n"
"      --no-threads     with --kernel: no thread notes (a damaged\n"
"                       process list still converts)\n"
"  -q, --quiet          no progress line\n"
"  -v, --verbose        say what was written\n"
"  -h, --help           this text\n"
"  -V, --version        print the version\n"
"\n"
"A compressed INPUT (gzip, zstd or xz, recognised by its content, e.g.\n"
"savecore's vmcore.N.gz or vmcore.N.zst) is decompressed once into an\n"
"unlinked temporary file in TMPDIR (default /tmp), which disappears when\n"
"dumpconv exits: that costs one decompression pass, and TMPDIR needs room\n"
"for the dump's allocated size (its zero pages are holes).\n"
"\n"
"--to native --compress gzip or zstd writes what savecore writes\n"
"(vmcore.N.gz, vmcore.N.zst).  A compressed portable ELF file is for\n"
"archiving: dumpkit reads it as it is, but readelf, gdb and libkdumpfile\n"
"need it decompressed first (gzip -d, zstd -d, xz -d).\n"
"\n"
"--to elf of a Linux dump writes one PT_NOTE (its notes: NT_PRSTATUS of\n"
"each CPU, VMCOREINFO...) and a PT_LOAD per run of present physical\n"
"memory, with p_paddr and the direct-map p_vaddr where VMCOREINFO tells\n"
"it (x86_64 also the kernel-text PT_LOADs, sharing those bytes); a page\n"
"the dump left out (excluded by the dump level, or past the end of a cut\n"
"file) ends a PT_LOAD, it is never written as zeros.  Without --to elf a\n"
"Linux ELF vmcore becomes a portable file too (its headers and notes in a\n"
"note, the rest as it is), which --to native turns back byte for byte.\n"
"\n"
"--to kdump writes header version 6 (64-bit layout, the input's byte\n"
"order) from any input with physical memory: kdump files (a new codec,\n"
"a split set given as its files joined, a flattened file rearranged),\n"
"Linux ELF vmcores, FreeBSD dumps (their metadata in DUMPKIT notes).\n"
"Codecs: zlib (levels 1-9, default 1, as makedumpfile -c), lzo (1:\n"
"lzo1x_1, the default; 9: lzo1x_999), snappy, zstd (1-19, default 1),\n"
"none; a page that does not shrink is stored as it is.  Zero pages share\n"
"one stored zero page (makedumpfile -d 1) unless --exclude-zero or\n"
"--keep-zero; the header's dump level says which (1, or the source's).\n"
"VMCOREINFO and the ELF notes are carried across.  -o - writes the\n"
"flattened form (makedumpfile -F) to standard output.\n"
"\n"
"INPUT may also be a raw image of the dump device (kerneldumpheader\n"
"leader and trailer, checked) or a vmcore that starts with one header;\n"
"--info shows the header.  Encrypted dumps are refused; text dumps\n"
"convert only --to tar.  See docs/kerneldumpheader.md.\n"
"\n"
"Exit status: 0 converted, 2 the input could not be read or the output\n"
"written, 3 usage error.\n";

static const struct tool tool = { "dumpconv", usage_text, help_text };

struct opts {
	int		 native;	/* --to native */
	int		 elf;		/* --to elf: a Linux dump's vmcore */
	int		 vmcore;	/* --to elf of a Linux dump (decided) */
	int		 core32;	/* --to elf --elf32 --kernel of a FreeBSD
					   dump: the ELFCLASS32 debugger core */
	const char	*vmcoreinfo;	/* --vmcoreinfo FILE */
	struct dk_vmw_opts vmw;
	int		 tar;		/* --to tar: a text dump's tar */
	int		 force;
	int		 info;
	int		 json;		/* --info --json */
	int		 quiet;
	int		 verbose;
	unsigned	 flags;		/* DK_ELFMINI_* */
	int		 no_threads;	/* --no-threads */
	enum dk_comp	 compress;	/* --compress */
	int		 kdump;		/* --to kdump */
	const char	*zname;		/* --compress as given */
	struct dk_kd_opts kd;		/* --to kdump's codec, threads */
	unsigned	 split;		/* --split N */
	int		 zero_given;	/* --keep-zero or --exclude-zero */
	int		 exclude_zero;	/* --exclude-zero */
	int		 keep_zero;	/* --keep-zero */
	const char	*in;
	const char	*out;
	struct dk_open_opts open;
};

/*
 * The temporary outputs' names, for the signal handler: a conversion
 * interrupted (^C, kill, SIGXFSZ from a file size limit) leaves nothing
 * behind, as one that fails does; a split set has one per part.  Copies,
 * so that the handler never reads what dk_out_commit() frees; each name
 * is whole before the count covers it (the store is fenced), and names
 * are registered with the signals blocked, from the temporary file's
 * creation on.  Once a file is renamed into place its name is gone and
 * unlink() does nothing.  This program's only globals.
 */
static char *tmp_names[KD_MAX_PARTS];
static volatile sig_atomic_t tmp_count;

static const int fatal_sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGXFSZ };

static void
on_fatal_signal(int sig)
{
	for (sig_atomic_t i = 0; i < tmp_count; i++)
		(void)unlink(tmp_names[i]);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Block (how SIG_BLOCK) or unblock (SIG_SETMASK, *old) the signals. */
static void
fatal_mask(int how, sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < DK_ARRAY_LEN(fatal_sigs); i++)
		sigaddset(&set, fatal_sigs[i]);
	if (how == SIG_BLOCK)
		(void)pthread_sigmask(SIG_BLOCK, &set, old);
	else
		(void)pthread_sigmask(SIG_SETMASK, old, NULL);
}

static void
catch_fatal_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fatal_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < DK_ARRAY_LEN(fatal_sigs); i++)
		sigaddset(&sa.sa_mask, fatal_sigs[i]);
	for (size_t i = 0; i < DK_ARRAY_LEN(fatal_sigs); i++) {
		struct sigaction old;

		/* An ignored signal stays ignored (nohup, trap ''). */
		if (sigaction(fatal_sigs[i], NULL, &old) == 0 &&
		    old.sa_handler != SIG_IGN && old.sa_handler !=
		    on_fatal_signal)
			(void)sigaction(fatal_sigs[i], &sa, NULL);
	}
}

/*
 * dk_out_open, its temporary name registered for the signal handler
 * before a signal can come between the two.
 */
static enum dk_status
out_open(struct dk_out *o, const char *path, int force, struct dk_err *err)
{
	enum dk_status st;
	sigset_t old;

	fatal_mask(SIG_BLOCK, &old);
	catch_fatal_signals();
	if ((st = dk_out_open(o, path, force, err)) == DK_OK &&
	    (size_t)tmp_count < DK_ARRAY_LEN(tmp_names)) {
		if ((tmp_names[tmp_count] = strdup(o->tmp)) == NULL) {
			dk_out_abort(o);
			st = dk_err_set(err, DK_ENOMEM, "out of memory");
		} else {
			atomic_signal_fence(memory_order_release);
			tmp_count++;
		}
	}
	fatal_mask(SIG_SETMASK, &old);
	return st;
}

/* The outputs are committed or removed: the handler has nothing to do. */
static void
tmp_forget(void)
{
	sig_atomic_t n = tmp_count;

	tmp_count = 0;
	atomic_signal_fence(memory_order_seq_cst);
	for (sig_atomic_t i = 0; i < n; i++) {
		free(tmp_names[i]);
		tmp_names[i] = NULL;
	}
}

/* The sink's progress callback: bytes written so far. */
static void
on_written(void *arg, uint64_t done)
{
	tool_progress(arg, done);
}

/* The kerneldumpheader a dump came in, as savecore's info.N shows it. */
static void
print_kdh(const struct dk_kdh_info *k)
{
	printf("kerneldumpheader: version %u, %s dump%s, %s\n", k->version,
	    k->magic_name, k->cleared ? " (trailer cleared: already saved)" :
	    "", k->placement_name);
	printf("  architecture: %s (architectureversion %u)\n",
	    k->architecture, k->architectureversion);
	time_t t = (time_t)k->dumptime;
	struct tm tm;
	char when[64] = "?";

	if (gmtime_r(&t, &tm) != NULL)
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	printf("  dump time:    %ju (%s)\n", (uintmax_t)k->dumptime, when);
	printf("  hostname:     %s\n", k->hostname);
	printf("  version:      %.*s\n", (int)strcspn(k->versionstring,
	    "\n"), k->versionstring);
	printf("  panic:        %s\n", k->panicstring);
	printf("  dump length:  %ju (extent %ju), blocksize %u", (uintmax_t)
	    k->dumplength, (uintmax_t)k->dumpextent, k->blocksize);
	if (k->dump_offset != UINT64_MAX)
		printf("; leader at %#jx, dump at %#jx", (uintmax_t)
		    k->leader_offset, (uintmax_t)k->dump_offset);
	printf("\n");
	printf("  compression:  %s; %s\n",
	    dk_kdh_compression_name(k->compression), k->encrypted ?
	    "encrypted" : "not encrypted");
}

/* --to tar: the text dump's archive, written in order. */
static int
to_tar(const struct opts *o)
{
	int to_stdout = strcmp(o->out, "-") == 0;
	struct dk_out out;
	struct dk_err err;
	enum dk_status st;

	if (to_stdout)
		st = dk_textdump_write(o->in, STDOUT_FILENO, &err);
	else if ((st = out_open(&out, o->out, o->force, &err)) == DK_OK) {
		if ((st = dk_textdump_write(o->in, out.fd, &err)) == DK_OK)
			st = dk_out_commit(&out, &err);
		else
			dk_out_abort(&out);
		tmp_forget();
	}
	if (st != DK_OK) {
		fprintf(stderr, "dumpconv: %s\n", err.msg);
		return err.code == DK_EINVAL ? TOOL_USAGE : TOOL_UNUSABLE;
	}
	if (o->verbose && !to_stdout)
		printf("%s: the text dump's tar archive\n", o->out);
	return TOOL_OK;
}

/*
 * A saved vmcore has no kerneldumpheader; savecore left its facts in
 * info.N beside it.  *si filled and 1 if there is one; a file that does
 * not parse is a warning.
 */
static int
saved_info(const struct dk_dump *d, const struct opts *o,
    struct savecore_info *si)
{
	struct dk_err err;
	enum dk_status st;

	if (dk_kdh(d) != NULL)
		return 0;
	if ((st = savecore_info_find(o->in, NULL, si, &err)) == DK_OK)
		return 1;
	if (st != DK_NOMATCH)
		fprintf(stderr, "dumpconv: warning: %s\n", err.msg);
	return 0;
}


static int	thread_notes(struct dk_dump *, const struct opts *,
		    uint8_t **, size_t *);

/* --info --json: the "input" object, the same for every output format. */
static void
json_input(struct json *j, const char *path, const struct dk_info *in)
{
	json_begin(j, "input", 0);
	json_str(j, "path", path);
	json_str(j, "format", in->format);
	json_u64(j, "version", in->version);
	json_str(j, "arch", in->arch);
	json_str(j, "byte_order", in->endian == DK_BE ? "big" : "little");
	json_u64(j, "pages", in->npages);
	json_u64(j, "pages_in_file", in->npages_present);
	json_end(j, 0);
}

/* --info --json: the same facts as the text, one JSON object. */
static int
info_json(struct dk_dump *d, const struct opts *o,
    const struct dk_elfmini_plan *p, size_t ntnotes)
{
	const struct dk_info *in = dk_info(d);
	const struct dk_kdh_info *k = dk_kdh(d);
	struct savecore_info si;
	struct json j;

	json_open(&j, stdout, 0);
	json_input(&j, o->in, in);
	json_begin(&j, "containers", 1);
	for (size_t i = 0; i < dk_nlayers(d); i++) {
		json_begin(&j, NULL, 0);
		json_str(&j, "kind", dk_layer(d, i)->kind);
		json_str(&j, "description", dk_layer(d, i)->desc);
		json_end(&j, 0);
	}
	json_end(&j, 1);
	if (k != NULL) {
		json_begin(&j, "kerneldumpheader", 0);
		json_u64(&j, "version", k->version);
		json_str(&j, "magic", k->magic_name);
		json_bool(&j, "cleared", k->cleared);
		json_str(&j, "placement", k->placement_name);
		json_str(&j, "architecture", k->architecture);
		json_u64(&j, "architectureversion", k->architectureversion);
		json_u64(&j, "dumptime", k->dumptime);
		json_str(&j, "hostname", k->hostname);
		json_str(&j, "versionstring", k->versionstring);
		json_str(&j, "panicstring", k->panicstring);
		json_u64(&j, "dumplength", k->dumplength);
		json_u64(&j, "dumpextent", k->dumpextent);
		json_u64(&j, "blocksize", k->blocksize);
		json_str(&j, "compression",
		    dk_kdh_compression_name(k->compression));
		json_bool(&j, "encrypted", k->encrypted);
		json_end(&j, 0);
	}
	if (saved_info(d, o, &si))
		savecore_info_json(&j, "savecore_info", &si);
	json_begin(&j, "output", 0);
	json_str(&j, "format", o->native ? "native" : "portable-elf");
	if (o->native) {
		json_str(&j, "source", p->source);
		json_u64(&j, "version", in->version);
		json_u64(&j, "residue", p->residue);
	} else {
		json_str(&j, "byte_order", in->endian == DK_BE ? "big" :
		    "little");
		json_u64(&j, "physical_loads", p->nphys);
		json_u64(&j, "virtual_loads", p->nvirt);
		json_u64(&j, "notes_size", p->notes_size);
		json_u64(&j, "thread_notes_size", ntnotes);
		json_u64(&j, "data_offset", p->data_offset);
		json_u64(&j, "file_size", p->file_size);
		json_u64(&j, "residue", p->residue);
		json_bool(&j, "drop_zero", (o->flags & DK_ELFMINI_DROP_ZERO) !=
		    0);
	}
	json_str(&j, "compression", o->compress != DK_COMP_NONE ?
	    dk_comp_name(o->compress) : NULL);
	json_end(&j, 0);
	json_end(&j, 0);
	return TOOL_OK;
}

static int
info(struct dk_dump *d, const struct opts *o)
{
	const struct dk_info *in = dk_info(d);
	struct dk_elfmini_plan p;
	struct savecore_info si;
	struct dk_err err;
	uint8_t *tnotes = NULL;
	size_t ntnotes = 0;
	int rc;

	/* With --kernel, the thread notes are part of the plan. */
	if (!o->native && (rc = thread_notes(d, o, &tnotes, &ntnotes)) != 0)
		return rc;
	free(tnotes);
	if (o->json) {
		if (dk_elfmini_plan_notes(d, o->flags, ntnotes, &p, &err) !=
		    DK_OK) {
			fprintf(stderr, "dumpconv: %s\n", err.msg);
			return TOOL_UNUSABLE;
		}
		return info_json(d, o, &p, ntnotes);
	}

	for (size_t i = 0; i < dk_nlayers(d); i++)
		printf("container:    %s: %s\n", dk_layer(d, i)->kind,
		    dk_layer(d, i)->desc);
	if (dk_kdh(d) != NULL)
		print_kdh(dk_kdh(d));
	else if (saved_info(d, o, &si))
		savecore_info_print(stdout, &si);	/* it names its file */

	printf("input:        %s: %s version %u, %s, %ju pages (%ju in the "
	    "file)\n", o->in, in->format, in->version, in->arch,
	    (uintmax_t)in->npages, (uintmax_t)in->npages_present);
	if (dk_elfmini_plan_notes(d, o->flags, ntnotes, &p, &err) != DK_OK) {
		fprintf(stderr, "dumpconv: %s\n", err.msg);
		return TOOL_UNUSABLE;
	}
	if (o->native) {
		/* A portable file's native format is its source's. */
		printf("output:       native %s version %u\n", p.source,
		    in->version);
		printf("residue:      %ju bytes written over the sections\n",
		    (uintmax_t)p.residue);
		if (o->compress != DK_COMP_NONE)
			printf("compression:  %s, one stream\n",
			    dk_comp_name(o->compress));
		return TOOL_OK;
	}
	printf("output:       portable ELF minidump, ELFCLASS64 %s\n",
	    in->endian == DK_BE ? "big-endian" : "little-endian");
	printf("segments:     1 PT_NOTE, %ju physical PT_LOAD, %ju virtual "
	    "PT_LOAD%s\n", (uintmax_t)p.nphys, (uintmax_t)p.nvirt,
	    p.nphys + p.nvirt + 1 >= 0xffff ? " (PN_XNUM)" : "");
	printf("notes:        %ju bytes", (uintmax_t)p.notes_size);
	if (ntnotes > 0)
		printf(", %zu of them the threads' (--kernel)", ntnotes);
	printf("\n");
	printf("page data:    at %#jx, %ju bytes\n", (uintmax_t)p.data_offset,
	    (uintmax_t)(p.file_size - p.data_offset));
	printf("file size:    %ju bytes\n", (uintmax_t)p.file_size);
	printf("residue:      %ju bytes kept verbatim\n",
	    (uintmax_t)p.residue);
	if (o->compress != DK_COMP_NONE)
		printf("compression:  %s, one stream (the file size above is "
		    "before it)\n", dk_comp_name(o->compress));
	return TOOL_OK;
}

/*
 * With --kernel (and not --no-threads): the threads' notes, from the
 * process list the kernel's symbols locate (kthreads.c).  Without it,
 * -v says what --kernel would add.  Returns a tool exit status.
 */
static int
thread_notes(struct dk_dump *d, const struct opts *o, uint8_t **buf,
    size_t *len)
{
	struct dk_kthreads kt;
	struct dk_err err;
	enum dk_status st;

	if (o->open.kernel == NULL || o->no_threads) {
		if (o->verbose && o->open.kernel == NULL)
			fprintf(stderr, "dumpconv: %s: no threads: with "
			    "--kernel FILE the file would also hold one "
			    "NT_PRSTATUS per kernel thread, NT_PRPSINFO and "
			    "the kernel's build-id, for gdb's info threads "
			    "and bt\n", o->in);
		return TOOL_OK;
	}
	if ((st = dk_kthreads_load(d, o->open.kernel, 0, &kt, &err)) ==
	    DK_OK && kt.regs == NULL) {
		st = DK_EUNSUP;
		snprintf(err.msg, sizeof(err.msg), "%s: the registers of a %s "
		    "thread are not decoded yet", o->in, dk_info(d)->arch);
		dk_kthreads_free(&kt);
	}
	if (st == DK_EUNSUP) {
		/* Not a list to walk, or no decoder: the file as before. */
		if (!o->quiet)
			fprintf(stderr, "dumpconv: warning: no thread notes: "
			    "%s\n", err.msg);
		return TOOL_OK;
	}
	if (st != DK_OK || dk_kthreads_notes(d, &kt, buf, len, &err) !=
	    DK_OK) {
		fprintf(stderr, "dumpconv: %s\ndumpconv: --no-threads "
		    "converts without the thread notes\n", err.msg);
		dk_kthreads_free(&kt);
		return TOOL_UNUSABLE;
	}
	if (o->verbose)
		fprintf(stderr, "dumpconv: %s: %zu processes, %zu threads; "
		    "the crashed thread: %s\n", o->in, kt.nprocs,
		    kt.nthreads, kt.crashed != SIZE_MAX ?
		    kt.threads[kt.crashed].name : "not found (no dumptid)");
	dk_kthreads_free(&kt);
	return TOOL_OK;
}

/* --vmcoreinfo FILE: its bytes, KEY=value lines, into o->vmw. */
static int
read_vmcoreinfo(struct opts *o)
{
	FILE *f = fopen(o->vmcoreinfo, "rb");
	char *b = NULL;
	size_t n = 0;

	if (f == NULL || (b = malloc(DK_VMW_MAX_VMCOREINFO + 1)) == NULL) {
		fprintf(stderr, "dumpconv: --vmcoreinfo %s: %s\n",
		    o->vmcoreinfo, f == NULL ? strerror(errno) :
		    "out of memory");
		if (f != NULL)
			fclose(f);
		return TOOL_UNUSABLE;
	}
	n = fread(b, 1, DK_VMW_MAX_VMCOREINFO + 1, f);
	if (ferror(f) || n > DK_VMW_MAX_VMCOREINFO || n == 0 ||
	    memchr(b, '=', n) == NULL || memchr(b, '\0', n) != NULL) {
		fprintf(stderr, "dumpconv: --vmcoreinfo %s: %s\n",
		    o->vmcoreinfo, ferror(f) ? strerror(errno) :
		    n > DK_VMW_MAX_VMCOREINFO ? "more than the 1 MiB dumpkit "
		    "carries" : "expected KEY=value lines (VMCOREINFO text, "
		    "as /sys/kernel/vmcoreinfo's note holds), found none");
		fclose(f);
		free(b);
		return TOOL_UNUSABLE;
	}
	fclose(f);
	o->vmw.vmcoreinfo = b;
	o->vmw.vmcoreinfo_len = n;
	o->vmw.vmcoreinfo_name = o->vmcoreinfo;
	return TOOL_OK;
}

/* --info --to elf of a Linux dump: the vmcore that would be written. */
static int
vmcore_info(struct dk_dump *d, const struct opts *o)
{
	const struct dk_info *in = dk_info(d);
	static const char *const vmci[] = { "none", "the dump's", "added" };
	struct dk_vmw_plan p;
	struct dk_err err;
	struct json j;

	if (dk_vmw_plan(d, &o->vmw, &p, &err) != DK_OK) {
		fprintf(stderr, "dumpconv: %s\n", err.msg);
		return err.code == DK_EINVAL ? TOOL_USAGE : TOOL_UNUSABLE;
	}
	if (o->json) {
		json_open(&j, stdout, 0);
		json_input(&j, o->in, in);
		json_begin(&j, "output", 0);
		json_str(&j, "format", "linux-elf-vmcore");
		json_u64(&j, "elf_class", p.cls == ELFCLASS64 ? 64 : 32);
		json_str(&j, "byte_order", p.e == DK_BE ? "big" : "little");
		json_u64(&j, "e_machine", p.machine);
		json_u64(&j, "program_headers", p.nphdr);
		json_bool(&j, "pn_xnum", p.xnum);
		json_u64(&j, "physical_loads", p.nload);
		json_u64(&j, "kernel_text_loads", p.nalias);
		json_u64(&j, "notes_size", p.notes_size);
		json_str(&j, "vmcoreinfo", vmci[p.vmcoreinfo]);
		json_u64(&j, "direct_map", p.direct_map);
		json_str(&j, "direct_map_from", p.direct_map_why);
		json_u64(&j, "data_offset", p.data_off);
		json_u64(&j, "file_size", p.file_size);
		json_u64(&j, "missing_pages", p.missing);
		json_end(&j, 0);
		json_end(&j, 0);
	} else {
		printf("input:        %s: %s version %u, %s, %ju pages\n", o->in,
		    in->format, in->version, in->arch, (uintmax_t)in->npages);
		printf("output:       Linux ELF vmcore, ELFCLASS%d %s, "
		    "e_machine %u\n", p.cls == ELFCLASS64 ? 64 : 32, p.e ==
		    DK_BE ? "big-endian" : "little-endian", p.machine);
		printf("segments:     1 PT_NOTE, %zu PT_LOAD, %zu kernel-text "
		    "PT_LOAD%s\n", p.nload, p.nalias, p.xnum ? " (PN_XNUM)" :
		    "");
		printf("notes:        %ju bytes, VMCOREINFO %s\n",
		    (uintmax_t)p.notes_size, vmci[p.vmcoreinfo]);
		printf("p_vaddr:      %#jx + pa (%s)\n",
		    (uintmax_t)p.direct_map, p.direct_map_why);
		printf("page data:    at %#jx, %ju bytes\n", (uintmax_t)
		    p.data_off, (uintmax_t)(p.file_size - p.data_off));
		printf("file size:    %ju bytes\n", (uintmax_t)p.file_size);
		if (p.missing > 0)
			printf("missing:      %ju pages the dump lacks, left "
			    "out\n", (uintmax_t)p.missing);
	}
	dk_vmw_plan_free(&p);
	return TOOL_OK;
}

static int
convert(struct dk_dump *d, const struct opts *o)
{
	int to_stdout = strcmp(o->out, "-") == 0;
	struct tool_progress pr;
	struct dk_elfmini_plan plan;
	struct dk_vmw_plan done = { 0 };
	struct dk_out out = { .fd = -1 };
	struct dk_sink sink;
	struct dk_zout *z = NULL;
	struct dk_err err;
	enum dk_status st = DK_OK;
	uint64_t total = dk_info(d)->file_size;
	uint8_t *tnotes = NULL;
	size_t ntnotes = 0;

	if (!o->native && (st = thread_notes(d, o, &tnotes, &ntnotes)) != 0)
		return (int)st;

	/* The output's size, for the progress line only (it costs a walk). */
	tool_progress_start(&pr, &tool, o->in, "written", total, PROGRESS_MIN,
	    o->quiet);
	if (pr.on && !o->native && !o->vmcore && !o->core32 &&
	    dk_elfmini_plan_notes(d, o->flags, ntnotes, &plan, &err) == DK_OK)
		pr.total = plan.file_size;
	if (!to_stdout && out_open(&out, o->out, o->force, &err) != DK_OK) {
		fprintf(stderr, "dumpconv: %s\n", err.msg);
		free(tnotes);
		return TOOL_UNUSABLE;
	}
	dk_sink_init(&sink, to_stdout ? STDOUT_FILENO : out.fd,
	    to_stdout ? "standard output" : o->out);
	if (pr.on) {
		sink.progress = on_written;
		sink.progress_arg = &pr;
	}
	if (o->compress != DK_COMP_NONE) {
		if (!o->native)
			fprintf(stderr, "dumpconv: warning: %s: an ELF file "
			    "compressed with %s: readelf, gdb and libkdumpfile "
			    "need it decompressed first\n", o->out,
			    dk_comp_name(o->compress));
		if ((st = dk_zout_open(&z, o->compress, sink.fd, sink.name,
		    &err)) == DK_OK)
			dk_sink_compress(&sink, z);
	}
	if (st == DK_OK && o->native)
		st = dk_native_write(d, &sink, &err);
	else if (st == DK_OK && o->vmcore)
		st = dk_vmcore_write(d, &sink, &o->vmw, &done, &err);
	else if (st == DK_OK && o->core32)
		st = dk_kthreads_core32(d, &sink, tnotes, ntnotes, &err);
	else if (st == DK_OK)
		st = dk_elfmini_write_notes(d, &sink, o->flags, tnotes, ntnotes,
		    &err);
	/* The rest of a one-pass input, checked before the output stands. */
	if (st == DK_OK)
		st = dk_stream_end(d, &err);
	if (st == DK_OK && z != NULL)
		st = dk_zout_finish(z, &err);
	if (st == DK_OK)
		tool_progress_end(&pr, sink.done);
	else
		tool_progress_clear(&pr);
	if (st == DK_OK && !to_stdout)
		st = dk_out_commit(&out, &err);
	else if (!to_stdout)
		dk_out_abort(&out);
	tmp_forget();
	if (st != DK_OK) {
		dk_zout_free(z);
		free(tnotes);
		/* Most messages name their file already. */
		if (strncmp(err.msg, o->in, strlen(o->in)) == 0 ||
		    (!to_stdout && strncmp(err.msg, o->out,
		    strlen(o->out)) == 0))
			fprintf(stderr, "dumpconv: %s\n", err.msg);
		else
			fprintf(stderr, "dumpconv: %s: %s\n", o->in, err.msg);
		/* An option this input cannot take (--drop-zero): usage. */
		return err.code == DK_EINVAL ? TOOL_USAGE : TOOL_UNUSABLE;
	}
	if (done.missing > 0)
		fprintf(stderr, "dumpconv: warning: %s: %ju pages that %s "
		    "lacks are left out (each ends a PT_LOAD)\n", o->out,
		    (uintmax_t)done.missing, o->in);
	if (o->verbose)
		fprintf(stderr, "dumpconv: %s -> %s: %s, %ju bytes\n", o->in,
		    o->out, o->native ? "native" : o->vmcore ?
		    "Linux ELF vmcore" : "portable ELF minidump",
		    (uintmax_t)sink.pos);
	if (o->verbose && z != NULL) {
		uint64_t zin, zout;

		dk_zout_counts(z, &zin, &zout);
		fprintf(stderr, "dumpconv: %s: %s, %ju bytes\n", o->out,
		    dk_comp_name(o->compress), (uintmax_t)zout);
	}
	dk_zout_free(z);
	free(tnotes);
	return TOOL_OK;
}

/*
 * --compress means a page codec with --to kdump, a whole-file
 * compressor otherwise; --threads, --split and --keep-zero need --to
 * kdump.
 */
static int
kdump_options(struct opts *o)
{
	char why[160];

	if (!o->kdump) {
		if (o->kd.threads != 0 || o->split != 0 || o->zero_given)
			return tool_usage_error(&tool, "--threads, --split, "
			    "--keep-zero and --exclude-zero go with --to kdump");
		if (o->zname != NULL && (o->compress = dk_comp_by_name(
		    o->zname)) == DK_COMP_NONE)
			return tool_usage_error(&tool, "--compress: expected "
			    "gzip, zstd or xz (the whole file's; with --to "
			    "kdump, zlib, lzo, snappy, zstd or none per page), "
			    "found '%s'", o->zname);
		return TOOL_OK;
	}
	/*
	 * Zero pages are not stored one by one, as makedumpfile -d 1 and
	 * QEMU write them: each descriptor points at one shared zero page,
	 * which every reader reads.  --exclude-zero leaves them out of
	 * bitmap 2 instead (a smaller file, but makedumpfile, libkdumpfile
	 * and crash then refuse to read them: crash needs --zero_excluded).
	 * Both are dump level 1 to makedumpfile.  --keep-zero stores each
	 * zero page as any other, as makedumpfile -d 0 does: dump level 0.
	 */
	o->kd.keep_zero = !o->exclude_zero;
	o->kd.store_zero = o->keep_zero;
	o->kd.codec = KD_DH_ZLIB;
	o->kd.level = 1;
	if (o->zname != NULL && dk_kd_codec_parse(o->zname, &o->kd.codec,
	    &o->kd.level, why, sizeof(why)) != 0)
		return tool_usage_error(&tool, "--compress with --to kdump (a "
		    "codec per page): %s", why);
	if (o->kd.threads == 0)
		o->kd.threads = 1;
	if (o->split == 0)
		o->split = 1;
	if (o->split > 1 && o->out != NULL && strcmp(o->out, "-") == 0)
		return tool_usage_error(&tool, "--split writes files, not "
		    "standard output");
	return TOOL_OK;
}

/* The name of part i of OUTPUT (OUTPUT itself unless --split). */
static void
part_name(const struct opts *o, unsigned i, char *buf, size_t len)
{
	if (o->split > 1)
		snprintf(buf, len, "%s.%u", o->out, i + 1);
	else
		snprintf(buf, len, "%s", o->out);
}

/* --to kdump --info: what would be written. */
static int
kdump_info(struct dk_dump *d, const struct opts *o)
{
	const struct dk_info *in = dk_info(d);
	struct dk_kd_wspec s;
	struct dk_err err;
	uint64_t cand, bm;

	if (dk_kd_spec_from_dump(d, &o->kd, &s, &err) != DK_OK) {
		fprintf(stderr, "dumpconv: %s\n", err.msg);
		return TOOL_UNUSABLE;
	}
	cand = dk_bitmap_rank(s.dump, s.dump->nbits);
	bm = ((s.max_mapnr + 7) / 8 + s.block - 1) / s.block * s.block;
	if (o->json) {
		struct json j;

		json_open(&j, stdout, 0);
		json_input(&j, o->in, in);
		json_begin(&j, "output", 0);
		json_str(&j, "format", "kdump");
		json_u64(&j, "header_version", s.version);
		json_str(&j, "layout", "LP64");
		json_str(&j, "byte_order", s.e == DK_BE ? "big" : "little");
		json_u64(&j, "block_size", s.block);
		json_str(&j, "codec", dk_kd_codec_name(s.codec));
		json_u64(&j, "level", (uint64_t)s.level);
		json_u64(&j, "max_mapnr", s.max_mapnr);
		json_u64(&j, "bitmap_bytes", bm);
		json_u64(&j, "pages_to_store", cand);
		json_bool(&j, "keep_zero", s.keep_zero);
		json_bool(&j, "store_zero", s.store_zero);
		json_u64(&j, "dump_level", dk_kd_dump_level(&s));
		json_u64(&j, "notes_size", s.notes_size);
		json_u64(&j, "vmcoreinfo_size", s.vmci_size);
		json_str(&j, "machine", s.uts.s[KD_F_MACHINE]);
		json_u64(&j, "files", o->split);
		json_u64(&j, "threads", s.threads);
		json_end(&j, 0);
		json_end(&j, 0);
		dk_kd_spec_free(&s);
		return TOOL_OK;
	}
	printf("input:        %s: %s version %u, %s, %ju pages\n", o->in,
	    in->format, in->version, in->arch, (uintmax_t)in->npages);
	printf("output:       kdump-compressed, header version 6, 64-bit "
	    "layout, %s-endian, %s\n", s.e == DK_BE ? "big" : "little",
	    o->split > 1 ? "a split set" : o->out != NULL && strcmp(o->out,
	    "-") == 0 ? "flattened" : "one file");
	printf("utsname:      machine \"%s\", release \"%s\"\n",
	    s.uts.s[KD_F_MACHINE], s.uts.s[KD_F_RELEASE]);
	printf("blocks:       %u bytes; max_mapnr %#jx; bitmaps 2 x %ju "
	    "bytes\n", s.block, (uintmax_t)s.max_mapnr, (uintmax_t)bm);
	printf("pages:        %ju to store; zero pages %s; dump level %u\n",
	    (uintmax_t)cand, s.store_zero ? "stored as any page (as "
	    "makedumpfile -d 0)" : s.keep_zero ? "kept on one shared page (as "
	    "makedumpfile -d 1)" : "left out of bitmap 2, found as they are "
	    "written", dk_kd_dump_level(&s));
	if (s.codec == 0)
		printf("codec:        none\n");
	else
		printf("codec:        %s level %d; a page that does not shrink "
		    "is stored as it is\n", dk_kd_codec_name(s.codec),
		    s.level);
	printf("notes:        %ju bytes (VMCOREINFO %ju)\n",
	    (uintmax_t)s.notes_size, (uintmax_t)s.vmci_size);
	printf("threads:      %u\n", s.threads);
	if (o->split > 1)
		printf("files:        %u (OUTPUT.1 to OUTPUT.%u), the pages "
		    "to store shared evenly\n", o->split, o->split);
	dk_kd_spec_free(&s);
	return TOOL_OK;
}

/*
 * Commit the nf files of a set (st DK_OK) or remove them all: the set
 * appears whole or not at all.  The slow part (fsync) is done first, the
 * signal handler still removing every temporary file; the renames then
 * with the signals blocked (one that comes is taken once the set is in
 * place); a rename that fails removes the parts already renamed.
 */
static enum dk_status
commit_all(struct dk_out *files, const char (*names)[4200], unsigned nf,
    enum dk_status st, struct dk_err *err)
{
	unsigned done = 0;
	sigset_t old;

	for (unsigned i = 0; i < nf && st == DK_OK; i++)
		st = dk_out_sync(&files[i], err);
	fatal_mask(SIG_BLOCK, &old);
	for (unsigned i = 0; i < nf; i++)
		if (st == DK_OK && (st = dk_out_commit(&files[i], err)) ==
		    DK_OK)
			done++;
		else
			dk_out_abort(&files[i]);	/* again: harmless */
	for (unsigned i = 0; st != DK_OK && i < done; i++)
		(void)unlink(names[i]);
	tmp_forget();
	fatal_mask(SIG_SETMASK, &old);
	return st;
}

/* --to kdump: one file, a split set, or the flattened stream. */
static int
to_kdump(struct dk_dump *d, const struct opts *o)
{
	int to_stdout = strcmp(o->out, "-") == 0;
	struct dk_kd_out *outs = calloc(o->split, sizeof(*outs));
	struct dk_out *files = calloc(o->split, sizeof(*files));
	char (*names)[4200] = calloc(o->split, sizeof(*names));
	struct dk_kd_wspec s;
	struct dk_err err;
	enum dk_status st;
	unsigned nf = 0;
	int rc = TOOL_OK;

	if (outs == NULL || files == NULL || names == NULL) {
		fprintf(stderr, "dumpconv: out of memory\n");
		rc = TOOL_UNUSABLE;
		goto out;
	}
	if (dk_kd_spec_from_dump(d, &o->kd, &s, &err) != DK_OK) {
		fprintf(stderr, "dumpconv: %s\n", err.msg);
		rc = TOOL_UNUSABLE;
		goto out;
	}
	st = DK_OK;
	for (unsigned i = 0; i < o->split && st == DK_OK; i++) {
		part_name(o, i, names[i], sizeof(names[i]));
		outs[i].name = to_stdout ? "standard output" : names[i];
		outs[i].flat = to_stdout;
		outs[i].fd = STDOUT_FILENO;
		if (to_stdout)
			continue;
		if ((st = out_open(&files[i], names[i], o->force, &err)) ==
		    DK_OK) {
			outs[i].fd = files[i].fd;
			outs[i].writeback = dk_out_syncs();
			nf++;
		}
	}
	if (st == DK_OK)
		st = dk_kd_write(&s, outs, o->split, &err);
	/* A one-pass stream's end is checked before anything is renamed. */
	if (st == DK_OK)
		st = dk_stream_end(d, &err);
	st = commit_all(files, names, nf, st, &err);
	if (st != DK_OK) {
		fprintf(stderr, "dumpconv: %s%s\n", err.msg, to_stdout ? "" :
		    "; nothing was written at the target");
		dk_kd_spec_free(&s);
		rc = err.code == DK_EINVAL ? TOOL_USAGE : TOOL_UNUSABLE;
		goto out;
	}
	if (o->verbose)
		fprintf(stderr, "dumpconv: %s -> %s: kdump %s, %ju pages stored "
		    "(%ju as they are), %ju zero pages %s, %ju missing, %ju "
		    "bytes in %u file(s)\n", o->in, o->out,
		    dk_kd_codec_name(s.codec), (uintmax_t)s.n_stored,
		    (uintmax_t)s.n_raw, (uintmax_t)s.n_zero, s.keep_zero ?
		    "shared" : "left out", (uintmax_t)s.n_missing,
		    (uintmax_t)s.bytes, o->split);
	dk_kd_spec_free(&s);
out:
	free(outs);
	free(files);
	free(names);
	return rc;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "to", required_argument, NULL, 't' },
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "no-virtual", no_argument, NULL, 'N' },
		{ "drop-zero", no_argument, NULL, 'Z' },
		{ "compress", required_argument, NULL, 'z' },
		{ "info", no_argument, NULL, 'i' },
		{ "json", no_argument, NULL, 'j' },
		{ "arch", required_argument, NULL, 'a' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "no-threads", no_argument, NULL, 0x100 },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "vmcoreinfo", required_argument, NULL, 'C' },
		{ "elf32", no_argument, NULL, '3' },
		{ "threads", required_argument, NULL, 0x140 },
		{ "split", required_argument, NULL, 0x141 },
		{ "keep-zero", no_argument, NULL, 0x142 },
		{ "exclude-zero", no_argument, NULL, 0x143 },
		{ "page-size", required_argument, NULL, 0x144 },
		TOOL_LONGOPTS_END
	};
	struct opts o = { 0 };
	struct dk_dump *d;
	struct dk_err err;
	uint64_t n;
	int c, rc;

	/* getopt names the program by argv[0]: the tool, not its path. */
	argv[0] = "dumpconv";
	while ((c = getopt_long(argc, argv, "t:o:fija:k:qvhVz:", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 't':
			if (strcmp(optarg, "native") == 0)
				o.native = 1;
			else if (strcmp(optarg, "tar") == 0)
				o.tar = 1;
			else if (strcmp(optarg, "kdump") == 0)
				o.kdump = 1;
			else if (strcmp(optarg, "elf") == 0)
				o.elf = 1;
			else if (strcmp(optarg, "portable") == 0)
				o.elf = 0;
			else
				return tool_usage_error(&tool, "--to: expected "
				    "elf, native or kdump (portable, or tar for "
				    "a text dump), found '%s'", optarg);
			break;
		case 'C':
			o.vmcoreinfo = optarg;
			break;
		case '3':
			o.vmw.flags |= DK_VMW_ELF32;
			break;
		case 'o':
			o.out = optarg;
			break;
		case 'f':
			o.force = 1;
			break;
		case 'N':
			o.flags |= DK_ELFMINI_NO_VIRTUAL;
			break;
		case 'Z':
			o.flags |= DK_ELFMINI_DROP_ZERO;
			break;
		case 'z':
			o.zname = optarg;	/* its meaning needs --to */
			break;
		case 0x140:
		case 0x141:
			if (dk_parse_u64(optarg, &n) != 0 || n == 0 || n >
			    (c == 0x140 ? 64 : 1024))
				return tool_usage_error(&tool, "--%s: expected "
				    "1 to %u, found '%s'", c == 0x140 ?
				    "threads" : "split", c == 0x140 ? 64 : 1024,
				    optarg);
			if (c == 0x140)
				o.kd.threads = (unsigned)n;
			else
				o.split = (unsigned)n;
			break;
		case 0x142:
		case 0x143:
			o.zero_given = 1;
			o.exclude_zero = c == 0x143;
			o.keep_zero = c == 0x142;
			break;
		case 0x144:
			if (tool_parse_page_size(&tool, optarg,
			    &o.open.page_size) != 0)
				return TOOL_USAGE;	/* it said why */
			break;
		case 'i':
			o.info = 1;
			break;
		case 'j':
			o.json = 1;
			break;
		case 'a':
			o.open.arch = optarg;
			break;
		case 'k':
			o.open.kernel = optarg;
			break;
		case 'q':
			o.quiet = 1;
			break;
		case 0x100:
			o.no_threads = 1;
			break;
		case 'v':
			o.verbose = 1;
			break;
		default:
			return tool_option(&tool, c, argv);
		}
	}
	/*
	 * --to kdump takes the files of a split set as one INPUT; the
	 * portable writer takes them to say why it does not.
	 */
	if (argc - optind < 1 || (argc - optind > 1 && (o.native || o.elf ||
	    o.info || o.tar)) ||
	    (!o.info && o.out == NULL))
		return tool_usage_error(&tool, "expected one INPUT%s", o.info ?
		    "" : " and -o OUTPUT");
	if (o.json && !o.info)
		return tool_usage_error(&tool, "--json goes with --info");
	if ((o.vmcoreinfo != NULL || o.vmw.flags != 0) && !o.elf)
		return tool_usage_error(&tool, "--vmcoreinfo and --elf32 go "
		    "with --to elf");
	if ((rc = kdump_options(&o)) != TOOL_OK)
		return rc;
	o.in = argv[optind];
	if (o.tar && !o.info)
		return tool_finish(&tool, to_tar(&o));
	/*
	 * The conversions read the dump in order: a zstd input is decoded
	 * as it is read, in one pass, not into a temporary file first; but
	 * --drop-zero reads a full core twice (the zeros, then the pages).
	 */
	if ((o.flags & DK_ELFMINI_DROP_ZERO ? dk_open_set :
	    dk_open_stream)((const char *const *)argv + optind,
	    (size_t)(argc - optind), &o.open, &d, &err) != DK_OK) {
		struct dk_kdh_info k;
		struct dk_err e2;

		/* A text or encrypted dump still has a header to show. */
		if (o.info && !o.json && dk_kdh_read(o.in, &k, &e2) == DK_OK)
			print_kdh(&k);
		fprintf(stderr, "dumpconv: %s\n", err.msg);
		return tool_open_exit(err.code);
	}
	if (o.elf && !dk_vmw_linux(d) && (o.vmcoreinfo != NULL ||
	    (o.vmw.flags != 0 && (o.open.kernel == NULL || o.info)))) {
		rc = tool_usage_error(&tool, "%s: --vmcoreinfo is for Linux "
		    "dumps, --elf32 for Linux dumps and, with --kernel, "
		    "FreeBSD dumps of 32-bit kernels; this is a %s", o.in,
		    dk_info(d)->format);
		dk_close(d);
		return rc;
	}
	/* --elf32 --kernel of a FreeBSD dump: the debugger core. */
	o.core32 = o.elf && !dk_vmw_linux(d) && o.vmw.flags != 0;
	o.vmcore = o.elf && !o.native && dk_vmw_linux(d);
	if (o.vmcore && o.vmcoreinfo != NULL && (rc = read_vmcoreinfo(&o)) !=
	    TOOL_OK) {
		dk_close(d);
		return tool_finish(&tool, rc);
	}
	if (o.kdump)
		rc = o.info ? kdump_info(d, &o) : to_kdump(d, &o);
	else if (o.vmcore)
		rc = o.info ? vmcore_info(d, &o) : convert(d, &o);
	else
		rc = o.info ? info(d, &o) : convert(d, &o);
	free((void *)o.vmw.vmcoreinfo);
	dk_close(d);
	return tool_finish(&tool, rc);
}
