/*
 * relaysmith.c - the relaysmith command-line tool:
 *   relaysmith gen     print generated programs from random byte strings
 *   relaysmith decode  print the program a byte file decodes to
 *   relaysmith stats   validity, speed, operator and feature histograms
 *   relaysmith bench   decode and type-check throughput (bench.c)
 *   relaysmith reduce  shrink a crash file keeping its failure (reduce.c)
 *   relaysmith triage  bucket crash files by failure signature (reduce.c)
 * Each subcommand takes --help.  Bad usage prints a message and exits 2.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tool.h"

/* ------------------------------------------------------------- helpers */

void tool_fill(uint64_t *s, uint8_t *buf, size_t n) {
  for (size_t i = 0; i < n; i += 8) {
    uint64_t r = tool_rand(s);
    for (size_t k = 0; k < 8 && i + k < n; k++)
      buf[i + k] = (uint8_t)(r >> (8 * k));
  }
}

int tool_usage_error(const char *cmd, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "relaysmith %s: ", cmd);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n(try 'relaysmith %s --help')\n", cmd);
  va_end(ap);
  return 2;
}

bool tool_parse_u64(const char *s, uint64_t *out) {
  if (!s || !*s || *s == '-')
    return false;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 0);
  if (*end || errno)
    return false;
  *out = v;
  return true;
}

const GenPolicy *tool_policy(const char *cmd, const char *name) {
  const GenPolicy *p = gen_policy_get(name);
  if (p)
    return p;
  fprintf(stderr, "relaysmith %s: unknown policy '%s'; known:", cmd, name);
  for (int i = 0; gen_policy_at(i); i++)
    fprintf(stderr, " %s", gen_policy_at(i)->name);
  fprintf(stderr, "\n");
  return NULL;
}

uint8_t *tool_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "relaysmith: cannot open %s: %s\n", path, strerror(errno));
    return NULL;
  }
  size_t cap = 4096, n = 0;
  uint8_t *buf = malloc(cap);
  for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
    n += got;
    if (n == cap)
      buf = realloc(buf, cap *= 2);
  }
  bool err = ferror(f);
  fclose(f);
  if (!buf || err) {
    fprintf(stderr, "relaysmith: cannot read %s\n", path);
    free(buf);
    return NULL;
  }
  *len = n;
  return buf;
}

double tool_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double tool_cpu(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Print the registered policies, for help texts. */
static void list_policies(FILE *f) {
  for (int i = 0; gen_policy_at(i); i++)
    fprintf(f, "  %-10s %s\n", gen_policy_at(i)->name, gen_policy_at(i)->doc);
}

bool tool_write_file(const char *path, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, n, f) != n) {
    fprintf(stderr, "relaysmith: cannot write %s: %s\n", path, strerror(errno));
    if (f)
      fclose(f);
    return false;
  }
  return fclose(f) == 0;
}

/* ----------------------------------------------------------------- gen */

static const char gen_help[] =
    "usage: relaysmith gen [--seed N] [--count K] [--policy NAME] [--size BYTES] [--save DIR]\n"
    "\n"
    "Decode K random byte strings (default 1) of BYTES bytes each (default 256;\n"
    "the first 16 are the header) and print each program in the text format.\n"
    "The same seed gives the same programs.\n"
    "\n"
    "  --seed N       seed of the random bytes (default 1)\n"
    "  --count K      number of programs\n"
    "  --policy NAME  generation policy (default 'default')\n"
    "  --size BYTES   length of each byte string\n"
    "  --save DIR     also write each byte string to DIR/gen-<seed>-<i>.bin,\n"
    "                 which 'relaysmith decode' turns back into the program\n"
    "policies:\n";

/* relaysmith gen */
static int cmd_gen(int argc, char **argv) {
  uint64_t seed = 1, count = 1, size = 256;
  const char *policy = "default", *save = NULL;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(gen_help, stdout);
      list_policies(stdout);
      return 0;
    }
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    bool ok = true;
    if (!strcmp(a, "--seed"))
      ok = tool_parse_u64(v, &seed), i++;
    else if (!strcmp(a, "--count"))
      ok = tool_parse_u64(v, &count), i++;
    else if (!strcmp(a, "--size"))
      ok = tool_parse_u64(v, &size) && size <= (1u << 24), i++;
    else if (!strcmp(a, "--policy"))
      ok = (policy = v) != NULL, i++;
    else if (!strcmp(a, "--save"))
      ok = (save = v) != NULL, i++;
    else
      return tool_usage_error("gen", "unknown argument '%s'", a);
    if (!ok)
      return tool_usage_error("gen", "%s needs a %s", a,
                              !strcmp(a, "--policy") || !strcmp(a, "--save") ? "value" : "number");
  }
  const GenPolicy *p = tool_policy("gen", policy);
  if (!p)
    return 2;
  uint8_t *buf = malloc(size ? size : 1);
  uint64_t s = seed;
  for (uint64_t i = 0; i < count; i++) {
    tool_fill(&s, buf, size);
    Module *m = gen_decode(buf, size, p, NULL);
    char *text = ir_print_module(m);
    printf("// relaysmith gen --seed %llu: program %llu, policy %s, %llu bytes\n%s\n",
           (unsigned long long)seed, (unsigned long long)i, p->name, (unsigned long long)size,
           text);
    free(text);
    ir_module_free(m);
    if (save) {
      char path[4096];
      snprintf(path, sizeof path, "%s/gen-%llu-%llu.bin", save, (unsigned long long)seed,
               (unsigned long long)i);
      if (!tool_write_file(path, buf, size)) {
        free(buf);
        return 1;
      }
    }
  }
  free(buf);
  return 0;
}

/* -------------------------------------------------------------- decode */

static const char decode_help[] =
    "usage: relaysmith decode [--policy NAME] [--spans] [--count] FILE\n"
    "\n"
    "Print the program the bytes of FILE decode to ('-' reads stdin).\n"
    "\n"
    "  --policy NAME  generation policy (default 'default')\n"
    "  --count        print only the number of expression nodes (as reduce does)\n"
    "  --spans        also print the spans: for each generated expression,\n"
    "                 the byte range it consumed, its depth, type and scope\n";

/* Print the recorded spans as a table. */
static void print_spans(const GenSpans *sp) {
  static const char *forms[] = {"var",       "lit",   "share", "let",    "if",
                                "proj",      "op",    "call",  "global", "ref_read",
                                "ref_write", "match", "param", "hook"};
  printf("// %d spans: [start, end) depth form type scope\n", sp->n);
  for (int i = 0; i < sp->n; i++) {
    const GenSpan *s = &sp->v[i];
    char *ty = ir_print_type(s->type);
    printf("// [%u, %u) %*s%s %s {", s->start, s->end, 2 * s->depth, "", forms[s->form], ty);
    free(ty);
    for (int k = 0; k < s->scope_n; k++)
      printf("%s%%%s", k ? ", " : "", sp->scope[s->scope_off + k].var->name);
    printf("}\n");
  }
}

/* relaysmith decode */
static int cmd_decode(int argc, char **argv) {
  const char *policy = "default", *file = NULL;
  bool spans = false, count = false;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(decode_help, stdout);
      list_policies(stdout);
      return 0;
    }
    if (!strcmp(a, "--policy")) {
      if (++i >= argc)
        return tool_usage_error("decode", "--policy needs a value");
      policy = argv[i];
    } else if (!strcmp(a, "--spans")) {
      spans = true;
    } else if (!strcmp(a, "--count")) {
      count = true;
    } else if (a[0] == '-' && a[1]) {
      return tool_usage_error("decode", "unknown option '%s'", a);
    } else if (file) {
      return tool_usage_error("decode", "one FILE only");
    } else {
      file = a;
    }
  }
  if (!file)
    return tool_usage_error("decode", "missing FILE");
  const GenPolicy *p = tool_policy("decode", policy);
  if (!p)
    return 2;
  size_t n;
  uint8_t *data = tool_read_file(!strcmp(file, "-") ? "/dev/stdin" : file, &n);
  if (!data)
    return 1;
  GenSpans sp = {0};
  Module *m = gen_decode(data, n, p, spans ? &sp : NULL);
  char *text = count ? NULL : ir_print_module(m);
  if (count)
    printf("%lld\n", (long long)ir_module_count(m));
  else
    fputs(text, stdout);
  if (spans)
    print_spans(&sp);
  free(text);
  gen_spans_free(&sp);
  ir_module_free(m);
  free(data);
  return 0;
}

/* ---------------------------------------------------------------- main */

static const char main_help[] =
    "usage: relaysmith COMMAND [options]   (relaysmith COMMAND --help for details)\n"
    "\n"
    "relaysmith decodes any byte string into a well-typed Relay-style program\n"
    "(the type-directed generator of the relaysmith fuzzers).\n"
    "\n"
    "commands:\n"
    "  gen     print generated programs from random byte strings\n"
    "  decode  print the program a byte file decodes to\n"
    "  stats   decode many random byte strings; report validity (type check,\n"
    "          interpreter), speed, operator and language-feature histograms;\n"
    "          with --mutations, the mutator's locality per kind of mutation\n"
    "  run     run relayc passes on a program (text or bytes); print it and\n"
    "          the interpreter's results before and after\n"
    "  seeds   write a small seed corpus covering every feature and operator\n"
    "  bench   programs per second for decoding, and decoding + type checking\n"
    "  reduce  shrink a crash file of a fuzz target while it fails the same way\n"
    "  triage  run crash files and bucket them by failure signature\n";

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs(main_help, stderr);
    return 2;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
    fputs(main_help, stdout);
    return 0;
  }
  if (!strcmp(cmd, "gen"))
    return cmd_gen(argc - 2, argv + 2);
  if (!strcmp(cmd, "decode"))
    return cmd_decode(argc - 2, argv + 2);
  if (!strcmp(cmd, "stats"))
    return cmd_stats(argc - 2, argv + 2);
  if (!strcmp(cmd, "run"))
    return cmd_run(argc - 2, argv + 2);
  if (!strcmp(cmd, "seeds"))
    return cmd_seeds(argc - 2, argv + 2);
  if (!strcmp(cmd, "bench"))
    return cmd_bench(argc - 2, argv + 2);
  if (!strcmp(cmd, "reduce"))
    return cmd_reduce(argc - 2, argv + 2);
  if (!strcmp(cmd, "triage"))
    return cmd_triage(argc - 2, argv + 2);
  fprintf(stderr, "relaysmith: unknown command '%s'\n\n%s", cmd, main_help);
  return 2;
}
