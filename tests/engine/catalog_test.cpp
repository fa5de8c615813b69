#include "scalebook/catalog.h"

#include <catch2/catch.hpp>

using namespace scalebook;

TEST_CASE("the catalog holds the five seed chips with lower-case dashed ids", "[catalog]") {
  CHECK(chip_ids() == std::vector<std::string>{"tpu-v5e", "tpu-v5p", "tpu-v6e", "tpu-v4p", "h100"});
}

TEST_CASE("every chip has a bf16 peak, HBM and a link, and says where its peak comes from",
          "[catalog]") {
  for (const Chip& chip : chips()) {
    INFO(chip.id);
    CHECK(peak_flops(chip, Dtype::bf16) > 0);
    CHECK(chip.hbm_bandwidth > 0);
    CHECK(chip.comm_bandwidth > 0);
    bool has_peak_note = false;
    for (const SourceNote& n : chip.notes) has_peak_note = has_peak_note || n.field == "peak_flops";
    CHECK(has_peak_note);
  }
}

TEST_CASE("where the book gives two values the catalog uses the spec table's", "[catalog]") {
  CHECK(peak_flops(*find_chip("tpu-v5p"), Dtype::bf16) == 4.59e14);
  CHECK(peak_flops(*find_chip("tpu-v6e"), Dtype::bf16) == 9.2e14);
  CHECK(peak_flops(*find_chip("h100"), Dtype::bf16) == 9.89e14);
  CHECK(find_chip("h100")->hbm_bandwidth == 3.35e12);
}

TEST_CASE("an unknown chip is not found and has no peak for a missing dtype", "[catalog]") {
  CHECK(find_chip("TPU-V5E") == nullptr);
  CHECK(peak_flops(*find_chip("tpu-v5e"), Dtype::fp8) == 0);
}
