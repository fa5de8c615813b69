#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "scalebook/dtype.h"

namespace scalebook {

struct PeakFlops {
  Dtype dtype;
  double flops_per_s;  // dense, per chip
};

// Where a number comes from, and why we chose it when the book gives two.
struct SourceNote {
  std::string field;
  std::string note;
};

struct Chip {
  std::string id;    // lower-case with dashes: tpu-v5e, h100
  std::string name;  // as a reader knows it: TPU v5e, NVIDIA H100 SXM
  std::string vendor;
  std::vector<PeakFlops> peaks;
  double hbm_bandwidth = 0;   // B/s
  double hbm_capacity = 0;    // B
  double comm_bandwidth = 0;  // B/s to one peer chip, one direction
  std::string comm_link;      // what comm_bandwidth measures
  std::vector<SourceNote> notes;
};

const std::vector<Chip>& chips();
const Chip* find_chip(std::string_view id);
std::vector<std::string> chip_ids();

// The chip's dense peak for `dtype`, or 0 when the catalog has none.
double peak_flops(const Chip& chip, Dtype dtype);

}  // namespace scalebook
