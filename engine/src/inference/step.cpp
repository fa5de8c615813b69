// One prefill or decode step, per chip (chapter 7's roofline of a step; see inference.h).
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "scalebook/collectives/collective_cost.h"
#include "scalebook/collectives/gpu_collective_cost.h"
#include "scalebook/collectives/switched_cost.h"
#include "scalebook/core/format.h"
#include "scalebook/inference/inference.h"

namespace scalebook {
namespace {

Error fail(std::string field, std::string message) {
  return Error{ErrorCode::invalid_argument, std::move(field), std::move(message)};
}

std::optional<Error> positive(const char* field, double value, const char* unit) {
  if (std::isfinite(value) && value > 0) return std::nullopt;
  return fail(field, std::string(field) + " must be a positive number of " + unit + ", got " +
                         format_number(value));
}

std::optional<Error> check(const InferenceConfig& c) {
  const bool decode = c.phase == InferencePhase::decode;
  struct Size {
    const char* field;
    double value;
    const char* unit;
  };
  const Size sizes[] = {
      {"batch", c.batch, "sequences"},
      {decode ? "context" : "tokens", decode ? c.context : c.tokens, "tokens"},
      {"weight_bytes", c.weight_bytes, "bytes per parameter"},
      {"kv_bytes", c.kv_bytes, "bytes per element"},
      {"activation_bytes", c.activation_bytes, "bytes per element"},
      {"peak_flops", c.peak_flops, "FLOP/s"},
      {"hbm_bandwidth", c.hbm_bandwidth, "B/s"},
      {"hbm_capacity", c.hbm_capacity, "B"},
  };
  for (const Size& s : sizes)
    if (auto bad = positive(s.field, s.value, s.unit)) return bad;
  for (auto [field, value] : {std::pair{"peak_flops_bf16", c.peak_flops_bf16},
                              std::pair{"peak_flops_int8", c.peak_flops_int8}}) {
    if (!std::isfinite(value) || value < 0)
      return fail(field, std::string(field) + " must be 0 (none) or a positive number of " +
                             "FLOP/s, got " + format_number(value));
  }
  const Model& m = c.model;
  // check_model leaves the shape's ranges to the inputs a calculator reads it from.
  const Size shape[] = {{"L", m.L, "layers"}, {"D", m.D, "elements"}, {"F", m.F, "elements"},
                        {"N", m.N, "heads"},  {"K", m.K, "heads"},    {"H", m.H, "elements"},
                        {"V", m.V, "tokens"}};
  for (const Size& s : shape)
    if (auto bad = positive(s.field, s.value, s.unit)) return bad;
  if (std::optional<Error> bad = check_model(m)) return bad;
  const double tp = c.slice.tp, ep = c.slice.ep;
  if (!(tp >= 1) || std::fmod(m.N, tp) != 0 || std::fmod(m.F, tp) != 0) {
    return fail("tp", "tp = " + format_number(tp) + " must divide the " + format_number(m.N) +
                          " query heads and F = " + format_number(m.F));
  }
  if (!(ep >= 1) || (ep > 1 && (m.E <= 0 || std::fmod(m.E, ep) != 0))) {
    return fail("ep", "ep = " + format_number(ep) + " must divide the " + format_number(m.E) +
                          " experts" + (m.E > 0 ? "" : " (a dense model takes ep = 1)"));
  }
  if (!std::isfinite(c.slice.hop_latency) || c.slice.hop_latency < 0) {
    return fail("hop_latency", "hop_latency must be 0 or a positive number of s, got " +
                                   format_number(c.slice.hop_latency));
  }
  if ((tp > 1 || ep > 1) && !(c.slice.topology.link_bandwidth > 0))
    return fail("slice", "the slice has no link bandwidth for the tp and ep collectives");
  return std::nullopt;
}

// One collective of `bytes` over the tp (or ep) chips of the slice.
CollectiveCost cost(CollectiveOp op, double bytes, const std::vector<Axis>& axes, double chips,
                    const InferenceSlice& s) {
  if (s.topology.fabric == Fabric::switched) {
    // The group's GPUs fill a node before they span nodes.
    const double in_node = std::min(chips, s.topology.node_gpus);
    GpuGroup group{s.topology.levels,
                   switched_extents(s.topology.levels, in_node, chips / in_node, 1), s.hop_latency};
    return gpu_collective_cost(op, bytes, group, false);
  }
  return collective_cost(op, bytes, axes, LinkModel{s.topology.link_bandwidth, s.hop_latency},
                         false);
}

// Chips one cache is split over: KV heads first, as far as they divide the replica's tp chips,
// then (unless only heads) sequences over the rest; ep groups each hold their own sequences.
double kv_split(const InferenceConfig& c) {
  if (c.kv_sharding != KvSharding::heads) return c.slice.tp * c.slice.ep;
  return std::min(c.model.K, c.slice.tp) * c.slice.ep;
}

// The 2D weight-stationary MLP's collectives per layer at its best X (appendix B), in the
// book's bf16 form 2BD / (X W) + 4BF / (YZ W) with a bytes per element: a B D / (X W) +
// 2a B F X / (N W), least at X = sqrt(D N / (2F)).
double mlp_2d_time(double a, double tokens, double D, double F, double n, double w_ici) {
  const double x = std::sqrt(D * n / (2 * F));
  return a * tokens * D / (x * w_ici) + 2 * a * tokens * F * x / (n * w_ici);
}

void add_collectives(const InferenceConfig& c, const ParamCounts& p, double tokens,
                     InferenceStep& r) {
  const Model& m = c.model;
  const InferenceSlice& s = c.slice;
  if (s.tp > 1) {
    // The [tokens, D] activations of one ep group, gathered before and scattered after each
    // attention and MLP block.
    const double bytes = c.activation_bytes * tokens / s.ep * m.D;
    CollectiveCost gather = cost(CollectiveOp::all_gather, bytes, s.tp_axes, s.tp, s);
    CollectiveCost scatter = cost(CollectiveOp::reduce_scatter, bytes, s.tp_axes, s.tp, s);
    r.t_collective_tp = gather.time;
    r.collectives_latency_bound = gather.latency_bound;
    const double block = gather.time + scatter.time;
    r.t_collective_mlp = block;
    if (c.mlp_sharding == MlpSharding::two_d && r.w_ici > 0) {
      r.t_collective_mlp =
          std::max(mlp_2d_time(c.activation_bytes, tokens / s.ep, m.D, m.F, s.tp, r.w_ici),
                   2 * s.hop_latency);
    }
    r.t_collectives += m.L * (block + r.t_collective_mlp);
    if (c.kv_sharding != KvSharding::heads && s.tp > std::min(m.K, s.tp)) {
      // The queries [tokens, N H] move from head to batch sharding and the outputs back.
      const double q = c.activation_bytes * tokens / s.ep * m.N * m.H;
      r.t_collective_kv = cost(CollectiveOp::all_to_all, q, s.tp_axes, s.tp, s).time;
      r.t_collectives += m.L * 2 * r.t_collective_kv;
    }
  }
  if (s.ep > 1) {
    // Each token's k routed copies, to their experts and back.
    const double bytes = c.activation_bytes * tokens * m.experts_per_token * m.D;
    r.t_collective_ep = cost(CollectiveOp::all_to_all, bytes, s.ep_axes, s.ep, s).time;
    r.t_collectives += p.moe_layers * 2 * r.t_collective_ep;
  }
}

void add_limits(const InferenceConfig& c, double tokens, InferenceStep& r) {
  const Model& m = c.model;
  if (r.w_ici <= 0) return;
  const double a = c.activation_bytes;
  r.tp_limit_decode = c.weight_bytes / a * m.F * r.w_ici / (tokens * c.hbm_bandwidth);
  r.tp_limit_prefill = 2 * m.F * r.w_ici / (a * c.peak_flops);
  const double n = c.slice.tp;
  r.t_mlp_comms_1d = 2 * a * tokens * m.D / (3 * r.w_ici);
  r.x_2d = std::sqrt(m.D * n / (2 * m.F));
  r.yz_2d = n / r.x_2d;
  r.t_mlp_comms_2d = mlp_2d_time(a, tokens, m.D, m.F, n, r.w_ici);
  r.crossover_2d = 18 * m.F / m.D;
}

InferenceBound bound_of(const InferenceStep& r) {
  const double flops = r.t_flops + r.t_attention_flops;
  const double largest = std::max({r.t_kv_load, r.t_weight_load, flops, r.t_collectives});
  if (largest == r.t_collectives) return InferenceBound::collectives;
  if (largest == r.t_kv_load) return InferenceBound::kv_load;
  if (largest == flops) return InferenceBound::flops;
  return InferenceBound::weight_load;
}

// Matmuls turn compute-bound where 2 B / C = w / W_hbm: B = C w / (2 W_hbm).
double critical(double flops, double weight_bytes, double hbm) {
  return flops * weight_bytes / (2 * hbm);
}

}  // namespace

const char* to_string(InferencePhase phase) {
  return phase == InferencePhase::prefill ? "prefill" : "decode";
}

const char* to_string(KvSharding sharding) {
  switch (sharding) {
    case KvSharding::heads:
      return "heads";
    case KvSharding::batch:
      return "batch";
    default:
      return "heads-batch";
  }
}

const char* to_string(MlpSharding sharding) { return sharding == MlpSharding::two_d ? "2d" : "1d"; }

const char* to_string(InferenceBound bound) {
  switch (bound) {
    case InferenceBound::kv_load:
      return "KV-cache loading";
    case InferenceBound::flops:
      return "FLOPs";
    case InferenceBound::collectives:
      return "collectives";
    default:
      return "weight loading";
  }
}

void set_chip(InferenceConfig& config, const Chip& chip, Dtype compute) {
  config.peak_flops = peak_flops(chip, compute);
  config.peak_flops_bf16 = peak_flops(chip, Dtype::bf16);
  config.peak_flops_int8 = peak_flops(chip, Dtype::int8);
  config.hbm_bandwidth = chip.hbm_bandwidth;
  config.hbm_capacity = chip.hbm_capacity;
}

Result<InferenceStep> inference_step(const InferenceConfig& c) {
  if (std::optional<Error> bad = check(c)) return *bad;
  const Model& m = c.model;
  const ParamCounts p = count_params(m);
  const bool decode = c.phase == InferencePhase::decode;
  const double chips = c.slice.tp * c.slice.ep;  // one replica's
  InferenceStep r;
  r.params = p.total;
  r.kv_bytes_per_token = kv_elements_per_token(m) * c.kv_bytes;
  const double cached = decode ? c.context : c.tokens;  // tokens in each sequence's cache
  r.kv_bytes_per_sequence = r.kv_bytes_per_token * cached;
  const double n = decode ? c.batch : c.batch * c.tokens;
  r.step_tokens = n;

  // Weights: the dense part split tp ways, the routed experts tp x ep ways.
  const double routed = m.E * p.expert * p.moe_layers;
  const double dense = p.total - routed;
  r.weight_bytes_per_chip = c.weight_bytes * (dense / c.slice.tp + routed / chips);
  r.experts_loaded = m.E > 0 ? m.E * (1 - std::pow(1 - m.experts_per_token / m.E, n)) : 0;
  r.weight_bytes_loaded =
      c.weight_bytes * (dense / c.slice.tp + r.experts_loaded * p.expert * p.moe_layers / chips);

  r.flops_matmul = n * matmul_flops_per_token(m, p) / chips;
  // A prefill token attends to T/2 keys on average under the causal mask.
  const double keys = decode ? c.context : c.tokens / 2;
  r.flops_attention = n * keys * attention_flops_per_key(m) / chips;
  // Decode reads every sequence's cache; prefill writes it.
  r.kv_split = kv_split(c);
  r.kv_bytes_per_chip = c.batch * r.kv_bytes_per_sequence / r.kv_split;
  r.kv_bytes_loaded = r.kv_bytes_per_chip;

  r.t_flops = r.flops_matmul / c.peak_flops;
  r.t_weight_load = r.weight_bytes_loaded / c.hbm_bandwidth;
  r.t_matmul = std::max(r.t_flops, r.t_weight_load);
  r.t_attention_flops = r.flops_attention / c.peak_flops;
  r.t_kv_load = r.kv_bytes_loaded / c.hbm_bandwidth;
  r.t_attention = std::max(r.t_attention_flops, r.t_kv_load);
  r.w_ici = 2 * c.slice.topology.link_bandwidth;
  add_collectives(c, p, n, r);
  r.t_roofline = r.t_attention + r.t_matmul;
  r.t_step = r.t_roofline + r.t_collectives;
  r.bound = bound_of(r);

  r.t_per_token = r.t_step;
  r.tokens_per_s = n * c.slice.replicas / r.t_step;
  r.tokens_per_s_per_chip = r.tokens_per_s / (chips * c.slice.replicas);

  r.hbm_used = r.weight_bytes_per_chip + r.kv_bytes_per_chip;
  r.fits = r.hbm_used <= c.hbm_capacity;
  const double room = c.hbm_capacity - r.weight_bytes_per_chip;
  r.max_batch = room > 0 ? std::floor(room * r.kv_split / r.kv_bytes_per_sequence) : 0;

  r.moe_factor = m.E > 0 ? m.E / m.experts_per_token : 1;
  r.critical_batch = critical(c.peak_flops, c.weight_bytes, c.hbm_bandwidth) * r.moe_factor;
  r.critical_batch_bf16 = critical(c.peak_flops_bf16, 2, c.hbm_bandwidth);
  r.critical_batch_int8_weights = critical(c.peak_flops_bf16, 1, c.hbm_bandwidth);
  r.critical_batch_int8 = critical(c.peak_flops_int8, 1, c.hbm_bandwidth);
  add_limits(c, n, r);
  return r;
}

}  // namespace scalebook
