#pragma once
// Internal to reading an answer (answer.cpp): units spelled out in words, as readers write
// them ("1.01 milliseconds", "45 gigabytes per second"), turned into the symbol parse_unit
// reads ("ms", "GB/s"). Only whole words are taken, in any case; a symbol keeps its case
// ("gb" stays unknown: bits or bytes?). The FLOP stems keep theirs too, so "teraFLOPS" is a
// rate and "teraflops" a count, as "TFLOPS" and "Tflops" are.
#include <optional>
#include <string>
#include <string_view>

namespace scalebook::unit_words {

// The symbol for `text` ("gigabytes per second" -> "GB/s"), or nothing when it has no
// spelled-out word in it. The symbol may still be one parse_unit refuses ("kiloseconds" ->
// "ks"): that is how a prefix that does not fit its unit is refused.
std::optional<std::string> symbol_for(std::string_view text);

// "percent", in any case.
bool is_percent_word(std::string_view text);

}  // namespace scalebook::unit_words
