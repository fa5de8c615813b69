#pragma once
// Where a job's chips are, for every chip in the catalog: a TPU slice (a torus's axes, each a
// line or a ring of chips joined by ICI links) or GPUs (NVLink domains of a node's GPUs, all
// one switch hop apart, joined by the scale-out network). The collectives, the parallel layout
// and, next, inference read this one type rather than each parsing a shape for its chip.
#include <string>
#include <vector>

#include "scalebook/core/status.h"
#include "scalebook/hardware/axis.h"
#include "scalebook/hardware/catalog.h"

namespace scalebook {

enum class Fabric { torus, switched };

// One level of a switched fabric (chapter 12), innermost first: a node's NVSwitches join its
// GPUs, leaf switches join a scalable unit's nodes, spine switches join the units.
struct SwitchLevel {
  double fan_in = 1;           // children one group of this level joins (D_i)
  double child_gpus = 1;       // GPUs in one child (1 at the node level, a node's at the leaf)
  double child_bandwidth = 0;  // B/s one way from one child into the level (W_i)
};

// Nodes under one scalable unit's leaf switches when a job gives only a GPU count (the DGX
// SuperPod's 32, chapter 12); the scale-out network then has full bisection bandwidth.
inline constexpr double kNodesPerScalableUnit = 32;

struct Topology {
  Fabric fabric = Fabric::torus;
  // torus: the slice's axes X, Y, Z in order, each wrapping by the catalog's rule (slice.h);
  // switched: the GPUs of one NVLink domain (axis G), then the nodes (axis N) when more than one.
  std::vector<Axis> axes;
  double chips = 1;
  double link_bandwidth = 0;  // B/s one way: one ICI link, or one GPU's NVLink egress
  double hop_latency = 0;     // s per hop over those links (the catalog gives none for GPUs: 0)
  double node_gpus = 0;       // switched: GPUs in one NVLink domain (the book's node)
  double node_bandwidth = 0;  // switched: B/s from one node into the scale-out network (0: none)
  // switched: the levels a job of `chips` GPUs spans, the node first; one level per tier of
  // switches it crosses (none above the node for a job inside one node).
  std::vector<SwitchLevel> levels;
};

// The levels of `gpus` GPUs of `chip` on a full-bisection fat tree: the node, then the leaf
// (up to kNodesPerScalableUnit nodes), then the spine over whole scalable units.
std::vector<SwitchLevel> switch_levels(const Chip& chip, double gpus);

// The chips of `shape` on `chip`. A TPU takes a slice shape ("4x4x8": its axes as slice.h
// rules them); a GPU takes a count of GPUs, one node's or fewer, or whole nodes ("8", "64").
// Errors name "shape", or "chip" for a chip with neither a torus nor an NVLink domain.
Result<Topology> topology_of(const Chip& chip, const std::string& shape);

}  // namespace scalebook
