// The `serving-capacity` calculator (chapter 8's prefill / generate planner): for prompts of P
// tokens, outputs of G and a request rate, how many prefill slices and how many decode slices
// serve it disaggregated, against one pool of slices doing both, and what each costs.
//
// The model, each piece from the inference step (inference.h):
//   - a prefill slice prefills one prompt at a time: max(its roofline step, 2 N_params P / (chips
//     C MFU)), the book's 0.91 s for 8k tokens of LLaMA 3-70B on 16 v5e at 40%;
//   - a decode slice steps B sequences per replica at a context of S (default P + G/2, the mean
//     while they decode); each sequence stays G steps, so it finishes B replicas / (t_step G)
//     requests a second, and B / G sequences leave each step with P + G tokens of cache each;
//   - disaggregated, the rate sets each pool (rounded up to whole slices) and the ratio is the
//     book's P_servers / t_prefill = B G_servers / (t_step G);
//   - colocated, a decode slice also prefills its own arrivals, stalling its batch for each:
//     r = D / (1 + D t_prefill) requests a second per slice, for D its decode-only rate.
#include "scalebook/inference/calculator.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "../calculator/parts.h"
#include "scalebook/core/format.h"
#include "scalebook/hardware/chip_inputs.h"

namespace scalebook {
namespace {

constexpr auto num = number_output;
constexpr auto text = text_output;

std::vector<InputSpec> inputs() {
  std::vector<InputSpec> list;
  for (InputSpec& spec : inference_parts::inference_inputs()) {
    if (spec.name == "phase") continue;
    if (spec.name == "T") {
      spec.aliases = {"prompt"};
      spec.default_value = Value::of(8192.0);
      spec.description = "prompt tokens each request prefills (P)";
      spec.label = "Prompt P";
    } else if (spec.name == "S") {
      spec.aliases = {"context"};
      spec.default_value = Value::none();
      spec.description = "decode context (default: P + G/2, a sequence's mean while it decodes)";
      spec.label = "Decode context";
    } else if (spec.name == "shape") {
      spec.description = "a decode slice (TPU torus sizes joined by x, or a GPU count)";
      spec.label = "Decode slice";
    } else if (spec.name == "batch") {
      spec.description = "sequences each decode replica steps together";
      spec.label = "Decode batch";
    } else if (spec.name == "tp") {
      spec.description = "tensor-parallel degree of a decode replica (default: the whole slice)";
    }
    list.push_back(std::move(spec));
  }
  auto at = list.begin() + 3;
  at = list.insert(
           at, labelled({"output", InputKind::count, "tokens", "tokens each request generates (G)",
                         Value::of(512.0), 1, false, 1e7},
                        "Output G")) +
       1;
  at = list.insert(at, labelled({"rate", InputKind::number, "requests/s",
                                 "requests arriving per second", Value::of(10.0), 0, true, 1e9},
                                "Request rate")) +
       1;
  InputSpec prefill_shape =
      labelled({"prefill_shape", InputKind::text, "",
                "a prefill slice (default: the decode slice's shape)", Value::none()},
               "Prefill slice");
  at = list.insert(at, std::move(prefill_shape)) + 1;
  list.insert(at, labelled({"prefill_mfu", InputKind::number, "",
                            "model FLOPs utilization of a prefill (chapter 8: 0.4)", Value::of(0.4),
                            0, true, 1},
                           "Prefill MFU"));
  return list;
}

const Schema& schema() {
  static const Schema s{
      "serving-capacity",
      "chapter 8's prefill / generate planner: prefill and decode slices for a request rate, "
      "disaggregated against both on the same slices, and what each costs",
      inputs(),
      {num("t_prefill", "s", "one prompt's prefill on a prefill slice", "Prefill time"),
       num("t_step", "s", "one decode step on a decode slice", "Decode step"),
       num("prefill_rate", "requests/s", "prompts one prefill slice prefills a second",
           "Prefill slice rate"),
       num("decode_rate", "requests/s", "requests one decode slice finishes a second",
           "Decode slice rate"),
       num("ratio", "", "prefill slices per decode slice at balance (the book's about 3)",
           "Prefill : decode"),
       num("prefill_slices", "slices", "prefill slices the rate needs", "Prefill slices"),
       num("decode_slices", "slices", "decode slices the rate needs", "Decode slices"),
       num("chips", "chips", "chips disaggregated: both pools", "Chips, disaggregated"),
       num("colocated_slices", "slices", "decode slices that also prefill their own arrivals",
           "Slices, colocated"),
       num("colocated_chips", "chips", "chips colocated", "Chips, colocated"),
       num("cost_per_hour", "USD/h", "disaggregated, at the catalog's price", "Cost an hour"),
       num("colocated_cost_per_hour", "USD/h", "colocated, at the catalog's price",
           "Cost an hour, colocated"),
       num("cost_per_million", "USD", "disaggregated, per million generated tokens",
           "Cost per 1M tokens"),
       num("colocated_cost_per_million", "USD", "colocated, per million generated tokens",
           "Cost per 1M, colocated"),
       num("finished_per_step", "sequences", "sequences a decode replica finishes each step: B/G",
           "Finished per step"),
       num("evicted_per_step", "tokens", "cache tokens they free: B (P + G) / G",
           "Tokens evicted per step"),
       num("kv_transfer_bytes", "B", "one prompt's KV cache sent from prefill to decode",
           "KV sent per request"),
       num("decode_hbm_used", "B", "weights and caches per decode chip", "Decode HBM per chip"),
       text("decode_fits", "whether the decode batch fits in HBM, or by how much it does not",
            "Decode batch fits")}};
  return s;
}

std::optional<Error> compute(const ResolvedInputs& in, ResultBuilder& out) {
  const double prompt = in.number("T");
  const double gen = in.number("output");
  const double rate = in.number("rate");
  const double mfu = in.number("prefill_mfu");
  const std::string& decode_shape = in.text("shape");
  const std::string prefill_shape =
      in.has("prefill_shape") ? in.text("prefill_shape") : decode_shape;

  Result<InferenceConfig> d = inference_parts::read_config(in, decode_shape, 0, true);
  if (!d.ok()) return d.error();
  InferenceConfig decode = d.value();
  decode.batch = in.number("batch");
  decode.context = in.has("S") ? in.number("S") : prompt + gen / 2;
  Result<InferenceStep> step = inference_step(decode);
  if (!step.ok()) return step.error();

  // The prefill slice: one replica across it (its own tp, not the decode one's).
  Result<Topology> where = topology_of(*chip_of(in), prefill_shape);
  if (!where.ok()) {
    Error e = where.error();
    e.field = "prefill_shape";
    return e;
  }
  Result<InferenceConfig> p = inference_parts::widest_config(in, prefill_shape, "prefill_shape");
  if (!p.ok()) {
    Error e = p.error();
    if (e.field == "shape" || e.field == "tp") e.field = "prefill_shape";
    e.message = "prefill slice " + prefill_shape + ": " + e.message;
    return e;
  }
  InferenceConfig prefill = p.value();
  prefill.phase = InferencePhase::prefill;
  prefill.batch = 1;
  prefill.tokens = prompt;
  Result<InferenceStep> pre = inference_step(prefill);
  if (!pre.ok()) return pre.error();
  const InferenceStep& ps = pre.value();
  if (!ps.fits)
    return Error{ErrorCode::invalid_argument, "prefill_shape",
                 "prefill slice " + prefill_shape + ": a replica (tp " +
                     format_number(prefill.slice.tp) + ") needs " + display_text(ps.hbm_used, "B") +
                     " a chip for its weights and one prompt's "
                     "cache, over its " +
                     display_text(prefill.hbm_capacity, "B") + "; give a larger prefill slice"};
  const double chips_p = prefill.slice.topology.chips;
  const double chips_d = decode.slice.topology.chips;
  // The prompt's FLOPs on one replica at the given MFU; replicas prefill prompts side by side.
  const double t_prefill =
      std::max(ps.t_step, (ps.flops_matmul + ps.flops_attention) / (prefill.peak_flops * mfu));
  const double prefill_rate = prefill.slice.replicas / t_prefill;
  const InferenceStep& ds = step.value();
  const double decode_rate = decode.batch * decode.slice.replicas / (ds.t_step * gen);
  const double prefill_slices = std::ceil(rate / prefill_rate - 1e-9);
  const double decode_slices = std::ceil(rate / decode_rate - 1e-9);
  // A colocated slice prefills its arrivals on the decode slice itself, one at a time.
  InferenceConfig own = decode;
  own.phase = InferencePhase::prefill;
  own.batch = 1;
  own.tokens = prompt;
  Result<InferenceStep> own_step = inference_step(own);
  if (!own_step.ok()) return own_step.error();
  const InferenceStep& os = own_step.value();
  const double t_own =
      std::max(os.t_step, (os.flops_matmul + os.flops_attention) / (own.peak_flops * mfu)) /
      decode.slice.replicas;
  const double colocated_rate = decode_rate / (1 + decode_rate * t_own);
  const double colocated_slices = std::ceil(rate / colocated_rate - 1e-9);
  const double chips = prefill_slices * chips_p + decode_slices * chips_d;
  const double price = chip_of(in)->price_per_hour;

  out.set("t_prefill", t_prefill);
  out.set("t_step", ds.t_step);
  out.set("prefill_rate", prefill_rate);
  out.set("decode_rate", decode_rate);
  out.set("ratio", decode_rate / prefill_rate);
  out.set("prefill_slices", prefill_slices);
  out.set("decode_slices", decode_slices);
  out.set("chips", chips);
  out.set("colocated_slices", colocated_slices);
  out.set("colocated_chips", colocated_slices * chips_d);
  const double tokens_per_hour = rate * gen * 3600;
  if (price > 0) {
    out.set("cost_per_hour", chips * price);
    out.set("colocated_cost_per_hour", colocated_slices * chips_d * price);
    out.set("cost_per_million", chips * price / tokens_per_hour * 1e6);
    out.set("colocated_cost_per_million",
            colocated_slices * chips_d * price / tokens_per_hour * 1e6);
  } else {
    for (const char* name : {"cost_per_hour", "colocated_cost_per_hour", "cost_per_million",
                             "colocated_cost_per_million"})
      out.set(name, Value::absent("the catalog has no price for this chip"));
  }
  out.set("finished_per_step", decode.batch / gen);
  out.set("evicted_per_step", decode.batch * (prompt + gen) / gen);
  out.set("kv_transfer_bytes", ds.kv_bytes_per_token * prompt);
  out.set("decode_hbm_used", ds.hbm_used);
  out.set_text("decode_fits",
               ds.fits ? std::string("yes")
                       : "no: over by " + display_text(ds.hbm_used - decode.hbm_capacity, "B") +
                             " a chip; at most " + format_number(ds.max_batch) + " sequences");

  if (out.explain()) {
    std::vector<Step> st;
    st.push_back({"A prompt's prefill: its FLOPs on the prefill slice at the MFU",
                  "T_\\text{prefill} = \\frac{" +
                      latex_number(ps.flops_matmul + ps.flops_attention) + "}{" +
                      latex_quantity(prefill.peak_flops, "FLOP/s") + " \\cdot " +
                      latex_number(mfu) + "} = " + latex_quantity(t_prefill, "s"),
                  t_prefill,
                  "s",
                  "t_prefill",
                  {}});
    st.push_back(
        {"Requests a decode slice finishes a second: B sequences per replica, G steps each",
         "\\frac{" + latex_number(decode.batch * decode.slice.replicas) + "}{" +
             latex_quantity(ds.t_step, "s") + " \\cdot " + latex_number(gen) +
             "} = " + latex_number(decode_rate),
         decode_rate,
         "requests/s",
         "decode_rate",
         {}});
    st.push_back({"Prompts a prefill slice takes a second: one per replica at a time",
                  "\\frac{" + latex_number(prefill.slice.replicas) + "}{" +
                      latex_quantity(t_prefill, "s") + "} = " + latex_number(prefill_rate),
                  prefill_rate,
                  "requests/s",
                  "prefill_rate",
                  {"t_prefill"}});
    st.push_back({"Prefill slices per decode slice at balance",
                  "\\frac{" + latex_number(decode_rate) + "}{" + latex_number(prefill_rate) +
                      "} = " + latex_number(decode_rate / prefill_rate),
                  decode_rate / prefill_rate,
                  "",
                  "ratio",
                  {"decode_rate", "prefill_rate"}});
    st.push_back({"Cache tokens freed each step: B/G sequences finish, P + G tokens each",
                  "\\frac{" + latex_number(decode.batch) + " \\cdot (" + latex_number(prompt) +
                      " + " + latex_number(gen) + ")}{" + latex_number(gen) +
                      "} = " + latex_number(decode.batch * (prompt + gen) / gen),
                  decode.batch * (prompt + gen) / gen,
                  "tokens",
                  "evicted_per_step",
                  {}});
    out.steps(std::move(st));
  }
  return std::nullopt;
}

}  // namespace

Calculator serving_capacity_calculator() { return {schema(), compute}; }

}  // namespace scalebook
