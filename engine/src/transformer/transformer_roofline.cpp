// The transformer calculator's roofline: arithmetic intensity of the MLP and attention blocks
// in prefill (and training) and decode against the chip's critical intensity (chapter 4,
// Questions 4 and 8; chapter 7 for the MoE batch).
#include <string>

#include "scalebook/core/format.h"
#include "scalebook/hardware/chip_inputs.h"
#include "transformer_parts.h"

namespace scalebook::transformer_parts {
namespace {

std::string n(double x) { return latex_number(x); }

std::string q(double x, const char* unit) { return latex_quantity(x, unit); }

const char* bound(double intensity, double critical) {
  return intensity >= critical ? "compute" : "memory";
}

// One weight matmul of the MLP with `tokens` tokens: a dense D x F matrix, or an MoE layer's
// expert matrices, all E of which are read while each token works in k of them. Writes the
// step's formula to `latex` unless it is null (the numbers-only path).
double mlp_intensity(const Setup& s, double tokens, std::string* latex) {
  const Model& m = *s.model;
  if (m.E > 0) {
    double F = m.F_expert > 0 ? m.F_expert : m.F;
    double k = m.experts_per_token;
    double flops = 2 * tokens * k * m.D * F;
    double bytes = s.w * m.E * m.D * F + s.a * tokens * k * (m.D + F);
    if (latex)
      *latex = "\\frac{2 n k D F_e}{b_w E D F_e + b_a n k (D + F_e)} = \\frac{" +
               times({2, tokens, k, m.D, F}) + "}{" + times({s.w, m.E, m.D, F}) + " + " +
               times({s.a, tokens, k}) + " \\cdot (" + n(m.D) + " + " + n(F) +
               ")} = " + q(flops / bytes, "FLOP/B");
    return flops / bytes;
  }
  double flops = 2 * tokens * m.D * m.F;
  double bytes = s.w * m.D * m.F + s.a * tokens * (m.D + m.F);
  if (latex)
    *latex = "\\frac{2 n D F}{b_w D F + b_a n (D + F)} = \\frac{" + times({2, tokens, m.D, m.F}) +
             "}{" + times({s.w, m.D, m.F}) + " + " + times({s.a, tokens}) + " \\cdot (" + n(m.D) +
             " + " + n(m.F) + ")} = " + q(flops / bytes, "FLOP/B");
  return flops / bytes;
}

void add_mlp(const Setup& s, Sheet& sheet, double critical) {
  const Model& m = *s.model;
  std::string latex;
  std::string* formula = sheet.explain() ? &latex : nullptr;
  double prefill = mlp_intensity(s, s.B * s.T, formula);
  sheet.add("mlp_intensity_prefill",
            "MLP intensity in prefill and training: n = BT tokens per weight read",
            [&] { return std::string(latex); }, prefill, "FLOP/B", {"tokens"});
  double decode = mlp_intensity(s, s.B, formula);
  sheet.add(
      "mlp_intensity_decode", "MLP intensity in decode: n = B tokens (one per sequence)",
      [&] { return std::string(latex); }, decode, "FLOP/B");
  double dense = critical * s.w / 2;
  sheet.add("mlp_critical_tokens",
            "Tokens for a dense MLP to be compute-bound (tokens much less than D, F)",
            [&] {
              return std::string("\\frac{2n}{b_w} > I_\\text{crit} \\iff n > \\frac{" +
                                 n(critical) + " \\cdot " + n(s.w) +
                                 "}{2} = " + q(dense, "tokens"));
            },
            dense, "tokens", {"critical_intensity"});
  if (m.E > 0) {
    double moe = dense * m.E / m.experts_per_token;
    sheet.add("moe_critical_tokens",
              "Tokens for the experts to be compute-bound: every expert's weights are read, each "
              "token uses k",
              [&] {
                return std::string(
                    "\\frac{2 k n}{b_w E} > I_\\text{crit} \\iff n > \\frac{I_\\text{crit} b_w}{2} "
                    "\\cdot \\frac{E}{k} = " +
                    n(dense) + " \\cdot \\frac{" + n(m.E) + "}{" + n(m.experts_per_token) +
                    "} = " + q(moe, "tokens"));
              },
              moe, "tokens", {"mlp_critical_tokens"});
  } else {
    sheet.none("moe_critical_tokens", "a dense model: no experts");
  }
  // After the critical tokens, as the schema lists them: the builder looks for an output just
  // past the last one set before it searches the whole list.
  sheet.set_text("mlp_bound_prefill", bound(prefill, critical));
  sheet.set_text("mlp_bound_decode", bound(decode, critical));
}

void add_attention(const Setup& s, Sheet& sheet, double critical) {
  const Model& m = *s.model;
  if (m.kv_rank > 0) {  // latent attention's intensity depends on its kernel: not modelled
    for (const char* output :
         {"attention_intensity_prefill", "attention_intensity_decode", "attention_critical_T",
          "attention_critical_S", "attention_decode_limit", "attention_bound_prefill",
          "attention_bound_decode"})
      sheet.none(output,
                 "latent attention (MLA): its intensity depends on the kernel, not modelled");
    return;
  }
  double G = m.N / m.K;
  double c = s.causal ? 0.5 : 1;
  const char* cl = s.causal ? "\\tfrac{1}{2} \\cdot " : "";
  double prefill = 2 * c * s.T * G / (s.a * G + s.kv);
  sheet.add("attention_intensity_prefill",
            "Attention intensity in prefill: FLOPs 4BT^2NH over bytes b_a 2BTNH (Q, O) + b_kv "
            "2BTKH (K, V)",
            [&] {
              return std::string("\\frac{" + std::string(cl) + "2 T G}{b_a G + b_{kv}} = \\frac{" +
                                 cl + times({2, s.T, G}) + "}{" + times({s.a, G}) + " + " +
                                 n(s.kv) + "} = " + q(prefill, "FLOP/B"));
            },
            prefill, "FLOP/B", {"G"});
  double decode = 2 * s.S * G / (s.a * G + s.kv * s.S);
  sheet.add("attention_intensity_decode",
            "Attention intensity in decode: one query token over S keys (T = 1)",
            [&] {
              return std::string("\\frac{2 S G}{b_a G + b_{kv} S} = \\frac{" + times({2, s.S, G}) +
                                 "}{" + times({s.a, G}) + " + " + times({s.kv, s.S}) +
                                 "} = " + q(decode, "FLOP/B"));
            },
            decode, "FLOP/B", {"G"});
  double critical_T = critical * (s.a * G + s.kv) / (2 * c * G);
  sheet.add("attention_critical_T", "Prefill length above which attention is compute-bound",
            [&] {
              return std::string("T > \\frac{I_\\text{crit} (b_a G + b_{kv})}{" +
                                 std::string(s.causal ? "" : "2 ") + "G} = \\frac{" + n(critical) +
                                 " \\cdot (" + times({s.a, G}) + " + " + n(s.kv) + ")}{" +
                                 times({2 * c, G}) + "} = " + q(critical_T, "tokens"));
            },
            critical_T, "tokens", {"critical_intensity", "G"});
  double limit = 2 * G / s.kv;
  sheet.add("attention_decode_limit", "Decode attention's intensity as S grows",
            [&] {
              return std::string(
                  "\\lim_{S \\to \\infty} \\frac{2 S G}{b_a G + b_{kv} S} = \\frac{2G}{b_{kv}} = "
                  "\\frac{" +
                  times({2, G}) + "}{" + n(s.kv) + "} = " + q(limit, "FLOP/B"));
            },
            limit, "FLOP/B", {"G"});
  if (limit > critical) {
    double critical_S = critical * s.a * G / (2 * G - critical * s.kv);
    sheet.add(
        "attention_critical_S", "Context above which decode attention is compute-bound",
        [&] {
          return std::string("S > \\frac{I_\\text{crit} b_a G}{2G - I_\\text{crit} b_{kv}} = " +
                             q(critical_S, "tokens"));
        },
        critical_S, "tokens", {"critical_intensity", "attention_decode_limit"});
  } else {
    sheet.none(
        "attention_critical_S",
        "never compute-bound: decode attention's intensity stays under the chip's as S grows");
  }
  sheet.set_text("attention_bound_prefill", bound(prefill, critical));
  sheet.set_text("attention_bound_decode", bound(decode, critical));
}

}  // namespace

void add_roofline(const Setup& s, Sheet& sheet) {
  double critical = s.peak_flops / s.hbm_bandwidth;
  auto label = [&] {
    return "Critical intensity of the chip (" + std::string(to_string(s.compute_dtype)) + ")";
  };
  auto latex = [&] {
    return critical_intensity_step(label(), s.peak_flops, s.hbm_bandwidth).latex;
  };
  sheet.add("critical_intensity", label, latex, critical, "FLOP/B");
  add_mlp(s, sheet, critical);
  add_attention(s, sheet, critical);
  sheet.set("peak_flops", s.peak_flops);
  sheet.set("hbm_bandwidth", s.hbm_bandwidth);
}

}  // namespace scalebook::transformer_parts
