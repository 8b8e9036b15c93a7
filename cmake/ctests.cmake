# The C tests of csrc/tests (one t-<module>.c per C module), each built from the sources
# and variants its ml-test-sources / ml-test-variant comment lines name
# (csrc/tests/README.md) and registered with ctest under its name (t-gf2, t-gf2-chunk2...).
# Included by CMakeLists.txt (-DMODLIGHTS_C_TESTS=ON) and cmake/libmodlights.cmake.
# t-version also gets ML_EXPECTED_VERSION: the Python package's __version__.
file(GLOB ML_CTESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/csrc/tests/t-*.c)
file(STRINGS ${CMAKE_CURRENT_SOURCE_DIR}/src/modlights/__init__.py ML_PY_VERSION_LINE
     REGEX "^__version__ = \"[^\"]+\"$")
string(REGEX REPLACE "^__version__ = \"([^\"]+)\"$" "\\1" ML_PY_VERSION "${ML_PY_VERSION_LINE}")

function(ml_add_c_test name file srcs)
  add_executable(${name} ${file} ${srcs})
  target_include_directories(${name} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/csrc)
  target_link_libraries(${name} PRIVATE Threads::Threads)
  if(name MATCHES "^t-version")
    target_compile_definitions(${name} PRIVATE ML_EXPECTED_VERSION="${ML_PY_VERSION}")
  endif()
  add_test(NAME ${name} COMMAND ${name})
endfunction()

foreach(t ${ML_CTESTS})
  get_filename_component(tname ${t} NAME_WE)
  file(STRINGS ${t} srcline REGEX "ml-test-sources:")
  string(REGEX REPLACE ".*ml-test-sources:([^*]*).*" "\\1" srcs "${srcline}")
  string(STRIP "${srcs}" srcs)
  separate_arguments(srcs)
  list(TRANSFORM srcs PREPEND ${CMAKE_CURRENT_SOURCE_DIR}/csrc/)
  ml_add_c_test(${tname} ${t} "${srcs}")
  file(STRINGS ${t} variants REGEX "ml-test-variant:")
  foreach(v ${variants})
    string(REGEX REPLACE ".*ml-test-variant:([^*]*).*" "\\1" v "${v}")
    string(STRIP "${v}" v)
    separate_arguments(v)
    list(POP_FRONT v vname)
    ml_add_c_test(${tname}-${vname} ${t} "${srcs}")
    target_compile_options(${tname}-${vname} PRIVATE ${v})
  endforeach()
endforeach()
