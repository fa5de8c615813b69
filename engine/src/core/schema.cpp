// The out-of-line constructors of schema entries and steps from literals (core/schema.h says
// why). A schema entry is built once, when its schema is first built, and a step only on the
// explained path, so the noinline costs nothing that counts.
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

[[gnu::noinline]] Step::Step(std::string label_, std::string latex_, double value_,
                             const char* unit_, const char* output_,
                             std::initializer_list<const char*> depends_)
    : label(std::move(label_)),
      latex(std::move(latex_)),
      value(value_),
      unit(unit_),
      output(output_),
      depends(depends_.begin(), depends_.end()) {}

}  // namespace scalebook
