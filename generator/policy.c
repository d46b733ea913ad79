/*
 * policy.c - the default generation policy, the policy registry, and the
 * mapping from an input's header to the configuration it selects.
 *
 * Header layout (GEN_HEADER_BYTES = 16; a missing byte reads as 0):
 *   [0]      size budget: 0 = the policy's budget, else budget_min ..
 *            budget_max scaled by the byte
 *   [1]      bits 0-1: tensor size (0 or 3 = the policy's limits, 1 = tiny,
 *            2 = small); bits 2-7: dtypes the type generator leaves out
 *            (bit 2 + DT_x), ignored when it would leave none
 *   [2..4]   two bits per GEN_F_ feature 0-11: both set = feature off (so
 *            a random header switches each feature off with probability 1/4)
 *   [5..13]  72 operator bits: bit k set = operators k, k + 72, ... off
 *   [14]     high nibble f > 0: form f - 1 gets its weight tripled
 *   [15]     two bits per GEN_F_ feature 12-15, as above
 * The disable bits only apply when the policy has swarm set.
 */
#include <string.h>

#include "breaker.h"
#include "gen_int.h"

const GenPolicy gen_policy_default = {
    .name = "default",
    .doc = "every language feature and operator, programs of ~10-40 nodes",
    GEN_DEFAULT_DATA,
    .any_rate = 4,
};

static const GenPolicy *const policies[] = {
    &gen_policy_default, &gen_policy_fusion, &gen_policy_simplify, &gen_policy_fold,
    &gen_policy_dead,    &gen_policy_cse,    &gen_policy_inline,   &gen_policy_scopes,
    &gen_policy_mix,     &gen_policy_mlir,   &gen_policy_reject,
};

const GenPolicy *gen_policy_get(const char *name) {
  for (size_t i = 0; i < sizeof policies / sizeof *policies; i++)
    if (strcmp(policies[i]->name, name) == 0)
      return policies[i];
  return NULL;
}

const GenPolicy *gen_policy_at(int i) {
  return i >= 0 && (size_t)i < sizeof policies / sizeof *policies ? policies[i] : NULL;
}

/* The size budget the header's first byte selects. */
static int header_budget(const GenPolicy *p, uint8_t b) {
  if (b == 0 || p->budget_max <= p->budget_min)
    return p->budget;
  return p->budget_min + (int)((b - 1) * (p->budget_max - p->budget_min) / 254);
}

/* Tensor limits after the header's size knob. */
static OpLimits header_limits(const GenPolicy *p, uint8_t knob) {
  OpLimits l = p->limits;
  if (knob == 1) {
    l.max_numel = l.max_numel < 8 ? l.max_numel : 8;
    l.max_dim = l.max_dim < 4 ? l.max_dim : 4;
  } else if (knob == 2) {
    l.max_numel = l.max_numel < 32 ? l.max_numel : 32;
  }
  return l;
}

/* The operators policy p allows: not denied, in op_only if it has one,
 * of a pattern with a weight (remembered for the last policy data seen). */
static void policy_ops(const GenPolicy *p, uint64_t allow[OP_WORDS]) {
  static _Thread_local struct {
    bool valid;
    uint64_t deny[OP_WORDS];
    uint8_t pw[6];
    const bool *only;
  } last;
  static _Thread_local uint64_t mask[OP_WORDS];
  if (!last.valid || memcmp(last.deny, p->op_deny, sizeof last.deny) ||
      memcmp(last.pw, p->pattern_weight, sizeof last.pw) || last.only != p->op_only) {
    memset(mask, 0, sizeof mask);
    for (int op = 0; op < OP_COUNT; op++) {
      bool denied = ((p->op_deny[op / 64] >> (op % 64)) & 1) || (p->op_only && !p->op_only[op]);
      if (!denied && p->pattern_weight[op_table[op].pattern] > 0)
        mask[op / 64] |= 1ull << (op % 64);
    }
    last.valid = true;
    memcpy(last.deny, p->op_deny, sizeof last.deny);
    memcpy(last.pw, p->pattern_weight, sizeof last.pw);
    last.only = p->op_only;
  }
  memcpy(allow, mask, sizeof mask);
}

/* Set in words the n low bits of v, from bit `at` on (bits past the
 * last word are dropped). */
static void or_bits(uint64_t words[OP_WORDS], int at, uint64_t v, int n) {
  if (n < 64)
    v &= (1ull << n) - 1;
  int w = at / 64, s = at % 64;
  if (w < OP_WORDS)
    words[w] |= v << s;
  if (s && w + 1 < OP_WORDS)
    words[w + 1] |= v >> (64 - s);
}

/* The operators header bytes h[5..13] disable: operator op is bit op % 72
 * of those 72 bits (h[5] bit 0 first), so the bits repeat every 72
 * operators. */
static void header_ops(const uint8_t h[GEN_HEADER_BYTES], uint64_t off[OP_WORDS]) {
  uint64_t lo = 0;
  for (int i = 0; i < 8; i++)
    lo |= (uint64_t)h[5 + i] << (8 * i);
  memset(off, 0, OP_WORDS * sizeof *off);
  for (int at = 0; at < OP_COUNT; at += 72) {
    or_bits(off, at, lo, 64);
    or_bits(off, at + 64, h[13], 8);
  }
}

void gen_config(const GenPolicy *p, const uint8_t h[GEN_HEADER_BYTES], GenConfig *c) {
  memset(c, 0, sizeof *c);
  c->budget = header_budget(p, h[0]);
  c->limits = header_limits(p, h[1] & 3);
  c->features = p->features;
  c->dtypes = p->dtypes;
  c->boost_form = -1;
  policy_ops(p, c->op_allow);
  if (!p->swarm)
    return;
  uint32_t dt = c->dtypes & ~(uint32_t)(h[1] >> 2);
  if (dt)
    c->dtypes = dt;
  uint32_t bits =
      (uint32_t)h[2] | (uint32_t)h[3] << 8 | (uint32_t)h[4] << 16 | (uint32_t)h[15] << 24;
  for (int f = 0; f < GEN_NFEATURES; f++)
    if (((bits >> (2 * f)) & 3) == 3 && !(p->swarm_keep >> f & 1))
      c->features &= ~(1u << f);
  uint64_t off[OP_WORDS];
  header_ops(h, off);
  for (int i = 0; i < OP_WORDS; i++)
    c->op_allow[i] &= ~off[i];
  if (h[14] >> 4)
    c->boost_form = (h[14] >> 4) - 1;
}
