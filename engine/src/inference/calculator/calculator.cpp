// The `inference` calculator: the shared form read into a step's config (inputs.cpp), one
// inference_step, its outputs, and the batch table when asked for.
#include "scalebook/inference/calculator.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "parts.h"
#include "scalebook/core/format.h"
#include "scalebook/hardware/chip_inputs.h"

namespace scalebook {
namespace {

using inference_parts::inference_schema;

constexpr std::size_t kMostBatches = 32;

Value yes_no(bool b) { return Value::of(b ? "yes" : "no"); }

std::optional<Error> compute(const ResolvedInputs& in, ResultBuilder& out) {
  Result<InferenceConfig> read = inference_parts::read_config(in, in.text("shape"));
  if (!read.ok()) return read.error();
  const InferenceConfig& c = read.value();
  Result<InferenceStep> stepped = inference_step(c);
  if (!stepped.ok()) return stepped.error();
  const InferenceStep& r = stepped.value();
  const double replica = c.slice.tp * c.slice.ep;
  const double chips = replica * c.slice.replicas;
  const double price = chip_of(in)->price_per_hour;
  out.set("params", r.params);
  out.set("kv_bytes_per_token", r.kv_bytes_per_token);
  out.set("kv_bytes_per_sequence", r.kv_bytes_per_sequence);
  out.set("chips", chips);
  out.set("tp", c.slice.tp);
  out.set("ep", c.slice.ep);
  out.set("replicas", c.slice.replicas);
  out.set("step_tokens", r.step_tokens);
  out.set("t_step", r.t_step);
  out.set("t_attention", r.t_attention);
  out.set("t_kv_load", r.t_kv_load);
  out.set("t_attention_flops", r.t_attention_flops);
  out.set("t_matmul", r.t_matmul);
  out.set("t_flops", r.t_flops);
  out.set("t_weight_load", r.t_weight_load);
  out.set("t_collectives", r.t_collectives);
  out.set("t_collective_tp", r.t_collective_tp);
  out.set("collectives_latency_bound", yes_no(r.collectives_latency_bound));
  out.set("t_roofline", r.t_roofline);
  out.set_text("bound", to_string(r.bound));
  out.set("t_per_token", r.t_per_token);
  out.set("tokens_per_s", r.tokens_per_s);
  out.set("tokens_per_s_per_chip", r.tokens_per_s_per_chip);
  out.set("qps_per_chip", c.phase == InferencePhase::decode
                              ? r.tokens_per_s_per_chip / in.number("output")
                              : c.batch * c.slice.replicas / (r.t_step * chips));
  if (price > 0)
    out.set("cost_per_million", inference_parts::cost_per_million(price, chips, r.tokens_per_s));
  else
    out.set("cost_per_million",
            Value::absent(c.slice.topology.chips > 0 ? "the catalog has no price for this chip; "
                                                       "give price_per_hour"
                                                     : "no price"));
  out.set("weight_bytes_per_chip", r.weight_bytes_per_chip);
  out.set("kv_bytes_per_chip", r.kv_bytes_per_chip);
  out.set("hbm_used", r.hbm_used);
  out.set("hbm_capacity", c.hbm_capacity);
  out.set("fits", yes_no(r.fits));
  out.set("hbm_over", std::max(0.0, r.hbm_used - c.hbm_capacity));
  out.set("max_batch", r.max_batch);
  out.set("critical_batch", r.critical_batch);
  out.set("critical_batch_bf16", r.critical_batch_bf16);
  out.set("critical_batch_int8_weights", r.critical_batch_int8_weights);
  if (r.critical_batch_int8 > 0)
    out.set("critical_batch_int8", r.critical_batch_int8);
  else
    out.set("critical_batch_int8", Value::absent("the chip has no int8 peak in the catalog"));
  out.set("moe_factor", r.moe_factor);
  if (r.w_ici > 0) {
    out.set("w_ici", r.w_ici);
    out.set("tp_limit_decode", r.tp_limit_decode);
    out.set("tp_limit_prefill", r.tp_limit_prefill);
    out.set("t_mlp_comms_1d", r.t_mlp_comms_1d);
    out.set("t_mlp_comms_2d", r.t_mlp_comms_2d);
    out.set("x_2d", r.x_2d);
    out.set("yz_2d", r.yz_2d);
    out.set("crossover_2d", r.crossover_2d);
  } else {
    const char* why = "one chip: no links to shard over";
    for (const char* name : {"w_ici", "tp_limit_decode", "tp_limit_prefill", "t_mlp_comms_1d",
                             "t_mlp_comms_2d", "x_2d", "yz_2d", "crossover_2d"})
      out.set(name, Value::absent(why));
  }
  if (out.explain()) out.steps(inference_parts::inference_steps(c, r, price));
  Table rows = empty_table(inference_schema().tables[0]);
  if (in.has("batches")) {
    Result<std::vector<double>> batches =
        inference_parts::read_batches(in, "batches", kMostBatches);
    if (!batches.ok()) return batches.error();
    InferenceConfig at = c;
    at.phase = InferencePhase::decode;
    for (double b : batches.value()) {
      at.batch = b;
      Result<InferenceStep> s = inference_step(at);
      if (!s.ok()) return s.error();
      const InferenceStep& x = s.value();
      rows.rows.push_back({Value::of(b), Value::of(x.kv_bytes_per_chip * replica),
                           Value::of(x.hbm_used * replica), Value::of(x.t_roofline),
                           Value::of(x.t_step), Value::of(x.tokens_per_s), yes_no(x.fits),
                           Value::of(to_string(x.bound))});
    }
  }
  out.table("batches", std::move(rows));
  return std::nullopt;
}

}  // namespace

Calculator inference_calculator() { return {inference_schema(), compute}; }

}  // namespace scalebook
