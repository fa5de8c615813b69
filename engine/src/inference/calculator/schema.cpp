// The inference calculator's schema: the shared form (inputs.cpp), the batch list of its
// table, and every output of the step.
#include "parts.h"
#include "scalebook/inference/calculator.h"

namespace scalebook::inference_parts {

constexpr auto num = number_output;
constexpr auto text = text_output;

std::vector<OutputSpec> batch_columns() {
  return {num("batch", "sequences", "sequences per replica", "Batch"),
          num("kv_bytes", "B", "KV caches of the batch, one replica", "KV memory"),
          num("total_bytes", "B", "weights and KV caches, one replica", "Total memory"),
          num("t_roofline", "s", "attention + matmuls, the book's step time", "Roofline step"),
          num("t_step", "s", "one decode step, with its collectives", "Step time"),
          num("tokens_per_s", "tokens/s", "tokens per second of the slice", "Throughput"),
          text("fits", "yes when weights and caches fit in HBM", "Fits"),
          text("bound", "what sets the step time", "Bound")};
}

const Schema& inference_schema() {
  static const Schema s = [] {
    std::vector<InputSpec> inputs = inference_inputs();
    InputSpec batches = labelled({"batches", InputKind::text, "",
                                  "batch sizes for the decode table, like 1 8 16 32 64 240 "
                                  "(none: no table); at most 32",
                                  Value::none()},
                                 "Batch table", InputGroup::advanced);
    batches.help = "Whole numbers of sequences separated by spaces or commas.";
    inputs.push_back(batches);
    // Chapter 8's serving sizer quotes queries per second: a query is G decode steps.
    inputs.insert(inputs.begin() + 5,
                  labelled({"output", InputKind::count, "tokens",
                            "tokens each query generates, for queries per second (G)",
                            Value::of(512.0), 1, false, 1e7},
                           "Output tokens"));
    return Schema{
        "inference",
        "chapter 7's roofline of one inference step: a prefill of T tokens or a decode step at "
        "batch B with contexts of S tokens, split into attention, weight matmuls and "
        "collectives, with memory, critical batch sizes, model-parallel limits and cost",
        std::move(inputs),
        {num("params", "params", "the model's parameters", "Parameters"),
         num("kv_bytes_per_token", "B", "KV cache per token, all layers: 2 L K H x bytes",
             "KV cache per token"),
         num("kv_bytes_per_sequence", "B", "one sequence's cache (S tokens, or T in prefill)",
             "KV cache per sequence"),
         num("chips", "chips", "chips in the slice", "Chips"),
         num("tp", "chips", "tensor-parallel degree", "TP degree"),
         num("ep", "chips", "expert-parallel degree", "EP degree"),
         num("replicas", "", "copies of the model in the slice, chips / (tp ep)", "Replicas"),
         num("step_tokens", "tokens", "tokens a replica processes in the step", "Tokens per step"),
         num("t_step", "s", "attention + matmuls + collectives", "Step time"),
         num("t_attention", "s", "max(attention FLOPs, KV-cache loading)", "Attention"),
         num("t_kv_load", "s", "the KV caches read from HBM", "KV-cache loading"),
         num("t_attention_flops", "s", "the attention dot products at peak", "Attention FLOPs"),
         num("t_matmul", "s", "max(matmul FLOPs, weight loading)", "Weight matmuls"),
         num("t_flops", "s", "the weight matmuls' FLOPs at peak", "Matmul FLOPs"),
         num("t_weight_load", "s", "the weights read from HBM", "Weight loading"),
         num("t_collectives", "s", "every collective of the step", "Collectives"),
         num("t_collective_tp", "s", "one AllGather of a block's activations over tp",
             "One tp AllGather"),
         text("collectives_latency_bound", "yes when the tp AllGather's hops outlast its bytes",
              "Latency-bound collectives"),
         num("t_roofline", "s", "attention + matmuls, the book's step time", "Roofline step time"),
         text("bound", "what sets the step time", "Bound"),
         num("t_per_token", "s", "decode: one step per token; prefill: the whole prompt (TTFT)",
             "Latency"),
         num("tokens_per_s", "tokens/s", "tokens per second of the slice", "Throughput"),
         num("tokens_per_s_per_chip", "tokens/s", "tokens per second per chip",
             "Throughput per chip"),
         num("qps_per_chip", "queries/s",
             "decode: queries of G tokens finished per second per chip; prefill: prompts",
             "QPS per chip"),
         num("cost_per_million", "USD", "USD per million tokens at the chip's price",
             "Cost per million tokens"),
         num("weight_bytes_per_chip", "B", "weights each chip holds", "Weights per chip"),
         num("kv_bytes_per_chip", "B", "the batch's KV caches each chip holds",
             "KV cache per chip"),
         num("hbm_used", "B", "weights + KV caches per chip", "HBM used"),
         num("hbm_capacity", "B", "the chip's HBM", "HBM per chip"),
         text("fits", "yes when the step fits in HBM", "Fits"),
         num("hbm_over", "B", "how far past HBM the step is, per chip (0 when it fits)",
             "Over HBM by"),
         num("max_batch", "sequences", "the most sequences whose caches fit beside the weights",
             "Largest batch"),
         num("critical_batch", "tokens",
             "tokens per step past which the matmuls are "
             "compute-bound, these dtypes (x E/k for MoE)",
             "Critical batch"),
         num("critical_batch_bf16", "tokens", "bf16 weights and math", "Critical batch, bf16"),
         num("critical_batch_int8_weights", "tokens", "int8 weights, bf16 math",
             "Critical batch, int8 weights"),
         num("critical_batch_int8", "tokens", "int8 weights and math", "Critical batch, int8"),
         num("moe_factor", "", "E / k (1 for a dense model)", "MoE factor"),
         num("w_ici", "B/s", "one axis both ways, 2 x the link bandwidth", "ICI bandwidth W_ici"),
         num("tp_limit_decode", "chips",
             "tp past which decode's collectives outlast its weight "
             "loading: (w/a) F W_ici / (B W_hbm)",
             "Decode TP limit"),
         num("tp_limit_prefill", "chips",
             "tp on one axis past which prefill is ICI-bound: "
             "F W_ici / C",
             "Prefill TP limit"),
         num("t_mlp_comms_1d", "s", "1D weight-stationary MLP comms per layer, 2aBD / (3 W_ici)",
             "1D MLP comms"),
         num("t_mlp_comms_2d", "s", "2D weight-stationary MLP comms per layer at the best X",
             "2D MLP comms"),
         num("x_2d", "chips", "2D's best X, sqrt(D N / 2F)", "2D X"),
         num("yz_2d", "chips", "2D's YZ, N / X", "2D YZ"),
         num("crossover_2d", "chips", "chips past which 2D moves fewer bytes: 18 F / D",
             "2D crossover")},
        {{"batches", "the decode step at each batch of the batch table", batch_columns()}}};
  }();
  return s;
}

}  // namespace scalebook::inference_parts
