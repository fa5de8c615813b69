// The systolic array's step simulation in the simulation registry: its request is the systolic
// calculator's inputs (checked by its schema, with its exact messages and defaults) plus the
// frame window and the step budget; its result the run's totals, C and the recorded frames.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "scalebook/core/format.h"
#include "scalebook/core/registry.h"
#include "scalebook/core/simulation.h"
#include "scalebook/systolic/systolic.h"
#include "scalebook/systolic/systolic_sim.h"

namespace scalebook {
namespace {

const char* const kFrameFields[] = {"first_frame", "max_frames", "max_pe_steps"};
// The most max_pe_steps a page may ask for: SimRequest's default, the most a page should wait.
constexpr double kMaxPageSteps = 1e9;

// A frame-window field: a whole number in [0, 1e15] given as a number; absent: `out` stays.
std::optional<Error> frame_count(const Inputs& fields, const std::string& field,
                                 std::int64_t& out) {
  auto it = fields.find(field);
  if (it == fields.end() || it->second.is_none()) return std::nullopt;
  if (!it->second.is_number()) {
    return Error{ErrorCode::invalid_argument, field, field + " must be a number"};
  }
  double x = it->second.number;
  if (!std::isfinite(x) || x != std::floor(x)) {
    return Error{ErrorCode::invalid_argument, field,
                 field + " must be a whole number, got " + format_number(x)};
  }
  if (x < 0 || x > 1e15) {
    return Error{ErrorCode::out_of_range, field,
                 field + " must be from 0 to 1e15, got " + format_number(x)};
  }
  out = static_cast<std::int64_t>(x);
  return std::nullopt;
}

// A validated input as a number: the registry accepted it, as a number or decimal text.
double resolved_number(const Inputs& in, const InputSpec& spec) {
  auto it = in.find(spec.name);
  const Value& v = it == in.end() ? spec.default_value : it->second;
  return v.is_number() ? v.number : std::strtod(v.text.c_str(), nullptr);
}

const std::string& resolved_text(const Inputs& in, const InputSpec& spec) {
  auto it = in.find(spec.name);
  return it == in.end() ? spec.default_value.text : it->second.text;
}

Result<SimRequest> systolic_request(const SimulationRequest& request, double most_steps) {
  const Schema schema = schema_of("systolic").value();
  Inputs in;
  for (const InputSpec& spec : schema.inputs) {
    auto it = request.fields.find(spec.name);
    if (it != request.fields.end() && !it->second.is_none()) in[spec.name] = it->second;
  }
  auto checked = calculate("systolic", in);
  if (!checked.ok()) return checked.error();
  SimRequest q;
  for (const InputSpec& spec : schema.inputs) {
    const std::string& name = spec.name;
    if (spec.kind == InputKind::choice) {
      const std::string& text = resolved_text(in, spec);
      if (name == "dataflow") q.dataflow = *parse_dataflow(text);
      if (name == "convention") q.convention = *parse_convention(text);
      continue;
    }
    auto count = static_cast<std::int64_t>(resolved_number(in, spec));
    if (name == "M") q.gemm.M = count;
    if (name == "N") q.gemm.N = count;
    if (name == "K") q.gemm.K = count;
    if (name == "rows") q.array.rows = count;
    if (name == "cols") q.array.cols = count;
  }
  if (auto e = frame_count(request.fields, "first_frame", q.first_frame)) return *e;
  if (auto e = frame_count(request.fields, "max_frames", q.max_frames)) return *e;
  auto budget = request.fields.find("max_pe_steps");
  if (budget != request.fields.end() && !budget->second.is_none()) {
    if (!budget->second.is_number()) {
      return Error{ErrorCode::invalid_argument, "max_pe_steps", "max_pe_steps must be a number"};
    }
    q.max_pe_steps = budget->second.number;  // simulate_systolic checks it is > 0
    // A caller may lower the budget, never raise it past its own: this is the cap an
    // embedding page gets too, whatever its JS does.
    if (q.max_pe_steps > most_steps) {
      return Error{ErrorCode::out_of_range, "max_pe_steps",
                   "max_pe_steps must be > 0 and at most " + format_number(most_steps) + ", got " +
                       format_number(q.max_pe_steps)};
    }
  }
  return q;
}

SimNode frame_node(const SimFrame& f) {
  const size_t n = f.pes.size();
  std::vector<double> weight(n), activation(n), psum(n), shadow(n);
  std::vector<std::uint8_t> flags(n);
  for (size_t i = 0; i < n; ++i) {
    weight[i] = f.pes[i].weight, activation[i] = f.pes[i].activation;
    psum[i] = f.pes[i].psum, shadow[i] = f.pes[i].shadow, flags[i] = f.pes[i].flags;
  }
  SimNode pes = SimNode::object();
  pes.set("weight", SimNode::of(std::move(weight)))
      .set("activation", SimNode::of(std::move(activation)))
      .set("psum", SimNode::of(std::move(psum)))
      .set("shadow", SimNode::of(std::move(shadow)))
      .set("flags", SimNode::of(std::move(flags)));
  SimNode out = SimNode::object();
  out.set("cycle", SimNode::of(static_cast<double>(f.cycle)))
      .set("macs", SimNode::of(static_cast<double>(f.macs)))
      .set("pes", std::move(pes));
  return out;
}

Result<SimNode> run(const SimulationRequest& request, double most_steps) {
  Result<SimRequest> q = systolic_request(request, most_steps);
  if (!q.ok()) return q.error();
  Result<SimResult> result = simulate_systolic(q.value());
  if (!result.ok()) return result.error();
  const SimResult& r = result.value();
  const std::int64_t M = q.value().gemm.M, N = q.value().gemm.N;
  SimNode c = SimNode::list();  // rows of C
  for (std::int64_t m = 0; m < M; ++m) {
    auto row = r.c.begin() + static_cast<std::ptrdiff_t>(m * N);
    c.push(SimNode::of(std::vector<double>(row, row + static_cast<std::ptrdiff_t>(N))));
  }
  SimNode frames = SimNode::list();
  for (const SimFrame& f : r.frames) frames.push(frame_node(f));
  SimNode out = SimNode::object();
  out.set("cycles", SimNode::of(static_cast<double>(r.cycles)))
      .set("macs", SimNode::of(static_cast<double>(r.macs)))
      .set("pe_steps", SimNode::of(r.pe_steps))
      .set("c", std::move(c))
      .set("frames", std::move(frames))
      .set("frames_truncated", SimNode::of_flag(r.frames_truncated));
  return out;
}

Simulation systolic_simulation() {
  Simulation s;
  s.name = "systolic";
  s.subject = "simulateSystolic";
  const Schema schema = schema_of("systolic").value();
  for (const InputSpec& spec : schema.inputs) s.fields.push_back(spec.name);
  for (const char* extra : kFrameFields) s.fields.emplace_back(extra);
  s.budget_field = "max_pe_steps";
  s.page_budget = kMaxPageSteps;
  s.budget = kMaxPageSteps;  // kMaxSimWork caps the work beneath it, whoever asks
  s.run = run;
  return s;
}

const SimulationRegistration registered{systolic_simulation};

}  // namespace
}  // namespace scalebook
