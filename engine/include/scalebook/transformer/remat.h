#pragma once
#include <string_view>

namespace scalebook {

// Forward FLOPs per token of a Transformer (or of one layer), by part: the MLP's matmuls (with
// the router), the attention projections (Q, K, V, O), dot-product attention (QK and AV over
// the context) and the unembedding.
struct ForwardFlops {
  double mlp = 0;
  double projections = 0;
  double attention = 0;
  double unembed = 0;
};

// What each remat policy recomputes in the backward pass, per token: the one definition that
// chapter 4's transformer calculator and chapter 5's training step both use.
//   none: nothing; big-matmuls: dot-product attention (the 7 big matmuls' outputs are saved);
//   ffw-matmuls: attention, projections and dot products (only the MLP's outputs are saved);
//   block: the layers' forward pass (the unembedding's input is kept).
// An unknown name recomputes nothing; the calculators' schemas reject unknown names first.
inline double remat_recomputed_flops(std::string_view policy, const ForwardFlops& f) {
  if (policy == "block") return f.mlp + f.projections + f.attention;
  if (policy == "ffw-matmuls") return f.projections + f.attention;
  if (policy == "big-matmuls") return f.attention;
  return 0;
}

// What the policy recomputes, in words, for the worked steps.
inline const char* remat_recomputes(std::string_view policy) {
  if (policy == "block") return "the layers' forward pass";
  if (policy == "ffw-matmuls") return "attention: projections and dot products";
  if (policy == "big-matmuls") return "dot-product attention (QK and AV)";
  return "nothing";
}

}  // namespace scalebook
