/*
 * kdumpfile_san.h -- the sanitizer defaults of the programs that link
 * libkdumpfile (tests/kdumpfile_read.c, tests/kdumpfile_kdump.c), so
 * that the suites using them run under ASan (make SANITIZE=1) and still
 * sanitize dumpkit's library, which the programs link too:
 *  - LeakSanitizer ignores the leaks whose stack goes through
 *    libkdumpfile or libaddrxlat (0.5.1 leaks its attribute and
 *    translation objects at kdump_free);
 *  - a failed malloc returns NULL instead of aborting: libkdumpfile
 *    0.5.1 mallocs the byte-swapped section size of a QEMU big-endian
 *    vmcore (terabytes) and handles the NULL itself.
 * Include it once, in the program's main file.
 */
#ifndef DK_KDUMPFILE_SAN_H
#define DK_KDUMPFILE_SAN_H

#if defined(__SANITIZE_ADDRESS__)
/* Read by the sanitizer runtime at start-up (weak in the runtime). */
const char *__lsan_default_suppressions(void);
const char *__asan_default_options(void);

__attribute__((visibility("default"), used)) const char *
__lsan_default_suppressions(void)
{
	return "leak:libkdumpfile.so\nleak:libaddrxlat.so\n";
}

__attribute__((visibility("default"), used)) const char *
__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}
#endif

#endif
