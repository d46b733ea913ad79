/*
 * relaysmith.c - the relaysmith command-line tool: the table of its
 * subcommands.  Each lives in its own file and takes --help; bad usage
 * prints a message and exits 2.
 */
#include <stdio.h>
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
};
enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

static void main_help(FILE *f) {
  fputs("usage: relaysmith COMMAND [options]   (relaysmith COMMAND --help for details)\n"
        "\n"
        "relaysmith decodes any byte string into a well-typed Relay-style program\n"
        "(the type-directed generator of the relaysmith fuzzers).\n"
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
    if (!strcmp(cmd, commands[i].name))
      return commands[i].run(argc - 2, argv + 2);
  fprintf(stderr, "relaysmith: unknown command '%s'\n\n", cmd);
  main_help(stderr);
  return 2;
}
