# cmake -P script: install, build the out-of-tree plugin, run kexp with it, check output.
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

step(${CMAKE_COMMAND} --install ${KEXP_BUILD_DIR} --prefix ${prefix})
# As the guide says, with no build type: the plugin must still be optimised, built with
# kexp's warnings and named by its kind, as a plugin built in tree is.
step(${CMAKE_COMMAND} -S ${KEXP_SDK_PROJECT} -B ${build}
     -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${KEXP_CXX_COMPILER}
     -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)
step(${CMAKE_COMMAND} --build ${build})
if(NOT EXISTS ${build}/plugins/libkexp_kernel_inverse_multiquadric.so)
  file(GLOB built ${build}/plugins/*)
  message(FATAL_ERROR "expected plugins/libkexp_kernel_inverse_multiquadric.so, got: ${built}")
endif()
file(READ ${build}/compile_commands.json commands)
foreach(flag -O2 -DNDEBUG -Wall -Wextra -Wshadow -Wold-style-cast)
  if(NOT commands MATCHES " ${flag} ")
    message(FATAL_ERROR "the out-of-tree plugin is not compiled with ${flag}:\n${commands}")
  endif()
endforeach()

# The installed kexp finds its own plugins and, through --plugin-path, the new one.
step(${prefix}/bin/kexp describe inverse_multiquadric --plugin-path ${build}/plugins)
if(NOT step_output MATCHES "1/√\\(‖x − z‖² \\+ c²\\)")
  message(FATAL_ERROR "describe did not show the plugin's formula:\n${step_output}")
endif()
step(${prefix}/bin/kexp run ${KEXP_SDK_PROJECT}/experiment.yaml --plugin-path ${build}/plugins
     --out ${KEXP_WORK_DIR}/results --quiet)
file(STRINGS ${KEXP_WORK_DIR}/results/results.csv rows)
list(LENGTH rows count)
if(NOT count EQUAL 3)
  message(FATAL_ERROR "expected a header and 2 rows in results.csv, got ${count} lines")
endif()
list(GET rows 1 first)
if(NOT first MATCHES ",ok,cubic,inverse_multiquadric,kernel_ridge,dual,")
  message(FATAL_ERROR "unexpected first row: ${first}")
endif()
message(STATUS "out-of-tree plugin built and run: ${count} lines in results.csv")
