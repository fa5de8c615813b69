#include "scalebook/hardware/flops_per_dollar.h"

#include <string>

#include "helpers.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

constexpr const char* kCalc = "flops-per-dollar";
constexpr const char* kChapter8 = "Google Cloud on-demand, chapter 8";

// The table's row for chip `id`.
std::size_t row_of(const Table& t, const std::string& id) {
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    if (cell(t, r, "chip").text == id) return r;
  }
  FAIL("no row for " << id);
  return 0;
}

std::string all_ids() {
  std::string ids;
  for (const std::string& id : chip_ids()) ids += (ids.empty() ? "" : ", ") + id;
  return ids;
}

Error prices_error(const std::string& prices) {
  return run_error(kCalc, {{"prices", Value::of(prices)}});
}

}  // namespace

TEST_CASE("flops-per-dollar gives chapter 8's three numbers at the catalog's prices",
          "[flops-per-dollar]") {
  Calculation c = run(kCalc, {});
  const Table& t = table(c, "comparison");
  // Every chip the catalog prices, in catalog order.
  REQUIRE(t.rows.size() == 4);
  CHECK(cell(t, 0, "chip").text == "tpu-v5e");
  CHECK(cell(t, 1, "chip").text == "tpu-v5p");
  CHECK(cell(t, 2, "chip").text == "h100");
  CHECK(cell(t, 3, "chip").text == "h200");
  const std::size_t h100 = row_of(t, "h100"), v5p = row_of(t, "tpu-v5p"),
                    v5e = row_of(t, "tpu-v5e");
  CHECK(cell(t, h100, "flops_per_dollar").number == Approx(3.3e17).epsilon(0.01));
  CHECK(cell(t, v5p, "flops_per_dollar").number == Approx(3.9e17).epsilon(0.01));
  // The book prints 5.8e17 where 1.97e14 x 3600 / 1.2 is 5.91e17.
  CHECK(cell(t, v5e, "flops_per_dollar").number == Approx(5.8e17).epsilon(0.02));
  CHECK(cell(t, v5e, "flops_per_dollar").number == Approx(1.97e14 * 3600 / 1.2));
  CHECK(cell(t, v5e, "price_per_hour").number == 1.2);
  CHECK(cell(t, v5e, "price_from").text == std::string(kChapter8) + " (2025-02)");
  CHECK(cell(t, v5e, "hbm_bytes_per_dollar_hour").number == Approx(16e9 / 1.2));
  CHECK(cell(t, v5e, "hbm_bandwidth_per_dollar").number == Approx(8.2e11 * 3600 / 1.2));
  CHECK(cell(t, row_of(t, "h200"), "price_from").text ==
        "Google Cloud, approximate, chapter 12 (undated)");
  CHECK(output_value(c, "best_chip").text == "tpu-v5e");
  CHECK(output(c, "best_flops_per_dollar") == Approx(5.91e17));
  // The chosen chip, tpu-v5e by default, quoted alone for exercises.
  CHECK(output(c, "flops_per_dollar") == cell(t, v5e, "flops_per_dollar").number);
  CHECK(output(c, "peak_flops") == 1.97e14);
  CHECK(output(c, "price_per_hour") == 1.2);
  CHECK(output(run(kCalc, {{"chip", Value::of("h100")}}), "flops_per_dollar") ==
        Approx(3.3e17).epsilon(0.01));
}

TEST_CASE("flops-per-dollar explains the chosen chip's number step by step", "[flops-per-dollar]") {
  Calculation c = run(kCalc, {{"chip", Value::of("tpu-v5p")}});
  const Step* fpd = nullptr;
  for (const Step& s : c.steps) {
    if (s.output == "flops_per_dollar") fpd = &s;
  }
  REQUIRE(fpd != nullptr);
  CHECK(fpd->value == Approx(4.59e14 * 3600 / 4.2));
  CHECK(fpd->unit == "FLOP/USD");
  CHECK(fpd->depends == std::vector<std::string>{"peak_flops", "price_per_hour"});
  CHECK(fpd->latex.find("\\frac{") == 0);
  Result<Calculation> bare = calculate(kCalc, {{"chip", Value::of("tpu-v5p")}}, {.explain = false});
  REQUIRE(bare.ok());
  check_same_outputs(c, bare.value());
}

TEST_CASE("a price override changes exactly its chip's row and says so", "[flops-per-dollar]") {
  const Calculation base = run(kCalc, {});
  const Table& before = table(base, "comparison");
  Calculation c = run(kCalc, {{"prices", Value::of("h100=9.5")}});
  const Table& after = table(c, "comparison");
  REQUIRE(after.rows.size() == before.rows.size());
  for (std::size_t r = 0; r < after.rows.size(); ++r) {
    INFO(cell(after, r, "chip").text);
    if (cell(after, r, "chip").text != "h100") {
      for (std::size_t i = 0; i < after.columns.size(); ++i) {
        CHECK(after.rows[r][i].text == before.rows[r][i].text);
        CHECK(after.rows[r][i].number == before.rows[r][i].number);
      }
      continue;
    }
    CHECK(cell(after, r, "price_per_hour").number == 9.5);
    CHECK(cell(after, r, "price_from").text == "your override");
    CHECK(cell(after, r, "flops_per_dollar").number == Approx(9.89e14 * 3600 / 9.5));
    CHECK(cell(after, r, "peak_flops").number == cell(before, r, "peak_flops").number);
  }
  // The chosen chip takes its override too, and spaces, semicolons and a missing chip's price
  // are all read.
  Calculation own = run(kCalc, {{"prices", Value::of(" tpu-v5e = 0.6 ; b200=20")}});
  CHECK(output(own, "flops_per_dollar") == Approx(1.97e14 * 3600 / 0.6));
  const Table& t = table(own, "comparison");
  REQUIRE(t.rows.size() == 5);
  CHECK(cell(t, row_of(t, "b200"), "flops_per_dollar").number == Approx(2.25e15 * 3600 / 20));
  CHECK(output_value(own, "best_chip").text == "tpu-v5e");
}

TEST_CASE("flops-per-dollar lists the chips asked for, in the order asked", "[flops-per-dollar]") {
  Calculation c = run(kCalc, {{"chips", Value::of("h100, tpu-v5e")}, {"dtype", Value::of("int8")}});
  const Table& t = table(c, "comparison");
  REQUIRE(t.rows.size() == 2);
  CHECK(cell(t, 0, "chip").text == "h100");
  CHECK(cell(t, 0, "flops_per_dollar").number == Approx(1.979e15 * 3600 / 10.8));
  CHECK(cell(t, 1, "flops_per_dollar").number == Approx(3.94e14 * 3600 / 1.2));
}

TEST_CASE("a chip without a price has no per-dollar numbers, and says why", "[flops-per-dollar]") {
  Calculation c = run(kCalc, {{"chips", Value::of("b200 tpu-v5e")}, {"chip", Value::of("b200")}});
  const std::string why =
      "the catalog has no price for b200; give one in prices: b200=<USD per chip-hour>";
  const Table& t = table(c, "comparison");
  REQUIRE(t.rows.size() == 2);
  CHECK(cell(t, 0, "peak_flops").number == 2.25e15);
  for (const char* column : {"price_per_hour", "price_from", "flops_per_dollar",
                             "hbm_bytes_per_dollar_hour", "hbm_bandwidth_per_dollar"}) {
    INFO(column);
    CHECK(cell(t, 0, column).is_none());
    CHECK(cell(t, 0, column).text == why);
  }
  CHECK(output_value(c, "price_per_hour").text == why);
  CHECK(output_value(c, "flops_per_dollar").is_none());
  CHECK(output_value(c, "flops_per_dollar").text == why);
  CHECK(output(c, "peak_flops") == 2.25e15);
  CHECK(output_value(c, "best_chip").text == "tpu-v5e");

  Calculation none = run(kCalc, {{"chips", Value::of("b200")}});
  CHECK(output_value(none, "best_chip").text ==
        "no listed chip has both a price and a bf16 peak; give prices for them");
  // A priced chip without a peak for the dtype: the HBM columns stand, FLOPs per dollar not.
  Calculation fp8 = run(kCalc, {{"dtype", Value::of("fp8")}});
  const Table& f = table(fp8, "comparison");
  const std::size_t v5e = row_of(f, "tpu-v5e");
  CHECK(cell(f, v5e, "flops_per_dollar").text == "tpu-v5e has no fp8 peak in the catalog");
  CHECK(cell(f, v5e, "hbm_bytes_per_dollar_hour").number == Approx(16e9 / 1.2));
  CHECK(output_value(fp8, "best_chip").text == "h200");  // 1.979e15 x 3600 / 10
  CHECK(output_value(fp8, "peak_flops").text == "tpu-v5e has no fp8 peak in the catalog");
}

TEST_CASE("every bad price names the field, the chip and the value", "[flops-per-dollar]") {
  check_error(prices_error("h999=1"), ErrorCode::not_found, "prices",
              "prices: unknown chip \"h999\"; choose one of " + all_ids());
  check_error(prices_error("h100=abc"), ErrorCode::invalid_argument, "prices",
              "prices: h100 price \"abc\" is not a number");
  check_error(prices_error("h100=NaN"), ErrorCode::invalid_argument, "prices",
              "prices: h100 price \"NaN\" is not a finite number");
  check_error(prices_error("h100=-inf"), ErrorCode::invalid_argument, "prices",
              "prices: h100 price \"-inf\" is not a finite number");
  check_error(prices_error("h100=1e999"), ErrorCode::invalid_argument, "prices",
              "prices: h100 price \"1e999\" is not a finite number");
  check_error(prices_error("h100=-2"), ErrorCode::out_of_range, "prices",
              "prices: h100 price must be > 0 USD per chip-hour, got -2");
  check_error(prices_error("tpu-v5e=1.1, h100=0"), ErrorCode::out_of_range, "prices",
              "prices: h100 price must be > 0 USD per chip-hour, got 0");
  check_error(prices_error("h100=2e6"), ErrorCode::out_of_range, "prices",
              "prices: h100 price must be at most 1e6 USD per chip-hour, got 2e6");
  check_error(prices_error("h100"), ErrorCode::invalid_argument, "prices",
              "prices: h100 has no price; write chip=USD per chip-hour, like h100=10.8");
  check_error(prices_error("h100="), ErrorCode::invalid_argument, "prices",
              "prices: h100 has no price; write chip=USD per chip-hour, like h100=10.8");
  check_error(prices_error("=1.2"), ErrorCode::invalid_argument, "prices",
              "prices: a price names no chip; write chip=USD per chip-hour, like h100=10.8");
  check_error(prices_error("h100=9 h100=10"), ErrorCode::invalid_argument, "prices",
              "prices: h100 is priced twice");
  CHECK(prices_error("tpu-v5e=1, h100=x").position == 16);
}

TEST_CASE("every bad chip list names the field and the chip", "[flops-per-dollar]") {
  check_error(run_error(kCalc, {{"chips", Value::of("h100 tpu-v9")}}), ErrorCode::not_found,
              "chips", "chips: unknown chip \"tpu-v9\"; choose one of " + all_ids());
  check_error(run_error(kCalc, {{"chips", Value::of("h100,h100")}}), ErrorCode::invalid_argument,
              "chips", "chips: h100 is listed twice");
  CHECK(run_error(kCalc, {{"chips", Value::of("h100 tpu-v9")}}).position == 5);
  CHECK(run_error(kCalc, {{"chip", Value::of("tpu-v9")}}).field == "chip");
  CHECK(run_error(kCalc, {{"dtype", Value::of("fp16")}}).field == "dtype");
}

TEST_CASE("every catalog price has a source, and a date or a note saying why not",
          "[flops-per-dollar]") {
  for (const Chip& c : chips()) {
    INFO(c.id);
    if (c.price_per_hour <= 0) {
      CHECK(c.price_source.empty());
      CHECK(c.price_date.empty());
      continue;
    }
    CHECK_FALSE(c.price_source.empty());
    CHECK(chip_note(c, "price_source") == chip_note(c, "price_per_hour"));
    if (c.price_date.empty()) {
      CHECK(chip_note(c, "price_date").find("not given") == 0);
    } else {
      CHECK(c.price_date.size() == 7);  // year-month: 2025-02
      CHECK(c.price_date[4] == '-');
    }
  }
  const Chip* v5e = find_chip("tpu-v5e");
  REQUIRE(v5e != nullptr);
  CHECK(v5e->price_source == kChapter8);
  CHECK(v5e->price_date == "2025-02");
  CHECK(find_chip("h100")->price_date == "2025-02");
  CHECK(find_chip("tpu-v5p")->price_date == "2025-02");
}
