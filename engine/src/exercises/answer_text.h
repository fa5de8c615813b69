#pragma once
// Internal to reading and grading an answer (answer.cpp, grade.cpp): the text as a reader types or
// pastes it, made fit for the number grammar. Limits count characters (code points), not bytes;
// text must be UTF-8 without control characters; look-alikes a page may hold (U+2212 minus, U+00D7
// times, U+00B7 and U+22C5 dots, U+2248 almost equal, no-break and thin spaces) become their ASCII,
// and superscript digits an exponent.
#include <cstddef>
#include <string>
#include <string_view>

namespace scalebook::answer_text {

inline bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

std::string_view trim(std::string_view s);

// More than `max_chars` characters. Tells from the byte count alone when it can (a character
// is at most 4 bytes), so a huge answer is refused without being scanned.
bool too_long(std::string_view s, std::size_t max_chars);

// Equal when ASCII letters are folded to lower case: "MEMORY" and "memory".
bool same_any_case(std::string_view a, std::string_view b);

// The power of 1000 a multiplier letter written after a number stands for ("1.5k", "2 M
// tokens"): k and K 1, M 2, G 3, T 4, P 5; 0 for any other character.
inline int multiplier_power(char letter) {
  switch (letter) {
    case 'k':
    case 'K':
      return 1;
    case 'M':
      return 2;
    case 'G':
      return 3;
    case 'T':
      return 4;
    case 'P':
      return 5;
    default:
      return 0;
  }
}

// Characters, counting each UTF-8 sequence once.
std::size_t char_count(std::string_view s);

bool valid_utf8(std::string_view s);
bool has_control(std::string_view s);

// Rewrites look-alikes to ASCII (U+2248 and U+223C to "~") and a run of superscripts "¹⁴" to
// "^14". Input is valid UTF-8.
std::string normalise(std::string_view s);

}  // namespace scalebook::answer_text
