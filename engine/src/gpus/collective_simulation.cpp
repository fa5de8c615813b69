// The switched-collective simulation in the simulation registry (gpus/collective_sim.h): its
// request read from named fields with each field's own checks; its work is capped by the GPU
// count (kMaxGpuSimGpus), so no field sets a budget. Moves go out as flat number arrays.
#include <string>
#include <utility>
#include <vector>

#include "scalebook/core/checks.h"
#include "scalebook/core/registry.h"
#include "scalebook/core/simulation.h"
#include "scalebook/gpus/collective_sim.h"

namespace scalebook {
namespace {

const std::vector<InputSpec>& specs() {
  static const std::vector<InputSpec> all = [] {
    InputSpec op{"op", InputKind::choice};
    op.choices = collective_op_names();
    InputSpec algorithm{"algorithm", InputKind::choice};
    algorithm.choices = {"ring", "in-network", "direct"};
    InputSpec gpus{"gpus", InputKind::count};
    gpus.min = 1;
    InputSpec bytes{"bytes", InputKind::number, "B"};
    bytes.min_exclusive = true;
    InputSpec latency{"latency", InputKind::number, "s"};
    return std::vector<InputSpec>{
        op,    algorithm, {"chip", InputKind::text}, {"cluster", InputKind::text}, gpus,
        bytes, latency};
  }();
  return all;
}

SimNode numbers(const std::vector<GpuSimMove>& moves) {
  const std::size_t n = moves.size();
  std::vector<double> from(n), to(n), chunk(n), level(n), bytes(n);
  for (std::size_t i = 0; i < n; ++i) {
    from[i] = static_cast<double>(moves[i].from), to[i] = static_cast<double>(moves[i].to);
    chunk[i] = static_cast<double>(moves[i].chunk), level[i] = moves[i].level;
    bytes[i] = moves[i].bytes;
  }
  SimNode out = SimNode::object();
  out.set("from", SimNode::of(std::move(from)))
      .set("to", SimNode::of(std::move(to)))
      .set("chunk", SimNode::of(std::move(chunk)))
      .set("level", SimNode::of(std::move(level)))
      .set("bytes", SimNode::of(std::move(bytes)));
  return out;
}

SimNode level_node(const GpuSimLevel& l) {
  SimNode out = SimNode::object();
  out.set("name", SimNode::of(l.name))
      .set("extent", SimNode::of(l.extent))
      .set("below", SimNode::of(l.below))
      .set("child_gpus", SimNode::of(l.child_gpus))
      .set("bandwidth", SimNode::of(l.bandwidth))
      .set("gpu_bandwidth", SimNode::of(l.gpu_bandwidth))
      .set("stage_time", SimNode::of(l.stage_time));
  return out;
}

SimNode step_node(const GpuSimStep& s) {
  SimNode out = SimNode::object();
  out.set("start", SimNode::of(s.start))
      .set("duration", SimNode::of(s.duration))
      .set("phase", SimNode::of(std::string(to_string(s.phase))))
      .set("level_bytes", SimNode::of(s.level_bytes))
      .set("level_times", SimNode::of(s.level_times))
      .set("binding", SimNode::of(static_cast<double>(s.binding)))
      .set("moves", numbers(s.moves));
  return out;
}

Result<SimNode> run(const SimulationRequest& request, double /*most: fixed*/) {
  auto q = gpu_collective_sim_request(request.fields);
  if (!q.ok()) return q.error();
  auto result = simulate_gpu_collective(q.value());
  if (!result.ok()) return result.error();
  const GpuCollectiveSimResult& r = result.value();
  SimNode levels = SimNode::list();
  for (const GpuSimLevel& l : r.levels) levels.push(level_node(l));
  SimNode steps = SimNode::list();
  for (const GpuSimStep& s : r.steps) steps.push(step_node(s));
  SimNode out = SimNode::object();
  out.set("op", SimNode::of(std::string(to_string(r.op))))
      .set("algorithm", SimNode::of(std::string(to_string(r.algorithm))))
      .set("chip", SimNode::of(r.chip))
      .set("fabric", SimNode::of(r.fabric))
      .set("bytes", SimNode::of(q.value().bytes))
      .set("latency", SimNode::of(q.value().latency))
      .set("gpus", SimNode::of(r.gpus))
      .set("node_gpus", SimNode::of(r.node_gpus))
      .set("nodes", SimNode::of(r.nodes))
      .set("levels", std::move(levels))
      .set("steps", std::move(steps))
      .set("time", SimNode::of(r.time))
      .set("t_bandwidth", SimNode::of(r.t_bandwidth))
      .set("hops", SimNode::of(r.hops))
      .set("binding", SimNode::of(static_cast<double>(r.binding)))
      .set("closed_form", SimNode::of(r.closed_form));
  return out;
}

Simulation gpu_collective_simulation() {
  Simulation s;
  s.name = "gpu-collective";
  s.subject = "gpu-collective";
  s.fields = gpu_collective_sim_fields();
  s.page_budget = s.budget = kMaxGpuSimGpus;
  s.run = run;
  return s;
}

const SimulationRegistration registered{gpu_collective_simulation};

}  // namespace

const std::vector<std::string>& gpu_collective_sim_fields() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const InputSpec& s : specs()) out.push_back(s.name);
    return out;
  }();
  return names;
}

Result<GpuCollectiveSimRequest> gpu_collective_sim_request(const Inputs& fields) {
  GpuCollectiveSimRequest q;
  Result<Schema> schema = schema_of("collective");
  if (schema.ok())
    for (const InputSpec& spec : schema.value().inputs)
      if (spec.name == "bytes") q.bytes = spec.default_value.number;
  bool algorithm_given = false;
  for (const InputSpec& spec : specs()) {
    auto it = fields.find(spec.name);
    if (it == fields.end() || it->second.is_none()) continue;
    Result<Value> v = check_input(spec, it->second);
    if (!v.ok()) return v.error();
    const Value& x = v.value();
    if (spec.name == "op") q.op = *parse_collective_op(x.text);
    if (spec.name == "algorithm") {
      algorithm_given = true;
      q.algorithm = x.text == "direct"       ? GpuSimAlgorithm::direct
                    : x.text == "in-network" ? GpuSimAlgorithm::in_network
                                             : GpuSimAlgorithm::ring;
    }
    if (spec.name == "chip") q.chip = x.text;
    if (spec.name == "cluster") q.cluster = x.text;
    if (spec.name == "gpus") q.gpus = x.number;
    if (spec.name == "bytes") q.bytes = x.number;
    if (spec.name == "latency") q.latency = x.number;
  }
  if (!algorithm_given && q.op == CollectiveOp::all_to_all) q.algorithm = GpuSimAlgorithm::direct;
  return q;
}

}  // namespace scalebook
