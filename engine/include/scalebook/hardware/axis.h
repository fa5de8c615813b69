#pragma once
// One axis of where the chips are: a line of chips, or a ring when it wraps around. A slice's
// axes, a sharding mesh's, the axes a collective runs over and a parallel layout's are all
// this one type: two classes of one name in one namespace once broke the WebAssembly build
// (LTO merged vector code across them and read the wrong size), and four copies of it drifted.
#include <cstdint>
#include <string>

namespace scalebook {

struct Axis {
  char name = 'X';        // the mesh's letter: X, Y, Z (0 for the data-center network)
  std::int64_t size = 1;  // chips along it
  bool wraps = false;     // a ring (wraparound links) rather than a line
  // Physical hops between neighbours of this axis: more than 1 for the outer part of a split
  // axis (a 16-chip axis as 4 groups of 4 neighbours: the groups are 4 apart). Each of its
  // hops crosses `stride` links, which the `stride` interleaved groups all use at once, so it
  // moves its bytes at 1/stride of a link's bandwidth and pays stride hops of latency.
  std::int64_t stride = 1;
  int position = -1;  // where its name stands in the text it was read from (-1: none)
};

// "X", or "X'" for the outer part of a split axis (stride above 1); "DCN" for name 0.
std::string axis_name(const Axis& axis);

}  // namespace scalebook
