#include "simulate_cmd.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "scalebook/core/format.h"
#include "scalebook/training/pipeline.h"

namespace scalebook::cli {
namespace {

// The widest Gantt grid the text output draws, in cells.
constexpr double kMaxGridCells = 120;

Json pipeline_json(const PipelineResult& r, const PipelineRequest& q) {
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
  Json closed = std::isnan(r.closed_form.bubble_fraction) ? Json(nullptr)
                                                          : Json(r.closed_form.bubble_fraction);
  return {{"schedule", to_string(q.schedule)},
          {"step_time", r.step_time},
          {"ideal_time", r.ideal_time},
          {"bubble_fraction", r.bubble_fraction},
          {"closed_form_bubble", closed},
          {"peak_activations", r.peak_activations},
          {"closed_form_peak", r.closed_form.peak_activations},
          {"stages", stages},
          {"items", items}};
}

// The grid's cell: the shortest item, when every start and end is a whole number of them.
double grid_cell(const PipelineResult& r) {
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
std::string gantt(const PipelineResult& r, std::int64_t stages) {
  double cell = grid_cell(r);
  if (cell == 0) return "(no grid: the times do not fall on a grid of at most 120 cells)\n";
  auto cells = static_cast<std::size_t>(std::llround(r.step_time / cell));
  std::vector<std::string> rows(static_cast<std::size_t>(stages), std::string(2 * cells, '.'));
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

std::string pipeline_text(const PipelineResult& r, const PipelineRequest& q) {
  auto line = [](const std::string& name, double value) {
    return name + std::string(name.size() < 20 ? 20 - name.size() : 1, ' ') +
           (std::isnan(value) ? "none" : format_number(value)) + "\n";
  };
  std::string out = "schedule            " + std::string(to_string(q.schedule)) + "\n";
  out += line("step_time", r.step_time) + line("ideal_time", r.ideal_time) +
         line("bubble_fraction", r.bubble_fraction) +
         line("closed_form_bubble", r.closed_form.bubble_fraction) +
         line("peak_activations", r.peak_activations) +
         line("closed_form_peak", r.closed_form.peak_activations) +
         line("items", static_cast<double>(r.items.size()));
  if (r.items.size() <= 4096) out += gantt(r, q.stages);
  return out;
}

int pipeline(const Options& opt) {
  Result<Inputs> inputs = read_assignments(opt, 2);
  if (!inputs.ok()) return fail(opt, inputs.error());
  Result<PipelineRequest> q = pipeline_request(inputs.value());
  if (!q.ok()) return fail(opt, q.error());
  Result<PipelineResult> r = simulate_pipeline(q.value());
  if (!r.ok()) return fail(opt, r.error());
  print(opt, pipeline_json(r.value(), q.value()), pipeline_text(r.value(), q.value()));
  return 0;
}

}  // namespace

int simulate_command(const Options& opt) {
  if (opt.words.size() < 2 || opt.words[1] != "pipeline") {
    std::string got = opt.words.size() < 2 ? "nothing" : "\"" + opt.words[1] + "\"";
    return fail(opt, Error{ErrorCode::invalid_argument, "simulation",
                           "simulate takes a simulation: pipeline, got " + got});
  }
  return pipeline(opt);
}

}  // namespace scalebook::cli
