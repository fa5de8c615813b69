#include "scalebook/core/sweep.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>

#include "scalebook/core/format.h"

namespace scalebook {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Error fail(ErrorCode code, const std::string& field, std::string message) {
  return Error{code, field, std::move(message)};
}

// The kind of input `over` names: number, count, or a named dimension (a count).
Result<InputKind> varied_kind(const Schema& schema, const std::string& over) {
  for (const InputSpec& spec : schema.inputs) {
    if (spec.name != over) continue;
    if (spec.kind == InputKind::number || spec.kind == InputKind::count) return spec.kind;
    return fail(ErrorCode::invalid_argument, "over",
                "over must name a number input of " + schema.name + ", and " + over + " is a " +
                    to_string(spec.kind));
  }
  bool dimension = !schema.dimensions.empty() && !over.empty() && over[0] >= 'A' && over[0] <= 'Z';
  if (dimension) return InputKind::count;
  std::string names;
  for (const InputSpec& spec : schema.inputs) {
    if (spec.kind == InputKind::number || spec.kind == InputKind::count)
      names += (names.empty() ? "" : ", ") + spec.name;
  }
  return fail(
      ErrorCode::invalid_argument, "over",
      schema.name + " has no number input \"" + over + "\"; its number inputs are " + names);
}

Error at_point(const std::string& over, double x, Error e) {
  e.message = "at " + over + "=" + format_number(x) + ": " + e.message;
  return e;
}

// One numbers-only evaluation of the solved output with `over` set to x.
struct Probe {
  PreparedCalculation& prepared;
  const std::string& over;

  Result<double> operator()(double x) {
    double y = kNaN;
    if (std::optional<Error> bad = prepared.evaluate(&x, &y)) return at_point(over, x, *bad);
    return y;
  }
};

}  // namespace

Result<std::vector<double>> sweep_points(double from, double to, int count, bool log, bool whole) {
  if (!std::isfinite(from) || !std::isfinite(to) || !(from < to)) {
    return fail(ErrorCode::invalid_argument, "from",
                "from must be a finite number below to, got from=" + format_number(from) +
                    " to=" + format_number(to));
  }
  if (count < 2 || count > kMaxSweepPoints) {
    return fail(ErrorCode::out_of_range, "points",
                "points must be from 2 to " + std::to_string(kMaxSweepPoints) + ", got " +
                    std::to_string(count));
  }
  if (log && !(from > 0)) {
    return fail(ErrorCode::invalid_argument, "from",
                "a log sweep needs from > 0, got " + format_number(from));
  }
  std::vector<double> xs(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    double t = static_cast<double>(i) / (count - 1);
    xs[static_cast<std::size_t>(i)] = log ? from * std::pow(to / from, t) : from + (to - from) * t;
  }
  xs.back() = to;
  if (whole) {
    for (double& x : xs) x = std::round(x);
    xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
  }
  return xs;
}

Result<SweepResult> sweep(const SweepRequest& request) {
  Result<Schema> schema = schema_of(request.calculator);
  if (!schema.ok()) return schema.error();
  Result<InputKind> kind = varied_kind(schema.value(), request.over);
  if (!kind.ok()) return kind.error();
  if (request.values.empty() || request.values.size() > static_cast<std::size_t>(kMaxSweepPoints)) {
    return fail(ErrorCode::out_of_range, "values",
                "a sweep takes 1 to " + std::to_string(kMaxSweepPoints) + " values, got " +
                    std::to_string(request.values.size()));
  }
  Result<PreparedCalculation> prepared = PreparedCalculation::make(
      request.calculator, request.inputs, {request.over}, request.outputs);
  if (!prepared.ok()) return prepared.error();
  SweepResult out;
  out.outputs = prepared.value().outputs();
  out.values = request.values;
  out.series.assign(out.outputs.size(), std::vector<double>(request.values.size(), kNaN));
  std::vector<double> y(out.outputs.size());
  for (std::size_t i = 0; i < request.values.size(); ++i) {
    double x = request.values[i];
    if (std::optional<Error> bad = prepared.value().evaluate(&x, y.data()))
      return at_point(request.over, x, *bad);
    for (std::size_t k = 0; k < y.size(); ++k) out.series[k][i] = y[k];
  }
  return out;
}

Result<SolveResult> solve(const SolveRequest& request) {
  Result<Schema> schema = schema_of(request.calculator);
  if (!schema.ok()) return schema.error();
  Result<InputKind> kind = varied_kind(schema.value(), request.over);
  if (!kind.ok()) return kind.error();
  if (!std::isfinite(request.target)) {
    return fail(ErrorCode::invalid_argument, "target",
                "target must be a finite number, got " + format_number(request.target));
  }
  if (!std::isfinite(request.lo) || !std::isfinite(request.hi) || !(request.lo < request.hi)) {
    return fail(ErrorCode::invalid_argument, "lo",
                "lo must be a finite number below hi, got lo=" + format_number(request.lo) +
                    " hi=" + format_number(request.hi));
  }
  bool whole = kind.value() == InputKind::count;
  double lo = whole ? std::ceil(request.lo) : request.lo;
  double hi = whole ? std::floor(request.hi) : request.hi;
  if (!(lo <= hi)) {
    return fail(ErrorCode::invalid_argument, "lo",
                "no whole number lies in [" + format_number(request.lo) + ", " +
                    format_number(request.hi) + "]");
  }
  Result<PreparedCalculation> prepared = PreparedCalculation::make(
      request.calculator, request.inputs, {request.over}, {request.output});
  if (!prepared.ok()) {
    Error e = prepared.error();
    if (e.field == "outputs") e.field = "output";
    return e;
  }
  Probe probe{prepared.value(), request.over};
  SolveResult out;
  auto reached = [&](double x, double& y) -> Result<bool> {
    ++out.evaluations;
    Result<double> r = probe(x);
    if (!r.ok()) return r.error();
    y = r.value();
    return y >= request.target;  // NaN (no value) never reaches
  };
  double y = 0;
  Result<bool> at_lo = reached(lo, y);
  if (!at_lo.ok()) return at_lo.error();
  if (at_lo.value()) {
    out.at = Value::of(lo), out.output_at = y, out.at_lo = true;
    return out;
  }
  double y_hi = 0;
  Result<bool> at_hi = reached(hi, y_hi);
  if (!at_hi.ok()) return at_hi.error();
  if (!at_hi.value()) {
    out.output_at = y_hi;
    return out;
  }
  // Invariant: lo falls short, hi reaches. Bisect in log space when the bracket is positive.
  bool log = lo > 0;
  while (out.evaluations < kMaxSolveEvaluations) {
    if (whole ? hi - lo <= 1 : (hi - lo) <= 1e-9 * std::fabs(hi)) break;
    double mid = log ? std::sqrt(lo * hi) : lo + (hi - lo) / 2;
    if (whole) mid = std::floor(mid) <= lo ? lo + 1 : std::floor(mid);
    if (!(mid > lo && mid < hi)) break;
    double y_mid = 0;
    Result<bool> r = reached(mid, y_mid);
    if (!r.ok()) return r.error();
    if (r.value())
      hi = mid, y_hi = y_mid;
    else
      lo = mid;
  }
  out.at = Value::of(hi);
  out.output_at = y_hi;
  return out;
}

}  // namespace scalebook
