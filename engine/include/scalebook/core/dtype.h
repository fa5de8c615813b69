#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace scalebook {

enum class Dtype { fp32, bf16, fp8, int8, int4 };

std::vector<std::string> dtype_names();
std::optional<Dtype> parse_dtype(std::string_view name);
const char* to_string(Dtype dtype);
double bytes_per_element(Dtype dtype);

}  // namespace scalebook
