#include "scalebook/core/registry.h"

namespace scalebook {

bool ResolvedInputs::declared(const std::string& name) const {
  if (declares(name)) return true;
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

}  // namespace scalebook
