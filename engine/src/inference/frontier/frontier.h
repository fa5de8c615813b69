#pragma once
// The latency-throughput frontier (chapter 7's figure from the ESTI paper, computed): one
// decode step at every batch size on every slice, per-token latency against tokens per second
// per chip, with the Pareto front marked.
#include <string>
#include <vector>

#include "scalebook/inference/inference.h"

namespace scalebook::inference_parts {

struct FrontierPoint {
  std::string shape;
  double chips = 0;
  double tp = 0;
  double replicas = 0;
  double batch = 0;
  InferenceStep step;
  bool front = false;  // no fitting point is both faster and higher in throughput per chip
};

// The default slices of `chip`: a TPU's doubling its smallest axis from one chip (1x1, 1x2, 2x2,
// ...) up to 8 shapes within the pod, or 1, 2, 4, 8 GPUs of a node.
std::vector<std::string> default_shapes(const Chip& chip);
// 64 whole batch sizes from 1 to 4096, spaced evenly in log.
std::vector<double> default_batches();

// Marks the Pareto front among the points that fit: sorted by latency, each point whose
// throughput per chip beats every faster point's.
void mark_front(std::vector<FrontierPoint>& points);

}  // namespace scalebook::inference_parts
