#pragma once
// Command-line options, accepted anywhere on the line, and the two ways to print.
#include <optional>
#include <string>
#include <vector>

#include "json_out.h"
#include "scalebook/core/status.h"
#include "scalebook/core/value.h"

namespace scalebook::cli {

struct Options {
  bool json = false;
  bool explain = false;
  bool log = false;  // sweep: points evenly spaced on a log scale
  std::optional<std::string> seed, part, answer, exercises;  // --name VALUE or --name=VALUE
  std::optional<std::string> over, values, from, to, points, outputs, output, target;
  std::optional<std::string> top, export_as;  // calc: --top N (the top input), --export jax
  std::optional<std::string> from_config, model_config;  // a config.json's path
  std::vector<std::string> words;
};

// Fills `opt`; returns an error for an option that lacks its value.
std::optional<Error> parse_options(int argc, char** argv, Options& opt);

// The name=value words of the line from words[first] on, as inputs: a word without "=" or a
// name given twice is an error naming it. calc, sweep, solve and simulate all read them so.
Result<Inputs> read_assignments(const Options& opt, std::size_t first);

// Prints the error on stderr (and as JSON on stdout in JSON mode); returns exit code 2.
int fail(const Options& opt, const Error& error);
void print(const Options& opt, const Json& json, const std::string& text);

}  // namespace scalebook::cli
