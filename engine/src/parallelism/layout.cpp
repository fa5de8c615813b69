// The parallel layout: the slice's axes, which strategy spans which, the degrees they make;
// and the memo that costs each collective once per (op, axes, link).
#include "scalebook/parallelism/layout.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "scalebook/collectives/switched_cost.h"
#include "scalebook/core/format.h"
#include "scalebook/hardware/topology.h"

namespace scalebook {
namespace {

Error fail(ErrorCode code, const std::string& field, std::string message) {
  return Error{code, field, std::move(message)};
}

std::string axes_field(int s) { return std::string(kStrategyNames[s]) + "_axes"; }

std::string axis_list(const std::vector<Axis>& axes) {
  std::string out;
  for (const Axis& a : axes) out += (out.empty() ? "" : ", ") + axis_name(a);
  return out;
}

std::string trimmed(const std::string& text) {
  std::size_t b = text.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  std::size_t e = text.find_last_not_of(" \t");
  return text.substr(b, e - b + 1);
}

char upper(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; }

// "X4 Z2" (or "X4,Z2"): each axis once, its inner part's size dividing it, at least 2 groups.
std::optional<Error> apply_split(const std::string& raw, ParallelLayout& layout) {
  const std::string text = trimmed(raw);
  if (text.empty() || text == "-" || text == "none") return std::nullopt;
  auto bad = [&](const std::string& why) {
    return fail(ErrorCode::invalid_argument, "split", why);
  };
  const std::string form =
      std::string("split must be axis letters each with the size of its inner part, like ") +
      (layout.switched ? "N4 (N's 4 neighbouring nodes as N, the groups of them as N')"
                       : "X4 (X's 4 neighbouring chips as X, the groups of them as X')") +
      ", got \"" + text + "\"";
  std::size_t at = 0;
  unsigned done = 0;
  while (at < text.size()) {
    if (text[at] == ' ' || text[at] == ',') {
      ++at;
      continue;
    }
    const char name = upper(text[at++]);
    std::size_t i = 0;
    while (i < layout.axes.size() && !(layout.axes[i].name == name && layout.axes[i].stride == 1))
      ++i;
    if (i == layout.axes.size()) return bad(form);
    std::int64_t k = 0;
    const std::size_t digits = at;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9' && k < 1000000)
      k = k * 10 + (text[at++] - '0');
    if (at == digits) return bad(form);
    const unsigned bit = 1u << i;
    if (done & bit) return bad("split names axis " + std::string(1, name) + " twice");
    done |= bit;
    const std::int64_t n = layout.axes[i].size;
    if (k < 2 || k >= n || n % k != 0) {
      return bad("split " + std::string(1, name) + std::to_string(k) +
                 " needs a size that divides " + std::string(1, name) + "'s " + std::to_string(n) +
                 " chips and leaves at least 2 groups (2 to " + std::to_string(n / 2) + ")");
    }
    split_axis(layout, i, k);
  }
  return std::nullopt;
}

// "XY" (letters of the slice's axes, any case, each once), "-" or "none" for no axes.
Result<unsigned> parse_axes(const std::string& raw, int s, const std::vector<Axis>& axes) {
  const std::string text = trimmed(raw);
  if (text == "-" || text == "none") return 0u;
  const std::string field = axes_field(s);
  if (text.empty()) {
    return fail(ErrorCode::invalid_argument, field,
                field + " must name axes of the slice (" + axis_list(axes) +
                    "), like XY, or none; got nothing");
  }
  unsigned mask = 0;
  for (std::size_t at = 0; at < text.size(); ++at) {
    const char up = upper(text[at]);
    const bool outer = at + 1 < text.size() && text[at + 1] == '\'';
    if (outer) ++at;
    std::size_t i = 0;
    while (i < axes.size() && !(axes[i].name == up && (axes[i].stride > 1) == outer)) ++i;
    if (i == axes.size()) {
      bool unsplit = false;
      for (const Axis& a : axes) unsplit = unsplit || (outer && a.name == up);
      return fail(ErrorCode::invalid_argument, field,
                  field + " must name axes of the slice (" + axis_list(axes) + "), got \"" + text +
                      "\"" +
                      (unsplit ? "; " + std::string(1, up) + "' is the outer part of a split " +
                                     "axis: give split=" + std::string(1, up) + "4 or the like"
                               : ""));
    }
    if (mask & (1u << i)) {
      return fail(ErrorCode::invalid_argument, field,
                  field + " names axis " + axis_name(axes[i]) + " twice, in \"" + text + "\"");
    }
    mask |= 1u << i;
  }
  return mask;
}

// Axis i is X', the groups of a split axis, and the mask also holds its X (the neighbours).
bool rejoins(const ParallelLayout& layout, unsigned mask, std::size_t i) {
  return i > 0 && layout.axes[i].stride > 1 && (mask & (1u << (i - 1))) &&
         layout.axes[i - 1].name == layout.axes[i].name;
}

// GPUs: a degree no free axis has takes the first `degree` of a free G or N (its neighbouring
// GPUs or nodes), splitting it; the rest stays fsdp's. Returns the new inner part's mask, 0
// when no free axis divides. Every strategy's mask is renumbered past the split.
unsigned split_for(ParallelLayout& layout, double degree) {
  const unsigned free = layout.masks[kFsdp];
  for (std::size_t i = 0; i < layout.axes.size(); ++i) {
    const Axis& a = layout.axes[i];
    const auto size = static_cast<double>(a.size);
    if (!(free & (1u << i)) || a.stride != 1 || degree >= size || std::fmod(size, degree) != 0)
      continue;
    if (i + 1 < layout.axes.size() && layout.axes[i + 1].name == a.name) continue;  // split
    split_axis(layout, i, static_cast<std::int64_t>(degree));
    const unsigned low = (1u << i) - 1;
    for (int s = 0; s < kStrategies; ++s) {
      const unsigned m = layout.masks[s];
      unsigned moved = (m & low) | ((m & ~low) << 1);
      if (m & (1u << i)) moved |= 1u << i;  // both parts stay with the axis's owner
      assign_axes(layout, s, moved);
    }
    return 1u << i;
  }
  return 0;
}

}  // namespace

std::vector<double> group_extents(const ParallelLayout& layout, unsigned mask) {
  // The node level takes the G parts whatever their stride (a node's GPUs are all one switch
  // hop apart); the nodes are a run of neighbours, or every stride-th of them.
  double in_node = 1, nodes = 1, stride = 0;
  for (std::size_t i = 0; i < layout.axes.size(); ++i) {
    if (!(mask & (1u << i))) continue;
    const Axis& a = layout.axes[i];
    if (a.name == 'G') {
      in_node *= static_cast<double>(a.size);
      continue;
    }
    nodes *= static_cast<double>(a.size);
    if (stride == 0 || rejoins(layout, mask, i))
      stride = rejoins(layout, mask, i) ? 1 : static_cast<double>(a.stride);
  }
  return switched_extents(layout.levels, in_node, nodes, stride);
}

void split_axis(ParallelLayout& layout, std::size_t i, std::int64_t k) {
  const Axis whole = layout.axes[i];
  layout.axes[i] = {whole.name, k, false, 1};
  layout.axes.insert(layout.axes.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                     {whole.name, whole.size / k, whole.wraps, k});
}

std::string split_text(const ParallelLayout& layout) {
  std::string out;
  for (const Axis& a : layout.axes) {
    if (a.stride <= 1) continue;
    out += (out.empty() ? "" : ",") + std::string(1, a.name) + std::to_string(a.stride);
  }
  return out;
}

void assign_axes(ParallelLayout& layout, int s, unsigned mask) {
  layout.masks[s] = mask;
  layout.degrees[s] = 1;
  layout.axis_counts[s] = 0;
  for (std::size_t i = 0; i < layout.axes.size(); ++i) {
    if (!(mask & (1u << i))) continue;
    layout.degrees[s] *= static_cast<double>(layout.axes[i].size);
    // An axis of one chip moves nothing, so it adds no bandwidth: 16x1x1 is one axis (M_X 1).
    // X' with its own X is the whole physical axis again, whose links X already counted.
    if (layout.axes[i].size > 1 && !rejoins(layout, mask, i))
      layout.axis_counts[s] += 1.0 / static_cast<double>(layout.axes[i].stride);
  }
}

const char* to_string(Strategy s) { return kStrategyNames[static_cast<int>(s)]; }

Result<ParallelLayout> parse_layout(const Chip& chip, const std::string& shape,
                                    const std::array<const std::string*, kStrategies>& axes_text,
                                    const std::string* split) {
  Result<Topology> where = topology_of(chip, shape);
  if (!where.ok()) return where.error();
  ParallelLayout layout;
  layout.switched = where.value().fabric == Fabric::switched;
  layout.levels = where.value().levels;
  layout.shape = trimmed(shape);
  layout.axes = where.value().axes;
  layout.chips = where.value().chips;
  if (split) {
    if (std::optional<Error> bad = apply_split(*split, layout)) return *bad;
  }
  unsigned taken = 0;
  int owner[6] = {-1, -1, -1, -1, -1, -1};
  for (int s = 0; s < kStrategies; ++s) {
    assign_axes(layout, s, 0);
    if (!axes_text[s]) continue;
    Result<unsigned> mask = parse_axes(*axes_text[s], s, layout.axes);
    if (!mask.ok()) return mask.error();
    for (std::size_t i = 0; i < layout.axes.size(); ++i) {
      if (!(mask.value() & taken & (1u << i))) continue;
      return fail(ErrorCode::invalid_argument, axes_field(s),
                  "axis " + axis_name(layout.axes[i]) + " is given to both " +
                      axes_field(owner[i]) + " and " + axes_field(s) +
                      "; each axis serves one strategy");
    }
    for (std::size_t i = 0; i < layout.axes.size(); ++i)
      if (mask.value() & (1u << i)) owner[i] = s;
    taken |= mask.value();
    assign_axes(layout, s, mask.value());
    layout.axes_given[s] = true;
  }
  const int fsdp = static_cast<int>(Strategy::fsdp);
  if (!layout.axes_given[fsdp]) {
    unsigned all = (1u << layout.axes.size()) - 1;
    assign_axes(layout, fsdp, all & ~taken);
    taken = all;
  }
  for (std::size_t i = 0; i < layout.axes.size(); ++i) {
    if (taken & (1u << i)) continue;
    return fail(ErrorCode::invalid_argument, "fsdp_axes",
                "axis " + axis_name(layout.axes[i]) + " of " + layout.shape +
                    " serves no strategy; name it in fsdp_axes or another strategy's axes");
  }
  return layout;
}

std::optional<Error> place_degrees(ParallelLayout& layout,
                                   const std::array<double, kStrategies>& given) {
  if (layout.axes_given[kFsdp]) return std::nullopt;  // every axis was named
  for (int s : {kTp, kEp, kPp, kDp}) {
    if (given[s] <= 1 || layout.axes_given[s] || layout.masks[s] != 0) continue;
    const std::size_t n = layout.axes.size();  // a split on GPUs adds one
    const unsigned free = layout.masks[kFsdp];
    unsigned best = 0;
    int best_count = 0;
    for (unsigned mask = free; mask != 0; mask = (mask - 1) & free) {
      double product = 1;
      int count = 0;
      for (std::size_t i = 0; i < n; ++i) {
        if (!(mask & (1u << i))) continue;
        product *= static_cast<double>(layout.axes[i].size);
        ++count;
      }
      if (product != given[s]) continue;
      // Fewest axes first; among as few, the latest (the larger mask has the later axes), but
      // on GPUs tp and ep take the earliest: a node's GPUs before the nodes.
      const bool inner = layout.switched && (s == kTp || s == kEp);
      const bool later = inner ? mask < best : mask > best;
      if (best == 0 || count < best_count || (count == best_count && later)) {
        best = mask;
        best_count = count;
      }
    }
    if (best == 0 && layout.switched) best = split_for(layout, given[s]);
    if (best == 0) {
      std::string sizes;
      for (std::size_t i = 0; i < layout.axes.size(); ++i) {
        if (free & (1u << i))
          sizes += (sizes.empty() ? "" : ", ") + axis_name(layout.axes[i]) + " " +
                   std::to_string(layout.axes[i].size);
      }
      return fail(ErrorCode::invalid_argument, kStrategyNames[s],
                  std::string(kStrategyNames[s]) + "=" + format_number(given[s]) +
                      " is the size of no set of the free axes (" +
                      (sizes.empty() ? "none" : sizes) + "); give " + axes_field(s) +
                      ", or a degree that is a product of their sizes");
    }
    assign_axes(layout, s, best);
    assign_axes(layout, kFsdp, layout.masks[kFsdp] & ~best);
  }
  return std::nullopt;
}

std::optional<Error> check_degrees(const ParallelLayout& layout,
                                   const std::array<double, kStrategies>& given) {
  for (int s = 0; s < kStrategies; ++s) {
    if (given[s] > 1 && layout.masks[s] == 0 && !layout.axes_given[s]) {
      return fail(ErrorCode::invalid_argument, axes_field(s),
                  std::string(kStrategyNames[s]) + "=" + format_number(given[s]) + " needs " +
                      axes_field(s) + ", the axes of the slice it spans (" +
                      axis_list(layout.axes) + ")");
    }
  }
  double product = 1;
  int first = -1;
  for (int s = 0; s < kStrategies; ++s) {
    if (given[s] > 0 && first < 0) first = s;
    product *= given[s] > 0 ? given[s] : layout.degrees[s];
  }
  if (first >= 0 && product != layout.chips) {
    std::string terms;
    for (int s = 0; s < kStrategies; ++s)
      terms +=
          (terms.empty() ? "" : " x ") + format_number(given[s] > 0 ? given[s] : layout.degrees[s]);
    return fail(ErrorCode::invalid_argument, kStrategyNames[first],
                "dp x fsdp x tp x pp x ep must multiply to the slice's " +
                    format_number(layout.chips) + " chips (" + layout.shape + "), got " + terms +
                    " = " + format_number(product));
  }
  for (int s = 0; s < kStrategies; ++s) {
    if (given[s] <= 0 || given[s] == layout.degrees[s]) continue;
    std::string axes;
    for (std::size_t i = 0; i < layout.axes.size(); ++i)
      if (layout.masks[s] & (1u << i)) axes += axis_name(layout.axes[i]);
    return fail(ErrorCode::invalid_argument, kStrategyNames[s],
                std::string(kStrategyNames[s]) + "=" + format_number(given[s]) +
                    " does not match " + axes_field(s) + "=" + (axes.empty() ? "none" : axes) +
                    ", which spans " + format_number(layout.degrees[s]) + " chips");
  }
  return std::nullopt;
}

CostMemo::Cost CostMemo::get(CollectiveOp op, const ParallelLayout& layout, unsigned mask,
                             std::int64_t slices, const LinkModel& link) {
  auto same = [&](const Entry& e) {
    return e.op == op && e.mask == mask && e.slices == slices && e.bandwidth == link.bandwidth &&
           e.latency == link.hop_latency;
  };
  const std::size_t slot =
      (static_cast<std::size_t>(op) * 131 + mask * 17 + static_cast<std::size_t>(slices)) % 64;
  if (recent_[slot] > 0 && same(entries_[recent_[slot] - 1u]))
    return entries_[recent_[slot] - 1u].cost;
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (!same(entries_[i])) continue;
    if (i < 65535) recent_[slot] = static_cast<std::uint16_t>(i + 1);
    return entries_[i].cost;
  }
  if (layout.switched && !(mask & kDcnMask)) {
    SwitchedCost unit = switched_cost(op, 1.0, group_extents(layout, mask), layout.levels);
    Cost cost{unit.t_bandwidth, unit.hops * link.hop_latency, unit.hops};
    entries_.push_back({op, mask, slices, link.bandwidth, link.hop_latency, cost});
    if (entries_.size() < 65536) recent_[slot] = static_cast<std::uint16_t>(entries_.size());
    return cost;
  }
  std::vector<Axis> axes;
  if (mask & kDcnMask) {
    axes.push_back({0, slices, true});
  } else {
    for (std::size_t i = 0; i < layout.axes.size(); ++i) {
      const Axis& a = layout.axes[i];
      if (!(mask & (1u << i))) continue;
      if (rejoins(layout, mask, i)) {
        // Both parts of a split axis share its links: together they are the physical axis,
        // not two axes whose rates add.
        Axis& inner = axes.back();
        inner.name = a.name;
        inner.size *= a.size;
        inner.wraps = a.wraps;
        continue;
      }
      axes.push_back(a);
    }
  }
  // The model is t_latency + nothing of V, t_bandwidth linear in V: cost one byte and scale.
  // The memo keeps numbers only, so the cost model's steps would go unread.
  CollectiveCost unit = collective_cost(op, 1.0, axes, link, /*explain=*/false);
  Cost cost{unit.t_bandwidth, unit.t_latency, unit.hops};
  entries_.push_back({op, mask, slices, link.bandwidth, link.hop_latency, cost});
  if (entries_.size() < 65536) recent_[slot] = static_cast<std::uint16_t>(entries_.size());
  return cost;
}

}  // namespace scalebook
