// serving_request: the simulation's named fields read into a ServingConfig, each with its
// default. Only the kinds are checked here (a number, a known name); simulate_serving checks
// the sizes, so the API and the registry say the same.
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "scalebook/core/checks.h"
#include "scalebook/core/format.h"
#include "serving_parts.h"

namespace scalebook {
namespace {

struct Field {
  const char* name;
  Value fallback;
  std::vector<std::string> choices;  // empty: a number (or, for shape, a text)
};

// The defaults are ServingConfig's; the model and slice are this request's own.
const std::vector<Field>& field_list() {
  static const ServingConfig kDefault;
  static const std::vector<Field> list = {
      {"model", Value::of("llama-3-8b"), model_ids()},
      {"chip", Value::of(kDefaultChip), chip_ids()},
      {"shape", Value::of("2x2"), {}},
      {"tp", Value::of(4), {}},
      {"ep", Value::of(1), {}},
      {"dtype", Value::of("bf16"), dtype_names()},
      {"dtype_weights", Value::of("bf16"), dtype_names()},
      {"dtype_kv", Value::of("bf16"), dtype_names()},
      {"mode", Value::of(to_string(kDefault.mode)), {"static", "continuous", "disaggregated"}},
      {"rate", Value::of(kDefault.rate), {}},
      {"requests", Value::of(kDefault.requests), {}},
      {"slots", Value::of(kDefault.slots), {}},
      {"prompt_dist",
       Value::of(to_string(kDefault.prompt.kind)),
       {"fixed", "uniform", "exponential"}},
      {"prompt", Value::of(kDefault.prompt.mean), {}},
      {"prompt_min", Value::of(kDefault.prompt.min), {}},
      {"prompt_max", Value::of(kDefault.prompt.max), {}},
      {"output_dist",
       Value::of(to_string(kDefault.output.kind)),
       {"fixed", "uniform", "exponential"}},
      {"output", Value::of(kDefault.output.mean), {}},
      {"output_min", Value::of(kDefault.output.min), {}},
      {"output_max", Value::of(kDefault.output.max), {}},
      {"seed", Value::of(static_cast<double>(kDefault.seed)), {}},
      {"prefill_replicas", Value::of(kDefault.prefill_replicas), {}},
      {"kv_bandwidth", Value::of(kDefault.kv_bandwidth), {}},
      {"samples", Value::of(kDefault.samples), {}},
      {"timeline", Value::of(kDefault.timeline), {}},
  };
  return list;
}

LengthKind length_kind(const std::string& s) {
  return s == "uniform"       ? LengthKind::uniform
         : s == "exponential" ? LengthKind::exponential
                              : LengthKind::fixed;
}

}  // namespace

const std::vector<std::string>& serving_fields() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const Field& f : field_list()) out.emplace_back(f.name);
    return out;
  }();
  return names;
}

Result<Inputs> serving_inputs(const Inputs& fields) {
  Inputs v;
  for (const Field& f : field_list()) {
    auto it = fields.find(f.name);
    const Value& given = it == fields.end() || it->second.is_none() ? f.fallback : it->second;
    InputSpec spec{f.name, InputKind::number, "", "", Value::none()};
    spec.min = std::numeric_limits<double>::lowest();
    if (!f.choices.empty()) spec.kind = InputKind::choice, spec.choices = f.choices;
    if (std::string(f.name) == "shape") spec.kind = InputKind::text;
    Result<Value> checked = check_input(spec, given);
    if (!checked.ok()) return checked.error();
    v[f.name] = checked.value();
  }
  return v;
}

Result<ServingConfig> serving_request(const Inputs& fields, double most_requests) {
  Result<Inputs> resolved = serving_inputs(fields);
  if (!resolved.ok()) return resolved.error();
  Inputs& v = resolved.value();
  auto number = [&](const char* name) { return v[name].number; };
  auto text = [&](const char* name) { return v[name].text; };
  if (number("requests") > most_requests) {
    return Error{ErrorCode::out_of_range, "requests",
                 "requests must be at most " + serving::digits(most_requests) +
                     " (the work budget here), got " + serving::digits(number("requests"))};
  }
  const double seed = number("seed");
  if (!(seed >= 0 && seed <= 9007199254740992.0 && seed == std::floor(seed))) {
    return Error{ErrorCode::invalid_argument, "seed",
                 "seed must be a whole number from 0 to 2^53, got " + format_number(seed)};
  }
  const Chip& chip = *find_chip(text("chip"));
  Result<InferenceSlice> slice = inference_slice(chip, text("shape"), number("tp"), number("ep"));
  if (!slice.ok()) return slice.error();
  ServingConfig c;
  c.step.model = *find_model(text("model"));
  c.step.weight_bytes = bytes_per_element(*parse_dtype(text("dtype_weights")));
  c.step.kv_bytes = bytes_per_element(*parse_dtype(text("dtype_kv")));
  c.step.activation_bytes = bytes_per_element(*parse_dtype(text("dtype")));
  set_chip(c.step, chip, *parse_dtype(text("dtype")));
  c.step.slice = slice.value();
  const std::string mode = text("mode");
  c.mode = mode == "static"          ? ServingMode::static_batching
           : mode == "disaggregated" ? ServingMode::disaggregated
                                     : ServingMode::continuous;
  c.rate = number("rate");
  c.requests = number("requests");
  c.slots = number("slots");
  c.prompt = {length_kind(text("prompt_dist")), number("prompt"), number("prompt_min"),
              number("prompt_max")};
  c.output = {length_kind(text("output_dist")), number("output"), number("output_min"),
              number("output_max")};
  c.seed = static_cast<std::uint64_t>(seed);
  c.prefill_replicas = number("prefill_replicas");
  c.kv_bandwidth = number("kv_bandwidth");
  c.samples = number("samples");
  c.timeline = number("timeline");
  return c;
}

}  // namespace scalebook
