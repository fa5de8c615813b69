#pragma once
// SB_EXPLAIN_ONLY marks a function that only builds worked steps (labels, LaTeX). It runs once
// per explained calculation and never on the numbers-only path of sweeps and searches, so it
// is compiled for size: string concatenation inlined at -O2 is most of the engine's code.
#if defined(__clang__)
#define SB_EXPLAIN_ONLY __attribute__((minsize, noinline))
#elif defined(__GNUC__)
#define SB_EXPLAIN_ONLY __attribute__((cold, noinline))
#else
#define SB_EXPLAIN_ONLY
#endif

namespace scalebook {

// Whether this build explains at all. core/explains.cpp says yes; the numbers-only WebAssembly
// modules link bindings/wasm/numbers_only.cpp in its place, which says no, and link-time
// optimisation then drops every step's code (about 10% of a module). A constant defined in
// one file, not a macro, so the same compiled objects make both. Model code that takes an
// `explain` flag tests it with this (`explain && kExplains`), or its step code stays in a
// numbers-only module whenever the flag travels through a struct or a call.
extern const bool kExplains;

}  // namespace scalebook
