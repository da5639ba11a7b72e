# distarray_layer(NAME SOURCES...): the library of one layer (core, redist,
# io), with its public headers under <layer>/include/distarray/ and the
# settings every layer shares.
function(distarray_layer name)
  add_library(distarray_${name} ${ARGN})
  target_include_directories(distarray_${name} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  # Library sources include internal headers (detail/) directly.
  target_compile_definitions(distarray_${name} PRIVATE DISTARRAY_VERSION="${PROJECT_VERSION}"
                             DISTARRAY_INCLUDING_DETAIL)
  # -Wno-restrict: GCC 12 false positive on std::string concatenation (GCC PR 105651).
  target_compile_options(distarray_${name} PRIVATE -Wall -Wextra -Wpedantic
                         $<$<CXX_COMPILER_ID:GNU>:-Wno-restrict>)
  set_target_properties(distarray_${name} PROPERTIES POSITION_INDEPENDENT_CODE ON EXPORT_NAME ${name})
  add_library(distarray::${name} ALIAS distarray_${name})
  install(DIRECTORY include/distarray DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endfunction()
