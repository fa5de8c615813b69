#pragma once
// Internal to the transformer calculator: what its parts share. transformer.cpp reads the
// inputs into a Setup; the parts (parameters and FLOPs, memory, roofline) each add their
// outputs and worked steps to one Sheet.
#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "scalebook/core/registry.h"
#include "scalebook/core/result_builder.h"
#include "scalebook/transformer/models.h"

namespace scalebook::transformer_parts {

// The model and the texts point into the resolved inputs, which outlive the calculation.
struct Setup {
  const Model* model = nullptr;
  ParamCounts params;
  double B = 0;  // sequences
  double T = 0;  // tokens per sequence (query length)
  double S = 0;  // context (key/value length) for the KV cache and decode
  bool causal = false;
  double w = 2, a = 2, kv = 2, opt = 4;  // bytes per weight, activation, KV, optimizer element
  Dtype compute_dtype = Dtype::bf16;
  double optimizer_states = 2;  // values per parameter: adam 2, momentum 1, sgd 0
  std::string_view optimizer;
  std::string_view remat;
  bool has_checkpoints = false;
  double checkpoints = 0;  // D-wide tensors saved per token per layer, overriding the policy's
  double peak_flops = 0;
  double hbm_bandwidth = 0;
};

// The parts write their outputs straight into the result, and their steps only when
// explaining: the numbers-only path (sweeps, searches) builds no label, formula or name list.
class Sheet {
 public:
  explicit Sheet(ResultBuilder& out) : out_(out) {}
  bool explain() const { return out_.explain(); }
  // False where the caller reads numbers only (a prepared calculation): build no table.
  bool tables() const { return out_.tables(); }
  void set(std::string_view output, double value) { out_.set(output, value); }
  void set_text(std::string_view output, std::string_view text) { out_.set_text(output, text); }
  // No value here, and why (the contract test holds every absent output to a reason).
  void none(std::string_view output, std::string_view reason) { out_.none(output, reason); }
  void table(std::string_view name, Table table) { out_.table(name, std::move(table)); }
  // A numeric output and the step that computes it. `label` is text, or a callable building a
  // label from the inputs; `latex()` builds the step's formula. An empty name in `depends`
  // stands for a dependency this model lacks, and is left out.
  template <class Label, class Latex>
  double add(std::string_view output, const Label& label, Latex&& latex, double value,
             std::string_view unit, std::initializer_list<std::string_view> depends = {}) {
    out_.set(output, value);
    if (explain()) out_.step(step(output, text(label), latex(), value, unit, depends));
    return value;
  }

 private:
  template <class Label>
  static std::string text(const Label& label) {
    if constexpr (std::is_invocable_v<const Label&>) {
      return label();
    } else {
      return std::string(label);
    }
  }
  static Step step(std::string_view output, std::string label, std::string latex, double value,
                   std::string_view unit, std::initializer_list<std::string_view> depends);

  ResultBuilder& out_;
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
