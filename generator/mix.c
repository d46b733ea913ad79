/*
 * mix.c - the "mix" policy: each input decodes with the default policy or
 * one of the pass-directed ones, as its header says (byte 14's low
 * nibble, which no policy's configuration reads).  pass_fuzzer uses it
 * when no -passes= fixes its passes, so that one corpus holds programs of
 * every pass's shapes; choosing in gen_decode, from the input itself,
 * means the custom mutator, the reducer and the oracle all decode an
 * input the same way.
 */
#include "gen_int.h"

static const GenPolicy *const mixed[] = {
    &gen_policy_default, &gen_policy_simplify, &gen_policy_fold,
    &gen_policy_dead,    &gen_policy_cse,      &gen_policy_inline,
    &gen_policy_scopes,  &gen_policy_fusion,   NULL,
};

const GenPolicy gen_policy_mix = {
    .name = "mix",
    .doc = "per input (header byte 14): default, or one of the pass policies above",
    .mix = mixed,
};

const GenPolicy *gen_policy_pick(const GenPolicy *p, const uint8_t header[GEN_HEADER_BYTES]) {
  if (!p->mix)
    return p;
  int n = 0;
  while (p->mix[n])
    n++;
  return p->mix[((header[14] & 15) * n) >> 4];
}
