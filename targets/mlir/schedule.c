/*
 * schedule.c - transform-dialect schedules (schedule.h): the payload's
 * linalg ops looked at through the C API, a transform script built for
 * them from a seed, and the script applied by MLIR's transform
 * interpreter in the session's context.
 *
 * The script names the payload's ops the way the interpreter finds them:
 * `transform.structured.match interface{LinalgOp}` (every linalg op, in
 * post-order) split into one handle per op (`%op#i`); the builder walks the
 * module in the same order, so %op#i is the i-th op it saw and the sizes
 * it draws fit that op (no tile list longer than its loops, no pad of a
 * reduction dim, vector sizes no smaller than its static sizes).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Linalg.h"
#include "mlir-c/Dialect/Transform/Interpreter.h"

#include "schedule.h"
#include "session_int.h"

enum { MAX_OPS = 192, MAX_LOOPS = 8, MAX_OPERANDS = 8, MAX_PICKED = 6, MAX_LANES = 1024 };

/* One linalg op of the payload, as the builder sees it. */
typedef struct SOp {
  MlirOperation func; /* the func.func it is in */
  int nloops;
  int64_t size[MAX_LOOPS]; /* static loop sizes; -1 unknown */
  bool red[MAX_LOOPS];     /* a reduction loop (in no init's map) */
  int noperands;
  char elt[MAX_OPERANDS][16]; /* each operand's element type, "" if not a ranked tensor */
  bool statics;               /* every operand a static ranked tensor, every size known */
  bool extracts;              /* its body reads other tensors (tensor.extract) */
  bool extracts_slice;        /* ... one of them a tensor.extract_slice (#43) */
  bool divides;               /* its body divides integers (traps on a padded 0) */
  bool i1;                    /* an operand of i1 (vectors of it are not vectorized) */
  bool constant;              /* an operand is an arith.constant (not padded) */
  bool backward;              /* a map reads an operand backwards (not tiled) */
} SOp;

typedef struct Payload {
  SOp op[MAX_OPS];
  int n;
  bool overflow;
  bool i1;              /* some op has an i1 operand */
  bool insert_drops;    /* a tensor.insert_slice the vectorizer writes wrong */
  bool extract_0d;      /* a 0-d op whose body reads a tensor (tensor.extract) */
  bool extract_slice;   /* an op whose body reads a tensor.extract_slice (#43) */
  bool minmax;          /* an arith.maximumf or arith.minimumf anywhere */
  char fn[MAX_OPS][64]; /* the functions the ops are in, in order */
  int nfn;
} Payload;

/* splitmix64: the schedule's choices, from its seed. */
static uint64_t next(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ z >> 30) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ z >> 27) * 0x94d049bb133111ebull;
  return z ^ z >> 31;
}

static int pick(uint64_t *s, int n) {
  return n > 0 ? (int)(next(s) % (uint64_t)n) : 0;
}

static bool named(MlirOperation op, const char *name) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  return n.length == strlen(name) && !memcmp(n.data, name, n.length);
}

static MlirOperation enclosing_func(MlirOperation op) {
  MlirOperation p = mlirOperationGetParentOperation(op);
  while (!mlirOperationIsNull(p) && !named(p, "func.func"))
    p = mlirOperationGetParentOperation(p);
  return p;
}

/* What an op's body does that padding must not meet: reads of other
 * tensors (out of bounds at padded indices) and integer division (a
 * padded 0 divisor traps). */
static MlirWalkResult scan_body(MlirOperation op, void *ud) {
  static const char *const div[] = {"arith.divsi",     "arith.divui",     "arith.remsi",
                                    "arith.remui",     "arith.ceildivsi", "arith.ceildivui",
                                    "arith.floordivsi"};
  SOp *d = ud;
  if (named(op, "tensor.extract")) {
    MlirValue src = mlirOperationGetOperand(op, 0);
    d->extracts = true;
    d->extracts_slice |=
        mlirValueIsAOpResult(src) && named(mlirOpResultGetOwner(src), "tensor.extract_slice");
  }
  for (size_t k = 0; k < sizeof div / sizeof *div; k++)
    d->divides |= named(op, div[k]);
  return MlirWalkResultAdvance;
}

/* The element type of operand v into out ("" unless a ranked tensor);
 * whether its shape is static. */
static bool operand_type(MlirValue v, char *out, size_t cap) {
  MlirType t = mlirValueGetType(v);
  out[0] = 0;
  if (!mlirTypeIsARankedTensor(t))
    return false;
  Buf b = {0};
  mlirTypePrint(mlirShapedTypeGetElementType(t), mls_buf_cb, &b);
  snprintf(out, cap, "%s", b.p ? b.p : "");
  free(b.p);
  return mlirShapedTypeHasStaticShape(t);
}

/* Whether e multiplies a dim by a negative constant (a map of reverse,
 * (d0) -> (-d0 + 3)): tiling such an op gives each tile an operand slice
 * too small for the map it keeps, invalid IR (docs/findings/mlir.md #33,
 * llvm/llvm-project#113021). */
static bool backward(MlirAffineExpr e) {
  if (!mlirAffineExprIsABinary(e))
    return false;
  MlirAffineExpr l = mlirAffineBinaryOpExprGetLHS(e), r = mlirAffineBinaryOpExprGetRHS(e);
  if (mlirAffineExprIsAMul(e) &&
      ((mlirAffineExprIsAConstant(l) && mlirAffineConstantExprGetValue(l) < 0) ||
       (mlirAffineExprIsAConstant(r) && mlirAffineConstantExprGetValue(r) < 0)))
    return true;
  return backward(l) || backward(r);
}

/* Loops, sizes and reduction dims of op from its indexing maps and
 * operand shapes; false when op is no linalg op on tensors this file
 * can describe. */
static bool describe(MlirOperation op, SOp *d) {
  MlirAttribute maps = mlirLinalgGetIndexingMapsAttribute(op);
  intptr_t nmaps = mlirAttributeIsNull(maps) ? 0 : mlirArrayAttrGetNumElements(maps);
  intptr_t nres = mlirOperationGetNumResults(op);
  *d = (SOp){.func = enclosing_func(op), .statics = true};
  if (nmaps == 0 || nmaps != mlirOperationGetNumOperands(op) || nmaps > MAX_OPERANDS ||
      nres > nmaps)
    return false;
  MlirAffineMap m0 = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, 0));
  d->nloops = (int)mlirAffineMapGetNumDims(m0);
  d->noperands = (int)nmaps;
  if (d->nloops > MAX_LOOPS)
    return false;
  for (int i = 0; i < d->nloops; i++)
    d->size[i] = -1, d->red[i] = true;
  for (intptr_t j = 0; j < nmaps; j++) {
    MlirAffineMap m = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, j));
    MlirValue v = mlirOperationGetOperand(op, j);
    bool stat = operand_type(v, d->elt[j], sizeof d->elt[j]);
    d->constant |= mlirValueIsAOpResult(v) && named(mlirOpResultGetOwner(v), "arith.constant");
    d->i1 |= !strcmp(d->elt[j], "i1") || (mlirTypeIsAInteger(mlirValueGetType(v)) &&
                                          mlirIntegerTypeGetWidth(mlirValueGetType(v)) == 1);
    d->statics &= stat;
    bool init = j >= nmaps - nres;
    for (intptr_t k = 0; k < mlirAffineMapGetNumResults(m); k++) {
      MlirAffineExpr e = mlirAffineMapGetResult(m, k);
      d->backward |= backward(e);
      if (!mlirAffineExprIsADim(e))
        continue;
      int dim = (int)mlirAffineDimExprGetPosition(e);
      if (dim >= d->nloops)
        continue;
      if (init)
        d->red[dim] = false;
      if (stat)
        d->size[dim] = mlirShapedTypeGetDimSize(mlirValueGetType(v), k);
    }
  }
  for (int i = 0; i < d->nloops; i++)
    d->statics &= d->size[i] > 0;
  mlirOperationWalk(op, scan_body, d, MlirWalkPreOrder);
  return nres > 0; /* tensor semantics */
}

/* Post-order, as transform.structured.match walks. */
static MlirWalkResult collect(MlirOperation op, void *ud) {
  Payload *p = ud;
  if (mlirAttributeIsNull(mlirLinalgGetIndexingMapsAttribute(op)))
    return MlirWalkResultAdvance;
  if (p->n == MAX_OPS) {
    p->overflow = true;
    return MlirWalkResultInterrupt;
  }
  SOp *d = &p->op[p->n++];
  if (!describe(op, d))
    d->nloops = -1; /* matched by the script, never transformed */
  p->i1 |= d->i1;
  p->extract_0d |= d->nloops == 0 && d->extracts;
  p->extract_slice |= d->extracts_slice;
  MlirAttribute name =
      mlirOperationIsNull(d->func)
          ? mlirAttributeGetNull()
          : mlirOperationGetAttributeByName(d->func, mlirStringRefCreateFromCString("sym_name"));
  if (mlirAttributeIsNull(name) || !mlirAttributeIsAString(name)) {
    p->overflow = true; /* outside a named function: not for a script */
    return MlirWalkResultInterrupt;
  }
  if (p->n == 1 || !mlirOperationEqual(p->op[p->n - 2].func, d->func)) {
    MlirStringRef str = mlirStringAttrGetValue(name);
    snprintf(p->fn[p->nfn++], sizeof p->fn[0], "%.*s", (int)str.length, str.data);
  }
  return MlirWalkResultAdvance;
}

/* Notes in p what the schedules steer around: a tensor.insert_slice
 * that vectorize_children_and_apply_patterns turns into a
 * vector.transfer_write at the wrong place (a stride other than 1, or a
 * rank-reducing one whose dropped unit dims are not the leading ones: its
 * write takes the trailing dims, a vector of 4 into 4x1 writes one
 * element; docs/findings/mlir.md #31), and a float max or min
 * (vector_lowering, #39). */
static MlirWalkResult scan_ops(MlirOperation op, void *ud) {
  Payload *p = ud;
  p->minmax |= named(op, "arith.maximumf") || named(op, "arith.minimumf");
  if (!named(op, "tensor.insert_slice") || mlirOperationGetNumOperands(op) < 2)
    return MlirWalkResultAdvance;
  MlirType src = mlirValueGetType(mlirOperationGetOperand(op, 0));
  MlirAttribute sizes =
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("static_sizes"));
  MlirAttribute strides =
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("static_strides"));
  if (!mlirTypeIsARankedTensor(src) || mlirAttributeIsNull(sizes) || mlirAttributeIsNull(strides) ||
      !mlirAttributeIsADenseI64Array(sizes) || !mlirAttributeIsADenseI64Array(strides)) {
    p->insert_drops = true;
    return MlirWalkResultAdvance;
  }
  intptr_t r = mlirShapedTypeGetRank(src), n = mlirDenseArrayGetNumElements(sizes);
  for (intptr_t i = 0; i < mlirDenseArrayGetNumElements(strides); i++)
    p->insert_drops |= mlirDenseI64ArrayGetElement(strides, i) != 1;
  for (intptr_t i = 0; i < n - r; i++) /* the dropped dims: leading units */
    p->insert_drops |= mlirDenseI64ArrayGetElement(sizes, i) != 1;
  for (intptr_t i = n - r; i < n && i >= 0; i++)
    p->insert_drops |=
        mlirDenseI64ArrayGetElement(sizes, i) != mlirShapedTypeGetDimSize(src, i - (n - r));
  return MlirWalkResultAdvance;
}

/* ---------------------------------------------------------------- text */

static void put(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(Buf *b, const char *fmt, ...) {
  char tmp[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n > 0)
    mls_buf_cb(mlirStringRefCreate(tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1), b);
}

/* "[a, b, c]" of n values. */
static void put_list(Buf *b, const int64_t *v, int n) {
  put(b, "[");
  for (int i = 0; i < n; i++)
    put(b, "%s%lld", i ? ", " : "", (long long)v[i]);
  put(b, "]");
}

/* "(!transform.any_op, ...)" of n handles. */
static void put_handles(Buf *b, int n) {
  put(b, "(");
  for (int i = 0; i < n; i++)
    put(b, "%s!transform.any_op", i ? ", " : "");
  put(b, ")");
}

static const char *const ANY = "!transform.any_op";

/* ---------------------------------------------------------- choices */

typedef struct Build {
  Buf b;
  Payload *p;
  uint64_t rng;
  int funcs; /* %f<k> handles made so far */
  /* An op vectorized with vector sizes and vectorize_nd_extract: its
   * gathers are masked (vector.mask around vector.gather). */
  bool masked_gather;
  bool masked; /* an op vectorized with vector sizes */
} Build;

/* Tile sizes for op d into t (n of them, at most its loops), at least
 * one nonzero; parallel only: reduction dims stay 0.  Returns the
 * number of nonzero sizes (0: nothing to tile). */
static int tile_sizes(Build *B, const SOp *d, bool parallel, int64_t *t, int *n) {
  static const int64_t sizes[] = {0, 1, 2, 2, 3, 4, 4, 8};
  *n = d->nloops < 1 ? 0 : 1 + pick(&B->rng, d->nloops < 3 ? d->nloops : 3);
  int nz = 0;
  for (int i = 0; i < *n; i++) {
    t[i] = parallel && d->red[i] ? 0 : sizes[pick(&B->rng, 8)];
    nz += t[i] != 0;
  }
  for (int i = 0; !nz && i < *n; i++)
    if (!(parallel && d->red[i]))
      t[i] = 2, nz = 1;
  return nz;
}

/* The ops to transform: those ok() takes, each with chance 1/2, at least
 * one, at most MAX_PICKED; their indices into out. */
static int choose(Build *B, bool (*ok)(const SOp *), int *out) {
  int n = 0, cand[MAX_OPS], nc = 0;
  for (int i = 0; i < B->p->n; i++)
    if (B->p->op[i].nloops >= 0 && ok(&B->p->op[i]))
      cand[nc++] = i;
  for (int i = 0; i < nc && n < MAX_PICKED; i++)
    if (next(&B->rng) & 1)
      out[n++] = cand[i];
  if (!n && nc)
    out[n++] = cand[pick(&B->rng, nc)];
  return n;
}

/* Ops to tile (or pad): not one that reads an operand backwards. */
static bool has_loops(const SOp *d) {
  return d->nloops > 0 && !d->backward;
}

static bool has_parallel(const SOp *d) {
  for (int i = 0; i < d->nloops && !d->backward; i++)
    if (!d->red[i])
      return true;
  return false;
}

/* An operand that is an arith.constant is padded to a size computed from
 * its value, not its shape (findings/mlir.md #20): such ops are left
 * out. */
static bool paddable(const SOp *d) {
  if (!d->statics || d->extracts || d->divides || d->constant || !has_parallel(d))
    return false;
  for (int j = 0; j < d->noperands; j++)
    if (!d->elt[j][0])
      return false;
  return true;
}

/* Vectors of i1 are left out: convert-vector-to-llvm stores and loads
 * them bit-packed in memrefs of one byte per i1 (docs/findings/mlir.md
 * #20), a known miscompile on every bool tensor otherwise. */
static bool maskable(const SOp *d) {
  return d->nloops > 0 && d->statics && !d->i1;
}

static bool vectorizable(const SOp *d) {
  return d->nloops > 0 && !d->i1;
}

static void tile_op(Build *B, int i, bool forall) {
  int64_t t[MAX_LOOPS];
  int n;
  int nz = tile_sizes(B, &B->p->op[i], forall, t, &n);
  if (!nz)
    return;
  if (forall) {
    bool threads = pick(&B->rng, 3) == 0;
    put(&B->b, "    %%t%d, %%l%d = transform.structured.tile_using_forall %%op#%d %s ", i, i, i,
        threads ? "num_threads" : "tile_sizes");
    put_list(&B->b, t, n);
    put(&B->b, " : (%s) -> (%s, %s)\n", ANY, ANY, ANY);
    return;
  }
  put(&B->b, "    %%t%d, %%l%d:%d = transform.structured.tile_using_for %%op#%d tile_sizes ", i, i,
      nz, i);
  put_list(&B->b, t, n);
  put(&B->b, " : (%s) -> ", ANY);
  put_handles(&B->b, 1 + nz);
  put(&B->b, "\n");
}

/* Handles %<pre><k>_<i> on each function with linalg ops, by name (not
 * every func.func: a reproducer's @entry is no part of the payload),
 * merged into one, %<pre><k>. */
static int match_funcs(Build *B, const char *pre) {
  int k = B->funcs++;
  for (int i = 0; i < B->p->nfn; i++)
    put(&B->b,
        "    %%%s%d_%d = transform.structured.match ops{[\"func.func\"]} attributes{sym_name = "
        "\"%s\"} in %%root : (%s) -> %s\n",
        pre, k, i, B->p->fn[i], ANY, ANY);
  put(&B->b, "    %%%s%d = transform.merge_handles", pre, k);
  for (int i = 0; i < B->p->nfn; i++)
    put(&B->b, "%s %%%s%d_%d", i ? "," : "", pre, k, i);
  put(&B->b, " : %s\n", ANY);
  return k;
}

/* %<out> = what matches what inside each of the functions %<pre><k>_<i>,
 * merged (a match takes one function at a time). */
static void match_inside(Build *B, int k, const char *pre, const char *out, const char *what) {
  for (int i = 0; i < B->p->nfn; i++)
    put(&B->b, "    %%%s_%d = transform.structured.match %s in %%%s%d_%d : (%s) -> %s\n", out, i,
        what, pre, k, i, ANY, ANY);
  put(&B->b, "    %%%s = transform.merge_handles", out);
  for (int i = 0; i < B->p->nfn; i++)
    put(&B->b, "%s %%%s_%d", i ? "," : "", out, i);
  put(&B->b, " : %s\n", ANY);
}

/* A fresh handle on the payload's functions: its name into out. */
static void funcs(Build *B, char *out, size_t cap) {
  snprintf(out, cap, "%%f%d", match_funcs(B, "f"));
}

/* Whether vectorize_nd_extract may be given for an op (or every op of
 * the payload) that extracts from a tensor.extract_slice: it reads the
 * wrong elements (#43), so not; the draw that asked for it stays. */
static const char *nd_extract(bool drawn, bool extracts_slice) {
  return drawn && !extracts_slice ? " {vectorize_nd_extract}" : "";
}

/* Vectorize without vector sizes: every op of every function (the
 * vectorizer leaves what it cannot take), or, when per_op and the %op
 * handles are fresh, the chosen ops one by one (an op it cannot take is a
 * transform error).  One by one only when the payload has i1 operands or
 * an insert_slice the whole-function vectorizer writes wrong (#31). */
static bool vectorize_plain(Build *B, bool per_op) {
  bool ops_only = B->p->i1 || B->p->insert_drops;
  int ops[MAX_PICKED],
      n = per_op && (ops_only || pick(&B->rng, 3) == 0) ? choose(B, vectorizable, ops) : 0;
  if (n || ops_only) {
    for (int k = 0; k < n; k++)
      put(&B->b, "    transform.structured.vectorize %%op#%d%s : %s\n", ops[k],
          nd_extract(!pick(&B->rng, 4), B->p->op[ops[k]].extracts_slice), ANY);
    return n > 0;
  }
  static const char *const flags[] = {
      "vectorize_padding", "vectorize_nd_extract", "disable_multi_reduction_to_contract_patterns",
      "disable_transfer_permutation_map_lowering_patterns", "flatten_1d_depthwise_conv"};
  char f[16];
  funcs(B, f, sizeof f);
  put(&B->b, "    %%v%d = transform.structured.vectorize_children_and_apply_patterns %s", B->funcs,
      f);
  /* vectorize_nd_extract on a 0-d op that extracts leaves its other
   * scalar operands unbroadcast: arith ops of vector<f32> and f32,
   * invalid IR (docs/findings/mlir.md #34); on an op that extracts from
   * a slice it reads the wrong elements (#43).  The draw stays. */
  const char *sep = " {";
  for (int k = 0; k < 5; k++)
    if (pick(&B->rng, 3) == 0 && !(k == 1 && (B->p->extract_0d || B->p->extract_slice))) {
      put(&B->b, "%s%s", sep, flags[k]);
      sep = ", ";
    }
  put(&B->b, "%s : (%s) -> %s\n", *sep == ',' ? "}" : "", ANY, ANY);
  return true;
}

/* Vectorize the chosen ops with vector sizes at or above their static
 * sizes (above: masked).  An op that divides integers keeps its sizes:
 * the vectorizer divides on the masked-off lanes too, whose divisors are
 * poison, and the compiled code traps (docs/findings/mlir.md #28).  False
 * when no op fits. */
static bool vectorize_masked(Build *B) {
  int ops[MAX_PICKED], n = choose(B, maskable, ops);
  for (int k = 0; k < n; k++) {
    const SOp *d = &B->p->op[ops[k]];
    int64_t v[MAX_LOOPS], lanes = 1;
    for (int i = 0; i < d->nloops; i++) {
      int64_t extra = pick(&B->rng, 2) ? 0 : 1 + pick(&B->rng, 4);
      v[i] = d->size[i] + (d->divides ? 0 : extra);
      lanes = lanes * v[i] > MAX_LANES ? MAX_LANES + 1 : lanes * v[i];
    }
    /* A vector of more lanes is unrolled by the lowering patterns into
     * so many ops that the schedule runs for minutes (the draws stay). */
    if (lanes > MAX_LANES) {
      (void)pick(&B->rng, 4);
      continue;
    }
    put(&B->b, "    transform.structured.vectorize %%op#%d vector_sizes ", ops[k]);
    put_list(&B->b, v, d->nloops);
    const char *nd = nd_extract(!pick(&B->rng, 4), d->extracts_slice);
    B->masked_gather |= *nd != 0;
    B->masked = true;
    put(&B->b, "%s : %s\n", nd, ANY);
  }
  return n > 0;
}

#define CAST_AWAY "cast_away_vector_leading_one_dim"

/* The vector dialect's lowering patterns on every function: contraction,
 * transfer, multi-reduction, transpose and broadcast always, with drawn
 * strategies, and a drawn subset of the others. */
static void vector_lowering(Build *B) {
  static const char *const contract[] = {"outerproduct", "dot", "llvmintr", "parallelarith"};
  static const char *const multi[] = {"innerparallel", "innerreduction"};
  static const char *const transpose[] = {"eltwise", "shuffle_1d", "shuffle_16x16", "llvmintr"};
  static const char *const more[] = {"transfer_permutation_patterns",
                                     "lower_shape_cast",
                                     "lower_masks",
                                     "lower_masked_transfers",
                                     "lower_outerproduct",
                                     CAST_AWAY,
                                     "lower_gather",
                                     "lower_interleave",
                                     "lower_bitcast"};
  char f[16];
  funcs(B, f, sizeof f);
  put(&B->b, "    transform.apply_patterns to %s {\n", f);
  put(&B->b, "      transform.apply_patterns.vector.lower_contraction lowering_strategy = \"%s\"\n",
      contract[pick(&B->rng, 4)]);
  put(&B->b, "      transform.apply_patterns.vector.lower_transfer max_transfer_rank = %d\n",
      1 + pick(&B->rng, 2));
  /* innerreduction makes a masked maximumf/minimumf reduction a masked
   * vector.reduction, whose off lanes convert-vector-to-llvm fills with
   * -1.4e-45 / +FLT_MAX instead of -inf / +inf: a wrong maximum of
   * negatives (docs/findings/mlir.md #39, fixed after MLIR 22).  The draw
   * stays. */
  int strategy = pick(&B->rng, 2);
  if (B->masked && B->p->minmax)
    strategy = 0;
  put(&B->b,
      "      transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = \"%s\"\n",
      multi[strategy]);
  put(&B->b, "      transform.apply_patterns.vector.lower_transpose lowering_strategy = \"%s\"\n",
      transpose[pick(&B->rng, 4)]);
  put(&B->b, "      transform.apply_patterns.vector.lower_broadcast\n");
  bool cast_away = false;
  for (int k = 0; k < (int)(sizeof more / sizeof *more); k++) {
    if (!pick(&B->rng, 2))
      continue;
    /* lower_gather unrolls an n-d gather inside its vector.mask, which
     * must hold one op: invalid IR (docs/findings/mlir.md #37).  The
     * draw stays. */
    if (B->masked_gather && strcmp(more[k], "lower_gather") == 0)
      continue;
    if (strcmp(more[k], CAST_AWAY) == 0)
      cast_away = true;
    else
      put(&B->b, "      transform.apply_patterns.vector.%s\n", more[k]);
  }
  put(&B->b, "    } : %s\n", ANY);
  /* cast_away_vector_leading_one_dim in a set of its own: with
   * lower_broadcast in the same set, a broadcast of leading unit dims is
   * lowered to inserts and cast back to a broadcast without end (MLIR 22
   * runs out of memory; tests/regressions/mlir_schedules). */
  if (cast_away)
    put(&B->b,
        "    transform.apply_patterns to %s {\n      transform.apply_patterns.vector.%s\n    } : "
        "%s\n",
        f, CAST_AWAY, ANY);
  /* Canonicalization in a set of its own: in the same set it folds back
   * what lower_broadcast and lower_shape_cast lower, without end (the
   * greedy driver does not count folds against max_num_rewrites). */
  if (pick(&B->rng, 2))
    put(&B->b,
        "    transform.apply_patterns to %s {\n      transform.apply_patterns.canonicalization\n"
        "    } : %s\n",
        f, ANY);
}

/* Pad the chosen ops' parallel dims to multiples (padding values of
 * each operand's type; the extra rows are cut off again). */
static bool pad(Build *B) {
  static const char *const copy_back[] = {NULL, "linalg.copy", "none"};
  int ops[MAX_PICKED], n = choose(B, paddable, ops);
  for (int k = 0; k < n; k++) {
    int i = ops[k];
    const SOp *d = &B->p->op[i];
    int64_t dims[MAX_LOOPS], mult[MAX_LOOPS];
    int nd = 0;
    for (int l = 0; l < d->nloops; l++)
      if (!d->red[l] && (pick(&B->rng, 2) || (l == d->nloops - 1 && !nd))) {
        dims[nd] = l;
        mult[nd++] = (int64_t[]){2, 3, 4, 8}[pick(&B->rng, 4)];
      }
    if (!nd)
      for (int l = 0; l < d->nloops && !nd; l++)
        if (!d->red[l])
          dims[nd] = l, mult[nd++] = 4;
    put(&B->b,
        "    %%p%d, %%pad%d, %%copy%d = transform.structured.pad %%op#%d pad_to_multiple_of ", i, i,
        i, i);
    put_list(&B->b, mult, nd);
    put(&B->b, " {padding_dimensions = ");
    put_list(&B->b, dims, nd);
    put(&B->b, ", padding_values = [");
    for (int j = 0; j < d->noperands; j++) {
      bool fl = d->elt[j][0] == 'f' || d->elt[j][0] == 'b';
      put(&B->b, "%s%s : %s", j ? ", " : "", fl ? "0.0" : "0", d->elt[j]);
    }
    put(&B->b, "]");
    if (pick(&B->rng, 2)) {
      int64_t nofold[MAX_OPERANDS];
      for (int j = 0; j < d->noperands; j++)
        nofold[j] = pick(&B->rng, 2);
      put(&B->b, ", nofold_flags = ");
      put_list(&B->b, nofold, d->noperands);
    }
    const char *cb = copy_back[pick(&B->rng, 3)];
    if (cb)
      put(&B->b, ", copy_back_op = \"%s\"", cb);
    put(&B->b, "} : (%s) -> (%s, %s, %s)\n", ANY, ANY, ANY, ANY);
  }
  return n > 0;
}

/* Tile the last linalg op of each function (its result, as a rule) and
 * fuse its producers into the loops greedily.  Its parallel loops only:
 * fused into a loop over a reduction dim, the linalg.fill of the init
 * starts the accumulator again in every tile (docs/findings/mlir.md #30,
 * llvm/llvm-project#58398, open since 2022).  The sizes are drawn as for
 * any loop, then a reduction dim's set to 0, so that the draws after them
 * stay what they were. */
static bool fuse(Build *B) {
  int n = 0;
  for (int i = 0; i < B->p->n; i++) {
    const SOp *d = &B->p->op[i];
    bool last = i + 1 == B->p->n || !mlirOperationEqual(B->p->op[i + 1].func, d->func);
    bool back = false; /* a producer it may fuse reads backwards (has_loops) */
    for (int j = 0; j < B->p->n; j++)
      back |= B->p->op[j].backward && mlirOperationEqual(B->p->op[j].func, d->func);
    if (!last || d->nloops < 1 || back)
      continue;
    int64_t t[MAX_LOOPS];
    int k, nz = tile_sizes(B, d, false, t, &k);
    for (int j = 0; j < k; j++)
      if (d->red[j] && t[j])
        t[j] = 0, nz--;
    if (!nz)
      continue;
    put(&B->b, "    %%t%d, %%l%d:%d = transform.structured.fuse %%op#%d tile_sizes ", i, i, nz, i);
    put_list(&B->b, t, k);
    if (k > 1 && pick(&B->rng, 2)) {
      int64_t perm[MAX_LOOPS];
      for (int j = 0; j < k; j++)
        perm[j] = j;
      for (int j = k - 1; j > 0; j--) {
        int r = pick(&B->rng, j + 1);
        int64_t x = perm[j];
        perm[j] = perm[r], perm[r] = x;
      }
      put(&B->b, " interchange ");
      put_list(&B->b, perm, k);
    }
    put(&B->b, "%s : (%s) -> ", pick(&B->rng, 2) ? " {apply_cleanup}" : "", ANY);
    put_handles(&B->b, 1 + nz);
    put(&B->b, "\n");
    n++;
  }
  return n > 0;
}

/* Tile the chosen ops, vectorize, then hoist what is invariant out of the
 * loops (LICM, then loop-invariant subsets: transfers and slices on
 * tensors). */
static bool hoist(Build *B) {
  int ops[MAX_PICKED], n = choose(B, has_loops, ops);
  for (int k = 0; k < n; k++)
    tile_op(B, ops[k], false);
  if (!n)
    return false;
  if (!B->p->i1 && pick(&B->rng, 2))
    vectorize_plain(B, false);
  match_inside(B, match_funcs(B, "f"), "f", "loops", "ops{[\"scf.for\"]}");
  put(&B->b, "    transform.apply_licm to %%loops : %s\n", ANY);
  put(&B->b, "    transform.loop.hoist_loop_invariant_subsets %%loops : %s\n", ANY);
  return true;
}

static bool body(Build *B, MlsSched kind) {
  int ops[MAX_PICKED], n;
  switch (kind) {
  case MLS_SCHED_TILE_FOR:
  case MLS_SCHED_TILE_FORALL:
    n = choose(B, kind == MLS_SCHED_TILE_FOR ? has_loops : has_parallel, ops);
    for (int k = 0; k < n; k++)
      tile_op(B, ops[k], kind == MLS_SCHED_TILE_FORALL);
    return n > 0;
  case MLS_SCHED_FUSE: return fuse(B);
  case MLS_SCHED_PAD: return pad(B);
  case MLS_SCHED_VECTORIZE: return vectorize_plain(B, true);
  case MLS_SCHED_VECTORIZE_MASKED: return vectorize_masked(B);
  case MLS_SCHED_VECTOR_LOWER:
    if ((pick(&B->rng, 2) || !vectorize_masked(B)) && !vectorize_plain(B, true))
      return false;
    vector_lowering(B);
    return true;
  case MLS_SCHED_HOIST: return hoist(B);
  default: return false;
  }
}

/* ------------------------------------------------------------- the API */

const char *mls_sched_name(MlsSched kind) {
  static const char *const names[] = {"tile-for",  "tile-forall",      "fuse",         "pad",
                                      "vectorize", "vectorize-masked", "vector-lower", "hoist"};
  return (unsigned)kind < MLS_SCHED_COUNT ? names[kind] : "?";
}

bool mls_sched_leaves_vectors(MlsSched kind) {
  return kind != MLS_SCHED_TILE_FOR && kind != MLS_SCHED_FUSE && kind != MLS_SCHED_PAD;
}

void mls_schedule_pipeline(const char *path, char *out, size_t cap) {
  snprintf(out, cap,
           "builtin.module(transform-preload-library{transform-library-paths=%s},"
           "transform-interpreter)",
           path);
}

char *mls_schedule(MlsSession *s, MlsModule *m, MlsSched kind, uint64_t seed, char *why,
                   size_t len) {
  (void)s;
  Payload *p = mls_alloc(sizeof *p);
  mlirOperationWalk(mlirModuleGetOperation(m->mod), collect, p, MlirWalkPostOrder);
  mlirOperationWalk(mlirModuleGetOperation(m->mod), scan_ops, p, MlirWalkPostOrder);
  Build B = {.p = p, .rng = seed ^ (uint64_t)kind * 0x9e3779b97f4a7c15ull};
  char *script = NULL;
  if (!p->n || p->overflow) {
    snprintf(why, len, p->n ? "more than %d linalg ops" : "no linalg op", MAX_OPS);
    free(p);
    return NULL;
  }
  put(&B.b,
      "module attributes {transform.with_named_sequence} {\n"
      "  transform.named_sequence @__transform_main(%%root: %s {transform.readonly}) {\n",
      ANY);
  match_inside(&B, match_funcs(&B, "fn"), "fn", "ops", "interface{LinalgOp}");
  put(&B.b, "    %%op:%d = transform.split_handle %%ops : (%s) -> ", p->n, ANY);
  put_handles(&B.b, p->n);
  put(&B.b, "\n");
  if (body(&B, kind)) {
    put(&B.b, "    transform.yield\n  }\n}\n");
    script = B.b.p;
  } else {
    snprintf(why, len, "no linalg op fits a %s schedule", mls_sched_name(kind));
    free(B.b.p);
  }
  free(p);
  return script;
}

MlsStatus mls_apply_schedule(MlsSession *s, MlsModule *m, const char *script, const char *stage) {
  mls_begin(s, m, "schedule %.200s", script);
  MlirOperation lib = mlirOperationCreateParse(s->ctx, mlirStringRefCreateFromCString(script),
                                               mlirStringRefCreateFromCString("transform.mlir"));
  if (mlirOperationIsNull(lib)) {
    if (!s->diag.len)
      mls_error(s, "the schedule does not parse");
    return MLS_BAD_PIPELINE;
  }
  MlirSymbolTable table = mlirSymbolTableCreate(lib);
  MlirOperation entry =
      mlirSymbolTableLookup(table, mlirStringRefCreateFromCString("__transform_main"));
  mlirSymbolTableDestroy(table);
  MlsStatus st = MLS_OK;
  if (mlirOperationIsNull(entry)) {
    mls_error(s, "the schedule has no @__transform_main");
    st = MLS_BAD_PIPELINE;
  } else {
    MlirTransformOptions opt = mlirTransformOptionsCreate();
    MlirLogicalResult r =
        mlirTransformApplyNamedSequence(mlirModuleGetOperation(m->mod), entry, lib, opt);
    mlirTransformOptionsDestroy(opt);
    if (mlirLogicalResultIsFailure(r)) {
      if (!s->diag.len)
        mls_error(s, "the schedule failed without a diagnostic");
      st = MLS_FAILED;
    }
  }
  mlirOperationDestroy(lib);
  if (st == MLS_OK)
    mls_observed(s, m, stage);
  return st;
}
