#include "sharding_scanner.h"

#include "scalebook/sharding/sharding.h"

namespace scalebook::sharding_scanner {

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

Error trailing(const Scanner& s, const std::string& after) {
  char c = s.peek();
  if (c == ']') return s.error_here("has a ] with no opening [");
  if (c == '}') return s.error_here("has a } with no opening {");
  return s.error_here("has " + s.here() + " after " + after);
}

}  // namespace scalebook::sharding_scanner
