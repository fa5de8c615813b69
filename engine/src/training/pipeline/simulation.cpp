// The pipeline schedule's simulation in the simulation registry: its request is the pipeline
// calculator's inputs plus the frame window and max_items (pipeline_request checks them); a
// page runs at most kMaxPagePipelineItems items, the command line kMaxPipelineItems. Items and
// frames go out as flat number arrays (an item's kind as WorkKind's index).
#include "scalebook/core/simulation.h"

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "scalebook/training/pipeline.h"

namespace scalebook {
namespace {

SimNode items_node(const std::vector<PipelineItem>& items) {
  const size_t n = items.size();
  std::vector<double> stage(n), microbatch(n), chunk(n), kind(n), start(n), end(n);
  for (size_t i = 0; i < n; ++i) {
    const PipelineItem& it = items[i];
    stage[i] = it.stage, microbatch[i] = it.microbatch, chunk[i] = it.chunk;
    kind[i] = static_cast<double>(it.kind), start[i] = it.start, end[i] = it.end;
  }
  SimNode out = SimNode::object();
  out.set("stage", SimNode::of(std::move(stage)))
      .set("microbatch", SimNode::of(std::move(microbatch)))
      .set("chunk", SimNode::of(std::move(chunk)))
      .set("kind", SimNode::of(std::move(kind)))
      .set("start", SimNode::of(std::move(start)))
      .set("end", SimNode::of(std::move(end)));
  return out;
}

Result<SimNode> run(const SimulationRequest& request, double most_items) {
  auto q = pipeline_request(request.fields, static_cast<std::int64_t>(most_items));
  if (!q.ok()) return q.error();
  auto result = simulate_pipeline(q.value());
  if (!result.ok()) return result.error();
  const PipelineResult& r = result.value();
  SimNode frames = SimNode::list();
  for (const PipelineFrame& f : r.frames) {
    SimNode j = SimNode::object();
    j.set("time", SimNode::of(f.time))
        .set("duration", SimNode::of(f.duration))
        .set("running", SimNode::of(std::vector<double>(f.running.begin(), f.running.end())))
        .set("activations", SimNode::of(f.activations));
    frames.push(std::move(j));
  }
  SimNode stages = SimNode::list();
  for (const PipelineStage& st : r.stages) {
    SimNode j = SimNode::object();
    j.set("busy", SimNode::of(st.busy))
        .set("idle", SimNode::of(st.idle))
        .set("peak_activations", SimNode::of(st.peak_activations));
    stages.push(std::move(j));
  }
  const PipelineClosedForm& c = r.closed_form;
  SimNode out = SimNode::object();
  out.set("schedule", SimNode::of(std::string(to_string(q.value().schedule))))
      .set("items", items_node(r.items))
      .set("stages", std::move(stages))
      .set("step_time", SimNode::of(r.step_time))
      .set("ideal_time", SimNode::of(r.ideal_time))
      .set("bubble_fraction", SimNode::of(r.bubble_fraction))
      .set("peak_activations", SimNode::of(r.peak_activations))
      .set("closed_form_bubble",
           std::isnan(c.bubble_fraction) ? SimNode() : SimNode::of(c.bubble_fraction))
      .set("closed_form_peak", SimNode::of(c.peak_activations))
      .set("frame_count", SimNode::of(static_cast<double>(r.frame_count)))
      .set("frames", std::move(frames))
      .set("frames_truncated", SimNode::of_flag(r.frames_truncated));
  return out;
}

Simulation pipeline_simulation() {
  Simulation s;
  s.name = "pipeline";
  s.subject = "pipeline";
  s.field_word = "input";
  const Schema schema = schema_of("pipeline").value();
  for (const InputSpec& spec : schema.inputs) s.fields.push_back(spec.name);
  for (const char* extra : {"first_frame", "max_frames", "max_items"}) s.fields.emplace_back(extra);
  s.budget_field = "max_items";
  s.page_budget = static_cast<double>(kMaxPagePipelineItems);
  s.budget = static_cast<double>(kMaxPipelineItems);
  s.run = run;
  return s;
}

const SimulationRegistration registered{pipeline_simulation};

}  // namespace
}  // namespace scalebook
