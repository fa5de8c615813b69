// The training-budget calculator's adapter: its schema, the inputs read once into a
// BudgetConfig, and the outputs. The worked steps are steps.cpp's.
#include <string>
#include <vector>

#include "parts.h"
#include "scalebook/hardware/chip_inputs.h"
#include "scalebook/training/budget.h"
#include "scalebook/training/training.h"
#include "scalebook/transformer/model_preset.h"

namespace scalebook {
namespace {

InputSpec number(const char* name, const char* unit, const char* description, Value fallback,
                 double min, bool min_exclusive, double max, const char* label,
                 InputGroup group = InputGroup::main) {
  return labelled(
      {name, InputKind::number, unit, description, std::move(fallback), min, min_exclusive, max},
      label, group);
}

InputSpec count(const char* name, const char* unit, const char* description, Value fallback,
                double min, double max, const char* label, InputGroup group = InputGroup::main) {
  return labelled({name, InputKind::count, unit, description, std::move(fallback), min, false, max},
                  label, group);
}

InputSpec yes_no(const char* name, const char* description, const char* label,
                 InputGroup group = InputGroup::main) {
  InputSpec spec{name, InputKind::choice, "", description, Value::of("no")};
  spec.choices = {"no", "yes"};
  return labelled(std::move(spec), label, group);
}

// A chip field the reader may set for this run (a price, a power figure): applied to the
// chip's copy like any override, and shown among the chip's overrides.
InputSpec chip_field(const char* name, const char* unit, const char* description, double min,
                     bool min_exclusive, double max, const char* label) {
  InputSpec spec = number(name, unit, description, Value::none(), min, min_exclusive, max, label,
                          InputGroup::override);
  spec.overrides = &chip_preset();
  return spec;
}

std::vector<InputSpec> inputs() {
  InputSpec chip = chip_input();
  chip.default_value = Value::of("tpu-v5p");
  InputSpec batch = count("B", "tokens",
                          "global batch in tokens per step, for the step count and the "
                          "checkpoints' memory (4M as 4 x 1024 x 1024; the book's memory math "
                          "rounds it to 4e6)",
                          Value::of(4194304.0), 1, 1e13, "Global batch");
  batch.aliases = {"batch"};  // B in every training calculator; batch as launch scripts say
  std::vector<InputSpec> list = {
      model_input("llama-3-70b"),
      count("tokens", "tokens", "tokens the whole run trains on", Value::of(15e12), 1, 1e17,
            "Training tokens"),
      chip,
      count("chips", "chips", "chips the run trains on (replaced by pods when given)",
            Value::of(8960.0), 1, 1e8, "Chips"),
      count("pods", "pods", "full pods of the chip (its pod_chips each), in place of chips",
            Value::none(), 1, 1e5, "Pods"),
      number("mfu", "", "model FLOPs utilisation: the fraction of peak the run sustains",
             Value::of(0.4), 0, true, 1, "MFU"),
      batch,
      count("checkpoints", "tensors", "activation checkpoints per layer, each [B, D]",
            Value::of(4.0), 0, 1e4, "Checkpoints per layer"),
      count("T", "tokens", "sequence length, for attention's FLOPs", Value::of(4096.0), 1, 1e8,
            "Sequence length T"),
      yes_no("count_attention",
             "count dot-product attention's FLOPs in the run (the book's 6P rule leaves them out)",
             "Count attention FLOPs"),
      yes_no("causal", "halve attention's FLOPs, as a causal mask lets a kernel skip half",
             "Causal attention", InputGroup::advanced),
      number("params", "params",
             "parameters the run counts, in place of the model's (the book's rounded 70e9)",
             Value::none(), 1, false, 1e16, "Parameters P", InputGroup::advanced),
      number("bytes_params", "B", "bytes per parameter of the weights (bf16: 2)", Value::of(2.0), 0,
             false, 64, "Bytes per weight", InputGroup::advanced),
      number("bytes_optimizer", "B",
             "bytes per parameter of optimizer state (Adam's two fp32 moments: 8)", Value::of(8.0),
             0, false, 64, "Bytes of optimizer state per parameter", InputGroup::advanced),
      number("bytes_activation", "B", "bytes per checkpointed activation (bf16: 2)", Value::of(2.0),
             0, false, 64, "Bytes per activation", InputGroup::advanced),
      number("usable_hbm", "", "fraction of each chip's HBM the run may fill", Value::of(1.0), 0,
             true, 1, "Usable HBM", InputGroup::advanced),
      dtype_input("dtype", "Compute dtype", "format of the matmuls, for the chip's peak",
                  Value::of("bf16")),
      labelled(
          {"peak_flops", InputKind::number, "FLOP/s",
           "override: the chip's peak FLOP/s for the compute dtype", Value::none(), 1, false, 1e21},
          "Peak FLOP/s", InputGroup::override),
      chip_field("hbm_capacity", "B", "override: the chip's HBM", 1, false, 1e15, "HBM capacity"),
      chip_field("price_per_hour", "USD/h", "override: price per chip-hour (0: free)", 0, false,
                 1e6, "Price per chip-hour"),
      chip_field("power", "W", "override: power per chip", 0, false, 1e6, "Power per chip"),
  };
  for (InputSpec& spec : model_field_inputs()) list.push_back(std::move(spec));
  return list;
}

OutputSpec out(const char* name, const char* unit, const char* description, const char* label) {
  return {name, unit, description, false, label};
}

std::vector<OutputSpec> outputs() {
  return {
      out("params_mlp", "params", "MLP weights, all layers", "MLP parameters"),
      out("params_attention", "params", "attention projections, all layers",
          "Attention parameters"),
      out("params_embedding", "params", "embedding and unembedding", "Vocabulary parameters"),
      out("params_norm", "params", "norm weights", "Norm parameters"),
      out("params_model", "params", "the model's parameters, every block", "Model parameters"),
      out("mlp_share", "", "the MLPs' share of the model's parameters", "MLP share"),
      out("params", "params", "P: the parameters the run counts (active, or the given params)",
          "Parameters P"),
      out("flops_per_token", "FLOP", "training FLOPs per token, the 6P rule", "FLOPs per token"),
      out("flops_attention_per_token", "FLOP",
          "dot-product attention's training FLOPs per token, beyond 6P",
          "Attention FLOPs per token"),
      out("flops_per_token_total", "FLOP", "6P plus attention", "FLOPs per token with attention"),
      out("flops_total", "FLOP", "the run's FLOPs: tokens x 6P (plus attention when counted)",
          "Training FLOPs"),
      out("peak_flops", "FLOP/s", "C: the chip's peak for the compute dtype", "Peak FLOP/s"),
      out("t_token_chip", "s", "one token's 6P FLOPs on one chip at peak", "One token on one chip"),
      out("t_one_chip", "s", "the run on one chip at peak", "The run on one chip"),
      out("t_one_chip_years", "years", "the run on one chip at peak, in years",
          "The run on one chip, years"),
      out("chips", "chips", "chips the run trains on", "Chips"),
      out("run_seconds", "s", "wall-clock time on the chips at the MFU", "Run time"),
      out("run_days", "days", "wall-clock time on the chips at the MFU, in days", "Run time, days"),
      out("train_steps", "steps", "optimizer steps: tokens / B", "Training steps"),
      out("step_time", "s", "one step at the MFU", "Step time"),
      out("chip_hours", "chip-h", "chips x run time", "Chip-hours"),
      out("price_per_hour", "USD/h", "the chip's price per chip-hour", "Price per chip-hour"),
      out("cost", "USD", "chip-hours x price (none without a price)", "Cost"),
      out("power", "W", "the chip's maximum board power", "Power per chip"),
      out("energy_kwh", "kWh", "chips x power x run time (none without a power figure)",
          "Energy, kWh"),
      out("energy_mwh", "MWh", "the same in MWh", "Energy"),
      out("mem_params", "B", "weights: bytes_params x P", "Weights"),
      out("mem_optimizer", "B", "optimizer state: bytes_optimizer x P", "Optimizer state"),
      out("mem_checkpoints", "B", "checkpoints: bytes_activation x D x B x checkpoints x L",
          "Checkpoints"),
      out("mem_total", "B", "the run's memory, all chips together", "Memory floor"),
      out("hbm_capacity", "B", "HBM per chip", "HBM per chip"),
      out("chips_min", "chips", "fewest chips whose usable HBM holds the memory floor",
          "Fewest chips that fit"),
      out("mem_per_chip", "B", "memory floor over the chips", "Memory per chip"),
      out("mem_fraction", "", "memory per chip over its usable HBM", "Fraction of HBM"),
      {"fits", "", "yes when the memory per chip fits in the usable HBM", true, "Fits"},
      out("run_seconds_min", "s", "the run on the fewest chips that fit, at the MFU",
          "Run time on the fewest chips, seconds"),
      out("run_days_min", "days", "the run on the fewest chips that fit, at the MFU",
          "Run time on the fewest chips"),
      out("run_years_min", "years", "the same in years", "Run time on the fewest chips, years"),
      out("fsdp_axes", "axes", "M_X: the axes of the chip's torus, all of which pure FSDP spans",
          "Torus axes M_X"),
      out("critical_batch", "tokens",
          "tokens per chip pure FSDP needs to stay compute-bound: C / (W_ici M_X) (none without "
          "an ICI torus)",
          "FSDP batch per chip"),
      out("chips_usable", "chips",
          "chips the batch keeps compute-bound under pure FSDP: B / critical batch",
          "Chips before comms bind"),
      out("pods_usable", "pods", "the same in pods of the chip", "Pods before comms bind"),
      out("run_days_usable", "days", "the run on the chips the batch can feed, at the MFU",
          "Run time on those chips"),
      {"comm_bound", "", "yes when the run's chips are more than the batch can feed", true,
       "More chips than the batch feeds"},
      out("layers", "layers", "the model's layers, L (config: num_hidden_layers)", "Layers L"),
      out("d_model", "", "model width, D (config: hidden_size)", "Model width D"),
      out("d_ff", "", "MLP width, F (config: intermediate_size)", "MLP width F"),
      out("heads", "heads", "query heads, N (config: num_attention_heads)", "Query heads N"),
      out("kv_heads", "heads", "key/value heads, K (config: num_key_value_heads)",
          "Key/value heads K"),
      out("head_dim", "", "head width, H (config: head_dim)", "Head width H"),
      out("vocab", "tokens", "vocabulary, V (config: vocab_size)", "Vocabulary V"),
      out("ffw_ratio", "", "F / D, the MLP's width over the model's", "F / D"),
      out("query_groups", "", "N / K, query heads per key/value head", "N / K"),
  };
}

const Schema& budget_schema() {
  static const Schema s{
      "training-budget",
      "chapter 6's budget of a training run: parameters by block, FLOPs (6PT, and attention's "
      "extra), time on one chip and on many at an MFU, steps, chip-hours, cost, energy, and the "
      "memory floor: the fewest chips that hold weights, optimizer state and checkpoints",
      inputs(),
      outputs(),
      {}};
  return s;
}

constexpr double kSecondsPerDay = 86400;
constexpr double kSecondsPerYear = 365.25 * kSecondsPerDay;

std::optional<Error> compute_budget(const ResolvedInputs& in, ResultBuilder& r) {
  const Chip* chip = chip_of(in);
  const Model* model = model_of(in);
  if (!chip) return Error{ErrorCode::not_found, "chip", "unknown chip \"" + in.text("chip") + "\""};
  const Dtype dtype = *parse_dtype(in.text("dtype"));
  BudgetConfig c;
  c.peak_flops = in.has("peak_flops") ? in.number("peak_flops") : peak_flops(*chip, dtype);
  if (c.peak_flops <= 0) {
    return Error{ErrorCode::unsupported, "dtype",
                 chip->id + " has no " + to_string(dtype) +
                     " peak in the catalog; give peak_flops to set one"};
  }
  if (in.has("pods") && chip->pod_chips <= 0) {
    return Error{ErrorCode::unsupported, "pods",
                 chip->id + " has no pod size in the catalog; give chips instead"};
  }
  if (chip->hbm_capacity <= 0) {
    return Error{ErrorCode::unsupported, "hbm_capacity",
                 chip->id + " has no HBM capacity in the catalog; give hbm_capacity to set one"};
  }
  c.counts = count_params(*model);
  c.P = in.has("params") ? in.number("params") : c.counts.active;
  c.L = model->L;
  c.D = model->D;
  c.attention_per_token_per_key = model->L * 2 * model->N * (2 * model->H + model->rope_dim);
  c.T = in.number("T");
  c.causal = in.text("causal") == "yes";
  c.count_attention = in.text("count_attention") == "yes";
  c.tokens = in.number("tokens");
  c.batch = in.number("B");
  c.chips = in.has("pods") ? in.number("pods") * chip->pod_chips : in.number("chips");
  c.mfu = in.number("mfu");
  c.hbm_capacity = chip->hbm_capacity;
  c.usable_hbm = in.number("usable_hbm");
  // Given, even as 0 (free compute), a price is one; the catalog's 0 means it has none.
  if (in.has("price_per_hour") || chip->price_per_hour > 0) c.price_per_hour = chip->price_per_hour;
  if (in.has("power") || chip->power > 0) c.power = chip->power;
  c.bytes_params = in.number("bytes_params");
  c.bytes_optimizer = in.number("bytes_optimizer");
  c.bytes_activation = in.number("bytes_activation");
  c.checkpoints = in.number("checkpoints");
  c.pod_chips = chip->pod_chips;
  // Pure FSDP over every axis of the torus: the training model's own threshold (add_thresholds).
  const double axes = chip->ici_links_per_chip / 2;
  if (chip->ici_link_bandwidth > 0 && axes >= 1) {
    TrainingConfig tc;
    tc.B = c.batch;
    tc.peak_flops = c.peak_flops;
    tc.ici_link = chip->ici_link_bandwidth;
    tc.w = tc.g = c.bytes_params;
    tc.a = c.bytes_activation;
    tc.shape.F = model->F;
    c.critical_batch = pure_fsdp_thresholds(tc, c.chips, axes).critical_batch;
  }
  const Budget b = plan_budget(c);

  r.set("params_mlp", c.counts.mlp);
  r.set("params_attention", c.counts.attention);
  r.set("params_embedding", c.counts.embedding);
  r.set("params_norm", c.counts.norm);
  r.set("params_model", c.counts.total);
  r.set("mlp_share", c.counts.mlp / c.counts.total);
  r.set("params", c.P);
  r.set("flops_per_token", b.flops_per_token);
  r.set("flops_attention_per_token", b.flops_attention_per_token);
  r.set("flops_per_token_total", b.flops_per_token_total);
  r.set("flops_total", b.flops_total);
  r.set("peak_flops", c.peak_flops);
  r.set("t_token_chip", b.t_token_chip);
  r.set("t_one_chip", b.t_one_chip);
  r.set("t_one_chip_years", b.t_one_chip / kSecondsPerYear);
  r.set("chips", c.chips);
  r.set("run_seconds", b.run_seconds);
  r.set("run_days", b.run_seconds / kSecondsPerDay);
  r.set("train_steps", b.steps);
  r.set("step_time", b.step_time);
  r.set("chip_hours", b.chip_hours);
  if (c.price_per_hour) {
    r.set("price_per_hour", *c.price_per_hour);
    r.set("cost", *b.cost);
  } else {
    // Reasons are literals: the numbers-only path allocates nothing for them.
    constexpr const char* why = "no price: the catalog has none for this chip; give price_per_hour";
    r.none("price_per_hour", why);
    r.none("cost", why);
  }
  if (c.power) {
    r.set("power", *c.power);
    r.set("energy_kwh", *b.energy / 3.6e6);
    r.set("energy_mwh", *b.energy / 3.6e9);
  } else {
    constexpr const char* why = "no power figure: the catalog has none for this chip; give power";
    for (const char* name : {"power", "energy_kwh", "energy_mwh"}) r.none(name, why);
  }
  r.set("mem_params", b.mem_params);
  r.set("mem_optimizer", b.mem_optimizer);
  r.set("mem_checkpoints", b.mem_checkpoints);
  r.set("mem_total", b.mem_total);
  r.set("hbm_capacity", c.hbm_capacity);
  r.set("chips_min", b.chips_min);
  r.set("mem_per_chip", b.mem_per_chip);
  const double fraction = b.mem_per_chip / (c.usable_hbm * c.hbm_capacity);
  r.set("mem_fraction", fraction);
  r.set_text("fits", fraction <= 1 ? "yes" : "no");
  r.set("run_seconds_min", b.run_seconds_min);
  r.set("run_days_min", b.run_seconds_min / kSecondsPerDay);
  r.set("run_years_min", b.run_seconds_min / kSecondsPerYear);
  if (c.critical_batch > 0) {
    r.set("fsdp_axes", axes);
    r.set("critical_batch", c.critical_batch);
    r.set("chips_usable", b.chips_usable);
    if (c.pod_chips > 0)
      r.set("pods_usable", b.chips_usable / c.pod_chips);
    else
      r.none("pods_usable", "the catalog has no pod size for this chip");
    r.set("run_days_usable", b.run_seconds_usable / kSecondsPerDay);
    r.set_text("comm_bound", c.chips > b.chips_usable ? "yes" : "no");
  } else {
    // The threshold is the torus's: FSDP's AllGathers over ICI links.
    constexpr const char* why = "no ICI torus in the catalog for this chip";
    for (const char* name : {"fsdp_axes", "critical_batch", "chips_usable", "pods_usable",
                             "run_days_usable", "comm_bound"})
      r.none(name, why);
  }
  r.set("layers", model->L);
  r.set("d_model", model->D);
  r.set("d_ff", model->F);
  r.set("heads", model->N);
  r.set("kv_heads", model->K);
  r.set("head_dim", model->H);
  r.set("vocab", model->V);
  r.set("ffw_ratio", model->F / model->D);
  r.set("query_groups", model->N / model->K);
  if (r.explain()) {
    r.steps(budget_parts::budget_steps({&c, &b, model->name, chip->name, in.has("params"),
                                        in.has("pods") ? in.number("pods") : 0, chip->pod_chips}));
  }
  return std::nullopt;
}

}  // namespace

Calculator training_budget_calculator() { return {budget_schema(), compute_budget}; }

}  // namespace scalebook
