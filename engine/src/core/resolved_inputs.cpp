#include <cmath>
#include <cstdint>

#include "scalebook/core/registry.h"

namespace scalebook {

ResolvedInputs::ResolvedInputs(const Schema* schema, bool explain)
    : schema_(schema), explain_(explain) {
  std::size_t n = schema ? schema->inputs.size() : 0;
  values_.resize(n);
  present_.assign(n, 0);
  presets_.resize(n);
}

std::size_t ResolvedInputs::index(std::string_view name) const {
  if (!schema_) return 0;
  const std::vector<InputSpec>& inputs = schema_->inputs;
  const std::size_t slots = known_.size();
  // Fibonacci hashing, the product's top 8 bits: literals sit a few bytes apart, so the
  // address's low bits alone would fill neighbouring slots and make long runs to probe.
  static_assert(std::tuple_size_v<decltype(known_)> == 256);
  const std::uint64_t address = reinterpret_cast<std::uintptr_t>(name.data());
  std::size_t slot = static_cast<std::size_t>((address * 0x9E3779B97F4A7C15u) >> 56);
  for (std::size_t probe = 0; probe < slots && known_[slot].data; ++probe) {
    if (known_[slot].data == name.data() && inputs[known_[slot].input].name == name)
      return known_[slot].input;
    slot = (slot + 1) % slots;
  }
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].name != name) continue;
    // A full table, or a slot taken by the same address for another name (a reused buffer),
    // just means the next read scans again.
    if (!known_[slot].data) known_[slot] = {name.data(), i};
    return i;
  }
  if (undeclared_.empty()) undeclared_ = name;
  return inputs.size();
}

void ResolvedInputs::set(const std::string& name, Value value) {
  std::size_t i = index(name);
  if (i >= values_.size()) return;
  Value& slot = values_[i];
  // A text input changed: what was parsed may depend on it (a shape on the chip), so all of
  // it is stale.
  if (present_[i] && slot.is_text() && !(value.is_text() && value.text == slot.text))
    parsed_.clear();
  slot = std::move(value);
  present_[i] = 1;
}

void ResolvedInputs::set_preset(const std::string& name, std::shared_ptr<const void> preset) {
  std::size_t i = index(name);
  if (i < presets_.size()) presets_[i] = std::move(preset);
}

bool ResolvedInputs::declares(std::string_view name) const {
  if (!schema_) return true;
  for (const InputSpec& spec : schema_->inputs)
    if (spec.name == name) return true;
  return false;
}

bool ResolvedInputs::has(std::string_view name) const {
  std::size_t i = index(name);
  return i < present_.size() && present_[i];
}

const void* ResolvedInputs::preset(std::string_view name) const {
  std::size_t i = index(name);
  return i < presets_.size() ? presets_[i].get() : nullptr;
}

double ResolvedInputs::number(std::string_view name) const {
  std::size_t i = index(name);
  return i < values_.size() && present_[i] ? values_[i].number : 0;
}

const std::string& ResolvedInputs::text(std::string_view name) const {
  static const std::string empty;
  std::size_t i = index(name);
  return i < values_.size() && present_[i] ? values_[i].text : empty;
}

std::pair<std::string, double> ResolvedInputs::most_extreme_number() const {
  std::pair<std::string, double> found;
  double worst = -1;
  for (std::size_t i = 0; schema_ && i < values_.size(); ++i) {
    const Value& v = values_[i];
    if (!present_[i] || !v.is_number() || v.number == 0) continue;
    double magnitude = std::fabs(std::log10(std::fabs(v.number)));
    if (magnitude > worst) {
      worst = magnitude;
      found = {schema_->inputs[i].name, v.number};
    }
  }
  return found;
}

}  // namespace scalebook
