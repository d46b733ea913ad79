/*
 * rs_mutant.c - the state behind rs_mutant.h: the active mutant, read
 * once before main, and its "reached" file, written once.
 */
#include <stdio.h>
#include <stdlib.h>

#include "rs_mutant.h"

int rs_mutant_active;

__attribute__((constructor)) static void rs_mutant_init(void) {
  const char *id = getenv("RELAYSMITH_MUTANT");
  rs_mutant_active = id ? atoi(id) : 0;
}

void rs_mutant_reached(void) {
  static bool done;
  if (done)
    return;
  done = true;
  const char *path = getenv("RELAYSMITH_MUTANT_REACHED");
  FILE *f = path ? fopen(path, "w") : NULL;
  if (f) {
    fprintf(f, "%d\n", rs_mutant_active);
    fclose(f);
  }
}
