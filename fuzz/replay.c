/*
 * replay.c -- run a fuzz target over files, without libFuzzer.
 *
 * Linked with one fuzz target instead of libFuzzer, so that any compiler
 * (gcc in `make check`, with or without sanitizers) replays the corpus:
 *
 *	replay_fuzz_minidump [-v] [-x PREFIX] FILE|DIR...
 *
 * Each FILE, and each regular file of each DIR (not recursive, in name
 * order, dot files and, with -x, names starting with PREFIX skipped:
 * -x crash- leaves out the inputs of known open bugs), is read into a heap buffer of exactly its
 * size, so that a sanitizer sees any read past its end, and passed to
 * LLVMFuzzerTestOneInput.  A crash of the target is a crash of this
 * program; an abort (a broken invariant of the target) names the input,
 * and -v names every input before it runs (for sanitizer reports).
 * Exit status: 0 every input ran, 1 an input could not be read, 2 usage
 * error.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* The input being run, for the SIGABRT handler: this driver's only global. */
static const char *volatile current;

static void
on_abort(int sig)
{
	const char *p = current;

	if (p != NULL) {
		(void)!write(2, "replay: aborted on input ", 25);
		(void)!write(2, p, strlen(p));
		(void)!write(2, "\n", 1);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

struct replay {
	int		 verbose;
	const char	*exclude;	/* skip directory entries with this prefix */
	unsigned long	 ran;
	unsigned long	 failed;
};

/* Read path into a malloc'd buffer of exactly its size. */
static int
read_file(const char *path, uint8_t **bufp, size_t *lenp)
{
	struct stat sb;
	uint8_t *buf;
	size_t done = 0, len;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		if (errno == 0)
			errno = EINVAL;
		close(fd);
		return -1;
	}
	len = (size_t)sb.st_size;
	/* malloc(0) may return NULL; a 0-byte input still needs a pointer. */
	if ((buf = malloc(len > 0 ? len : 1)) == NULL) {
		close(fd);
		return -1;
	}
	while (done < len) {
		ssize_t n = read(fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;	/* the file shrank */
			free(buf);
			close(fd);
			return -1;
		}
		done += (size_t)n;
	}
	close(fd);
	*bufp = buf;
	*lenp = len;
	return 0;
}

static void
run_file(struct replay *r, const char *path)
{
	uint8_t *buf;
	size_t len;

	errno = 0;
	if (read_file(path, &buf, &len) != 0) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		r->failed++;
		return;
	}
	if (r->verbose)
		fprintf(stderr, "replay: %s (%zu bytes)\n", path, len);
	current = path;
	(void)LLVMFuzzerTestOneInput(buf, len);
	current = NULL;
	free(buf);
	r->ran++;
}

static int
skip_dot(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

static void
run_dir(struct replay *r, const char *dir)
{
	struct dirent **names;
	int n;

	if ((n = scandir(dir, &names, skip_dot, alphasort)) < 0) {
		fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
		r->failed++;
		return;
	}
	for (int i = 0; i < n; i++) {
		size_t len = strlen(dir) + strlen(names[i]->d_name) + 2;
		char *path = malloc(len);
		struct stat sb;

		if (r->exclude != NULL && strncmp(names[i]->d_name, r->exclude,
		    strlen(r->exclude)) == 0) {
			free(path);
			free(names[i]);
			continue;
		}
		if (path == NULL) {
			fprintf(stderr, "replay: out of memory\n");
			r->failed++;
		} else {
			snprintf(path, len, "%s/%s", dir, names[i]->d_name);
			if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode))
				run_file(r, path);
			free(path);
		}
		free(names[i]);
	}
	free(names);
}

int
main(int argc, char **argv)
{
	struct replay r = { 0, NULL, 0, 0 };
	struct stat sb;
	int i = 1;

	signal(SIGABRT, on_abort);
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "-v") == 0)
			r.verbose = 1;
		else if (strcmp(argv[i], "-x") == 0 && i + 1 < argc)
			r.exclude = argv[++i];
		else
			break;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: %s [-v] [-x PREFIX] FILE|DIR...\n",
		    argv[0]);
		return 2;
	}
	for (; i < argc; i++) {
		if (stat(argv[i], &sb) == 0 && S_ISDIR(sb.st_mode))
			run_dir(&r, argv[i]);
		else
			run_file(&r, argv[i]);
	}
	printf("%s: %lu inputs replayed, %lu unreadable\n", argv[0], r.ran,
	    r.failed);
	return r.failed == 0 ? 0 : 1;
}
