#include "simulate_cmd.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "scalebook/core/format.h"
#include "scalebook/core/simulation.h"
#include "scalebook/training/pipeline.h"
#include "serving_out.h"

namespace scalebook::cli {
namespace {

// The widest Gantt grid the text output draws, in cells.
constexpr double kMaxGridCells = 120;

// The pipeline's result as the command line shows it, read off the registry's tree: items as
// objects with their kind's letter, and no frames (a terminal does not play them).
struct PipelineView {
  std::string schedule;
  std::vector<PipelineItem> items;
  std::vector<PipelineStage> stages;
  double step_time = 0, ideal_time = 0, bubble_fraction = 0, closed_form_bubble = NAN,
         peak_activations = 0, closed_form_peak = 0;
};

double number_at(const SimNode& node, const char* key) {
  const SimNode* n = node.find(key);
  return n && n->kind == SimNode::Kind::number ? n->number : NAN;
}

PipelineView pipeline_view(const SimNode& r) {
  PipelineView v;
  v.schedule = r.find("schedule")->text;
  const SimNode& items = *r.find("items");
  const std::vector<double>& stage = items.find("stage")->numbers;
  for (std::size_t i = 0; i < stage.size(); ++i) {
    PipelineItem it;
    it.stage = static_cast<std::int32_t>(stage[i]);
    it.microbatch = static_cast<std::int32_t>(items.find("microbatch")->numbers[i]);
    it.chunk = static_cast<std::int32_t>(items.find("chunk")->numbers[i]);
    it.kind = static_cast<WorkKind>(items.find("kind")->numbers[i]);
    it.start = items.find("start")->numbers[i];
    it.end = items.find("end")->numbers[i];
    v.items.push_back(it);
  }
  for (const SimNode& s : r.find("stages")->items) {
    v.stages.push_back(
        {number_at(s, "busy"), number_at(s, "idle"), number_at(s, "peak_activations")});
  }
  v.step_time = number_at(r, "step_time");
  v.ideal_time = number_at(r, "ideal_time");
  v.bubble_fraction = number_at(r, "bubble_fraction");
  v.closed_form_bubble = number_at(r, "closed_form_bubble");
  v.peak_activations = number_at(r, "peak_activations");
  v.closed_form_peak = number_at(r, "closed_form_peak");
  return v;
}

Json pipeline_json(const PipelineView& r) {
  Json items = Json::array();
  for (const PipelineItem& it : r.items) {
    items.push_back({{"stage", it.stage},
                     {"microbatch", it.microbatch},
                     {"chunk", it.chunk},
                     {"kind", to_string(it.kind)},
                     {"start", it.start},
                     {"end", it.end}});
  }
  Json stages = Json::array();
  for (const PipelineStage& s : r.stages) {
    stages.push_back(
        {{"busy", s.busy}, {"idle", s.idle}, {"peak_activations", s.peak_activations}});
  }
  Json closed = std::isnan(r.closed_form_bubble) ? Json(nullptr) : Json(r.closed_form_bubble);
  return {{"schedule", r.schedule},
          {"step_time", r.step_time},
          {"ideal_time", r.ideal_time},
          {"bubble_fraction", r.bubble_fraction},
          {"closed_form_bubble", closed},
          {"peak_activations", r.peak_activations},
          {"closed_form_peak", r.closed_form_peak},
          {"stages", stages},
          {"items", items}};
}

// The grid's cell: the shortest item, when every start and end is a whole number of them.
double grid_cell(const PipelineView& r) {
  double cell = r.step_time;
  for (const PipelineItem& it : r.items) {
    if (it.end > it.start) cell = std::min(cell, it.end - it.start);
  }
  if (!(cell > 0) || r.step_time / cell > kMaxGridCells) return 0;
  for (const PipelineItem& it : r.items) {
    for (double t : {it.start, it.end}) {
      if (std::fabs(t / cell - std::round(t / cell)) > 1e-9) return 0;
    }
  }
  return cell;
}

// One row per stage, two characters a cell: the kind and the microbatch's last digit (an
// interleaved chunk's forward in lower case after the first), ".." idle.
std::string gantt(const PipelineView& r) {
  double cell = grid_cell(r);
  if (cell == 0) return "(no grid: the times do not fall on a grid of at most 120 cells)\n";
  auto cells = static_cast<std::size_t>(std::llround(r.step_time / cell));
  std::vector<std::string> rows(r.stages.size(), std::string(2 * cells, '.'));
  for (const PipelineItem& it : r.items) {
    char kind = to_string(it.kind)[0];
    if (it.chunk > 0) kind = static_cast<char>(kind - 'A' + 'a');
    char digit = static_cast<char>('0' + it.microbatch % 10);
    auto from = static_cast<std::size_t>(std::llround(it.start / cell));
    auto to = static_cast<std::size_t>(std::llround(it.end / cell));
    for (std::size_t c = from; c < to; ++c) {
      rows[static_cast<std::size_t>(it.stage)][2 * c] = kind;
      rows[static_cast<std::size_t>(it.stage)][2 * c + 1] = digit;
    }
  }
  std::string out = "a cell is " + format_number(cell) +
                    (cell == 1 ? " time unit" : " time units") +
                    "; F forward, B backward, I and W its input and weight gradients, then the "
                    "microbatch's last digit; lower case: a later virtual chunk\n";
  for (std::size_t s = 0; s < rows.size(); ++s) {
    out += "stage " + std::to_string(s) +
           std::string(s < 10    ? 2
                       : s < 100 ? 1
                                 : 0,
                       ' ') +
           " " + rows[s] + "\n";
  }
  return out;
}

std::string pipeline_text(const PipelineView& r) {
  auto line = [](const std::string& name, double value) {
    return name + std::string(name.size() < 20 ? 20 - name.size() : 1, ' ') +
           (std::isnan(value) ? "none" : format_number(value)) + "\n";
  };
  std::string out = "schedule            " + r.schedule + "\n";
  out += line("step_time", r.step_time) + line("ideal_time", r.ideal_time) +
         line("bubble_fraction", r.bubble_fraction) +
         line("closed_form_bubble", r.closed_form_bubble) +
         line("peak_activations", r.peak_activations) +
         line("closed_form_peak", r.closed_form_peak) +
         line("items", static_cast<double>(r.items.size()));
  if (r.items.size() <= 4096) out += gantt(r);
  return out;
}

// The switched collective, a line a step: its phase, duration, the level that sets it, and what
// one GPU sends at each level.
std::string gpu_collective_text(const SimNode& r) {
  auto text = [&](const char* key) { return r.find(key)->text; };
  auto si = [](double x, const char* unit) { return format_value(x, unit, "si"); };
  std::vector<std::string> levels;
  for (const SimNode& l : r.find("levels")->items) levels.push_back(l.find("name")->text);
  std::string out = text("op") + " (" + text("algorithm") + ") over " +
                    format_number(number_at(r, "gpus")) + " " + text("chip") + " GPUs on " +
                    text("fabric") + "\n";
  out += "time " + si(number_at(r, "time"), "s") + " in " +
         std::to_string(r.find("steps")->items.size()) + " steps; the collective calculator's " +
         si(number_at(r, "closed_form"), "s") + "\n";
  std::size_t k = 0;
  for (const SimNode& step : r.find("steps")->items) {
    const double binding = number_at(step, "binding");
    out += "step " + std::to_string(++k) + "  " + step.find("phase")->text + "  " +
           si(number_at(step, "duration"), "s") + "  set by " +
           (binding < 0 ? std::string("the latency") : levels[static_cast<std::size_t>(binding)]);
    const std::vector<double>& bytes = step.find("level_bytes")->numbers;
    for (std::size_t i = 0; i < bytes.size() && i < levels.size(); ++i)
      if (bytes[i] > 0) out += "  " + levels[i] + " " + si(bytes[i], "B");
    out += "\n";
  }
  return out;
}

// The simulations the command line offers: a registry name and how its result prints (serving:
// a summary and its percentiles, or the whole tree as JSON). The systolic array and the collectives
// return frames for a page to draw, and have no text yet.
struct Presenter {
  const char* name;
  void (*show)(const Options& opt, const SimNode& result);
};

const Presenter kPresenters[] = {
    {"gpu-collective",
     [](const Options& opt, const SimNode& result) {
       print(opt, sim_json(result), gpu_collective_text(result));
     }},
    {"pipeline",
     [](const Options& opt, const SimNode& result) {
       PipelineView v = pipeline_view(result);
       print(opt, pipeline_json(v), pipeline_text(v));
     }},
    {"serving", [](const Options& opt,
                   const SimNode& result) { print(opt, sim_json(result), serving_text(result)); }},
};

}  // namespace

int simulate_command(const Options& opt) {
  std::string name = opt.words.size() < 2 ? "" : opt.words[1];
  const Presenter* presenter = nullptr;
  std::string names;
  for (const Presenter& p : kPresenters) {
    if (!find_simulation(p.name).ok()) continue;
    names += (names.empty() ? "" : ", ") + std::string(p.name);
    if (name == p.name) presenter = &p;
  }
  if (!presenter) {
    std::string got = opt.words.size() < 2 ? "nothing" : "\"" + name + "\"";
    return fail(opt, Error{ErrorCode::invalid_argument, "simulation",
                           "simulate takes a simulation: " + names + ", got " + got});
  }
  Result<Inputs> inputs = read_assignments(opt, 2);
  if (!inputs.ok()) return fail(opt, inputs.error());
  SimulationRequest request;
  request.fields = inputs.value();
  // --seed N is the same as seed=N, for the simulations that draw at random.
  if (opt.seed) {
    if (request.fields.count("seed"))
      return fail(opt, Error{ErrorCode::invalid_argument, "seed", "seed is given twice"});
    request.fields["seed"] = Value::of(*opt.seed);
  }
  request.caller = SimCaller::command_line;
  Result<SimNode> r = simulate(name, request);
  if (!r.ok()) return fail(opt, r.error());
  presenter->show(opt, r.value());
  return 0;
}

}  // namespace scalebook::cli
