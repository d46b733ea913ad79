/*
 * arena.c - bump allocation in chunks; one call frees everything.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

typedef struct Chunk Chunk;
struct Chunk {
  Chunk *next;
  size_t size, used;
  _Alignas(16) unsigned char data[];
};

struct Arena {
  Chunk *head;
  size_t total;
};

enum { CHUNK_MIN = 64 * 1024 };

Arena *arena_new(void) {
  Arena *a = calloc(1, sizeof *a);
  if (!a)
    abort();
  return a;
}

void arena_free(Arena *a) {
  if (!a)
    return;
  for (Chunk *c = a->head, *next; c; c = next) {
    next = c->next;
    free(c);
  }
  free(a);
}

void *arena_alloc(Arena *a, size_t n) {
  n = (n + 15) & ~(size_t)15;
  if (n == 0)
    n = 16;
  Chunk *c = a->head;
  if (!c || c->size - c->used < n) {
    size_t size = n > CHUNK_MIN ? n : CHUNK_MIN;
    c = malloc(sizeof *c + size);
    if (!c)
      abort(); /* out of memory is not recoverable here */
    c->size = size;
    c->used = 0;
    /* A big one-off block goes behind the current chunk so the current
     * chunk's free space is not wasted. */
    if (a->head && n > CHUNK_MIN) {
      c->next = a->head->next;
      a->head->next = c;
    } else {
      c->next = a->head;
      a->head = c;
    }
  }
  void *p = c->data + c->used;
  c->used += n;
  a->total += n;
  memset(p, 0, n);
  return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n) {
  char *p = arena_alloc(a, n + 1);
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

char *arena_strdup(Arena *a, const char *s) {
  return arena_strndup(a, s, strlen(s));
}

char *arena_printf(Arena *a, const char *fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *p = arena_alloc(a, (size_t)n + 1);
  vsnprintf(p, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  return p;
}

size_t arena_used(const Arena *a) { return a->total; }
