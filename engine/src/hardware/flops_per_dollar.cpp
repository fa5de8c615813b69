// The model of flops_per_dollar.h: reading a caller's prices, and what a dollar buys per chip.
#include "scalebook/hardware/flops_per_dollar.h"

#include <cmath>

#include "scalebook/core/checks.h"
#include "scalebook/core/format.h"

namespace scalebook {
namespace {

constexpr double kMostPrice = 1e6;  // USD per chip-hour: far above any cloud list price
constexpr const char* kHow = "; write chip=USD per chip-hour, like h100=10.8";

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool is_separator(char c) { return c == ',' || c == ';' || is_space(c); }

// "nan", "-inf", "Infinity": text that means a number but no finite one.
bool names_non_finite(std::string_view text) {
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) text.remove_prefix(1);
  std::string lower;
  for (char c : text.substr(0, 3)) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  return lower == "nan" || lower == "inf";
}

Error entry_error(ErrorCode code, const std::string& field, std::size_t at, std::string message) {
  return Error{code, field, field + ": " + message, static_cast<int>(at)};
}

// One "chip=price" entry's price, read from `text`.
Result<double> read_price(const std::string& text, const std::string& id, const std::string& field,
                          std::size_t at) {
  double price = 0;
  if (names_non_finite(text) || (parse_decimal(text, price) && !std::isfinite(price)))
    return entry_error(ErrorCode::invalid_argument, field, at,
                       id + " price \"" + text + "\" is not a finite number");
  if (!parse_decimal(text, price))
    return entry_error(ErrorCode::invalid_argument, field, at,
                       id + " price \"" + text + "\" is not a number");
  if (price <= 0)
    return entry_error(ErrorCode::out_of_range, field, at,
                       id + " price must be > 0 USD per chip-hour, got " + format_number(price));
  if (price > kMostPrice)
    return entry_error(ErrorCode::out_of_range, field, at,
                       id + " price must be at most " + format_number(kMostPrice) +
                           " USD per chip-hour, got " + format_number(price));
  return price;
}

}  // namespace

Result<std::vector<ChipPrice>> parse_chip_prices(std::string_view text, const std::string& field) {
  std::vector<ChipPrice> prices;
  std::size_t i = 0;
  const std::size_t n = text.size();
  while (true) {
    while (i < n && is_separator(text[i])) ++i;
    if (i == n) break;
    const std::size_t start = i;
    while (i < n && text[i] != '=' && !is_separator(text[i])) ++i;
    const std::string id(text.substr(start, i - start));
    if (id.empty())
      return entry_error(ErrorCode::invalid_argument, field, start,
                         std::string("a price names no chip") + kHow);
    const Chip* chip = find_chip(id);
    if (!chip)
      return entry_error(ErrorCode::not_found, field, start,
                         "unknown chip \"" + id + "\"; choose one of " + join(chip_ids()));
    while (i < n && is_space(text[i])) ++i;
    const bool has_equals = i < n && text[i] == '=';
    if (has_equals) ++i;
    while (has_equals && i < n && is_space(text[i])) ++i;
    const std::size_t value_at = i;
    while (has_equals && i < n && !is_separator(text[i])) ++i;
    if (!has_equals || i == value_at)
      return entry_error(ErrorCode::invalid_argument, field, start, id + " has no price" + kHow);
    Result<double> price =
        read_price(std::string(text.substr(value_at, i - value_at)), id, field, value_at);
    if (!price.ok()) return price.error();
    for (const ChipPrice& p : prices) {
      if (p.chip == chip)
        return entry_error(ErrorCode::invalid_argument, field, start, id + " is priced twice");
    }
    prices.push_back({chip, price.value()});
  }
  return prices;
}

PerDollar per_dollar(const Chip& chip, Dtype dtype, const std::vector<ChipPrice>& prices) {
  PerDollar row;
  row.chip = &chip;
  row.peak_flops = peak_flops(chip, dtype);
  row.price_per_hour = chip.price_per_hour;
  for (const ChipPrice& p : prices) {
    // By id: the caller's chip may be a copy of the catalog's.
    if (p.chip->id != chip.id) continue;
    row.price_per_hour = p.usd_per_hour;
    row.overridden = true;
  }
  if (row.price_per_hour <= 0) return row;
  row.flops_per_dollar = row.peak_flops * 3600 / row.price_per_hour;
  row.hbm_bytes_per_dollar_hour = chip.hbm_capacity / row.price_per_hour;
  row.hbm_bandwidth_per_dollar = chip.hbm_bandwidth * 3600 / row.price_per_hour;
  return row;
}

std::string price_origin(const PerDollar& row) {
  const Chip& chip = *row.chip;
  if (row.overridden) return "your override";
  if (row.price_per_hour <= 0)
    return "the catalog has no price for " + chip.id + "; give one in prices: " + chip.id +
           "=<USD per chip-hour>";
  const std::string source = chip.price_source.empty() ? "the catalog" : chip.price_source;
  return source + " (" + (chip.price_date.empty() ? "undated" : chip.price_date) + ")";
}

}  // namespace scalebook
