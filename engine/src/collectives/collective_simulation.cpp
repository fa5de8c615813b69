// The collectives' step simulation in the simulation registry: its request is read by
// collective_sim_request (the collective calculator's defaults); its budget is fixed
// (kMaxSimStateValues recorded numbers), so no field sets it. Steps' moves and the states go
// out as flat number arrays, which the WASM API shapes into objects.
#include <string>
#include <utility>
#include <vector>

#include "scalebook/collectives/collective_sim.h"
#include "scalebook/core/simulation.h"

namespace scalebook {
namespace {

SimNode step_node(const CollectiveSimStep& s) {
  const size_t n = s.moves.size();
  std::vector<double> from(n), to(n), chunk(n), bytes(n);
  for (size_t i = 0; i < n; ++i) {
    from[i] = static_cast<double>(s.moves[i].from), to[i] = static_cast<double>(s.moves[i].to);
    chunk[i] = static_cast<double>(s.moves[i].chunk), bytes[i] = s.moves[i].bytes;
  }
  SimNode moves = SimNode::object();
  moves.set("from", SimNode::of(std::move(from)))
      .set("to", SimNode::of(std::move(to)))
      .set("chunk", SimNode::of(std::move(chunk)))
      .set("bytes", SimNode::of(std::move(bytes)));
  SimNode out = SimNode::object();
  out.set("start", SimNode::of(s.start))
      .set("duration", SimNode::of(s.duration))
      .set("phase", SimNode::of(std::string(to_string(s.phase))))
      .set("axis", SimNode::of(static_cast<double>(s.axis)))
      .set("moves", std::move(moves));
  return out;
}

SimNode matrices(const std::vector<std::vector<double>>& list) {
  SimNode out = SimNode::list();
  for (const std::vector<double>& m : list) out.push(SimNode::of(m));
  return out;
}

Result<SimNode> run(const SimulationRequest& request, double /*most: fixed*/) {
  auto q = collective_sim_request(request.fields, request.values);
  if (!q.ok()) return q.error();
  auto result = simulate_collective(q.value());
  if (!result.ok()) return result.error();
  const CollectiveSimResult& r = result.value();
  SimNode shape = SimNode::list();  // a plain list, as pages read it
  for (std::int64_t n : r.shape) shape.push(SimNode::of(static_cast<double>(n)));
  SimNode steps = SimNode::list();
  for (const CollectiveSimStep& s : r.steps) steps.push(step_node(s));
  SimNode out = SimNode::object();
  out.set("op", SimNode::of(std::string(to_string(r.op))))
      .set("shape", std::move(shape))
      .set("devices", SimNode::of(static_cast<double>(r.devices)))
      .set("chunks", SimNode::of(static_cast<double>(r.chunks)))
      .set("steps", std::move(steps))
      .set("states", matrices(r.states));
  if (!r.sums.empty()) out.set("sums", matrices(r.sums));
  out.set("time", SimNode::of(r.time)).set("closed_form", SimNode::of(r.closed_form));
  return out;
}

Simulation collective_simulation() {
  Simulation s;
  s.name = "collective";
  s.subject = "simulateCollective";
  s.fields = {"op",        "shape",   "bytes", "wraparound", "bidirectional",
              "bandwidth", "latency", "values"};
  s.list_field = "values";
  s.page_budget = s.budget = kMaxSimStateValues;
  s.run = run;
  return s;
}

const SimulationRegistration registered{collective_simulation};

}  // namespace
}  // namespace scalebook
