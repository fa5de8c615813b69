#include "scalebook/training/pipeline.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <utility>

#include "scalebook/core/format.h"
#include "schedules.h"

namespace scalebook {
namespace {

using pipeline_schedules::Unit;
using i64 = std::int64_t;

std::size_t ix(i64 i) { return static_cast<std::size_t>(i); }
double d(i64 x) { return static_cast<double>(x); }

Error out_of_range(const std::string& field, const std::string& message) {
  return {ErrorCode::out_of_range, field, field + message};
}

std::optional<Error> check_size(const char* name, i64 value, i64 most) {
  if (value < 1) return out_of_range(name, " must be >= 1, got " + std::to_string(value));
  if (value > most) {
    return out_of_range(
        name, " must be <= " + format_number(d(most)) + ", got " + format_number(d(value)));
  }
  return std::nullopt;
}

std::optional<Error> check_time(const char* name, double value, bool zero_ok) {
  std::string field(name);
  if (!std::isfinite(value)) {
    return Error{ErrorCode::invalid_argument, field,
                 field + " must be a finite number, got " + format_number(value)};
  }
  if (zero_ok ? value < 0 : !(value > 0)) {
    return out_of_range(field, std::string(zero_ok ? " must be >= 0" : " must be > 0") + ", got " +
                                   format_number(value));
  }
  if (value > kMaxPipelineCost) {
    return out_of_range(
        field, " must be <= " + format_number(kMaxPipelineCost) + ", got " + format_number(value));
  }
  return std::nullopt;
}

std::optional<Error> check(const PipelineRequest& q) {
  for (auto [name, value, most] :
       {std::tuple{"stages", q.stages, kMaxPipelineStages},
        {"microbatches", q.microbatches, kMaxPipelineMicrobatches},
        {"virtual_stages", q.virtual_stages, kMaxPipelineVirtualStages}}) {
    if (auto e = check_size(name, value, most)) return e;
  }
  for (auto [name, value, zero_ok] : {std::tuple{"forward_cost", q.forward_cost, false},
                                      {"backward_input_cost", q.backward_input_cost, false},
                                      {"backward_weight_cost", q.backward_weight_cost, true},
                                      {"transfer_time", q.transfer_time, true}}) {
    if (auto e = check_time(name, value, zero_ok)) return e;
  }
  for (auto [name, value] :
       {std::pair{"first_frame", q.first_frame}, {"max_frames", q.max_frames}}) {
    if (value < 0) return out_of_range(name, " must be >= 0, got " + std::to_string(value));
  }
  if (q.schedule == PipelineSchedule::interleaved && q.microbatches % q.stages != 0) {
    return Error{ErrorCode::invalid_argument, "microbatches",
                 "microbatches must be a multiple of stages (" + std::to_string(q.stages) +
                     ") for the interleaved schedule, got " + std::to_string(q.microbatches)};
  }
  double items = pipeline_schedules::item_count(q);
  if (!(q.max_items >= 1 && q.max_items <= kMaxPipelineItems)) {
    return out_of_range("max_items", " must be from 1 to " + std::to_string(kMaxPipelineItems) +
                                         ", got " + std::to_string(q.max_items));
  }
  if (items > d(q.max_items)) {
    i64 v = pipeline_schedules::chunks_of(q);
    return out_of_range(
        q.microbatches >= q.stages ? "microbatches" : "stages",
        std::string(" is too many for the simulator: stages = ") + std::to_string(q.stages) +
            ", microbatches = " + std::to_string(q.microbatches) + ", virtual_stages = " +
            std::to_string(v) + " make " + std::to_string(static_cast<i64>(items)) +
            " work items, over its budget of " + std::to_string(q.max_items));
  }
  return std::nullopt;
}

// The list schedule: each device runs its order, an item starting when the device is free and
// its inputs are in. Devices are revisited only when a neighbour finishes something, so each
// item is timed once.
class Simulation {
 public:
  explicit Simulation(const PipelineRequest& q)
      : q_(q), p_(q.stages), m_(q.microbatches), v_(pipeline_schedules::chunks_of(q)) {
    const std::size_t n = ix(p_ * v_ * m_);
    for (auto& ends : end_) ends.assign(n, -1);
    done_.assign(ix(p_ * v_ * 3), 0);
    last_end_.assign(ix(p_ * v_ * 3), 0);
    for (i64 s = 0; s < p_; ++s) orders_.push_back(pipeline_schedules::device_order(q, s));
    next_.assign(ix(p_), 0);
    free_.assign(ix(p_), 0);
    queued_.assign(ix(p_), 1);
    for (i64 s = p_ - 1; s >= 0; --s) queue_.push_back(s);
  }

  // False when some device's order can never finish (a schedule bug).
  bool run(std::vector<PipelineItem>& items) {
    // Stage s's items go to items[offset[s] ...], in the order it runs them.
    std::vector<std::size_t> offset(ix(p_) + 1, 0);
    for (i64 s = 0; s < p_; ++s) offset[ix(s) + 1] = offset[ix(s)] + orders_[ix(s)].size();
    items.resize(offset[ix(p_)]);
    while (!queue_.empty()) {
      i64 s = queue_.back();
      queue_.pop_back();
      queued_[ix(s)] = 0;
      const std::vector<Unit>& order = orders_[ix(s)];
      std::size_t& next = next_[ix(s)];
      while (next < order.size()) {
        const Unit& u = order[next];
        double ready = ready_time(s, u);
        if (ready < 0) break;
        double start = std::max(free_[ix(s)], ready);
        double end = start + cost(u.kind);
        finish(s, u, end);
        items[offset[ix(s)] + next] = {
            static_cast<std::int32_t>(s), u.microbatch, u.chunk, u.kind, start, end};
        free_[ix(s)] = end;
        ++next;
        wake((s + 1) % p_);
        wake((s + p_ - 1) % p_);
      }
    }
    for (i64 s = 0; s < p_; ++s) {
      if (next_[ix(s)] != orders_[ix(s)].size()) return false;
    }
    return true;
  }

 private:
  // Slot of a kind: F, the backward (B or I), W.
  static int slot(WorkKind kind) {
    return kind == WorkKind::forward ? 0 : kind == WorkKind::backward_weight ? 2 : 1;
  }
  double cost(WorkKind kind) const {
    double v = d(v_);
    switch (kind) {
      case WorkKind::forward:
        return q_.forward_cost / v;
      case WorkKind::backward:
        return (q_.backward_input_cost + q_.backward_weight_cost) / v;
      case WorkKind::backward_input:
        return q_.backward_input_cost / v;
      case WorkKind::backward_weight:
        return q_.backward_weight_cost / v;
    }
    return 0;
  }
  i64 model_chunk(i64 s, const Unit& u) const { return u.chunk * p_ + s; }
  double end_of(int kind_slot, i64 c, i64 i) const { return end_[kind_slot][ix(c * m_ + i)]; }
  // The transfer from model chunk a to b: none on one device.
  double hop(i64 a, i64 b) const { return a % p_ == b % p_ ? 0 : q_.transfer_time; }

  // When the inputs of u on device s are in, or -1 while some are not done.
  double ready_time(i64 s, const Unit& u) const {
    i64 c = model_chunk(s, u), last = p_ * v_ - 1, i = u.microbatch;
    bool naive = q_.schedule == PipelineSchedule::naive;
    auto after = [&](int kind_slot, i64 from) -> double {
      if (!naive) {
        double e = end_of(kind_slot, from, i);
        return e < 0 ? -1 : e + hop(from, c);
      }
      std::size_t k = ix(from * 3 + kind_slot);
      return done_[k] < m_ ? -1 : last_end_[k] + d(m_) * hop(from, c);
    };
    switch (u.kind) {
      case WorkKind::forward:
        return c == 0 ? 0 : after(0, c - 1);
      case WorkKind::backward:
      case WorkKind::backward_input: {
        double own = end_of(0, c, i);
        if (own < 0) return -1;
        if (c == last) return own;
        double downstream = after(1, c + 1);
        return downstream < 0 ? -1 : std::max(own, downstream);
      }
      case WorkKind::backward_weight:
        return end_of(1, c, i);
    }
    return -1;
  }

  void finish(i64 s, const Unit& u, double end) {
    i64 c = model_chunk(s, u);
    int k = slot(u.kind);
    end_[k][ix(c * m_ + u.microbatch)] = end;
    std::size_t j = ix(c * 3 + k);
    ++done_[j];
    last_end_[j] = std::max(last_end_[j], end);
  }

  void wake(i64 s) {
    if (queued_[ix(s)]) return;
    queued_[ix(s)] = 1;
    queue_.push_back(s);
  }

  const PipelineRequest& q_;
  i64 p_, m_, v_;
  std::vector<double> end_[3];  // per kind slot, per model chunk and microbatch; -1: not done
  std::vector<i64> done_;       // per model chunk and kind slot: items done (naive's barrier)
  std::vector<double> last_end_;
  std::vector<std::vector<Unit>> orders_;
  std::vector<std::size_t> next_;
  std::vector<double> free_;
  std::vector<char> queued_;
  std::vector<i64> queue_;
};

// Activations a stage holds, in chunk units: + 1 when a forward ends, - 1 when its backward
// (B or I) ends.
int activation_change(WorkKind kind) {
  if (kind == WorkKind::forward) return 1;
  if (kind == WorkKind::backward || kind == WorkKind::backward_input) return -1;
  return 0;
}

void summarize(PipelineResult& r, i64 p, i64 v) {
  r.stages.assign(ix(p), {});
  std::vector<i64> held(ix(p), 0), peak(ix(p), 0);
  for (const PipelineItem& item : r.items) {
    std::size_t s = ix(item.stage);
    r.stages[s].busy += item.end - item.start;
    r.step_time = std::max(r.step_time, item.end);
    held[s] += activation_change(item.kind);
    peak[s] = std::max(peak[s], held[s]);
  }
  double idle = 0;
  for (std::size_t s = 0; s < ix(p); ++s) {
    r.stages[s].idle = r.step_time - r.stages[s].busy;
    r.stages[s].peak_activations = d(peak[s]) / d(v);
    idle += r.stages[s].idle;
    r.peak_activations = std::max(r.peak_activations, r.stages[s].peak_activations);
  }
  r.bubble_fraction = idle / (d(p) * r.step_time);
}

// Frames: one per interval between consecutive event times, [first, first + count) of them.
void record_frames(PipelineResult& r, const PipelineRequest& q, i64 v) {
  std::vector<double> times;
  times.reserve(2 * r.items.size() + 1);
  times.push_back(0);
  for (const PipelineItem& item : r.items) times.push_back(item.start), times.push_back(item.end);
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  i64 p = q.stages;
  r.frame_count = static_cast<i64>(times.size()) - 1;
  i64 first = std::min(q.first_frame, r.frame_count);
  i64 count = std::min(q.max_frames, r.frame_count - first);
  r.frames_truncated = count > kMaxPipelineFrameCells / p;
  count = std::min(count, kMaxPipelineFrameCells / p);
  // Items are grouped by stage: stage s's are [stop[s - 1], stop[s]). Per stage, next is its
  // first item not yet ended and held the activations its ended items leave.
  std::vector<std::size_t> next(ix(p), 0), stop(ix(p), 0);
  for (const PipelineItem& item : r.items) ++stop[ix(item.stage)];
  for (i64 s = 1; s < p; ++s) stop[ix(s)] += stop[ix(s - 1)];
  for (i64 s = 1; s < p; ++s) next[ix(s)] = stop[ix(s - 1)];
  std::vector<i64> held(ix(p), 0);
  auto advance = [&](i64 s, double t) {
    std::size_t& k = next[ix(s)];
    while (k < stop[ix(s)] && r.items[k].end <= t)
      held[ix(s)] += activation_change(r.items[k++].kind);
  };
  for (i64 f = first; f < first + count; ++f) {
    double t = times[ix(f)];
    PipelineFrame frame{t, times[ix(f + 1)] - t, std::vector<std::int32_t>(ix(p), -1),
                        std::vector<double>(ix(p), 0)};
    for (i64 s = 0; s < p; ++s) {
      advance(s, t);
      std::size_t k = next[ix(s)];
      if (k < stop[ix(s)] && r.items[k].start <= t)
        frame.running[ix(s)] = static_cast<std::int32_t>(k);
      frame.activations[ix(s)] = d(held[ix(s)]) / d(v);
    }
    r.frames.push_back(std::move(frame));
  }
}

}  // namespace

Result<PipelineResult> simulate_pipeline(const PipelineRequest& q) {
  if (auto e = check(q)) return *e;
  PipelineResult r;
  Simulation sim(q);
  if (!sim.run(r.items)) {
    return Error{ErrorCode::internal, "schedule",
                 std::string("the ") + to_string(q.schedule) + " schedule deadlocked; a bug"};
  }
  i64 v = pipeline_schedules::chunks_of(q);
  summarize(r, q.stages, v);
  r.ideal_time =
      d(q.microbatches) * (q.forward_cost + q.backward_input_cost + q.backward_weight_cost);
  r.closed_form = pipeline_closed_form(q);
  if (q.max_frames > 0) record_frames(r, q, v);
  return r;
}

}  // namespace scalebook
