# examples/custom_dataset: two_spirals, 300 samples, test_fraction 0.25, classified by
# Gaussian kernel ridge at σ = 0.1 and 0.3.
set(describe_patterns
    "two spirals x = ±t"
    "\n  classification\n"
    "\n  turns +real +1\\.0 "
    # added to every dataset by kexp
    "\n  test_fraction +real +0\\.2 "
    "\n  standardize +string +false +one of false\\|true\\|population ")
set(expected_rows 2)

function(check_results)
  foreach(row 1 2)
    sdk_field(n_train ${row} n_train)
    sdk_field(n_test ${row} n_test)
    sdk_field(d ${row} d)
    sdk_field(turns ${row} dataset.turns)
    sdk_field(fraction ${row} dataset.test_fraction)
    sdk_field(accuracy ${row} test_accuracy)
    if(NOT "${n_train} ${n_test} ${d} ${turns} ${fraction}" STREQUAL "225 75 2 1 0.25")
      message(FATAL_ERROR "row ${row}: n_train ${n_train}, n_test ${n_test}, d ${d}, "
                          "turns ${turns}, test_fraction ${fraction}")
    endif()
    # A classification dataset: the runner scores the sign of the predictions.
    sdk_nano(accuracy_nano "${accuracy}")
    if(accuracy_nano LESS 900000000)
      message(FATAL_ERROR "row ${row}: test accuracy ${accuracy}, expected at least 0.9")
    endif()
  endforeach()
endfunction()
