// The hot half of the marshaller: a calculation's JSON text written straight into a string,
// with nlohmann's own shortest round-trip number formatting, so the text is what
// nlohmann::dump would print for the same object. Building nlohmann's tree first cost more
// than the calculation itself on every WASM call.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "scalebook/core/json.h"

namespace scalebook {
namespace {

// The text being written: a plain buffer whose appends inline. std::string's members are not
// inlined under emscripten (libc++ instantiates them once), so a call per character or key
// was most of a calculation's marshalling in WASM.
class Out {
 public:
  void put(char c) {
    if (size_ == capacity_) grow(1);
    data_[size_++] = c;
  }
  void put(const char* s, std::size_t n) {
    if (size_ + n > capacity_) grow(n);
    std::memcpy(data_.get() + size_, s, n);
    size_ += n;
  }
  void put(std::string_view s) { put(s.data(), s.size()); }
  std::string str() const { return std::string(data_.get(), size_); }

 private:
  void grow(std::size_t n) {
    const std::size_t capacity = std::max(2 * capacity_, size_ + n + 1024);
    auto data = std::make_unique<char[]>(capacity);
    if (size_) std::memcpy(data.get(), data_.get(), size_);
    data_ = std::move(data);
    capacity_ = capacity;
  }
  std::unique_ptr<char[]> data_;
  std::size_t size_ = 0, capacity_ = 0;
};

void number(Out& out, double x) {
  if (!std::isfinite(x)) {
    out.put(std::string_view("null"));
    return;
  }
  char buffer[64];
  char* end = nlohmann::detail::to_chars(buffer, buffer + sizeof buffer, x);
  out.put(buffer, static_cast<std::size_t>(end - buffer));
}

// Length of the valid UTF-8 sequence at s[i], or 0.
std::size_t utf8_length(std::string_view s, std::size_t i) {
  auto byte = [&](std::size_t k) { return static_cast<std::uint8_t>(s[k]); };
  std::uint8_t c = byte(i);
  std::size_t n = c < 0x80           ? 1
                  : (c >> 5) == 0x6  ? 2
                  : (c >> 4) == 0xE  ? 3
                  : (c >> 3) == 0x1E ? 4
                                     : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((byte(i + k) >> 6) != 0x2) return 0;
  std::uint32_t cp = n == 1 ? c : c & (0x7F >> n);
  for (std::size_t k = 1; k < n; ++k) cp = (cp << 6) | (byte(i + k) & 0x3F);
  bool overlong = (n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000);
  if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

// Escaped as nlohmann does (ensure_ascii off); invalid UTF-8 becomes U+FFFD, as its
// `replace` error handler does.
void text(Out& out, std::string_view s) {
  out.put('"');
  for (std::size_t i = 0; i < s.size();) {
    // A run that needs no escaping goes in with one append: std::string's members are not
    // inlined under emscripten (libc++ instantiates them once), so a call per byte costs.
    std::size_t run = i;
    while (run < s.size()) {
      auto b = static_cast<std::uint8_t>(s[run]);
      if (b < 0x20 || b >= 0x80 || b == '"' || b == '\\') break;
      ++run;
    }
    if (run > i) {
      out.put(s.data() + i, run - i);
      i = run;
      continue;
    }
    char c = s[i];
    switch (c) {
      case '"':
        out.put(std::string_view("\\\""));
        ++i;
        continue;
      case '\\':
        out.put(std::string_view("\\\\"));
        ++i;
        continue;
      case '\b':
        out.put(std::string_view("\\b"));
        ++i;
        continue;
      case '\f':
        out.put(std::string_view("\\f"));
        ++i;
        continue;
      case '\n':
        out.put(std::string_view("\\n"));
        ++i;
        continue;
      case '\r':
        out.put(std::string_view("\\r"));
        ++i;
        continue;
      case '\t':
        out.put(std::string_view("\\t"));
        ++i;
        continue;
      default:
        break;
    }
    if (static_cast<std::uint8_t>(c) < 0x20) {
      static const char* const hex = "0123456789abcdef";
      out.put(std::string_view("\\u00"));
      out.put(hex[(c >> 4) & 0xF]);
      out.put(hex[c & 0xF]);
      ++i;
      continue;
    }
    std::size_t n = utf8_length(s, i);
    if (n == 0) {
      out.put(std::string_view("\xEF\xBF\xBD"));
      ++i;
      continue;
    }
    out.put(s.data() + i, n);
    i += n;
  }
  out.put('"');
}

void value(Out& out, const Value& v) {
  if (v.is_number())
    number(out, v.number);
  else if (v.is_text())
    text(out, v.text);
  else
    out.put(std::string_view("null"));
}

void key(Out& out, bool& first, std::string_view name) {
  if (!first) out.put(',');
  first = false;
  text(out, name);
  out.put(':');
}

void steps(Out& out, const std::vector<Step>& steps) {
  out.put('[');
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const Step& s = steps[i];
    if (i) out.put(',');
    bool first = true;
    out.put('{');
    key(out, first, "label"), text(out, s.label);
    key(out, first, "latex"), text(out, s.latex);
    key(out, first, "value"), number(out, s.value);
    key(out, first, "unit"), text(out, s.unit);
    key(out, first, "output"), text(out, s.output);
    key(out, first, "depends");
    out.put('[');
    for (std::size_t d = 0; d < s.depends.size(); ++d) {
      if (d) out.put(',');
      text(out, s.depends[d]);
    }
    out.put(std::string_view("]}"));
  }
  out.put(']');
}

}  // namespace

std::string steps_text(const std::vector<Step>& list) {
  Out out;
  steps(out, list);
  return out.str();
}

std::string calculation_text(const Calculation& calc, bool explain) {
  Out out;
  out.put('{');
  bool first = true;
  for (const auto& [name, v] : calc.outputs) key(out, first, name), value(out, v);
  for (const auto& [name, table] : calc.tables) {
    key(out, first, name);
    out.put('[');
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
      if (r) out.put(',');
      out.put('{');
      bool first_cell = true;
      const auto& row = table.rows[r];
      for (std::size_t i = 0; i < row.size() && i < table.columns.size(); ++i)
        key(out, first_cell, table.columns[i]), value(out, row[i]);
      out.put('}');
    }
    out.put(']');
  }
  bool first_absent = true;
  for (const auto& [name, v] : calc.outputs) {
    if (!v.is_none()) continue;
    if (first_absent) key(out, first, "absent"), out.put('{');
    key(out, first_absent, name), text(out, v.text);
  }
  if (!first_absent) out.put('}');
  if (explain) key(out, first, "steps"), steps(out, calc.steps);
  out.put('}');
  return out.str();
}

}  // namespace scalebook
