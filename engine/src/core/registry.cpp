#include "scalebook/core/registry.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <optional>
#include <string>

#include "scalebook/core/format.h"

namespace scalebook {

bool parse_decimal(const std::string& text, double& out) {
  auto first = text.find_first_not_of(" \t");
  auto last = text.find_last_not_of(" \t");
  if (first == std::string::npos) return false;
  std::string s = text.substr(first, last - first + 1);
  for (char c : s) {
    bool ok = (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
    if (!ok) return false;
  }
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

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
    std::vector<Pending> sorted = pending();
    std::stable_sort(sorted.begin(), sorted.end(), [](const Pending& a, const Pending& b) {
      return a.order != b.order ? a.order < b.order : a.sequence < b.sequence;
    });
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

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

std::string describe(const Value& v) {
  if (v.is_number()) return format_number(v.number);
  if (v.is_text()) return "\"" + v.text + "\"";
  return "nothing";
}

Error fail(ErrorCode code, const std::string& field, std::string message) {
  return Error{code, field, std::move(message)};
}

Result<Value> check_number(const InputSpec& spec, const Value& given) {
  double x = 0;
  if (given.is_number()) {
    x = given.number;
  } else if (!parse_decimal(given.text, x)) {
    return fail(ErrorCode::invalid_argument, spec.name,
                spec.name + " must be a number, got " + describe(given));
  }
  if (!std::isfinite(x)) {
    return fail(ErrorCode::invalid_argument, spec.name,
                spec.name + " must be a finite number, got " + format_number(x));
  }
  if (spec.kind == InputKind::count && x != std::floor(x)) {
    return fail(ErrorCode::invalid_argument, spec.name,
                spec.name + " must be a whole number, got " + format_number(x));
  }
  bool too_small = spec.min_exclusive ? x <= spec.min : x < spec.min;
  if (too_small) {
    return fail(ErrorCode::out_of_range, spec.name,
                spec.name + " must be " + (spec.min_exclusive ? "> " : ">= ") +
                    format_number(spec.min) + ", got " + format_number(x));
  }
  if (x > spec.max) {
    return fail(ErrorCode::out_of_range, spec.name,
                spec.name + " must be <= " + format_number(spec.max) + ", got " + format_number(x));
  }
  return Value::of(x);
}

Result<Value> check_choice(const InputSpec& spec, const Value& given) {
  if (given.is_text()) {
    for (const std::string& choice : spec.choices) {
      if (choice == given.text) return given;
    }
  }
  return fail(ErrorCode::invalid_argument, spec.name,
              spec.name + " must be one of " + join(spec.choices) + ", got " + describe(given));
}

// Any text up to kMaxTextLength characters; a number given for it is taken as its text.
Result<Value> check_text(const InputSpec& spec, const Value& given) {
  std::string text = given.is_number() ? format_number(given.number) : given.text;
  if (text.size() > static_cast<std::size_t>(kMaxTextLength)) {
    return fail(ErrorCode::invalid_argument, spec.name,
                spec.name + " must be at most " + std::to_string(kMaxTextLength) +
                    " characters, got " + std::to_string(text.size()));
  }
  return Value::of(std::move(text));
}

Result<Value> check_input(const InputSpec& spec, const Value& given) {
  if (spec.kind == InputKind::choice) return check_choice(spec, given);
  if (spec.kind == InputKind::text) return check_text(spec, given);
  return check_number(spec, given);
}

}  // namespace

const char* to_string(ErrorCode code) {
  switch (code) {
    case ErrorCode::invalid_argument:
      return "invalid_argument";
    case ErrorCode::out_of_range:
      return "out_of_range";
    case ErrorCode::not_found:
      return "not_found";
    case ErrorCode::unsupported:
      return "unsupported";
    case ErrorCode::internal:
      return "internal";
  }
  return "invalid_argument";
}

const char* to_string(InputGroup group) {
  switch (group) {
    case InputGroup::main:
      return "main";
    case InputGroup::override:
      return "override";
    case InputGroup::advanced:
      return "advanced";
  }
  return "main";
}

CalculatorRegistration::CalculatorRegistration(int order,
                                               std::initializer_list<Calculator (*)()> makers) {
  for (Calculator (*make)() : makers) {
    pending().push_back({order, static_cast<int>(pending().size()), make});
  }
}

bool ResolvedInputs::declared(const std::string& name) const {
  if (!schema_) return true;
  for (const InputSpec& spec : schema_->inputs)
    if (spec.name == name) return true;
  if (undeclared_.empty()) undeclared_ = name;
  return false;
}

bool ResolvedInputs::declares(const std::string& name) const {
  if (!schema_) return true;
  for (const InputSpec& spec : schema_->inputs)
    if (spec.name == name) return true;
  return false;
}

bool ResolvedInputs::has(const std::string& name) const {
  if (values_.count(name) > 0) return true;
  declared(name);
  return false;
}

const void* ResolvedInputs::preset(const std::string& name) const {
  auto it = presets_.find(name);
  if (it != presets_.end()) return it->second.get();
  declared(name);
  return nullptr;
}

const char* to_string(InputKind kind) {
  switch (kind) {
    case InputKind::number:
      return "number";
    case InputKind::count:
      return "count";
    case InputKind::choice:
      return "choice";
    case InputKind::text:
      return "text";
  }
  return "number";
}

double ResolvedInputs::number(const std::string& name) const {
  auto it = values_.find(name);
  if (it != values_.end()) return it->second.number;
  declared(name);
  return 0;
}

const std::string& ResolvedInputs::text(const std::string& name) const {
  static const std::string empty;
  auto it = values_.find(name);
  if (it != values_.end()) return it->second.text;
  declared(name);
  return empty;
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
      InputSpec spec{key,           field->whole ? InputKind::count : InputKind::number,
                     field->unit,   "",
                     Value::none(), 0,
                     true,          1e30};
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

Result<Calculation> calculate(std::string_view name, const Inputs& inputs,
                              CalculateOptions options) {
  const Calculator* calc = find_calculator(name);
  if (!calc) return schema_of(name).error();
  const Schema& schema = calc->schema;
  bool takes_chip = takes_chip_overrides(schema);
  std::string overrides_help;
  for (const InputSpec& spec : schema.inputs)
    if (spec.preset) overrides_help += ", and " + spec.preset->overrides_help;
  for (const auto& [key, value] : inputs) {
    bool known = false;
    for (const InputSpec& spec : schema.inputs) known = known || spec.name == key;
    if (!known && !(takes_chip && override_field(schema, key)) && !is_dimension(schema, key)) {
      std::vector<std::string> names;
      for (const InputSpec& spec : schema.inputs) names.push_back(spec.name);
      return fail(ErrorCode::invalid_argument, key,
                  schema.name + " has no input \"" + key + "\"; its inputs are " + join(names) +
                      overrides_help +
                      (schema.dimensions.empty() ? "" : ", and " + schema.dimensions));
    }
  }
  ResolvedInputs resolved(&schema, options.explain);
  for (const InputSpec& spec : schema.inputs) {
    auto it = inputs.find(spec.name);
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
  Result<Calculation> result = calc->compute(resolved);
  // Calculators whose steps are woven through the model still build them; the numbers-only
  // path drops them here so callers see one behaviour.
  if (!options.explain && result.ok()) result.value().steps.clear();
  if (!resolved.undeclared_read().empty()) {
    return fail(ErrorCode::internal, resolved.undeclared_read(),
                schema.name + " read \"" + resolved.undeclared_read() +
                    "\", which its schema does not declare");
  }
  return result;
}

}  // namespace scalebook
