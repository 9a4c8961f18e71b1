/*
 * savecore.c -- see savecore.h.  The file is small (savecore's are under
 * 2 KiB; more than SAVECORE_INFO_MAX bytes is not one), so it is read
 * whole, then line by line; every field is checked against what
 * printheader() can write, and the first line that breaks the shape is
 * the error, with its number and offset.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "savecore.h"
#include "tool.h"

#define	HEADER_LINE	"Dump header from device"
#define	PANIC_LINE	"  Panic String:"

/* The names printheader() writes, in its order, and what each fills. */
enum field {
	F_ARCH, F_ARCHVER, F_LENGTH, F_BLOCKSIZE, F_COMPRESSION, F_TIME,
	F_HOSTNAME, F_MAGIC, F_VERSION, F_PANIC, F_PARITY, F_BOUNDS,
	F_STATUS,
};

static const struct {
	const char	*name;		/* as savecore writes it */
	const char	*json;		/* its libxo field name */
	unsigned	 bit;
} fields[] = {
	[F_ARCH]	= { "Architecture", "architecture", SC_ARCH },
	[F_ARCHVER]	= { "Architecture Version", "architecture_version",
			    SC_ARCHVER },
	[F_LENGTH]	= { "Dump Length", "dump_length_bytes", SC_LENGTH },
	[F_BLOCKSIZE]	= { "Blocksize", "blocksize", SC_BLOCKSIZE },
	[F_COMPRESSION]	= { "Compression", "compression", SC_COMPRESSION },
	[F_TIME]	= { "Dumptime", "dumptime", SC_TIME },
	[F_HOSTNAME]	= { "Hostname", "hostname", SC_HOSTNAME },
	[F_MAGIC]	= { "Magic", "magic", SC_MAGIC },
	[F_VERSION]	= { "Version String", "version_string", SC_VERSION },
	[F_PANIC]	= { "Panic String", "panic_string", SC_PANIC },
	[F_PARITY]	= { "Dump Parity", "dump_parity", SC_PARITY },
	[F_BOUNDS]	= { "Bounds", "bounds", SC_BOUNDS },
	[F_STATUS]	= { "Dump Status", "dump_status", SC_STATUS },
};
#define	NFIELDS	(sizeof(fields) / sizeof(fields[0]))

static const char wdays[7][4] = { "Sun", "Mon", "Tue", "Wed", "Thu", "Fri",
    "Sat" };
static const char months[12][4] = { "Jan", "Feb", "Mar", "Apr", "May",
    "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };

/* Where the parse is, for messages. */
struct parse {
	struct savecore_info *si;
	struct dk_err	*err;
	unsigned	 lineno;
	uint64_t	 off;		/* its offset in the file */
	int		 in_version;	/* lines continue the version string */
};

/* At most 48 bytes of s, controls as '?', "..." if cut: for "found". */
static const char *
excerpt(const char *s, size_t n, char *buf, size_t bn)
{
	size_t k = 0;

	for (size_t i = 0; i < n && k + 4 < bn && i < 48; i++)
		buf[k++] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' :
		    s[i];
	if (n > 48 && k + 4 < bn) {
		memcpy(buf + k, "...", 3);
		k += 3;
	}
	buf[k] = '\0';
	return buf;
}

/* The error at the current line: "PATH: offset OFF: line N: ...". */
static enum dk_status
bad(struct parse *p, enum dk_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static enum dk_status
bad(struct parse *p, enum dk_status code, const char *fmt, ...)
{
	char msg[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return dk_err_at(p->err, code, p->si->path, p->off, "line %u: %s",
	    p->lineno, msg);
}

/* Decimal digits at s (at least one), at most max: their count, or 0. */
static size_t
decimal(const char *s, size_t n, uint64_t max, uint64_t *v)
{
	uint64_t x = 0;
	size_t i;

	for (i = 0; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
		unsigned d = (unsigned)(s[i] - '0');

		if (x > (max - d) / 10)
			return 0;
		x = x * 10 + d;
	}
	*v = x;
	return i;
}

/* Exactly n decimal digits at s, the value in [lo, hi]: 0, or -1. */
static int
digits(const char *s, size_t n, int lo, int hi, int *v)
{
	uint64_t x;

	if (decimal(s, n, (uint64_t)hi, &x) != n || (int)x < lo)
		return -1;
	*v = (int)x;
	return 0;
}

/* Days from 1970-01-01 to y-m-d of the proleptic Gregorian calendar. */
static int64_t
days_from_civil(int64_t y, int m, int d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static int
mdays(int y, int m)
{
	static const int n[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31,
	    30, 31 };

	return m == 2 && (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) ?
	    29 : n[m - 1];
}

/* The fields of tm[] in range: 0, or -1. */
static int
check_tm(const int *tm)
{
	return tm[1] >= 1 && tm[1] <= 12 && tm[2] >= 1 &&
	    tm[2] <= mdays(tm[0], tm[1]) && tm[3] <= 23 && tm[4] <= 59 &&
	    tm[5] <= 60 ? 0 : -1;
}

/*
 * A Dumptime value: strftime's "%F %T %z" (2026-01-01 04:00:00 +0100)
 * or ctime's "%.3s %.3s%3d %.2d:%.2d:%.2d %d" (Thu Jan  1 04:00:00 2026).
 */
static enum dk_status
parse_time(struct parse *p, const char *s, size_t n)
{
	struct savecore_info *si = p->si;
	int *tm = si->tm, oh, om, wd, i;
	char ex[64];
	int64_t days, t;

	if (n == 0)
		return DK_OK;		/* strftime failed: savecore wrote "" */
	if (n == 25 && s[4] == '-' && s[7] == '-' && s[10] == ' ' &&
	    s[13] == ':' && s[16] == ':' && s[19] == ' ' &&
	    (s[20] == '+' || s[20] == '-') &&
	    digits(s, 4, 0, 9999, &tm[0]) == 0 &&
	    digits(s + 5, 2, 0, 99, &tm[1]) == 0 &&
	    digits(s + 8, 2, 0, 99, &tm[2]) == 0 &&
	    digits(s + 11, 2, 0, 99, &tm[3]) == 0 &&
	    digits(s + 14, 2, 0, 99, &tm[4]) == 0 &&
	    digits(s + 17, 2, 0, 99, &tm[5]) == 0 &&
	    digits(s + 21, 2, 0, 99, &oh) == 0 &&
	    digits(s + 23, 2, 0, 99, &om) == 0) {
		if (tm[0] < 1970 || check_tm(tm) != 0 || oh > 23 || om > 59)
			return bad(p, DK_ECORRUPT, "Dumptime: no such time, "
			    "\"%s\"", excerpt(s, n, ex, sizeof(ex)));
		si->utcoff = (s[20] == '-' ? -1 : 1) * (oh * 60 + om);
		t = days_from_civil(tm[0], tm[1], tm[2]) * 86400 +
		    tm[3] * 3600 + tm[4] * 60 + tm[5] - si->utcoff * 60;
		if (t < 0)
			return bad(p, DK_ECORRUPT, "Dumptime: expected a time "
			    "after 1970-01-01 00:00:00 UTC, found \"%s\"",
			    excerpt(s, n, ex, sizeof(ex)));
		si->epoch = (uint64_t)t;
		si->time_kind = SC_TIME_UTC;
		return DK_OK;
	}
	/* ctime: "Thu Jan  1 04:00:00 2026", the day right-aligned in 3. */
	for (wd = 0; wd < 7 && (n < 3 || memcmp(s, wdays[wd], 3) != 0); wd++)
		;
	for (i = 0; i < 12 && (n < 7 || memcmp(s + 4, months[i], 3) != 0);
	    i++)
		;
	if (n == 24 && wd < 7 && i < 12 && s[3] == ' ' && s[7] == ' ' &&
	    (s[8] == ' ' ? digits(s + 9, 1, 1, 9, &tm[2]) :
	    digits(s + 8, 2, 10, 99, &tm[2])) == 0 && s[10] == ' ' &&
	    digits(s + 11, 2, 0, 99, &tm[3]) == 0 && s[13] == ':' &&
	    digits(s + 14, 2, 0, 99, &tm[4]) == 0 && s[16] == ':' &&
	    digits(s + 17, 2, 0, 99, &tm[5]) == 0 && s[19] == ' ' &&
	    digits(s + 20, 4, 0, 9999, &tm[0]) == 0) {
		tm[1] = i + 1;
		if (tm[0] < 1970 || check_tm(tm) != 0)
			return bad(p, DK_ECORRUPT, "Dumptime: no such time, "
			    "\"%s\"", excerpt(s, n, ex, sizeof(ex)));
		days = days_from_civil(tm[0], tm[1], tm[2]);
		if ((days % 7 + 11) % 7 != wd)	/* 1970-01-01: a Thursday */
			return bad(p, DK_ECORRUPT, "Dumptime: expected %s for "
			    "%04d-%02d-%02d, found \"%.3s\"", wdays[(days %
			    7 + 11) % 7], tm[0], tm[1], tm[2], s);
		si->time_kind = SC_TIME_LOCAL;
		return DK_OK;
	}
	memset(si->tm, 0, sizeof(si->tm));
	return bad(p, DK_ECORRUPT, "Dumptime: expected \"YYYY-MM-DD HH:MM:SS "
	    "+HHMM\" or ctime's \"Thu Jan  1 00:00:00 2026\", found \"%s\"",
	    excerpt(s, n, ex, sizeof(ex)));
}

/* A string value into dst (the header's field, so at most dn - 1). */
static enum dk_status
set_str(struct parse *p, enum field f, char *dst, size_t dn, const char *s,
    size_t n)
{
	if (n >= dn)
		return bad(p, DK_ECORRUPT, "%s: expected at most %zu bytes, "
		    "found %zu", fields[f].name, dn - 1, n);
	memcpy(dst, s, n);
	dst[n] = '\0';
	return DK_OK;
}

/* A number value, all of s; Dump Length may end "B (N MB)" (fprintf). */
static enum dk_status
set_num(struct parse *p, enum field f, const char *s, size_t n, uint64_t max,
    uint64_t *v)
{
	size_t k = decimal(s, n, max, v), m = n > k + 7 ? n - k - 7 : 0;
	uint64_t mb;
	char ex[64];

	/* "8589934592B (8192 MB)": "B (", digits, " MB)". */
	if (k > 0 && f == F_LENGTH && m > 0 && memcmp(s + k, "B (", 3) == 0 &&
	    memcmp(s + n - 4, " MB)", 4) == 0 &&
	    decimal(s + k + 3, m, UINT64_MAX, &mb) == m)
		k = n;
	if (k == 0 || k != n)
		return bad(p, DK_ECORRUPT, "%s: expected a decimal number%s, "
		    "found \"%s\"", fields[f].name, max < UINT64_MAX ?
		    " below 2^32" : "", excerpt(s, n, ex, sizeof(ex)));
	return DK_OK;
}

static enum dk_status field_line(struct parse *, const char *, size_t);

/*
 * The version string: its first line here, the next lines by
 * continue_version().  A version string cut at 192 bytes has no newline
 * of its own, so "  Panic String: " follows it on the same line.
 */
static enum dk_status
add_version(struct parse *p, const char *s, size_t n, int first)
{
	struct savecore_info *si = p->si;
	size_t have = strlen(si->versionstring);
	const char *ps = memmem(s, n, PANIC_LINE, sizeof(PANIC_LINE) - 1);
	size_t take = ps != NULL ? (size_t)(ps - s) : n;

	if (have + !first + take >= sizeof(si->versionstring))
		return bad(p, DK_ECORRUPT, "Version String: expected at most "
		    "%zu bytes, found more", sizeof(si->versionstring) - 1);
	if (!first)
		si->versionstring[have++] = '\n';
	memcpy(si->versionstring + have, s, take);
	si->versionstring[have + take] = '\0';
	p->in_version = ps == NULL;
	return ps != NULL ? field_line(p, ps, n - take) : DK_OK;
}

/* One "  Name: value" line (or its rest, after a cut version string). */
static enum dk_status
field_line(struct parse *p, const char *l, size_t len)
{
	struct savecore_info *si = p->si;
	const char *colon, *v;
	size_t nl, vn;
	uint64_t x;
	char ex[64];
	unsigned f;

	colon = len > 2 ? memchr(l + 2, ':', len - 2) : NULL;
	if (len < 3 || l[0] != ' ' || l[1] != ' ' || l[2] == ' ' ||
	    colon == NULL)
		return bad(p, DK_ECORRUPT, "expected \"  Name: value\", found "
		    "\"%s\"", excerpt(l, len, ex, sizeof(ex)));
	nl = (size_t)(colon - l) - 2;
	v = colon + 1;
	vn = len - (size_t)(v - l);
	if (vn > 0 && *v == ' ')
		v++, vn--;
	for (f = 0; f < NFIELDS; f++)
		if (strlen(fields[f].name) == nl &&
		    memcmp(fields[f].name, l + 2, nl) == 0)
			break;
	if (f == NFIELDS)
		return DK_OK;	/* not one savecore writes today: skipped */
	if (si->have & fields[f].bit)
		return bad(p, DK_ECORRUPT, "%s: expected once, found again",
		    fields[f].name);
	si->have |= fields[f].bit;
	switch ((enum field)f) {
	case F_ARCH:
		return set_str(p, f, si->architecture,
		    sizeof(si->architecture), v, vn);
	case F_ARCHVER:
		if (set_num(p, f, v, vn, UINT32_MAX, &x) != DK_OK)
			return p->err->code;
		si->archversion = (uint32_t)x;
		return DK_OK;
	case F_LENGTH:
		return set_num(p, f, v, vn, UINT64_MAX, &si->dumplength);
	case F_BLOCKSIZE:
		if (set_num(p, f, v, vn, UINT32_MAX, &x) != DK_OK)
			return p->err->code;
		si->blocksize = (uint32_t)x;
		return DK_OK;
	case F_COMPRESSION:
		return set_str(p, f, si->compression, sizeof(si->compression),
		    v, vn);
	case F_TIME:
		if (set_str(p, f, si->dumptime, sizeof(si->dumptime), v, vn) !=
		    DK_OK)
			return p->err->code;
		return parse_time(p, v, vn);
	case F_HOSTNAME:
		return set_str(p, f, si->hostname, sizeof(si->hostname), v,
		    vn);
	case F_MAGIC:
		return set_str(p, f, si->magic, sizeof(si->magic), v, vn);
	case F_VERSION:
		return add_version(p, v, vn, 1);
	case F_PANIC:
		p->in_version = 0;
		return set_str(p, f, si->panicstring, sizeof(si->panicstring),
		    v, vn);
	case F_PARITY:
		if (set_num(p, f, v, vn, UINT32_MAX, &x) != DK_OK)
			return p->err->code;
		si->parity = (uint32_t)x;
		return DK_OK;
	case F_BOUNDS:
		if (set_num(p, f, v, vn, UINT32_MAX, &x) != DK_OK)
			return p->err->code;
		si->bounds = (uint32_t)x;
		return DK_OK;
	case F_STATUS:
		return set_str(p, f, si->status, sizeof(si->status), v, vn);
	}
	return DK_OK;
}

/* The first line: "Dump header from device[:] DEVICE". */
static enum dk_status
header_line(struct parse *p, const char *l, size_t len)
{
	const size_t k = sizeof(HEADER_LINE) - 1;
	const char *dev;
	char ex[64];
	size_t i;

	for (i = 0; i < len && (l[i] == ' ' || l[i] == '\t'); i++)
		;
	if (i < len && (l[i] == '{' || l[i] == '<'))
		return bad(p, DK_EUNSUP, "savecore's %s output (savecore "
		    "--libxo %s): dumpkit reads the text form only",
		    l[i] == '{' ? "JSON" : "XML", l[i] == '{' ? "json" :
		    "xml");
	if (len < k + 1 || memcmp(l, HEADER_LINE, k) != 0 ||
	    (l[k] != ':' && l[k] != ' '))
		return bad(p, DK_ECORRUPT, "expected \"%s: DEVICE\" (savecore's "
		    "info file), found \"%s\"", HEADER_LINE, excerpt(l, len, ex,
		    sizeof(ex)));
	dev = l + k + 1;
	if (l[k] == ':' && dev < l + len && *dev == ' ')
		dev++;
	p->si->have |= SC_DEVICE;
	if ((size_t)(l + len - dev) >= sizeof(p->si->device))
		return bad(p, DK_ECORRUPT, "the device: expected at most %zu "
		    "bytes, found %zu", sizeof(p->si->device) - 1,
		    (size_t)(l + len - dev));
	memcpy(p->si->device, dev, (size_t)(l + len - dev));
	p->si->device[l + len - dev] = '\0';
	return DK_OK;
}

static enum dk_status
parse(struct parse *p, const char *text, size_t n)
{
	struct savecore_info *si = p->si;
	enum dk_status st = DK_OK;
	size_t at = 0, k;

	while (at < n && st == DK_OK) {
		const char *l = text + at, *e = memchr(l, '\n', n - at);
		size_t len = e != NULL ? (size_t)(e - l) : n - at;

		p->lineno++;
		p->off = at;
		at += len + (e != NULL);
		if (p->lineno == 1)
			st = header_line(p, l, len);
		else if (p->in_version && (len < sizeof(PANIC_LINE) - 1 ||
		    memcmp(l, PANIC_LINE, sizeof(PANIC_LINE) - 1) != 0))
			st = add_version(p, l, len, 0);
		else if (len > 0)
			st = field_line(p, l, len);
	}
	if (st == DK_OK && p->lineno == 0) {
		p->lineno = 1;
		st = bad(p, DK_ECORRUPT, "expected \"%s: DEVICE\" (savecore's "
		    "info file), found an empty file", HEADER_LINE);
	}
	/* The version string's own last newline, and blank lines after. */
	k = strlen(si->versionstring);
	while (k > 0 && si->versionstring[k - 1] == '\n')
		si->versionstring[--k] = '\0';
	return st;
}

enum dk_status
savecore_info_read(const char *path, struct savecore_info *si,
    struct dk_err *err)
{
	struct parse p = { .si = si, .err = err };
	const char *base = strrchr(path, '/');
	struct stat sb;
	enum dk_status st;
	size_t n = 0;
	ssize_t r = 0;
	char *buf, *nul;
	int fd;

	memset(si, 0, sizeof(*si));
	dk_err_clear(err);
	if (strlen(path) >= sizeof(si->path))
		return dk_err_set(err, DK_ELIMIT, "%.64s...: expected a path "
		    "under %zu bytes", path, sizeof(si->path));
	strcpy(si->path, path);
	base = base != NULL ? base + 1 : path;
	memcpy(si->source, base, strnlen(base, sizeof(si->source) - 1));
	/* O_NONBLOCK: a FIFO put there must not hang the tool. */
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0 ||
	    fstat(fd, &sb) != 0) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		dk_err_set(err, DK_ESYS, "%s: %s", path, strerror(e));
		err->sys_errno = e;
		return DK_ESYS;
	}
	if (!S_ISREG(sb.st_mode)) {
		close(fd);
		return dk_err_set(err, DK_EUNSUP, "%s: expected savecore's info "
		    "file, found %s", path, S_ISDIR(sb.st_mode) ?
		    "a directory" : "a file that is not a regular file");
	}
	if ((buf = malloc(SAVECORE_INFO_MAX + 1)) == NULL) {
		close(fd);
		return dk_err_set(err, DK_ENOMEM, "%s: out of memory", path);
	}
	while (n <= SAVECORE_INFO_MAX && ((r = read(fd, buf + n,
	    SAVECORE_INFO_MAX + 1 - n)) > 0 || (r < 0 && errno == EINTR)))
		n += r > 0 ? (size_t)r : 0;
	if (r < 0) {
		int e = errno;

		close(fd);
		free(buf);
		dk_err_set(err, DK_ESYS, "%s: %s", path, strerror(e));
		err->sys_errno = e;
		return DK_ESYS;
	}
	close(fd);
	if (n > SAVECORE_INFO_MAX)
		st = dk_err_set(err, DK_ELIMIT, "%s: expected savecore's info "
		    "file (under 2 KiB), found more than %u bytes", path,
		    SAVECORE_INFO_MAX);
	else if ((nul = memchr(buf, '\0', n)) != NULL)
		st = dk_err_at(err, DK_ECORRUPT, path, (uint64_t)(nul - buf),
		    "expected text (savecore's info file), found a NUL byte");
	else
		st = parse(&p, buf, n);
	free(buf);
	return st;
}

int
savecore_info_name(const char *dump, char *buf, size_t n)
{
	const char *base = strrchr(dump, '/'), *num, *rest;
	size_t k;
	int w;

	base = base != NULL ? base + 1 : dump;
	if (strncmp(base, "vmcore.", 7) == 0)
		num = base + 7;
	else if (strncmp(base, "livecore.", 9) == 0)
		num = base + 9;
	else
		return -1;
	k = strspn(num, "0123456789");
	if (k == 0 && strncmp(num, "last", 4) == 0)
		k = 4;
	rest = num + k;
	if (k == 0 || k > 10 || (*rest != '\0' && strcmp(rest, ".gz") != 0 &&
	    strcmp(rest, ".zst") != 0 && strcmp(rest, ".xz") != 0))
		return -1;
	w = snprintf(buf, n, "%.*sinfo.%.*s", (int)(base - dump), dump,
	    (int)k, num);
	return w >= 0 && (size_t)w < n ? 0 : -1;
}

enum dk_status
savecore_info_find(const char *dump, const char *path,
    struct savecore_info *si, struct dk_err *err)
{
	char name[1024];
	enum dk_status st;

	if (path != NULL)
		return savecore_info_read(path, si, err);
	if (savecore_info_name(dump, name, sizeof(name)) != 0)
		return DK_NOMATCH;
	st = savecore_info_read(name, si, err);
	return st == DK_ESYS && err->sys_errno == ENOENT ? DK_NOMATCH : st;
}

const char *
savecore_info_time(const struct savecore_info *si, char *buf, size_t n)
{
	if (n > 0)
		buf[0] = '\0';
	if (si->time_kind == SC_TIME_UTC && n > 0 &&
	    strcmp(tool_iso_time(si->epoch, buf, n), "?") == 0)
		buf[0] = '\0';
	else if (si->time_kind == SC_TIME_LOCAL)
		snprintf(buf, n, "%04d-%02d-%02dT%02d:%02d:%02d", si->tm[0],
		    si->tm[1], si->tm[2], si->tm[3], si->tm[4], si->tm[5]);
	return buf;
}

void
savecore_info_print(FILE *fp, const struct savecore_info *si)
{
	const char *s, *e;
	char tb[32];

	fprintf(fp, "savecore info:  %s (Dump header from device %s)\n",
	    si->path, si->device);
	if (si->have & SC_ARCH)
		fprintf(fp, "  architecture: %s\n", si->architecture);
	if (si->have & SC_ARCHVER)
		fprintf(fp, "  arch version: %u\n", si->archversion);
	if (si->have & SC_LENGTH)
		fprintf(fp, "  dump length:  %ju\n", (uintmax_t)si->dumplength);
	if (si->have & SC_BLOCKSIZE)
		fprintf(fp, "  blocksize:    %u\n", si->blocksize);
	if (si->have & SC_COMPRESSION)
		fprintf(fp, "  compression:  %s\n", si->compression);
	if (si->time_kind == SC_TIME_UTC)
		fprintf(fp, "  dump time:    %s = %ju (%s)\n", si->dumptime,
		    (uintmax_t)si->epoch, savecore_info_time(si, tb,
		    sizeof(tb)));
	else if (si->time_kind == SC_TIME_LOCAL)
		fprintf(fp, "  dump time:    %s (%s, local time, zone not "
		    "recorded)\n", si->dumptime, savecore_info_time(si, tb,
		    sizeof(tb)));
	if (si->have & SC_HOSTNAME)
		fprintf(fp, "  hostname:     %s\n", si->hostname);
	if (si->have & SC_MAGIC)
		fprintf(fp, "  magic:        %s\n", si->magic);
	if (si->have & SC_VERSION) {
		/* Its further lines under the first, as savecore has them. */
		for (s = si->versionstring; ; s = e + 1) {
			e = strchr(s, '\n');
			fprintf(fp, "%s%.*s\n", s == si->versionstring ?
			    "  version:      " : "                ",
			    (int)(e != NULL ? (size_t)(e - s) : strlen(s)), s);
			if (e == NULL)
				break;
		}
	}
	if (si->have & SC_PANIC)
		fprintf(fp, "  panic:        %s\n", si->panicstring);
	if (si->have & SC_PARITY)
		fprintf(fp, "  parity:       %u\n", si->parity);
	if (si->have & SC_BOUNDS)
		fprintf(fp, "  bounds:       %u\n", si->bounds);
	if (si->have & SC_STATUS)
		fprintf(fp, "  dump status:  %s\n", si->status);
}

/* A member: the string if the file had the field, else null. */
static void
json_field_str(struct json *j, const struct savecore_info *si, enum field f,
    const char *s)
{
	json_str(j, fields[f].json, si->have & fields[f].bit ? s : NULL);
}

static void
json_field_u64(struct json *j, const struct savecore_info *si, enum field f,
    uint64_t v)
{
	if (si->have & fields[f].bit)
		json_u64(j, fields[f].json, v);
	else
		json_str(j, fields[f].json, NULL);
}

void
savecore_info_json(struct json *j, const char *key,
    const struct savecore_info *si)
{
	char tb[32];

	json_begin(j, key, 0);
	json_str(j, "path", si->path);
	json_str(j, "source", si->source);
	json_str(j, "dump_device", si->device);
	json_field_str(j, si, F_ARCH, si->architecture);
	json_field_u64(j, si, F_ARCHVER, si->archversion);
	json_field_u64(j, si, F_LENGTH, si->dumplength);
	json_field_u64(j, si, F_BLOCKSIZE, si->blocksize);
	json_field_str(j, si, F_COMPRESSION, si->compression);
	json_field_str(j, si, F_TIME, si->dumptime);
	if (si->time_kind == SC_TIME_UTC)
		json_u64(j, "dumptime_epoch", si->epoch);
	else
		json_str(j, "dumptime_epoch", NULL);
	json_str(j, "dumptime_utc", si->time_kind == SC_TIME_UTC ?
	    savecore_info_time(si, tb, sizeof(tb)) : NULL);
	json_str(j, "dumptime_local", si->time_kind == SC_TIME_LOCAL ?
	    savecore_info_time(si, tb, sizeof(tb)) : NULL);
	json_field_str(j, si, F_HOSTNAME, si->hostname);
	json_field_str(j, si, F_MAGIC, si->magic);
	json_field_str(j, si, F_VERSION, si->versionstring);
	json_field_str(j, si, F_PANIC, si->panicstring);
	json_field_u64(j, si, F_PARITY, si->parity);
	json_field_u64(j, si, F_BOUNDS, si->bounds);
	json_field_str(j, si, F_STATUS, si->status);
	json_end(j, 0);
}
