// Chapter 5's FSDP x TP trade-off over every power-of-two split (split.h).
#include "scalebook/training/split.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "scalebook/core/format.h"

namespace scalebook {
namespace {

constexpr double kCurveFrom = 1, kCurveTo = 1e5;  // tokens per chip
constexpr int kPerDecade = 5;
constexpr std::size_t kMaxNamed = 8;

std::string whole(double x) { return format_number(x); }

std::vector<double> curve_batches() {
  std::vector<double> b;
  const int points = static_cast<int>(std::lround(std::log10(kCurveTo / kCurveFrom))) * kPerDecade;
  for (int i = 0; i <= points; ++i)
    b.push_back(kCurveFrom * std::pow(10.0, double(i) / kPerDecade));
  return b;
}

bool power_of_two(double x) { return x >= 1 && std::exp2(std::round(std::log2(x))) == x; }

}  // namespace

std::optional<Error> check_split(const SplitRequest& q) {
  if (q.chips < 2)
    return Error{ErrorCode::invalid_argument, "shape",
                 "the slice has " + whole(q.chips) + " chip; FSDP x TP needs at least 2 to split"};
  const double room = std::max(q.axes, 2.0);
  if (q.m_x > q.axes)
    return Error{ErrorCode::out_of_range, "M_X",
                 "M_X = " + whole(q.m_x) + " axes is more than the slice's " + whole(q.axes)};
  if (q.m_y > q.axes)
    return Error{ErrorCode::out_of_range, "M_Y",
                 "M_Y = " + whole(q.m_y) + " axes is more than the slice's " + whole(q.axes)};
  if (q.m_x + q.m_y > room)
    return Error{ErrorCode::out_of_range, "M_Y",
                 "M_X + M_Y = " + whole(q.m_x + q.m_y) + " axes is more than the slice's " +
                     whole(q.axes) + "; FSDP and TP span different axes"};
  if (q.named.size() > kMaxNamed)
    return Error{ErrorCode::out_of_range, "splits",
                 "splits names " + whole(double(q.named.size())) + " splits; at most " +
                     whole(double(kMaxNamed))};
  for (double x : q.named) {
    if (std::fmod(q.chips, x) != 0)
      return Error{ErrorCode::invalid_argument, "splits",
                   "an FSDP degree of " + whole(x) + " does not divide the slice's " +
                       whole(q.chips) + " chips"};
  }
  return std::nullopt;
}

SplitRow split_row(const SplitRequest& q, double x, double batch) {
  SplitRow r;
  r.x = x;
  r.y = q.chips / x;
  // A degree of 1 moves nothing, and leaves every axis to the other strategy.
  const bool no_tp = r.y <= 1, no_fsdp = x <= 1;
  r.m_x = no_fsdp ? 0 : no_tp ? q.axes : q.m_x;
  r.m_y = no_tp ? 0 : no_fsdp ? q.axes : q.m_y;
  const double w_ici = 2 * q.ici_link;
  r.t_fsdp = no_fsdp ? 0 : 2 * q.w * q.D * q.F / (r.y * w_ici * r.m_x);
  r.t_tp = no_tp ? 0 : 2 * q.a * batch * q.D / (x * w_ici * r.m_y);
  r.t_comms = std::max(r.t_fsdp, r.t_tp);
  r.t_math = 4 * batch * q.D * q.F / (q.chips * q.peak_flops);
  r.ratio = r.t_comms > 0 ? r.t_math / r.t_comms : std::numeric_limits<double>::infinity();
  return r;
}

SplitAnalysis analyse_split(const SplitRequest& q) {
  SplitAnalysis s;
  s.w_ici = 2 * q.ici_link;
  s.alpha = q.peak_flops / s.w_ici;
  s.per_chip = q.B / q.chips;
  s.x_opt = std::sqrt(q.B / q.F * q.m_x / q.m_y * q.chips);
  s.y_opt = q.chips / s.x_opt;
  s.fsdp_batch = s.alpha / q.axes;
  s.mixed_batch = s.alpha * s.alpha / (q.m_x * q.m_y * q.F);
  s.mixed_global = q.chips * s.mixed_batch;
  s.max_tp = q.m_y * q.F / s.alpha;
  for (double x = 1; x <= q.chips && std::fmod(q.chips, x) == 0; x *= 2)
    s.rows.push_back(split_row(q, x, q.B));
  if (!power_of_two(q.chips)) s.rows.push_back(split_row(q, q.chips, q.B));
  for (std::size_t i = 1; i < s.rows.size(); ++i)
    if (s.rows[i].ratio > s.rows[s.best].ratio) s.best = i;
  for (double b : curve_batches()) {
    SplitCurve c;
    c.per_chip = b;
    c.fsdp = split_row(q, q.chips, b * q.chips).ratio;
    c.tp = split_row(q, 1, b * q.chips).ratio;
    // The mix only where X_opt is a real split of the slice: beyond 1..N it is pure TP or
    // pure FSDP, whose own curves show them.
    const double x = std::sqrt(b * q.chips / q.F * q.m_x / q.m_y * q.chips);
    c.mixed = x >= 1 && x <= q.chips ? split_row(q, x, b * q.chips).ratio
                                     : std::numeric_limits<double>::quiet_NaN();
    s.curves.push_back(c);
  }
  std::vector<double> named = q.named;
  if (named.empty()) {
    const double x = std::clamp(s.x_opt, 1.0, q.chips);
    named = {q.chips, 1};
    for (double p : {std::exp2(std::floor(std::log2(x))), std::exp2(std::ceil(std::log2(x)))})
      if (std::fmod(q.chips, p) == 0 && std::find(named.begin(), named.end(), p) == named.end())
        named.push_back(p);
  }
  for (double x : named) {
    for (double b : curve_batches()) {
      const SplitRow r = split_row(q, x, b * q.chips);
      s.times.push_back({r.x, r.y, b * q.chips, r.t_comms, r.t_math});
    }
  }
  return s;
}

}  // namespace scalebook
