// The serving simulator in the simulation registry: its request is serving_request's fields
// (a page runs at most kMaxPageServingRequests requests, the command line kMaxServingRequests);
// series and per-request times go out as flat number arrays.
#include "scalebook/core/simulation.h"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "scalebook/inference/serving.h"

namespace scalebook {
namespace {

SimNode number_or_null(double x) { return std::isnan(x) ? SimNode() : SimNode::of(x); }

SimNode percentiles_node(const ServingPercentiles& p) {
  SimNode out = SimNode::object();
  out.set("p50", number_or_null(p.p50))
      .set("p90", number_or_null(p.p90))
      .set("p99", number_or_null(p.p99))
      .set("mean", number_or_null(p.mean));
  return out;
}

SimNode result_node(const ServingConfig& c, ServingResult r) {
  SimNode out = SimNode::object();
  out.set("mode", SimNode::of(std::string(to_string(c.mode))))
      .set("fits", SimNode::of_flag(r.fits))
      .set("reason", r.fits ? SimNode() : SimNode::of(r.reason))
      .set("replicas", SimNode::of(r.replicas))
      .set("prefill_replicas", SimNode::of(r.prefill_replicas))
      .set("decode_replicas", SimNode::of(r.decode_replicas))
      .set("chips", SimNode::of(r.chips))
      .set("slots", SimNode::of(r.slots))
      .set("slots_by_memory", SimNode::of_flag(r.slots_by_memory))
      .set("step_base", SimNode::of(r.step_base_1))
      .set("step_slope", SimNode::of(r.step_slope));
  if (!r.fits) return out;
  out.set("ttft", percentiles_node(r.ttft))
      .set("tpot", percentiles_node(r.tpot))
      .set("latency", percentiles_node(r.latency))
      .set("duration", SimNode::of(r.duration))
      .set("requests", SimNode::of(c.requests))
      .set("output_tokens", SimNode::of(r.output_tokens))
      .set("prompt_tokens", SimNode::of(r.prompt_tokens))
      .set("tokens_per_s", SimNode::of(r.tokens_per_s))
      .set("tokens_per_s_per_chip", SimNode::of(r.tokens_per_s_per_chip))
      .set("requests_per_s", SimNode::of(r.requests_per_s))
      .set("busy_fraction", SimNode::of(r.busy_fraction))
      .set("slot_utilization", SimNode::of(r.slot_utilization));
  SimNode series = SimNode::object();
  series.set("time", SimNode::of(std::move(r.series_time)))
      .set("queue", SimNode::of(std::move(r.queue)))
      .set("active", SimNode::of(std::move(r.active)))
      .set("tokens_per_s", SimNode::of(std::move(r.series_tokens_per_s)));
  SimNode timeline = SimNode::object();
  timeline.set("arrival", SimNode::of(std::move(r.arrival)))
      .set("admitted", SimNode::of(std::move(r.admitted)))
      .set("first_token", SimNode::of(std::move(r.first_token)))
      .set("finish", SimNode::of(std::move(r.finish)))
      .set("prompt", SimNode::of(std::move(r.prompt)))
      .set("output", SimNode::of(std::move(r.output)));
  out.set("series", std::move(series)).set("timeline", std::move(timeline));
  return out;
}

// The fields the run took, in the registry's order, for a page to show its defaults.
SimNode inputs_node(const Inputs& resolved) {
  SimNode out = SimNode::object();
  for (const std::string& name : serving_fields()) {
    const Value& v = resolved.at(name);
    out.set(name, v.is_number() ? SimNode::of(v.number) : SimNode::of(v.text));
  }
  return out;
}

Result<SimNode> run(const SimulationRequest& request, double most_requests) {
  Result<ServingConfig> c = serving_request(request.fields, most_requests);
  if (!c.ok()) return c.error();
  Result<ServingResult> r = simulate_serving(c.value());
  if (!r.ok()) return r.error();
  SimNode out = result_node(c.value(), std::move(r.value()));
  out.set("inputs", inputs_node(serving_inputs(request.fields).value()));
  return out;
}

Simulation serving_simulation() {
  Simulation s;
  s.name = "serving";
  s.subject = "serving";
  s.fields = serving_fields();
  s.budget_field = "requests";
  s.page_budget = kMaxPageServingRequests;
  s.budget = kMaxServingRequests;
  s.run = run;
  return s;
}

const SimulationRegistration registered{serving_simulation};

}  // namespace
}  // namespace scalebook
