#include "scalebook/core/units.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using namespace scalebook;

namespace {

struct UnitCase {
  std::string symbol;
  Dimension dimension;
  double factor;  // in the SI base unit of the dimension
};

void check_units(const std::vector<UnitCase>& cases) {
  for (const UnitCase& c : cases) {
    INFO("unit \"" << c.symbol << "\"");
    Result<Unit> unit = parse_unit(c.symbol);
    REQUIRE(unit.ok());
    CHECK(unit.value().symbol == c.symbol);
    CHECK(std::string(to_string(unit.value().dimension)) == to_string(c.dimension));
    CHECK(unit.value().factor == Approx(c.factor).epsilon(1e-15));
  }
}

void check_unknown(const std::string& symbol) {
  INFO("unit \"" << symbol << "\"");
  Result<Unit> unit = parse_unit(symbol);
  REQUIRE_FALSE(unit.ok());
  CHECK(unit.error().code == ErrorCode::invalid_argument);
  CHECK(unit.error().field == "unit");
  CHECK(unit.error().message == "unknown unit \"" + symbol + "\"");
}

}  // namespace

TEST_CASE("every dimension has a name and an SI base symbol", "[units]") {
  CHECK(std::string(to_string(Dimension::count)) == "count");
  CHECK(std::string(to_string(Dimension::time)) == "time");
  CHECK(std::string(to_string(Dimension::bytes)) == "bytes");
  CHECK(std::string(to_string(Dimension::flops)) == "FLOPs");
  CHECK(std::string(to_string(Dimension::bandwidth)) == "bandwidth");
  CHECK(std::string(to_string(Dimension::flop_rate)) == "FLOP rate");
  CHECK(std::string(to_string(Dimension::intensity)) == "intensity");
  CHECK(std::string(base_symbol(Dimension::count)) == "");
  CHECK(std::string(base_symbol(Dimension::time)) == "s");
  CHECK(std::string(base_symbol(Dimension::bytes)) == "B");
  CHECK(std::string(base_symbol(Dimension::flops)) == "FLOP");
  CHECK(std::string(base_symbol(Dimension::bandwidth)) == "B/s");
  CHECK(std::string(base_symbol(Dimension::flop_rate)) == "FLOP/s");
  CHECK(std::string(base_symbol(Dimension::intensity)) == "FLOP/B");
}

TEST_CASE("each base symbol parses to its dimension with factor 1", "[units]") {
  for (Dimension d : {Dimension::count, Dimension::time, Dimension::bytes, Dimension::flops,
                      Dimension::bandwidth, Dimension::flop_rate, Dimension::intensity}) {
    check_units({{base_symbol(d), d, 1}});
  }
}

TEST_CASE("a count is no unit, tokens, params or times", "[units]") {
  check_units({
      {"", Dimension::count, 1},
      {"token", Dimension::count, 1},
      {"tokens", Dimension::count, 1},
      {"param", Dimension::count, 1},
      {"params", Dimension::count, 1},
      {"x", Dimension::count, 1},
  });
}

TEST_CASE("times are read in seconds, with both micro signs", "[units]") {
  check_units({
      {"s", Dimension::time, 1},
      {"ms", Dimension::time, 1e-3},
      {"us", Dimension::time, 1e-6},
      {"\u00b5s", Dimension::time, 1e-6},
      {"\u03bcs", Dimension::time, 1e-6},
      {"ns", Dimension::time, 1e-9},
      {"ps", Dimension::time, 1e-12},
      {"min", Dimension::time, 60},
      {"h", Dimension::time, 3600},
      {"d", Dimension::time, 86400},
      {"days", Dimension::time, 86400},
      {"yr", Dimension::time, 365.25 * 86400},
      {"years", Dimension::time, 365.25 * 86400},
  });
}

TEST_CASE("byte sizes take SI prefixes and binary prefixes", "[units]") {
  check_units({
      {"B", Dimension::bytes, 1},
      {"byte", Dimension::bytes, 1},
      {"bytes", Dimension::bytes, 1},
      {"kB", Dimension::bytes, 1e3},
      {"KB", Dimension::bytes, 1e3},
      {"MB", Dimension::bytes, 1e6},
      {"GB", Dimension::bytes, 1e9},
      {"TB", Dimension::bytes, 1e12},
      {"PB", Dimension::bytes, 1e15},
      {"KiB", Dimension::bytes, 1024},
      {"MiB", Dimension::bytes, 1048576},
      {"GiB", Dimension::bytes, 1073741824},
      {"TiB", Dimension::bytes, 1099511627776},
      {"PiB", Dimension::bytes, 1125899906842624},
  });
}

TEST_CASE("a gibibyte is exactly 2^30 bytes", "[units]") {
  REQUIRE(parse_unit("GiB").ok());
  CHECK(parse_unit("GiB").value().factor == 1073741824.0);
  CHECK(parse_unit("TiB").value().factor == 1024.0 * 1024 * 1024 * 1024);
}

TEST_CASE("bits are an eighth of a byte", "[units]") {
  check_units({
      {"b", Dimension::bytes, 0.125},
      {"bit", Dimension::bytes, 0.125},
      {"bits", Dimension::bytes, 0.125},
      {"kb", Dimension::bytes, 125},
      {"Mb", Dimension::bytes, 1.25e5},
      {"Gb", Dimension::bytes, 1.25e8},
      {"Tb", Dimension::bytes, 1.25e11},
  });
}

TEST_CASE("FLOP counts take decimal prefixes up to exa", "[units]") {
  check_units({
      {"FLOP", Dimension::flops, 1},
      {"FLOPs", Dimension::flops, 1},
      {"flop", Dimension::flops, 1},
      {"flops", Dimension::flops, 1},
      {"OP", Dimension::flops, 1},
      {"OPs", Dimension::flops, 1},
      {"ops", Dimension::flops, 1},
      {"kFLOP", Dimension::flops, 1e3},
      {"MFLOPs", Dimension::flops, 1e6},
      {"GOPs", Dimension::flops, 1e9},
      {"TFLOP", Dimension::flops, 1e12},
      {"PFLOPs", Dimension::flops, 1e15},
      {"EFLOP", Dimension::flops, 1e18},
      {"Gflops", Dimension::flops, 1e9},
  });
}

TEST_CASE("bandwidths are bytes or bits per second", "[units]") {
  check_units({
      {"B/s", Dimension::bandwidth, 1},
      {"bytes/s", Dimension::bandwidth, 1},
      {"kB/s", Dimension::bandwidth, 1e3},
      {"MB/s", Dimension::bandwidth, 1e6},
      {"GB/s", Dimension::bandwidth, 1e9},
      {"TB/s", Dimension::bandwidth, 1e12},
      {"KiB/s", Dimension::bandwidth, 1024},
      {"MiB/s", Dimension::bandwidth, 1048576},
      {"GiB/s", Dimension::bandwidth, 1073741824},
      {"TiB/s", Dimension::bandwidth, 1099511627776},
      {"b/s", Dimension::bandwidth, 0.125},
      {"Gb/s", Dimension::bandwidth, 1.25e8},
      {"Mbps", Dimension::bandwidth, 1.25e5},
      {"Gbps", Dimension::bandwidth, 1.25e8},
      {"Tbps", Dimension::bandwidth, 1.25e11},
  });
}

TEST_CASE("FLOPS with a capital S is a rate, not a count", "[units]") {
  check_units({
      {"FLOPS", Dimension::flop_rate, 1},
      {"TFLOPS", Dimension::flop_rate, 1e12},
      {"PFLOPS", Dimension::flop_rate, 1e15},
      {"TOPS", Dimension::flop_rate, 1e12},
      {"FLOP/s", Dimension::flop_rate, 1},
      {"FLOPs/s", Dimension::flop_rate, 1},
      {"OP/s", Dimension::flop_rate, 1},
      {"OPs/s", Dimension::flop_rate, 1},
      {"GFLOP/s", Dimension::flop_rate, 1e9},
      {"TFLOP/s", Dimension::flop_rate, 1e12},
      {"TFLOPs/s", Dimension::flop_rate, 1e12},
      {"PFLOP/s", Dimension::flop_rate, 1e15},
  });
}

TEST_CASE("arithmetic intensity is FLOPs per byte", "[units]") {
  check_units({
      {"FLOP/B", Dimension::intensity, 1},
      {"FLOPs/B", Dimension::intensity, 1},
      {"FLOP/byte", Dimension::intensity, 1},
      {"FLOPs/byte", Dimension::intensity, 1},
      {"OP/B", Dimension::intensity, 1},
      {"OPs/byte", Dimension::intensity, 1},
  });
}

TEST_CASE("unit symbols are case-sensitive", "[units]") {
  check_units({{"ms", Dimension::time, 1e-3}, {"MB", Dimension::bytes, 1e6}});
  check_unknown("Ms");
  check_unknown("MS");
  check_unknown("gb");
  check_unknown("GIB");
  check_unknown("kiB");
  check_unknown("mb");
  check_unknown("Kb");
  check_unknown("S");
}

TEST_CASE("an unknown unit is an error naming the unit", "[units]") {
  check_unknown("furlongs");
  check_unknown("kg");
  check_unknown(" ms");
  check_unknown("ms ");
  check_unknown("/s");
  check_unknown("GB/");
  check_unknown("GB/ms");
  check_unknown("Bps");
  check_unknown("GBps");
  check_unknown("tokens/s");
  check_unknown("kFLOP/B");
  check_unknown("B/B");
  check_unknown("FLOPS/s");
  check_unknown("ZB");
  check_unknown("Kib");
  check_unknown("kbytes");
  check_unknown(std::string("B\0", 2));
}

TEST_CASE("the unknown unit message quotes the symbol exactly", "[units]") {
  Result<Unit> unit = parse_unit("furlongs");
  REQUIRE_FALSE(unit.ok());
  CHECK(unit.error().message == "unknown unit \"furlongs\"");
  CHECK(unit.error().field == "unit");
}
