/*
 * dumpinfo -- print what libdumpkit knows of a dump, read its memory, or
 * print its kernel log (FreeBSD's message buffer, Linux's printk log).
 *
 * A thin tool over the public API (dumpkit.h), with savecore.h for the
 * info.N savecore leaves beside a saved vmcore.  Memory and the message
 * buffer are read and written CHUNK bytes at a time, so any length runs
 * in bounded memory.  Exit status: 0 success, 1 an address could not be
 * read, 2 an input or output unusable, 3 usage error; every path ends
 * through tool_finish(), which checks the writes to standard output.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dumpkit.h"
#include "kthreads.h"
#include "savecore.h"
#include "tool.h"

#define	CHUNK		(1u << 20)	/* bytes read and written at a time */
#define	MSGBUF_LINES	10		/* of the msgbuf in the summary */
#define	TAIL_KEEP	(64u << 10)	/* bytes of its end kept for them */
#define	LINE_KEEP	512		/* bytes of a msgbuf line kept */
/*
 * A msgbuf the dump lists no section for (a portable file keeps it in a
 * note) is read through dk_read_msgbuf(), which reads from its start
 * only, into memory: at most this much of it.
 */
#define	MSGBUF_MEM_MAX	(64u << 20)
/* struct msgbuf's msg_magic (sys/sys/msgbuf.h). */
#define	MSG_MAGIC	0x063062u

static const char usage_text[] =
"usage: dumpinfo [-jqv] [--arch ARCH] [--kernel FILE] [--page-size N]\n"
"                [--info-file FILE] FILE\n"
"       dumpinfo --read-pa ADDR[:LEN] [--raw] [options] FILE\n"
"       dumpinfo --read-va ADDR[:LEN] [--raw] [options] FILE\n"
"       dumpinfo --msgbuf [--raw] [options] FILE\n"
"       dumpinfo --ps | --threads [--gdb] [-j] --kernel FILE DUMP\n"
"       dumpinfo --dmesg [options] FILE\n"
"       dumpinfo --help | --version\n";

static const char help_text[] =
"Describe a kernel dump, starting with the panic string, the dump time,\n"
"the hostname and the version string, each with where it was read; or\n"
"print its memory like kgdb's x command; or its kernel log.\n"
"\n"
"  -j, --json           one JSON document instead of text\n"
"  -p, --read-pa A[:N]  print N bytes (default 64) of physical memory at\n"
"                       the hexadecimal address A; N takes K, M, G, T\n"
"  -r, --read-va A[:N]  the same at a kernel virtual address\n"
"  -m, --msgbuf         print the whole message buffer, oldest first\n"
"      --ps             with --kernel: the processes, as FreeBSD's ps(1)\n"
"                       lists a core's with its kernel (PID, threads,\n"
"                       command)\n"
"      --threads        with --kernel: every kernel thread (tid, pid,\n"
"                       CPU, where its registers are, names, pc, sp)\n"
"      --gdb            with --threads: gdb commands naming the threads\n"
"                       of the converted dump (gdb -x FILE)\n"
"      --dmesg          print the kernel log: a Linux dump's printk log as\n"
"                       makedumpfile writes it, a FreeBSD dump's as --msgbuf\n"
"      --raw            with --read-pa, --read-va or --msgbuf: write the\n"
"                       bytes as they are, unformatted\n"
"      --info-file FILE  savecore's info file of the dump (default: the\n"
"                       info.N beside a dump named vmcore.N)\n"
"      --zero-excluded  read the pages a kdump file's dump level left out\n"
"                       (in memory, not dumped) as zeros, as crash does\n"
"  -a, --arch ARCH      the dump's architecture, where the dump cannot tell\n"
"  -k, --kernel FILE    the kernel's ELF image, to decide the architecture\n"
"      --page-size N    the page size, where the dump cannot tell (an\n"
"                       aarch64 or ppc64 vmcore without VMCOREINFO)\n"
"  -q, --quiet          print only errors\n"
"  -v, --verbose        also list every run of dumped pages\n"
"  -h, --help           this text\n"
"  -V, --version        print the version\n"
"\n"
"Exit status: 0 success, 1 an address could not be read (the bytes before\n"
"it are written first), 2 an input or output unusable, 3 usage error.\n"
"DUMPKIT_TRACE=1 in the environment traces every parsing decision to\n"
"stderr.\n";

static const struct tool tool = { "dumpinfo", usage_text, help_text };

/* A long option without a short one. */
#define	OPT_RAW		256
#define	OPT_INFO_FILE	257
#define	OPT_PS		258
#define	OPT_THREADS	259
#define	OPT_GDB		260
#define	OPT_ZERO_EXCL	261
#define	OPT_DMESG	262
#define	OPT_PAGE_SIZE	263

struct opts {
	int		 json;
	int		 raw;
	int		 quiet;		/* print only errors */
	int		 zero_excluded;	/* --zero-excluded */
	int		 verbose;
	int		 msgbuf;	/* --msgbuf or --dmesg */
	int		 kt;		/* OPT_PS, OPT_THREADS or 0 */
	int		 gdb;		/* --gdb */
	int		 dmesg;		/* --dmesg */
	int		 read;		/* 0, 'p' or 'v' */
	const char	*path;
	const char	*info_file;	/* --info-file, or NULL */
	uint64_t	 addr;
	uint64_t	 len;
	struct dk_open_opts open;
};

static const char *
decided_name(enum dk_decided d)
{
	static const char *const n[] = { "format", "header", "kernel",
	    "option" };

	return (unsigned)d < 4 ? n[d] : "?";
}

/* A window kind's name in --json. */
static const char *
window_kind(enum dk_window_kind k)
{
	return k == DK_WIN_DIRECT_MAP ? "direct_map" : k == DK_WIN_UNMAPPED ?
	    "unmapped" : k == DK_WIN_KERNEL ? "kernel" : "?";
}

/*
 * Parse "ADDR[:LEN]": ADDR hexadecimal (0x optional), LEN a size as
 * dk_parse_size() reads it (decimal, 0x-hex; K, M, G, T, P), not 0,
 * and the range not past the top of the address space.
 */
static int
parse_range(const char *s, uint64_t *addr, uint64_t *len)
{
	char buf[64], *colon, *end;
	const char *hex;
	unsigned long long a;
	uint64_t n = 64;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	if ((colon = strchr(buf, ':')) != NULL) {
		*colon++ = '\0';
		if (dk_parse_size(colon, &n) != 0 || n == 0)
			return -1;
	}
	hex = buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X') ? buf + 2 :
	    buf;
	if (!isxdigit((unsigned char)hex[0]))
		return -1;
	errno = 0;
	a = strtoull(buf, &end, 16);
	if (*end != '\0' || errno != 0 || n - 1 > UINT64_MAX - a)
		return -1;
	*addr = a;
	*len = n;
	return 0;
}

/* ---------------------------------------------------------------------- */
/* The message buffer.                                                     */

/*
 * The kernel's message buffer is a ring (struct msgbuf, sys/sys/msgbuf.h).
 * A minidump stores the ring's msg_size bytes as its msgbuf section, and
 * the section's last page also holds struct msgbuf itself: msgbufinit()
 * puts it right after the ring (msgbufp = ptr + size) and the kernel
 * dumps round_page(msg_size) bytes.  Its msg_wseq, modulo msg_size, is
 * where the next byte goes, so where the oldest one is: the ring is read
 * from there, as dmesg(8) unwraps it.  Where the struct is not there to
 * read, the ring is read as stored.
 */
struct msgbuf {
	uint64_t	 off;		/* the section's stream offset, or */
	char		*mem;		/* without one, the ring read whole */
	uint64_t	 size;		/* bytes of the ring */
	uint64_t	 start;		/* offset of its oldest byte */
	int		 unwrapped;	/* start is msg_wseq's */
	int		 cut;		/* mem holds MSGBUF_MEM_MAX, not all */
	int		 nul;		/* a NUL was read: the ring is not full */
	int		 linux_log;	/* mem is a Linux dump's kernel log, as
					 * the library writes it (already
					 * escaped: printed as it is) */
	struct dk_err	 damage;	/* code != DK_OK: mem is the log up to
					 * a damaged record, which this says */
};

/*
 * A Linux dump (it has VMCOREINFO): dk_read_msgbuf() gives its kernel
 * log as makedumpfile --dump-dmesg writes it.
 */
static int
is_linux(struct dk_dump *d)
{
	const struct dk_attr *a;

	for (size_t i = 0; (a = dk_attr(d, i)) != NULL; i++)
		if (a->source != NULL && strcmp(a->source, "VMCOREINFO") == 0)
			return 1;
	return 0;
}

static uint32_t
dec32(const uint8_t *p, enum dk_endian e)
{
	return e == DK_BE ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3] : (uint32_t)p[3] << 24 |
	    (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

/*
 * struct msgbuf right after the ring: msg_ptr (4 or 8 bytes), then
 * msg_magic, msg_size, msg_wseq (u_int each).  Both pointer sizes are
 * tried; the magic and msg_size equal to the ring's decide.
 */
static void
msgbuf_wseq(struct dk_dump *d, const struct dk_section *sc, struct msgbuf *mb)
{
	enum dk_endian e = dk_info(d)->endian;
	uint8_t b[20];
	struct dk_err err;
	uint64_t room = sc->space - sc->size;

	if (sc->space <= sc->size || sc->size == 0 || sc->size > UINT32_MAX)
		return;
	if (room > sizeof(b))
		room = sizeof(b);
	if (dk_read_stream(d, sc->offset + sc->size, b, (size_t)room, &err) !=
	    DK_OK)
		return;
	for (size_t ptr = 4; ptr <= 8 && ptr + 12 <= room; ptr += 4)
		if (dec32(b + ptr, e) == MSG_MAGIC &&
		    dec32(b + ptr + 4, e) == sc->size) {
			mb->start = dec32(b + ptr + 8, e) % sc->size;
			mb->unwrapped = 1;
			return;
		}
}

/* Find the dump's msgbuf; size 0 if it has none. */
static enum dk_status
msgbuf_open(struct dk_dump *d, struct msgbuf *mb, struct dk_err *err)
{
	const struct dk_section *sc;
	enum dk_status st;
	size_t i, got = 0, len;
	char *p;

	memset(mb, 0, sizeof(*mb));
	for (i = 0; (sc = dk_section(d, i)) != NULL; i++)
		if (strcmp(sc->name, "msgbuf") == 0) {
			mb->off = sc->offset;
			mb->size = sc->size;
			msgbuf_wseq(d, sc, mb);
			return DK_OK;
		}
	/* No section: whole, from dk_read_msgbuf(), growing to the limit. */
	for (len = 1u << 20; ; len *= 2) {
		if ((p = realloc(mb->mem, len)) == NULL) {
			free(mb->mem);
			mb->mem = NULL;
			return dk_err_set(err, DK_ENOMEM, "%s: msgbuf: out of "
			    "memory", dk_file(d, 0));
		}
		mb->mem = p;
		st = dk_read_msgbuf(d, mb->mem, len, &got, err);
		/* A damaged kernel log: what came before it, then the error. */
		if (st == DK_ECORRUPT && got > 0) {
			mb->damage = *err;
			break;
		}
		if (st != DK_OK) {
			free(mb->mem);
			mb->mem = NULL;
			return st;
		}
		if (got < len || len >= MSGBUF_MEM_MAX)
			break;
	}
	mb->size = got;
	mb->cut = got == MSGBUF_MEM_MAX;
	mb->linux_log = is_linux(d);
	return DK_OK;
}

static void
msgbuf_close(struct msgbuf *mb)
{
	free(mb->mem);
	mb->mem = NULL;
}

/*
 * Hand the ring to fn oldest first, NULs dropped, at most CHUNK bytes a
 * call; fn returns nonzero to stop (standard output failed).
 */
static enum dk_status
msgbuf_each(struct dk_dump *d, struct msgbuf *mb,
    int (*fn)(void *, const char *, size_t), void *arg, struct dk_err *err)
{
	char *buf = malloc(CHUNK);
	enum dk_status st = DK_OK;
	int stop = 0;

	if (buf == NULL)
		return dk_err_set(err, DK_ENOMEM, "%s: msgbuf: out of memory",
		    dk_file(d, 0));
	for (int part = 0; part < 2 && st == DK_OK && !stop; part++) {
		uint64_t at = part == 0 ? mb->start : 0;
		uint64_t end = part == 0 ? mb->size : mb->start;

		while (at < end && !stop) {
			size_t n = end - at < CHUNK ? (size_t)(end - at) : CHUNK;
			size_t k = 0;

			if (mb->mem != NULL)
				memcpy(buf, mb->mem + at, n);
			else if ((st = dk_read_stream(d, mb->off + at, buf, n,
			    err)) != DK_OK)
				break;
			for (size_t i = 0; i < n; i++)
				if (buf[i] != '\0')
					buf[k++] = buf[i];
			mb->nul |= k < n;
			at += n;
			stop = k > 0 && fn(arg, buf, k) != 0;
		}
	}
	free(buf);
	return st;
}

/* What the summary takes of the msgbuf: its end, and its last panic. */
struct scan {
	char		 tail[TAIL_KEEP];	/* the last bytes */
	size_t		 ntail;
	char		 line[LINE_KEEP];	/* the line being read */
	size_t		 nline;
	char		 panic[LINE_KEEP];	/* of the last "panic: " line */
	int		 have_panic;
	int		 linux_log;		/* a Linux log's lines */
};

/* What Linux's panic() logs before its message. */
#define	LINUX_PANIC	"Kernel panic - not syncing: "

/* A whole line: if it is "panic: ..." (after any "<N>" priority). */
static void
scan_line(struct scan *s)
{
	const char *l = s->line;
	size_t n = s->nline, i = 0;

	if (s->linux_log) {
		/* "[    6.199587] Kernel panic - not syncing: MESSAGE" */
		const char *e = memchr(l, ']', n);
		size_t k = strlen(LINUX_PANIC);

		i = l[0] == '[' && e != NULL ? (size_t)(e - l) + 2 : n;
		if (i <= n && n - i >= k && memcmp(l + i, LINUX_PANIC, k) ==
		    0) {
			memcpy(s->panic, l + i + k, n - i - k);
			s->panic[n - i - k] = '\0';
			s->have_panic = 1;
		}
		s->nline = 0;
		return;
	}
	if (n > 2 && l[0] == '<' && isdigit((unsigned char)l[1])) {
		for (i = 1; i < n && isdigit((unsigned char)l[i]); i++)
			;
		i = i < n && l[i] == '>' ? i + 1 : 0;
	}
	if (n - i >= 7 && memcmp(l + i, "panic: ", 7) == 0) {
		memcpy(s->panic, l + i + 7, n - i - 7);
		s->panic[n - i - 7] = '\0';
		s->have_panic = 1;
	}
	s->nline = 0;
}

static int
scan_put(void *arg, const char *p, size_t n)
{
	struct scan *s = arg;

	for (size_t i = 0; i < n; i++) {
		if (p[i] == '\n')
			scan_line(s);
		else if (s->nline < sizeof(s->line) - 1)
			s->line[s->nline++] = p[i];
	}
	if (n >= sizeof(s->tail)) {
		memcpy(s->tail, p + n - sizeof(s->tail), sizeof(s->tail));
		s->ntail = sizeof(s->tail);
	} else {
		size_t keep = s->ntail + n > sizeof(s->tail) ?
		    sizeof(s->tail) - n : s->ntail;

		memmove(s->tail, s->tail + s->ntail - keep, keep);
		memcpy(s->tail + keep, p, n);
		s->ntail = keep + n;
	}
	return 0;
}

/* Start of the last `lines` lines of text. */
static size_t
tail_start(const char *t, size_t n, int lines)
{
	size_t i = n;

	while (i > 0 && t[i - 1] == '\n')
		i--;
	while (i > 0) {
		if (t[i - 1] == '\n' && --lines == 0)
			break;
		i--;
	}
	return i;
}

/* Where the ring was read from, for a warning: NULL if in order. */
static const char *
msgbuf_disorder(const struct msgbuf *mb)
{
	if (mb->linux_log && !mb->cut)
		return NULL;	/* the library read it in sequence order */
	if (mb->cut)
		return "read whole by dk_read_msgbuf() for this format, only "
		    "its first 64 MiB (the library reads it from its start "
		    "only)";
	if (!mb->unwrapped && !mb->nul && mb->size > 0)
		return "full, and its struct msgbuf (the write position) is "
		    "not in the dump: printed as stored, which may not be "
		    "oldest first";
	return NULL;
}

/* The msgbuf for the summary: *s filled; a read error is a warning. */
static void
msgbuf_scan(struct dk_dump *d, const struct opts *o, struct msgbuf *mb,
    struct scan *s)
{
	struct dk_err err;
	const char *why;

	memset(s, 0, sizeof(*s));
	if (msgbuf_open(d, mb, &err) != DK_OK ||
	    (s->linux_log = mb->linux_log,
	    msgbuf_each(d, mb, scan_put, s, &err)) != DK_OK) {
		fprintf(stderr, "dumpinfo: warning: %s\n", err.msg);
		return;
	}
	if (s->nline > 0)
		scan_line(s);
	if (mb->damage.code != DK_OK)
		fprintf(stderr, "dumpinfo: warning: %s\n", mb->damage.msg);
	if ((why = msgbuf_disorder(mb)) != NULL)
		fprintf(stderr, "dumpinfo: %s: warning: the message buffer is "
		    "%s\n", o->path, why);
}

/* --msgbuf: a line's bytes as dmesg(8) shows them, or --raw as they are. */
struct mprint {
	int	 raw;
	int	 last;		/* the last byte written */
};

static int
mprint_put(void *arg, const char *p, size_t n)
{
	struct mprint *m = arg;

	if (m->raw)
		fwrite(p, 1, n, stdout);
	else
		for (size_t i = 0; i < n; i++) {
			unsigned char c = (unsigned char)p[i];

			if (c == '\\')
				fputs("\\\\", stdout);
			else if ((c >= 0x20 && c < 0x7f) || c == '\n' ||
			    c == '\t')
				putchar(c);
			else
				printf("\\%03o", c);
		}
	m->last = (unsigned char)p[n - 1];
	return ferror(stdout);
}

/* --msgbuf --quiet: read, written nowhere. */
static int
discard(void *arg, const char *p, size_t n)
{
	(void)arg;
	(void)p;
	(void)n;
	return 0;
}

static int
do_msgbuf(struct dk_dump *d, const struct opts *o)
{
	struct mprint m = { o->raw, '\n' };
	struct msgbuf mb;
	struct dk_err err;
	const char *why;
	enum dk_status st;

	if (msgbuf_open(d, &mb, &err) != DK_OK) {
		fprintf(stderr, "dumpinfo: %s\n", err.msg);
		return TOOL_UNUSABLE;
	}
	if (mb.size == 0) {
		if (is_linux(d))
			fprintf(stderr, "dumpinfo: %s: a %s dump whose "
			    "VMCOREINFO names no kernel log dumpkit reads (no "
			    "SYMBOL(prb) nor SYMBOL(log_buf))\n", o->path,
			    dk_info(d)->format);
		else
			fprintf(stderr, "dumpinfo: %s: a %s dump holds no "
			    "%s dumpkit reads\n", o->path, dk_info(d)->format,
			    o->dmesg ? "kernel log" : "message buffer");
		msgbuf_close(&mb);
		return TOOL_UNUSABLE;
	}
	m.raw |= mb.linux_log;	/* escaped as makedumpfile does already */
	if (o->quiet)
		st = msgbuf_each(d, &mb, discard, NULL, &err);
	else
		st = msgbuf_each(d, &mb, mprint_put, &m, &err);
	if (st == DK_OK && !o->raw && !o->quiet && m.last != '\n')
		putchar('\n');
	if (st == DK_OK && !o->quiet && (why = msgbuf_disorder(&mb)) != NULL)
		fprintf(stderr, "dumpinfo: %s: warning: the message buffer is "
		    "%s\n", o->path, why);
	msgbuf_close(&mb);
	if (st == DK_OK && mb.damage.code != DK_OK) {
		err = mb.damage;
		st = mb.damage.code;
	}
	if (st != DK_OK) {
		fprintf(stderr, "dumpinfo: %s\n", err.msg);
		return TOOL_UNUSABLE;
	}
	return TOOL_OK;
}

/* ---------------------------------------------------------------------- */
/* What a crash-dump user reads first.                                     */

struct fact {
	const char	*value;		/* NULL: unknown */
	const char	*source;	/* "kerneldumpheader", "info.0", ... */
};

struct facts {
	struct fact	 panic, host, version;
	enum savecore_time time_kind;	/* SC_TIME_UTC: epoch */
	uint64_t	 epoch;
	char		 local[32];	/* SC_TIME_LOCAL: as written, ISO */
	const char	*time_source;
};

/* A string fact from the dump's attribute, else savecore's info file. */
static struct fact
pick(struct dk_dump *d, const char *attr, const struct savecore_info *si,
    unsigned bit, const char *v)
{
	const struct dk_attr *a = dk_attr_find(d, attr);

	if (a != NULL && a->type == DK_ATTR_STRING && a->str[0] != '\0')
		return (struct fact){ a->str, a->source };
	if (si != NULL && (si->have & bit) && v[0] != '\0')
		return (struct fact){ v, si->source };
	return (struct fact){ NULL, NULL };
}

/*
 * Each from the first place that has it: the dump's attributes (the
 * kerneldumpheader), savecore's info file (si, or NULL), and for the
 * panic string the last "panic: " line of the msgbuf.
 */
static void
gather(struct dk_dump *d, const struct savecore_info *si,
    const struct scan *sc, struct facts *f)
{
	const struct dk_attr *a;

	memset(f, 0, sizeof(*f));
	f->panic = pick(d, "panic_string", si, SC_PANIC, si != NULL ?
	    si->panicstring : NULL);
	f->host = pick(d, "hostname", si, SC_HOSTNAME, si != NULL ?
	    si->hostname : NULL);
	f->version = pick(d, "version_string", si, SC_VERSION, si != NULL ?
	    si->versionstring : NULL);
	if (f->panic.value == NULL && sc->have_panic)
		f->panic = (struct fact){ sc->panic, sc->linux_log ?
		    "kernel log" : "msgbuf" };
	if ((a = dk_attr_find(d, "dump_time")) != NULL &&
	    a->type == DK_ATTR_TIME) {
		f->time_kind = SC_TIME_UTC;
		f->epoch = a->num;
		f->time_source = a->source;
	} else if (si != NULL && si->time_kind != SC_TIME_NONE) {
		f->time_kind = si->time_kind;
		f->epoch = si->epoch;
		savecore_info_time(si, f->local, sizeof(f->local));
		f->time_source = si->source;
	}
}

/* One fact's line: "label:  "value" (source)" or "label:  unknown". */
static void
print_fact(const char *label, const struct fact *x)
{
	if (x->value == NULL)
		printf("%-14sunknown\n", label);
	else
		printf("%-14s\"%.*s\" (%s)\n", label,
		    (int)strcspn(x->value, "\n"), x->value, x->source);
}

static void
print_facts(const struct facts *f)
{
	char tb[32];

	print_fact("panic:", &f->panic);
	if (f->time_kind == SC_TIME_UTC)
		printf("dump time:    %ju (%s) (%s)\n", (uintmax_t)f->epoch,
		    tool_iso_time(f->epoch, tb, sizeof(tb)), f->time_source);
	else if (f->time_kind == SC_TIME_LOCAL)
		printf("dump time:    %s, the saving machine's local time, its "
		    "zone not recorded (%s)\n", f->local, f->time_source);
	else
		printf("dump time:    unknown\n");
	print_fact("hostname:", &f->host);
	print_fact("version:", &f->version);
}

static void
json_fact(struct json *j, const char *key, const struct fact *x)
{
	if (x->value == NULL) {
		json_str(j, key, NULL);
		return;
	}
	json_begin(j, key, 0);
	json_str(j, "value", x->value);
	json_str(j, "source", x->source);
	json_end(j, 0);
}

static void
json_facts(struct json *j, const struct facts *f)
{
	char tb[32];

	json_fact(j, "panic_string", &f->panic);
	if (f->time_kind == SC_TIME_NONE)
		json_str(j, "dump_time", NULL);
	else {
		json_begin(j, "dump_time", 0);
		if (f->time_kind == SC_TIME_UTC) {
			json_u64(j, "value", f->epoch);
			json_str(j, "utc", tool_iso_time(f->epoch, tb, sizeof(tb)));
			json_str(j, "local", NULL);
		} else {
			json_str(j, "value", NULL);
			json_str(j, "utc", NULL);
			json_str(j, "local", f->local);
		}
		json_str(j, "source", f->time_source);
		json_end(j, 0);
	}
	json_fact(j, "hostname", &f->host);
	json_fact(j, "version_string", &f->version);
}

/* ---------------------------------------------------------------------- */
/* The summary.                                                            */

struct summary {
	struct savecore_info si;
	int		 have_si;
	char		 si_warning[sizeof(((struct dk_err *)0)->msg)];
	struct msgbuf	 mb;
	struct scan	 scan;
	struct facts	 facts;
};

/* What the summary needs read first: info file, msgbuf, the facts. */
static void
summary_read(struct dk_dump *d, const struct opts *o, struct summary *s)
{
	struct dk_err err;
	enum dk_status st;

	st = savecore_info_find(o->path, o->info_file, &s->si, &err);
	s->have_si = st == DK_OK;
	if (st != DK_OK && st != DK_NOMATCH) {
		snprintf(s->si_warning, sizeof(s->si_warning), "%s", err.msg);
		fprintf(stderr, "dumpinfo: warning: %s; not used\n", err.msg);
	}
	msgbuf_scan(d, o, &s->mb, &s->scan);
	gather(d, s->have_si ? &s->si : NULL, &s->scan, &s->facts);
}

/* ---------------------------------------------------------------------- */
/* Linux dumps: producer, quirks, CPUs (the vmcore reader's attributes).    */

/* Attribute name's number, or def. */
static uint64_t
attr_num(struct dk_dump *d, const char *name, uint64_t def)
{
	const struct dk_attr *a = dk_attr_find(d, name);

	return a != NULL && a->type != DK_ATTR_STRING ? a->num : def;
}

/* The number of VMCOREINFO keys among the attributes. */
static size_t
vmcoreinfo_keys(struct dk_dump *d)
{
	const struct dk_attr *a;
	size_t n = 0;

	for (size_t i = 0; (a = dk_attr(d, i)) != NULL; i++)
		n += strcmp(a->source, "VMCOREINFO") == 0 &&
		    strcmp(a->name, "os_release") != 0 &&
		    strcmp(a->name, "dump_time") != 0;
	return n;
}

static void
linux_text(struct dk_dump *d)
{
	const struct dk_attr *p = dk_attr_find(d, "producer");
	const struct dk_attr *q = dk_attr_find(d, "quirks");
	const struct dk_attr *r = dk_attr_find(d, "os_release");
	uint64_t n = attr_num(d, "cpus", 0);
	char name[48];

	if (p == NULL)
		return;
	printf("producer:     %s (quirks: %s)\n", p->str, q != NULL ? q->str :
	    "none");
	printf("os release:   %s\n", r != NULL ? r->str : "unknown");
	printf("vmcoreinfo:   %zu keys\n", vmcoreinfo_keys(d));
	printf("cpus:         %ju\n", (uintmax_t)n);
	for (uint64_t i = 0; i < n && i < 64; i++) {
		static const char *const f[] = { "pid", "pc", "sp" };
		uint64_t v[3];

		snprintf(name, sizeof(name), "cpu.%ju.pc", (uintmax_t)i);
		if (dk_attr_find(d, name) == NULL)
			continue;
		for (size_t k = 0; k < 3; k++) {
			snprintf(name, sizeof(name), "cpu.%ju.%s",
			    (uintmax_t)i, f[k]);
			v[k] = attr_num(d, name, 0);
		}
		printf("  cpu %-3ju     pid %ju pc %#jx sp %#jx\n", (uintmax_t)i,
		    (uintmax_t)v[0], (uintmax_t)v[1], (uintmax_t)v[2]);
	}
}

static void
linux_json(struct json *j, struct dk_dump *d)
{
	const struct dk_attr *p = dk_attr_find(d, "producer");
	const struct dk_attr *q = dk_attr_find(d, "quirks");
	uint64_t n = attr_num(d, "cpus", 0);
	char name[48];

	if (p == NULL) {
		json_str(j, "linux", NULL);
		return;
	}
	json_begin(j, "linux", 0);
	json_str(j, "producer", p->str);
	json_str(j, "quirks", q != NULL ? q->str : NULL);
	json_u64(j, "vmcoreinfo_keys", vmcoreinfo_keys(d));
	json_begin(j, "cpus", 1);
	for (uint64_t i = 0; i < n; i++) {
		static const char *const f[] = { "pid", "pc", "sp" };

		snprintf(name, sizeof(name), "cpu.%ju.pc", (uintmax_t)i);
		if (dk_attr_find(d, name) == NULL)
			continue;
		json_begin(j, NULL, 0);
		json_u64(j, "cpu", i);
		for (size_t k = 0; k < 3; k++) {
			snprintf(name, sizeof(name), "cpu.%ju.%s",
			    (uintmax_t)i, f[k]);
			if (k == 0)
				json_u64(j, f[k], attr_num(d, name, 0));
			else
				json_hex(j, f[k], attr_num(d, name, 0));
		}
		json_end(j, 0);
	}
	json_end(j, 1);
	json_end(j, 0);
}

static void
print_text(struct dk_dump *d, const struct opts *o, struct summary *s)
{
	const struct dk_info *in = dk_info(d);
	const struct dk_window *w;
	const struct dk_section *sc;
	const struct dk_attr *a;
	struct dk_hfield f;
	struct dk_run_iter it = { 0 };
	struct dk_run run;
	uint64_t nruns = 0;
	size_t i;
	char tb[32];

	print_facts(&s->facts);
	printf("format:       %s version %u\n", in->format, in->version);
	printf("architecture: %s (decided by %s: %s)\n", in->arch,
	    decided_name(in->arch_by), in->arch_why);
	printf("byte order:   %s\n", tool_endian_name(in->endian));
	if (in->page_size == 0 && dk_attr_find(d, "page_size_source") != NULL)
		printf("page size:    unknown (%s)\n",
		    dk_attr_find(d, "page_size_source")->str);
	else
		printf("page size:    %u\n", in->page_size);
	linux_text(d);
	if (in->kernbase == 0 && in->kva_end == 0)
		printf("kernel map:   none recorded\n");
	else
		printf("kernel map:   %#jx - %#jx\n", (uintmax_t)in->kernbase,
		    (uintmax_t)in->kva_end);
	if ((w = dk_window_find(d, DK_WIN_DIRECT_MAP)) != NULL)
		printf("direct map:   %#jx - %#jx -> pa %#jx\n",
		    (uintmax_t)w->va, (uintmax_t)w->end, (uintmax_t)w->pa);
	else
		printf("direct map:   none\n");
	for (i = 0; (w = dk_window(d, i)) != NULL; i++)
		if (w->kind != DK_WIN_DIRECT_MAP)
			printf("window:       %s %#jx - %#jx -> pa %#jx\n",
			    w->name, (uintmax_t)w->va, (uintmax_t)w->end,
			    (uintmax_t)w->pa);
	printf("file size:    %ju\n", (uintmax_t)in->file_size);
	printf("pages:        %ju dumped, %ju in the file%s\n",
	    (uintmax_t)in->npages, (uintmax_t)in->npages_present,
	    in->npages_present < in->npages ? " (TRUNCATED)" : "");
	for (i = 0; i < dk_nlayers(d); i++)
		printf("container:    %s at %#jx, %ju bytes: %s\n",
		    dk_layer(d, i)->kind, (uintmax_t)dk_layer(d, i)->offset,
		    (uintmax_t)dk_layer(d, i)->size, dk_layer(d, i)->desc);
	if (dk_kdh(d) != NULL) {
		const struct dk_kdh_info *k = dk_kdh(d);

		printf("kerneldumpheader: v%u %s dump (%s)%s, %s, dumptime "
		    "%ju, compression %s\n", k->version, k->magic_name,
		    k->placement_name, k->cleared ? ", trailer cleared" : "",
		    k->architecture, (uintmax_t)k->dumptime,
		    dk_kdh_compression_name(k->compression));
		printf("  hostname:   %s\n  panic:      %s\n  version:    "
		    "%.*s\n", k->hostname, k->panicstring,
		    (int)strcspn(k->versionstring, "\n"), k->versionstring);
	}
	if (s->have_si)
		savecore_info_print(stdout, &s->si);
	printf("\nheader:\n");
	for (i = 0; dk_header_field(d, i, &f) == 0; i++) {
		if (f.is_string)
			printf("  @%-4u %-15s \"%s\"\n", f.offset, f.name,
			    f.str);
		else if (f.is_padding)
			printf("  @%-4u %-15s %u bytes\n", f.offset, f.name,
			    f.size);
		else
			printf("  @%-4u %-15s %#jx\n", f.offset, f.name,
			    (uintmax_t)f.value);
	}
	printf("\nsections:\n");
	for (i = 0; (sc = dk_section(d, i)) != NULL; i++)
		printf("  %-11s offset %#-14jx size %#-12jx occupies %#jx\n",
		    sc->name, (uintmax_t)sc->offset, (uintmax_t)sc->size,
		    (uintmax_t)sc->space);
	if (dk_nattrs(d) > 0)
		printf("\nattributes:\n");
	for (i = 0; (a = dk_attr(d, i)) != NULL; i++) {
		printf("  %-15s ", a->name);
		if (a->type == DK_ATTR_STRING)
			printf("\"%.*s\"", (int)strcspn(a->str, "\n"), a->str);
		else if (a->type == DK_ATTR_TIME)
			printf("%ju (%s)", (uintmax_t)a->num,
			    tool_iso_time(a->num, tb, sizeof(tb)));
		else
			printf("%ju", (uintmax_t)a->num);
		printf(" (%s)\n", a->source);
	}
	printf("\nphysical memory:\n");
	for (i = 0; i < dk_phys_nranges(d); i++) {
		struct dk_range r = dk_phys_range(d, i);

		printf("  %#014jx - %#014jx\n", (uintmax_t)r.start,
		    (uintmax_t)r.end);
	}
	if (o->verbose)
		printf("\nruns of dumped pages:\n");
	while (dk_run_next(d, &it, &run)) {
		nruns++;
		if (o->verbose && run.offset == DK_OFF_ZERO)
			printf("  pa %#014jx - %#014jx zeros, left out of the "
			    "file\n", (uintmax_t)run.pa,
			    (uintmax_t)(run.pa + run.len));
		else if (o->verbose)
			printf("  pa %#014jx - %#014jx at offset %#jx\n",
			    (uintmax_t)run.pa, (uintmax_t)(run.pa + run.len),
			    (uintmax_t)run.offset);
	}
	printf("\nruns:         %ju\n", (uintmax_t)nruns);
	if (s->scan.ntail > 0) {
		const char *t = s->scan.tail;
		size_t n = s->scan.ntail, b = tail_start(t, n, MSGBUF_LINES);

		printf("\n%s (last lines%s):\n", s->mb.linux_log ?
		    "kernel log" : "msgbuf", s->mb.unwrapped ?
		    ", unwrapped at msg_wseq" : "");
		while (b < n) {
			size_t e = b;

			while (e < n && t[e] != '\n')
				e++;
			printf("  ");
			for (size_t k = b; k < e; k++)
				putchar(isprint((unsigned char)t[k]) ||
				    t[k] == '\t' ? t[k] : '.');
			putchar('\n');
			b = e + 1;
		}
	}
}

static void
print_json(struct dk_dump *d, struct summary *s)
{
	const struct dk_info *in = dk_info(d);
	const struct dk_window *w;
	const struct dk_section *sc;
	const struct dk_attr *a;
	char tb[32];
	struct dk_hfield f;
	struct dk_run_iter it = { 0 };
	struct dk_run run;
	uint64_t nruns = 0;
	struct json j;
	size_t i;

	json_open(&j, stdout, 0);
	json_facts(&j, &s->facts);
	json_str(&j, "format", in->format);
	json_u64(&j, "version", in->version);
	json_str(&j, "arch", in->arch);
	json_str(&j, "arch_decided_by", decided_name(in->arch_by));
	json_str(&j, "arch_reason", in->arch_why);
	json_str(&j, "byte_order", tool_endian_name(in->endian));
	json_u64(&j, "page_size", in->page_size);
	linux_json(&j, d);
	json_hex(&j, "kernbase", in->kernbase);
	json_hex(&j, "kva_end", in->kva_end);
	if ((w = dk_window_find(d, DK_WIN_DIRECT_MAP)) != NULL) {
		json_begin(&j, "direct_map", 0);
		json_hex(&j, "base", w->va);
		json_hex(&j, "end", w->end);
		json_hex(&j, "phys", w->pa);
		json_end(&j, 0);
	} else
		json_str(&j, "direct_map", NULL);
	json_begin(&j, "windows", 1);
	for (i = 0; (w = dk_window(d, i)) != NULL; i++) {
		json_begin(&j, NULL, 0);
		json_str(&j, "kind", window_kind(w->kind));
		json_str(&j, "name", w->name);
		json_hex(&j, "va", w->va);
		json_hex(&j, "end", w->end);
		json_hex(&j, "pa", w->pa);
		json_end(&j, 0);
	}
	json_end(&j, 1);
	json_u64(&j, "file_size", in->file_size);
	json_u64(&j, "pages_dumped", in->npages);
	json_u64(&j, "pages_in_file", in->npages_present);
	json_bool(&j, "truncated", in->npages_present < in->npages);
	if (dk_kdh(d) != NULL) {
		const struct dk_kdh_info *k = dk_kdh(d);

		json_begin(&j, "kerneldumpheader", 0);
		json_u64(&j, "version", k->version);
		json_str(&j, "magic", k->magic_name);
		json_str(&j, "placement", k->placement_name);
		json_str(&j, "architecture", k->architecture);
		json_u64(&j, "dumptime", k->dumptime);
		json_str(&j, "hostname", k->hostname);
		json_str(&j, "versionstring", k->versionstring);
		json_str(&j, "panicstring", k->panicstring);
		json_u64(&j, "dumplength", k->dumplength);
		json_u64(&j, "compression", k->compression);
		json_bool(&j, "cleared", k->cleared);
		json_end(&j, 0);
	}
	if (s->have_si)
		savecore_info_json(&j, "savecore_info", &s->si);
	else
		json_str(&j, "savecore_info", NULL);
	json_str(&j, "savecore_info_warning", s->si_warning[0] != '\0' ?
	    s->si_warning : NULL);
	json_begin(&j, "header", 1);
	for (i = 0; dk_header_field(d, i, &f) == 0; i++) {
		json_begin(&j, NULL, 0);
		json_str(&j, "name", f.name);
		json_u64(&j, "offset", f.offset);
		json_u64(&j, "size", f.size);
		if (f.is_string)
			json_str(&j, "value", f.str);
		else
			json_hex(&j, "value", f.value);
		json_end(&j, 0);
	}
	json_end(&j, 1);
	json_begin(&j, "sections", 1);
	for (i = 0; (sc = dk_section(d, i)) != NULL; i++) {
		json_begin(&j, NULL, 0);
		json_str(&j, "name", sc->name);
		json_hex(&j, "offset", sc->offset);
		json_u64(&j, "size", sc->size);
		json_u64(&j, "space", sc->space);
		json_end(&j, 0);
	}
	json_end(&j, 1);
	json_begin(&j, "attributes", 1);
	for (i = 0; (a = dk_attr(d, i)) != NULL; i++) {
		json_begin(&j, NULL, 0);
		json_str(&j, "name", a->name);
		if (a->type == DK_ATTR_STRING)
			json_str(&j, "value", a->str);
		else
			json_u64(&j, "value", a->num);
		if (a->type == DK_ATTR_TIME)
			json_str(&j, "utc", tool_iso_time(a->num, tb, sizeof(tb)));
		json_str(&j, "source", a->source);
		json_end(&j, 0);
	}
	json_end(&j, 1);
	json_begin(&j, "physical_ranges", 1);
	for (i = 0; i < dk_phys_nranges(d); i++) {
		struct dk_range r = dk_phys_range(d, i);

		json_begin(&j, NULL, 0);
		json_hex(&j, "start", r.start);
		json_hex(&j, "end", r.end);
		json_end(&j, 0);
	}
	json_end(&j, 1);
	while (dk_run_next(d, &it, &run))
		nruns++;
	json_u64(&j, "runs", nruns);
	json_str(&j, "log_format", s->mb.size == 0 ? NULL :
	    s->mb.linux_log ? "linux-printk" : "msgbuf");
	json_u64(&j, "msgbuf_size", s->mb.size);
	if (s->mb.unwrapped)
		json_u64(&j, "msgbuf_unwrapped_at", s->mb.start);
	else
		json_str(&j, "msgbuf_unwrapped_at", NULL);
	if (s->scan.ntail > 0) {
		size_t b = tail_start(s->scan.tail, s->scan.ntail,
		    MSGBUF_LINES);

		json_strn(&j, "msgbuf_tail", s->scan.tail + b,
		    s->scan.ntail - b);
	}
	json_end(&j, 0);
}

/* ---------------------------------------------------------------------- */
/* --read-pa, --read-va.                                                   */

/* A hex dump, 16 bytes a line, addressed as the reader asked for them. */
struct hex {
	uint64_t	 addr;		/* of line[0] */
	uint8_t		 line[16];
	size_t		 n;
};

static void
hex_line(uint64_t addr, const uint8_t *p, size_t n)
{
	static const char x[] = "0123456789abcdef";
	char out[96], *q = out;

	q += snprintf(out, sizeof(out), "0x%016jx:", (uintmax_t)addr);
	for (size_t k = 0; k < 16; k++) {
		if (k == 8)
			*q++ = ' ';
		*q++ = ' ';
		*q++ = k < n ? x[p[k] >> 4] : ' ';
		*q++ = k < n ? x[p[k] & 15] : ' ';
	}
	*q++ = ' ';
	*q++ = ' ';
	*q++ = '|';
	for (size_t k = 0; k < n; k++)
		*q++ = isprint(p[k]) ? (char)p[k] : '.';
	*q++ = '|';
	*q++ = '\n';
	fwrite(out, 1, (size_t)(q - out), stdout);
}

static void
hex_put(struct hex *h, const uint8_t *p, size_t n)
{
	while (n > 0) {
		size_t k = 16 - h->n < n ? 16 - h->n : n;

		memcpy(h->line + h->n, p, k);
		h->n += k;
		p += k;
		n -= k;
		if (h->n == 16) {
			hex_line(h->addr, h->line, 16);
			h->addr += 16;
			h->n = 0;
		}
	}
}

static void
hex_end(struct hex *h)
{
	if (h->n > 0)
		hex_line(h->addr, h->line, h->n);
	h->n = 0;
}

/*
 * The library's message m without the "PATH: " it may start with, which
 * the caller writes itself.
 */
static const char *
own_msg(const char *path, const char *m)
{
	size_t n = strlen(path);

	return strncmp(m, path, n) == 0 && m[n] == ':' && m[n + 1] == ' ' ?
	    m + n + 2 : m;
}

static enum dk_status
read_mem(struct dk_dump *d, int how, uint64_t a, void *buf, size_t n,
    struct dk_err *err)
{
	return how == 'p' ? dk_read_pa(d, a, buf, n, err) :
	    dk_read_va(d, a, buf, n, err);
}

/*
 * The longest readable start of [a, a + n), which is known not to be
 * readable whole, read into buf.  A read fails if any of its bytes
 * cannot be read, so every start of a readable range is readable: a
 * bisection finds the first byte that is not, in log2(n) reads.
 */
static size_t
readable_prefix(struct dk_dump *d, int how, uint64_t a, uint8_t *buf,
    size_t n)
{
	size_t lo = 0, hi = n;		/* lo bytes readable, hi not */
	struct dk_err err;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (read_mem(d, how, a, buf, mid, &err) == DK_OK)
			lo = mid;
		else
			hi = mid;
	}
	if (lo > 0 && read_mem(d, how, a, buf, lo, &err) != DK_OK)
		return 0;
	return lo;
}

static int
do_read(struct dk_dump *d, const struct opts *o)
{
	struct hex h = { .addr = o->addr };
	uint8_t *buf = malloc(CHUNK);
	uint64_t done = 0;
	int rc = TOOL_OK;

	if (buf == NULL) {
		fprintf(stderr, "dumpinfo: out of memory\n");
		return TOOL_UNUSABLE;
	}
	while (done < o->len && !ferror(stdout)) {
		uint64_t a = o->addr + done;
		size_t n = o->len - done < CHUNK ? (size_t)(o->len - done) :
		    CHUNK, k = n;
		struct dk_err err, at;

		if (read_mem(d, o->read, a, buf, n, &err) != DK_OK &&
		    (k = readable_prefix(d, o->read, a, buf, n)) < n &&
		    read_mem(d, o->read, a + k, buf + k, 1, &at) != DK_OK)
			err = at;	/* names the very address */
		if (o->quiet)
			;	/* readable or not: the exit status says */
		else if (o->raw)
			fwrite(buf, 1, k, stdout);
		else
			hex_put(&h, buf, k);
		done += k;
		if (k < n) {
			if (!o->raw && !o->quiet)
				hex_end(&h);
			fflush(stdout);
			if (done > 0)
				fprintf(stderr, "dumpinfo: %s: %s (the %ju "
				    "bytes before it were read%s)\n", o->path,
				    own_msg(o->path, err.msg), (uintmax_t)done,
				    o->quiet ? "" : " and written");
			else
				fprintf(stderr, "dumpinfo: %s: %s\n", o->path,
				    own_msg(o->path, err.msg));
			rc = TOOL_NEGATIVE;
			break;
		}
	}
	if (!o->raw && !o->quiet)
		hex_end(&h);
	free(buf);
	return rc;
}

/* ---------------------------------------------------------------------- */

/* The tool; *finished if tool_option() ended it (--help, --version). */
static const char *const kt_src[] = { "td_pcb", "dumppcb", "stoppcbs" };

/* A signed value, or null where the walk could not read it. */
static void
json_i64_or_null(struct json *j, const char *key, int64_t v)
{
	if (v == DK_KT_UNKNOWN)
		json_str(j, key, NULL);
	else
		json_i64(j, key, v);
}

/* --ps, --threads: the process list the kernel's symbols locate. */
static int
do_kthreads(struct dk_dump *d, const struct opts *o)
{
	struct dk_kthreads kt;
	struct dk_err err;
	struct json j;
	uint64_t regs[DK_KT_MAXREGS];

	if (dk_kthreads_load(d, o->open.kernel, 0, &kt, &err) != DK_OK) {
		fprintf(stderr, "dumpinfo: %s\n", err.msg);
		return TOOL_UNUSABLE;
	}
	/* Once: why a PPID or state column says "-". */
	if (kt.layout_note[0] != '\0' && !o->gdb)
		fprintf(stderr, "dumpinfo: %s %s -: %s\n", o->kt == OPT_PS ?
		    "PPID and STAT" : "STATE", kt.have_layout ? "may be" :
		    o->kt == OPT_PS ? "are" : "is", kt.layout_note);
	if (o->gdb) {
		/* gdb numbers the threads in note order: crashed first. */
		for (size_t k = 0; k < kt.nthreads; k++) {
			size_t i = kt.crashed == SIZE_MAX ? k : k == 0 ?
			    kt.crashed : k <= kt.crashed ? k - 1 : k;

			printf("thread %zu\nthread name %s/%s\n", k + 1,
			    kt.threads[i].comm, kt.threads[i].name);
		}
		printf("thread 1\n");
	} else if (o->json) {
		json_open(&j, stdout, 0);
		json_str(&j, "panic", kt.panicstr ? kt.panic : NULL);
		json_u64(&j, "dumptid", (uint64_t)kt.dumptid);
		json_str(&j, "layout_note", kt.layout_note[0] != '\0' ?
		    kt.layout_note : NULL);
		json_begin(&j, o->kt == OPT_PS ? "processes" : "threads", 1);
		for (size_t i = 0; o->kt == OPT_PS && i < kt.nprocs; i++) {
			json_begin(&j, NULL, 0);
			json_u64(&j, "pid", (uint64_t)kt.procs[i].pid);
			json_i64_or_null(&j, "ppid", kt.procs[i].ppid);
			json_str(&j, "stat", strcmp(dk_kproc_stat(&kt, i),
			    "-") != 0 ? dk_kproc_stat(&kt, i) : NULL);
			json_i64_or_null(&j, "p_state", kt.procs[i].state);
			json_str(&j, "command", kt.procs[i].comm);
			json_u64(&j, "threads", kt.procs[i].nthreads);
			json_bool(&j, "zombie", kt.procs[i].zombie);
			json_hex(&j, "proc", kt.procs[i].addr);
			json_end(&j, 0);
		}
		for (size_t i = 0; o->kt == OPT_THREADS && i < kt.nthreads;
		    i++) {
			const struct dk_kthread *t = &kt.threads[i];

			json_begin(&j, NULL, 0);
			json_u64(&j, "tid", (uint64_t)t->tid);
			json_u64(&j, "pid", (uint64_t)t->pid);
			json_str(&j, "command", t->comm);
			json_str(&j, "name", t->name);
			json_str(&j, "state", strcmp(dk_kthread_state(&kt, i),
			    "-") != 0 ? dk_kthread_state(&kt, i) : NULL);
			json_i64_or_null(&j, "td_state", t->state);
			if (t->oncpu >= 0)
				json_u64(&j, "oncpu", (uint64_t)t->oncpu);
			else
				json_str(&j, "oncpu", NULL);
			json_bool(&j, "crashed", t->crashed);
			json_str(&j, "registers_from", kt_src[t->src]);
			json_hex(&j, "thread", t->td);
			json_hex(&j, "pcb", t->pcb);
			json_end(&j, 0);
		}
		json_end(&j, 1);
		json_end(&j, 0);
	} else if (o->kt == OPT_PS) {
		printf("%6s %6s %-9s %5s %s\n", "PID", "PPID", "STAT", "THR",
		    "COMMAND");
		for (size_t i = 0; i < kt.nprocs; i++) {
			char ppid[24] = "-";
			const char *stat = dk_kproc_stat(&kt, i);

			if (kt.procs[i].ppid != DK_KT_UNKNOWN)
				snprintf(ppid, sizeof(ppid), "%jd",
				    (intmax_t)kt.procs[i].ppid);
			printf("%6d %6s %-9s %5zu %s%s\n", kt.procs[i].pid,
			    ppid, stat, kt.procs[i].nthreads,
			    kt.procs[i].comm, kt.procs[i].zombie ||
			    strcmp(stat, "Z") == 0 ? " <defunct>" : "");
		}
	} else {
		printf("%-7s %6s %3s %-9s %-8s %-18s %-18s %-18s %s\n", "TID",
		    "PID", "CPU", "STATE", "REGS", "PC", "SP", "PCB",
		    "COMMAND/THREAD");
		for (size_t i = 0; i < kt.nthreads; i++) {
			const struct dk_kthread *t = &kt.threads[i];
			uint64_t pc = 0, sp = 0;

			if (kt.regs != NULL &&
			    dk_kthread_regs(d, &kt, i, regs, &err) == DK_OK)
				for (size_t k = 0; k < kt.regs->nslots; k++) {
					const struct dk_pcb_slot *s =
					    &kt.regs->slots[k];

					if (strcmp(s->name, "rip") == 0 ||
					    strcmp(s->name, "pc") == 0)
						pc = regs[s->reg];
					if (strcmp(s->name, "rsp") == 0 ||
					    strcmp(s->name, "sp") == 0)
						sp = regs[s->reg];
				}
			printf("%-7d %6d %3s %-9s %-8s %#-18jx %#-18jx %#-18jx "
			    "%s/%s%s\n", t->tid, t->pid, t->oncpu >= 0 ?
			    (char[4]){ (char)('0' + t->oncpu % 10), 0 } : "-",
			    dk_kthread_state(&kt, i), kt_src[t->src], (uintmax_t)pc, (uintmax_t)sp,
			    (uintmax_t)t->pcb, t->comm, t->name,
			    t->crashed ? " (crashed)" : "");
		}
	}
	dk_kthreads_free(&kt);
	return TOOL_OK;
}

static int
run(int argc, char **argv, int *finished)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "read-pa", required_argument, NULL, 'p' },
		{ "read-va", required_argument, NULL, 'r' },
		{ "msgbuf", no_argument, NULL, 'm' },
		{ "ps", no_argument, NULL, OPT_PS },
		{ "threads", no_argument, NULL, OPT_THREADS },
		{ "gdb", no_argument, NULL, OPT_GDB },
		{ "dmesg", no_argument, NULL, OPT_DMESG },
		{ "raw", no_argument, NULL, OPT_RAW },
		{ "info-file", required_argument, NULL, OPT_INFO_FILE },
		{ "zero-excluded", no_argument, NULL, OPT_ZERO_EXCL },
		{ "page-size", required_argument, NULL, OPT_PAGE_SIZE },
		{ "arch", required_argument, NULL, 'a' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		TOOL_LONGOPTS_END
	};
	struct opts o = { 0 };
	struct summary *s;
	struct dk_dump *d;
	struct dk_err err;
	int c, rc = TOOL_OK;

	/* getopt names the program by argv[0]: the tool, not its path. */
	argv[0] = "dumpinfo";
	while ((c = getopt_long(argc, argv, "jp:r:ma:k:qvhV", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'j':
			o.json = 1;
			break;
		case 'p':
		case 'r':
			if (o.read != 0 || parse_range(optarg, &o.addr,
			    &o.len) != 0)
				return tool_usage_error(&tool, "--read-%s: "
				    "expected one ADDR[:LEN] (a hexadecimal "
				    "address; a length, not 0, with K, M, G, T "
				    "or P, the range below 2^64), found '%s'",
				    c == 'p' ? "pa" : "va", optarg);
			o.read = c == 'p' ? 'p' : 'v';
			break;
		case 'm':
			o.msgbuf = 1;
			break;
		case OPT_DMESG:
			o.msgbuf = o.dmesg = 1;
			break;
		case OPT_RAW:
			o.raw = 1;
			break;
		case OPT_PS:
		case OPT_THREADS:
			o.kt = c;
			break;
		case OPT_GDB:
			o.gdb = 1;
			break;
		case OPT_INFO_FILE:
			o.info_file = optarg;
			break;
		case OPT_ZERO_EXCL:
			o.zero_excluded = 1;
			break;
		case 'a':
			o.open.arch = optarg;
			break;
		case 'k':
			o.open.kernel = optarg;
			break;
		case OPT_PAGE_SIZE:
			if (tool_parse_page_size(&tool, optarg,
			    &o.open.page_size) != 0)
				return TOOL_USAGE;	/* it said why */
			break;
		case 'q':
			o.quiet = 1;
			break;
		case 'v':
			o.verbose = 1;
			break;
		default:
			*finished = c == 'h' || c == 'V';
			return tool_option(&tool, c, argv);
		}
	}
	if (argc - optind != 1)
		return tool_usage_error(&tool, "expected one FILE");
	if (o.read != 0 && o.msgbuf)
		return tool_usage_error(&tool, "--%s and --read-%s: one "
		    "at a time", o.dmesg ? "dmesg" : "msgbuf", o.read == 'p' ?
		    "pa" : "va");
	if ((o.json || o.info_file != NULL) && (o.read != 0 || o.msgbuf))
		return tool_usage_error(&tool, "--%s goes with the summary, "
		    "not with --%s", o.json ? "json" : "info-file", o.dmesg ?
		    "dmesg" : o.msgbuf ? "msgbuf" : o.read == 'p' ? "read-pa" :
		    "read-va");
	if (o.raw && o.read == 0 && !o.msgbuf)
		return tool_usage_error(&tool, "--raw goes with --read-pa, "
		    "--read-va or --msgbuf");
	if (o.kt != 0 && (o.open.kernel == NULL || o.read != 0 ||
	    o.msgbuf))
		return tool_usage_error(&tool, "--ps and --threads need "
		    "--kernel FILE, alone");
	if (o.gdb && o.kt != OPT_THREADS)
		return tool_usage_error(&tool, "--gdb goes with --threads");
	o.path = argv[optind];
	if (dk_open(o.path, &o.open, &d, &err) != DK_OK) {
		fprintf(stderr, "dumpinfo: %s\n", err.msg);
		return tool_open_exit(err.code);
	}
	if (o.zero_excluded && dk_zero_excluded(d, 1, &err) != DK_OK) {
		fprintf(stderr, "dumpinfo: --zero-excluded: %s\n", err.msg);
		dk_close(d);
		return TOOL_UNUSABLE;
	}
	if (o.kt != 0)
		rc = do_kthreads(d, &o);
	else if (o.read != 0)
		rc = do_read(d, &o);
	else if (o.msgbuf)
		rc = do_msgbuf(d, &o);
	else if (o.quiet)
		;	/* a dump dumpkit reads: the exit status says so */
	else if ((s = calloc(1, sizeof(*s))) == NULL) {
		fprintf(stderr, "dumpinfo: out of memory\n");
		rc = TOOL_UNUSABLE;
	} else {
		summary_read(d, &o, s);
		if (o.json)
			print_json(d, s);
		else
			print_text(d, &o, s);
		msgbuf_close(&s->mb);
		free(s);
	}
	dk_close(d);
	return rc;
}

int
main(int argc, char **argv)
{
	int finished = 0, rc = run(argc, argv, &finished);

	/* Every path checks stdout's writes, usage errors too. */
	return finished ? rc : tool_finish(&tool, rc);
}
