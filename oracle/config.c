/*
 * config.c - an oracle's configuration (oracle.h): the harness's
 * defaults, the flags read out of argv, the test build's deliberate
 * bugs, and the configuration in one line.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/typing/typing.h"
#include "oracle_int.h"

/* The value of flag -name= (or --name=) in a, or NULL. */
static const char *flag_value(const char *a, const char *name) {
  if (a[0] != '-')
    return NULL;
  a += a[1] == '-' ? 2 : 1;
  size_t n = strlen(name);
  return strncmp(a, name, n) == 0 && a[n] == '=' ? a + n + 1 : NULL;
}

/* The flags oracle_init reads besides the target's own. */
static const char *const flag_names[] = {"policy", "allow", "differential", "fault"};

size_t oracle_flag(const Target *t, const char *arg) {
  const char *v = flag_value(arg, t->flag);
  for (size_t i = 0; !v && i < sizeof flag_names / sizeof *flag_names; i++)
    v = flag_value(arg, flag_names[i]);
  return v ? (size_t)(v - arg) : 0;
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
    [FAULT_PRINT_DROP_ATTR] = "print_drop_attr",   [FAULT_PRINT_ZERO_SIGN] = "print_zero_sign",
    [FAULT_GENERATOR_SPANS] = "generator_spans",   [FAULT_KERNEL_SUM_LAST] = "kernel_sum_last",
    [FAULT_RELATION_RESHAPE] = "relation_reshape", [FAULT_CHECKER_CALL_RELS] = "checker_call_rels",
};
#endif

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
  size_t n = (size_t)snprintf(err, errlen, "unknown fault '%s'; valid:", name);
  for (size_t f = 1; f < sizeof fault_names / sizeof *fault_names && n < errlen; f++)
    n += (size_t)snprintf(err + n, errlen - n, " %s", fault_names[f]);
  for (int k = OP_FAULT_NONE + 1; k < OP_FAULT_COUNT && n < errlen; k++)
    n += (size_t)snprintf(err + n, errlen - n, " %s", op_fault_name((OpFault)k));
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
  op_test_fault_reduce = c->fault == FAULT_KERNEL_SUM_LAST;
  op_test_fault_reshape = c->fault == FAULT_RELATION_RESHAPE;
  op_test_fault = (OpFault)c->op_fault;
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
  if (!set_policy(c, h->policy ? h->policy : h->target->policy, err, errlen))
    return false;
  if (h->pipeline) {
    c->fixed = true;
    if (!set_pipeline(c, h->pipeline, err, errlen))
      return false;
  }
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v;
    if ((v = flag_value(a, c->target->flag))) {
      if (c->fixed || c->check != ORACLE_PIPELINE) {
        snprintf(err, errlen, "%s always runs %s; -%s= is not accepted", h->name,
                 h->pipeline ? h->pipeline : "its own check", c->target->flag);
        return false;
      }
      if (!set_pipeline(c, v, err, errlen))
        return false;
    } else if ((v = flag_value(a, "policy"))) {
      if (c->check != ORACLE_PIPELINE) {
        snprintf(err, errlen, "%s decodes with the %s policy; -policy= is not accepted", h->name,
                 c->policy->name);
        return false;
      }
      if (!set_policy(c, v, err, errlen))
        return false;
    } else if ((v = flag_value(a, "allow"))) {
      if (!set_allow(c, v, err, errlen))
        return false;
    } else if ((v = flag_value(a, "differential"))) {
      char *end;
      long n = strtol(v, &end, 10);
      if (*end || end == v || n < 0 || n > 1000000) {
        snprintf(err, errlen, "-differential=%s: give N >= 0 (one input in N; 0: off)", v);
        return false;
      }
      c->differential = (int)n;
    } else if ((v = flag_value(a, "fault"))) {
      if (!set_fault(c, v, err, errlen))
        return false;
    }
  }
  return true;
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
