/*
 * einsum.c - naive einsum (docs/operators.md, "einsum"): the equation
 * read again here (explicit and implicit forms; the relation has refused
 * every other), then one loop over every assignment of every label.
 */
#include <stdlib.h>
#include <string.h>

#include "naive.h"

enum { MAXL = 64, MAXIN = 16 }; /* what an equation the relation accepts has */

/* The equation's labels: distinct ones in lab (first appearance order),
 * each input's as indices into lab, the output's likewise. */
typedef struct Labels {
  int n, nin, nout, len[MAXIN];
  char lab[MAXL];
  int in[MAXIN][IR_MAX_RANK], out[IR_MAX_RANK];
} Labels;

/* The index of label c in l, added when new. */
static int label_of(Labels *l, char c) {
  for (int i = 0; i < l->n; i++)
    if (l->lab[i] == c)
      return i;
  l->lab[l->n] = c;
  return l->n++;
}

/* Reads s: inputs up to "->", then the output; implicit mode when there
 * is no arrow (labels used once, in ASCII order). */
static void read_equation(const char *s, Labels *l) {
  memset(l, 0, sizeof *l);
  const char *arrow = strstr(s, "->");
  int k = 0;
  for (const char *p = s; *p && p != arrow; p++) {
    if (*p == ',')
      k++;
    else if (*p != ' ')
      l->in[k][l->len[k]++] = label_of(l, *p);
  }
  l->nin = k + 1;
  if (arrow) {
    for (const char *p = arrow + 2; *p; p++)
      if (*p != ' ')
        l->out[l->nout++] = label_of(l, *p);
    return;
  }
  for (int c = 'A'; c <= 'z'; c++) {
    int uses = 0;
    for (int i = 0; i < l->nin; i++)
      for (int j = 0; j < l->len[i]; j++)
        uses += l->lab[l->in[i][j]] == c;
    if (uses == 1)
      l->out[l->nout++] = label_of(l, (char)c);
  }
}

/* R[o] = sum over every assignment v of the labels with v's output
 * labels at o of prod_k A_k[v at A_k's labels, 0 where A_k's dim is 1],
 * the product left to right in R's dtype (each float step rounded,
 * integers modulo 2^64), the sum in double (floats) or modulo 2^64, the
 * assignments in row-major order of the output's labels, then the others
 * in ASCII order. */
void nv_einsum(OpId op, Tensor *const *args, int nargs, const Attrs *at, Tensor *const *outs,
               int nouts) {
  Tensor *r = outs[0];
  Labels l;
  read_equation(nv_str(at, "equation", ""), &l);
  int64_t ext[MAXL], v[MAXL], total = 1;
  for (int i = 0; i < l.n; i++)
    ext[i] = 1;
  for (int k = 0; k < nargs; k++)
    for (int j = 0; j < l.len[k]; j++)
      if (args[k]->shape[j] != 1)
        ext[l.in[k][j]] = args[k]->shape[j];
  /* the loop's digits: the output's labels, then the others in ASCII
   * order (the order the sum runs in, the last fastest) */
  int order[MAXL], no = 0;
  for (int i = 0; i < l.nout; i++)
    order[no++] = l.out[i];
  for (int c = 'A'; c <= 'z'; c++)
    for (int i = 0; i < l.n; i++) {
      bool is_out = false;
      for (int j = 0; j < l.nout; j++)
        is_out |= l.out[j] == i;
      if (l.lab[i] == c && !is_out)
        order[no++] = i;
    }
  int64_t oext[MAXL], d[MAXL];
  for (int i = 0; i < no; i++)
    oext[i] = ext[order[i]], total *= oext[i];
  double *sf = calloc((size_t)r->numel + 1, sizeof *sf);
  uint64_t *si = calloc((size_t)r->numel + 1, sizeof *si);
  bool fl = nv_is_float(r->dtype);
  for (int64_t t = 0; t < total; t++) {
    nv_coord(no, oext, t, d);
    for (int i = 0; i < no; i++)
      v[order[i]] = d[i];
    int64_t oc[IR_MAX_RANK], o;
    for (int i = 0; i < l.nout; i++)
      oc[i] = v[l.out[i]];
    o = nv_index(l.nout, r->shape, oc);
    double pf = 0;
    uint64_t pi = 1;
    for (int k = 0; k < nargs; k++) {
      int64_t c[IR_MAX_RANK];
      for (int j = 0; j < l.len[k]; j++)
        c[j] = args[k]->shape[j] == 1 ? 0 : v[l.in[k][j]];
      int64_t e = nv_index(l.len[k], args[k]->shape, c);
      double f;
      int64_t i;
      nv_convert(args[k], e, r->dtype, &f, &i);
      pf = k == 0 ? f : nv_step(r->dtype, pf * f);
      pi *= (uint64_t)i;
    }
    sf[o] += pf;
    si[o] += pi;
  }
  for (int64_t o = 0; o < r->numel; o++) {
    if (fl)
      nv_put_f(r, o, sf[o]);
    else
      nv_put_u(r, o, si[o]);
  }
  free(sf);
  free(si);
}
