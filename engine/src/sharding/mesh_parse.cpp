// The mesh half of sharding.h's notation; arrays and matmuls are sharding_parse.cpp's.
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
using sharding_scanner::is_digit;
using sharding_scanner::is_upper;
using sharding_scanner::join;
using sharding_scanner::Scanner;
using sharding_scanner::trailing;

Result<Mesh> parse_shape(Scanner& s) {
  static const char kNames[] = {'X', 'Y', 'Z'};
  Mesh mesh;
  while (true) {
    s.skip_spaces();
    int start = s.pos();
    bool huge = false;
    std::int64_t size = s.digits(kMaxMeshDevices, huge);
    if (s.pos() == start) return s.error_here("needs a size (a whole number) but got " + s.here());
    if (mesh.axes.size() == 3) {
      return s.error("shape has more than 3 axes (a slice shape names them X, Y, Z)", start);
    }
    char name = kNames[mesh.axes.size()];
    if (size == 0) {
      return s.error(std::string("axis ") + name + " must have a size of at least 1, got 0", start);
    }
    if (huge || mesh.devices() * size > kMaxMeshDevices) {
      return s.error("must have at most " + std::to_string(kMaxMeshDevices) + " devices", start);
    }
    mesh.axes.push_back({name, size, false, 1, start});
    s.skip_spaces();
    if (s.at_end()) return mesh;
    if (!s.take('x')) return s.error_here("needs x between sizes, like 4x4x4, but got " + s.here());
  }
}

// One "X=4" (or "X: 4", "'X': 4") entry of a named mesh.
std::optional<Error> parse_mesh_entry(Scanner& s, Mesh& mesh) {
  char quote = (s.peek() == '\'' || s.peek() == '"') ? s.peek() : '\0';
  int quote_at = s.pos();
  if (quote) s.advance();
  int start = s.pos();
  while (is_alnum(s.peek()) || s.peek() == '_') s.advance();
  std::string_view name = s.slice(start, s.pos());
  if (name.empty()) return s.error_here("needs an axis name like X but got " + s.here());
  if (name.size() != 1 || !is_upper(name[0])) {
    return s.error("axis names are single upper-case letters, got \"" + std::string(name) + "\"",
                   start);
  }
  if (quote && !s.take(quote)) {
    return s.error(std::string("has a ") + quote + " with no closing " + quote, quote_at);
  }
  const char axis = name[0];
  if (mesh.find(axis)) return s.error(std::string("has axis ") + axis + " twice", start);
  if (mesh.axes.size() == kMaxMeshAxes) {
    return s.error("has more than " + std::to_string(kMaxMeshAxes) + " axes", start);
  }
  s.skip_spaces();
  if (!s.take('=') && !s.take(':')) {
    return s.error_here(std::string("needs = or : after axis ") + axis + " but got " + s.here());
  }
  s.skip_spaces();
  int size_at = s.pos();
  bool huge = false;
  std::int64_t size = s.digits(kMaxMeshDevices, huge);
  const std::string axis_name(1, axis);
  if (s.pos() == size_at) {
    return s.error_here("axis " + axis_name + " needs a size (a whole number) but got " + s.here());
  }
  if (s.peek() == '.' || s.peek() == 'e' || s.peek() == 'E') {
    while (is_alnum(s.peek()) || s.peek() == '.' || s.peek() == '+' || s.peek() == '-') {
      s.advance();
    }
    return s.error("axis " + axis_name + " must have a whole-number size, got " +
                       std::string(s.slice(size_at, s.pos())),
                   size_at);
  }
  if (size == 0) {
    return s.error("axis " + axis_name + " must have a size of at least 1, got 0", size_at);
  }
  if (huge || mesh.devices() * size > kMaxMeshDevices) {
    return s.error("must have at most " + std::to_string(kMaxMeshDevices) + " devices", size_at);
  }
  mesh.axes.push_back({axis, size, false, 1, start});
  return std::nullopt;
}

Result<Mesh> parse_named_mesh(Scanner& s) {
  Mesh mesh;
  int brace = -1;
  if (s.peek() == '{') {
    brace = s.pos();
    s.advance();
  }
  while (true) {
    s.skip_spaces();
    if (brace >= 0 && s.take('}')) break;
    if (s.at_end()) {
      if (brace >= 0) return s.error("has a { with no closing }", brace);
      if (mesh.axes.empty()) return s.error_here("needs an axis name like X but got the end");
      break;
    }
    if (auto e = parse_mesh_entry(s, mesh)) return *e;
    s.skip_spaces();
    if (s.take(',')) continue;
    if (brace >= 0 && s.take('}')) break;
    if (s.at_end()) {
      if (brace >= 0) return s.error("has a { with no closing }", brace);
      break;
    }
    if (s.peek() == '}') return s.error_here("has a } with no opening {");
    return s.error_here("needs , between axes but got " + s.here());
  }
  if (mesh.axes.empty()) return s.error("has no axes; write it like X=4, Y=8", brace);
  s.skip_spaces();
  if (!s.at_end()) return trailing(s, "the mesh");
  return mesh;
}

}  // namespace

std::int64_t Mesh::devices() const {
  std::int64_t n = 1;
  for (const Axis& a : axes) n *= a.size;
  return n;
}

const Axis* Mesh::find(char name) const {
  for (const Axis& a : axes) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

Result<Mesh> parse_mesh(std::string_view text, const std::string& field) {
  Scanner s(text, field);
  if (auto e = check_text(text, s)) return *e;
  s.skip_spaces();
  if (s.at_end()) return s.error("is empty; write it like X=4, Y=8", 0);
  if (is_digit(s.peek())) return parse_shape(s);
  return parse_named_mesh(s);
}

std::string mesh_text(const Mesh& mesh) {
  std::vector<std::string> parts;
  for (const Axis& a : mesh.axes)
    parts.push_back(std::string(1, a.name) + "=" + std::to_string(a.size));
  return join(parts);
}

std::int64_t axes_size(const std::string& axes, const Mesh& mesh) {
  std::int64_t n = 1;
  for (char axis : axes) {
    const Axis* a = mesh.find(axis);
    if (a) n *= a->size;
  }
  return n;
}

}  // namespace scalebook
