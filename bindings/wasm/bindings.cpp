// Embind marshalling only: engine structs to plain JS objects and back. No arithmetic, no
// defaults; the JS wrapper (engine.mjs) turns error values into CalculatorError.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "scalebook/collectives/collective_sim.h"
#include "scalebook/core/format.h"
#include "scalebook/core/json.h"
#include "scalebook/core/registry.h"
#include "scalebook/core/sweep.h"
#include "scalebook/exercises/answer.h"
#include "scalebook/exercises/exercise.h"
#include "scalebook/exercises/json.h"
#include "scalebook/hardware/catalog.h"
#include "scalebook/hardware/json.h"
#include "scalebook/sharding/sharding.h"
#include "scalebook/systolic/systolic_sim.h"
#include "scalebook/transformer/json.h"
#include "scalebook/transformer/models.h"

using emscripten::val;

namespace {

val doubles_to_js(const std::vector<double>& xs);
val ok_with(const char* key, val value);

val error_to_js(const scalebook::Error& e) {
  val error = val::object();
  error.set("code", std::string(scalebook::to_string(e.code)));
  error.set("field", e.field);
  error.set("message", e.message);
  if (e.position >= 0) error.set("position", e.position);
  val out = val::object();
  out.set("ok", false);
  out.set("error", error);
  return out;
}

// list, schema, calculate, chips and models go through the engine's one marshaller
// (scalebook/core/json.h) as JSON text, which engine.mjs parses: the same bits as the CLI and
// the fixtures, and one string across the boundary instead of a call per field.
std::string list() {
  scalebook::Json array = scalebook::Json::array();
  for (const std::string& name : scalebook::calculator_names()) {
    array.push_back(
        {{"name", name}, {"description", scalebook::schema_of(name).value().description}});
  }
  return scalebook::dump(array);
}

std::string schema(const std::string& name) {
  auto result = scalebook::schema_of(name);
  if (!result.ok()) return scalebook::dump(scalebook::to_json(result.error()));
  return scalebook::dump({{"schema", scalebook::to_json(result.value())}});
}

scalebook::Value inputs_value(const val& v) {
  std::string type = v.typeOf().as<std::string>();
  if (type == "number") return scalebook::Value::of(v.as<double>());
  if (type == "string") return scalebook::Value::of(v.as<std::string>());
  return scalebook::Value::of(val::global("String")(v).as<std::string>());
}

// `inputs` is a plain object; numbers stay numbers, strings are parsed by the engine,
// null and undefined mean "use the default", anything else is passed on as its text.
scalebook::Inputs inputs_from_js(const val& inputs) {
  scalebook::Inputs in;
  val keys = val::global("Object").call<val>("keys", inputs);
  const unsigned n = keys["length"].as<unsigned>();
  for (unsigned i = 0; i < n; ++i) {
    std::string key = keys[i].as<std::string>();
    val v = inputs[key];
    std::string type = v.typeOf().as<std::string>();
    if (type == "number")
      in[key] = scalebook::Value::of(v.as<double>());
    else if (type == "string")
      in[key] = scalebook::Value::of(v.as<std::string>());
    else if (!v.isNull() && !v.isUndefined())
      in[key] = scalebook::Value::of(val::global("String")(v).as<std::string>());
  }
  return in;
}

// steps: false is the numbers-only path (no LaTeX built); the JSON has no "steps" then.
std::string calculate(const std::string& name, const val& inputs, bool steps) {
  auto result = scalebook::calculate(name, inputs_from_js(inputs), {.explain = steps});
  if (!result.ok()) return scalebook::dump(scalebook::to_json(result.error()));
  return "{\"outputs\":" + scalebook::calculation_text(result.value(), false) +
         ",\"steps\":" + (steps ? scalebook::steps_text(result.value().steps) : "[]") + "}";
}

std::string chips() {
  scalebook::Json array = scalebook::Json::array();
  for (const scalebook::Chip& chip : scalebook::chips()) array.push_back(scalebook::to_json(chip));
  return scalebook::dump(array);
}

std::string models() {
  scalebook::Json array = scalebook::Json::array();
  for (const scalebook::Model& model : scalebook::models())
    array.push_back(scalebook::to_json(model));
  return scalebook::dump(array);
}

// A Float64Array (engine.mjs converts and checks a plain list first): one copy into the heap.
std::vector<double> numbers_from_js(const val& list) {
  return emscripten::convertJSArrayToNumberVector<double>(list);
}

std::vector<std::string> strings_from_js(const val& list) {
  std::vector<std::string> out;
  if (!val::global("Array").call<bool>("isArray", list)) return out;
  for (unsigned i = 0, n = list["length"].as<unsigned>(); i < n; ++i)
    out.push_back(list[i].as<std::string>());
  return out;
}

// A sweep's series come back as Float64Arrays (NaN where an output has no value).
val sweep(const std::string& name, const val& inputs, const std::string& over, const val& values,
          const val& outputs) {
  scalebook::SweepRequest q{name, inputs_from_js(inputs), over, numbers_from_js(values),
                            strings_from_js(outputs)};
  auto result = scalebook::sweep(q);
  if (!result.ok()) return error_to_js(result.error());
  val series = val::object();
  for (std::size_t k = 0; k < result.value().outputs.size(); ++k)
    series.set(result.value().outputs[k], doubles_to_js(result.value().series[k]));
  val out = val::object();
  out.set("values", doubles_to_js(result.value().values));
  out.set("series", series);
  return ok_with("sweep", out);
}

std::string solve(const std::string& name, const val& inputs, const std::string& over,
                  const std::string& output, double target, double lo, double hi) {
  auto result = scalebook::solve({name, inputs_from_js(inputs), over, output, target, lo, hi});
  if (!result.ok()) return scalebook::dump(scalebook::to_json(result.error()));
  const scalebook::SolveResult& r = result.value();
  return scalebook::dump({{"solve",
                           {{"at", scalebook::to_json(r.at)},
                            {"output_at", r.output_at},
                            {"at_lo", r.at_lo},
                            {"evaluations", r.evaluations}}}});
}

val ok_with(const char* key, val value) {
  val out = val::object();
  out.set("ok", true);
  out.set(key, value);
  return out;
}

// Finds exercise `id` in the file text; an error value when the file or the id is bad.
scalebook::Result<scalebook::ExerciseSpec> find_exercise(const std::string& file,
                                                         const std::string& id) {
  auto parsed = scalebook::parse_exercise_file(file);
  if (!parsed.ok()) return parsed.error();
  for (const scalebook::ExerciseSpec& e : parsed.value().exercises)
    if (e.id == id) return e;
  return scalebook::Error{scalebook::ErrorCode::not_found, "id", "unknown exercise \"" + id + "\""};
}

// Variants and grades go through the engine's marshaller (scalebook/exercises/json.h), as
// the CLI's do; engine.mjs parses the text.
std::string exercise_variant(const std::string& file, const std::string& id, const val& seed_js) {
  auto e = find_exercise(file, id);
  if (!e.ok()) return scalebook::dump(scalebook::to_json(e.error()));
  auto seed = scalebook::parse_seed(inputs_value(seed_js));
  if (!seed.ok()) return scalebook::dump(scalebook::to_json(seed.error()));
  auto v = scalebook::make_variant(e.value(), seed.value());
  if (!v.ok()) return scalebook::dump(scalebook::to_json(v.error()));
  return scalebook::dump({{"variant", scalebook::to_json(e.value(), v.value(), true)}});
}

std::string exercise_grade(const std::string& file, const std::string& id, const val& seed_js,
                           double part, const std::string& answer) {
  auto e = find_exercise(file, id);
  if (!e.ok()) return scalebook::dump(scalebook::to_json(e.error()));
  auto seed = scalebook::parse_seed(inputs_value(seed_js));
  if (!seed.ok()) return scalebook::dump(scalebook::to_json(seed.error()));
  if (!(part >= 0 && part < 1e6 && part == static_cast<double>(static_cast<size_t>(part)))) {
    return scalebook::dump(scalebook::to_json(scalebook::Error{
        scalebook::ErrorCode::invalid_argument, "part", "part must be a whole number from 0"}));
  }
  auto g = scalebook::grade_part(e.value(), seed.value(), static_cast<size_t>(part), answer);
  if (!g.ok()) return scalebook::dump(scalebook::to_json(g.error()));
  return scalebook::dump({{"grade", scalebook::to_json(g.value(), answer, false)}});
}

val exercise_check(const std::string& file, double seeds) {
  auto parsed = scalebook::parse_exercise_file(file);
  if (!parsed.ok()) return error_to_js(parsed.error());
  val problems = val::array();
  uint32_t n = seeds >= 0 && seeds <= 1000 ? static_cast<uint32_t>(seeds) : 0;
  for (const scalebook::ExerciseSpec& e : parsed.value().exercises) {
    for (const scalebook::Error& p : scalebook::check_exercise(e, n)) {
      val j = val::object();
      j.set("exercise", e.id);
      j.set("field", p.field);
      j.set("message", p.message);
      problems.call<void>("push", j);
    }
  }
  val ids = val::array();
  for (const scalebook::ExerciseSpec& e : parsed.value().exercises) ids.call<void>("push", e.id);
  val out = val::object();
  out.set("ok", true);
  out.set("problems", problems);
  out.set("ids", ids);
  return out;
}

val format_value(double x, const std::string& unit, const std::string& style) {
  if (!scalebook::is_format_style(style)) {
    return error_to_js({scalebook::ErrorCode::invalid_argument, "style",
                        "style must be one of si, sci, int, num, raw, got \"" + style + "\""});
  }
  return ok_with("text", val(scalebook::format_value(x, unit, style)));
}

val parse_answer(const std::string& text) {
  auto q = scalebook::parse_answer(text);
  if (!q.ok()) return error_to_js(q.error());
  val out = val::object();
  out.set("value", q.value().value);
  out.set("unit", q.value().has_unit ? val(q.value().unit.symbol) : val::null());
  return ok_with("quantity", out);
}

// simulateSystolic: the systolic calculator's inputs go through the registry (its exact
// messages, its defaults), the frame window and step budget through the checks below, which
// the engine's SimRequest leaves to its callers; only marshalling after that.
const char* const kSimExtras[] = {"first_frame", "max_frames", "max_pe_steps"};

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

val doubles_to_js(const std::vector<double>& xs) {
  return val(emscripten::typed_memory_view(xs.size(), xs.data())).call<val>("slice");
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

// A JS number as a double; anything else NaN, which the engine refuses with the field's name.
double number_or_nan(const val& v) {
  return v.typeOf().as<std::string>() == "number" ? v.as<double>() : std::nan("");
}

// simulateCollective: the fields go to the engine as named values, `values` (numbers, or rows
// of numbers) flattened; the engine checks both. Steps' moves and the states go back as flat
// typed arrays, which engine.mjs shapes into the documented objects.
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
    if (!val::global("Array").call<bool>("isArray", v)) {
      values.push_back(std::nan(""));  // not a list: the engine names the field
      continue;
    }
    for (unsigned j = 0, m = v["length"].as<unsigned>(); j < m; ++j) {
      val item = v[j];
      if (!val::global("Array").call<bool>("isArray", item)) {
        values.push_back(number_or_nan(item));
        continue;
      }
      for (unsigned k = 0, r = item["length"].as<unsigned>(); k < r; ++k)
        values.push_back(number_or_nan(item[k]));
    }
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
    if (!v.isNull() && !v.isUndefined()) text[i] = val::global("String")(v).as<std::string>();
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

EMSCRIPTEN_BINDINGS(scalebook) {
  emscripten::function("list", &list);
  emscripten::function("schema", &schema);
  emscripten::function("calculate", &calculate);
  emscripten::function("chips", &chips);
  emscripten::function("models", &models);
  emscripten::function("exerciseVariant", &exercise_variant);
  emscripten::function("exerciseGrade", &exercise_grade);
  emscripten::function("exerciseCheck", &exercise_check);
  emscripten::function("format", &format_value);
  emscripten::function("parseAnswer", &parse_answer);
  emscripten::function("sweep", &sweep);
  emscripten::function("solve", &solve);
  emscripten::function("simulateSystolic", &simulate_systolic);
  emscripten::function("simulateCollective", &simulate_collective);
  emscripten::function("shardingLayout", &sharding_layout);
}
