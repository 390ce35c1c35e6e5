// SPDX-License-Identifier: GPL-2.0
/*
 * The corpus replay: a fuzz target built as a plain program (any C
 * compiler, with ASan/UBSan) that runs LLVMFuzzerTestOneInput() on every
 * file of its corpus, so that make check keeps every input the fuzzers
 * ever found, and every seed, as a regression test. Prints TAP, one test
 * per file; a broken property or a sanitizer report aborts the run.
 *
 *   fuzz-NAME            replay the corpus the program was built with
 *   fuzz-NAME PATH...    replay these files, or every file in these folders
 */
#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static unsigned int tests;

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int replay_file(const char *path)
{
	uint8_t *buf = NULL;
	long size;
	FILE *f = fopen(path, "rb");

	if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		printf("not ok %u - %s: %s\n", ++tests, path, strerror(errno));
		if (f)
			fclose(f);
		return 1;
	}
	buf = malloc(size ? (size_t)size : 1);
	if (!buf || fread(buf, 1, (size_t)size, f) != (size_t)size) {
		printf("not ok %u - %s: cannot read\n", ++tests, path);
		free(buf);
		fclose(f);
		return 1;
	}
	fclose(f);
	fflush(stdout);
	/* Exactly the bytes: a copy the size of the file, as libFuzzer does. */
	LLVMFuzzerTestOneInput(buf, (size_t)size);
	free(buf);
	printf("ok %u - %s\n", ++tests, path);
	return 0;
}

/* Every regular file of @dir, in name order so the output is stable. */
static int replay_dir(const char *dir)
{
	char **names = NULL, path[4096];
	size_t n = 0, cap = 0, i;
	struct dirent *e;
	int failed = 0;
	DIR *d = opendir(dir);

	if (!d) {
		printf("not ok %u - %s: %s\n", ++tests, dir, strerror(errno));
		return 1;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			names = realloc(names, cap * sizeof(*names));
			if (!names)
				abort();
		}
		names[n] = strdup(e->d_name);
		if (!names[n++])
			abort();
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_names);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		failed |= replay_file(path);
		free(names[i]);
	}
	free(names);
	if (!n) {
		printf("not ok %u - %s: empty corpus\n", ++tests, dir);
		failed = 1;
	}
	return failed;
}

static int replay(const char *path)
{
	struct stat st;

	if (stat(path, &st)) {
		printf("not ok %u - %s: %s\n", ++tests, path, strerror(errno));
		return 1;
	}
	return S_ISDIR(st.st_mode) ? replay_dir(path) : replay_file(path);
}

int main(int argc, char **argv)
{
	int failed = 0, i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2) {
		failed = replay(FUZZ_CORPUS);
	} else {
		for (i = 1; i < argc; i++)
			failed |= replay(argv[i]);
	}
	printf("1..%u\n", tests);
	return failed;
}
