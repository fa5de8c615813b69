#pragma once
// The serving search (chapter 8): every slice of a chip's pod up to a size, every tensor-parallel
// degree that divides the model, 1D and 2D MLP sharding, and batch sizes up to what fits; one
// decode step each (the inference step model), with the time to first token of a prompt, queries
// per second per chip and cost; the cost-latency front and the cheapest configuration that meets
// a latency target.
#include <string>
#include <vector>

#include "../frontier/frontier.h"
#include "scalebook/inference/inference.h"

namespace scalebook::inference_parts {

// What the search needs besides the shared form.
struct ServingTargets {
  double output_tokens = 512;   // G: tokens each query generates
  double prompt_tokens = 8192;  // P: each query's prompt, prefilled at batch 1
  double prefill_mfu = 0.4;     // the prefill's model FLOPs utilization
  double target_latency = 0;    // s per token (0: none)
  double target_ttft = 0;       // s to the first token (0: none)
};

struct ServingPoint {
  FrontierPoint at;  // slice, tp, replicas, batch, the decode step, on the front
  MlpSharding mlp = MlpSharding::one_d;
  double ttft = 0;  // s: the prompt's prefill on one replica
  double queries_per_s_per_chip = 0;
  bool meets = false;  // within every target given
};

// Slices of `chip` from one chip up to `max_chips` (and the pod): a TPU's doubling its smallest
// axis (1x1, 1x2, 2x2, ..., 16x16 on v5e), or 1, 2, 4, 8 GPUs of a node.
std::vector<std::string> pod_shapes(const Chip& chip, double max_chips);

// Whole batch sizes from 1 to `most`: powers of two and the steps halfway between them in log,
// and `most` itself (where the HBM is full).
std::vector<double> batch_ladder(double most);

}  // namespace scalebook::inference_parts
