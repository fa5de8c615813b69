#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "scalebook/sharding/sharding.h"

namespace scalebook {
namespace {

bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alnum(char c) { return is_upper(c) || is_lower(c) || is_digit(c); }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string join(const std::vector<std::string>& items, const char* sep = ", ") {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : sep) + item;
  return out;
}

// A read position over the text, and errors that point into it.
class Scanner {
 public:
  Scanner(std::string_view text, const std::string& field) : text_(text), field_(field) {}

  bool at_end() const { return i_ >= text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[i_]; }
  char peek_at(std::size_t ahead) const {
    return i_ + ahead < text_.size() ? text_[i_ + ahead] : '\0';
  }
  int pos() const { return static_cast<int>(i_); }
  void advance() { ++i_; }
  void skip_spaces() {
    while (!at_end() && is_space(text_[i_])) ++i_;
  }
  bool take(char c) {
    if (peek() != c || at_end()) return false;
    ++i_;
    return true;
  }
  std::string_view slice(int from, int to) const {
    return text_.substr(static_cast<std::size_t>(from), static_cast<std::size_t>(to - from));
  }
  const std::string& field() const { return field_; }

  // The character here, for messages: "\"x\"", "the end", or "a control character".
  std::string here() const {
    if (at_end()) return "the end";
    char c = peek();
    if (c < ' ' || c > '~') return "a control character";
    return std::string("\"") + c + "\"";
  }

  Error error(const std::string& message, int position) const {
    return Error{ErrorCode::invalid_argument, field_,
                 field_ + " " + message + " at character " + std::to_string(position), position};
  }
  Error error_here(const std::string& message) const { return error(message, pos()); }

 private:
  std::string_view text_;
  std::string field_;
  std::size_t i_ = 0;
};

// Refuses over-long and non-ASCII text before any parsing.
std::optional<Error> check_text(std::string_view text, const Scanner& s) {
  if (text.size() > kMaxSpecLength) {
    return s.error("is longer than " + std::to_string(kMaxSpecLength) + " characters",
                   static_cast<int>(kMaxSpecLength));
  }
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (static_cast<unsigned char>(text[i]) >= 0x80) {
      return s.error("must be plain ASCII; it has a non-ASCII character", static_cast<int>(i));
    }
  }
  return std::nullopt;
}

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

// Text left over after a complete array or spec.
Error trailing(const Scanner& s, const std::string& after) {
  char c = s.peek();
  if (c == ']') return s.error_here("has a ] with no opening [");
  if (c == '}') return s.error_here("has a } with no opening {");
  return s.error_here("has " + s.here() + " after " + after);
}

Result<Mesh> parse_shape(Scanner& s) {
  static const char kNames[] = {'X', 'Y', 'Z'};
  Mesh mesh;
  while (true) {
    s.skip_spaces();
    int start = s.pos();
    std::int64_t size = 0;
    bool huge = false;
    while (is_digit(s.peek())) {
      size = size * 10 + (s.peek() - '0');
      if (size > kMaxMeshDevices) {
        huge = true;
        size = kMaxMeshDevices + 1;
      }
      s.advance();
    }
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
    mesh.axes.push_back({name, size, start});
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
  std::int64_t size = 0;
  bool huge = false;
  while (is_digit(s.peek())) {
    size = size * 10 + (s.peek() - '0');
    if (size > kMaxMeshDevices) {
      huge = true;
      size = kMaxMeshDevices + 1;
    }
    s.advance();
  }
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
  mesh.axes.push_back({axis, size, start});
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
  for (const MeshAxis& a : axes) n *= a.size;
  return n;
}

const MeshAxis* Mesh::find(char name) const {
  for (const MeshAxis& a : axes) {
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
  std::vector<std::string> names;
  for (const MeshAxis& a : mesh.axes) names.emplace_back(1, a.name);
  auto unknown = [&](char axis, int position) {
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

std::string mesh_text(const Mesh& mesh) {
  std::vector<std::string> parts;
  for (const MeshAxis& a : mesh.axes)
    parts.push_back(std::string(1, a.name) + "=" + std::to_string(a.size));
  return join(parts);
}

std::int64_t axes_size(const std::string& axes, const Mesh& mesh) {
  std::int64_t n = 1;
  for (char axis : axes) {
    const MeshAxis* a = mesh.find(axis);
    if (a) n *= a->size;
  }
  return n;
}

}  // namespace scalebook
