/*
 * run.c - `relaysmith run`: run relayc passes on one program, given as
 * text (the Relay text format) or as a byte file (decoded by the
 * generator), printing the program after the passes and the interpreter's
 * results before and after.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/eval/eval.h"
#include "compiler/passes/pass.h"
#include "compiler/typing/typing.h"
#include "tool.h"

static const char run_help[] =
    "usage: relaysmith run [--passes=a,b,c] [--print-after=NAME|all] [--policy NAME]\n"
    "                      [--seed N] [--bytes|--text] FILE\n"
    "\n"
    "Runs relayc passes on the program in FILE and prints the program after\n"
    "the last pass (or after each pass named by --print-after; `all` prints\n"
    "after every pass), and @main's interpreter result before and after.\n"
    "FILE is read as Relay text when it parses, else decoded as a choice\n"
    "stream by the generator (--text / --bytes force one).  Exit status: 0\n"
    "when every pass keeps the type and the result, 1 otherwise, 2 on bad\n"
    "usage.\n"
    "  --passes=LIST   comma-separated pass names (default: none)\n"
    "  --seed N        seed for @main's argument values (default 0)\n";

static void print_passes(FILE *f) {
  fprintf(f, "passes:");
  for (int i = 0; i < pass_count; i++)
    if (!pass_table[i].test_only)
      fprintf(f, " %s", pass_table[i].name);
  fprintf(f, "\n");
}

/* Load FILE as text or bytes; NULL with a message on failure. */
static Module *load(const char *file, int mode, const GenPolicy *p) {
  size_t n;
  uint8_t *data = tool_read_file(file, &n);
  if (!data)
    return NULL;
  Module *m = NULL;
  if (mode != 'b') {
    Diag d;
    diag_init(&d, file, (const char *)data);
    m = ir_parse_module((const char *)data, n, file, &d);
    if (!m && mode == 't')
      fprintf(stderr, "%s", d.text ? d.text : "parse failed\n");
    diag_free(&d);
  }
  if (!m && mode != 't')
    m = gen_decode(data, n, p, NULL);
  free(data);
  return m;
}

static void show_result(const char *when, const EvResult *r, Arena *a) {
  if (r->status == EV_OK)
    printf("// result %s: %s\n", when, ev_print_value(a, r->value));
  else
    printf("// result %s: %s: %s\n", when, ev_status_name(r->status), r->msg);
}

int cmd_run(int argc, char **argv) {
  const char *passes = "", *print_after = NULL, *file = NULL, *policy = "default";
  uint64_t seed = 0;
  int mode = 0;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(run_help, stdout);
      print_passes(stdout);
      return 0;
    }
    if (!strncmp(a, "--passes=", 9))
      passes = a + 9;
    else if (!strncmp(a, "--print-after=", 14))
      print_after = a + 14;
    else if (!strcmp(a, "--policy") && i + 1 < argc)
      policy = argv[++i];
    else if (!strcmp(a, "--seed") && i + 1 < argc) {
      if (!tool_parse_u64(argv[++i], &seed))
        return tool_usage_error("run", "bad --seed '%s'", argv[i]);
    } else if (!strcmp(a, "--bytes"))
      mode = 'b';
    else if (!strcmp(a, "--text"))
      mode = 't';
    else if (a[0] == '-' && a[1])
      return tool_usage_error("run", "unknown option '%s'", a);
    else if (file)
      return tool_usage_error("run", "one FILE only");
    else
      file = a;
  }
  if (!file)
    return tool_usage_error("run", "missing FILE");
  const GenPolicy *p = tool_policy("run", policy);
  if (!p)
    return 2;
  /* Check every pass name before doing any work. */
  const PassInfo *seq[64];
  int nseq = 0;
  for (const char *s = passes; *s;) {
    const char *e = strchr(s, ',');
    size_t len = e ? (size_t)(e - s) : strlen(s);
    if (len) {
      const PassInfo *pi = pass_lookup(s, len);
      if (!pi || nseq == 64) {
        fprintf(stderr, "relaysmith run: unknown pass '%.*s'\n", (int)len, s);
        print_passes(stderr);
        return 2;
      }
      seq[nseq++] = pi;
    }
    s += len + (e != NULL);
  }
  Module *m = load(file, mode, p);
  if (!m)
    return 1;
  int status = 0;
  Diag d;
  diag_init(&d, file, NULL);
  if (!ty_check_module(m, &d)) {
    fprintf(stderr, "%s", d.text);
    diag_free(&d);
    ir_module_free(m);
    return 1;
  }
  char *main_type = ir_print_type(ir_global_get(m, "main")->func->type);
  EvRun *before = ev_run_new(NULL);
  EvResult r0 = ev_run_main(before, m, seed);
  for (int i = 0; i < nseq; i++) {
    diag_reset(&d);
    bool ok = seq[i]->run(m, &d) && ty_check_module(m, &d);
    if (!ok) {
      fprintf(stderr, "relaysmith run: after %s:\n%s", seq[i]->name, d.text ? d.text : "");
      status = 1;
      break;
    }
    bool last = i == nseq - 1;
    if (print_after && (!strcmp(print_after, "all") || !strcmp(print_after, seq[i]->name)) &&
        !last) {
      char *t = ir_print_module(m);
      printf("// after %s\n%s\n", seq[i]->name, t);
      free(t);
    }
    diag_reset(&d);
    if (!seq[i]->post(m, &d)) {
      fprintf(stderr, "relaysmith run: %s's postcondition fails:\n%s", seq[i]->name, d.text);
      status = 1;
    }
  }
  char *t = ir_print_module(m);
  printf("// %s %s\n%s\n", nseq ? "after" : "program", nseq ? seq[nseq - 1]->name : "", t);
  free(t);
  GlobalFn *g = ir_global_get(m, "main");
  char *after_type = g ? ir_print_type(g->func->type) : NULL;
  if (!after_type || strcmp(after_type, main_type) != 0) {
    printf("// @main's type changed: %s -> %s\n", main_type, after_type ? after_type : "(gone)");
    status = 1;
  }
  EvRun *after = ev_run_new(NULL);
  EvResult r1 = ev_run_main(after, m, seed);
  show_result("before", &r0, before->arena);
  show_result("after", &r1, after->arena);
  char why[512] = "";
  EvVerdict v = ev_compare(&r0, &r1, &ev_default_tolerance, why, sizeof why);
  printf("// %s%s%s\n",
         v == EV_SAME        ? "same"
         : v == EV_DIFFERENT ? "DIFFERENT"
                             : "undecided",
         why[0] ? ": " : "", why);
  if (v == EV_DIFFERENT)
    status = 1;
  ev_run_free(after);
  ev_run_free(before);
  free(after_type);
  free(main_type);
  diag_free(&d);
  ir_module_free(m);
  return status;
}
