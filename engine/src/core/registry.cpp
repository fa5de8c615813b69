#include "scalebook/core/registry.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>

#include "scalebook/core/format.h"

namespace scalebook {

namespace {

struct Pending {
  int order;
  int sequence;
  Calculator (*make)();
};

// Filled during static initialisation by the domains' registrations, read after it.
std::vector<Pending>& pending() {
  static std::vector<Pending> list;
  return list;
}

// Built on first use, after every registration ran: makers may read other static tables.
const std::vector<Calculator>& calculators() {
  static const std::vector<Calculator> list = [] {
    // By order, then registration: an insertion sort of a few dozen entries, done once, where
    // std::stable_sort's instantiation cost every engine module 2.7 kB of code.
    auto before = [](const Pending& a, const Pending& b) {
      return a.order != b.order ? a.order < b.order : a.sequence < b.sequence;
    };
    std::vector<Pending> sorted = pending();
    for (std::size_t i = 1; i < sorted.size(); ++i) {
      const Pending p = sorted[i];
      std::size_t at = i;
      for (; at > 0 && before(p, sorted[at - 1]); --at) sorted[at] = sorted[at - 1];
      sorted[at] = p;
    }
    std::vector<Calculator> out;
    for (const Pending& p : sorted) out.push_back(p.make());
    return out;
  }();
  return list;
}

const Calculator* find_calculator(std::string_view name) {
  for (const Calculator& c : calculators()) {
    if (c.schema.name == name) return &c;
  }
  return nullptr;
}

Error fail(ErrorCode code, const std::string& field, std::string message) {
  return Error{code, field, std::move(message)};
}

}  // namespace

CalculatorRegistration::CalculatorRegistration(int order,
                                               std::initializer_list<Calculator (*)()> makers) {
  for (Calculator (*make)() : makers) {
    pending().push_back({order, static_cast<int>(pending().size()), make});
  }
}

std::vector<std::string> calculator_names() {
  std::vector<std::string> names;
  for (const Calculator& c : calculators()) names.push_back(c.schema.name);
  return names;
}

Result<Schema> schema_of(std::string_view name) {
  const Calculator* calc = find_calculator(name);
  if (!calc) {
    return fail(ErrorCode::not_found, "calculator",
                "unknown calculator \"" + std::string(name) + "\"; choose one of " +
                    join(calculator_names()));
  }
  return calc->schema;
}

bool takes_chip_overrides(const Schema& schema) {
  for (const InputSpec& spec : schema.inputs)
    if (spec.preset) return true;
  return false;
}

namespace {

// Dimension names start upper-case, so they never clash with inputs or chip fields.
bool is_dimension_name(const std::string& key) {
  if (key.empty() || key.size() > 16 || key[0] < 'A' || key[0] > 'Z') return false;
  for (char c : key) {
    bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (!ok) return false;
  }
  return true;
}

bool is_schema_input(const Schema& schema, const std::string& key) {
  for (const InputSpec& spec : schema.inputs) {
    if (spec.name == key) return true;
  }
  return false;
}

bool is_dimension(const Schema& schema, const std::string& key) {
  return !schema.dimensions.empty() && !is_schema_input(schema, key) && is_dimension_name(key);
}

std::optional<Error> apply_dimensions(ResolvedInputs& resolved, const Inputs& inputs,
                                      const Schema& schema) {
  for (const auto& [key, value] : inputs) {
    if (!is_dimension(schema, key) || value.is_none()) continue;
    InputSpec spec{key, InputKind::count, "", "", Value::none(), 1, false, kMaxDimension};
    Result<Value> checked = check_input(spec, value);
    if (!checked.ok()) return checked.error();
    resolved.set_dimension(key, checked.value().number);
  }
  return std::nullopt;
}

// The preset field `key` overrides, for a schema with a preset input; null otherwise.
const PresetField* override_field(const Schema& schema, const std::string& key) {
  for (const InputSpec& spec : schema.inputs) {
    if (!spec.preset) continue;
    if (const PresetField* field = spec.preset->find_field(key)) return field;
  }
  return nullptr;
}

// Field overrides applied to the preset's copy: inputs the schema declares as overriding it
// (checked by their own specs), and any other numeric field of the preset given by name
// (a positive number). Without overrides the calculator reads the catalog's entry (no copy
// on the hot path).
std::optional<Error> apply_presets(ResolvedInputs& resolved, const Inputs& inputs,
                                   const Schema& schema) {
  for (const InputSpec& preset : schema.inputs) {
    if (!preset.preset) continue;
    std::vector<std::pair<std::string, Value>> overrides;
    for (const InputSpec& spec : schema.inputs) {
      if (spec.overrides != preset.preset || !resolved.has(spec.name)) continue;
      overrides.emplace_back(spec.name, spec.kind == InputKind::choice
                                            ? Value::of(resolved.text(spec.name))
                                            : Value::of(resolved.number(spec.name)));
    }
    for (const auto& [key, value] : inputs) {
      if (is_schema_input(schema, key) || value.is_none()) continue;
      const PresetField* field = preset.preset->find_field(key);
      if (!field) continue;
      // A rate below one unit a second is a typo, and would overflow the times it divides.
      const bool rate = field->unit == "FLOP/s" || field->unit == "B/s";
      InputSpec spec{key,           field->whole ? InputKind::count : InputKind::number,
                     field->unit,   "",
                     Value::none(), rate ? 1.0 : 0.0,
                     !rate,         1e30};
      Result<Value> checked = check_input(spec, value);
      if (!checked.ok()) return checked.error();
      overrides.emplace_back(key, checked.value());
    }
    auto resolved_preset =
        preset.preset->resolve(preset.name, resolved.text(preset.name), overrides);
    if (!resolved_preset.ok()) return resolved_preset.error();
    resolved.set_preset(preset.name, std::move(resolved_preset.value()));
  }
  return std::nullopt;
}

}  // namespace

namespace {

Result<ResolvedInputs> resolve(const Calculator& calc, const Inputs& inputs, bool explain) {
  const Schema& schema = calc.schema;
  bool takes_chip = takes_chip_overrides(schema);
  std::string overrides_help;
  for (const InputSpec& spec : schema.inputs)
    if (spec.preset) overrides_help += ", and " + spec.preset->overrides_help;
  auto alias_of = [&](const InputSpec& spec, const std::string& key) {
    return std::find(spec.aliases.begin(), spec.aliases.end(), key) != spec.aliases.end();
  };
  for (const auto& [key, value] : inputs) {
    bool known = false;
    for (const InputSpec& spec : schema.inputs) {
      known = known || spec.name == key;
      if (!alias_of(spec, key)) continue;
      known = true;
      if (inputs.count(spec.name))
        return fail(ErrorCode::invalid_argument, key,
                    key + " is another name for " + spec.name + "; give one of them");
    }
    if (!known && !(takes_chip && override_field(schema, key)) && !is_dimension(schema, key)) {
      std::vector<std::string> names;
      for (const InputSpec& spec : schema.inputs) {
        std::string name = spec.name;
        for (const std::string& alias : spec.aliases) name += " (or " + alias + ")";
        names.push_back(name);
      }
      return fail(ErrorCode::invalid_argument, key,
                  schema.name + " has no input \"" + key + "\"; its inputs are " + join(names) +
                      overrides_help +
                      (schema.dimensions.empty() ? "" : ", and " + schema.dimensions));
    }
  }
  ResolvedInputs resolved(&schema, explain);
  for (const InputSpec& spec : schema.inputs) {
    auto it = inputs.find(spec.name);
    for (const std::string& alias : spec.aliases)
      if (it == inputs.end()) it = inputs.find(alias);
    bool given = it != inputs.end() && !it->second.is_none();
    const Value& value = given ? it->second : spec.default_value;
    if (value.is_none()) continue;  // optional, the calculator decides
    Result<Value> checked = check_input(spec, value);
    if (!checked.ok()) return checked.error();
    resolved.set(spec.name, checked.value());
  }
  if (takes_chip) {
    if (std::optional<Error> bad = apply_presets(resolved, inputs, schema)) return *bad;
  }
  if (std::optional<Error> bad = apply_dimensions(resolved, inputs, schema)) return *bad;
  return resolved;
}

// A number output that overflowed (inf) or lost meaning (NaN) is never passed on as if it
// were an answer: the inputs are out of the range the model can compute, and the error names
// the input farthest from ordinary magnitudes, the likeliest cause.
std::optional<Error> check_finite(const Schema& schema, const ResolvedInputs& resolved,
                                  const Calculation& result) {
  for (const auto& [name, value] : result.outputs) {
    if (!value.is_number() || std::isfinite(value.number)) continue;
    auto [input, x] = resolved.most_extreme_number();
    std::string what = std::isnan(value.number) ? "not a number" : "too large to represent";
    if (input.empty()) {
      return fail(ErrorCode::out_of_range, "",
                  schema.name + "'s " + name + " comes out " + what + " for these inputs");
    }
    return fail(ErrorCode::out_of_range, input,
                schema.name + "'s " + name + " comes out " + what + " with " + input + "=" +
                    format_number(x) + "; bring " + input + " nearer ordinary values");
  }
  return std::nullopt;
}

std::optional<Error> run(const Calculator& calc, const ResolvedInputs& resolved,
                         ResultBuffer& buffer,
                         const std::function<void(double)>* progress = nullptr) {
  std::optional<NumbersOnly> numbers_only;
  if (!resolved.explain()) numbers_only.emplace();
  ResultBuilder out(calc.schema, resolved.explain(), buffer);
  out.set_progress(progress);
  std::optional<Error> bad = calc.compute(resolved, out);
  if (!resolved.undeclared_read().empty()) {
    return fail(ErrorCode::internal, resolved.undeclared_read(),
                calc.schema.name + " read \"" + resolved.undeclared_read() +
                    "\", which its schema does not declare");
  }
  if (bad) return bad;
  if (std::optional<Error> broken = out.finish()) return broken;
  return check_finite(calc.schema, resolved, buffer.calculation);
}

}  // namespace

Result<Calculation> calculate(std::string_view name, const Inputs& inputs,
                              CalculateOptions options) {
  const Calculator* calc = find_calculator(name);
  if (!calc) return schema_of(name).error();
  Result<ResolvedInputs> resolved = resolve(*calc, inputs, options.explain);
  if (!resolved.ok()) return resolved.error();
  ResultBuffer buffer;
  if (std::optional<Error> bad = run(*calc, resolved.value(), buffer, &options.progress))
    return *bad;
  return std::move(buffer.calculation);
}

Result<PreparedCalculation> PreparedCalculation::make(std::string_view calculator,
                                                      const Inputs& fixed,
                                                      const std::vector<std::string>& varying,
                                                      std::vector<std::string> outputs) {
  PreparedCalculation p;
  p.calc_ = find_calculator(calculator);
  if (!p.calc_) return schema_of(calculator).error();
  const Schema& schema = p.calc_->schema;
  p.fixed_ = fixed;
  for (const std::string& name : varying) {
    const InputSpec* spec = nullptr;
    for (const InputSpec& s : schema.inputs)
      if (s.name == name) spec = &s;
    if (spec && spec->kind != InputKind::number && spec->kind != InputKind::count) {
      return fail(ErrorCode::invalid_argument, name,
                  name + " is a " + to_string(spec->kind) + " input; only numbers vary");
    }
    if (!spec && !is_dimension(schema, name)) {
      return fail(ErrorCode::invalid_argument, name,
                  schema.name + " has no number input \"" + name + "\"");
    }
    if (spec && spec->overrides) p.slow_ = true;  // it changes a preset: resolve it each time
    InputSpec check = spec ? *spec : InputSpec{name,  InputKind::count, "", "", Value::none(), 1,
                                               false, kMaxDimension};
    p.varying_.push_back({name, spec, std::move(check)});
    p.fixed_.erase(name);
  }
  // Resolve once with each varying input at its default (or 1), so the others are checked.
  Inputs probe = p.fixed_;
  for (const Varying& v : p.varying_) {
    bool has_default = v.spec && v.spec->default_value.is_number();
    probe[v.name] = has_default ? v.spec->default_value : Value::of(1.0);
  }
  Result<ResolvedInputs> resolved = resolve(*p.calc_, probe, false);
  if (!resolved.ok()) return resolved.error();
  p.resolved_ = std::move(resolved.value());
  if (outputs.empty()) {
    for (const OutputSpec& o : schema.outputs)
      if (!o.is_text) outputs.push_back(o.name);
  }
  for (const std::string& name : outputs) {
    std::size_t index = schema.outputs.size();
    for (std::size_t i = 0; i < schema.outputs.size(); ++i)
      if (schema.outputs[i].name == name) index = i;
    if (index == schema.outputs.size()) {
      return fail(ErrorCode::invalid_argument, "outputs",
                  schema.name + " has no output \"" + name + "\"");
    }
    if (schema.outputs[index].is_text) {
      return fail(ErrorCode::invalid_argument, "outputs",
                  "outputs must be number outputs, and " + name + " is text");
    }
    p.output_index_.push_back(index);
  }
  p.outputs_ = std::move(outputs);
  p.buffer_.tables = false;  // only number outputs are read back
  return p;
}

std::optional<Error> PreparedCalculation::evaluate(const double* x, double* y) {
  if (slow_) {
    Inputs inputs = fixed_;
    for (std::size_t i = 0; i < varying_.size(); ++i) inputs[varying_[i].name] = Value::of(x[i]);
    Result<ResolvedInputs> resolved = resolve(*calc_, inputs, false);
    if (!resolved.ok()) return resolved.error();
    if (std::optional<Error> bad = run(*calc_, resolved.value(), buffer_)) return bad;
  } else {
    for (std::size_t i = 0; i < varying_.size(); ++i) {
      const Varying& v = varying_[i];
      Result<Value> checked = check_input(v.check, Value::of(x[i]));
      if (!checked.ok()) return checked.error();
      if (v.spec)
        resolved_.set(v.name, checked.value());
      else
        resolved_.set_dimension(v.name, checked.value().number);
    }
    if (std::optional<Error> bad = run(*calc_, resolved_, buffer_)) return bad;
  }
  const auto& outs = buffer_.calculation.outputs;
  for (std::size_t k = 0; k < output_index_.size(); ++k) {
    const Value& v = outs[output_index_[k]].second;
    y[k] = v.is_number() ? v.number : std::numeric_limits<double>::quiet_NaN();
  }
  return std::nullopt;
}

}  // namespace scalebook
