# Every emscripten flag in one place, each with its reason (see shared/docs/toolchain.md).
set(SCALEBOOK_WASM_LINK_FLAGS
  --bind                              # Embind
  -sMODULARIZE=1                      # a factory; the JS wrapper calls it once and caches it
  -sEXPORT_ES6=1                      # an ES module for esbuild, Node tests and the site builder
  -sENVIRONMENT=web                   # loads in browsers, and in Node 20 given wasmBinary (engine.mjs)
                                      # no SINGLE_FILE: a separate .wasm, compiled while it streams
                                      # and cached once for every page (base64 cost 20% gzipped)
  -sALLOW_MEMORY_GROWTH=1             # the default 16 MiB heap must not abort on a big request
  -sNODEJS_CATCH_EXIT=0               # no process-wide handlers that change test runners
  -sNODEJS_CATCH_REJECTION=0
  -sEXPORT_NAME=createScalebookEngine
  -sDYNAMIC_EXECUTION=0               # Embind builds its invokers without new Function, so pages
                                      # run under a CSP with no 'unsafe-eval' (scripts/serve's)
)
set(SCALEBOOK_WASM_RELEASE_FLAGS -O2)  # wasm-opt for speed; needs NODE_PATH for acorn
# The build type's compile flags: -O2 (CMake's Release would be -O3, which only adds size).
# Never a global -Os: emcc keeps its shrink level through a later -O2, so per-file speed flags
# cannot undo it, and the -Os engine runs calculations 3x slower. Instead the numeric core
# below (core, the cost models, the planner, the search and the simulators) keeps -O2 and every
# other engine file (schemas, adapters, steps, parsers, catalogs, exercises) compiles -Os
# (engine/CMakeLists.txt). Measured 2026-12-02: the .wasm 440 -> 350 kB brotli; explained
# calls within 5% (chip 92 -> 124 us), prepared ones 1-4 us p99, sweeps 2x slower (0.6 ms).
set(CMAKE_CXX_FLAGS_RELEASE "-O2 -DNDEBUG")
set(SCALEBOOK_WASM_SIZE_FLAGS -Os)
set(SCALEBOOK_WASM_SPEED_SOURCES "/src/(core/[a-z_]+|parallelism/layout|collectives/(collective_cost|gpu_collective_cost|collective_chips)|training/(step/(step|comms|memory|shape)|search/(search|keep)|pipeline/(pipeline|schedules)|split/split|budget/budget|plan/(plan|pods))|transformer/transformer_(counts|memory|roofline|blocks)|sharding/(matmul_plan|matmul_shapes|sharded_matmul|sharding_inputs)|hardware/chip_calc|systolic/systolic_sim)\\.cpp$")
# The smaller modules' engine: every file -Oz and LTO, linked -Oz with emmalloc. Measured
# 2026-12-03 on the sharding module, kB brotli: 199 as the whole engine's objects, 165 all -Oz,
# 155 with LTO, 154 with emmalloc (-fno-rtti would save 1 more and needs Embind changes).
# -mbulk-memory: -Oz's libc copies and clears a byte at a time, and the search clears a
# 2.3 kB TrainingStep per configuration; memory.copy and memory.fill (every browser since 2021)
# made the training module's search 3.6x faster in Chromium (2026-12-03: LLaMA 3 70B on 8192
# v5p 257 -> 72 ms, 405B on 65,536 chips 64 -> 18 ms) for 223 bytes of .wasm.
# -finline-functions: emcc adds -fno-inline-functions to any -Os or -Oz compile (before the
# user's flags, so a later one wins), and with it clang left even std::string's size() and
# the engine's one-line accessors as calls: half of a training call's time. Measured
# 2026-12-04 with `node bench/wasm_bench.mjs --module scalebook-engine-training`: the
# training calculator's numbers-only call 307 -> 158 us (the whole engine 177, llm-analysis
# in Python 208), explained 569 -> 367 us, sharded-matmul 96 -> 42 us; the LLaMA 3 70B search
# on 8192 v5p 94 -> 36 ms in Node (the whole engine 39), the same results. Every smaller
# .wasm shrank 3-5% (training 253.7 -> 249.0 kB brotli, roofline 108.0 -> 102.5): the calls
# were larger than what they called. (-O2 for core/ alone made the call 186 us for 17 kB
# more; -Os changed nothing, since it too comes with -fno-inline-functions.)
set(SCALEBOOK_WASM_SMALL_COMPILE_FLAGS -Oz -finline-functions -flto -mbulk-memory)
set(SCALEBOOK_WASM_SMALL_FLAGS -Oz -flto -mbulk-memory -sMALLOC=emmalloc)
set(SCALEBOOK_WASM_TEST_FLAGS -sASSERTIONS=1)  # catch integer range errors at the boundary
