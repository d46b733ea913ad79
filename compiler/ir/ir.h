/*
 * ir.h - relayc's intermediate representation: arenas, diagnostics, types,
 * tensors, attributes, expressions, patterns and modules.
 *
 * Everything a module owns lives in its arena and is freed by one call to
 * ir_module_free().  Expressions form a DAG: a pure subexpression may be
 * referenced from several places (a graph binding); every other node has
 * exactly one parent.  Variables are identified by pointer; their names are
 * only hints for the printer.
 *
 * Dependencies: this module depends on nothing else in relayc.  It expands
 * compiler/ops/ops.def only for operator names and attribute schemas; the
 * operator functions themselves live in compiler/ops.
 */
#ifndef RELAYC_IR_H
#define RELAYC_IR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------------------------- arena */

/* A bump allocator.  All memory is zeroed and 16-byte aligned; nothing is
 * freed individually; arena_free releases everything in one call. */
typedef struct Arena Arena;

Arena *arena_new(void);
void arena_free(Arena *a);
void *arena_alloc(Arena *a, size_t n);
char *arena_strdup(Arena *a, const char *s);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_printf(Arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
size_t arena_used(const Arena *a); /* bytes handed out, for statistics */

#define ARENA_NEW(a, T) ((T *)arena_alloc((a), sizeof(T)))
#define ARENA_ARRAY(a, T, n) ((T *)arena_alloc((a), sizeof(T) * (size_t)(n)))

/* ---------------------------------------------------------- diagnostics */

/* A list of error messages.  Library code never prints and never exits: it
 * records errors here and returns failure.  Each message is rendered as
 *     file:line:col: error: message
 *     <the source line>
 *         ^
 * when the source text is known, and as "error: message" otherwise. */
typedef struct Diag {
  const char *file; /* name used in messages; "<input>" when NULL */
  const char *src;  /* source text for the line excerpt, or NULL */
  char *text;       /* all messages so far, NUL-terminated (malloc'd) */
  size_t len, cap;
  int count;       /* number of errors recorded */
  int line, col;   /* position of the first error (0 when unknown) */
  char first[256]; /* the first error's message alone, without position */
} Diag;

void diag_init(Diag *d, const char *file, const char *src);
void diag_error(Diag *d, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void diag_verror(Diag *d, int line, int col, const char *fmt, va_list ap);
void diag_reset(Diag *d); /* forget messages, keep file and src */
void diag_free(Diag *d);

/* ------------------------------------------------------------- dtypes */

#define IR_DTYPES(X)                                                                               \
  X(BOOL, "bool", 1, uint8_t)                                                                      \
  X(INT8, "int8", 1, int8_t)                                                                       \
  X(INT32, "int32", 4, int32_t)                                                                    \
  X(INT64, "int64", 8, int64_t)                                                                    \
  X(FLOAT32, "float32", 4, float)                                                                  \
  X(FLOAT64, "float64", 8, double)                                                                 \
  X(INT16, "int16", 2, int16_t)                                                                    \
  X(UINT8, "uint8", 1, uint8_t)                                                                    \
  X(UINT16, "uint16", 2, uint16_t)                                                                 \
  X(UINT32, "uint32", 4, uint32_t)                                                                 \
  X(UINT64, "uint64", 8, uint64_t)                                                                 \
  X(FLOAT16, "float16", 2, uint16_t)                                                               \
  X(BFLOAT16, "bfloat16", 2, uint16_t)

typedef enum DType {
#define X(id, name, size, ctype) DT_##id,
  IR_DTYPES(X)
#undef X
      DT_COUNT
} DType;

const char *ir_dtype_name(DType dt);
int ir_dtype_size(DType dt);
/* Rows are only ever appended: generated programs draw dtypes by their
 * position.  float16 and bfloat16 are stored as their 16-bit patterns. */
bool ir_dtype_is_float(DType dt);
bool ir_dtype_is_int(DType dt);      /* signed and unsigned integers (not bool) */
bool ir_dtype_is_unsigned(DType dt); /* uint8, uint16, uint32, uint64 */
/* The largest finite value of a float dtype. */
double ir_dtype_float_max(DType dt);
bool ir_dtype_parse(const char *name, size_t len, DType *out);

/* ---------------------------------------------------------------- types */

enum { IR_MAX_RANK = 6 };

typedef enum TypeKind {
  TY_TENSOR,     /* Tensor[(d0, ..), dtype]; rank 0 is a scalar; dims >= 0 or Any */
  TY_TUPLE,      /* (t0, t1, ..); the empty tuple is unit */
  TY_FUNC,       /* fn[tvars](params) -> ret */
  TY_REF,        /* Ref[t] */
  TY_ADT,        /* an applied type definition, e.g. List[Tensor[(), int32]] */
  TY_VAR,        /* a type parameter bound by a function type or typedef */
  TY_INCOMPLETE, /* an unknown solved by inference; `_` in text */
} TypeKind;

typedef struct TypeDef TypeDef;
typedef struct Type Type;

struct Type {
  TypeKind kind;
  union {
    struct {
      DType dtype;
      int rank;
      int64_t shape[IR_MAX_RANK];
    } tensor;
    struct {
      int n;
      Type **fields;
    } tuple;
    struct {
      int ntvars;
      Type **tvars; /* each TY_VAR */
      int nparams;
      Type **params;
      Type *ret;
    } func;
    struct {
      Type *inner;
    } ref;
    struct {
      TypeDef *def;
      int nargs; /* == def->ntvars */
      Type **args;
    } adt;
    struct {
      const char *name;
    } var; /* identified by pointer */
    struct {
      int id; /* an inference variable; unique within one check */
    } incomplete;
  };
};

Type *ir_tensor_type(Arena *a, DType dt, int rank, const int64_t *shape);
Type *ir_scalar_type(Arena *a, DType dt);
Type *ir_tuple_type(Arena *a, int n, Type *const *fields);
Type *ir_func_type(Arena *a, int ntvars, Type *const *tvars, int nparams, Type *const *params,
                   Type *ret);
Type *ir_ref_type(Arena *a, Type *inner);
Type *ir_adt_type(Arena *a, TypeDef *def, int nargs, Type *const *args);
Type *ir_type_var(Arena *a, const char *name);
Type *ir_incomplete_type(Arena *a, int id);
Type *ir_unit_type(Arena *a);

/* A dynamic dimension (Relay's Any, `?` in text): a dim of a tensor type
 * whose extent only the run time knows.  Types only: a Tensor's shape is
 * always concrete.  Unification takes it as compatible with any dim
 * (TVM's UnifyDim); equality compares it as a dim value. */
#define IR_DIM_ANY ((int64_t)-1)
static inline bool ir_dim_is_any(int64_t d) {
  return d == IR_DIM_ANY;
}
/* Does a tensor type have an Any dim? */
bool ir_tensor_has_any(const Type *t);
/* Does t have an Any dim anywhere (fields, params, result, ref, ADT args)? */
bool ir_type_has_any(const Type *t);
/* Does the concrete shape fit t's dims: equal rank, and every static dim
 * equal (an Any dim fits any extent)? */
bool ir_shape_fits(const Type *t, int rank, const int64_t *shape);

int64_t ir_type_numel(const Type *t); /* elements of a tensor type (static dims) */
bool ir_type_is_scalar(const Type *t, DType dt);
/* Structural equality; type variables compare by pointer.  Incomplete
 * types compare by id. */
bool ir_type_equal(const Type *a, const Type *b);
/* ir_type_equal but a pair of tensor dims may differ where either is Any:
 * do a and b unify (tensor parts; no incomplete types bound)? */
bool ir_type_unifies(const Type *a, const Type *b);
/* Does t have no unknown part: no incomplete type anywhere in it (type
 * variables count as known), and no nesting deeper than IR_MAX_NESTING?
 * NULL is not complete. */
bool ir_type_complete(const Type *t);
/* Substitute TY_VARs (by pointer) in t; returns t itself when untouched. */
Type *ir_type_subst(Arena *a, Type *t, int n, Type *const *from, Type *const *to);
/* Deep copy into another arena (typedef pointers are kept). */
Type *ir_type_copy(Arena *a, const Type *t);

/* -------------------------------------------------------------- tensors */

/* A dense, row-major tensor.  data holds numel elements of the dtype's C
 * type (bool as uint8_t 0/1).  Constants and interpreter values use it. */
typedef struct Tensor {
  DType dtype;
  int rank;
  int64_t shape[IR_MAX_RANK];
  int64_t numel;
  void *data;
} Tensor;

Tensor *ir_tensor_new(Arena *a, DType dt, int rank, const int64_t *shape);
Tensor *ir_tensor_of_type(Arena *a, const Type *tensor_type);
Tensor *ir_tensor_scalar_f64(Arena *a, DType dt, double v);
Type *ir_tensor_type_of(Arena *a, const Tensor *t);
double ir_tensor_get_f64(const Tensor *t, int64_t i); /* any dtype; float16 exactly */
/* An integer element as its two's complement bits (a uint64 above
 * INT64_MAX reads negative); a float saturates into int64. */
int64_t ir_tensor_get_i64(const Tensor *t, int64_t i);
/* An integer element as an unsigned value modulo 2^64 (an int's bits); a
 * float saturates into [0, 2^64 - 1], NaN to 0. */
uint64_t ir_tensor_get_u64(const Tensor *t, int64_t i);
/* Store v converted with the interpreter's defined cast semantics: into a
 * float the nearest value (ties to even, overflow to inf), into an int
 * saturated (NaN to 0) from a float and wrapped from an int, into bool
 * v != 0.  set_i64 takes a signed value, set_u64 an unsigned one. */
void ir_tensor_set_f64(Tensor *t, int64_t i, double v);
void ir_tensor_set_i64(Tensor *t, int64_t i, int64_t v);
void ir_tensor_set_u64(Tensor *t, int64_t i, uint64_t v);
/* Store element i of src into element j of dst converted as cast converts
 * (docs/operators.md, "cast"): each conversion rounds or wraps once. */
void ir_tensor_convert(const Tensor *src, int64_t i, Tensor *dst, int64_t j);
/* Bitwise equality of dtype, shape and contents (so NaN == NaN, -0 != 0). */
bool ir_tensor_identical(const Tensor *a, const Tensor *b);
uint64_t ir_tensor_hash(const Tensor *t);

/* Defined conversions (docs/operators.md: float->int saturates, NaN -> 0). */
int64_t ir_sat_f64_to_int(double v, DType to);
int64_t ir_wrap_int(int64_t v, DType to); /* two's complement wrap */
/* v rounded to float dtype dt (nearest, ties to even, overflow to inf, a
 * NaN stays NaN), as a double; float64: v. */
double ir_round_float(DType dt, double v);
/* The 16-bit pattern of v rounded to float16 or bfloat16 (dt), directly
 * from the double (never through float32: that would round twice); a NaN
 * keeps the top of its payload and is quieted. */
uint16_t ir_half_from_f64(DType dt, double v);
/* The same from a signed or an unsigned 64-bit integer, rounded once. */
uint16_t ir_half_from_i64(DType dt, int64_t v);
uint16_t ir_half_from_u64(DType dt, uint64_t v);
/* The exact value of a float16 or bfloat16 pattern (a NaN's payload kept). */
double ir_half_to_f64(DType dt, uint16_t bits);

/* ----------------------------------------------------------- attributes */

/* Operator attributes, as named values.  Which names an operator accepts is
 * given by its schema string in ops.def ("axis:ints?, keepdims:bool").
 * Attributes are kept in the order they were written; builders write them
 * in schema order. */
typedef enum AttrKind {
  AV_NONE,  /* None (an optional attribute left unset explicitly) */
  AV_INT,   /* 3 */
  AV_FLOAT, /* 1.5f */
  AV_BOOL,  /* True / False */
  AV_STR,   /* "int32" */
  AV_INTS,  /* [1, 2, 3] */
  AV_PAIRS, /* [[0, 0], [1, 1]]; n counts pairs, ints has 2n entries */
} AttrKind;

typedef struct Attr {
  const char *name;
  AttrKind kind;
  int64_t i;     /* AV_INT, AV_BOOL */
  double f;      /* AV_FLOAT */
  const char *s; /* AV_STR */
  int n;         /* AV_INTS: count; AV_PAIRS: count of pairs */
  int64_t *ints;
} Attr;

typedef struct Attrs {
  int n;
  Attr *items;
} Attrs;

const Attr *ir_attr_get(const Attrs *at, const char *name);
/* Typed getters: return dflt when absent or None. */
int64_t ir_attr_int(const Attrs *at, const char *name, int64_t dflt);
double ir_attr_float(const Attrs *at, const char *name, double dflt);
bool ir_attr_bool(const Attrs *at, const char *name, bool dflt);
const char *ir_attr_str(const Attrs *at, const char *name, const char *dflt);
/* Append (or replace) an attribute; values are copied into the arena. */
void ir_attr_set_int(Arena *a, Attrs *at, const char *name, int64_t v);
void ir_attr_set_float(Arena *a, Attrs *at, const char *name, double v);
void ir_attr_set_bool(Arena *a, Attrs *at, const char *name, bool v);
void ir_attr_set_str(Arena *a, Attrs *at, const char *name, const char *v);
void ir_attr_set_ints(Arena *a, Attrs *at, const char *name, int n, const int64_t *v);
void ir_attr_set_pairs(Arena *a, Attrs *at, const char *name, int npairs, const int64_t *v);
void ir_attr_set_none(Arena *a, Attrs *at, const char *name);
bool ir_attrs_equal(const Attrs *x, const Attrs *y);
Attrs ir_attrs_copy(Arena *a, const Attrs *at);

/* ------------------------------------------------------------ operators */

/* Operator ids, expanded from ops.def.  Only names and schemas are known
 * here; relations, solvers and kernels are in compiler/ops/op.h. */
typedef enum OpId {
#define OP(id, name, family, pattern, schema, sem, rel, rec, solve, sample, kernel) OP_##id,
#include "compiler/ops/ops.def"
#undef OP
  OP_COUNT
} OpId;

/* Sets of operators are bit masks of OP_WORDS 64-bit words: operator op
 * is bit op % 64 of word op / 64. */
#define OP_WORDS ((OP_COUNT + 63) / 64)

const char *ir_op_name(OpId op);
const char *ir_op_schema(OpId op);
bool ir_op_lookup(const char *name, size_t len, OpId *out);

/* One attribute of an operator's schema ("axis:ints?"): its name and its
 * kind as written (neither NUL-terminated; the kind without the ?), and
 * whether a trailing ? allows None.  Kinds: int, ints, int|ints, float,
 * bool, str, pairs.  The parser and the relations read the schema strings
 * only through these functions. */
typedef struct AttrSpec {
  const char *name, *kind;
  int nlen, klen;
  bool optional;
} AttrSpec;

/* The i-th attribute of op's schema, counting from 0; false past the end. */
bool ir_op_attr_at(OpId op, int i, AttrSpec *spec);
/* The attribute of op called name (len bytes); false when op has none. */
bool ir_op_attr(OpId op, const char *name, size_t len, AttrSpec *spec);
/* Whether a value of kind k fits spec: None an optional attribute, an int
 * a float (the parser keeps 1 an int, so that builders' attributes
 * round-trip) and, only when int_as_bool, a bool (relations take the 0 or
 * 1 a builder may write; the text format wants True or False). */
bool ir_attr_fits(const AttrSpec *spec, AttrKind k, bool int_as_bool);
/* op's attribute names joined by ", ", or "none", in arena a (messages). */
const char *ir_op_attr_names(OpId op, Arena *a);

/* ---------------------------------------------------------- expressions */

typedef struct Expr Expr;
typedef struct Ctor Ctor;
typedef struct GlobalFn GlobalFn;

/* A variable.  annot is the written type annotation or NULL (erased). */
typedef struct Var {
  const char *name; /* hint without the %; may repeat across vars */
  Type *annot;
  int id;     /* unique within its module, for maps and printing */
  Type *type; /* set by type inference (ty_check_module), else NULL */
} Var;

typedef enum ExprKind {
  EX_VAR,       /* %x */
  EX_GLOBAL,    /* @f */
  EX_CONST,     /* a tensor constant */
  EX_TUPLE,     /* (a, b) */
  EX_PROJ,      /* t.0 */
  EX_LET,       /* let %x = v; body */
  EX_IF,        /* if (c) { t } else { e }; c is a scalar bool */
  EX_CALL,      /* op, constructor, or expression call */
  EX_FUNC,      /* fn (params) -> ret { body } */
  EX_REF_NEW,   /* ref(v) */
  EX_REF_READ,  /* ref_read(r) */
  EX_REF_WRITE, /* ref_write(r, v); type () */
  EX_MATCH,     /* match (e) { clauses } */
} ExprKind;

typedef enum CallKind {
  CALL_OP,   /* call.op with call.attrs */
  CALL_CTOR, /* call.ctor; fully applied */
  CALL_EXPR, /* call.callee: a var, global, function or any closure value */
} CallKind;

typedef enum PatKind {
  PAT_WILD,  /* _ */
  PAT_VAR,   /* %x */
  PAT_CTOR,  /* Cons(p0, p1) or Nil */
  PAT_TUPLE, /* (p0, p1) */
} PatKind;

typedef struct Pattern Pattern;
struct Pattern {
  PatKind kind;
  Var *var;   /* PAT_VAR */
  Ctor *ctor; /* PAT_CTOR */
  int n;      /* sub-patterns of PAT_CTOR and PAT_TUPLE */
  Pattern **sub;
};

typedef struct Clause {
  Pattern *pat;
  Expr *body;
} Clause;

struct Expr {
  ExprKind kind;
  int line, col; /* source position when parsed from text, else 0 */
  Type *type;    /* set by type inference (ty_check_module), else NULL */
  union {
    Var *var;         /* EX_VAR */
    GlobalFn *global; /* EX_GLOBAL */
    Tensor *constant; /* EX_CONST */
    struct {
      int n;
      Expr **fields;
    } tuple;
    struct {
      Expr *tuple;
      int index;
    } proj;
    struct {
      Var *var;
      Expr *value;
      Expr *body;
    } let;
    struct {
      Expr *cond, *then, *els;
    } if_;
    struct {
      CallKind kind;
      OpId op;      /* CALL_OP */
      Attrs attrs;  /* CALL_OP */
      Ctor *ctor;   /* CALL_CTOR */
      Expr *callee; /* CALL_EXPR */
      int nargs;
      Expr **args;
    } call;
    struct {
      int ntvars, nparams;
      Type **tvars; /* TY_VARs bound by a polymorphic function */
      Var **params;
      Type *ret; /* return annotation or NULL */
      Expr *body;
      /* Other attributes TVM writes (Compiler="c", global_symbol="f"),
       * kept opaque in written order, or NULL: printed back, preserved by
       * every pass that keeps the function, compared by alpha-equality. */
      const Attrs *attrs;
      bool primitive; /* Primitive=1: a fused kernel made by fuse_ops */
    } func;
    struct {
      Expr *value;
    } ref_new;
    struct {
      Expr *ref;
    } ref_read;
    struct {
      Expr *ref, *value;
    } ref_write;
    struct {
      Expr *scrut;
      int n;
      Clause *clauses;
      bool complete; /* false prints as match? */
    } match;
  };
};

/* --------------------------------------------------------------- modules */

/* A constructor of an algebraic data type. fields may mention the type
 * definition's type variables. */
struct Ctor {
  const char *name;
  TypeDef *def;
  int tag; /* index within def->ctors */
  int nfields;
  Type **fields;
};

/* type Name[A, B] { Ctor(fields..), .. } */
struct TypeDef {
  const char *name;
  int ntvars;
  Type **tvars;
  int nctors;
  Ctor **ctors;
  bool builtin; /* prelude type (List, Option, Tree): not printed */
};

/* def @name[tvars](params) -> ret { body }; func is an EX_FUNC. */
struct GlobalFn {
  const char *name; /* without the @ */
  Expr *func;       /* NULL while only referenced (parser forward refs) */
  bool is_inline;   /* carries the Inline=1 attribute */
};

typedef struct Module {
  Arena *arena;
  int nfuncs, capfuncs;
  GlobalFn **funcs; /* in definition order; main is usually last */
  int ntypes, captypes;
  TypeDef **types; /* the prelude types first */
  int next_var_id;
} Module;

/* A new module with the prelude types List[A] { Cons(A, List[A]), Nil },
 * Option[A] { Some(A), None } and Tree[A] { Rose(A, List[Tree[A]]) }. */
Module *ir_module_new(void);
void ir_module_free(Module *m); /* frees the arena and everything in it */

GlobalFn *ir_global_get(const Module *m, const char *name);
/* Returns the existing entry of that name or a new one with func NULL. */
GlobalFn *ir_global_intern(Module *m, const char *name);
void ir_global_remove(Module *m, GlobalFn *g);
TypeDef *ir_typedef_get(const Module *m, const char *name);
TypeDef *ir_typedef_add(Module *m, const char *name, int ntvars, const char *const *tvar_names);
Ctor *ir_ctor_add(Module *m, TypeDef *td, const char *name, int nfields, Type *const *fields);
Ctor *ir_ctor_get(const Module *m, const char *name);
/* The prelude types, for builders and generators; NULL when hidden. */
TypeDef *ir_list_def(const Module *m);
TypeDef *ir_option_def(const Module *m);
TypeDef *ir_tree_def(const Module *m);
/* Removes the prelude type named name[0..len), or the one with a
 * constructor of that name, and the prelude types that use it (Tree uses
 * List): a module that defines a prelude name uses its own definition. */
void ir_prelude_hide(Module *m, const char *name, size_t len);

/* ---------------------------------------------------------- the builder */

/* Expression constructors.  They allocate in the module's arena and leave
 * .type NULL.  Arrays passed in are copied. */
Var *ir_var(Module *m, const char *name, Type *annot);
/* ir_var without copying the name, which must outlive the module (a string
 * literal): generators make many variables. */
Var *ir_var_static(Module *m, const char *name, Type *annot);
Expr *ir_var_ref(Module *m, Var *v);
Expr *ir_global_ref(Module *m, GlobalFn *g);
Expr *ir_const(Module *m, Tensor *t);
Expr *ir_const_scalar(Module *m, DType dt, double v);
Expr *ir_tuple(Module *m, int n, Expr *const *fields);
Expr *ir_proj(Module *m, Expr *tuple, int index);
Expr *ir_let(Module *m, Var *v, Expr *value, Expr *body);
Expr *ir_if(Module *m, Expr *cond, Expr *then, Expr *els);
Expr *ir_call_op(Module *m, OpId op, int nargs, Expr *const *args, const Attrs *attrs);
Expr *ir_call_ctor(Module *m, Ctor *c, int nargs, Expr *const *args);
Expr *ir_call(Module *m, Expr *callee, int nargs, Expr *const *args);
Expr *ir_func(Module *m, int nparams, Var *const *params, Type *ret, Expr *body);
Expr *ir_ref_new(Module *m, Expr *v);
Expr *ir_ref_read(Module *m, Expr *r);
Expr *ir_ref_write(Module *m, Expr *r, Expr *v);
Expr *ir_match(Module *m, Expr *scrut, int n, const Clause *clauses, bool complete);
Pattern *ir_pat_wild(Module *m);
Pattern *ir_pat_var(Module *m, Var *v);
Pattern *ir_pat_ctor(Module *m, Ctor *c, int n, Pattern *const *sub);
Pattern *ir_pat_tuple(Module *m, int n, Pattern *const *sub);
/* Define (or redefine) @name as the given function expression. */
GlobalFn *ir_def(Module *m, const char *name, Expr *func);

/* A shallow copy of e's node (children shared), for rewriting passes. */
Expr *ir_expr_clone_node(Module *m, const Expr *e);

/* ------------------------------------------------- equality and hashing */

/* Alpha-equivalence: bound variables correspond by binding position, free
 * variables by pointer (never by name: distinct variables may share a
 * name hint, and print apart), globals by name, constants bitwise.
 * Annotations are compared when present on both sides; .type is ignored. */
bool ir_expr_alpha_equal(const Expr *a, const Expr *b);
uint64_t ir_expr_hash(const Expr *e); /* consistent with alpha_equal */
/* Whole modules: same type definitions and the same functions by name
 * (free variables, in an ill-formed module, by name). */
bool ir_module_alpha_equal(const Module *a, const Module *b);

/* --------------------------------------------------------- well-formed */

/* Every variable is bound once and used only within its scope; globals
 * referenced are defined; constructor calls have the right arity; a node
 * reachable along two paths (a graph binding) is pure, i.e. contains no
 * let, function literal, ref operation, match, or call of a closure.
 * Reports each violation into d; returns true when there is none. */
bool ir_well_formed(const Module *m, Diag *d);

/* How deep a definition may go, in two measures of one walk (depth.c):
 *   height   the longest path down, every node counted: what a recursive
 *            walk follows (let chains and graph bindings included);
 *   nesting  how deep its text nests: a let's body, a projected tuple and
 *            a called closure are at their parent's level, every other
 *            child one level in (graph bindings included: the printer
 *            writes a node used once where it is used).
 * The parser rejects a definition beyond either bound (and text nested
 * deeper than IR_MAX_NESTING), pass_run a pass's output beyond them, the
 * type checker an expression deeper than IR_MAX_DEPTH.  Up to them every
 * recursive walk of the passes, the checker, the interpreter and the
 * printer fits in half the default 8 MB stack of a sanitizer build, and
 * printed text parses back (tests/unit/test_deep.c runs every pass at the
 * bounds). */
enum { IR_MAX_DEPTH = 4000, IR_MAX_NESTING = 512 };
typedef struct IrDepth {
  int64_t height, nesting;
} IrDepth;
IrDepth ir_expr_depth(const Expr *e);
/* True when d is within both bounds; else false, with what is wrong in
 * why ("is deeper than 4000 levels (IR_MAX_DEPTH, ...)"). */
bool ir_depth_within(IrDepth d, char *why, size_t n);
/* False, with an error at the definition, when a definition in m is
 * beyond either bound. */
bool ir_depth_ok(const Module *m, Diag *d);
/* True when e contains no effects and binds no variables (may be shared). */
bool ir_expr_is_shareable(const Expr *e);

/* ----------------------------------------------------- text (print/parse) */

/* Print in Relay text format 0.0.5 (with the extensions documented in
 * docs/text-format.md).  Returns a malloc'd NUL-terminated string. */
char *ir_print_module(const Module *m);
/* ir_print_module, and the name each variable is printed with (`x1` for
 * %x1): (*names)[v->id] for a Var v of m, NULL for one not printed; the
 * array and the names live in arena a. */
char *ir_print_module_names(const Module *m, Arena *a, const char ***names);
char *ir_print_expr(const Expr *e);
char *ir_print_type(const Type *t);
#ifdef RS_TEST_PASSES
/* Test build only: deliberate printer bugs the round-trip oracle must find.
 * drop_attr: the last attribute of every operator call is not printed (the
 * text changes again when printed again); zero_sign: -0 prints as 0 (the
 * text prints the same twice: only comparing the re-parsed program with
 * the printed one sees it). */
extern bool ir_test_print_drop_attr, ir_test_print_zero_sign;
#endif
/* Parse a whole program.  Returns NULL and fills d on error. */
Module *ir_parse_module(const char *src, size_t len, const char *file, Diag *d);

/* ------------------------------------------------------------ traversal */

/* Calls f on every direct child expression of e (not into patterns). */
void ir_expr_children(Expr *e, void (*f)(Expr **slot, void *ctx), void *ctx);
/* Number of expression nodes reachable from e, counting shared nodes once. */
int64_t ir_expr_count(const Expr *e);
int64_t ir_module_count(const Module *m); /* over all global functions */

#endif
