#include "scalebook/systolic/mxu.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "scalebook/core/format.h"
#include "scalebook/hardware/catalog.h"
#include "scalebook/hardware/chip_inputs.h"
#include "scalebook/systolic/systolic.h"

namespace scalebook {
namespace {

struct MxuHardware {
  double mxus = 0;
  double array = 0;  // side of each square MXU
  double clock = 0;  // Hz
};

// The chip's MXUs from the hardware catalog, each replaceable by an input; a chip the
// book gives no MXU numbers for (a GPU) needs all three given.
Result<MxuHardware> resolve_mxu_hardware(const ResolvedInputs& in) {
  const Chip* chip = chip_of(in);
  if (!chip) return Error{ErrorCode::not_found, "chip", "unknown chip \"" + in.text("chip") + "\""};
  struct Field {
    const char* input;
    const char* catalog;
    double from_chip;
    double MxuHardware::*slot;
  };
  const Field fields[] = {{"mxus", "mxus_per_chip", chip->mxus_per_chip, &MxuHardware::mxus},
                          {"array", "mxu_size", chip->mxu_size, &MxuHardware::array},
                          {"clock", "clock_hz", chip->clock_hz, &MxuHardware::clock}};
  MxuHardware hw;
  for (const Field& f : fields) {
    double value = in.has(f.input) ? in.number(f.input) : f.from_chip;
    if (value <= 0) {
      return Error{
          ErrorCode::unsupported, f.input,
          chip->id + " has no " + f.catalog + " in the catalog; give " + f.input + " to set one"};
    }
    hw.*(f.slot) = value;
  }
  return hw;
}

Schema mxu_schema() {
  Schema s{
      "mxu", "time of a matmul C[M,N] = A[M,K] x B[K,N] on a chip's MXUs, with padding", {}, {}};
  s.inputs = {
      labelled({"M", InputKind::count, "", "rows of A and C: the tokens streamed through",
                Value::of(1024.0), 1, false, 1e9},
               "Rows M"),
      labelled({"N", InputKind::count, "", "columns of B and C", Value::of(1024.0), 1, false, 1e9},
               "Columns N"),
      labelled(
          {"K", InputKind::count, "", "contracting dimension", Value::of(1024.0), 1, false, 1e9},
          "Contracting dimension K"),
      chip_input(),
      labelled({"mxus", InputKind::count, "", "override: MXUs on the chip", Value::none(), 1, false,
                1024},
               "MXUs", InputGroup::override),
      labelled(
          {"array", InputKind::count, "", "override: side of each square MXU (128; 256 on v6e)",
           Value::none(), 1, false, 4096},
          "MXU size", InputGroup::override),
      labelled({"clock", InputKind::number, "Hz", "override: the MXU clock", Value::none(), 0, true,
                1e11},
               "MXU clock", InputGroup::override),
      labelled(
          {"lhs_tile", InputKind::count, "", "rows of A per MXU op (8 sublanes); M is padded to it",
           Value::of(8.0), 1, false, 4096},
          "LHS tile rows", InputGroup::advanced),
  };
  s.outputs = {
      {"M_padded", "", "M rounded up to a multiple of lhs_tile", false, "Padded M"},
      {"N_padded", "", "N rounded up to a multiple of the array side", false, "Padded N"},
      {"K_padded", "", "K rounded up to a multiple of the array side", false, "Padded K"},
      {"padding_waste", "", "fraction of the MXU work spent on padding", false, "Padding waste"},
      {"weight_tiles", "", "array x array tiles of the padded B", false, "Weight tiles"},
      {"tiles_per_mxu", "", "weight tiles on the busiest MXU", false, "Tiles per MXU"},
      {"cycles", "", "cycles of the busiest MXU, pipelined weight-stationary", false, "Cycles"},
      {"time", "s", "cycles over the clock", false, "Time"},
      {"flops", "FLOP", "2 M N K, padding excluded", false, "FLOPs"},
      {"flops_per_cycle", "FLOP", "one MXU's FLOPs per cycle: 2 x array^2", false,
       "FLOPs per cycle per MXU"},
      {"peak_flops_per_mxu", "FLOP/s", "one MXU's FLOPs per cycle times the clock", false,
       "Peak FLOP/s per MXU"},
      {"peak_flops", "FLOP/s", "all MXUs at peak", false, "Peak FLOP/s"},
      {"achieved_flops", "FLOP/s", "FLOPs over the time", false, "Achieved FLOP/s"},
      {"efficiency", "", "achieved over peak FLOP/s", false, "Efficiency"},
      {"cycles_per_lhs_tile", "",
       "steady-state cycles per lhs_tile rows through one weight tile (8 when M >= array)", false,
       "Cycles per LHS tile"},
  };
  return s;
}

double round_up(double x, double multiple) { return std::ceil(x / multiple) * multiple; }
std::string n(double x) { return latex_number(x); }

struct Numbers {
  double M, N, K, Mp, Np, Kp, waste, tiles, per_mxu, cycles, time, flops, per_cycle, peak_mxu, peak,
      achieved, per_lhs_tile;
};

Numbers mxu_numbers(const ResolvedInputs& in, const MxuHardware& hw) {
  Numbers x{};
  x.M = in.number("M"), x.N = in.number("N"), x.K = in.number("K");
  double tile = in.number("lhs_tile"), a = hw.array;
  x.Mp = round_up(x.M, tile), x.Np = round_up(x.N, a), x.Kp = round_up(x.K, a);
  x.waste = 1 - x.M * x.N * x.K / (x.Mp * x.Np * x.Kp);
  x.tiles = (x.Kp / a) * (x.Np / a);
  x.per_mxu = std::ceil(x.tiles / hw.mxus);
  auto side = static_cast<std::int64_t>(a);
  x.cycles = convention_cycles(x.per_mxu, side, static_cast<std::int64_t>(x.Mp), {side, side},
                               Convention::pipelined);
  x.time = x.cycles / hw.clock;
  x.flops = 2 * x.M * x.N * x.K;
  x.per_cycle = 2 * a * a;
  x.peak_mxu = x.per_cycle * hw.clock;
  x.peak = hw.mxus * x.peak_mxu;
  x.achieved = x.flops / x.time;
  x.per_lhs_tile = tile * std::max(x.Mp, a) / x.Mp;
  return x;
}

std::vector<Step> mxu_steps(const Numbers& x, const MxuHardware& hw, double tile) {
  double a = hw.array;
  return {
      {"Padded M (a multiple of the LHS tile)",
       "M_p = " + n(tile) + " \\lceil " + n(x.M) + " / " + n(tile) + " \\rceil = " + n(x.Mp),
       x.Mp,
       "",
       "M_padded",
       {}},
      {"Padded N (a multiple of the array)",
       "N_p = " + n(a) + " \\lceil " + n(x.N) + " / " + n(a) + " \\rceil = " + n(x.Np),
       x.Np,
       "",
       "N_padded",
       {}},
      {"Padded K (a multiple of the array)",
       "K_p = " + n(a) + " \\lceil " + n(x.K) + " / " + n(a) + " \\rceil = " + n(x.Kp),
       x.Kp,
       "",
       "K_padded",
       {}},
      {"Padding waste",
       "1 - \\frac{M N K}{M_p N_p K_p} = 1 - \\frac{" + n(x.M * x.N * x.K) + "}{" +
           n(x.Mp * x.Np * x.Kp) + "} = " + n(x.waste),
       x.waste,
       "",
       "padding_waste",
       {"K_padded"}},
      {"Weight tiles",
       "\\frac{K_p}{" + n(a) + "} \\cdot \\frac{N_p}{" + n(a) + "} = " + n(x.tiles),
       x.tiles,
       "",
       "weight_tiles",
       {"K_padded"}},
      {"Tiles on the busiest MXU",
       "\\lceil " + n(x.tiles) + " / " + n(hw.mxus) + " \\rceil = " + n(x.per_mxu),
       x.per_mxu,
       "",
       "tiles_per_mxu",
       {"weight_tiles"}},
      {"Cycles of the busiest MXU (pipelined: the next tile loads while this one streams)",
       "a + (t - 1) \\max(M_p, a) + M_p + 2a - 2 = " + n(a) + " + " + n(x.per_mxu - 1) +
           " \\cdot " + n(std::max(x.Mp, a)) + " + " + n(x.Mp) + " + " + n(2 * a - 2) + " = " +
           n(x.cycles),
       x.cycles,
       "",
       "cycles",
       {"tiles_per_mxu"}},
      {"Time",
       "\\frac{" + n(x.cycles) + "}{" + latex_quantity(hw.clock, "Hz") +
           "} = " + latex_quantity(x.time, "s"),
       x.time,
       "s",
       "time",
       {"cycles"}},
      {"FLOPs per cycle of one MXU",
       "2 \\cdot " + n(a) + "^2 = " + n(x.per_cycle),
       x.per_cycle,
       "FLOP",
       "flops_per_cycle",
       {}},
      {"Peak of one MXU",
       n(x.per_cycle) + " \\cdot " + latex_quantity(hw.clock, "Hz") + " = " +
           latex_quantity(x.peak_mxu, "FLOP/s"),
       x.peak_mxu,
       "FLOP/s",
       "peak_flops_per_mxu",
       {"flops_per_cycle"}},
      {"Peak of the chip",
       n(hw.mxus) + " \\cdot " + latex_quantity(x.peak_mxu, "FLOP/s") + " = " +
           latex_quantity(x.peak, "FLOP/s"),
       x.peak,
       "FLOP/s",
       "peak_flops",
       {"peak_flops_per_mxu"}},
      {"FLOPs",
       "2 M N K = 2 \\cdot " + n(x.M) + " \\cdot " + n(x.N) + " \\cdot " + n(x.K) + " = " +
           latex_quantity(x.flops, "FLOP"),
       x.flops,
       "FLOP",
       "flops",
       {}},
      {"Steady-state cycles per LHS tile (one row a cycle unless weight loads set the pace)",
       n(tile) + " \\cdot \\frac{\\max(M_p, a)}{M_p} = " + n(tile) + " \\cdot \\frac{" +
           n(std::max(x.Mp, a)) + "}{" + n(x.Mp) + "} = " + n(x.per_lhs_tile),
       x.per_lhs_tile,
       "",
       "cycles_per_lhs_tile",
       {"M_padded"}},
      {"Achieved",
       "\\frac{2 M N K}{T} = \\frac{" + latex_quantity(x.flops, "FLOP") + "}{" +
           latex_quantity(x.time, "s") + "} = " + latex_quantity(x.achieved, "FLOP/s"),
       x.achieved,
       "FLOP/s",
       "achieved_flops",
       {"time"}},
      {"Efficiency",
       "\\frac{" + latex_quantity(x.achieved, "FLOP/s") + "}{" + latex_quantity(x.peak, "FLOP/s") +
           "} = " + n(x.achieved / x.peak),
       x.achieved / x.peak,
       "",
       "efficiency",
       {"achieved_flops", "peak_flops"}},
  };
}

std::optional<Error> compute_mxu(const ResolvedInputs& in, ResultBuilder& out) {
  Result<MxuHardware> resolved = resolve_mxu_hardware(in);
  if (!resolved.ok()) return resolved.error();
  MxuHardware hw = resolved.value();
  Numbers x = mxu_numbers(in, hw);
  if (out.explain()) out.steps(mxu_steps(x, hw, in.number("lhs_tile")));
  out.set({
      {"M_padded", Value::of(x.Mp)},
      {"N_padded", Value::of(x.Np)},
      {"K_padded", Value::of(x.Kp)},
      {"padding_waste", Value::of(x.waste)},
      {"weight_tiles", Value::of(x.tiles)},
      {"tiles_per_mxu", Value::of(x.per_mxu)},
      {"cycles", Value::of(x.cycles)},
      {"time", Value::of(x.time)},
      {"flops", Value::of(x.flops)},
      {"flops_per_cycle", Value::of(x.per_cycle)},
      {"peak_flops_per_mxu", Value::of(x.peak_mxu)},
      {"peak_flops", Value::of(x.peak)},
      {"achieved_flops", Value::of(x.achieved)},
      {"efficiency", Value::of(x.achieved / x.peak)},
      {"cycles_per_lhs_tile", Value::of(x.per_lhs_tile)},
  });
  return std::nullopt;
}

}  // namespace

Calculator mxu_calculator() { return {mxu_schema(), compute_mxu}; }

}  // namespace scalebook
