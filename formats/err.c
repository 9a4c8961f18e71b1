/*
 * err.c -- the error object.  Messages are built in a fixed buffer, so
 * reporting never allocates and out-of-memory can still be told.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "private.h"

static enum dk_status
set(struct dk_err *err, enum dk_status code, uint64_t off, size_t start,
    const char *fmt, va_list ap)
{
	err->code = code;
	err->sys_errno = 0;
	err->offset = off;
	err->file = 0;
	(void)vsnprintf(err->msg + start, sizeof(err->msg) - start, fmt, ap);
	return code;
}

DK_EXPORT enum dk_status
dk_err_set(struct dk_err *err, enum dk_status code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	(void)set(err, code, DK_ERR_NOOFFSET, 0, fmt, ap);
	va_end(ap);
	return code;
}

DK_EXPORT enum dk_status
dk_err_at(struct dk_err *err, enum dk_status code, const char *name,
    uint64_t off, const char *fmt, ...)
{
	int n = snprintf(err->msg, sizeof(err->msg), "%s: offset %#jx: ",
	    name, (uintmax_t)off);
	va_list ap;

	if (n < 0 || (size_t)n >= sizeof(err->msg))
		n = (int)strlen(err->msg);
	va_start(ap, fmt);
	(void)set(err, code, off, (size_t)n, fmt, ap);
	va_end(ap);
	return code;
}

DK_EXPORT enum dk_status
dk_err_off(struct dk_err *err, enum dk_status code, uint64_t off,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	(void)set(err, code, off, 0, fmt, ap);
	va_end(ap);
	return code;
}

enum dk_status
dk_err_code(struct dk_err *err, enum dk_status code)
{
	err->code = code;
	err->sys_errno = 0;
	err->offset = DK_ERR_NOOFFSET;
	err->file = 0;
	err->msg[0] = '\0';
	return code;
}

/*
 * Add outer context and keep the code: "page 0x1f000" + "bad entry"
 * becomes "page 0x1f000: bad entry".  Truncates, never allocates.
 */
DK_EXPORT enum dk_status
dk_err_prefix(struct dk_err *err, const char *fmt, ...)
{
	char inner[sizeof(err->msg)];
	size_t n, k;
	va_list ap;

	memcpy(inner, err->msg, sizeof(inner));
	va_start(ap, fmt);
	(void)vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	n = strlen(err->msg);
	if (sizeof(err->msg) - n > 3) {
		memcpy(err->msg + n, ": ", 2);
		n += 2;
		k = strnlen(inner, sizeof(inner));
		if (k > sizeof(err->msg) - n - 1)
			k = sizeof(err->msg) - n - 1;
		memcpy(err->msg + n, inner, k);
		err->msg[n + k] = '\0';
	}
	return err->code;
}

DK_EXPORT void
dk_err_clear(struct dk_err *err)
{
	err->code = DK_OK;
	err->sys_errno = 0;
	err->offset = DK_ERR_NOOFFSET;
	err->file = 0;
	err->msg[0] = '\0';
}

DK_EXPORT const char *
dk_status_name(enum dk_status st)
{
	static const char *const names[] = {
		[DK_OK] = "OK", [DK_NOMATCH] = "NOMATCH", [DK_ESYS] = "ESYS",
		[DK_ETRUNC] = "ETRUNC", [DK_ECORRUPT] = "ECORRUPT",
		[DK_EUNSUP] = "EUNSUP", [DK_ELIMIT] = "ELIMIT",
		[DK_ENOMEM] = "ENOMEM", [DK_EINVAL] = "EINVAL",
		[DK_ENOTMAPPED] = "ENOTMAPPED", [DK_ENOTDUMPED] = "ENOTDUMPED",
		[DK_EAMBIG] = "EAMBIG",
	};

	if ((size_t)st < DK_ARRAY_LEN(names) && names[st] != NULL)
		return names[st];
	return "E?";
}

DK_EXPORT const char *
dumpkit_version(void)
{
	return DK_VERSION_STRING;
}
