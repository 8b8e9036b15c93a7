# libmodlights: the C library (-DMODLIGHTS_C=ON), included by CMakeLists.txt after the C
# core's sources (MLCORE_SOURCES) and Threads are known.
#
#   targets   modlights_static (libmodlights.a) and modlights_shared (libmodlights.so.0),
#             one set of objects compiled once (position independent, hidden visibility:
#             the shared library exports the ML_API functions of modlights.h and nothing
#             else; ctest's api-exports checks it); aliases modlights::static and
#             modlights::shared, and modlights::modlights (the shared one)
#   tests     the C tests of csrc/tests (cmake/ctests.cmake), api-exports, and one
#             example-<name> per examples/c/<name>.c (linked to the shared library);
#             examples whose API is not implemented yet are registered DISABLED
#   install   include/modlights.h, both libraries, lib/pkgconfig/modlights.pc (relocatable:
#             its prefix is found from its own place), lib/cmake/modlights/ (the package
#             config, version file and targets for find_package(modlights))
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The version: the header's ML_VERSION_STRING, which must be the Python package's.
file(STRINGS ${CMAKE_CURRENT_SOURCE_DIR}/csrc/include/modlights.h ML_H_VERSION_LINE
     REGEX "^#define ML_VERSION_STRING \"[^\"]+\"")
string(REGEX REPLACE ".*\"([^\"]+)\".*" "\\1" ML_VERSION "${ML_H_VERSION_LINE}")
file(STRINGS ${CMAKE_CURRENT_SOURCE_DIR}/src/modlights/__init__.py ML_PY_VERSION_LINE
     REGEX "^__version__ = \"[^\"]+\"$")
string(REGEX REPLACE "^__version__ = \"([^\"]+)\"$" "\\1" ML_PY_VERSION "${ML_PY_VERSION_LINE}")
if(NOT ML_VERSION STREQUAL ML_PY_VERSION)
  message(FATAL_ERROR "csrc/include/modlights.h declares version ${ML_VERSION}, "
          "src/modlights/__init__.py ${ML_PY_VERSION}: make them one version")
endif()
string(REGEX MATCH "^[0-9]+" ML_SOVERSION "${ML_VERSION}")
message(STATUS "modlights: libmodlights ${ML_VERSION} (static and shared)")

file(GLOB ML_API_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/csrc/api/*.c)
set(ML_INCLUDE ${CMAKE_CURRENT_SOURCE_DIR}/csrc/include)

add_library(modlights_objects OBJECT ${MLCORE_SOURCES} ${ML_API_SOURCES})
target_include_directories(modlights_objects PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/csrc)
target_compile_definitions(modlights_objects PRIVATE ML_BUILDING)
set_target_properties(modlights_objects PROPERTIES
  C_VISIBILITY_PRESET hidden
  POSITION_INDEPENDENT_CODE ON)

foreach(kind static shared)
  string(TOUPPER ${kind} KIND)
  add_library(modlights_${kind} ${KIND} $<TARGET_OBJECTS:modlights_objects>)
  add_library(modlights::${kind} ALIAS modlights_${kind})
  set_target_properties(modlights_${kind} PROPERTIES OUTPUT_NAME modlights EXPORT_NAME ${kind})
  target_include_directories(modlights_${kind} PUBLIC
    $<BUILD_INTERFACE:${ML_INCLUDE}> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_link_libraries(modlights_${kind} PUBLIC Threads::Threads)
endforeach()
set_target_properties(modlights_shared PROPERTIES VERSION ${ML_VERSION} SOVERSION ${ML_SOVERSION})
if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
  target_link_options(modlights_shared PRIVATE "LINKER:--no-undefined")
endif()
target_compile_definitions(modlights_static INTERFACE ML_STATIC)
add_library(modlights::modlights ALIAS modlights_shared)

# ---------------------------------------------------------------- tests and examples
enable_testing()
include(${CMAKE_CURRENT_SOURCE_DIR}/cmake/ctests.cmake)

add_test(NAME api-exports
  COMMAND ${CMAKE_COMMAND} -DLIB=$<TARGET_FILE:modlights_shared>
          -DHEADER=${ML_INCLUDE}/modlights.h -DNM=${CMAKE_NM}
          -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/check_exports.cmake)

# The examples (examples/c/<name>.c -> example-<name>), each a program that includes
# modlights.h alone. ML_EXAMPLES_PENDING: those that need functions still returning
# ML_ENOTIMPL; they are built (so they keep compiling against the header) and listed by
# ctest as disabled until their work package lands.
set(ML_EXAMPLES_PENDING)
file(GLOB ML_EXAMPLES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/examples/c/*.c)
foreach(e ${ML_EXAMPLES})
  get_filename_component(ename ${e} NAME_WE)
  add_executable(example-${ename} ${e})
  target_link_libraries(example-${ename} PRIVATE modlights::modlights)
  add_test(NAME example-${ename} COMMAND example-${ename})
  if(ename IN_LIST ML_EXAMPLES_PENDING)
    set_tests_properties(example-${ename} PROPERTIES DISABLED TRUE)
  endif()
endforeach()

# ---------------------------------------------------------------- install
set(ML_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/modlights)
install(FILES ${ML_INCLUDE}/modlights.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS modlights_static modlights_shared EXPORT modlightsTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT modlightsTargets NAMESPACE modlights:: DESTINATION ${ML_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/modlightsConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/modlightsConfig.cmake INSTALL_DESTINATION ${ML_CMAKE_DIR})
# 0.x: a minor release may change the API
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/modlightsConfigVersion.cmake
  VERSION ${ML_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/modlightsConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/modlightsConfigVersion.cmake
        DESTINATION ${ML_CMAKE_DIR})
# pkg-config: the prefix from the .pc file's own place, so `cmake --install --prefix P`
# gives a correct file for any P
file(RELATIVE_PATH ML_PC_TO_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" ML_PC_TO_PREFIX "${ML_PC_TO_PREFIX}")
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/modlights.pc.in
               ${CMAKE_CURRENT_BINARY_DIR}/modlights.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/modlights.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
