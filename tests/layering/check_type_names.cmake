# Fails when two public engine headers declare a type of the same name. They are all in
# namespace scalebook, and two definitions of one name there are one-definition-rule
# violations that LTO turns into wrong code: two axis structs once made the WebAssembly build
# read vectors at the wrong size, and two PipelineSchedule enums (the step model's and the
# simulator's) sat in the training headers until this check found them.
# Run by ctest: cmake -DENGINE_DIR=... -P check_type_names.cmake
file(GLOB_RECURSE headers "${ENGINE_DIR}/include/*.h")
set(problems "")
foreach(file IN LISTS headers)
  file(RELATIVE_PATH rel "${ENGINE_DIR}" "${file}")
  # Types at namespace scope start at column 0; a forward declaration ("struct Later;") is
  # not a definition.
  file(STRINGS "${file}" lines REGEX "^(struct|class|enum class|enum) [A-Za-z_]")
  foreach(line IN LISTS lines)
    if(line MATCHES "^[a-z ]+ [A-Za-z0-9_]+;")
      continue()
    endif()
    string(REGEX REPLACE "^(struct|class|enum class|enum) ([A-Za-z_][A-Za-z0-9_]*).*$" "\\2" name "${line}")
    if(DEFINED seen_${name})
      string(APPEND problems "\n  ${name}: declared in ${seen_${name}} and ${rel}")
    else()
      set(seen_${name} "${rel}")
    endif()
  endforeach()
endforeach()
if(problems)
  message(FATAL_ERROR "engine type names:${problems}")
endif()
list(LENGTH headers count)
message(STATUS "engine type names: ${count} headers, each type declared once")
