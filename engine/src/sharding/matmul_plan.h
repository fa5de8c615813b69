#pragma once
// Internal to sharded-matmul: every way to compute one sharded matmul with the book's
// collectives, and what each costs.
//
// A plan, in order:
//   1. AllGather some of the minor axes of each input's dimensions (one collective per input;
//      taking off a major axis would leave strided blocks, no sharding);
//   2. slice locally, for free: an input's contracting dimension onto the axes the other
//      input has there (the book's "local matmul + AllReduce"), onto axes the requested C
//      wants unreduced, and the free dimensions onto axes the requested C has on them;
//   3. the local matmul, valid when both contracting dimensions are split the same way and
//      no axis splits a free dimension of both; it leaves C unreduced over the contracting
//      axes;
//   4. ReduceScatter each unreduced axis onto the dimension the requested C has it on, or
//      AllReduce it (or keep it, if C asks for it unreduced);
//   5. AllGather the axes C should not have, then slice onto the ones it lacks, for free.
// Without a requested C, step 4 AllReduces, or ReduceScatters onto one dimension, and steps 5
// and 2's C-driven slices are skipped.
//
// The spec's text alone decides each plan's shape (its operations, arrays and notation), so a
// prepared calculation enumerates the shapes once; the sizes, the mesh and the chip only price
// them, and an evaluation that explains nothing builds no text at all.
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "scalebook/collectives/collective_cost.h"
#include "scalebook/sharding/sharding.h"
#include "sharding_inputs.h"

namespace scalebook {

// An array as pricing sees it: each dimension's index in PlanShapes::dims, and its axes.
struct LocalForm {
  std::vector<std::pair<std::size_t, std::string>> dims;
};

struct ShapeCollective {
  CollectiveOp op = CollectiveOp::all_gather;
  std::string axes;    // "XY"
  std::string before;  // the array it acts on, "A[I, J_X]"
  std::string after;
  ShardedArray measured;  // the array unsharded over the axes: the gathered one, or the
                          // unreduced one each device starts with; its bytes are V
  LocalForm measured_form;
  std::size_t kind = 0;  // same op, axes and measured array: the same cost
};

struct PlanShape {
  std::vector<ShapeCollective> collectives;
  std::string text;   // book notation, one operation after another, the matmul among them
  ShardedArray a, b;  // as multiplied
  ShardedArray c;     // the final output
  std::string c_text, c_partition;  // its notation and JAX PartitionSpec
  LocalForm a_form, b_form;
  std::vector<LocalForm> must_divide;  // a and b as multiplied, C after each ReduceScatter
  // The forms each array takes; its peak is the largest.
  std::vector<LocalForm> a_forms, b_forms, c_forms;
};

struct PlanShapes {
  std::vector<std::string> dims;  // every dimension name, in the order of first use
  std::vector<PlanShape> shapes;  // distinct by text, in the order enumerated
  std::size_t kinds = 0;          // distinct collectives over all shapes
};

// Every shape of a plan for `spec`. `derived_c` names the output (and orders its dimensions)
// when the spec requests none.
PlanShapes plan_shapes(const MatmulSpec& spec, const ShardedArray& derived_c);

// What one shape costs for given sizes, mesh and chip.
struct PlanPrice {
  std::size_t shape = 0;
  double flops = 0;  // per device
  double t_compute = 0;
  double t_comm = 0;
  double t_total = 0;   // max(t_compute, t_comm): collectives overlap compute
  double t_serial = 0;  // t_compute + t_comm
  double memory = 0;    // peak bytes per device: A, B and C each at their largest
  double memory_a = 0, memory_b = 0, memory_c = 0;
  double gathered = 0;  // bytes AllGathered, for ties
  // t_total, gathered, t_comm and t_compute rounded to 9 significant digits, so sums of the
  // same terms in another order compare equal and the order stays a strict weak ordering.
  double key_total = 0, key_gathered = 0, key_comm = 0, key_compute = 0;
};

class PlanContext {
 public:
  // explain false: the collectives' costs come without their steps (the numbers-only path).
  PlanContext(const PlanShapes& shapes, const Mesh& mesh, const DimSizes& sizes,
              double bytes_per_element, double peak_flops, LinkModel link,
              const std::vector<bool>& wraps, bool explain);

  double local_bytes(const ShardedArray& array) const;
  // The shape's price, or none when it splits a dimension unevenly.
  std::optional<PlanPrice> price(std::size_t shape);
  // The plans' order: by t_total, then fewer collectives, then fewer bytes gathered, then
  // t_comm, then t_compute, then the notation.
  bool cheaper(const PlanPrice& x, const PlanPrice& y) const;
  // Each collective's bytes and cost, for the worked steps and the tables.
  double bytes(const ShapeCollective& c) const;
  const CollectiveCost& cost(const ShapeCollective& c);

 private:
  double local_bytes(const LocalForm& form) const;
  bool divisible(const LocalForm& form) const;
  double peak(const std::vector<LocalForm>& forms) const;

  const PlanShapes& shapes_;
  const Mesh& mesh_;
  // By PlanShapes::dims index: the names of A's and B's dimensions, the output's among them.
  std::array<std::int64_t, 2 * kMaxArrayDims> sizes_{};
  const DimSizes& named_sizes_;
  double bytes_per_element_;
  double peak_flops_;
  LinkModel link_;
  const std::vector<bool>& wraps_;  // per mesh axis
  bool explain_;
  std::vector<std::optional<CollectiveCost>> costs_;  // by kind, computed on first use
};

// Every valid plan priced, cheapest first.
std::vector<PlanPrice> ranked_plans(PlanContext& ctx, std::size_t count);

}  // namespace scalebook
