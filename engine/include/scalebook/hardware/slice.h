#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "scalebook/core/registry.h"
#include "scalebook/hardware/catalog.h"

namespace scalebook {

// A slice of a TPU's ICI torus, given as its shape ("4x4", "4x4x8"): its chips, which axes
// get wraparound links, the links a chip uses, the farthest chip's hops and the bisection.
//
// The wraparound rule is the one the catalog's `wraparound` text states, read from the
// chip's numbers:
//   - with a cube_topology (v4p, v5p): a slice of whole cubes (every axis a multiple of the
//     cube's edge along it) wraps on every axis, any other slice on none;
//   - without one (v3, v5e, v6e): an axis wraps exactly when it spans the pod's axis;
//   - with no wraparound text (TPU7x): the catalog does not say, so every wrap_* is
//     "unknown" and the outputs that depend on it (wrapped_axes, links, hops, bisection)
//     are none rather than a guess.
// The shape must have exactly torus_dims axes (no trailing x1 on a 2D chip, none dropped
// on a 3D one), and fit in the pod in some orientation (sizes compared sorted).
Calculator slice_calculator();

enum class Wrap { yes, no, unknown };

// Sizes joined by "x" ("8", "4x4"), each a whole number >= 1 (sizes above 1e9 saturate to
// 1e9); spaces only around the whole text. False when malformed.
bool parse_axis_sizes(std::string_view text, std::vector<std::int64_t>& sizes);

// Whether each axis of a slice with these sizes wraps, by the rule above; an error (field
// "shape") when the sizes do not fit the chip's torus or the chip has none.
Result<std::vector<Wrap>> slice_wraps(const Chip& chip, const std::vector<std::int64_t>& sizes);

}  // namespace scalebook
