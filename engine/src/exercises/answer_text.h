#pragma once
// Internal to reading an answer (answer.cpp): the text as a reader types or pastes it, made
// fit for the number grammar. Limits count characters (code points), not bytes; text must be
// UTF-8 without control characters; look-alikes a page may hold (U+2212 minus, U+00D7 times,
// U+00B7 and U+22C5 dots, no-break and thin spaces) become their ASCII, and superscript digits
// an exponent.
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

// Characters, counting each UTF-8 sequence once.
std::size_t char_count(std::string_view s);

bool valid_utf8(std::string_view s);
bool has_control(std::string_view s);

// Rewrites look-alikes to ASCII and a run of superscripts "¹⁴" to "^14". Input is valid UTF-8.
std::string normalise(std::string_view s);

}  // namespace scalebook::answer_text
