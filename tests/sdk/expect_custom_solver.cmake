# examples/custom_solver: kernel_ridge_cg beside kernel_ridge at λ = 0.1 and 0.001 on one
# K, and once stopped after 3 steps.
set(describe_patterns
    "conjugate gradients: \\(K \\+ λI\\)β = y"
    "form: dual"
    "iterative"
    "metrics: relative_residual\n"
    "\n  iterations +integer +1000 ")
set(expected_rows 5)

function(check_results)
  # The rows in run order: cg(0.1), cg(0.001), kernel_ridge(0.1), kernel_ridge(0.001),
  # cg(0.001, 3 steps).
  foreach(row 1 2 3 4 5)
    sdk_field(solver_${row} ${row} solver)
    sdk_field(lambda_${row} ${row} solver.lambda)
    sdk_field(test_rmse_${row} ${row} test_rmse)
    sdk_field(train_rmse_${row} ${row} train_rmse)
    sdk_field(converged_${row} ${row} converged)
    sdk_field(iterations_${row} ${row} iterations)
    sdk_field(residual_${row} ${row} relative_residual)
  endforeach()
  set(order "${solver_1} ${solver_2} ${solver_3} ${solver_4} ${solver_5}")
  if(NOT order STREQUAL "kernel_ridge_cg kernel_ridge_cg kernel_ridge kernel_ridge kernel_ridge_cg")
    message(FATAL_ERROR "unexpected solvers, in order: ${order}")
  endif()
  # Converged to the tolerance 1e-8, fitted values reported (train_rmse even in the
  # group's last dual cell), and the same test RMSE as the Cholesky solution to 1e-6.
  foreach(pair "1;3" "2;4")
    list(GET pair 0 cg)
    list(GET pair 1 chol)
    if(NOT lambda_${cg} STREQUAL lambda_${chol})
      message(FATAL_ERROR "rows ${cg} and ${chol} have λ ${lambda_${cg}} and ${lambda_${chol}}")
    endif()
    if(NOT converged_${cg} STREQUAL "true" OR NOT iterations_${cg} GREATER 3)
      message(FATAL_ERROR "row ${cg}: converged '${converged_${cg}}' after '${iterations_${cg}}' steps")
    endif()
    sdk_nano(residual ${residual_${cg}})
    sdk_nano(a ${test_rmse_${cg}})
    sdk_nano(b ${test_rmse_${chol}})
    math(EXPR difference "${a} - ${b}")
    if(residual GREATER 10 OR difference GREATER 1000 OR difference LESS -1000)
      message(FATAL_ERROR "λ = ${lambda_${cg}}: CG test RMSE ${test_rmse_${cg}} (relative residual "
                          "${residual_${cg}}), Cholesky ${test_rmse_${chol}}")
    endif()
  endforeach()
  # Stopped after iterations: an ok row with converged false, not a failure.
  if(NOT converged_5 STREQUAL "false" OR NOT iterations_5 EQUAL 3 OR train_rmse_5 STREQUAL "")
    message(FATAL_ERROR "the 3-step row: converged '${converged_5}', iterations "
                        "'${iterations_5}', train_rmse '${train_rmse_5}'")
  endif()
  sdk_nano(residual ${residual_5})
  if(residual LESS_EQUAL 10)
    message(FATAL_ERROR "the 3-step row reports a relative residual of ${residual_5}")
  endif()
  # The loss curve goes to results.jsonl only: 3 values for the 3-step cell.
  file(STRINGS ${KEXP_WORK_DIR}/results/results.jsonl lines)
  list(GET lines 4 last)
  if(NOT last MATCHES "\"loss_curve\":\\[[^],]+,[^],]+,[^],]+\\]")
    message(FATAL_ERROR "no loss curve of 3 values in the last row of results.jsonl: ${last}")
  endif()
endfunction()
