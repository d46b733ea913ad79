/*
 * pass.c - the pass table expanded from passes.def, the parser of pass
 * lists and the pass runner.
 */
#include <stdio.h>
#include <string.h>

#include "compiler/typing/typing.h"
#include "pass.h"

const PassInfo pass_table[] = {
#define PASS(name, allow, policy, desc) {#name, pass_##name, post_##name, false, allow, desc},
#define TEST_PASS(name, allow, policy, desc) {#name, pass_##name, post_##name, true, allow, desc},
#include "passes.def"
#undef PASS
#undef TEST_PASS
};

const int pass_count = sizeof pass_table / sizeof pass_table[0];

const PassInfo *pass_lookup(const char *name, size_t len) {
  for (int i = 0; i < pass_count; i++)
    if (strlen(pass_table[i].name) == len && memcmp(pass_table[i].name, name, len) == 0)
      return &pass_table[i];
  return NULL;
}

void pass_names(char *buf, size_t len) {
  size_t n = 0;
  buf[0] = 0;
  for (int i = 0; i < pass_count && n < len; i++)
    n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? " " : "", pass_table[i].name);
}

bool pass_parse_list(const char *list, const PassInfo **out, int max, int *n, char *err,
                     size_t errlen) {
  *n = 0;
  if (!*list) {
    snprintf(err, errlen, "empty pass list");
    return false;
  }
  for (const char *p = list;; p++) {
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (!len) {
      snprintf(err, errlen, "empty pass name at offset %d of '%s'", (int)(p - list), list);
      return false;
    }
    const PassInfo *pi = pass_lookup(p, len);
    if (!pi) {
      char names[1024];
      pass_names(names, sizeof names);
      snprintf(err, errlen, "unknown pass '%.*s'; valid: %s", (int)len, p, names);
      return false;
    }
    if (*n == max) {
      snprintf(err, errlen, "at most %d passes", max);
      return false;
    }
    out[(*n)++] = pi;
    if (!e)
      return true;
    p = e;
  }
}

PassStatus pass_run(const PassInfo *p, Module *m, Diag *d) {
  if (!p->run(m, d))
    return PASS_FAILED;
  if (!ir_depth_ok(m, d))
    return PASS_TOO_DEEP;
  if (!ir_well_formed(m, d))
    return PASS_ILL_FORMED;
  if (!ty_check_module(m, d))
    return PASS_ILL_TYPED;
  return PASS_OK;
}
