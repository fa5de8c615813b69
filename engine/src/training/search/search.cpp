// The configuration search: enumerate slices, shapes, assignments of axes and the per-layout
// choices; evaluate each on the step model's parts, memory first; rank what fits.
#include "scalebook/training/search.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "keep.h"
#include "scalebook/core/format.h"
#include "scalebook/hardware/slice.h"

namespace scalebook {
namespace {

constexpr char kAxisNames[] = {'X', 'Y', 'Z'};
constexpr int kMicrobatchesPerStage[] = {1, 2, 4, 8};

bool divides(double d, double n) { return d > 0 && std::fmod(n, d) == 0; }

Error fail(const std::string& field, std::string message) {
  return Error{ErrorCode::invalid_argument, field, std::move(message)};
}

std::string whole(double x) { return std::to_string(static_cast<long long>(x)); }

// Every shape the chip's torus can have with n chips, axes sorted largest first.
void shapes_of(const Chip& chip, std::int64_t n, std::vector<std::vector<std::int64_t>>& out) {
  std::vector<std::int64_t> pod;
  if (!parse_axis_sizes(chip.pod_topology, pod) || pod.empty()) return;
  const std::int64_t largest = *std::max_element(pod.begin(), pod.end());
  const int dims = static_cast<int>(chip.torus_dims);
  std::vector<std::int64_t> sizes;
  // Depth-first over non-increasing sizes whose product is n.
  auto walk = [&](auto&& self, std::int64_t left, std::int64_t cap) -> void {
    if (static_cast<int>(sizes.size()) == dims - 1) {
      if (left <= cap) {
        sizes.push_back(left);
        if (slice_wraps(chip, sizes).ok()) out.push_back(sizes);
        sizes.pop_back();
      }
      return;
    }
    for (std::int64_t a = std::min(cap, left); a >= 1; --a) {
      if (left % a != 0) continue;
      sizes.push_back(a);
      self(self, left / a, a);
      sizes.pop_back();
    }
  };
  walk(walk, n, largest);
}

bool is_gpu(const Chip& chip) { return chip.torus_dims <= 0 && chip.nvlink_domain_gpus > 0; }

// GPUs: a count of them, one node's or fewer, or whole nodes.
bool gpu_count_ok(const Chip& chip, double n) {
  return n <= chip.nvlink_domain_gpus || divides(chip.nvlink_domain_gpus, n);
}

ParallelLayout base_layout(const Chip& chip, const std::vector<std::int64_t>& sizes) {
  if (is_gpu(chip)) {
    // The axes and fabric levels of `sizes[0]` GPUs, as parse_layout reads them.
    const std::array<const std::string*, kStrategies> none{};
    return parse_layout(chip, whole(static_cast<double>(sizes[0])), none).value();
  }
  ParallelLayout layout;
  const std::vector<Wrap> wraps = slice_wraps(chip, sizes).value();
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    layout.axes.push_back({kAxisNames[i], sizes[i], wraps[i] == Wrap::yes});
    layout.chips *= static_cast<double>(sizes[i]);
    layout.shape += (i ? "x" : "") + whole(static_cast<double>(sizes[i]));
  }
  return layout;
}

// Chapter 5's divisibility rules on the degrees alone (check_training builds messages; the
// search rejects most layouts, so it asks this first).
bool tp_allowed(const TrainingShape& sh, double tp) {
  return (sh.N <= 0 || divides(tp, sh.N)) && divides(tp, sh.F);
}
bool ep_allowed(const TrainingShape& sh, double ep) { return sh.E > 0 && divides(ep, sh.E); }

bool degrees_allowed(const TrainingShape& sh, const ParallelLayout& layout) {
  const auto& d = layout.degrees;
  if (d[kTp] > 1 && !tp_allowed(sh, d[kTp])) return false;
  if (d[kPp] > sh.L) return false;
  if (d[kEp] > 1 && !ep_allowed(sh, d[kEp])) return false;
  return true;
}

bool batch_splits(const TrainingConfig& c, double parts) {
  if (c.uneven_batch) return true;
  const double sequences = c.B / c.T;
  if (divides(parts, sequences)) return true;
  return c.split_sequences && parts > sequences && divides(sequences, parts) &&
         divides(parts / sequences, c.T);
}

// The (slices, shape) pairs to search, in order, and the chips they use in all.
struct Slicing {
  double slices;
  std::vector<std::int64_t> sizes;
  double total;
};

// The chip counts to search with `chips` chips to hand: all of them, then the largest count
// below it that is an odd factor of the batch's sequences times a power of two, for each odd
// factor (a batch of 1,024 sequences splits over 8,192 of a pod's 8,960 chips; 96 over 6,144).
std::vector<double> chip_counts(const SearchRequest& r) {
  std::vector<double> out = {r.chips};
  const double sequences = r.base.B / r.base.T;
  if (r.base.uneven_batch || sequences != std::floor(sequences) || sequences > 1e9) return out;
  const auto seqs = static_cast<std::int64_t>(sequences);
  std::int64_t odd = seqs;
  while (odd % 2 == 0) odd /= 2;
  for (std::int64_t m = 1; m <= odd; m += 2) {
    if (odd % m != 0) continue;
    double n = static_cast<double>(m);
    if (n > r.chips) break;
    while (n * 2 <= r.chips) n *= 2;
    if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  }
  std::sort(out.begin() + 1, out.end(), std::greater<>());
  return out;
}

Result<std::vector<Slicing>> slicings(const SearchRequest& r) {
  const Chip& chip = *r.chip;
  std::vector<Slicing> out;
  const bool dcn = chip.dcn_bandwidth > 0;
  if (is_gpu(chip)) {
    // One cluster of GPUs: the shape, or the chip count, is how many.
    double n = r.chips;
    if (!r.shape.empty()) {
      std::vector<std::int64_t> sizes;
      if (!parse_axis_sizes(r.shape, sizes) || sizes.size() != 1)
        return fail("shape", "shape on a GPU is a count of GPUs, like 64, got \"" + r.shape + "\"");
      n = static_cast<double>(sizes[0]);
      if (r.chips > 0 && r.chips != n)
        return fail("chips", "chips=" + whole(r.chips) + " is not shape=" + r.shape + "'s GPUs");
    }
    if (n <= 0) return fail("chips", "give chips (how many GPUs in all)");
    if (r.slices > 1)
      return fail("slices", "slices joins TPU slices over DCN; GPUs are one cluster: give chips");
    if (gpu_count_ok(chip, n)) {
      for (double total : r.shape.empty() ? chip_counts(r) : std::vector<double>{n})
        if (gpu_count_ok(chip, total))
          out.push_back({1, {static_cast<std::int64_t>(total)}, total});
    }
    if (out.empty())
      return fail("chips", "chips must be at most " + whole(chip.nvlink_domain_gpus) +
                               " GPUs (one " + chip.id + " node) or a multiple of " +
                               whole(chip.nvlink_domain_gpus) + ", got " + whole(n));
    return out;
  }
  if (!r.shape.empty()) {
    std::vector<std::int64_t> sizes;
    if (!parse_axis_sizes(r.shape, sizes) || sizes.empty())
      return fail("shape", "shape must be sizes joined by x, like 4x4x8, got \"" + r.shape + "\"");
    Result<std::vector<Wrap>> wraps = slice_wraps(chip, sizes);
    if (!wraps.ok()) return wraps.error();
    double per = 1;
    for (std::int64_t s : sizes) per *= static_cast<double>(s);
    double slices = r.slices > 0 ? r.slices : 1;
    if (r.chips > 0) {
      if (!divides(per, r.chips))
        return fail("chips", "chips=" + whole(r.chips) + " is not a whole number of " + r.shape +
                                 " slices (" + whole(per) + " chips each)");
      slices = r.chips / per;
      if (r.slices > 0 && r.slices != slices)
        return fail("slices", "slices=" + whole(r.slices) + " of " + r.shape + " make " +
                                  whole(r.slices * per) + " chips, not chips=" + whole(r.chips));
    }
    if (slices > 1 && !dcn)
      return fail("slices", chip.id +
                                " has no DCN bandwidth in the catalog, so it takes one "
                                "slice; give dcn_bandwidth to join more");
    out.push_back({slices, sizes, slices * per});
    return out;
  }
  if (r.chips <= 0) return fail("chips", "give chips (how many in all) or shape (one slice's)");
  for (double total : chip_counts(r)) {
    for (double s = 1; s <= total; ++s) {
      if (!divides(s, total)) continue;
      if (r.slices > 0 && s != r.slices) continue;
      if (s > 1 && !dcn) break;
      const double per = total / s;
      if (per > chip.pod_chips) continue;
      std::vector<std::vector<std::int64_t>> shapes;
      shapes_of(chip, static_cast<std::int64_t>(per), shapes);
      for (auto& sizes : shapes) out.push_back({s, std::move(sizes), total});
    }
  }
  if (out.empty()) {
    if (r.slices > 0 && !divides(r.slices, r.chips))
      return fail("slices", "chips=" + whole(r.chips) +
                                " do not split into slices=" + whole(r.slices) + " equal slices");
    return fail("chips", "no slice of " + chip.id + " (pod " + chip.pod_topology + ", " +
                             whole(chip.pod_chips) + " chips) makes chips=" + whole(r.chips) +
                             (dcn ? ", alone or as equal slices over DCN"
                                  : "; it has no DCN bandwidth to join slices"));
  }
  return out;
}

// The logical axes of each split a search tries on `base`: none, then each axis (one of any
// alike ones) cut at each size of its inner part that leaves at least 2 groups. One axis at a
// time: splitting is for a TP (or EP) degree no whole axis has, like 8 on a 16-chip axis.
std::vector<ParallelLayout> splits_of(const TrainingShape& sh, const ParallelLayout& base) {
  std::vector<ParallelLayout> out = {base};
  for (std::size_t i = 0; i < base.axes.size(); ++i) {
    const Axis& a = base.axes[i];
    if (i > 0 && base.axes[i - 1].size == a.size && base.axes[i - 1].wraps == a.wraps) continue;
    for (std::int64_t k = 2; k <= a.size / 2; ++k) {
      if (a.size % k != 0) continue;
      // The inner part must be able to serve tp or ep on its own; on GPUs a run of neighbouring
      // nodes may serve any strategy (pipeline stages in one scalable unit, DP across them).
      const auto kd = static_cast<double>(k);
      const bool nodes = base.switched && a.name == 'N';
      if (!nodes && !tp_allowed(sh, kd) && !ep_allowed(sh, kd)) continue;
      ParallelLayout l = base;
      split_axis(l, i, k);
      out.push_back(std::move(l));
    }
  }
  return out;
}

// Calls f(layout) for every assignment of the axes to strategies that the degrees allow. A
// split axis's inner part (neighbouring chips, the fastest links) goes to tp or ep, whose
// collectives sit on every layer's critical path, and its outer part to another strategy.
template <class F>
void for_each_assignment(const TrainingShape& sh, const ParallelLayout& base, F&& f) {
  const int k = static_cast<int>(base.axes.size());
  int inner = -1;
  for (int i = 0; i + 1 < k; ++i)
    if (base.axes[static_cast<std::size_t>(i + 1)].stride > 1) inner = i;
  int combos = 1;
  for (int i = 0; i < k; ++i) combos *= kStrategies;
  // One copy, its masks rewritten per assignment, rather than a copy of the axes and the shape
  // text for each of the hundreds of codes.
  ParallelLayout layout = base;
  for (int code = 0; code < combos; ++code) {
    std::array<unsigned, kStrategies> masks{};
    bool skip = false;
    int previous = -1;
    for (int i = 0, rest = code; i < k; ++i, rest /= kStrategies) {
      const int s = rest % kStrategies;
      const Axis& axis = base.axes[static_cast<std::size_t>(i)];
      // An axis of one chip serves nothing: give it to fsdp only, once.
      if (axis.size == 1 && s != kFsdp) skip = true;
      if (i == inner && s != kTp && s != kEp && !(base.switched && axis.name == 'N')) skip = true;
      if (i == inner + 1 && inner >= 0 && s == previous) skip = true;
      // Two axes alike (size, wraparound, stride) are interchangeable: take one order of them.
      if (i > 0) {
        const Axis& before = base.axes[static_cast<std::size_t>(i - 1)];
        if (before.size == axis.size && before.wraps == axis.wraps &&
            before.stride == axis.stride && s < previous)
          skip = true;
      }
      previous = s;
      masks[static_cast<std::size_t>(s)] |= 1u << i;
    }
    if (skip) continue;
    for (int s = 0; s < kStrategies; ++s)
      assign_axes(layout, s, masks[static_cast<std::size_t>(s)]);
    if (degrees_allowed(sh, layout)) f(layout);
  }
}

int zero_count(const ParallelLayout& layout) { return layout.degrees[kFsdp] > 1 ? 3 : 1; }
int pipeline_count(const ParallelLayout& layout) { return layout.degrees[kPp] > 1 ? 8 : 1; }

}  // namespace

const char* to_string(SearchFamily f) {
  switch (f) {
    case SearchFamily::fsdp:
      return "pure FSDP";
    case SearchFamily::fsdp_tp:
      return "FSDP + TP";
    case SearchFamily::with_pp:
      return "with PP";
    case SearchFamily::with_ep:
      return "with EP";
  }
  return "";
}

SearchFamily family_of(const ParallelLayout& layout) {
  if (layout.degrees[kEp] > 1) return SearchFamily::with_ep;
  if (layout.degrees[kPp] > 1) return SearchFamily::with_pp;
  if (layout.degrees[kTp] > 1) return SearchFamily::fsdp_tp;
  return SearchFamily::fsdp;
}

TrainingConfig config_of(const SearchRequest& request, const SearchResult& result,
                         const SearchConfig& c) {
  TrainingConfig config = request.base;
  config.slices = result.layouts[c.layout].slices;
  config.zero = c.zero;
  config.remat = static_cast<RematPolicy>(c.remat);
  config.schedule = static_cast<StepSchedule>(c.schedule);
  config.microbatches = c.microbatches;
  config.checkpoints.reset();
  return config;
}

Result<SearchResult> search_training(const SearchRequest& r) {
  if (!r.chip) return fail("chip", "no chip");
  Result<std::vector<Slicing>> plan = slicings(r);
  if (!plan.ok()) return plan.error();
  const TrainingShape& sh = r.base.shape;

  // The work, counted before any of it: layouts times their choices. The assignments the
  // divisibility rules allow are kept for the evaluation, which walks them again.
  struct Assigned {
    std::array<unsigned, kStrategies> masks;
    std::array<double, kStrategies> degrees, counts;
  };
  struct Base {
    const Slicing* slicing;
    ParallelLayout layout;
    std::vector<Assigned> assigned;
  };
  std::vector<Base> bases;
  double work = 0;
  for (const Slicing& p : plan.value()) {
    for (ParallelLayout& base : splits_of(sh, base_layout(*r.chip, p.sizes))) {
      Base b{&p, std::move(base), {}};
      for_each_assignment(sh, b.layout, [&](const ParallelLayout& l) {
        work += zero_count(l) * 4.0 * pipeline_count(l);
        b.assigned.push_back({l.masks, l.degrees, l.axis_counts});
      });
      bases.push_back(std::move(b));
    }
  }
  if (work > r.max_evaluations)
    return fail(r.shape.empty() ? "chips" : "shape",
                "the search would evaluate " + format_number(work) +
                    " configurations, more than its budget of " + format_number(r.max_evaluations) +
                    "; give a slice shape or slices");

  SearchResult out;
  search_keep::Keeper keep(static_cast<std::size_t>(std::max(r.top, 0)));
  TrainingStep s;  // one, cleared per configuration
  const double cap = r.base.hbm_capacity * (1 - r.headroom);
  TrainingConfig c = r.base;
  c.checkpoints.reset();
  double done = 0;
  double report_at = work / 100;
  out.shapes = static_cast<double>(plan.value().size());
  for (Base& b : bases) {
    const Slicing& p = *b.slicing;
    c.slices = p.slices;
    if (out.counts.empty() || out.counts.back().chips != p.total) out.counts.push_back({p.total});
    SearchCount& count = out.counts.back();
    CostMemo memo;  // the costs depend on the axes' sizes, wraps and strides: one per split
    ParallelLayout& layout = b.layout;
    for (const Assigned& a : b.assigned) {
      layout.masks = a.masks;
      layout.degrees = a.degrees;
      layout.axis_counts = a.counts;
      {
        out.layouts_tried += 1;
        const auto& d = layout.degrees;
        const double shards = d[kDp] * d[kFsdp] * d[kEp] * p.slices;
        // The layout is stored once, when the first of its configurations is kept.
        std::optional<std::uint32_t> stored;
        auto index = [&] {
          if (!stored) {
            stored = static_cast<std::uint32_t>(out.layouts.size());
            out.layouts.push_back({layout, p.slices});
          }
          return *stored;
        };
        const int zeros = zero_count(layout);
        const int pipes = pipeline_count(layout);
        done += zeros * 4.0 * pipes;
        if (r.progress && done >= report_at) {
          r.progress(done / work);
          report_at = done + work / 100;
        }
        for (int z = 0; z < zeros; ++z) {
          c.zero = zeros == 1 ? 3 : z + 1;
          for (int remat = 0; remat < 4; ++remat) {
            c.remat = static_cast<RematPolicy>(remat);
            for (int q = 0; q < pipes; ++q) {
              c.microbatches = pipes == 1 ? 1 : kMicrobatchesPerStage[q / 2] * d[kPp];
              c.schedule = q % 2 == 0 ? StepSchedule::one_f_one_b : StepSchedule::gpipe;
              if (!batch_splits(c, shards * c.microbatches * c.grad_accum)) continue;
              clear_step(s);
              start_step(c, layout, s);
              add_compute(c, layout, s);
              add_memory(c, layout, s);
              out.evaluated += 1;
              count.evaluated += 1;
              if (s.mem_total > cap) continue;
              add_collectives(c, layout, memo, s);
              add_step_time(c, s);
              out.feasible += 1;
              count.feasible += 1;
              count.best = std::min(count.best, s.step_time);
              SearchConfig k;
              k.zero = static_cast<std::uint8_t>(c.zero);
              k.remat = static_cast<std::uint8_t>(remat);
              k.schedule = static_cast<std::uint8_t>(c.schedule);
              k.microbatches = static_cast<std::uint16_t>(c.microbatches);
              k.step_time = static_cast<float>(s.step_time);
              k.mem_total = static_cast<float>(s.mem_total);
              k.t_compute = static_cast<float>(s.t_compute);
              k.exposed = static_cast<float>(s.exposed);
              k.t_critical = static_cast<float>(s.t_critical);
              k.t_hbm = static_cast<float>(s.t_hbm);
              k.mfu_ceiling = static_cast<float>(s.mfu_ceiling);
              k.bound = s.bound;
              keep.offer(k, layout, p.slices, index);
            }
          }
        }
      }
    }
  }
  if (r.progress) r.progress(1);

  if (out.feasible == 0) {
    // The fewest chips that could hold the weights, gradients and optimizer state fully sharded
    // and the layer inputs of the whole batch (the smallest remat): the memory floor.
    const double state = sh.params * (r.base.w + r.base.g + r.base.optimizer_states * r.base.o);
    const double acts = r.base.a * sh.D * r.base.B * sh.L;
    out.fewest_chips = std::ceil((state + acts) / cap);
    return out;
  }
  out.top = keep.top(out.layouts);
  out.families = keep.families();
  out.pareto = keep.front();
  out.reasons = search_reasons(r, out);
  return out;
}

}  // namespace scalebook
