// The training-budget calculator's worked steps (the explained path only), each number with
// the book's formula for it.
#include <string>
#include <vector>

#include "parts.h"
#include "scalebook/core/format.h"

namespace scalebook::budget_parts {
namespace {

std::string n(double x) { return latex_number(x); }
std::string q(double x, const char* unit) { return latex_quantity(x, unit); }

constexpr double kDay = 86400;
constexpr double kYear = 365.25 * kDay;

class Steps {
 public:
  // Literal unit, output and depends: Step's out-of-line constructor builds them.
  void add(std::string label, std::string latex, double value, const char* unit, const char* output,
           std::initializer_list<const char*> depends = {}) {
    list.emplace_back(std::move(label), std::move(latex), value, unit, output, depends);
  }
  std::vector<Step> list;
};

void param_steps(const Explained& e, Steps& st) {
  const BudgetConfig& c = *e.config;
  const ParamCounts& p = c.counts;
  st.add("MLP weights of " + e.model_name + ", every layer",
         "P_\\text{mlp} = " + q(p.mlp, "params"), p.mlp, "params", "params_mlp");
  st.add("Attention projections, every layer (Q and O with N heads, K and V with K)",
         "P_\\text{attn} = " + q(p.attention, "params"), p.attention, "params", "params_attention");
  st.add("Embedding and unembedding", "P_\\text{vocab} = " + q(p.embedding, "params"), p.embedding,
         "params", "params_embedding");
  st.add("Norm weights", "P_\\text{norm} = " + q(p.norm, "params"), p.norm, "params",
         "params_norm");
  st.add("The model's parameters",
         "P_\\text{mlp} + P_\\text{attn} + P_\\text{vocab} + P_\\text{norm} = " + n(p.mlp) + " + " +
             n(p.attention) + " + " + n(p.embedding) + " + " + n(p.norm) + " = " +
             q(p.total, "params"),
         p.total, "params", "params_model",
         {"params_mlp", "params_attention", "params_embedding", "params_norm"});
  st.add("The MLPs' share",
         "\\frac{P_\\text{mlp}}{P} = \\frac{" + n(p.mlp) + "}{" + n(p.total) +
             "} = " + n(p.mlp / p.total),
         p.mlp / p.total, "", "mlp_share", {"params_model"});
  if (e.params_given) {
    st.add("Parameters the run counts: given", "P = " + q(c.P, "params"), c.P, "params", "params");
  } else {
    st.add(p.active < p.total ? "Parameters the run counts: the active ones (a token's experts)"
                              : "Parameters the run counts: all of them (dense)",
           "P = " + q(c.P, "params"), c.P, "params", "params", {"params_model"});
  }
}

void flop_steps(const Explained& e, Steps& st) {
  const BudgetConfig& c = *e.config;
  const Budget& b = *e.budget;
  st.add("Training FLOPs per token: 2 per weight forward, 4 backward",
         "6P = 6 \\cdot " + n(c.P) + " = " + q(b.flops_per_token, "FLOP"), b.flops_per_token,
         "FLOP", "flops_per_token", {"params"});
  std::string half = c.causal ? "\\tfrac{1}{2} \\cdot " : "";
  st.add(std::string("Dot-product attention per token, forward and backward, beyond 6P") +
             (c.causal ? " (half of it under a causal mask)" : ""),
         half + "3 T \\cdot 4 N H L = " + half + "3 \\cdot " + n(c.T) + " \\cdot " +
             n(c.attention_per_token_per_key) + " = " + q(b.flops_attention_per_token, "FLOP"),
         b.flops_attention_per_token, "FLOP", "flops_attention_per_token");
  st.add("FLOPs per token with attention",
         n(b.flops_per_token) + " + " + n(b.flops_attention_per_token) + " = " +
             q(b.flops_per_token_total, "FLOP"),
         b.flops_per_token_total, "FLOP", "flops_per_token_total",
         {"flops_per_token", "flops_attention_per_token"});
  const double per_token = c.count_attention ? b.flops_per_token_total : b.flops_per_token;
  st.add(c.count_attention ? "The run's FLOPs, attention counted"
                           : "The run's FLOPs: 6P per token, attention left out as the book does",
         "F = " + std::string(c.count_attention ? "(6P + F_\\text{attn})" : "6P") + " \\cdot " +
             "T_\\text{tokens} = " + n(per_token) + " \\cdot " + n(c.tokens) + " = " +
             q(b.flops_total, "FLOP"),
         b.flops_total, "FLOP", "flops_total",
         {c.count_attention ? "flops_per_token_total" : "flops_per_token"});
  st.add("One token on one " + e.chip_name + " at peak",
         "\\frac{6P}{C} = \\frac{" + n(b.flops_per_token) + "}{" + n(c.peak_flops) +
             "} = " + q(b.t_token_chip, "s"),
         b.t_token_chip, "s", "t_token_chip", {"flops_per_token"});
  st.add("The run on one chip at peak",
         "\\frac{F}{C} = \\frac{" + n(b.flops_total) + "}{" + n(c.peak_flops) +
             "} = " + q(b.t_one_chip, "s") + " = " + q(b.t_one_chip / kYear, "years"),
         b.t_one_chip, "s", "t_one_chip", {"flops_total"});
}

void time_steps(const Explained& e, Steps& st) {
  const BudgetConfig& c = *e.config;
  const Budget& b = *e.budget;
  if (e.pods > 0) {
    st.add("Chips: whole pods of " + format_number(e.pod_chips),
           "N = \\text{pods} \\cdot N_\\text{pod} = " + n(e.pods) + " \\cdot " + n(e.pod_chips) +
               " = " + n(c.chips),
           c.chips, "chips", "chips");
  }
  st.add("Wall-clock time, compute-bound at the MFU",
         "t = \\frac{F}{N \\cdot C \\cdot \\text{MFU}} = \\frac{" + n(b.flops_total) + "}{" +
             n(c.chips) + " \\cdot " + n(c.peak_flops) + " \\cdot " + n(c.mfu) +
             "} = " + q(b.run_seconds, "s") + " = " + q(b.run_seconds / kDay, "days"),
         b.run_seconds, "s", "run_seconds", {"flops_total"});
  st.add("Steps",
         "\\frac{T_\\text{tokens}}{B} = \\frac{" + n(c.tokens) + "}{" + n(c.batch) +
             "} = " + n(b.steps),
         b.steps, "steps", "train_steps");
  st.add("Step time", "\\frac{t}{\\text{steps}} = " + q(b.step_time, "s"), b.step_time, "s",
         "step_time", {"run_seconds", "train_steps"});
  st.add("Chip-hours", "\\frac{N t}{3600} = " + q(b.chip_hours, "chip-h"), b.chip_hours, "chip-h",
         "chip_hours", {"run_seconds"});
  if (b.cost) {
    st.add("Cost at " + format_number(*c.price_per_hour) + " USD per chip-hour",
           n(b.chip_hours) + " \\cdot " + n(*c.price_per_hour) + " = " + q(*b.cost, "USD"), *b.cost,
           "USD", "cost", {"chip_hours"});
  } else {
    st.add("No cost: the catalog has no price for the " + e.chip_name +
               "; give price_per_hour to set one",
           "\\text{no price}", 0, "USD", "cost");
  }
  if (b.energy) {
    st.add("Energy at " + format_number(*c.power) +
               " W per chip (the chips' maximum board power; no hosts, network or cooling)",
           "N \\cdot P_\\text{chip} \\cdot t = " + n(c.chips) + " \\cdot " + n(*c.power) +
               "\\ \\text{W} \\cdot " + n(b.run_seconds) +
               "\\ \\text{s} = " + q(*b.energy / 3.6e9, "MWh"),
           *b.energy / 3.6e9, "MWh", "energy_mwh", {"run_seconds"});
  } else {
    st.add("No energy: the catalog has no power figure for the " + e.chip_name +
               " (its vendor publishes none); give power to set one",
           "\\text{no power figure}", 0, "MWh", "energy_mwh");
  }
}

void memory_steps(const Explained& e, Steps& st) {
  const BudgetConfig& c = *e.config;
  const Budget& b = *e.budget;
  st.add("Weights",
         "w P = " + n(c.bytes_params) + " \\cdot " + n(c.P) + " = " + q(b.mem_params, "B"),
         b.mem_params, "B", "mem_params", {"params"});
  st.add("Optimizer state",
         "o P = " + n(c.bytes_optimizer) + " \\cdot " + n(c.P) + " = " + q(b.mem_optimizer, "B"),
         b.mem_optimizer, "B", "mem_optimizer", {"params"});
  st.add("Checkpoints: c tensors of [B, D] per layer",
         "a D B c L = " + n(c.bytes_activation) + " \\cdot " + n(c.D) + " \\cdot " + n(c.batch) +
             " \\cdot " + n(c.checkpoints) + " \\cdot " + n(c.L) + " = " +
             q(b.mem_checkpoints, "B"),
         b.mem_checkpoints, "B", "mem_checkpoints");
  st.add("The memory floor (gradients left out, as the book leaves them)",
         "M = " + n(b.mem_params) + " + " + n(b.mem_optimizer) + " + " + n(b.mem_checkpoints) +
             " = " + q(b.mem_total, "B"),
         b.mem_total, "B", "mem_total", {"mem_params", "mem_optimizer", "mem_checkpoints"});
  const double usable = c.usable_hbm * c.hbm_capacity;
  st.add("Fewest chips that hold it",
         "\\left\\lceil \\frac{M}{u \\cdot \\text{HBM}} \\right\\rceil = \\left\\lceil \\frac{" +
             n(b.mem_total) + "}{" + n(usable) + "} \\right\\rceil = " + n(b.chips_min),
         b.chips_min, "chips", "chips_min", {"mem_total"});
  st.add("Memory per chip on " + format_number(c.chips) + " chips",
         "\\frac{M}{N} = \\frac{" + n(b.mem_total) + "}{" + n(c.chips) +
             "} = " + q(b.mem_per_chip, "B"),
         b.mem_per_chip, "B", "mem_per_chip", {"mem_total"});
  st.add("The run on the fewest chips that fit",
         "\\frac{F}{N_{\\min} \\cdot C \\cdot \\text{MFU}} = \\frac{" + n(b.flops_total) + "}{" +
             n(b.chips_min) + " \\cdot " + n(c.peak_flops) + " \\cdot " + n(c.mfu) +
             "} = " + q(b.run_seconds_min, "s") + " = " + q(b.run_seconds_min / kDay, "days") +
             " = " + q(b.run_seconds_min / kYear, "years"),
         b.run_seconds_min, "s", "run_seconds_min", {"chips_min", "flops_total"});
}

}  // namespace

// Chapter 5's estimate: the chips the batch keeps compute-bound under pure FSDP.
void usable_steps(const Explained& e, Steps& st) {
  const BudgetConfig& c = *e.config;
  const Budget& b = *e.budget;
  if (c.critical_batch <= 0) return;
  st.add("Tokens per chip pure FSDP over the torus's axes needs (chapter 5)",
         "\\frac{C}{W_\\text{ici} M_X} = " + q(c.critical_batch, "tokens"), c.critical_batch,
         "tokens", "critical_batch");
  st.add("Chips the batch keeps compute-bound",
         "\\left\\lfloor \\frac{B}{" + n(c.critical_batch) +
             "} \\right\\rfloor = \\left\\lfloor \\frac{" + n(c.batch) + "}{" +
             n(c.critical_batch) + "} \\right\\rfloor = " + n(b.chips_usable),
         b.chips_usable, "chips", "chips_usable", {"critical_batch"});
  st.add("The run on those chips",
         "\\frac{F}{N_\\text{usable} \\cdot C \\cdot \\text{MFU}} = \\frac{" + n(b.flops_total) +
             "}{" + n(b.chips_usable) + " \\cdot " + n(c.peak_flops) + " \\cdot " + n(c.mfu) +
             "} = " + q(b.run_seconds_usable / kDay, "days"),
         b.run_seconds_usable / kDay, "days", "run_days_usable", {"chips_usable", "flops_total"});
}

std::vector<Step> budget_steps(const Explained& e) {
  Steps st;
  param_steps(e, st);
  flop_steps(e, st);
  time_steps(e, st);
  memory_steps(e, st);
  usable_steps(e, st);
  return std::move(st.list);
}

}  // namespace scalebook::budget_parts
