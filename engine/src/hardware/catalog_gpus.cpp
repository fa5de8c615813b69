// NVIDIA GPUs, as chapter 12 ("How to Think About GPUs") gives them: its memory table (clock,
// SMs, SMEM, L2, HBM), its FLOPs and bandwidth table, its NVLink generations and node egress
// tables, and the text around them; restated with errata in shared/book/problems/gpus.json.
// Chapter 1 adds exact H100 figures; other chapters are named where they add a number.
#include "catalog_data.h"

namespace scalebook::catalog_data {
namespace {

constexpr const char* kMemTable = "chapter 12, GPU memory table";
constexpr const char* kFlopsTable = "chapter 12, FLOPs and bandwidth table";
constexpr const char* kCostTable = "Google Cloud on-demand, chapter 8";
constexpr const char* kSmem =
    "chapter 12, GPU memory table (its 'kB' read as 1e3 B, as the problem set does)";
constexpr const char* kRegisters =
    "chapter 12: 16,384 32-bit registers per subpartition x 4 = 256 KiB per SM, all generations";
constexpr const char* kNvLink =
    "the NVLink egress of one GPU into its node, one direction (chapter 12)";
constexpr const char* kNvLink3 =
    "chapter 12, NVLink generations table, NVLink 3.0 (Ampere): 12 links x 25 GB/s = 300 GB/s "
    "per GPU each way, 8 GPUs and 6 NVSwitches per node";
constexpr const char* kNvLink4 =
    "chapter 12, NVLink generations table, NVLink 4.0 (Hopper): 18 links x 25 GB/s = 450 GB/s "
    "per GPU each way, 8 GPUs and 4 NVSwitches per node";
constexpr const char* kNvLink5 =
    "chapter 12, NVLink generations table, NVLink 5.0 (Blackwell): 18 links x 50 GB/s = 900 GB/s "
    "per GPU each way; 8 GPUs and 2 NVSwitches per B200 node";

// Shared memory is 32 banks, each serving one 4-byte word a cycle.
constexpr double kSmemBanks = 32;
constexpr const char* kSmemBandwidth =
    "CUDA C++ Programming Guide, shared memory (compute capability 5.x and later, Volta to "
    "Blackwell): 32 banks of 4-byte words, each bank one word a clock cycle, so 128 B a cycle per "
    "SM";

constexpr const char* kSubpartitions =
    "chapter 12: 4 subpartitions per SM, each with one Tensor Core and 32 fp32 CUDA cores";
constexpr const char* kDgxNics =
    "chapter 12: a DGX node has 8 x 400 Gbps ConnectX-7 NICs, one per GPU (50 GB/s each way)";

constexpr const char* kNvLinkFields =
    "nvlink_bandwidth nvlink_links_per_gpu nvlink_link_bandwidth nvlink_domain_gpus "
    "nvswitches_per_node";

constexpr ChipDef kV100 = {
    .id = "v100",
    .name = "NVIDIA V100",
    .vendor = "NVIDIA",
    .hbm_bandwidth = 9e11,
    .hbm_capacity = 32e9,
    .smem_per_sm = 96e3,
    .registers_per_sm = 4 * 16384 * 4,
    .l2_capacity = 6e6,
    .smem_bytes_per_cycle = kSmemBanks * 4,
    .sms_per_chip = 80,
    .cuda_cores_per_sm = 64,
    .tensor_cores_per_sm = 8,
    .tensor_core_flops_per_cycle = 256,
    .base_clock_hz = 1.25e9,
    .boost_clock_hz = 1.38e9,
    .power = 300,
    .notes =
        {
            {"power", "NVIDIA V100 datasheet: 300 W maximum power for the SXM2 module"},
            {"peak_flops_bf16",
             "not given: chapter 12's FLOPs table leaves V100 blank (its Tensor Cores do fp16, not "
             "bf16); give peak_flops to use it"},
            {"hbm_bandwidth", kFlopsTable},
            {"hbm_capacity l2_capacity sms_per_chip base_clock_hz boost_clock_hz", kMemTable},
            {"smem_per_sm", kSmem},
            {"smem_bytes_per_cycle", kSmemBandwidth},
            {"registers_per_sm", kRegisters},
            {"tensor_core_flops_per_cycle", "chapter 12, Tensor Core footnote: 256 on V100"},
            {"comm_bandwidth", "not given: chapter 12's NVLink table starts at NVLink 3.0"},
            {"cuda_cores_per_sm tensor_cores_per_sm",
             "NVIDIA Volta whitepaper: 64 fp32 cores and 8 Tensor Cores per SM"},
            {"nics_per_gpu nic_bandwidth", "not given: chapter 12 has no Volta scale-out network"},
        },
};

constexpr ChipDef kA100 = {
    .id = "a100",
    .name = "NVIDIA A100",
    .vendor = "NVIDIA",
    .peaks = {{Dtype::bf16, 3.12e14}, {Dtype::int8, 6.24e14}},
    .hbm_bandwidth = 2e12,
    .hbm_capacity = 80e9,
    .comm_bandwidth = 3e11,
    .comm_link = "NVLink egress to the NVSwitch, one direction",
    .smem_per_sm = 192e3,
    .registers_per_sm = 4 * 16384 * 4,
    .l2_capacity = 40e6,
    .smem_bytes_per_cycle = kSmemBanks * 4,
    .sms_per_chip = 108,
    .cuda_cores_per_sm = 64,
    .tensor_cores_per_sm = 4,
    .tensor_core_flops_per_cycle = 512,
    .base_clock_hz = 1.1e9,
    .boost_clock_hz = 1.41e9,
    .nvlink_bandwidth = 3e11,
    .nvlink_links_per_gpu = 12,
    .nvlink_link_bandwidth = 2.5e10,
    .nvlink_domain_gpus = 8,
    .nvswitches_per_node = 6,
    .nics_per_gpu = 1,
    .nic_bandwidth = 25e9,
    .power = 400,
    .notes =
        {
            {"power", "NVIDIA A100 datasheet: 400 W maximum TDP for the SXM module"},
            {"peak_flops",
             "dense, NVIDIA's A100 figures (312 TFLOP/s bf16, 624 TOP/s int8), which chapter 12's "
             "table rounds to 3.1e14 and 6.2e14; its 'fp8/int8' column is int8 only here (no fp8 "
             "before Hopper)"},
            {"hbm_bandwidth", kFlopsTable},
            {"hbm_capacity l2_capacity sms_per_chip base_clock_hz boost_clock_hz", kMemTable},
            {"smem_per_sm", kSmem},
            {"smem_bytes_per_cycle", kSmemBandwidth},
            {"registers_per_sm", kRegisters},
            {"tensor_core_flops_per_cycle", "chapter 12, Tensor Core footnote: 512 on A100"},
            {"cuda_cores_per_sm tensor_cores_per_sm",
             "NVIDIA Ampere (A100) whitepaper: 64 fp32 cores and 4 Tensor Cores per SM"},
            {"nics_per_gpu nic_bandwidth",
             "NVIDIA DGX A100 datasheet: 8 x 200 Gb/s ConnectX-6 per node of 8 (25 GB/s each way)"},
            {"comm_bandwidth comm_link", kNvLink},
            {kNvLinkFields, kNvLink3},
        },
};

constexpr ChipDef kH100 = {
    .id = "h100",
    .name = "NVIDIA H100 SXM",
    .vendor = "NVIDIA",
    .peaks = {{Dtype::bf16, 9.89e14},
              {Dtype::fp8, 1.979e15},
              {Dtype::int8, 1.979e15},
              {Dtype::fp32, 6.6e13}},
    .hbm_bandwidth = 3.35e12,
    .hbm_capacity = 80e9,
    .comm_bandwidth = 4.5e11,
    .comm_link = "NVLink egress to the NVSwitch, one direction",
    .smem_per_sm = 256e3,
    .registers_per_sm = 4 * 16384 * 4,
    .l2_capacity = 50e6,
    .l2_bandwidth = 5.5e12,
    .smem_bytes_per_cycle = kSmemBanks * 4,
    .sms_per_chip = 132,
    .cuda_cores_per_sm = 128,
    .tensor_cores_per_sm = 4,
    .tensor_cores_per_chip = 528,
    .tensor_core_flops_per_cycle = 1024,
    .clock_hz = 1.76e9,
    .base_clock_hz = 1.59e9,
    .boost_clock_hz = 1.98e9,
    .nvlink_bandwidth = 4.5e11,
    .nvlink_links_per_gpu = 18,
    .nvlink_link_bandwidth = 2.5e10,
    .nvlink_domain_gpus = 8,
    .nvswitches_per_node = 4,
    .node_egress_bandwidth = 4e11,
    .nics_per_gpu = 1,
    .nic_bandwidth = 5e10,
    .price_per_hour = 10.8,
    .price_source = kCostTable,
    .price_date = "2025-02",
    .power = 700,
    .notes =
        {
            {"power",
             "NVIDIA H100 datasheet: up to 700 W maximum TDP for the SXM module (configurable)"},
            {"peak_flops",
             "dense: half the spec sheet's 2:4-sparse 1.979e15 (bf16) and 3.958e15 (fp8/int8); "
             "chapter 12's table rounds to 9.9e14 and 2e15"},
            {"peak_flops_fp32",
             "chapter 12: ~66 TFLOP/s from the CUDA cores (an FMA counted as 2 FLOPs); Quiz 1 Q2 "
             "gets 33.5e12 at boost counting an FMA as one"},
            {"hbm_bandwidth", "spec sheet and chapter 1: 3.35e12; chapter 12 rounds to 3.4e12"},
            {"hbm_capacity sms_per_chip base_clock_hz boost_clock_hz", kMemTable},
            {"comm_bandwidth", "18 NVLink 4 links x 25 GB/s = 450 GB/s each way"},
            {"comm_link", kNvLink},
            {"smem_per_sm", kSmem},
            {"smem_bytes_per_cycle", kSmemBandwidth},
            {"l2_bandwidth",
             "chapter 12: measured at about 5.5 TB/s (NVIDIA publishes no figure), about 1.6x "
             "HBM's"},
            {"registers_per_sm", kRegisters},
            {"l2_capacity",
             "chapter 12: ~50MB, two 25MB halves each serving half the SMs, joined by a slower "
             "link"},
            {"tensor_cores_per_chip",
             "chapter 12, H100 vs TPU v5p table: 528 (132 SMs x 4 subpartitions)"},
            {"tensor_core_flops_per_cycle",
             "chapter 12: 7.5e12 / 1.76e9 / 4 = ~1024 per Tensor Core per cycle (~an 8x8x8 "
             "matmul)"},
            {"clock_hz",
             "chapter 12, Tensor Core paragraph: 1.76 GHz (between the memory table's 1.59 base "
             "and 1.98 boost)"},
            {kNvLinkFields, kNvLink4},
            {"node_egress_bandwidth",
             "chapter 12, node egress table: 400 GB/s per node (8 x 400 Gbps NICs)"},
            {"cuda_cores_per_sm tensor_cores_per_sm", kSubpartitions},
            {"nics_per_gpu nic_bandwidth", kDgxNics},
            {"price_per_hour",
             "chapter 8: about 10.80 USD per GPU-hour on Google Cloud (Feb 2025)"},
        },
};

constexpr ChipDef kH200 = {
    .id = "h200",
    .name = "NVIDIA H200",
    .vendor = "NVIDIA",
    .peaks = {{Dtype::bf16, 9.89e14}, {Dtype::fp8, 1.979e15}, {Dtype::int8, 1.979e15}},
    .hbm_bandwidth = 4.8e12,
    .hbm_capacity = 141e9,
    .comm_bandwidth = 4.5e11,
    .comm_link = "NVLink egress to the NVSwitch, one direction",
    .smem_per_sm = 256e3,
    .registers_per_sm = 4 * 16384 * 4,
    .l2_capacity = 50e6,
    .l2_bandwidth = kH100.l2_bandwidth,
    .smem_bytes_per_cycle = kSmemBanks * 4,
    .sms_per_chip = 132,
    .cuda_cores_per_sm = 128,
    .tensor_cores_per_sm = 4,
    .tensor_cores_per_chip = 528,
    .tensor_core_flops_per_cycle = 1024,
    .base_clock_hz = 1.59e9,
    .boost_clock_hz = 1.98e9,
    .nvlink_bandwidth = 4.5e11,
    .nvlink_links_per_gpu = 18,
    .nvlink_link_bandwidth = 2.5e10,
    .nvlink_domain_gpus = 8,
    .nvswitches_per_node = 4,
    .nics_per_gpu = 1,
    .nic_bandwidth = 5e10,
    .price_per_hour = 10,
    .price_source = "Google Cloud, approximate, chapter 12",
    .power = 700,
    .notes =
        {
            {"power",
             "NVIDIA H200 datasheet: up to 700 W maximum TDP for the SXM module (configurable)"},
            {"peak_flops",
             "chapter 12's table gives the H100's 9.9e14 and 2.0e15 (same Hopper SMs); we use the "
             "H100's exact dense 9.89e14 and 1.979e15"},
            {"hbm_bandwidth", kFlopsTable},
            {"hbm_capacity l2_capacity sms_per_chip base_clock_hz boost_clock_hz", kMemTable},
            {"comm_bandwidth comm_link", kNvLink},
            {"smem_per_sm", kSmem},
            {"smem_bytes_per_cycle", kSmemBandwidth},
            {"l2_bandwidth",
             "the H100's measured 5.5 TB/s (chapter 12): the same Hopper die, its 50 MB L2 and "
             "132 SMs at the same clocks; only the HBM differs"},
            {"registers_per_sm", kRegisters},
            {"tensor_cores_per_chip",
             "132 SMs x 4, one Tensor Core per subpartition (chapter 12, for Hopper and "
             "Blackwell)"},
            {"tensor_core_flops_per_cycle",
             "chapter 12: 1024 on Hopper (the H100's; the H200 has the same SMs)"},
            {kNvLinkFields, kNvLink4},
            {"price_per_hour", "chapter 12: 'around 10 USD an hour' on Google Cloud"},
            {"cuda_cores_per_sm tensor_cores_per_sm", kSubpartitions},
            {"nics_per_gpu nic_bandwidth",
             "NVIDIA DGX H200 datasheet: 8 x 400 Gb/s ConnectX-7 per node of 8, as the DGX H100"},
            {"price_date", "not given: chapter 12 dates no price"},
        },
};

constexpr ChipDef kH800 = {
    .id = "h800",
    .name = "NVIDIA H800",
    .vendor = "NVIDIA",
    .peaks = {{Dtype::bf16, peak_of(kH100, Dtype::bf16)}, {Dtype::fp8, 1.513e15}},
    .hbm_bandwidth = kH100.hbm_bandwidth,
    .hbm_capacity = kH100.hbm_capacity,
    .comm_bandwidth = 3e11,
    .comm_link = "NVLink egress to the NVSwitch, one direction",
    .nvlink_bandwidth = 3e11,
    .nvlink_domain_gpus = 8,
    .nics_per_gpu = 1,
    .nic_bandwidth = 5e10,
    .notes =
        {
            {"power", "not given: NVIDIA publishes no H800 datasheet; give power=W to set one"},
            {"nics_per_gpu nic_bandwidth",
             "DeepSeek-V3 technical report: nodes of 8 H800 joined by InfiniBand at 50 GB/s per "
             "GPU"},
            {"cuda_cores_per_sm tensor_cores_per_sm", "not given: the book gives no H800 SMs"},
            {"peak_flops_bf16",
             "the H100's: chapter 12's DeepSeek V3 example divides the H100's 990e12 by the "
             "H800's 300e9 (= 3300)"},
            {"peak_flops_fp8",
             "chapter 4, Question 7: 3.026e15 with sparsity (Lenovo spec sheet), halved; not 2x "
             "the "
             "bf16 figure, which the book takes from the H100"},
            {"hbm_bandwidth hbm_capacity",
             "not given for the H800; the book treats it as an H100 with slower NVLink, so the "
             "H100's"},
            {"comm_bandwidth comm_link", kNvLink},
            {"nvlink_bandwidth", "chapter 12: 300 GB/s on DeepSeek V3's H800s (450 on H100)"},
            {"nvlink_domain_gpus",
             "chapter 12: DeepSeek V3's 2048 H800s run 64-way expert parallelism over 8 nodes"},
        },
};

constexpr ChipDef kB200 = {
    .id = "b200",
    .name = "NVIDIA B200",
    .vendor = "NVIDIA",
    .peaks = {{Dtype::bf16, 2.25e15},
              {Dtype::fp8, 4.5e15},
              {Dtype::int8, 4.5e15},
              {Dtype::fp32, 8e13}},
    .hbm_bandwidth = 8e12,
    .hbm_capacity = 192e9,
    .comm_bandwidth = 9e11,
    .comm_link = "NVLink egress to the NVSwitch, one direction",
    .peak_flops_fp4 = 9e15,
    .smem_per_sm = 256e3,
    .registers_per_sm = 4 * 16384 * 4,
    .tmem_per_sm = 256e3,
    .l2_capacity = 126e6,
    .smem_bytes_per_cycle = kSmemBanks * 4,
    .sms_per_chip = 148,
    .cuda_cores_per_sm = 128,
    .tensor_cores_per_sm = 4,
    .tensor_cores_per_chip = 148 * 4,
    .tensor_core_flops_per_cycle = 2048,
    .clock_hz = 1.86e9,
    .boost_clock_hz = 2.1e9,
    .nvlink_bandwidth = 9e11,
    .nvlink_links_per_gpu = 18,
    .nvlink_link_bandwidth = 5e10,
    .nvlink_domain_gpus = 8,
    .nvswitches_per_node = 2,
    .node_egress_bandwidth = 4e11,
    .nics_per_gpu = 1,
    .nic_bandwidth = 5e10,
    .power = 1000,
    .notes =
        {
            {"power", "NVIDIA HGX B200 specifications: up to 1,000 W maximum TDP per GPU"},
            {"peak_flops",
             "chapter 12: the answers use 2250e12 bf16, which the table rounds to 2.3e15; fp8 and "
             "int8 4.5e15 from the table"},
            {"peak_flops_fp32",
             "chapter 12, Quiz 1 Q6: NVIDIA's 80 TFLOP/s of vector fp32 (an FMA counted as 2)"},
            {"peak_flops_fp4", "chapter 12, FLOPs table: 9.0e15"},
            {"hbm_bandwidth",
             "chapter 12's table and answers: 8.0e12; its text says 'about 9TB/s'; we keep the "
             "table's"},
            {"hbm_capacity l2_capacity sms_per_chip", kMemTable},
            {"comm_bandwidth", "18 NVLink 5 links x 50 GB/s = 900 GB/s each way"},
            {"comm_link", kNvLink},
            {"smem_per_sm", kSmem},
            {"smem_bytes_per_cycle", kSmemBandwidth},
            {"registers_per_sm", kRegisters},
            {"tmem_per_sm",
             "chapter 12: Blackwell adds 256kB of Tensor Memory per SM (read as 256e3 B)"},
            {"tensor_cores_per_chip",
             "148 SMs x 4, one Tensor Core per subpartition (chapter 12, for H100 and B200)"},
            {"tensor_core_flops_per_cycle",
             "chapter 12's estimate: 2250e12 / (148 x 4 x 1.86e9) = ~2048"},
            {"clock_hz", "the 1.86 GHz of chapter 12's Tensor Core estimate"},
            {"base_clock_hz", "not given: chapter 12's memory table has '?'"},
            {"boost_clock_hz",
             "chapter 12, Quiz 1 Q6: ~2.1 GHz, estimated from the 80 TFLOP/s vector figure (the "
             "memory table has '?')"},
            {kNvLinkFields, kNvLink5},
            {"node_egress_bandwidth", "chapter 12, node egress table: 400 GB/s per B200 node"},
            {"cuda_cores_per_sm tensor_cores_per_sm", kSubpartitions},
            {"nics_per_gpu nic_bandwidth",
             "chapter 12: 400 GB/s out of an 8-GPU B200 node; NVIDIA DGX B200: 8 x 400 Gb/s "
             "ConnectX-7"},
        },
};

// With every field it leaves unknown taken from the B200 (gpu_chips()).
constexpr ChipDef kGb200 = {
    .id = "gb200",
    .name = "NVIDIA GB200 NVL72 (per GPU)",
    .vendor = "NVIDIA",
    .comm_bandwidth = 9e11,
    .nvlink_bandwidth = 9e11,
    .nvlink_domain_gpus = 72,
    .nvswitches_per_node = 18,
    .node_egress_bandwidth = 3.6e12,
    .nics_per_gpu = 1,
    .nic_bandwidth = 5e10,
    .notes =
        {
            {"nics_per_gpu nic_bandwidth",
             "chapter 12, Appendix A: 4 x 18 links of 400 Gbps out of 72 GPUs, one per GPU"},
            {"comm_bandwidth nvlink_bandwidth",
             "chapter 12: B200 and GB200 GPUs egress 900 GB/s each way into the NVLink domain"},
            {"nvlink_domain_gpus",
             "chapter 12: an NVL72 joins 72 GPUs in one NVLink domain ('in theory up to 576')"},
            {"nvswitches_per_node",
             "chapter 12, NVLink generations table and Appendix A: 18 NVSwitches per NVL72"},
            {"node_egress_bandwidth",
             "chapter 12, Appendix A and node egress table: 4 x 18 x 400 Gbps / 8 = 3.6 TB/s, 9x "
             "an H100 node"},
        },
};

}  // namespace

std::vector<Chip> gpu_chips() {
  std::vector<Chip> list;
  for (const ChipDef* def : {&kV100, &kA100, &kH100, &kH200, &kH800, &kB200})
    list.push_back(make_chip(*def));
  Chip gb200 = like(list.back(), make_chip(kGb200),
                    "chapter 12, Appendix A: a GB200 is 2 B200 GPUs and a Grace CPU");
  list.push_back(std::move(gb200));
  return list;
}

}  // namespace scalebook::catalog_data
