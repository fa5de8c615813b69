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
# cannot undo it, and the -Os engine runs calculations 3x slower. What runs once a page
# compiles for size instead (engine/CMakeLists.txt: SCALEBOOK_WASM_SIZE_FLAGS).
set(CMAKE_CXX_FLAGS_RELEASE "-O2 -DNDEBUG")
set(SCALEBOOK_WASM_SIZE_FLAGS -Os)
set(SCALEBOOK_WASM_TEST_FLAGS -sASSERTIONS=1)  # catch integer range errors at the boundary
