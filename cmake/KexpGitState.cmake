# Writes OUTPUT, a C++ source defining the git commit kexp is built from and whether
# tracked files differ from it. Run at every build (cmake -P); the file is rewritten
# only when its content changes, so an unchanged state recompiles nothing.
#   cmake -DSOURCE_DIR=… -DOUTPUT=… [-DGIT_EXECUTABLE=git] -P KexpGitState.cmake
if(NOT GIT_EXECUTABLE)
  set(GIT_EXECUTABLE git)
endif()
set(commit "")
set(dirty false)
execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} rev-parse HEAD
  OUTPUT_VARIABLE out RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(rc EQUAL 0)
  set(commit ${out})
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} status --porcelain --untracked-files=no
    OUTPUT_VARIABLE status RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(rc EQUAL 0 AND NOT status STREQUAL "")
    set(dirty true)
  endif()
endif()
set(content "// Generated at build time by cmake/KexpGitState.cmake; do not edit.
namespace kexp::core {
const char* git_commit_of_build() { return \"${commit}\"; }
bool git_dirty_of_build() { return ${dirty}; }
}  // namespace kexp::core
")
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} old)
else()
  set(old "")
endif()
if(NOT old STREQUAL content)
  file(WRITE ${OUTPUT} "${content}")
endif()
