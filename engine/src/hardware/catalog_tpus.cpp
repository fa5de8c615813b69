// Google TPUs, as chapter 2 ("How to Think About TPUs") gives them: its specs table (pod, host,
// HBM, FLOP/s), its ICI table, and the text around them; restated with errata in
// shared/book/problems/tpus.json. Other chapters are named where they add a number.
#include "catalog_data.h"

namespace scalebook::catalog_data {
namespace {

constexpr const char* kSpecTable = "chapter 2, TPU specs table";
constexpr const char* kCostTable = "Google Cloud on-demand, chapter 8";
constexpr const char* kIciTable =
    "chapter 2, ICI table, per link: one way, and bidi = both directions (2x one way; the "
    "outgoing bytes along one axis when that axis wraps)";
constexpr const char* kCommIsIci =
    "the ICI table's one-way bandwidth of one link (chapter 1 uses it for two-chip examples)";
constexpr const char* kHopLatency =
    "chapter 3: 'typically around 1us' per ICI hop for TPUs in general; chapter 2 Q5 assumes "
    "1 us on v5e";
constexpr const char* kPcieTypical =
    "chapter 2, after the ICI table: about 1.6e10 B/s per TPU, the typical figure (chapter 2 "
    "names only v6e as faster)";
constexpr const char* kDcnTypical =
    "chapter 2: about 6.25e9 B/s per TPU (the v5p figure, given as typical) through 1-2 NICs "
    "per host";
constexpr const char* kMxu128 = "chapter 2, Appendix B: 128x128 on every generation before v6e";
constexpr const char* kMegacore =
    "chapter 2: v4, v5p and v6 chips pair two TensorCores that share HBM (megacore)";
constexpr const char* kTorus2d =
    "chapter 2, networking: v2, v3, v5e and v6e link to 4 nearest neighbours (2D torus)";
constexpr const char* kTorus3d =
    "chapter 2, networking: v4 and v5p link to 6 neighbours (3D torus)";
constexpr const char* kCubes =
    "chapter 2, networking: pods are built from reconfigurable 4x4x4 cubes joined by optical "
    "switches, which keep ICI bandwidth";

constexpr const char* kWrap2d =
    "an axis wraps only when it spans the full 16 chips (an 8x16 wraps on its long axis); "
    "shorter axes do not; no slice exceeds 16x16 (beyond it, DCN)";
constexpr const char* kWrap2dNote =
    "chapter 2, networking (v5e and v6e pods); chapter 3 repeats it for v5e";
constexpr const char* kWrap3d =
    "a slice of whole 4x4x4 cubes (every axis a multiple of 4, e.g. 4x4x4, 4x4x8) wraps on every "
    "axis; smaller slices (2x2x1, 2x2x2, 2x2x4) have no wraparound, which typically doubles "
    "collective time";
constexpr const char* kWrap3dNote = "chapter 2, networking (v4 and v5p); chapter 3, Question 2";

constexpr const char* kIciFields = "ici_link_bandwidth ici_link_bandwidth_bidi";

constexpr const char* kNoPower =
    "not given: Google publishes no per-chip power for this TPU; give power=W to set one";

constexpr ChipDef kTpuV3 = {
    .id = "tpu-v3",
    .name = "TPU v3",
    .vendor = "Google",
    .peaks = {{Dtype::bf16, 1.4e14}, {Dtype::int8, 1.4e14}},
    .hbm_bandwidth = 9e11,
    .hbm_capacity = 32e9,
    .comm_bandwidth = 1e11,
    .comm_link = "ICI link, one direction",
    .tensorcores_per_chip = 2,
    .mxus_per_chip = 4,
    .mxu_size = 128,
    .ici_link_bandwidth = 1e11,
    .ici_link_bandwidth_bidi = 2e11,
    .ici_links_per_chip = 4,
    .ici_hop_latency = 1e-6,
    .torus_dims = 2,
    .pod_topology = "32x32",
    .pod_chips = 1024,
    .wraparound = "2D torus with wraparound edge links",
    .host_topology = "4x2",
    .chips_per_host = 4,
    .pcie_bandwidth = 1.6e10,
    .dcn_bandwidth = 6.25e9,
    .notes =
        {
            {"power", kNoPower},
            {"peak_flops", "chapter 2 spec table; int8 runs at the bf16 rate on v3"},
            {"hbm_bandwidth hbm_capacity pod_topology", kSpecTable},
            {"pod_chips", "32 x 32, from the specs table's pod size"},
            {kIciFields, kIciTable},
            {"comm_bandwidth comm_link", kCommIsIci},
            {"tensorcores_per_chip",
             "chapter 2: v3 and older have two TensorCores with separate memory, seen as two "
             "accelerators"},
            {"mxus_per_chip", "chapter 2, Appendix B: 2 MXUs per TensorCore on v3, 2 cores"},
            {"mxu_size", kMxu128},
            {"ici_links_per_chip torus_dims wraparound", kTorus2d},
            {"ici_hop_latency", kHopLatency},
            {"host_topology", "chapter 2 specs table: host size 4x2"},
            {"chips_per_host",
             "chapter 2 text: 4 chips (8 cores) on a tray per host; the table's host size 4x2 "
             "counts "
             "v3's 8 cores, each its own device, so we take 4 chips"},
            {"pcie_bandwidth", kPcieTypical},
            {"dcn_bandwidth", kDcnTypical},
        },
};

constexpr ChipDef kTpuV4p = {
    .id = "tpu-v4p",
    .name = "TPU v4p",
    .vendor = "Google",
    .peaks = {{Dtype::bf16, 2.75e14}, {Dtype::int8, 2.75e14}},
    .hbm_bandwidth = 1.2e12,
    .hbm_capacity = 32e9,
    .comm_bandwidth = 4.5e10,
    .comm_link = "ICI link, one direction",
    .vreg_capacity_per_core = 32 * 8 * 128 * 4,
    .tensorcores_per_chip = 2,
    .mxus_per_chip = 8,
    .mxu_size = 128,
    .ici_link_bandwidth = 4.5e10,
    .ici_link_bandwidth_bidi = 9e10,
    .ici_links_per_chip = 6,
    .ici_hop_latency = 1e-6,
    .torus_dims = 3,
    .pod_topology = "16x16x16",
    .pod_chips = 4096,
    .cube_topology = "4x4x4",
    .wraparound = kWrap3d,
    .host_topology = "2x2x1",
    .chips_per_host = 4,
    .pcie_bandwidth = 1.6e10,
    .dcn_bandwidth = 6.25e9,
    .power = 192,
    .notes =
        {
            {"power", "Jouppi et al., TPU v4 (ISCA 2023): 192 W maximum per chip"},
            {"peak_flops", "chapter 2 spec table; int8 runs at the bf16 rate on v4p"},
            {"hbm_bandwidth hbm_capacity pod_topology host_topology", kSpecTable},
            {"pod_chips", "16 x 16 x 16, the v4 superpod of chapter 2"},
            {"comm_bandwidth", "ICI table: 4.5e10 B/s per link one way, 9e10 both ways"},
            {"comm_link", kCommIsIci},
            {kIciFields, kIciTable},
            {"vreg_capacity_per_core",
             "chapter 2, Appendix A: TPU v4 has 32 VREGs of 8 x 128 x 4 B (v5p has 64)"},
            {"tensorcores_per_chip", kMegacore},
            {"mxus_per_chip", "chapter 2, Appendix B: 4 MXUs per TensorCore on v4, 2 cores"},
            {"mxu_size", kMxu128},
            {"ici_links_per_chip torus_dims", kTorus3d},
            {"ici_hop_latency", kHopLatency},
            {"cube_topology", kCubes},
            {"wraparound", kWrap3dNote},
            {"chips_per_host", "chapter 2: training chips sit 4 to a tray, one tray per host"},
            {"pcie_bandwidth", "chapter 2: TPU v4 PCIe is 16 GB/s each way, ~100x below HBM"},
            {"dcn_bandwidth", kDcnTypical},
        },
};

constexpr ChipDef kTpuV5p = {
    .id = "tpu-v5p",
    .name = "TPU v5p",
    .vendor = "Google",
    .peaks = {{Dtype::bf16, 4.59e14}, {Dtype::int8, 9.18e14}},
    .hbm_bandwidth = 2.8e12,
    .hbm_capacity = 96e9,
    .comm_bandwidth = 9e10,
    .comm_link = "ICI link, one direction",
    .vmem_capacity = 128e6,
    .vreg_capacity_per_core = 64 * 8 * 128 * 4,
    .vpu_sublanes = 8,
    .vpu_lanes = 128,
    .vpu_alus_per_slot = 4,
    .tensorcores_per_chip = 2,
    .mxus_per_chip = 8,
    .mxu_size = 128,
    .clock_hz = 1.75e9,
    .ici_link_bandwidth = 9e10,
    .ici_link_bandwidth_bidi = 1.8e11,
    .ici_links_per_chip = 6,
    .ici_hop_latency = 1e-6,
    .torus_dims = 3,
    .pod_topology = "16x20x28",
    .pod_chips = 8960,
    .cube_topology = "4x4x4",
    .wraparound = kWrap3d,
    .host_topology = "2x2x1",
    .chips_per_host = 4,
    .pcie_bandwidth = 1.6e10,
    .dcn_bandwidth = 6.25e9,
    .price_per_hour = 4.2,
    .price_source = kCostTable,
    .price_date = "2025-02",
    .notes =
        {
            {"power", kNoPower},
            {"peak_flops",
             "chapter 2 spec table (4.59e14); the text rounds to 5e14 per chip (2.5e14 per core) "
             "and chapter 5 once to 4.6e14; we keep the table's"},
            {"hbm_bandwidth hbm_capacity pod_topology host_topology", kSpecTable},
            {"comm_bandwidth", "ICI table: 9e10 B/s per link one way, 1.8e11 both ways"},
            {"comm_link", kCommIsIci},
            {kIciFields,
             "chapter 2, ICI table (9e10 one way, 1.8e11 bidi); the text's '90 GB/s per axis' "
             "agrees, and it notes the GCP page's 100 GB/s; we keep the table's"},
            {"vmem_capacity",
             "chapter 12, chip comparison table: 128MB (read as 1.28e8 B); chapter 12 Quiz 1 says "
             "'the 120MB of a modern TPU's VMEM'"},
            {"vreg_capacity_per_core",
             "chapter 2, Appendix A: 64 VREGs x 8 x 128 x 4 B = 256 kB per core, 2x per chip"},
            {"vpu_sublanes vpu_lanes vpu_alus_per_slot",
             "chapter 2, Appendix A: the VPU works on (8, 128) registers with 4 independent ALUs "
             "per slot on v5"},
            {"tensorcores_per_chip", kMegacore},
            {"mxus_per_chip",
             "chapter 2, Appendix A: one scalar core drives 4 MXUs, 2 cores; chapter 12's "
             "comparison table: 8 MXUs"},
            {"mxu_size", kMxu128},
            {"clock_hz", "chapter 2, Appendix A pop quiz: about 1.75 GHz"},
            {"ici_links_per_chip torus_dims", kTorus3d},
            {"ici_hop_latency", kHopLatency},
            {"pod_chips", "16 x 20 x 28 = 8960 (chapter 2 Q2, chapter 5)"},
            {"cube_topology", kCubes},
            {"wraparound", kWrap3dNote},
            {"chips_per_host",
             "chapter 2: 4 chips per tray and host; chapter 5: 2240 hosts per 8960-chip pod"},
            {"pcie_bandwidth", kPcieTypical},
            {"dcn_bandwidth",
             "chapter 2: 6.25e9 B/s per TPU; chapter 5: 25 GB/s per host over 4 chips"},
            {"price_per_hour",
             "chapter 8: 4.20 USD per chip-hour on Google Cloud (Feb 2025); chapter 12 says "
             "'around 4 USD'; we keep the dated, exact one"},
        },
};

constexpr ChipDef kTpuV5e = {
    .id = "tpu-v5e",
    .name = "TPU v5e",
    .vendor = "Google",
    .peaks = {{Dtype::bf16, 1.97e14}, {Dtype::int8, 3.94e14}},
    .hbm_bandwidth = 8.2e11,
    .hbm_capacity = 16e9,
    .comm_bandwidth = 4.5e10,
    .comm_link = "ICI link, one direction",
    .vmem_capacity = 128 * 1024 * 1024,
    .vmem_bandwidth_vs_hbm = 22,
    .tensorcores_per_chip = 1,
    .mxus_per_chip = 4,
    .mxu_size = 128,
    .clock_hz = 1.5e9,
    .ici_link_bandwidth = 4.5e10,
    .ici_link_bandwidth_bidi = 9e10,
    .ici_links_per_chip = 4,
    .ici_hop_latency = 1e-6,
    .torus_dims = 2,
    .pod_topology = "16x16",
    .pod_chips = 256,
    .wraparound = kWrap2d,
    .host_topology = "4x2",
    .chips_per_host = 8,
    .pcie_bandwidth = 1.6e10,
    .dcn_bandwidth = 3.125e9,
    .price_per_hour = 1.2,
    .price_source = kCostTable,
    .price_date = "2025-02",
    .notes =
        {
            {"power", kNoPower},
            {"peak_flops",
             "chapter 2 spec table; chapter 2 text rounds to 2e14 (bf16) and 4e14 (int8), chapter "
             "7 says '400 TOPs/s'; we keep the table's"},
            {"hbm_bandwidth pod_topology host_topology", kSpecTable},
            {"hbm_capacity",
             "spec table says 16GB and the book computes with 16e9; the text links 16 GiB"},
            {"comm_bandwidth", "ICI table: 4.5e10 B/s per link one way, 9e10 both ways"},
            {"comm_link", kCommIsIci},
            {kIciFields, kIciTable},
            {"vmem_capacity", "chapter 2: 128 MiB of VMEM"},
            {"vmem_bandwidth_vs_hbm",
             "chapter 2: VMEM-to-MXU bandwidth is about 22x HBM's (an estimate, not a spec)"},
            {"tensorcores_per_chip", "chapter 2: inference chips such as v5e have one TensorCore"},
            {"mxus_per_chip", "chapter 2: 4 MXUs x ~5e13 FLOP/s = ~2e14 per v5e chip"},
            {"mxu_size", kMxu128},
            {"clock_hz", "chapter 2, MXU example: ~5e13 FLOP/s per MXU at 1.5 GHz"},
            {"ici_links_per_chip torus_dims", kTorus2d},
            {"ici_hop_latency", kHopLatency},
            {"pod_chips", "16 x 16 (chapter 2 Q2)"},
            {"wraparound", kWrap2dNote},
            {"chips_per_host", "chapter 2: two trays of 4 per host, one core per chip: 8 chips"},
            {"pcie_bandwidth", kPcieTypical},
            {"dcn_bandwidth", "chapter 2: 3.125e9 B/s per v5e chip"},
            {"price_per_hour", "chapter 8: 1.20 USD per chip-hour on Google Cloud (Feb 2025)"},
        },
};

constexpr ChipDef kTpuV6e = {
    .id = "tpu-v6e",
    .name = "TPU v6e",
    .vendor = "Google",
    .peaks = {{Dtype::bf16, 9.2e14}, {Dtype::int8, 1.84e15}},
    .hbm_bandwidth = 1.6e12,
    .hbm_capacity = 32e9,
    .comm_bandwidth = 9e10,
    .comm_link = "ICI link, one direction",
    .mxu_size = 256,
    .ici_link_bandwidth = 9e10,
    .ici_link_bandwidth_bidi = 1.8e11,
    .ici_links_per_chip = 4,
    .ici_hop_latency = 1e-6,
    .torus_dims = 2,
    .pod_topology = "16x16",
    .pod_chips = 256,
    .wraparound = kWrap2d,
    .host_topology = "4x2",
    .chips_per_host = 8,
    .pcie_bandwidth = 3.2e10,
    .dcn_bandwidth = 1.25e10,
    .notes =
        {
            {"power", kNoPower},
            {"peak_flops",
             "chapter 2 spec table (9.20e14); chapter 1's text uses 9.1e14; we keep the table's"},
            {"hbm_bandwidth", "chapter 2 spec table; chapter 1's text: 'about 1.6TB/s'"},
            {"hbm_capacity pod_topology host_topology", kSpecTable},
            {"comm_bandwidth", "ICI table: 9e10 B/s per link one way, 1.8e11 both ways"},
            {"comm_link", kCommIsIci},
            {kIciFields, kIciTable},
            {"tensorcores_per_chip",
             "not given: chapter 2 says 'v6 chips' have two cores, but v6e is hosted 8 to a host "
             "(4x2) like the one-core v5e, so we leave it open"},
            {"mxu_size", "chapter 2: v6e (Trillium) has a 256x256 MXU; pad dimensions to 256"},
            {"ici_links_per_chip torus_dims", kTorus2d},
            {"ici_hop_latency", kHopLatency},
            {"pod_chips", "16 x 16, from the specs table's pod size"},
            {"wraparound", kWrap2dNote},
            {"chips_per_host", "4 x 2, from the specs table's host size (as v5e)"},
            {"pcie_bandwidth", "chapter 2, after the ICI table: 3.2e10 B/s on v6e"},
            {"dcn_bandwidth", "chapter 2: 1.25e10 B/s per chip on v6e and TPU7x"},
        },
};

constexpr ChipDef kTpu7x = {
    .id = "tpu7x",
    .name = "TPU7x",
    .vendor = "Google",
    .peaks = {{Dtype::bf16, 2.3e15}, {Dtype::int8, 4.61e15}},
    .hbm_bandwidth = 7.4e12,
    .hbm_capacity = 192e9,
    .comm_bandwidth = 9e10,
    .comm_link = "ICI link, one direction",
    .tensorcores_per_chip = 2,
    .ici_link_bandwidth = 9e10,
    .ici_link_bandwidth_bidi = 1.8e11,
    .ici_hop_latency = 1e-6,
    .torus_dims = 3,
    .pod_topology = "4x4x576",
    .pod_chips = 9216,
    .host_topology = "2x2x1",
    .chips_per_host = 4,
    .dcn_bandwidth = 1.25e10,
    .notes =
        {
            {"power", kNoPower},
            {"peak_flops", "chapter 2 spec table (2.30e15 bf16, 4.61e15 int8)"},
            {"hbm_bandwidth hbm_capacity pod_topology host_topology", kSpecTable},
            {"comm_bandwidth", "ICI table: 9e10 B/s per link one way, 1.8e11 both ways"},
            {"comm_link", kCommIsIci},
            {kIciFields, kIciTable},
            {"tensorcores_per_chip",
             "chapter 2: TPU v7 drops megacore and joins its two TensorCores by a fast link"},
            {"mxu_size", "not given: the book's 128x128 covers generations before v6e only"},
            {"ici_links_per_chip", "not given: the book counts neighbours for v2-v6e only"},
            {"ici_hop_latency", kHopLatency},
            {"torus_dims", "three axes in the specs table's pod size 4x4x576"},
            {"pod_chips", "4 x 4 x 576, from the specs table's pod size"},
            {"wraparound", "not given for TPU7x"},
            {"chips_per_host", "2 x 2 x 1, from the specs table's host size"},
            {"pcie_bandwidth",
             "not given: the book's typical 1.6e10 predates TPU7x and it names only v6e"},
            {"dcn_bandwidth", "chapter 2: 1.25e10 B/s per chip on v6e and TPU7x"},
        },
};

}  // namespace

std::vector<Chip> tpu_chips() {
  std::vector<Chip> list;
  for (const ChipDef* def : {&kTpuV3, &kTpuV4p, &kTpuV5p, &kTpuV5e, &kTpuV6e, &kTpu7x})
    list.push_back(make_chip(*def));
  return list;
}

}  // namespace scalebook::catalog_data
