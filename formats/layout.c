/*
 * layout.c -- decode and encode a header through its layout table.
 *
 * Each on-disk header is described once, as a table of fields (name,
 * offset, width, kind, versions).  The reader, the writer, the fixture
 * generator and the validator all go through these two loops, so no
 * field's offset is written twice.
 */
#include <string.h>

#include "bytes.h"
#include "private.h"

const struct dk_field *
dk_layout_find(const struct dk_layout *l, unsigned id, unsigned version)
{
	for (size_t i = 0; i < l->nfields; i++) {
		const struct dk_field *f = &l->fields[i];

		if (f->id == id && (f->versions & DK_V(version)))
			return f;
	}
	return NULL;
}

size_t
dk_layout_size(const struct dk_layout *l, unsigned version)
{
	size_t end = 0;

	for (size_t i = 0; i < l->nfields; i++) {
		const struct dk_field *f = &l->fields[i];

		if ((f->versions & DK_V(version)) && f->off + f->size > end)
			end = f->off + f->size;
	}
	return end;
}

void
dk_layout_decode(const struct dk_layout *l, unsigned version,
    const uint8_t *buf, enum dk_endian e, struct dk_hdr *h)
{
	memset(h, 0, sizeof(*h));
	for (size_t i = 0; i < l->nfields; i++) {
		const struct dk_field *f = &l->fields[i];
		const uint8_t *p = buf + f->off;

		if (!(f->versions & DK_V(version)) || f->kind == DK_FK_PAD ||
		    f->kind == DK_FK_ARRAY)
			continue;
		h->present[f->id >> 6] |= (uint64_t)1 << (f->id & 63);
		if (f->kind == DK_FK_CHARS) {
			size_t n = f->size < sizeof(h->s[0]) - 1 ? f->size :
			    sizeof(h->s[0]) - 1;

			memcpy(h->s[f->id], p, n);
			h->s[f->id][n] = '\0';
		} else
			h->v[f->id] = dec_uint(p, f->size, e);
	}
}

/*
 * Does v fit field f?  An unsigned field holds 0 to 2^(8 size) - 1; a
 * signed one (C int) its two's complement range too, given as the
 * 64-bit value (-1 is 0xffffffffffffffff) or as the field's own bits
 * (0xffffffff, as dk_layout_decode returns it).
 */
static int
fits(const struct dk_field *f, uint64_t v)
{
	uint64_t max;

	if (f->size >= 8)
		return 1;
	max = ((uint64_t)1 << (8 * f->size)) - 1;
	if (v <= max)
		return 1;
	return f->kind == DK_FK_INT && v >= ~(max >> 1);
}

/*
 * Every integer is checked before a byte is written: a value wider than
 * its field (a 128 TiB machine's bitmapsize of 2^32 in a uint32_t) would
 * be written as its low bits, a valid-looking header that lies.  Char
 * arrays are cut to their field, as the kernel's strlcpy cuts them.
 */
enum dk_status
dk_layout_encode(const struct dk_layout *l, unsigned version, uint8_t *buf,
    enum dk_endian e, const struct dk_hdr *h, struct dk_err *err)
{
	for (size_t i = 0; i < l->nfields; i++) {
		const struct dk_field *f = &l->fields[i];
		uint64_t v = h->v[f->id];

		if (!(f->versions & DK_V(version)) || (f->kind != DK_FK_UINT &&
		    f->kind != DK_FK_INT) || fits(f, v))
			continue;
		return dk_err_set(err, DK_EINVAL, "%s version %u header: "
		    "field %s (%s, %u bytes) cannot hold %ju (%#jx): at most "
		    "%ju", l->name, version, f->name, f->ctype != NULL ?
		    f->ctype : f->kind == DK_FK_INT ? "signed" : "unsigned",
		    f->size, (uintmax_t)v, (uintmax_t)v,
		    (uintmax_t)(((uint64_t)1 << (8 * f->size)) - 1) >>
		    (f->kind == DK_FK_INT));
	}
	for (size_t i = 0; i < l->nfields; i++) {
		const struct dk_field *f = &l->fields[i];
		uint8_t *p = buf + f->off;

		if (!(f->versions & DK_V(version)) || f->kind == DK_FK_PAD ||
		    f->kind == DK_FK_ARRAY)
			continue;
		if (f->kind == DK_FK_CHARS) {
			size_t n = strnlen(h->s[f->id], f->size);

			memset(p, 0, f->size);
			memcpy(p, h->s[f->id], n);
		} else
			enc_uint(p, f->size, e, h->v[f->id]);
	}
	return DK_OK;
}
