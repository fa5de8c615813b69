#pragma once
// The `collective` calculator: the time of an AllGather, ReduceScatter, AllReduce or AllToAll
// over one or more axes of chips, with the latency and bandwidth terms, the bandwidths
// nccl-tests reports, and how close the chips come to their injection bandwidth.
//
// On a TPU (a chip with an ICI torus) it is collective_cost.h's closed form, fed with the
// chip's link bandwidth and hop latency and with which axes wrap around (given, or decided
// from the catalog's wraparound rule; see wraparound in the schema).
//
// On a GPU (a chip with an NVLink domain) it is gpu_collective_cost.h's model, fed with the
// chip's NVLink egress, NVLink domain and node egress. The catalog gives no GPU latency, so
// it is the `latency` input or 0.
#include "scalebook/collectives/collective_cost.h"
#include "scalebook/collectives/gpu_collective_cost.h"
#include "scalebook/core/registry.h"
#include "scalebook/hardware/slice.h"

namespace scalebook {

Calculator collective_calculator();

}  // namespace scalebook
