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
