/*
 * no_flags.h - the text-input fuzz targets (parse_fuzzer,
 * mlir_text_fuzzer) take none of relaysmith's flags (oracle/options.h):
 * -help=1 says so before libFuzzer's own help, and each of them is an
 * error.  Included by their LLVMFuzzerInitialize.
 */
#ifndef RS_HARNESS_NO_FLAGS_H
#define RS_HARNESS_NO_FLAGS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/options.h"

/* Check argv for target, which fuzzes what ("the text format"): exit 2
 * at the first of relaysmith's flags. */
static inline void rs_refuse_flags(int argc, char **argv, const char *target, const char *what) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-help=1") || !strcmp(a, "--help=1"))
      fprintf(stderr,
              "relaysmith's flags for %s: none (it fuzzes %s; -passes=, -policy=, -allow=, "
              "-fault= and the options of the generator-driven targets are not accepted)\n\n",
              target, what);
    size_t n = rs_flag_any(a);
    if (n) {
      fprintf(stderr,
              "relaysmith: %s takes none of relaysmith's flags (it fuzzes %s); %.*s is not "
              "accepted\n",
              target, what, (int)n, a);
      exit(2);
    }
  }
}

#endif
