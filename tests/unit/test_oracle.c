/* The oracle runner's flags (harnesses/oracle.c): what oracle_init keeps
 * must not point into argv, whose strings may not outlive the call
 * (relaysmith reduce and triage build them in a stack buffer). */
#include <string.h>

#include "harnesses/oracle.h"
#include "test.h"

static void policy_outlives_argv(void) {
  OracleConfig c = {.quiet = true};
  {
    char flag[64];
    strcpy(flag, "-policy=fusion");
    char *argv[] = {"test", flag, NULL};
    CHECK(oracle_init(&c, 2, argv, NULL));
    memset(flag, 'z', sizeof flag - 1);
  }
  CHECK(c.policy && strcmp(c.policy, "fusion") == 0);
}

static void bad_flags(void) {
  OracleConfig c = {.quiet = true};
  char *unknown_policy[] = {"test", "-policy=nosuch", NULL};
  CHECK(!oracle_init(&c, 2, unknown_policy, NULL));
  char *unknown_pass[] = {"test", "-passes=fold_constant,nosuch", NULL};
  CHECK(!oracle_init(&c, 2, unknown_pass, NULL));
  char *fixed[] = {"test", "-passes=dead_code", NULL};
  CHECK(!oracle_init(&c, 2, fixed, "fuse_ops"));
  char *good[] = {"test", "-passes=fold_constant,dead_code", NULL};
  CHECK(oracle_init(&c, 2, good, NULL));
  CHECK(c.npasses == 2 && strcmp(c.passes[1]->name, "dead_code") == 0);
  CHECK(strcmp(c.policy, "default") == 0);
}

/* A binary's own policy (fusion_fuzzer's) is the default; -policy=
 * overrides it. */
static void preset_policy(void) {
  OracleConfig c = {.quiet = true, .policy = "fusion"};
  char *none[] = {"test", NULL};
  CHECK(oracle_init(&c, 1, none, NULL));
  CHECK(strcmp(c.policy, "fusion") == 0);
  char *flag[] = {"test", "-policy=default", NULL};
  CHECK(oracle_init(&c, 2, flag, NULL));
  CHECK(strcmp(c.policy, "default") == 0);
}

int main(void) {
  preset_policy();
  policy_outlives_argv();
  bad_flags();
  return test_summary();
}
