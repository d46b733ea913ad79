/* The registry's invariants, for every operator in op_table, over many
 * drawn types (see op.h):
 *   - rec(T) => solve(T) succeeds, op_relate(solution) == T exactly, and
 *     the solution respects the limits (rank, numel, dims, dtypes);
 *   - sample() passes op_relate with result == sig.ret, rec(sig.ret)
 *     holds, and the limits are respected;
 *   - choice 0 everywhere (and the largest choice everywhere) is
 *     acceptable to solvers and samplers, and both are functions of their
 *     choices (the same choices give the same solution);
 *   - an unknown argument makes the relation defer (or still succeed);
 *   - the kernel, on argument tensors full of extreme values, writes every
 *     element of outputs of exactly the relation's types, deterministically
 *     (three runs over differently prefilled outputs agree bitwise);
 *   - the relation never crashes on ill-typed arguments and attributes
 *     (random ones): it rejects with a message, defers, or gives a type,
 *     and then the kernel runs cleanly too.
 * Prints per-operator counts and fails when a recognizer fires on fewer
 * than 1% of the drawn types or a sampler never succeeds. */
#include <float.h>
#include <math.h>
#include <stdarg.h>

#include "compiler/ir/hash.h"
#include "compiler/ops/op.h"
#include "compiler/ops/op_int.h"
#include "test.h"

enum {
  DRAWS = 10000,      /* want types per operator, default limits */
  SMALL_DRAWS = 1000, /* want types per operator, restricted limits */
  ROBUST = 2000,      /* random (mostly ill-typed) calls per operator */
  KERNEL_EVERY = 8,   /* run the kernel on every 8th solution or sample */
  MAX_FLAT = 64,      /* tensors in a flattened argument list or result */
  MAX_REPORTS = 3,    /* failure messages printed per operator and kind */
};

/* ------------------------------------------------------------ choosers */

/* A small deterministic PRNG (splitmix64) behind the Chooser interface;
 * mode 1 always answers 0, mode 2 always the largest choice. */
typedef struct Rng {
  Chooser ch;
  uint64_t s;
  int mode;
} Rng;

static uint64_t next(Rng *r) {
  return hash_splitmix64(&r->s);
}

static uint32_t below(Rng *r, uint32_t n) {
  return n ? (uint32_t)(next(r) % n) : 0;
}

static uint32_t choose(Chooser *c, uint32_t n) {
  Rng *r = (Rng *)c;
  return r->mode == 1 ? 0 : r->mode == 2 ? n - 1 : below(r, n);
}

static Rng rng_new(uint64_t seed) {
  return (Rng){{choose}, seed, 0};
}

/* ------------------------------------------------------------ reporting */

typedef struct Stats {
  int draws, hits, random_draws, random_hits, solved;
  int samples, sampled, kernels, robust_ok, robust_err, robust_defer;
  int small_hits, small_samples;
  int zero_fails[2]; /* samplers failing with choice 0 (default, small) */
  int fails;
} Stats;

static Stats st;
static OpId cur;

/* Record a property failure of the current operator; print a few. */
static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...) {
  if (st.fails++ < MAX_REPORTS) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", op_table[cur].name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
  }
}

/* Render a type (tensors, tuples, others by kind) into buf. */
static const char *show(const Type *t, char *buf, size_t len) {
  if (!t)
    snprintf(buf, len, "(null)");
  else if (t->kind == TY_TENSOR)
    op_type_str(t, buf, len);
  else if (t->kind == TY_TUPLE) {
    size_t n = (size_t)snprintf(buf, len, "(");
    for (int i = 0; i < t->tuple.n && n < len; i++) {
      char sub[128];
      n += (size_t)snprintf(buf + n, len - n, "%s[%s]", i ? ", " : "",
                            show(t->tuple.fields[i], sub, sizeof sub));
    }
    if (n < len)
      snprintf(buf + n, len - n, ")");
  } else
    snprintf(buf, len, "<type kind %d>", t->kind);
  return buf;
}

/* ------------------------------------------------------ drawing types */

static const OpLimits *lim;

/* A random tensor type within lim's rank and numel (any dtype); a dim is
 * 0 once in a while. */
static Type *rand_tensor(Rng *r, Arena *a) {
  int rank = (int)below(r, (uint32_t)lim->max_rank + 1);
  int64_t shape[IR_MAX_RANK], left = lim->max_numel;
  for (int i = 0; i < rank; i++) {
    int64_t hi = left < lim->max_dim ? left : lim->max_dim;
    shape[i] = below(r, 24) == 0 && lim->min_dim < 1
                   ? 0
                   : 1 + (int64_t)below(r, (uint32_t)(hi < 1 ? 1 : hi));
    left /= shape[i] ? shape[i] : 1;
  }
  return ir_tensor_type(a, (DType)below(r, DT_COUNT), rank, shape);
}

/* t with one change: dtype, one dim, or one dim more or fewer. */
static Type *perturb_tensor(Rng *r, Arena *a, const Type *t) {
  int rank = t->tensor.rank;
  int64_t shape[IR_MAX_RANK];
  memcpy(shape, t->tensor.shape, sizeof shape);
  DType dt = t->tensor.dtype;
  switch (below(r, 4)) {
  case 0: dt = (DType)below(r, DT_COUNT); break;
  case 1:
    if (rank)
      shape[below(r, (uint32_t)rank)] = below(r, (uint32_t)lim->max_dim + 1);
    break;
  case 2:
    if (rank < lim->max_rank)
      shape[rank++] = 1 + below(r, 2);
    break;
  default:
    if (rank)
      rank--;
  }
  Type *p = ir_tensor_type(a, dt, rank, shape);
  return op_fits(p, lim) ? p : (Type *)t;
}

/* A tuple of tensors related to one base tensor (same dtype; some equal,
 * some with one dim changed, some rank-1 of one of its dims). */
static Type *rand_tuple(Rng *r, Arena *a) {
  Type *base = rand_tensor(r, a), *f[4];
  int n = 1 + (int)below(r, 4);
  for (int i = 0; i < n; i++) {
    uint32_t k = below(r, 4);
    if (k == 0 && base->tensor.rank) {
      int64_t d = base->tensor.shape[below(r, (uint32_t)base->tensor.rank)];
      f[i] = ir_tensor_type(a, base->tensor.dtype, 1, &d);
    } else if (k == 1 && base->tensor.rank) {
      int64_t shape[IR_MAX_RANK];
      memcpy(shape, base->tensor.shape, sizeof shape);
      shape[below(r, (uint32_t)base->tensor.rank)] = 1 + below(r, (uint32_t)lim->max_dim);
      f[i] = ir_tensor_type(a, base->tensor.dtype, base->tensor.rank, shape);
      if (!op_fits(f[i], lim))
        f[i] = base;
    } else
      f[i] = base;
  }
  return ir_tuple_type(a, n, f);
}

/* t, or with probability 1/2 a near miss of it. */
static Type *maybe_perturb(Rng *r, Arena *a, Type *t) {
  if (below(r, 2))
    return t;
  if (t->kind == TY_TENSOR)
    return perturb_tensor(r, a, t);
  if (t->kind != TY_TUPLE || t->tuple.n == 0)
    return t;
  Type *f[MAX_FLAT];
  int n = t->tuple.n < MAX_FLAT ? t->tuple.n : MAX_FLAT;
  memcpy(f, t->tuple.fields, sizeof *f * (size_t)n);
  int i = (int)below(r, (uint32_t)n);
  if (f[i]->kind == TY_TENSOR && below(r, 2))
    f[i] = perturb_tensor(r, a, f[i]);
  else if (n > 1)
    f[i] = f[--n];
  return ir_tuple_type(a, n, f);
}

/* The result type of a sample of op, or NULL. */
static Type *sampled(OpId op, Rng *r, Arena *a) {
  OpSolveCtx cx = {&r->ch, a, lim};
  OpSig sig = {0};
  return op_table[op].sample(op, &cx, &sig) ? sig.ret : NULL;
}

/* A want type: 55% a random tensor, 15% a random tuple (both count as
 * "random"), 15% a sample of any operator and 15% a sample of op itself,
 * each perturbed half the time. */
static Type *draw_want(OpId op, Rng *r, Arena *a, bool *random) {
  uint32_t k = below(r, 100);
  *random = k < 70;
  if (k < 55)
    return rand_tensor(r, a);
  if (k < 70)
    return rand_tuple(r, a);
  Type *t = sampled(k < 85 ? (OpId)below(r, OP_COUNT) : op, r, a);
  return t ? maybe_perturb(r, a, t) : rand_tensor(r, a);
}

/* ---------------------------------------------------------- flattening */

/* The tensor types of a list of types, tuples expanded one level (as the
 * kernels see them); -1 when there is something else. */
static int flatten(Type *const *ts, int n, Type **out) {
  int k = 0;
  for (int i = 0; i < n; i++) {
    const Type *t = ts[i];
    if (t && t->kind == TY_TENSOR && k < MAX_FLAT)
      out[k++] = (Type *)t;
    else if (t && t->kind == TY_TUPLE) {
      for (int j = 0; j < t->tuple.n; j++) {
        if (t->tuple.fields[j]->kind != TY_TENSOR || k == MAX_FLAT)
          return -1;
        out[k++] = t->tuple.fields[j];
      }
    } else
      return -1;
  }
  return k;
}

/* Do the solution's argument tensors respect lim?  Dims may exceed
 * max_dim only up to the largest dim of the given want type; dtypes must
 * be in lim->dtypes or occur in want. */
static bool within(const OpSig *sig, const Type *want, char *why, size_t len) {
  Type *args[MAX_FLAT], *ws[MAX_FLAT];
  int n = flatten(sig->args, sig->nargs, args);
  int nw = want ? flatten((Type *const *)&want, 1, ws) : 0;
  if (n < 0) {
    snprintf(why, len, "an argument is not a tensor or tuple of tensors");
    return false;
  }
  uint32_t dts = lim->dtypes;
  int64_t maxdim = lim->max_dim, mindim = lim->min_dim;
  for (int i = 0; i < nw; i++) {
    dts |= 1u << ws[i]->tensor.dtype;
    for (int j = 0; j < ws[i]->tensor.rank; j++) {
      if (ws[i]->tensor.shape[j] > maxdim)
        maxdim = ws[i]->tensor.shape[j];
      if (ws[i]->tensor.shape[j] < mindim)
        mindim = ws[i]->tensor.shape[j]; /* a dim of the wanted type may be kept */
    }
  }
  for (int i = 0; i < n; i++) {
    const Type *t = args[i];
    char b[96];
    if (!op_fits(t, lim)) {
      snprintf(why, len, "argument tensor %s exceeds max_rank or max_numel", show(t, b, sizeof b));
      return false;
    }
    for (int j = 0; j < t->tensor.rank; j++) {
      if (t->tensor.shape[j] > maxdim) {
        snprintf(why, len, "argument tensor %s exceeds max_dim", show(t, b, sizeof b));
        return false;
      }
      if (t->tensor.shape[j] < mindim) {
        snprintf(why, len, "argument tensor %s has a dim below min_dim", show(t, b, sizeof b));
        return false;
      }
    }
    if (!(dts & (1u << t->tensor.dtype))) {
      snprintf(why, len, "argument dtype %s not allowed", ir_dtype_name(t->tensor.dtype));
      return false;
    }
  }
  /* A sample invents its result too. */
  Type *rs[MAX_FLAT];
  int nr = want || !sig->ret ? 0 : flatten((Type *const *)&sig->ret, 1, rs);
  for (int i = 0; i < nr; i++)
    for (int j = 0; j < rs[i]->tensor.rank; j++)
      if (rs[i]->tensor.shape[j] < mindim) {
        char b[96];
        snprintf(why, len, "result tensor %s has a dim below min_dim", show(rs[i], b, sizeof b));
        return false;
      }
  return true;
}

/* -------------------------------------------------------------- kernels */

/* An element value for a kernel argument: mostly small, often extreme. */
static void fill(Rng *r, Tensor *t) {
  static const double fl[] = {NAN,   -NAN,   INFINITY, -INFINITY, 0.0,    -0.0,
                              1e300, -1e300, FLT_MAX,  -FLT_MAX,  5e-324, 1e-40,
                              0.5,   -0.5,   2.5,      1e10,      -1e10,  3e9};
  static const int64_t in[] = {INT64_MIN, INT64_MAX, INT32_MIN, INT32_MAX, -128, 127, -1, 0, 1};
  for (int64_t i = 0; i < t->numel; i++) {
    uint32_t k = below(r, 8);
    if (t->dtype == DT_BOOL)
      ir_tensor_set_i64(t, i, below(r, 2));
    else if (ir_dtype_is_float(t->dtype))
      ir_tensor_set_f64(t, i,
                        k < 3 ? fl[below(r, sizeof fl / sizeof *fl)]
                              : (double)((int)below(r, 17) - 8) / (k == 3 ? 3 : 1));
    else if (k < 3)
      ir_tensor_set_i64(t, i, in[below(r, sizeof in / sizeof *in)]); /* wraps */
    else
      ir_tensor_set_i64(t, i, (int64_t)below(r, 17) - 8);
  }
}

/* Largest element count among a list of tensor types. */
static int64_t biggest(Type *const *ts, int n) {
  int64_t m = 0;
  for (int i = 0; i < n; i++) {
    int64_t k = 1;
    for (int j = 0; j < ts[i]->tensor.rank; j++) {
      int64_t d = ts[i]->tensor.shape[j];
      k = d && k > (1 << 20) / d ? (1 << 20) + 1 : k * d;
    }
    m = k > m ? k : m;
  }
  return m;
}

/* Run op on random tensors of the argument types: through op_eval, then
 * the kernel twice more over outputs prefilled with 0xA5 and 0x5A; all
 * three must agree bitwise and have exactly the relation's types. */
static void check_kernel(OpId op, Rng *r, Arena *a, Type *const *argtys, int nargs, const Attrs *at,
                         Type *ret, const OpSig *sig) {
  Type *flat[MAX_FLAT], *rflat[MAX_FLAT];
  int n = flatten(argtys, nargs, flat);
  if (n < 0 || biggest(flat, n) > 4096)
    return; /* not a kernel call the interpreter could make cheaply */
  Tensor *args[MAX_FLAT], *outs[MAX_FLAT];
  for (int i = 0; i < n; i++) {
    args[i] = ir_tensor_of_type(a, flat[i]);
    fill(r, args[i]);
    if (sig && i < sig->nargs && sig->lit[i]) /* a value-typed op's constant */
      ir_tensor_set_f64(args[i], 0, sig->val[i]);
  }
  char err[256] = "";
  if (op_value_type(op, args, n, a, ret, &ret, err, sizeof err) != REL_OK)
    return; /* random values that give no result (arange's step 0) */
  int nr = flatten((Type *const *)&ret, 1, rflat);
  if (nr < 0 || biggest(rflat, nr) > 4096)
    return;
  int got = op_eval(op, args, n, at, a, outs, MAX_FLAT, err, sizeof err);
  st.kernels++;
  if (got != nr) {
    fail("op_eval gave %d outputs, the relation %d (%s)", got, nr, err);
    return;
  }
  for (int i = 0; i < nr; i++) {
    Type *ot = ir_tensor_type_of(a, outs[i]);
    char b1[96], b2[96];
    if (!ir_type_equal(ot, rflat[i])) {
      fail("output %d is %s, the relation says %s", i, show(ot, b1, sizeof b1),
           show(rflat[i], b2, sizeof b2));
      return;
    }
  }
  for (int pass = 0; pass < 2; pass++) {
    Tensor *o2[MAX_FLAT];
    for (int i = 0; i < nr; i++) {
      o2[i] = ir_tensor_of_type(a, rflat[i]);
      memset(o2[i]->data, pass ? 0x5A : 0xA5,
             (size_t)o2[i]->numel * (size_t)ir_dtype_size(o2[i]->dtype));
    }
    op_table[op].kernel(op, args, n, at, o2, nr, a);
    for (int i = 0; i < nr; i++)
      if (!ir_tensor_identical(outs[i], o2[i])) {
        fail("kernel output %d differs between runs (unwritten or nondeterministic)", i);
        return;
      }
  }
}

/* ---------------------------------------------------------- properties */

/* Replace the first argument (or the first field of a tuple argument) by
 * an unknown type: the relation must defer, or agree with ret. */
static void check_defer(OpId op, Arena *a, const OpSig *sig) {
  if (sig->nargs == 0)
    return;
  Type *args[OP_MAX_ARGS];
  memcpy(args, sig->args, sizeof *args * (size_t)sig->nargs);
  Type *unk = ir_incomplete_type(a, 1);
  if (args[0]->kind == TY_TUPLE && args[0]->tuple.n > 0) {
    Type *f[MAX_FLAT];
    int n = args[0]->tuple.n < MAX_FLAT ? args[0]->tuple.n : MAX_FLAT;
    memcpy(f, args[0]->tuple.fields, sizeof *f * (size_t)n);
    f[0] = unk;
    args[0] = ir_tuple_type(a, n, f);
  } else
    args[0] = unk;
  Type *ret = NULL;
  char err[256] = "";
  RelStatus s = op_relate(op, args, sig->nargs, &sig->attrs, a, &ret, err, sizeof err);
  if (s == REL_ERROR || (s == REL_OK && !ir_type_equal(ret, sig->ret)))
    fail("with an unknown first argument the relation %s (%s)",
         s == REL_ERROR ? "rejects" : "gives a different type", err);
}

/* Does the relation's type ret agree with a claimed type t: equal, or for
 * a value-typed op (arange) t refines ret's Any dims to static extents? */
static bool agrees(OpId op, const Type *ret, const Type *t) {
  if (!op_value_typed(op) || ret->kind != TY_TENSOR || t->kind != TY_TENSOR ||
      ret->tensor.rank != t->tensor.rank || ret->tensor.dtype != t->tensor.dtype)
    return ir_type_equal(ret, t);
  for (int i = 0; i < ret->tensor.rank; i++)
    if (!ir_dim_is_any(ret->tensor.shape[i]) && ret->tensor.shape[i] != t->tensor.shape[i])
      return false;
  return true;
}

/* Check a solution or sample: the relation agrees with sig->ret (and with
 * want when given), the limits hold, and every kth the kernel. */
static bool check_sig(OpId op, Rng *r, Arena *a, const OpSig *sig, const Type *want,
                      const char *what) {
  Type *ret = NULL;
  char err[256] = "", b1[256], b2[256];
  if (sig->nargs < 0 || sig->nargs > OP_MAX_ARGS) {
    fail("%s has %d arguments", what, sig->nargs);
    return false;
  }
  if (op_relate(op, sig->args, sig->nargs, &sig->attrs, a, &ret, err, sizeof err) != REL_OK) {
    fail("%s rejected by the relation: %s", what, err);
    return false;
  }
  if (!agrees(op, ret, sig->ret) || (want && !agrees(op, ret, want))) {
    fail("%s: relation gives %s, sig.ret %s, wanted %s", what, show(ret, b1, sizeof b1),
         show(sig->ret, b2, sizeof b2), want ? show(want, err, sizeof err) : "-");
    return false;
  }
  if (!within(sig, want, err, sizeof err)) {
    fail("%s breaks the limits: %s", what, err);
    return false;
  }
  check_defer(op, a, sig);
  if (below(r, KERNEL_EVERY) == 0)
    check_kernel(op, r, a, sig->args, sig->nargs, &sig->attrs, ret, sig);
  return true;
}

/* Are two solutions the same (argument types, attributes, result)? */
static bool same_sig(const OpSig *x, const OpSig *y) {
  if (x->nargs != y->nargs || !ir_type_equal(x->ret, y->ret) ||
      !ir_attrs_equal(&x->attrs, &y->attrs))
    return false;
  for (int i = 0; i < x->nargs; i++)
    if (!ir_type_equal(x->args[i], y->args[i]))
      return false;
  return true;
}

/* Solve (want != NULL) or sample again with the same choices: the result
 * must be the same, since the generator replays choice streams. */
static void check_replay(OpId op, Arena *a, Rng start, const Type *want, const OpSig *sig) {
  OpSolveCtx cx = {&start.ch, a, lim};
  OpSig again = {0};
  bool ok = want ? op_table[op].solve(op, want, &cx, &again) : op_table[op].sample(op, &cx, &again);
  if (!ok || !same_sig(sig, &again))
    fail("%s is not a function of its choices", want ? "solver" : "sampler");
}

/* One want type: if recognised, solve and check. */
static void want_one(OpId op, Rng *r, Arena *a, Type *want, bool random, bool small) {
  st.draws += !small;
  st.random_draws += random && !small;
  if (!op_table[op].rec(op, want, lim))
    return;
  st.hits += !small;
  st.small_hits += small;
  st.random_hits += random && !small;
  /* Most solves draw at random; some answer 0 always, some the maximum. */
  uint32_t m = below(r, 10);
  Rng sr = *r;
  sr.mode = m == 0 ? 1 : m == 1 ? 2 : 0;
  sr.s ^= 0x5bd1e995;
  Rng start = sr;
  OpSolveCtx cx = {&sr.ch, a, lim};
  OpSig sig = {0};
  char b[256];
  if (!op_table[op].solve(op, want, &cx, &sig)) {
    fail("recognises %s but the solver fails (chooser mode %d)", show(want, b, sizeof b), sr.mode);
    return;
  }
  if (below(r, KERNEL_EVERY) == 0)
    check_replay(op, a, start, want, &sig);
  if (check_sig(op, r, a, &sig, want, "solution"))
    st.solved += !small;
}

/* One sample: check it and that its result is recognised. */
static void sample_one(OpId op, Rng *r, Arena *a, bool small) {
  uint32_t m = below(r, 10);
  Rng sr = *r;
  sr.mode = m == 0 ? 1 : m == 1 ? 2 : 0;
  sr.s ^= 0x1b873593;
  Rng start = sr;
  OpSolveCtx cx = {&sr.ch, a, lim};
  OpSig sig = {0};
  st.samples += !small;
  if (!op_table[op].sample(op, &cx, &sig)) {
    st.zero_fails[small] += sr.mode == 1;
    return;
  }
  if (below(r, KERNEL_EVERY) == 0)
    check_replay(op, a, start, NULL, &sig);
  char b[256];
  if (!check_sig(op, r, a, &sig, NULL, "sample"))
    return;
  /* A sample's result is invented too: its dtypes must be allowed. */
  Type *rs[MAX_FLAT];
  int nr = flatten(&sig.ret, 1, rs);
  for (int i = 0; i < nr; i++)
    if (!((lim->dtypes >> rs[i]->tensor.dtype) & 1)) {
      fail("sample result dtype %s not allowed", ir_dtype_name(rs[i]->tensor.dtype));
      return;
    }
  if (!op_table[op].rec(op, sig.ret, lim)) {
    fail("sample result %s not recognised", show(sig.ret, b, sizeof b));
    return;
  }
  st.sampled += !small;
  st.small_samples += small;
}

/* ------------------------------------------------ random (ill-typed) calls */

/* Random attributes following op's schema, with wrong kinds, None and
 * unknown names now and then. */
static Attrs rand_attrs(OpId op, Rng *r, Arena *a) {
  static const char *strs[] = {"float32",  "int8", "bool", "int16", "NCHW", "OIHW", "NHWC",
                               "constant", "clip", "wrap", "",      "end",  "size", "fast"};
  static const int64_t big[] = {INT64_MIN, INT64_MAX, -1000000, 1000000, INT32_MIN};
  Attrs at = {0};
  const char *p = ir_op_schema(op);
  while (*p) {
    const char *colon = strchr(p, ':'), *end = strchr(p, ',');
    if (!colon)
      break;
    if (!end)
      end = p + strlen(p);
    char name[64], kind[32];
    snprintf(name, sizeof name, "%.*s", (int)(colon - p), p);
    snprintf(kind, sizeof kind, "%.*s", (int)(end - colon - 1), colon + 1);
    p = *end ? end + 2 : end;
    uint32_t k = below(r, 20);
    if (k < 6)
      continue; /* omitted */
    if (k == 6) {
      ir_attr_set_none(a, &at, name);
      continue;
    }
    if (k == 7) /* the wrong kind, probably */
      strcpy(kind, below(r, 2) ? "str" : "float");
    int64_t v[8];
    int n = (int)below(r, 5);
    for (int i = 0; i < 2 * n; i++)
      v[i] = below(r, 16) == 0 ? big[below(r, 5)] : (int64_t)below(r, 12) - 3;
    if (!strncmp(kind, "int|ints", 8))
      strcpy(kind, below(r, 2) ? "int" : "ints");
    if (!strncmp(kind, "ints", 4))
      ir_attr_set_ints(a, &at, name, n, v);
    else if (!strncmp(kind, "int", 3))
      ir_attr_set_int(a, &at, name, v[0] * (n > 0));
    else if (!strncmp(kind, "float", 5))
      ir_attr_set_float(a, &at, name, below(r, 4) ? (double)v[0] * (n > 0) / 2 : NAN);
    else if (!strncmp(kind, "bool", 4))
      ir_attr_set_bool(a, &at, name, below(r, 2));
    else if (!strncmp(kind, "str", 3))
      ir_attr_set_str(a, &at, name, strs[below(r, sizeof strs / sizeof *strs)]);
    else if (!strncmp(kind, "pairs", 5))
      ir_attr_set_pairs(a, &at, name, n, v);
  }
  if (below(r, 20) == 0)
    ir_attr_set_int(a, &at, "bogus", 1);
  return at;
}

/* A random call of op: argument types near a sample's (or random), random
 * attributes.  The relation must not crash and must explain a rejection;
 * when it accepts, the result is known and the kernel runs cleanly. */
static void robust_one(OpId op, Rng *r, Arena *a) {
  OpSolveCtx cx = {&r->ch, a, lim};
  OpSig sig = {0};
  int nargs = op_table[op].sample(op, &cx, &sig) ? sig.nargs : 1;
  if (below(r, 8) == 0)
    nargs = (int)below(r, OP_MAX_ARGS + 1);
  Type *args[OP_MAX_ARGS];
  for (int i = 0; i < nargs; i++) {
    uint32_t k = below(r, 20);
    if (i < sig.nargs && k < 12)
      args[i] = maybe_perturb(r, a, sig.args[i]);
    else if (k == 12)
      args[i] = ir_incomplete_type(a, i);
    else if (k == 13)
      args[i] = rand_tuple(r, a);
    else if (k == 14)
      args[i] = ir_unit_type(a);
    else
      args[i] = rand_tensor(r, a);
  }
  Attrs at = below(r, 4) == 0 && sig.nargs ? sig.attrs : rand_attrs(op, r, a);
  Type *ret = NULL;
  char err[256] = "";
  RelStatus s = op_relate(op, args, nargs, &at, a, &ret, err, sizeof err);
  if (s == REL_ERROR) {
    st.robust_err++;
    /* op_relate prefixes "name: "; the relation's own message follows. */
    if (strlen(err) <= strlen(op_table[op].name) + 2 || strstr(err, "ill-typed arguments"))
      fail("rejects without a message");
    return;
  }
  if (s == REL_DEFER) {
    st.robust_defer++;
    return;
  }
  st.robust_ok++;
  if (!ret || !ir_type_complete(ret)) {
    fail("accepts but gives no complete result type");
    return;
  }
  bool known = true;
  for (int i = 0; i < nargs; i++)
    known &= ir_type_complete(args[i]);
  if (!known) {
    fail("accepts arguments that are not known yet");
    return;
  }
  if (below(r, 4) == 0)
    check_kernel(op, r, a, args, nargs, &at, ret, NULL);
}

/* ----------------------------------------------------------------- main */

/* SMALL_DRAWS wanted types and samples of op under limits l (counted as
 * the small run's). */
static void run_limits(OpId op, Rng *r, const OpLimits *l) {
  Arena *a = NULL;
  lim = l;
  for (int i = 0; i < SMALL_DRAWS; i++) {
    if (i % 32 == 0) {
      arena_free(a);
      a = arena_new();
    }
    bool random;
    Type *want = draw_want(op, r, a, &random);
    want_one(op, r, a, want, random, true);
    sample_one(op, r, a, true);
  }
  arena_free(a);
}

/* Run every property for one operator; true when it passes. */
static bool check_op(OpId op) {
  cur = op;
  st = (Stats){0};
  Rng r = rng_new(0x243f6a8885a308d3ull ^ (uint64_t)op * 0x9e3779b97f4a7c15ull);
  lim = &op_default_limits;
  Arena *a = NULL;
  for (int i = 0; i < DRAWS; i++) {
    if (i % 32 == 0) { /* a fresh arena now and then keeps memory small */
      arena_free(a);
      a = arena_new();
    }
    bool random;
    Type *want = draw_want(op, &r, a, &random);
    want_one(op, &r, a, want, random, false);
    if (i % 2 == 0)
      sample_one(op, &r, a, false);
    if (i < ROBUST)
      robust_one(op, &r, a);
  }
  arena_free(a);
  /* Restricted limits: fewer dtypes and smaller tensors. */
  static const OpLimits small = {
      .max_rank = 3,
      .max_dim = 5,
      .max_numel = 64,
      .max_flops = 2048,
      .dtypes = (1u << DT_INT32) | (1u << DT_FLOAT32),
  };
  run_limits(op, &r, &small);
  /* No empty tensors (min_dim 1, as the mlir policy asks): no solver or
   * sampler invents a dim of 0.  (Counted apart from the small run.) */
  static const OpLimits nonempty = {
      .max_rank = 4,
      .max_dim = 8,
      .max_numel = 256,
      .max_flops = 16384,
      .dtypes = (1u << DT_FLOAT32) | (1u << DT_INT32) | (1u << DT_BOOL),
      .min_dim = 1,
  };
  int small_zero = st.zero_fails[1], small_hits = st.small_hits, small_ok = st.small_samples;
  run_limits(op, &r, &nonempty);
  lim = &op_default_limits;
  int ne_zero = st.zero_fails[1] - small_zero, ne_ok = st.small_samples - small_ok;
  if ((st.zero_fails[0] && st.sampled) || (small_zero && small_ok) || (ne_zero && ne_ok))
    fail("sampler fails with choice 0 everywhere (%d, %d, %d times) but succeeds otherwise",
         st.zero_fails[0], small_zero, ne_zero);
  printf("%-22s %-9s %5d/%d  random %5d/%-5d solved %5d  sampled %5d/%d  small %4d/%-4d "
         "kernels %4d  robust ok/err/defer %d/%d/%d\n",
         op_table[op].name, op_table[op].family, st.hits, st.draws, st.random_hits, st.random_draws,
         st.solved, st.sampled, st.samples, small_hits, small_ok, st.kernels, st.robust_ok,
         st.robust_err, st.robust_defer);
  CHECK_MSG(st.fails == 0, "%s: %d property failures", op_table[op].name, st.fails);
  CHECK_MSG(st.hits * 100 >= st.draws, "%s: recognizer accepted only %d of %d draws",
            op_table[op].name, st.hits, st.draws);
  CHECK_MSG(st.sampled > 0, "%s: the sampler never succeeded", op_table[op].name);
  CHECK_MSG(st.kernels > 0, "%s: the kernel never ran", op_table[op].name);
  return st.fails == 0;
}

int main(int argc, char **argv) {
  printf("operator family: recognised/drawn want types (of which random), solved, samples "
         "ok/tried,\n  restricted limits: recognised/samples ok, kernel runs, random calls "
         "accepted/rejected/deferred\n");
  /* An optional argument restricts the run to operators of that name. */
  for (int op = 0; op < OP_COUNT; op++)
    if (argc < 2 || strcmp(argv[1], op_table[op].name) == 0)
      check_op((OpId)op);
  return test_summary();
}
