#include "collective_schedule.h"

#include <algorithm>
#include <map>
#include <utility>

namespace scalebook::collective_schedule {
namespace {

i64 wrap(i64 x, i64 n) { return ((x % n) + n) % n; }

// Position `from` sends along `dir` (+1 or -1) what position `src` started with: its shard
// (AllGather), or `units` of the blocks it holds for position `dst` (AllToAll).
struct Hop {
  i64 from = 0;
  int dir = 1;
  i64 src = 0;
  i64 dst = 0;
  i64 units = 1;
};

// Hops per step; an AllToAll block is `denominator` units.
struct Schedule {
  i64 denominator = 1;
  std::vector<std::vector<Hop>> steps;
};

Schedule gather_schedule(const Walk& a) {
  Schedule s;
  const i64 n = a.axis.size;
  s.steps.resize(ix(a.steps()));
  for (i64 t = 0; t < a.steps(); ++t) {
    std::vector<Hop>& hops = s.steps[ix(t)];
    if (a.axis.wraps) {
      // Shard c goes right to c + 1 .. c + right and (both ways) left to the rest.
      i64 right = a.both ? n / 2 : n - 1;
      i64 left = n - 1 - right;
      for (i64 d = 0; d < n; ++d) {
        if (t < right) hops.push_back({d, 1, wrap(d - t, n), 0, 1});
        if (t < left) hops.push_back({d, -1, wrap(d + t, n), 0, 1});
      }
      continue;
    }
    for (i64 d = t; d + 1 < n; ++d) hops.push_back({d, 1, d - t, 0, 1});
    for (i64 d = 1; d + t < n; ++d) hops.push_back({d, -1, d + t, 0, 1});
  }
  return s;
}

// Line AllToAll, the blocks going right: each link forwards at most lo * hi units a step
// (a block is n - 1 units), farthest destination first.
std::vector<std::vector<Hop>> line_rightward(i64 n) {
  const i64 capacity = (n / 2) * (n - n / 2);
  // Pieces at each position, keyed (-dst, src) so the map iterates in priority order.
  std::vector<std::map<std::pair<i64, i64>, i64>> at(ix(n));
  for (i64 a = 0; a < n; ++a)
    for (i64 b = a + 1; b < n; ++b) at[ix(a)][{-b, a}] = n - 1;
  std::vector<std::vector<Hop>> steps(ix(n - 1));
  for (i64 t = 0; t + 1 < n; ++t) {
    for (i64 d = 0; d + 1 < n; ++d) {
      i64 room = capacity;
      for (const auto& [key, units] : at[ix(d)]) {
        if (room == 0 || -key.first <= d) break;
        i64 sent = std::min(units, room);
        room -= sent;
        steps[ix(t)].push_back({d, 1, key.second, -key.first, sent});
      }
    }
    for (const Hop& h : steps[ix(t)]) {
      auto& from = at[ix(h.from)];
      auto it = from.find({-h.dst, h.src});
      if ((it->second -= h.units) == 0) from.erase(it);
      at[ix(h.from + 1)][{-h.dst, h.src}] += h.units;
    }
  }
  return steps;
}

Schedule transpose_schedule(const Walk& a) {
  Schedule s;
  const i64 n = a.axis.size;
  s.denominator = transpose_denominator(a);
  if (n <= 1) return s;
  if (!a.axis.wraps) {
    s.steps = line_rightward(n);
    for (std::vector<Hop>& step : s.steps) {
      Index right = step.size();
      for (Index i = 0; i < right; ++i) {  // the mirror image carries the blocks going left
        const Hop& h = step[i];
        step.push_back({n - 1 - h.from, -1, n - 1 - h.src, n - 1 - h.dst, h.units});
      }
    }
    return s;
  }
  s.steps.resize(ix(a.steps()));
  for (i64 q = 0; q < n; ++q) {
    for (i64 r = 0; r < n; ++r) {
      i64 right = wrap(r - q, n), left = n - right;
      if (right == 0) continue;
      std::vector<std::pair<int, i64>> ways;  // direction, units
      if (!a.both || right < left) ways.push_back({1, s.denominator});
      if (a.both && left < right) ways.push_back({-1, s.denominator});
      if (a.both && left == right) ways = {{1, 1}, {-1, 1}};
      for (auto [dir, units] : ways) {
        i64 hops = dir > 0 ? right : left;
        for (i64 t = 0; t < hops; ++t)
          s.steps[ix(t)].push_back({wrap(q + dir * t, n), dir, q, r, units});
      }
    }
  }
  return s;
}

}  // namespace

i64 transpose_denominator(const Walk& a) {
  if (a.axis.size <= 1) return 1;
  if (!a.axis.wraps) return a.axis.size - 1;
  return a.both && a.axis.size % 2 == 0 ? 2 : 1;
}

std::vector<RawStep> gather_steps(const Layout& lay, const std::vector<Walk>& axes,
                                  const std::vector<int>& order, double chunk_bytes) {
  std::vector<RawStep> out;
  std::vector<std::vector<i64>> held(ix(lay.devices));
  for (i64 d = 0; d < lay.devices; ++d) held[ix(d)] = {d};
  for (int axis : order) {
    const Schedule s = gather_schedule(axes[ix(axis)]);
    const i64 n = axes[ix(axis)].axis.size;
    for (const std::vector<Hop>& hops : s.steps) {
      RawStep step{CollectiveOp::all_gather, axis, {}};
      for (i64 l = 0; l < lay.lines(axis); ++l) {
        for (const Hop& h : hops) {
          i64 from = lay.device(axis, l, h.from), to = lay.device(axis, l, wrap(h.from + h.dir, n));
          for (i64 c : held[ix(lay.device(axis, l, h.src))])
            step.moves.push_back({from, to, c, chunk_bytes, h.dir, 0});
        }
      }
      out.push_back(std::move(step));
    }
    std::vector<std::vector<i64>> next(ix(lay.devices));
    for (i64 d = 0; d < lay.devices; ++d) {
      i64 l = lay.line_of(axis, d);
      for (i64 p = 0; p < n; ++p) {
        const auto& items = held[ix(lay.device(axis, l, p))];
        next[ix(d)].insert(next[ix(d)].end(), items.begin(), items.end());
      }
    }
    held = std::move(next);
  }
  return out;
}

std::vector<RawStep> reduce_steps(const Layout& lay, const std::vector<Walk>& axes,
                                  std::vector<int> order, double chunk_bytes) {
  std::reverse(order.begin(), order.end());
  std::vector<RawStep> steps = gather_steps(lay, axes, order, chunk_bytes);
  std::reverse(steps.begin(), steps.end());
  for (RawStep& s : steps) {
    s.phase = CollectiveOp::reduce_scatter;
    for (Move& m : s.moves) {
      std::swap(m.from, m.to);
      m.dir = -m.dir;
    }
  }
  return steps;
}

std::vector<RawStep> transpose_steps(const Layout& lay, const std::vector<Walk>& axes,
                                     double block_bytes, i64 denominator) {
  std::vector<RawStep> out;
  const i64 N = lay.devices;
  std::vector<i64> loc(ix(N * N));
  for (i64 b = 0; b < N * N; ++b) loc[ix(b)] = b / N;
  for (int axis = 0; axis < static_cast<int>(axes.size()); ++axis) {
    const Schedule s = transpose_schedule(axes[ix(axis)]);
    const i64 n = axes[ix(axis)].axis.size;
    // The blocks at device d bound for position r along this axis.
    std::vector<std::vector<i64>> group(ix(N * n));
    for (i64 b = 0; b < N * N; ++b)
      group[ix(loc[ix(b)] * n + lay.pos_of(axis, b % N))].push_back(b);
    const i64 scale = denominator / s.denominator;
    const double unit_bytes = block_bytes / static_cast<double>(s.denominator);
    for (const std::vector<Hop>& hops : s.steps) {
      RawStep step{CollectiveOp::all_to_all, axis, {}};
      for (i64 l = 0; l < lay.lines(axis); ++l) {
        for (const Hop& h : hops) {
          i64 from = lay.device(axis, l, h.from), to = lay.device(axis, l, wrap(h.from + h.dir, n));
          for (i64 b : group[ix(lay.device(axis, l, h.src) * n + h.dst)]) {
            step.moves.push_back(
                {from, to, b, unit_bytes * static_cast<double>(h.units), h.dir, h.units * scale});
          }
        }
      }
      out.push_back(std::move(step));
    }
    for (i64 b = 0; b < N * N; ++b) {
      i64 d = loc[ix(b)];
      loc[ix(b)] = lay.device(axis, lay.line_of(axis, d), lay.pos_of(axis, b % N));
    }
  }
  return out;
}

}  // namespace scalebook::collective_schedule
