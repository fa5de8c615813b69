#pragma once
#include "scalebook/core/registry.h"

namespace scalebook {

// A matmul C[M,N] = A[M,K] x B[K,N] on a chip's MXUs: B is cut into array x array weight tiles
// spread evenly over the MXUs, each a pipelined weight-stationary systolic array (systolic.h,
// convention `pipelined`) that streams all of A's rows through each of its tiles. K and N are
// padded to multiples of the array side, M to a multiple of the LHS tile (8 rows); the padding
// is work the MXUs do for nothing. Outputs: padded shapes, padding waste, cycles, time,
// achieved and peak FLOP/s.
Calculator mxu_calculator();

}  // namespace scalebook
