/*
 * arena.c - bump allocation in chunks; one call frees everything.
 *
 * The fuzzers make and free several arenas per input (the module's, the
 * type checker's scratch, the interpreter's), so chunks up to SPARE_BIG
 * bytes are kept on a small per-thread list of spare chunks instead of
 * going back to malloc, and the Arena header lives in its first chunk.
 * (Under AddressSanitizer a block freed to malloc sits in quarantine and
 * a block above 128 KB is mapped afresh each time: every new page of it
 * was a page fault, a tenth of pass_fuzzer's time, for the printer's and
 * the lexer's growing buffers above all.)  Memory is zeroed
 * lazily: a chunk knows how far it is zero (`clean`), a chunk put on the
 * spare list has the part it handed out cleared in one memset, and an
 * allocation below `clean` needs no memset of its own.  Under
 * AddressSanitizer, spare chunks and the unused tail of a chunk are
 * poisoned, and each allocation is unpoisoned as it is handed out, so a
 * stale pointer into a freed arena is still reported while its chunk is
 * spare, and an overrun past the last allocation of a chunk is reported.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asan.h"
#include "ir.h"

#ifdef RS_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

/* The arena's branches say nothing about the compiler under test: keep
 * them out of the fuzzers' coverage features and comparison tracing (a
 * traced comparison on every allocation was a measurable share of the
 * fuzz targets' time).  Only effective on functions that are not inlined
 * into instrumented callers. */
#if defined(__clang__)
#define NO_COVERAGE __attribute__((no_sanitize("coverage")))
#elif defined(__GNUC__) && __GNUC__ >= 12
#define NO_COVERAGE __attribute__((no_sanitize_coverage))
#else
#define NO_COVERAGE
#endif

typedef struct Chunk Chunk;
struct Chunk {
  Chunk *next;
  size_t size;  /* bytes of data */
  size_t used;  /* data[0, used) is handed out; data[used, size) is poisoned */
  size_t clean; /* >= used; data[used, clean) is zero, data[clean, size) unknown */
  _Alignas(16) unsigned char data[];
};

struct Arena {
  Chunk *head;
  Chunk *own; /* the chunk holding this header (released last) */
  size_t total;
};

enum {
  CHUNK_MIN = 64 * 1024,   /* data bytes of an ordinary chunk */
  SPARE_MAX = 16,          /* chunks kept per thread for reuse */
  SPARE_BIG = 1024 * 1024, /* the largest chunk kept */
  CLEAR_STEP = 4096,       /* fresh memory is zeroed this much at a time */
  HEADER = (sizeof(Arena) + 15) & ~(size_t)15,
};

/* Chunks released by this thread's arenas, ready for reuse, the last
 * released first (used is 0, so they are zero up to clean, and poisoned). */
static _Thread_local struct {
  Chunk *list;
  int n;
} spare;

/* A chunk with at least size data bytes, nothing handed out: the first
 * spare one big enough, else a new one. */
NO_COVERAGE static Chunk *chunk_get(size_t size) {
  Chunk **at = &spare.list;
  while (*at && (*at)->size < size)
    at = &(*at)->next;
  Chunk *c = *at;
  if (c) {
    *at = c->next;
    spare.n--;
  } else {
    c = malloc(sizeof *c + size);
    if (!c)
      abort(); /* out of memory is not recoverable here */
    c->size = size;
    c->used = c->clean = 0;
    POISON(c->data, size);
  }
  c->next = NULL;
  return c;
}

/* Release a chunk: one up to SPARE_BIG bytes is cleared and kept as a
 * spare while there is room. */
NO_COVERAGE static void chunk_put(Chunk *c) {
  if (c->size > SPARE_BIG || spare.n >= SPARE_MAX) {
    free(c);
    return;
  }
  memset(c->data, 0, c->used); /* data[used, clean) is zero already */
  POISON(c->data, c->used);
  c->used = 0;
  c->next = spare.list;
  spare.list = c;
  spare.n++;
}

/* Extend the zero part of c to cover data[used, to), to <= size. */
NO_COVERAGE static void clear(Chunk *c, size_t to) {
  size_t end = (to + CLEAR_STEP - 1) / CLEAR_STEP * CLEAR_STEP;
  if (end > c->size)
    end = c->size;
  UNPOISON(c->data + c->clean, end - c->clean);
  memset(c->data + c->clean, 0, end - c->clean);
  POISON(c->data + c->clean, end - c->clean);
  c->clean = end;
}

NO_COVERAGE Arena *arena_new(void) {
  Chunk *c = chunk_get(CHUNK_MIN);
  if (c->clean < HEADER)
    clear(c, HEADER);
  UNPOISON(c->data, HEADER);
  c->used = HEADER;
  Arena *a = (Arena *)c->data;
  a->head = a->own = c;
  return a;
}

NO_COVERAGE void arena_free(Arena *a) {
  if (!a)
    return;
  Chunk *own = a->own;
  for (Chunk *c = a->head, *next; c; c = next) {
    next = c->next;
    if (c != own)
      chunk_put(c);
  }
  chunk_put(own); /* a lives in it: last */
}

/* arena_alloc's slow path: n bytes do not fit in the zeroed part of the
 * current chunk, or n is 0 or absurd. */
NO_COVERAGE static __attribute__((noinline)) void *alloc_slow(Arena *a, size_t n) {
  if (n > SIZE_MAX / 2)
    abort(); /* a negative count cast to size_t: not recoverable here */
  n = n ? (n + 15) & ~(size_t)15 : 16;
  Chunk *c = a->head;
  if (c->size - c->used < n) {
    c = chunk_get(n > CHUNK_MIN ? n : CHUNK_MIN);
    /* A big one-off block goes behind the current chunk so the current
     * chunk's free space is not wasted. */
    if (n > CHUNK_MIN) {
      c->next = a->head->next;
      a->head->next = c;
    } else {
      c->next = a->head;
      a->head = c;
    }
  }
  if (c->clean - c->used < n)
    clear(c, c->used + n);
  unsigned char *p = c->data + c->used;
  UNPOISON(p, n);
  c->used += n;
  a->total += n;
  return p;
}

NO_COVERAGE void *arena_alloc(Arena *a, size_t n) {
  Chunk *c = a->head;
  size_t r = (n + 15) & ~(size_t)15; /* 0 when n is 0 or absurd */
  if (r - 1 >= c->clean - c->used)   /* clean <= size: also when it does not fit */
    return alloc_slow(a, n);
  n = r;
  unsigned char *p = c->data + c->used;
  UNPOISON(p, n);
  c->used += n;
  a->total += n;
  return p;
}

NO_COVERAGE char *arena_strndup(Arena *a, const char *s, size_t n) {
  char *p = arena_alloc(a, n + 1);
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

NO_COVERAGE char *arena_strdup(Arena *a, const char *s) {
  return arena_strndup(a, s, strlen(s));
}

NO_COVERAGE char *arena_printf(Arena *a, const char *fmt, ...) {
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

NO_COVERAGE size_t arena_used(const Arena *a) {
  return a->total;
}
