#include "scalebook/exercises/answer.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <vector>

#include "scalebook/core/format.h"

namespace scalebook {
namespace {

constexpr std::size_t kMaxChars = 200;
constexpr long kMaxExponent = 100000;  // larger exponents saturate: the value is inf or 0

Error answer_error(std::string message) {
  return Error{ErrorCode::invalid_argument, "answer", std::move(message)};
}

Error not_a_number(std::string_view shown) {
  return answer_error("\"" + std::string(shown) + "\" is not a number");
}

// ---- Text hygiene: length, UTF-8, control characters, spaces, look-alike characters.

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// Characters, counting each UTF-8 sequence once.
std::size_t char_count(std::string_view s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

// Length of the well-formed UTF-8 sequence at s[i], with its code point; 0 when malformed
// (bad bytes, overlong forms, surrogates, beyond U+10FFFF).
std::size_t decode(std::string_view s, std::size_t i, std::uint32_t& cp) {
  auto byte = [&](std::size_t k) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(s[i + k]));
  };
  std::uint32_t b0 = byte(0);
  std::size_t len = b0 < 0x80           ? 1
                    : (b0 >> 5) == 0x6  ? 2
                    : (b0 >> 4) == 0xE  ? 3
                    : (b0 >> 3) == 0x1E ? 4
                                        : 0;
  if (len == 0 || i + len > s.size()) return 0;
  cp = len == 1 ? b0 : b0 & (0x7Fu >> len);
  for (std::size_t k = 1; k < len; ++k) {
    if ((byte(k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(k) & 0x3F);
  }
  constexpr std::uint32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kSmallest[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

bool valid_utf8(std::string_view s) {
  std::uint32_t cp = 0;
  for (std::size_t i = 0; i < s.size();) {
    std::size_t len = decode(s, i, cp);
    if (len == 0) return false;
    i += len;
  }
  return true;
}

bool has_control(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](char c) {
    auto u = static_cast<unsigned char>(c);
    return (u < 0x20 && !is_space(c)) || u == 0x7F;
  });
}

// Superscript digits and signs as their ASCII character, else 0.
char superscript(std::uint32_t cp) {
  switch (cp) {
    case 0x00B9:
      return '1';
    case 0x00B2:
      return '2';
    case 0x00B3:
      return '3';
    case 0x207A:
      return '+';
    case 0x207B:
      return '-';
    default:
      break;
  }
  if (cp == 0x2070 || (cp >= 0x2074 && cp <= 0x2079)) return static_cast<char>('0' + (cp - 0x2070));
  return 0;
}

// Look-alikes a reader may paste from a page, as the ASCII the grammar reads; else 0.
char ascii_for(std::uint32_t cp) {
  switch (cp) {
    case 0x2212:  // minus sign
      return '-';
    case 0x00D7:  // multiplication sign
      return 'x';
    case 0x00B7:  // middle dot
    case 0x22C5:  // dot operator
      return '*';
    case 0x00A0:  // no-break space
    case 0x2009:  // thin space
    case 0x202F:  // narrow no-break space
      return ' ';
    default:
      return 0;
  }
}

// Rewrites look-alikes to ASCII and a run of superscripts "¹⁴" to "^14". Input is valid UTF-8.
std::string normalise(std::string_view s) {
  std::string out;
  bool in_superscript = false;
  for (std::size_t i = 0; i < s.size();) {
    std::uint32_t cp = 0;
    std::size_t len = std::max<std::size_t>(decode(s, i, cp), 1);
    char sup = superscript(cp);
    if (sup != 0) {
      if (!in_superscript) out += '^';
      out += sup;
    } else if (char ascii = ascii_for(cp); ascii != 0) {
      out += ascii;
    } else {
      out.append(s.substr(i, len));
    }
    in_superscript = sup != 0;
    i += len;
  }
  return out;
}

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

// A multiplier k K M G T P standing alone after the number: "1.5k", "2 M tokens".
long read_multiplier(Cursor& c) {
  static constexpr std::string_view kLetters = "kKMGTP";
  static constexpr long kExponents[] = {3, 3, 6, 9, 12, 15};
  if (c.at_end()) return 0;
  std::size_t at = kLetters.find(c.peek());
  if (at == std::string_view::npos) return 0;
  if (c.i + 1 < c.s.size() && !is_space(c.peek(1))) return 0;
  ++c.i;
  c.skip_spaces();
  return kExponents[at];
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

// The part after the number, as a unit: none, a known unit, or why not.
Result<Quantity> read_unit(std::string_view text, bool attached, std::string_view shown) {
  Quantity q;
  if (text.empty()) return q;
  std::string unit = squeeze_slash(text);
  bool has_digit = std::any_of(unit.begin(), unit.end(), is_digit);
  if (has_digit || !starts_like_unit(unit)) return not_a_number(shown);
  Result<Unit> parsed = parse_unit(unit);
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
  long scale = read_multiplier(c);
  number.value().exponent += scale;
  Result<Quantity> q = read_unit(c.rest(), attached && scale == 0, shown);
  if (!q.ok()) return q;
  double value = number.value().value();
  if (!std::isfinite(value) || !std::isfinite(value * q.value().unit.factor)) {
    return answer_error("the number must be finite");
  }
  q.value().value = value;
  return q;
}

// ---- Grading.

const char* described(Dimension d) {
  switch (d) {
    case Dimension::count:
      return "a count";
    case Dimension::time:
      return "a time";
    case Dimension::bytes:
      return "an amount of data";
    case Dimension::flops:
      return "a FLOP count";
    case Dimension::bandwidth:
      return "a bandwidth";
    case Dimension::flop_rate:
      return "a FLOP rate";
    case Dimension::intensity:
      return "an arithmetic intensity";
  }
  return "a count";
}

std::string wrong_unit(const Unit& expected, const Unit& given) {
  std::string asked = expected.symbol.empty()
                          ? std::string("expected a plain number")
                          : expected.symbol + " is " + described(expected.dimension);
  return asked + ", but this answer is " + described(given.dimension) + " (" + given.symbol + ")";
}

bool within(double value, double expected, Tolerance tol) {
  double rel = std::isfinite(tol.rel) ? std::max(tol.rel, 0.0) : 0.0;
  double abs = std::isfinite(tol.abs) ? std::max(tol.abs, 0.0) : 0.0;
  double bound = std::max(abs, rel * std::fabs(expected));
  double slack = 1e-12 * std::max(std::fabs(value), std::fabs(expected));
  return std::fabs(value - expected) <= bound + slack;
}

struct Slip {
  double ratio;
  const char* name;
  std::string feedback;
};

// The known slips; GB vs GiB only for quantities of bytes (a count 5% off is not one).
std::vector<Slip> slips(Dimension dimension) {
  bool bytes = dimension == Dimension::bytes || dimension == Dimension::bandwidth;
  const std::string prefix_hint = ": check the unit prefix";
  std::vector<Slip> list;
  for (int k = 1; k <= 4; ++k) {
    double thousand = std::pow(1000.0, k);
    double kibi = std::pow(1024.0, k);
    double binary = std::pow(1.024, k);
    std::string by_1000 = "off by a factor of " + format_number(thousand) + prefix_hint;
    std::string power = k == 1 ? "" : "^" + std::to_string(k);
    std::string by_1024 = "off by a factor of 1024" + power + prefix_hint;
    std::string si = "close, but that looks like GB vs GiB (powers of 1000 vs 1024)";
    list.push_back({thousand, "prefix-1000", by_1000});
    list.push_back({1 / thousand, "prefix-1000", by_1000});
    list.push_back({kibi, "prefix-1024", by_1024});
    list.push_back({1 / kibi, "prefix-1024", by_1024});
    if (!bytes) continue;
    list.push_back({binary, "si-vs-binary", si});
    list.push_back({1 / binary, "si-vs-binary", si});
  }
  std::string two =
      "off by a factor of 2: uni- vs bidirectional, or counting a multiply-add as one FLOP?";
  std::string eight = "off by a factor of 8: bits vs bytes?";
  list.push_back({2, "factor-2", two});
  list.push_back({0.5, "factor-2", two});
  list.push_back({8, "bits-vs-bytes", eight});
  list.push_back({0.125, "bits-vs-bytes", eight});
  return list;
}

// The known slip nearest to ratio = value / expected, if within max(rel, 1%) of it.
const Slip* find_slip(const std::vector<Slip>& list, double ratio, double rel) {
  if (!(ratio > 0) || !std::isfinite(ratio)) return nullptr;
  double tol = std::isfinite(rel) ? std::max(rel, 0.01) : 0.01;
  const Slip* best = nullptr;
  for (const Slip& slip : list) {
    if (std::fabs(ratio / slip.ratio - 1) > tol) continue;
    double distance = std::fabs(std::log(ratio / slip.ratio));
    if (best == nullptr || distance < std::fabs(std::log(ratio / best->ratio))) best = &slip;
  }
  return best;
}

}  // namespace

Result<Quantity> parse_answer(std::string_view text) {
  if (char_count(text) > kMaxChars) return answer_error("the answer is too long");
  if (!valid_utf8(text)) return answer_error("the answer is not valid text");
  if (has_control(text)) return answer_error("the answer contains a control character");
  std::string_view shown = trim(text);
  std::string normal = normalise(shown);
  std::string_view body = trim(normal);
  if (body.empty()) return answer_error("enter a number");
  return read_quantity(body, shown);
}

Grade grade_answer(std::string_view text, double expected, const Unit& unit, Tolerance tol) {
  Grade grade;
  Result<Quantity> read = parse_answer(text);
  if (!read.ok()) {
    grade.feedback = read.error().message;
    return grade;
  }
  grade.parsed = true;
  const Quantity& q = read.value();
  if (q.has_unit && q.unit.dimension != unit.dimension) {
    grade.slip = "wrong-unit";
    grade.feedback = wrong_unit(unit, q.unit);
    return grade;
  }
  double value = q.has_unit ? q.value * (q.unit.factor / unit.factor) : q.value;
  if (!std::isfinite(value)) {
    grade.feedback = "not quite";
    return grade;
  }
  grade.value = value;
  grade.correct = within(value, expected, tol);
  if (grade.correct) {
    grade.feedback = "correct";
    return grade;
  }
  std::vector<Slip> list = slips(unit.dimension);
  const Slip* slip = expected == 0 ? nullptr : find_slip(list, value / expected, tol.rel);
  grade.feedback = slip ? slip->feedback : "not quite";
  grade.slip = slip ? slip->name : "";
  return grade;
}

}  // namespace scalebook
