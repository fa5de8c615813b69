// The `gpu-planner` calculator: chapter 12's rooflines for LLM scaling on GPUs, for a model
// from the catalog (or its fields), a global batch, a GPU and its cluster's bandwidths, and
// degrees of DP (or FSDP), TP, EP and PP. The model is planner.h's.
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "planner_parts.h"
#include "scalebook/core/format.h"
#include "scalebook/hardware/chip_inputs.h"
#include "scalebook/transformer/model_preset.h"

namespace scalebook {
namespace {

constexpr auto num = number_output;
constexpr auto text = text_output;

InputSpec count(const char* name, const char* unit, const char* description, Value fallback,
                double max, const char* label, InputGroup group = InputGroup::main) {
  return labelled({name, InputKind::count, unit, description, std::move(fallback), 1, false, max},
                  label, group);
}

InputSpec number(const char* name, const char* unit, const char* description, Value fallback,
                 double min, double max, const char* label, InputGroup group) {
  return labelled(
      {name, InputKind::number, unit, description, std::move(fallback), min, false, max}, label,
      group);
}

// A chip field the reader may set for this call, applied to the chip's copy.
InputSpec chip_field(const char* name, InputKind kind, const char* unit, const char* description,
                     double max, const char* label, const char* alias) {
  InputSpec spec = labelled({name, kind, unit, description, Value::none(), 1, false, max}, label,
                            InputGroup::override);
  spec.overrides = &chip_preset();
  if (alias) spec.aliases = {alias};
  return spec;
}

std::vector<InputSpec> inputs() {
  InputSpec chip = chip_input();
  chip.default_value = Value::of("h100");
  chip.description = "a GPU from the hardware catalog";
  chip.label = "GPU";
  InputSpec span{"tp_span", InputKind::choice, "",
                 "node: TP stays inside one NVLink domain (an error if wider); nodes: it may "
                 "cross nodes",
                 Value::of("node")};
  span.choices = {"node", "nodes"};
  span = labelled(std::move(span), "TP span", InputGroup::main, {"Inside a node", "Across nodes"});
  InputSpec batch =
      count("B", "tokens", "global batch, tokens a step", Value::of(4e6), 1e12, "Global batch");
  batch.aliases = {"batch"};
  std::vector<InputSpec> list = {
      model_input("llama-3-70b"),
      batch,
      chip,
      count("gpus", "", "GPUs in the run", Value::of(4096.0), 1e7, "GPUs"),
      count("dp", "", "data-parallel degree (default: the GPUs over tp x ep x pp)", Value::none(),
            1e7, "DP degree"),
      count("fsdp", "", "FSDP degree: dp with zero = 3 (give dp or fsdp, not both)", Value::none(),
            1e7, "FSDP degree"),
      labelled({"zero", InputKind::count, "",
                "ZeRO stage of the DP axis: 0 plain DP, 1 shards the optimizer state, 2 also the "
                "gradients, 3 also the weights (FSDP)",
                Value::of(0.0), 0, false, 3},
               "ZeRO stage"),
      count("tp", "", "tensor-parallel degree, the innermost axis", Value::of(8.0), 1e5,
            "TP degree"),
      span,
      count("ep", "", "expert-parallel degree (MoE only), inside TP's stride", Value::of(1.0), 1e5,
            "EP degree"),
      count("pp", "", "pipeline stages", Value::of(1.0), 1e5, "PP degree"),
      count("tokens", "tokens", "training tokens, for the run's time (optional)", Value::none(),
            1e16, "Training tokens"),
      number("mfu", "", "model FLOPs utilization of the run", Value::of(0.45), 1e-6, 1, "MFU",
             InputGroup::main),
      dtype_input("dtype", "Compute dtype", "format of the matmuls", Value::of("bf16")),
      count("microbatches", "", "pipeline microbatches a step (default: 2 x pp)", Value::none(),
            1e6, "Microbatches", InputGroup::advanced),
      number("bytes_params", "B", "bytes a parameter's weight takes (bf16: 2)", Value::of(2.0), 0,
             16, "Weight bytes", InputGroup::advanced),
      number("bytes_optimizer", "B", "optimizer bytes a parameter (fp32 Adam: 8)", Value::of(8.0),
             0, 64, "Optimizer bytes", InputGroup::advanced),
      number("bytes_grads", "B", "gradient bytes a parameter (the book's count leaves them out: 0)",
             Value::of(0.0), 0, 16, "Gradient bytes", InputGroup::advanced),
      number("params", "params", "override: the model's parameter count (memory and 6PT)",
             Value::none(), 1, 1e15, "Parameters", InputGroup::override),
      number("peak_flops", "FLOP/s", "override: the GPU's peak FLOP/s in the compute dtype",
             Value::none(), 1, 1e21, "Peak FLOP/s", InputGroup::override),
      chip_field("nvlink_bandwidth", InputKind::number, "B/s",
                 "override: a GPU's NVLink egress, one direction (W_gpu)", 1e15, "NVLink egress",
                 "W_gpu"),
      chip_field("node_egress_bandwidth", InputKind::number, "B/s",
                 "override: a node's egress into the scale-out network (W_node)", 1e16,
                 "Node egress", "W_node"),
      chip_field("nvlink_domain_gpus", InputKind::count, "",
                 "override: GPUs in one NVLink domain (a node)", 1e5, "GPUs a node", nullptr),
      chip_field("hbm_capacity", InputKind::number, "B", "override: HBM a GPU", 1e15,
                 "HBM capacity", nullptr),
  };
  for (InputSpec& spec : model_field_inputs()) list.push_back(std::move(spec));
  return list;
}

std::vector<OutputSpec> outputs() {
  std::vector<OutputSpec> list = {
      num("gpus", "", "GPUs: dp x tp x ep x pp", "GPUs"),
      num("dp", "", "the data-parallel degree", "DP degree"),
      num("tokens_per_gpu", "tokens", "global batch over the GPUs", "Tokens a GPU"),
      num("dp_critical_node", "tokens", "DP/FSDP bound a GPU inside a node: C / W_gpu",
          "DP bound in a node"),
      num("dp_critical", "tokens", "DP/FSDP bound a GPU across nodes: C / W_node",
          "DP bound across nodes"),
      num("dp_min_batch", "tokens",
          "the global batch that bound asks of all the GPUs: N C / W_node",
          "Smallest global batch"),
      num("dp_critical_moe", "tokens", "the MoE's DP bound: E/k x C / W_node", "MoE DP bound"),
      num("dp_nodes", "", "nodes the DP ring spans (X)", "DP nodes"),
      num("dp_critical_small", "tokens", "the bound over only X nodes: (X-1)/X x C / W_node",
          "DP bound over X nodes"),
      num("mp_nodes", "", "nodes one model-parallel group (tp x ep x pp) spans (M)",
          "Model-parallel nodes"),
      num("mp_bandwidth", "B/s", "the DP reduction's effective bandwidth: M x W_node",
          "DP effective bandwidth"),
      num("dp_critical_mp", "tokens", "DP bound with model parallelism over M nodes",
          "DP bound with model parallelism"),
      num("tp_max_node", "", "largest compute-bound TP degree in a node: F W_gpu / C",
          "TP limit in a node"),
      num("tp_max", "", "largest compute-bound TP degree over node egress: F W_node / C",
          "TP limit across nodes"),
      num("tp_max_2node", "", "TP limit over two nodes: n + F W_node / C", "TP limit over 2 nodes"),
      num("ep_f_critical", "", "expert width above which EP may span many nodes: n C / W_node",
          "Expert width for wide EP"),
      num("ep_max", "", "largest compute-bound EP degree", "EP limit"),
  };
  for (const char* s : {"dp", "tp", "ep", "pp"}) {
    const std::string up = s == std::string("dp")   ? "DP"
                           : s == std::string("tp") ? "TP"
                           : s == std::string("ep") ? "EP"
                                                    : "PP";
    const std::string frame = up == "DP" ? "backward" : "forward";
    list.push_back(num(std::string(s) + "_t_math", "s",
                       "a GPU's MLP " + frame + " math a step, the frame " + up + " is judged in",
                       up + " math time"));
    list.push_back(
        num(std::string(s) + "_t_comms", "s", up + "'s communication a step", up + " comms time"));
    list.push_back(text(std::string(s) + "_compute_bound",
                        "yes when " + up + "'s comms fit under its math", up + " compute-bound"));
  }
  list.push_back(num("dp_critical_layout", "tokens",
                     "tokens a GPU at which this layout's DP comms equal its math",
                     "DP bound here"));
  list.push_back(
      num("pp_per_layer", "s", "PP's comms a layer: 1.5 x 2bD / (W L)", "PP comms a layer"));
  list.push_back(
      num("memory_total", "B", "weights and optimizer state: params x bytes", "Memory in all"));
  list.push_back(num("memory_per_gpu", "B", "the same over its shards", "Memory a GPU"));
  list.push_back(text("fits", "yes when a GPU's share fits in its HBM, else no", "Fits in HBM"));
  list.push_back(
      num("min_gpus", "", "GPUs just to hold it: memory / HBM, rounded up", "GPUs to hold it"));
  list.push_back(num("run_flops", "FLOP", "the run's 6 P T FLOPs", "Run FLOPs"));
  list.push_back(num("run_time", "s", "6PT / (GPUs x C x MFU)", "Run time"));
  return list;
}

const Schema& schema() {
  static const Schema s{
      "gpu-planner",
      "chapter 12's rooflines for LLM scaling on GPUs: the DP/FSDP, TP, EP and PP thresholds "
      "for a model, batch, GPU and cluster, and for chosen degrees each strategy's math and "
      "comms, memory a GPU and the run's time",
      inputs(),
      outputs(),
      {{"strategies",
        "one row per strategy: its degree, nodes, math and comms times",
        {text("strategy", "DP, TP, EP or PP", "Strategy"),
         num("degree", "", "its degree", "Degree"),
         num("nodes", "", "nodes one group spans", "Nodes"),
         num("t_math", "s", "math a step, in its frame", "Math time"),
         num("t_comms", "s", "comms a step", "Comms time"),
         text("compute_bound", "yes when comms fit under math", "Compute-bound")}}}};
  return s;
}

}  // namespace

Calculator gpu_planner_calculator() { return {schema(), planner_parts::compute}; }

}  // namespace scalebook
