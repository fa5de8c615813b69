// The run budget's model (budget.h): plain arithmetic on a checked BudgetConfig.
#include "scalebook/training/budget.h"

#include <algorithm>
#include <cmath>

namespace scalebook {

Budget plan_budget(const BudgetConfig& c) {
  Budget b;
  b.flops_per_token = 6 * c.P;
  // Forward 4 T N H per layer per token over T keys (the config carries it per key), times 3
  // for the backward pass, as every matmul.
  b.flops_attention_per_token = 3 * (c.causal ? 0.5 : 1) * c.T * c.attention_per_token_per_key;
  b.flops_per_token_total = b.flops_per_token + b.flops_attention_per_token;
  b.flops_total = c.tokens * (c.count_attention ? b.flops_per_token_total : b.flops_per_token);
  b.t_token_chip = b.flops_per_token / c.peak_flops;
  b.t_one_chip = b.flops_total / c.peak_flops;
  const double rate = c.peak_flops * c.mfu;
  b.run_seconds = b.flops_total / (c.chips * rate);
  b.steps = c.tokens / c.batch;
  b.step_time = b.run_seconds / b.steps;
  b.chip_hours = c.chips * b.run_seconds / 3600;
  if (c.price_per_hour) b.cost = b.chip_hours * *c.price_per_hour;
  if (c.power) b.energy = c.chips * *c.power * b.run_seconds;
  b.mem_params = c.bytes_params * c.P;
  b.mem_optimizer = c.bytes_optimizer * c.P;
  b.mem_checkpoints = c.bytes_activation * c.D * c.batch * c.checkpoints * c.L;
  b.mem_total = b.mem_params + b.mem_optimizer + b.mem_checkpoints;
  b.chips_min = std::max(1.0, std::ceil(b.mem_total / (c.usable_hbm * c.hbm_capacity)));
  b.mem_per_chip = b.mem_total / c.chips;
  b.run_seconds_min = b.flops_total / (b.chips_min * rate);
  if (c.critical_batch > 0) {
    b.chips_usable = std::max(1.0, std::floor(c.batch / c.critical_batch));
    b.run_seconds_usable = b.flops_total / (b.chips_usable * rate);
  }
  return b;
}

}  // namespace scalebook
