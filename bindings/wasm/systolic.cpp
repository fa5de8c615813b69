// Embind marshalling of the systolic array's step simulation: typed arrays out, the
// systolic calculator's checks on the way in. One file per domain, so a module built without
// the domain leaves its binding out (cmake/Emscripten.cmake).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "marshal.h"
#include "scalebook/core/format.h"
#include "scalebook/core/registry.h"
#include "scalebook/systolic/systolic_sim.h"

namespace {

using namespace scalebook::wasm;

// simulateSystolic: the systolic calculator's inputs go through the registry (its exact
// messages, its defaults), the frame window and step budget through the checks below, which
// the engine's SimRequest leaves to its callers; only marshalling after that.
const char* const kSimExtras[] = {"first_frame", "max_frames", "max_pe_steps"};
// The most max_pe_steps a call may ask for: SimRequest's default, the most a page should wait.
constexpr double kMaxPageSteps = 1e9;

val sim_error(scalebook::ErrorCode code, const std::string& field, const std::string& message) {
  return error_to_js({code, field, message});
}

// A frame-window field: a whole number in [0, 1e15] given as a number; absent: `fallback`.
bool sim_count(const val& request, const char* name, std::int64_t fallback, std::int64_t& out,
               val& error) {
  val v = request[name];
  out = fallback;
  if (v.isUndefined() || v.isNull()) return true;
  std::string field(name);
  if (v.typeOf().as<std::string>() != "number") {
    error = sim_error(scalebook::ErrorCode::invalid_argument, field, field + " must be a number");
    return false;
  }
  double x = v.as<double>();
  if (!std::isfinite(x) || x != std::floor(x)) {
    error = sim_error(scalebook::ErrorCode::invalid_argument, field,
                      field + " must be a whole number, got " + scalebook::format_number(x));
    return false;
  }
  if (x < 0 || x > 1e15) {
    error = sim_error(scalebook::ErrorCode::out_of_range, field,
                      field + " must be from 0 to 1e15, got " + scalebook::format_number(x));
    return false;
  }
  out = static_cast<std::int64_t>(x);
  return true;
}

// A validated input as a number: the registry accepted it, as a JS number or decimal text.
double resolved_number(const scalebook::Inputs& in, const scalebook::InputSpec& spec) {
  auto it = in.find(spec.name);
  const scalebook::Value& v = it == in.end() ? spec.default_value : it->second;
  return v.is_number() ? v.number : std::strtod(v.text.c_str(), nullptr);
}

const std::string& resolved_text(const scalebook::Inputs& in, const scalebook::InputSpec& spec) {
  auto it = in.find(spec.name);
  return it == in.end() ? spec.default_value.text : it->second.text;
}

val frame_to_js(const scalebook::SimFrame& f) {
  const size_t n = f.pes.size();
  std::vector<double> weight(n), activation(n), psum(n), shadow(n);
  std::vector<std::uint8_t> flags(n);
  for (size_t i = 0; i < n; ++i) {
    weight[i] = f.pes[i].weight, activation[i] = f.pes[i].activation;
    psum[i] = f.pes[i].psum, shadow[i] = f.pes[i].shadow, flags[i] = f.pes[i].flags;
  }
  val pes = val::object();
  pes.set("weight", doubles_to_js(weight));
  pes.set("activation", doubles_to_js(activation));
  pes.set("psum", doubles_to_js(psum));
  pes.set("shadow", doubles_to_js(shadow));
  pes.set("flags", val(emscripten::typed_memory_view(n, flags.data())).call<val>("slice"));
  val j = val::object();
  j.set("cycle", static_cast<double>(f.cycle));
  j.set("macs", static_cast<double>(f.macs));
  j.set("pes", pes);
  return j;
}

val simulate_systolic(const val& request) {
  const scalebook::Schema schema = scalebook::schema_of("systolic").value();
  std::vector<std::string> known;
  for (const scalebook::InputSpec& spec : schema.inputs) known.push_back(spec.name);
  for (const char* extra : kSimExtras) known.push_back(extra);
  val keys = val::global("Object").call<val>("keys", request);
  for (unsigned i = 0, n = keys["length"].as<unsigned>(); i < n; ++i) {
    std::string key = keys[i].as<std::string>();
    bool ok = false;
    for (const std::string& name : known) ok = ok || name == key;
    if (ok) continue;
    std::string names;
    for (const std::string& name : known) names += (names.empty() ? "" : ", ") + name;
    return sim_error(scalebook::ErrorCode::invalid_argument, key,
                     "simulateSystolic has no field \"" + key + "\"; its fields are " + names);
  }
  scalebook::Inputs in;
  for (const scalebook::InputSpec& spec : schema.inputs) {
    val v = request[spec.name];
    if (!v.isNull() && !v.isUndefined()) in[spec.name] = inputs_value(v);
  }
  auto checked = scalebook::calculate("systolic", in);
  if (!checked.ok()) return error_to_js(checked.error());
  scalebook::SimRequest q;
  for (const scalebook::InputSpec& spec : schema.inputs) {
    const std::string& name = spec.name;
    if (spec.kind == scalebook::InputKind::choice) {
      const std::string& text = resolved_text(in, spec);
      if (name == "dataflow") q.dataflow = *scalebook::parse_dataflow(text);
      if (name == "convention") q.convention = *scalebook::parse_convention(text);
      continue;
    }
    auto count = static_cast<std::int64_t>(resolved_number(in, spec));
    if (name == "M") q.gemm.M = count;
    if (name == "N") q.gemm.N = count;
    if (name == "K") q.gemm.K = count;
    if (name == "rows") q.array.rows = count;
    if (name == "cols") q.array.cols = count;
  }
  val error = val::null();
  if (!sim_count(request, "first_frame", q.first_frame, q.first_frame, error)) return error;
  if (!sim_count(request, "max_frames", q.max_frames, q.max_frames, error)) return error;
  val budget = request["max_pe_steps"];
  if (!budget.isUndefined() && !budget.isNull()) {
    if (budget.typeOf().as<std::string>() != "number") {
      return sim_error(scalebook::ErrorCode::invalid_argument, "max_pe_steps",
                       "max_pe_steps must be a number");
    }
    q.max_pe_steps = budget.as<double>();  // the engine checks it is > 0
    // A page's call may lower the budget, never raise it past the default: this is the cap
    // an embedding page gets too, whatever its JS does.
    if (q.max_pe_steps > kMaxPageSteps) {
      return sim_error(scalebook::ErrorCode::out_of_range, "max_pe_steps",
                       "max_pe_steps must be > 0 and at most " +
                           scalebook::format_number(kMaxPageSteps) + ", got " +
                           scalebook::format_number(q.max_pe_steps));
    }
  }
  auto result = scalebook::simulate_systolic(q);
  if (!result.ok()) return error_to_js(result.error());
  const scalebook::SimResult& r = result.value();
  val c = val::array();
  for (std::int64_t m = 0; m < q.gemm.M; ++m) {
    auto row = r.c.begin() + static_cast<std::ptrdiff_t>(m * q.gemm.N);
    std::vector<double> values(row, row + static_cast<std::ptrdiff_t>(q.gemm.N));
    c.call<void>("push", val::global("Array").call<val>("from", doubles_to_js(values)));
  }
  val frames = val::array();
  for (const scalebook::SimFrame& f : r.frames) frames.call<void>("push", frame_to_js(f));
  val out = val::object();
  out.set("cycles", static_cast<double>(r.cycles));
  out.set("macs", static_cast<double>(r.macs));
  out.set("pe_steps", r.pe_steps);
  out.set("c", c);
  out.set("frames", frames);
  out.set("frames_truncated", r.frames_truncated);
  return ok_with("simulation", out);
}

}  // namespace

EMSCRIPTEN_BINDINGS(scalebook_systolic) {
  emscripten::function("simulateSystolic", &simulate_systolic);
}
