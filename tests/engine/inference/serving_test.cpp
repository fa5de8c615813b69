// The serving simulator against hand derivations from inference_step: one request alone, a
// saturated queue, the disaggregated hand-off; its determinism; and its bad input.
#include "scalebook/inference/serving.h"

#include <cmath>
#include <string>

#include "helpers.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

// The request path with `fields` over the defaults (llama-3-8b, tpu-v5e 2x2, tp 4).
ServingConfig config(const Inputs& fields) {
  Result<ServingConfig> c = serving_request(fields, kMaxServingRequests);
  if (!c.ok()) FAIL(c.error().message);
  return c.value();
}

ServingResult run(const ServingConfig& c) {
  Result<ServingResult> r = simulate_serving(c);
  if (!r.ok()) FAIL(r.error().message);
  return r.value();
}

InferenceStep step(const ServingConfig& c, InferencePhase phase, double batch, double size) {
  InferenceConfig s = c.step;
  s.phase = phase;
  s.batch = batch;
  (phase == InferencePhase::decode ? s.context : s.tokens) = size;
  Result<InferenceStep> r = inference_step(s);
  if (!r.ok()) FAIL(r.error().message);
  return r.value();
}

// Decode steps of `batch` sequences from `prompt` cached tokens each for `steps` steps,
// stepped one by one through inference_step: what the closed form must equal.
double decode_steps(const ServingConfig& c, double batch, double prompt, double steps) {
  double t = 0;
  for (double j = 0; j < steps; ++j) t += step(c, InferencePhase::decode, batch, prompt + j).t_step;
  return t;
}

Inputs fixed(double prompt, double output, Inputs more = {}) {
  more["prompt_dist"] = Value::of("fixed");
  more["output_dist"] = Value::of("fixed");
  more["prompt"] = Value::of(prompt);
  more["output"] = Value::of(output);
  return more;
}

Error request_error(const Inputs& fields, double most = kMaxServingRequests) {
  Result<ServingConfig> c = serving_request(fields, most);
  if (!c.ok()) return c.error();
  Result<ServingResult> r = simulate_serving(c.value());
  REQUIRE_FALSE(r.ok());
  return r.error();
}

}  // namespace

TEST_CASE("serving: a decode step is a per-batch part plus a per-cached-token part", "[serving]") {
  const ServingConfig c = config({});
  Result<ServingCosts> costs = serving_costs(c.step, 8);
  REQUIRE(costs.ok());
  for (double b : {1.0, 3.0, 8.0}) {
    for (double context : {1.0, 700.0, 4096.0}) {
      CAPTURE(b, context);
      const double t = costs.value().decode_base[static_cast<std::size_t>(b)] +
                       costs.value().decode_slope * b * context;
      CHECK(t == Approx(step(c, InferencePhase::decode, b, context).t_step).epsilon(1e-12));
    }
  }
}

TEST_CASE("serving: one request alone waits for its prefill, then decodes at batch 1",
          "[serving]") {
  for (const char* mode : {"continuous", "static"}) {
    CAPTURE(mode);
    const ServingConfig c =
        config(fixed(512, 256, {{"requests", Value::of(1.0)}, {"mode", Value::of(mode)}}));
    const ServingResult r = run(c);
    // TTFT is the prefill of 512 tokens at batch 1.
    const double prefill = step(c, InferencePhase::prefill, 1, 512).t_step;
    CHECK(r.ttft.p50 == Approx(prefill).epsilon(1e-12));
    // 255 decode steps at contexts 512..766: base(1) 255 + slope (255 x 512 + 255 x 254 / 2).
    const double base = r.step_base_1, slope = r.step_slope;
    const double series = base * 255 + slope * (255 * 512 + 255 * 254 / 2.0);
    CHECK(series == Approx(decode_steps(c, 1, 512, 255)).epsilon(1e-12));
    CHECK(r.tpot.p50 == Approx(series / 255).epsilon(1e-12));
    CHECK(r.tpot.p99 == r.tpot.p50);
    CHECK(r.latency.mean == Approx(prefill + series).epsilon(1e-12));
    CHECK(r.finish[0] == Approx(r.arrival[0] + prefill + series).epsilon(1e-12));
    CHECK(r.output_tokens == 256);
  }
}

TEST_CASE("serving: a saturated queue serves full batches at slots over the batch time",
          "[serving]") {
  // Static batching, 8 slots, 1 + 4 x 8 requests arriving within microseconds: the first
  // request runs alone, then four full batches back to back.
  const ServingConfig c = config(fixed(128, 64,
                                       {{"requests", Value::of(33.0)},
                                        {"slots", Value::of(8.0)},
                                        {"mode", Value::of("static")},
                                        {"rate", Value::of(1e6)}}));
  const ServingResult r = run(c);
  auto batch = [&](double b) {
    return step(c, InferencePhase::prefill, b, 128).t_step + decode_steps(c, b, 128, 63);
  };
  const double full = batch(8);
  CHECK(r.duration == Approx(r.arrival[0] + batch(1) + 4 * full).epsilon(1e-9));
  CHECK(r.tokens_per_s == Approx(33 * 64 / r.duration).epsilon(1e-12));
  // Past the first request, 8 x 64 tokens every full batch.
  const double last = r.finish[32], before = r.finish[0];
  CHECK(last - before == Approx(4 * full).epsilon(1e-9));
  // The longest wait: the first of the last batch (requests 25..32), waiting since it came.
  CHECK(r.ttft.p99 == Approx(r.first_token[25] - r.arrival[25]).epsilon(1e-12));
}

TEST_CASE("serving: arrivals past the service rate grow the queue at their difference",
          "[serving]") {
  const Inputs base = fixed(128, 64, {{"slots", Value::of(8.0)}, {"mode", Value::of("static")}});
  const ServingConfig probe = config(base);
  const double full =
      step(probe, InferencePhase::prefill, 8, 128).t_step + decode_steps(probe, 8, 128, 63);
  const double service = 8 / full;  // requests/s
  Inputs fields = base;
  fields["rate"] = Value::of(2 * service);
  fields["requests"] = Value::of(20000.0);
  fields["samples"] = Value::of(100.0);
  const ServingResult r = run(config(fields));
  // Arrivals end near half the run; at 40% of it the queue holds (rate - service) t, here
  // (2 - 1) service t, give or take a batch and the arrivals' spread (sqrt of 8000: about 1%).
  // Checked at two times, so the growth is linear rather than one lucky point.
  for (std::size_t g : {std::size_t{20}, std::size_t{40}}) {
    const double t = r.series_time[g];
    CHECK(r.queue[g] == Approx((2 * service - service) * t).epsilon(0.03));
  }
  CHECK(r.tokens_per_s == Approx(service * 64).epsilon(0.01));
}

TEST_CASE("serving: a seed gives one run, another seed another", "[serving]") {
  const ServingConfig c = config({{"requests", Value::of(300.0)}});
  const ServingResult a = run(c), b = run(c);
  CHECK(a.arrival == b.arrival);
  CHECK(a.finish == b.finish);
  CHECK(a.queue == b.queue);
  CHECK(a.ttft.p90 == b.ttft.p90);
  ServingConfig other = c;
  other.seed = 2;
  const ServingResult d = run(other);
  CHECK(d.arrival != a.arrival);
  CHECK(d.prompt != a.prompt);
  CHECK(d.ttft.p50 != a.ttft.p50);
  // The draws of seed 1, pinned to the bit: the WASM engine must draw these same numbers
  // (the node test of the simulation compares them).
  CHECK(a.arrival[0] == 0.06504173274661997);
  CHECK(a.arrival[2] == 0.34928988541247874);
  CHECK(a.prompt[0] == 1002);
  CHECK(a.prompt[1] == 724);
  CHECK(a.output[0] == 328);
  CHECK(a.output[2] == 32);
}

TEST_CASE("serving: continuous batching answers a mixed load sooner than static batching",
          "[serving]") {
  // Uniform prompts and exponential outputs (the defaults) at 8 requests/s.
  Inputs fields{{"requests", Value::of(2000.0)}, {"rate", Value::of(8.0)}};
  fields["mode"] = Value::of("static");
  const ServingResult s = run(config(fields));
  fields["mode"] = Value::of("continuous");
  const ServingResult c = run(config(fields));
  CHECK(c.ttft.p50 < s.ttft.p50);
  CHECK(c.latency.p50 < s.latency.p50);
  CHECK(c.slot_utilization < 1);
}

TEST_CASE("serving: disaggregated, the cache travels from the prefill replica to a decoder",
          "[serving]") {
  // A 2x4 slice at tp 4 holds two replicas: one prefills, one decodes.
  const ServingConfig c = config(fixed(512, 64,
                                       {{"requests", Value::of(1.0)},
                                        {"shape", Value::of("2x4")},
                                        {"mode", Value::of("disaggregated")},
                                        {"kv_bandwidth", Value::of(1e9)}}));
  const ServingResult r = run(c);
  CHECK(r.replicas == 2);
  CHECK(r.prefill_replicas == 1);
  CHECK(r.chips == 8);
  const double prefill = step(c, InferencePhase::prefill, 1, 512).t_step;
  // llama-3-8b caches 2 x 32 layers x 8 heads x 128 x 2 B = 131,072 B a token.
  const double transfer = 512 * 131072 / 1e9;
  CHECK(r.ttft.p50 == Approx(prefill).epsilon(1e-12));
  CHECK(r.admitted[0] == Approx(r.first_token[0] + transfer).epsilon(1e-12));
  CHECK(r.finish[0] ==
        Approx(r.first_token[0] + transfer + decode_steps(c, 1, 512, 63)).epsilon(1e-12));
  // Under load a decoder never pauses for a prefill, so its TPOT stays the decode steps'.
  const ServingResult loaded = run(config(fixed(512, 64,
                                                {{"requests", Value::of(400.0)},
                                                 {"shape", Value::of("2x4")},
                                                 {"mode", Value::of("disaggregated")}})));
  const ServingResult mixed =
      run(config(fixed(512, 64, {{"requests", Value::of(400.0)}, {"shape", Value::of("2x4")}})));
  CHECK(loaded.tpot.p99 < mixed.tpot.p99);
}

TEST_CASE("serving: a request longer than HBM holds is a result that says so", "[serving]") {
  const ServingResult r = run(config(fixed(1e6, 1)));
  CHECK_FALSE(r.fits);
  // 1,000,001 tokens of 131,072 B; 16 GB x 4 chips less 16.06e9 B of weights hold 4.79e10 B.
  CHECK(r.reason ==
        "a request of up to 1000001 tokens needs 1.31072e11 B of KV cache a replica, but "
        "4.79395e10 B fit beside the weights");
  // 8192 + 8192 tokens: fewer slots than asked fit beside the weights.
  const ServingResult fewer =
      run(config(fixed(8192, 8192, {{"requests", Value::of(2.0)}, {"slots", Value::of(64.0)}})));
  CHECK(fewer.fits);
  CHECK(fewer.slots_by_memory);
  CHECK(fewer.slots < 64);
  CHECK(fewer.slots >= 1);
}

TEST_CASE("serving: bad input is refused naming its field", "[serving]") {
  using E = ErrorCode;
  auto bad = [](const char* field, Value v) { return request_error({{field, v}}); };
  check_error(bad("rate", Value::of(0.0)), E::invalid_argument, "rate",
              "rate must be a positive number of requests/s, got 0");
  check_error(bad("rate", Value::of(NAN)), E::invalid_argument, "rate",
              "rate must be a finite number, got nan");
  check_error(bad("rate", Value::of("fast")), E::invalid_argument, "rate",
              "rate must be a number, got \"fast\"");
  check_error(bad("slots", Value::of(2.5)), E::invalid_argument, "slots",
              "slots must be a whole number of sequences from 1 to 4096, got 2.5");
  check_error(bad("requests", Value::of(0.0)), E::invalid_argument, "requests",
              "requests must be a whole number of requests from 1 to 2000000, got 0");
  check_error(
      request_error({{"prompt_dist", Value::of("exponential")}, {"prompt", Value::of(-3.0)}}),
      E::invalid_argument, "prompt",
      "prompt must be a positive number of tokens up to 1000000, got -3");
  check_error(request_error(fixed(0.5, 8)), E::invalid_argument, "prompt",
              "prompt must be a whole number of tokens from 1 to 1000000, got 0.5");
  check_error(bad("output_min", Value::of(0.0)), E::invalid_argument, "output_min",
              "output_min must be a whole number of tokens from 1 to 1000000, got 0");
  check_error(bad("prompt_max", Value::of(100.0)), E::invalid_argument, "prompt_max",
              "prompt_max must be at least prompt_min = 128, got 100");
  check_error(bad("samples", Value::of(0.0)), E::invalid_argument, "samples",
              "samples must be a whole number of points from 1 to 10000, got 0");
  check_error(bad("kv_bandwidth", Value::of(-1.0)), E::invalid_argument, "kv_bandwidth",
              "kv_bandwidth must be 0 (instant) or a positive number of B/s, got -1");
  check_error(bad("seed", Value::of(1.5)), E::invalid_argument, "seed",
              "seed must be a whole number from 0 to 2^53, got 1.5");
  check_error(bad("mode", Value::of("eager")), E::invalid_argument, "mode",
              "mode must be one of static, continuous, disaggregated, got \"eager\"");
  check_error(bad("mode", Value::of("disaggregated")), E::invalid_argument, "shape",
              "disaggregated serving needs 2 or more replicas, one to prefill and one to "
              "decode; the slice holds 1");
  check_error(request_error({{"mode", Value::of("disaggregated")},
                             {"shape", Value::of("2x4")},
                             {"prefill_replicas", Value::of(2.0)}}),
              E::invalid_argument, "prefill_replicas",
              "prefill_replicas must be a whole number of replicas from 1 to 1, got 2");
  CHECK(bad("tp", Value::of(3.0)).field == "tp");
}

TEST_CASE("serving: more requests than the caller's budget are refused by name", "[serving]") {
  check_error(request_error({{"requests", Value::of(400001.0)}}, kMaxPageServingRequests),
              ErrorCode::out_of_range, "requests",
              "requests must be at most 400000 (the work budget here), got 400001");
  SimulationRequest q;
  q.fields["requests"] = Value::of(400001.0);
  q.fields["prompt_dist"] = Value::of("fixed");
  q.fields["output_dist"] = Value::of("fixed");
  q.fields["prompt"] = Value::of(16.0);
  q.fields["output"] = Value::of(4.0);
  Result<SimNode> page = simulate("serving", q);
  REQUIRE_FALSE(page.ok());
  CHECK(page.error().field == "requests");
  q.caller = SimCaller::command_line;
  CHECK(simulate("serving", q).ok());
  q.fields["requests"] = Value::of(2000001.0);
  Result<SimNode> shell = simulate("serving", q);
  REQUIRE_FALSE(shell.ok());
  CHECK(shell.error().message ==
        "requests must be at most 2000000 (the work budget here), got 2000001");
}

TEST_CASE("serving: the registry's result carries percentiles, series and a timeline",
          "[serving]") {
  SimulationRequest q;
  q.fields = {
      {"requests", Value::of(50.0)}, {"samples", Value::of(20.0)}, {"timeline", Value::of(10.0)}};
  Result<SimNode> r = simulate("serving", q);
  REQUIRE(r.ok());
  const SimNode& n = r.value();
  CHECK(n.find("mode")->text == "continuous");
  // The fields it ran with, defaults included, for a page's placeholders.
  const SimNode& inputs = *n.find("inputs");
  CHECK(inputs.fields.size() == serving_fields().size());
  CHECK(inputs.find("requests")->number == 50);
  CHECK(inputs.find("model")->text == "llama-3-8b");
  CHECK(inputs.find("slots")->number == ServingConfig{}.slots);
  CHECK(n.find("ttft")->find("p90")->kind == SimNode::Kind::number);
  CHECK(n.find("series")->find("queue")->numbers.size() == 20);
  CHECK(n.find("timeline")->find("finish")->numbers.size() == 10);
  // Every request's output tokens are in the series: their sum over the bins.
  const SimNode& series = *n.find("series");
  const std::vector<double>& rate = series.find("tokens_per_s")->numbers;
  const double bin = n.find("duration")->number / 20;
  double tokens = 0;
  for (double x : rate) tokens += x * bin;
  CHECK(tokens == Approx(n.find("output_tokens")->number).epsilon(1e-9));
}
