#include "sweep_cmd.h"

#include <cmath>
#include <string>
#include <vector>

#include "model_cmd.h"
#include "scalebook/core/format.h"
#include "scalebook/core/sweep.h"
#include "text_out.h"

namespace scalebook::cli {
namespace {

Error bad(const std::string& field, std::string message) {
  return Error{ErrorCode::invalid_argument, field, std::move(message)};
}

// A required --name VALUE as a number.
Result<double> number_option(const std::optional<std::string>& text, const std::string& name) {
  if (!text) return bad(name, "--" + name + " is needed");
  double x = 0;
  if (!parse_decimal(*text, x) || !std::isfinite(x)) {
    return bad(name, "--" + name + " must be a number, got \"" + *text + "\"");
  }
  return x;
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> items;
  std::string item;
  for (char c : text + ",") {
    if (c != ',') {
      item += c;
      continue;
    }
    auto first = item.find_first_not_of(' ');
    if (first != std::string::npos)
      items.push_back(item.substr(first, item.find_last_not_of(' ') - first + 1));
    item.clear();
  }
  return items;
}

// The calculator and its name=value inputs: words[1] and words[2...].
Result<Inputs> read_inputs(const Options& opt, const char* command) {
  if (opt.words.size() < 2) return bad("", std::string(command) + " takes a calculator name");
  Result<Inputs> given = read_assignments(opt, 2);
  if (!given.ok()) return given;
  return with_model_config(opt, opt.words[1], given.value());
}

std::string unit_of(const Schema& schema, const std::string& name) {
  for (const InputSpec& in : schema.inputs)
    if (in.name == name) return in.unit;
  for (const OutputSpec& out : schema.outputs)
    if (out.name == name) return out.unit;
  return "";
}

// A count input (or a named dimension, upper-case) takes whole numbers only.
bool whole_input(const Schema& schema, const std::string& name) {
  for (const InputSpec& in : schema.inputs)
    if (in.name == name) return in.kind == InputKind::count;
  return !name.empty() && name[0] >= 'A' && name[0] <= 'Z';
}

Result<std::vector<double>> sweep_values(const Options& opt, bool whole) {
  if (opt.values) {
    if (opt.from || opt.to || opt.points) {
      return bad("values", "give --values or --from/--to/--points, not both");
    }
    std::vector<double> xs;
    for (const std::string& item : split(*opt.values)) {
      double x = 0;
      if (!parse_decimal(item, x))
        return bad("values", "--values must be numbers, got \"" + item + "\"");
      xs.push_back(x);
    }
    return xs;
  }
  Result<double> from = number_option(opt.from, "from");
  if (!from.ok()) return from.error();
  Result<double> to = number_option(opt.to, "to");
  if (!to.ok()) return to.error();
  double points = 50;
  if (opt.points) {
    Result<double> p = number_option(opt.points, "points");
    if (!p.ok()) return p.error();
    if (p.value() != std::floor(p.value()) || p.value() < 2 || p.value() > kMaxSweepPoints) {
      return Error{
          ErrorCode::out_of_range, "points",
          "points must be from 2 to " + std::to_string(kMaxSweepPoints) + ", got " + *opt.points};
    }
    points = p.value();
  }
  return sweep_points(from.value(), to.value(), static_cast<int>(points), opt.log, whole);
}

}  // namespace

int sweep_command(const Options& opt) {
  Result<Inputs> inputs = read_inputs(opt, "sweep");
  if (!inputs.ok()) return fail(opt, inputs.error());
  const std::string& name = opt.words[1];
  auto schema = schema_of(name);
  if (!schema.ok()) return fail(opt, schema.error());
  if (!opt.over) return fail(opt, bad("over", "--over INPUT is needed: the input to sweep"));
  Result<std::vector<double>> values = sweep_values(opt, whole_input(schema.value(), *opt.over));
  if (!values.ok()) return fail(opt, values.error());
  SweepRequest q{name, inputs.value(), *opt.over, values.value(),
                 opt.outputs ? split(*opt.outputs) : std::vector<std::string>{}};
  auto result = sweep(q);
  if (!result.ok()) return fail(opt, result.error());
  const SweepResult& r = result.value();
  Json series = Json::object();
  for (size_t k = 0; k < r.outputs.size(); ++k) {
    Json column = Json::array();
    for (double y : r.series[k]) column.push_back(std::isnan(y) ? Json() : Json(y));
    series[r.outputs[k]] = column;
  }
  Json json = {{"calculator", name}, {"over", q.over}, {"values", r.values}, {"series", series}};
  std::string text = q.over;
  for (const std::string& o : r.outputs) text += "\t" + o;
  text += "\n";
  for (size_t i = 0; i < r.values.size(); ++i) {
    text += si(r.values[i], unit_of(schema.value(), q.over));
    for (size_t k = 0; k < r.outputs.size(); ++k) {
      double y = r.series[k][i];
      text += "\t" +
              (std::isnan(y) ? std::string("none") : si(y, unit_of(schema.value(), r.outputs[k])));
    }
    text += "\n";
  }
  print(opt, json, text);
  return 0;
}

int solve_command(const Options& opt) {
  Result<Inputs> inputs = read_inputs(opt, "solve");
  if (!inputs.ok()) return fail(opt, inputs.error());
  const std::string& name = opt.words[1];
  auto schema = schema_of(name);
  if (!schema.ok()) return fail(opt, schema.error());
  if (!opt.over) return fail(opt, bad("over", "--over INPUT is needed: the input to solve for"));
  if (!opt.output)
    return fail(opt, bad("output", "--output OUTPUT is needed: what must reach --target"));
  Result<double> target = number_option(opt.target, "target");
  if (!target.ok()) return fail(opt, target.error());
  Result<double> from = number_option(opt.from, "from");
  if (!from.ok()) return fail(opt, from.error());
  Result<double> to = number_option(opt.to, "to");
  if (!to.ok()) return fail(opt, to.error());
  SolveRequest q{name,           inputs.value(), *opt.over, *opt.output,
                 target.value(), from.value(),   to.value()};
  auto result = solve(q);
  if (!result.ok()) return fail(opt, result.error());
  const SolveResult& r = result.value();
  Json json = {{"calculator", name},  {"over", q.over},
               {"output", q.output},  {"target", q.target},
               {"at", to_json(r.at)}, {"output_at", r.output_at},
               {"at_lo", r.at_lo},    {"evaluations", r.evaluations}};
  std::string in_unit = unit_of(schema.value(), q.over);
  std::string out_unit = unit_of(schema.value(), q.output);
  std::string text =
      r.at.is_none()
          ? q.output + " never reaches " + si(q.target, out_unit) + " for " + q.over + " up to " +
                si(q.hi, in_unit) + " (it is " + si(r.output_at, out_unit) + " there)\n"
          : q.over + " = " + format_number(r.at.number) + (in_unit.empty() ? "" : " " + in_unit) +
                ": the smallest at which " + q.output + " reaches " + si(q.target, out_unit) +
                " (" + si(r.output_at, out_unit) + ")" + (r.at_lo ? ", already at --from" : "") +
                "\n";
  print(opt, json, text);
  return 0;
}

}  // namespace scalebook::cli
