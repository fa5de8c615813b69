#pragma once
// Reading and grading what a reader typed as the answer to an exercise.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "scalebook/core/status.h"
#include "scalebook/core/units.h"

namespace scalebook {

// The longest answer read, in characters (code points); a longer one is refused before any
// other work, so a pasted megabyte costs nothing.
inline constexpr std::size_t kMaxAnswerChars = 200;

// A number as the reader wrote it, in `unit` (not converted to SI).
struct Quantity {
  double value = 0;
  bool has_unit = false;  // false for a bare number; `unit` is then the count unit ""
  Unit unit;              // a percentage is {"%", count, 0.01}
  char multiplier = 0;    // the k K M G T or P written after the number, if any ("16k")
};

// Reads an answer: an optional "~" or U+2248 (an approximate answer is read as its number),
// an optional sign ("+", "-", U+2212), a number, an optional scale, an optional unit (spaces
// between them optional, and around "/"). A unit is a symbol parse_unit reads, the same
// spelled out ("1.01 milliseconds", "45 gigabytes per second", "GB per second"; see
// unit_words.h), or a percentage ("21.9%", "21.9 percent"), kept as written: 21.9 in "%".
//   numbers  "240", ".5", "5.", "1,000,000.5" (commas only between groups of 3 digits)
//   scales   "45e9", "1.97 x 10^14" (x, *, U+00D7, U+00B7 or U+22C5; ^ or **; the exponent
//            may be in superscript digits: "10¹⁴"), "2^14" / "2**14" (a power),
//            a multiplier k K M G T P standing after the number: "1.5k" = 1500 with no
//            unit, "2 M tokens" = 2e6 tokens ("5 MB" is megabytes: the letter must stand alone)
// Every failure is invalid_argument on field "answer", with one of these messages:
//   "the answer is too long" (over kMaxAnswerChars), "the answer is not valid
//   text" (not UTF-8), "the answer contains a control character", "enter a number" (empty),
//   "\"abc\" is not a number", "use a point for decimals: \"1,5\"",
//   "the number must be finite" (nan, inf, 1e999, or infinite in SI units),
//   "unknown unit \"furlongs\"".
Result<Quantity> parse_answer(std::string_view text);

// An answer is correct when |value - expected| <= max(abs, rel * |expected|) (plus a 1e-12
// relative slack for rounding in unit conversion).
struct Tolerance {
  double rel = 0.02;
  double abs = 0;
};

struct Grade {
  bool correct = false;
  bool parsed = false;   // false when the answer could not be read
  double value = 0;      // the answer in the expected unit (when parsed and the dimension matches)
  std::string feedback;  // one short sentence for the reader
  std::string slip;      // "", "prefix-1000", "prefix-1024", "si-vs-binary", "factor-2",
                         // "bits-vs-bytes", "percent-as-number", "wrong-unit"
};

// `expected` is in `unit` (e.g. 1.011 with unit "ms"); a bare number is read in `unit`.
// Feedback: "correct"; a slip's hint (ratio to expected near 1000^k, 1024^k, 1.024^k, 2 or
// 8, within max(tol.rel, 1%)); "not quite"; or the parse error's message.
// A percentage answers only a plain-number part ("" unit) whose expected value lies strictly
// between 0 and 1, a fraction (a count is never one); anywhere else it is "wrong-unit". A
// plain number 100 times such a fraction is the slip "percent-as-number".
// Where the expected value is a count and a power of two (16384), a multiplier reads as a
// power of 1024 when its power of 1000 is not within tolerance: "16k" is 16 x 1024, and the
// feedback says so: "correct (16k read as 16 x 1024 = 16,384)". Only for counts: "16k B"
// for 16 KiB stays the GB vs GiB slip.
Grade grade_answer(std::string_view text, double expected, const Unit& unit, Tolerance tol);

// A multiple-choice answer: one of `choices`, in any case, after the same clean-up as a
// number (spaces trimmed, look-alikes made ASCII). Feedback: "correct", "not quite",
// "choose one of the options" (parsed false), or "the answer is too long" (over
// kMaxAnswerChars, refused before the text is read).
Grade grade_choice(std::string_view text, const std::vector<std::string>& choices,
                   const std::string& expected);

}  // namespace scalebook
