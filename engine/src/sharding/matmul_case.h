#pragma once
// Internal to sharded-matmul: what it reads off the spec and the mesh besides the plans.
//
// The book's four cases of A[I, J] * B[J, K] (chapter 3), from the inputs as given:
//   1. neither input splits the contracting dimension J and no mesh axis splits a free
//      dimension of both: each device multiplies its own blocks, with no communication;
//   2. one input splits J (AllGather it first, or split the other the same way and reduce
//      after), or both split it differently (gather until they match);
//   3. both split J over the same axes: the local matmul leaves partial sums to AllReduce or
//      ReduceScatter;
//   4. a mesh axis splits a free dimension of both: AllGather one of them first.
// 2 or 3 combine with 4 ("2+4").
//
// The output the planner names when the spec requests none: C (Out when an input is C) with
// A's free dimensions, then B's, unsharded.
//
// Which mesh axes wrap around: every one or none when given; auto applies the chip's slice
// rule when the mesh has one axis per torus axis and is a slice of the pod (an axis the rule
// leaves unknown does not wrap), and otherwise no axis wraps.
#include <string>
#include <vector>

#include "scalebook/hardware/catalog.h"
#include "scalebook/sharding/sharding.h"

namespace scalebook::matmul_case {

struct Case {
  std::string number;       // "1" to "4", or a combination like "2+4"
  std::string description;  // what it means for these arrays
};

// The book's four cases, read off the inputs as given.
Case classify(const MatmulSpec& m);

// The output the planner names when the spec gives none: A's free dimensions, then B's.
ShardedArray derived_output(const MatmulSpec& m);

struct Wraps {
  std::vector<bool> wraps;  // per mesh axis, in mesh order
  std::string latex;        // why, for the step; empty unless explaining
};

// `mode`: auto, yes or no.
Wraps decide_wraps(const Chip& chip, const Mesh& mesh, const std::string& mode, bool explain);
// The names of the mesh axes that wrap, in mesh order: "XY".
std::string wrapped_axes(const Mesh& mesh, const std::vector<bool>& wraps);

// "X, Y", or "none".
std::string axes_list(const std::string& axes);
const ShardedDim* find_dim(const ShardedArray& a, const std::string& name);

}  // namespace scalebook::matmul_case
