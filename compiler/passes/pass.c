/*
 * pass.c - the pass table expanded from PASSES in pass.h.
 */
#include <string.h>

#include "pass.h"

const PassInfo pass_table[] = {
#define X(name, test_only) {#name, pass_##name, post_##name, test_only},
    PASSES(X)
#undef X
};

const int pass_count = sizeof pass_table / sizeof pass_table[0];

const PassInfo *pass_lookup(const char *name, size_t len) {
  for (int i = 0; i < pass_count; i++)
    if (strlen(pass_table[i].name) == len && memcmp(pass_table[i].name, name, len) == 0)
      return &pass_table[i];
  return NULL;
}
