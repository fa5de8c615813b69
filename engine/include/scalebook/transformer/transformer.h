#pragma once
#include "scalebook/core/registry.h"

namespace scalebook {

// Chapter 4's accounting for one Transformer: parameters by part, FLOPs per token (forward,
// backward, training) by part, the context length where attention's FLOPs overtake the
// matmuls', the KV cache, activation memory under each remat policy, training memory, and
// the roofline of the MLP and attention blocks on a chip for prefill (and training) and decode.
//
// The model is a preset from the model catalog (models.h) or `custom`; every catalog field
// (L, D, F, N, K, H, V, gated, tied, E, experts_per_token, ...) is also an input that overrides
// the preset's value, so a reader's own model is a preset plus overrides, or `custom` with at
// least L, D, F, N, H and V (K defaults to N; the rest as a LLaMA-style dense model).
//
// Counting choices (the book's, unless it gives none):
//   - FLOPs: a matmul costs 2 per weight per token forward and twice that backward, so
//     training is 3x forward. Forward FLOPs per token are the MLP's (active experts and the
//     router), the attention projections', dot-product attention's 4 T N H per layer (QK and
//     AV over T keys; halved when causal) and the unembedding's 2DV; the input embedding is a
//     lookup, no FLOPs. flops_6p is the book's rule, 6 x active parameters per token.
//   - Remat (activation checkpointing), per token per layer: none keeps ~20 D-wide tensors (the
//     book's estimate); big-matmuls the outputs of the 7 big matmuls (Q, K, V, O and the MLP's)
//     at their real widths, recomputing dot-product attention in the backward pass (chapter 4,
//     Question 6); ffw-matmuls the MLP's 3 matmul outputs (chapter 5, Question 2), recomputing
//     attention; block only the layer's input, recomputing the layer's forward pass (6 -> ~8
//     P per token). `checkpoints` overrides the count of D-wide tensors for the memory.
//   - Training memory: weights and gradients in dtype_weights, optimizer_states values per
//     parameter in dtype_optimizer (adam 2, momentum 1, sgd 0), and the activations. (The
//     book's totals leave gradients out; gradient_bytes shows them apart.)
//   - Roofline: one MLP weight matmul with n tokens (n = B T for prefill and training, B for
//     decode) reads its weights once; an MoE layer reads all E experts' weights and does k
//     tokens' worth of work per token. Attention intensity is chapter 4's Question 4: Q and O
//     in dtype_activations, K and V in dtype_kv; none for latent (MLA) attention.
Calculator transformer_calculator();

}  // namespace scalebook
