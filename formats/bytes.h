/*
 * bytes.h -- the only place where file bytes become integers.
 *
 * File bytes are never cast to a struct: dump data may be misaligned and
 * in either byte order.  Every byte is widened to an unsigned type before
 * it is shifted, so no shift reaches a sign bit.  The byte order is a
 * value (enum dk_endian), chosen once per input and passed explicitly.
 */
#ifndef DK_BYTES_H
#define DK_BYTES_H

#include <stdint.h>

#include "dumpkit.h"

static inline uint16_t
dec_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (unsigned)p[1] << 8);
}

static inline uint16_t
dec_be16(const uint8_t *p)
{
	return (uint16_t)((unsigned)p[0] << 8 | p[1]);
}

static inline uint32_t
dec_le32(const uint8_t *p)
{
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[1] << 8 | (uint32_t)p[0];
}

static inline uint32_t
dec_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static inline uint64_t
dec_le64(const uint8_t *p)
{
	return (uint64_t)dec_le32(p + 4) << 32 | dec_le32(p);
}

static inline uint64_t
dec_be64(const uint8_t *p)
{
	return (uint64_t)dec_be32(p) << 32 | dec_be32(p + 4);
}

static inline void
enc_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void
enc_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/*
 * The encoders are written out byte by byte, as the decoders are: GCC
 * merges such stores into one (with a bswap for the other byte order),
 * where a loop over the bytes stays a loop (GCC 12 at -O2: 8 stores, 8
 * shifts and a branch each for a 64-bit field).
 */
static inline void
enc_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline void
enc_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline void
enc_le64(uint8_t *p, uint64_t v)
{
	enc_le32(p, (uint32_t)v);
	enc_le32(p + 4, (uint32_t)(v >> 32));
}

static inline void
enc_be64(uint8_t *p, uint64_t v)
{
	enc_be32(p, (uint32_t)(v >> 32));
	enc_be32(p + 4, (uint32_t)v);
}

/* Decode an unsigned integer of 1, 2, 4 or 8 bytes in byte order e. */
static inline uint64_t
dec_uint(const uint8_t *p, unsigned width, enum dk_endian e)
{
	switch (width) {
	case 1:
		return p[0];
	case 2:
		return e == DK_BE ? dec_be16(p) : dec_le16(p);
	case 4:
		return e == DK_BE ? dec_be32(p) : dec_le32(p);
	default:
		return e == DK_BE ? dec_be64(p) : dec_le64(p);
	}
}

/* Encode the low width bytes of v (width 1, 2, 4 or 8) in byte order e. */
static inline void
enc_uint(uint8_t *p, unsigned width, enum dk_endian e, uint64_t v)
{
	switch (width) {
	case 1:
		p[0] = (uint8_t)v;
		break;
	case 2:
		e == DK_BE ? enc_be16(p, (uint16_t)v) : enc_le16(p, (uint16_t)v);
		break;
	case 4:
		e == DK_BE ? enc_be32(p, (uint32_t)v) : enc_le32(p, (uint32_t)v);
		break;
	default:
		e == DK_BE ? enc_be64(p, v) : enc_le64(p, v);
		break;
	}
}

#endif /* DK_BYTES_H */
