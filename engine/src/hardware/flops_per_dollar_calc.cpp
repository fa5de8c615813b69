// The `flops-per-dollar` calculator: chapter 8's table of what a dollar buys on each chip, at
// the catalog's prices or the reader's.
#include <optional>
#include <string>
#include <vector>

#include "scalebook/core/checks.h"
#include "scalebook/core/explain_only.h"
#include "scalebook/core/format.h"
#include "scalebook/hardware/chip_inputs.h"
#include "scalebook/hardware/flops_per_dollar.h"

namespace scalebook {
namespace {

constexpr auto num = number_output;
constexpr auto text = text_output;

std::vector<InputSpec> inputs() {
  InputSpec chips = labelled({"chips", InputKind::text, "",
                              "catalog chips to compare, like tpu-v5e tpu-v5p h100 (default: "
                              "every chip with a price, the catalog's or yours)",
                              Value::none()},
                             "Chips");
  chips.help = "Chip ids from the hardware catalog, separated by spaces or commas.";
  InputSpec prices = labelled({"prices", InputKind::text, "",
                               "your prices in USD per chip-hour, in place of the catalog's, "
                               "like h100=9.5, tpu-v5e=1.1",
                               Value::none()},
                              "Your prices");
  prices.help =
      "chip=USD per chip-hour, separated by commas or spaces; a chip left out keeps the "
      "catalog's price, and a chip the catalog has no price for gets one.";
  InputSpec chip{"chip", InputKind::choice, "", "the chip whose FLOPs per dollar is quoted alone",
                 Value::of(kDefaultChip)};
  chip.choices = chip_ids();
  chip.label = "Chip";
  return {chips, prices,
          dtype_input("dtype", "Dtype", "number format whose dense peak counts", Value::of("bf16")),
          chip};
}

std::vector<OutputSpec> row_columns() {
  return {text("chip", "the catalog chip", "Chip"),
          num("peak_flops", "FLOP/s", "dense peak for the dtype", "Peak FLOP/s"),
          num("price_per_hour", "USD/h", "price per chip-hour", "Price per chip-hour"),
          text("price_from", "the catalog's source and date, or your override", "Price from"),
          num("flops_per_dollar", "FLOP/USD", "peak x 3600 / price", "FLOPs per dollar"),
          num("hbm_bytes_per_dollar_hour", "B/(USD/h)",
              "HBM capacity / price: the HBM a dollar rents for an hour", "HBM per dollar-hour"),
          num("hbm_bandwidth_per_dollar", "B/USD",
              "HBM bandwidth x 3600 / price: the bytes HBM moves for a dollar",
              "HBM bandwidth per dollar")};
}

const Schema& schema() {
  static const Schema s{
      "flops-per-dollar",
      "chapter 8's comparison of chips by what a dollar buys: peak FLOPs, HBM and HBM bandwidth "
      "per dollar at the catalog's cloud prices (each with its source and date) or yours",
      inputs(),
      {text("best_chip", "the listed chip with the most FLOPs per dollar", "Best chip"),
       num("best_flops_per_dollar", "FLOP/USD", "its FLOPs per dollar", "Best FLOPs per dollar"),
       num("peak_flops", "FLOP/s", "the chosen chip's dense peak for the dtype",
           "Chip peak FLOP/s"),
       num("price_per_hour", "USD/h", "the chosen chip's price per chip-hour",
           "Chip price per hour"),
       num("flops_per_dollar", "FLOP/USD", "the chosen chip's peak x 3600 / price",
           "Chip FLOPs per dollar")},
      {{"comparison", "one row per chip: what a dollar buys on it", row_columns()}}};
  return s;
}

// The listed chips, or by default every chip with a price (the catalog's or the caller's).
Result<std::vector<const Chip*>> listed_chips(const ResolvedInputs& in,
                                              const std::vector<ChipPrice>& prices) {
  std::vector<const Chip*> list;
  const std::string& given = in.has("chips") ? in.text("chips") : std::string();
  for (std::size_t i = 0; i < given.size();) {
    if (given[i] == ' ' || given[i] == ',' || given[i] == '\t') {
      ++i;
      continue;
    }
    const std::size_t start = i;
    while (i < given.size() && given[i] != ' ' && given[i] != ',' && given[i] != '\t') ++i;
    const std::string id = given.substr(start, i - start);
    const Chip* chip = find_chip(id);
    const int at = static_cast<int>(start);
    if (!chip)
      return Error{ErrorCode::not_found, "chips",
                   "chips: unknown chip \"" + id + "\"; choose one of " + join(chip_ids()), at};
    for (const Chip* seen : list) {
      if (seen == chip)
        return Error{ErrorCode::invalid_argument, "chips", "chips: " + id + " is listed twice", at};
    }
    list.push_back(chip);
  }
  if (!list.empty()) return list;
  for (const Chip& chip : chips()) {
    bool priced = chip.price_per_hour > 0;
    for (const ChipPrice& p : prices) priced = priced || p.chip == &chip;
    if (priced) list.push_back(&chip);
  }
  return list;
}

Value peak_of(const PerDollar& row, Dtype dtype) {
  if (row.peak_flops > 0) return Value::of(row.peak_flops);
  return Value::absent(row.chip->id + " has no " + to_string(dtype) + " peak in the catalog");
}

// FLOPs per dollar, or why there is none: no price, else no peak for the dtype.
Value flops_per_dollar_of(const PerDollar& row, Dtype dtype) {
  if (row.price_per_hour <= 0) return Value::absent(price_origin(row));
  if (row.flops_per_dollar <= 0) return peak_of(row, dtype);
  return Value::of(row.flops_per_dollar);
}

std::vector<Value> row_cells(const PerDollar& row, Dtype dtype) {
  const bool priced = row.price_per_hour > 0;
  const Value no_price = Value::absent(price_origin(row));
  return {Value::of(row.chip->id),
          peak_of(row, dtype),
          priced ? Value::of(row.price_per_hour) : no_price,
          priced ? Value::of(price_origin(row)) : no_price,
          flops_per_dollar_of(row, dtype),
          priced ? Value::of(row.hbm_bytes_per_dollar_hour) : no_price,
          priced ? Value::of(row.hbm_bandwidth_per_dollar) : no_price};
}

SB_EXPLAIN_ONLY Step flops_per_dollar_step(const PerDollar& row, std::string label,
                                           std::string output, std::vector<std::string> depends) {
  return {std::move(label),
          "\\frac{" + latex_quantity(row.peak_flops, "FLOP/s") + " \\cdot 3600\\ \\text{s/h}}{" +
              latex_quantity(row.price_per_hour, "USD/h") +
              "} = " + latex_quantity(row.flops_per_dollar, "FLOP/USD"),
          row.flops_per_dollar,
          "FLOP/USD",
          std::move(output),
          std::move(depends)};
}

SB_EXPLAIN_ONLY std::vector<Step> steps(const PerDollar& chosen, const std::vector<PerDollar>& rows,
                                        const PerDollar* best, Dtype dtype) {
  std::vector<Step> st;
  const std::string name = chosen.chip->name;
  if (chosen.peak_flops > 0)
    st.push_back({name + ": dense " + to_string(dtype) + " peak, from the catalog",
                  "C = " + latex_quantity(chosen.peak_flops, "FLOP/s"),
                  chosen.peak_flops,
                  "FLOP/s",
                  "peak_flops",
                  {}});
  if (chosen.price_per_hour > 0)
    st.push_back({name + ": price per chip-hour, from " + price_origin(chosen),
                  "p = " + latex_quantity(chosen.price_per_hour, "USD/h"),
                  chosen.price_per_hour,
                  "USD/h",
                  "price_per_hour",
                  {}});
  if (chosen.flops_per_dollar > 0)
    st.push_back(flops_per_dollar_step(
        chosen, name + ": FLOPs per dollar, the peak for the 3600 / p seconds a dollar buys",
        "flops_per_dollar", {"peak_flops", "price_per_hour"}));
  for (const PerDollar& row : rows) {
    if (row.flops_per_dollar > 0)
      st.push_back(flops_per_dollar_step(row,
                                         row.chip->name + ": FLOPs per dollar at " +
                                             format_number(row.price_per_hour) +
                                             " USD per chip-hour (" + price_origin(row) + ")",
                                         "comparison", {}));
  }
  if (best)
    st.push_back({"The most FLOPs per dollar: " + best->chip->name,
                  "\\max = " + latex_quantity(best->flops_per_dollar, "FLOP/USD"),
                  best->flops_per_dollar,
                  "FLOP/USD",
                  "best_flops_per_dollar",
                  {"comparison"}});
  return st;
}

std::optional<Error> compute(const ResolvedInputs& in, ResultBuilder& out) {
  std::vector<ChipPrice> prices;
  if (in.has("prices")) {
    Result<std::vector<ChipPrice>> parsed = parse_chip_prices(in.text("prices"), "prices");
    if (!parsed.ok()) return parsed.error();
    prices = std::move(parsed.value());
  }
  Result<std::vector<const Chip*>> listed = listed_chips(in, prices);
  if (!listed.ok()) return listed.error();
  const Dtype dtype = parse_dtype(in.text("dtype")).value_or(Dtype::bf16);
  std::vector<PerDollar> rows;
  const PerDollar* best = nullptr;
  rows.reserve(listed.value().size());
  for (const Chip* chip : listed.value()) rows.push_back(per_dollar(*chip, dtype, prices));
  for (const PerDollar& row : rows) {
    if (row.flops_per_dollar > 0 && (!best || row.flops_per_dollar > best->flops_per_dollar))
      best = &row;
  }
  if (best) {
    out.set_text("best_chip", best->chip->id);
    out.set("best_flops_per_dollar", best->flops_per_dollar);
  } else {
    const std::string why = "no listed chip has both a price and a " +
                            std::string(to_string(dtype)) + " peak; give prices for them";
    out.none("best_chip", why);
    out.none("best_flops_per_dollar", why);
  }
  const Chip* chosen_chip = find_chip(in.text("chip"));
  if (!chosen_chip)
    return Error{ErrorCode::not_found, "chip", "unknown chip \"" + in.text("chip") + "\""};
  const PerDollar chosen = per_dollar(*chosen_chip, dtype, prices);
  out.set("peak_flops", peak_of(chosen, dtype));
  if (chosen.price_per_hour > 0)
    out.set("price_per_hour", chosen.price_per_hour);
  else
    out.none("price_per_hour", price_origin(chosen));
  out.set("flops_per_dollar", flops_per_dollar_of(chosen, dtype));
  if (out.explain()) out.steps(steps(chosen, rows, best, dtype));
  if (out.tables()) {
    Table table = empty_table(schema().tables[0]);
    for (const PerDollar& row : rows) table.rows.push_back(row_cells(row, dtype));
    out.table("comparison", std::move(table));
  }
  return std::nullopt;
}

}  // namespace

Calculator flops_per_dollar_calculator() { return {schema(), compute}; }

}  // namespace scalebook
