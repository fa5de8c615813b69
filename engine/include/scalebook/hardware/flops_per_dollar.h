#pragma once
// What a dollar buys on each chip: chapter 8's comparison of chips by FLOPs per dollar, with
// the HBM a dollar rents and the HBM traffic it pays for beside it.
//
// With C the chip's dense peak for the dtype (FLOP/s), p its price (USD per chip-hour), M its
// HBM capacity (B) and W its HBM bandwidth (B/s), one dollar buys 3600 / p seconds of the chip:
//   - FLOPs per dollar = C x 3600 / p (the book: 1.97e14 x 3600 / 1.2 = 5.9e17 on a v5e);
//   - HBM bytes per dollar-hour = M / p: the HBM one dollar rents for an hour;
//   - HBM bandwidth per dollar = W x 3600 / p: the bytes HBM can move for one dollar.
// Peak FLOPs are an upper bound: a dollar buys FLOPs at peak only while the chip is busy and
// compute-bound. Prices are the catalog's cloud list prices (each with its source and date),
// or the caller's; a chip without a price has no per-dollar numbers, never a division by zero.
#include <string>
#include <string_view>
#include <vector>

#include "scalebook/core/dtype.h"
#include "scalebook/core/registry.h"
#include "scalebook/core/status.h"
#include "scalebook/hardware/catalog.h"

namespace scalebook {

// A price the caller gives for one chip, in place of the catalog's.
struct ChipPrice {
  const Chip* chip = nullptr;
  double usd_per_hour = 0;  // USD per chip-hour, > 0
};

// "h100=9.5, tpu-v5e=1.1": catalog ids and prices in USD per chip-hour, separated by commas,
// semicolons or spaces (spaces around '=' allowed). Errors name `field` and the entry: an
// unknown chip (not_found), an entry without a price, a price that is not a number or not
// finite, a chip priced twice (invalid_argument), a price <= 0 or above 1e6 (out_of_range).
Result<std::vector<ChipPrice>> parse_chip_prices(std::string_view text, const std::string& field);

// What a dollar buys on one chip. 0 means none: no peak for the dtype, no price, and so no
// per-dollar number that needs either.
struct PerDollar {
  const Chip* chip = nullptr;
  double peak_flops = 0;                 // FLOP/s, dense, for the dtype
  double price_per_hour = 0;             // USD per chip-hour
  bool overridden = false;               // the price is the caller's, not the catalog's
  double flops_per_dollar = 0;           // FLOP/USD = peak_flops x 3600 / price_per_hour
  double hbm_bytes_per_dollar_hour = 0;  // B/(USD/h) = hbm_capacity / price_per_hour
  double hbm_bandwidth_per_dollar = 0;   // B/USD = hbm_bandwidth x 3600 / price_per_hour
};

// `chip` at its catalog price, or at the price `prices` gives it.
PerDollar per_dollar(const Chip& chip, Dtype dtype, const std::vector<ChipPrice>& prices);

// Where the price comes from, as a reader reads it: "your override", or the catalog's source
// and date ("Google Cloud ... (2025-02)"); why there is none when there is none.
std::string price_origin(const PerDollar& row);

// Chapter 8's FLOPs-per-dollar table: a row per chip (every chip with a price by default), the
// best chip by FLOPs per dollar, and one chosen chip's FLOPs per dollar for exercises.
Calculator flops_per_dollar_calculator();

}  // namespace scalebook
