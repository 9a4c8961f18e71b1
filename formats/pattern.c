/*
 * pattern.c -- the content of generated fixtures, a function of
 * (seed, physical address) that any reader can recompute.  The
 * definition is docs/fixture-pattern.md; keep the two in step.
 *
 *	mix(x)      = splitmix64's finaliser of x + 0x9e3779b97f4a7c15
 *	frame f     = pa >> 12 (4 KiB frames, whatever the page size)
 *	zero(f)     = mix(seed ^ 0x5a45524f50414745 ^ f) % 4 != 0
 *	word(a)     = mix(seed ^ 0x7061747465726e00 ^ a), a 8-aligned
 *
 * A byte at pa is 0 if its frame is zero, else byte (pa % 8) of word
 * (pa & ~7) stored little-endian.  Three frames in four are zero, as in
 * a kernel's memory, so a generated dump is mostly holes on disk.
 */
#include <string.h>

#include "bytes.h"
#include "private.h"

#define	SALT_ZERO	0x5a45524f50414745ull	/* "ZEROPAGE" */
#define	SALT_WORD	0x7061747465726e00ull	/* "pattern\0" */

static uint64_t
mix(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

DK_EXPORT int
dk_pattern_zero(uint64_t seed, uint64_t pa)
{
	return mix(seed ^ SALT_ZERO ^ (pa >> 12)) % 4 != 0;
}

DK_EXPORT uint64_t
dk_pattern_word(uint64_t seed, uint64_t pa)
{
	return mix(seed ^ SALT_WORD ^ (pa & ~7ull));
}

DK_EXPORT void
dk_pattern_fill(uint64_t seed, uint64_t pa, void *buf, size_t len)
{
	uint8_t *p = buf;

	while (len > 0) {
		size_t n = 4096 - (size_t)(pa & 4095);

		if (n > len)
			n = len;
		if (dk_pattern_zero(seed, pa)) {
			memset(p, 0, n);
		} else if ((pa & 7) == 0 && (n & 7) == 0) {
			for (size_t i = 0; i < n; i += 8)
				enc_le64(p + i, dk_pattern_word(seed, pa + i));
		} else {
			for (size_t i = 0; i < n; i++) {
				uint8_t w[8];

				enc_le64(w, dk_pattern_word(seed, pa + i));
				p[i] = w[(pa + i) & 7];
			}
		}
		p += n;
		pa += n;
		len -= n;
	}
}
