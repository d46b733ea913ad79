/*
 * gen.c - `relaysmith gen` (programs from random byte strings) and
 * `relaysmith decode` (the program a byte file decodes to, or its MLIR).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/typing/typing.h"
#include "targets/targets.h"
#include "tool.h"

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
    "  --policy NAME  generation policy (default 'mix', as pass_fuzzer and\n"
    "                 'relaysmith decode')\n"
    "  --size BYTES   length of each byte string\n"
    "  --save DIR     also write each byte string to DIR/gen-<seed>-<i>.bin,\n"
    "                 which 'relaysmith decode' turns back into the program\n"
    "policies:\n";

/* relaysmith gen */
int cmd_gen(int argc, char **argv) {
  uint64_t seed = 1, count = 1, size = 256;
  const char *policy = "mix", *save = NULL;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(gen_help, stdout);
      tool_list_policies(stdout);
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
    "usage: relaysmith decode [--policy NAME] [--target=mlir|TARGET] [--spans] [--count] FILE\n"
    "\n"
    "Print the program the bytes of FILE decode to ('-' reads stdin).  Without\n"
    "--policy or --target, FILE decodes with the policy of its sidecar\n"
    "FILE.flags (its -policy=, else its target's), else pass_fuzzer's, mix, as\n"
    "in 'relaysmith run', reduce and triage: a crash file is the same program\n"
    "in every tool.  Another target's file without a sidecar needs its\n"
    "target's policy: fusion (fusion_fuzzer), reject (reject_fuzzer), default\n"
    "(typecheck_fuzzer, kernel_fuzzer), mlir (mlir_fuzzer), its pass's\n"
    "(pass_fuzzer_<pass>).\n"
    "\n"
    "  --policy NAME  generation policy (default: the sidecar's, else 'mix'; with\n"
    "                 --target, the target's;\n"
    "                 also -policy=NAME; a fuzz target's other flags, -passes=,\n"
    "                 -fault=, ..., are accepted and change nothing)\n"
    "  --target=mlir  print the program translated to MLIR (targets/mlir/translate.c)\n"
    "                 instead; exit 1 when the translator refuses it\n"
    "  --target=TARGET  decode with the policy of fuzz target TARGET (pass_fuzzer,\n"
    "                 pass_fuzzer_<pass>, fusion_fuzzer, reject_fuzzer, ...)\n"
    "  --count        print only the number of expression nodes (as reduce does)\n"
    "  --spans        also print the spans: for each generated expression,\n"
    "                 the byte range it consumed, its depth, type and scope\n";

/* Print the recorded spans as a table, each variable by the name the
 * program's text gives it (names[id]; its hint if it was not printed). */
static void print_spans(const GenSpans *sp, const char *const *names) {
  static const char *forms[] = {"var",       "lit",   "share", "let",    "if",
                                "proj",      "op",    "call",  "global", "ref_read",
                                "ref_write", "match", "param", "hook"};
  printf("// %d spans: [start, end) depth form type scope\n", sp->n);
  for (int i = 0; i < sp->n; i++) {
    const GenSpan *s = &sp->v[i];
    char *ty = ir_print_type(s->type);
    printf("// [%u, %u) %*s%s %s {", s->start, s->end, 2 * s->depth, "", forms[s->form], ty);
    free(ty);
    for (int k = 0; k < s->scope_n; k++) {
      const Var *v = sp->scope[s->scope_off + k].var;
      printf("%s%%%s", k ? ", " : "", names[v->id] ? names[v->id] : v->name);
    }
    printf("}\n");
  }
}

/* Print m in target t's own language (decode --target=NAME); 1 when
 * refused. */
static int print_export(const Target *t, Module *m) {
  Diag d;
  diag_init(&d, NULL, NULL);
  char why[1024], *text = NULL;
  int rc = 1;
  if (!ty_check_module(m, &d))
    fprintf(stderr, "relaysmith decode: the program does not type-check:\n%s", d.text);
  else if (!(text = t->export(m, why, sizeof why)))
    fprintf(stderr, "relaysmith decode: %s\n", why);
  else
    rc = (fputs(text, stdout), 0);
  free(text);
  diag_free(&d);
  return rc;
}

/* The targets decode --target can name (those with an export), into buf. */
static const char *export_names(char *buf, size_t len) {
  size_t n = 0;
  buf[0] = 0;
  for (int i = 0; rs_target_at(i) && n < len; i++)
    if (rs_target_at(i)->export)
      n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", rs_target_at(i)->name);
  return buf;
}

/* The policy the sidecar of file (file.flags) gives: its -policy=, else
 * its target's own; NULL without a sidecar naming a known target. */
static const char *sidecar_policy(const char *file, char *line, size_t cap) {
  const char *name, *flags[32], *p = NULL;
  int n = rs_sidecar_read(file, line, cap, &name, flags, 32);
  OracleHarness h;
  if (n < 0 || !rs_harness_get(name, &h))
    return NULL;
  p = h.policy ? h.policy : h.target->policy;
  for (int i = 0; i < n; i++)
    p = rs_flag_value(flags[i], "policy") ? rs_flag_value(flags[i], "policy") : p;
  return p;
}

/* relaysmith decode */
int cmd_decode(int argc, char **argv) {
  const char *policy = NULL, *file = NULL;
  const Target *target = NULL;
  const char *harness_policy = NULL; /* --target names a fuzz target */
  char pol[256];
  bool spans = false, count = false;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(decode_help, stdout);
      tool_list_policies(stdout);
      return 0;
    }
    char *flag = tool_check_flag(argc, argv, &i);
    if (flag) {
      /* A fuzz target's flags, as its report's `reproduce:` line has
       * them: only -policy= changes the program. */
      size_t dashes = flag[1] == '-' ? 2 : 1;
      if (!strncmp(flag + dashes, "policy=", 7))
        snprintf(pol, sizeof pol, "%s", flag + dashes + 7), policy = pol;
      free(flag);
    } else if (!strcmp(a, "--policy")) {
      return tool_usage_error("decode", "--policy needs a value");
    } else if (!strcmp(a, "--target")) {
      if (++i >= argc)
        return tool_usage_error("decode", "--target needs a value");
      target = rs_target_get(argv[i]);
      if (target && target->export)
        continue;
      target = NULL;
      OracleHarness h;
      if (!rs_harness_get(argv[i], &h)) {
        char known[256];
        return tool_usage_error("decode", "unknown target '%s' (known: %s, %s)", argv[i],
                                export_names(known, sizeof known), rs_harness_names);
      }
      harness_policy = h.policy ? h.policy : h.target->policy; /* a fuzz target: its policy */
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
  char side[4096];
  if (!policy && !target && !harness_policy && (policy = sidecar_policy(file, side, sizeof side)))
    fprintf(stderr, "relaysmith decode: policy %s, from %s.flags\n", policy, file);
  const GenPolicy *p = tool_policy("decode", policy           ? policy
                                             : target         ? target->policy
                                             : harness_policy ? harness_policy
                                                              : "mix");
  if (!p)
    return 2;
  size_t n;
  uint8_t *data = tool_read_file(!strcmp(file, "-") ? "/dev/stdin" : file, &n);
  if (!data)
    return 1;
  GenSpans sp = {0};
  Module *m = gen_decode(data, n, p, spans ? &sp : NULL);
  if (target) {
    int rc = print_export(target, m);
    gen_spans_free(&sp);
    ir_module_free(m);
    free(data);
    return rc;
  }
  Arena *a = arena_new();
  const char **names;
  char *text = ir_print_module_names(m, a, &names);
  if (count)
    printf("%lld\n", (long long)ir_module_count(m));
  else
    fputs(text, stdout);
  if (spans)
    print_spans(&sp, names);
  arena_free(a);
  free(text);
  gen_spans_free(&sp);
  ir_module_free(m);
  free(data);
  return 0;
}
