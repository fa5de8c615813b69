#pragma once
// Internal to the inference calculators: the form they share (model, phase, batch, context,
// chip, slice, sharding, dtypes) and reading it into a step's config.
#include <string>
#include <vector>

#include "scalebook/core/registry.h"
#include "scalebook/inference/inference.h"

namespace scalebook::inference_parts {

// The inference calculator's inputs: model and its fields, phase, batch, S, T, chip, shape,
// tp, ep, the shardings, the dtypes, and the chip fields a reader may override.
std::vector<InputSpec> inference_inputs();

// A step's config from those inputs, with the slice `shape` (the frontier reads several) and,
// when `tp` is above 0, that degree in place of the input's. A `sweep` (the frontier) has no
// phase, batch or T of its own: a decode step at batch 1 until it sets one. Errors name the
// input at fault.
Result<InferenceConfig> read_config(const ResolvedInputs& in, const std::string& shape,
                                    double tp = 0, bool sweep = false);

// A sweep's config on `shape` with one replica as wide as the slice (or a GPU node) over ep:
// the largest power-of-two tp that divides the heads and F and fits the slice's axes, whatever
// tp input there is. An error names `field` when none fits.
Result<InferenceConfig> widest_config(const ResolvedInputs& in, const std::string& shape,
                                      const char* field);

const Schema& inference_schema();

// The worked steps of one step's numbers; `price` in USD per chip-hour (0: none).
std::vector<Step> inference_steps(const InferenceConfig& c, const InferenceStep& r, double price);

// The words of a list input ("4x4 8x8", "1, 8, 64"), separated by spaces or commas; an
// error naming `name` when there are none or more than `most`.
Result<std::vector<std::string>> read_words(const ResolvedInputs& in, const char* name,
                                            std::size_t most);
// A list input of whole batch sizes, each a number of sequences from 1 to 1e7.
Result<std::vector<double>> read_batches(const ResolvedInputs& in, const char* name,
                                         std::size_t most);

// USD per million tokens at `tokens_per_s` of `chips` chips at `price` USD per chip-hour; 0 when
// the chip has no price.
double cost_per_million(double price, double chips, double tokens_per_s);

}  // namespace scalebook::inference_parts
