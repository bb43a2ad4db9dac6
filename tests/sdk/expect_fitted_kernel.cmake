# examples/fitted_kernel: the median-heuristic Gaussian, fitted per validation split.
set(describe_patterns
    "σ = factor · median pairwise distance"
    "fitted")
set(expected_rows 2)

function(check_results)
  foreach(row 1 2)
    sdk_field(status ${row} status)
    sdk_field(fit ${row} kernel_fit_seconds)
    sdk_field(validation ${row} validation_rmse)
    if(NOT status STREQUAL "ok" OR fit STREQUAL "" OR validation STREQUAL "")
      message(FATAL_ERROR "row ${row}: status '${status}', kernel_fit_seconds '${fit}', "
                          "validation_rmse '${validation}'")
    endif()
  endforeach()
endfunction()
