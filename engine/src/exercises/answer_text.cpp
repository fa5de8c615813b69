#include "answer_text.h"

#include <algorithm>
#include <cstdint>

namespace scalebook::answer_text {
namespace {

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
    case 0x2248:  // almost equal to: "≈240"
    case 0x223C:  // tilde operator
      return '~';
    case 0x00A0:  // no-break space
    case 0x2009:  // thin space
    case 0x202F:  // narrow no-break space
      return ' ';
    default:
      return 0;
  }
}

}  // namespace

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

bool too_long(std::string_view s, std::size_t max_chars) {
  if (s.size() <= max_chars) return false;
  if (s.size() > 4 * max_chars) return true;
  return char_count(s) > max_chars;
}

bool same_any_case(std::string_view a, std::string_view b) {
  auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(),
                                            [&](char x, char y) { return lower(x) == lower(y); });
}

std::size_t char_count(std::string_view s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
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

}  // namespace scalebook::answer_text
