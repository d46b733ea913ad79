/*
 * config.c - an oracle's configuration (oracle.h): the harness's
 * defaults, the flags read out of argv, the test build's deliberate
 * bugs, and the configuration in one line.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/typing/typing.h"
#include "oracle_int.h"

/* The flags oracle_init reads besides the target's own. */
static const char *const flag_names[] = {"policy", "allow", "differential", "fault"};

size_t oracle_flag(const Target *t, const char *arg) {
  const char *v = rs_flag_value(arg, t->flag);
  for (size_t i = 0; !v && i < sizeof flag_names / sizeof *flag_names; i++)
    v = rs_flag_value(arg, flag_names[i]);
  return v ? (size_t)(v - arg) : rs_options_flag(arg);
}

static bool set_policy(OracleConfig *c, const char *name, char *err, size_t errlen) {
  c->policy = gen_policy_get(name);
  if (c->policy)
    return true;
  size_t n = (size_t)snprintf(err, errlen, "unknown policy '%s'; valid:", name);
  for (int k = 0; gen_policy_at(k) && n < errlen; k++)
    n += (size_t)snprintf(err + n, errlen - n, " %s", gen_policy_at(k)->name);
  return false;
}

/* The allowances -allow= names (target.h). */
static const struct {
  const char *name;
  uint32_t flag;
} allowances[] = {
    {"float", TG_ALLOW_FLOAT},
    {"signed_zero", TG_ALLOW_SIGNED_ZERO},
    {"error_to_value", TG_ALLOW_ERROR_TO_VALUE},
    {"drop_reads", TG_ALLOW_DROP_READS},
    {"effects", TG_ALLOW_EFFECTS},
};
enum { NALLOW = sizeof allowances / sizeof allowances[0] };

/* Add the comma-separated allowances of text to c->allow. */
static bool set_allow(OracleConfig *c, const char *text, char *err, size_t errlen) {
  for (const char *p = text;;) {
    size_t len = strcspn(p, ",");
    int k = 0;
    while (k < NALLOW &&
           !(strlen(allowances[k].name) == len && !strncmp(allowances[k].name, p, len)))
      k++;
    if (k == NALLOW) {
      size_t n = (size_t)snprintf(err, errlen, "-allow=%s: unknown allowance '%.*s'; valid:", text,
                                  (int)len, p);
      for (int i = 0; i < NALLOW && n < errlen; i++)
        n += (size_t)snprintf(err + n, errlen - n, " %s", allowances[i].name);
      return false;
    }
    c->allow |= allowances[k].flag;
    if (!p[len])
      return true;
    p += len + 1;
  }
}

static bool set_pipeline(OracleConfig *c, const char *text, char *err, size_t errlen) {
  char why[1024];
  if (c->target->parse_pipeline(text, &c->pipeline, why, sizeof why))
    return true;
  snprintf(err, errlen, "-%s=%s: %s", c->target->flag, text, why);
  return false;
}

#ifdef RS_TEST_PASSES
/* The test build's deliberate bugs by -fault= name (OracleFault). */
static const char *const fault_names[] = {
    [FAULT_PRINT_DROP_ATTR] = "print_drop_attr",
    [FAULT_PRINT_ZERO_SIGN] = "print_zero_sign",
    [FAULT_GENERATOR_SPANS] = "generator_spans",
    [FAULT_KERNEL_SUM_LAST] = "kernel_sum_last",
    [FAULT_RELATION_RESHAPE] = "relation_reshape",
    [FAULT_CHECKER_CALL_RELS] = "checker_call_rels",
    [FAULT_CHECKER_POLY_ESCAPE] = "checker_poly_escape",
    [FAULT_CHECKER_MERGE_RELS] = "checker_merge_rels",
    [FAULT_KERNEL_CAST_F16_TRUNC] = "kernel_cast_f16_trunc",
    [FAULT_KERNEL_BF16_SOFTMAX_F32] = "kernel_bf16_softmax_f32",
    [FAULT_MLIR_JIT_FIRST] = "mlir_jit_first",
    [FAULT_HARNESS_STUCK] = "harness_stuck",
};

OracleFault oracle_test_fault;
#endif

/* The names of -fault= (test build), space-separated, into buf. */
static void fault_list(char *buf, size_t len) {
  size_t n = (size_t)snprintf(buf, len, "(none: faults exist only in the test build)");
#ifdef RS_TEST_PASSES
  n = 0;
  for (size_t f = 1; f < sizeof fault_names / sizeof *fault_names && n < len; f++)
    n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? " " : "", fault_names[f]);
  for (int k = OP_FAULT_NONE + 1; k < OP_FAULT_COUNT && n < len; k++)
    n += (size_t)snprintf(buf + n, len - n, " %s", op_fault_name((OpFault)k));
#endif
  (void)n;
}

static bool set_fault(OracleConfig *c, const char *name, char *err, size_t errlen) {
#ifdef RS_TEST_PASSES
  for (size_t f = 1; f < sizeof fault_names / sizeof *fault_names; f++)
    if (strcmp(name, fault_names[f]) == 0) {
      c->fault = (OracleFault)f;
      return true;
    }
  OpFault of; /* a wrong relation (compiler/ops/bad_relations.c) */
  if (op_fault_lookup(name, &of)) {
    c->op_fault = (int)of;
    return true;
  }
  size_t n = (size_t)snprintf(err, errlen, "unknown fault '%s'; valid: ", name);
  if (n < errlen)
    fault_list(err + n, errlen - n);
#else
  snprintf(err, errlen, "unknown fault '%s' (faults exist only in the test build)", name);
#endif
  return false;
}

/* Switch the test build's deliberate bugs on or off for a check. */
void oracle_set_faults(const OracleConfig *c) {
#ifdef RS_TEST_PASSES
  ir_test_print_drop_attr = c->fault == FAULT_PRINT_DROP_ATTR;
  ir_test_print_zero_sign = c->fault == FAULT_PRINT_ZERO_SIGN;
  gen_test_fault_spans = c->fault == FAULT_GENERATOR_SPANS;
  ty_test_fault_call_rels = c->fault == FAULT_CHECKER_CALL_RELS;
  ty_test_fault_poly_escape = c->fault == FAULT_CHECKER_POLY_ESCAPE;
  ty_test_fault_merge_rels = c->fault == FAULT_CHECKER_MERGE_RELS;
  op_test_fault_reduce = c->fault == FAULT_KERNEL_SUM_LAST;
  op_test_fault_cast_trunc = c->fault == FAULT_KERNEL_CAST_F16_TRUNC;
  op_test_fault_bf16_softmax = c->fault == FAULT_KERNEL_BF16_SOFTMAX_F32;
  op_test_fault_reshape = c->fault == FAULT_RELATION_RESHAPE;
  op_test_fault = (OpFault)c->op_fault;
  oracle_test_fault = c->fault;
#endif
}

bool oracle_init(OracleConfig *c, const OracleHarness *h, int argc, char **argv, char *err,
                 size_t errlen) {
  memset(c, 0, sizeof *c);
  c->check = h->check;
  c->target = h->target;
  snprintf(c->harness, sizeof c->harness, "%s", h->name);
  c->nseeds = 1;
  c->differential = h->differential;
  rs_options_default(&c->opt);
  if (!set_policy(c, h->policy ? h->policy : h->target->policy, err, errlen))
    return false;
  if (h->pipeline) {
    c->fixed = true;
    if (!set_pipeline(c, h->pipeline, err, errlen))
      return false;
  }
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v;
    if ((v = rs_flag_value(a, c->target->flag))) {
      if (c->fixed || c->check != ORACLE_PIPELINE) {
        snprintf(err, errlen, "%s always runs %s; -%s= is not accepted", h->name,
                 h->pipeline ? h->pipeline : "its own check", c->target->flag);
        return false;
      }
      if (!set_pipeline(c, v, err, errlen))
        return false;
    } else if ((v = rs_flag_value(a, "policy"))) {
      if (c->check != ORACLE_PIPELINE) {
        snprintf(err, errlen, "%s decodes with the %s policy; -policy= is not accepted", h->name,
                 c->policy->name);
        return false;
      }
      if (!set_policy(c, v, err, errlen))
        return false;
    } else if ((v = rs_flag_value(a, "allow"))) {
      if (!set_allow(c, v, err, errlen))
        return false;
    } else if ((v = rs_flag_value(a, "differential"))) {
      char *end;
      long n = strtol(v, &end, 10);
      if (*end || end == v || n < 0 || n > 1000000) {
        snprintf(err, errlen, "-differential=%s: give N >= 0 (one input in N; 0: off)", v);
        return false;
      }
      c->differential = (int)n;
    } else if ((v = rs_flag_value(a, "fault"))) {
      if (!set_fault(c, v, err, errlen))
        return false;
    } else if (rs_options_flag(a) && !rs_options_set(&c->opt, a, c->target->name, err, errlen)) {
      return false;
    }
  }
  if (c->target->configure)
    c->target->configure(&c->opt);
  return true;
}

void oracle_help(FILE *f, const OracleHarness *h) {
  const Target *t = h->target;
  char names[2048], flag[64];
  fprintf(f,
          "relaysmith's flags for %s (-name=V, --name=V or -name V; taken out of argv before "
          "libFuzzer reads it, and kept by -jobs/-fork workers through RELAYSMITH_FLAGS):\n",
          h->name);
  if (h->pipeline || h->check != ORACLE_PIPELINE) {
    snprintf(flag, sizeof flag, "-%s=, -policy=", t->flag);
    fprintf(f, "  %-20s not taken: %s always runs %s, policy %s\n", flag, h->name,
            h->pipeline ? h->pipeline : "its own check", h->policy ? h->policy : t->policy);
  } else {
    t->stage_names(names, sizeof names);
    snprintf(flag, sizeof flag, "-%s=LIST", t->flag);
    fprintf(f,
            "  %-20s the %s sequence, comma-separated (default: each input's header "
            "chooses): %s\n",
            flag, t->noun, names);
    size_t n = 0;
    for (int k = 0; gen_policy_at(k) && n < sizeof names; k++)
      n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", k ? " " : "",
                            gen_policy_at(k)->name);
    fprintf(f, "  %-20s the generation policy (default %s): %s\n", "-policy=NAME",
            h->policy ? h->policy : t->policy, names);
  }
  size_t n = 0;
  for (int k = 0; k < NALLOW && n < sizeof names; k++)
    n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", k ? "," : "", allowances[k].name);
  fprintf(f, "  %-20s what every %s's contract allows besides its own, comma-separated: %s\n",
          "-allow=LIST", t->noun, names);
  fprintf(f, "  %-20s the differential oracle on one executed input in N (0: off; default %d)\n",
          "-differential=N", h->differential);
  fault_list(names, sizeof names);
  fprintf(f, "  %-20s a deliberate bug an oracle must find: %s\n", "-fault=NAME", names);
  rs_options_help(f, t->name);
  fprintf(f, "A finding's report ends with the command that reproduces it; its flags are "
             "also in <crash file>.flags, which relaysmith run, reduce, triage and "
             "scripts/repro read.\n\n");
}

void oracle_describe(const OracleConfig *c, char *buf, size_t len) {
  if (c->check == ORACLE_KERNEL) {
    snprintf(buf, len, "operator kernels against naive references");
    return;
  }
  if (c->check == ORACLE_INFERENCE) {
    snprintf(buf, len, "policy %s, type inference", c->policy->name);
    return;
  }
  if (c->check == ORACLE_REJECT) {
    snprintf(buf, len, "policy %s, the front end on programs with a defect", c->policy->name);
    return;
  }
  size_t n = (size_t)snprintf(buf, len, "policy %s, %s: ", c->policy->name, c->target->flag);
  if (!c->pipeline.n)
    n += (size_t)snprintf(buf + n, len - n, "chosen by each input's header");
  for (int i = 0; i < c->pipeline.n && n < len; i++)
    n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? "," : "", c->pipeline.stage[i].name);
  if (c->differential > 0 && n < len)
    n += (size_t)snprintf(buf + n, len - n, ", differential: 1 executed input in %d",
                          c->differential);
  const char *sep = ", allow: ";
  for (int k = 0; k < NALLOW && n < len; k++)
    if (c->allow & allowances[k].flag) {
      n += (size_t)snprintf(buf + n, len - n, "%s%s", sep, allowances[k].name);
      sep = ",";
    }
}
