/*
 * fuzz_kdwarf.c -- libFuzzer target for the kernel DWARF reader
 * (dk_kernel_dwarf_fd, formats/kdwarf.c): the input is the kernel ELF
 * image --kernel names, whole, in a memory file, read as dumpinfo --ps
 * reads it (libelf, then libdw, or libdwfl for a relocatable object).
 *
 * Whatever the bytes, the reader must end with DK_OK or an error with a
 * message, and what it returns must hold: a struct below 64 KiB, every
 * member it calls usable inside its struct, of a width the walk reads
 * (a pointer of the asked size), the note terminated.  The pointer size
 * asked is 8, or 4 where the input is ELFCLASS32.  A broken invariant
 * aborts.
 *
 * Linked with libFuzzer (make fuzz) or with replay.c (make fuzz-replay).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kthreads.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dk_kdwarf kd;
	struct dk_err err;
	enum dk_status st;
	unsigned ptr = size > 4 && data[4] == 1 ? 4 : 8;
	int fd;

	if ((fd = memfd_create("fuzz-kdwarf", MFD_CLOEXEC)) < 0) {
		perror("memfd_create");
		abort();
	}
	FZ_CHECK(write(fd, data, size) == (ssize_t)size);
	dk_err_clear(&err);
	st = dk_kernel_dwarf_fd(fd, "fuzz-input", ptr, &kd, &err);
	close(fd);
	if (st != DK_OK) {
		FZ_CHECK(err.code == st);
		FZ_CHECK(memchr(err.msg, '\0', sizeof(err.msg)) != NULL);
		FZ_CHECK(err.msg[0] != '\0');
		return 0;
	}
	FZ_CHECK(memchr(kd.note, '\0', sizeof(kd.note)) != NULL);
	for (size_t s = 0; s < 2; s++)
		FZ_CHECK(kd.size[s] < 0x10000);
	for (size_t i = 0; i < DK_KD_N; i++) {
		size_t in = i == DK_KD_TD_STATE ? DK_KD_THREAD : DK_KD_PROC;

		if (kd.width[i] == 0)
			continue;
		FZ_CHECK(kd.size[in] != 0);
		FZ_CHECK(kd.off[i] < kd.size[in]);
		FZ_CHECK(kd.width[i] <= kd.size[in] - kd.off[i]);
		FZ_CHECK(i == DK_KD_P_PPTR ? kd.width[i] == ptr :
		    kd.width[i] == 1 || kd.width[i] == 2 || kd.width[i] == 4 ||
		    kd.width[i] == 8);
	}
	/* A member not used is said why. */
	for (size_t i = 0; i < DK_KD_N; i++)
		FZ_CHECK(kd.width[i] != 0 || i == DK_KD_P_OPPID ||
		    kd.note[0] != '\0');
	return 0;
}
