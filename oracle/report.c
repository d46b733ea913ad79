/*
 * report.c - what a check found (oracle.h): the Verdict, its signature,
 * its reproducer files and the failure report every tool parses
 * (tools/signature.c).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "oracle_int.h"

void verdict_fail(Verdict *v, const char *oracle, const char *what, const char *fmt, ...) {
  if (v->failed)
    return;
  v->failed = true;
  v->oracle = oracle;
  v->what = what;
  if (!fmt)
    return;
  va_list ap, again;
  va_start(ap, fmt);
  va_copy(again, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  v->detail = malloc((size_t)n + 1);
  vsnprintf(v->detail, (size_t)n + 1, fmt, again);
  va_end(again);
}

void verdict_free(Verdict *v) {
  for (int i = 0; i < v->nfiles; i++)
    free(v->files[i].text);
  free(v->key);
  free(v->repro);
  free(v->detail);
  free(v->extra);
  free(v->before);
  free(v->after);
  free(v->reject_diag);
  memset(v, 0, sizeof *v);
}

void verdict_file(Verdict *v, const char *name, const char *text) {
  if (v->nfiles == (int)(sizeof v->files / sizeof *v->files))
    return;
  snprintf(v->files[v->nfiles].name, sizeof v->files[0].name, "%s", name);
  v->files[v->nfiles++].text = strdup(text);
}

/* What a report's pass line says in parentheses when no stage of a
 * pipeline failed ("kernel sum", "type inference", "rejection, operator
 * sum", "the generator's output"), in buf or a constant; NULL when stage
 * v->stage failed. */
static const char *no_stage(OracleCheck check, const Verdict *v, char *buf, size_t cap) {
  switch (check) {
  case ORACLE_KERNEL: snprintf(buf, cap, "kernel %s", v->op ? v->op : "?"); return buf;
  case ORACLE_INFERENCE: return "type inference";
  case ORACLE_REJECT: snprintf(buf, cap, "rejection, %s", v->subject); return buf;
  default: return v->stage < 0 ? "the generator's output" : NULL;
  }
}

void verdict_signature(const Verdict *v, char *out, size_t cap) {
  char buf[128];
  const char *none = no_stage(v->check, v, buf, sizeof buf);
  const char *stage = !none && v->stage < v->pipeline.n ? v->pipeline.stage[v->stage].name : NULL;
  /* As oracle_report_signature reads the report: the stage's name up to a
   * space. */
  int n = stage ? snprintf(out, cap, "%s (%s) in pass %.*s", v->oracle, v->what,
                           (int)strcspn(stage, " "), stage)
                : snprintf(out, cap, "%s (%s), %s", v->oracle, v->what,
                           none ? none : "the generator's output");
  if (v->key && n >= 0 && (size_t)n < cap)
    snprintf(out + n, cap - (size_t)n, ": %s", v->key);
}

bool oracle_write_files(const Verdict *v, const char *base, FILE *log) {
  bool ok = true;
  for (int i = 0; i < v->nfiles; i++) {
    char path[4096];
    snprintf(path, sizeof path, "%s.%s", base, v->files[i].name);
    FILE *f = fopen(path, "w");
    if (f) {
      fputs(v->files[i].text, f);
      ok = fclose(f) == 0 && ok;
      fprintf(log, "relaysmith: reproducer file: %s\n", path);
    } else {
      ok = false;
      fprintf(log, "relaysmith: cannot write %s\n", path);
    }
  }
  return ok;
}

/* text with every @IN@ replaced by base. */
static void put_replaced(FILE *f, const char *text, const char *base) {
  for (const char *at; (at = strstr(text, "@IN@")); text = at + 4)
    fprintf(f, "%.*s%s", (int)(at - text), text, base);
  fputs(text, f);
}

void oracle_report(FILE *f, const OracleConfig *c, const Verdict *v, const char *reproduce) {
  oracle_report_files(f, c, v, reproduce, NULL);
}

void oracle_report_files(FILE *f, const OracleConfig *c, const Verdict *v, const char *reproduce,
                         const char *base) {
  if (v->extra)
    fputs(v->extra, f);
  fprintf(f, "\n==relaysmith== FAILURE\n");
  const TgPipeline *pl = &v->pipeline;
  const char *before_label = "passes";
  char buf[128];
  const char *none = no_stage(c->check, v, buf, sizeof buf);
  if (none) {
    fprintf(f, "pass:    (none: %s)\n", none);
  } else {
    before_label = pl->stage[v->stage].name;
    fprintf(f, "pass:    %s (%s %d of %d:", before_label, c->target->noun, v->stage + 1, pl->n);
    for (int i = 0; i < pl->n; i++)
      fprintf(f, " %s", pl->stage[i].name);
    fprintf(f, ")\n");
  }
  fprintf(f, "oracle:  %s (%s)\n", v->oracle, v->what);
  if (v->key)
    fprintf(f, "key:     %s\n", v->key);
  if (v->detail && *v->detail)
    fprintf(f, "detail:  %s%s", v->detail, v->detail[strlen(v->detail) - 1] == '\n' ? "" : "\n");
  if (c->check == ORACLE_REJECT) {
    if (v->before)
      fprintf(f, "--- program with its defect:\n%s\n", v->before);
  } else if (c->check == ORACLE_KERNEL) {
    if (v->before)
      fprintf(f, "--- the call:\n%s\n", v->before);
  } else if (c->check == ORACLE_INFERENCE) {
    if (v->before)
      fprintf(f, "--- program, fully annotated:\n%s\n", v->before);
    if (v->after)
      fprintf(f, "--- program with annotations erased:\n%s\n", v->after);
  } else {
    if (v->before)
      fprintf(f, "--- program before %s:\n%s\n", before_label, v->before);
    if (v->after)
      fprintf(f, "--- program after %s:\n%s\n", before_label, v->after);
  }
  for (int i = 0; i < v->nfiles; i++) {
    fprintf(f, "--- %s.%s:\n", base ? base : "input", v->files[i].name);
    fputs(v->files[i].text, f);
  }
  if (v->repro) {
    fprintf(f, "--- without relaysmith:\n");
    put_replaced(f, v->repro, base ? base : "input");
  }
  if (reproduce)
    fprintf(f, "reproduce: %s\n", reproduce);
  fprintf(f, "==relaysmith== end of report\n");
  fflush(f);
}

/* The rest of the line after the first occurrence of key, into out. */
static bool line_after(const char *text, const char *key, char *out, size_t cap) {
  const char *p = strstr(text, key);
  if (!p)
    return false;
  p += strlen(key);
  size_t n = strcspn(p, "\n");
  snprintf(out, cap, "%.*s", (int)n, p);
  return true;
}

bool oracle_report_signature(const char *text, char *out, size_t cap) {
  char a[512], b[512], k[512];
  const char *rep = strstr(text, "==relaysmith== FAILURE");
  if (!rep || !line_after(rep, "\noracle:  ", a, sizeof a) ||
      !line_after(rep, "\npass:    ", b, sizeof b))
    return false;
  if (!strncmp(b, "(none: ", 7))
    snprintf(out, cap, "%s, %.*s", a, (int)strcspn(b + 7, ")"), b + 7);
  else
    snprintf(out, cap, "%s in pass %.*s", a, (int)strcspn(b, " "), b);
  /* The target's discriminator (the MLIR target: the diagnostic). */
  if (line_after(rep, "\nkey:     ", k, sizeof k)) {
    size_t at = strlen(out);
    snprintf(out + at, cap - at, ": %s", k);
  }
  return true;
}
