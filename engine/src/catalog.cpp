#include "scalebook/catalog.h"

namespace scalebook {
namespace {

// Values from the book's spec tables (chapter 2 for TPUs, chapters 1 and 12 for the H100),
// as restated in shared/book/problems/{tpus,gpus,roofline}.json.
std::vector<Chip> make_catalog() {
  std::vector<Chip> list;
  list.push_back({"tpu-v5e",
                  "TPU v5e",
                  "Google",
                  {{Dtype::bf16, 1.97e14}, {Dtype::int8, 3.94e14}},
                  8.2e11,
                  16e9,
                  4.5e10,
                  "ICI link, one direction",
                  {{"peak_flops", "chapter 2 spec table; chapter 2 text rounds to 2e14"},
                   {"hbm_capacity", "spec table says 16GB; the text links 16 GiB"},
                   {"comm_bandwidth", "ICI table: 4.5e10 B/s per link one way, 9e10 both ways"}}});
  list.push_back(
      {"tpu-v5p",
       "TPU v5p",
       "Google",
       {{Dtype::bf16, 4.59e14}, {Dtype::int8, 9.18e14}},
       2.8e12,
       96e9,
       9e10,
       "ICI link, one direction",
       {{"peak_flops", "chapter 2 spec table (4.59e14); the text rounds to 5e14 per chip"},
        {"comm_bandwidth", "ICI table: 9e10 B/s per link one way, 1.8e11 both ways"}}});
  list.push_back({"tpu-v6e",
                  "TPU v6e",
                  "Google",
                  {{Dtype::bf16, 9.2e14}, {Dtype::int8, 1.84e15}},
                  1.6e12,
                  32e9,
                  9e10,
                  "ICI link, one direction",
                  {{"peak_flops", "chapter 2 spec table (9.20e14); chapter 1's text uses 9.1e14"},
                   {"comm_bandwidth", "ICI table: 9e10 B/s per link one way, 1.8e11 both ways"}}});
  list.push_back({"tpu-v4p",
                  "TPU v4p",
                  "Google",
                  {{Dtype::bf16, 2.75e14}, {Dtype::int8, 2.75e14}},
                  1.2e12,
                  32e9,
                  4.5e10,
                  "ICI link, one direction",
                  {{"peak_flops", "chapter 2 spec table; int8 runs at the bf16 rate on v4p"},
                   {"comm_bandwidth", "ICI table: 4.5e10 B/s per link one way, 9e10 both ways"}}});
  list.push_back(
      {"h100",
       "NVIDIA H100 SXM",
       "NVIDIA",
       {{Dtype::bf16, 9.89e14}, {Dtype::fp8, 1.979e15}, {Dtype::int8, 1.979e15}},
       3.35e12,
       80e9,
       4.5e11,
       "NVLink egress to the NVSwitch, one direction",
       {{"peak_flops",
         "dense: half the spec sheet's 2:4-sparse 1.979e15 (bf16) and 3.958e15 "
         "(fp8/int8); chapter 12's table rounds to 9.9e14 and 2e15"},
        {"hbm_bandwidth", "spec sheet and chapter 1: 3.35e12; chapter 12 rounds to 3.4e12"},
        {"comm_bandwidth", "18 NVLink 4 links x 25 GB/s = 450 GB/s each way"}}});
  return list;
}

}  // namespace

const std::vector<Chip>& chips() {
  static const std::vector<Chip> catalog = make_catalog();
  return catalog;
}

const Chip* find_chip(std::string_view id) {
  for (const Chip& chip : chips()) {
    if (chip.id == id) return &chip;
  }
  return nullptr;
}

std::vector<std::string> chip_ids() {
  std::vector<std::string> ids;
  for (const Chip& chip : chips()) ids.push_back(chip.id);
  return ids;
}

double peak_flops(const Chip& chip, Dtype dtype) {
  for (const PeakFlops& peak : chip.peaks) {
    if (peak.dtype == dtype) return peak.flops_per_s;
  }
  return 0;
}

}  // namespace scalebook
