/*
 * hash.h - the project's few hashing and pseudo-random helpers, one copy
 * each, for relayc and every layer above it (generator, mutators, oracle,
 * tools).  None of them is cryptographic; all are deterministic across
 * builds and machines, so anything a golden file records may depend on them.
 */
#ifndef RELAYC_HASH_H
#define RELAYC_HASH_H

#include <stddef.h>
#include <stdint.h>

/* The FNV-1a 64 offset basis: the usual start of hash_fnv1a. */
#define HASH_FNV_BASIS 0xcbf29ce484222325ull

/* splitmix64: the next 64 random bits of the stream whose state is *s. */
static inline uint64_t hash_splitmix64(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* h with v mixed in (boost's hash_combine, then a multiply that spreads
 * the low bits): for hashes built from several fields. */
static inline uint64_t hash_mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdull;
}

/* FNV-1a 64 of the n bytes at p, continuing from h (HASH_FNV_BASIS to
 * start). */
static inline uint64_t hash_fnv1a(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++)
    h = (h ^ b[i]) * 0x100000001b3ull;
  return h;
}

/* FNV-1a 64 of the NUL-terminated string s, continuing from h. */
static inline uint64_t hash_fnv1a_str(uint64_t h, const char *s) {
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
  return h;
}

/* A hash of a pointer's identity (Fibonacci hashing; the low 4 bits, equal
 * for every aligned node, dropped): take its high bits for a table of a
 * power-of-two size, or mask it. */
static inline uint64_t hash_ptr(const void *p) {
  return ((uint64_t)(uintptr_t)p >> 4) * 0x9e3779b97f4a7c15ull;
}

#endif
