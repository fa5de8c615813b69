// The inference calculators' shared form and reading it into a step's config.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>

#include "parts.h"
#include "scalebook/core/format.h"
#include "scalebook/hardware/chip_inputs.h"
#include "scalebook/transformer/model_preset.h"

namespace scalebook::inference_parts {
namespace {

InputSpec count(const char* name, const char* unit, const char* description, Value fallback,
                double max, const char* label, InputGroup group = InputGroup::main) {
  return labelled({name, InputKind::count, unit, description, std::move(fallback), 1, false, max},
                  label, group);
}

InputSpec choice(const char* name, const char* description, const char* fallback,
                 std::initializer_list<const char*> choices, const char* label,
                 std::initializer_list<const char*> labels) {
  InputSpec spec{name, InputKind::choice, "", description, Value::of(fallback)};
  spec.choices.assign(choices.begin(), choices.end());
  return labelled(std::move(spec), label, InputGroup::main, labels);
}

// A chip field the reader may set for this call, applied to the chip's copy.
InputSpec chip_field(const char* name, const char* unit, const char* description, double max,
                     const char* label) {
  InputSpec spec =
      labelled({name, InputKind::number, unit, description, Value::none(), 0, false, max}, label,
               InputGroup::override);
  spec.overrides = &chip_preset();
  return spec;
}

// The model's shape without its id, name and source notes, whose strings a step never reads and
// whose copying was most of a numbers-only call's allocations.
Model shape_of(const Model& m) {
  Model s;
  s.L = m.L, s.D = m.D, s.F = m.F, s.N = m.N, s.K = m.K, s.H = m.H, s.V = m.V;
  s.gated = m.gated, s.tied = m.tied, s.norms_per_layer = m.norms_per_layer;
  s.final_norm = m.final_norm, s.E = m.E, s.experts_per_token = m.experts_per_token;
  s.shared_experts = m.shared_experts, s.F_expert = m.F_expert, s.dense_layers = m.dense_layers;
  s.q_rank = m.q_rank, s.kv_rank = m.kv_rank, s.rope_dim = m.rope_dim;
  return s;
}

// The last slice placed, by chip, its link numbers, shape, tp (0: the default) and ep: a sweep over
// batch or context asks for the same slice every call, and placing it builds the parallel layout.
struct SliceKey {
  std::string chip, shape;
  double link = 0, hop = 0, nvlink = 0, egress = 0, tp = 0, ep = 0;
  bool operator==(const SliceKey&) const = default;
};

Result<InferenceSlice> slice_of(const Chip& chip, const std::string& shape, double tp, double ep) {
  thread_local SliceKey last_key;
  thread_local InferenceSlice last;
  thread_local bool held = false;
  SliceKey key{chip.id,
               shape,
               chip.ici_link_bandwidth,
               chip.ici_hop_latency,
               chip.nvlink_bandwidth,
               chip.node_egress_bandwidth,
               tp,
               ep};
  if (held && key == last_key) return last;
  if (tp <= 0) {
    // One replica on the whole slice (over ep), or on one GPU node.
    Result<Topology> where = topology_of(chip, shape);
    if (!where.ok()) return where.error();
    double chips = where.value().chips;
    if (where.value().fabric == Fabric::switched) chips = std::min(chips, where.value().node_gpus);
    tp = std::max(1.0, std::floor(chips / ep));
  }
  Result<InferenceSlice> placed = inference_slice(chip, shape, tp, ep);
  if (!placed.ok()) return placed;
  last_key = std::move(key);
  last = placed.value();
  held = true;
  return placed;
}

Error fail(std::string field, std::string message) {
  return Error{ErrorCode::invalid_argument, std::move(field), std::move(message)};
}

}  // namespace

std::vector<InputSpec> inference_inputs() {
  InputSpec chip = chip_input();
  chip.default_value = Value::of("tpu-v5e");
  InputSpec shape = labelled(
      {"shape", InputKind::text, "",
       "the slice: TPU torus sizes joined by x (4x4), or a GPU count (8)", Value::of("4x4")},
      "Slice shape");
  shape.help =
      "A slice the chip's pod can have (4x4 or 8x16 on v5e), or GPUs: 1, or 8 for one NVLink "
      "node. Chips past one replica (tp x ep) hold copies of the model serving their own "
      "batches.";
  std::vector<InputSpec> list = {
      model_input("llama-3-70b"),
      choice("phase", "prefill: the prompt's T tokens at once; decode: one token per sequence",
             "decode", {"decode", "prefill"}, "Phase", {"Decode", "Prefill"}),
      count("batch", "sequences", "sequences per model replica in the step", Value::of(32.0), 1e7,
            "Batch"),
      count("S", "tokens", "decode: tokens in each sequence's KV cache (8k is 8192)",
            Value::of(8192.0), 1e8, "Context S"),
      count("T", "tokens", "prefill: prompt tokens per sequence", Value::of(2048.0), 1e8,
            "Prompt T"),
      chip,
      shape,
      count("tp", "chips",
            "tensor (model) parallel degree: chips one replica's heads and F are split over "
            "(default: the whole slice over ep, or one GPU node)",
            Value::none(), 1e6, "TP degree"),
      count("ep", "chips", "expert-parallel degree, MoE only: chips the experts are split over",
            Value::of(1.0), 1e6, "EP degree"),
      dtype_input("dtype_params", "Weights dtype", "format of the weights", Value::of("int8")),
      dtype_input("dtype_kv", "KV-cache dtype", "format of the KV cache", Value::of("bf16")),
      dtype_input("dtype", "Compute dtype", "format of the matmuls and activations",
                  Value::of("bf16")),
      choice("kv_sharding",
             "how a replica splits each KV cache: heads (replicated past K chips), heads then "
             "sequences (the book's [2, B_Z, S, K_Y, H]), or sequences only; the last two add "
             "two AllToAlls of the queries per layer",
             "heads-batch", {"heads-batch", "heads", "batch"}, "KV-cache sharding",
             {"Heads, then batch", "Heads only", "Batch only"}),
      choice("mlp_sharding",
             "1d: MLP weights split over F (Megatron); 2d: over D and F, the book's 2D "
             "weight-stationary layout at its best split",
             "1d", {"1d", "2d"}, "MLP sharding", {"1D weight-stationary", "2D weight-stationary"}),
      labelled({"hop_latency", InputKind::number, "s",
                "latency per collective hop (default: the chip's ICI hop latency)", Value::none(),
                0, false, 1},
               "Hop latency", InputGroup::advanced),
      labelled(
          {"peak_flops", InputKind::number, "FLOP/s",
           "override: the chip's peak FLOP/s in the compute dtype", Value::none(), 1, false, 1e21},
          "Peak FLOP/s", InputGroup::override),
      chip_field("hbm_bandwidth", "B/s", "override: HBM bandwidth per chip", 1e18, "HBM bandwidth"),
      chip_field("hbm_capacity", "B", "override: HBM per chip", 1e15, "HBM capacity"),
      chip_field("ici_link_bandwidth", "B/s", "override: ICI bandwidth per link, one direction",
                 1e15, "ICI link bandwidth"),
      chip_field("price_per_hour", "USD/h", "override: price per chip-hour (0: none)", 1e6,
                 "Price per chip-hour"),
  };
  for (InputSpec& spec : model_field_inputs()) list.push_back(std::move(spec));
  // The training calculators' name, and the one matmul, transformer, kv-allocator and the
  // serving simulation use.
  for (InputSpec& spec : list)
    if (spec.name == "dtype_params") spec.aliases = {"dtype_weights"};
  return list;
}

Result<InferenceConfig> read_config(const ResolvedInputs& in, const std::string& shape, double tp,
                                    bool sweep) {
  const Chip* chip = chip_of(in);
  InferenceConfig c;
  c.model = shape_of(*model_of(in));
  const Dtype compute = *parse_dtype(in.text("dtype"));
  set_chip(c, *chip, compute);
  if (in.has("peak_flops")) c.peak_flops = in.number("peak_flops");
  if (!(c.peak_flops > 0))
    return Error{ErrorCode::unsupported, "dtype",
                 chip->id + " has no " + to_string(compute) +
                     " peak in the catalog; give peak_flops to set one"};
  c.context = in.number("S");
  if (!sweep) {
    c.phase = in.text("phase") == "prefill" ? InferencePhase::prefill : InferencePhase::decode;
    c.batch = in.number("batch");
    c.tokens = in.number("T");
  }
  c.weight_bytes = bytes_per_element(*parse_dtype(in.text("dtype_params")));
  c.kv_bytes = bytes_per_element(*parse_dtype(in.text("dtype_kv")));
  c.activation_bytes = bytes_per_element(compute);
  const std::string& kv = in.text("kv_sharding");
  c.kv_sharding = kv == "heads"   ? KvSharding::heads
                  : kv == "batch" ? KvSharding::batch
                                  : KvSharding::heads_batch;
  c.mlp_sharding = in.text("mlp_sharding") == "2d" ? MlpSharding::two_d : MlpSharding::one_d;

  const double ep = in.number("ep");
  const bool given = tp > 0 || in.has("tp");
  if (tp <= 0 && in.has("tp")) tp = in.number("tp");
  Result<InferenceSlice> slice = slice_of(*chip, shape, tp, ep);
  if (!slice.ok()) return slice.error();
  c.slice = slice.value();
  if (in.has("hop_latency")) c.slice.hop_latency = in.number("hop_latency");
  tp = c.slice.tp;
  if (!given && (std::fmod(c.model.N, tp) != 0 || std::fmod(c.model.F, tp) != 0)) {
    return fail("tp", "tp = " + format_number(tp) + " (the whole slice) must divide the " +
                          format_number(c.model.N) + " query heads and F = " +
                          format_number(c.model.F) + "; give a tp that does");
  }
  return c;
}

Result<InferenceConfig> widest_config(const ResolvedInputs& in, const std::string& shape,
                                      const char* field) {
  Result<Topology> where = topology_of(*chip_of(in), shape);
  if (!where.ok()) return where.error();
  double most = std::floor(where.value().chips / in.number("ep"));
  const Model& m = *model_of(in);
  std::optional<Error> last;
  for (double tp = std::exp2(std::floor(std::log2(std::max(most, 1.0)))); tp >= 1; tp /= 2) {
    if (std::fmod(m.N, tp) != 0 || std::fmod(m.F, tp) != 0) continue;
    Result<InferenceConfig> c = read_config(in, shape, tp, true);
    if (c.ok()) return c;
    last = c.error();
  }
  if (last) return *last;
  return fail(field, "no tp fits " + shape);
}

Result<std::vector<std::string>> read_words(const ResolvedInputs& in, const char* name,
                                            std::size_t most) {
  std::vector<std::string> out;
  std::string word;
  for (char ch : in.text(name) + " ") {
    if (ch == ' ' || ch == ',') {
      if (!word.empty()) out.push_back(word);
      word.clear();
    } else {
      word += ch;
    }
  }
  if (out.empty() || out.size() > most)
    return Error{ErrorCode::invalid_argument, name,
                 std::string(name) + " lists " + std::to_string(out.size()) +
                     " values; give 1 to " + std::to_string(most)};
  return out;
}

Result<std::vector<double>> read_batches(const ResolvedInputs& in, const char* name,
                                         std::size_t most) {
  Result<std::vector<std::string>> words = read_words(in, name, most);
  if (!words.ok()) return words.error();
  std::vector<double> out;
  for (const std::string& w : words.value()) {
    char* end = nullptr;
    const double b = std::strtod(w.c_str(), &end);
    if (*end != '\0' || !std::isfinite(b) || b < 1 || b > 1e7 || std::floor(b) != b)
      return Error{
          ErrorCode::invalid_argument, name,
          std::string(name) + ": \"" + w + "\" is not a whole number of sequences from 1 to 1e7"};
    out.push_back(b);
  }
  return out;
}

double cost_per_million(double price, double chips, double tokens_per_s) {
  if (!(price > 0) || !(tokens_per_s > 0)) return 0;
  return price * chips / 3600 / tokens_per_s * 1e6;
}

}  // namespace scalebook::inference_parts
