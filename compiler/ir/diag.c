/*
 * diag.c - error messages with positions, a source excerpt and a caret.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

enum { DIAG_MAX_TEXT = 64 * 1024 }; /* later errors are counted, not kept */
enum { DIAG_CLIP = 80 };            /* bytes of a long source line echoed */

void diag_init(Diag *d, const char *file, const char *src) {
  memset(d, 0, sizeof *d);
  d->file = file;
  d->src = src;
}

static void put(Diag *d, const char *s, size_t n) {
  if (d->len + n + 1 > d->cap) {
    size_t cap = d->cap ? d->cap : 256;
    while (cap < d->len + n + 1)
      cap *= 2;
    d->text = realloc(d->text, cap);
    if (!d->text)
      abort();
    d->cap = cap;
  }
  memcpy(d->text + d->len, s, n);
  d->len += n;
  d->text[d->len] = 0;
}

static void putf(Diag *d, const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  put(d, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

/* The text of line `line` (1-based) of src, without its newline. */
static const char *find_line(const char *src, int line, size_t *len) {
  const char *p = src;
  for (int l = 1; l < line && *p; p++)
    if (*p == '\n')
      l++;
  const char *e = p;
  while (*e && *e != '\n')
    e++;
  *len = (size_t)(e - p);
  return p;
}

/* Echo line l (n bytes) and a caret under column col: a line longer than
 * DIAG_CLIP bytes is clipped to DIAG_CLIP around the caret, "..." marking
 * each cut. */
static void put_excerpt(Diag *d, const char *l, size_t n, int col) {
  size_t at = col > 1 ? (size_t)col - 1 : 0, from = 0, to = n;
  if (n > DIAG_CLIP) {
    from = at > DIAG_CLIP / 2 ? at - DIAG_CLIP / 2 : 0;
    if (from + DIAG_CLIP > n)
      from = n - DIAG_CLIP;
    to = from + DIAG_CLIP;
  }
  if (from)
    put(d, "...", 3);
  put(d, l + from, to - from);
  if (to < n)
    put(d, "...", 3);
  put(d, "\n", 1);
  if (from)
    put(d, "   ", 3);
  for (size_t i = from; i < at && i < to; i++)
    put(d, l[i] == '\t' ? "\t" : " ", 1);
  put(d, "^\n", 2);
}

void diag_verror(Diag *d, int line, int col, const char *fmt, va_list ap) {
  char msg[512];
  vsnprintf(msg, sizeof msg, fmt, ap);
  if (d->count++ == 0) {
    d->line = line;
    d->col = col;
    snprintf(d->first, sizeof d->first, "%s", msg);
  }
  if (d->len > DIAG_MAX_TEXT)
    return;
  const char *file = d->file ? d->file : "<input>";
  if (line > 0) {
    putf(d, "%s:%d:%d: error: %s\n", file, line, col, msg);
    if (d->src) {
      size_t n;
      const char *l = find_line(d->src, line, &n);
      put_excerpt(d, l, n, col);
    }
  } else {
    putf(d, "error: %s\n", msg);
  }
}

void diag_error(Diag *d, int line, int col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_verror(d, line, col, fmt, ap);
  va_end(ap);
}

void diag_reset(Diag *d) {
  free(d->text);
  diag_init(d, d->file, d->src);
}

void diag_free(Diag *d) {
  free(d->text);
  d->text = NULL;
  d->len = d->cap = 0;
}
