// The inference calculator's worked steps: each number of the step from the model, the chip
// and the sharding, in the order the chapter derives them.
#include <string>
#include <utility>
#include <vector>

#include "parts.h"
#include "scalebook/core/format.h"

namespace scalebook::inference_parts {
namespace {

class Steps {
 public:
  // Literal unit, output and depends: Step's out-of-line constructor builds them.
  void add(std::string label, std::string latex, double value, const char* unit, const char* output,
           std::initializer_list<const char*> depends = {}) {
    list.emplace_back(std::move(label), std::move(latex), value, unit, output, depends);
  }
  std::vector<Step> list;
};

std::string n(double x) { return latex_number(x); }
std::string q(double x, const char* unit) { return latex_quantity(x, unit); }

}  // namespace

std::vector<Step> inference_steps(const InferenceConfig& c, const InferenceStep& r, double price) {
  const Model& m = c.model;
  const bool decode = c.phase == InferencePhase::decode;
  const double replica = c.slice.tp * c.slice.ep;
  const double chips = replica * c.slice.replicas;
  Steps st;
  st.add("KV cache per token: a key and a value of K heads of H, every layer",
         "2 L K H \\cdot b_\\text{kv} = 2 \\cdot " + n(m.L) + " \\cdot " + n(m.K) + " \\cdot " +
             n(m.H) + " \\cdot " + n(c.kv_bytes) + " = " + q(r.kv_bytes_per_token, "B"),
         r.kv_bytes_per_token, "B", "kv_bytes_per_token");
  st.add(std::string("One sequence's cache, ") + (decode ? "S" : "T") + " tokens",
         q(r.kv_bytes_per_token, "B") + " \\cdot " + n(decode ? c.context : c.tokens) + " = " +
             q(r.kv_bytes_per_sequence, "B"),
         r.kv_bytes_per_sequence, "B", "kv_bytes_per_sequence", {"kv_bytes_per_token"});
  st.add("Weights each chip holds: dense weights split tp ways, experts tp x ep ways",
         "\\frac{" + n(r.params) + " \\text{ params} \\cdot " + n(c.weight_bytes) +
             " \\text{ B}}{\\ldots} = " + q(r.weight_bytes_per_chip, "B"),
         r.weight_bytes_per_chip, "B", "weight_bytes_per_chip");
  st.add(
      "KV caches each chip holds: the batch's, split over " + format_number(r.kv_split) + " chips",
      "\\frac{" + n(c.batch) + " \\cdot " + q(r.kv_bytes_per_sequence, "B") + "}{" + n(r.kv_split) +
          "} = " + q(r.kv_bytes_per_chip, "B"),
      r.kv_bytes_per_chip, "B", "kv_bytes_per_chip", {"kv_bytes_per_sequence"});
  st.add("Loading the weights the step uses from HBM",
         "T_\\text{weights} = \\frac{" + q(r.weight_bytes_loaded, "B") + "}{" +
             q(c.hbm_bandwidth, "B/s") + "} = " + q(r.t_weight_load, "s"),
         r.t_weight_load, "s", "t_weight_load");
  st.add("The weight matmuls' FLOPs: 2 per active parameter per token",
         "T_\\text{FLOPs} = \\frac{" + n(r.flops_matmul) + "}{" + q(c.peak_flops, "FLOP/s") +
             "} = " + q(r.t_flops, "s") + " \\text{ for } " + n(r.step_tokens) + " \\text{ tokens}",
         r.t_flops, "s", "t_flops");
  st.add("The matmuls take the longer of the two",
         "T_\\text{matmul} = \\max(" + q(r.t_flops, "s") + ", " + q(r.t_weight_load, "s") +
             ") = " + q(r.t_matmul, "s"),
         r.t_matmul, "s", "t_matmul", {"t_flops", "t_weight_load"});
  st.add(decode ? "Attention reads every sequence's whole cache: bandwidth-bound"
                : "Attention's dot products under the causal mask",
         "T_\\text{attn} = \\max\\left(\\frac{" + q(r.kv_bytes_loaded, "B") + "}{" +
             q(c.hbm_bandwidth, "B/s") + "}, \\frac{" + n(r.flops_attention) + "}{" +
             q(c.peak_flops, "FLOP/s") + "}\\right) = " + q(r.t_attention, "s"),
         r.t_attention, "s", "t_attention", {"kv_bytes_per_chip"});
  if (r.t_collectives > 0) {
    st.add(std::string("Collectives: per layer an AllGather and a ReduceScatter around each "
                       "block") +
               (r.collectives_latency_bound ? ", each latency-bound" : ""),
           "T_\\text{comms} = " + q(r.t_collectives, "s") + " \\text{ (one AllGather: } " +
               q(r.t_collective_tp, "s") + ")",
           r.t_collectives, "s", "t_collectives");
  }
  st.add("The step waits for all three",
         "T_\\text{step} = " + q(r.t_attention, "s") + " + " + q(r.t_matmul, "s") + " + " +
             q(r.t_collectives, "s") + " = " + q(r.t_step, "s"),
         r.t_step, "s", "t_step", {"t_attention", "t_matmul"});
  st.add("Tokens per second per chip",
         "\\frac{" + n(r.step_tokens) + " \\cdot " + n(c.slice.replicas) + "}{" + q(r.t_step, "s") +
             " \\cdot " + n(chips) + "} = " + n(r.tokens_per_s_per_chip),
         r.tokens_per_s_per_chip, "tokens/s", "tokens_per_s_per_chip", {"t_step"});
  if (price > 0 && r.tokens_per_s > 0) {
    const double cost = cost_per_million(price, chips, r.tokens_per_s);
    st.add("Cost per million tokens at " + format_number(price) + " USD per chip-hour",
           "\\frac{" + n(price) + " \\cdot " + n(chips) + "}{3600 \\cdot " + n(r.tokens_per_s) +
               "} \\cdot 10^6 = " + n(cost) + " \\text{ USD}",
           cost, "USD", "cost_per_million", {"tokens_per_s_per_chip"});
  }
  st.add("The largest batch whose caches fit beside the weights",
         "\\left\\lfloor \\frac{(" + q(c.hbm_capacity, "B") + " - " +
             q(r.weight_bytes_per_chip, "B") + ") \\cdot " + n(r.kv_split) + "}{" +
             q(r.kv_bytes_per_sequence, "B") + "} \\right\\rfloor = " + n(r.max_batch),
         r.max_batch, "sequences", "max_batch", {"weight_bytes_per_chip", "kv_bytes_per_sequence"});
  st.add("Critical batch: matmuls turn compute-bound where FLOPs time meets weight loading",
         "B_\\text{crit} = \\frac{C \\, b_w}{2 W_\\text{hbm}}" +
             std::string(r.moe_factor > 1 ? " \\cdot \\frac{E}{k}" : "") + " = \\frac{" +
             q(c.peak_flops, "FLOP/s") + " \\cdot " + n(c.weight_bytes) + "}{2 \\cdot " +
             q(c.hbm_bandwidth, "B/s") + "}" +
             (r.moe_factor > 1 ? " \\cdot " + n(r.moe_factor) : std::string()) + " = " +
             n(r.critical_batch),
         r.critical_batch, "tokens", "critical_batch");
  if (r.w_ici > 0) {
    st.add("Decode's TP limit: past it the activations' collectives outlast the weight loads",
           "Y = \\frac{b_w}{b_a} \\frac{F \\, W_\\text{ici}}{B \\, W_\\text{hbm}} = \\frac{" +
               n(c.weight_bytes) + "}{" + n(c.activation_bytes) + "} \\cdot \\frac{" + n(m.F) +
               " \\cdot " + q(r.w_ici, "B/s") + "}{" + n(r.step_tokens) + " \\cdot " +
               q(c.hbm_bandwidth, "B/s") + "} = " + n(r.tp_limit_decode),
           r.tp_limit_decode, "chips", "tp_limit_decode");
    st.add("Prefill's TP limit on one axis: past it the collectives outlast the matmuls",
           "Y = \\frac{2 F \\, W_\\text{ici}}{b_a C} = \\frac{2 \\cdot " + n(m.F) + " \\cdot " +
               q(r.w_ici, "B/s") + "}{" + n(c.activation_bytes) + " \\cdot " +
               q(c.peak_flops, "FLOP/s") + "} = " + n(r.tp_limit_prefill),
           r.tp_limit_prefill, "chips", "tp_limit_prefill");
    st.add("2D weight-stationary sharding moves fewer bytes than 1D past",
           "N = 32 \\frac{F}{D} \\left(\\frac{3}{4}\\right)^2 = 18 \\cdot \\frac{" + n(m.F) + "}{" +
               n(m.D) + "} = " + n(r.crossover_2d),
           r.crossover_2d, "chips", "crossover_2d");
  }
  return st.list;
}

}  // namespace scalebook::inference_parts
