#pragma once
// Internal to the catalog: the chip tables (catalog_tpus.cpp, catalog_gpus.cpp) and the two
// helpers they are written with.
#include <initializer_list>
#include <string>
#include <vector>

#include "scalebook/hardware/catalog.h"

namespace scalebook::catalog_data {

// One source note shared by several fields.
struct Cite {
  std::vector<std::string> fields;
  std::string note;
};

std::vector<SourceNote> cite(std::initializer_list<Cite> cites);

// `own` with every field it leaves unknown taken from `base`, each noted
// "as the <base name> (<reason>): <base's note>".
Chip like(const Chip& base, Chip own, const std::string& reason);

// Oldest first.
std::vector<Chip> tpu_chips();
std::vector<Chip> gpu_chips();

}  // namespace scalebook::catalog_data
