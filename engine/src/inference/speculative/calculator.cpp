// The `speculative` calculator: speculative decoding's expected tokens per round, time per
// token and speedup for one draft length, the best draft length, and every length up to a
// cap as a table for the speedup-against-k chart (speculative.h).
#include <cmath>
#include <string>
#include <vector>

#include "scalebook/core/format.h"
#include "scalebook/inference/speculative.h"

namespace scalebook {
namespace {

InputSpec number(const char* name, const char* unit, const char* description, double fallback,
                 double min, bool exclusive, double max, const char* label) {
  return labelled(
      {name, InputKind::number, unit, description, Value::of(fallback), min, exclusive, max},
      label);
}

std::vector<InputSpec> inputs() {
  const SpeculativeConfig d;
  InputSpec alpha =
      number("alpha", "", "probability that the target accepts a drafted token, each independently",
             d.alpha, 0, false, 1, "Acceptance rate alpha");
  alpha.help = "Measured by running the drafter beside the target: 0.6 to 0.9 is typical.";
  InputSpec k =
      labelled({"k", InputKind::count, "tokens", "tokens the draft model proposes per round",
                Value::of(d.k), 1, false, kMaxDraftTokens},
               "Draft length k");
  InputSpec cost = number("cost", "", "a draft step's time over a target step's time", d.cost, 0,
                          false, 100, "Draft cost c");
  cost.help = "About the ratio of the two models' sizes when both decode bound by weight loading.";
  InputSpec t_step = number("t_step", "s", "one ordinary decode step of the target model", d.t_step,
                            0, true, 3600, "Target step time t");
  t_step.help = "The inference calculator gives it for a model, chip and batch.";
  InputSpec verify = number("verify", "",
                            "the verify step's time over an ordinary step (it checks k + 1 "
                            "tokens; about 1 while decode is bound by weight loading)",
                            d.verify, 0, true, 100, "Verify cost v");
  verify.group = InputGroup::advanced;
  InputSpec k_max = labelled(
      {"k_max", InputKind::count, "tokens", "the longest draft the search and the table consider",
       Value::of(16.0), 1, false, kMaxDraftTokens},
      "Longest draft searched", InputGroup::advanced);
  return {alpha, k, cost, t_step, verify, k_max};
}

constexpr auto num = number_output;

std::vector<OutputSpec> round_columns() {
  return {num("k", "tokens", "tokens drafted per round", "Draft length k"),
          num("tokens", "tokens", "expected tokens a round yields", "Tokens per round"),
          num("t_per_token", "s", "expected time per token", "Time per token"),
          num("speedup", "x", "over ordinary decoding", "Speedup"),
          text_output("chosen", "yes for the draft length k asked for", "Asked for"),
          text_output("best", "yes for the draft length with the highest speedup", "Best")};
}

const Schema& schema() {
  static const Schema s{
      "speculative",
      "speculative decoding (chapter 7, appendix D): a draft model proposes k tokens, one target "
      "step verifies them; expected tokens per round, time per token, speedup, and the best k",
      inputs(),
      {num("tokens", "tokens",
           "(1 - alpha^(k+1)) / (1 - alpha): accepted drafts plus the "
           "target's own token",
           "Tokens per round"),
       num("p_all", "", "alpha^k: every drafted token accepted", "All drafts accepted"),
       num("t_round", "s", "k c t + v t: the drafts and the verify step", "Time per round"),
       num("t_per_token", "s", "t_round / tokens per round", "Time per token"),
       num("speedup", "x", "t / time per token", "Speedup"),
       num("best_k", "tokens", "the draft length with the highest speedup, 1 to k_max",
           "Best draft length"),
       num("best_speedup", "x", "the speedup at the best draft length", "Best speedup")},
      {{"rounds", "every draft length from 1 to k_max (or to k, if longer)", round_columns()}}};
  return s;
}

std::vector<Step> steps(const SpeculativeConfig& c, const SpeculativeRound& r, double p_all,
                        const SpeculativeRound& best, double k_max) {
  auto n = [](double x) { return latex_number(x); };
  const std::string tokens = c.alpha == 1 ? "k + 1 = " + n(c.k + 1)
                                          : "\\frac{1 - \\alpha^{k+1}}{1 - \\alpha} = \\frac{1 - " +
                                                n(c.alpha) + "^{" + n(c.k + 1) + "}}{1 - " +
                                                n(c.alpha) + "} = " + n(r.tokens);
  return {
      {"Expected tokens per round: the accepted prefix of the drafts, plus the target's token",
       "E = 1 + \\alpha + \\dots + \\alpha^k = " + tokens, r.tokens, "tokens", "tokens"},
      {"Every drafted token accepted",
       "\\alpha^k = " + n(c.alpha) + "^{" + n(c.k) + "} = " + n(p_all), p_all, "", "p_all"},
      {"A round: k draft steps and one verify step",
       "t_\\text{round} = k c t + v t = " + n(c.k) + " \\cdot " + n(c.cost) + " \\cdot " +
           latex_quantity(c.t_step, "s") + " + " + n(c.verify) + " \\cdot " +
           latex_quantity(c.t_step, "s") + " = " + latex_quantity(r.t_round, "s"),
       r.t_round, "s", "t_round"},
      {"Time per token",
       "\\frac{t_\\text{round}}{E} = \\frac{" + latex_quantity(r.t_round, "s") + "}{" +
           n(r.tokens) + "} = " + latex_quantity(r.t_per_token, "s"),
       r.t_per_token,
       "s",
       "t_per_token",
       {"tokens", "t_round"}},
      {"Speedup over one target step per token",
       "\\frac{E}{k c + v} = \\frac{" + n(r.tokens) + "}{" + n(c.k) + " \\cdot " + n(c.cost) +
           " + " + n(c.verify) + "} = " + n(r.speedup),
       r.speedup,
       "x",
       "speedup",
       {"t_per_token"}},
      {"The best draft length from 1 to " + format_number(k_max),
       "\\arg\\max_k \\frac{E(k)}{k c + v} = " + n(best.k) + ", \\text{ speedup } " +
           n(best.speedup),
       best.k,
       "tokens",
       "best_k",
       {"speedup"}},
  };
}

std::optional<Error> compute(const ResolvedInputs& in, ResultBuilder& out) {
  SpeculativeConfig c;
  c.alpha = in.number("alpha");
  c.k = in.number("k");
  c.cost = in.number("cost");
  c.t_step = in.number("t_step");
  c.verify = in.number("verify");
  const double k_max = in.number("k_max");
  const SpeculativeRound r = speculative_round(c);
  const SpeculativeRound best = best_speculative_round(c, k_max);
  out.set("tokens", r.tokens);
  const double p_all = std::pow(c.alpha, c.k);
  out.set("p_all", p_all);
  out.set("t_round", r.t_round);
  out.set("t_per_token", r.t_per_token);
  out.set("speedup", r.speedup);
  out.set("best_k", best.k);
  out.set("best_speedup", best.speedup);
  if (out.explain()) out.steps(steps(c, r, p_all, best, k_max));
  if (out.tables()) {
    Table rounds = empty_table(schema().tables[0]);
    SpeculativeConfig each = c;
    // Up to k too, so a chart can always mark the length asked for.
    for (double k = 1; k <= std::fmax(k_max, c.k); ++k) {
      each.k = k;
      const SpeculativeRound e = speculative_round(each);
      rounds.rows.push_back({Value::of(k), Value::of(e.tokens), Value::of(e.t_per_token),
                             Value::of(e.speedup), Value::of(k == c.k ? "yes" : "no"),
                             Value::of(k == best.k ? "yes" : "no")});
    }
    out.table("rounds", std::move(rounds));
  }
  return std::nullopt;
}

}  // namespace

Calculator speculative_calculator() { return {schema(), compute}; }

}  // namespace scalebook
