#pragma once
// Engine structs as text for a person at a terminal.
#include <string>

#include "scalebook/core/registry.h"
#include "scalebook/hardware/catalog.h"
#include "scalebook/transformer/models.h"

namespace scalebook::cli {

// 3 significant digits with an SI prefix: 0.005076 s -> "5.08 ms".
std::string si(double x, const std::string& unit);

std::string to_text(const Schema& schema);
std::string to_text(const Schema& schema, const Calculation& calc, bool explain);
std::string to_text(const Chip& chip);
// One line of the model list: id, name and parameter count.
std::string to_text_line(const Model& model);
std::string to_text(const Model& model);

}  // namespace scalebook::cli
