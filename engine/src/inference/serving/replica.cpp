// One replica's run, event by event: between an admission and the next completion (or the
// arrival that a free slot waits for) its decode steps are summed in closed form.
#include <algorithm>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "serving_parts.h"

namespace scalebook::serving {

double run_continuous(Requests& r, const std::vector<std::size_t>& order,
                      const std::vector<double>& ready, double slots, const ServingCosts& costs,
                      PrefillTimes& prefill, bool prefill_here) {
  const DecodeClock clock{&costs};
  // (the decode step count at which it finishes, request): the next to finish on top.
  using Entry = std::pair<double, std::size_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> active;
  double t = 0, steps = 0, cached = 0, busy = 0;
  std::size_t next = 0;
  const std::size_t count = order.size();
  while (next < count || !active.empty()) {
    while (static_cast<double>(active.size()) < slots && next < count && ready[order[next]] <= t) {
      const std::size_t i = order[next++];
      r.admitted[i] = t;
      if (prefill_here) {
        // A prefill pauses every sequence's decoding.
        const double p = prefill.single(r.prompt[i]);
        r.prefill_start[i] = t;
        t += p, busy += p;
        r.first[i] = t;
      }
      if (r.output[i] > 1) {
        active.emplace(steps + r.output[i] - 1, i);
        cached += r.prompt[i];
      } else {
        r.finish[i] = r.first[i];
      }
    }
    if (active.empty()) {
      if (next == count) break;
      t = std::max(t, ready[order[next]]);
      continue;
    }
    const auto b = static_cast<double>(active.size());
    double m = active.top().first - steps;
    // A free slot waits for the next request: stop at the first step boundary after it.
    if (b < slots && next < count) m = clock.steps_to_reach(ready[order[next]] - t, b, cached, m);
    const double dt = clock.steps(m, b, cached);
    t += dt, busy += dt, steps += m, cached += b * m;
    while (!active.empty() && active.top().first == steps) {
      const std::size_t i = active.top().second;
      active.pop();
      r.finish[i] = t;
      cached -= r.prompt[i] + r.output[i] - 1;
    }
  }
  return busy;
}

Result<double> run_static(Requests& r, const std::vector<std::size_t>& order, double slots,
                          const ServingCosts& costs, PrefillTimes& prefill) {
  const DecodeClock clock{&costs};
  double t = 0, busy = 0;
  std::size_t next = 0;
  const std::size_t count = order.size();
  while (next < count) {
    t = std::max(t, r.arrival[order[next]]);
    std::size_t end = next;
    double longest_prompt = 0, longest_output = 0, cached = 0;
    while (end < count && static_cast<double>(end - next) < slots && r.arrival[order[end]] <= t) {
      const std::size_t i = order[end++];
      longest_prompt = std::max(longest_prompt, r.prompt[i]);
      longest_output = std::max(longest_output, r.output[i]);
      cached += r.prompt[i];
    }
    const auto b = static_cast<double>(end - next);
    // Prompts padded to the longest; every row then decodes until the longest output is done.
    Result<double> p = prefill.at(b, longest_prompt);
    if (!p.ok()) return p.error();
    const double first = t + p.value();
    for (std::size_t k = next; k < end; ++k) {
      const std::size_t i = order[k];
      r.prefill_start[i] = r.admitted[i] = t;
      r.first[i] = first;
      r.finish[i] = first + clock.steps(r.output[i] - 1, b, cached);
    }
    const double batch_time = p.value() + clock.steps(longest_output - 1, b, cached);
    t += batch_time, busy += batch_time;
    next = end;
  }
  return busy;
}

}  // namespace scalebook::serving
