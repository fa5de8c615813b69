#pragma once
// Internal to the transformer calculator: what its parts share. transformer.cpp reads the
// inputs into a Setup; the parts (parameters and FLOPs, memory, roofline) each add their
// outputs and worked steps to one Sheet.
#include <map>
#include <string>
#include <vector>

#include "scalebook/core/registry.h"
#include "scalebook/transformer/models.h"

namespace scalebook::transformer_parts {

struct Setup {
  Model model;
  ParamCounts params;
  double B = 0;  // sequences
  double T = 0;  // tokens per sequence (query length)
  double S = 0;  // context (key/value length) for the KV cache and decode
  bool causal = false;
  double w = 2, a = 2, kv = 2, opt = 4;  // bytes per weight, activation, KV, optimizer element
  std::string compute_dtype;
  double optimizer_states = 2;  // values per parameter: adam 2, momentum 1, sgd 0
  std::string optimizer;
  std::string remat;
  bool has_checkpoints = false;
  double checkpoints = 0;  // D-wide tensors saved per token per layer, overriding the policy's
  double peak_flops = 0;
  double hbm_bandwidth = 0;
};

// Outputs by name and the worked steps in the order they were added.
class Sheet {
 public:
  // explain false: the numbers only, so no steps are kept (sweeps, the numbers-only path).
  explicit Sheet(bool explain = true) : explain_(explain) {}
  bool explain() const { return explain_; }
  void set(const std::string& output, Value value) { values_[output] = std::move(value); }
  void table(const std::string& name, Table table) { tables_[name] = std::move(table); }
  // A numeric output and the step that computes it. `latex()` builds the step's formula, only
  // when explaining: the numbers-only path skips the formatting of every number in it.
  template <class Latex>
  double add(const std::string& output, const std::string& label, Latex&& latex, double value,
             const std::string& unit, std::vector<std::string> depends = {}) {
    values_[output] = Value::of(value);
    if (explain_) steps_.push_back({label, latex(), value, unit, output, std::move(depends)});
    return value;
  }
  double number(const std::string& output) const;
  // The outputs and tables in the schema's order (none for one never set) and the steps.
  // Every output of the schema: its value, or none where the sheet has none.
  void finish(ResultBuilder& out) &&;

 private:
  std::map<std::string, Value> values_;
  std::map<std::string, Table> tables_;
  std::vector<Step> steps_;
  bool explain_ = true;
};

// The remat policies, in the order the schema lists them.
const std::vector<std::string>& remat_policies();

void add_params(const Setup& s, Sheet& sheet);
void add_flops(const Setup& s, Sheet& sheet);
void add_memory(const Setup& s, Sheet& sheet);
void add_roofline(const Setup& s, Sheet& sheet);
// The `blocks` list: one row per contraction of a layer (transformer_blocks.cpp).
void add_blocks(const Setup& s, Sheet& sheet);
std::vector<OutputSpec> block_columns();

// "a \cdot b \cdot c" of latex numbers.
std::string times(std::initializer_list<double> factors);

}  // namespace scalebook::transformer_parts
