/*
 * test.h - a minimal unit-test harness.  CHECK records a failure with its
 * position and continues; TEST_MAIN's caller returns test_summary(), which
 * prints "N passed, N failed" and the exit status.
 */
#ifndef RS_TEST_H
#define RS_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_passed, test_failed;

#define CHECK(cond)                                                                                \
  do {                                                                                             \
    if (cond) {                                                                                    \
      test_passed++;                                                                               \
    } else {                                                                                       \
      test_failed++;                                                                               \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);                     \
    }                                                                                              \
  } while (0)

#define CHECK_MSG(cond, ...)                                                                       \
  do {                                                                                             \
    if (cond) {                                                                                    \
      test_passed++;                                                                               \
    } else {                                                                                       \
      test_failed++;                                                                               \
      fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond);                     \
      fprintf(stderr, __VA_ARGS__);                                                                \
      fputc('\n', stderr);                                                                         \
    }                                                                                              \
  } while (0)

#define CHECK_STR(a, b)                                                                            \
  do {                                                                                             \
    const char *a_ = (a), *b_ = (b);                                                               \
    if (a_ && b_ && strcmp(a_, b_) == 0) {                                                         \
      test_passed++;                                                                               \
    } else {                                                                                       \
      test_failed++;                                                                               \
      fprintf(stderr, "%s:%d: CHECK_STR failed:\n--- got:\n%s\n--- want:\n%s\n", __FILE__,         \
              __LINE__, a_ ? a_ : "(null)", b_ ? b_ : "(null)");                                   \
    }                                                                                              \
  } while (0)

static inline int test_summary(void) {
  printf("%d passed, %d failed\n", test_passed, test_failed);
  return test_failed ? 1 : 0;
}

/* Reads a whole file into a malloc'd NUL-terminated buffer, or NULL. */
static inline char *test_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n + 1);
  size_t got = fread(buf, 1, (size_t)n, f);
  fclose(f);
  buf[got] = 0;
  if (len)
    *len = got;
  return buf;
}

#endif
