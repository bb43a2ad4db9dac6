# examples/kernel_solver: nystrom_ridge (a solver that reaches the kernel) with every
# training point a centre, and with 20, beside kernel_ridge at the same λ.
set(describe_patterns
    "subset of regressors"
    "form: dual"
    "reaches the kernel: never holds K"
    "\n  m +integer +100 ")
set(expected_rows 3)

function(check_results)
  foreach(row 1 2 3)
    sdk_field(solver_${row} ${row} solver)
    sdk_field(m_${row} ${row} solver.m)
    sdk_field(status_${row} ${row} status)
    sdk_field(test_rmse_${row} ${row} test_rmse)
    sdk_field(train_rmse_${row} ${row} train_rmse)
  endforeach()
  set(order "${solver_1}(${m_1}) ${solver_2}(${m_2}) ${solver_3}")
  if(NOT order STREQUAL "nystrom_ridge(160) nystrom_ridge(20) kernel_ridge")
    message(FATAL_ERROR "unexpected solvers, in order: ${order}")
  endif()
  foreach(row 1 2 3)
    if(NOT status_${row} STREQUAL "ok" OR train_rmse_${row} STREQUAL "")
      message(FATAL_ERROR "row ${row}: status '${status_${row}}', train_rmse '${train_rmse_${row}}'")
    endif()
  endforeach()
  # Every training point a centre: kernel ridge's test RMSE, to 1e-6.
  sdk_nano(a ${test_rmse_1})
  sdk_nano(b ${test_rmse_3})
  math(EXPR difference "${a} - ${b}")
  if(difference GREATER 1000 OR difference LESS -1000)
    message(FATAL_ERROR "m = n: test RMSE ${test_rmse_1}, kernel ridge's ${test_rmse_3}")
  endif()
  # 20 centres: an approximation, no better than the exact solution here.
  sdk_nano(c ${test_rmse_2})
  if(c LESS b)
    message(FATAL_ERROR "m = 20: test RMSE ${test_rmse_2} below kernel ridge's ${test_rmse_3}")
  endif()
endfunction()
