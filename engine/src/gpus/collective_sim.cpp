#include "scalebook/gpus/collective_sim.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "scalebook/collectives/gpu_collective_cost.h"
#include "scalebook/collectives/switched_cost.h"
#include "scalebook/core/format.h"
#include "scalebook/hardware/catalog.h"
#include "scalebook/hardware/cluster.h"
#include "scalebook/hardware/topology.h"

namespace scalebook {
namespace {

using i64 = std::int64_t;

Error fail(ErrorCode code, const std::string& field, std::string message) {
  return Error{code, field, std::move(message)};
}

std::string gpu_ids() {
  std::string out;
  for (const Chip& c : chips())
    if (c.nvlink_bandwidth > 0 && c.nvlink_domain_gpus > 0) out += (out.empty() ? "" : ", ") + c.id;
  return out;
}

std::optional<Error> check_numbers(const GpuCollectiveSimRequest& q) {
  if (!std::isfinite(q.gpus) || q.gpus != std::floor(q.gpus) || q.gpus < 1) {
    return fail(ErrorCode::invalid_argument, "gpus",
                "gpus must be a whole number >= 1, got " + format_number(q.gpus));
  }
  if (q.gpus > kMaxGpuSimGpus) {
    return fail(ErrorCode::out_of_range, "gpus",
                "gpus must be <= " + format_number(kMaxGpuSimGpus) +
                    ": the simulation draws every GPU (the collective calculator costs larger "
                    "groups), got " +
                    format_number(q.gpus));
  }
  if (!std::isfinite(q.bytes) || q.bytes <= 0 || q.bytes > 1e18) {
    return fail(ErrorCode::out_of_range, "bytes",
                "bytes must be a finite number > 0 and <= 1e18, got " + format_number(q.bytes));
  }
  if (!std::isfinite(q.latency) || q.latency < 0 || q.latency > 1) {
    return fail(ErrorCode::out_of_range, "latency",
                "latency must be a finite number from 0 to 1 s, got " + format_number(q.latency));
  }
  const bool a2a = q.op == CollectiveOp::all_to_all;
  if (q.algorithm == GpuSimAlgorithm::in_network && q.op != CollectiveOp::all_reduce) {
    return fail(ErrorCode::invalid_argument, "algorithm",
                std::string("algorithm in-network reduces in the switches, so it takes op "
                            "all-reduce, got ") +
                    to_string(q.op));
  }
  if ((q.algorithm == GpuSimAlgorithm::direct) != a2a) {
    return fail(
        ErrorCode::invalid_argument, "algorithm",
        a2a ? std::string("op all-to-all takes algorithm direct, got ") + to_string(q.algorithm)
            : std::string("algorithm direct takes op all-to-all, got ") + to_string(q.op));
  }
  return std::nullopt;
}

struct Placement {
  std::vector<ClusterLevel> levels;
  std::string name;
};

Result<Placement> fabric_of(const Chip& chip, const GpuCollectiveSimRequest& q) {
  const double k = chip.nvlink_domain_gpus;
  if (q.gpus > k && std::fmod(q.gpus, k) != 0) {
    return fail(ErrorCode::invalid_argument, "gpus",
                "gpus must be at most " + format_number(k) + " (one " + chip.id +
                    " node) or a multiple of " + format_number(k) + ", got " +
                    format_number(q.gpus));
  }
  Placement f;
  if (!q.cluster.empty() && q.cluster != "auto") {
    const ClusterPreset* preset = find_cluster_preset(q.cluster);
    if (!preset) {
      std::string ids;
      for (const ClusterPreset& p : cluster_presets()) ids += (ids.empty() ? "" : ", ") + p.id;
      return fail(ErrorCode::not_found, "cluster",
                  "unknown cluster \"" + q.cluster + "\"; choose auto or one of " + ids);
    }
    if (preset->chip != chip.id) {
      return fail(ErrorCode::invalid_argument, "cluster",
                  "cluster " + preset->id + " is built of " + preset->chip + " GPUs, not " +
                      chip.id + "; give chip=" + preset->chip);
    }
    Result<Cluster> built = build_cluster(chip, preset->spec);
    if (!built.ok()) return built.error();
    if (q.gpus > built.value().gpus) {
      return fail(ErrorCode::out_of_range, "gpus",
                  "gpus must be at most cluster " + preset->id + "'s " +
                      format_number(built.value().gpus) + ", got " + format_number(q.gpus));
    }
    f.levels = built.value().levels;
    f.name = preset->name;
  } else {
    Result<Topology> where = topology_of(chip, format_number(q.gpus));
    if (!where.ok()) {
      Error e = where.error();
      e.field = "gpus";
      return e;
    }
    f.levels = where.value().levels;
    f.name = "a full-bisection fat tree of SUs of 32 nodes";
  }
  if (q.gpus > k && f.levels.size() < 2) {
    return fail(ErrorCode::unsupported, "gpus",
                chip.id +
                    " has no scale-out network in the catalog, so the group must fit in one " +
                    format_number(k) + "-GPU node, got " + format_number(q.gpus));
  }
  return f;
}

// The digits of GPU g: its place among the children of each level.
struct Places {
  std::vector<double> below;  // g_i
  std::vector<double> extent;
  i64 digit(i64 g, std::size_t i) const {
    return (g / static_cast<i64>(below[i])) % static_cast<i64>(extent[i]);
  }
  i64 with(i64 g, std::size_t i, i64 d) const {
    const i64 n = static_cast<i64>(extent[i]);
    return g + (((d % n) + n) % n - digit(g, i)) * static_cast<i64>(below[i]);
  }
  // The highest level where a and b differ.
  int level_between(i64 a, i64 b) const {
    for (std::size_t i = extent.size(); i-- > 0;)
      if (digit(a, i) != digit(b, i)) return static_cast<int>(i);
    return 0;
  }
};

void ring_moves(GpuSimStep& s, const Places& p, i64 n, i64 step_in_phase, bool gather) {
  for (std::size_t i = 0; i < p.extent.size(); ++i) {
    const i64 d = static_cast<i64>(p.extent[i]);
    if (d <= 1) continue;
    const i64 j = step_in_phase % (d - 1);
    for (i64 g = 0; g < n; ++g) {
      const i64 mine = p.digit(g, i);
      s.moves.push_back({g, p.with(g, i, mine + 1), p.with(g, i, gather ? mine - j : mine - j - 1),
                         static_cast<int>(i), s.level_bytes[i]});
    }
  }
}

void switch_moves(GpuSimStep& s, const Places& p, i64 n) {
  for (std::size_t i = 0; i < p.extent.size(); ++i) {
    if (p.extent[i] <= 1) continue;
    for (i64 g = 0; g < n; ++g) {
      s.moves.push_back({g, -1, g, static_cast<int>(i), s.level_bytes[i]});
      s.moves.push_back({-1, g, g, static_cast<int>(i), s.level_bytes[i]});
    }
  }
}

void direct_moves(GpuSimStep& s, const Places& p, i64 n, double block) {
  for (i64 from = 0; from < n; ++from)
    for (i64 to = 0; to < n; ++to)
      if (from != to) s.moves.push_back({from, to, from, p.level_between(from, to), block});
}

}  // namespace

const char* to_string(GpuSimAlgorithm a) {
  switch (a) {
    case GpuSimAlgorithm::ring:
      return "ring";
    case GpuSimAlgorithm::in_network:
      return "in-network";
    case GpuSimAlgorithm::direct:
      return "direct";
  }
  return "ring";
}

Result<GpuCollectiveSimResult> simulate_gpu_collective(const GpuCollectiveSimRequest& q) {
  if (auto e = check_numbers(q)) return *e;
  const Chip* chip = find_chip(q.chip);
  if (!chip) {
    return fail(ErrorCode::not_found, "chip",
                "unknown chip \"" + q.chip + "\"; choose a GPU: " + gpu_ids());
  }
  if (chip->nvlink_bandwidth <= 0 || chip->nvlink_domain_gpus <= 0) {
    return fail(
        ErrorCode::invalid_argument, "chip",
        "chip " + chip->id + " is not a GPU on a switched fabric; choose one of " + gpu_ids());
  }
  Result<Placement> fabric = fabric_of(*chip, q);
  if (!fabric.ok()) return fabric.error();
  const std::vector<ClusterLevel>& levels = fabric.value().levels;
  const bool sharp = q.algorithm == GpuSimAlgorithm::in_network;
  const double per_node = std::min(q.gpus, chip->nvlink_domain_gpus);
  const std::vector<double> extents = switched_extents(levels, per_node, q.gpus / per_node, 1);
  const GpuGroup group{levels, extents, q.latency, sharp};
  const SwitchedCost sc = switched_cost(q.op, q.bytes, extents, levels, sharp);

  GpuCollectiveSimResult r;
  r.op = q.op;
  r.algorithm = q.algorithm;
  r.chip = chip->id;
  r.fabric = fabric.value().name;
  r.gpus = q.gpus;
  r.node_gpus = per_node;
  r.nodes = q.gpus / per_node;
  r.t_bandwidth = sc.t_bandwidth;
  r.hops = sc.hops;
  r.binding = sc.binding;
  r.closed_form = gpu_collective_cost(q.op, q.bytes, group, false).time;

  // Levels up to the highest the group spans, each with the model's per-GPU bandwidth.
  std::size_t top = 0;
  for (std::size_t i = 0; i < extents.size(); ++i)
    if (extents[i] > 1) top = i;
  const bool a2a = q.op == CollectiveOp::all_to_all;
  const double n = q.gpus;
  Places places;
  double below = 1, worst = 0;
  for (std::size_t i = 0; i <= top && i < levels.size(); ++i) {
    const ClusterLevel& l = levels[i];
    const double share = l.child_gpus / l.child_bandwidth;
    if (i > 0) worst = std::max(worst, share);
    GpuSimLevel out{l.name, extents[i],       below, l.child_gpus, l.child_bandwidth,
                    0,      sc.level_times[i]};
    out.gpu_bandwidth = i == 0 ? l.child_bandwidth : 1 / (a2a ? share : worst);
    r.levels.push_back(out);
    places.below.push_back(below);
    places.extent.push_back(extents[i]);
    below *= extents[i];
  }

  // Bytes one GPU sends through each level over the whole collective (the model's stages).
  std::vector<double> stage(r.levels.size(), 0);
  for (std::size_t i = 0; i < r.levels.size(); ++i) {
    const double d = r.levels[i].extent, g = r.levels[i].below;
    if (a2a) {
      stage[i] = (i == 0 ? d - 1 : n - g) * q.bytes / (n * n);
    } else if (d > 1) {
      stage[i] = sharp ? q.bytes / g
                       : (q.op == CollectiveOp::all_reduce ? 2 : 1) * q.bytes * (d - 1) / d / g;
    }
  }
  const i64 hops = static_cast<i64>(std::llround(sc.hops));
  const i64 count = static_cast<i64>(n);
  double clock = 0;
  for (i64 k = 0; k < hops; ++k) {
    GpuSimStep s;
    s.start = clock;
    double slowest = 0;
    for (std::size_t i = 0; i < r.levels.size(); ++i) {
      s.level_bytes.push_back(stage[i] / static_cast<double>(hops));
      s.level_times.push_back(s.level_bytes[i] / r.levels[i].gpu_bandwidth);
      if (s.level_times[i] > slowest) slowest = s.level_times[i], s.binding = static_cast<int>(i);
    }
    if (q.latency > slowest) s.binding = -1;
    s.duration = std::max(q.latency, slowest);
    if (a2a) {
      s.phase = CollectiveOp::all_to_all;
      direct_moves(s, places, count, q.bytes / (n * n) / static_cast<double>(hops));
    } else if (sharp) {
      s.phase = CollectiveOp::all_reduce;
      switch_moves(s, places, count);
    } else {
      const bool reduce_first = q.op == CollectiveOp::all_reduce && k < hops / 2;
      const bool gather =
          q.op == CollectiveOp::all_gather || (q.op == CollectiveOp::all_reduce && !reduce_first);
      s.phase = gather ? CollectiveOp::all_gather : CollectiveOp::reduce_scatter;
      ring_moves(s, places, count, q.op == CollectiveOp::all_reduce && gather ? k - hops / 2 : k,
                 gather);
    }
    clock += s.duration;
    r.steps.push_back(std::move(s));
  }
  r.time = clock;
  return r;
}

}  // namespace scalebook
