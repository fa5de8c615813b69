#include "scalebook/gpus/kernel.h"

#include <algorithm>
#include <cmath>

namespace scalebook {

double cuda_core_flops(const Chip& gpu, double clock_hz) {
  return gpu.sms_per_chip * gpu.cuda_cores_per_sm * clock_hz;
}

double smem_bandwidth(const Chip& gpu) {
  return gpu.sms_per_chip * gpu.smem_bytes_per_cycle * gpu.boost_clock_hz;
}

namespace {

Result<double> memory_bandwidth(const Chip& gpu, KernelMemory memory) {
  if (memory == KernelMemory::l2) {
    if (gpu.l2_bandwidth > 0) return gpu.l2_bandwidth;
    return Error{ErrorCode::unsupported, "memory",
                 "memory=l2 needs the GPU's L2 bandwidth, which NVIDIA does not publish and the "
                 "catalog has measured only for the H100 and H200; give l2_bandwidth for " +
                     gpu.id};
  }
  if (memory == KernelMemory::smem) {
    const double w = smem_bandwidth(gpu);
    if (w > 0) return w;
    return Error{ErrorCode::unsupported, "memory",
                 "memory=smem needs " + gpu.id +
                     "'s SMs, SMEM bytes per cycle and boost clock; give sms_per_chip, "
                     "smem_bytes_per_cycle and boost_clock_hz"};
  }
  return gpu.hbm_bandwidth;
}

}  // namespace

Result<KernelCost> gpu_kernel(const Chip& gpu, const KernelInput& in) {
  if (in.op == KernelOp::vector_add && in.unit == KernelUnit::tensor_cores) {
    return Error{ErrorCode::invalid_argument, "unit",
                 "unit must be cuda-cores for a vector add: Tensor Cores only multiply matrices"};
  }
  KernelCost k;
  const double b = bytes_per_element(in.dtype);
  if (in.op == KernelOp::vector_add) {
    k.flops = in.N;
    k.bytes = 3 * in.N * b;
    k.tiles = std::ceil(in.N / (in.tile * in.tile));
  } else {
    k.flops = 2 * in.B * in.D * in.F;
    k.bytes = b * (in.B * in.D + in.D * in.F + in.B * in.F);
    k.tiles = std::ceil(in.B / in.tile) * std::ceil(in.F / in.tile);
  }
  if (in.unit == KernelUnit::tensor_cores) {
    k.peak_flops = peak_flops(gpu, in.dtype);
    if (k.peak_flops <= 0) {
      return Error{ErrorCode::unsupported, "chip",
                   gpu.id + " has no dense " + to_string(in.dtype) +
                       " peak in the catalog; give peak_flops_" + to_string(in.dtype)};
    }
  } else {
    k.peak_flops = cuda_core_flops(gpu, gpu.boost_clock_hz);
    if (k.peak_flops <= 0) {
      return Error{ErrorCode::unsupported, "chip",
                   gpu.id +
                       " lacks SMs, CUDA cores per SM or a boost clock in the catalog; give "
                       "sms_per_chip, cuda_cores_per_sm and boost_clock_hz"};
    }
  }
  k.hbm_bandwidth = gpu.hbm_bandwidth;
  if (k.hbm_bandwidth <= 0) {
    return Error{ErrorCode::unsupported, "chip",
                 gpu.id + " has no HBM bandwidth in the catalog; give hbm_bandwidth"};
  }
  if (gpu.sms_per_chip <= 0) {
    return Error{ErrorCode::unsupported, "chip",
                 gpu.id + " has no SM count in the catalog; give sms_per_chip"};
  }
  Result<double> w = memory_bandwidth(gpu, in.memory);
  if (!w.ok()) return w.error();
  k.memory_bandwidth = w.value();
  k.intensity = k.flops / k.bytes;
  k.critical_intensity = k.peak_flops / k.memory_bandwidth;
  k.t_math = k.flops / k.peak_flops;
  k.t_comms = k.bytes / k.memory_bandwidth;
  k.time = std::max(k.t_math, k.t_comms);
  k.compute_bound = k.t_math >= k.t_comms;
  k.sms = gpu.sms_per_chip;
  k.waves = std::ceil(k.tiles / k.sms);
  k.occupancy = k.tiles / (k.waves * k.sms);
  return k;
}

}  // namespace scalebook
