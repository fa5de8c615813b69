#include "scalebook/exercises/answer.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <vector>

#include "answer_text.h"
#include "scalebook/core/format.h"
#include "unit_words.h"

namespace scalebook {
namespace {

using answer_text::has_control;
using answer_text::is_space;
using answer_text::normalise;
using answer_text::too_long;
using answer_text::trim;
using answer_text::valid_utf8;
constexpr long kMaxExponent = 100000;  // larger exponents saturate: the value is inf or 0

Error answer_error(std::string message) {
  return Error{ErrorCode::invalid_argument, "answer", std::move(message)};
}

Error not_a_number(std::string_view shown) {
  return answer_error("\"" + std::string(shown) + "\" is not a number");
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// "nan", "inf", "Infinity", "∞" (after any sign), alone or before a space.
bool names_non_finite(std::string_view s) {
  std::string word(s.substr(0, std::min(s.find(' '), s.size())));
  for (char& c : word) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return word == "nan" || word == "inf" || word == "infinity" || word == "\u221e";
}

// ---- The number grammar.

struct Cursor {
  std::string_view s;
  std::size_t i = 0;

  char peek(std::size_t k = 0) const { return i + k < s.size() ? s[i + k] : '\0'; }
  bool digit_at(std::size_t k = 0) const { return is_digit(peek(k)); }
  bool at_end() const { return i >= s.size(); }
  std::string_view rest() const { return s.substr(std::min(i, s.size())); }
  bool skip_spaces() {
    std::size_t start = i;
    while (i < s.size() && is_space(s[i])) ++i;
    return i != start;
  }
  std::string_view digits() {
    std::size_t start = i;
    while (digit_at()) ++i;
    return s.substr(start, i - start);
  }
  bool take(std::string_view token) {
    if (!rest().starts_with(token)) return false;
    i += token.size();
    return true;
  }
};

enum class Read { ok, not_a_number, comma_decimal };

// Digits with optional thousands separators and an optional fraction, appended to `out`
// without the commas: "1,000.5" -> "1000.5".
Read read_mantissa(Cursor& c, std::string& out) {
  std::string_view whole = c.digits();
  out.append(whole);
  if (!whole.empty() && c.peek() == ',' && c.digit_at(1)) {
    bool grouped = whole.size() <= 3;
    int groups = 0;
    while (c.peek() == ',' && c.digit_at(1)) {
      ++c.i;
      std::string_view group = c.digits();
      grouped = grouped && group.size() == 3;
      out.append(group);
      ++groups;
    }
    if (!grouped) return groups == 1 ? Read::comma_decimal : Read::not_a_number;
  }
  bool has_digits = !whole.empty();
  if (c.peek() == '.') {
    ++c.i;
    std::string_view fraction = c.digits();
    out += '.';
    out.append(fraction);
    has_digits = has_digits || !fraction.empty();
  }
  return has_digits ? Read::ok : Read::not_a_number;
}

// [+-]digits; saturates at kMaxExponent. Leaves the cursor alone when there is none.
std::optional<long> read_exponent(Cursor& c) {
  Cursor start = c;
  long sign = 1;
  if (c.peek() == '+' || c.peek() == '-') {
    sign = c.peek() == '-' ? -1 : 1;
    ++c.i;
  }
  std::string_view d = c.digits();
  if (d.empty()) {
    c = start;
    return std::nullopt;
  }
  long value = 0;
  for (char ch : d) value = std::min(value * 10 + (ch - '0'), kMaxExponent);
  return sign * value;
}

// "e14" right after the mantissa.
std::optional<long> read_e_exponent(Cursor& c) {
  if (c.peek() != 'e' && c.peek() != 'E') return std::nullopt;
  Cursor start = c;
  ++c.i;
  std::optional<long> e = read_exponent(c);
  if (!e) c = start;
  return e;
}

// " ^ 14" or "**14": a power of the mantissa.
std::optional<long> read_power(Cursor& c) {
  Cursor start = c;
  c.skip_spaces();
  if (c.take("^") || c.take("**")) {
    c.skip_spaces();
    if (std::optional<long> p = read_exponent(c)) return p;
  }
  c = start;
  return std::nullopt;
}

// " x 10^14", "*10**14": a power of ten.
std::optional<long> read_times_ten(Cursor& c) {
  Cursor start = c;
  c.skip_spaces();
  if (c.take("x") || c.take("*")) {
    c.skip_spaces();
    if (c.take("10")) {
      if (std::optional<long> p = read_power(c)) return p;
    }
  }
  c = start;
  return std::nullopt;
}

// A multiplier k K M G T P standing alone after the number: "1.5k", "2 M tokens"; the
// letter, or 0.
char read_multiplier(Cursor& c) {
  if (c.at_end() || answer_text::multiplier_power(c.peek()) == 0) return 0;
  if (c.i + 1 < c.s.size() && !is_space(c.peek(1))) return 0;
  char letter = c.peek();
  ++c.i;
  c.skip_spaces();
  return letter;
}

// "GB / s" -> "GB/s".
std::string squeeze_slash(std::string_view unit) {
  std::string out;
  for (std::size_t i = 0; i < unit.size(); ++i) {
    if (unit[i] != '/') {
      out += unit[i];
      continue;
    }
    while (!out.empty() && is_space(out.back())) out.pop_back();
    out += '/';
    while (i + 1 < unit.size() && is_space(unit[i + 1])) ++i;
  }
  return out;
}

bool starts_like_unit(std::string_view unit) {
  return is_letter(unit.front()) || unit.starts_with("\u00b5") || unit.starts_with("\u03bc");
}

// The part after the number, as a unit: none, a percentage, a known unit (as a symbol or
// spelled out), or why not.
Result<Quantity> read_unit(std::string_view text, bool attached, std::string_view shown) {
  Quantity q;
  if (text.empty()) return q;
  if (text == "%" || unit_words::is_percent_word(text)) {
    q.has_unit = true;
    q.unit = Unit{"%", Dimension::count, 0.01};
    return q;
  }
  std::string unit = squeeze_slash(text);
  bool has_digit = std::any_of(unit.begin(), unit.end(), is_digit);
  if (has_digit || !starts_like_unit(unit)) return not_a_number(shown);
  Result<Unit> parsed = parse_unit(unit);
  if (!parsed.ok()) {
    if (std::optional<std::string> symbol = unit_words::symbol_for(unit)) {
      parsed = parse_unit(*symbol);
    }
  }
  if (!parsed.ok()) {
    // "5e", "5eggs": a broken exponent more likely than a unit.
    if (attached && (unit.front() == 'e' || unit.front() == 'E')) return not_a_number(shown);
    return answer_error("unknown unit \"" + unit + "\"");
  }
  q.has_unit = true;
  q.unit = parsed.value();
  return q;
}

// A number as read: mantissa x 10^exponent, or mantissa^power x 10^exponent.
struct Written {
  bool negative = false;
  std::string mantissa;  // digits and a point, for strtod: "1000.5"
  long exponent = 0;
  std::optional<long> power;

  double value() const {
    double v = 0;
    if (power) {
      double base = std::strtod(mantissa.c_str(), nullptr);
      std::string scale = "1e" + std::to_string(exponent);
      v = std::pow(base, static_cast<double>(*power)) * std::strtod(scale.c_str(), nullptr);
    } else {
      std::string decimal = mantissa + "e" + std::to_string(exponent);  // one rounding
      v = std::strtod(decimal.c_str(), nullptr);
    }
    return negative ? -v : v;
  }
};

// The sign, the digits and any exponent or power: "-1,000.5", "1.97 x 10^14", "2^14".
Result<Written> read_number(Cursor& c, std::string_view shown) {
  Written w;
  w.negative = c.peek() == '-';
  if (c.peek() == '+' || c.peek() == '-') ++c.i;
  if (names_non_finite(c.rest())) return answer_error("the number must be finite");
  switch (read_mantissa(c, w.mantissa)) {
    case Read::comma_decimal:
      return answer_error("use a point for decimals: \"" + std::string(shown) + "\"");
    case Read::not_a_number:
      return not_a_number(shown);
    case Read::ok:
      break;
  }
  std::optional<long> e = read_e_exponent(c);
  if (!e) w.power = read_power(c);
  if (w.power && w.mantissa == "10") {  // exactly as a decimal: "10^-3" is 1e-3
    std::swap(e, w.power);
    w.mantissa = "1";
  }
  if (!e && !w.power) e = read_times_ten(c);
  w.exponent = e.value_or(0);
  return w;
}

// The whole grammar over normalised text; `shown` is the reader's text for messages.
Result<Quantity> read_quantity(std::string_view text, std::string_view shown) {
  Cursor c{text};
  Result<Written> number = read_number(c, shown);
  if (!number.ok()) return number.error();
  bool attached = !c.skip_spaces();
  char multiplier = read_multiplier(c);
  number.value().exponent += 3 * answer_text::multiplier_power(multiplier);
  Result<Quantity> q = read_unit(c.rest(), attached && multiplier == 0, shown);
  if (!q.ok()) return q;
  q.value().multiplier = multiplier;
  double value = number.value().value();
  if (!std::isfinite(value) || !std::isfinite(value * q.value().unit.factor)) {
    return answer_error("the number must be finite");
  }
  q.value().value = value;
  return q;
}

}  // namespace

Result<Quantity> parse_answer(std::string_view text) {
  if (too_long(text, kMaxAnswerChars)) return answer_error("the answer is too long");
  if (!valid_utf8(text)) return answer_error("the answer is not valid text");
  if (has_control(text)) return answer_error("the answer contains a control character");
  std::string_view shown = trim(text);
  std::string normal = normalise(shown);
  std::string_view body = trim(normal);
  if (body.starts_with('~')) body = trim(body.substr(1));  // "~240": the number is the answer
  if (body.empty()) return answer_error("enter a number");
  return read_quantity(body, shown);
}

}  // namespace scalebook
