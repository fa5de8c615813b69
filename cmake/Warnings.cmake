# One place for warning and sanitizer flags, applied per target with scalebook_warnings().
function(scalebook_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                           -Wno-sign-conversion
                                           # aggregates lean on member defaults
                                           -Wno-missing-field-initializers)
  if(SCALEBOOK_STRICT)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

if(SCALEBOOK_SANITIZE)
  # -fno-sanitize-recover makes any UB report fail the test instead of printing and going on.
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()

if(SCALEBOOK_FUZZ)
  # Coverage for libFuzzer in every object; only the fuzz target links libFuzzer's main.
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
