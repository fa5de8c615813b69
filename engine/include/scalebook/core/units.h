#pragma once
// Unit symbols a reader may type in an answer ("45 GB/s", "1.2 ms", "197 TFLOPS") and their
// value in SI base units. Hand-written rather than a units library: the libraries we looked at
// (mp-units, Au) check units at compile time and do not parse user text, and the book's
// conventions ("FLOPS" is a rate, "Gbps" is bits) are ours to decide.
#include <string>
#include <string_view>

#include "scalebook/core/status.h"

namespace scalebook {

enum class Dimension { count, time, bytes, flops, bandwidth, flop_rate, intensity };

// "count", "time", "bytes", "FLOPs", "bandwidth", "FLOP rate", "intensity".
const char* to_string(Dimension d);

// The SI base unit symbol of a dimension: count "", time "s", bytes "B", flops "FLOP",
// bandwidth "B/s", flop_rate "FLOP/s", intensity "FLOP/B".
const char* base_symbol(Dimension d);

struct Unit {
  std::string symbol;  // as written: "GB/s", "µs", "" for a plain number
  Dimension dimension = Dimension::count;
  double factor = 1;  // value in the SI base unit per 1 of this unit
};

// Reads one unit symbol, exactly (case-sensitive, no surrounding spaces):
//   count      "" (no unit), "token", "tokens", "x"
//   time       s, ms, us, µs (U+00B5 or U+03BC), ns, ps, min, h, d, day(s), yr, year(s)
//              (a year is 365.25 days)
//   bytes      B with k K M G T P E or Ki Mi Gi Ti Pi Ei; byte, bytes;
//              bits: b with k M G T P E; bit, bits (an eighth of a byte)
//   flops      FLOP, FLOPs, flop, flops, OP, OPs, ops, each with k M G T P E
//   bandwidth  any bytes or bits unit above followed by "/s"; bits also as Gbps, Mbps, ...
//   flop_rate  any flops unit above followed by "/s"; FLOPS and OPS with k M G T P E
//              ("FLOPS" is read as FLOP/s, as spec sheets use it)
//   intensity  FLOP, FLOPs, flop, flops, OP, OPs or ops (no prefix) per "B" or "byte"
// An unknown symbol is an invalid_argument error on field "unit": `unknown unit "furlongs"`.
Result<Unit> parse_unit(std::string_view symbol);

}  // namespace scalebook
