#include "scalebook/core/dtype.h"

#include <array>

namespace scalebook {
namespace {

struct DtypeInfo {
  Dtype dtype;
  const char* name;
  double bytes;
};

constexpr std::array<DtypeInfo, 5> kDtypes{{
    {Dtype::fp32, "fp32", 4},
    {Dtype::bf16, "bf16", 2},
    {Dtype::fp8, "fp8", 1},
    {Dtype::int8, "int8", 1},
    {Dtype::int4, "int4", 0.5},
}};

const DtypeInfo& info(Dtype dtype) {
  for (const DtypeInfo& d : kDtypes) {
    if (d.dtype == dtype) return d;
  }
  return kDtypes[1];
}

}  // namespace

std::vector<std::string> dtype_names() {
  std::vector<std::string> names;
  for (const DtypeInfo& d : kDtypes) names.emplace_back(d.name);
  return names;
}

std::optional<Dtype> parse_dtype(std::string_view name) {
  for (const DtypeInfo& d : kDtypes) {
    if (name == d.name) return d.dtype;
  }
  return std::nullopt;
}

const char* to_string(Dtype dtype) { return info(dtype).name; }

double bytes_per_element(Dtype dtype) { return info(dtype).bytes; }

}  // namespace scalebook
