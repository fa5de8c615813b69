#include "schedules.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace scalebook {
namespace {

using pipeline_schedules::Unit;
using i64 = std::int64_t;

Unit unit(i64 microbatch, i64 chunk, WorkKind kind) {
  return {static_cast<std::int32_t>(microbatch), static_cast<std::int32_t>(chunk), kind};
}

// gpipe and naive: every forward, then every backward, microbatch 0 first.
std::vector<Unit> all_forward_then_backward(i64 m) {
  std::vector<Unit> order;
  order.reserve(static_cast<std::size_t>(2 * m));
  for (i64 i = 0; i < m; ++i) order.push_back(unit(i, 0, WorkKind::forward));
  for (i64 i = 0; i < m; ++i) order.push_back(unit(i, 0, WorkKind::backward));
  return order;
}

// 1f1b, and zero-bubble (split = true): stage s's warmup forwards, then forward and backward
// alternately, then the backwards left; zero-bubble runs W of j right after I of j + s.
std::vector<Unit> one_f_one_b(i64 p, i64 m, i64 s, bool split) {
  i64 warmup = std::min(p - 1 - s, m);
  std::vector<Unit> order;
  order.reserve(static_cast<std::size_t>((split ? 3 : 2) * m));
  i64 next_w = 0;
  auto backward = [&](i64 k) {
    order.push_back(unit(k, 0, split ? WorkKind::backward_input : WorkKind::backward));
    if (split && k >= s) order.push_back(unit(next_w++, 0, WorkKind::backward_weight));
  };
  for (i64 i = 0; i < warmup; ++i) order.push_back(unit(i, 0, WorkKind::forward));
  for (i64 k = 0; k < m - warmup; ++k) {
    order.push_back(unit(warmup + k, 0, WorkKind::forward));
    backward(k);
  }
  for (i64 k = m - warmup; k < m; ++k) backward(k);
  while (split && next_w < m) order.push_back(unit(next_w++, 0, WorkKind::backward_weight));
  return order;
}

// Megatron-LM's interleaved 1F1B (forward_backward_pipelining_with_interleaving): work units
// go in groups of p microbatches per chunk; backward units run the chunks in reverse.
std::vector<Unit> interleaved(i64 p, i64 m, i64 v, i64 s) {
  i64 total = m * v;
  i64 warmup = std::min(2 * (p - 1 - s) + (v - 1) * p, total);
  auto at = [&](i64 k, bool forward) {
    i64 in_group = k % (p * v);
    i64 chunk = in_group / p;
    return unit(k / (p * v) * p + k % p, forward ? chunk : v - 1 - chunk,
                forward ? WorkKind::forward : WorkKind::backward);
  };
  std::vector<Unit> order;
  order.reserve(static_cast<std::size_t>(2 * total));
  for (i64 k = 0; k < warmup; ++k) order.push_back(at(k, true));
  for (i64 k = 0; k < total - warmup; ++k) {
    order.push_back(at(warmup + k, true));
    order.push_back(at(k, false));
  }
  for (i64 k = total - warmup; k < total; ++k) order.push_back(at(k, false));
  return order;
}

}  // namespace

namespace pipeline_schedules {

i64 chunks_of(const PipelineRequest& q) {
  return q.schedule == PipelineSchedule::interleaved ? q.virtual_stages : 1;
}

double item_count(const PipelineRequest& q) {
  double kinds = q.schedule == PipelineSchedule::zero_bubble ? 3 : 2;
  return static_cast<double>(q.stages) * static_cast<double>(q.microbatches) *
         static_cast<double>(chunks_of(q)) * kinds;
}

std::vector<Unit> device_order(const PipelineRequest& q, i64 stage) {
  i64 p = q.stages, m = q.microbatches;
  switch (q.schedule) {
    case PipelineSchedule::naive:
    case PipelineSchedule::gpipe:
      return all_forward_then_backward(m);
    case PipelineSchedule::one_f_one_b:
      return one_f_one_b(p, m, stage, false);
    case PipelineSchedule::zero_bubble:
      return one_f_one_b(p, m, stage, true);
    case PipelineSchedule::interleaved:
      if (q.virtual_stages == 1) return one_f_one_b(p, m, stage, false);
      return interleaved(p, m, q.virtual_stages, stage);
  }
  return all_forward_then_backward(m);
}

}  // namespace pipeline_schedules

std::optional<PipelineSchedule> parse_pipeline_schedule(std::string_view text) {
  if (text == "naive") return PipelineSchedule::naive;
  if (text == "gpipe") return PipelineSchedule::gpipe;
  if (text == "1f1b") return PipelineSchedule::one_f_one_b;
  if (text == "interleaved") return PipelineSchedule::interleaved;
  if (text == "zero-bubble") return PipelineSchedule::zero_bubble;
  return std::nullopt;
}

const char* to_string(PipelineSchedule schedule) {
  switch (schedule) {
    case PipelineSchedule::naive:
      return "naive";
    case PipelineSchedule::gpipe:
      return "gpipe";
    case PipelineSchedule::one_f_one_b:
      return "1f1b";
    case PipelineSchedule::interleaved:
      return "interleaved";
    case PipelineSchedule::zero_bubble:
      return "zero-bubble";
  }
  return "1f1b";
}

const char* to_string(WorkKind kind) {
  switch (kind) {
    case WorkKind::forward:
      return "F";
    case WorkKind::backward:
      return "B";
    case WorkKind::backward_input:
      return "I";
    case WorkKind::backward_weight:
      return "W";
  }
  return "F";
}

PipelineClosedForm pipeline_closed_form(const PipelineRequest& q) {
  double p = static_cast<double>(q.stages), m = static_cast<double>(q.microbatches);
  double v = static_cast<double>(q.virtual_stages);
  double f = q.forward_cost, b = q.backward_input_cost, w = q.backward_weight_cost;
  PipelineClosedForm c;
  switch (q.schedule) {
    case PipelineSchedule::naive:
      c.bubble_fraction = (p - 1) / p;
      c.peak_activations = m;
      break;
    case PipelineSchedule::gpipe:
      c.bubble_fraction = (p - 1) / (m + p - 1);
      c.peak_activations = m;
      break;
    case PipelineSchedule::one_f_one_b:
      c.bubble_fraction = (p - 1) / (m + p - 1);
      c.peak_activations = std::min(p, m);
      break;
    case PipelineSchedule::interleaved:
      c.bubble_fraction = (p - 1) / (v * m + p - 1);
      c.peak_activations =
          v == 1 ? std::min(p, m) : std::min(2 * (p - 1) + (v - 1) * p + 1, m * v) / v;
      break;
    case PipelineSchedule::zero_bubble: {
      double bubble = (p - 1) * (f + b - w);
      c.bubble_fraction = w <= f && w <= b && m >= p ? bubble / (m * (f + b + w) + bubble)
                                                     : std::numeric_limits<double>::quiet_NaN();
      c.peak_activations = std::min(p, m);
      break;
    }
  }
  return c;
}

}  // namespace scalebook
