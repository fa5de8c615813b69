#pragma once
// Chapter 12's roofline for one kernel on one GPU: a vector add or a matmul, on the Tensor
// Cores or the CUDA cores, against the memory its operands stream from: HBM, L2 or SMEM.
//
//   vector add of two [N] arrays: N FLOPs, 3 N b bytes (two reads and a write of b-byte
//     elements: 12N in fp32), so an intensity of 1 / (3b);
//   matmul [B, D] x [D, F]: 2 B D F FLOPs, b (B D + D F + B F) bytes.
// T_math = FLOPs / C, T_comms = bytes / W_hbm, and the roofline time is the larger: the kernel
// is compute-bound when its intensity exceeds C / W_hbm. C is the dtype's dense peak on the
// Tensor Cores, or on the CUDA cores SMs x lanes per SM x boost clock, one operation per lane a
// cycle (the book's Quiz 1: 33.5e12 on an H100, half the spec sheet's, which counts an FMA as
// two).
//
// W is the chosen memory's: HBM's from the catalog; L2's where the catalog has a measured one
// (NVIDIA publishes none); SMEM's SMs x bytes an SM reads a cycle x boost clock (32 banks of 4
// B: 33.4 TB/s on an H100, 10x HBM). A kernel whose tiles sit in SMEM needs that much less
// intensity to keep the Tensor Cores busy, which is why matmul kernels stage tiles there.
//
// Occupancy: a kernel of T x T output tiles (vector: T^2 elements a block) hands one tile to
// an SM at a time, so ceil(tiles / SMs) waves run and tiles / (waves x SMs) of the SMs' time is
// used; a small kernel cannot fill 132 SMs whatever its roofline says.
#include "scalebook/core/dtype.h"
#include "scalebook/core/status.h"
#include "scalebook/hardware/catalog.h"

namespace scalebook {

enum class KernelOp { vector_add, matmul };
enum class KernelUnit { tensor_cores, cuda_cores };
enum class KernelMemory { hbm, l2, smem };

struct KernelInput {
  KernelOp op = KernelOp::matmul;
  double N = 0;                // vector elements
  double B = 0, D = 0, F = 0;  // matmul [B, D] x [D, F]
  Dtype dtype = Dtype::bf16;
  KernelUnit unit = KernelUnit::tensor_cores;
  double tile = 128;  // output tile side
  KernelMemory memory = KernelMemory::hbm;
};

struct KernelCost {
  double flops = 0;
  double bytes = 0;
  double intensity = 0;           // FLOP/B
  double peak_flops = 0;          // C: FLOP/s of the chosen unit and dtype
  double hbm_bandwidth = 0;       // B/s
  double memory_bandwidth = 0;    // B/s, W of the chosen memory
  double critical_intensity = 0;  // C / W
  double t_math = 0, t_comms = 0, time = 0;
  bool compute_bound = false;
  double tiles = 0, sms = 0, waves = 0;
  double occupancy = 0;  // fraction of the SMs' time the tiles fill
};

// The GPU's vector FLOP/s: SMs x CUDA cores per SM x clock (one op per lane a cycle); 0 when
// the catalog lacks one of them.
double cuda_core_flops(const Chip& gpu, double clock_hz);
// SMs x SMEM bytes an SM reads a cycle x boost clock; 0 when the catalog lacks one of them.
double smem_bandwidth(const Chip& gpu);

// Errors name the field: chip (no peak, no HBM bandwidth, no SMs), unit (a vector add on the
// Tensor Cores), memory (no L2 bandwidth, or no SMEM bandwidth, for the GPU).
Result<KernelCost> gpu_kernel(const Chip& gpu, const KernelInput& in);

}  // namespace scalebook
