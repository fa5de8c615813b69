// Where an inference replica's chips are: tp and ep placed on a TPU slice's axes the way the
// parallel layout places training's degrees, or inside one NVLink node of GPUs.
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "scalebook/core/format.h"
#include "scalebook/inference/inference.h"
#include "scalebook/parallelism/layout.h"

namespace scalebook {
namespace {

Error fail(std::string field, std::string message) {
  return Error{ErrorCode::invalid_argument, std::move(field), std::move(message)};
}

std::optional<Error> check_degree(const char* name, double degree) {
  if (std::isfinite(degree) && degree >= 1 && std::floor(degree) == degree) return std::nullopt;
  return fail(name, std::string(name) + " must be a whole number of chips, at least 1, got " +
                        format_number(degree));
}

std::vector<Axis> axes_of(const ParallelLayout& layout, unsigned mask) {
  std::vector<Axis> out;
  for (std::size_t i = 0; i < layout.axes.size(); ++i)
    if (mask & (1u << i)) out.push_back(layout.axes[i]);
  return out;
}

std::string sizes_of(const std::vector<Axis>& axes) {
  std::string out;
  for (const Axis& a : axes)
    out += (out.empty() ? "" : ", ") + axis_name(a) + " " + std::to_string(a.size);
  return out;
}

Result<InferenceSlice> on_gpus(const Chip& chip, InferenceSlice s) {
  const double replica = s.tp * s.ep;
  const double k = s.topology.node_gpus;
  // A replica fills part of one node or whole nodes (a model too large for one node, at the
  // cost of activation collectives over the scale-out network every layer).
  if (replica <= k ? std::fmod(k, replica) != 0 : std::fmod(replica, k) != 0) {
    return fail(s.tp > 1 ? "tp" : "ep",
                "tp x ep = " + format_number(replica) + " must divide the " + format_number(k) +
                    " GPUs of one " + chip.id + " node or be whole nodes (a multiple of " +
                    format_number(k) + ")");
  }
  if (std::fmod(s.topology.chips, replica) != 0) {
    return fail(s.tp > 1 ? "tp" : "ep", "tp x ep = " + format_number(replica) +
                                            " must divide the " + format_number(s.topology.chips) +
                                            " GPUs");
  }
  s.replicas = s.topology.chips / replica;
  s.hop_latency = s.topology.hop_latency;
  return s;
}

}  // namespace

Result<InferenceSlice> inference_slice(const Chip& chip, const std::string& shape, double tp,
                                       double ep) {
  if (auto bad = check_degree("tp", tp)) return *bad;
  if (auto bad = check_degree("ep", ep)) return *bad;
  Result<Topology> where = topology_of(chip, shape);
  if (!where.ok()) return where.error();
  InferenceSlice s;
  s.topology = where.value();
  s.tp = tp;
  s.ep = ep;
  if (s.topology.fabric == Fabric::switched) return on_gpus(chip, s);

  Result<ParallelLayout> parsed = parse_layout(chip, shape, {});
  if (!parsed.ok()) return parsed.error();
  ParallelLayout& layout = parsed.value();
  const std::vector<Axis> all = layout.axes;
  std::array<double, kStrategies> given{};
  given[kTp] = tp;
  given[kEp] = ep;
  // The layout's own message names tp_axes, an input this model does not have.
  if (std::optional<Error> bad = place_degrees(layout, given)) {
    return fail(bad->field, bad->field + "=" + format_number(bad->field == "tp" ? tp : ep) +
                                " does not fit the axes of " + layout.shape + " (" + sizes_of(all) +
                                "): tp and ep each take whole axes of their own");
  }
  s.tp_axes = axes_of(layout, layout.masks[kTp]);
  s.ep_axes = axes_of(layout, layout.masks[kEp]);
  s.replicas = layout.degrees[kFsdp];
  s.hop_latency = s.topology.hop_latency;
  return s;
}

}  // namespace scalebook
