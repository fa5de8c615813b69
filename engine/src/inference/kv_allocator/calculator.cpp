// The `kv-allocator` calculator: a model's KV cache per token from its preset and KV dtype,
// the HBM the chips have left beside its weights, and how many requests fit there padded to
// the context limit, in pages, and in pages with a shared prefix (kv_allocator.h).
#include <cmath>
#include <string>
#include <vector>

#include "scalebook/core/format.h"
#include "scalebook/hardware/chip_inputs.h"
#include "scalebook/inference/kv_allocator.h"
#include "scalebook/transformer/model_preset.h"

namespace scalebook {
namespace {

InputSpec tokens(const char* name, const char* description, double fallback, double min,
                 const char* label, InputKind kind = InputKind::count) {
  return labelled({name, kind, "tokens", description, Value::of(fallback), min, false, 1e7}, label);
}

std::vector<InputSpec> inputs() {
  const KvAllocatorConfig d;
  InputSpec lengths{"lengths", InputKind::choice, "",
                    "how request lengths spread about the mean: all equal, uniform over (0, 2 "
                    "mean], or exponential",
                    Value::of(to_string(d.lengths))};
  lengths.choices = {"fixed", "uniform", "exponential"};
  InputSpec share{"share",
                  InputKind::number,
                  "",
                  "fraction of requests that start with the shared prefix",
                  Value::of(0.5),
                  0,
                  false,
                  1};
  std::vector<InputSpec> list = {
      model_input("llama-2-13b"),
      dtype_input("dtype_kv", "KV cache dtype", "format of the KV cache", Value::of("bf16")),
      dtype_input("dtype_weights", "Weights dtype",
                  "format of the weights, which take their share of HBM first", Value::of("bf16")),
      chip_input(),
      labelled({"chips", InputKind::count, "chips", "chips whose HBM holds the weights and caches",
                Value::of(8.0), 1, false, 1e6},
               "Chips"),
      tokens("max_context", "the context limit: a padded slot reserves this many tokens",
             d.max_context, 1, "Max context S"),
      tokens("page", "tokens per page of the paged allocator", d.page, 1, "Page size p"),
      labelled(lengths, "Request lengths", InputGroup::main, {"Fixed", "Uniform", "Exponential"}),
      tokens("mean", "mean tokens a request holds (prompt and generated), capped at max_context",
             d.mean, 1, "Mean request length", InputKind::number),
      tokens("prefix", "tokens of a prompt prefix many requests share (a system prompt)", 512, 0,
             "Shared prefix P"),
      labelled(share, "Requests sharing it f"),
  };
  // A reader's own chip: its capacity is the one chip number this calculator reads.
  InputSpec capacity{"hbm_capacity",
                     InputKind::number,
                     "B",
                     "override: the chip's HBM capacity",
                     Value::none(),
                     1,
                     false,
                     1e15};
  capacity.overrides = &chip_preset();
  list.push_back(labelled(capacity, "HBM capacity", InputGroup::override));
  for (InputSpec& spec : model_field_inputs()) list.push_back(std::move(spec));
  return list;
}

constexpr auto num = number_output;

const Schema& schema() {
  static const Schema s{
      "kv-allocator",
      "KV-cache allocation (chapter 7): requests that fit in the HBM beside the weights with "
      "slots padded to the context limit, with pages, and with a shared prefix",
      inputs(),
      {num("kv_per_token", "B", "the KV cache of one token, all layers", "KV cache per token"),
       num("hbm", "B", "the chips' HBM", "HBM"),
       num("weights", "B", "the weights, every parameter", "Weights"),
       num("budget", "B", "HBM less the weights: what the caches may use", "KV budget"),
       num("mean_length", "tokens", "E[l], lengths capped at the context limit",
           "Mean request length"),
       num("kv_per_request", "B", "the cache a mean request fills", "KV per request"),
       num("padded_bytes", "B", "a slot of max_context tokens", "Padded: per request"),
       num("padded_waste", "", "1 - E[l] / S: reserved and never used", "Padded: wasted"),
       num("padded_requests", "requests", "budget / slot", "Padded: requests that fit"),
       num("paged_bytes", "B", "E[ceil(l / p) p] tokens per request", "Paged: per request"),
       num("paged_waste", "", "the last page's empty part", "Paged: wasted"),
       num("paged_requests", "requests", "budget / paged bytes", "Paged: requests that fit"),
       num("gain", "x", "paged requests over padded requests", "Batch gain from paging"),
       num("shared_tokens", "tokens", "E[min(P, l)]: the prefix tokens a request holds",
           "Prefix tokens per request"),
       num("prefill_fraction", "", "of a sharing request's tokens, those it still computes",
           "Compute a sharing request needs"),
       num("shared_bytes", "B", "the prefix's whole pages, kept once", "Shared per request"),
       num("shared_requests", "requests", "requests that fit, paged, with the prefix shared",
           "Shared: requests that fit"),
       num("sharing", "requests", "of them, floor(f n) share the prefix", "Sharing requests"),
       num("compute_saved", "", "of the batch's cache compute, the part sharing skips",
           "Compute saved"),
       num("bytes_saved", "B", "cache the sharing frees", "Cache saved")}};
  return s;
}

std::vector<Step> steps(const KvAllocatorConfig& c, double kv_elements, double kv_dtype_bytes,
                        double hbm, double weights, const KvAllocation& a) {
  auto n = [](double x) { return latex_number(x); };
  auto q = [](double x, const char* unit) { return latex_quantity(x, unit); };
  return {
      {"KV cache per token: its elements, all layers, at the KV dtype",
       "b = " + n(kv_elements) + " \\cdot " + q(kv_dtype_bytes, "B") + " = " +
           q(c.kv_bytes_per_token, "B"),
       c.kv_bytes_per_token, "B", "kv_per_token"},
      {"What the caches may use: the chips' HBM less the weights",
       q(hbm, "B") + " - " + q(weights, "B") + " = " + q(c.budget, "B"), c.budget, "B", "budget"},
      {"Mean request length (" + std::string(to_string(c.lengths)) + ", capped at S)",
       "E[l] = " + n(a.mean_length), a.mean_length, "tokens", "mean_length"},
      {"Padded: each request reserves S tokens",
       "S b = " + n(c.max_context) + " \\cdot " + q(c.kv_bytes_per_token, "B") + " = " +
           q(a.padded_bytes, "B"),
       a.padded_bytes,
       "B",
       "padded_bytes",
       {"kv_per_token"}},
      {"Padded: the reserved part no token uses",
       "1 - \\frac{E[l]}{S} = 1 - \\frac{" + n(a.mean_length) + "}{" + n(c.max_context) +
           "} = " + n(a.padded_waste),
       a.padded_waste,
       "",
       "padded_waste",
       {"mean_length"}},
      {"Padded: requests that fit",
       "\\left\\lfloor \\frac{" + q(c.budget, "B") + "}{" + q(a.padded_bytes, "B") +
           "} \\right\\rfloor = " + n(a.padded_requests),
       a.padded_requests,
       "requests",
       "padded_requests",
       {"budget", "padded_bytes"}},
      {"Paged: whole pages of p tokens",
       "E\\left[\\left\\lceil \\frac{l}{" + n(c.page) + "} \\right\\rceil " + n(c.page) +
           "\\right] b = " + n(a.paged_tokens) + " \\cdot " + q(c.kv_bytes_per_token, "B") + " = " +
           q(a.paged_bytes, "B"),
       a.paged_bytes,
       "B",
       "paged_bytes",
       {"kv_per_token"}},
      {"Paged: the last page's empty part",
       "1 - \\frac{" + n(a.mean_length) + "}{" + n(a.paged_tokens) + "} = " + n(a.paged_waste),
       a.paged_waste,
       "",
       "paged_waste",
       {"mean_length"}},
      {"Paged: requests that fit",
       "\\left\\lfloor \\frac{" + q(c.budget, "B") + "}{" + q(a.paged_bytes, "B") +
           "} \\right\\rfloor = " + n(a.paged_requests),
       a.paged_requests,
       "requests",
       "paged_requests",
       {"budget", "paged_bytes"}},
      {"A sharing request computes only its tokens past the prefix",
       "1 - \\frac{E[\\min(P, l)]}{E[l]} = 1 - \\frac{" + n(a.shared_tokens) + "}{" +
           n(a.mean_length) + "} = " + n(a.prefill_fraction),
       a.prefill_fraction,
       "",
       "prefill_fraction",
       {"mean_length"}},
      {"Its prefix pages are kept once",
       "E\\left[\\left\\lfloor \\frac{\\min(P, l)}{p} \\right\\rfloor\\right] p\\, b = " +
           q(a.shared_bytes, "B"),
       a.shared_bytes,
       "B",
       "shared_bytes",
       {"kv_per_token"}},
  };
}

// The steps that need a finite count of sharing requests.
std::vector<Step> sharing_steps(const KvAllocatorConfig& c, const KvAllocation& a) {
  auto n = [](double x) { return latex_number(x); };
  return {
      {"Requests that fit when floor(f n) of n share the prefix",
       "n\\, " + latex_quantity(a.paged_bytes, "B") + " - (\\lfloor " + n(c.share) +
           " n \\rfloor - 1)\\, " + latex_quantity(a.shared_bytes, "B") + " \\le " +
           latex_quantity(c.budget, "B") + " \\Rightarrow n = " + n(a.shared_requests),
       a.shared_requests,
       "requests",
       "shared_requests",
       {"paged_bytes", "shared_bytes"}},
      {"Compute saved: every sharer but the first skips its prefix",
       "\\frac{(" + n(a.sharing) + " - 1) \\cdot " + n(a.shared_tokens) + "}{" +
           n(a.shared_requests) + " \\cdot " + n(a.mean_length) + "} = " + n(a.compute_saved),
       a.compute_saved,
       "",
       "compute_saved",
       {"shared_requests"}},
  };
}

std::optional<Error> compute(const ResolvedInputs& in, ResultBuilder& out) {
  const Model* model = model_of(in);
  const Chip* chip = chip_of(in);
  const double kv_elements = kv_elements_per_token(*model);
  const double kv_dtype_bytes = bytes_per_element(*parse_dtype(in.text("dtype_kv")));
  const double hbm = in.number("chips") * chip->hbm_capacity;
  const double weights =
      count_params(*model).total * bytes_per_element(*parse_dtype(in.text("dtype_weights")));
  KvAllocatorConfig c;
  c.kv_bytes_per_token = kv_elements * kv_dtype_bytes;
  c.budget = hbm - weights;
  if (c.budget <= 0)
    return Error{ErrorCode::out_of_range, "chips",
                 "the weights (" + format_number(weights) + " B) fill the HBM of chips=" +
                     format_number(in.number("chips")) + " (" + format_number(hbm) +
                     " B), leaving none for KV caches; add chips or choose a smaller "
                     "dtype_weights"};
  c.max_context = in.number("max_context");
  c.page = in.number("page");
  c.lengths = in.text("lengths") == "fixed"     ? LengthDistribution::fixed
              : in.text("lengths") == "uniform" ? LengthDistribution::uniform
                                                : LengthDistribution::exponential;
  c.mean = in.number("mean");
  c.prefix = in.number("prefix");
  c.share = in.number("share");
  if (std::optional<Error> bad = check_kv_allocator(c)) return bad;
  const KvAllocation a = kv_allocation(c);
  out.set("kv_per_token", c.kv_bytes_per_token);
  out.set("hbm", hbm);
  out.set("weights", weights);
  out.set("budget", c.budget);
  out.set("mean_length", a.mean_length);
  out.set("kv_per_request", a.mean_length * c.kv_bytes_per_token);
  out.set("padded_bytes", a.padded_bytes);
  out.set("padded_waste", a.padded_waste);
  out.set("padded_requests", a.padded_requests);
  out.set("paged_bytes", a.paged_bytes);
  out.set("paged_waste", a.paged_waste);
  out.set("paged_requests", a.paged_requests);
  if (a.padded_requests > 0)
    out.set("gain", a.gain);
  else
    out.none("gain", "no request fits a padded slot");
  out.set("shared_tokens", a.shared_tokens);
  out.set("prefill_fraction", a.prefill_fraction);
  out.set("shared_bytes", a.shared_bytes);
  const bool bounded = std::isfinite(a.shared_requests);
  if (bounded) {
    out.set("shared_requests", a.shared_requests);
    out.set("sharing", a.sharing);
    out.set("compute_saved", a.compute_saved);
    out.set("bytes_saved", a.bytes_saved);
  } else {
    constexpr const char* why = "every request is wholly the shared prefix: no limit";
    for (const char* name : {"shared_requests", "sharing", "compute_saved", "bytes_saved"})
      out.none(name, why);
  }
  if (out.explain()) {
    out.steps(steps(c, kv_elements, kv_dtype_bytes, hbm, weights, a));
    if (bounded)
      for (Step& s : sharing_steps(c, a)) out.step(std::move(s));
  }
  return std::nullopt;
}

}  // namespace

Calculator kv_allocator_calculator() { return {schema(), compute}; }

}  // namespace scalebook
