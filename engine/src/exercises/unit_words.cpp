#include "unit_words.h"

#include <array>
#include <vector>

#include "answer_text.h"

namespace scalebook::unit_words {
namespace {

using answer_text::same_any_case;

struct Word {
  std::string_view word;
  std::string_view symbol;
};

// Prefix words for time (milli to pico), data and FLOPs (kilo to exa, kibi to exbi); which
// fits which unit is parse_unit's to decide.
constexpr std::array<Word, 16> kPrefixes{{
    {"kilo", "k"},
    {"mega", "M"},
    {"giga", "G"},
    {"tera", "T"},
    {"peta", "P"},
    {"exa", "E"},
    {"kibi", "Ki"},
    {"mebi", "Mi"},
    {"gibi", "Gi"},
    {"tebi", "Ti"},
    {"pebi", "Pi"},
    {"exbi", "Ei"},
    {"milli", "m"},
    {"micro", "u"},
    {"nano", "n"},
    {"pico", "p"},
}};

// Words matched in any case.
constexpr std::array<Word, 18> kStems{{
    {"second", "s"},
    {"seconds", "s"},
    {"sec", "s"},
    {"secs", "s"},
    {"minute", "min"},
    {"minutes", "min"},
    {"hour", "h"},
    {"hours", "h"},
    {"byte", "B"},
    {"bytes", "B"},
    {"bit", "b"},
    {"bits", "b"},
    {"token", "tokens"},
    {"tokens", "tokens"},
    {"param", "params"},
    {"params", "params"},
    {"parameter", "params"},
    {"parameters", "params"},
}};

// Matched exactly: their case is their meaning ("FLOPS" a rate, "FLOPs" a count).
constexpr std::array<std::string_view, 9> kFlopStems{
    {"FLOP", "FLOPs", "FLOPS", "flop", "flops", "OP", "OPs", "OPS", "ops"}};

std::optional<std::string> stem_symbol(std::string_view stem, bool prefixed) {
  for (const Word& w : kStems) {
    if (same_any_case(stem, w.word)) return std::string(w.symbol);
  }
  // An unprefixed FLOP stem is a symbol already, not a word.
  if (!prefixed) return std::nullopt;
  for (std::string_view flop : kFlopStems) {
    if (stem == flop) return std::string(flop);
  }
  return std::nullopt;
}

// "milliseconds" -> "ms", "teraFLOPS" -> "TFLOPS"; nothing for a symbol or a non-word.
std::optional<std::string> word_symbol(std::string_view word) {
  if (auto bare = stem_symbol(word, false)) return bare;
  for (const Word& p : kPrefixes) {
    if (word.size() <= p.word.size() || !same_any_case(word.substr(0, p.word.size()), p.word)) {
      continue;
    }
    if (auto stem = stem_symbol(word.substr(p.word.size()), true)) {
      return std::string(p.symbol) + *stem;
    }
  }
  return std::nullopt;
}

// What "per X" or "/X" divides by, as a symbol suffix.
std::optional<std::string> per_symbol(std::string_view word) {
  if (word == "s" || same_any_case(word, "second") || same_any_case(word, "sec")) return "/s";
  if (word == "B" || same_any_case(word, "byte")) return "/B";
  return std::nullopt;
}

std::vector<std::string_view> split_words(std::string_view text) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < text.size() && words.size() <= 3) {  // more than 3 words is no unit
    if (answer_text::is_space(text[i])) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && !answer_text::is_space(text[end])) ++end;
    words.push_back(text.substr(i, end - i));
    i = end;
  }
  return words;
}

}  // namespace

std::optional<std::string> symbol_for(std::string_view text) {
  std::vector<std::string_view> words = split_words(text);
  std::string_view amount;
  std::string_view per;
  if (words.size() == 1) {
    amount = words[0];
    std::size_t slash = amount.find('/');
    if (slash != std::string_view::npos) {
      per = amount.substr(slash + 1);
      amount = amount.substr(0, slash);
    }
  } else if (words.size() == 3 && same_any_case(words[1], "per")) {
    amount = words[0];
    per = words[2];
  } else {
    return std::nullopt;
  }
  std::optional<std::string> spelled = word_symbol(amount);
  if (per.empty()) return spelled;
  std::optional<std::string> divisor = per_symbol(per);
  if (!divisor) return std::nullopt;
  // A symbol may stand beside words ("GB per second", "GB/sec"), but "gb/s" has none.
  bool has_word = spelled || words.size() == 3 || (per != "s" && per != "B");
  if (!has_word) return std::nullopt;
  return spelled.value_or(std::string(amount)) + *divisor;
}

bool is_percent_word(std::string_view text) { return same_any_case(text, "percent"); }

}  // namespace scalebook::unit_words
