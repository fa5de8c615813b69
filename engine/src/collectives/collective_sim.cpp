#include "scalebook/collectives/collective_sim.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "scalebook/collectives/collective.h"
#include "scalebook/core/format.h"
#include "scalebook/core/registry.h"
#include "scalebook/hardware/catalog.h"

namespace scalebook {
namespace {

using i64 = std::int64_t;
using Index = std::size_t;

Index ix(i64 x) { return static_cast<Index>(x); }
i64 wrap(i64 x, i64 n) { return ((x % n) + n) % n; }

// One axis: a ring used both ways, a ring used one way, or a line (always both ways).
struct Axis {
  i64 n = 1;
  bool ring = false;
  bool both = true;
  // Steps along it: the closed form's hops.
  i64 steps() const { return n <= 1 ? 0 : (ring && both ? n / 2 : n - 1); }
};

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

Schedule gather_schedule(const Axis& a) {
  Schedule s;
  const i64 n = a.n;
  s.steps.resize(ix(a.steps()));
  for (i64 t = 0; t < a.steps(); ++t) {
    std::vector<Hop>& hops = s.steps[ix(t)];
    if (a.ring) {
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

// Units a block splits into: n - 1 on a line, halves on a ring of even n used both ways.
i64 transpose_denominator(const Axis& a) {
  if (a.n <= 1) return 1;
  if (!a.ring) return a.n - 1;
  return a.both && a.n % 2 == 0 ? 2 : 1;
}

Schedule transpose_schedule(const Axis& a) {
  Schedule s;
  const i64 n = a.n;
  s.denominator = transpose_denominator(a);
  if (n <= 1) return s;
  if (!a.ring) {
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

// Devices of a 1D or 2D shape seen along one axis: lines of positions.
struct Layout {
  std::vector<i64> shape;
  i64 devices = 1;
  i64 lines(int axis) const { return devices / shape[ix(axis)]; }
  i64 device(int axis, i64 line, i64 pos) const {
    if (shape.size() == 1) return pos;
    return axis == 0 ? pos * shape[1] + line : line * shape[1] + pos;
  }
  i64 line_of(int axis, i64 d) const {
    if (shape.size() == 1) return 0;
    return axis == 0 ? d % shape[1] : d / shape[1];
  }
  i64 pos_of(int axis, i64 d) const {
    if (shape.size() == 1) return d;
    return axis == 0 ? d / shape[1] : d % shape[1];
  }
};

struct Move {
  i64 from, to, chunk;
  double bytes;
  int dir;
  i64 units;  // AllToAll: units of the block, of the run's common denominator
};

struct RawStep {
  CollectiveOp phase;
  int axis;
  std::vector<Move> moves;
};

// An AllGather along the axes in `order`; chunk c starts on device c.
std::vector<RawStep> gather_steps(const Layout& lay, const std::vector<Axis>& axes,
                                  const std::vector<int>& order, double chunk_bytes) {
  std::vector<RawStep> out;
  std::vector<std::vector<i64>> held(ix(lay.devices));
  for (i64 d = 0; d < lay.devices; ++d) held[ix(d)] = {d};
  for (int axis : order) {
    const Schedule s = gather_schedule(axes[ix(axis)]);
    const i64 n = axes[ix(axis)].n;
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

// The AllGather along the axes in reverse order, run backwards.
std::vector<RawStep> reduce_steps(const Layout& lay, const std::vector<Axis>& axes,
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

std::vector<RawStep> transpose_steps(const Layout& lay, const std::vector<Axis>& axes,
                                     double block_bytes, i64 denominator) {
  std::vector<RawStep> out;
  const i64 N = lay.devices;
  std::vector<i64> loc(ix(N * N));
  for (i64 b = 0; b < N * N; ++b) loc[ix(b)] = b / N;
  for (int axis = 0; axis < static_cast<int>(axes.size()); ++axis) {
    const Schedule s = transpose_schedule(axes[ix(axis)]);
    const i64 n = axes[ix(axis)].n;
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

// The most bytes any link carries one way in the step.
double busiest_link(const std::vector<Move>& moves, i64 devices) {
  std::vector<double> load(ix(2 * devices), 0);
  for (const Move& m : moves) load[ix(2 * m.from + (m.dir > 0 ? 1 : 0))] += m.bytes;
  return load.empty() ? 0 : *std::max_element(load.begin(), load.end());
}

std::vector<CollectiveMove> merged(std::vector<Move> moves) {
  std::sort(moves.begin(), moves.end(), [](const Move& a, const Move& b) {
    return std::tie(a.from, a.to, a.chunk) < std::tie(b.from, b.to, b.chunk);
  });
  std::vector<CollectiveMove> out;
  for (const Move& m : moves) {
    if (!out.empty() && out.back().from == m.from && out.back().to == m.to &&
        out.back().chunk == m.chunk) {
      out.back().bytes += m.bytes;
    } else {
      out.push_back({m.from, m.to, m.chunk, m.bytes});
    }
  }
  return out;
}

Error fail(ErrorCode code, const std::string& field, std::string message) {
  return Error{code, field, std::move(message)};
}

std::optional<Error> check_number(const std::string& field, double x, double min, bool exclusive,
                                  double max) {
  if (!std::isfinite(x)) {
    return fail(ErrorCode::invalid_argument, field,
                field + " must be a finite number, got " + format_number(x));
  }
  if (exclusive ? x <= min : x < min) {
    return fail(ErrorCode::out_of_range, field,
                field + " must be " + (exclusive ? "> " : ">= ") + format_number(min) + ", got " +
                    format_number(x));
  }
  if (x > max) {
    return fail(ErrorCode::out_of_range, field,
                field + " must be <= " + format_number(max) + ", got " + format_number(x));
  }
  return std::nullopt;
}

std::string shape_text(const std::vector<i64>& shape) {
  std::string out;
  for (i64 n : shape) out += (out.empty() ? "" : "x") + std::to_string(n);
  return out;
}

std::optional<Error> check_request(const CollectiveSimRequest& q) {
  if (q.shape.empty() || q.shape.size() > 2) {
    return fail(ErrorCode::invalid_argument, "shape",
                "shape must have one axis (a ring or a line) or two (a 2D torus), got " +
                    std::to_string(q.shape.size()));
  }
  double devices = 1;
  for (i64 n : q.shape) {
    if (n < 1) {
      return fail(ErrorCode::out_of_range, "shape",
                  "shape sizes must be >= 1, got " + std::to_string(n));
    }
    if (n > kMaxSimAxis) {
      return fail(
          ErrorCode::out_of_range, "shape",
          "shape sizes must be <= " + std::to_string(kMaxSimAxis) + ", got " + std::to_string(n));
    }
    devices *= static_cast<double>(n);
  }
  if (devices > kMaxSimDevices) {
    return fail(ErrorCode::out_of_range, "shape",
                "shape " + shape_text(q.shape) + " has " + format_number(devices) +
                    " devices; the simulation takes at most " + std::to_string(kMaxSimDevices));
  }
  if (auto e = check_number("bytes", q.bytes, 0, true, 1e18)) return e;
  if (auto e = check_number("bandwidth", q.bandwidth, 0, true, 1e18)) return e;
  if (auto e = check_number("latency", q.latency, 0, false, 1)) return e;
  if (!q.values.empty() && q.values.size() != static_cast<Index>(devices) &&
      q.values.size() != static_cast<Index>(devices * devices)) {
    return fail(ErrorCode::invalid_argument, "values",
                "values must have " + format_number(devices) + " numbers (one per device) or " +
                    format_number(devices * devices) +
                    " (one per device and destination device), got " +
                    std::to_string(q.values.size()));
  }
  for (Index i = 0; i < q.values.size(); ++i) {
    double v = q.values[i];
    if (!(std::fabs(v) <= kMaxSimValue) || v != std::floor(v)) {
      return fail(ErrorCode::invalid_argument, "values",
                  "values must be whole numbers from -1e6 to 1e6, got " + format_number(v) +
                      " at index " + std::to_string(i));
    }
  }
  return std::nullopt;
}

// The run's state: integer counts so shares stay exact.
class State {
 public:
  State(CollectiveOp op, i64 devices, i64 chunks, i64 whole, const std::vector<double>& values)
      : op_(op),
        devices_(devices),
        chunks_(chunks),
        whole_(whole),
        values_(values),
        count_(ix(devices * chunks), 0),
        sum_(ix(devices * chunks), 0) {
    for (i64 d = 0; d < devices; ++d) {
      for (i64 c = 0; c < chunks; ++c) {
        if (op == CollectiveOp::all_gather) {
          if (c == d) set(d, c, whole, value(c, c));
        } else if (op == CollectiveOp::all_to_all) {
          if (c / devices == d) set(d, c, whole, value(d, c % devices));
        } else {
          set(d, c, 1, value(d, c));
        }
      }
    }
  }

  void apply(const RawStep& step) {
    const std::vector<i64> count = count_;
    const std::vector<double> sum = sum_;
    for (const Move& m : step.moves) {
      Index from = at(m.from, m.chunk), to = at(m.to, m.chunk);
      if (step.phase == CollectiveOp::all_to_all) {
        count_[from] -= m.units;
        count_[to] += m.units;
      } else if (step.phase == CollectiveOp::all_gather) {
        count_[to] = count[from];
        sum_[to] = sum[from];
      } else {
        count_[to] += count[from];
        sum_[to] += sum[from];
      }
    }
  }

  std::vector<double> held() const {
    std::vector<double> out(count_.size());
    for (Index i = 0; i < out.size(); ++i)
      out[i] = static_cast<double>(count_[i]) / static_cast<double>(whole_);
    return out;
  }

  std::vector<double> sums() const {
    if (op_ != CollectiveOp::all_to_all) return sum_;
    std::vector<double> out(sum_.size());
    for (Index i = 0; i < out.size(); ++i) out[i] = count_[i] > 0 ? sum_[i] : 0;
    return out;
  }

 private:
  Index at(i64 d, i64 c) const { return ix(d * chunks_ + c); }
  void set(i64 d, i64 c, i64 count, double v) {
    count_[at(d, c)] = count;
    // An AllToAll block's value follows it wherever any of it is (sums() hides the rest).
    if (op_ == CollectiveOp::all_to_all) {
      for (i64 e = 0; e < devices_; ++e) sum_[at(e, c)] = v;
    } else {
      sum_[at(d, c)] = v;
    }
  }
  double value(i64 d, i64 c) const {
    if (values_.empty()) return 0;
    if (values_.size() == ix(devices_)) return values_[ix(d)];
    return values_[ix(d * devices_ + c)];
  }

  CollectiveOp op_;
  i64 devices_, chunks_, whole_;
  const std::vector<double>& values_;
  std::vector<i64> count_;
  std::vector<double> sum_;
};

std::string describe(const Value& v) {
  return v.is_number() ? format_number(v.number) : "\"" + v.text + "\"";
}

constexpr const char* kFields[] = {"op",        "shape",   "bytes", "wraparound", "bidirectional",
                                   "bandwidth", "latency", "values"};

}  // namespace

Result<CollectiveSimResult> simulate_collective(const CollectiveSimRequest& q) {
  if (auto e = check_request(q)) return *e;
  Layout lay{q.shape, 1};
  std::vector<Axis> axes;
  std::vector<CollectiveAxis> cost_axes;
  std::vector<int> order;
  i64 steps = 0;
  i64 denominator = 1;
  for (Index i = 0; i < q.shape.size(); ++i) {
    Axis a{q.shape[i], q.wraparound, q.bidirectional || !q.wraparound};
    lay.devices *= a.n;
    axes.push_back(a);
    cost_axes.push_back({i == 0 ? "X" : "Y", a.n, q.wraparound});
    order.push_back(static_cast<int>(i));
    steps += a.steps();
  }
  const CollectiveOp op = q.op;
  const bool a2a = op == CollectiveOp::all_to_all;
  const i64 N = lay.devices;
  const i64 chunks = a2a ? N * N : N;
  if (op == CollectiveOp::all_reduce) steps *= 2;
  double cells = static_cast<double>(N * chunks) * static_cast<double>(steps + 1);
  if (cells > kMaxSimStateValues) {
    return fail(ErrorCode::out_of_range, "shape",
                std::string("an ") + to_string(op) + " over " + shape_text(q.shape) + " records " +
                    format_number(cells) +
                    " state values (devices x chunks x states); the simulation takes at most " +
                    format_number(kMaxSimStateValues) + ": use fewer devices");
  }
  std::vector<RawStep> raw;
  const double chunk_bytes = q.bytes / static_cast<double>(N);
  if (a2a) {
    // A multiple of every axis's denominator, so each move is a whole number of units.
    for (const Axis& a : axes) denominator *= transpose_denominator(a);
    raw = transpose_steps(lay, axes, chunk_bytes / static_cast<double>(N), denominator);
  } else if (op == CollectiveOp::all_gather) {
    raw = gather_steps(lay, axes, order, chunk_bytes);
  } else {
    raw = reduce_steps(lay, axes, order, chunk_bytes);
    if (op == CollectiveOp::all_reduce) {
      std::vector<RawStep> gather = gather_steps(lay, axes, order, chunk_bytes);
      raw.insert(raw.end(), gather.begin(), gather.end());
    }
  }
  CollectiveSimResult r;
  r.op = op;
  r.shape = q.shape;
  r.devices = N;
  r.chunks = chunks;
  const i64 whole = a2a ? denominator : N;
  State state(op, N, chunks, whole, q.values);
  r.states.push_back(state.held());
  if (!q.values.empty()) r.sums.push_back(state.sums());
  double clock = 0;
  for (const RawStep& s : raw) {
    double duration = std::max(q.latency, busiest_link(s.moves, N) / q.bandwidth);
    state.apply(s);
    r.states.push_back(state.held());
    if (!q.values.empty()) r.sums.push_back(state.sums());
    r.steps.push_back({clock, duration, s.phase, s.axis, merged(s.moves)});
    clock += duration;
  }
  r.time = clock;
  r.closed_form =
      collective_cost(op, q.bytes, cost_axes, {q.bandwidth, q.latency, q.bidirectional}).time;
  return r;
}

Result<CollectiveSimRequest> collective_sim_request(const Inputs& fields,
                                                    std::vector<double> values) {
  for (const auto& [key, value] : fields) {
    bool known = false;
    std::string names;
    for (const char* f : kFields) {
      known = known || key == f;
      names += (names.empty() ? "" : ", ") + std::string(f);
    }
    if (!known) {
      return fail(ErrorCode::invalid_argument, key,
                  "simulateCollective has no field \"" + key + "\"; its fields are " + names);
    }
  }
  CollectiveSimRequest q;
  q.values = std::move(values);
  const Chip* link = find_chip(kDefaultChip);
  q.bandwidth = link ? link->ici_link_bandwidth : 0;
  q.latency = link ? link->ici_hop_latency : 0;
  Result<Schema> schema = schema_of("collective");
  for (const InputSpec& spec : schema.value().inputs)
    if (spec.name == "bytes") q.bytes = spec.default_value.number;
  q.shape = {8};
  auto given = [&](const char* name) -> const Value* {
    auto it = fields.find(name);
    return it == fields.end() || it->second.is_none() ? nullptr : &it->second;
  };
  if (const Value* v = given("op")) {
    auto op = v->is_text() ? parse_collective_op(v->text) : std::nullopt;
    if (!op) {
      std::string names;
      for (const std::string& n : collective_op_names()) names += (names.empty() ? "" : ", ") + n;
      return fail(ErrorCode::invalid_argument, "op",
                  "op must be one of " + names + ", got " + describe(*v));
    }
    q.op = *op;
  }
  if (const Value* v = given("shape")) {
    std::string text = v->is_number() ? format_number(v->number) : v->text;
    if (!parse_axis_sizes(text, q.shape)) {
      return fail(ErrorCode::invalid_argument, "shape",
                  "shape must be sizes joined by x, like 8 or 4x4, got \"" + text + "\"");
    }
  }
  for (const char* name : {"wraparound", "bidirectional"}) {
    const Value* v = given(name);
    if (!v) continue;
    if (!v->is_text() || (v->text != "yes" && v->text != "no")) {
      return fail(ErrorCode::invalid_argument, name,
                  std::string(name) + " must be one of yes, no, got " + describe(*v));
    }
    (std::string(name) == "wraparound" ? q.wraparound : q.bidirectional) = v->text == "yes";
  }
  for (auto [name, target] : {std::pair<const char*, double*>{"bytes", &q.bytes},
                              {"bandwidth", &q.bandwidth},
                              {"latency", &q.latency}}) {
    const Value* v = given(name);
    if (!v) continue;
    if (v->is_number()) {
      *target = v->number;
    } else if (!parse_decimal(v->text, *target)) {
      return fail(ErrorCode::invalid_argument, name,
                  std::string(name) + " must be a number, got " + describe(*v));
    }
  }
  return q;
}

}  // namespace scalebook
