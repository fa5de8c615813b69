#include "scalebook/core/units.h"

#include <array>
#include <optional>

namespace scalebook {
namespace {

// Units that take no prefix and compose with nothing.
struct Plain {
  std::string_view symbol;
  Dimension dimension;
  double factor;
};

constexpr std::array<Plain, 23> kPlain{{
    {"", Dimension::count, 1},
    {"token", Dimension::count, 1},
    {"tokens", Dimension::count, 1},
    {"param", Dimension::count, 1},  // the transformer calculator counts parameters
    {"params", Dimension::count, 1},
    {"sequence", Dimension::count, 1},  // inference counts a batch in sequences
    {"sequences", Dimension::count, 1},
    {"x", Dimension::count, 1},
    {"s", Dimension::time, 1},
    {"ms", Dimension::time, 1e-3},
    {"us", Dimension::time, 1e-6},
    {"\u00b5s", Dimension::time, 1e-6},  // micro sign
    {"\u03bcs", Dimension::time, 1e-6},  // Greek small mu
    {"ns", Dimension::time, 1e-9},
    {"ps", Dimension::time, 1e-12},
    {"min", Dimension::time, 60},
    {"h", Dimension::time, 3600},
    {"d", Dimension::time, 86400},  // a training run is counted in days and years
    {"day", Dimension::time, 86400},
    {"days", Dimension::time, 86400},
    {"yr", Dimension::time, 31557600},  // a Julian year, 365.25 days, as the book's 435 years
    {"year", Dimension::time, 31557600},
    {"years", Dimension::time, 31557600},
}};

struct Prefix {
  std::string_view symbol;
  double factor;
};

constexpr std::array<Prefix, 7> kDecimal{{
    {"", 1},
    {"k", 1e3},
    {"M", 1e6},
    {"G", 1e9},
    {"T", 1e12},
    {"P", 1e15},
    {"E", 1e18},
}};

// Byte units also take "K" (as 1000, as in "KB") and the binary prefixes.
constexpr std::array<Prefix, 7> kByteExtra{{
    {"K", 1e3},
    {"Ki", 1024.0},
    {"Mi", 1048576.0},
    {"Gi", 1073741824.0},
    {"Ti", 1099511627776.0},
    {"Pi", 1125899906842624.0},
    {"Ei", 1152921504606846976.0},
}};

enum class Prefixes { none, decimal, bytes };
enum class Amount { bytes, bits, flops };

// The things a rate or an intensity counts: "B" in "GB/s", "FLOPs" in "TFLOPs/s".
struct Stem {
  std::string_view symbol;
  Amount amount;
  Prefixes prefixes;
};

constexpr std::array<Stem, 13> kStems{{
    {"B", Amount::bytes, Prefixes::bytes},
    {"byte", Amount::bytes, Prefixes::none},
    {"bytes", Amount::bytes, Prefixes::none},
    {"b", Amount::bits, Prefixes::decimal},
    {"bit", Amount::bits, Prefixes::none},
    {"bits", Amount::bits, Prefixes::none},
    {"FLOP", Amount::flops, Prefixes::decimal},
    {"FLOPs", Amount::flops, Prefixes::decimal},
    {"flop", Amount::flops, Prefixes::decimal},
    {"flops", Amount::flops, Prefixes::decimal},
    {"OP", Amount::flops, Prefixes::decimal},
    {"OPs", Amount::flops, Prefixes::decimal},
    {"ops", Amount::flops, Prefixes::decimal},
}};

struct Scaled {
  Amount amount;
  double factor;  // in bytes or FLOPs
  bool prefixed;
};

struct Found {
  Dimension dimension;
  double factor;
};

std::optional<double> prefix_factor(std::string_view prefix, Prefixes allowed) {
  if (allowed == Prefixes::none) {
    if (prefix.empty()) return 1.0;
    return std::nullopt;
  }
  for (const Prefix& p : kDecimal) {
    if (p.symbol == prefix) return p.factor;
  }
  if (allowed == Prefixes::bytes) {
    for (const Prefix& p : kByteExtra) {
      if (p.symbol == prefix) return p.factor;
    }
  }
  return std::nullopt;
}

// "GiB" -> bytes x 2^30; "Gb" -> bytes x 1e9 / 8; "TFLOPs" -> FLOPs x 1e12.
std::optional<Scaled> parse_amount(std::string_view s) {
  for (const Stem& stem : kStems) {
    if (!s.ends_with(stem.symbol)) continue;
    std::string_view prefix = s.substr(0, s.size() - stem.symbol.size());
    std::optional<double> scale = prefix_factor(prefix, stem.prefixes);
    if (!scale) continue;
    double per_unit = stem.amount == Amount::bits ? 0.125 : 1.0;
    return Scaled{stem.amount, *scale * per_unit, !prefix.empty()};
  }
  return std::nullopt;
}

// The amount before `suffix`, when `s` ends with it: "GB" for ("GB/s", "/s").
std::optional<Scaled> amount_before(std::string_view s, std::string_view suffix) {
  if (s.size() <= suffix.size() || !s.ends_with(suffix)) return std::nullopt;
  return parse_amount(s.substr(0, s.size() - suffix.size()));
}

Found rate_of(const Scaled& a) {
  return {a.amount == Amount::flops ? Dimension::flop_rate : Dimension::bandwidth, a.factor};
}

// "TFLOPS", "TOPS": a rate, as spec sheets write it.
std::optional<Found> spec_sheet_rate(std::string_view s) {
  for (std::string_view stem : {std::string_view("FLOPS"), std::string_view("OPS")}) {
    if (!s.ends_with(stem)) continue;
    auto scale = prefix_factor(s.substr(0, s.size() - stem.size()), Prefixes::decimal);
    if (scale) return Found{Dimension::flop_rate, *scale};
  }
  return std::nullopt;
}

std::optional<Found> compose(std::string_view s) {
  if (auto a = amount_before(s, "/s")) return rate_of(*a);
  if (auto a = amount_before(s, "ps"); a && a->amount == Amount::bits) return rate_of(*a);
  if (auto rate = spec_sheet_rate(s)) return rate;
  for (std::string_view per : {std::string_view("/B"), std::string_view("/byte")}) {
    auto a = amount_before(s, per);
    if (a && a->amount == Amount::flops && !a->prefixed) return Found{Dimension::intensity, 1};
  }
  if (auto a = parse_amount(s)) {
    return Found{a->amount == Amount::flops ? Dimension::flops : Dimension::bytes, a->factor};
  }
  return std::nullopt;
}

}  // namespace

const char* to_string(Dimension d) {
  switch (d) {
    case Dimension::count:
      return "count";
    case Dimension::time:
      return "time";
    case Dimension::bytes:
      return "bytes";
    case Dimension::flops:
      return "FLOPs";
    case Dimension::bandwidth:
      return "bandwidth";
    case Dimension::flop_rate:
      return "FLOP rate";
    case Dimension::intensity:
      return "intensity";
  }
  return "count";
}

const char* base_symbol(Dimension d) {
  switch (d) {
    case Dimension::count:
      return "";
    case Dimension::time:
      return "s";
    case Dimension::bytes:
      return "B";
    case Dimension::flops:
      return "FLOP";
    case Dimension::bandwidth:
      return "B/s";
    case Dimension::flop_rate:
      return "FLOP/s";
    case Dimension::intensity:
      return "FLOP/B";
  }
  return "";
}

Result<Unit> parse_unit(std::string_view symbol) {
  for (const Plain& p : kPlain) {
    if (p.symbol == symbol) return Unit{std::string(symbol), p.dimension, p.factor};
  }
  if (std::optional<Found> found = compose(symbol)) {
    return Unit{std::string(symbol), found->dimension, found->factor};
  }
  return Error{ErrorCode::invalid_argument, "unit", "unknown unit \"" + std::string(symbol) + "\""};
}

}  // namespace scalebook
