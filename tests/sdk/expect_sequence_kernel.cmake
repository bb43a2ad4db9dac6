# examples/sequence_kernel: the composition kernel on the hmm dataset's sequences, in both
# forms, which predict alike.
set(describe_patterns
    "f_s the frequency of symbol s"
    "sequences over an alphabet")
set(expected_rows 2)

function(check_results)
  foreach(row 1 2)
    sdk_field(status ${row} status)
    sdk_field(fit ${row} kernel_fit_seconds)
    if(NOT status STREQUAL "ok" OR fit STREQUAL "")
      message(FATAL_ERROR "row ${row}: status '${status}', kernel_fit_seconds '${fit}'")
    endif()
  endforeach()
  sdk_field(diff 2 prediction_max_diff)
  if(diff STREQUAL "" OR diff GREATER 1e-6)
    message(FATAL_ERROR "the primal and dual forms differ by '${diff}'")
  endif()
endfunction()
