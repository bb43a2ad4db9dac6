# cmake -P script: install kexp into a fresh prefix, build one example plugin out of tree
# against it, describe it and run its experiment with the installed kexp, and check the
# output.
#
#   KEXP_BUILD_DIR     the kexp build tree to install
#   KEXP_SDK_PROJECT   the example's folder (CMakeLists.txt, experiment.yaml)
#   KEXP_WORK_DIR      scratch folder, emptied first
#   KEXP_CXX_COMPILER  the compiler kexp was built with
#   KEXP_PLUGIN_KIND   kernel, solver or dataset
#   KEXP_PLUGIN_NAME   the plugin's name in its descriptor
#   KEXP_BLAS_OPENMP   1 where kexp linked OpenBLAS's OpenMP build
#   KEXP_EXPECT        a file that sets `describe_patterns` (regular expressions that
#                      `kexp describe` must match), `expected_rows` (rows of results.csv)
#                      and defines check_results(), which checks the rows with sdk_field()
cmake_minimum_required(VERSION 3.18)  # policies: lists keep empty elements (CMP0007)
set(prefix ${KEXP_WORK_DIR}/prefix)
set(build ${KEXP_WORK_DIR}/build)
file(REMOVE_RECURSE ${KEXP_WORK_DIR})

function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

# sdk_field(OUT ROW COLUMN): the field COLUMN (a name of the header) of row ROW (1 is the
# first row after the header) of results.csv. The rows checked here hold no quoted field.
function(sdk_field out row column)
  list(GET rows 0 header_line)
  string(REPLACE "," ";" header "${header_line}")
  list(FIND header "${column}" index)
  if(index LESS 0)
    message(FATAL_ERROR "results.csv has no column '${column}': ${header_line}")
  endif()
  list(GET rows ${row} line)
  string(REPLACE "," ";" fields "${line}")
  list(LENGTH header expected)
  list(LENGTH fields got)
  if(NOT got EQUAL expected)
    message(FATAL_ERROR "row ${row} has ${got} fields, the header ${expected}: ${line}")
  endif()
  list(GET fields ${index} value)
  set(${out} "${value}" PARENT_SCOPE)
endfunction()

# sdk_nano(OUT TEXT): a decimal number as results.csv writes it ("0.105", "4.2e-09",
# "12") in integer units of 10⁻⁹, truncated, for comparisons with math(EXPR).
function(sdk_nano out text)
  if(NOT text MATCHES "^(-?)([0-9]*)\\.?([0-9]*)([eE]([-+]?[0-9]+))?$" OR text STREQUAL "")
    message(FATAL_ERROR "'${text}' is not a number")
  endif()
  set(sign "${CMAKE_MATCH_1}")
  set(digits "${CMAKE_MATCH_2}${CMAKE_MATCH_3}")
  string(LENGTH "${CMAKE_MATCH_3}" decimals)
  set(exponent 0)
  if(NOT "${CMAKE_MATCH_5}" STREQUAL "")
    set(exponent "${CMAKE_MATCH_5}")
  endif()
  math(EXPR shift "${exponent} - ${decimals} + 9")
  if(shift GREATER_EQUAL 0)
    string(REPEAT "0" ${shift} zeros)
    string(APPEND digits "${zeros}")
  else()
    math(EXPR keep "0 - ${shift}")
    string(LENGTH "${digits}" length)
    math(EXPR length "${length} - ${keep}")
    if(length LESS_EQUAL 0)
      set(digits 0)
    else()
      string(SUBSTRING "${digits}" 0 ${length} digits)
    endif()
  endif()
  string(REGEX MATCH "^0*([0-9]+)$" digits "${digits}")
  set(digits "${CMAKE_MATCH_1}")
  string(LENGTH "${digits}" length)
  if(length GREATER 18)
    message(FATAL_ERROR "'${text}' is too large to compare")
  endif()
  math(EXPR value "${sign}${digits}")
  set(${out} ${value} PARENT_SCOPE)
endfunction()

include(${KEXP_EXPECT})

step(${CMAKE_COMMAND} --install ${KEXP_BUILD_DIR} --prefix ${prefix})
# As the guides say, with no build type: the plugin must still be optimised, built with
# kexp's warnings and named by its kind, as a plugin built in tree is.
step(${CMAKE_COMMAND} -S ${KEXP_SDK_PROJECT} -B ${build}
     -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${KEXP_CXX_COMPILER}
     -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)
step(${CMAKE_COMMAND} --build ${build})
set(library libkexp_${KEXP_PLUGIN_KIND}_${KEXP_PLUGIN_NAME}.so)
if(NOT EXISTS ${build}/plugins/${library})
  file(GLOB built ${build}/plugins/*)
  message(FATAL_ERROR "expected plugins/${library}, got: ${built}")
endif()
file(READ ${build}/compile_commands.json commands)
foreach(flag -O2 -DNDEBUG -Wall -Wextra -Wshadow -Wold-style-cast)
  if(NOT commands MATCHES " ${flag} ")
    message(FATAL_ERROR "the out-of-tree plugin is not compiled with ${flag}:\n${commands}")
  endif()
endforeach()

# The installed kexp finds its own plugins and, through --plugin-path, the new one.
step(${prefix}/bin/kexp describe ${KEXP_PLUGIN_NAME} --plugin-path ${build}/plugins)
foreach(pattern "^${KEXP_PLUGIN_KIND} ${KEXP_PLUGIN_NAME} " ${describe_patterns})
  if(NOT step_output MATCHES "${pattern}")
    message(FATAL_ERROR "describe does not match '${pattern}':\n${step_output}")
  endif()
endforeach()
if(NOT step_output MATCHES "file: [^\n]*/plugins/${library}\n")
  message(FATAL_ERROR "describe did not find the plugin in ${build}/plugins:\n${step_output}")
endif()

# Exit 0: every cell of the experiment ran.
step(${prefix}/bin/kexp run ${KEXP_SDK_PROJECT}/experiment.yaml --plugin-path ${build}/plugins
     --out ${KEXP_WORK_DIR}/results --quiet)
# The installed kexp runs on the OpenBLAS build it was linked with: its run-time path
# names the OpenMP build's folder, ahead of the system's default build.
file(READ ${KEXP_WORK_DIR}/results/manifest.json manifest)
string(JSON threading GET "${manifest}" environment blas threading)
if(KEXP_BLAS_OPENMP AND NOT threading STREQUAL "openmp")
  message(FATAL_ERROR "the installed kexp ran on OpenBLAS's ${threading} build, not the OpenMP "
                      "build it was linked with")
endif()
file(STRINGS ${KEXP_WORK_DIR}/results/results.csv rows)
list(LENGTH rows count)
math(EXPR expected_lines "${expected_rows} + 1")
if(NOT count EQUAL expected_lines)
  message(FATAL_ERROR "expected a header and ${expected_rows} rows in results.csv, got ${count} lines")
endif()
set(named 0)
foreach(row RANGE 1 ${expected_rows})
  sdk_field(status ${row} status)
  if(NOT status STREQUAL "ok")
    list(GET rows ${row} line)
    message(FATAL_ERROR "row ${row} is not ok: ${line}")
  endif()
  sdk_field(plugin ${row} ${KEXP_PLUGIN_KIND})
  if(plugin STREQUAL KEXP_PLUGIN_NAME)
    math(EXPR named "${named} + 1")
  endif()
endforeach()
if(named EQUAL 0)
  message(FATAL_ERROR "no row of results.csv has ${KEXP_PLUGIN_KIND} ${KEXP_PLUGIN_NAME}")
endif()
check_results()
message(STATUS "out-of-tree ${KEXP_PLUGIN_KIND} ${KEXP_PLUGIN_NAME} built and run: ${count} lines in results.csv")
