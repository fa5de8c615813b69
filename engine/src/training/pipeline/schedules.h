#pragma once
// Internal to the pipeline simulator (pipeline.cpp): each schedule's order of work on one
// device, as pipeline.h describes them.
#include <cstdint>
#include <vector>

#include "scalebook/training/pipeline.h"

namespace scalebook::pipeline_schedules {

// One item of a device's order, before it is timed.
struct Unit {
  std::int32_t microbatch = 0;
  std::int32_t chunk = 0;  // virtual chunk on the device
  WorkKind kind = WorkKind::forward;
};

// The chunks per device the schedule runs: v for interleaved, else 1.
std::int64_t chunks_of(const PipelineRequest& request);

// Work items the whole step runs: p m chunks_of(request) times 2, or 3 for zero-bubble.
double item_count(const PipelineRequest& request);

// Device `stage`'s order of work.
std::vector<Unit> device_order(const PipelineRequest& request, std::int64_t stage);

}  // namespace scalebook::pipeline_schedules
