// The sharded-matmul planner against chapter 3's questions (shared/book/problems/sharding.json)
// and hand derivations from the collective model's closed forms.
#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "helpers.h"
#include "scalebook/sharding/sharding.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

const double kV5eFlops = 1.97e14, kV5pFlops = 4.59e14;
const double kWuni = 4.5e10;  // v4p and v5e ICI link, one way

Calculation plan(const std::string& spec, const std::string& mesh, Inputs more) {
  more["spec"] = Value::of(spec);
  more["mesh"] = Value::of(mesh);
  return run("sharded-matmul", more);
}

std::string text(const Calculation& c, const std::string& name) {
  return output_value(c, name).text;
}

// Row `i` of the collectives table: op, axes, array, bytes, time.
const std::vector<Value>& collective(const Calculation& c, std::size_t i) {
  const Table& t = table(c, "collectives");
  REQUIRE(t.rows.size() > i);
  return t.rows[i];
}

bool has_alternative(const Calculation& c, const std::string& plan_text) {
  for (const auto& row : table(c, "alternatives").rows) {
    if (row[0].text == plan_text) return true;
  }
  return false;
}

Inputs sizes(double i, double j, double k) {
  return {{"I", Value::of(i)}, {"J", Value::of(j)}, {"K", Value::of(k)}};
}

}  // namespace

TEST_CASE("Question 6a: both inputs split J over Y, so case 3 AllReduces over Y",
          "[sharded-matmul]") {
  const double n = 8192;
  Calculation c = plan("A[I_X, J_Y] * B[J_Y, K] -> C[I_X, K]", "X=4, Y=4", sizes(n, n, n));
  CHECK(text(c, "case") == "3");
  CHECK(text(c, "plan") ==
        "A[I_X, J_Y] * B[J_Y, K] -> C[I_X, K]{U_Y}; AllReduce_Y C[I_X, K]{U_Y} -> C[I_X, K]");
  CHECK(text(c, "wraparound_axes") == "none");  // a 4x4 v5e slice has no wraparound
  // The problem file's derivation: 2 (3/4) (2IK/X) / W_uni on a line of 4.
  const double v = 2 * n * n / 4;
  CHECK(output(c, "t_comm") == Approx(2 * 0.75 * v / kWuni));
  CHECK(output(c, "flops_per_device") == 2 * n * n * n / 16);
  CHECK(output(c, "t_compute") == Approx(2 * n * n * n / 16 / kV5eFlops));
  CHECK(text(c, "overlap") == "no");
  CHECK(output(c, "t_total") == Approx(output(c, "t_comm")));
  CHECK(output(c, "t_serial") == Approx(output(c, "t_comm") + output(c, "t_compute")));
  const auto& row = collective(c, 0);
  CHECK(row[0].text == "all-reduce");
  CHECK(row[1].text == "Y");
  CHECK(row[2].text == "C[I_X, K]{U_Y}");
  CHECK(row[3].number == v);
  CHECK(has_alternative(c,
                        "AllGather_Y A[I_X, J_Y] -> A[I_X, J]; AllGather_Y B[J_Y, K] -> B[J, "
                        "K]; A[I_X, J] * B[J, K] -> C[I_X, K]"));
}

TEST_CASE("Question 6b: B's contraction uses the axis A's rows use, so AllGather B over X",
          "[sharded-matmul]") {
  const double n = 8192;
  Calculation c = plan("A[I_X, J] * B[J_X, K_Y] -> C[I_X, K_Y]", "X=4, Y=4", sizes(n, n, n));
  CHECK(text(c, "case") == "2");
  CHECK(text(c, "plan") ==
        "AllGather_X B[J_X, K_Y] -> B[J, K_Y]; A[I_X, J] * B[J, K_Y] -> C[I_X, K_Y]");
  // The gather moves 2JK/Y; a line of 4 takes (3/4) V / W_uni.
  const double v = 2 * n * n / 4;
  CHECK(collective(c, 0)[3].number == v);
  CHECK(output(c, "t_comm") == Approx(0.75 * v / kWuni));
  CHECK(output(c, "flops_per_device") == 2 * n * n * n / 16);
  CHECK(text(c, "local_b") == "2048x2048");
  CHECK(output(c, "memory_per_device") == Approx(2 * (n * n / 4 + n * n / 4 + n * n / 16)));
}

TEST_CASE("Question 6c: neither input splits J and no axis is shared: case 1, no comms",
          "[sharded-matmul]") {
  const double n = 8192;
  Calculation c = plan("A[I_X, J] * B[J, K_Y] -> C[I_X, K_Y]", "X=4, Y=4", sizes(n, n, n));
  CHECK(text(c, "case") == "1");
  CHECK(text(c, "plan") == "A[I_X, J] * B[J, K_Y] -> C[I_X, K_Y]");
  CHECK(table(c, "collectives").rows.empty());
  CHECK(output(c, "t_comm") == 0);
  CHECK(output(c, "flops_per_device") == 2 * n * n * n / 16);
  CHECK(text(c, "overlap") == "yes");
  CHECK(text(c, "partition_spec_a") == "P('X', None)");
  CHECK(text(c, "partition_spec_b") == "P(None, 'Y')");
  CHECK(text(c, "partition_spec_c") == "P('X', 'Y')");
  CHECK(text(c, "local_c") == "2048x2048");
  CHECK(output(c, "bytes_c") == 2048.0 * 2048 * 2);
}

TEST_CASE("Question 2 through the planner on a v4p 4x4x4, whose axes all wrap",
          "[sharded-matmul]") {
  Inputs in = {{"chip", Value::of("tpu-v4p")},
               {"B", Value::of(1024.0)},
               {"D", Value::of(4096.0)},
               {"F", Value::of(65536.0)}};
  const double b = 1024, d = 4096;
  // 2a: gathering A[B_X, D_Y] over X moves 2BD/Y: 23.3 us.
  Calculation a = plan("A[B_X, D_Y] * W[D_Y, F_X] -> C[B, F_X]{U_Y}", "X=4, Y=4, Z=4", in);
  CHECK(text(a, "wraparound_axes") == "X, Y, Z");
  CHECK(text(a, "plan").rfind("AllGather_X A[B_X, D_Y] -> A[B, D_Y]; ", 0) == 0);
  CHECK(collective(a, 0)[3].number == 2 * b * d / 4);
  CHECK(collective(a, 0)[4].number == Approx(2.33e-5).epsilon(2e-3));
  // 2b: gathering it over X and Y moves the whole 2BD on two axes: 46.6 us.
  Calculation ab = plan("A[B_X, D_Y] * W[D, F_XY] -> C[B, F_XY]", "X=4, Y=4, Z=4", in);
  CHECK(collective(ab, 0)[0].text == "all-gather");
  CHECK(collective(ab, 0)[1].text == "X, Y");
  CHECK(collective(ab, 0)[4].number == Approx(4.66e-5).epsilon(2e-3));
  // 2c: AllReduce over Z of the 2BD/16 block each device holds: 11.65 us.
  in.erase("F");
  in["E"] = Value::of(4096.0);
  Calculation z = plan("A[B_X, E_Z] * W[E_Z, D_Y] -> C[B_X, D_Y]", "X=4, Y=4, Z=4", in);
  CHECK(text(z, "case") == "3");
  CHECK(collective(z, 0)[0].text == "all-reduce");
  CHECK(collective(z, 0)[3].number == 2 * b * d / 16);
  CHECK(collective(z, 0)[4].number == Approx(1.165e-5).epsilon(2e-3));
}

TEST_CASE("Question 4: gather the weights, or slice the activations and AllReduce",
          "[sharded-matmul]") {
  // Act[B, D] * W[D_X, F] -> Out[B, F] on a v5p ring of X = 4, where C / W_bidi = 2550.
  const std::string spec = "Act[B, D] * W[D_X, F] -> Out[B, F]";
  const std::string gather = "AllGather_X W[D_X, F] -> W[D, F]; Act[B, D] * W[D, F] -> Out[B, F]";
  const std::string reduce =
      "Slice_X Act[B, D] -> Act[B, D_X]; Act[B, D_X] * W[D_X, F] -> Out[B, F]{U_X}; "
      "AllReduce_X Out[B, F]{U_X} -> Out[B, F]";
  const double f = 32768, w_bidi = 1.8e11;
  auto run_q4 = [&](double b, double d) {
    return plan(spec, "X=4",
                {{"chip", Value::of("tpu-v5p")},
                 {"wraparound", Value::of("yes")},
                 {"B", Value::of(b)},
                 {"D", Value::of(d)},
                 {"F", Value::of(f)}});
  };
  SECTION("comms-bound (B < 2550): strategy 2 wins exactly when D > 2B") {
    Calculation below = run_q4(128, 192);
    CHECK(text(below, "case") == "2");
    CHECK(text(below, "plan") == gather);
    CHECK(has_alternative(below, reduce));
    // T1 = max(2BDF / C, 2DF / W_ici).
    CHECK(output(below, "t_total") ==
          Approx(std::max(2 * 128 * 192 * f / kV5pFlops, 2 * 192 * f / w_bidi)));
    Calculation above = run_q4(128, 320);
    CHECK(text(above, "plan") == reduce);
    CHECK(has_alternative(above, gather));
    // T2 = max(2BDF / (X C), 4BF / W_ici).
    CHECK(output(above, "t_total") ==
          Approx(std::max(2 * 128 * 320 * f / (4 * kV5pFlops), 4 * 128 * f / w_bidi)));
  }
  SECTION("compute-bound gather (B > 2550): strategy 2 wins when D > 2 C / W_ici = 5100") {
    CHECK(text(run_q4(8192, 4096), "plan") == gather);
    CHECK(text(run_q4(8192, 8192), "plan") == reduce);
  }
}

TEST_CASE("Question 7: a tensor-parallel layer on a v5e 2x2", "[sharded-matmul]") {
  // In[B, D_XY] * W_in[D, F_XY] gathers In (2BD = 2.1 MB); W_out then leaves Out{U_XY}, which
  // ReduceScatters back onto D. A 2x2 v5e has no wraparound, so each chip has one link per
  // axis and must take in 3/4 of the array over those two: 3/4 * 2.1e6 / (2 * 4.5e10) =
  // 17.5 us each, not the 11.7 us that adding the two axes' rates would promise.
  Inputs in = {{"B", Value::of(128.0)}, {"D", Value::of(8192.0)}, {"F", Value::of(32768.0)}};
  Calculation up = plan("In[B, D_XY] * W_in[D, F_XY] -> Tmp[B, F_XY]", "X=2, Y=2", in);
  CHECK(text(up, "plan") ==
        "AllGather_XY In[B, D_XY] -> In[B, D]; In[B, D] * W_in[D, F_XY] -> Tmp[B, F_XY]");
  const double v = 2.0 * 128 * 8192;
  CHECK(output(up, "t_comm") == Approx(0.75 * v / (2 * kWuni)));
  CHECK(output(up, "t_compute") == Approx(2.0 * 128 * 8192 * 32768 / 4 / kV5eFlops));
  CHECK(text(up, "overlap") == "yes");
  CHECK(output(up, "bytes_b") == 2.0 * 8192 * 32768 / 4);  // 268 MB < 300 MB

  Calculation down = plan("Tmp[B, F_XY] * W_out[F_XY, D] -> Out[B, D_XY]", "X=2, Y=2", in);
  CHECK(text(down, "case") == "3");
  CHECK(text(down, "plan") ==
        "Tmp[B, F_XY] * W_out[F_XY, D] -> Out[B, D]{U_XY}; ReduceScatter_XY Out[B, D]{U_XY} -> "
        "Out[B, D_XY]");
  CHECK(output(down, "t_comm") == Approx(0.75 * v / (2 * kWuni)));
  CHECK(output(up, "t_compute") + output(down, "t_compute") == Approx(1.74e-4).epsilon(0.01));
}

TEST_CASE("cases combine, and case 4 gathers the smaller input", "[sharded-matmul]") {
  CHECK(text(plan("A[I_X, J_Y] * B[J, K_X]", "X=4, Y=4", {}), "case") == "2+4");
  CHECK(text(plan("A[I_X, J_Y] * B[J_Y, K_X]", "X=4, Y=4", {}), "case") == "3+4");
  CHECK(text(plan("A[I, J_X] * B[J_Y, K]", "X=4, Y=4", {}), "case") == "2");
  // I = 4096 < K = 16384: A is the smaller one to gather.
  Calculation c = plan("A[I_X, J] * B[J, K_X]", "X=4, Y=4", {});
  CHECK(text(c, "case") == "4");
  CHECK(text(c, "plan") == "AllGather_X A[I_X, J] -> A[I, J]; A[I, J] * B[J, K_X] -> C[I, K_X]");
  CHECK(text(c, "output_sharding") == "C[I, K_X]");
}

TEST_CASE("without an output the planner reduce-scatters rather than all-reduces",
          "[sharded-matmul]") {
  Calculation c = plan("A[I, J_X] * B[J_X, K]", "X=4, Y=4", sizes(4096, 4096, 4096));
  CHECK(text(c, "plan") ==
        "A[I, J_X] * B[J_X, K] -> C[I, K]{U_X}; ReduceScatter_X C[I, K]{U_X} -> C[I, K_X]");
  CHECK(has_alternative(
      c, "A[I, J_X] * B[J_X, K] -> C[I, K]{U_X}; AllReduce_X C[I, K]{U_X} -> C[I, K]"));
  // The alternatives come cheapest first.
  const Table& alt = table(c, "alternatives");
  for (std::size_t i = 1; i < alt.rows.size(); ++i) {
    CHECK(alt.rows[i - 1][3].number <= alt.rows[i][3].number);
  }
  CHECK(text(plan("C[I, J] * B[J, K]", "X=4", {}), "output_sharding") == "Out[I, K]");
}

TEST_CASE("a requested unreduced C leaves the partial sums, and C's axes are sliced for free",
          "[sharded-matmul]") {
  Calculation u = plan("A[I, J] * B[J, K] -> C[I, K]{U_X}", "X=4", {});
  CHECK(text(u, "plan") ==
        "Slice_X A[I, J] -> A[I, J_X]; Slice_X B[J, K] -> B[J_X, K]; A[I, J_X] * B[J_X, K] -> "
        "C[I, K]{U_X}");
  CHECK(output(u, "t_comm") == 0);
  Calculation s = plan("A[I, J] * B[J, K] -> C[I_X, K]", "X=4", {});
  CHECK(text(s, "plan") == "Slice_X A[I, J] -> A[I_X, J]; A[I_X, J] * B[J, K] -> C[I_X, K]");
  CHECK(output(s, "flops_per_device") == 2.0 * 1024 * 8192 * 16384);
}

TEST_CASE("auto wraparound: the slice rule when the mesh matches the torus, else lines",
          "[sharded-matmul]") {
  const std::string spec = "A[I, J_X] * B[J_X, K] -> C[I, K]";
  Calculation line = plan(spec, "X=16", {{"chip", Value::of("tpu-v5e")}});
  CHECK(text(line, "wraparound_axes") == "none");
  bool said = false;
  for (const Step& s : line.steps) {
    said = said || s.latex.find("assume no wraparound") != std::string::npos;
  }
  CHECK(said);
  Calculation ring = plan(spec, "X=16, Y=4", {{"chip", Value::of("tpu-v5e")}});
  CHECK(text(ring, "wraparound_axes") == "X");
  Calculation forced = plan(spec, "X=16", {{"wraparound", Value::of("yes")}});
  CHECK(text(forced, "wraparound_axes") == "X");
  // A ring of 16 halves the AllReduce of a line of 16 (floor(16/2) hops vs 15, both ways).
  CHECK(output(forced, "t_comm") == Approx(output(line, "t_comm") * 8 / 15));
}

TEST_CASE("the collective's steps come relabelled and the comm time adds them",
          "[sharded-matmul]") {
  Calculation c = plan("A[I_X, J_Y] * B[J_Y, K] -> C[I_X, K]", "X=4, Y=4", {});
  bool relabelled = false;
  for (const Step& s : c.steps) {
    if (s.label.rfind("AllReduce_Y C[I_X, K]{U_Y} -> C[I_X, K]: AllReduce along Y", 0) == 0) {
      relabelled = true;
      CHECK(s.output == "t_comm");
    }
  }
  CHECK(relabelled);
  CHECK(c.steps.back().output == "memory_per_device");
}

TEST_CASE("sharded-matmul refuses what it cannot model, naming the field", "[sharded-matmul]") {
  check_error(run_error("sharded-matmul", {{"chip", Value::of("h100")}}), ErrorCode::unsupported,
              "chip",
              "h100 has no ICI torus in the catalog; sharded-matmul models TPU meshes only, for "
              "now");
  check_error(run_error("sharded-matmul", {{"mesh", Value::of("X=32, Y=16")}}),
              ErrorCode::out_of_range, "mesh",
              "mesh X=32, Y=16 has 512 devices, more than the 256 chips of a TPU v5e pod");
  check_error(run_error("sharded-matmul", {{"spec", Value::of("A[I, J] * B[J, K]")},
                                           {"I", Value::of(65536.0)},
                                           {"J", Value::of(131072.0)}}),
              ErrorCode::out_of_range, "spec",
              "A needs 17.2 GB per device but TPU v5e has 16 GB of HBM");
  check_error(run_error("sharded-matmul", {{"I", Value::of(4098.0)}}), ErrorCode::invalid_argument,
              "I", "I=4098 must be divisible by 4, the size of its axis X=4, in A");
  check_error(run_error("sharded-matmul", {{"spec", Value::of("A[M, J] * B[J, K]")}}),
              ErrorCode::invalid_argument, "M", "give the size of dimension M, like M=4096");
  check_error(run_error("sharded-matmul", {{"Q", Value::of(8.0)}}), ErrorCode::invalid_argument,
              "Q", "Q is not a dimension of these arrays; they have I, J, K");
  check_error(run_error("sharded-matmul", {{"dtype", Value::of("fp32")}}), ErrorCode::unsupported,
              "dtype", "tpu-v5e has no fp32 peak in the catalog; give peak_flops to set one");
  CHECK(run("sharded-matmul", {{"dtype", Value::of("fp32")}, {"peak_flops", Value::of(1e14)}})
            .steps.size() > 0);
  Error e = run_error("sharded-matmul", {{"spec", Value::of("A[I_X, J] * B[J, K_Q]")}});
  CHECK(e.field == "spec");
  CHECK(e.position == 19);
  CHECK(e.message == "spec uses mesh axis Q, which the mesh (X, Y) lacks, at character 19");
}

// ---------------------------------------------------------------------------------------------
// Every plan, run on numbers: each device holds its block of A, B and C as the sharding says
// (piece p of a dimension split in P pieces is the range [p n/P, (p+1) n/P), p mixed radix
// over the subscript's axes), the collectives move only data their group holds, and the final
// blocks must be the true product's (or sum to it over the axes C keeps unreduced).
namespace {

struct Block {
  std::vector<std::pair<std::int64_t, std::int64_t>> ranges;  // [begin, end) per dimension
  std::vector<std::int64_t> data;                             // row-major over the ranges
};

class Simulation {
 public:
  Simulation(const Mesh& mesh, std::int64_t n) : mesh_(mesh), n_(n) {}

  std::vector<std::int64_t> coords(std::int64_t device) const {
    std::vector<std::int64_t> c(mesh_.axes.size());
    for (std::size_t k = mesh_.axes.size(); k-- > 0;) {
      c[k] = device % mesh_.axes[k].size;
      device /= mesh_.axes[k].size;
    }
    return c;
  }

  std::vector<std::pair<std::int64_t, std::int64_t>> ranges(const ShardedArray& a,
                                                            std::int64_t device) const {
    std::vector<std::int64_t> c = coords(device);
    std::vector<std::pair<std::int64_t, std::int64_t>> out;
    for (const ShardedDim& d : a.dims) {
      std::int64_t piece = 0, pieces = 1;
      for (char axis : d.axes) {
        for (std::size_t k = 0; k < mesh_.axes.size(); ++k) {
          if (mesh_.axes[k].name == axis) piece = piece * mesh_.axes[k].size + c[k];
        }
        pieces *= mesh_.find(axis)->size;
      }
      out.emplace_back(piece * n_ / pieces, (piece + 1) * n_ / pieces);
    }
    return out;
  }

  // Devices whose coordinates differ from `device`'s only along `axes`.
  std::vector<std::int64_t> group(std::int64_t device, const std::string& axes) const {
    std::vector<std::int64_t> mine = coords(device), out;
    for (std::int64_t d = 0; d < mesh_.devices(); ++d) {
      std::vector<std::int64_t> c = coords(d);
      bool same = true;
      for (std::size_t k = 0; k < c.size(); ++k) {
        same = same && (c[k] == mine[k] || axes.find(mesh_.axes[k].name) != std::string::npos);
      }
      if (same) out.push_back(d);
    }
    return out;
  }

  std::int64_t devices() const { return mesh_.devices(); }

 private:
  const Mesh& mesh_;
  std::int64_t n_;
};

bool contains(const Block& b, std::int64_t i, std::int64_t j) {
  return b.ranges[0].first <= i && i < b.ranges[0].second && b.ranges[1].first <= j &&
         j < b.ranges[1].second;
}

std::int64_t at(const Block& b, std::int64_t i, std::int64_t j) {
  const std::int64_t width = b.ranges[1].second - b.ranges[1].first;
  return b.data[static_cast<std::size_t>((i - b.ranges[0].first) * width + j - b.ranges[1].first)];
}

template <class F>
Block fill(std::vector<std::pair<std::int64_t, std::int64_t>> ranges, F value) {
  Block b{std::move(ranges), {}};
  for (std::int64_t i = b.ranges[0].first; i < b.ranges[0].second; ++i) {
    for (std::int64_t j = b.ranges[1].first; j < b.ranges[1].second; ++j) {
      b.data.push_back(value(i, j));
    }
  }
  return b;
}

std::int64_t a_value(std::int64_t i, std::int64_t j) { return (i * 7 + j * 3) % 5 - 2; }
std::int64_t b_value(std::int64_t j, std::int64_t k) { return (j * 5 + k) % 7 - 3; }
std::int64_t c_value(std::int64_t i, std::int64_t k, std::int64_t n) {
  std::int64_t sum = 0;
  for (std::int64_t j = 0; j < n; ++j) sum += a_value(i, j) * b_value(j, k);
  return sum;
}

ShardedArray parsed(const std::string& text) {
  Result<ShardedArray> r = parse_array(text);
  REQUIRE(r.ok());
  return r.value();
}

// Runs `plan` (the calculator's text) for A[I, J] * B[J, K] on n x n matrices; "" if it
// computes C, else what went wrong.
std::string simulate(const std::string& plan, const MatmulSpec& spec, const Mesh& mesh,
                     std::int64_t n) {
  Simulation sim(mesh, n);
  std::map<std::string, ShardedArray> sharding = {{spec.a.name, spec.a}, {spec.b.name, spec.b}};
  std::map<std::string, std::vector<Block>> held;
  for (std::int64_t d = 0; d < sim.devices(); ++d) {
    held[spec.a.name].push_back(fill(sim.ranges(spec.a, d), a_value));
    held[spec.b.name].push_back(fill(sim.ranges(spec.b, d), b_value));
  }
  std::string c_name;
  std::size_t start = 0;
  while (start <= plan.size()) {
    std::size_t end = plan.find("; ", start);
    if (end == std::string::npos) end = plan.size();
    const std::string op = plan.substr(start, end - start);
    start = end + 2;
    const std::size_t arrow = op.find(" -> ");
    const std::size_t star = op.find(" * ");
    if (star != std::string::npos) {
      ShardedArray a = parsed(op.substr(0, star));
      ShardedArray b = parsed(op.substr(star + 3, arrow - star - 3));
      ShardedArray c = parsed(op.substr(arrow + 4));
      if (array_text(sharding[a.name]) != array_text(a)) return "A is not " + array_text(a);
      if (array_text(sharding[b.name]) != array_text(b)) return "B is not " + array_text(b);
      std::vector<Block> out;
      for (std::int64_t d = 0; d < sim.devices(); ++d) {
        const Block& x = held[a.name][static_cast<std::size_t>(d)];
        const Block& y = held[b.name][static_cast<std::size_t>(d)];
        if (x.ranges[1] != y.ranges[0])
          return "contracting blocks differ on device " + std::to_string(d);
        auto want = sim.ranges(c, d);
        if (want[0] != x.ranges[0] || want[1] != y.ranges[1]) return "C's block is misplaced";
        out.push_back(fill(want, [&](std::int64_t i, std::int64_t k) {
          std::int64_t sum = 0;
          for (std::int64_t j = x.ranges[1].first; j < x.ranges[1].second; ++j) {
            sum += at(x, i, j) * at(y, j, k);
          }
          return sum;
        }));
      }
      held[c.name] = out;
      sharding[c.name] = c;
      c_name = c.name;
      continue;
    }
    const std::size_t space = op.find(' ');
    const std::string head = op.substr(0, space);
    const std::string kind = head.substr(0, head.find('_'));
    const std::string axes = head.substr(head.find('_') + 1);
    ShardedArray before = parsed(op.substr(space + 1, arrow - space - 1));
    ShardedArray after = parsed(op.substr(arrow + 4));
    if (array_text(sharding[before.name]) != array_text(before)) {
      return op + ": the array is " + array_text(sharding[before.name]);
    }
    const std::vector<Block>& old = held[before.name];
    std::vector<Block> out;
    for (std::int64_t d = 0; d < sim.devices(); ++d) {
      const Block& mine = old[static_cast<std::size_t>(d)];
      auto want = sim.ranges(after, d);
      std::vector<std::int64_t> peers = sim.group(d, axes);
      std::string bad;
      Block next = fill(want, [&](std::int64_t i, std::int64_t j) -> std::int64_t {
        if (kind == "Slice") {
          if (!contains(mine, i, j)) bad = "a slice needs data the device lacks";
          return bad.empty() ? at(mine, i, j) : 0;
        }
        if (kind == "AllGather") {
          for (std::int64_t p : peers) {
            if (contains(old[static_cast<std::size_t>(p)], i, j)) {
              return at(old[static_cast<std::size_t>(p)], i, j);
            }
          }
          bad =
              "no device of the group holds (" + std::to_string(i) + ", " + std::to_string(j) + ")";
          return 0;
        }
        std::int64_t sum = 0;  // ReduceScatter, AllReduce
        for (std::int64_t p : peers) {
          if (!contains(old[static_cast<std::size_t>(p)], i, j)) {
            bad = "a peer lacks the block it must add";
            return 0;
          }
          sum += at(old[static_cast<std::size_t>(p)], i, j);
        }
        return sum;
      });
      if (!bad.empty()) return op + ": " + bad;
      out.push_back(std::move(next));
    }
    held[after.name] = out;
    sharding[after.name] = after;
  }
  const ShardedArray& c = sharding[c_name];
  for (std::int64_t d = 0; d < sim.devices(); ++d) {
    const Block& b = held[c_name][static_cast<std::size_t>(d)];
    for (std::int64_t i = b.ranges[0].first; i < b.ranges[0].second; ++i) {
      for (std::int64_t k = b.ranges[1].first; k < b.ranges[1].second; ++k) {
        std::int64_t sum = 0;
        for (std::int64_t p : sim.group(d, c.unreduced)) {
          sum += at(held[c_name][static_cast<std::size_t>(p)], i, k);
        }
        if (sum != c_value(i, k, n)) return "C is wrong on device " + std::to_string(d);
      }
    }
  }
  return "";
}

}  // namespace

TEST_CASE("every plan, the chosen one and its alternatives, computes the product on numbers",
          "[sharded-matmul]") {
  std::uint64_t state = 20261130;
  auto below = [&](std::uint64_t n) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::size_t>((state >> 33) % n);
  };
  const std::int64_t n = 8;
  int checked = 0;
  for (int trial = 0; trial < 250; ++trial) {
    const std::string mesh_text = trial % 2 ? "X=2, Y=2, Z=2" : "X=2, Y=4";
    const Mesh mesh = parse_mesh(mesh_text).value();
    // Each mesh axis goes to one of the array's dimensions, its {U_}, or nowhere, in a
    // random order, so subscripts come in every order.
    auto shard = [&](const std::string& name, const char* d0, const char* d1, bool unreduced) {
      std::string axes;
      for (const Axis& a : mesh.axes) axes.insert(below(axes.size() + 1), 1, a.name);
      std::string on[3];
      for (char axis : axes) {
        std::size_t where = below(unreduced ? 5 : 4);
        if (where < 2) on[where] += axis;
        if (where == 4) on[2] += axis;
      }
      auto dim = [](const char* d, const std::string& a) { return d + (a.empty() ? "" : "_" + a); };
      return name + "[" + dim(d0, on[0]) + ", " + dim(d1, on[1]) + "]" +
             (on[2].empty() ? "" : "{U_" + on[2] + "}");
    };
    std::string spec = shard("A", "I", "J", false) + " * " + shard("B", "J", "K", false);
    if (below(4) != 0) spec += " -> " + shard("C", "I", "K", below(3) == 0);
    INFO(spec << " on " << mesh_text);
    Result<Calculation> r = calculate("sharded-matmul", {{"spec", Value::of(spec)},
                                                         {"mesh", Value::of(mesh_text)},
                                                         {"chip", Value::of("tpu-v5p")},
                                                         {"I", Value::of(double(n))},
                                                         {"J", Value::of(double(n))},
                                                         {"K", Value::of(double(n))}});
    REQUIRE(r.ok());
    const MatmulSpec parsed_spec = parse_matmul(spec).value();
    std::vector<std::string> plans = {text(r.value(), "plan")};
    for (const auto& row : table(r.value(), "alternatives").rows) plans.push_back(row[0].text);
    for (const std::string& p : plans) {
      INFO(p);
      CHECK(simulate(p, parsed_spec, mesh, n) == "");
      ++checked;
    }
  }
  CHECK(checked > 1000);
}
