/*
 * afl_mutator.c - the AFL++ adapter of the span-aware mutator (mut.h): a
 * shared library for afl-fuzz's custom mutator API
 * (AFL_CUSTOM_MUTATOR_LIBRARY=build/afl/relaysmith_afl.so, see
 * scripts/afl).  afl_custom_fuzz mutates one queue entry, or now and then
 * crosses it over with the second entry AFL offers; afl_custom_describe
 * names the kind of the last mutation in queue file names.
 *
 * RELAYSMITH_POLICY selects the generator policy (default "default"); it
 * must be the one the target decodes with (pass_fuzzer's -policy=).
 * AFL has no byte mutator to lend, so leaf choices get mut_bytes_builtin.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/ir/hash.h"
#include "mut.h"

typedef struct AflMut {
  uint64_t rng;
  const GenPolicy *policy;
  uint8_t *buf; /* the output, reused */
  size_t cap;
  MutKind last;
  bool cross;
} AflMut;

static uint64_t next(AflMut *s) {
  return hash_splitmix64(&s->rng);
}

/* Called once by afl-fuzz; NULL makes it stop with an error. */
void *afl_custom_init(void *afl, unsigned int seed) {
  (void)afl;
  const char *name = getenv("RELAYSMITH_POLICY");
  const GenPolicy *p = gen_policy_get(name && *name ? name : "default");
  if (!p) {
    fprintf(stderr, "relaysmith_afl: unknown RELAYSMITH_POLICY '%s'\n", name);
    return NULL;
  }
  AflMut *s = calloc(1, sizeof *s);
  if (!s)
    return NULL;
  s->rng = seed;
  s->policy = p;
  return s;
}

/* One mutation of buf[0, buf_size) into *out_buf (at most max_size bytes);
 * add_buf is another queue entry, used for crossover. */
size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
                       uint8_t *add_buf, size_t add_buf_size, size_t max_size) {
  AflMut *s = data;
  if (max_size == 0)
    return 0;
  if (s->cap < max_size) {
    uint8_t *q = realloc(s->buf, max_size);
    if (!q)
      return 0;
    s->buf = q;
    s->cap = max_size;
  }
  MutOptions o = {s->policy, NULL, 0};
  MutInfo info = {0};
  uint64_t seed = next(s);
  size_t n;
  s->cross = add_buf && add_buf_size && seed % 4 == 0;
  if (s->cross)
    n = mut_crossover(&o, buf, buf_size, add_buf, add_buf_size, s->buf, max_size, seed, &info);
  else
    n = mut_mutate(&o, buf, buf_size, s->buf, max_size, seed, &info);
  s->last = info.kind;
  *out_buf = s->buf;
  return n;
}

/* A short name of the last mutation, for queue file names. */
const char *afl_custom_describe(void *data, size_t max_description_len) {
  AflMut *s = data;
  static char d[32];
  snprintf(d, sizeof d, "rs-%s", mut_kind_names[s->last]);
  if (max_description_len < sizeof d)
    d[max_description_len] = 0;
  return d;
}

void afl_custom_deinit(void *data) {
  AflMut *s = data;
  free(s->buf);
  free(s);
}
