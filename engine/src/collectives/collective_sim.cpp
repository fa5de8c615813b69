#include "scalebook/collectives/collective_sim.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "collective_schedule.h"
#include "scalebook/core/format.h"

namespace scalebook {
namespace {

using collective_schedule::gather_steps;
using collective_schedule::i64;
using collective_schedule::Index;
using collective_schedule::ix;
using collective_schedule::Layout;
using collective_schedule::Move;
using collective_schedule::RawStep;
using collective_schedule::reduce_steps;
using collective_schedule::transpose_denominator;
using collective_schedule::transpose_steps;
using collective_schedule::Walk;

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

}  // namespace

Result<CollectiveSimResult> simulate_collective(const CollectiveSimRequest& q) {
  if (auto e = check_request(q)) return *e;
  Layout lay{q.shape, 1};
  std::vector<Walk> axes;
  std::vector<Axis> cost_axes;
  std::vector<int> order;
  i64 steps = 0;
  i64 denominator = 1;
  for (Index i = 0; i < q.shape.size(); ++i) {
    const Axis axis{i == 0 ? 'X' : 'Y', q.shape[i], q.wraparound};
    const Walk a{axis, q.bidirectional || !q.wraparound};
    lay.devices *= axis.size;
    axes.push_back(a);
    cost_axes.push_back(axis);
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
    for (const Walk& a : axes) denominator *= transpose_denominator(a);
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

}  // namespace scalebook
