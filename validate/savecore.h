/*
 * savecore.h -- the info.N file savecore(8) writes beside vmcore.N: the
 * dump's kerneldumpheader as text, which a saved vmcore no longer has.
 * Read by dumpinfo and dumpconv (linked into both; public API only).
 *
 * savecore's printheader() (sbin/savecore/savecore.c) writes, in this
 * order, one "  Name: value" line per field under a first line naming
 * the device:
 *
 *	Dump header from device: /dev/ada0p3
 *	  Architecture: amd64
 *	  Architecture Version: 2
 *	  Dump Length: 8589934592
 *	  Blocksize: 512
 *	  Compression: none
 *	  Dumptime: 2026-01-01 04:00:00 +0100
 *	  Hostname: host.example.org
 *	  Magic: FreeBSD Kernel Dump
 *	  Version String: FreeBSD 14.1-RELEASE #0: ...
 *	    root@builder:/usr/obj/usr/src/amd64.amd64/sys/GENERIC
 *	  Panic String: page fault
 *	  Dump Parity: 1234567890
 *	  Bounds: 0
 *	  Dump Status: good
 *
 * Three shapes of it are read: the current one (libxo, the time by
 * strftime "%F %T %z", as FreeBSD 14 writes it: its UTC offset is
 * given, so the time is exact); the libxo one before it (FreeBSD 11
 * on: the time by ctime(3), "Thu Jan  1 04:00:00 2026", the saving
 * machine's local time, its zone not written); and the fprintf one of
 * FreeBSD 10 and before ("Dump header from device /dev/ada0p3" without
 * the colon, "Dump Length: 8589934592B (8192 MB)", no Compression
 * line, ctime).  The version string keeps the
 * kernel's newlines, so it runs over several lines; savecore prints it
 * with no newline of its own, so a version string cut at the header's
 * 192 bytes runs into "  Panic String: " on one line.  Names savecore
 * does not write are skipped (a later savecore may add some).  Not read:
 * the JSON and XML an info file holds when savecore ran with --libxo
 * json or xml (refused, with that reason).
 */
#ifndef DK_SAVECORE_H
#define DK_SAVECORE_H

#include <stdint.h>
#include <stdio.h>

#include "dumpkit.h"
#include "json.h"

/* Bytes of an info file read at most: savecore's are under 2 KiB. */
#define	SAVECORE_INFO_MAX	16384

/* The fields a file had (struct savecore_info.have). */
#define	SC_DEVICE	0x0001u
#define	SC_ARCH		0x0002u
#define	SC_ARCHVER	0x0004u
#define	SC_LENGTH	0x0008u
#define	SC_BLOCKSIZE	0x0010u
#define	SC_COMPRESSION	0x0020u
#define	SC_TIME		0x0040u
#define	SC_HOSTNAME	0x0080u
#define	SC_MAGIC	0x0100u
#define	SC_VERSION	0x0200u
#define	SC_PANIC	0x0400u
#define	SC_PARITY	0x0800u
#define	SC_BOUNDS	0x1000u
#define	SC_STATUS	0x2000u

/* What the Dumptime line tells. */
enum savecore_time {
	SC_TIME_NONE = 0,	/* no Dumptime line, or an empty one */
	SC_TIME_UTC,		/* "%F %T %z": epoch is exact */
	SC_TIME_LOCAL,		/* ctime(3): local time, zone not written */
};

struct savecore_info {
	char		 path[1024];	/* as opened */
	char		 source[64];	/* its last component: "info.0" */
	unsigned	 have;		/* SC_* */
	char		 device[256];
	char		 architecture[32];
	uint32_t	 archversion;
	uint64_t	 dumplength;
	uint32_t	 blocksize;
	char		 compression[16];
	char		 dumptime[64];	/* the value as written */
	enum savecore_time time_kind;
	uint64_t	 epoch;		/* SC_TIME_UTC: seconds since 1970 UTC */
	int		 utcoff;	/* SC_TIME_UTC: the offset, in minutes */
	int		 tm[6];		/* as written: year, month (1-12), day,
					   hour, minute, second */
	char		 hostname[72];
	char		 magic[32];
	char		 versionstring[256];	/* its lines joined by '\n' */
	char		 panicstring[256];
	uint32_t	 parity;
	uint32_t	 bounds;
	char		 status[16];	/* "good", "bad", "unknown" */
};

/*
 * The info file savecore wrote beside the dump at path dump, if dump
 * has a name savecore gives: DIR/vmcore.N -> DIR/info.N, also
 * vmcore.N.gz, .zst and .xz, vmcore.last -> info.last, livecore.N.
 * 0, or -1 if the name is not savecore's (or buf is too small).
 */
int		savecore_info_name(const char *dump, char *buf, size_t n);

/*
 * Read and parse the info file at path into *si: DK_OK; DK_ESYS (could
 * not open or read it; err.sys_errno ENOENT if there is none); else
 * DK_ECORRUPT, DK_EUNSUP or DK_ELIMIT, the message naming the file, the
 * line and its offset, what was expected and what was found.
 */
enum dk_status	savecore_info_read(const char *path, struct savecore_info *si,
		    struct dk_err *err);

/*
 * For the tools: read path if it is not NULL, else the info file beside
 * dump.  DK_NOMATCH if path is NULL and there is no such file (or the
 * dump's name is not savecore's); DK_OK; or the error of
 * savecore_info_read(), which a tool reports as a warning and goes on.
 */
enum dk_status	savecore_info_find(const char *dump, const char *path,
		    struct savecore_info *si, struct dk_err *err);

/*
 * The dump time in ISO 8601 into buf: UTC for SC_TIME_UTC
 * ("2026-01-01T03:00:00Z"), the local time as written for
 * SC_TIME_LOCAL ("2026-01-01T04:00:00", no zone designator), "" for
 * SC_TIME_NONE.  Returns buf.
 */
const char     *savecore_info_time(const struct savecore_info *si, char *buf,
		    size_t n);

/* The fields the file had, one "  name: value" line each, to fp. */
void		savecore_info_print(FILE *fp, const struct savecore_info *si);

/* The same as a JSON object, member key of the open object j. */
void		savecore_info_json(struct json *j, const char *key,
		    const struct savecore_info *si);

#endif /* DK_SAVECORE_H */
