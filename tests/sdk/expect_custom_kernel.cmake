# examples/custom_kernel: the inverse multiquadric kernel with kernel_ridge on cubic.
set(describe_patterns
    "1/√\\(‖x − z‖² \\+ c²\\)"
    "psd: always")
set(expected_rows 2)

function(check_results)
  list(GET rows 1 first)
  if(NOT first MATCHES ",ok,cubic,inverse_multiquadric,kernel_ridge,dual,")
    message(FATAL_ERROR "unexpected first row: ${first}")
  endif()
endfunction()
