#include "model_cmd.h"

#include <cerrno>
#include <cstring>
#include <fstream>

#include "scalebook/core/registry.h"
#include "scalebook/transformer/model_config.h"
#include "text_out.h"

namespace scalebook::cli {
namespace {

Error bad(const std::string& field, std::string message) {
  return Error{ErrorCode::invalid_argument, field, std::move(message)};
}

// The file's text, read up to one byte past the engine's cap so the engine names the limit.
Result<std::string> read_config(const std::string& path, const std::string& option) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return bad(option, "cannot read --" + option + " \"" + path + "\": " + std::strerror(errno));
  }
  std::string text(kMaxConfigBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

Result<ConfigModel> config_model(const std::string& path, const std::string& option) {
  Result<std::string> text = read_config(path, option);
  if (!text.ok()) return text.error();
  return model_from_config(text.value());
}

std::string unmapped_text(const ConfigModel& c) {
  if (c.unmapped.empty()) return "config keys not mapped: none\n";
  std::string out = "config keys not mapped:\n";
  for (const UnmappedKey& u : c.unmapped) {
    std::string key = u.key.size() < 30 ? u.key + std::string(30 - u.key.size(), ' ') : u.key + " ";
    out += "  " + key + to_string(u.kind) + ": " + u.reason + "\n";
  }
  return out;
}

int from_config(const Options& opt) {
  if (opt.words.size() != 1)
    return fail(opt, bad("", "model takes a model id or --from-config FILE"));
  Result<ConfigModel> c = config_model(*opt.from_config, "from-config");
  if (!c.ok()) return fail(opt, c.error());
  print(opt, to_json(c.value()), to_text(c.value().model) + unmapped_text(c.value()));
  return 0;
}

}  // namespace

int model_command(const Options& opt) {
  if (opt.from_config) return from_config(opt);
  if (opt.words.size() != 2) return fail(opt, bad("", "model takes one model id"));
  const Model* found = find_model(opt.words[1]);
  if (!found) {
    std::string ids;
    for (const std::string& id : model_ids()) ids += (ids.empty() ? "" : ", ") + id;
    return fail(opt, Error{ErrorCode::not_found, "model",
                           "unknown model \"" + opt.words[1] + "\"; choose one of " + ids});
  }
  print(opt, to_json(*found), to_text(*found));
  return 0;
}

Result<Inputs> with_model_config(const Options& opt, const std::string& calculator, Inputs inputs) {
  if (!opt.model_config) return inputs;
  Result<Schema> schema = schema_of(calculator);
  if (!schema.ok()) return schema.error();
  bool takes_model = false;
  for (const InputSpec& in : schema.value().inputs) takes_model |= in.name == "model";
  if (!takes_model) {
    return bad("model-config", calculator + " has no model input for --model-config");
  }
  if (inputs.count("model")) {
    return bad("model", "give model=... or --model-config, not both");
  }
  Result<ConfigModel> c = config_model(*opt.model_config, "model-config");
  if (!c.ok()) return c.error();
  for (const auto& [name, value] : model_inputs_of(c.value().model)) inputs.emplace(name, value);
  return inputs;
}

}  // namespace scalebook::cli
