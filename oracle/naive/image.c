/*
 * image.c - naive kernels of layout_transform, nn.upsampling and
 * image.resize2d (docs/operators.md, "image"): each result element from
 * its coordinate by the definitions there, the resize arithmetic in
 * float32 one step per statement.
 */
#include <math.h>
#include <string.h>

#include "naive.h"

/* layout_transform: R[c] = A[c'] where c'[j] is c at the place of
 * src_layout's letter j in dst_layout. */
void nv_layout_transform(OpId op, Tensor *const *args, int nargs, const Attrs *at,
                         Tensor *const *outs, int nouts) {
  const Tensor *x = args[0];
  Tensor *r = outs[0];
  const char *src = nv_str(at, "src_layout", ""), *dst = nv_str(at, "dst_layout", "");
  int64_t c[IR_MAX_RANK], d[IR_MAX_RANK];
  for (int64_t o = 0; o < r->numel; o++) {
    nv_coord(r->rank, r->shape, o, c);
    for (int j = 0; j < x->rank; j++)
      for (int i = 0; i < r->rank; i++)
        if (dst[i] == src[j])
          d[j] = c[i];
    nv_put(r, o, x, nv_index(x->rank, x->shape, d));
  }
}

/* Pixel i of x as a float32. */
static float pixel(const Tensor *x, int64_t i) {
  if (nv_is_float(x->dtype))
    return (float)nv_f(x, i);
  if (nv_is_unsigned(x->dtype))
    return (float)nv_u(x, i);
  return (float)nv_i(x, i);
}

/* v clamped to [0, n - 1]. */
static int64_t clampi(int64_t v, int64_t n) {
  if (v > n - 1)
    v = n - 1;
  return v < 0 ? 0 : v;
}

/* The source coordinate of x (extents n -> m) under mode. */
static float source(const char *mode, int64_t x, int64_t n, int64_t m) {
  float s = (float)n / (float)m;
  float fx = (float)x;
  if (!strcmp(mode, "align_corners")) {
    if (m == 1)
      return 0;
    float q = (float)(n - 1) / (float)(m - 1);
    return q * fx;
  }
  if (!strcmp(mode, "asymmetric"))
    return s * fx;
  if (!strcmp(mode, "tf_half_pixel_for_nn")) {
    float h = fx + 0.5f;
    return h * s;
  }
  if (!strcmp(mode, "pytorch_half_pixel") && m == 1)
    return 0;
  float h = fx + 0.5f;
  float p = h * s;
  return p - 0.5f;
}

/* The nearest source index of x. */
static int64_t near_index(const char *mode, const char *rounding, int64_t x, int64_t n, int64_t m) {
  if (!strcmp(mode, "asymmetric") && !rounding[0] && m % n == 0) {
    double ratio = (double)(float)((double)m / (double)n);
    if (ratio <= 1.0 / (1e-5 * (double)n + 1e-5))
      return clampi(x / (m / n), n);
  }
  float v = source(mode, x, n, m);
  if (!rounding[0])
    rounding = !strcmp(mode, "align_corners") ? "round" : "floor";
  float k;
  if (!strcmp(rounding, "round"))
    k = nearbyintf(v);
  else if (!strcmp(rounding, "floor"))
    k = floorf(v + 1e-5f);
  else if (!strcmp(rounding, "ceil"))
    k = ceilf(v - 1e-5f);
  else if (!strcmp(rounding, "round_prefer_floor"))
    k = ceilf(v - 0.5f);
  else
    k = floorf(v + 0.5f);
  return clampi((int64_t)k, n);
}

/* nn.upsampling and image.resize2d. */
void nv_resize(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
               int nouts) {
  const Tensor *x = args[0];
  Tensor *r = outs[0];
  const char *mode, *rounding = "";
  bool linear;
  if (op == OP_UPSAMPLING) {
    linear = !strcmp(nv_str(at, "method", "nearest_neighbor"), "bilinear");
    mode = nv_bool(at, "align_corners", false) ? "align_corners" : "asymmetric";
  } else {
    linear = !strcmp(nv_str(at, "method", "linear"), "linear");
    mode = nv_str(at, "coordinate_transformation_mode", "half_pixel");
    rounding = nv_str(at, "rounding_method", "");
  }
  int64_t H = x->shape[2], W = x->shape[3], OH = r->shape[2], OW = r->shape[3], c[4];
  for (int64_t o = 0; o < r->numel; o++) {
    nv_coord(4, r->shape, o, c);
    int64_t p[4] = {c[0], c[1], 0, 0};
    float v;
    if (!linear) {
      p[2] = near_index(mode, rounding, c[2], H, OH);
      p[3] = near_index(mode, rounding, c[3], W, OW);
      v = pixel(x, nv_index(4, x->shape, p));
    } else {
      float sy = source(mode, c[2], H, OH), sx = source(mode, c[3], W, OW);
      float fy = floorf(sy), fx = floorf(sx);
      float wy = sy - fy, wx = sx - fx;
      float q[2][2];
      for (int j = 0; j < 2; j++)
        for (int i = 0; i < 2; i++) {
          p[2] = clampi((int64_t)fy + j, H);
          p[3] = clampi((int64_t)fx + i, W);
          q[j][i] = pixel(x, nv_index(4, x->shape, p));
        }
      float row[2];
      for (int j = 0; j < 2; j++) {
        float a = q[j][0] * (1.0f - wx);
        float b = q[j][1] * wx;
        row[j] = a + b;
      }
      float a = row[0] * (1.0f - wy);
      float b = row[1] * wy;
      v = a + b;
    }
    nv_put_f(r, o, (double)v);
  }
}
