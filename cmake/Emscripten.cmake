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
  # The glue's size, which every chapter's read-through pays once (bench/page_weight.mjs):
  -sINCOMING_MODULE_JS_API=[wasmBinary,locateFile]  # the only options api.mjs passes the factory
  -sTEXTDECODER=2                     # every target has TextDecoder: no fallback decoder
  -sSUPPORT_LONGJMP=0                 # the engine never calls setjmp
)
# The build type's compile flags stay -O2 (CMake's Release would be -O3); every engine file
# then compiles with SCALEBOOK_WASM_COMPILE_FLAGS below, which come after them and win.
set(CMAKE_CXX_FLAGS_RELEASE "-O2 -DNDEBUG")
# One way to build every engine file, in every module: no list of files that build for speed,
# so a new model file cannot silently build 3-4x slower. Until 2026-12-05 the whole engine kept
# a hand-kept list of "speed" files at -O2 and the rest -Os; the smaller modules, all -Oz with
# inlining (below), had become as fast. Measured 2026-12-05 on the whole engine, before ->
# after: 353 -> 262 kB brotli; LLaMA 3 70B search on 8192 v5p in Chromium 31.5 -> 30.5 ms;
# training numbers-only 174 -> 160 us; systolic simulator 1.8x faster; transformer 131 -> 152
# us (README, "Engine modules", has the rest).
# Every file -Oz and LTO, linked -Oz with emmalloc. Measured
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
set(SCALEBOOK_WASM_COMPILE_FLAGS -Oz -finline-functions -flto -mbulk-memory)
set(SCALEBOOK_WASM_MODULE_FLAGS -Oz -flto -mbulk-memory -sMALLOC=emmalloc)
set(SCALEBOOK_WASM_TEST_FLAGS -sASSERTIONS=1)  # catch integer range errors at the boundary
