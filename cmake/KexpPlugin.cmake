# kexp_add_plugin(NAME KIND kernel|solver|dataset SOURCES src... [LINK_LIBRARIES lib...]
#                 [OUTPUT_DIRECTORY dir] [NO_INSTALL])
#
# Builds a kexp plugin: a MODULE library named libkexp_<KIND>_<NAME>.so (the file name
# kexp looks a plugin up by; NAME is the name in the plugin's descriptor), target
# kexp_plugin_<KIND>_<NAME>, linked to the kexp SDK (kexp::sdk) and to its device building
# blocks (kexp::device, kexp/device.hpp: a solver that runs `device: cuda` or `device:
# host`; the runner loads that library anyway), with hidden visibility (only the
# entry symbol is exported) and kexp's warnings. Without KIND the library is
# libkexp_<NAME>.so, which kexp finds only by opening every library of the folder. When
# the project sets no build type, the plugin is still optimised (-O2, NDEBUG), since a
# plugin is built to be measured. The same helper builds the plugins of kexp itself and a
# user's plugins out of tree, after find_package(kexp).
#
# In the kexp build tree a plugin lands in the build's plugin folder, where `kexp` finds
# it; elsewhere in CMAKE_CURRENT_BINARY_DIR/plugins unless OUTPUT_DIRECTORY says
# otherwise. Point `kexp --plugin-path`, KEXP_PLUGIN_PATH or the experiment's
# `plugin_path` at that folder.
function(kexp_add_plugin name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "NO_INSTALL" "OUTPUT_DIRECTORY;KIND" "SOURCES;LINK_LIBRARIES")
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "kexp_add_plugin(${name}): SOURCES is required")
  endif()
  if(arg_KIND)
    if(NOT arg_KIND MATCHES "^(kernel|solver|dataset)$")
      message(FATAL_ERROR "kexp_add_plugin(${name}): KIND is kernel, solver or dataset, not '${arg_KIND}'")
    endif()
    set(name ${arg_KIND}_${name})
  endif()
  set(target kexp_plugin_${name})
  add_library(${target} MODULE ${arg_SOURCES})
  if(TARGET kexp::sdk)
    target_link_libraries(${target} PRIVATE kexp::sdk ${arg_LINK_LIBRARIES})
    if(TARGET kexp::device)
      target_link_libraries(${target} PRIVATE kexp::device)
    endif()
  else()
    message(FATAL_ERROR "kexp_add_plugin(${name}): the kexp SDK target is missing; call find_package(kexp) first")
  endif()
  if(arg_OUTPUT_DIRECTORY)
    set(out ${arg_OUTPUT_DIRECTORY})
  elseif(DEFINED KEXP_PLUGIN_OUTPUT_DIR)
    set(out ${KEXP_PLUGIN_OUTPUT_DIR})
  else()
    set(out ${CMAKE_CURRENT_BINARY_DIR}/plugins)
  endif()
  set_target_properties(${target} PROPERTIES
    OUTPUT_NAME kexp_${name}
    PREFIX lib
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LIBRARY_OUTPUT_DIRECTORY ${out})
  if(COMMAND kexp_set_warnings)
    kexp_set_warnings(${target})
  endif()
  # The SDK's vector maths (kexp::vexp, vlog, vpow) in a kernel's own loops vectorize only
  # when comparisons may be assumed not to raise floating-point exceptions (GCC if-converts
  # their range clamps then). Results are unchanged.
  target_compile_options(${target} PRIVATE $<$<CXX_COMPILER_ID:GNU>:-fno-trapping-math>)
  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  if(NOT CMAKE_BUILD_TYPE AND NOT multi_config)
    target_compile_options(${target} PRIVATE -O2)
    target_compile_definitions(${target} PRIVATE NDEBUG)
  endif()
  if(NOT arg_NO_INSTALL AND DEFINED KEXP_PLUGIN_INSTALL_DIR AND PROJECT_NAME STREQUAL "kexp")
    install(TARGETS ${target} LIBRARY DESTINATION ${KEXP_PLUGIN_INSTALL_DIR})
  endif()
endfunction()
