// The `pipeline` calculator: pipeline.h's simulation read from named inputs, with the
// schedule's closed forms beside the simulated figures, and pipeline_request for the
// simulations' bindings (the same inputs, checked the same way, plus the frame window).
#include <cmath>
#include <string>
#include <vector>

#include "scalebook/core/checks.h"
#include "scalebook/core/format.h"
#include "scalebook/training/pipeline.h"
#include "schedules.h"

namespace scalebook {
namespace {

double d(std::int64_t x) { return static_cast<double>(x); }
std::string n(double x) { return latex_number(x); }

InputSpec size_input(const char* name, const char* description, double fallback, double most,
                     const char* label) {
  return labelled({name, InputKind::count, "", description, Value::of(fallback), 1, false, most},
                  label);
}

InputSpec time_input(const char* name, const char* description, double fallback, bool zero_ok,
                     const char* label) {
  return labelled({name, InputKind::number, "", description, Value::of(fallback), 0, !zero_ok,
                   kMaxPipelineCost},
                  label, InputGroup::advanced);
}

Schema pipeline_schema() {
  Schema s{"pipeline",
           "a pipeline-parallel training step played schedule by schedule: step time, bubble "
           "fraction and activations held, beside the closed forms",
           {},
           {}};
  InputSpec schedule{"schedule", InputKind::choice, "",
                     "naive: the batch as one, one device at a time; gpipe: all forwards, then "
                     "all backwards; 1f1b: one forward, one backward; interleaved: 1f1b over v "
                     "chunks per device; zero-bubble: ZB-H1, the weight gradients deferred",
                     Value::of("1f1b")};
  schedule.choices = {"naive", "gpipe", "1f1b", "interleaved", "zero-bubble"};
  schedule = labelled(schedule, "Schedule", InputGroup::main,
                      {"Naive", "GPipe", "1F1B", "Interleaved 1F1B", "Zero bubble (ZB-H1)"});
  schedule.help =
      "Megatron-LM's interleaved schedule needs the microbatches a multiple of the "
      "stages.";
  s.inputs = {
      size_input("stages", "p: devices, each holding one stage (a slice of the layers)", 4,
                 d(kMaxPipelineStages), "Stages p"),
      size_input("microbatches", "m: microbatches the step's batch is split into", 8,
                 d(kMaxPipelineMicrobatches), "Microbatches m"),
      schedule,
      size_input("virtual_stages", "v: chunks of layers per device, interleaved only", 2,
                 d(kMaxPipelineVirtualStages), "Virtual stages v"),
      time_input("forward_cost", "F: one microbatch's forward through one stage, in time units", 1,
                 false, "Forward cost F"),
      time_input("backward_input_cost",
                 "I: one microbatch's input gradient through one stage, in time units", 1, false,
                 "Input-gradient cost I"),
      time_input("backward_weight_cost",
                 "W: one microbatch's weight gradient on one stage, in time units", 1, true,
                 "Weight-gradient cost W"),
      time_input("transfer_time",
                 "one microbatch's activations or gradients to the next stage, in time units", 0,
                 true, "Transfer time"),
  };
  s.inputs[1].help = "More microbatches shrink the bubble but hold more activations (gpipe).";
  s.outputs = {
      {"step_time", "", "the last work item's end, in the costs' time units", false, "Step time"},
      {"ideal_time", "", "one device's work with no idling: m (F + I + W)", false, "Ideal time"},
      {"bubble_time", "", "step time less the ideal time: each device's idle time on average",
       false, "Bubble time per device"},
      {"bubble_fraction", "", "idle device-time over p times the step time", false,
       "Bubble fraction"},
      {"closed_form_bubble", "", "the schedule's closed form with no transfer time", false,
       "Bubble fraction, closed form"},
      {"peak_activations", "",
       "the most microbatch activations a stage holds at once (stage 0's; a chunk's count 1/v)",
       false, "Peak activations"},
      {"closed_form_peak", "", "the schedule's closed form for stage 0's peak activations", false,
       "Peak activations, closed form"},
      {"items", "",
       "work items simulated: p m v forwards and as many backwards (zero-bubble: "
       "and weight gradients)",
       false, "Work items"},
  };
  s.tables = {{"stages",
               "each device's busy and idle time and the activations it holds at most",
               {{"stage", "", "device, 0 the first", false, "Stage"},
                {"busy", "", "time working", false, "Busy time"},
                {"idle", "", "step time less busy time", false, "Idle time"},
                {"peak_activations", "", "microbatch activations held at once", false,
                 "Peak activations"}}}};
  return s;
}

// The names pipeline_request takes besides the schema's inputs.
const char* const kFrameFields[] = {"first_frame", "max_frames", "max_items"};

PipelineRequest request_of(const ResolvedInputs& in) {
  auto count = [&](const char* name) { return static_cast<std::int64_t>(in.number(name)); };
  PipelineRequest q;
  q.stages = count("stages");
  q.microbatches = count("microbatches");
  q.schedule = parse_pipeline_schedule(in.text("schedule")).value_or(q.schedule);
  q.virtual_stages = count("virtual_stages");
  q.forward_cost = in.number("forward_cost");
  q.backward_input_cost = in.number("backward_input_cost");
  q.backward_weight_cost = in.number("backward_weight_cost");
  q.transfer_time = in.number("transfer_time");
  return q;
}

std::string bubble_latex(const PipelineRequest& q, double value) {
  double p = d(q.stages), m = d(q.microbatches), v = d(q.virtual_stages);
  double f = q.forward_cost, b = q.backward_input_cost, w = q.backward_weight_cost;
  switch (q.schedule) {
    case PipelineSchedule::naive:
      return "\\frac{p - 1}{p} = \\frac{" + n(p - 1) + "}{" + n(p) + "} = " + n(value);
    case PipelineSchedule::gpipe:
    case PipelineSchedule::one_f_one_b:
      return "\\frac{p - 1}{m + p - 1} = \\frac{" + n(p - 1) + "}{" + n(m + p - 1) +
             "} = " + n(value);
    case PipelineSchedule::interleaved:
      return "\\frac{p - 1}{v m + p - 1} = \\frac{" + n(p - 1) + "}{" + n(v * m + p - 1) +
             "} = " + n(value);
    case PipelineSchedule::zero_bubble:
      if (std::isnan(value)) {
        return "\\text{ZB-H1's } (p - 1)(F + I - W) \\text{ holds for } W \\le F, W \\le I, m "
               "\\ge p";
      }
      return "\\frac{(p - 1)(F + I - W)}{m (F + I + W) + (p - 1)(F + I - W)} = \\frac{" +
             n((p - 1) * (f + b - w)) + "}{" + n(m * (f + b + w)) + " + " +
             n((p - 1) * (f + b - w)) + "} = " + n(value);
  }
  return n(value);
}

std::string peak_latex(const PipelineRequest& q, double value) {
  double p = d(q.stages), m = d(q.microbatches), v = d(q.virtual_stages);
  switch (q.schedule) {
    case PipelineSchedule::naive:
    case PipelineSchedule::gpipe:
      return "m = " + n(value);
    case PipelineSchedule::one_f_one_b:
    case PipelineSchedule::zero_bubble:
      return "\\min(p, m) = \\min(" + n(p) + ", " + n(m) + ") = " + n(value);
    case PipelineSchedule::interleaved:
      if (q.virtual_stages == 1) break;
      return "\\frac{\\min(2 (p - 1) + (v - 1) p + 1, v m)}{v} = \\frac{\\min(" +
             n(2 * (p - 1) + (v - 1) * p + 1) + ", " + n(v * m) + ")}{" + n(v) + "} = " + n(value);
  }
  return "\\min(p, m) = " + n(value);
}

void explain(const PipelineRequest& q, const PipelineResult& r, const PipelineClosedForm& c,
             double items, ResultBuilder& out) {
  std::string name = to_string(q.schedule);
  double p = d(q.stages), v = d(pipeline_schedules::chunks_of(q));
  double idle = r.bubble_fraction * p * r.step_time;
  std::string no_transfer = q.transfer_time > 0 ? ", with no transfer time" : "";
  double kinds = items / (p * d(q.microbatches) * v);
  out.steps({
      {"Work per device",
       "m (F + I + W) = " + n(d(q.microbatches)) + " \\cdot (" + n(q.forward_cost) + " + " +
           n(q.backward_input_cost) + " + " + n(q.backward_weight_cost) + ") = " + n(r.ideal_time),
       r.ideal_time,
       "",
       "ideal_time",
       {}},
      {"Step time, simulated (" + name + ")",
       "T = " + n(r.step_time),
       r.step_time,
       "",
       "step_time",
       {}},
      {"Bubble time per device",
       "T - m (F + I + W) = " + n(r.step_time) + " - " + n(r.ideal_time) + " = " +
           n(r.step_time - r.ideal_time),
       r.step_time - r.ideal_time,
       "",
       "bubble_time",
       {"step_time", "ideal_time"}},
      {"Bubble fraction, simulated",
       "\\frac{\\text{idle}}{p T} = \\frac{" + n(idle) + "}{" + n(p) + " \\cdot " + n(r.step_time) +
           "} = " + n(r.bubble_fraction),
       r.bubble_fraction,
       "",
       "bubble_fraction",
       {"step_time"}},
      {"Bubble fraction, closed form (" + name + no_transfer + ")",
       bubble_latex(q, c.bubble_fraction),
       std::isnan(c.bubble_fraction) ? 0 : c.bubble_fraction,
       "",
       "closed_form_bubble",
       {}},
      {"Peak activations on a stage, simulated",
       "\\max_s A_s = " + n(r.peak_activations),
       r.peak_activations,
       "",
       "peak_activations",
       {}},
      {"Peak activations on stage 0, closed form (" + name + ")",
       peak_latex(q, c.peak_activations),
       c.peak_activations,
       "",
       "closed_form_peak",
       {}},
      {"Work items",
       "p m v \\cdot " + n(kinds) + " = " + n(p) + " \\cdot " + n(d(q.microbatches)) + " \\cdot " +
           n(v) + " \\cdot " + n(kinds) + " = " + n(items),
       items,
       "",
       "items",
       {}},
  });
}

// Every device's figures: a table with or without steps, as the contract wants tables (a
// prepared calculation, which drops tables unread, builds none).
Table stages_table(const PipelineResult& r) {
  Table table{{"stage", "busy", "idle", "peak_activations"}, {}};
  for (std::size_t s = 0; s < r.stages.size(); ++s) {
    const PipelineStage& st = r.stages[s];
    table.rows.push_back({Value::of(static_cast<double>(s)), Value::of(st.busy), Value::of(st.idle),
                          Value::of(st.peak_activations)});
  }
  return table;
}

std::optional<Error> compute_pipeline(const ResolvedInputs& in, ResultBuilder& out) {
  PipelineRequest q = request_of(in);
  Result<PipelineResult> result = simulate_pipeline(q);
  if (!result.ok()) return result.error();
  const PipelineResult& r = result.value();
  const PipelineClosedForm& c = r.closed_form;
  double items = pipeline_schedules::item_count(q);
  if (out.explain()) explain(q, r, c, items, out);
  out.set({
      {"step_time", Value::of(r.step_time)},
      {"ideal_time", Value::of(r.ideal_time)},
      {"bubble_time", Value::of(r.step_time - r.ideal_time)},
      {"bubble_fraction", Value::of(r.bubble_fraction)},
      {"closed_form_bubble",
       std::isnan(c.bubble_fraction)
           ? Value::absent("no closed form: ZB-H1's holds for W <= F, W <= I and m >= p")
           : Value::of(c.bubble_fraction)},
      {"peak_activations", Value::of(r.peak_activations)},
      {"closed_form_peak", Value::of(c.peak_activations)},
      {"items", Value::of(items)},
  });
  if (out.tables()) out.table("stages", stages_table(r));
  return std::nullopt;
}

// The frame window's fields, checked as whole numbers from 0.
InputSpec frame_spec(const char* name) {
  return {name, InputKind::count, "", "", Value::of(0.0), 0, false, 1e15};
}

}  // namespace

Calculator pipeline_calculator() { return {pipeline_schema(), compute_pipeline}; }

Result<PipelineRequest> pipeline_request(const Inputs& fields, std::int64_t most_items) {
  const Schema schema = pipeline_schema();
  std::vector<std::string> names;
  for (const InputSpec& spec : schema.inputs) names.push_back(spec.name);
  for (const char* name : kFrameFields) names.push_back(name);
  for (const auto& [key, value] : fields) {
    bool known = false;
    for (const std::string& name : names) known = known || key == name;
    if (!known) {
      return Error{ErrorCode::invalid_argument, key,
                   "pipeline has no input \"" + key + "\"; its inputs are " + join(names)};
    }
  }
  ResolvedInputs in(&schema, false);
  for (const InputSpec& spec : schema.inputs) {
    auto it = fields.find(spec.name);
    bool given = it != fields.end() && !it->second.is_none();
    Result<Value> v = check_input(spec, given ? it->second : spec.default_value);
    if (!v.ok()) return v.error();
    in.set(spec.name, v.value());
  }
  PipelineRequest q = request_of(in);
  q.max_items = most_items;
  for (const char* name : kFrameFields) {
    auto it = fields.find(name);
    if (it == fields.end() || it->second.is_none()) continue;
    const std::string field = name;
    InputSpec spec = frame_spec(name);
    // A caller may lower the budget, never raise it past `most_items`.
    if (field == "max_items") spec.min = 1, spec.max = static_cast<double>(most_items);
    Result<Value> v = check_input(spec, it->second);
    if (!v.ok()) return v.error();
    (field == "first_frame"  ? q.first_frame
     : field == "max_frames" ? q.max_frames
                             : q.max_items) = static_cast<std::int64_t>(v.value().number);
  }
  return q;
}

}  // namespace scalebook
