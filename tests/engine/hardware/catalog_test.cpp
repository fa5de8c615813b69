#include "scalebook/hardware/catalog.h"

#include <algorithm>
#include <set>
#include <sstream>

#include "helpers.h"
#include "scalebook/hardware/chip_inputs.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

const Chip& chip(const std::string& id) {
  const Chip* found = find_chip(id);
  REQUIRE(found != nullptr);
  return *found;
}

Value field(const Chip& c, const std::string& name) {
  for (const ChipField& f : chip_fields(c)) {
    if (f.name == name) return f.value;
  }
  FAIL("no field " << name);
  return Value::none();
}

double product_of_topology(const std::string& topology) {
  std::istringstream in(topology);
  double product = 1;
  std::string part;
  while (std::getline(in, part, 'x')) product *= std::stod(part);
  return product;
}

}  // namespace

TEST_CASE("the catalog keeps the five seed chips first, then TPUs and GPUs oldest first",
          "[catalog]") {
  CHECK(chip_ids() == std::vector<std::string>{"tpu-v5e", "tpu-v5p", "tpu-v6e", "tpu-v4p", "h100",
                                               "tpu-v3", "tpu7x", "v100", "a100", "h200", "h800",
                                               "b200", "gb200"});
}

TEST_CASE("every chip has HBM, and a bf16 peak unless its note says the book gives none",
          "[catalog]") {
  for (const Chip& c : chips()) {
    INFO(c.id);
    CHECK(c.hbm_bandwidth > 0);
    CHECK(c.hbm_capacity > 0);
    CHECK_FALSE(chip_note(c, "peak_flops_bf16").empty());
    if (c.id == "v100") {
      CHECK(peak_flops(c, Dtype::bf16) == 0);
      CHECK(chip_note(c, "peak_flops_bf16").find("not given") == 0);
    } else {
      CHECK(peak_flops(c, Dtype::bf16) > 0);
    }
  }
}

TEST_CASE("every value in the catalog says where it comes from", "[catalog]") {
  for (const Chip& c : chips()) {
    for (const ChipField& f : chip_fields(c)) {
      INFO(c.id << " " << f.name);
      if (!f.value.is_none()) CHECK_FALSE(f.note.empty());
    }
  }
}

TEST_CASE("every source note names a catalog field, once", "[catalog]") {
  for (const Chip& c : chips()) {
    std::set<std::string> seen;
    for (const SourceNote& n : c.notes) {
      INFO(c.id << " " << n.field);
      CHECK((n.field == "peak_flops" || find_chip_field_spec(n.field) != nullptr));
      CHECK(seen.insert(n.field).second);
      CHECK_FALSE(n.note.empty());
    }
  }
}

TEST_CASE("the seed chips keep their values exactly", "[catalog]") {
  const Chip& v5e = chip("tpu-v5e");
  CHECK(peak_flops(v5e, Dtype::bf16) == 1.97e14);
  CHECK(peak_flops(v5e, Dtype::int8) == 3.94e14);
  CHECK(v5e.hbm_bandwidth == 8.2e11);
  CHECK(v5e.comm_bandwidth == 4.5e10);
  CHECK(peak_flops(chip("tpu-v4p"), Dtype::bf16) == 2.75e14);
  const Chip& h100 = chip("h100");
  CHECK(peak_flops(h100, Dtype::fp8) == 1.979e15);
  CHECK(peak_flops(h100, Dtype::int8) == 1.979e15);
  CHECK(h100.comm_bandwidth == 4.5e11);
}

TEST_CASE("where the book gives two values the catalog uses the spec table's", "[catalog]") {
  CHECK(peak_flops(chip("tpu-v5p"), Dtype::bf16) == 4.59e14);  // text: 5e14
  CHECK(peak_flops(chip("tpu-v6e"), Dtype::bf16) == 9.2e14);   // chapter 1: 9.1e14
  CHECK(peak_flops(chip("h100"), Dtype::bf16) == 9.89e14);     // chapter 12: 9.9e14
  CHECK(chip("h100").hbm_bandwidth == 3.35e12);                // chapter 12: 3.4e12
  CHECK(chip("b200").hbm_bandwidth == 8e12);                   // chapter 12 text: 9e12
  CHECK(peak_flops(chip("b200"), Dtype::bf16) == 2.25e15);     // chapter 12 table: 2.3e15
  CHECK(chip("tpu-v5p").price_per_hour == 4.2);                // chapter 12: 'around $4'
}

TEST_CASE("the new TPUs carry chapter 2's specs and ICI tables", "[catalog]") {
  const Chip& v3 = chip("tpu-v3");
  CHECK(peak_flops(v3, Dtype::bf16) == Approx(1.4e14).epsilon(1e-9));
  CHECK(peak_flops(v3, Dtype::int8) == Approx(1.4e14).epsilon(1e-9));
  CHECK(v3.hbm_bandwidth == Approx(9e11).epsilon(1e-9));
  CHECK(v3.hbm_capacity == Approx(32e9).epsilon(1e-9));
  CHECK(v3.ici_link_bandwidth == Approx(1e11).epsilon(1e-9));
  CHECK(v3.pod_topology == "32x32");
  const Chip& v7 = chip("tpu7x");
  CHECK(peak_flops(v7, Dtype::bf16) == Approx(2.3e15).epsilon(1e-9));
  CHECK(peak_flops(v7, Dtype::int8) == Approx(4.61e15).epsilon(1e-9));
  CHECK(v7.hbm_bandwidth == Approx(7.4e12).epsilon(1e-9));
  CHECK(v7.hbm_capacity == Approx(192e9).epsilon(1e-9));
  CHECK(v7.ici_link_bandwidth_bidi == Approx(1.8e11).epsilon(1e-9));
  CHECK(v7.dcn_bandwidth == Approx(1.25e10).epsilon(1e-9));
  CHECK(v7.pod_topology == "4x4x576");
  CHECK(v7.host_topology == "2x2x1");
  CHECK(chip("tpu-v6e").mxu_size == 256);
  CHECK(chip("tpu-v6e").pcie_bandwidth == Approx(3.2e10).epsilon(1e-9));
  CHECK(chip("tpu-v5e").dcn_bandwidth == Approx(3.125e9).epsilon(1e-9));
  CHECK(chip("tpu-v5e").vmem_capacity == 128.0 * 1024 * 1024);
}

TEST_CASE("every TPU's links, pods and hosts are consistent", "[catalog]") {
  for (const Chip& c : chips()) {
    if (c.vendor != "Google") continue;
    INFO(c.id);
    CHECK(c.ici_link_bandwidth_bidi == 2 * c.ici_link_bandwidth);
    CHECK(c.comm_bandwidth == c.ici_link_bandwidth);
    CHECK(c.pod_chips == product_of_topology(c.pod_topology));
    CHECK(c.torus_dims ==
          static_cast<double>(std::count(c.pod_topology.begin(), c.pod_topology.end(), 'x') + 1));
    if (c.ici_links_per_chip > 0) CHECK(c.ici_links_per_chip == 2 * c.torus_dims);
  }
}

TEST_CASE("pod totals match chapter 2's Question 2", "[catalog]") {
  const Chip& v5e = chip("tpu-v5e");
  CHECK(v5e.pod_chips / v5e.chips_per_host == 32);  // hosts
  CHECK(v5e.pod_chips * peak_flops(v5e, Dtype::bf16) == Approx(5.1e16).epsilon(0.02));
  CHECK(v5e.pod_chips * v5e.hbm_capacity == Approx(4e12).epsilon(0.03));
  const Chip& v5p = chip("tpu-v5p");
  CHECK(v5p.pod_chips == 8960);
  CHECK(v5p.pod_chips / v5p.chips_per_host == 2240);
  CHECK(v5p.pod_chips * v5p.tensorcores_per_chip == 17920);
  CHECK(v5p.pod_chips * peak_flops(v5p, Dtype::bf16) == Approx(4.1e18).epsilon(0.01));
  CHECK(v5p.pod_chips * v5p.hbm_capacity == Approx(860e12).epsilon(0.01));
}

TEST_CASE("the MXU numbers give chapter 2's peak: 4 MXUs x 2*128*128 at 1.5 GHz on v5e",
          "[catalog]") {
  const Chip& v5e = chip("tpu-v5e");
  double per_mxu = 2 * v5e.mxu_size * v5e.mxu_size * v5e.clock_hz;
  CHECK(per_mxu == Approx(5e13).epsilon(0.02));
  CHECK(v5e.mxus_per_chip * per_mxu == Approx(peak_flops(v5e, Dtype::bf16)).epsilon(0.01));
}

TEST_CASE("the new GPUs carry chapter 12's tables", "[catalog]") {
  const Chip& v100 = chip("v100");
  CHECK(v100.hbm_bandwidth == Approx(9e11).epsilon(1e-9));
  CHECK(v100.sms_per_chip == 80);
  CHECK(v100.l2_capacity == Approx(6e6).epsilon(1e-9));
  const Chip& a100 = chip("a100");
  CHECK(peak_flops(a100, Dtype::bf16) == Approx(3.1e14).epsilon(0.01));
  CHECK(peak_flops(a100, Dtype::int8) == Approx(6.2e14).epsilon(0.01));
  CHECK(peak_flops(a100, Dtype::fp8) == 0);  // no fp8 before Hopper
  CHECK(a100.hbm_bandwidth == Approx(2e12).epsilon(1e-9));
  CHECK(a100.smem_per_sm == Approx(192e3).epsilon(1e-9));
  const Chip& h200 = chip("h200");
  CHECK(peak_flops(h200, Dtype::bf16) == Approx(9.9e14).epsilon(0.01));
  CHECK(peak_flops(h200, Dtype::fp8) == Approx(2e15).epsilon(0.02));
  CHECK(h200.hbm_bandwidth == Approx(4.8e12).epsilon(1e-9));
  CHECK(h200.hbm_capacity == Approx(141e9).epsilon(1e-9));
  CHECK(h200.price_per_hour == 10);
  const Chip& b200 = chip("b200");
  CHECK(peak_flops(b200, Dtype::bf16) == Approx(2.3e15).epsilon(0.03));
  CHECK(peak_flops(b200, Dtype::fp8) == Approx(4.5e15).epsilon(1e-9));
  CHECK(b200.peak_flops_fp4 == Approx(9e15).epsilon(1e-9));
  CHECK(b200.hbm_capacity == Approx(192e9).epsilon(1e-9));
  CHECK(b200.l2_capacity == Approx(126e6).epsilon(1e-9));
  CHECK(b200.sms_per_chip == 148);
}

TEST_CASE("chapter 12's derived GPU numbers follow from the catalog", "[catalog]") {
  const Chip& h100 = chip("h100");
  const Chip& b200 = chip("b200");
  // Quiz 1 Q3: critical intensity 295 (H100) and 281 (B200).
  CHECK(peak_flops(h100, Dtype::bf16) / h100.hbm_bandwidth == Approx(295).epsilon(0.01));
  CHECK(peak_flops(b200, Dtype::bf16) / b200.hbm_bandwidth == Approx(281).epsilon(0.01));
  // Tensor Core estimate: 148 x 4 x 2048 x 1.86e9 = 2.25e15.
  CHECK(b200.tensor_cores_per_chip * b200.tensor_core_flops_per_cycle * b200.clock_hz ==
        Approx(peak_flops(b200, Dtype::bf16)).epsilon(0.01));
  // Data parallelism needs 2200 tokens per GPU in a node, 2475 beyond it.
  CHECK(peak_flops(h100, Dtype::bf16) / h100.nvlink_bandwidth == Approx(2200).epsilon(0.01));
  CHECK(peak_flops(h100, Dtype::bf16) / h100.node_egress_bandwidth == Approx(2475).epsilon(0.01));
  // DeepSeek V3 on H800s: 990e12 / 300e9 = 3300.
  const Chip& h800 = chip("h800");
  CHECK(peak_flops(h800, Dtype::bf16) / h800.nvlink_bandwidth == Approx(3300).epsilon(0.01));
  CHECK(peak_flops(h800, Dtype::fp8) == Approx(1.513e15).epsilon(1e-9));
}

TEST_CASE("every GPU's NVLink bandwidth is its links times the link bandwidth", "[catalog]") {
  for (const Chip& c : chips()) {
    if (c.nvlink_links_per_gpu == 0) continue;
    INFO(c.id);
    CHECK(c.nvlink_links_per_gpu * c.nvlink_link_bandwidth == Approx(c.nvlink_bandwidth));
    CHECK(c.comm_bandwidth == c.nvlink_bandwidth);
  }
}

TEST_CASE("a GB200 is a B200 in a 72-GPU NVLink domain with 9x the node egress", "[catalog]") {
  const Chip& gb200 = chip("gb200");
  const Chip& b200 = chip("b200");
  CHECK(gb200.nvlink_domain_gpus == 72);
  CHECK(gb200.node_egress_bandwidth == Approx(9 * chip("h100").node_egress_bandwidth));
  CHECK(peak_flops(gb200, Dtype::bf16) == peak_flops(b200, Dtype::bf16));
  CHECK(gb200.hbm_bandwidth == b200.hbm_bandwidth);
  CHECK(chip_note(gb200, "hbm_bandwidth").find("as the NVIDIA B200 (") == 0);
  // Each inherited value keeps the B200's own note for it, not the chip's general one.
  std::string fp32 = chip_note(gb200, "peak_flops_fp32");
  std::string from_b200 = chip_note(b200, "peak_flops_fp32");
  REQUIRE(fp32.size() > from_b200.size());
  CHECK(fp32.substr(fp32.size() - from_b200.size()) == from_b200);
}

TEST_CASE("the book's prices give its FLOPs per dollar", "[catalog]") {
  auto flops_per_dollar = [](const Chip& c) {
    return peak_flops(c, Dtype::bf16) * 3600 / c.price_per_hour;
  };
  CHECK(flops_per_dollar(chip("tpu-v5e")) == Approx(5.91e17).epsilon(0.01));  // prints 5.8e17
  CHECK(flops_per_dollar(chip("tpu-v5p")) == Approx(3.9e17).epsilon(0.01));
  CHECK(flops_per_dollar(chip("h100")) == Approx(3.3e17).epsilon(0.01));
}

TEST_CASE("chip_fields lists every field in one order with units and notes", "[catalog]") {
  const std::vector<ChipFieldSpec>& specs = chip_field_specs();
  for (const Chip& c : chips()) {
    std::vector<ChipField> fields = chip_fields(c);
    REQUIRE(fields.size() == specs.size());
    for (size_t i = 0; i < specs.size(); ++i) CHECK(fields[i].name == specs[i].name);
  }
  const Chip& v5p = chip("tpu-v5p");
  CHECK(field(v5p, "peak_flops_bf16").number == 4.59e14);
  CHECK(field(v5p, "peak_flops_fp8").is_none());
  CHECK(field(v5p, "pod_topology").text == "16x20x28");
  CHECK(field(v5p, "sms_per_chip").is_none());
  CHECK(field(v5p, "comm_link").text == "ICI link, one direction");
  const ChipFieldSpec* spec = find_chip_field_spec("pod_chips");
  REQUIRE(spec != nullptr);
  CHECK(spec->unit == "chips");
  CHECK(spec->whole);
  CHECK(chip_note(v5p, "peak_flops_int8") == chip_note(v5p, "peak_flops"));
}

TEST_CASE("set_chip_field changes a copy's numbers by name", "[catalog]") {
  Chip mine = chip("tpu-v5e");
  CHECK(set_chip_field(mine, "mxu_size", 256));
  CHECK(set_chip_field(mine, "peak_flops_fp8", 4e14));
  CHECK(set_chip_field(mine, "peak_flops_bf16", 2e14));
  CHECK_FALSE(set_chip_field(mine, "pod_topology", 1));
  CHECK_FALSE(set_chip_field(mine, "peak_flops_fp16", 1));
  CHECK(mine.mxu_size == 256);
  CHECK(peak_flops(mine, Dtype::fp8) == 4e14);
  CHECK(peak_flops(mine, Dtype::bf16) == 2e14);
  CHECK(chip("tpu-v5e").mxu_size == 128);
}

TEST_CASE("any calculator with a chip takes any number field of the catalog as an override",
          "[catalog]") {
  // A reader's own chip: a v5p with a faster clock, and an H100 with twice the bf16 peak.
  Calculation mxu = run("mxu", {{"chip", Value::of("tpu-v5p")}, {"clock_hz", Value::of(2e9)}});
  CHECK(output(mxu, "peak_flops") == Approx(8 * 2 * 128.0 * 128 * 2e9));
  Calculation mm =
      run("matmul", {{"chip", Value::of("h100")}, {"peak_flops_bf16", Value::of(1.978e15)}});
  CHECK(output(mm, "critical_batch") == Approx(1.978e15 / 3.35e12));
  Calculation chip =
      run("chip", {{"chip", Value::of("tpu-v5e")}, {"hbm_capacity", Value::of("32e9")}});
  CHECK(output(chip, "hbm_capacity") == 32e9);
  check_error(run_error("mxu", {{"mxus_per_chip", Value::of(2.5)}}), ErrorCode::invalid_argument,
              "mxus_per_chip", "mxus_per_chip must be a whole number, got 2.5");
  check_error(run_error("roofline", {{"hbm_capacity", Value::of(-1.0)}}), ErrorCode::out_of_range,
              "hbm_capacity", "hbm_capacity must be > 0, got -1");
  CHECK(run_error("roofline", {{"pod_topology", Value::of("4x4")}}).field == "pod_topology");
  CHECK(
      run_error("systolic", {{"clock_hz", Value::of(1e9)}}).message.find("systolic has no input") ==
      0);
}

TEST_CASE("a chip without a number the calculator needs asks for an override", "[catalog]") {
  Error no_peak = run_error("roofline", {{"chip", Value::of("v100")}});
  CHECK(no_peak.field == "dtype");
  CHECK(no_peak.message == "v100 has no bf16 peak in the catalog; give peak_flops to set one");
  Error no_link =
      run_error("roofline", {{"chip", Value::of("v100")}, {"peak_flops", Value::of(1.25e14)}});
  CHECK(no_link.field == "comm_bandwidth");
  CHECK(no_link.message ==
        "v100 has no comm_bandwidth in the catalog; give comm_bandwidth to set one");
  Calculation ok = run("roofline", {{"chip", Value::of("v100")},
                                    {"peak_flops", Value::of(1.25e14)},
                                    {"comm_bandwidth", Value::of(1.5e11)}});
  CHECK(output(ok, "hbm_bandwidth") == 9e11);
  CHECK(output(run("matmul", {{"chip", Value::of("v100")}, {"peak_flops", Value::of(1.25e14)}}),
               "hbm_bandwidth") == 9e11);
}

TEST_CASE("an unknown chip is not found and has no peak for a missing dtype", "[catalog]") {
  CHECK(find_chip("TPU-V5E") == nullptr);
  CHECK(peak_flops(chip("tpu-v5e"), Dtype::fp8) == 0);
}

TEST_CASE("the chip calculator quotes any catalog field, none where the book gives none",
          "[catalog]") {
  Calculation c = scalebook::test::run("chip", {{"chip", Value::of("tpu-v5e")}});
  CHECK(scalebook::test::output(c, "peak_flops_bf16") == 1.97e14);
  CHECK(scalebook::test::output(c, "hbm_bandwidth") == 8.2e11);
  CHECK(scalebook::test::output_value(c, "peak_flops_fp8").is_none());
  CHECK(scalebook::test::output_value(c, "pod_topology").text == "16x16");
  for (const Step& s : c.steps) CHECK(s.latex.find("\\text{") == 0);
}

TEST_CASE("a field for TPUs only has no value on any GPU, and one for GPUs none on any TPU",
          "[catalog]") {
  const std::vector<ChipFieldSpec>& specs = chip_field_specs();
  for (const Chip& c : chips()) {
    for (std::size_t i = 0; i < specs.size(); ++i) {
      if (specs[i].applies.empty() || specs[i].applies == (is_tpu(c) ? "TPUs" : "GPUs")) continue;
      INFO(c.id << " " << specs[i].name);
      ChipFieldRef ref = chip_field_ref(c, i);
      CHECK((ref.text ? ref.text->empty() : ref.number == 0));
    }
  }
}

TEST_CASE("a field a chip lacks is absent with its reason, and the schema says which chips have it",
          "[catalog]") {
  using scalebook::test::output_value;
  for (bool explain : {true, false}) {
    auto quote = [&](const char* id) {
      return calculate("chip", {{"chip", Value::of(id)}}, {.explain = explain}).value();
    };
    Calculation h100 = quote("h100"), v5e = quote("tpu-v5e"), v100 = quote("v100");
    CHECK(output_value(h100, "vmem_capacity").is_none());
    CHECK(output_value(h100, "vmem_capacity").text == "not applicable to a GPU: TPUs only");
    CHECK(output_value(v5e, "nvlink_bandwidth").text == "not applicable to a TPU: GPUs only");
    // The catalog's own note says why a chip of the right kind has none.
    CHECK(output_value(v100, "peak_flops_bf16").text.rfind("not given: chapter 12's FLOPs", 0) ==
          0);
    CHECK(output_value(v5e, "peak_flops_fp8").text == "the catalog has none for this chip");
  }
  const Schema schema = schema_of("chip").value();
  auto description = [&](const std::string& name) {
    for (const OutputSpec& o : schema.outputs)
      if (o.name == name) return o.description;
    return std::string();
  };
  CHECK(description("vmem_capacity") ==
        "VMEM (on-chip vector memory) per chip (TPUs only; absent on the others)");
  CHECK(description("sms_per_chip") ==
        "streaming multiprocessors per chip (GPUs only; absent on the others)");
  CHECK(description("hbm_bandwidth") == "HBM bandwidth");
}
