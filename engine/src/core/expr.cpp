#include "scalebook/core/expr.h"

#include <cctype>
#include <cstdlib>

#include "scalebook/core/format.h"

namespace scalebook {
namespace {

// Recursive descent with one token of lookahead; depth-limited so hostile input cannot
// exhaust the stack.
class Parser {
 public:
  Parser(std::string_view text, const NameLookup& lookup) : text_(text), lookup_(lookup) {}

  Result<double> parse() {
    double value = logical_or();
    skip_space();
    if (!failed_ && pos_ < text_.size()) fail("unexpected \"" + std::string(1, text_[pos_]) + "\"");
    if (failed_) return Error{ErrorCode::invalid_argument, "expression", message_};
    return value;
  }

 private:
  static constexpr int kMaxDepth = 64;

  void fail(const std::string& what) {
    if (failed_) return;
    failed_ = true;
    message_ = "in \"" + std::string(text_) + "\" at " + std::to_string(pos_ + 1) + ": " + what;
  }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool accept(std::string_view token) {
    skip_space();
    if (text_.substr(pos_, token.size()) != token) return false;
    pos_ += token.size();
    return true;
  }

  double logical_or() {
    double left = logical_and();
    while (!failed_ && accept("||")) {
      double right = logical_and();
      left = (left != 0 || right != 0) ? 1 : 0;
    }
    return left;
  }
  double logical_and() {
    double left = comparison();
    while (!failed_ && accept("&&")) {
      double right = comparison();
      left = (left != 0 && right != 0) ? 1 : 0;
    }
    return left;
  }
  double comparison() {
    double left = sum();
    if (failed_) return 0;
    if (accept("<=")) return left <= sum() ? 1 : 0;
    if (accept(">=")) return left >= sum() ? 1 : 0;
    if (accept("==")) return left == sum() ? 1 : 0;
    if (accept("!=")) return left != sum() ? 1 : 0;
    if (accept("<")) return left < sum() ? 1 : 0;
    if (accept(">")) return left > sum() ? 1 : 0;
    return left;
  }
  double sum() {
    double left = product();
    while (!failed_) {
      if (accept("+"))
        left += product();
      else if (accept("-"))
        left -= product();
      else
        break;
    }
    return left;
  }
  double product() {
    double left = power();
    while (!failed_) {
      if (accept("*")) {
        left *= power();
      } else if (accept("/")) {
        double right = power();
        if (right == 0 && !failed_) fail("division by zero");
        left = failed_ ? 0 : left / right;
      } else {
        break;
      }
    }
    return left;
  }
  // Integer powers only: exact, and the same on every platform (no libm).
  double power() {
    double base = unary();
    if (failed_ || !accept("^")) return base;
    double exponent = power();
    if (failed_) return 0;
    if (exponent != static_cast<double>(static_cast<long long>(exponent)) || exponent < -64 ||
        exponent > 64) {
      fail("powers must be whole numbers from -64 to 64, got " + format_number(exponent));
      return 0;
    }
    double result = 1;
    for (long long i = 0; i < static_cast<long long>(exponent < 0 ? -exponent : exponent); ++i)
      result *= base;
    return exponent < 0 ? 1 / result : result;
  }
  double unary() {
    if (++depth_ > kMaxDepth) {
      fail("nested too deeply");
      return 0;
    }
    double value = accept("-") ? -unary() : primary();
    --depth_;
    return value;
  }
  double primary() {
    skip_space();
    if (pos_ >= text_.size()) {
      fail("expected a number or a name");
      return 0;
    }
    char c = text_[pos_];
    if (accept("(")) {
      double inner = logical_or();
      if (!accept(")")) fail("expected \")\"");
      return inner;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return name();
    fail("unexpected \"" + std::string(1, c) + "\"");
    return 0;
  }
  double number() {
    std::string digits;
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      bool exponent_sign = (c == '+' || c == '-') && !digits.empty() &&
                           (digits.back() == 'e' || digits.back() == 'E');
      if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' ||
            exponent_sign))
        break;
      digits += c;
      ++pos_;
    }
    char* end = nullptr;
    double value = std::strtod(digits.c_str(), &end);
    if (end != digits.c_str() + digits.size()) fail("bad number \"" + digits + "\"");
    return value;
  }
  double name() {
    std::string id;
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.')) break;
      id += c;
      ++pos_;
    }
    if (id == "min" || id == "max") return call(id);
    std::optional<double> value = lookup_(id);
    if (!value) fail("unknown name \"" + id + "\"");
    return value.value_or(0);
  }
  double call(const std::string& function) {
    if (!accept("(")) {
      fail(function + " needs (a, b)");
      return 0;
    }
    double a = logical_or();
    if (!accept(",")) fail(function + " needs two arguments");
    double b = failed_ ? 0 : logical_or();
    if (!accept(")")) fail("expected \")\"");
    return function == "min" ? (a < b ? a : b) : (a > b ? a : b);
  }

  std::string_view text_;
  const NameLookup& lookup_;
  size_t pos_ = 0;
  int depth_ = 0;
  bool failed_ = false;
  std::string message_;
};

}  // namespace

Result<double> evaluate(std::string_view expression, const NameLookup& lookup) {
  if (expression.size() > 500) {
    return Error{ErrorCode::invalid_argument, "expression",
                 "expression is longer than 500 characters"};
  }
  return Parser(expression, lookup).parse();
}

}  // namespace scalebook
