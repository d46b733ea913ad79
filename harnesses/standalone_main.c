/*
 * standalone_main.c - a main() for fuzz targets built without libFuzzer
 * (gcc, or any compiler).  It runs every file named on the command line,
 * and every regular file inside every directory named, through
 * LLVMFuzzerTestOneInput, in the order given (directory entries sorted), so
 * a crash file reproduces the same way as under libFuzzer.  Arguments that
 * start with '-' are passed to LLVMFuzzerInitialize (when the target has
 * one) and otherwise ignored, as libFuzzer flags would be.  The file
 * being run is rs_standalone_file, so that a report can name it (no crash
 * file is written: the input is that file).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);

/* The input file being run, or NULL. */
const char *rs_standalone_file;

static int run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "standalone: cannot open %s\n", path);
    return 1;
  }
  uint8_t *buf = NULL;
  size_t len = 0, cap = 0;
  for (;;) {
    if (len == cap) {
      cap = cap ? 2 * cap : 4096;
      buf = realloc(buf, cap);
    }
    size_t got = fread(buf + len, 1, cap - len, f);
    if (got == 0)
      break;
    len += got;
  }
  fclose(f);
  fprintf(stderr, "Running: %s (%zu bytes)\n", path, len);
  /* Copy to an exact-size buffer so ASan catches reads past the input. */
  uint8_t *exact = malloc(len ? len : 1);
  if (len)
    memcpy(exact, buf, len);
  free(buf);
  rs_standalone_file = path;
  LLVMFuzzerTestOneInput(exact, len);
  rs_standalone_file = NULL;
  free(exact);
  return 0;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) {
    fprintf(stderr, "standalone: cannot open directory %s\n", dir);
    return 1;
  }
  char **names = NULL;
  size_t n = 0, cap = 0;
  struct dirent *de;
  while ((de = readdir(d))) {
    if (de->d_name[0] == '.')
      continue;
    if (n == cap) {
      cap = cap ? 2 * cap : 64;
      names = realloc(names, cap * sizeof *names);
    }
    names[n++] = strdup(de->d_name);
  }
  closedir(d);
  qsort(names, n, sizeof *names, cmp_str);
  int bad = 0;
  for (size_t i = 0; i < n; i++) {
    size_t len = strlen(dir) + strlen(names[i]) + 2;
    char *path = malloc(len);
    snprintf(path, len, "%s/%s", dir, names[i]);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
      bad |= run_file(path);
    free(path);
    free(names[i]);
  }
  free(names);
  return bad;
}

int main(int argc, char **argv) {
  if (LLVMFuzzerInitialize)
    LLVMFuzzerInitialize(&argc, &argv);
  int bad = 0, ran = 0;
  for (int i = 1; i < argc; i++) {
    if (argv[i][0] == '-')
      continue;
    struct stat st;
    if (stat(argv[i], &st) != 0) {
      fprintf(stderr, "standalone: no such file: %s\n", argv[i]);
      bad = 1;
      continue;
    }
    bad |= S_ISDIR(st.st_mode) ? run_dir(argv[i]) : run_file(argv[i]);
    ran++;
  }
  if (!ran) {
    fprintf(stderr,
            "usage: %s FILE|DIR... (standalone driver: runs each "
            "input once; built without libFuzzer)\n",
            argv[0]);
    return 2;
  }
  fprintf(stderr, "standalone: done\n");
  return bad;
}
