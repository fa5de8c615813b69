#pragma once
#include <functional>
// Chapter 6's configuration search: every way to lay out one training step of a model on a
// number of TPU chips (or one slice shape), each evaluated by chapter 5's step model
// (training.h) on its numbers-only path, ranked by step time (ties: less memory per chip).
//
// What it enumerates:
//   - the slices: with a chip count, every way to make it as `slices` equal slices over DCN
//     (only when the chip has a DCN bandwidth), each of every shape the chip's torus can have
//     with that many chips (axes sorted largest first; every assignment below covers their
//     orders); with a shape, that shape, and the slices the chip count (or `slices`) makes;
//   - the strategies: every assignment of each axis of the slice to one of dp, fsdp, tp, pp
//     and ep (an axis of one chip to none), so the degrees are products of whole axes, as the
//     step model takes them; DP over DCN across the slices;
//   - per assignment: ZeRO stage 1, 2 and 3 (when fsdp > 1), the four remat policies, and with
//     a pipeline 1, 2, 4 and 8 microbatches per stage under GPipe and 1F1B.
// The divisibility rules of chapter 5 hold (tp divides the heads and F, pp the layers, ep the
// experts; the batch splits into whole sequences, or equal parts of one with split_sequences).
// A configuration is feasible when its memory per chip fits in (1 - headroom) of the HBM;
// memory is computed before the collectives, so an infeasible one costs less to reject.
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "scalebook/core/status.h"
#include "scalebook/hardware/catalog.h"
#include "scalebook/training/training.h"

namespace scalebook {

struct SearchRequest {
  TrainingConfig base;  // the layer, batch, dtypes, optimizer, chip numbers; the searched
                        // fields (zero, remat, microbatches, schedule, slices) are set here
  const Chip* chip = nullptr;
  double chips = 0;     // chips in all, or 0 with a shape
  std::string shape;    // one slice shape ("16x16x16"), or empty: search the shapes
  double slices = 0;    // slices over DCN, or 0: search them (with a shape: chips / its chips)
  double headroom = 0;  // fraction of HBM left free, [0, 1)
  int top = 10;         // configurations to return, best first
  double max_evaluations = 5e6;  // the work budget: more than this is an error before any work
  // Told the fraction of the counted work done, after each layout, at most about 100 times.
  std::function<void(double)> progress;
};

// One evaluated configuration, kept small: the search may keep hundreds of thousands.
struct SearchConfig {
  std::uint32_t layout = 0;  // index into SearchResult::layouts
  std::uint8_t zero = 3;
  std::uint8_t remat = 0;     // RematPolicy
  std::uint8_t schedule = 1;  // StepSchedule
  std::uint16_t microbatches = 1;
  float step_time = 0;   // s
  float mem_total = 0;   // B per chip
  float t_compute = 0;   // s, with the bubble
  float exposed = 0;     // s
  float t_critical = 0;  // s
  float t_hbm = 0;       // s
  float mfu_ceiling = 0;
  const char* bound = "compute";
};

// A slice count, a shape and its assignment of axes to strategies.
struct SearchLayout {
  ParallelLayout layout;
  double slices = 1;
};

enum class SearchFamily { fsdp, fsdp_tp, with_pp, with_ep };
inline constexpr int kSearchFamilies = 4;
const char* to_string(SearchFamily f);  // "pure FSDP", "FSDP + TP", "with PP", "with EP"
SearchFamily family_of(const ParallelLayout& layout);

// What the search found with one count of chips in all (it may try fewer than it has).
struct SearchCount {
  double chips = 0;
  double evaluated = 0;    // configurations whose batch split and memory were computed
  double feasible = 0;     // of them, fitting in HBM
  double best = INFINITY;  // the fastest step time, s
};

struct SearchResult {
  double evaluated = 0;      // configurations whose memory (and, if it fit, step time) was computed
  double feasible = 0;       // of them, fitting in HBM
  double layouts_tried = 0;  // (slices, shape, assignment) that passed the divisibility rules
  double shapes = 0;         // (slices, shape) pairs searched
  std::vector<SearchLayout> layouts;   // every layout some kept configuration refers to
  std::vector<SearchConfig> top;       // best first
  std::vector<std::string> reasons;    // top[i] against top[i + 1]; the last against none
  std::vector<SearchConfig> families;  // the best of each family that has one, in order
  std::vector<SearchConfig> pareto;    // memory per chip against step time, by memory
  std::vector<SearchCount> counts;     // each chip count searched, the chips given first
  double fewest_chips = 0;  // when none fits: the fewest chips whose weights and state would fit
};

// Runs the search; an error names the input at fault (chips, shape, slices, B, max work).
Result<SearchResult> search_training(const SearchRequest& request);

// The configuration as the step model takes it, for the training calculator to re-evaluate.
TrainingConfig config_of(const SearchRequest& request, const SearchResult& result,
                         const SearchConfig& c);

// "dp 8 (DCN) x fsdp 256 (YZ) x tp 4 (X)" and the like; the training calculator's inputs that
// reproduce it ("shape=4x16x16 slices=8 fsdp_axes=YZ tp_axes=X zero=3 remat=..."); chapter 3's
// notation for the weights and activations; and a JAX mesh with PartitionSpecs to start from.
std::string describe(const SearchLayout& layout);
std::string describe_choices(const SearchResult& result, const SearchConfig& c);  // "ZeRO-3, ..."
// Why each of the top beats the one after it (the last: none shown after it).
std::vector<std::string> search_reasons(const SearchRequest& request, const SearchResult& result);
std::string training_inputs(const SearchRequest& request, const SearchResult& result,
                            const SearchConfig& c);
std::string notation(const SearchLayout& layout);
std::string jax_export(const SearchRequest& request, const SearchResult& result,
                       const SearchConfig& c);

// The `training-search` calculator (src/training/search/calculator.cpp).
Calculator training_search_calculator();

}  // namespace scalebook
