# Every emscripten flag in one place, each with its reason (see shared/docs/toolchain.md).
set(SCALEBOOK_WASM_LINK_FLAGS
  --bind                              # Embind
  -sMODULARIZE=1                      # a factory; the JS wrapper calls it once and caches it
  -sEXPORT_ES6=1                      # an ES module for esbuild, Node tests and the site builder
  -sENVIRONMENT=web                   # with SINGLE_FILE this loads in both Node 20 and browsers
  -sSINGLE_FILE=1                     # wasm inlined: no fetch of a file path under Node; works from file://
  -sALLOW_MEMORY_GROWTH=1             # the default 16 MiB heap must not abort on a big request
  -sNODEJS_CATCH_EXIT=0               # no process-wide handlers that change test runners
  -sNODEJS_CATCH_REJECTION=0
  -sEXPORT_NAME=createScalebookEngine
)
set(SCALEBOOK_WASM_RELEASE_FLAGS -Os)  # size over speed: 440 kB not 770 kB; needs NODE_PATH for acorn
set(SCALEBOOK_WASM_TEST_FLAGS -sASSERTIONS=1)  # catch integer range errors at the boundary
