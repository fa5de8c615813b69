// The simulation registry: every simulation reached by name, unknown names and fields refused
// naming the field, and each simulation's work budget enforced per caller.
#include "scalebook/core/simulation.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace scalebook {
namespace {

Error run_error(const std::string& name, const SimulationRequest& request) {
  Result<SimNode> r = simulate(name, request);
  REQUIRE_FALSE(r.ok());
  return r.error();
}

}  // namespace

TEST_CASE("the registry lists every domain's simulation", "[simulation]") {
  CHECK(simulation_names() == std::vector<std::string>{"collective", "gpu-collective", "pipeline",
                                                       "serving", "systolic"});
  for (const std::string& name : simulation_names()) {
    SimulationRequest q;  // the defaults; the systolic calculator's are over the step budget
    if (name == "systolic") q.fields = {{"M", Value::of(64.0)}, {"rows", Value::of(4.0)}};
    Result<SimNode> r = simulate(name, q);
    INFO(name << ": " << (r.ok() ? "" : r.error().message));
    REQUIRE(r.ok());
    CHECK(r.value().kind == SimNode::Kind::object);
  }
}

TEST_CASE("an unknown simulation is not_found, naming the field and the choices", "[simulation]") {
  Error e = run_error("queueing", {});
  CHECK(e.code == ErrorCode::not_found);
  CHECK(e.field == "simulation");
  CHECK(e.message ==
        "unknown simulation \"queueing\"; choose one of collective, gpu-collective, pipeline, "
        "serving, systolic");
}

TEST_CASE("an unknown field is refused naming it and listing the simulation's fields",
          "[simulation]") {
  SimulationRequest q;
  q.fields["speed"] = Value::of(2.0);
  Error e = run_error("systolic", q);
  CHECK(e.code == ErrorCode::invalid_argument);
  CHECK(e.field == "speed");
  CHECK(e.message.rfind("simulateSystolic has no field \"speed\"; its fields are M, N, K", 0) == 0);
  // A list field given as a scalar is refused, not read as a number.
  SimulationRequest scalar;
  scalar.fields["values"] = Value::of(3.0);
  CHECK(run_error("collective", scalar).field == "values");
}

TEST_CASE("a request over its caller's work budget is refused naming the budget field",
          "[simulation]") {
  for (const std::string& name : simulation_names()) {
    const Simulation& sim = *find_simulation(name).value();
    if (sim.budget_field.empty()) continue;
    CAPTURE(name);
    REQUIRE(sim.page_budget > 0);
    REQUIRE(sim.budget >= sim.page_budget);
    SimulationRequest q;
    q.fields[sim.budget_field] = Value::of(sim.page_budget * 2);
    Error e = run_error(name, q);
    CHECK(e.code == ErrorCode::out_of_range);
    CHECK(e.field == sim.budget_field);
  }
  // The command line may ask for more than a page: the pipeline's 2^17 items run there.
  SimulationRequest q;
  q.fields["max_items"] = Value::of(131072.0);
  CHECK(run_error("pipeline", q).field == "max_items");
  q.caller = SimCaller::command_line;
  CHECK(simulate("pipeline", q).ok());
}

TEST_CASE("a simulation's result tree holds its frames as number and byte arrays", "[simulation]") {
  SimulationRequest q;
  q.fields = {{"M", Value::of(2.0)},    {"N", Value::of(2.0)},    {"K", Value::of(2.0)},
              {"rows", Value::of(2.0)}, {"cols", Value::of(2.0)}, {"max_frames", Value::of(3.0)}};
  Result<SimNode> r = simulate("systolic", q);
  REQUIRE(r.ok());
  const SimNode* frames = r.value().find("frames");
  REQUIRE(frames);
  REQUIRE(frames->items.size() == 3);
  const SimNode* pes = frames->items[0].find("pes");
  REQUIRE(pes);
  CHECK(pes->find("weight")->numbers.size() == 4);
  CHECK(pes->find("flags")->kind == SimNode::Kind::bytes);
  CHECK(r.value().find("macs")->number == 8);
}

}  // namespace scalebook
