// The training calculator's bad inputs: each an error naming the field, with its exact message.
#include <string>

#include "helpers.h"

using namespace scalebook;
using namespace scalebook::test;

namespace {

Value num(double x) { return Value::of(x); }
Value text(const char* t) { return Value::of(t); }

Error bad(Inputs in) { return run_error("training", in); }

}  // namespace

TEST_CASE("training: degrees must multiply to the slice's chips and match their axes",
          "[training][errors]") {
  check_error(bad({{"fsdp", num(512)}}), ErrorCode::invalid_argument, "fsdp",
              "dp x fsdp x tp x pp x ep must multiply to the slice's 4096 chips (16x16x16), got "
              "1 x 512 x 1 x 1 x 1 = 512");
  check_error(bad({{"fsdp", num(512)}, {"tp", num(8)}, {"tp_axes", text("Z")}}),
              ErrorCode::invalid_argument, "fsdp",
              "fsdp=512 does not match fsdp_axes=XY, which spans 256 chips");
  // A degree alone places itself on free axes (place_degrees), and names itself when none fit.
  check_error(bad({{"tp", num(4)}}), ErrorCode::invalid_argument, "tp",
              "tp=4 is the size of no set of the free axes (X 16, Y 16, Z 16); give tp_axes, or "
              "a degree that is a product of their sizes");
  check_error(bad({{"fsdp_axes", text("XY")}}), ErrorCode::invalid_argument, "fsdp_axes",
              "axis Z of 16x16x16 serves no strategy; name it in fsdp_axes or another strategy's "
              "axes");
}

TEST_CASE("training: one mesh axis given to two strategies, or an axis the slice lacks",
          "[training][errors]") {
  check_error(bad({{"fsdp_axes", text("XY")}, {"tp_axes", text("YZ")}}),
              ErrorCode::invalid_argument, "tp_axes",
              "axis Y is given to both fsdp_axes and tp_axes; each axis serves one strategy");
  check_error(bad({{"tp_axes", text("W")}}), ErrorCode::invalid_argument, "tp_axes",
              "tp_axes must name axes of the slice (X, Y, Z), got \"W\"");
  check_error(bad({{"tp_axes", text("ZZ")}}), ErrorCode::invalid_argument, "tp_axes",
              "tp_axes names axis Z twice, in \"ZZ\"");
}

TEST_CASE("training: TP must divide the heads and F, PP the layers, EP the experts",
          "[training][errors]") {
  check_error(
      bad({{"model", text("llama-2-13b")}, {"shape", text("4x4x16")}, {"tp_axes", text("Z")}}),
      ErrorCode::invalid_argument, "tp", "tp=16 must divide the model's 40 query heads (N)");
  check_error(bad({{"model", text("book-mlp")},
                   {"F", num(30002)},
                   {"shape", text("4x4x4")},
                   {"tp_axes", text("Z")},
                   {"B", num(65536)}}),
              ErrorCode::invalid_argument, "tp", "tp=4 must divide the MLP width F = 30002");
  check_error(bad({{"shape", text("4x4x8")}, {"pp_axes", text("XYZ")}}),
              ErrorCode::invalid_argument, "pp",
              "pp=128 is more pipeline stages than the model's 80 layers (L)");
  check_error(bad({{"shape", text("4x4x4")}, {"ep_axes", text("Z")}}), ErrorCode::invalid_argument,
              "ep", "ep=4 needs a model with experts; this one is dense (E = 0)");
  check_error(
      bad({{"model", text("deepseek-v3")}, {"shape", text("4x4x12")}, {"ep_axes", text("Z")}}),
      ErrorCode::invalid_argument, "ep", "ep=12 must divide the model's 256 experts (E)");
  check_error(bad({{"microbatches", num(4)}}), ErrorCode::invalid_argument, "microbatches",
              "microbatches=4 needs pp > 1; without a pipeline use grad_accum");
}

TEST_CASE("training: the batch must be whole sequences that split over the shards",
          "[training][errors]") {
  check_error(bad({{"B", num(1000)}}), ErrorCode::invalid_argument, "B",
              "B = 1000 tokens must be whole sequences of T = 4096 tokens");
  check_error(bad({{"B", num(4194304)}}), ErrorCode::invalid_argument, "B",
              "B = 4194304 tokens is 1024 sequences, which do not split into dp x fsdp x ep x "
              "slices x microbatches x grad_accum = 4096 parts of whole sequences");
}

TEST_CASE("training: a slice the chip cannot have, a chip without ICI, unknown presets",
          "[training][errors]") {
  check_error(bad({{"shape", text("4x4x40")}}), ErrorCode::out_of_range, "shape",
              "shape 4x4x40 exceeds the tpu-v5p pod of 16x20x28");
  check_error(bad({{"shape", text("16x16")}}), ErrorCode::invalid_argument, "shape",
              "shape has 2 axes but tpu-v5p is a 3D torus");
  check_error(bad({{"shape", text("4 by 4")}}), ErrorCode::invalid_argument, "shape",
              "shape must be sizes joined by x, like 4x4x8, got \"4 by 4\"");
  check_error(bad({{"chip", text("h100")}}), ErrorCode::invalid_argument, "shape",
              "shape on a GPU is a count of GPUs, like 8, got \"16x16x16\"");
  check_error(bad({{"chip", text("h100")}, {"shape", text("12")}}), ErrorCode::invalid_argument,
              "shape", "shape must be at most 8 GPUs (one h100 node) or a multiple of 8, got 12");
  check_error(bad({{"chip", text("v100")}, {"shape", text("8")}}), ErrorCode::unsupported, "chip",
              "training lays out a TPU slice or GPUs, and v100 has neither an ICI torus nor an "
              "NVLink domain in the catalog");
  check_error(bad({{"model", text("gpt-9")}}), ErrorCode::invalid_argument, "model",
              "model must be one of llama-3-70b, llama-3-8b, llama-3-405b, llama-2-13b, gemma-7b, "
              "gemma-2-27b, deepseek-v3, transformers-q1, inference-q1, inference-q5-moe, custom, "
              "book-mlp, got \"gpt-9\"");
  check_error(bad({{"model", text("book-mlp")}, {"N", num(8)}}), ErrorCode::invalid_argument, "N",
              "model=book-mlp takes only L, D and F; N is not part of it");
}

TEST_CASE("training: NaN, zero, negative and huge numbers name their field", "[training][errors]") {
  check_error(bad({{"B", text("nan")}}), ErrorCode::invalid_argument, "B",
              "B must be a number, got \"nan\"");
  check_error(bad({{"B", num(0)}}), ErrorCode::out_of_range, "B", "B must be >= 1, got 0");
  check_error(bad({{"T", num(-4)}}), ErrorCode::out_of_range, "T", "T must be >= 1, got -4");
  check_error(bad({{"slices", num(1e300)}}), ErrorCode::out_of_range, "slices",
              "slices must be <= 100000, got 1e300");
  check_error(bad({{"tp", num(2.5)}}), ErrorCode::invalid_argument, "tp",
              "tp must be a whole number, got 2.5");
  check_error(bad({{"B", num(1e14)}}), ErrorCode::out_of_range, "B", "B must be <= 1e13, got 1e14");
  check_error(bad({{"zero", text("4")}}), ErrorCode::invalid_argument, "zero",
              "zero must be one of 1, 2, 3, got \"4\"");
  // The chip list grows with the catalog: its ends are pinned.
  Error chip = bad({{"chip", text("tpu-v9")}});
  CHECK(chip.field == "chip");
  CHECK(chip.message.rfind("chip must be one of tpu-v5e, tpu-v5p, ", 0) == 0);
  CHECK(chip.message.find(", got \"tpu-v9\"") == chip.message.size() - 14);
}
