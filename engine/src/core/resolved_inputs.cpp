#include "scalebook/core/registry.h"

namespace scalebook {

void ResolvedInputs::set(const std::string& name, Value value) {
  auto it = values_.find(name);
  if (it == values_.end()) {
    values_.emplace(name, std::move(value));
    return;
  }
  // A text input changed: whatever was parsed from it is stale.
  if (it->second.is_text() && !(value.is_text() && value.text == it->second.text)) {
    auto parsed = parsed_.find(name);
    if (parsed != parsed_.end()) parsed_.erase(parsed);
  }
  it->second = std::move(value);
}

bool ResolvedInputs::declared(std::string_view name) const {
  if (!schema_) return true;
  for (std::size_t i = 0; i < known_count_; ++i) {
    if (known_[i].data == name.data() && schema_->inputs[known_[i].input].name == name) return true;
  }
  for (std::size_t i = 0; i < schema_->inputs.size(); ++i) {
    if (schema_->inputs[i].name != name) continue;
    if (known_count_ < known_.size()) known_[known_count_++] = {name.data(), i};
    return true;
  }
  if (undeclared_.empty()) undeclared_ = name;
  return false;
}

bool ResolvedInputs::declares(std::string_view name) const {
  if (!schema_) return true;
  for (const InputSpec& spec : schema_->inputs)
    if (spec.name == name) return true;
  return false;
}

bool ResolvedInputs::has(std::string_view name) const {
  if (values_.find(name) != values_.end()) return true;
  declared(name);
  return false;
}

const void* ResolvedInputs::preset(std::string_view name) const {
  auto it = presets_.find(name);
  if (it != presets_.end()) return it->second.get();
  declared(name);
  return nullptr;
}

double ResolvedInputs::number(std::string_view name) const {
  auto it = values_.find(name);
  if (it != values_.end()) return it->second.number;
  declared(name);
  return 0;
}

const std::string& ResolvedInputs::text(std::string_view name) const {
  static const std::string empty;
  auto it = values_.find(name);
  if (it != values_.end()) return it->second.text;
  declared(name);
  return empty;
}

}  // namespace scalebook
