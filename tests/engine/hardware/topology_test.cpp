// Where the chips are: a TPU slice's axes with the catalog's wraparound rule, or GPUs as the
// GPUs of one NVLink domain and the nodes, each with the links the collectives price.
#include "scalebook/hardware/topology.h"

#include <string>

#include "helpers.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

Topology where(const char* chip, const std::string& shape) {
  const Chip* c = find_chip(chip);
  REQUIRE(c != nullptr);
  Result<Topology> t = topology_of(*c, shape);
  REQUIRE(t.ok());
  return t.value();
}

Error refused(const char* chip, const std::string& shape) {
  Result<Topology> t = topology_of(*find_chip(chip), shape);
  REQUIRE(!t.ok());
  return t.error();
}

std::string axes_of(const Topology& t) {
  std::string out;
  for (const Axis& a : t.axes)
    out += axis_name(a) + std::to_string(a.size) + (a.wraps ? "r " : " ");
  return out;
}

}  // namespace

TEST_CASE("topology: a TPU slice is its torus axes, wrapping as the slice calculator says",
          "[topology]") {
  // v5p: whole 4x4x4 cubes wrap on every axis; v5e: an axis wraps when it spans the pod's 16.
  const Topology cube = where("tpu-v5p", "4x4x8");
  CHECK(cube.fabric == Fabric::torus);
  CHECK(axes_of(cube) == "X4r Y4r Z8r ");
  CHECK(cube.chips == 128);
  CHECK(cube.link_bandwidth == find_chip("tpu-v5p")->ici_link_bandwidth);
  CHECK(cube.hop_latency == find_chip("tpu-v5p")->ici_hop_latency);
  CHECK(axes_of(where("tpu-v5e", "8x16")) == "X8 Y16r ");
  CHECK(axes_of(where("tpu-v5p", "2x4x4")) == "X2 Y4 Z4 ");
}

TEST_CASE("topology: GPUs are one NVLink domain's GPUs, then the nodes", "[topology]") {
  const Chip& h100 = *find_chip("h100");
  const Topology node = where("h100", "8");
  CHECK(node.fabric == Fabric::switched);
  CHECK(axes_of(node) == "G8 ");
  CHECK(node.link_bandwidth == h100.nvlink_bandwidth);
  CHECK(node.node_gpus == h100.nvlink_domain_gpus);
  CHECK(axes_of(where("h100", "4")) == "G4 ");
  const Topology cluster = where("h100", "64");
  CHECK(axes_of(cluster) == "G8 N8 ");
  CHECK(cluster.chips == 64);
  // 8 nodes under one leaf: a node sends at its 8 NICs' 8 x 50 GB/s, the catalog's node egress.
  REQUIRE(cluster.levels.size() == 2);
  CHECK(cluster.levels[1].child_bandwidth == h100.node_egress_bandwidth);
}

TEST_CASE("topology: shapes that cannot be name the shape", "[topology]") {
  check_error(refused("h100", "12"), ErrorCode::invalid_argument, "shape",
              "shape must be at most 8 GPUs (one h100 node) or a multiple of 8, got 12");
  check_error(refused("h100", "2x8"), ErrorCode::invalid_argument, "shape",
              "shape on a GPU is a count of GPUs, like 8, got \"2x8\"");
  check_error(refused("tpu-v5p", "4x4"), ErrorCode::invalid_argument, "shape",
              "shape has 2 axes but tpu-v5p is a 3D torus");
  check_error(refused("tpu-v5e", "four"), ErrorCode::invalid_argument, "shape",
              "shape must be sizes joined by x, like 4x4x8, got \"four\"");
}
