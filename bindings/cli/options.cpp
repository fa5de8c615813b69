#include "options.h"

#include <unistd.h>

#include <iostream>

namespace scalebook::cli {

std::optional<Error> parse_options(int argc, char** argv, Options& opt) {
  opt.json = !isatty(STDOUT_FILENO);
  struct Valued {
    const char* name;
    std::optional<std::string> Options::*field;
  };
  const Valued valued[] = {{"--seed", &Options::seed},
                           {"--part", &Options::part},
                           {"--answer", &Options::answer},
                           {"--exercises", &Options::exercises},
                           {"--over", &Options::over},
                           {"--values", &Options::values},
                           {"--from", &Options::from},
                           {"--to", &Options::to},
                           {"--points", &Options::points},
                           {"--outputs", &Options::outputs},
                           {"--output", &Options::output},
                           {"--target", &Options::target},
                           {"--from-config", &Options::from_config},
                           {"--model-config", &Options::model_config},
                           {"--top", &Options::top},
                           {"--export", &Options::export_as}};
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--json") {
      opt.json = true;
      continue;
    }
    if (arg == "--text") {
      opt.json = false;
      continue;
    }
    if (arg == "--explain") {
      opt.explain = true;
      continue;
    }
    if (arg == "--log") {
      opt.log = true;
      continue;
    }
    bool matched = false;
    for (const Valued& v : valued) {
      std::string name = v.name;
      if (arg == name) {
        if (i + 1 >= argc) {
          return Error{ErrorCode::invalid_argument, name.substr(2), name + " needs a value"};
        }
        opt.*(v.field) = argv[++i];
        matched = true;
      } else if (arg.rfind(name + "=", 0) == 0) {
        opt.*(v.field) = arg.substr(name.size() + 1);
        matched = true;
      }
    }
    if (!matched) opt.words.push_back(arg);
  }
  return std::nullopt;
}

int fail(const Options& opt, const Error& error) {
  std::cerr << "scalebook: " << error.message << "\n";
  if (opt.json) std::cout << dump(to_json(error), 2) << "\n";
  return 2;
}

void print(const Options& opt, const Json& json, const std::string& text) {
  std::cout << (opt.json ? dump(json, 2) + "\n" : text);
}

Result<Inputs> read_assignments(const Options& opt, std::size_t first) {
  Inputs inputs;
  for (std::size_t i = first; i < opt.words.size(); ++i) {
    const std::string& word = opt.words[i];
    auto eq = word.find('=');
    if (eq == std::string::npos || eq == 0) {
      return Error{ErrorCode::invalid_argument, "", "expected name=value, got \"" + word + "\""};
    }
    std::string key = word.substr(0, eq);
    if (inputs.count(key)) return Error{ErrorCode::invalid_argument, key, key + " is given twice"};
    inputs[key] = Value::of(word.substr(eq + 1));
  }
  return inputs;
}

}  // namespace scalebook::cli
