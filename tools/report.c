/*
 * report.c - `relaysmith report CRASH`: an issue text for llvm-project
 * from a finding of the MLIR target.  The crash file runs as `relaysmith
 * triage` runs it (its sidecar's flags, then those given, -trace=1) in a
 * forked child, which writes the target's reproducer files (Verdict.files)
 * next to the report; the report it prints (oracle_report_files) is read
 * back, and becomes Markdown: a title, MLIR's version, the pass to blame
 * (the key's "miscompiled by STAGE", found by replacing stages, or the
 * failing stage), the .mlir, the commands (Verdict.repro, the file names
 * relative to the report), expected against actual values, and the search
 * the reporter should do upstream.  --reduce first shrinks the input with
 * `relaysmith reduce`'s code (cmd_reduce, in a child).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compiler/typing/typing.h"
#include "targets/targets.h"
#include "tool.h"

static const char report_help[] =
    "usage: relaysmith report [--target TARGET] [--reduce] [--timeout SECONDS] [FLAGS]\n"
    "                         [-o FILE] CRASH\n"
    "\n"
    "Write an issue text for llvm-project (Markdown) about CRASH, a finding of\n"
    "mlir_fuzzer: a title, MLIR's version (mlir-opt-22 --version), the pass to\n"
    "blame (for a miscompile the stages which, each replaced by its phase's\n"
    "plainest variant, make the result right: the report's key), the .mlir,\n"
    "the exact mlir-opt-22 / mlir-runner-22 commands, expected (relayc's\n"
    "interpreter) against actual (MLIR) values, and the terms and link of the\n"
    "upstream search, which is for the reporter to do (the tool does not\n"
    "search the net).  CRASH runs as 'relaysmith triage' runs it, with its\n"
    "sidecar CRASH.flags and then the FLAGS given (-pipeline=..., as the\n"
    "report's reproduce: line spells them), in a forked child.\n"
    "\n"
    "  -o FILE          write FILE.md and the .mlir files as FILE.in.mlir, ...\n"
    "                   (default: the Markdown on stdout, the files next to\n"
    "                   CRASH as CRASH.in.mlir, ...); the commands name the\n"
    "                   files relative to their directory\n"
    "  --reduce         first shrink CRASH as 'relaysmith reduce' does, into\n"
    "                   FILE.min (or CRASH.min), and report that\n"
    "  --target TARGET  mlir_fuzzer (default: the one CRASH.flags names, else\n"
    "                   mlir_fuzzer); report is for MLIR findings only\n"
    "  --timeout N      seconds the run may take (default 300)\n"
    "\n"
    "Exit status: 0 when written, 1 when CRASH does not fail (or a file cannot\n"
    "be written), 2 on bad usage or a target other than MLIR's.\n";

/* The command line. */
typedef struct ROpts {
  const char *target, *out, *file;
  char **flags; /* the check's flags given (malloc'd) */
  int nflags;
  bool reduce;
  uint64_t timeout;
} ROpts;

enum { MAX_STAGES = 64 };

/* What one run of the crash showed: the child's stderr, and what it says. */
typedef struct Run {
  char *log; /* the child's stderr */
  int status;
  bool timed_out;
  char sig[TOOL_SIG_MAX];
  const char *report; /* where the report starts in log, or NULL */
  char stage[256];    /* the failing stage (the report's pass line) */
  char oracle[512], key[512];
  char *detail, *repro; /* malloc'd, or NULL */
  int nstages;          /* stages named by -trace=1, in the order run */
  char *sname[MAX_STAGES], *stext[MAX_STAGES];
  char *script; /* the last transform schedule the run applied (-trace=1), or NULL */
} Run;

/* ----------------------------------------------------------- options */

/* Parse report's arguments into o; -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, ROpts *o) {
  memset(o, 0, sizeof *o);
  o->timeout = 300;
  o->flags = calloc((size_t)argc + 1, sizeof *o->flags);
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    bool has = i + 1 < argc;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(report_help, stdout);
      return 0;
    } else if (!strcmp(a, "--reduce")) {
      o->reduce = true;
    } else if (!strcmp(a, "--target") || !strcmp(a, "-o") || !strcmp(a, "--out")) {
      if (!has)
        return tool_usage_error("report", "%s needs a value", a);
      *(!strcmp(a, "--target") ? &o->target : &o->out) = argv[++i];
    } else if (!strcmp(a, "--timeout")) {
      if (!has || !tool_parse_u64(argv[++i], &o->timeout) || !o->timeout || o->timeout > 86400)
        return tool_usage_error("report", "--timeout needs a number of seconds");
    } else if ((o->flags[o->nflags] = tool_check_flag(argc, argv, &i))) {
      o->nflags++;
    } else if (a[0] == '-' && a[1]) {
      return tool_usage_error("report", "unknown option '%s'", a);
    } else if (o->file) {
      return tool_usage_error("report", "one CRASH only");
    } else {
      o->file = a;
    }
  }
  if (!o->file)
    return tool_usage_error("report", "missing CRASH");
  return -1;
}

/* The harness o names (or CRASH's sidecar, else mlir_fuzzer) into h,
 * and the configuration of its check into c, flags into f; -1 to go on,
 * else the exit status (2: not the MLIR target, or a bad flag). */
static int configure(const ROpts *o, OracleHarness *h, OracleConfig *c, ToolFlags *f) {
  char side[4096], why[2048];
  const char *name = o->target ? o->target : tool_sidecar_harness(o->file, side, sizeof side);
  if (!name)
    name = "mlir_fuzzer";
  if (!rs_harness_get(name, h)) {
    if (!strcmp(name, "mlir_fuzzer"))
      return tool_usage_error("report", "this relaysmith was built without MLIR 22 (the mlir "
                                        "preset, or the test preset with libmlir-22-dev, has it)");
    return tool_usage_error("report", "unknown target '%s' (%s)", name, rs_harness_names);
  }
  if (strcmp(h->target->name, "mlir") != 0) {
    fprintf(stderr,
            "relaysmith report: %s is a finding of %s: report is for MLIR findings "
            "(mlir_fuzzer); 'relaysmith reduce' and 'triage' take the others\n",
            o->file, name);
    return 2;
  }
  tool_flags(f, name, h->target->flag, o->file, o->flags, o->nflags);
  char *argv[66] = {"relaysmith", "-trace=1"};
  for (int i = 1; i < f->argc; i++)
    argv[i + 1] = f->argv[i];
  if (!oracle_init(c, h, f->argc + 1, argv, why, sizeof why))
    return tool_usage_error("report", "%s: %s", f->desc, why);
  return -1;
}

/* ------------------------------------------------------------ running */

/* Shrink o->file into min as `relaysmith reduce` does (its code, in a
 * child whose stdout goes to stderr); false when it did not. */
static bool reduce_into(const ROpts *o, const char *target, const char *min) {
  char *argv[80];
  int n = 0;
  argv[n++] = "--target";
  argv[n++] = (char *)target;
  for (int i = 0; i < o->nflags && n < 72; i++)
    argv[n++] = o->flags[i];
  char t[32];
  snprintf(t, sizeof t, "%llu", (unsigned long long)(o->timeout < 60 ? o->timeout : 60));
  argv[n++] = "--timeout";
  argv[n++] = t;
  argv[n++] = (char *)o->file;
  argv[n++] = "-o";
  argv[n++] = (char *)min;
  argv[n] = NULL;
  fprintf(stderr, "relaysmith report: reducing %s into %s (relaysmith reduce)\n", o->file, min);
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(2, 1);
    _exit(cmd_reduce(n, argv));
  }
  int status = 0;
  while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  return pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

typedef struct ChildCtx {
  const OracleConfig *c;
  const uint8_t *data;
  size_t size;
  const char *base, *name;
} ChildCtx;

/* The child: the check on the input; a failure's files written as
 * base.NAME and its report printed naming them name.NAME. */
static void child(void *ctx) {
  const ChildCtx *x = ctx;
  Verdict v;
  if (oracle_check(x->c, &(OracleInput){.data = x->data, .size = x->size}, &v))
    _exit(0);
  oracle_write_files(&v, x->base, stderr);
  oracle_report_files(stderr, x->c, &v, NULL, x->name);
  _exit(1);
}

/* Run data's check in a forked child, its stderr in r->log. */
static void run_check(const OracleConfig *c, const uint8_t *data, size_t size, const char *base,
                      const char *name, unsigned timeout, Run *r) {
  ToolChild out;
  tool_run_child(child, &(ChildCtx){c, data, size, base, name}, timeout, &out);
  r->log = out.err;
  r->status = out.status;
  r->timed_out = out.timed_out;
}

/* ------------------------------------------------------------ reading */

/* The rest of the line after key in text, into out; false when absent. */
static bool field(const char *text, const char *key, char *out, size_t cap) {
  const char *p = text ? strstr(text, key) : NULL;
  if (!p)
    return false;
  p += strlen(key);
  snprintf(out, cap, "%.*s", (int)strcspn(p, "\n"), p);
  return true;
}

/* The text from after start up to the first of the ends, malloc'd. */
static char *section(const char *text, const char *start, const char *const *ends, int n) {
  const char *p = text ? strstr(text, start) : NULL;
  if (!p)
    return NULL;
  p += strlen(start);
  size_t len = strlen(p);
  for (int i = 0; i < n; i++) {
    const char *e = strstr(p, ends[i]);
    if (e && (size_t)(e - p) < len)
      len = (size_t)(e - p);
  }
  char *s = malloc(len + 1);
  memcpy(s, p, len);
  s[len] = 0;
  return s;
}

/* Read the run's log: its signature, the report's fields, the stages. */
static void read_run(Run *r) {
  tool_signature(r->log, r->status, r->timed_out, r->sig);
  for (const char *p = r->log; (p = strstr(p, "==relaysmith== stage ")) && r->nstages < MAX_STAGES;
       p++) {
    const char *nm = p + 21, *colon = strstr(nm, ": ");
    size_t eol = strcspn(nm, "\n");
    if (!colon || (size_t)(colon - nm) > eol)
      continue;
    r->sname[r->nstages] = strndup(nm, (size_t)(colon - nm));
    r->stext[r->nstages++] = strndup(colon + 2, eol - (size_t)(colon + 2 - nm));
  }
  static const char sched[] = "==relaysmith== schedule:\n";
  const char *last = NULL;
  for (const char *p = r->log; (p = strstr(p, sched)); p++)
    last = p + strlen(sched);
  if (last) {
    const char *end = strstr(last, "\n==relaysmith== ");
    r->script = strndup(last, end ? (size_t)(end - last) + 1 : strlen(last));
  }
  r->report = strstr(r->log, "==relaysmith== FAILURE");
  if (!r->report)
    return;
  char pass[1024] = "";
  field(r->report, "\npass:    ", pass, sizeof pass);
  snprintf(r->stage, sizeof r->stage, "%.*s", (int)strcspn(pass, " "), pass);
  field(r->report, "\noracle:  ", r->oracle, sizeof r->oracle);
  field(r->report, "\nkey:     ", r->key, sizeof r->key);
  static const char *const ends[] = {"\n--- ", "\n==relaysmith== end"};
  r->detail = section(r->report, "\ndetail:  ", ends, 2);
  r->repro = section(r->report, "\n--- without relaysmith:\n", ends + 1, 1);
}

static void run_free(Run *r) {
  for (int i = 0; i < r->nstages; i++)
    free(r->sname[i]), free(r->stext[i]);
  free(r->log);
  free(r->script);
  free(r->detail);
  free(r->repro);
}

/* The MLIR text of the stage named name (the last run by that name), or
 * NULL. */
static const char *stage_text(const Run *r, const char *name, size_t len) {
  for (int i = r->nstages - 1; i >= 0; i--)
    if (strlen(r->sname[i]) == len && !strncmp(r->sname[i], name, len))
      return r->stext[i];
  return NULL;
}

/* Whether pass name (n bytes) is a helper a stage runs around its own
 * pass (a cleanup or a conversion to the next level), which the title
 * and the search leave out while the stage has another. */
static bool helper(const char *name, size_t n) {
  static const char *const h[] = {"canonicalize", "cse",       "convert-",  "lower-",
                                  "expand-",      "finalize-", "reconcile-"};
  for (size_t i = 0; i < sizeof h / sizeof *h; i++)
    if (n >= strlen(h[i]) && !strncmp(name, h[i], strlen(h[i])))
      return true;
  return false;
}

/* Whether the list "a, b" holds name (n bytes) as a whole item. */
static bool listed(const char *list, const char *name, size_t n) {
  for (const char *p = list; *p;) {
    size_t k = strcspn(p, ",");
    if (k == n && !strncmp(p, name, n))
      return true;
    p += k + strspn(p + k, ", ");
  }
  return false;
}

/* Append to out (cap bytes) the passes of an MLIR pipeline text, without
 * the anchors (builtin.module, func.func), options, and helpers (unless
 * the stage has nothing else): "a, b". */
static void pass_names(const char *text, char *out, size_t cap) {
  for (int pass = 0; pass < 2; pass++) {
    int depth = 0, added = 0;
    for (const char *p = text; *p;) {
      if (*p == '{' || *p == '}') {
        depth += *p++ == '{' ? 1 : -1;
        continue;
      }
      size_t n = strcspn(p, "(),{} ");
      bool anchor =
          (n == 14 && !strncmp(p, "builtin.module", 14)) || (n == 9 && !strncmp(p, "func.func", 9));
      if (n && !depth && !anchor && (pass || !helper(p, n)) && !listed(out, p, n)) {
        size_t at = strlen(out);
        snprintf(out + at, cap - at, "%s%.*s", at ? ", " : "", (int)n, p);
        added++;
      }
      p += n ? n : 1;
    }
    if (added)
      return;
  }
}

/* The stages to blame: the key's "miscompiled by A+B", else the failing
 * stage; their names ("A+B") into names and their MLIR passes into
 * passes.  True when found by replacing stages (a miscompile). */
static bool blamed(const Run *r, char *names, size_t ncap, char *passes, size_t pcap) {
  const char *by = strstr(r->key, "miscompiled by ");
  bool miscompile = by && strncmp(by + 15, "the pipeline", 12) != 0;
  snprintf(names, ncap, "%s", miscompile ? by + 15 : r->stage);
  passes[0] = 0;
  for (const char *p = names; *p;) {
    size_t n = strcspn(p, "+");
    const char *t = stage_text(r, p, n);
    if (t)
      pass_names(t, passes, pcap);
    p += n + (p[n] == '+');
  }
  return miscompile;
}

/* --------------------------------------------------------- the crash */

/* Append the len bytes at s to out (*n of cap used), each @IN@ replaced
 * by name. */
static void put_named(char *out, size_t cap, size_t *n, const char *s, size_t len,
                      const char *name) {
  const char *end = s + len;
  while (s < end && *n < cap) {
    const char *at = strstr(s, "@IN@");
    size_t k = at && at + 4 <= end ? (size_t)(at - s) : (size_t)(end - s);
    bool sub = k < (size_t)(end - s);
    *n += (size_t)snprintf(out + *n, cap - *n, "%.*s%s", (int)k, s, sub ? name : "");
    s += k + (sub ? 4 : 0);
  }
}

/* For a crash inside MLIR (no report, so no files): the translation into
 * base.in.mlir and the commands up to the stage it crashed in, into
 * r->repro (the stages of the pipeline that crashed: the first n traced,
 * or those after them, the differential's); false when not written. */
static bool crash_repro(const OracleConfig *c, const uint8_t *data, size_t size, const char *base,
                        const char *name, Run *r) {
  TgPipeline pl = c->pipeline;
  if (!pl.n && !c->fixed)
    c->target->header_pipeline(data, size, &pl);
  int from = r->nstages > pl.n ? pl.n : 0;
  Module *m = gen_decode(data, size, c->policy, NULL);
  Diag d;
  diag_init(&d, NULL, NULL);
  char why[1024], *text = NULL, path[4096];
  snprintf(path, sizeof path, "%s.in.mlir", base);
  bool ok = ty_check_module(m, &d) && (text = c->target->export(m, why, sizeof why)) &&
            tool_write_file(path, text, strlen(text));
  /* A schedule stage names its script @IN@.transform.mlir: the one the
   * run printed. */
  snprintf(path, sizeof path, "%s.transform.mlir", base);
  ok = ok && (!r->script || tool_write_file(path, r->script, strlen(r->script)));
  free(text);
  diag_free(&d);
  ir_module_free(m);
  if (!ok || !r->nstages)
    return false;
  size_t cap = 16384, n = 0;
  r->repro = malloc(cap);
  n += (size_t)snprintf(r->repro, cap, "# the crash, in stage %d (%s): ", r->nstages - from,
                        r->sname[r->nstages - 1]);
  const char *last = r->stext[r->nstages - 1];
  put_named(r->repro, cap, &n, last, strlen(last), name);
  n += (size_t)snprintf(r->repro + n, cap - n, "\n");
  n += (size_t)snprintf(r->repro + n, cap - n, "mlir-opt-22 --pass-pipeline='builtin.module(");
  for (int i = from, k = 0; i < r->nstages && n < cap; i++) {
    const char *t = r->stext[i];
    if (strncmp(t, "builtin.module(", 15) != 0)
      continue; /* a defect stage: not in mlir-opt */
    n += (size_t)snprintf(r->repro + n, cap - n, "%s", k++ ? "," : "");
    put_named(r->repro, cap, &n, t + 15, strlen(t) - 16, name);
  }
  if (n < cap)
    snprintf(r->repro + n, cap - n, ")' %s.in.mlir\n", name);
  return true;
}

/* ---------------------------------------------------------- Markdown */

/* MLIR's version: the first line of `mlir-opt-22 --version`, or "not
 * installed". */
static void mlir_version(char *out, size_t cap) {
  snprintf(out, cap, "not installed (mlir-opt-22 not found)");
  FILE *p = popen("mlir-opt-22 --version 2>/dev/null", "r");
  char line[512];
  while (p && fgets(line, sizeof line, p)) {
    line[strcspn(line, "\n")] = 0;
    if (strstr(line, "version")) {
      snprintf(out, cap, "%s", line + strspn(line, " "));
      break;
    }
  }
  if (p)
    pclose(p);
}

/* Append s to the query q, URL-encoded. */
static void url_add(char *q, size_t cap, const char *s) {
  size_t n = strlen(q);
  for (; *s && n + 4 < cap; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == ' ')
      q[n++] = '+';
    else if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
             strchr("-_.~", ch))
      q[n++] = (char)ch;
    else
      n += (size_t)snprintf(q + n, cap - n, "%%%02X", ch);
  }
  q[n] = 0;
}

/* The first op name ('dialect.op' or dialect.op) in text, into out. */
static bool op_name(const char *text, char *out, size_t cap) {
  for (const char *p = text; p && *p; p++) {
    size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyz_");
    if (n && p[n] == '.' && (p == text || !strchr("abcdefghijklmnopqrstuvwxyz_.", p[-1]))) {
      size_t m = strspn(p + n + 1, "abcdefghijklmnopqrstuvwxyz_0123456789.");
      if (m) {
        snprintf(out, cap, "%.*s", (int)(n + 1 + m), p);
        return true;
      }
    }
    p += n;
    if (!*p)
      break;
  }
  return false;
}

/* The words of a diagnostic up to its first number placeholder (N) or
 * quote, for a phrase search: at least 12 characters, else "". */
static void phrase(const char *key, char *out, size_t cap) {
  const char *p = strstr(key, "op ") ? strstr(key, "op ") + 3 : key;
  size_t n = 0;
  while (p[n] && p[n] != '\'' && p[n] != '"' && p[n] != ';' && p[n] != ':' &&
         !(p[n] == 'N' && (!n || p[n - 1] == ' ' || p[n - 1] == '#')))
    n++;
  while (n && (p[n - 1] == ' ' || p[n - 1] == '#'))
    n--;
  snprintf(out, cap, "%.*s", n >= 12 ? (int)n : 0, p);
}

/* The class of the finding and the title, from the run. */
static void title(const Run *r, bool miscompile, const char *passes, char *cls, size_t ccap,
                  char *t, size_t tcap) {
  if (!r->report) {
    snprintf(cls, ccap, "crash");
    snprintf(t, tcap, "[mlir] %s crashes: %s", passes[0] ? passes : "mlir-opt", r->sig);
  } else if (!strncmp(r->oracle, "result", 6) || !strncmp(r->oracle, "differential", 12)) {
    snprintf(cls, ccap, "miscompile");
    if (miscompile)
      snprintf(t, tcap, "[mlir] %s miscompiles: the lowered module computes wrong values", passes);
    else if (strstr(r->key, "known cause: "))
      snprintf(t, tcap, "[mlir] wrong values: %s", strstr(r->key, "known cause: ") + 13);
    else
      snprintf(t, tcap, "[mlir] the pipeline through %s miscompiles (no single pass to blame)",
               passes);
  } else if (!strncmp(r->oracle, "verifier-accepts", 16)) {
    snprintf(cls, ccap, "verifier gap");
    char what[256];
    snprintf(what, sizeof what, "%.*s", (int)strcspn(r->key, ";"), r->key);
    char *acc = strstr(what, " accepted");
    if (acc)
      *acc = 0;
    char *comma = strchr(what, ',');
    if (comma)
      *comma = 0;
    snprintf(t, tcap, "[mlir] verifier accepts %s with a%s%s", what, comma ? " " : "n invalid ",
             comma ? comma + 2 : "op");
  } else if (!strncmp(r->oracle, "verify", 6)) {
    snprintf(cls, ccap, "invalid IR after a pass");
    snprintf(t, tcap, "[mlir] %s leaves invalid IR: %s", passes, r->key);
  } else if (!strncmp(r->oracle, "crash", 5)) {
    snprintf(cls, ccap, "a pass fails");
    snprintf(t, tcap, "[mlir] %s fails: %s", passes, r->key);
  } else {
    snprintf(cls, ccap, "%.*s", (int)strcspn(r->oracle, " "), r->oracle);
    snprintf(t, tcap, "[mlir] %s: %s", passes[0] ? passes : r->stage, r->key);
  }
}

/* Print file path to f as an mlir block headed by its name. */
static void put_file(FILE *f, const char *path, const char *name) {
  size_t n;
  uint8_t *text = tool_read_file(path, &n);
  if (!text)
    return;
  fprintf(f, "`%s`:\n\n```mlir\n%.*s%s```\n\n", name, (int)n, (const char *)text,
          n && text[n - 1] == '\n' ? "" : "\n");
  free(text);
}

/* Whether path exists. */
static bool exists(const char *path) {
  return access(path, F_OK) == 0;
}

/* The upstream search section: terms from the passes, the op, the
 * diagnostic or the crash's frames, and the link. */
static void search(FILE *f, const Run *r, const char *cls, const char *passes) {
  char terms[1024] = "", op[128] = "", ph[256] = "";
  bool gap = !strcmp(cls, "verifier gap");
  for (const char *p = gap ? "" : passes; *p;) {
    size_t n = strcspn(p, ", ");
    size_t at = strlen(terms);
    if (n)
      snprintf(terms + at, sizeof terms - at, "%s\"%.*s\"", at ? " " : "", (int)n, p);
    p += n + strspn(p + n, ", ");
  }
  const char *src = r->report ? r->key : r->sig;
  if (op_name(strstr(src, "accepted") ? src : r->key, op, sizeof op) || op_name(src, op, sizeof op))
    snprintf(terms + strlen(terms), sizeof terms - strlen(terms), "%s%s", terms[0] ? " " : "", op);
  if (!strcmp(cls, "miscompile"))
    snprintf(terms + strlen(terms), sizeof terms - strlen(terms), " miscompile");
  else if (!strcmp(cls, "verifier gap"))
    snprintf(terms + strlen(terms), sizeof terms - strlen(terms), " verifier shape");
  else if (!strcmp(cls, "crash")) {
    const char *at = strstr(r->sig, " at ");
    if (at)
      snprintf(terms + strlen(terms), sizeof terms - strlen(terms), " %.*s",
               (int)strcspn(at + 4, " <"), at + 4);
    snprintf(terms + strlen(terms), sizeof terms - strlen(terms), " crash");
  } else if ((phrase(r->key, ph, sizeof ph), ph[0]))
    snprintf(terms + strlen(terms), sizeof terms - strlen(terms), " \"%s\"", ph);
  char q[2048] = "";
  url_add(q, sizeof q, terms);
  fprintf(f,
          "## Upstream search\n\n"
          "Not done by this tool, which cannot reach the network: before filing, search\n"
          "llvm/llvm-project's issues and pull requests (open and closed) with\n\n"
          "    %s\n\n"
          "https://github.com/llvm/llvm-project/issues?q=%s\n\n"
          "and, with fewer terms, for the pass alone; note here what was found (a\n"
          "report, a fix on main, or nothing).\n",
          terms, q);
}

/* Write the Markdown of run r to f; base is where the files are, name
 * their name relative to the report. */
static void markdown(FILE *f, const ROpts *o, const char *input, const Run *r, const char *base,
                     const char *name) {
  char names[512], passes[1024], cls[64], t[1024], version[512];
  bool miscompile = blamed(r, names, sizeof names, passes, sizeof passes);
  if (!r->report && r->nstages) {
    snprintf(names, sizeof names, "%s", r->sname[r->nstages - 1]);
    passes[0] = 0;
    pass_names(r->stext[r->nstages - 1], passes, sizeof passes);
  }
  title(r, miscompile, passes, cls, sizeof cls, t, sizeof t);
  mlir_version(version, sizeof version);
  fprintf(f, "# %s\n\n", t);
  fprintf(f, "<!-- relaysmith report %s (%s) -->\n\n", input, r->sig);
  fprintf(f, "**MLIR version:** %s (`mlir-opt-22 --version`).\n\n", version);
  fprintf(f, "**Class:** %s.", cls);
  if (r->report)
    fprintf(f, "  relaysmith's oracle: %s.", r->oracle);
  fprintf(f, "\n\n## The pass to blame\n\n");
  char op[128];
  if (!strcmp(cls, "verifier gap") && op_name(r->key, op, sizeof op))
    fprintf(f,
            "- the verifier of `%s`: `mlir-opt-22 --verify-each` accepts the module with\n"
            "  the defect below; the stage that then fails:\n",
            op);
  const char *t0 = NULL;
  for (const char *p = names; *p;) {
    size_t n = strcspn(p, "+");
    if ((t0 = stage_text(r, p, n)))
      fprintf(f, "- `%s`  (relaysmith's stage %.*s)\n", t0, (int)n, p);
    p += n + (p[n] == '+');
  }
  if (miscompile)
    fprintf(f,
            "\nFound by replacing each stage of the pipeline by its phase's plainest\n"
            "variant, or dropping it: with %s the result is right again,\n"
            "so %s to blame.\n\n",
            strchr(names, '+') ? "any one of these replaced" : "this one replaced",
            strchr(names, '+') ? "each is" : "it is the one");
  else if (r->report && strstr(r->key, "miscompiled by the pipeline"))
    fprintf(f, "\nNo single stage: replacing any one by its phase's plainest variant\n"
               "leaves the result wrong.  The failing stage is shown.\n\n");
  else if (r->report)
    fprintf(f, "\nThe stage after which the check failed (every stage before it passed\n"
               "the verifier).\n\n");
  else
    fprintf(f, "\nThe stage MLIR crashed in.\n\n");
  if (r->detail)
    fprintf(f, "What relaysmith saw:\n\n```\n%s%s```\n\n", r->detail,
            r->detail[0] && r->detail[strlen(r->detail) - 1] == '\n' ? "" : "\n");
  fprintf(f, "## Reproducer\n\n");
  static const char *const kinds[] = {"run.mlir", "in.mlir", "before.mlir"};
  static const char *const says[] = {
      "the module and an `@entry` that calls `@main` on the inputs and prints the results",
      "the module as it enters the pipeline", "the module before the failing stage"};
  fprintf(f, "Files written next to this report:\n\n");
  for (int i = 0; i < 3; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s.%s", base, kinds[i]);
    if (exists(path))
      fprintf(f, "- `%s.%s`: %s\n", name, kinds[i], says[i]);
  }
  fprintf(f, "\n");
  for (int i = 0; i < 3; i++) {
    char path[4096], rel[4096];
    snprintf(path, sizeof path, "%s.%s", base, kinds[i]);
    snprintf(rel, sizeof rel, "%s.%s", name, kinds[i]);
    if (exists(path) && i < 2) {
      put_file(f, path, rel);
      break;
    }
  }
  if (r->repro) {
    fprintf(f,
            "## Commands\n\nRun where the files are, with MLIR 22's tools:\n\n```sh\n%s%s```\n\n",
            r->repro, r->repro[0] && r->repro[strlen(r->repro) - 1] == '\n' ? "" : "\n");
  }
  char want[2048], got[2048];
  if (field(r->repro, "# relayc's interpreter gives: ", want, sizeof want) &&
      field(r->repro, "# MLIR gives:", got, sizeof got))
    fprintf(f,
            "## Expected and actual\n\n"
            "- expected (relayc's reference interpreter): `%s`\n"
            "- actual (MLIR 22, the JIT-compiled module): `%s`\n\n"
            "mlir-runner-22 prints each result as int32 (floats by their bits:\n"
            "`0x3F800000` is 1.0).\n\n",
            want, got + strspn(got, " "));
  search(f, r, cls, passes);
  (void)o;
}

/* ----------------------------------------------------------- command */

/* The directory part of path ("." when none) into out. */
static void dir_of(const char *path, char *out, size_t cap) {
  const char *slash = strrchr(path, '/');
  snprintf(out, cap, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
}

/* Write the report of input (data) with the files at base; 0, or 1 when
 * it does not fail or a file cannot be written. */
static int report_input(const ROpts *o, const OracleConfig *c, const ToolFlags *tf,
                        const char *input, const char *base) {
  size_t size;
  uint8_t *data = tool_read_file(input, &size);
  if (!data)
    return 1;
  const char *name = strrchr(base, '/') ? strrchr(base, '/') + 1 : base;
  Run r = {0};
  run_check(c, data, size, base, name, (unsigned)o->timeout, &r);
  read_run(&r);
  int rc = 1;
  if (!r.sig[0]) {
    char what[1024];
    oracle_describe(c, what, sizeof what);
    fprintf(stderr, "relaysmith report: %s does not fail on %s (%s)%s%s%s: nothing to report\n",
            input, tf->desc, what, tf->sidecar ? ", with the flags read from " : "",
            tf->sidecar ? o->file : "", tf->sidecar ? ".flags" : "");
  } else {
    if (!r.report && !crash_repro(c, data, size, base, name, &r))
      fprintf(stderr, "relaysmith report: no .mlir written for the crash\n");
    char md[4096], dir[4096];
    snprintf(md, sizeof md, "%s.md", base);
    FILE *f = o->out ? fopen(md, "w") : stdout;
    if (!f) {
      fprintf(stderr, "relaysmith report: cannot write %s: %s\n", md, strerror(errno));
    } else {
      markdown(f, o, input, &r, base, name);
      rc = (o->out ? fclose(f) : fflush(f)) == 0 ? 0 : 1;
      dir_of(base, dir, sizeof dir);
      if (o->out)
        fprintf(stderr, "relaysmith report: wrote %s (%s), the files beside it\n", md, r.sig);
      else
        fprintf(stderr, "relaysmith report: the files are in %s (%s)\n", dir, r.sig);
    }
  }
  run_free(&r);
  free(data);
  return rc;
}

int cmd_report(int argc, char **argv) {
  ROpts o;
  OracleHarness h;
  OracleConfig c;
  ToolFlags tf;
  int rc = parse_args(argc, argv, &o);
  if (rc < 0)
    rc = configure(&o, &h, &c, &tf);
  char base[4096], min[4200], md[4200];
  snprintf(base, sizeof base, "%s", o.out ? o.out : o.file);
  snprintf(md, sizeof md, "%s.md", base);
  if (rc < 0 && o.out && !tool_can_write(md))
    rc = 1;
  if (rc < 0 && access(o.file, R_OK) != 0) {
    fprintf(stderr, "relaysmith report: cannot read %s: %s\n", o.file, strerror(errno));
    rc = 1;
  }
  const char *input = o.file;
  snprintf(min, sizeof min, "%s.min", base);
  if (rc < 0 && o.reduce) {
    if (!reduce_into(&o, h.name, min)) {
      fprintf(stderr, "relaysmith report: not reduced (see above): nothing written\n");
      rc = 1;
    }
    input = min;
    if (!o.out)
      snprintf(base, sizeof base, "%s", min);
  }
  if (rc < 0)
    rc = report_input(&o, &c, &tf, input, base);
  for (int i = 0; i < o.nflags; i++)
    free(o.flags[i]);
  free(o.flags);
  return rc;
}
