// Speculative decoding's expected round (speculative.h).
#include "scalebook/inference/speculative.h"

namespace scalebook {

SpeculativeRound speculative_round(const SpeculativeConfig& config) {
  SpeculativeRound r;
  r.k = config.k;
  // The sum rather than (1 - alpha^(k+1)) / (1 - alpha): exact at alpha = 1, and no
  // cancellation just below it; k is at most kMaxDraftTokens.
  double term = 1;
  for (double i = 0; i <= config.k; ++i) {
    r.tokens += term;
    term *= config.alpha;
  }
  r.t_round = config.k * config.cost * config.t_step + config.verify * config.t_step;
  r.t_per_token = r.t_round / r.tokens;
  r.speedup = config.t_step / r.t_per_token;
  return r;
}

SpeculativeRound best_speculative_round(SpeculativeConfig config, double k_max) {
  config.k = 1;
  SpeculativeRound best = speculative_round(config);
  for (double k = 2; k <= k_max; ++k) {
    config.k = k;
    const SpeculativeRound r = speculative_round(config);
    if (r.speedup > best.speedup) best = r;
  }
  return best;
}

}  // namespace scalebook
