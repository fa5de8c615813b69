#include "variant_parts.h"

#include <cctype>
#include <optional>
#include <string_view>

#include "scalebook/core/expr.h"
#include "scalebook/core/format.h"
#include "scalebook/core/registry.h"
#include "scalebook/hardware/catalog.h"

namespace scalebook::variant_parts {
namespace {

const Value* find(const Params& params, std::string_view name) {
  for (const auto& [key, value] : params)
    if (key == name) return &value;
  return nullptr;
}

Result<Inputs> resolve_inputs(const CalcSpec& calc, const Params& params) {
  Inputs inputs;
  for (const auto& [key, value] : calc.inputs) {
    if (value.is_text() && !value.text.empty() && value.text[0] == '$') {
      const Value* param = find(params, std::string_view(value.text).substr(1));
      if (!param) {
        return Error{ErrorCode::invalid_argument, key,
                     "input " + key + " refers to unknown parameter " + value.text};
      }
      if (param->is_none()) continue;  // a book-only number: the calculator's catalog value
      inputs[key] = *param;
    } else if (value.is_text() && !value.text.empty() && value.text[0] == '=') {
      // "= 2 * N - 1": an expression over the numeric parameters.
      NameLookup lookup = [&](std::string_view name) -> std::optional<double> {
        const Value* p = find(params, name);
        if (p && p->is_number()) return p->number;
        return std::nullopt;
      };
      Result<double> x = evaluate(std::string_view(value.text).substr(1), lookup);
      if (!x.ok()) return Error{ErrorCode::invalid_argument, key, x.error().message};
      inputs[key] = Value::of(x.value());
    } else {
      inputs[key] = value;
    }
  }
  return inputs;
}

std::optional<double> output_number(const Calculation& calc, std::string_view name) {
  for (const auto& [key, value] : calc.outputs)
    if (key == name && value.is_number()) return value.number;
  return std::nullopt;
}

const Value* output_value(const Calculation& calc, std::string_view name) {
  for (const auto& [key, value] : calc.outputs)
    if (key == name) return &value;
  return nullptr;
}

// Steps leading to `output`: its own and those of the outputs it depends on, in order.
std::vector<Step> steps_for(const std::vector<Step>& steps, const std::string& output) {
  std::vector<std::string> wanted = {output};
  for (size_t i = 0; i < wanted.size(); ++i) {
    for (const Step& s : steps) {
      if (s.output != wanted[i]) continue;
      for (const std::string& dep : s.depends) {
        bool seen = false;
        for (const std::string& w : wanted) seen = seen || w == dep;
        if (!seen) wanted.push_back(dep);
      }
    }
  }
  std::vector<Step> out;
  for (const Step& s : steps) {
    for (const std::string& w : wanted) {
      if (s.output == w) {
        out.push_back(s);
        break;
      }
    }
  }
  return out;
}

// The identifiers an expression mentions, so its worked solution can include their steps.
std::vector<std::string> names_in(const std::string& expression) {
  std::vector<std::string> names;
  std::string current;
  for (char c : expression + " ") {
    bool part_of_name = std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
    if (part_of_name && (!current.empty() || !std::isdigit(static_cast<unsigned char>(c)))) {
      current += c;
    } else {
      if (!current.empty()) names.push_back(current);
      current.clear();
    }
  }
  return names;
}

// The expression with each name replaced by its value, as LaTeX: "2 \times 4378".
std::string expression_latex(const std::string& expression, const NameLookup& lookup) {
  std::string out, name;
  auto flush = [&] {
    if (name.empty()) return;
    std::optional<double> v = lookup(name);
    out += v ? latex_number(*v) : "\\text{" + name + "}";
    name.clear();
  };
  for (char c : expression) {
    bool name_char = std::isalpha(static_cast<unsigned char>(c)) || c == '_' ||
                     (!name.empty() && (std::isdigit(static_cast<unsigned char>(c)) || c == '.'));
    if (name_char) {
      name += c;
      continue;
    }
    flush();
    out += c == '*' ? std::string("\\times") : std::string(1, c);
  }
  flush();
  return out;
}

std::string schema_unit(const std::string& calculator, const std::string& output) {
  Result<Schema> schema = schema_of(calculator);
  if (!schema.ok()) return {};
  for (const OutputSpec& o : schema.value().outputs)
    if (o.name == output) return o.unit;
  return {};
}

std::string print_param(const ParamSpec& spec, const Value& value) {
  if (value.is_none()) return "the catalog's value";
  if (value.is_text()) {
    const Chip* chip = find_chip(value.text);  // a chip prints as its name: "TPU v5e"
    return chip ? chip->name : value.text;
  }
  if (spec.format.empty()) return format_value(value.number, "", "raw");
  return format_value(value.number, spec.unit, spec.format);
}

}  // namespace

Result<Computed> compute(const ExerciseSpec& e, const Params& params) {
  Computed out;
  for (const ParamSpec& spec : e.params) {
    const Value* v = find(params, spec.name);
    out.printed.emplace_back(spec.name, print_param(spec, *v));
    if (v->is_number()) out.numbers.emplace_back(spec.name, v->number);
  }
  for (const ValueSpec& spec : e.values) {
    Result<Inputs> inputs = resolve_inputs(spec.calc, params);
    if (!inputs.ok()) return inputs.error();
    Result<Calculation> calc = calculate(spec.calc.calculator, inputs.value());
    if (!calc.ok()) return calc.error();
    std::optional<double> x = output_number(calc.value(), spec.output);
    if (!x) {
      return Error{ErrorCode::invalid_argument, "values." + spec.name,
                   spec.calc.calculator + " has no numeric output \"" + spec.output + "\""};
    }
    std::string style = spec.format.empty() ? "si" : spec.format;
    out.printed.emplace_back(
        spec.name, format_value(*x, schema_unit(spec.calc.calculator, spec.output), style));
    out.numbers.emplace_back(spec.name, *x);
  }
  for (size_t i = 0; i < e.parts.size(); ++i) {
    const PartSpec& spec = e.parts[i];
    auto part_error = [&](Error err) {
      err.message = "part " + spec.id + ": " + err.message;
      return err;
    };
    Result<Inputs> inputs = resolve_inputs(spec.calc, params);
    if (!inputs.ok()) return part_error(inputs.error());
    // A part without a calculator is pure arithmetic over the parameters.
    Result<Calculation> calc = spec.calc.calculator.empty()
                                   ? Result<Calculation>(Calculation{})
                                   : calculate(spec.calc.calculator, inputs.value());
    if (!calc.ok()) return part_error(calc.error());
    PartVariant part{spec.id, spec.kind, spec.label, spec.unit};
    part.choices = spec.choices;
    part.tolerance = spec.tolerance;
    part.book = spec.book;
    std::string field = "parts." + spec.id;
    // Later parts and conditions see this part's answer in SI base units, whatever unit the
    // question asks in, so "max(a, b)" over a time in us and one in ms stays right.
    double answer_si = 0;
    if (spec.kind == "choice") {
      const Value* v = output_value(calc.value(), spec.output);
      if (!v || !v->is_text()) {
        return part_error(
            Error{ErrorCode::invalid_argument, field,
                  spec.calc.calculator + " has no text output \"" + spec.output + "\""});
      }
      part.expected_choice = v->text;
      part.steps = steps_for(calc.value().steps, spec.output);
    } else {
      Result<Unit> unit = parse_unit(spec.unit);
      if (!unit.ok())
        return part_error(Error{ErrorCode::invalid_argument, field, unit.error().message});
      double si = 0;
      std::string base;
      if (!spec.output.empty()) {
        std::optional<double> x = output_number(calc.value(), spec.output);
        if (!x) {
          return part_error(
              Error{ErrorCode::invalid_argument, field,
                    spec.calc.calculator + " has no numeric output \"" + spec.output + "\""});
        }
        si = *x;
        base = schema_unit(spec.calc.calculator, spec.output);
        part.steps = steps_for(calc.value().steps, spec.output);
      } else {
        const Calculation& c = calc.value();
        NameLookup lookup = [&](std::string_view name) -> std::optional<double> {
          if (auto x = output_number(c, name)) return x;
          for (const auto& [key, value] : out.numbers)
            if (key == name) return value;
          return std::nullopt;
        };
        Result<double> x = evaluate(spec.answer, lookup);
        if (!x.ok())
          return part_error(Error{ErrorCode::invalid_argument, field, x.error().message});
        si = x.value();
        base = base_symbol(unit.value().dimension);
        std::vector<std::string> names = names_in(spec.answer);
        for (const Step& s : c.steps) {
          bool used = false;
          for (const std::string& n : names) used = used || n == s.output;
          if (used) {
            for (const Step& dep : steps_for(c.steps, s.output)) {
              bool seen = false;
              for (const Step& have : part.steps) seen = seen || have.label == dep.label;
              if (!seen) part.steps.push_back(dep);
            }
          }
        }
        part.steps.push_back({"Answer",
                              expression_latex(spec.answer, lookup) + " = " + latex_number(si),
                              si,
                              base_symbol(unit.value().dimension),
                              "answer",
                              {}});
      }
      Result<Unit> base_unit = parse_unit(base);
      if (!base_unit.ok() || base_unit.value().dimension != unit.value().dimension) {
        return part_error(Error{ErrorCode::invalid_argument, field,
                                "unit \"" + spec.unit + "\" does not measure the answer (" +
                                    (base.empty() ? "a count" : base) + ")"});
      }
      part.expected = si / unit.value().factor;
      answer_si = si;
    }
    out.numbers.emplace_back(spec.id, answer_si);
    out.parts.push_back(std::move(part));
  }
  return out;
}

}  // namespace scalebook::variant_parts
