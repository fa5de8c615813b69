// The sharding notation parser, the page's layout, and the array-memory calculator against
// chapter 3's pop quizzes (shared/book/problems/sharding.json).
#include "scalebook/sharding/sharding.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "helpers.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

ShardedArray array(const std::string& text) {
  Result<ShardedArray> r = parse_array(text);
  if (!r.ok()) FAIL(r.error().message);
  return r.value();
}

Mesh mesh(const std::string& text) {
  Result<Mesh> r = parse_mesh(text);
  if (!r.ok()) FAIL(r.error().message);
  return r.value();
}

std::string axes_of(const Mesh& m) {
  std::string out;
  for (const Axis& a : m.axes) out += std::string(1, a.name) + std::to_string(a.size) + " ";
  return out;
}

// The error's message, and that it points where it says.
void check_parse_error(const Error& e, const std::string& field, const std::string& message,
                       int position) {
  CHECK(e.field == field);
  CHECK(e.message == message);
  CHECK(e.position == position);
  CHECK(e.message.find("at character " + std::to_string(position)) != std::string::npos);
}

Error array_error(const std::string& text) {
  Result<ShardedArray> r = parse_array(text);
  REQUIRE_FALSE(r.ok());
  return r.error();
}

Error mesh_error(const std::string& text) {
  Result<Mesh> r = parse_mesh(text);
  REQUIRE_FALSE(r.ok());
  return r.error();
}

Error matmul_error(const std::string& text) {
  Result<MatmulSpec> r = parse_matmul(text);
  REQUIRE_FALSE(r.ok());
  return r.error();
}

Calculation memory(Inputs in) { return run("array-memory", in); }

}  // namespace

TEST_CASE("an array's subscripts list its mesh axes, major first", "[sharding]") {
  ShardedArray a = array("A[I_XY, J]");
  CHECK(a.name == "A");
  REQUIRE(a.dims.size() == 2);
  CHECK(a.dims[0].name == "I");
  CHECK(a.dims[0].axes == "XY");
  CHECK(a.dims[0].axis_positions == std::vector<int>{4, 5});
  CHECK(a.dims[1].name == "J");
  CHECK(a.dims[1].axes.empty());
  CHECK(a.unreduced.empty());

  ShardedArray c = array("  C[I, K]{U_X} ");
  CHECK(c.unreduced == "X");
  CHECK(array_text(c) == "C[I, K]{U_X}");
  CHECK(array_text(array("W_in[D, F_XY]")) == "W_in[D, F_XY]");
  CHECK(array_text(array("A[I_X,J]{U_Y, U_Z}")) == "A[I_X, J]{U_YZ}");
  CHECK(array_text(array("Act[Batch1, D_YX]")) == "Act[Batch1, D_YX]");
}

TEST_CASE("a PartitionSpec has one entry per dimension, a tuple for several axes", "[sharding]") {
  CHECK(partition_spec(array("A[I_XY, J]")) == "P(('X', 'Y'), None)");
  CHECK(partition_spec(array("A[I_X, J]")) == "P('X', None)");
  CHECK(partition_spec(array("B[J, K_Y]")) == "P(None, 'Y')");
  CHECK(partition_spec(array("A[I, J]")) == "P(None, None)");
}

TEST_CASE("a mesh is named sizes, a dict, or a slice shape", "[sharding]") {
  CHECK(axes_of(mesh("X=4, Y=8")) == "X4 Y8 ");
  CHECK(axes_of(mesh("X=4,Y=8")) == "X4 Y8 ");
  CHECK(axes_of(mesh("{X: 4, Y: 8}")) == "X4 Y8 ");
  CHECK(axes_of(mesh("{'X': 4, \"Y\": 8,}")) == "X4 Y8 ");
  CHECK(axes_of(mesh("4x4x4")) == "X4 Y4 Z4 ");
  CHECK(axes_of(mesh(" 2 x 8 ")) == "X2 Y8 ");
  CHECK(mesh("X=2, Y=8, Z=2").devices() == 32);
  CHECK(mesh_text(mesh("{Y: 2, X: 8}")) == "Y=2, X=8");
}

TEST_CASE("malformed arrays get errors that point at the offending character", "[sharding]") {
  check_parse_error(array_error(""), "array",
                    "array is empty; write an array like A[I_X, J] at character 0", 0);
  check_parse_error(array_error("A[I_X, J"), "array",
                    "array has a [ with no closing ] at character 1", 1);
  check_parse_error(array_error("A[I_X, J]]"), "array",
                    "array has a ] with no opening [ at character 9", 9);
  check_parse_error(array_error("A[I]{U_Y}}"), "array",
                    "array has a } with no opening { at character 9", 9);
  check_parse_error(array_error("A[I]{U_X"), "array",
                    "array has a { with no closing } at character 4", 4);
  check_parse_error(array_error("[I]"), "array",
                    "array needs an array name (an upper-case letter, then letters, digits or _) "
                    "but got \"[\" at character 0",
                    0);
  check_parse_error(array_error("A[, J]"), "array",
                    "array needs a dimension name (an upper-case letter, then letters or digits) "
                    "but got \",\" at character 2",
                    2);
  check_parse_error(array_error("A[i, J]"), "array",
                    "array needs a dimension name (an upper-case letter, then letters or digits) "
                    "but got \"i\" at character 2",
                    2);
  check_parse_error(array_error("A[I_X, J_X]"), "array",
                    "array uses mesh axis X twice in A (an axis splits one dimension only) at "
                    "character 9",
                    9);
  check_parse_error(array_error("A[I_X]{U_X}"), "array",
                    "array uses mesh axis X twice in A (an axis splits one dimension only) at "
                    "character 9",
                    9);
  check_parse_error(array_error("A[I, I]"), "array",
                    "array has dimension I twice in A at character 5", 5);
  check_parse_error(
      array_error("A[I_x]"), "array",
      "array needs mesh axes (upper-case letters) after _ but got \"x\" at character 4", 4);
  check_parse_error(
      array_error("A[I_Xy]"), "array",
      "array needs mesh axes (single upper-case letters) but got \"y\" at character 5", 5);
  check_parse_error(array_error("A[I J]"), "array",
                    "array needs , or ] but got \"J\" at character 4", 4);
  check_parse_error(array_error("A[I]{X}"), "array",
                    "array needs U_ and mesh axes inside { }, like {U_X}, but got \"X\" at "
                    "character 5",
                    5);
  check_parse_error(array_error("A[I]x"), "array", "array has \"x\" after the array at character 4",
                    4);
  check_parse_error(array_error("A[I\x01]"), "array",
                    "array needs , or ] but got a control character at character 3", 3);
  check_parse_error(array_error("A[\xce\xa3I]"), "array",
                    "array must be plain ASCII; it has a non-ASCII character at character 2", 2);
  check_parse_error(array_error("A[I1,I2,I3,I4,I5,I6,I7,I8,I9]"), "array",
                    "array has more than 8 dimensions in A at character 26", 26);
  check_parse_error(array_error("A[Ibcdefghijklmnopq]"), "array",
                    "array has a dimension name longer than 16 characters, Ibcdefghijklmnop... "
                    "at character 2",
                    2);
  check_parse_error(array_error(std::string(5000, 'A')), "array",
                    "array is longer than 1000 characters at character 1000", 1000);
}

TEST_CASE("malformed meshes get errors that point at the offending character", "[sharding]") {
  check_parse_error(mesh_error(" "), "mesh", "mesh is empty; write it like X=4, Y=8 at character 0",
                    0);
  check_parse_error(mesh_error("X=4, X=2"), "mesh", "mesh has axis X twice at character 5", 5);
  check_parse_error(mesh_error("X=0"), "mesh",
                    "mesh axis X must have a size of at least 1, got 0 at character 2", 2);
  check_parse_error(mesh_error("4x0"), "mesh",
                    "mesh axis Y must have a size of at least 1, got 0 at character 2", 2);
  check_parse_error(mesh_error("X=2.5"), "mesh",
                    "mesh axis X must have a whole-number size, got 2.5 at character 2", 2);
  check_parse_error(mesh_error("X=-1"), "mesh",
                    "mesh axis X needs a size (a whole number) but got \"-\" at character 2", 2);
  check_parse_error(mesh_error("data=4"), "mesh",
                    "mesh axis names are single upper-case letters, got \"data\" at character 0",
                    0);
  check_parse_error(mesh_error("X=2,Y=2,Z=2,W=2,V=2"), "mesh",
                    "mesh has more than 4 axes at character 16", 16);
  check_parse_error(mesh_error("4x4x4x4"), "mesh",
                    "mesh shape has more than 3 axes (a slice shape names them X, Y, Z) at "
                    "character 6",
                    6);
  check_parse_error(mesh_error("X=4 Y=8"), "mesh",
                    "mesh needs , between axes but got \"Y\" at character 4", 4);
  check_parse_error(mesh_error("{X: 4"), "mesh", "mesh has a { with no closing } at character 0",
                    0);
  check_parse_error(mesh_error("X: 4}"), "mesh", "mesh has a } with no opening { at character 4",
                    4);
  check_parse_error(mesh_error("X"), "mesh",
                    "mesh needs = or : after axis X but got the end at character 1", 1);
  check_parse_error(mesh_error("X=100000,Y=100000"), "mesh",
                    "mesh must have at most 1000000000 devices at character 11", 11);
  check_parse_error(mesh_error("X=4,\xe2\x80\x8bY=2"), "mesh",
                    "mesh must be plain ASCII; it has a non-ASCII character at character 4", 4);
}

TEST_CASE("a matmul names its contraction; C's dimensions must be what A and B leave",
          "[sharding]") {
  Result<MatmulSpec> m = parse_matmul("A[I_X, J] * B[J, K_Y] -> C[I_X, K_Y]");
  REQUIRE(m.ok());
  CHECK(m.value().contracting == "J");
  REQUIRE(m.value().c.has_value());
  CHECK(array_text(*m.value().c) == "C[I_X, K_Y]");
  Result<MatmulSpec> open = parse_matmul("A[I_X, J]*B[J, K_Y]");
  REQUIRE(open.ok());
  CHECK_FALSE(open.value().c.has_value());

  check_parse_error(matmul_error("A[I, J] * B[J, K] -> C[I, J]"), "spec",
                    "spec has dimension names that don't line up: C must have I, K (what A and "
                    "B leave after contracting J), got I, J at character 26",
                    26);
  check_parse_error(matmul_error("A[I, J] * B[J, K] -> C[I]"), "spec",
                    "spec has dimension names that don't line up: C must have I, K (what A and "
                    "B leave after contracting J), got I at character 24",
                    24);
  check_parse_error(matmul_error("A[I_X, J] * B[K, L]"), "spec",
                    "spec needs a dimension that A and B share to contract, but they have I, J "
                    "and K, L at character 12",
                    12);
  check_parse_error(matmul_error("A[I, J, K] * B[J, K, L]"), "spec",
                    "spec contracts one dimension, but A and B share J and K at character 18", 18);
  check_parse_error(matmul_error("A[I_X, J] B[J, K_Y]"), "spec",
                    "spec needs * between the two arrays but got \"B\" at character 10", 10);
  check_parse_error(matmul_error("A[I, J] * B[J, K] - C[I, K]"), "spec",
                    "spec needs -> before the output array but got \"-\" at character 18", 18);
  check_parse_error(matmul_error("A[I, J]{U_X} * B[J, K]"), "spec",
                    "spec has an unreduced input A{U_X}; reduce it before the matmul at "
                    "character 7",
                    7);
  check_parse_error(matmul_error("A[I,J]*B[J,K]]"), "spec",
                    "spec has a ] with no opening [ at character 13", 13);
  check_parse_error(matmul_error("A[I, J] * B[J, K_XX]"), "spec",
                    "spec uses mesh axis X twice in B (an axis splits one dimension only) at "
                    "character 18",
                    18);
}

TEST_CASE("an axis the mesh lacks is an error at that axis", "[sharding]") {
  std::optional<Error> e = check_axes(array("A[I_XW, J]"), mesh("X=2, Y=2"), "array");
  REQUIRE(e);
  check_parse_error(*e, "array",
                    "array uses mesh axis W, which the mesh (X, Y) lacks, at character 5", 5);
}

TEST_CASE("the parsers take any length in linear time and never recurse", "[sharding]") {
  // Deep nesting and long runs: errors, quickly, at the first bad character.
  CHECK(array_error(std::string(1000, '[')).position == 0);
  CHECK(array_error("A" + std::string(999, '[')).position == 2);
  CHECK(mesh_error(std::string(1000, '{')).position == 1);
  std::string many_dims = "A[";
  for (int i = 0; i < 300; ++i) many_dims += "I,";
  CHECK(array_error(many_dims).message == "array has more than 8 dimensions in A at character 18");
  CHECK(parse_mesh(std::string(3000000, ' ')).error().position == 1000);
}

TEST_CASE("the layout numbers devices row-major and pieces mixed-radix in subscript order",
          "[sharding]") {
  Result<ShardingLayout> r = sharding_layout("A[I_X, J_Y]", "X=2, Y=2");
  REQUIRE(r.ok());
  const ShardingLayout& l = r.value();
  CHECK(l.array == "A");
  CHECK(l.partition_spec == "P('X', 'Y')");
  REQUIRE(l.dims.size() == 2);
  CHECK(l.dims[0].pieces == 2);
  CHECK(l.dims[1].pieces == 2);
  REQUIRE(l.devices.size() == 4);
  // Device 1 is (x=0, y=1): rows 0, columns 1 — the top-right quadrant of FIG 5.
  CHECK(l.devices[1].coords == std::vector<std::int64_t>{0, 1});
  CHECK(l.devices[1].pieces == std::vector<std::int64_t>{0, 1});
  CHECK(l.devices[2].pieces == std::vector<std::int64_t>{1, 0});

  // FIG 7: I_XY and I_YX put row strips 1 and 2 on opposite devices.
  auto xy = sharding_layout("A[I_XY, J]", "X=2, Y=2").value();
  auto yx = sharding_layout("A[I_YX, J]", "X=2, Y=2").value();
  CHECK(xy.dims[0].pieces == 4);
  std::vector<std::int64_t> xy_rows, yx_rows;
  for (const LayoutDevice& d : xy.devices) xy_rows.push_back(d.pieces[0]);
  for (const LayoutDevice& d : yx.devices) yx_rows.push_back(d.pieces[0]);
  CHECK(xy_rows == std::vector<std::int64_t>{0, 1, 2, 3});
  CHECK(yx_rows == std::vector<std::int64_t>{0, 2, 1, 3});

  auto replicated = sharding_layout("A[I, J]{U_Z}", "2x2x2").value();
  CHECK(replicated.unreduced == "Z");
  CHECK(replicated.devices.size() == 8);
  for (const LayoutDevice& d : replicated.devices) {
    CHECK(d.pieces == std::vector<std::int64_t>{0, 0});
  }
  CHECK(replicated.devices[5].coords == std::vector<std::int64_t>{1, 0, 1});
}

TEST_CASE("layout errors name the text they come from", "[sharding]") {
  check_parse_error(sharding_layout("A[I_W]", "X=2").error(), "array",
                    "array uses mesh axis W, which the mesh (X) lacks, at character 4", 4);
  check_parse_error(sharding_layout("A[I]", "X=").error(), "mesh",
                    "mesh axis X needs a size (a whole number) but got the end at character 2", 2);
  Error big = sharding_layout("A[I]", "X=64, Y=128").error();
  check_error(big, ErrorCode::out_of_range, "mesh",
              "mesh has 8192 devices; the picture shows at most 4096");
}

TEST_CASE("array-memory: the pop quiz's fp32 shard is 1 MiB", "[sharding][array-memory]") {
  // sharding-pq1a: fp32[1024, 4096] as A[I_XY, J] on {X: 8, Y: 2}.
  Calculation c = memory({{"array", Value::of("A[I_XY, J]")},
                          {"mesh", Value::of("X=8, Y=2")},
                          {"dtype", Value::of("fp32")},
                          {"I", Value::of(1024.0)},
                          {"J", Value::of(4096.0)}});
  CHECK(output_value(c, "local_shape").text == "64x4096");
  CHECK(output(c, "bytes_per_device") == 1048576);
  CHECK(output(c, "bytes_array") == 4.0 * 1024 * 4096);
  CHECK(output(c, "replication") == 1);
  CHECK(output(c, "devices") == 16);
  CHECK(output_value(c, "sharded_over").text == "X, Y");
  CHECK(output_value(c, "partition_spec").text == "P(('X', 'Y'), None)");
  CHECK(output_value(c, "fits").text == "yes");
}

TEST_CASE("array-memory: reading that shard from H100 HBM", "[sharding][array-memory]") {
  // sharding-pq1b. The book divides 1e6 B by 3.4e12 B/s (294 ns); the exact 1 MiB over the
  // catalog's 3.35e12 B/s (the H100 SXM datasheet) is 313 ns, and over the book's 3.4e12, 308 ns.
  Inputs in = {{"array", Value::of("A[I_XY, J]")}, {"mesh", Value::of("X=8, Y=2")},
               {"dtype", Value::of("fp32")},       {"chip", Value::of("h100")},
               {"I", Value::of(1024.0)},           {"J", Value::of(4096.0)}};
  CHECK(output(memory(in), "hbm_load_time") == Approx(1048576 / 3.35e12));
  CHECK(output(memory(in), "hbm_load_time") == Approx(3.13e-7).epsilon(1e-3));
  in["hbm_bandwidth"] = Value::of(3.4e12);
  CHECK(output(memory(in), "hbm_load_time") == Approx(3.084e-7).epsilon(1e-3));
}

TEST_CASE("array-memory: an int8 array on a 3D mesh, replicated over Z",
          "[sharding][array-memory]") {
  // sharding-pq2a and pq2b: int8[128, 2048] as A[I_XY, J] on {X: 2, Y: 8, Z: 2}.
  Calculation c = memory({{"array", Value::of("A[I_XY, J]")},
                          {"mesh", Value::of("X=2, Y=8, Z=2")},
                          {"dtype", Value::of("int8")},
                          {"I", Value::of(128.0)},
                          {"J", Value::of(2048.0)}});
  CHECK(output_value(c, "local_shape").text == "8x2048");
  CHECK(output(c, "bytes_per_device") == 16384);
  CHECK(output(c, "bytes_total") == 524288);
  CHECK(output(c, "replication") == 2);
  CHECK(output(c, "devices") == 32);
}

TEST_CASE("array-memory: split over X only, the mesh keeps Y times Z copies",
          "[sharding][array-memory]") {
  // sharding-q1: A[I_X, J, K] on {X: 4, Y: 8, Z: 2}: total / one copy = 16.
  Calculation c = memory({{"array", Value::of("A[I_X, J, K]")},
                          {"mesh", Value::of("X=4, Y=8, Z=2")},
                          {"I", Value::of(64.0)},
                          {"J", Value::of(32.0)},
                          {"K", Value::of(16.0)}});
  CHECK(output(c, "replication") == 16);
  CHECK(output(c, "bytes_total") == output(c, "bytes_array") * 16);
  CHECK(output_value(c, "partition_spec").text == "P('X', None, None)");
}

TEST_CASE("array-memory: the JAX snippet's local shapes", "[sharding][array-memory]") {
  // sharding-ex1: mesh (X=4, Y=2); A = bf16[8, 2048] with P('X', 'Y'), B = bf16[2048, 8192]
  // with P(None, 'Y').
  Calculation a = memory({{"array", Value::of("A[I_X, J_Y]")},
                          {"mesh", Value::of("X=4, Y=2")},
                          {"I", Value::of(8.0)},
                          {"J", Value::of(2048.0)}});
  CHECK(output_value(a, "local_shape").text == "2x1024");
  CHECK(output_value(a, "partition_spec").text == "P('X', 'Y')");
  Calculation b = memory({{"array", Value::of("B[J, K_Y]")},
                          {"mesh", Value::of("X=4, Y=2")},
                          {"J", Value::of(2048.0)},
                          {"K", Value::of(8192.0)}});
  CHECK(output_value(b, "local_shape").text == "2048x4096");
  CHECK(output_value(b, "partition_spec").text == "P(None, 'Y')");
  CHECK(output(b, "replication") == 4);
}

TEST_CASE("array-memory: defaults, an unsplit array, and one too big for HBM",
          "[sharding][array-memory]") {
  Calculation d = memory({});
  CHECK(output_value(d, "local_shape").text == "64x4096");
  CHECK(output(d, "bytes_per_device") == 64 * 4096 * 2);
  Calculation whole = memory({{"array", Value::of("A[I, J]")}});
  CHECK(output_value(whole, "sharded_over").text == "none");
  CHECK(output_value(whole, "partition_spec").text == "P(None, None)");
  CHECK(output(whole, "replication") == 16);
  Calculation big = memory({{"array", Value::of("W[D, F_X]")},
                            {"mesh", Value::of("X=2")},
                            {"D", Value::of(65536.0)},
                            {"F", Value::of(262144.0)}});
  CHECK(output(big, "bytes_per_device") == 65536.0 * 131072 * 2);
  CHECK(output_value(big, "fits").text == "no");
}

TEST_CASE("array-memory: every dimension needs a size that its axes divide",
          "[sharding][array-memory]") {
  check_error(run_error("array-memory", {{"array", Value::of("B[M_X, N]")}}),
              ErrorCode::invalid_argument, "M", "give the size of dimension M, like M=4096");
  check_error(run_error("array-memory", {{"K", Value::of(8.0)}}), ErrorCode::invalid_argument, "K",
              "K is not a dimension of these arrays; they have I, J");
  check_error(run_error("array-memory", {{"I", Value::of(1000.0)}}), ErrorCode::invalid_argument,
              "I", "I=1000 must be divisible by 16, the product of its axes X=8, Y=2, in A");
  check_error(run_error("array-memory", {{"array", Value::of("A[I, J_Y]")}, {"J", Value::of(3.0)}}),
              ErrorCode::invalid_argument, "J",
              "J=3 must be divisible by 2, the size of its axis Y=2, in A");
  Error e = run_error("array-memory", {{"array", Value::of("A[I_XZ, J]")}});
  check_parse_error(e, "array",
                    "array uses mesh axis Z, which the mesh (X, Y) lacks, at character 5", 5);
  check_error(run_error("array-memory", {{"I", Value::of(2.5)}}), ErrorCode::invalid_argument, "I",
              "I must be a whole number, got 2.5");
}

TEST_CASE("array-memory: the steps substitute this call's numbers", "[sharding][array-memory]") {
  Calculation c = memory({{"dtype", Value::of("fp32")}});
  bool shape = false;
  for (const Step& s : c.steps) {
    if (s.output == "local_shape") {
      shape = true;
      CHECK(s.latex == "\\left(\\frac{1024}{8 \\cdot 2}, 4096\\right) = (64, 4096)");
    }
  }
  CHECK(shape);
}
