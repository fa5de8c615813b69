#pragma once
// Internal to the model catalog: the presets (models_data.cpp) and the helper they are
// written with.
#include <initializer_list>
#include <string>
#include <vector>

#include "scalebook/transformer/models.h"

namespace scalebook::models_data {

// One source note shared by several fields.
struct Cite {
  std::vector<std::string> fields;
  std::string note;
};

std::vector<SourceNote> cite(std::initializer_list<Cite> cites);

// The book's real models first (the most used, LLaMA 3 70B, leads), then its made-up ones.
std::vector<Model> presets();

}  // namespace scalebook::models_data
