/*
 * translate_int.h - what the files of the relayc -> MLIR translator share;
 * not part of its API (translate.h).  One prefix per role:
 *
 *   buf_*     text: a growing string and MLIR literals (text.c)
 *   mty_*     types: MLIR type names, tensor types and their shapes
 *   fn_*      the function being emitted: SSA names, lines, memo (emit.c)
 *   emit_*    emitters: write MLIR operations, return the value (emit.c,
 *             the generic forms and constants; emit_<family>.c, one file
 *             per operator family as in compiler/ops)
 *   attr_*    reading an operator's attributes
 *   accept_*  guards: does the translator take this (accept.c)
 *
 * translate.c is the driver: functions, let, if, calls of globals and the
 * dispatch of operator calls to the family emitters.
 */
#ifndef RS_MLIR_TRANSLATE_INT_H
#define RS_MLIR_TRANSLATE_INT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "compiler/ir/ptrmap.h"
#include "translate.h"

/* ------------------------------------------------------ text (text.c) */

/* A growing string. */
typedef struct Buf {
  char *s;
  size_t n, cap;
} Buf;

/* Append printf-style text to b. */
void buf_vput(Buf *b, const char *fmt, va_list ap);
void buf_put(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Insert s at offset at. */
void buf_insert(Buf *b, size_t at, const char *s);
/* "tensor<2x3xf32>" (rank 0: "tensor<f32>") into b. */
void buf_tensor_type(Buf *b, DType dt, int rank, const int64_t *shape);
/* The same with the dims in mask `?` too. */
void buf_dyn_type(Buf *b, DType dt, int rank, const int64_t *shape, uint32_t mask);
/* One element as an exact MLIR literal (f for floats, i otherwise). */
void buf_elem(Buf *b, DType dt, double f, int64_t i);
/* The number v (an integer value for integer dtypes) as an element. */
void buf_number(Buf *b, DType dt, double v);
/* "dense<...> : tensor<...>" for x. */
void buf_dense(Buf *b, const Tensor *x);
/* The MLIR element type of a dtype ("f32"). */
const char *mty_elem(DType dt);

/* -------------------------------------------------------------- values */

/* A translated expression: a tensor (one SSA value) or a tuple of Vals.
 * Shape operands (!tosa.shape) are Vals without a tensor type. */
typedef struct Val Val;
struct Val {
  int n;            /* -1: a single value; else a tuple of n fields */
  Val **f;          /* the fields of a tuple */
  char *name;       /* "%7", "%x_7", "%7#1" */
  const char *hint; /* the name's prefix, NULL for a plain number */
  int id;           /* its number */
  const Type *type; /* tensor type; NULL for a shape */
  const Tensor *k;  /* the value of a constant, else NULL */
  char *ty;         /* the type as MLIR text */
  int level;        /* region depth of the definition */
  uint32_t dyn;     /* the dims that are `?` in ty (type has them static) */
};

/* A value used inside a region but defined outside it: the region's
 * block argument for it, one per branch. */
typedef struct Cap {
  Val *outer;
  Val *inner[2];
} Cap;

/* The body of a function (level 0) or of a branch of a tosa.cond_if. */
typedef struct Region {
  Buf body[2];   /* level 0 uses body[0] */
  int branch;    /* 0: then, 1: else */
  bool isolated; /* a tosa.cond_if's: outside values come in as block args */
  Cap *cap;
  int ncap, capcap;
} Region;

/* A remembered translation: of an expression (shared nodes are translated
 * once per region), of a let variable, or of a constant's text. */
typedef struct Memo {
  const void *key;
  const char *text; /* constants: the literal; else NULL */
  Val *v;
  int level;
} Memo;

enum { MAX_LEVEL = 64 };

typedef struct Tr Tr;

/* One function being emitted. */
typedef struct Fn {
  Tr *t;
  Region *reg[MAX_LEVEL];
  int level;
  Memo *memo;
  int nmemo, capmemo;
  Val *last;      /* the last single value defined ... */
  size_t last_at; /* ... and where its name starts in the current body */
} Fn;

/* The module being translated. */
struct Tr {
  Arena *a;
  const Module *m;
  int next;            /* SSA numbers, module-wide so names never clash */
  Buf funcs;           /* the private functions emitted so far */
  PtrMap done;         /* GlobalFn -> its Emitted record once emitted */
  char skip[256];      /* why not, when accept_module() or the emission refuses */
  bool refused;        /* the emission refused (t->skip says why): the text is void */
  bool static_only;    /* MltOptions.static_shapes: no `?` anywhere */
  uint64_t dyn_params; /* MltOptions.dyn_params */
  int ndyn;            /* values defined with a `?` dim */
  bool linalg;         /* MltOptions.linalg: the linalg road (linalg.c) */
};

/* Refuse the module while emitting it (the first reason is kept). */
void tr_refuse(Tr *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ------------------------------------------------------ types (emit.c) */

/* The tensor type dt[shape], in the translation's arena. */
Type *mty_tensor(Fn *f, DType dt, int rank, const int64_t *shape);
/* t with another dtype. */
Type *mty_retype(Fn *f, const Type *t, DType dt);
/* Tensor type t as MLIR text. */
char *mty_text(Fn *f, const Type *t);
/* Tensor type t as MLIR text with the dims in mask dynamic (`?`). */
char *mty_text_dyn(Fn *f, const Type *t, uint32_t mask);
/* Whether t has an Any dim (tuples included). */
bool mty_has_any(const Type *t);
/* The dims of tensor type t that are Any (none when the translation is
 * static). */
uint32_t mty_any_mask(const Tr *t, const Type *ty);

/* The rank, shape and dtype of a tensor value. */
static inline int mty_rank(const Val *v) {
  return v->type->tensor.rank;
}
static inline const int64_t *mty_shape(const Val *v) {
  return v->type->tensor.shape;
}
static inline DType mty_dtype(const Val *v) {
  return v->type->tensor.dtype;
}
/* Whether two shapes are the same. */
static inline bool mty_same_shape(int ra, const int64_t *a, int rb, const int64_t *b) {
  return ra == rb && memcmp(a, b, sizeof *a * (size_t)ra) == 0;
}

/* ---------------------------------------------- the function (emit.c) */

/* A new value of tensor type t (shape values: t NULL, ty given). */
Val *fn_fresh(Fn *f, const Type *t, const char *ty, const char *hint);
/* The text of the current region's branch. */
Buf *fn_body(Fn *f);
/* Start a line of the current body. */
void fn_line(Fn *f);
/* Start the line defining a new value: "  %7 = ". */
Val *fn_def(Fn *f, const Type *t, const char *ty);
/* The same for a tensor of static type t whose dims in mask are `?`. */
Val *fn_def_dyn(Fn *f, const Type *t, uint32_t mask);
/* v with the dims in mask `?` and the others static: v itself, or a
 * tensor.cast of it (once per region). */
Val *fn_cast(Fn *f, Val *v, uint32_t mask);
/* v with every dim static (tuples field by field): what an emitter that
 * needs static shapes takes. */
Val *fn_static(Fn *f, Val *v);
/* Append printf-style text to the current body. */
void fn_out(Fn *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The name to use for v here (captured into isolated regions). */
const char *fn_use(Fn *f, Val *v);
/* Remember that key (or, for constants, text) was translated to v. */
void fn_remember(Fn *f, const void *key, const char *text, Val *v);
/* What key (or text) was translated to, if usable here; else NULL. */
Val *fn_recall(Fn *f, const void *key, const char *text);

/* --------------------------------- constants and generic forms (emit.c) */

/* A constant of type t with literal text lit, once per region. */
Val *emit_literal(Fn *f, const char *lit, const Type *t);
/* The constant x. */
Val *emit_const(Fn *f, const Tensor *x);
/* A tensor of type t holding v everywhere. */
Val *emit_fill(Fn *f, const Type *t, double v);
/* A scalar v of dtype dt shaped 1x..x1 with the given rank. */
Val *emit_splat(Fn *f, DType dt, int rank, double v);
/* tensor<1xT> zero: the zero points of TOSA's operations. */
Val *emit_zero_point(Fn *f, DType dt);
/* A !tosa.shape<n> constant. */
Val *emit_shape_value(Fn *f, int n, const int64_t *v);
/* "%r = tosa.OP %a, %b {ATTRS} : (A, B) -> R", and with 1, 2, 3 operands. */
Val *emit_tosa(Fn *f, const char *op, const char *attrs, const Type *rt, int n, Val *const *a);
Val *emit_tosa1(Fn *f, const char *op, Val *x, const Type *rt);
Val *emit_tosa2(Fn *f, const char *op, Val *x, Val *y, const Type *rt);
Val *emit_tosa3(Fn *f, const char *op, Val *x, Val *y, Val *z, const Type *rt);
/* "%r = OP %a, %b : T": arith and math operations on tensors of one type. */
Val *emit_arith(Fn *f, const char *op, int n, Val *const *a);
/* An arith elementwise conversion (arith.truncf, ...) of x to dtype dt. */
Val *emit_convert(Fn *f, const char *op, Val *x, DType dt);
/* "%r = linalg.NAME {ATTRS} ins(%a, %b) outs(%init)". */
Val *emit_linalg(Fn *f, const char *op, const char *attrs, Val *x, Val *y, Val *init);

/* An int or int-list attribute: its values and count (-1 when absent or
 * None). */
int attr_ints(const Attrs *at, const char *name, const int64_t **v);
/* The axes a reduction's attributes select for a rank-`rank` input, as a
 * bit mask (None or [] is every axis; exclude inverts). */
uint32_t attr_reduce_axes(const Attrs *at, int rank);
/* A conv's or pool's window (emit_nn.c): kernel, strides, dilations and
 * the padding before (lo) and after (hi) along H and W. */
typedef struct Win {
  int64_t k[2], s[2], d[2], lo[2], hi[2];
} Win;
/* The window of the attributes for the given kernel (nn.c's rd_window;
 * padding has 1, 2 or 4 values). */
Win attr_window(const Attrs *at, const int64_t *kernel);
/* The padded extent output extent o needs along axis i: (o - 1) * s + dk. */
int64_t attr_win_need(const Win *w, int i, int64_t o);
/* "{dilations = dense<..>, strides = dense<..>}" for linalg's
 * convolutions and poolings. */
char *attr_linalg_window(Fn *f, const Win *w);
/* strided_slice's begin and step per axis of an input of the given dims
 * (shape.c's slice_plan; the sizes are the result type's). */
void attr_slice_begin_step(const Attrs *at, int rank, const int64_t *dims, int64_t *begin,
                           int64_t *step);
/* An axis in [-rank, rank) made non-negative. */
static inline int attr_axis(int64_t a, int rank) {
  return (int)(a < 0 ? a + rank : a);
}

/* ------------------------------------- shapes (emit_shape.c): blocks */

/* x reshaped (same elements, row-major) to the given shape. */
Val *emit_reshape(Fn *f, Val *x, int rank, const int64_t *shape);
/* x with leading unit dims up to the given rank. */
Val *emit_align(Fn *f, Val *x, int rank);
/* x broadcast to exactly the given shape. */
Val *emit_expand(Fn *f, Val *x, int rank, const int64_t *shape);
/* x with its dims permuted: result dim i is x's dim perm[i]. */
Val *emit_transpose(Fn *f, Val *x, const int *perm);
/* The block of x starting at start with the given sizes. */
Val *emit_slice(Fn *f, Val *x, const int64_t *start, const int64_t *size);
/* xs[0..n) joined along axis. */
Val *emit_concat(Fn *f, int n, Val **xs, int axis);
/* x reversed along axis. */
Val *emit_reverse(Fn *f, Val *x, int axis);
/* x padded by lo[i] before and hi[i] after dim i with the constant v. */
Val *emit_pad(Fn *f, Val *x, const int64_t *lo, const int64_t *hi, double v);
/* The bool mask, shaped like emit_pad's result, that is true where x is. */
Val *emit_pad_mask(Fn *f, Val *x, const int64_t *lo, const int64_t *hi);

/* ---------------------------------------- elementwise (emit_elemwise.c) */

/* A broadcasting TOSA binary operation: with the operands' dtype; a
 * comparison (bool). */
Val *emit_bin(Fn *f, const char *op, Val *x, Val *y);
Val *emit_cmp(Fn *f, const char *op, Val *x, Val *y);
/* x * y, broadcasting. */
Val *emit_mul(Fn *f, Val *x, Val *y);
/* c ? x : y, broadcasting all three. */
Val *emit_select(Fn *f, Val *c, Val *x, Val *y);
/* The logical not of bool x. */
Val *emit_not(Fn *f, Val *x);
/* The scalar v of x's dtype, aligned to x's rank. */
Val *emit_scalar_like(Fn *f, const Val *x, double v);
/* x != x: true at NaNs. */
Val *emit_is_nan(Fn *f, Val *x);
/* x converted to dtype `to` with relayc's cast semantics. */
Val *emit_cast(Fn *f, Val *x, DType to);
/* min(max(x, lo), hi) for integers. */
Val *emit_clamp_int(Fn *f, Val *x, int64_t lo, int64_t hi);

/* -------------------------------------- reductions (emit_reduce.c) */

/* x reduced with tosa.reduce_OP over each axis in mask in turn. */
Val *emit_reduce_each(Fn *f, const char *op, Val *x, uint32_t mask);
/* x reduced over mask by linalg.reduce into dtype acc from init (each
 * element extended to acc first), combined with `combine` (arith.addf,
 * ...); the result has the kept dims. */
Val *emit_linalg_reduce(Fn *f, Val *x, uint32_t mask, DType acc, double init, const char *combine);
/* The float sum (mean) of x over mask accumulated in double, kept as 1s. */
Val *emit_float_sum(Fn *f, Val *x, uint32_t mask, bool mean);

/* ------------------------------------------- the families' emitters */

/* The translation of a call of operator op of the family the file names
 * on translated arguments (x, y or a), attributes at and result type rt. */
Val *emit_unary(Fn *f, OpId op, Val *x, const Attrs *at, const Type *rt);
Val *emit_broadcast(Fn *f, OpId op, Val *x, Val *y, const Type *rt);
Val *emit_reduction(Fn *f, OpId op, Val *x, const Attrs *at, const Type *rt);
Val *emit_shape(Fn *f, OpId op, Val **a, const Attrs *at, const Type *rt);
Val *emit_index(Fn *f, OpId op, Val **a, const Attrs *at, const Type *rt);
/* [B, M, K] x [B, K, N] -> [B, M, N] (emit_nn.c). */
Val *emit_matmul(Fn *f, Val *x, Val *y);
/* nn.conv2d of NCHW x and OIHW weights wt with conv2d's attributes at,
 * result type rt (emit_nn.c). */
Val *emit_conv2d(Fn *f, Val *x, Val *wt, const Attrs *at, const Type *rt);
/* A road's nn.conv2d of NCHW x and OIHW weights (emit_conv2d, ...). */
typedef Val *ConvFn(Fn *f, Val *x, Val *wt, const Attrs *at, const Type *rt);
/* A road's transpose (emit_transpose, ...). */
typedef Val *TransposeFn(Fn *f, Val *x, const int *perm);
/* nn.conv2d in the layouts its attributes name: x and wt transposed to
 * NCHW and OIHW, conv on them, its result transposed back to the data
 * layout (emit_nn.c). */
Val *emit_conv2d_layouts(Fn *f, Val *x, Val *wt, const Attrs *at, const Type *rt, ConvFn *conv,
                         TransposeFn *transpose);
/* emit_nn.c: matmul, conv, pool and nn: the call e itself (nn.pad reads
 * whether its value is a constant), rt its static result type. */
Val *emit_nn(Fn *f, const Expr *e, Val **a, const Type *rt);
/* emit_extra.c: the operators of relayc's later families (binary.c,
 * math.c, stats.c, nn2.c, ...), as emit_nn. */
Val *emit_extra(Fn *f, const Expr *e, Val **a, const Type *rt);

/* ---------------------------------------------------- guards (accept.c) */

/* The emitter that lowers an operator (lowers.def's family column);
 * MLF_NONE: the operator has no lowering. */
typedef enum MltFamily {
  MLF_NONE,
  MLF_UNARY,      /* emit_unary */
  MLF_BROADCAST,  /* emit_broadcast */
  MLF_WHERE,      /* emit_select */
  MLF_EXTRA_ELEM, /* emit_extra, elementwise: dynamic operands as they are */
  MLF_REDUCE,     /* emit_reduction */
  MLF_SHAPE,      /* emit_shape */
  MLF_INDEX,      /* emit_index */
  MLF_NN,         /* emit_nn */
  MLF_EXTRA,      /* emit_extra */
} MltFamily;

/* Operator op's row of lowers.def: its family (MLF_NONE: no lowering). */
MltFamily accept_family(OpId op);

/* Whether the translator takes @main (NULL: there is none) and every
 * global it reaches; false with the reason in t->skip. */
bool accept_module(Tr *t, GlobalFn *main);

/* ------------------------------------------- the linalg road (linalg.c) */

/* Whether the linalg road takes every operator @main reaches (after
 * accept_module); false with the reason in t->skip. */
bool lin_accept(Tr *t, GlobalFn *main);
/* Operator call e on the linalg road: static arguments a, static result
 * type rt. */
Val *lin_emit_op(Fn *f, const Expr *e, Val **a, const Type *rt);

#endif
