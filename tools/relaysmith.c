/*
 * relaysmith.c - the relaysmith command-line tool: the table of its
 * subcommands.  Each lives in its own file and takes --help; bad usage
 * prints a message and exits 2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

/* The subcommands, in the order `relaysmith --help` lists them. */
static const struct {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *help; /* lines of the main help, indented */
} commands[] = {
    {"gen", cmd_gen, "print generated programs from random byte strings"},
    {"decode", cmd_decode, "print the program a byte file decodes to"},
    {"stats", cmd_stats,
     "decode many random byte strings; report validity (type check,\n"
     "          interpreter), speed, operator and language-feature histograms;\n"
     "          with --mutations, the mutator's locality per kind of mutation"},
    {"run", cmd_run,
     "run relayc passes on a program (text or bytes) with the fuzzers'\n"
     "          oracles; print it and the interpreter's results before and after"},
    {"seeds", cmd_seeds, "write a small seed corpus covering every feature and operator"},
    {"bench", cmd_bench, "programs per second for decoding, and decoding + type checking"},
    {"reduce", cmd_reduce, "shrink a crash file of a fuzz target while it fails the same way"},
    {"triage", cmd_triage, "run crash files and bucket them by failure signature"},
    {"report", cmd_report, "write an issue text for llvm-project about a finding of mlir_fuzzer"},
};
enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

static void main_help(FILE *f) {
  fputs("usage: relaysmith COMMAND [options]   (relaysmith COMMAND --help for details)\n"
        "\n"
        "relaysmith decodes any byte string into a well-typed Relay-style program\n"
        "(the type-directed generator of the relaysmith fuzzers).\n"
        "\n"
        "An option that takes a value is written --name VALUE or --name=VALUE.\n"
        "\n"
        "commands:\n",
        f);
  for (int i = 0; i < NCOMMANDS; i++)
    fprintf(f, "  %-7s %s\n", commands[i].name, commands[i].help);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    main_help(stderr);
    return 2;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
    main_help(stdout);
    return 0;
  }
  for (int i = 0; i < NCOMMANDS; i++)
    if (!strcmp(cmd, commands[i].name)) {
      /* Every option that takes a value is spelled both ways, --name
       * VALUE and --name=VALUE: the latter is split here, once. */
      char **args = calloc((size_t)argc * 2, sizeof *args);
      int n = 0;
      for (int k = 2; k < argc; k++) {
        char *eq = strchr(argv[k], '=');
        if (!strncmp(argv[k], "--", 2) && eq && eq > argv[k] + 2) {
          *eq = 0; /* argv's strings are ours to modify (C11 5.1.2.2.1) */
          args[n++] = argv[k];
          args[n++] = eq + 1;
        } else
          args[n++] = argv[k];
      }
      int rc = commands[i].run(n, args);
      free(args);
      return rc;
    }
  fprintf(stderr, "relaysmith: unknown command '%s'\n\n", cmd);
  main_help(stderr);
  return 2;
}
