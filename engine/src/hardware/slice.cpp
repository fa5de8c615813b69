#include "scalebook/hardware/slice.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "scalebook/core/format.h"
#include "scalebook/hardware/catalog.h"
#include "scalebook/hardware/chip_inputs.h"

namespace scalebook {
namespace {

using Dims = std::vector<std::int64_t>;

constexpr const char* kAxes[] = {"x", "y", "z"};
constexpr const char* kSizeNames[] = {"size_x", "size_y", "size_z"};
constexpr const char* kWrapNames[] = {"wrap_x", "wrap_y", "wrap_z"};
constexpr std::size_t kMaxAxes = 3;
// Sizes beyond this saturate: no pod is near it, so the slice is too big either way.
constexpr std::int64_t kHugeSize = 1000000000;

Schema slice_schema() {
  Schema s{"slice",
           "a TPU slice of the ICI torus: its chips, which axes wrap around, the links a chip "
           "uses and the hops to the farthest chip",
           {},
           {}};
  s.inputs = {
      chip_input(),
      labelled({"shape", InputKind::text, "",
                "chips along each torus axis joined by x, as many axes as the chip's torus "
                "(4x4 on v5e, 4x4x8 on v5p)",
                Value::of("4x4")},
               "Slice shape"),
  };
  s.outputs = {
      {"chips", "chips", "chips in the slice", false, "Chips"},
      {"axes", "", "axes of the chip's torus (2 or 3)", false, "Torus axes"},
      {"size_x", "chips", "chips along x", false, "Chips along x"},
      {"size_y", "chips", "chips along y", false, "Chips along y"},
      {"size_z", "chips", "chips along z; none on a 2D torus", false, "Chips along z"},
      {"wrap_x", "", "x has wraparound links: yes, no, or unknown (the catalog states no rule)",
       true, "Wraps along x"},
      {"wrap_y", "", "y has wraparound links: yes, no or unknown", true, "Wraps along y"},
      {"wrap_z", "", "z has wraparound links: yes, no or unknown; empty on a 2D torus", true,
       "Wraps along z"},
      {"wrapped_axes", "", "axes with wraparound links; none when the catalog states no rule",
       false, "Wrapped axes"},
      {"links_per_chip", "links",
       "ICI links an inner chip uses inside the slice: 2 per axis that wraps or has 3+ chips, 1 "
       "per axis of 2, 0 per axis of 1",
       false, "Links per chip"},
      {"ici_links", "links", "ICI links inside the slice, each counted once", false, "ICI links"},
      {"hops_max", "hops",
       "hops to the farthest chip: floor(n/2) along an axis that wraps, n-1 along one that "
       "does not, summed",
       false, "Hops to the farthest chip"},
      {"bisection_links", "links",
       "links cut when the slice is split across the middle of one axis, the cheapest such cut",
       false, "Bisection links"},
      {"bisection_bandwidth", "B/s", "bisection_links times the ICI link bandwidth, one direction",
       false, "Bisection bandwidth"},
  };
  return s;
}

std::string join_dims(const Dims& dims, const char* sep) {
  std::string out;
  for (std::int64_t d : dims) out += (out.empty() ? "" : sep) + std::to_string(d);
  return out;
}

// Fits in some orientation: the sorted sizes, each within the sorted pod's.
bool fits(Dims dims, Dims pod) {
  std::sort(dims.begin(), dims.end());
  std::sort(pod.begin(), pod.end());
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] > pod[i]) return false;
  }
  return true;
}

double product(const Dims& dims) {
  double n = 1;
  for (std::int64_t d : dims) n *= static_cast<double>(d);
  return n;
}

struct CheckedShape {
  Dims dims;
  Dims pod;
};

struct WrapDecision {
  std::vector<Wrap> wraps;
  std::vector<std::string> reasons;  // LaTeX, one per axis
};

std::string num(std::int64_t x) { return std::to_string(x); }

// `explain`: also say why, in LaTeX (the numbers-only path needs only the decision).
WrapDecision decide_wraps(const Chip& chip, const Dims& dims, const Dims& pod, bool explain) {
  WrapDecision d;
  d.wraps.reserve(dims.size());
  Dims cube;
  bool has_cube = !chip.cube_topology.empty();
  bool cube_ok =
      has_cube && parse_axis_sizes(chip.cube_topology, cube) && cube.size() == dims.size();
  if (chip.wraparound.empty() || (has_cube && !cube_ok)) {
    for (std::size_t i = 0; i < dims.size(); ++i) {
      d.wraps.push_back(Wrap::unknown);
      if (explain) d.reasons.push_back("\\text{the catalog states no wraparound rule}");
    }
    return d;
  }
  if (cube_ok) {
    bool whole = true;
    std::string terms;
    for (std::size_t i = 0; i < dims.size(); ++i) {
      whole = whole && dims[i] % cube[i] == 0;
      if (explain)
        terms += (i ? ",\\ " : "") + num(dims[i]) + " \\bmod " + num(cube[i]) + " = " +
                 num(dims[i] % cube[i]);
    }
    for (std::size_t i = 0; i < dims.size(); ++i) {
      d.wraps.push_back(whole ? Wrap::yes : Wrap::no);
      if (explain)
        d.reasons.push_back(terms + (whole ? " \\Rightarrow \\text{whole cubes: wraps}"
                                           : " \\Rightarrow \\text{not whole cubes: no wrap}"));
    }
    return d;
  }
  for (std::size_t i = 0; i < dims.size(); ++i) {
    bool full = dims[i] == pod[i];
    d.wraps.push_back(full ? Wrap::yes : Wrap::no);
    if (!explain) continue;
    d.reasons.push_back("n_" + std::string(kAxes[i]) + " = " + num(dims[i]) +
                        (full ? " = " : " \\ne ") + num(pod[i]) + " = \\text{pod}_" + kAxes[i] +
                        (full ? " \\Rightarrow \\text{wraps}" : " \\Rightarrow \\text{no wrap}"));
  }
  return d;
}

const char* wrap_text(Wrap w) {
  if (w == Wrap::yes) return "yes";
  return w == Wrap::no ? "no" : "unknown";
}

Error shape_error(ErrorCode code, std::string message) {
  return Error{code, "shape", std::move(message)};
}

Result<Dims> check_dims(const Chip& chip, const Dims& dims, Dims& pod);

// The shape checked against the chip's torus: its sizes and the pod's, or the error.
Result<Dims> check_shape(const Chip& chip, const std::string& shape, Dims& pod) {
  auto axes = static_cast<std::size_t>(chip.torus_dims);
  if (axes < 1 || axes > kMaxAxes || !parse_axis_sizes(chip.pod_topology, pod) ||
      pod.size() != axes) {
    return Error{ErrorCode::unsupported, "chip", chip.id + " has no ICI torus in the catalog"};
  }
  Dims dims;
  if (!parse_axis_sizes(shape, dims)) {
    return shape_error(ErrorCode::invalid_argument, "shape must be sizes joined by x, like " +
                                                        join_dims(Dims(axes, 4), "x") + ", got \"" +
                                                        shape + "\"");
  }
  return check_dims(chip, dims, pod);
}

Result<Dims> check_dims(const Chip& chip, const Dims& dims, Dims& pod) {
  auto axes = static_cast<std::size_t>(chip.torus_dims);
  if (axes < 1 || axes > kMaxAxes || !parse_axis_sizes(chip.pod_topology, pod) ||
      pod.size() != axes) {
    return Error{ErrorCode::unsupported, "chip", chip.id + " has no ICI torus in the catalog"};
  }
  if (dims.size() != axes) {
    return shape_error(ErrorCode::invalid_argument, "shape has " + std::to_string(dims.size()) +
                                                        " axes but " + chip.id + " is a " +
                                                        std::to_string(axes) + "D torus");
  }
  if (!fits(dims, pod) || (chip.pod_chips > 0 && product(dims) > chip.pod_chips)) {
    return shape_error(ErrorCode::out_of_range, "shape " + join_dims(dims, "x") + " exceeds the " +
                                                    chip.id + " pod of " + chip.pod_topology);
  }
  return dims;
}

struct Links {
  double per_chip = 0;
  double total = 0;
  double hops = 0;
  double bisection = 0;
  std::string per_chip_latex, total_latex, hops_latex, bisection_latex;
};

// Counts along each axis: a ring of n has n links and floor(n/2) hops; a line has n-1 of each.
Links count_links(const Dims& dims, const std::vector<Wrap>& wraps, double chips, bool explain) {
  Links l;
  bool first_cut = true;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    std::int64_t n = dims[i];
    bool ring = wraps[i] == Wrap::yes && n > 1;
    std::int64_t per_chip = n == 1 ? 0 : (ring || n > 2 ? 2 : 1);
    std::int64_t along = n == 1 ? 0 : (ring ? n : n - 1);
    std::int64_t hops = ring ? n / 2 : n - 1;
    double lines = chips / static_cast<double>(n);
    l.per_chip += static_cast<double>(per_chip);
    l.total += lines * static_cast<double>(along);
    l.hops += static_cast<double>(hops);
    if (explain) {
      const std::string plus = i ? " + " : "";
      l.per_chip_latex += plus + num(per_chip);
      l.total_latex += plus + latex_number(lines) + " \\cdot " + num(along);
      l.hops_latex += plus + (ring ? "\\lfloor " + num(n) + "/2 \\rfloor" : "(" + num(n) + " - 1)");
    }
    if (n > 1) {
      double cut = lines * (ring ? 2 : 1);
      l.bisection = first_cut ? cut : std::min(l.bisection, cut);
      if (explain)
        l.bisection_latex +=
            (first_cut ? "" : ",\\ ") + latex_number(lines) + (ring ? " \\cdot 2" : " \\cdot 1");
      first_cut = false;
    }
  }
  if (first_cut && explain) l.bisection_latex = "0";
  return l;
}

Step count_step(const std::string& label, const std::string& latex, double value,
                const std::string& unit, const std::string& output,
                std::vector<std::string> depends) {
  return {label, latex, value, unit, output, std::move(depends)};
}

std::optional<Error> compute_slice(const ResolvedInputs& in, ResultBuilder& out) {
  const Chip* chip = chip_of(in);
  if (!chip) return Error{ErrorCode::not_found, "chip", "unknown chip \"" + in.text("chip") + "\""};
  // Parsed once per prepared calculation: the shape and the chip are fixed across evaluations.
  Result<const CheckedShape*> checked =
      in.parsed<CheckedShape>("shape", [chip](const std::string& shape) -> Result<CheckedShape> {
        CheckedShape c;
        Result<Dims> dims = check_shape(*chip, shape, c.pod);
        if (!dims.ok()) return dims.error();
        c.dims = std::move(dims.value());
        return c;
      });
  if (!checked.ok()) return checked.error();
  const Dims& dims = checked.value()->dims;
  const Dims& pod = checked.value()->pod;
  const double chips = product(dims);
  const auto axes = static_cast<double>(dims.size());
  WrapDecision decision = decide_wraps(*chip, dims, pod, out.explain());
  bool known = decision.wraps[0] != Wrap::unknown;

  out.set("chips", Value::of(chips));
  out.set("axes", Value::of(axes));
  if (in.explain())
    out.step(count_step("Chips in the slice",
                        "N = " + join_dims(dims, " \\times ") + " = " + latex_number(chips), chips,
                        "chips", "chips", {}));
  if (in.explain())
    out.step(count_step("Axes of the " + chip->name + " torus",
                        "\\text{axes} = " + latex_number(axes), axes, "", "axes", {}));
  std::vector<std::string> sizes;
  std::vector<std::string> wrap_names;
  for (std::size_t i = 0; i < kMaxAxes; ++i) {
    if (i >= dims.size()) {
      out.none(kSizeNames[i], "not applicable: the chip's torus has no such axis");
      continue;
    }
    auto n = static_cast<double>(dims[i]);
    out.set(kSizeNames[i], n);
    if (!out.explain()) continue;
    const std::string axis = kAxes[i];
    out.step(count_step("Chips along " + axis, "n_" + axis + " = " + latex_number(n), n, "chips",
                        kSizeNames[i], {}));
    sizes.push_back(kSizeNames[i]);
  }
  double wrapped = 0;
  for (std::size_t i = 0; i < kMaxAxes; ++i) {
    if (i >= dims.size()) {
      out.set_text(kWrapNames[i], "");
      continue;
    }
    Wrap w = decision.wraps[i];
    out.set_text(kWrapNames[i], wrap_text(w));
    if (w == Wrap::yes) wrapped += 1;
    if (w == Wrap::unknown || !out.explain()) continue;
    const std::string axis = kAxes[i];
    out.step(count_step(axis + " wraps around: " + wrap_text(w) + " (1 yes, 0 no)",
                        decision.reasons[i], w == Wrap::yes ? 1 : 0, "", kWrapNames[i], sizes));
    wrap_names.push_back(kWrapNames[i]);
  }
  if (!known) {
    for (const char* name : {"wrapped_axes", "links_per_chip", "ici_links", "hops_max",
                             "bisection_links", "bisection_bandwidth"}) {
      out.none(name, "the catalog states no wraparound rule for the " + chip->name);
    }
    return std::nullopt;
  }
  Links l = count_links(dims, decision.wraps, chips, out.explain());
  out.set("wrapped_axes", Value::of(wrapped));
  out.set("links_per_chip", Value::of(l.per_chip));
  out.set("ici_links", Value::of(l.total));
  out.set("hops_max", Value::of(l.hops));
  out.set("bisection_links", Value::of(l.bisection));
  bool has_bw = chip->ici_link_bandwidth > 0;
  double bw = l.bisection * chip->ici_link_bandwidth;
  if (has_bw)
    out.set("bisection_bandwidth", bw);
  else
    out.none("bisection_bandwidth", "the catalog has no ici_link_bandwidth for the " + chip->name);
  if (in.explain())
    out.step(count_step("Axes with wraparound links", "\\text{wrapped} = " + latex_number(wrapped),
                        wrapped, "", "wrapped_axes", wrap_names));
  if (in.explain())
    out.step(
        count_step("ICI links an inner chip uses (2 on a ring or a line of 3+, 1 on "
                   "a pair, 0 alone)",
                   "L = " + l.per_chip_latex + " = " + latex_number(l.per_chip), l.per_chip,
                   "links", "links_per_chip", wrap_names));
  if (in.explain())
    out.step(
        count_step("ICI links in the slice (lines along each axis times the links "
                   "of one: n on a ring, n - 1 on a line)",
                   "E = " + l.total_latex + " = " + latex_number(l.total), l.total, "links",
                   "ici_links", wrap_names));
  if (in.explain())
    out.step(count_step("Hops to the farthest chip (half the ring, or the whole line)",
                        "H = " + l.hops_latex + " = " + latex_number(l.hops), l.hops, "hops",
                        "hops_max", wrap_names));
  if (in.explain())
    out.step(
        count_step("Links cut by the cheapest split across the middle of an axis "
                   "(lines along it times 2 on a ring, 1 on a line)",
                   "B = \\min(" + l.bisection_latex + ") = " + latex_number(l.bisection),
                   l.bisection, "links", "bisection_links", wrap_names));
  if (has_bw) {
    if (in.explain())
      out.step(count_step("Bisection bandwidth, one direction",
                          latex_number(l.bisection) + " \\times " +
                              latex_quantity(chip->ici_link_bandwidth, "B/s") + " = " +
                              latex_quantity(bw, "B/s"),
                          bw, "B/s", "bisection_bandwidth", {"bisection_links"}));
  }
  return std::nullopt;
}

}  // namespace

bool parse_axis_sizes(std::string_view text, std::vector<std::int64_t>& sizes) {
  sizes.clear();
  auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return false;
  auto last = text.find_last_not_of(" \t");
  std::int64_t size = 0;
  int digits = 0;
  for (std::size_t i = first; i <= last; ++i) {
    char c = text[i];
    if (c >= '0' && c <= '9') {
      size = std::min<std::int64_t>(size * 10 + (c - '0'), kHugeSize);
      ++digits;
    } else if (c == 'x' && digits > 0) {
      sizes.push_back(size);
      size = 0;
      digits = 0;
    } else {
      return false;
    }
  }
  if (digits == 0) return false;
  sizes.push_back(size);
  return std::all_of(sizes.begin(), sizes.end(), [](std::int64_t n) { return n >= 1; });
}

Calculator slice_calculator() { return {slice_schema(), compute_slice}; }

Result<std::vector<Wrap>> slice_wraps(const Chip& chip, const std::vector<std::int64_t>& sizes) {
  Dims pod;
  Result<Dims> checked = check_dims(chip, sizes, pod);
  if (!checked.ok()) return checked.error();
  return decide_wraps(chip, checked.value(), pod, false).wraps;
}

}  // namespace scalebook
