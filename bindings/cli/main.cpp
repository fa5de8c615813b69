// scalebook: the engine at a terminal. JSON when stdout is not a terminal or with --json,
// text otherwise. Bad input exits 2 with a one-line error on stderr.
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "exercise_cmd.h"
#include "json_out.h"
#include "model_cmd.h"
#include "options.h"
#include "simulate_cmd.h"
#include "sweep_cmd.h"
#include "text_out.h"
#include "usage.h"

namespace {

using scalebook::Error;
using scalebook::ErrorCode;
using scalebook::cli::Json;
using scalebook::cli::Options;

using scalebook::cli::fail;
using scalebook::cli::print;

int usage_error(const Options& opt, const std::string& message) {
  if (!opt.json) std::cerr << scalebook::cli::usage();
  return fail(opt, Error{ErrorCode::invalid_argument, "", message});
}

int list(const Options& opt) {
  Json json = Json::array();
  std::string text;
  for (const std::string& name : scalebook::calculator_names()) {
    const scalebook::Schema schema = scalebook::schema_of(name).value();
    json.push_back({{"name", name}, {"description", schema.description}});
    text += name + std::string(name.size() < 12 ? 12 - name.size() : 1, ' ') + schema.description +
            "\n";
  }
  print(opt, json, text);
  return 0;
}

int schema(const Options& opt) {
  if (opt.words.size() != 2) return usage_error(opt, "schema takes one calculator name");
  auto result = scalebook::schema_of(opt.words[1]);
  if (!result.ok()) return fail(opt, result.error());
  print(opt, scalebook::cli::to_json(result.value()), scalebook::cli::to_text(result.value()));
  return 0;
}

// --top N sets the calculator's top input; --export OUTPUT names a text output it has (jax).
std::optional<Error> calc_flags(const Options& opt, const scalebook::Schema& schema,
                                scalebook::Inputs& inputs) {
  auto declares = [&](const std::string& input) {
    for (const scalebook::InputSpec& spec : schema.inputs)
      if (spec.name == input) return true;
    return false;
  };
  if (opt.top) {
    if (!declares("top"))
      return Error{
          ErrorCode::invalid_argument, "top",
          "--top applies to a calculator with a top input, and " + schema.name + " has none"};
    if (inputs.count("top")) return Error{ErrorCode::invalid_argument, "top", "top is given twice"};
    inputs["top"] = scalebook::Value::of(*opt.top);
  }
  if (opt.export_as) {
    bool has_jax = false;
    for (const scalebook::OutputSpec& o : schema.outputs) has_jax |= o.name == "jax" && o.is_text;
    if (!has_jax)
      return Error{ErrorCode::invalid_argument, "export",
                   "--export applies to a calculator with code to export (training-search), and " +
                       schema.name + " has none"};
    if (*opt.export_as != "jax")
      return Error{ErrorCode::invalid_argument, "export",
                   "--export takes jax, got \"" + *opt.export_as + "\""};
  }
  return std::nullopt;
}

int calc(const Options& opt) {
  if (opt.words.size() < 2) return usage_error(opt, "calc takes a calculator name");
  const std::string& name = opt.words[1];
  auto schema = scalebook::schema_of(name);
  if (!schema.ok()) return fail(opt, schema.error());
  auto given = read_assignments(opt, 2);
  if (!given.ok()) return fail(opt, given.error());
  auto inputs = scalebook::cli::with_model_config(opt, name, given.value());
  if (!inputs.ok()) return fail(opt, inputs.error());
  if (auto bad = calc_flags(opt, schema.value(), inputs.value())) return fail(opt, *bad);
  auto result = scalebook::calculate(name, inputs.value());
  if (!result.ok()) return fail(opt, result.error());
  if (opt.export_as) {
    // Code to start from: printed as it is, for a file or a pipe.
    for (const auto& [output, value] : result.value().outputs)
      if (output == *opt.export_as && value.is_text()) std::cout << value.text;
    return 0;
  }
  print(opt, scalebook::cli::to_json(result.value(), opt.explain),
        scalebook::cli::to_text(schema.value(), result.value(), opt.explain));
  return 0;
}

int chips(const Options& opt) {
  Json json = Json::array();
  std::string text;
  for (const scalebook::Chip& chip : scalebook::chips()) {
    json.push_back(scalebook::cli::to_json(chip));
    text += scalebook::cli::to_text(chip);
  }
  print(opt, json, text);
  return 0;
}

int chip(const Options& opt) {
  if (opt.words.size() != 2) return usage_error(opt, "chip takes one chip id");
  const scalebook::Chip* found = scalebook::find_chip(opt.words[1]);
  if (!found) {
    std::string ids;
    for (const std::string& id : scalebook::chip_ids()) ids += (ids.empty() ? "" : ", ") + id;
    return fail(opt, Error{ErrorCode::not_found, "chip",
                           "unknown chip \"" + opt.words[1] + "\"; choose one of " + ids});
  }
  print(opt, scalebook::cli::to_json(*found), scalebook::cli::to_text(*found));
  return 0;
}

int models(const Options& opt) {
  Json json = Json::array();
  std::string text;
  for (const scalebook::Model& model : scalebook::models()) {
    json.push_back(scalebook::cli::to_json(model));
    text += scalebook::cli::to_text_line(model);
  }
  print(opt, json, text);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  if (auto bad = scalebook::cli::parse_options(argc, argv, opt)) return fail(opt, *bad);
  // Asked for, the usage is the output; missing a command, it is an error like any other.
  if (opt.words.empty()) return usage_error(opt, "no command given");
  // Help is text whatever the mode: a person asked for it. `help CMD` is `CMD --help`.
  const bool help_word = opt.words[0] == "help";
  if (help_word || scalebook::cli::asks_for_help(opt.words)) {
    std::vector<std::string> words(opt.words.begin() + (help_word ? 1 : 0), opt.words.end());
    if (!words.empty() && (words[0] == "--help" || words[0] == "-h")) words.clear();
    std::optional<std::string> text = scalebook::cli::command_usage(words);
    if (!text) return usage_error(opt, "unknown command \"" + words[0] + "\"");
    std::cout << *text;
    return 0;
  }
  const std::string& command = opt.words[0];
  if (command == "list") return list(opt);
  if (command == "schema") return schema(opt);
  if (command == "calc") return calc(opt);
  if (command == "sweep") return scalebook::cli::sweep_command(opt);
  if (command == "solve") return scalebook::cli::solve_command(opt);
  if (command == "simulate") return scalebook::cli::simulate_command(opt);
  if (command == "chips") return chips(opt);
  if (command == "chip") return chip(opt);
  if (command == "models") return models(opt);
  if (command == "model") return scalebook::cli::model_command(opt);
  if (command == "exercise") return scalebook::cli::exercise_command(opt);
  return usage_error(opt, "unknown command \"" + command + "\"");
}
