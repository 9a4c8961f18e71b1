/*
 * maxrss -- run a command; print its wall time and peak RSS.
 *
 *	maxrss [-u] COMMAND [ARG...]
 *
 * Prints "SECONDS MAXRSS_KIB" on stdout once COMMAND has exited (its own
 * stdout and stderr are left alone); with -u, "SECONDS MAXRSS_KIB
 * CPU_SECONDS", the third its user + system time (of its children too,
 * where it waited for them), which the machine's load does not inflate
 * as it does the wall time.  The peak RSS comes from wait4(), so
 * it is the command's whole life; this program is small, so what the
 * child had before exec (a fork of this program) barely counts, which is
 * not so of a fork of a shell or of python.  /usr/bin/time would do, but
 * it is not installed everywhere.  Exit status: the command's, or 127 if
 * it could not be run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	struct timespec t0, t1;
	struct rusage ru;
	int status, cpu = 0;
	pid_t pid;

	if (argc > 1 && strcmp(argv[1], "-u") == 0) {
		cpu = 1;
		argc--;
		argv++;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: maxrss [-u] COMMAND [ARG...]\n");
		return 127;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if ((pid = fork()) < 0) {
		perror("maxrss: fork");
		return 127;
	}
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		perror(argv[1]);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid) {
		perror("maxrss: wait4");
		return 127;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%.3f %ld", (double)(t1.tv_sec - t0.tv_sec) +
	    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9, ru.ru_maxrss);
	if (cpu)
		printf(" %.3f", (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
		    (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6);
	printf("\n");
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
