// The search's streaming top k, families and Pareto front (keep.h).
#include "keep.h"

#include <algorithm>

namespace scalebook::search_keep {
namespace {

// The report's rule: a slower configuration of a layout already shown, needing no less memory,
// or a twin (the same degrees and slices, as fast and as large) tells the reader nothing.
bool dominated(const SearchConfig& x, double x_slices, const std::array<double, kStrategies>& xd,
               const SearchConfig& y, double y_slices, const std::array<double, kStrategies>& yd) {
  if (y.layout == x.layout && y.mem_total <= x.mem_total) return true;
  return y.step_time == x.step_time && y.mem_total == x.mem_total && y_slices == x_slices &&
         yd == xd;
}

}  // namespace

void Keeper::add_front(const SearchConfig& x) {
  front_.erase(std::remove_if(front_.begin(), front_.end(),
                              [&](const SearchConfig& y) {
                                return x.mem_total <= y.mem_total && x.step_time <= y.step_time;
                              }),
               front_.end());
  auto at = std::upper_bound(
      front_.begin(), front_.end(), x,
      [](const SearchConfig& a, const SearchConfig& b) { return a.mem_total < b.mem_total; });
  front_.insert(at, x);
}

void Keeper::add_top(const SearchConfig& x, const Twin& twin) {
  // After every equal key already in: ties keep the enumeration order.
  const auto at = std::upper_bound(pool_.begin(), pool_.end(), x, faster);
  const auto i = static_cast<std::size_t>(at - pool_.begin());
  pool_.insert(at, x);
  pool_twins_.insert(pool_twins_.begin() + static_cast<std::ptrdiff_t>(i), twin);
  // Which entries the report would choose depends only on those before them: drop everything
  // after the k-th chosen, which no later configuration can bring back.
  std::vector<std::size_t> chosen;
  for (std::size_t j = 0; j < pool_.size() && chosen.size() < k_; ++j) {
    bool out = false;
    for (std::size_t c : chosen)
      if (dominated(pool_[j], pool_twins_[j].slices, pool_twins_[j].degrees, pool_[c],
                    pool_twins_[c].slices, pool_twins_[c].degrees))
        out = true;
    if (!out) chosen.push_back(j);
  }
  if (chosen.size() == k_) {
    pool_.resize(chosen.back() + 1);
    pool_twins_.resize(chosen.back() + 1);
    full_ = true;
  }
}

std::vector<SearchConfig> Keeper::top(const std::vector<SearchLayout>& layouts) const {
  std::vector<SearchConfig> out;
  for (const SearchConfig& x : pool_) {
    if (out.size() == k_) break;
    bool out_of_it = false;
    for (const SearchConfig& y : out)
      if (dominated(x, layouts[x.layout].slices, layouts[x.layout].layout.degrees, y,
                    layouts[y.layout].slices, layouts[y.layout].layout.degrees))
        out_of_it = true;
    if (!out_of_it) out.push_back(x);
  }
  return out;
}

std::vector<SearchConfig> Keeper::families() const {
  std::vector<SearchConfig> out;
  for (const auto& f : families_)
    if (f) out.push_back(*f);
  return out;
}

}  // namespace scalebook::search_keep
