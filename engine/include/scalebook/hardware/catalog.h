#pragma once
// The hardware catalog: every chip the book uses, with the book's numbers and where each one
// comes from. Numbers are per chip (per GPU) in SI base units; 0 (or empty text) means the
// book does not give one.
#include <string>
#include <string_view>
#include <vector>

#include "scalebook/core/dtype.h"
#include "scalebook/core/value.h"

namespace scalebook {

// The chip every calculator, element and simulation starts on.
inline constexpr const char* kDefaultChip = "tpu-v5e";

struct PeakFlops {
  Dtype dtype;
  double flops_per_s;  // dense, per chip
};

// Where a number comes from, and why we chose it when the book gives two. `field` is a name
// from chip_field_specs(), or "peak_flops" for every peak of the chip.
struct SourceNote {
  std::string field;
  std::string note;
};

struct Chip {
  std::string id;    // lower-case with dashes: tpu-v5e, h100
  std::string name;  // as a reader knows it: TPU v5e, NVIDIA H100 SXM
  std::string vendor;
  std::vector<PeakFlops> peaks;
  double hbm_bandwidth = 0;   // B/s
  double hbm_capacity = 0;    // B
  double comm_bandwidth = 0;  // B/s to one peer chip, one direction
  std::string comm_link;      // what comm_bandwidth measures

  // Compute beyond the dtype peaks.
  double peak_flops_fp4 = 0;  // FLOP/s, dense; the engine has no fp4 dtype yet

  // On-chip memory.
  double vmem_capacity = 0;           // B per chip (TPU VMEM)
  double vreg_capacity_per_core = 0;  // B of vector registers per TensorCore (TPU)
  double vmem_bandwidth_vs_hbm = 0;   // VMEM-to-MXU bandwidth as a multiple of HBM's (x)
  double vpu_sublanes = 0;            // VPU register shape: sublanes ...
  double vpu_lanes = 0;               // ... by lanes of 32-bit values
  double vpu_alus_per_slot = 0;       // independent ALUs per (sublane, lane) slot
  double smem_per_sm = 0;             // B of SMEM (L1) per SM (GPU)
  double registers_per_sm = 0;        // B of registers per SM (GPU)
  double tmem_per_sm = 0;             // B of Tensor Memory per SM (GPU, Blackwell)
  double l2_capacity = 0;             // B per chip (GPU)
  double l2_bandwidth = 0;            // B/s, the whole chip's L2 (GPU; measured, where known)
  double smem_bytes_per_cycle = 0;    // B per SM per cycle out of SMEM (GPU: banks x bank width)

  // Cores and matrix units.
  double tensorcores_per_chip = 0;         // TPU TensorCores
  double mxus_per_chip = 0;                // TPU MXUs (systolic arrays)
  double mxu_size = 0;                     // cells per side of one square MXU (128 or 256)
  double sms_per_chip = 0;                 // GPU streaming multiprocessors
  double cuda_cores_per_sm = 0;            // GPU fp32 lanes per SM (4 subpartitions x 32)
  double tensor_cores_per_sm = 0;          // GPU Tensor Cores per SM (one per subpartition)
  double tensor_cores_per_chip = 0;        // GPU Tensor Cores
  double tensor_core_flops_per_cycle = 0;  // bf16 FLOP per Tensor Core per cycle
  double clock_hz = 0;                     // Hz, the clock the book computes FLOP/s with
  double base_clock_hz = 0;                // Hz (GPU spec table)
  double boost_clock_hz = 0;               // Hz (GPU spec table)

  // TPU interconnect: ICI, host, PCIe and DCN.
  double ici_link_bandwidth = 0;       // B/s per ICI link, one direction
  double ici_link_bandwidth_bidi = 0;  // B/s per ICI link, both directions
  double ici_links_per_chip = 0;       // nearest neighbours in the torus
  double ici_hop_latency = 0;          // s per hop
  double torus_dims = 0;               // 2 or 3
  std::string pod_topology;            // largest ICI slice, e.g. "16x20x28"
  double pod_chips = 0;                // chips in that pod
  std::string cube_topology;           // optically switched building block, e.g. "4x4x4"
  std::string wraparound;              // which slices get wraparound links
  std::string host_topology;           // chips under one CPU host, e.g. "4x2"
  double chips_per_host = 0;
  double pcie_bandwidth = 0;  // B/s host <-> chip, one direction, per chip
  double dcn_bandwidth = 0;   // B/s data-center network egress per chip

  // GPU interconnect: NVLink inside a node, scale-out network beyond it.
  double nvlink_bandwidth = 0;       // B/s per GPU into the NVLink domain, one direction
  double nvlink_links_per_gpu = 0;   // NVLink ports per GPU
  double nvlink_link_bandwidth = 0;  // B/s per NVLink link, one direction
  double nvlink_domain_gpus = 0;     // GPUs one NVSwitch hop apart (the book's "node")
  double nvswitches_per_node = 0;
  double node_egress_bandwidth = 0;  // B/s from one node into the scale-out network
  double nics_per_gpu = 0;           // scale-out NICs per GPU
  double nic_bandwidth = 0;          // B/s per scale-out NIC, one direction

  double price_per_hour = 0;  // USD per chip-hour, cloud list price
  // Where price_per_hour comes from, as data (the note says it in words): who lists it and
  // where the book quotes it, and when ("2025-02", year and month). Empty without a price,
  // and a date stays empty when the source gives none.
  std::string price_source;
  std::string price_date;
  double power = 0;  // W per chip: the vendor's maximum board power (TDP)

  std::vector<SourceNote> notes;
};

const std::vector<Chip>& chips();
const Chip* find_chip(std::string_view id);
std::vector<std::string> chip_ids();

// The chip's dense peak for `dtype`, or 0 when the catalog has none.
double peak_flops(const Chip& chip, Dtype dtype);

// One catalog field, as every face (CLI, WASM, web table, overrides) lists it.
struct ChipFieldSpec {
  std::string name;  // peak_flops_bf16, hbm_bandwidth, pod_topology, ...
  std::string unit;  // SI base unit, a count's noun ("chips"), or empty for text
  std::string description;
  bool is_text = false;
  bool whole = false;   // a count: a whole number
  std::string label;    // what a form or table calls it: "HBM bandwidth"
  std::string applies;  // "TPUs" or "GPUs": the only chips that have it; empty: every chip
};

struct ChipField {
  std::string name;
  Value value;  // none when the book gives none
  std::string unit;
  std::string description;
  std::string note;  // where the value comes from; may explain why there is none
};

// Every field in display order: the peaks (one per dtype), memory, cores, interconnect, price.
const std::vector<ChipFieldSpec>& chip_field_specs();
const ChipFieldSpec* find_chip_field_spec(std::string_view name);

// The chip's fields in chip_field_specs() order.
std::vector<ChipField> chip_fields(const Chip& chip);

// Field `index` of chip_field_specs() without copying: a text field's text, or a number
// field's number (0 when the catalog has none) with a null text.
struct ChipFieldRef {
  double number;
  const std::string* text;
};
ChipFieldRef chip_field_ref(const Chip& chip, std::size_t index);

// Google's chips are TPUs; every other vendor's, GPUs.
bool is_tpu(const Chip& chip);

// Why the chip has no value for `spec`: not applicable to its kind of chip, or, where the
// catalog has none, the field's own note (which says why) or that the catalog gives none.
// Text that outlives the call (a literal or the chip's note), so the numbers-only path copies
// it into its reused buffer without allocating.
std::string_view chip_field_absence(const Chip& chip, const ChipFieldSpec& spec);

// The note for `field`; a peak field falls back to the chip's "peak_flops" note, the price's
// source and date to the price's.
std::string chip_note(const Chip& chip, std::string_view field);

// Sets a numeric field by name (a peak_flops_<dtype> adds or replaces that peak). False when
// `name` is not a numeric field.
bool set_chip_field(Chip& chip, std::string_view name, double value);

}  // namespace scalebook
