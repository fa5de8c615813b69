#pragma once
// Internal to the catalog: the chip tables (catalog_tpus.cpp, catalog_gpus.cpp) and the two
// helpers they are written with.
#include <initializer_list>
#include <string>
#include <vector>

#include "scalebook/hardware/catalog.h"

namespace scalebook::catalog_data {

// One source note shared by several fields, named in one string with a space between names:
// {"hbm_bandwidth hbm_capacity", kSpecTable}. Plain pointers, so a chip's list of them is
// constant data and only cite() builds strings (std::strings built inline in every table cost
// the engine modules kilobytes of code).
struct Cite {
  const char* fields;
  const char* note;
};

std::vector<SourceNote> cite(std::initializer_list<Cite> cites);

// `own` with every field it leaves unknown taken from `base`, each noted
// "as the <base name> (<reason>): <base's note>".
Chip like(const Chip& base, Chip own, const std::string& reason);

// Oldest first.
std::vector<Chip> tpu_chips();
std::vector<Chip> gpu_chips();

}  // namespace scalebook::catalog_data
