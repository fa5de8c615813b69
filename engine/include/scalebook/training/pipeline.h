#pragma once
// A pipeline-parallel training step played as a list schedule: p devices (stages), each holding
// a contiguous slice of the layers, run m microbatches forward and backward. Every device runs
// its own fixed order of work items (the schedule's), and an item starts as soon as its device
// is free and its inputs have arrived:
//   - F of microbatch i on model chunk c needs F of i on chunk c - 1, plus the transfer time;
//   - B (or I) of i on chunk c needs B (or I) of i on chunk c + 1, plus the transfer time, and
//     F of i on chunk c (the last chunk's backward starts from its own forward: the loss);
//   - W of i on chunk c needs I of i on chunk c.
// Model chunks: without interleaving device s holds chunk s. Interleaved, the layers split into
// p v chunks dealt round-robin, device s holding chunks s, s + p, ..., s + (v - 1) p (its
// virtual chunks 0 .. v - 1); a chunk's work costs 1/v of the stage's.
//
// Time is in the costs' own unit (one forward = 1 by default). Costs are per microbatch per
// stage (all of one device's layers): forward F, backward-input I, backward-weight W. Every
// schedule but zero-bubble runs the backward as one item B of cost I + W. A transfer (one
// microbatch's activations or gradients between neighbouring devices) takes `transfer_time`;
// naive sends the whole batch at once, m transfer times.
//
// Schedules (per-device orders; s = 0 is the first stage):
//   - naive: the batch as one: every F on stage s needs the whole batch's F on s - 1 and every
//     B the whole batch's B on s + 1, so one device works at a time.
//   - gpipe: all m forwards, then all m backwards, microbatch 0 first in both.
//   - 1f1b (PipeDream-flush): w = min(p - 1 - s, m) forwards, then F of microbatch w + k and B
//     of k alternately, then the w backwards left.
//   - interleaved (Megatron-LM's interleaved 1F1B): forward work unit k runs microbatch
//     (k / (p v)) p + k % p on virtual chunk (k % (p v)) / p; backward unit k the same
//     microbatch on chunk v - 1 - (k % (p v)) / p. Warmup min(2 (p - 1 - s) + (v - 1) p, m v)
//     forward units, then forward w + k and backward k alternately, then the backward units
//     left. Needs m a multiple of p, as Megatron-LM does; v = 1 is 1f1b.
//   - zero-bubble (ZB-H1, Qi et al. 2023): 1f1b with the backward split into I and W; stage s
//     runs W of microbatch j right after I of j + s, and the W still owed after its last I. The
//     peak activations stay 1f1b's; the W's fill the cool-down's idle time.
//
// Figures:
//   step_time        the last item's end (the first starts at 0)
//   ideal_time       m (F + I + W): one device's work, no idling
//   bubble_fraction  idle device-time over p step_time (= 1 - ideal_time / step_time)
//   peak activations per stage: the most microbatches at once whose forward on the stage has
//                    ended and whose backward (B, or I) has not; interleaved, a chunk's
//                    activations count 1/v (they are 1/v of the stage's layers). Zero-bubble's
//                    W also needs its microbatch's inputs, which this count leaves out.
//
// Closed forms (pipeline_closed_form), checked against the simulation by the tests, all with
// transfer_time = 0; they give the bubble as a fraction of p step_time as above:
//   naive        (p - 1) / p, any costs
//   gpipe, 1f1b  (p - 1) / (m + p - 1), any costs and any m (bubble time (p - 1)(F + I + W)
//                per device). With a transfer time gpipe's step is (m + p - 1)(F + I + W) plus
//                2 (p - 1) transfers (naive's m times that), while 1f1b waits out round trips
//                in its steady state and is never faster than gpipe
//   interleaved  (p - 1) / (v m + p - 1): bubble time (p - 1)(F + I + W) / v per device
//                (Narayanan et al. 2021, section 2.2.2), any costs
//   zero-bubble  (p - 1)(F + I - W) / (m (F + I + W) + (p - 1)(F + I - W)) when W <= F and
//                W <= I (ZB-H1's bubble time (p - 1)(F + I - W); with unit costs a third of
//                1f1b's), and m >= p
// Peak activations on stage 0: naive and gpipe m; 1f1b and zero-bubble min(p, m); interleaved
// min(2 (p - 1) + (v - 1) p + 1, m v) / v chunk units (Megatron-LM's warmup plus one).
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "scalebook/core/registry.h"
#include "scalebook/core/status.h"

namespace scalebook {

// A simulation runs at most this many work items (p m v times 2, or 3 for zero-bubble): some
// 32 MiB of items and a few tens of milliseconds natively. Checked before simulating.
inline constexpr std::int64_t kMaxPipelineItems = std::int64_t{1} << 20;
// The most a WebAssembly caller's simulation runs: its items cross into JS as objects, which
// cost a page some 2 us each (800,000 items blocked a page for 1.5 s; 65,536 take ~0.1 s).
inline constexpr std::int64_t kMaxPagePipelineItems = std::int64_t{1} << 16;
// Frames hold at most this many stage entries in all (frames times p), some 4 MiB.
inline constexpr std::int64_t kMaxPipelineFrameCells = std::int64_t{1} << 20;
// Input ranges, as the calculator's schema declares them.
inline constexpr std::int64_t kMaxPipelineStages = 1024;
inline constexpr std::int64_t kMaxPipelineMicrobatches = 1000000;
inline constexpr std::int64_t kMaxPipelineVirtualStages = 64;
inline constexpr double kMaxPipelineCost = 1e9;  // time units, each cost and the transfer

enum class PipelineSchedule : std::uint8_t { naive, gpipe, one_f_one_b, interleaved, zero_bubble };

// "naive", "gpipe", "1f1b", "interleaved", "zero-bubble".
std::optional<PipelineSchedule> parse_pipeline_schedule(std::string_view text);
const char* to_string(PipelineSchedule schedule);

// F: forward; B: the whole backward (input and weight gradients); I: the backward's input
// gradient, W: its weight gradient (zero-bubble runs them as two items).
enum class WorkKind : std::uint8_t { forward, backward, backward_input, backward_weight };

// "F", "B", "I", "W".
const char* to_string(WorkKind kind);

struct PipelineRequest {
  std::int64_t stages = 4;        // p: devices, one pipeline stage each
  std::int64_t microbatches = 8;  // m: microbatches in the step's batch
  PipelineSchedule schedule = PipelineSchedule::one_f_one_b;
  std::int64_t virtual_stages = 2;  // v: chunks per device, interleaved only (others run 1)
  double forward_cost = 1;          // time units: one microbatch's forward through one stage
  double backward_input_cost = 1;   // time units: its input gradient through one stage
  double backward_weight_cost = 1;  // time units: its weight gradient on one stage
  double transfer_time = 0;         // time units: one microbatch's activations to a neighbour
  std::int64_t first_frame = 0;     // frames: index of the first recorded
  std::int64_t max_frames = 0;      // frames to record from first_frame; 0: none
  // The work budget, in items, at most kMaxPipelineItems: more is an error before any work.
  std::int64_t max_items = kMaxPipelineItems;
};

struct PipelineItem {
  std::int32_t stage = 0;       // device, 0 the first
  std::int32_t microbatch = 0;  // 0 .. m - 1
  std::int32_t chunk = 0;       // virtual chunk on the device, 0 .. v - 1 (model chunk c p + s)
  WorkKind kind = WorkKind::forward;
  double start = 0;  // time units
  double end = 0;    // time units
};

// What every device does from `time` for `duration`: one frame per interval between events
// (an item's start or end), so a Gantt grid played frame by frame shows every change.
struct PipelineFrame {
  double time = 0;                    // time units, the interval's start
  double duration = 0;                // time units
  std::vector<std::int32_t> running;  // per stage: index into items, or -1 when idle
  std::vector<double> activations;    // per stage: activations held (as peak_activations)
};

struct PipelineStage {
  double busy = 0;              // time units working
  double idle = 0;              // time units: step_time - busy
  double peak_activations = 0;  // microbatch activations held at once (a chunk's count 1/v)
};

// The schedule's closed forms for the request's p, m, v and costs (see above), or NaN for the
// bubble where none is stated (zero-bubble with W > F or W > I, or m < p).
struct PipelineClosedForm {
  double bubble_fraction = 0;   // with transfer_time = 0
  double peak_activations = 0;  // stage 0's, in microbatch activations
};

struct PipelineResult {
  std::vector<PipelineItem> items;    // stage by stage, each stage's in the order it runs them
  std::vector<PipelineStage> stages;  // one per device
  double step_time = 0;               // time units
  double ideal_time = 0;              // time units: m (F + I + W)
  double bubble_fraction = 0;         // idle over p step_time
  double peak_activations = 0;        // the most over the stages (stage 0 for every schedule)
  PipelineClosedForm closed_form;     // pipeline_closed_form(request), to compare
  std::int64_t frame_count = 0;       // intervals between events (0 when max_frames is 0)
  std::vector<PipelineFrame> frames;  // [first_frame, first_frame + max_frames) of them
  bool frames_truncated = false;      // fewer than asked for, to stay in kMaxPipelineFrameCells
};

PipelineClosedForm pipeline_closed_form(const PipelineRequest& request);

// Errors name the field: a size below 1 or over its range, a cost not > 0 (W and the transfer
// may be 0), m not a multiple of p for interleaved, more work items than max_items.
Result<PipelineResult> simulate_pipeline(const PipelineRequest& request);

// The request from named inputs as the calculator takes them (each checked by the pipeline
// schema's spec, defaults from it), plus first_frame and max_frames (whole numbers >= 0) and
// max_items (a whole number from 1 to `most_items`, default `most_items`): for the bindings,
// so a simulation and the calculator read the same inputs the same way.
Result<PipelineRequest> pipeline_request(const Inputs& fields,
                                         std::int64_t most_items = kMaxPipelineItems);

Calculator pipeline_calculator();

}  // namespace scalebook
