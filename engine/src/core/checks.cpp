#include "scalebook/core/checks.h"

#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <string>

#include "scalebook/core/format.h"
#include "scalebook/core/units.h"

namespace scalebook {

bool parse_decimal(const std::string& text, double& out) {
  auto first = text.find_first_not_of(" \t");
  auto last = text.find_last_not_of(" \t");
  if (first == std::string::npos) return false;
  std::string s = text.substr(first, last - first + 1);
  for (char c : s) {
    bool ok = (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
    if (!ok) return false;
  }
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

namespace {}  // namespace

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

namespace {

// "16M", "8k", "2Gi": a number and a multiplier. k, M, G, T are powers of 1000, except for
// token counts, which the book and model cards count in powers of two (an 8k context is 8192
// tokens, a 4M batch 1024 x 4096); Ki, Mi, Gi, Ti are always powers of 1024.
bool parse_scaled(const std::string& text, bool tokens, double& out) {
  std::string s = text;
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.pop_back();
  bool binary = tokens;
  if (s.size() > 1 && s.back() == 'i') {
    binary = true;
    s.pop_back();
  }
  if (s.size() < 2) return false;
  const char* kPrefixes = "kMGT";
  const char suffix = s.back() == 'K' ? 'k' : s.back();
  int power = 0;
  for (int i = 0; kPrefixes[i]; ++i)
    if (suffix == kPrefixes[i]) power = i + 1;
  if (power == 0) return false;
  s.pop_back();
  double x = 0;
  if (!parse_decimal(s, x)) return false;
  out = x * std::pow(binary ? 1024.0 : 1000.0, power);
  return true;
}

// "15ms", "1.2 TB/s", "197 TFLOPS": a number and a unit of the input's own dimension, in its
// base unit (0.015 for a time in s). Nothing for a unit of another dimension: `mismatch` names
// the unit found, for the error.
bool parse_with_unit(const std::string& text, const std::string& base, double& out,
                     std::string& mismatch) {
  if (base.empty()) return false;
  std::size_t at = 0;
  while (at < text.size() && text[at] == ' ') ++at;
  std::size_t end = at;
  while (end < text.size() &&
         (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '.' ||
          ((text[end] == 'e' || text[end] == 'E') && end + 1 < text.size() &&
           (std::isdigit(static_cast<unsigned char>(text[end + 1])) || text[end + 1] == '-' ||
            text[end + 1] == '+')) ||
          ((text[end] == '-' || text[end] == '+') &&
           (end == at || text[end - 1] == 'e' || text[end - 1] == 'E'))))
    ++end;
  double x = 0;
  if (end == at || !parse_decimal(text.substr(at, end - at), x)) return false;
  std::string symbol = text.substr(end);
  while (!symbol.empty() && symbol.front() == ' ') symbol.erase(symbol.begin());
  while (!symbol.empty() && symbol.back() == ' ') symbol.pop_back();
  Result<Unit> unit = parse_unit(symbol);
  if (!unit.ok() || symbol.empty()) return false;
  if (base_symbol(unit.value().dimension) != base) {
    mismatch = symbol;
    return false;
  }
  out = x * unit.value().factor;
  return true;
}

std::string describe(const Value& v) {
  if (v.is_number()) return format_number(v.number);
  if (v.is_text()) return "\"" + v.text + "\"";
  return "nothing";
}

Error fail(ErrorCode code, const std::string& field, std::string message) {
  return Error{code, field, std::move(message)};
}

Result<Value> check_number(const InputSpec& spec, const Value& given) {
  double x = 0;
  if (given.is_number()) {
    x = given.number;
  } else if (std::string mismatch; !parse_decimal(given.text, x) &&
                                   !parse_scaled(given.text, spec.unit == "tokens", x) &&
                                   !parse_with_unit(given.text, spec.unit, x, mismatch)) {
    if (!mismatch.empty())
      return fail(ErrorCode::invalid_argument, spec.name,
                  spec.name + " is in " + spec.unit + ", got " + describe(given) + " (" + mismatch +
                      " is not a unit of it)");
    return fail(ErrorCode::invalid_argument, spec.name,
                spec.name + " must be a number, got " + describe(given));
  }
  // Text like 1e400 parses to infinity: say it is too large, in the reader's own digits.
  if (std::isinf(x) && given.is_text()) {
    return fail(ErrorCode::out_of_range, spec.name,
                spec.name + " is too " + (x > 0 ? "large" : "far below zero") +
                    ": numbers stop near " + (x > 0 ? "" : "-") + "1.8e308");
  }
  if (!std::isfinite(x)) {
    return fail(ErrorCode::invalid_argument, spec.name,
                spec.name + " must be a finite number, got " + format_number(x));
  }
  if (spec.kind == InputKind::count && x != std::floor(x)) {
    return fail(ErrorCode::invalid_argument, spec.name,
                spec.name + " must be a whole number, got " + format_number(x));
  }
  bool too_small = spec.min_exclusive ? x <= spec.min : x < spec.min;
  if (too_small) {
    return fail(ErrorCode::out_of_range, spec.name,
                spec.name + " must be " + (spec.min_exclusive ? "> " : ">= ") +
                    format_number(spec.min) + ", got " + format_number(x));
  }
  if (x > spec.max) {
    return fail(ErrorCode::out_of_range, spec.name,
                spec.name + " must be <= " + format_number(spec.max) + ", got " + format_number(x));
  }
  return Value::of(x);
}

Result<Value> check_choice(const InputSpec& spec, const Value& given) {
  if (given.is_text()) {
    for (const std::string& choice : spec.choices) {
      if (choice == given.text) return given;
    }
  }
  return fail(ErrorCode::invalid_argument, spec.name,
              spec.name + " must be one of " + join(spec.choices) + ", got " + describe(given));
}

// Any text up to kMaxTextLength characters; a number given for it is taken as its text.
Result<Value> check_text(const InputSpec& spec, const Value& given) {
  std::string text = given.is_number() ? format_number(given.number) : given.text;
  if (text.size() > static_cast<std::size_t>(kMaxTextLength)) {
    return fail(ErrorCode::invalid_argument, spec.name,
                spec.name + " must be at most " + std::to_string(kMaxTextLength) +
                    " characters, got " + std::to_string(text.size()));
  }
  return Value::of(std::move(text));
}

}  // namespace

Result<Value> check_input(const InputSpec& spec, const Value& given) {
  if (spec.kind == InputKind::choice) return check_choice(spec, given);
  if (spec.kind == InputKind::text) return check_text(spec, given);
  return check_number(spec, given);
}

const char* to_string(ErrorCode code) {
  switch (code) {
    case ErrorCode::invalid_argument:
      return "invalid_argument";
    case ErrorCode::out_of_range:
      return "out_of_range";
    case ErrorCode::not_found:
      return "not_found";
    case ErrorCode::unsupported:
      return "unsupported";
    case ErrorCode::internal:
      return "internal";
  }
  return "invalid_argument";
}

const char* to_string(InputGroup group) {
  switch (group) {
    case InputGroup::main:
      return "main";
    case InputGroup::override:
      return "override";
    case InputGroup::advanced:
      return "advanced";
  }
  return "main";
}

const char* to_string(InputKind kind) {
  switch (kind) {
    case InputKind::number:
      return "number";
    case InputKind::count:
      return "count";
    case InputKind::choice:
      return "choice";
    case InputKind::text:
      return "text";
  }
  return "number";
}

}  // namespace scalebook
