/*
 * maxrss -- run a command; print its wall time and peak RSS.
 *
 *	maxrss COMMAND [ARG...]
 *
 * Prints "SECONDS MAXRSS_KIB" on stdout once COMMAND has exited (its own
 * stdout and stderr are left alone).  The peak RSS comes from wait4(), so
 * it is the command's whole life; this program is small, so what the
 * child had before exec (a fork of this program) barely counts, which is
 * not so of a fork of a shell or of python.  /usr/bin/time would do, but
 * it is not installed everywhere.  Exit status: the command's, or 127 if
 * it could not be run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	struct timespec t0, t1;
	struct rusage ru;
	int status;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: maxrss COMMAND [ARG...]\n");
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
	printf("%.3f %ld\n", (double)(t1.tv_sec - t0.tv_sec) +
	    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9, ru.ru_maxrss);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
