/*
 * test_text_mutate.c - the MLIR text mutations (targets/mlir/text_mutate.h)
 * on a small module: each kind applies and does what its name says, the
 * op table is sorted and holds MLIR's ops, every result fits the capacity
 * given, and random bytes, empty text and a full buffer are safe.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "targets/mlir/text_mutate.h"
#include "tests/unit/test.h"

static const char module[] =
    "func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {\n"
    "  %c = \"tosa.const\"() <{values = dense<1.5> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>\n"
    "  %s = tosa.sub %a, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>\n"
    "  %r = tosa.reduce_sum %s {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x1xf32>\n"
    "  return %s : tensor<2x3xf32>\n"
    "}\n";

enum { CAP = 4096 };

/* Apply kind with generator seed to the module; the new text in buf. */
static size_t apply(MtmKind kind, uint64_t seed, char *buf) {
  size_t len = strlen(module);
  memcpy(buf, module, len);
  size_t n = mtm_mutate(buf, len, CAP - 1, kind, &seed);
  buf[n] = 0;
  return n;
}

static int count_lines(const char *t) {
  int n = 0;
  for (; *t; t++)
    n += *t == '\n';
  return n;
}

static void test_op_table(void) {
  CHECK(mtm_op_count() > 400);
  bool tosa_add = false, linalg_matmul = false;
  for (int i = 0; i < mtm_op_count(); i++) {
    CHECK(strchr(mtm_op_name(i), '.') != NULL);
    if (i > 0)
      CHECK(strcmp(mtm_op_name(i - 1), mtm_op_name(i)) < 0);
    tosa_add |= !strcmp(mtm_op_name(i), "tosa.add");
    linalg_matmul |= !strcmp(mtm_op_name(i), "linalg.matmul");
  }
  CHECK(tosa_add && linalg_matmul);
  CHECK(mtm_op_name(-1) == NULL && mtm_op_name(mtm_op_count()) == NULL);
}

/* Every kind changes the module for some seed, and what changes fits. */
static void test_each_kind_applies(void) {
  char buf[CAP];
  for (int k = 0; k < MTM_NKINDS; k++) {
    int changed = 0;
    for (uint64_t seed = 0; seed < 40; seed++) {
      size_t n = apply((MtmKind)k, seed, buf);
      CHECK(n < CAP);
      changed += n != strlen(module) || memcmp(buf, module, n) != 0;
    }
    CHECK_MSG(changed >= 20, "%s changed the module %d times in 40", mtm_kind_name((MtmKind)k),
              changed);
  }
}

static void test_kinds_do_what_they_say(void) {
  char buf[CAP];
  for (uint64_t seed = 0; seed < 40; seed++) {
    apply(MTM_DROP_LINE, seed, buf);
    CHECK(count_lines(buf) == count_lines(module) - 1);
    CHECK(strstr(buf, "func.func @main") != NULL); /* headers stay */
    apply(MTM_DUP_LINE, seed, buf);
    CHECK(count_lines(buf) == count_lines(module) + 1);
    CHECK(strstr(buf, "%d") != NULL); /* the copy's result renamed */
    apply(MTM_SWAP, seed, buf);
    CHECK(strstr(buf, "tosa.sub %b, %a") != NULL); /* the one op with two distinct uses */
    apply(MTM_OP_NAME, seed, buf);
    CHECK(strstr(buf, "tosa.sub %a") == NULL ||
          strstr(buf, "tosa.reduce_sum %s") == NULL || /* one renamed */
          strstr(buf, "\"tosa.const\"") == NULL);
    apply(MTM_SSA_USE, seed, buf);
    CHECK(strstr(buf, "func.func @main(%a: tensor<2x3xf32>, %b:") != NULL); /* defs stay */
  }
}

/* A type changed everywhere keeps the module's types consistent: every
 * tensor<2x3xf32> becomes the same new type. */
static void test_type_everywhere(void) {
  char buf[CAP];
  int everywhere = 0;
  for (uint64_t seed = 0; seed < 60; seed++) {
    apply(MTM_ELEMENT_TYPE, seed, buf);
    everywhere += strstr(buf, "tensor<2x3xf32>") == NULL;
    apply(MTM_DIM, seed, buf);
    everywhere += strstr(buf, "tensor<2x3xf32>") == NULL;
  }
  CHECK(everywhere >= 10);
}

/* Random bytes, no text, and a buffer with no room to grow. */
static void test_robust(void) {
  char buf[CAP];
  uint64_t rng = 7;
  for (int round = 0; round < 2000; round++) {
    size_t len = (size_t)(mtm_next(&rng) % 200);
    for (size_t i = 0; i < len; i++) {
      static const char alphabet[] = "%<>x?0123456789.tensorf32i1 =,\n\"(){}-";
      buf[i] = mtm_next(&rng) % 4 ? alphabet[mtm_next(&rng) % (sizeof alphabet - 1)]
                                  : (char)mtm_next(&rng);
    }
    size_t n = mtm_mutate(buf, len, len + 8, (MtmKind)(round % MTM_NKINDS), &rng);
    CHECK(n <= len + 8);
    n = mtm_splice_line(buf, n, len + 8, module, strlen(module), &rng);
    CHECK(n <= len + 8);
  }
  CHECK(mtm_mutate(buf, 0, 0, MTM_SWAP, &rng) == 0);
  size_t len = strlen(module);
  memcpy(buf, module, len);
  for (int k = 0; k < MTM_NKINDS; k++)
    CHECK(mtm_mutate(buf, len, len, (MtmKind)k, &rng) <= len);
}

int main(void) {
  test_op_table();
  test_each_kind_applies();
  test_kinds_do_what_they_say();
  test_type_everywhere();
  test_robust();
  return test_summary();
}
