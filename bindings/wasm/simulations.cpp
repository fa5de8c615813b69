// Embind marshalling of the step simulations (the systolic array, the collectives, the
// pipeline schedule) and of
// the sharding layout: typed arrays out, the engine's checks on the way in.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "marshal.h"
#include "scalebook/collectives/collective_sim.h"
#include "scalebook/core/format.h"
#include "scalebook/core/registry.h"
#include "scalebook/sharding/sharding.h"
#include "scalebook/systolic/systolic_sim.h"
#include "scalebook/training/pipeline.h"

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

// simulateCollective: the fields go to the engine as named values, `values` as the one
// Float64Array engine.mjs flattened (its length capped there); the engine checks both. Steps'
// moves and the states go back as flat typed arrays, which engine.mjs shapes into objects.
val simulate_collective(const val& request) {
  scalebook::Inputs fields;
  std::vector<double> values;
  val keys = val::global("Object").call<val>("keys", request);
  for (unsigned i = 0, n = keys["length"].as<unsigned>(); i < n; ++i) {
    std::string key = keys[i].as<std::string>();
    val v = request[key];
    if (v.isNull() || v.isUndefined()) continue;
    if (key != "values") {
      fields[key] = inputs_value(v);
      continue;
    }
    // engine.mjs flattens and checks the list into one Float64Array (one copy in).
    if (v.instanceof (val::global("Float64Array")))
      values = emscripten::convertJSArrayToNumberVector<double>(v);
    else
      values.push_back(std::nan(""));  // not a checked list: the engine names the field
  }
  auto q = scalebook::collective_sim_request(fields, std::move(values));
  if (!q.ok()) return error_to_js(q.error());
  auto result = scalebook::simulate_collective(q.value());
  if (!result.ok()) return error_to_js(result.error());
  const scalebook::CollectiveSimResult& r = result.value();
  val shape = val::array();
  for (std::int64_t n : r.shape) shape.call<void>("push", static_cast<double>(n));
  val steps = val::array();
  for (const scalebook::CollectiveSimStep& s : r.steps) {
    const size_t n = s.moves.size();
    std::vector<double> from(n), to(n), chunk(n), bytes(n);
    for (size_t i = 0; i < n; ++i) {
      from[i] = static_cast<double>(s.moves[i].from), to[i] = static_cast<double>(s.moves[i].to);
      chunk[i] = static_cast<double>(s.moves[i].chunk), bytes[i] = s.moves[i].bytes;
    }
    val moves = val::object();
    moves.set("from", doubles_to_js(from));
    moves.set("to", doubles_to_js(to));
    moves.set("chunk", doubles_to_js(chunk));
    moves.set("bytes", doubles_to_js(bytes));
    val j = val::object();
    j.set("start", s.start);
    j.set("duration", s.duration);
    j.set("phase", std::string(scalebook::to_string(s.phase)));
    j.set("axis", s.axis);
    j.set("moves", moves);
    steps.call<void>("push", j);
  }
  auto matrices = [](const std::vector<std::vector<double>>& list) {
    val out = val::array();
    for (const std::vector<double>& m : list) out.call<void>("push", doubles_to_js(m));
    return out;
  };
  val out = val::object();
  out.set("op", std::string(scalebook::to_string(r.op)));
  out.set("shape", shape);
  out.set("devices", static_cast<double>(r.devices));
  out.set("chunks", static_cast<double>(r.chunks));
  out.set("steps", steps);
  out.set("states", matrices(r.states));
  if (!r.sums.empty()) out.set("sums", matrices(r.sums));
  out.set("time", r.time);
  out.set("closed_form", r.closed_form);
  return ok_with("simulation", out);
}

// simulatePipeline: the fields go to the engine as named values (pipeline_request checks them
// by the pipeline calculator's schema); items and frames go back as flat typed arrays, which
// engine.mjs shapes into objects.
val simulate_pipeline(const val& request) {
  scalebook::Inputs fields;
  val keys = val::global("Object").call<val>("keys", request);
  for (unsigned i = 0, n = keys["length"].as<unsigned>(); i < n; ++i) {
    std::string key = keys[i].as<std::string>();
    val v = request[key];
    if (!v.isNull() && !v.isUndefined()) fields[key] = inputs_value(v);
  }
  auto q = scalebook::pipeline_request(fields);
  if (!q.ok()) return error_to_js(q.error());
  auto result = scalebook::simulate_pipeline(q.value());
  if (!result.ok()) return error_to_js(result.error());
  const scalebook::PipelineResult& r = result.value();
  const size_t n = r.items.size();
  std::vector<double> stage(n), microbatch(n), chunk(n), kind(n), start(n), end(n);
  for (size_t i = 0; i < n; ++i) {
    const scalebook::PipelineItem& it = r.items[i];
    stage[i] = it.stage, microbatch[i] = it.microbatch, chunk[i] = it.chunk;
    kind[i] = static_cast<double>(it.kind), start[i] = it.start, end[i] = it.end;
  }
  val items = val::object();
  items.set("stage", doubles_to_js(stage));
  items.set("microbatch", doubles_to_js(microbatch));
  items.set("chunk", doubles_to_js(chunk));
  items.set("kind", doubles_to_js(kind));
  items.set("start", doubles_to_js(start));
  items.set("end", doubles_to_js(end));
  val frames = val::array();
  for (const scalebook::PipelineFrame& f : r.frames) {
    std::vector<double> running(f.running.begin(), f.running.end());
    val j = val::object();
    j.set("time", f.time);
    j.set("duration", f.duration);
    j.set("running", doubles_to_js(running));
    j.set("activations", doubles_to_js(f.activations));
    frames.call<void>("push", j);
  }
  val stages = val::array();
  for (const scalebook::PipelineStage& st : r.stages) {
    val j = val::object();
    j.set("busy", st.busy);
    j.set("idle", st.idle);
    j.set("peak_activations", st.peak_activations);
    stages.call<void>("push", j);
  }
  const scalebook::PipelineClosedForm& c = r.closed_form;
  val out = val::object();
  out.set("schedule", std::string(scalebook::to_string(q.value().schedule)));
  out.set("items", items);
  out.set("stages", stages);
  out.set("step_time", r.step_time);
  out.set("ideal_time", r.ideal_time);
  out.set("bubble_fraction", r.bubble_fraction);
  out.set("peak_activations", r.peak_activations);
  out.set("closed_form_bubble",
          std::isnan(c.bubble_fraction) ? val::null() : val(c.bubble_fraction));
  out.set("closed_form_peak", c.peak_activations);
  out.set("frame_count", static_cast<double>(r.frame_count));
  out.set("frames", frames);
  out.set("frames_truncated", r.frames_truncated);
  return ok_with("simulation", out);
}

// shardingLayout: the request's two texts go to the engine as given (absent: empty, which
// the engine reports); only marshalling after that.
val sharding_layout(const val& request) {
  const char* const fields[] = {"array", "mesh"};
  val keys = val::global("Object").call<val>("keys", request);
  for (unsigned i = 0, n = keys["length"].as<unsigned>(); i < n; ++i) {
    std::string key = keys[i].as<std::string>();
    if (key == fields[0] || key == fields[1]) continue;
    return error_to_js({scalebook::ErrorCode::invalid_argument, key,
                        "shardingLayout has no field \"" + key + "\"; its fields are array, mesh"});
  }
  std::string text[2];
  for (int i = 0; i < 2; ++i) {
    val v = request[fields[i]];
    if (v.isNull() || v.isUndefined()) continue;
    scalebook::Value given = inputs_value(v);  // never String(v): see inputs_value
    text[i] = given.is_number() ? val(given.number).call<std::string>("toString") : given.text;
  }
  auto result = scalebook::sharding_layout(text[0], text[1]);
  if (!result.ok()) return error_to_js(result.error());
  const scalebook::ShardingLayout& l = result.value();
  auto axes_to_js = [](const std::string& axes) {
    val array = val::array();
    for (char a : axes) array.call<void>("push", std::string(1, a));
    return array;
  };
  auto numbers_to_js = [](const std::vector<std::int64_t>& xs) {
    val array = val::array();
    for (std::int64_t x : xs) array.call<void>("push", static_cast<double>(x));
    return array;
  };
  val mesh = val::array();
  for (const scalebook::MeshAxis& a : l.mesh.axes) {
    val j = val::object();
    j.set("name", std::string(1, a.name));
    j.set("size", static_cast<double>(a.size));
    mesh.call<void>("push", j);
  }
  val dims = val::array();
  for (const scalebook::LayoutDim& d : l.dims) {
    val j = val::object();
    j.set("name", d.name);
    j.set("axes", axes_to_js(d.axes));
    j.set("pieces", static_cast<double>(d.pieces));
    dims.call<void>("push", j);
  }
  val devices = val::array();
  for (const scalebook::LayoutDevice& d : l.devices) {
    val j = val::object();
    j.set("id", static_cast<double>(d.id));
    j.set("coords", numbers_to_js(d.coords));
    j.set("pieces", numbers_to_js(d.pieces));
    devices.call<void>("push", j);
  }
  val out = val::object();
  out.set("mesh", mesh);
  out.set("array", l.array);
  out.set("dims", dims);
  out.set("unreduced", axes_to_js(l.unreduced));
  out.set("devices", devices);
  out.set("partition_spec", l.partition_spec);
  return ok_with("layout", out);
}

}  // namespace

EMSCRIPTEN_BINDINGS(scalebook_simulations) {
  emscripten::function("simulateSystolic", &simulate_systolic);
  emscripten::function("simulateCollective", &simulate_collective);
  emscripten::function("simulatePipeline", &simulate_pipeline);
  emscripten::function("shardingLayout", &sharding_layout);
}
