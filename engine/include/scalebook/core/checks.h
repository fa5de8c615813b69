#pragma once
// Checking one value against its input spec: how every calculator input, sweep point and
// override is read, with the messages the tests pin.
#include <string>
#include <vector>

#include "scalebook/core/schema.h"
#include "scalebook/core/status.h"
#include "scalebook/core/value.h"

namespace scalebook {

// Strict: the whole text, trimmed of spaces and tabs, must be a decimal number; no hex, inf
// or nan. How every number typed as text (a form field, a command line) is read.
bool parse_decimal(const std::string& text, double& out);

// The value as the input takes it (a number parsed from text, a known choice, a text at most
// kMaxTextLength long), or an error naming the input.
Result<Value> check_input(const InputSpec& spec, const Value& given);

// "a, b, c"
std::string join(const std::vector<std::string>& items);

}  // namespace scalebook
