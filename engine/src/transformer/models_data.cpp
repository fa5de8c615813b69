// The model configurations the book uses, in chapter 4's notation. The book's chapters give
// some shapes in full (LLaMA 3-70B, LLaMA-2 13B, its made-up models), name others and leave
// the config to the reader (LLaMA 3-8B, 3-405B, Gemma, DeepSeek-V3); for those the values are
// the publishers' configs, as shared/book/problems/*.json record them, and each note says so.
//
// Norm weights: the book's counts leave them out (or, in chapter 4 Question 1, take one D per
// layer). A real model here counts the norms its architecture has; a made-up one follows the
// book's formula, so its total is the book's exactly.
#include "models_data.h"

namespace scalebook::models_data {
namespace {

constexpr const char* kShape = "L D F N K H V";

constexpr const char* kDense = "a dense model: no experts";
constexpr const char* kNotMoe = "not used by a dense model";
constexpr const char* kNoMla = "plain attention, no latent (MLA) projections";
constexpr const char* kLlamaNorms =
    "not in the book, whose counts leave norm weights out; LLaMA has two RMSNorms per layer "
    "and one after the last (Meta's published architecture)";
constexpr const char* kLlamaGated =
    "the book counts LLaMA's MLP as three D x F matrices (gated SwiGLU)";
constexpr const char* kUntied =
    "untied: the book counts 2DV (input embedding and output projection)";

std::vector<SourceNote> dense_notes() {
  return cite({{"E", kDense},
               {"experts_per_token shared_experts F_expert dense_layers", kNotMoe},
               {"q_rank kv_rank rope_dim", kNoMla}});
}

Model with_notes(Model m, std::initializer_list<Cite> cites, bool dense = true) {
  m.notes = cite(cites);
  if (dense) {
    std::vector<SourceNote> more = dense_notes();
    m.notes.insert(m.notes.end(), more.begin(), more.end());
  }
  return m;
}

Model llama_3_70b() {
  return with_notes(
      {.id = "llama-3-70b",
       .name = "LLaMA 3 70B",
       .L = 80,
       .D = 8192,
       .F = 28672,
       .N = 64,
       .K = 8,
       .H = 128,
       .V = 128256},
      {{kShape,
        "chapter 6 (training LLaMA 3), its hyperparameter table from Meta's published config; "
        "chapter 8 gives the same table (F = 28,672 = 3.5 D)"},
       {"gated", kLlamaGated},
       {"tied", kUntied},
       {"norms_per_layer final_norm", kLlamaNorms}});
}

Model llama_3_8b() {
  return with_notes(
      {.id = "llama-3-8b",
       .name = "LLaMA 3 8B",
       .L = 32,
       .D = 4096,
       .F = 14336,
       .N = 32,
       .K = 8,
       .H = 128,
       .V = 128256},
      {{kShape,
        "not configured in the book (chapter 8, Worked Problem 2 names it; chapter 7 says it has "
        "32 query and 8 KV heads): Meta's published config, as problems/applied-inference.json "
        "records it"},
       {"gated", kLlamaGated},
       {"tied", "untied, as LLaMA 3 70B (Meta's published config)"},
       {"norms_per_layer final_norm", kLlamaNorms}});
}

Model llama_3_405b() {
  return with_notes(
      {.id = "llama-3-405b",
       .name = "LLaMA 3 405B",
       .L = 126,
       .D = 16384,
       .F = 53248,
       .N = 128,
       .K = 8,
       .H = 128,
       .V = 128256},
      {{kShape,
        "not given in the book (chapter 6, Worked Problem 2 asks the reader to look it up): "
        "Meta's published LLaMA 3.1 405B config, as problems/applied-training.json records it"},
       {"gated", kLlamaGated},
       {"tied", "untied, as chapter 6's Worked Problem 2 counts it (2DV)"},
       {"norms_per_layer final_norm", kLlamaNorms}});
}

Model llama_2_13b() {
  return with_notes(
      {.id = "llama-2-13b",
       .name = "LLaMA 2 13B",
       .L = 40,
       .D = 5120,
       .F = 13824,
       .N = 40,
       .K = 40,
       .H = 128,
       .V = 32000},
      {{kShape,
        "chapter 5 (training), Question 1, and chapter 7 (inference), 'What about memory?': "
        "multi-head attention, K = N = 40"},
       {"gated", "chapter 5, Question 1: a gated MLP with three D x F matrices per layer"},
       {"tied", "chapter 5, Question 1: untied input and output embeddings"},
       {"norms_per_layer final_norm", kLlamaNorms}});
}

Model gemma_7b() {
  return with_notes(
      {.id = "gemma-7b",
       .name = "Gemma 7B",
       .L = 28,
       .D = 3072,
       .F = 24576,
       .N = 16,
       .K = 16,
       .H = 256,
       .V = 256000,
       .tied = true},
      {{"L D N K H",
        "not in the book, which uses only F (chapter 5's tensor-parallel limit): Google's "
        "published Gemma 7B config"},
       {"F",
        "24,576 per branch of the gated MLP (Google's published config); the Gemma report's "
        "49,152 'feedforward hidden dims' counts both branches, and chapter 5 rounds that to "
        "F ~ 50k"},
       {"V", "Google's published config (256,000; the Gemma report's table says 256,128)"},
       {"gated", "gated GeGLU MLP (Google's published config)"},
       {"tied", "tied input and output embeddings (Google's published config)"},
       {"norms_per_layer final_norm",
        "not in the book: two RMSNorms per layer and a final one (Google's published "
        "architecture)"}});
}

Model gemma_2_27b() {
  return with_notes(
      {.id = "gemma-2-27b",
       .name = "Gemma 2 27B",
       .L = 46,
       .D = 4608,
       .F = 36864,
       .N = 32,
       .K = 16,
       .H = 128,
       .V = 256000,
       .tied = true,
       .norms_per_layer = 4},
      {{"D",
        "chapter 4: 'Gemma-27B' has D = 4608 (attention dominates past T ~ 8D = 37k); that D is "
        "Gemma 2 27B's"},
       {"L F N K H V",
        "not in the book: Google's published Gemma 2 27B config (N x H = 4096 is not D, and "
        "F = 8D, so this model's own attention crossover is not chapter 4's 8D)"},
       {"gated", "gated GeGLU MLP (Google's published config)"},
       {"tied", "tied input and output embeddings (Google's published config)"},
       {"norms_per_layer final_norm",
        "not in the book: a norm before and after both attention and the MLP, and a final one "
        "(Google's published architecture); its local sliding-window layers are not modelled"}});
}

Model deepseek_v3() {
  Model m = with_notes(
      {.id = "deepseek-v3",
       .name = "DeepSeek-V3",
       .L = 61,
       .D = 7168,
       .F = 18432,
       .N = 128,
       .K = 128,
       .H = 128,
       .V = 129280,
       .E = 256,
       .experts_per_token = 8,
       .shared_experts = 1,
       .F_expert = 2048,
       .dense_layers = 3,
       .q_rank = 1536,
       .kv_rank = 512,
       .rope_dim = 64},
      {{"E experts_per_token",
        "chapter 4, mixture of experts and Question 8: E = 256 routed experts, k = 8 per token "
        "(Question 7 gives 37B activated parameters)"},
       {"L D V", "not in the book: DeepSeek's published DeepSeek-V3 config"},
       {"F",
        "not in the book: DeepSeek's published config (intermediate_size of the dense layers)"},
       {"N K H",
        "not in the book: DeepSeek's published config; latent attention gives every query head "
        "its own key and value head (K = N), H = 128 wide (qk_nope_head_dim = v_head_dim)"},
       {"gated", "gated SwiGLU experts and dense MLPs (DeepSeek's published config)"},
       {"tied", "untied input and output embeddings (DeepSeek's published config)"},
       {"norms_per_layer final_norm",
        "not in the book: two RMSNorms per layer and a final one (DeepSeek's published "
        "architecture); the latent norms are counted with q_rank and kv_rank"},
       {"shared_experts F_expert dense_layers",
        "not in the book: DeepSeek's published config (n_shared_experts, moe_intermediate_size, "
        "first_k_dense_replace)"},
       {"q_rank kv_rank rope_dim",
        "not in the book: DeepSeek's published config (q_lora_rank, kv_lora_rank, "
        "qk_rope_head_dim); the multi-token-prediction module and the router's bias are left "
        "out"}},
      false);
  return m;
}

constexpr const char* kBookFormulaNorms =
    "the book's count has no norm weights, so this made-up model has none";

Model transformers_q1() {
  return with_notes(
      {.id = "transformers-q1",
       .name = "Chapter 4, Question 1 model",
       .L = 64,
       .D = 4096,
       .F = 16384,
       .N = 32,
       .K = 32,
       .H = 128,
       .V = 32000,
       .norms_per_layer = 1,
       .final_norm = false},
      {{"L D F V", "chapter 4, Question 1: D = 4096, F = 4D, V = 32,000, L = 64"},
       {"N H",
        "chapter 4, Question 1 gives only N x H = D; 32 heads of 128 is one split (every count "
        "depends on N x H alone)"},
       {"K", "chapter 4, Question 1: multi-head attention (K = N)"},
       {"gated", "chapter 4, Question 1 counts 3DF per layer (gated)"},
       {"tied", "chapter 4, Question 1 counts 2DV (untied)"},
       {"norms_per_layer final_norm",
        "chapter 4, Question 1's formula L(3DF + 4DNH + D) + 2DV: one D-wide norm per layer, "
        "no final norm"}});
}

Model inference_q1() {
  return with_notes(
      {.id = "inference-q1",
       .name = "Chapter 7 worked-problem model",
       .L = 64,
       .D = 4096,
       .F = 16384,
       .N = 32,
       .K = 8,
       .H = 256,
       .V = 32128,
       .tied = true,
       .norms_per_layer = 0,
       .final_norm = false},
      {{kShape, "chapter 7 (inference), Questions 1-7: a made-up LLaMA-2-13B-like model"},
       {"gated", "chapter 7, Question 1: a SwiGLU MLP (3DF)"},
       {"tied", "chapter 7, Question 1: one shared input/output embedding matrix"},
       {"norms_per_layer final_norm", kBookFormulaNorms}});
}

Model inference_q5_moe() {
  return with_notes(
      {.id = "inference-q5-moe",
       .name = "Chapter 7 worked-problem MoE",
       .L = 64,
       .D = 4096,
       .F = 16384,
       .N = 32,
       .K = 8,
       .H = 256,
       .V = 32128,
       .tied = true,
       .norms_per_layer = 0,
       .final_norm = false,
       .E = 16,
       .experts_per_token = 2},
      {{kShape, "chapter 7, Question 5: the worked-problem model (inference-q1) made an MoE"},
       {"gated", "chapter 7, Question 5: each expert is a full SwiGLU MLP (3DF)"},
       {"tied", "chapter 7, Questions 1 and 5: tied embeddings"},
       {"norms_per_layer final_norm", kBookFormulaNorms},
       {"E experts_per_token", "chapter 7, Question 5: E = 16 experts, top-k = 2 routing"},
       {"shared_experts dense_layers",
        "chapter 7, Question 5: every layer's MLP becomes experts, none shared"},
       {"F_expert", "0: each expert is the dense MLP (width F), chapter 7, Question 5"},
       {"q_rank kv_rank rope_dim", kNoMla}},
      false);
}

}  // namespace

std::vector<Model> presets() {
  return {llama_3_70b(), llama_3_8b(),  llama_3_405b(),    llama_2_13b(),  gemma_7b(),
          gemma_2_27b(), deepseek_v3(), transformers_q1(), inference_q1(), inference_q5_moe()};
}

}  // namespace scalebook::models_data
