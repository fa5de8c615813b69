// The out-of-line constructors of schema entries from literals (core/schema.h says why). Each
// runs once per entry, when a schema is first built, so the noinline costs nothing that counts.
#include "scalebook/core/schema.h"

namespace scalebook {

[[gnu::noinline]] InputSpec::InputSpec(const char* name_, InputKind kind_, const char* unit_,
                                       const char* description_, Value default_value_, double min_,
                                       bool min_exclusive_, double max_)
    : name(name_),
      kind(kind_),
      unit(unit_),
      description(description_),
      default_value(std::move(default_value_)),
      min(min_),
      min_exclusive(min_exclusive_),
      max(max_) {}

[[gnu::noinline]] OutputSpec::OutputSpec(const char* name_, const char* unit_,
                                         const char* description_, bool is_text_,
                                         const char* label_)
    : name(name_), unit(unit_), description(description_), is_text(is_text_), label(label_) {}

[[gnu::noinline]] InputSpec labelled(InputSpec spec, const char* label, InputGroup group,
                                     std::initializer_list<const char*> choice_labels) {
  spec.label = label;
  spec.group = group;
  spec.choice_labels.assign(choice_labels.begin(), choice_labels.end());
  return spec;
}

}  // namespace scalebook
