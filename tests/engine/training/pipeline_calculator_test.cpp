// The pipeline calculator (src/training/pipeline/calculator.cpp): its outputs and steps beside the
// simulation's, its input errors, and pipeline_request, which the bindings read inputs with.
#include <cmath>
#include <cstdint>

#include "helpers.h"
#include "scalebook/training/pipeline.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

Calculation pipeline(const Inputs& inputs) { return run("pipeline", inputs); }

}  // namespace

TEST_CASE("the pipeline calculator gives the closed forms beside the simulation",
          "[pipeline][calculator]") {
  Calculation c = pipeline({});  // 4 stages, 8 microbatches, 1f1b, unit costs
  CHECK(output(c, "step_time") == 33);
  CHECK(output(c, "ideal_time") == 24);
  CHECK(output(c, "bubble_time") == 9);
  CHECK(output(c, "bubble_fraction") == Approx(3.0 / 11));
  CHECK(output(c, "closed_form_bubble") == Approx(3.0 / 11));
  CHECK(output(c, "peak_activations") == 4);
  CHECK(output(c, "closed_form_peak") == 4);
  CHECK(output(c, "items") == 64);
  REQUIRE(c.tables.size() == 1);
  CHECK(c.tables[0].first == "stages");
  REQUIRE(c.tables[0].second.rows.size() == 4);
  CHECK(c.tables[0].second.rows[3][3].number == 1);  // the last stage holds one microbatch
  bool closed_form_step = false;
  for (const Step& s : c.steps) {
    if (s.output != "closed_form_bubble") continue;
    closed_form_step = true;
    CHECK(s.label == "Bubble fraction, closed form (1f1b)");
    CHECK(s.latex == "\\frac{p - 1}{m + p - 1} = \\frac{3}{11} = 0.2727");
  }
  CHECK(closed_form_step);

  Calculation z = pipeline({{"schedule", Value::of("zero-bubble")},
                            {"stages", Value::of(8.0)},
                            {"microbatches", Value::of("16")}});
  CHECK(output(z, "bubble_time") == 7);  // (p - 1)(F + I - W)
  CHECK(output(z, "items") == 384);
  Calculation i =
      pipeline({{"schedule", Value::of("interleaved")}, {"virtual_stages", Value::of(4.0)}});
  CHECK(output(i, "bubble_fraction") == Approx(3.0 / 35));
  CHECK(output(i, "peak_activations") == Approx(19.0 / 4));  // 2 (p - 1) + (v - 1) p + 1 chunks
  // No closed form for zero-bubble with W > F: none, not a number.
  Calculation w =
      pipeline({{"schedule", Value::of("zero-bubble")}, {"backward_weight_cost", Value::of(2.0)}});
  CHECK(output_value(w, "closed_form_bubble").is_none());
}

TEST_CASE("bad pipeline calculator inputs name the field", "[pipeline][errors]") {
  check_error(run_error("pipeline", {{"stages", Value::of(0.0)}}), ErrorCode::out_of_range,
              "stages", "stages must be >= 1, got 0");
  check_error(run_error("pipeline", {{"stages", Value::of(2.5)}}), ErrorCode::invalid_argument,
              "stages", "stages must be a whole number, got 2.5");
  check_error(run_error("pipeline", {{"stages", Value::of(-3.0)}}), ErrorCode::out_of_range,
              "stages", "stages must be >= 1, got -3");
  check_error(run_error("pipeline", {{"microbatches", Value::of(std::nan(""))}}),
              ErrorCode::invalid_argument, "microbatches",
              "microbatches must be a finite number, got nan");
  check_error(run_error("pipeline", {{"microbatches", Value::of("1e999")}}),
              ErrorCode::out_of_range, "microbatches",
              "microbatches is too large: numbers stop near 1.8e308");
  check_error(run_error("pipeline", {{"stages", Value::of(1e10)}}), ErrorCode::out_of_range,
              "stages", "stages must be <= 1024, got 1e10");
  check_error(run_error("pipeline", {{"schedule", Value::of("dualpipe")}}),
              ErrorCode::invalid_argument, "schedule",
              "schedule must be one of naive, gpipe, 1f1b, interleaved, zero-bubble, got "
              "\"dualpipe\"");
  check_error(run_error("pipeline", {{"forward_cost", Value::of(0.0)}}), ErrorCode::out_of_range,
              "forward_cost", "forward_cost must be > 0, got 0");
  check_error(run_error("pipeline", {{"transfer_time", Value::of(-1.0)}}), ErrorCode::out_of_range,
              "transfer_time", "transfer_time must be >= 0, got -1");
  check_error(run_error("pipeline",
                        {{"schedule", Value::of("interleaved")}, {"microbatches", Value::of(6.0)}}),
              ErrorCode::invalid_argument, "microbatches",
              "microbatches must be a multiple of stages (4) for the interleaved schedule, got 6");
  check_error(
      run_error("pipeline", {{"stages", Value::of(1024.0)}, {"microbatches", Value::of(1024.0)}}),
      ErrorCode::out_of_range, "microbatches",
      "microbatches is too many for the simulator: stages = 1024, microbatches = 1024, "
      "virtual_stages = 1 make 2097152 work items, over its budget of 1048576");
}

TEST_CASE("pipeline_request reads the calculator's inputs and the frame window",
          "[pipeline][errors]") {
  Result<PipelineRequest> q = pipeline_request({{"stages", Value::of("8")},
                                                {"schedule", Value::of("gpipe")},
                                                {"max_frames", Value::of(50.0)}});
  REQUIRE(q.ok());
  CHECK(q.value().stages == 8);
  CHECK(q.value().microbatches == 8);
  CHECK(q.value().schedule == PipelineSchedule::gpipe);
  CHECK(q.value().virtual_stages == 2);
  CHECK(q.value().max_frames == 50);
  CHECK(q.value().first_frame == 0);
  check_error(pipeline_request({{"stage", Value::of(2.0)}}).error(), ErrorCode::invalid_argument,
              "stage",
              "pipeline has no input \"stage\"; its inputs are stages, microbatches, schedule, "
              "virtual_stages, forward_cost, backward_input_cost, backward_weight_cost, "
              "transfer_time, first_frame, max_frames, max_items");
  check_error(pipeline_request({{"microbatches", Value::of(0.0)}}).error(), ErrorCode::out_of_range,
              "microbatches", "microbatches must be >= 1, got 0");
  check_error(pipeline_request({{"first_frame", Value::of(-1.0)}}).error(), ErrorCode::out_of_range,
              "first_frame", "first_frame must be >= 0, got -1");
  check_error(pipeline_request({{"max_frames", Value::of(2.5)}}).error(),
              ErrorCode::invalid_argument, "max_frames",
              "max_frames must be a whole number, got 2.5");
}

TEST_CASE("a caller's max_items lowers the work budget, never raises it, before any work",
          "[pipeline][errors]") {
  // A page's WebAssembly engine reads with kMaxPagePipelineItems: 100,000 microbatches on 4
  // stages are 800,000 items, which took 1.5 s to hand to a page.
  Result<PipelineRequest> page =
      pipeline_request({{"microbatches", Value::of(1e5)}}, kMaxPagePipelineItems);
  REQUIRE(page.ok());
  CHECK(page.value().max_items == 65536);
  check_error(simulate_pipeline(page.value()).error(), ErrorCode::out_of_range, "microbatches",
              "microbatches is too many for the simulator: stages = 4, microbatches = 100000, "
              "virtual_stages = 1 make 800000 work items, over its budget of 65536");
  // What a page draws: 6,000 items.
  Result<PipelineRequest> drawn = pipeline_request({{"stages", Value::of(64.0)},
                                                    {"microbatches", Value::of(64.0)},
                                                    {"max_items", Value::of(6000.0)}},
                                                   kMaxPagePipelineItems);
  REQUIRE(drawn.ok());
  CHECK(simulate_pipeline(drawn.value()).error().message ==
        "microbatches is too many for the simulator: stages = 64, microbatches = 64, "
        "virtual_stages = 1 make 8192 work items, over its budget of 6000");
  check_error(pipeline_request({{"max_items", Value::of(1e5)}}, kMaxPagePipelineItems).error(),
              ErrorCode::out_of_range, "max_items", "max_items must be <= 65536, got 100000");
  // Ordinary inputs run as before; the CLI's budget stays the simulator's own.
  CHECK(simulate_pipeline(pipeline_request({}, kMaxPagePipelineItems).value()).ok());
  CHECK(pipeline_request({}).value().max_items == kMaxPipelineItems);
}
