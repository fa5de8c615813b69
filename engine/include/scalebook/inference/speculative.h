#pragma once
// Speculative decoding (chapter 7, appendix D): a cheap draft model proposes k tokens, one
// step of the target model checks all of them at once, and the longest accepted prefix is
// kept, plus one token from the target (the correction of the first rejected draft, or a
// bonus token when all k pass).
//
// The model (the standard estimate the chapter's estimator uses; the book gives no formula):
//   - Each drafted token is accepted with probability alpha, independently, so a round yields
//     E = 1 + alpha + ... + alpha^k = (1 - alpha^(k+1)) / (1 - alpha) tokens (k + 1 at
//     alpha = 1).
//   - A round costs k draft steps of c t each and one verify step of v t: decode is bound by
//     loading weights, so checking k + 1 tokens costs about one step (v = 1).
//     t_round = k c t + v t.
//   - Per token: t_round / E. Ordinary decoding takes t per token, so the speedup is
//     E / (k c + v).
#include "scalebook/core/registry.h"

namespace scalebook {

struct SpeculativeConfig {
  double alpha = 0.8;    // probability a drafted token is accepted, in [0, 1]
  double k = 4;          // tokens drafted per round, a whole number >= 1
  double cost = 0.05;    // c: a draft step's time over a target step's
  double t_step = 0.02;  // s: one ordinary decode step of the target
  double verify = 1;     // v: the verify step's time over an ordinary step
};

struct SpeculativeRound {
  double k = 0;
  double tokens = 0;       // E, expected tokens a round yields
  double t_round = 0;      // s
  double t_per_token = 0;  // s
  double speedup = 0;      // t_step / t_per_token
};

// One round with `config`'s k.
SpeculativeRound speculative_round(const SpeculativeConfig& config);

// The most drafted tokens a calculation considers: beyond it alpha^k is negligible for any
// acceptance a drafter reaches, and the table would be unreadable.
constexpr double kMaxDraftTokens = 64;

// The k in 1..k_max with the highest speedup (the smallest such k on a tie).
SpeculativeRound best_speculative_round(SpeculativeConfig config, double k_max);

Calculator speculative_calculator();

}  // namespace scalebook
