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
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "scalebook/collectives/collective_cost.h"
#include "scalebook/sharding/sharding.h"
#include "sharding_inputs.h"

namespace scalebook {

struct PlanCollective {
  CollectiveOp op = CollectiveOp::all_gather;
  std::string axes;    // "XY"
  std::string before;  // the array it acts on, "A[I, J_X]"
  std::string after;
  double bytes = 0;       // V: the per-device bytes of `measured`
  ShardedArray measured;  // the array unsharded over the axes: the gathered one, or the
                          // unreduced one each device starts with
  const CollectiveCost* cost = nullptr;  // owned by the PlanContext's memo
};

struct MatmulPlan {
  std::vector<std::string> ops;  // book notation, the matmul among them
  std::vector<PlanCollective> collectives;
  ShardedArray a, b;    // as multiplied
  ShardedArray result;  // the local matmul's output
  ShardedArray c;       // the final output
  double flops = 0;     // per device
  double t_compute = 0;
  double t_comm = 0;
  double t_total = 0;   // max(t_compute, t_comm): collectives overlap compute
  double t_serial = 0;  // t_compute + t_comm
  double memory = 0;    // peak bytes per device: A, B and C each at their largest
  double memory_a = 0, memory_b = 0, memory_c = 0;
  double gathered = 0;  // bytes AllGathered, for ties
  std::string text() const;
};

class PlanContext {
 public:
  // explain false: the collectives' costs come without their steps (the numbers-only path).
  PlanContext(const Mesh& mesh, const DimSizes& sizes, double bytes_per_element, double peak_flops,
              LinkModel link, std::vector<bool> wraps, bool explain)
      : mesh_(mesh),
        sizes_(sizes),
        bytes_per_element_(bytes_per_element),
        peak_flops_(peak_flops),
        link_(link),
        wraps_(std::move(wraps)),
        explain_(explain) {}

  const Mesh& mesh() const { return mesh_; }
  const DimSizes& sizes() const { return sizes_; }
  double peak_flops() const { return peak_flops_; }
  double local_bytes(const ShardedArray& array) const;
  bool divisible(const ShardedArray& array) const;
  // Costs are memoised: many plans share a collective.
  const CollectiveCost& cost(CollectiveOp op, double bytes, const std::string& axes);

 private:
  const Mesh& mesh_;
  const DimSizes& sizes_;
  double bytes_per_element_;
  double peak_flops_;
  LinkModel link_;
  std::vector<bool> wraps_;  // per mesh axis
  bool explain_;
  std::map<std::tuple<int, double, std::string>, CollectiveCost> memo_;
};

// Every valid plan, cheapest first: by t_total, then fewer collectives, then fewer bytes
// gathered, then t_comm, then t_compute. `derived_c` names the output (and orders its
// dimensions) when the spec requests none.
std::vector<MatmulPlan> plan_matmul(const MatmulSpec& spec, const ShardedArray& derived_c,
                                    PlanContext& ctx);

}  // namespace scalebook
