// The gpu-planner calculator: its inputs read into planner.h's model, and its outputs set.
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "planner_parts.h"
#include "scalebook/core/format.h"
#include "scalebook/hardware/chip_inputs.h"
#include "scalebook/transformer/model_preset.h"

namespace scalebook::planner_parts {
namespace {

Error fail(const std::string& field, std::string message) {
  return Error{ErrorCode::invalid_argument, field, std::move(message)};
}

std::string gpu_ids() {
  std::vector<std::string> ids;
  for (const Chip& c : chips())
    if (!is_tpu(c)) ids.push_back(c.id);
  return join(ids);
}

// A catalog link number the plan needs, or an error saying how to give it.
Result<double> link(const Chip& chip, double value, const char* field, const char* what,
                    const char* symbol) {
  if (value > 0) return value;
  return fail(field,
              chip.id + " has no " + what + " in the catalog; give " + field + " (" + symbol + ")");
}

// dp from dp, fsdp or the GPUs left over, checked against the GPUs.
Result<double> read_dp(const ResolvedInputs& in, double mp, const std::string& degrees) {
  const double gpus = in.number("gpus");
  if (in.has("dp") && in.has("fsdp")) return fail("fsdp", "give dp or fsdp, not both");
  const char* field = in.has("fsdp") ? "fsdp" : "dp";
  if (in.has(field)) {
    const double dp = in.number(field);
    if (dp * mp != gpus) {
      return fail(field, std::string(field) + " x tp x ep x pp = " + format_number(dp) + " x " +
                             degrees + " = " + format_number(dp * mp) + " GPUs, not the gpus = " +
                             format_number(gpus) + "; give gpus = " + format_number(dp * mp) +
                             " or a " + field + " that makes " + format_number(gpus));
    }
    return dp;
  }
  if (std::fmod(gpus, mp) != 0)
    return fail("gpus", "gpus = " + format_number(gpus) + " is not a multiple of tp x ep x pp = " +
                            degrees + " = " + format_number(mp));
  return gpus / mp;
}

}  // namespace

Result<GpuPlanInput> read(const ResolvedInputs& in) {
  const Chip& chip = *chip_of(in);
  if (is_tpu(chip))
    return fail("chip", "gpu-planner plans GPU clusters, and " + chip.id +
                            " is a TPU; choose a GPU: " + gpu_ids());
  GpuPlanInput p;
  const Dtype dtype = *parse_dtype(in.text("dtype"));
  p.C = in.has("peak_flops") ? in.number("peak_flops") : peak_flops(chip, dtype);
  if (!(p.C > 0))
    return Error{ErrorCode::unsupported, "dtype",
                 chip.id + " has no " + to_string(dtype) +
                     " peak in the catalog; give peak_flops to set one"};
  Result<double> w_gpu =
      link(chip, chip.nvlink_bandwidth, "nvlink_bandwidth", "NVLink egress", "W_gpu");
  if (!w_gpu.ok()) return w_gpu.error();
  Result<double> n =
      link(chip, chip.nvlink_domain_gpus, "nvlink_domain_gpus", "NVLink domain size", "n");
  if (!n.ok()) return n.error();
  // Without a node figure, a node's NICs are its egress (DeepSeek's H800s: 8 x 50 GB/s).
  const double nics = n.value() * chip.nics_per_gpu * chip.nic_bandwidth;
  p.W_node_from_nics = !(chip.node_egress_bandwidth > 0) && nics > 0;
  Result<double> w_node = link(chip, p.W_node_from_nics ? nics : chip.node_egress_bandwidth,
                               "node_egress_bandwidth", "node egress", "W_node");
  if (!w_node.ok()) return w_node.error();
  p.W_gpu = w_gpu.value(), p.W_node = w_node.value(), p.node_gpus = n.value();
  p.hbm = chip.hbm_capacity;

  const Model& m = *model_of(in);
  p.D = m.D, p.L = m.L, p.E = m.E, p.k = m.experts_per_token;
  p.F = m.E > 0 && m.F_expert > 0 ? m.F_expert : m.F;
  const ParamCounts counts = count_params(m);
  const double scale = in.has("params") ? in.number("params") / counts.total : 1;
  p.params = counts.total * scale;
  p.expert_params = counts.expert * m.E * counts.moe_layers * scale;
  p.active_params = counts.active * scale;
  p.B = in.number("B");

  p.tp = in.number("tp"), p.ep = in.number("ep"), p.pp = in.number("pp");
  if (in.text("tp_span") == "node" && p.tp > p.node_gpus)
    return fail("tp", "tp = " + format_number(p.tp) + " is wider than the " + chip.id +
                          "'s NVLink domain of " + format_number(p.node_gpus) +
                          " GPUs; keep tp within a node, or set tp_span = nodes to cross nodes");
  const std::string degrees =
      format_number(p.tp) + " x " + format_number(p.ep) + " x " + format_number(p.pp);
  Result<double> dp = read_dp(in, p.tp * p.ep * p.pp, degrees);
  if (!dp.ok()) return dp.error();
  p.dp = dp.value();
  p.zero = in.has("fsdp") ? 3 : static_cast<int>(in.number("zero"));
  if (in.has("microbatches")) p.microbatches = in.number("microbatches");
  p.bytes_params = in.number("bytes_params");
  p.bytes_optimizer = in.number("bytes_optimizer");
  p.bytes_grads = in.number("bytes_grads");
  if (in.has("tokens")) p.tokens = in.number("tokens");
  p.mfu = in.number("mfu");
  return p;
}

std::optional<Error> compute(const ResolvedInputs& in, ResultBuilder& out) {
  Result<GpuPlanInput> read_in = read(in);
  if (!read_in.ok()) return read_in.error();
  const GpuPlanInput& x = read_in.value();
  Result<GpuPlan> planned = plan_gpus(x);
  if (!planned.ok()) return planned.error();
  const GpuPlan& p = planned.value();
  const bool moe = x.E > 0;
  const std::string dense = "a dense model: no experts";

  out.set("gpus", p.gpus);
  out.set("dp", x.dp);
  out.set("tokens_per_gpu", p.tokens_per_gpu);
  out.set("dp_critical_node", p.alpha_node);
  out.set("dp_critical", p.alpha);
  out.set("dp_min_batch", p.dp_min_batch);
  if (moe)
    out.set("dp_critical_moe", p.dp_critical_moe);
  else
    out.none("dp_critical_moe", dense);
  out.set("dp_nodes", p.dp.nodes);
  if (p.dp.nodes > 1)
    out.set("dp_critical_small", p.dp_critical_small);
  else
    out.none("dp_critical_small", "DP stays inside one node");
  out.set("mp_nodes", p.mp_nodes);
  out.set("mp_bandwidth", p.mp_bandwidth);
  out.set("dp_critical_mp", p.dp_critical_mp);
  out.set("tp_max_node", p.tp_max_node);
  out.set("tp_max", p.tp_max);
  out.set("tp_max_2node", p.tp_max_2node);
  if (moe) {
    out.set("ep_f_critical", p.ep_f_critical);
    out.set("ep_max", p.ep_max);
  } else {
    out.none("ep_f_critical", dense);
    out.none("ep_max", dense);
  }
  const struct {
    const char* name;
    const StrategyCost& s;
  } strategies[] = {{"dp", p.dp}, {"tp", p.tp}, {"ep", p.ep}, {"pp", p.pp}};
  Table table;
  if (out.tables()) table = empty_table(out.schema().tables[0]);
  for (const auto& [name, s] : strategies) {
    const std::string n = name;
    std::string upper = n;
    for (char& c : upper) c = static_cast<char>(c - 'a' + 'A');
    const std::string unused = n + " = 1: no " + upper + " communication";
    out.set(n + "_t_math", s.t_math);
    out.set(n + "_t_comms", s.t_comms);
    if (s.degree > 1)
      out.set_text(n + "_compute_bound", s.compute_bound() ? "yes" : "no");
    else
      out.none(n + "_compute_bound", unused);
    if (out.tables()) {
      table.rows.push_back(
          {Value::of(upper), Value::of(s.degree), Value::of(s.nodes), Value::of(s.t_math),
           Value::of(s.t_comms),
           s.degree > 1 ? Value::of(s.compute_bound() ? "yes" : "no") : Value::absent(unused)});
    }
  }
  if (x.dp > 1)
    out.set("dp_critical_layout", p.dp_critical_layout);
  else
    out.none("dp_critical_layout", "dp = 1: no DP communication");
  if (x.pp > 1)
    out.set("pp_per_layer", p.pp_per_layer);
  else
    out.none("pp_per_layer", "pp = 1: no stages");
  out.set("memory_total", p.memory_total);
  out.set("memory_per_gpu", p.memory_per_gpu);
  out.set_text("fits", p.memory_per_gpu <= x.hbm ? "yes" : "no");
  out.set("min_gpus", p.min_gpus);
  if (x.tokens > 0) {
    out.set("run_flops", p.run_flops);
    out.set("run_time", p.run_time);
  } else {
    out.none("run_flops", "give tokens for the run");
    out.none("run_time", "give tokens for the run");
  }
  if (out.explain()) out.steps(steps(x, p, chip_of(in)->name));
  if (out.tables()) out.table("strategies", std::move(table));
  return std::nullopt;
}

}  // namespace scalebook::planner_parts
