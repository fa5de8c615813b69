// Embind marshalling of the pipeline schedule's simulation (one file per domain, as systolic.cpp).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "marshal.h"
#include "scalebook/training/pipeline.h"

namespace {

using namespace scalebook::wasm;

// simulatePipeline: the fields go to the engine as named values (pipeline_request checks them
// by the pipeline calculator's schema, under a page's item budget); items and frames go back
// as flat typed arrays, which engine.mjs shapes into objects.
val simulate_pipeline(const val& request) {
  scalebook::Inputs fields;
  val keys = val::global("Object").call<val>("keys", request);
  for (unsigned i = 0, n = keys["length"].as<unsigned>(); i < n; ++i) {
    std::string key = keys[i].as<std::string>();
    val v = request[key];
    if (!v.isNull() && !v.isUndefined()) fields[key] = inputs_value(v);
  }
  auto q = scalebook::pipeline_request(fields, scalebook::kMaxPagePipelineItems);
  if (!q.ok()) return error_to_js(q.error());
  auto result = scalebook::simulate_pipeline(q.value());
  if (!result.ok()) return error_to_js(result.error());
  const scalebook::PipelineResult& r = result.value();
  const size_t n = r.items.size();
  std::vector<double> stage(n), microbatch(n), chunk(n), kind(n), start(n), end(n);
  for (size_t i = 0; i < n; ++i) {
    const scalebook::PipelineItem& it = r.items[i];
    stage[i] = it.stage, microbatch[i] = it.microbatch, chunk[i] = it.chunk;
    kind[i] = static_cast<double>(it.kind), start[i] = it.start, end[i] = it.end;
  }
  val items = val::object();
  items.set("stage", doubles_to_js(stage));
  items.set("microbatch", doubles_to_js(microbatch));
  items.set("chunk", doubles_to_js(chunk));
  items.set("kind", doubles_to_js(kind));
  items.set("start", doubles_to_js(start));
  items.set("end", doubles_to_js(end));
  val frames = val::array();
  for (const scalebook::PipelineFrame& f : r.frames) {
    std::vector<double> running(f.running.begin(), f.running.end());
    val j = val::object();
    j.set("time", f.time);
    j.set("duration", f.duration);
    j.set("running", doubles_to_js(running));
    j.set("activations", doubles_to_js(f.activations));
    frames.call<void>("push", j);
  }
  val stages = val::array();
  for (const scalebook::PipelineStage& st : r.stages) {
    val j = val::object();
    j.set("busy", st.busy);
    j.set("idle", st.idle);
    j.set("peak_activations", st.peak_activations);
    stages.call<void>("push", j);
  }
  const scalebook::PipelineClosedForm& c = r.closed_form;
  val out = val::object();
  out.set("schedule", std::string(scalebook::to_string(q.value().schedule)));
  out.set("items", items);
  out.set("stages", stages);
  out.set("step_time", r.step_time);
  out.set("ideal_time", r.ideal_time);
  out.set("bubble_fraction", r.bubble_fraction);
  out.set("peak_activations", r.peak_activations);
  out.set("closed_form_bubble",
          std::isnan(c.bubble_fraction) ? val::null() : val(c.bubble_fraction));
  out.set("closed_form_peak", c.peak_activations);
  out.set("frame_count", static_cast<double>(r.frame_count));
  out.set("frames", frames);
  out.set("frames_truncated", r.frames_truncated);
  return ok_with("simulation", out);
}

}  // namespace

EMSCRIPTEN_BINDINGS(scalebook_training) {
  emscripten::function("simulatePipeline", &simulate_pipeline);
}
