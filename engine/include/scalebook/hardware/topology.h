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
#include "scalebook/hardware/cluster.h"

namespace scalebook {

enum class Fabric { torus, switched };

struct Topology {
  Fabric fabric = Fabric::torus;
  // torus: the slice's axes X, Y, Z in order, each wrapping by the catalog's rule (slice.h);
  // switched: the GPUs of one NVLink domain (axis G), then the nodes (axis N) when more than one.
  std::vector<Axis> axes;
  double chips = 1;
  double link_bandwidth = 0;  // B/s one way: one ICI link, or one GPU's NVLink egress
  double hop_latency = 0;     // s per hop over those links (the catalog gives none for GPUs: 0)
  double node_gpus = 0;       // switched: GPUs in one NVLink domain (the book's node)
  // switched: the levels of the cluster a job of `chips` GPUs gets (default_cluster: SUs of 32
  // nodes on a full-bisection fat tree), the node first; none above it inside one node.
  std::vector<ClusterLevel> levels;
};

// The chips of `shape` on `chip`. A TPU takes a slice shape ("4x4x8": its axes as slice.h
// rules them); a GPU takes a count of GPUs, one node's or fewer, or whole nodes ("8", "64").
// Errors name "shape", or "chip" for a chip with neither a torus nor an NVLink domain.
Result<Topology> topology_of(const Chip& chip, const std::string& shape);

}  // namespace scalebook
