/*
 * ptrmap.h - a small open-addressing map from pointers to int64 values,
 * for IR walks that must visit shared nodes once; used by relayc and by
 * the layers above it (generator, harnesses).  Its tables are malloc'd, or taken from `arena` when
 * that is set (then growing abandons the old tables and ptrmap_free releases nothing).
 */
#ifndef RELAYC_PTRMAP_H
#define RELAYC_PTRMAP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "ir.h"

typedef struct PtrMap {
  const void **keys;
  int64_t *vals;
  size_t cap, n;
  Arena *arena; /* where the tables live; NULL: malloc */
} PtrMap;

/* A zeroed table of n elements of size bytes for m. */
static inline void *ptrmap_table(const PtrMap *m, size_t n, size_t size) {
  return m->arena ? arena_alloc(m->arena, n * size) : calloc(n, size);
}

/* k's slot: probing from bits 32 and up of its hash.  The low bits of
 * hash_ptr's product depend only on the pointer's low bits, and nodes of
 * one arena lie at a fixed stride: taken as the slot, they filled a
 * fraction of the table and made probe chains grow with the map (a print
 * of 20,000 graph bindings took quadratic time). */
static inline size_t ptrmap_slot(const PtrMap *m, const void *k) {
  size_t i = (size_t)(hash_ptr(k) >> 32) & (m->cap - 1);
  while (m->keys[i] && m->keys[i] != k)
    i = (i + 1) & (m->cap - 1);
  return i;
}

/* The value stored for k, or NULL when k is absent. */
static inline int64_t *ptrmap_get(const PtrMap *m, const void *k) {
  if (!m->cap)
    return NULL;
  size_t i = ptrmap_slot(m, k);
  return m->keys[i] ? &m->vals[i] : NULL;
}

/* Insert k (value 0) if absent; returns its value slot.  *added tells. */
static inline int64_t *ptrmap_put(PtrMap *m, const void *k, int *added) {
  if (2 * (m->n + 1) > m->cap) {
    PtrMap t = {.arena = m->arena};
    t.cap = m->cap ? 2 * m->cap : 64;
    t.keys = ptrmap_table(&t, t.cap, sizeof *t.keys);
    t.vals = ptrmap_table(&t, t.cap, sizeof *t.vals);
    if (!t.keys || !t.vals)
      abort();
    for (size_t i = 0; i < m->cap; i++)
      if (m->keys[i]) {
        size_t j = ptrmap_slot(&t, m->keys[i]);
        t.keys[j] = m->keys[i];
        t.vals[j] = m->vals[i];
        t.n++;
      }
    if (!m->arena) {
      free(m->keys);
      free(m->vals);
    }
    *m = t;
  }
  size_t i = ptrmap_slot(m, k);
  if (added)
    *added = !m->keys[i];
  if (!m->keys[i]) {
    m->keys[i] = k;
    m->vals[i] = 0;
    m->n++;
  }
  return &m->vals[i];
}

/* Is this the first time m sees k?  (k is inserted.)  The test at the top
 * of a walk that visits shared nodes once. */
static inline bool ptrmap_first(PtrMap *m, const void *k) {
  int added;
  ptrmap_put(m, k, &added);
  return added;
}

static inline void ptrmap_free(PtrMap *m) {
  if (!m->arena) {
    free(m->keys);
    free(m->vals);
  }
  m->keys = NULL;
  m->vals = NULL;
  m->cap = m->n = 0;
}

/* Remove every key, keeping the tables for reuse. */
static inline void ptrmap_clear(PtrMap *m) {
  if (m->n)
    memset((void *)m->keys, 0, sizeof *m->keys * m->cap);
  m->n = 0;
}

#endif
