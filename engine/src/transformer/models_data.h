#pragma once
// Internal to the model catalog: the presets (models_data.cpp) and the helper they are
// written with.
#include <initializer_list>
#include <string>
#include <vector>

#include "scalebook/transformer/models.h"

namespace scalebook::models_data {

// One source note shared by several fields, named in one string with a space between names:
// {"L D F", "chapter 4"}. Plain pointers, so a model's list of them is constant data and only
// cite() builds strings.
struct Cite {
  const char* fields;
  const char* note;
};

std::vector<SourceNote> cite(std::initializer_list<Cite> cites);

// The book's real models first (the most used, LLaMA 3 70B, leads), then its made-up ones.
std::vector<Model> presets();

}  // namespace scalebook::models_data
