#pragma once
// Internal to the training calculator: its model input, which is the transformer domain's
// model preset plus the book's simplified layer, and the explained path's steps.
#include <charconv>
#include <string>
#include <string_view>
#include <vector>

#include "scalebook/core/registry.h"
#include "scalebook/training/training.h"

namespace scalebook::training_parts {

// The axes of more than one chip in a mask (bit i: axis i): their chips and their count (the
// book's M).
struct MaskAxes {
  double degree = 1;
  double count = 0;
};
inline MaskAxes mask_axes(const ParallelLayout& layout, unsigned mask) {
  MaskAxes a;
  for (std::size_t i = 0; i < layout.axes.size(); ++i) {
    if (!(mask & (1u << i)) || layout.axes[i].size <= 1) continue;
    a.degree *= static_cast<double>(layout.axes[i].size);
    a.count += 1.0 / static_cast<double>(layout.axes[i].stride);
  }
  return a;
}

// The id of the book's two-matmul layer (W_in[D,F], W_out[F,D], no attention).
inline constexpr const char* kBookMlp = "book-mlp";
// D, F and L of book-mlp when not given: the chapter's generic MLP (D = 8192, F = 4D).
inline constexpr double kBookD = 8192, kBookF = 32768, kBookL = 32;

// The model input and its field overrides, resolving book-mlp as well as every catalog id and
// custom. A resolved book-mlp is a Model with id book-mlp and only L, D and F set.
InputSpec training_model_input();
std::vector<InputSpec> training_model_field_inputs();
const Model* training_model_of(const ResolvedInputs& inputs);

const Schema& training_schema();

// A short text built in place, so a text output costs no heap string: the layout, the
// explorer's notations and shapes. Past its 160 characters it drops the rest.
class Line {
 public:
  void add(std::string_view s) {
    for (char c : s)
      if (n_ < sizeof(buf_)) buf_[n_++] = c;
  }
  // A whole number in full, as std::to_string prints it.
  void add_whole(double x) {
    auto r = std::to_chars(buf_ + n_, buf_ + sizeof(buf_), static_cast<long long>(x));
    if (r.ec == std::errc()) n_ = static_cast<std::size_t>(r.ptr - buf_);
  }
  std::string_view view() const { return {buf_, n_}; }

 private:
  char buf_[160];
  std::size_t n_ = 0;
};

// The form of a calculator that shares the training step's model, batch and chip: the training
// calculator's inputs named in `names` (in its order) with every model field and chip override,
// `defaults` replacing its defaults by name, and `own` placed right after the chip, so the main
// fields read in order.
std::vector<InputSpec> shared_training_inputs(
    std::initializer_list<const char*> names,
    std::initializer_list<std::pair<const char*, Value>> defaults, std::vector<InputSpec> own);

// The chip input of a calculator that lays out a TPU torus: an error naming chip when it is
// unknown or has no ICI torus; `what` says what the calculator does ("training-search lays out a
// TPU slice"). A view, so the numbers-only path builds no string for a message it will not send.
Result<const Chip*> torus_chip_of(const ResolvedInputs& in, std::string_view what);
// The same for a calculator that also lays out GPUs (chapter 12): a chip with an ICI torus or
// an NVLink domain.
Result<const Chip*> layout_chip_of(const ResolvedInputs& in, std::string_view what);

// The choices, texts and the chip's numbers of a training-like schema (dtypes, ZeRO, schedule,
// remat, optimizer, offload, split_sequences); the number inputs are the caller's.
Result<TrainingConfig> read_choices(const ResolvedInputs& in, const Chip& chip);

// Chapter 5's explorer (training_explorer.cpp): the book's layer In, W_in, W_out, Out as the
// layout shards it (the sharding_* and local_* outputs, the arrays table) and the chapter's
// table of the four strategies for one layer with the reader's numbers.
void set_layer_outputs(const TrainingConfig& c, const ParallelLayout& layout, ResultBuilder& out);
Table layer_arrays_table(const TrainingConfig& c, const ParallelLayout& layout);
Table strategies_table(const TrainingConfig& c, const ParallelLayout& layout,
                       const TrainingStep& s);
// A dimension's letter and the axes of more than one chip it is split over: B_XY.
void add_dim(const ParallelLayout& layout, char name, unsigned mask, Line& out);
// The book's layer run step by step, matmuls and collectives in order (training_algorithm.cpp).
Table layer_algorithm_table(const TrainingConfig& c, const ParallelLayout& layout,
                            const TrainingStep& s);

// What the steps need beyond the step itself.
struct Explained {
  const TrainingConfig* config;
  const ParallelLayout* layout;
  const TrainingStep* step;
  std::string model_name;
};
std::vector<Step> training_steps(const Explained& e);

}  // namespace scalebook::training_parts
