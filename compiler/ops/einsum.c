/*
 * einsum.c - einsum(data, equation), data a tuple of tensors: relation,
 * recognizer, solver, sampler and kernel.  The relation follows Relay's
 * EinsumRel and topi's EinsumEquation / EinsumBuilder, with these choices:
 *
 *   equation inputs' subscripts separated by ',', then optionally "->" and
 *            the output's; spaces are ignored; labels are letters (a-z,
 *            A-Z).  Without "->" (implicit mode) the output is every label
 *            that appears exactly once in all the inputs, in ASCII order
 *            (capitals first).  Refused, each with the position in the
 *            equation: any other character, a second arrow, '-' without
 *            '>', an output label that is in no input (topi would crash)
 *            or repeated (numpy refuses it; topi reads the first only), a
 *            ',' after the arrow (topi takes the subscript before it as
 *            one more input; numpy refuses it), and the ellipsis "..."
 *            (topi broadcasts it; relayc does not have it yet).
 *   operands as many tensors as the equation has inputs, one numeric dtype
 *            (not bool), each with as many labels as its rank.  A label's
 *            extent is its dims' broadcast (equal, or 1 against any, as
 *            topi's GetBroadcastedExtent; Any with d gives d, Any with 1 or
 *            Any gives Any): a label repeated in one operand takes its
 *            diagonal, a label of extent 1 in one operand repeats it.
 *   values   R[out] = sum over the labels in no output position (in
 *            ASCII order, row-major) of A0[..] * A1[..] * ..., the product
 *            left to right with each step in the dtype (floats round,
 *            integers wrap), the sum accumulated in double and rounded
 *            once (docs/operators.md, "Float arithmetic"); no such label:
 *            the product itself.
 *
 * Solver.  For a wanted result of rank r: the output's r labels (drawn
 * from a rotated alphabet), 0..2 summed labels of drawn extents (the
 * iteration space within max_flops and max_numel), 1..3 operands each
 * holding a drawn subset of the labels in a drawn order (every label in
 * some operand), sometimes one label twice (a diagonal or trace) and
 * sometimes an extent of 1 that broadcasts; the equation in implicit
 * form on a coin where that form means the same.  Choice 0 is one
 * operand holding the output's labels in order: the identity "a->a".
 * The sampler draws a result type and solves for it.
 */
#include <string.h>

#include "op_int.h"

enum {
  MAX_OPS = 16, /* operands an equation may name */
  NLAB = 128,   /* label table size (ASCII) */
  MAX_RED = 2,  /* summed labels a solver invents */
};

/* A parsed equation. */
typedef struct Eq {
  int nin, nout, nred;
  int len[MAX_OPS];              /* labels of each input */
  char in[MAX_OPS][IR_MAX_RANK]; /* each input's labels */
  char out[IR_MAX_RANK];         /* the output's */
  char red[NLAB];                /* labels summed over, ascending */
} Eq;

/* Fails with a message naming position at of the equation s. */
static RelStatus eq_fail(char *err, size_t errlen, const char *s, int at, const char *what) {
  return op_fail(err, errlen, "equation \"%s\" at %d: %s", s, at, what);
}

/* Appends label c to subscript k (the output when k == MAX_OPS). */
static RelStatus eq_push(Eq *q, int k, char c, const char *s, int at, char *err, size_t errlen) {
  int *n = k == MAX_OPS ? &q->nout : &q->len[k];
  char *l = k == MAX_OPS ? q->out : q->in[k];
  if (*n == IR_MAX_RANK)
    return eq_fail(err, errlen, s, at, "more labels in one subscript than the largest rank");
  l[(*n)++] = c;
  return REL_OK;
}

/* The implicit output: labels seen once, in ASCII order. */
static void eq_implicit(Eq *q) {
  int count[NLAB] = {0};
  for (int k = 0; k < q->nin; k++)
    for (int i = 0; i < q->len[k]; i++)
      count[(int)q->in[k][i]]++;
  for (int c = 0; c < NLAB; c++)
    if (count[c] == 1 && q->nout < IR_MAX_RANK)
      q->out[q->nout++] = (char)c;
}

/* Parses equation s into q (positions in messages count from 0). */
static RelStatus eq_parse(const char *s, Eq *q, char *err, size_t errlen) {
  memset(q, 0, sizeof *q);
  bool arrow = false;
  RelStatus st;
  int cur = 0, n = (int)strlen(s);
  for (int i = 0; i < n; i++) {
    char c = s[i];
    if (c == ' ')
      continue;
    if (c == '-') {
      if (arrow)
        return eq_fail(err, errlen, s, i, "a second arrow");
      if (i + 1 >= n || s[i + 1] != '>')
        return eq_fail(err, errlen, s, i, "'-' not followed by '>'");
      arrow = true, i++, q->nin = cur + 1, cur = MAX_OPS;
    } else if (c == ',') {
      if (arrow)
        return eq_fail(err, errlen, s, i, "',' after the arrow");
      if (++cur == MAX_OPS)
        return eq_fail(err, errlen, s, i, "more than 16 inputs");
    } else if (c == '.') {
      return eq_fail(err, errlen, s, i, "the ellipsis '...' is not supported");
    } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      if ((st = eq_push(q, cur, c, s, i, err, errlen)) != REL_OK)
        return st;
    } else {
      char what[48];
      snprintf(what, sizeof what, "invalid character '%c'", c);
      return eq_fail(err, errlen, s, i, what);
    }
  }
  if (!arrow) {
    q->nin = cur + 1;
    eq_implicit(q);
  }
  bool in_some[NLAB] = {false}, in_out[NLAB] = {false};
  for (int k = 0; k < q->nin; k++)
    for (int i = 0; i < q->len[k]; i++)
      in_some[(int)q->in[k][i]] = true;
  for (int i = 0; i < q->nout; i++) {
    int c = q->out[i], at = (int)(strrchr(s, c) - s);
    if (!in_some[c])
      return eq_fail(err, errlen, s, at, "an output label in no input");
    if (in_out[c])
      return eq_fail(err, errlen, s, at, "an output label repeated");
    in_out[c] = true;
  }
  for (int c = 0; c < NLAB; c++)
    if (in_some[c] && !in_out[c])
      q->red[q->nred++] = (char)c;
  return REL_OK;
}

/* Each label's extent from the operands' shapes (ext[c], 0 when unused),
 * broadcast as topi does. */
static RelStatus eq_extents(const Eq *q, const int64_t *const *shapes, int64_t *ext, char *err,
                            size_t errlen) {
  bool seen[NLAB] = {false};
  for (int k = 0; k < q->nin; k++)
    for (int i = 0; i < q->len[k]; i++) {
      int c = q->in[k][i];
      int64_t d = shapes[k][i];
      if (!seen[c]) {
        seen[c] = true, ext[c] = d;
      } else if (!op_dim_bcast(ext[c], d, &ext[c])) {
        return op_fail(err, errlen, "label '%c' has extent %lld in operand %d, %lld before", c,
                       (long long)d, k, (long long)ext[c]);
      }
    }
  return REL_OK;
}

/* einsum((A0, A1, ...), equation) -> the output's labels' extents. */
RelStatus rel_einsum(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                     char *err, size_t errlen) {
  if (nargs != 1)
    return op_fail(err, errlen, "expects 1 argument (a tuple of tensors), got %d", nargs);
  if (!ir_type_complete(args[0]))
    return REL_DEFER;
  if (args[0]->kind != TY_TUPLE || args[0]->tuple.n == 0)
    return op_fail(err, errlen, "expects a non-empty tuple of tensors");
  OpAttrReader r = op_rd_begin(op, at, err, errlen);
  const char *s = op_rd_str(&r, "equation", NULL);
  if (r.bad)
    return REL_ERROR;
  if (!s)
    return op_fail(err, errlen, "equation is required");
  Eq q;
  RelStatus st = eq_parse(s, &q, err, errlen);
  if (st != REL_OK)
    return st;
  int n = args[0]->tuple.n;
  Type *const *f = args[0]->tuple.fields;
  if (q.nin != n)
    return op_fail(err, errlen, "equation \"%s\" has %d inputs, the tuple %d tensors", s, q.nin, n);
  const int64_t *shapes[MAX_OPS];
  for (int k = 0; k < n; k++) {
    if (f[k]->kind != TY_TENSOR)
      return op_fail(err, errlen, "tuple field %d is not a tensor", k);
    if (f[k]->tensor.dtype != f[0]->tensor.dtype)
      return op_fail(err, errlen, "tuple field %d has dtype %s, field 0 has %s", k,
                     ir_dtype_name(f[k]->tensor.dtype), ir_dtype_name(f[0]->tensor.dtype));
    if (f[k]->tensor.rank != q.len[k])
      return op_fail(err, errlen, "input %d of \"%s\" has %d labels, its tensor rank %d", k, s,
                     q.len[k], f[k]->tensor.rank);
    shapes[k] = f[k]->tensor.shape;
  }
  if (!op_want_dtype(&r, f[0], OP_NUMERIC, "the first operand"))
    return REL_ERROR;
  int64_t ext[NLAB], shape[IR_MAX_RANK];
  if ((st = eq_extents(&q, shapes, ext, err, errlen)) != REL_OK)
    return st;
  for (int i = 0; i < q.nout; i++)
    shape[i] = ext[(int)q.out[i]];
  return op_result(a, f[0]->tensor.dtype, q.nout, shape, out, err, errlen);
}

/* ----------------------------------------------------------------- solver */

bool rec_einsum(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits_dims(lim, want, OP_NUMERIC) &&
         op_numel_sat(want->tensor.rank, want->tensor.shape) <= lim->max_flops;
}

/* What the solver has drawn: labels, their extents, the operands. */
typedef struct Plan {
  int nlab, nops;
  char lab[IR_MAX_RANK + MAX_RED]; /* the output's, then the summed */
  int64_t ext[IR_MAX_RANK + MAX_RED];
  int len[3];
  int idx[3][IR_MAX_RANK]; /* indices into lab */
  int64_t dim[3][IR_MAX_RANK];
} Plan;

/* Operand k's element count with one more dim of extent e. */
static int64_t plan_numel(const Plan *p, int k, int64_t e) {
  int64_t n = e;
  for (int i = 0; i < p->len[k]; i++)
    n = op_mul_sat(n, p->dim[k][i]);
  return n;
}

/* Shuffles operand k's dims (Fisher-Yates; choice 0 keeps the order). */
static void plan_shuffle(OpSolveCtx *cx, Plan *p, int k) {
  for (int i = p->len[k] - 1; i > 0; i--) {
    int j = i - (int)op_pick_below(cx, i + 1);
    int ti = p->idx[k][i];
    int64_t td = p->dim[k][i];
    p->idx[k][i] = p->idx[k][j], p->dim[k][i] = p->dim[k][j];
    p->idx[k][j] = ti, p->dim[k][j] = td;
  }
}

/* Writes the equation: explicit, or implicit when that means the same
 * and the coin says so. */
static char *plan_equation(OpSolveCtx *cx, const Plan *p, int r) {
  int count[IR_MAX_RANK + MAX_RED] = {0};
  for (int k = 0; k < p->nops; k++)
    for (int i = 0; i < p->len[k]; i++)
      count[p->idx[k][i]]++;
  bool implicit = true;
  for (int j = 0; j < p->nlab; j++)
    implicit &= j < r ? count[j] == 1 && (j == 0 || p->lab[j - 1] < p->lab[j]) : count[j] > 1;
  implicit = implicit && op_coin(cx);
  char buf[64];
  int n = 0;
  for (int k = 0; k < p->nops; k++) {
    if (k)
      buf[n++] = ',';
    for (int i = 0; i < p->len[k]; i++)
      buf[n++] = p->lab[p->idx[k][i]];
  }
  if (!implicit) {
    buf[n++] = '-', buf[n++] = '>';
    for (int j = 0; j < r; j++)
      buf[n++] = p->lab[j];
  }
  buf[n] = 0;
  return arena_strdup(cx->arena, buf);
}

bool solve_einsum(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_einsum(op, want, cx->lim))
    return false;
  const OpLimits *lim = cx->lim;
  int r = want->tensor.rank, cap = op_rank_cap(lim);
  Plan p = {0};
  int base = (int)op_pick_below(cx, 26);
  p.nlab = r;
  for (int j = 0; j < r; j++)
    p.lab[j] = (char)('a' + (base + j) % 26), p.ext[j] = want->tensor.shape[j];
  /* summed labels: the iteration space within max_flops and max_numel */
  int64_t space = op_numel_sat(r, want->tensor.shape);
  int64_t room = op_min64(lim->max_flops, lim->max_numel);
  int nred = (int)op_pick_below(cx, op_min64(MAX_RED, cap - r) + 1);
  for (int j = 0; j < nred; j++) {
    int64_t e = op_pick(cx, 1, op_max64(1, op_min64(lim->max_dim, op_quota(room, space))));
    space = op_mul_sat(space, e);
    p.lab[p.nlab] = (char)('a' + (base + p.nlab) % 26);
    p.ext[p.nlab++] = e;
  }
  p.nops = 1 + (int)op_pick_below(cx, 3);
  /* each operand a subset; operand 0 takes every label no other took */
  bool taken[IR_MAX_RANK + MAX_RED] = {false};
  for (int k = p.nops - 1; k >= 0; k--)
    for (int j = 0; j < p.nlab; j++)
      if (k == 0 ? !taken[j] || op_coin(cx) : op_coin(cx)) {
        p.idx[k][p.len[k]] = j, p.dim[k][p.len[k]++] = p.ext[j];
        taken[j] = true;
      }
  for (int k = 0; k < p.nops; k++) {
    /* sometimes a label twice (a diagonal), sometimes an extent of 1 */
    if (p.len[k] > 0 && p.len[k] < cap && op_pick_below(cx, 4) == 3) {
      int i = (int)op_pick_below(cx, p.len[k]);
      if (plan_numel(&p, k, p.dim[k][i]) <= lim->max_numel) {
        p.idx[k][p.len[k]] = p.idx[k][i], p.dim[k][p.len[k]++] = p.dim[k][i];
      }
    }
    if (p.nops > 1 && p.len[k] > 0 && k > 0 && op_pick_below(cx, 4) == 3)
      p.dim[k][op_pick_below(cx, p.len[k])] = 1; /* operand 0 keeps every extent */
    plan_shuffle(cx, &p, k);
  }
  /* operand 0 holds every extent in full only for the labels it has: a
   * label only in broadcast operands gets back its extent there */
  for (int j = 0; j < p.nlab; j++) {
    bool full = false;
    for (int k = 0; k < p.nops; k++)
      for (int i = 0; i < p.len[k]; i++)
        full |= p.idx[k][i] == j && p.dim[k][i] == p.ext[j];
    for (int k = 0; !full && k < p.nops; k++)
      for (int i = 0; i < p.len[k]; i++)
        if (p.idx[k][i] == j)
          p.dim[k][i] = p.ext[j], full = true;
  }
  Type *f[3];
  DType dt = want->tensor.dtype;
  for (int k = 0; k < p.nops; k++)
    f[k] = op_tensor(cx, dt, p.len[k], p.dim[k]);
  op_sig_start(cx, sig, 1, want);
  sig->args[0] = ir_tuple_type(cx->arena, p.nops, f);
  ir_attr_set_str(cx->arena, &sig->attrs, "equation", plan_equation(cx, &p, r));
  return true;
}

bool sample_einsum(OpId op, OpSolveCtx *cx, OpSig *sig) {
  if (!op_can_sample(cx, 0))
    return false;
  Type *t = op_draw_tensor(cx, 0, op_min64(3, op_rank_cap(cx->lim)), OP_NUMERIC);
  return solve_einsum(op, t, cx, sig);
}

/* ----------------------------------------------------------------- kernel */

void k_einsum(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
              int nouts, Arena *scratch) {
  Eq q;
  char err[8];
  Tensor *r = outs[0];
  if (eq_parse(ir_attr_str(at, "equation", ""), &q, err, sizeof err) != REL_OK || q.nin != nargs)
    return;
  const int64_t *shapes[MAX_OPS];
  int64_t ext[NLAB], val[NLAB] = {0}, strides[MAX_OPS][IR_MAX_RANK];
  for (int k = 0; k < nargs; k++) {
    shapes[k] = args[k]->shape;
    int64_t s = 1;
    for (int i = args[k]->rank - 1; i >= 0; i--) /* 0 where the dim broadcasts */
      strides[k][i] = args[k]->shape[i] == 1 ? 0 : s, s *= args[k]->shape[i];
  }
  if (eq_extents(&q, shapes, ext, err, sizeof err) != REL_OK)
    return;
  int64_t nred = 1;
  for (int j = 0; j < q.nred; j++)
    nred *= ext[(int)q.red[j]];
  bool fl = ir_dtype_is_float(r->dtype);
  int64_t oc[IR_MAX_RANK] = {0};
  for (int64_t o = 0; o < r->numel; o++, op_next_coord(r->rank, r->shape, oc)) {
    for (int i = 0; i < q.nout; i++)
      val[(int)q.out[i]] = oc[i];
    double sf = 0;
    uint64_t si = 0;
    for (int64_t t = 0; t < nred; t++) {
      for (int64_t rest = t, j = q.nred - 1; j >= 0; j--) /* row-major, last label fastest */
        val[(int)q.red[j]] = rest % ext[(int)q.red[j]], rest /= ext[(int)q.red[j]];
      double pf = 1;
      uint64_t pi = 1;
      for (int k = 0; k < nargs; k++) {
        int64_t e = 0;
        for (int i = 0; i < q.len[k]; i++)
          e += val[(int)q.in[k][i]] * strides[k][i];
        if (fl)
          pf = k == 0 ? op_elem_f(args[k], e, r->dtype)
                      : op_round(r->dtype, pf * op_elem_f(args[k], e, r->dtype));
        else
          pi *= (uint64_t)op_elem_i(args[k], e, r->dtype);
      }
      sf += pf, si += pi;
    }
    if (fl)
      ir_tensor_set_f64(r, o, sf);
    else
      ir_tensor_set_i64(r, o, op_u2i(si));
  }
}
