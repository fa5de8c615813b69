// The training calculator's schema: its inputs (model, batch, slice, layout, memory options)
// and outputs, and the collectives table's columns.
#include <string>
#include <vector>

#include "parts.h"
#include "scalebook/core/format.h"
#include "scalebook/hardware/chip_inputs.h"
#include "scalebook/training/training.h"

namespace scalebook::training_parts {
namespace {

constexpr const char* kAxesNames[] = {"dp_axes", "fsdp_axes", "tp_axes", "pp_axes", "ep_axes"};

// Helpers take literals and build each string once, in one place (core/schema.h says why).
InputSpec count(const char* name, const char* unit, const char* description, Value fallback,
                double min, double max, const char* label, InputGroup group = InputGroup::main) {
  return labelled({name, InputKind::count, unit, description, std::move(fallback), min, false, max},
                  label, group);
}

InputSpec choice(const char* name, const char* description, Value fallback,
                 std::initializer_list<const char*> choices, const char* label,
                 InputGroup group = InputGroup::main,
                 std::initializer_list<const char*> labels = {}) {
  InputSpec spec{name, InputKind::choice, "", description, std::move(fallback)};
  spec.choices.assign(choices.begin(), choices.end());
  return labelled(std::move(spec), label, group, labels);
}

InputSpec text(const char* name, const char* description, Value fallback, const char* label,
               const char* help, InputGroup group = InputGroup::main) {
  InputSpec spec =
      labelled({name, InputKind::text, "", description, std::move(fallback)}, label, group);
  spec.help = help;
  return spec;
}

const char* const kAxesHelp =
    "Letters of the slice's axes, in the order of shape (X, Y, Z for 4x8x16), any order, each "
    "axis to one strategy: fsdp_axes=XY tp_axes=Z is the book's In[B_XY, D_Z] . W_in[D_XY, F_Z]. "
    "The strategy's degree is the product of its axes' sizes and its M the number of axes; none "
    "or - for no axes. Axes no strategy names go to fsdp unless fsdp_axes is given.";

std::vector<InputSpec> inputs() {
  InputSpec chip = chip_input();
  chip.default_value = Value::of("tpu-v5p");
  std::vector<InputSpec> list = {
      training_model_input(),
      count("B", "tokens",
            "global batch in tokens (the book's B), every slice together; 16M is 16 x 2^20",
            Value::of(16777216.0), 1, 1e13, "Global batch B"),
      count("T", "tokens", "sequence length; B must be whole sequences; 8k is 8192",
            Value::of(4096.0), 1, 1e8, "Sequence length T"),
      chip,
      text("shape",
           "the ICI slice, sizes joined by x (its axes are X, Y, Z in order); on a GPU, how many "
           "GPUs (axes G, a node's GPUs, and N, the nodes)",
           Value::of("16x16x16"), "Slice shape",
           "A slice the chip's pod can have, one size per torus axis (4x4x8 on v5p, 8x16 on "
           "v5e); on a GPU a count: 8 or fewer (one node), or whole nodes (4096)."),
      text(
          "split",
          "axes to split in two, like X4: X's 4 neighbouring chips (X) and the groups of them (X')",
          Value::none(), "Split axes",
          "Lets a strategy take part of an axis: split=X4 on 16x16x16 makes X (4 neighbouring "
          "chips, a line) and X' (4 groups of them, 4 chips apart, a ring when X is), so "
          "tp_axes=X is 4-way TP and fsdp_axes=X'YZ the rest. X' shares each link with 4 "
          "groups, so its collectives run at a quarter of a link's bandwidth."),
      count("slices", "slices", "ICI slices joined by DCN, data parallel across them",
            Value::of(1.0), 1, 1e5, "Slices over DCN"),
  };
  // Given without its axes, a degree takes free axes of its size (parallelism's place_degrees).
  const char* degree_text[] = {
      "data-parallel degree inside a slice (default: the product of dp_axes; given alone, it "
      "takes free axes of its size)",
      "FSDP degree (default: the product of fsdp_axes, or of the axes no other strategy takes)",
      "tensor-parallel degree (default: the product of tp_axes; given alone, it takes the latest "
      "free axes of its size)",
      "pipeline stages (default: the product of pp_axes; given alone, they take free axes of "
      "their number)",
      "expert-parallel degree, MoE only (default: the product of ep_axes; given alone, it takes "
      "free axes of its size)"};
  const char* degree_label[] = {"DP degree", "FSDP degree", "TP degree", "Pipeline stages",
                                "EP degree"};
  const char* axes_text[] = {"axes data parallelism spans, like Z",
                             "axes FSDP spans, like XY (default: the axes no other names)",
                             "axes tensor parallelism spans, like Z",
                             "axes the pipeline stages lie along, like X",
                             "axes expert parallelism spans, like Y"};
  const char* axes_label[] = {"DP axes", "FSDP axes", "TP axes", "Pipeline axes", "EP axes"};
  for (int s = 0; s < kStrategies; ++s) {
    list.push_back(text(kAxesNames[s], axes_text[s], Value::none(), axes_label[s], kAxesHelp));
    list.push_back(count(kStrategyNames[s], "chips", degree_text[s], Value::none(), 1, 1e6,
                         degree_label[s], InputGroup::advanced));
  }
  std::vector<InputSpec> rest = {
      choice("zero",
             "ZeRO stage of fsdp: 1 shards the optimizer state, 2 also the gradients, 3 "
             "also the weights",
             Value::of("3"), {"1", "2", "3"}, "ZeRO stage", InputGroup::main,
             {"ZeRO-1", "ZeRO-2", "ZeRO-3"}),
      count("microbatches", "microbatches", "pipeline microbatches per step (needs pp > 1)",
            Value::of(1.0), 1, 1e5, "Microbatches"),
      choice("schedule",
             "pipeline schedule: gpipe holds every microbatch's activations, 1f1b at "
             "most pp of them; the bubble is (pp - 1)/(m + pp - 1) for both",
             Value::of("1f1b"), {"gpipe", "1f1b"}, "Pipeline schedule", InputGroup::main,
             {"GPipe", "1F1B"}),
      count("grad_accum", "steps", "gradient accumulation steps per optimizer step", Value::of(1.0),
            1, 1e5, "Gradient accumulation"),
      choice("remat", "activation checkpointing: what each layer saves per token",
             Value::of("ffw-matmuls"), {"none", "big-matmuls", "ffw-matmuls", "block"},
             "Remat policy", InputGroup::main,
             {"None", "Save big matmuls", "Save FFW matmuls", "Save layer inputs"}),
      count("tokens", "tokens",
            "tokens the whole run trains on, for its length (none: no run estimate)", Value::none(),
            1, 1e16, "Training tokens", InputGroup::advanced),
      labelled({"mfu_target", InputKind::number, "",
                "MFU to assume for the run's length (none: this layout's own step time)",
                Value::none(), 0, true, 1},
               "Assumed MFU", InputGroup::advanced),
      labelled({"checkpoints", InputKind::number, "",
                "D-wide tensors saved per token per layer, overriding remat's count", Value::none(),
                0, false, 1e4},
               "Checkpoints per layer", InputGroup::advanced),
      choice("optimizer", "optimizer: adam keeps 2 values per parameter, momentum 1, sgd none",
             Value::of("adam"), {"adam", "momentum", "sgd"}, "Optimizer", InputGroup::main,
             {"Adam", "Momentum", "SGD"}),
      choice("offload", "keep the optimizer state in host memory, streamed over PCIe each step",
             Value::of("no"), {"no", "yes"}, "Offload optimizer", InputGroup::advanced),
      choice("split_sequences",
             "let batch shards cut sequences into equal parts (sequence sharding) when there "
             "are more shards than sequences; the attention's key and value exchange is not "
             "costed",
             Value::of("no"), {"no", "yes"}, "Split sequences", InputGroup::advanced),
      choice("uneven_batch",
             "let B be any whole number of tokens, not whole sequences split evenly: each batch "
             "shard gets B over the shards on average, as the book's arithmetic does (real "
             "shards differ by up to a sequence, and the largest sets the pace)",
             Value::of("no"), {"no", "yes"}, "Uneven batch shards", InputGroup::advanced),
      dtype_input("dtype", "Compute dtype", "format of the matmuls and activations",
                  Value::of("bf16")),
      dtype_input("dtype_params", "Weights dtype", "format of the weights", Value::of("bf16")),
      dtype_input("dtype_grads", "Gradients dtype", "format of the gradients (default: weights')",
                  Value::none()),
      dtype_input("dtype_optimizer", "Optimizer dtype", "format of the optimizer state",
                  Value::of("fp32")),
  };
  for (InputSpec& spec : rest) list.push_back(std::move(spec));
  for (InputSpec& spec : training_model_field_inputs()) list.push_back(std::move(spec));
  for (InputSpec& spec : chip_override_inputs(false)) list.push_back(std::move(spec));
  // The names the issue tracker, the README and most launch scripts use for B and T.
  list[1].aliases = {"batch"};
  list[2].aliases = {"seq"};
  return list;
}

constexpr auto number = number_output;

std::vector<OutputSpec> outputs() {
  return {
      {"layout", "", "the strategies with their degrees and axes", true, "Layout"},
      number("chips", "chips", "chips in one slice", "Chips per slice"),
      number("chips_total", "chips", "chips in every slice", "Chips"),
      number("dp_degree", "chips", "data-parallel degree inside a slice", "DP degree"),
      number("fsdp_degree", "chips", "FSDP degree", "FSDP degree"),
      number("tp_degree", "chips", "tensor-parallel degree", "TP degree"),
      number("pp_degree", "chips", "pipeline stages", "Pipeline stages"),
      number("ep_degree", "chips", "expert-parallel degree", "EP degree"),
      number("M_X", "axes", "axes fsdp spans (dp's without fsdp), at least 1", "FSDP axes M_X"),
      number("M_Y", "axes", "axes tp spans, at least 1", "TP axes M_Y"),
      number("sequences", "sequences", "B / T", "Sequences per step"),
      number("tokens_per_shard", "tokens", "B over dp x fsdp x ep x slices (the book's B/X)",
             "Tokens per batch shard"),
      number("tokens_per_chip", "tokens", "B over every chip (the book's B/N)", "Tokens per chip"),
      number("tokens_per_slice", "tokens", "B over the slices", "Tokens per slice"),
      number("micro_tokens", "tokens", "tokens per batch shard per microbatch",
             "Microbatch tokens"),
      number("params", "params", "the model's parameters", "Parameters"),
      number("flops_layer", "FLOP", "one layer's training FLOPs for the batch", "FLOPs per layer"),
      number("t_compute_layer", "s", "one layer's compute on one chip", "Compute time per layer"),
      number("flops_step", "FLOP", "training FLOPs of the step, with remat's recompute",
             "FLOPs per step"),
      number("flops_model", "FLOP", "model FLOPs: 3x forward, no recompute", "Model FLOPs"),
      number("flops_6p", "FLOP", "the book's rule, 6 x active parameters x B", "6PB FLOPs"),
      number("bubble", "", "pipeline bubble, (pp - 1)/(m + pp - 1)", "Pipeline bubble"),
      number("t_compute", "s", "compute per step on one chip, with the bubble", "Compute time"),
      number("t_critical", "s", "TP, EP and pipeline communication on the critical path",
             "Critical-path comms"),
      number("t_overlap_ici", "s", "FSDP and DP collectives on ICI, overlappable",
             "Overlappable ICI comms"),
      number("t_ici", "s", "every ICI collective", "ICI comms"),
      number("t_dcn", "s", "the gradient AllReduce across slices", "DCN comms"),
      number("t_pcie", "s", "an offloaded optimizer state over PCIe", "PCIe time"),
      number("t_hbm", "s", "weight reads and the optimizer update over HBM", "HBM time"),
      number("exposed_comm", "s", "communication the compute does not hide", "Exposed comms"),
      number("step_time", "s", "max(compute, HBM) plus the exposed communication", "Step time"),
      number("step_time_overlapped", "s", "lower bound: every term overlapped",
             "Step time, overlapped"),
      number("step_time_serial", "s", "upper bound: nothing overlapped", "Step time, serial"),
      {"bound", "", "the largest term: compute, ici, dcn, hbm, pcie, or does-not-fit", true,
       "Bound"},
      number("exposed_fraction", "", "the share of the step spent waiting on communication",
             "Exposed share"),
      {"bound_detail", "", "what bounds the step, and what exposed communication adds to it", true,
       "What bounds it"},
      number("t_backward", "s",
             "the step's last backward pass, which the gradient reductions (DP, DCN) hide under",
             "Last backward pass"),
      number("mfu", "", "model FLOPs over peak FLOPs in step_time", "MFU"),
      number("mfu_ceiling", "", "model FLOPs over peak FLOPs in the overlapped bound",
             "MFU ceiling"),
      number("mem_params", "B", "weights per chip", "Weights per chip"),
      number("mem_grads", "B", "gradients per chip", "Gradients per chip"),
      number("mem_optimizer", "B", "optimizer state per chip (0 when offloaded)",
             "Optimizer state per chip"),
      number("mem_activations", "B", "saved activations per chip", "Activations per chip"),
      number("mem_total", "B", "everything per chip", "Memory per chip"),
      number("mem_host", "B", "optimizer state per chip kept on the host", "Host memory per chip"),
      number("hbm_capacity", "B", "the chip's HBM", "HBM capacity"),
      number("mem_over", "B", "memory beyond the HBM; 0 when it fits", "Over HBM by"),
      number("mem_fraction", "", "memory per chip over the HBM", "Fraction of HBM"),
      {"fits", "", "yes when the memory per chip fits in HBM", true, "Fits"},
      number("W_ici", "B/s", "ICI bandwidth of one axis, both ways (2 x ici_link_bandwidth)",
             "ICI bandwidth W_ici"),
      number("alpha", "FLOP/B", "C / W_ici", "ICI intensity alpha"),
      number("critical_batch", "tokens", "per-chip batch DP/FSDP need: alpha / M_X",
             "DP/FSDP batch per chip"),
      number("max_tp", "chips", "largest useful TP degree, M_Y F / alpha", "Largest TP degree"),
      number("x_opt", "chips", "optimal FSDP degree of FSDP x TP: sqrt(B/F M_X/M_Y N)",
             "Optimal FSDP degree"),
      number("y_opt", "chips", "N / x_opt", "Optimal TP degree"),
      number("mixed_batch", "tokens", "per-chip batch mixed FSDP + TP needs: alpha^2/(M_X M_Y F)",
             "Mixed batch per chip"),
      number("dcn_batch", "tokens", "batch per slice DP over DCN needs: C / W_dcn",
             "DCN batch per slice"),
      number("peak_flops", "FLOP/s", "peak FLOP/s of the compute dtype (C)", "Peak FLOP/s"),
      number("chips_usable", "chips",
             "chips data parallelism and FSDP can use before communication binds: B / "
             "critical_batch",
             "Chips before comms bind"),
      number("train_steps", "steps", "the run's steps: tokens / B", "Training steps"),
      number("run_days", "days",
             "the run's length: its steps at this step time, or its model FLOPs at the assumed "
             "MFU over every chip",
             "Run length"),
      {"sharding_in", "", "the layer's input in chapter 3's notation, for this layout", true,
       "In sharding"},
      {"sharding_w_in", "", "the up-projection W_in[D, F] in chapter 3's notation", true,
       "W_in sharding"},
      {"sharding_w_out", "", "the down-projection W_out[F, D] in chapter 3's notation", true,
       "W_out sharding"},
      {"sharding_out", "", "the layer's output in chapter 3's notation", true, "Out sharding"},
      {"local_in", "", "the input's shape on one chip, tokens of one slice's step", true,
       "In per chip"},
      {"local_w_in", "", "W_in's shape on one chip", true, "W_in per chip"},
      {"local_w_out", "", "W_out's shape on one chip", true, "W_out per chip"},
      {"local_out", "", "the output's shape on one chip", true, "Out per chip"},
  };
}

std::vector<OutputSpec> collective_columns() {
  return {
      {"phase", "", "forward, backward, or step (once after the backward)", true, "Phase"},
      {"op", "", "all-gather, reduce-scatter, all-reduce, all-to-all or send", true, "Op"},
      {"strategy", "", "the strategy it serves", true, "Strategy"},
      {"tensor", "", "what it moves", true, "Tensor"},
      {"axes", "", "the slice's axes it runs over, or DCN", true, "Axes"},
      {"bytes", "B", "the whole array V", false, "Bytes"},
      {"count", "", "times per step on each chip", false, "Count"},
      {"time", "s", "one of them, from the collective cost model", false, "Time"},
      {"total", "s", "count x time", false, "Time per step"},
      {"critical", "", "yes on the critical path, no when it overlaps compute", true, "Critical"},
  };
}

// The book's summary table for the reader's B, D, F, X and Y (training_explorer.cpp).
std::vector<OutputSpec> strategy_columns() {
  return {
      {"strategy", "", "DP, FSDP, TP, or FSDP + TP", true, "Strategy"},
      {"chips", "chips", "chips it splits the layer over: X (dp x fsdp x ep), Y (tp) or XY", false,
       "Chips"},
      {"flops_forward", "FLOP", "forward FLOPs of one layer on one chip, 4BDF over the chips",
       false, "Forward FLOPs"},
      {"flops_backward", "FLOP", "backward FLOPs of one layer on one chip, 8BDF over the chips",
       false, "Backward FLOPs"},
      {"bytes_forward", "B",
       "bytes the forward pass's collectives move per layer (an AllReduce counts twice)", false,
       "Forward comms"},
      {"bytes_backward", "B", "bytes the backward pass's collectives move per layer", false,
       "Backward comms"},
      {"t_compute_forward", "s", "forward FLOPs / C", false, "Forward compute"},
      {"t_comm_forward", "s",
       "forward bytes / (M W_ici) on the strategy's axes; FSDP's and TP's at once, the longer",
       false, "Forward comm time"},
      {"t_compute_backward", "s", "backward FLOPs / C", false, "Backward compute"},
      {"t_comm_backward", "s", "backward bytes / (M W_ici), as forward", false,
       "Backward comm time"},
      {"ratio", "", "compute over communication time, the smaller of the two passes", false,
       "Compute / comms"},
      {"bound", "", "compute when the ratio is at least 1, else ici", true, "Bound"},
  };
}

// The book's layer on one chip for the explorer's picture (training_explorer.cpp).
std::vector<OutputSpec> array_columns() {
  return {
      {"array", "", "In, W_in, W_out or Out", true, "Array"},
      {"rows", "", "its first dimension", true, "Rows"},
      {"cols", "", "its second dimension", true, "Columns"},
      {"shape", "", "its whole shape in one slice", true, "Whole shape"},
      {"row_shards", "", "pieces its first dimension is cut into", false, "Row shards"},
      {"col_shards", "", "pieces its second dimension is cut into", false, "Column shards"},
      {"copies", "chips", "chips of the slice that hold each piece", false, "Copies"},
      {"bytes", "B", "bytes of it on one chip", false, "Bytes per chip"},
  };
}

// The book's layer step by step (training_algorithm.cpp).
std::vector<OutputSpec> algorithm_columns() {
  return {
      {"pass", "", "forward, backward, or step (once a step, after the backward pass)", true,
       "Pass"},
      {"order", "", "its place in the layer's algorithm, from 1", false, "Step"},
      {"op", "", "matmul, AllGather, ReduceScatter or AllReduce", true, "Operation"},
      {"axes", "", "the mesh axes a collective runs over", true, "Axes"},
      {"strategy", "", "the strategy whose collective it is: FSDP, TP or DP", true, "Strategy"},
      {"operation", "", "in chapter 3's notation: A *_J B -> C for a matmul over J", true,
       "In the book's notation"},
      {"flops", "FLOP", "a matmul's FLOPs on one chip, 2 (B/X) D (F/Y)", false, "FLOPs"},
      {"bytes", "B", "what a collective moves the book's way: V, or 2V for an AllReduce", false,
       "Bytes"},
      {"time", "s", "FLOPs / C, or bytes / (M W_ici) over its M axes", false, "Time"},
      {"critical", "", "a collective: yes on the critical path, no when it overlaps compute", true,
       "Critical"},
  };
}

}  // namespace

const Schema& training_schema() {
  static const Schema s{
      "training",
      "chapter 5's training step under one parallel layout (DP, FSDP, TP, pipeline, EP, DP over "
      "DCN): compute, every collective with its time, exposed communication, memory per chip "
      "against HBM, the bound, and the chapter's thresholds. Limits: collectives of different "
      "strategies take turns on shared links; TP wider than the KV heads still splits K and V "
      "(no copies); uneven_batch takes every shard at the average",
      inputs(),
      outputs(),
      {{"collectives", "every collective of one step on one chip", collective_columns()},
       {"strategies",
        "the chapter's four strategies for one layer with this B, D, F, X and Y, forward and "
        "backward",
        strategy_columns()},
       {"arrays", "the book's layer on one chip of a slice", array_columns()},
       {"algorithm",
        "the book's layer run step by step, every matmul and collective of one layer in order",
        algorithm_columns()}}};
  return s;
}

std::vector<InputSpec> shared_training_inputs(
    std::initializer_list<const char*> names,
    std::initializer_list<std::pair<const char*, Value>> defaults, std::vector<InputSpec> own) {
  std::vector<InputSpec> list;
  for (const InputSpec& spec : training_schema().inputs) {
    bool named = spec.group == InputGroup::override;
    for (const char* name : names) named = named || spec.name == name;
    if (!named) continue;
    list.push_back(spec);
    for (const auto& [name, value] : defaults)
      if (spec.name == name) list.back().default_value = value;
  }
  std::size_t at = 0;
  while (at < list.size() && list[at].name != "chip") ++at;
  list.insert(list.begin() + static_cast<std::ptrdiff_t>(std::min(at + 1, list.size())),
              std::make_move_iterator(own.begin()), std::make_move_iterator(own.end()));
  return list;
}

}  // namespace scalebook::training_parts
