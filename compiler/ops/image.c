/*
 * image.c - layouts and resizing: layout_transform, nn.upsampling and
 * image.resize2d.  For each, its relation, recognizer, solver, sampler and
 * kernel (op.h states their contracts).
 *
 * The relations follow Relay's (LayoutTransformRel, UpSamplingRel,
 * Resize2DRel) and the kernels topi's (layout_transform, upsampling and
 * image.resize2d in python/tvm/topi/image/resize.py), for this subset:
 *
 *   layout   src_layout and dst_layout are simple layouts: distinct upper
 *            case letters, one per dim of the data, the same letters in
 *            both (NCHW -> NHWC); R is A transposed so that its dims are in
 *            dst_layout's order.  Split layouts (NCHW4c: a number and a
 *            lower case letter) are refused by the relation.
 *   resize   4-D NCHW data (layout "NCHW" only) of an int or float dtype,
 *            with H and W >= 1; R = (N, C, size[0], size[1]) of out_dtype
 *            ("" or absent: the data's).  method "nearest_neighbor" or
 *            "linear" (default); coordinate_transformation_mode
 *            "half_pixel" (default), "align_corners", "asymmetric",
 *            "pytorch_half_pixel" or "tf_half_pixel_for_nn"; rounding_method
 *            "" (round for align_corners, else floor), "round", "floor",
 *            "ceil", "round_prefer_floor" or "round_prefer_ceil".  method
 *            "cubic" and mode "tf_crop_and_resize" are refused; roi has no
 *            kind in relayc's attributes and is not taken (it matters to
 *            tf_crop_and_resize only); cubic_alpha, cubic_exclude and
 *            extrapolation_value are taken and, as in TVM for these
 *            methods, change nothing.
 *   upsamp.  scale_h, scale_w > 0 (default 1), layout "NCHW", method
 *            "nearest_neighbor" (default) or "bilinear", align_corners
 *            (default False): R's H is round(H * scale_h) (float32, ties to
 *            even) and W alike, then resize2d with the method, mode
 *            align_corners or asymmetric and rounding "".
 *
 * Defined behaviour, each step in float32 as topi computes it ("float"):
 * every pixel is read converted to float32 (a float64 or int64 pixel is
 * rounded to float32 once); scale = float32(in) / float32(out);
 * in_x = (x + 0.5) * scale - 0.5 (half_pixel; pytorch_half_pixel the same
 * when out > 1, else 0), (in - 1) / (out - 1) * x (align_corners; 0 when
 * out is 1, where TVM divides by zero), scale * x (asymmetric) or
 * (x + 0.5) * scale (tf_half_pixel_for_nn).  Nearest: the index is
 * round(in_x) (ties to even), floor(in_x + 1e-5), ceil(in_x - 1e-5),
 * ceil(in_x - 0.5) or floor(in_x + 0.5) by the rounding method, except
 * that asymmetric nearest with out a multiple of in divides integers (x /
 * (out / in)), as topi does; then clamped to [0, in - 1].  Linear: x0 =
 * floor(in_x), t = in_x - x0, the four pixels at x0, x0 + 1 (clamped) and
 * the same along y, top = p00 * (1 - t) + p01 * t, bottom alike, R =
 * top * (1 - u) + bottom * u.  The float32 value is converted to the
 * result dtype as cast converts (to ints toward zero, saturating).
 */
#include <math.h>
#include <string.h>

#include "op_int.h"
#include "resize.h"

/* ------------------------------------------------------ layout_transform */

/* The simple layouts the solvers use, by rank. */
static const char *const base_layout[IR_MAX_RANK + 1] = {"",     "N",     "NC",    "NCW",
                                                         "NCHW", "NCDHW", "NCDHWT"};

/* Reads the two layouts for a rank-`rank` tensor into the permutation
 * perm (R's dim i is A's dim perm[i]); false with a message when they are
 * not simple layouts of that rank with the same letters. */
static bool rd_layouts(OpId op, const Attrs *at, int rank, int *perm, char *err, size_t errlen) {
  OpAttrReader r = op_rd_begin(op, at, err, errlen);
  const char *src = op_rd_str(&r, "src_layout", ""), *dst = op_rd_str(&r, "dst_layout", "");
  if (r.bad)
    return false;
  const char *l[2] = {src, dst};
  for (int k = 0; k < 2; k++) {
    const char *name = k ? "dst_layout" : "src_layout";
    if (!l[k][0]) {
      op_rd_fail(&r, "%s is required", name);
      return false;
    }
    for (const char *p = l[k]; *p; p++)
      if (*p < 'A' || *p > 'Z') {
        op_rd_fail(&r,
                   "%s \"%s\" is not supported: only simple layouts of upper case letters "
                   "(not split ones such as NCHW4c)",
                   name, l[k]);
        return false;
      }
    if ((int)strlen(l[k]) != rank) {
      op_rd_fail(&r, "%s \"%s\" has %d dims, the data %d", name, l[k], (int)strlen(l[k]), rank);
      return false;
    }
  }
  for (int i = 0; i < rank; i++) {
    const char *hit = strchr(src, dst[i]);
    if (!hit || strchr(hit + 1, dst[i]) || strchr(dst + i + 1, dst[i])) {
      op_rd_fail(&r, "dst_layout \"%s\" is not a reordering of src_layout \"%s\"", dst, src);
      return false;
    }
    perm[i] = (int)(hit - src);
  }
  return true;
}

RelStatus rel_layout_transform(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a,
                               Type **out, char *err, size_t errlen) {
  RelStatus st = op_want_shaped(args, nargs, 1, err, errlen);
  if (st != REL_OK)
    return st;
  const Type *x = args[0];
  int perm[IR_MAX_RANK], r = x->tensor.rank;
  if (!rd_layouts(op, at, r, perm, err, errlen))
    return REL_ERROR;
  int64_t s[IR_MAX_RANK];
  for (int i = 0; i < r; i++)
    s[i] = x->tensor.shape[perm[i]];
  return op_result(a, x->tensor.dtype, r, s, out, err, errlen);
}

bool rec_layout_transform(OpId op, const Type *want, const OpLimits *lim) {
  return op_fits(want, lim) && want->tensor.rank >= 1;
}

/* A permutation of r letters drawn into out (choice 0: the identity). */
static void draw_perm(OpSolveCtx *cx, const char *letters, int r, char *out) {
  memcpy(out, letters, (size_t)r + 1);
  for (int i = 0; i + 1 < r; i++) {
    int j = i + (int)op_pick_below(cx, r - i);
    char t = out[i];
    out[i] = out[j], out[j] = t;
  }
}

bool solve_layout_transform(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_layout_transform(op, want, cx->lim))
    return false;
  int r = want->tensor.rank;
  char *src = ARENA_ARRAY(cx->arena, char, r + 1), *dst = ARENA_ARRAY(cx->arena, char, r + 1);
  draw_perm(cx, base_layout[r], r, src);
  draw_perm(cx, base_layout[r], r, dst);
  int64_t s[IR_MAX_RANK];
  for (int j = 0; j < r; j++) /* A's dim j is R's dim at src[j]'s place in dst */
    s[j] = want->tensor.shape[strchr(dst, src[j]) - dst];
  op_sig_start(cx, sig, 1, NULL);
  sig->args[0] = op_like(cx->arena, want, r, s);
  ir_attr_set_str(cx->arena, &sig->attrs, "src_layout", src);
  ir_attr_set_str(cx->arena, &sig->attrs, "dst_layout", dst);
  return op_sig_claim(cx, sig, want);
}

bool sample_layout_transform(OpId op, OpSolveCtx *cx, OpSig *sig) {
  return op_sample_via(solve_layout_transform, op, cx, sig, 1);
}

/* A transpose by the layouts' permutation (shape.c's kernel). */
void k_layout_transform(OpId op, Tensor *const *args, int nargs, const Attrs *at,
                        Tensor *const *outs, int nouts, Arena *scratch) {
  int perm[IR_MAX_RANK];
  int64_t axes[IR_MAX_RANK];
  if (nargs != 1 || !rd_layouts(op, at, args[0]->rank, perm, NULL, 0))
    return;
  for (int i = 0; i < args[0]->rank; i++)
    axes[i] = perm[i];
  Attrs ta = {0};
  ir_attr_set_ints(scratch, &ta, "axes", args[0]->rank, axes);
  k_transpose(OP_TRANSPOSE, args, nargs, &ta, outs, nouts, scratch);
}

/* ------------------------------------------------- resize2d, upsampling */

enum { CT_HALF, CT_ALIGN, CT_ASYM, CT_PYTORCH, CT_TFNN };
enum { RD_DEFAULT, RD_ROUND, RD_FLOOR, RD_CEIL, RD_PREFER_FLOOR, RD_PREFER_CEIL };

/* A resize, read from either operator's attributes. */
typedef struct Resize {
  int64_t out[2];  /* the output extents (resize2d: size) */
  double scale[2]; /* upsampling's scales */
  bool linear;
  int mode, round;
  DType dt; /* the result dtype; DT_COUNT: the data's */
} Resize;

/* The index of s in the n names, or -1. */
static int name_index(const char *s, const char *const *names, int n) {
  for (int i = 0; i < n; i++)
    if (!strcmp(s, names[i]))
      return i;
  return -1;
}

static const char *const modes[] = {"half_pixel", "align_corners", "asymmetric",
                                    "pytorch_half_pixel", "tf_half_pixel_for_nn"};
static const char *const roundings[] = {
    "", "round", "floor", "ceil", "round_prefer_floor", "round_prefer_ceil"};

/* image.resize2d's attributes into *z; false with a message. */
static bool rd_resize2d(OpId op, const Attrs *at, Resize *z, char *err, size_t errlen) {
  OpAttrReader r = op_rd_begin(op, at, err, errlen);
  int n = op_rd_ints(&r, "size", 2, z->out, 0, NULL, false);
  op_rd_layout(&r, "layout", "NCHW");
  const char *m = op_rd_str(&r, "method", "linear");
  const char *ct = op_rd_str(&r, "coordinate_transformation_mode", "half_pixel");
  const char *rm = op_rd_str(&r, "rounding_method", "");
  op_rd_float(&r, "cubic_alpha", -0.5);
  op_rd_int(&r, "cubic_exclude", 0);
  op_rd_float(&r, "extrapolation_value", 0.0);
  z->dt = DT_COUNT;
  const char *od = op_rd_str(&r, "out_dtype", "");
  if (r.bad)
    return false;
  z->linear = !strcmp(m, "linear");
  z->mode = name_index(ct, modes, 5);
  z->round = name_index(rm, roundings, 6);
  if (n != 2 || z->out[0] < 0 || z->out[1] < 0)
    op_rd_fail(&r, "size must be two extents >= 0");
  else if (!z->linear && strcmp(m, "nearest_neighbor") != 0)
    op_rd_fail(&r, "method \"%s\" is not supported: nearest_neighbor or linear", m);
  else if (z->mode < 0)
    op_rd_fail(&r, "coordinate_transformation_mode \"%s\" is not supported", ct);
  else if (z->round < 0)
    op_rd_fail(&r, "rounding_method \"%s\" is not supported", rm);
  else if (od[0] && (!ir_dtype_parse(od, strlen(od), &z->dt) || !(OP_NUMERIC & (1u << z->dt))))
    op_rd_fail(&r, "out_dtype \"%s\" is not an int or float dtype", od);
  return !r.bad;
}

/* nn.upsampling's attributes into *z (out not yet known); false with a
 * message. */
static bool rd_upsampling(OpId op, const Attrs *at, Resize *z, char *err, size_t errlen) {
  OpAttrReader r = op_rd_begin(op, at, err, errlen);
  z->scale[0] = op_rd_float(&r, "scale_h", 1.0);
  z->scale[1] = op_rd_float(&r, "scale_w", 1.0);
  op_rd_layout(&r, "layout", "NCHW");
  const char *m = op_rd_str(&r, "method", "nearest_neighbor");
  bool align = op_rd_bool(&r, "align_corners", false);
  if (r.bad)
    return false;
  z->linear = !strcmp(m, "bilinear");
  z->mode = align ? CT_ALIGN : CT_ASYM;
  z->round = RD_DEFAULT;
  z->dt = DT_COUNT;
  if (!z->linear && strcmp(m, "nearest_neighbor") != 0)
    op_rd_fail(&r, "method \"%s\" is not supported: nearest_neighbor or bilinear", m);
  else if (!((float)z->scale[0] > 0) || !((float)z->scale[1] > 0))
    op_rd_fail(&r, "scale_h and scale_w must be > 0");
  return !r.bad;
}

/* Upsampling's output extent for input extent n and scale s: n * s in
 * float32 rounded to nearest even; -1 when too large. */
static int64_t scaled_extent(int64_t n, double s) {
  float v = rintf((float)n * (float)s);
  return v < 0x1p40f ? (int64_t)v : -1;
}

/* Reads op's attributes and, for upsampling, the output extents of an
 * input of extents hw (Any stays Any). */
static bool rd_resize(OpId op, const Attrs *at, const int64_t *hw, Resize *z, char *err,
                      size_t errlen) {
  if (op == OP_RESIZE2D)
    return rd_resize2d(op, at, z, err, errlen);
  if (!rd_upsampling(op, at, z, err, errlen))
    return false;
  for (int i = 0; i < 2; i++) {
    z->out[i] = op_dim_any(hw[i]) ? hw[i] : scaled_extent(hw[i], z->scale[i]);
    if (z->out[i] == -1) {
      op_fail(err, errlen, "the scaled extent is too large");
      return false;
    }
  }
  return true;
}

RelStatus rel_resize(OpId op, Type *const *args, int nargs, const Attrs *at, Arena *a, Type **out,
                     char *err, size_t errlen) {
  RelStatus st = op_want_shaped(args, nargs, 1, err, errlen);
  if (st != REL_OK)
    return st;
  const Type *x = args[0];
  if (x->tensor.rank != 4)
    return op_fail(err, errlen, "expects 4-D NCHW data, got rank %d", x->tensor.rank);
  if (!(OP_NUMERIC & (1u << x->tensor.dtype)))
    return op_fail(err, errlen, "expects int or float data, got %s",
                   ir_dtype_name(x->tensor.dtype));
  const int64_t *xs = x->tensor.shape;
  for (int i = 2; i < 4; i++)
    if (!op_dim_any(xs[i]) && xs[i] < 1)
      return op_fail(err, errlen, "the data's %s is empty", i == 2 ? "H" : "W");
  Resize z;
  if (!rd_resize(op, at, xs + 2, &z, err, errlen))
    return REL_ERROR;
  int64_t s[4] = {xs[0], xs[1], z.out[0], z.out[1]};
  return op_result(a, z.dt == DT_COUNT ? x->tensor.dtype : z.dt, 4, s, out, err, errlen);
}

/* Is there an input for a resize to the 4-D want within lim (the H and W
 * of the input at least 1)? */
bool rec_resize(OpId op, const Type *want, const OpLimits *lim) {
  if (!op_fits(want, lim) || want->tensor.rank != 4 || !(OP_NUMERIC & (1u << want->tensor.dtype)))
    return false;
  const int64_t *w = want->tensor.shape;
  int64_t n = op_mul_sat(op_mul_sat(w[0], w[1]), op_mul_sat(op_max64(w[2], 1), op_max64(w[3], 1)));
  return n <= lim->max_numel;
}

/* An input extent and, for upsampling, a scale giving output extent o:
 * choice 0 keeps o (scale 1; an empty output from an extent of 1 with
 * scale 0.25); otherwise an extent in [1, cap] whose float32 ratio gives o
 * again, or o. */
static int64_t pick_extent(OpSolveCtx *cx, OpId op, int64_t o, int64_t cap, double *scale) {
  int64_t in = o >= 1 ? o : 1;
  *scale = o >= 1 ? 1.0 : 0.25;
  if (cap >= 1 && op_coin(cx)) {
    int64_t n = 1 + op_pick_below(cx, cap);
    double s = (double)((float)o / (float)n);
    if (op == OP_RESIZE2D || (s > 0 && scaled_extent(n, s) == o))
      in = n, *scale = op == OP_RESIZE2D ? 1.0 : s;
  }
  return in;
}

bool solve_resize(OpId op, const Type *want, OpSolveCtx *cx, OpSig *sig) {
  if (!rec_resize(op, want, cx->lim))
    return false;
  const int64_t *w = want->tensor.shape;
  int64_t s[4] = {w[0], w[1], 1, 1}, nc = op_max64(op_mul_sat(w[0], w[1]), 1);
  double sc[2];
  int64_t other = op_max64(w[3], 1);
  for (int i = 0; i < 2; i++) {
    int64_t cap = op_min64(cx->lim->max_dim, op_quota(cx->lim->max_numel, op_mul_sat(nc, other)));
    s[2 + i] = pick_extent(cx, op, w[2 + i], cap, &sc[i]);
    other = s[2];
  }
  op_sig_start(cx, sig, 1, NULL);
  Attrs *at = &sig->attrs;
  DType in = want->tensor.dtype;
  bool linear = op_coin(cx);
  if (op == OP_RESIZE2D) {
    ir_attr_set_ints(cx->arena, at, "size", 2, w + 2);
    ir_attr_set_str(cx->arena, at, "method", linear ? "linear" : "nearest_neighbor");
    int m = (int)op_pick_below(cx, 5);
    if (m || op_coin(cx))
      ir_attr_set_str(cx->arena, at, "coordinate_transformation_mode", modes[m]);
    if (!linear && op_coin(cx))
      ir_attr_set_str(cx->arena, at, "rounding_method", roundings[op_pick_below(cx, 6)]);
    if (op_coin(cx)) { /* an explicit out_dtype, the data's drawn */
      ir_attr_set_str(cx->arena, at, "out_dtype", ir_dtype_name(in));
      in = op_draw_dtype(cx, (cx->lim->dtypes & OP_NUMERIC) | (1u << in));
    }
  } else {
    ir_attr_set_float(cx->arena, at, "scale_h", sc[0]);
    ir_attr_set_float(cx->arena, at, "scale_w", sc[1]);
    if (linear || op_coin(cx))
      ir_attr_set_str(cx->arena, at, "method", linear ? "bilinear" : "nearest_neighbor");
    if (op_coin(cx))
      ir_attr_set_bool(cx->arena, at, "align_corners", true);
  }
  sig->args[0] = op_tensor(cx, in, 4, s);
  return op_sig_claim(cx, sig, want);
}

bool sample_resize(OpId op, OpSolveCtx *cx, OpSig *sig) {
  if (!op_can_sample(cx, 4))
    return false;
  uint32_t num = cx->lim->dtypes & OP_NUMERIC ? cx->lim->dtypes & OP_NUMERIC : OP_NUMERIC;
  return op_sample_tensor(solve_resize, op, cx, sig, 4, cx->lim->max_numel, num);
}

/* Element i of t as float32 (ints converted once, as a cast). */
static float px(const Tensor *t, int64_t i) {
  if (ir_dtype_is_float(t->dtype))
    return (float)ir_tensor_get_f64(t, i);
  if (ir_dtype_is_unsigned(t->dtype))
    return (float)ir_tensor_get_u64(t, i);
  return (float)ir_tensor_get_i64(t, i);
}

/* The input coordinate of output coordinate x (extents in -> out). */
static float in_coord(const Resize *z, int64_t x, int64_t in, int64_t out) {
  float scale = (float)in / (float)out, fx = (float)x;
  switch (z->mode) {
  case CT_ALIGN: return out > 1 ? (float)(in - 1) / (float)(out - 1) * fx : 0.0f;
  case CT_ASYM: return scale * fx;
  case CT_PYTORCH:
    if (out <= 1)
      return 0.0f;
    /* fall through */
  case CT_HALF: {
    float t = (fx + 0.5f) * scale;
    return t - 0.5f;
  }
  default: return (fx + 0.5f) * scale;
  }
}

/* Nearest: the input index of output coordinate x, clamped. */
static int64_t nearest(const Resize *z, int64_t x, int64_t in, int64_t out) {
  int64_t k;
  if (z->mode == CT_ASYM && z->round == RD_DEFAULT && out % in == 0 &&
      (double)(float)((double)out / (double)in) <= 1.0 / (1e-5 * (double)in + 1e-5)) {
    k = x / (out / in); /* topi divides integers here */
  } else {
    float v = in_coord(z, x, in, out), e = 1e-5f;
    int rd = z->round != RD_DEFAULT ? z->round : z->mode == CT_ALIGN ? RD_ROUND : RD_FLOOR;
    float f = rd == RD_ROUND          ? rintf(v)
              : rd == RD_FLOOR        ? floorf(v + e)
              : rd == RD_CEIL         ? ceilf(v - e)
              : rd == RD_PREFER_FLOOR ? ceilf(v - 0.5f)
                                      : floorf(v + 0.5f);
    k = (int64_t)f;
  }
  return k < 0 ? 0 : k >= in ? in - 1 : k;
}

/* Linear interpolation of a and b by t, in float32 step by step. */
static float lerp(float a, float b, float t) {
  float wa = 1.0f - t;
  float pa = a * wa;
  float pb = b * t;
  return pa + pb;
}

bool op_resize_tap(OpId op, const Attrs *at, int64_t in, int64_t out, int64_t x, OpResizeTap *tap) {
  Resize z;
  if (!(op == OP_RESIZE2D ? rd_resize2d(op, at, &z, NULL, 0) : rd_upsampling(op, at, &z, NULL, 0)))
    return false;
  tap->linear = z.linear;
  if (!z.linear) {
    tap->i[0] = tap->i[1] = nearest(&z, x, in, out);
    tap->t = 0;
    return true;
  }
  float f = in_coord(&z, x, in, out), f0 = floorf(f);
  tap->t = f - f0;
  for (int k = 0; k < 2; k++) {
    int64_t v = (int64_t)f0 + k;
    tap->i[k] = v < 0 ? 0 : v >= in ? in - 1 : v;
  }
  return true;
}

void k_resize(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
              int nouts, Arena *scratch) {
  Resize z;
  if (nargs != 1 || nouts != 1 || args[0]->rank != 4)
    return;
  const Tensor *x = args[0];
  Tensor *y = outs[0];
  const int64_t *xs = x->shape;
  if (!rd_resize(op, at, xs + 2, &z, NULL, 0) || xs[2] < 1 || xs[3] < 1)
    return;
  int64_t want[4] = {xs[0], xs[1], z.out[0], z.out[1]}, c[4] = {0};
  if (!op_has_shape(y, 4, want))
    return;
  int64_t H = xs[2], W = xs[3];
  for (int64_t i = 0; i < y->numel; i++) {
    int64_t base = (c[0] * xs[1] + c[1]) * H * W;
    float v;
    if (!z.linear) {
      v = px(x, base + nearest(&z, c[2], H, z.out[0]) * W + nearest(&z, c[3], W, z.out[1]));
    } else {
      float fy = in_coord(&z, c[2], H, z.out[0]), fx = in_coord(&z, c[3], W, z.out[1]);
      float y0 = floorf(fy), x0 = floorf(fx);
      float u = fy - y0, t = fx - x0;
      int64_t ys[2], xk[2];
      for (int k = 0; k < 2; k++) {
        int64_t yy = (int64_t)y0 + k, xx = (int64_t)x0 + k;
        ys[k] = yy < 0 ? 0 : yy >= H ? H - 1 : yy;
        xk[k] = xx < 0 ? 0 : xx >= W ? W - 1 : xx;
      }
      float top = lerp(px(x, base + ys[0] * W + xk[0]), px(x, base + ys[0] * W + xk[1]), t);
      float bottom = lerp(px(x, base + ys[1] * W + xk[0]), px(x, base + ys[1] * W + xk[1]), t);
      v = lerp(top, bottom, u);
    }
    ir_tensor_set_f64(y, i, (double)v);
    op_next_coord(4, y->shape, c);
  }
}
