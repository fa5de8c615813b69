#pragma once
// What the search keeps while it enumerates: the top k (with the report's rule that a layout
// shows again only with less memory, and a twin of the same degrees not at all), the fastest of
// each family and the memory / step-time Pareto front. Each is exactly what sorting every
// feasible configuration would give, ties in enumeration order, without storing them all.
#include <algorithm>
#include <array>
#include <cstddef>
#include <iterator>
#include <optional>
#include <vector>

#include "scalebook/training/search.h"

namespace scalebook::search_keep {

// Step time, then memory; equal keys keep the order they came in.
inline bool faster(const SearchConfig& a, const SearchConfig& b) {
  if (a.step_time != b.step_time) return a.step_time < b.step_time;
  return a.mem_total < b.mem_total;
}

class Keeper {
 public:
  explicit Keeper(std::size_t k) : k_(k) {}

  // Offers x, whose layout is `layout` (x.layout is ignored: `index` stores the layout, once,
  // and returns its index, when x is kept anywhere).
  template <class Index>
  void offer(SearchConfig x, const ParallelLayout& layout, double slices, Index&& index) {
    const bool to_top = wants_top(x);
    const auto f = static_cast<std::size_t>(family_of(layout));
    const bool to_family = !families_[f] || faster(x, *families_[f]);
    const bool to_front = wants_front(x);
    if (!to_top && !to_family && !to_front) return;
    x.layout = index();
    if (to_family) families_[f] = x;
    if (to_front) add_front(x);
    if (to_top) add_top(x, {slices, layout.degrees});
  }

  std::vector<SearchConfig> top(const std::vector<SearchLayout>& layouts) const;
  std::vector<SearchConfig> families() const;
  const std::vector<SearchConfig>& front() const { return front_; }

 private:
  bool wants_top(const SearchConfig& x) const {
    return k_ > 0 && (!full_ || faster(x, pool_.back()));
  }
  // The front is by memory with step times falling, so the one that could dominate x is the
  // last that needs no more memory than x.
  bool wants_front(const SearchConfig& x) const {
    auto after = std::upper_bound(front_.begin(), front_.end(), x.mem_total,
                                  [](float m, const SearchConfig& y) { return m < y.mem_total; });
    return after == front_.begin() || std::prev(after)->step_time > x.step_time;
  }
  void add_front(const SearchConfig& x);
  // What the twin rule compares of a layout.
  struct Twin {
    double slices;
    std::array<double, kStrategies> degrees;
  };
  void add_top(const SearchConfig& x, const Twin& twin);

  std::size_t k_;
  std::vector<SearchConfig> pool_;  // by faster; ends at the k-th chosen once there are k
  std::vector<Twin> pool_twins_;    // each pool entry's slices and degrees
  bool full_ = false;
  std::array<std::optional<SearchConfig>, kSearchFamilies> families_;
  std::vector<SearchConfig> front_;  // by memory, each faster than all before it
};

}  // namespace scalebook::search_keep
