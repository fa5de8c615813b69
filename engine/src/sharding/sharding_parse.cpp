// The array and matmul half of sharding.h's notation; meshes are mesh_parse.cpp's.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "scalebook/sharding/sharding.h"
#include "sharding_scanner.h"

namespace scalebook {
namespace {

using sharding_scanner::check_text;
using sharding_scanner::is_alnum;
using sharding_scanner::is_upper;
using sharding_scanner::join;
using sharding_scanner::Scanner;
using sharding_scanner::trailing;

// Mesh axes after "_" or "U_": one or more upper-case letters, each an axis.
std::optional<Error> parse_axes(Scanner& s, std::string& axes, std::vector<int>& positions,
                                const std::string& after) {
  if (!is_upper(s.peek())) {
    return s.error_here("needs mesh axes (upper-case letters) after " + after + " but got " +
                        s.here());
  }
  while (is_upper(s.peek())) {
    axes += s.peek();
    positions.push_back(s.pos());
    s.advance();
  }
  if (is_alnum(s.peek()) || s.peek() == '_') {
    return s.error_here("needs mesh axes (single upper-case letters) but got " + s.here());
  }
  return std::nullopt;
}

// An upper-case letter, then letters, digits and (for array names) underscores.
std::optional<Error> parse_name(Scanner& s, std::string& name, bool underscores,
                                const std::string& what, const std::string& rule) {
  int start = s.pos();
  if (!is_upper(s.peek())) {
    return s.error_here("needs " + what + " (" + rule + ") but got " + s.here());
  }
  while (is_alnum(s.peek()) || (underscores && s.peek() == '_')) s.advance();
  name = std::string(s.slice(start, s.pos()));
  if (name.size() > kMaxNameLength) {
    return s.error("has " + what + " longer than " + std::to_string(kMaxNameLength) +
                       " characters, " + name.substr(0, kMaxNameLength) + "...",
                   start);
  }
  return std::nullopt;
}

std::optional<Error> parse_unreduced(Scanner& s, ShardedArray& a) {
  a.unreduced_open = s.pos();
  s.advance();  // {
  while (true) {
    s.skip_spaces();
    if (s.peek() != 'U' || s.peek_at(1) != '_') {
      if (s.at_end()) return s.error("has a { with no closing }", a.unreduced_open);
      return s.error_here("needs U_ and mesh axes inside { }, like {U_X}, but got " + s.here());
    }
    s.advance();
    s.advance();
    if (auto e = parse_axes(s, a.unreduced, a.unreduced_positions, "U_")) return e;
    s.skip_spaces();
    if (s.take('}')) return std::nullopt;
    if (s.at_end()) return s.error("has a { with no closing }", a.unreduced_open);
    if (!s.take(',')) return s.error_here("needs , or } but got " + s.here());
  }
}

// The same dimension twice, or a mesh axis spent twice (on two dims, or a dim and {U_}).
std::optional<Error> check_array(const Scanner& s, const ShardedArray& a) {
  for (std::size_t i = 0; i < a.dims.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (a.dims[i].name == a.dims[j].name) {
        return s.error("has dimension " + a.dims[i].name + " twice in " + a.name,
                       a.dims[i].position);
      }
    }
  }
  std::string seen;
  auto check = [&](char axis, int position) -> std::optional<Error> {
    if (seen.find(axis) != std::string::npos) {
      return s.error(std::string("uses mesh axis ") + axis + " twice in " + a.name +
                         " (an axis splits one dimension only)",
                     position);
    }
    seen += axis;
    return std::nullopt;
  };
  for (const ShardedDim& d : a.dims) {
    for (std::size_t k = 0; k < d.axes.size(); ++k) {
      if (auto e = check(d.axes[k], d.axis_positions[k])) return e;
    }
  }
  for (std::size_t k = 0; k < a.unreduced.size(); ++k) {
    if (auto e = check(a.unreduced[k], a.unreduced_positions[k])) return e;
  }
  return std::nullopt;
}

std::optional<Error> parse_array_at(Scanner& s, ShardedArray& a) {
  s.skip_spaces();
  a.position = s.pos();
  if (auto e = parse_name(s, a.name, true, "an array name",
                          "an upper-case letter, then letters, digits or _")) {
    return e;
  }
  s.skip_spaces();
  int open = s.pos();
  if (!s.take('[')) return s.error_here("needs [ after " + a.name + " but got " + s.here());
  while (true) {
    s.skip_spaces();
    if (s.at_end()) return s.error("has a [ with no closing ]", open);
    if (a.dims.size() == kMaxArrayDims) {
      return s.error_here("has more than " + std::to_string(kMaxArrayDims) + " dimensions in " +
                          a.name);
    }
    ShardedDim d;
    d.position = s.pos();
    if (auto e = parse_name(s, d.name, false, "a dimension name",
                            "an upper-case letter, then letters or digits")) {
      return e;
    }
    if (s.take('_')) {
      if (auto e = parse_axes(s, d.axes, d.axis_positions, "_")) return e;
    }
    a.dims.push_back(std::move(d));
    s.skip_spaces();
    if (s.at_end()) return s.error("has a [ with no closing ]", open);
    a.close = s.pos();
    if (s.take(']')) break;
    if (!s.take(',')) return s.error_here("needs , or ] but got " + s.here());
  }
  s.skip_spaces();
  if (s.peek() == '{') {
    if (auto e = parse_unreduced(s, a)) return e;
  }
  return check_array(s, a);
}

}  // namespace

Result<ShardedArray> parse_array(std::string_view text, const std::string& field) {
  Scanner s(text, field);
  if (auto e = check_text(text, s)) return *e;
  s.skip_spaces();
  if (s.at_end()) return s.error("is empty; write an array like A[I_X, J]", 0);
  ShardedArray a;
  if (auto e = parse_array_at(s, a)) return *e;
  s.skip_spaces();
  if (!s.at_end()) return trailing(s, "the array");
  return a;
}

namespace {

std::vector<std::string> dim_names(const ShardedArray& a, const std::string& skip) {
  std::vector<std::string> names;
  for (const ShardedDim& d : a.dims) {
    if (d.name != skip) names.push_back(d.name);
  }
  return names;
}

const ShardedDim* find_dim(const ShardedArray& a, const std::string& name) {
  for (const ShardedDim& d : a.dims) {
    if (d.name == name) return &d;
  }
  return nullptr;
}

// A and B share exactly one dimension; C, if given, has exactly the rest.
std::optional<Error> check_names(const Scanner& s, MatmulSpec& m) {
  for (const ShardedArray* in : {&m.a, &m.b}) {
    if (!in->unreduced.empty()) {
      return s.error("has an unreduced input " + in->name + "{U_" + in->unreduced +
                         "}; reduce it before the matmul",
                     in->unreduced_open);
    }
  }
  std::vector<std::string> shared;
  int second_at = -1;
  for (const ShardedDim& d : m.b.dims) {
    if (!find_dim(m.a, d.name)) continue;
    shared.push_back(d.name);
    if (shared.size() == 2) second_at = d.position;
  }
  if (shared.empty()) {
    return s.error("needs a dimension that " + m.a.name + " and " + m.b.name +
                       " share to contract, but they have " + join(dim_names(m.a, "")) + " and " +
                       join(dim_names(m.b, "")),
                   m.b.position);
  }
  if (shared.size() > 1) {
    return s.error("contracts one dimension, but " + m.a.name + " and " + m.b.name + " share " +
                       join(shared, " and "),
                   second_at);
  }
  m.contracting = shared[0];
  if (!m.c) return std::nullopt;
  std::vector<std::string> free = dim_names(m.a, m.contracting);
  for (const std::string& name : dim_names(m.b, m.contracting)) free.push_back(name);
  const ShardedArray& c = *m.c;
  auto mismatch = [&](int position) {
    return s.error("has dimension names that don't line up: " + c.name + " must have " +
                       join(free) + " (what " + m.a.name + " and " + m.b.name +
                       " leave after contracting " + m.contracting + "), got " +
                       join(dim_names(c, "")),
                   position);
  };
  for (const ShardedDim& d : c.dims) {
    bool known = false;
    for (const std::string& name : free) known = known || name == d.name;
    if (!known) return mismatch(d.position);
  }
  for (const std::string& name : free) {
    if (!find_dim(c, name)) return mismatch(c.close);
  }
  return std::nullopt;
}

}  // namespace

Result<MatmulSpec> parse_matmul(std::string_view text, const std::string& field) {
  Scanner s(text, field);
  if (auto e = check_text(text, s)) return *e;
  s.skip_spaces();
  if (s.at_end()) return s.error("is empty; write a matmul like A[I_X, J] * B[J, K_Y]", 0);
  MatmulSpec m;
  if (auto e = parse_array_at(s, m.a)) return *e;
  s.skip_spaces();
  if (!s.take('*')) {
    if (s.peek() == ']' || s.peek() == '}') return trailing(s, "");
    return s.error_here("needs * between the two arrays but got " + s.here());
  }
  if (auto e = parse_array_at(s, m.b)) return *e;
  s.skip_spaces();
  if (!s.at_end()) {
    if (s.peek() == ']' || s.peek() == '}') return trailing(s, "");
    if (s.peek() != '-' || s.peek_at(1) != '>') {
      return s.error_here("needs -> before the output array but got " + s.here());
    }
    s.advance();
    s.advance();
    m.c.emplace();
    if (auto e = parse_array_at(s, *m.c)) return *e;
    s.skip_spaces();
    if (!s.at_end()) return trailing(s, "the output array");
  }
  if (auto e = check_names(s, m)) return *e;
  return m;
}

std::optional<Error> check_axes(const ShardedArray& array, const Mesh& mesh,
                                const std::string& field) {
  auto unknown = [&](char axis, int position) {
    std::vector<std::string> names;
    for (const Axis& a : mesh.axes) names.emplace_back(1, a.name);
    return Error{ErrorCode::invalid_argument, field,
                 field + " uses mesh axis " + std::string(1, axis) + ", which the mesh (" +
                     join(names) + ") lacks, at character " + std::to_string(position),
                 position};
  };
  for (const ShardedDim& d : array.dims) {
    for (std::size_t k = 0; k < d.axes.size(); ++k) {
      if (!mesh.find(d.axes[k])) return unknown(d.axes[k], d.axis_positions[k]);
    }
  }
  for (std::size_t k = 0; k < array.unreduced.size(); ++k) {
    if (!mesh.find(array.unreduced[k])) {
      return unknown(array.unreduced[k], array.unreduced_positions[k]);
    }
  }
  return std::nullopt;
}

std::string array_text(const ShardedArray& array) {
  std::string out = array.name + "[";
  for (std::size_t i = 0; i < array.dims.size(); ++i) {
    const ShardedDim& d = array.dims[i];
    out += (i ? ", " : "") + d.name + (d.axes.empty() ? "" : "_" + d.axes);
  }
  out += "]";
  if (!array.unreduced.empty()) out += "{U_" + array.unreduced + "}";
  return out;
}

std::string partition_spec(const ShardedArray& array) {
  std::vector<std::string> parts;
  for (const ShardedDim& d : array.dims) {
    if (d.axes.empty()) {
      parts.emplace_back("None");
    } else if (d.axes.size() == 1) {
      parts.push_back("'" + d.axes + "'");
    } else {
      std::vector<std::string> quoted;
      for (char axis : d.axes) quoted.push_back(std::string("'") + axis + "'");
      parts.push_back("(" + join(quoted) + ")");
    }
  }
  return "P(" + join(parts) + ")";
}

}  // namespace scalebook
