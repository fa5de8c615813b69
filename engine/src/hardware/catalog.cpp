#include "scalebook/hardware/catalog.h"

#include <algorithm>
#include <iterator>
#include <optional>
#include <string_view>

#include "catalog_data.h"

namespace scalebook {
namespace {

// A Chip member by name: the one list the catalog's faces (CLI, WASM, web, overrides) read.
struct FieldDef {
  ChipFieldSpec spec;
  double Chip::*number = nullptr;
  std::string Chip::*text = nullptr;
};

FieldDef num(const char* name, const char* label, const char* unit, const char* description,
             double Chip::*member, bool whole = false) {
  return {{name, unit, description, false, whole, label}, member, nullptr};
}

FieldDef txt(const char* name, const char* label, const char* description,
             std::string Chip::*member) {
  return {{name, "", description, true, false, label}, nullptr, member};
}

// The fields after the per-dtype peaks, in display order.
const std::vector<FieldDef>& field_defs() {
  static const std::vector<FieldDef> defs = {
      num("peak_flops_fp4", "Peak fp4 FLOP/s", "FLOP/s", "dense fp4 peak", &Chip::peak_flops_fp4),
      num("hbm_capacity", "HBM capacity", "B", "HBM capacity", &Chip::hbm_capacity),
      num("hbm_bandwidth", "HBM bandwidth", "B/s", "HBM bandwidth", &Chip::hbm_bandwidth),
      num("vmem_capacity", "VMEM capacity", "B", "VMEM (on-chip vector memory) per chip",
          &Chip::vmem_capacity),
      num("vreg_capacity_per_core", "Vector registers per core", "B",
          "vector registers per TensorCore", &Chip::vreg_capacity_per_core),
      num("vmem_bandwidth_vs_hbm", "VMEM bandwidth vs HBM", "x",
          "VMEM bandwidth into the MXUs as a multiple of HBM's", &Chip::vmem_bandwidth_vs_hbm),
      num("vpu_sublanes", "VPU sublanes", "sublanes", "VPU register shape: sublanes",
          &Chip::vpu_sublanes, true),
      num("vpu_lanes", "VPU lanes", "lanes", "VPU register shape: lanes of 32-bit values",
          &Chip::vpu_lanes, true),
      num("vpu_alus_per_slot", "VPU ALUs per slot", "ALUs",
          "independent VPU ALUs per (sublane, lane) slot", &Chip::vpu_alus_per_slot, true),
      num("smem_per_sm", "Shared memory per SM", "B", "shared memory (L1) per SM",
          &Chip::smem_per_sm),
      num("registers_per_sm", "Register file per SM", "B", "register file per SM",
          &Chip::registers_per_sm),
      num("tmem_per_sm", "Tensor Memory per SM", "B", "Tensor Memory per SM", &Chip::tmem_per_sm),
      num("l2_capacity", "L2 cache", "B", "L2 cache per chip", &Chip::l2_capacity),
      num("l2_bandwidth", "L2 bandwidth", "B/s", "L2 bandwidth of the whole chip",
          &Chip::l2_bandwidth),
      num("smem_bytes_per_cycle", "SMEM bandwidth per SM", "B/cycle",
          "shared memory bytes one SM reads a cycle", &Chip::smem_bytes_per_cycle),
      num("tensorcores_per_chip", "TensorCores per chip", "cores", "TPU TensorCores per chip",
          &Chip::tensorcores_per_chip, true),
      num("mxus_per_chip", "MXUs per chip", "MXUs", "matrix units (systolic arrays) per chip",
          &Chip::mxus_per_chip, true),
      num("mxu_size", "MXU size", "cells", "cells per side of one square MXU", &Chip::mxu_size,
          true),
      num("sms_per_chip", "SMs per chip", "SMs", "streaming multiprocessors per chip",
          &Chip::sms_per_chip, true),
      num("cuda_cores_per_sm", "CUDA cores per SM", "cores", "fp32 CUDA cores (lanes) per SM",
          &Chip::cuda_cores_per_sm, true),
      num("tensor_cores_per_sm", "Tensor Cores per SM", "Tensor Cores", "Tensor Cores per SM",
          &Chip::tensor_cores_per_sm, true),
      num("tensor_cores_per_chip", "Tensor Cores per chip", "Tensor Cores",
          "GPU Tensor Cores per chip", &Chip::tensor_cores_per_chip, true),
      num("tensor_core_flops_per_cycle", "Tensor Core FLOPs per cycle", "FLOP/cycle",
          "bf16 FLOPs per Tensor Core per cycle", &Chip::tensor_core_flops_per_cycle),
      num("clock_hz", "Clock", "Hz", "clock the book computes matrix FLOP/s with", &Chip::clock_hz),
      num("base_clock_hz", "Base clock", "Hz", "base clock", &Chip::base_clock_hz),
      num("boost_clock_hz", "Boost clock", "Hz", "boost clock", &Chip::boost_clock_hz),
      num("comm_bandwidth", "Chip-to-chip bandwidth", "B/s",
          "chip-to-chip bandwidth to one peer, one direction", &Chip::comm_bandwidth),
      txt("comm_link", "Chip-to-chip link", "what comm_bandwidth measures", &Chip::comm_link),
      num("ici_link_bandwidth", "ICI link bandwidth", "B/s",
          "ICI bandwidth per link, one direction", &Chip::ici_link_bandwidth),
      num("ici_link_bandwidth_bidi", "ICI link bandwidth, both ways", "B/s",
          "ICI bandwidth per link, both directions", &Chip::ici_link_bandwidth_bidi),
      num("ici_links_per_chip", "ICI links per chip", "links",
          "ICI links (torus neighbours) per chip", &Chip::ici_links_per_chip, true),
      num("ici_hop_latency", "ICI hop latency", "s", "ICI latency per hop", &Chip::ici_hop_latency),
      num("torus_dims", "Torus dimensions", "axes", "torus dimensions", &Chip::torus_dims, true),
      txt("pod_topology", "Pod topology", "largest ICI-connected slice (pod)", &Chip::pod_topology),
      num("pod_chips", "Chips per pod", "chips", "chips in a full pod", &Chip::pod_chips, true),
      txt("cube_topology", "Cube topology", "optically switched building block",
          &Chip::cube_topology),
      txt("wraparound", "Wraparound", "which slices get wraparound links", &Chip::wraparound),
      txt("host_topology", "Host topology", "chips under one CPU host", &Chip::host_topology),
      num("chips_per_host", "Chips per host", "chips", "chips per CPU host", &Chip::chips_per_host,
          true),
      num("pcie_bandwidth", "PCIe bandwidth", "B/s", "PCIe host-to-chip bandwidth, one direction",
          &Chip::pcie_bandwidth),
      num("dcn_bandwidth", "DCN bandwidth", "B/s", "data-center network egress per chip",
          &Chip::dcn_bandwidth),
      num("nvlink_bandwidth", "NVLink bandwidth", "B/s", "NVLink egress per GPU, one direction",
          &Chip::nvlink_bandwidth),
      num("nvlink_links_per_gpu", "NVLink links per GPU", "links", "NVLink links per GPU",
          &Chip::nvlink_links_per_gpu, true),
      num("nvlink_link_bandwidth", "NVLink link bandwidth", "B/s",
          "NVLink bandwidth per link, one direction", &Chip::nvlink_link_bandwidth),
      num("nvlink_domain_gpus", "GPUs per NVLink domain", "GPUs", "GPUs per NVLink domain (node)",
          &Chip::nvlink_domain_gpus, true),
      num("nvswitches_per_node", "NVSwitches per node", "switches", "NVSwitches per NVLink domain",
          &Chip::nvswitches_per_node, true),
      num("node_egress_bandwidth", "Node egress bandwidth", "B/s",
          "node egress into the scale-out network", &Chip::node_egress_bandwidth),
      num("nics_per_gpu", "NICs per GPU", "NICs", "scale-out NICs per GPU", &Chip::nics_per_gpu,
          true),
      num("nic_bandwidth", "NIC bandwidth", "B/s", "scale-out bandwidth per NIC, one direction",
          &Chip::nic_bandwidth),
      num("price_per_hour", "Price per chip-hour", "USD/h", "cloud list price per chip-hour",
          &Chip::price_per_hour),
      txt("price_source", "Price source", "who lists the price, and where the book quotes it",
          &Chip::price_source),
      txt("price_date", "Price date", "when the price was listed (year-month)", &Chip::price_date),
      num("power", "Power per chip", "W", "maximum board power (TDP) per chip, from the vendor",
          &Chip::power),
  };
  return defs;
}

// Fields only one kind of chip has: a TPU's on-chip memory, cores and torus; a GPU's SMs,
// clocks and NVLink. Fields not listed are every chip's (a GPU has PCIe too; the catalog may
// just lack the number).
// Space-separated, with a space at each end, so a name is found as " name ".
constexpr std::string_view kTpuOnly =
    " vmem_capacity vreg_capacity_per_core vmem_bandwidth_vs_hbm vpu_sublanes vpu_lanes"
    " vpu_alus_per_slot tensorcores_per_chip mxus_per_chip mxu_size ici_link_bandwidth"
    " ici_link_bandwidth_bidi ici_links_per_chip ici_hop_latency torus_dims pod_topology pod_chips"
    " cube_topology wraparound host_topology chips_per_host dcn_bandwidth ";
constexpr std::string_view kGpuOnly =
    " smem_per_sm registers_per_sm tmem_per_sm l2_capacity l2_bandwidth smem_bytes_per_cycle"
    " sms_per_chip tensor_cores_per_chip"
    " tensor_core_flops_per_cycle base_clock_hz boost_clock_hz nvlink_bandwidth"
    " nvlink_links_per_gpu nvlink_link_bandwidth nvlink_domain_gpus nvswitches_per_node"
    " node_egress_bandwidth nics_per_gpu nic_bandwidth cuda_cores_per_sm tensor_cores_per_sm ";

std::string applies_to(const std::string& name) {
  const std::string word = " " + name + " ";
  if (kTpuOnly.find(word) != std::string_view::npos) return "TPUs";
  if (kGpuOnly.find(word) != std::string_view::npos) return "GPUs";
  return "";
}

const FieldDef* find_def(std::string_view name) {
  for (const FieldDef& def : field_defs()) {
    if (def.spec.name == name) return &def;
  }
  return nullptr;
}

constexpr std::string_view kPeakPrefix = "peak_flops_";

// A price's source and date belong to that price, not to the chip.
bool is_price_detail(std::string_view field) {
  return field == "price_source" || field == "price_date";
}

const std::string* find_note(const Chip& chip, std::string_view field) {
  for (const SourceNote& n : chip.notes) {
    if (n.field == field) return &n.note;
  }
  return nullptr;
}

// The five chips the first chapters were written with keep their places; the rest follow,
// TPUs then GPUs, oldest first.
constexpr const char* kSeeds[] = {"tpu-v5e", "tpu-v5p", "tpu-v6e", "tpu-v4p", "h100"};
constexpr int kSeedCount = static_cast<int>(std::size(kSeeds));

int seed_rank(const std::string& id) {
  auto it = std::find(std::begin(kSeeds), std::end(kSeeds), id);
  return static_cast<int>(it - std::begin(kSeeds));
}

// A stable sort by seed rank, written as one pass per rank: std::stable_sort's instantiation
// for Chip cost every engine module 2 kB of code to order 13 chips once.
std::vector<Chip> make_catalog() {
  std::vector<Chip> all = catalog_data::tpu_chips();
  for (Chip& gpu : catalog_data::gpu_chips()) all.push_back(std::move(gpu));
  std::vector<int> ranks;
  for (const Chip& chip : all) ranks.push_back(seed_rank(chip.id));
  std::vector<Chip> list;
  list.reserve(all.size());
  for (int rank = 0; rank <= kSeedCount; ++rank) {
    for (std::size_t i = 0; i < all.size(); ++i)
      if (ranks[i] == rank) list.push_back(std::move(all[i]));
  }
  return list;
}

}  // namespace

namespace catalog_data {

std::vector<SourceNote> cite(std::initializer_list<Cite> cites) {
  std::vector<SourceNote> notes;
  for (const Cite& c : cites) {
    std::string_view fields = c.fields;
    while (!fields.empty()) {
      const std::size_t end = std::min(fields.find(' '), fields.size());
      if (end > 0) notes.push_back({std::string(fields.substr(0, end)), c.note});
      fields.remove_prefix(std::min(end + 1, fields.size()));
    }
  }
  return notes;
}

Chip make_chip(const ChipDef& def) {
  Chip chip;
  chip.id = def.id;
  chip.name = def.name;
  chip.vendor = def.vendor;
  chip.hbm_bandwidth = def.hbm_bandwidth;
  chip.hbm_capacity = def.hbm_capacity;
  chip.comm_bandwidth = def.comm_bandwidth;
  chip.comm_link = def.comm_link;
  chip.peak_flops_fp4 = def.peak_flops_fp4;
  chip.vmem_capacity = def.vmem_capacity;
  chip.vreg_capacity_per_core = def.vreg_capacity_per_core;
  chip.vmem_bandwidth_vs_hbm = def.vmem_bandwidth_vs_hbm;
  chip.vpu_sublanes = def.vpu_sublanes;
  chip.vpu_lanes = def.vpu_lanes;
  chip.vpu_alus_per_slot = def.vpu_alus_per_slot;
  chip.smem_per_sm = def.smem_per_sm;
  chip.registers_per_sm = def.registers_per_sm;
  chip.tmem_per_sm = def.tmem_per_sm;
  chip.l2_capacity = def.l2_capacity;
  chip.l2_bandwidth = def.l2_bandwidth;
  chip.smem_bytes_per_cycle = def.smem_bytes_per_cycle;
  chip.tensorcores_per_chip = def.tensorcores_per_chip;
  chip.mxus_per_chip = def.mxus_per_chip;
  chip.mxu_size = def.mxu_size;
  chip.sms_per_chip = def.sms_per_chip;
  chip.cuda_cores_per_sm = def.cuda_cores_per_sm;
  chip.tensor_cores_per_sm = def.tensor_cores_per_sm;
  chip.tensor_cores_per_chip = def.tensor_cores_per_chip;
  chip.tensor_core_flops_per_cycle = def.tensor_core_flops_per_cycle;
  chip.clock_hz = def.clock_hz;
  chip.base_clock_hz = def.base_clock_hz;
  chip.boost_clock_hz = def.boost_clock_hz;
  chip.ici_link_bandwidth = def.ici_link_bandwidth;
  chip.ici_link_bandwidth_bidi = def.ici_link_bandwidth_bidi;
  chip.ici_links_per_chip = def.ici_links_per_chip;
  chip.ici_hop_latency = def.ici_hop_latency;
  chip.torus_dims = def.torus_dims;
  chip.pod_topology = def.pod_topology;
  chip.pod_chips = def.pod_chips;
  chip.cube_topology = def.cube_topology;
  chip.wraparound = def.wraparound;
  chip.host_topology = def.host_topology;
  chip.chips_per_host = def.chips_per_host;
  chip.pcie_bandwidth = def.pcie_bandwidth;
  chip.dcn_bandwidth = def.dcn_bandwidth;
  chip.nvlink_bandwidth = def.nvlink_bandwidth;
  chip.nvlink_links_per_gpu = def.nvlink_links_per_gpu;
  chip.nvlink_link_bandwidth = def.nvlink_link_bandwidth;
  chip.nvlink_domain_gpus = def.nvlink_domain_gpus;
  chip.nvswitches_per_node = def.nvswitches_per_node;
  chip.node_egress_bandwidth = def.node_egress_bandwidth;
  chip.nics_per_gpu = def.nics_per_gpu;
  chip.nic_bandwidth = def.nic_bandwidth;
  chip.price_per_hour = def.price_per_hour;
  chip.price_source = def.price_source;
  chip.price_date = def.price_date;
  chip.power = def.power;
  for (const PeakFlops& peak : def.peaks)
    if (peak.flops_per_s != 0) chip.peaks.push_back(peak);
  chip.notes = cite(def.notes);
  return chip;
}

Chip like(const Chip& base, Chip own, const std::string& reason) {
  auto inherit_note = [&](const std::string& field) {
    if (find_note(own, field)) return;
    std::string note = chip_note(base, field);
    own.notes.push_back(
        {field, "as the " + base.name + " (" + reason + ")" + (note.empty() ? "" : ": " + note)});
  };
  if (own.peaks.empty() && !base.peaks.empty()) {
    own.peaks = base.peaks;
    inherit_note("peak_flops");
    for (const PeakFlops& peak : base.peaks) {
      std::string field = std::string(kPeakPrefix) + to_string(peak.dtype);
      if (find_note(base, field)) inherit_note(field);
    }
  }
  const bool own_price = own.price_per_hour != 0;
  for (const FieldDef& def : field_defs()) {
    if (own_price && is_price_detail(def.spec.name)) continue;
    if (def.number && own.*def.number == 0 && base.*def.number != 0) {
      own.*def.number = base.*def.number;
      inherit_note(def.spec.name);
    } else if (def.text && (own.*def.text).empty() && !(base.*def.text).empty()) {
      own.*def.text = base.*def.text;
      inherit_note(def.spec.name);
    }
  }
  return own;
}

}  // namespace catalog_data

const std::vector<Chip>& chips() {
  static const std::vector<Chip> catalog = make_catalog();
  return catalog;
}

const Chip* find_chip(std::string_view id) {
  for (const Chip& chip : chips()) {
    if (chip.id == id) return &chip;
  }
  return nullptr;
}

std::vector<std::string> chip_ids() {
  std::vector<std::string> ids;
  for (const Chip& chip : chips()) ids.push_back(chip.id);
  return ids;
}

double peak_flops(const Chip& chip, Dtype dtype) {
  for (const PeakFlops& peak : chip.peaks) {
    if (peak.dtype == dtype) return peak.flops_per_s;
  }
  return 0;
}

const std::vector<ChipFieldSpec>& chip_field_specs() {
  static const std::vector<ChipFieldSpec> specs = [] {
    std::vector<ChipFieldSpec> list;
    for (const std::string& dtype : dtype_names()) {
      list.push_back({std::string(kPeakPrefix) + dtype, "FLOP/s", "dense " + dtype + " peak", false,
                      false, "Peak " + dtype + " FLOP/s"});
    }
    for (const FieldDef& def : field_defs()) {
      list.push_back(def.spec);
      list.back().applies = applies_to(def.spec.name);
    }
    return list;
  }();
  return specs;
}

const ChipFieldSpec* find_chip_field_spec(std::string_view name) {
  for (const ChipFieldSpec& spec : chip_field_specs()) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

bool is_tpu(const Chip& chip) { return chip.vendor == "Google"; }

std::string_view chip_field_absence(const Chip& chip, const ChipFieldSpec& spec) {
  if (!spec.applies.empty() && spec.applies != (is_tpu(chip) ? "TPUs" : "GPUs"))
    return is_tpu(chip) ? "not applicable to a TPU: GPUs only"
                        : "not applicable to a GPU: TPUs only";
  if (const std::string* note = find_note(chip, spec.name)) return *note;
  return "the catalog has none for this chip";
}

std::string chip_note(const Chip& chip, std::string_view field) {
  if (const std::string* note = find_note(chip, field)) return *note;
  if (field.substr(0, kPeakPrefix.size()) == kPeakPrefix) {
    if (const std::string* note = find_note(chip, "peak_flops")) return *note;
  }
  if (is_price_detail(field)) {
    if (const std::string* note = find_note(chip, "price_per_hour")) return *note;
  }
  return "";
}

ChipFieldRef chip_field_ref(const Chip& chip, std::size_t index) {
  static const std::vector<Dtype> dtypes = [] {
    std::vector<Dtype> list;
    for (const std::string& name : dtype_names()) list.push_back(*parse_dtype(name));
    return list;
  }();
  if (index < dtypes.size()) return {peak_flops(chip, dtypes[index]), nullptr};
  const FieldDef& def = field_defs().at(index - dtypes.size());
  if (def.number) return {chip.*def.number, nullptr};
  return {0, &(chip.*def.text)};
}

std::vector<ChipField> chip_fields(const Chip& chip) {
  std::vector<ChipField> fields;
  const std::vector<ChipFieldSpec>& specs = chip_field_specs();
  for (std::size_t i = 0; i < specs.size(); ++i) {
    ChipFieldRef ref = chip_field_ref(chip, i);
    Value value;
    if (ref.text && !ref.text->empty()) value = Value::of(*ref.text);
    if (!ref.text && ref.number != 0) value = Value::of(ref.number);
    const ChipFieldSpec& spec = specs[i];
    fields.push_back({spec.name, value, spec.unit, spec.description, chip_note(chip, spec.name)});
  }
  return fields;
}

bool set_chip_field(Chip& chip, std::string_view name, double value) {
  if (const FieldDef* def = find_def(name)) {
    if (!def->number) return false;
    chip.*def->number = value;
    return true;
  }
  if (name.substr(0, kPeakPrefix.size()) == kPeakPrefix) {
    std::optional<Dtype> dtype = parse_dtype(name.substr(kPeakPrefix.size()));
    if (!dtype) return false;
    for (PeakFlops& peak : chip.peaks) {
      if (peak.dtype == *dtype) {
        peak.flops_per_s = value;
        return true;
      }
    }
    chip.peaks.push_back({*dtype, value});
    return true;
  }
  return false;
}

}  // namespace scalebook
