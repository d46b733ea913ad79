/*
 * run.c - `relaysmith run`: relayc passes on one program, given as Relay
 * text or as a choice stream (decoded by the generator), checked by the
 * same oracle as the fuzz targets (oracle_check); prints the program after
 * the passes and @main's result before and after.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/passes/pass.h"
#include "compiler/typing/typing.h"
#include "targets/targets.h"
#include "tool.h"

static const char run_help[] =
    "usage: relaysmith run [--passes=a,b,c] [--print-after=NAME|all] [--policy NAME]\n"
    "                      [--fault=NAME] [--seed N] [--fuel N] [--text|--bytes] FILE\n"
    "\n"
    "Runs relayc passes on the program in FILE with the oracles of the fuzz\n"
    "targets after every pass, and prints the program after the last pass (and\n"
    "after each pass named by --print-after), and @main's interpreter result\n"
    "before and after.  A failed oracle prints the fuzzers' report.\n"
    "FILE is Relay text when it looks like text (it starts with #[version, its\n"
    "name ends in .relay, or it is UTF-8 holding `def`, `fn` or `type`): a\n"
    "parse error is reported with its position.  Any other file is a choice\n"
    "stream, decoded by the generator (a fuzzer's crash file) with the policy\n"
    "pass_fuzzer uses, mix, unless --policy names another: a crash file of\n"
    "pass_fuzzer decodes here, in decode, reduce and triage to the same program.\n"
    "Another target's file needs its target's policy: fusion (fusion_fuzzer),\n"
    "default (typecheck_fuzzer), its pass's (pass_fuzzer_<pass>).\n"
    "A module without @main is checked and its passes run; nothing is evaluated.\n"
    "\n"
    "Exit status:\n"
    "  0  every oracle holds, and every result comparison was decided\n"
    "  1  an oracle fails; a pass's output is refused (too deep, ir.h); FILE\n"
    "     cannot be read, does not parse, is not well formed or does not type\n"
    "     check\n"
    "  2  bad usage\n"
    "  3  no oracle fails, but a result comparison was undecided: the\n"
    "     interpreter ran out of fuel (or depth, stack or memory) before or\n"
    "     after a pass, so the result oracle checked nothing (try --fuel)\n"
    "\n"
    "A crash file's sidecar FILE.flags (the fuzz target that found it and its\n"
    "flags) is read first when it names pass_fuzzer, fusion_fuzzer or\n"
    "pass_fuzzer_<pass>: its passes (without -passes=, those the file's header\n"
    "chooses, as the target does) and its policy; the flags given here win.\n"
    "\n"
    "  --passes=LIST        comma-separated pass names (default: none)\n"
    "  --print-after=NAME   also print the program after pass NAME, one of\n"
    "                       --passes (all: after every pass)\n"
    "  --policy NAME        the generator policy for a choice stream (default\n"
    "                       'mix', pass_fuzzer's)\n"
    "  --fault=NAME, --allow=LIST  as the fuzz targets' -fault= (test build) and\n"
    "                       -allow=; every flag is also spelt -name=V, --name=V\n"
    "                       or --name V, as the `reproduce:` line of a report has it\n"
    "  --seed N             seed for @main's argument values (default 0)\n"
    "  --fuel N             interpreter steps per run (default 200000, as the\n"
    "                       fuzz targets)\n"
    "  --text               read FILE as Relay text, whatever it looks like\n"
    "  --bytes              read FILE as a choice stream, whatever it looks like\n";

/* The program of a run: the file's text or bytes. */
typedef struct Source {
  const char *file;
  uint8_t *data;
  size_t size;
  bool text;
  const GenPolicy *policy;
} Source;

/* Whether data looks like Relay text rather than a choice stream. */
static bool looks_like_text(const char *file, const uint8_t *data, size_t n) {
  size_t len = strlen(file);
  if (len > 6 && strcmp(file + len - 6, ".relay") == 0)
    return true;
  if (n >= 10 && memcmp(data, "#[version", 9) == 0)
    return true;
  /* UTF-8 (no NUL, no stray control bytes) with a keyword. */
  for (size_t i = 0; i < n; i++) {
    uint8_t c = data[i];
    if (c == 0 || (c < 0x20 && c != '\n' && c != '\r' && c != '\t'))
      return false;
    if (c >= 0x80) {
      int k = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : -1;
      if (k < 0 || c > 0xf4)
        return false;
      for (int j = 1; j <= k; j++)
        if (i + j >= n || (data[i + j] & 0xc0) != 0x80)
          return false;
      i += (size_t)k;
    }
  }
  char *s = malloc(n + 1); /* data has no NUL (checked above), nor a terminator */
  memcpy(s, data, n);
  s[n] = 0;
  bool kw = strstr(s, "def ") || strstr(s, "fn ") || strstr(s, "fn(") || strstr(s, "type ");
  free(s);
  return kw;
}

/* Parse the text; NULL with the diagnostic in d. */
static Module *parse(const Source *src, Diag *d) {
  return ir_parse_module((const char *)src->data, src->size, src->file, d);
}

/* OracleInput.make: the program again (the text parsed before). */
static Module *make(void *ctx) {
  const Source *src = ctx;
  if (!src->text)
    return gen_decode(src->data, src->size, src->policy, NULL);
  Diag d;
  diag_init(&d, src->file, (const char *)src->data);
  Module *m = parse(src, &d);
  diag_free(&d);
  return m;
}

/* What the run shows as the oracle goes. */
typedef struct Show {
  const char *print_after;
  const OracleConfig *c;
  Arena *a;
  char *program;        /* after the last pass */
  char *before, *after; /* the first and the last result, printed */
  bool undecided;
  char why[512];
} Show;

static void show_stage(void *ctx, int i, const TgStage *s, TgProgram *p) {
  Show *sh = ctx;
  if (i == sh->c->pipeline.n - 1) {
    sh->program = sh->c->target->print(p);
    return;
  }
  if (!sh->print_after ||
      (strcmp(sh->print_after, "all") != 0 && strcmp(sh->print_after, s->name) != 0))
    return;
  char *t = sh->c->target->print(p);
  printf("// after %s\n%s\n", s->name, t);
  free(t);
}

static void show_result(void *ctx, int i, const EvResult *r, EvVerdict v, const char *why) {
  Show *sh = ctx;
  char *text = r->status == EV_OK
                   ? ev_print_value(sh->a, r->value)
                   : arena_printf(sh->a, "%s: %s", ev_status_name(r->status), r->msg);
  if (i < 0)
    sh->before = text;
  sh->after = text;
  sh->undecided |= v == EV_UNDECIDED || r->status == EV_INCONCLUSIVE;
  if (why && *why)
    snprintf(sh->why, sizeof sh->why, "%s", why);
}

/* Say on stderr that src is not text and how it was decoded (a mixing
 * policy: which policy its header picks). */
static void note_decoded(const Source *src) {
  uint8_t header[GEN_HEADER_BYTES] = {0};
  memcpy(header, src->data, src->size < sizeof header ? src->size : sizeof header);
  const GenPolicy *picked = gen_policy_pick(src->policy, header);
  fprintf(stderr, "relaysmith run: %s is not Relay text: decoded as a choice stream, policy %s",
          src->file, src->policy->name);
  if (picked != src->policy)
    fprintf(stderr, " (its header picks %s)", picked->name);
  fprintf(stderr, "\n");
}

/* Is name "all" or a stage of pl? */
static bool in_pipeline(const TgPipeline *pl, const char *name) {
  if (!strcmp(name, "all"))
    return true;
  for (int i = 0; i < pl->n; i++)
    if (!strcmp(pl->stage[i].name, name))
      return true;
  return false;
}

/* Load FILE: NULL (after saying why) when it cannot be read, or is text
 * that does not parse, is not well formed (ir_well_formed: e.g. a graph
 * binding shares an effect) or does not type check. */
static Module *load(Source *src, int mode) {
  src->data = tool_read_file(src->file, &src->size);
  if (!src->data)
    return NULL;
  src->text = mode ? mode == 't' : looks_like_text(src->file, src->data, src->size);
  Diag d;
  diag_init(&d, src->file, src->text ? (const char *)src->data : NULL);
  Module *m = src->text ? parse(src, &d) : make(src);
  if (!src->text)
    note_decoded(src);
  if (m && !(ir_well_formed(m, &d) && ty_check_module(m, &d))) {
    ir_module_free(m);
    m = NULL;
  }
  if (!m)
    fprintf(stderr, "%s", d.text ? d.text : "relaysmith run: the program is not valid\n");
  diag_free(&d);
  return m;
}

/* Run the check c on the program in src (read as mode says) and print
 * what run prints; its exit status. */
static int run_file(OracleConfig *c, const ToolFlags *tf, Source *src, int mode,
                    const char *print_after, uint64_t seed, int argc, char **argv) {
  Module *m = load(src, mode);
  if (!m) {
    free(src->data);
    return 1;
  }
  /* Found by a target whose header chose the passes: the same ones. */
  if (tf->sidecar && !c->pipeline.n && !src->text)
    c->target->header_pipeline(src->data, src->size, &c->pipeline);
  bool has_main = ir_global_get(m, "main") != NULL;
  Show sh = {print_after, c, arena_new()};
  if (!c->pipeline.n)
    sh.program = ir_print_module(m);
  ir_module_free(m);
  c->observer = (OracleObserver){show_stage, show_result, &sh};
  Verdict v;
  bool ok = oracle_check(c, &(OracleInput){.make = make, .ctx = src, .seed = seed}, &v);
  if (!ok) {
    char cmd[4096] = "relaysmith run"; /* the command as given */
    for (int i = 0; i < argc; i++) {
      size_t n = strlen(cmd);
      snprintf(cmd + n, sizeof cmd - n, " %s", argv[i]);
    }
    oracle_report(stderr, c, &v, cmd);
  } else if (v.rejected) {
    /* A pass's output was refused (too deep: ir_depth_ok): no bug, but
     * the passes after it did not run. */
    fprintf(stderr, "relaysmith run: stopped after %s, whose output is refused:\n%s",
            c->pipeline.stage[v.stage].name, v.reject_diag ? v.reject_diag : "");
    ok = false;
  } else {
    printf("// %s%s\n%s\n", c->pipeline.n ? "after " : "program",
           c->pipeline.n ? c->pipeline.stage[c->pipeline.n - 1].name : "", sh.program);
    if (!has_main) {
      printf("// no @main: nothing was evaluated\n");
    } else {
      printf("// result before: %s\n// result after: %s\n", sh.before, sh.after);
      printf("// %s%s%s\n", sh.undecided ? "undecided" : "same", sh.why[0] ? ": " : "", sh.why);
    }
    if (tf->sidecar)
      fprintf(stderr, "relaysmith run: no failure with %s, the flags read from %s.flags\n",
              tf->desc, src->file);
  }
  verdict_free(&v);
  free(sh.program);
  arena_free(sh.a);
  free(src->data);
  if (ok && sh.undecided && has_main)
    fprintf(stderr, "relaysmith run: the result check was undecided (exit 3): %s\n",
            sh.why[0] ? sh.why : "the interpreter ran out of its budget");
  return !ok ? 1 : sh.undecided && has_main ? 3 : 0;
}

/* The fuzz target's configuration for FILE into c, with the flags given
 * here after those of FILE's sidecar (when it names a target of relayc's
 * passes, whose harness then gives the policy); false after a usage
 * error. */
static bool configure(OracleConfig *c, ToolFlags *tf, const char *file, char **given, int n) {
  OracleHarness h;
  char side[4096], err[2048];
  const char *found = tool_sidecar_harness(file, side, sizeof side);
  bool use = found && rs_harness_get(found, &h) && h.target == &target_relayc &&
             h.check == ORACLE_PIPELINE;
  if (found && !use)
    fprintf(stderr,
            "relaysmith run: %s.flags names %s, whose check run does not make: its flags "
            "are not used (relaysmith triage %s runs it)\n",
            file, found, file);
  if (!use) {
    rs_harness_get("pass_fuzzer", &h);
    h.policy = "mix";
  }
  tool_flags(tf, h.name, "passes", use ? file : NULL, given, n);
  if (!oracle_init(c, &h, tf->argc, tf->argv, err, sizeof err)) {
    tool_usage_error("run", "%s", err);
    return false;
  }
  c->fixed = true;
  return true;
}

int cmd_run(int argc, char **argv) {
  const char *print_after = NULL;
  Source src = {0};
  uint64_t seed = 0, fuel = 0;
  int mode = 0, nflags = 0, rc = 2;
  char **flags = calloc((size_t)argc + 1, sizeof *flags);
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      printf("%s\npasses:\n", run_help);
      for (int k = 0; k < pass_count; k++)
        printf("  %-24s  %s\n", pass_table[k].name, pass_table[k].desc);
      rc = 0;
      goto done;
    }
    if ((flags[nflags] = tool_check_flag(argc, argv, &i)))
      nflags++;
    else if (!strcmp(a, "--print-after") && i + 1 < argc)
      print_after = argv[++i];
    else if (!strcmp(a, "--seed") && i + 1 < argc) {
      if (!tool_parse_u64(argv[++i], &seed)) {
        rc = tool_usage_error("run", "bad --seed '%s'", argv[i]);
        goto done;
      }
    } else if (!strcmp(a, "--fuel") && i + 1 < argc) {
      if (!tool_parse_u64(argv[++i], &fuel) || fuel == 0 || fuel > INT64_MAX) {
        rc = tool_usage_error("run", "bad --fuel '%s' (a number of steps, at least 1)", argv[i]);
        goto done;
      }
    } else if (!strcmp(a, "--bytes") || !strcmp(a, "--text"))
      mode = a[2];
    else if (a[0] == '-' && a[1]) {
      rc = tool_usage_error("run", "unknown option '%s'", a);
      goto done;
    } else if (src.file) {
      rc = tool_usage_error("run", "one FILE only");
      goto done;
    } else
      src.file = a;
  }
  if (!src.file) {
    rc = tool_usage_error("run", "missing FILE");
    goto done;
  }
  OracleConfig c;
  ToolFlags tf;
  if (!configure(&c, &tf, src.file, flags, nflags))
    goto done;
  if (print_after && !in_pipeline(&c.pipeline, print_after)) {
    if (!pass_lookup(print_after, strlen(print_after)))
      rc = tool_usage_error("run", "--print-after=%s: unknown pass (run --help lists them; or all)",
                            print_after);
    else if (c.pipeline.n || !tf.sidecar) {
      char passes[1024] = "";
      for (int i = 0, n = 0; i < c.pipeline.n && n < (int)sizeof passes; i++)
        n += snprintf(passes + n, sizeof passes - (size_t)n, "%s%s", i ? "," : "",
                      c.pipeline.stage[i].name);
      rc = tool_usage_error("run", "--print-after=%s: %s is not in --passes=%s", print_after,
                            print_after, passes);
    }
    if (rc == 2)
      goto done;
  }
  c.fuel = (int64_t)fuel;
  src.policy = c.policy;
  rc = run_file(&c, &tf, &src, mode, print_after, seed, argc, argv);
done:
  for (int i = 0; i < nflags; i++)
    free(flags[i]);
  free(flags);
  return rc;
}
