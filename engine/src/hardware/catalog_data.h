#pragma once
// Internal to the catalog: the chip tables (catalog_tpus.cpp, catalog_gpus.cpp) and the
// helpers they are written with.
#include <initializer_list>
#include <string>
#include <vector>

#include "scalebook/hardware/catalog.h"

namespace scalebook::catalog_data {

// One source note shared by several fields, named in one string with a space between names:
// {"hbm_bandwidth hbm_capacity", kSpecTable}. Plain pointers, so a chip's list of them is
// constant data and only cite() builds strings (std::strings built inline in every table cost
// the engine modules kilobytes of code).
struct Cite {
  const char* fields;
  const char* note;
};

std::vector<SourceNote> cite(std::initializer_list<Cite> cites);

constexpr int kMaxPeaks = 4;

// A chip as the tables write it: Chip's fields in Chip's order, with plain pointers for text and
// fixed lists, so that every table is constant data and make_chip() alone builds the strings
// and vectors (written as Chips, the tables were 9 kB of code in every engine module). A field
// added to Chip needs its line here and in make_chip().
struct ChipDef {
  const char* id = "";
  const char* name = "";
  const char* vendor = "";
  PeakFlops peaks[kMaxPeaks] = {};  // a flops of 0 ends the list
  double hbm_bandwidth = 0;
  double hbm_capacity = 0;
  double comm_bandwidth = 0;
  const char* comm_link = "";
  double peak_flops_fp4 = 0;
  double vmem_capacity = 0;
  double vreg_capacity_per_core = 0;
  double vmem_bandwidth_vs_hbm = 0;
  double vpu_sublanes = 0;
  double vpu_lanes = 0;
  double vpu_alus_per_slot = 0;
  double smem_per_sm = 0;
  double registers_per_sm = 0;
  double tmem_per_sm = 0;
  double l2_capacity = 0;
  double l2_bandwidth = 0;
  double smem_bytes_per_cycle = 0;
  double tensorcores_per_chip = 0;
  double mxus_per_chip = 0;
  double mxu_size = 0;
  double sms_per_chip = 0;
  double cuda_cores_per_sm = 0;
  double tensor_cores_per_sm = 0;
  double tensor_cores_per_chip = 0;
  double tensor_core_flops_per_cycle = 0;
  double clock_hz = 0;
  double base_clock_hz = 0;
  double boost_clock_hz = 0;
  double ici_link_bandwidth = 0;
  double ici_link_bandwidth_bidi = 0;
  double ici_links_per_chip = 0;
  double ici_hop_latency = 0;
  double torus_dims = 0;
  const char* pod_topology = "";
  double pod_chips = 0;
  const char* cube_topology = "";
  const char* wraparound = "";
  const char* host_topology = "";
  double chips_per_host = 0;
  double pcie_bandwidth = 0;
  double dcn_bandwidth = 0;
  double nvlink_bandwidth = 0;
  double nvlink_links_per_gpu = 0;
  double nvlink_link_bandwidth = 0;
  double nvlink_domain_gpus = 0;
  double nvswitches_per_node = 0;
  double node_egress_bandwidth = 0;
  double nics_per_gpu = 0;
  double nic_bandwidth = 0;
  double price_per_hour = 0;
  const char* price_source = "";
  const char* price_date = "";
  double power = 0;
  std::initializer_list<Cite> notes;
};

Chip make_chip(const ChipDef& def);

// `chip`'s dense peak for `dtype`, or 0: for a table that takes another chip's.
constexpr double peak_of(const ChipDef& chip, Dtype dtype) {
  for (const PeakFlops& peak : chip.peaks)
    if (peak.flops_per_s != 0 && peak.dtype == dtype) return peak.flops_per_s;
  return 0;
}

// `own` with every field it leaves unknown taken from `base`, each noted
// "as the <base name> (<reason>): <base's note>".
Chip like(const Chip& base, Chip own, const std::string& reason);

// Oldest first.
std::vector<Chip> tpu_chips();
std::vector<Chip> gpu_chips();

}  // namespace scalebook::catalog_data
