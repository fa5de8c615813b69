#pragma once
// Internal to the sharding notation's parsers (mesh_parse.cpp, sharding_parse.cpp): a read
// position over the text with errors that point into it, the characters the notation is made
// of, and the checks both apply before and after parsing.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scalebook/core/status.h"

namespace scalebook::sharding_scanner {

inline bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
inline bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_alnum(char c) { return is_upper(c) || is_lower(c) || is_digit(c); }
inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

inline std::string join(const std::vector<std::string>& items, const char* sep = ", ") {
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
  // The digits here as a number, held at cap + 1 once past `cap` (so a long run cannot
  // overflow); `huge` says it went past.
  std::int64_t digits(std::int64_t cap, bool& huge) {
    std::int64_t n = 0;
    huge = false;
    while (is_digit(peek())) {
      n = n * 10 + (peek() - '0');
      if (n > cap) {
        huge = true;
        n = cap + 1;
      }
      advance();
    }
    return n;
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
std::optional<Error> check_text(std::string_view text, const Scanner& s);

// Text left over after a complete array or spec.
Error trailing(const Scanner& s, const std::string& after);

}  // namespace scalebook::sharding_scanner
